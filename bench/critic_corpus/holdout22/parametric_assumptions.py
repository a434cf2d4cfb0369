from bench.critic_corpus import Case

_FLAT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7331)
n = 125
# flatness of machined valve plates from the CMM, one-sided spec (USL only), bounded at 0
df_flat = pd.DataFrame({
    "part_sn": [f"VP-{41000 + i}" for i in range(n)],
    "meas_ts": pd.date_range("2024-05-06 06:00", periods=n, freq="37min"),
    "fixture": rng.choice(["FX1", "FX2"], n),
    "flatness_um": rng.lognormal(np.log(15), 0.55, n).round(1),
})
USL_UM = 60.0
'''

_FLAT_FLAWED = '''
from scipy import stats

x = df_flat.flatness_um.to_numpy()
mu, sd = x.mean(), x.std(ddof=1)
ppu = (USL_UM - mu) / (3 * sd)
ppm = 1e6 * stats.norm.sf(USL_UM, loc=mu, scale=sd)

print(f"n = {len(x)}, mean = {mu:.2f} um, s = {sd:.2f} um, max = {x.max():.1f} um")
print(f"Ppk (upper, USL {USL_UM:.0f} um) = {ppu:.2f}")
print(f"expected fraction above USL = {ppm:.0f} ppm")
print("capable (Ppk >= 1.33) -> release to reduced inspection" if ppu >= 1.33
      else "not capable")
'''

_FLAT_SOUND = '''
from scipy import stats

x = df_flat.flatness_um.to_numpy()
w, p_sw = stats.shapiro(x)
print(f"n = {len(x)}, skew = {stats.skew(x):.2f}, Shapiro-Wilk p = {p_sw:.2g}")

# flatness is bounded at 0 and right-skewed -> fit a lognormal instead of normal theory
shape, loc, scale = stats.lognorm.fit(x, floc=0)
_, p_ln = stats.shapiro(np.log(x))
print(f"lognormal fit: median = {scale:.2f} um, sigma_log = {shape:.3f}, "
      f"Shapiro p on log(x) = {p_ln:.2f}")
ppm = 1e6 * stats.lognorm.sf(USL_UM, shape, loc=0, scale=scale)
# percentile (ISO 22514-2 style) index: (USL - median) / (P99.865 - median)
p99865 = stats.lognorm.ppf(0.99865, shape, loc=0, scale=scale)
ppu = (USL_UM - scale) / (p99865 - scale)
print(f"Ppk (upper, percentile method, USL {USL_UM:.0f} um) = {ppu:.2f}")
print(f"expected fraction above USL = {ppm:.0f} ppm")
print("capable (Ppk >= 1.33) -> release to reduced inspection" if ppu >= 1.33
      else "not capable")
'''

_PART_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1268)
med = {"REC-A": 40, "REC-B": 38, "REC-C": 12, "REC-D": 44}
rows = []
for rec, m in med.items():
    for i in range(6):
        rows.append({"recipe": rec, "run": f"{rec}-{i + 1}",
                     "adders_gt45nm": int(round(rng.lognormal(np.log(m), 0.9)))})
df_pc = pd.DataFrame(rows)
'''

_PART_FLAWED = '''
from scipy import stats

g = {rec: d.adders_gt45nm.to_numpy() for rec, d in df_pc.groupby("recipe")}
print(df_pc.groupby("recipe").adders_gt45nm.agg(["count", "mean", "std"]).round(1))
F, p = stats.f_oneway(*g.values())
print(f"one-way ANOVA on particle adders: F = {F:.2f}, p = {p:.3f}")
if p > 0.05:
    print("no significant recipe effect -> standardise on REC-A (shortest chamber clean)")
'''

_PART_SOUND = '''
from scipy import stats

g = {rec: d.adders_gt45nm.to_numpy() for rec, d in df_pc.groupby("recipe")}
print(df_pc.groupby("recipe").adders_gt45nm.agg(["count", "median", "min", "max"]))
# 6 runs per recipe, counts heavily right-skewed -> rank-based test
H, p = stats.kruskal(*g.values())
print(f"Kruskal-Wallis on particle adders: H = {H:.2f}, p = {p:.3f}")
if p > 0.05:
    print("no significant recipe effect -> standardise on REC-A (shortest chamber clean)")
else:
    print("recipes differ in particle adders -> review REC-C before standardising")
'''

CASES: list[Case] = [
    Case(
        id="h22-parametric-flatness-normal-ppk",
        family="parametric_assumptions",
        code=_FLAT_FLAWED,
        setup=_FLAT_SETUP,
        twin="h22-parametric-flatness-normal-ppk-sound",
        note="normal-theory Ppk and ppm on right-skewed, zero-bounded flatness data; the normal "
             "tail badly understates parts above USL and the capability call depends on it",
        split="holdout22",
    ),
    Case(
        id="h22-parametric-flatness-normal-ppk-sound",
        family=None,
        code=_FLAT_SOUND,
        setup=_FLAT_SETUP,
        twin="h22-parametric-flatness-normal-ppk",
        note="checks normality, fits a lognormal and uses the percentile capability index",
        split="holdout22",
    ),
    Case(
        id="h22-parametric-particle-anova-tiny-skewed",
        family="parametric_assumptions",
        code=_PART_FLAWED,
        setup=_PART_SETUP,
        twin="h22-parametric-particle-anova-tiny-skewed-sound",
        note="one-way ANOVA on 6 heavily skewed particle counts per recipe; outliers inflate "
             "the within variance and the 'no effect' decision rests on the invalid F-test",
        split="holdout22",
    ),
    Case(
        id="h22-parametric-particle-anova-tiny-skewed-sound",
        family=None,
        code=_PART_SOUND,
        setup=_PART_SETUP,
        twin="h22-parametric-particle-anova-tiny-skewed",
        note="Kruskal-Wallis on the small skewed count samples, medians reported",
        split="holdout22",
    ),
]
