from bench.critic_corpus import Case

_PRICING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(190)
old_page = np.round(rng.lognormal(7.8, 0.7, 14), -1)
new_page = np.round(rng.lognormal(7.5, 1.8, 15), -1)
pilot = pd.DataFrame({
    "account_id": [f"acct-{i:03d}" for i in range(29)],
    "pricing_page": ["old"] * 14 + ["new"] * 15,
    "first_q_revenue_usd": np.concatenate([old_page, new_page]),
})
'''

_LOYALTY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(25)
parts = []
for tier, k, mu, sigma in [("bronze", 9, 5.8, 0.6), ("silver", 8, 5.8, 0.7),
                           ("gold", 8, 5.6, 1.0), ("platinum", 7, 5.2, 2.0)]:
    pts = np.round(rng.lognormal(mu, sigma, k)) * (rng.random(k) > 0.15)
    parts.append(pd.DataFrame({"tier": tier, "points_redeemed_q3": pts.astype(int)}))
panel = pd.concat(parts, ignore_index=True)
panel.insert(0, "member_id", rng.choice(np.arange(10000, 99999), len(panel), replace=False))
'''

CASES: list[Case] = [
    Case(
        id="h18-parametric_assumptions-pricing-acv-ttest",
        family="parametric_assumptions",
        setup=_PRICING_SETUP,
        code='''from scipy import stats

old = pilot.loc[pilot["pricing_page"] == "old", "first_q_revenue_usd"]
new = pilot.loc[pilot["pricing_page"] == "new", "first_q_revenue_usd"]

res = stats.ttest_ind(new, old)
ci = res.confidence_interval(0.95)
print(f"accounts: old={len(old)}, new={len(new)}")
print(f"mean first-quarter revenue: old ${old.mean():,.0f} vs new ${new.mean():,.0f}")
print(f"uplift ${new.mean() - old.mean():,.0f} per account "
      f"(95% CI ${ci.low:,.0f} to ${ci.high:,.0f}), t={res.statistic:.2f}, p={res.pvalue:.3f}")
''',
        twin="h18-parametric_assumptions-pricing-acv-ttest-ok",
        note="A pooled t-test and t-interval on 14 vs 15 accounts of heavily right-skewed "
             "revenue: the 'significant' uplift rests on one or two very large accounts.",
        split="holdout18",
    ),
    Case(
        id="h18-parametric_assumptions-pricing-acv-ttest-ok",
        family=None,
        setup=_PRICING_SETUP,
        code='''from scipy import stats

old = pilot.loc[pilot["pricing_page"] == "old", "first_q_revenue_usd"].to_numpy()
new = pilot.loc[pilot["pricing_page"] == "new", "first_q_revenue_usd"].to_numpy()

mw = stats.mannwhitneyu(new, old, alternative="two-sided")
boot = stats.bootstrap((new, old), lambda a, b: np.median(a) - np.median(b),
                       n_resamples=4999, method="percentile", random_state=11)
ci = boot.confidence_interval
print(f"accounts: old={len(old)}, new={len(new)}")
print(f"median first-quarter revenue: old ${np.median(old):,.0f} vs new ${np.median(new):,.0f}")
print(f"median difference ${np.median(new) - np.median(old):,.0f} "
      f"(bootstrap 95% CI ${ci.low:,.0f} to ${ci.high:,.0f}); Mann-Whitney p={mw.pvalue:.3f}")
print("top 3 new-page accounts:", np.sort(new)[-3:])
''',
        twin="h18-parametric_assumptions-pricing-acv-ttest",
        note="With 29 heavily skewed accounts it uses a rank test and a bootstrap interval for "
             "the median difference, and shows the few accounts that dominate the mean.",
        split="holdout18",
    ),
    Case(
        id="h18-parametric_assumptions-loyalty-tier-anova",
        family="parametric_assumptions",
        setup=_LOYALTY_SETUP,
        code='''import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.multicomp import pairwise_tukeyhsd

summary = panel.groupby("tier")["points_redeemed_q3"].agg(["count", "mean", "std"]).round(0)
print(summary)

ols = smf.ols("points_redeemed_q3 ~ C(tier)", data=panel).fit()
print(sm.stats.anova_lm(ols, typ=2).round(4))
print(pairwise_tukeyhsd(panel["points_redeemed_q3"], panel["tier"]).summary())
''',
        twin="h18-parametric_assumptions-loyalty-tier-anova-ok",
        note="One-way ANOVA and Tukey HSD on 7-9 members per tier with zero-inflated, heavily "
             "skewed point counts and very unequal variances; the tier effect rests on them.",
        split="holdout18",
    ),
    Case(
        id="h18-parametric_assumptions-loyalty-tier-anova-ok",
        family=None,
        setup=_LOYALTY_SETUP,
        code='''from itertools import combinations

from scipy import stats
from statsmodels.stats.multitest import multipletests

summary = panel.groupby("tier")["points_redeemed_q3"].agg(["count", "median", "mean"]).round(0)
print(summary)

groups = {t: g["points_redeemed_q3"].to_numpy() for t, g in panel.groupby("tier")}
kw = stats.kruskal(*groups.values())
print(f"Kruskal-Wallis H={kw.statistic:.2f}, p={kw.pvalue:.3f}")

pairs = list(combinations(groups, 2))
raw = [stats.mannwhitneyu(groups[a], groups[b]).pvalue for a, b in pairs]
holm = multipletests(raw, method="holm")[1]
pd.DataFrame({"pair": [f"{a} vs {b}" for a, b in pairs], "p_raw": raw, "p_holm": holm}).round(3)
''',
        twin="h18-parametric_assumptions-loyalty-tier-anova",
        note="Rank-based Kruskal-Wallis with Holm-adjusted pairwise Mann-Whitney tests, suited "
             "to tiny, skewed, zero-inflated groups.",
        split="holdout18",
    ),
]
