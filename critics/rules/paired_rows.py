"""Pseudoreplication seen in what ran: an independent-samples test on two samples that are
the same rows (units) measured twice.

Reads the analysis trace: for each two-sample test the kernel recorded which share of the
smaller sample's row labels also label rows of the other (`shared_rows`). Two columns of one
frame (before/after, two years, two raters) share every label; two groups of rows share none.
Test names: critics/trace_rules.toml [pseudoreplication].
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..thresholds import section


@rule("pseudoreplication.same_rows_as_independent_samples",
      title="An independent-samples test compared two measurements of the same units")
def same_rows_as_independent_samples(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: a test that assumes independent samples ran on two samples whose
    row labels are (nearly) the same units."""
    cfg = section("pseudoreplication")
    independent, bar = set(cfg["independent_tests"]), float(cfg["shared_rows"])
    for test in ev.trace.of("test"):
        shared = test.get("shared_rows")
        if test.get("func") not in independent or not isinstance(shared, int | float) or \
                shared < bar:
            continue
        names = [n for n in test.get("names", []) if n]
        what = " and ".join(repr(n) for n in names) if names else "its two samples"
        yield Finding(
            explanation=(f"`{test.get('func')}` (line {test.get('line')}) treats {what} as "
                         f"independent samples, but {shared:.0%} of the rows of one are rows "
                         "of the other: the same units measured twice. The between-unit spread "
                         "swamps the within-unit change, so the p-value is wrong."),
            severity="critical", confidence=0.85,
            evidence={"lines": [x for x in [test.get("line")] if isinstance(x, int)],
                      "values": {"shared_rows": shared, "samples": names}},
            suggestion="Compare the paired measurements unit by unit: `scipy.stats.ttest_rel` "
                       "or `wilcoxon` on the rows present in both, or a mixed model with a "
                       "random intercept per unit.")


RULES = [same_rows_as_independent_samples]
