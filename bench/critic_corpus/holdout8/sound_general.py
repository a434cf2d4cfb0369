"""Sound general analyses, holdout8 idioms: a statsmodels formula regression with robust
standard errors for apiary colony weight gain, and a Poisson GLM with a pipe-length offset for
water-main bursts by material."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="sound-h8-apiary-weight-gain-robust-ols",
        family=None,
        split="holdout8",
        note="One row per colony, a pre-specified model of season weight gain on forage and "
        "hive type, reported with heteroscedasticity-robust (HC3) standard errors.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(8111)
            n = 140
            hives = pd.DataFrame({
                "hive_type": rng.choice(["langstroth", "top_bar", "warre"], n),
                "forage_ha": rng.uniform(2, 40, n).round(1),
                "queen_age_yr": rng.integers(1, 4, n),
            })
            bump = hives.hive_type.map({"langstroth": 0.0, "top_bar": -3.0, "warre": -1.5})
            hives["gain_kg"] = (8 + 0.45 * hives.forage_ha + bump - 1.2 * hives.queen_age_yr
                                + rng.normal(0, 1 + 0.1 * hives.forage_ha)).round(1)
        """),
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.ols("gain_kg ~ forage_ha + C(hive_type) + queen_age_yr", data=hives).fit(
                cov_type="HC3")
            table = pd.DataFrame({"coef": fit.params, "se": fit.bse, "p": fit.pvalues})
            print(table.round(3))
            print(f"n = {int(fit.nobs)} colonies, R^2 = {fit.rsquared:.2f}")
        """),
    ),
    Case(
        id="sound-h8-water-main-bursts-poisson-offset",
        family=None,
        split="holdout8",
        note="Burst counts per pipe segment are modelled with a Poisson GLM using log length as "
        "offset, with dispersion checked, and rates reported per 100 km-years.",
        setup=dedent("""\
            import numpy as np
            import pandas as pd

            rng = np.random.default_rng(8112)
            n = 900
            segments = pd.DataFrame({
                "material": rng.choice(["cast_iron", "ductile", "PVC", "PE"], n,
                                       p=[0.3, 0.3, 0.2, 0.2]),
                "length_km": rng.uniform(0.1, 2.5, n).round(2),
                "age_decades": rng.uniform(0.5, 8, n).round(1),
            })
            base = segments.material.map({"cast_iron": 0.35, "ductile": 0.12, "PVC": 0.10,
                                          "PE": 0.06})
            rate = base * np.exp(0.15 * segments.age_decades)  # bursts per km per 10 years
            segments["bursts_10y"] = rng.poisson(rate * segments.length_km)
        """),
        code=dedent("""\
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            glm = smf.glm("bursts_10y ~ C(material, Treatment('PE')) + age_decades",
                          data=segments, family=sm.families.Poisson(),
                          offset=np.log(segments.length_km)).fit()
            dispersion = glm.pearson_chi2 / glm.df_resid
            rate_ratios = pd.DataFrame({"rate_ratio": np.exp(glm.params),
                                        "ci_low": np.exp(glm.conf_int()[0]),
                                        "ci_high": np.exp(glm.conf_int()[1])})
            print(rate_ratios.round(2))
            print(f"Pearson dispersion {dispersion:.2f} on {int(glm.df_resid)} df")
        """),
    ),
]
