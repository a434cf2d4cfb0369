from bench.critic_corpus import Case

_SETUP_VAS = '''
import numpy as np
import pandas as pd
seg = pd.DataFrame({
    "segment": ["large_corp", "mid_corp", "sme", "cre", "retail_mort", "cards"],
    "ead_gbp_m": [1800.0, 950.0, 620.0, 700.0, 2400.0, 380.0],
    "pd_1y": [0.004, 0.011, 0.025, 0.018, 0.006, 0.035],
    "lgd": [0.40, 0.42, 0.48, 0.30, 0.15, 0.80],
    "rho": [0.20, 0.18, 0.12, 0.16, 0.15, 0.04],
    "n_names": [60, 150, 400, 120, 2000, 5000],
})
'''

_FLAW_VAS = '''
from scipy.stats import norm

rng = np.random.default_rng()
n_sims = 20000
z = rng.standard_normal(n_sims)
losses = np.zeros(n_sims)
for s in seg.itertuples():
    thr = norm.ppf(s.pd_1y)
    cond_pd = norm.cdf((thr - np.sqrt(s.rho) * z) / np.sqrt(1 - s.rho))
    defaults = rng.binomial(s.n_names, cond_pd)
    losses += defaults / s.n_names * s.ead_gbp_m * s.lgd
el = losses.mean()
var999 = np.quantile(losses, 0.999)
print(f"EL GBP {el:.1f}m | 99.9% VaR GBP {var999:.1f}m | economic capital GBP {var999 - el:.1f}m")
'''

_SOUND_VAS = '''
from scipy.stats import norm

rng = np.random.default_rng(20241231)
n_sims = 20000
z = rng.standard_normal(n_sims)
losses = np.zeros(n_sims)
for s in seg.itertuples():
    thr = norm.ppf(s.pd_1y)
    cond_pd = norm.cdf((thr - np.sqrt(s.rho) * z) / np.sqrt(1 - s.rho))
    defaults = rng.binomial(s.n_names, cond_pd)
    losses += defaults / s.n_names * s.ead_gbp_m * s.lgd
el = losses.mean()
var999 = np.quantile(losses, 0.999)
print(f"EL GBP {el:.1f}m | 99.9% VaR GBP {var999:.1f}m | economic capital GBP {var999 - el:.1f}m")
'''

_SETUP_RF = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(4343)
n = 3000
claims = pd.DataFrame({
    "days_policy_to_claim": rng.integers(1, 1500, n),
    "claim_amount_gbp": np.round(rng.lognormal(7.5, 1.0, n), 2),
    "n_prior_claims": rng.poisson(0.4, n),
    "third_party_injury": rng.binomial(1, 0.18, n),
    "reported_delay_days": rng.gamma(1.5, 6, n).round(),
    "police_report": rng.binomial(1, 0.6, n),
})
lin = (-2.0 - 0.001 * claims["days_policy_to_claim"] + 0.5 * claims["n_prior_claims"]
       + 0.9 * claims["third_party_injury"] + 0.04 * claims["reported_delay_days"]
       - 0.8 * claims["police_report"])
claims["siu_confirmed_fraud"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

_FLAW_RF = '''
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score

X = claims.drop(columns="siu_confirmed_fraud")
y = claims["siu_confirmed_fraud"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y)
rf = RandomForestClassifier(n_estimators=60, min_samples_leaf=20, n_jobs=1).fit(X_tr, y_tr)
p = rf.predict_proba(X_te)[:, 1]
auc = roc_auc_score(y_te, p)
top_decile = y_te.to_numpy()[np.argsort(-p)[: len(p) // 10]].mean()
print(f"claims fraud model: test AUC {auc:.3f}, Gini {2 * auc - 1:.3f}, "
      f"top-decile lift {top_decile / y_te.mean():.2f}x")
'''

_SOUND_RF = '''
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score

X = claims.drop(columns="siu_confirmed_fraud")
y = claims["siu_confirmed_fraud"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=17)
rf = RandomForestClassifier(n_estimators=60, min_samples_leaf=20, n_jobs=1,
                            random_state=17).fit(X_tr, y_tr)
p = rf.predict_proba(X_te)[:, 1]
auc = roc_auc_score(y_te, p)
top_decile = y_te.to_numpy()[np.argsort(-p)[: len(p) // 10]].mean()
print(f"claims fraud model: test AUC {auc:.3f}, Gini {2 * auc - 1:.3f}, "
      f"top-decile lift {top_decile / y_te.mean():.2f}x")
'''

CASES: list[Case] = [
    Case(id="h20-unseeded-vasicek-capital", family="unseeded_randomness",
         code=_FLAW_VAS, setup=_SETUP_VAS, twin="h20-unseeded-vasicek-capital-seeded",
         note="economic capital from a 99.9% Monte Carlo quantile drawn with an unseeded "
              "default_rng(), so the reported VaR changes every run",
         split="holdout20"),
    Case(id="h20-unseeded-vasicek-capital-seeded", family=None, code=_SOUND_VAS,
         setup=_SETUP_VAS, twin="h20-unseeded-vasicek-capital",
         note="same one-factor Monte Carlo with a fixed seed, reproducible capital figure",
         split="holdout20"),
    Case(id="h20-unseeded-claims-fraud-rf", family="unseeded_randomness",
         code=_FLAW_RF, setup=_SETUP_RF, twin="h20-unseeded-claims-fraud-rf-seeded",
         note="train_test_split and RandomForest without random_state, so the reported AUC "
              "and lift depend on the global random state",
         split="holdout20"),
    Case(id="h20-unseeded-claims-fraud-rf-seeded", family=None, code=_SOUND_RF,
         setup=_SETUP_RF, twin="h20-unseeded-claims-fraud-rf",
         note="split and forest seeded; AUC and lift are reproducible",
         split="holdout20"),
]
