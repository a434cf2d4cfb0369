from bench.critic_corpus import Case

_BIRD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1907)
n_pts = 140
pts = pd.DataFrame({
    "point_id": [f"PC{i:03d}" for i in range(n_pts)],
    "canopy_pct": rng.uniform(5, 95, n_pts).round(1),
    "shrub_pct": rng.uniform(0, 60, n_pts).round(1),
})
# remote-sensing stack: 180 band/texture covariates per point, mostly uninformative
rs = pd.DataFrame(
    rng.normal(size=(n_pts, 180)),
    columns=[f"rs_b{b:03d}" for b in range(180)],
)
covs = pd.concat([pts, rs], axis=1)
lin = -0.5 + 0.025 * (covs["canopy_pct"] - 50) + rng.normal(0, 1.2, n_pts)
covs["wood_thrush"] = (lin > 0).astype(int)
'''

_BIRD_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

X = covs.drop(columns=["point_id", "wood_thrush"])
y = covs["wood_thrush"]

sel = SelectKBest(f_classif, k=15).fit(X, y)
keep = X.columns[sel.get_support()]
X_sel = X[keep]

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(LogisticRegression(max_iter=2000), X_sel, y, cv=cv, scoring="roc_auc")
print("covariates kept:", len(keep))
pd.DataFrame({"fold": range(1, 6), "auc": auc.round(3)}).assign(mean_auc=auc.mean().round(3))
'''

_BIRD_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

X = covs.drop(columns=["point_id", "wood_thrush"])
y = covs["wood_thrush"]

sdm = make_pipeline(SelectKBest(f_classif, k=15), LogisticRegression(max_iter=2000))

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(sdm, X, y, cv=cv, scoring="roc_auc")
print("covariates kept per fold:", 15)
pd.DataFrame({"fold": range(1, 6), "auc": auc.round(3)}).assign(mean_auc=auc.mean().round(3))
'''

_INV_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(733)
sites = [f"ST{i:02d}" for i in range(70)]
site_eff = dict(zip(sites, rng.normal(0, 4, len(sites))))
rows = []
for s in sites:
    for k in range(rng.integers(2, 5)):
        rows.append((s, k + 1))
kick = pd.DataFrame(rows, columns=["site", "visit"])
n = len(kick)
kick["temp_c"] = rng.normal(13, 3, n).round(1)
kick["cond_uscm"] = rng.lognormal(5.5, 0.5, n).round(0)
kick["fine_sed_pct"] = rng.uniform(0, 70, n).round(0)
kick["ept_rich"] = (
    14 + kick["site"].map(site_eff) - 0.06 * kick["fine_sed_pct"]
    + rng.normal(0, 2.5, n)
).clip(0).round(0)
'''

_INV_FLAWED = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split

kick["site_mean_ept"] = kick.groupby("site")["ept_rich"].transform("mean")
feats = ["temp_c", "cond_uscm", "fine_sed_pct", "site_mean_ept"]

tr, te = train_test_split(kick, test_size=0.3, random_state=4)
rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=3, random_state=4, n_jobs=1)
rf.fit(tr[feats], tr["ept_rich"])
pred = rf.predict(te[feats])
print(f"held-out R2 = {r2_score(te['ept_rich'], pred):.3f}  (n test = {len(te)})")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3)
'''

_INV_SOUND = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split

tr, te = train_test_split(kick, test_size=0.3, random_state=4)
tr = tr.copy()
te = te.copy()
site_means = tr.groupby("site")["ept_rich"].mean()
tr["site_mean_ept"] = tr["site"].map(site_means)
te["site_mean_ept"] = te["site"].map(site_means).fillna(tr["ept_rich"].mean())
feats = ["temp_c", "cond_uscm", "fine_sed_pct", "site_mean_ept"]

rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=3, random_state=4, n_jobs=1)
rf.fit(tr[feats], tr["ept_rich"])
pred = rf.predict(te[feats])
print(f"held-out R2 = {r2_score(te['ept_rich'], pred):.3f}  (n test = {len(te)})")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h19-leak-selectk-birds-flawed", family="leakage", code=_BIRD_FLAWED,
        setup=_BIRD_SETUP, twin="h19-leak-selectk-birds-sound", split="holdout19",
        note="SelectKBest picks 15 of 182 covariates using all points before the CV folds",
    ),
    Case(
        id="h19-leak-selectk-birds-sound", family=None, code=_BIRD_SOUND,
        setup=_BIRD_SETUP, twin="h19-leak-selectk-birds-flawed", split="holdout19",
        note="feature selection is inside the pipeline, refit within every CV fold",
    ),
    Case(
        id="h19-leak-siteenc-invert-flawed", family="leakage", code=_INV_FLAWED,
        setup=_INV_SETUP, twin="h19-leak-siteenc-invert-sound", split="holdout19",
        note="site target encoding computed on all visits (incl. test rows) before the split",
    ),
    Case(
        id="h19-leak-siteenc-invert-sound", family=None, code=_INV_SOUND,
        setup=_INV_SETUP, twin="h19-leak-siteenc-invert-flawed", split="holdout19",
        note="site means come from training rows only; unseen sites get the training mean",
    ),
]
