from bench.critic_corpus import Case

_FRAUD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3501)
n = 4000
clm = pd.DataFrame({
    "claim_id": np.arange(100000, 100000 + n),
    "report_lag_days": rng.gamma(1.2, 9.0, n).round(),
    "policy_age_months": rng.integers(0, 120, n),
    "incurred": np.round(rng.lognormal(8.1, 1.1, n), 2),
    "n_prior_claims": rng.poisson(0.4, n),
    "third_party_injury": rng.binomial(1, 0.18, n),
    "night_time_loss": rng.binomial(1, 0.22, n),
    "police_report": rng.binomial(1, 0.6, n),
})
eta = (-3.1 + 0.035 * clm.report_lag_days - 0.012 * clm.policy_age_months
       + 0.5 * clm.n_prior_claims + 0.7 * clm.night_time_loss - 0.8 * clm.police_report
       + 0.25 * (np.log(clm.incurred) - 8.1))
clm["fraud_flag"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
'''

_TERR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3502)
n = 12000
n_terr = 220
terr_effect = rng.lognormal(0.0, 0.35, n_terr)
pol = pd.DataFrame({
    "policy_id": np.arange(n),
    "territory": rng.integers(0, n_terr, n),
    "age_band": rng.choice(["17-24", "25-39", "40-59", "60+"], n, p=[0.1, 0.35, 0.4, 0.15]),
    "veh_group": rng.choice(["A", "B", "C", "D"], n, p=[0.3, 0.35, 0.25, 0.1]),
    "exposure": np.round(rng.uniform(0.08, 1.0, n), 3),
})
age_rel = pol.age_band.map({"17-24": 2.1, "25-39": 1.1, "40-59": 0.9, "60+": 1.0})
veh_rel = pol.veh_group.map({"A": 0.85, "B": 1.0, "C": 1.15, "D": 1.4})
lam = 0.09 * pol.exposure * age_rel * veh_rel * terr_effect[pol.territory]
pol["claim_count"] = rng.poisson(lam)
'''

CASES = [
    Case(
        id="h35-leak-fraud-upsample-before-split",
        family="leakage",
        twin="h35-leak-fraud-upsample-train-only",
        split="holdout35",
        setup=_FRAUD_SETUP,
        code='''
from sklearn.utils import resample
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, average_precision_score

feats = ["report_lag_days", "policy_age_months", "incurred", "n_prior_claims",
         "third_party_injury", "night_time_loss", "police_report"]
print(f"SIU-confirmed fraud rate: {clm.fraud_flag.mean():.2%} of {len(clm):,} claims")

# fraud is rare, so bring the confirmed cases up to parity with the genuine claims
fraud = clm[clm.fraud_flag == 1]
genuine = clm[clm.fraud_flag == 0]
fraud_up = resample(fraud, replace=True, n_samples=len(genuine), random_state=42)
bal = pd.concat([genuine, fraud_up]).sample(frac=1, random_state=42).reset_index(drop=True)

X_tr, X_te, y_tr, y_te = train_test_split(bal[feats], bal.fraud_flag, test_size=0.3,
                                          stratify=bal.fraud_flag, random_state=42)
rf = RandomForestClassifier(n_estimators=80, random_state=42, n_jobs=1).fit(X_tr, y_tr)
score = rf.predict_proba(X_te)[:, 1]

print(f"holdout AUC           : {roc_auc_score(y_te, score):.3f}")
print(f"holdout avg precision : {average_precision_score(y_te, score):.3f}")
print(f"holdout size          : {len(y_te):,}")
''',
        note="Fraud cases are upsampled with replacement before train_test_split, so copies of "
             "the same fraud claims sit in train and test and the holdout AUC/AP are inflated.",
    ),
    Case(
        id="h35-leak-fraud-upsample-train-only",
        family=None,
        twin="h35-leak-fraud-upsample-before-split",
        split="holdout35",
        setup=_FRAUD_SETUP,
        code='''
from sklearn.utils import resample
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, average_precision_score

feats = ["report_lag_days", "policy_age_months", "incurred", "n_prior_claims",
         "third_party_injury", "night_time_loss", "police_report"]
print(f"SIU-confirmed fraud rate: {clm.fraud_flag.mean():.2%} of {len(clm):,} claims")

# split the raw claims first; only the training fraud cases are upsampled, the test set keeps
# the real prevalence and contains no copies of training claims
train, test = train_test_split(clm, test_size=0.3, stratify=clm.fraud_flag, random_state=42)
fraud = train[train.fraud_flag == 1]
genuine = train[train.fraud_flag == 0]
fraud_up = resample(fraud, replace=True, n_samples=len(genuine), random_state=42)
bal = pd.concat([genuine, fraud_up]).sample(frac=1, random_state=42)

rf = RandomForestClassifier(n_estimators=80, random_state=42, n_jobs=1)
rf.fit(bal[feats], bal.fraud_flag)
score = rf.predict_proba(test[feats])[:, 1]

print(f"holdout AUC           : {roc_auc_score(test.fraud_flag, score):.3f}")
print(f"holdout avg precision : {average_precision_score(test.fraud_flag, score):.3f}")
print(f"holdout size          : {len(test):,} ({test.fraud_flag.sum()} fraud)")
''',
        note="Train/test split on the raw claims before upsampling; only training fraud cases "
             "are resampled and the test set keeps real prevalence, so the holdout AUC is honest.",
    ),
    Case(
        id="h35-leak-territory-relativity-all-rows",
        family="leakage",
        twin="h35-leak-territory-relativity-train-only",
        split="holdout35",
        setup=_TERR_SETUP,
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf
from sklearn.model_selection import train_test_split

def norm_gini(claims, pred_freq, expo):
    order = np.argsort(pred_freq)
    cum_expo = np.concatenate([[0], np.cumsum(expo[order]) / expo.sum()])
    cum_clm = np.concatenate([[0], np.cumsum(claims[order]) / claims.sum()])
    area = np.sum((cum_clm[1:] + cum_clm[:-1]) / 2 * np.diff(cum_expo))
    return 1 - 2 * area

# territory relativities: credibility-weighted experience, K = 40 exposure years
book_freq = pol.claim_count.sum() / pol.exposure.sum()
terr = pol.groupby("territory").agg(n_clm=("claim_count", "sum"), expo=("exposure", "sum"))
z = terr.expo / (terr.expo + 40)
terr["rel"] = (z * terr.n_clm / terr.expo + (1 - z) * book_freq) / book_freq
pol["log_terr_rel"] = np.log(pol.territory.map(terr.rel))

train, test = train_test_split(pol, test_size=0.25, random_state=11)
freq_glm = smf.glm("claim_count ~ log_terr_rel + C(age_band) + C(veh_group)", data=train,
                   family=sm.families.Poisson(), offset=np.log(train.exposure)).fit()
mu = freq_glm.predict(test, offset=np.log(test.exposure))
pred_freq = mu / test.exposure

print(freq_glm.params.round(3).to_string())
print(f"test Gini (territory + age + vehicle): "
      f"{norm_gini(test.claim_count.values, pred_freq.values, test.exposure.values):.3f}")
''',
        note="Territory experience relativities are computed from all policies, including the "
             "test rows' own claims, before the split, so the test Gini is inflated.",
    ),
    Case(
        id="h35-leak-territory-relativity-train-only",
        family=None,
        twin="h35-leak-territory-relativity-all-rows",
        split="holdout35",
        setup=_TERR_SETUP,
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf
from sklearn.model_selection import train_test_split

def norm_gini(claims, pred_freq, expo):
    order = np.argsort(pred_freq)
    cum_expo = np.concatenate([[0], np.cumsum(expo[order]) / expo.sum()])
    cum_clm = np.concatenate([[0], np.cumsum(claims[order]) / claims.sum()])
    area = np.sum((cum_clm[1:] + cum_clm[:-1]) / 2 * np.diff(cum_expo))
    return 1 - 2 * area

train, test = train_test_split(pol, test_size=0.25, random_state=11)

# territory relativities from the training experience only; unseen territories get 1.0
book_freq = train.claim_count.sum() / train.exposure.sum()
terr = train.groupby("territory").agg(n_clm=("claim_count", "sum"), expo=("exposure", "sum"))
z = terr.expo / (terr.expo + 40)
terr["rel"] = (z * terr.n_clm / terr.expo + (1 - z) * book_freq) / book_freq
train = train.assign(log_terr_rel=np.log(train.territory.map(terr.rel)))
test = test.assign(log_terr_rel=np.log(test.territory.map(terr.rel).fillna(1.0)))

freq_glm = smf.glm("claim_count ~ log_terr_rel + C(age_band) + C(veh_group)", data=train,
                   family=sm.families.Poisson(), offset=np.log(train.exposure)).fit()
mu = freq_glm.predict(test, offset=np.log(test.exposure))
pred_freq = mu / test.exposure

print(freq_glm.params.round(3).to_string())
print(f"test Gini (territory + age + vehicle): "
      f"{norm_gini(test.claim_count.values, pred_freq.values, test.exposure.values):.3f}")
''',
        note="Territory credibility relativities are estimated on the training policies only and "
             "mapped onto the test set, so the test Gini measures genuine out-of-sample lift.",
    ),
]
