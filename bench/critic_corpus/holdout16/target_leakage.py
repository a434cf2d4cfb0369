from bench.critic_corpus import Case

_SPLIT = "holdout16"

_NLRB_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 1800
unit_size = np.round(rng.lognormal(3.6, 0.9, n)).astype(int) + 2
pct_women = np.clip(rng.beta(2.5, 3, n), 0, 1).round(3)
ulp = rng.poisson(0.8, n)
campaign_days = rng.integers(20, 120, n)
industry = rng.choice(["health care", "manufacturing", "retail", "transport", "education"], n,
                      p=[0.3, 0.25, 0.2, 0.15, 0.1])
ind_eff = pd.Series({"health care": 0.4, "manufacturing": -0.1, "retail": -0.5,
                     "transport": 0.1, "education": 0.5})[industry].to_numpy()
lin = 0.3 - 0.25 * np.log(unit_size) + 0.8 * pct_women - 0.2 * ulp + ind_eff + 0.004 * (
    90 - campaign_days)
won = rng.binomial(1, 1 / (1 + np.exp(-lin)))
checkoff = np.where(won == 1, rng.binomial(1, 0.55, n), 0)
elections = pd.DataFrame({
    "case_no": [f"{rng.integers(1, 33):02d}-RC-{rng.integers(200000, 330000)}" for _ in range(n)],
    "unit_size": unit_size,
    "pct_women": pct_women,
    "ulp_charges": ulp,
    "campaign_days": campaign_days,
    "industry": industry,
    "dues_checkoff": checkoff,
    "union_won": won,
})
'''

_CLAIM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1962)
n = 3000
log_earn = rng.normal(13.4, 0.6, n)
health_fp = rng.binomial(1, 0.22, n)
spouse_work = rng.binomial(1, 0.45, n)
dc_bal = np.round(rng.lognormal(4.2, 1.1, n), 1)
lin = -0.8 + 0.9 * health_fp - 0.55 * (log_earn - 13.4) - 0.4 * spouse_work - 0.15 * np.log(
    dc_bal)
at62 = rng.binomial(1, 1 / (1 + np.exp(-lin)))
claim_age = np.where(at62 == 1, 62, rng.choice([63, 64, 65, 66, 67, 68, 70], n))
factor = pd.Series({62: 0.70, 63: 0.75, 64: 0.80, 65: 0.867, 66: 0.933, 67: 1.0, 68: 1.08,
                    70: 1.24})[claim_age].to_numpy()
pia = 900 + 0.018 * np.exp(log_earn) ** 0.85
benefit = np.round(pia * factor * rng.normal(1, 0.04, n), 2)
hrs = pd.DataFrame({
    "person_id": np.arange(n),
    "log_career_earn": log_earn.round(3),
    "health_fair_poor": health_fp,
    "spouse_working": spouse_work,
    "dc_balance_k": dc_bal,
    "initial_monthly_benefit": benefit,
    "claimed_at_62": at62,
})
'''

CASES = [
    Case(
        id="h16-target-leakage-union-dues-checkoff",
        family="target_leakage",
        split=_SPLIT,
        twin="h16-target-leakage-union-dues-checkoff-ok",
        setup=_NLRB_SETUP,
        note="dues_checkoff comes from the first contract, which only exists after the union "
             "wins the election, so the outcome leaks into the predictors",
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

X = pd.get_dummies(elections.drop(columns=["case_no", "union_won"]), columns=["industry"],
                   drop_first=True, dtype=float)
y = elections["union_won"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=3, stratify=y)

rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=3, n_jobs=1)
rf.fit(X_tr, y_tr)
prob = rf.predict_proba(X_te)[:, 1]
print(f"union win rate {y.mean():.2f}; test accuracy {accuracy_score(y_te, prob > 0.5):.3f}, "
      f"AUC {roc_auc_score(y_te, prob):.3f}")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
''',
    ),
    Case(
        id="h16-target-leakage-union-dues-checkoff-ok",
        family=None,
        split=_SPLIT,
        twin="h16-target-leakage-union-dues-checkoff",
        setup=_NLRB_SETUP,
        note="only pre-election characteristics of the unit and campaign are used to predict "
             "the election outcome",
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

pre_election = ["unit_size", "pct_women", "ulp_charges", "campaign_days", "industry"]
X = pd.get_dummies(elections[pre_election], columns=["industry"], drop_first=True, dtype=float)
y = elections["union_won"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=3, stratify=y)

rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=3, n_jobs=1)
rf.fit(X_tr, y_tr)
prob = rf.predict_proba(X_te)[:, 1]
print(f"union win rate {y.mean():.2f}; test accuracy {accuracy_score(y_te, prob > 0.5):.3f}, "
      f"AUC {roc_auc_score(y_te, prob):.3f}")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
''',
    ),
    Case(
        id="h16-target-leakage-pension-claiming-benefit",
        family="target_leakage",
        split=_SPLIT,
        twin="h16-target-leakage-pension-claiming-benefit-ok",
        setup=_CLAIM_SETUP,
        note="initial_monthly_benefit is set at claiming and is reduced by the actuarial factor "
             "for claiming at 62, so it encodes the outcome being predicted",
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

hrs["log_benefit"] = np.log(hrs["initial_monthly_benefit"])
train = hrs.sample(frac=0.7, random_state=62)
test = hrs.drop(train.index)

fit = smf.logit("claimed_at_62 ~ log_career_earn + health_fair_poor + spouse_working"
                " + np.log(dc_balance_k) + log_benefit", data=train).fit(disp=0)
print(fit.summary2().tables[1].round(3))
auc = roc_auc_score(test["claimed_at_62"], fit.predict(test))
print(f"pseudo R2 = {fit.prsquared:.3f}; out-of-sample AUC = {auc:.3f}")
''',
    ),
    Case(
        id="h16-target-leakage-pension-claiming-benefit-ok",
        family=None,
        split=_SPLIT,
        twin="h16-target-leakage-pension-claiming-benefit",
        setup=_CLAIM_SETUP,
        note="early-claiming model uses only pre-claiming characteristics; the benefit amount "
             "fixed at claiming is left out",
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = hrs.sample(frac=0.7, random_state=62)
test = hrs.drop(train.index)

fit = smf.logit("claimed_at_62 ~ log_career_earn + health_fair_poor + spouse_working"
                " + np.log(dc_balance_k)", data=train).fit(disp=0)
print(fit.summary2().tables[1].round(3))
auc = roc_auc_score(test["claimed_at_62"], fit.predict(test))
print(f"pseudo R2 = {fit.prsquared:.3f}; out-of-sample AUC = {auc:.3f}")
''',
    ),
]
