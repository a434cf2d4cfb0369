from bench.critic_corpus import Case

_SETUP_SPRINT = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1010)
positions = ["CB", "FB", "CM", "W", "ST"]
rows = []
for i in range(60):
    pos = positions[i % 5]
    t = rng.normal({"CB": 4.32, "FB": 4.18, "CM": 4.30, "W": 4.12, "ST": 4.20}[pos], 0.09)
    # the timing-gate laptop exported some rows with units or comma decimals
    style = rng.choice(["plain", "unit", "comma"], p=[0.6, 0.25, 0.15])
    txt = f"{t:.2f}" if style == "plain" else (f"{t:.2f}s" if style == "unit"
                                               else f"{t:.2f}".replace(".", ","))
    rows.append({"player": f"A{i + 1:02d}", "position": pos, "sprint_30m": txt})
rows[7]["sprint_30m"] = "DNF"
rows[33]["sprint_30m"] = "inj"
sprint = pd.DataFrame(rows)
'''

_SETUP_MERGE = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3)
dates = pd.date_range("2024-09-02", periods=35, freq="D")
players = [f"P{i:02d}" for i in range(1, 25)]
gps = pd.DataFrame([(p, d) for p in players for d in dates], columns=["player", "date"])
gps["total_dist_m"] = rng.normal(5200, 1300, len(gps)).round(0)
gps["hsr_m"] = rng.gamma(3, 130, len(gps)).round(0)
gps = gps.sample(frac=0.85, random_state=1).sort_values(["player", "date"])

srpe = pd.DataFrame([(p, d) for p in players for d in dates], columns=["player", "date"])
srpe["rpe"] = rng.integers(2, 10, len(srpe))
srpe["duration_min"] = rng.integers(45, 100, len(srpe))
srpe["srpe_au"] = srpe["rpe"] * srpe["duration_min"]
# not every player fills in the RPE app after every session
keep = rng.random(len(srpe)) > 0.2
srpe = srpe[keep]
'''

CASES = [
    Case(
        id="h26-data-loss-sprint-coerce",
        family="data_loss",
        setup=_SETUP_SPRINT,
        code='''sprint["t30"] = pd.to_numeric(sprint["sprint_30m"], errors="coerce")
res = sprint.dropna(subset=["t30"])
summary = res.groupby("position")["t30"].agg(["count", "mean", "min"]).round(2)
print("30 m sprint, pre-season testing - by position")
print(summary.sort_values("mean").to_string())
print(f"\\nFastest position group: {summary['mean'].idxmin()}")
''',
        twin="h26-data-loss-sprint-coerce-ok",
        note="to_numeric(errors='coerce') + dropna silently drops '4.21s' and '4,18' valid times.",
        split="holdout26",
    ),
    Case(
        id="h26-data-loss-sprint-coerce-ok",
        family=None,
        setup=_SETUP_SPRINT,
        code='''cleaned = (sprint["sprint_30m"].str.strip().str.rstrip("s")
           .str.replace(",", ".", regex=False))
sprint["t30"] = pd.to_numeric(cleaned, errors="coerce")
bad = sprint[sprint["t30"].isna()]
print(f"Parsed {sprint['t30'].notna().sum()} of {len(sprint)} times; excluded {len(bad)}:")
print(bad[["player", "position", "sprint_30m"]].to_string(index=False))
res = sprint.dropna(subset=["t30"])
summary = res.groupby("position")["t30"].agg(["count", "mean", "min"]).round(2)
print("\\n30 m sprint, pre-season testing - by position")
print(summary.sort_values("mean").to_string())
print(f"\\nFastest position group: {summary['mean'].idxmin()}")
''',
        twin="h26-data-loss-sprint-coerce",
        note="Unit/comma formats are repaired; only DNF/inj are excluded and they are listed.",
        split="holdout26",
    ),
    Case(
        id="h26-data-loss-inner-merge-srpe",
        family="data_loss",
        setup=_SETUP_MERGE,
        code='''loads = gps.merge(srpe, on=["player", "date"])
loads["week"] = loads["date"].dt.isocalendar().week
weekly = loads.groupby(["player", "week"])[["total_dist_m", "hsr_m", "srpe_au"]].sum()
squad_week = weekly.groupby("week").mean().round(0)
print("Average weekly load per player (GPS + sRPE)")
print(squad_week.to_string())
print(f"\\nMean weekly sRPE: {weekly['srpe_au'].mean():.0f} AU")
''',
        twin="h26-data-loss-inner-merge-srpe-ok",
        note="Inner merge drops sessions missing from either table; weekly sums silently shrink.",
        split="holdout26",
    ),
    Case(
        id="h26-data-loss-inner-merge-srpe-ok",
        family=None,
        setup=_SETUP_MERGE,
        code='''loads = gps.merge(srpe, on=["player", "date"], how="outer", indicator=True)
print("Session coverage after merging GPS and sRPE:")
print(loads["_merge"].value_counts().rename({"left_only": "GPS only",
                                            "right_only": "sRPE only"}).to_string())
loads["week"] = loads["date"].dt.isocalendar().week
per_week = loads.groupby("week").agg(
    gps_sessions=("total_dist_m", "count"),
    dist_per_session=("total_dist_m", "mean"),
    hsr_per_session=("hsr_m", "mean"),
    srpe_sessions=("srpe_au", "count"),
    srpe_per_session=("srpe_au", "mean"),
)
print("\\nPer-session load by week, each measure on every session where it exists:")
print(per_week.round(0).to_string())
print("\\nNote: sRPE is missing for "
      f"{loads['srpe_au'].isna().mean():.0%} of sessions, so weekly sRPE totals would be low.")
''',
        twin="h26-data-loss-inner-merge-srpe",
        note="Outer merge with indicator: unmatched sessions counted; per-session loads with n.",
        split="holdout26",
    ),
]
