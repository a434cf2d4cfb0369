from bench.critic_corpus import Case

_WIRE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3303)
n = 180
c_pct = rng.normal(0.62, 0.04, n).round(3)
reduction_pct = rng.uniform(55, 85, n).round(1)
patent_T_C = rng.normal(550, 12, n).round(0)
d_mm = rng.choice([2.0, 2.5, 3.0, 3.5], n)
Rm = (900 + 1100 * c_pct + 6.5 * reduction_pct - 0.8 * (patent_T_C - 550)
      - 30 * d_mm + rng.normal(0, 45, n))
Rp02 = 0.88 * Rm + rng.normal(0, 20, n)
A_pct = 9 - 0.004 * (Rm - 1500) + rng.normal(0, 0.8, n)
tens = pd.DataFrame({
    "coil": [f"C{2300 + i}" for i in range(n)],
    "C_pct": c_pct,
    "reduction_pct": reduction_pct,
    "patent_T_C": patent_T_C,
    "d_mm": d_mm,
    "Rp02_MPa": Rp02.round(0),
    "Rm_MPa": Rm.round(0),
    "A_pct": A_pct.round(1),
    "W_MJ_m3": ((Rp02 + Rm) / 2 * A_pct / 100).round(1),
    "result": np.where(Rm >= 1570, "PASS", "FAIL"),
})
'''

_API_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3304)
n = 260
reactor = rng.choice(["R-101", "R-102", "R-205"], n, p=[0.4, 0.4, 0.2])
rxn_T = rng.normal(68, 2.5, n).round(1)
hold_h = rng.gamma(4, 1.5, n).round(1)
sm_water = rng.normal(0.15, 0.05, n).clip(0.02).round(3)
supplier = rng.choice(["Sup-A", "Sup-B"], n)
log_imp = (-1.3 + 0.06 * (rxn_T - 68) + 0.03 * hold_h + 1.2 * (sm_water - 0.15)
           + 0.15 * (reactor == "R-205") + rng.normal(0, 0.28, n))
total_imp = np.exp(log_imp).round(3)
oos = total_imp > 0.50
batches = pd.DataFrame({
    "batch_no": [f"API-23-{i:04d}" for i in range(n)],
    "reactor": reactor,
    "rxn_temp_C": rxn_T,
    "hold_time_h": hold_h,
    "sm_water_pct": sm_water,
    "sm_supplier": supplier,
    "n_hplc_reinjections": np.where(oos, rng.integers(2, 6, n), rng.choice([0, 0, 0, 1], n)),
    "days_to_release": np.where(oos, rng.integers(18, 45, n), rng.integers(6, 12, n)),
    "total_imp_pct": total_imp,
})
batches["fail_spec"] = (batches["total_imp_pct"] > 0.50).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h33-target-leakage-wire-tensile-ols-uses-test-results",
        family="target_leakage",
        setup=_WIRE_SETUP,
        code='''
import statsmodels.formula.api as smf

# aim: predict Rm from the process sheet so we can cut the tensile test frequency
train = tens.sample(frac=0.75, random_state=1)
test = tens.drop(train.index)

mod = smf.ols("Rm_MPa ~ C_pct + reduction_pct + patent_T_C + d_mm + Rp02_MPa + A_pct"
              " + W_MJ_m3 + C(result)", data=train).fit()
pred = mod.predict(test)
rmse = np.sqrt(np.mean((test["Rm_MPa"] - pred) ** 2))
print(f"R2 (train) = {mod.rsquared:.3f}")
print(f"held-out coils: n = {len(test)}, RMSE = {rmse:.1f} MPa")
print(mod.params.round(3))
''',
        twin="h33-target-leakage-wire-tensile-ols-process-only-sound",
        note="The Rm predictor meant to replace tensile testing uses Rp0.2, elongation, work "
             "to fracture and the PASS/FAIL verdict, all outputs of the same tensile test.",
        split="holdout33",
    ),
    Case(
        id="h33-target-leakage-wire-tensile-ols-process-only-sound",
        family=None,
        setup=_WIRE_SETUP,
        code='''
import statsmodels.formula.api as smf

# aim: predict Rm from the process sheet so we can cut the tensile test frequency
train = tens.sample(frac=0.75, random_state=1)
test = tens.drop(train.index)

# only what is known before the coil goes to the tensile machine
mod = smf.ols("Rm_MPa ~ C_pct + reduction_pct + patent_T_C + d_mm", data=train).fit()
pred = mod.predict(test)
rmse = np.sqrt(np.mean((test["Rm_MPa"] - pred) ** 2))
print(f"R2 (train) = {mod.rsquared:.3f}")
print(f"held-out coils: n = {len(test)}, RMSE = {rmse:.1f} MPa")
print(mod.params.round(3))
''',
        twin="h33-target-leakage-wire-tensile-ols-uses-test-results",
        note="Predicts Rm from chemistry and process settings only (known before testing) and "
             "scores it on held-out coils.",
        split="holdout33",
    ),
    Case(
        id="h33-target-leakage-api-oos-rf-with-release-columns",
        family="target_leakage",
        setup=_API_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score

print(f"{len(batches)} batches, OOS rate {batches['fail_spec'].mean():.1%}")

X = pd.get_dummies(batches.drop(columns=["batch_no", "total_imp_pct", "fail_spec"]),
                   columns=["reactor", "sm_supplier"], dtype=float)
y = batches["fail_spec"]

rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=0)
cv = StratifiedKFold(5, shuffle=True, random_state=0)
auc = cross_val_score(rf, X, y, cv=cv, scoring="roc_auc")
print(f"early-warning model for impurity OOS: ROC AUC = {auc.mean():.3f} (sd {auc.std():.3f})")

rf.fit(X, y)
imp = pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False)
imp.head(6).round(3)
''',
        twin="h33-target-leakage-api-oos-rf-process-only-sound",
        note="The OOS early-warning model includes the number of HPLC re-injections and days to "
             "release, which are consequences of an OOS result, so the AUC is spurious.",
        split="holdout33",
    ),
    Case(
        id="h33-target-leakage-api-oos-rf-process-only-sound",
        family=None,
        setup=_API_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score

print(f"{len(batches)} batches, OOS rate {batches['fail_spec'].mean():.1%}")

# process inputs only - re-injections / release delay happen *because* of an OOS
process_cols = ["reactor", "rxn_temp_C", "hold_time_h", "sm_water_pct", "sm_supplier"]
X = pd.get_dummies(batches[process_cols], columns=["reactor", "sm_supplier"], dtype=float)
y = batches["fail_spec"]

rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=0)
cv = StratifiedKFold(5, shuffle=True, random_state=0)
auc = cross_val_score(rf, X, y, cv=cv, scoring="roc_auc")
print(f"early-warning model for impurity OOS: ROC AUC = {auc.mean():.3f} (sd {auc.std():.3f})")

rf.fit(X, y)
imp = pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False)
imp.head(6).round(3)
''',
        twin="h33-target-leakage-api-oos-rf-with-release-columns",
        note="Uses only process inputs available before release testing; post-outcome columns "
             "(re-injections, release delay) are excluded.",
        split="holdout33",
    ),
]
