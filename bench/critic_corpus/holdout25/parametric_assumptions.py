from bench.critic_corpus import Case

SPLIT = "holdout25"

_INFL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(206)
micro_rev = rng.lognormal(6.3, 1.3, 10).round(0)
macro_rev = rng.lognormal(7.5, 1.3, 9).round(0)
posts = pd.DataFrame({
    "handle": [f"@micro_{i}" for i in range(10)] + [f"@macro_{i}" for i in range(9)],
    "tier": ["micro"] * 10 + ["macro"] * 9,
    "followers_k": np.r_[rng.integers(8, 60, 10), rng.integers(150, 900, 9)],
    "fee_eur": np.r_[rng.integers(150, 600, 10), rng.integers(1500, 6000, 9)],
    "attributed_rev_eur": np.r_[micro_rev, macro_rev],
})
'''

_REPEAT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1284)
frames = []
for ch in ["paid_social", "search", "referral", "influencer"]:
    k = int(rng.integers(11, 16))
    frames.append(pd.DataFrame({"channel": ch,
                                "days_to_2nd_order": rng.exponential(45, k).round(0)}))
repeat = pd.concat(frames, ignore_index=True)
repeat.insert(0, "customer_id", np.arange(5000, 5000 + len(repeat)))
'''

CASES = [
    Case(
        id="h25-param-influencer-ttest-skewed",
        family="parametric_assumptions",
        setup=_INFL_SETUP,
        code='''
from scipy import stats

kpi = posts.groupby("tier").agg(posts=("handle", "size"),
                                mean_rev=("attributed_rev_eur", "mean"),
                                median_rev=("attributed_rev_eur", "median"),
                                max_rev=("attributed_rev_eur", "max"),
                                mean_fee=("fee_eur", "mean"))
kpi["roas"] = kpi.mean_rev / kpi.mean_fee
print(kpi.round(1).to_string())

macro = posts.loc[posts.tier == "macro", "attributed_rev_eur"]
micro = posts.loc[posts.tier == "micro", "attributed_rev_eur"]
t, p = stats.ttest_ind(macro, micro)
print(f"\\nrevenue per post, macro vs micro: t={t:.2f}, p={p:.3f}")
if p >= 0.05:
    print("no significant revenue difference per post -> move Q3 budget to micro creators")
else:
    print("macro creators drive significantly more revenue per post")
''',
        twin="h25-param-influencer-ttest-skewed-ok",
        note="Student t-test on 10 vs 9 heavily right-skewed revenues (one 40k post); the "
             "non-significant p drives the budget call although ranks/log-scale show a clear gap",
        split=SPLIT,
    ),
    Case(
        id="h25-param-influencer-ttest-skewed-ok",
        family=None,
        setup=_INFL_SETUP,
        code='''
from scipy import stats

kpi = posts.groupby("tier").agg(posts=("handle", "size"),
                                mean_rev=("attributed_rev_eur", "mean"),
                                median_rev=("attributed_rev_eur", "median"),
                                max_rev=("attributed_rev_eur", "max"),
                                mean_fee=("fee_eur", "mean"))
kpi["roas"] = kpi.mean_rev / kpi.mean_fee
print(kpi.round(1).to_string())

macro = posts.loc[posts.tier == "macro", "attributed_rev_eur"]
micro = posts.loc[posts.tier == "micro", "attributed_rev_eur"]
# 10 vs 9 posts with a heavy right tail: rank test (exact p) instead of a t-test on raw euros
u, p = stats.mannwhitneyu(macro, micro, alternative="two-sided", method="exact")
print(f"\\nrevenue per post, macro vs micro: U={u:.0f}, exact p={p:.3f}")
print(f"P(macro post > micro post) = {u / (len(macro) * len(micro)):.2f}")
''',
        twin="h25-param-influencer-ttest-skewed",
        note="small, heavily skewed samples are compared with an exact Mann-Whitney test and a "
             "common-language effect size instead of a t-test",
        split=SPLIT,
    ),
    Case(
        id="h25-param-repeat-purchase-anova",
        family="parametric_assumptions",
        setup=_REPEAT_SETUP,
        code='''
from scipy.stats import f_oneway

def mean_ci(s):
    half = 1.96 * s.std() / np.sqrt(len(s))
    return pd.Series({"n": len(s), "mean_days": s.mean(), "ci_low": s.mean() - half,
                      "ci_high": s.mean() + half, "max_days": s.max()})

summary = repeat.groupby("channel")["days_to_2nd_order"].apply(mean_ci).unstack()
print(summary.round(1).to_string())

F, p = f_oneway(*[g.to_numpy() for _, g in repeat.groupby("channel")["days_to_2nd_order"]])
print(f"\\none-way ANOVA: F={F:.2f}, p={p:.4f}")
slowest = summary.mean_days.idxmax()
print(f"channels differ in time to 2nd order (p<0.05) -> {slowest} customers repurchase slowest,"
      " add a day-30 nudge for them")
''',
        twin="h25-param-repeat-purchase-anova-ok",
        note="one-way ANOVA and normal-theory CIs on 11-15 exponential-like waits per channel; "
             "p<0.05 is driven by a few very long referral waits (Kruskal-Wallis p~0.5)",
        split=SPLIT,
    ),
    Case(
        id="h25-param-repeat-purchase-anova-ok",
        family=None,
        setup=_REPEAT_SETUP,
        code='''
from scipy.stats import kruskal

summary = repeat.groupby("channel")["days_to_2nd_order"].describe()[
    ["count", "25%", "50%", "75%", "max"]]
print(summary.round(1).to_string())

# waiting times are right-skewed with ~13 customers per channel -> rank-based test
H, p = kruskal(*[g.to_numpy() for _, g in repeat.groupby("channel")["days_to_2nd_order"]])
print(f"\\nKruskal-Wallis: H={H:.2f}, p={p:.3f}")
verdict = "differ" if p < 0.05 else "show no detectable difference"
print(f"channels {verdict} in time to 2nd order at these sample sizes")
''',
        twin="h25-param-repeat-purchase-anova",
        note="skewed waiting times with small groups are compared with Kruskal-Wallis and "
             "summarised by quartiles, and the null result is reported as such",
        split=SPLIT,
    ),
]
