from bench.critic_corpus import Case

_LPI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3641)
# pedestrian-injury crashes in the 3 years after installation, leading pedestrian intervals
# (LPI) vs comparison signals matched on entering volume
treated = rng.negative_binomial(1, 1 / (1 + 0.9), 16)
comparison = rng.negative_binomial(1, 1 / (1 + 1.6), 16)
comparison[5] = 11   # Main St / 5th Ave
ped = pd.DataFrame({
    "signal_id": [f"TS{i:03d}" for i in range(32)],
    "group": ["LPI"] * 16 + ["comparison"] * 16,
    "ped_crashes_3yr": np.concatenate([treated, comparison]),
})
'''

_WAIT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3642)
n = 420
wait = rng.lognormal(np.log(7.0), 0.35, n)
long_idx = rng.choice(n, 12, replace=False)
wait[long_idx] += rng.gamma(2.0, 6.0, 12)      # terminal-curb congestion episodes
pickups = pd.DataFrame({
    "request_ts": pd.Timestamp("2024-05-01")
                  + pd.to_timedelta(np.sort(rng.uniform(0, 30 * 86400, n)), "s"),
    "terminal": rng.choice(["T1", "T2", "T3"], n, p=[0.45, 0.35, 0.2]),
    "wait_min": wait.round(1),
})
'''

CASES = [
    Case(
        id="h36-pa-lpi-crash-counts-ttest",
        family="parametric_assumptions",
        twin="h36-pa-lpi-crash-counts-ttest-ok",
        setup=_LPI_SETUP,
        code='''
from scipy import stats

a = ped.loc[ped["group"] == "LPI", "ped_crashes_3yr"]
b = ped.loc[ped["group"] == "comparison", "ped_crashes_3yr"]
res = stats.ttest_ind(a, b)
ci = res.confidence_interval(0.95)
print(ped.groupby("group")["ped_crashes_3yr"].agg(["count", "mean", "std", "median"]))
print(f"difference in mean pedestrian crashes per signal: {a.mean() - b.mean():+.2f} "
      f"(95% CI {ci.low:+.2f} to {ci.high:+.2f}), t = {res.statistic:.2f}, p = {res.pvalue:.3f}")
''',
        note="Student t-test and t-interval on 16 vs 16 overdispersed, zero-heavy crash "
             "counts with an extreme site; normal-theory inference is not justified.",
        split="holdout36",
    ),
    Case(
        id="h36-pa-lpi-crash-counts-ttest-ok",
        family=None,
        twin="h36-pa-lpi-crash-counts-ttest",
        setup=_LPI_SETUP,
        code='''
from scipy import stats

a = ped.loc[ped["group"] == "LPI", "ped_crashes_3yr"].to_numpy()
b = ped.loc[ped["group"] == "comparison", "ped_crashes_3yr"].to_numpy()
print(ped.groupby("group")["ped_crashes_3yr"].agg(["count", "mean", "std", "median"]))

# small, zero-heavy count samples: use a permutation test on the mean difference and a
# rank test rather than t-based inference
perm = stats.permutation_test((a, b), lambda x, y: x.mean() - y.mean(), n_resamples=20000,
                              vectorized=False, rng=np.random.default_rng(36))
mw = stats.mannwhitneyu(a, b, alternative="two-sided")
print(f"difference in mean pedestrian crashes per signal: {a.mean() - b.mean():+.2f}, "
      f"permutation p = {perm.pvalue:.3f}; Mann-Whitney U = {mw.statistic:.0f}, "
      f"p = {mw.pvalue:.3f}")
''',
        note="Small overdispersed count samples are compared with a seeded permutation test "
             "and a Mann-Whitney test instead of normal-theory inference.",
        split="holdout36",
    ),
    Case(
        id="h36-pa-airport-wait-normal-range",
        family="parametric_assumptions",
        twin="h36-pa-airport-wait-normal-range-ok",
        setup=_WAIT_SETUP,
        code='''
w = pickups["wait_min"]
m, s = w.mean(), w.std(ddof=1)
lo, hi = m - 1.96 * s, m + 1.96 * s
summary = pickups.groupby("terminal")["wait_min"].agg(["count", "mean", "std"]).round(1)
print(summary)
print(f"Airport TNC lot, May 2024: mean wait {m:.1f} min; "
      f"95% of riders wait between {lo:.1f} and {hi:.1f} min")
print(f"proposed service standard (upper limit): {hi:.0f} min")
''',
        note="A mean +/- 1.96 SD 'range for 95% of riders' is applied to right-skewed, "
             "heavy-tailed wait times; the normal reference range misstates both tails.",
        split="holdout36",
    ),
    Case(
        id="h36-pa-airport-wait-normal-range-ok",
        family=None,
        twin="h36-pa-airport-wait-normal-range",
        setup=_WAIT_SETUP,
        code='''
w = pickups["wait_min"]
# waits are right-skewed with a long tail, so describe the range with empirical percentiles
lo, med, hi = w.quantile([0.025, 0.5, 0.975])
summary = pickups.groupby("terminal")["wait_min"].describe(percentiles=[0.5, 0.9]).round(1)
print(summary)
print(f"Airport TNC lot, May 2024 (n={len(w)}): median wait {med:.1f} min; "
      f"95% of riders waited between {lo:.1f} and {hi:.1f} min (2.5th-97.5th percentile)")
print(f"proposed service standard (upper limit): {hi:.0f} min")
''',
        note="The 95% range of skewed wait times is taken from empirical 2.5th/97.5th "
             "percentiles of a large sample, not a normal mean +/- 1.96 SD.",
        split="holdout36",
    ),
]
