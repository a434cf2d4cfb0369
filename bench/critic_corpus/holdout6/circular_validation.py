"""Circular validation, holdout6 idioms: the width of a 'calibrated' prediction interval for a
statsmodels-formula downscaling model taken from the test years' own residuals (so the test
coverage is 90% by construction), and a SequentialFeatureSelector whose `cv` is a single
hand-made split pointing at the held-out respondents, so the short survey screener is chosen on
the very rows that then score it."""

from textwrap import dedent

from bench.critic_corpus import Case

_STATION = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6301)
days = pd.date_range("1991-01-01", "2020-12-31", freq="D")
n = len(days)
doy = days.day_of_year.to_numpy()
year = days.year.to_numpy()
season = np.cos(2 * np.pi * (doy - 200) / 365.25)
wx = pd.DataFrame({
    "date": days,
    "year": year,
    "doy": doy,
    "t850": (4 + 9 * season + rng.normal(0, 3.0, n)).round(2),   # reanalysis, deg C
    "z500_anom": rng.normal(0, 80, n).round(0),                   # geopotential anomaly, m
    "rh": rng.uniform(35, 95, n).round(0),                        # relative humidity, %
})
# station maximum temperature; recent summers bring hotter extremes the predictors miss
noise_sd = 1.4 + 0.9 * np.clip((year - 2005) / 15, 0, 1)
wx["tmax"] = (11.5 + 0.95 * wx.t850 + 0.012 * wx.z500_anom - 0.05 * (wx.rh - 65)
              + 2.5 * season + 0.03 * (year - 1991) + rng.normal(0, 1, n) * noise_sd).round(1)
"""

_SURVEY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6309)
n, n_items = 400, 20
trust = rng.normal(0, 1, n)          # latent trust in vaccines
loadings = np.zeros(n_items)
loadings[[0, 3, 7, 12, 18]] = [0.6, 0.5, 0.4, 0.4, 0.3]   # five items tap trust
latent = trust[:, None] * loadings + rng.normal(0, 1, (n, n_items))
items = pd.DataFrame(np.clip(np.round(3 + latent), 1, 5).astype(int),
                     columns=[f"q{i + 1:02d}" for i in range(n_items)])
hesitant = (rng.random(n) < 1 / (1 + np.exp(1.0 + 1.1 * trust))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="circular-interval-width-from-test-residuals-downscaling",
        family="circular_validation",
        twin="circular-interval-width-from-test-residuals-downscaling-sound",
        split="holdout6",
        setup=_STATION,
        note="The interval half-width is the 90th percentile of the 2016-2020 residuals and "
        "its coverage is then measured on those same residuals, so '90.0%' holds by construction.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            formula = ("tmax ~ t850 + z500_anom + rh + np.sin(2 * np.pi * doy / 365.25)"
                       " + np.cos(2 * np.pi * doy / 365.25)")
            train, test = wx[wx.year <= 2015], wx[wx.year > 2015]
            fit = smf.ols(formula, data=train).fit()

            resid = test.tmax - fit.predict(test)
            half_width = np.quantile(np.abs(resid), 0.90)   # calibrate the 90% band
            covered = (np.abs(resid) <= half_width).mean()
            print(f"downscaled tmax, test RMSE 2016-2020: {np.sqrt(np.mean(resid ** 2)):.2f} C")
            print(f"90% prediction interval: +/- {half_width:.2f} C, "
                  f"coverage on 2016-2020: {covered:.1%}")
        """),
    ),
    Case(
        id="circular-interval-width-from-test-residuals-downscaling-sound",
        family=None,
        twin="circular-interval-width-from-test-residuals-downscaling",
        split="holdout6",
        setup=_STATION,
        note="Split-conformal: the model is fitted on 1991-2010, the half-width is calibrated on "
        "2011-2015, and coverage is then checked once on the untouched 2016-2020 days.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            formula = ("tmax ~ t850 + z500_anom + rh + np.sin(2 * np.pi * doy / 365.25)"
                       " + np.cos(2 * np.pi * doy / 365.25)")
            fit_part = wx[wx.year <= 2010]
            calib = wx[(wx.year > 2010) & (wx.year <= 2015)]
            test = wx[wx.year > 2015]
            fit = smf.ols(formula, data=fit_part).fit()

            half_width = np.quantile(np.abs(calib.tmax - fit.predict(calib)), 0.90)
            resid = test.tmax - fit.predict(test)
            covered = (np.abs(resid) <= half_width).mean()
            print(f"downscaled tmax, test RMSE 2016-2020: {np.sqrt(np.mean(resid ** 2)):.2f} C")
            print(f"90% prediction interval (calibrated on 2011-2015): +/- {half_width:.2f} C, "
                  f"coverage on 2016-2020: {covered:.1%}")
        """),
    ),
    Case(
        id="circular-sfs-cv-points-at-test-hesitancy",
        family="circular_validation",
        twin="circular-sfs-cv-points-at-test-hesitancy-sound",
        split="holdout6",
        setup=_SURVEY,
        note="The forward selector's only 'fold' scores candidate items on the held-out "
        "respondents, so the 6-item screener is picked on the test rows that then report its AUC.",
        code=dedent("""\
            from sklearn.feature_selection import SequentialFeatureSelector
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split

            idx_tr, idx_te = train_test_split(np.arange(n), test_size=0.25, stratify=hesitant,
                                              random_state=3)
            logit = LogisticRegression(max_iter=1000)
            # validate each added item on the held-out respondents
            sfs = SequentialFeatureSelector(logit, n_features_to_select=6, scoring="roc_auc",
                                            cv=[(idx_tr, idx_te)])
            sfs.fit(items, hesitant)
            short_form = list(items.columns[sfs.get_support()])

            logit.fit(items.iloc[idx_tr][short_form], hesitant[idx_tr])
            auc = roc_auc_score(hesitant[idx_te],
                                logit.predict_proba(items.iloc[idx_te][short_form])[:, 1])
            print(f"6-item hesitancy screener: {short_form}")
            print(f"held-out ROC AUC = {auc:.3f}")
        """),
    ),
    Case(
        id="circular-sfs-cv-points-at-test-hesitancy-sound",
        family=None,
        twin="circular-sfs-cv-points-at-test-hesitancy",
        split="holdout6",
        setup=_SURVEY,
        note="Items are selected by 3-fold CV within the training respondents only; the chosen "
        "6-item screener is refitted on them and scored once on the held-out respondents.",
        code=dedent("""\
            from sklearn.feature_selection import SequentialFeatureSelector
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import StratifiedKFold, train_test_split

            idx_tr, idx_te = train_test_split(np.arange(n), test_size=0.25, stratify=hesitant,
                                              random_state=3)
            logit = LogisticRegression(max_iter=1000)
            sfs = SequentialFeatureSelector(
                logit, n_features_to_select=6, scoring="roc_auc",
                cv=StratifiedKFold(n_splits=3, shuffle=True, random_state=3))
            sfs.fit(items.iloc[idx_tr], hesitant[idx_tr])
            short_form = list(items.columns[sfs.get_support()])

            logit.fit(items.iloc[idx_tr][short_form], hesitant[idx_tr])
            auc = roc_auc_score(hesitant[idx_te],
                                logit.predict_proba(items.iloc[idx_te][short_form])[:, 1])
            print(f"6-item hesitancy screener: {short_form}")
            print(f"held-out ROC AUC = {auc:.3f}")
        """),
    ),
]
