from bench.critic_corpus import Case

SPLIT = "holdout13"

VET_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5309)
rows = []
for i in range(28):
    diet = "RC-Satiety" if i % 2 == 0 else "HillsMetabolic"
    start = rng.normal(34, 6)
    dog_rate = rng.normal(-0.55 if diet == "RC-Satiety" else -0.42, 0.28)
    for wk in range(0, 16, 2):
        w = start * (1 + dog_rate / 100 * wk) + rng.normal(0, 0.25)
        rows.append({
            "patient_id": f"VET-{1200 + i}",
            "clinic": ["Northgate", "Riverside", "Hillcrest"][i % 3],
            "diet": diet,
            "week": wk,
            "weight_kg": round(w, 2),
        })
weighins = pd.DataFrame(rows)
followup = weighins.index[weighins["week"] > 0]
weighins.loc[rng.choice(followup, 6, replace=False), "weight_kg"] = np.nan
'''

VET_FLAWED = '''
from scipy import stats

baseline = (weighins.loc[weighins["week"] == 0, ["patient_id", "weight_kg"]]
            .rename(columns={"weight_kg": "baseline_kg"}))
wl = (weighins.merge(baseline, on="patient_id", how="left")
      .query("week > 0")
      .dropna(subset=["weight_kg", "baseline_kg"]))
wl["pct_change"] = 100 * (wl["weight_kg"] - wl["baseline_kg"]) / wl["baseline_kg"]
wl["pct_per_week"] = wl["pct_change"] / wl["week"]

n_missed = int(weighins.loc[weighins["week"] > 0, "weight_kg"].isna().sum())
print(f"{wl['patient_id'].nunique()} dogs, {len(wl)} follow-up weigh-ins "
      f"({n_missed} missed appointments excluded)")
tab = (wl.pivot_table(index="week", columns="diet", values="pct_change", aggfunc="mean")
       .round(2))
print("\\nMean % change from baseline by week")
print(tab.to_string())

a = wl.loc[wl["diet"] == "RC-Satiety", "pct_per_week"]
b = wl.loc[wl["diet"] == "HillsMetabolic", "pct_per_week"]
t, p = stats.ttest_ind(a, b, equal_var=False)
d = (a.mean() - b.mean()) / np.sqrt((a.var() + b.var()) / 2)

print(f"\\nWeekly weight change: RC-Satiety {a.mean():.3f}%/wk (n={len(a)}), "
      f"HillsMetabolic {b.mean():.3f}%/wk (n={len(b)})")
print(f"Welch t = {t:.2f}, p = {p:.4f}, Cohen's d = {d:.2f}")
verdict = "faster" if (p < 0.05 and a.mean() < b.mean()) else "not clearly faster"
print(f"RC-Satiety gives {verdict} weight loss than HillsMetabolic.")
'''

VET_SOUND = '''
from scipy import stats

baseline = (weighins.loc[weighins["week"] == 0, ["patient_id", "weight_kg"]]
            .rename(columns={"weight_kg": "baseline_kg"}))
wl = (weighins.merge(baseline, on="patient_id", how="left")
      .query("week > 0")
      .dropna(subset=["weight_kg", "baseline_kg"]))
wl["pct_change"] = 100 * (wl["weight_kg"] - wl["baseline_kg"]) / wl["baseline_kg"]

n_missed = int(weighins.loc[weighins["week"] > 0, "weight_kg"].isna().sum())
print(f"{wl['patient_id'].nunique()} dogs, {len(wl)} follow-up weigh-ins "
      f"({n_missed} missed appointments excluded)")
tab = (wl.pivot_table(index="week", columns="diet", values="pct_change", aggfunc="mean")
       .round(2))
print("\\nMean % change from baseline by week")
print(tab.to_string())

def dog_slope(g):
    return np.polyfit(g["week"], g["pct_change"], 1)[0] if len(g) >= 3 else np.nan

per_dog = (wl.groupby(["patient_id", "diet"])[["week", "pct_change"]]
           .apply(dog_slope).rename("pct_per_week").reset_index().dropna())
a = per_dog.loc[per_dog["diet"] == "RC-Satiety", "pct_per_week"]
b = per_dog.loc[per_dog["diet"] == "HillsMetabolic", "pct_per_week"]
t, p = stats.ttest_ind(a, b, equal_var=False)
d = (a.mean() - b.mean()) / np.sqrt((a.var() + b.var()) / 2)

print(f"\\nPer-dog weekly slope: RC-Satiety {a.mean():.3f}%/wk (n={len(a)} dogs), "
      f"HillsMetabolic {b.mean():.3f}%/wk (n={len(b)} dogs)")
print(f"Welch t = {t:.2f}, p = {p:.4f}, Cohen's d = {d:.2f}")
verdict = "faster" if (p < 0.05 and a.mean() < b.mean()) else "not clearly faster"
print(f"RC-Satiety gives {verdict} weight loss than HillsMetabolic.")
'''

CYCLE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(9)
counters = pd.DataFrame({
    "counter_id": [f"ECO-{k:03d}" for k in range(101, 113)],
    "street": ["Mill Rd", "Hills Rd", "Trumpington St", "Newmarket Rd", "Huntingdon Rd",
               "Histon Rd", "Chesterton Rd", "Cherry Hinton Rd", "Coldhams Ln",
               "Madingley Rd", "Barton Rd", "Perne Rd"],
    "protected_lane": [1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
    "base_level": rng.normal(3.6, 0.5, 12),
    "post_shift": rng.normal(0.0, 0.12, 12),
})
hours = pd.date_range("2024-04-01", "2024-05-26 23:00", freq="h")
grid = counters.merge(pd.DataFrame({"ts": hours}), how="cross")
grid["post"] = (grid["ts"] >= "2024-04-29").astype(int)
hr, dow = grid["ts"].dt.hour, grid["ts"].dt.dayofweek
profile = (np.exp(-((hr - 8) ** 2) / 4) + 0.9 * np.exp(-((hr - 17.5) ** 2) / 5)
           + 0.08) * np.where(dow < 5, 1.0, 0.55)
rain = rng.gamma(0.3, 1.5, len(grid)) * (rng.random(len(grid)) < 0.25)
lam = np.exp(grid["base_level"] + np.log(profile) - 0.12 * rain
             + grid["post"] * (0.04 * grid["protected_lane"] + grid["post_shift"]))
grid["bikes"] = rng.poisson(lam)
grid["rain_mm"] = rain.round(1)
hourly = grid[["counter_id", "street", "protected_lane", "ts", "post", "rain_mm", "bikes"]]
'''

CYCLE_FLAWED = '''
import statsmodels.formula.api as smf

df = hourly.assign(
    hour=hourly["ts"].dt.hour,
    dow=hourly["ts"].dt.dayofweek,
    log_bikes=np.log1p(hourly["bikes"]),
)
means = (df.groupby(["protected_lane", "post"])["bikes"].mean().unstack()
         .rename(index={0: "no lane", 1: "protected lane"}, columns={0: "pre", 1: "post"}))
print("Mean bikes per counter-hour")
print(means.round(1).to_string())

fit = smf.ols(
    "log_bikes ~ protected_lane * post + C(hour) + C(dow) + rain_mm", data=df
).fit()
est = fit.params["protected_lane:post"]
lo, hi = fit.conf_int().loc["protected_lane:post"]
p = fit.pvalues["protected_lane:post"]

print(f"\\nDifference-in-differences on {int(fit.nobs):,} counter-hours "
      f"({df['counter_id'].nunique()} counters)")
print(f"  lane x post effect on log(1+bikes): {est:+.4f}  (95% CI {lo:+.4f} to {hi:+.4f})")
print(f"  approx. % change in cycling       : {100 * (np.exp(est) - 1):+.1f}%")
print(f"  p-value                           : {p:.2e}")
print(f"  R^2                               : {fit.rsquared:.3f}")
direction = "uplift" if est > 0 else "drop"
if p < 0.05:
    print(f"The protected lanes produced a statistically significant {direction} in cycling.")
else:
    print("No significant change from the protected lanes.")
'''

CYCLE_SOUND = '''
from scipy import stats

df = hourly.assign(
    hour=hourly["ts"].dt.hour,
    dow=hourly["ts"].dt.dayofweek,
    log_bikes=np.log1p(hourly["bikes"]),
)
means = (df.groupby(["protected_lane", "post"])["bikes"].mean().unstack()
         .rename(index={0: "no lane", 1: "protected lane"}, columns={0: "pre", 1: "post"}))
print("Mean bikes per counter-hour")
print(means.round(1).to_string())

per_counter = (df.groupby(["counter_id", "protected_lane", "post"])["log_bikes"].mean()
               .unstack("post"))
per_counter["change"] = per_counter[1] - per_counter[0]
per_counter = per_counter.reset_index()
treated = per_counter.loc[per_counter["protected_lane"] == 1, "change"]
control = per_counter.loc[per_counter["protected_lane"] == 0, "change"]

est = treated.mean() - control.mean()
res = stats.ttest_ind(treated, control, equal_var=False)
p = res.pvalue
lo, hi = res.confidence_interval(0.95)

print(f"\\nDifference-in-differences at counter level ({len(per_counter)} counters, "
      f"{len(df):,} counter-hours collapsed to one pre/post change each)")
print(f"  lane x post effect on log(1+bikes): {est:+.4f}  (95% CI {lo:+.4f} to {hi:+.4f})")
print(f"  approx. % change in cycling       : {100 * (np.exp(est) - 1):+.1f}%")
print(f"  p-value                           : {p:.3f}")
direction = "uplift" if est > 0 else "drop"
if p < 0.05:
    print(f"The protected lanes produced a statistically significant {direction} in cycling.")
else:
    print("No significant change from the protected lanes with 6 vs 6 counters.")
'''

CASES: list[Case] = [
    Case(
        id="h13-pseudorep-vet-diet-weighins-as-dogs",
        family="pseudoreplication",
        code=VET_FLAWED,
        setup=VET_SETUP,
        twin="h13-pseudorep-vet-diet-per-dog-slope",
        note="Every follow-up weigh-in (7 per dog) enters the t-test as an independent "
             "observation, so 28 dogs become ~190 'samples' and the p-value is inflated.",
        split=SPLIT,
    ),
    Case(
        id="h13-pseudorep-vet-diet-per-dog-slope",
        family=None,
        code=VET_SOUND,
        setup=VET_SETUP,
        twin="h13-pseudorep-vet-diet-weighins-as-dogs",
        note="Each dog is reduced to one weight-change slope and diets are compared across "
             "dogs (n=28), the independent unit.",
        split=SPLIT,
    ),
    Case(
        id="h13-pseudorep-cycling-hourly-did-ols",
        family="pseudoreplication",
        code=CYCLE_FLAWED,
        setup=CYCLE_SETUP,
        twin="h13-pseudorep-cycling-counter-level-did",
        note="Lane effect is assigned per counter (12 counters) but the DiD OLS treats 16,000 "
             "counter-hours as independent with iid SEs, giving a spuriously tiny p-value.",
        split=SPLIT,
    ),
    Case(
        id="h13-pseudorep-cycling-counter-level-did",
        family=None,
        code=CYCLE_SOUND,
        setup=CYCLE_SETUP,
        twin="h13-pseudorep-cycling-hourly-did-ols",
        note="Hourly counts are collapsed to one pre/post change per counter and lane vs "
             "no-lane counters compared with n=12.",
        split=SPLIT,
    ),
]
