"""Parametric assumptions, holdout2 idioms: statsmodels CompareMeans/ttest_ind on tiny
zero-inflated donation amounts, and scipy f_oneway unpacked from a groupby on a handful of
strongly skewed lognormal values per group."""

from textwrap import dedent

from bench.critic_corpus import Case

_DONATIONS = """\
import numpy as np
from scipy import stats
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

rng = np.random.default_rng(2468)


def gifts(n, p_give, scale):
    amounts = np.where(rng.random(n) < p_give, rng.pareto(1.2, n) * scale + 5, 0.0)
    return amounts.round(2)


letter_a = gifts(14, 0.3, 20)     # donation per recipient, USD (mostly zero, rare big gifts)
letter_b = gifts(14, 0.3, 20)
"""

_MICROBES = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(97531)
medium_effect = {"LB": 0.0, "TSB": 0.4, "M9": -0.3, "BHI": 0.6}
plates = pd.DataFrame([
    {"medium": m, "cfu_per_ml": float(np.exp(rng.normal(13 + eff, 1.6)))}
    for m, eff in medium_effect.items() for _ in range(6)
])
"""

CASES: list[Case] = [
    Case(
        id="parametric-compare-means-zero-inflated-gifts",
        family="parametric_assumptions",
        twin="parametric-compare-means-zero-inflated-gifts-sound",
        split="holdout2",
        note="Student t-test (statsmodels CompareMeans) on 14 vs 14 donation amounts that are "
        "mostly zero with a Pareto tail: nowhere near normal at this size.",
        code=_DONATIONS + dedent("""\

            cm = CompareMeans(DescrStatsW(letter_b), DescrStatsW(letter_a))
            t, p, df = cm.ttest_ind(usevar="pooled")
            low, high = cm.tconfint_diff(usevar="pooled")
            print(f"mean gift: A ${letter_a.mean():.2f}, B ${letter_b.mean():.2f}")
            print(f"B - A: t({df:.0f}) = {t:.2f}, p = {p:.3f}, 95% CI [{low:.2f}, {high:.2f}]")
        """),
    ),
    Case(
        id="parametric-compare-means-zero-inflated-gifts-sound",
        family=None,
        twin="parametric-compare-means-zero-inflated-gifts",
        split="holdout2",
        note="Seeded permutation test of the mean difference (scipy permutation_test) plus "
        "the giving rate per letter; no normality assumption.",
        code=_DONATIONS + dedent("""\

            res = stats.permutation_test(
                (letter_b, letter_a), lambda x, y: x.mean() - y.mean(),
                n_resamples=9999, alternative="two-sided",
                rng=np.random.default_rng(8),
            )
            print(f"mean gift: A ${letter_a.mean():.2f}, B ${letter_b.mean():.2f}; "
                  f"gave: A {np.mean(letter_a > 0):.0%}, B {np.mean(letter_b > 0):.0%}")
            print(f"B - A = {res.statistic:.2f} USD, permutation p = {res.pvalue:.3f}")
        """),
    ),
    Case(
        id="parametric-f-oneway-cfu-groupby",
        family="parametric_assumptions",
        twin="parametric-f-oneway-cfu-groupby-sound",
        split="holdout2",
        note="One-way ANOVA on raw colony counts (lognormal, sigma 1.6, six plates per medium): "
        "a few plates dominate the means and variances.",
        code=_MICROBES + dedent("""\

            groups = plates.groupby("medium")["cfu_per_ml"]
            f, p = stats.f_oneway(*(g.to_numpy() for _, g in groups))
            print(groups.agg(["mean", "std"]).map("{:.2e}".format))
            print(f"growth medium effect on CFU/ml: F = {f:.2f}, p = {p:.3f}")
        """),
    ),
    Case(
        id="parametric-f-oneway-cfu-groupby-sound",
        family=None,
        twin="parametric-f-oneway-cfu-groupby",
        split="holdout2",
        note="ANOVA on log10 CFU, the scale on which plate counts are close to normal with "
        "equal spread; geometric means reported.",
        code=_MICROBES + dedent("""\

            log_cfu = plates.assign(log10_cfu=np.log10(plates.cfu_per_ml))
            groups = log_cfu.groupby("medium")["log10_cfu"]
            f, p = stats.f_oneway(*(g.to_numpy() for _, g in groups))
            print(groups.agg(["mean", "std"]).round(2))
            print(f"growth medium effect on log10 CFU/ml: F = {f:.2f}, p = {p:.3f}")
        """),
    ),
]
