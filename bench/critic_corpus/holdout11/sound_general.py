"""Sound general analyses, holdout11: pottery kiln shrinkage regression, parking-ticket appeals
contingency test, bakery waste summary with a plot, aquarium water-chemistry EDA, and
escape-room completion times compared with a rank test."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-h11-kiln-shrinkage-ols-robust",
        family=None,
        split="holdout11",
        note="OLS of firing shrinkage on peak temperature, hold time and clay body with HC3 "
        "robust SEs; residuals are reasonable and the sample is large.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            import statsmodels.formula.api as smf

            rng = np.random.default_rng(11_101)
            n = 240
            firings = pd.DataFrame({
                "peak_c": rng.normal(1240, 25, n).round(),
                "hold_min": rng.choice([0, 10, 20, 30], n),
                "clay": rng.choice(["stoneware", "porcelain", "earthenware"], n),
            })
            firings["shrink_pct"] = (11.5 + 0.02 * (firings["peak_c"] - 1240)
                                     + 0.03 * firings["hold_min"]
                                     + firings["clay"].map({"stoneware": 0, "porcelain": 2.1,
                                                            "earthenware": -3.2})
                                     + rng.normal(0, 0.6, n)).round(2)

            fit = smf.ols("shrink_pct ~ peak_c + hold_min + C(clay)", data=firings).fit(
                cov_type="HC3")
            table = pd.DataFrame({"coef": fit.params, "se": fit.bse, "p": fit.pvalues})
            print(table.round(4))
            print(f"n = {int(fit.nobs)}, adj R2 = {fit.rsquared_adj:.3f}")
        """),
    ),
    Case(
        id="sound-h11-parking-appeals-chi2",
        family=None,
        split="holdout11",
        note="Chi-square test of independence on a borough x appeal-outcome table with large "
        "expected counts, reported with Cramer's V.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy.stats import chi2_contingency

            rng = np.random.default_rng(11_102)
            borough = rng.choice(["Central", "Riverside", "Hillcrest", "Docklands"], 2600)
            p_win = pd.Series(borough).map({"Central": .31, "Riverside": .27, "Hillcrest": .36,
                                            "Docklands": .29})
            outcome = np.where(rng.random(2600) < p_win, "upheld", "rejected")
            tab = pd.crosstab(borough, outcome)
            chi2, p, dof, expected = chi2_contingency(tab)
            v = np.sqrt(chi2 / (tab.to_numpy().sum() * (min(tab.shape) - 1)))
            print(tab.assign(upheld_rate=(tab["upheld"] / tab.sum(axis=1)).round(3)))
            print(f"min expected count {expected.min():.0f}")
            print(f"chi2({dof}) = {chi2:.2f}, p = {p:.4f}, Cramer's V = {v:.3f}")
        """),
    ),
    Case(
        id="sound-h11-bakery-waste-groupby-plot",
        family=None,
        split="holdout11",
        note="Descriptive weekday x product summary of unsold loaves with a bar chart; no "
        "inference is claimed.",
        code=dedent("""\
            import matplotlib.pyplot as plt
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(11_103)
            days = pd.date_range("2024-03-04", periods=84, freq="D")
            products = ["sourdough", "baguette", "rye", "croissant"]
            waste = pd.DataFrame([
                {"date": d, "product": p, "baked": 60,
                 "unsold": rng.binomial(60, 0.08 + 0.06 * (d.dayofweek >= 5)
                                        + 0.03 * (p == "rye"))}
                for d in days for p in products
            ])
            waste["weekday"] = waste["date"].dt.day_name().str[:3]
            order = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            share = (waste.groupby(["weekday", "product"])[["unsold", "baked"]].sum()
                     .eval("unsold / baked").unstack().reindex(order))
            print(share.round(3))

            fig, ax = plt.subplots(figsize=(8, 4))
            share.plot.bar(ax=ax)
            ax.set_ylabel("share of bake unsold")
            ax.set_title("Unsold share by weekday, 12 weeks")
            fig.tight_layout()
        """),
    ),
    Case(
        id="sound-h11-aquarium-water-eda",
        family=None,
        split="holdout11",
        note="EDA of tank water chemistry that reports missing readings per column and uses "
        "medians/quantiles for skewed nitrate; nothing is dropped silently.",
        code=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(11_104)
            n = 365
            tanks = pd.DataFrame({
                "tank": rng.choice(["reef-A", "reef-B", "freshwater-C"], n),
                "ph": rng.normal(8.1, 0.12, n),
                "nitrate_ppm": rng.lognormal(1.6, 0.7, n),
                "temp_c": rng.normal(25.5, 0.6, n),
            })
            tanks.loc[rng.random(n) < 0.07, "nitrate_ppm"] = np.nan
            tanks.loc[rng.random(n) < 0.03, "ph"] = np.nan

            print("missing readings:", tanks.isna().sum().to_dict())
            summary = tanks.groupby("tank").agg(
                days=("ph", "size"), ph_median=("ph", "median"),
                nitrate_median=("nitrate_ppm", "median"),
                nitrate_p90=("nitrate_ppm", lambda s: s.quantile(0.9)),
                nitrate_n=("nitrate_ppm", "count"), temp_mean=("temp_c", "mean"))
            summary.round(2)
        """),
    ),
    Case(
        id="sound-h11-escape-room-mannwhitney",
        family=None,
        split="holdout11",
        note="Right-skewed completion times of two independent sets of teams compared with a "
        "Mann-Whitney test, with medians and sample sizes reported.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from scipy.stats import mannwhitneyu

            rng = np.random.default_rng(11_105)
            teams = pd.DataFrame({
                "hint_system": ["screen"] * 85 + ["walkie"] * 78,
                "minutes": np.concatenate([rng.gamma(6, 8.5, 85), rng.gamma(6, 9.6, 78)]).round(1),
            })
            print(teams.groupby("hint_system")["minutes"].describe()[["count", "50%", "75%"]])
            screen = teams.loc[teams.hint_system == "screen", "minutes"]
            walkie = teams.loc[teams.hint_system == "walkie", "minutes"]
            u, p = mannwhitneyu(screen, walkie, alternative="two-sided")
            print(f"median {screen.median():.1f} vs {walkie.median():.1f} min, "
                  f"U = {u:.0f}, p = {p:.4f}")
        """),
    ),
]
