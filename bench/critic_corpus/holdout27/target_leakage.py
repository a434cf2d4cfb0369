from bench.critic_corpus import Case

_NTRIAL_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(5521)
sites = {"Rothwell": (95, 260), "Kings Barn": (60, 210), "Newby": (120, 300),
         "Stow Hill": (75, 180)}
rows = []
for site, (no3_mu, rain_mu) in sites.items():
    site_eff = rng.normal(0, 0.5)
    rain = rng.normal(rain_mu, 25)
    for block in range(1, 5):
        blk_eff = rng.normal(0, 0.25)
        for n_rate in [0, 60, 120, 180, 240]:
            no3 = max(rng.normal(no3_mu, 18), 10) / 10
            ymax = 10.5 + site_eff + blk_eff + 0.004 * (rain - 230)
            y = ymax - 4.2 * np.exp(-0.014 * (n_rate + 4 * no3)) + rng.normal(0, 0.55)
            ndvi = 0.55 + 0.04 * y / 10 + 0.0004 * n_rate + rng.normal(0, 0.035)
            grain_n_pct = 1.55 + 0.0022 * n_rate + rng.normal(0, 0.08)
            rows.append({
                "site": site, "block": block, "n_rate_kg_ha": n_rate,
                "preplant_no3_mg_kg": round(no3, 1), "rain_apr_jun_mm": round(rain, 0),
                "ndvi_gs31": round(ndvi, 3),
                "grain_n_uptake_kg_ha": round(y * grain_n_pct * 10, 1),
                "grain_yield_t_ha": round(y, 2),
            })
ntrial = pd.DataFrame(rows)
ntrial.head()
"""

_FHB_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(73)
n = 340
fhb = pd.DataFrame({
    "field_id": np.arange(1, n + 1),
    "rain_days_anthesis": rng.poisson(3.5, n),
    "rh_hours_gt90": rng.gamma(2.5, 12, n).round(0),
    "maize_previous": rng.binomial(1, 0.3, n),
    "min_till": rng.binomial(1, 0.45, n),
    "variety_fhb_rating": rng.integers(3, 9, n),
    "t3_fungicide": rng.binomial(1, 0.6, n),
})
risk = (-1.6 + 0.25 * (fhb["rain_days_anthesis"] - 3.5) + 0.02 * (fhb["rh_hours_gt90"] - 30)
        + 0.9 * fhb["maize_previous"] + 0.4 * fhb["min_till"]
        - 0.3 * (fhb["variety_fhb_rating"] - 6) - 0.9 * fhb["t3_fungicide"])
fhb["fhb_index_gt10"] = rng.binomial(1, 1 / (1 + np.exp(-risk)))
# DON from grain samples taken at harvest (lab results arrive in September)
fhb["don_ppm_harvest"] = np.round(
    np.exp(rng.normal(-0.8 + 1.9 * fhb["fhb_index_gt10"], 0.6)), 2)
fhb.describe().T.round(2)
"""

CASES: list[Case] = [
    Case(
        id="h27-target-leakage-nitrogen-yield-grain-uptake",
        family="target_leakage",
        setup=_NTRIAL_SETUP,
        code="""
import statsmodels.formula.api as smf

# in-season yield forecast for the trial sites: GS31 info + the N rate we apply
form = ("grain_yield_t_ha ~ C(site) + n_rate_kg_ha + I(n_rate_kg_ha**2)"
        " + preplant_no3_mg_kg + ndvi_gs31 + grain_n_uptake_kg_ha")
fit = smf.ols(form, data=ntrial).fit()
print(fit.summary().tables[1])
print(f"R2 = {fit.rsquared:.3f}, adj R2 = {fit.rsquared_adj:.3f}, "
      f"RMSE = {np.sqrt(fit.mse_resid):.2f} t/ha, n = {int(fit.nobs)}")
print("-> forecast model accurate enough to use for 2025 N decisions")
""",
        twin="h27-target-leakage-nitrogen-yield-preharvest-only",
        note="Grain N uptake is yield x grain N% measured after harvest, so the in-season "
             "yield forecast uses the target itself as a predictor and its R2 is meaningless.",
        split="holdout27",
    ),
    Case(
        id="h27-target-leakage-nitrogen-yield-preharvest-only",
        family=None,
        setup=_NTRIAL_SETUP,
        code="""
import statsmodels.formula.api as smf

# in-season yield forecast for the trial sites: GS31 info + the N rate we apply
form = ("grain_yield_t_ha ~ C(site) + n_rate_kg_ha + I(n_rate_kg_ha**2)"
        " + preplant_no3_mg_kg + ndvi_gs31")
fit = smf.ols(form, data=ntrial).fit()
print(fit.summary().tables[1])
print(f"R2 = {fit.rsquared:.3f}, adj R2 = {fit.rsquared_adj:.3f}, "
      f"RMSE = {np.sqrt(fit.mse_resid):.2f} t/ha, n = {int(fit.nobs)}")
print("grain N uptake left out: it is only known after harvest")
""",
        twin="h27-target-leakage-nitrogen-yield-grain-uptake",
        note="The in-season yield model uses only predictors available at GS31 (N rate, soil "
             "nitrate, NDVI, site); post-harvest grain N uptake is excluded.",
        split="holdout27",
    ),
    Case(
        id="h27-target-leakage-fhb-risk-with-don",
        family="target_leakage",
        setup=_FHB_SETUP,
        code="""
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import StratifiedKFold, cross_val_score

predictors = ["rain_days_anthesis", "rh_hours_gt90", "maize_previous", "min_till",
              "variety_fhb_rating", "t3_fungicide", "don_ppm_harvest"]
X, y = fhb[predictors], fhb["fhb_index_gt10"]

clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
cv = StratifiedKFold(5, shuffle=True, random_state=0)
auc = cross_val_score(clf, X, y, cv=cv, scoring="roc_auc")
print(f"FHB risk model (n={len(y)}, {y.mean():.0%} fields with index > 10%)")
print(f"  CV ROC AUC: {auc.mean():.3f} (folds: {np.round(auc, 3)})")

clf.fit(X, y)
coefs = pd.Series(clf[-1].coef_[0], index=predictors).sort_values()
print(coefs.round(2))
""",
        twin="h27-target-leakage-fhb-risk-preflowering",
        note="DON is measured on harvested grain and is produced by the Fusarium infection "
             "being predicted, so the risk model's AUC comes from a post-outcome proxy of the "
             "target.",
        split="holdout27",
    ),
    Case(
        id="h27-target-leakage-fhb-risk-preflowering",
        family=None,
        setup=_FHB_SETUP,
        code="""
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import StratifiedKFold, cross_val_score

# only what is known by the T3 spray decision; DON comes back from the lab after harvest
predictors = ["rain_days_anthesis", "rh_hours_gt90", "maize_previous", "min_till",
              "variety_fhb_rating", "t3_fungicide"]
X, y = fhb[predictors], fhb["fhb_index_gt10"]

clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
cv = StratifiedKFold(5, shuffle=True, random_state=0)
auc = cross_val_score(clf, X, y, cv=cv, scoring="roc_auc")
print(f"FHB risk model (n={len(y)}, {y.mean():.0%} fields with index > 10%)")
print(f"  CV ROC AUC: {auc.mean():.3f} (folds: {np.round(auc, 3)})")

clf.fit(X, y)
coefs = pd.Series(clf[-1].coef_[0], index=predictors).sort_values()
print(coefs.round(2))
""",
        twin="h27-target-leakage-fhb-risk-with-don",
        note="The FHB risk model uses only agronomy and weather known before the outcome, "
             "scored by stratified cross-validation.",
        split="holdout27",
    ),
]
