from bench.critic_corpus import Case

_CB_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3211)
n = 9_000
entry_mode = rng.choice(["chip", "contactless", "ecom", "moto", "swipe"], n,
                        p=[0.35, 0.25, 0.3, 0.03, 0.07])
mcc_group = rng.choice(["grocery", "fuel", "electronics", "travel", "digital_goods", "apparel"],
                       n, p=[0.3, 0.15, 0.12, 0.1, 0.13, 0.2])
issuer_country = rng.choice(["US", "GB", "DE", "BR", "NG", "IN"], n,
                            p=[0.55, 0.12, 0.1, 0.1, 0.05, 0.08])
amount_usd = np.round(rng.lognormal(3.9, 1.0, n), 2)
card_age_days = np.round(rng.gamma(2.2, 200, n))
txn_count_1h = rng.poisson(0.8, n)
avs_mismatch = (rng.random(n) < 0.08).astype(int)

logit = (-4.3 + 0.9 * (entry_mode == "ecom") + 1.1 * (entry_mode == "moto")
         + 0.8 * (mcc_group == "digital_goods") + 0.5 * (mcc_group == "electronics")
         + 0.7 * np.isin(issuer_country, ["NG", "BR"]) + 0.2 * np.log1p(amount_usd)
         - 0.001 * card_age_days + 0.35 * txn_count_1h + 1.0 * avs_mismatch)
is_chargeback = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

# card status snapshotted when the extract was pulled (~120 days after txn date)
card_status = np.where(
    is_chargeback == 1,
    rng.choice(["blocked", "reissued", "active"], n, p=[0.55, 0.35, 0.10]),
    rng.choice(["blocked", "reissued", "active"], n, p=[0.01, 0.04, 0.95]),
)

cb = pd.DataFrame({
    "txn_id": [f"T{i:08d}" for i in range(n)],
    "entry_mode": entry_mode, "mcc_group": mcc_group, "issuer_country": issuer_country,
    "amount_usd": amount_usd, "card_age_days": card_age_days,
    "txn_count_1h": txn_count_1h, "avs_mismatch": avs_mismatch,
    "card_status": card_status, "is_chargeback": is_chargeback,
})
'''

_BNPL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3212)
n = 6_000
loans = pd.DataFrame({
    "loan_id": np.arange(880_000, 880_000 + n),
    "basket_usd": np.round(rng.lognormal(5.0, 0.7, n), 2),
    "n_installments": rng.choice([4, 6, 12], n, p=[0.6, 0.25, 0.15]),
    "bureau_score": np.clip(np.round(rng.normal(660, 70, n)), 300, 850),
    "prior_bnpl_loans": rng.poisson(1.5, n),
    "account_age_days": np.round(rng.gamma(1.8, 250, n)),
    "device_is_new": (rng.random(n) < 0.2).astype(int),
})
logit = (-1.2 - 0.012 * (loans["bureau_score"] - 660) + 0.25 * np.log(loans["basket_usd"] / 150)
         + 0.08 * loans["n_installments"] - 0.15 * loans["prior_bnpl_loans"]
         + 0.6 * loans["device_is_new"] - 0.0008 * loans["account_age_days"])
loans["defaulted"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)

# servicing fields joined in from the collections warehouse
d = loans["defaulted"].to_numpy()
loans["late_fees_usd"] = np.where(d == 1, np.round(rng.gamma(3, 9, n), 2),
                                  np.where(rng.random(n) < 0.12,
                                           np.round(rng.gamma(1.2, 7, n), 2), 0.0))
loans["collections_contacts"] = np.where(d == 1, rng.poisson(6, n), rng.poisson(0.2, n))
'''

CASES: list[Case] = [
    Case(
        id="h32-target-leakage-card-status-at-extract",
        family="target_leakage",
        split="holdout32",
        twin="h32-target-leakage-card-status-at-extract-sound",
        setup=_CB_SETUP,
        note=("card_status is snapshotted at extract time, after the chargeback (cards get blocked "
              "or reissued because of it), and is used as a feature"),
        code='''from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.pipeline import Pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score, average_precision_score

CFG = {
    "target": "is_chargeback",
    "num_cols": ["amount_usd", "card_age_days", "txn_count_1h", "avs_mismatch"],
    "cat_cols": ["entry_mode", "mcc_group", "issuer_country", "card_status"],
    "seed": 42,
}

pre = ColumnTransformer([
    ("num", StandardScaler(), CFG["num_cols"]),
    ("cat", OneHotEncoder(handle_unknown="ignore"), CFG["cat_cols"]),
])
cb_model = Pipeline([("pre", pre), ("lr", LogisticRegression(max_iter=1000, C=1.0))])

X = cb[CFG["num_cols"] + CFG["cat_cols"]]
y = cb[CFG["target"]]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                          random_state=CFG["seed"])
cb_model.fit(X_tr, y_tr)
scores = cb_model.predict_proba(X_te)[:, 1]
print(f"chargeback model  AUC={roc_auc_score(y_te, scores):.3f}  "
      f"AP={average_precision_score(y_te, scores):.3f}  (base rate {y_te.mean():.2%})")
''',
    ),
    Case(
        id="h32-target-leakage-card-status-at-extract-sound",
        family=None,
        split="holdout32",
        twin="h32-target-leakage-card-status-at-extract",
        setup=_CB_SETUP,
        note=("same chargeback model with only attributes known at authorisation time; the "
              "post-outcome card_status snapshot is left out"),
        code='''from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.pipeline import Pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score, average_precision_score

# card_status is pulled at extract time (after disputes land) -> not available at auth
CFG = {
    "target": "is_chargeback",
    "num_cols": ["amount_usd", "card_age_days", "txn_count_1h", "avs_mismatch"],
    "cat_cols": ["entry_mode", "mcc_group", "issuer_country"],
    "seed": 42,
}

pre = ColumnTransformer([
    ("num", StandardScaler(), CFG["num_cols"]),
    ("cat", OneHotEncoder(handle_unknown="ignore"), CFG["cat_cols"]),
])
cb_model = Pipeline([("pre", pre), ("lr", LogisticRegression(max_iter=1000, C=1.0))])

X = cb[CFG["num_cols"] + CFG["cat_cols"]]
y = cb[CFG["target"]]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                          random_state=CFG["seed"])
cb_model.fit(X_tr, y_tr)
scores = cb_model.predict_proba(X_te)[:, 1]
print(f"chargeback model  AUC={roc_auc_score(y_te, scores):.3f}  "
      f"AP={average_precision_score(y_te, scores):.3f}  (base rate {y_te.mean():.2%})")
''',
    ),
    Case(
        id="h32-target-leakage-bnpl-collections-fields",
        family="target_leakage",
        split="holdout32",
        twin="h32-target-leakage-bnpl-collections-fields-sound",
        setup=_BNPL_SETUP,
        note=("features are 'every column except id and label', which keeps late_fees_usd and "
              "collections_contacts: servicing outcomes that only exist after a default"),
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

feature_cols = [c for c in loans.columns if c not in ("loan_id", "defaulted")]
X_tr, X_te, y_tr, y_te = train_test_split(
    loans[feature_cols], loans["defaulted"], test_size=0.25, random_state=2024,
    stratify=loans["defaulted"],
)
rf = RandomForestClassifier(n_estimators=120, max_depth=8, min_samples_leaf=20,
                            random_state=2024, n_jobs=1)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"BNPL default model: {len(feature_cols)} features, test AUC {auc:.3f}")

(pd.Series(rf.feature_importances_, index=feature_cols, name="gini_importance")
   .sort_values(ascending=False).round(3).to_frame())
''',
    ),
    Case(
        id="h32-target-leakage-bnpl-collections-fields-sound",
        family=None,
        split="holdout32",
        twin="h32-target-leakage-bnpl-collections-fields",
        setup=_BNPL_SETUP,
        note=("the servicing columns (late fees, collections contacts) are excluded; only "
              "application-time fields are used to predict default"),
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import roc_auc_score

POST_ORIGINATION = ("late_fees_usd", "collections_contacts")   # servicing, known after default
feature_cols = [c for c in loans.columns
                if c not in ("loan_id", "defaulted") and c not in POST_ORIGINATION]
X_tr, X_te, y_tr, y_te = train_test_split(
    loans[feature_cols], loans["defaulted"], test_size=0.25, random_state=2024,
    stratify=loans["defaulted"],
)
rf = RandomForestClassifier(n_estimators=120, max_depth=8, min_samples_leaf=20,
                            random_state=2024, n_jobs=1)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"BNPL default model: {len(feature_cols)} features, test AUC {auc:.3f}")

(pd.Series(rf.feature_importances_, index=feature_cols, name="gini_importance")
   .sort_values(ascending=False).round(3).to_frame())
''',
    ),
]
