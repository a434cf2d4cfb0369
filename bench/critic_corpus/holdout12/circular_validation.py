from bench.critic_corpus import Case

ORGAN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(408)
n = 220
organs = pd.DataFrame({
    "stops": rng.integers(6, 80, n),
    "manuals": rng.integers(1, 5, n),
    "age_years": rng.integers(40, 400, n),
    "pipes_replaced_pct": rng.beta(2, 5, n) * 100,
    "tracker_action": rng.integers(0, 2, n),
})
organs["restoration_keur"] = (
    3.5 * organs.stops + 20 * organs.manuals + 0.15 * organs.age_years
    + 1.2 * organs.pipes_replaced_pct + 25 * organs.tracker_action
    + rng.normal(0, 45, n)
)
X = organs.drop(columns="restoration_keur")
y = organs["restoration_keur"]
'''

ORGAN_FLAWED = '''
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=8)

maes = {}
for k in range(1, 31):
    knn = make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=k, weights="distance"))
    knn.fit(X_tr, y_tr)
    maes[k] = mean_absolute_error(y_te, knn.predict(X_te))

best_k = min(maes, key=maes.get)
print(f"neighbours: {best_k}")
print(f"expected restoration-cost error: {maes[best_k]:.1f} kEUR (MAE)")
'''

ORGAN_SOUND = '''
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import GridSearchCV, KFold, train_test_split
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=8)

knn = make_pipeline(StandardScaler(), KNeighborsRegressor(weights="distance"))
search = GridSearchCV(
    knn, {"kneighborsregressor__n_neighbors": list(range(1, 31))},
    cv=KFold(5, shuffle=True, random_state=8), scoring="neg_mean_absolute_error",
).fit(X_tr, y_tr)

best_k = search.best_params_["kneighborsregressor__n_neighbors"]
print(f"neighbours: {best_k}")
mae = mean_absolute_error(y_te, search.predict(X_te))
print(f"expected restoration-cost error: {mae:.1f} kEUR (MAE)")
'''

LITTER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(55)
n = 700
beaches = pd.DataFrame({
    "visitors_k": rng.gamma(2, 3, n),
    "river_mouth_km": rng.exponential(5, n),
    "onshore_wind_days": rng.integers(0, 20, n),
    "bins_per_km": rng.poisson(4, n),
    "last_clean_days": rng.integers(1, 60, n),
})
z = (0.15 * beaches.visitors_k - 0.2 * beaches.river_mouth_km + 0.12 * beaches.onshore_wind_days
     - 0.2 * beaches.bins_per_km + 0.03 * beaches.last_clean_days - 0.6)
beaches["needs_crew"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
'''

LITTER_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split

X = beaches.drop(columns="needs_crew")
y = beaches["needs_crew"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=21, stratify=y)

clf = LogisticRegression(max_iter=2000).fit(X_tr, y_tr)
p_te = clf.predict_proba(X_te)[:, 1]

grid = np.round(np.arange(0.05, 0.95, 0.01), 2)
f1_by_cut = {t: f1_score(y_te, p_te >= t) for t in grid}
cut = max(f1_by_cut, key=f1_by_cut.get)
print(f"dispatch threshold: {cut:.2f}")
print(f"F1 for crew dispatch: {f1_by_cut[cut]:.3f}")
'''

LITTER_SOUND = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split

X = beaches.drop(columns="needs_crew")
y = beaches["needs_crew"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=21, stratify=y)
X_fit, X_val, y_fit, y_val = train_test_split(
    X_tr, y_tr, test_size=0.3, random_state=21, stratify=y_tr
)

clf = LogisticRegression(max_iter=2000).fit(X_fit, y_fit)
p_val = clf.predict_proba(X_val)[:, 1]

grid = np.round(np.arange(0.05, 0.95, 0.01), 2)
f1_by_cut = {t: f1_score(y_val, p_val >= t) for t in grid}
cut = max(f1_by_cut, key=f1_by_cut.get)
p_te = clf.predict_proba(X_te)[:, 1]
print(f"dispatch threshold: {cut:.2f}")
print(f"F1 for crew dispatch: {f1_score(y_te, p_te >= cut):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="circular_validation-h12-pipe-organ-knn-k",
        family="circular_validation",
        code=ORGAN_FLAWED,
        setup=ORGAN_SETUP,
        twin="circular_validation-h12-pipe-organ-knn-k-sound",
        note="k chosen as the value minimising test MAE, and that same minimum reported",
        split="holdout12",
    ),
    Case(
        id="circular_validation-h12-pipe-organ-knn-k-sound",
        family=None,
        code=ORGAN_SOUND,
        setup=ORGAN_SETUP,
        twin="circular_validation-h12-pipe-organ-knn-k",
        note="k tuned by CV on the training split; test MAE computed once for the chosen k",
        split="holdout12",
    ),
    Case(
        id="circular_validation-h12-beach-litter-threshold",
        family="circular_validation",
        code=LITTER_FLAWED,
        setup=LITTER_SETUP,
        twin="circular_validation-h12-beach-litter-threshold-sound",
        note="probability cut-off picked to maximise F1 on the test rows, then that F1 reported",
        split="holdout12",
    ),
    Case(
        id="circular_validation-h12-beach-litter-threshold-sound",
        family=None,
        code=LITTER_SOUND,
        setup=LITTER_SETUP,
        twin="circular_validation-h12-beach-litter-threshold",
        note="cut-off chosen on a validation slice of the training data, F1 reported on test",
        split="holdout12",
    ),
]
