from bench.critic_corpus import Case

_SPLIT = "holdout16"

_MEDICAID_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4417)
n = 2400
fips = [f"{s}{c:03d}" for s in ("17", "18", "26", "39", "55") for c in range(1, 181, 2)]
county = rng.choice(fips, n)
age = rng.integers(19, 65, n)
inc_fpl = np.round(rng.gamma(2.2, 60, n), 1)
kids = rng.poisson(1.1, n)
employed = rng.binomial(1, 0.62, n)
lin = -0.5 + 0.9 * (inc_fpl < 138) + 0.25 * kids - 0.015 * (age - 40) - 0.35 * employed
enrolled = rng.binomial(1, 1 / (1 + np.exp(-lin)))
hh = pd.DataFrame({
    "hh_id": np.arange(100000, 100000 + n),
    "county_fips": county,
    "age": age,
    "hh_income_fpl": inc_fpl,
    "n_children": kids,
    "employed": employed,
    "enrolled": enrolled,
})
hh.loc[rng.random(n) < 0.04, "hh_income_fpl"] = np.nan
'''

_MICROFIN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(90210)
n, p = 600, 180
items = rng.normal(size=(n, p))
cols = [f"q{i:03d}" for i in range(1, p + 1)]
baseline = pd.DataFrame(np.round(items, 2), columns=cols)
lin = -0.9 + 0.35 * items[:, 4] - 0.3 * items[:, 17] + 0.25 * items[:, 60]
baseline["defaulted"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
baseline.insert(0, "branch", rng.choice(["Kisumu", "Nakuru", "Eldoret", "Thika"], n))
baseline.insert(0, "borrower_id", [f"MF{i:05d}" for i in range(n)])
'''

CASES = [
    Case(
        id="h16-leakage-county-takeup-encoding",
        family="leakage",
        split=_SPLIT,
        twin="h16-leakage-county-takeup-encoding-ok",
        setup=_MEDICAID_SETUP,
        note="county mean enrolment (target encoding) and median imputation computed on all "
             "households before the train/test split, so test outcomes feed the features",
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

hh["county_takeup"] = hh.groupby("county_fips")["enrolled"].transform("mean")
hh["hh_income_fpl"] = hh["hh_income_fpl"].fillna(hh["hh_income_fpl"].median())

features = ["age", "hh_income_fpl", "n_children", "employed", "county_takeup"]
X_tr, X_te, y_tr, y_te = train_test_split(
    hh[features], hh["enrolled"], test_size=0.3, random_state=7, stratify=hh["enrolled"]
)
gb = GradientBoostingClassifier(n_estimators=150, max_depth=3, random_state=7)
gb.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, gb.predict_proba(X_te)[:, 1])
print(f"Held-out AUC, Medicaid take-up model: {auc:.3f}")
pd.Series(gb.feature_importances_, index=features).sort_values(ascending=False).round(3)
''',
    ),
    Case(
        id="h16-leakage-county-takeup-encoding-ok",
        family=None,
        split=_SPLIT,
        twin="h16-leakage-county-takeup-encoding",
        setup=_MEDICAID_SETUP,
        note="split first; county take-up encoding (smoothed) and imputation median are learned "
             "from training households only and mapped onto the test set",
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

train, test = train_test_split(hh, test_size=0.3, random_state=7, stratify=hh["enrolled"])
train, test = train.copy(), test.copy()

prior = train["enrolled"].mean()
by_cty = train.groupby("county_fips")["enrolled"].agg(["sum", "count"])
smoothed = (by_cty["sum"] + 10 * prior) / (by_cty["count"] + 10)
train["county_takeup"] = train["county_fips"].map(smoothed)
test["county_takeup"] = test["county_fips"].map(smoothed).fillna(prior)

med = train["hh_income_fpl"].median()
train["hh_income_fpl"] = train["hh_income_fpl"].fillna(med)
test["hh_income_fpl"] = test["hh_income_fpl"].fillna(med)

features = ["age", "hh_income_fpl", "n_children", "employed", "county_takeup"]
gb = GradientBoostingClassifier(n_estimators=150, max_depth=3, random_state=7)
gb.fit(train[features], train["enrolled"])
auc = roc_auc_score(test["enrolled"], gb.predict_proba(test[features])[:, 1])
print(f"Held-out AUC, Medicaid take-up model: {auc:.3f}")
pd.Series(gb.feature_importances_, index=features).sort_values(ascending=False).round(3)
''',
    ),
    Case(
        id="h16-leakage-survey-items-kbest",
        family="leakage",
        split=_SPLIT,
        twin="h16-leakage-survey-items-kbest-ok",
        setup=_MICROFIN_SETUP,
        note="SelectKBest picks 15 of 180 baseline items using default status of all borrowers, "
             "then cross-validation is run on the pre-selected items; AUC is optimistic",
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler

X = baseline.drop(columns=["borrower_id", "branch", "defaulted"])
y = baseline["defaulted"]

kbest = SelectKBest(f_classif, k=15).fit(X, y)
kept = X.columns[kbest.get_support()]
print("retained items:", ", ".join(kept))

X_kept = StandardScaler().fit_transform(X[kept])
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(LogisticRegression(max_iter=2000), X_kept, y, cv=cv, scoring="roc_auc")
print(f"default-risk score, 5-fold AUC = {auc.mean():.3f} (sd {auc.std():.3f})")
''',
    ),
    Case(
        id="h16-leakage-survey-items-kbest-ok",
        family=None,
        split=_SPLIT,
        twin="h16-leakage-survey-items-kbest",
        setup=_MICROFIN_SETUP,
        note="item selection and scaling sit inside a Pipeline, so each CV fold selects items "
             "from its own training borrowers only",
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = baseline.drop(columns=["borrower_id", "branch", "defaulted"])
y = baseline["defaulted"]

pipe = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=15),
                     LogisticRegression(max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
res = cross_validate(pipe, X, y, cv=cv, scoring="roc_auc", return_estimator=True)

picked = pd.Series(0, index=X.columns)
for est in res["estimator"]:
    picked[X.columns[est.named_steps["selectkbest"].get_support()]] += 1
print("items picked in all 5 folds:", ", ".join(picked[picked == 5].index))
auc = res["test_score"]
print(f"default-risk score, 5-fold AUC = {auc.mean():.3f} (sd {auc.std():.3f})")
''',
    ),
]
