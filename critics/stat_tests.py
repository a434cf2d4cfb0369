"""The statistical tests the critic knows, and which of their arguments are samples.

Used twice: the service asks the kernel about exactly these arguments after a cell ran
(`SampleFacts`), and the rules read what kind of test was called.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

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


# (package, last component) -> the first TESTS entry with that last name
_BY_LAST: dict[tuple[str, str], tuple[str, StatTest]] = {}
for _full, _spec in TESTS.items():
    _BY_LAST.setdefault((_full.split(".", 1)[0], _full.rsplit(".", 1)[-1]), (_full, _spec))


def sample_args(call: CallSite, spec: StatTest) -> list[tuple[int | str, ast.expr]]:
    """(position or keyword, expression) of each sample argument actually passed."""
    out: list[tuple[int | str, ast.expr]] = []
    if spec.variadic:
        return [(i, a) for i, a in enumerate(call.node.args) if not isinstance(a, ast.Starred)]
    for slot in spec.samples:
        node = call.arg(slot) if isinstance(slot, int) else call.kwarg(slot)
        if node is not None:
            out.append((slot, node))
    return out


def test_calls(model: CodeModel) -> list[tuple[CallSite, str, StatTest]]:
    """Every call in the cell that is a known test: (call site, canonical name, spec).
    Computed once per CodeModel (several rules ask)."""
    cached = model.__dict__.get("_stat_test_calls")
    if cached is not None:
        return list(cached)
    out: list[tuple[CallSite, str, StatTest]] = []
    for call in model.calls:
        found = stat_test_of(call)
        if found is not None:
            out.append((call, *found))
    model.__dict__["_stat_test_calls"] = tuple(out)
    return out
