from bench.critic_corpus import Case

_CNP_SETUP = '''
import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

threadpool_limits(1)  # shared 2-core notebook box

rng = np.random.default_rng(3201)
n_txn, n_merch = 12_000, 900

merch_ids = np.array([f"M{m:06d}" for m in rng.choice(900_000, n_merch, replace=False)])
merch_base = rng.beta(0.5, 14, n_merch)                 # latent per-merchant fraud propensity
merch_weight = rng.pareto(1.1, n_merch) + 1.0
merch_weight /= merch_weight.sum()
m_idx = rng.choice(n_merch, n_txn, p=merch_weight)

amount = np.round(rng.lognormal(3.7, 1.1, n_txn), 2)
hour = rng.integers(0, 24, n_txn)
card_age_days = np.round(rng.gamma(2.0, 180, n_txn))
ip_distance_km = np.round(rng.exponential(45, n_txn), 1)
night = ((hour < 6) | (hour > 22)).astype(int)

logit = (np.log(merch_base[m_idx] / (1 - merch_base[m_idx])) - 1.2
         + 0.25 * np.log1p(amount) - 0.0015 * card_age_days
         + 0.006 * ip_distance_km + 0.4 * night)
is_fraud = (rng.random(n_txn) < 1 / (1 + np.exp(-logit))).astype(int)

txns = pd.DataFrame({
    "txn_id": np.arange(5_000_000, 5_000_000 + n_txn),
    "merchant_id": merch_ids[m_idx],
    "amount_usd": amount,
    "hour": hour,
    "card_age_days": card_age_days,
    "ip_distance_km": ip_distance_km,
    "is_fraud": is_fraud,
})
txns.loc[rng.random(n_txn) < 0.04, "ip_distance_km"] = np.nan   # geo-IP lookup misses
'''

_KYC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3202)
n_apps = 500
prefixes = ["device", "email", "phone", "velocity", "geo", "doc", "session", "bureau"]
cols = [f"{prefixes[i % len(prefixes)]}_sig_{i:03d}" for i in range(240)]

X_raw = rng.normal(size=(n_apps, len(cols)))
# only a handful of signals carry real information about synthetic-identity fraud
true_w = np.zeros(len(cols))
true_w[[3, 17, 42, 101]] = [0.6, -0.5, 0.45, 0.4]
logit = -2.6 + X_raw @ true_w
fraud_flag = (rng.random(n_apps) < 1 / (1 + np.exp(-logit))).astype(int)

apps = pd.DataFrame(X_raw, columns=cols)
apps.insert(0, "application_id", [f"APP-{i:06d}" for i in range(n_apps)])
apps["fraud_90d"] = fraud_flag
signal_cols = cols
'''

CASES: list[Case] = [
    Case(
        id="h32-leakage-merchant-target-encoding",
        family="leakage",
        split="holdout32",
        twin="h32-leakage-merchant-target-encoding-sound",
        setup=_CNP_SETUP,
        note=("merchant_id target encoding (mean is_fraud per merchant) computed on all rows "
              "before the split, so test labels feed the test rows' own feature"),
        code='''from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.impute import SimpleImputer
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score, average_precision_score

CFG = {"seed": 7, "test_size": 0.25, "lr": 0.05, "max_iter": 150}

# merchant risk prior -- strongest single feature in the v3 ruleset
merchant_fraud_rate = txns.groupby("merchant_id")["is_fraud"].mean()
txns["merchant_fraud_rate"] = txns["merchant_id"].map(merchant_fraud_rate)

FEATURES = ["amount_usd", "hour", "card_age_days", "ip_distance_km", "merchant_fraud_rate"]
X_tr, X_te, y_tr, y_te = train_test_split(
    txns[FEATURES], txns["is_fraud"], test_size=CFG["test_size"],
    stratify=txns["is_fraud"], random_state=CFG["seed"],
)

model = Pipeline([
    ("impute", SimpleImputer(strategy="median")),
    ("gbm", HistGradientBoostingClassifier(learning_rate=CFG["lr"], max_iter=CFG["max_iter"],
                                           early_stopping=False, random_state=CFG["seed"])),
])
model.fit(X_tr, y_tr)
p_te = model.predict_proba(X_te)[:, 1]
print(f"fraud rate train={y_tr.mean():.3%} test={y_te.mean():.3%}")
print(f"holdout ROC AUC = {roc_auc_score(y_te, p_te):.4f}")
print(f"holdout PR AUC  = {average_precision_score(y_te, p_te):.4f}")
''',
    ),
    Case(
        id="h32-leakage-merchant-target-encoding-sound",
        family=None,
        split="holdout32",
        twin="h32-leakage-merchant-target-encoding",
        setup=_CNP_SETUP,
        note=("merchant target encoding fitted on the training split only (out-of-fold for train "
              "rows, smoothed, prior for unseen merchants) and then mapped onto the test rows"),
        code='''from sklearn.model_selection import train_test_split, KFold
from sklearn.pipeline import Pipeline
from sklearn.impute import SimpleImputer
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score, average_precision_score

CFG = {"seed": 7, "test_size": 0.25, "lr": 0.05, "max_iter": 150, "te_smoothing": 20}

train_df, test_df = train_test_split(
    txns, test_size=CFG["test_size"], stratify=txns["is_fraud"], random_state=CFG["seed"],
)


def fit_merchant_te(df, k):
    prior = df["is_fraud"].mean()
    g = df.groupby("merchant_id")["is_fraud"].agg(["sum", "count"])
    return (g["sum"] + k * prior) / (g["count"] + k), prior


# out-of-fold encoding for the training rows, full-train encoding for the test rows
oof_te = pd.Series(np.nan, index=train_df.index)
for fit_idx, enc_idx in KFold(5, shuffle=True, random_state=CFG["seed"]).split(train_df):
    fold_map, fold_prior = fit_merchant_te(train_df.iloc[fit_idx], CFG["te_smoothing"])
    enc_rows = train_df.index[enc_idx]
    oof_te[enc_rows] = train_df.loc[enc_rows, "merchant_id"].map(fold_map).fillna(fold_prior)

te_map, prior = fit_merchant_te(train_df, CFG["te_smoothing"])
train_df = train_df.assign(merchant_fraud_rate=oof_te)
test_df = test_df.assign(
    merchant_fraud_rate=test_df["merchant_id"].map(te_map).fillna(prior)
)

FEATURES = ["amount_usd", "hour", "card_age_days", "ip_distance_km", "merchant_fraud_rate"]
X_tr, y_tr = train_df[FEATURES], train_df["is_fraud"]
X_te, y_te = test_df[FEATURES], test_df["is_fraud"]

model = Pipeline([
    ("impute", SimpleImputer(strategy="median")),
    ("gbm", HistGradientBoostingClassifier(learning_rate=CFG["lr"], max_iter=CFG["max_iter"],
                                           early_stopping=False, random_state=CFG["seed"])),
])
model.fit(X_tr, y_tr)
p_te = model.predict_proba(X_te)[:, 1]
print(f"fraud rate train={y_tr.mean():.3%} test={y_te.mean():.3%}")
print(f"holdout ROC AUC = {roc_auc_score(y_te, p_te):.4f}")
print(f"holdout PR AUC  = {average_precision_score(y_te, p_te):.4f}")
''',
    ),
    Case(
        id="h32-leakage-kyc-selectkbest-before-cv",
        family="leakage",
        split="holdout32",
        twin="h32-leakage-kyc-selectkbest-before-cv-sound",
        setup=_KYC_SETUP,
        note=("SelectKBest picks 20 of 240 onboarding signals using all 500 labelled applications, "
              "then cross-validates on the selected columns, so the CV AUC is inflated"),
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline

X = apps[signal_cols]
y = apps["fraud_90d"]
print(f"{len(X)} reviewed applications, {y.sum()} confirmed synthetic-ID fraud")

kbest = SelectKBest(f_classif, k=20).fit(X, y)
top_signals = X.columns[kbest.get_support()].tolist()
print("kept:", ", ".join(top_signals[:8]), "...")

clf = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(clf, X[top_signals], y, cv=cv, scoring="roc_auc")
print(f"onboarding model, top-20 signals: CV AUC {auc.mean():.3f} +/- {auc.std():.3f}")
''',
    ),
    Case(
        id="h32-leakage-kyc-selectkbest-before-cv-sound",
        family=None,
        split="holdout32",
        twin="h32-leakage-kyc-selectkbest-before-cv",
        setup=_KYC_SETUP,
        note=("SelectKBest sits inside the pipeline, so the 20 signals are re-selected on each "
              "training fold and the CV AUC is honest"),
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline

X = apps[signal_cols]
y = apps["fraud_90d"]
print(f"{len(X)} reviewed applications, {y.sum()} confirmed synthetic-ID fraud")

clf = make_pipeline(
    StandardScaler(),
    SelectKBest(f_classif, k=20),
    LogisticRegression(C=0.5, max_iter=2000),
)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(clf, X, y, cv=cv, scoring="roc_auc")
print(f"onboarding model, top-20 signals (selected per fold): "
      f"CV AUC {auc.mean():.3f} +/- {auc.std():.3f}")
''',
    ),
]
