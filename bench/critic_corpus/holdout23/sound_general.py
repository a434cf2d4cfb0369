from bench.critic_corpus import Case

_STATIN_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(1212)
n = 3200
age = rng.normal(66, 11, n).round().clip(40, 95)
diabetes = rng.binomial(1, 0.27, n)
ldl = rng.normal(3.3, 0.9, n).clip(1.0, 7.5).round(1)
p_statin = 1 / (1 + np.exp(-(-2.2 + 0.04 * (age - 66) + 1.1 * diabetes + 0.5 * (ldl - 3.3))))
cohort = pd.DataFrame({
    "patient_id": [f"P{700000 + 3 * i}" for i in range(n)],
    "statin_user": rng.binomial(1, p_statin),
    "age": age,
    "female": rng.binomial(1, 0.49, n),
    "diabetes": diabetes,
    "ldl_mmol_l": ldl,
    "sbp_mmhg": rng.normal(137, 16, n).round(),
    "smoking": rng.choice(["never", "former", "current"], n, p=[0.5, 0.33, 0.17]),
    "egfr": rng.normal(74, 17, n).clip(15, 120).round(),
})
'''

_ANAEMIA_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(4848)
n = 2600
female = rng.binomial(1, 0.6, n)
hb = np.where(female == 1, rng.normal(13.2, 1.3, n), rng.normal(14.4, 1.4, n)).round(1)
arth = pd.DataFrame({
    "episode_id": np.arange(61001, 61001 + n),
    "procedure": rng.choice(["THR", "TKR"], n),
    "age": rng.normal(70, 9, n).round().clip(35, 95),
    "female": female,
    "asa_grade": rng.choice([1, 2, 3, 4], n, p=[0.1, 0.55, 0.32, 0.03]),
    "bmi": rng.lognormal(np.log(30), 0.15, n).round(1),
    "preop_hb_g_dl": hb,
})
arth["anaemia_who"] = ((arth.female == 1) & (arth.preop_hb_g_dl < 12)
                       | (arth.female == 0) & (arth.preop_hb_g_dl < 13)).astype(int)
lp = (-3.0 + 0.55 * arth.anaemia_who + 0.03 * (arth.age - 70) + 0.45 * (arth.asa_grade - 2)
      + 0.03 * (arth.bmi - 30))
arth["complication_30d"] = rng.binomial(1, 1 / (1 + np.exp(-lp)))
'''

_VE_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(7007)
rows = []
base = {"18-49": 1.1, "50-64": 2.3, "65-79": 5.5, "80+": 11.0}  # per 10,000 person-weeks
for age_grp, rate in base.items():
    for status, rr in [("unvaccinated", 1.0), ("vaccinated", 0.38)]:
        for week in range(1, 13):
            py = rng.integers(8_000, 40_000) * (1.8 if status == "vaccinated" else 1.0)
            rows.append({"age_group": age_grp, "status": status, "epi_week": week,
                         "person_weeks": int(py),
                         "hospitalisations": rng.poisson(rate * rr * py / 10_000)})
surv = pd.DataFrame(rows)
'''

_TROP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3344)
n = 980
mi = rng.binomial(1, 0.13, n)
trop = pd.DataFrame({
    "attendance_id": [f"ED{rng.integers(10**6, 10**7)}" for _ in range(n)],
    "age": rng.normal(59, 15, n).round().clip(18, 99),
    "hs_ctni_0h_ng_l": np.where(mi == 1, np.exp(rng.normal(4.0, 1.1, n)),
                                np.exp(rng.normal(1.3, 0.9, n))).round(),
    "adjudicated_mi": mi,
})
'''

_EGFR_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(5858)
rows = []
for i in range(180):
    sglt2 = int(i % 3 == 0)
    b0 = rng.normal(52, 10)
    slope = rng.normal(-3.2 + 1.8 * sglt2, 1.2)
    for yr in np.arange(0, 4.01, 0.5):
        if rng.random() < 0.12 and yr > 0:
            continue  # missed visit
        rows.append({"patient_id": f"RN{4000 + i}", "sglt2i": sglt2, "years": yr,
                     "egfr": round(b0 + slope * yr + rng.normal(0, 3.5), 1)})
egfr_long = pd.DataFrame(rows)
'''

CASES: list[Case] = [
    Case(
        id="h23-sound-statin-table1-smd",
        family=None,
        split="holdout23",
        setup=_STATIN_SETUP,
        note="Descriptive Table 1 of statin users vs non-users with n (%), mean (SD) and "
             "standardised mean differences; no hypothesis tests, no rows lost.",
        code='''
def smd_cont(a, b):
    return (a.mean() - b.mean()) / np.sqrt((a.var() + b.var()) / 2)


def smd_bin(a, b):
    p1, p0 = a.mean(), b.mean()
    return (p1 - p0) / np.sqrt((p1 * (1 - p1) + p0 * (1 - p0)) / 2)


users, non = cohort[cohort.statin_user == 1], cohort[cohort.statin_user == 0]
rows = []
for var, label in [("age", "Age, years"), ("ldl_mmol_l", "LDL-C, mmol/L"),
                   ("sbp_mmhg", "Systolic BP, mmHg"), ("egfr", "eGFR")]:
    rows.append([label, f"{users[var].mean():.1f} ({users[var].std():.1f})",
                 f"{non[var].mean():.1f} ({non[var].std():.1f})", smd_cont(users[var], non[var])])
for var, label in [("female", "Female"), ("diabetes", "Diabetes")]:
    rows.append([label, f"{users[var].sum()} ({users[var].mean():.1%})",
                 f"{non[var].sum()} ({non[var].mean():.1%})", smd_bin(users[var], non[var])])
for level in ["never", "former", "current"]:
    a, b = users.smoking.eq(level), non.smoking.eq(level)
    rows.append([f"Smoking: {level}", f"{a.sum()} ({a.mean():.1%})",
                 f"{b.sum()} ({b.mean():.1%})", smd_bin(a, b)])

cols = ["Characteristic", f"Statin (n={len(users)})", f"No statin (n={len(non)})", "SMD"]
table1 = pd.DataFrame(rows, columns=cols).set_index("Characteristic")
print(f"Cohort n = {len(cohort)}; |SMD| > 0.1 flags imbalance")
table1.round(3)
''',
    ),
    Case(
        id="h23-sound-anaemia-complications-or",
        family=None,
        split="holdout23",
        setup=_ANAEMIA_SETUP,
        note="Single pre-specified exposure (pre-op anaemia) with confounder-adjusted binomial "
             "GLM, OR with Wald 95% CI, complete data and ample events per parameter.",
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

assert arth[["complication_30d", "anaemia_who", "age", "female", "asa_grade", "bmi"]] \\
    .notna().all().all()
tab = pd.crosstab(arth.anaemia_who, arth.complication_30d, margins=True)
print(tab, end="\\n\\n")

fit = smf.glm("complication_30d ~ anaemia_who + age + female + C(asa_grade) + bmi + procedure",
              data=arth, family=sm.families.Binomial()).fit()
or_ = np.exp(fit.params["anaemia_who"])
lo, hi = np.exp(fit.conf_int().loc["anaemia_who"])
events = int(arth.complication_30d.sum())
print(f"{events} complications, {len(fit.params) - 1} model parameters "
      f"({events / (len(fit.params) - 1):.0f} events per parameter)")
print(f"Pre-operative anaemia: adjusted OR {or_:.2f} (95% CI {lo:.2f}-{hi:.2f}), "
      f"p = {fit.pvalues['anaemia_who']:.3g}")
''',
    ),
    Case(
        id="h23-sound-vaccine-effectiveness-poisson",
        family=None,
        split="holdout23",
        setup=_VE_SETUP,
        note="Vaccine effectiveness as 1 - IRR from a Poisson GLM with log person-time offset, "
             "adjusted for age group and week, with Pearson-scaled SEs for overdispersion.",
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

surv["vaccinated"] = (surv.status == "vaccinated").astype(int)
fit = smf.glm("hospitalisations ~ vaccinated + C(age_group) + C(epi_week)", data=surv,
              family=sm.families.Poisson(), offset=np.log(surv.person_weeks)).fit(scale="X2")
irr = np.exp(fit.params["vaccinated"])
lo, hi = np.exp(fit.conf_int().loc["vaccinated"])
print(f"Dispersion (Pearson chi2 / df): {fit.scale:.2f}")

crude = surv.groupby("status")[["hospitalisations", "person_weeks"]].sum()
crude["rate_per_10k_pw"] = 10_000 * crude.hospitalisations / crude.person_weeks
print(crude.round(2), end="\\n\\n")
print(f"Adjusted IRR {irr:.2f} (95% CI {lo:.2f}-{hi:.2f})")
print(f"Vaccine effectiveness against hospitalisation: {1 - irr:.0%} "
      f"(95% CI {1 - hi:.0%}-{1 - lo:.0%})")
''',
    ),
    Case(
        id="h23-sound-troponin-rule-out-accuracy",
        family=None,
        split="holdout23",
        setup=_TROP_SETUP,
        note="Accuracy of a pre-specified hs-cTnI < 5 ng/L rule-out threshold against "
             "adjudicated MI, with exact binomial CIs for every proportion.",
        code='''
from statsmodels.stats.proportion import proportion_confint

THRESHOLD = 5  # ng/L, pre-specified from the manufacturer's rule-out pathway
test_pos = trop.hs_ctni_0h_ng_l >= THRESHOLD
mi = trop.adjudicated_mi == 1
tp, fn = int((test_pos & mi).sum()), int((~test_pos & mi).sum())
fp, tn = int((test_pos & ~mi).sum()), int((~test_pos & ~mi).sum())


def prop(k, n):
    lo, hi = proportion_confint(k, n, method="beta")
    return f"{k}/{n} = {k / n:.1%} ({lo:.1%}-{hi:.1%})"


acc = pd.Series({
    "Sensitivity": prop(tp, tp + fn),
    "Specificity": prop(tn, tn + fp),
    "NPV": prop(tn, tn + fn),
    "PPV": prop(tp, tp + fp),
    "Ruled out": prop(tn + fn, len(trop)),
}, name=f"hs-cTnI < {THRESHOLD} ng/L, n = {len(trop)}")
acc
''',
    ),
    Case(
        id="h23-sound-egfr-slope-mixedlm",
        family=None,
        split="holdout23",
        setup=_EGFR_SETUP,
        note="Repeated eGFR per patient analysed with a linear mixed model (random intercept and "
             "slope per patient); the SGLT2i x time term estimates the slope difference.",
        code='''
import statsmodels.formula.api as smf

print(f"{egfr_long.patient_id.nunique()} patients, {len(egfr_long)} eGFR measurements "
      f"({egfr_long.groupby('patient_id').size().median():.0f} per patient, median)")
mm = smf.mixedlm("egfr ~ years * sglt2i", data=egfr_long, groups="patient_id",
                 re_formula="~years").fit(reml=True)
est = mm.params[["years", "years:sglt2i"]]
ci = mm.conf_int().loc[["years", "years:sglt2i"]]
out = pd.DataFrame({"estimate (mL/min/1.73m2 per year)": est,
                    "95% CI": [f"{a:.2f} to {b:.2f}" for a, b in ci.values],
                    "p": mm.pvalues[["years", "years:sglt2i"]].map("{:.2g}".format)})
out.index = ["eGFR slope, no SGLT2i", "slope difference, SGLT2i vs none"]
out.round(2)
''',
    ),
]
