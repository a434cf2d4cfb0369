from bench.critic_corpus import Case

_ABSENCE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290401)
n = 420
absence = pd.DataFrame({
    "age": rng.integers(19, 64, n),
    "tenure_yrs": np.round(rng.gamma(2.0, 2.5, n), 1),
    "shift_pattern_nights": rng.integers(0, 2, n),
    "commute_mins": np.round(rng.gamma(3, 12, n)),
    "overtime_hrs_q": np.round(rng.gamma(1.6, 10, n), 1),
    "engagement_idx": np.round(np.clip(rng.normal(3.5, 0.7, n), 1, 5), 2),
    "team_size": rng.integers(4, 30, n),
})
# plus a block of survey items / pulse questions that mostly carry no signal
for k in range(1, 19):
    absence[f"pulse_q{k:02d}"] = rng.integers(1, 6, n)
absence["sick_days_12m"] = np.round(np.clip(
    5 + 2.2 * absence.shift_pattern_nights - 1.4 * (absence.engagement_idx - 3.5)
    + 0.04 * absence.overtime_hrs_q + rng.normal(0, 3.2, n), 0, None), 1)
'''

_PROMO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290402)
n = 700
staff = pd.DataFrame({
    "tenure_yrs": np.round(rng.gamma(2.0, 2.6, n), 1),
    "last_rating": rng.choice([1, 2, 3, 4, 5], n, p=[0.05, 0.15, 0.45, 0.25, 0.10]),
    "rating_prev": rng.choice([1, 2, 3, 4, 5], n, p=[0.05, 0.15, 0.45, 0.25, 0.10]),
    "training_hrs": np.round(rng.gamma(2.0, 10, n), 1),
    "projects_led": rng.poisson(1.2, n),
    "months_in_grade": rng.integers(3, 80, n),
    "pay_ratio": np.round(rng.normal(1.0, 0.09, n), 3),
    "mentor_assigned": rng.integers(0, 2, n),
    "span_of_control": rng.poisson(2, n),
})
lin = (-1.8 + 1.1 * (staff.last_rating - 3) + 0.5 * (staff.projects_led - 1.2)
       + 0.03 * (staff.months_in_grade - 40) + 0.4 * (staff.rating_prev - 3))
staff["promoted_next_cycle"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h29-circ-absence-tuned-on-test",
        family="circular_validation",
        setup=_ABSENCE_SETUP,
        code='''
from sklearn.model_selection import train_test_split
from sklearn.linear_model import Ridge, Lasso
from sklearn.tree import DecisionTreeRegressor
from sklearn.metrics import r2_score, mean_absolute_error

X = absence.drop(columns="sick_days_12m")
y = absence["sick_days_12m"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=8)

candidates = {}
for a in [0.01, 0.1, 1, 10, 100, 1000]:
    candidates[f"ridge_a{a}"] = Ridge(alpha=a)
for a in [0.01, 0.05, 0.1, 0.3, 0.6, 1.0]:
    candidates[f"lasso_a{a}"] = Lasso(alpha=a, max_iter=5000)
for d in [2, 3, 4, 6]:
    candidates[f"tree_depth{d}"] = DecisionTreeRegressor(max_depth=d, min_samples_leaf=10,
                                                         random_state=0)

results = []
for name, mdl in candidates.items():
    mdl.fit(X_train, y_train)
    pred = mdl.predict(X_test)
    results.append((name, r2_score(y_test, pred), mean_absolute_error(y_test, pred)))

res = pd.DataFrame(results, columns=["model", "test_r2", "test_mae"])
res = res.sort_values("test_r2", ascending=False).reset_index(drop=True)
best = res.iloc[0]
print(f"Best absence model: {best.model} -> test R2 = {best.test_r2:.3f}, "
      f"MAE = {best.test_mae:.2f} sick days")
res.head(5).round(3)
''',
        twin="h29-circ-absence-tuned-in-cv",
        note="Sixteen model/hyperparameter configurations are compared on the test set and the "
             "winner's test R2 is reported as its expected performance.",
        split="holdout29",
    ),
    Case(
        id="h29-circ-absence-tuned-in-cv",
        family=None,
        setup=_ABSENCE_SETUP,
        code='''
from sklearn.model_selection import train_test_split, KFold, cross_val_score
from sklearn.linear_model import Ridge, Lasso
from sklearn.tree import DecisionTreeRegressor
from sklearn.metrics import r2_score, mean_absolute_error

X = absence.drop(columns="sick_days_12m")
y = absence["sick_days_12m"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=8)

candidates = {}
for a in [0.01, 0.1, 1, 10, 100, 1000]:
    candidates[f"ridge_a{a}"] = Ridge(alpha=a)
for a in [0.01, 0.05, 0.1, 0.3, 0.6, 1.0]:
    candidates[f"lasso_a{a}"] = Lasso(alpha=a, max_iter=5000)
for d in [2, 3, 4, 6]:
    candidates[f"tree_depth{d}"] = DecisionTreeRegressor(max_depth=d, min_samples_leaf=10,
                                                         random_state=0)

# choose the configuration by 5-fold CV inside the training set only
kf = KFold(n_splits=5, shuffle=True, random_state=8)
results = []
for name, mdl in candidates.items():
    cv_r2 = cross_val_score(mdl, X_train, y_train, cv=kf, scoring="r2")
    results.append((name, cv_r2.mean(), cv_r2.std()))

res = pd.DataFrame(results, columns=["model", "cv_r2", "cv_sd"])
res = res.sort_values("cv_r2", ascending=False).reset_index(drop=True)
best_name = res.model.iloc[0]

# the test set is touched once, for the chosen model
final = candidates[best_name].fit(X_train, y_train)
pred = final.predict(X_test)
print(f"Chosen by CV: {best_name}; held-out test R2 = {r2_score(y_test, pred):.3f}, "
      f"MAE = {mean_absolute_error(y_test, pred):.2f} sick days")
res.head(5).round(3)
''',
        twin="h29-circ-absence-tuned-on-test",
        note="Model selection by cross-validation on the training set; the untouched test set "
             "is used once for the chosen model.",
        split="holdout29",
    ),
    Case(
        id="h29-circ-promotion-insample-report",
        family="circular_validation",
        setup=_PROMO_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import classification_report, accuracy_score

features = [c for c in staff.columns if c != "promoted_next_cycle"]
gb = GradientBoostingClassifier(n_estimators=60, max_depth=3, learning_rate=0.15,
                                random_state=0)
gb.fit(staff[features], staff.promoted_next_cycle)

pred = gb.predict(staff[features])
print(f"promotion-readiness model accuracy: "
      f"{accuracy_score(staff.promoted_next_cycle, pred):.1%}")
print(classification_report(staff.promoted_next_cycle, pred,
                            target_names=["not promoted", "promoted"], digits=3))
print("-> good enough to shortlist promotion candidates for the talent review")
''',
        twin="h29-circ-promotion-cross-validated",
        note="The boosted model is scored on the same employees it was fit on and that "
             "training accuracy is presented as how well it will shortlist candidates.",
        split="holdout29",
    ),
    Case(
        id="h29-circ-promotion-cross-validated",
        family=None,
        setup=_PROMO_SETUP,
        code='''
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import classification_report, accuracy_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict

features = [c for c in staff.columns if c != "promoted_next_cycle"]
gb = GradientBoostingClassifier(n_estimators=60, max_depth=3, learning_rate=0.15,
                                random_state=0)

# out-of-fold predictions: every employee is scored by a model that never saw them
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
pred = cross_val_predict(gb, staff[features], staff.promoted_next_cycle, cv=cv)
print(f"promotion-readiness model, 5-fold CV accuracy: "
      f"{accuracy_score(staff.promoted_next_cycle, pred):.1%} "
      f"(no-skill baseline {1 - staff.promoted_next_cycle.mean():.1%})")
print(classification_report(staff.promoted_next_cycle, pred,
                            target_names=["not promoted", "promoted"], digits=3))
''',
        twin="h29-circ-promotion-insample-report",
        note="Accuracy and the classification report come from out-of-fold predictions and are "
             "compared with the majority-class baseline.",
        split="holdout29",
    ),
]
