"""Parametric assumptions read off the samples a test actually ran on.

Reads the analysis trace: at each hypothesis test the kernel recorded each sample's size,
skewness and spread (of the differences, for a paired t-test), the smallest expected count
of a chi-square test, and whether a t-test pooled the variances. Whatever built the samples
(a loop, a groupby, a helper), these are the numbers the p-value rests on. Three rules:
a test of means on small, strongly skewed samples; a pooled-variance t-test where the
smaller group has the much larger spread; a chi-square test with small expected counts.
Thresholds: critics/trace_rules.toml [parametric_assumptions].
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..thresholds import section


def _lines(test: dict[str, Any]) -> list[int]:
    return [x for x in [test.get("line")] if isinstance(x, int)]


@rule("parametric_assumptions.mean_test_on_skewed_small_samples",
      title="A test of means ran on small, strongly skewed samples")
def mean_test_on_skewed_small_samples(ev: Evidence) -> Iterator[Finding]:
    cfg = section("parametric_assumptions")
    tests, small, bar = set(cfg["mean_tests"]), int(cfg["small_n"]), float(cfg["skew"])
    for test in ev.trace.of("test"):
        shapes = test.get("shapes") or []
        if test.get("func") not in tests or not _skewed_alike(shapes, bar) or \
                min(s[0] for s in shapes) >= small:
            continue
        n, skew, _ = min(shapes, key=lambda s: abs(s[1]))
        yield Finding(
            explanation=(f"`{test.get('func')}` (line {test.get('line')}) compares means of "
                         f"small samples (n={n:.0f}), each strongly skewed (skewness at least "
                         f"{skew:+.1f}): with "
                         "so few values the sampling distribution of the mean is far from "
                         "normal, so the p-value and any interval are unreliable."),
            severity="high", confidence=0.7,
            evidence={"lines": _lines(test), "values": {"n": n, "skewness": skew}},
            suggestion="Use a rank test (`mannwhitneyu`, `wilcoxon`, `kruskal`), a permutation "
                       "test or a bootstrap interval, or analyse a transformed scale (log) "
                       "where the data are roughly symmetric.")
        return


def _skewed_alike(shapes: list[list[float]], bar: float) -> bool:
    """Every sample skewed past `bar` the same way: the population's shape, not one small
    sample's chance (a few normal values are often skewed one way by chance)."""
    signs = {s[1] > 0 for s in shapes}
    return bool(shapes) and len(signs) == 1 and all(abs(s[1]) >= bar for s in shapes)


@rule("parametric_assumptions.pooled_t_with_unequal_spread",
      title="A pooled-variance t-test where the groups' spreads and sizes differ")
def pooled_t_with_unequal_spread(ev: Evidence) -> Iterator[Finding]:
    cfg = section("parametric_assumptions")
    ratio, sizes = float(cfg["sd_ratio"]), float(cfg["size_ratio"])
    for test in ev.trace.of("test"):
        shapes = test.get("shapes") or []
        if not test.get("equal_var") or len(shapes) != 2 or min(s[2] for s in shapes) <= 0:
            continue
        (n1, _, sd1), (n2, _, sd2) = sorted(shapes, key=lambda s: s[0])
        if sd1 / sd2 < ratio or n2 / max(n1, 1) < sizes:
            continue  # the smaller group must be the more variable one: then it misleads
        yield Finding(
            explanation=(f"The t-test on line {test.get('line')} pools the variances, but the "
                         f"smaller group (n={n1:.0f}) is {sd1 / sd2:.1f}x as spread as the "
                         f"larger (n={n2:.0f}): the pooled standard error is too small and "
                         "the p-value too optimistic."),
            severity="high", confidence=0.7,
            evidence={"lines": _lines(test), "values": {"sd_ratio": round(sd1 / sd2, 2),
                                                        "sizes": [n1, n2]}},
            suggestion="Use Welch's t-test (`ttest_ind(a, b, equal_var=False)`), which does "
                       "not assume equal variances.")
        return


@rule("parametric_assumptions.chi2_with_small_expected_counts",
      title="A chi-square test with small expected counts")
def chi2_with_small_expected_counts(ev: Evidence) -> Iterator[Finding]:
    cfg = section("parametric_assumptions")
    for test in ev.trace.of("test"):
        exp = test.get("expected") or {}
        cells = int(exp.get("cells") or 0)
        if not cells or (float(exp.get("min", 99)) >= float(cfg["expected_min"]) and
                         int(exp.get("below5", 0)) / cells <= float(cfg["expected_below5"])):
            continue
        yield Finding(
            explanation=(f"The chi-square test on line {test.get('line')} has expected counts "
                         f"as small as {exp.get('min')} ({exp.get('below5')} of {cells} cells "
                         "below 5): the chi-square approximation does not hold, so the p-value "
                         "is unreliable."),
            severity="high", confidence=0.7,
            evidence={"lines": _lines(test), "values": exp},
            suggestion="Use an exact test (`fisher_exact` for 2x2, `barnard_exact`, or a "
                       "permutation test), or merge sparse categories first.")
        return


RULES = [mean_test_on_skewed_small_samples, pooled_t_with_unequal_spread,
         chi2_with_small_expected_counts]
