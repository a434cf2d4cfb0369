"""Circular validation, holdout7 idioms: a claim-frequency forest whose scores are recalibrated
by an isotonic regression fitted on the test policies and then scored (Brier, calibration in
the large) on those same policies, and the PCA dimension of a galaxy-morphology pipeline picked
with a set_params loop whose scores are test-set accuracies, the best of which is reported."""

from textwrap import dedent

from bench.critic_corpus import Case

_POLICIES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7301)
n = 3000
policies = pd.DataFrame({
    "driver_age": rng.integers(18, 85, n),
    "vehicle_group": rng.integers(1, 21, n),
    "annual_km_k": rng.gamma(4.0, 3.0, n).round(1),
    "prior_claims_3y": rng.poisson(0.25, n),
    "urban": rng.integers(0, 2, n),
})
lin = (-3.1 + 0.9 * (policies.driver_age < 25) + 0.04 * policies.vehicle_group
       + 0.03 * policies.annual_km_k + 0.45 * policies.prior_claims_3y + 0.3 * policies.urban)
policies["claimed"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
X, y = policies.drop(columns="claimed"), policies["claimed"]
"""

_GALAXIES = """\
import numpy as np

rng = np.random.default_rng(7302)
n_gal, n_feat = 450, 40
classes = np.array(["elliptical", "spiral", "merger"])
morph = rng.choice(classes, n_gal, p=[0.4, 0.45, 0.15])
# photometric and shape measurements: concentration, asymmetry, Gini, M20, colours, ...
latent = rng.normal(0, 1, (n_gal, 6))
latent[morph == "spiral", 0] += 0.8
latent[morph == "merger", 1] += 0.9
mixing = rng.normal(0, 1, (6, n_feat))
photometry = latent @ mixing + rng.normal(0, 2.0, (n_gal, n_feat))
"""

CASES: list[Case] = [
    Case(
        id="circular-h7-isotonic-recalibration-on-test-policies",
        family="circular_validation",
        twin="circular-h7-isotonic-recalibration-on-test-policies-sound",
        split="holdout7",
        setup=_POLICIES,
        note="The isotonic map is fitted to the test policies' outcomes and the Brier score and "
        "calibration in the large are then measured on those same policies: optimistic by design.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.isotonic import IsotonicRegression
            from sklearn.metrics import brier_score_loss
            from sklearn.model_selection import train_test_split

            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=11)
            forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5,
                                            random_state=0).fit(X_tr, y_tr)
            raw_te = forest.predict_proba(X_te)[:, 1]
            # forests are badly calibrated -- map the scores onto observed claim rates
            iso = IsotonicRegression(out_of_bounds="clip").fit(raw_te, y_te)
            p_te = iso.predict(raw_te)

            print(f"Brier, raw forest      : {brier_score_loss(y_te, raw_te):.4f}")
            print(f"Brier, after isotonic  : {brier_score_loss(y_te, p_te):.4f}")
            print(f"mean predicted / observed claim rate: {p_te.mean():.4f} / {y_te.mean():.4f}")
        """),
    ),
    Case(
        id="circular-h7-isotonic-recalibration-on-test-policies-sound",
        family=None,
        twin="circular-h7-isotonic-recalibration-on-test-policies",
        split="holdout7",
        setup=_POLICIES,
        note="The isotonic map is fitted on a calibration slice carved out of the training "
        "policies; the test policies are used once, to score the calibrated model.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.isotonic import IsotonicRegression
            from sklearn.metrics import brier_score_loss
            from sklearn.model_selection import train_test_split

            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=11)
            X_fit, X_cal, y_fit, y_cal = train_test_split(X_tr, y_tr, test_size=0.3,
                                                          stratify=y_tr, random_state=12)
            forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5,
                                            random_state=0).fit(X_fit, y_fit)
            # forests are badly calibrated -- map the scores onto observed claim rates
            iso = IsotonicRegression(out_of_bounds="clip").fit(
                forest.predict_proba(X_cal)[:, 1], y_cal)
            raw_te = forest.predict_proba(X_te)[:, 1]
            p_te = iso.predict(raw_te)

            print(f"Brier, raw forest      : {brier_score_loss(y_te, raw_te):.4f}")
            print(f"Brier, after isotonic  : {brier_score_loss(y_te, p_te):.4f}")
            print(f"mean predicted / observed claim rate: {p_te.mean():.4f} / {y_te.mean():.4f}")
        """),
    ),
    Case(
        id="circular-h7-pca-components-by-test-accuracy-galaxies",
        family="circular_validation",
        twin="circular-h7-pca-components-by-test-accuracy-galaxies-sound",
        split="holdout7",
        setup=_GALAXIES,
        note="Eight PCA dimensions are compared by their test-set accuracy and the maximum of "
        "those test accuracies is reported as the model's accuracy (selection on the test set).",
        code=dedent("""\
            from sklearn.decomposition import PCA
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import StandardScaler

            X_train, X_test, y_train, y_test = train_test_split(
                photometry, morph, test_size=0.25, stratify=morph, random_state=5)
            pipe = Pipeline([("scale", StandardScaler()), ("pca", PCA()),
                             ("clf", LogisticRegression(max_iter=2000))])
            test_acc = {}
            for k in range(2, 31, 4):
                pipe.set_params(pca__n_components=k).fit(X_train, y_train)
                test_acc[k] = pipe.score(X_test, y_test)
            best_k = max(test_acc, key=test_acc.get)
            print(f"n_components = {best_k}: morphology accuracy = {test_acc[best_k]:.3f}")
        """),
    ),
    Case(
        id="circular-h7-pca-components-by-test-accuracy-galaxies-sound",
        family=None,
        twin="circular-h7-pca-components-by-test-accuracy-galaxies",
        split="holdout7",
        setup=_GALAXIES,
        note="The PCA dimension is chosen by 5-fold CV on the training galaxies; the test "
        "galaxies are scored once with the chosen pipeline.",
        code=dedent("""\
            from sklearn.decomposition import PCA
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import StandardScaler

            X_train, X_test, y_train, y_test = train_test_split(
                photometry, morph, test_size=0.25, stratify=morph, random_state=5)
            pipe = Pipeline([("scale", StandardScaler()), ("pca", PCA()),
                             ("clf", LogisticRegression(max_iter=2000))])
            search = GridSearchCV(pipe, {"pca__n_components": list(range(2, 31, 4))},
                                  cv=StratifiedKFold(5, shuffle=True, random_state=5))
            search.fit(X_train, y_train)
            best_k = search.best_params_["pca__n_components"]
            print(f"n_components = {best_k} (CV accuracy {search.best_score_:.3f}): "
                  f"morphology test accuracy = {search.score(X_test, y_test):.3f}")
        """),
    ),
]
