from bench.critic_corpus import Case

_SWAB_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3320)
# TOC swab residues after cleaning of the granulator bowl, ug/swab
sop_current = np.exp(rng.normal(np.log(4.0), 1.1, 8))
sop_new = np.exp(rng.normal(np.log(1.2), 1.1, 8))
swabs = pd.DataFrame({
    "swab_loc": [f"L{i:02d}" for i in range(1, 9)] * 2,
    "sop": ["SOP-112 rev4"] * 8 + ["SOP-112 rev5"] * 8,
    "toc_ug_per_swab": np.r_[sop_current, sop_new].round(2),
})
'''

_FATIGUE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3325)
# 4-point bend fatigue, Ti-6Al-4V, 550 MPa max stress, R = 0.1; cycles to failure
med = {"as-machined": 9.0e4, "polished": 1.6e5, "shot-peened": 3.0e5}
fat = pd.DataFrame([
    {"finish": f, "specimen": f"{f[:2].upper()}-{i}",
     "Nf_cycles": int(np.exp(rng.normal(np.log(m), 0.75)))}
    for f, m in med.items() for i in range(1, 6)
])
fat
'''

CASES: list[Case] = [
    Case(
        id="h33-parametric-assumptions-swab-toc-ttest-raw",
        family="parametric_assumptions",
        setup=_SWAB_SETUP,
        code='''
from scipy import stats

old = swabs.loc[swabs.sop == "SOP-112 rev4", "toc_ug_per_swab"]
new = swabs.loc[swabs.sop == "SOP-112 rev5", "toc_ug_per_swab"]
print(swabs.groupby("sop")["toc_ug_per_swab"].describe().round(2))

t, p = stats.ttest_ind(old, new)
print(f"\\nStudent t-test: t = {t:.2f}, p = {p:.3f}")
if p < 0.05:
    print("rev5 gives significantly lower TOC residue")
else:
    print("no significant difference between rev4 and rev5 -> keep rev4")
''',
        twin="h33-parametric-assumptions-swab-toc-mannwhitney-sound",
        note="Student t-test on eight right-skewed (lognormal, one huge value) swab residues per "
             "SOP; the 'no difference' verdict rests on a normality assumption that fails.",
        split="holdout33",
    ),
    Case(
        id="h33-parametric-assumptions-swab-toc-mannwhitney-sound",
        family=None,
        setup=_SWAB_SETUP,
        code='''
from scipy import stats

old = swabs.loc[swabs.sop == "SOP-112 rev4", "toc_ug_per_swab"]
new = swabs.loc[swabs.sop == "SOP-112 rev5", "toc_ug_per_swab"]
print(swabs.groupby("sop")["toc_ug_per_swab"].describe().round(2))

# residues are strongly right-skewed with n = 8 per SOP -> rank test, exact p
u, p = stats.mannwhitneyu(old, new, alternative="two-sided", method="exact")
print(f"\\nMann-Whitney U = {u:.0f}, exact p = {p:.4f}")
print(f"median residue: rev4 {old.median():.2f}, rev5 {new.median():.2f} ug/swab")
''',
        twin="h33-parametric-assumptions-swab-toc-ttest-raw",
        note="Skewed residues with n=8 per SOP compared with an exact Mann-Whitney test and "
             "medians, which do not need normality.",
        split="holdout33",
    ),
    Case(
        id="h33-parametric-assumptions-fatigue-life-anova-raw-cycles",
        family="parametric_assumptions",
        setup=_FATIGUE_SETUP,
        code='''
import statsmodels.formula.api as smf
import statsmodels.api as sm

m = smf.ols("Nf_cycles ~ C(finish)", data=fat).fit()
aov = sm.stats.anova_lm(m, typ=2)
print(aov)
print()
print(fat.groupby("finish")["Nf_cycles"].agg(["mean", "std"]).round(0))
print(f"\\nsurface finish effect on fatigue life: p = {aov.loc['C(finish)', 'PR(>F)']:.3f}")
''',
        twin="h33-parametric-assumptions-fatigue-life-anova-log-sound",
        note="One-way ANOVA on raw cycles to failure (n=5 per finish), which are lognormal and "
             "span an order of magnitude with SD growing with the mean; the F-test is invalid.",
        split="holdout33",
    ),
    Case(
        id="h33-parametric-assumptions-fatigue-life-anova-log-sound",
        family=None,
        setup=_FATIGUE_SETUP,
        code='''
import statsmodels.formula.api as smf
import statsmodels.api as sm

# fatigue lives are lognormal (ASTM E739) -> analyse log10(Nf)
fat["logN"] = np.log10(fat["Nf_cycles"])
m = smf.ols("logN ~ C(finish)", data=fat).fit()
aov = sm.stats.anova_lm(m, typ=2)
print(aov)
print()
print(fat.groupby("finish")["logN"].agg(["mean", "std"]).round(3))
print(f"\\nsurface finish effect on log fatigue life: p = {aov.loc['C(finish)', 'PR(>F)']:.3f}")
''',
        twin="h33-parametric-assumptions-fatigue-life-anova-raw-cycles",
        note="ANOVA on log10 cycles to failure, the standard lognormal treatment of fatigue life "
             "(ASTM E739); groups have similar spread on the log scale.",
        split="holdout33",
    ),
]
