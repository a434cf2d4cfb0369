from bench.critic_corpus import Case

_ESSAY_SETUP = """\
import numpy as np
import pandas as pd

# two Y11 English teachers independently mark the same 45 mock essays (0-20)
rng = np.random.default_rng(5151)
quality = rng.normal(12, 3.2, size=45)
essays = pd.DataFrame({
    "essay": [f"E{i:03d}" for i in range(1, 46)],
    "teacher_A": np.clip(np.round(quality + rng.normal(0, 1.0, 45)), 0, 20),
    "teacher_B": np.clip(np.round(0.8 * quality - 0.6 + rng.normal(0, 0.9, 45)), 0, 20),
})
essays.head()
"""

_STUDENTS_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(808)
n = 380
CODEBOOK = {
    "first_lang": {1: "English", 2: "Mandarin", 3: "Arabic", 4: "Spanish", 5: "Hindi"},
    "programme": {1: "Psychology", 2: "Education", 3: "Business", 4: "Engineering"},
}
first_lang = rng.choice([1, 2, 3, 4, 5], p=[.52, .18, .10, .08, .12], size=n)
programme = rng.choice([1, 2, 3, 4], p=[.3, .25, .25, .2], size=n)
year = rng.choice([1, 2, 3], size=n)
reading_hrs = np.round(rng.gamma(3, 2.2, size=n), 1)
lang_effect = np.array([0, -4.5, -6.0, -1.5, -2.0])[first_lang - 1]
prog_effect = np.array([1.5, 2.0, -1.0, -1.5])[programme - 1]
students = pd.DataFrame({
    "student": [f"U{23000 + i}" for i in range(n)],
    "first_lang": first_lang,
    "programme": programme,
    "year": year,
    "reading_hrs_wk": reading_hrs,
    "acad_reading": np.round(60 + lang_effect + prog_effect + 0.6 * reading_hrs
                             + 2 * (year - 2) + rng.normal(0, 8, n), 1),
})
students.head()
"""

CASES: list[Case] = [
    Case(
        id="h21-correlation-misuse-essay-raters-pearson-agreement",
        family="correlation_misuse",
        setup=_ESSAY_SETUP,
        code="""\
from scipy import stats

r, p = stats.pearsonr(essays["teacher_A"], essays["teacher_B"])
print(f"Inter-rater agreement: r({len(essays) - 2}) = {r:.2f}, p < .001" if p < .001
      else f"Inter-rater agreement: r = {r:.2f}, p = {p:.3f}")
print("Agreement between markers was excellent, so the two marks were averaged.")

essays["mark"] = essays[["teacher_A", "teacher_B"]].mean(axis=1)
essays[["teacher_A", "teacher_B", "mark"]].describe().round(2)
""",
        twin="h21-correlation-misuse-essay-raters-icc",
        note="Pearson r is reported as 'excellent agreement', but teacher B marks about three "
             "points lower; correlation ignores that systematic disagreement.",
        split="holdout21",
    ),
    Case(
        id="h21-correlation-misuse-essay-raters-icc",
        family=None,
        setup=_ESSAY_SETUP,
        code="""\
from scipy import stats

ratings = essays[["teacher_A", "teacher_B"]].to_numpy()
n, k = ratings.shape
grand = ratings.mean()
ss_rows = k * ((ratings.mean(axis=1) - grand) ** 2).sum()
ss_cols = n * ((ratings.mean(axis=0) - grand) ** 2).sum()
ss_err = ((ratings - grand) ** 2).sum() - ss_rows - ss_cols
msr, msc, mse = ss_rows / (n - 1), ss_cols / (k - 1), ss_err / ((n - 1) * (k - 1))
# ICC(2,1): two-way random effects, absolute agreement, single rater
icc = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)

diff = essays["teacher_A"] - essays["teacher_B"]
t, p = stats.ttest_rel(essays["teacher_A"], essays["teacher_B"])
loa = diff.mean() + np.array([-1.96, 1.96]) * diff.std()
print(f"ICC(2,1) absolute agreement = {icc:.2f}")
print(f"Mean difference A - B = {diff.mean():.2f} marks, t({n - 1}) = {t:.2f}, p = {p:.3g}; "
      f"95% limits of agreement [{loa[0]:.1f}, {loa[1]:.1f}]")
print("Teacher B marks systematically lower; moderation is needed before averaging.")
essays[["teacher_A", "teacher_B"]].describe().round(2)
""",
        twin="h21-correlation-misuse-essay-raters-pearson-agreement",
        note="Agreement is assessed with an absolute-agreement ICC plus the mean difference and "
             "Bland-Altman limits, which expose teacher B's systematic harshness.",
        split="holdout21",
    ),
    Case(
        id="h21-correlation-misuse-reading-corr-matrix-codes",
        family="correlation_misuse",
        setup=_STUDENTS_SETUP,
        code="""\
cols = ["acad_reading", "first_lang", "programme", "year", "reading_hrs_wk"]
R = students[cols].corr().round(2)

print("Correlates of academic reading score (Pearson r):")
for c in cols[1:]:
    print(f"  {c:15s} r = {R.loc['acad_reading', c]:+.2f}")
print("Reading scores decline with first language (r = "
      f"{R.loc['acad_reading', 'first_lang']:.2f}) and with programme "
      f"(r = {R.loc['acad_reading', 'programme']:.2f}).")
R
""",
        twin="h21-correlation-misuse-reading-eta-for-categories",
        note="first_lang and programme are nominal codes (1 = English, 2 = Mandarin ...); "
             "Pearson r on those arbitrary codes is meaningless yet reported as a trend.",
        split="holdout21",
    ),
    Case(
        id="h21-correlation-misuse-reading-eta-for-categories",
        family=None,
        setup=_STUDENTS_SETUP,
        code="""\
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy import stats

rho, p_rho = stats.spearmanr(students["year"], students["acad_reading"])
r, p_r = stats.pearsonr(students["reading_hrs_wk"], students["acad_reading"])
print("Numeric correlates of academic reading score:")
print(f"  year of study       Spearman rho = {rho:+.2f}, p = {p_rho:.3g}")
print(f"  reading hrs / week  Pearson r    = {r:+.2f}, p = {p_r:.3g}")

# first language and programme are nominal: compare group means, report eta^2
rows = []
for c in ["first_lang", "programme"]:
    df = students.assign(group=students[c].map(CODEBOOK[c]))
    aov = sm.stats.anova_lm(smf.ols("acad_reading ~ C(group)", data=df).fit(), typ=2)
    eta2 = aov.loc["C(group)", "sum_sq"] / aov["sum_sq"].sum()
    rows.append({"factor": c, "F": aov.loc["C(group)", "F"],
                 "df": f"{aov.loc['C(group)', 'df']:.0f}, {aov.loc['Residual', 'df']:.0f}",
                 "p": aov.loc["C(group)", "PR(>F)"], "eta_sq": eta2})
print(pd.DataFrame(rows).round(3).to_string(index=False))
(students.assign(first_lang=students.first_lang.map(CODEBOOK["first_lang"]))
 .groupby("first_lang")["acad_reading"].agg(["count", "mean", "std"]).round(1))
""",
        twin="h21-correlation-misuse-reading-corr-matrix-codes",
        note="Nominal first language and programme are analysed as categories (ANOVA, eta "
             "squared, group means); correlation is used only for numeric/ordinal variables.",
        split="holdout21",
    ),
]
