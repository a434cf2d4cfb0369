from bench.critic_corpus import Case

_WINE = '''
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split, GridSearchCV, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import accuracy_score

rng = np.random.default_rng(33)
n = 640
alc = np.round(rng.normal(10.4, 1.05, n), 1)
va = np.round(np.abs(rng.normal(0.53, 0.18, n)), 3)
sul = np.round(rng.gamma(9, 0.073, n), 2)
ca = np.round(np.clip(rng.normal(0.27, 0.19, n), 0, 1), 2)
ph = np.round(rng.normal(3.31, 0.15, n), 2)
rs = np.round(rng.lognormal(0.8, 0.45, n), 1)
chl = np.round(rng.lognormal(-2.5, 0.3, n), 3)
dens = np.round(0.9967 - 0.0009 * (alc - 10.4) + rng.normal(0, 0.0015, n), 5)
z = 0.9 * (alc - 10.4) - 3.0 * (va - 0.53) + 1.2 * (sul - 0.65) + rng.normal(0, 0.8, n)
quality = np.clip(np.round(5.6 + 0.55 * z), 3, 8).astype(int)
wine = pd.DataFrame({"fixed_acidity": np.round(rng.normal(8.3, 1.7, n), 1),
                     "volatile_acidity": va, "citric_acid": ca, "residual_sugar": rs,
                     "chlorides": chl, "density": dens, "pH": ph, "sulphates": sul,
                     "alcohol": alc, "quality": quality})
'''

_CARS = '''
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import KFold, cross_val_predict
from sklearn.metrics import r2_score, mean_absolute_error

rng = np.random.default_rng(5)
n = 900
brand = rng.choice(["vw", "bmw", "ford", "audi", "toyota", "skoda", "merc"], n)
year = rng.integers(2006, 2021, n)
km = np.round(np.clip(rng.normal(16000, 6000, n), 2000, None) * (2021 - year), -2)
hp = rng.choice([75, 90, 110, 150, 190, 245], n, p=[.15, .25, .25, .2, .1, .05])
fuel = rng.choice(["petrol", "diesel", "hybrid"], n, p=[.5, .42, .08])
prem = pd.Series(brand).map({"bmw": .25, "audi": .22, "merc": .3, "vw": .05}).fillna(0).values
logp = (9.9 + 0.085 * (year - 2014) - 0.0000022 * km + 0.0042 * (hp - 110) + prem
        + 0.1 * (fuel == "hybrid") + rng.normal(0, 0.22, n))
cars = pd.DataFrame({"brand": brand, "year": year, "mileage_km": km, "power_hp": hp,
                     "fuel": fuel, "price_eur": np.round(np.exp(logp), -1)})
'''

CASES: list[Case] = [
    Case(
        id="h15-circular-wine-knn-k-on-test",
        family="circular_validation",
        setup=_WINE,
        code='''wine["good"] = (wine["quality"] >= 7).astype(int)
X, y = wine.drop(columns=["quality", "good"]), wine["good"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=7)

accs = {}
for k in range(1, 40, 2):
    m = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=k)).fit(X_tr, y_tr)
    accs[k] = accuracy_score(y_te, m.predict(X_te))

best_k = max(accs, key=accs.get)
print(f"baseline (always 0): {1 - y_te.mean():.3f}")
print(f"best k = {best_k}, test accuracy = {accs[best_k]:.3f}")
pd.Series(accs).sort_values(ascending=False).head(5).round(3)
''',
        twin="h15-circular-wine-knn-k-on-test-ok",
        note="k is chosen as the value with the best test accuracy out of 20, and that "
             "same test accuracy is reported as the model's performance.",
        split="holdout15",
    ),
    Case(
        id="h15-circular-wine-knn-k-on-test-ok",
        family=None,
        setup=_WINE,
        code='''wine["good"] = (wine["quality"] >= 7).astype(int)
X, y = wine.drop(columns=["quality", "good"]), wine["good"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=7)

pipe = make_pipeline(StandardScaler(), KNeighborsClassifier())
gs = GridSearchCV(pipe, {"kneighborsclassifier__n_neighbors": list(range(1, 40, 2))},
                  cv=StratifiedKFold(5, shuffle=True, random_state=7), scoring="accuracy")
gs.fit(X_tr, y_tr)

best_k = gs.best_params_["kneighborsclassifier__n_neighbors"]
print(f"baseline (always 0): {1 - y_te.mean():.3f}")
print(f"best k = {best_k} (CV acc {gs.best_score_:.3f}), "
      f"test accuracy = {accuracy_score(y_te, gs.predict(X_te)):.3f}")
pd.DataFrame(gs.cv_results_).nsmallest(5, "rank_test_score")[
    ["param_kneighborsclassifier__n_neighbors", "mean_test_score", "std_test_score"]].round(3)
''',
        twin="h15-circular-wine-knn-k-on-test",
        note="k is tuned by cross-validation on the training set only; the untouched test "
             "set is scored once for the reported accuracy.",
        split="holdout15",
    ),
    Case(
        id="h15-circular-cars-rf-train-fit-metrics",
        family="circular_validation",
        setup=_CARS,
        code='''X = pd.get_dummies(cars.drop(columns="price_eur"), columns=["brand", "fuel"],
                   dtype=int)
y = cars["price_eur"]

rf = RandomForestRegressor(n_estimators=100, min_samples_leaf=2, random_state=0)
rf.fit(X, y)
pred = rf.predict(X)

print(f"R2  : {r2_score(y, pred):.3f}")
print(f"MAE : {mean_absolute_error(y, pred):,.0f} EUR")
print(f"-> the model should price a new listing to within ~{mean_absolute_error(y, pred):,.0f} EUR")
(pd.Series(rf.feature_importances_, index=X.columns)
   .sort_values(ascending=False).head(6).round(3))
''',
        twin="h15-circular-cars-rf-train-fit-metrics-ok",
        note="R2 and MAE are computed on the same rows the random forest was fitted to, "
             "then quoted as the error for new listings.",
        split="holdout15",
    ),
    Case(
        id="h15-circular-cars-rf-train-fit-metrics-ok",
        family=None,
        setup=_CARS,
        code='''X = pd.get_dummies(cars.drop(columns="price_eur"), columns=["brand", "fuel"],
                   dtype=int)
y = cars["price_eur"]

rf = RandomForestRegressor(n_estimators=100, min_samples_leaf=2, random_state=0)
pred = cross_val_predict(rf, X, y, cv=KFold(5, shuffle=True, random_state=0))

print(f"R2  (5-fold, out-of-fold): {r2_score(y, pred):.3f}")
print(f"MAE (5-fold, out-of-fold): {mean_absolute_error(y, pred):,.0f} EUR")
rf.fit(X, y)
(pd.Series(rf.feature_importances_, index=X.columns)
   .sort_values(ascending=False).head(6).round(3))
''',
        twin="h15-circular-cars-rf-train-fit-metrics",
        note="Metrics come from out-of-fold predictions; the forest is refit on all rows "
             "only to inspect feature importances.",
        split="holdout15",
    ),
]
