"""Ordinary sound analyses, holdout2: domains and idioms not used in dev or holdout."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-poisson-glm-exposure-offset",
        family=None,
        split="holdout2",
        note="Poisson GLM (statsmodels formula) of claim counts with a log-exposure offset; "
        "rate ratios with 95% CIs and a Pearson dispersion check.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            rng = np.random.default_rng(515)
            n = 1200
            fleet = pd.DataFrame({
                "vehicle": rng.choice(["van", "truck", "car"], n),
                "urban": rng.integers(0, 2, n),
                "exposure_yrs": rng.uniform(0.2, 1.0, n).round(2),
            })
            rate = np.exp(-1.6 + 0.4 * fleet.urban + fleet.vehicle.map(
                {"car": 0.0, "van": 0.25, "truck": 0.5}))
            fleet["claims"] = rng.poisson(rate * fleet.exposure_yrs)
            fit = smf.glm("claims ~ C(vehicle) + urban", data=fleet,
                          family=sm.families.Poisson(),
                          offset=np.log(fleet.exposure_yrs)).fit()
            rr = np.exp(pd.concat([fit.params, fit.conf_int()], axis=1))
            rr.columns = ["rate_ratio", "ci_low", "ci_high"]
            print(rr.round(3))
            print(f"Pearson dispersion: {fit.pearson_chi2 / fit.df_resid:.2f}")
        """),
    ),
    Case(
        id="sound-timeseriessplit-lag-features",
        family=None,
        split="holdout2",
        note="Trailing lag features only, warm-up rows dropped and reported, scaler inside "
        "the pipeline, forward-chaining TimeSeriesSplit via cross_validate.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.linear_model import RidgeCV
            from sklearn.model_selection import TimeSeriesSplit, cross_validate
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            rng = np.random.default_rng(2025)
            hours = pd.date_range("2024-03-01", periods=24 * 60, freq="h")
            load = pd.Series(
                500 + 80 * np.sin(2 * np.pi * hours.hour / 24) + rng.normal(0, 25, len(hours)),
                index=hours, name="load_mw",
            )
            frame = pd.DataFrame({"load_mw": load}).assign(
                lag_1=load.shift(1), lag_24=load.shift(24), lag_168=load.shift(168),
                hour_sin=np.sin(2 * np.pi * hours.hour / 24),
                hour_cos=np.cos(2 * np.pi * hours.hour / 24),
            )
            usable = frame.dropna()
            print(f"{len(frame) - len(usable)} warm-up hours without a full lag history dropped, "
                  f"{len(usable)} kept")
            model = make_pipeline(StandardScaler(), RidgeCV(alphas=np.logspace(-2, 3, 12)))
            res = cross_validate(model, usable.drop(columns="load_mw"), usable.load_mw,
                                 cv=TimeSeriesSplit(n_splits=5),
                                 scoring="neg_mean_absolute_error")
            print(f"forward-chaining MAE per fold: {np.round(-res['test_score'], 1)}")
        """),
    ),
    Case(
        id="sound-permutation-importance-held-out",
        family=None,
        split="holdout2",
        note="Seeded forest fitted on the training split; seeded permutation importance "
        "computed on the held-out split.",
        code=dedent("""\
            import pandas as pd
            from sklearn.datasets import load_breast_cancer
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.inspection import permutation_importance
            from sklearn.model_selection import train_test_split

            data = load_breast_cancer(as_frame=True)
            X_tr, X_te, y_tr, y_te = train_test_split(data.data, data.target, test_size=0.3,
                                                      stratify=data.target, random_state=0)
            forest = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1)
            forest.fit(X_tr, y_tr)
            imp = permutation_importance(forest, X_te, y_te, scoring="roc_auc", n_repeats=5,
                                         random_state=0)
            ranking = pd.DataFrame({"mean": imp.importances_mean, "sd": imp.importances_std},
                                   index=X_te.columns).sort_values("mean", ascending=False)
            print(ranking.head(6).round(4))
        """),
    ),
    Case(
        id="sound-crosstab-age-bands-descriptive",
        family=None,
        split="holdout2",
        note="Descriptive pd.cut age bands x plan crosstab (row percentages with margins) on "
        "complete synthetic subscriber data.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(64)
            n = 5000
            subs = pd.DataFrame({"age": rng.integers(18, 90, n)})
            subs["plan"] = np.where(subs.age < 30, rng.choice(["basic", "plus", "family"], n,
                                                              p=[0.6, 0.3, 0.1]),
                                    rng.choice(["basic", "plus", "family"], n, p=[0.3, 0.3, 0.4]))
            subs["age_band"] = pd.cut(subs.age, [17, 29, 44, 64, 89],
                                      labels=["18-29", "30-44", "45-64", "65+"])
            print(f"rows: {len(subs)}, missing: {int(subs.isna().sum().sum())}")
            pd.crosstab(subs.age_band, subs.plan, normalize="index", margins=True).round(3)
        """),
    ),
    Case(
        id="sound-mixedlm-repeated-sleep",
        family=None,
        split="holdout2",
        note="Repeated reaction-time measurements over days analysed with a linear mixed model "
        "(random intercept and slope per subject).",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.formula.api as smf

            rng = np.random.default_rng(1010)
            rows = []
            for subject in range(18):
                base, slope = rng.normal(250, 25), rng.normal(10, 5)
                for day in range(10):
                    rows.append({"subject": f"S{subject:02d}", "day": day,
                                 "reaction_ms": base + slope * day + rng.normal(0, 20)})
            sleep = pd.DataFrame(rows)
            fit = smf.mixedlm("reaction_ms ~ day", sleep, groups="subject",
                              re_formula="~day").fit(reml=True)
            ci = fit.conf_int().loc["day"]
            print(f"{sleep.subject.nunique()} subjects x {sleep.day.nunique()} days")
            print(f"reaction time slope: {fit.params['day']:.1f} ms/day "
                  f"(95% CI {ci[0]:.1f} to {ci[1]:.1f})")
        """),
    ),
    Case(
        id="sound-fisher-exact-single-table",
        family=None,
        split="holdout2",
        note="A single pre-planned Fisher exact test on a small 2x2 adverse-event table, with "
        "the odds ratio and its exact CI.",
        code=dedent("""\
            import numpy as np
            from scipy import stats

            # serious adverse events: rows = arm (treatment, control), cols = (event, no event)
            table = np.array([[3, 57], [11, 49]])
            res = stats.fisher_exact(table)
            ci = stats.contingency.odds_ratio(table, kind="conditional").confidence_interval()
            print(f"event rate: treatment {table[0, 0] / table[0].sum():.1%}, "
                  f"control {table[1, 0] / table[1].sum():.1%}")
            print(f"odds ratio {res.statistic:.2f} (95% CI {ci.low:.2f} to {ci.high:.2f}), "
                  f"Fisher exact p = {res.pvalue:.3f}")
        """),
    ),
]
