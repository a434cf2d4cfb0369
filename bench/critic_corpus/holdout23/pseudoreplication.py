from bench.critic_corpus import Case

_HBA1C_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(SEED)
rows = []
for i in range(64):
    pid = f"DM{31000 + 17 * i}"
    arm = "education" if i % 2 == 0 else "usual_care"
    start = pd.Timestamp("2021-02-01") + pd.Timedelta(days=int(rng.integers(0, 300)))
    level = rng.normal(8.1, 1.15)
    n_fu = int(rng.integers(3, 6))
    for k in range(n_fu + 1):
        month = 3 * k
        drop = (0.25 if arm == "education" else 0.0) * (month > 0) + 0.03 * month
        rows.append({
            "patient_id": pid, "arm": arm, "visit_month": month,
            "visit_date": (start + pd.Timedelta(days=int(30.4 * month + rng.integers(-10, 11))))
            .strftime("%Y-%m-%d"),
            "hba1c_pct": round(level - drop + rng.normal(0, 0.35), 1),
        })
a1c = pd.DataFrame(rows)
'''

_FLU_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(SEED)
homes = pd.DataFrame({
    "home_id": [f"NH{h:02d}" for h in range(1, 21)],
    "staff_vacc_programme": np.tile([1, 0], 10),
    "beds": rng.integers(30, 95, 20),
    "home_effect": rng.normal(0, 0.75, 20),
})
res = homes.loc[homes.index.repeat(homes.beds)].reset_index(drop=True)
res["resident_id"] = [f"R{50000 + i}" for i in range(len(res))]
res["age"] = rng.normal(85, 7, len(res)).round().clip(65, 104)
res["female"] = rng.binomial(1, 0.68, len(res))
res["resident_vaccinated"] = rng.binomial(1, 0.82, len(res))
lp = (-1.7 - 0.15 * res.staff_vacc_programme + res.home_effect + 0.02 * (res.age - 85)
      - 0.3 * res.resident_vaccinated)
res["ili_season"] = rng.binomial(1, 1 / (1 + np.exp(-lp)))
residents = res.drop(columns=["home_effect", "beds"])
'''

_HBA1C_SEED = "12"
_FLU_SEED = "21"

CASES: list[Case] = [
    Case(
        id="h23-pseudo-hba1c-visit-rows",
        family="pseudoreplication",
        split="holdout23",
        twin="h23-pseudo-hba1c-visit-rows-ok",
        setup=_HBA1C_SETUP.replace("SEED", _HBA1C_SEED),
        note="Every follow-up HbA1c visit (3-5 per patient) is treated as an independent "
             "observation in a two-sample t-test; n is visits, not the 64 randomised patients.",
        code='''
from scipy import stats

fu = a1c[a1c.visit_month > 0]
edu = fu.loc[fu.arm == "education", "hba1c_pct"]
uc = fu.loc[fu.arm == "usual_care", "hba1c_pct"]

t, p = stats.ttest_ind(edu, uc)
diff = edu.mean() - uc.mean()
se = diff / t
df = len(edu) + len(uc) - 2
lo, hi = diff + np.array([-1, 1]) * stats.t.ppf(0.975, df) * se
print(f"Follow-up HbA1c, education: {edu.mean():.2f}% (SD {edu.std():.2f}, n = {len(edu)})")
print(f"Follow-up HbA1c, usual care: {uc.mean():.2f}% (SD {uc.std():.2f}, n = {len(uc)})")
print(f"Difference {diff:.2f} percentage points (95% CI {lo:.2f} to {hi:.2f}), p = {p:.4f}")
''',
    ),
    Case(
        id="h23-pseudo-hba1c-visit-rows-ok",
        family=None,
        split="holdout23",
        twin="h23-pseudo-hba1c-visit-rows",
        setup=_HBA1C_SETUP.replace("SEED", _HBA1C_SEED),
        note="Follow-up visits are first averaged within patient, so the t-test compares the 32 "
             "vs 32 randomised patients.",
        code='''
from scipy import stats

fu = a1c[a1c.visit_month > 0]
per_patient = fu.groupby(["patient_id", "arm"], as_index=False)["hba1c_pct"].mean()
edu = per_patient.loc[per_patient.arm == "education", "hba1c_pct"]
uc = per_patient.loc[per_patient.arm == "usual_care", "hba1c_pct"]

t, p = stats.ttest_ind(edu, uc)
diff = edu.mean() - uc.mean()
se = diff / t
df = len(edu) + len(uc) - 2
lo, hi = diff + np.array([-1, 1]) * stats.t.ppf(0.975, df) * se
print(f"Mean follow-up HbA1c per patient, education: {edu.mean():.2f}% "
      f"(SD {edu.std():.2f}, n = {len(edu)} patients)")
print(f"Mean follow-up HbA1c per patient, usual care: {uc.mean():.2f}% "
      f"(SD {uc.std():.2f}, n = {len(uc)} patients)")
print(f"Difference {diff:.2f} percentage points (95% CI {lo:.2f} to {hi:.2f}), p = {p:.4f}")
''',
    ),
    Case(
        id="h23-pseudo-flu-care-home-logit",
        family="pseudoreplication",
        split="holdout23",
        twin="h23-pseudo-flu-care-home-logit-ok",
        setup=_FLU_SETUP.replace("SEED", _FLU_SEED),
        note="Cluster-randomised (20 care homes) staff-vaccination trial analysed with an "
             "ordinary resident-level logistic model, ignoring clustering within homes.",
        code='''
import statsmodels.formula.api as smf

m = smf.logit("ili_season ~ staff_vacc_programme + age + female + resident_vaccinated",
              data=residents).fit(disp=0)
or_ = np.exp(m.params)
ci = np.exp(m.conf_int())
print(f"{len(residents)} residents in {residents.home_id.nunique()} care homes; "
      f"ILI attack rate {residents.ili_season.mean():.1%}")
by_arm = residents.groupby("staff_vacc_programme")["ili_season"].agg(["sum", "count"])
by_arm["n (%)"] = [f"{s} ({s / c:.1%})" for s, c in zip(by_arm["sum"], by_arm["count"])]
print(by_arm[["n (%)"]])
print(f"Adjusted OR for staff vaccination programme: {or_['staff_vacc_programme']:.2f} "
      f"(95% CI {ci.loc['staff_vacc_programme', 0]:.2f}-"
      f"{ci.loc['staff_vacc_programme', 1]:.2f}), "
      f"p = {m.pvalues['staff_vacc_programme']:.4f}")
''',
    ),
    Case(
        id="h23-pseudo-flu-care-home-logit-ok",
        family=None,
        split="holdout23",
        twin="h23-pseudo-flu-care-home-logit",
        setup=_FLU_SETUP.replace("SEED", _FLU_SEED),
        note="Same cluster trial analysed with GEE (exchangeable working correlation within "
             "care home, small-sample bias-reduced SEs).",
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

m = smf.gee("ili_season ~ staff_vacc_programme + age + female + resident_vaccinated",
            groups="home_id", data=residents, family=sm.families.Binomial(),
            cov_struct=sm.cov_struct.Exchangeable()).fit(cov_type="bias_reduced")
or_ = np.exp(m.params)
ci = np.exp(m.conf_int())
print(f"{len(residents)} residents in {residents.home_id.nunique()} care homes; "
      f"ILI attack rate {residents.ili_season.mean():.1%}")
by_arm = residents.groupby("staff_vacc_programme")["ili_season"].agg(["sum", "count"])
by_arm["n (%)"] = [f"{s} ({s / c:.1%})" for s, c in zip(by_arm["sum"], by_arm["count"])]
print(by_arm[["n (%)"]])
print(f"Within-home correlation (exchangeable): {m.cov_struct.dep_params:.3f}")
print(f"Adjusted OR for staff vaccination programme: {or_['staff_vacc_programme']:.2f} "
      f"(95% CI {ci.loc['staff_vacc_programme', 0]:.2f}-"
      f"{ci.loc['staff_vacc_programme', 1]:.2f}), "
      f"p = {m.pvalues['staff_vacc_programme']:.4f}")
''',
    ),
]
