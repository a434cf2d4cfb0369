"""Correlation misuse, holdout3 idioms: np.corrcoef/np.polyfit of call volume on the 0-6
weekday code, an OLS formula with a 1-5 star rating as the response, and sklearn's
OrdinalEncoder + f_regression/r_regression ranking nominal household attributes."""

from textwrap import dedent

from bench.critic_corpus import Case

_CALLS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7070)
days = pd.date_range("2023-01-02", periods=728, freq="D")
# travel-booking hotline: Sunday-evening and Monday peaks, quiet Saturdays
weekday_level = np.array([1450, 1120, 980, 1010, 1180, 640, 1380])
calls = pd.DataFrame({"volume": rng.poisson(weekday_level[days.dayofweek]
                                            * rng.normal(1, 0.08, len(days)))}, index=days)
"""

_STARS = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(1)
n = 1200
survey = pd.DataFrame({
    "latency_ms": rng.gamma(4, 20, n).round(),
    "dropped_calls": rng.poisson(1, n),
    "plan": rng.choice(["prepaid", "postpaid", "business"], n),
})
latent = (-0.02 * survey.latency_ms - 0.5 * survey.dropped_calls
          + survey.plan.map({"prepaid": 0, "postpaid": 0.3, "business": 0.6})
          + rng.logistic(0, 1, n))
# in-app "rate your network" prompt, 1-5 stars
survey["stars"] = pd.cut(latent, [-np.inf, -4.5, -3.2, -2.6, -0.5, np.inf],
                         labels=[1, 2, 3, 4, 5]).astype(int)
"""

_HOMES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2525)
n = 900
homes = pd.DataFrame({
    "heating": rng.choice(["district", "electric", "gas", "heat_pump", "oil"], n),
    "dwelling": rng.choice(["apartment", "detached", "semi", "terrace"], n),
    "region": rng.choice(["coastal", "inland", "mountain"], n),
    "floor_m2": rng.normal(110, 30, n).clip(35).round(),
    "occupants": rng.integers(1, 6, n),
})
heat = homes.heating.map({"district": 9000, "electric": 14000, "gas": 12500,
                          "heat_pump": 5000, "oil": 15500})
dwell = homes.dwelling.map({"apartment": 0.8, "detached": 1.25, "semi": 1.05, "terrace": 0.95})
homes["kwh_year"] = (heat * dwell + 30 * homes.floor_m2 + 600 * homes.occupants
                     + rng.normal(0, 1500, n)).round()
"""

CASES: list[Case] = [
    Case(
        id="corr-weekday-code-call-volume",
        family="correlation_misuse",
        twin="corr-weekday-code-call-volume-sound",
        split="holdout3",
        setup=_CALLS,
        note="Pearson r and a fitted slope between the day-of-week code (0=Mon ... 6=Sun, a "
        "cyclic category) and call volume: r near 0 hides a strong weekday pattern.",
        code=dedent("""\
            dow = calls.index.dayofweek.to_numpy()        # 0 = Monday ... 6 = Sunday
            volume = calls.volume.to_numpy()
            r = np.corrcoef(dow, volume)[0, 1]
            slope, intercept = np.polyfit(dow, volume, deg=1)
            print(f"weekday vs call volume: r = {r:.2f}, slope {slope:+.1f} calls per weekday")
            print("weekday explains little of the volume -> staff evenly across the week"
                  if abs(r) < 0.3 else "strong weekday trend")
        """),
    ),
    Case(
        id="corr-weekday-code-call-volume-sound",
        family=None,
        twin="corr-weekday-code-call-volume",
        split="holdout3",
        setup=_CALLS,
        note="Weekday treated as a category: median volume per weekday and a Kruskal-Wallis "
        "test across the seven days; no numeric order is assumed.",
        code=dedent("""\
            from scipy import stats

            by_day = calls.groupby(calls.index.day_name(), sort=False).volume
            print(by_day.median().astype(int).to_string())
            h, p = stats.kruskal(*(g for _, g in by_day))
            print(f"Kruskal-Wallis across weekdays: H = {h:.0f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="corr-ols-star-rating-response",
        family="correlation_misuse",
        twin="corr-ols-star-rating-response-sound",
        split="holdout3",
        setup=_STARS,
        note="OLS with the 1-5 star rating as a numeric response: treats the ordinal stars as "
        "equally spaced and reports 'stars lost per 100 ms'.",
        code=dedent("""\
            fit = smf.ols("stars ~ latency_ms + dropped_calls + C(plan)", data=survey).fit()
            print(fit.params.round(4).to_string())
            print(f"R^2 = {fit.rsquared:.3f}; every extra 100 ms of latency costs "
                  f"{-100 * fit.params['latency_ms']:.2f} stars, each dropped call "
                  f"{-fit.params['dropped_calls']:.2f} stars")
        """),
    ),
    Case(
        id="corr-ols-star-rating-response-sound",
        family=None,
        twin="corr-ols-star-rating-response",
        split="holdout3",
        setup=_STARS,
        note="Proportional-odds (ordinal logit) model for the 1-5 stars via statsmodels "
        "OrderedModel; effects reported as odds ratios, no equal spacing assumed.",
        code=dedent("""\
            from statsmodels.miscmodels.ordinal_model import OrderedModel

            survey["stars_ord"] = pd.Categorical(survey.stars, ordered=True)
            fit = OrderedModel.from_formula("stars_ord ~ latency_ms + dropped_calls + C(plan)",
                                            data=survey, distr="logit").fit(method="bfgs",
                                                                           disp=False)
            effects = fit.params.iloc[: -(fit.model.k_levels - 1)]   # drop the 4 cut-points
            print(np.exp(effects).round(3).to_string())
            print(f"odds ratio of a higher rating per extra 100 ms of latency: "
                  f"{np.exp(100 * fit.params['latency_ms']):.2f}")
        """),
    ),
    Case(
        id="corr-ordinalencoder-f-regression-homes",
        family="correlation_misuse",
        twin="corr-ordinalencoder-f-regression-homes-sound",
        split="holdout3",
        setup=_HOMES,
        note="Nominal heating/dwelling/region are OrdinalEncoded (alphabetical codes) and ranked "
        "by linear r / F-tests against consumption: heating type, the biggest driver, looks weak.",
        code=dedent("""\
            from sklearn.feature_selection import f_regression, r_regression
            from sklearn.preprocessing import OrdinalEncoder

            nominal = ["heating", "dwelling", "region"]
            X = homes[nominal + ["floor_m2", "occupants"]].copy()
            X[nominal] = OrdinalEncoder().fit_transform(X[nominal])
            F, p = f_regression(X, homes.kwh_year)
            ranking = pd.DataFrame({"r": r_regression(X, homes.kwh_year), "F": F, "p": p},
                                   index=X.columns).sort_values("F", ascending=False)
            ranking.round(4)
        """),
    ),
    Case(
        id="corr-ordinalencoder-f-regression-homes-sound",
        family=None,
        twin="corr-ordinalencoder-f-regression-homes",
        split="holdout3",
        setup=_HOMES,
        note="Nominal attributes enter an OLS formula as factors (C()); a type-II ANOVA table "
        "with partial eta-squared ranks all five drivers on a common footing.",
        code=dedent("""\
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            fit = smf.ols("kwh_year ~ C(heating) + C(dwelling) + C(region) + floor_m2 + occupants",
                          data=homes).fit()
            table = sm.stats.anova_lm(fit, typ=2)
            resid_ss = table.loc["Residual", "sum_sq"]
            ranking = (table.drop(index="Residual")
                       .assign(partial_eta2=lambda t: t.sum_sq / (t.sum_sq + resid_ss))
                       .sort_values("partial_eta2", ascending=False))
            ranking[["df", "F", "PR(>F)", "partial_eta2"]].round(4)
        """),
    ),
]
