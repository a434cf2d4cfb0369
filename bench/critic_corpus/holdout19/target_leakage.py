from bench.critic_corpus import Case

_TRAWL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 260
trawl = pd.DataFrame({
    "haul_id": np.arange(1, n + 1),
    "depth_m": rng.uniform(20, 180, n).round(0),
    "bottom_temp_c": rng.normal(7.5, 1.8, n).round(2),
    "month": rng.choice([4, 5, 6, 9, 10], n),
    "tow_min": rng.choice([20, 30, 30, 30, 45], n),
})
dens = np.exp(1.2 + 0.012 * (trawl["depth_m"] - 100) - 0.15 * (trawl["bottom_temp_c"] - 7.5)
              + rng.normal(0, 0.6, n))
trawl["cod_kg"] = (dens * trawl["tow_min"] / 30).round(2)
trawl["cpue_kg_per_h"] = (trawl["cod_kg"] / (trawl["tow_min"] / 60)).round(2)
trawl.loc[rng.choice(n, 5, replace=False), "bottom_temp_c"] = np.nan
'''

_TRAWL_FLAWED = '''
import statsmodels.formula.api as smf

d = trawl.dropna(subset=["bottom_temp_c"]).copy()
print("hauls used:", len(d), "of", len(trawl))
d["log_cpue"] = np.log(d["cpue_kg_per_h"])
d["log_cod_kg"] = np.log(d["cod_kg"])
train = d[d["haul_id"] <= 180]
test = d[d["haul_id"] > 180]

m = smf.ols("log_cpue ~ depth_m + bottom_temp_c + C(month) + log_cod_kg", data=train).fit()
resid = test["log_cpue"] - m.predict(test)
r2_test = 1 - (resid ** 2).sum() / ((test["log_cpue"] - test["log_cpue"].mean()) ** 2).sum()
print(f"train R2 {m.rsquared:.3f} | test R2 {r2_test:.3f}")
m.params.round(3).to_frame("coef")
'''

_TRAWL_SOUND = '''
import statsmodels.formula.api as smf

d = trawl.dropna(subset=["bottom_temp_c"]).copy()
print("hauls used:", len(d), "of", len(trawl))
d["log_cpue"] = np.log(d["cpue_kg_per_h"])
train = d[d["haul_id"] <= 180]
test = d[d["haul_id"] > 180]

m = smf.ols("log_cpue ~ depth_m + bottom_temp_c + C(month)", data=train).fit()
resid = test["log_cpue"] - m.predict(test)
r2_test = 1 - (resid ** 2).sum() / ((test["log_cpue"] - test["log_cpue"].mean()) ** 2).sum()
print(f"train R2 {m.rsquared:.3f} | test R2 {r2_test:.3f}")
m.params.round(3).to_frame("coef")
'''

_TREE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(88)
n = 600
trees = pd.DataFrame({
    "tag": np.arange(1001, 1001 + n),
    "plot": rng.choice([f"P{i}" for i in range(1, 13)], n),
    "species": rng.choice(["ABBA", "PIRU", "ACRU", "BEPA"], n, p=[0.4, 0.25, 0.2, 0.15]),
    "dbh_2018": rng.gamma(4, 5, n).round(1) + 5,
    "crown_ratio": rng.uniform(0.1, 0.8, n).round(2),
    "budworm_defol": rng.integers(0, 4, n),
})
logit = -2.2 + 0.8 * trees["budworm_defol"] - 3 * (trees["crown_ratio"] - 0.4)
trees["dead_2023"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
growth = rng.gamma(2, 0.6, n)
trees["dbh_2023"] = np.where(trees["dead_2023"] == 1, np.nan, trees["dbh_2018"] + growth)
trees["dbh_2023"] = trees["dbh_2023"].round(1)
'''

_TREE_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

df = trees.copy()
df["dbh_incr"] = (df["dbh_2023"] - df["dbh_2018"]).fillna(0)
df = pd.get_dummies(df, columns=["species"], dtype=int)
feats = ["dbh_2018", "crown_ratio", "budworm_defol", "dbh_incr"] + [
    c for c in df.columns if c.startswith("species_")]

Xtr, Xte, ytr, yte = train_test_split(df[feats], df["dead_2023"], test_size=0.25,
                                      stratify=df["dead_2023"], random_state=3)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=2, random_state=3, n_jobs=1)
rf.fit(Xtr, ytr)
print(f"mortality AUC (test): {roc_auc_score(yte, rf.predict_proba(Xte)[:, 1]):.3f}")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3).head(5)
'''

_TREE_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

df = trees.copy()
df = pd.get_dummies(df, columns=["species"], dtype=int)
feats = ["dbh_2018", "crown_ratio", "budworm_defol"] + [
    c for c in df.columns if c.startswith("species_")]

Xtr, Xte, ytr, yte = train_test_split(df[feats], df["dead_2023"], test_size=0.25,
                                      stratify=df["dead_2023"], random_state=3)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=2, random_state=3, n_jobs=1)
rf.fit(Xtr, ytr)
print(f"mortality AUC (test): {roc_auc_score(yte, rf.predict_proba(Xte)[:, 1]):.3f}")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3).head(5)
'''

CASES: list[Case] = [
    Case(
        id="h19-tl-trawl-catch-flawed", family="target_leakage", code=_TRAWL_FLAWED,
        setup=_TRAWL_SETUP, twin="h19-tl-trawl-catch-sound", split="holdout19",
        note="log catch weight is a predictor of log CPUE, which is catch divided by tow time",
    ),
    Case(
        id="h19-tl-trawl-catch-sound", family=None, code=_TRAWL_SOUND,
        setup=_TRAWL_SETUP, twin="h19-tl-trawl-catch-flawed", split="holdout19",
        note="CPUE modelled from depth, temperature and month only, scored on later hauls",
    ),
    Case(
        id="h19-tl-tree-mortality-flawed", family="target_leakage", code=_TREE_FLAWED,
        setup=_TREE_SETUP, twin="h19-tl-tree-mortality-sound", split="holdout19",
        note="dbh increment uses the 2023 remeasurement, missing (filled 0) exactly for dead trees",
    ),
    Case(
        id="h19-tl-tree-mortality-sound", family=None, code=_TREE_SOUND,
        setup=_TREE_SETUP, twin="h19-tl-tree-mortality-flawed", split="holdout19",
        note="mortality predicted from 2018 measurements only",
    ),
]
