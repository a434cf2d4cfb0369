"""Unseeded randomness, holdout11: a bootstrap CI of esports-betting ROI and a random-forest
rowing-erg model with shuffled folds."""

from textwrap import dedent

from bench.critic_corpus import Case

_BETS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_091)
n = 420
odds = rng.uniform(1.3, 4.5, n).round(2)
win_p = (1 / odds) * 1.03
won = rng.random(n) < win_p
bets = pd.DataFrame({"match": [f"M{i:04d}" for i in range(n)], "odds": odds,
                     "stake": rng.choice([10, 20, 50], n, p=[.5, .35, .15])})
bets["pnl"] = np.where(won, bets["stake"] * (bets["odds"] - 1), -bets["stake"])
"""

_ROWING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_092)
n = 260
rowers = pd.DataFrame({
    "height_cm": rng.normal(186, 7, n),
    "mass_kg": rng.normal(84, 9, n),
    "vo2max": rng.normal(62, 6, n),
    "years_rowing": rng.integers(1, 15, n),
    "leg_press_kg": rng.normal(230, 40, n),
    "weekly_km": rng.normal(110, 30, n),
})
rowers["erg_2k_s"] = (455 - 1.6 * (rowers["vo2max"] - 62) - 0.4 * (rowers["height_cm"] - 186)
                      - 0.08 * (rowers["leg_press_kg"] - 230) - 0.9 * rowers["years_rowing"]
                      + rng.normal(0, 7, n))
"""

CASES: list[Case] = [
    Case(
        id="unseeded_randomness-h11-betting-roi-bootstrap",
        family="unseeded_randomness",
        twin="unseeded_randomness-h11-betting-roi-bootstrap-seeded",
        split="holdout11",
        setup=_BETS,
        note="The bootstrap resamples with np.random.choice on the unseeded global generator, so "
        "the reported ROI interval changes on every run.",
        code=dedent("""\
            def roi(frame):
                return frame["pnl"].sum() / frame["stake"].sum()

            idx = np.arange(len(bets))
            boot = np.array([roi(bets.iloc[np.random.choice(idx, len(idx))])
                             for _ in range(1000)])
            lo, hi = np.percentile(boot, [2.5, 97.5])
            print(f"{len(bets)} bets, staked {bets['stake'].sum():,}")
            print(f"ROI {roi(bets):+.2%} (95% bootstrap CI {lo:+.2%} to {hi:+.2%})")
        """),
    ),
    Case(
        id="unseeded_randomness-h11-betting-roi-bootstrap-seeded",
        family=None,
        twin="unseeded_randomness-h11-betting-roi-bootstrap",
        split="holdout11",
        setup=_BETS,
        note="The bootstrap draws from a seeded Generator, so the interval is reproducible.",
        code=dedent("""\
            def roi(frame):
                return frame["pnl"].sum() / frame["stake"].sum()

            gen = np.random.default_rng(20240611)
            idx = np.arange(len(bets))
            boot = np.array([roi(bets.iloc[gen.choice(idx, len(idx))]) for _ in range(1000)])
            lo, hi = np.percentile(boot, [2.5, 97.5])
            print(f"{len(bets)} bets, staked {bets['stake'].sum():,}")
            print(f"ROI {roi(bets):+.2%} (95% bootstrap CI {lo:+.2%} to {hi:+.2%})")
        """),
    ),
    Case(
        id="unseeded_randomness-h11-rowing-forest-shuffled-cv",
        family="unseeded_randomness",
        twin="unseeded_randomness-h11-rowing-forest-seeded-cv",
        split="holdout11",
        setup=_ROWING,
        note="Neither the forest nor the shuffled KFold has a random_state, so the reported CV "
        "error and importances differ on every run.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.model_selection import KFold, cross_validate

            X, y = rowers.drop(columns="erg_2k_s"), rowers["erg_2k_s"]
            forest = RandomForestRegressor(n_estimators=120, min_samples_leaf=3)
            cv = cross_validate(forest, X, y, cv=KFold(5, shuffle=True),
                                scoring="neg_mean_absolute_error", return_estimator=True)
            mae = -cv["test_score"]
            imp = np.mean([est.feature_importances_ for est in cv["estimator"]], axis=0)
            print(f"2k erg prediction MAE: {mae.mean():.2f} s (fold SD {mae.std():.2f})")
            print(pd.Series(imp, index=X.columns).sort_values(ascending=False).round(3))
        """),
    ),
    Case(
        id="unseeded_randomness-h11-rowing-forest-seeded-cv",
        family=None,
        twin="unseeded_randomness-h11-rowing-forest-shuffled-cv",
        split="holdout11",
        setup=_ROWING,
        note="Forest and shuffled folds both take a fixed random_state, so the CV error and "
        "importances are reproducible.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.model_selection import KFold, cross_validate

            X, y = rowers.drop(columns="erg_2k_s"), rowers["erg_2k_s"]
            forest = RandomForestRegressor(n_estimators=120, min_samples_leaf=3, random_state=42)
            cv = cross_validate(forest, X, y, cv=KFold(5, shuffle=True, random_state=42),
                                scoring="neg_mean_absolute_error", return_estimator=True)
            mae = -cv["test_score"]
            imp = np.mean([est.feature_importances_ for est in cv["estimator"]], axis=0)
            print(f"2k erg prediction MAE: {mae.mean():.2f} s (fold SD {mae.std():.2f})")
            print(pd.Series(imp, index=X.columns).sort_values(ascending=False).round(3))
        """),
    ),
]
