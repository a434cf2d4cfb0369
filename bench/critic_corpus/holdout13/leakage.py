from bench.critic_corpus import Case

SPLIT = "holdout13"

FRAUD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4411)
n = 700
claims = pd.DataFrame({
    "claim_id": [f"CLM-{100000 + i}" for i in range(n)],
    "policy_tenure_months": rng.integers(1, 180, n),
    "claim_amount_gbp": np.round(rng.lognormal(7.6, 0.8, n), 2),
    "n_prior_claims": rng.poisson(0.6, n),
    "days_to_report": rng.gamma(1.5, 6, n).round(),
    "vehicle_age_yrs": rng.integers(0, 22, n),
    "incident_hour": rng.integers(0, 24, n),
    "region": rng.choice(["North", "Midlands", "South", "Wales", "Scotland"], n),
})
# adjuster-note keyword scores from the text pipeline
for k in range(60):
    claims[f"kw_{k:02d}"] = np.round(rng.normal(0, 1, n), 3)
logit = (-2.6 + 0.7 * np.log1p(claims["days_to_report"]) - 0.012 * claims["policy_tenure_months"]
         + 0.45 * claims["n_prior_claims"])
claims["is_fraud"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
claims.loc[rng.choice(n, 25, replace=False), "days_to_report"] = np.nan
claims.loc[rng.choice(n, 12, replace=False), "vehicle_age_yrs"] = np.nan
'''

FRAUD_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

feature_cols = [c for c in claims.columns if c not in ("claim_id", "is_fraud", "region")]
X = claims[feature_cols].fillna(claims[feature_cols].median())
y = claims["is_fraud"].to_numpy()
print(f"{len(claims)} claims, fraud rate {y.mean():.1%}, {len(feature_cols)} candidate features")

X_scaled = StandardScaler().fit_transform(X)
selector = SelectKBest(f_classif, k=12).fit(X_scaled, y)
kept = [feature_cols[i] for i in selector.get_support(indices=True)]
X_sel = selector.transform(X_scaled)

X_tr, X_te, y_tr, y_te = train_test_split(
    X_sel, y, test_size=0.3, stratify=y, random_state=7
)
clf = LogisticRegression(max_iter=2000, class_weight="balanced", C=1.0)
clf.fit(X_tr, y_tr)
proba = clf.predict_proba(X_te)[:, 1]

def precision_at_top(y_true, scores, frac=0.1):
    k = max(1, int(round(frac * len(scores))))
    top = np.argsort(scores)[::-1][:k]
    return y_true[top].mean()

auc = roc_auc_score(y_te, proba)
p10 = precision_at_top(y_te, proba, 0.10)
coefs = pd.Series(clf.coef_[0], index=kept).sort_values(key=np.abs, ascending=False)

print(f"Selected features: {', '.join(kept)}")
print(f"Hold-out ROC AUC:            {auc:.3f}")
print(f"Precision in top 10% scored: {p10:.1%}  (base rate {y_te.mean():.1%})")
print("\\nLargest standardised coefficients:")
print(coefs.head(6).round(3).to_string())
'''

FRAUD_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

feature_cols = [c for c in claims.columns if c not in ("claim_id", "is_fraud", "region")]
X = claims[feature_cols]
y = claims["is_fraud"].to_numpy()
print(f"{len(claims)} claims, fraud rate {y.mean():.1%}, {len(feature_cols)} candidate features")

X_tr, X_te, y_tr, y_te = train_test_split(
    X, y, test_size=0.3, stratify=y, random_state=7
)
model = make_pipeline(
    SimpleImputer(strategy="median"),
    StandardScaler(),
    SelectKBest(f_classif, k=12),
    LogisticRegression(max_iter=2000, class_weight="balanced", C=1.0),
)
model.fit(X_tr, y_tr)
proba = model.predict_proba(X_te)[:, 1]
selector = model.named_steps["selectkbest"]
kept = [feature_cols[i] for i in selector.get_support(indices=True)]

def precision_at_top(y_true, scores, frac=0.1):
    k = max(1, int(round(frac * len(scores))))
    top = np.argsort(scores)[::-1][:k]
    return y_true[top].mean()

auc = roc_auc_score(y_te, proba)
p10 = precision_at_top(y_te, proba, 0.10)
clf = model.named_steps["logisticregression"]
coefs = pd.Series(clf.coef_[0], index=kept).sort_values(key=np.abs, ascending=False)

print(f"Selected features: {', '.join(kept)}")
print(f"Hold-out ROC AUC:            {auc:.3f}")
print(f"Precision in top 10% scored: {p10:.1%}  (base rate {y_te.mean():.1%})")
print("\\nLargest standardised coefficients:")
print(coefs.head(6).round(3).to_string())
'''

WAFER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(913)
n = 640
reticles = [f"RT{r:03d}" for r in range(170)]
wafers = pd.DataFrame({
    "lot_id": [f"L{23000 + i // 25}" for i in range(n)],
    "wafer_slot": np.tile(np.arange(1, 26), n // 25 + 1)[:n],
    "reticle_id": rng.choice(reticles, n),
    "litho_dose_mj": rng.normal(32.0, 0.9, n).round(2),
    "etch_time_s": rng.normal(118, 4, n).round(1),
    "particle_count": rng.poisson(14, n),
    "chuck_temp_c": rng.normal(22.5, 0.4, n).round(2),
})
reticle_effect = dict(zip(reticles, rng.normal(0, 0.6, len(reticles))))
wafers["yield_pct"] = np.clip(
    88 - 2.4 * (wafers["litho_dose_mj"] - 32).abs() - 0.35 * wafers["particle_count"]
    + wafers["reticle_id"].map(reticle_effect) + rng.normal(0, 2.2, n), 40, 99.5
).round(2)
'''

WAFER_FLAWED = '''
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import KFold, cross_validate

print(wafers.groupby("reticle_id").size().describe().round(1).to_string())

wafers["reticle_yield_te"] = wafers.groupby("reticle_id")["yield_pct"].transform("mean")
wafers["lot_mean_particles"] = wafers.groupby("lot_id")["particle_count"].transform("mean")
wafers["dose_dev"] = (wafers["litho_dose_mj"] - 32.0).abs()

features = [
    "litho_dose_mj", "dose_dev", "etch_time_s", "particle_count",
    "chuck_temp_c", "lot_mean_particles", "reticle_yield_te",
]
X = wafers[features]
y = wafers["yield_pct"]

gbr = GradientBoostingRegressor(
    n_estimators=150, max_depth=3, learning_rate=0.05, subsample=0.8, random_state=0
)
cv = KFold(n_splits=5, shuffle=True, random_state=42)
scores = cross_validate(
    gbr, X, y, cv=cv, scoring=("r2", "neg_mean_absolute_error"), return_train_score=False
)

r2 = scores["test_r2"]
mae = -scores["test_neg_mean_absolute_error"]
print(f"\\n5-fold CV on {len(wafers)} wafers")
print(f"  R^2 : {r2.mean():.3f} +/- {r2.std():.3f}")
print(f"  MAE : {mae.mean():.2f} yield points +/- {mae.std():.2f}")

gbr.fit(X, y)
importance = pd.Series(gbr.feature_importances_, index=features).sort_values(ascending=False)
print("\\nFeature importance (full fit):")
print(importance.round(3).to_string())
'''

WAFER_SOUND = '''
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import KFold

print(wafers.groupby("reticle_id").size().describe().round(1).to_string())

wafers["lot_mean_particles"] = wafers.groupby("lot_id")["particle_count"].transform("mean")
wafers["dose_dev"] = (wafers["litho_dose_mj"] - 32.0).abs()
base = [
    "litho_dose_mj", "dose_dev", "etch_time_s", "particle_count",
    "chuck_temp_c", "lot_mean_particles",
]
features = base + ["reticle_yield_te"]

def encode_reticle(train, other, smoothing=10):
    prior = train["yield_pct"].mean()
    stats = train.groupby("reticle_id")["yield_pct"].agg(["mean", "count"])
    smooth = (stats["mean"] * stats["count"] + prior * smoothing) / (stats["count"] + smoothing)
    return other["reticle_id"].map(smooth).fillna(prior).to_numpy()

cv = KFold(n_splits=5, shuffle=True, random_state=42)
r2, mae, importances = [], [], []
for tr_idx, va_idx in cv.split(wafers):
    tr, va = wafers.iloc[tr_idx].copy(), wafers.iloc[va_idx].copy()
    inner = KFold(n_splits=5, shuffle=True, random_state=1)
    tr["reticle_yield_te"] = np.nan
    for fit_i, enc_i in inner.split(tr):
        tr.iloc[enc_i, tr.columns.get_loc("reticle_yield_te")] = encode_reticle(
            tr.iloc[fit_i], tr.iloc[enc_i]
        )
    va["reticle_yield_te"] = encode_reticle(tr, va)
    gbr = GradientBoostingRegressor(
        n_estimators=150, max_depth=3, learning_rate=0.05, subsample=0.8, random_state=0
    )
    gbr.fit(tr[features], tr["yield_pct"])
    pred = gbr.predict(va[features])
    r2.append(r2_score(va["yield_pct"], pred))
    mae.append(mean_absolute_error(va["yield_pct"], pred))
    importances.append(gbr.feature_importances_)

r2, mae = np.array(r2), np.array(mae)
print(f"\\n5-fold CV on {len(wafers)} wafers (reticle encoding fit inside each fold)")
print(f"  R^2 : {r2.mean():.3f} +/- {r2.std():.3f}")
print(f"  MAE : {mae.mean():.2f} yield points +/- {mae.std():.2f}")

importance = pd.Series(np.mean(importances, axis=0), index=features).sort_values(ascending=False)
print("\\nFeature importance (mean over folds):")
print(importance.round(3).to_string())
'''

CASES: list[Case] = [
    Case(
        id="h13-leakage-fraud-selectkbest-before-split",
        family="leakage",
        code=FRAUD_FLAWED,
        setup=FRAUD_SETUP,
        twin="h13-leakage-fraud-selectkbest-pipeline",
        note="Scaler and SelectKBest are fit on all claims (with labels) before the train/test "
             "split, so the hold-out AUC benefits from features chosen using test labels.",
        split=SPLIT,
    ),
    Case(
        id="h13-leakage-fraud-selectkbest-pipeline",
        family=None,
        code=FRAUD_SOUND,
        setup=FRAUD_SETUP,
        twin="h13-leakage-fraud-selectkbest-before-split",
        note="Imputation, scaling and feature selection sit in a pipeline fit on the training "
             "split only; hold-out AUC is honest.",
        split=SPLIT,
    ),
    Case(
        id="h13-leakage-wafer-target-encoding-full-data",
        family="leakage",
        code=WAFER_FLAWED,
        setup=WAFER_SETUP,
        twin="h13-leakage-wafer-target-encoding-in-fold",
        note="Reticle target encoding is the mean yield over all wafers, computed before "
             "cross-validation, so each validation wafer's own yield feeds its feature.",
        split=SPLIT,
    ),
    Case(
        id="h13-leakage-wafer-target-encoding-in-fold",
        family=None,
        code=WAFER_SOUND,
        setup=WAFER_SETUP,
        twin="h13-leakage-wafer-target-encoding-full-data",
        note="Reticle target encoding is fit on each training fold (out-of-fold inside it) "
             "and only applied to the validation fold.",
        split=SPLIT,
    ),
]
