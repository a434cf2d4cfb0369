from bench.critic_corpus import Case

_SETUP_INJ = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4)
n = 600
inj = pd.DataFrame({
    "player": rng.choice([f"P{i:02d}" for i in range(1, 31)], n),
    "age": rng.integers(18, 35, n),
    "acwr": rng.lognormal(0, 0.3, n).round(2),
    "prev_injuries": rng.poisson(1.2, n),
    "sprint_exposure_m": rng.gamma(3, 100, n).round(0),
    "wellness_total": rng.integers(12, 36, n),
    "minutes_last_3": rng.integers(0, 271, n),
})
lp = (-2.5 + 1.2 * (inj["acwr"] - 1) + 0.35 * inj["prev_injuries"]
      - 0.04 * (inj["wellness_total"] - 24))
inj["soft_tissue_inj"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
inj["days_missed"] = np.where(inj["soft_tissue_inj"] == 1, rng.gamma(2, 9, n).round(0), 0)
inj["physio_sessions_next_14d"] = np.where(
    inj["soft_tissue_inj"] == 1, rng.poisson(6, n), rng.poisson(0.4, n))
'''

_SETUP_MATCH = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1903)
n = 380
m = pd.DataFrame({
    "match_id": np.arange(1, n + 1),
    "home_xg": rng.gamma(5, 0.3, n).round(2),
    "away_xg": rng.gamma(4.2, 0.3, n).round(2),
    "home_possession": rng.normal(52, 7, n).round(1),
    "home_shots": rng.poisson(13, n),
    "away_shots": rng.poisson(11, n),
    "odds_home_open": rng.uniform(1.4, 5.5, n).round(2),
})
m["home_goals"] = rng.poisson(m["home_xg"])
m["away_goals"] = rng.poisson(m["away_xg"])
m["home_points"] = np.select([m["home_goals"] > m["away_goals"],
                              m["home_goals"] == m["away_goals"]], [3, 1], 0)
m["home_win"] = (m["home_goals"] > m["away_goals"]).astype(int)
'''

CASES = [
    Case(
        id="h26-target-leakage-rf-days-missed",
        family="target_leakage",
        setup=_SETUP_INJ,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

features = ["age", "acwr", "prev_injuries", "sprint_exposure_m", "wellness_total",
            "minutes_last_3", "days_missed", "physio_sessions_next_14d"]
X_tr, X_te, y_tr, y_te = train_test_split(inj[features], inj["soft_tissue_inj"],
                                          test_size=0.25, random_state=8,
                                          stratify=inj["soft_tissue_inj"])
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=8)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"Soft-tissue injury model  AUC = {auc:.3f}")
imp = pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False)
print("Top risk drivers for the medical team:")
print(imp.head(5).round(3).to_string())
''',
        twin="h26-target-leakage-rf-days-missed-ok",
        note="days_missed and physio_sessions_next_14d are only known after the injury happens.",
        split="holdout26",
    ),
    Case(
        id="h26-target-leakage-rf-days-missed-ok",
        family=None,
        setup=_SETUP_INJ,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

# only what the staff know before the session
features = ["age", "acwr", "prev_injuries", "sprint_exposure_m", "wellness_total",
            "minutes_last_3"]
X_tr, X_te, y_tr, y_te = train_test_split(inj[features], inj["soft_tissue_inj"],
                                          test_size=0.25, random_state=8,
                                          stratify=inj["soft_tissue_inj"])
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=8)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"Soft-tissue injury model  AUC = {auc:.3f}")
imp = pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False)
print("Top risk drivers for the medical team:")
print(imp.head(5).round(3).to_string())
''',
        twin="h26-target-leakage-rf-days-missed",
        note="Only pre-session information is used as features for the injury model.",
        split="holdout26",
    ),
    Case(
        id="h26-target-leakage-logit-home-points",
        family="target_leakage",
        setup=_SETUP_MATCH,
        code='''import statsmodels.formula.api as smf

train, test = m[m["match_id"] <= 280], m[m["match_id"] > 280]
fit = smf.logit("home_win ~ home_xg + away_xg + home_possession + home_points",
                data=train).fit(disp=0, method="bfgs", maxiter=500)
p = fit.predict(test)
acc = ((p > 0.5).astype(int) == test["home_win"]).mean()
brier = ((p - test["home_win"]) ** 2).mean()
implied = 1 / test["odds_home_open"]
brier_mkt = ((implied - test["home_win"]) ** 2).mean()
print(f"Our model: accuracy {acc:.1%}, Brier {brier:.3f}")
print(f"Opening market: Brier {brier_mkt:.3f}")
print("Model beats the bookmakers" if brier < brier_mkt else "Market still better")
''',
        twin="h26-target-leakage-logit-home-points-ok",
        note="home_points (3/1/0 from the final score) encodes the result being predicted.",
        split="holdout26",
    ),
    Case(
        id="h26-target-leakage-logit-home-points-ok",
        family=None,
        setup=_SETUP_MATCH,
        code='''import statsmodels.formula.api as smf

train, test = m[m["match_id"] <= 280], m[m["match_id"] > 280]
fit = smf.logit("home_win ~ home_xg + away_xg + home_possession",
                data=train).fit(disp=0, method="bfgs", maxiter=500)
p = fit.predict(test)
acc = ((p > 0.5).astype(int) == test["home_win"]).mean()
brier = ((p - test["home_win"]) ** 2).mean()
implied = 1 / test["odds_home_open"]
brier_mkt = ((implied - test["home_win"]) ** 2).mean()
print(f"xG model: accuracy {acc:.1%}, Brier {brier:.3f}")
print(f"Opening market: Brier {brier_mkt:.3f}")
print("xG summary beats the opening market" if brier < brier_mkt else "Market still better")
''',
        twin="h26-target-leakage-logit-home-points",
        note="Predicts the result from match xG and possession only; no result-derived column.",
        split="holdout26",
    ),
]
