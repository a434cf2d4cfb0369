from bench.critic_corpus import Case

SPLIT = "holdout25"

_CHURN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
n = 500
users = pd.DataFrame({
    "user_id": np.arange(100000, 100000 + n),
    "sessions_30d": rng.poisson(12, n),
    "avg_session_min": rng.gamma(2.0, 4.0, n).round(1),
    "push_opt_in": rng.integers(0, 2, n),
    "tenure_days": rng.integers(5, 900, n),
    "support_tickets": rng.poisson(0.4, n),
})
# raw event counters exported from the product warehouse (z-scored upstream)
evt = pd.DataFrame(rng.normal(size=(n, 300)), columns=[f"evt_{i:03d}" for i in range(300)])
users = pd.concat([users, evt], axis=1)
lin = (-1.0 - 0.05 * (users.sessions_30d - 12) + 0.4 * users.support_tickets
       - 0.0008 * users.tenure_days)
users["churned_60d"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

_PROMO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n = 3000
codes = [f"INFL{i:03d}" for i in range(400)]
visits = pd.DataFrame({
    "visitor_id": rng.integers(10**7, 10**8, n),
    "promo_code": rng.choice(codes, n),
    "device": rng.choice(["ios", "android", "web"], n, p=[0.45, 0.35, 0.2]),
    "visits_7d": rng.poisson(3, n),
    "cart_value_eur": rng.lognormal(3.6, 0.6, n).round(2),
})
lin = -1.6 + 0.15 * visits.visits_7d + 0.3 * (visits.device == "ios")
visits["redeemed"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

CASES = [
    Case(
        id="h25-leak-selectkbest-churn-cv",
        family="leakage",
        setup=_CHURN_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import StandardScaler

feature_cols = [c for c in users.columns if c not in ("user_id", "churned_60d")]
X = users[feature_cols]
y = users["churned_60d"]

# keep the 25 most churn-relevant signals, then scale
selector = SelectKBest(f_classif, k=25).fit(X, y)
X_top = StandardScaler().fit_transform(selector.transform(X))
kept = X.columns[selector.get_support()].tolist()

auc = cross_val_score(LogisticRegression(max_iter=2000), X_top, y, cv=5, scoring="roc_auc")
print(f"churn base rate      : {y.mean():.1%}")
print(f"features kept        : {len(kept)} of {len(feature_cols)}")
print(f"top signals          : {kept[:8]}")
print(f"5-fold AUC           : {auc.mean():.3f} +/- {auc.std():.3f}")
print("-> ready to score the full base for the win-back campaign")
''',
        twin="h25-leak-selectkbest-churn-cv-ok",
        note="SelectKBest and the scaler are fit on all 500 users before cross-validation; the "
             "300 noise counters chosen with the held-out folds' labels inflate the AUC",
        split=SPLIT,
    ),
    Case(
        id="h25-leak-selectkbest-churn-cv-ok",
        family=None,
        setup=_CHURN_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

feature_cols = [c for c in users.columns if c not in ("user_id", "churned_60d")]
X = users[feature_cols]
y = users["churned_60d"]

# selection + scaling live inside the pipeline so every CV fold refits them on its train part
pipe = make_pipeline(SelectKBest(f_classif, k=25), StandardScaler(),
                     LogisticRegression(max_iter=2000))
auc = cross_val_score(pipe, X, y, cv=5, scoring="roc_auc")
kept = X.columns[pipe.fit(X, y)[0].get_support()].tolist()

print(f"churn base rate      : {y.mean():.1%}")
print(f"features kept        : {len(kept)} of {len(feature_cols)}")
print(f"top signals          : {kept[:8]}")
print(f"5-fold AUC           : {auc.mean():.3f} +/- {auc.std():.3f}")
''',
        twin="h25-leak-selectkbest-churn-cv",
        note="feature selection and scaling are refit inside each CV fold via a Pipeline, so the "
             "AUC is an honest out-of-fold estimate",
        split=SPLIT,
    ),
    Case(
        id="h25-leak-target-encoding-promo-code",
        family="leakage",
        setup=_PROMO_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

df = visits.copy()
# influencer code -> historical redemption rate
df["code_redeem_rate"] = df.groupby("promo_code")["redeemed"].transform("mean")
df["code_volume"] = df.groupby("promo_code")["visitor_id"].transform("size")
df = pd.get_dummies(df, columns=["device"], drop_first=True, dtype=int)

feats = ["code_redeem_rate", "code_volume", "visits_7d", "cart_value_eur",
         "device_ios", "device_web"]
X_tr, X_te, y_tr, y_te = train_test_split(df[feats], df["redeemed"], test_size=0.25,
                                          stratify=df["redeemed"], random_state=3)
gbm = GradientBoostingClassifier(n_estimators=150, max_depth=3, random_state=3)
gbm.fit(X_tr, y_tr)
p = gbm.predict_proba(X_te)[:, 1]

print(f"redemption rate (test)  : {y_te.mean():.1%}")
print(f"holdout AUC             : {roc_auc_score(y_te, p):.3f}")
top_decile = p >= np.quantile(p, 0.9)
print(f"top-decile redemption   : {y_te[top_decile].mean():.1%}  "
      f"(lift x{y_te[top_decile].mean() / y_te.mean():.1f})")
print(dict(zip(feats, gbm.feature_importances_.round(3))))
''',
        twin="h25-leak-target-encoding-promo-code-ok",
        note="promo-code redemption rate is target-encoded on the full data before the split, so "
             "each test visitor's own label sits in its feature (about 7 visits per code)",
        split=SPLIT,
    ),
    Case(
        id="h25-leak-target-encoding-promo-code-ok",
        family=None,
        setup=_PROMO_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

df = pd.get_dummies(visits, columns=["device"], drop_first=True, dtype=int)
train, test = train_test_split(df, test_size=0.25, stratify=df["redeemed"], random_state=3)
train, test = train.copy(), test.copy()

# encode promo codes from the training rows only (smoothed towards the global rate)
prior, m = train["redeemed"].mean(), 20
stats = train.groupby("promo_code")["redeemed"].agg(["sum", "count"])
enc = (stats["sum"] + m * prior) / (stats["count"] + m)
for part in (train, test):
    part["code_redeem_rate"] = part["promo_code"].map(enc).fillna(prior)
    part["code_volume"] = part["promo_code"].map(stats["count"]).fillna(0)

feats = ["code_redeem_rate", "code_volume", "visits_7d", "cart_value_eur",
         "device_ios", "device_web"]
gbm = GradientBoostingClassifier(n_estimators=150, max_depth=3, random_state=3)
gbm.fit(train[feats], train["redeemed"])
p = gbm.predict_proba(test[feats])[:, 1]
y_te = test["redeemed"]

print(f"redemption rate (test)  : {y_te.mean():.1%}")
print(f"holdout AUC             : {roc_auc_score(y_te, p):.3f}")
top_decile = p >= np.quantile(p, 0.9)
print(f"top-decile redemption   : {y_te[top_decile].mean():.1%}  "
      f"(lift x{y_te[top_decile].mean() / y_te.mean():.1f})")
print(dict(zip(feats, gbm.feature_importances_.round(3))))
''',
        twin="h25-leak-target-encoding-promo-code",
        note="target encoding of promo codes is learned on the training split only (smoothed) and "
             "mapped onto the test split, so the holdout AUC is honest",
        split=SPLIT,
    ),
]
