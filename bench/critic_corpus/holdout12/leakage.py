from bench.critic_corpus import Case

TEA_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
n_lots = 90
chem = pd.DataFrame(
    rng.normal(size=(n_lots, 400)), columns=[f"peak_{i:03d}" for i in range(400)]
)
grade = (0.6 * chem["peak_007"] + rng.normal(size=n_lots) > 0).astype(int)
'''

TEA_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

selector = SelectKBest(f_classif, k=20).fit(chem, grade)
top_peaks = chem.columns[selector.get_support()]

clf = LogisticRegression(C=1.0, max_iter=2000)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(clf, chem[top_peaks], grade, cv=cv, scoring="roc_auc")

print(f"{len(top_peaks)} chromatogram peaks used")
print(f"first-flush grade, CV AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
'''

TEA_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

clf = make_pipeline(
    SelectKBest(f_classif, k=20),
    LogisticRegression(C=1.0, max_iter=2000),
)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(clf, chem, grade, cv=cv, scoring="roc_auc")

print(f"{clf[0].k} chromatogram peaks used per fold")
print(f"first-flush grade, CV AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
'''

TOY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
n = 900
toys = pd.DataFrame({
    "lead_ppm": rng.gamma(2.0, 20.0, n),
    "phthalate_pct": rng.gamma(1.5, 0.05, n),
    "small_part_ratio": rng.beta(2, 8, n),
    "supplier_years": rng.integers(1, 25, n),
    "batch_size": rng.integers(200, 5000, n),
})
risk = (0.02 * toys.lead_ppm + 6 * toys.small_part_ratio
        - 0.05 * toys.supplier_years - 4.2 + rng.normal(0, 1.2, n))
toys["failed"] = (risk > 0).astype(int)
'''

TOY_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import precision_score, recall_score
from sklearn.model_selection import train_test_split

fails = toys[toys.failed == 1]
passes = toys[toys.failed == 0]
upsampled = pd.concat([passes, fails.sample(len(passes), replace=True, random_state=5)])

X = upsampled.drop(columns="failed")
y = upsampled["failed"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=5)

rf = RandomForestClassifier(n_estimators=150, random_state=5).fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"batches: {len(toys)}, failure rate {toys.failed.mean():.1%}")
print(f"inspection-failure recall:    {recall_score(y_te, pred):.3f}")
print(f"inspection-failure precision: {precision_score(y_te, pred):.3f}")
'''

TOY_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import precision_score, recall_score
from sklearn.model_selection import train_test_split

train, test = train_test_split(toys, test_size=0.25, stratify=toys.failed, random_state=5)
fails = train[train.failed == 1]
passes = train[train.failed == 0]
upsampled = pd.concat([passes, fails.sample(len(passes), replace=True, random_state=5)])

X_tr, y_tr = upsampled.drop(columns="failed"), upsampled["failed"]
X_te, y_te = test.drop(columns="failed"), test["failed"]

rf = RandomForestClassifier(n_estimators=150, random_state=5).fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"batches: {len(toys)}, failure rate {toys.failed.mean():.1%}")
print(f"inspection-failure recall:    {recall_score(y_te, pred):.3f}")
print(f"inspection-failure precision: {precision_score(y_te, pred):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="leakage-h12-tea-peak-selection",
        family="leakage",
        code=TEA_FLAWED,
        setup=TEA_SETUP,
        twin="leakage-h12-tea-peak-selection-sound",
        note="SelectKBest picks 20 of 400 peaks using all lots' grades before CV, inflating AUC",
        split="holdout12",
    ),
    Case(
        id="leakage-h12-tea-peak-selection-sound",
        family=None,
        code=TEA_SOUND,
        setup=TEA_SETUP,
        twin="leakage-h12-tea-peak-selection",
        note="feature selection sits inside the pipeline, so it is refit within each CV fold",
        split="holdout12",
    ),
    Case(
        id="leakage-h12-toy-upsample-before-split",
        family="leakage",
        code=TOY_FLAWED,
        setup=TOY_SETUP,
        twin="leakage-h12-toy-upsample-before-split-sound",
        note="failures are resampled with replacement before the split, so copies land in test",
        split="holdout12",
    ),
    Case(
        id="leakage-h12-toy-upsample-before-split-sound",
        family=None,
        code=TOY_SOUND,
        setup=TOY_SETUP,
        twin="leakage-h12-toy-upsample-before-split",
        note="split first, upsample only the training failures; test keeps original rows",
        split="holdout12",
    ),
]
