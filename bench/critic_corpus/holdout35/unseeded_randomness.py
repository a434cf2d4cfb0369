from bench.critic_corpus import Case

_TRI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3591)
n_ay = 10
ays = np.arange(2014, 2014 + n_ay)
pattern = np.array([0.32, 0.58, 0.74, 0.84, 0.90, 0.94, 0.97, 0.985, 0.995, 1.0])
ult = rng.lognormal(np.log(9.0e6), 0.12, n_ay) * 1.04 ** np.arange(n_ay)
cum = np.full((n_ay, n_ay), np.nan)
for i in range(n_ay):
    noise = np.exp(rng.normal(0, 0.04, n_ay)).cumprod() ** 0.5
    for j in range(n_ay - i):
        cum[i, j] = round(ult[i] * pattern[j] * noise[j], 0)
tri = pd.DataFrame(cum, index=pd.Index(ays, name="acc_year"),
                   columns=pd.Index(np.arange(1, n_ay + 1) * 12, name="dev_months"))
'''

_GBM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3592)
n = 4000
ren = pd.DataFrame({
    "prem_change_pct": np.round(rng.normal(7, 10, n), 1),
    "tenure_years": rng.integers(1, 20, n),
    "insured_age": rng.integers(18, 90, n),
    "n_products": rng.integers(1, 4, n),
    "claims_last_3y": rng.poisson(0.25, n),
    "aggregator": rng.binomial(1, 0.4, n),
    "direct_debit": rng.binomial(1, 0.6, n),
})
eta = (-1.5 + 0.07 * ren.prem_change_pct - 0.08 * ren.tenure_years - 0.5 * (ren.n_products - 1)
       + 0.8 * ren.aggregator - 0.3 * ren.direct_debit + 0.2 * ren.claims_last_3y
       - 0.0004 * (ren.insured_age - 50) ** 2)
ren["lapsed"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
'''

CASES = [
    Case(
        id="h35-unseed-bootstrap-chain-ladder",
        family="unseeded_randomness",
        twin="h35-seeded-bootstrap-chain-ladder",
        split="holdout35",
        setup=_TRI_SETUP,
        code='''
C = tri.values
n = C.shape[0]
latest = np.array([C[i, n - 1 - i] for i in range(n)])
link = [C[: n - 1 - j, j + 1] / C[: n - 1 - j, j] for j in range(n - 1)]

B = 5000
f_sim = np.ones((B, n - 1))
for j, r in enumerate(link):
    draw = np.random.choice(r, size=(B, len(r)), replace=True)
    f_sim[:, j] = draw.mean(axis=1)

reserves = np.zeros(B)
for i in range(1, n):
    cdf_i = f_sim[:, n - 1 - i:].prod(axis=1)
    reserves += latest[i] * (cdf_i - 1)

pct = np.percentile(reserves, [50, 75, 99.5])
print(f"bootstrap outstanding reserve ({B} sims), GBP m:")
print(f"  mean {reserves.mean() / 1e6:,.3f}   median {pct[0] / 1e6:,.3f}")
print(f"  75th pct (booked) {pct[1] / 1e6:,.3f}   99.5th pct (SCR view) {pct[2] / 1e6:,.3f}")
''',
        note="Link ratios are bootstrapped with the global np.random.choice and no seed, so the "
             "booked 75th-percentile and 99.5th-percentile reserves change every run.",
    ),
    Case(
        id="h35-seeded-bootstrap-chain-ladder",
        family=None,
        twin="h35-unseed-bootstrap-chain-ladder",
        split="holdout35",
        setup=_TRI_SETUP,
        code='''
C = tri.values
n = C.shape[0]
latest = np.array([C[i, n - 1 - i] for i in range(n)])
link = [C[: n - 1 - j, j + 1] / C[: n - 1 - j, j] for j in range(n - 1)]

boot_rng = np.random.default_rng(20240331)   # fixed seed so the booked figure is reproducible
B = 5000
f_sim = np.ones((B, n - 1))
for j, r in enumerate(link):
    draw = boot_rng.choice(r, size=(B, len(r)), replace=True)
    f_sim[:, j] = draw.mean(axis=1)

reserves = np.zeros(B)
for i in range(1, n):
    cdf_i = f_sim[:, n - 1 - i:].prod(axis=1)
    reserves += latest[i] * (cdf_i - 1)

pct = np.percentile(reserves, [50, 75, 99.5])
print(f"bootstrap outstanding reserve ({B} sims), GBP m:")
print(f"  mean {reserves.mean() / 1e6:,.3f}   median {pct[0] / 1e6:,.3f}")
print(f"  75th pct (booked) {pct[1] / 1e6:,.3f}   99.5th pct (SCR view) {pct[2] / 1e6:,.3f}")
''',
        note="The link-ratio bootstrap draws from a seeded Generator, so the reported reserve "
             "percentiles are reproducible.",
    ),
    Case(
        id="h35-unseed-lapse-gbm",
        family="unseeded_randomness",
        twin="h35-seeded-lapse-gbm",
        split="holdout35",
        setup=_GBM_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

X = ren.drop(columns="lapsed")
X_tr, X_te, y_tr, y_te = train_test_split(X, ren.lapsed, test_size=0.25, stratify=ren.lapsed)
gbm = GradientBoostingClassifier(n_estimators=120, learning_rate=0.05, max_depth=3,
                                 subsample=0.7)
gbm.fit(X_tr, y_tr)

print(f"lapse GBM holdout AUC: {roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1]):.4f}")
print(pd.Series(gbm.feature_importances_, index=X.columns)
        .sort_values(ascending=False).round(3).to_string())
''',
        note="train_test_split and the subsampled GradientBoostingClassifier have no "
             "random_state, so the reported lapse-model AUC and importances vary run to run.",
    ),
    Case(
        id="h35-seeded-lapse-gbm",
        family=None,
        twin="h35-unseed-lapse-gbm",
        split="holdout35",
        setup=_GBM_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

SEED = 35  # fixes both the holdout split and the stochastic subsampling
X = ren.drop(columns="lapsed")
X_tr, X_te, y_tr, y_te = train_test_split(X, ren.lapsed, test_size=0.25, stratify=ren.lapsed,
                                          random_state=SEED)
gbm = GradientBoostingClassifier(n_estimators=120, learning_rate=0.05, max_depth=3,
                                 subsample=0.7, random_state=SEED)
gbm.fit(X_tr, y_tr)

print(f"lapse GBM holdout AUC: {roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1]):.4f}")
print(pd.Series(gbm.feature_importances_, index=X.columns)
        .sort_values(ascending=False).round(3).to_string())
''',
        note="Split and subsampled boosting both have a fixed random_state, so the reported "
             "lapse-model AUC and importances are reproducible.",
    ),
]
