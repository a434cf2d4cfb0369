from bench.critic_corpus import Case

_TESTING_SETUP = """\
import numpy as np
import pandas as pd

# registered replication of the testing effect: final-test % correct after one week
rng = np.random.default_rng(1906)
final = pd.DataFrame({
    "participant": [f"TE{i:03d}" for i in range(92)],
    "condition": ["retrieval"] * 46 + ["restudy"] * 46,
    "final_pct": np.r_[np.clip(rng.normal(61, 17, 46), 0, 100),
                       np.clip(rng.normal(53, 18, 46), 0, 100)].round(1),
})
final.groupby("condition")["final_pct"].describe().round(1)
"""

_MOCK_SETUP = """\
import numpy as np
import pandas as pd

# autumn mock paper: 25 items scored 0/1; outcome = passed the summer exam (grade 4+)
rng = np.random.default_rng(2525)
n, k = 640, 25
ability = rng.normal(0, 1, n)
difficulty = np.linspace(-1.5, 1.8, k)
p_correct = 1 / (1 + np.exp(-(1.3 * ability[:, None] - difficulty[None, :])))
mock = pd.DataFrame((rng.random((n, k)) < p_correct).astype(int),
                    columns=[f"item{j + 1:02d}" for j in range(k)])
mock["mock_total"] = mock.sum(axis=1)
mock["passed_summer"] = (0.9 * ability + rng.normal(0, 0.8, n) > -0.3).astype(int)
print(mock.shape, "pass rate:", round(mock.passed_summer.mean(), 3))
"""

CASES: list[Case] = [
    Case(
        id="h21-unseeded-randomness-testing-effect-bootstrap-d",
        family="unseeded_randomness",
        setup=_TESTING_SETUP,
        code="""\
def cohens_d(a, b):
    sp = np.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1))
                 / (len(a) + len(b) - 2))
    return (a.mean() - b.mean()) / sp


ret = final.loc[final.condition == "retrieval", "final_pct"].to_numpy()
res = final.loc[final.condition == "restudy", "final_pct"].to_numpy()
d = cohens_d(ret, res)

boot = []
for _ in range(2000):
    a = np.random.choice(ret, size=len(ret), replace=True)
    b = np.random.choice(res, size=len(res), replace=True)
    boot.append(cohens_d(a, b))
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"Testing effect: d = {d:.2f}, 95% bootstrap CI [{lo:.3f}, {hi:.3f}] "
      f"(2000 resamples)")
print(f"Original study d = 0.62 {'lies inside' if lo <= 0.62 <= hi else 'lies outside'} "
      f"the replication CI")
""",
        twin="h21-unseeded-randomness-testing-effect-bootstrap-seeded",
        note="The bootstrap CI for d is drawn with unseeded np.random.choice, so the reported "
             "limits (and the inside/outside verdict) change on every run.",
        split="holdout21",
    ),
    Case(
        id="h21-unseeded-randomness-testing-effect-bootstrap-seeded",
        family=None,
        setup=_TESTING_SETUP,
        code="""\
def cohens_d(a, b):
    sp = np.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(b) - 1) * b.var(ddof=1))
                 / (len(a) + len(b) - 2))
    return (a.mean() - b.mean()) / sp


ret = final.loc[final.condition == "retrieval", "final_pct"].to_numpy()
res = final.loc[final.condition == "restudy", "final_pct"].to_numpy()
d = cohens_d(ret, res)

rng = np.random.default_rng(20210917)          # seed from the preregistration
boot = []
for _ in range(2000):
    a = rng.choice(ret, size=len(ret), replace=True)
    b = rng.choice(res, size=len(res), replace=True)
    boot.append(cohens_d(a, b))
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"Testing effect: d = {d:.2f}, 95% bootstrap CI [{lo:.3f}, {hi:.3f}] "
      f"(2000 resamples)")
print(f"Original study d = 0.62 {'lies inside' if lo <= 0.62 <= hi else 'lies outside'} "
      f"the replication CI")
""",
        twin="h21-unseeded-randomness-testing-effect-bootstrap-d",
        note="Same percentile bootstrap, drawn from a seeded Generator, so the reported CI is "
             "reproducible.",
        split="holdout21",
    ),
    Case(
        id="h21-unseeded-randomness-mock-items-forest-split",
        family="unseeded_randomness",
        setup=_MOCK_SETUP,
        code="""\
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

items = [c for c in mock.columns if c.startswith("item")]
X_train, X_test, y_train, y_test = train_test_split(mock[items], mock["passed_summer"],
                                                    test_size=0.25)
forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5)
forest.fit(X_train, y_train)

prob = forest.predict_proba(X_test)[:, 1]
print(f"Predicting a summer pass from mock items: accuracy = "
      f"{accuracy_score(y_test, prob > .5):.3f}, AUC = {roc_auc_score(y_test, prob):.3f}")
imp = pd.Series(forest.feature_importances_, index=items).nlargest(5)
print("Most diagnostic items:", ", ".join(imp.index))
imp.round(3)
""",
        twin="h21-unseeded-randomness-mock-items-forest-seeded",
        note="Neither train_test_split nor the random forest has a random_state, so the "
             "reported accuracy, AUC and 'most diagnostic items' change from run to run.",
        split="holdout21",
    ),
    Case(
        id="h21-unseeded-randomness-mock-items-forest-seeded",
        family=None,
        setup=_MOCK_SETUP,
        code="""\
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

SEED = 2024
items = [c for c in mock.columns if c.startswith("item")]
X_train, X_test, y_train, y_test = train_test_split(mock[items], mock["passed_summer"],
                                                    test_size=0.25, random_state=SEED,
                                                    stratify=mock["passed_summer"])
forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, random_state=SEED)
forest.fit(X_train, y_train)

prob = forest.predict_proba(X_test)[:, 1]
print(f"Predicting a summer pass from mock items: accuracy = "
      f"{accuracy_score(y_test, prob > .5):.3f}, AUC = {roc_auc_score(y_test, prob):.3f}")
imp = pd.Series(forest.feature_importances_, index=items).nlargest(5)
print("Most diagnostic items:", ", ".join(imp.index))
imp.round(3)
""",
        twin="h21-unseeded-randomness-mock-items-forest-split",
        note="The split and the forest are both seeded, so the reported accuracy, AUC and item "
             "importances are reproducible.",
        split="holdout21",
    ),
]
