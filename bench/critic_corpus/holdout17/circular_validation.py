from bench.critic_corpus import Case

_RADIOMICS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n_pat, n_feat = 170, 110
families = ["firstorder", "glcm", "glrlm", "glszm", "shape"]
feat_names = [f"original_{families[i % 5]}_f{i:03d}" for i in range(n_feat)]
latent = rng.normal(size=(n_pat, 6))
loadings = rng.normal(0, 0.6, size=(6, n_feat))
X_rad = latent @ loadings + rng.normal(0, 1, size=(n_pat, n_feat))
malignant = (0.7 * latent[:, 0] - 0.5 * latent[:, 2] + rng.normal(0, 1.6, n_pat)) > 0.3
radiomics = pd.DataFrame(X_rad, columns=feat_names)
radiomics.insert(0, "lesion_id", [f"LN-{i:04d}" for i in range(n_pat)])
radiomics["malignant"] = malignant.astype(int)
'''

_RADIOMICS_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

X = radiomics.filter(like="original_").to_numpy()
y = radiomics["malignant"].to_numpy()
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=5)

results = []
for k in [5, 10, 20, 40, 80]:
    for C in [0.01, 0.1, 1.0, 10.0]:
        pipe = Pipeline([("scale", StandardScaler()),
                         ("select", SelectKBest(f_classif, k=k)),
                         ("clf", LogisticRegression(C=C, solver="liblinear"))])
        pipe.fit(X_tr, y_tr)
        auc = roc_auc_score(y_te, pipe.predict_proba(X_te)[:, 1])
        results.append({"k": k, "C": C, "test_auc": auc})

res = pd.DataFrame(results).sort_values("test_auc", ascending=False)
best = res.iloc[0]
print(f"selected signature: k={int(best.k)} features, C={best.C}")
print(f"radiomic signature, independent test AUC = {best.test_auc:.3f} (n={len(y_te)})")
res.head(5).round(3)
'''

_RADIOMICS_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

X = radiomics.filter(like="original_").to_numpy()
y = radiomics["malignant"].to_numpy()
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=5)

pipe = Pipeline([("scale", StandardScaler()),
                 ("select", SelectKBest(f_classif)),
                 ("clf", LogisticRegression(solver="liblinear"))])
grid = GridSearchCV(pipe, {"select__k": [5, 10, 20, 40, 80],
                           "clf__C": [0.01, 0.1, 1.0, 10.0]},
                    cv=StratifiedKFold(5, shuffle=True, random_state=5), scoring="roc_auc")
grid.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, grid.predict_proba(X_te)[:, 1])
res = pd.DataFrame(grid.cv_results_)[["param_select__k", "param_clf__C", "mean_test_score"]]
print(f"selected signature (inner CV on training set): {grid.best_params_}")
print(f"radiomic signature, independent test AUC = {auc:.3f} (n={len(y_te)})")
res.sort_values("mean_test_score", ascending=False).head(5).round(3)
'''

_FMRI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8088)
rois = ["L_amygdala", "R_amygdala", "L_insula", "R_insula", "dACC", "vmPFC", "L_dlPFC",
        "R_dlPFC", "L_hippocampus", "R_hippocampus", "PCC", "precuneus"]
n_sub, n_vox = 44, 40
diagnosis = np.array([1] * 22 + [0] * 22)
roi_betas = {}
for r in rois:
    b = rng.normal(0, 1, size=(n_sub, n_vox)) + rng.normal(0, 0.6, size=(n_sub, 1))
    if r == "R_insula":
        b[diagnosis == 1, :8] += 0.2
    roi_betas[r] = b
participants = pd.DataFrame({"participant_id": [f"sub-{i:03d}" for i in range(n_sub)],
                             "group": np.where(diagnosis == 1, "MDD", "HC"),
                             "age": rng.normal(34, 10, n_sub).round()})
'''

_FMRI_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

y = (participants["group"] == "MDD").astype(int).to_numpy()
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=21)
clf = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, solver="liblinear"))

roi_acc = pd.Series({roi: cross_val_score(clf, B, y, cv=cv).mean()
                     for roi, B in roi_betas.items()}).sort_values(ascending=False)
best_roi = roi_acc.index[0]
print(f"MDD vs HC decoding: best region {best_roi}, "
      f"5-fold CV accuracy {roi_acc.iloc[0]:.3f} (chance 0.50)")
roi_acc.round(3).to_frame("cv_accuracy").head(6)
'''

_FMRI_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

y = (participants["group"] == "MDD").astype(int).to_numpy()
outer = StratifiedKFold(n_splits=5, shuffle=True, random_state=21)
inner = StratifiedKFold(n_splits=3, shuffle=True, random_state=22)
clf = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, solver="liblinear"))

outer_acc, chosen = [], []
for tr, te in outer.split(np.zeros(len(y)), y):
    inner_acc = {roi: cross_val_score(clf, B[tr], y[tr], cv=inner).mean()
                 for roi, B in roi_betas.items()}
    roi = max(inner_acc, key=inner_acc.get)
    chosen.append(roi)
    B = roi_betas[roi]
    outer_acc.append(clf.fit(B[tr], y[tr]).score(B[te], y[te]))

print(f"MDD vs HC decoding with ROI chosen inside each training fold: "
      f"nested CV accuracy {np.mean(outer_acc):.3f} (chance 0.50)")
pd.Series(chosen).value_counts().to_frame("times_selected")
'''

CASES: list[Case] = [
    Case(
        id="h17-circular-radiomics-grid-on-test-set",
        family="circular_validation",
        setup=_RADIOMICS_SETUP,
        code=_RADIOMICS_FLAWED,
        twin="h17-circular-radiomics-gridsearch-inner-cv",
        note="20 (k, C) signatures are each scored on the test set and the best test AUC is "
             "reported as the independent test performance; selection on the test set.",
        split="holdout17",
    ),
    Case(
        id="h17-circular-radiomics-gridsearch-inner-cv",
        family=None,
        setup=_RADIOMICS_SETUP,
        code=_RADIOMICS_SOUND,
        twin="h17-circular-radiomics-grid-on-test-set",
        note="k and C tuned by GridSearchCV on the training set only; the held-out test set "
             "is used once for the final AUC.",
        split="holdout17",
    ),
    Case(
        id="h17-circular-fmri-best-roi-cv-accuracy",
        family="circular_validation",
        setup=_FMRI_SETUP,
        code=_FMRI_FLAWED,
        twin="h17-circular-fmri-roi-nested-cv",
        note="The ROI with the highest CV accuracy out of 12 is picked and that same CV "
             "accuracy is reported as its decoding accuracy; max over ROIs is biased upward.",
        split="holdout17",
    ),
    Case(
        id="h17-circular-fmri-roi-nested-cv",
        family=None,
        setup=_FMRI_SETUP,
        code=_FMRI_SOUND,
        twin="h17-circular-fmri-best-roi-cv-accuracy",
        note="ROI selection is repeated inside each outer training fold (nested CV), so the "
             "outer accuracy estimates the whole select-then-decode procedure.",
        split="holdout17",
    ),
]
