from bench.critic_corpus import Case

_TNC_TRANSIT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3661)
months = pd.period_range("2015-01", "2019-12", freq="M")
n = len(months)
t = np.arange(n)
season = 1 + 0.04 * np.sin(2 * np.pi * (months.month.values - 3) / 12)

def ar1(phi, sd):
    e = np.zeros(n)
    for i in range(1, n):
        e[i] = phi * e[i - 1] + rng.normal(0, sd)
    return e

monthly = pd.DataFrame({
    "month": months.astype(str),
    "transit_unlinked_m": np.round((48.0 - 0.15 * t) * season + ar1(0.6, 0.7), 2),
    "tnc_trips_m": np.round(2.1 * np.exp(0.045 * t) * (1 + ar1(0.5, 0.03)), 2),
})
monthly["t"] = t
monthly["cal_month"] = months.month.values
'''

_COUNTER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3662)
n = 46
manual = np.round(rng.lognormal(6.3, 0.7, n))            # video-verified cyclists per day
occlusion = rng.normal(0.075, 0.035, n)                   # missed riders in groups
auto = np.round(manual * (1 - occlusion) + rng.normal(0, 6, n)).clip(0)
validation = pd.DataFrame({
    "site": [f"ECO-{i:02d}" for i in rng.integers(1, 24, n)],
    "date": pd.Timestamp("2024-05-06") + pd.to_timedelta(rng.integers(0, 120, n), "D"),
    "manual_count": manual.astype(int),
    "counter_count": auto.astype(int),
})
'''

CASES = [
    Case(
        id="h36-cm-tnc-transit-trending",
        family="correlation_misuse",
        twin="h36-cm-tnc-transit-trending-ok",
        setup=_TNC_TRANSIT_SETUP,
        code='''
from scipy import stats

r, p = stats.pearsonr(monthly["tnc_trips_m"], monthly["transit_unlinked_m"])
lr = stats.linregress(monthly["tnc_trips_m"], monthly["transit_unlinked_m"])
print(f"Monthly TNC trips vs transit boardings, 2015-2019: r = {r:.2f} (p = {p:.1e})")
print(f"each additional 1M ride-hail trips takes {-lr.slope:.2f}M boardings off transit")
ax = monthly.plot.scatter(x="tnc_trips_m", y="transit_unlinked_m")
ax.set(xlabel="TNC trips (M/month)", ylabel="transit unlinked trips (M/month)")
''',
        note="Pearson r between two strongly trending monthly series (spurious correlation) "
             "is read as a causal substitution effect of ride-hailing on transit.",
        split="holdout36",
    ),
    Case(
        id="h36-cm-tnc-transit-trending-ok",
        family=None,
        twin="h36-cm-tnc-transit-trending",
        setup=_TNC_TRANSIT_SETUP,
        code='''
import statsmodels.formula.api as smf

# both series trend over 2015-19, so condition on a time trend and calendar month and use
# HAC errors for the autocorrelated residuals; this is an association, not a causal effect
fit = smf.ols("transit_unlinked_m ~ tnc_trips_m + t + C(cal_month)", data=monthly).fit(
    cov_type="HAC", cov_kwds={"maxlags": 12})
b = fit.params["tnc_trips_m"]
lo, hi = fit.conf_int().loc["tnc_trips_m"]
print(f"transit boardings vs TNC trips, net of trend and season: {b:+.2f}M per 1M TNC trips "
      f"(95% HAC CI {lo:+.2f} to {hi:+.2f}, p = {fit.pvalues['tnc_trips_m']:.3f})")
print("the raw correlation of the two levels is dominated by their opposing trends")
''',
        note="The association is estimated net of a linear trend and calendar month with HAC "
             "errors, and explicitly not read as causal.",
        split="holdout36",
    ),
    Case(
        id="h36-cm-bike-counter-agreement",
        family="correlation_misuse",
        twin="h36-cm-bike-counter-agreement-ok",
        setup=_COUNTER_SETUP,
        code='''
import numpy as np
from scipy import stats

r, p = stats.pearsonr(validation["manual_count"], validation["counter_count"])
print(f"{len(validation)} validation site-days, Pearson r = {r:.3f} (r^2 = {r**2:.3f})")
print("Eco-counter loops agree with manual counts -> use raw counter volumes in the "
      "2024 cycling monitoring report (no adjustment factor)")
validation.describe().round(1)
''',
        note="Pearson r between counter and manual counts is used as evidence of agreement; "
             "r ignores the systematic undercount that a bias analysis would show.",
        split="holdout36",
    ),
    Case(
        id="h36-cm-bike-counter-agreement-ok",
        family=None,
        twin="h36-cm-bike-counter-agreement",
        setup=_COUNTER_SETUP,
        code='''
import numpy as np

# agreement, not association: Bland-Altman bias and limits of agreement on the ratio scale
# (differences grow with volume, so work with log ratios)
log_ratio = np.log(validation["counter_count"] / validation["manual_count"])
bias, sd = log_ratio.mean(), log_ratio.std(ddof=1)
lo, hi = np.exp(bias - 1.96 * sd), np.exp(bias + 1.96 * sd)
print(f"{len(validation)} validation site-days")
print(f"counter / manual: mean ratio {np.exp(bias):.3f} "
      f"(95% limits of agreement {lo:.3f} to {hi:.3f})")
print(f"suggested correction factor for raw counter volumes: {1 / np.exp(bias):.3f}")
# proportional-bias check: does the ratio drift with volume?
mean_vol = validation[["manual_count", "counter_count"]].mean(axis=1)
print(f"corr(log mean volume, log ratio) = {np.corrcoef(np.log(mean_vol), log_ratio)[0, 1]:.2f}")
pd.DataFrame({"mean_vol": mean_vol, "ratio": np.exp(log_ratio)}).describe().round(3)
''',
        note="Counter-manual agreement is assessed with Bland-Altman bias and limits of "
             "agreement on log ratios, giving a correction factor.",
        split="holdout36",
    ),
]
