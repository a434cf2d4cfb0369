"""Parametric assumptions, holdout8 idiom: a parallel-group pharmacokinetic comparison of AUC
with a Student t-test on the raw, right-skewed exposures instead of on the log scale."""

from textwrap import dedent

from bench.critic_corpus import Case

_PK = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8246)
n_per_arm = 12
# AUC0-inf (ng*h/mL) from non-compartmental analysis, one value per subject
pk = pd.DataFrame({
    "subject": [f"P{i:02d}" for i in range(2 * n_per_arm)],
    "formulation": ["reference"] * n_per_arm + ["test"] * n_per_arm,
    "auc_inf": np.concatenate([
        rng.lognormal(np.log(400), 0.9, n_per_arm),
        rng.lognormal(np.log(400) + 0.6, 0.9, n_per_arm),
    ]).round(1),
})
"""

CASES: list[Case] = [
    Case(
        id="parametric-assumptions-h8-pk-auc-raw-scale-ttest",
        family="parametric_assumptions",
        twin="parametric-assumptions-h8-pk-auc-raw-scale-ttest-sound",
        split="holdout8",
        setup=_PK,
        note="Raw AUCs are log-normal with a long right tail and only 12 subjects per arm, so "
        "the raw-scale Student t-test's normality and equal-variance assumptions fail.",
        code=dedent("""\
            from scipy import stats

            ref = pk.loc[pk.formulation == "reference", "auc_inf"]
            test = pk.loc[pk.formulation == "test", "auc_inf"]
            t, p = stats.ttest_ind(test, ref)
            print(f"mean AUC reference {ref.mean():.0f}, test {test.mean():.0f} ng*h/mL")
            print(f"ratio of means {test.mean() / ref.mean():.2f}, t = {t:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric-assumptions-h8-pk-auc-raw-scale-ttest-sound",
        family=None,
        twin="parametric-assumptions-h8-pk-auc-raw-scale-ttest",
        split="holdout8",
        setup=_PK,
        note="AUC is analysed on the log scale, where it is close to normal with equal spread, "
        "and the result is reported as a geometric mean ratio with its confidence interval.",
        code=dedent("""\
            from scipy import stats

            log_ref = np.log(pk.loc[pk.formulation == "reference", "auc_inf"])
            log_test = np.log(pk.loc[pk.formulation == "test", "auc_inf"])
            res = stats.ttest_ind(log_test, log_ref)
            ci = res.confidence_interval(0.90)
            diff = log_test.mean() - log_ref.mean()
            print(f"geometric mean AUC reference {np.exp(log_ref.mean()):.0f}, "
                  f"test {np.exp(log_test.mean()):.0f} ng*h/mL")
            print(f"GMR {np.exp(diff):.2f} (90% CI {np.exp(ci.low):.2f}-{np.exp(ci.high):.2f}), "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
]
