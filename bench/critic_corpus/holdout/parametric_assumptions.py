"""Parametric assumptions, held-out idioms: a statsmodels OLS/anova_lm on sparse
overdispersed counts, and a one-sample t-test on a small skewed sample loaded in an earlier
cell (the skew only shows in the data and in the printed summary)."""

from textwrap import dedent

from bench.critic_corpus import Case

_TRAPS = """\
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf

rng = np.random.default_rng(77)
habitat_mu = {"grassland": 1.2, "hedgerow": 2.5, "woodland": 1.8, "arable": 0.6}
traps = pd.DataFrame([
    {"habitat": h, "trap": f"{h[:3]}-{i:02d}",
     "beetles": rng.negative_binomial(0.7, 0.7 / (0.7 + mu))}
    for h, mu in habitat_mu.items() for i in range(25)
])
"""

_ER = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1999)
er = pd.DataFrame({
    "arrival": pd.date_range("2024-03-04 08:00", periods=14, freq="37min"),
    "wait_min": np.round(rng.exponential(scale=22, size=14), 1),
})
er.loc[9, "wait_min"] = 148.0      # one patient waited through a shift change
"""

CASES: list[Case] = [
    Case(
        id="parametric-ols-anova-beetle-counts",
        family="parametric_assumptions",
        twin="parametric-ols-anova-beetle-counts-sound",
        split="holdout",
        note="OLS + anova_lm on sparse, overdispersed pitfall-trap counts (mostly 0-3 with a "
        "long tail): normal, equal-variance errors assumed.",
        code=_TRAPS + dedent("""\

            ols_fit = smf.ols("beetles ~ C(habitat)", data=traps).fit()
            print(traps.groupby("habitat")["beetles"].agg(["mean", "var"]).round(2))
            print(sm.stats.anova_lm(ols_fit, typ=2))
        """),
    ),
    Case(
        id="parametric-ols-anova-beetle-counts-sound",
        family=None,
        twin="parametric-ols-anova-beetle-counts",
        split="holdout",
        note="Negative binomial regression (dispersion estimated) with a likelihood-ratio "
        "test for habitat, suited to overdispersed counts.",
        code=_TRAPS + dedent("""\

            nb_fit = smf.negativebinomial("beetles ~ C(habitat)", data=traps).fit(disp=0)
            print(traps.groupby("habitat")["beetles"].agg(["mean", "var"]).round(2))
            rate_ratios = np.exp(nb_fit.params.drop("alpha")).round(2)
            print(rate_ratios)
            print(f"habitat effect: LR chi2 = {nb_fit.llr:.2f}, df = {nb_fit.df_model:.0f}, "
                  f"p = {nb_fit.llr_pvalue:.4f}")
        """),
    ),
    Case(
        id="parametric-onesample-ttest-er-waits",
        family="parametric_assumptions",
        twin="parametric-onesample-ttest-er-waits-sound",
        split="holdout",
        setup=_ER,
        note="One-sample t-test on 14 exponential-looking waiting times with a 148-minute "
        "outlier; the skew is visible only in the data/describe() output.",
        code=dedent("""\
            from scipy import stats

            print(er.wait_min.describe().round(1))
            res = stats.ttest_1samp(er.wait_min, popmean=30, alternative="less")
            print(f"Is the mean wait below the 30-minute target? "
                  f"t = {res.statistic:.2f}, one-sided p = {res.pvalue:.3f}")
        """),
    ),
    Case(
        id="parametric-onesample-ttest-er-waits-sound",
        family=None,
        twin="parametric-onesample-ttest-er-waits",
        split="holdout",
        setup=_ER,
        note="Sign test (binomtest) on waits below the target, i.e. a test on the median "
        "that needs no distributional assumption.",
        code=dedent("""\
            from scipy import stats

            print(er.wait_min.describe().round(1))
            under = int((er.wait_min < 30).sum())
            res = stats.binomtest(under, n=len(er), p=0.5, alternative="greater")
            print(f"{under}/{len(er)} patients seen within 30 min; "
                  f"sign test for median wait < 30 min: p = {res.pvalue:.3f}")
        """),
    ),
]
