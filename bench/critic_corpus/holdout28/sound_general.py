from bench.critic_corpus import Case

SPLIT = "holdout28"

_PEAK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
days = pd.date_range("2021-01-01", "2023-12-31", freq="D")
t_mean = 11 + 7 * np.sin(2 * np.pi * (days.dayofyear - 110) / 365) + rng.normal(0, 3, len(days))
hdd = np.clip(15.5 - t_mean, 0, None)
cdd = np.clip(t_mean - 22, 0, None)
weekend = (days.dayofweek >= 5).astype(int)
ar = np.zeros(len(days))
for i in range(1, len(days)):
    ar[i] = 0.6 * ar[i - 1] + rng.normal(0, 0.35)
peak = 34 + 0.62 * hdd + 0.9 * cdd - 3.1 * weekend - 0.0012 * np.arange(len(days)) + ar
load = pd.DataFrame({"t_mean_c": t_mean.round(1), "hdd": hdd.round(2), "cdd": cdd.round(2),
                     "weekend": weekend, "peak_gw": peak.round(2)}, index=days)
load["trend_yr"] = (load.index - load.index[0]).days / 365.25
load.tail()
'''

_PEAK_CODE = '''
import statsmodels.formula.api as smf

fit = smf.ols("peak_gw ~ hdd + cdd + weekend + trend_yr", data=load).fit(
    cov_type="HAC", cov_kwds={"maxlags": 7})
print(f"n = {int(fit.nobs)} days, R2 = {fit.rsquared:.3f}; Newey-West SEs (7 lags) "
      f"because daily residuals are autocorrelated")
tbl = pd.DataFrame({"coef": fit.params, "se_hac": fit.bse,
                    "ci_lo": fit.conf_int()[0], "ci_hi": fit.conf_int()[1]}).round(3)
print(tbl.to_string())
print(f"\\neach heating degree-day adds {fit.params['hdd'] * 1000:.0f} MW to the daily peak")
'''

_SAIDI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1366)
cust_served = 412_000
n = 5200
start = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.uniform(0, 365 * 24 * 60, n), "min")
storm_days = pd.to_datetime(["2023-02-17", "2023-11-02", "2023-11-03"])
storm = rng.random(n) < 0.06
start = start.where(~storm, storm_days[rng.integers(0, 3, n)]
                    + pd.to_timedelta(rng.uniform(0, 1440, n), "min"))
events = pd.DataFrame({
    "start": start,
    "duration_min": np.where(storm, rng.lognormal(6.0, 0.8, n), rng.lognormal(4.2, 1.1, n)),
    "cust_int": (rng.lognormal(4.5, 1.4, n) * np.where(storm, 4, 1)).astype(int) + 1,
})
events["duration_min"] = events["duration_min"].round(1)
events.describe().round(1)
'''

_SAIDI_CODE = '''
ev = events.copy()
sustained = ev["duration_min"] >= 5          # IEEE 1366: <5 min counts as momentary
print(f"{len(ev):,} events; {(~sustained).sum()} momentary (<5 min) excluded from SAIDI/SAIFI")
ev = ev[sustained]
ev["cmi"] = ev["cust_int"] * ev["duration_min"]

day = ev.groupby(ev["start"].dt.normalize()).agg(cmi=("cmi", "sum"), ci=("cust_int", "sum"))
day = day.reindex(pd.date_range("2023-01-01", "2023-12-31"), fill_value=0)
daily_saidi = day["cmi"] / cust_served
ln = np.log(daily_saidi[daily_saidi > 0])
t_med = np.exp(ln.mean() + 2.5 * ln.std())      # 2.5 beta major event day threshold
med = daily_saidi > t_med
print(f"T_MED = {t_med:.2f} min; major event days: {list(day.index[med].strftime('%d %b'))}")

for label, mask in [("all days", slice(None)), ("excl. MEDs", ~med)]:
    saidi = day.loc[mask, "cmi"].sum() / cust_served
    saifi = day.loc[mask, "ci"].sum() / cust_served
    print(f"{label:>11}: SAIDI {saidi:6.1f} min, SAIFI {saifi:.3f}, CAIDI {saidi / saifi:.1f} min")
'''

_PR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(21)
sites = {"Westmill": 5.0, "Chelmer": 7.5, "Lyde Green": 2.4, "Boxted": 11.0, "Tewin": 4.2}
idx = pd.date_range("2024-05-01", "2024-08-31 23:00", freq="h")
frames = []
for name, kwp in sites.items():
    poa = np.clip(np.sin(np.pi * (idx.hour.values - 5) / 15), 0, None) * rng.gamma(4, 190,
                                                                                  len(idx))
    poa = np.clip(poa, 0, 1100)
    pr_true = rng.normal(0.81, 0.02) - 0.0004 * (idx.dayofyear.values - 120)
    ac = kwp * poa / 1000 * pr_true * rng.normal(1, 0.03, len(idx))
    df = pd.DataFrame({"site": name, "kwp": kwp, "poa_wm2": poa.round(1),
                       "ac_kwh": ac.clip(0).round(3)}, index=idx)
    gap = rng.random(len(idx)) < (0.15 if name == "Boxted" else 0.02)   # logger dropouts
    df.loc[gap, "ac_kwh"] = np.nan
    frames.append(df)
pv_hourly = pd.concat(frames)
pv_hourly.head()
'''

_PR_CODE = '''
day = pv_hourly[pv_hourly["poa_wm2"] > 50]           # daylight hours
completeness = day.groupby("site")["ac_kwh"].apply(lambda s: s.notna().mean())
print("data completeness (daylight hours with AC energy):")
print(completeness.round(3).to_string())

ok = day.dropna(subset=["ac_kwh"])                    # PR uses matched hours only
g = ok.groupby("site")
pr = g["ac_kwh"].sum() / (g["poa_wm2"].sum() / 1000 * g["kwp"].first())
monthly = ok.groupby(["site", ok.index.month]).apply(
    lambda d: d["ac_kwh"].sum() / (d["poa_wm2"].sum() / 1000 * d["kwp"].iloc[0]))
summary = pd.DataFrame({"pr_season": pr, "pr_monthly_median": monthly.groupby("site").median(),
                        "pr_monthly_iqr": monthly.groupby("site").quantile(0.75)
                        - monthly.groupby("site").quantile(0.25),
                        "completeness": completeness})
summary["flag"] = np.where(summary["completeness"] < 0.9, "low data - check logger", "")
print(summary.round(3).to_string())
'''

_CHURN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
n = 1800
cust = pd.DataFrame({
    "tariff": rng.choice(["flat", "tou", "fixed", "prepay"], n),
    "payment": rng.choice(["dd", "cash", "card"], n, p=[0.7, 0.1, 0.2]),
    "tenure_m": rng.gamma(2, 20, n).round(),
    "annual_kwh": rng.lognormal(8.0, 0.4, n).round(),
    "calls_90d": rng.poisson(0.6, n),
    "price_rise_pct": rng.choice([0, 4.5, 9.8, 14.0], n),
})
lin = (-2.0 - 0.015 * cust["tenure_m"] + 0.45 * cust["calls_90d"]
       + 0.08 * cust["price_rise_pct"] + 0.6 * (cust["payment"] == "cash"))
cust["churn_6m"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
cust["churn_6m"].mean()
'''

_CHURN_CODE = '''
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder, StandardScaler

num = ["tenure_m", "annual_kwh", "calls_90d", "price_rise_pct"]
cat = ["tariff", "payment"]
pre = ColumnTransformer([
    ("num", Pipeline([("log", FunctionTransformer(np.log1p)), ("sc", StandardScaler())]), num),
    ("cat", OneHotEncoder(handle_unknown="ignore"), cat),
])
model = Pipeline([("pre", pre), ("lr", LogisticRegression(solver="newton-cholesky"))])

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
res = cross_validate(model, cust[num + cat], cust["churn_6m"], cv=cv,
                     scoring=["roc_auc", "neg_brier_score"])
print(f"6-month churn, base rate {cust['churn_6m'].mean():.1%}")
print(f"5-fold AUC   {res['test_roc_auc'].mean():.3f} +/- {res['test_roc_auc'].std():.3f}")
print(f"5-fold Brier {-res['test_neg_brier_score'].mean():.4f}")
'''

_LED_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(81)
n = 36
before = rng.lognormal(np.log(85_000), 0.5, n)
ratio = np.exp(rng.normal(np.log(0.88), 0.07, n))     # weather-normalised after/before
buildings = pd.DataFrame({
    "uprn": rng.choice(10**9, n, replace=False) + 10**10,
    "use": rng.choice(["school", "office", "library", "leisure"], n),
    "kwh_before_wn": before.round(),
    "kwh_after_wn": (before * ratio).round(),
})
buildings.head()
'''

_LED_CODE = '''
from scipy import stats

# paired design: each building is its own control; work on the log ratio (multiplicative change)
log_ratio = np.log(buildings["kwh_after_wn"] / buildings["kwh_before_wn"])
w, p_norm = stats.shapiro(log_ratio)
t, p = stats.ttest_1samp(log_ratio, 0.0)
ci = stats.t.interval(0.95, len(log_ratio) - 1, loc=log_ratio.mean(), scale=stats.sem(log_ratio))

print(f"n = {len(log_ratio)} buildings; Shapiro-Wilk on log ratios p = {p_norm:.2f}")
print(f"mean change {np.expm1(log_ratio.mean()):+.1%} "
      f"(95% CI {np.expm1(ci[0]):+.1%} to {np.expm1(ci[1]):+.1%}), paired t = {t:.2f}, p = {p:.1e}")
print(log_ratio.groupby(buildings["use"]).agg(["size", "mean"]).assign(
    pct_change=lambda d: np.expm1(d["mean"]).round(3)))
'''

CASES: list[Case] = [
    Case(
        id="h28-sound-peak-load-degree-days-hac",
        family=None,
        setup=_PEAK_SETUP,
        code=_PEAK_CODE,
        note="daily peak regressed on degree-days, weekend and trend with Newey-West SEs for "
             "the autocorrelated daily residuals",
        split=SPLIT,
    ),
    Case(
        id="h28-sound-saidi-saifi-major-event-days",
        family=None,
        setup=_SAIDI_SETUP,
        code=_SAIDI_CODE,
        note="IEEE 1366 reliability indices with momentary events and 2.5-beta major event days "
             "excluded and the exclusions reported",
        split=SPLIT,
    ),
    Case(
        id="h28-sound-pv-performance-ratio-completeness",
        family=None,
        setup=_PR_SETUP,
        code=_PR_CODE,
        note="PV performance ratio from matched hours, with per-site data completeness reported "
             "and low-data sites flagged",
        split=SPLIT,
    ),
    Case(
        id="h28-sound-churn-pipeline-cv",
        family=None,
        setup=_CHURN_SETUP,
        code=_CHURN_CODE,
        note="all preprocessing inside a pipeline evaluated by seeded stratified 5-fold CV",
        split=SPLIT,
    ),
    Case(
        id="h28-sound-led-retrofit-paired-log-ratio",
        family=None,
        setup=_LED_SETUP,
        code=_LED_CODE,
        note="paired before/after comparison on log ratios of weather-normalised consumption, "
             "normality checked, CI reported",
        split=SPLIT,
    ),
]
