from bench.critic_corpus import Case

_FUNNEL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1201)
steps = ["signup", "profile_completed", "workspace_created", "teammate_invited", "first_task"]
pass_p = [1.0, 0.82, 0.64, 0.41, 0.77]
rows = []
for uid in range(3000):
    t = pd.Timestamp("2024-06-03") + pd.Timedelta(minutes=int(rng.integers(0, 14 * 1440)))
    for step, p in zip(steps, pass_p):
        if rng.random() > p:
            break
        t = t + pd.Timedelta(minutes=float(rng.exponential(25)))
        rows.append((f"u{uid:05d}", step, t))
        if rng.random() < 0.15:
            rows.append((f"u{uid:05d}", step, t + pd.Timedelta(minutes=3)))
events = pd.DataFrame(rows, columns=["user_id", "event_name", "ts"])
events = events.sample(frac=1, random_state=1).reset_index(drop=True)
'''

_PUSH_KPI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1717)
days = pd.date_range("2024-08-05", "2024-10-27", freq="D")
sends = rng.poisson(52000, len(days)) * np.where(days.dayofweek >= 5, 0.7, 1.0)
open_rate = 0.064 + 0.004 * (days >= "2024-09-23") + rng.normal(0, 0.003, len(days))
opens = rng.binomial(sends.astype(int), open_rate)
push_daily = pd.DataFrame({
    "date": days,
    "sends": sends.astype(int),
    "opens": opens,
    "push_sessions": (opens * rng.uniform(0.78, 0.86, len(days))).astype(int),
    "opt_outs": rng.poisson(95, len(days)),
})
'''

_COHORT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3344)
n = 2500
signup = pd.Timestamp("2024-07-01") + pd.to_timedelta(rng.integers(0, 56, n), "D")
users = pd.DataFrame({"user_id": np.arange(n) + 9_000_000, "signup_date": signup})
rows = []
for uid, s in zip(users["user_id"], users["signup_date"]):
    stay = rng.geometric(0.22)
    for d in range(0, 7 * stay, int(rng.integers(2, 6))):
        if rng.random() < 0.7:
            rows.append((uid, s + pd.Timedelta(days=d)))
widget_clicks = pd.DataFrame(rows, columns=["user_id", "click_date"])
widget_clicks = widget_clicks[widget_clicks["click_date"] <= "2024-09-22"]
'''

_DARK_ADOPT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5858)
n = 4200
platform = rng.choice(["ios", "android", "web", "desktop_app"], n, p=[0.34, 0.36, 0.2, 0.1])
p_dark = pd.Series(platform).map({"ios": 0.46, "android": 0.52, "web": 0.29,
                                  "desktop_app": 0.41}).to_numpy()
settings = pd.DataFrame({
    "user_id": rng.choice(np.arange(10**6), n, replace=False),
    "platform": platform,
    "theme": np.where(rng.random(n) < p_dark, "dark", "light"),
    "os_theme_sync": rng.random(n) < 0.6,
})
'''

_LTV_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
n = 1800
plan = rng.choice(["monthly_basic", "monthly_pro", "monthly_team"], n, p=[0.5, 0.35, 0.15])
monthly_churn = pd.Series(plan).map({"monthly_basic": 0.085, "monthly_pro": 0.055,
                                     "monthly_team": 0.02}).to_numpy()
start = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 540, n), "D")
obs_end = pd.Timestamp("2024-09-30")
max_months = ((obs_end - start).days // 30).to_numpy()
life = rng.geometric(monthly_churn)
subs = pd.DataFrame({
    "sub_id": np.arange(n) + 300000,
    "plan": plan,
    "start_date": start,
    "months_active": np.minimum(life, max_months),
    "churned": (life <= max_months).astype(int),
    "mrr_usd": pd.Series(plan).map({"monthly_basic": 9.0, "monthly_pro": 24.0,
                                    "monthly_team": 19.0}).to_numpy(),
})
'''

CASES: list[Case] = [
    Case(
        id="h18-sound-onboarding-funnel",
        family=None,
        setup=_FUNNEL_SETUP,
        code='''first_seen = events.pivot_table(index="user_id", columns="event_name", values="ts",
                                aggfunc="min")[steps]

reached = pd.Series(True, index=first_seen.index)
prev_ts = first_seen["signup"]
funnel = []
for step in steps:
    reached &= first_seen[step].notna() & (first_seen[step] >= prev_ts)
    prev_ts = first_seen[step]
    funnel.append({"step": step, "users": int(reached.sum())})

funnel = pd.DataFrame(funnel)
funnel["of_signups"] = (funnel["users"] / funnel["users"].iloc[0]).map("{:.1%}".format)
funnel["step_conv"] = (funnel["users"] / funnel["users"].shift()).map(
    "{:.1%}".format, na_action="ignore").fillna("")
print(f"onboarding funnel, {events['user_id'].nunique():,} users "
      f"({len(events):,} raw events, duplicates collapsed to first occurrence)")
funnel
''',
        note="Ordered onboarding funnel from the first timestamp of each step per user; "
             "duplicate events collapse to one, percentages of signups and step-to-step shown.",
        split="holdout18",
    ),
    Case(
        id="h18-sound-push-weekly-kpis",
        family=None,
        setup=_PUSH_KPI_SETUP,
        code='''weekly = push_daily.set_index("date").resample("W-SUN").sum()
weekly["open_rate"] = weekly["opens"] / weekly["sends"]
weekly["opt_out_per_10k"] = weekly["opt_outs"] / weekly["sends"] * 1e4

kpis = weekly[["sends", "open_rate", "push_sessions", "opt_out_per_10k"]].tail(6)
wow = kpis.pct_change().iloc[1:]
slide = pd.DataFrame({
    "sends": kpis["sends"].map("{:,.0f}".format),
    "open rate": kpis["open_rate"].map("{:.2%}".format),
    "WoW open rate": wow["open_rate"].map("{:+.1%}".format),
    "push sessions": kpis["push_sessions"].map("{:,.0f}".format),
    "WoW sessions": wow["push_sessions"].map("{:+.1%}".format),
    "opt-outs /10k": kpis["opt_out_per_10k"].round(1),
}).fillna("")
slide.index = slide.index.strftime("wk ending %d %b")
print(slide.to_string())
''',
        note="Descriptive weekly push KPI table over complete Monday-Sunday weeks with "
             "week-over-week changes; no inferential claim is made.",
        split="holdout18",
    ),
    Case(
        id="h18-sound-recwidget-cohort-retention",
        family=None,
        setup=_COHORT_SETUP,
        code='''last_day = widget_clicks["click_date"].max()
df = widget_clicks.merge(users, on="user_id", how="left")
df["cohort"] = df["signup_date"].dt.to_period("W")
df["week_n"] = (df["click_date"] - df["signup_date"]).dt.days // 7

active = df.pivot_table(index="cohort", columns="week_n", values="user_id",
                        aggfunc="nunique", fill_value=0)
sizes = users.groupby(users["signup_date"].dt.to_period("W"))["user_id"].nunique()
retention = active.div(sizes, axis=0).loc[:, :6]

observable = pd.DataFrame(
    {k: (sizes.index.end_time + pd.Timedelta(weeks=k)) <= last_day for k in retention.columns},
    index=sizes.index)
retention = retention.where(observable)
print(f"recommendation-widget retention by signup week (data through {last_day:%d %b}); "
      "cells not yet fully observed are blank")
retention.map(lambda v: "" if pd.isna(v) else f"{v:.0%}")
''',
        note="Weekly cohort retention of widget clickers with cohort sizes from the users table "
             "and not-yet-observable cells blanked rather than shown as drop-offs.",
        split="holdout18",
    ),
    Case(
        id="h18-sound-darkmode-adoption-by-platform",
        family=None,
        setup=_DARK_ADOPT_SETUP,
        code='''from scipy.stats import chi2_contingency

tab = pd.crosstab(settings["platform"], settings["theme"])
chi2, p, dof, expected = chi2_contingency(tab)
share = pd.crosstab(settings["platform"], settings["theme"], normalize="index")

out = tab.assign(users=tab.sum(axis=1), dark_share=share["dark"].map("{:.1%}".format))
print(f"dark-mode adoption differs by platform: chi2={chi2:.1f}, dof={dof}, p={p:.1e}; "
      f"min expected count {expected.min():.0f}")
out.sort_values("users", ascending=False)
''',
        note="Chi-square test of independence on a platform x theme table of one row per user, "
             "with large expected counts and shares shown per platform.",
        split="holdout18",
    ),
    Case(
        id="h18-sound-renewals-ltv-by-plan",
        family=None,
        setup=_LTV_SETUP,
        code='''GROSS_MARGIN = 0.82


def ltv_table(df):
    g = df.groupby("plan").agg(subs=("sub_id", "size"), churns=("churned", "sum"),
                               exposure_months=("months_active", "sum"), mrr=("mrr_usd", "mean"))
    g["monthly_churn"] = g["churns"] / g["exposure_months"]
    g["ltv_usd"] = g["mrr"] * GROSS_MARGIN / g["monthly_churn"]
    return g


point = ltv_table(subs)
boot_rng = np.random.default_rng(7)
lo, hi = {}, {}
for plan, g in subs.groupby("plan"):
    churned = g["churned"].to_numpy()
    months = g["months_active"].to_numpy()
    idx = boot_rng.integers(0, len(g), size=(1000, len(g)))
    boot_churn = churned[idx].sum(axis=1) / months[idx].sum(axis=1)
    ltv = g["mrr_usd"].mean() * GROSS_MARGIN / boot_churn
    lo[plan], hi[plan] = np.percentile(ltv, [2.5, 97.5])
point["ltv_lo"] = pd.Series(lo)
point["ltv_hi"] = pd.Series(hi)
print("LTV = MRR x margin / monthly churn (churn = churns per subscriber-month at risk, "
      "censored subscribers counted up to the data cut)")
print(point.round({"monthly_churn": 4, "ltv_usd": 0, "ltv_lo": 0, "ltv_hi": 0, "mrr": 2})
      .to_string())
''',
        note="Churn rate estimated per subscriber-month of exposure so right-censored "
             "subscriptions are handled; LTV with a seeded bootstrap interval over subscribers.",
        split="holdout18",
    ),
]
