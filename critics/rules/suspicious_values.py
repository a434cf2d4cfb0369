"""Impossible or suspicious values in a cell's results.

Impossible (critical): a p-value above 1 or below 0 (typically a hand-rolled Bonferroni
`p * n` that was never clipped), a negative variance or standard deviation, a correlation
outside [-1, 1], a probability or bounded score (accuracy, AUC, F1, precision, recall, R²)
outside its range. Suspicious: a score of exactly 1.0 (evaluation on the training data or a
leak), a negative R² (the model is worse than predicting the mean).

Values come from two places: the kernel's facts (scalars and short sequences whose name or
origin says what they are, result objects' `pvalue`/`rsquared`) and the text the user saw
(labelled numbers such as "R2: -0.31" or "p = 1.7", bracketed lists after a label, pandas
Series footers "Name: p_adj" and table columns). A printed label is tied back to the code
that printed it (print arguments, f-string fields, `.format`/`%` placeholders) so that a
generic label ("score") or a bare one ("p", "r") is trusted only when the code confirms it,
and so that `clf.score(X_train, y_train)` is known to be a training score.
"""

from __future__ import annotations

import ast
import re
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..ast_cache import walk as _walk
from ..code_model import called_name as _call_last
from ..code_model import names_in as _names
from ..code_model import root_name as _root
from ..evidence import Evidence, ObjectFacts
from ..findings import Finding
from ..rule import rule

# -- vocabulary -------------------------------------------------------------------------------

# Quantities: pvalue | r2 | adj_r2 | accuracy | auc | f1 | bounded | probability |
# correlation | variance | error | score (generic: R² for regressors, accuracy for classifiers)
PERFECT_QUANTITIES = {"r2", "accuracy", "auc", "f1", "score"}
METRIC_QUANTITIES = PERFECT_QUANTITIES | {"bounded", "error", "adj_r2", "pct_error"}

_METRIC_CALLS = {
    "r2_score": "r2", "accuracy_score": "accuracy", "balanced_accuracy_score": "accuracy",
    "roc_auc_score": "auc", "auc": "auc", "average_precision_score": "auc",
    "f1_score": "f1", "fbeta_score": "f1", "precision_score": "bounded",
    "recall_score": "bounded", "jaccard_score": "bounded", "matthews_corrcoef": "correlation",
    "corr": "correlation", "corrcoef": "correlation", "pearsonr": "correlation",
    "spearmanr": "correlation", "kendalltau": "correlation", "pointbiserialr": "correlation",
    "var": "variance", "std": "variance", "sem": "variance", "nanvar": "variance",
    "nanstd": "variance", "variance": "variance", "stdev": "variance", "pvariance": "variance",
    "pstdev": "variance", "predict_proba": "probability", "cdf": "probability",
    "sf": "probability", "expit": "probability", "softmax": "probability",
    "mean_squared_error": "error", "mean_absolute_error": "error",
    "root_mean_squared_error": "error", "multipletests": "pvalue_clipped",
    "mean_absolute_percentage_error": "pct_error",
    "fdrcorrection": "pvalue_clipped", "false_discovery_control": "pvalue_clipped",
}
_STAT_TESTS = {
    "ttest_ind", "ttest_rel", "ttest_1samp", "mannwhitneyu", "wilcoxon", "ranksums",
    "kruskal", "f_oneway", "chi2_contingency", "chisquare", "fisher_exact", "ks_2samp",
    "kstest", "shapiro", "normaltest", "levene", "bartlett", "friedmanchisquare",
    "brunnermunzel", "binomtest", "binom_test", "pearsonr", "spearmanr", "kendalltau",
    "pointbiserialr", "anderson_ksamp", "permutation_test", "ztest", "proportions_ztest",
}
_CORR_TESTS = {"pearsonr", "spearmanr", "kendalltau", "pointbiserialr"}
# Origins that name a test's result object rather than a number.
_NOT_A_VALUE = {None, "test_result", "test_result_corr"}
# Calls that pass their input's meaning through: mean of cv scores, round(acc, 3)…
_TRANSPARENT = {"mean", "median", "nanmean", "nanmedian", "float", "round", "item", "squeeze",
                "abs", "max", "min", "amax", "amin", "average", "nanmax", "nanmin", "tolist",
                "to_numpy", "asarray", "array", "values", "sort_values", "sorted", "list"}
_CLIP_CALLS = {"min", "minimum", "clip", "fmin"}

_EXCLUDE_TOKENS = {
    "diff", "delta", "change", "gain", "improvement", "log", "logp", "log10", "neglog", "neg",
    "gap", "drop", "shift", "lift", "loss", "threshold", "thresh", "alpha", "level", "cutoff",
    "n", "num", "count", "counts", "idx", "index", "rank", "z", "zscore", "resid", "residual",
    "residuals", "explained", "scaled", "scaler", "standardized", "normalized", "norm",
    "logit", "logits", "odds", "ratio", "density", "pdf", "likelihood", "ll", "total", "sum",
    "cum", "cumsum", "expected", "dof", "df", "nobs", "size", "weight", "weights", "std_err",
}
_TRAIN_TOKENS = {"train", "training", "trn", "tr", "insample", "fit", "fitted"}
_TEST_TOKENS = {"test", "testing", "tst", "te", "val", "valid", "validation", "holdout", "hold",
                "heldout", "oos", "cv", "oof", "fold", "folds", "eval", "dev"}
_PVALUE_MODIFIERS = {"adj", "adjusted", "corr", "corrected", "bonf", "bonferroni", "holm",
                     "fdr", "bh", "val", "value", "values", "vals", "raw", "sidak", "sided",
                     "tailed", "twosided", "onesided", "perm", "exact", "boot"}

_NAME_QUANTITY = {
    "r2": "r2", "rsq": "r2", "rsquared": "r2", "r2s": "r2", "r2score": "r2",
    "pval": "pvalue", "pvals": "pvalue", "pvalue": "pvalue", "pvalues": "pvalue",
    "padj": "pvalue", "pcorr": "pvalue", "qval": "pvalue", "qvals": "pvalue",
    "qvalue": "pvalue", "qvalues": "pvalue", "fdr": "pvalue", "pbonf": "pvalue",
    "pv": "pvalue", "pvs": "pvalue", "pvalue_adj": "pvalue",
    "acc": "accuracy", "accuracy": "accuracy", "accs": "accuracy", "accuracies": "accuracy",
    "auc": "auc", "aucs": "auc", "auroc": "auc", "rocauc": "auc",
    "f1": "f1", "f1s": "f1",
    "precision": "bounded", "recall": "bounded", "sensitivity": "bounded",
    "specificity": "bounded", "tpr": "bounded", "fpr": "bounded", "ppv": "bounded",
    "npv": "bounded",
    "corr": "correlation", "correlation": "correlation", "correlations": "correlation",
    "corrs": "correlation", "rho": "correlation", "pearson": "correlation",
    "spearman": "correlation", "kendall": "correlation", "rval": "correlation",
    "rvalue": "correlation",
    "var": "variance", "variance": "variance", "variances": "variance", "vars": "variance",
    "std": "variance", "stds": "variance", "sd": "variance", "sds": "variance",
    "stdev": "variance", "sigma": "variance", "sigmas": "variance", "sem": "variance",
    "stderr": "variance",
    "mse": "error", "rmse": "error", "mae": "error",
    "mape": "pct_error", "smape": "pct_error", "mdape": "pct_error", "mapes": "pct_error",
    "prob": "probability", "probs": "probability", "proba": "probability",
    "probas": "probability", "probability": "probability", "probabilities": "probability",
    "phat": "probability",
}
# tokens that make "pearson" a goodness-of-fit statistic (Pearson's chi-square, the Pearson
# dispersion chi2 / df, Pearson residuals) rather than a correlation coefficient
_PEARSON_STAT_TOKENS = {"chi", "chi2", "chisq", "chisquare", "x2", "dispersion", "disp", "resid",
                        "residual", "residuals", "gof", "goodness", "stat", "statistic"}
_PLURAL_VARIANCE = {"variances", "vars", "stds", "sds", "sigmas"}

_CLASSIFIER_RE = re.compile(
    r"(Classifier|LogisticRegression\w*|SVC|NB|DiscriminantAnalysis|Perceptron)$")
_REGRESSOR_RE = re.compile(
    r"(Regressor|(?<!Logistic)Regression|Ridge|RidgeCV|Lasso\w*|ElasticNet\w*|SVR|Lars\w*|"
    r"BayesianRidge|KernelRidge|ARDRegression)$")

# -- small helpers ----------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _tokens(name: str) -> list[str]:
    return [t for t in re.split(r"[_\W]+", _CAMEL.sub("_", name).lower()) if t]


def _name_quantity(name: str) -> tuple[str, bool] | None:
    """(quantity, strong) from an identifier or a column name; None when it says nothing
    or says something that may legitimately leave the range (a difference, a log, a count)."""
    toks = _tokens(name)
    if not toks or any(t in _EXCLUDE_TOKENS for t in toks):
        return None
    joined = "".join(toks)
    if joined in _NAME_QUANTITY:
        return _NAME_QUANTITY[joined], True
    if "r" in toks and ("squared" in toks or "sq" in toks):
        return ("adj_r2" if "adj" in toks or "adjusted" in toks else "r2"), True
    found: tuple[str, bool] | None = None
    pearson_stat = bool(set(toks) & _PEARSON_STAT_TOKENS)
    for t in toks:
        if t == "pearson" and pearson_stat:
            continue  # `pearson_chi2`, `pearson_dispersion`: a fit statistic, not r
        q = _NAME_QUANTITY.get(t)
        if q is None and t.rstrip("s") in _NAME_QUANTITY and len(t) > 3:
            q = _NAME_QUANTITY[t.rstrip("s")]
        if q:
            if q == "r2" and ("adj" in toks or "adjusted" in toks):
                q = "adj_r2"
            found = (q, True)
    if found:
        return found
    if "p" in toks or "q" in toks:
        if any(t in _PVALUE_MODIFIERS for t in toks):
            return "pvalue", True
        return ("pvalue", False) if "p" in toks else None
    if "r" in toks:
        return "correlation", "value" in toks
    if "score" in toks or "scores" in toks:
        return "score", False
    return None


_SHORT_TRAIN = {"xtr", "ytr", "xtrain", "ytrain", "xtrn", "ytrn", "dtrain"}
_SHORT_TEST = {"xte", "yte", "xtest", "ytest", "xval", "yval", "xts", "yts", "dtest", "dval"}


def _context_of_tokens(toks: list[str]) -> str | None:
    if any(t in _TRAIN_TOKENS or t in _SHORT_TRAIN or t.endswith("train") for t in toks):
        return "train"
    if any(t in _TEST_TOKENS or t in _SHORT_TEST or t.endswith("test") for t in toks):
        return "test"
    return None


def _fmt(v: float) -> str:
    return f"{v:.4g}"


# -- origin of an expression: what quantity it computes, and on which data -------------------


@dataclass
class _Origin:
    quantity: str | None = None
    context: str | None = None  # train | test | cv
    train_visible: bool = False  # scored on the very data the model was fit on
    lines: list[int] = field(default_factory=list)
    estimator: str | None = None  # "classifier" | "regressor" | None
    data_names: set[str] = field(default_factory=set)  # names of the evaluated data


_ROC_CALLS = {"roc_auc_score", "roc_curve", "predict_proba", "decision_function",
              "precision_recall_curve", "average_precision_score", "RocCurveDisplay",
              "from_predictions", "from_estimator"}
_ROC_WORDS = re.compile(r"(?i)\b(?:roc\w*|auroc|tpr|fpr|y_score|y_prob\w*|\w*_proba)\b|"
                        r"Classifier\b|roc_auc")
# a printed number followed by a physical unit: "884 ng*h/mL", "12.5 mg/L", "3 µg"
_UNIT_AFTER = re.compile(
    r"^\s*(?:[a-z\u00b5\u03bc]{1,5}\s*[*\u00b7\u00d7/]\s*[a-z\u00b5\u03bc]{1,5}|"
    r"(?:ng|ug|\u00b5g|\u03bcg|mg|kg|mmol|umol|\u00b5mol|nmol|pmol|ml|dl)\b)", re.IGNORECASE)


def _not_roc_auc(label_or_name: str, values: list[float], unit: bool, code: _Code) -> bool:
    """An "AUC" that is an area under a physical curve (pharmacokinetic exposure in ng*h/mL,
    an integrated signal), not a ROC AUC: the cell shows no classifier / ROC evidence, the
    label does not say ROC, and the value carries a unit or exceeds 100 (not even a
    percentage)."""
    low = label_or_name.lower()
    if code.has_roc or "roc" in low or "auroc" in low:
        return False
    return unit or any(v > 100 for v in values)


class _Code:
    """Per-evidence view of the code for this family (assignments by name, fit calls…)."""

    def __init__(self, ev: Evidence):
        self.ev = ev
        self.model = ev.model
        self.assign: dict[str, list[tuple[int, ast.AST, ast.stmt]]] = {}
        # name -> [(line, value expr or tuple position marker, statement)], in source order
        tree = self.model.tree
        for node in _of(tree, ast.Assign):
            for t in node.targets:
                self._bind(t, node.value, node)
        for node in _of(tree, ast.AnnAssign):
            if node.value is not None:
                self._bind(node.target, node.value, node)
        for binds in self.assign.values():
            binds.sort(key=lambda b: b[0])
        self.loop_targets: set[str] = set()
        for node in _of(tree, ast.For, ast.AsyncFor, ast.comprehension):
            self.loop_targets |= _names(node.target)
        self.loop_assigned: set[str] = set()  # names (re)bound inside a loop body
        for node in _of(tree, ast.For, ast.AsyncFor, ast.While):
            for st in node.body:
                for sub in _walk(st):
                    if isinstance(sub, ast.Assign):
                        self.loop_assigned |= {n for t in sub.targets for n in _names(t)}
        self.fit_args: list[tuple[set[str], set[str]]] = list(_prior_fit_args(ev.prior_code))
        self.scoring_literals: set[str] = set()
        for c in self.model.calls:
            if c.last in ("fit", "fit_transform") and c.node.args and c.receiver is not None:
                owners = {c.receiver_root} if c.receiver_root else set()
                self.fit_args.append((owners | set(c.targets), _names(c.node.args[0])))
            for kw in c.node.keywords:
                if kw.arg == "scoring" and isinstance(kw.value, ast.Constant) and isinstance(
                        kw.value.value, str):
                    self.scoring_literals.add(kw.value.value)
        self.test_calls = {c.last for c in self.model.calls}
        self.has_test = bool(self.test_calls & (_STAT_TESTS | {"cdf", "sf"})) or (
            "pvalue" in ev.code)
        self.has_corr = bool(self.test_calls & {"corr", "corrcoef", "pearsonr", "spearmanr",
                                                "kendalltau", "cov", "linregress"})
        # a ROC AUC needs scores and labels: without any sign of a classifier or ROC curve,
        # an "AUC" may be an area under a concentration-time (or other) curve, unbounded
        self.has_roc = bool(self.test_calls & _ROC_CALLS) or any(
            _kind_of_class(c) == "classifier" for c in self.test_calls) or any(
            "auc" in lit or "roc" in lit for lit in self.scoring_literals) or bool(
            _ROC_WORDS.search(ev.code or "") or _ROC_WORDS.search(ev.prior_code or ""))
        # names whose value reaches the output (what CodeModel.is_reported answers, once)
        reported = set(self.model.reported_names)
        closure = set(reported)
        for r in reported:
            closure |= self.model.dependencies(r)
        self.reported_closure = closure

    def _bind(self, target: ast.AST, value: ast.AST, stmt: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            self.assign.setdefault(target.id, []).append((stmt.lineno, value, stmt))
        elif isinstance(target, ast.Tuple | ast.List):
            for i, elt in enumerate(target.elts):
                if isinstance(elt, ast.Name):
                    self.assign.setdefault(elt.id, []).append(
                        (stmt.lineno, _Position(value, i), stmt))

    # -- estimator kind ------------------------------------------------------------------

    def estimator_kind(self, node: ast.AST | None, depth: int = 0) -> str | None:
        if node is None or depth > 3:
            return None
        if isinstance(node, ast.Call):
            name = _call_last(node)
            kind = _kind_of_class(name)
            if kind:
                return kind
            if name in ("fit",) and isinstance(node.func, ast.Attribute):
                return self.estimator_kind(node.func.value, depth + 1)
            # make_pipeline(StandardScaler(), Ridge()), GridSearchCV(SVC(), …)
            for arg in reversed(node.args):
                kind = self.estimator_kind(arg, depth + 1)
                if kind:
                    return kind
            return None
        if isinstance(node, ast.Name):
            facts = self.ev.objects.get(node.id)
            if facts and facts.type:
                kind = _kind_of_class(facts.type.rsplit(".", 1)[-1])
                if kind:
                    return kind
            t = self.model.type_of(node.id)
            if t:
                kind = _kind_of_class(t.rsplit(".", 1)[-1])
                if kind:
                    return kind
            for _, value, _ in self.assign.get(node.id, [])[-1:]:
                if isinstance(value, ast.AST):
                    return self.estimator_kind(value, depth + 1)
        if isinstance(node, ast.Attribute) and node.attr in ("best_estimator_",):
            return self.estimator_kind(node.value, depth + 1)
        return None

    # -- origin ----------------------------------------------------------------------------

    def origin(self, node: ast.AST | None, depth: int = 0) -> _Origin:
        out = _Origin()
        if node is None or depth > 4:
            return out
        if isinstance(node, _Position):
            return self._position_origin(node, depth)
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call):
            last = _call_last(node)
            if last == "score" and isinstance(node.func, ast.Attribute):
                kind = self.estimator_kind(node.func.value)
                q = {"regressor": "r2", "classifier": "accuracy"}.get(kind or "", "score")
                if self.scoring_literals - {"r2", "accuracy"} and kind is None:
                    q = None  # a search with a custom scorer: its .score is not R²/accuracy
                return self._with_context(_Origin(q, estimator=kind, lines=[line]), node)
            if last in ("cross_val_score", "cross_validate"):
                return _Origin(self._cv_quantity(node), "cv", lines=[line])
            if last in _METRIC_CALLS:
                q = _METRIC_CALLS[last]
                return self._with_context(_Origin(q, lines=[line]), node)
            if last in _STAT_TESTS:
                return _Origin("test_result_corr" if last in _CORR_TESTS else "test_result",
                               lines=[line])
            if last in _TRANSPARENT:
                inner = node.func.value if (isinstance(node.func, ast.Attribute)
                                            and last not in ("max", "min", "round", "float",
                                                             "abs", "sorted", "list")) else (
                    node.args[0] if node.args else None)
                if isinstance(node.func, ast.Attribute) and _root(node.func.value) in (
                        "np", "numpy") and node.args:
                    inner = node.args[0]
                return self.origin(inner, depth + 1)
            return out
        if isinstance(node, ast.Attribute):
            attr = node.attr
            if attr in ("pvalue", "pvalues", "pvalues_"):
                return _Origin("pvalue", lines=[line])
            if attr == "rsquared":
                return _Origin("r2", lines=[line])
            if attr == "rsquared_adj":
                return _Origin("adj_r2", lines=[line])
            if attr == "correlation":
                return _Origin("correlation", lines=[line])
            if attr == "best_score_":
                return _Origin("score", "cv", lines=[line])
            if attr == "statistic":
                inner = self.origin(node.value, depth + 1)
                if inner.quantity == "test_result_corr":
                    return _Origin("correlation", lines=[line])
                return out
            if attr in ("values", "T", "iloc", "loc"):
                return self.origin(node.value, depth + 1)
            return out
        if isinstance(node, ast.Subscript):
            value = node.value
            if isinstance(value, ast.Call) and _call_last(value) in _STAT_TESTS:
                idx = _const_index(node.slice)
                if idx == 1:
                    return _Origin("pvalue", lines=[line])
                if idx == 0 and _call_last(value) in _CORR_TESTS:
                    return _Origin("correlation", lines=[line])
                return out
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                nq = _name_quantity(key.value)
                if nq and nq[1]:
                    ctx = _context_of_tokens(_tokens(key.value))
                    return _Origin(nq[0], ctx, lines=[line])
            return self.origin(value, depth + 1)
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            return self.origin(node.elt, depth + 1)
        if isinstance(node, ast.DictComp):
            return self.origin(node.value, depth + 1)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div):
                num = {_call_last(c) for c in _walk(node.left) if isinstance(c, ast.Call)}
                den = {_call_last(c) for c in _walk(node.right) if isinstance(c, ast.Call)}
                if "cov" in num and den & {"std", "sqrt", "var", "nanstd"}:
                    return _Origin("correlation", lines=[line])  # cov / (sx * sy)
            if isinstance(node.op, ast.Mult | ast.Div):
                for side in (node.left, node.right):
                    o = self.origin(side, depth + 1)
                    if o.quantity == "pvalue":
                        return _Origin("pvalue", lines=[line])
            return out
        if isinstance(node, ast.Name):
            nq = _name_quantity(node.id)
            binds = self.assign.get(node.id, [])
            if binds and depth < 4:
                o = self.origin(binds[-1][1], depth + 1)
                if o.quantity not in _NOT_A_VALUE:
                    return o
            if nq and nq[1]:
                return _Origin(nq[0], _context_of_tokens(_tokens(node.id)))
            return out
        return out

    def _position_origin(self, pos: _Position, depth: int) -> _Origin:
        value = pos.value
        line = getattr(value, "lineno", 0)
        if isinstance(value, ast.Call):
            last = _call_last(value)
            if last in _STAT_TESTS:
                if pos.index == 1:
                    return _Origin("pvalue", lines=[line])
                if pos.index == 0 and last in _CORR_TESTS:
                    return _Origin("correlation", lines=[line])
            if last in ("multipletests",) and pos.index == 1:
                return _Origin("pvalue_clipped", lines=[line])
            if last == "linregress" and pos.index == 2:
                return _Origin("correlation", lines=[line])
            if last == "linregress" and pos.index == 3:
                return _Origin("pvalue", lines=[line])
        return _Origin()

    def _cv_quantity(self, node: ast.Call) -> str | None:
        scoring = None
        for kw in node.keywords:
            if kw.arg == "scoring":
                if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                    return None  # a list, a dict or a scorer object: no single meaning
                scoring = kw.value.value
        if scoring is None:
            kind = self.estimator_kind(node.args[0] if node.args else None)
            return {"regressor": "r2", "classifier": "accuracy"}.get(kind or "", "score")
        if scoring.startswith("neg_"):
            return None
        if scoring == "r2":
            return "r2"
        if scoring.startswith(("accuracy", "balanced_accuracy")):
            return "accuracy"
        if scoring.startswith(("roc_auc", "average_precision")):
            return "auc"
        if scoring.startswith("f1"):
            return "f1"
        if scoring.startswith(("precision", "recall", "jaccard")):
            return "bounded"
        return None

    def _with_context(self, o: _Origin, call: ast.Call) -> _Origin:
        """Whether a metric was computed on training or test data: from the names of its
        arguments, following `pred = model.predict(X_train)` one step."""
        names: set[str] = set()
        data_args: list[ast.AST] = list(call.args) + [k.value for k in call.keywords]
        for a in data_args:
            names |= _names(a)
            for n in _names(a):
                for _, value, _ in self.assign.get(n, [])[-1:]:
                    if isinstance(value, ast.Call) and _call_last(value) in (
                            "predict", "predict_proba", "decision_function"):
                        names |= {x for arg in value.args for x in _names(arg)}
            for sub in _walk(a):
                if isinstance(sub, ast.Call) and _call_last(sub) in (
                        "predict", "predict_proba", "decision_function"):
                    names |= {x for arg in sub.args for x in _names(arg)}
        toks = [t for n in names for t in _tokens(n)]
        ctx = _context_of_tokens(toks)
        if ctx == "train" and _context_of_tokens([t for t in toks if not (
                t in _TRAIN_TOKENS or t in _SHORT_TRAIN or t.endswith("train"))]) == "test":
            ctx = None
        o.context = ctx
        o.data_names = names
        # scored on exactly the data the same model was fit on: fit(X, y) … score(X, y)
        scored = _scored_on(call, self.assign)
        if scored is not None:
            model, x_names = scored
            if x_names and any(x_names == fit_x and (model in owners or not owners)
                               for owners, fit_x in self.fit_args) and not any(
                    t in _TEST_TOKENS for n in x_names for t in _tokens(n)):
                o.train_visible = True
                o.context = "train"
        return o


def _scored_on(call: ast.Call, assign: dict) -> tuple[str | None, set[str]] | None:  # type: ignore[type-arg]
    """(model, names of X) for `model.score(X, y)` or `metric(y, model.predict(X))`, also
    through `pred = model.predict(X)` a few lines up."""
    if _call_last(call) == "score" and call.args and isinstance(call.func, ast.Attribute):
        return _root(call.func.value), _names(call.args[0])
    candidates: list[ast.AST] = [sub for sub in _walk(call) if isinstance(sub, ast.Call)]
    for a in call.args[:2]:
        for n in _names(a):
            candidates += [value for _, value, _ in assign.get(n, [])[-1:]]
    for sub in candidates:
        if isinstance(sub, ast.Call) and _call_last(sub) in ("predict", "predict_proba") \
                and sub.args and isinstance(sub.func, ast.Attribute):
            return _root(sub.func.value), _names(sub.args[0])
    return None


@dataclass
class _Position:
    """Element `index` of a tuple-unpacking assignment from `value`."""

    value: ast.AST
    index: int


def _kind_of_class(name: str) -> str | None:
    if _CLASSIFIER_RE.search(name):
        return "classifier"
    if _REGRESSOR_RE.search(name):
        return "regressor"
    return None


def _const_index(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    return None


_PARSED: dict[str, ast.Module] = {}


def _parse(code: str) -> ast.Module:
    tree = _PARSED.get(code)
    if tree is None:
        try:
            tree = ast.parse(code or "")
        except SyntaxError:
            tree = ast.Module(body=[], type_ignores=[])
        if len(_PARSED) > 32:
            _PARSED.clear()
        _PARSED[code] = tree
    return tree


class CellIndex:
    """One walk of a cell's AST, shared by this family and `data_loss`: every node by type,
    each statement's own expression nodes (not those of nested statements), the statement
    holding each node, and the function enclosing each statement."""

    def __init__(self, tree: ast.AST):
        by_type: dict[type, list[ast.AST]] = {}
        own: dict[int, list[ast.AST]] = {}
        stmt_of: dict[int, ast.stmt] = {}
        items: list[tuple[ast.AST, ast.stmt, str | None]] = []
        body = getattr(tree, "body", [])
        stmts: list[tuple[ast.stmt, str | None]] = [(st, None) for st in reversed(body)]
        while stmts:
            st, fn = stmts.pop()
            by_type.setdefault(type(st), []).append(st)
            inner = st.name if isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef) else fn
            nodes: list[ast.AST] = []
            stack: list[ast.AST] = []
            nested: list[ast.stmt] = []
            for name in st._fields:
                v = getattr(st, name, None)
                if isinstance(v, list):
                    for x in v:
                        if isinstance(x, ast.stmt):
                            nested.append(x)
                        elif isinstance(x, ast.AST):
                            stack.append(x)
                elif isinstance(v, ast.AST):
                    stack.append(v)
            while stack:
                node = stack.pop()
                nodes.append(node)
                for name in node._fields:
                    v = getattr(node, name, None)
                    if isinstance(v, list):
                        for x in v:
                            if isinstance(x, ast.stmt):
                                nested.append(x)
                            elif isinstance(x, ast.AST):
                                stack.append(x)
                    elif isinstance(v, ast.AST):
                        stack.append(v)
            own[id(st)] = nodes
            for node in nodes:
                stmt_of[id(node)] = st
                by_type.setdefault(type(node), []).append(node)
                items.append((node, st, inner))
            stmts.extend((x, inner) for x in reversed(nested))
        self.by_type = by_type
        self.own = own
        self.stmt_of = stmt_of
        self.items = items  # (node, its statement, the function enclosing the statement)

    def of(self, *types: type) -> list:  # type: ignore[type-arg]
        return [n for t in types for n in self.by_type.get(t, ())]


_INDEX: list[tuple[weakref.ref, CellIndex]] = []


def cell_index(tree: ast.AST) -> CellIndex:
    """The index of `tree`, cached for the tree being critiqued."""
    for ref, idx in _INDEX:
        if ref() is tree:
            return idx
    idx = CellIndex(tree)
    _INDEX[:] = [(weakref.ref(tree), idx)]
    return idx


def _of(tree: ast.AST, *types: type) -> list:  # type: ignore[type-arg]
    return cell_index(tree).of(*types)


_PRIOR_FITS: dict[str, list[tuple[set[str], set[str]]]] = {}


def _fits_in(tree: ast.AST) -> list[tuple[set[str], set[str]]]:
    """(names of the fitted model, names of the data) for every `.fit(X, …)`: the receiver
    and, for `clf = Tree().fit(X, y)`, the name it is assigned to."""
    fits: dict[int, tuple[set[str], set[str]]] = {}
    for node in _walk(tree):
        if isinstance(node, ast.Call) and _call_last(node) in ("fit", "fit_transform") \
                and node.args and isinstance(node.func, ast.Attribute):
            owner = _root(node.func.value)
            fits[id(node)] = ({owner} if owner else set(), _names(node.args[0]))
    if fits:
        for node in _walk(tree):
            if isinstance(node, ast.Assign):
                for sub in _walk(node.value):
                    if id(sub) in fits:
                        fits[id(sub)][0].update(n for t in node.targets for n in _names(t))
    return list(fits.values())


def _prior_fit_args(prior: str) -> list[tuple[set[str], set[str]]]:
    found = _PRIOR_FITS.get(prior)
    if found is None:
        found = _fits_in(_parse(prior)) if "fit" in prior else []
        if len(_PRIOR_FITS) > 16:
            _PRIOR_FITS.clear()
        _PRIOR_FITS[prior] = found
    return found


# -- observations ---------------------------------------------------------------------------


@dataclass
class _Obs:
    quantity: str
    values: list[float]
    source: str  # facts | text
    where: str  # what to cite: "`p_adj`" or "printed 'R2: -0.31'"
    lines: list[int] = field(default_factory=list)
    context: str | None = None
    train_visible: bool = False
    label_train: bool = False
    strong: bool = True
    multi: bool = False  # one of several values (a sequence, a table, a dict of models)
    is_dict: bool = False
    reported: bool = True
    percent: bool = False
    estimator: str | None = None
    data_names: set[str] = field(default_factory=set)
    intermediate: bool = False  # the last value of a loop variable that is not itself shown


# -- text parsing -------------------------------------------------------------------------------

_NUM_RE = re.compile(r"(?<![\w.])[-+\u2212]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|"
                     r"inf|nan)(?![\w])(\s*%)?")
_SERIES_FOOTER = re.compile(r"^Name: ([^,]+), dtype: (?:float|int)\w*", re.MULTILINE)
_PEARSON_STAT = (r"(?:'?s)?[\s_-]*(?:chi|\u03c7|x2|x\^2|dispersion|resid|goodness|gof|"
                 r"statistic|stat\b|phi\b|contingency)")
_LABEL_QUANTITY = [
    # (regex over a normalised label, quantity, strong); the match nearest the number wins
    (r"\badj(?:usted|\.)?\s*r\s*-?\s*(?:2|squared)\b", "adj_r2", True),
    (r"\br\s*-?\s*(?:2|squared)\b|\br2_score\b|coefficient of determination", "r2", True),
    (r"\bp[\s_-]?val(?:ue)?s?\b|\bp[\s_-]?(?:adj|adjusted|corr|corrected|bonf|bonferroni|"
     r"holm|fdr|bh|sidak)\b|\b(?:adj|adjusted|corrected|bonferroni|holm|fdr|raw)[\s_-]?p\b|"
     r"\bq[\s_-]?val(?:ue)?s?\b|\bpadj\b|\bfdr\b", "pvalue", True),
    (r"(?:^|[\s(])p\s*(?:\([^)]*\))?$", "pvalue", False),
    (r"\bbalanced accuracy\b|\baccuracy\b|\bacc\b", "accuracy", True),
    (r"\broc[\s_-]?auc\b|\bauroc\b|\bauc\b", "auc", True),
    (r"\bf1(?:[\s_-]?score)?\b|\bf1[\s_-]?(?:macro|micro|weighted)\b", "f1", True),
    (r"\bprecision\b|\brecall\b|\bsensitivity\b|\bspecificity\b", "bounded", True),
    # "Pearson chi2", "Pearson dispersion", "Pearson residuals" are goodness-of-fit
    # statistics named after Pearson, not his correlation coefficient
    (r"\bcorr(?:elation)?\b|\bcor\b|\brho\b|\u03c1|\bpearson\b(?!" + _PEARSON_STAT + r")|"
     r"\bspearman\b|\bkendall\b|"
     r"\br[\s_-]?value\b", "correlation", True),
    (r"(?:^|[\s(])r$", "correlation", False),
    (r"\bvariance\b|\bvar\b|\bstd\b|\bstdev\b|\bsd\b|\bstd\.?\s*dev(?:iation)?\b|"
     r"standard deviation|standard error|\bsem\b|\bsigma\b|\u03c3", "variance", True),
    (r"\b(?:r)?mse\b|\bmae\b|mean squared error|mean absolute error", "error", True),
    (r"\bs?mape\b|\bmdape\b|percent(?:age)? error", "pct_error", True),
    (r"\bprob(?:ability|abilities|s)?\b|\bproba\b|^p\(.*\)$", "probability", True),
    (r"\bscore\b", "score", False),
]
_LABEL_RES = [(re.compile(p), q, s) for p, q, s in _LABEL_QUANTITY]
_LABEL_EXCLUDE = re.compile(
    r"\b(?:diff(?:erence)?|delta|change|gain|improvement|log|log10|ln|-log|neglog|gap|drop|"
    r"shift|lift|loss|threshold|thresh|alpha|level|cutoff|number|count|n|num|rows|samples|"
    r"size|features|rank|z|odds|ratio|density|pdf|likelihood|total|sum|expected|dof|df|"
    r"weight|degrees?|iterations?|epochs?|seed|top|k|explained|standardi[sz]ed|resid\w*|"
    r"neg(?:ative)?_\w+|neg)\b|\u0394|#")
_SEPARATORS = re.compile(r"[,;|\t]")
_MAX_TEXT = 30_000
_MAX_LINES = 600
_HAS_DIGIT = re.compile(r"\d|\binf\b|\bnan\b")
_HAS_DIGIT_START = re.compile(r"^\s*[-\d.]")
_HEADER_HINT = re.compile(r"(?i)p_|pval|padj|qval|fdr|r2|rsq|acc|auc|f1|corr|rho|var|std|"
                          r"\bsd|sigma|prob|mse|mae|precision|recall|\bp\b|\br\b")


def _norm_label(label: str) -> str:
    s = label.replace("\u00b2", "2").replace("^2", "2").replace("\u2212", "-").lower()
    s = re.sub(r"\s+", " ", s)
    s = re.sub(r"(?:\s*(?:[:=\u2248]|\bis\b|\bwas\b|\bof\b|\bequals\b))+\s*$", "", s.strip())
    s = s.strip(" :=-[(").strip()
    return s


def _label_quantity(label: str) -> tuple[str, bool] | None:
    if not label or _LABEL_EXCLUDE.search(label):
        return None
    best: tuple[int, str, bool] | None = None
    strong_for: set[str] = set()
    for regex, q, strong in _LABEL_RES:
        for m in regex.finditer(label):
            if strong:
                strong_for.add(q)
            if best is None or m.end() > best[0]:
                best = (m.end(), q, strong)
    if best is None:
        return None
    return best[1], best[2] or best[1] in strong_for


def _to_float(text: str) -> float | None:
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return None


@dataclass
class _TextNumber:
    label: str  # normalised
    raw_label: str
    value: float
    text: str  # number as printed
    percent: bool
    line: str
    in_list: bool
    unit: bool = False  # followed by a physical unit, or in a run of numbers that is


def _text_numbers(text: str) -> list[_TextNumber]:
    """Labelled numbers: 'R2: -0.31', 'p = 1.7', 'p-values: [0.2 1.4]' (every element of
    a bracketed list gets the label before the bracket, across wrapped lines). A label
    followed by a row of unlabelled decimals ('var  -0.02  0.03  0.11', a table row) is a
    row label, not a label of the first number."""
    out: list[_TextNumber] = []
    depth = 0
    list_label = ""
    list_raw = ""
    for line in text[:_MAX_TEXT].splitlines()[:_MAX_LINES]:
        if not _HAS_DIGIT.search(line):
            continue
        line = line.replace("^2", "2").replace("\u00b2", "2").replace("\u2212", "-")
        prev_end = 0
        row: list[tuple[_TextNumber, bool]] = []  # (number, preceded by blanks only)
        inner: _TextNumber | None = None  # 'AUC on last 750 games: 0.678': 750 is in the label
        for m in _NUM_RE.finditer(line):
            seg = line[prev_end:m.start()]
            if inner is not None:
                if row and row[-1][0] is inner and (_COUNTED_NOUN.fullmatch(seg) or (
                        _LABEL_SEP.fullmatch(seg) and _ENDS_IN_PREP.search(inner.raw_label))):
                    row.pop()  # the count belongs to the next number's label
                    joined = f"{inner.raw_label.rstrip()} {inner.text}{seg}"
                    raw_joined = _SEPARATORS.split(joined)[-1]
                    seg_override = (_norm_label(raw_joined), raw_joined)
                else:
                    seg_override = None
                inner = None
            else:
                seg_override = None
            opened = seg.count("[") - seg.count("]")
            value = _to_float(m.group(0).rstrip("% ").strip())
            prev_end = m.end()
            if value is None:
                continue
            in_list = False
            if depth > 0 and re.fullmatch(r"[\s,]*\]?[\s,]*", seg) and "]" not in seg:
                label, raw = list_label, list_raw
                in_list = True
            else:
                raw = _SEPARATORS.split(seg)[-1] if "[" not in seg else seg.split("[")[0]
                raw = _SEPARATORS.split(raw)[-1]
                label = _norm_label(raw)
                if seg_override is not None:
                    label, raw = seg_override
                if opened > 0:
                    list_label, list_raw = label, raw
                    in_list = True
            depth = max(0, depth + opened) if not in_list or opened > 0 else depth
            if "]" in seg and depth > 0 and not in_list:
                depth = 0
            text_num = m.group(0).strip()
            unit = not m.group(1) and bool(_UNIT_AFTER.match(line[m.end():]))
            tn_new = _TextNumber(label, raw.strip(), value, text_num, bool(m.group(1)),
                                 line.strip(), in_list, unit)
            row.append((tn_new, not seg.strip()))
            if not in_list and not tn_new.percent and _INT_TEXT.match(text_num):
                inner = tn_new
        tail = line[prev_end:]
        if "]" in tail:
            depth = 0
        if any(tn.unit for tn, _ in row):
            # "reference 372, test 884 ng*h/mL": the unit at the end of a run covers it
            for tn, _ in row:
                tn.unit = True
        for i, (tn, _) in enumerate(row):
            if tn.label and not tn.in_list:
                following = []
                for nxt, blank in row[i + 1:]:
                    if not blank:
                        break
                    following.append(nxt)
                if any(not _INT_TEXT.match(n.text) for n in following):
                    continue  # a table row: 'var  -0.020  0.025'
            out.append(tn)
    return out


_INT_TEXT = re.compile(r"^[-+]?\d+$")
# words after a whole number that end in a label separator: the number counts what the words
# name ('AUC on the last 750 games: 0.68', 'accuracy over 5 folds = 0.91'), it is not a value
# or a number after a preposition right before the separator ('R2 for 2019: 0.41')
_LABEL_SEP = re.compile(r"\s*[:=]\s*")
_ENDS_IN_PREP = re.compile(r"(?i)\b(?:for|in|on|over|at|of|with|across|from|after|before|"
                           r"since|until|last|first|top|per)\s*$")
_COUNTED_NOUN = re.compile(r"\s+[A-Za-z][A-Za-z\s\-()']{0,40}?\s*(?::|=|\bis\b|\bwas\b)\s*")


def _series_blocks(text: str) -> list[tuple[str, list[float]]]:
    """pandas Series reprs: the values above a 'Name: p_adj, dtype: float64' footer."""
    out: list[tuple[str, list[float]]] = []
    if "dtype:" not in text:
        return []
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    for i, line in enumerate(lines):
        m = _SERIES_FOOTER.match(line)
        if not m:
            continue
        values: list[float] = []
        j = i - 1
        while j >= 0 and len(values) < 500:
            parts = lines[j].split()
            if not parts:
                break
            v = _to_float(parts[-1])
            if v is None:
                break
            values.append(v)
            j -= 1
        if values:
            out.append((m.group(1).strip(), values[::-1]))
    return out


_COUNT_ROWS = {"count", "unique", "freq", "top", "n", "nobs", "size", "support", "n_obs"}
_IDENT = re.compile(r"^[A-Za-z_][\w.\-]*$")


def _tables(text: str, computed: set[str]) -> list[tuple[str, list[str], list[float]]]:
    """Columns of pandas DataFrame reprs whose header names a quantity and that the cell's
    code names (a results table it built, not raw data it shows): (column, row labels,
    values). Square matrices (correlations, covariances) are skipped."""
    out: list[tuple[str, list[str], list[float]]] = []
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    for i, line in enumerate(lines[:-1]):
        if not _HEADER_HINT.search(line) or _HAS_DIGIT_START.match(line):
            continue
        header = line.split()
        if not header or len(header) > 40 or "support" in header or not all(
                _IDENT.match(h) for h in header):
            continue
        cols = [(j, h) for j, h in enumerate(header)
                if h in computed and (nq := _name_quantity(h)) and nq[1]
                and _label_quantity(_norm_label(h.replace("_", " ")))]
        if not cols:
            continue
        rows: dict[int, list[float]] = {j: [] for j, _ in cols}
        labels: list[str] = []
        for row in lines[i + 1:i + 501]:
            toks = row.split()
            if len(toks) == len(header) + 1:
                offset = 1
            elif len(toks) == len(header) and len(header) > 1:
                offset = 0
            else:
                if toks and len(toks) < len(header):
                    continue  # index-name line under the header
                break
            ok = True
            for j, _ in cols:
                v = _to_float(toks[j + offset])
                if v is None:
                    ok = False
                    break
                rows[j].append(v)
            if not ok:
                break
            labels.append(toks[0] if offset else "")
        if labels and set(header) <= set(labels):
            continue  # a correlation / covariance matrix
        for j, h in cols:
            if rows[j]:
                out.append((h, labels[:len(rows[j])], rows[j]))
    return out


def _computed_columns(tree: ast.AST) -> set[str]:
    """Column / Series names this cell creates (`res["p_bonf"] = …`, dict keys of a
    DataFrame it builds, `assign(p_adj=…)`, `columns=[…]`, `name=…`), as opposed to columns
    of data it merely shows."""
    out: set[str] = set()
    for node in _of(tree, ast.Subscript):
        if isinstance(node.ctx, ast.Store) and isinstance(node.slice, ast.Constant) and \
                isinstance(node.slice.value, str):
            out.add(node.slice.value)
    for node in _of(tree, ast.Attribute):
        if isinstance(node.ctx, ast.Store):
            out.add(node.attr)
    for node in _of(tree, ast.Dict):
        out |= {k.value for k in node.keys if isinstance(k, ast.Constant)
                and isinstance(k.value, str)}
        out |= {v.value for v in node.values if isinstance(v, ast.Constant)
                and isinstance(v.value, str)}  # rename(columns={"p": "p_adj"})
    for node in _of(tree, ast.Call):
        if _call_last(node) in ("agg", "aggregate", "apply", "transform"):
            # .agg(["mean", one_pass_var]) names a column after the function
            for a in node.args:
                for sub in _walk(a):
                    if isinstance(sub, ast.Name):
                        out.add(sub.id)
                    elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        out.add(sub.value)
        for k in node.keywords:
            if k.arg in ("columns", "name", "names", "index"):
                out |= {c.value for c in _walk(k.value) if isinstance(c, ast.Constant)
                        and isinstance(c.value, str)}
            elif k.arg:
                out.add(k.arg)
    return out


# -- the code that printed a label ----------------------------------------------------------


@dataclass
class _Site:
    label: str  # normalised text before the value
    expr: ast.AST
    line: int


def _report_sites(model_tree: ast.Module) -> list[_Site]:
    sites: list[_Site] = []
    for node in _of(model_tree, ast.Call, ast.JoinedStr, ast.BinOp):
        if isinstance(node, ast.Call):
            last = _call_last(node)
            if last in ("print", "display", "info", "warning", "write", "markdown", "Markdown"):
                pending = ""
                for a in node.args:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        pending = a.value
                    elif isinstance(a, ast.JoinedStr):
                        pending = _trailing_text(a)
                    else:
                        sites.append(_Site(_site_label(pending), a, node.lineno))
                        pending = ""
            if (last == "format" and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Constant)
                    and isinstance(node.func.value.value, str)):
                pieces = re.split(r"\{[^{}]*\}", node.func.value.value)
                for i, a in enumerate(node.args):
                    if i < len(pieces):
                        sites.append(_Site(_site_label(pieces[i]), a, node.lineno))
        elif isinstance(node, ast.JoinedStr):
            pending = ""
            for v in node.values:
                if isinstance(v, ast.Constant) and isinstance(v.value, str):
                    pending = v.value
                elif isinstance(v, ast.FormattedValue):
                    sites.append(_Site(_site_label(pending), v.value, node.lineno))
                    pending = ""
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
              and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)):
            pieces = re.split(r"%[-+ #0]*\d*(?:\.\d+)?[sdifgeEr%]", node.left.value)
            args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
            for i, a in enumerate(args):
                if i < len(pieces):
                    sites.append(_Site(_site_label(pieces[i]), a, node.lineno))
    return sites


def _trailing_text(js: ast.JoinedStr) -> str:
    if js.values and isinstance(js.values[-1], ast.Constant):
        return str(js.values[-1].value)
    return ""


def _site_label(text: str) -> str:
    return _norm_label(_SEPARATORS.split(text)[-1].split("\n")[-1])


def _match_site(label: str, sites: list[_Site]) -> _Site | None:
    if not label:
        return None
    for s in sites:
        if s.label and (s.label == label or (len(s.label) >= 2 and label.endswith(s.label))
                        or (len(label) >= 2 and s.label.endswith(label))):
            return s
    return None


# -- gathering everything once per evidence ----------------------------------------------------


@dataclass
class _Scan:
    obs: list[_Obs]
    code: _Code
    heldout_reported: bool
    metric_count: int


_CACHE: list[tuple[weakref.ref, _Scan]] = []


def _scan(ev: Evidence) -> _Scan:
    for ref, scan in _CACHE:
        if ref() is ev:
            return scan
    scan = _build_scan(ev)
    _CACHE[:] = [(weakref.ref(ev), scan)]
    return scan


def _build_scan(ev: Evidence) -> _Scan:
    code = _Code(ev)
    obs: list[_Obs] = []
    obs += _fact_observations(ev, code)
    obs += _text_observations(ev, code)
    heldout = any(o.quantity in METRIC_QUANTITIES and o.context in ("test", "cv")
                  for o in obs)
    # distinct R² / score values the cell shows: several models, folds or targets
    metric_count = len({round(v, 2) for o in obs if o.quantity in ("r2", "score")
                        for v in o.values[:20]})
    return _Scan(obs, code, heldout, metric_count)


def _fact_observations(ev: Evidence, code: _Code) -> list[_Obs]:
    out: list[_Obs] = []
    model = code.model
    stored = set(model.stored_names)
    reported_names = model.reported_names
    for name, facts in ev.objects.items():
        if facts.kind in ("module", "callable", "class", "dataframe", "other"):
            continue
        reported = name in reported_names or name in code.reported_closure
        if name not in stored and not reported:
            continue  # an earlier cell's object this cell only used
        if facts.kind == "result":
            out += _result_observations(name, facts, reported)
            continue
        if facts.kind == "estimator":
            best = facts.fitted_on.get("best_score_")
            if isinstance(best, int | float) and not isinstance(best, bool) and reported:
                binds = code.assign.get(name, [])
                value = binds[-1][1] if binds else None
                q = code._cv_quantity(value) if isinstance(value, ast.Call) else "score"
                if q is None:
                    continue
                out.append(_Obs(q, [float(best)], "facts", f"`{name}.best_score_`",
                                [b[0] for b in code.assign.get(name, [])][-1:], "cv"))
            continue
        if name in code.loop_targets and name not in code.assign:
            continue
        values: list[float]
        if facts.kind == "scalar":
            if not isinstance(facts.value, float) or isinstance(facts.value, bool):
                continue
            values = [facts.value]
        elif facts.values:
            values = list(facts.values)
        else:
            continue
        binds = code.assign.get(name, [])
        if binds and _is_log_scale(binds[-1][1]):
            continue  # log-probabilities, -log10(p): negative or above 1 by design
        origin = code.origin(binds[-1][1]) if binds else _Origin()
        nq = _name_quantity(name)
        quantity = origin.quantity
        strong = True
        if quantity in _NOT_A_VALUE:
            if nq is None:
                continue
            if not nq[1]:
                confirmed = (nq[0] == "pvalue" and code.has_test) or (
                    nq[0] == "correlation" and code.has_corr)
                if not reported:
                    continue
                if not confirmed and not (nq[0] == "pvalue" and _p_of_event(name)):
                    continue
                strong = False
                if not confirmed:  # `p_click`, `p_default` with no test: P(event)
                    nq = ("probability", False)
            quantity = nq[0]
        elif quantity == "score" and nq and nq[1] and nq[0] in PERFECT_QUANTITIES:
            quantity = nq[0]
        if quantity == "pvalue_clipped":
            continue
        if quantity == "auc" and _not_roc_auc(name, values, False, code):
            continue
        if quantity == "variance" and facts.kind != "scalar" and origin.quantity != "variance" \
                and not set(_tokens(name)) & _PLURAL_VARIANCE:
            continue
        ctx = origin.context or _context_of_tokens(_tokens(name))
        lines = [b[0] for b in binds][-1:] or origin.lines
        out.append(_Obs(quantity, values, "facts", f"`{name}`", lines, ctx,
                        origin.train_visible, "train" in _tokens(name) or "training"
                        in _tokens(name), strong, facts.kind != "scalar",
                        facts.type == "builtins.dict", reported, estimator=origin.estimator,
                        data_names=origin.data_names,
                        intermediate=name in code.loop_assigned and name not in reported_names))
    return out


def _p_of_event(name: str) -> bool:
    """`p_purchase`, `pClick`, `p_default_12m`: P(event), bounded like a p-value."""
    toks = _tokens(name)
    return len(toks) >= 2 and toks[0] == "p" and toks[1].isalpha() and len(toks[1]) > 2


def _is_log_scale(value: ast.AST) -> bool:
    node = value.value if isinstance(value, _Position) else value
    for sub in _walk(node):
        if isinstance(sub, ast.Call) and "log" in _call_last(sub).lower():
            return True
    return False


def _result_observations(name: str, facts: ObjectFacts, reported: bool) -> list[_Obs]:
    out: list[_Obs] = []
    p = facts.params
    if isinstance(p.get("pvalue"), int | float):
        out.append(_Obs("pvalue", [float(p["pvalue"])], "facts", f"`{name}.pvalue`",
                        reported=reported))
    if facts.values and "rsquared" in p:
        out.append(_Obs("pvalue", list(facts.values), "facts", f"`{name}.pvalues`",
                        multi=True, reported=reported))
    if isinstance(p.get("rsquared"), int | float):
        out.append(_Obs("r2", [float(p["rsquared"])], "facts", f"`{name}.rsquared`",
                        context="insample", reported=reported))
    if isinstance(p.get("correlation"), int | float):
        out.append(_Obs("correlation", [float(p["correlation"])], "facts",
                        f"`{name}.correlation`", reported=reported))
    return out


def _text_observations(ev: Evidence, code: _Code) -> list[_Obs]:
    text = ev.text
    if not text:
        return []
    out: list[_Obs] = []
    sites = _report_sites(code.model.tree)
    has_test, has_corr = code.has_test, code.has_corr
    for tn in _text_numbers(text):
        found = _label_quantity(tn.label)
        if found is None:
            continue
        quantity, strong = found
        site = _match_site(tn.label, sites)
        origin = code.origin(site.expr) if site else _Origin()
        if origin.quantity in _NOT_A_VALUE:
            origin.quantity = None
        if not strong:
            if origin.quantity == quantity or (quantity == "score" and origin.quantity
                                               in PERFECT_QUANTITIES):
                quantity = origin.quantity or quantity
            elif origin.quantity is None and (
                    (quantity == "pvalue" and has_test) or (quantity == "correlation"
                                                            and has_corr)):
                pass
            else:
                continue
        elif quantity == "score" or (origin.quantity in PERFECT_QUANTITIES
                                     and quantity in PERFECT_QUANTITIES):
            quantity = origin.quantity or quantity
        if origin.quantity == "pvalue_clipped" and quantity == "pvalue":
            continue
        toks = _tokens(tn.label)
        ctx = _context_of_tokens(toks) or origin.context
        label_train = any(t in _TRAIN_TOKENS for t in toks)
        if quantity == "pvalue" and "." not in tn.text and "e" not in tn.text.lower():
            continue  # "p = 3": a count of predictors, not a p-value
        if quantity == "correlation" and not strong and "." not in tn.text:
            continue
        if quantity == "auc" and _not_roc_auc(tn.label, [tn.value], tn.unit, code):
            continue
        out.append(_Obs(quantity, [tn.value], "text", f"printed '{tn.line[:80]}'",
                        [site.line] if site else [], ctx, origin.train_visible, label_train,
                        strong or origin.quantity == quantity, tn.in_list, False, True,
                        tn.percent, origin.estimator, origin.data_names))
    out += _describe_observations(text, code)
    computed = _computed_columns(code.model.tree)
    for col, values in _series_blocks(text):
        nq = _name_quantity(col)
        if nq and nq[1] and col in computed:
            out.append(_Obs(nq[0], values, "text", f"the printed Series '{col}'",
                            context=_context_of_tokens(_tokens(col)), multi=True))
    for col, labels, values in _tables(text, computed):
        nq = _name_quantity(col)
        if not nq:
            continue
        ctx = _context_of_tokens(_tokens(col))
        for lab, v in zip(labels, values, strict=False):
            if lab.lower() in _COUNT_ROWS:
                continue  # describe()'s count row, value_counts…
            row_ctx = _context_of_tokens(_tokens(lab)) if lab else None
            out.append(_Obs(nq[0], [v], "text", f"column '{col}' of the printed table"
                            + (f" (row {lab})" if lab else ""), context=row_ctx or ctx,
                            label_train=(row_ctx or ctx) == "train", multi=len(values) > 1))
    return out


_DESCRIBE_ROW = re.compile(r"^\s*(mean|min|max|\d+(?:\.\d+)?%)\s+"
                           r"([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan))\s*$")
_BOUNDED_SUMMARIES = {"probability", "pvalue", "correlation", "accuracy", "auc", "f1",
                      "bounded"}


def _describe_observations(text: str, code: _Code) -> list[_Obs]:
    """`print(p_default.describe())`: the printed mean / min / percentiles / max of one
    Series whose name says it is a probability (or another bounded quantity). Only when the
    cell shows a single describe(), so that the summary rows belong to it."""
    if "describe" not in code.ev.code or "max" not in text:
        return []
    sites = [c for c in code.model.calls if c.method == "describe" and c.receiver is not None]
    if len(sites) != 1:
        return []
    call = sites[0]
    shown = any(any(sub is call.node for sub in _walk(e))
                for e in code.model.reported_exprs)
    if not shown:
        return []
    recv = call.receiver
    name = None
    if isinstance(recv, ast.Name):
        name = recv.id
    elif isinstance(recv, ast.Subscript) and isinstance(recv.slice, ast.Constant) and \
            isinstance(recv.slice.value, str):
        name = recv.slice.value
    elif isinstance(recv, ast.Attribute):
        name = recv.attr
    if name is None:
        return []
    quantity, strong = _bounded_name(name, code)
    if quantity is None:
        origin = code.origin(recv)
        quantity, strong = origin.quantity, True
    if quantity not in _BOUNDED_SUMMARIES:
        return []
    values: list[float] = []
    for line in text[:_MAX_TEXT].splitlines()[:_MAX_LINES]:
        m = _DESCRIBE_ROW.match(line)
        if m:
            v = _to_float(m.group(2))
            if v is not None and v == v:
                values.append(v)
    if not values:
        return []
    return [_Obs(quantity, values, "text", f"the printed describe() of `{name}`",
                 [call.line], strong=strong, multi=True)]


def _bounded_name(name: str, code: _Code) -> tuple[str | None, bool]:
    """What a variable or column name says it holds: ('probability', strong) for probs /
    p_hat, ('probability', False) for `p_default` in a cell without a statistical test."""
    nq = _name_quantity(name)
    if nq is None:
        return None, False
    if nq[0] == "pvalue" and not nq[1]:
        if _p_of_event(name) and not code.has_test:
            return "probability", False
        return ("pvalue", False) if code.has_test else (None, False)
    return nq


# -- range checks --------------------------------------------------------------------------------


def _scaled(o: _Obs, v: float, allow_percent: bool) -> float | None:
    """A value on the 0..1 scale; None when it may be a percentage written without '%'
    (accuracy 93.5 is a percentage; a 'probability' of 65 may be one too)."""
    if o.percent:
        return v / 100
    if allow_percent and 1 < v <= 100:
        return v / 100
    if 2 <= v <= 100 and o.quantity in ("r2", "probability", "bounded") and max(o.values) <= 100:
        return None
    return v


def _confidence(o: _Obs, facts: float, text: float) -> float:
    c = facts if o.source == "facts" else text
    if not o.strong:
        c -= 0.15
    if not o.reported:
        c -= 0.05
    return c


def _finding(bad: list[tuple[_Obs, list[float]]], what: str, severity: str, confidence: float,
             suggestion: str, extra: str = "") -> Finding:
    parts = []
    lines: list[int] = []
    values: dict[str, object] = {}
    for o, vals in bad[:5]:
        shown = ", ".join(_fmt(v) for v in vals[:5]) + (" …" if len(vals) > 5 else "")
        parts.append(f"{o.where} = {shown}" if o.source == "facts" else f"{o.where} ({shown})")
        lines += o.lines
        values[o.where.strip("`")[:60]] = vals[:5] if len(vals) > 1 else vals[0]
    if len(bad) > 5:
        parts.append(f"and {len(bad) - 5} more")
    where = "; ".join(parts)
    return Finding(explanation=f"{what}: {where}.{extra}", severity=severity,
                   confidence=confidence,
                   evidence={"lines": sorted(set(lines)), "values": values},
                   suggestion=suggestion)


def _out_of_range(scan: _Scan, quantities: set[str], low: float, high: float, *,
                  allow_percent: bool = False) -> list[tuple[_Obs, list[float]]]:
    bad: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if o.quantity not in quantities:
            continue
        vals = []
        for v in o.values:
            s = _scaled(o, v, allow_percent)
            if s is not None and (s < low - 1e-9 or s > high + 1e-9):
                vals.append(v)
        if vals:
            bad.append((o, vals))
    return bad


# -- rules ---------------------------------------------------------------------------------------


@rule("suspicious_values.pvalue_out_of_range",
      title="p-value above 1 or below 0")
def pvalue_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """A p-value is a probability: a value above 1 usually comes from a hand-rolled
    multiple-comparison correction (`p * n`) that was not clipped at 1."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"pvalue"}, 0.0, 1.0)
    unclipped = _unclipped_corrections(ev, scan)
    if bad:
        conf = max(_confidence(o, 0.92, 0.85) for o, _ in bad)
        lines = sorted({ln for site in unclipped for ln in [site[0]]})
        extra = (f" Line {', '.join(map(str, lines))} multiplies p-values by the number of "
                 "tests without capping the result at 1." if lines else "")
        f = _finding(bad, "These p-values are impossible (a p-value lies in [0, 1])",
                     "critical", conf,
                     "Use a tested correction: `statsmodels.stats.multitest.multipletests(p, "
                     "method='holm')` (or 'fdr_bh'), or clip a hand-rolled Bonferroni with "
                     "`np.minimum(p * m, 1)`; then re-derive which results are significant.",
                     extra)
        f.evidence["lines"] = sorted(set(f.evidence["lines"]) | set(lines))
        yield f
        return
    unknown = [u for u in unclipped if not u[2]]
    if unknown:
        lines = sorted({u[0] for u in unknown})
        yield Finding(
            explanation=(f"Line {', '.join(map(str, lines))} corrects p-values by hand "
                         f"(`{unknown[0][1]}`) without capping them at 1; corrected values "
                         "above 1 are not p-values, and the values could not be checked."),
            severity="medium", confidence=0.4,
            evidence={"lines": lines},
            suggestion="Use `multipletests(p, method='bonferroni')` or "
                       "`np.minimum(p * m, 1)`.")


def _unclipped_corrections(ev: Evidence, scan: _Scan) -> list[tuple[int, str, bool]]:
    """Hand-rolled corrections `p * n` that no min/clip caps: (line, source, checked) where
    `checked` says the result's values were seen (in the facts or the output)."""
    code = scan.code
    tree = code.model.tree
    mults = [n for n in _of(tree, ast.BinOp) if isinstance(n.op, ast.Mult)
             and any(_is_pish(code, side) for side in (n.left, n.right))
             and any(_is_count(code, side) for side in (n.left, n.right))]
    if not mults:
        return []
    clipped: set[int] = set()
    capped_later: set[str] = set()
    for node in _of(tree, ast.Call):
        last = _call_last(node)
        if last in _CLIP_CALLS or (last == "where" and any(
                isinstance(a, ast.Compare) for a in node.args)):
            capped_later |= _target_keys(node)
            clipped |= {id(sub) for sub in _walk(node) if isinstance(sub, ast.BinOp)}
    stmts = _of(tree, ast.Assign, ast.AugAssign, ast.Expr)
    found: list[tuple[int, str, bool]] = []
    for mult in mults:
        if id(mult) in clipped:
            continue
        stmt = next((st for st in stmts if st.lineno <= mult.lineno <= (
            st.end_lineno or st.lineno) and any(n is mult for n in _walk(st))), None)
        keys = _stmt_keys(stmt) if stmt is not None else set()
        if keys & capped_later:
            continue
        checked = any(any(k in o.where for k in keys) for o in scan.obs
                      if o.quantity == "pvalue")
        found.append((mult.lineno, ast.unparse(mult)[:60], checked))
    return found


def _is_pish(code: _Code, node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        nq = _name_quantity(node.attr)
        return node.attr in ("pvalue", "pvalues") or bool(nq and nq[0] == "pvalue")
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            nq = _name_quantity(key.value)
            return bool(nq and nq[0] == "pvalue")
        return _is_pish(code, node.value)
    if isinstance(node, ast.Call) and _call_last(node) in ("array", "asarray", "Series"):
        return bool(node.args) and _is_pish(code, node.args[0])
    if isinstance(node, ast.Name):
        nq = _name_quantity(node.id)
        if nq and nq[0] == "pvalue":
            return True
        o = code.origin(node)
        return o.quantity == "pvalue"
    return False


_COUNT_NAMES = {"n", "m", "k", "ntests", "n_tests", "num_tests", "n_comparisons", "ncomp",
                "n_comp", "n_genes", "n_features", "n_hypotheses", "m_tests", "n_cols",
                "ntest", "num_comparisons", "n_pairs", "n_groups", "n_outcomes"}


def _is_count(code: _Code, node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and _call_last(node) == "len":
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, int) \
            and not isinstance(node.value, bool) and node.value > 1:
        return True
    if isinstance(node, ast.Attribute) and node.attr in ("size",):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
            and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Name):
        if node.id in _COUNT_NAMES or node.id.startswith(("n_", "num_")):
            return True
        facts = code.ev.objects.get(node.id)
        return bool(facts and isinstance(facts.value, int) and not isinstance(
            facts.value, bool) and facts.value > 1)
    if isinstance(node, ast.BinOp):  # p * (n - i) in a hand-rolled Holm
        return _is_count(code, node.left) or _is_count(code, node.right)
    return False


def _stmt_keys(stmt: ast.stmt) -> set[str]:
    keys: set[str] = set()
    targets = stmt.targets if isinstance(stmt, ast.Assign) else (
        [stmt.target] if isinstance(stmt, ast.AugAssign) else [])
    for t in targets:
        keys |= _target_key(t)
    return keys


def _target_key(t: ast.AST) -> set[str]:
    if isinstance(t, ast.Name):
        return {t.id}
    if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(
            t.slice.value, str):
        return {t.slice.value}
    if isinstance(t, ast.Attribute):
        return {t.attr}
    if isinstance(t, ast.Tuple | ast.List):
        return {k for e in t.elts for k in _target_key(e)}
    return set()


def _target_keys(call: ast.Call) -> set[str]:
    """Names/columns a clipping call reads: np.minimum(p_bonf, 1), res.p_bonf.clip(upper=1)."""
    keys: set[str] = set()
    nodes = list(call.args)
    if isinstance(call.func, ast.Attribute):
        nodes.append(call.func.value)
    for n in nodes:
        for sub in _walk(n):
            keys |= _target_key(sub) if isinstance(sub, ast.Name | ast.Subscript
                                                    | ast.Attribute) else set()
    return keys


@rule("suspicious_values.negative_variance",
      title="Negative variance, standard deviation or squared error")
def negative_variance(ev: Evidence) -> Iterator[Finding]:
    """Variances, standard deviations and standard errors cannot be negative; a negative
    value comes from a wrong formula (E[x]² - E[x²] swapped, a sign error)."""
    scan = _scan(ev)
    bad = [(o, [v for v in vals if v < -1e-9]) for o, vals in
           _out_of_range(scan, {"variance"}, 0.0, float("inf"))]
    bad = [(o, v) for o, v in bad if v]
    if bad:
        conf = max(_confidence(o, 0.9, 0.8) for o, _ in bad)
        yield _finding(bad, "A variance or standard deviation cannot be negative",
                       "critical", conf,
                       "Compute spread with `np.var(x, ddof=1)` / `x.std()` (or check the "
                       "formula: E[x²] - E[x]², not the reverse) and recompute everything "
                       "derived from it (standard errors, z-scores, tests).")
    errs = [(o, [v for v in o.values if v < -1e-9]) for o in scan.obs if o.quantity == "error"]
    errs = [(o, v) for o, v in errs if v]
    if errs and not bad:
        conf = max(_confidence(o, 0.75, 0.7) for o, _ in errs)
        yield _finding(errs, "A squared or absolute error cannot be negative (this looks like "
                       "scikit-learn's `neg_*` scoring reported as the error itself)",
                       "high", conf,
                       "Negate `neg_mean_squared_error` scores before reporting them "
                       "(`mse = -scores.mean()`), or report them under their real name.")


@rule("suspicious_values.correlation_out_of_range",
      title="Correlation outside [-1, 1]")
def correlation_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """A correlation coefficient lies in [-1, 1]; a value outside comes from a hand-rolled
    formula with mismatched normalisations (np.cov with ddof=1 over np.std with ddof=0)."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"correlation"}, -1.0, 1.0)
    if bad:
        conf = max(_confidence(o, 0.9, 0.85) for o, _ in bad)
        yield _finding(bad, "A correlation coefficient must lie in [-1, 1]", "critical", conf,
                       "Use `scipy.stats.pearsonr(x, y)` / `np.corrcoef(x, y)[0, 1]` / "
                       "`df[a].corr(df[b])`; a hand-rolled `cov / (sx * sy)` must use the same "
                       "ddof in the covariance and both standard deviations.")


@rule("suspicious_values.probability_out_of_range",
      title="Probability or bounded score outside its range")
def probability_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """Probabilities, accuracy, AUC, F1, precision and recall lie in [0, 1] (or 0-100%),
    and R² cannot exceed 1. Values come from the kernel, the printed output (also a printed
    `describe()` of a probability Series). Without visible values, a probability computed
    by an unbounded transform - `np.exp` of log-odds / `decision_function` / logits (odds,
    not probabilities), or a raw decision score - is reported from the code alone (high)."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"probability"}, 0.0, 1.0)
    bad += _out_of_range(scan, {"accuracy", "auc", "f1", "bounded"}, 0.0, 1.0,
                         allow_percent=True)
    bad += [(o, [v for v in vals if v > 1]) for o, vals in
            _out_of_range(scan, {"r2", "adj_r2", "score"}, float("-inf"), 1.0)
            if any(v > 1 for v in vals)]
    unbounded = _unbounded_probabilities(scan.code)
    why = ""
    if unbounded:
        line, name, how = unbounded[0]
        why = f" `{name}` (line {line}) is {how}: it is not bounded by 1."
    if bad:
        conf = max(_confidence(o, 0.9, 0.8) for o, _ in bad)
        if unbounded:
            conf = max(conf, 0.85)
        f = _finding(bad, "These values are outside the range their quantity allows "
                     "(probabilities and classification scores lie in [0, 1], R² ≤ 1)",
                     "critical", conf,
                     "Find where the value is computed: normalise probabilities (softmax / "
                     "`predict_proba` / `expit(log_odds)`), use the library metric "
                     "(`accuracy_score`, `roc_auc_score`, `r2_score`) rather than a "
                     "hand-written formula.", why)
        if unbounded:
            f.evidence["lines"] = sorted(set(f.evidence["lines"]) | {unbounded[0][0]})
        yield f
        return
    if unbounded:
        line, name, how = unbounded[0]
        yield Finding(
            explanation=f"`{name}` is used as a probability but is {how} (line {line}). "
                        "Odds and decision scores are not bounded by 1 (odds of 3 are a "
                        "probability of 0.75), so anything summed or thresholded as a "
                        "probability is wrong.",
            severity="high", confidence=0.7,
            evidence={"lines": [line], "values": {"probability": name}},
            suggestion="Use `model.predict_proba(X)[:, 1]`, or map log-odds to a probability "
                       "with `scipy.special.expit(z)` (= exp(z) / (1 + exp(z))); normalise "
                       "exponentiated logits with a softmax.")


_EXP_CALLS = {"exp", "exp2", "expm1", "power"}
_SCORE_CALLS = {"decision_function"}
_LOGIT_TOKENS = {"logit", "logits", "logodds", "log_odds", "lin", "linear", "linpred", "eta",
                 "margin", "margins", "decision", "xb", "xbeta"}
_NORMALISERS = {"expit", "sigmoid", "softmax", "logistic", "predict_proba", "normalize"}


def _unbounded_probabilities(code: _Code) -> list[tuple[int, str, str]]:
    """(line, name, how) for a probability-named variable or column assigned from an
    unbounded transform: `np.exp` of a decision_function, log-odds, logits or a linear
    predictor (`X @ coef`) with no division that normalises it, or a raw decision score."""
    out: list[tuple[int, str, str]] = []
    if "exp" not in code.ev.code and "decision_function" not in code.ev.code:
        return out
    tree = code.model.tree
    normalised: set[str] = set()
    for node in _of(tree, ast.AugAssign):
        if isinstance(node.op, ast.Div) and isinstance(node.target, ast.Name):
            normalised.add(node.target.id)
    for node in _of(tree, ast.Assign):
        if any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div)
               for x in _walk(node.value)):
            normalised |= {n for t in node.targets for n in _names(t)} & _names(node.value)
    for node in _of(tree, ast.Assign):
        names = [_prob_target(t, node.value) for t in node.targets]
        name = next((n for n in names if n), None)
        if name is None or name in normalised:
            continue
        if code.has_test and _name_quantity(name) == ("pvalue", False):
            continue
        how = _unbounded_value(node.value)
        if how:
            out.append((node.lineno, name, how))
    return out


def _prob_target(target: ast.AST, value: ast.AST) -> str | None:
    """The probability name an assignment binds: `p_default = …`, `df["prob"] = …`, or
    `pd.Series(…, name="p_default")`."""
    names: list[str] = []
    if isinstance(target, ast.Name):
        names.append(target.id)
    elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and \
            isinstance(target.slice.value, str):
        names.append(target.slice.value)
    if isinstance(value, ast.Call):
        for k in value.keywords:
            if k.arg == "name" and isinstance(k.value, ast.Constant) and \
                    isinstance(k.value.value, str):
                names.append(k.value.value)
    for n in names:
        nq = _name_quantity(n)
        if nq and (nq[0] == "probability" or (nq[0] == "pvalue" and _p_of_event(n))):
            return n
    return None


def _unbounded_value(value: ast.AST) -> str | None:
    if any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div) for x in _walk(value)):
        return None  # exp(z) / (1 + exp(z)), exp / exp.sum(): normalised
    calls = [x for x in _walk(value) if isinstance(x, ast.Call)]
    if any(_call_last(c) in _NORMALISERS for c in calls):
        return None
    for c in calls:
        if _call_last(c) not in _EXP_CALLS or not c.args:
            continue
        arg = c.args[-1] if _call_last(c) == "power" else c.args[0]
        if _call_last(c) == "power" and not (isinstance(c.args[0], ast.Constant)):
            continue
        src = _unbounded_score(arg)
        if src:
            return f"`exp()` of {src} - odds, not a probability"
    for c in calls:
        if _call_last(c) in _SCORE_CALLS:
            return "a raw `decision_function` score"
    return None


def _unbounded_score(node: ast.AST) -> str | None:
    """What makes `node` an unbounded score: a decision_function call, a log-odds / logit /
    linear-predictor name, or a matrix product with coefficients."""
    for x in _walk(node):
        if isinstance(x, ast.Call):
            last = _call_last(x)
            if last in _SCORE_CALLS:
                return "a `decision_function` score"
            if last in ("predict_log_proba", "log_softmax", "logsumexp"):
                return None
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.MatMult):
            return "a linear predictor (`X @ coef`)"
        for ident in ((x.id,) if isinstance(x, ast.Name) else (x.attr,)
                      if isinstance(x, ast.Attribute) else ()):
            toks = _tokens(ident)
            if set(toks) & _LOGIT_TOKENS or "".join(toks) in _LOGIT_TOKENS or (
                    "log" in toks and "odds" in toks):
                if "prob" in toks or "proba" in toks:
                    return None  # log_prob: exp of it is a probability
                return f"log-odds (`{ident}`)"
            if ident in ("coef_", "params") and isinstance(x, ast.Attribute):
                return "a linear predictor (coefficients times features)"
    return None


@rule("suspicious_values.perfect_score",
      title="Perfect score (1.0): evaluation on training data or a leak")
def perfect_score(ev: Evidence) -> Iterator[Finding]:
    """Accuracy, R², AUC or F1 of exactly 1.0 almost never happens on held-out real data:
    the model was evaluated on the data it was fit on, or the target leaked into the
    features. Critical when the code visibly scores the fitting data and reports it as the
    model's performance."""
    scan = _scan(ev)
    hits: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if o.quantity not in PERFECT_QUANTITIES or not o.reported or o.intermediate:
            continue
        vals = [v for v in o.values if v == v]
        if not vals:
            continue
        scale = [(_scaled(o, v, True) or 0.0) if o.quantity != "r2" else
                 (v / 100 if o.percent else v) for v in vals]
        perfect = [v for v, s in zip(vals, scale, strict=True) if abs(s - 1.0) < 1e-12]
        if not perfect:
            continue
        if o.multi and not o.is_dict and o.source == "facts" and len(perfect) < len(vals):
            continue  # one fold at 1.0 among others: not a perfect result
        if o.multi and o.source == "text" and o.quantity == "f1" and len(perfect) < len(vals):
            continue
        hits.append((o, perfect))
    if not hits:
        return
    train = [(o, v) for o, v in hits if o.context == "train" or o.train_visible]
    other = [(o, v) for o, v in hits if (o, v) not in train]
    if train and not scan.heldout_reported:
        visible = [(o, v) for o, v in train if o.train_visible and not o.label_train]
        if visible:
            conf = max(0.85 if o.source == "facts" else 0.8 for o, _ in visible)
            yield _finding(visible, "A perfect score computed on the data the model was fit "
                           "on is reported as its performance", "critical", conf,
                           "Evaluate on held-out data: `train_test_split` before fitting and "
                           "report `model.score(X_test, y_test)`, or use `cross_val_score` with "
                           "the preprocessing inside a Pipeline.")
            return
        conf = max(0.7 if o.source == "facts" else 0.65 for o, _ in train)
        yield _finding(train, "A perfect training score is the only performance the cell "
                       "reports; it says nothing about how the model generalises",
                       "high", conf,
                       "Report a held-out score (test split or cross-validation) next to it.")
        return
    if not other:
        return  # perfect training score next to a held-out score: an overfitting diagnostic
    small = _small_test_set(ev, other)
    if small is not None:
        yield _finding(other, "A perfect score", "medium", 0.5,
                       "Check for leakage (target-derived features, duplicates across the "
                       "split) and report a confidence interval or cross-validated score.",
                       f" The test set has only {small} rows, where a perfect score can "
                       "happen by chance, but check the features for a leak.")
        return
    conf = max(0.7 if o.source == "facts" else 0.6 for o, _ in other)
    yield _finding(other, "A perfect score on real data usually means the evaluation saw "
                   "the training data or a feature leaks the target", "high", conf,
                   "Check that the score is computed on held-out rows, that no feature is "
                   "derived from the target (an ID, a post-outcome measurement) and that "
                   "train and test share no duplicates.")


def _small_test_set(ev: Evidence, hits: list[tuple[_Obs, list[float]]]) -> int | None:
    """Rows of the evaluated data when every perfect score was computed on fewer than 50
    rows (a perfect accuracy on 30 iris flowers is unremarkable)."""
    sizes: list[int] = []
    for o, _ in hits:
        rows = [f.rows for n in o.data_names if (f := ev.objects.get(n)) and f.rows
                and f.kind in ("dataframe", "series", "ndarray", "sequence")]
        if not rows:
            return None
        sizes.append(min(rows))
    return max(sizes) if sizes and max(sizes) < 50 else None


@rule("suspicious_values.negative_r2",
      title="Negative R²: the model is worse than predicting the mean")
def negative_r2(ev: Evidence) -> Iterator[Finding]:
    """A negative R² means the predictions are worse than the constant mean.

    On the data a least-squares model with an intercept was fitted on, R² cannot be negative
    (the mean is one of the fits it chose between): a negative in-sample R² is a computation
    error (misaligned rows, a wrong target, a hand-written formula) - high. On held-out data
    (a test split, cross-validation) a negative R² is a legitimate, honest result for a model
    with no signal: predictions uncorrelated with the target and no more spread than it give
    R² between -1 and 0, so that range is medium (the model must not be presented as a fit).
    Below -1 the predictions are worse than shuffled ones - wrong scale, sign or alignment
    (a log-scale prediction scored against raw values) - high, unless it is one of several
    models compared side by side (medium). Without any train/test context: high."""
    scan = _scan(ev)
    bad: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if not o.reported or o.intermediate:
            continue
        q = o.quantity
        if q == "score" and o.estimator == "regressor":
            q = "r2"
        if q != "r2":
            continue
        vals = [v for v in o.values if v < -1e-9]
        if o.multi and not o.is_dict and o.source == "facts":
            mean = sum(o.values) / len(o.values)
            vals = [mean] if mean < 0 else []
        if vals:
            bad.append((o, vals))
    if not bad:
        return
    # the same number seen in the facts (context unknown) and printed under a test label
    held = [v for o in scan.obs if o.context in ("test", "cv") and o.quantity in ("r2", "score")
            for v in o.values[:20]]
    context = {id(o): "test" if o.context is None and held and all(
        any(abs(v - h) <= 0.006 * max(1.0, abs(h)) for h in held) for v in vals)
        else o.context for o, vals in bad}
    insample = [(o, v) for o, v in bad if context[id(o)] in ("train", "insample")
                or o.train_visible]
    if insample:
        yield _finding(insample, "Negative R² on the data the model was fitted on: a "
                       "least-squares fit with an intercept cannot do worse than the mean "
                       "on its own training data, so this number is computed wrongly", "high",
                       max(_confidence(o, 0.85, 0.75) for o, _ in insample),
                       "Check that predictions and targets are the same rows in the same "
                       "order and on the same scale (or use `r2_score(y, model.predict(X))` / "
                       "the model's `.rsquared`), and that the model has an intercept.")
        return
    heldout = all(context[id(o)] in ("test", "cv") for o, _ in bad)
    worst = min(v for _, vals in bad for v in vals)
    among_others = scan.metric_count >= 2 or any(o.multi for o, _ in bad)
    if heldout and (worst >= -1.0 or among_others):
        severe = worst < -1.0
        yield _finding(bad, "Negative R² on held-out data: the model predicts worse than the "
                       "mean of the target" + (
                           "" if severe else " (an honest result for a model without "
                           "predictive signal; it must not be presented as a useful fit)"),
                       "medium", max(_confidence(o, 0.55, 0.5) for o, _ in bad),
                       "Report it as 'no better than the mean', compare against a "
                       "`DummyRegressor` baseline, and do not interpret the model's "
                       "coefficients as explaining the outcome.")
        return
    what = ("Negative R² below -1 on held-out data: the predictions are worse than "
            "predicting the mean, and worse than random guesses of the right scale, which "
            "usually means a broken pipeline (predictions on another scale, e.g. log, a "
            "sign error, or rows out of order)" if heldout else
            "Negative R²: the predictions are worse than predicting the mean")
    yield _finding(bad, what, "high", max(_confidence(o, 0.85, 0.75) for o, _ in bad),
                   "Check that predictions and targets are aligned (same rows, same order, "
                   "same scale), compare against a `DummyRegressor` baseline, and do not "
                   "report the model as explaining the outcome.")


@rule("suspicious_values.percentage_error_blowup",
      title="Percentage error (MAPE) blown up by zero or near-zero actuals")
def percentage_error_blowup(ev: Evidence) -> Iterator[Finding]:
    """MAPE divides each error by its actual value. With zero actuals (intermittent demand,
    counts, sales of slow items) that is a division by zero: infinity or NaN by hand, ~10^15 %
    from scikit-learn (which divides by machine epsilon), and near-zero actuals give
    thousands of percent. Such a number measures the zeros, not the forecast. High when the
    reported value is infinite, NaN or above 10,000%."""
    scan = _scan(ev)
    bad: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if o.quantity != "pct_error":
            continue
        vals = [v for v in o.values if _absurd_pct(o, v)]
        if vals:
            bad.append((o, vals))
    if not bad:
        return
    divide = any("divide by zero" in w.message or "invalid value" in w.message
                 for w in ev.warnings)
    extra = (" numpy also warned about a division by zero." if divide else "")
    conf = max(_confidence(o, 0.85, 0.8) for o, _ in bad)
    yield _finding(bad, "This percentage error is infinite, undefined or astronomically "
                   "large, which happens when some actual values are zero (or nearly): "
                   "the error is divided by them", "high", min(0.9, conf + (0.05 if divide
                                                                            else 0.0)),
                   "Report an error that is defined with zero actuals: MAE / RMSE in units, "
                   "WAPE (`np.abs(y - p).sum() / y.sum()`), or MASE; if a percentage is "
                   "needed, compute it on the non-zero actuals only and say how many rows "
                   "were excluded.", extra)


def _absurd_pct(o: _Obs, v: float) -> bool:
    """Infinite / NaN, or at least 10^4 on whatever scale it is in: 10,000% printed with a
    '%' sign, or a bare number that is 10,000% (a percentage) or 1,000,000% (a fraction)."""
    if v != v or v in (float("inf"), float("-inf")):
        return True
    return v >= 1e4


# -- two-sided p-values from a signed statistic, without abs() ------------------------------------

_SYMMETRIC_DISTS = {"norm", "t"}
_ABS_CALLS = {"abs", "fabs", "absolute"}


def _is_abs(node: ast.AST, ev: Evidence) -> bool:
    """`abs(z)`, `np.abs(z)`, `-abs(z)`, or a name the cell assigned from one."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    if isinstance(node, ast.Call) and _call_last(node) in _ABS_CALLS:
        return True
    if isinstance(node, ast.Name):
        for a in ev.model.assigned_at(node.id):
            if a.value is not None and any(isinstance(s, ast.Call) and _call_last(s)
                                           in _ABS_CALLS for s in _walk(a.value)):
                return True
    return False


def _dist_call(node: ast.AST, methods: set[str]) -> ast.Call | None:
    """`stats.norm.cdf(z)`, `norm.sf(t, df)`, `t.cdf(...)`: a symmetric distribution's method."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in methods and node.args):
        return None
    owner = node.func.value
    dist = owner.attr if isinstance(owner, ast.Attribute) else (
        owner.id if isinstance(owner, ast.Name) else "")
    return node if dist in _SYMMETRIC_DISTS else None


def _doubled_tail(node: ast.BinOp) -> tuple[ast.Call, str] | None:
    """`2 * (1 - norm.cdf(z))`, `2 * norm.sf(z)`, `2 * norm.cdf(z)` (the statistic's sign
    decides whether this is a p-value or up to 2): the tail call and which tail."""
    if not isinstance(node.op, ast.Mult):
        return None
    sides = (node.left, node.right)
    if not any(isinstance(s, ast.Constant) and s.value in (2, 2.0) for s in sides):
        return None
    other = next(s for s in (node.right, node.left)
                 if not (isinstance(s, ast.Constant) and s.value in (2, 2.0)))
    if isinstance(other, ast.BinOp) and isinstance(other.op, ast.Sub) and \
            isinstance(other.left, ast.Constant) and other.left.value in (1, 1.0):
        call = _dist_call(other.right, {"cdf"})
        return (call, "upper") if call is not None else None
    call = _dist_call(other, {"sf"})
    if call is not None:
        return call, "upper"
    call = _dist_call(other, {"cdf"})
    return (call, "lower") if call is not None else None


def _reported_above_one(ev: Evidence, stmt_keys: set[str]) -> float | None:
    """A value above 1 the cell reports under one of these names or keys."""
    for key in stmt_keys:
        f = ev.objects.get(key)
        if f is not None:
            vals = list(f.values or []) + ([f.value] if isinstance(f.value, int | float)
                                           and not isinstance(f.value, bool) else [])
            big = [float(v) for v in vals if isinstance(v, int | float) and v > 1]
            if big:
                return max(big)
        for m in re.finditer(rf"""['"]?\b{re.escape(key)}\b['"]?\s*[:=]\s*([-+]?\d+\.\d+)""",
                             ev.text[:_MAX_TEXT]):
            v = float(m.group(1))
            if v > 1:
                return v
    return None


@rule("suspicious_values.two_sided_p_without_abs",
      title="Two-sided p-value doubled from a signed statistic (can exceed 1)")
def two_sided_p_without_abs(ev: Evidence) -> Iterator[Finding]:
    """`2 * (1 - norm.cdf(z))` is a two-sided p-value only for z >= 0: for a negative z it
    lies between 1 and 2 (and `2 * norm.cdf(z)` fails the other way). The statistic needs
    `abs()` first: `2 * norm.sf(abs(z))`."""
    if ev.tree is None or ("cdf" not in ev.code and ".sf" not in ev.code):
        return
    clipped = {id(sub) for node in _of(ev.tree, ast.Call)
               if _call_last(node) in _CLIP_CALLS for sub in _walk(node)}
    # `2 * norm.cdf(x) - 1`: the mass within +-x, not a p-value
    clipped |= {id(b.left) for b in _of(ev.tree, ast.BinOp) if isinstance(b.op, ast.Sub)}
    stmts = _of(ev.tree, ast.Assign, ast.AugAssign, ast.Expr, ast.Return)
    seen: set[int] = set()
    for node in _of(ev.tree, ast.BinOp):
        found = _doubled_tail(node)
        if found is None or id(node) in clipped:
            continue
        call, tail = found
        stat = call.args[0]
        if isinstance(stat, ast.Constant) or (isinstance(stat, ast.UnaryOp)
                                              and isinstance(stat.operand, ast.Constant)):
            continue  # a fixed quantile (2 * (1 - norm.cdf(1.96))), not a statistic
        if _is_abs(stat, ev) or (isinstance(stat, ast.UnaryOp) and tail == "lower"
                                 and _is_abs(stat.operand, ev)):
            continue
        if node.lineno in seen:
            continue
        seen.add(node.lineno)
        keys: set[str] = set()
        for st in stmts:
            if isinstance(st, ast.Assign | ast.AugAssign) and st.lineno <= node.lineno <= (
                    st.end_lineno or st.lineno) and any(n is node for n in _walk(st)):
                keys |= _stmt_keys(st)
        for d in _of(ev.tree, ast.Dict):  # {"p_two_sided": 2 * (1 - norm.cdf(z))}
            for k, v in zip(d.keys, d.values, strict=False):
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and any(
                        n is node for n in _walk(v)):
                    keys.add(k.value)
        for c in _of(ev.tree, ast.Call):  # dict(p=...), assign(p=...)
            for kw in c.keywords:
                if kw.arg and any(n is node for n in _walk(kw.value)):
                    keys.add(kw.arg)
        seen_value = _reported_above_one(ev, keys)
        formula = ast.unparse(node)[:60]
        fix_sign = "negative" if tail == "upper" else "positive"
        explanation = (f"Line {node.lineno} doubles one tail of a symmetric distribution "
                       f"(`{formula}`) without taking `abs()` of the statistic: for a "
                       f"{fix_sign} statistic this is not a p-value but a number between 1 "
                       "and 2, and the direction of the effect decides whether the result "
                       "can ever be significant.")
        if seen_value is not None:
            explanation += f" The cell reports {seen_value:g}, above 1."
            severity, confidence = "critical", 0.9
        else:
            severity, confidence = "high", 0.65
        yield Finding(
            explanation=explanation, severity=severity, confidence=confidence,
            evidence={"lines": [node.lineno],
                      "values": {"formula": formula, "reported": seen_value}},
            suggestion=("Use the absolute statistic: `p = 2 * stats.norm.sf(abs(z))` (or "
                        "`2 * stats.t.sf(abs(t), df)`), or let the test compute it "
                        "(`alternative='two-sided'`)."))


# -- shares / occupancy far above 100 % ------------------------------------------------------------

_SHARE_TOKENS = {"share", "occupancy", "utilisation", "utilization", "util", "full", "fill",
                 "coverage", "turnout", "penetration", "uptake", "completion", "load",
                 "attainment", "capacity", "used", "filled", "sold", "booked"}
_SHARE_EXCLUDE = {"growth", "change", "increase", "decrease", "diff", "delta", "ratio", "lift",
                  "index", "multiple", "times", "per", "rel", "relative", "vs", "over", "gain",
                  "yoy", "mom", "excess", "odds"}
_PCT_TOKENS = {"pct", "percent", "percentage", "perc"}


def _share_name(name: str) -> bool:
    toks = set(_tokens(name))
    if toks & _SHARE_EXCLUDE:
        return False
    return (bool(toks & _SHARE_TOKENS) and len(toks) >= 2) or bool(
        toks & {"share", "occupancy", "utilisation", "utilization", "turnout", "coverage"})


def _ratio_defs(tree: ast.AST) -> dict[str, tuple[int, bool]]:
    """Share-like names/columns the cell defines as a ratio: name -> (line, in percent)."""
    out: dict[str, tuple[int, bool]] = {}

    def add(key: str, value: ast.AST, line: int) -> None:
        if not _share_name(key):
            return
        divs = [b for b in _walk(value) if isinstance(b, ast.BinOp)
                and isinstance(b.op, ast.Div)]
        if not divs:
            return
        pct = any(isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult) and any(
            isinstance(s, ast.Constant) and s.value in (100, 100.0) for s in (b.left, b.right))
            for b in _walk(value)) or bool(set(_tokens(key)) & _PCT_TOKENS)
        out[key] = (line, pct)

    for node in _of(tree, ast.Assign):
        for t in node.targets:
            for k in _target_key(t):
                add(k, node.value, node.lineno)
    for node in _of(tree, ast.Call):
        for kw in node.keywords:
            if kw.arg:
                add(kw.arg, kw.value, kw.value.lineno)
    return out


def _column_in_text(text: str, col: str) -> list[float]:
    """Values of the column `col` in a printed DataFrame."""
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    for i, line in enumerate(lines[:-1]):
        header = line.split()
        if col not in header or _HAS_DIGIT_START.match(line):
            continue
        j = header.index(col)
        vals: list[float] = []
        for row in lines[i + 1:i + 501]:
            toks = row.split()
            if len(toks) < len(header) or not toks:
                if toks and not vals:
                    continue  # the index-name line
                break
            # values align from the right (index labels may contain spaces)
            v = _to_float(toks[j - len(header)].rstrip("%"))
            if v is None:
                break
            vals.append(v)
        if vals:
            return vals
    return []


@rule("suspicious_values.share_over_100",
      title="Share, occupancy or utilisation far above 100 %")
def share_over_100(ev: Evidence) -> Iterator[Finding]:
    """A share of a whole (occupancy, utilisation, market share, coverage, turnout) computed
    as a ratio cannot be far above 100 %: values of several hundred percent mean numerator and
    denominator are on different bases (a season total over one game's capacity, a sum over a
    count of groups, a join that duplicated rows)."""
    if ev.tree is None or "/" not in ev.code:
        return
    defs = _ratio_defs(ev.tree)
    if not defs:
        return
    text = ev.text or ""
    for key, (line, pct) in defs.items():
        values: list[float] = []
        f = ev.objects.get(key)
        if f is not None:
            values += [float(v) for v in (f.values or []) if isinstance(v, int | float)]
            if isinstance(f.value, int | float) and not isinstance(f.value, bool):
                values.append(float(f.value))
        where = "the computed values"
        if not values and text:
            values = _column_in_text(text, key)
            where = f"the printed column `{key}`"
        scale = 100.0 if pct else 1.0
        if not values and text:
            for tn in _text_numbers(text):
                if tn.label.replace(" ", "_") == key.lower():
                    values.append(tn.value if not tn.percent else tn.value / 100 * scale)
            where = "the printed output"
        values = [v for v in values if v == v and abs(v) != float("inf")]
        if not values:
            continue
        top = max(values) / scale
        if top <= 1.5:
            continue
        severity, confidence = ("critical", 0.85) if top >= 2 else ("high", 0.7)
        over = sum(v / scale > 1.5 for v in values)
        yield Finding(
            explanation=(f"`{key}` (line {line}) is a share of a whole, yet {where} reach "
                         f"{top:.0%} ({over} of {len(values)} above 150 %): numerator and "
                         "denominator are not on the same basis (a total over several "
                         "periods or rows divided by a single-period or per-row capacity)."),
            severity=severity, confidence=confidence,
            evidence={"lines": [line], "values": {key: round(top, 3), "n_above": over}},
            suggestion=("Aggregate numerator and denominator the same way (sum both over the "
                        "same games/rows, or average both), and check that every share lies "
                        "in [0, 1] (`assert share.between(0, 1).all()`)."))


# -- negative durations and ages ------------------------------------------------------------------

# names of quantities that cannot be negative: ages, durations, lengths of stay
_NONNEG_TOKENS = {"age", "ages", "duration", "durations", "elapsed", "los", "tenure", "runtime",
                  "lifetime", "latency", "turnaround", "tat", "dwell", "stay", "lengthofstay"}
_TIME_QUALIFIERS = {"trip", "travel", "ride", "commute", "journey", "wait", "waiting",
                    "response", "cycle", "processing", "process", "lead", "run", "service",
                    "handling", "resolution", "transit", "delivery", "flight", "survival",
                    "session", "watch", "call", "visit", "treatment", "repair", "shift"}
_UNIT_TOKENS = {"minutes", "minute", "mins", "hours", "hour", "hrs", "days", "seconds", "secs",
                "sec", "weeks", "months", "years", "yrs", "ms", "millis"}
# quantities that may legitimately be negative (a signed gap, a delay, time to a deadline)
_SIGNED_TOKENS = {"diff", "delta", "change", "offset", "lag", "delay", "early", "late",
                  "lateness", "until", "remaining", "left", "overdue", "before", "after",
                  "relative", "rel", "error", "err", "resid", "residual", "gap", "deviation",
                  "bias", "slack", "margin", "balance", "net", "shift", "drift", "skew", "tz",
                  "utc", "signed", "vs", "minus", "from"}
_LATER_TOKENS = {"end", "ended", "stop", "stopped", "finish", "finished", "off", "out", "exit",
                 "arrival", "arrive", "arrived", "discharge", "discharged", "close", "closed",
                 "completed", "complete", "completion", "return", "returned", "visit", "death",
                 "died", "resolved", "delivered", "last", "to", "dropoff", "checkout"}
_EARLIER_TOKENS = {"start", "started", "begin", "began", "on", "in", "entry", "enter",
                   "entered", "departure", "depart", "departed", "admit", "admission",
                   "admitted", "open", "opened", "created", "birth", "born", "dob", "first",
                   "submitted", "ordered", "request", "requested", "from", "pickup",
                   "checkin", "onset", "enrol", "enrolled", "hire", "hired", "join", "joined"}
_DURATION_GUARDS = {"abs", "clip", "where", "mask", "maximum", "fmax", "absolute", "max"}


def _duration_key(key: str) -> str | None:
    """'nonneg' for names of quantities that cannot be negative (age, duration, length of
    stay, trip_time), 'unit' for a bare unit (minutes, days) whose sign depends on what was
    subtracted, None otherwise."""
    toks = _tokens(key)
    if not toks or set(toks) & _SIGNED_TOKENS:
        return None
    if set(toks) & _NONNEG_TOKENS or (
            "time" in toks and set(toks) & (_TIME_QUALIFIERS | {"to"})):
        return "nonneg"
    if set(toks) & _UNIT_TOKENS:
        return "unit"
    return None


def _operand_tokens(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for sub in _walk(node):
        if isinstance(sub, ast.Name):
            out |= set(_tokens(sub.id))
        elif isinstance(sub, ast.Attribute):
            out |= set(_tokens(sub.attr))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out |= set(_tokens(sub.value))
    return out


def _elapsed_sub(value: ast.AST, kind: str,
                 helpers: dict[str, list[ast.AST]] | None = None) -> ast.BinOp | None:
    """The subtraction that makes `value` an elapsed time: `end - start`, `visit - dob`,
    `2024 - birth_year`, or one returned by a helper the value calls (`minutes_between(a,
    b)`); None when a guard keeps it non-negative (`% (24 * 60)`, abs, clip, where) or
    nothing later-minus-earlier is subtracted."""
    for sub in _walk(value):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod):
            return None
        if isinstance(sub, ast.Call) and _call_last(sub) in _DURATION_GUARDS:
            return None
    for sub in _walk(value):
        if not (isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Sub)):
            continue
        left, right = sub.left, sub.right
        if isinstance(right, ast.Constant):
            continue  # `x - 1`: an offset, not an elapsed time
        if isinstance(left, ast.Constant) and not (
                isinstance(left.value, int | float) and 1800 <= left.value <= 2200):
            continue
        if kind == "nonneg":
            return sub
        lt, rt = _operand_tokens(left), _operand_tokens(right)
        if lt & _LATER_TOKENS and rt & _EARLIER_TOKENS:
            return sub
    for sub in _walk(value) if helpers else ():
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                sub.func.id in helpers:  # type: ignore[operator]
            for ret in helpers[sub.func.id]:  # type: ignore[index]
                found = _elapsed_sub(ret, kind)
                if found is not None:
                    return found
    return None


def _helper_returns(tree: ast.AST) -> dict[str, list[ast.AST]]:
    """What the cell's helper functions and named lambdas return."""
    out: dict[str, list[ast.AST]] = {}
    for fn in _of(tree, ast.FunctionDef):
        out[fn.name] = [r.value for r in _walk(fn) if isinstance(r, ast.Return) and r.value]
    for node in _of(tree, ast.Assign):
        if isinstance(node.value, ast.Lambda):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = [node.value.body]
    return out


def _duration_defs(tree: ast.AST) -> list[tuple[str, int]]:
    """(name or column, line) of elapsed times the cell computes by subtraction."""
    out: list[tuple[str, int]] = []
    helpers = _helper_returns(tree)
    for node in _of(tree, ast.Assign):
        for t in node.targets:
            for key in _target_key(t):
                kind = _duration_key(key)
                if kind and _elapsed_sub(node.value, kind, helpers) is not None:
                    out.append((key, node.lineno))
    for node in _of(tree, ast.Call):
        for kw in node.keywords:
            if kw.arg and (kind := _duration_key(kw.arg)) and \
                    _elapsed_sub(kw.value, kind, helpers) is not None:
                out.append((kw.arg, kw.value.lineno))
    return out


def _footer_blocks(text: str, key: str) -> list[tuple[str, float]]:
    """(row label, value) of each printed Series named `key` ('Name: age, dtype: float64'):
    a describe() gives count/mean/std/min/…, a groupby mean gives one row per group."""
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    out: list[tuple[str, float]] = []
    for i, line in enumerate(lines):
        m = _SERIES_FOOTER.match(line)
        if not m or m.group(1).strip() != key:
            continue
        j = i - 1
        while j >= 0 and len(out) < 500:
            parts = lines[j].split()
            v = _to_float(parts[-1]) if parts else None
            if v is None:
                break
            out.append((" ".join(parts[:-1]), v))
            j -= 1
    return out


def _chain_columns(node: ast.AST) -> set[str]:
    """Columns named along a method chain: `df.groupby("g").minutes.agg` -> {"minutes"}."""
    cols: set[str] = set()
    called: set[int] = set()
    cur: ast.AST | None = node
    while cur is not None:
        if isinstance(cur, ast.Call):
            called.add(id(cur.func))
            cur = cur.func
        elif isinstance(cur, ast.Attribute):
            if id(cur) not in called:
                cols.add(cur.attr)
            cur = cur.value
        elif isinstance(cur, ast.Subscript):
            cols |= _str_consts(cur.slice)
            cur = cur.value
        else:
            cur = None
    return cols


def _summary_of(tree: ast.AST, key: str) -> bool:
    """The cell aggregates `key` into a table (`df.groupby(g).key.agg([... "min" ...])`,
    `df[key].describe()`) and summarises nothing else, so the printed table's `min`/`mean`
    columns speak for it."""
    found = False
    for node in _of(tree, ast.Call):
        if _call_last(node) not in ("agg", "aggregate", "describe", "min", "mean", "median"):
            continue
        recv = node.func.value if isinstance(node.func, ast.Attribute) else None
        if recv is None:
            continue
        cols = _chain_columns(recv) - {"str", "dt", "values", "loc", "iloc", "T"}
        if key in cols or key in _str_consts(node):
            found = True
        elif cols:
            return False  # another column is summarised too: the table may be its
    return found


def _str_consts(node: ast.AST) -> set[str]:
    return {n.value for n in _walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def _negative_evidence(ev: Evidence, key: str) -> tuple[list[float], str] | None:
    f = ev.objects.get(key)
    if f is not None:
        vals = [float(v) for v in (f.values or [])]
        if isinstance(f.value, int | float) and not isinstance(f.value, bool):
            vals.append(float(f.value))
        neg = [v for v in vals if v < 0]
        if neg:
            return neg, f"the kernel's values of `{key}` ({len(neg)} of {len(vals)} negative)"
    text = ev.text or ""
    if not text or "-" not in text:
        return None
    rows = _footer_blocks(text, key)
    if rows:
        labelled = {lab: v for lab, v in rows}
        if "min" in labelled and "max" in labelled:  # a describe()
            low = labelled["min"]
            if low < 0:
                return [low], f"the printed summary of `{key}` (min {low:g})"
        else:
            neg = [v for _, v in rows if v < 0]
            if neg:
                return neg, f"the printed values of `{key}`"
    vals = _column_in_text(text, key)
    neg = [v for v in vals if v < 0]
    if neg:
        return neg, f"the printed column `{key}`"
    if _summary_of(ev.tree, key) if ev.tree is not None else False:
        for col in ("min", "mean", "median", "amin"):
            neg = [v for v in _column_in_text(text, col) if v < 0]
            if neg:
                return neg, f"the printed `{col}` of `{key}`"
    return None


@rule("suspicious_values.negative_duration",
      title="Negative durations or ages in the results")
def negative_duration(ev: Evidence) -> Iterator[Finding]:
    """An age, duration or length of stay computed by subtracting two times (`end - start`,
    `visit - dob`, clock minutes) cannot be negative; negative values in the output mean the
    subtraction is wrong for some rows - a trip across midnight on bare clock times, a
    two-digit year parsed into the wrong century, swapped or mis-parsed dates - and every
    mean or band built from them is wrong. Flagged only from evidence: the kernel's values of
    the quantity or the printed summary (describe, a groupby's min/mean, the column) showing
    negatives. Quiet when the subtraction is guarded (`% (24 * 60)`, abs, clip, where)."""
    if ev.tree is None or "-" not in ev.code:
        return
    for key, line in _duration_defs(ev.tree):
        found = _negative_evidence(ev, key)
        if found is None:
            continue
        neg, where = found
        yield Finding(
            explanation=(f"`{key}` (line {line}) is an elapsed time computed by subtraction, "
                         f"yet {where} shows negative values (as low as {min(neg):.4g}). "
                         "A duration or age cannot be negative: the subtraction is wrong for "
                         "some rows (a time that wraps past midnight, a two-digit year put in "
                         "the wrong century, swapped or mis-parsed dates), and the means, "
                         "bands and totals computed from it are wrong too."),
            severity="high", confidence=0.8,
            evidence={"lines": [line], "values": {key: round(min(neg), 4),
                                                  "n_negative_shown": len(neg)}},
            suggestion=("Find the rows with `df[df[col] < 0]` and fix the cause: add a day "
                        "when the end clock time is before the start (`(end - start) % "
                        "(24 * 60)` or full timestamps), move two-digit years past the "
                        "reference date back a century, parse dates with the right format "
                        "/ dayfirst; then `assert (df[col] >= 0).all()` before summarising."))
        return


# -- proportions, prevalences and percentages above 100 % -----------------------------------------

# a proportion of a whole by its very name: it cannot exceed 100 % (nor 1 as a fraction)
_PROPORTION_WORDS = {"prevalence", "seroprevalence", "proportion", "proportions", "fraction",
                     "positivity", "percentage", "incidence_proportion"}
# names that are percentages of something that may well exceed it, or not of a whole at all
_PERCENT_EXCLUDE = _SHARE_EXCLUDE | {
    "error", "err", "errors", "mape", "ape", "smape", "return", "returns", "roi", "roas",
    "target", "goal", "quota", "budget", "plan", "baseline", "base", "forecast", "expected",
    "predicted", "pred", "cpu", "gpu", "mem", "memory", "yield", "markup", "growth", "recovery",
    "points", "pp", "median", "mean", "avg", "average", "norm", "normal", "ref", "reference",
    "benchmark", "prev", "previous", "last", "prior", "inflation", "apr", "apy", "interest",
    "cagr", "volatility", "vol", "slope", "grade", "elongation", "strain", "deviation", "dev",
    "bias", "cv", "variation", "above", "below", "under", "surplus", "deficit", "overrun",
    "achievement", "attainment", "capacity", "load", "speed", "efficiency", "rank",
    "percentile", "pctile", "quantile", "markdown", "uplift", "vs", "versus", "chg", "pnl",
}


# (strong word, top / limit, key, line, top, values above, values, limit, where read)
_Hit = tuple[bool, float, str, int, float, int, int, float, str]


def _proportion_kind(name: str) -> str | None:
    """'proportion' for a name that says it is a proportion of a whole (prevalence,
    proportion, fraction, positivity), 'percent' for a plain percentage name (`_pct`,
    `percent_`), None otherwise or when it may exceed its base (growth, error, of target)."""
    toks = set(_tokens(name))
    if not toks or toks & _PERCENT_EXCLUDE or _share_name(name):
        return None
    if toks & _PROPORTION_WORDS:
        return "proportion"
    if toks & _PCT_TOKENS:
        return "percent"
    return None


def _proportion_keys(tree: ast.AST) -> dict[str, list[tuple[int, ast.AST, str | None]]]:
    """Proportion-like names the cell defines: key -> [(line, defining expression, the
    variable holding it)]. Keys are variables, stored columns, `assign`/`agg` keywords, and
    Series names set by `.rename("x")` / `name="x"` (held by the variable assigned)."""
    out: dict[str, list[tuple[int, ast.AST, str | None]]] = {}

    def add(key: str, line: int, value: ast.AST, holder: str | None) -> None:
        if _proportion_kind(key):
            out.setdefault(key, []).append((line, value, holder))

    for node in _of(tree, ast.Assign):
        holder = node.targets[0].id if len(node.targets) == 1 and isinstance(
            node.targets[0], ast.Name) else None
        for t in node.targets:
            for k in _target_key(t):
                add(k, node.lineno, node.value, k if isinstance(t, ast.Name) else None)
        for sub in _walk(node.value):
            if isinstance(sub, ast.Call) and _call_last(sub) == "rename" and sub.args and \
                    isinstance(sub.args[0], ast.Constant) and isinstance(sub.args[0].value, str):
                add(sub.args[0].value, node.lineno, node.value, holder)
            if isinstance(sub, ast.Call):
                for kw in sub.keywords:
                    if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(
                            kw.value.value, str):
                        add(kw.value.value, node.lineno, node.value, holder)
    for node in _of(tree, ast.Call):
        if _call_last(node) in ("assign", "agg", "aggregate"):
            for kw in node.keywords:
                if kw.arg:
                    add(kw.arg, kw.value.lineno, kw.value, None)
    return out


def _percent_scaled(value: ast.AST) -> bool | None:
    """True when the expression multiplies by 100 (`* 100`, `.mul(100)`), None when it
    multiplies by a larger power of ten (a rate per 1,000 or 100,000), else False."""
    found = False
    for b in _walk(value):
        consts: list[object] = []
        if isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult):
            consts = [s.value for s in (b.left, b.right) if isinstance(s, ast.Constant)]
        elif isinstance(b, ast.Call) and _call_last(b) in ("mul", "multiply") and b.args and \
                isinstance(b.args[0], ast.Constant):
            consts = [b.args[0].value]
        for v in consts:
            if isinstance(v, int | float) and not isinstance(v, bool):
                if v in (100, 100.0):
                    found = True
                elif v >= 1000:
                    return None
    return found


@rule("suspicious_values.proportion_over_100",
      title="Prevalence, proportion or percentage above 100 %")
def proportion_over_100(ev: Evidence) -> Iterator[Finding]:
    """A prevalence, proportion, fraction or percentage of a whole cannot exceed 100 % (or 1
    as a fraction). The cell names such a quantity (a variable, a column, an `assign`/`agg`
    keyword, a Series `.rename("..._pct")`) and the kernel's values (or the printed table,
    Series footer or label) exceed it: numerator and denominator are on different bases (a
    weighted count over an unweighted n, a sum over rows that a join duplicated, a count of
    events over a count of people). Percent scale is read from the name (`pct`, `percent`),
    a `* 100` / `.mul(100)` in the definition or a printed `%`; a fraction scale (most values
    at most 1) makes values above 1 impossible. Critical (0.85) for a proportion word
    (prevalence, proportion, fraction) above 101 %, high (0.75) for a plain percentage name;
    quiet for percentages of a target/baseline, growth, errors, rates per 1,000."""
    if ev.tree is None:
        return
    keys = _proportion_keys(ev.tree)
    text = ev.text or ""
    hits: list[_Hit] = []
    for key, defs in keys.items():
        kind = _proportion_kind(key) or "percent"
        scaled = [_percent_scaled(v) for _, v, _ in defs]
        if any(s is None for s in scaled):
            continue  # a rate per 1,000 / 100,000
        pct = kind == "percent" or any(scaled)
        values: list[float] = []
        where = ""
        for _, _, holder in defs:
            f = ev.objects.get(holder or "")
            if f is None:
                continue
            if f.kind in ("series", "ndarray", "sequence") and f.values:
                values += [float(v) for v in f.values]
            elif f.kind == "scalar" and isinstance(f.value, int | float) and \
                    not isinstance(f.value, bool):
                values.append(float(f.value))
            if values:
                where = f"the values of `{holder}`"
                break
        if not values and text:
            values = _column_in_text(text, key)
            where = f"the printed column `{key}`"
        if not values and text:
            for name, vals in _series_blocks(text):
                if name == key:
                    values, where = vals, f"the printed Series `{key}`"
        only_range = False
        if not values:
            for f in ev.objects.values():
                if f.kind == "dataframe" and key in f.ranges:
                    values, only_range = list(f.ranges[key]), True
                    where = f"the column `{f.name}.{key}` (min, max)"
                    break
        values = [v for v in values if v == v and abs(v) != float("inf")]
        if not values:
            continue
        top = max(values)
        ordered = sorted(values)
        median = ordered[len(ordered) // 2]
        if top > 100.5:
            limit = 100.0
        elif not pct and not only_range and median <= 1.0 and top > 1.005:
            limit = 1.0
        else:
            continue
        over = sum(v > limit * 1.005 for v in values)
        line = min(ln for ln, _, _ in defs)
        strong = kind == "proportion"
        hits.append((strong, top / limit, key, line, top, over, len(values), limit, where))
    hits += _labelled_proportions(text)
    if not hits:
        return
    strong, _, key, line, top, over, n, limit, where = max(hits)
    if limit == 1.0:
        where += " (as fractions)"
    shown = f"{top:.4g}" + ("%" if limit == 100 else "")
    if strong and top > limit * 1.01:
        severity, confidence = "critical", 0.85
    else:
        severity, confidence = "high", 0.75
    yield Finding(
        explanation=(f"`{key}`{f' (line {line})' if line else ''} is a proportion of a whole, "
                     f"yet {where} reach {shown} ({over} of {n} above "
                     f"{'100 %' if limit == 100 else '1'}): no prevalence, proportion or "
                     "percentage of a group can exceed all of it. The numerator and the "
                     "denominator are on different bases (weights scaled to the whole "
                     "sample divided by a subgroup's head count, a sum over duplicated rows, "
                     "events counted over people), so the other values are wrong too, just "
                     "less visibly."),
        severity=severity, confidence=confidence,
        evidence={"lines": [line] if line else [], "values": {key: round(top, 4),
                                                               "n_above": over}},
        suggestion=("Compute the proportion with numerator and denominator from the same rows "
                    "and weights (`np.average(flag, weights=w)` = `(w * flag).sum() / "
                    "w.sum()` for a weighted prevalence; `flag.mean()` unweighted), and check "
                    "that every value lies in [0, 1] (`assert p.between(0, 1).all()`)."))


def _labelled_proportions(text: str) -> list[_Hit]:
    """Printed labels with a proportion word ('prevalence: 108.1%', 'fraction = 1.3')."""
    out: list[_Hit] = []
    if not text or not re.search(r"(?i)prevalence|proportion|fraction|positivity", text):
        return out
    for tn in _text_numbers(text):
        toks = set(re.split(r"[\s_\W]+", tn.label))
        if not toks & _PROPORTION_WORDS or toks & _PERCENT_EXCLUDE:
            continue
        if tn.percent and tn.value > 101:  # a bare '1.3' after 'fraction' has no scale
            out.append((True, tn.value / 100, tn.label, 0, tn.value, 1, 1, 100.0,
                        f"the printed value '{tn.line[:60]}'"))
    return out


# -- negative values of quantities that cannot be negative ---------------------------------------

# Physical and counting quantities that are non-negative by definition. Variances and standard
# deviations have their own rule; ages and durations computed by subtraction too.
_PHYSICAL_NONNEG = {
    "distance": "distance", "distances": "distance", "dist": "distance", "dists": "distance",
    "length": "length", "lengths": "length", "radius": "radius", "radii": "radius",
    "diameter": "diameter", "area": "area", "volume": "volume", "mass": "mass",
    "masses": "mass", "age": "age", "ages": "age", "duration": "duration",
    "durations": "duration", "count": "count", "counts": "count", "price": "price",
    "prices": "price", "concentration": "concentration", "conc": "concentration",
    "dose": "dose", "population": "population", "rainfall": "rainfall",
    "precipitation": "precipitation", "speed": "speed", "salary": "salary", "wage": "wage",
}
# tokens that make the quantity signed or transformed (a change, a log, a standardised value,
# a coordinate, a signed distance to a boundary)
_PHYSICAL_SIGNED = _SIGNED_TOKENS | {
    "difference", "differences", "diffs", "deltas", "changes", "increase", "decrease",
    "reduction", "improvement", "gain", "gained", "loss", "growth", "trend", "log", "ln",
    "log10", "log2", "logged", "z", "zscore", "score", "scores", "standardized",
    "standardised", "scaled", "centered", "centred", "demeaned", "anomaly", "anomalies",
    "coef", "coefficient", "slope", "effect", "to", "boundary", "hyperplane", "decision",
    "profit", "pnl", "return", "returns", "surplus", "excess", "adjustment", "correction",
    "x", "y", "z0", "pos", "position", "coord", "coordinate", "velocity", "elevation",
    "altitude", "depth", "temp", "temperature", "celsius", "sign", "signed", "std", "sd",
    "var", "variance", "stdev", "sem", "se", "ci", "lower", "lo", "upper", "hi", "bound",
    "mahalanobis", "cosine", "kl", "divergence", "energy", "potential", "elasticity",
}


def _physical_key(label: str) -> str | None:
    """The non-negative quantity a name or printed label denotes ('distance' for `dist_pc`,
    'cluster distance'); None when it says nothing or says the value may be signed."""
    toks = _tokens(label)
    if not toks or set(toks) & _PHYSICAL_SIGNED:
        return None
    found = [_PHYSICAL_NONNEG[t] for t in toks if t in _PHYSICAL_NONNEG]
    return found[-1] if found else None


_SIGNED_CALLS = {"diff", "log", "log10", "log2", "log1p", "pct_change", "gradient", "ediff1d",
                 "subtract", "zscore", "scale", "standardize", "decision_function"}
_WRAPPERS = {"mean", "median", "sum", "round", "float", "int", "nanmean", "nanmedian", "min",
             "max", "squeeze", "item", "average", "agg", "aggregate", "describe", "quantile"}


def _signed_by_construction(value: ast.AST | None) -> bool:
    """A value that is at heart a difference (`a - b`, `-x`, also under a mean or round), or
    that passes through a log, `diff`, a standardisation: its sign carries meaning, whatever
    its name. (`(signal - blank) / slope` is a ratio, not a difference.)"""
    if value is None:
        return True
    top = value
    for _ in range(6):
        if isinstance(top, ast.Call) and _call_last(top) in _WRAPPERS:
            f = top.func
            module_call = not isinstance(f, ast.Attribute) or isinstance(f.value, ast.Name)
            nxt = top.args[0] if module_call and top.args else (
                f.value if isinstance(f, ast.Attribute) else None)
            if nxt is None:
                break
            top = nxt
            continue
        if isinstance(top, ast.Subscript | ast.Attribute) and not isinstance(
                top.value, ast.Name):
            top = top.value
            continue
        break
    chain = [top]
    while chain:  # `a - b`, `a - b + noise`: a signed sum of terms
        node = chain.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            if isinstance(node.op, ast.Sub) and not (
                    isinstance(node.right, ast.Constant) and isinstance(node.left, ast.Constant)):
                return True
            chain += [node.left, node.right]
    if isinstance(top, ast.UnaryOp) and isinstance(top.op, ast.USub) and not isinstance(
            top.operand, ast.Constant):
        return True
    return any(isinstance(sub, ast.Call) and _call_last(sub) in _SIGNED_CALLS
               for sub in _walk(value))


def _sign_checked(tree: ast.AST, key: str) -> bool:
    """The cell compares `key` with zero or clips it (`df[df.dist < 0]`, `(dist <= 0).sum()`,
    `.clip(lower=0)`, `np.abs`): the user already handles the sign."""
    for node in _walk(tree):
        sides = [node.left, *node.comparators] if isinstance(node, ast.Compare) else []
        if any(isinstance(x, ast.Constant) and x.value == 0 for x in sides) and key in {
                k for x in sides for s in _walk(x) for k in _target_key(s)}:
            return True
        if isinstance(node, ast.Call) and _call_last(node) in (
                "clip", "abs", "absolute", "maximum", "fmax", "where", "mask") and \
                key in _target_keys(node):
            return True
    return False


def _assigned_values(tree: ast.AST) -> dict[str, list[tuple[int, ast.AST]]]:
    """(line, value) of every name or column the cell assigns (`d = ...`, `df["d"] = ...`,
    `df.assign(d=...)`)."""
    out: dict[str, list[tuple[int, ast.AST]]] = {}
    for node in _of(tree, ast.Assign):
        for t in node.targets:
            for key in _target_key(t):
                out.setdefault(key, []).append((node.lineno, node.value))
    for node in _of(tree, ast.Call):
        if _call_last(node) == "assign":
            for kw in node.keywords:
                if kw.arg:
                    out.setdefault(kw.arg, []).append((kw.value.lineno, kw.value))
    return out


@rule("suspicious_values.negative_physical_quantity",
      title="A quantity that cannot be negative (distance, mass, count, price...) is negative")
def negative_physical_quantity(ev: Evidence) -> Iterator[Finding]:
    """Distances, lengths, masses, concentrations, counts, prices and ages cannot be negative.
    A negative one among a cell's results means the formula is wrong for some rows: a noisy
    measurement inverted (1/parallax with parallax <= 0), a sign or unit error, a
    subtraction where an absolute value was meant. Evidence: the kernel's range of a column
    the cell computes, the value of a scalar it computes, or a printed labelled value that
    the code ties to the expression it printed. Quiet for names that say the value is signed
    or transformed (a change, a log, a z-score, a coordinate, a signed distance to a
    boundary), for differences and logs by construction, and when the cell checks the sign."""
    if ev.tree is None or ("-" not in (ev.text or "") and not any(
            (f.ranges or f.value is not None) for f in ev.objects.values())):
        return
    tree = ev.tree
    assigned = _assigned_values(tree)
    reported = ev.model.reported_names
    seen: set[str] = set()
    hits: list[tuple[str, str, int, float, str, bool]] = []  # key, what, line, low, where, shown

    def ok_value(key: str) -> tuple[int, bool] | None:
        defs = assigned.get(key)
        if not defs or any(_signed_by_construction(v) for _, v in defs):
            return None
        if _duration_key(key) and any(_elapsed_sub(v, "nonneg") is not None for _, v in defs):
            return None  # an elapsed time by subtraction: negative_duration's finding
        if _sign_checked(tree, key):
            return None
        return defs[-1][0], True

    # printed labelled values, tied to the expression that printed them
    sites = _report_sites(tree)
    for tn in _text_numbers(ev.text or ""):
        if tn.value >= 0 or tn.in_list:
            continue
        what = _physical_key(tn.label)
        site = _match_site(tn.label, sites) if what else None
        if site is None or _signed_by_construction(site.expr):
            continue
        names = _names(site.expr)
        if any(_physical_key(n) is None and set(_tokens(n)) & _PHYSICAL_SIGNED for n in names):
            continue
        keys = {k for s in _walk(site.expr) for k in _target_key(s)}
        if any(k in assigned and ok_value(k) is None for k in keys) or any(
                _sign_checked(tree, k) for k in keys):
            continue
        key = tn.raw_label.strip(" :=") or tn.label
        if key in seen:
            continue
        seen.add(key)
        hits.append((key, what or "", site.line, tn.value, f"printed '{tn.line[:80]}'", True))
    # kernel facts: scalars and computed columns
    for name, facts in ev.objects.items():
        if facts.kind == "scalar" and isinstance(facts.value, int | float) and not isinstance(
                facts.value, bool) and facts.value < 0:
            what = _physical_key(name)
            got = ok_value(name) if what else None
            if got and name not in seen:
                seen.add(name)
                hits.append((name, what or "", got[0], float(facts.value),
                             f"the kernel's value of `{name}`", name in reported))
        if facts.kind != "dataframe":
            continue
        for col, rng in (facts.ranges or {}).items():
            if not rng or rng[0] is None or rng[0] >= 0:
                continue
            what = _physical_key(col)
            got = ok_value(col) if what else None
            if not got or col in seen:
                continue
            shown = bool(reported & {name}) or any(
                col in _chain_columns(c.node) or col in {
                    k for s in _walk(c.node) for k in _target_key(s)}
                for c in ev.model.calls if c.last in (
                    "mean", "median", "describe", "agg", "aggregate", "sum", "min", "max",
                    "quantile", "print", "display"))
            seen.add(col)
            hits.append((f"{name}.{col}", what or "", got[0], float(rng[0]),
                         f"the kernel's range of `{name}.{col}` ([{rng[0]:.4g}, {rng[1]:.4g}])",
                         shown))
    if not hits:
        return
    hits.sort(key=lambda h: (not h[5], h[3]))
    key, what, line, low, where, shown = hits[0]
    also = "; ".join(f"{w} shows {lo:.4g} for `{k}`" for k, _, _, lo, w, _ in hits[1:4])
    severity, conf = ("high", 0.85) if shown else ("medium", 0.6)
    yield Finding(
        explanation=(f"`{key}` (line {line}) is a {what}, which cannot be negative, yet "
                     f"{where} shows {low:.4g}{f' (also: {also})' if also else ''}. A negative "
                     f"{what} means the computation is wrong for some rows (a noisy measurement "
                     "inverted or divided by a value near or below zero, a sign or unit error, "
                     "a subtraction where a magnitude was meant), and any mean, total or fit "
                     "built from these values is wrong too."),
        severity=severity, confidence=conf,
        evidence={"lines": sorted({h[2] for h in hits}),
                  "values": {h[0]: round(h[3], 6) for h in hits[:5]}},
        suggestion=(f"Find the rows that give a negative {what} (`df[df[col] < 0]`) and fix "
                    "the computation rather than the symptom: combine noisy measurements "
                    "before a non-linear transform (average parallaxes, then invert), take "
                    "magnitudes where a magnitude is meant, or exclude invalid inputs "
                    "explicitly and report how many."))


# -- sentinel / placeholder codes averaged as real values --------------------------------------

# codes that exports write for "missing", "overflow" or "not applicable": all nines and the
# largest signed/unsigned 16- and 32-bit integers (a timer or counter that overflowed)
_NINES_CODES = {99.0, 999.0, 9999.0, 99999.0, 999999.0, 9999999.0}
_MACHINE_CODES = {32767.0, 65535.0, 2147483647.0, 4294967295.0}
_NEGATIVE_CODES = {-9.0, -99.0, -999.0, -9999.0, -99999.0}
_SUMMARY_METHODS = {"mean", "sum", "std", "var", "sem", "median", "quantile", "describe",
                    "agg", "aggregate"}
_SUMMARY_FUNCS = {"mean", "nanmean", "average", "std", "nanstd", "var", "nanvar", "median",
                  "nanmedian", "percentile", "nanpercentile", "quantile", "nanquantile", "sum",
                  "nansum", "fmean", "stdev", "pstdev", "variance", "pvariance"}
# methods a column passes through unchanged on the way to its summary
_PASS_METHODS = {"groupby", "resample", "to_numpy", "astype", "dropna", "fillna", "round",
                 "copy", "reset_index", "set_index", "sort_values", "sort_index", "squeeze",
                 "to_frame", "rename", "asarray", "array", "ravel", "flatten", "tolist",
                 "assign"}
_COLUMN_ATTRS_SKIP = {"values", "T", "loc", "iloc", "str", "dt", "cat", "array"}
# outputs that are not a location of the values (counts, spreads, totals): left out of the
# "how large are the column's summaries" evidence
_COUNT_AGGS = {"count", "size", "nunique", "first", "last", "idxmax", "idxmin", "std", "var",
               "sem", "sum", "max", "ptp"}
_NOT_LOCATION_TOKENS = _COUNT_AGGS | {"n", "sd", "stdev", "variance", "total", "rows", "num"}


@dataclass
class _Chain:
    root: str | None = None
    columns: list[str] = field(default_factory=list)
    guarded: bool = False  # replaced / masked / filtered / clipped on the way, or unknown


def _walk_chain(node: ast.AST) -> _Chain:
    """Root name, columns and guards of `df.groupby(g)["x"].values`, `df.loc[:, "x"]`."""
    out = _Chain()
    called: set[int] = set()
    cur: ast.AST | None = node
    while cur is not None:
        if isinstance(cur, ast.Call):
            called.add(id(cur.func))
            if isinstance(cur.func, ast.Attribute):
                if cur.func.attr not in _PASS_METHODS:
                    out.guarded = True
                cur = cur.func.value
                continue
            if _call_last(cur) in ("asarray", "array") and cur.args:  # np.asarray(df.x)
                cur = cur.args[0]
                continue
            out.guarded = True
            return out
        if isinstance(cur, ast.Attribute):
            if id(cur) not in called and cur.attr not in _COLUMN_ATTRS_SKIP:
                out.columns.append(cur.attr)
            cur = cur.value
            continue
        if isinstance(cur, ast.Subscript):
            sl = cur.slice
            parts = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            if isinstance(sl, ast.Tuple) and parts and isinstance(parts[0], ast.Slice) and \
                    parts[0].lower is None and parts[0].upper is None:
                parts = parts[1:]  # df.loc[:, "x"]
            strs: list[str] = []
            for p in parts:
                elts = p.elts if isinstance(p, ast.List | ast.Tuple) else [p]
                for e in elts:
                    if isinstance(e, ast.Constant) and isinstance(e.value, str):
                        strs.append(e.value)
                    else:
                        out.guarded = True  # a row mask, a slice, a computed key
            out.columns += strs
            cur = cur.value
            continue
        if isinstance(cur, ast.Name):
            out.root = cur.id
        else:
            out.guarded = True
        return out
    return out


def _agg_columns(call: ast.Call) -> tuple[list[str], set[str]]:
    """Columns a named / dict aggregation reads (`agg(m=("x", "mean"))`, `agg({"x": "mean"})`)
    and the output names that are counts (not summaries of a value)."""
    cols: list[str] = []
    counts: set[str] = set()
    for kw in call.keywords:
        v = kw.value
        if isinstance(v, ast.Tuple) and len(v.elts) == 2 and isinstance(
                v.elts[0], ast.Constant) and isinstance(v.elts[0].value, str):
            cols.append(v.elts[0].value)
            v = v.elts[1]
        if kw.arg and isinstance(v, ast.Constant) and v.value in _COUNT_AGGS:
            counts.add(kw.arg)
    for a in call.args:
        if isinstance(a, ast.Dict):
            cols += [k.value for k in a.keys
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return cols, counts


def _resolve_chain(ev: Evidence, node: ast.AST, site: ast.AST, function: str | None,
                   depth: int = 0) -> list[tuple[str, list[str]]]:
    """(frame name, columns) the expression `node` reads, following helper parameters to
    their call sites, loop variables to the groupby they iterate and names bound once in the
    cell; [] when a guard (replace, mask, filter, clip, an unknown call) is on the way."""
    ch = _walk_chain(node)
    if ch.guarded or ch.root is None or depth > 3:
        return []
    facts = ev.objects.get(ch.root)
    if facts is not None and facts.kind == "dataframe":
        return [(ch.root, ch.columns)]
    out: list[tuple[str, list[str]]] = []
    # a loop / comprehension variable over `df.groupby(g)` (`for _, grp in ...`)
    from ._columns import bindings_of, literal_assignment, loops_around
    for target, it in loops_around(ev, site):
        names = [target] if isinstance(target, ast.Name) else (
            list(target.elts) if isinstance(target, ast.Tuple) else [])
        if names and isinstance(names[-1], ast.Name) and names[-1].id == ch.root:
            for frame, cols in _resolve_chain(ev, it, it, None, depth + 1):
                out.append((frame, cols + ch.columns))
            return out
    for b in bindings_of(ev, function):
        if ch.root in b:
            for frame, cols in _resolve_chain(ev, b[ch.root], b[ch.root], None, depth + 1):
                out.append((frame, cols + ch.columns))
    if out or function:
        return out
    bound = literal_assignment(ev, ch.root)
    if bound is not None:
        for frame, cols in _resolve_chain(ev, bound, bound, None, depth + 1):
            out.append((frame, cols + ch.columns))
    return out


@dataclass
class _SummarySite:
    line: int
    frame: str
    column: str
    targets: list[str]
    counts: set[str]
    method: str = ""  # mean, sum, describe, agg... (the call that summarises)


def _summary_sites(ev: Evidence) -> list[_SummarySite]:
    out: list[_SummarySite] = []
    for c in ev.model.calls:
        counts: set[str] = set()
        extra: list[str] = []
        method = c.method or c.last or ""
        if method in ("agg", "aggregate"):  # the functions it applies, by name
            method = " ".join(str(n.value) for n in _walk(c.node)
                              if isinstance(n, ast.Constant) and isinstance(n.value, str))
        if c.method in _SUMMARY_METHODS and c.receiver is not None and not (
                c.name or "").startswith(("numpy.", "statistics.", "scipy.")):
            src = c.receiver
            if c.method in ("agg", "aggregate"):
                extra, counts = _agg_columns(c.node)
        elif c.last in _SUMMARY_FUNCS and (c.name or "").startswith(
                ("numpy.", "statistics.")) and c.node.args:
            src = c.node.args[0]
        else:
            continue
        targets = list(c.targets)
        if c.function:  # a helper's summary comes back to the names its callers assign
            targets += [t for k in ev.model.calls if k.method is None
                        and k.name == c.function and k.function != c.function
                        for t in k.targets]
        for frame, cols in _resolve_chain(ev, src, c.node, c.function):
            facts = ev.objects[frame]
            named = cols + extra
            if not named:  # df.describe(), df.mean(): every numeric column
                named = list(facts.ranges)
            for col in named:
                if col in facts.ranges:
                    out.append(_SummarySite(c.line, frame, col, targets, counts, method))
    return out


def _sentinel_of(col: str, rng: list[float]) -> tuple[float, str] | None:
    """(code, side) when the column's range ends at a classic placeholder code."""
    lo, hi = float(rng[0]), float(rng[1])
    if hi in _NINES_CODES or hi in _MACHINE_CODES:
        return hi, "max"
    if lo in _NEGATIVE_CODES and hi > 0 and -lo >= 5 * hi:
        return lo, "min"
    if lo == -1.0 and hi >= 10 and (_physical_key(col) or _duration_key(col) == "nonneg"):
        return lo, "min"
    return None


def _bulk_values(ev: Evidence, site: _SummarySite) -> list[float]:
    """What the cell's own summaries of the column came to: the kernel's values of the
    names the summary is assigned to (count outputs left out), or a printed describe /
    Series of the column."""
    vals: list[float] = []
    for t in site.targets:
        f = ev.objects.get(t)
        if f is None:
            continue
        if isinstance(f.value, int | float) and not isinstance(f.value, bool):
            vals.append(float(f.value))
        vals += [float(v) for v in (f.values or [])]
        for col, rng in (f.ranges or {}).items():
            if col not in site.counts and rng and not set(_tokens(col)) & _NOT_LOCATION_TOKENS:
                vals += [float(rng[0]), float(rng[1])]
    rows = _footer_blocks(ev.text or "", site.column)
    if rows:
        labelled = dict(rows)
        if "max" in labelled:
            vals += [labelled[k] for k in ("mean", "50%", "75%") if k in labelled]
        else:
            vals += [v for _, v in rows]
    return vals


def _num(v: float | None) -> str:
    if v is not None and float(v).is_integer() and abs(v) < 1e12:
        return str(int(v))
    return _fmt(float(v or 0.0))


def _code_in_cell(tree: ast.AST, code: float) -> bool:
    text = str(int(code))
    for n in _walk(tree):
        if isinstance(n, ast.Constant):
            if isinstance(n.value, int | float) and not isinstance(n.value, bool) and \
                    float(n.value) == code:
                return True
            if isinstance(n.value, str) and text in n.value:
                return True
    return False


_MEAN_LIKE = {"mean", "nanmean", "average", "fmean", "sum", "nansum", "describe", "std",
              "nanstd", "var", "nanvar", "sem", "stdev", "pstdev", "variance", "pvariance"}
_ZERO_IMPOSSIBLE = {"height", "bmi", "handle", "talk", "hold"}
# quantities a recorded row cannot have at exactly 0: what a sold item fetched, what was paid,
# a body's weight, an object's size. A block of zeros in them stands for "no sale", "not
# paid", "not weighed"
_ZERO_NOT_A_VALUE = _ZERO_IMPOSSIBLE | {
    "price", "prices", "hammer", "fare", "fares", "rent", "paid", "sale", "premium",
    "weight", "weights", "wt", "mass", "length", "width", "diameter", "size", "sqft"}
# quantities where 0 is an ordinary value (a count, nothing sold, a dry day, no discount), or
# that are signed / relative, or a weight that is not a measurement (a sample or portfolio
# weight may be 0)
_ZERO_IS_A_VALUE = _SIGNED_TOKENS | {
    "count", "counts", "n", "num", "number", "qty", "quantity", "units", "unit", "sales",
    "visits", "visit", "defects", "defect", "errors", "rain", "rainfall", "precip",
    "precipitation", "snow", "revenue", "spend", "spent", "discount", "tip", "tips",
    "refund", "refunds", "loss", "gain", "returns", "return", "items", "orders", "clicks",
    "sample", "portfolio", "class", "allocation", "alloc", "share", "pct", "percent",
    "rate", "ratio", "prop", "proportion", "frac", "fraction", "is", "has", "flag", "any",
    "total", "sum", "cum", "cumulative", "extra", "fee", "fees", "tax", "bonus", "overtime",
    "penalty", "fine", "donation", "missed", "lost", "absent", "absence", "outstanding",
    "due", "owed", "arrears", "debt"}
# location summaries: a block of placeholder zeros drags them down (a total is unaffected)
_LOCATION = {"mean", "nanmean", "average", "fmean", "median", "nanmedian", "describe",
             "quantile", "nanquantile", "percentile", "nanpercentile"}
_ZERO_TEST_RE = re.compile(r"(?:[<>]=?|[!=]=)\s*0(?:\.0*)?(?![\d.])|\bnonzero\b")
_ZERO_METHODS = {"replace", "mask", "where", "ne", "eq", "gt", "ge", "lt", "le", "clip",
                 "isin", "drop", "nonzero", "flatnonzero", "count_nonzero"}


@dataclass
class _Tail:
    code: float
    rows: int  # rows holding the code (exact when set apart, see ObjectFacts.tails)
    after: float  # the next distinct value inward
    apart: bool  # repeated exact value far from the rest
    rest: float  # a (generous) location of the other values
    share: float


def _tail_of(t: dict, side: str, n: int) -> _Tail | None:
    """The extreme value of a kernel `tails` fact on one side and how far it sits from the
    next distinct value: 8x the next value's magnitude, or 5x the central spread."""
    ends = t.get("top" if side == "max" else "bottom") or []
    q = t.get("q") or []
    if len(ends) < 2 or len(q) != 3 or n <= 0:
        return None
    code, rows = float(ends[0][0]), int(ends[0][1])
    after = float(ends[1][0])
    q05, q50, q95 = (float(x) for x in q)
    spread = q95 - q05
    gap = abs(code - after)
    if side == "max":
        apart = code > 0 and ((after >= 0 and code >= 8 * after) or
                              (0 < 5 * spread < gap))
        rest = (q05 + q50 + min(q95, after)) / 3
    else:
        apart = code < 0 and ((after >= 0 and -code >= 8 * after) or (0 < 5 * spread < gap))
        rest = (max(q05, after) + q50 + q95) / 3
    return _Tail(code, rows, after, apart and rows >= 2, rest, rows / n)


def _moved(tail: _Tail) -> float | None:
    """How many times the code rows move a mean of the column (with / without), from the
    code's share and a generous location of the rest; None when it cannot be told."""
    if tail.rest <= 0 or not 0 < tail.share < 0.5:
        return None
    with_code = tail.share * tail.code + (1 - tail.share) * tail.rest
    if with_code <= 0:
        return float("inf")
    return max(with_code / tail.rest, tail.rest / with_code)


def _zero_block(t: dict, n: int) -> _Tail | None:
    """A block of exact zeros set apart from the other values: at least 10 rows and 5% of
    the column (under half), at least three distinct values, and a smallest non-zero value
    that is not on the grid continuing down to 0 (at least 1.5x the step to the next value:
    0, 0.1, 0.2 mm of rain or 0, 1, 2 visits run on to 0; 0, 110, 150 pounds does not) and
    not tiny against the median (>= 2% of it)."""
    bottom, q = t.get("bottom") or [], t.get("q") or []
    if len(bottom) < 3 or len(q) != 3 or n <= 0 or float(bottom[0][0]) != 0.0:
        return None
    rows, after, nxt = int(bottom[0][1]), float(bottom[1][0]), float(bottom[2][0])
    q50 = float(q[1])
    share = rows / n
    if rows < 10 or not 0.05 <= share < 0.5 or q50 <= 0 or after <= 0:
        return None
    if after < 1.5 * (nxt - after) or after < 0.02 * q50:
        return None
    return _Tail(0.0, rows, after, True, q50, share)


def _zero_status(facts: ObjectFacts, col: str) -> tuple[str, list] | None:
    """(status column, [share zero in class a, in class b, a, b]) when a two-valued column
    of the frame marks the zero rows as a class of their own (kernel `outcome_indicators`:
    the column is 0 for ~all rows of one class and set for most of the other)."""
    found = (facts.params or {}).get("outcome_indicators") or {}
    for status, cols in found.items():
        if isinstance(cols, dict) and col in cols and status != col:
            return status, list(cols[col])
    return None


def _zero_placeholder(col: str, t: dict, n: int,
                      facts: ObjectFacts | None = None) -> tuple[_Tail, str, str | None] | None:
    """A spike of exact zeros standing for 'not recorded' / 'did not happen' rather than a
    value: (tail, why, status column). Either the column names a quantity that cannot be 0
    (a duration, an age, a handle time, a price fetched, a weight, a size) or a two-valued
    column of the frame marks exactly the zero rows as another status; quiet for names
    where 0 is an ordinary value (counts, units sold, rainfall, revenue, discounts)."""
    toks = set(_tokens(col))
    tail = _zero_block(t, n)
    if tail is None:
        return None
    status = _zero_status(facts, col) if facts is not None else None
    if _duration_key(col) == "nonneg" or toks & _ZERO_IMPOSSIBLE:
        return tail, "name", status[0] if status else None
    if toks & _ZERO_IS_A_VALUE:
        return None
    if toks & _ZERO_NOT_A_VALUE:
        return tail, "name", status[0] if status else None
    if status is not None:
        return tail, "status", status[0]
    return None


def _zero_handled(tree: ast.AST) -> bool:
    """The cell tests or replaces zeros somewhere (`x > 0`, `x != 0`, `.replace(0, np.nan)`,
    `.mask(x.eq(0))`, `query("x > 0")`, `np.nonzero`): it knows about them."""
    def zero(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and isinstance(n.value, int | float) and \
            not isinstance(n.value, bool) and float(n.value) == 0.0
    for n in _walk(tree):
        if isinstance(n, ast.Compare) and any(zero(x) for x in [n.left, *n.comparators]):
            return True
        if isinstance(n, ast.Call):
            name = n.func.attr if isinstance(n.func, ast.Attribute) else (
                n.func.id if isinstance(n.func, ast.Name) else "")
            if name in _ZERO_METHODS and (
                    name.endswith("nonzero") or any(zero(a) for a in n.args) or any(
                        zero(e) for a in n.args if isinstance(a, ast.List | ast.Tuple | ast.Set)
                        for e in a.elts)):
                return True
        if isinstance(n, ast.Dict) and any(k is not None and zero(k) for k in n.keys):
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and \
                _ZERO_TEST_RE.search(n.value):
            return True
        if isinstance(n, ast.Attribute) and n.attr in ("nonzero", "flatnonzero"):
            return True
    return False


@rule("suspicious_values.sentinel_code_in_summary",
      title="A placeholder code (65535, 9999, -999...) averaged as a real value")
def sentinel_code_in_summary(ev: Evidence) -> Iterator[Finding]:
    """Exports write placeholder codes for missing or broken measurements: 99 / 999 / 9999
    for "unknown", 65535 or 32767 for a 16-bit counter or timer that overflowed, -999 for
    "not measured". A mean, sum, standard deviation, quantile or describe() of a column that
    still holds such a code averages it as a real value. Evidence: the kernel's range of the
    summarised column ends exactly at a code and the code sits far from the rest - the
    cell's own summaries of the column are at most an eighth of it (or, for a negative code,
    its magnitude is five times the column's maximum, or the column is a count / age /
    duration that cannot be -1). Quiet when the code is replaced, masked, clipped or filtered
    out on the way to the summary (or named anywhere in the cell), and when the summarised
    frame no longer holds it."""
    if ev.tree is None or not any(f.ranges for f in ev.objects.values()):
        return
    sites = _summary_sites(ev)
    by_col: dict[tuple[str, str], list[_SummarySite]] = {}
    for s in sites:
        by_col.setdefault((s.frame, s.column), []).append(s)
    for (frame, col), group in by_col.items():
        facts = ev.objects[frame]
        rng = facts.ranges[col]
        tails = facts.tails.get(col) if facts.tails else None
        n = (facts.rows or 0) - int(facts.missing.get(col, 0) or 0)
        found = _sentinel_of(col, rng)
        tail: _Tail | None = None
        zero = False
        zero_by, status = "", None
        if found is None and tails:
            placeholder = _zero_placeholder(col, tails, n, facts)
            if placeholder is None:
                continue
            tail, zero_by, status = placeholder
            found, zero = (0.0, "min"), True
            group = [s for s in group if set(s.method.split()) & _LOCATION]
            if not group or _zero_handled(ev.tree):
                continue
        elif found is None:
            continue
        code, side = found
        if tails and not zero:
            tail = _tail_of(tails, side, n)
            if tail is not None and tail.code != code:
                tail = None
            if tail is not None and not tail.apart and code != -1.0:
                continue  # the values run up to the code: an ordinary extreme
        if not zero and _code_in_cell(ev.tree, code):
            continue
        lines = sorted({s.line for s in group})
        bulk = [abs(v) for s in group for v in _bulk_values(ev, s)]
        rows_txt = (f"{tail.rows:,} row{'s' if tail.rows != 1 else ''} "
                    f"({tail.share:.1%}) hold exactly {_num(code)}") if tail else ""
        if zero and tail is not None:
            marked = ""
            if status is not None:
                za, zb, a, b = (facts.params["outcome_indicators"][status][col] + [0, 0, "", ""]
                                )[:4]
                zero_class, other = (a, b) if za >= zb else (b, a)
                marked = (f"; the zeros line up with `{status}` = {zero_class!r} "
                          f"({max(za, zb):.0%} of those rows are 0, against "
                          f"{min(za, zb):.0%} where `{status}` = {other!r}), so they mark "
                          "another status (not sold, not measured), not a value")
            why = (f"{rows_txt}, while the next smallest value is {_num(tail.after)} and "
                   f"the median {_num(tail.rest)}"
                   + (f": `{col}` cannot really be 0, so the zeros look like 'not "
                      "recorded' or 'did not happen'" if zero_by == "name" else "")
                   + marked)
        elif tail is not None and tail.apart:
            why = (f"{rows_txt}, and the next {'largest' if side == 'max' else 'smallest'} "
                   f"value is only {_num(tail.after)}"
                   + (f"; `{col}` cannot be negative" if code == -1.0 else ""))
        elif side == "max":
            top = max(bulk) if bulk else None
            if top is not None and (top == 0 or code < 8 * top):
                continue  # the summaries reach the code's order: a plausible value
            if top is None and code not in _MACHINE_CODES:
                continue
            why = (f"the cell's own summaries of it are at most {_num(top)}, "
                   f"{code / top:.0f}x below the code" if top else
                   "no summary value could be read to show how far it sits from the rest")
        else:
            why = (f"the rest of the column reaches only {_num(rng[1])}" if code != -1.0 else
                   f"`{col}` cannot be negative")
        severity, conf = ("high", 0.75) if (side == "min" or bulk or (
            tail is not None and tail.apart)) else ("medium", 0.5)
        if zero:  # a name that rules 0 out, or a status column marking the zero rows
            severity, conf = (("high", 0.75) if zero_by == "name" and status else
                              ("high", 0.7) if zero_by == "name" else ("medium", 0.55))
        moved = _moved(tail) if tail is not None and tail.apart and not zero else None
        mean_like = any(set(s.method.split()) & _MEAN_LIKE for s in group)
        shift = ""
        if moved is not None and moved > 2 and mean_like:
            severity, conf = "critical", 0.85
            shift = (f" With {tail.share:.1%} of the rows at {_num(code)} and the other "
                     f"values around {_num(tail.rest)}, the mean comes out about "
                     f"{moved:.1f}x {'above' if side == 'max' else 'away from'} the mean "
                     "without them: the reported summary is not a summary of the "
                     "measurements.")
        what = ("a value that exports also write for missing or not-applicable entries"
                if zero else "a placeholder code that exports write for missing, unknown or "
                "overflowed values")
        effect = ("zeros as real values, so means, medians and lower quantiles are pulled "
                  "down (most in the groups where the zeros are most frequent) and describe "
                  "neither the recorded values nor how often the value is missing." if zero
                  else "code as a real measurement, so means, totals, spreads and upper "
                  "quantiles are biased (most where the code is most frequent).")
        yield Finding(
            explanation=(f"`{frame}.{col}` runs from {_num(rng[0])} to {_num(rng[1])}: its "
                         f"{side}imum is exactly {_num(code)}, {what}, and {why}. The "
                         f"summary on line{'s' if len(lines) > 1 else ''} "
                         f"{', '.join(map(str, lines))} averages the {effect}" + shift),
            severity=severity, confidence=conf,
            evidence={"lines": lines, "values": {f"{frame}.{col}": list(rng),
                                                 "code": code,
                                                 **({"code_rows": tail.rows,
                                                     "next_value": tail.after}
                                                    if tail else {}),
                                                 **({"mean_moved_x": round(moved, 2)}
                                                    if moved is not None else {}),
                                                 **({"status_column": status}
                                                    if status else {})}},
            suggestion=(f"Count the rows where `{col}` is 0 and report that share on its "
                        "own (e.g. a sell-through or completion rate); compute the "
                        f"averages on the other rows: `df.loc[df['{col}'] > 0, '{col}']` "
                        f"or `df['{col}'].replace(0, np.nan)`, with the number of rows "
                        "each summary is based on." if zero else
                        f"Count the rows equal to {_num(code)} (`(df['{col}'] == "
                        f"{_num(code)}).sum()`), then treat them as missing before "
                        f"summarising: `df['{col}'].replace({_num(code)}, np.nan)` or "
                        f"`df[df['{col}'] != {_num(code)}]`, and report how many were "
                        "excluded (and whether other codes such as 0 mean 'not measured')."))


# -- linear probability model: predictions of a 0/1 response outside [0, 1] -------------------

_LPM_FORMULA = {"ols", "wls"}  # statsmodels.formula.api
_LPM_ARRAY = {"OLS", "WLS"}  # statsmodels.api
_LPM_SKLEARN = {"LinearRegression", "Ridge", "Lasso", "ElasticNet", "RidgeCV", "LassoCV",
                "ElasticNetCV", "BayesianRidge"}
_LPM_WORDS = {"p", "prob", "probs", "proba", "probability", "probabilities", "chance",
              "chances", "likelihood", "risk", "risks", "propensity", "share", "pct",
              "percent", "phat", "rate", "odds_of"}
_LPM_PASS = {"round", "head", "tail", "to_string", "to_frame", "to_numpy", "tolist",
             "sort_values", "nlargest", "nsmallest", "describe", "max", "min", "item",
             "float", "squeeze", "reset_index", "rename", "astype", "print", "display",
             "iloc", "loc", "values", "mean", "median", "quantile", "agg"}
_LPM_NOT_PRED = {"clip", "minimum", "maximum", "expit", "sigmoid", "logistic", "cdf", "sum",
                 "cumsum", "count", "len", "nunique", "idxmax", "idxmin", "argmax", "argmin",
                 "std", "var", "sem", "between", "isna", "notna", "value_counts", "corr"}
_LPM_NUM = r"(-?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?%?)"


def _binary_facts(facts: ObjectFacts | None, col: str) -> bool:
    """A 0/1 (or boolean) column `col` of a frame (`""`: a Series / array) by the kernel."""
    if facts is None or facts.unique.get(col) != 2:
        return False
    if facts.dtypes.get(col, "").startswith("bool"):
        return True
    rng = facts.ranges.get(col)
    if rng is None and col in facts.tails:
        t = facts.tails[col]
        rng = [t["bottom"][0][0], t["top"][0][0]] if t.get("top") and t.get("bottom") else None
    return rng is not None and [float(rng[0]), float(rng[1])] == [0.0, 1.0]


def _binary_response(ev: Evidence, node: ast.AST | None, depth: int = 0) -> str | None:
    """The name of a 0/1 response expression (`df["y"]`, `df.y`, `y`), by the kernel facts."""
    if node is None or depth > 3:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("astype", "to_numpy", "ravel"):
        return _binary_response(ev, node.func.value, depth + 1)
    if isinstance(node, ast.Attribute) and node.attr == "values":
        return _binary_response(ev, node.value, depth + 1)
    frame, col = None, None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        frame, col = node.value.id, node.slice.value
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        frame, col = node.value.id, node.attr
    if frame is not None and col is not None:
        facts = ev.objects.get(frame) or ev.before.get(frame)
        return f"{frame}.{col}" if _binary_facts(facts, col) else None
    if isinstance(node, ast.Name):
        facts = ev.objects.get(node.id) or ev.before.get(node.id)
        return node.id if _binary_facts(facts, "") else None
    return None


def _lpm_fits(ev: Evidence, code: _Code) -> dict[str, tuple[str, int, str]]:
    """{name holding a linear model fitted on a 0/1 response: (response, line, how)}."""
    tree = code.model.tree
    roots: list[tuple[ast.Call, str, str]] = []  # (call, response, how)
    for call in _of(tree, ast.Call):
        last = _call_last(call)
        if last in _LPM_FORMULA:
            f = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "formula"), None)
            data = call.args[1] if len(call.args) > 1 else next(
                (k.value for k in call.keywords if k.arg == "data"), None)
            if not (isinstance(f, ast.Constant) and isinstance(f.value, str) and "~" in f.value
                    and isinstance(data, ast.Name)):
                continue
            lhs = f.value.split("~", 1)[0].strip()
            if re.fullmatch(r"\w+", lhs) and _binary_facts(
                    ev.objects.get(data.id) or ev.before.get(data.id), lhs):
                roots.append((call, f"{data.id}.{lhs}", f"`{last}` (least squares)"))
        elif last in _LPM_ARRAY:
            y = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "endog"), None)
            resp = _binary_response(ev, y)
            if resp:
                roots.append((call, resp, f"`{last}` (least squares)"))
        elif last == "fit" and isinstance(call.func, ast.Attribute) and len(call.args) >= 2:
            est = call.func.value
            cls = _call_last(est) if isinstance(est, ast.Call) else None
            if isinstance(est, ast.Name):
                facts = ev.objects.get(est.id)
                cls = facts.type.rsplit(".", 1)[-1] if facts and facts.type else None
                if cls is None:
                    binds = code.assign.get(est.id, [])
                    if binds and isinstance(binds[-1][1], ast.Call):
                        cls = _call_last(binds[-1][1])  # type: ignore[arg-type]
            if cls in _LPM_SKLEARN:
                resp = _binary_response(ev, call.args[1])
                if resp:
                    roots.append((call, resp, f"`{cls}`"))
                    if isinstance(est, ast.Name):
                        roots.append((est, resp, f"`{cls}`"))  # type: ignore[arg-type]
    out: dict[str, tuple[str, int, str]] = {}
    for node, resp, how in roots:
        if isinstance(node, ast.Name):
            out[node.id] = (resp, getattr(node, "lineno", 0), how)
    for _ in range(2):
        for st in _of(tree, ast.Assign):
            inner = set(map(id, _walk(st.value)))
            hit = next(((resp, how) for node, resp, how in roots if id(node) in inner), None)
            if hit is None and isinstance(st.value, ast.Call) and _call_last(st.value) == "fit" \
                    and isinstance(st.value.func, ast.Attribute) and \
                    _root(st.value.func.value) in out:
                resp, _, how = out[_root(st.value.func.value)]  # type: ignore[index]
                hit = (resp, how)
            if hit:
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, (hit[0], st.lineno, hit[1]))
    return out


def _params_of(node: ast.AST, models: dict) -> bool:  # type: ignore[type-arg]
    return any(isinstance(x, ast.Attribute) and x.attr in ("params", "coef_", "intercept_")
               and _root(x) in models for x in _walk(node))


def _is_lpm_prediction(node: ast.AST, models: dict, preds: set[str]) -> bool:  # type: ignore[type-arg]
    """`node` computes predictions of one of `models`: `.predict(…)`, `.fittedvalues`,
    `.get_prediction(…).predicted_mean`, a dot product of `.params` / `.coef_` with a design
    row, or a name already known to hold such predictions."""
    for x in _walk(node):
        if isinstance(x, ast.Call) and _call_last(x) in _LPM_NOT_PRED:
            return False  # bounded (clip, expit), or a count / spread of the predictions
        if isinstance(x, ast.Compare | ast.BoolOp):
            return False  # `(p > 1).sum()`: how many are out of range, not a prediction
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mult | ast.Div) and any(
                isinstance(s, ast.Constant) and isinstance(s.value, int | float)
                for s in (x.left, x.right)):
            return False  # `p * 100`: rescaled, read by its own scale
    for x in _walk(node):
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and \
                x.func.attr in ("predict", "get_prediction") and _root(x.func) in models:
            return True
        if isinstance(x, ast.Attribute) and x.attr in ("fittedvalues", "predicted_mean") and \
                _root(x) in models:
            return True
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.MatMult) and _params_of(x, models):
            return True
        if isinstance(x, ast.Call) and _call_last(x) in ("dot", "inner", "matmul") and \
                _params_of(x, models):
            return True
        if isinstance(x, ast.Name) and x.id in preds:
            return True
    return False


def _lpm_pred_names(code: _Code, models: dict) -> set[str]:  # type: ignore[type-arg]
    preds: set[str] = set()
    tree = code.model.tree
    for _ in range(3):
        for st in _of(tree, ast.Assign):
            if _is_lpm_prediction(st.value, models, preds):
                for t in st.targets:
                    preds |= _names(t) if isinstance(t, ast.Name | ast.Tuple) else set()
        for loop in _of(tree, ast.For, ast.comprehension):
            if _is_lpm_prediction(loop.iter, models, preds):
                preds |= _names(loop.target)
    return preds


def _lpm_label(*texts: str) -> bool:
    for text in texts:
        toks = set(_tokens(text))
        if toks & _LPM_WORDS or "%" in text:
            return True
    return False


def _shown_in_text(text: str, v: float) -> str | None:
    """The printed token of `v` (rounded as displayed), if the output shows it."""
    for m in re.finditer(r"(?<![\w.])-?\d+(?:\.\d+)?", text):
        tok = m.group(0)
        decimals = len(tok.split(".")[1]) if "." in tok else 0
        if decimals == 0:
            continue
        try:
            t = float(tok)
        except ValueError:
            continue
        if (t > 1 or t < 0) and abs(t - v) <= 0.5 * 10 ** -decimals + 1e-9:
            return tok
    return None


def _fstring_values(js: ast.JoinedStr, field_idx: int, text: str, anchored: bool) -> list[float]:
    parts = []
    for i, v in enumerate(js.values):
        if isinstance(v, ast.Constant):
            parts.append(re.escape(str(v.value)))
        elif i == field_idx:
            parts.append(_LPM_NUM)
        else:
            parts.append(r".*?")
    pattern = ("(?m)^" if anchored else "") + "".join(parts)
    out: list[float] = []
    try:
        for m in re.finditer(pattern, text):
            tok = m.group(1).replace(",", "")
            v = float(tok.rstrip("%")) / (100 if tok.endswith("%") else 1)
            out.append(v)
    except (re.error, ValueError, IndexError):
        return []
    return out


def _frame_facts_range(facts: ObjectFacts | None, col: str) -> list[float]:
    if facts is None:
        return []
    if facts.values and col == "":
        return list(facts.values)
    if isinstance(facts.value, int | float) and not isinstance(facts.value, bool):
        return [float(facts.value)]
    rng = facts.ranges.get(col)
    if rng:
        return [float(rng[0]), float(rng[1])]
    t = facts.tails.get(col)
    if t and t.get("top") and t.get("bottom"):
        return [float(t["bottom"][0][0]), float(t["top"][0][0])]
    return []


def _lpm_caveat(tree: ast.AST, preds: set[str], models: dict) -> bool:  # type: ignore[type-arg]
    """The cell checks its predictions against 0 or 1 (`(p > 1).sum()`, `p.between(0, 1)`):
    the analyst looks at the out-of-range share rather than presenting it as a probability."""
    for x in _walk(tree):
        if isinstance(x, ast.Compare) and (_is_lpm_prediction(x.left, models, preds)) and any(
                isinstance(c, ast.Constant) and c.value in (0, 1) for c in x.comparators):
            return True
        if isinstance(x, ast.Call) and _call_last(x) == "between" and \
                isinstance(x.func, ast.Attribute) and \
                _is_lpm_prediction(x.func.value, models, preds):
            return True
    return False


@rule("suspicious_values.lpm_probability_out_of_range",
      title="Linear-model 'probabilities' of a 0/1 outcome outside [0, 1]")
def lpm_probability_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """A least-squares model (OLS / WLS, `LinearRegression`, Ridge…) fitted to a 0/1 response
    (the kernel shows the column holds two values, 0 and 1) is a linear probability model: its
    predictions are not bounded, and a prediction of 1.22 or -0.06 is not a probability.
    Reported when such predictions - `.predict(new)`, `.fittedvalues`, `params @ row` - are
    shown outside [0, 1] (kernel facts confirmed in the printed output, or the printed
    f-string field itself); critical when they are labelled as a probability / chance / risk
    / share, medium when unlabelled or when the cell checks the out-of-range share."""
    code_text = ev.code or ""
    if not any(w in code_text for w in ("ols", "OLS", "WLS", "Regression", "Ridge", "Lasso",
                                        "ElasticNet")):
        return
    code = _scan(ev).code
    models = _lpm_fits(ev, code)
    if not models:
        return
    tree = code.model.tree
    preds = _lpm_pred_names(code, models)
    text = ev.text
    hits: list[tuple[str, float, bool, int]] = []  # (what, value, labelled, line)
    # predictions bound to a name or a frame column and shown
    for st in _of(tree, ast.Assign):
        if not _is_lpm_prediction(st.value, models, preds):
            continue
        for t in st.targets:
            what, facts, col = None, None, ""
            if isinstance(t, ast.Name):
                what, facts = t.id, ev.objects.get(t.id)
                if t.id not in code.model.reported_names:
                    continue
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                    isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                what, col = t.slice.value, t.slice.value
                facts = ev.objects.get(t.value.id)
                if t.value.id not in code.model.reported_names or col not in text:
                    continue
            if what is None:
                continue
            for v in _frame_facts_range(facts, col):
                if (v > 1 or v < 0) and _shown_in_text(text, v):
                    hits.append((what, v, _lpm_label(what), st.lineno))
    # predictions formatted straight into a printed f-string
    for call in _of(tree, ast.Call):
        if _call_last(call) != "print":
            continue
        for ai, a in enumerate(call.args):
            if not isinstance(a, ast.JoinedStr):
                continue
            consts = " ".join(str(v.value) for v in a.values if isinstance(v, ast.Constant))
            for i, v in enumerate(a.values):
                if isinstance(v, ast.FormattedValue) and _is_lpm_prediction(v.value, models,
                                                                            preds):
                    spec = ast.unparse(v.format_spec) if v.format_spec else ""
                    label = _lpm_label(consts, ast.unparse(v.value)) or "%" in spec
                    for val in _fstring_values(a, i, ev.stdout, anchored=ai == 0):
                        if val > 1 or val < 0:
                            hits.append((ast.unparse(v.value), val, label, call.lineno))
    if not hits:
        return
    labelled = any(h[2] for h in hits)
    caveat = _lpm_caveat(tree, preds, models)
    resp, fit_line, how = next(iter(models.values()))
    vals = sorted({round(h[1], 4) for h in hits})
    shown = ", ".join(_fmt(v) for v in vals[:4]) + ("…" if len(vals) > 4 else "")
    severity, conf = ("critical", 0.85) if labelled and not caveat else ("medium", 0.6)
    yield Finding(
        explanation=f"A linear model ({how}, line {fit_line}) is fitted to `{resp}`, which "
                    f"the kernel shows holds only 0 and 1: a linear probability model. Its "
                    f"predictions are not bounded, and the cell shows predicted values "
                    f"{shown} for `{hits[0][0]}`"
                    + (" presented as probabilities" if labelled else "")
                    + " - outside [0, 1], so they are not probabilities.",
        severity=severity, confidence=conf,
        evidence={"lines": sorted({fit_line} | {h[3] for h in hits}),
                  "values": {"response": resp, "predictions_outside_0_1": vals[:6]}},
        suggestion="Model a 0/1 outcome with a logistic (or probit) regression "
                   "(`smf.logit(...)`, `LogisticRegression`, `predict_proba`) so predicted "
                   "probabilities stay in [0, 1]; if the linear model is kept for its "
                   "coefficients, do not report its predictions as probabilities (or clip "
                   "them and say how many fell outside [0, 1]).")
