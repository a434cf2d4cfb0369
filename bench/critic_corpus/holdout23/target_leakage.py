from bench.critic_corpus import Case

_READMIT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3017)
n = 2200
dc = pd.DataFrame({
    "enc_id": [f"E{700000 + i}" for i in range(n)],
    "patient_id": [f"P{rng.integers(10000, 99999)}" for _ in range(n)],
    "discharge_date": pd.Timestamp("2021-01-01")
    + pd.to_timedelta(rng.integers(0, 730, n), unit="D"),
    "age": rng.normal(71, 12, n).round().clip(19, 102),
    "charlson": rng.poisson(2.6, n),
    "los_days": rng.lognormal(1.45, 0.65, n).round(1),
    "n_meds_discharge": rng.poisson(9, n),
    "prior_adm_12m": rng.poisson(0.8, n),
    "sodium_dc": rng.normal(138, 3.8, n).round(),
    "hgb_dc": rng.normal(11.6, 1.8, n).round(1),
    "lives_alone": rng.binomial(1, 0.31, n),
})
lp = (-2.3 + 0.18 * dc.charlson + 0.35 * dc.prior_adm_12m + 0.04 * (dc.n_meds_discharge - 9)
      - 0.12 * (dc.hgb_dc - 11.6) + 0.08 * np.log(dc.los_days))
dc["readmit_30d"] = rng.binomial(1, 1 / (1 + np.exp(-lp)))
# ED attendances in the 30 days after discharge (from the ED tracking board extract)
dc["ed_visits_30d_post_dc"] = dc.readmit_30d * (1 + rng.poisson(0.4, n)) + rng.poisson(0.15, n)
'''

_AKI_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)

rng = np.random.default_rng(731)
n = 950
cs = pd.DataFrame({
    "case_id": np.arange(51001, 51001 + n),
    "surgery_date": pd.Timestamp("2017-01-02")
    + pd.to_timedelta(np.sort(rng.integers(0, 6 * 365, n)), unit="D"),
    "age": rng.normal(66, 10, n).round().clip(30, 90),
    "female": rng.binomial(1, 0.28, n),
    "diabetes": rng.binomial(1, 0.33, n),
    "baseline_creat": rng.lognormal(0.0, 0.28, n).round(2),
    "cpb_minutes": rng.gamma(9, 12, n).round(),
    "procedure": rng.choice(["CABG", "valve", "CABG+valve"], n, p=[0.55, 0.3, 0.15]),
    "lvef": rng.normal(52, 10, n).round().clip(15, 75),
})
drift = (0.02 * (cs.age - 66) + 0.45 * cs.diabetes + 0.007 * (cs.cpb_minutes - 108)
         + 0.5 * (cs.procedure == "CABG+valve") - 0.015 * (cs.lvef - 52))
ratio = np.exp(rng.normal(0.08 + 0.12 * drift, 0.22))
cs["peak_creat_postop"] = (cs.baseline_creat * ratio).round(2)  # highest value, days 0-7
urine_crit = rng.binomial(1, 0.05, n)
cs["aki_kdigo"] = ((cs.peak_creat_postop >= 1.5 * cs.baseline_creat)
                   | (cs.peak_creat_postop - cs.baseline_creat >= 0.3)
                   | (urine_crit == 1)).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h23-tleak-readmit-ed-post-discharge",
        family="target_leakage",
        split="holdout23",
        twin="h23-tleak-readmit-ed-post-discharge-ok",
        setup=_READMIT_SETUP,
        note="ED visits in the 30 days after discharge are only known after the readmission "
             "outcome (and mostly are the readmission), yet are a model feature.",
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, brier_score_loss
from sklearn.model_selection import train_test_split

features = ["age", "charlson", "los_days", "n_meds_discharge", "prior_adm_12m",
            "sodium_dc", "hgb_dc", "lives_alone", "ed_visits_30d_post_dc"]
X_tr, X_te, y_tr, y_te = train_test_split(dc[features], dc["readmit_30d"], test_size=0.25,
                                          stratify=dc["readmit_30d"], random_state=2023)
rf = RandomForestClassifier(n_estimators=300, min_samples_leaf=10, random_state=2023)
rf.fit(X_tr, y_tr)
p = rf.predict_proba(X_te)[:, 1]
print(f"30-day readmission: {dc.readmit_30d.mean():.1%} of {len(dc)} discharges")
print(f"Test AUC {roc_auc_score(y_te, p):.3f}, Brier {brier_score_loss(y_te, p):.3f}")
pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False).round(3)
''',
    ),
    Case(
        id="h23-tleak-readmit-ed-post-discharge-ok",
        family=None,
        split="holdout23",
        twin="h23-tleak-readmit-ed-post-discharge",
        setup=_READMIT_SETUP,
        note="Same readmission forest using only information available at discharge; the "
             "post-discharge ED count is left out.",
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, brier_score_loss
from sklearn.model_selection import train_test_split

# predictors available at the time of discharge only
features = ["age", "charlson", "los_days", "n_meds_discharge", "prior_adm_12m",
            "sodium_dc", "hgb_dc", "lives_alone"]
X_tr, X_te, y_tr, y_te = train_test_split(dc[features], dc["readmit_30d"], test_size=0.25,
                                          stratify=dc["readmit_30d"], random_state=2023)
rf = RandomForestClassifier(n_estimators=300, min_samples_leaf=10, random_state=2023)
rf.fit(X_tr, y_tr)
p = rf.predict_proba(X_te)[:, 1]
print(f"30-day readmission: {dc.readmit_30d.mean():.1%} of {len(dc)} discharges")
print(f"Test AUC {roc_auc_score(y_te, p):.3f}, Brier {brier_score_loss(y_te, p):.3f}")
pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False).round(3)
''',
    ),
    Case(
        id="h23-tleak-aki-peak-creatinine",
        family="target_leakage",
        split="holdout23",
        twin="h23-tleak-aki-peak-creatinine-ok",
        setup=_AKI_SETUP,
        note="The post-operative peak creatinine that defines KDIGO AKI is a predictor in the "
             "AKI prediction model, so the c-statistic and ORs are driven by the outcome itself.",
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

dev = cs[cs.surgery_date < "2021-01-01"]
val = cs[cs.surgery_date >= "2021-01-01"]
formula = ("aki_kdigo ~ age + female + diabetes + baseline_creat + cpb_minutes"
           " + C(procedure, Treatment('CABG')) + lvef + peak_creat_postop")
fit = smf.logit(formula, data=dev).fit(disp=0)

ci = fit.conf_int()
or_table = pd.DataFrame({
    "OR": np.exp(fit.params),
    "95% CI": [f"{np.exp(lo):.2f}-{np.exp(hi):.2f}" for lo, hi in ci.values],
    "p": fit.pvalues.map("{:.3g}".format),
}).drop("Intercept")
print(f"Development: n = {len(dev)}, AKI {dev.aki_kdigo.sum()} ({dev.aki_kdigo.mean():.1%})")
print(f"Temporal validation: n = {len(val)}, c-statistic = "
      f"{roc_auc_score(val.aki_kdigo, fit.predict(val)):.3f}")
or_table.round(3)
''',
    ),
    Case(
        id="h23-tleak-aki-peak-creatinine-ok",
        family=None,
        split="holdout23",
        twin="h23-tleak-aki-peak-creatinine",
        setup=_AKI_SETUP,
        note="AKI model restricted to pre- and intra-operative predictors, developed on earlier "
             "surgeries and validated on later ones; nothing derived from the outcome.",
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

dev = cs[cs.surgery_date < "2021-01-01"]
val = cs[cs.surgery_date >= "2021-01-01"]
formula = ("aki_kdigo ~ age + female + diabetes + baseline_creat + cpb_minutes"
           " + C(procedure, Treatment('CABG')) + lvef")
fit = smf.logit(formula, data=dev).fit(disp=0)

ci = fit.conf_int()
or_table = pd.DataFrame({
    "OR": np.exp(fit.params),
    "95% CI": [f"{np.exp(lo):.2f}-{np.exp(hi):.2f}" for lo, hi in ci.values],
    "p": fit.pvalues.map("{:.3g}".format),
}).drop("Intercept")
print(f"Development: n = {len(dev)}, AKI {dev.aki_kdigo.sum()} ({dev.aki_kdigo.mean():.1%})")
print(f"Temporal validation: n = {len(val)}, c-statistic = "
      f"{roc_auc_score(val.aki_kdigo, fit.predict(val)):.3f}")
or_table.round(3)
''',
    ),
]
