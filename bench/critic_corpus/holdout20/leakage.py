from bench.critic_corpus import Case

_SETUP_PD = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(4121)
n = 700
bureau = pd.DataFrame(rng.normal(size=(n, 150)),
                      columns=[f"bur_attr_{i:03d}" for i in range(150)])
bureau["util_ratio"] = rng.beta(2, 4, n)
bureau["dti"] = rng.gamma(3, 0.1, n)
bureau["months_on_book"] = rng.integers(3, 240, n).astype(float)
lin = -2.4 + 1.6 * bureau["util_ratio"] + 1.2 * bureau["dti"] - 0.002 * bureau["months_on_book"]
bureau["default_12m"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
miss = rng.random(n) < 0.08
bureau.loc[miss, "dti"] = np.nan
apps = bureau
'''

_FLAW_PD = '''
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import train_test_split
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

X = apps.drop(columns=["default_12m"])
y = apps["default_12m"].to_numpy()

X_imp = SimpleImputer(strategy="median").fit_transform(X)
X_std = StandardScaler().fit_transform(X_imp)
selector = SelectKBest(f_classif, k=12).fit(X_std, y)
X_sel = selector.transform(X_std)
print("kept:", list(X.columns[selector.get_support()]))

X_tr, X_te, y_tr, y_te = train_test_split(X_sel, y, test_size=0.3, stratify=y, random_state=7)
pd_model = LogisticRegression(max_iter=2000).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, pd_model.predict_proba(X_te)[:, 1])
print(f"holdout AUC {auc:.3f}  Gini {2 * auc - 1:.3f}  (n_test={len(y_te)})")
'''

_SOUND_PD = '''
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import StandardScaler
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

X = apps.drop(columns=["default_12m"])
y = apps["default_12m"].to_numpy()

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=7)
pd_model = make_pipeline(
    SimpleImputer(strategy="median"),
    StandardScaler(),
    SelectKBest(f_classif, k=12),
    LogisticRegression(max_iter=2000),
).fit(X_tr, y_tr)
selector = pd_model.named_steps["selectkbest"]
print("kept:", list(X.columns[selector.get_support()]))
auc = roc_auc_score(y_te, pd_model.predict_proba(X_te)[:, 1])
print(f"holdout AUC {auc:.3f}  Gini {2 * auc - 1:.3f}  (n_test={len(y_te)})")
'''

_SETUP_FRAUD = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(880)
n = 6000
merchants = [f"M{m:05d}" for m in range(1800)]
txn = pd.DataFrame({
    "txn_ts": pd.Timestamp("2024-01-01")
              + pd.to_timedelta(np.sort(rng.uniform(0, 180, n)), unit="D"),
    "merchant_id": rng.choice(merchants, n),
    "amount_gbp": np.round(rng.lognormal(3.4, 1.1, n), 2),
    "card_present": rng.binomial(1, 0.55, n),
    "hour": rng.integers(0, 24, n),
    "cust_tenure_m": rng.integers(1, 200, n),
})
night = txn["hour"].isin([0, 1, 2, 3, 4]).astype(int)
lin = -4.6 + 0.6 * np.log(txn["amount_gbp"]) - 1.5 * txn["card_present"] + 1.8 * night
txn["is_fraud"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

_FLAW_FRAUD = '''
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score

txn["merchant_fraud_rate"] = txn.groupby("merchant_id")["is_fraud"].transform("mean")
txn["merchant_txn_cnt"] = txn.groupby("merchant_id")["is_fraud"].transform("size")

feats = ["amount_gbp", "card_present", "hour", "cust_tenure_m",
         "merchant_fraud_rate", "merchant_txn_cnt"]
cutoff = pd.Timestamp("2024-05-15")
train, test = txn[txn["txn_ts"] < cutoff], txn[txn["txn_ts"] >= cutoff]

clf = HistGradientBoostingClassifier(max_iter=80, learning_rate=0.05, max_depth=3, random_state=0)
clf.fit(train[feats], train["is_fraud"])
score = clf.predict_proba(test[feats])[:, 1]
auc = roc_auc_score(test["is_fraud"], score)
top = test.assign(score=score).nlargest(int(0.02 * len(test)), "score")
print(f"out-of-time AUC {auc:.3f}, fraud caught in top 2% alerts: "
      f"{top['is_fraud'].sum() / test['is_fraud'].sum():.1%}")
'''

_SOUND_FRAUD = '''
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score

cutoff = pd.Timestamp("2024-05-15")
train = txn[txn["txn_ts"] < cutoff].copy()
test = txn[txn["txn_ts"] >= cutoff].copy()

from sklearn.model_selection import KFold

def merchant_rate(fit_df, apply_df, prior):
    stats = fit_df.groupby("merchant_id")["is_fraud"].agg(["sum", "size"])
    rate = (stats["sum"] + 20 * prior) / (stats["size"] + 20)
    return apply_df["merchant_id"].map(rate).fillna(prior).to_numpy()

prior = train["is_fraud"].mean()
train["merchant_fraud_rate"] = np.nan
for fit_idx, oof_idx in KFold(5, shuffle=True, random_state=11).split(train):
    train.iloc[oof_idx, train.columns.get_loc("merchant_fraud_rate")] = merchant_rate(
        train.iloc[fit_idx], train.iloc[oof_idx], prior)
test["merchant_fraud_rate"] = merchant_rate(train, test, prior)
counts = train["merchant_id"].value_counts()
for df in (train, test):
    df["merchant_txn_cnt"] = df["merchant_id"].map(counts).fillna(0)

feats = ["amount_gbp", "card_present", "hour", "cust_tenure_m",
         "merchant_fraud_rate", "merchant_txn_cnt"]
clf = HistGradientBoostingClassifier(max_iter=80, learning_rate=0.05, max_depth=3, random_state=0)
clf.fit(train[feats], train["is_fraud"])
score = clf.predict_proba(test[feats])[:, 1]
auc = roc_auc_score(test["is_fraud"], score)
top = test.assign(score=score).nlargest(int(0.02 * len(test)), "score")
print(f"out-of-time AUC {auc:.3f}, fraud caught in top 2% alerts: "
      f"{top['is_fraud'].sum() / test['is_fraud'].sum():.1%}")
'''

CASES: list[Case] = [
    Case(id="h20-leakage-pd-selectkbest-before-split", family="leakage", code=_FLAW_PD,
         setup=_SETUP_PD, twin="h20-leakage-pd-selectkbest-pipeline",
         note="imputer, scaler and SelectKBest (150 noise attributes) fit on all applicants "
              "before the train/test split, so the holdout AUC is inflated",
         split="holdout20"),
    Case(id="h20-leakage-pd-selectkbest-pipeline", family=None, code=_SOUND_PD,
         setup=_SETUP_PD, twin="h20-leakage-pd-selectkbest-before-split",
         note="imputation, scaling and feature selection live in a pipeline fit on the "
              "training split only; holdout AUC is honest",
         split="holdout20"),
    Case(id="h20-leakage-fraud-merchant-rate-full-history", family="leakage",
         code=_FLAW_FRAUD, setup=_SETUP_FRAUD, twin="h20-leakage-fraud-merchant-rate-train-only",
         note="merchant fraud-rate target encoding computed over the whole history including "
              "the out-of-time test window, leaking test labels into a feature",
         split="holdout20"),
    Case(id="h20-leakage-fraud-merchant-rate-train-only", family=None, code=_SOUND_FRAUD,
         setup=_SETUP_FRAUD, twin="h20-leakage-fraud-merchant-rate-full-history",
         note="smoothed merchant fraud rate estimated out-of-fold within the training window "
              "and from the training window only for test rows; no test labels used",
         split="holdout20"),
]
