from bench.critic_corpus import Case

SPLIT = "holdout25"

_CHANNEL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4040)
n = 3000
channels = ["email", "push", "sms", "in_app", "none"]
churn_by_ch = {"email": 0.14, "push": 0.08, "sms": 0.25, "in_app": 0.07, "none": 0.17}
cust = pd.DataFrame({
    "customer_id": np.arange(1, n + 1),
    "preferred_channel": rng.choice(channels, n, p=[0.3, 0.25, 0.1, 0.15, 0.2]),
    "orders_12m": rng.poisson(4, n),
})
cust["churned"] = (rng.random(n) < cust.preferred_channel.map(churn_by_ch)).astype(int)
'''

_SPEND_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1111)
days = pd.date_range("2023-01-01", "2024-12-31", freq="D")
t = np.arange(len(days))
# paid UA budget ramps up with the funding round; organic installs grow with brand awareness
spend = (2.0 + 0.006 * t) * rng.lognormal(0, 0.25, len(days))
installs = (300 + 0.55 * t + 40 * np.sin(2 * np.pi * t / 365)
            + 4.0 * (spend - spend.mean()) + rng.normal(0, 60, len(days)))
ua = pd.DataFrame({"date": days, "paid_spend_k": spend.round(3),
                   "installs": np.maximum(installs, 0).round()})
'''

CASES = [
    Case(
        id="h25-corr-channel-code-churn",
        family="correlation_misuse",
        setup=_CHANNEL_SETUP,
        code='''
df = cust.copy()
df["channel_code"] = df["preferred_channel"].astype("category").cat.codes

corr = df[["channel_code", "orders_12m", "churned"]].corr()
print(corr.round(3))
r = corr.loc["channel_code", "churned"]
print(f"\\nchurn vs preferred channel: r = {r:+.3f}")
if abs(r) < 0.1:
    print("-> preferred channel is unrelated to churn; drop it from the retention model")
''',
        twin="h25-corr-channel-code-churn-ok",
        note="Pearson r between arbitrary category codes of a nominal channel and churn is ~0 "
             "although churn ranges 7%-25% across channels; 'unrelated' is wrong",
        split=SPLIT,
    ),
    Case(
        id="h25-corr-channel-code-churn-ok",
        family=None,
        setup=_CHANNEL_SETUP,
        code='''
from scipy.stats import chi2_contingency

tab = pd.crosstab(cust["preferred_channel"], cust["churned"])
chi2, p, dof, _ = chi2_contingency(tab)
cramers_v = np.sqrt(chi2 / (tab.to_numpy().sum() * (min(tab.shape) - 1)))

rates = cust.groupby("preferred_channel")["churned"].agg(["size", "mean"])
print(rates.rename(columns={"size": "customers", "mean": "churn_rate"}).round(3))
print(f"\\nchi2={chi2:.1f}, dof={dof}, p={p:.2g}, Cramer's V={cramers_v:.3f}")
print("-> preferred channel is associated with churn; keep it (one-hot) in the retention model"
      if p < 0.05 else "-> no detectable association")
''',
        twin="h25-corr-channel-code-churn",
        note="association between a nominal channel and churn is measured with a chi-square test "
             "and Cramer's V plus per-channel churn rates",
        split=SPLIT,
    ),
    Case(
        id="h25-corr-trending-spend-installs",
        family="correlation_misuse",
        setup=_SPEND_SETUP,
        code='''
from scipy.stats import pearsonr

weekly = ua.set_index("date").resample("W").sum()
r, p = pearsonr(weekly.paid_spend_k, weekly.installs)
slope = np.polyfit(weekly.paid_spend_k, weekly.installs, 1)[0]

print(f"weeks analysed               : {len(weekly)}")
print(f"total paid spend             : ${weekly.paid_spend_k.sum():,.0f}k")
print(f"spend vs installs, Pearson r : {r:.3f} (p={p:.1g})")
print(f"installs per extra $1k/week  : {slope:,.0f}")
print(f"implied CPI                  : ${1000 / slope:.2f}")
print("-> paid UA explains most of install growth; ask finance for +30% budget")
''',
        twin="h25-corr-trending-spend-installs-ok",
        note="Pearson r and slope on two upward-trending weekly series measure the shared trend "
             "(budget ramp vs organic growth), not the effect of spend; CPI is badly understated",
        split=SPLIT,
    ),
    Case(
        id="h25-corr-trending-spend-installs-ok",
        family=None,
        setup=_SPEND_SETUP,
        code='''
from scipy.stats import pearsonr

weekly = ua.set_index("date").resample("W").sum().iloc[1:-1]   # drop partial edge weeks
# both series trend up over two years -> correlate week-over-week changes, not levels
chg = weekly.diff().dropna()
r_lvl, _ = pearsonr(weekly.paid_spend_k, weekly.installs)
r, p = pearsonr(chg.paid_spend_k, chg.installs)
slope = np.polyfit(chg.paid_spend_k, chg.installs, 1)[0]

print(f"weeks analysed               : {len(weekly)} ({len(chg)} weekly changes)")
print(f"levels r (trend-dominated)   : {r_lvl:.3f}  -- not used")
print(f"d(spend) vs d(installs), r   : {r:.3f} (p={p:.1g})")
print(f"extra installs per extra $1k : {slope:,.1f}")
print(f"marginal CPI                 : ${1000 / slope:.2f}")
''',
        twin="h25-corr-trending-spend-installs",
        note="the spend-install relationship is estimated on differenced weekly series, so the "
             "shared trend does not masquerade as a spend effect",
        split=SPLIT,
    ),
]
