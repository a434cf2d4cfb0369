from bench.critic_corpus import Case

_TX_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3471)
dates = pd.date_range("1991-01-01", "2020-12-31", freq="D")
doy = dates.dayofyear.to_numpy()
tx = 13.5 + 8.5 * np.sin(2 * np.pi * (doy - 105) / 365.25) + rng.normal(0, 2.8, len(dates))
qc = np.full(len(dates), "0")
# logger failures: the station file codes missing Tmax as -99.9 (flag 9)
gaps = np.r_[np.arange(2190, 2251), np.arange(8035, 8070), rng.choice(len(dates), 120)]
tx[gaps] = -99.9
qc[gaps] = "9"
stn = pd.DataFrame({"date": dates, "tmax": tx.round(1), "qc_tmax": qc})
stn["month"] = stn.date.dt.month
'''

_TX_FLAWED = '''
clim = stn.groupby("month").tmax.agg(["mean", "std", "min", "max"]).round(2)
clim.index = pd.to_datetime(clim.index, format="%m").strftime("%b")
print(f"1991-2020 Tmax normals, {len(stn)} days;  annual mean {stn.tmax.mean():.2f} degC")
clim
'''

_TX_SOUND = '''
# -99.9 / flag 9 = missing in this station file
stn["tmax"] = stn.tmax.mask(stn.qc_tmax == "9")
miss_by_month = stn.tmax.isna().groupby(stn.date.dt.to_period("M")).sum()
print(f"{stn.tmax.isna().sum()} of {len(stn)} days missing ({stn.tmax.isna().mean():.1%}); "
      f"{(miss_by_month > 10).sum()} months with > 10 missing days")

clim = stn.groupby("month").tmax.agg(["mean", "std", "min", "max", "count"]).round(2)
clim.index = pd.to_datetime(clim.index, format="%m").strftime("%b")
print(f"1991-2020 Tmax normals;  annual mean {stn.tmax.mean():.2f} degC")
clim
'''

_FROST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3472)
n = 1460                                        # four cold seasons of 06 UTC forecasts
tmin_fc = rng.normal(3.0, 4.2, n)               # NWP 2 m Tmin forecast (degC), day+1
tmin_obs = tmin_fc + rng.normal(-0.4, 1.8, n)
fc = pd.DataFrame({"valid": pd.date_range("2019-10-01", periods=n, freq="D"),
                   "tmin_fc": tmin_fc.round(1), "tmin_obs": tmin_obs.round(1)})
fc["frost"] = (fc.tmin_obs < 0).astype(int)
train, test = fc.iloc[:1095], fc.iloc[1095:]
'''

_FROST_FLAWED = '''
# calibrate frost probability on the NWP Tmin forecast (fit 3 seasons, verify the 4th)
b1, b0 = np.polyfit(train.tmin_fc, train.frost, 1)
p_frost = b0 + b1 * test.tmin_fc

bs = np.mean((p_frost - test.frost) ** 2)
bs_clim = np.mean((train.frost.mean() - test.frost) ** 2)
print(f"P(frost) = {b0:.3f} + {b1:.3f} * Tmin_fc")
print(f"forecast probabilities: min {p_frost.min():.2f}, max {p_frost.max():.2f}")
print(f"Brier score {bs:.4f}  (climatology {bs_clim:.4f}, BSS = {1 - bs / bs_clim:.3f})")
pd.DataFrame({"p_fc": p_frost, "obs": test.frost}).groupby(
    pd.cut(test.tmin_fc, [-20, -6, -3, 0, 3, 6, 20])).mean().round(2)
'''

_FROST_SOUND = '''
import statsmodels.api as sm

# calibrate frost probability on the NWP Tmin forecast (fit 3 seasons, verify the 4th)
logit = sm.Logit(train.frost, sm.add_constant(train.tmin_fc)).fit(disp=0)
p_frost = logit.predict(sm.add_constant(test.tmin_fc))

bs = np.mean((p_frost - test.frost) ** 2)
bs_clim = np.mean((train.frost.mean() - test.frost) ** 2)
print(logit.params.round(3).to_string())
print(f"forecast probabilities: min {p_frost.min():.2f}, max {p_frost.max():.2f}")
print(f"Brier score {bs:.4f}  (climatology {bs_clim:.4f}, BSS = {1 - bs / bs_clim:.3f})")
pd.DataFrame({"p_fc": p_frost, "obs": test.frost}).groupby(
    pd.cut(test.tmin_fc, [-20, -6, -3, 0, 3, 6, 20])).mean().round(2)
'''

CASES: list[Case] = [
    Case(
        id="h34-sv-tmax-normals-with-missing-code",
        family="suspicious_values",
        setup=_TX_SETUP,
        code=_TX_FLAWED,
        twin="h34-sv-tmax-normals-missing-masked",
        note="the -99.9 missing-value code is averaged into the monthly normals; the table shows "
             "a -99.9 degC minimum and depressed means without comment",
        split="holdout34",
    ),
    Case(
        id="h34-sv-tmax-normals-missing-masked",
        family=None,
        setup=_TX_SETUP,
        code=_TX_SOUND,
        twin="h34-sv-tmax-normals-with-missing-code",
        note="flag-9 / -99.9 days masked to NaN and counted before computing the normals",
        split="holdout34",
    ),
    Case(
        id="h34-sv-frost-linear-probabilities",
        family="suspicious_values",
        setup=_FROST_SETUP,
        code=_FROST_FLAWED,
        twin="h34-sv-frost-logistic-probabilities",
        note="a straight-line fit to a 0/1 frost outcome gives 'probabilities' below 0 and above "
             "1, which are printed and scored as if valid",
        split="holdout34",
    ),
    Case(
        id="h34-sv-frost-logistic-probabilities",
        family=None,
        setup=_FROST_SETUP,
        code=_FROST_SOUND,
        twin="h34-sv-frost-linear-probabilities",
        note="logistic calibration keeps probabilities in [0, 1]; verified on a held-out season",
        split="holdout34",
    ),
]
