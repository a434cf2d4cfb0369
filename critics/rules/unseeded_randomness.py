"""A reported number that depends on unseeded randomness: it changes every time the
notebook runs, so nobody (including its author) can reproduce it.

Sources of randomness: data splitters (`train_test_split`, `ShuffleSplit`,
`KFold(shuffle=True)`, …) and stochastic estimators (random forests, boosting, k-means, MLP,
SGD, t-SNE, `LogisticRegression(solver="saga")`, …) without `random_state`; numpy's legacy
global RNG (`np.random.normal`) with no `np.random.seed` earlier in the cell or the
notebook; `np.random.default_rng()` without a seed; Python's `random` without
`random.seed`; `df.sample` without `random_state`; bootstrap and permutation resampling.

Only reported numbers count: the randomness must flow (through assignments, `fit`,
`append`, helper functions, loops) into something the cell prints, formats or displays.
Random data that only feeds a plot, or shapes (`X_train.shape`) that do not change between
runs, are not the issue. Kernel facts confirm an estimator's `random_state` is None.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..ast_cache import parents as _parents
from ..ast_cache import walk as _walk
from ..code_model import called_name as _call_last
from ..code_model import name_tokens as _tokens
from ..code_model import names_in as _names
from ..code_model import root_name as _root
from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule

SPLIT_FUNCTIONS = {"train_test_split"}
SPLIT_CLASSES_ALWAYS = {"ShuffleSplit", "StratifiedShuffleSplit", "GroupShuffleSplit",
                        "RepeatedKFold", "RepeatedStratifiedKFold"}
SPLIT_CLASSES_SHUFFLE = {"KFold", "StratifiedKFold", "GroupKFold", "StratifiedGroupKFold"}
CV_FUNCTIONS_SHUFFLE = {"learning_curve"}  # shuffle=True makes them random

ESTIMATORS_ALWAYS = {
    "RandomForestClassifier", "RandomForestRegressor", "ExtraTreesClassifier",
    "ExtraTreesRegressor", "GradientBoostingClassifier", "GradientBoostingRegressor",
    "IsolationForest", "BaggingClassifier", "BaggingRegressor", "KMeans", "MiniBatchKMeans",
    "BisectingKMeans", "GaussianMixture", "BayesianGaussianMixture", "MLPClassifier",
    "MLPRegressor", "SGDClassifier", "SGDRegressor", "SGDOneClassSVM", "Perceptron",
    "PassiveAggressiveClassifier", "PassiveAggressiveRegressor", "TSNE", "UMAP",
    "TruncatedSVD", "RandomizedSearchCV", "HalvingRandomSearchCV", "SpectralClustering",
    "SpectralEmbedding", "RandomTreesEmbedding", "AdaBoostClassifier", "AdaBoostRegressor",
    "DecisionTreeClassifier", "DecisionTreeRegressor", "ExtraTreeClassifier",
    "ExtraTreeRegressor", "LinearSVC", "LinearSVR", "RBFSampler", "Nystroem",
    "SparseRandomProjection", "GaussianRandomProjection", "FastICA",
    "LatentDirichletAllocation", "RANSACRegressor", "MDS", "MiniBatchDictionaryLearning",
}
# Estimators whose randomness depends on a parameter: (param, values that make it random)
ESTIMATORS_IF = {
    "LogisticRegression": ("solver", {"sag", "saga", "liblinear"}),
    "LogisticRegressionCV": ("solver", {"sag", "saga", "liblinear"}),
    "Ridge": ("solver", {"sag", "saga"}),
    "Lasso": ("selection", {"random"}),
    "ElasticNet": ("selection", {"random"}),
    "LassoCV": ("selection", {"random"}),
    "ElasticNetCV": ("selection", {"random"}),
    "PCA": ("svd_solver", {"randomized", "arpack"}),
    "KernelPCA": ("eigen_solver", {"randomized", "arpack"}),
    "NMF": ("init", {"random"}),
    "SVC": ("probability", {True}),
    "NuSVC": ("probability", {True}),
    "DummyClassifier": ("strategy", {"stratified", "uniform"}),
    "HistGradientBoostingClassifier": ("early_stopping", {True}),
    "HistGradientBoostingRegressor": ("early_stopping", {True}),
}
# Solvers of a convex problem with a unique optimum: random_state only orders the coordinate
# updates (liblinear's dual coordinate descent, sag/saga's sampling), so a converged fit gives
# the same model, up to the solver's tolerance, whatever the seed.
CONVEX_SOLVERS = {"LinearSVC", "LinearSVR", "LogisticRegression", "LogisticRegressionCV",
                  "Ridge"}
# Functions that draw from the global numpy RNG unless given random_state (or rng).
RANDOM_FUNCTIONS = {"bootstrap": "scipy", "permutation_test": "scipy",
                    "monte_carlo_test": "scipy", "resample": "sklearn", "shuffle": "sklearn",
                    "permutation_importance": "sklearn", "mutual_info_classif": "sklearn",
                    "mutual_info_regression": "sklearn", "permutation_test_score": "sklearn",
                    "make_classification": "sklearn", "make_regression": "sklearn",
                    "make_blobs": "sklearn", "make_moons": "sklearn",
                    "make_circles": "sklearn", "rvs": "scipy"}
NUMPY_NOT_RANDOM = {"seed", "default_rng", "RandomState", "Generator", "get_state",
                    "set_state", "SeedSequence", "PCG64", "PCG64DXSM", "MT19937", "Philox",
                    "SFC64", "BitGenerator"}
PY_RANDOM = {"random", "choice", "choices", "shuffle", "sample", "randint", "uniform", "gauss",
             "normalvariate", "randrange", "betavariate", "expovariate", "triangular",
             "lognormvariate", "vonmisesvariate", "gammavariate", "paretovariate",
             "weibullvariate", "getrandbits", "randbytes", "binomialvariate"}
GLOBAL_SEEDERS = {"seed_everything", "set_seed", "set_random_seed", "fix_seed", "seed_all",
                  "set_global_seed", "fix_seeds", "set_seeds"}

SCORE_CALLS = {
    "score", "accuracy_score", "r2_score", "roc_auc_score", "f1_score", "mean_squared_error",
    "mean_absolute_error", "root_mean_squared_error", "cross_val_score", "cross_validate",
    "silhouette_score", "log_loss", "classification_report", "precision_score",
    "recall_score", "balanced_accuracy_score", "explained_variance_score",
    "adjusted_rand_score", "average_precision_score", "matthews_corrcoef", "confusion_matrix",
    "permutation_test_score", "calinski_harabasz_score", "davies_bouldin_score",
    "brier_score_loss", "fbeta_score", "jaccard_score",
}
INFERENCE_CALLS = {
    "percentile", "quantile", "nanpercentile", "nanquantile", "bootstrap",
    "permutation_test", "ttest_ind", "ttest_rel", "ttest_1samp", "mannwhitneyu", "wilcoxon",
    "pearsonr", "spearmanr", "kendalltau", "chi2_contingency", "f_oneway", "kruskal",
    "ks_2samp", "fisher_exact", "binomtest", "conf_int", "confidence_interval",
}
SCORE_ATTRS = {"best_score_", "oob_score_", "inertia_", "pvalue", "pvalues",
               "confidence_interval"}
_REPORT_TOKENS_SCORE = {"acc", "accuracy", "score", "scores", "auc", "r2", "f1", "rmse", "mse",
                        "mae", "precision", "recall", "silhouette"}
_REPORT_TOKENS_INFERENCE = {"p", "pval", "pvalue", "ci", "lo", "hi", "lower", "upper",
                            "conf", "interval", "se", "sem", "stderr"}
RESAMPLING = {"resample", "bootstrap", "permutation_test", "permutation_test_score",
              "monte_carlo_test"}
RESAMPLING_IN_LOOPS = {"choice", "choices", "permutation", "shuffle", "integers", "randint",
                       "sample"}
# Methods that put their arguments into their receiver.
MUTATORS = {"append", "extend", "insert", "add", "update", "fit", "partial_fit", "setdefault",
            "appendleft", "put", "fit_predict", "fit_transform", "__setitem__"}
# Expressions whose value does not change between runs, whatever the randomness upstream.
INVARIANT_CALLS = {"len", "type", "isinstance", "get_params", "repr"}
INVARIANT_ATTRS = {"shape", "columns", "dtypes", "dtype", "ndim", "size", "n_features_in_",
                   "feature_names_in_", "classes_", "n_classes_", "n_splits"}


def _kw(node: ast.Call, name: str) -> ast.expr | None:
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def _literal(node: ast.AST | None, default: object = "<absent>") -> object:
    if node is None:
        return default
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError):
        return "<expr>"


def _short(ev: Evidence, node: ast.AST, limit: int) -> str:
    """Source of a call on one line, cut at `limit` characters."""
    line = ev.line(getattr(node, "lineno", 0))
    end = getattr(node, "end_lineno", None)
    col, end_col = getattr(node, "col_offset", 0), getattr(node, "end_col_offset", None)
    if end == node.lineno and end_col is not None and line.isascii():
        text = line[col:end_col]
    else:
        text = ast.unparse(node)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _is_infinite(node: ast.AST | None) -> bool:
    """`np.inf`, `math.inf`, `float("inf")`."""
    if isinstance(node, ast.Attribute) and node.attr in ("inf", "Inf", "infty"):
        return True
    return isinstance(node, ast.Call) and _call_last(node) == "float" and bool(node.args) and \
        isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() in (
            "inf", "infinity")


# -- sites ----------------------------------------------------------------------------------------


@dataclass
class _Site:
    kind: str  # split | estimator | rng
    line: int
    node: ast.Call
    what: str  # short source
    origins: set[str] = field(default_factory=set)  # names holding the randomness
    function: str | None = None
    confirmed: bool = False  # the kernel says random_state is None
    global_rng: bool = False  # depends on numpy's global RNG (a global seed would fix it)
    resampling: bool = False  # a bootstrap / permutation draw: what it feeds is inference
    earlier: bool = False  # the randomness was introduced in an earlier cell
    note: str = ""
    convex: bool = False  # a convex solver: the seed matters only if it did not converge


@dataclass
class _Seeds:
    numpy_lines: list[int]  # lines of np.random.seed(…) in this cell (0: an earlier cell)
    python_lines: list[int]
    generators: dict[str, bool]  # generator variable -> seeded


def _seeds(ev: Evidence) -> _Seeds:
    model = ev.model
    prior = _prior_seeds(ev.prior_code, model)
    np_lines = [0] if prior.numpy_lines else []
    py_lines = [0] if prior.python_lines else []
    gens = dict(prior.generators)
    _collect_seeds(((c.node, c.line) for c in model.calls), model, np_lines, py_lines)
    for a in model.assignments:
        _collect_generator(a.stmt, model, gens)
    return _Seeds(np_lines, py_lines, gens)


_PRIOR_SEEDS: dict[str, _Seeds] = {}


def _prior_seeds(prior: str, model) -> _Seeds:  # type: ignore[no-untyped-def]
    found = _PRIOR_SEEDS.get(prior)
    if found is None:
        np_lines: list[int] = []
        py_lines: list[int] = []
        gens: dict[str, bool] = {}
        if "random" in prior or "seed" in prior:
            tree = model._prior_tree  # parsed once per review by the CodeModel
            calls = [(n, 0) for n in _walk(tree) if isinstance(n, ast.Call)]
            _collect_seeds(iter(calls), model, np_lines, py_lines)
            for node in tree.body:
                _collect_generator(node, model, gens)
        found = _Seeds(np_lines, py_lines, gens)
        if len(_PRIOR_SEEDS) > 16:
            _PRIOR_SEEDS.clear()
        _PRIOR_SEEDS[prior] = found
    return found


_PRIOR_SPLITS: dict[str, dict[str, set[str]]] = {}


def _prior_splits(prior: str, tree: ast.Module) -> dict[str, set[str]]:
    """Unseeded splits at the top level of earlier cells: source of the call -> names it
    binds."""
    found = _PRIOR_SPLITS.get(prior)
    if found is None:
        found = {}
        if any(k in prior for k in ("train_test_split", "ShuffleSplit")):
            for node in tree.body:
                if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                    continue
                call = node.value
                last = _call_last(call)
                rs = _kw(call, "random_state")
                if rs is not None and _literal(rs) is not None:
                    continue
                if any(k.arg is None for k in call.keywords):
                    continue
                if (last in SPLIT_FUNCTIONS and _literal(_kw(call, "shuffle"), True)
                        is not False) or last in SPLIT_CLASSES_ALWAYS:
                    targets = {n for t in node.targets for n in _names(t)}
                    text = ast.unparse(call)
                    found[text if len(text) <= 60 else text[:59] + "…"] = targets
        if len(_PRIOR_SPLITS) > 16:
            _PRIOR_SPLITS.clear()
        _PRIOR_SPLITS[prior] = found
    return found


def _collect_seeds(calls, model, np_lines: list[int],  # type: ignore[no-untyped-def]
                   py_lines: list[int]) -> None:
    for node, line in calls:
        last = _call_last(node)
        if last not in ("seed",) and last not in GLOBAL_SEEDERS:
            continue
        name = model.dotted(node.func) or last
        seeded_arg = bool(node.args or node.keywords) and not (
            node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is None)
        if name == "numpy.random.seed" and seeded_arg:
            np_lines.append(line)
        elif name == "random.seed" and seeded_arg:
            py_lines.append(line)
        elif last in GLOBAL_SEEDERS:
            np_lines.append(line)
            py_lines.append(line)


def _collect_generator(node: ast.AST, model, gens: dict[str, bool]) -> None:  # type: ignore[no-untyped-def]
    if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(
            node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
        return
    call = node.value
    last = _call_last(call)
    if last not in ("default_rng", "RandomState", "Generator", "Random"):
        return
    name = model.dotted(call.func) or last
    if last == "Random" and not name.startswith("random."):
        return
    seeded = bool(call.args or call.keywords) and not (
        call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is None)
    gens[node.targets[0].id] = seeded


class _Finder:
    def __init__(self, ev: Evidence):
        self.ev = ev
        self.model = ev.model
        self.seeds = _seeds(ev)
        self.sites: list[_Site] = []
        for c in self.model.calls:
            site = self._site(c)
            if site is not None:
                if not site.what:
                    site.what = _short(ev, c.node, 70)
                site.function = c.function
                site.resampling = c.last in RESAMPLING or (
                    c.last in RESAMPLING_IN_LOOPS and c.loop_depth > 0) or (
                    c.last == "sample" and _literal(_kw(c.node, "replace")) is True)
                site.origins = self._origins(c, site)
                self.sites.append(site)
        self.sites += self._prior_estimators()
        self.sites += self._prior_splits()

    def _np_seeded_before(self, line: int) -> bool:
        return any(ln < line or ln == 0 for ln in self.seeds.numpy_lines)

    def _py_seeded_before(self, line: int) -> bool:
        return any(ln < line or ln == 0 for ln in self.seeds.python_lines)

    def _site(self, c) -> _Site | None:  # type: ignore[no-untyped-def]
        name = c.name or ""
        last = c.last
        short = ""  # filled in for the sites found (source text is slow to extract)
        rs = _kw(c.node, "random_state")
        unseeded = rs is None or _literal(rs) is None
        if any(k.arg is None for k in c.node.keywords):
            unseeded = False  # **params: cannot tell
        # splitters ---------------------------------------------------------------------
        if last in SPLIT_FUNCTIONS and (name.startswith("sklearn") or "." not in name) and \
                unseeded and _literal(_kw(c.node, "shuffle"), True) is not False:
            return self._global("split", c, short)
        if last in SPLIT_CLASSES_ALWAYS and unseeded:
            return self._global("split", c, short)
        if last in SPLIT_CLASSES_SHUFFLE and unseeded and _literal(_kw(c.node, "shuffle"),
                                                                   False) is True:
            return self._global("split", c, short)
        if last in CV_FUNCTIONS_SHUFFLE and unseeded and _literal(_kw(c.node, "shuffle"),
                                                                  False) is True:
            return self._global("split", c, short)
        # estimators --------------------------------------------------------------------
        if last in ESTIMATORS_ALWAYS or last in ESTIMATORS_IF:
            if not unseeded or not self._estimator_random(last, c.node, None):
                return None
            if c.method is not None and c.receiver is not None and not name.startswith(
                    ("sklearn", "umap")) and _root(c.receiver) not in self.model.aliases:
                return None  # obj.KMeans(…)? not a constructor we know
            confirmed = self._facts_confirm(c)
            if confirmed is False:
                return None  # the kernel says it is seeded (set_params, **config…)
            site = self._global("estimator", c, short)
            if site is not None:
                site.confirmed = bool(confirmed)
                site.convex = last in CONVEX_SOLVERS
            return site
        # numpy -------------------------------------------------------------------------
        generator_call = c.receiver_root in self.seeds.generators or (
            c.receiver_type or "").endswith(("Generator", "RandomState"))
        if name.startswith("numpy.random.") and name.count(".") == 2 and not generator_call \
                and last not in NUMPY_NOT_RANDOM:
            if self._np_seeded_before(c.line):
                return None
            return _Site("rng", c.line, c.node, short, global_rng=True)
        if last in ("default_rng", "RandomState") and name.startswith("numpy.random"):
            return None  # creation: its uses are the sites
        if isinstance(c.receiver, ast.Call) and _call_last(c.receiver) in (
                "default_rng", "RandomState") and not (c.receiver.args or c.receiver.keywords):
            return _Site("rng", c.line, c.node, short)  # np.random.default_rng().normal()
        if c.receiver_root in self.seeds.generators and c.receiver is not None and isinstance(
                c.receiver, ast.Name):
            if self.seeds.generators[c.receiver_root] or last in ("spawn", "bit_generator"):
                return None
            return _Site("rng", c.line, c.node, short)
        # python random ---------------------------------------------------------------
        if name.startswith("random.") and last in PY_RANDOM:
            if self._py_seeded_before(c.line):
                return None
            return _Site("rng", c.line, c.node, short)
        # pandas sample -----------------------------------------------------------------
        if c.method == "sample" and not name.startswith(("random.", "numpy.")) and unseeded \
                and c.receiver_root not in self.seeds.generators \
                and c.receiver_root not in self.model.aliases:  # pm.sample(), not df.sample()
            return self._global("rng", c, short)
        # scipy / sklearn resampling ---------------------------------------------------
        if last in RANDOM_FUNCTIONS:
            lib = RANDOM_FUNCTIONS[last]
            if last in ("shuffle", "resample") and not name.startswith("sklearn"):
                return None
            if lib == "scipy" and not (name.startswith("scipy") or last == "rvs" or "." not in
                                       name):
                return None
            if not unseeded or (_kw(c.node, "rng") is not None and _literal(
                    _kw(c.node, "rng")) is not None):
                return None
            if _is_infinite(_kw(c.node, "n_resamples")):
                return None  # permutation_test(..., n_resamples=np.inf): exact, no draws
            return self._global("rng", c, short)
        return None

    def _global(self, kind: str, c, short: str) -> _Site | None:  # type: ignore[no-untyped-def]
        """Sites drawing from numpy's global RNG when random_state is None: a global seed
        earlier in the cell or notebook makes them reproducible."""
        if self._np_seeded_before(c.line):
            return None
        return _Site(kind, c.line, c.node, short, global_rng=True)

    def _estimator_random(self, cls: str, node: ast.Call, params: dict | None) -> bool:
        if cls in ESTIMATORS_ALWAYS:
            return True
        param, values = ESTIMATORS_IF[cls]
        value = _literal(_kw(node, param)) if node is not None else "<absent>"
        if params is not None and param in params:
            value = params[param]
        if value == "<absent>":
            return False
        return value in values

    def _facts_confirm(self, c) -> bool | None:  # type: ignore[no-untyped-def]
        """True/False when the kernel reports the estimator's random_state (None or not);
        None when it has nothing to say."""
        if len(c.targets) != 1:
            return None
        facts = self.ev.objects.get(c.targets[0])
        if facts and facts.kind == "estimator" and "random_state" in facts.params and \
                facts.type.endswith("." + c.last):
            return facts.params["random_state"] is None
        return None

    def _prior_estimators(self) -> list[_Site]:
        """Estimators built in an earlier cell with random_state=None that this cell
        (re)fits: its score changes on every run of this cell."""
        out: list[_Site] = []
        built_here = {t for s in self.sites if s.kind == "estimator" for t in s.origins}
        for name, facts in self.ev.objects.items():
            if facts.kind != "estimator" or name in built_here:
                continue
            cls = facts.type.rsplit(".", 1)[-1]
            if cls not in ESTIMATORS_ALWAYS and cls not in ESTIMATORS_IF:
                continue
            if "random_state" not in facts.params or facts.params["random_state"] is not None:
                continue
            if any(a.targets == [name] for a in self.model.assignments):
                continue
            if cls in ESTIMATORS_IF and not self._estimator_random(cls, None, facts.params):
                continue
            if self._np_seeded_before(10**9):
                continue
            for c in self.model.calls:
                refit = (c.receiver_root == name and c.method in (
                    "fit", "fit_predict", "fit_transform")) or (
                    c.last in ("cross_val_score", "cross_validate", "cross_val_predict")
                    and c.node.args and isinstance(c.node.args[0], ast.Name)
                    and c.node.args[0].id == name)
                if refit:
                    src = _short(self.ev, c.node, 50)
                    site = _Site("estimator", c.line, c.node, src, confirmed=True,
                                 global_rng=True, earlier=True,
                                 note=f"refits `{name}`, a {cls} built with "
                                 "`random_state=None`", convex=cls in CONVEX_SOLVERS)
                    site.origins = {name} | set(c.targets)
                    site.function = c.function
                    out.append(site)
                    break
        return out

    def _prior_splits(self) -> list[_Site]:
        """An unseeded split in an earlier cell whose parts this cell uses: the score it
        reports changes with every run of the notebook."""
        if self._np_seeded_before(10**9):
            return []
        splits = _prior_splits(self.ev.prior_code, self.model._prior_tree)
        if not splits:
            return []
        rebound = {t for a in self.model.assignments for t in a.targets}
        loaded = set(self.model.loaded_names)
        for what, targets in splits.items():
            used = (targets & loaded) - rebound
            first = next((c for c in self.model.calls if _names(c.node) & used), None)
            if first is None:
                continue
            site = _Site("split", first.line, first.node, what, global_rng=True,
                         earlier=True, note="its parts `" + "`, `".join(sorted(used)[:4])
                         + "` are used")
            site.origins = used
            return [site]
        return []

    def _origins(self, c, site: _Site) -> set[str]:  # type: ignore[no-untyped-def]
        names = set(c.targets)
        st = c.stmt
        if isinstance(st, ast.For | ast.AsyncFor) and any(n is c.node for n in _walk(
                st.iter)):
            names |= _names(st.target)  # for tr, te in ShuffleSplit().split(X)
        elif isinstance(st, ast.With):
            names |= {n for item in st.items if item.optional_vars is not None
                      for n in _names(item.optional_vars)}
        elif isinstance(st, ast.Assign | ast.AugAssign | ast.AnnAssign):
            # `boot[b] = np.median(np.random.choice(x, n))`, `res.loc[i] = …`, `acc[k] += …`:
            # the draw is written into the container the item belongs to
            stack = list(st.targets) if isinstance(st, ast.Assign) else [st.target]
            while stack:
                t = stack.pop()
                if isinstance(t, ast.Tuple | ast.List):
                    stack += t.elts
                elif isinstance(t, ast.Subscript | ast.Attribute | ast.Starred):
                    r = _root(t)
                    if r:
                        names.add(r)
        if c.last == "shuffle" and c.node.args:  # np.random.shuffle(x) shuffles x in place
            r = _root(c.node.args[0])
            if r:
                names.add(r)
        if site.kind == "rng" and c.receiver_root in self.seeds.generators:
            names.add(c.receiver_root)
        return names


# -- flow into what the cell reports ---------------------------------------------------------------


def _tainted(ev: Evidence, sites: list[_Site]) -> set[str]:
    model = ev.model
    tainted: set[str] = set()
    for s in sites:
        tainted |= s.origins
    functions = {s.function for s in sites if s.function}
    extra: set[str] = set()
    for c in model.calls:
        if c.name in functions or (c.name and c.name.rsplit(".", 1)[-1] in functions
                                   and c.method is None):
            extra |= set(c.targets)
    tainted |= extra
    mutations = []
    for c in model.calls:
        if c.receiver_root and c.method in MUTATORS and c.receiver_root not in model.aliases:
            mutations.append((c.receiver_root, _names(c.node) - {c.receiver_root}))
    assigns = [(set(a.targets), a.loaded) for a in model.assignments]
    if any(s.resampling for s in sites) and ev.tree is not None:
        assigns += _guarded(ev, model)
    # inline sites inside assignments: `scores = cross_val_score(RandomForestClassifier(), …)`
    changed = True
    while changed:
        changed = False
        for targets, loaded in assigns:
            if loaded & tainted and not targets <= tainted:
                tainted |= targets
                changed = True
        for recv, used in mutations:
            if recv not in tainted and used & tainted:
                tainted.add(recv)
                changed = True
    return tainted


def _guarded(ev: Evidence, model) -> list[tuple[set[str], set[str]]]:  # type: ignore[no-untyped-def]
    """Assignments made only when a condition holds: `if stat >= obs: hits += 1` inside a
    permutation loop makes `hits` depend on the shuffled data although no value flows."""
    out: list[tuple[set[str], set[str]]] = []
    parent = None
    for a in model.assignments:
        if not a.targets or (a.value is None and not isinstance(a.stmt, ast.AugAssign)):
            continue
        if parent is None:
            parent = _parents(ev.tree)
        cond: set[str] = set()
        node: ast.AST = a.stmt
        for _ in range(12):
            up = parent.get(id(node))
            if up is None or isinstance(up, ast.Module | ast.FunctionDef | ast.Lambda):
                break
            if isinstance(up, ast.If | ast.While) and node is not up.test:
                cond |= _names(up.test)
            node = up
        if cond:
            out.append((set(a.targets), cond))
    return out


def _strip_invariant(node: ast.AST) -> set[str]:
    """Names an expression's value depends on, ignoring len(), .shape and the like."""
    out: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Call) and _call_last(n) in INVARIANT_CALLS:
            continue
        if isinstance(n, ast.Attribute) and n.attr in INVARIANT_ATTRS:
            continue
        if isinstance(n, ast.Name):
            out.add(n.id)
        stack += list(ast.iter_child_nodes(n))
    return out


@dataclass
class _Reported:
    expr: ast.expr
    ids: set[int]  # every node inside
    names: set[str]  # names its value depends on (len(), .shape… ignored)
    skip: bool  # a displayed sample of rows or an estimator's repr: no number


def _report_info(ev: Evidence) -> list[_Reported]:
    out: list[_Reported] = []
    for expr in ev.model.reported_exprs:
        if isinstance(expr, ast.Call) and _call_last(expr) in ("print", "display"):
            continue  # its arguments are reported expressions of their own
        skip = _shows_rows_only(ev, expr)
        if isinstance(expr, ast.Name):
            facts = ev.objects.get(expr.id)
            skip = skip or bool(facts and facts.kind == "estimator")
        out.append(_Reported(expr, {id(n) for n in _walk(expr)}, _strip_invariant(expr),
                             skip))
    return out


def _reported_uses(scan: _Scan, sites: list[_Site], tainted: set[str]) -> list[ast.expr]:
    site_nodes = {id(s.node) for s in sites}
    used: list[ast.expr] = []
    for r in scan.reports:
        if r.skip:
            continue
        if r.ids & site_nodes or r.names & tainted:
            used.append(r.expr)
    return used


def _shows_rows_only(ev: Evidence, expr: ast.expr) -> bool:
    """`df.sample(5)` or `df.sample(5).head()` displayed: a peek at the data, no number."""
    node = expr
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("head", "tail", "reset_index"):
        node = node.func.value
    if isinstance(node, ast.Call) and _call_last(node) == "sample":
        return True
    if isinstance(node, ast.Name):
        for a in ev.model.assigned_at(node.id):
            v = a.value
            if isinstance(v, ast.Call) and _call_last(v) == "sample":
                facts = ev.objects.get(node.id)
                return facts is None or facts.kind == "dataframe"
    return False


def _reported_kind(ev: Evidence, uses: list[ast.expr], tainted: set[str]) -> str | None:
    """'score' or 'inference' when what is reported is a model score or a p-value / CI."""
    model = ev.model
    assigns: dict[str, list[ast.AST]] = {}
    for a in model.assignments:
        if a.value is not None:
            for t in a.targets:
                assigns.setdefault(t, []).append(a.value)
    seen: set[int] = set()
    stack: list[tuple[ast.AST, int]] = [(u, 0) for u in uses]
    kind = None
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for sub in _walk(node):
            if isinstance(sub, ast.Call):
                last = _call_last(sub)
                if last in SCORE_CALLS:
                    return "score"
                if last in INFERENCE_CALLS:
                    kind = "inference"
            elif isinstance(sub, ast.Attribute) and sub.attr in SCORE_ATTRS:
                if sub.attr in ("pvalue", "pvalues", "confidence_interval"):
                    kind = "inference"
                else:
                    return "score"
            elif isinstance(sub, ast.Name) and sub.id in tainted:
                toks = set(_tokens(sub.id))
                if toks & _REPORT_TOKENS_SCORE:
                    return "score"
                if toks & _REPORT_TOKENS_INFERENCE:
                    kind = "inference"
                if depth < 4:
                    stack += [(v, depth + 1) for v in assigns.get(sub.id, [])]
    return kind


# -- findings --------------------------------------------------------------------------------------


@dataclass
class _Scan:
    sites: list[_Site]
    reports: list[_Reported]


_CACHE: list[tuple[weakref.ref, _Scan]] = []


def _scan(ev: Evidence) -> _Scan:
    for ref, scan in _CACHE:
        if ref() is ev:
            return scan
    finder = _Finder(ev) if ev.tree is not None else None
    sites = finder.sites if finder else []
    scan = _Scan(sites, _report_info(ev) if sites else [])
    _CACHE[:] = [(weakref.ref(ev), scan)]
    return scan


_SUGGEST = {
    "split": "Pass `random_state=<int>` to the splitter (`train_test_split(..., "
             "random_state=0)`, `KFold(5, shuffle=True, random_state=0)`), or report the "
             "spread over several seeds / repeated CV rather than one draw.",
    "estimator": "Pass `random_state=<int>` to the estimator (and to any search or "
                 "splitter), or report the mean and spread over several seeds.",
    "rng": "Seed the randomness: `rng = np.random.default_rng(0)` and draw from `rng` "
           "(or `random_state=0` for `df.sample`, `scipy.stats.bootstrap`, `resample`); "
           "for a bootstrap/permutation result also say how many resamples were drawn.",
}
_WHAT = {
    "split": "splits the data at random without a seed",
    "estimator": "fits a stochastic estimator without `random_state`",
    "rng": "draws random numbers without a seed",
}
_EARLIER = {
    "split": "the data were split at random without a seed in an earlier cell",
    "estimator": "a stochastic estimator built without `random_state` in an earlier cell is "
                 "refit",
    "rng": "random numbers are drawn without a seed",
}


def _findings(ev: Evidence, kind: str) -> Iterator[Finding]:
    scan = _scan(ev)
    mine = [s for s in scan.sites if s.kind == kind]
    if not mine:
        return
    tainted_mine = _tainted(ev, mine)
    uses = _reported_uses(scan, mine, tainted_mine)
    if not uses:
        return
    reported = _reported_kind(ev, uses, tainted_mine)
    if reported is None and any(s.resampling for s in mine):
        reported = "inference"  # a bootstrap / permutation summary is an uncertainty estimate
    severity = "high" if reported in ("score", "inference") else "medium"
    confirmed = any(s.confirmed for s in mine)
    conf = 0.8 if confirmed else 0.7
    if any(s.global_rng for s in mine) and not ev.prior_code.strip():
        conf -= 0.1  # an earlier cell we cannot see may have called np.random.seed
    convex_only = all(s.convex for s in mine) and not any(
        w.category == "ConvergenceWarning" for w in ev.warnings)
    if convex_only:
        severity, conf = "low", 0.3
    seen: set[str] = set()
    listed = []
    for s in mine:
        if s.what not in seen:
            seen.add(s.what)
            listed.append(f"`{s.what}` in an earlier cell, {s.note} on line {s.line}"
                          if s.earlier and s.kind == "split" else
                          f"line {s.line}: `{s.what}` {s.note}" if s.note else
                          f"line {s.line}: `{s.what}`")
    shown = "; ".join(listed[:4]) + (f"; and {len(listed) - 4} more" if len(listed) > 4 else "")
    use_lines = sorted({getattr(u, "lineno", 0) for u in uses} - {0})
    result = {"score": "A model score", "inference": "A p-value / confidence interval"}.get(
        reported or "", "A reported number")
    what = _EARLIER[kind] if all(s.earlier for s in mine) else f"the cell {_WHAT[kind]}"
    expl = (f"{result} printed on line{'s' if len(use_lines) > 1 else ''} "
            f"{', '.join(map(str, use_lines))} depends on unseeded randomness: {what} "
            f"({shown}). Re-running the notebook gives a different value, so the result "
            "cannot be reproduced.")
    if confirmed:
        expl += " The kernel confirms `random_state=None`."
    if convex_only:
        expl = (f"{result} printed on line{'s' if len(use_lines) > 1 else ''} "
                f"{', '.join(map(str, use_lines))} comes from a convex solver fitted without "
                f"`random_state` ({shown}). The seed only orders the solver's updates and the "
                "fit converged (no ConvergenceWarning), so the result changes at most within "
                "the solver's tolerance; seed it anyway for bit-for-bit reproducibility.")
    yield Finding(explanation=expl, severity=severity, confidence=conf,
                  evidence={"lines": sorted({s.line for s in mine} | set(use_lines)),
                            "values": {"random_state": None} if confirmed else {}},
                  suggestion=_SUGGEST[kind])


@rule("unseeded_randomness.unseeded_split",
      title="Reported result depends on an unseeded train/test split or shuffled CV")
def unseeded_split(ev: Evidence) -> Iterator[Finding]:
    """`train_test_split`, `ShuffleSplit`, `KFold(shuffle=True)`… without `random_state`,
    feeding a printed score."""
    yield from _findings(ev, "split")


@rule("unseeded_randomness.unseeded_estimator",
      title="Reported result depends on a stochastic estimator without random_state")
def unseeded_estimator(ev: Evidence) -> Iterator[Finding]:
    """Random forests, boosting, k-means, MLP, SGD, t-SNE, saga-solved logistic regression…
    fit without `random_state`, feeding a printed result."""
    yield from _findings(ev, "estimator")


@rule("unseeded_randomness.unseeded_rng",
      title="Reported result depends on unseeded random draws")
def unseeded_rng(ev: Evidence) -> Iterator[Finding]:
    """numpy's global RNG without `np.random.seed`, `default_rng()` without a seed, Python's
    `random` without `random.seed`, `df.sample` / bootstrap / permutation resampling without
    `random_state`, feeding a printed result."""
    yield from _findings(ev, "rng")


# --- from the analysis trace: the draws that actually happened -------------------------------
_RESULTS = ("fit", "fit_transform", "score", "metric", "test", "summary", "cross_validate",
            "model_fit", "predict")


def _result_after(t: Any, source: dict[str, Any]) -> bool:
    """Something computed from the draw follows it in the cell (a fit, score, test...)."""
    events = t.events
    return any(e.get("op") in _RESULTS for e in events[events.index(source) + 1:])

@rule("unseeded_randomness.draws_ran_unseeded",
      title="A reported result depends on random draws that were never seeded")
def draws_ran_unseeded(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: numpy's global generator drawn from with no `np.random.seed` ever
    run in this kernel, a `default_rng()` made without a seed, a shuffled split or a
    randomized estimator with `random_state=None`, in a cell that reports something."""
    from ..thresholds import section

    t = ev.trace
    if not ev.text.strip() or t.seeded:
        return
    words = section("unseeded_randomness")["randomized_estimators"]
    sources = [e for e in t.of("draw") if not e.get("seeded")]
    sources += [e for e in t.of("rng") if e.get("seeded") is False]
    sources += [e for e in t.of("split") if e.get("shuffle") and e.get("random_state") is None
                and _result_after(t, e)]  # shapes of a random split do not vary
    sources += [e for e in t.of("fit", "fit_transform", "fit_predict")
                if "random_state" in e and e["random_state"] is None
                and any(w in str(e.get("est", "")) for w in words)]
    if not sources:
        return
    first = sources[0]
    what = first.get("func") or first.get("est") or first["op"]
    more = f" and {len(sources) - 1} more" if len(sources) > 1 else ""
    yield Finding(
        explanation=(f"The cell reports results that depend on random draws ({what}, line "
                     f"{first.get('line')}{more}) and no seed was ever set: run it again and "
                     "the numbers change."),
        severity="high", confidence=0.8,
        evidence={"lines": sorted({e["line"] for e in sources if isinstance(e.get("line"), int)}),
                  "values": {"sources": len(sources)}},
        suggestion="Seed every source of randomness: `rng = np.random.default_rng(42)` and "
                   "draw from it, `random_state=42` on splits and estimators.")
