from bench.critic_corpus import Case

_ED_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 164
sepsis = rng.binomial(1, 0.34, n)
ed = pd.DataFrame({
    "study_no": [f"SEP-{i:03d}" for i in range(1, n + 1)],
    "arrival": pd.Timestamp("2022-10-03 00:00")
    + pd.to_timedelta(np.sort(rng.integers(0, 200 * 24 * 60, n)), unit="min"),
    "age": rng.normal(67, 17, n).round().clip(18, 99),
    "sepsis3": sepsis,
})
ed["pct_ng_ml"] = np.exp(rng.normal(-1.2 + 1.1 * sepsis, 1.3)).round(2)
ed["crp_mg_l"] = np.exp(rng.normal(3.6 + 0.6 * sepsis, 0.9)).round(0)
ed["lactate_mmol_l"] = np.exp(rng.normal(0.5 + 0.25 * sepsis, 0.45)).round(1)
ed["il6_pg_ml"] = np.exp(rng.normal(3.0 + 0.8 * sepsis, 1.4)).round(0)
ed["presepsin_pg_ml"] = np.exp(rng.normal(6.0 + 0.45 * sepsis, 0.8)).round(0)
ed["wbc_10e9_l"] = np.exp(rng.normal(2.35 + 0.08 * sepsis, 0.4)).round(1)
ed["nlr"] = np.exp(rng.normal(1.9 + 0.3 * sepsis, 0.8)).round(1)
'''

_DELIRIUM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6061)
n = 820
geri = pd.DataFrame({
    "admission_id": np.arange(880001, 880001 + n),
    "age": rng.normal(82, 6, n).round().clip(70, 101),
    "female": rng.binomial(1, 0.58, n),
    "dementia": rng.binomial(1, 0.21, n),
    "cfs_score": rng.integers(2, 9, n),
    "hearing_impaired": rng.binomial(1, 0.3, n),
    "visual_impaired": rng.binomial(1, 0.22, n),
    "sodium": rng.normal(137, 4.5, n).round(),
    "urea_mmol_l": rng.lognormal(2.0, 0.45, n).round(1),
    "crp_mg_l": rng.lognormal(2.8, 1.1, n).round(),
    "n_anticholinergic": rng.poisson(0.7, n),
    "benzo_or_opioid": rng.binomial(1, 0.25, n),
    "emergency_admission": rng.binomial(1, 0.78, n),
    "hip_fracture": rng.binomial(1, 0.09, n),
    "uti_on_admission": rng.binomial(1, 0.14, n),
    "amts_score": rng.integers(3, 11, n),
})
lp = (-2.2 + 0.04 * (geri.age - 82) + 1.2 * geri.dementia + 0.15 * (geri.cfs_score - 5)
      + 0.25 * geri.n_anticholinergic + 0.5 * geri.hip_fracture
      - 0.25 * (geri.amts_score - 7) + 0.3 * np.log(geri.urea_mmol_l / 7.4))
geri["delirium_4at"] = rng.binomial(1, 1 / (1 + np.exp(-lp)))
'''

CASES: list[Case] = [
    Case(
        id="h23-circ-biomarker-youden-same-sample",
        family="circular_validation",
        split="holdout23",
        twin="h23-circ-biomarker-youden-same-sample-ok",
        setup=_ED_SETUP,
        note="Best of seven biomarkers and its Youden-optimal cutoff are chosen on the same 164 "
             "patients whose sensitivity/specificity are then reported as test accuracy.",
        code='''
from sklearn.metrics import roc_auc_score, roc_curve

markers = ["pct_ng_ml", "crp_mg_l", "lactate_mmol_l", "il6_pg_ml", "presepsin_pg_ml",
           "wbc_10e9_l", "nlr"]
y = ed["sepsis3"]


def youden(y_true, score):
    fpr, tpr, thr = roc_curve(y_true, score)
    j = np.argmax(tpr - fpr)
    return thr[j], tpr[j], 1 - fpr[j]


rows = []
for m in markers:
    cut, sens, spec = youden(y, ed[m])
    rows.append({"marker": m, "AUC": roc_auc_score(y, ed[m]), "cutoff": cut,
                 "sensitivity": sens, "specificity": spec})
perf = pd.DataFrame(rows).set_index("marker").sort_values("AUC", ascending=False)

best = perf.index[0]
b = perf.loc[best]
print(f"Sepsis-3 in {y.sum()}/{len(y)} ED patients with suspected infection")
print(f"Best marker: {best} >= {b.cutoff:g}  ->  sensitivity {b.sensitivity:.0%}, "
      f"specificity {b.specificity:.0%}, AUC {b.AUC:.2f}")
perf.round(2)
''',
    ),
    Case(
        id="h23-circ-biomarker-youden-same-sample-ok",
        family=None,
        split="holdout23",
        twin="h23-circ-biomarker-youden-same-sample",
        setup=_ED_SETUP,
        note="Marker and cutoff are chosen in a derivation subset; accuracy is reported only in "
             "the separate validation subset, with exact CIs.",
        code='''
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import train_test_split
from statsmodels.stats.proportion import proportion_confint

markers = ["pct_ng_ml", "crp_mg_l", "lactate_mmol_l", "il6_pg_ml", "presepsin_pg_ml",
           "wbc_10e9_l", "nlr"]
deriv, valid = train_test_split(ed, test_size=0.4, stratify=ed["sepsis3"], random_state=19)


def youden(y_true, score):
    fpr, tpr, thr = roc_curve(y_true, score)
    j = np.argmax(tpr - fpr)
    return thr[j], tpr[j], 1 - fpr[j]


rows = []
for m in markers:
    cut, sens, spec = youden(deriv["sepsis3"], deriv[m])
    rows.append({"marker": m, "AUC_deriv": roc_auc_score(deriv["sepsis3"], deriv[m]),
                 "cutoff": cut})
perf = pd.DataFrame(rows).set_index("marker").sort_values("AUC_deriv", ascending=False)
best = perf.index[0]
cut = perf.loc[best, "cutoff"]

# the rule fixed in the derivation set is applied once to the validation patients
pos = valid[best] >= cut
tp = int((pos & (valid.sepsis3 == 1)).sum())
tn = int((~pos & (valid.sepsis3 == 0)).sum())
n_d, n_nd = int(valid.sepsis3.sum()), int((valid.sepsis3 == 0).sum())
se_ci = proportion_confint(tp, n_d, method="beta")
sp_ci = proportion_confint(tn, n_nd, method="beta")
print(f"Derivation n = {len(deriv)}, validation n = {len(valid)} ({n_d} with sepsis)")
print(f"Rule from derivation: {best} >= {cut:g}")
print(f"Validation: sensitivity {tp / n_d:.0%} ({se_ci[0]:.0%}-{se_ci[1]:.0%}), "
      f"specificity {tn / n_nd:.0%} ({sp_ci[0]:.0%}-{sp_ci[1]:.0%}), "
      f"AUC {roc_auc_score(valid.sepsis3, valid[best]):.2f}")
perf.round(2)
''',
    ),
    Case(
        id="h23-circ-delirium-model-picked-on-test",
        family="circular_validation",
        split="holdout23",
        twin="h23-circ-delirium-model-picked-on-test-ok",
        setup=_DELIRIUM_SETUP,
        note="Seven candidate models/hyperparameters are compared on the test set and the "
             "winner's test AUC is reported as its expected performance.",
        code='''
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

predictors = [c for c in geri.columns if c not in ("admission_id", "delirium_4at")]
X_train, X_test, y_train, y_test = train_test_split(
    geri[predictors], geri["delirium_4at"], test_size=0.2, stratify=geri["delirium_4at"],
    random_state=8)

candidates = {f"logistic C={c}": make_pipeline(StandardScaler(),
                                               LogisticRegression(C=c, max_iter=1000))
              for c in (0.01, 0.1, 1.0)}
for depth in (4, None):
    candidates[f"random forest depth={depth}"] = RandomForestClassifier(
        n_estimators=80, max_depth=depth, random_state=8)
for lr in (0.05, 0.2):
    candidates[f"GBM lr={lr}"] = GradientBoostingClassifier(
        n_estimators=60, learning_rate=lr, max_depth=2, random_state=8)

test_auc = {}
for name, model in candidates.items():
    model.fit(X_train, y_train)
    test_auc[name] = roc_auc_score(y_test, model.predict_proba(X_test)[:, 1])

ranking = pd.Series(test_auc, name="test AUC").sort_values(ascending=False)
print(f"Delirium (4AT >= 4): {y_train.sum() + y_test.sum()} of {len(geri)} admissions")
print(f"Final model: {ranking.index[0]}, test AUC = {ranking.iloc[0]:.3f} "
      f"(n = {len(y_test)})")
ranking.round(3)
''',
    ),
    Case(
        id="h23-circ-delirium-model-picked-on-test-ok",
        family=None,
        split="holdout23",
        twin="h23-circ-delirium-model-picked-on-test",
        setup=_DELIRIUM_SETUP,
        note="Candidates are compared by cross-validation within the training set; only the "
             "chosen model is scored once on the untouched test set.",
        code='''
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_score, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

predictors = [c for c in geri.columns if c not in ("admission_id", "delirium_4at")]
X_train, X_test, y_train, y_test = train_test_split(
    geri[predictors], geri["delirium_4at"], test_size=0.2, stratify=geri["delirium_4at"],
    random_state=8)

candidates = {f"logistic C={c}": make_pipeline(StandardScaler(),
                                               LogisticRegression(C=c, max_iter=1000))
              for c in (0.01, 0.1, 1.0)}
for depth in (4, None):
    candidates[f"random forest depth={depth}"] = RandomForestClassifier(
        n_estimators=80, max_depth=depth, random_state=8)
for lr in (0.05, 0.2):
    candidates[f"GBM lr={lr}"] = GradientBoostingClassifier(
        n_estimators=60, learning_rate=lr, max_depth=2, random_state=8)

cv = StratifiedKFold(n_splits=4, shuffle=True, random_state=8)
cv_auc = {name: cross_val_score(m, X_train, y_train, cv=cv, scoring="roc_auc").mean()
          for name, m in candidates.items()}
ranking = pd.Series(cv_auc, name="CV AUC (training)").sort_values(ascending=False)

final = candidates[ranking.index[0]].fit(X_train, y_train)
auc = roc_auc_score(y_test, final.predict_proba(X_test)[:, 1])
print(f"Delirium (4AT >= 4): {y_train.sum() + y_test.sum()} of {len(geri)} admissions")
print(f"Final model: {ranking.index[0]}, test AUC = {auc:.3f} (n = {len(y_test)}, "
      "scored once)")
ranking.round(3)
''',
    ),
]
