from bench.critic_corpus import Case

_LAPSE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3511)
n = 6000
ren = pd.DataFrame({
    "policy_id": np.arange(500000, 500000 + n),
    "prem_change_pct": np.round(rng.normal(6, 9, n), 1),
    "tenure_years": rng.integers(1, 15, n),
    "ncd_years": rng.integers(0, 10, n),
    "claims_last_term": rng.poisson(0.12, n),
    "insured_age": rng.integers(18, 85, n),
    "channel": rng.choice(["direct", "broker", "aggregator"], n, p=[0.35, 0.3, 0.35]),
    "monthly_pay": rng.binomial(1, 0.45, n),
})
eta = (-1.6 + 0.06 * ren.prem_change_pct - 0.09 * ren.tenure_years + 0.3 * ren.claims_last_term
       - 0.01 * (ren.insured_age - 45) + ren.channel.map({"direct": 0.0, "broker": -0.3,
                                                          "aggregator": 0.7}))
ren["lapsed"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
# retention desk: customers who phone in to cancel are offered a discount to stay
called_in = np.where(ren.lapsed == 1, rng.random(n) < 0.65, rng.random(n) < 0.04)
ren["retention_disc_offered"] = np.where(called_in, np.round(rng.uniform(5, 20, n), 1), 0.0)
'''

_FNOL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3512)
n = 2500
bi = pd.DataFrame({
    "claim_ref": [f"BI{i:06d}" for i in range(n)],
    "claimant_age": rng.integers(17, 80, n),
    "n_claimants": 1 + rng.poisson(0.5, n),
    "report_lag_days": rng.gamma(1.1, 12, n).round(),
    "solicitor_at_fnol": rng.binomial(1, 0.35, n),
    "whiplash_only": rng.binomial(1, 0.55, n),
    "urban": rng.binomial(1, 0.6, n),
})
log_mu = (8.6 + 0.25 * bi.n_claimants + 0.006 * bi.report_lag_days
          + 0.45 * bi.solicitor_at_fnol - 0.6 * bi.whiplash_only + 0.15 * bi.urban)
bi["ultimate_incurred"] = np.round(np.exp(log_mu + rng.normal(0, 0.9, n)), 0)
# paid to date at 24 months of development (a share of the eventual ultimate)
bi["paid_24m"] = np.round(bi.ultimate_incurred * rng.beta(6, 3, n), 0)
'''

CASES = [
    Case(
        id="h35-tl-lapse-retention-discount",
        family="target_leakage",
        twin="h35-tl-lapse-pricing-time-features",
        split="holdout35",
        setup=_LAPSE_SETUP,
        code='''
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

num_cols = ["prem_change_pct", "tenure_years", "ncd_years", "claims_last_term",
            "insured_age", "monthly_pay", "retention_disc_offered"]
cat_cols = ["channel"]

pre = ColumnTransformer([("num", StandardScaler(), num_cols),
                         ("cat", OneHotEncoder(drop="first"), cat_cols)])
lapse_model = make_pipeline(pre, LogisticRegression(max_iter=1000))

X_tr, X_te, y_tr, y_te = train_test_split(ren[num_cols + cat_cols], ren.lapsed,
                                          test_size=0.3, stratify=ren.lapsed, random_state=8)
lapse_model.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, lapse_model.predict_proba(X_te)[:, 1])

coefs = pd.Series(lapse_model[-1].coef_[0],
                  index=lapse_model[0].get_feature_names_out()).sort_values()
print(f"renewal book: {len(ren):,} policies, lapse rate {ren.lapsed.mean():.1%}")
print(f"lapse model test AUC: {auc:.3f}")
print(coefs.round(3).to_string())
''',
        note="retention_disc_offered is only set after a customer phones in to cancel, i.e. it "
             "is recorded after (and because of) the lapse, so the lapse model's AUC is leaked.",
    ),
    Case(
        id="h35-tl-lapse-pricing-time-features",
        family=None,
        twin="h35-tl-lapse-retention-discount",
        split="holdout35",
        setup=_LAPSE_SETUP,
        code='''
from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

# only what is known when the renewal invite is priced; the retention-desk discount is
# offered after the customer gives notice, so it is excluded
num_cols = ["prem_change_pct", "tenure_years", "ncd_years", "claims_last_term",
            "insured_age", "monthly_pay"]
cat_cols = ["channel"]

pre = ColumnTransformer([("num", StandardScaler(), num_cols),
                         ("cat", OneHotEncoder(drop="first"), cat_cols)])
lapse_model = make_pipeline(pre, LogisticRegression(max_iter=1000))

X_tr, X_te, y_tr, y_te = train_test_split(ren[num_cols + cat_cols], ren.lapsed,
                                          test_size=0.3, stratify=ren.lapsed, random_state=8)
lapse_model.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, lapse_model.predict_proba(X_te)[:, 1])

coefs = pd.Series(lapse_model[-1].coef_[0],
                  index=lapse_model[0].get_feature_names_out()).sort_values()
print(f"renewal book: {len(ren):,} policies, lapse rate {ren.lapsed.mean():.1%}")
print(f"lapse model test AUC: {auc:.3f}")
print(coefs.round(3).to_string())
''',
        note="Lapse model uses only rating-time features known when the renewal is priced; the "
             "post-notice retention discount is excluded, so the test AUC is honest.",
    ),
    Case(
        id="h35-tl-bi-severity-paid-to-date",
        family="target_leakage",
        twin="h35-tl-bi-severity-fnol-only",
        split="holdout35",
        setup=_FNOL_SETUP,
        code='''
import statsmodels.formula.api as smf

bi["log_ult"] = np.log(bi.ultimate_incurred)
bi["log_paid_24m"] = np.log1p(bi.paid_24m)

train = bi.iloc[:1800]
valid = bi.iloc[1800:]

triage = smf.ols("log_ult ~ n_claimants + report_lag_days + solicitor_at_fnol"
                 " + whiplash_only + urban + claimant_age + log_paid_24m", data=train).fit()
pred = triage.predict(valid)
ss_res = ((valid.log_ult - pred) ** 2).sum()
ss_tot = ((valid.log_ult - valid.log_ult.mean()) ** 2).sum()

print(triage.summary().tables[1])
print(f"FNOL triage model, validation R^2 on log ultimate: {1 - ss_res / ss_tot:.3f}")
within_25 = (np.abs(np.exp(pred) / valid.ultimate_incurred - 1) < 0.25).mean()
print(f"share of validation claims predicted within 25%: {within_25:.1%}")
''',
        note="The FNOL severity model uses paid-to-date at 24 months, a slice of the ultimate it "
             "predicts and unknown at first notice, so the validation R^2 is leaked.",
    ),
    Case(
        id="h35-tl-bi-severity-fnol-only",
        family=None,
        twin="h35-tl-bi-severity-paid-to-date",
        split="holdout35",
        setup=_FNOL_SETUP,
        code='''
import statsmodels.formula.api as smf

bi["log_ult"] = np.log(bi.ultimate_incurred)

train = bi.iloc[:1800]
valid = bi.iloc[1800:]

# triage at first notice: only fields captured on the FNOL form (no development data)
triage = smf.ols("log_ult ~ n_claimants + report_lag_days + solicitor_at_fnol"
                 " + whiplash_only + urban + claimant_age", data=train).fit()
pred = triage.predict(valid)
ss_res = ((valid.log_ult - pred) ** 2).sum()
ss_tot = ((valid.log_ult - valid.log_ult.mean()) ** 2).sum()

print(triage.summary().tables[1])
print(f"FNOL triage model, validation R^2 on log ultimate: {1 - ss_res / ss_tot:.3f}")
within_25 = (np.abs(np.exp(pred) / valid.ultimate_incurred - 1) < 0.25).mean()
print(f"share of validation claims predicted within 25%: {within_25:.1%}")
''',
        note="The FNOL severity triage model uses only first-notice fields and is scored on "
             "held-out claims, so the validation R^2 reflects what is knowable at FNOL.",
    ),
]
