from bench.critic_corpus import Case

SPLIT = "holdout25"

_STREAM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 2500
subs = pd.DataFrame({
    "sub_id": [f"S{i:06d}" for i in range(n)],
    "plan": rng.choice(["basic", "standard", "premium"], n, p=[0.4, 0.4, 0.2]),
    "hours_watched_30d": rng.gamma(2.2, 9.0, n).round(1),
    "profiles": rng.integers(1, 6, n),
    "payment_failures_90d": rng.poisson(0.25, n),
    "months_active": rng.integers(1, 48, n),
})
lin = (-1.3 - 0.035 * subs.hours_watched_30d + 0.7 * subs.payment_failures_90d
       - 0.02 * subs.months_active + 0.3 * (subs.plan == "basic"))
subs["churned_next_month"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# from the CRM: visits to the cancellation flow and whether the save-offer modal was shown
# (both logged during the month the churn label is measured)
subs["cancel_page_visits"] = np.where(subs.churned_next_month == 1,
                                      rng.poisson(1.6, n), rng.poisson(0.08, n))
subs["save_offer_shown"] = (subs.cancel_page_visits > 0).astype(int)
'''

_EMAIL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(808)
n = 4000
rcpt = pd.DataFrame({
    "email_hash": [f"{h:012x}" for h in rng.integers(16**11, 16**12, n)],
    "segment": rng.choice(["lapsed", "active", "vip"], n, p=[0.5, 0.4, 0.1]),
    "opens_90d": rng.poisson(4, n),
    "days_since_purchase": rng.integers(3, 400, n),
    "discount_pct": rng.choice([10, 15, 20], n),
})
lin = (-2.6 + 0.12 * rcpt.opens_90d - 0.004 * rcpt.days_since_purchase
       + 0.05 * rcpt.discount_pct + 0.8 * (rcpt.segment == "vip"))
rcpt["purchased_14d"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# post-purchase review request goes out 5 days after an order
rcpt["left_review_14d"] = ((rcpt.purchased_14d == 1) & (rng.random(n) < 0.35)).astype(int)
rcpt["site_visits_14d"] = rng.poisson(1 + 2.5 * rcpt.purchased_14d)
'''

CASES = [
    Case(
        id="h25-tleak-cancel-flow-churn-gbm",
        family="target_leakage",
        setup=_STREAM_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score, precision_score
from sklearn.model_selection import train_test_split

X = pd.get_dummies(subs.drop(columns=["sub_id", "churned_next_month"]),
                   columns=["plan"], dtype=int)
y = subs["churned_next_month"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)

clf = GradientBoostingClassifier(n_estimators=200, learning_rate=0.05, max_depth=3,
                                 random_state=11).fit(X_tr, y_tr)
score = clf.predict_proba(X_te)[:, 1]
flag = score > 0.5

print("=== churn early-warning model ===")
print(f"monthly churn         : {y.mean():.1%}")
print(f"holdout AUC           : {roc_auc_score(y_te, score):.3f}")
print(f"precision @0.5        : {precision_score(y_te, flag):.1%}")
print(f"subs flagged          : {flag.sum()} of {len(flag)}")
imp = pd.Series(clf.feature_importances_, index=X.columns).sort_values(ascending=False)
print(imp.head(6).round(3).to_string())
''',
        twin="h25-tleak-cancel-flow-churn-gbm-ok",
        note="cancel_page_visits and save_offer_shown are logged in the churn month itself and "
             "are near-copies of the label; they dominate importance and inflate the AUC",
        split=SPLIT,
    ),
    Case(
        id="h25-tleak-cancel-flow-churn-gbm-ok",
        family=None,
        setup=_STREAM_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score, precision_score
from sklearn.model_selection import train_test_split

# cancellation-flow columns are logged during the churn month -> not available at scoring time
post_outcome = ["cancel_page_visits", "save_offer_shown"]
X = pd.get_dummies(subs.drop(columns=["sub_id", "churned_next_month", *post_outcome]),
                   columns=["plan"], dtype=int)
y = subs["churned_next_month"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)

clf = GradientBoostingClassifier(n_estimators=200, learning_rate=0.05, max_depth=3,
                                 random_state=11).fit(X_tr, y_tr)
score = clf.predict_proba(X_te)[:, 1]
flag = score > 0.5

print("=== churn early-warning model ===")
print(f"monthly churn         : {y.mean():.1%}")
print(f"holdout AUC           : {roc_auc_score(y_te, score):.3f}")
print(f"precision @0.5        : {precision_score(y_te, flag, zero_division=0):.1%}")
print(f"subs flagged          : {flag.sum()} of {len(flag)}")
imp = pd.Series(clf.feature_importances_, index=X.columns).sort_values(ascending=False)
print(imp.head(6).round(3).to_string())
''',
        twin="h25-tleak-cancel-flow-churn-gbm",
        note="the churn model uses only features known before the churn month; cancellation-flow "
             "columns are dropped",
        split=SPLIT,
    ),
    Case(
        id="h25-tleak-review-email-logit",
        family="target_leakage",
        setup=_EMAIL_SETUP,
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = rcpt.sample(frac=0.7, random_state=21)
test = rcpt.drop(train.index)

fml = ("purchased_14d ~ opens_90d + days_since_purchase + discount_pct + C(segment)"
       " + left_review_14d + site_visits_14d")
m = smf.logit(fml, data=train).fit(disp=0)

odds = np.exp(m.params).round(2)
auc = roc_auc_score(test["purchased_14d"], m.predict(test))
print(f"pseudo R2              : {m.prsquared:.3f}")
print(f"holdout AUC            : {auc:.3f}")
print("odds ratios:")
print(odds.to_string())
print(f"-> each extra point of discount multiplies purchase odds by {odds['discount_pct']}")
''',
        twin="h25-tleak-review-email-logit-ok",
        note="left_review_14d and site_visits_14d are measured over the same 14 days as the "
             "purchase outcome (reviews only follow a purchase), so they leak the target",
        split=SPLIT,
    ),
    Case(
        id="h25-tleak-review-email-logit-ok",
        family=None,
        setup=_EMAIL_SETUP,
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = rcpt.sample(frac=0.7, random_state=21)
test = rcpt.drop(train.index)

# only pre-send attributes: reviews and visits in the 14-day window follow the purchase
fml = "purchased_14d ~ opens_90d + days_since_purchase + discount_pct + C(segment)"
m = smf.logit(fml, data=train).fit(disp=0)

odds = np.exp(m.params).round(2)
auc = roc_auc_score(test["purchased_14d"], m.predict(test))
print(f"pseudo R2              : {m.prsquared:.3f}")
print(f"holdout AUC            : {auc:.3f}")
print("odds ratios:")
print(odds.to_string())
print(f"-> each extra point of discount multiplies purchase odds by {odds['discount_pct']}")
''',
        twin="h25-tleak-review-email-logit",
        note="purchase propensity is modelled from pre-send attributes only; post-send review "
             "and visit counts are excluded",
        split=SPLIT,
    ),
]
