"""Ordinary sound analyses, holdout9: an EDA of daily volcanic SO2 fluxes that reports missing
days per scanner, a ski-resort visits summary by month and pass type with counts and a plot, a
bakery sales regression with HAC standard errors, a greenhouse LED trial compared on bench means
with Welch's t-test, and a parking-appeals chi-square test with its expected counts shown."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-h9-volcano-so2-eda-missing-days",
        family=None,
        split="holdout9",
        note="Descriptive EDA: missing scanner-days are counted and reported per scanner, "
        "medians and quantiles describe the skewed fluxes, and a plot is drawn.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(10101)
            days = pd.date_range("2023-01-01", "2023-12-31", freq="D")
            frames = []
            for scanner, scale in [("NE-rim", 1.0), ("S-flank", 0.8), ("W-saddle", 1.15)]:
                flux = scale * rng.lognormal(np.log(900), 0.6, len(days))
                flux[rng.random(len(days)) < rng.uniform(0.05, 0.25)] = np.nan  # cloud, power
                frames.append(pd.DataFrame({"date": days, "scanner": scanner,
                                            "so2_t_day": flux.round()}))
            so2 = pd.concat(frames, ignore_index=True)
        """),
        code=dedent("""\
            import matplotlib.pyplot as plt

            coverage = so2.groupby("scanner")["so2_t_day"].agg(
                days="size", valid="count", missing=lambda s: s.isna().sum())
            coverage["missing_pct"] = (coverage["missing"] / coverage["days"] * 100).round(1)
            print(coverage)

            stats_ = so2.groupby("scanner")["so2_t_day"].describe(percentiles=[0.1, 0.5, 0.9])
            print(stats_[["count", "10%", "50%", "90%", "max"]].round(0))

            monthly = (so2.set_index("date").groupby("scanner")["so2_t_day"]
                       .resample("MS").median().unstack(0))
            ax = monthly.plot(marker="o", figsize=(8, 3.5))
            ax.set_ylabel("median SO2 flux (t/day)")
            ax.set_title("Monthly median SO2 flux by scanner (valid days only)")
            plt.tight_layout()
        """),
    ),
    Case(
        id="sound-h9-ski-visits-month-pass-summary",
        family=None,
        split="holdout9",
        note="Plain groupby/pivot summary of lift-ticket scans with counts alongside shares, "
        "and a stacked bar chart; nothing is tested or dropped.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(10102)
            n = 12_000
            month = rng.choice(["Dec", "Jan", "Feb", "Mar", "Apr"], n,
                               p=[0.18, 0.27, 0.28, 0.2, 0.07])
            scans = pd.DataFrame({
                "month": pd.Categorical(month, ["Dec", "Jan", "Feb", "Mar", "Apr"],
                                        ordered=True),
                "pass_type": rng.choice(["season", "day", "multi-day", "child"], n,
                                        p=[0.35, 0.3, 0.25, 0.1]),
                "lift_rides": rng.poisson(9, n) + 1,
            })
        """),
        code=dedent("""\
            import matplotlib.pyplot as plt

            visits = scans.pivot_table(index="month", columns="pass_type", values="lift_rides",
                                       aggfunc="size", observed=True)
            shares = visits.div(visits.sum(axis=1), axis=0).round(3)
            rides = scans.groupby("month", observed=True)["lift_rides"].agg(["count", "mean"])
            print(visits)
            print(shares)
            print(rides.round(2))

            ax = visits.plot(kind="bar", stacked=True, figsize=(7, 3.5))
            ax.set_ylabel("skier visits (scans)")
            ax.set_title("Visits by month and pass type")
            plt.tight_layout()
        """),
    ),
    Case(
        id="sound-h9-bakery-sales-ols-hac",
        family=None,
        split="holdout9",
        note="A pre-specified daily sales regression with Newey-West (HAC) standard errors for "
        "the serially correlated daily errors; no selection, no test-set reuse.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(10103)
            days = pd.date_range("2023-03-01", periods=400, freq="D")
            temp = 12 + 9 * np.sin(2 * np.pi * (days.dayofyear - 105) / 365) + rng.normal(0, 3, 400)
            weekend = (days.dayofweek >= 5).astype(int)
            holiday = (rng.random(400) < 0.03).astype(int)
            noise = np.zeros(400)
            for t in range(1, 400):
                noise[t] = 0.5 * noise[t - 1] + rng.normal(0, 14)
            sales = pd.DataFrame({
                "date": days, "temp_c": temp.round(1), "weekend": weekend, "holiday": holiday,
                "croissants": (210 - 2.2 * temp + 65 * weekend + 40 * holiday + noise).round(),
            })
        """),
        code=dedent("""\
            import statsmodels.formula.api as smf

            model = smf.ols("croissants ~ temp_c + weekend + holiday", data=sales)
            fit = model.fit(cov_type="HAC", cov_kwds={"maxlags": 7})
            table = pd.DataFrame({"coef": fit.params, "se_hac": fit.bse,
                                  "ci_low": fit.conf_int()[0], "ci_high": fit.conf_int()[1]})
            print(table.round(2))
            print(f"n = {int(fit.nobs)} days, R^2 = {fit.rsquared:.3f}")
        """),
    ),
    Case(
        id="sound-h9-greenhouse-led-bench-welch",
        family=None,
        split="holdout9",
        note="The LED spectrum was randomised to benches, so plant yields are averaged per "
        "bench first and the 12 vs 12 bench means are compared with Welch's t-test.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(10104)
            benches = pd.DataFrame({"bench": [f"B{i:02d}" for i in range(24)],
                                    "spectrum": rng.permutation(["red_blue"] * 12
                                                                + ["full"] * 12)})
            benches["bench_effect"] = rng.normal(0, 0.12, 24)
            plants = benches.loc[benches.index.repeat(20)].reset_index(drop=True)
            plants["yield_kg"] = (2.4 + 0.15 * plants.spectrum.eq("full") + plants.bench_effect
                                  + rng.normal(0, 0.3, len(plants))).round(3)
            plants = plants.drop(columns="bench_effect")
        """),
        code=dedent("""\
            from scipy import stats

            bench_means = plants.groupby(["bench", "spectrum"], as_index=False)["yield_kg"].mean()
            full = bench_means.loc[bench_means.spectrum.eq("full"), "yield_kg"]
            red_blue = bench_means.loc[bench_means.spectrum.eq("red_blue"), "yield_kg"]
            res = stats.ttest_ind(full, red_blue, equal_var=False)
            ci = res.confidence_interval()
            summary = bench_means.groupby("spectrum")["yield_kg"].agg(["count", "mean", "std"])
            print(summary.round(3))
            print(f"full - red/blue: {full.mean() - red_blue.mean():+.3f} kg per plant "
                  f"(95% CI {ci.low:+.3f} to {ci.high:+.3f}), t = {res.statistic:.2f}, "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="sound-h9-parking-appeals-chi-square",
        family=None,
        split="holdout9",
        note="One chi-square test of independence on a 3x2 table of appeals, with every "
        "expected count well above 5 printed alongside the result.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(10105)
            n = 1800
            ticket = rng.choice(["meter expired", "no permit", "loading bay"], n, p=[0.5, 0.3, 0.2])
            p_win = np.select([ticket == "meter expired", ticket == "no permit"], [0.22, 0.3], 0.38)
            appeals = pd.DataFrame({"ticket_type": ticket,
                                    "outcome": np.where(rng.random(n) < p_win, "cancelled",
                                                       "upheld")})
        """),
        code=dedent("""\
            from scipy.stats import chi2_contingency

            table = pd.crosstab(appeals["ticket_type"], appeals["outcome"])
            res = chi2_contingency(table)
            expected = pd.DataFrame(res.expected_freq, index=table.index, columns=table.columns)
            print(table)
            print("expected counts:")
            print(expected.round(1))
            rate = table["cancelled"] / table.sum(axis=1)
            print(rate.round(3).rename("share cancelled on appeal"))
            print(f"chi2 = {res.statistic:.2f}, dof = {res.dof}, p = {res.pvalue:.2g}")
        """),
    ),
]
