"""Correlation misuse, holdout4 idioms: Pearson r between two independently trending monthly
series (e-sports viewership and a GPU price index) read as a link, and a correlation between two
per-capita rates whose independent counts share the same population denominator."""

from textwrap import dedent

from bench.critic_corpus import Case

_MONTHLY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2468)
months = pd.period_range("2016-01", periods=96, freq="M")
# two unrelated random walks with drift
monthly = pd.DataFrame({
    "viewer_hours_m": 40 + np.cumsum(rng.normal(1.2, 4.0, 96)),
    "gpu_price_index": 100 + np.cumsum(rng.normal(0.6, 2.5, 96)),
}, index=months)
"""

_COUNTIES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1357)
n = 150
counties = pd.DataFrame({"population": rng.lognormal(10.5, 1.0, n).round()})
# clinic count and Lyme notifications each grow with population (every county has a
# baseline of both) but are unrelated to each other otherwise
counties["clinics"] = rng.poisson(2 + counties.population / 15000)
counties["lyme_cases"] = rng.poisson(4 + counties.population * 1e-4)
"""

CASES: list[Case] = [
    Case(
        id="corr-trending-series-esports-gpu",
        family="correlation_misuse",
        twin="corr-trending-series-esports-gpu-sound",
        split="holdout4",
        setup=_MONTHLY,
        note="Pearson r on the levels of two independent drifting series: the shared upward "
        "trend alone gives a large r and a tiny p-value (spurious regression).",
        code=dedent("""\
            from scipy import stats

            r, p = stats.pearsonr(monthly.viewer_hours_m, monthly.gpu_price_index)
            print(f"e-sports viewer hours vs GPU price index, {len(monthly)} months: "
                  f"r = {r:.2f}, p = {p:.1e}")
            print("-> streaming demand appears to drive GPU prices")
        """),
    ),
    Case(
        id="corr-trending-series-esports-gpu-sound",
        family=None,
        twin="corr-trending-series-esports-gpu",
        split="holdout4",
        setup=_MONTHLY,
        note="Both series are first-differenced (month-on-month changes) before correlating, "
        "which removes the shared trend.",
        code=dedent("""\
            from scipy import stats

            changes = monthly.diff().dropna()
            r, p = stats.pearsonr(changes.viewer_hours_m, changes.gpu_price_index)
            print(f"monthly changes in viewer hours vs GPU price index, {len(changes)} months: "
                  f"r = {r:.2f}, p = {p:.2f}")
        """),
    ),
    Case(
        id="corr-shared-denominator-per-capita",
        family="correlation_misuse",
        twin="corr-shared-denominator-per-capita-sound",
        split="holdout4",
        setup=_COUNTIES,
        note="Both rates divide an independent count by the same noisy population, so the "
        "correlation of the ratios is created by the shared denominator.",
        code=dedent("""\
            per_100k = counties.assign(
                clinics_per_100k=1e5 * counties.clinics / counties.population,
                lyme_per_100k=1e5 * counties.lyme_cases / counties.population,
            )
            rho = per_100k[["clinics_per_100k", "lyme_per_100k"]].corr(method="spearman").iloc[0, 1]
            print(f"Spearman rho between clinic density and Lyme incidence: {rho:.2f} "
                  f"({len(per_100k)} counties)")
        """),
    ),
    Case(
        id="corr-shared-denominator-per-capita-sound",
        family=None,
        twin="corr-shared-denominator-per-capita",
        split="holdout4",
        setup=_COUNTIES,
        note="Each log count is regressed on a spline of log population and the residuals "
        "are correlated: a partial correlation given population, no shared denominator.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            logs = np.log1p(counties[["clinics", "lyme_cases"]]).assign(
                log_pop=np.log(counties.population))
            resid = pd.DataFrame({
                col: smf.ols(f"{col} ~ bs(log_pop, df=5)", data=logs).fit().resid
                for col in ["clinics", "lyme_cases"]
            })
            rho = resid.corr(method="spearman").iloc[0, 1]
            print(f"partial Spearman rho (given log population) between clinics and Lyme "
                  f"cases: {rho:.2f} ({len(counties)} counties)")
        """),
    ),
]
