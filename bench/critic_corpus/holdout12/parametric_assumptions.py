from bench.critic_corpus import Case

VOLCANO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1783)
spend = pd.DataFrame({
    "operator": ["Caldera Treks"] * 14 + ["Ash Plume Tours"] * 16,
    "usd": np.concatenate([
        rng.lognormal(4.6, 1.4, 14),
        rng.lognormal(5.4, 1.4, 16),
    ]).round(2),
})
'''

VOLCANO_FLAWED = '''
from scipy import stats

a = spend.query("operator == 'Caldera Treks'").usd
b = spend.query("operator == 'Ash Plume Tours'").usd
summary = spend.groupby("operator").usd.agg(["count", "mean", "median", "max"]).round(1)
print(summary)

res = stats.ttest_ind(a, b, equal_var=False)
print(f"Welch t = {res.statistic:.2f}, p = {res.pvalue:.3f}")
verdict = "differs" if res.pvalue < 0.05 else "does not differ"
print(f"per-visitor add-on spend {verdict} between operators")
'''

VOLCANO_SOUND = '''
from scipy import stats

a = spend.query("operator == 'Caldera Treks'").usd
b = spend.query("operator == 'Ash Plume Tours'").usd
summary = spend.groupby("operator").usd.agg(["count", "mean", "median", "max"]).round(1)
print(summary)

res = stats.mannwhitneyu(a, b, alternative="two-sided")
print(f"Mann-Whitney U = {res.statistic:.0f}, p = {res.pvalue:.3f}")
verdict = "differs" if res.pvalue < 0.05 else "does not differ"
print(f"per-visitor add-on spend {verdict} between operators")
'''

LIGHT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1848)
months = pd.period_range("2016-01", periods=96, freq="M")
active = rng.random(96) < 0.3
outages = pd.Series(np.where(active, rng.negative_binomial(1, 0.3, 96) + 1, 0),
                    index=months, name="lamp_outages")
'''

LIGHT_FLAWED = '''
from scipy.stats import norm

mu, sd = outages.mean(), outages.std(ddof=1)
z = norm.ppf(0.975)
lo, hi = mu - z * sd, mu + z * sd
flagged = outages[(outages < lo) | (outages > hi)]

print(f"mean {mu:.2f} outages/month, sd {sd:.2f}")
print(f"normal operating band (95%): {lo:.2f} to {hi:.2f}")
print(f"months outside band: {len(flagged)} -> {list(flagged.index.astype(str))}")
'''

LIGHT_SOUND = '''
mu, sd = outages.mean(), outages.std(ddof=1)
lo, hi = outages.quantile([0.025, 0.975])
flagged = outages[(outages < lo) | (outages > hi)]

print(f"mean {mu:.2f} outages/month, sd {sd:.2f}")
print(f"normal operating band (empirical 95%): {lo:.2f} to {hi:.2f}")
print(f"months outside band: {len(flagged)} -> {list(flagged.index.astype(str))}")
'''

CASES: list[Case] = [
    Case(
        id="parametric_assumptions-h12-volcano-spend-welch",
        family="parametric_assumptions",
        code=VOLCANO_FLAWED,
        setup=VOLCANO_SETUP,
        twin="parametric_assumptions-h12-volcano-spend-welch-sound",
        note="Welch t-test on n=14/16 heavily right-skewed (lognormal) spend with extreme values",
        split="holdout12",
    ),
    Case(
        id="parametric_assumptions-h12-volcano-spend-welch-sound",
        family=None,
        code=VOLCANO_SOUND,
        setup=VOLCANO_SETUP,
        twin="parametric_assumptions-h12-volcano-spend-welch",
        note="rank-based Mann-Whitney test suits small skewed spend samples",
        split="holdout12",
    ),
    Case(
        id="parametric_assumptions-h12-lighthouse-outage-band",
        family="parametric_assumptions",
        code=LIGHT_FLAWED,
        setup=LIGHT_SETUP,
        twin="parametric_assumptions-h12-lighthouse-outage-band-sound",
        note="mean +/- 1.96 sd band on zero-inflated skewed counts gives a negative lower limit",
        split="holdout12",
    ),
    Case(
        id="parametric_assumptions-h12-lighthouse-outage-band-sound",
        family=None,
        code=LIGHT_SOUND,
        setup=LIGHT_SETUP,
        twin="parametric_assumptions-h12-lighthouse-outage-band",
        note="band from empirical 2.5/97.5 percentiles, no normality assumed for the counts",
        split="holdout12",
    ),
]
