from bench.critic_corpus import Case

_HTS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3681)
n = 3200
age_head = rng.integers(20, 90, n)
inc = np.round(rng.lognormal(np.log(62000), 0.6, n), -3)
stated = rng.random(n) > np.clip(0.08 + 0.006 * (age_head - 20), 0, 0.6)   # older refuse more
income_raw = np.where(stated, inc.astype(int).astype(str),
                      rng.choice(["Refused", "Don't know", ""], n, p=[0.6, 0.3, 0.1]))
persons = rng.integers(1, 6, n)
rate = 3.6 + 0.4 * np.log(inc / 62000) - 0.02 * (age_head - 45) + rng.normal(0, 0.8, n)
hh = pd.DataFrame({
    "hh_id": np.arange(100001, 100001 + n),
    "hh_income": income_raw,
    "head_age": age_head,
    "persons": persons,
    "trips_day": np.round(np.clip(rate, 0, None) * persons).astype(int),
    "exp_weight": np.round(rng.uniform(80, 260, n), 1),
})
'''

_AVL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3682)
n_trips = 900
trip_ids = [f"{i:07d}" for i in rng.choice(np.arange(1000, 99999), n_trips, replace=False)]
garage = rng.choice(["North", "Central", "East"], n_trips, p=[0.4, 0.35, 0.25])
timepoints = ["TP01", "TP05", "TP09", "TP14"]
sched = pd.DataFrame([(t, tp, pd.Timestamp("2024-03-12 06:00")
                       + pd.Timedelta(minutes=int(rng.integers(0, 900)) + 12 * k))
                      for t in trip_ids for k, tp in enumerate(timepoints)],
                     columns=["trip_id", "stop_id", "sched_time"])
g = dict(zip(trip_ids, garage))
bias_by_garage = {"North": 0.8, "Central": 1.2, "East": 3.6}
late_bias = sched["trip_id"].map(lambda t: bias_by_garage[g[t]])
dev_min = late_bias + rng.gamma(1.5, 1.6, len(sched)) - 1.8
avl = pd.DataFrame({
    # East garage buses run the new CAD/AVL vendor, which drops leading zeros from trip ids
    "trip_id": [t.lstrip("0") if g[t] == "East" else t for t in sched["trip_id"]],
    "stop_id": sched["stop_id"],
    "actual_time": sched["sched_time"] + pd.to_timedelta(np.round(dev_min * 60), "s"),
    "vehicle": rng.integers(3000, 3400, len(sched)),
})
'''

CASES = [
    Case(
        id="h36-dl-hts-income-coerce",
        family="data_loss",
        twin="h36-dl-hts-income-coerce-ok",
        setup=_HTS_SETUP,
        code='''
hh["hh_income"] = pd.to_numeric(hh["hh_income"], errors="coerce")
hh = hh.dropna(subset=["hh_income"])
hh["income_band"] = pd.cut(hh["hh_income"], [0, 35000, 60000, 100000, 150000, np.inf],
                           labels=["<35k", "35-60k", "60-100k", "100-150k", "150k+"])

def wmean(d, col):
    return np.average(d[col], weights=d["exp_weight"])

rates = hh.groupby("income_band", observed=True).apply(
    lambda d: pd.Series({"households": len(d), "trips_per_hh": wmean(d, "trips_day"),
                         "persons_per_hh": wmean(d, "persons")}), include_groups=False)
print(f"Regional household trip rate (weighted): {wmean(hh, 'trips_day'):.2f} trips/hh/day")
rates.round(2)
''',
        note="Non-numeric income answers (Refused/Don't know, mostly older households) are "
             "coerced to NaN and silently dropped before the regional trip rate is computed.",
        split="holdout36",
    ),
    Case(
        id="h36-dl-hts-income-coerce-ok",
        family=None,
        twin="h36-dl-hts-income-coerce",
        setup=_HTS_SETUP,
        code='''
inc = pd.to_numeric(hh["hh_income"], errors="coerce")
print(f"income not stated: {inc.isna().sum()} of {len(hh)} households "
      f"({inc.isna().mean():.1%}); responses: "
      f"{hh.loc[inc.isna(), 'hh_income'].replace('', '(blank)').value_counts().to_dict()}")
# keep non-response as its own band instead of dropping those households
band = pd.cut(inc, [0, 35000, 60000, 100000, 150000, np.inf],
              labels=["<35k", "35-60k", "60-100k", "100-150k", "150k+"])
hh["income_band"] = band.cat.add_categories("not stated").fillna("not stated")

def wmean(d, col):
    return np.average(d[col], weights=d["exp_weight"])

rates = hh.groupby("income_band", observed=True).apply(
    lambda d: pd.Series({"households": len(d), "trips_per_hh": wmean(d, "trips_day"),
                         "persons_per_hh": wmean(d, "persons")}), include_groups=False)
print(f"Regional household trip rate (weighted, all {len(hh)} hh): "
      f"{wmean(hh, 'trips_day'):.2f} trips/hh/day")
rates.round(2)
''',
        note="Income non-response is counted, described and kept as a 'not stated' band, and "
             "the regional trip rate uses every household.",
        split="holdout36",
    ),
    Case(
        id="h36-dl-avl-gtfs-inner-merge",
        family="data_loss",
        twin="h36-dl-avl-gtfs-inner-merge-ok",
        setup=_AVL_SETUP,
        code='''
arr = avl.merge(sched, on=["trip_id", "stop_id"])
arr["dev_min"] = (arr["actual_time"] - arr["sched_time"]).dt.total_seconds() / 60
arr["on_time"] = arr["dev_min"].between(-1, 5)

otp = arr["on_time"].mean()
print(f"System on-time performance, 12 Mar 2024: {otp:.1%} "
      f"({arr['trip_id'].nunique()} trips, {len(arr)} timepoint arrivals)")
arr.groupby("stop_id")["dev_min"].describe(percentiles=[0.5, 0.9]).round(1)
''',
        note="The inner merge silently drops every East-garage arrival (trip ids without "
             "leading zeros), the latest-running third of service, inflating OTP.",
        split="holdout36",
    ),
    Case(
        id="h36-dl-avl-gtfs-inner-merge-ok",
        family=None,
        twin="h36-dl-avl-gtfs-inner-merge",
        setup=_AVL_SETUP,
        code='''
# the new AVL vendor strips leading zeros; restore the 7-digit GTFS trip_id before joining
avl_k = avl.assign(trip_id=avl["trip_id"].astype(str).str.zfill(7))
arr = avl_k.merge(sched, on=["trip_id", "stop_id"], how="left", indicator=True)
unmatched = (arr["_merge"] == "left_only").sum()
print(f"AVL arrivals: {len(avl)}, matched to schedule: {len(arr) - unmatched}, "
      f"unmatched: {unmatched}")
arr = arr[arr["_merge"] == "both"].copy()
arr["dev_min"] = (arr["actual_time"] - arr["sched_time"]).dt.total_seconds() / 60
arr["on_time"] = arr["dev_min"].between(-1, 5)

otp = arr["on_time"].mean()
print(f"System on-time performance, 12 Mar 2024: {otp:.1%} "
      f"({arr['trip_id'].nunique()} trips, {len(arr)} timepoint arrivals)")
arr.groupby("stop_id")["dev_min"].describe(percentiles=[0.5, 0.9]).round(1)
''',
        note="Trip ids are normalised before a left join with an indicator, and matched and "
             "unmatched arrival counts are printed before OTP is computed.",
        split="holdout36",
    ),
]
