from bench.critic_corpus import Case

_HOUSING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3713)
housing_types = ["cubicle", "pasture_based", "straw_yard", "tie_stall"]
mean_prev = {"cubicle": 0.29, "pasture_based": 0.14, "straw_yard": 0.18, "tie_stall": 0.24}
housing = rng.choice(housing_types, 84, p=[0.45, 0.2, 0.15, 0.2])
herd_size = np.where(housing == "cubicle", rng.normal(180, 60, 84), rng.normal(95, 35, 84))
farms = pd.DataFrame({
    "farm_id": [f"NZ{i:03d}" for i in range(84)],
    "housing": housing,
    "herd_size": herd_size.clip(25, None).round(),
    "grazing_days": np.where(housing == "pasture_based", rng.normal(290, 25, 84),
                             rng.normal(120, 60, 84).clip(0, None)).round(),
    "cows_scored": rng.integers(40, 120, 84),
})
p = np.array([mean_prev[h] for h in housing])
farms["lame_cows"] = rng.binomial(farms.cows_scored, rng.beta(p * 20, (1 - p) * 20))
farms["lame_prev_pct"] = (100 * farms.lame_cows / farms.cows_scored).round(1)
'''

_THERMO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3714)
n = 64
rectal = rng.normal(38.7, 0.7, n).clip(37.2, 41.0)
# infrared auricular reading: reads low, and compresses the range in febrile dogs
ir_ear = 15.6 + 0.59 * rectal + rng.normal(0, 0.18, n)
temps = pd.DataFrame({"dog_id": [f"K9-{i:03d}" for i in range(n)],
                      "rectal_c": rectal.round(1), "ir_ear_c": ir_ear.round(1)})
'''

CASES = [
    Case(
        id="h37-corr-housing-catcodes",
        family="correlation_misuse",
        twin="h37-corr-housing-kruskal",
        setup=_HOUSING_SETUP,
        code='''from scipy.stats import pearsonr

farms["housing_code"] = farms["housing"].astype("category").cat.codes
print(dict(enumerate(farms["housing"].astype("category").cat.categories)))

cols = ["lame_prev_pct", "housing_code", "herd_size", "grazing_days"]
print(farms[cols].corr().round(2))

r, p = pearsonr(farms.housing_code, farms.lame_prev_pct)
print(f"\\nhousing vs lameness prevalence: r = {r:.2f}, P = {p:.3f} (n = {len(farms)} farms)")
''',
        note="Pearson r is computed on arbitrary category codes of a nominal housing variable; "
             "its sign and size depend on the alphabetical coding, not on housing.",
        split="holdout37",
    ),
    Case(
        id="h37-corr-housing-kruskal",
        family=None,
        twin="h37-corr-housing-catcodes",
        setup=_HOUSING_SETUP,
        code='''from scipy.stats import kruskal

# housing is nominal: compare the farm-level prevalence distributions across types
by_type = farms.groupby("housing")["lame_prev_pct"]
print(by_type.agg(farms="count", median="median",
                  q1=lambda s: s.quantile(0.25), q3=lambda s: s.quantile(0.75)).round(1))

h, p = kruskal(*[g.values for _, g in by_type])
eps2 = (h - farms.housing.nunique() + 1) / (len(farms) - farms.housing.nunique())
print(f"\\nKruskal-Wallis across housing types: H = {h:.2f}, P = {p:.4f}, "
      f"epsilon^2 = {eps2:.2f} (n = {len(farms)} farms)")
''',
        note="Nominal housing type is handled as groups: farm-level prevalence compared with a "
             "Kruskal-Wallis test and an effect size, with per-type medians shown.",
        split="holdout37",
    ),
    Case(
        id="h37-corr-thermometer-pearson-agreement",
        family="correlation_misuse",
        twin="h37-corr-thermometer-bland-altman",
        setup=_THERMO_SETUP,
        code='''import matplotlib.pyplot as plt
from scipy import stats

r, p = stats.pearsonr(temps.rectal_c, temps.ir_ear_c)
fit = stats.linregress(temps.rectal_c, temps.ir_ear_c)

fig, ax = plt.subplots(figsize=(4.5, 4.5))
ax.scatter(temps.rectal_c, temps.ir_ear_c, s=18)
xs = np.linspace(temps.rectal_c.min(), temps.rectal_c.max(), 10)
ax.plot(xs, fit.intercept + fit.slope * xs, color="k")
ax.set_xlabel("rectal (deg C)")
ax.set_ylabel("IR ear (deg C)")
ax.set_title(f"r = {r:.2f}")
plt.tight_layout()

print(f"n = {len(temps)} dogs; Pearson r = {r:.3f} (P = {p:.2g}), R2 = {fit.rvalue ** 2:.3f}")
print("=> the infrared ear thermometer agrees closely with rectal temperature "
      "and can replace it at triage")
''',
        note="Agreement between two thermometers is judged by Pearson r, which ignores the "
             "systematic under-reading and the range compression of the IR device.",
        split="holdout37",
    ),
    Case(
        id="h37-corr-thermometer-bland-altman",
        family=None,
        twin="h37-corr-thermometer-pearson-agreement",
        setup=_THERMO_SETUP,
        code='''import matplotlib.pyplot as plt
from scipy import stats

# method comparison: Bland-Altman bias and limits of agreement, plus proportional bias check
diff = temps.ir_ear_c - temps.rectal_c
mean_pair = (temps.ir_ear_c + temps.rectal_c) / 2
bias, sd = diff.mean(), diff.std(ddof=1)
loa = (bias - 1.96 * sd, bias + 1.96 * sd)
prop = stats.linregress(mean_pair, diff)

fig, ax = plt.subplots(figsize=(5, 4))
ax.scatter(mean_pair, diff, s=18)
for y, ls in [(bias, "-"), (loa[0], "--"), (loa[1], "--")]:
    ax.axhline(y, color="k", linestyle=ls)
ax.set_xlabel("mean of methods (deg C)")
ax.set_ylabel("IR ear - rectal (deg C)")
plt.tight_layout()

print(f"n = {len(temps)} dogs; bias = {bias:.2f} C, 95% limits of agreement "
      f"{loa[0]:.2f} to {loa[1]:.2f} C")
print(f"proportional bias: slope of difference on mean = {prop.slope:.2f} (P = {prop.pvalue:.2g})")
''',
        note="Agreement is assessed with Bland-Altman bias, limits of agreement and a "
             "proportional-bias check, not with a correlation coefficient.",
        split="holdout37",
    ),
]
