from bench.critic_corpus import Case

_SURVEY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290501)
n = 1150
depts = ["Operations", "Sales", "Engineering", "Finance", "HR", "Customer Service"]
survey = pd.DataFrame({
    "resp_id": np.arange(1, n + 1),
    "department": rng.choice(depts, n, p=[0.25, 0.2, 0.2, 0.1, 0.07, 0.18]),
})
items = {
    "q01_proud_to_work_here": 3.9, "q02_recommend_employer": 3.6, "q03_clear_goals": 3.8,
    "q04_manager_cares": 3.9, "q05_manager_feedback": 3.5, "q06_recognition": 3.2,
    "q07_workload_manageable": 3.3, "q08_enough_staff": 3.0, "q09_tools_resources": 3.4,
    "q10_growth_opportunity": 3.1, "q11_career_conversation": 3.2, "q12_fair_pay": 2.9,
    "q13_wellbeing_support": 3.5, "q14_flexibility": 3.7, "q15_inclusion": 3.9,
    "q16_speak_up_safely": 3.6, "q17_leadership_trust": 3.3, "q18_change_communicated": 3.0,
    "q19_team_collaboration": 4.0, "q20_intend_to_stay_2y": 3.5,
}
for item, mu in items.items():
    latent = rng.normal(mu, 0.95, n)
    if item in ("q07_workload_manageable", "q08_enough_staff"):
        latent = latent - 0.45 * (survey.department == "Operations")
    survey[item] = np.clip(np.round(latent), 1, 5).astype(int)
'''

_PAY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290513)
n = 1300
fams = ["Engineering", "Sales", "Finance", "Operations", "Marketing"]
levels = ["L1", "L2", "L3", "L4"]
comp = pd.DataFrame({
    "employee_id": [f"P{i:05d}" for i in range(n)],
    "job_family": rng.choice(fams, n),
    "level": rng.choice(levels, n, p=[0.35, 0.3, 0.22, 0.13]),
    "gender": rng.choice(["F", "M"], n, p=[0.44, 0.56]),
    "tenure_yrs": np.round(rng.gamma(2.0, 2.6, n), 1),
})
fam_base = {"Engineering": 62000, "Sales": 48000, "Finance": 55000, "Operations": 41000,
            "Marketing": 50000}
lvl_mult = {"L1": 1.0, "L2": 1.3, "L3": 1.7, "L4": 2.3}
comp["base_salary"] = np.round(
    comp.job_family.map(fam_base) * comp.level.map(lvl_mult)
    * np.exp(0.012 * comp.tenure_yrs + rng.normal(0, 0.09, n)), -2)
comp["female"] = (comp.gender == "F").astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h29-mc-engagement-items-by-department",
        family="multiple_comparisons",
        setup=_SURVEY_SETUP,
        code='''
from scipy.stats import mannwhitneyu

item_cols = [c for c in survey.columns if c.startswith("q")]
rows = []
for dept in sorted(survey.department.unique()):
    in_dept = survey.department == dept
    for q in item_cols:
        a, b = survey.loc[in_dept, q], survey.loc[~in_dept, q]
        stat, p = mannwhitneyu(a, b, alternative="two-sided")
        rows.append({"department": dept, "item": q, "dept_mean": a.mean(),
                     "rest_mean": b.mean(), "p": p})
res = pd.DataFrame(rows)
res["gap"] = res.dept_mean - res.rest_mean

sig = res[res.p < 0.05].sort_values("p")
print(f"{len(res)} department x item comparisons, {len(sig)} significant at p<0.05")
print("Items to raise with each department's HRBP:")
sig[["department", "item", "gap", "p"]].round(3).reset_index(drop=True)
''',
        twin="h29-mc-engagement-items-by-department-fdr",
        note="120 department-vs-rest Mann-Whitney tests with every p<0.05 reported as an "
             "action item and no multiplicity correction; several hits are expected by chance.",
        split="holdout29",
    ),
    Case(
        id="h29-mc-engagement-items-by-department-fdr",
        family=None,
        setup=_SURVEY_SETUP,
        code='''
from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

item_cols = [c for c in survey.columns if c.startswith("q")]
rows = []
for dept in sorted(survey.department.unique()):
    in_dept = survey.department == dept
    for q in item_cols:
        a, b = survey.loc[in_dept, q], survey.loc[~in_dept, q]
        stat, p = mannwhitneyu(a, b, alternative="two-sided")
        rows.append({"department": dept, "item": q, "dept_mean": a.mean(),
                     "rest_mean": b.mean(), "p": p})
res = pd.DataFrame(rows)
res["gap"] = res.dept_mean - res.rest_mean

# 120 tests -> control the false discovery rate across the whole family
res["reject"], res["q_bh"], _, _ = multipletests(res.p, alpha=0.05, method="fdr_bh")
sig = res[res.reject].sort_values("q_bh")
print(f"{len(res)} department x item comparisons; {(res.p < 0.05).sum()} nominal p<0.05, "
      f"{len(sig)} survive Benjamini-Hochberg at FDR 5%")
print("Items to raise with each department's HRBP:")
sig[["department", "item", "gap", "p", "q_bh"]].round(4).reset_index(drop=True)
''',
        twin="h29-mc-engagement-items-by-department",
        note="Same 120 comparisons, with Benjamini-Hochberg FDR control; only findings that "
             "survive the correction are reported.",
        split="holdout29",
    ),
    Case(
        id="h29-mc-pay-gap-by-family-level",
        family="multiple_comparisons",
        setup=_PAY_SETUP,
        code='''
import statsmodels.formula.api as smf

comp["log_salary"] = np.log(comp.base_salary)
audit = []
for (fam, lvl), cell in comp.groupby(["job_family", "level"]):
    fit = smf.ols("log_salary ~ female + tenure_yrs", data=cell).fit()
    audit.append({
        "job_family": fam, "level": lvl, "n": len(cell), "n_female": int(cell.female.sum()),
        "adj_gap_pct": 100 * (np.exp(fit.params["female"]) - 1),
        "p_value": fit.pvalues["female"],
    })
audit = pd.DataFrame(audit)
audit["flag"] = np.where(audit.p_value < 0.05, "GAP - review", "")

print(f"Pay-equity audit: {len(audit)} job family x level cells")
flagged = audit[audit.flag != ""]
for r in flagged.itertuples():
    print(f"  {r.job_family:<12}{r.level}: women paid {r.adj_gap_pct:+.1f}% "
          f"(p={r.p_value:.3f}) -> remediation budget")
audit.round(3)
''',
        twin="h29-mc-pay-gap-by-family-level-holm",
        note="Twenty per-cell OLS gender-gap tests, each flagged at p<0.05 for remediation "
             "without any correction for testing 20 cells.",
        split="holdout29",
    ),
    Case(
        id="h29-mc-pay-gap-by-family-level-holm",
        family=None,
        setup=_PAY_SETUP,
        code='''
import statsmodels.formula.api as smf
from statsmodels.stats.multitest import multipletests

comp["log_salary"] = np.log(comp.base_salary)
audit = []
for (fam, lvl), cell in comp.groupby(["job_family", "level"]):
    fit = smf.ols("log_salary ~ female + tenure_yrs", data=cell).fit()
    audit.append({
        "job_family": fam, "level": lvl, "n": len(cell), "n_female": int(cell.female.sum()),
        "adj_gap_pct": 100 * (np.exp(fit.params["female"]) - 1),
        "p_value": fit.pvalues["female"],
    })
audit = pd.DataFrame(audit)
# 20 cells tested -> Holm adjustment (family-wise error 5%)
audit["reject"], audit["p_holm"], _, _ = multipletests(audit.p_value, method="holm")
audit["flag"] = np.where(audit.reject, "GAP - review", "")

print(f"Pay-equity audit: {len(audit)} job family x level cells, Holm-adjusted")
print(f"  nominal p<0.05: {(audit.p_value < 0.05).sum()}, after Holm: {audit.reject.sum()}")
flagged = audit[audit.flag != ""]
for r in flagged.itertuples():
    print(f"  {r.job_family:<12}{r.level}: women paid {r.adj_gap_pct:+.1f}% "
          f"(p_holm={r.p_holm:.3f}) -> remediation budget")
audit.round(3)
''',
        twin="h29-mc-pay-gap-by-family-level",
        note="Same 20 cell-level gap tests with a Holm family-wise correction before anything "
             "is flagged.",
        split="holdout29",
    ),
]
