from bench.critic_corpus import Case

_ATTRITION_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2917)
n = 1600
hr = pd.DataFrame({
    "employee_id": [f"E{100000 + i}" for i in range(n)],
    "age": rng.integers(21, 63, n),
    "tenure_yrs": np.round(rng.gamma(2.0, 2.2, n), 1),
    "salary_band": rng.integers(1, 8, n),
    "overtime_hrs_month": np.round(rng.gamma(1.5, 6.0, n), 1),
    "last_rating": rng.choice([1, 2, 3, 4, 5], n, p=[0.04, 0.14, 0.5, 0.24, 0.08]),
    "commute_km": np.round(rng.lognormal(2.6, 0.6, n), 1),
    "engagement_idx": np.round(np.clip(rng.normal(3.6, 0.7, n), 1, 5), 2),
    "months_since_promo": rng.integers(0, 72, n),
})
logit = (-2.2 - 0.9 * (hr.engagement_idx - 3.6) + 0.05 * (hr.overtime_hrs_month - 9)
         - 0.15 * (hr.tenure_yrs - 4.4) + 0.015 * (hr.months_since_promo - 36)
         + rng.normal(0, 0.5, n))
hr["left_within_12m"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
'''

_HIRING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(29002)
n = 1400
recruiters = [f"R{r:03d}" for r in range(220)]
apps = pd.DataFrame({
    "application_id": np.arange(50000, 50000 + n),
    "recruiter_id": rng.choice(recruiters, n),
    "source_channel": rng.choice(["referral", "linkedin", "job_board", "agency", "careers_site"],
                                 n, p=[0.15, 0.3, 0.25, 0.1, 0.2]),
    "role_family": rng.choice(["engineering", "sales", "operations", "finance"], n),
    "years_experience": np.round(rng.gamma(2.5, 2.4, n), 1),
    "interview_score": np.round(np.clip(rng.normal(3.3, 0.6, n), 1, 5), 1),
    "offer_vs_band_mid": np.round(rng.normal(1.0, 0.07, n), 3),
})
lin = (-0.4 + 0.5 * (apps.source_channel == "referral") + 0.6 * (apps.interview_score - 3.3)
       + 3.0 * (apps.offer_vs_band_mid - 1.0))
apps["offer_accepted"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h29-leak-attrition-upsample-before-split",
        family="leakage",
        setup=_ATTRITION_SETUP,
        code='''
from sklearn.utils import resample
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, recall_score, precision_score

feats = ["age", "tenure_yrs", "salary_band", "overtime_hrs_month", "last_rating",
         "commute_km", "engagement_idx", "months_since_promo"]
print("leaver rate:", round(hr.left_within_12m.mean(), 3))

# only ~10% leavers -> upsample leavers so the forest actually learns them
leavers = hr[hr.left_within_12m == 1]
stayers = hr[hr.left_within_12m == 0]
leavers_up = resample(leavers, replace=True, n_samples=len(stayers), random_state=42)
balanced = pd.concat([stayers, leavers_up]).reset_index(drop=True)

X_train, X_test, y_train, y_test = train_test_split(
    balanced[feats], balanced.left_within_12m, test_size=0.25,
    stratify=balanced.left_within_12m, random_state=42)

rf = RandomForestClassifier(n_estimators=100, min_samples_leaf=3, random_state=42, n_jobs=1)
rf.fit(X_train, y_train)
proba = rf.predict_proba(X_test)[:, 1]
pred = (proba >= 0.5).astype(int)
print(f"Flight-risk model  AUC={roc_auc_score(y_test, proba):.3f}  "
      f"recall={recall_score(y_test, pred):.2f}  precision={precision_score(y_test, pred):.2f}")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3)
''',
        twin="h29-leak-attrition-upsample-train-only",
        note="Leavers are upsampled with replacement before the split, so copies of the same "
             "leaver sit in train and test and the test AUC/recall are inflated.",
        split="holdout29",
    ),
    Case(
        id="h29-leak-attrition-upsample-train-only",
        family=None,
        setup=_ATTRITION_SETUP,
        code='''
from sklearn.utils import resample
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, recall_score, precision_score

feats = ["age", "tenure_yrs", "salary_band", "overtime_hrs_month", "last_rating",
         "commute_km", "engagement_idx", "months_since_promo"]
print("leaver rate:", round(hr.left_within_12m.mean(), 3))

# split first on the real data; the test set keeps the true ~10% leaver mix
train, test = train_test_split(hr, test_size=0.25, stratify=hr.left_within_12m,
                               random_state=42)

# upsample leavers inside the training set only
leavers = train[train.left_within_12m == 1]
stayers = train[train.left_within_12m == 0]
leavers_up = resample(leavers, replace=True, n_samples=len(stayers), random_state=42)
train_bal = pd.concat([stayers, leavers_up]).reset_index(drop=True)

rf = RandomForestClassifier(n_estimators=100, min_samples_leaf=3, random_state=42, n_jobs=1)
rf.fit(train_bal[feats], train_bal.left_within_12m)
proba = rf.predict_proba(test[feats])[:, 1]
pred = (proba >= 0.5).astype(int)
y_test = test.left_within_12m
print(f"Flight-risk model  AUC={roc_auc_score(y_test, proba):.3f}  "
      f"recall={recall_score(y_test, pred):.2f}  precision={precision_score(y_test, pred):.2f}")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3)
''',
        twin="h29-leak-attrition-upsample-before-split",
        note="Split first, upsample leavers only in the training part, evaluate on the untouched "
             "test set with its natural class mix.",
        split="holdout29",
    ),
    Case(
        id="h29-leak-hiring-recruiter-target-encoding",
        family="leakage",
        setup=_HIRING_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

# recruiter_id has ~220 levels -> target-encode it (acceptance rate per recruiter)
apps["recruiter_accept_rate"] = apps.groupby("recruiter_id")["offer_accepted"].transform("mean")
apps["channel_accept_rate"] = apps.groupby("source_channel")["offer_accepted"].transform("mean")

X = apps[["recruiter_accept_rate", "channel_accept_rate", "years_experience",
          "interview_score", "offer_vs_band_mid"]]
y = apps["offer_accepted"]

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
print(f"offer-acceptance model, 5-fold CV AUC: {auc.mean():.3f} (+/- {auc.std():.3f})")
print("apps per recruiter (median):", apps.recruiter_id.value_counts().median())
''',
        twin="h29-leak-hiring-recruiter-target-encoding-in-cv",
        note="Recruiter/channel acceptance rates are computed from all rows including each "
             "validation fold's own outcomes, then cross-validated; CV AUC is inflated.",
        split="holdout29",
    ),
    Case(
        id="h29-leak-hiring-recruiter-target-encoding-in-cv",
        family=None,
        setup=_HIRING_SETUP,
        code='''
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, TargetEncoder

# recruiter_id has ~220 levels -> target-encode it, but inside the CV pipeline
# (TargetEncoder is refit on each training fold and cross-fits within it)
cat_cols = ["recruiter_id", "source_channel"]
num_cols = ["years_experience", "interview_score", "offer_vs_band_mid"]
prep = ColumnTransformer([
    ("te", TargetEncoder(target_type="binary",
                         cv=StratifiedKFold(n_splits=5, shuffle=True, random_state=0)), cat_cols),
    ("num", StandardScaler(), num_cols),
])
model = make_pipeline(prep, LogisticRegression(max_iter=1000))

X = apps[cat_cols + num_cols]
y = apps["offer_accepted"]

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
print(f"offer-acceptance model, 5-fold CV AUC: {auc.mean():.3f} (+/- {auc.std():.3f})")
print("apps per recruiter (median):", apps.recruiter_id.value_counts().median())
''',
        twin="h29-leak-hiring-recruiter-target-encoding",
        note="Target encoding is part of the pipeline, so it is learned from training folds "
             "only; CV AUC is an honest estimate.",
        split="holdout29",
    ),
]
