"""Unseeded randomness, holdout5 idioms: an MLPClassifier in a pipeline with no random_state
(weight initialisation and batch shuffling come from numpy's global state) behind a reported
test AUC, and a bootstrap built from sklearn.utils.resample calls without random_state."""

from textwrap import dedent

from bench.critic_corpus import Case

_STUDENTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2626)
n = 1400
students = pd.DataFrame({
    "term1_gpa": rng.normal(2.8, 0.6, n).clip(0, 4).round(2),
    "credits_attempted": rng.integers(6, 19, n),
    "credits_passed_share": rng.beta(8, 2, n).round(2),
    "lms_logins_wk": rng.poisson(9, n),
    "works_hours_wk": rng.choice([0, 0, 0, 10, 20, 30], n),
    "commute_min": rng.gamma(2, 15, n).round(),
    "first_generation": rng.integers(0, 2, n),
    "scholarship": rng.integers(0, 2, n),
})
z = (-1.2 - 1.1 * (students.term1_gpa - 2.8) - 2.5 * (students.credits_passed_share - 0.8)
     - 0.08 * (students.lms_logins_wk - 9) + 0.03 * students.works_hours_wk
     + 0.3 * students.first_generation - 0.5 * students.scholarship)
students["dropped_out"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
"""

_SHOTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1919)
xg_a = rng.beta(1.2, 8, 96)      # chance quality of each shot, striker A
xg_b = rng.beta(1.2, 7, 118)     # striker B
shots = pd.DataFrame({
    "player": ["A"] * 96 + ["B"] * 118,
    "xg": np.concatenate([xg_a, xg_b]).round(3),
    "goal": np.concatenate([rng.random(96) < xg_a * 1.25, rng.random(118) < xg_b]).astype(int),
})
shots["goals_minus_xg"] = shots.goal - shots.xg    # finishing over expectation, per shot
"""

CASES: list[Case] = [
    Case(
        id="unseeded-mlp-no-random-state-dropout",
        family="unseeded_randomness",
        twin="unseeded-mlp-no-random-state-dropout-sound",
        split="holdout5",
        setup=_STUDENTS,
        note="The split is seeded but MLPClassifier has no random_state: initial weights and "
        "mini-batch order come from the global RNG, so the printed AUC and accuracy vary per run.",
        code=dedent("""\
            from sklearn.metrics import accuracy_score, roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.neural_network import MLPClassifier
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = students.drop(columns="dropped_out")
            y = students["dropped_out"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=3)
            net = make_pipeline(StandardScaler(),
                                MLPClassifier(hidden_layer_sizes=(32, 16), alpha=1e-3,
                                              max_iter=300))
            net.fit(X_tr, y_tr)
            proba = net.predict_proba(X_te)[:, 1]
            print(f"dropout early-warning net: test ROC AUC = {roc_auc_score(y_te, proba):.4f}, "
                  f"accuracy = {accuracy_score(y_te, proba > 0.5):.4f}")
        """),
    ),
    Case(
        id="unseeded-mlp-no-random-state-dropout-sound",
        family=None,
        twin="unseeded-mlp-no-random-state-dropout",
        split="holdout5",
        setup=_STUDENTS,
        note="MLPClassifier(random_state=0) alongside the seeded split, so the weight "
        "initialisation and batch order, and therefore the reported scores, are reproducible.",
        code=dedent("""\
            from sklearn.metrics import accuracy_score, roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.neural_network import MLPClassifier
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = students.drop(columns="dropped_out")
            y = students["dropped_out"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=3)
            net = make_pipeline(StandardScaler(),
                                MLPClassifier(hidden_layer_sizes=(32, 16), alpha=1e-3,
                                              max_iter=300, random_state=0))
            net.fit(X_tr, y_tr)
            proba = net.predict_proba(X_te)[:, 1]
            print(f"dropout early-warning net: test ROC AUC = {roc_auc_score(y_te, proba):.4f}, "
                  f"accuracy = {accuracy_score(y_te, proba > 0.5):.4f}")
        """),
    ),
    Case(
        id="unseeded-sklearn-resample-bootstrap-finishing",
        family="unseeded_randomness",
        twin="unseeded-sklearn-resample-bootstrap-finishing-sound",
        split="holdout5",
        setup=_SHOTS,
        note="sklearn.utils.resample is called without random_state, so the bootstrap draws come "
        "from numpy's unseeded global state and the printed CI bounds change every run.",
        code=dedent("""\
            from sklearn.utils import resample

            a = shots.loc[shots.player == "A", "goals_minus_xg"].to_numpy()
            b = shots.loc[shots.player == "B", "goals_minus_xg"].to_numpy()
            boot = np.array([resample(a).mean() - resample(b).mean() for _ in range(2000)])
            lo, hi = np.percentile(boot, [2.5, 97.5])
            print(f"finishing edge of A over B: {a.mean() - b.mean():+.4f} goals/shot, "
                  f"95% bootstrap CI [{lo:+.4f}, {hi:+.4f}]")
            print(f"share of resamples where A finishes better: {(boot > 0).mean():.3f}")
        """),
    ),
    Case(
        id="unseeded-sklearn-resample-bootstrap-finishing-sound",
        family=None,
        twin="unseeded-sklearn-resample-bootstrap-finishing",
        split="holdout5",
        setup=_SHOTS,
        note="Every resample call draws from one seeded RandomState, so the bootstrap CI is "
        "reproducible.",
        code=dedent("""\
            from sklearn.utils import resample

            a = shots.loc[shots.player == "A", "goals_minus_xg"].to_numpy()
            b = shots.loc[shots.player == "B", "goals_minus_xg"].to_numpy()
            rs = np.random.RandomState(11)
            boot = np.array([resample(a, random_state=rs).mean()
                             - resample(b, random_state=rs).mean() for _ in range(2000)])
            lo, hi = np.percentile(boot, [2.5, 97.5])
            print(f"finishing edge of A over B: {a.mean() - b.mean():+.4f} goals/shot, "
                  f"95% bootstrap CI [{lo:+.4f}, {hi:+.4f}]")
            print(f"share of resamples where A finishes better: {(boot > 0).mean():.3f}")
        """),
    ),
]
