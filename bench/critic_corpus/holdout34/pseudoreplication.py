from bench.critic_corpus import Case

_UHI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3451)
days = pd.date_range("2022-06-01", "2022-08-31", freq="D")
synoptic = rng.normal(0, 2.2, len(days))               # shared day-to-day weather
sites = {f"URB{i:02d}": "urban" for i in range(1, 7)}
sites |= {f"RUR{i:02d}": "rural" for i in range(1, 7)}
rows = []
for sid, kind in sites.items():
    site_off = rng.normal(0.5 if kind == "urban" else 0.0, 0.9)   # siting, elevation, etc.
    tmin = 14.5 + site_off + synoptic + rng.normal(0, 0.8, len(days))
    rows.append(pd.DataFrame({"date": days, "site": sid, "setting": kind,
                              "tmin_c": tmin.round(1)}))
tn = pd.concat(rows, ignore_index=True)
tn.loc[rng.choice(len(tn), 30, replace=False), "tmin_c"] = np.nan     # logger gaps
'''

_UHI_FLAWED = '''
from scipy import stats

urb = tn.loc[tn.setting == "urban", "tmin_c"].dropna()
rur = tn.loc[tn.setting == "rural", "tmin_c"].dropna()
t, p = stats.ttest_ind(urb, rur)
print(f"JJA 2022 Tmin  urban {urb.mean():.2f} degC (n={len(urb)})  "
      f"rural {rur.mean():.2f} degC (n={len(rur)})")
print(f"UHI intensity {urb.mean() - rur.mean():+.2f} K,  t = {t:.2f},  p = {p:.2e}")
'''

_UHI_SOUND = '''
from scipy import stats

# one summer-mean Tmin per site: the sites are the replicates, not the site-days
site_mean = (tn.groupby(["site", "setting"]).tmin_c
             .agg(tmin_c="mean", n_days="count").reset_index())
urb = site_mean.loc[site_mean.setting == "urban", "tmin_c"]
rur = site_mean.loc[site_mean.setting == "rural", "tmin_c"]
t, p = stats.ttest_ind(urb, rur, equal_var=False)
print(site_mean.round(2).to_string(index=False))
print(f"\\nUHI intensity {urb.mean() - rur.mean():+.2f} K across {len(urb)} urban vs "
      f"{len(rur)} rural sites,  Welch t = {t:.2f},  p = {p:.3f}")
'''

_SNOW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3452)
rows = []
for tr in range(1, 11):
    burned = int(tr > 5)
    tr_eff = rng.normal(0, 55)                    # aspect, wind exposure, canopy remnants
    for pt in range(1, 16):
        swe = 310 - 25 * burned + tr_eff + rng.normal(0, 30)
        rows.append({"transect": f"T{tr:02d}", "burned": burned, "point": pt,
                     "depth_cm": round(swe / 3.1, 1), "swe_mm": round(swe, 0)})
snow = pd.DataFrame(rows)   # 1 April 2023 snow survey, 15 probe points per transect
'''

_SNOW_FLAWED = '''
import statsmodels.formula.api as smf

m = smf.ols("swe_mm ~ burned", data=snow).fit()
print(m.summary().tables[1])
print(f"\\nburn-scar effect on 1 April SWE: {m.params['burned']:+.0f} mm "
      f"(p = {m.pvalues['burned']:.4f}, n = {int(m.nobs)} probe points)")
'''

_SNOW_SOUND = '''
import statsmodels.formula.api as smf

# probe points on one transect share aspect, exposure and canopy -> transect is the unit
tmean = snow.groupby(["transect", "burned"], as_index=False).swe_mm.mean()
m = smf.ols("swe_mm ~ burned", data=tmean).fit()
print(m.summary().tables[1])
print(f"\\nburn-scar effect on 1 April SWE: {m.params['burned']:+.0f} mm "
      f"(p = {m.pvalues['burned']:.4f}, n = {int(m.nobs)} transects)")
'''

CASES: list[Case] = [
    Case(
        id="h34-pseudo-uhi-site-days-as-replicates",
        family="pseudoreplication",
        setup=_UHI_SETUP,
        code=_UHI_FLAWED,
        twin="h34-pseudo-uhi-site-means",
        note="about 550 site-days per group from only 6 urban and 6 rural stations go into an "
             "independent t-test; site offsets and shared weather make the n and p bogus",
        split="holdout34",
    ),
    Case(
        id="h34-pseudo-uhi-site-means",
        family=None,
        setup=_UHI_SETUP,
        code=_UHI_SOUND,
        twin="h34-pseudo-uhi-site-days-as-replicates",
        note="summer means per station, then Welch t-test on 6 vs 6 stations",
        split="holdout34",
    ),
    Case(
        id="h34-pseudo-snow-probe-points-ols",
        family="pseudoreplication",
        setup=_SNOW_SETUP,
        code=_SNOW_FLAWED,
        twin="h34-pseudo-snow-transect-means",
        note="150 probe points on 10 transects (5 burned, 5 unburned) fitted as independent "
             "observations; burn status varies only between transects",
        split="holdout34",
    ),
    Case(
        id="h34-pseudo-snow-transect-means",
        family=None,
        setup=_SNOW_SETUP,
        code=_SNOW_SOUND,
        twin="h34-pseudo-snow-probe-points-ols",
        note="transect means (the unit that was burned or not) go into the regression, n = 10",
        split="holdout34",
    ),
]
