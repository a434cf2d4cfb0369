"""Pseudoreplication, holdout4 idioms: scipy linregress of 360 individual trees' growth on a
nitrogen deposition that was measured once per stand (12 stands), and a statsmodels logit over
2,800 bus trips for a driver-training programme that was assigned to whole depots (14)."""

from textwrap import dedent

from bench.critic_corpus import Case

_STANDS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(5555)
n_stands, trees_per_stand = 12, 30
stand = pd.DataFrame({"stand": [f"S{s:02d}" for s in range(n_stands)],
                      "n_dep_kg_ha": rng.uniform(4, 24, n_stands).round(1)})
# stands differ a lot in growth (soil, aspect, age); deposition has only a small effect
stand["stand_effect"] = rng.normal(0, 0.9, n_stands)
trees = stand.loc[stand.index.repeat(trees_per_stand)].reset_index(drop=True)
trees["bai_cm2"] = (6 + 0.04 * trees.n_dep_kg_ha + trees.stand_effect
                    + rng.normal(0, 0.8, len(trees))).round(2)
trees = trees.drop(columns="stand_effect")
"""

_DEPOTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1914)
n_depots, trips = 14, 200
depot = pd.DataFrame({"depot": [f"depot_{d:02d}" for d in range(n_depots)],
                      "trained": np.tile([0, 1], n_depots // 2),
                      "depot_effect": rng.normal(0, 0.6, n_depots)})
trip_log = depot.loc[depot.index.repeat(trips)].reset_index(drop=True)
trip_log["peak"] = rng.integers(0, 2, len(trip_log))
# the training has no effect; punctuality differs between depots (routes, traffic)
lin = 1.0 + trip_log.depot_effect - 0.4 * trip_log.peak
trip_log["on_time"] = (rng.random(len(trip_log)) < 1 / (1 + np.exp(-lin))).astype(int)
trip_log = trip_log.drop(columns="depot_effect")
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-linregress-trees-stand-deposition",
        family="pseudoreplication",
        twin="pseudorep-linregress-trees-stand-deposition-sound",
        split="holdout4",
        setup=_STANDS,
        note="Deposition varies only between the 12 stands, but linregress treats the 360 trees "
        "as independent points, so the slope's p-value uses n = 360 instead of 12.",
        code=dedent("""\
            from scipy import stats

            fit = stats.linregress(trees.n_dep_kg_ha, trees.bai_cm2)
            print(f"basal area increment vs N deposition: slope = {fit.slope:.3f} cm2 per kg/ha, "
                  f"r = {fit.rvalue:.2f}, p = {fit.pvalue:.2g} (n = {len(trees)} trees)")
        """),
    ),
    Case(
        id="pseudorep-linregress-trees-stand-deposition-sound",
        family=None,
        twin="pseudorep-linregress-trees-stand-deposition",
        split="holdout4",
        setup=_STANDS,
        note="Trees are averaged within stand first (the stand is the unit that received a "
        "deposition value), and the regression is fitted on the 12 stand means.",
        code=dedent("""\
            from scipy import stats

            stand_means = trees.groupby("stand").agg(n_dep_kg_ha=("n_dep_kg_ha", "first"),
                                                     bai_cm2=("bai_cm2", "mean"))
            fit = stats.linregress(stand_means.n_dep_kg_ha, stand_means.bai_cm2)
            print(f"basal area increment vs N deposition: slope = {fit.slope:.3f} cm2 per kg/ha, "
                  f"r = {fit.rvalue:.2f}, p = {fit.pvalue:.2g} (n = {len(stand_means)} stands)")
        """),
    ),
    Case(
        id="pseudorep-logit-trips-depot-training",
        family="pseudoreplication",
        twin="pseudorep-logit-trips-depot-training-sound",
        split="holdout4",
        setup=_DEPOTS,
        note="Training was assigned per depot (7 vs 7) but the logit treats 2,800 trips as "
        "independent; depot-to-depot variation is mistaken for a training effect.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.logit("on_time ~ trained + peak", data=trip_log).fit(disp=0)
            odds_ratio = np.exp(fit.params["trained"])
            lo, hi = np.exp(fit.conf_int().loc["trained"])
            print(f"driver training: OR for on-time arrival = {odds_ratio:.2f} "
                  f"(95% CI {lo:.2f}-{hi:.2f}), p = {fit.pvalues['trained']:.2g}")
        """),
    ),
    Case(
        id="pseudorep-logit-trips-depot-training-sound",
        family=None,
        twin="pseudorep-logit-trips-depot-training",
        split="holdout4",
        setup=_DEPOTS,
        note="GEE with an exchangeable working correlation clustered on depot, so the training "
        "effect is judged against between-depot variation (14 clusters).",
        code=dedent("""\
            import statsmodels.api as sm
            import statsmodels.formula.api as smf

            fit = smf.gee("on_time ~ trained + peak", groups="depot", data=trip_log,
                          family=sm.families.Binomial(),
                          cov_struct=sm.cov_struct.Exchangeable()).fit()
            odds_ratio = np.exp(fit.params["trained"])
            lo, hi = np.exp(fit.conf_int().loc["trained"])
            print(f"driver training: OR for on-time arrival = {odds_ratio:.2f} "
                  f"(95% CI {lo:.2f}-{hi:.2f}), p = {fit.pvalues['trained']:.2g} "
                  f"({trip_log.depot.nunique()} depots)")
        """),
    ),
]
