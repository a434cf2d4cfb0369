"""Wrong test for the data: a parametric test (t-test, ANOVA, Pearson's r) on clearly
non-normal or tiny samples.

Judged from the samples the kernel re-read after the run (size, skewness, Shapiro-Wilk p,
range), weighing the sample size: Shapiro rejects trivially for large n and the t-test is
robust there, while with a handful of observations normality cannot even be checked. When
the samples could not be read (a comprehension, `*groups`), the code is read instead: data
drawn from a lognormal/exponential/Pareto generator and tested untransformed.

Tests are found where the stat-test table does not see them too: statsmodels'
`CompareMeans`/`DescrStatsW` methods, a helper `def compare(x, y): return ttest_ind(x, y)`
judged on the arguments of each call, and groups unpacked from a named groupby, list or dict
(`f_oneway(*(g for _, g in groups))`), whose per-group facts the kernel reports. Named short
arrays are judged from the values the kernel lists when no sample was re-read.
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from statistics import NormalDist

from ..ast_cache import walk as _walk
from ..code_model import CallSite, CodeModel, called_name, names_in, root_name
from ..evidence import Evidence, ObjectFacts, SampleFacts
from ..findings import Finding
from ..rule import rule
from ..stat_tests import StatTest, test_calls

_CHECKED_KINDS = {"independent", "paired", "one_sample", "anova", "correlation"}
_NONPARAMETRIC_TWIN = {
    "independent": "scipy.stats.mannwhitneyu (or a permutation test)",
    "paired": "scipy.stats.wilcoxon",
    "one_sample": "scipy.stats.wilcoxon (one-sample, on x - mu)",
    "anova": "scipy.stats.kruskal",
    "correlation": "scipy.stats.spearmanr",
}
_SKEWED_GENERATORS = {
    "lognormal", "exponential", "standard_exponential", "pareto", "weibull", "zipf",
    "standard_cauchy", "chisquare", "wald", "gumbel", "logseries", "lomax", "f",
    "negative_binomial", "geometric",
}
_SKEWED_DISTS = {"lognorm", "expon", "pareto", "lomax", "weibull_min", "invgauss", "gamma",
                 "chi2", "cauchy", "levy", "zipf"}
_GENERATOR_HINT = re.compile(
    r"lognormal|exponential|pareto|weibull|zipf|cauchy|chisquare|wald|gumbel|logseries|"
    r"lomax|negative_binomial|geometric|gamma|\.rvs\(|\.f\(")
_TRANSFORMS = {"log", "log1p", "log2", "log10", "sqrt", "boxcox", "yeojohnson", "rank",
               "rankdata", "arcsinh", "cbrt", "power_transform", "quantile_transform"}


def _max_skew(n: int) -> float:
    """Largest |skewness| (biased g1) a sample of n values can have."""
    return (n - 2) / math.sqrt(n - 1) if n > 2 else 0.0


def _cv(s: SampleFacts) -> float | None:
    """Coefficient of variation of a non-negative sample (None when it can go negative)."""
    if s.min is None or s.min < 0 or not s.mean or s.std is None or s.mean <= 0:
        return None
    return s.std / s.mean


def _grade(s: SampleFacts) -> int:
    """Evidence that a sample is non-normal: 3 severe, 2 clear, 1 weak, 0 none."""
    n, skew, p = s.n, abs(s.skew) if s.skew is not None else 0.0, s.normal_p
    cv = _cv(s)
    if n >= 8 and skew >= 2 and p is not None and p < 1e-3:
        return 3
    if n >= 8 and skew >= 1.5 and p is not None and p < 1e-4:
        return 3
    if n >= 8 and skew >= 1 and p is not None and p < 0.01:
        return 2
    if cv is not None and cv >= 1 and n >= 4 and skew >= 0.5:
        return 2  # a non-negative quantity whose SD exceeds its mean: long right tail
    if 3 <= n < 8 and skew >= 0.85 * _max_skew(n) and (p is None or p < 0.05) and \
            not _narrow_band(s):
        return 2  # as skewed as so few values can be
    if n < 8 and _narrow_band(s):
        # a handful of tightly clustered positive values (per-site means, rates, physical
        # readings): a skew near 1 or a Shapiro p near 0.05 is one value off the cluster,
        # not evidence of a skewed distribution
        return 0
    if (p is not None and p < 0.05) or skew >= 1 or (cv is not None and cv >= 0.7):
        return 1
    return 0


def _narrow_band(s: SampleFacts) -> bool:
    """A positive quantity whose SD is small next to its level (SD/mean < 0.25: rates,
    proportions or averages of many trials, physical readings): with a handful of such values
    one point off the cluster makes the skew as large as n allows, but that is a single
    deviating value, not the long tail of a skewed distribution."""
    cv = _cv(s)
    return cv is not None and cv < 0.25


def _describe(s: SampleFacts) -> str:
    parts = [f"n={s.n}"]
    if s.skew is not None:
        parts.append(f"skew={s.skew:.2f}")
    if s.normal_p is not None:
        test = "Jarque-Bera" if s.arg == "values" else "Shapiro"
        parts.append(f"{test} p={s.normal_p:.2g}")
    cv = _cv(s)
    if cv is not None and cv >= 0.7:
        parts.append(f"SD/mean={cv:.2f}")
    return f"`{s.expr}` ({', '.join(parts)})"


def _extreme_small(s: SampleFacts) -> bool:
    """A handful of values as skewed as that many can be, confirmed by Shapiro or the SD."""
    if not 3 <= s.n < 8 or s.skew is None:
        return False
    cv = _cv(s)
    return abs(s.skew) >= 0.85 * _max_skew(s.n) and not _narrow_band(s) and (
        (s.normal_p is not None and s.normal_p < 0.01) or (cv is not None and cv >= 1))


def _judge(n_min: int, grade: int, code_skewed: bool, skew_max: float,
           correlation: bool = False, skew_min: float = 0.0) -> tuple[str, float] | None:
    """Severity and confidence from the smallest group size and the strongest evidence."""
    if n_min < 5:
        if grade >= 2 and code_skewed:
            return "critical", 0.85
        if grade >= 2:
            return "critical", 0.7
        if grade == 1 or code_skewed:
            return "high", 0.7
        # too few values to check normality at all, and nothing in them or the code says
        # they are skewed (e.g. per-subject means of many readings, near-normal by
        # construction): a caution, not evidence that the test is wrong
        return "medium", 0.45
    if n_min < 8:
        if grade >= 2:
            return "high", 0.75
        if code_skewed:
            return "high", 0.65
        # 5-7 values: a skew near 1 or a Shapiro p near 0.05 is common for normal data this
        # small, so a mild sign is a concern to check, not evidence the test is wrong; with
        # no sign at all (Shapiro p >= 0.05, |skew| < 1, no long right tail) the small n
        # alone is no reason to doubt a t-test, which is the standard tool at this size
        return ("medium", 0.45) if grade == 1 else ("low", 0.3)
    if correlation and n_min >= 30 and grade == 3 and skew_max >= 3 and skew_min >= 2:
        # both variables heavy-tailed: a few extreme pairs drive Pearson's r whatever n is
        return "high", 0.8 if skew_min >= 3 else 0.7
    if n_min < 30:
        if grade == 3:
            return "high", 0.85
        if grade == 2:
            return "high", 0.75
        if grade == 1 and code_skewed:
            return "high", 0.6
        if grade == 1 and skew_max >= 1:
            return "medium", 0.4
        return None
    if n_min < 100:
        if grade == 3:
            return "high", 0.7
        if grade >= 2 and skew_max >= 1.5:
            return "medium", 0.5
        return None
    if skew_max >= 4:
        return "medium", 0.45
    return None


def _pooled_within_skew(facts: list[SampleFacts]) -> tuple[float, float] | None:
    """(skewness, its standard error under normality) of the samples' deviations from
    their own means, pooled: the within-group errors an ANOVA assumes normal, from each
    sample's n, SD (ddof=1) and skewness (biased g1: third central moment over m2^1.5)."""
    usable = [s for s in facts if s.n >= 3 and s.std and s.skew is not None]
    if len(usable) != len(facts):
        return None
    total = sum(s.n for s in usable)
    m2s = [(s.n, s.std ** 2 * (s.n - 1) / s.n, s.skew) for s in usable]
    m2 = sum(n * v for n, v, _ in m2s) / total
    m3 = sum(n * g * v ** 1.5 for n, v, g in m2s) / total  # type: ignore[operator]
    if m2 <= 0 or total < 9:
        return None
    se = math.sqrt(6 * total * (total - 1) / ((total - 2) * (total + 1) * (total + 3)))
    return m3 / m2 ** 1.5, se


def _robust_variant(call: CallSite, full: str) -> bool:
    """Permutation or trimmed versions, or a rank method, of the same call."""
    if call.has_kwarg("permutations") or call.has_kwarg("trim"):
        return call.kwarg_value("permutations", 1) not in (None, 0) or \
            call.kwarg_value("trim", 1) not in (0, 0.0)
    if full.startswith("scipy.stats.") and call.has_kwarg("method") and \
            call.kwarg_value("method", "x") not in ("pearson", None):
        return True  # method=stats.PermutationMethod() / MonteCarloMethod()
    return full == "pingouin.corr" and call.kwarg_value("method", "pearson") != "pearson"


def _generated_skewed(ev: Evidence) -> tuple[set[str], set[tuple[str, str]],
                                             dict[str | tuple[str, str], int]]:
    """Names and frame columns the notebook draws from a skewed generator, untransformed:
    `x = rng.lognormal(...)`, `df["income"] = np.random.exponential(...)`,
    `pd.DataFrame({"rt": rng.gamma(1.5, ...)})`. Also the `size=` when it is literal."""
    names: set[str] = set()
    cols: set[tuple[str, str]] = set()
    sizes: dict[str | tuple[str, str], int] = {}
    m = ev.model
    for tree, code in ((m._prior_tree, ev.prior_code), (m.tree, ev.code)):
        if not _GENERATOR_HINT.search(code):
            continue
        for node in _walk(tree):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target, value = node.targets[0], node.value
            frame = target.id if isinstance(target, ast.Name) else None
            # pd.DataFrame({"income": rng.lognormal(...)}) anywhere in the value (concat…)
            framed = False
            for sub in _walk(value):
                if not (isinstance(sub, ast.Call) and (
                        (isinstance(sub.func, ast.Attribute)
                         and sub.func.attr in ("DataFrame", "assign"))
                        or (isinstance(sub.func, ast.Name) and sub.func.id == "DataFrame"))):
                    continue
                items: list[tuple[str, ast.AST]] = []
                if sub.args and isinstance(sub.args[0], ast.Dict):
                    d = sub.args[0]
                    items = [(k.value, v) for k, v in zip(d.keys, d.values, strict=False)
                             if isinstance(k, ast.Constant) and isinstance(k.value, str)]
                items += [(kw.arg, kw.value) for kw in sub.keywords if kw.arg]
                for col, v in items:
                    if _skewed_expr(v):
                        framed = True
                        owner = frame or (root_name(target) if isinstance(
                            target, ast.Subscript | ast.Attribute) else None)
                        if owner:
                            cols.add((owner, col))
                            size = _literal_size(v)
                            if size:
                                sizes[(owner, col)] = size
            if framed or not _skewed_expr(value):
                continue
            size = _literal_size(value)
            if isinstance(target, ast.Name):
                names.add(target.id)
                if size:
                    sizes[target.id] = size
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                    isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
                cols.add((target.value.id, target.slice.value))
                if size:
                    sizes[(target.value.id, target.slice.value)] = size
    return names, cols, sizes


def _skewed_expr(node: ast.AST) -> bool:
    """A call to a skewed generator whose result is not log/sqrt/rank-transformed
    (`np.log(rng.lognormal(...))` is not; `rng.lognormal(np.log(120), 0.9)` is)."""
    if isinstance(node, ast.Call):
        f = node.func
        attr = f.attr if isinstance(f, ast.Attribute) else (
            f.id if isinstance(f, ast.Name) else "")
        if attr in _TRANSFORMS:
            return False
        if attr in _SKEWED_GENERATORS or (attr == "gamma" and _small_shape(node)):
            return True
        if attr == "rvs" and isinstance(f, ast.Attribute):
            dist = f.value.attr if isinstance(f.value, ast.Attribute) else (
                f.value.id if isinstance(f.value, ast.Name) else "")
            if dist in _SKEWED_DISTS:
                return True
    return any(_skewed_expr(child) for child in ast.iter_child_nodes(node))


def _small_shape(call: ast.Call) -> bool:
    shape = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == "shape"), None)
    return isinstance(shape, ast.Constant) and isinstance(shape.value, int | float) \
        and shape.value <= 3


_SIZE_POSITION = {"lognormal": 2, "gamma": 2, "weibull": 1, "pareto": 1, "exponential": 1,
                  "chisquare": 1, "wald": 2, "gumbel": 2, "standard_exponential": 0}


def _literal_size(node: ast.AST) -> int | None:
    """`size=60` or the positional size of a generator call (`rng.lognormal(0, 1, 60)`)."""
    for sub in _walk(node):
        if isinstance(sub, ast.Call):
            for kw in sub.keywords:
                if kw.arg == "size" and isinstance(kw.value, ast.Constant) and \
                        isinstance(kw.value.value, int):
                    return kw.value.value
            attr = sub.func.attr if isinstance(sub.func, ast.Attribute) else ""
            pos = _SIZE_POSITION.get(attr)
            if pos is not None and len(sub.args) > pos:
                a = sub.args[pos]
                if isinstance(a, ast.Constant) and isinstance(a.value, int):
                    return a.value
    return None


_AGGREGATES = {"mean", "median", "nanmean", "nanmedian"}


def _aggregated(node: ast.AST) -> bool:
    """`df.groupby(...)[y].mean()` / `.agg("mean")` / `pivot_table(...)` (mean by default):
    a sample of per-unit means or medians (not a summary table of mean, SD and count)."""
    for sub in _walk(node):
        if not isinstance(sub, ast.Call) or not isinstance(sub.func, ast.Attribute):
            continue
        if sub.func.attr == "pivot_table":
            return True
        if sub.func.attr in _AGGREGATES | {"agg", "aggregate"} and any(
                isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and
                x.func.attr in ("groupby", "resample") for x in _walk(sub.func.value)):
            if sub.func.attr in _AGGREGATES:
                return True
            asked = {a.value for x in sub.args for a in _walk(x)
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)}
            if asked and asked <= _AGGREGATES:  # `.agg("mean")`, not a table with std/count
                return True
    return False


def _arg_skewed(ev: Evidence, arg: ast.AST, names: set[str],
                cols: set[tuple[str, str]]) -> str | tuple[str, str] | None:
    """The test reads a skewed generator's output (or a column holding it), untransformed;
    through names the cell assigns: `groups = [g["latency"] for _, g in df.groupby(…)]`."""
    m = ev.model
    if _has_transform(arg):
        return None
    loaded = {n.id for n in _walk(arg) if isinstance(n, ast.Name)}
    strings = _strings(arg)
    deps = set(loaded)
    for name in loaded:
        deps |= m.dependencies(name)
    for name in deps:
        for a in m.assigned_at(name):
            if a.value is not None:
                if _has_transform(a.value) and name in loaded:
                    return None
                if _aggregated(a.value):
                    return None  # per-unit means: the draws' skew does not carry over
                strings |= _strings(a.value)
    for name in deps & names:
        if not _transformed_between(ev, name):
            return name
    return next(((frame, col) for frame, col in cols if frame in deps and col in strings),
                None)


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in _walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)} | {
        n.attr for n in _walk(node) if isinstance(n, ast.Attribute)}


def _has_transform(node: ast.AST) -> bool:
    for sub in _walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            attr = f.attr if isinstance(f, ast.Attribute) else (
                f.id if isinstance(f, ast.Name) else "")
            if attr in _TRANSFORMS:
                return True
    return False


def _log_scale(ev: Evidence, node: ast.AST) -> bool:
    """The sample is already on a transformed (log, sqrt, rank) scale: `np.log(x)` written
    in the argument, or a name bound only to such an expression (`lr = np.log(a / b)`)."""
    node = _unwrap(node)
    if isinstance(node, ast.Name):
        found = [a.value for a in ev.model.assigned_at(node.id)]
        if not found or any(v is None for v in found):
            return False
        return all(_has_transform(v) for v in found if v is not None)
    return _has_transform(node)


_REDUCTIONS = {"var", "nanvar", "std", "nanstd", "mean", "nanmean", "sum", "nansum", "len",
               "size", "count", "median", "nanmedian", "sem", "min", "max", "ptp", "average",
               "variance", "pvariance", "stdev", "pstdev", "fmean"}


def _transformed_between(ev: Evidence, name: str) -> bool:
    """`y = np.log(x)` somewhere in the cell for a name the test reads: the transform applies
    to the values themselves, not to a summary of them (`np.sqrt(x.var() / len(x))`, a
    standard error, transforms nothing)."""
    for a in ev.model.assignments:
        if a.value is not None and name in a.loaded:
            for sub in _walk(a.value):
                if isinstance(sub, ast.Call):
                    f = sub.func
                    attr = f.attr if isinstance(f, ast.Attribute) else (
                        f.id if isinstance(f, ast.Name) else "")
                    if attr in _TRANSFORMS and any(_reads_values(x, name) for x in (
                            *sub.args, *(k.value for k in sub.keywords),
                            *((f.value,) if isinstance(f, ast.Attribute) else ()))):
                        return True
    return False


def _reads_values(node: ast.AST, name: str) -> bool:
    """`name` occurs in `node` other than inside a reduction (`x.var()`, `len(x)`)."""
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.Call) and called_name(node) in _REDUCTIONS:
        return False
    if isinstance(node, ast.Attribute) and node.attr in ("shape", "size"):
        return False
    return any(_reads_values(child, name) for child in ast.iter_child_nodes(node))


def _all_args(call: CallSite, spec: StatTest) -> list[ast.expr]:
    if spec.variadic:
        return [a.value if isinstance(a, ast.Starred) else a for a in call.node.args]
    out = []
    for slot in spec.samples:
        node = call.arg(slot) if isinstance(slot, int) else call.kwarg(slot)
        if node is not None:
            out.append(node)
    if not out:
        out = [a.value if isinstance(a, ast.Starred) else a for a in call.node.args]
    return out


# -- where the samples of a parametric test come from ------------------------------------------

_UNWRAP_METHODS = {"to_numpy", "dropna", "ravel", "flatten", "copy", "astype", "squeeze",
                   "tolist", "to_list"}
_UNWRAP_FUNCS = {"asarray", "array", "DescrStatsW"}
# statsmodels' weightstats objects: methods that run a t/z test or its interval
_TWO_SAMPLE_METHODS = {"ttest_ind", "ztest_ind", "ttost_ind", "tconfint_diff", "zconfint_diff"}
_ONE_SAMPLE_METHODS = {"ttest_mean", "ztest_mean", "ttost_mean", "tconfint_mean"}


@dataclass
class _Site:
    """One parametric test to judge: reported at `call`'s line, on `args` (the sample
    expressions, for reading the code), with the kernel's facts when they could be read."""

    call: CallSite
    full: str
    kind: str
    args: list[ast.expr]
    facts: list[SampleFacts] = field(default_factory=list)
    binary: bool = False
    transformed: bool = False  # the groups are log/rank-transformed where they are unpacked


def _unwrap(node: ast.AST) -> ast.AST:
    """`x` for `x.values`, `x.to_numpy()`, `np.asarray(x)`, `DescrStatsW(x)`, `x.dropna()`."""
    while True:
        if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _UNWRAP_METHODS:
            node = node.func.value
        elif isinstance(node, ast.Call) and node.args and called_name(node) in _UNWRAP_FUNCS:
            node = node.args[0]
        else:
            return node


def _from_values(expr: str, values: list[float]) -> SampleFacts | None:
    """Sample facts computed from the kernel's short list of values (<= 200 numbers), for
    samples the kernel was not asked about. The normality p-value is Jarque-Bera's
    (conservative for small n), not Shapiro-Wilk's."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    m2 = sum((v - mean) ** 2 for v in values) / n
    facts = SampleFacts(call="", line=0, arg="values", expr=expr, n=n,
                        n_unique=len(set(values)),
                        integer_valued=all(v == int(v) for v in values), mean=mean,
                        min=min(values), max=max(values),
                        std=math.sqrt(m2 * n / (n - 1)))
    if n >= 3 and m2 > 0:
        facts.skew = sum((v - mean) ** 3 for v in values) / n / m2 ** 1.5
        if n >= 8 and facts.n_unique > 2:
            kurt = sum((v - mean) ** 4 for v in values) / n / m2 ** 2
            jb = n / 6 * (facts.skew ** 2 + (kurt - 3) ** 2 / 4)
            facts.normal_p = math.exp(-jb / 2)
    return facts


def _name_facts(ev: Evidence, node: ast.AST) -> SampleFacts | None:
    """Facts of a sample that is a named array/Series the kernel listed the values of."""
    inner = _unwrap(node)
    if not isinstance(inner, ast.Name):
        return None
    obj = ev.objects.get(inner.id)
    if obj is None or obj.kind not in ("ndarray", "series") or not obj.values:
        return None
    return _from_values(inner.id, obj.values)


def _unpacked(node: ast.AST) -> tuple[str | None, bool]:
    """(collection name, transformed) for a starred test argument: `*groups`,
    `*by_arm.values()`, `*(g.to_numpy() for _, g in groups)`, `*[np.log(v) for v in s]`."""
    if isinstance(node, ast.Starred):
        node = node.value
    transformed = False
    if isinstance(node, ast.GeneratorExp | ast.ListComp) and len(node.generators) == 1:
        transformed = _has_transform(node.elt)
        node = node.generators[0].iter
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("values", "items") and not node.args:
        node = node.func.value
    return (node.id if isinstance(node, ast.Name) else None), transformed


def _group_facts(ev: Evidence, name: str) -> list[SampleFacts]:
    prefix = name + "["
    return [s for s in ev.samples if s.line == 0 and s.expr.startswith(prefix) and s.n > 0]


def _facts_for(ev: Evidence, args: list[ast.expr]) -> tuple[list[SampleFacts], bool]:
    """Facts for sample expressions the kernel did not re-read: named short arrays, and the
    groups of a named collection a starred argument unpacks. (facts, transformed)."""
    facts: list[SampleFacts] = []
    transformed = False
    for a in args:
        if isinstance(a, ast.Starred | ast.GeneratorExp | ast.ListComp):
            name, tr = _unpacked(a)
            transformed = transformed or tr
            if name is not None and not tr:
                facts += _group_facts(ev, name)
        elif (f := _name_facts(ev, a)) is not None:
            facts.append(f)
    return facts, transformed


def _functions(ev: Evidence) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ev.model.tree.body if isinstance(n, ast.FunctionDef)}


def _through_helper(ev: Evidence, call: CallSite, args: list[ast.expr],
                    funcs: dict[str, ast.FunctionDef]) -> list[tuple[CallSite, list[ast.expr]]]:
    """A test inside `def compare(x, y): return stats.ttest_ind(x, y)` reads the helper's
    parameters: each call `compare(a, b)` of the helper in the cell tests `a` and `b`."""
    fn = funcs.get(call.function or "")
    if fn is None:
        return []
    params = [a.arg for a in fn.args.args]
    if not any(names_in(a) & set(params) for a in args):
        return []
    if any(_has_transform(a) for a in args):
        return []  # `ttest_ind(np.log(x), np.log(y))`: the arguments are not what is tested
    direct = [inner.id for a in args if isinstance(inner := _unwrap(a), ast.Name)
              and inner.id in params]
    out: list[tuple[CallSite, list[ast.expr]]] = []
    for outer in ev.model.calls:
        if outer.function == fn.name or not (
                isinstance(outer.node.func, ast.Name) and outer.node.func.id == fn.name):
            continue
        mapped = [passed for p in direct
                  if (passed := outer.arg(params.index(p), p)) is not None]
        if mapped:
            out.append((outer, mapped))
    return out


def _weightstats_sites(ev: Evidence) -> list[_Site]:
    """statsmodels' object API: `CompareMeans(DescrStatsW(a), DescrStatsW(b)).ttest_ind()`,
    `CompareMeans.from_data(a, b).tconfint_diff()`, `DescrStatsW(x).ttest_mean(0)`, through
    names assigned in the cell."""
    m = ev.model
    out: list[_Site] = []
    seen: set[str] = set()
    for c in m.calls:
        two = c.method in _TWO_SAMPLE_METHODS
        if not (two or c.method in _ONE_SAMPLE_METHODS) or c.receiver is None:
            continue
        ctor = _constructor(m, c.receiver)
        if ctor is None:
            continue
        cname = m.dotted(ctor.func) or (ctor.func.id if isinstance(ctor.func, ast.Name) else "")
        if two and cname.endswith(("CompareMeans", "CompareMeans.from_data")):
            samples = [_descr_data(m, a) for a in ctor.args[:2]]
        elif not two and cname.endswith("DescrStatsW"):
            samples = ctor.args[:1]
        else:
            continue
        key = m.src(c.receiver)
        args = [x for x in samples if x is not None]
        if key in seen or not args:
            continue
        seen.add(key)
        full = f"statsmodels {'CompareMeans' if two else 'DescrStatsW'}.{c.method}"
        site = _Site(c, full, "independent" if two else "one_sample", args)
        site.facts, site.transformed = _facts_for(ev, args)
        out.append(site)
    return out


def _constructor(m: CodeModel, node: ast.AST) -> ast.Call | None:
    if isinstance(node, ast.Name):
        for a in reversed(m.assigned_at(node.id)):
            if isinstance(a.value, ast.Call):
                return a.value
        return None
    return node if isinstance(node, ast.Call) else None


def _descr_data(m: CodeModel, node: ast.AST) -> ast.expr | None:
    """The data of `DescrStatsW(x)` (inline or through a name)."""
    call = _constructor(m, node)
    if call is not None and called_name(call) == "DescrStatsW" and call.args:
        return call.args[0]
    return node if isinstance(node, ast.expr) and call is None else None


def _sites(ev: Evidence) -> list[_Site]:
    sites: list[_Site] = []
    funcs: dict[str, ast.FunctionDef] | None = None
    for call, full, spec in test_calls(ev.model):
        if not spec.parametric or spec.kind not in _CHECKED_KINDS or \
                _robust_variant(call, full):
            continue
        args = _all_args(call, spec)
        if call.function is not None:
            if funcs is None:
                funcs = _functions(ev)
            fn = funcs.get(call.function)
            params = {a.arg for a in fn.args.args} if fn is not None else set()
            if any(names_in(a) & params for a in args):
                # the kernel's facts of `x` inside the helper are not its argument's
                for outer, mapped in _through_helper(ev, call, args, funcs):
                    site = _Site(outer, full, spec.kind, mapped)
                    site.facts, site.transformed = _facts_for(ev, mapped)
                    sites.append(site)
                continue
        read = [s for s in ev.samples if s.line == call.line and s.call == full and s.n > 0]
        site = _Site(call, full, spec.kind, args)
        site.facts = [s for s in read if s.n_unique > 2]  # 0/1 outcomes: proportions
        site.binary = bool(read) and not site.facts and any(0 < s.n_unique <= 2 for s in read)
        if not read:  # `*groups` as written, not `_all_args`' unstarred form
            raw = list(call.node.args) if spec.variadic else args
            site.facts, site.transformed = _facts_for(ev, raw)
            site.binary = bool(site.facts) and all(s.n_unique <= 2 for s in site.facts)
            site.facts = [s for s in site.facts if s.n_unique > 2]
        sites.append(site)
    if "Stats" in ev.code or "CompareMeans" in ev.code:
        sites += _weightstats_sites(ev)
    return sites


# -- one-way ANOVA / Tukey HSD read from a long-format frame: the pooled response ---------------

_ONEWAY_FITS = {"ols"}
_FORMULA_TERM = re.compile(r"C\(\s*(?:Q\(['\"])?([A-Za-z_]\w*)(?:['\"]\))?\s*(?:,.*)?\)|"
                           r"([A-Za-z_]\w*)")


def _frame_column(node: ast.AST | None) -> tuple[str, str] | None:
    """(frame, column) of `df["y"]` / `df.y` (also `.to_numpy()`, `.values`)."""
    if node is None:
        return None
    node = _unwrap(node)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.value.id, node.slice.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    return None


def _expr_column(expr: str) -> tuple[str, str] | None:
    try:
        return _frame_column(ast.parse(expr, mode="eval").body)
    except SyntaxError:
        return None


@dataclass
class _Grouped:
    """A between-groups parametric test on one response column of a long-format frame."""

    line: int
    tests: list[str]
    frame: str
    response: str
    factor: str
    r2: float | None = None
    resid: tuple[float, float | None] | None = None  # (skew, normality p) of the residuals


def _oneway_fit(ev: Evidence, call: CallSite) -> tuple[str, str, str] | None:
    """(frame, response, factor) of `smf.ols("y ~ C(g)", data=df)` with one categorical
    factor, the response untransformed."""
    frame, col, transformed = _response(call)
    if frame is None or col is None or transformed:
        return None
    f = call.node.args[0] if call.node.args else call.kwarg("formula")
    rhs = f.value.split("~", 1)[1].strip() if isinstance(f, ast.Constant) else ""
    m = _FORMULA_TERM.fullmatch(rhs)
    obj = ev.objects.get(frame)
    if m is None or obj is None:
        return None
    factor = m.group(1) or m.group(2)
    if factor not in obj.levels and not m.group(1):
        return None  # `y ~ x` on a numeric x is a regression, not a one-way ANOVA
    return frame, col, factor


def _groupby_unpacked(arg: ast.AST) -> tuple[str, str, str] | None:
    """(frame, response, factor) of the groups a starred comprehension unpacks straight from
    a frame: `*[g.to_numpy() for _, g in df.groupby("f")["y"]]`,
    `*(g["y"] for _, g in df.groupby("f"))`; None when the groups are transformed or
    filtered."""
    node = arg.value if isinstance(arg, ast.Starred) else arg
    if not isinstance(node, ast.ListComp | ast.GeneratorExp) or len(node.generators) != 1:
        return None
    gen = node.generators[0]
    if gen.ifs or _has_transform(node.elt) or not (
            isinstance(gen.target, ast.Tuple) and len(gen.target.elts) == 2 and
            isinstance(gen.target.elts[1], ast.Name)):
        return None
    g = gen.target.elts[1].id
    it, response = gen.iter, None
    if isinstance(it, ast.Subscript) and isinstance(it.slice, ast.Constant) and \
            isinstance(it.slice.value, str):
        response, it = it.slice.value, it.value
    elif isinstance(it, ast.Attribute) and isinstance(it.value, ast.Call):
        response, it = it.attr, it.value
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and
            it.func.attr == "groupby" and isinstance(it.func.value, ast.Name) and
            len(it.args) == 1 and not it.keywords and isinstance(it.args[0], ast.Constant) and
            isinstance(it.args[0].value, str)):
        return None
    elt = _unwrap(node.elt)
    if response is None:
        col = _frame_column(elt)
        if col is None or col[0] != g:
            return None
        response = col[1]
    elif not (isinstance(elt, ast.Name) and elt.id == g):
        return None
    return it.func.value.id, response, it.args[0].value


def _grouped_sites(ev: Evidence) -> list[_Grouped]:
    """One-way ANOVA from a formula fit (`anova_lm(ols("y ~ C(g)", df).fit())`, `.f_pvalue`),
    scipy's `f_oneway(*[g for _, g in df.groupby("g")["y"]])` and Tukey HSD
    (`pairwise_tukeyhsd(df["y"], df["g"])`) on the same frame column."""
    m = ev.model
    out: dict[tuple[str, str, str], _Grouped] = {}
    f_stats: dict[tuple[str, str, str], float] = {}
    fits: dict[str, tuple[str, str, str]] = {}  # result name -> (frame, response, factor)
    for c in m.calls:
        if c.last in _ONEWAY_FITS and (c.name or "").startswith("statsmodels") and \
                (key := _oneway_fit(ev, c)) is not None:
            for t in c.targets:
                fits[t] = key
    for c in m.calls:
        key, test = None, None
        if c.last == "anova_lm" and (c.name or "").startswith("statsmodels"):
            a = c.node.args[0] if c.node.args else None
            if isinstance(a, ast.Name) and a.id in fits:
                key, test = fits[a.id], "anova_lm"
            elif isinstance(a, ast.Call):
                inner = a.func.value if isinstance(a.func, ast.Attribute) else None
                site = next((x for x in m.calls if x.node is inner), None)
                if site is not None and site.last in _ONEWAY_FITS:
                    key, test = _oneway_fit(ev, site), "anova_lm"
        elif c.last == "pairwise_tukeyhsd":
            y = _frame_column(c.arg(0, "endog"))
            g = _frame_column(c.arg(1, "groups"))
            if y is not None and g is not None and y[0] == g[0]:
                key, test = (y[0], y[1], g[1]), "pairwise_tukeyhsd"
        elif c.last == "f_oneway" and (c.name or "").startswith("scipy") and \
                len(c.node.args) == 1 and not c.node.keywords and \
                (key := _groupby_unpacked(c.node.args[0])) is not None:
            test = "f_oneway"
            # `F, p = f_oneway(...)`: the kernel's F gives the groups' share of the variance
            f_obj = ev.objects.get(c.targets[0]) if len(c.targets) == 2 else None
            if f_obj is not None and isinstance(f_obj.value, int | float) and \
                    not isinstance(f_obj.value, bool) and f_obj.value >= 0:
                f_stats[key] = float(f_obj.value)
        if key is None:
            continue
        site = out.setdefault(key, _Grouped(c.line, [], *key))
        site.line = min(site.line, c.line)
        if test not in site.tests:
            site.tests.append(test)
    for node in _walk(ev.tree):
        # `fit.f_pvalue` / `fit.fvalue` of a one-way fit is the same F-test
        if isinstance(node, ast.Attribute) and node.attr in ("f_pvalue", "fvalue") and \
                isinstance(node.value, ast.Name) and node.value.id in fits and \
                isinstance(node.ctx, ast.Load):
            key = fits[node.value.id]
            site = out.setdefault(key, _Grouped(node.lineno, [], *key))
            site.line = min(site.line, node.lineno)
            if f"{node.value.id}.{node.attr}" not in site.tests:
                site.tests.append(f"{node.value.id}.{node.attr}")
    for key, f in f_stats.items():
        obj = ev.objects.get(key[0])
        sizes = obj.levels.get(key[2], {}) if obj is not None else {}
        k, n = len(sizes), sum(sizes.values())
        if key in out and k >= 2 and n > k:
            # one-way ANOVA: R^2 = SSB / SST = F (k-1) / (F (k-1) + n - k)
            out[key].r2 = f * (k - 1) / (f * (k - 1) + n - k)
    for name, key in fits.items():
        obj = ev.objects.get(name)
        if key in out and obj is not None:
            r2 = obj.params.get("rsquared")
            if isinstance(r2, int | float) and 0 <= r2 <= 1:
                out[key].r2 = float(r2)
            rs = obj.params.get("resid_skew")
            if isinstance(rs, int | float):
                rp = obj.params.get("resid_normal_p")
                out[key].resid = (float(rs), float(rp) if isinstance(rp, int | float) else None)
    return list(out.values())


def _within_skew(pooled: float, r2: float | None, w_min: float) -> float:
    """Least |skewness| the within-group errors must have for the pooled response to reach
    `pooled`. With normal, equal-variance errors the pooled third moment is the group means'
    alone: |skew| <= R^3 * sqrt((1 - w)/w), w the smallest group's share of rows (a centred
    variable with an atom of weight w lies within sqrt(var (1 - w)/w) of 0). Unknown R^2 counts
    as 1."""
    r2 = 1.0 if r2 is None else r2
    if not 0 < w_min < 1:
        return 0.0
    between = r2 ** 1.5 * math.sqrt((1 - w_min) / w_min)
    if r2 >= 0.95:
        return 0.0
    return max(0.0, (abs(pooled) - between) / (1 - r2) ** 1.5)


_STAT_KEYS = {"count": "n", "n": "n", "size": "n", "mean": "mean", "std": "std", "sd": "std",
              "min": "min", "max": "max", "median": "median", "50%": "median",
              # renamed aggregates (`.agg(M="mean", SD="std", n="size")`), header lower-cased
              "m": "mean", "avg": "mean", "average": "mean", "stdev": "std"}
_HEADER_TOKEN = re.compile(r"[A-Za-z_][\w.]*|\d+%")


_STAT_AFFIX = re.compile(r"(?:(mean|avg|std|sd|min|max|median)_[a-z]\w*|"
                         r"[a-z]\w*_(mean|avg|std|sd|min|max|median))")


def _stat_key(header: str) -> str | None:
    """The statistic a printed column header names: `mean`, `std`, ... or a column renamed
    with the statistic as prefix or suffix (`mean_days`, `cost_sd`)."""
    h = header.lower()
    if h in _STAT_KEYS:
        return _STAT_KEYS[h]
    m = _STAT_AFFIX.fullmatch(h)
    return _STAT_KEYS[m.group(1) or m.group(2)] if m else None


def _number(tok: str) -> float | None:
    try:
        v = float(tok.replace(",", ""))
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def _printed_tables(text: str) -> list[dict[str, dict[str, float]]]:
    """Per-row statistics of the pandas tables the cell printed whose header names a mean
    (`groupby(g)[y].describe()`, `.agg(["count", "mean", "std", ...])`, `.agg(M="mean",
    SD="std")`): [{row label: {"n"/"mean"/"std"/"min"/"max"/"median": value}}]."""
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        header = [t for t in line.split() if t != "..."]  # columns pandas elided
        keys = [_stat_key(h) for h in header]
        if not header or len(header) > 12 or "mean" not in keys or not all(
                _HEADER_TOKEN.fullmatch(h) for h in header) or \
                len({k for k in keys if k}) != sum(1 for k in keys if k):
            continue
        rows: dict[str, dict[str, float]] = {}
        for row in lines[i + 1:]:
            toks = [t for t in row.split() if t != "..."]
            if not toks or row.startswith("["):
                break
            nums = [_number(t) for t in toks[-len(header):]] if len(toks) > len(header) \
                else []
            if not nums or any(v is None for v in nums):
                if not rows and len(toks) == 1:
                    continue  # the index name's own line
                break
            label = " ".join(toks[:-len(header)])
            rows[label] = {k: v for k, v in zip(keys, nums, strict=True)
                           if k is not None and v is not None}
        if len(rows) >= 2:
            out.append(rows)
    return out


def _summarises(ev: Evidence, site: _Grouped) -> bool:
    """The cell's code summarises the response by the factor (`df.groupby("g")["y"]...`),
    and no other numeric column of the frame that way."""
    obj = ev.objects.get(site.frame)
    numeric = set(obj.ranges) if obj is not None else set()
    named: set[str] = set()
    for node in _walk(ev.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "groupby" and site.factor in _strings(node):
            stmt_strings = set()
            for stmt in ev.tree.body if ev.tree is not None else []:
                if stmt.lineno <= node.lineno <= (stmt.end_lineno or stmt.lineno):
                    stmt_strings = _strings(stmt)
            named |= stmt_strings & (numeric | {site.response})
    return named == {site.response}


def _column_transformed(ev: Evidence, site: _Grouped) -> bool:
    """`df["y"] = np.log(df["x"])` in this cell or an earlier one: the response is already
    on a transformed scale."""
    trees = [ev.tree]
    if ev.prior_code:
        with contextlib.suppress(SyntaxError):
            trees.append(ast.parse(ev.prior_code))
    for tree in trees:
        for node in _walk(tree) if tree is not None else []:
            if isinstance(node, ast.Assign) and _has_transform(node.value) and any(
                    _frame_column(t) == (site.frame, site.response) for t in node.targets):
                return True
    return False


def _shown_group_stats(ev: Evidence, site: _Grouped,
                       sizes: dict[str, int]) -> list[dict[str, float]] | None:
    """The per-group n, mean (and SD, min/max/median when shown) of the response, from a
    printed summary whose rows are exactly the factor's levels."""
    if ev.tree is None or not _summarises(ev, site) or _column_transformed(ev, site):
        return None
    obj = ev.objects.get(site.frame)
    for table in _printed_tables(ev.text):
        if set(table) != set(sizes):
            continue
        groups = []
        for level, stats_ in table.items():
            if "mean" not in stats_:
                break
            n = stats_.get("n", sizes[level])
            if abs(n - sizes[level]) > 0.5:
                break  # a different column or subset
            groups.append({**stats_, "n": float(sizes[level])})
            rng_ = obj.ranges.get(site.response) if obj is not None else None
            if rng_ and "min" not in groups[-1] and isinstance(rng_[0], int | float):
                groups[-1]["floor"] = float(rng_[0])  # the column's minimum, all groups
        else:
            return groups
    return None


def _betai(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b) (continued fraction, Numerical Recipes)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betai(b, a, 1.0 - x)
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > 1e-300 else 1e-300)
            c = 1.0 + num / c
            c = c if abs(c) > 1e-300 else 1e-300
            h *= d * c
        if abs(d * c - 1.0) < 1e-12:
            break
    return front * h / a


def _f_sf(f: float, d1: float, d2: float) -> float:
    """P(F(d1, d2) > f)."""
    return _betai(d2 / 2, d1 / 2, d2 / (d2 + d1 * f)) if f > 0 else 1.0


def _judge_group_stats(groups: list[dict[str, float]]
                       ) -> tuple[str, float, str, dict[str, object]] | None:
    """High when the printed per-group summary shows, beyond chance for groups this small,
    variances that differ by orders of magnitude, together with a sign of a skewed,
    multiplicative response: SDs rising with the means of a positive quantity, an SD above
    the mean of a non-negative one, or one value carrying almost all of a group's spread."""
    if any("std" not in g for g in groups):
        return None
    usable = [g for g in groups if g["n"] >= 3 and g["std"] > 0]
    if len(usable) < 2 or min(g["n"] for g in groups) >= 30:
        return None
    lo = min(usable, key=lambda g: g["std"])
    hi = max(usable, key=lambda g: g["std"])
    ratio = hi["std"] / lo["std"]
    k = len(usable)
    p_var = min(1.0, 2 * _f_sf(ratio ** 2, hi["n"] - 1, lo["n"] - 1) * k * (k - 1) / 2)
    if ratio < 4 or p_var >= 1e-3:
        return None
    signs = []
    values: dict[str, object] = {"sd_ratio": round(ratio, 1), "variance_ratio_p":
                                 float(f"{p_var:.2g}")}
    mins = [g.get("min", g.get("floor")) for g in groups]
    positive = all(m is not None and m >= 0 for m in mins)
    ordered = sorted(usable, key=lambda g: g["mean"])
    if k >= 3 and positive and all(a["std"] < b["std"] for a, b in itertools.pairwise(ordered)):
        signs.append("the SD rises with the group mean (a multiplicative, right-skewed "
                     "scale)")
    if positive and any(g["std"] > g["mean"] > 0 for g in usable):
        g = max(usable, key=lambda g: g["std"] / g["mean"] if g["mean"] > 0 else 0)
        signs.append(f"an SD above the mean for a non-negative quantity (mean {g['mean']:.3g},"
                     f" SD {g['std']:.3g}: a long right tail)")
    for g in usable:
        n = g["n"]
        for side, extreme in (("largest", g.get("max")), ("smallest", g.get("min"))):
            if extreme is None or n < 5:
                continue
            z = abs(extreme - g["mean"]) / g["std"]
            if z >= 0.9 * (n - 1) / math.sqrt(n):
                signs.append(f"a group of {n:.0f} whose {side} value ({extreme:g}) sits "
                             f"{z:.2f} SDs from its mean, nearly the most {n:.0f} values "
                             "allow: one value carries almost all of its spread")
                break
    if not signs:
        return None
    values["signs"] = len(signs)
    basis = (f"group SDs from {lo['std']:.3g} to {hi['std']:.3g} ({ratio:.0f}-fold; equal "
             f"variances would give this ratio with p={p_var:.1g}), and " +
             "; ".join(signs[:2]))
    confidence = 0.75 if len(signs) >= 2 else 0.65
    return "high", confidence, basis, values


def _resolution(values: list[float]) -> float:
    """The rounding step the printed values share (0.1 for 14.3, 12.1, 53.4)."""
    for d in range(7):
        scale = 10 ** d
        if all(abs(v * scale - round(v * scale)) < 1e-6 * max(1.0, abs(v * scale))
               for v in values):
            return 1.0 / scale
    return 1e-7


def _judge_floor(groups: list[dict[str, float]], obj, site: _Grouped
                 ) -> tuple[str, float, str, dict[str, object]] | None:
    """A non-negative response whose printed group means sit within about one pooled
    within-group SD of zero: the ANOVA's own model (normal errors, one common SD) then
    predicts a sizeable share of negative values, yet none occur. The probability of that
    under the model, prod_i Phi(m_i / sigma)^n_i, measures how far the data are from it; a
    floor that close to the means forces a long right tail (or spreads growing with the
    mean). The pooled SD is the printed SDs' pooled value, or, without SDs, the residual
    variance implied by the printed means and the fit's R^2."""
    rng = obj.ranges.get(site.response) if obj is not None else None
    if not rng or not isinstance(rng[0], int | float) or rng[0] < 0 or len(groups) < 2:
        return None
    n = sum(g["n"] for g in groups)
    k = len(groups)
    if n - k < 2 or min(g["n"] for g in groups) >= 30:
        return None
    means = [g["mean"] for g in groups]
    if min(means) <= 0:
        return None
    if all("std" in g for g in groups):
        ssw = sum((g["n"] - 1) * g["std"] ** 2 for g in groups)
        source = "the group SDs pool to a within-group SD of"
    elif site.r2 is not None and 0.02 <= site.r2 < 0.98:
        grand = sum(g["n"] * g["mean"] for g in groups) / n
        ssb = sum(g["n"] * (g["mean"] - grand) ** 2 for g in groups)
        # the printed means are rounded: their spread must dwarf the rounding step
        if max(means) - min(means) < 50 * _resolution(means):
            return None
        ssw = ssb * (1 - site.r2) / site.r2
        source = (f"the group means with the ANOVA's R^2={site.r2:.2f} imply a pooled "
                  "within-group SD of")
    else:
        return None
    sigma = math.sqrt(ssw / (n - k))
    if sigma <= 0:
        return None
    nd = NormalDist()
    log_p = sum(g["n"] * math.log(max(nd.cdf(g["mean"] / sigma), 1e-300)) for g in groups)
    expected = sum(g["n"] * nd.cdf(-g["mean"] / sigma) for g in groups)
    if log_p >= math.log(0.01):
        return None
    p = math.exp(log_p)
    # p < 0.001: the model is untenable; 0.001-0.01: a strong sign, short of decisive
    severity, confidence = ("high", 0.7) if p < 1e-3 else ("medium", 0.5)
    lo = min(groups, key=lambda g: g["mean"])
    basis = (f"{source} {sigma:.3g}, while `{site.response}` never goes below "
             f"{rng[0]:g} and the group means are as low as {lo['mean']:.3g} "
             f"({lo['mean'] / sigma:.2f} SD above zero): normal errors with that SD would put "
             f"about {expected:.1f} of the {n:.0f} values below zero, and none are (probability "
             f"{p:.1g} under the ANOVA's model), so the within-group errors have a long right "
             "tail")
    values: dict[str, object] = {"pooled_sd": round(sigma, 3),
                                 "expected_below_zero": round(expected, 2),
                                 "floor_p": float(f"{p:.2g}")}
    return severity, confidence, basis, values


def _judge_proportional(groups: list[dict[str, float]], obj, site: _Grouped
                        ) -> tuple[str, float, str, dict[str, object]] | None:
    """A non-negative response whose printed group SDs rise in step with the group means
    (three or more small groups, means and SDs each spanning >= 2-fold, every group's SD at
    least 0.4 of its mean, the coefficients of variation within 2-fold of each other): the
    signature of a multiplicative, lognormal-like scale (lifetimes, concentrations, costs).
    The F-test's one pooled variance then misstates every group's spread and its errors are
    right-skewed; when the fit's residuals are known their skew must agree (> 0.5). Too few
    values to prove it, so medium."""
    if len(groups) < 3 or any("std" not in g or g["n"] < 3 for g in groups) or \
            min(g["n"] for g in groups) >= 30:
        return None
    rng = obj.ranges.get(site.response) if obj is not None else None
    mins = [g.get("min", g.get("floor")) for g in groups]
    if any(m is None or m < 0 for m in mins) or not rng or rng[0] < 0:
        return None
    if site.resid is not None and site.resid[0] < 0.5:
        return None
    ordered = sorted(groups, key=lambda g: g["mean"])
    if ordered[0]["mean"] <= 0 or ordered[0]["std"] <= 0 or not all(
            a["mean"] < b["mean"] and a["std"] < b["std"]
            for a, b in itertools.pairwise(ordered)):
        return None
    mean_ratio = ordered[-1]["mean"] / ordered[0]["mean"]
    sd_ratio = ordered[-1]["std"] / ordered[0]["std"]
    cvs = [g["std"] / g["mean"] for g in ordered]
    if mean_ratio < 2 or sd_ratio < 2 or min(cvs) < 0.4 or max(cvs) > 2 * min(cvs):
        return None
    basis = (f"the group SDs rise with the means ({ordered[0]['std']:.3g} at mean "
             f"{ordered[0]['mean']:.3g} up to {ordered[-1]['std']:.3g} at mean "
             f"{ordered[-1]['mean']:.3g}), a near-constant coefficient of variation of "
             f"{min(cvs):.2f}-{max(cvs):.2f} for a non-negative quantity: spread proportional "
             "to the level, the mark of a multiplicative, right-skewed (lognormal-like) scale"
             + (f"; the fit's residuals are right-skewed too (skew={site.resid[0]:.2f})"
                if site.resid is not None else ""))
    values: dict[str, object] = {"sd_ratio": round(sd_ratio, 2),
                                 "mean_ratio": round(mean_ratio, 2),
                                 "cv_min": round(min(cvs), 2), "cv_max": round(max(cvs), 2)}
    return "medium", 0.5, basis, values


def _judge_column_tails(obj, site: _Grouped, n: int, n_min: int
                        ) -> tuple[str, float, str, dict[str, object]] | None:
    """A non-negative response whose kernel tail facts show it zero-inflated (half or more
    of the rows tied at the minimum) with one value far beyond all others (>= 3x the next
    largest), the groups small (< 30) and explaining little of the variance: whichever group
    holds the extreme value is a few ties plus one outlier, as far from normal as its size
    allows, and that one value drives its mean and the pooled error."""
    if obj is None or n_min >= 30 or (site.r2 is not None and site.r2 >= 0.5):
        return None
    tails = obj.tails.get(site.response) or {}
    top, bottom = tails.get("top") or [], tails.get("bottom") or []
    rng = obj.ranges.get(site.response)
    if len(top) < 2 or not bottom or not rng or rng[0] < 0 or \
            (obj.unique.get(site.response) or 0) <= 3:
        return None
    (lo, ties), (x1, c1), (x2, _) = bottom[0], top[0], top[1]
    share = ties / n if n else 0.0
    if share < 0.5 or c1 != 1 or x2 <= lo or (x1 - lo) < 3 * (x2 - lo):
        return None
    basis = (f"`{site.response}` is zero-inflated and heavy-tailed: {ties} of {n} rows "
             f"({share:.0%}) sit at its minimum {lo:g}, and its largest value {x1:g} is "
             f"{(x1 - lo) / (x2 - lo):.1f}x the next largest ({x2:g})"
             + (f", while the groups explain only R^2={site.r2:.2f} of its variance"
                if site.r2 is not None else "")
             + "; the group holding that value is mostly ties plus one outlier, nowhere near "
             "normal")
    values: dict[str, object] = {"tied_share": round(share, 3),
                                 "top_ratio": round((x1 - lo) / (x2 - lo), 2),
                                 "r2": None if site.r2 is None else round(site.r2, 3)}
    return "high", 0.7, basis, values


def _resid_rejects(within: float, p: float | None, n: int, n_min: int) -> bool:
    """Residuals of a one-way fit with small groups (< 30) and fewer than 100 rows in all,
    skewed (>= 0.5) and rejected by Shapiro-Wilk at p < 0.001."""
    return p is not None and p < 1e-3 and within >= 0.5 and n < 100 and n_min < 30


def _floor_share(obj: ObjectFacts | None, column: str, n: int) -> tuple[float, int] | None:
    """(minimum, rows at it) of a column when a fifth or more of its rows share the
    minimum, from the kernel's tail facts."""
    tails = obj.tails.get(column) if obj is not None else None
    try:
        low, rows = tails["bottom"][0]  # type: ignore[index]
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return (float(low), int(rows)) if n and int(rows) / n >= 0.2 else None


def _skew_verdict(within: float, p: float | None, n_min: int) -> tuple[str, float] | None:
    if within < 1 or p is None or p >= 1e-3:
        return None
    return _judge(n_min, 3 if within >= 2 and n_min >= 8 else 2, False, within)


def _grouped_findings(ev: Evidence, seen: set[int],
                      nonparam_kinds: set[str]) -> Iterator[Finding]:
    for site in _grouped_sites(ev):
        obj = ev.objects.get(site.frame)
        sizes = obj.levels.get(site.factor, {}) if obj is not None else {}
        if len(sizes) < 2 or site.line in seen:
            continue
        n = sum(sizes.values())
        n_min = min(sizes.values())
        pooled = next((s for s in ev.samples if s.n == n and s.n_unique > 2 and
                       _expr_column(s.expr) == (site.frame, site.response)), None)
        # evidence in order: the pooled values (when their skew is more than the group means
        # can make), what the cell printed per group or the frame's tails, then the fit's
        # residuals (the within-group errors themselves, gathered for fitted models)
        verdict, within, p, basis = None, 0.0, None, ""
        if pooled is not None and pooled.skew is not None and site.r2 is not None:
            # the pooled values mix the groups: only the part of their skew the group means
            # cannot produce is evidence about the within-group errors
            within = _within_skew(pooled.skew, site.r2, n_min / n)
            p = pooled.normal_p
            basis = (f"the pooled response {_describe(pooled)} is far more skewed than "
                     f"differences between {len(sizes)} group means can make it (the groups "
                     f"explain only R^2={site.r2:.2f} of its variance, smallest group {n_min} "
                     f"of {n} rows), so the within-group errors have skew of at least "
                     f"{within:.1f} (or their spread grows with the group mean, which breaks "
                     "the equal-variance assumption as well)")
            verdict = _skew_verdict(within, p, n_min)
        if verdict is None:
            shown = list(_grouped_from_summaries(ev, site, obj, sizes, n, n_min, seen,
                                                 nonparam_kinds))
            if shown:
                yield from shown
                continue
        if verdict is None and site.resid is not None:
            within, p = abs(site.resid[0]), site.resid[1]
            basis = (f"the model's residuals (the within-group errors) have skew="
                     f"{site.resid[0]:.2f}" + (f", normality p={p:.2g}" if p is not None else ""))
            verdict = _skew_verdict(within, p, n_min)
            if verdict is None and _resid_rejects(within, p, n, n_min):
                # a moderate skew, but Shapiro-Wilk rejects the residuals decisively at a
                # total size where it has only modest power: the errors are clearly not normal
                # (a pile-up at a floor, a long tail), and with small groups nothing rescues it
                verdict = ("high", 0.65)
                piled = _floor_share(obj, site.response, n)
                if piled is not None:
                    basis += (f"; {piled[1]} of {n} rows sit at the response's minimum "
                              f"{piled[0]:g} (a pile-up at a floor, e.g. zero-inflated)")
        if verdict is None:
            continue
        severity, confidence = verdict
        if "anova" in nonparam_kinds:
            severity, confidence = "low", 0.3
        tests = " and ".join(f"`{t}`" for t in site.tests)
        seen.add(site.line)
        yield Finding(
            explanation=(f"{tests} (line {site.line}) compare the means of "
                         f"`{site.response}` across {len(sizes)} `{site.factor}` groups of "
                         f"{n_min}-{max(sizes.values())} rows, assuming normal within-group "
                         f"errors, but {basis}. With groups this small the central limit "
                         "theorem does not rescue the F-test or the Tukey intervals; a few "
                         "extreme values drive the means and the p-values are unreliable."),
            severity=severity, confidence=round(confidence, 3),
            evidence={"lines": [site.line], "values": {
                "n_min": n_min, "groups": len(sizes), "within_skew_min": round(within, 2),
                "r2": None if site.r2 is None else round(site.r2, 3),
                "normal_p": None if p is None else float(f"{p:.3g}")}},
            suggestion=("Compare the groups with a rank test (`scipy.stats.kruskal(*[g['"
                        f"{site.response}'] for _, g in {site.frame}.groupby('{site.factor}')])`"
                        ") and Holm-adjusted pairwise Mann-Whitney tests (or Dunn's test), or "
                        "fit the ANOVA to `np.log` of the response and report ratios of "
                        "geometric means."),
        )


def _grouped_from_summaries(ev: Evidence, site: _Grouped, obj: ObjectFacts | None,
                            sizes: dict[str, int], n: int,
                            n_min: int, seen: set[int],
                            nonparam_kinds: set[str]) -> Iterator[Finding]:
    """The grouped test judged from the per-group summary the cell printed, the ANOVA's own
    floor, or the frame's tails."""
    shown = _shown_group_stats(ev, site, sizes)
    verdict = _judge_group_stats(shown) if shown else None
    source = "the per-group summary the cell printed shows"
    if verdict is None and shown:
        verdict = _judge_floor(shown, obj, site)
        source = "in the per-group summary the cell printed,"
    if verdict is None and shown:
        verdict = _judge_proportional(shown, obj, site)
        source = "in the per-group summary the cell printed"
    if verdict is None:
        verdict = _judge_column_tails(obj, site, n, n_min)
        source = "the frame's values show"
    if verdict is None:
        return
    severity, confidence, basis, values = verdict
    if "anova" in nonparam_kinds:
        severity, confidence = "low", 0.3
    tests = " and ".join(f"`{t}`" for t in site.tests)
    seen.add(site.line)
    yield Finding(
        explanation=(f"{tests} (line {site.line}) compare the means of "
                     f"`{site.response}` across {len(sizes)} `{site.factor}` groups "
                     f"of {n_min}-{max(sizes.values())} rows with one pooled "
                     f"within-group variance and normal errors, but {source} "
                     f"{basis}. With groups this small "
                     "the F-test's pooled error is dominated by the widest, most "
                     "skewed group, so its p-value (significant or not) is "
                     "unreliable."),
        severity=severity, confidence=round(confidence, 3),
        evidence={"lines": [site.line], "values": {
            "n_min": n_min, "groups": len(sizes), **values}},
        suggestion=("Fit the ANOVA to the log of the response (`np.log(...)` in the "
                    "formula; report ratios of geometric means) when the spread "
                    "grows with the level, or compare the groups with a rank test "
                    f"(`scipy.stats.kruskal(*[g['{site.response}'] for _, g in "
                    f"{site.frame}.groupby('{site.factor}')])`) or Welch's ANOVA "
                    "(`pingouin.welch_anova`)."),
    )


@rule("parametric_assumptions.nonnormal_samples",
      title="Parametric test on skewed or tiny samples")
def parametric_on_nonnormal(ev: Evidence) -> Iterator[Finding]:
    """A t-test, ANOVA or Pearson correlation on samples that are clearly skewed for their
    size, or too small to check: the p-value relies on a normality that the data lack. Also
    through statsmodels' CompareMeans/DescrStatsW, a helper function wrapping the test, and
    groups unpacked from a named groupby or list (`f_oneway(*(g for _, g in groups))`)."""
    if ev.tree is None:
        return
    sites = _sites(ev)
    grouped = any(k in ev.code for k in ("anova_lm", "tukeyhsd", "f_pvalue", "fvalue",
                                         "f_oneway"))
    if not sites and not grouped:
        return
    nonparam_kinds = {spec.kind for _, _, spec in test_calls(ev.model) if not spec.parametric}
    generated: tuple[set[str], set[tuple[str, str]],
                     dict[str | tuple[str, str], int]] | None = None
    seen: set[int] = set()
    deferred: list[Finding] = []
    for site in sites:
        call, full, kind, facts = site.call, site.full, site.kind, site.facts
        if call.line in seen or site.transformed:
            continue
        if site.binary and not facts:
            continue  # a 0/1 outcome: a difference of proportions (point-biserial: judge x)
        if generated is None:
            generated = _generated_skewed(ev)
        names, cols, sizes = generated
        sources = [src for a in site.args
                   if (src := _arg_skewed(ev, a, names, cols)) is not None] \
            if (names or cols) else []
        code_skewed = bool(sources)
        test_name = full if " " in full else full.rsplit(".", 1)[-1]
        if facts:
            # two independent signals: the code's generator, or an extreme tiny sample
            code_skewed = code_skewed or any(_extreme_small(s) for s in facts)
            grades = [(_grade(s), s) for s in facts]
            n_min = min(s.n for s in facts)
            grade = max(g for g, _ in grades)
            skew_max = max(abs(s.skew or 0.0) for s in facts)
            skew_min = min(abs(s.skew or 0.0) for s in facts)
            verdict = _judge(n_min, grade, code_skewed, skew_max,
                             kind == "correlation", skew_min)
            if verdict is None:
                continue
            severity, confidence = verdict
            lone = len(facts) >= 2 and 8 <= n_min < 30 and grade == 2 and \
                not code_skewed and sum(g >= 1 for g, _ in grades) == 1
            if lone and severity == "high":
                # one sample clearly but not severely skewed (e.g. skew 1.7, Shapiro p 0.008
                # at n=10) while the others look normal: at this size such a draw is not rare
                # for normal data (less so across a loop of many such tests), so it is a
                # concern to check, not decisive evidence that the test is wrong
                severity, confidence = "medium", 0.5
            pooled = _pooled_within_skew(facts) if len(facts) >= 3 else None
            chance = pooled is not None and grade <= 2 and not code_skewed and \
                abs(pooled[0]) < 2 * pooled[1] and severity in ("high", "medium")
            if chance:
                # three or more groups, none severely skewed, and their within-group errors
                # pooled (the residuals the F-test assumes normal) show no more skew than
                # normal errors give at that total size: one or two groups of a handful
                # looking skewed is what so many small normal samples produce by chance
                severity, confidence = "low", 0.3
            ztest = n_min < 10 and re.search(r"\bz(?:test|confint)", test_name) is not None
            if ztest and severity in ("medium", "low"):
                # a z-test refers the statistic to the normal distribution whatever the data:
                # with a handful of values per group the t reference has far heavier tails,
                # so the p-value is too small even for normal data
                severity, confidence = "high", 0.7
            if kind == "paired":  # normality matters for the differences
                confidence -= 0.1
            logged = bool(site.args) and all(_log_scale(ev, a) for a in site.args)
            if logged and n_min >= 30 and severity in ("high", "critical"):
                # the analyst already applied the remedy (a log scale); what skew remains
                # at this size moves a test of the mean little
                severity, confidence = "medium", min(confidence, 0.5)
            described = "; ".join(_describe(s) for s in sorted(
                facts, key=lambda s: (-_grade(s), -abs(s.skew or 0.0)))[:3])
            if chance:
                why = "some of the small groups look skewed"
            elif grade >= 2 and n_min >= 30 and kind == "correlation":
                why = "both variables are heavy-tailed, so a few extreme pairs drive r"
            elif lone:
                why = "one of the samples is skewed"
            elif grade >= 2:
                why = ("the samples are clearly skewed for their size" if n_min >= 8 else
                       "there are too few observations to check normality, and they are "
                       "skewed")
            elif n_min < 8:
                why = "there are too few observations per group to check normality"
            else:
                why = "the samples are skewed"
            values: dict[str, object] = {
                "n_min": n_min, "skew": [round(s.skew, 2) for s in facts if s.skew is not None],
                "normal_p": [float(f"{s.normal_p:.3g}") for s in facts
                             if s.normal_p is not None]}
            explanation = (f"`{test_name}` (line {call.line}) assumes "
                           f"normally distributed data, but {why}: {described}.")
            if chance and pooled is not None:
                explanation += (f" But the {len(facts)} groups' within-group deviations "
                                f"pooled ({sum(s.n for s in facts)} values) have skew "
                                f"{pooled[0]:.2f}, within what normal errors give (standard "
                                f"error {pooled[1]:.2f}): across this many small groups one "
                                "or two skewed-looking samples are expected by chance, so "
                                "this is no evidence against the test.")
            elif lone:
                explanation += (" Only one sample shows it and not decisively (the others look "
                                "normal); check the distribution before trusting the p-value.")
            elif n_min < 30 and grade >= 2:
                explanation += (" With so few observations the central limit theorem does not "
                                "rescue the test; its p-value is unreliable.")
            if ztest:
                explanation += (f" A z-test also refers its statistic to the normal "
                                f"distribution, which with {n_min} values per group is far "
                                "too thin-tailed (the t distribution with so few degrees of "
                                "freedom is much wider): its p-value is too small even for "
                                "normal data; use a t-test or an exact/permutation test.")
            if kind == "paired":
                explanation += (" (A paired test assumes normal differences; samples this "
                                "skewed rarely give normal differences.)")
            if logged and n_min >= 30:
                explanation += (" The samples are already log-transformed, the usual remedy; "
                                f"with n={n_min} the remaining skew moves a test of the mean "
                                "little, so this is worth a check, not a different test.")
        else:
            if not code_skewed:
                continue
            size = next((sizes[src] for src in sources if src in sizes), None)
            severity, confidence = "high", 0.55
            if size is not None and size >= 100:
                continue  # large groups: the test is robust to moderate skew
            if size is not None and size < 8:
                severity, confidence = "critical", 0.7
            values = {"generator": "skewed", "generated_n": size}
            explanation = (f"`{test_name}` (line {call.line}) assumes normally "
                           "distributed data, but the samples are drawn from a skewed "
                           "(lognormal/exponential/Pareto-type) distribution and tested "
                           "untransformed.")
        if kind in nonparam_kinds:
            severity, confidence = "low", 0.3  # a rank-based check is run alongside
        twin = _NONPARAMETRIC_TWIN[kind]
        finding = Finding(
            explanation=explanation, severity=severity, confidence=round(confidence, 3),
            evidence={"lines": [call.line], "values": values},
            suggestion=(f"Use a test that does not assume normality ({twin}), or analyse a "
                        "transformation that makes the data roughly normal (e.g. "
                        "`np.log(x)` for right-skewed positive values) and report it; with "
                        "very small groups, report the raw values and an exact/permutation "
                        "test (`scipy.stats.permutation_test`)."),
        )
        if severity == "low" and kind not in nonparam_kinds:
            # a caution only (small samples, nothing skewed in them): the grouped judgement
            # of the same test, from what the cell printed, may have more to say
            deferred.append(finding)
            continue
        seen.add(call.line)
        yield finding
    if grouped:
        yield from _grouped_findings(ev, seen, nonparam_kinds)
    yield from (f for f in deferred if f.evidence["lines"][0] not in seen)


# -- linear models with normal errors on count outcomes -----------------------------------------

_COUNT_GEN = re.compile(r"\b(?:poisson|negative_binomial|geometric|zipf|logseries|"
                        r"binomial|nbinom|hypergeometric)\b")
_COUNT_TOKENS = {"count", "counts", "n", "num", "number", "visits", "events", "cases", "calls",
                 "clicks", "abundance", "arrivals", "defects", "incidents", "admissions",
                 "citations", "errors", "crashes", "deaths", "births", "sightings", "catch"}
_INFERENCE = {"anova_lm", "summary", "pvalues", "f_test", "t_test", "conf_int", "f_pvalue",
              "wald_test", "summary2", "bse", "tvalues", "pairwise_tukeyhsd"}
_OLS_FORMULA = {"ols", "wls"}
_OLS_ARRAY = {"OLS", "WLS"}


def _response(call: CallSite) -> tuple[str | None, str | None, bool]:
    """(frame, column, transformed) of the response of `smf.ols("y ~ x", data=df)` or
    `sm.OLS(df.y, X)` / `sm.OLS(y, X)` (frame None, column = the name)."""
    node = call.node
    if call.last in _OLS_FORMULA:
        f = node.args[0] if node.args else call.kwarg("formula")
        data = node.args[1] if len(node.args) > 1 else call.kwarg("data")
        if not (isinstance(f, ast.Constant) and isinstance(f.value, str)) or "~" not in f.value:
            return None, None, False
        lhs = f.value.split("~", 1)[0].strip()
        m = re.fullmatch(r"(?:Q\(['\"])?([A-Za-z_]\w*)(?:['\"]\))?", lhs)
        frame = data.id if isinstance(data, ast.Name) else None
        return frame, (m.group(1) if m else lhs), m is None
    y = node.args[0] if node.args else call.kwarg("endog")
    if y is None:
        return None, None, False
    transformed = _has_transform(y)
    if isinstance(y, ast.Name):
        return None, y.id, transformed
    root = root_name(y)
    if isinstance(y, ast.Attribute):
        return root, y.attr, transformed
    if isinstance(y, ast.Subscript) and isinstance(y.slice, ast.Constant) and isinstance(
            y.slice.value, str):
        return root, y.slice.value, transformed
    return None, None, transformed


@rule("parametric_assumptions.ols_on_counts",
      title="Normal-errors linear model / ANOVA on a count outcome")
def ols_on_counts(ev: Evidence) -> Iterator[Finding]:
    """OLS (and the ANOVA / t-tests read from it) on a small non-negative integer outcome:
    counts have variance tied to the mean (often overdispersed) and a floor at 0, so the equal
    variance, normal-error p-values are unreliable. Judged from the kernel's dtype and number of
    distinct values of the response, plus count-like generators or names; quiet for
    transformed responses, large counts, or models used only to predict."""
    if ev.tree is None:
        return
    calls = ev.model.calls
    inference = any(c.last in _INFERENCE for c in calls) or any(
        isinstance(n, ast.Attribute) and n.attr in _INFERENCE for n in _walk(ev.tree))
    if not inference:
        return
    hint_text = (ev.prior_code or "") + "\n" + ev.code
    generated = bool(_COUNT_GEN.search(hint_text))
    for c in calls:
        if c.last not in _OLS_FORMULA | _OLS_ARRAY:
            continue
        if c.last in _OLS_ARRAY and not (c.name or "").startswith("statsmodels"):
            continue
        frame, col, transformed = _response(c)
        if col is None or transformed:
            continue
        facts = ev.objects.get(frame) if frame else ev.objects.get(col)
        key = col if frame else ""
        if facts is None:
            continue
        dtype = facts.dtypes.get(key, "")
        uniq = facts.unique.get(key)
        if not re.match(r"u?int|Int|UInt", dtype) or uniq is None or not 3 <= uniq <= 40:
            continue
        named = any(t in _COUNT_TOKENS for t in re.split(r"[_\W]+", col.lower()))
        if not (generated or named):
            continue
        overdispersed = bool(re.search(r"negative_binomial|nbinom", hint_text))
        conf = 0.6 if overdispersed else 0.5
        what = f"`{frame}.{col}`" if frame else f"`{col}`"
        yield Finding(
            explanation=(f"Line {c.line} fits an ordinary least-squares model to {what}, an "
                         f"integer outcome with only {uniq} distinct values (dtype {dtype}): "
                         "a count. Counts have a floor at 0 and a variance that grows with the "
                         "mean (often far beyond it), so the constant-variance, normal-error "
                         "assumptions behind the ANOVA table, t-tests and confidence intervals "
                         "do not hold and the p-values can be badly off."
                         + (" The data come from an overdispersed (negative binomial) "
                            "generator." if overdispersed else "")),
            severity="medium", confidence=conf,
            evidence={"lines": [c.line], "values": {"dtype": dtype, "distinct_values": uniq}},
            suggestion=("Model the counts as counts: Poisson or negative binomial regression "
                        "(`smf.glm(..., family=sm.families.NegativeBinomial())`, "
                        "`smf.negativebinomial`) with a likelihood-ratio test, or a rank-based "
                        "test (`scipy.stats.kruskal`) for group differences."))


# -- Bartlett's variance test on non-normal samples ---------------------------------------------

_HEAVY_TAILED = _SKEWED_GENERATORS | {"laplace"}
_HEAVY_DISTS = _SKEWED_DISTS | {"laplace"}


def _heavy_expr(node: ast.AST) -> bool:
    """A heavy-tailed or skewed generator call, untransformed (`rng.standard_t(3, 40)`,
    `stats.laplace.rvs(...)`, `rng.lognormal(...)`)."""
    if isinstance(node, ast.Call):
        f = node.func
        attr = f.attr if isinstance(f, ast.Attribute) else (
            f.id if isinstance(f, ast.Name) else "")
        if attr in _TRANSFORMS:
            return False
        if attr == "standard_t":  # t with few degrees of freedom; t(30) is near-normal
            df = node.args[0] if node.args else None
            return isinstance(df, ast.Constant) and isinstance(df.value, int | float) \
                and df.value <= 10
        if attr in _HEAVY_TAILED:
            return True
        if attr == "rvs" and isinstance(f, ast.Attribute):
            dist = f.value.attr if isinstance(f.value, ast.Attribute) else (
                f.value.id if isinstance(f.value, ast.Name) else "")
            if dist in _HEAVY_DISTS:
                return True
    return any(_heavy_expr(child) for child in ast.iter_child_nodes(node))


def _heavy_names(ev: Evidence) -> set[str]:
    """Names (frames, arrays) the notebook fills from a heavy-tailed or skewed generator."""
    out: set[str] = set()
    m = ev.model
    for tree in (m._prior_tree, m.tree):
        if tree is None:
            continue
        for node in _walk(tree):
            if isinstance(node, ast.Assign) and _heavy_expr(node.value):
                for t in node.targets:
                    root = root_name(t)
                    if root:
                        out.add(root)
    return out


@rule("parametric_assumptions.bartlett_nonnormal",
      title="Bartlett's variance test on non-normal samples")
def bartlett_nonnormal(ev: Evidence) -> Iterator[Finding]:
    """Bartlett's test of equal variances is exact only for normal data: heavy tails or skew
    make it reject far more often than its nominal level, so 'the variances differ' is not
    evidence. Judged from the re-read samples (Shapiro p, skew) or, when they could not be
    read (`*(df[c] for c in cols)`), from a heavy-tailed/skewed generator feeding them."""
    if ev.tree is None or "bartlett" not in ev.code:
        return
    heavy: set[str] | None = None
    for call, full, _spec in test_calls(ev.model):
        if full != "scipy.stats.bartlett":
            continue
        facts = [s for s in ev.samples if s.line == call.line and s.n_unique > 2]
        values: dict[str, object]
        if facts:
            bad = [s for s in facts if s.n >= 8 and (
                _grade(s) >= 2 or (s.normal_p is not None and s.normal_p < 0.01))]
            if not bad:
                continue
            strong = any(s.normal_p is not None and s.normal_p < 1e-3 for s in bad)
            severity, confidence = ("high", 0.8) if strong else ("high", 0.65)
            described = "; ".join(_describe(s) for s in bad[:3])
            why = f"the samples are not normal: {described}"
            values = {"normal_p": [float(f"{s.normal_p:.3g}") for s in bad
                                   if s.normal_p is not None]}
        else:
            if heavy is None:
                heavy = _heavy_names(ev)
            read = names_in(call.node)
            deps = set(read)
            for name in read:
                deps |= ev.model.dependencies(name)
            sources = sorted(deps & heavy)
            if not sources or _has_transform(call.node):
                continue
            severity, confidence = "high", 0.6
            why = (f"`{sources[0]}` is drawn from a heavy-tailed or skewed distribution and "
                   "tested untransformed")
            values = {"generated": sources[:3]}
        yield Finding(
            explanation=(f"`bartlett` (line {call.line}) assumes normally distributed groups, "
                         f"but {why}. Under heavy tails or skew Bartlett's test rejects equal "
                         "variances far more often than its nominal level, so its p-value "
                         "does not show that the spreads differ."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line], "values": values},
            suggestion=("Use a robust test of equal spread: `scipy.stats.levene(*groups, "
                        "center='median')` (Brown-Forsythe) or `scipy.stats.fligner(*groups)`, "
                        "and report robust spreads (IQR, MAD) per group."))


# -- normal-approximation proportion tests on tiny counts ---------------------------------------

def _numbers_of(ev: Evidence, node: ast.AST | None) -> list[float] | None:
    """Literal numbers or a name's short numeric values (`[0, 4]`, `np.array([3, 9])`, `k`)."""
    if node is None:
        return None
    if isinstance(node, ast.Call) and node.args and called_name(node) in ("array", "asarray"):
        node = node.args[0]
    try:
        v = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        v = None
    if isinstance(v, int | float) and not isinstance(v, bool):
        return [float(v)]
    if isinstance(v, list | tuple) and v and all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in v):
        return [float(x) for x in v]
    if isinstance(node, ast.Name):
        f = ev.objects.get(node.id)
        if f is not None:
            if f.values:
                return [float(x) for x in f.values]
            if isinstance(f.value, int | float) and not isinstance(f.value, bool):
                return [float(f.value)]
    return None


def _totals(ev: Evidence, call: CallSite, slot: int, key: str) -> tuple[float, float, int] | None:
    """(sum, min, number of groups) of the count or nobs argument."""
    s = next((s for s in ev.samples if s.line == call.line and s.arg in (slot, key)
              and s.n > 0 and s.mean is not None and s.min is not None), None)
    if s is not None:
        return s.mean * s.n, s.min, s.n  # type: ignore[operator]
    nums = _numbers_of(ev, call.arg(slot, key))
    if nums:
        return sum(nums), min(nums), len(nums)
    return None


@rule("parametric_assumptions.ztest_small_counts",
      title="Normal-approximation proportion test on tiny counts")
def ztest_small_counts(ev: Evidence) -> Iterator[Finding]:
    """A z-test of proportions (`proportions_ztest`) relies on the normal approximation to
    the binomial, which needs about 5 expected successes and failures per group; with a
    handful of events (0/14 vs 4/15) its p-value can be far from the exact one."""
    if ev.tree is None or "proportions_ztest" not in ev.code:
        return
    for call, full, _spec in test_calls(ev.model):
        if not full.endswith("proportions_ztest"):
            continue
        counts, nobs = _totals(ev, call, 0, "count"), _totals(ev, call, 1, "nobs")
        if counts is None or nobs is None or nobs[0] <= 0:
            continue
        (c_sum, c_min, groups), (n_sum, n_min, _) = counts, nobs
        if groups >= 2:
            pooled = c_sum / n_sum
        else:
            value = call.kwarg_value("value", None)
            if value is None and len(call.node.args) > 2:
                value = _const(call.node.args[2])
            pooled = float(value) if isinstance(value, int | float) else c_sum / n_sum
        expected = n_min * min(pooled, 1 - pooled)
        if expected >= 5:
            continue
        severity, confidence = ("high", 0.8) if expected < 3 or c_min == 0 else ("high", 0.7)
        yield Finding(
            explanation=(f"`proportions_ztest` (line {call.line}) uses the normal approximation "
                         f"to the binomial, but the smallest group expects only {expected:.1f} "
                         f"events (pooled rate {pooled:.3f}, smallest n {n_min:.0f}); with so "
                         "few events the z statistic is not normal and the p-value can be far "
                         "from the exact one."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line],
                      "values": {"expected_min": round(expected, 2), "pooled": round(pooled, 4),
                                 "count_total": c_sum, "nobs_total": n_sum}},
            suggestion=("Use an exact test: `scipy.stats.fisher_exact` or "
                        "`scipy.stats.boschloo_exact` on the 2x2 table (or "
                        "`scipy.stats.binomtest` for one proportion), and report the counts."))


def _const(node: ast.AST) -> object:
    return node.value if isinstance(node, ast.Constant) else None


# -- Student's pooled-variance test with unequal spreads and unequal group sizes -----------------

_POOLED_FIX = ("Use Welch's test, which keeps each group's own variance: "
               "`stats.ttest_ind(a, b, equal_var=False)` (statsmodels: `usevar='unequal'`; "
               "for several groups `scipy.stats.alexandergovern(*groups)` or "
               "`pingouin.welch_anova`), and report each group's n and SD.")


def _pooled_call(call: CallSite, full: str) -> bool:
    """Whether this test pools the group variances (Student's t, classic one-way ANOVA)."""
    if full in ("scipy.stats.ttest_ind", "scipy.stats.ttest_ind_from_stats",
                "scipy.stats.f_oneway"):
        return call.kwarg_value("equal_var", True) is True
    if full.startswith("statsmodels") and full.endswith(("ttest_ind", "ztest")):
        return call.kwarg_value("usevar", "pooled") == "pooled"
    if full.startswith("statsmodels ") and full.endswith(("ttest_ind", "tconfint_diff",
                                                          "ztest_ind", "zconfint_diff")):
        return call.kwarg_value("usevar", "pooled") == "pooled"
    if full == "pingouin.ttest":
        return call.kwarg_value("correction", "auto") is False
    return full == "pingouin.anova"


def _se_inflation(groups: list[tuple[float, float]]) -> tuple[float, int, int] | None:
    """How much larger the standard error of a mean difference really is than the pooled one
    the test uses: max over pairs of sqrt((s_i²/n_i + s_j²/n_j) / (s_p² (1/n_i + 1/n_j))),
    with the pooled variance s_p² of all groups. (ratio, i, j); 1.0 when sizes or spreads
    are equal, above 1 when the smaller group has the larger spread (the test is liberal)."""
    usable = [(n, s) for n, s in groups if n >= 2 and s is not None and s >= 0]
    if len(usable) != len(groups) or len(groups) < 2:
        return None
    total = sum(n for n, _ in groups)
    pooled = sum((n - 1) * s * s for n, s in groups) / max(1, total - len(groups))
    if pooled <= 0:
        return None
    best: tuple[float, int, int] | None = None
    for i, (ni, si) in enumerate(groups):
        for j, (nj, sj) in enumerate(groups[i + 1:], i + 1):
            ratio = math.sqrt((si * si / ni + sj * sj / nj) / (pooled * (1 / ni + 1 / nj)))
            if best is None or ratio > best[0]:
                best = (ratio, i, j)
    return best


def _from_stats_groups(ev: Evidence, call: CallSite) -> list[tuple[float, float]] | None:
    """(n, sd) of both groups of `ttest_ind_from_stats(mean1, std1, nobs1, mean2, std2,
    nobs2)` from literals or the kernel's scalars."""
    slots = [(1, "std1"), (2, "nobs1"), (4, "std2"), (5, "nobs2")]
    nums = [_numbers_of(ev, call.arg(i, k)) for i, k in slots]
    if any(not v or len(v) != 1 for v in nums):
        return None
    (s1,), (n1,), (s2,), (n2,) = nums  # type: ignore[misc]
    return [(n1, s1), (n2, s2)]


@rule("parametric_assumptions.pooled_variance_unequal_spread",
      title="Pooled-variance t-test / ANOVA on groups of unequal size and spread")
def pooled_variance_unequal_spread(ev: Evidence) -> Iterator[Finding]:
    """Student's t-test (`ttest_ind`'s default `equal_var=True`, statsmodels' `usevar=
    'pooled'`) and the classic one-way ANOVA pool the groups' variances. With equal group
    sizes that is robust; when the groups differ in size and the smaller one is the more
    scattered, the pooled standard error is far too small and the p-value far too small
    (Welch's test exists for this). Judged from the kernel's n and SD of each sample: the
    ratio of the correct (unpooled) standard error to the pooled one. Critical (0.85) when it
    is at least 2 and the result is reported, high (0.75) from 1.4, medium (0.5) from 1.2."""
    if ev.tree is None or not any(w in ev.code for w in ("ttest", "f_oneway", "anova",
                                                         "CompareMeans")):
        return
    seen: set[int] = set()
    for site in _sites(ev):
        call, full = site.call, site.full
        if call.line in seen or site.kind not in ("independent", "anova") or \
                not _pooled_call(call, full):
            continue
        if full.endswith("ttest_ind_from_stats"):
            groups = _from_stats_groups(ev, call)
            described = "the summary statistics passed"
        else:
            facts = [s for s in site.facts if s.std is not None and s.n >= 2]
            if len(facts) < 2 or len(facts) != len(site.facts):
                continue
            groups = [(float(s.n), float(s.std)) for s in facts]  # type: ignore[arg-type]
            described = "; ".join(f"`{s.expr}` n={s.n}, SD={s.std:.3g}" for s in facts[:4])
        if not groups:
            continue
        found = _se_inflation(groups)
        if found is None or found[0] < 1.2:
            continue
        ratio, i, j = found
        (ni, si), (nj, sj) = groups[i], groups[j]
        reported = any(ev.model.is_reported(t) for t in call.targets) or any(
            any(sub is call.node for sub in _walk(e)) for e in ev.model.reported_exprs)
        if ratio >= 2:
            severity, confidence = ("critical", 0.85) if reported else ("high", 0.8)
        elif ratio >= 1.4:
            severity, confidence = "high", 0.75
        else:
            severity, confidence = "medium", 0.5
        seen.add(call.line)
        test = full if " " in full else full.rsplit(".", 1)[-1]
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) pools the group variances (Student's "
                         f"test), but the groups differ in both size and spread ({described}): "
                         f"the group of {ni:.0f} has SD {si:.3g} and the group of {nj:.0f} has "
                         f"SD {sj:.3g}. The standard error of the difference is really "
                         f"{ratio:.1f}x the pooled one, so the test statistic is inflated by "
                         f"that factor and the p-value is far too small."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line],
                      "values": {"se_ratio": round(ratio, 2), "n": [ni, nj],
                                 "sd": [round(si, 4), round(sj, 4)]}},
            suggestion=_POOLED_FIX)


# -- Wald (normal-approximation) intervals for proportions with few events -----------------------

_WALD_FIX = ("Use an interval that holds for few events: Wilson or exact Clopper-Pearson "
             "(`statsmodels.stats.proportion.proportion_confint(k, n, method='wilson')` or "
             "`method='beta'`; `scipy.stats.binomtest(k, n).proportion_ci(method="
             "'wilson')`), and show the counts behind each rate.")


def _same(a: ast.AST, b: ast.AST) -> bool:
    return ast.dump(a) == ast.dump(b)


def _one_minus(node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and \
            _const(node.left) in (1, 1.0):
        return node.right
    return None


def _wald_parts(node: ast.AST) -> tuple[ast.AST, ast.AST] | None:
    """(p, n) of the Wald standard error `p * (1 - p) / n` (either order of the product)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and
            isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.Mult)):
        return None
    a, b = node.left.left, node.left.right
    for p, q in ((a, b), (b, a)):
        inner = _one_minus(q)
        if inner is not None and _same(inner, p):
            return p, node.right
    return None


def _wald_sites(tree: ast.AST) -> list[tuple[ast.AST, ast.AST, ast.AST]]:
    """(sqrt node, p, n) for `sqrt(p * (1 - p) / n)` and `(p * (1 - p) / n) ** 0.5`."""
    out: list[tuple[ast.AST, ast.AST, ast.AST]] = []
    for node in _walk(tree):
        inner = None
        if isinstance(node, ast.Call) and called_name(node) == "sqrt" and node.args:
            inner = node.args[0]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and \
                _const(node.right) == 0.5:
            inner = node.left
        parts = _wald_parts(inner) if inner is not None else None
        if parts is not None:
            out.append((node, *parts))
    return out


def _stmt_keys(stmt: ast.stmt) -> list[str]:
    """Names and string-keyed columns a statement assigns (`lo`, `df["ci_low"]`)."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else (
        [stmt.target] if isinstance(stmt, ast.AnnAssign | ast.AugAssign) else [])
    keys: list[str] = []
    for t in targets:
        for sub in _walk(t):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                keys.append(sub.id)
            elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and \
                    isinstance(sub.slice.value, str):
                keys.append(sub.slice.value)
    return keys


def _refs(node: ast.AST) -> set[str]:
    """Names, and columns read as `df.col` / `df["col"]`, in an expression."""
    out = names_in(node)
    for sub in _walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
            out.add(sub.attr)
        elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and \
                isinstance(sub.slice.value, str):
            out.add(sub.slice.value)
    return out


def _observed(ev: Evidence, key: str) -> list[float]:
    """Values of a name (kernel facts) or of a printed column named `key`."""
    f = ev.objects.get(key)
    if f is not None and f.kind in ("series", "ndarray", "sequence", "scalar"):
        vals = [float(v) for v in (f.values or [])]
        if isinstance(f.value, int | float) and not isinstance(f.value, bool):
            vals.append(float(f.value))
        if vals:
            return vals
    if ev.text and key in ev.text:
        from .suspicious_values import _column_in_text

        return [v for v in _column_in_text(ev.text, key) if v == v]
    return []


def _scalar(ev: Evidence, node: ast.AST | None) -> float | None:
    """A number, a scalar name the kernel reports, or a sum/difference/product of those
    (`tp + fn`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and \
            not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name):
        f = ev.objects.get(node.id)
        if f is not None and isinstance(f.value, int | float) and not isinstance(f.value, bool):
            return float(f.value)
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
        a, b = _scalar(ev, node.left), _scalar(ev, node.right)
        if a is None or b is None:
            return None
        return a + b if isinstance(node.op, ast.Add) else (
            a - b if isinstance(node.op, ast.Sub) else a * b)
    return None


_CLIPS = {"min", "max", "clip", "minimum", "maximum"}


def _wald_counts(ev: Evidence, site: ast.AST, p: ast.AST, n_node: ast.AST
                 ) -> list[tuple[float, float, str]]:
    """(events, trials, source) behind the Wald standard error at `site`: `p = k / n` read
    from the kernel's scalars, directly or through a helper `def wald(k, n)` called with
    `wald(tp, tp + fn)` in the cell."""
    m = ev.model
    line = getattr(site, "lineno", 0)
    fn = next((f for f in _functions(ev).values()
               if f.lineno <= line <= (f.end_lineno or f.lineno)), None)
    k_node: ast.AST | None = None
    if isinstance(p, ast.BinOp) and isinstance(p.op, ast.Div):
        k_node, n_node = p.left, p.right
    elif isinstance(p, ast.Name):
        lo, hi = (fn.lineno, fn.end_lineno or fn.lineno) if fn is not None else (0, line)
        a = max((a for a in m.assigned_at(p.id) if lo <= a.line <= min(hi, line)
                 and isinstance(a.value, ast.BinOp) and isinstance(a.value.op, ast.Div)),
                key=lambda a: a.line, default=None)
        if a is not None:
            k_node = a.value.left  # type: ignore[union-attr]
            n_node = a.value.right  # type: ignore[union-attr]
    if k_node is None:
        return []
    params = [x.arg for x in fn.args.args] if fn is not None else []
    kp = k_node.id if isinstance(k_node, ast.Name) and k_node.id in params else None
    np_ = n_node.id if isinstance(n_node, ast.Name) and n_node.id in params else None
    if fn is None or (kp is None and np_ is None):
        return [(k, n, f"{m.src(k_node)} / {m.src(n_node)}")
                for k, n in _paired_numbers(ev, k_node, n_node)]
    out = []
    for c in m.calls:
        if not (isinstance(c.node.func, ast.Name) and c.node.func.id == fn.name):
            continue
        ka = c.arg(params.index(kp), kp) if kp else k_node
        na = c.arg(params.index(np_), np_) if np_ else n_node
        out += [(k, n, m.src(c.node)) for k, n in _paired_numbers(ev, ka, na)]
    return out


def _paired_numbers(ev: Evidence, k_node: ast.AST | None, n_node: ast.AST | None
                    ) -> list[tuple[float, float]]:
    """(events, trials) pairs: scalars (`tp`, `tp + fn`) or equally long short arrays the
    kernel lists (`np.array([48, 19])` over `np.array([50, 20])`; one n for every k)."""
    k, n = _scalar(ev, k_node), _scalar(ev, n_node)
    if k is not None and n is not None:
        return [(k, n)]
    ks = [k] if k is not None else _numbers_of(ev, k_node)
    ns = [n] if n is not None else _numbers_of(ev, n_node)
    if not ks or not ns:
        return []
    if len(ns) == 1:
        ns = ns * len(ks)
    return list(zip(ks, ns, strict=True)) if len(ks) == len(ns) else []


@rule("parametric_assumptions.wald_interval_few_events",
      title="Wald (normal-approximation) interval for a proportion with few events")
def wald_interval_few_events(ev: Evidence) -> Iterator[Finding]:
    """`p ± z·sqrt(p(1-p)/n)` (by hand, or `proportion_confint`'s default method='normal')
    needs several events and non-events per group: with 0 events it has zero width, and with
    fewer than about 4 events its lower limit falls below 0. Flagged from evidence only: the
    kernel's counts passed to `proportion_confint` (some group with <= 3 events: high; < 10:
    medium), or interval bounds computed by hand whose values (kernel facts or the printed
    table) go below 0 or whose half-widths are exactly 0."""
    if ev.tree is None or not ("1 -" in ev.code or "1-" in ev.code or
                               "proportion_confint" in ev.code):
        return
    m = ev.model
    for call, full, _spec in test_calls(m):
        if not full.endswith("proportion_confint"):
            continue
        if call.kwarg_value("method", "normal") != "normal":
            continue
        counts = next((s for s in ev.samples if s.line == call.line and s.arg in (0, "count")
                       and s.n > 0 and s.min is not None), None)
        nobs = next((s for s in ev.samples if s.line == call.line and s.arg in (1, "nobs")
                     and s.n > 0 and s.min is not None), None)
        if counts is None:
            nums = _numbers_of(ev, call.arg(0, "count"))
            k_min = min(nums) if nums else None
        else:
            k_min = counts.min
        if k_min is None:
            continue
        if nobs is not None and counts is not None and counts.max is not None and \
                nobs.max is not None and counts.n == nobs.n == 1:
            k_min = min(k_min, nobs.max - counts.max)  # non-events count as well
        pairs = [(k, n) for k, n in _paired_numbers(ev, call.arg(0, "count"),
                                                     call.arg(1, "nobs")) if 0 <= k <= n]
        if pairs:  # a rate near 1 has as few non-events as a rare one has events
            k_min = min(k_min, *(n - k for k, n in pairs))
        if k_min >= 10:
            continue
        severity, confidence = ("high", 0.8) if k_min <= 3 else ("medium", 0.5)
        yield Finding(
            explanation=(f"`proportion_confint` (line {call.line}) uses its default "
                         f"method='normal' (Wald), but some group has only {k_min:.0f} "
                         "events (or non-events): the normal approximation fails there - "
                         "with 0 the interval has zero width, with 1-3 a limit falls outside "
                         "[0, 1] - and its coverage is well under the nominal 95%."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line], "values": {"min_events": k_min}},
            suggestion=_WALD_FIX)
        return
    sites = _wald_sites(m.tree)
    if not sites:
        return
    # names / columns holding the half-width or standard error, then the bounds built on them
    se_keys: set[str] = set()
    bound_keys: list[tuple[str, int]] = []
    se_nodes = {id(s) for s, _, _ in sites}
    for st in _walk(m.tree):
        if not isinstance(st, ast.Assign):
            continue
        keys = _stmt_keys(st)
        holds_se = any(id(n) in se_nodes for n in _walk(st.value))
        if not holds_se and not _refs(st.value) & se_keys:
            continue

        def has_se(node: ast.AST, keys_so_far: set[str] = se_keys) -> bool:
            return any(id(n) in se_nodes for n in _walk(node)) or bool(
                _refs(node) & keys_so_far)

        # p ± (something with the standard error): a bound of the interval
        bound = any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add | ast.Sub) and any(
            any(_same(side, p) for _, p, _ in sites) and has_se(other)
            for side, other in ((n.left, n.right), (n.right, n.left)))
            for n in _walk(st.value))
        if bound:
            bound_keys += [(k, st.lineno) for k in keys]
        elif holds_se:
            se_keys |= set(keys)
    evidence: list[str] = []
    values: dict[str, object] = {}
    lines = sorted({getattr(s, "lineno", 0) for s, _, _ in sites})
    for key, line in bound_keys:
        vals = _observed(ev, key)
        neg = [v for v in vals if v < 0]
        if neg:
            evidence.append(f"`{key}` has {len(neg)} value(s) below 0 (lowest {min(neg):.3g})")
            values[key] = round(min(neg), 4)
            lines.append(line)
    for key in se_keys:
        vals = _observed(ev, key)
        zeros = [v for v in vals if v == 0]
        if zeros:
            evidence.append(f"`{key}` is exactly 0 for {len(zeros)} group(s) (0 or all events)")
            values[key + "_zero"] = len(zeros)
    for _, p, _n in sites:  # p = k / n with the event counts in the kernel
        if isinstance(p, ast.BinOp) and isinstance(p.op, ast.Div):
            ks = _numbers_of(ev, p.left)
            if ks and min(ks) <= 3:
                evidence.append(f"`{m.src(p.left)}` has as few as {min(ks):.0f} events")
                values["min_events"] = min(ks)
    strong = bool(evidence)
    fewest: tuple[float, float, float, str] | None = None  # (min side, k, n, source)
    for site, p, n_node in sites if not strong else []:
        # events and non-events both count: a rate near 1 (a sensitivity of 18/19) has as
        # few non-events as a rare outcome has events, and its upper limit leaves [0, 1]
        for k, n, src in _wald_counts(ev, site, p, n_node):
            if 0 <= k <= n and n > 0 and (fewest is None or min(k, n - k) < fewest[0]):
                fewest = (min(k, n - k), k, n, src)
    if fewest is not None and fewest[0] < 10:
        side, k, n, src = fewest
        which = ("event" if k <= n - k else "non-event") + ("" if side == 1 else "s")
        evidence.append(f"`{src}` gives {k:.0f}/{n:.0f} = {k / n:.1%}, with only "
                        f"{side:.0f} {which} (n*p or n*(1-p) = {side:.0f})")
        values.update(min_side=side, events=k, trials=n)
        strong = side <= 3
    if not evidence:
        return
    tail = ("here the intervals leave [0, 1] or collapse to zero width, and their coverage "
            "is far below 95%.")
    if "min_side" in values:
        clipped = any(isinstance(x, ast.Call) and called_name(x) in _CLIPS and
                      _refs(x) & se_keys for x in _walk(m.tree)) if se_keys else False
        tail = ("with a rate this close to 0 or 1 the sampling distribution is skewed, the "
                "symmetric interval reaches past the boundary on one side and is too "
                "narrow on the other, and its coverage is well below 95%"
                + (" (the bounds are clipped to [0, 1], which hides the overshoot but does "
                   "not repair the other limit)" if clipped else "")
                + "; a claim resting on a limit of this interval is not supported.")
    yield Finding(
        explanation=(f"Line {lines[0]} builds a Wald interval p ± z·sqrt(p(1-p)/n) for a "
                     f"proportion, and the groups have too few events for it: "
                     f"{'; '.join(evidence[:3])}. The normal approximation needs several "
                     "events and non-events per group; " + tail),
        severity="high" if strong else "medium", confidence=0.8 if strong else 0.5,
        evidence={"lines": sorted(set(lines)), "values": values},
        suggestion=_WALD_FIX)


# -- asymptotic chi-square on sparse tables ------------------------------------------------------

_EXACT_TESTS = {"fisher_exact", "barnard_exact", "boschloo_exact", "permutation_test",
                "MonteCarloMethod", "PermutationMethod", "multinomtest", "exact_multinomial"}
_CHI2_CALLS = ("scipy.stats.chi2_contingency", "scipy.stats.chisquare",
               "statsmodels.stats.proportion.proportions_chisquare")
_CHI2_FIX = ("Use an exact test: `scipy.stats.fisher_exact` (2x2, or any r x c table with "
             "`method=stats.MonteCarloMethod(...)` / a permutation over the rows), "
             "`scipy.stats.boschloo_exact` for a 2x2 table, or an exact multinomial / "
             "Monte Carlo goodness-of-fit test; or pool sparse categories into larger ones "
             "before a chi-square test, and report the expected counts.")


def _parent_of(stmt: ast.AST, node: ast.AST) -> ast.AST | None:
    for parent in _walk(stmt):
        for child in ast.iter_child_nodes(parent):
            if child is node:
                return parent
    return None


def _table_node(node: ast.AST | None) -> ast.AST | None:
    """`t` in `t`, `t.values`, `t.to_numpy()`, `np.array(t)`, `t.T`."""
    while node is not None:
        if isinstance(node, ast.Attribute) and node.attr in ("values", "T", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("to_numpy", "transpose", "astype", "copy"):
            node = node.func.value
        elif isinstance(node, ast.Call) and node.args and \
                called_name(node) in ("array", "asarray"):
            node = node.args[0]
        else:
            return node
    return None


def _table_param(ev: Evidence, name: str | None, key: str) -> dict | None:
    f = ev.objects.get(name) if name else None
    if f is None:
        return None
    t = f.params.get(key) if isinstance(f.params, dict) else None
    return t if isinstance(t, dict) else None


def _expected_of(ev: Evidence, call: CallSite, full: str
                 ) -> tuple[float, int, int, str] | None:
    """(smallest expected count, cells expected below 5, cells, where it was read)."""
    if full.endswith("chi2_contingency"):
        targets = call.targets
        direct = isinstance(call.stmt, ast.Assign) and call.stmt.value is call.node
        if direct and len(targets) == 1:  # res = chi2_contingency(t): res.expected_freq
            e = _table_param(ev, targets[0], "expected")
            if e and "min" in e:
                shape = e.get("shape") or [0, 0]
                return float(e["min"]), int(e["below5"]), shape[0] * shape[1], \
                    f"`{targets[0]}.expected_freq`"
        if direct and len(targets) == 4:  # chi2, p, dof, expected = chi2_contingency(t)
            e = _table_param(ev, targets[3], "table")
            if e and "min" in e:
                shape = e.get("shape") or [0, 0]
                return float(e["min"]), int(e["below5"]), shape[0] * shape[1], \
                    f"`{targets[3]}`"
        node = _table_node(call.arg(0, "observed"))
        if isinstance(node, ast.Name):
            t = _table_param(ev, node.id, "table")
            if t and "expected_min" in t:
                shape = t.get("shape") or [0, 0]
                return float(t["expected_min"]), int(t["expected_below5"]), \
                    shape[0] * shape[1], f"the table `{node.id}`"
        return None
    if full.endswith("proportions_chisquare"):
        counts, nobs = _totals(ev, call, 0, "count"), _totals(ev, call, 1, "nobs")
        if counts is None or nobs is None or nobs[0] <= 0 or counts[2] < 2:
            return None
        pooled = counts[0] / nobs[0]
        expected = nobs[1] * min(pooled, 1 - pooled)
        return expected, int(expected < 5), 2 * counts[2], "the counts and group sizes"
    # chisquare(f_obs, f_exp=None): expected = f_exp, or the observed total spread evenly
    obs = _numbers_of(ev, _table_node(call.arg(0, "f_obs")))
    if not obs or len(obs) < 2:
        return None
    exp_node = call.arg(1, "f_exp")
    if exp_node is not None and not (isinstance(exp_node, ast.Constant)
                                     and exp_node.value is None):
        exp = _numbers_of(ev, _table_node(exp_node))
        if not exp or len(exp) != len(obs):
            return None
    else:
        exp = [sum(obs) / len(obs)] * len(obs)
    return min(exp), sum(1 for e in exp if e < 5), len(exp), "the observed counts"


def _only_expected_read(call: CallSite) -> bool:
    """`chi2_contingency(t).expected_freq` / `chi2_contingency(t)[3]`: the expected counts
    are computed (to check them), not the test's p-value."""
    parent = _parent_of(call.stmt, call.node)
    if isinstance(parent, ast.Attribute) and parent.attr == "expected_freq":
        return True
    return isinstance(parent, ast.Subscript) and isinstance(parent.slice, ast.Constant) and \
        parent.slice.value in (3, -1)


@rule("parametric_assumptions.chi2_sparse_table",
      title="Chi-square test on a table with small expected counts")
def chi2_sparse_table(ev: Evidence) -> Iterator[Finding]:
    """Pearson's chi-square (`chi2_contingency`, `chisquare`, `proportions_chisquare`) is an
    asymptotic test: its p-value is trustworthy only when the expected counts are large
    enough (Cochran: none below 1 and at most 20% below 5). With sparse cells the chi-square
    distribution does not hold and the p-value can be far from the exact one. Read from the
    kernel: the expected counts of the result, or those implied by the observed table."""
    if ev.tree is None or "chi" not in ev.code:
        return
    calls = [(c, full) for c, full, _ in test_calls(ev.model) if full in _CHI2_CALLS]
    if not calls:
        return
    exact = any(c.last in _EXACT_TESTS or (c.method or "") in _EXACT_TESTS
                for c in ev.model.calls) or any(
        isinstance(n, ast.Attribute | ast.Name) and
        (n.attr if isinstance(n, ast.Attribute) else n.id) in _EXACT_TESTS
        for n in _walk(ev.tree))
    for call, full in calls:
        if _only_expected_read(call) or call.has_kwarg("method"):
            continue
        found = _expected_of(ev, call, full)
        if found is None:
            continue
        e_min, below5, cells, where = found
        share = below5 / cells if cells else 0.0
        if e_min >= 1 and share <= 0.2:
            continue
        if e_min < 1 and share > 0.2:
            severity, confidence = "high", 0.8
        elif e_min < 1 or (share > 0.2 and e_min < 2):
            severity, confidence = "high", 0.7
        else:
            severity, confidence = "medium", 0.55  # Cochran's rule alone is conservative
        if exact:
            severity, confidence = "low", 0.3  # an exact test is run alongside
        test = full.rsplit(".", 1)[-1]
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) uses the asymptotic chi-square "
                         f"distribution, but the expected counts ({where}) are as small as "
                         f"{e_min:.2f}, with {below5} of {cells} cells expected below 5 "
                         f"({share:.0%}). The approximation needs no expected count below 1 "
                         "and at most 20% below 5; with cells this sparse the p-value can be "
                         "far from the exact one."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line],
                      "values": {"expected_min": round(e_min, 3), "cells_below_5": below5,
                                 "cells": cells}},
            suggestion=_CHI2_FIX)


# -- a correlation / straight-line fit carried by one point ---------------------------------------

_PAIR_TESTS = {"scipy.stats.linregress", "scipy.stats.pearsonr", "pingouin.corr"}
_ROBUST_FITS = {"spearmanr", "kendalltau", "theilslopes", "siegelslopes", "HuberRegressor",
                "RANSACRegressor", "TheilSenRegressor", "rlm", "RLM", "somersd", "weightedtau",
                "get_influence", "cooks_distance", "OLSInfluence", "outlier_test"}


@rule("parametric_assumptions.single_point_leverage",
      title="Correlation or regression p-value carried by a single point")
def single_point_leverage(ev: Evidence) -> Iterator[Finding]:
    """`linregress` / `pearsonr` on a sample where one point has extreme leverage (a value
    orders of magnitude beyond the rest): the normal-theory p-value is significant with that
    point and not without it, so the 'relationship' is one observation. Read from the
    kernel: the largest Cook's distance of the fit, r and p without that point, and
    Spearman's rank correlation of the same pairs."""
    if ev.tree is None or not ev.samples:
        return
    robust = any(c.last in _ROBUST_FITS or (c.method or "") in _ROBUST_FITS
                 for c in ev.model.calls)
    seen: set[int] = set()
    for call, full, _spec in test_calls(ev.model):
        if full not in _PAIR_TESTS or call.line in seen or _robust_variant(call, full):
            continue
        s = next((s for s in ev.samples if s.line == call.line and s.call == full
                  and s.cooks_max is not None), None)
        if s is None or s.pair_p is None or s.drop_p is None or s.cooks_max is None:
            continue
        if not (s.pair_p < 0.05 and s.drop_p >= 0.05 and s.drop_p >= 10 * s.pair_p
                and s.cooks_max >= 1):
            continue
        ranks_disagree = s.rank_p is not None and s.rank_p >= 0.05
        severity, confidence = ("high", 0.8) if ranks_disagree else ("medium", 0.55)
        if robust:
            severity, confidence = "low", 0.3  # a rank or robust check is run alongside
        seen.add(call.line)
        test = full.rsplit(".", 1)[-1]
        point = (f" at ({s.influential[0]:.4g}, {s.influential[1]:.4g})"
                 if s.influential and len(s.influential) == 2 else "")
        rank_txt = (f"; Spearman's rank correlation of the same pairs is rho = {s.rank_r:.2f} "
                    f"(p = {s.rank_p:.2g})" if s.rank_r is not None and s.rank_p is not None
                    else "")
        yield Finding(
            explanation=(f"`{test}` (line {call.line}) reports r = {s.pair_r:.2f}, p = "
                         f"{s.pair_p:.2g} on n = {s.n} pairs, but one point{point} has "
                         f"leverage {s.leverage_max:.2f} and Cook's distance "
                         f"{s.cooks_max:.3g} (above 1 is influential): without it r = "
                         f"{s.drop_r:.2f}, p = {s.drop_p:.2g}{rank_txt}. The normal-theory "
                         "p-value rests on that single observation, not on a relationship "
                         "across the sample."),
            severity=severity, confidence=confidence,
            evidence={"lines": [call.line],
                      "values": {"n": s.n, "r": s.pair_r, "p": s.pair_p,
                                 "cooks_max": s.cooks_max, "leverage": s.leverage_max,
                                 "r_without": s.drop_r, "p_without": s.drop_p,
                                 "spearman_rho": s.rank_r, "spearman_p": s.rank_p}},
            suggestion=("Report the relationship without resting it on one point: a rank "
                        "correlation (`scipy.stats.spearmanr`) or a robust slope "
                        "(`scipy.stats.theilslopes`), the fit with and without the "
                        "influential observation, or a log scale for a predictor spanning "
                        "orders of magnitude; show the scatter plot."))


# -- normal-theory tails, capability indices and reference ranges on skewed data ------------

_NORMAL_TAILS = {"cdf", "sf", "ppf", "isf", "logcdf", "logsf", "interval"}
_MEAN_CALLS = {"mean", "nanmean", "average", "fmean", "tmean"}
_SD_CALLS = {"std", "nanstd", "stdev", "pstdev", "tstd"}
_Z_MULTIPLIERS = {1.645, 1.96, 2.0, 2.326, 2.33, 2.5, 2.576, 2.58, 3.0}


def _moment(ev: Evidence, value: ast.AST) -> tuple[str, ast.AST] | None:
    """('mean' | 'sd', sample) for `x.mean()`, `np.std(x, ddof=1)`, `statistics.stdev(x)`."""
    if not isinstance(value, ast.Call):
        return None
    last = called_name(value)
    kind = "mean" if last in _MEAN_CALLS else ("sd" if last in _SD_CALLS else None)
    if kind is None or any(k.arg == "weights" for k in value.keywords):
        return None
    f = value.func
    if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and (
            f.value.id in ev.model.aliases)):
        return kind, _unwrap(f.value)
    if value.args:
        return kind, _unwrap(value.args[0])
    return None


def _moments(ev: Evidence) -> dict[str, tuple[str, ast.AST, int]]:
    """Names the cell binds to a sample's mean or SD: `mu, sd = x.mean(), x.std()`,
    `sd = np.std(x)`, `mu, sd = norm.fit(x)`. name -> (kind, sample, line)."""
    out: dict[str, tuple[str, ast.AST, int]] = {}
    for node in _walk(ev.tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        t, v = node.targets[0], node.value
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts):
            pairs = list(zip(t.elts, v.elts, strict=True))
        elif isinstance(t, ast.Tuple) and len(t.elts) == 2 and isinstance(v, ast.Call) and \
                called_name(v) == "fit" and isinstance(v.func, ast.Attribute) and \
                "norm" in ast.unparse(v.func.value) and v.args:
            sample = _unwrap(v.args[0])
            for el, kind in zip(t.elts, ("mean", "sd"), strict=True):
                if isinstance(el, ast.Name):
                    out[el.id] = (kind, sample, node.lineno)
            continue
        else:
            pairs = [(t, v)]
        for tt, vv in pairs:
            m = _moment(ev, vv)
            if isinstance(tt, ast.Name) and m is not None:
                out[tt.id] = (m[0], m[1], node.lineno)
    return out


def _refs_of(node: ast.AST, moments: dict[str, tuple[str, ast.AST, int]], ev: Evidence,
             kind: str) -> list[ast.AST]:
    """Samples whose `kind` moment the expression uses, by name or inline (`x.std()`)."""
    out: list[ast.AST] = []
    for sub in _walk(node):
        if isinstance(sub, ast.Name) and sub.id in moments and moments[sub.id][0] == kind:
            out.append(moments[sub.id][1])
        elif isinstance(sub, ast.Call) and (m := _moment(ev, sub)) is not None and m[0] == kind:
            out.append(m[1])
    return out


def _z_value(ev: Evidence, node: ast.AST, depth: int = 0) -> float | None:
    """The number a z multiplier stands for: a literal, `norm.ppf(0.975)` / `norm.isf(0.025)`
    (standard normal, no loc/scale), or a name bound to one of these (the kernel's value of
    the name first)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and \
            not isinstance(node.value, bool):
        return abs(float(node.value))
    if isinstance(node, ast.Name) and depth < 2:
        obj = ev.objects.get(node.id)
        if obj is not None and isinstance(obj.value, int | float) and \
                not isinstance(obj.value, bool):
            return abs(float(obj.value))
        found = [a.value for a in ev.model.assigned_at(node.id) if a.value is not None]
        return _z_value(ev, found[-1], depth + 1) if len(found) == 1 else None
    if isinstance(node, ast.Call) and called_name(node) in ("ppf", "isf") and \
            isinstance(node.func, ast.Attribute) and \
            ast.unparse(node.func.value).split(".")[-1] == "norm" and \
            len(node.args) == 1 and not node.keywords and \
            isinstance(node.args[0], ast.Constant) and \
            isinstance(node.args[0].value, float) and 0 < node.args[0].value < 1:
        q = node.args[0].value
        return abs(NormalDist().inv_cdf(q if called_name(node) == "ppf" else 1 - q))
    return None


def _sd_times_z(node: ast.AST, moments: dict[str, tuple[str, ast.AST, int]],
                ev: Evidence, factors: set[float]) -> list[ast.AST]:
    """`z * sd` / `sd * z` with z among `factors` (a literal, `norm.ppf(0.975)` or a name
    bound to either): samples of the SD."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return []
    for a, b in ((node.left, node.right), (node.right, node.left)):
        z = _z_value(ev, a) if not (isinstance(a, ast.Name) and a.id in moments) else None
        if z is not None and any(abs(z - f) < 0.006 for f in factors):
            if isinstance(b, ast.Name) and b.id in moments and moments[b.id][0] == "sd":
                return [moments[b.id][1]]
            if isinstance(b, ast.Call) and (m := _moment(ev, b)) is not None and m[0] == "sd":
                return [m[1]]
    return []


def _normal_sites(ev: Evidence) -> list[tuple[int, str, ast.AST]]:
    """(line, what, sample) of normal-theory calculations from a sample's mean and SD."""
    moments = _moments(ev)
    out: list[tuple[int, str, ast.AST]] = []

    def same(a: list[ast.AST], b: list[ast.AST]) -> list[ast.AST]:
        return [x for x in a if any(ast.dump(x) == ast.dump(y) for y in b)]

    for c in ev.model.calls:
        recv = c.receiver
        frozen = isinstance(recv, ast.Call) and called_name(recv) == "norm"
        if c.method not in _NORMAL_TAILS or not (
                frozen or (c.name or "").endswith("norm." + c.method)
                or (recv is not None and ast.unparse(recv).endswith("norm"))):
            continue
        node = recv if frozen else c.node
        args = list(node.args) + [k.value for k in node.keywords]  # type: ignore[union-attr]
        if frozen:
            args += list(c.node.args)
        for a in list(args):  # z = (usl - mu) / sd; norm.sf(z)
            if isinstance(a, ast.Name) and a.id not in moments:
                args += [x.value for x in ev.model.assigned_at(a.id)
                         if x.value is not None and x.line <= c.line]
        whole = ast.Tuple(elts=args, ctx=ast.Load())
        hit = same(_refs_of(whole, moments, ev, "mean"), _refs_of(whole, moments, ev, "sd"))
        if hit:
            what = {"cdf": "a normal tail probability (`norm.cdf`)",
                    "sf": "a normal tail probability (`norm.sf`)",
                    "logsf": "a normal tail probability", "logcdf": "a normal tail probability",
                    "ppf": "a normal percentile (`norm.ppf`)",
                    "isf": "a normal percentile (`norm.isf`)",
                    "interval": "a normal reference interval (`norm.interval`)"}[c.method or "cdf"]
            out.append((c.line, what, hit[0]))
    for node in _walk(ev.tree):
        if not isinstance(node, ast.BinOp):
            continue
        line = node.lineno
        if isinstance(node.op, ast.Div):  # Cpk = (USL - mu) / (3 * sd)
            sds = _sd_times_z(node.right, moments, ev, {3.0, 6.0})
            if sds and any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Sub)
                           for x in _walk(node.left)):
                hit = same(_refs_of(node.left, moments, ev, "mean"), sds) or (
                    sds if "6" in ast.unparse(node.right) else [])
                if hit:
                    out.append((line, "a process capability index (Cp/Cpk: spec distance over "
                                "3 or 6 SD)", hit[0]))
        elif isinstance(node.op, ast.Add | ast.Sub):  # mu ± 1.96 * sd
            sds = _sd_times_z(node.right, moments, ev, _Z_MULTIPLIERS)
            hit = same(_refs_of(node.left, moments, ev, "mean"), sds) if sds else []
            if hit and isinstance(node.left, ast.Name | ast.Call):
                out.append((line, "a normal reference range (mean ± z·SD)", hit[0]))
    seen: set[int] = set()
    uniq = []
    for line, what, sample in sorted(out, key=lambda x: x[0]):
        if line not in seen:
            seen.add(line)
            uniq.append((line, what, sample))
    return uniq


def _kurtosis(values: list[float]) -> float | None:
    n = len(values)
    if n < 8:
        return None
    mean = sum(values) / n
    m2 = sum((v - mean) ** 2 for v in values) / n
    if m2 <= 0:
        return None
    return sum((v - mean) ** 4 for v in values) / n / m2 ** 2 - 3.0


def _helper_args(ev: Evidence, sample: ast.AST, line: int) -> list[ast.AST]:
    """For a parameter of the function holding `line`, what its callers pass for it."""
    if not isinstance(sample, ast.Name):
        return []
    for fn in _walk(ev.tree):
        if isinstance(fn, ast.FunctionDef) and fn.lineno <= line <= (fn.end_lineno or 0):
            params = [a.arg for a in fn.args.args]
            if sample.id not in params:
                return []
            pos = params.index(sample.id)
            out: list[ast.AST] = []
            for c in ev.model.calls:
                if c.name == fn.name and c.function != fn.name:
                    a = c.arg(pos, sample.id)
                    if a is not None:
                        out.append(_unwrap(a))
            return out
    return []


def _sample_shape(ev: Evidence, sample: ast.AST) -> tuple[SampleFacts, float | None] | None:
    expr = ast.unparse(sample)
    for s in ev.samples:
        if s.expr == expr and s.n:
            return s, None
    if isinstance(sample, ast.Name):
        obj = ev.objects.get(sample.id)
        if obj is not None and obj.kind in ("ndarray", "series") and obj.values:
            f = _from_values(sample.id, obj.values)
            if f is not None:
                return f, _kurtosis(obj.values)
    return None


def _paired_difference(ev: Evidence, sample: ast.AST) -> bool:
    """Whether the sample is the row-wise difference of two measurements (`a - b`,
    `np.subtract(a, b)`, or a name bound once to one): the differences of a method
    comparison, whose mean ± 1.96 SD are Bland-Altman limits of agreement. Not a centring
    (`x - x.mean()`) nor a shift by a constant."""
    node = _unwrap(sample)
    if isinstance(node, ast.Name):
        found = [a.value for a in ev.model.assigned_at(node.id) if a.value is not None]
        if len(found) != 1:
            return False
        node = found[0]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        sides = [node.left, node.right]
    elif isinstance(node, ast.Call) and called_name(node) == "subtract" and len(node.args) == 2:
        sides = list(node.args)
    else:
        return False
    for side in sides:
        if isinstance(side, ast.Constant) or any(
                isinstance(x, ast.Call) and _moment(ev, x) is not None for x in _walk(side)):
            return False
    return True


def _band_lower(ev: Evidence, lines: list[int], s: SampleFacts) -> float | None:
    """The lower limit `mean - z * SD` of a reference range on these lines, from the
    kernel's mean and SD of the sample and the z the code multiplies by."""
    if s.mean is None or s.std is None:
        return None
    for node in _walk(ev.tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and \
                node.lineno in lines and isinstance(node.right, ast.BinOp) and \
                isinstance(node.right.op, ast.Mult):
            for z_node in (node.right.left, node.right.right):
                z = _z_value(ev, z_node)
                if z is not None and any(abs(z - f) < 0.006 for f in _Z_MULTIPLIERS):
                    return s.mean - z * s.std
    return None


@dataclass
class _Tails:
    """A sample's shape from the kernel's tail facts of a Series or frame column (its 3
    smallest and largest values with their rows, the 5th/50th/95th percentiles), with the
    kernel's values of the names bound to its mean and SD: for a band whose sample was not
    re-read as a test's argument."""

    expr: str
    n: int
    low: float
    low_rows: int
    high: float
    q05: float
    q50: float
    q95: float
    mean: float | None = None
    sd: float | None = None

    @property
    def asymmetric(self) -> bool:
        """The upper half of the middle 90 % spans at least 3 times the lower half (the
        two are equal for normal data), or the lower half is empty (a pile-up at the
        bottom)."""
        up, down = self.q95 - self.q50, self.q50 - self.q05
        return up > 0 and down * 3 <= up

    @property
    def piled(self) -> float:
        """Share of the values at the minimum (zero-inflation, a floor)."""
        return self.low_rows / self.n if self.n else 0.0

    @property
    def far_max(self) -> float | None:
        """How many SD the largest value lies above the mean."""
        if self.mean is None or not self.sd:
            return None
        return (self.high - self.mean) / self.sd

    def describe(self) -> str:
        parts = [f"n={self.n}", f"min={self.low:g}", f"median={self.q50:g}",
                 f"95th percentile={self.q95:g}", f"max={self.high:g}"]
        if self.piled >= 0.25:
            parts.insert(2, f"{self.piled:.0%} of values at the minimum")
        if self.mean is not None and self.sd:
            parts.insert(1, f"mean={self.mean:.3g}, SD={self.sd:.3g}")
        return f"`{self.expr}` ({', '.join(parts)})"


def _tails_of(ev: Evidence, sample: ast.AST) -> _Tails | None:
    """The kernel's tail facts of a named Series/array or a frame column `df["x"]`, with the
    mean and SD from the names the cell bound them to (`mu, sd = x.mean(), x.std()`)."""
    t: dict | None = None
    n = 0
    if isinstance(sample, ast.Name):
        obj = ev.objects.get(sample.id)
        if obj is not None and obj.kind in ("series", "ndarray"):
            t = obj.tails.get("")
            n = (obj.rows or 0) - (obj.missing.get("") or 0)
    else:
        fc = _frame_column(sample)
        obj = ev.objects.get(fc[0]) if fc else None
        if fc and obj is not None and obj.kind == "dataframe":
            t = obj.tails.get(fc[1])
            n = (obj.rows or 0) - (obj.missing.get(fc[1]) or 0)
    if not t or n < 20:
        return None
    try:
        (low, low_rows), (high, _) = t["bottom"][0], t["top"][0]
        q05, q50, q95 = (float(v) for v in t["q"])
        step = int(t.get("step") or 1)
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    out = _Tails(ast.unparse(sample), n, float(low), int(low_rows) * step, float(high),
                 q05, q50, q95)
    key = ast.dump(sample)
    for name, (kind, smp, _) in _moments(ev).items():
        obj = ev.objects.get(name)
        if ast.dump(smp) != key or obj is None or not isinstance(obj.value, int | float) or \
                isinstance(obj.value, bool):
            continue
        if kind == "mean":
            out.mean = float(obj.value)
        else:
            out.sd = float(obj.value)
    return out


def _tails_verdict(ev: Evidence, sample: ast.AST, lines: list[int], band: bool
                   ) -> tuple[str, float, str, str] | None:
    """(severity, confidence, detail, extra) from the kernel's tail facts of a sample no test
    re-read. High only for a band whose lower limit `mean - z * SD` falls below zero on a
    non-negative sample that is also clearly asymmetric (its upper 95th percentile far from
    the median against a collapsed lower half, a pile-up at the minimum, or a maximum many
    SD above the mean): the impossible limit shows the normal band does not fit. Otherwise
    medium when the asymmetry and a far maximum agree; quiet on anything milder."""
    tl = _tails_of(ev, sample)
    if tl is None:
        return None
    far = tl.far_max
    shapes = [tl.asymmetric, tl.piled >= 0.25, far is not None and far >= 5]
    lower = None
    if band and tl.mean is not None and tl.sd is not None:
        lower = _band_lower(ev, lines, SampleFacts(call="", line=0, arg="tails", expr=tl.expr,
                                                   n=tl.n, mean=tl.mean, std=tl.sd))
    detail = tl.describe()
    if tl.asymmetric:
        detail = detail[:-1] + (f"; the 95th percentile is {tl.q95 - tl.q50:.3g} above the "
                                f"median, the 5th {tl.q50 - tl.q05:.3g} below it)")
    if lower is not None and tl.low >= 0 and lower < 0 and tl.asymmetric:
        extra = (f" Its lower limit is {lower:.2f}, below zero for a quantity whose smallest "
                 f"value is {tl.low:g}: the normal band does not fit these data.")
        if far is not None and far >= 5:
            extra += (f" The largest value lies {far:.1f} SD above the mean, which a normal "
                      f"sample of {tl.n} almost never shows.")
        return "high", (0.85 if sum(shapes) >= 2 else 0.8), detail, extra
    if tl.asymmetric and far is not None and far >= 5 and (tl.low >= 0 or tl.piled >= 0.25):
        extra = (f" The largest value lies {far:.1f} SD above the mean, which a normal sample "
                 f"of {tl.n} almost never shows.")
        return "medium", 0.55, detail, extra
    return None


@rule("parametric_assumptions.normal_model_on_skewed",
      title="Normal-theory tail, capability index or reference range on a skewed sample")
def normal_model_on_skewed(ev: Evidence) -> Iterator[Finding]:
    """A tail probability, ppm or percentile from `norm.cdf/sf/ppf(..., mean, sd)`, a
    capability index `(USL - mean) / (3 * sd)` or a `mean ± 1.96 * sd` reference range
    assumes the data are normal *in the tails*, where no sample size rescues it (unlike a
    t-test's mean). Judged from the sample the mean and SD come from: its skewness and
    normality (the kernel's values of a named array/Series, or a sample it re-read); quiet
    when the sample looks normal or is transformed (log) before the moments are taken."""
    if ev.tree is None or not ev.model.calls:
        return
    sites = _normal_sites(ev)
    if not sites:
        return
    names, cols, _ = _generated_skewed(ev)
    by_sample: dict[str, list[tuple[int, str, ast.AST]]] = {}
    for line, what, sample in sites:
        for each in _helper_args(ev, sample, line) or [sample]:
            by_sample.setdefault(ast.unparse(each), []).append((line, what, each))
    for expr, group in by_sample.items():
        line, _, sample = group[0]
        whats = list(dict.fromkeys(w for _, w, _ in group))
        what = " and ".join(whats[:3])
        lines = sorted({ln for ln, _, _ in group})
        shape = _sample_shape(ev, sample)
        severity: str | None = None
        conf = 0.0
        detail = extra = ""
        if shape is not None:
            s, kurt = shape
            skew = abs(s.skew) if s.skew is not None else 0.0
            p = s.normal_p
            if s.n >= 20 and p is not None and ((skew >= 1 and p < 0.01) or (
                    skew >= 0.5 and p < 1e-3)):
                severity, conf = "high", (0.85 if skew >= 1 else 0.8)
            elif s.n >= 20 and p is not None and p < 1e-3 and kurt is not None and kurt >= 2:
                severity, conf = "medium", 0.55
            elif s.n >= 20 and p is not None and p < 0.01 and skew >= 0.3:
                severity, conf = "medium", 0.5
            detail = _describe(s)
            if kurt is not None and kurt >= 1:
                detail = detail[:-1] + f", excess kurtosis={kurt:.1f})"
            band = "reference range" in what
            if band and severity == "high" and skew < 1 and _paired_difference(ev, sample):
                # Bland-Altman limits of agreement: the central 95% of paired differences is
                # close to mean ± 1.96 SD unless the differences are clearly skewed
                severity, conf = "medium", 0.5
                extra = (" These are limits of agreement on paired differences, which a "
                         "moderate skew shifts only a little; a skew of the differences "
                         "usually means they grow with the magnitude (regression-based limits "
                         "or log ratios then fit better).")
            logged = _log_scale(ev, sample)
            if severity == "high" and logged:
                # already on the log scale (log ratios of paired measurements, log
                # concentrations): the remedy is applied; remaining skew is a refinement
                severity, conf = "medium", 0.5
                extra += (" The sample is already log-transformed, the usual remedy; the "
                          "skew that remains is worth a Q-Q plot or percentile-based limits, "
                          "not a different analysis.")
            # a log-scale value may be negative whatever the observed minimum
            lower = _band_lower(ev, lines, s) if band and not logged else None
            if lower is not None and s.min is not None and s.min >= 0 and lower < 0 and \
                    s.n >= 20 and p is not None and p < 0.01:
                # a band on a non-negative quantity whose lower limit is impossible
                severity, conf = ("high", max(conf, 0.85)) if severity else ("medium", 0.5)
                extra += (f" Its lower limit is {lower:.2f}, below zero for a quantity whose "
                          f"smallest value is {s.min:g}: the normal band does not fit these "
                          "data.")
            if severity and s.skew is not None:
                tail = "right" if s.skew > 0 else "left"
                detail += f", a long {tail} tail"
        elif not _log_scale(ev, sample) and (verdict := _tails_verdict(
                ev, sample, lines, "reference range" in what)) is not None:
            severity, conf, detail, extra = verdict
        elif _arg_skewed(ev, sample, names, cols) is not None:
            severity, conf = "medium", 0.5
            detail = f"`{expr}` (drawn from a skewed generator and not transformed)"
        if severity is None:
            continue
        at = (f"Lines {', '.join(map(str, lines))} compute" if len(lines) > 1
              else f"Line {line} computes")
        yield Finding(
            explanation=(f"{at} {what} from the mean and SD of {detail}. "
                         "That calculation is exact only for normal data, and it lives in the "
                         "tail, where skewness matters most and a large sample does not help: "
                         "for a right-skewed quantity the upper tail (and the out-of-spec "
                         "rate, the upper percentile, the upper reference limit) is "
                         "understated, the lower one overstated, so the reported capability "
                         f"or probability is wrong.{extra}"),
            severity=severity, confidence=conf,
            evidence={"lines": lines, "values": {"sample": expr}},
            suggestion=("Model the shape the data have: fit the tail on a transformed scale "
                        "(log for a positive right-skewed quantity, then back-transform the "
                        "limits), fit a suitable distribution (lognormal, gamma, Weibull: "
                        "`stats.lognorm.fit(x)`, then `.sf(usl)`), or use non-parametric "
                        "percentiles / the observed out-of-spec rate with a binomial interval; "
                        "check with a Q-Q plot and report the skewness."))


# -- t / z confidence intervals of a mean on small skewed samples ------------------------------

_SEM_CALLS = {"sem", "tsem"}
_INTERVAL_FUNCS = {"zconfint", "_tconfint_generic", "_zconfint_generic"}
_ROBUST_CI = re.compile(r"\bbootstrap\b|\bjackknife\b|\bresample\(|percentile\(|quantile\(|"
                        r"\bcox\b|lognorm|\bexp\(")


def _sem_samples(ev: Evidence, node: ast.AST, depth: int = 2,
                 moments: dict[str, tuple[str, ast.AST, int]] | None = None) -> list[ast.AST]:
    """Samples whose standard error of the mean the expression uses: `stats.sem(x)`,
    `x.sem()`, `x.std(ddof=1) / np.sqrt(len(x))`, or a name bound to one of these."""
    out: list[ast.AST] = []
    if moments is None:
        moments = _moments(ev)
    for sub in _walk(node):
        if isinstance(sub, ast.Call) and called_name(sub) in _SEM_CALLS:
            f = sub.func
            if sub.args:
                out.append(_unwrap(sub.args[0]))
            elif isinstance(f, ast.Attribute):
                out.append(_unwrap(f.value))
        elif isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Div) and any(
                isinstance(x, ast.Call) and called_name(x) == "sqrt"
                for x in _walk(sub.right)):
            out += _refs_of(sub.left, moments, ev, "sd")
        elif isinstance(sub, ast.Name) and depth > 0:
            for a in ev.model.assigned_at(sub.id):
                if a.value is not None and a.line <= getattr(node, "lineno", 10 ** 9):
                    out += _sem_samples(ev, a.value, depth - 1, moments)
    return out


def _margin_terms(ev: Evidence, node: ast.AST, depth: int = 2
                  ) -> list[tuple[ast.AST, ast.AST]]:
    """(quantile, standard-error) readings of an interval's half-width: `q * se`,
    `q * sd / np.sqrt(n)` (parsed as `(q * sd) / sqrt(n)`), or a name bound once to one
    (`half = 1.96 * s.std() / np.sqrt(len(s))`)."""
    if isinstance(node, ast.Name) and depth > 0:
        found = [a.value for a in ev.model.assigned_at(node.id) if a.value is not None]
        return _margin_terms(ev, found[0], depth - 1) if len(found) == 1 else []
    if not isinstance(node, ast.BinOp):
        return []
    if isinstance(node.op, ast.Mult):
        return [(node.left, node.right), (node.right, node.left)]
    if isinstance(node.op, ast.Div) and isinstance(node.left, ast.BinOp) and \
            isinstance(node.left.op, ast.Mult):
        return [(q, ast.BinOp(left=sd, op=ast.Div(), right=node.right))
                for q, sd in ((node.left.left, node.left.right),
                              (node.left.right, node.left.left))]
    return []


def _quantile_factor(ev: Evidence, node: ast.AST, depth: int = 2) -> bool:
    """A normal or t quantile: 1.96-style constants, `t.ppf(...)`, `norm.ppf(...)`, or a
    name bound to one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return round(float(node.value), 3) in _Z_MULTIPLIERS
    if isinstance(node, ast.Call) and called_name(node) in ("ppf", "isf"):
        return True
    if isinstance(node, ast.Name) and depth > 0:
        return any(a.value is not None and _quantile_factor(ev, a.value, depth - 1)
                   for a in ev.model.assigned_at(node.id))
    return False


def _mean_interval_sites(ev: Evidence) -> list[tuple[int, str, ast.AST]]:
    """(line, what, sample) of t/z confidence intervals of a sample's mean."""
    out: list[tuple[int, str, ast.AST]] = []
    for c in ev.model.calls:
        name = c.name or ""
        if c.method == "interval" and (name.endswith(("stats.t.interval", "stats.norm.interval"))
                                       or (c.receiver is not None and ast.unparse(
                                           c.receiver).rsplit(".", 1)[-1] in ("t", "norm"))):
            scale = c.kwarg("scale")
            if scale is None and len(c.node.args) >= 3:
                scale = c.node.args[-1]
            for sample in _sem_samples(ev, scale) if scale is not None else []:
                dist = "t" if name.endswith("t.interval") or ast.unparse(
                    c.receiver).endswith("t") else "normal"  # type: ignore[arg-type]
                out.append((c.line, f"a {dist} confidence interval of the mean "
                            f"(`{ast.unparse(c.node.func)}` with scale = the SEM)", sample))
                break
        elif c.last in _INTERVAL_FUNCS and name.startswith("statsmodels") and c.node.args \
                and c.last == "zconfint":
            out.append((c.line, "a normal confidence interval of the mean (`zconfint`)",
                        _unwrap(c.node.args[0])))
        elif c.method == "zconfint_mean" and c.receiver is not None:
            ctor = _constructor(ev.model, c.receiver)
            if ctor is not None and called_name(ctor) == "DescrStatsW" and ctor.args:
                out.append((c.line, "a normal confidence interval of the mean "
                            "(`DescrStatsW.zconfint_mean`)", _unwrap(ctor.args[0])))
    moments: dict[str, tuple[str, ast.AST, int]] | None = None
    for node in _walk(ev.tree):  # mean ± t * sem, by hand
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub)
                and isinstance(node.right, ast.BinOp | ast.Name)):
            continue
        for q, se in _margin_terms(ev, node.right):
            if not _quantile_factor(ev, q):
                continue
            if moments is None:
                moments = _moments(ev)
            sems = _sem_samples(ev, se, moments=moments)
            means = _refs_of(node.left, moments, ev, "mean")
            hit = [x for x in sems if any(ast.dump(x) == ast.dump(y) for y in means)]
            if hit:
                out.append((node.lineno, "a confidence interval of the mean (mean ± t·SEM)",
                            hit[0]))
                break
    seen: set[str] = set()
    uniq = []
    for line, what, sample in sorted(out, key=lambda x: x[0]):
        key = ast.unparse(sample)
        if key not in seen:
            seen.add(key)
            uniq.append((line, what, sample))
    return uniq


def _interval_sample(ev: Evidence, sample: ast.AST) -> SampleFacts | None:
    """The kernel's facts of the sample (re-read as `sem(x)` / `DescrStatsW(x)` /
    `zconfint(x)`, or a named array's values)."""
    expr = ast.unparse(sample)
    for s in ev.samples:
        if s.n and expr in (s.expr, _unwrapped_src(s.expr)):
            return s
    shape = _sample_shape(ev, sample)
    return shape[0] if shape is not None else None


def _unwrapped_src(expr: str) -> str:
    try:
        return ast.unparse(_unwrap(ast.parse(expr, mode="eval").body))
    except SyntaxError:
        return expr


@rule("parametric_assumptions.mean_interval_on_skewed",
      title="t/z confidence interval of a mean on a small, skewed sample")
def mean_interval_on_skewed(ev: Evidence) -> Iterator[Finding]:
    """A symmetric t or z confidence interval of a mean (`stats.t.interval(..., loc=mean,
    scale=sem)`, `stats.norm.interval`, `zconfint`, `DescrStatsW(x).zconfint_mean()`, or
    mean ± t·SEM by hand) on a small sample that is clearly skewed: with few observations
    the sampling distribution of the mean keeps the data's skew, so the interval's coverage
    is off and its upper limit too low (right skew). From the kernel's facts of the sample
    (size, skewness, Shapiro p, SD/mean of a positive quantity). High (0.7, 0.75 severe)
    for n < 30 with clear skew; medium for milder signs or 30 <= n < 60 with severe skew.
    Quiet for symmetric or larger samples, and when the interval is built on a transformed
    (log) scale or by resampling. (`tconfint_mean` is judged as a one-sample t-test by
    `nonnormal_samples`.)"""
    if ev.tree is None or not ev.model.calls or _ROBUST_CI.search(ev.code):
        return
    for line, what, sample in _mean_interval_sites(ev):
        if _has_transform(sample):
            continue
        s = None
        for each in _helper_args(ev, sample, line) or [sample]:
            s = _interval_sample(ev, each)
            if s is not None:
                sample = each
                break
        if s is None or s.n < 3 or s.n_unique <= 2:
            continue
        grade, skew = _grade(s), abs(s.skew or 0.0)
        if s.n < 30 and grade >= 3:
            severity, conf = "high", 0.75
        elif s.n < 30 and grade == 2:
            severity, conf = "high", 0.7
        elif s.n < 30 and grade == 1 and skew >= 1:
            severity, conf = "medium", 0.45
        elif s.n < 60 and grade == 3 and skew >= 2:
            severity, conf = "medium", 0.5
        else:
            continue
        tail = "right" if (s.skew or 0) >= 0 else "left"
        yield Finding(
            explanation=(f"Line {line} computes {what} from {_describe(s)}. The interval is "
                         f"symmetric and relies on the sample mean being normally "
                         f"distributed; with {s.n} values from a sample this skewed (a long "
                         f"{tail} tail) the mean's sampling distribution is skewed too, so "
                         f"the interval misses on the {tail} (its "
                         f"{'upper' if tail == 'right' else 'lower'} limit is too "
                         f"{'low' if tail == 'right' else 'high'}) and its coverage is below "
                         "the nominal level."),
            severity=severity, confidence=conf,
            evidence={"lines": [line], "values": {
                "sample": ast.unparse(sample), "n": s.n,
                "skew": round(s.skew, 2) if s.skew is not None else None,
                "normal_p": float(f"{s.normal_p:.3g}") if s.normal_p is not None else None}},
            suggestion=("Build the interval on a scale where the data are roughly normal and "
                        "back-transform it (for a positive right-skewed quantity: the log "
                        "scale, with Cox's method for the arithmetic mean, or the geometric "
                        "mean), or use a bootstrap interval "
                        "(`stats.bootstrap((x,), np.mean, method='BCa')`); report the "
                        "skewness and the sample size with it."),
        )
