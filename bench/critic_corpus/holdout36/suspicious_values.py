from bench.critic_corpus import Case

_LOOP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3671)
stations = {"D101": 2, "D102": 2, "D115": 3, "D118": 2, "D121": 4, "D130": 2, "D144": 3}
hours = pd.date_range("2024-03-04", periods=28 * 24, freq="h")
hod = hours.hour.values
profile = (0.25 + 0.9 * np.exp(-((hod - 8) ** 2) / 4) + 1.0 * np.exp(-((hod - 17) ** 2) / 5)
           + 0.45 * ((hod > 6) & (hod < 21)))
frames = []
for st, lanes in stations.items():
    lam = lanes * 520 * profile * np.where(hours.dayofweek >= 5, 0.75, 1.0)
    vol = rng.poisson(lam * rng.lognormal(0, 0.08, len(hours)))
    if st in ("D115", "D130", "D144"):                # loop faults: controller writes 0xFFFF
        bad = rng.random(len(hours)) < rng.uniform(0.01, 0.03)
        vol = np.where(bad, 65535, vol)
    frames.append(pd.DataFrame({"station": st, "lanes": lanes, "hour_ts": hours,
                                "volume": vol}))
loops = pd.concat(frames, ignore_index=True)
'''

_PARKING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3672)
blocks = {f"B{k:02d}": (int(rng.integers(10, 28)), gw)
          for k, gw in zip(range(1, 13), ["GW1"] * 5 + ["GW2"] * 4 + ["GW3"] * 3)}
day0 = pd.Timestamp("2024-10-07 08:00")
rows = []
for blk, (n_bays, gw) in blocks.items():
    busy = rng.uniform(0.55, 0.92)
    for b in range(n_bays):
        for d in range(5):
            t = 0.0
            while True:
                t += rng.exponential(25 * (1 - busy) / busy + 1)
                dwell = rng.lognormal(np.log(45), 0.7)
                if t + dwell > 720:
                    break
                rows.append((blk, gw, f"{blk}-{b:02d}", d, t, dwell))
                t += dwell
sessions = pd.DataFrame(rows, columns=["block", "gateway", "bay_id", "day", "start_min",
                                       "dwell_min"])
sessions["arrive"] = day0 + pd.to_timedelta(sessions["day"], "D") + pd.to_timedelta(
    sessions["start_min"].round(), "min")
sessions["depart"] = sessions["arrive"] + pd.to_timedelta(sessions["dwell_min"].round(), "min")
resent = sessions[(sessions["gateway"] == "GW3") & (rng.random(len(sessions)) < 0.35)]
sessions = (pd.concat([sessions, resent]).sort_values(["bay_id", "arrive"])
            .drop(columns=["day", "start_min", "dwell_min"]).reset_index(drop=True))
bays = pd.Series({blk: nb for blk, (nb, _) in blocks.items()}, name="n_bays")
'''

CASES = [
    Case(
        id="h36-sv-loop-65535-aadt",
        family="suspicious_values",
        twin="h36-sv-loop-65535-aadt-ok",
        setup=_LOOP_SETUP,
        code='''
n_days = loops["hour_ts"].dt.normalize().nunique()
summary = (
    loops.groupby("station")
    .agg(lanes=("lanes", "first"), total=("volume", "sum"), dhv=("volume", "max"))
    .assign(adt=lambda d: (d["total"] / n_days).round(-1),
            dhv_per_lane=lambda d: (d["dhv"] / d["lanes"]).round())
    .drop(columns="total")
    .sort_values("adt", ascending=False)
)
print(f"March 2024 detector counts, {n_days} days -> ADT and design-hour volume per station")
summary
''',
        note="Loop-fault code 65535 is summed into ADT and shows as design-hour volumes of "
             "~22,000-33,000 veh/h/lane, physically impossible values reported as results.",
        split="holdout36",
    ),
    Case(
        id="h36-sv-loop-65535-aadt-ok",
        family=None,
        twin="h36-sv-loop-65535-aadt",
        setup=_LOOP_SETUP,
        code='''
# 65535 is the controller's fault code; also reject anything above plausible lane capacity
CAP_PER_LANE = 2400
bad = (loops["volume"] >= 65535) | (loops["volume"] > CAP_PER_LANE * loops["lanes"])
clean = loops.assign(volume=loops["volume"].where(~bad), hod=loops["hour_ts"].dt.hour)
print(f"flagged {bad.sum()} of {len(loops)} station-hours as faults:")
print(bad.groupby(loops["station"]).sum().to_string())

# ADT from the mean valid volume at each hour of day (faulty hours don't bias the profile)
prof = clean.groupby(["station", "hod"])["volume"].mean()
summary = pd.DataFrame({
    "lanes": loops.groupby("station")["lanes"].first(),
    "valid_hours_pct": (100 * (1 - bad.groupby(loops["station"]).mean())).round(1),
    "adt": prof.groupby("station").sum().round(-1),
    "dhv": clean.groupby("station")["volume"].max(),
})
summary["dhv_per_lane"] = (summary["dhv"] / summary["lanes"]).round()
summary.sort_values("adt", ascending=False)
''',
        note="Fault code and over-capacity hours are flagged and counted per station, and "
             "ADT is built from valid hours only, with coverage reported.",
        split="holdout36",
    ),
    Case(
        id="h36-sv-parking-occupancy-over-100",
        family="suspicious_values",
        twin="h36-sv-parking-occupancy-over-100-ok",
        setup=_PARKING_SETUP,
        code='''
OPEN_MIN_PER_DAY, N_DAYS = 720, 5
occ_min = (sessions["depart"] - sessions["arrive"]).dt.total_seconds() / 60
occ = (occ_min.groupby(sessions["block"]).sum() / (bays * OPEN_MIN_PER_DAY * N_DAYS))
table = pd.DataFrame({"bays": bays, "occupancy_pct": (100 * occ).round(1)})
table["action"] = np.select([table["occupancy_pct"] > 85, table["occupancy_pct"] < 60],
                            ["raise rate +$0.50", "lower rate -$0.25"], "hold")
print("Demand-responsive pricing review, week of 7 Oct (sensor occupancy, 08:00-20:00)")
table.sort_values("occupancy_pct", ascending=False)
''',
        note="Re-sent GW3 sensor sessions are double counted, so blocks show occupancy over "
             "100 % (impossible), which then drives the rate recommendations.",
        split="holdout36",
    ),
    Case(
        id="h36-sv-parking-occupancy-over-100-ok",
        family=None,
        twin="h36-sv-parking-occupancy-over-100",
        setup=_PARKING_SETUP,
        code='''
OPEN_MIN_PER_DAY, N_DAYS = 720, 5
# gateways re-send events: a bay cannot start two sessions at the same minute
dup = sessions.duplicated(subset=["bay_id", "arrive", "depart"])
print(f"removed {dup.sum()} re-sent session records "
      f"({dup.groupby(sessions['gateway']).sum().to_dict()})")
s = sessions[~dup]
occ_min = (s["depart"] - s["arrive"]).dt.total_seconds() / 60
occ = (occ_min.groupby(s["block"]).sum() / (bays * OPEN_MIN_PER_DAY * N_DAYS))
assert occ.max() <= 1.0, "occupancy above 100% -- check for overlapping sessions"
table = pd.DataFrame({"bays": bays, "occupancy_pct": (100 * occ).round(1)})
table["action"] = np.select([table["occupancy_pct"] > 85, table["occupancy_pct"] < 60],
                            ["raise rate +$0.50", "lower rate -$0.25"], "hold")
print("Demand-responsive pricing review, week of 7 Oct (sensor occupancy, 08:00-20:00)")
table.sort_values("occupancy_pct", ascending=False)
''',
        note="Duplicate re-sent sensor records are removed (and counted) before computing "
             "occupancy, with a check that no block exceeds 100 %.",
        split="holdout36",
    ),
]
