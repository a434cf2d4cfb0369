"""Parametric assumptions, holdout7 idioms: a pooled two-sample t-test on day-ahead power
prices for windy versus calm days, a sample with a handful of scarcity spikes two orders of
magnitude above the typical price, written as a pandas groupby into scipy; and a numpy process
capability (Cpk) with its normal-theory ppm-out-of-spec forecast for a one-sided flatness spec on
strongly right-skewed machined-plate measurements."""

from textwrap import dedent

from bench.critic_corpus import Case

_PRICES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7501)
n_days = 60
windy = rng.random(n_days) < 0.45
# day-ahead baseload price, EUR/MWh: windy days clear lower ...
price = rng.normal(82, 9, n_days) - 14 * windy
# ... but three windy days caught evening scarcity spikes after the wind dropped
spike_days = np.flatnonzero(windy)[[2, 9, 17]]
price[spike_days] += rng.pareto(1.2, 3) * 400 + 600
days = pd.DataFrame({"date": pd.date_range("2024-01-01", periods=n_days, freq="D"),
                     "regime": np.where(windy, "windy", "calm"), "price": price.round(2)})
"""

_PLATES = """\
import numpy as np

rng = np.random.default_rng(7502)
# flatness of 150 machined base plates, micrometres; one-sided upper spec limit
usl_um = 25.0
flatness_um = rng.lognormal(mean=2.0, sigma=0.42, size=150).round(2)
"""

CASES: list[Case] = [
    Case(
        id="parametric-h7-pooled-t-spiky-power-prices-windy-days",
        family="parametric_assumptions",
        twin="parametric-h7-pooled-t-spiky-power-prices-windy-days-sound",
        split="holdout7",
        setup=_PRICES,
        note="Student's t-test on 60 daily prices where three scarcity spikes (>600 EUR/MWh) "
        "dominate mean and variance: far from normal, so the t-test misses a clear shift.",
        code=dedent("""\
            from scipy import stats

            by_regime = days.groupby("regime")["price"]
            print(by_regime.agg(["count", "mean", "std"]).round(1))
            t, p = stats.ttest_ind(by_regime.get_group("windy"), by_regime.get_group("calm"))
            print(f"windy vs calm days: t = {t:.2f}, p = {p:.3f}")
            print("no significant wind discount in day-ahead prices" if p >= 0.05
                  else "windy days clear significantly cheaper")
        """),
    ),
    Case(
        id="parametric-h7-pooled-t-spiky-power-prices-windy-days-sound",
        family=None,
        twin="parametric-h7-pooled-t-spiky-power-prices-windy-days",
        split="holdout7",
        setup=_PRICES,
        note="The spike-ridden price samples are compared with a rank test (Mann-Whitney) and "
        "medians, which do not rest on normality or on the handful of extreme days.",
        code=dedent("""\
            from scipy import stats

            by_regime = days.groupby("regime")["price"]
            print(by_regime.agg(["count", "median", "mean", "max"]).round(1))
            u, p = stats.mannwhitneyu(by_regime.get_group("windy"), by_regime.get_group("calm"),
                                      alternative="two-sided")
            print(f"windy vs calm days (Mann-Whitney): U = {u:.0f}, p = {p:.4f}")
            print("no significant wind discount in day-ahead prices" if p >= 0.05
                  else "windy days clear significantly cheaper")
        """),
    ),
    Case(
        id="parametric-h7-normal-cpk-ppm-skewed-flatness",
        family="parametric_assumptions",
        twin="parametric-h7-normal-cpk-ppm-skewed-flatness-sound",
        split="holdout7",
        setup=_PLATES,
        note="Cpk and the expected ppm above the spec come from a normal model of flatness, a "
        "bounded, strongly right-skewed quantity: the upper tail and the ppm are understated.",
        code=dedent("""\
            from scipy.stats import norm

            mu, sd = flatness_um.mean(), flatness_um.std(ddof=1)
            cpk = (usl_um - mu) / (3 * sd)
            ppm = norm.sf(usl_um, loc=mu, scale=sd) * 1e6
            print(f"n = {flatness_um.size}, mean = {mu:.2f} um, sd = {sd:.2f} um")
            print(f"Cpk (upper) = {cpk:.2f}; expected out-of-spec = {ppm:.0f} ppm")
        """),
    ),
    Case(
        id="parametric-h7-normal-cpk-ppm-skewed-flatness-sound",
        family=None,
        twin="parametric-h7-normal-cpk-ppm-skewed-flatness",
        split="holdout7",
        setup=_PLATES,
        note="Skewness is checked and the capability is computed on the log scale (a lognormal "
        "model of flatness), whose upper tail gives the ppm forecast.",
        code=dedent("""\
            from scipy import stats
            from scipy.stats import norm

            print(f"skewness raw = {stats.skew(flatness_um):.2f}, "
                  f"log = {stats.skew(np.log(flatness_um)):.2f}")
            log_f = np.log(flatness_um)
            mu, sd = log_f.mean(), log_f.std(ddof=1)
            cpk = (np.log(usl_um) - mu) / (3 * sd)
            ppm = norm.sf(np.log(usl_um), loc=mu, scale=sd) * 1e6
            print(f"n = {flatness_um.size}, median = {np.exp(mu):.2f} um, log-sd = {sd:.3f}")
            print(f"Cpk (upper, lognormal) = {cpk:.2f}; expected out-of-spec = {ppm:.0f} ppm")
        """),
    ),
]
