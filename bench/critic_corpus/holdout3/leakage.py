"""Leakage, holdout3 idioms: a Lasso SelectFromModel band screen on every field plot before
repeated CV, a ColumnTransformer with a chi2 cell-tower screen fitted on all subscribers before
train_test_split, and a hand-rolled weight-of-evidence route encoding computed on every delivery
before the split."""

from textwrap import dedent

from bench.critic_corpus import Case

_HYPERSPECTRAL = """\
import numpy as np
import pandas as pd
from sklearn.feature_selection import SelectFromModel
from sklearn.linear_model import Lasso, RidgeCV
from sklearn.model_selection import RepeatedKFold, cross_val_score

rng = np.random.default_rng(808)
n_plots, n_bands = 90, 400
wavelengths = np.linspace(400, 1000, n_bands).round(1)
reflectance = pd.DataFrame(rng.normal(0, 1, (n_plots, n_bands)),
                           columns=[f"nm_{w:g}" for w in wavelengths])
# grain yield responds weakly to two red-edge bands; the other 398 bands are noise
yield_t_ha = (6.0 + 0.5 * reflectance.iloc[:, 150] - 0.4 * reflectance.iloc[:, 210]
              + rng.normal(0, 0.5, n_plots))
cv = RepeatedKFold(n_splits=5, n_repeats=2, random_state=3)
"""

_TOWERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n = 1600
subs = pd.DataFrame({
    "home_cell": rng.choice([f"CELL{i:04d}" for i in range(500)], n),
    "tenure_m": rng.integers(1, 72, n),
    "monthly_gb": rng.gamma(2, 6, n).round(1),
    "dropped_calls": rng.poisson(1.5, n),
})
# churn depends on tenure and dropped calls only; the home cell tower carries no signal
logit = -0.6 - 0.02 * subs.tenure_m + 0.2 * subs.dropped_calls
subs["churned"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
"""

_ROUTES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(99)
n = 2400
deliveries = pd.DataFrame({
    "route": rng.choice([f"R{r:03d}" for r in range(400)], n),
    "distance_km": rng.gamma(3, 12, n).round(1),
    "stops": rng.integers(3, 40, n),
})
p_late = 1 / (1 + np.exp(-(-2.0 + 0.015 * deliveries.distance_km + 0.03 * deliveries.stops)))
deliveries["late"] = (rng.random(n) < p_late).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="leakage-lasso-band-screen-hyperspectral",
        family="leakage",
        twin="leakage-lasso-band-screen-hyperspectral-sound",
        split="holdout3",
        setup=_HYPERSPECTRAL,
        note="SelectFromModel(Lasso) picks bands using the yields of all 90 plots, then only the "
        "ridge on those bands is cross-validated: the band screen saw every test fold.",
        code=dedent("""\
            selector = SelectFromModel(Lasso(alpha=0.05), max_features=15)
            selector.fit(reflectance, yield_t_ha)
            bands = reflectance.columns[selector.get_support()]

            ridge = RidgeCV(alphas=np.logspace(-2, 2, 9))
            r2 = cross_val_score(ridge, reflectance[bands], yield_t_ha, cv=cv, scoring="r2")
            print(f"{len(bands)} informative bands: {', '.join(bands[:6])}, ...")
            print(f"cross-validated R^2 = {r2.mean():.2f} +/- {r2.std():.2f} (5x2 folds)")
        """),
    ),
    Case(
        id="leakage-lasso-band-screen-hyperspectral-sound",
        family=None,
        twin="leakage-lasso-band-screen-hyperspectral",
        split="holdout3",
        setup=_HYPERSPECTRAL,
        note="The Lasso band screen is the first step of the pipeline that is cross-validated, "
        "so bands are re-selected from the training plots of each fold.",
        code=dedent("""\
            from sklearn.pipeline import make_pipeline

            model = make_pipeline(SelectFromModel(Lasso(alpha=0.05), max_features=15),
                                  RidgeCV(alphas=np.logspace(-2, 2, 9)))
            r2 = cross_val_score(model, reflectance, yield_t_ha, cv=cv, scoring="r2")
            bands = reflectance.columns[model.fit(reflectance, yield_t_ha)[0].get_support()]
            print(f"{len(bands)} bands kept on the full data: {', '.join(bands[:6])}, ...")
            print(f"cross-validated R^2 = {r2.mean():.2f} +/- {r2.std():.2f} (5x2 folds)")
        """),
    ),
    Case(
        id="leakage-columntransformer-chi2-towers",
        family="leakage",
        twin="leakage-columntransformer-chi2-towers-sound",
        split="holdout3",
        setup=_TOWERS,
        note="The ColumnTransformer (one-hot cells + SelectKBest(chi2) against churn) is fitted "
        "on all subscribers before train_test_split, so the 60 'churny' towers were chosen "
        "using the test labels.",
        code=dedent("""\
            from sklearn.compose import ColumnTransformer
            from sklearn.feature_selection import SelectKBest, chi2
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            num_cols = ["tenure_m", "monthly_gb", "dropped_calls"]
            prep = ColumnTransformer([
                ("cell", make_pipeline(OneHotEncoder(handle_unknown="ignore"),
                                       SelectKBest(chi2, k=60)), ["home_cell"]),
                ("num", StandardScaler(), num_cols),
            ])
            X = prep.fit_transform(subs.drop(columns="churned"), subs.churned)
            X_tr, X_te, y_tr, y_te = train_test_split(X, subs.churned, test_size=0.25,
                                                      stratify=subs.churned, random_state=0)
            clf = LogisticRegression(max_iter=2000).fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
            print(f"{X.shape[1]} features after preprocessing; test ROC AUC = {auc:.3f}")
        """),
    ),
    Case(
        id="leakage-columntransformer-chi2-towers-sound",
        family=None,
        twin="leakage-columntransformer-chi2-towers",
        split="holdout3",
        setup=_TOWERS,
        note="Split first; the ColumnTransformer with the chi2 tower screen is a pipeline step "
        "fitted on the training subscribers only, and the test set is scored once.",
        code=dedent("""\
            from sklearn.compose import ColumnTransformer
            from sklearn.feature_selection import SelectKBest, chi2
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            num_cols = ["tenure_m", "monthly_gb", "dropped_calls"]
            prep = ColumnTransformer([
                ("cell", make_pipeline(OneHotEncoder(handle_unknown="ignore"),
                                       SelectKBest(chi2, k=60)), ["home_cell"]),
                ("num", StandardScaler(), num_cols),
            ])
            X_tr, X_te, y_tr, y_te = train_test_split(
                subs.drop(columns="churned"), subs.churned, test_size=0.25,
                stratify=subs.churned, random_state=0)
            clf = make_pipeline(prep, LogisticRegression(max_iter=2000)).fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
            print(f"{clf[0].transform(X_te).shape[1]} features after preprocessing; "
                  f"test ROC AUC = {auc:.3f}")
        """),
    ),
    Case(
        id="leakage-woe-route-encoding-deliveries",
        family="leakage",
        twin="leakage-woe-route-encoding-deliveries-sound",
        split="holdout3",
        setup=_ROUTES,
        note="Weight-of-evidence for each of 400 routes (~6 deliveries each) is computed from "
        "the late flags of all deliveries, test rows included, before train_test_split.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split


            def woe_table(df, col, target, eps=0.5):
                counts = df.groupby(col)[target].agg(bad="sum", total="count")
                good = counts.total - counts.bad
                return (np.log((counts.bad + eps) / counts.bad.sum())
                        - np.log((good + eps) / good.sum()))


            deliveries["route_woe"] = deliveries.route.map(woe_table(deliveries, "route", "late"))
            train, test = train_test_split(deliveries, test_size=0.3, random_state=5,
                                           stratify=deliveries.late)
            feats = ["route_woe", "distance_km", "stops"]
            model = LogisticRegression(max_iter=1000).fit(train[feats], train.late)
            auc = roc_auc_score(test.late, model.predict_proba(test[feats])[:, 1])
            {"n_test": len(test), "test_auc": round(auc, 3),
             "route_woe_coef": round(float(model.coef_[0][0]), 2)}
        """),
    ),
    Case(
        id="leakage-woe-route-encoding-deliveries-sound",
        family=None,
        twin="leakage-woe-route-encoding-deliveries",
        split="holdout3",
        setup=_ROUTES,
        note="The route weight-of-evidence table is learned from the training deliveries only "
        "and mapped onto the test deliveries (unseen routes get 0, i.e. no evidence).",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split


            def woe_table(df, col, target, eps=0.5):
                counts = df.groupby(col)[target].agg(bad="sum", total="count")
                good = counts.total - counts.bad
                return (np.log((counts.bad + eps) / counts.bad.sum())
                        - np.log((good + eps) / good.sum()))


            train, test = train_test_split(deliveries, test_size=0.3, random_state=5,
                                           stratify=deliveries.late)
            woe = woe_table(train, "route", "late")
            train = train.assign(route_woe=train.route.map(woe))
            test = test.assign(route_woe=test.route.map(woe).fillna(0.0))
            feats = ["route_woe", "distance_km", "stops"]
            model = LogisticRegression(max_iter=1000).fit(train[feats], train.late)
            auc = roc_auc_score(test.late, model.predict_proba(test[feats])[:, 1])
            {"n_test": len(test), "test_auc": round(auc, 3),
             "route_woe_coef": round(float(model.coef_[0][0]), 2)}
        """),
    ),
]
