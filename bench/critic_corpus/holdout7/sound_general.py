"""Ordinary sound analyses, holdout7: an exoplanet-catalogue EDA that reports missing radii by
discovery method instead of dropping them, a method-chain summary of emergency-department
waits by arrival hour and triage category with the counts shown, a nitrogen-rate response
fitted once per plot in a randomised complete block design with the economic optimum rate, and
a LOWESS plot of daily electricity demand against temperature with the balance point read off."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-h7-exoplanet-catalogue-eda-missing-radii",
        family=None,
        split="holdout7",
        note="Seeded synthetic catalogue; counts, medians and the share of missing radii by "
        "discovery method are reported (radial-velocity planets have no radius), nothing dropped.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(8101)
            n = 1200
            method = rng.choice(["transit", "radial_velocity", "microlensing", "imaging"], n,
                                p=[0.72, 0.2, 0.05, 0.03])
            period_d = np.where(method == "transit", rng.lognormal(2.0, 1.1, n),
                                rng.lognormal(6.0, 1.5, n))
            radius_re = np.where(method == "transit", rng.lognormal(0.9, 0.7, n), np.nan)
            planets = pd.DataFrame({"method": method, "period_d": period_d.round(3),
                                    "radius_re": radius_re.round(2),
                                    "disc_year": rng.integers(1995, 2025, n)})

            summary = planets.groupby("method").agg(
                n=("period_d", "size"),
                median_period_d=("period_d", "median"),
                median_radius_re=("radius_re", "median"),
                radius_missing=("radius_re", lambda s: s.isna().mean()),
            )
            fig, ax = plt.subplots(figsize=(6, 4))
            for m, grp in planets.groupby("method"):
                ax.hist(np.log10(grp.period_d), bins=30, histtype="step", label=f"{m} ({len(grp)})")
            ax.set_xlabel("log10 orbital period [d]")
            ax.set_ylabel("planets")
            ax.legend()

            print(summary.round(2).to_string())
            print(f"{len(planets)} planets, {planets.radius_re.isna().sum()} without a radius")
        """),
    ),
    Case(
        id="sound-h7-ed-waits-by-hour-and-triage-chain",
        family=None,
        split="holdout7",
        note="Descriptive method chain over complete seeded ED records: median and 90th "
        "percentile wait by arrival period and triage category, with the number of visits.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(8102)
            n = 5000
            ed = pd.DataFrame({
                "arrival": pd.Timestamp("2024-03-01") + pd.to_timedelta(
                    rng.uniform(0, 60 * 24 * 60, n), unit="min"),
                "triage": rng.choice(["1-immediate", "2-very urgent", "3-urgent", "4-standard"],
                                     n, p=[0.04, 0.2, 0.46, 0.3]),
            })
            base = ed.triage.map({"1-immediate": 2, "2-very urgent": 12, "3-urgent": 45,
                                  "4-standard": 80})
            evening = ed.arrival.dt.hour.between(17, 23)
            ed["wait_min"] = (base * rng.lognormal(0, 0.6, n) * np.where(evening, 1.4, 1.0)).round()

            table = (ed
                     .assign(period=pd.cut(ed.arrival.dt.hour, [0, 8, 17, 24], right=False,
                                           labels=["night 00-08", "day 08-17", "evening 17-24"]))
                     .groupby(["triage", "period"], observed=True)["wait_min"]
                     .agg(visits="size", median="median", p90=lambda s: s.quantile(0.9))
                     .round(1))
            print(table.to_string())
            print(f"total visits summarised: {int(table.visits.sum())} of {len(ed)}")
        """),
    ),
    Case(
        id="sound-h7-nitrogen-quadratic-rcbd-optimum",
        family=None,
        split="holdout7",
        note="One yield per plot in a 4-block x 6-rate RCBD, quadratic response with block "
        "effects by OLS, residual check, and the economic optimum N rate from the fitted curve.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.formula.api as smf
            from scipy import stats

            rng = np.random.default_rng(8103)
            rates = [0, 40, 80, 120, 160, 200]                     # kg N / ha
            plots = pd.DataFrame([(b, r) for b in "ABCD" for r in rng.permutation(rates)],
                                 columns=["block", "n_rate"])
            block_eff = plots.block.map({"A": 0.3, "B": -0.2, "C": 0.1, "D": -0.2})
            plots["yield_t"] = (6.2 + 0.028 * plots.n_rate - 0.00008 * plots.n_rate ** 2
                                + block_eff + rng.normal(0, 0.35, len(plots))).round(2)

            fit = smf.ols("yield_t ~ C(block) + n_rate + I(n_rate ** 2)", data=plots).fit()
            b1, b2 = fit.params["n_rate"], fit.params["I(n_rate ** 2)"]
            price_ratio = 1.1 / 200.0      # (EUR per kg N) / (EUR per t grain) = t grain per kg N
            eonr = (price_ratio - b1) / (2 * b2)                   # where marginal yield = ratio
            print(fit.summary().tables[1])
            print(f"R^2 = {fit.rsquared:.3f}, Shapiro-Wilk on residuals "
                  f"p = {stats.shapiro(fit.resid).pvalue:.2f} (n = {int(fit.nobs)} plots)")
            print(f"economic optimum N rate = {eonr:.0f} kg N/ha")
        """),
    ),
    Case(
        id="sound-h7-demand-temperature-lowess-balance-point",
        family=None,
        split="holdout7",
        note="Seeded daily demand vs temperature with a LOWESS smoother and the balance point "
        "(temperature of minimum smoothed demand) read off; descriptive, no inference claimed.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            from statsmodels.nonparametric.smoothers_lowess import lowess

            rng = np.random.default_rng(8104)
            day = np.arange(730)
            temp_c = 11 + 9 * np.sin(2 * np.pi * (day - 110) / 365) + rng.normal(0, 3, day.size)
            demand_gwh = (640 + 9.0 * np.clip(15.5 - temp_c, 0, None)
                          + 6.0 * np.clip(temp_c - 21, 0, None) - 40 * (day % 7 >= 5)
                          + rng.normal(0, 15, day.size))

            smooth = lowess(demand_gwh, temp_c, frac=0.3)
            balance_c = smooth[smooth[:, 1].argmin(), 0]
            fig, ax = plt.subplots(figsize=(6, 4))
            ax.scatter(temp_c, demand_gwh, s=6, alpha=0.4, label="daily demand")
            ax.plot(smooth[:, 0], smooth[:, 1], c="k", label="LOWESS (frac 0.3)")
            ax.axvline(balance_c, ls="--", c="grey")
            ax.set_xlabel("daily mean temperature [C]")
            ax.set_ylabel("demand [GWh]")
            ax.legend()
            print(f"{day.size} days; smoothed demand is lowest at {balance_c:.1f} C "
                  f"({smooth[:, 1].min():.0f} GWh)")
        """),
    ),
]
