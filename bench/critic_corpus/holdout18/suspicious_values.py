from bench.critic_corpus import Case

_TRIAL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7312)
n = 1500
trial_len = rng.choice([7, 14, 30], n)
conv_p = pd.Series(trial_len).map({7: 0.16, 14: 0.19, 30: 0.21}).to_numpy()
converted = rng.random(n) < conv_p
days = np.where(converted,
                np.minimum(trial_len + rng.integers(-3, 8, n), trial_len + 10).clip(min=1),
                -1)
trials = pd.DataFrame({
    "user_id": rng.integers(2_000_000, 3_000_000, n),
    "trial_length_days": trial_len,
    "signup_date": pd.Timestamp("2024-02-01") + pd.to_timedelta(rng.integers(0, 60, n), "D"),
    "country": rng.choice(["US", "DE", "BR", "IN", "GB"], n),
    "days_to_paid": days,
})
'''

_PRICING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n_vis = 2400
visits = pd.DataFrame({
    "user_id": np.arange(n_vis) + 400000,
    "segment": rng.choice(["freelancer", "smb", "agency", "enterprise"], n_vis,
                          p=[0.45, 0.35, 0.15, 0.05]),
    "pricing_layout": rng.choice(["3_tier", "4_tier"], n_vis),
})
buy_p = visits["segment"].map({"freelancer": 0.05, "smb": 0.08, "agency": 0.14,
                               "enterprise": 0.42})
buyers = visits[rng.random(n_vis) < buy_p]
orders = buyers[["user_id", "segment"]].copy()
orders["order_id"] = [f"ord_{i:06d}" for i in range(len(orders))]
orders["seats"] = np.where(orders["segment"].isin(["agency", "enterprise"]),
                           rng.integers(2, 6, len(orders)), 1)
# billing export: one purchase_completed row per seat line item
purchases = orders.loc[orders.index.repeat(orders["seats"]), ["user_id", "order_id"]]
purchases["event"] = "purchase_completed"
purchases = purchases.sample(frac=1, random_state=6)
purchases["received_at"] = (pd.Timestamp("2024-09-02")
                            + pd.to_timedelta(rng.integers(0, 7 * 86400, len(purchases)), "s"))
purchases = purchases.reset_index(drop=True)
'''

CASES: list[Case] = [
    Case(
        id="h18-suspicious_values-trial-days-to-paid",
        family="suspicious_values",
        setup=_TRIAL_SETUP,
        code='''summary = trials.groupby("trial_length_days").agg(
    users=("user_id", "size"),
    avg_days_to_paid=("days_to_paid", "mean"),
    median_days_to_paid=("days_to_paid", "median"),
)
summary["avg_days_to_paid"] = summary["avg_days_to_paid"].round(1)
print("Time from trial start to first payment, by trial length")
summary
''',
        twin="h18-suspicious_values-trial-days-to-paid-ok",
        note="days_to_paid is -1 for users who never paid; the sentinel is averaged in, giving "
             "near-zero and negative average/median 'days to paid'.",
        split="holdout18",
    ),
    Case(
        id="h18-suspicious_values-trial-days-to-paid-ok",
        family=None,
        setup=_TRIAL_SETUP,
        code='''paid = trials["days_to_paid"] >= 0
summary = trials.assign(paid=paid).groupby("trial_length_days").agg(
    users=("user_id", "size"),
    paid_users=("paid", "sum"),
    conversion=("paid", "mean"),
)
days = trials[paid].groupby("trial_length_days")["days_to_paid"].agg(["mean", "median"])
summary["avg_days_to_paid"] = days["mean"].round(1)
summary["median_days_to_paid"] = days["median"]
summary["conversion"] = summary["conversion"].map("{:.1%}".format)
print("Trial -> paid by trial length (days to paid among users who paid; -1 = never paid)")
print(summary.to_string())
''',
        twin="h18-suspicious_values-trial-days-to-paid",
        note="Separates the -1 'never paid' code into a conversion rate and computes days to "
             "paid only over users who actually paid.",
        split="holdout18",
    ),
    Case(
        id="h18-suspicious_values-pricing-conversion-by-segment",
        family="suspicious_values",
        setup=_PRICING_SETUP,
        code='''events = purchases.merge(visits, on="user_id", how="left")
conv = pd.DataFrame({
    "visitors": visits.groupby("segment").size(),
    "purchases": events.groupby("segment").size(),
})
conv["conversion"] = conv["purchases"] / conv["visitors"]
by_layout = (events.groupby(["segment", "pricing_layout"]).size()
             / visits.groupby(["segment", "pricing_layout"]).size()).unstack()

print("Pricing page -> purchase, week of 2 Sep")
print(conv.assign(conversion=conv["conversion"].map("{:.1%}".format)))
print()
print(by_layout.map("{:.1%}".format))
''',
        twin="h18-suspicious_values-pricing-conversion-by-segment-ok",
        note="Purchase events are one row per seat line item (repeated order_ids), so counts "
             "are inflated and conversion for enterprise/agency exceeds 100% in the output.",
        split="holdout18",
    ),
    Case(
        id="h18-suspicious_values-pricing-conversion-by-segment-ok",
        family=None,
        setup=_PRICING_SETUP,
        code='''orders = purchases.drop_duplicates("order_id")
print(f"purchase events {len(purchases):,} -> unique orders {len(orders):,} "
      f"({len(purchases) - len(orders):,} extra seat line items collapsed)")

buyers = set(orders["user_id"])
v = visits.assign(bought=visits["user_id"].isin(buyers))
conv = v.groupby("segment").agg(visitors=("user_id", "size"), buyers=("bought", "sum"))
conv["conversion"] = (conv["buyers"] / conv["visitors"]).map("{:.1%}".format)
by_layout = v.pivot_table(index="segment", columns="pricing_layout", values="bought",
                          aggfunc="mean")

print("Pricing page -> purchase, week of 2 Sep")
print(conv)
print()
print(by_layout.map("{:.1%}".format))
''',
        twin="h18-suspicious_values-pricing-conversion-by-segment",
        note="Deduplicates purchase events on order_id and counts each visitor once as buyer or "
             "not, so every conversion rate is a proportion in [0, 1].",
        split="holdout18",
    ),
]
