from bench.critic_corpus import Case

_SETUP_LOB = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(1010)
n = 1800
lob = rng.choice(["motor_od", "motor_tp", "home_bld", "home_cnt"], n, p=[0.4, 0.2, 0.25, 0.15])
mu = pd.Series(lob).map({"motor_od": 7.3, "motor_tp": 8.4, "home_bld": 7.9, "home_cnt": 7.0})
sev = pd.DataFrame({
    "claim_no": np.arange(300000, 300000 + n),
    "lob": lob,
    "notified": pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 540, n), "D"),
    "incurred_gbp": np.round(rng.lognormal(mu, 0.9), 2),
})
pending = rng.random(n) < np.where(lob == "motor_tp", 0.22, 0.06)
sev.loc[pending, "incurred_gbp"] = -999.0
'''

_FLAW_LOB = '''
sev_q = sev.assign(quarter=sev["notified"].dt.to_period("Q"))
by_lob = sev_q.groupby("lob")["incurred_gbp"].agg(
    claims="size", mean_sev="mean", median_sev="median", min_sev="min",
    p95=lambda s: s.quantile(0.95))
print("average incurred severity by line, 2023-24 notifications (GBP)")
by_lob.round(0)
'''

_SOUND_LOB = '''
sev_q = sev.assign(quarter=sev["notified"].dt.to_period("Q"))
placeholder = sev_q["incurred_gbp"] == -999
print(f"{placeholder.sum()} claims carry the -999 'reserve pending' code; excluded from severity")
print(placeholder.groupby(sev_q["lob"]).mean().round(3).to_dict())
valid = sev_q.loc[~placeholder]
by_lob = valid.groupby("lob")["incurred_gbp"].agg(
    claims="size", mean_sev="mean", median_sev="median", min_sev="min",
    p95=lambda s: s.quantile(0.95))
print("average incurred severity by line, 2023-24 notifications (GBP), reserved claims only")
by_lob.round(0)
'''

_SETUP_ST = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(555)
q = pd.period_range("2008Q1", "2024Q4", freq="Q")
unemp = 5 + 2.5 * np.exp(-((np.arange(q.size) - 8) / 6.0) ** 2) + rng.normal(0, 0.25, q.size)
unemp[49:53] += 3.0
gdp = rng.normal(0.5, 0.6, q.size)
gdp[[3, 4, 5, 49]] = [-2.1, -1.5, -0.8, -19.0]
dr = 1 / (1 + np.exp(-(-7.7 + 0.48 * unemp - 0.04 * gdp + rng.normal(0, 0.08, q.size))))
hist = pd.DataFrame({"unemp_pct": unemp.round(2), "gdp_qoq_pct": gdp.round(2),
                     "default_rate": dr.round(5)}, index=q)
horizon = pd.period_range("2025Q1", periods=12, freq="Q")
scen = pd.concat({
    "baseline": pd.DataFrame({"unemp_pct": np.linspace(4.3, 3.4, 12),
                              "gdp_qoq_pct": np.full(12, 0.6)}, index=horizon),
    "severe": pd.DataFrame({"unemp_pct": np.r_[np.linspace(4.4, 9.5, 6), np.linspace(9.3, 7, 6)],
                            "gdp_qoq_pct": np.r_[-1.8, -1.5, -1.0, -0.5, np.zeros(8)]},
                           index=horizon),
})
ead_gbp_m = 4200.0
lgd = 0.35
'''

_FLAW_ST = '''
import statsmodels.api as sm

X = sm.add_constant(hist[["unemp_pct", "gdp_qoq_pct"]])
sat = sm.OLS(hist["default_rate"], X).fit(cov_type="HAC", cov_kwds={"maxlags": 4})
print(sat.params.round(5), f"R2 = {sat.rsquared:.3f}", sep="\\n")
proj = scen.assign(pd_q=sat.predict(sm.add_constant(scen[["unemp_pct", "gdp_qoq_pct"]])))
proj["el_gbp_m"] = proj["pd_q"] * lgd * ead_gbp_m
summary = proj.groupby(level=0).agg(min_pd=("pd_q", "min"), max_pd=("pd_q", "max"),
                                   cum_el_gbp_m=("el_gbp_m", "sum"))
summary.round(4)
'''

_SOUND_ST = '''
import statsmodels.api as sm
from scipy.special import logit, expit

X = sm.add_constant(hist[["unemp_pct", "gdp_qoq_pct"]])
sat = sm.OLS(logit(hist["default_rate"]), X).fit(cov_type="HAC", cov_kwds={"maxlags": 4})
print(sat.params.round(5), f"R2 (logit scale) = {sat.rsquared:.3f}", sep="\\n")
xb = sat.predict(sm.add_constant(scen[["unemp_pct", "gdp_qoq_pct"]]))
proj = scen.assign(pd_q=expit(xb))
proj["el_gbp_m"] = proj["pd_q"] * lgd * ead_gbp_m
summary = proj.groupby(level=0).agg(min_pd=("pd_q", "min"), max_pd=("pd_q", "max"),
                                   cum_el_gbp_m=("el_gbp_m", "sum"))
summary.round(4)
'''

CASES: list[Case] = [
    Case(id="h20-suspicious-severity-minus999-averaged", family="suspicious_values",
         code=_FLAW_LOB, setup=_SETUP_LOB, twin="h20-suspicious-severity-placeholder-excluded",
         note="-999 'reserve pending' codes averaged into mean severity (min_sev shows -999), "
              "dragging motor_tp severity down",
         split="holdout20"),
    Case(id="h20-suspicious-severity-placeholder-excluded", family=None, code=_SOUND_LOB,
         setup=_SETUP_LOB, twin="h20-suspicious-severity-minus999-averaged",
         note="placeholder incurred codes counted, reported by line and excluded before "
              "computing severities",
         split="holdout20"),
    Case(id="h20-suspicious-stress-negative-pd", family="suspicious_values",
         code=_FLAW_ST, setup=_SETUP_ST, twin="h20-suspicious-stress-logit-pd",
         note="linear satellite model projects negative quarterly default rates in the "
              "baseline and they are summed into expected loss without comment",
         split="holdout20"),
    Case(id="h20-suspicious-stress-logit-pd", family=None, code=_SOUND_ST,
         setup=_SETUP_ST, twin="h20-suspicious-stress-negative-pd",
         note="satellite model fit on the logit of the default rate so projected PDs stay "
              "in (0, 1)",
         split="holdout20"),
]
