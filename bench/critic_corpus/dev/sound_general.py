"""Ordinary, methodologically sound analysis cells (no twin): the critic should stay quiet."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-eda-wine-describe",
        family=None,
        note="Descriptive EDA on a complete bundled dataset: class counts and describe().",
        code=dedent("""\
            from sklearn.datasets import load_wine

            wine = load_wine(as_frame=True).frame
            print(wine.shape)
            print(wine["target"].value_counts().sort_index())
            print(f"missing values: {int(wine.isna().sum().sum())}")
            wine[["alcohol", "malic_acid", "color_intensity", "proline"]].describe().T.round(2)
        """),
    ),
    Case(
        id="sound-groupby-salary-by-department",
        family=None,
        note="Groupby summary (count, median, IQR) of complete synthetic salary data.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(2)
            n = 900
            staff = pd.DataFrame({
                "department": rng.choice(["Engineering", "Finance", "Marketing", "Support"], n),
                "level": rng.choice(["junior", "mid", "senior"], n, p=[0.4, 0.4, 0.2]),
            })
            base = staff.level.map({"junior": 52000, "mid": 71000, "senior": 98000})
            staff["salary"] = (base * rng.lognormal(0, 0.15, n)).round(-2)

            def iqr(s):
                return s.quantile(0.75) - s.quantile(0.25)

            (staff.groupby(["department", "level"])["salary"]
                  .agg(n="size", median="median", iqr=iqr)
                  .unstack("level")
                  .round(0))
        """),
    ),
    Case(
        id="sound-plot-sensor-rolling-mean",
        family=None,
        note="Matplotlib line plot of a seeded temperature series with a 24 h rolling mean; "
        "summary printed.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(21)
            idx = pd.date_range("2024-07-01", periods=24 * 14, freq="h")
            hours = np.arange(len(idx))
            temp = pd.Series(22 + 4 * np.sin(2 * np.pi * (hours - 9) / 24)
                             + rng.normal(0, 0.8, len(idx)), index=idx, name="temp_c")

            fig, ax = plt.subplots(figsize=(9, 3.5))
            ax.plot(temp.index, temp, lw=0.7, alpha=0.6, label="hourly")
            ax.plot(temp.index, temp.rolling(24, center=True).mean(), lw=2, label="24 h mean")
            ax.set(ylabel="Temperature (deg C)", title="Greenhouse bay 3, first two weeks of July")
            ax.legend()
            fig.tight_layout()

            daily = temp.resample("D").agg(["min", "mean", "max"])
            print(daily.round(1).head())
        """),
    ),
    Case(
        id="sound-ols-train-test-energy",
        family=None,
        note="statsmodels OLS fitted on a seeded train split, coefficient table printed, "
        "RMSE reported on the test split once.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.formula.api as smf
            from sklearn.model_selection import train_test_split

            rng = np.random.default_rng(7)
            n = 600
            homes = pd.DataFrame({
                "floor_area_m2": rng.normal(140, 35, n),
                "insulation": rng.choice(["poor", "average", "good"], n),
                "hdd": rng.normal(2800, 300, n),               # heating degree days
            })
            effect = homes.insulation.map({"poor": 3000, "average": 1500, "good": 0})
            homes["kwh_year"] = (2000 + 55 * homes.floor_area_m2 + 1.5 * homes.hdd
                                 + effect + rng.normal(0, 900, n))

            train, test = train_test_split(homes, test_size=0.25, random_state=1)
            fit = smf.ols("kwh_year ~ floor_area_m2 + hdd + C(insulation)", data=train).fit()
            print(fit.summary().tables[1])
            rmse = np.sqrt(np.mean((test.kwh_year - fit.predict(test)) ** 2))
            print(f"train R^2 = {fit.rsquared:.3f}; test RMSE = {rmse:.0f} kWh/year "
                  f"(n_test = {len(test)})")
        """),
    ),
    Case(
        id="sound-cv-pipeline-breast-cancer",
        family=None,
        note="Scaler + logistic regression in a Pipeline, evaluated with seeded stratified "
        "5-fold CV.",
        code=dedent("""\
            from sklearn.datasets import load_breast_cancer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_validate
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import StandardScaler

            X, y = load_breast_cancer(return_X_y=True)
            pipe = Pipeline([("scale", StandardScaler()),
                             ("clf", LogisticRegression(C=0.5, max_iter=5000))])
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
            res = cross_validate(pipe, X, y, cv=cv, scoring=["accuracy", "roc_auc"])
            for metric in ["test_accuracy", "test_roc_auc"]:
                print(f"{metric}: {res[metric].mean():.3f} +/- {res[metric].std():.3f}")
        """),
    ),
    Case(
        id="sound-chi2-campaign-channel",
        family=None,
        note="One chi-square test of independence on a contingency table with large expected "
        "counts, plus Cramer's V.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy import stats

            rng = np.random.default_rng(99)
            n = 3000
            channel = rng.choice(["email", "sms", "push"], n, p=[0.5, 0.2, 0.3])
            p_resp = pd.Series(channel).map({"email": 0.11, "sms": 0.15, "push": 0.08})
            responded = np.where(rng.random(n) < p_resp, "yes", "no")

            table = pd.crosstab(channel, responded, rownames=["channel"], colnames=["responded"])
            res = stats.chi2_contingency(table)
            v = stats.contingency.association(table, method="cramer")
            print(table)
            print(f"min expected count {res.expected_freq.min():.0f}; chi2 = {res.statistic:.1f}, "
                  f"dof = {res.dof}, p = {res.pvalue:.1e}, Cramer's V = {v:.3f}")
        """),
    ),
    Case(
        id="sound-paired-ttest-reaction-time",
        family=None,
        note="Paired t-test on 28 participants tested under both conditions; differences are "
        "near-normal; the mean difference CI is reported.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy import stats

            rng = np.random.default_rng(314)
            n = 28
            person = rng.normal(420, 45, n)
            rt = pd.DataFrame({
                "participant": np.arange(1, n + 1),
                "rested_ms": person + rng.normal(0, 15, n),
                "sleep_deprived_ms": person + 24 + rng.normal(0, 15, n),
            })
            diff = rt.sleep_deprived_ms - rt.rested_ms
            res = stats.ttest_rel(rt.sleep_deprived_ms, rt.rested_ms)
            ci = res.confidence_interval()
            print(f"Shapiro-Wilk on differences: p = {stats.shapiro(diff).pvalue:.2f}")
            print(f"mean slowdown {diff.mean():.1f} ms (95% CI {ci.low:.1f} to {ci.high:.1f}), "
                  f"t({res.df:.0f}) = {res.statistic:.2f}, p = {res.pvalue:.1e}")
        """),
    ),
    Case(
        id="sound-spearman-engagement-hours",
        family=None,
        note="Spearman correlation between an ordinal 1-5 engagement rating and weekly study "
        "hours.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy import stats

            rng = np.random.default_rng(8)
            n = 260
            hours = rng.gamma(3, 2.5, n)
            engagement = np.clip(np.round(1 + hours / 4 + rng.normal(0, 0.9, n)), 1, 5).astype(int)
            students = pd.DataFrame({"engagement_1to5": engagement, "study_hours": hours.round(1)})

            print(students.groupby("engagement_1to5")["study_hours"].median())
            rho, p = stats.spearmanr(students.engagement_1to5, students.study_hours)
            print(f"Spearman rho = {rho:.2f}, p = {p:.1e} (n = {n})")
        """),
    ),
    Case(
        id="sound-bootstrap-ci-median-latency",
        family=None,
        note="BCa bootstrap CI of a median latency via scipy.stats.bootstrap with a seeded "
        "generator.",
        code=dedent("""\
            import numpy as np
            from scipy import stats

            rng = np.random.default_rng(123)
            latency_ms = rng.lognormal(np.log(180), 0.6, 400)

            res = stats.bootstrap((latency_ms,), np.median, n_resamples=2000,
                                  confidence_level=0.95, method="BCa",
                                  rng=np.random.default_rng(42))
            lo, hi = res.confidence_interval
            print(f"median latency {np.median(latency_ms):.0f} ms, 95% CI {lo:.0f}-{hi:.0f} ms")
        """),
    ),
    Case(
        id="sound-merge-reports-row-counts",
        family=None,
        note="Left merge with validate= and indicator=True; row counts before/after and "
        "unmatched keys are printed.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(55)
            plots = pd.DataFrame({
                "plot_id": [f"P{i:03d}" for i in range(120)],
                "habitat": rng.choice(["meadow", "scrub", "woodland"], 120),
            })
            counts = pd.DataFrame({
                "plot_id": rng.choice([f"P{i:03d}" for i in range(125)], 900),
                "species": rng.choice(["robin", "wren", "blackcap", "chiffchaff"], 900),
                "n_birds": rng.poisson(2, 900) + 1,
            })

            merged = counts.merge(plots, on="plot_id", how="left", validate="many_to_one",
                                  indicator=True)
            print(f"counts: {len(counts)} rows -> merged: {len(merged)} rows")
            print(merged["_merge"].value_counts())
            unmatched = merged.loc[merged["_merge"] == "left_only", "plot_id"].unique()
            print(f"plot ids missing from the plot register: {sorted(unmatched)}")
            merged["habitat"] = merged["habitat"].fillna("unregistered")
            merged.pivot_table(index="habitat", columns="species", values="n_birds",
                               aggfunc="sum", fill_value=0)
        """),
    ),
    Case(
        id="sound-kmeans-iris-seeded",
        family=None,
        note="Seeded KMeans (random_state, n_init) on standardised iris; agreement with the "
        "species via crosstab and adjusted Rand index.",
        code=dedent("""\
            import pandas as pd
            from sklearn.cluster import KMeans
            from sklearn.datasets import load_iris
            from sklearn.metrics import adjusted_rand_score
            from sklearn.preprocessing import StandardScaler

            iris = load_iris(as_frame=True)
            Z = StandardScaler().fit_transform(iris.data)
            km = KMeans(n_clusters=3, n_init=10, random_state=0).fit(Z)
            species = iris.target.map(dict(enumerate(iris.target_names)))
            print(pd.crosstab(species, km.labels_, colnames=["cluster"]))
            ari = adjusted_rand_score(iris.target, km.labels_)
            print(f"adjusted Rand index vs species: {ari:.3f}")
        """),
    ),
]
