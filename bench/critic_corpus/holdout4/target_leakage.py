"""Target leakage, holdout4 idioms: a feature list built by excluding only id columns keeps the
share of the track that was played (which defines a skip), and an e-sports win model written as
a statsmodels formula that includes towers destroyed by the end of the match."""

from textwrap import dedent

from bench.critic_corpus import Case

_STREAMS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(3033)
n = 2500
plays = pd.DataFrame({
    "user_id": rng.integers(0, 300, n),
    "track_id": rng.integers(0, 900, n),
    "track_s": rng.normal(210, 40, n).clip(90, 420).round(),
    "hour": rng.integers(0, 24, n),
    "shuffle_on": rng.integers(0, 2, n),
    "from_playlist": rng.integers(0, 2, n),
    "tracks_this_session": rng.poisson(8, n),
})
logit = -0.8 + 0.7 * plays.shuffle_on - 0.5 * plays.from_playlist + 0.04 * plays.tracks_this_session
plays["skipped"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
# a skip is a play that stopped before 30 s; the play log records how long the track ran
listened = np.where(plays.skipped == 1, rng.uniform(1, 30, n),
                    plays.track_s * rng.uniform(0.3, 1.0, n))
plays["played_s"] = listened.round(1)
plays["pct_played"] = (100 * plays.played_s / plays.track_s).round(1)
"""

_MATCHES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7777)
n = 1200
games = pd.DataFrame({
    "gold_diff_10": rng.normal(0, 1500, n).round(),
    "kill_diff_10": rng.integers(-6, 7, n),
    "first_dragon": rng.integers(0, 2, n),
    "side_blue": rng.integers(0, 2, n),
})
lin = 0.0006 * games.gold_diff_10 + 0.12 * games.kill_diff_10 + 0.3 * games.first_dragon
games["win"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# end-of-game statistic from the match report: winners almost always take more towers
games["tower_diff_end"] = np.where(games.win == 1, rng.integers(1, 10, n),
                                   -rng.integers(1, 10, n)) + rng.integers(-2, 3, n)
train, test = games.iloc[:900], games.iloc[900:]
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-pct-played-skips",
        family="target_leakage",
        twin="target-leakage-pct-played-skips-sound",
        split="holdout4",
        setup=_STREAMS,
        note="Features are 'every column except ids and the label', which keeps played_s and "
        "pct_played: a skip is defined by stopping before 30 s, so the label is in the inputs.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            feature_cols = [c for c in plays.columns if c not in ("user_id", "track_id", "skipped")]
            X_tr, X_te, y_tr, y_te = train_test_split(plays[feature_cols], plays.skipped,
                                                      test_size=0.3, random_state=8)
            forest = RandomForestClassifier(n_estimators=120, min_samples_leaf=3, random_state=0)
            forest.fit(X_tr, y_tr)
            print("features:", ", ".join(feature_cols))
            print(f"skip prediction ROC AUC on held-out plays: "
                  f"{roc_auc_score(y_te, forest.predict_proba(X_te)[:, 1]):.3f}")
        """),
    ),
    Case(
        id="target-leakage-pct-played-skips-sound",
        family=None,
        twin="target-leakage-pct-played-skips",
        split="holdout4",
        setup=_STREAMS,
        note="Playback outcomes (played_s, pct_played) are excluded along with ids and the "
        "label; only context known when the track starts is used.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            after_start = ("played_s", "pct_played")
            feature_cols = [c for c in plays.columns
                            if c not in ("user_id", "track_id", "skipped", *after_start)]
            X_tr, X_te, y_tr, y_te = train_test_split(plays[feature_cols], plays.skipped,
                                                      test_size=0.3, random_state=8)
            forest = RandomForestClassifier(n_estimators=120, min_samples_leaf=3, random_state=0)
            forest.fit(X_tr, y_tr)
            print("features:", ", ".join(feature_cols))
            print(f"skip prediction ROC AUC on held-out plays: "
                  f"{roc_auc_score(y_te, forest.predict_proba(X_te)[:, 1]):.3f}")
        """),
    ),
    Case(
        id="target-leakage-tower-diff-esports-logit",
        family="target_leakage",
        twin="target-leakage-tower-diff-esports-logit-sound",
        split="holdout4",
        setup=_MATCHES,
        note="tower_diff_end is only known when the match is over and is almost a restatement "
        "of who won; the '10-minute win model' is reported with it in the formula.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.logit("win ~ gold_diff_10 + kill_diff_10 + first_dragon + side_blue"
                            " + tower_diff_end", data=train).fit(disp=0)
            acc = ((fit.predict(test) > 0.5).astype(int) == test.win).mean()
            print(f"pseudo R^2 = {fit.prsquared:.2f}")
            print(f"accuracy predicting winners from the 10-minute state: {acc:.1%}")
        """),
    ),
    Case(
        id="target-leakage-tower-diff-esports-logit-sound",
        family=None,
        twin="target-leakage-tower-diff-esports-logit",
        split="holdout4",
        setup=_MATCHES,
        note="Only the state at 10 minutes (gold, kills, first dragon) and the side enter the "
        "formula; the end-of-game tower count is left out.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.logit("win ~ gold_diff_10 + kill_diff_10 + first_dragon + side_blue",
                            data=train).fit(disp=0)
            acc = ((fit.predict(test) > 0.5).astype(int) == test.win).mean()
            print(f"pseudo R^2 = {fit.prsquared:.2f}")
            print(f"accuracy predicting winners from the 10-minute state: {acc:.1%}")
        """),
    ),
]
