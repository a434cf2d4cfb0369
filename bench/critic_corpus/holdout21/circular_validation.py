from bench.critic_corpus import Case

_EYE_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
n_children = 84
dyslexia = np.r_[np.ones(28, int), np.zeros(56, int)]
measures = ["ffd_ms", "gaze_ms", "total_ms", "regress_prop", "skip_prop",
            "refix_prob", "sacc_amp_char", "fix_per_word"]
cols = {}
for text in ["narrative", "expository", "pseudoword"]:
    for m in measures:
        shift = 0.45 if m in ("gaze_ms", "refix_prob", "fix_per_word") else 0.1
        cols[f"{text}_{m}"] = rng.normal(shift * dyslexia, 1.0) + rng.normal(0, 0.3)
eye = pd.DataFrame(cols)
eye.insert(0, "child", [f"C{700 + i}" for i in range(n_children)])
eye["dyslexia"] = dyslexia
print(eye.shape, eye["dyslexia"].value_counts().to_dict())
"""

_SHORTFORM_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6060)
n = 230
ksads_dx = rng.binomial(1, 0.18, size=n)             # interview diagnosis (reference)
severity = rng.normal(0, 1, size=n) + 0.9 * ksads_dx
loadings = rng.uniform(0.25, 0.55, size=30)
items = {}
for j, lam in enumerate(loadings):
    latent = lam * severity + rng.normal(0, 1, size=n)
    items[f"mfq{j + 1:02d}"] = np.digitize(latent, [0.3, 1.0, 1.7])    # 0-3 response scale
mfq = pd.DataFrame(items)
mfq.insert(0, "pid", [f"T{8800 + i}" for i in range(n)])
mfq["ksads_dx"] = ksads_dx
print(mfq.shape, "cases:", ksads_dx.sum())
"""

CASES: list[Case] = [
    Case(
        id="h21-circular-validation-eyetracking-svm-testgrid",
        family="circular_validation",
        setup=_EYE_SETUP,
        code="""\
from itertools import product

from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

feat = [c for c in eye.columns if c not in ("child", "dyslexia")]
X_tr, X_te, y_tr, y_te = train_test_split(eye[feat], eye["dyslexia"], test_size=0.3,
                                          stratify=eye["dyslexia"], random_state=3)

results = []
for C, gamma in product([0.1, 0.3, 1, 3, 10, 30, 100], [0.001, 0.01, 0.03, 0.1, 0.3]):
    svm = make_pipeline(StandardScaler(), SVC(C=C, gamma=gamma))
    svm.fit(X_tr, y_tr)
    results.append({"C": C, "gamma": gamma, "test_acc": svm.score(X_te, y_te)})
results = pd.DataFrame(results).sort_values("test_acc", ascending=False)

best = results.iloc[0]
print(f"Best SVM: C = {best.C}, gamma = {best.gamma}")
print(f"Classification accuracy for dyslexia on unseen children: {best.test_acc:.1%} "
      f"(n = {len(y_te)}, chance = {1 - y_te.mean():.1%})")
results.head()
""",
        twin="h21-circular-validation-eyetracking-svm-gridcv",
        note="35 (C, gamma) settings are each scored on the test children and the best test "
             "accuracy is reported as accuracy on unseen children; it is optimistically biased.",
        split="holdout21",
    ),
    Case(
        id="h21-circular-validation-eyetracking-svm-gridcv",
        family=None,
        setup=_EYE_SETUP,
        code="""\
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

feat = [c for c in eye.columns if c not in ("child", "dyslexia")]
X_tr, X_te, y_tr, y_te = train_test_split(eye[feat], eye["dyslexia"], test_size=0.3,
                                          stratify=eye["dyslexia"], random_state=3)

grid = {"svc__C": [0.1, 0.3, 1, 3, 10, 30, 100],
        "svc__gamma": [0.001, 0.01, 0.03, 0.1, 0.3]}
search = GridSearchCV(make_pipeline(StandardScaler(), SVC()), grid,
                      cv=StratifiedKFold(5, shuffle=True, random_state=3))
search.fit(X_tr, y_tr)       # tuning uses the training children only

print(f"Chosen by 5-fold CV: C = {search.best_params_['svc__C']}, "
      f"gamma = {search.best_params_['svc__gamma']} (CV acc = {search.best_score_:.1%})")
print(f"Classification accuracy for dyslexia on unseen children: "
      f"{search.score(X_te, y_te):.1%} (n = {len(y_te)}, chance = {1 - y_te.mean():.1%})")
pd.DataFrame(search.cv_results_)[["params", "mean_test_score"]].nlargest(5, "mean_test_score")
""",
        twin="h21-circular-validation-eyetracking-svm-testgrid",
        note="Hyperparameters are tuned by cross-validation inside the training children and the "
             "untouched test set is scored once, so the reported accuracy is honest.",
        split="holdout21",
    ),
    Case(
        id="h21-circular-validation-mfq-shortform-same-sample",
        family="circular_validation",
        setup=_SHORTFORM_SETUP,
        code="""\
from sklearn.metrics import roc_auc_score, roc_curve

item_cols = [c for c in mfq.columns if c.startswith("mfq")]

# point-biserial correlation of every item with the interview diagnosis
r_pb = mfq[item_cols].corrwith(mfq["ksads_dx"]).sort_values(ascending=False)
short_items = list(r_pb.index[:6])
print("Short-form items:", short_items)

sf6 = mfq[short_items].sum(axis=1)
auc = roc_auc_score(mfq["ksads_dx"], sf6)
fpr, tpr, thr = roc_curve(mfq["ksads_dx"], sf6)
best = np.argmax(tpr - fpr)                        # Youden's J
print(f"SF-6 AUC = {auc:.2f}; recommended cut-off >= {thr[best]:.0f}: "
      f"sensitivity = {tpr[best]:.2f}, specificity = {1 - fpr[best]:.2f} (N = {len(mfq)})")
r_pb.head(8).round(3)
""",
        twin="h21-circular-validation-mfq-shortform-split-sample",
        note="The six items and the Youden cut-off are picked on the whole sample and the AUC, "
             "sensitivity and specificity are reported on that same sample.",
        split="holdout21",
    ),
    Case(
        id="h21-circular-validation-mfq-shortform-split-sample",
        family=None,
        setup=_SHORTFORM_SETUP,
        code="""\
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import train_test_split

item_cols = [c for c in mfq.columns if c.startswith("mfq")]
deriv, valid = train_test_split(mfq, test_size=0.5, stratify=mfq["ksads_dx"],
                                random_state=2021)

# item choice and cut-off are fixed in the derivation half
r_pb = deriv[item_cols].corrwith(deriv["ksads_dx"]).sort_values(ascending=False)
short_items = list(r_pb.index[:6])
fpr, tpr, thr = roc_curve(deriv["ksads_dx"], deriv[short_items].sum(axis=1))
cut = thr[np.argmax(tpr - fpr)]
print("Short-form items (derivation half):", short_items, f"cut-off >= {cut:.0f}")

# ...and evaluated once in the validation half
sf6 = valid[short_items].sum(axis=1)
pos = sf6 >= cut
dx = valid["ksads_dx"] == 1
print(f"Validation half (n = {len(valid)}, {dx.sum()} cases): "
      f"SF-6 AUC = {roc_auc_score(dx, sf6):.2f}, "
      f"sensitivity = {(pos & dx).sum() / dx.sum():.2f}, "
      f"specificity = {(~pos & ~dx).sum() / (~dx).sum():.2f}")
r_pb.head(8).round(3)
""",
        twin="h21-circular-validation-mfq-shortform-same-sample",
        note="Items and cut-off are chosen in a derivation half and the AUC, sensitivity and "
             "specificity are reported in the independent validation half.",
        split="holdout21",
    ),
]
