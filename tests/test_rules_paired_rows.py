"""Two measurements of the same units compared as independent samples, seen from the row
labels of what the test ran on (critics/rules/paired_rows.py); sound twins stay quiet."""

from __future__ import annotations

from critics import AnalysisCritic

from .inprocess_evidence import run_and_gather

CRITIC = AnalysisCritic()
SETUP = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(21)
names = [f"site{i:03d}" for i in range(120)]
wide = pd.DataFrame({"y2019": rng.normal(10, 3, 120)}, index=names)
wide["y2021"] = wide.y2019 - .4 + rng.normal(0, .5, 120)
wide.loc[names[:6], "y2021"] = np.nan
long = pd.DataFrame({"arm": rng.choice(["a", "b"], 240), "y": rng.normal(0, 1, 240)})
"""
RULE = "pseudoreplication.same_rows_as_independent_samples"


def rules(code: str) -> set[str]:
    return {f.rule_id for f in CRITIC.review(run_and_gather(code, SETUP)).findings}


def test_two_years_of_the_same_sites_in_a_welch_test() -> None:
    assert RULE in rules("""
    before, after = wide["y2019"].dropna(), wide["y2021"].dropna()
    print(stats.ttest_ind(before, after, equal_var=False))
    """)


def test_two_columns_of_one_frame_in_a_rank_test_through_a_helper() -> None:
    assert RULE in rules("""
    def compare(frame, a, b):
        return stats.mannwhitneyu(frame[a], frame[b]).pvalue
    print(compare(wide.dropna(), "y2019", "y2021"))
    """)


def test_the_paired_test_is_quiet() -> None:
    found = rules("""
    both = wide.dropna()
    print(stats.ttest_rel(both["y2019"], both["y2021"]))
    """)
    assert RULE not in found


def test_two_groups_of_rows_are_quiet() -> None:
    found = rules("""
    print(stats.ttest_ind(long.loc[long.arm == "a", "y"], long.loc[long.arm == "b", "y"]))
    """)
    assert RULE not in found


def test_independently_simulated_series_numbered_alike_are_quiet() -> None:
    found = rules("""
    a = pd.Series(rng.normal(0, 1, 80)); b = pd.Series(rng.normal(.3, 1, 80))
    print(stats.ttest_ind(a, b))
    """)
    assert RULE not in found
