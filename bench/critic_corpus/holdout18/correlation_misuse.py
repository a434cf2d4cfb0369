from bench.critic_corpus import Case

_CHECKOUT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6061)
n = 3000
channels = ["organic", "paid_search", "social", "email", "affiliate", "direct"]
sessions = pd.DataFrame({
    "session_id": rng.integers(10**9, 10**10, n),
    "checkout_version": rng.choice(["v1", "v2_redesign"], n),
    "channel": rng.choice(channels, n, p=[0.3, 0.22, 0.18, 0.1, 0.08, 0.12]),
    "device": rng.choice(["desktop", "mobile", "tablet"], n, p=[0.38, 0.55, 0.07]),
    "cart_items": rng.integers(1, 9, n),
})
sessions["cart_value_usd"] = np.round(sessions["cart_items"] * rng.gamma(4, 9, n), 2)
base = sessions["channel"].map({"organic": 0.34, "paid_search": 0.22, "social": 0.12,
                                "email": 0.45, "affiliate": 0.18, "direct": 0.40})
base = base + 0.04 * (sessions["checkout_version"] == "v2_redesign")
base = base - 0.08 * (sessions["device"] == "mobile")
sessions["completed"] = (rng.random(n) < base).astype(int)
'''

_ADS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(919)
days = pd.date_range("2023-07-03", periods=364, freq="D")
t = np.arange(len(days))
dau = 42000 * np.exp(0.0025 * t) * (1 + 0.06 * np.sin(2 * np.pi * t / 7))
dau = dau * rng.lognormal(0, 0.05, len(days))
daily = pd.DataFrame({
    "date": days,
    "dau": dau.round(),
    "ad_impressions": (dau * rng.lognormal(np.log(5.2), 0.12, len(days))).round(),
    "iap_revenue_usd": (dau * rng.lognormal(np.log(0.031), 0.15, len(days))).round(2),
})
'''

CASES: list[Case] = [
    Case(
        id="h18-correlation_misuse-checkout-channel-codes",
        family="correlation_misuse",
        setup=_CHECKOUT_SETUP,
        code='''df = sessions.copy()
df["channel_code"] = df["channel"].astype("category").cat.codes
df["device_code"] = df["device"].astype("category").cat.codes
df["redesign"] = (df["checkout_version"] == "v2_redesign").astype(int)

drivers = (df[["completed", "channel_code", "device_code", "redesign", "cart_items",
               "cart_value_usd"]]
           .corr()["completed"].drop("completed")
           .sort_values(key=abs, ascending=False))
print("what moves checkout completion (Pearson r with completed):")
print(drivers.round(3).to_string())
''',
        twin="h18-correlation_misuse-checkout-channel-codes-ok",
        note="Acquisition channel and device are nominal categories; their alphabetical "
             "category codes are put into a Pearson correlation and ranked as 'drivers'.",
        split="holdout18",
    ),
    Case(
        id="h18-correlation_misuse-checkout-channel-codes-ok",
        family=None,
        setup=_CHECKOUT_SETUP,
        code='''from scipy.stats import chi2_contingency


def cramers_v(table):
    chi2, p, _, _ = chi2_contingency(table)
    n = table.to_numpy().sum()
    return np.sqrt(chi2 / (n * (min(table.shape) - 1))), p


rows = []
for col in ["channel", "device", "checkout_version"]:
    tab = pd.crosstab(sessions[col], sessions["completed"])
    v, p = cramers_v(tab)
    rates = sessions.groupby(col)["completed"].mean()
    rows.append({"factor": col, "cramers_v": round(v, 3), "p": f"{p:.1e}",
                 "best": f"{rates.idxmax()} {rates.max():.0%}",
                 "worst": f"{rates.idxmin()} {rates.min():.0%}"})
print("association with checkout completion (categorical factors):")
pd.DataFrame(rows).sort_values("cramers_v", ascending=False)
''',
        twin="h18-correlation_misuse-checkout-channel-codes",
        note="Treats channel, device and checkout version as categories: Cramér's V from a "
             "chi-square contingency table plus completion rate per level.",
        split="holdout18",
    ),
    Case(
        id="h18-correlation_misuse-ads-impressions-revenue",
        family="correlation_misuse",
        setup=_ADS_SETUP,
        code='''from scipy.stats import pearsonr

r, p = pearsonr(daily["ad_impressions"], daily["iap_revenue_usd"])
print(f"{daily['date'].min():%d %b %Y} - {daily['date'].max():%d %b %Y}, {len(daily)} days")
print(f"ad impressions vs in-app purchase revenue: r = {r:.2f} (p = {p:.1e})")
print(f"=> {r**2:.0%} of IAP revenue variation explained by ad exposure; "
      "ads are not cannibalising purchases")
''',
        twin="h18-correlation_misuse-ads-impressions-revenue-ok",
        note="Both daily series grow with DAU over the year, so the levels correlation reflects "
             "the shared trend, not any relation between ad exposure and purchases.",
        split="holdout18",
    ),
    Case(
        id="h18-correlation_misuse-ads-impressions-revenue-ok",
        family=None,
        setup=_ADS_SETUP,
        code='''from scipy.stats import pearsonr

weekly = daily.set_index("date")[["dau", "ad_impressions", "iap_revenue_usd"]].resample("W").sum()
per_user = pd.DataFrame({
    "imps_per_dau": weekly["ad_impressions"] / weekly["dau"],
    "iap_per_dau": weekly["iap_revenue_usd"] / weekly["dau"],
})
wow = per_user.pct_change().dropna()
r, p = pearsonr(wow["imps_per_dau"], wow["iap_per_dau"])
print(f"{len(weekly)} weeks; week-over-week change in impressions per DAU vs "
      f"IAP revenue per DAU: r = {r:.2f} (p = {p:.2f})")
''',
        twin="h18-correlation_misuse-ads-impressions-revenue",
        note="Removes the shared DAU trend (per-DAU rates, week-over-week changes) before "
             "correlating ad exposure with purchase revenue.",
        split="holdout18",
    ),
]
