"""Parametric assumptions, holdout4 idioms: Student's pooled-variance t-test for a small,
very scattered supplier sample against a large, tight one, and Wald (normal-approximation)
confidence intervals for specimen-rejection rates at sites with a handful of rejections."""

from textwrap import dedent

from bench.critic_corpus import Case

_COUPONS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
coupons = pd.concat([
    pd.DataFrame({"supplier": "incumbent", "mpa": rng.normal(412, 4, 160)}),
    # new supplier: only 9 coupons, far more scatter and a slightly higher mean
    pd.DataFrame({"supplier": "new", "mpa": rng.normal(420, 30, 9)}),
], ignore_index=True)
"""

_LABS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
sites = pd.DataFrame({"site": [f"clinic_{s}" for s in "ABCDEFGH"],
                      "received": [1450, 980, 64, 41, 35, 120, 28, 760]})
sites["rejected"] = rng.binomial(sites.received, 0.03)
"""

CASES: list[Case] = [
    Case(
        id="parametric-pooled-t-unequal-spread-coupons",
        family="parametric_assumptions",
        twin="parametric-pooled-t-unequal-spread-coupons-sound",
        split="holdout4",
        setup=_COUPONS,
        note="ttest_ind defaults to equal variances; the 9 new-supplier coupons have ~7x the "
        "SD of the 160 incumbent ones, so the pooled SE is far too small for the small group.",
        code=dedent("""\
            from scipy import stats

            groups = {name: g.mpa.to_numpy() for name, g in coupons.groupby("supplier")}
            summary = coupons.groupby("supplier").mpa.agg(["count", "mean", "std"]).round(1)
            print(summary)
            res = stats.ttest_ind(groups["new"], groups["incumbent"])
            print(f"new vs incumbent tensile strength: t = {res.statistic:.2f}, "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="parametric-pooled-t-unequal-spread-coupons-sound",
        family=None,
        twin="parametric-pooled-t-unequal-spread-coupons",
        split="holdout4",
        setup=_COUPONS,
        note="Welch's t-test (equal_var=False) uses each supplier's own variance, which is "
        "right for a small, scattered group against a large, tight one.",
        code=dedent("""\
            from scipy import stats

            groups = {name: g.mpa.to_numpy() for name, g in coupons.groupby("supplier")}
            summary = coupons.groupby("supplier").mpa.agg(["count", "mean", "std"]).round(1)
            print(summary)
            res = stats.ttest_ind(groups["new"], groups["incumbent"], equal_var=False)
            print(f"new vs incumbent tensile strength (Welch): t = {res.statistic:.2f}, "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="parametric-wald-ci-rare-rejections",
        family="parametric_assumptions",
        twin="parametric-wald-ci-rare-rejections-sound",
        split="holdout4",
        setup=_LABS,
        note="Wald intervals p +/- 1.96 sqrt(p(1-p)/n) for sites with 0-3 rejections: zero "
        "width at 0 events and lower limits below 0, the normal approximation fails here.",
        code=dedent("""\
            z = 1.96
            sites["rate"] = sites.rejected / sites.received
            half = z * np.sqrt(sites.rate * (1 - sites.rate) / sites.received)
            sites["ci_low"], sites["ci_high"] = sites.rate - half, sites.rate + half
            sites.assign(**{c: 100 * sites[c] for c in ["rate", "ci_low", "ci_high"]}).round(2)
        """),
    ),
    Case(
        id="parametric-wald-ci-rare-rejections-sound",
        family=None,
        twin="parametric-wald-ci-rare-rejections",
        split="holdout4",
        setup=_LABS,
        note="Exact Clopper-Pearson intervals (proportion_confint method='beta'), valid for "
        "sites with few or no rejections.",
        code=dedent("""\
            from statsmodels.stats.proportion import proportion_confint

            sites["rate"] = sites.rejected / sites.received
            sites["ci_low"], sites["ci_high"] = proportion_confint(
                sites.rejected, sites.received, alpha=0.05, method="beta")
            sites.assign(**{c: 100 * sites[c] for c in ["rate", "ci_low", "ci_high"]}).round(2)
        """),
    ),
]
