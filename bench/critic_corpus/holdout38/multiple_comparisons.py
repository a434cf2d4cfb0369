from bench.critic_corpus import Case

_CANARY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3814)
resources = ("orders", "users", "cart", "search", "inventory", "payments", "reviews",
             "shipping", "coupons", "wishlist")
endpoints = [f"{verb} /api/v2/{res}" for res in resources
             for verb in ("GET", "POST", "PUT", "DELETE")]
parts = []
for ep in endpoints:
    base_mu = rng.uniform(3.0, 5.0)
    shift = 0.2 if ep in ("POST /api/v2/payments", "GET /api/v2/search") else 0.0
    for arm, mu in (("baseline", base_mu), ("canary", base_mu + shift)):
        n = int(rng.integers(150, 400))
        parts.append(pd.DataFrame({"endpoint": ep, "arm": arm,
                                   "latency_ms": rng.lognormal(mu, 0.55, n).round(2)}))
reqs = pd.concat(parts, ignore_index=True)
'''

_FLAKY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3808)
n_tests = 150
suite = pd.DataFrame({"test": [f"integration/test_{i:03d}" for i in range(n_tests)],
                      "reruns": rng.integers(60, 200, n_tests)})
true_rate = np.full(n_tests, 0.02)
true_rate[rng.choice(n_tests, 5, replace=False)] = rng.uniform(0.08, 0.15, 5)
suite["failures"] = rng.binomial(suite["reruns"], true_rate)
INFRA_FAIL_RATE = 0.02
'''

CASES: list[Case] = [
    Case(
        id="h38-mc-canary-endpoints",
        family="multiple_comparisons",
        split="holdout38",
        twin="h38-mc-canary-endpoints-ok",
        setup=_CANARY_SETUP,
        code='''
from scipy import stats

regressions = []
for ep, g in reqs.groupby("endpoint"):
    base = g.loc[g.arm == "baseline", "latency_ms"]
    can = g.loc[g.arm == "canary", "latency_ms"]
    u, p = stats.mannwhitneyu(can, base, alternative="two-sided")
    if p < 0.05:
        regressions.append((ep, round(can.median() / base.median(), 3), round(p, 4)))
print(f"{len(regressions)} of {reqs.endpoint.nunique()} endpoints regressed in the canary:")
for ep, ratio, p in sorted(regressions, key=lambda r: r[2]):
    print(f"  {ep:28} median x{ratio:<6} p={p}")
print("verdict:", "BLOCK rollout" if regressions else "promote")
''',
        note="Forty per-endpoint Mann-Whitney tests each at p<0.05 with no correction; every hit "
             "is reported as a canary regression.",
    ),
    Case(
        id="h38-mc-canary-endpoints-ok",
        family=None,
        split="holdout38",
        twin="h38-mc-canary-endpoints",
        setup=_CANARY_SETUP,
        code='''
from scipy import stats
from statsmodels.stats.multitest import multipletests

rows = []
for ep, g in reqs.groupby("endpoint"):
    base = g.loc[g.arm == "baseline", "latency_ms"]
    can = g.loc[g.arm == "canary", "latency_ms"]
    u, p = stats.mannwhitneyu(can, base, alternative="two-sided")
    rows.append({"endpoint": ep, "median_ratio": can.median() / base.median(), "p": p})
res = pd.DataFrame(rows)
# 40 endpoints tested at once: control the false discovery rate across them
res["reject"], res["q_bh"], _, _ = multipletests(res["p"], alpha=0.05, method="fdr_bh")
hits = res[res["reject"]].sort_values("q_bh")
print(f"{len(hits)} of {len(res)} endpoints regressed at FDR 5%:")
print(hits.round(4).to_string(index=False))
print("verdict:", "BLOCK rollout" if len(hits) else "promote")
''',
        note="All forty endpoint p-values are adjusted with Benjamini-Hochberg before any "
             "endpoint is called a regression.",
    ),
    Case(
        id="h38-mc-flaky-binomial",
        family="multiple_comparisons",
        split="holdout38",
        twin="h38-mc-flaky-binomial-ok",
        setup=_FLAKY_SETUP,
        code='''
from scipy.stats import binomtest

pvals = {row.test: binomtest(int(row.failures), int(row.reruns), INFRA_FAIL_RATE,
                             alternative="greater").pvalue
         for row in suite.itertuples()}
suite["p"] = suite["test"].map(pvals)
suite["fail_rate"] = suite["failures"] / suite["reruns"]
flaky = suite[suite["p"] < 0.05].sort_values("p")
print(f"quarantining {len(flaky)} tests that fail above the 2% infra baseline:")
flaky[["test", "reruns", "failures", "fail_rate", "p"]].round(4)
''',
        note="150 one-sided binomial tests at p<0.05 with no multiplicity correction; every hit is "
             "quarantined as flaky.",
    ),
    Case(
        id="h38-mc-flaky-binomial-ok",
        family=None,
        split="holdout38",
        twin="h38-mc-flaky-binomial",
        setup=_FLAKY_SETUP,
        code='''
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests

pvals = {row.test: binomtest(int(row.failures), int(row.reruns), INFRA_FAIL_RATE,
                             alternative="greater").pvalue
         for row in suite.itertuples()}
suite["p"] = suite["test"].map(pvals)
suite["fail_rate"] = suite["failures"] / suite["reruns"]
# one test per suite member, so adjust for the 150 tests (Holm, family-wise 5%)
suite["reject"], suite["p_holm"], _, _ = multipletests(suite["p"], alpha=0.05, method="holm")
flaky = suite[suite["reject"]].sort_values("p_holm")
print(f"quarantining {len(flaky)} of {len(suite)} tests (Holm-adjusted, FWER 5%):")
flaky[["test", "reruns", "failures", "fail_rate", "p_holm"]].round(4)
''',
        note="The 150 binomial p-values are Holm-adjusted before any test is quarantined.",
    ),
]
