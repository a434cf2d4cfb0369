from bench.critic_corpus import Case

_PULSE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290712)
n_emp, n_weeks = 48, 10
emp_ids = [f"E{31000 + i}" for i in range(n_emp)]
trained = np.repeat([1, 0], n_emp // 2)
person_level = rng.normal(6.4, 1.3, n_emp) + 0.35 * trained
rows = []
for e, t, mu in zip(emp_ids, trained, person_level):
    for w in range(1, n_weeks + 1):
        rows.append((e, "Resilience@Work" if t else "waitlist", w,
                     float(np.clip(np.round(mu + rng.normal(0, 0.9)), 0, 10))))
pulse = pd.DataFrame(rows, columns=["employee_id", "cohort", "week", "wellbeing_0_10"])
'''

_MANAGER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290727)
n_mgr = 36
mgr = pd.DataFrame({
    "manager_id": [f"M{700 + i}" for i in range(n_mgr)],
    "coached": rng.permutation(np.repeat([1, 0], n_mgr // 2)),
    "team_effect": rng.normal(0, 0.38, n_mgr),
    "team_size": rng.integers(8, 26, n_mgr),
})
team = mgr.loc[mgr.index.repeat(mgr.team_size)].reset_index(drop=True)
m = len(team)
team["employee_id"] = [f"E{52000 + i}" for i in range(m)]
team["tenure_yrs"] = np.round(rng.gamma(2.0, 2.4, m), 1)
team["grade"] = rng.choice(["G3", "G4", "G5", "G6"], m, p=[0.3, 0.35, 0.25, 0.1])
team["engagement_idx"] = np.round(np.clip(
    3.55 + 0.12 * team.coached + team.team_effect - 0.01 * team.tenure_yrs
    + rng.normal(0, 0.6, m), 1, 5), 2)
team = team.drop(columns=["team_effect", "team_size"])
'''

CASES: list[Case] = [
    Case(
        id="h29-pseudo-wellbeing-pulse-all-weeks",
        family="pseudoreplication",
        setup=_PULSE_SETUP,
        code='''
from scipy import stats

print(pulse.head())
print(pulse.groupby("cohort").agg(employees=("employee_id", "nunique"),
                                  responses=("wellbeing_0_10", "size"),
                                  mean_score=("wellbeing_0_10", "mean")).round(2))

prog = pulse.loc[pulse.cohort == "Resilience@Work", "wellbeing_0_10"]
wait = pulse.loc[pulse.cohort == "waitlist", "wellbeing_0_10"]
t, p = stats.ttest_ind(prog, wait)
pooled_sd = np.sqrt((prog.var(ddof=1) + wait.var(ddof=1)) / 2)
d = (prog.mean() - wait.mean()) / pooled_sd
print(f"\\nResilience@Work vs waitlist: diff = {prog.mean() - wait.mean():+.2f} points, "
      f"t({len(prog) + len(wait) - 2}) = {t:.2f}, p = {p:.4f}, d = {d:.2f}")
print("=> programme significantly improves weekly wellbeing")
''',
        twin="h29-pseudo-wellbeing-pulse-per-employee",
        note="Ten weekly pulse scores per employee are pooled as 480 independent observations "
             "in a t-test although only 48 employees were assigned to cohorts.",
        split="holdout29",
    ),
    Case(
        id="h29-pseudo-wellbeing-pulse-per-employee",
        family=None,
        setup=_PULSE_SETUP,
        code='''
from scipy import stats

print(pulse.head())
print(pulse.groupby("cohort").agg(employees=("employee_id", "nunique"),
                                  responses=("wellbeing_0_10", "size"),
                                  mean_score=("wellbeing_0_10", "mean")).round(2))

# the employee is the unit that was assigned -> one average score per employee
per_emp = pulse.groupby(["employee_id", "cohort"], as_index=False)["wellbeing_0_10"].mean()
prog = per_emp.loc[per_emp.cohort == "Resilience@Work", "wellbeing_0_10"]
wait = per_emp.loc[per_emp.cohort == "waitlist", "wellbeing_0_10"]
t, p = stats.ttest_ind(prog, wait)
pooled_sd = np.sqrt((prog.var(ddof=1) + wait.var(ddof=1)) / 2)
d = (prog.mean() - wait.mean()) / pooled_sd
print(f"\\nResilience@Work vs waitlist (per-employee means): "
      f"diff = {prog.mean() - wait.mean():+.2f} points, "
      f"t({len(prog) + len(wait) - 2}) = {t:.2f}, p = {p:.3f}, d = {d:.2f}")
''',
        twin="h29-pseudo-wellbeing-pulse-all-weeks",
        note="Weekly scores are averaged per employee first, so the t-test has one observation "
             "per assigned employee (n = 48).",
        split="holdout29",
    ),
    Case(
        id="h29-pseudo-manager-coaching-employee-ols",
        family="pseudoreplication",
        setup=_MANAGER_SETUP,
        code='''
import statsmodels.formula.api as smf

print(f"{team.manager_id.nunique()} managers ({mgr.coached.sum()} coached), "
      f"{len(team)} direct reports")

ols = smf.ols("engagement_idx ~ coached + tenure_yrs + C(grade)", data=team).fit()
print(ols.summary().tables[1])

b, lo, hi = ols.params["coached"], *ols.conf_int().loc["coached"]
print(f"\\nManager coaching programme: +{b:.2f} engagement points for the team "
      f"(95% CI {lo:.2f} to {hi:.2f}, p = {ols.pvalues['coached']:.4f}, n = {int(ols.nobs)})")
''',
        twin="h29-pseudo-manager-coaching-cluster-se",
        note="Coaching was assigned to 36 managers but the OLS treats ~650 direct reports as "
             "independent, ignoring the team clustering; SE and p-value are far too small.",
        split="holdout29",
    ),
    Case(
        id="h29-pseudo-manager-coaching-cluster-se",
        family=None,
        setup=_MANAGER_SETUP,
        code='''
import statsmodels.formula.api as smf

print(f"{team.manager_id.nunique()} managers ({mgr.coached.sum()} coached), "
      f"{len(team)} direct reports")

# coaching is assigned per manager -> cluster the standard errors on manager_id
ols = smf.ols("engagement_idx ~ coached + tenure_yrs + C(grade)", data=team).fit(
    cov_type="cluster", cov_kwds={"groups": team.manager_id})
print(ols.summary().tables[1])

b, lo, hi = ols.params["coached"], *ols.conf_int().loc["coached"]
print(f"\\nManager coaching programme: +{b:.2f} engagement points for the team "
      f"(95% CI {lo:.2f} to {hi:.2f}, p = {ols.pvalues['coached']:.3f}; "
      f"SEs clustered on {team.manager_id.nunique()} managers)")
''',
        twin="h29-pseudo-manager-coaching-employee-ols",
        note="Same model with standard errors clustered by manager, the unit the coaching was "
             "assigned to.",
        split="holdout29",
    ),
]
