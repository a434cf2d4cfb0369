from bench.critic_corpus import Case

SPLIT = "holdout13"

CHURN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2207)
n = 3000
subs = pd.DataFrame({
    "account_id": [f"AC{500000 + i}" for i in range(n)],
    "plan": rng.choice(["basic", "standard", "premium"], n, p=[0.45, 0.4, 0.15]),
    "tenure_months": rng.integers(1, 60, n),
    "monthly_fee": np.nan,
    "logins_30d": rng.poisson(11, n),
    "support_tickets_90d": rng.poisson(0.8, n),
    "payment_failures_90d": rng.poisson(0.25, n),
    "discount_active": rng.random(n) < 0.2,
})
subs["monthly_fee"] = subs["plan"].map({"basic": 7.99, "standard": 12.99, "premium": 17.99})
lin = (-1.2 - 0.03 * subs["tenure_months"] - 0.08 * subs["logins_30d"]
       + 0.35 * subs["support_tickets_90d"] + 0.8 * subs["payment_failures_90d"]
       - 0.4 * subs["discount_active"] + 0.04 * subs["monthly_fee"])
subs["churned_next_q"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# retention team sends win-back offers once a cancellation request is logged
subs["winback_offer_sent"] = np.where(
    subs["churned_next_q"] == 1, rng.random(n) < 0.72, rng.random(n) < 0.03
).astype(int)
subs.loc[rng.choice(n, 60, replace=False), "logins_30d"] = np.nan
'''

CHURN_FLAWED = '''
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.impute import SimpleImputer
from sklearn.inspection import permutation_importance
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder

target = "churned_next_q"
numeric = ["tenure_months", "monthly_fee", "logins_30d", "support_tickets_90d",
           "payment_failures_90d", "discount_active", "winback_offer_sent"]
categorical = ["plan"]

df = subs.assign(discount_active=subs["discount_active"].astype(int))
X_tr, X_te, y_tr, y_te = train_test_split(
    df[numeric + categorical], df[target], test_size=0.25, stratify=df[target], random_state=11
)

prep = ColumnTransformer([
    ("num", SimpleImputer(strategy="median"), numeric),
    ("cat", OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical),
])
model = Pipeline([
    ("prep", prep),
    ("gbm", GradientBoostingClassifier(n_estimators=150, learning_rate=0.08, random_state=3)),
])
model.fit(X_tr, y_tr)
p_te = model.predict_proba(X_te)[:, 1]

print(f"Train {len(X_tr)} / test {len(X_te)} accounts, churn rate {df[target].mean():.1%}")
print(f"ROC AUC           : {roc_auc_score(y_te, p_te):.3f}")
print(f"Average precision : {average_precision_score(y_te, p_te):.3f}")

perm = permutation_importance(model, X_te, y_te, scoring="roc_auc", n_repeats=5,
                              random_state=0)
imp = (pd.Series(perm.importances_mean, index=numeric + categorical)
         .sort_values(ascending=False))
print("\\nPermutation importance (drop in AUC):")
print(imp.round(4).to_string())

deciles = pd.qcut(p_te, 10, labels=False, duplicates="drop")
lift = pd.Series(y_te.to_numpy()).groupby(deciles).mean().iloc[::-1]
print("\\nObserved churn by score decile (top first):")
print((lift * 100).round(1).to_string())
'''

CHURN_SOUND = CHURN_FLAWED.replace(
    '''           "payment_failures_90d", "discount_active", "winback_offer_sent"]''',
    '''           "payment_failures_90d", "discount_active"]''',
)

COURT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
n = 1400
cases = pd.DataFrame({
    "case_ref": [f"CR-{2019 + i % 5}-{10000 + i}" for i in range(n)],
    "offence_type": rng.choice(["theft", "assault", "fraud", "drugs", "public_order"], n,
                               p=[0.3, 0.2, 0.12, 0.23, 0.15]),
    "prior_convictions": rng.poisson(1.4, n),
    "public_defender": (rng.random(n) < 0.55).astype(int),
    "pretrial_detained": (rng.random(n) < 0.28).astype(int),
    "days_to_trial": rng.gamma(3.0, 70, n).round(),
    "guilty_plea_offered": (rng.random(n) < 0.4).astype(int),
})
off = cases["offence_type"].map({"theft": 0.2, "assault": -0.1, "fraud": -0.4,
                                 "drugs": 0.35, "public_order": 0.1})
lin = (-0.2 + 0.28 * cases["prior_convictions"] + 0.6 * cases["pretrial_detained"]
       + 0.15 * cases["public_defender"] - 0.0015 * cases["days_to_trial"] + off)
cases["convicted"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
cases["appeal_filed"] = np.where(cases["convicted"] == 1,
                                 rng.random(n) < 0.38, rng.random(n) < 0.02).astype(int)
'''

COURT_FLAWED = '''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = cases.sample(frac=0.7, random_state=5)
test = cases.drop(train.index)

formula = ("convicted ~ prior_convictions + pretrial_detained + public_defender"
           " + np.log1p(days_to_trial) + C(offence_type, Treatment('theft'))"
           " + appeal_filed")
fit = smf.logit(formula, data=train).fit(disp=False)

table = pd.DataFrame({
    "odds_ratio": np.exp(fit.params),
    "ci_low": np.exp(fit.conf_int()[0]),
    "ci_high": np.exp(fit.conf_int()[1]),
    "p": fit.pvalues,
}).drop(index="Intercept")
table.index = table.index.str.replace("C(offence_type, Treatment('theft'))", "offence",
                                      regex=False)

p_test = fit.predict(test)
auc = roc_auc_score(test["convicted"], p_test)
acc = ((p_test >= 0.5).astype(int) == test["convicted"]).mean()

print(f"Cases: train {len(train)}, test {len(test)}; conviction rate "
      f"{cases['convicted'].mean():.1%}")
print(f"McFadden pseudo R^2: {fit.prsquared:.3f}")
print(f"Test ROC AUC: {auc:.3f}   accuracy at 0.5: {acc:.1%}")
print()
print(table.round(3).sort_values("p").to_string())
'''

COURT_SOUND = COURT_FLAWED.replace(
    '''           " + np.log1p(days_to_trial) + C(offence_type, Treatment('theft'))"
           " + appeal_filed")''',
    '''           " + np.log1p(days_to_trial) + C(offence_type, Treatment('theft'))")''',
)

CASES: list[Case] = [
    Case(
        id="h13-target-leakage-churn-winback-flag",
        family="target_leakage",
        code=CHURN_FLAWED,
        setup=CHURN_SETUP,
        twin="h13-target-leakage-churn-no-winback",
        note="winback_offer_sent is only set after a cancellation is logged, so it encodes the "
             "churn label; it dominates the importance and inflates the test AUC.",
        split=SPLIT,
    ),
    Case(
        id="h13-target-leakage-churn-no-winback",
        family=None,
        code=CHURN_SOUND,
        setup=CHURN_SETUP,
        twin="h13-target-leakage-churn-winback-flag",
        note="Same churn model with only features known before the prediction quarter.",
        split=SPLIT,
    ),
    Case(
        id="h13-target-leakage-court-appeal-filed",
        family="target_leakage",
        code=COURT_FLAWED,
        setup=COURT_SETUP,
        twin="h13-target-leakage-court-pretrial-only",
        note="appeal_filed happens after (and almost only after) a conviction, yet it is a "
             "predictor of conviction; AUC and odds ratios are driven by the outcome itself.",
        split=SPLIT,
    ),
    Case(
        id="h13-target-leakage-court-pretrial-only",
        family=None,
        code=COURT_SOUND,
        setup=COURT_SETUP,
        twin="h13-target-leakage-court-appeal-filed",
        note="Conviction logit uses only case facts known before trial; hold-out AUC is honest.",
        split=SPLIT,
    ),
]
