from bench.critic_corpus import Case

_MERGE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291001)
n = 1500
bu = rng.choice(["Retail", "Logistics", "Northwind", "Corporate"], n, p=[0.35, 0.25, 0.25, 0.15])
hire_year = rng.integers(2008, 2025, n)
num = rng.choice(np.arange(1000, 99999), n, replace=False)
hris = pd.DataFrame({
    "employee_id": [f"E{k:06d}" for k in num],
    "business_unit": bu,
    "hire_year": hire_year,
    "grade": rng.choice(["G3", "G4", "G5", "G6"], n, p=[0.4, 0.3, 0.2, 0.1]),
})
# Northwind (acquired 2021): people hired before the acquisition kept their legacy
# id format in the survey platform, e.g. "e4512" instead of "E004512"
legacy = (hris.business_unit == "Northwind") & (hris.hire_year < 2021)
survey_ref = np.where(legacy, [f"e{k}" for k in num], hris.employee_id)
responded = rng.random(n) < 0.78
mu = {"Retail": 7.9, "Logistics": 7.4, "Northwind": 7.0, "Corporate": 8.2}
recommend = hris.business_unit.map(mu) - 1.2 * legacy + rng.normal(0, 1.6, n)
recommend = np.clip(np.round(recommend), 0, 10).astype(int)
survey = pd.DataFrame({"emp_ref": survey_ref, "recommend_0_10": recommend,
                       "manager_support_1_5": np.clip(np.round(rng.normal(3.7, 0.9, n)), 1, 5)})
survey = survey[responded].sample(frac=1, random_state=1).reset_index(drop=True)
'''

_COMP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291002)
n = 1100
grades = ["G4", "G5", "G6", "G7", "G8"]
grade = rng.choice(grades, n, p=[0.3, 0.28, 0.2, 0.14, 0.08])
p_female = pd.Series(grade).map({"G4": 0.58, "G5": 0.52, "G6": 0.45, "G7": 0.36, "G8": 0.28})
comp = pd.DataFrame({
    "employee_id": [f"C{i:05d}" for i in range(n)],
    "grade": grade,
    "gender": np.where(rng.random(n) < p_female, "F", "M"),
})
base = comp.grade.map({"G4": 32000, "G5": 41000, "G6": 54000, "G7": 72000, "G8": 98000})
female_senior = (comp.gender == "F") & comp.grade.isin(["G7", "G8"])
salary = np.round(base * np.exp(rng.normal(0, 0.08, n)) * np.where(female_senior, 0.9, 1.0), -2)
# senior offers are keyed in by hand in the HRIS and often come through as "72,400"
manual = comp.grade.isin(["G7", "G8"]) & (rng.random(n) < 0.7)
manual = manual | (rng.random(n) < 0.03)
comp["base_salary"] = [f"{s:,.0f}" if m else f"{s:.0f}" for s, m in zip(salary, manual)]
'''

CASES: list[Case] = [
    Case(
        id="h29-dl-enps-inner-merge-id-mismatch",
        family="data_loss",
        setup=_MERGE_SETUP,
        code='''
df = hris.merge(survey, left_on="employee_id", right_on="emp_ref")

def enps(s):
    return 100 * ((s >= 9).mean() - (s <= 6).mean())

by_bu = df.groupby("business_unit").agg(
    responses=("emp_ref", "size"),
    eNPS=("recommend_0_10", enps),
    manager_support=("manager_support_1_5", "mean"),
)
print(f"Company eNPS: {enps(df.recommend_0_10):+.0f}")
by_bu.round(1).sort_values("eNPS")
''',
        twin="h29-dl-enps-normalised-ids-left-merge",
        note="The inner merge silently drops every Northwind respondent whose survey id has "
             "the legacy 'e4512' format; the least engaged pre-acquisition staff vanish from "
             "the eNPS with no count of unmatched rows.",
        split="holdout29",
    ),
    Case(
        id="h29-dl-enps-normalised-ids-left-merge",
        family=None,
        setup=_MERGE_SETUP,
        code='''
# survey ids come in two formats ("E004512" and legacy Northwind "e4512") -> normalise both
def id_number(s):
    return s.str.upper().str.lstrip("E").astype(int)

hris["id_num"] = id_number(hris.employee_id)
survey["id_num"] = id_number(survey.emp_ref)
df = hris.merge(survey, on="id_num", how="left", indicator=True, validate="one_to_one")
print(df["_merge"].value_counts().to_string())
print(f"survey rows not matched to HRIS: {(~survey.id_num.isin(hris.id_num)).sum()}")

def enps(s):
    return 100 * ((s >= 9).mean() - (s <= 6).mean())

resp = df[df["_merge"] == "both"]
by_bu = df.groupby("business_unit").agg(headcount=("employee_id", "size"),
                                        responses=("emp_ref", "count"))
by_bu["response_rate"] = by_bu.responses / by_bu.headcount
by_bu = by_bu.join(resp.groupby("business_unit").agg(
    eNPS=("recommend_0_10", enps), manager_support=("manager_support_1_5", "mean")))
print(f"Company eNPS: {enps(resp.recommend_0_10):+.0f} ({len(resp)} responses)")
by_bu.round(2).sort_values("eNPS")
''',
        twin="h29-dl-enps-inner-merge-id-mismatch",
        note="Ids are normalised before a left merge with an indicator; matched/unmatched "
             "counts and response rates per business unit are reported.",
        split="holdout29",
    ),
    Case(
        id="h29-dl-pay-gap-coerced-salaries-dropped",
        family="data_loss",
        setup=_COMP_SETUP,
        code='''
comp["base_salary"] = pd.to_numeric(comp["base_salary"], errors="coerce")
comp = comp.dropna(subset=["base_salary"])

med = comp.pivot_table(index="grade", columns="gender", values="base_salary",
                       aggfunc="median")
med["gap_pct"] = 100 * (med["M"] - med["F"]) / med["M"]
overall = comp.groupby("gender").base_salary.agg(["mean", "median"])
gap = 100 * (overall.loc["M"] - overall.loc["F"]) / overall.loc["M"]
print(f"Gender pay gap for the annual report: mean {gap['mean']:.1f}%, "
      f"median {gap['median']:.1f}%")
med.round(1)
''',
        twin="h29-dl-pay-gap-cleaned-salaries",
        note="Salaries typed with thousands separators ('72,400') become NaN and are dropped "
             "without a count; most G7/G8 staff, where the gap sits, disappear from the "
             "pay-gap figures.",
        split="holdout29",
    ),
    Case(
        id="h29-dl-pay-gap-cleaned-salaries",
        family=None,
        setup=_COMP_SETUP,
        code='''
raw = comp["base_salary"].astype(str)
comp["base_salary"] = pd.to_numeric(raw.str.replace(r"[£,\\s]", "", regex=True),
                                    errors="coerce")
bad = comp.base_salary.isna()
print(f"salary values with separators cleaned: {raw.str.contains(',').sum()}; "
      f"still unparseable: {bad.sum()} of {len(comp)}")
assert not bad.any(), raw[bad].head()

med = comp.pivot_table(index="grade", columns="gender", values="base_salary",
                       aggfunc="median")
med["gap_pct"] = 100 * (med["M"] - med["F"]) / med["M"]
med["n"] = comp.groupby("grade").size()
overall = comp.groupby("gender").base_salary.agg(["mean", "median"])
gap = 100 * (overall.loc["M"] - overall.loc["F"]) / overall.loc["M"]
print(f"Gender pay gap for the annual report (all {len(comp)} staff): "
      f"mean {gap['mean']:.1f}%, median {gap['median']:.1f}%")
med.round(1)
''',
        twin="h29-dl-pay-gap-coerced-salaries-dropped",
        note="Thousands separators are stripped before conversion, the number of unparseable "
             "values is checked (zero) and every employee stays in the pay-gap figures.",
        split="holdout29",
    ),
]
