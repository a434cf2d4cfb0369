from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h27-sound-rcbd-oat-variety-anova",
        family=None,
        setup="""
import numpy as np
import pandas as pd

rng = np.random.default_rng(612)
varieties = ["Mascani", "Canyon", "Aspen", "Gerald", "Delfin", "Isabel"]
v_eff = dict(zip(varieties, [0.0, 0.35, -0.2, -0.55, 0.5, 0.1]))
rows = []
for block in range(1, 5):
    b = rng.normal(0, 0.3)
    for v in rng.permutation(varieties):
        rows.append({"block": block, "variety": v,
                     "yield_t_ha": round(7.1 + b + v_eff[v] + rng.normal(0, 0.28), 2)})
oats = pd.DataFrame(rows)
oats.head()
""",
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from scipy import stats

m = smf.ols("yield_t_ha ~ C(variety) + C(block)", data=oats).fit()
aov = anova_lm(m, typ=2)
print(aov.round(4))
print(f"Shapiro on residuals p = {stats.shapiro(m.resid).pvalue:.2f}")

n_rep = oats["block"].nunique()
sed = np.sqrt(2 * m.scale / n_rep)
cv = 100 * np.sqrt(m.scale) / oats["yield_t_ha"].mean()
means = oats.groupby("variety")["yield_t_ha"].mean().sort_values(ascending=False)
print(f"Trial mean {oats['yield_t_ha'].mean():.2f} t/ha, CV = {cv:.1f}%, "
      f"SED = {sed:.3f} (df = {int(m.df_resid)})")
means.round(2)
""",
        note="RCBD oat variety trial analysed with block in the model: F-test for varieties, "
             "residual check, CV% and SED; no post-hoc claims beyond the F-test.",
        split="holdout27",
    ),
    Case(
        id="h27-sound-nitrogen-quadratic-plateau-eonr",
        family=None,
        setup="""
import numpy as np
import pandas as pd

rng = np.random.default_rng(1848)
rates = np.repeat([0, 50, 100, 150, 200, 250], 4)
true = np.where(rates < 170, 5.2 + 0.045 * rates - 0.000132 * rates**2,
                5.2 + 0.045 * 170 - 0.000132 * 170**2)
nresp = pd.DataFrame({"rep": np.tile([1, 2, 3, 4], 6), "n_kg_ha": rates,
                      "yield_t_ha": (true + rng.normal(0, 0.3, rates.size)).round(2)})
nresp.groupby("n_kg_ha")["yield_t_ha"].mean()
""",
        code="""
from scipy.optimize import curve_fit

def quad_plateau(x, a, b, c):
    x0 = -b / (2 * c)                     # join point where the quadratic peaks
    xq = np.minimum(x, x0)
    return a + b * xq + c * xq ** 2

x = nresp["n_kg_ha"].to_numpy(float)
y = nresp["yield_t_ha"].to_numpy(float)
popt, pcov = curve_fit(quad_plateau, x, y, p0=[5, 0.04, -0.0001])
a, b, c = popt
se = np.sqrt(np.diag(pcov))
resid = y - quad_plateau(x, *popt)
r2 = 1 - (resid ** 2).sum() / ((y - y.mean()) ** 2).sum()

# N at 1.10 GBP/kg, grain at 190 GBP/t -> t grain that pays for 1 kg N
price_ratio = 1.10 / 190
eonr = min((price_ratio - b) / (2 * c), -b / (2 * c))
print(f"a = {a:.2f} (SE {se[0]:.2f}), b = {b:.4f} (SE {se[1]:.4f}), c = {c:.6f} (SE {se[2]:.6f})")
print(f"R2 = {r2:.3f}, residual SD = {resid.std(ddof=3):.2f} t/ha, n = {len(y)} plots")
print(f"Agronomic optimum = {-b / (2 * c):.0f} kg N/ha, plateau = {quad_plateau(300, *popt):.2f}")
print(f"Economic optimum (N:grain price ratio {price_ratio * 1000:.1f} kg/kg) = {eonr:.0f} kg N/ha")
""",
        note="Quadratic-plateau N response fitted by nonlinear least squares to the plot data, "
             "with SEs, fit statistics and an economic optimum from the price ratio.",
        split="holdout27",
    ),
    Case(
        id="h27-sound-thermal-time-to-flowering",
        family=None,
        setup="""
import numpy as np
import pandas as pd

rng = np.random.default_rng(90)
days = pd.date_range("2023-10-01", "2024-07-31", freq="D")
doy = np.arange(days.size)
tmean = 9 + 7 * np.cos((doy - 290) / 365 * 2 * np.pi) + rng.normal(0, 2.5, days.size)
met = pd.DataFrame({"date": days, "tmean_c": tmean.round(1)})
sowings = {"S1": "2023-10-05", "S2": "2023-10-26", "S3": "2023-11-20"}
phen = []
for sd, dstr in sowings.items():
    d0 = pd.Timestamp(dstr)
    for plot in range(1, 5):
        tt_target = rng.normal(1450, 35)
        tt = met.loc[met["date"] > d0, "tmean_c"].clip(lower=0).cumsum()
        flw = met.loc[tt.index[tt.ge(tt_target).argmax()], "date"]
        phen.append({"sowing": sd, "sow_date": d0, "plot": f"{sd}-{plot}",
                     "anthesis_date": flw})
pheno = pd.DataFrame(phen)
pheno.head()
""",
        code="""
def thermal_time(start, end, base=0.0):
    window = met[(met["date"] > start) & (met["date"] <= end)]
    return (window["tmean_c"] - base).clip(lower=0).sum()

pheno["days_to_anthesis"] = (pheno["anthesis_date"] - pheno["sow_date"]).dt.days
pheno["tt_to_anthesis"] = [thermal_time(s, e) for s, e in
                           zip(pheno["sow_date"], pheno["anthesis_date"])]
summary = pheno.groupby("sowing").agg(
    n_plots=("plot", "size"),
    days_mean=("days_to_anthesis", "mean"), days_sd=("days_to_anthesis", "std"),
    tt_mean=("tt_to_anthesis", "mean"), tt_sd=("tt_to_anthesis", "std"))
print("Sowing date vs time to anthesis (base 0 degC):")
summary.round(1)
""",
        note="Descriptive thermal-time calculation: degree-days from sowing to anthesis per "
             "plot, summarised by sowing date with n and SD; no inferential claims.",
        split="holdout27",
    ),
    Case(
        id="h27-sound-germination-quasibinomial-glm",
        family=None,
        setup="""
import numpy as np
import pandas as pd

rng = np.random.default_rng(555)
recs = []
for lot, lot_p in [("L21-07", 0.82), ("L22-15", 0.74), ("L23-02", 0.88)]:
    for prime, shift in [("none", 0.0), ("hydro", 0.25), ("KNO3", 0.45)]:
        for dish in range(1, 5):
            lp = np.log(lot_p / (1 - lot_p)) + shift + rng.normal(0, 0.2)
            germ = rng.binomial(50, 1 / (1 + np.exp(-lp)))
            recs.append({"seed_lot": lot, "priming": prime, "dish": dish,
                         "sown": 50, "germinated": germ})
germ = pd.DataFrame(recs)
germ.head()
""",
        code="""
import statsmodels.api as sm
import statsmodels.formula.api as smf

germ["prop"] = germ["germinated"] / germ["sown"]
glm = smf.glm("prop ~ C(priming, Treatment('none')) + C(seed_lot)", data=germ,
              family=sm.families.Binomial(), var_weights=germ["sown"]).fit(scale="X2")
print(f"dispersion (Pearson X2/df) = {glm.pearson_chi2 / glm.df_resid:.2f}, "
      f"scale used = {glm.scale:.2f} -> quasi-binomial SEs")
ors = pd.DataFrame({"OR": np.exp(glm.params), "lo95": np.exp(glm.conf_int()[0]),
                    "hi95": np.exp(glm.conf_int()[1]), "p": glm.pvalues})
print(ors.filter(like="priming", axis=0).round(3))
germ.assign(pct=100 * germ["germinated"] / germ["sown"]).groupby("priming")["pct"].mean().round(1)
""",
        note="Dish-level germination counts modelled with a binomial GLM with seed lot as a "
             "covariate and Pearson-scaled (quasi-binomial) SEs for between-dish "
             "overdispersion.",
        split="holdout27",
    ),
    Case(
        id="h27-sound-split-plot-irrigation-variety",
        family=None,
        setup="""
import numpy as np
import pandas as pd

rng = np.random.default_rng(2112)
rows = []
for block in range(1, 5):
    b = rng.normal(0, 0.25)
    for irr, ieff in [("rainfed", 0.0), ("irrigated", 1.1)]:
        mp = rng.normal(0, 0.3)            # main-plot error
        for var, veff in [("Skyfall", 0.0), ("Extase", 0.3), ("KWS Zyatt", 0.45)]:
            rows.append({"block": block, "irrigation": irr, "variety": var,
                         "yield_t_ha": round(8.0 + b + ieff + mp + veff
                                             + rng.normal(0, 0.22), 2)})
sp = pd.DataFrame(rows)
sp.pivot_table(index=["block", "irrigation"], columns="variety", values="yield_t_ha")
""",
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from scipy import stats

# split-plot: irrigation on main plots (block x irrigation), variety on sub-plots
m = smf.ols("yield_t_ha ~ C(block) + C(irrigation) + C(block):C(irrigation)"
            " + C(variety) + C(irrigation):C(variety)", data=sp).fit()
aov = anova_lm(m)
ms = aov["sum_sq"] / aov["df"]

# irrigation is tested against the main-plot error (block x irrigation), not the residual
err_a = "C(block):C(irrigation)"
f_irr = ms["C(irrigation)"] / ms[err_a]
p_irr = stats.f.sf(f_irr, aov.loc["C(irrigation)", "df"], aov.loc[err_a, "df"])
print(f"Irrigation: F({aov.loc['C(irrigation)', 'df']:.0f},{aov.loc[err_a, 'df']:.0f}) = "
      f"{f_irr:.2f}, p = {p_irr:.4f}")
for term in ["C(variety)", "C(irrigation):C(variety)"]:
    print(f"{term}: F({aov.loc[term, 'df']:.0f},{aov.loc['Residual', 'df']:.0f}) = "
          f"{aov.loc[term, 'F']:.2f}, p = {aov.loc[term, 'PR(>F)']:.4f}")
sp.pivot_table(index="variety", columns="irrigation", values="yield_t_ha").round(2)
""",
        note="Split-plot ANOVA with the correct error strata: irrigation tested against the "
             "block x irrigation main-plot error, variety and interaction against the "
             "sub-plot residual.",
        split="holdout27",
    ),
]
