from bench.critic_corpus import Case

_COAT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4949)
# 49-site ellipsometer map, r in mm on a 300 mm wafer
ang = np.linspace(0, 2 * np.pi, 49, endpoint=False)
rad = np.r_[0, np.repeat([50, 100, 140], 16)][:49]
xs, ys = (rad * np.cos(ang)).round(1), (rad * np.sin(ang)).round(1)
rows = []
for proc, shift in (("POR", 0.0), ("NEW_PRECURSOR", 4.0)):
    for w in range(5):
        wafer = f"{proc[:3]}-W{w + 1:02d}"
        wafer_off = rng.normal(0, 11)                 # wafer-to-wafer (chamber run) spread
        thk = 1250 + shift + wafer_off - 0.0008 * rad**2 + rng.normal(0, 3.5, 49)
        rows += [(proc, wafer, s + 1, xs[s], ys[s], thk[s]) for s in range(49)]
df_thk = pd.DataFrame(rows, columns=["process", "wafer_id", "site", "x_mm", "y_mm", "thk_a"])
df_thk["thk_a"] = df_thk.thk_a.round(1)
'''

_COAT_FLAWED = '''
from scipy.stats import ttest_ind

a = df_thk.loc[df_thk.process == "POR", "thk_a"].to_numpy()
b = df_thk.loc[df_thk.process == "NEW_PRECURSOR", "thk_a"].to_numpy()
t, p = ttest_ind(b, a)
print(f"POR           n={a.size:4d}  mean={a.mean():7.1f} A  sd={a.std(ddof=1):5.1f} A")
print(f"NEW_PRECURSOR n={b.size:4d}  mean={b.mean():7.1f} A  sd={b.std(ddof=1):5.1f} A")
print(f"delta = {b.mean() - a.mean():+.1f} A, t = {t:.2f}, p = {p:.2e}")
print("new precursor deposits significantly thicker film -> retune dep time")
'''

_COAT_SOUND = '''
from scipy.stats import ttest_ind

# 49 sites on one wafer are not independent: the wafer is the experimental unit
wm = df_thk.groupby(["process", "wafer_id"]).thk_a.mean()
a = wm.loc["POR"].to_numpy()
b = wm.loc["NEW_PRECURSOR"].to_numpy()
t, p = ttest_ind(b, a)
print(f"POR           wafers={a.size}  mean={a.mean():7.1f} A  sd(wafer)={a.std(ddof=1):5.1f} A")
print(f"NEW_PRECURSOR wafers={b.size}  mean={b.mean():7.1f} A  sd(wafer)={b.std(ddof=1):5.1f} A")
print(f"delta = {b.mean() - a.mean():+.1f} A, t = {t:.2f}, p = {p:.3f}")
print("no clear thickness shift at 5 wafers/arm -> keep dep time, add wafers if needed")
'''

_VFD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2026)
idx = pd.date_range("2024-09-02", periods=24 * 14, freq="h")
frames = []
for i in range(12):
    comp = f"AC-{i + 1:02d}"
    vfd = i % 2 == 0                                  # 6 compressors retrofitted with VFD
    base = rng.normal(52, 3)                          # each compressor has its own level
    hod = idx.hour.to_numpy()
    load = np.where((hod >= 6) & (hod < 22), 1.0, 0.55)
    kw = base * load * (0.94 if vfd else 1.0) + rng.normal(0, 3, len(idx))
    frames.append(pd.DataFrame({"compressor": comp, "vfd": int(vfd), "kw": kw.round(2)},
                               index=idx))
df_air = pd.concat(frames)
df_air.index.name = "ts"
'''

_VFD_FLAWED = '''
import statsmodels.formula.api as smf

daily = (df_air.groupby(["compressor", "vfd"]).kw.resample("D").mean() * 24).rename("kwh_day")
daily = daily.reset_index()
daily["dow"] = daily.ts.dt.dayofweek
m = smf.ols("kwh_day ~ vfd + C(dow)", data=daily).fit()
ci = m.conf_int().loc["vfd"]
print(f"compressor-days: {int(m.nobs)}")
print(f"VFD effect: {m.params['vfd']:+.1f} kWh/day  (95% CI {ci[0]:+.1f} .. {ci[1]:+.1f}), "
      f"p = {m.pvalues['vfd']:.4f}")
print(f"-> VFD retrofit saves {-m.params['vfd'] * 365 / 1000:.1f} MWh per compressor-year")
'''

_VFD_SOUND = '''
import statsmodels.formula.api as smf

daily = (df_air.groupby(["compressor", "vfd"]).kw.resample("D").mean() * 24).rename("kwh_day")
daily = daily.reset_index()
# the compressor is the unit that got (or did not get) the VFD -> one row per compressor
per_comp = daily.groupby(["compressor", "vfd"], as_index=False).kwh_day.mean()
m = smf.ols("kwh_day ~ vfd", data=per_comp).fit()
ci = m.conf_int().loc["vfd"]
print(f"compressors: {int(m.nobs)}  ({int(per_comp.vfd.sum())} with VFD)")
print(f"VFD effect: {m.params['vfd']:+.1f} kWh/day  (95% CI {ci[0]:+.1f} .. {ci[1]:+.1f}), "
      f"p = {m.pvalues['vfd']:.4f}")
print("-> saving not resolved against compressor-to-compressor spread with 6 vs 6 units")
'''

CASES: list[Case] = [
    Case(
        id="h22-pseudorep-film-thk-49-sites",
        family="pseudoreplication",
        code=_COAT_FLAWED,
        setup=_COAT_SETUP,
        twin="h22-pseudorep-film-thk-49-sites-sound",
        note="49 ellipsometer sites per wafer on 5 wafers per process pooled as 245 independent "
             "points in a t-test; wafer-to-wafer variation ignored, p-value far too small",
        split="holdout22",
    ),
    Case(
        id="h22-pseudorep-film-thk-49-sites-sound",
        family=None,
        code=_COAT_SOUND,
        setup=_COAT_SETUP,
        twin="h22-pseudorep-film-thk-49-sites",
        note="wafer means (n=5 per process) compared, the wafer being the experimental unit",
        split="holdout22",
    ),
    Case(
        id="h22-pseudorep-compressor-vfd-daily-ols",
        family="pseudoreplication",
        code=_VFD_FLAWED,
        setup=_VFD_SETUP,
        twin="h22-pseudorep-compressor-vfd-daily-ols-sound",
        note="14 daily kWh values per compressor treated as independent rows in OLS of a "
             "compressor-level retrofit; n=168 instead of 12 units, CI and p far too narrow",
        split="holdout22",
    ),
    Case(
        id="h22-pseudorep-compressor-vfd-daily-ols-sound",
        family=None,
        code=_VFD_SOUND,
        setup=_VFD_SETUP,
        twin="h22-pseudorep-compressor-vfd-daily-ols",
        note="daily energy averaged per compressor, VFD effect tested across the 12 compressors",
        split="holdout22",
    ),
]
