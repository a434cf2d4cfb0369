from bench.critic_corpus import Case

SPLIT = "holdout28"

_CHURN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2811)
n = 3000
districts = [f"{a}{b}" for a in ["BS", "BA", "GL", "TA", "EX"] for b in range(1, 81)]
customers = pd.DataFrame({
    "account_id": np.arange(4_100_000, 4_100_000 + n),
    "postcode_district": rng.choice(districts, n),
    "tariff": rng.choice(["flat", "tou", "ev", "prepay"], n, p=[0.55, 0.2, 0.1, 0.15]),
    "tenure_months": rng.gamma(2.0, 18.0, n).round(),
    "annual_kwh": rng.lognormal(8.1, 0.45, n).round(),
    "complaints_12m": rng.poisson(0.3, n),
    "direct_debit": rng.binomial(1, 0.7, n),
})
lin = (-1.2 - 0.02 * customers["tenure_months"] + 0.6 * customers["complaints_12m"]
       - 0.7 * customers["direct_debit"] + 0.5 * (customers["tariff"] == "prepay"))
customers["churned"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
customers["log_kwh"] = np.log(customers["annual_kwh"])
'''

_CHURN_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

# postcode-level switching rate as a feature (area effects: door-to-door sales, local deals)
pc_rate = customers.groupby("postcode_district")["churned"].mean()
customers["pc_churn_rate"] = customers["postcode_district"].map(pc_rate)

feats = ["tenure_months", "log_kwh", "complaints_12m", "direct_debit", "pc_churn_rate"]
X = pd.get_dummies(customers[feats + ["tariff"]], columns=["tariff"], drop_first=True)
y = customers["churned"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=7)

clf = LogisticRegression(solver="newton-cholesky").fit(X_tr, y_tr)
auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
print(f"churn rate {y.mean():.1%} | test AUC {auc:.3f}")
pd.Series(clf.coef_[0], index=X.columns).round(3).sort_values()
'''

_CHURN_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import TargetEncoder

train, test = train_test_split(customers, test_size=0.25, stratify=customers["churned"],
                               random_state=7)

# postcode switching rate learned from training accounts only: cross-fitted (out-of-fold)
# on the training rows, and the full-training-set mapping applied to the test rows
te = TargetEncoder(target_type="binary", smooth="auto", cv=5, shuffle=True, random_state=7)
train = train.assign(pc_churn_rate=te.fit_transform(train[["postcode_district"]],
                                                    train["churned"]).ravel())
test = test.assign(pc_churn_rate=te.transform(test[["postcode_district"]]).ravel())

feats = ["tenure_months", "log_kwh", "complaints_12m", "direct_debit", "pc_churn_rate"]
X_tr = pd.get_dummies(train[feats + ["tariff"]], columns=["tariff"], drop_first=True)
X_te = pd.get_dummies(test[feats + ["tariff"]], columns=["tariff"], drop_first=True)
X_te = X_te.reindex(columns=X_tr.columns, fill_value=0)

clf = LogisticRegression(solver="newton-cholesky").fit(X_tr, train["churned"])
auc = roc_auc_score(test["churned"], clf.predict_proba(X_te)[:, 1])
print(f"churn rate {customers['churned'].mean():.1%} | test AUC {auc:.3f}")
pd.Series(clf.coef_[0], index=X_tr.columns).round(3).sort_values()
'''

_TX_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(90210)
n_units = 160
fleet = pd.DataFrame({
    "asset_id": [f"GT{n:04d}" for n in rng.choice(9000, n_units, replace=False)],
    "age_yrs": rng.uniform(5, 55, n_units).round(1),
    "rating_mva": rng.choice([15, 30, 45, 60, 90], n_units),
})
# vibration spectrum band energies + DGA gas ratios from the online monitors (log scale)
bands = [f"vib_{f}hz" for f in range(50, 50 + 10 * 300, 10)]
gases = [f"dga_{g}_{w}w" for g in ["h2", "ch4", "c2h2", "c2h4", "co"] for w in range(1, 61)]
sensor_feats = pd.DataFrame(rng.normal(0, 1, (n_units, len(bands) + len(gases))),
                            columns=bands + gases, index=fleet["asset_id"])
risk = -1.3 + 0.035 * (fleet["age_yrs"].values - 30) + 0.4 * sensor_feats["dga_c2h2_1w"].values
fleet["failed_12m"] = rng.binomial(1, 1 / (1 + np.exp(-risk)))
print(sensor_feats.shape, fleet["failed_12m"].mean().round(3))
'''

_TX_FLAWED = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = sensor_feats.values
y = fleet["failed_12m"].values

# 600 monitor channels is far too many for 160 units -- keep the 20 most informative
selector = SelectKBest(f_classif, k=20).fit(X, y)
top = sensor_feats.columns[selector.get_support()]
print("selected channels:", ", ".join(top[:8]), "...")
X_sel = selector.transform(X)

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
model = make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000))
auc = cross_val_score(model, X_sel, y, cv=cv, scoring="roc_auc")
print(f"failure-within-12m model, 5-fold AUC = {auc.mean():.3f} +/- {auc.std():.3f}")
'''

_TX_SOUND = '''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = sensor_feats.values
y = fleet["failed_12m"].values

# 600 monitor channels is far too many for 160 units -- keep 20, chosen inside each CV fold
model = make_pipeline(SelectKBest(f_classif, k=20), StandardScaler(),
                      LogisticRegression(C=0.5, max_iter=2000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
print(f"failure-within-12m model, 5-fold AUC = {auc.mean():.3f} +/- {auc.std():.3f}")

top = sensor_feats.columns[model.fit(X, y)[0].get_support()]
print("channels picked on the full fleet (final model):", ", ".join(top[:8]), "...")
'''

CASES: list[Case] = [
    Case(
        id="h28-leak-churn-postcode-target-encoding",
        family="leakage",
        setup=_CHURN_SETUP,
        code=_CHURN_FLAWED,
        twin="h28-leak-churn-postcode-target-encoding-sound",
        note="postcode churn rate (~7 accounts per district) is computed from all customers, "
             "test labels included, before the train/test split, inflating the test AUC",
        split=SPLIT,
    ),
    Case(
        id="h28-leak-churn-postcode-target-encoding-sound",
        family=None,
        setup=_CHURN_SETUP,
        code=_CHURN_SOUND,
        twin="h28-leak-churn-postcode-target-encoding",
        note="split first; postcode churn rate target-encoded out-of-fold on training accounts "
             "only and applied to test accounts",
        split=SPLIT,
    ),
    Case(
        id="h28-leak-transformer-selectkbest-before-cv",
        family="leakage",
        setup=_TX_SETUP,
        code=_TX_FLAWED,
        twin="h28-leak-transformer-selectkbest-before-cv-sound",
        note="SelectKBest picks 20 of 600 monitor channels using all 160 units' failure labels, "
             "then cross-validates on the selected channels: the CV AUC is optimistic",
        split=SPLIT,
    ),
    Case(
        id="h28-leak-transformer-selectkbest-before-cv-sound",
        family=None,
        setup=_TX_SETUP,
        code=_TX_SOUND,
        twin="h28-leak-transformer-selectkbest-before-cv",
        note="feature selection sits inside the pipeline, so each CV fold selects channels from "
             "its own training units only",
        split=SPLIT,
    ),
]
