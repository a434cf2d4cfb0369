from bench.critic_corpus import Case

_DRIVERS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290801)
n = 2400
depts = ["Customer Service", "Engineering", "Finance", "HR", "Legal", "Operations", "Sales"]
dept_rate = {"Customer Service": 0.27, "Engineering": 0.09, "Finance": 0.08, "HR": 0.10,
             "Legal": 0.07, "Operations": 0.11, "Sales": 0.26}
hr = pd.DataFrame({
    "employee_id": [f"E{400000 + i}" for i in range(n)],
    "department": rng.choice(depts, n, p=[0.2, 0.18, 0.1, 0.05, 0.04, 0.18, 0.25]),
    "education_field": rng.choice(["Business", "Humanities", "Life Sciences", "STEM",
                                   "Other"], n),
    "marital_status": rng.choice(["Divorced", "Married", "Single"], n, p=[0.15, 0.5, 0.35]),
    "business_travel": rng.choice(["Non-Travel", "Travel_Frequently", "Travel_Rarely"], n,
                                  p=[0.2, 0.2, 0.6]),
    "age": rng.integers(20, 62, n),
    "pay_ratio_to_market": np.round(rng.normal(1.0, 0.1, n), 3),
    "overtime_hrs_month": np.round(rng.gamma(1.5, 6, n), 1),
})
p = hr.department.map(dept_rate) + 0.6 * (1.0 - hr.pay_ratio_to_market).clip(-0.3, 0.3)
p = p + 0.05 * (hr.marital_status == "Single")
hr["attrited"] = (rng.random(n) < p.clip(0.01, 0.95)).astype(int)
'''

_RATINGS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290802)
n = 420
true_perf = rng.normal(0, 1, n)
mgr_rating = np.clip(np.round(3.0 + 0.9 * true_perf + rng.normal(0, 0.35, n)), 1, 5)
# self-ratings track the manager's view but sit about a point higher (leniency)
self_rating = np.clip(np.round(3.0 + 0.9 * true_perf + 0.9 + rng.normal(0, 0.35, n)), 1, 5)
reviews = pd.DataFrame({
    "employee_id": [f"E{600000 + i}" for i in range(n)],
    "business_unit": rng.choice(["Retail", "Corporate", "Digital"], n, p=[0.5, 0.3, 0.2]),
    "self_rating": self_rating.astype(int),
    "manager_rating": mgr_rating.astype(int),
})
'''

CASES: list[Case] = [
    Case(
        id="h29-corr-attrition-drivers-category-codes",
        family="correlation_misuse",
        setup=_DRIVERS_SETUP,
        code='''
drivers = hr.drop(columns="employee_id").copy()
cat_cols = drivers.select_dtypes(exclude="number").columns.tolist()
for col in cat_cols:
    drivers[col] = drivers[col].astype("category").cat.codes   # label-encode for corr()

corr_with_exit = drivers.corr()["attrited"].drop("attrited")
ranked = corr_with_exit.reindex(corr_with_exit.abs().sort_values(ascending=False).index)
print("Correlation with attrition (Pearson):")
print(ranked.round(3).to_string())
print(f"\\nDepartment r = {ranked['department']:.3f} -> department is not a driver of "
      f"attrition; focus retention budget on pay.")
''',
        twin="h29-corr-attrition-drivers-cramers-v",
        note="Nominal department/education/marital/travel labels are turned into arbitrary "
             "integer codes and Pearson-correlated with attrition; department's near-zero r is "
             "an artefact of alphabetical coding.",
        split="holdout29",
    ),
    Case(
        id="h29-corr-attrition-drivers-cramers-v",
        family=None,
        setup=_DRIVERS_SETUP,
        code='''
from scipy.stats import chi2_contingency, pointbiserialr

cat_cols = hr.select_dtypes(exclude="number").columns.drop("employee_id").tolist()
num_cols = ["age", "pay_ratio_to_market", "overtime_hrs_month"]

rows = []
for col in cat_cols:   # nominal -> chi-square test of independence + Cramer's V
    tab = pd.crosstab(hr[col], hr.attrited)
    chi2, p, dof, _ = chi2_contingency(tab)
    v = np.sqrt(chi2 / (tab.values.sum() * (min(tab.shape) - 1)))
    rows.append({"variable": col, "measure": "Cramer's V", "strength": v, "p": p})
for col in num_cols:   # continuous vs binary outcome -> point-biserial r
    r, p = pointbiserialr(hr.attrited, hr[col])
    rows.append({"variable": col, "measure": "point-biserial r", "strength": r, "p": p})

assoc = pd.DataFrame(rows).sort_values("strength", key=abs, ascending=False)
print("Attrition rate by department:")
print(hr.groupby("department")["attrited"].mean().sort_values(ascending=False).round(3))
assoc.round(4).reset_index(drop=True)
''',
        twin="h29-corr-attrition-drivers-category-codes",
        note="Association of nominal variables with attrition measured by chi-square and "
             "Cramer's V, continuous ones by point-biserial r; no arbitrary codes.",
        split="holdout29",
    ),
    Case(
        id="h29-corr-self-vs-manager-rating-agreement",
        family="correlation_misuse",
        setup=_RATINGS_SETUP,
        code='''
from scipy.stats import pearsonr

r, p = pearsonr(reviews.self_rating, reviews.manager_rating)
print(f"Self vs manager rating: Pearson r = {r:.2f} (p = {p:.1e}, n = {len(reviews)})")
for bu, g in reviews.groupby("business_unit"):
    r_bu, _ = pearsonr(g.self_rating, g.manager_rating)
    print(f"  {bu:<10} r = {r_bu:.2f}")

print("\\nSelf-assessments agree strongly with manager ratings -> propose using the "
      "self-rating as the mid-year rating and skipping the manager calibration step.")
''',
        twin="h29-corr-self-vs-manager-rating-kappa",
        note="Pearson r on 1-5 ordinal ratings is used to claim the two raters agree, though "
             "self-ratings sit about a point above manager ratings; correlation is not "
             "agreement.",
        split="holdout29",
    ),
    Case(
        id="h29-corr-self-vs-manager-rating-kappa",
        family=None,
        setup=_RATINGS_SETUP,
        code='''
from sklearn.metrics import cohen_kappa_score

diff = reviews.self_rating - reviews.manager_rating
kappa_w = cohen_kappa_score(reviews.self_rating, reviews.manager_rating, weights="quadratic")
exact = (diff == 0).mean()
print(f"Self vs manager rating (n = {len(reviews)}): exact agreement {exact:.0%}, "
      f"quadratic-weighted kappa = {kappa_w:.2f}")
print(f"Mean difference (self - manager) = {diff.mean():+.2f} points; "
      f"self rated higher for {(diff > 0).mean():.0%} of employees")
for bu, g in reviews.groupby("business_unit"):
    k = cohen_kappa_score(g.self_rating, g.manager_rating, weights="quadratic")
    exact_bu = (g.self_rating == g.manager_rating).mean()
    print(f"  {bu:<10} weighted kappa = {k:.2f}, exact = {exact_bu:.0%}")
print("Ratings move together but self-ratings run systematically high -> keep calibration.")
pd.crosstab(reviews.manager_rating, reviews.self_rating, margins=True)
''',
        twin="h29-corr-self-vs-manager-rating-agreement",
        note="Agreement between two ordinal raters is measured with exact agreement, weighted "
             "kappa and the mean difference (systematic leniency), plus the full cross-tab.",
        split="holdout29",
    ),
]
