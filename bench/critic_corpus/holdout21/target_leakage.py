from bench.critic_corpus import Case

_PANEL_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(4410)
n = 520
age = rng.integers(16, 25, size=n)
wemwbs_w1 = np.clip(np.round(rng.normal(47, 8.5, size=n)), 14, 70)
loneliness_w1 = np.clip(np.round(rng.normal(5.5, 1.8, size=n)), 3, 9)
paid_work_hrs = np.where(rng.random(n) < 0.4, 0, np.round(rng.gamma(2, 7, size=n)))
lives_with_parents = rng.binomial(1, 0.55, size=n)
logit = (-0.4 - 0.06 * (wemwbs_w1 - 47) + 0.25 * (loneliness_w1 - 5.5)
         + 0.03 * paid_work_hrs - 0.45 * lives_with_parents)
# number of the four waves each young person completed (wave 1 is baseline)
waves_completed = np.where(rng.random(n) < 1 / (1 + np.exp(-logit)),
                           rng.integers(1, 4, size=n), 4)
panel = pd.DataFrame({
    "pid": [f"YP{5000 + i}" for i in range(n)],
    "age_w1": age,
    "gender": rng.choice(["F", "M", "NB"], p=[0.55, 0.42, 0.03], size=n),
    "wemwbs_w1": wemwbs_w1,
    "loneliness_w1": loneliness_w1,
    "paid_work_hrs_w1": paid_work_hrs,
    "lives_with_parents": lives_with_parents,
    # GBP10 e-voucher per completed wave; some chose to donate theirs to the charity
    "voucher_total_gbp": np.where(rng.random(n) < 0.2, 0, 10 * waves_completed),
    "attrited_by_w4": (waves_completed < 4).astype(int),
})
panel.head()
"""

_COURSE_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n = 312
attendance = np.clip(rng.normal(86, 9, size=n), 40, 100)
homework = np.clip(rng.normal(64, 14, size=n), 0, 100)
prior_gcse = rng.choice([4, 5, 6, 7, 8, 9], p=[.1, .2, .25, .2, .15, .1], size=n)
final_exam = np.clip(18 + 0.18 * attendance + 0.22 * homework + 3.2 * prior_gcse
                     + rng.normal(0, 9, size=n), 0, 100)
coursework = np.clip(0.5 * homework + 30 + rng.normal(0, 8, size=n), 0, 100)
weighted = 0.6 * final_exam + 0.4 * coursework
course_grade = pd.cut(weighted, bins=[-1, 40, 50, 60, 70, 101],
                      labels=["U", "D", "C", "B", "A"])
course = pd.DataFrame({
    "student": [f"A{3100 + i}" for i in range(n)],
    "attendance_pct": attendance.round(1),
    "homework_avg": homework.round(1),
    "prior_gcse": prior_gcse,
    "coursework": coursework.round(1),
    "course_grade": course_grade,
    "final_exam": final_exam.round(1),
})
course.describe().round(1)
"""

CASES: list[Case] = [
    Case(
        id="h21-target-leakage-panel-voucher-total",
        family="target_leakage",
        setup=_PANEL_SETUP,
        code="""\
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score

predictors = ["age_w1", "wemwbs_w1", "loneliness_w1", "paid_work_hrs_w1",
              "lives_with_parents", "voucher_total_gbp"]
X = pd.get_dummies(panel[predictors + ["gender"]], columns=["gender"], drop_first=True)
y = panel["attrited_by_w4"]

rf = RandomForestClassifier(n_estimators=120, min_samples_leaf=3, random_state=1)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
auc = cross_val_score(rf, X, y, cv=cv, scoring="roc_auc")
print(f"Attrition by wave 4: {y.mean():.1%} of {len(y)} young people")
print(f"5-fold CV AUC = {auc.mean():.3f} (SD {auc.std():.3f})")

rf.fit(X, y)
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
""",
        twin="h21-target-leakage-panel-baseline-only",
        note="voucher_total_gbp is paid per completed wave, so it encodes the attrition outcome "
             "itself; the near-perfect CV AUC is not a baseline prediction of dropout.",
        split="holdout21",
    ),
    Case(
        id="h21-target-leakage-panel-baseline-only",
        family=None,
        setup=_PANEL_SETUP,
        code="""\
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_score

# only what is known at the wave-1 interview
predictors = ["age_w1", "wemwbs_w1", "loneliness_w1", "paid_work_hrs_w1",
              "lives_with_parents"]
X = pd.get_dummies(panel[predictors + ["gender"]], columns=["gender"], drop_first=True)
y = panel["attrited_by_w4"]

rf = RandomForestClassifier(n_estimators=120, min_samples_leaf=3, random_state=1)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
auc = cross_val_score(rf, X, y, cv=cv, scoring="roc_auc")
print(f"Attrition by wave 4: {y.mean():.1%} of {len(y)} young people")
print(f"5-fold CV AUC = {auc.mean():.3f} (SD {auc.std():.3f})")

rf.fit(X, y)
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
""",
        twin="h21-target-leakage-panel-voucher-total",
        note="Attrition is predicted from wave-1 baseline measures only, scored by stratified "
             "5-fold CV; no feature is recorded after the outcome.",
        split="holdout21",
    ),
    Case(
        id="h21-target-leakage-exam-course-grade",
        family="target_leakage",
        setup=_COURSE_SETUP,
        code="""\
import statsmodels.formula.api as smf

m = smf.ols("final_exam ~ attendance_pct + homework_avg + prior_gcse + C(course_grade)",
            data=course).fit()
print(f"N = {int(m.nobs)}, R2 = {m.rsquared:.2f}, adj. R2 = {m.rsquared_adj:.2f}, "
      f"F({int(m.df_model)}, {int(m.df_resid)}) = {m.fvalue:.1f}")

table = pd.DataFrame({"b": m.params, "SE": m.bse, "t": m.tvalues, "p": m.pvalues})
for term in ["attendance_pct", "homework_avg", "prior_gcse"]:
    b, p = m.params[term], m.pvalues[term]
    print(f"{term}: b = {b:.2f}, p {'< .001' if p < .001 else '= ' + f'{p:.3f}'[1:]}")
table.round(3)
""",
        twin="h21-target-leakage-exam-no-course-grade",
        note="course_grade is banded from 0.6*final_exam + 0.4*coursework, so the outcome sits "
             "inside a predictor; R2 is inflated and the other coefficients are distorted.",
        split="holdout21",
    ),
    Case(
        id="h21-target-leakage-exam-no-course-grade",
        family=None,
        setup=_COURSE_SETUP,
        code="""\
import statsmodels.formula.api as smf

# course_grade is partly made of the exam mark, so it stays out of the model
m = smf.ols("final_exam ~ attendance_pct + homework_avg + prior_gcse", data=course).fit()
print(f"N = {int(m.nobs)}, R2 = {m.rsquared:.2f}, adj. R2 = {m.rsquared_adj:.2f}, "
      f"F({int(m.df_model)}, {int(m.df_resid)}) = {m.fvalue:.1f}")

table = pd.DataFrame({"b": m.params, "SE": m.bse, "t": m.tvalues, "p": m.pvalues})
for term in ["attendance_pct", "homework_avg", "prior_gcse"]:
    b, p = m.params[term], m.pvalues[term]
    print(f"{term}: b = {b:.2f}, p {'< .001' if p < .001 else '= ' + f'{p:.3f}'[1:]}")
table.round(3)
""",
        twin="h21-target-leakage-exam-course-grade",
        note="The exam mark is modelled from attendance, homework and prior GCSE only, all "
             "measured before the exam; no predictor is derived from the outcome.",
        split="holdout21",
    ),
]
