from bench.critic_corpus import Case

_FLIGHT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290301)
n = 2000
emp = pd.DataFrame({
    "employee_id": [f"E{200000 + i}" for i in range(n)],
    "grade": rng.choice(["G3", "G4", "G5", "G6", "G7"], n, p=[0.2, 0.3, 0.25, 0.15, 0.1]),
    "tenure_yrs": np.round(rng.gamma(2.0, 2.5, n), 1),
    "pay_ratio_to_market": np.round(rng.normal(0.98, 0.08, n), 3),
    "engagement_idx": np.round(np.clip(rng.normal(3.7, 0.6, n), 1, 5), 2),
    "sick_days_ytd": rng.poisson(4, n),
    "remote_days_wk": rng.integers(0, 5, n),
    "manager_changes_2y": rng.poisson(0.7, n),
})
lin = (-2.0 - 0.8 * (emp.engagement_idx - 3.7) - 4.0 * (emp.pay_ratio_to_market - 0.98)
       + 0.35 * emp.manager_changes_2y - 0.08 * (emp.tenure_yrs - 5))
emp["resigned"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# from the payroll feed: accrued holiday paid out in the final salary run
accrued = np.round(rng.uniform(0, 18, n), 1)
emp["pto_payout_days"] = np.where(emp.resigned == 1, accrued, 0.0)
emp.loc[rng.random(n) < 0.01, "pto_payout_days"] = 2.5  # a few payroll corrections
'''

_PERF_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290302)
n = 900
perf = pd.DataFrame({
    "employee_id": np.arange(7001, 7001 + n),
    "dept": rng.choice(["Sales", "Engineering", "Support", "Finance", "Marketing"], n),
    "tenure_yrs": np.round(rng.gamma(2.2, 2.0, n), 1),
    "training_hrs_fy": np.round(rng.gamma(2.0, 9.0, n), 1),
    "goals_completed_pct": np.round(np.clip(rng.normal(72, 15, n), 10, 100), 0),
    "peer_feedback": np.round(np.clip(rng.normal(3.8, 0.5, n), 1, 5), 2),
})
lin = (-1.6 + 0.04 * (perf.goals_completed_pct - 72) + 0.9 * (perf.peer_feedback - 3.8)
       + 0.01 * (perf.training_hrs_fy - 18) + rng.normal(0, 0.8, n))
perf["high_performer"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# merit increase awarded at the end-of-year cycle (after calibration of ratings)
perf["merit_increase_pct"] = np.round(
    np.where(perf.high_performer == 1, rng.normal(5.5, 1.0, n), rng.normal(2.5, 1.0, n)), 1)
'''

CASES: list[Case] = [
    Case(
        id="h29-tleak-flight-risk-pto-payout",
        family="target_leakage",
        setup=_FLIGHT_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, OneHotEncoder
from sklearn.compose import make_column_transformer
from sklearn.metrics import roc_auc_score, average_precision_score

num = ["tenure_yrs", "pay_ratio_to_market", "engagement_idx", "sick_days_ytd",
       "remote_days_wk", "manager_changes_2y", "pto_payout_days"]
X, y = emp[num + ["grade"]], emp["resigned"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)

clf = make_pipeline(
    make_column_transformer((StandardScaler(), num), (OneHotEncoder(drop="first"), ["grade"])),
    LogisticRegression(max_iter=2000),
)
clf.fit(X_tr, y_tr)
p = clf.predict_proba(X_te)[:, 1]
print(f"resignation risk model: test AUC {roc_auc_score(y_te, p):.3f}, "
      f"PR-AUC {average_precision_score(y_te, p):.3f} (base rate {y_te.mean():.2f})")

coefs = pd.Series(clf[-1].coef_[0], index=clf[0].get_feature_names_out()).round(2)
coefs.sort_values(key=abs, ascending=False).head(6)
''',
        twin="h29-tleak-flight-risk-no-payout",
        note="pto_payout_days is holiday paid out in the final salary run, so it only exists "
             "after a resignation; it predicts the target almost perfectly.",
        split="holdout29",
    ),
    Case(
        id="h29-tleak-flight-risk-no-payout",
        family=None,
        setup=_FLIGHT_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, OneHotEncoder
from sklearn.compose import make_column_transformer
from sklearn.metrics import roc_auc_score, average_precision_score

# pto_payout_days comes from the leaver's final pay run -> not known before they resign
num = ["tenure_yrs", "pay_ratio_to_market", "engagement_idx", "sick_days_ytd",
       "remote_days_wk", "manager_changes_2y"]
X, y = emp[num + ["grade"]], emp["resigned"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)

clf = make_pipeline(
    make_column_transformer((StandardScaler(), num), (OneHotEncoder(drop="first"), ["grade"])),
    LogisticRegression(max_iter=2000),
)
clf.fit(X_tr, y_tr)
p = clf.predict_proba(X_te)[:, 1]
print(f"resignation risk model: test AUC {roc_auc_score(y_te, p):.3f}, "
      f"PR-AUC {average_precision_score(y_te, p):.3f} (base rate {y_te.mean():.2f})")

coefs = pd.Series(clf[-1].coef_[0], index=clf[0].get_feature_names_out()).round(2)
coefs.sort_values(key=abs, ascending=False).head(6)
''',
        twin="h29-tleak-flight-risk-pto-payout",
        note="Only features known before a resignation are used; the payroll exit payout is "
             "excluded.",
        split="holdout29",
    ),
    Case(
        id="h29-tleak-high-performer-merit-increase",
        family="target_leakage",
        setup=_PERF_SETUP,
        code='''
import statsmodels.formula.api as smf

# predict who will come out of calibration as a high performer, to brief managers early
train = perf.sample(frac=0.7, random_state=3)
test = perf.drop(train.index)

m = smf.logit("high_performer ~ tenure_yrs + training_hrs_fy + goals_completed_pct"
              " + peer_feedback + merit_increase_pct + C(dept)", data=train).fit(disp=0)
print(m.summary2().tables[1][["Coef.", "P>|z|"]].round(3))

test_pred = (m.predict(test) >= 0.5).astype(int)
acc = (test_pred == test.high_performer).mean()
print(f"\\npseudo R2 = {m.prsquared:.3f}; hold-out accuracy = {acc:.1%} "
      f"(n_test = {len(test)})")
''',
        twin="h29-tleak-high-performer-pre-cycle",
        note="merit_increase_pct is set from the calibrated rating at year end, i.e. derived "
             "from the outcome being predicted; accuracy and pseudo R2 are inflated.",
        split="holdout29",
    ),
    Case(
        id="h29-tleak-high-performer-pre-cycle",
        family=None,
        setup=_PERF_SETUP,
        code='''
import statsmodels.formula.api as smf

# predict who will come out of calibration as a high performer, to brief managers early
# (merit increase is decided from the rating, so it cannot be a predictor)
train = perf.sample(frac=0.7, random_state=3)
test = perf.drop(train.index)

m = smf.logit("high_performer ~ tenure_yrs + training_hrs_fy + goals_completed_pct"
              " + peer_feedback + C(dept)", data=train).fit(disp=0)
print(m.summary2().tables[1][["Coef.", "P>|z|"]].round(3))

test_pred = (m.predict(test) >= 0.5).astype(int)
acc = (test_pred == test.high_performer).mean()
print(f"\\npseudo R2 = {m.prsquared:.3f}; hold-out accuracy = {acc:.1%} "
      f"(n_test = {len(test)}, majority-class rate {1 - test.high_performer.mean():.1%})")
''',
        twin="h29-tleak-high-performer-merit-increase",
        note="Uses only inputs available before the rating cycle and reports hold-out accuracy "
             "against the majority-class baseline.",
        split="holdout29",
    ),
]
