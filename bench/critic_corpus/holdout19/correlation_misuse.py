from bench.critic_corpus import Case

_PM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
hours = pd.date_range("2024-01-08", periods=24 * 21, freq="h")
ref = np.exp(np.log(9) + 0.6 * np.sin(2 * np.pi * np.arange(len(hours)) / 24 / 5)
             + rng.normal(0, 0.35, len(hours)))
colo = pd.DataFrame({
    "hour": hours,
    "bam_pm25": ref.round(1),
    "rh_pct": rng.uniform(40, 95, len(hours)).round(0),
})
colo["pa_pm25"] = (1.55 * colo["bam_pm25"] + 2.5 + rng.normal(0, 1.2, len(hours))).round(1)
colo.loc[rng.choice(len(hours), 9, replace=False), "pa_pm25"] = np.nan
'''

_PM_FLAWED = '''
from scipy import stats

d = colo.dropna(subset=["pa_pm25"])
print(f"{len(d)} of {len(colo)} co-located hours with both monitors")
r, p = stats.pearsonr(d["bam_pm25"], d["pa_pm25"])
summary = pd.DataFrame({
    "metric": ["pearson_r", "r_squared", "p_value", "n_hours"],
    "value": [round(r, 3), round(r ** 2, 3), p, len(d)],
})
print("low-cost sensor agrees with the reference monitor" if r > 0.9
      else "sensor agreement is poor")
summary
'''

_PM_SOUND = '''
from scipy import stats

d = colo.dropna(subset=["pa_pm25"])
print(f"{len(d)} of {len(colo)} co-located hours with both monitors")
r, p = stats.pearsonr(d["bam_pm25"], d["pa_pm25"])
diff = d["pa_pm25"] - d["bam_pm25"]
bias, sd = diff.mean(), diff.std(ddof=1)
mx, my = d["bam_pm25"].mean(), d["pa_pm25"].mean()
ccc = (2 * np.cov(d["bam_pm25"], d["pa_pm25"])[0, 1]
       / (d["bam_pm25"].var() + d["pa_pm25"].var() + (mx - my) ** 2))
summary = pd.DataFrame({
    "metric": ["pearson_r", "lin_ccc", "mean_bias_ugm3", "loa_low", "loa_high", "n_hours"],
    "value": [round(r, 3), round(ccc, 3), round(bias, 2), round(bias - 1.96 * sd, 2),
              round(bias + 1.96 * sd, 2), len(d)],
})
print("sensor tracks the reference but reads high; needs a calibration before use"
      if abs(bias) > 1 else "sensor agrees with the reference monitor")
summary
'''

_CAM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(616)
n = 64
habitats = ["mixed_forest", "conifer", "wet_meadow", "agriculture", "shrubland"]
cams = pd.DataFrame({
    "camera": [f"CT{i:02d}" for i in range(1, n + 1)],
    "habitat": rng.choice(habitats, n),
    "dist_road_m": rng.uniform(50, 3000, n).round(0),
    "trap_nights": rng.integers(40, 62, n),
})
codebook = {h: i + 1 for i, h in enumerate(habitats)}
cams["habitat_code"] = cams["habitat"].map(codebook)
rate = pd.Series({"mixed_forest": 0.5, "conifer": 0.15, "wet_meadow": 0.55,
                  "agriculture": 0.1, "shrubland": 0.35})
lam = cams["habitat"].map(rate) * (1 + cams["dist_road_m"] / 3000) * cams["trap_nights"] / 10
cams["deer_det"] = rng.poisson(lam)
cams["det_per_100tn"] = (100 * cams["deer_det"] / cams["trap_nights"]).round(2)
'''

_CAM_FLAWED = '''
cor = cams[["det_per_100tn", "habitat_code", "dist_road_m", "trap_nights"]].corr()
print(cor.round(3))
r_hab = cor.loc["habitat_code", "det_per_100tn"]
r_road = cor.loc["dist_road_m", "det_per_100tn"]
print(f"habitat explains {r_hab ** 2:.1%} of the variation in deer detection rate")
pd.DataFrame({"driver": ["habitat", "distance to road"], "r": [r_hab, r_road],
              "r2": [r_hab ** 2, r_road ** 2]}).round(3).sort_values("r2", ascending=False)
'''

_CAM_SOUND = '''
from scipy import stats

by_hab = cams.groupby("habitat")["det_per_100tn"].agg(["count", "mean", "median"]).round(2)
print(by_hab.sort_values("median", ascending=False))
h, p_hab = stats.kruskal(*[g["det_per_100tn"] for _, g in cams.groupby("habitat")])
rho, p_road = stats.spearmanr(cams["dist_road_m"], cams["det_per_100tn"])
pd.DataFrame({"driver": ["habitat (Kruskal-Wallis H)", "distance to road (Spearman rho)"],
              "stat": [h, rho], "p": [p_hab, p_road]}).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h19-cor-pm25-colocation-flawed", family="correlation_misuse", code=_PM_FLAWED,
        setup=_PM_SETUP, twin="h19-cor-pm25-colocation-sound", split="holdout19",
        note="r > 0.9 taken as agreement although the sensor reads ~1.55x + 2.5 of the reference",
    ),
    Case(
        id="h19-cor-pm25-colocation-sound", family=None, code=_PM_SOUND,
        setup=_PM_SETUP, twin="h19-cor-pm25-colocation-flawed", split="holdout19",
        note="agreement judged by bias, limits of agreement and Lin's CCC, not by r",
    ),
    Case(
        id="h19-cor-camtrap-habitat-flawed", family="correlation_misuse", code=_CAM_FLAWED,
        setup=_CAM_SETUP, twin="h19-cor-camtrap-habitat-sound", split="holdout19",
        note="Pearson r on nominal habitat codes 1-5 used to rank habitat as a driver",
    ),
    Case(
        id="h19-cor-camtrap-habitat-sound", family=None, code=_CAM_SOUND,
        setup=_CAM_SETUP, twin="h19-cor-camtrap-habitat-flawed", split="holdout19",
        note="habitat compared as categories (Kruskal-Wallis); Spearman only for distance",
    ),
]
