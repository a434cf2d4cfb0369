"""Sound general analyses, holdout10: bathing-water EDA with exceedance counts, ferry ridership
groupby with a plot, a rooftop-solar OLS with robust errors, a chi-square test of composting on
allotment plots, and a properly cross-validated ridge pipeline for ice-rink energy use."""

from textwrap import dedent

from bench.critic_corpus import Case

_BEACH = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_101)
beaches = ["North Bay", "Harbour", "Sandcliff", "Westmouth", "Pebble Cove"]
dates = pd.date_range("2024-05-15", "2024-09-30", freq="7D")
rows = []
for b, mu in zip(beaches, [3.4, 4.6, 3.1, 3.9, 3.6]):
    ec = np.exp(rng.normal(mu, 1.0, len(dates))).round()
    ec[rng.random(len(dates)) < 0.04] = np.nan
    rows.append(pd.DataFrame({"beach": b, "date": dates, "e_coli_cfu": ec,
                              "rain_48h_mm": rng.gamma(0.6, 6, len(dates)).round(1)}))
water = pd.concat(rows, ignore_index=True)
"""

_FERRY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_102)
days = pd.date_range("2023-01-01", "2023-12-31", freq="D")
routes = {"Mainland-Isle": 820, "Isle-Skerry": 140, "Harbour Shuttle": 390}
rows = []
for route, base in routes.items():
    season = 1 + 0.55 * np.sin((days.dayofyear - 110) / 365 * 2 * np.pi)
    weekend = np.where(days.dayofweek >= 5, 1.25, 1.0)
    pax = rng.poisson(base * season * weekend)
    rows.append(pd.DataFrame({"date": days, "route": route, "passengers": pax}))
sailings = pd.concat(rows, ignore_index=True)
"""

_SOLAR = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_103)
n = 220
roofs = pd.DataFrame({
    "tilt_deg": rng.uniform(10, 45, n).round(),
    "azimuth_dev_deg": np.abs(rng.normal(0, 35, n)).round(),
    "shading_pct": np.clip(rng.gamma(1.2, 6, n), 0, 60).round(1),
    "kwp": rng.choice([3.0, 4.0, 5.0, 6.0, 8.0], n),
    "inverter": rng.choice(["string", "micro", "optimiser"], n, p=[0.6, 0.25, 0.15]),
})
roofs["kwh_per_kwp"] = (1050 - 2.2 * np.abs(roofs["tilt_deg"] - 35)
                        - 1.6 * roofs["azimuth_dev_deg"] - 6.5 * roofs["shading_pct"]
                        + roofs["inverter"].map({"string": 0, "micro": 18, "optimiser": 12})
                        + rng.normal(0, 45, n) * (1 + roofs["shading_pct"] / 30)).round()
"""

_ALLOT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_104)
n = 410
site = rng.choice(["Elm Road", "Canal Side", "Hilltop"], n, p=[0.4, 0.35, 0.25])
p_comp = np.select([site == "Elm Road", site == "Canal Side"], [0.62, 0.48], 0.55)
plots = pd.DataFrame({"plot": [f"P{i:03d}" for i in range(n)], "site": site,
                      "composts": rng.random(n) < p_comp,
                      "years_held": rng.integers(1, 25, n)})
"""

_RINK = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_105)
n = 365
rink = pd.DataFrame({
    "outdoor_temp_c": 10 + 12 * np.sin((np.arange(n) - 105) / 365 * 2 * np.pi)
    + rng.normal(0, 3, n),
    "humidity_pct": rng.uniform(35, 90, n).round(),
    "skating_hours": rng.integers(4, 15, n),
    "resurfacings": rng.integers(3, 10, n),
    "hockey_games": rng.poisson(1.2, n),
})
rink["kwh"] = (2400 + 55 * rink["outdoor_temp_c"] + 6 * rink["humidity_pct"]
               + 40 * rink["resurfacings"] + 25 * rink["skating_hours"]
               + rng.normal(0, 160, n)).round()
"""

CASES: list[Case] = [
    Case(
        id="sound_general-h10-beach-ecoli-eda",
        family=None,
        split="holdout10",
        setup=_BEACH,
        note="Descriptive summary of weekly E. coli samples per beach using medians and "
        "geometric means for skewed counts, with missing samples counted and reported.",
        code=dedent("""\
            summary = water.groupby("beach").agg(
                samples=("date", "size"),
                missing=("e_coli_cfu", lambda s: s.isna().sum()),
                median_cfu=("e_coli_cfu", "median"),
                geo_mean_cfu=("e_coli_cfu", lambda s: np.exp(np.log(s.dropna()).mean())),
                over_500=("e_coli_cfu", lambda s: (s > 500).sum()),
            )
            summary["pct_over_500"] = 100 * summary["over_500"] / (summary["samples"]
                                                                 - summary["missing"])
            print(f"{len(water)} scheduled samples, {water['e_coli_cfu'].isna().sum()} not "
                  "analysed (lab or weather)")
            summary.round(1)
        """),
    ),
    Case(
        id="sound_general-h10-ferry-monthly-ridership",
        family=None,
        split="holdout10",
        setup=_FERRY,
        note="Monthly passenger totals per route by groupby and pivot, with a line plot; purely "
        "descriptive and complete.",
        code=dedent("""\
            import matplotlib.pyplot as plt

            monthly = (sailings.assign(month=sailings["date"].dt.to_period("M"))
                       .pivot_table(index="month", columns="route", values="passengers",
                                    aggfunc="sum"))
            fig, ax = plt.subplots(figsize=(8, 4))
            monthly.plot(ax=ax, marker="o")
            ax.set_ylabel("passengers per month")
            ax.set_title("Ferry ridership by route, 2023")
            fig.tight_layout()
            peak = monthly.idxmax()
            print("peak month by route:", {r: str(m) for r, m in peak.items()})
            print(f"annual total: {int(monthly.to_numpy().sum()):,} passengers")
            monthly.tail(3)
        """),
    ),
    Case(
        id="sound_general-h10-solar-yield-ols-hc3",
        family=None,
        split="holdout10",
        setup=_SOLAR,
        note="OLS of specific yield on roof geometry, shading and inverter type with "
        "heteroskedasticity-robust (HC3) standard errors, since residual spread grows with "
        "shading.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            roofs["tilt_off_35"] = (roofs["tilt_deg"] - 35).abs()
            fit = smf.ols("kwh_per_kwp ~ tilt_off_35 + azimuth_dev_deg + shading_pct"
                          " + C(inverter)", data=roofs).fit(cov_type="HC3")
            table = pd.DataFrame({"coef": fit.params, "se_hc3": fit.bse,
                                  "p": fit.pvalues}).round(3)
            print(f"n = {int(fit.nobs)}, adj. R^2 = {fit.rsquared_adj:.3f}")
            table
        """),
    ),
    Case(
        id="sound_general-h10-allotment-composting-chi2",
        family=None,
        split="holdout10",
        setup=_ALLOT,
        note="A single pre-specified chi-square test of composting by site on independent plots, "
        "with expected counts checked and Cramer's V reported.",
        code=dedent("""\
            from scipy.stats import chi2_contingency

            tab = pd.crosstab(plots["site"], plots["composts"])
            chi2, p, dof, expected = chi2_contingency(tab)
            v = np.sqrt(chi2 / (tab.to_numpy().sum() * (min(tab.shape) - 1)))
            print(tab)
            print(f"smallest expected count: {expected.min():.1f}")
            print(f"chi2({dof}) = {chi2:.2f}, p = {p:.3f}, Cramer's V = {v:.3f}")
            print(plots.groupby("site")["composts"].mean().round(3).to_string())
        """),
    ),
    Case(
        id="sound_general-h10-rink-energy-ridge-cv",
        family=None,
        split="holdout10",
        setup=_RINK,
        note="Scaling and ridge are wrapped in one pipeline and evaluated by seeded 5-fold "
        "cross-validation on features known before the day's energy reading.",
        code=dedent("""\
            from sklearn.linear_model import Ridge
            from sklearn.model_selection import KFold, cross_validate
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = rink.drop(columns="kwh")
            y = rink["kwh"]
            pipe = make_pipeline(StandardScaler(), Ridge(alpha=1.0))
            cv = cross_validate(pipe, X, y, cv=KFold(5, shuffle=True, random_state=12),
                                scoring=("r2", "neg_mean_absolute_error"))
            print(f"daily energy model, 5-fold CV: R^2 = {cv['test_r2'].mean():.3f}, "
                  f"MAE = {-cv['test_neg_mean_absolute_error'].mean():.0f} kWh "
                  f"(mean day {y.mean():.0f} kWh)")
        """),
    ),
]
