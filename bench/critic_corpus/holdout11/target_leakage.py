"""Target leakage, holdout11: court backlog delay prediction and crop-insurance claims."""

from textwrap import dedent

from bench.critic_corpus import Case

_COURT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_011)
n = 1800
cases = pd.DataFrame({
    "case_type": rng.choice(["civil", "family", "criminal", "probate"], n, p=[.4, .25, .25, .1]),
    "n_parties": rng.integers(2, 9, n),
    "judge_caseload": rng.normal(310, 60, n).round(),
    "represented": rng.random(n) < 0.7,
    "filed_q": rng.integers(1, 5, n),
})
base = cases["case_type"].map({"civil": 300, "family": 240, "criminal": 330, "probate": 180})
days = (base + 18 * cases["n_parties"] + 0.5 * (cases["judge_caseload"] - 310)
        - 40 * cases["represented"] + rng.gamma(2.0, 60, n))
cases["days_to_disposition"] = days.round()
cases["adjournments_90d"] = rng.poisson(0.4 + 0.15 * cases["n_parties"])
cases["adjournments"] = cases["adjournments_90d"] + rng.poisson(days / 75)
cases["over_year"] = (days > 365).astype(int)
"""

_CROPS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_012)
n = 1400
policies = pd.DataFrame({
    "crop": rng.choice(["maize", "wheat", "soy", "canola"], n),
    "rain_dev_mm": rng.normal(0, 55, n).round(1),
    "soil_class": rng.integers(1, 6, n),
    "hectares": rng.lognormal(4.0, 0.6, n).round(1),
    "irrigated": rng.random(n) < 0.3,
})
lin = (-1.4 - 0.018 * policies["rain_dev_mm"] + 0.22 * (policies["soil_class"] - 3)
       - 0.9 * policies["irrigated"] + policies["crop"].map({"maize": .3, "wheat": 0,
                                                             "soy": .2, "canola": -.2}))
policies["claim"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
inspected = rng.random(n) < 0.35
policies["adjuster_hours"] = np.where(policies["claim"] == 1, rng.gamma(2.5, 2.0, n),
                                      np.where(inspected, rng.gamma(2.0, 1.8, n), 0.0)).round(1)
"""

CASES: list[Case] = [
    Case(
        id="target_leakage-h11-court-total-adjournments",
        family="target_leakage",
        twin="target_leakage-h11-court-early-adjournments",
        split="holdout11",
        setup=_COURT,
        note="'adjournments' counts adjournments over the whole life of the case, which accrue the "
        "longer the case runs, so it encodes whether the case passed a year.",
        code=dedent("""\
            from sklearn.ensemble import GradientBoostingClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            X = pd.get_dummies(cases[["case_type", "n_parties", "judge_caseload", "represented",
                                      "filed_q", "adjournments"]], columns=["case_type"])
            y = cases["over_year"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=11)

            gbm = GradientBoostingClassifier(n_estimators=120, max_depth=3, random_state=0)
            gbm.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1])
            imp = pd.Series(gbm.feature_importances_, index=X.columns).nlargest(4).round(3)
            print(f"backlog model: held-out AUC {auc:.3f}")
            print(imp.to_string())
        """),
    ),
    Case(
        id="target_leakage-h11-court-early-adjournments",
        family=None,
        twin="target_leakage-h11-court-total-adjournments",
        split="holdout11",
        setup=_COURT,
        note="Uses only adjournments in the first 90 days after filing, known at prediction time; "
        "all other features are filing-time attributes.",
        code=dedent("""\
            from sklearn.ensemble import GradientBoostingClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            X = pd.get_dummies(cases[["case_type", "n_parties", "judge_caseload", "represented",
                                      "filed_q", "adjournments_90d"]], columns=["case_type"])
            y = cases["over_year"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=11)

            gbm = GradientBoostingClassifier(n_estimators=120, max_depth=3, random_state=0)
            gbm.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1])
            imp = pd.Series(gbm.feature_importances_, index=X.columns).nlargest(4).round(3)
            print(f"backlog model: held-out AUC {auc:.3f}")
            print(imp.to_string())
        """),
    ),
    Case(
        id="target_leakage-h11-crop-adjuster-hours",
        family="target_leakage",
        twin="target_leakage-h11-crop-prefarm-covariates",
        split="holdout11",
        setup=_CROPS,
        note="adjuster_hours is loss-adjuster time logged after a claim is lodged, so it is a "
        "consequence of the outcome used as a predictor of it.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from sklearn.metrics import roc_auc_score

            train = policies.sample(frac=0.7, random_state=3)
            test = policies.drop(train.index)

            fit = smf.logit("claim ~ rain_dev_mm + soil_class + irrigated + C(crop)"
                            " + np.log(hectares) + adjuster_hours", data=train).fit(disp=0)
            print(fit.params.round(3).to_string())
            print(f"pseudo R2 {fit.prsquared:.3f}")
            print(f"test AUC {roc_auc_score(test['claim'], fit.predict(test)):.3f}")
        """),
    ),
    Case(
        id="target_leakage-h11-crop-prefarm-covariates",
        family=None,
        twin="target_leakage-h11-crop-adjuster-hours",
        split="holdout11",
        setup=_CROPS,
        note="Only covariates known when the season's policy is written (rain deviation, soil, "
        "irrigation, crop, farm size) predict the claim.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from sklearn.metrics import roc_auc_score

            train = policies.sample(frac=0.7, random_state=3)
            test = policies.drop(train.index)

            fit = smf.logit("claim ~ rain_dev_mm + soil_class + irrigated + C(crop)"
                            " + np.log(hectares)", data=train).fit(disp=0)
            print(fit.params.round(3).to_string())
            print(f"pseudo R2 {fit.prsquared:.3f}")
            print(f"test AUC {roc_auc_score(test['claim'], fit.predict(test)):.3f}")
        """),
    ),
]
