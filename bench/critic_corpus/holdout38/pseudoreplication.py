from bench.critic_corpus import Case

_BENCH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3815)
parts = []
for build, effect in (("v2.13.0", 0.0), ("v2.14.0-rc1", 0.015)):
    for r in range(6):
        runner_speed = rng.normal(0, 0.04)
        ms = np.exp(np.log(2.5) + effect + runner_speed + rng.normal(0, 0.01, 40))
        parts.append(pd.DataFrame({"build": build, "runner": f"bench-{build}-r{r}",
                                   "iteration": np.arange(40), "ms_per_op": ms.round(4)}))
bench = pd.concat(parts, ignore_index=True)
'''

_POOL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3812)
n_users = 400
users = pd.DataFrame({"user_id": np.arange(n_users),
                      "variant": rng.choice(["control", "pool_v2"], n_users)})
user_eff = rng.normal(0, 0.35, n_users)
n_req = rng.integers(5, 80, n_users)
req = users.loc[users.index.repeat(n_req)].reset_index(drop=True)
is_v2 = (req["variant"] == "pool_v2").to_numpy()
req["latency_ms"] = np.exp(np.log(180) - 0.05 * is_v2 + np.repeat(user_eff, n_req)
                           + rng.normal(0, 0.4, len(req))).round(1)
'''

CASES: list[Case] = [
    Case(
        id="h38-pr-bench-runners",
        family="pseudoreplication",
        split="holdout38",
        twin="h38-pr-bench-runners-ok",
        setup=_BENCH_SETUP,
        code='''
from scipy import stats

a = bench.loc[bench.build == "v2.13.0", "ms_per_op"]
b = bench.loc[bench.build == "v2.14.0-rc1", "ms_per_op"]
t, p = stats.ttest_ind(b, a, equal_var=False)
print(bench.groupby("build")["ms_per_op"].describe().round(4))
print(f"{len(a)} vs {len(b)} iterations: rc1 is {100 * (b.mean() / a.mean() - 1):+.2f}% "
      f"per op, Welch t = {t:.2f}, p = {p:.2g}")
''',
        note="Each build ran on six runners with 40 iterations each; the t-test treats 240 "
             "iterations per build as independent and ignores runner-to-runner variation.",
    ),
    Case(
        id="h38-pr-bench-runners-ok",
        family=None,
        split="holdout38",
        twin="h38-pr-bench-runners",
        setup=_BENCH_SETUP,
        code='''
from scipy import stats

# the runner is the experimental unit: collapse its 40 iterations to one mean first
per_runner = bench.groupby(["build", "runner"], as_index=False)["ms_per_op"].mean()
a = per_runner.loc[per_runner.build == "v2.13.0", "ms_per_op"]
b = per_runner.loc[per_runner.build == "v2.14.0-rc1", "ms_per_op"]
t, p = stats.ttest_ind(b, a, equal_var=False)
print(per_runner.round(4).to_string(index=False))
print(f"{len(a)} vs {len(b)} runners: rc1 is {100 * (b.mean() / a.mean() - 1):+.2f}% "
      f"per op, Welch t = {t:.2f}, p = {p:.2g}")
''',
        note="Iterations are averaged within runner and the builds compared on six runner means "
             "each, the real independent units.",
    ),
    Case(
        id="h38-pr-pool-ab-requests",
        family="pseudoreplication",
        split="holdout38",
        twin="h38-pr-pool-ab-requests-ok",
        setup=_POOL_SETUP,
        code='''
import statsmodels.formula.api as smf

fit = smf.ols("np.log(latency_ms) ~ C(variant, Treatment('control'))", data=req).fit()
eff, (lo, hi) = fit.params.iloc[1], fit.conf_int().iloc[1]
print(f"{len(req):,} requests from {req.user_id.nunique()} users")
print(f"pool_v2 latency change: {100 * (np.exp(eff) - 1):+.1f}% "
      f"(95% CI {100 * (np.exp(lo) - 1):+.1f}% to {100 * (np.exp(hi) - 1):+.1f}%), "
      f"p = {fit.pvalues.iloc[1]:.2g}")
''',
        note="Users were randomised but OLS treats ~17k requests as independent; requests within "
             "a user are correlated, so the CI and p-value are far too small.",
    ),
    Case(
        id="h38-pr-pool-ab-requests-ok",
        family=None,
        split="holdout38",
        twin="h38-pr-pool-ab-requests",
        setup=_POOL_SETUP,
        code='''
import statsmodels.formula.api as smf

# randomisation was per user, so cluster the standard errors on user_id
fit = smf.ols("np.log(latency_ms) ~ C(variant, Treatment('control'))", data=req).fit(
    cov_type="cluster", cov_kwds={"groups": req["user_id"]})
eff, (lo, hi) = fit.params.iloc[1], fit.conf_int().iloc[1]
print(f"{len(req):,} requests from {req.user_id.nunique()} users")
print(f"pool_v2 latency change: {100 * (np.exp(eff) - 1):+.1f}% "
      f"(95% CI {100 * (np.exp(lo) - 1):+.1f}% to {100 * (np.exp(hi) - 1):+.1f}%), "
      f"p = {fit.pvalues.iloc[1]:.2g}  [user-clustered SEs]")
''',
        note="Standard errors are clustered on user_id, the unit of randomisation, so repeated "
             "requests per user are not counted as independent.",
    ),
]
