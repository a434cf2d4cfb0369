"""Pseudoreplication, holdout6 idioms: a t-test on 1,080 vs 1,080 strongly autocorrelated
winter days from 12 El Nino and 12 La Nina seasons (the season is the unit that has an ENSO
phase), and a statsmodels-formula OLS on 133 nestlings from 20 nest boxes where supplementary
food was given per nest."""

from textwrap import dedent

from bench.critic_corpus import Case

_SOIL = """\
import numpy as np
import pandas as pd
from scipy.signal import lfilter

rng = np.random.default_rng(6603)
seasons = np.arange(1984, 2024)
enso = rng.permutation(np.repeat(["El Nino", "La Nina", "neutral"], [12, 12, 16]))
season_anom = rng.normal(0, 3, len(seasons))       # each winter has its own wetness
# day-to-day soil moisture is a slow AR(1) process within each 90-day DJF season
daily = lfilter([1], [1, -0.9], rng.normal(0, 1.7, (len(seasons), 90)), axis=1)
soil = pd.DataFrame({
    "season": np.repeat(seasons, 90),
    "enso": np.repeat(enso, 90),
    "day": np.tile(np.arange(90), len(seasons)),
    "sm_anom_pct": (season_anom[:, None] + daily).ravel().round(2),
})
"""

_NESTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6616)
n_nests = 20
fed = rng.permutation(np.repeat([1, 0], 10))      # feeders were put up at 10 random boxes
brood = rng.integers(4, 10, n_nests)
nest_quality = rng.normal(0, 1.5, n_nests)         # territory, parents, microclimate
nest = np.repeat(np.arange(n_nests), brood)
chicks = pd.DataFrame({"nest": [f"B{k:02d}" for k in nest], "fed": fed[nest],
                       "brood_size": brood[nest]})
chicks["mass_g"] = (17 + nest_quality[nest] - 0.3 * (chicks.brood_size - 6)
                    + rng.normal(0, 0.8, len(chicks))).round(2)   # day-14 nestling mass
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-autocorrelated-days-enso-soil-moisture",
        family="pseudoreplication",
        twin="pseudorep-autocorrelated-days-enso-soil-moisture-sound",
        split="holdout6",
        setup=_SOIL,
        note="ENSO phase is a property of the season, but ttest_ind treats 1,080 autocorrelated "
        "days per phase as independent: p ~ 1e-8 for a difference the 12 vs 12 seasons don't show.",
        code=dedent("""\
            from scipy.stats import ttest_ind

            nino = soil.loc[soil.enso == "El Nino", "sm_anom_pct"]
            nina = soil.loc[soil.enso == "La Nina", "sm_anom_pct"]
            res = ttest_ind(nino, nina)
            print(f"El Nino winters: {len(nino)} days, mean anomaly {nino.mean():+.2f} %")
            print(f"La Nina winters: {len(nina)} days, mean anomaly {nina.mean():+.2f} %")
            print(f"t = {res.statistic:.2f}, p = {res.pvalue:.2g}: "
                  "El Nino winters leave the soil significantly drier")
        """),
    ),
    Case(
        id="pseudorep-autocorrelated-days-enso-soil-moisture-sound",
        family=None,
        twin="pseudorep-autocorrelated-days-enso-soil-moisture",
        split="holdout6",
        setup=_SOIL,
        note="Days are first averaged within each winter (the unit with an ENSO phase), and the "
        "Welch t-test compares 12 El Nino with 12 La Nina seasonal means.",
        code=dedent("""\
            from scipy.stats import ttest_ind

            winters = soil.groupby(["season", "enso"], as_index=False).sm_anom_pct.mean()
            nino = winters.loc[winters.enso == "El Nino", "sm_anom_pct"]
            nina = winters.loc[winters.enso == "La Nina", "sm_anom_pct"]
            res = ttest_ind(nino, nina, equal_var=False)
            print(f"El Nino winters: {len(nino)} seasons, mean anomaly {nino.mean():+.2f} %")
            print(f"La Nina winters: {len(nina)} seasons, mean anomaly {nina.mean():+.2f} %")
            print(f"Welch t = {res.statistic:.2f}, p = {res.pvalue:.2f} "
                  "(seasons as the replicates)")
        """),
    ),
    Case(
        id="pseudorep-ols-nestlings-fed-boxes",
        family="pseudoreplication",
        twin="pseudorep-ols-nestlings-fed-boxes-sound",
        split="holdout6",
        setup=_NESTS,
        note="Food was supplied per nest box (10 vs 10), but OLS counts 133 nestlings as "
        "independent; nest-to-nest differences in quality make the feeding effect look real.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.ols("mass_g ~ fed + brood_size", data=chicks).fit()
            print(fit.summary().tables[1])
            print(f"supplementary feeding: {fit.params['fed']:+.2f} g at day 14 "
                  f"(p = {fit.pvalues['fed']:.3f}, n = {int(fit.nobs)} nestlings)")
        """),
    ),
    Case(
        id="pseudorep-ols-nestlings-fed-boxes-sound",
        family=None,
        twin="pseudorep-ols-nestlings-fed-boxes",
        split="holdout6",
        setup=_NESTS,
        note="A linear mixed model with a random intercept per nest box, so the feeding effect "
        "is judged against box-to-box variation (20 boxes), not nestling-to-nestling noise.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.mixedlm("mass_g ~ fed + brood_size", data=chicks,
                              groups=chicks["nest"]).fit()
            print(fit.summary().tables[1])
            print(f"supplementary feeding: {fit.params['fed']:+.2f} g at day 14 "
                  f"(p = {fit.pvalues['fed']:.3f}, {chicks.nest.nunique()} nest boxes)")
        """),
    ),
]
