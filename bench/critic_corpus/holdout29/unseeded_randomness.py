from bench.critic_corpus import Case

_FUNNEL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291101)
n = 1200
funnel = pd.DataFrame({
    "candidate_id": [f"CAND-{90000 + i}" for i in range(n)],
    "source": rng.choice(["referral", "linkedin", "job_board", "agency", "campus"], n,
                         p=[0.14, 0.3, 0.3, 0.1, 0.16]),
    "years_experience": np.round(rng.gamma(2.2, 2.5, n), 1),
    "screen_score": np.round(np.clip(rng.normal(62, 14, n), 0, 100)),
    "assessment_pct": np.round(np.clip(rng.normal(58, 17, n), 0, 100)),
    "days_in_process": rng.integers(5, 70, n),
    "n_interviews": rng.integers(1, 5, n),
})
lin = (-1.2 + 0.035 * (funnel.assessment_pct - 58) + 0.02 * (funnel.screen_score - 62)
       + 0.6 * (funnel.source == "referral") - 0.015 * (funnel.days_in_process - 37))
funnel["hired"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

_ONBOARD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291102)
new_hires = pd.DataFrame({
    "hire_id": [f"NH{i:04d}" for i in range(150)],
    "onboarding": np.repeat(["buddy_scheme", "standard"], [72, 78]),
})
# days until the new starter first hits the productivity standard (manager sign-off)
base = np.where(new_hires.onboarding == "buddy_scheme", 41, 49)
new_hires["days_to_productive"] = np.round(base * rng.lognormal(0, 0.35, 150)).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h29-unseed-hiring-model-split-and-forest",
        family="unseeded_randomness",
        setup=_FUNNEL_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

X = pd.get_dummies(funnel.drop(columns=["candidate_id", "hired"]), columns=["source"])
y = funnel["hired"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y)

rf = RandomForestClassifier(n_estimators=100, max_depth=6, n_jobs=1)
rf.fit(X_train, y_train)
auc = roc_auc_score(y_test, rf.predict_proba(X_test)[:, 1])
print(f"Hire-likelihood model, hold-out AUC = {auc:.3f}")
imp = pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False)
print("top drivers:", ", ".join(f"{k} ({v:.3f})" for k, v in imp.head(4).items()))
''',
        twin="h29-unseed-hiring-model-seeded",
        note="Neither the train/test split nor the random forest has a random_state, so the "
             "reported AUC and importances change every time the cell runs.",
        split="holdout29",
    ),
    Case(
        id="h29-unseed-hiring-model-seeded",
        family=None,
        setup=_FUNNEL_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

SEED = 20240611
X = pd.get_dummies(funnel.drop(columns=["candidate_id", "hired"]), columns=["source"])
y = funnel["hired"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, stratify=y,
                                                    random_state=SEED)

rf = RandomForestClassifier(n_estimators=100, max_depth=6, n_jobs=1, random_state=SEED)
rf.fit(X_train, y_train)
auc = roc_auc_score(y_test, rf.predict_proba(X_test)[:, 1])
print(f"Hire-likelihood model, hold-out AUC = {auc:.3f}")
imp = pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False)
print("top drivers:", ", ".join(f"{k} ({v:.3f})" for k, v in imp.head(4).items()))
''',
        twin="h29-unseed-hiring-model-split-and-forest",
        note="Split and forest are seeded, so the reported AUC and importances are "
             "reproducible.",
        split="holdout29",
    ),
    Case(
        id="h29-unseed-onboarding-bootstrap-ci",
        family="unseeded_randomness",
        setup=_ONBOARD_SETUP,
        code='''
buddy = new_hires.loc[new_hires.onboarding == "buddy_scheme", "days_to_productive"].to_numpy()
std = new_hires.loc[new_hires.onboarding == "standard", "days_to_productive"].to_numpy()
obs = np.median(std) - np.median(buddy)

boot = []
for _ in range(2000):
    b = np.random.choice(buddy, size=len(buddy), replace=True)
    s = np.random.choice(std, size=len(std), replace=True)
    boot.append(np.median(s) - np.median(b))
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"Buddy scheme gets new starters productive {obs:.1f} days sooner (median); "
      f"95% bootstrap CI {lo:.1f} to {hi:.1f} days")
print(f"bootstrap P(diff <= 0) = {np.mean(np.array(boot) <= 0):.3f}")
''',
        twin="h29-unseed-onboarding-bootstrap-ci-seeded",
        note="The bootstrap resamples with the unseeded global np.random, so the reported CI "
             "limits and bootstrap probability differ on every run.",
        split="holdout29",
    ),
    Case(
        id="h29-unseed-onboarding-bootstrap-ci-seeded",
        family=None,
        setup=_ONBOARD_SETUP,
        code='''
buddy = new_hires.loc[new_hires.onboarding == "buddy_scheme", "days_to_productive"].to_numpy()
std = new_hires.loc[new_hires.onboarding == "standard", "days_to_productive"].to_numpy()
obs = np.median(std) - np.median(buddy)

boot_rng = np.random.default_rng(8675309)
boot = []
for _ in range(2000):
    b = boot_rng.choice(buddy, size=len(buddy), replace=True)
    s = boot_rng.choice(std, size=len(std), replace=True)
    boot.append(np.median(s) - np.median(b))
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"Buddy scheme gets new starters productive {obs:.1f} days sooner (median); "
      f"95% bootstrap CI {lo:.1f} to {hi:.1f} days")
print(f"bootstrap P(diff <= 0) = {np.mean(np.array(boot) <= 0):.3f}")
''',
        twin="h29-unseed-onboarding-bootstrap-ci",
        note="Same percentile bootstrap driven by a seeded Generator, so the CI is "
             "reproducible.",
        split="holdout29",
    ),
]
