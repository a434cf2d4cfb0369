from bench.critic_corpus import Case

_TNC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3611)
n = 6000
miles = np.round(rng.lognormal(1.3, 0.7, n), 2)
minutes = np.round(miles * rng.uniform(2.2, 4.5, n) + rng.gamma(2, 2, n), 1)
surge = np.round(np.where(rng.random(n) < 0.18, rng.uniform(1.2, 2.5, n), 1.0), 2)
hour = rng.integers(0, 24, n)
airport = rng.binomial(1, 0.06, n)
fare = np.round((2.5 + 1.05 * miles + 0.32 * minutes) * surge + 4.0 * airport
                + rng.normal(0, 2.0, n), 2).clip(5.0)
tnc = pd.DataFrame({
    "trip_miles": miles, "trip_minutes": minutes, "surge_mult": surge,
    "pickup_hour": hour, "airport": airport,
    "driver_pay": np.round(0.71 * fare - 0.9 + rng.normal(0, 0.4, n), 2),
    "base_fare": fare,
})
'''

_CRASH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3612)
n = 5000
crash = pd.DataFrame({
    "year": rng.choice([2018, 2019, 2020, 2021, 2022], n),
    "speed_limit": rng.choice([20, 30, 40, 50, 60, 70], n, p=[.1, .45, .15, .1, .12, .08]),
    "dark": rng.binomial(1, 0.3, n),
    "wet": rng.binomial(1, 0.25, n),
    "n_vehicles": rng.choice([1, 2, 3, 4], n, p=[.3, .55, .11, .04]),
    "vru_involved": rng.binomial(1, 0.28, n),
})
lin = (-3.6 + 0.03 * crash["speed_limit"] + 0.35 * crash["dark"] + 0.1 * crash["wet"]
       + 0.9 * crash["vru_involved"] - 0.15 * crash["n_vehicles"])
crash["ksi"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# casualty-days in hospital, from the linked hospital episode records
# (fatal-at-scene KSI casualties have no admission; some slight casualties are admitted)
crash["hospital_days"] = np.where(
    crash["ksi"] == 1,
    rng.binomial(1, 0.8, n) * (rng.poisson(4, n) + 1),
    rng.binomial(1, 0.15, n) * (rng.poisson(1.5, n) + 1),
)
'''

CASES = [
    Case(
        id="h36-tl-tnc-fare-driverpay",
        family="target_leakage",
        twin="h36-tl-tnc-fare-driverpay-ok",
        setup=_TNC_SETUP,
        code='''
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import r2_score, mean_absolute_error

tnc["peak"] = tnc["pickup_hour"].isin([7, 8, 9, 16, 17, 18]).astype(int)
X = tnc.drop(columns=["base_fare", "pickup_hour"])
y = tnc["base_fare"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=21)

fare_model = LinearRegression().fit(X_tr, y_tr)
pred = fare_model.predict(X_te)
print(f"fare model for the TNC tax study: R2 = {r2_score(y_te, pred):.3f}, "
      f"MAE = ${mean_absolute_error(y_te, pred):.2f}")
pd.Series(fare_model.coef_, index=X.columns).round(3)
''',
        note="driver_pay is a fixed share of the fare (the target), so the fare model's "
             "near-perfect R2 and tiny MAE come from the target itself.",
        split="holdout36",
    ),
    Case(
        id="h36-tl-tnc-fare-driverpay-ok",
        family=None,
        twin="h36-tl-tnc-fare-driverpay",
        setup=_TNC_SETUP,
        code='''
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import r2_score, mean_absolute_error

tnc["peak"] = tnc["pickup_hour"].isin([7, 8, 9, 16, 17, 18]).astype(int)
# only what is known at request time; driver_pay is computed from the fare afterwards
feats = ["trip_miles", "trip_minutes", "surge_mult", "airport", "peak"]
X_tr, X_te, y_tr, y_te = train_test_split(tnc[feats], tnc["base_fare"], test_size=0.25,
                                          random_state=21)

fare_model = LinearRegression().fit(X_tr, y_tr)
pred = fare_model.predict(X_te)
print(f"fare model for the TNC tax study: R2 = {r2_score(y_te, pred):.3f}, "
      f"MAE = ${mean_absolute_error(y_te, pred):.2f}")
pd.Series(fare_model.coef_, index=feats).round(3)
''',
        note="Fare is predicted from request-time trip attributes only; driver_pay (derived "
             "from the fare) is excluded and performance is on a held-out set.",
        split="holdout36",
    ),
    Case(
        id="h36-tl-crash-ksi-hospital",
        family="target_leakage",
        twin="h36-tl-crash-ksi-hospital-ok",
        setup=_CRASH_SETUP,
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = crash[crash["year"] < 2022]
test = crash[crash["year"] == 2022]

ksi_fit = smf.logit(
    "ksi ~ C(speed_limit) + dark + wet + n_vehicles + vru_involved + hospital_days",
    data=train,
).fit(disp=0)
auc_2022 = roc_auc_score(test["ksi"], ksi_fit.predict(test))
print(f"KSI severity model trained 2018-21, AUC on 2022 collisions = {auc_2022:.3f}")
np.exp(ksi_fit.params).round(2)
''',
        note="hospital_days comes from post-crash hospital records and is driven by the KSI "
             "outcome itself, so the out-of-year AUC is inflated by target leakage.",
        split="holdout36",
    ),
    Case(
        id="h36-tl-crash-ksi-hospital-ok",
        family=None,
        twin="h36-tl-crash-ksi-hospital",
        setup=_CRASH_SETUP,
        code='''
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

train = crash[crash["year"] < 2022]
test = crash[crash["year"] == 2022]

# road and collision circumstances only -- nothing recorded after the crash
ksi_fit = smf.logit(
    "ksi ~ C(speed_limit) + dark + wet + n_vehicles + vru_involved",
    data=train,
).fit(disp=0)
auc_2022 = roc_auc_score(test["ksi"], ksi_fit.predict(test))
print(f"KSI severity model trained 2018-21, AUC on 2022 collisions = {auc_2022:.3f}")
np.exp(ksi_fit.params).round(2)
''',
        note="Severity model uses only pre-crash road and collision circumstances and is "
             "validated on a later year it was not fitted on.",
        split="holdout36",
    ),
]
