from bench.critic_corpus import Case

_FOG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3401)
dates = pd.date_range("2009-01-01", "2020-12-31", freq="D")
n = len(dates)
doy = dates.dayofyear.to_numpy()
t2m = 9 + 7 * np.sin(2 * np.pi * (doy - 110) / 365.25) + rng.normal(0, 3.2, n)
dpd = np.abs(rng.gamma(1.6, 1.8, n))            # dew-point depression, K
wspd = np.abs(rng.normal(3.5, 2.0, n))
cloud = rng.integers(0, 9, n)
mslp = rng.normal(1015, 9, n)
lin = 1.2 - 1.6 * dpd - 0.55 * wspd - 0.18 * cloud + 0.05 * (mslp - 1015)
p_fog = 1 / (1 + np.exp(-lin))
fog = (rng.random(n) < p_fog).astype(int)
vis = np.where(fog == 1, rng.uniform(80, 990, n), rng.uniform(1000, 30000, n)).round(-1)
obs = pd.DataFrame({
    "date": dates, "t2m_c": t2m.round(1), "dpd_c": dpd.round(1), "wspd_ms": wspd.round(1),
    "cloud_okta": cloud, "mslp_hpa": mslp.round(1), "vis_m": vis, "fog": fog,
})
obs["rh_pct"] = (100 * np.exp(-0.065 * obs.dpd_c)).round(0)
'''

_FOG_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import classification_report
from sklearn.model_selection import train_test_split

# 06 UTC fog (vis < 1 km) at the airport -- only a few % of mornings, so upsample fog days
print(f"fog frequency: {obs.fog.mean():.3f}  ({obs.fog.sum()} of {len(obs)} mornings)")
fog_days = obs[obs.fog == 1]
obs_bal = pd.concat([obs, fog_days.sample(len(fog_days) * 6, replace=True, random_state=7)])

preds = ["t2m_c", "dpd_c", "rh_pct", "wspd_ms", "cloud_okta", "mslp_hpa"]
X_tr, X_te, y_tr, y_te = train_test_split(
    obs_bal[preds], obs_bal.fog, test_size=0.3, stratify=obs_bal.fog, random_state=0
)
rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=1, random_state=0, n_jobs=1)
rf.fit(X_tr, y_tr)
print(classification_report(y_te, rf.predict(X_te), digits=3, target_names=["no fog", "fog"]))
'''

_FOG_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import classification_report
from sklearn.model_selection import train_test_split

# 06 UTC fog (vis < 1 km) at the airport -- only a few % of mornings, so upsample fog days
# (training part only: the test mornings stay as they are)
print(f"fog frequency: {obs.fog.mean():.3f}  ({obs.fog.sum()} of {len(obs)} mornings)")
preds = ["t2m_c", "dpd_c", "rh_pct", "wspd_ms", "cloud_okta", "mslp_hpa"]
train, test = train_test_split(obs, test_size=0.3, stratify=obs.fog, random_state=0)
fog_tr = train[train.fog == 1]
train_bal = pd.concat([train, fog_tr.sample(len(fog_tr) * 6, replace=True, random_state=7)])

rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=1, random_state=0, n_jobs=1)
rf.fit(train_bal[preds], train_bal.fog)
print(classification_report(test.fog, rf.predict(test[preds]), digits=3,
                            target_names=["no fog", "fog"]))
'''

_MONSOON_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3402)
years = np.arange(1951, 2021)
lats = np.arange(-20, 22.5, 5.0)
lons = np.arange(40, 290, 10.0)
cells = [f"sst_{la:+05.1f}_{lo:05.1f}" for la in lats for lo in lons]
sst = pd.DataFrame(rng.normal(0, 0.45, (len(years), len(cells))), index=years, columns=cells)
# a weak Nino-like block in the central/east Pacific
nino = rng.normal(0, 1, len(years))
pac = [c for c in cells if abs(float(c.split("_")[1])) <= 5 and 190 <= float(c.split("_")[2])]
sst[pac] += 0.3 * nino[:, None]
ismr = pd.Series(-2.5 * nino + rng.normal(0, 8.5, len(years)), index=years,
                 name="jjas_rain_anom_pct")
sst.index.name = "year"
'''

_MONSOON_FLAWED = '''
def box_corr(X, y):
    """Pearson r of every grid-box column of X with y."""
    Xa, ya = X - X.mean(axis=0), y - y.mean()
    return pd.Series(Xa.T @ ya / np.sqrt((Xa**2).sum(axis=0) * (ya**2).sum()), index=X.columns)

# predictor boxes: the 10 MAM SST boxes best correlated with JJAS rainfall anomaly
r_box = box_corr(sst, ismr)
keep = r_box.abs().sort_values(ascending=False).index[:10]
print(r_box[keep].round(2).to_string())

# sign-weighted SST index -> leave-one-year-out regression hindcast
idx = (sst[keep] * np.sign(r_box[keep])).mean(axis=1)
hind = pd.Series(index=ismr.index, dtype=float)
for yr in ismr.index:
    tr = ismr.index != yr
    b1, b0 = np.polyfit(idx[tr], ismr[tr], 1)
    hind[yr] = b0 + b1 * idx[yr]

r = np.corrcoef(hind, ismr)[0, 1]
msss = 1 - np.mean((hind - ismr) ** 2) / np.mean((ismr - ismr.mean()) ** 2)
print(f"LOO hindcast skill 1951-2020: r = {r:.2f}, MSSS = {msss:.2f}")
'''

_MONSOON_SOUND = '''
def box_corr(X, y):
    """Pearson r of every grid-box column of X with y."""
    Xa, ya = X - X.mean(axis=0), y - y.mean()
    return pd.Series(Xa.T @ ya / np.sqrt((Xa**2).sum(axis=0) * (ya**2).sum()), index=X.columns)

# predictor boxes: the 10 MAM SST boxes best correlated with JJAS rainfall anomaly,
# re-chosen inside every leave-one-year-out step so the hindcast year never picks its boxes
hind = pd.Series(index=ismr.index, dtype=float)
for yr in ismr.index:
    tr = ismr.index != yr
    r_tr = box_corr(sst[tr], ismr[tr])
    keep = r_tr.abs().sort_values(ascending=False).index[:10]
    idx = (sst[keep] * np.sign(r_tr[keep])).mean(axis=1)
    b1, b0 = np.polyfit(idx[tr], ismr[tr], 1)
    hind[yr] = b0 + b1 * idx[yr]

r = np.corrcoef(hind, ismr)[0, 1]
msss = 1 - np.mean((hind - ismr) ** 2) / np.mean((ismr - ismr.mean()) ** 2)
print(f"LOO hindcast skill 1951-2020: r = {r:.2f}, MSSS = {msss:.2f}")
'''

CASES: list[Case] = [
    Case(
        id="h34-leak-fog-upsample-before-split",
        family="leakage",
        setup=_FOG_SETUP,
        code=_FOG_FLAWED,
        twin="h34-leak-fog-upsample-train-only",
        note="fog mornings are duplicated by resampling before train_test_split, so copies of "
             "the same mornings sit in train and test and the fog recall is inflated",
        split="holdout34",
    ),
    Case(
        id="h34-leak-fog-upsample-train-only",
        family=None,
        setup=_FOG_SETUP,
        code=_FOG_SOUND,
        twin="h34-leak-fog-upsample-before-split",
        note="split first, upsample only the training fog mornings, score on untouched test",
        split="holdout34",
    ),
    Case(
        id="h34-leak-monsoon-sst-box-selection",
        family="leakage",
        setup=_MONSOON_SETUP,
        code=_MONSOON_FLAWED,
        twin="h34-leak-monsoon-sst-box-selection-in-cv",
        note="the 10 SST boxes are picked by correlation over all 70 years before the "
             "leave-one-out hindcast, so each held-out year helped choose its own predictors",
        split="holdout34",
    ),
    Case(
        id="h34-leak-monsoon-sst-box-selection-in-cv",
        family=None,
        setup=_MONSOON_SETUP,
        code=_MONSOON_SOUND,
        twin="h34-leak-monsoon-sst-box-selection",
        note="box selection and index weights are redone inside every leave-one-year-out step",
        split="holdout34",
    ),
]
