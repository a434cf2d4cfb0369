from bench.critic_corpus import Case

_NET_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3481)
# station metadata from the network register (ids as text, some with leading zeros)
ids = np.r_[rng.choice(np.arange(10000, 99999), 22, replace=False),
            rng.choice(np.arange(100, 999), 9, replace=False)]
elev = np.r_[rng.integers(5, 450, 22), rng.integers(900, 2100, 9)]    # 3-digit ids = mountain
meta = pd.DataFrame({"wmo_id": [f"{i:05d}" for i in ids], "name": [f"stn_{i}" for i in ids],
                     "elev_m": elev, "lat": rng.uniform(45, 48, 31).round(3)})
# 2023 annual mean temperature anomalies (vs 1991-2020) from the data portal, ids as int
warm = 1.05 + 0.00045 * elev + rng.normal(0, 0.18, 31)
anom = pd.DataFrame({"station": ids.astype(int), "year": 2023, "tas_anom_k": warm.round(2)})
anom["station"] = anom.station.astype(str)          # portal CSV read as text, no padding
'''

_NET_FLAWED = '''
df = anom.merge(meta, left_on="station", right_on="wmo_id")
df["band"] = pd.cut(df.elev_m, [0, 500, 1500, 3000], labels=["<500 m", "500-1500 m", ">1500 m"])
print(f"regional mean 2023 anomaly: {df.tas_anom_k.mean():+.2f} K")
df.groupby("band", observed=False).tas_anom_k.agg(["mean", "count"]).round(2)
'''

_NET_SOUND = '''
anom["wmo_id"] = anom.station.str.zfill(5)          # register pads ids to 5 digits
df = anom.merge(meta, on="wmo_id", how="outer", indicator=True, validate="one_to_one")
print(df._merge.value_counts().to_string())
df = df[df._merge == "both"]
df["band"] = pd.cut(df.elev_m, [0, 500, 1500, 3000], labels=["<500 m", "500-1500 m", ">1500 m"])
print(f"regional mean 2023 anomaly ({len(df)} stations): {df.tas_anom_k.mean():+.2f} K")
df.groupby("band", observed=False).tas_anom_k.agg(["mean", "count"]).round(2)
'''

_FLAG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3482)
days = pd.date_range("2011-01-01", "2022-12-31", freq="D")
n = len(days)
wet = rng.random(n) < 0.33
amt = np.where(wet, rng.gamma(0.8, 9.0, n), 0.0)
raw = np.char.mod("%.1f", amt).astype(object)
trace = (~wet) & (rng.random(n) < 0.06)
raw[trace] = "T"
# accumulated / estimated values after gauge overflow or freezing carry an 'E' suffix,
# and those are mostly big-storm days
est = wet & (amt > 15) & (rng.random(n) < 0.45)
raw[est] = [f"{v:.1f}E" for v in amt[est]]
miss = rng.random(n) < 0.01
raw[miss] = "M"
gauge = pd.DataFrame({"date": days, "prcp": raw})     # as read from the co-op text file
'''

_FLAG_FLAWED = '''
gauge["prcp_mm"] = pd.to_numeric(gauge.prcp, errors="coerce")
g = gauge.dropna(subset=["prcp_mm"])
annual = g.groupby(g.date.dt.year).prcp_mm.agg(total_mm="sum", wet_days=lambda s: (s >= 1).sum(),
                                               rx1day_mm="max")
print(f"mean annual precipitation 2011-2022: {annual.total_mm.mean():.0f} mm")
annual.round(1)
'''

_FLAG_SOUND = '''
# 'T' = trace (< 0.1 mm -> 0), 'E' suffix = estimated but valid amount, 'M' = missing
num = gauge.prcp.str.extract(r"^([0-9.]+)E?$", expand=False).astype(float)
num = num.mask(gauge.prcp == "T", 0.0)
gauge["prcp_mm"] = num
print(gauge.prcp.str[-1].where(gauge.prcp.isin(["T", "M"]) | gauge.prcp.str.endswith("E"))
      .value_counts().rename({"E": "estimated", "T": "trace", "M": "missing"}).to_string())

yr = gauge.date.dt.year
annual = gauge.groupby(yr).prcp_mm.agg(total_mm="sum", wet_days=lambda s: (s >= 1).sum(),
                                       rx1day_mm="max")
annual["n_missing"] = gauge.prcp_mm.isna().groupby(yr).sum()
ok = annual.n_missing <= 10
print(f"mean annual precipitation 2011-2022: {annual.total_mm[ok].mean():.0f} mm "
      f"({ok.sum()} of {len(annual)} years with <= 10 missing days)")
annual.round(1)
'''

CASES: list[Case] = [
    Case(
        id="h34-dl-inner-merge-unpadded-station-ids",
        family="data_loss",
        setup=_NET_SETUP,
        code=_NET_FLAWED,
        twin="h34-dl-merge-padded-ids-indicator",
        note="inner merge on text ids silently drops the 9 zero-padded (mountain) stations, so "
             "the regional mean and the >1500 m band lose exactly the high-elevation sites",
        split="holdout34",
    ),
    Case(
        id="h34-dl-merge-padded-ids-indicator",
        family=None,
        setup=_NET_SETUP,
        code=_NET_SOUND,
        twin="h34-dl-inner-merge-unpadded-station-ids",
        note="ids normalised with zfill, merge validated with an indicator and match counts "
             "printed; all 31 stations kept",
        split="holdout34",
    ),
    Case(
        id="h34-dl-flagged-precip-coerced-and-dropped",
        family="data_loss",
        setup=_FLAG_SETUP,
        code=_FLAG_FLAWED,
        twin="h34-dl-flagged-precip-parsed",
        note="to_numeric(errors='coerce') turns every 'E'-flagged storm total and trace into NaN "
             "and dropna removes them unreported, biasing annual totals and Rx1day low",
        split="holdout34",
    ),
    Case(
        id="h34-dl-flagged-precip-parsed",
        family=None,
        setup=_FLAG_SETUP,
        code=_FLAG_SOUND,
        twin="h34-dl-flagged-precip-coerced-and-dropped",
        note="flags parsed explicitly (E kept, T as 0, M missing), flag counts and per-year "
             "missing days reported, incomplete years excluded from the mean",
        split="holdout34",
    ),
]
