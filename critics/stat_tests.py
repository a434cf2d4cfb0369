"""The statistical tests the critic knows, and which of their arguments are samples.

Used twice: the service asks the kernel about exactly these arguments after a cell ran
(`SampleFacts`), and the rules read what kind of test was called.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .ast_cache import walk as _walk
from .code_model import CallSite, CodeModel


@dataclass(frozen=True)
class StatTest:
    kind: str  # "independent" | "paired" | "one_sample" | "correlation" | "normality" | …
    parametric: bool
    samples: tuple[int | str, ...] = (0, 1)  # positions or keywords of sample arguments
    variadic: bool = False  # every positional argument is a sample (f_oneway(*groups))


TESTS: dict[str, StatTest] = {
    # scipy.stats
    "scipy.stats.ttest_ind": StatTest("independent", True, (0, 1, "a", "b")),
    "scipy.stats.ttest_rel": StatTest("paired", True, (0, 1, "a", "b")),
    "scipy.stats.ttest_1samp": StatTest("one_sample", True, (0, "a")),
    "scipy.stats.mannwhitneyu": StatTest("independent", False, (0, 1, "x", "y")),
    "scipy.stats.ranksums": StatTest("independent", False, (0, 1, "x", "y")),
    "scipy.stats.wilcoxon": StatTest("paired", False, (0, 1, "x", "y")),
    "scipy.stats.ks_2samp": StatTest("independent", False, (0, 1, "data1", "data2")),
    "scipy.stats.brunnermunzel": StatTest("independent", False, (0, 1, "x", "y")),
    "scipy.stats.permutation_test": StatTest("resampling", False, ()),
    "scipy.stats.f_oneway": StatTest("anova", True, (), variadic=True),
    "scipy.stats.kruskal": StatTest("anova", False, (), variadic=True),
    "scipy.stats.friedmanchisquare": StatTest("repeated", False, (), variadic=True),
    "scipy.stats.alexandergovern": StatTest("anova", True, (), variadic=True),
    "scipy.stats.pearsonr": StatTest("correlation", True, (0, 1, "x", "y")),
    "scipy.stats.spearmanr": StatTest("correlation", False, (0, 1, "a", "b")),
    "scipy.stats.kendalltau": StatTest("correlation", False, (0, 1, "x", "y")),
    "scipy.stats.pointbiserialr": StatTest("correlation", True, (0, 1, "x", "y")),
    "scipy.stats.chi2_contingency": StatTest("contingency", False, ()),
    "scipy.stats.chisquare": StatTest("goodness_of_fit", False, ()),
    "scipy.stats.fisher_exact": StatTest("contingency", False, ()),
    "scipy.stats.binomtest": StatTest("one_sample", False, ()),
    "scipy.stats.shapiro": StatTest("normality", False, (0, "x")),
    "scipy.stats.normaltest": StatTest("normality", False, (0, "a")),
    "scipy.stats.levene": StatTest("variance", False, (), variadic=True),
    "scipy.stats.bartlett": StatTest("variance", True, (), variadic=True),
    "scipy.stats.ttest_ind_from_stats": StatTest("independent", True, ()),
    "scipy.stats.linregress": StatTest("regression", True, (0, 1, "x", "y")),
    "scipy.stats.somersd": StatTest("correlation", False, (0, 1, "x", "y")),
    "scipy.stats.weightedtau": StatTest("correlation", False, (0, 1, "x", "y")),
    "scipy.stats.median_test": StatTest("anova", False, (), variadic=True),
    "scipy.stats.anderson_ksamp": StatTest("independent", False, ()),
    "scipy.stats.cramervonmises_2samp": StatTest("independent", False, (0, 1, "x", "y")),
    "scipy.stats.epps_singleton_2samp": StatTest("independent", False, (0, 1, "x", "y")),
    "scipy.stats.barnard_exact": StatTest("contingency", False, ()),
    "scipy.stats.boschloo_exact": StatTest("contingency", False, ()),
    "scipy.stats.fligner": StatTest("variance", False, (), variadic=True),
    "scipy.stats.anderson": StatTest("normality", False, (0, "x")),
    "scipy.stats.jarque_bera": StatTest("normality", False, (0, "x")),
    "scipy.stats.kstest": StatTest("goodness_of_fit", False, ()),
    # post-hoc procedures that control the family-wise error rate themselves
    "scipy.stats.tukey_hsd": StatTest("posthoc", True, (), variadic=True),
    "scipy.stats.dunnett": StatTest("posthoc", True, ()),
    # statsmodels
    "statsmodels.stats.weightstats.ttest_ind": StatTest("independent", True, (0, 1, "x1", "x2")),
    "statsmodels.stats.weightstats.ztest": StatTest("independent", True, (0, 1, "x1", "x2")),
    "statsmodels.stats.proportion.proportions_ztest": StatTest(
        "proportion", True, (0, 1, "count", "nobs")),  # counts and trials: their sizes
    "statsmodels.stats.proportion.proportions_chisquare": StatTest("proportion", False, ()),
    # an interval, not a test: listed so the kernel reads its counts (Wald with few events)
    "statsmodels.stats.proportion.proportion_confint": StatTest(
        "interval", True, (0, 1, "count", "nobs")),
    "statsmodels.stats.contingency_tables.mcnemar": StatTest("contingency", False, ()),
    "statsmodels.stats.multicomp.pairwise_tukeyhsd": StatTest("posthoc", True, (0, "endog")),
    # pingouin (data-frame tests carry no sample arguments)
    "pingouin.ttest": StatTest("independent", True, (0, 1, "x", "y")),  # paired=True: paired
    "pingouin.mwu": StatTest("independent", False, (0, 1, "x", "y")),
    "pingouin.wilcoxon": StatTest("paired", False, (0, 1, "x", "y")),
    "pingouin.corr": StatTest("correlation", True, (0, 1, "x", "y")),  # method= may change it
    "pingouin.anova": StatTest("anova", True, ()),
    "pingouin.welch_anova": StatTest("anova", True, ()),
    "pingouin.kruskal": StatTest("anova", False, ()),
    "pingouin.rm_anova": StatTest("repeated", True, ()),
    "pingouin.mixed_anova": StatTest("repeated", True, ()),
    "pingouin.friedman": StatTest("repeated", False, ()),
    "pingouin.pairwise_tests": StatTest("pairwise", True, ()),
    "pingouin.pairwise_ttests": StatTest("pairwise", True, ()),
    "pingouin.pairwise_tukey": StatTest("posthoc", True, ()),
    "pingouin.normality": StatTest("normality", False, ()),
    "pingouin.homoscedasticity": StatTest("variance", False, ()),
}

# Not tests: straight-line fits and correlation coefficients whose (x, y) samples the kernel
# reads all the same (how the pooled relation splits within and between groups). The
# planner asks about them through `stat_test_of`; `test_calls` (what the rules count as
# tests) leaves them out.
PROBES: dict[str, StatTest] = {
    "numpy.polyfit": StatTest("probe", True, (0, 1, "x", "y")),  # deg=1 only
    "numpy.corrcoef": StatTest("probe", True, (0, 1, "x", "y")),  # two 1-D samples only
    "pandas.Series.corr": StatTest("probe", True, ("receiver", 0, "other")),  # a.corr(b)
    "pandas.DataFrame.corr": StatTest("probe", True, ("columns",)),  # df[["a", "b"]].corr()
    # the sample behind a confidence interval of its mean: `t.interval(..., scale=sem(x))`,
    # `DescrStatsW(x).tconfint_mean()`, `zconfint(x)` (is it small and skewed?)
    "scipy.stats.sem": StatTest("probe", True, (0, "a")),
    "statsmodels.stats.weightstats.DescrStatsW": StatTest("probe", True, (0, "data")),
    "statsmodels.stats.weightstats.zconfint": StatTest("probe", True, (0, "x1")),
}
# probes matched on their resolved name alone
_NAMED_PROBES = frozenset({"scipy.stats.sem", "statsmodels.stats.weightstats.DescrStatsW",
                           "statsmodels.stats.weightstats.zconfint"})

# Kinds that check a test's assumptions rather than test a hypothesis of the analysis.
ASSUMPTION_KINDS = frozenset({"normality", "variance"})
# Kinds that are not hypothesis tests of the analysis at all (confidence intervals).
NOT_A_TEST_KINDS = ASSUMPTION_KINDS | {"interval"}

# Module paths under which the same functions are commonly reached.
_ALIASES = {
    "scipy.stats.stats.": "scipy.stats.",
    "statsmodels.api.stats.": "statsmodels.stats.weightstats.",
    "statsmodels.stats.api.": "statsmodels.stats.weightstats.",
    "scipy.stats.contingency.": "scipy.stats.",
    "scipy.stats._stats_py.": "scipy.stats.",
    "pingouin.parametric.": "pingouin.",
    "pingouin.nonparametric.": "pingouin.",
    "pingouin.correlation.": "pingouin.",
}


def stat_test_of(call: CallSite) -> tuple[str, StatTest] | None:
    """The known test this call is, matched on its resolved name (or, for an unresolved
    `ttest_ind(...)` imported in a way we could not follow, its bare name)."""
    name = call.name or ""
    probe = _probe_of(call)
    if probe is not None:
        return probe
    for prefix, canonical in _ALIASES.items():
        if name.startswith(prefix):
            name = canonical + name[len(prefix):]
    if name in TESTS:
        return name, TESTS[name]
    top = name.split(".", 1)[0]
    if top in ("statsmodels", "pingouin"):  # sm.stats.multipletests, pg.parametric.ttest
        return _BY_LAST.get((top, name.rsplit(".", 1)[-1]))
    if name.startswith("scipy.stats.") or not call.name or "." not in call.name:
        return _BY_LAST.get(("scipy", call.last))
    return None


def _probe_of(call: CallSite) -> tuple[str, StatTest] | None:
    name = call.name or ""
    for prefix, canonical in _ALIASES.items():
        if name.startswith(prefix) and canonical + name[len(prefix):] in _NAMED_PROBES:
            name = canonical + name[len(prefix):]
    if name in _NAMED_PROBES:
        return name, PROBES[name]
    if name == "numpy.polyfit":
        deg = call.arg(2, "deg")
        if isinstance(deg, ast.Constant) and deg.value == 1:
            return name, PROBES[name]
        return None
    if name == "numpy.corrcoef":
        if call.arg(1, "y") is not None and len(call.node.args) <= 2:
            return name, PROBES[name]
        return None
    if call.method != "corr" or call.receiver is None or name.startswith(
            ("pingouin", "numpy", "scipy", "statsmodels", "polars")):
        return None
    other = call.arg(0, "other")
    if other is not None:
        if isinstance(other, ast.Constant):  # df.corr("spearman")
            return None
        return "pandas.Series.corr", PROBES["pandas.Series.corr"]
    if _two_columns(call.receiver) is not None:
        return "pandas.DataFrame.corr", PROBES["pandas.DataFrame.corr"]
    return None


def _two_columns(node: ast.AST | None) -> tuple[ast.expr, ast.Constant, ast.Constant] | None:
    """`df[["a", "b"]]` -> (df, "a", "b")."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.List | ast.Tuple) and \
            len(node.slice.elts) == 2 and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str)
                for e in node.slice.elts):
        a, b = node.slice.elts
        return node.value, a, b  # type: ignore[return-value]
    return None


# (package, last component) -> the first TESTS entry with that last name
_BY_LAST: dict[tuple[str, str], tuple[str, StatTest]] = {}
for _full, _spec in TESTS.items():
    _BY_LAST.setdefault((_full.split(".", 1)[0], _full.rsplit(".", 1)[-1]), (_full, _spec))


def sample_args(call: CallSite, spec: StatTest) -> list[tuple[int | str, ast.expr]]:
    """(position or keyword, expression) of each sample argument actually passed."""
    out: list[tuple[int | str, ast.expr]] = []
    if spec.variadic:
        return [(i, a) for i, a in enumerate(call.node.args) if not isinstance(a, ast.Starred)]
    if spec.samples == ("receiver", 0, "other"):  # a.corr(b): the receiver and the other
        other = call.arg(0, "other")
        if call.receiver is not None and other is not None:
            out = [(0, call.receiver), (1, other)]
    elif spec.samples == ("columns",):  # df[["a", "b"]].corr(): the two columns
        found = _two_columns(call.receiver)
        if found is not None:
            frame, a, b = found
            out = [(i, _located(ast.Subscript(value=frame, slice=col, ctx=ast.Load()), col))
                   for i, col in enumerate((a, b))]
    else:
        for slot in spec.samples:
            node = call.arg(slot) if isinstance(slot, int) else call.kwarg(slot)
            if node is not None:
                out.append((slot, node))
    return [(slot, resolve_sample(call, node)) for slot, node in out]


def starred_groups(call: CallSite) -> ast.expr | None:
    """The grouped column a variadic test unpacks from a groupby, as one expression the
    kernel can evaluate to a SeriesGroupBy: `f_oneway(*[g["y"].values for _, g in
    df.groupby("site")])`, `f_oneway(*(s for _, s in df.groupby("site")["y"]))` and
    `f_oneway(*df.groupby("site")["y"].apply(np.asarray))` all give
    `df.groupby("site")["y"]`. None for any other starred argument."""
    star = next((a for a in call.node.args if isinstance(a, ast.Starred)), None)
    if star is None or len(call.node.args) != 1:
        return None
    value = star.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
            value.func.attr in ("apply", "agg") and _grouped_column(value.func.value):
        return value.func.value
    if not (isinstance(value, ast.ListComp | ast.GeneratorExp) and len(value.generators) == 1):
        return None
    gen = value.generators[0]
    if gen.ifs or not (isinstance(gen.target, ast.Tuple) and len(gen.target.elts) == 2
                       and isinstance(gen.target.elts[1], ast.Name)):
        return None
    item, elt = gen.target.elts[1].id, value.elt
    while (isinstance(elt, ast.Attribute) and elt.attr in ("values", "array")) or (
            isinstance(elt, ast.Call) and isinstance(elt.func, ast.Attribute)
            and elt.func.attr in ("to_numpy", "dropna") and not elt.args):
        elt = elt.value if isinstance(elt, ast.Attribute) else elt.func.value  # type: ignore
    if isinstance(elt, ast.Name) and elt.id == item and _grouped_column(gen.iter):
        return gen.iter  # for _, s in df.groupby(k)["y"]: s
    if isinstance(elt, ast.Subscript | ast.Attribute) and isinstance(
            elt.value, ast.Name) and elt.value.id == item and _is_groupby(gen.iter):
        column = elt.slice if isinstance(elt, ast.Subscript) else ast.Constant(elt.attr)
        if isinstance(column, ast.Constant) and isinstance(column.value, str):
            return ast.Subscript(value=gen.iter, slice=column, ctx=ast.Load())
    return None


def _is_groupby(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr == "groupby"


def _grouped_column(node: ast.AST) -> bool:
    """`df.groupby(k)["y"]` or `df.groupby(k).y`."""
    return isinstance(node, ast.Subscript | ast.Attribute) and _is_groupby(node.value) and (
        isinstance(node, ast.Attribute) or (isinstance(node.slice, ast.Constant)
                                            and isinstance(node.slice.value, str)))


# -- reading a sample through `.pipe(lambda d: ...)` and `.assign(...)` -------------------------

def resolve_sample(call: CallSite, node: ast.expr) -> ast.expr:
    """The sample expression with what it reads spelled out, so that the kernel can
    re-evaluate it outside the call's scope: the parameter of an enclosing
    `frame.pipe(lambda d: ...)` becomes the receiver (`frame`), and a column that
    `frame.assign(k=expr)` adds is read as `expr` (`frame.assign(k=np.log(frame.x)).k` ->
    `np.log(frame.x)`; other columns of the assigned frame as `frame.col`). Unchanged when
    nothing applies. A rewritten node keeps its start position but not its end, so its
    source text is rendered from the tree (`ast.unparse`)."""
    params = _pipe_params(call)
    if not params and not any(_assign_call(n) is not None for n in _walk(node)):
        return node
    new = node
    for param, receiver in params:  # innermost first: a receiver is in the outer scope
        new = _Substitute({param: receiver}).visit(_copy(new))
    new = _Unassign().visit(_copy(new))
    if ast.dump(new) == ast.dump(node):
        return node
    return _located(new, node)


def _located(new: ast.expr, like: ast.AST) -> ast.expr:
    new.lineno = getattr(like, "lineno", 1)
    new.col_offset = getattr(like, "col_offset", 0)
    new.end_lineno = None
    new.end_col_offset = None
    return new


def _copy(node: ast.expr) -> ast.expr:
    """A copy for the transformers to edit: the cell's own tree is never mutated."""
    import copy

    return copy.deepcopy(node)


def _pipe_params(call: CallSite) -> list[tuple[str, ast.expr]]:
    """(parameter, receiver) of each `receiver.pipe(lambda p: ...)` around the call,
    innermost first."""
    out: list[tuple[str, ast.expr]] = []
    for outer in _walk(call.stmt):
        if not (isinstance(outer, ast.Call) and isinstance(outer.func, ast.Attribute)
                and outer.func.attr == "pipe" and outer.args
                and isinstance(outer.args[0], ast.Lambda)):
            continue
        lam = outer.args[0]
        a = lam.args
        if len(a.args) != 1 or a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg:
            continue
        if any(n is call.node for n in _walk(lam.body)):
            out.append((a.args[0].arg, outer.func.value))
    return out[::-1]  # ast.walk meets the outer pipes first


class _Substitute(ast.NodeTransformer):
    def __init__(self, params: dict[str, ast.expr]) -> None:
        self.params = params

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.params.get(node.id, node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.expr:
        return node  # its own parameters shadow ours

    def _scope(self, node: ast.AST) -> ast.AST:
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _scope


def _assign_call(node: ast.AST) -> ast.Call | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "assign" and not node.args and \
            all(k.arg is not None for k in node.keywords):
        return node
    return None


# attributes of a frame that are not its columns
_FRAME_ATTRS = frozenset({"values", "index", "columns", "T", "shape", "loc", "iloc", "at",
                          "iat", "dtypes", "size", "empty", "ndim", "axes", "array"})


class _Unassign(ast.NodeTransformer):
    """`R.assign(k=E, ...).k` -> E (a `lambda d: ...` value read on R); `R.assign(...).c`
    -> `R.c`; `X[["a", "b"]].a` -> `X.a`."""

    def _column(self, node: ast.expr, base: ast.expr, col: str,
                rebuild: ast.expr) -> ast.expr:
        if isinstance(rebuild, ast.Attribute) and col in _FRAME_ATTRS:
            return node
        if isinstance(base, ast.Subscript) and isinstance(base.slice, ast.List | ast.Tuple) \
                and any(isinstance(e, ast.Constant) and e.value == col
                        for e in base.slice.elts):
            return self.visit(_with_base(rebuild, base.value))
        assign = _assign_call(base)
        if assign is None:
            return node
        receiver = assign.func.value  # type: ignore[attr-defined]
        for k in assign.keywords:
            if k.arg == col:
                value = k.value
                if isinstance(value, ast.Lambda):
                    la = value.args
                    if len(la.args) != 1 or la.posonlyargs or la.kwonlyargs or la.vararg \
                            or la.kwarg:
                        return node
                    value = _Substitute({la.args[0].arg: receiver}).visit(
                        _copy(value.body))
                return self.visit(value)
        return self.visit(_with_base(rebuild, receiver))

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        node.value = self.visit(node.value)
        return self._column(node, node.value, node.attr, node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        node.value = self.visit(node.value)
        node.slice = self.visit(node.slice)
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            return self._column(node, node.value, node.slice.value, node)
        return node


def _with_base(node: ast.expr, base: ast.expr) -> ast.expr:
    if isinstance(node, ast.Attribute):
        return ast.Attribute(value=base, attr=node.attr, ctx=ast.Load())
    return ast.Subscript(value=base, slice=node.slice, ctx=ast.Load())  # type: ignore[attr-defined]


def test_calls(model: CodeModel) -> list[tuple[CallSite, str, StatTest]]:
    """Every call in the cell that is a known test: (call site, canonical name, spec).
    Computed once per CodeModel (several rules ask)."""
    cached = model.__dict__.get("_stat_test_calls")
    if cached is not None:
        return list(cached)
    out: list[tuple[CallSite, str, StatTest]] = []
    for call in model.calls:
        found = stat_test_of(call)
        if found is not None and found[1].kind != "probe":
            out.append((call, *found))
    model.__dict__["_stat_test_calls"] = tuple(out)
    return out
