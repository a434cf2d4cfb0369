from bench.critic_corpus import Case

_WARRANTY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(808)
n = 2400
df_w = pd.DataFrame({
    "serial": [f"SN{700000 + i}" for i in range(n)],
    "build_wk": rng.integers(1, 53, n),
    "plant": rng.choice(["GDL", "MTY", "SZX"], n, p=[0.4, 0.35, 0.25]),
    "solder_void_pct": rng.gamma(3, 2.0, n).round(1),
    "burn_in_min": rng.choice([0, 30, 60], n, p=[0.3, 0.5, 0.2]),
    "eol_leak_sccm": rng.lognormal(-1.0, 0.5, n).round(3),
    "fw_rev": rng.choice(["4.1", "4.2", "4.3"], n),
})
lin = (-2.6 + 0.12 * df_w.solder_void_pct - 0.015 * df_w.burn_in_min
       + 0.6 * (df_w.plant == "SZX"))
df_w["returned_12m"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# field exposure pulled from the warranty system: days until RMA, capped at 365
df_w["days_in_field"] = np.where(df_w.returned_12m == 1, rng.integers(5, 365, n), 365)
'''

_WARRANTY_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

feats = ["solder_void_pct", "burn_in_min", "eol_leak_sccm", "days_in_field", "build_wk",
         "plant", "fw_rev"]
X = pd.get_dummies(df_w[feats], columns=["plant", "fw_rev"], drop_first=True)
y = df_w.returned_12m
print(f"units: {len(df_w)}, 12-month return rate: {y.mean():.1%}")

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=7)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=7)
rf.fit(X_tr, y_tr)
p_te = rf.predict_proba(X_te)[:, 1]
print(f"hold-out AUC for 12-month return: {roc_auc_score(y_te, p_te):.3f}")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
'''

_WARRANTY_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

# only what is known when the unit ships (days_in_field comes from the RMA record)
feats = ["solder_void_pct", "burn_in_min", "eol_leak_sccm", "build_wk", "plant", "fw_rev"]
X = pd.get_dummies(df_w[feats], columns=["plant", "fw_rev"], drop_first=True)
y = df_w.returned_12m
print(f"units: {len(df_w)}, 12-month return rate: {y.mean():.1%}")

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=7)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=7)
rf.fit(X_tr, y_tr)
p_te = rf.predict_proba(X_te)[:, 1]
print(f"hold-out AUC for 12-month return: {roc_auc_score(y_te, p_te):.3f}")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
'''

_LOT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 220
df_lot = pd.DataFrame({
    "lot_id": [f"L{23000 + i}" for i in range(n)],
    "tool": rng.choice(["ETCH-01", "ETCH-02", "ETCH-03"], n),
    "etch_time_s": rng.normal(62, 2.5, n).round(1),
    "chuck_temp_c": rng.normal(45, 1.2, n).round(2),
    "rf_power_w": rng.normal(1500, 40, n).round(0),
})
dies_in = 25 * 612
p_sort = (0.06 + 0.004 * (df_lot.etch_time_s - 62) ** 2
          + 0.02 * (df_lot.tool == "ETCH-03") + rng.normal(0, 0.02, n)).clip(0.01, 0.5)
p_ft = rng.beta(2, 60, n) + 0.006 * (df_lot.chuck_temp_c - 45).clip(0)
sort_rej = rng.binomial(dies_in, p_sort)
df_lot["ft_reject_dies"] = rng.binomial(dies_in - sort_rej, p_ft)   # final test rejects
df_lot["yield_pct"] = (100 * (dies_in - sort_rej - df_lot.ft_reject_dies) / dies_in).round(2)
'''

_LOT_FLAWED = '''
import statsmodels.formula.api as smf

d = df_lot.copy()
d["etch_dev_s"] = d.etch_time_s - 62
m = smf.ols("yield_pct ~ C(tool) + etch_dev_s + I(etch_dev_s**2) + chuck_temp_c + rf_power_w"
            " + ft_reject_dies", data=d).fit()
print(f"lots: {int(m.nobs)}   R2 = {m.rsquared:.3f}   adj R2 = {m.rsquared_adj:.3f}")
print(f"yield model RMSE: {np.sqrt(m.mse_resid):.2f} %-pts")
m.summary2().tables[1][["Coef.", "Std.Err.", "P>|t|"]].round(4)
'''

_LOT_SOUND = '''
import statsmodels.formula.api as smf

d = df_lot.copy()
d["etch_dev_s"] = d.etch_time_s - 62
# in-process settings only; final-test rejects are part of the yield itself
m = smf.ols("yield_pct ~ C(tool) + etch_dev_s + I(etch_dev_s**2) + chuck_temp_c + rf_power_w",
            data=d).fit()
print(f"lots: {int(m.nobs)}   R2 = {m.rsquared:.3f}   adj R2 = {m.rsquared_adj:.3f}")
print(f"yield model RMSE: {np.sqrt(m.mse_resid):.2f} %-pts")
m.summary2().tables[1][["Coef.", "Std.Err.", "P>|t|"]].round(4)
'''

CASES: list[Case] = [
    Case(
        id="h22-target-leakage-warranty-days-in-field",
        family="target_leakage",
        code=_WARRANTY_FLAWED,
        setup=_WARRANTY_SETUP,
        twin="h22-target-leakage-warranty-days-in-field-sound",
        note="days_in_field is the days until RMA (365 for every non-returned unit), so it "
             "encodes the return outcome and drives the near-perfect AUC",
        split="holdout22",
    ),
    Case(
        id="h22-target-leakage-warranty-days-in-field-sound",
        family=None,
        code=_WARRANTY_SOUND,
        setup=_WARRANTY_SETUP,
        twin="h22-target-leakage-warranty-days-in-field",
        note="uses only build-time features known when the unit ships; honest hold-out AUC",
        split="holdout22",
    ),
    Case(
        id="h22-target-leakage-lot-yield-ft-rejects",
        family="target_leakage",
        code=_LOT_FLAWED,
        setup=_LOT_SETUP,
        twin="h22-target-leakage-lot-yield-ft-rejects-sound",
        note="ft_reject_dies (final-test rejects) is a component of the yield being modelled "
             "and only known after the outcome, yet it is a regressor",
        split="holdout22",
    ),
    Case(
        id="h22-target-leakage-lot-yield-ft-rejects-sound",
        family=None,
        code=_LOT_SOUND,
        setup=_LOT_SETUP,
        twin="h22-target-leakage-lot-yield-ft-rejects",
        note="yield regressed on in-process etch settings and tool only",
        split="holdout22",
    ),
]
