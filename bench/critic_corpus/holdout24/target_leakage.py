from bench.critic_corpus import Case

SPLIT = "holdout24"

_WARDS_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n = 640
wards = pd.DataFrame({
    "ward_code": [f"E0501{i:04d}" for i in rng.choice(9999, n, replace=False)],
    "electorate": rng.integers(4500, 14000, n),
    "pct_over_65": rng.uniform(8, 34, n).round(1),
    "pct_degree": rng.uniform(12, 58, n).round(1),
    "pct_owner_occ": rng.uniform(25, 85, n).round(1),
    "median_income_k": rng.normal(31, 6, n).round(1),
    "marginal": rng.integers(0, 2, n),
})
postal_share = rng.uniform(0.12, 0.30, n)
wards["postal_voters_registered"] = (wards.electorate * postal_share).round().astype(int)
turnout = (4 + 0.35 * wards.pct_over_65 + 0.3 * wards.pct_degree + 0.1 * wards.pct_owner_occ
           + 0.25 * wards.median_income_k + 3 * wards.marginal + 20 * postal_share
           + rng.normal(0, 4.5, n)).clip(15, 85)
wards["votes_cast"] = (wards.electorate * turnout / 100).round().astype(int)
return_rate = (turnout / 100 + 0.28 + rng.normal(0, 0.02, n)).clip(0.3, 0.98)
wards["postal_ballots_returned"] = (wards.postal_voters_registered * return_rate).round()
wards["postal_turnout_pct"] = (
    100 * wards.postal_ballots_returned / wards.postal_voters_registered).round(1)
wards["turnout_pct"] = (100 * wards.votes_cast / wards.electorate).round(1)
"""

_AE_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
n = 4000
ae = pd.DataFrame({
    "attendance_id": np.arange(880001, 880001 + n),
    "arrival": pd.Timestamp("2023-01-01")
    + pd.to_timedelta(np.sort(rng.uniform(0, 365, n)).round(4), unit="D"),
    "age": rng.integers(0, 98, n),
    "triage_cat": rng.choice([1, 2, 3, 4, 5], n, p=[0.03, 0.17, 0.45, 0.28, 0.07]),
    "ambulance": rng.binomial(1, 0.3, n),
})
ae["arrival_hour"] = ae.arrival.dt.hour
ae["weekend"] = (ae.arrival.dt.dayofweek >= 5).astype(int)
lin = (-1.5 + 0.018 * (ae.age - 40) + 0.5 * ae.ambulance + 0.6 * (ae.triage_cat <= 2)
       + 0.25 * ae.weekend + 0.4 * ae.arrival_hour.between(16, 23)
       + 0.3 * (ae.arrival.dt.month.isin([12, 1, 2])))
ae["breach_4h"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
ae["complaint_logged"] = rng.binomial(1, np.where(ae.breach_4h == 1, 0.38, 0.03))
ae["site"] = rng.choice(["RGH", "NGH", "BDH"], n, p=[0.5, 0.3, 0.2])
"""

CASES: list[Case] = [
    Case(
        id="h24-target-leakage-postal-returns-turnout",
        family="target_leakage",
        setup=_WARDS_SETUP,
        code=r"""
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

feats = ["electorate", "pct_over_65", "pct_degree", "pct_owner_occ", "median_income_k",
         "marginal", "postal_voters_registered", "postal_turnout_pct"]
X_tr, X_te, y_tr, y_te = train_test_split(wards[feats], wards["turnout_pct"],
                                          test_size=0.25, random_state=11)
rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=3, random_state=11)
rf.fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"Ward model explains {r2_score(y_te, pred):.0%} of the variation in turnout "
      f"(typical error {mean_absolute_error(y_te, pred):.1f} pts)")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3)
""",
        twin="h24-target-leakage-postal-returns-turnout-registered",
        note="postal_turnout_pct is the share of postal ballots returned, published with the "
             "result and part of votes_cast, so the turnout model is fed its own outcome.",
        split=SPLIT,
    ),
    Case(
        id="h24-target-leakage-postal-returns-turnout-registered",
        family=None,
        setup=_WARDS_SETUP,
        code=r"""
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

feats = ["electorate", "pct_over_65", "pct_degree", "pct_owner_occ", "median_income_k",
         "marginal", "postal_voters_registered"]
X_tr, X_te, y_tr, y_te = train_test_split(wards[feats], wards["turnout_pct"],
                                          test_size=0.25, random_state=11)
rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=3, random_state=11)
rf.fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"Ward model explains {r2_score(y_te, pred):.0%} of the variation in turnout "
      f"(typical error {mean_absolute_error(y_te, pred):.1f} pts)")
pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False).round(3)
""",
        twin="h24-target-leakage-postal-returns-turnout",
        note="Only pre-election ward characteristics (register size, postal-vote sign-ups, "
             "census shares) are used; held-out wards give the error.",
        split=SPLIT,
    ),
    Case(
        id="h24-target-leakage-ae-breach-complaints",
        family="target_leakage",
        setup=_AE_SETUP,
        code=r"""
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

ae = ae.assign(evening=ae.arrival_hour.between(16, 23).astype(int),
               winter=ae.arrival.dt.month.isin([12, 1, 2]).astype(int))
train = ae[ae.arrival < "2023-10-01"]
q4 = ae[ae.arrival >= "2023-10-01"]

risk = smf.logit("breach_4h ~ age + C(triage_cat) + ambulance + weekend + evening + winter"
                 " + complaint_logged", data=train).fit(disp=0)
print(np.exp(risk.params).round(2).sort_values(ascending=False).to_string())
print(f"\nArrival risk score flags 4-hour breaches in Q4 with AUC "
      f"{roc_auc_score(q4.breach_4h, risk.predict(q4)):.2f}")
""",
        twin="h24-target-leakage-ae-breach-complaints-arrival-only",
        note="complaint_logged is recorded after the visit and is driven by the breach itself, "
             "yet it is a predictor in an 'arrival risk score' for breaches.",
        split=SPLIT,
    ),
    Case(
        id="h24-target-leakage-ae-breach-complaints-arrival-only",
        family=None,
        setup=_AE_SETUP,
        code=r"""
import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

ae = ae.assign(evening=ae.arrival_hour.between(16, 23).astype(int),
               winter=ae.arrival.dt.month.isin([12, 1, 2]).astype(int))
train = ae[ae.arrival < "2023-10-01"]
q4 = ae[ae.arrival >= "2023-10-01"]

risk = smf.logit("breach_4h ~ age + C(triage_cat) + ambulance + weekend + evening + winter",
                 data=train).fit(disp=0)
print(np.exp(risk.params).round(2).sort_values(ascending=False).to_string())
print(f"\nArrival risk score flags 4-hour breaches in Q4 with AUC "
      f"{roc_auc_score(q4.breach_4h, risk.predict(q4)):.2f}")
""",
        twin="h24-target-leakage-ae-breach-complaints",
        note="The risk score uses only what is known at arrival, is fitted on Jan-Sep and "
             "scored on later Q4 attendances.",
        split=SPLIT,
    ),
]
