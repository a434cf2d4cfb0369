from bench.critic_corpus import Case

_TR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(900)
rows = []
for status in ["restored", "reference"]:
    for t in range(1, 6):
        tr_eff = rng.normal(0, 9)
        for q in range(1, 31):
            rows.append({
                "transect": f"{status[:3].upper()}-T{t}", "status": status, "quadrat": q,
                "dist_m": q * 5,
                "native_cover_pct": np.clip(52 + tr_eff + rng.normal(0, 7), 0, 100).round(0),
            })
veg = pd.DataFrame(rows)
'''

_TR_FLAWED = '''
from scipy import stats

print(veg.groupby("status")["native_cover_pct"].agg(["count", "mean", "std"]).round(2))
res = stats.ttest_ind(veg.loc[veg["status"] == "restored", "native_cover_pct"],
                      veg.loc[veg["status"] == "reference", "native_cover_pct"])
print(f"t = {res.statistic:.2f}, df = {len(veg) - 2}, p = {res.pvalue:.4f}")
print("restored transects differ from reference" if res.pvalue < 0.05
      else "no difference in native cover")
'''

_TR_SOUND = '''
from scipy import stats

tmeans = veg.groupby(["status", "transect"], as_index=False)["native_cover_pct"].mean()
print(tmeans.groupby("status")["native_cover_pct"].agg(["count", "mean", "std"]).round(2))
res = stats.ttest_ind(tmeans.loc[tmeans["status"] == "restored", "native_cover_pct"],
                      tmeans.loc[tmeans["status"] == "reference", "native_cover_pct"])
print(f"t on transect means = {res.statistic:.2f}, df = {len(tmeans) - 2}, "
      f"p = {res.pvalue:.4f}")
print("restored transects differ from reference" if res.pvalue < 0.05
      else "no difference in native cover")
'''

_SONDE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
stamps = pd.date_range("2023-07-01", periods=96 * 7, freq="15min")
frames = []
for pos in ["upstream", "downstream"]:
    for k in range(1, 5):
        sonde_off = rng.normal(0, 0.7)
        diel = 1.1 * np.sin(2 * np.pi * (stamps.hour + stamps.minute / 60 - 9) / 24)
        ar = np.zeros(len(stamps))
        for i in range(1, len(stamps)):
            ar[i] = 0.95 * ar[i - 1] + rng.normal(0, 0.12)
        frames.append(pd.DataFrame({
            "timestamp": stamps, "sonde": f"{pos[:2].upper()}{k}", "position": pos,
            "do_mgl": (8.2 + sonde_off + diel + ar - (0.3 if pos == "downstream" else 0)).round(2),
            "wtemp_c": (19 + 2 * np.sin(2 * np.pi * (stamps.hour - 14) / 24)).round(2),
        }))
exo = pd.concat(frames, ignore_index=True)
'''

_SONDE_FLAWED = '''
import statsmodels.formula.api as smf

exo["position"] = pd.Categorical(exo["position"], ["upstream", "downstream"])
fit = smf.ols("do_mgl ~ position + wtemp_c", data=exo).fit()
tab = pd.DataFrame({"coef": fit.params, "se": fit.bse, "p": fit.pvalues}).round(4)
print(f"n = {int(fit.nobs)} readings; outfall effect on DO = "
      f"{fit.params['position[T.downstream]']:.2f} mg/L "
      f"(p = {fit.pvalues['position[T.downstream]']:.2g})")
tab
'''

_SONDE_SOUND = '''
import statsmodels.formula.api as smf

per_sonde = exo.groupby(["sonde", "position"], as_index=False, observed=True)["do_mgl"].mean()
per_sonde["position"] = pd.Categorical(per_sonde["position"], ["upstream", "downstream"])
fit = smf.ols("do_mgl ~ position", data=per_sonde).fit()
tab = pd.DataFrame({"coef": fit.params, "se": fit.bse, "p": fit.pvalues}).round(4)
print(f"n = {int(fit.nobs)} sondes (weekly means); outfall effect on DO = "
      f"{fit.params['position[T.downstream]']:.2f} mg/L "
      f"(p = {fit.pvalues['position[T.downstream]']:.2g})")
tab
'''

CASES: list[Case] = [
    Case(
        id="h19-pr-veg-transect-flawed", family="pseudoreplication", code=_TR_FLAWED,
        setup=_TR_SETUP, twin="h19-pr-veg-transect-sound", split="holdout19",
        note="300 quadrats from 10 transects t-tested as independent; transect is the unit",
    ),
    Case(
        id="h19-pr-veg-transect-sound", family=None, code=_TR_SOUND,
        setup=_TR_SETUP, twin="h19-pr-veg-transect-flawed", split="holdout19",
        note="quadrats averaged to transect means, then 5 vs 5 t-test",
    ),
    Case(
        id="h19-pr-sonde-do-flawed", family="pseudoreplication", code=_SONDE_FLAWED,
        setup=_SONDE_SETUP, twin="h19-pr-sonde-do-sound", split="holdout19",
        note="5376 autocorrelated 15-min readings from 8 sondes used as independent OLS rows",
    ),
    Case(
        id="h19-pr-sonde-do-sound", family=None, code=_SONDE_SOUND,
        setup=_SONDE_SETUP, twin="h19-pr-sonde-do-flawed", split="holdout19",
        note="one weekly mean per sonde, 4 vs 4 comparison at the sonde level",
    ),
]
