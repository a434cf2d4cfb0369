"""Parametric assumptions from the samples a test ran on (critics/rules/test_samples.py):
each rule in more than one idiom, each with a sound twin."""

from __future__ import annotations

from critics import AnalysisCritic

from .inprocess_evidence import run_and_gather

CRITIC = AnalysisCritic()
SETUP = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
lab = pd.DataFrame({"site": np.repeat(["north", "south"], [9, 8]),
                    "count": np.r_[rng.lognormal(3, 1.6, 9), rng.lognormal(4, 1.6, 8)]})
big = pd.DataFrame({"g": rng.choice(["a", "b"], 600), "y": rng.lognormal(0, 1, 600)})
"""
SKEWED = "parametric_assumptions.mean_test_on_skewed_small_samples"
POOLED = "parametric_assumptions.pooled_t_with_unequal_spread"
CHI2 = "parametric_assumptions.chi2_with_small_expected_counts"


def rules(code: str) -> set[str]:
    return {f.rule_id for f in CRITIC.review(run_and_gather(code, SETUP)).findings}


def test_student_t_on_nine_and_eight_skewed_counts_from_a_groupby() -> None:
    assert SKEWED in rules("""
    groups = [g["count"].to_numpy() for _, g in lab.groupby("site")]
    print(stats.ttest_ind(*groups))
    """)


def test_anova_on_small_skewed_arrays_in_a_loop() -> None:
    assert SKEWED in rules("""
    arms = {k: rng.lognormal(0, 1.2, 14) for k in "abc"}
    print(stats.f_oneway(*arms.values()))
    """)


def test_the_same_counts_on_a_log_scale_are_quiet() -> None:
    found = rules("""
    groups = [np.log(g["count"]) for _, g in lab.groupby("site")]
    print(stats.ttest_ind(*groups))
    """)
    assert SKEWED not in found


def test_skewed_but_large_samples_are_quiet() -> None:
    found = rules("""
    print(stats.ttest_ind(big.y[big.g == "a"], big.y[big.g == "b"], equal_var=False))
    """)
    assert SKEWED not in found


def test_pooled_t_with_a_small_noisy_group() -> None:
    assert POOLED in rules("""
    small, large = rng.normal(10, 6, 15), rng.normal(10, 1.5, 60)
    print(stats.ttest_ind(small, large))
    """)


def test_pooled_t_in_statsmodels_spelling() -> None:
    assert POOLED in rules("""
    from statsmodels.stats.weightstats import ttest_ind
    print(ttest_ind(rng.normal(0, 5, 12), rng.normal(1, 1, 50)))
    """)


def test_welch_is_quiet() -> None:
    found = rules("""
    small, large = rng.normal(10, 6, 15), rng.normal(10, 1.5, 60)
    print(stats.ttest_ind(small, large, equal_var=False))
    """)
    assert POOLED not in found


def test_chi_square_on_a_sparse_crosstab() -> None:
    assert CHI2 in rules("""
    t = pd.crosstab(rng.choice(["x", "y"], 18, p=[.8, .2]), rng.choice(["u", "v", "w"], 18))
    print(stats.chi2_contingency(t, correction=False))
    """)


def test_chi_square_on_a_full_table_is_quiet() -> None:
    found = rules("""
    res = stats.chi2_contingency([[120, 90], [100, 110]])
    print(res.pvalue)
    """)
    assert CHI2 not in found
