from bench.critic_corpus import Case

_SETUP_TL = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
# hamstring strains: days lost per injury, two seasons either side of the Nordic programme
before = np.r_[rng.lognormal(2.7, 0.45, 8).round(0), [112.0]]
after = rng.lognormal(2.0, 0.45, 9).round(0)
time_loss = pd.DataFrame({
    "season": ["2022/23"] * len(before) + ["2023/24"] * len(after),
    "programme": ["pre-Nordic"] * len(before) + ["Nordic"] * len(after),
    "days_lost": np.r_[before, after],
})
'''

_SETUP_FEES = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2024)
fees = pd.DataFrame({
    "player": [f"Target_{i:02d}" for i in range(1, 15)],
    "position": rng.choice(["CB", "CM", "W", "ST"], 14),
    "fee_eur_m": np.r_[rng.lognormal(0.9, 0.8, 12), [38.0, 61.5]].round(2),
})
'''

CASES = [
    Case(
        id="h26-parametric-assumptions-ttest-time-loss",
        family="parametric_assumptions",
        setup=_SETUP_TL,
        code='''from scipy import stats

g = time_loss.groupby("programme")["days_lost"]
print(g.agg(["count", "mean", "median", "max"]).round(1))
pre = time_loss.loc[time_loss["programme"] == "pre-Nordic", "days_lost"]
post = time_loss.loc[time_loss["programme"] == "Nordic", "days_lost"]
t, p = stats.ttest_ind(pre, post)
drop = 100 * (pre.mean() - post.mean()) / pre.mean()
print(f"\\nMean days lost per strain fell {drop:.0f}% (t = {t:.2f}, p = {p:.3f})")
print("Verdict:", "shorter lay-offs in the Nordic season" if p < 0.05
      else "no evidence lay-offs differ between seasons")
''',
        twin="h26-parametric-assumptions-ttest-time-loss-ok",
        note="Student t-test on 9 vs 9 heavily right-skewed time-loss days with a 112-day outlier.",
        split="holdout26",
    ),
    Case(
        id="h26-parametric-assumptions-ttest-time-loss-ok",
        family=None,
        setup=_SETUP_TL,
        code='''from scipy import stats

g = time_loss.groupby("programme")["days_lost"]
print(g.agg(["count", "mean", "median", "max"]).round(1))
pre = time_loss.loc[time_loss["programme"] == "pre-Nordic", "days_lost"]
post = time_loss.loc[time_loss["programme"] == "Nordic", "days_lost"]
# time-loss is right-skewed with one long lay-off: compare ranks, not means
u, p = stats.mannwhitneyu(pre, post, alternative="two-sided")
drop = 100 * (pre.median() - post.median()) / pre.median()
print(f"\\nMedian days lost per strain fell {drop:.0f}% (Mann-Whitney U = {u:.0f}, p = {p:.3f})")
print("Verdict:", "shorter lay-offs in the Nordic season" if p < 0.05
      else "no evidence lay-offs differ between seasons")
''',
        twin="h26-parametric-assumptions-ttest-time-loss",
        note="Rank-based Mann-Whitney test and medians for small, skewed time-loss samples.",
        split="holdout26",
    ),
    Case(
        id="h26-parametric-assumptions-normal-ci-fees",
        family="parametric_assumptions",
        setup=_SETUP_FEES,
        code='''import numpy as np

x = fees["fee_eur_m"].to_numpy()
mean, sd, n = x.mean(), x.std(ddof=1), len(x)
lo, hi = mean - 1.96 * sd / np.sqrt(n), mean + 1.96 * sd / np.sqrt(n)
print(f"Shortlist of {n} targets")
print(f"Average expected fee: EUR {mean:.1f}m (95% CI {lo:.1f} to {hi:.1f}m)")
print(f"Budget for 3 signings at the upper bound: EUR {3 * hi:.1f}m")
''',
        twin="h26-parametric-assumptions-normal-ci-fees-ok",
        note="Normal z-interval on 14 log-normal fees with two huge outliers; CI is not credible.",
        split="holdout26",
    ),
    Case(
        id="h26-parametric-assumptions-normal-ci-fees-ok",
        family=None,
        setup=_SETUP_FEES,
        code='''import numpy as np
from scipy import stats

x = fees["fee_eur_m"].to_numpy()
ci = stats.bootstrap((x,), np.mean, n_resamples=9999, method="BCa",
                     random_state=np.random.default_rng(0)).confidence_interval
lo, hi = ci.low, ci.high
print(f"Shortlist of {len(x)} targets (fees are right-skewed, skew = {stats.skew(x):.1f})")
print(f"Average expected fee: EUR {x.mean():.1f}m (BCa bootstrap 95% CI {lo:.1f} to {hi:.1f}m)")
print(f"Median fee: EUR {np.median(x):.1f}m")
print(f"Budget for 3 signings at the upper bound: EUR {3 * hi:.1f}m")
''',
        twin="h26-parametric-assumptions-normal-ci-fees",
        note="Seeded BCa bootstrap CI for the mean of skewed fees, with skew reported.",
        split="holdout26",
    ),
]
