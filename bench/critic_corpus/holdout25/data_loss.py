from bench.critic_corpus import Case

SPLIT = "holdout25"

_ATTR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
n = 6000
orders = pd.DataFrame({
    "order_id": [f"O-{i:07d}" for i in range(n)],
    "customer_id": rng.integers(1, 2500, n),
    "order_ts": pd.Timestamp("2024-10-01") + pd.to_timedelta(rng.integers(0, 61 * 86400, n),
                                                             unit="s"),
    "revenue_eur": rng.lognormal(3.9, 0.7, n).round(2),
})
# click-tracking only resolves a last touch for part of the orders (app opens, direct
# type-ins and returning loyal customers mostly have no tracked touch)
has_touch = rng.random(n) < 0.62
touch = pd.DataFrame({
    "order_id": orders.order_id[has_touch].to_numpy(),
    "last_touch": rng.choice(["paid_search", "paid_social", "affiliate", "email"],
                             has_touch.sum(), p=[0.4, 0.3, 0.15, 0.15]),
})
orders.loc[~has_touch, "revenue_eur"] *= 1.6
spend_eur = {"paid_search": 52000, "paid_social": 47000, "affiliate": 9000, "email": 3000}
'''

_COHORT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
n = 3000
platform = rng.choice(["web", "ios"], n, p=[0.6, 0.4])
signup = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 182, n), unit="D")
# web export is ISO, the iOS backend exports day-first strings
signup_str = np.where(platform == "web", signup.strftime("%Y-%m-%d"),
                      signup.strftime("%d/%m/%Y"))
signups = pd.DataFrame({"user_id": np.arange(n), "platform": platform,
                        "signup_date": signup_str})
# activity: 30-day periods since signup in which the user was active (iOS retains better)
keep = np.where(platform == "ios", 0.8, 0.55)
rows = []
for uid in range(n):
    m, alive = 0, True
    while alive and m < 6:
        rows.append((uid, signup[uid] + pd.Timedelta(days=30 * m + 3)))
        alive = rng.random() < keep[uid]
        m += 1
activity = pd.DataFrame(rows, columns=["user_id", "active_date"])
'''

CASES = [
    Case(
        id="h25-loss-attribution-inner-join",
        family="data_loss",
        setup=_ATTR_SETUP,
        code='''
attributed = orders.merge(touch, on="order_id")

by_ch = attributed.groupby("last_touch").agg(orders=("order_id", "size"),
                                             revenue=("revenue_eur", "sum"))
by_ch["rev_share"] = by_ch.revenue / by_ch.revenue.sum()
by_ch["spend"] = by_ch.index.map(spend_eur)
by_ch["roas"] = by_ch.revenue / by_ch.spend
print(by_ch.sort_values("roas", ascending=False).round(2).to_string())

print(f"\\nOct-Nov revenue      : EUR {attributed.revenue_eur.sum():,.0f}")
print(f"orders               : {len(attributed):,}")
print(f"AOV                  : EUR {attributed.revenue_eur.mean():.2f}")
print(f"blended ROAS         : {attributed.revenue_eur.sum() / sum(spend_eur.values()):.2f}")
''',
        twin="h25-loss-attribution-inner-join-ok",
        note="the inner merge silently drops the ~38% of orders without a tracked touch, so total "
             "revenue, order count, AOV and blended ROAS are all reported on a biased subset",
        split=SPLIT,
    ),
    Case(
        id="h25-loss-attribution-inner-join-ok",
        family=None,
        setup=_ATTR_SETUP,
        code='''
attributed = orders.merge(touch, on="order_id", how="left", validate="one_to_one")
untracked = attributed.last_touch.isna()
print(f"orders without a tracked touch: {untracked.sum():,} of {len(attributed):,} "
      f"({untracked.mean():.1%}, EUR {attributed.revenue_eur[untracked].sum():,.0f})")
attributed["last_touch"] = attributed.last_touch.fillna("direct/untracked")

by_ch = attributed.groupby("last_touch").agg(orders=("order_id", "size"),
                                             revenue=("revenue_eur", "sum"))
by_ch["rev_share"] = by_ch.revenue / by_ch.revenue.sum()
by_ch["spend"] = by_ch.index.map(spend_eur)
by_ch["roas"] = by_ch.revenue / by_ch.spend
print(by_ch.sort_values("roas", ascending=False).round(2).to_string())

print(f"\\nOct-Nov revenue      : EUR {attributed.revenue_eur.sum():,.0f}")
print(f"orders               : {len(attributed):,}")
print(f"AOV                  : EUR {attributed.revenue_eur.mean():.2f}")
''',
        twin="h25-loss-attribution-inner-join",
        note="a left join keeps every order, the untracked share is reported and labelled "
             "direct/untracked, so totals and AOV cover all orders",
        split=SPLIT,
    ),
    Case(
        id="h25-loss-cohort-date-coerce",
        family="data_loss",
        setup=_COHORT_SETUP,
        code='''
su = signups.copy()
su["signup_date"] = pd.to_datetime(su["signup_date"], errors="coerce")
su["cohort"] = su.signup_date.dt.to_period("M")

act = activity.merge(su[["user_id", "signup_date", "cohort"]], on="user_id")
act["month_n"] = (act.active_date - act.signup_date).dt.days // 30
counts = act.pivot_table(index="cohort", columns="month_n", values="user_id",
                         aggfunc="nunique")
retention = counts.div(counts[0], axis=0)
print(retention.round(2).to_string())
m3 = retention[3].mean()
print(f"\\navg M3 retention: {m3:.1%}  | avg M1: {retention[1].mean():.1%}")
print("M3 retention below 35% target -> prioritise onboarding revamp" if m3 < 0.35
      else "M3 on target")
''',
        twin="h25-loss-cohort-date-coerce-ok",
        note="errors='coerce' turns every day-first iOS date into NaT and the pivot silently drops "
             "those users (40%, the better-retaining platform), biasing retention down",
        split=SPLIT,
    ),
    Case(
        id="h25-loss-cohort-date-coerce-ok",
        family=None,
        setup=_COHORT_SETUP,
        code='''
su = signups.copy()
fmt = {"web": "%Y-%m-%d", "ios": "%d/%m/%Y"}           # each backend exports its own format
su["signup_date"] = pd.concat([pd.to_datetime(g.signup_date, format=fmt[p])
                               for p, g in su.groupby("platform")]).sort_index()
assert su.signup_date.notna().all()
print("signups parsed per platform:", su.platform.value_counts().to_dict())
su["cohort"] = su.signup_date.dt.to_period("M")

act = activity.merge(su[["user_id", "signup_date", "cohort"]], on="user_id",
                     how="left", validate="many_to_one")
assert act.cohort.notna().all()
act["month_n"] = (act.active_date - act.signup_date).dt.days // 30
counts = act.pivot_table(index="cohort", columns="month_n", values="user_id",
                         aggfunc="nunique")
retention = counts.div(counts[0], axis=0)
print(retention.round(2).to_string())
m3 = retention[3].mean()
print(f"\\navg M3 retention: {m3:.1%}  | avg M1: {retention[1].mean():.1%}")
print("M3 retention below 35% target -> prioritise onboarding revamp" if m3 < 0.35
      else "M3 on target")
''',
        twin="h25-loss-cohort-date-coerce",
        note="both date formats are parsed explicitly, completeness is asserted and counts per "
             "platform are printed, so no signup drops out of the cohort table",
        split=SPLIT,
    ),
]
