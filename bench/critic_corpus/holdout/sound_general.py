"""Ordinary sound analyses, held-out: different domains and idioms from dev/sound_general."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-logit-odds-ratios-readmission",
        family=None,
        split="holdout",
        note="Inferential logistic regression (statsmodels formula) on baseline covariates; "
        "odds ratios with 95% CIs, no prediction claim.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.formula.api as smf

            rng = np.random.default_rng(2023)
            n = 1800
            adm = pd.DataFrame({
                "age": rng.normal(67, 12, n).round(),
                "prior_admissions": rng.poisson(0.8, n),
                "lives_alone": rng.integers(0, 2, n),
                "ward": rng.choice(["cardiology", "respiratory", "general"], n),
            })
            lp = (-3.0 + 0.025 * (adm.age - 67) + 0.35 * adm.prior_admissions
                  + 0.4 * adm.lives_alone + 0.3 * (adm.ward == "respiratory"))
            adm["readmit_30d"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)

            fit = smf.logit("readmit_30d ~ age + prior_admissions + lives_alone + C(ward)",
                            data=adm).fit(disp=0)
            ci = fit.conf_int()
            odds = pd.DataFrame({"OR": np.exp(fit.params), "CI_low": np.exp(ci[0]),
                                 "CI_high": np.exp(ci[1]), "p": fit.pvalues}).drop("Intercept")
            print(f"n = {int(fit.nobs)}, events = {adm.readmit_30d.sum()}")
            odds.round(3)
        """),
    ),
    Case(
        id="sound-resample-weekly-traffic",
        family=None,
        split="holdout",
        note="Complete minute-level web traffic resampled to daily/weekly totals and plotted; "
        "descriptive only.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(4)
            idx = pd.date_range("2024-02-05", periods=60 * 24 * 28, freq="min")
            hour = idx.hour.to_numpy()
            weekend = idx.dayofweek.to_numpy() >= 5
            lam = 20 + 15 * np.sin(np.pi * np.clip(hour - 6, 0, 16) / 16) - 8 * weekend
            hits = pd.Series(rng.poisson(lam), index=idx, name="pageviews")

            daily = hits.resample("D").sum()
            weekly = hits.resample("W-SUN").sum()
            ax = daily.plot(figsize=(8, 3), marker="o", title="Daily page views")
            ax.set_ylabel("page views")
            plt.tight_layout()
            print(weekly.to_frame("weekly_pageviews"))
            print(f"weekday mean {daily[daily.index.dayofweek < 5].mean():,.0f} vs "
                  f"weekend mean {daily[daily.index.dayofweek >= 5].mean():,.0f} per day")
        """),
    ),
    Case(
        id="sound-welch-primary-endpoint",
        family=None,
        split="holdout",
        note="A single pre-specified primary endpoint, approximately normal with 60 per arm: "
        "Welch t-test with the CI of the difference.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy import stats

            rng = np.random.default_rng(60)
            trial = pd.DataFrame({
                "arm": np.repeat(["placebo", "active"], 60),
                "fev1_change_ml": np.r_[rng.normal(20, 110, 60), rng.normal(85, 120, 60)],
            })
            active = trial.loc[trial.arm == "active", "fev1_change_ml"]
            placebo = trial.loc[trial.arm == "placebo", "fev1_change_ml"]
            res = stats.ttest_ind(active, placebo, equal_var=False)
            ci = res.confidence_interval(confidence_level=0.95)
            print(trial.groupby("arm")["fev1_change_ml"].agg(["count", "mean", "std"]).round(1))
            print(f"primary endpoint: difference {active.mean() - placebo.mean():.0f} mL "
                  f"(95% CI {ci.low:.0f} to {ci.high:.0f}), Welch p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="sound-gridsearch-then-test-once",
        family=None,
        split="holdout",
        note="Hyperparameters tuned by seeded CV on the training split only; the held-out "
        "test set is used once for the final estimate.",
        code=dedent("""\
            from sklearn.datasets import load_breast_cancer
            from sklearn.metrics import classification_report
            from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
            from sklearn.neighbors import KNeighborsClassifier
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X, y = load_breast_cancer(return_X_y=True)
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=10)
            search = GridSearchCV(
                make_pipeline(StandardScaler(), KNeighborsClassifier()),
                {"kneighborsclassifier__n_neighbors": [3, 5, 9, 15, 25],
                 "kneighborsclassifier__weights": ["uniform", "distance"]},
                cv=StratifiedKFold(5, shuffle=True, random_state=0),
            ).fit(X_tr, y_tr)
            print(f"chosen by CV on the training set: {search.best_params_} "
                  f"(CV accuracy {search.best_score_:.3f})")
            print(classification_report(y_te, search.predict(X_te), digits=3))
        """),
    ),
    Case(
        id="sound-mannwhitney-dwell-time",
        family=None,
        split="holdout",
        note="One Mann-Whitney U test on skewed (lognormal) page dwell times, with medians "
        "and the common-language effect size.",
        code=dedent("""\
            import numpy as np
            from scipy import stats

            rng = np.random.default_rng(77)
            old_layout = rng.lognormal(np.log(38), 0.9, 350)     # seconds on article page
            new_layout = rng.lognormal(np.log(45), 0.9, 340)

            res = stats.mannwhitneyu(new_layout, old_layout, alternative="two-sided")
            cles = res.statistic / (len(new_layout) * len(old_layout))
            print(f"median dwell: new {np.median(new_layout):.0f} s vs old "
                  f"{np.median(old_layout):.0f} s")
            print(f"Mann-Whitney U = {res.statistic:.0f}, p = {res.pvalue:.4f}, "
                  f"P(new > old) = {cles:.2f}")
        """),
    ),
    Case(
        id="sound-pca-explained-variance",
        family=None,
        split="holdout",
        note="Descriptive PCA of standardised bundled data: explained variance ratios and "
        "top loadings; no model evaluation involved.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.datasets import load_diabetes
            from sklearn.decomposition import PCA
            from sklearn.preprocessing import StandardScaler

            X = load_diabetes(as_frame=True).data
            pca = PCA(random_state=0).fit(StandardScaler().fit_transform(X))
            evr = pd.Series(pca.explained_variance_ratio_,
                            index=[f"PC{i + 1}" for i in range(X.shape[1])])
            print(pd.DataFrame({"explained": evr, "cumulative": evr.cumsum()}).head(5).round(3))
            loadings = pd.Series(pca.components_[0], index=X.columns)
            print("PC1 top loadings:", loadings.abs().sort_values(ascending=False).head(3).round(2)
                  .to_dict())
            print(f"components for 90% of variance: {int(np.searchsorted(evr.cumsum(), 0.9) + 1)}")
        """),
    ),
]
