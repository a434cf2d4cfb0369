from bench.critic_corpus import Case

CASES = [
    Case(
        id="h37-sound-lactation-curves-by-parity",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3731)
recs = []
for i in range(150):
    parity = int(rng.integers(1, 7))
    a = rng.normal(19 if parity == 1 else 24, 2.5)
    b, c = 0.20 if parity == 1 else 0.24, 0.0025 if parity == 1 else 0.0040
    dims = np.sort(rng.integers(5, 320, 10))
    # Wood's curve y = a * t^b * exp(-c t) plus test-day noise
    milk = a * dims ** b * np.exp(-c * dims) + rng.normal(0, 2.0, dims.size)
    recs.append(pd.DataFrame({"cow": f"C{i:03d}", "parity": parity, "dim": dims,
                              "milk_kg": milk.round(1)}))
testday = pd.concat(recs, ignore_index=True)
''',
        code='''import matplotlib.pyplot as plt

testday["parity_grp"] = np.where(testday.parity == 1, "1st", np.where(testday.parity == 2,
                                                                        "2nd", "3rd+"))
testday["dim_bin"] = pd.cut(testday.dim, bins=range(0, 331, 30))
curve = (testday.groupby(["parity_grp", "dim_bin"], observed=True)["milk_kg"]
         .agg(["mean", "count"]).reset_index())
table = curve.pivot(index="dim_bin", columns="parity_grp", values="mean").round(1)
print(table)
print("\\ncows per parity group:", testday.groupby("parity_grp")["cow"].nunique().to_dict())

fig, ax = plt.subplots(figsize=(6, 3.5))
for grp, d in curve.groupby("parity_grp"):
    ax.plot([iv.mid for iv in d.dim_bin], d["mean"], marker="o", label=grp)
ax.set_xlabel("days in milk")
ax.set_ylabel("test-day milk (kg)")
ax.legend(title="parity")
plt.tight_layout()
''',
        note="Descriptive lactation curves: test-day means by parity group and 30-day DIM bin "
             "with counts of cows, no inferential claim.",
        split="holdout37",
    ),
    Case(
        id="h37-sound-weaning-weight-ols",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3732)
n = 520
herd = rng.choice(["Ardmore", "Bellfield", "Cairn", "Dunmore", "Eskdale"], n)
herd_eff = {"Ardmore": 0, "Bellfield": 12, "Cairn": -8, "Dunmore": 5, "Eskdale": -15}
sex = rng.choice(["heifer", "steer"], n)
dam_age = rng.choice(["2y", "3y", "4-9y", "10y+"], n, p=[0.15, 0.15, 0.6, 0.1])
dam_eff = {"2y": -22, "3y": -10, "4-9y": 0, "10y+": -6}
birth_wt = rng.normal(38, 4.5, n)
wean = (200 + 14 * (sex == "steer") + np.array([dam_eff[d] for d in dam_age])
        + 1.6 * (birth_wt - 38) + np.array([herd_eff[h] for h in herd])
        + rng.normal(0, 22, n))
# one calf per cow (2023 calf crop), weights adjusted to 205 d
calves = pd.DataFrame({"herd": herd, "sex": sex, "dam_age": dam_age,
                       "birth_wt": birth_wt.round(1), "wean_wt_205": wean.round()})
''',
        code='''import statsmodels.formula.api as smf
from scipy import stats

fit = smf.ols("wean_wt_205 ~ C(sex) + C(dam_age, Treatment('4-9y')) + birth_wt + C(herd)",
              data=calves).fit(cov_type="HC3")
out = pd.concat([fit.params, fit.conf_int(), fit.pvalues], axis=1)
out.columns = ["coef_kg", "lo95", "hi95", "P"]
print(out.round(3))
print(f"\\nn = {int(fit.nobs)} calves, adj. R2 = {fit.rsquared_adj:.3f}")
print(f"residual skewness {stats.skew(fit.resid):.2f}, "
      f"kurtosis {stats.kurtosis(fit.resid):.2f}")
''',
        note="One calf per dam, herd as a fixed effect, robust (HC3) SEs and a residual check: "
             "an ordinary, correctly specified weaning-weight model.",
        split="holdout37",
    ),
    Case(
        id="h37-sound-scc-log-scale",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3733)
n = 640
parity = rng.integers(1, 8, n)
# one SCC per cow from the March milk recording, cells x 1000 / mL
scc = np.exp(rng.normal(np.log(70) + 0.22 * (parity - 1), 1.05, n)).round()
scc_df = pd.DataFrame({"cow": [f"GB{i:05d}" for i in range(n)], "parity": parity,
                       "scc_k": scc.clip(5, None)})
''',
        code='''import matplotlib.pyplot as plt

scc_df["log10_scc"] = np.log10(scc_df.scc_k * 1000)
scc_df["parity_grp"] = pd.cut(scc_df.parity, [0, 1, 2, 20], labels=["1", "2", "3+"])
summary = scc_df.groupby("parity_grp", observed=True).agg(
    cows=("cow", "size"),
    geo_mean_k=("scc_k", lambda s: np.exp(np.log(s).mean())),
    median_k=("scc_k", "median"),
    over_200k_pct=("scc_k", lambda s: 100 * (s > 200).mean()),
)
print(summary.round(1))

fig, ax = plt.subplots(figsize=(5.5, 3.5))
ax.hist(scc_df.log10_scc, bins=30, color="0.6", edgecolor="k")
ax.axvline(np.log10(200_000), color="r", linestyle="--", label="200,000 cells/mL")
ax.set_xlabel("log10 SCC (cells/mL)")
ax.set_ylabel("cows")
ax.legend()
plt.tight_layout()
''',
        note="Right-skewed SCC is summarised on the log scale (geometric mean, median, % over "
             "200k) per parity group, one test per cow.",
        split="holdout37",
    ),
    Case(
        id="h37-sound-cat-overweight-logit",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3734)
n = 680
cats = pd.DataFrame({
    "neutered": rng.binomial(1, 0.82, n),
    "indoor_only": rng.binomial(1, 0.45, n),
    "dry_food_only": rng.binomial(1, 0.38, n),
    "age_y": rng.uniform(1, 15, n).round(1),
    "sex": rng.choice(["F", "M"], n),
})
lin = (-1.7 + 0.9 * cats.neutered + 0.5 * cats.indoor_only + 0.35 * cats.dry_food_only
       + 0.22 * (cats.age_y - 8) - 0.018 * (cats.age_y - 8) ** 2 + 0.3 * (cats.sex == "M"))
# one cat per household, BCS scored by the vet at the annual vaccination visit
cats["overweight"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
''',
        code='''import statsmodels.formula.api as smf

print(f"{len(cats)} cats, {cats.overweight.mean():.1%} overweight (BCS >= 6/9)")
m = smf.logit("overweight ~ neutered + indoor_only + dry_food_only + C(sex)"
              " + age_y + I(age_y ** 2)", data=cats).fit(disp=0)
ors = pd.DataFrame({"OR": np.exp(m.params), "lo95": np.exp(m.conf_int()[0]),
                    "hi95": np.exp(m.conf_int()[1]), "P": m.pvalues}).drop(index="Intercept")
print(ors.round(3))
print(f"events per parameter: {cats.overweight.sum() / (len(m.params) - 1):.0f}")
''',
        note="Logistic regression with one cat per household, pre-specified risk factors, a "
             "quadratic age term, odds ratios with CIs and ample events per parameter.",
        split="holdout37",
    ),
    Case(
        id="h37-sound-broiler-mortality-quasipoisson",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3735)
n = 96
# last completed crop on each farm; deaths = dead + culled to day 35
flocks = pd.DataFrame({
    "farm": [f"BR{i:03d}" for i in range(n)],
    "system": rng.choice(["conventional", "slower_growing"], n, p=[0.6, 0.4]),
    "season": rng.choice(["winter", "summer"], n),
    "placed": rng.integers(18_000, 42_000, n),
})
rate = (0.038 * np.where(flocks.system == "slower_growing", 0.68, 1.0)
        * np.where(flocks.season == "summer", 1.15, 1.0) * rng.gamma(12, 1 / 12, n))
flocks["deaths"] = rng.poisson(rate * flocks.placed)
''',
        code='''import statsmodels.api as sm
import statsmodels.formula.api as smf

flocks["mort_pct"] = 100 * flocks.deaths / flocks.placed
print(flocks.groupby(["system", "season"])["mort_pct"].agg(["count", "median", "mean"])
      .round(2))

# counts of deaths with log(birds placed) offset; Pearson-scaled (quasi-Poisson) for
# between-flock overdispersion
glm = smf.glm("deaths ~ C(system) + C(season)", data=flocks, family=sm.families.Poisson(),
              offset=np.log(flocks.placed)).fit(scale="X2")
rr = pd.DataFrame({"RR": np.exp(glm.params), "lo95": np.exp(glm.conf_int()[0]),
                   "hi95": np.exp(glm.conf_int()[1]), "P": glm.pvalues})
print(rr.round(3))
print(f"dispersion (Pearson chi2 / df): {glm.pearson_chi2 / glm.df_resid:.1f}")
''',
        note="Flock mortality analysed as counts with a log-exposure offset and Pearson-scaled "
             "SEs for overdispersion, one flock per farm; rate ratios with CIs.",
        split="holdout37",
    ),
]
