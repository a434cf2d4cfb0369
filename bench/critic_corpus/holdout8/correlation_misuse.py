"""Correlation misuse, holdout8 idiom: two monthly oceanographic series that both trend and
share a seasonal cycle, correlated directly with scipy.stats.pearsonr as evidence of coupling."""

from textwrap import dedent

from bench.critic_corpus import Case

_BUOY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8107)
months = pd.date_range("2000-01-01", periods=300, freq="MS")
t = np.arange(len(months)) / 12
season = np.cos(2 * np.pi * (months.month - 8) / 12)
# monthly means from a shelf-sea mooring: sea-surface temperature and chlorophyll-a
buoy = pd.DataFrame({
    "sst_c": 12 + 0.04 * t + 3.0 * season + rng.normal(0, 0.5, len(t)),
    "chl_mg_m3": 1.5 + 0.03 * t + 0.5 * season + rng.normal(0, 0.2, len(t)),
}, index=months)
"""

CASES: list[Case] = [
    Case(
        id="correlation-misuse-h8-sst-chlorophyll-raw-series",
        family="correlation_misuse",
        twin="correlation-misuse-h8-sst-chlorophyll-raw-series-sound",
        split="holdout8",
        setup=_BUOY,
        note="Both series carry a linear trend and a seasonal cycle, so the raw Pearson r and "
        "its p-value over 300 autocorrelated months reflect shared time structure, not coupling.",
        code=dedent("""\
            from scipy import stats

            r, p = stats.pearsonr(buoy["sst_c"], buoy["chl_mg_m3"])
            print(f"SST vs chlorophyll-a, {len(buoy)} months: r = {r:.2f}, p = {p:.1e}")
            print(f"a 1 C warmer month goes with "
                  f"{np.polyfit(buoy.sst_c, buoy.chl_mg_m3, 1)[0]:.3f} mg/m3 more chlorophyll")
        """),
    ),
    Case(
        id="correlation-misuse-h8-sst-chlorophyll-raw-series-sound",
        family=None,
        twin="correlation-misuse-h8-sst-chlorophyll-raw-series",
        split="holdout8",
        setup=_BUOY,
        note="Trend and monthly climatology are removed from each series first, so the "
        "correlation is between anomalies that carry no shared time structure.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from scipy import stats

            df = buoy.assign(t=np.arange(len(buoy)) / 12, month=buoy.index.month)
            anom = pd.DataFrame({
                col: smf.ols(f"{col} ~ t + C(month)", data=df).fit().resid
                for col in ["sst_c", "chl_mg_m3"]
            })
            r, p = stats.pearsonr(anom["sst_c"], anom["chl_mg_m3"])
            print(f"SST vs chlorophyll-a anomalies, {len(anom)} months: r = {r:.2f}, p = {p:.2f}")
            print(f"a 1 C warmer-than-usual month goes with "
                  f"{np.polyfit(anom.sst_c, anom.chl_mg_m3, 1)[0]:.3f} mg/m3 more chlorophyll")
        """),
    ),
]
