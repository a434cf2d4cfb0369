"""Target leakage, holdout9 idioms: a restaurant-inspection failure model whose ColumnTransformer
passes through the days until the next scheduled visit (a failed inspection triggers a quick
re-inspection), and a statsmodels array-API logit of chess results that uses the engine accuracy
of both players, which is computed from the finished game."""

from textwrap import dedent

from bench.critic_corpus import Case

_INSPECTIONS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9201)
n = 1800
insp = pd.DataFrame({
    "inspection_id": np.arange(50_000, 50_000 + n),
    "cuisine": rng.choice(["cafe", "pizza", "sushi", "grill", "bakery", "noodle"], n),
    "district": rng.choice(["north", "south", "east", "west", "centre"], n),
    "seats": rng.integers(10, 160, n),
    "prior_critical": rng.poisson(1.2, n),
    "days_since_last": rng.integers(60, 720, n),
    "complaints_90d": rng.poisson(0.4, n),
})
logit = (-2.2 + 0.45 * insp.prior_critical + 0.6 * insp.complaints_90d
         + 0.0012 * insp.days_since_last + 0.5 * insp.cuisine.isin(["sushi", "grill"]))
insp["failed"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
routine = np.where(rng.random(n) < 0.12, rng.integers(30, 120, n), rng.integers(150, 420, n))
insp["next_visit_days"] = np.where(insp.failed == 1, rng.integers(7, 60, n), routine)
"""

_GAMES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9202)
n = 3000
white_elo = rng.normal(1650, 280, n).round()
black_elo = (white_elo + rng.normal(0, 120, n)).round()
games = pd.DataFrame({
    "white_elo": white_elo,
    "black_elo": black_elo,
    "time_control": rng.choice(["bullet", "blitz", "rapid"], n, p=[0.3, 0.5, 0.2]),
    "white_form": rng.normal(0, 1, n).round(2),  # z-scored results over the last 20 games
})
skill = (white_elo - black_elo) / 400 + 0.25 * games.white_form + 0.1
play = skill + rng.normal(0, 1.1, n)  # how the game actually went
games["white_win"] = (play > 0.45).astype(int)
games["white_acc"] = (78 + 6 * play + rng.normal(0, 4, n)).clip(20, 99).round(1)
games["black_acc"] = (78 - 6 * play + rng.normal(0, 4, n)).clip(20, 99).round(1)
"""

CASES: list[Case] = [
    Case(
        id="target_leakage-h9-inspection-next-visit-days",
        family="target_leakage",
        twin="target_leakage-h9-inspection-next-visit-days-sound",
        split="holdout9",
        setup=_INSPECTIONS,
        note="next_visit_days is scheduled after the inspection result (fails get a re-visit "
        "within weeks), so it encodes the label and the CV AUC is near perfect.",
        code=dedent("""\
            from sklearn.compose import ColumnTransformer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            numeric = ["seats", "prior_critical", "days_since_last", "complaints_90d",
                       "next_visit_days"]
            categorical = ["cuisine", "district"]
            prep = ColumnTransformer([
                ("num", StandardScaler(), numeric),
                ("cat", OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical),
            ])
            clf = Pipeline([("prep", prep),
                            ("logit", LogisticRegression(C=1.0, solver="liblinear"))])
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
            auc = cross_val_score(clf, insp[numeric + categorical], insp["failed"],
                                  cv=folds, scoring="roc_auc")
            print(f"inspections: {len(insp)}, fail rate {insp['failed'].mean():.1%}")
            print(f"5-fold ROC AUC: {auc.mean():.3f} (folds {np.round(auc, 3)})")
        """),
    ),
    Case(
        id="target_leakage-h9-inspection-next-visit-days-sound",
        family=None,
        twin="target_leakage-h9-inspection-next-visit-days",
        split="holdout9",
        setup=_INSPECTIONS,
        note="Only information available before the inspector arrives (history, complaints, "
        "size, cuisine, district) is used; the scheduled next visit is left out.",
        code=dedent("""\
            from sklearn.compose import ColumnTransformer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            numeric = ["seats", "prior_critical", "days_since_last", "complaints_90d"]
            categorical = ["cuisine", "district"]
            prep = ColumnTransformer([
                ("num", StandardScaler(), numeric),
                ("cat", OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical),
            ])
            clf = Pipeline([("prep", prep),
                            ("logit", LogisticRegression(C=1.0, solver="liblinear"))])
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
            auc = cross_val_score(clf, insp[numeric + categorical], insp["failed"],
                                  cv=folds, scoring="roc_auc")
            print(f"inspections: {len(insp)}, fail rate {insp['failed'].mean():.1%}")
            print(f"5-fold ROC AUC: {auc.mean():.3f} (folds {np.round(auc, 3)})")
        """),
    ),
    Case(
        id="target_leakage-h9-chess-engine-accuracy-logit",
        family="target_leakage",
        twin="target_leakage-h9-chess-engine-accuracy-logit-sound",
        split="holdout9",
        setup=_GAMES,
        note="Engine accuracy is computed from the moves of the finished game, so the accuracy "
        "gap is a post-game summary of who won; the 'predictive' AUC is inflated.",
        code=dedent("""\
            import statsmodels.api as sm
            from sklearn.metrics import roc_auc_score

            df = games.assign(
                elo_diff=(games.white_elo - games.black_elo) / 100,
                acc_gap=games.white_acc - games.black_acc,
                is_bullet=games.time_control.eq("bullet").astype(int),
            )
            features = ["elo_diff", "white_form", "is_bullet", "acc_gap"]
            train, test = df.iloc[:2250], df.iloc[2250:]

            fit = sm.Logit(train["white_win"], sm.add_constant(train[features])).fit(disp=0)
            p_test = fit.predict(sm.add_constant(test[features]))
            print(fit.params.round(3).to_string())
            print(f"pseudo R2 {fit.prsquared:.3f}; "
                  f"AUC on last {len(test)} games: {roc_auc_score(test['white_win'], p_test):.3f}")
        """),
    ),
    Case(
        id="target_leakage-h9-chess-engine-accuracy-logit-sound",
        family=None,
        twin="target_leakage-h9-chess-engine-accuracy-logit",
        split="holdout9",
        setup=_GAMES,
        note="Only pre-game information (rating gap, recent form, time control) is used to "
        "predict the result; the post-game accuracy scores are not features.",
        code=dedent("""\
            import statsmodels.api as sm
            from sklearn.metrics import roc_auc_score

            df = games.assign(
                elo_diff=(games.white_elo - games.black_elo) / 100,
                is_bullet=games.time_control.eq("bullet").astype(int),
            )
            features = ["elo_diff", "white_form", "is_bullet"]
            train, test = df.iloc[:2250], df.iloc[2250:]

            fit = sm.Logit(train["white_win"], sm.add_constant(train[features])).fit(disp=0)
            p_test = fit.predict(sm.add_constant(test[features]))
            print(fit.params.round(3).to_string())
            print(f"pseudo R2 {fit.prsquared:.3f}; "
                  f"AUC on last {len(test)} games: {roc_auc_score(test['white_win'], p_test):.3f}")
        """),
    ),
]
