from bench.critic_corpus import Case

_ATTRITION_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3107)
n_resp = 320
# wave-1 profile questionnaire: 140 five-point items, then who dropped out before wave 2
w1 = pd.DataFrame({f"w1_q{j:03d}": rng.integers(1, 6, n_resp) for j in range(1, 141)})
w1.insert(0, "respid", np.arange(100001, 100001 + n_resp))
w1["age"] = rng.integers(18, 90, n_resp)
w1["web_mode"] = rng.binomial(1, 0.55, n_resp)
lin = -0.6 + 0.012 * (45 - w1["age"]) + 0.25 * (1 - w1["web_mode"])
w1["dropped_w2"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

_PRECINCT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(52)
n = 1800
precinct_ids = np.array([f"P{k:04d}" for k in range(600)])
poll = pd.DataFrame({
    "precinct": rng.choice(precinct_ids, n),
    "age": rng.integers(18, 92, n),
    "educ": rng.choice(["HS or less", "Some college", "BA+", "Postgrad"], n,
                       p=[0.35, 0.30, 0.22, 0.13]),
    "union_hh": rng.binomial(1, 0.14, n),
    "wt": rng.lognormal(0, 0.35, n).round(3),
})
lean = pd.Series(rng.normal(0, 0.3, len(precinct_ids)), index=precinct_ids)
educ_eff = poll["educ"].map({"HS or less": -0.4, "Some college": 0.0, "BA+": 0.35,
                             "Postgrad": 0.7})
lin = (-0.1 + educ_eff + 0.5 * poll["union_hh"] - 0.008 * (poll["age"] - 50)
       + poll["precinct"].map(lean).to_numpy())
poll["vote_dem"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
'''

CASES: list[Case] = [
    Case(
        id="h31-leakage-selectkbest-panel-attrition",
        family="leakage",
        setup=_ATTRITION_SETUP,
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

item_cols = [c for c in w1.columns if c.startswith("w1_q")]
X_all = w1[item_cols + ["age", "web_mode"]]
y = w1["dropped_w2"]

# keep the 20 profile items most predictive of dropping out
sel = SelectKBest(f_classif, k=20).fit(X_all, y)
X = X_all.loc[:, sel.get_support()]
print("kept:", ", ".join(X.columns))

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(LogisticRegression(max_iter=2000), X, y, cv=cv, scoring="roc_auc")
print(f"attrition model AUC, 5-fold: {auc.mean():.3f} (sd {auc.std():.3f})")
print(f"base rate of wave-2 dropout: {y.mean():.1%}  (n={len(y)})")
''',
        twin="h31-leakage-selectkbest-panel-attrition-ok",
        note="SelectKBest picks 20 of 142 columns using every respondent's dropout outcome before "
             "the CV folds, so the CV AUC is inflated by the screening step.",
        split="holdout31",
    ),
    Case(
        id="h31-leakage-selectkbest-panel-attrition-ok",
        family=None,
        setup=_ATTRITION_SETUP,
        code='''from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

item_cols = [c for c in w1.columns if c.startswith("w1_q")]
X_all = w1[item_cols + ["age", "web_mode"]]
y = w1["dropped_w2"]

# item screening lives inside the pipeline, so it is redone within every training fold
attr_model = make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression(max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
auc = cross_val_score(attr_model, X_all, y, cv=cv, scoring="roc_auc")
print(f"attrition model AUC, 5-fold: {auc.mean():.3f} (sd {auc.std():.3f})")
print(f"base rate of wave-2 dropout: {y.mean():.1%}  (n={len(y)})")

attr_model.fit(X_all, y)  # final model on everyone, for the fieldwork team
kept = X_all.columns[attr_model[0].get_support()]
print("kept in final model:", ", ".join(kept))
''',
        twin="h31-leakage-selectkbest-panel-attrition",
        note="Item screening is part of the pipeline and refit inside each CV fold; the final "
             "refit on all data is only used for deployment, not for the AUC.",
        split="holdout31",
    ),
    Case(
        id="h31-leakage-precinct-target-encoding",
        family="leakage",
        setup=_PRECINCT_SETUP,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

# precinct lean = share of our respondents in that precinct who vote Dem
poll["precinct_lean"] = poll.groupby("precinct")["vote_dem"].transform("mean")

X = pd.get_dummies(poll[["age", "educ", "union_hh", "precinct_lean"]],
                   columns=["educ"], drop_first=True, dtype=float)
y = poll["vote_dem"]
X_tr, X_te, y_tr, y_te, w_tr, w_te = train_test_split(
    X, y, poll["wt"], test_size=0.3, random_state=8, stratify=y)

vote_model = LogisticRegression(max_iter=1000).fit(X_tr, y_tr, sample_weight=w_tr)
p_te = vote_model.predict_proba(X_te)[:, 1]
print("holdout AUC (weighted):", round(roc_auc_score(y_te, p_te, sample_weight=w_te), 3))
print("holdout accuracy      :", round(((p_te > 0.5) == y_te).mean(), 3))
pd.Series(vote_model.coef_[0], index=X.columns).round(3)
''',
        twin="h31-leakage-precinct-target-encoding-ok",
        note="Precinct target encoding is computed from all respondents (test rows' own votes "
             "included, ~3 per precinct) before the split, leaking the test outcomes.",
        split="holdout31",
    ),
    Case(
        id="h31-leakage-precinct-target-encoding-ok",
        family=None,
        setup=_PRECINCT_SETUP,
        code='''from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

train, test = train_test_split(poll, test_size=0.3, random_state=8, stratify=poll["vote_dem"])
train, test = train.copy(), test.copy()

# precinct lean from training respondents only, shrunk toward the overall share
prior, k = train["vote_dem"].mean(), 5
agg = train.groupby("precinct")["vote_dem"].agg(["sum", "count"])
lean_tr = (agg["sum"] + k * prior) / (agg["count"] + k)
# leave-one-out inside train so a respondent's own vote is not in their feature
own = train["precinct"].map(agg["count"])
train["precinct_lean"] = ((train["precinct"].map(agg["sum"]) - train["vote_dem"] + k * prior)
                          / (own - 1 + k))
test["precinct_lean"] = test["precinct"].map(lean_tr).fillna(prior)

def design(df):
    return pd.get_dummies(df[["age", "educ", "union_hh", "precinct_lean"]],
                          columns=["educ"], drop_first=True, dtype=float)

X_tr, X_te = design(train), design(test)
vote_model = LogisticRegression(max_iter=1000).fit(X_tr, train["vote_dem"],
                                                   sample_weight=train["wt"])
p_te = vote_model.predict_proba(X_te)[:, 1]
y_te = test["vote_dem"]
print("holdout AUC (weighted):", round(roc_auc_score(y_te, p_te, sample_weight=test["wt"]), 3))
print("holdout accuracy      :", round(((p_te > 0.5) == y_te).mean(), 3))
pd.Series(vote_model.coef_[0], index=X_tr.columns).round(3)
''',
        twin="h31-leakage-precinct-target-encoding",
        note="Split first; precinct encoding is learned from training rows only (leave-one-out, "
             "shrunk) and mapped to the test set with a fallback to the training prior.",
        split="holdout31",
    ),
]
