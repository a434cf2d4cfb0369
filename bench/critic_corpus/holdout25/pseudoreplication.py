from bench.critic_corpus import Case

SPLIT = "holdout25"

_SESSION_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(60)
n_users = 240
user_arm = rng.choice(["control", "smart_push"], n_users)
user_level = rng.lognormal(1.6, 0.55, n_users)          # how long this user's sessions run
rows = []
for uid in range(n_users):
    k = int(rng.integers(3, 60))                       # heavy users log many sessions
    lift = 1.04 if user_arm[uid] == "smart_push" else 1.0
    mins = user_level[uid] * lift * rng.lognormal(0, 0.35, k)
    rows.append(pd.DataFrame({"user_id": f"u{uid:04d}", "arm": user_arm[uid],
                              "session_min": mins.round(2)}))
sessions = pd.concat(rows, ignore_index=True)
sessions["started_at"] = pd.Timestamp("2024-09-02") + pd.to_timedelta(
    rng.integers(0, 21 * 24 * 60, len(sessions)), unit="min")
'''

_GEO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1357)
dmas = [f"DMA_{i:03d}" for i in range(20)]
treated = dict(zip(dmas, rng.permutation([1] * 10 + [0] * 10)))
size = dict(zip(dmas, rng.lognormal(3.0, 0.4, 20)))
dma_shock = dict(zip(dmas, rng.normal(0, 0.12, 20)))   # DMA-level demand swing in the test
days = pd.date_range("2024-04-01", periods=70, freq="D")
rows = []
for d in dmas:
    post = days >= "2024-05-13"
    mult = 1 + post * (dma_shock[d] + 0.03 * treated[d])
    sales = size[d] * mult * (1 + 0.1 * (days.dayofweek >= 5)) * rng.lognormal(0, 0.08, 70)
    rows.append(pd.DataFrame({"date": days, "dma": d, "treated": treated[d],
                              "post": post.astype(int), "sales_k": sales.round(2)}))
geo = pd.concat(rows, ignore_index=True)
'''

CASES = [
    Case(
        id="h25-pseudo-push-sessions-ttest",
        family="pseudoreplication",
        setup=_SESSION_SETUP,
        code='''
from scipy.stats import ttest_ind

arms = {a: g["session_min"] for a, g in sessions.groupby("arm")}
kpis = {a: {"users": sessions.loc[sessions.arm == a, "user_id"].nunique(),
            "sessions": len(s), "avg_min": s.mean()} for a, s in arms.items()}
for a, k in kpis.items():
    print(f"{a:11s} users={k['users']:4d} sessions={k['sessions']:5d} "
          f"avg session={k['avg_min']:.2f} min")

lift = kpis["smart_push"]["avg_min"] / kpis["control"]["avg_min"] - 1
t, p = ttest_ind(np.log(arms["smart_push"]), np.log(arms["control"]))
print(f"\\nsession length lift: {lift:+.1%}   (t={t:.2f}, p={p:.2g}, "
      f"n={len(sessions)} sessions)")
winner = ("smart_push" if lift > 0 else "control") if p < 0.05 else "none"
print(f"WINNER: {winner}")
''',
        twin="h25-pseudo-push-sessions-ttest-ok",
        note="users were randomised but the t-test treats ~7,500 sessions from 240 users as "
             "independent, so the p-value ignores within-user correlation",
        split=SPLIT,
    ),
    Case(
        id="h25-pseudo-push-sessions-ttest-ok",
        family=None,
        setup=_SESSION_SETUP,
        code='''
from scipy.stats import ttest_ind

# the user is the randomised unit: one number per user (mean log session length)
per_user = (sessions.assign(log_min=np.log(sessions.session_min))
            .groupby(["user_id", "arm"], as_index=False)
            .agg(log_min=("log_min", "mean"), n_sessions=("log_min", "size")))
arms = {a: g["log_min"] for a, g in per_user.groupby("arm")}
for a, s in arms.items():
    print(f"{a:11s} users={len(s):4d} geo-mean session={np.exp(s.mean()):.2f} min")

lift = np.exp(arms["smart_push"].mean() - arms["control"].mean()) - 1
t, p = ttest_ind(arms["smart_push"], arms["control"], equal_var=False)
print(f"\\nsession length lift (per user): {lift:+.1%}   (t={t:.2f}, p={p:.2g}, "
      f"n={len(per_user)} users)")
winner = ("smart_push" if lift > 0 else "control") if p < 0.05 else "none"
print(f"WINNER: {winner}")
''',
        twin="h25-pseudo-push-sessions-ttest",
        note="sessions are collapsed to one value per randomised user before the Welch t-test",
        split=SPLIT,
    ),
    Case(
        id="h25-pseudo-geo-test-daily-ols",
        family="pseudoreplication",
        setup=_GEO_SETUP,
        code='''
import statsmodels.formula.api as smf

geo["log_sales"] = np.log(geo.sales_k)
geo["dow"] = geo.date.dt.dayofweek
did = smf.ols("log_sales ~ treated * post + C(dma) + C(dow)", data=geo).fit()

b, se = did.params["treated:post"], did.bse["treated:post"]
lo, hi = did.conf_int().loc["treated:post"]
print(f"rows in model          : {int(did.nobs)} (20 DMAs x 70 days)")
print(f"incremental sales lift : {np.expm1(b):+.2%}  95% CI [{np.expm1(lo):+.2%}, "
      f"{np.expm1(hi):+.2%}]")
print(f"p-value                : {did.pvalues['treated:post']:.2g}")
print("geo test verdict       :", "SIGNIFICANT - scale CTV spend nationally"
      if did.pvalues["treated:post"] < 0.05 else "inconclusive")
''',
        twin="h25-pseudo-geo-test-daily-ols-ok",
        note="treatment is assigned to 20 DMAs but the DiD regression uses 1,400 DMA-days with "
             "iid OLS errors, ignoring DMA-level post-period shocks, so the CI is far too narrow",
        split=SPLIT,
    ),
    Case(
        id="h25-pseudo-geo-test-daily-ols-ok",
        family=None,
        setup=_GEO_SETUP,
        code='''
import statsmodels.formula.api as smf

geo["log_sales"] = np.log(geo.sales_k)
geo["dow"] = geo.date.dt.dayofweek
# DMAs are the randomised units: cluster the standard errors by DMA
did = smf.ols("log_sales ~ treated * post + C(dma) + C(dow)", data=geo).fit(
    cov_type="cluster", cov_kwds={"groups": pd.factorize(geo.dma)[0]})

b = did.params["treated:post"]
lo, hi = did.conf_int().loc["treated:post"]
print(f"rows in model          : {int(did.nobs)} (20 DMA clusters x 70 days)")
print(f"incremental sales lift : {np.expm1(b):+.2%}  95% CI [{np.expm1(lo):+.2%}, "
      f"{np.expm1(hi):+.2%}]")
print(f"p-value (cluster-robust): {did.pvalues['treated:post']:.2g}")
print("geo test verdict       :", "SIGNIFICANT - scale CTV spend nationally"
      if did.pvalues["treated:post"] < 0.05 else "inconclusive")
''',
        twin="h25-pseudo-geo-test-daily-ols",
        note="the DiD standard errors are clustered on the 20 randomised DMAs",
        split=SPLIT,
    ),
]
