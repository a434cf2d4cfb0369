from bench.critic_corpus import Case

_FLU_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2231)
n = 1400
age = rng.integers(18, 95, n)
copd = rng.binomial(1, 0.12 + 0.002 * (age - 18))
diabetes = rng.binomial(1, 0.15, n)
spo2 = np.clip(rng.normal(95, 3, n) - 2.5 * copd, 78, 100).round(0)
crp = rng.lognormal(3.0, 0.8, n).round(1)
resp_rate = rng.normal(19, 4, n).round(0)
logit = (-6.2 + 0.035 * age + 0.7 * copd + 0.4 * diabetes - 0.22 * (spo2 - 95)
         + 0.45 * np.log(crp) + 0.05 * (resp_rate - 19))
icu = rng.binomial(1, 1 / (1 + np.exp(-logit)))
los = np.where(icu == 1, rng.gamma(4.0, 3.2, n), rng.gamma(1.6, 2.0, n)).round(1)
admissions = pd.DataFrame({
    "age": age, "copd": copd, "diabetes": diabetes, "spo2_adm": spo2, "crp_mg_l": crp,
    "resp_rate": resp_rate, "los_days": los, "icu_admit": icu,
    "season": rng.choice(["2022/23", "2023/24"], n),
})
print(admissions.shape, f"ICU admission rate {admissions.icu_admit.mean():.3f}")
'''

_FLU_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

predictors = ["age", "copd", "diabetes", "spo2_adm", "crp_mg_l", "resp_rate", "los_days"]
dev = admissions[admissions.season == "2022/23"]
val = admissions[admissions.season == "2023/24"]

model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
model.fit(dev[predictors], dev.icu_admit)
p_val = model.predict_proba(val[predictors])[:, 1]
auc = roc_auc_score(val.icu_admit, p_val)
print(f"temporal validation (2023/24, n={len(val)}): AUC = {auc:.3f}")
coefs = model[-1].coef_[0]
pd.DataFrame({"std_coef": coefs, "odds_ratio_per_SD": np.exp(coefs)}, index=predictors).round(2)
'''

_FLU_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

predictors = ["age", "copd", "diabetes", "spo2_adm", "crp_mg_l", "resp_rate"]
dev = admissions[admissions.season == "2022/23"]
val = admissions[admissions.season == "2023/24"]

model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
model.fit(dev[predictors], dev.icu_admit)
p_val = model.predict_proba(val[predictors])[:, 1]
auc = roc_auc_score(val.icu_admit, p_val)
print(f"temporal validation (2023/24, n={len(val)}): AUC = {auc:.3f}")
coefs = model[-1].coef_[0]
pd.DataFrame({"std_coef": coefs, "odds_ratio_per_SD": np.exp(coefs)}, index=predictors).round(2)
'''

_FLOOD_SETUP = '''
import numpy as np

rng = np.random.default_rng(77)
n_events = 420
rain_24h_mm = rng.gamma(2.2, 14.0, n_events)
rain_intensity_max = rain_24h_mm / rng.uniform(3, 14, n_events)
api_30d = rng.gamma(3.0, 12.0, n_events)           # antecedent precipitation index, mm
soil_moist = np.clip(0.15 + 0.004 * api_30d + rng.normal(0, 0.05, n_events), 0.05, 0.55)
snowmelt = rng.binomial(1, 0.15, n_events)
peak_q = np.exp(0.9 + 0.022 * rain_24h_mm + 2.2 * soil_moist + 0.5 * snowmelt
                + rng.normal(0, 0.45, n_events))    # m3/s at gauge 31-004
peak_stage_m = 0.42 * peak_q ** 0.55 + rng.normal(0, 0.03, n_events)
bankfull_q = 14.5
flooded = (peak_q > bankfull_q).astype(int)
X = np.column_stack([rain_24h_mm, rain_intensity_max, api_30d, soil_moist, snowmelt,
                     peak_stage_m])
names = ["rain_24h_mm", "rain_int_max", "api_30d", "soil_moist", "snowmelt", "peak_stage_m"]
print(f"{n_events} storm events, {flooded.sum()} above bankfull")
'''

_FLOOD_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score, confusion_matrix
from sklearn.model_selection import StratifiedKFold, cross_val_predict

rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=3, random_state=0)
cv = StratifiedKFold(5, shuffle=True, random_state=0)
pred = cross_val_predict(rf, X, flooded, cv=cv)
print(f"balanced accuracy (5-fold CV): {balanced_accuracy_score(flooded, pred):.3f}")
print(confusion_matrix(flooded, pred))
rf.fit(X, flooded)
for name, imp in sorted(zip(names, rf.feature_importances_), key=lambda t: -t[1]):
    print(f"  {name:14s} {imp:.3f}")
'''

_FLOOD_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score, confusion_matrix
from sklearn.model_selection import StratifiedKFold, cross_val_predict

keep = [i for i, nm in enumerate(names) if nm != "peak_stage_m"]
X_pre = X[:, keep]
rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=3, random_state=0)
cv = StratifiedKFold(5, shuffle=True, random_state=0)
pred = cross_val_predict(rf, X_pre, flooded, cv=cv)
print(f"balanced accuracy (5-fold CV): {balanced_accuracy_score(flooded, pred):.3f}")
print(confusion_matrix(flooded, pred))
rf.fit(X_pre, flooded)
for name, imp in sorted(zip([names[i] for i in keep], rf.feature_importances_),
                        key=lambda t: -t[1]):
    print(f"  {name:14s} {imp:.3f}")
'''

CASES: list[Case] = [
    Case(
        id="h14-target-leakage-icu-length-of-stay",
        family="target_leakage",
        setup=_FLU_SETUP,
        code=_FLU_FLAWED,
        twin="h14-target-leakage-icu-admission-only",
        note="Length of stay is only known at discharge and is driven by ICU admission itself, "
             "yet it is a predictor of ICU admission in the validated model.",
        split="holdout14",
    ),
    Case(
        id="h14-target-leakage-icu-admission-only",
        family=None,
        setup=_FLU_SETUP,
        code=_FLU_SOUND,
        twin="h14-target-leakage-icu-length-of-stay",
        note="Only variables available at admission are used; temporal validation on the "
             "later season.",
        split="holdout14",
    ),
    Case(
        id="h14-target-leakage-flood-peak-stage",
        family="target_leakage",
        setup=_FLOOD_SETUP,
        code=_FLOOD_FLAWED,
        twin="h14-target-leakage-flood-pre-event",
        note="Peak stage is the rating-curve image of the peak discharge that defines the "
             "flood label, so the classifier reads the outcome from a feature.",
        split="holdout14",
    ),
    Case(
        id="h14-target-leakage-flood-pre-event",
        family=None,
        setup=_FLOOD_SETUP,
        code=_FLOOD_SOUND,
        twin="h14-target-leakage-flood-peak-stage",
        note="Peak stage is dropped; only rainfall and antecedent conditions known before the "
             "peak are used.",
        split="holdout14",
    ),
]
