"""Ordinary sound analyses, holdout5: EDA of a football league's match records, a groupby
method chain of pass rates by school and year, an hour-by-day heatmap of a smart-meter load
profile, and a ColumnTransformer + RidgeCV regression of tensile strength scored once on a
held-out set."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-eda-league-match-records",
        family=None,
        split="holdout5",
        note="Descriptive EDA of complete, seeded match records: missing-value check, result "
        "shares, describe() of the numeric columns and per-team shot totals; no inference.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(1010)
            teams = ["Harbour", "Millers", "Rovers", "Saints", "Town", "United"]
            fixtures = [(h, a) for h in teams for a in teams if h != a] * 2
            matches = pd.DataFrame(fixtures, columns=["home", "away"])
            matches["home_goals"] = rng.poisson(1.5, len(matches))
            matches["away_goals"] = rng.poisson(1.1, len(matches))
            matches["home_shots"] = matches.home_goals * 4 + rng.poisson(8, len(matches))
            matches["away_shots"] = matches.away_goals * 4 + rng.poisson(6, len(matches))
            matches["result"] = np.select(
                [matches.home_goals > matches.away_goals, matches.home_goals < matches.away_goals],
                ["home win", "away win"], "draw")

            print(f"{len(matches)} matches, missing values: {int(matches.isna().sum().sum())}")
            print(matches.result.value_counts(normalize=True).round(3).to_string())
            print(matches.describe().loc[["mean", "std", "min", "max"]].round(2))
            shots = (matches.groupby("home").home_shots.sum()
                     .add(matches.groupby("away").away_shots.sum()))
            print(shots.sort_values(ascending=False).rename("shots").to_string())
        """),
    ),
    Case(
        id="sound-groupby-pass-rates-school-year",
        family=None,
        split="holdout5",
        note="Named-aggregation method chain of complete synthetic results: students, pass rate "
        "and median score per school and year, shown with the group sizes; descriptive only.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(2020)
            n = 3000
            results = pd.DataFrame({
                "school": rng.choice(["Ashby", "Brook", "Carlton", "Dene"], n),
                "year": rng.choice([2022, 2023, 2024], n),
                "score": rng.normal(58, 14, n).clip(0, 100).round(),
            })
            summary = (results
                       .assign(passed=lambda d: d.score >= 50)
                       .groupby(["school", "year"])
                       .agg(students=("score", "size"), pass_rate=("passed", "mean"),
                            median_score=("score", "median"))
                       .round({"pass_rate": 3}))
            print(summary.unstack("year"))
        """),
    ),
    Case(
        id="sound-heatmap-smart-meter-load-profile",
        family=None,
        split="holdout5",
        note="Hour-by-day imshow heatmap of a seeded smart-meter series (complete), with the "
        "average daily consumption and the typical peak hour printed; descriptive only.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(3030)
            idx = pd.date_range("2024-01-01", periods=24 * 56, freq="h")
            hour = idx.hour.to_numpy()
            evening, morning = np.exp(-((hour - 19) ** 2) / 6), np.exp(-((hour - 7) ** 2) / 3)
            base = 0.35 + 0.9 * evening + 0.4 * morning
            load = pd.Series(base * rng.lognormal(0, 0.2, len(idx)), index=idx, name="kwh")

            grid = load.to_frame().assign(day=idx.date, hour=hour).pivot(
                index="day", columns="hour", values="kwh")
            fig, ax = plt.subplots(figsize=(8, 4))
            im = ax.imshow(grid.to_numpy(), aspect="auto", cmap="viridis")
            ax.set_xlabel("hour of day")
            ax.set_ylabel("day")
            fig.colorbar(im, ax=ax, label="kWh")
            daily = load.resample("D").sum()
            print(f"{grid.shape[0]} days, mean daily consumption {daily.mean():.1f} kWh "
                  f"(range {daily.min():.1f}-{daily.max():.1f})")
            print(f"typical peak hour: {int(grid.mean().idxmax())}:00")
        """),
    ),
    Case(
        id="sound-ridgecv-pipeline-tensile-strength",
        family=None,
        split="holdout5",
        note="Split first; one-hot alloy and scaled process settings in a ColumnTransformer, "
        "RidgeCV picks alpha on the training rows only, and the test set is scored once.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.compose import ColumnTransformer
            from sklearn.linear_model import RidgeCV
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            rng = np.random.default_rng(4040)
            n = 900
            coupons = pd.DataFrame({
                "alloy": rng.choice(["6061", "6082", "7075"], n),
                "anneal_c": rng.uniform(380, 460, n).round(),
                "cooling_c_min": rng.uniform(5, 40, n).round(1),
                "thickness_mm": rng.choice([2.0, 3.0, 5.0], n),
            })
            alloy_base = coupons.alloy.map({"6061": 290, "6082": 310, "7075": 520})
            coupons["uts_mpa"] = (alloy_base - 0.4 * (coupons.anneal_c - 420)
                                  + 1.1 * coupons.cooling_c_min - 4 * coupons.thickness_mm
                                  + rng.normal(0, 22, n)).round(1)

            X, y = coupons.drop(columns="uts_mpa"), coupons.uts_mpa
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=40)
            prep = ColumnTransformer([
                ("alloy", OneHotEncoder(handle_unknown="ignore"), ["alloy"]),
                ("num", StandardScaler(), ["anneal_c", "cooling_c_min", "thickness_mm"]),
            ])
            model = Pipeline([("prep", prep), ("ridge", RidgeCV(alphas=np.logspace(-3, 3, 13)))])
            model.fit(X_tr, y_tr)
            pred = model.predict(X_te)
            print(f"alpha chosen on training rows: {model.named_steps['ridge'].alpha_:.3g}")
            print(f"held-out test: MAE = {mean_absolute_error(y_te, pred):.1f} MPa, "
                  f"R^2 = {r2_score(y_te, pred):.3f} (n = {len(y_te)})")
        """),
    ),
]
