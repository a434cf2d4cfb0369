"""The train/test data-flow pass shared by the leakage, target_leakage and circular_validation
rules.

One ordered pass over the notebook's earlier cells and this cell (`flow_of(ev)`). Every value
carries tags: which preprocessing fits it went through (`("fit", k, column)`), which side of which
split it is on (`("split", s, "train"|"test")`, from train_test_split targets, KFold loops,
manual `train, test = df[:n], df[n:]` splits; names such as `X_test` are a fallback), the loops
it depends on, and the test-set scores it was computed from. The leakage rules read the fits that
met a split they did not respect; circular_validation reads the test-set scores and selections.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ..ast_cache import walk as _walk
from ..code_model import CodeModel, called_name, names_in, root_name
from ..evidence import Evidence

Tag = tuple
Labels = frozenset

EMPTY: frozenset = frozenset()

# -- what the sklearn-ish world looks like ---------------------------------------------------

SUPERVISED_SELECTORS = {
    "SelectKBest", "SelectPercentile", "SelectFpr", "SelectFdr", "SelectFwe",
    "GenericUnivariateSelect", "RFE", "RFECV", "SelectFromModel", "SequentialFeatureSelector",
    "LinearDiscriminantAnalysis", "NeighborhoodComponentsAnalysis", "BorutaPy", "Boruta",
    "PLSRegression", "PLSSVD",
}
TARGET_ENCODERS = {
    "TargetEncoder", "MEstimateEncoder", "LeaveOneOutEncoder", "CatBoostEncoder", "WOEEncoder",
    "JamesSteinEncoder", "GLMMEncoder", "QuantileEncoder", "SummaryEncoder",
}
STATS_TRANSFORMERS = {
    "StandardScaler", "MinMaxScaler", "RobustScaler", "MaxAbsScaler", "QuantileTransformer",
    "PowerTransformer", "SimpleImputer", "KNNImputer", "IterativeImputer", "Imputer", "PCA",
    "IncrementalPCA", "KernelPCA", "SparsePCA", "MiniBatchSparsePCA", "TruncatedSVD",
    "FactorAnalysis", "FastICA", "NMF", "MiniBatchNMF", "LatentDirichletAllocation",
    "DictionaryLearning", "MiniBatchDictionaryLearning", "KBinsDiscretizer",
    "VarianceThreshold", "SplineTransformer", "TfidfVectorizer", "TfidfTransformer",
    "Nystroem", "StandardScalerTransformer", "Winsorizer", "MeanMedianImputer",
    "OutlierTrimmer", "EqualFrequencyDiscretiser", "EqualWidthDiscretiser",
}
UNSUPERVISED_EMBEDDINGS = {
    "TSNE", "Isomap", "LocallyLinearEmbedding", "MDS", "SpectralEmbedding", "UMAP", "KMeans",
    "MiniBatchKMeans", "GaussianMixture", "BisectingKMeans",
}
ENCODERS = {
    "OneHotEncoder", "OrdinalEncoder", "LabelEncoder", "LabelBinarizer",
    "MultiLabelBinarizer", "CountVectorizer", "DictVectorizer", "DummyEncoder",
}
STATELESS = {
    "PolynomialFeatures", "Normalizer", "Binarizer", "FunctionTransformer",
    "HashingVectorizer", "GaussianRandomProjection", "SparseRandomProjection", "RBFSampler",
    "SkewedChi2Sampler", "AdditiveChi2Sampler", "FeatureHasher",
}
OVERSAMPLERS = {
    "SMOTE", "ADASYN", "BorderlineSMOTE", "SVMSMOTE", "KMeansSMOTE", "SMOTENC", "SMOTEN",
    "RandomOverSampler", "SMOTETomek", "SMOTEENN",
}
UNDERSAMPLERS = {
    "RandomUnderSampler", "NearMiss", "TomekLinks", "EditedNearestNeighbours",
    "RepeatedEditedNearestNeighbours", "AllKNN", "CondensedNearestNeighbour",
    "OneSidedSelection", "NeighbourhoodCleaningRule", "InstanceHardnessThreshold",
    "ClusterCentroids",
}
COMPOSITES = {"Pipeline", "ColumnTransformer", "FeatureUnion", "TransformedTargetRegressor"}
COMPOSITE_FACTORIES = {"make_pipeline", "make_column_transformer", "make_union"}
SEARCHES = {
    "GridSearchCV", "RandomizedSearchCV", "HalvingGridSearchCV", "HalvingRandomSearchCV",
    "BayesSearchCV", "TuneSearchCV", "TuneGridSearchCV",
}
SPLITTER_RE = re.compile(r"(Fold|Split|LeaveOneOut|LeavePOut|LeaveOneGroupOut|LeavePGroupsOut)$")
SCALE_FUNCS = {
    "scale", "minmax_scale", "robust_scale", "maxabs_scale", "quantile_transform",
    "power_transform", "zscore",
}
CV_FUNCS = {
    "cross_val_score", "cross_validate", "cross_val_predict", "learning_curve",
    "validation_curve", "permutation_test_score",
}
REDUCTIONS = {"mean", "std", "var", "min", "max", "median", "quantile", "sem", "ptp",
              "nanmean", "nanstd", "nanvar", "nanmin", "nanmax", "nanmedian", "amin", "amax",
              "percentile", "nanpercentile", "nanquantile", "mad"}
NUMPY_REDUCTIONS = REDUCTIONS - {"sem", "mad"}
GROUP_METHODS = {"groupby", "rolling", "expanding", "resample", "ewm"}
TARGET_ENC_AGGS = {"mean", "median", "sum", "transform", "agg", "aggregate", "apply", "std",
                   "var", "max", "min"}
CORR_METHODS = {"corr", "corrwith"}
CORR_FUNCS = {"corrcoef", "pearsonr", "spearmanr", "kendalltau", "pointbiserialr"}
UNIVARIATE_SCORES = {"f_classif", "f_regression", "chi2", "mutual_info_classif",
                     "mutual_info_regression", "r_regression", "f_oneway"}
TEST_SCREENS = {"ttest_ind", "mannwhitneyu", "ranksums", "ks_2samp", "brunnermunzel",
                "kruskal", "chi2_contingency", "fisher_exact", "ttest_ind_from_stats",
                "median_test", "anderson_ksamp", "cramervonmises_2samp", "epps_singleton_2samp"}
SM_FORMULAS = {"ols", "logit", "probit", "glm", "wls", "poisson", "negativebinomial",
               "quantreg", "rlm"}
SM_MODELS = {"OLS", "Logit", "Probit", "GLM", "WLS", "Poisson", "NegativeBinomial",
             "QuantReg", "RLM"}
APPLY_METHODS = {"apply", "transform", "agg", "aggregate", "pipe", "applymap", "map"}
MUTATORS = {"append", "extend", "insert", "update", "add", "setdefault", "appendleft",
            "__setitem__", "put", "fill"}
PREDICT_METHODS = {"predict", "predict_proba", "predict_log_proba", "decision_function",
                   "score_samples"}
METRIC_EXACT = {
    "accuracy_score", "balanced_accuracy_score", "f1_score", "fbeta_score", "precision_score",
    "recall_score", "roc_auc_score", "average_precision_score", "r2_score", "log_loss",
    "matthews_corrcoef", "cohen_kappa_score", "jaccard_score", "brier_score_loss",
    "hamming_loss", "hinge_loss", "zero_one_loss", "explained_variance_score", "max_error",
    "mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
    "mean_squared_log_error", "median_absolute_error", "mean_absolute_percentage_error",
    "mean_pinball_loss", "d2_absolute_error_score", "top_k_accuracy_score", "ndcg_score",
    "mean_poisson_deviance", "mean_gamma_deviance", "mean_tweedie_deviance", "auc",
    "rmse", "mae", "mse", "mape", "precision_recall_fscore_support",
}
METRIC_CURVES = {"precision_recall_curve", "roc_curve", "det_curve"}
_HAND_METRIC_REDUCERS = {"mean", "nanmean", "average", "median", "sum"}
SELECT_FUNCS = {"max", "min", "sorted", "argmax", "argmin", "nanargmax", "nanargmin",
                "argsort", "amax", "amin", "nanmax", "nanmin"}
SELECT_METHODS = {"idxmax", "idxmin", "argmax", "argmin", "nlargest", "nsmallest",
                  "sort_values", "sort", "max", "min", "argsort"}
_EXTREMES = {"max", "min", "amax", "amin", "nanmax", "nanmin"}
_PICKS = _EXTREMES | {"argmax", "argmin", "nanargmax", "nanargmin", "idxmax", "idxmin"}
OPTIMIZERS = {"optimize", "fmin", "gp_minimize", "forest_minimize", "gbrt_minimize",
              "minimize", "maximize", "minimize_scalar", "BayesianOptimization"}
NON_COLUMN_ATTRS = {
    "values", "index", "columns", "T", "shape", "iloc", "loc", "at", "iat", "dtypes", "dtype",
    "str", "dt", "cat", "plot", "size", "ndim", "array", "empty", "name", "sparse", "flat",
    "real", "imag", "attrs",
}
_EVAL_NAME = re.compile(r"^(?:eval|evaluate|evaluation|test|test_model|score|validate|"
                        r"compute_(?:acc|accuracy|metric|metrics|score|auc|f1)|accuracy|get_score|"
                        r"get_accuracy|run_eval|eval_model|evaluate_model|score_model)$")
_CENTERING = {"mean", "median", "nanmean", "nanmedian"}
_IMPUTERS = {"fillna", "clip", "where", "mask", "replace", "apply", "transform", "map",
             "interpolate"}
_TIER_RANK = {"stateless": 0, "unknown": 1, "encoder": 2, "unsup": 3, "stats": 4,
              "resample": 5, "model": 6, "corr": 6, "supervised": 7, "target": 8}

# -- names -------------------------------------------------------------------------------------

_TRAIN_TOKENS = {"train", "tr", "trn", "training", "learn"}
_TEST_TOKENS = {"test", "te", "tst", "holdout", "hold", "heldout", "unseen", "testing", "future",
                "oos"}
_VAL_TOKENS = {"val", "valid", "validation", "dev"}
_DATA_TOKENS = {"x", "y", "df", "data", "set", "dataset", "features", "feats", "labels",
                "target", "loader", "ds", "frame", "idx", "index", "indices", "ix", "inds",
                "rows", "mask", "pool", "dmatrix", "matrix", "arr", "samples", "part",
                "split", "fold", "scaled", "sel"}
_COMPACT = re.compile(r"^(?:x|y|df)(tr|trn|train|te|tst|test|val|valid|dev)(?:\d*)$")
_INDEX_TOKENS = {"idx", "index", "indices", "ix", "inds", "ind", "rows"}
_Y_TOKENS = {"y", "target", "targets", "label", "labels", "outcome", "response", "class",
             "classes", "ytrue", "ypred"}
_Y_RE = re.compile(r"^y(?:$|_|\d|tr|te|val|train|test|true|pred|hat|s$)", re.I)


@lru_cache(maxsize=4096)
def _tokens(name: str) -> tuple[str, ...]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return tuple(t for t in spaced.lower().split("_") if t)


@lru_cache(maxsize=4096)
def role_of_name(name: str) -> str | None:
    """"train", "test", "val" or None, from a variable's name alone."""
    toks = _tokens(name)
    if not toks:
        return None
    low = name.lower()
    m = _COMPACT.match(low)
    if m:
        key = m.group(1)
        return "train" if key.startswith("tr") else "test" if key.startswith("te") or \
            key == "tst" else "val"
    if any(t in _TEST_TOKENS for t in toks):
        return "test"
    if any(t in _TRAIN_TOKENS for t in toks):
        return "train"
    if any(t in _VAL_TOKENS for t in toks) and (
            (len(toks) == 1 and toks[0] in {"valid", "validation"})
            or any(t in _DATA_TOKENS for t in toks)):
        return "val"
    return None


@lru_cache(maxsize=4096)
def is_y_like(name: str | None) -> bool:
    if not name:
        return False
    if _Y_RE.match(name):
        return True
    return any(t in _Y_TOKENS for t in _tokens(name))


def _last(dotted: str | None) -> str:
    return dotted.rsplit(".", 1)[-1] if dotted else ""


def tier_of_class(cls: str | None) -> str | None:
    last = _last(cls)
    if not last:
        return None
    if last in SUPERVISED_SELECTORS:
        return "supervised"
    if last in TARGET_ENCODERS:
        return "target"
    if last in STATS_TRANSFORMERS:
        return "stats"
    if last in UNSUPERVISED_EMBEDDINGS:
        return "unsup"
    if last in ENCODERS:
        return "encoder"
    if last in STATELESS:
        return "stateless"
    if last in OVERSAMPLERS:
        return "resample"
    return None


def _const_strs(node: ast.AST | None) -> list[str] | None:
    """['a', 'b'] for 'a', ['a', 'b'], ('a', 'b'); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _kw(node: ast.Call, name: str) -> ast.expr | None:
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def _literal(node: ast.AST | None, default: object = None) -> object:
    if node is None:
        return default
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return default


def _is_random_call(node: ast.AST) -> bool:
    """`rng.normal(...)`, `np.random.rand(...)`, `random.random()`: a data-generating draw."""
    for n in _walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            chain = []
            while isinstance(f, ast.Attribute):
                chain.append(f.attr)
                f = f.value
            if isinstance(f, ast.Name):
                chain.append(f.id)
            low = [c.lower() for c in chain]
            if any(c in {"random", "rng", "default_rng", "randomstate", "gen", "generator"}
                   or c.startswith("rng") for c in low):
                return True
            if low and low[0] in {"normal", "uniform", "binomial", "poisson", "choice",
                                  "integers", "randint", "randn", "rand", "gamma",
                                  "exponential", "lognormal", "beta", "multivariate_normal",
                                  "standard_normal", "rvs", "permutation", "shuffle"}:
                return True
    return False


# -- events --------------------------------------------------------------------------------------


@dataclass
class FitEvent:
    id: int
    tier: str
    cls: str  # what was fitted: "StandardScaler", "`.mean()`/`.std()` of the data", …
    line: int
    in_cell: bool
    data_labels: frozenset
    data_src: str
    var: str | None = None  # the fitted object's variable, for kernel facts
    supervised: bool = True  # correlation events: whether the target took part
    via: str | None = None  # the helper function the fit happened in
    inner_line: int | None = None
    weak: bool = False  # a bare statistic (offset by min/max) not seen scaling/imputing yet


@dataclass
class SplitEvent:
    id: int
    kind: str  # "holdout" | "cv"
    line: int
    in_cell: bool
    call: str
    input_labels: frozenset
    input_src: str
    outputs: list[tuple[str, str]] = field(default_factory=list)  # (name, train|test)


@dataclass
class Leak:
    fit: FitEvent
    split: SplitEvent | None
    line: int
    in_cell: bool
    how: str  # "split_input" | "cv_input" | "applied"
    inner: bool  # the fit was on a training part; the split is a CV/validation split inside it
    by_name: bool  # the split is known only from variable names


@dataclass
class ScoreEvent:
    id: int
    line: int
    in_cell: bool
    call: str
    on: str  # "test" | "val"
    multi: bool  # produces many scores at once (curves, per-epoch histories)
    src: str = ""


@dataclass
class Selection:
    line: int
    in_cell: bool
    op: str
    on: str  # "test" | "val"
    scores: list[ScoreEvent]
    src: str = ""
    # for a bare extreme (`max(scores)`, `aucs.min()`): the collection whose largest/smallest
    # value is taken, and the call. A range or quantile summary of the same collection
    # describes the candidates' spread rather than choosing one of them.
    value_of: str | None = None
    node: ast.AST | None = None
    loops: tuple[int, ...] = ()  # the loops (see Flow.loop_nodes) the compared scores vary in


@dataclass
class LoopInfo:
    """A for loop or a comprehension's generator: what it binds, iterates and runs."""

    target: ast.expr
    iter: ast.expr
    body: list[ast.AST]


@dataclass
class SearchOnTest:
    line: int
    in_cell: bool
    call: str
    data_src: str


@dataclass
class EarlyStopOnTest:
    line: int
    in_cell: bool
    call: str
    kw: str
    signal: str
    data_src: str


@dataclass
class TestRowsFit:
    model: str
    fit_line: int
    fit_in_cell: bool
    fit_src: str
    line: int
    in_cell: bool
    call: str
    split: SplitEvent
    how: str  # "contains_test" | "full_data"


@dataclass
class FuncSummary:
    name: str
    params: list[str]
    returns: frozenset = EMPTY
    sinks: list[tuple[SplitEvent, int]] = field(default_factory=list)
    residual: bool = False  # returns a difference (y - pred, |y - p|): an error helper
    metric_params: frozenset = EMPTY  # parameters it computes a metric / error of


@dataclass
class _Stmt:
    node: ast.stmt
    in_cell: bool


# -- the flow --------------------------------------------------------------------------------


class Flow:
    """One ordered pass over the prior cells (slice relevant to this cell) and this cell."""

    def __init__(self, ev: Evidence):
        self.ev = ev
        self.m: CodeModel = ev.model
        self.env: dict[str, frozenset] = {}
        self.fits: list[FitEvent] = []
        self.splits: list[SplitEvent] = []
        self.leaks: list[Leak] = []
        self.scores: list[ScoreEvent] = []
        self.selections: list[Selection] = []
        self.searches_on_test: list[SearchOnTest] = []
        self.early_stops: list[EarlyStopOnTest] = []
        self.test_rows: list[TestRowsFit] = []
        self.funcs: dict[str, FuncSummary] = {}
        self.loop_nodes: dict[int, LoopInfo] = {}
        self.model_fits: dict[str, tuple[frozenset, int, bool, str]] = {}
        self.str_lists: dict[str, list[str]] = {}
        self.str_vars: dict[str, str] = {}
        self.reported: set = set()
        self.target_cols: set[str] = set()
        self.target_vars: set[str] = set()  # variables passed as y to a fit / split / CV
        self.response_cols: set[str] = set()  # plain responses of model formulas ("y ~ x")
        self._residual_names: set[str] = set()  # names holding a difference (y - pred)
        self._windows: set[str] = set()  # names bound to x.rolling(...) / .expanding()
        self.in_cell = False
        self._keys: dict[tuple, object] = {}
        self._ctx: list[frozenset] = []
        self._func: list[dict] = []
        self._loop_n = 0
        self._src_n = 0
        self._manual: dict[str, SplitEvent] = {}
        self._time_roles: dict[str, str] = {}  # role-less names of a split at a point in time
        self._leak_keys: set = set()
        self._sel_keys: set = set()
        self._last_split: dict[int, SplitEvent] = {}
        self._ctor: dict[str, ast.Call] = {}
        self._defs: set[str] = set()
        self._call_strs: dict[str, list[ast.Call]] = {}  # user-function calls, by name
        self._imported = self.m._imported_names
        self._cur_stmt: ast.stmt | None = None
        self._cur_target: str | None = None
        # hand-rolled cross-validation loops being walked: (split, loop variable, mask roles)
        self._mcv: list[tuple[SplitEvent, str, dict[str, str]]] = []
        self._mcv_checked: set[tuple[int, str]] = set()
        self._cell_lines = [ln.encode() for ln in ev.code.split("\n")]
        self._prior_lines: list[bytes] | None = None
        self._prior_text = ""
        self._run()

    def heldout_parts(self) -> list[str]:
        """Role-less names read as the held-out part of a hand-made split (a cut at a point in
        time, the complement of a random draw)."""
        return [n for n, r in self._time_roles.items() if r == "test"]

    # ---- driver --------------------------------------------------------------------------

    def _run(self) -> None:
        prior, prior_text = prior_statements(self.ev)
        self._prior_text = prior_text
        cell = self.m.tree.body
        prior = _slice_prior(prior, cell, self.ev.prior_code)
        stmts = [_Stmt(s, False) for s in prior] + [_Stmt(s, True) for s in cell]
        self._prepass(prior)
        last = cell[-1] if cell and isinstance(cell[-1], ast.Expr) else None
        for st in stmts:
            self.in_cell = st.in_cell
            if st.node is last:
                self.reported |= self.expr(last.value)  # type: ignore[union-attr]
            else:
                self.stmt(st.node)

    def _prepass(self, prior: list[ast.stmt]) -> None:
        """Target columns, string constants and constructor calls, before the ordered pass.
        The cell's nodes come from the shared CodeModel; earlier cells' from a walk of the
        (sliced) statements."""
        cell_nodes: list[ast.AST] = [a.stmt for a in self.m.assignments
                                     if isinstance(a.stmt, ast.Assign)]
        cell_nodes += [c.node for c in self.m.calls]
        cell_nodes += [n for n in self.m.tree.body
                       if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)]
        prior_nodes = [n for top in prior for n in _walk(top)]
        self._time_roles = _time_split_roles([*prior_nodes, *cell_nodes])
        self._pos_cuts: set[tuple[str, str]] = set()
        if ":]" in self.ev.code or "[:" in self.ev.code:
            self._pos_cuts = _positional_cuts([*prior_nodes, *_walk(self.m.tree)])
        for node in [*prior_nodes, *cell_nodes]:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self._defs.add(node.name)
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                t = node.targets[0]
                if isinstance(t, ast.Name):
                    v = node.value
                    if isinstance(v, ast.Constant) and isinstance(v.value, str):
                        self.str_vars[t.id] = v.value
                        if is_y_like(t.id):
                            self.target_cols.add(v.value)
                    strs = _const_strs(v) if isinstance(v, ast.List | ast.Tuple) else None
                    if strs is not None:
                        self.str_lists[t.id] = strs
                    if isinstance(v, ast.Call):
                        self._ctor[t.id] = v
                    if is_y_like(t.id):
                        self.target_cols |= self._cols_named(v)
                elif isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) and \
                        len(t.elts) == len(node.value.elts):  # X, y = df[cols], df["y"]
                    for te, ve in zip(t.elts, node.value.elts, strict=True):
                        if isinstance(te, ast.Name) and is_y_like(te.id):
                            self.target_cols |= self._cols_named(ve)
            if isinstance(node, ast.Call):
                if isinstance(node.func, ast.Name):
                    self._call_strs.setdefault(node.func.id, []).append(node)
                resp = _formula_response(node)
                if resp is not None:
                    self.response_cols.add(resp)
                y = _y_arg(node)
                if y is not None:
                    self.target_cols |= self._cols_named(y)
                    var = _plain_var(y)
                    if var is not None:
                        self.target_vars.add(var)

    def _cols_named(self, node: ast.AST) -> set[str]:
        """Column names a target expression reads: df['price'], df.price, df.pop('price')."""
        out: set[str] = set()
        for n in _walk(node):
            if isinstance(n, ast.Subscript):
                strs = _const_strs(n.slice)
                if strs is None and isinstance(n.slice, ast.Name):
                    s = self.str_vars.get(n.slice.id)
                    strs = [s] if s else None
                if strs and len(strs) == 1:
                    out.add(strs[0])
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                    n.attr not in NON_COLUMN_ATTRS and not n.attr.startswith("_") and \
                    n.value.id not in self._imported:
                out.add(n.attr)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                    n.func.attr == "pop" and n.args:
                strs = _const_strs(n.args[0])
                if strs:
                    out |= set(strs)
        return {c for c in out if c not in {"values", "ravel", "to_numpy", "astype"}}

    def src(self, node: ast.AST | None) -> str:
        """Source text of a node of this cell or of an earlier cell (cheap: no re-split)."""
        if node is None:
            return ""
        if self.in_cell:
            lines = self._cell_lines
        else:
            if self._prior_lines is None:
                self._prior_lines = [ln.encode() for ln in self._prior_text.split("\n")]
            lines = self._prior_lines
        try:
            l0, l1 = node.lineno - 1, node.end_lineno - 1  # type: ignore[attr-defined]
            c0, c1 = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
            if l0 == l1:
                return lines[l0][c0:c1].decode("utf-8", "replace")
            parts = [lines[l0][c0:], *lines[l0 + 1:l1], lines[l1][:c1]]
            return b"\n".join(parts).decode("utf-8", "replace")
        except (AttributeError, IndexError, TypeError):
            try:
                return ast.unparse(node)
            except Exception:
                return ""

    def key(self, *parts: object) -> tuple:
        return (self.in_cell, *parts)

    # ---- statements ------------------------------------------------------------------------

    def body(self, stmts: Iterable[ast.stmt]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        self._cur_stmt = s
        self._cur_target = None
        if isinstance(s, ast.Assign):
            self.assign(s.targets, s.value, s)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign([s.target], s.value, s)
        elif isinstance(s, ast.AugAssign):
            lab = self.expr(s.value)
            if isinstance(s.op, ast.Div | ast.Mult | ast.FloorDiv | ast.Pow | ast.Mod):
                self._strengthen(lab, None)
            elif isinstance(s.op, ast.Sub):
                self._strengthen(lab, _CENTERING)
            r = root_name(s.target)
            if r:
                self.env[r] = self.env.get(r, EMPTY) | lab | self._ctx_labels()
        elif isinstance(s, ast.Expr):
            self.expr(s.value)
        elif isinstance(s, ast.For | ast.AsyncFor):
            self.for_loop(s)
        elif isinstance(s, ast.While):
            self._with_ctx(self.expr(s.test), lambda: self.body(s.body))
            self.body(s.orelse)
        elif isinstance(s, ast.If):
            test = self.expr(s.test)
            self._selection_compare(s.test, test)
            self._with_ctx(test, lambda: (self.body(s.body), self.body(s.orelse)))
        elif isinstance(s, ast.With | ast.AsyncWith):
            for item in s.items:
                lab = self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, lab)
            self.body(s.body)
        elif isinstance(s, ast.Try):
            self.body(s.body)
            for h in s.handlers:
                self.body(h.body)
            self.body(s.orelse)
            self.body(s.finalbody)
        elif isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            self.define(s)
        elif isinstance(s, ast.Return):
            lab = self.expr(s.value) if s.value is not None else EMPTY
            if self._func:
                self._func[-1]["returns"] |= lab
                if s.value is not None and self._residual(s.value):
                    self._func[-1]["residual"] = True
        elif isinstance(s, ast.Delete | ast.Import | ast.ImportFrom | ast.ClassDef | ast.Pass
                        | ast.Global | ast.Nonlocal | ast.Break | ast.Continue):
            return
        else:
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def _ctx_labels(self) -> frozenset:
        out: set = set()
        for c in self._ctx:
            out |= c
        return frozenset(out)

    def _with_ctx(self, test: frozenset, fn) -> None:  # type: ignore[no-untyped-def]
        # control dependence: only selection-bearing tags (supervised fits, loops, scores)
        keep = frozenset(t for t in test if t[0] in ("loop", "score") or (
            t[0] == "fit" and self.fit(t).tier in ("supervised", "corr", "target", "model")))
        self._ctx.append(keep)
        try:
            fn()
        finally:
            self._ctx.pop()

    def _strengthen(self, lab: frozenset, only: set[str] | None) -> None:
        """A statistic of the data used to scale, center, impute or threshold it."""
        for t in lab:
            if t[0] == "fit":
                ev = self.fits[t[1]]
                if ev.weak and (only is None or ev.cls.split("(")[0].strip("`.") in only):
                    ev.weak = False

    def fit(self, tag: Tag) -> FitEvent:
        return self.fits[tag[1]]

    def new_src(self) -> Tag:
        self._src_n += 1
        return ("src", self._src_n)

    def assign(self, targets: list[ast.expr], value: ast.expr, stmt: ast.stmt) -> None:
        self._cur_target = targets[0].id if len(targets) == 1 and \
            isinstance(targets[0], ast.Name) else None
        # train_test_split into a tuple of names
        if isinstance(value, ast.Call) and self._is_tts(value) and len(targets) == 1 and \
                isinstance(targets[0], ast.Tuple | ast.List):
            lab = self.expr(value)
            split = self._last_split.get(id(value))
            names = [e for e in targets[0].elts]
            arrays = [a for a in value.args if not isinstance(a, ast.Starred)]
            for i, t in enumerate(names):
                if split is None or not arrays:
                    self.bind(t, lab)
                    continue
                arr = arrays[min(i // 2, len(arrays) - 1)]
                role = "train" if i % 2 == 0 else "test"
                arr_lab = self._arr_labels.get(id(arr), lab)
                out = _strip(arr_lab, ("split_tmp",)) | {("split", split.id, role)}
                if isinstance(t, ast.Name):
                    split.outputs.append((t.id, role))
                self.bind(t, frozenset(out))
            return
        # manual split: train, test = df[:n], df[n:] / train = df.sample(frac=.8)
        if self._manual_split(targets, value):
            return
        lab = self.expr(value)
        if self._cur_target:  # `base = s.shift(1).rolling("1D")`: a window object
            if _window_of(value):
                self._windows.add(self._cur_target)
            else:
                self._windows.discard(self._cur_target)
        residual = None
        for t in targets:
            self.bind(t, lab, value)
            if isinstance(t, ast.Name):
                residual = self._residual(value) if residual is None else residual
                if residual:
                    self._residual_names.add(t.id)
                else:
                    self._residual_names.discard(t.id)

    def bind(self, target: ast.expr, lab: frozenset, value: ast.expr | None = None) -> None:
        lab = lab | self._ctx_labels()
        if isinstance(target, ast.Name):
            self.env[target.id] = lab | {self.new_src()}
        elif isinstance(target, ast.Tuple | ast.List):
            if value is not None and isinstance(value, ast.Tuple | ast.List) and \
                    len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts, strict=True):
                    self.bind(t, self._elt_labels.get(id(v), lab))
                return
            for t in target.elts:
                self.bind(t.value if isinstance(t, ast.Starred) else t, lab)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, lab)
        elif isinstance(target, ast.Subscript | ast.Attribute):
            r = root_name(target)
            if not r:
                return
            cols = None
            if isinstance(target, ast.Subscript):
                sl = target.slice
                if isinstance(sl, ast.Tuple) and len(sl.elts) == 2:  # df.loc[:, "c"]
                    sl = sl.elts[1]
                cols = self._cols_of_slice(sl)
            scoped = set()
            for t in lab:
                if t[0] == "fit" and t[2] is None and cols:
                    scoped |= {("fit", t[1], c) for c in cols}
                elif t[0] in ("split", "src"):
                    continue  # writing a column keeps the frame's rows
                else:
                    scoped.add(t)
            self.env[r] = self.env.get(r, EMPTY) | frozenset(scoped)

    def _cols_of_slice(self, sl: ast.AST) -> list[str] | None:
        strs = _const_strs(sl)
        if strs is not None:
            return strs
        if isinstance(sl, ast.Name):
            if sl.id in self.str_lists:
                return self.str_lists[sl.id]
            if sl.id in self.str_vars:
                return [self.str_vars[sl.id]]
        return None

    def for_loop(self, s: ast.For | ast.AsyncFor) -> None:
        self._loop_n += 1
        loop = ("loop", self._loop_n)
        self.loop_nodes[self._loop_n] = LoopInfo(s.target, s.iter, list(s.body))
        it = self.expr(s.iter)
        self._bind_loop_target(s.target, it | {loop}, s.iter)
        manual = _manual_cv_loop(s)
        if manual is not None:
            var, masks, kind = manual
            key = self.key("mcv", s.lineno, s.col_offset)
            split = self._keys.get(key)
            if split is None:
                split = SplitEvent(len(self.splits), "cv", s.lineno, self.in_cell, kind, EMPTY,
                                   "")
                self.splits.append(split)
                self._keys[key] = split
            self._mcv.append((split, var, masks))  # type: ignore[arg-type]
        self._ctx.append(frozenset({loop}))
        try:
            self.body(s.body)
        finally:
            self._ctx.pop()
            if manual is not None:
                self._mcv.pop()
        self.body(s.orelse)

    def _bind_loop_target(self, target: ast.expr, lab: frozenset, it: ast.expr) -> None:
        """`for tr, te in kf.split(X)` and `for i, (tr, te) in enumerate(splits)`: the pair
        gets the train and the test role of the split it iterates."""
        split_ids = {t[1] for t in lab if t[0] == "pairs"}
        pair = target
        outer: list[ast.expr] = []
        if isinstance(target, ast.Tuple) and len(target.elts) == 2 and \
                isinstance(target.elts[1], ast.Tuple) and len(target.elts[1].elts) == 2:
            outer, pair = [target.elts[0]], target.elts[1]
        if split_ids and isinstance(pair, ast.Tuple) and len(pair.elts) == 2:
            base = frozenset(t for t in lab if t[0] not in ("split", "pairs"))
            for o in outer:
                self.bind(o, frozenset(t for t in base if t[0] == "loop"))
            for elt, role in zip(pair.elts, ("train", "test"), strict=True):
                self.bind(elt, base | {("split", s, role) for s in split_ids})
            return
        self.bind(target, lab)

    def define(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
        saved = self.env
        self.env = dict(saved)
        for i, p in enumerate(params):
            self.env[p] = frozenset({("param", i)})
        frame = {"returns": EMPTY, "sinks": [], "residual": False, "metric": set(),
                 "name": fn.name, "params": params}
        self._func.append(frame)
        saved_res = self._residual_names
        self._residual_names = set(saved_res) - set(params)
        try:
            self.body(fn.body)
        finally:
            self._func.pop()
            self.env = saved
            self._residual_names = saved_res
        self.funcs[fn.name] = FuncSummary(fn.name, params, frame["returns"], frame["sinks"],
                                          bool(frame["residual"]), frozenset(frame["metric"]))
        self.env[fn.name] = EMPTY

    def _manual_split(self, targets: list[ast.expr], value: ast.expr) -> bool:
        pairs: list[tuple[ast.expr, ast.expr]] = []
        if len(targets) == 1 and isinstance(targets[0], ast.Tuple | ast.List) and \
                isinstance(value, ast.Tuple | ast.List) and \
                len(targets[0].elts) == len(value.elts):
            pairs = list(zip(targets[0].elts, value.elts, strict=True))
        elif len(targets) == 1:
            pairs = [(targets[0], value)]
        if not pairs or not all(isinstance(t, ast.Name) for t, _ in pairs):
            return False
        roles = [role_of_name(t.id) or self._time_roles.get(t.id)  # type: ignore[attr-defined]
                 for t, _ in pairs]
        if not all(roles):
            return False
        srcs = [_row_source(v, self.str_lists, self.str_vars) for _, v in pairs]
        if not all(srcs) or any(role_of_name(s) for s in srcs if s):  # type: ignore[arg-type]
            return False
        for (t, v), role, src in zip(pairs, roles, srcs, strict=True):
            assert src is not None
            split = self._manual.get(src)
            lab = self.expr(v)
            if split is None:
                split = SplitEvent(len(self.splits), "holdout", v.lineno, self.in_cell,
                                   "manual split", self.env.get(src, EMPTY), src)
                self.splits.append(split)
                self._manual[src] = split
                self._check_split_input(split, self.env.get(src, EMPTY), v.lineno)
            r = "train" if role == "train" else "test"
            split.outputs.append((t.id, r))  # type: ignore[attr-defined]
            self.bind(t, frozenset(x for x in lab if x[0] != "split") | {("split", split.id, r)})
        return True

    # ---- expressions ------------------------------------------------------------------------

    @property
    def _arr_labels(self) -> dict[int, frozenset]:
        return self.__dict__.setdefault("_arr_lab", {})

    @property
    def _elt_labels(self) -> dict[int, frozenset]:
        return self.__dict__.setdefault("_elt_lab", {})

    def name_labels(self, name: str) -> frozenset:
        lab = self.env.get(name, EMPTY)
        if name in self._imported or name in self._defs:
            return lab
        role = role_of_name(name) or self._time_roles.get(name)
        if role == "val" or (role and not any(t[0] == "split" for t in lab)):
            lab = lab | {("name", role)}
        return lab

    def expr(self, node: ast.AST | None) -> frozenset:
        if node is None:
            return EMPTY
        if isinstance(node, ast.Name):
            return self.name_labels(node.id)
        if isinstance(node, ast.Constant):
            return EMPTY
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            lab = self.expr(node.value)
            if node.attr not in NON_COLUMN_ATTRS and any(t[0] == "fit" and t[2] for t in lab):
                lab = _keep_cols(lab, [node.attr])
            if node.attr not in NON_COLUMN_ATTRS and _not_test_column(node.attr):
                lab = frozenset(t for t in lab if t[0] != "score")
            return lab
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.BinOp):
            lab = self.expr(node.left) | self.expr(node.right)
            if isinstance(node.op, ast.Div | ast.Mult | ast.FloorDiv | ast.Pow | ast.Mod):
                self._strengthen(lab, None)
            elif isinstance(node.op, ast.Sub):
                self._strengthen(lab, _CENTERING)
                contrast = _class_contrast(node)
                if contrast is not None:
                    lab = self._contrast_fit(node, contrast, lab)
            return lab
        if isinstance(node, ast.Compare):
            lab = self.expr(node.left)
            for c in node.comparators:
                lab |= self.expr(c)
            self._strengthen(lab, None)
            return lab
        if isinstance(node, ast.BoolOp):
            return _union(self.expr(v) for v in node.values)
        if isinstance(node, ast.UnaryOp):
            lab = self.expr(node.operand)
            # ~is_test, ~df.index.isin(train.index): the other rows; but ~y_train or
            # ~train["flag"] negates the values of one side's rows, still that side
            if isinstance(node.op, ast.Invert | ast.Not) and not self._split_values(
                    node.operand):
                lab = frozenset(_flip_role(t) for t in lab)
            return lab
        if isinstance(node, ast.IfExp):
            test = self.expr(node.test)
            self._selection_compare(node.test, test)
            return test | self.expr(node.body) | self.expr(node.orelse)
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            out = EMPTY
            for e in node.elts:
                lab = self.expr(e)
                self._elt_labels[id(e)] = lab
                out |= lab
            return out
        if isinstance(node, ast.Dict):
            out = _union(self.expr(k) for k in node.keys if k is not None)
            for k, v in zip(node.keys, node.values, strict=True):
                lab = self.expr(v)
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    # {"col": values}: a frame/record built from it holds the fit in that
                    # column only, as `df["col"] = values` would
                    lab = frozenset(("fit", t[1], k.value) if t[0] == "fit" and t[2] is None
                                    else t for t in lab)
                out |= lab
            return out
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            return self.comprehension(node)
        if isinstance(node, ast.JoinedStr):
            return _union(self.expr(v) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            return self.expr(node.value)
        if isinstance(node, ast.Lambda):
            return self.lambda_(node, EMPTY)
        if isinstance(node, ast.Starred):
            return self.expr(node.value)
        if isinstance(node, ast.NamedExpr):
            lab = self.expr(node.value)
            self.bind(node.target, lab)
            return lab
        if isinstance(node, ast.Slice):
            return _drop_names(self.expr(node.lower) | self.expr(node.upper)
                               | self.expr(node.step))
        if isinstance(node, ast.Await | ast.Yield | ast.YieldFrom):
            return self.expr(node.value)
        return EMPTY

    def _contrast_fit(self, node: ast.BinOp, contrast: tuple[ast.expr, str],
                      lab: frozenset) -> frozenset:
        """`X[y == 1].mean(0) - X[y == 0].mean(0)`: a per-feature statistic that compares
        the classes of a label, i.e. a supervised screen of the features (like a t-test)."""
        data_node, by = contrast
        data = frozenset(t for t in lab if t[0] not in ("fit", "score"))
        tag = self._new_fit(node, "corr", f"a difference of class means by `{by}`", data,
                            data_node, None)  # type: ignore[arg-type]
        if tag is None:
            return lab
        self.fit(tag).supervised = True
        return lab | {tag}

    def lambda_(self, node: ast.Lambda, param_lab: frozenset) -> frozenset:
        saved = {}
        for a in node.args.args:
            saved[a.arg] = self.env.get(a.arg)
            self.env[a.arg] = param_lab
        try:
            return self.expr(node.body)
        finally:
            for k, v in saved.items():
                if v is None:
                    self.env.pop(k, None)
                else:
                    self.env[k] = v

    def comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp
                      | ast.DictComp) -> frozenset:
        saved: dict[str, frozenset | None] = {}
        conds = EMPTY
        body: list[ast.AST] = [node.key, node.value] if isinstance(node, ast.DictComp) else \
            [node.elt]
        for i, gen in enumerate(node.generators):
            self._loop_n += 1
            self.loop_nodes[self._loop_n] = LoopInfo(
                gen.target, gen.iter, [*body, *gen.ifs, *node.generators[i + 1:]])
            it = self.expr(gen.iter)
            for n in _walk(gen.target):
                if isinstance(n, ast.Name):
                    saved.setdefault(n.id, self.env.get(n.id))
            self._bind_loop_target(gen.target, it | {("loop", self._loop_n)}, gen.iter)
            for cond in gen.ifs:
                c = self.expr(cond)
                conds |= frozenset(t for t in c if t[0] in ("loop", "score") or (
                    t[0] == "fit" and self.fit(t).tier in ("supervised", "corr", "target",
                                                            "model")))
        if isinstance(node, ast.DictComp):
            out = self.expr(node.key) | self.expr(node.value)
        else:
            out = self.expr(node.elt)
        for k, v in saved.items():
            if v is None:
                self.env.pop(k, None)
            else:
                self.env[k] = v
        return out | conds

    def _split_values(self, node: ast.AST) -> bool:
        """`node` reads the values of a split's output (`y_tr`, `tr["failed"]`, `tr.flag`),
        not a membership mask built from it (`df.index.isin(tr.index)`)."""
        while isinstance(node, ast.Subscript | ast.Attribute):
            node = node.value
        if not isinstance(node, ast.Name):
            return False
        return any(node.id == name for sp in self.splits for name, _ in sp.outputs)

    def subscript(self, node: ast.Subscript) -> frozenset:
        lab = self.expr(node.value)
        sl = node.slice
        col_sl = sl.elts[1] if isinstance(sl, ast.Tuple) and len(sl.elts) == 2 else sl
        cols = self._cols_of_slice(col_sl)
        if cols is not None and any(t[0] == "fit" and t[2] for t in lab):
            lab = _keep_cols(lab, cols)
        if cols and len(cols) == 1 and _not_test_column(cols[0]):
            lab = frozenset(t for t in lab if t[0] != "score")  # results["cv_score"]
        # a correlation table indexed by the target: selection by correlation with the target
        if cols and len(cols) == 1 and (cols[0] in self.target_cols or is_y_like(cols[0])):
            for t in lab:
                if t[0] == "fit" and self.fit(t).tier == "corr":
                    self.fit(t).supervised = True
        if isinstance(col_sl, ast.Name) and is_y_like(col_sl.id):
            for t in lab:
                if t[0] == "fit" and self.fit(t).tier == "corr":
                    self.fit(t).supervised = True
        idx = self.expr(sl)
        # masks and row filters built from full-data statistics are not the flaw we look
        # for; column lists chosen with the target are (feature selection), and so are
        # row indices drawn with replacement (`X[resample(idx, replace=True)]`: oversampling).
        idx = frozenset(t for t in idx if t[0] != "fit" or self.fit(t).tier in (
            "supervised", "corr", "target", "model", "resample"))
        idx = _within_side(lab, idx)
        if self._mcv:
            lab = self._manual_fold(node, lab)
        if isinstance(sl, ast.Slice) and not any(t[0] == "split" for t in lab):
            lab = self._positional_part(node, sl, lab)
        return lab | idx

    def _positional_part(self, node: ast.Subscript, sl: ast.Slice, lab: frozenset
                         ) -> frozenset:
        """`d.iloc[:104]` and `d.iloc[104:]` (`y[:n_train]` / `y[n_train:]`, `df.iloc[-26:]`)
        written inline, with no named parts: a head and a tail of one frame cut at one fixed
        position are a positional hold-out once both are seen; the tail is the held-out part.
        A bound that a loop or the enclosing function varies (walk-forward windows) is not a
        fixed hold-out."""
        part = _head_or_tail(node)
        if part is None or part[:2] not in self._pos_cuts:
            return lab
        root, bound, side = part
        b = sl.upper if sl.lower is None else sl.lower
        if isinstance(b, ast.Name) and (
                b.id in {p for f in self._func for p in f["params"]} or b.id in {
                    n for t in self._ctx_labels() if t[0] == "loop"
                    for n in names_in(self.loop_nodes[t[1]].target)}):
            return lab
        if role_of_name(root) or root in self._imported:
            return lab
        key = (root, bound)
        split = self._keys.get(("pos", key))
        if split is None:
            split = SplitEvent(len(self.splits), "holdout", node.lineno, self.in_cell,
                               "positional hold-out", self.env.get(root, EMPTY), root)
            self.splits.append(split)
            self._keys[("pos", key)] = split  # type: ignore[assignment]
        role = "train" if side == "head" else "test"
        return lab | {("split", split.id, role)}

    def _manual_fold(self, node: ast.Subscript, lab: frozenset) -> frozenset:
        """Inside a hand-rolled cross-validation loop, rows picked with the fold's mask are
        that fold's training or held-out rows; the data they come from is cross-validated."""
        split, var, masks = self._mcv[-1]
        sl = node.slice
        rows = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
        role = _fold_role(rows, var, masks)
        if role is None:
            return lab
        base = root_name(node.value)
        data = frozenset(t for t in lab if t[0] != "split" or t[1] != split.id)
        if base and (split.id, base) not in self._mcv_checked:
            self._mcv_checked.add((split.id, base))
            split.input_labels = split.input_labels | data
            split.input_src = split.input_src or base
            self._check_split_input(split, data, node.lineno, how="cv_input")
        return data | {("split", split.id, role)}

    # ---- calls -------------------------------------------------------------------------------

    def resolve(self, func: ast.expr) -> tuple[str | None, str | None, ast.expr | None]:
        """(dotted name or None, method, receiver)."""
        if isinstance(func, ast.Attribute):
            name = self.m.dotted(func)
            if name is None:
                rtype = self.recv_class(func.value)
                if rtype:
                    name = f"{rtype}.{func.attr}"
            return name, func.attr, func.value
        if isinstance(func, ast.Name):
            return self.m.dotted(func) or func.id, None, None
        return None, None, None

    def recv_class(self, recv: ast.expr | None) -> str | None:
        if isinstance(recv, ast.Name):
            return self.m.type_of(recv.id)
        if isinstance(recv, ast.Call):
            inner = self.m.dotted(recv.func)
            if inner and _last(inner)[:1].isupper():
                return inner
            if isinstance(recv.func, ast.Name) and recv.func.id[:1].isupper():
                return recv.func.id
            if inner and _last(inner) in COMPOSITE_FACTORIES:
                return "sklearn.pipeline.Pipeline"
            if isinstance(recv.func, ast.Attribute) and recv.func.attr in ("fit", "set_params"):
                return self.recv_class(recv.func.value)
        return None

    def _ctor_call(self, recv: ast.expr | None) -> ast.Call | None:
        if isinstance(recv, ast.Call):
            if isinstance(recv.func, ast.Attribute) and recv.func.attr in ("fit", "set_params"):
                return self._ctor_call(recv.func.value)
            return recv
        if isinstance(recv, ast.Name):
            return self._ctor.get(recv.id)
        return None

    def composite_tier(self, recv: ast.expr | None) -> tuple[str | None, str, bool]:
        """(tier, description, ends_with_model) of a Pipeline/ColumnTransformer receiver."""
        ctor = self._ctor_call(recv)
        if ctor is None:
            return "unknown", "a pipeline", False
        best, names = None, []
        classes: list[str] = []
        for n in _walk(ctor):
            if isinstance(n, ast.Call) and n is not ctor:
                cname = self.m.dotted(n.func) or (n.func.id if isinstance(n.func, ast.Name)
                                                  else None)
                last = _last(cname)
                if last[:1].isupper():
                    classes.append(last)
        for c in classes:
            t = tier_of_class(c)
            if t and (best is None or _TIER_RANK[t] > _TIER_RANK[best]):
                best = t
            if t and t != "stateless":
                names.append(c)
        last_cls = classes[-1] if classes else ""
        ends_model = bool(last_cls) and tier_of_class(last_cls) is None and \
            last_cls not in COMPOSITES
        desc = "a pipeline of " + ", ".join(dict.fromkeys(names)) if names else "a pipeline"
        return best or "unknown", desc, ends_model

    def _is_tts(self, node: ast.Call) -> bool:
        name, method, _ = self.resolve(node.func)
        return _last(name) == "train_test_split" or method == "train_test_split"

    def call(self, node: ast.Call) -> frozenset:
        name, method, recv = self.resolve(node.func)
        last = method or _last(name)
        recv_lab = self.expr(recv) if recv is not None else EMPTY
        # arguments: lambdas given to .apply/.transform see the receiver's rows
        args: list[frozenset] = []
        for a in node.args:
            if isinstance(a, ast.Lambda) and last in APPLY_METHODS:
                lab = self.lambda_(a, recv_lab)
            else:
                lab = self.expr(a)
            self._arr_labels[id(a)] = lab
            args.append(lab)
        kws: dict[str | None, frozenset] = {}
        for k in node.keywords:
            if isinstance(k.value, ast.Lambda) and last in APPLY_METHODS:
                kws[k.arg] = self.lambda_(k.value, recv_lab)
            else:
                kws[k.arg] = self.expr(k.value)
            if method == "assign" and k.arg and recv is not None:
                # df.assign(col=values): the fit is in that column only, as df["col"] = values
                kws[k.arg] = frozenset(("fit", t[1], k.arg) if t[0] == "fit" and t[2] is None
                                       else t for t in kws[k.arg])
        everything = recv_lab | _union(args) | _union(v for k, v in kws.items()
                                                      if k != "reference")

        if name in ("print", "display") or _last(name) == "display":
            if self.in_cell:
                self.reported |= everything
            return everything

        # user functions with a summary; an `evaluate(model, test_loader)` helper is a score
        if isinstance(node.func, ast.Name):
            out = None
            if node.func.id in self.funcs:
                fn = self.funcs[node.func.id]
                args = _align_starred(node, args, len(fn.params))
                out = self.call_user(node, fn, args, kws)
                on = None
                for i in sorted(fn.metric_params):
                    lab = args[i] if i < len(args) else kws.get(
                        fn.params[i] if i < len(fn.params) else "", EMPTY)
                    on = self.heldout(lab) or on
                    if on == "test":
                        break
                if on:  # a metric helper applied to held-out data: a score
                    out = out | {self._score_event(node, f"{node.func.id}()", on)}
            if _EVAL_NAME.match(node.func.id):
                on = None
                for lab in [*args, *kws.values()]:
                    on = self.heldout(lab) or on
                    if on == "test":
                        break
                if on:
                    out = (out if out is not None else everything) | {
                        self._score_event(node, f"{node.func.id}()", on)}
            if out is not None:
                return out

        rclass = self.recv_class(recv) if recv is not None else None
        rlast = _last(rclass)

        if last == "train_test_split":
            return self.tts(node, args, kws)
        if recv is not None and method in REDUCTIONS | TARGET_ENC_AGGS and \
                "groupby" in _chain_methods(recv):
            red = self.reduction(node, name, method, recv, recv_lab, args, everything)
            return everything if red is None else red
        if last in CV_FUNCS:
            return self.cv_call(node, last, args, kws, everything)
        if method == "split" and recv is not None and self._is_splitter(recv, rlast):
            return self.kfold_split(node, recv, rlast, args, everything)
        if method in ("fit", "fit_transform", "fit_resample", "fit_sample", "partial_fit") \
                and recv is not None:
            return self.fit_call(node, method, recv, rclass, args, kws, recv_lab, everything)
        if method in ("transform", "inverse_transform") and recv is not None:
            self._check_applied(node, recv_lab | _first(args, kws, "X"), node.lineno)
            return everything
        if method in PREDICT_METHODS or method in ("score", "evaluate"):
            return self.predict_call(node, method, recv, recv_lab, args, kws, everything)
        if last in SCALE_FUNCS and (name is None or "sklearn" in name or "scipy" in name
                                    or name == last):
            return self.fit_event_result(node, "stats", f"`{last}()`", args[0] if args else
                                         EMPTY, node.args[0] if node.args else None, None,
                                         everything, fit_transform=True)
        if last == "resample" and name and ("sklearn" in name or name == "resample") and \
                _literal(_kw(node, "replace"), True) is True and recv is None:
            return self.fit_event_result(node, "resample", "`resample(replace=True)`",
                                         args[0] if args else EMPTY,
                                         node.args[0] if node.args else None, None,
                                         everything, fit_transform=True)
        if last == "choice" and _literal(_kw(node, "replace"), False) is True and (
                len(node.args) >= 2 or _kw(node, "size") is not None):
            # `rng.choice(minority_idx, size=n, replace=True)`: row indices drawn with
            # replacement (an explicit replace=True; the default draw is not read as one)
            return self.fit_event_result(node, "resample", "`choice(..., replace=True)`",
                                         args[0] if args else EMPTY,
                                         node.args[0] if node.args else None, None,
                                         everything, fit_transform=True)
        if last == "repeat" and name and name.startswith(("numpy", "np")) and \
                len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and \
                set(_tokens(node.args[0].id)) & _INDEX_TOKENS:
            # `np.repeat(minority_idx, 5)`: each row index copied
            return self.fit_event_result(node, "resample", "`np.repeat` of row indices",
                                         args[0], node.args[0], None, everything,
                                         fit_transform=True)
        if method == "sample" and _literal(_kw(node, "replace"), False) is True:
            return self.fit_event_result(node, "resample", "`.sample(replace=True)`",
                                         recv_lab, recv, None, everything, fit_transform=True)
        if last in UNIVARIATE_SCORES:
            return self.fit_event_result(node, "supervised", f"`{last}` scores",
                                         args[0] if args else EMPTY,
                                         node.args[0] if node.args else None, None, everything,
                                         fit_transform=True)
        screen = self._screen_against_target(node, name, last, args, kws, everything)
        if screen is not None:
            return screen
        if (method in CORR_METHODS and recv is not None) or last in CORR_FUNCS:
            data_node = recv if method in CORR_METHODS else (node.args[0] if node.args
                                                             else None)
            data_lab = recv_lab if method in CORR_METHODS else (args[0] if args else EMPTY)
            sup = any(self._mentions_target(a) for a in [*node.args,
                                                          *(k.value for k in node.keywords)])
            if method == "corr" and isinstance(recv, ast.Subscript | ast.Attribute) and \
                    _is_y_expr(recv, self.target_cols):
                sup = True  # df["price"].corr(df["sqft"])
            ev = self.fit_event_result(node, "corr", "correlation with the target",
                                       data_lab, data_node, None, everything,
                                       fit_transform=True)
            for t in ev:
                if t[0] == "fit" and self.fit(t).tier == "corr" and sup:
                    self.fit(t).supervised = True
            return ev
        err = self._hand_rolled_error(node, last, recv, recv_lab, args)
        if err is not None:
            everything = everything | {err}
        red = self.reduction(node, name, method, recv, recv_lab, args, everything)
        if red is not None:
            return red | ({err} if err is not None else EMPTY)
        if last in METRIC_EXACT or last in METRIC_CURVES or (
                name and "sklearn.metrics" in name and not last[:1].isupper()):
            return self.metric(node, last, args, kws, everything)
        sel = self.selection_call(node, name, method, last, recv_lab, args, kws, everything)
        if sel is not None:
            return sel
        if last in OPTIMIZERS:
            self._optimizer(node, last)
        if method in _IMPUTERS or last in ("where", "clip", "nan_to_num"):
            self._strengthen(_union(args) | _union(kws.values()), None)
        if method in MUTATORS and recv is not None:
            r = root_name(recv)
            if r:
                self.env[r] = self.env.get(r, EMPTY) | _union(args) | _union(kws.values()) \
                    | self._ctx_labels()
                if method in ("append", "extend", "insert") and any(
                        self._residual(a) for a in node.args):
                    self._residual_names.add(r)  # errs.append(y_te - pred): a list of errors
        if recv is not None and _literal(_kw(node, "inplace"), False) is True:
            r = root_name(recv)
            if r:
                self.env[r] = self.env.get(r, EMPTY) | everything
        return everything | self._early_stopping(node, method, recv, rclass, kws)

    # -- specific calls

    def _screen_against_target(self, node: ast.Call, name: str | None, last: str,
                               args: list[frozenset], kws: dict,
                               everything: frozenset) -> frozenset | None:
        """A univariate association between features and the target: a two-sample test
        between the target's classes (`ttest_ind(X[y == 1], X[y == 0])`, `mannwhitneyu`,
        `chi2_contingency(pd.crosstab(df[c], df.y))`) or, in a loop over features, a
        statsmodels regression of the target on one feature (`smf.ols(f"y ~ {c}", df)`,
        `sm.Logit(y, X[[c]])`). Like a correlation screen, its result picks features."""
        data_lab: frozenset | None = None
        data_node: ast.AST | None = None
        if last in TEST_SCREENS and (name is None or name == last or "scipy" in name):
            values = [*node.args, *(k.value for k in node.keywords)]
            if not any(self._mentions_target(a) for a in values):
                return None
            data_lab, data_node = _union(args), (node.args[0] if node.args else None)
        elif name and "statsmodels" in name and (last in SM_FORMULAS or last in SM_MODELS):
            if not any(t[0] == "loop" for t in everything | self._ctx_labels()):
                return None  # one model of the target: not a screen over features
            if last in SM_FORMULAS:
                f = _kw(node, "formula") or (node.args[0] if node.args else None)
                if not self._formula_of_target(f):
                    return None
                data_node = _kw(node, "data") or (node.args[1] if len(node.args) > 1 else None)
                data_lab = kws.get("data", args[1] if len(args) > 1 else EMPTY)
            else:
                y_node = _kw(node, "endog") or (node.args[0] if node.args else None)
                if y_node is None or not (self._mentions_target(y_node) or
                                          _is_y_expr(y_node, self.target_cols)):
                    return None
                data_node = _kw(node, "exog") or (node.args[1] if len(node.args) > 1 else None)
                data_lab = kws.get("exog", args[1] if len(args) > 1 else EMPTY)
        if data_lab is None:
            return None
        out = self.fit_event_result(node, "corr", f"a univariate `{last}` against the target",
                                    data_lab, data_node, None, everything, fit_transform=True)
        for t in out:
            if t[0] == "fit" and self.fit(t).tier == "corr":
                self.fit(t).supervised = True
        return out

    def _formula_of_target(self, f: ast.AST | None) -> bool:
        """A formula (a string or an f-string) whose response is the target."""
        if isinstance(f, ast.Constant) and isinstance(f.value, str):
            text = f.value
        elif isinstance(f, ast.JoinedStr):
            text = "".join(v.value for v in f.values
                           if isinstance(v, ast.Constant) and isinstance(v.value, str))
        else:
            return False
        if "~" not in text:
            return False
        lhs = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text.split("~", 1)[0]))
        return any(v in self.target_cols or v in self.target_vars or is_y_like(v) for v in lhs)

    def _mentions_target(self, node: ast.AST) -> bool:
        for n in _walk(node):
            if isinstance(n, ast.Name) and (is_y_like(n.id) or n.id in self.target_cols
                                            or n.id in self.target_vars):
                return True
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and (
                    n.value in self.target_cols or is_y_like(n.value)):
                return True  # df["label"]: a column named as a target
            if isinstance(n, ast.Attribute) and (n.attr in self.target_cols or (
                    isinstance(n.value, ast.Name) and n.value.id not in self._imported
                    and is_y_like(n.attr))):
                return True
        return False

    def _is_splitter(self, recv: ast.expr, rlast: str) -> bool:
        if rlast and SPLITTER_RE.search(rlast):
            return True
        if isinstance(recv, ast.Call):
            f = recv.func
            nm = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) \
                else ""
            return bool(SPLITTER_RE.search(nm))
        return False

    def tts(self, node: ast.Call, args: list[frozenset], kws: dict) -> frozenset:
        key = self.key("tts", node.lineno, node.col_offset)
        split = self._keys.get(key)
        arrays = [a for a in node.args if not isinstance(a, ast.Starred)]
        inp = _union(args)
        if split is None:
            split = SplitEvent(len(self.splits), "holdout", node.lineno, self.in_cell,
                               "train_test_split", inp,
                               self.src(arrays[0]) if arrays else "")
            self.splits.append(split)
            self._keys[key] = split
        self._last_split[id(node)] = split  # type: ignore[assignment]
        for i, (a, lab) in enumerate(zip(arrays, args, strict=False)):
            if i > 0 and _is_y_expr(a, self.target_cols):
                continue
            if len(arrays) == 2 and i == 1 and not _looks_like_features(a):
                continue
            self._check_split_input(split, lab, node.lineno)  # type: ignore[arg-type]
        return inp | {("split", split.id, "train"), ("split", split.id, "test")}  # type: ignore

    def cv_call(self, node: ast.Call, last: str, args: list[frozenset], kws: dict,
                everything: frozenset) -> frozenset:
        x_lab = kws.get("X", args[1] if len(args) > 1 else EMPTY)
        x_node = _kw(node, "X") or (node.args[1] if len(node.args) > 1 else None)
        key = self.key("cv", node.lineno, node.col_offset)
        split = self._keys.get(key)
        if split is None:
            split = SplitEvent(len(self.splits), "cv", node.lineno, self.in_cell, last, x_lab,
                               self.src(x_node) if x_node is not None else "")
            self.splits.append(split)
            self._keys[key] = split
        self._check_split_input(split, x_lab, node.lineno, how="cv_input")  # type: ignore
        # cross-validation on the test set is still a score of the test set
        y_lab = kws.get("y", args[2] if len(args) > 2 else EMPTY)
        on = self.heldout(x_lab) or self.heldout(y_lab)
        out = everything
        if on and last in ("cross_val_score", "cross_validate"):
            out = out | {self._score_event(node, last, on, multi=True)}
        return out

    def kfold_split(self, node: ast.Call, recv: ast.expr, rlast: str, args: list[frozenset],
                    everything: frozenset) -> frozenset:
        key = self.key("kf", node.lineno, node.col_offset)
        split = self._keys.get(key)
        x_lab = args[0] if args else EMPTY
        kind = "holdout" if "Shuffle" in (rlast or self.src(recv)) else "cv"
        if split is None:
            split = SplitEvent(len(self.splits), kind, node.lineno, self.in_cell,
                               f"{rlast or self.src(recv)}.split", x_lab,
                               self.src(node.args[0]) if node.args else "")
            self.splits.append(split)
            self._keys[key] = split
        self._check_split_input(split, x_lab, node.lineno, how="cv_input")  # type: ignore
        sid = split.id  # type: ignore[attr-defined]
        return frozenset(t for t in everything if t[0] in ("loop", "param")) | {("pairs", sid)}

    def fit_call(self, node: ast.Call, method: str, recv: ast.expr, rclass: str | None,
                 args: list[frozenset], kws: dict, recv_lab: frozenset,
                 everything: frozenset) -> frozenset:
        rlast = _last(rclass)
        data = _first(args, kws, "X")
        data_node = _kw(node, "X") or (node.args[0] if node.args else None)
        supervised_call = len(node.args) >= 2 or "y" in kws
        tier: str | None = tier_of_class(rclass)
        desc = rlast
        ends_model = False
        if rlast in COMPOSITES or (rclass and _last(rclass) == "Pipeline"):
            tier, desc, ends_model = self.composite_tier(recv)
        if rlast in UNDERSAMPLERS:
            tier = None
        if method in ("fit_resample", "fit_sample"):
            tier = "resample" if rlast not in UNDERSAMPLERS else None
            desc = rlast or "a resampler"
        search = rlast in SEARCHES or rlast.endswith("SearchCV")
        if search:
            key = self.key("search", node.lineno, node.col_offset)
            split = self._keys.get(key)
            if split is None:
                split = SplitEvent(len(self.splits), "cv", node.lineno, self.in_cell,
                                   f"{rlast}.fit", data,
                                   self.src(data_node) if data_node is not None else "")
                self.splits.append(split)
                self._keys[key] = split
            self._check_split_input(split, data, node.lineno, how="cv_input")  # type: ignore
            on = self.heldout(data) or self.heldout(args[1] if len(args) > 1 else
                                                    kws.get("y", EMPTY))
            if on == "test":
                self.searches_on_test.append(SearchOnTest(
                    node.lineno, self.in_cell, f"{rlast}.fit",
                    self.src(data_node) if data_node is not None else ""))
            self._record_model_fit(recv, data, node, data_node)
            self._set_obj(recv, _obj_labels(data | recv_lab))
            return _obj_labels(everything)
        if tier is None and method == "fit_transform" and not supervised_call and \
                rclass is None:
            tier, desc = "unknown", self.src(recv)
        if tier is None and method == "fit_transform" and rclass is not None and \
                not rlast[:1].isupper():
            tier = "unknown"
        is_model = tier is None or (ends_model and method == "fit")
        if is_model:
            # a model: X-role check, and what it was trained on
            self._check_applied(node, data, node.lineno)
            self._record_model_fit(recv, data, node, data_node)
            out = _obj_labels(recv_lab | data) | self._early_stopping(node, method, recv,
                                                                      rclass, kws)
            if supervised_call and method == "fit" and data_node is not None and \
                    not _is_y_expr(data_node, self.target_cols):
                model_tag = self._new_fit(node, "model", f"a `{rlast or 'model'}` fitted on "
                                          "all rows", data, data_node, root_name(recv))
                if model_tag is not None:
                    out = out | {model_tag}
            self._set_obj(recv, out)
            return out if method != "fit_transform" else out | data
        if data_node is not None and _is_y_expr(data_node, self.target_cols):
            self._set_obj(recv, _obj_labels(recv_lab))
            return everything
        return self.fit_event_result(node, tier, desc, data, data_node, recv, everything,
                                     fit_transform=method != "fit", recv_lab=recv_lab)

    def _new_fit(self, node: ast.Call, tier: str, desc: str, data: frozenset,
                 data_node: ast.AST | None, var: str | None) -> Tag | None:
        key = self.key("fit", node.lineno, node.col_offset, tier)
        ev = self._keys.get(key)
        if ev is None:
            if data_node is not None and isinstance(data_node, ast.Name) and \
                    is_y_like(data_node.id):
                return None
            ev = FitEvent(len(self.fits), tier, desc, node.lineno, self.in_cell, data,
                          self.src(data_node) if data_node is not None else "", var,
                          supervised=tier != "corr")
            self.fits.append(ev)
            self._keys[key] = ev
        return ("fit", ev.id, None)  # type: ignore[attr-defined]

    def fit_event_result(self, node: ast.Call, tier: str, desc: str, data: frozenset,
                         data_node: ast.AST | None, recv: ast.expr | None,
                         everything: frozenset, *, fit_transform: bool,
                         recv_lab: frozenset = EMPTY) -> frozenset:
        var = recv.id if isinstance(recv, ast.Name) else None
        if var is None and not fit_transform:
            var = self._fitted_target(node)
        tag = self._new_fit(node, tier, desc, data, data_node, var)
        if tag is None:
            return everything
        obj = _obj_labels(recv_lab | data) | {tag}
        self._set_obj(recv, obj)
        if fit_transform:
            return everything | {tag}
        return obj

    def _fitted_target(self, node: ast.Call) -> str | None:
        """`scaler` in `scaler = StandardScaler().fit(X)`: the statement's single target,
        when the fit call is the whole value (`.fit` returns the estimator)."""
        st = self._cur_stmt
        if self._cur_target and isinstance(st, ast.Assign) and st.value is node:
            return self._cur_target
        return None

    def _set_obj(self, recv: ast.expr | None, lab: frozenset) -> None:
        if isinstance(recv, ast.Name):
            self.env[recv.id] = lab | self._ctx_labels()

    def _record_model_fit(self, recv: ast.expr, data: frozenset, node: ast.Call,
                          data_node: ast.AST | None) -> None:
        r = recv.id if isinstance(recv, ast.Name) else self._fitted_target(node)
        if r:
            self.model_fits[r] = (data, node.lineno, self.in_cell,
                                  self.src(data_node) if data_node is not None else "")

    def predict_call(self, node: ast.Call, method: str, recv: ast.expr | None,
                     recv_lab: frozenset, args: list[frozenset], kws: dict,
                     everything: frozenset) -> frozenset:
        data = _first(args, kws, "X")
        self._check_applied(node, recv_lab | data, node.lineno)
        on = self.heldout(data)
        if method in ("score", "evaluate") and len(node.args) + len(node.keywords) >= 1:
            if not on and len(args) > 1:
                on = self.heldout(args[1])
            if on:
                everything = everything | {self._score_event(node, f".{method}", on)}
        self._test_rows_check(node, recv, data, method)
        return everything

    def metric(self, node: ast.Call, last: str, args: list[frozenset], kws: dict,
               everything: frozenset) -> frozenset:
        on = None
        for lab in [*args, *[v for k, v in kws.items() if k != "sample_weight"]]:
            self._metric_of_params(lab)
            o = self.heldout(lab)
            if o == "test":
                on = "test"
                break
            on = on or o
        if on:
            everything = everything | {self._score_event(node, last, on,
                                                         multi=last in METRIC_CURVES)}
        return everything

    def _hand_rolled_error(self, node: ast.Call, last: str, recv: ast.expr | None,
                           recv_lab: frozenset, args: list[frozenset]) -> Tag | None:
        """`np.mean((y_test - pred) ** 2)`, `np.abs(y_te - p).mean()`, `(p == y_test).mean()`:
        an error / accuracy computed by hand on held-out rows is a score."""
        if last not in _HAND_METRIC_REDUCERS:
            return None
        module = isinstance(recv, ast.Name) and self.m.dotted(recv) is not None
        data = recv if recv is not None and not module else (
            node.args[0] if node.args else None)
        if data is None or not self._residual(data):
            return None
        lab = recv_lab if data is recv else (args[0] if args else EMPTY)
        self._metric_of_params(lab)
        on = self.heldout(lab)
        if on is None:
            return None
        return self._score_event(node, "hand-rolled error", on)

    def _metric_of_params(self, lab: frozenset) -> None:
        """Inside a function: the parameters a metric / error is computed from, so that a
        call of the helper on held-out data is a score."""
        if self._func:
            self._func[-1]["metric"].update(t[1] for t in lab if t[0] == "param")

    def _residual(self, node: ast.AST) -> bool:
        """A difference between two quantities, the raw material of an error or accuracy:
        `y - pred`, `(p == y)`, a name assigned from one (`resid = y_te - p`), or the result
        of a helper function that returns one (`abs_err(y, p)`)."""
        for x in _walk(node):
            if (isinstance(x, ast.BinOp) and isinstance(x.op, ast.Sub)) or (
                    isinstance(x, ast.Compare) and isinstance(x.ops[0], ast.Eq | ast.NotEq)):
                return True
            if isinstance(x, ast.Name) and x.id in self._residual_names:
                return True
            if isinstance(x, ast.Call) and isinstance(x.func, ast.Name):
                fn = self.funcs.get(x.func.id)
                if fn is not None and fn.residual:
                    return True
        return False

    def _score_event(self, node: ast.Call, call: str, on: str, multi: bool = False) -> Tag:
        key = self.key("score", node.lineno, node.col_offset)
        ev = self._keys.get(key)
        if ev is None:
            ev = ScoreEvent(len(self.scores), node.lineno, self.in_cell, call, on, multi,
                            self.src(node)[:80])
            self.scores.append(ev)
            self._keys[key] = ev
        return ("score", ev.id)  # type: ignore[attr-defined]

    def reduction(self, node: ast.Call, name: str | None, method: str | None,
                  recv: ast.expr | None, recv_lab: frozenset, args: list[frozenset],
                  everything: frozenset) -> frozenset | None:
        """`X.mean()`, `np.std(X, axis=0)`, `df.groupby(c)[target].transform('mean')`."""
        last = method or _last(name)
        np_func = method is None and name is not None and name.startswith("numpy.") and \
            last in NUMPY_REDUCTIONS
        if recv is not None and method in REDUCTIONS | TARGET_ENC_AGGS:
            chain = _chain_methods(recv)
            if root_name(recv) in self._windows:
                chain.add("rolling")  # base.mean() of `base = s.rolling(...)`: per-row window
            if chain & GROUP_METHODS:
                if "groupby" in chain and method in TARGET_ENC_AGGS and (
                        self._chain_selects_target(recv) or self._agg_on_target(node)
                        or self._chain_selects_target(recv, self.response_cols)):
                    return self.fit_event_result(node, "target", "a per-group mean of the "
                                                 "target (target encoding)", recv_lab, recv,
                                                 None, everything, fit_transform=True)
                if "groupby" in chain and method in REDUCTIONS:
                    return self._class_conditional(node, method, recv, recv_lab, everything)
                return None
            if method not in REDUCTIONS:
                return None
            data_node: ast.AST | None = recv
            data_lab = recv_lab
            axis = _kw(node, "axis")
            if axis is None and node.args and method not in ("quantile",):
                axis = node.args[0]
        elif np_func and node.args:
            data_node, data_lab = node.args[0], args[0]
            axis = _kw(node, "axis") or (node.args[1] if len(node.args) > 1 and
                                         last not in ("percentile", "quantile",
                                                      "nanpercentile", "nanquantile")
                                         else None)
        else:
            return None
        if _literal(axis) in (1, "columns", -1):
            return None  # row-wise
        root = root_name(data_node)
        if root is None or is_y_like(root) or root in self.target_cols or \
                _is_y_expr(data_node, self.target_cols):
            return None
        if any(t[0] == "score" for t in data_lab):
            return None
        key = self.key("fit", node.lineno, node.col_offset, "stats")
        new = key not in self._keys
        out = self.fit_event_result(node, "stats", f"`.{last}()` of the data", data_lab,
                                    data_node, None, everything, fit_transform=True)
        ev = self._keys.get(key)
        if new and isinstance(ev, FitEvent) and last not in ("std", "var", "nanstd", "nanvar",
                                                             "sem", "mad"):
            ev.weak = True  # until it is seen scaling, centering or imputing the data
        return out

    def _class_conditional(self, node: ast.Call, method: str, recv: ast.expr,
                           recv_lab: frozenset, everything: frozenset) -> frozenset | None:
        """`X.groupby(y).mean()`, `df.groupby("label")[feats].median()`: a per-class
        statistic of the features, the raw material of a class-contrast screen (like a
        t-test between the classes); its result picking columns is feature selection."""
        gb = _groupby_call(recv)
        if gb is None:
            return None
        key = _kw(gb, "by") or (gb.args[0] if gb.args else None)
        data = gb.func.value  # type: ignore[attr-defined]
        if key is None or not self._is_class_key(key):
            return None
        root = root_name(data)
        if root is None or is_y_like(root) or root in self.target_cols or \
                root in self.target_vars or _is_y_expr(data, self.target_cols) or \
                self._chain_selects_target(recv):
            return None
        out = self.fit_event_result(node, "corr", f"per-class `.{method}()` of the features "
                                    f"grouped by `{self.src(key)}`", recv_lab, data, None,
                                    everything, fit_transform=True)
        for t in out:
            if t[0] == "fit" and self.fit(t).tier == "corr":
                self.fit(t).supervised = True
        return out

    def _is_class_key(self, key: ast.AST) -> bool:
        """A grouping key that is the target: a label variable or column, or a helper's
        parameter that every call site fills with one."""
        if isinstance(key, ast.Name) and self._func and \
                key.id in (self._func[-1].get("params") or []):
            frame = self._func[-1]
            i = frame["params"].index(key.id)
            calls = self._call_strs.get(frame.get("name", ""), [])
            given = [c.args[i] if i < len(c.args) else _kw(c, key.id) for c in calls]
            given = [g for g in given if g is not None]
            if given:
                return all(self._mentions_target(g) for g in given)
        if isinstance(key, ast.List | ast.Tuple):
            return False  # several keys: a stratified summary, not a class contrast
        return self._mentions_target(key)

    def _chain_selects_target(self, recv: ast.expr, targets: set[str] | None = None) -> bool:
        """The chain reads a target column (`targets`: the target columns by default; the
        responses of model formulas when given)."""
        targets = self.target_cols if targets is None else targets
        if not targets:
            return False
        node: ast.AST | None = recv
        while node is not None:
            if isinstance(node, ast.Subscript):
                cols = self._cols_of_slice(node.slice)
                if cols and any(c in targets for c in cols):
                    return True
                if any(c in targets for c in self._param_strs(node.slice)):
                    return True
                node = node.value
            elif isinstance(node, ast.Attribute):
                if node.attr in targets:
                    return True
                node = node.value
            elif isinstance(node, ast.Call):
                if isinstance(node.func, ast.Attribute) and node.func.attr == "groupby":
                    base = node.func.value
                    return isinstance(base, ast.Name) and (is_y_like(base.id)
                                                           or base.id in targets)
                node = node.func
            else:
                return False
        return False

    def _param_strs(self, sl: ast.AST) -> list[str]:
        """The string constants passed, at the cell's call sites, for the parameter `sl`
        names inside the function being defined (`df.groupby(col)[target]` in a helper
        called as `helper(df, "route", "late")`)."""
        if not self._func or not isinstance(sl, ast.Name):
            return []
        frame = self._func[-1]
        params = frame.get("params") or []
        if sl.id not in params:
            return []
        i = params.index(sl.id)
        out: list[str] = []
        for call in self._call_strs.get(frame.get("name", ""), []):
            a = call.args[i] if i < len(call.args) else _kw(call, sl.id)
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                out.append(a.value)
        return out

    def _agg_on_target(self, node: ast.Call) -> bool:
        """`.agg({"y": "mean"})`, or a named aggregation of the target (or of a model
        formula's response): `.agg(n=("claims", "sum"))`, `pd.NamedAgg(column="claims", ...)`."""
        targets = self.target_cols | self.response_cols
        for a in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(a, ast.Dict):
                strs = [k.value for k in a.keys if isinstance(k, ast.Constant)]
                if any(s in self.target_cols for s in strs):
                    return True
        for k in node.keywords:
            v = k.value
            col = None
            if isinstance(v, ast.Tuple) and len(v.elts) == 2:
                col = v.elts[0]
            elif isinstance(v, ast.Call) and _last(self.m.dotted(v.func) or (
                    v.func.id if isinstance(v.func, ast.Name) else None)) == "NamedAgg":
                col = _kw(v, "column") or (v.args[0] if v.args else None)
            if isinstance(col, ast.Constant) and col.value in targets:
                return True
        return False

    def selection_call(self, node: ast.Call, name: str | None, method: str | None, last: str,
                       recv_lab: frozenset, args: list[frozenset], kws: dict,
                       everything: frozenset) -> frozenset | None:
        # np.nanargmax(...) resolves with a method too: numpy functions match by name
        is_sel = (last in SELECT_FUNCS and (
            (method is None and name in ("max", "min", "sorted"))
            or (name or "").startswith("numpy."))) or (
            method in SELECT_METHODS and method is not None)
        if not is_sel:
            return None
        lab = everything
        by = _kw(node, "by") or _kw(node, "columns") or (node.args[0] if node.args and method in (
            "sort_values", "nlargest", "nsmallest") else None)
        by_cols = _const_strs(by) if by is not None else None
        if by_cols and all(_not_test_column(c) for c in by_cols):
            lab = frozenset(t for t in lab if t[0] != "score")
        key = _kw(node, "key")
        if isinstance(key, ast.Lambda):
            hint = _key_hint(key)
            if hint == "not_test":
                lab = frozenset(t for t in lab if t[0] != "score")
            else:
                lab = lab | {("loop", -1)}  # the key is scored once per candidate
        elif isinstance(key, ast.Name) and key.id in self.funcs:
            lab = lab | self.funcs[key.id].returns | {("loop", -1)}
        value_of = None
        if key is None and last in _EXTREMES:
            if method is not None:
                value_of = _operand_root(node.func.value)  # type: ignore[attr-defined]
            elif len(node.args) == 1:
                value_of = _operand_root(node.args[0])
        self._selection(node, lab, f"{last}()", value_of)
        if last in _PICKS:
            # the winner (a setting, a key, a score) is not rows of the data it was scored
            # on: it keeps the scores, not the split side or the split's names
            return frozenset(t for t in everything if t[0] not in ("loop", "split", "name"))
        return frozenset(t for t in everything if t[0] != "loop")

    def _selection_compare(self, test: ast.expr, lab: frozenset) -> None:
        if isinstance(test, ast.Compare) or (isinstance(test, ast.BoolOp) and any(
                isinstance(v, ast.Compare) for v in test.values)):
            self._selection(test, lab, "comparison")

    def _selection(self, node: ast.AST, lab: frozenset, op: str,
                   value_of: str | None = None) -> None:
        score_ids = sorted({t[1] for t in lab if t[0] == "score"})
        if not score_ids:
            return
        evs = [self.scores[i] for i in score_ids]
        multi = len(evs) >= 2 or any(e.multi for e in evs) or any(t[0] == "loop" for t in lab)
        if not multi:
            return
        on = "test" if any(e.on == "test" for e in evs) else "val"
        if on == "val":
            evs = [e for e in evs if e.on != "test"]
        line = getattr(node, "lineno", 0)
        k = (self.in_cell, line, on, value_of is None)
        if k in self._sel_keys:
            return
        self._sel_keys.add(k)
        loops = tuple(sorted({t[1] for t in lab if t[0] == "loop"}))
        self.selections.append(Selection(line, self.in_cell, op, on,
                                         evs if on == "val" else
                                         [e for e in evs if e.on == "test"],
                                         self.src(node)[:80], value_of, node, loops))

    def _optimizer(self, node: ast.Call, last: str) -> None:
        for a in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(a, ast.Name) and a.id in self.funcs:
                lab = self.funcs[a.id].returns
                ids = {t[1] for t in lab if t[0] == "score"}
                if ids:
                    evs = [self.scores[i] for i in sorted(ids)]
                    on = "test" if any(e.on == "test" for e in evs) else "val"
                    self.selections.append(Selection(node.lineno, self.in_cell,
                                                     f"{last}({a.id})", on, evs,
                                                     self.src(node)[:80]))

    def _early_stopping(self, node: ast.Call, method: str | None, recv: ast.expr | None,
                        rclass: str | None, kws: dict) -> frozenset:
        """Early stopping / best-iteration selection on the test set. Without a stopping
        signal, a per-epoch history on the test set is still a set of test scores (a later
        argmax over it is a selection)."""
        out = EMPTY
        for kw in ("eval_set", "validation_data", "valid_sets", "evals", "eval_X"):
            if kw not in kws:
                continue
            val_node = _kw(node, kw)
            on = self.heldout(kws[kw])
            if on != "test":
                continue
            signal = self._stopping_signal(node, recv, rclass)
            src = self.src(val_node)[:60] if val_node is not None else ""
            if signal:
                self.early_stops.append(EarlyStopOnTest(node.lineno, self.in_cell,
                                                        self.src(node.func), kw, signal, src))
            else:
                out = out | {self._score_event(node, f"{kw} history", "test", multi=True)}
        return out

    def _stopping_signal(self, node: ast.Call, recv: ast.expr | None,
                         rclass: str | None) -> str | None:
        esr = _kw(node, "early_stopping_rounds")
        if esr is not None and _literal(esr, 1) is not None:
            return "early_stopping_rounds"
        cb = _kw(node, "callbacks")
        if cb is not None:
            text = self.src(cb)
            if re.search(r"early_?stopping|EarlyStopping", text, re.I):
                return "an early-stopping callback"
            if "ModelCheckpoint" in text and "save_best_only" in text:
                return "ModelCheckpoint(save_best_only=True)"
        ctor = self._ctor_call(recv)
        if ctor is not None:
            v = _kw(ctor, "early_stopping_rounds")
            if v is not None and _literal(v, 1) is not None:
                return "early_stopping_rounds in the constructor"
            if _kw(ctor, "n_iter_no_change") is not None and \
                    _literal(_kw(ctor, "early_stopping"), True):
                pass
        if isinstance(recv, ast.Name):
            facts = self.ev.objects.get(recv.id)
            if facts and facts.params.get("early_stopping_rounds") not in (None, 0):
                return "early_stopping_rounds in the model's parameters"
        if "CatBoost" in (rclass or "") and _literal(_kw(node, "use_best_model"), True):
            return "CatBoost's use_best_model (on by default with an eval_set)"
        return None

    def heldout(self, lab: frozenset) -> str | None:
        """"test" (a final held-out set), "val" (a validation set) or None."""
        s_test = {t[1] for t in lab if t[0] == "split" and t[2] == "test"
                  and self.splits[t[1]].kind == "holdout"}
        s_train = {t[1] for t in lab if t[0] == "split" and t[2] == "train"
                   and self.splits[t[1]].kind == "holdout"}
        cv_any = any(t[0] == "split" and self.splits[t[1]].kind == "cv" for t in lab)
        names = {t[1] for t in lab if t[0] == "name"}
        if s_test and s_train:
            return "valn"  # a validation split carved out of a training part
        if s_test:
            return "val" if "val" in names and "test" not in names else "test"
        if s_train or cv_any:
            return None
        if "test" in names and "train" not in names:
            return "test"
        if "val" in names and "train" not in names:
            return "val"
        return None

    # -- user functions

    def call_user(self, node: ast.Call, fn: FuncSummary, args: list[frozenset],
                  kws: dict) -> frozenset:
        def arg_lab(i: int) -> frozenset:
            if i < len(args):
                return args[i]
            return kws.get(fn.params[i], EMPTY) if i < len(fn.params) else EMPTY

        def arg_node(i: int) -> ast.AST | None:
            if i < len(node.args):
                return node.args[i]
            return _kw(node, fn.params[i]) if i < len(fn.params) else None

        out: set = set()
        for t in fn.returns:
            if t[0] == "param":
                out |= arg_lab(t[1])
            elif t[0] == "fit":
                ev = self.fit(t)
                pidx = sorted(p[1] for p in ev.data_labels if p[0] == "param")
                if not pidx:
                    out.add(t)
                    continue
                data = frozenset(x for x in ev.data_labels if x[0] not in ("param", "name"))
                for i in pidx:
                    data |= arg_lab(i)
                key = self.key("inst", node.lineno, node.col_offset, ev.id)
                inst = self._keys.get(key)
                if inst is None:
                    an = arg_node(pidx[0])
                    inst = FitEvent(len(self.fits), ev.tier, ev.cls, node.lineno,
                                    self.in_cell, data,
                                    self.src(an) if an is not None else "", None,
                                    ev.supervised, via=fn.name, inner_line=ev.line)
                    self.fits.append(inst)
                    self._keys[key] = inst
                out.add(("fit", inst.id, t[2]))  # type: ignore[attr-defined]
            else:
                out.add(t)
        for split, i in fn.sinks:
            lab = arg_lab(i)
            self._check_split_input(split, lab, node.lineno, how="cv_input"
                                    if split.kind == "cv" else "split_input", call_line=True)
        return frozenset(out) | self._ctx_labels()

    # ---- leak checks -------------------------------------------------------------------------

    def _check_split_input(self, split: SplitEvent, lab: frozenset, line: int,
                           how: str = "split_input", call_line: bool = False) -> None:
        """The data being split or cross-validated went through a fit: the fit saw rows
        that end up on the held-out side."""
        if self._func and not call_line:
            params = [t[1] for t in lab if t[0] == "param"]
            for p in params:
                self._func[-1]["sinks"].append((split, p))
        for t in lab:
            if t[0] != "fit":
                continue
            if self._outcome_only(t):
                continue  # a statistic confined to the outcome column (y centred or scaled
                # by a constant), as for statistics of the target itself: not a feature leak
            ev = self.fit(t)
            if ev.tier == "corr" and not ev.supervised:
                continue
            if _has_split(ev.data_labels, split.id, "train") and \
                    not _has_split(ev.data_labels, split.id, "test"):
                continue
            if self._test_only(ev):
                continue  # fitted on a held-out part only: a different mistake
            inner = self._inner(ev)
            self._add_leak(ev, split, line, how, inner, by_name=False)

    def _outcome_only(self, t: tuple) -> bool:
        """A fit label confined to the outcome column (`{"y": v - v.mean()}`,
        `df["y"] = ...`): y shifted or scaled by a constant."""
        return t[2] is not None and (t[2] in self.target_cols or t[2] in self.response_cols)

    def _check_applied(self, node: ast.Call, lab: frozenset, line: int) -> None:
        """A fitted object meets data from one side of a split (transform, fit, predict,
        score): leak when the fit's data held rows of the other side."""
        fits = [t for t in lab if t[0] == "fit" and not self._outcome_only(t)]
        if not fits:
            return
        splits = {t[1] for t in lab if t[0] == "split"}
        names = {t[1] for t in lab if t[0] == "name"}
        for t in fits:
            ev = self.fit(t)
            if ev.tier == "corr" and not ev.supervised:
                continue
            if ev.tier == "model":
                continue  # a model applied to data: not a preprocessing leak
            for sid in splits:
                if self._unsafe(ev, sid):
                    self._add_leak(ev, self.splits[sid], line, "applied", self._inner(ev),
                                   by_name=False)
            if names and not splits and self._unsafe_by_name(ev, names, lab):
                self._add_leak(ev, None, line, "applied", self._inner(ev), by_name=True)

    def _unsafe(self, ev: FitEvent, sid: int) -> bool:
        dl = ev.data_labels
        tr, te = _has_split(dl, sid, "train"), _has_split(dl, sid, "test")
        if tr and not te:
            return False
        if te and not tr:
            return False  # fitted on the held-out part only: not this flaw
        if tr and te:
            return True
        # the fit does not know this split: related data, not separated by another split?
        split = self.splits[sid]
        if any(t[0] == "fit" and t[1] == ev.id for t in split.input_labels):
            return True
        srcs = {t for t in dl if t[0] == "src"}
        if not srcs & {t for t in split.input_labels if t[0] == "src"}:
            return False
        for other in {t[1] for t in dl if t[0] == "split"}:
            mine = {t[2] for t in dl if t[0] == "split" and t[1] == other}
            theirs = {t[2] for t in split.input_labels if t[0] == "split" and t[1] == other}
            if mine and theirs and not (mine & theirs):
                return False
        return True

    def _unsafe_by_name(self, ev: FitEvent, names: set, lab: frozenset) -> bool:
        dl = ev.data_labels
        if any(t[0] == "split" for t in dl):
            return False  # the fit respected some real split; names add nothing
        dn = {t[1] for t in dl if t[0] == "name"}
        if dn == {"train"} or (dn and "train" not in dn):
            return False
        srcs = {t for t in dl if t[0] == "src"}
        return bool(srcs & {t for t in lab if t[0] == "src"}) and bool(names)

    def _test_only(self, ev: FitEvent) -> bool:
        dl = ev.data_labels
        held = {t[1] for t in dl if t[0] == "split" and t[2] == "test"}
        return bool(held) and not any(_has_split(dl, s, "train") for s in held)

    def _inner(self, ev: FitEvent) -> bool:
        dl = ev.data_labels
        if any(t[0] == "split" and t[2] == "train" and self.splits[t[1]].kind == "holdout"
               and not _has_split(dl, t[1], "test") for t in dl):
            return True
        names = {t[1] for t in dl if t[0] == "name"}
        return names == {"train"}

    def _add_leak(self, ev: FitEvent, split: SplitEvent | None, line: int, how: str,
                  inner: bool, by_name: bool) -> None:
        k = (ev.id, split.id if split else None)
        if k in self._leak_keys:
            return
        self._leak_keys.add(k)
        self.leaks.append(Leak(ev, split, line, self.in_cell, how, inner, by_name))

    def _test_rows_check(self, node: ast.Call, recv: ast.expr | None, data: frozenset,
                         method: str) -> None:
        if not isinstance(recv, ast.Name) or recv.id not in self.model_fits:
            return
        fit_lab, fit_line, fit_in_cell, fit_src = self.model_fits[recv.id]
        test_ids = {t[1] for t in data if t[0] == "split" and t[2] == "test"
                    and self.splits[t[1]].kind == "holdout"}
        if self.heldout(data) != "test":
            return
        for sid in test_ids:
            split = self.splits[sid]
            if _has_split(fit_lab, sid, "test"):
                how = "contains_test"
            elif _has_split(fit_lab, sid, "train"):
                continue
            else:
                srcs = {t for t in fit_lab if t[0] == "src"}
                if not srcs & {t for t in split.input_labels if t[0] == "src"}:
                    continue
                if any(t[0] == "split" for t in fit_lab) or ("name", "train") in fit_lab:
                    continue
                how = "full_data"
            self.test_rows.append(TestRowsFit(recv.id, fit_line, fit_in_cell, fit_src,
                                              node.lineno, self.in_cell,
                                              f"{recv.id}.{method}", split, how))
            return


# -- small helpers -------------------------------------------------------------------------------


def _groupby_call(node: ast.AST | None) -> ast.Call | None:
    """The `.groupby(...)` call in a method chain such as `X.groupby(y)[cols].mean`."""
    while node is not None:
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "groupby":
                return node
            node = node.func
        elif isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        else:
            return None
    return None


def _union(items: Iterable[frozenset]) -> frozenset:
    out: set = set()
    for i in items:
        out |= i
    return frozenset(out)


def _strip(lab: frozenset, kinds: tuple[str, ...]) -> frozenset:
    return frozenset(t for t in lab if t[0] not in kinds)


def _obj_labels(lab: frozenset) -> frozenset:
    """What a fitted object carries: its fits, loops and scores, not its data's split side."""
    return frozenset(t for t in lab if t[0] in ("fit", "loop", "score", "param"))


def _drop_names(lab: frozenset) -> frozenset:
    return frozenset(t for t in lab if t[0] != "name")


def _keep_cols(lab: frozenset, cols: list[str]) -> frozenset:
    keep = set(cols)
    return frozenset(t for t in lab if t[0] != "fit" or t[2] is None or t[2] in keep)


def _has_split(lab: frozenset, sid: int, role: str) -> bool:
    return ("split", sid, role) in lab


_CONTRAST_STATS = {"mean", "median", "nanmean", "nanmedian", "average", "sum", "nansum"}


def _class_subset(node: ast.AST) -> tuple[ast.expr, str, str] | None:
    """(data, class variable, data root) for `X[y == 1]`, `X[lab != 0]`, `X[y]`, `X[~y]`,
    `df[df.label == 1][cols]`, `X[(y == 1) & keep]`: rows of the data picked by a label."""
    while isinstance(node, ast.Subscript):
        sl = node.slice
        rows = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
        for c in _walk(rows):
            if isinstance(c, ast.Compare) and len(c.ops) == 1 and isinstance(
                    c.ops[0], ast.Eq | ast.NotEq):
                sides = [c.left, c.comparators[0]]
                consts = [x for x in sides if isinstance(x, ast.Constant)]
                var = [x for x in sides if not isinstance(x, ast.Constant)]
                if len(consts) == 1 and len(var) == 1 and isinstance(
                        var[0], ast.Name | ast.Attribute | ast.Subscript):
                    base = root_name(node.value)
                    if base:
                        return node.value, ast.unparse(var[0]), base
        plain = rows.operand if isinstance(rows, ast.UnaryOp) and isinstance(
            rows.op, ast.Invert | ast.Not) else rows
        if isinstance(plain, ast.Name) and root_name(node.value):
            return node.value, plain.id, root_name(node.value) or ""
        node = node.value
    return None


def _stat_of(node: ast.AST) -> ast.AST | None:
    """The data of a per-column location statistic: `d.mean(axis=0)`, `np.mean(d, 0)`,
    `d.mean()`."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    last = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if last not in _CONTRAST_STATS:
        return None
    module = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
        f.value.id in ("np", "numpy", "pd", "statistics")
    if isinstance(f, ast.Attribute) and not module:
        data, axis = f.value, _kw(node, "axis") or (node.args[0] if node.args else None)
    elif node.args:
        data, axis = node.args[0], _kw(node, "axis") or (
            node.args[1] if len(node.args) > 1 else None)
    else:
        return None
    if axis is not None and _literal(axis, "?") not in (0, "index", "rows"):
        return None
    return data


def _class_contrast(node: ast.BinOp) -> tuple[ast.expr, str] | None:
    """(data, class variable) for the same statistic of the same data over two classes of
    one variable: `X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)`."""
    sides = []
    for side in (node.left, node.right):
        data = _stat_of(side)
        found = _class_subset(data) if data is not None else None
        if found is None:
            return None
        sides.append(found)
    (d1, v1, b1), (_d2, v2, b2) = sides
    if v1 != v2 or b1 != b2:
        return None
    return d1, v1


def _manual_cv_loop(s: ast.For | ast.AsyncFor) -> tuple[str, dict[str, str], str] | None:
    """(loop variable, mask name -> role, description) for a hand-rolled cross-validation
    loop: `for i in range(n): keep = idx != i; ... X[keep] ... X[i]` (leave-one-out) or
    `for k in range(5): te = folds == k; ... X[~te] ... X[te]` (k-fold). Both a training
    selection (`!= i`) and a held-out one (`== k`, `X[i]`) of the rows must occur."""
    if not isinstance(s.target, ast.Name):
        return None
    var = s.target.id
    masks: dict[str, str] = {}
    body = ast.Module(body=list(s.body), type_ignores=[])
    for st in _walk(body):
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(
                st.targets[0], ast.Name):
            role = _fold_role(st.value, var, masks, bare=False)
            if role is not None:
                masks[st.targets[0].id] = role
    roles: set[str] = set()
    for n in _walk(body):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load):
            sl = n.slice
            rows = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
            role = _fold_role(rows, var, masks)
            if role is not None:
                roles.add(role)
    if roles != {"train", "test"}:
        return None
    loo = any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Name)
              and n.slice.id == var for n in _walk(body))
    return var, masks, "hand-rolled leave-one-out loop" if loo else "hand-rolled k-fold loop"


def _fold_role(node: ast.AST, var: str, masks: dict[str, str], bare: bool = True
               ) -> str | None:
    """"train" or "test" for a row selector of a hand-rolled CV fold: `idx != i` (train),
    `folds == k` (test), a mask name, `~mask`, `mask & other`, `np.where(mask)[0]`, or the
    loop variable itself (`X[i]`: the held-out row, when `bare`)."""
    if isinstance(node, ast.Name):
        if node.id == var:
            return "test" if bare else None
        return masks.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert | ast.Not):
        inner = _fold_role(node.operand, var, masks, bare=False)
        return {"train": "test", "test": "train"}.get(inner or "")
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(
            node.ops[0], ast.Eq | ast.NotEq):
        sides = [node.left, node.comparators[0]]
        if any(isinstance(x, ast.Name) and x.id == var for x in sides):
            other = next(x for x in sides if not (isinstance(x, ast.Name) and x.id == var))
            if isinstance(other, ast.Constant):
                return None
            return "train" if isinstance(node.ops[0], ast.NotEq) else "test"
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        roles = {_fold_role(x, var, masks, bare=False) for x in (node.left, node.right)} - {None}
        return next(iter(roles)) if len(roles) == 1 else None
    if isinstance(node, ast.Subscript):  # np.where(mask)[0], np.flatnonzero(mask)
        return _fold_role(node.value, var, masks, bare=False)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name):
        last = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        if last in ("where", "flatnonzero", "nonzero", "argwhere") and node.args:
            return _fold_role(node.args[0], var, masks, bare=False)
    return None


def _align_starred(node: ast.Call, args: list[frozenset], n_params: int) -> list[frozenset]:
    """Argument labels by parameter position for a call with one unpacked argument
    (`score(*cfg, train, test)`): the arguments after the star fill the last parameters, the
    star fills the ones before them."""
    stars = [i for i, a in enumerate(node.args) if isinstance(a, ast.Starred)]
    if len(stars) != 1 or node.keywords:
        return args
    k = stars[0]
    after = args[k + 1:]
    n_star = n_params - k - len(after)
    if n_star < 0:
        return args
    return [*args[:k], *[args[k]] * n_star, *after]


def _first(args: list[frozenset], kws: dict, kw: str) -> frozenset:
    if kw in kws:
        return kws[kw]
    if kw.lower() in kws:
        return kws[kw.lower()]
    return args[0] if args else EMPTY


def _window_of(node: ast.AST) -> bool:
    """`s.rolling(7)`, `s.shift(1).expanding()`, `df.rolling("1D")["x"]`: a window object
    whose statistics are per row (each row's own window), not of the whole data."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr in ("rolling", "expanding", "ewm")


def _chain_methods(node: ast.AST | None) -> set[str]:
    out: set[str] = set()
    while node is not None:
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                out.add(node.func.attr)
            node = node.func
        elif isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        else:
            break
    return out


_TIME_TOKENS = {"year", "yr", "date", "time", "day", "month", "week", "season", "period",
                "timestamp", "ts", "quarter", "datetime", "dt", "hour", "vintage"}
_DATE_STR = re.compile(r"^\d{4}-\d{1,2}")
_DATE_CALLS = {"Timestamp", "to_datetime", "datetime", "date", "Period", "datetime64"}


def _time_cut(node: ast.AST) -> tuple[str, str, str, object] | None:
    """(frame, time expression, "early"/"late", bound) of `df[df.date.dt.year < 2023]`,
    `df.loc[df["date"] >= "2023-01-01"]`, `df[df.year == 2023]`: a row subset cut at a point
    in time (a time-like column or accessor, or a date-like bound)."""
    if not isinstance(node, ast.Subscript):
        return None
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr == "loc":
        base = base.value
    cmp = node.slice
    if not isinstance(base, ast.Name) or not isinstance(cmp, ast.Compare) or \
            len(cmp.ops) != 1:
        return None
    op, left, bound = cmp.ops[0], cmp.left, cmp.comparators[0]
    side = "early" if isinstance(op, ast.Lt | ast.LtE) else "late" if isinstance(
        op, ast.Gt | ast.GtE | ast.Eq) else None
    if side is None or base.id not in names_in(left):
        return None
    if isinstance(bound, ast.Call) and _last(called_name(bound)) in _DATE_CALLS and \
            bound.args:  # pd.Timestamp("2023-01-01"), datetime(2023, 1, 1)
        bound = bound.args[0]
    value = _literal(bound, None)
    words = {t for x in _walk(left) for t in _tokens(
        x.attr if isinstance(x, ast.Attribute) else x.value if isinstance(x, ast.Constant)
        and isinstance(x.value, str) else "")}
    if not (words & _TIME_TOKENS or (isinstance(value, str) and _DATE_STR.match(value))):
        return None
    return base.id, ast.unparse(left), side, value if value is not None else ast.unparse(bound)


def _time_split_roles(nodes: Iterable[ast.AST]) -> dict[str, str]:
    """`past = df[df.year < 2023]` and `recent = df[df.year == 2023]` (`>= 2023`): two row
    subsets of one frame cut at one point in time on the same time column, neither named as a
    split part; the earlier part is the training part and the later one is held out (a
    temporal hold-out). Only an unambiguous pair (one earlier part, one later part, each name
    bound once) is a split."""
    groups: dict[tuple[str, str], list[tuple[str, str, object]]] = {}
    bound: dict[str, int] = {}
    seen: set[int] = set()
    pairs: list[tuple[str, ast.expr]] = []
    for node in nodes:
        if not isinstance(node, ast.Assign) or id(node) in seen:
            continue
        seen.add(id(node))
        for t in node.targets:
            for n in names_in(t):
                bound[n] = bound.get(n, 0) + 1
        if len(node.targets) != 1:
            continue
        tgt, val = node.targets[0], node.value
        if isinstance(tgt, ast.Name):
            pairs.append((tgt.id, val))
        elif isinstance(tgt, ast.Tuple | ast.List) and isinstance(val, ast.Tuple | ast.List) \
                and len(tgt.elts) == len(val.elts):  # early, late = df[...], df[...]
            pairs += [(t.id, v) for t, v in zip(tgt.elts, val.elts, strict=True)
                      if isinstance(t, ast.Name)]
    for name, val in pairs:
        cut = _time_cut(val)
        if cut is None or role_of_name(name) or role_of_name(cut[0]):
            continue
        groups.setdefault(cut[:2], []).append((name, cut[2], cut[3]))
    roles: dict[str, str] = _drawn_split_roles(pairs, bound)
    for parts in groups.values():
        early = [p for p in parts if p[1] == "early"]
        late = [p for p in parts if p[1] == "late"]
        if len(early) != 1 or len(late) != 1 or early[0][0] == late[0][0]:
            continue
        (e_name, _, e_at), (l_name, _, l_at) = early[0], late[0]
        try:
            ordered = l_at >= e_at  # type: ignore[operator]
        except TypeError:
            ordered = False
        if ordered and bound.get(e_name) == 1 and bound.get(l_name) == 1:
            roles[e_name], roles[l_name] = "train", "test"
    return roles


_DRAWS = {"permutation", "choice", "sample"}


def _draw_of(node: ast.expr) -> str | None:
    """The source a random draw of rows or positions comes from: `df` for df.sample(frac=.8),
    a marker for rng.permutation(len(df)) / np.random.choice(n, k, replace=False)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    m, base = node.func.attr, node.func.value
    if m == "sample" and isinstance(base, ast.Name) and not role_of_name(base.id) and \
            _kw(node, "replace") is None:
        return base.id
    if m in ("permutation", "choice") and _is_random_call(node) and (
            m == "permutation" or _literal(_kw(node, "replace")) is False):
        return "<positions>"
    return None


def _random_mask(node: ast.expr) -> bool:
    """`rng.random(len(df)) < 0.8`, `np.random.rand(n) > .2`: a random row mask."""
    return isinstance(node, ast.Compare) and len(node.ops) == 1 and \
        isinstance(node.left, ast.Call) and _is_random_call(node.left) and \
        isinstance(node.comparators[0], ast.Constant)


def _subset_by(node: ast.expr) -> tuple[str, ast.expr] | None:
    """(frame, row key) of `df[key]` / `df.loc[key]` / `df.iloc[key]`."""
    if not isinstance(node, ast.Subscript):
        return None
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
        base = base.value
    sl = node.slice
    return (base.id, sl) if isinstance(base, ast.Name) else None


def _index_of(node: ast.AST | None) -> str | None:
    """`a` for `a.index`."""
    if isinstance(node, ast.Attribute) and node.attr == "index" and \
            isinstance(node.value, ast.Name):
        return node.value.id
    return None


def _drawn_split_roles(pairs: list[tuple[str, ast.expr]], bound: dict[str, int]
                       ) -> dict[str, str]:
    """Role-less names of a random hold-out written by hand: `a = df.sample(frac=.8)` with
    `b = df.drop(a.index)` / `df[~df.index.isin(a.index)]`; `a, b = df[m], df[~m]` for a random
    mask `m = rng.random(len(df)) < .8`; `a, b = idx[:k], idx[k:]` of a random permutation
    `idx`; `a = rng.choice(n, k, replace=False)` with `b = np.setdiff1d(..., a)`. The drawn
    part is the training part, its complement is held out. Only names bound once count."""
    drawn: dict[str, str] = {}
    masks: set[str] = set()
    for name, val in pairs:
        src = _draw_of(val)
        if src is not None:
            drawn[name] = src
        elif _random_mask(val):
            masks.add(name)
    if not drawn and not masks:
        return {}
    roles: dict[str, str] = {}
    slices: dict[str, dict[str, str]] = {}
    mask_parts: dict[tuple[str, str], dict[bool, str]] = {}

    def pair(first: str, second: str) -> None:
        """`first` is drawn, `second` its complement; a part already named for its role
        gives the other part the opposite role."""
        r1, r2 = role_of_name(first), role_of_name(second)
        if first == second or r1 == "val" or r2 == "val" or (r1 and r2):
            return
        if r1 or r2:
            other = "test" if (r1 or r2) == "train" else "train"
            roles[second if r1 else first] = other
        else:
            roles[first], roles[second] = "train", "test"

    for name, val in pairs:
        if bound.get(name) != 1:
            continue
        # complement of a drawn sample: df.drop(a.index), np.setdiff1d(all, a)
        if isinstance(val, ast.Call):
            last = _last(called_name(val))
            args = [*val.args, *(k.value for k in val.keywords)]
            if last == "drop" and isinstance(val.func, ast.Attribute) and \
                    isinstance(val.func.value, ast.Name):
                a = next((_index_of(x) for x in args if _index_of(x)), None)
                if a in drawn and drawn[a] == val.func.value.id and bound.get(a) == 1:
                    pair(a, name)
            elif last == "setdiff1d" and len(val.args) == 2 and \
                    isinstance(val.args[1], ast.Name) and val.args[1].id in drawn and \
                    bound.get(val.args[1].id) == 1:
                pair(val.args[1].id, name)
            continue
        sub = _subset_by(val)
        if sub is None:
            continue
        frame, key = sub
        neg = isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.Invert)
        inner = key.operand if neg else key  # type: ignore[union-attr]
        # df[~df.index.isin(a.index)]
        if neg and isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and \
                inner.func.attr == "isin" and inner.args:
            a = _index_of(inner.args[0])
            if a in drawn and drawn[a] == frame and bound.get(a) == 1:
                pair(a, name)
            continue
        # df[m] / df[~m] for a random mask m
        if isinstance(inner, ast.Name) and inner.id in masks:
            mask_parts.setdefault((frame, inner.id), {})[neg] = name
            continue
        # idx[:k] / idx[k:] of a random permutation idx
        if frame in drawn and drawn[frame] == "<positions>" and isinstance(key, ast.Slice) \
                and key.step is None and (key.lower is None) != (key.upper is None):
            slices.setdefault(frame, {})["head" if key.lower is None else "tail"] = name
    for parts in [*mask_parts.values(), *slices.values()]:
        if len(parts) == 2:
            first, second = (parts[False], parts[True]) if False in parts else \
                (parts["head"], parts["tail"])
            pair(first, second)
    return roles


def _head_or_tail(node: ast.AST) -> tuple[str, str, str] | None:
    """(frame, bound, "head"/"tail") of `d.iloc[:104]` / `y[n_train:]` / `df.iloc[-26:]`:
    rows before or after one fixed position (an int literal or a name)."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Slice):
        return None
    sl = node.slice
    if sl.step is not None or (sl.lower is None) == (sl.upper is None):
        return None
    b = sl.upper if sl.lower is None else sl.lower
    neg = isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.USub)
    if neg:
        b = b.operand  # type: ignore[union-attr]
    if isinstance(b, ast.Name):
        bound = b.id
    elif isinstance(b, ast.Constant) and type(b.value) is int:
        bound = str(b.value)
    else:
        return None
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr == "iloc":
        base = base.value
    root = root_name(base)
    if not root:
        return None
    return root, ("-" if neg else "") + bound, "head" if sl.lower is None else "tail"


def _positional_cuts(nodes: Iterable[ast.AST]) -> set[tuple[str, str]]:
    """(frame, bound) pairs cut both ways somewhere: `d.iloc[:104]` and `d.iloc[104:]`."""
    sides: dict[tuple[str, str], set[str]] = {}
    counts: dict[str, int] = {}
    for n in nodes:
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice):
            part = _head_or_tail(n)
            if part is not None:
                sides.setdefault(part[:2], set()).add(part[2])
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            counts[name] = counts.get(name, 0) + (1 if _intish(n.value) else 2)
    # a named bound must be a count held once (n_train = 300, int(0.8 * len(df))), not a
    # label such as a date (`s[:split_date]` slices by label)
    return {k for k, v in sides.items() if len(v) == 2 and (
        k[1].lstrip("-").isdigit() or counts.get(k[1].lstrip("-")) == 1)}


def _intish(node: ast.AST) -> bool:
    """300, int(0.8 * len(df)), len(df) - 26, round(n * .75): a row count."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id in ("int", "len", "round")
    if isinstance(node, ast.BinOp):
        return all(_intish(x) or isinstance(x, ast.Constant | ast.Name) or (
            isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == "len")
                   for x in (node.left, node.right)) and (_intish(node.left) or
                                                          _intish(node.right))
    return False


def _row_source(node: ast.expr, str_lists: dict, str_vars: dict) -> str | None:
    """`df` for a row subset of df: df[:n], df.iloc[n:], df.sample(frac=.8), df.drop(idx),
    df[df.year < 2020], df.loc[mask], df.head(n)."""
    if isinstance(node, ast.Subscript):
        base = node.value
        if isinstance(base, ast.Attribute) and base.attr in ("iloc", "loc"):
            base = base.value
        sl = node.slice
        if isinstance(sl, ast.Tuple):
            sl = sl.elts[0]
        if isinstance(sl, ast.Constant) or _const_strs(sl) is not None or (
                isinstance(sl, ast.Name) and (sl.id in str_lists or sl.id in str_vars)):
            return None  # a column
        if isinstance(base, ast.Name):
            return base.id
        if isinstance(base, ast.Attribute | ast.Subscript):  # df.target[:n], df["y"][:n]
            return root_name(base)
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        base = node.func.value
        m = node.func.attr
        if m in ("copy", "reset_index") and isinstance(base, ast.Subscript | ast.Call):
            return _row_source(base, str_lists, str_vars)
        if m in ("sample", "drop", "head", "tail", "query") and isinstance(base, ast.Name):
            if m == "drop" and (_kw(node, "columns") is not None or
                                _literal(_kw(node, "axis")) in (1, "columns")):
                return None
            return base.id
    return None


_WRAPPERS = {"Series", "DataFrame", "array", "asarray", "list", "tuple", "values",
             "to_numpy", "tolist", "to_list", "dropna", "astype", "ravel", "flatten"}


def _operand_root(node: ast.AST | None) -> str | None:
    """The variable a collection expression reads: `aucs` for aucs, aucs.values,
    np.array(aucs), pd.Series(aucs), list(aucs.values()); None for anything else."""
    for _ in range(6):
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) \
                else ""
            if name not in _WRAPPERS:
                return None
            if node.args and (not isinstance(f, ast.Attribute) or name in
                              ("Series", "DataFrame", "array", "asarray")):
                node = node.args[0]
            elif isinstance(f, ast.Attribute):
                node = f.value
            else:
                return None
        else:
            return None
    return None


def _plain_var(node: ast.AST) -> str | None:
    """`y` for y, y.values, y.to_numpy(), y.ravel(): a whole variable used as a target."""
    for _ in range(4):
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("to_numpy", "ravel", "astype", "squeeze", "flatten"):
            node = node.func.value
        else:
            return None
    return None


def _y_arg(node: ast.Call) -> ast.expr | None:
    """The target argument of a fit/split/CV call, if recognisable."""
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name in ("fit", "fit_transform", "partial_fit"):
        y = _kw(node, "y")
        return y if y is not None else (node.args[1] if len(node.args) > 1 else None)
    if name in CV_FUNCS:
        y = _kw(node, "y")
        return y if y is not None else (node.args[2] if len(node.args) > 2 else None)
    if name == "train_test_split":
        arrays = [a for a in node.args if not isinstance(a, ast.Starred)]
        return arrays[1] if len(arrays) == 2 else None
    return None


def _formula_response(node: ast.Call) -> str | None:
    """The response of a model formula passed to a call (`smf.ols("y ~ x", data=df)`,
    `Model.from_formula("y ~ x", df)`), when it is a plain column name."""
    f = _kw(node, "formula")
    if f is None and node.args:
        f = node.args[0]
    if not (isinstance(f, ast.Constant) and isinstance(f.value, str)) or "~" not in f.value:
        return None
    lhs = f.value.split("~", 1)[0].strip()
    return lhs if lhs.isidentifier() else None


def _is_y_expr(node: ast.AST | None, target_cols: set[str]) -> bool:
    if node is None:
        return False
    r = root_name(node)
    if r and is_y_like(r):
        return True
    if isinstance(node, ast.Subscript):
        strs = _const_strs(node.slice)
        if strs and len(strs) == 1 and strs[0] in target_cols:
            return True
    if isinstance(node, ast.Attribute) and node.attr in target_cols:
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("to_numpy", "ravel", "astype", "reshape", "values"):
        return _is_y_expr(node.func.value, target_cols)
    if isinstance(node, ast.Attribute) and node.attr == "values":
        return _is_y_expr(node.value, target_cols)
    return False


def _looks_like_features(node: ast.AST) -> bool:
    r = root_name(node)
    if r is None:
        return False
    toks = _tokens(r)
    return bool(toks) and toks[0] in ("x", "features", "feats", "data", "df")


def _not_test_column(name: str) -> bool:
    """A results column that holds cross-validation / training / validation scores."""
    role = role_of_name(name)
    if role == "test":
        return False
    toks = _tokens(name)
    return role in ("train", "val") or "cv" in toks or "oof" in toks or "cross" in toks or (
        toks[:1] in (("in",), ("is",), ("insample",)))  # in-sample: in_mae, is_sharpe


def _key_hint(lam: ast.Lambda) -> str | None:
    for n in _walk(lam.body):
        if isinstance(n, ast.Subscript):
            strs = _const_strs(n.slice)
            if strs:
                role = role_of_name(strs[0])
                low = strs[0].lower()
                if role == "test":
                    return "test"
                if role in ("train", "val") or "cv" in _tokens(low) or "oof" in low:
                    return "not_test"
    return None


_PARSED_PRIOR: dict[str, tuple[str, int]] = {}


def prior_statements(ev: Evidence) -> tuple[list[ast.stmt], str]:
    """The earlier cells' statements and the text they were parsed from. The service keeps
    only the last part of a long notebook, which can start mid-statement: then the text is
    re-parsed from the first cell boundary ("\\n\\n") that gives valid code."""
    tree = ev.model._prior_tree
    text = ev.prior_code or ""
    if (tree is not None and tree.body) or not text.strip():
        return (tree.body if tree is not None else []), text
    known = _PARSED_PRIOR.get(text)
    if known is not None:
        start = known[1]
        try:
            return (ast.parse(text[start:]).body if start >= 0 else []), text[max(start, 0):]
        except SyntaxError:
            return [], ""
    start, pos = -1, 0
    for _ in range(50):
        pos = text.find("\n\n", pos)
        if pos < 0:
            break
        pos += 2
        try:
            body = ast.parse(text[pos:]).body
        except SyntaxError:
            continue
        start = pos
        break
    if len(_PARSED_PRIOR) > 16:
        _PARSED_PRIOR.clear()
    _PARSED_PRIOR[text] = ("", start)
    if start < 0:
        return [], ""
    return body, text[start:]


_PRIOR_CACHE: dict[str, list[tuple[frozenset, frozenset, bool]]] = {}


def _prior_index(code: str, prior: list[ast.stmt]) -> list[tuple[frozenset, frozenset, bool]]:
    """(names bound, names read, is_import) per top-level statement of the earlier cells,
    cached by their source: consecutive cells of a notebook share most of it."""
    cached = _PRIOR_CACHE.get(code)
    if cached is not None and len(cached) == len(prior):
        return cached
    index = []
    for s in prior:
        reads = frozenset(n.id for n in _walk(s) if isinstance(n, ast.Name))
        index.append((frozenset(_stmt_binds(s)), reads,
                      isinstance(s, ast.Import | ast.ImportFrom)))
    if len(_PRIOR_CACHE) > 16:
        _PRIOR_CACHE.clear()
    _PRIOR_CACHE[code] = index
    return index


# the last slice: the data flow and target_leakage both slice the same evidence's statements
_LAST_SLICE: list[tuple[list[ast.stmt], list[ast.stmt], str, list[ast.stmt]]] = []


def _slice_prior(prior: list[ast.stmt], cell: list[ast.stmt],
                 code: str = "") -> list[ast.stmt]:
    """The prior statements this cell's names depend on (transitively), in order: a long
    notebook's unrelated cells are skipped."""
    if not prior:
        return []
    for last_prior, last_cell, last_code, kept in _LAST_SLICE:
        if last_prior is prior and last_cell is cell and last_code == code:
            return list(kept)
    kept = _slice_prior_of(prior, cell, code)
    _LAST_SLICE[:] = [(prior, cell, code, kept)]
    return list(kept)


def _slice_prior_of(prior: list[ast.stmt], cell: list[ast.stmt],
                    code: str) -> list[ast.stmt]:
    index = _prior_index(code, prior) if code else [
        (frozenset(_stmt_binds(s)), frozenset(n.id for n in _walk(s)
                                              if isinstance(n, ast.Name)),
         isinstance(s, ast.Import | ast.ImportFrom)) for s in prior]
    needed: set[str] = set()
    for s in cell:
        for n in _walk(s):
            if isinstance(n, ast.Name):
                needed.add(n.id)
    keep: list[bool] = [False] * len(prior)
    for i in range(len(prior) - 1, -1, -1):
        binds, reads, is_import = index[i]
        if is_import:
            continue
        if binds & needed:
            keep[i] = True
            needed |= reads
    return [s for s, k in zip(prior, keep, strict=True) if k]


def _stmt_binds(s: ast.stmt) -> set[str]:
    out: set[str] = set()
    if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {s.name}
    for n in _walk(s):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.Subscript | ast.Attribute) and isinstance(n.ctx, ast.Store):
            r = root_name(n)
            if r:
                out.add(r)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            r = root_name(n.func.value)
            if r:
                out.add(r)  # method calls may mutate (fit, append, inplace)
    return out


def flow_of(ev: Evidence) -> Flow:
    """The data-flow analysis of this evidence, computed once and shared by the rules."""
    cached = ev.__dict__.get("_nbcritic_flow")
    if cached is None:
        cached = Flow(ev)
        ev.__dict__["_nbcritic_flow"] = cached
    return cached


_RELEVANT = re.compile(r"fit|split|cross_val|Search|score|transform|resample|corr|"
                       r"\.mean\(|\.std\(|\.min\(|\.max\(|train|test|_te\b|_tr\b")


def relevant(ev: Evidence) -> bool:
    return ev.tree is not None and bool(_RELEVANT.search(ev.code))


# -- findings ----------------------------------------------------------------------------------


_FLIPPED = {"test": "train", "train": "test"}


def _within_side(frame: frozenset, idx: frozenset) -> frozenset:
    """Rows picked from one side of a split stay on that side: `train[~train["default"]]`
    selects training rows, although the negated column of the training part reads like a
    `~train_mask` (the test rows). Drops the index's opposite-side labels of every split the
    frame is exactly one side of."""
    sides: dict[int, set[str]] = {}
    for t in frame:
        if t[0] == "split" and len(t) == 3 and t[2] in _FLIPPED:
            sides.setdefault(t[1], set()).add(t[2])
    one_side = {s: next(iter(r)) for s, r in sides.items() if len(r) == 1}
    if not one_side:
        return idx
    return frozenset(t for t in idx if not (
        t[0] == "split" and len(t) == 3 and t[1] in one_side and t[2] in _FLIPPED
        and t[2] != one_side[t[1]]))


def _flip_role(t: tuple) -> tuple:
    """The label of a negated row mask: `~is_test` picks the training rows, `~train_mask` the
    test rows."""
    if t[0] == "name" and t[1] in _FLIPPED:
        return ("name", _FLIPPED[t[1]])
    if t[0] == "split" and len(t) == 3 and t[2] in _FLIPPED:
        return ("split", t[1], _FLIPPED[t[2]])
    return t
