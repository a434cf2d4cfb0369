from bench.critic_corpus import Case

_SETUP_COLL = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(3307)
n = 2500
placements = pd.DataFrame({
    "account_id": np.arange(700000, 700000 + n),
    "placement_dt": pd.Timestamp("2023-01-02") + pd.to_timedelta(rng.integers(0, 365, n), "D"),
    "balance_gbp": np.round(rng.lognormal(7.0, 0.9, n), 2),
    "dpd_at_placement": rng.integers(30, 180, n),
    "prior_ptp_broken": rng.poisson(0.8, n),
    "right_party_contact_rate": rng.beta(2, 5, n),
    "has_mobile": rng.binomial(1, 0.8, n),
})
lin = (0.6 - 0.012 * placements["dpd_at_placement"] - 0.35 * placements["prior_ptp_broken"]
       + 2.2 * placements["right_party_contact_rate"] - 0.15 * np.log(placements["balance_gbp"]))
placements["cured_60d"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
frac = np.where(placements["cured_60d"] == 1, rng.uniform(0.3, 1.0, n), rng.uniform(0, 0.12, n))
placements["total_paid_amt"] = np.round(frac * placements["balance_gbp"], 2)
placements["n_payments"] = np.where(placements["cured_60d"] == 1, rng.integers(1, 5, n),
                                    rng.binomial(1, 0.25, n))
'''

_FLAW_COLL = '''
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

features = ["balance_gbp", "dpd_at_placement", "prior_ptp_broken",
            "right_party_contact_rate", "has_mobile", "total_paid_amt", "n_payments"]
X_tr, X_te, y_tr, y_te = train_test_split(
    placements[features], placements["cured_60d"], test_size=0.25,
    stratify=placements["cured_60d"], random_state=42)

gbm = GradientBoostingClassifier(n_estimators=80, max_depth=3, random_state=0).fit(X_tr, y_tr)
p_cure = gbm.predict_proba(X_te)[:, 1]
print(f"test AUC {roc_auc_score(y_te, p_cure):.3f}")
pd.Series(gbm.feature_importances_, index=features).sort_values(ascending=False).round(3)
'''

_SOUND_COLL = '''
from sklearn.model_selection import train_test_split
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score

features = ["balance_gbp", "dpd_at_placement", "prior_ptp_broken",
            "right_party_contact_rate", "has_mobile"]
X_tr, X_te, y_tr, y_te = train_test_split(
    placements[features], placements["cured_60d"], test_size=0.25,
    stratify=placements["cured_60d"], random_state=42)

gbm = GradientBoostingClassifier(n_estimators=80, max_depth=3, random_state=0).fit(X_tr, y_tr)
p_cure = gbm.predict_proba(X_te)[:, 1]
print(f"test AUC {roc_auc_score(y_te, p_cure):.3f}")
pd.Series(gbm.feature_importances_, index=features).sort_values(ascending=False).round(3)
'''

_SETUP_SC = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(5150)
n = 3000
loans = pd.DataFrame({
    "ltv": np.clip(rng.normal(0.72, 0.15, n), 0.2, 1.1).round(3),
    "dti": np.clip(rng.gamma(4, 0.08, n), 0.02, 0.9).round(3),
    "fico_band": rng.choice(["<620", "620-679", "680-739", "740+"], n,
                            p=[0.12, 0.28, 0.35, 0.25]),
    "max_dpd_prev12m": rng.choice([0, 30, 60], n, p=[0.85, 0.11, 0.04]),
})
band_eff = loans["fico_band"].map({"<620": 1.1, "620-679": 0.5, "680-739": 0.0, "740+": -0.7})
lin = (-4.2 + 2.0 * loans["ltv"] + 2.5 * loans["dti"] + band_eff
       + 0.02 * loans["max_dpd_prev12m"])
loans["default_flag"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
worst = np.where(loans["default_flag"] == 1, rng.choice([60, 90, 90, 120, 180], n),
                 rng.choice([0, 0, 0, 0, 0, 0, 30, 30, 60, 90], n))
loans["worst_dpd_12m"] = worst
'''

_FLAW_SC = '''
import statsmodels.formula.api as smf

fit = smf.logit(
    "default_flag ~ ltv + dti + C(fico_band, Treatment('680-739')) + max_dpd_prev12m"
    " + worst_dpd_12m",
    data=loans,
).fit(disp=0, maxiter=200)
print(fit.summary2().tables[1][["Coef.", "Std.Err.", "P>|z|"]].round(4))
from sklearn.metrics import roc_auc_score
auc = roc_auc_score(loans["default_flag"], fit.predict(loans))
print(f"pseudo R2 {fit.prsquared:.3f}  in-sample AUC {auc:.3f}  Gini {2 * auc - 1:.3f}")
'''

_SOUND_SC = '''
import statsmodels.formula.api as smf

fit = smf.logit(
    "default_flag ~ ltv + dti + C(fico_band, Treatment('680-739')) + max_dpd_prev12m",
    data=loans,
).fit(disp=0, maxiter=200)
print(fit.summary2().tables[1][["Coef.", "Std.Err.", "P>|z|"]].round(4))
from sklearn.metrics import roc_auc_score
auc = roc_auc_score(loans["default_flag"], fit.predict(loans))
print(f"pseudo R2 {fit.prsquared:.3f}  in-sample AUC {auc:.3f}  Gini {2 * auc - 1:.3f}")
'''

CASES: list[Case] = [
    Case(id="h20-target-leakage-collections-paid-amount", family="target_leakage",
         code=_FLAW_COLL, setup=_SETUP_COLL, twin="h20-target-leakage-collections-at-placement",
         note="cure model at placement uses total_paid_amt and n_payments, which are the "
              "payments made in the 60-day outcome window itself",
         split="holdout20"),
    Case(id="h20-target-leakage-collections-at-placement", family=None, code=_SOUND_COLL,
         setup=_SETUP_COLL, twin="h20-target-leakage-collections-paid-amount",
         note="cure model uses only attributes known at placement date; honest test AUC",
         split="holdout20"),
    Case(id="h20-target-leakage-scorecard-worst-dpd", family="target_leakage",
         code=_FLAW_SC, setup=_SETUP_SC, twin="h20-target-leakage-scorecard-prior-dpd",
         note="PD logit includes worst_dpd_12m, the worst delinquency over the performance "
              "window that defines default (90+ DPD)",
         split="holdout20"),
    Case(id="h20-target-leakage-scorecard-prior-dpd", family=None, code=_SOUND_SC,
         setup=_SETUP_SC, twin="h20-target-leakage-scorecard-worst-dpd",
         note="PD logit uses only application attributes and delinquency before the "
              "observation date; in-sample Gini reported as a fit statistic",
         split="holdout20"),
]
