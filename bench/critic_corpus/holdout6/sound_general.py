"""Ordinary sound analyses, holdout6: a Gutenberg-Richter b-value by Aki's maximum-likelihood
estimator above a completeness magnitude with a frequency-magnitude plot, a method-chain
summary of house sales (price per square foot by neighbourhood and year), four-parameter Hill
fits done once per independent experiment by a helper function with the EC50 summarised across
experiments, and four pre-specified urban/rural survey comparisons with a Holm correction."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-aki-bvalue-above-completeness",
        family=None,
        split="holdout6",
        note="Seeded synthetic catalogue; Mc by maximum curvature (+0.2), Aki-Utsu b-value with "
        "the bin correction and Shi-Bolt SE on the events above Mc, whose count is printed.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            from scipy.stats import norm

            rng = np.random.default_rng(6611)
            true_b = 1.0
            mags = 0.5 + rng.exponential(1 / (true_b * np.log(10)), 60_000)
            detected = rng.random(mags.size) < norm.cdf((mags - 1.4) / 0.15)  # network threshold
            catalogue = np.round(mags[detected], 1)

            dm = 0.1
            bins = np.round(np.arange(catalogue.min(), catalogue.max() + dm, dm), 1)
            counts = np.array([(catalogue == m).sum() for m in bins])
            mc = round(bins[counts.argmax()] + 0.2, 1)          # maximum curvature + 0.2
            above = catalogue[catalogue >= mc - 1e-9]
            n = above.size
            b = np.log10(np.e) / (above.mean() - (mc - dm / 2))
            se = 2.3 * b ** 2 * np.sqrt(((above - above.mean()) ** 2).sum() / (n * (n - 1)))
            a = np.log10(n) + b * mc

            cum = np.array([(catalogue >= m - 1e-9).sum() for m in bins])
            fig, ax = plt.subplots(figsize=(6, 4))
            ax.semilogy(bins, cum, "o", ms=3, label="cumulative count")
            fit_m = bins[bins >= mc]
            ax.semilogy(fit_m, 10 ** (a - b * fit_m), "-", label=f"b = {b:.2f}")
            ax.axvline(mc, ls="--", c="grey", label=f"Mc = {mc:.1f}")
            ax.set_xlabel("magnitude")
            ax.set_ylabel("N(M >= m)")
            ax.legend()
            print(f"{catalogue.size} located events, {n} at or above Mc = {mc:.1f}")
            print(f"b = {b:.3f} +/- {se:.3f} (Shi & Bolt), a = {a:.2f}")
        """),
    ),
    Case(
        id="sound-groupby-chain-price-per-sqft-neighbourhood",
        family=None,
        split="holdout6",
        note="Method chain over complete, seeded sales records: sales count, median price and "
        "median price per sq ft by neighbourhood and year, plus year-on-year change; descriptive.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(6612)
            n = 4200
            hoods = {"Old Town": 410, "Riverside": 330, "Hillcrest": 285, "Eastgate": 215}
            sales = pd.DataFrame({
                "neighbourhood": rng.choice(list(hoods), n, p=[0.2, 0.3, 0.3, 0.2]),
                "year": rng.choice([2021, 2022, 2023, 2024], n),
                "sqft": rng.normal(1650, 420, n).clip(550, 4200).round(-1),
            })
            base_ppsf = sales.neighbourhood.map(hoods) * 1.05 ** (sales.year - 2021)
            sales["price"] = (base_ppsf * sales.sqft * rng.lognormal(0, 0.12, n)).round(-3)

            by_hood_year = (sales
                            .assign(ppsf=lambda d: d.price / d.sqft)
                            .groupby(["neighbourhood", "year"])
                            .agg(sales=("price", "size"), median_price=("price", "median"),
                                 median_ppsf=("ppsf", "median"))
                            .round({"median_ppsf": 0}))
            print(f"{len(sales)} sales, missing values: {int(sales.isna().sum().sum())}")
            print(by_hood_year.unstack("year")[["sales", "median_ppsf"]])
            yoy = (by_hood_year.median_ppsf.unstack("year")
                   .pct_change(axis="columns").mul(100).round(1).iloc[:, 1:])
            print("year-on-year change in median $/sq ft (%):")
            print(yoy)
        """),
    ),
    Case(
        id="sound-hill-fit-per-experiment-ec50",
        family=None,
        split="holdout6",
        note="A 4PL curve is fitted separately to each of three independent experiments and the "
        "EC50 is summarised across experiments (n = 3) on the log scale, not across wells.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd
            from scipy import stats
            from scipy.optimize import curve_fit

            rng = np.random.default_rng(6613)
            conc_nm = np.logspace(-1, 3, 9)
            rows = []
            for exp, day_ec50 in zip(["exp1", "exp2", "exp3"], [38.0, 52.0, 44.0]):
                for c in conc_nm:
                    mean_resp = 4 + 92 / (1 + (day_ec50 / c) ** 1.1)
                    for well in range(3):
                        rows.append((exp, c, well, mean_resp + rng.normal(0, 4)))
            plate = pd.DataFrame(rows, columns=["experiment", "conc_nm", "well", "response_pct"])

            def hill(c, bottom, top, log_ec50, slope):
                return bottom + (top - bottom) / (1 + 10 ** ((log_ec50 - np.log10(c)) * slope))

            def fit_4pl(g):
                p, _ = curve_fit(hill, g.conc_nm, g.response_pct, p0=[0, 100, 1.5, 1.0],
                                 bounds=([-20, 50, -1, 0.2], [40, 150, 4, 5]))
                return dict(zip(["bottom", "top", "log_ec50", "slope"], p))

            fits = pd.DataFrame({exp: fit_4pl(g) for exp, g in plate.groupby("experiment")}).T
            fits["ec50_nm"] = 10 ** fits.log_ec50
            print(fits.round(2))

            log_ec50 = fits.log_ec50.to_numpy()
            k = len(log_ec50)
            half = stats.t.ppf(0.975, k - 1) * log_ec50.std(ddof=1) / np.sqrt(k)
            gm = 10 ** log_ec50.mean()
            print(f"EC50 geometric mean over {k} independent experiments: {gm:.1f} nM "
                  f"(95% CI {10 ** (log_ec50.mean() - half):.1f}-"
                  f"{10 ** (log_ec50.mean() + half):.1f} nM)")

            fig, ax = plt.subplots(figsize=(6, 4))
            grid = np.logspace(-1, 3, 200)
            for exp, g in plate.groupby("experiment"):
                ax.semilogx(g.conc_nm, g.response_pct, "o", ms=3, alpha=0.6)
                ax.semilogx(grid, hill(grid, *fits.loc[exp, ["bottom", "top", "log_ec50",
                                                           "slope"]]), label=exp)
            ax.set_xlabel("concentration (nM)")
            ax.set_ylabel("response (% of max)")
            ax.legend(title="experiment")
            fig.tight_layout()
        """),
    ),
    Case(
        id="sound-holm-urban-rural-survey-outcomes",
        family=None,
        split="holdout6",
        note="Four pre-specified urban/rural comparisons from an equal-probability sample, each "
        "a chi-square on a 2x2 table with large counts, Holm-adjusted as a family.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy.stats import chi2_contingency
            from statsmodels.stats.multitest import multipletests

            rng = np.random.default_rng(6614)
            n = 4000   # simple random sample of adults, so every respondent has equal weight
            survey = pd.DataFrame({"area": rng.choice(["urban", "rural"], n, p=[0.7, 0.3])})
            rural = (survey.area == "rural").to_numpy()
            rates = {"current_smoker": (0.15, 0.20), "obese_bmi30": (0.26, 0.31),
                     "flu_vaccinated": (0.48, 0.45), "five_a_day": (0.30, 0.29)}
            for outcome, (p_urban, p_rural) in rates.items():
                survey[outcome] = (rng.random(n) < np.where(rural, p_rural, p_urban)).astype(int)

            outcomes = list(rates)   # the four outcomes named in the analysis plan
            results = pd.DataFrame([
                {"outcome": o,
                 "urban_pct": 100 * survey.loc[~rural, o].mean(),
                 "rural_pct": 100 * survey.loc[rural, o].mean(),
                 "p_raw": chi2_contingency(pd.crosstab(survey.area, survey[o]))[1]}
                for o in outcomes
            ]).set_index("outcome")
            results["diff_pts"] = results.rural_pct - results.urban_pct
            reject, p_holm, _, _ = multipletests(results.p_raw, alpha=0.05, method="holm")
            results["p_holm"], results["significant"] = p_holm, reject
            print(f"n = {n} ({rural.sum()} rural), no missing answers: "
                  f"{not survey.isna().any().any()}")
            cols = ["urban_pct", "rural_pct", "diff_pts", "p_raw", "p_holm", "significant"]
            print(results[cols].round({"urban_pct": 1, "rural_pct": 1, "diff_pts": 1,
                                       "p_raw": 4, "p_holm": 4}))
        """),
    ),
]
