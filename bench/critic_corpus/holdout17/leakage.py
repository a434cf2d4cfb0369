from bench.critic_corpus import Case

_RNASEQ_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1707)
n_samples, n_genes = 56, 4000
genes = [f"ENSG{100000 + i:011d}" for i in range(n_genes)]
sample_ids = [f"BRCA-{i:03d}" for i in range(n_samples)]
response = np.array(["responder"] * 26 + ["non_responder"] * 30)
rng.shuffle(response)

base_mu = rng.lognormal(mean=4.0, sigma=1.6, size=n_genes)
lib_size = rng.uniform(0.6, 1.8, size=n_samples)
mu = np.outer(lib_size, base_mu)
resp_mask = response == "responder"
mu[np.ix_(resp_mask, np.arange(8))] *= 1.35
dispersion = 0.25
counts = rng.negative_binomial(1 / dispersion, 1 / (1 + mu * dispersion))
counts = pd.DataFrame(counts, index=sample_ids, columns=genes)
samples = pd.DataFrame({"sample_id": sample_ids, "response": response,
                        "batch": rng.choice(["B1", "B2"], n_samples)}).set_index("sample_id")
'''

_RNASEQ_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler


def log_cpm(mat, prior=1.0):
    lib = mat.sum(axis=1, keepdims=True)
    return np.log2((mat + prior) / (lib + 2 * prior) * 1e6)


expr = log_cpm(counts.to_numpy(dtype=float))
expressed = (expr > 1).mean(axis=0) > 0.5
X = expr[:, expressed]
y = (samples.loc[counts.index, "response"] == "responder").astype(int).to_numpy()

selector = SelectKBest(f_classif, k=50).fit(X, y)
X_top = StandardScaler().fit_transform(selector.transform(X))

clf = LogisticRegression(penalty="l2", C=0.1, max_iter=2000)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(clf, X_top, y, cv=cv, scoring="roc_auc")
print(f"{X.shape[1]} expressed genes -> 50-gene signature")
print(f"5-fold CV AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
'''

_RNASEQ_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


def log_cpm(mat, prior=1.0):
    lib = mat.sum(axis=1, keepdims=True)
    return np.log2((mat + prior) / (lib + 2 * prior) * 1e6)


expr = log_cpm(counts.to_numpy(dtype=float))
expressed = (expr > 1).mean(axis=0) > 0.5
X = expr[:, expressed]
y = (samples.loc[counts.index, "response"] == "responder").astype(int).to_numpy()

model = make_pipeline(SelectKBest(f_classif, k=50), StandardScaler(),
                      LogisticRegression(penalty="l2", C=0.1, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
print(f"{X.shape[1]} expressed genes -> 50-gene signature (selected within each fold)")
print(f"5-fold CV AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
'''

_EEG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4411)
n_epochs, n_channels, n_windows = 320, 32, 8
ch_names = ["Fp1", "Fp2", "F7", "F3", "Fz", "F4", "F8", "FC5", "FC1", "FC2", "FC6", "T7",
            "C3", "Cz", "C4", "T8", "TP9", "CP5", "CP1", "CP2", "CP6", "TP10", "P7", "P3",
            "Pz", "P4", "P8", "PO9", "O1", "Oz", "O2", "PO10"]
is_error = rng.random(n_epochs) < 0.18
subject = np.repeat([f"sub-{i:02d}" for i in range(1, 9)], n_epochs // 8)

# mean amplitude (uV) in 8 post-feedback windows, 0-800 ms
erp = rng.normal(0, 4.0, size=(n_epochs, n_channels, n_windows))
fcz_like = [3, 4, 5, 8, 9, 12, 13, 14]
erp[np.ix_(is_error, fcz_like, [2, 3])] -= 2.4
erp[np.ix_(is_error, fcz_like, [4, 5])] += 2.0
X_epochs = erp.reshape(n_epochs, -1)
labels = np.where(is_error, "error", "correct")
'''

_EEG_FLAWED = '''
from sklearn.metrics import balanced_accuracy_score, confusion_matrix
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC
from sklearn.utils import resample

y = (labels == "error").astype(int)
X_min, X_maj = X_epochs[y == 1], X_epochs[y == 0]
X_min_up = resample(X_min, replace=True, n_samples=len(X_maj), random_state=7)
X_bal = np.vstack([X_maj, X_min_up])
y_bal = np.r_[np.zeros(len(X_maj), int), np.ones(len(X_min_up), int)]
print(f"after upsampling: {np.bincount(y_bal)}")

X_tr, X_te, y_tr, y_te = train_test_split(X_bal, y_bal, test_size=0.25,
                                          stratify=y_bal, random_state=7)
mu, sd = X_tr.mean(axis=0), X_tr.std(axis=0)
svm = SVC(kernel="rbf", C=10, gamma=1e-3).fit((X_tr - mu) / sd, y_tr)
pred = svm.predict((X_te - mu) / sd)
print("confusion matrix (rows = true correct/error):")
print(confusion_matrix(y_te, pred))
print(f"ErrP decoding, balanced accuracy: {balanced_accuracy_score(y_te, pred):.3f}")
'''

_EEG_SOUND = '''
from sklearn.metrics import balanced_accuracy_score, confusion_matrix
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC
from sklearn.utils import resample

y = (labels == "error").astype(int)
X_tr, X_te, y_tr, y_te = train_test_split(X_epochs, y, test_size=0.25,
                                          stratify=y, random_state=7)
X_min, X_maj = X_tr[y_tr == 1], X_tr[y_tr == 0]
X_min_up = resample(X_min, replace=True, n_samples=len(X_maj), random_state=7)
X_bal = np.vstack([X_maj, X_min_up])
y_bal = np.r_[np.zeros(len(X_maj), int), np.ones(len(X_min_up), int)]
print(f"training set after upsampling: {np.bincount(y_bal)}; test set: {np.bincount(y_te)}")

mu, sd = X_bal.mean(axis=0), X_bal.std(axis=0)
svm = SVC(kernel="rbf", C=10, gamma=1e-3).fit((X_bal - mu) / sd, y_bal)
pred = svm.predict((X_te - mu) / sd)
print("confusion matrix (rows = true correct/error):")
print(confusion_matrix(y_te, pred))
print(f"ErrP decoding, balanced accuracy: {balanced_accuracy_score(y_te, pred):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="h17-leakage-rnaseq-selectkbest-all-samples",
        family="leakage",
        setup=_RNASEQ_SETUP,
        code=_RNASEQ_FLAWED,
        twin="h17-leakage-rnaseq-selectkbest-in-pipeline",
        note="Top-50 genes chosen by F-test on all samples (and scaler fit on all) before "
             "cross-validation, so each test fold helped pick the signature; CV AUC inflated.",
        split="holdout17",
    ),
    Case(
        id="h17-leakage-rnaseq-selectkbest-in-pipeline",
        family=None,
        setup=_RNASEQ_SETUP,
        code=_RNASEQ_SOUND,
        twin="h17-leakage-rnaseq-selectkbest-all-samples",
        note="Gene selection and scaling sit in a pipeline refit inside each CV fold; log-CPM "
             "is a per-sample transform, so the CV AUC is honest.",
        split="holdout17",
    ),
    Case(
        id="h17-leakage-eeg-errp-upsample-before-split",
        family="leakage",
        setup=_EEG_SETUP,
        code=_EEG_FLAWED,
        twin="h17-leakage-eeg-errp-upsample-train-only",
        note="Minority error epochs are duplicated by resampling before train_test_split, so "
             "copies of the same epochs land in train and test; balanced accuracy inflated.",
        split="holdout17",
    ),
    Case(
        id="h17-leakage-eeg-errp-upsample-train-only",
        family=None,
        setup=_EEG_SETUP,
        code=_EEG_SOUND,
        twin="h17-leakage-eeg-errp-upsample-before-split",
        note="Split first, upsample only the training epochs and z-score with training "
             "statistics; the untouched test set gives an honest balanced accuracy.",
        split="holdout17",
    ),
]
