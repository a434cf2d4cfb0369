from bench.critic_corpus import Case

_POT_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
recs = []
for trt, shift in [("control", 0.0), ("seaweed_extract", 0.12)]:
    for pot in range(1, 6):
        pot_eff = rng.normal(0, 0.45)        # bench position, watering, pot-to-pot variation
        for plant in range(1, 9):
            recs.append({"treatment": trt, "pot": f"{trt[:3].upper()}-{pot}", "plant": plant,
                         "shoot_dw_g": round(3.1 + shift + pot_eff + rng.normal(0, 0.3), 3)})
gh = pd.DataFrame(recs)
gh.groupby(["treatment", "pot"])["shoot_dw_g"].mean().round(2).unstack(0)
"""

_NDVI_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
flights = pd.date_range("2024-09-20", periods=8, freq="10D")
covers = {"oat": 0.0, "vetch": 0.015, "oat+vetch": 0.03}
recs = []
for block in range(1, 5):
    blk = rng.normal(0, 0.03)
    for cover, eff in covers.items():
        plot_eff = rng.normal(0, 0.045)
        for i, d in enumerate(flights):
            growth = 0.25 + 0.07 * i - 0.004 * i ** 2
            recs.append({"plot": f"{block}{list(covers).index(cover) + 1:02d}", "block": block,
                         "cover": cover, "flight_date": d.date().isoformat(),
                         "ndvi": round(growth + eff + blk + plot_eff + rng.normal(0, 0.02), 3)})
uav = pd.DataFrame(recs)
uav.head()
"""

CASES: list[Case] = [
    Case(
        id="h27-pseudoreplication-greenhouse-plants-as-reps",
        family="pseudoreplication",
        setup=_POT_SETUP,
        code="""
from scipy import stats

ctrl = gh.loc[gh["treatment"] == "control", "shoot_dw_g"]
bio = gh.loc[gh["treatment"] == "seaweed_extract", "shoot_dw_g"]
t, p = stats.ttest_ind(bio, ctrl)
gain = 100 * (bio.mean() / ctrl.mean() - 1)
print(f"control: {ctrl.mean():.2f} g (n={len(ctrl)}), seaweed: {bio.mean():.2f} g (n={len(bio)})")
print(f"shoot DW +{gain:.1f}%, t({len(ctrl) + len(bio) - 2}) = {t:.2f}, p = {p:.4f}")
""",
        twin="h27-pseudoreplication-greenhouse-pot-means",
        note="The 40 plants per treatment come from 5 pots each; treatment was applied per pot "
             "and plants share a pot, so testing plants as independent reps inflates the df "
             "and understates p.",
        split="holdout27",
    ),
    Case(
        id="h27-pseudoreplication-greenhouse-pot-means",
        family=None,
        setup=_POT_SETUP,
        code="""
from scipy import stats

# the biostimulant was applied per pot -> the pot is the experimental unit
pots = gh.groupby(["treatment", "pot"], as_index=False)["shoot_dw_g"].mean()
ctrl = pots.loc[pots["treatment"] == "control", "shoot_dw_g"]
bio = pots.loc[pots["treatment"] == "seaweed_extract", "shoot_dw_g"]
t, p = stats.ttest_ind(bio, ctrl)
gain = 100 * (bio.mean() / ctrl.mean() - 1)
print(f"control: {ctrl.mean():.2f} g (n={len(ctrl)} pots), "
      f"seaweed: {bio.mean():.2f} g (n={len(bio)} pots)")
print(f"shoot DW +{gain:.1f}%, t({len(ctrl) + len(bio) - 2}) = {t:.2f}, p = {p:.4f}")
""",
        twin="h27-pseudoreplication-greenhouse-plants-as-reps",
        note="Plants are averaged within pots and the t-test uses the 5 pots per treatment, the "
             "unit to which the treatment was applied.",
        split="holdout27",
    ),
    Case(
        id="h27-pseudoreplication-cover-crop-ndvi-flights",
        family="pseudoreplication",
        setup=_NDVI_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

m = smf.ols("ndvi ~ C(cover, Treatment('oat')) + C(flight_date)", data=uav).fit()
print(f"n = {int(m.nobs)} plot-flights, residual df = {int(m.df_resid)}")
eff = pd.DataFrame({"coef": m.params, "se": m.bse, "p": m.pvalues}).filter(like="cover", axis=0)
print(eff.round(4))
aov = anova_lm(m, typ=2)
print(f"cover crop effect on NDVI: F = {aov.iloc[0]['F']:.2f}, p = {aov.iloc[0]['PR(>F)']:.4f}")
""",
        twin="h27-pseudoreplication-cover-crop-ndvi-plot-means",
        note="Eight drone flights over the same 12 plots are analysed as 96 independent "
             "observations; the repeated measures per plot inflate the df for the cover-crop "
             "comparison.",
        split="holdout27",
    ),
    Case(
        id="h27-pseudoreplication-cover-crop-ndvi-plot-means",
        family=None,
        setup=_NDVI_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

# cover crops were allocated to plots (RCBD, 4 blocks): average the 8 flights within each plot
plot_means = uav.groupby(["plot", "block", "cover"], as_index=False)["ndvi"].mean()
m = smf.ols("ndvi ~ C(cover, Treatment('oat')) + C(block)", data=plot_means).fit()
print(f"n = {int(m.nobs)} plots, residual df = {int(m.df_resid)}")
eff = pd.DataFrame({"coef": m.params, "se": m.bse, "p": m.pvalues}).filter(like="cover", axis=0)
print(eff.round(4))
aov = anova_lm(m, typ=2)
print(f"cover crop effect on NDVI: F = {aov.iloc[0]['F']:.2f}, p = {aov.iloc[0]['PR(>F)']:.4f}")
""",
        twin="h27-pseudoreplication-cover-crop-ndvi-flights",
        note="The flights are averaged within each plot and cover crops compared on the 12 plot "
             "means with blocks in the model, so the plot is the replicate.",
        split="holdout27",
    ),
]
