from bench.critic_corpus import Case

_PHENO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1871)
yrs = np.arange(1971, 2024)
ar = np.zeros(len(yrs))
for i in range(1, len(yrs)):
    ar[i] = 0.3 * ar[i - 1] + rng.normal(0, 5)
bloom = pd.DataFrame({"year": yrs, "first_flower_doy": (132 - 0.22 * (yrs - 1971) + ar).round(0)})
bloom.loc[bloom["year"].isin([1987, 2003]), "first_flower_doy"] = np.nan
'''

_PHENO = '''
import statsmodels.formula.api as smf

d = bloom.dropna()
print(f"years with a record: {len(d)} of {len(bloom)} (missing: "
      f"{bloom.loc[bloom['first_flower_doy'].isna(), 'year'].tolist()})")
fit = smf.ols("first_flower_doy ~ year", data=d).fit(cov_type="HAC", cov_kwds={"maxlags": 2})
ci = fit.conf_int().loc["year"]
pd.DataFrame({
    "days_per_decade": [10 * fit.params["year"]],
    "ci_low": [10 * ci[0]], "ci_high": [10 * ci[1]], "p_hac": [fit.pvalues["year"]],
    "n_years": [int(fit.nobs)],
}).round(3)
'''

_CAM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4711)
n = 80
ct = pd.DataFrame({
    "camera": [f"CAM{i:02d}" for i in range(n)],
    "trail": rng.binomial(1, 0.5, n),
    "dist_water_m": rng.uniform(10, 1500, n).round(0),
    "active_nights": rng.integers(20, 65, n),
})
mu = np.exp(-2.3 + 0.7 * ct["trail"] - 0.0007 * ct["dist_water_m"]) * ct["active_nights"]
ct["bobcat_det"] = rng.negative_binomial(1.5, 1.5 / (1.5 + mu))
'''

_CAM = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

pois = smf.glm("bobcat_det ~ trail + dist_water_m", data=ct, family=sm.families.Poisson(),
               offset=np.log(ct["active_nights"])).fit()
disp = pois.pearson_chi2 / pois.df_resid
print(f"Poisson dispersion = {disp:.2f} -> fitting negative binomial")
nb = smf.negativebinomial("bobcat_det ~ trail + dist_water_m", data=ct,
                          offset=np.log(ct["active_nights"])).fit(disp=0)
ci = nb.conf_int()
tab = pd.DataFrame({"rate_ratio": np.exp(nb.params), "lo": np.exp(ci[0]),
                    "hi": np.exp(ci[1]), "p": nb.pvalues}).drop(index="alpha")
tab.round(4)
'''

_PAN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(9001)
rows = []
for s in range(1, 19):
    site_eff = rng.normal(0, 0.4)
    for rnd in range(1, 6):
        cover = rng.uniform(0, 60)
        lam = np.exp(1.2 + site_eff + 0.025 * cover)
        rows.append({"site": f"M{s:02d}", "round": rnd, "floral_cover_pct": round(cover, 1),
                     "bees": rng.poisson(lam)})
pans = pd.DataFrame(rows)
pans["log_bees"] = np.log1p(pans["bees"])
'''

_PAN = '''
import statsmodels.formula.api as smf

mm = smf.mixedlm("log_bees ~ floral_cover_pct", data=pans, groups=pans["site"]).fit(reml=True)
print(f"{pans['site'].nunique()} meadows x {pans['round'].nunique()} rounds; "
      f"site variance = {mm.cov_re.iloc[0, 0]:.3f}")
ci = mm.conf_int().loc["floral_cover_pct"]
pd.DataFrame({"term": ["floral_cover_pct (per 10%)"],
              "coef_log1p": [10 * mm.params["floral_cover_pct"]],
              "ci_low": [10 * ci[0]], "ci_high": [10 * ci[1]],
              "p": [mm.pvalues["floral_cover_pct"]]}).round(4)
'''

_MOTH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
taxa = [f"moth_{k:02d}" for k in range(60)]
recs = []
for wood, a in {"ancient_oak": 0.5, "plantation": 0.2}.items():
    p = rng.dirichlet(np.full(len(taxa), a))
    for night in range(1, 9):
        c = rng.multinomial(rng.integers(40, 90), p)
        recs += [{"wood": wood, "night": night, "taxon": t, "n": k}
                 for t, k in zip(taxa, c) if k > 0]
catch = pd.DataFrame(recs)
'''

_MOTH = '''
from scipy import stats

def shannon(counts):
    p = counts[counts > 0] / counts.sum()
    return -(p * np.log(p)).sum()

mat = catch.pivot_table(index=["wood", "night"], columns="taxon", values="n",
                        aggfunc="sum", fill_value=0)
nightly = pd.DataFrame({
    "moths": mat.sum(axis=1),
    "richness": (mat > 0).sum(axis=1),
    "H": mat.apply(lambda r: shannon(r.to_numpy()), axis=1),
}).reset_index()
print(nightly.groupby("wood")[["moths", "richness", "H"]].agg(["mean", "std"]).round(2))
oak = nightly.loc[nightly["wood"] == "ancient_oak", "H"].to_numpy()
pla = nightly.loc[nightly["wood"] == "plantation", "H"].to_numpy()
res = stats.permutation_test((oak, pla), lambda a, b: a.mean() - b.mean(),
                             permutation_type="independent", n_resamples=np.inf)
print(f"difference in mean nightly H (oak - plantation) = {res.statistic:.3f}, "
      f"exact permutation p = {res.pvalue:.4f} (8 vs 8 trap-nights)")
'''

_EXO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6060)
ts = pd.date_range("2023-05-01", "2023-08-31 23:45", freq="15min")
sonde = pd.DataFrame({"timestamp": ts})
doy = sonde["timestamp"].dt.dayofyear.to_numpy()
sonde["wtemp_c"] = (12 + 8 * np.sin(np.pi * (doy - 121) / 123)
                    + rng.normal(0, 0.4, len(ts))).round(2)
sonde["qc_flag"] = "ok"
fouled = (sonde["timestamp"] >= "2023-07-10") & (sonde["timestamp"] < "2023-07-14")
sonde.loc[fouled, "qc_flag"] = "fouled"
sonde.loc[rng.choice(len(ts), 40, replace=False), "qc_flag"] = "spike"
'''

_EXO = '''
s = sonde.copy()
s["month"] = s["timestamp"].dt.to_period("M")
print(s["qc_flag"].value_counts().to_dict())
good = s[s["qc_flag"] == "ok"]
daily = good.set_index("timestamp")["wtemp_c"].resample("D").agg(["mean", "max", "count"])
daily = daily[daily["count"] >= 80]
daily["month"] = daily.index.to_period("M")
out = daily.groupby("month").agg(days=("mean", "size"), mean_c=("mean", "mean"),
                                 max_daily_max_c=("max", "max"),
                                 days_over_18=("max", lambda x: int((x > 18).sum())))
out["days_in_month"] = out.index.days_in_month
out.round(2)
'''

CASES: list[Case] = [
    Case(id="h19-sg-lilac-trend-hac", family=None, code=_PHENO, setup=_PHENO_SETUP,
         split="holdout19",
         note="OLS trend with HAC errors for autocorrelated years; missing years listed"),
    Case(id="h19-sg-bobcat-nb-offset", family=None, code=_CAM, setup=_CAM_SETUP,
         split="holdout19",
         note="overdispersion checked, NB model with effort offset, rate ratios with CIs"),
    Case(id="h19-sg-pantrap-mixedlm", family=None, code=_PAN, setup=_PAN_SETUP,
         split="holdout19",
         note="repeated rounds per meadow handled with a random intercept for site"),
    Case(id="h19-sg-moth-shannon-perm", family=None, code=_MOTH, setup=_MOTH_SETUP,
         split="holdout19",
         note="trap-night is the unit: nightly Shannon H compared by an exact permutation test"),
    Case(id="h19-sg-sonde-monthly-qc", family=None, code=_EXO, setup=_EXO_SETUP,
         split="holdout19",
         note="QC flags counted and excluded openly; days kept need >=80 of 96 readings"),
]
