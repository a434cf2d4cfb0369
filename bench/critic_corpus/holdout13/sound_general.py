from bench.critic_corpus import Case

SPLIT = "holdout13"

HOTEL_ADR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8118)
n = 2200
stays = pd.DataFrame({
    "arrival": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366, n), "D"),
    "lead_time_days": rng.gamma(1.5, 25, n).round(),
    "nights": rng.integers(1, 8, n),
    "room_type": rng.choice(["STD", "DLX", "STE"], n, p=[0.6, 0.32, 0.08]),
    "channel": rng.choice(["direct", "OTA", "corporate"], n, p=[0.35, 0.5, 0.15]),
    "refundable": (rng.random(n) < 0.55).astype(int),
})
m = stays["arrival"].dt.month
stays["season"] = np.select([m.isin([6, 7, 8]), m.isin([12, 1, 2])], ["peak", "low"], "shoulder")
log_adr = (np.log(stays["room_type"].map({"STD": 105, "DLX": 145, "STE": 250}))
           + stays["season"].map({"peak": 0.18, "shoulder": 0.0, "low": -0.12})
           + stays["channel"].map({"direct": 0.0, "OTA": -0.06, "corporate": -0.14})
           + 0.07 * stays["refundable"] - 0.0012 * stays["lead_time_days"]
           + rng.normal(0, 0.11 + 0.05 * (stays["room_type"] == "STE"), n))
stays["adr_eur"] = np.exp(log_adr).round(2)
'''

HOTEL_ADR_CODE = '''
import statsmodels.formula.api as smf

print(f"{len(stays)} stays; ADR median EUR {stays['adr_eur'].median():.0f}, "
      f"IQR {stays['adr_eur'].quantile(0.25):.0f}-{stays['adr_eur'].quantile(0.75):.0f}")
print(stays.groupby(["season", "room_type"])["adr_eur"].median().unstack().round(0)
      .to_string())

fit = smf.ols(
    "np.log(adr_eur) ~ C(room_type, Treatment('STD')) + C(season, Treatment('shoulder'))"
    " + C(channel, Treatment('direct')) + refundable + lead_time_days + nights",
    data=stays,
).fit(cov_type="HC3")

ci = fit.conf_int()
effects = pd.DataFrame({
    "pct_effect": 100 * (np.exp(fit.params) - 1),
    "ci_low": 100 * (np.exp(ci[0]) - 1),
    "ci_high": 100 * (np.exp(ci[1]) - 1),
    "p": fit.pvalues,
}).drop(index="Intercept")
effects.index = (effects.index.str.replace(r"C\\((\\w+), Treatment\\('\\w+'\\)\\)", r"\\1",
                                           regex=True))
effects.loc["lead_time_days", ["pct_effect", "ci_low", "ci_high"]] *= 30

print(f"\\nlog-ADR model, n={int(fit.nobs)}, R^2={fit.rsquared:.3f}, "
      "heteroskedasticity-robust (HC3) SEs")
print("% effect on ADR (lead time per 30 days)")
print(effects.round(3).to_string())

resid = fit.resid
print(f"\\nResidual SD {resid.std():.3f} log points; by room type: "
      + ", ".join(f"{k} {v:.3f}" for k, v in resid.groupby(stays["room_type"]).std().items()))
'''

VET_VAX_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2606)
clinics = {"Northgate": 0.78, "Riverside": 0.74, "Hillcrest": 0.81, "Meadowbank": 0.69,
           "Harbour": 0.76}
rows = []
for clinic, p in clinics.items():
    k = rng.integers(150, 420)
    species = rng.choice(["dog", "cat"], k, p=[0.62, 0.38])
    boost = rng.random(k) < np.where(species == "dog", p, p - 0.08)
    rows.append(pd.DataFrame({"clinic": clinic, "species": species,
                              "booster_on_time": boost.astype(int)}))
reminders = pd.concat(rows, ignore_index=True)
reminders["patient_id"] = [f"PT{50000 + i}" for i in range(len(reminders))]
'''

VET_VAX_CODE = '''
from scipy.stats import chi2_contingency
from statsmodels.stats.proportion import proportion_confint

tab = (reminders.groupby("clinic")["booster_on_time"]
       .agg(due="count", on_time="sum"))
tab["rate"] = tab["on_time"] / tab["due"]
lo, hi = proportion_confint(tab["on_time"], tab["due"], alpha=0.05, method="wilson")
tab["ci_low"], tab["ci_high"] = lo, hi
tab = tab.sort_values("rate", ascending=False)

overall = reminders["booster_on_time"].mean()
print(f"Annual booster compliance, {len(reminders)} patients due, overall {overall:.1%}")
print(tab.round(3).to_string())

counts = pd.crosstab(reminders["clinic"], reminders["booster_on_time"])
chi2, p, dof, expected = chi2_contingency(counts)
print(f"\\nOmnibus chi-square across clinics: chi2 = {chi2:.2f}, df = {dof}, p = {p:.4f}"
      f" (min expected count {expected.min():.0f})")

sp = (reminders.groupby(["clinic", "species"])["booster_on_time"].mean().unstack()
      .mul(100).round(1))
sp["n_cats"] = reminders[reminders["species"] == "cat"].groupby("clinic").size()
print("\\nOn-time % by species")
print(sp.to_string())
print("\\nClinic rates are shown with 95% Wilson intervals; the single omnibus test"
      " asks whether compliance differs between clinics at all.")
'''

RAIL_CANX_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3030)
days = pd.date_range("2023-09-01", "2024-08-31", freq="D")
routes = {"Coastway": 180, "Valley Line": 95, "Airport Express": 140, "Northern Loop": 210}
rows = []
for route, sched in routes.items():
    for d in days:
        planned = sched - (40 if d.dayofweek >= 5 else 0)
        storm = rng.random() < (0.06 if d.month in (11, 12, 1, 2) else 0.02)
        rate = 0.012 * (1.6 if d.month in (10, 11) else 1.0) * (4 if storm else 1)
        rate *= {"Coastway": 1.3, "Valley Line": 1.0, "Airport Express": 0.7,
                 "Northern Loop": 1.1}[route]
        rows.append((route, d, planned, rng.negative_binomial(4, 4 / (4 + planned * rate))))
canx = pd.DataFrame(rows, columns=["route", "date", "planned_services", "cancellations"])
canx["autumn"] = canx["date"].dt.month.isin([10, 11]).astype(int)
canx["weekend"] = (canx["date"].dt.dayofweek >= 5).astype(int)
'''

RAIL_CANX_CODE = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(canx.groupby("route")[["planned_services", "cancellations"]].sum()
      .assign(rate_pct=lambda d: 100 * d["cancellations"] / d["planned_services"])
      .round(2).to_string())

formula = "cancellations ~ C(route, Treatment('Valley Line')) + autumn + weekend"
offset = np.log(canx["planned_services"])
pois = smf.glm(formula, data=canx, family=sm.families.Poisson(), offset=offset).fit()
dispersion = pois.pearson_chi2 / pois.df_resid
print(f"\\nPoisson fit: Pearson chi2 / df = {dispersion:.2f}")

alpha = ((canx["cancellations"] - pois.mu) ** 2 - canx["cancellations"]).sum() / (
    pois.mu ** 2).sum()
nb = smf.glm(formula, data=canx, family=sm.families.NegativeBinomial(alpha=alpha),
             offset=offset).fit()
print(f"Negative binomial with alpha = {alpha:.3f} (moment estimate); "
      f"Pearson chi2 / df = {nb.pearson_chi2 / nb.df_resid:.2f}")

ci = nb.conf_int()
rr = pd.DataFrame({"rate_ratio": np.exp(nb.params), "ci_low": np.exp(ci[0]),
                   "ci_high": np.exp(ci[1]), "p": nb.pvalues}).drop(index="Intercept")
rr.index = rr.index.str.replace(r"C\\(route, Treatment\\('Valley Line'\\)\\)", "route",
                                regex=True)
print("\\nCancellation rate ratios per planned service (NB GLM, offset log planned)")
print(rr.round(3).to_string())
'''

WAFER_CLS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7117)
lots = [f"LOT{k:04d}" for k in range(1, 61)]
rows = []
for lot in lots:
    lot_shift = rng.normal(0, 0.6)
    for slot in range(1, 26):
        rows.append({"lot_id": lot, "slot": slot, "lot_shift": lot_shift})
wafers = pd.DataFrame(rows)
n = len(wafers)
wafers["cd_nm"] = rng.normal(45, 1.2, n) + 0.5 * wafers["lot_shift"]
wafers["overlay_nm"] = np.abs(rng.normal(0, 3, n))
wafers["film_thk_a"] = rng.normal(1200, 25, n)
wafers["edge_slot"] = wafers["slot"].isin([1, 2, 24, 25]).astype(int)
lin = (-2.4 + 0.5 * np.abs(wafers["cd_nm"] - 45) + 0.22 * wafers["overlay_nm"]
       + 0.6 * wafers["edge_slot"] + 0.8 * wafers["lot_shift"])
wafers["scrap"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
wafers = wafers.drop(columns="lot_shift")
'''

WAFER_CLS_CODE = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import SplineTransformer, StandardScaler
from sklearn.compose import make_column_transformer

features = ["cd_nm", "overlay_nm", "film_thk_a", "edge_slot"]
X, y, groups = wafers[features], wafers["scrap"].to_numpy(), wafers["lot_id"]
print(f"{len(wafers)} wafers in {groups.nunique()} lots; scrap rate {y.mean():.1%}")

def build():
    prep = make_column_transformer(
        (SplineTransformer(n_knots=4, degree=3), ["cd_nm"]),
        (StandardScaler(), ["overlay_nm", "film_thk_a"]),
        ("passthrough", ["edge_slot"]),
    )
    return make_pipeline(prep, LogisticRegression(max_iter=2000, C=1.0))

cv = GroupKFold(n_splits=5)
fold_rows = []
oof = np.zeros(len(y))
for k, (tr, te) in enumerate(cv.split(X, y, groups)):
    model = build().fit(X.iloc[tr], y[tr])
    oof[te] = model.predict_proba(X.iloc[te])[:, 1]
    fold_rows.append({"fold": k, "test_lots": groups.iloc[te].nunique(),
                      "test_wafers": len(te), "scrap_rate": y[te].mean(),
                      "auc": roc_auc_score(y[te], oof[te])})

folds = pd.DataFrame(fold_rows)
print("\\nLot-grouped 5-fold CV (no lot appears in both train and test)")
print(folds.round(3).to_string(index=False))
print(f"\\nAUC {folds['auc'].mean():.3f} +/- {folds['auc'].std():.3f} across folds; "
      f"pooled out-of-fold AUC {roc_auc_score(y, oof):.3f}")
calib = pd.Series(y).groupby(pd.qcut(oof, 5, labels=False)).agg(["mean", "size"])
calib["mean_pred"] = pd.Series(oof).groupby(pd.qcut(oof, 5, labels=False)).mean()
print("\\nOut-of-fold calibration by quintile")
print(calib.round(3).to_string())
'''

CHURN_COHORT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(9494)
n = 5000
signup = pd.Timestamp("2023-07-01") + pd.to_timedelta(rng.integers(0, 365, n), "D")
plan = rng.choice(["monthly", "annual"], n, p=[0.75, 0.25])
life_m = np.where(plan == "annual", rng.exponential(30, n), rng.exponential(9, n))
cancel = signup + pd.to_timedelta((life_m * 30.4).round(), "D")
snapshot = pd.Timestamp("2024-09-30")
members = pd.DataFrame({
    "member_id": [f"M{700000 + i}" for i in range(n)],
    "signup_date": signup,
    "plan": plan,
    "cancel_date": cancel.where(cancel <= snapshot),
})
'''

CHURN_COHORT_CODE = '''
SNAPSHOT = pd.Timestamp("2024-09-30")

m = members.assign(
    cohort=members["signup_date"].dt.to_period("Q"),
    end=members["cancel_date"].fillna(SNAPSHOT),
)
m["months_active"] = ((m["end"] - m["signup_date"]).dt.days // 30.4).astype(int)
m["max_obs_months"] = ((SNAPSHOT - m["signup_date"]).dt.days // 30.4).astype(int)
print(f"{len(m)} members, {m['cancel_date'].notna().sum()} cancelled by "
      f"{SNAPSHOT:%d %b %Y}; {m['cancel_date'].isna().sum()} still active (censored)")

def retention(g, horizons=(1, 3, 6, 9, 12)):
    out = {"members": len(g)}
    for h in horizons:
        eligible = g[g["max_obs_months"] >= h]
        out[f"m{h}"] = ((eligible["months_active"] >= h).mean()
                        if len(eligible) >= 30 else np.nan)
    return pd.Series(out)

table = (m.groupby(["cohort", "plan"])[["months_active", "max_obs_months"]]
         .apply(retention)
         .unstack("plan"))
pct_cols = [c for c in table.columns if c[0] != "members"]
table[pct_cols] = table[pct_cols] * 100
print("\\nRetention % at month h, by signup quarter and plan "
      "(only members observed for h months; blank = fewer than 30 eligible)")
print(table.round(1).to_string())

pooled = m.groupby("plan")[["months_active", "max_obs_months"]].apply(retention)
pooled.iloc[:, 1:] *= 100
print("\\nAll cohorts pooled")
print(pooled.round(1).to_string())
'''

CASES: list[Case] = [
    Case(
        id="h13-sound-hotel-adr-log-ols-hc3",
        family=None,
        code=HOTEL_ADR_CODE,
        setup=HOTEL_ADR_SETUP,
        note="Log-ADR regression with robust HC3 SEs, effects reported as % with CIs; "
             "residual spread by room type checked.",
        split=SPLIT,
    ),
    Case(
        id="h13-sound-vet-booster-wilson-ci",
        family=None,
        code=VET_VAX_CODE,
        setup=VET_VAX_SETUP,
        note="Clinic booster compliance with Wilson CIs and a single omnibus chi-square; no "
             "pairwise fishing.",
        split=SPLIT,
    ),
    Case(
        id="h13-sound-rail-cancellations-negbin-offset",
        family=None,
        code=RAIL_CANX_CODE,
        setup=RAIL_CANX_SETUP,
        note="Count GLM with exposure offset; overdispersion checked and handled with a "
             "negative binomial before reporting rate ratios.",
        split=SPLIT,
    ),
    Case(
        id="h13-sound-wafer-scrap-groupkfold",
        family=None,
        code=WAFER_CLS_CODE,
        setup=WAFER_CLS_SETUP,
        note="Scrap classifier with preprocessing in a pipeline and lot-grouped CV, so wafers "
             "from one lot never straddle train and test.",
        split=SPLIT,
    ),
    Case(
        id="h13-sound-churn-cohort-retention-censoring",
        family=None,
        code=CHURN_COHORT_CODE,
        setup=CHURN_COHORT_SETUP,
        note="Cohort retention table that only uses members observed long enough for each "
             "horizon, handling right-censoring and reporting the counts.",
        split=SPLIT,
    ),
]
