from bench.critic_corpus import Case

_GAUGE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3411)
days = pd.date_range("1996-01-01", "2020-12-31", freq="D")
n = len(days)
doy = days.dayofyear.to_numpy()
seas = np.cos(2 * np.pi * (doy - 15) / 365.25)        # wet winters
tcwv = 18 + 6 * seas + rng.normal(0, 5, n)           # kg m-2
ivt = np.abs(rng.normal(150 + 90 * seas, 110, n))    # kg m-1 s-1
mslp = 1013 - 6 * seas + rng.normal(0, 10, n)
rh700 = np.clip(rng.normal(55 + 10 * seas, 18, n), 3, 100)
u850 = rng.normal(4, 6, n)
lin = -4.2 + 0.09 * (tcwv - 18) + 0.008 * (ivt - 150) - 0.05 * (mslp - 1013) + 0.03 * (rh700 - 55)
p_wet = 1 / (1 + np.exp(-lin))
wet = rng.random(n) < np.clip(p_wet * 4, 0, 0.95)
amt = rng.gamma(0.75, 4 + 9 * p_wet / p_wet.mean() * 0.6, n)
precip = np.where(wet, amt, 0.0).round(1)
# reanalysis grid-box values are a blurred view of what the gauge column saw
tcwv_ra = tcwv + rng.normal(0, 5, n)
ivt_ra = np.abs(ivt + rng.normal(0, 130, n))
mslp_ra = mslp + rng.normal(0, 6, n)
rh_ra = np.clip(rh700 + rng.normal(0, 15, n), 3, 100)
wx = pd.DataFrame({"tcwv": tcwv_ra.round(1), "ivt": ivt_ra.round(0), "mslp": mslp_ra.round(1),
                   "rh700": rh_ra.round(0), "u850": u850.round(1), "precip_mm": precip},
                  index=pd.DatetimeIndex(days, name="date"))
wx["heavy"] = (wx.precip_mm >= 20).astype(int)
'''

_GAUGE_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

# antecedent wetness terms for the heavy-rain (>= 20 mm/day) classifier
wx["p3d_mm"] = wx.precip_mm.rolling(3, min_periods=1).sum()
wx["api_mm"] = wx.precip_mm.ewm(alpha=0.15).mean()     # antecedent precipitation index
feats = ["tcwv", "ivt", "mslp", "rh700", "u850", "p3d_mm", "api_mm"]

cal, val = wx.loc[:"2013"], wx.loc["2014":]
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
clf.fit(cal[feats], cal.heavy)
prob = clf.predict_proba(val[feats])[:, 1]
clim = cal.heavy.mean()
bs, bs_ref = brier_score_loss(val.heavy, prob), brier_score_loss(val.heavy, np.full(len(val), clim))
print(f"heavy-rain days: cal {cal.heavy.sum()}, val {val.heavy.sum()}")
print(f"validation 2014-2020: AUC = {roc_auc_score(val.heavy, prob):.3f}, "
      f"BSS = {1 - bs / bs_ref:.3f}")
'''

_GAUGE_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

# antecedent wetness terms for the heavy-rain (>= 20 mm/day) classifier
# (lagged one day: only rain that fell before the forecast day)
prev = wx.precip_mm.shift(1)
wx["p3d_mm"] = prev.rolling(3, min_periods=1).sum()
wx["api_mm"] = prev.ewm(alpha=0.15).mean()            # antecedent precipitation index
feats = ["tcwv", "ivt", "mslp", "rh700", "u850", "p3d_mm", "api_mm"]

cal, val = wx.loc["1996-01-02":"2013"], wx.loc["2014":]
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
clf.fit(cal[feats], cal.heavy)
prob = clf.predict_proba(val[feats])[:, 1]
clim = cal.heavy.mean()
bs, bs_ref = brier_score_loss(val.heavy, prob), brier_score_loss(val.heavy, np.full(len(val), clim))
print(f"heavy-rain days: cal {cal.heavy.sum()}, val {val.heavy.sum()}")
print(f"validation 2014-2020: AUC = {roc_auc_score(val.heavy, prob):.3f}, "
      f"BSS = {1 - bs / bs_ref:.3f}")
'''

_TC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3412)
rows = []
for season in range(2005, 2021):
    for k in range(rng.integers(10, 17)):
        sid = f"AL{k + 1:02d}{season}"
        nfix = rng.integers(8, 30)
        sst = rng.normal(28.2, 0.9)
        for f in range(nfix):
            rows.append({
                "storm_id": sid, "season": season, "fix": f,
                "vmax_kt": float(np.clip(rng.normal(65, 25), 25, 160)),
                "sst_c": round(sst + rng.normal(0, 0.3), 2),
                "shear_kt": round(abs(rng.normal(15, 8)), 1),
                "rh_mid_pct": round(float(np.clip(rng.normal(60, 10), 25, 95)), 0),
                "ohc_kj_cm2": round(abs(rng.normal(55, 30)), 0),
                "dp_prev12_hpa": round(rng.normal(-2, 5), 1),
            })
tc = pd.DataFrame(rows)
lin = (-3.2 - 0.12 * (tc.shear_kt - 15) + 0.7 * (tc.sst_c - 28.2)
       + 0.05 * (tc.rh_mid_pct - 60) + 0.015 * (tc.ohc_kj_cm2 - 55) - 0.08 * tc.dp_prev12_hpa)
tc["dv24_kt"] = (np.where(rng.random(len(tc)) < 1 / (1 + np.exp(-lin)), 35, 5)
                 + rng.normal(0, 9, len(tc))).round(0)
tc["ri"] = (tc.dv24_kt >= 30).astype(int)
# central-pressure change over the next 24 h from the best track
tc["dp24_hpa"] = (-0.9 * tc.dv24_kt + rng.normal(0, 6, len(tc))).round(1)
'''

_TC_FLAWED = '''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = tc[tc.season <= 2016]
test = tc[tc.season > 2016]
print(f"RI cases: {train.ri.sum()} / {len(train)} train fixes, {test.ri.sum()} / {len(test)} test")

ri_mod = smf.logit("ri ~ shear_kt + sst_c + rh_mid_pct + ohc_kj_cm2 + dp24_hpa", data=train).fit(
    disp=0)
print(ri_mod.params.round(3).to_string())
auc = roc_auc_score(test.ri, ri_mod.predict(test))
print(f"RI guidance, independent 2017-2020 seasons: AUC = {auc:.3f}")
'''

_TC_SOUND = '''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = tc[tc.season <= 2016]
test = tc[tc.season > 2016]
print(f"RI cases: {train.ri.sum()} / {len(train)} train fixes, {test.ri.sum()} / {len(test)} test")

# predictors available at analysis time only (past 12 h pressure tendency, not the next 24 h)
ri_mod = smf.logit("ri ~ shear_kt + sst_c + rh_mid_pct + ohc_kj_cm2 + dp_prev12_hpa",
                   data=train).fit(disp=0)
print(ri_mod.params.round(3).to_string())
auc = roc_auc_score(test.ri, ri_mod.predict(test))
print(f"RI guidance, independent 2017-2020 seasons: AUC = {auc:.3f}")
'''

CASES: list[Case] = [
    Case(
        id="h34-tleak-heavyrain-3day-sum-includes-today",
        family="target_leakage",
        setup=_GAUGE_SETUP,
        code=_GAUGE_FLAWED,
        twin="h34-tleak-heavyrain-3day-sum-lagged",
        note="the 3-day rain sum and API include the target day's own gauge total, so the "
             "heavy-rain label is fed back in as a predictor",
        split="holdout34",
    ),
    Case(
        id="h34-tleak-heavyrain-3day-sum-lagged",
        family=None,
        setup=_GAUGE_SETUP,
        code=_GAUGE_SOUND,
        twin="h34-tleak-heavyrain-3day-sum-includes-today",
        note="antecedent rain terms are shifted by one day, so only prior rainfall is used; "
             "chronological validation",
        split="holdout34",
    ),
    Case(
        id="h34-tleak-tc-ri-future-pressure-fall",
        family="target_leakage",
        setup=_TC_SETUP,
        code=_TC_FLAWED,
        twin="h34-tleak-tc-ri-past-pressure-tendency",
        note="dp24_hpa is the best-track pressure change over the same 24 h that defines rapid "
             "intensification, only known after the outcome",
        split="holdout34",
    ),
    Case(
        id="h34-tleak-tc-ri-past-pressure-tendency",
        family=None,
        setup=_TC_SETUP,
        code=_TC_SOUND,
        twin="h34-tleak-tc-ri-future-pressure-fall",
        note="uses the previous-12-h pressure tendency known at forecast time; tested on later "
             "seasons",
        split="holdout34",
    ),
]
