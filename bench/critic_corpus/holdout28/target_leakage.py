from bench.critic_corpus import Case

SPLIT = "holdout28"

_OUTAGE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 1800
causes = ["vegetation", "equipment", "animal", "lightning", "third_party", "unknown"]
outages = pd.DataFrame({
    "incident_ref": [f"INC{n:06d}" for n in rng.choice(999_999, n, replace=False)],
    "start_ts": pd.Timestamp("2021-01-01")
                + pd.to_timedelta(rng.uniform(0, 3 * 365 * 24, n), unit="h"),
    "cause": rng.choice(causes, n, p=[0.3, 0.25, 0.12, 0.1, 0.08, 0.15]),
    "wind_gust_mph": rng.gamma(4, 7, n).round(1),
    "feeder_age_yrs": rng.uniform(3, 60, n).round(1),
    "overhead_pct": rng.uniform(0, 100, n).round(),
    "customers_affected": rng.lognormal(5.5, 1.2, n).astype(int) + 1,
})
log_dur = (3.6 + 0.025 * outages["wind_gust_mph"] + 0.008 * outages["overhead_pct"]
           + 0.6 * outages["cause"].isin(["vegetation", "lightning"])
           + 0.005 * outages["feeder_age_yrs"] + rng.normal(0, 0.45, n))
outages["duration_min"] = np.exp(log_dur).round()
outages["customer_minutes_int"] = outages["customers_affected"] * outages["duration_min"]
outages.head()
'''

_OUTAGE_FLAWED = '''
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, r2_score

df = outages.sort_values("start_ts").copy()
df["hour"] = df["start_ts"].dt.hour
df["month"] = df["start_ts"].dt.month
df = pd.get_dummies(df, columns=["cause"], dtype=int)
cause_cols = [c for c in df.columns if c.startswith("cause_")]

features = cause_cols + ["wind_gust_mph", "feeder_age_yrs", "overhead_pct", "customers_affected",
            "customer_minutes_int", "hour", "month"]
target = np.log(df["duration_min"])

# train on 2021-22, test on 2023 incidents
is_train = df["start_ts"] < "2023-01-01"
gbr = GradientBoostingRegressor(n_estimators=200, learning_rate=0.05, max_depth=3,
                                subsample=0.8, random_state=0)
gbr.fit(df.loc[is_train, features], target[is_train])
pred = gbr.predict(df.loc[~is_train, features])

print(f"restoration-time model: test R2 (log min) = {r2_score(target[~is_train], pred):.3f}")
mae = mean_absolute_error(df.loc[~is_train, "duration_min"], np.exp(pred))
print(f"MAE on 2023 incidents: {mae:.1f} min  (n={(~is_train).sum()})")
'''

_OUTAGE_SOUND = '''
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, r2_score

df = outages.sort_values("start_ts").copy()
df["hour"] = df["start_ts"].dt.hour
df["month"] = df["start_ts"].dt.month
df = pd.get_dummies(df, columns=["cause"], dtype=int)
cause_cols = [c for c in df.columns if c.startswith("cause_")]

# only what control knows when the incident is logged (CMI needs the duration, so it's out)
features = cause_cols + ["wind_gust_mph", "feeder_age_yrs", "overhead_pct", "customers_affected",
            "hour", "month"]
target = np.log(df["duration_min"])

# train on 2021-22, test on 2023 incidents
is_train = df["start_ts"] < "2023-01-01"
gbr = GradientBoostingRegressor(n_estimators=200, learning_rate=0.05, max_depth=3,
                                subsample=0.8, random_state=0)
gbr.fit(df.loc[is_train, features], target[is_train])
pred = gbr.predict(df.loc[~is_train, features])

print(f"restoration-time model: test R2 (log min) = {r2_score(target[~is_train], pred):.3f}")
mae = mean_absolute_error(df.loc[~is_train, "duration_min"], np.exp(pred))
print(f"MAE on 2023 incidents: {mae:.1f} min  (n={(~is_train).sum()})")
'''

_ARREARS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(777)
n = 4000
acc = pd.DataFrame({
    "prepay": rng.binomial(1, 0.18, n),
    "smart_meter": rng.binomial(1, 0.6, n),
    "avg_monthly_bill": rng.gamma(6, 18, n).round(2),
    "missed_dd_6m": rng.poisson(0.25, n),
    "income_band": rng.choice(["low", "mid", "high"], n, p=[0.3, 0.5, 0.2]),
    "winter_bill_shock": rng.normal(0, 1, n).round(2),
})
lin = (-2.6 + 0.012 * (acc["avg_monthly_bill"] - 100) + 0.8 * acc["missed_dd_6m"]
       + 0.7 * (acc["income_band"] == "low") - 0.9 * acc["prepay"]
       + 0.3 * acc["winter_bill_shock"])
acc["arrears_90d"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# referrals to the debt collection agency logged over the same financial year
acc["debt_referrals_fy"] = np.where(acc["arrears_90d"] == 1,
                                    rng.binomial(2, 0.6, n), rng.binomial(1, 0.02, n))
acc["is_train"] = rng.random(n) < 0.7
acc.groupby("arrears_90d").mean(numeric_only=True).round(2)
'''

_ARREARS_FLAWED = '''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train, test = acc[acc["is_train"]], acc[~acc["is_train"]]
fml = ("arrears_90d ~ avg_monthly_bill + missed_dd_6m + C(income_band) + prepay"
       " + smart_meter + winter_bill_shock + debt_referrals_fy")
res = smf.logit(fml, data=train).fit(disp=0)
print(res.summary2().tables[1][["Coef.", "Std.Err.", "P>|z|"]].round(3))

p_test = res.predict(test)
print(f"\\nholdout AUC for 90-day arrears: {roc_auc_score(test['arrears_90d'], p_test):.3f}")
flag = p_test > 0.3
print(f"flagged {flag.sum()} accounts, precision {test.loc[flag, 'arrears_90d'].mean():.1%}")
'''

_ARREARS_SOUND = '''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train, test = acc[acc["is_train"]], acc[~acc["is_train"]]
# debt referrals happen after an account is 90 days behind -> not available at scoring time
fml = ("arrears_90d ~ avg_monthly_bill + missed_dd_6m + C(income_band) + prepay"
       " + smart_meter + winter_bill_shock")
res = smf.logit(fml, data=train).fit(disp=0)
print(res.summary2().tables[1][["Coef.", "Std.Err.", "P>|z|"]].round(3))

p_test = res.predict(test)
print(f"\\nholdout AUC for 90-day arrears: {roc_auc_score(test['arrears_90d'], p_test):.3f}")
flag = p_test > 0.3
print(f"flagged {flag.sum()} accounts, precision {test.loc[flag, 'arrears_90d'].mean():.1%}")
'''

CASES: list[Case] = [
    Case(
        id="h28-tleak-outage-duration-cmi-feature",
        family="target_leakage",
        setup=_OUTAGE_SETUP,
        code=_OUTAGE_FLAWED,
        twin="h28-tleak-outage-duration-cmi-feature-sound",
        note="customer minutes interrupted = customers affected x duration, so the target is "
             "fed back in as a feature and the restoration-time R2 is spurious",
        split=SPLIT,
    ),
    Case(
        id="h28-tleak-outage-duration-cmi-feature-sound",
        family=None,
        setup=_OUTAGE_SETUP,
        code=_OUTAGE_SOUND,
        twin="h28-tleak-outage-duration-cmi-feature",
        note="same chronological restoration-time model using only fields known when the "
             "incident is logged",
        split=SPLIT,
    ),
    Case(
        id="h28-tleak-arrears-debt-referrals",
        family="target_leakage",
        setup=_ARREARS_SETUP,
        code=_ARREARS_FLAWED,
        twin="h28-tleak-arrears-debt-referrals-sound",
        note="debt collection referrals in the same year only happen once an account is 90 "
             "days in arrears, so the outcome leaks into the logit and the holdout AUC",
        split=SPLIT,
    ),
    Case(
        id="h28-tleak-arrears-debt-referrals-sound",
        family=None,
        setup=_ARREARS_SETUP,
        code=_ARREARS_SOUND,
        twin="h28-tleak-arrears-debt-referrals",
        note="same arrears logit on holdout accounts without the post-outcome referral count",
        split=SPLIT,
    ),
]
