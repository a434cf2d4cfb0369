"""Ordinary sound analyses, holdout3: brewing EDA, a wind-turbine power-curve plot, library
loan summaries, an allometric log-log regression with robust errors, a seeded queue simulation
and per-station trend tests with a Benjamini-Hochberg correction."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-eda-brewing-batches",
        family=None,
        split="holdout3",
        note="Descriptive EDA of complete synthetic brew logs: missing-value check, batch "
        "counts per style and per-style summaries; no inference.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(1516)
            n = 480
            styles = rng.choice(["pilsner", "ipa", "stout", "wheat"], n, p=[0.35, 0.3, 0.15, 0.2])
            og = pd.Series(styles).map({"pilsner": 1.048, "ipa": 1.062, "stout": 1.070,
                                        "wheat": 1.050}) + rng.normal(0, 0.003, n)
            brews = pd.DataFrame({
                "style": styles,
                "original_gravity": og.round(4),
                "final_gravity": (1.010 + (og - 1.040) * 0.2 + rng.normal(0, 0.002, n)).round(4),
                "ferment_days": rng.integers(6, 16, n),
            })
            brews["abv_pct"] = ((brews.original_gravity - brews.final_gravity) * 131.25).round(2)
            print(f"{len(brews)} batches, missing values per column: "
                  f"{brews.isna().sum().to_dict()}")
            print(brews["style"].value_counts().to_string())
            brews.groupby("style")[["original_gravity", "abv_pct", "ferment_days"]].describe(
                percentiles=[0.5]).round(3).T
        """),
    ),
    Case(
        id="sound-plot-turbine-power-curve",
        family=None,
        split="holdout3",
        note="Scatter of seeded 10-minute SCADA records with a binned median power curve; the "
        "capacity factor is a plain descriptive average.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(2030)
            n = 4000
            wind = rng.weibull(2.1, n) * 8.5
            rated_kw = 3600
            ideal = rated_kw / (1 + np.exp(-(wind - 9.5) / 1.3))
            ideal = np.where((wind < 3) | (wind > 25), 0, ideal)
            scada = pd.DataFrame({"wind_ms": wind.round(2),
                                  "power_kw": (ideal + rng.normal(0, 80, n)).clip(0, rated_kw)})
            curve = (scada.groupby(pd.cut(scada.wind_ms, np.arange(0, 26, 1)), observed=True)
                     .agg(wind=("wind_ms", "median"), power=("power_kw", "median")))

            fig, ax = plt.subplots(figsize=(7, 4))
            ax.scatter(scada.wind_ms, scada.power_kw, s=3, alpha=0.25, label="10-min records")
            ax.plot(curve.wind, curve.power, color="k", lw=2, label="binned median")
            ax.set(xlabel="hub-height wind speed (m/s)", ylabel="active power (kW)",
                   title="Turbine T07 power curve")
            ax.legend()
            print(f"{len(scada)} records; capacity factor "
                  f"{scada.power_kw.mean() / rated_kw:.1%}; "
                  f"median wind {scada.wind_ms.median():.1f} m/s")
        """),
    ),
    Case(
        id="sound-groupby-library-loans",
        family=None,
        split="holdout3",
        note="Named-aggregation summary of complete synthetic library loans per branch and "
        "format (counts, shares, median loan length, overdue rate); descriptive only.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(451)
            n = 6000
            loans = pd.DataFrame({
                "branch": rng.choice(["Central", "Harbour", "Hillside", "Northgate"], n,
                                     p=[0.4, 0.2, 0.2, 0.2]),
                "format": rng.choice(["book", "ebook", "audiobook", "dvd"], n,
                                     p=[0.55, 0.25, 0.12, 0.08]),
                "days_out": rng.gamma(3, 6, n).round().astype(int) + 1,
            })
            loans["overdue"] = loans.days_out > 21
            summary = (loans.groupby(["branch", "format"])
                       .agg(loans=("days_out", "size"), median_days=("days_out", "median"),
                            overdue_rate=("overdue", "mean"))
                       .assign(share_of_branch=lambda d: d.loans
                               / d.groupby(level="branch").loans.transform("sum")))
            print(f"{len(loans)} loans, {loans.branch.nunique()} branches, none missing: "
                  f"{not loans.isna().any().any()}")
            summary.round(3)
        """),
    ),
    Case(
        id="sound-allometric-loglog-hc3",
        family=None,
        split="holdout3",
        note="Length-weight allometry fitted as log(weight) ~ log(length) (the standard "
        "linearisation) with HC3 robust errors; exponent and its CI reported, no prediction claim.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.formula.api as smf

            rng = np.random.default_rng(3003)
            n = 350
            length_cm = rng.uniform(18, 62, n)
            catch = pd.DataFrame({
                "length_cm": length_cm.round(1),
                "sex": rng.choice(["F", "M"], n),
                "weight_g": (0.011 * length_cm ** 3.05 * rng.lognormal(0, 0.08, n)).round(),
            })
            fit = smf.ols("np.log(weight_g) ~ np.log(length_cm) + C(sex)",
                          data=catch).fit(cov_type="HC3")
            b = fit.params["np.log(length_cm)"]
            lo, hi = fit.conf_int().loc["np.log(length_cm)"]
            print(fit.summary().tables[1])
            print(f"allometric exponent b = {b:.3f} (95% CI {lo:.3f}-{hi:.3f}); "
                  f"isometric growth (b = 3) {'inside' if lo <= 3 <= hi else 'outside'} the CI")
        """),
    ),
    Case(
        id="sound-seeded-security-queue-simulation",
        family=None,
        split="holdout3",
        note="Discrete-event simulation of airport security lanes driven by a seeded Generator; "
        "reproducible wait-time percentiles for 5 vs 6 open lanes.",
        code=dedent("""\
            import heapq

            import numpy as np
            import pandas as pd


            def simulate(lanes, n_pax=6000, arrivals_per_min=4.2, mean_service_min=1.1, seed=0):
                rng = np.random.default_rng(seed)
                arrive = np.cumsum(rng.exponential(1 / arrivals_per_min, n_pax))
                service = rng.gamma(2.0, mean_service_min / 2.0, n_pax)
                free_at = [0.0] * lanes
                heapq.heapify(free_at)
                waits = np.empty(n_pax)
                for i, (t, s) in enumerate(zip(arrive, service)):
                    start = max(t, heapq.heappop(free_at))
                    waits[i] = start - t
                    heapq.heappush(free_at, start + s)
                return waits


            rows = {}
            for lanes in (5, 6):
                w = simulate(lanes, seed=2024)
                rows[f"{lanes} lanes"] = {"mean_wait": w.mean(), "p50": np.median(w),
                                          "p95": np.percentile(w, 95),
                                          "share_over_10min": (w > 10).mean()}
            pd.DataFrame(rows).T.round(2)
        """),
    ),
    Case(
        id="sound-kendall-trends-bh-stations",
        family=None,
        split="holdout3",
        note="Kendall trend test of first-bloom day at each of 12 stations, with "
        "Benjamini-Hochberg adjusted p-values used for the verdicts.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            rng = np.random.default_rng(1234)
            years = np.arange(1990, 2024)
            trend = dict(zip([f"ST{i:02d}" for i in range(12)],
                             [-0.35, -0.3, -0.25, 0, 0, 0, 0, 0, 0, -0.2, 0, 0]))
            bloom = pd.DataFrame({st: 110 + slope * (years - 1990) + rng.normal(0, 5, len(years))
                                  for st, slope in trend.items()}, index=years)
            res = pd.DataFrame(
                [(st, *stats.kendalltau(bloom.index, bloom[st])) for st in bloom.columns],
                columns=["station", "tau", "p"],
            ).set_index("station")
            res["p_bh"] = multipletests(res.p, method="fdr_bh")[1]
            res["earlier_bloom"] = (res.p_bh < 0.05) & (res.tau < 0)
            print(f"{res.earlier_bloom.sum()} of {len(res)} stations show an earlier first bloom "
                  f"at FDR 5%")
            res.round(4)
        """),
    ),
]
