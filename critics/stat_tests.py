"""The statistical tests the critic knows, and which of their arguments are samples.

Used twice: the service asks the kernel about exactly these arguments after a cell ran
(`SampleFacts`), and the rules read what kind of test was called.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .code_model import CallSite


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
    # statsmodels
    "statsmodels.stats.weightstats.ttest_ind": StatTest("independent", True, (0, 1, "x1", "x2")),
    "statsmodels.stats.weightstats.ztest": StatTest("independent", True, (0, 1, "x1", "x2")),
    "statsmodels.stats.proportion.proportions_ztest": StatTest("proportion", True, ()),
}

# Module paths under which the same functions are commonly reached.
_ALIASES = {
    "scipy.stats.stats.": "scipy.stats.",
    "statsmodels.api.stats.": "statsmodels.stats.weightstats.",
    "statsmodels.stats.api.": "statsmodels.stats.weightstats.",
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
    if name.startswith("scipy.stats.") or not call.name or "." not in call.name:
        last = call.last
        for full, spec in TESTS.items():
            if full.startswith("scipy.stats.") and full.rsplit(".", 1)[-1] == last:
                return full, spec
    return None


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
