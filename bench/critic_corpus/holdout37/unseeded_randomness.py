from bench.critic_corpus import Case

_CI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3720)
n = 186
# most recent calving-to-calving interval per cow, one herd, 2022-2024 calvings
ci_days = (365 + rng.gamma(1.6, 28, n) + rng.binomial(1, 0.12, n) * rng.gamma(3, 25, n)).round()
herd = pd.DataFrame({"cow": [f"IE{772000 + i}" for i in range(n)],
                     "parity": rng.integers(2, 9, n), "calving_interval_d": ci_days})
'''

_SALM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3721)
n = 340
farms = pd.DataFrame({
    "herd_size": rng.lognormal(6.6, 0.6, n).round(),
    "wet_feed": rng.binomial(1, 0.3, n),
    "pelleted_feed": rng.binomial(1, 0.55, n),
    "all_in_all_out": rng.binomial(1, 0.5, n),
    "rodent_score": rng.integers(0, 4, n),
    "outdoor_access": rng.binomial(1, 0.15, n),
    "n_suppliers": rng.integers(1, 6, n),
})
lin = (-0.6 + 0.5 * np.log(farms.herd_size / 700) - 0.9 * farms.wet_feed
       + 0.6 * farms.pelleted_feed - 0.5 * farms.all_in_all_out + 0.3 * farms.rodent_score
       + 0.25 * (farms.n_suppliers - 2))
# herd is "Salmonella positive" when meat-juice ELISA prevalence exceeds 20 % at slaughter
farms["salm_pos"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

CASES = [
    Case(
        id="h37-unseed-calving-interval-bootstrap",
        family="unseeded_randomness",
        twin="h37-unseed-calving-interval-bootstrap-rng",
        setup=_CI_SETUP,
        code='''ci = herd["calving_interval_d"].to_numpy()
boot_means = np.array([np.random.choice(ci, size=len(ci), replace=True).mean()
                       for _ in range(2000)])
lo, hi = np.percentile(boot_means, [2.5, 97.5])
print(f"cows: {len(ci)}, mean calving interval {ci.mean():.1f} d "
      f"(bootstrap 95% CI {lo:.1f} to {hi:.1f} d, SE {boot_means.std(ddof=1):.2f} d)")
print(f"P(mean interval > 420 d) from bootstrap: {(boot_means > 420).mean():.3f}")
''',
        note="Bootstrap resamples come from the unseeded global numpy generator, so the "
             "reported CI, SE and bootstrap probability change on every run.",
        split="holdout37",
    ),
    Case(
        id="h37-unseed-calving-interval-bootstrap-rng",
        family=None,
        twin="h37-unseed-calving-interval-bootstrap",
        setup=_CI_SETUP,
        code='''ci = herd["calving_interval_d"].to_numpy()
boot_rng = np.random.default_rng(20240611)  # fixed seed: the reported CI is reproducible
boot_means = np.array([boot_rng.choice(ci, size=len(ci), replace=True).mean()
                       for _ in range(2000)])
lo, hi = np.percentile(boot_means, [2.5, 97.5])
print(f"cows: {len(ci)}, mean calving interval {ci.mean():.1f} d "
      f"(bootstrap 95% CI {lo:.1f} to {hi:.1f} d, SE {boot_means.std(ddof=1):.2f} d)")
print(f"P(mean interval > 420 d) from bootstrap: {(boot_means > 420).mean():.3f}")
''',
        note="Same percentile bootstrap drawn from an explicitly seeded Generator, so the "
             "interval is reproducible.",
        split="holdout37",
    ),
    Case(
        id="h37-unseed-salmonella-rf",
        family="unseeded_randomness",
        twin="h37-unseed-salmonella-rf-seeded",
        setup=_SALM_SETUP,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import accuracy_score, roc_auc_score

X = farms.drop(columns="salm_pos")
y = farms["salm_pos"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y)

rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3)
rf.fit(X_tr, y_tr)
prob = rf.predict_proba(X_te)[:, 1]
print(f"Salmonella herd status, test farms (n = {len(y_te)}): "
      f"accuracy = {accuracy_score(y_te, prob > 0.5):.3f}, AUC = {roc_auc_score(y_te, prob):.3f}")
print(pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3))
''',
        note="Neither the train/test split nor the random forest is seeded, so the reported "
             "accuracy, AUC and importances differ on every run.",
        split="holdout37",
    ),
    Case(
        id="h37-unseed-salmonella-rf-seeded",
        family=None,
        twin="h37-unseed-salmonella-rf",
        setup=_SALM_SETUP,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import accuracy_score, roc_auc_score

SEED = 3721  # split and forest seeded so the numbers below can be reproduced
X = farms.drop(columns="salm_pos")
y = farms["salm_pos"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=SEED)

rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=SEED)
rf.fit(X_tr, y_tr)
prob = rf.predict_proba(X_te)[:, 1]
print(f"Salmonella herd status, test farms (n = {len(y_te)}): "
      f"accuracy = {accuracy_score(y_te, prob > 0.5):.3f}, AUC = {roc_auc_score(y_te, prob):.3f}")
print(pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3))
''',
        note="The split and the forest both have a fixed random_state, so accuracy, AUC and "
             "importances are reproducible.",
        split="holdout37",
    ),
]
