"""Parametric assumptions, holdout11: crowdfunding pledges with and without a pitch video, and
zero-inflated downtime across data-centre cooling designs."""

from textwrap import dedent

from bench.critic_corpus import Case

_PLEDGES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_041)
campaigns = pd.DataFrame({
    "has_video": [True] * 16 + [False] * 14,
    "pledged_usd": np.concatenate([rng.lognormal(8.3, 1.7, 16), rng.lognormal(7.7, 1.7, 14)]),
    "backers": rng.poisson(60, 30),
}).round({"pledged_usd": 0})
"""

_COOLING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_042)
rows = []
for design, p_zero, scale in [("CRAH", 0.55, 40), ("rear-door", 0.7, 35), ("immersion", 0.8, 30)]:
    for hall in range(4):
        for month in range(1, 7):
            down = 0.0 if rng.random() < p_zero else rng.pareto(1.3) * scale
            rows.append({"design": design, "hall": f"{design[:3]}-{hall}", "month": month,
                         "downtime_min": round(down, 1)})
halls = pd.DataFrame(rows)
"""

CASES: list[Case] = [
    Case(
        id="parametric_assumptions-h11-crowdfund-video-ttest",
        family="parametric_assumptions",
        twin="parametric_assumptions-h11-crowdfund-video-mwu",
        split="holdout11",
        setup=_PLEDGES,
        note="Welch t-test and t-interval on 16 vs 14 raw pledge totals that are lognormal with "
        "a few huge campaigns; the mean difference and its CI are driven by one or two outliers.",
        code=dedent("""\
            from scipy import stats

            vid = campaigns.loc[campaigns.has_video, "pledged_usd"]
            novid = campaigns.loc[~campaigns.has_video, "pledged_usd"]
            print(campaigns.groupby("has_video")["pledged_usd"].agg(["count", "mean", "max"]))

            res = stats.ttest_ind(vid, novid, equal_var=False)
            ci = res.confidence_interval(0.95)
            print(f"video uplift: ${vid.mean() - novid.mean():,.0f} "
                  f"(95% CI ${ci.low:,.0f} to ${ci.high:,.0f}), p = {res.pvalue:.3f}")
        """),
    ),
    Case(
        id="parametric_assumptions-h11-crowdfund-video-mwu",
        family=None,
        twin="parametric_assumptions-h11-crowdfund-video-ttest",
        split="holdout11",
        setup=_PLEDGES,
        note="Small skewed samples are compared with a Mann-Whitney test and the effect is stated "
        "as a difference in medians plus the rank-biserial correlation.",
        code=dedent("""\
            from scipy import stats

            vid = campaigns.loc[campaigns.has_video, "pledged_usd"]
            novid = campaigns.loc[~campaigns.has_video, "pledged_usd"]
            print(campaigns.groupby("has_video")["pledged_usd"].agg(["count", "median", "max"]))

            res = stats.mannwhitneyu(vid, novid, alternative="two-sided")
            rbc = 2 * res.statistic / (len(vid) * len(novid)) - 1
            print(f"video uplift in medians: ${vid.median() - novid.median():,.0f}, "
                  f"rank-biserial r = {rbc:.2f}, p = {res.pvalue:.3f}")
        """),
    ),
    Case(
        id="parametric_assumptions-h11-cooling-downtime-anova",
        family="parametric_assumptions",
        twin="parametric_assumptions-h11-cooling-downtime-kruskal",
        split="holdout11",
        setup=_COOLING,
        note="One-way ANOVA on monthly downtime minutes that are mostly zeros with a Pareto tail; "
        "normal-residual assumptions are badly violated and the F p-value is unreliable.",
        code=dedent("""\
            from scipy.stats import f_oneway

            by_design = [g["downtime_min"].to_numpy() for _, g in halls.groupby("design")]
            summary = halls.groupby("design")["downtime_min"].agg(
                months="size", zero_share=lambda s: (s == 0).mean(), mean="mean", sd="std")
            print(summary.round(2))
            F, p = f_oneway(*by_design)
            print(f"cooling design vs downtime: F = {F:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric_assumptions-h11-cooling-downtime-kruskal",
        family=None,
        twin="parametric_assumptions-h11-cooling-downtime-anova",
        split="holdout11",
        setup=_COOLING,
        note="A Kruskal-Wallis test (rank based, tie-corrected) compares the zero-heavy downtime "
        "distributions instead of an ANOVA on means.",
        code=dedent("""\
            from scipy.stats import kruskal

            by_design = [g["downtime_min"].to_numpy() for _, g in halls.groupby("design")]
            summary = halls.groupby("design")["downtime_min"].agg(
                months="size", zero_share=lambda s: (s == 0).mean(), median="median",
                q90=lambda s: s.quantile(0.9))
            print(summary.round(2))
            H, p = kruskal(*by_design)
            print(f"cooling design vs downtime: H = {H:.2f}, p = {p:.4f}")
        """),
    ),
]
