from bench.critic_corpus import Case

_FEEDLOT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3703)
n = 900
calves = pd.DataFrame({
    "tag": [f"FL-{i:05d}" for i in range(n)],
    "arrival_wt": rng.normal(245, 28, n).round(),
    "transit_h": rng.gamma(3.0, 5.0, n).round(1),
    "sale_barn": rng.binomial(1, 0.55, n),
    "arrival_temp": rng.normal(39.4, 0.45, n).round(1),
    "preconditioned": rng.binomial(1, 0.35, n),
})
lin = (-1.4 - 0.012 * (calves.arrival_wt - 245) + 0.03 * (calves.transit_h - 15)
       + 0.7 * calves.sale_barn + 0.8 * (calves.arrival_temp - 39.4) - 0.6 * calves.preconditioned)
calves["brd_45d"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# antimicrobial treatments recorded in the chute-side system over the first 45 days on feed
tx = np.where(calves.brd_45d == 1, rng.integers(1, 4, n), rng.binomial(1, 0.08, n))
tx[(calves.brd_45d == 1) & (rng.random(n) < 0.07)] = 0
calves["abx_tx_45d"] = tx
'''

_CAT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3704)
n = 1100
cats = pd.DataFrame({
    "patient_id": np.arange(880001, 880001 + n),
    "age_y": rng.uniform(9, 17, n).round(1),
    "breed": rng.choice(["DSH", "DLH", "Persian", "Siamese", "Maine Coon"], n,
                        p=[0.62, 0.14, 0.08, 0.08, 0.08]),
    "weight_kg": rng.normal(4.4, 0.9, n).clip(2.2, None).round(2),
    "creat_umol": rng.lognormal(np.log(130), 0.22, n).round(),
    "usg": rng.normal(1.035, 0.010, n).clip(1.008, 1.070).round(3),
    "sbp_mmhg": rng.normal(140, 18, n).round(),
    "indoor_only": rng.binomial(1, 0.6, n),
})
lin = (-2.2 + 0.35 * (cats.age_y - 13) + 0.03 * (cats.creat_umol - 130)
       - 60 * (cats.usg - 1.035) + 0.01 * (cats.sbp_mmhg - 140)
       + 0.5 * (cats.breed == "Persian"))
cats["ckd_2y"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# pulled from the practice-management system at the time of the records export
cats["renal_diet_rx"] = np.where(cats.ckd_2y == 1, rng.binomial(1, 0.8, n),
                                 rng.binomial(1, 0.04, n))
cats["n_rechecks"] = np.where(cats.ckd_2y == 1, rng.poisson(3.0, n), rng.poisson(0.6, n))
'''

CASES = [
    Case(
        id="h37-tl-feedlot-brd-abx",
        family="target_leakage",
        twin="h37-tl-feedlot-brd-arrival",
        setup=_FEEDLOT_SETUP,
        code='''import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = calves.sample(frac=0.7, random_state=20)
test = calves.drop(train.index)

brd_model = smf.logit(
    "brd_45d ~ arrival_wt + transit_h + sale_barn + arrival_temp + preconditioned"
    " + abx_tx_45d", data=train).fit(disp=0)
print(brd_model.summary2().tables[1][["Coef.", "P>|z|"]].round(3))

test_auc = roc_auc_score(test.brd_45d, brd_model.predict(test))
print(f"\\nBRD risk score at arrival, held-out calves: AUC = {test_auc:.3f}, "
      f"n = {len(test)} calves ({test.brd_45d.mean():.1%} BRD)")
''',
        note="abx_tx_45d counts antimicrobial treatments given during the 45 days, mostly "
             "because the calf got BRD, so the 'arrival' risk score uses the outcome itself.",
        split="holdout37",
    ),
    Case(
        id="h37-tl-feedlot-brd-arrival",
        family=None,
        twin="h37-tl-feedlot-brd-abx",
        setup=_FEEDLOT_SETUP,
        code='''import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = calves.sample(frac=0.7, random_state=20)
test = calves.drop(train.index)

# only what is known when the calf comes off the truck; treatment records come later
brd_model = smf.logit(
    "brd_45d ~ arrival_wt + transit_h + sale_barn + arrival_temp + preconditioned",
    data=train).fit(disp=0)
print(brd_model.summary2().tables[1][["Coef.", "P>|z|"]].round(3))

test_auc = roc_auc_score(test.brd_45d, brd_model.predict(test))
print(f"\\nBRD risk score at arrival, held-out calves: AUC = {test_auc:.3f}, "
      f"n = {len(test)} calves ({test.brd_45d.mean():.1%} BRD)")
''',
        note="Arrival-time predictors only, fit on a training sample and scored once on the "
             "held-out calves.",
        split="holdout37",
    ),
    Case(
        id="h37-tl-cat-ckd-renal-diet",
        family="target_leakage",
        twin="h37-tl-cat-ckd-baseline",
        setup=_CAT_SETUP,
        code='''from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder
from sklearn.pipeline import Pipeline
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import classification_report, roc_auc_score

num_cols = ["age_y", "weight_kg", "creat_umol", "usg", "sbp_mmhg", "indoor_only",
            "renal_diet_rx", "n_rechecks"]
cat_cols = ["breed"]
X, y = cats[num_cols + cat_cols], cats["ckd_2y"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=7)

ckd_pipe = Pipeline([
    ("prep", ColumnTransformer([("breed", OneHotEncoder(handle_unknown="ignore"), cat_cols)],
                               remainder="passthrough")),
    ("gbm", GradientBoostingClassifier(n_estimators=150, max_depth=2, random_state=7)),
])
ckd_pipe.fit(X_tr, y_tr)
print(classification_report(y_te, ckd_pipe.predict(X_te), target_names=["no CKD", "CKD"]))
print(f"AUC for CKD within 2 y of senior visit: "
      f"{roc_auc_score(y_te, ckd_pipe.predict_proba(X_te)[:, 1]):.3f}")
''',
        note="renal_diet_rx and n_rechecks are recorded after (and because of) the CKD "
             "diagnosis, so the senior-visit model is scored with post-outcome information.",
        split="holdout37",
    ),
    Case(
        id="h37-tl-cat-ckd-baseline",
        family=None,
        twin="h37-tl-cat-ckd-renal-diet",
        setup=_CAT_SETUP,
        code='''from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder
from sklearn.pipeline import Pipeline
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import classification_report, roc_auc_score

# senior-visit measurements only; diet prescriptions and recheck counts happen after diagnosis
num_cols = ["age_y", "weight_kg", "creat_umol", "usg", "sbp_mmhg", "indoor_only"]
cat_cols = ["breed"]
X, y = cats[num_cols + cat_cols], cats["ckd_2y"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=7)

ckd_pipe = Pipeline([
    ("prep", ColumnTransformer([("breed", OneHotEncoder(handle_unknown="ignore"), cat_cols)],
                               remainder="passthrough")),
    ("gbm", GradientBoostingClassifier(n_estimators=150, max_depth=2, random_state=7)),
])
ckd_pipe.fit(X_tr, y_tr)
print(classification_report(y_te, ckd_pipe.predict(X_te), target_names=["no CKD", "CKD"]))
print(f"AUC for CKD within 2 y of senior visit: "
      f"{roc_auc_score(y_te, ckd_pipe.predict_proba(X_te)[:, 1]):.3f}")
''',
        note="Predictors are all measured at the senior wellness visit, before the outcome "
             "window; encoding is inside the pipeline and the test set is scored once.",
        split="holdout37",
    ),
]
