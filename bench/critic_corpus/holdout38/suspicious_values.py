from bench.critic_corpus import Case

_SHARD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3815)
n = 6000
q = pd.DataFrame({"shard": rng.choice([f"pg-shard-{i}" for i in range(6)], n)})
shard_no = q["shard"].str[-1].astype(int)
q["latency_ms"] = np.round(np.exp(2.6 + 0.08 * shard_no + rng.normal(0, 0.6, n)), 2)
timeout_p = np.where(q["shard"] == "pg-shard-5", 0.09, 0.01)
q.loc[rng.random(n) < timeout_p, "latency_ms"] = -1.0
'''

_AVAIL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3816)
services = ["api-gateway", "checkout", "search", "auth", "inventory", "recommendations"]
lb_requests = rng.integers(2_000_000, 9_000_000, len(services))
err_rate = np.array([0.0004, 0.0021, 0.0009, 0.0003, 0.0015, 0.0048])
lb = pd.DataFrame({"service": services, "lb_requests": lb_requests,
                   "lb_5xx": rng.binomial(lb_requests, err_rate)})
retry_rate = np.array([0.001, 0.012, 0.002, 0.0005, 0.009, 0.02])
app = pd.DataFrame({"service": services,
                    "app_2xx": ((lb["lb_requests"] - lb["lb_5xx"])
                                * (1 + retry_rate)).round().astype(int)})
SLO = 0.999
'''

CASES: list[Case] = [
    Case(
        id="h38-sv-shard-sentinel",
        family="suspicious_values",
        split="holdout38",
        twin="h38-sv-shard-sentinel-ok",
        setup=_SHARD_SETUP,
        code='''
def p95(s):
    return s.quantile(0.95)

report = (q.groupby("shard")["latency_ms"]
           .agg(queries="size", min_ms="min", mean_ms="mean", p50_ms="median", p95_ms=p95)
           .round(1))
print(report)
print(f"fleet mean query latency: {q['latency_ms'].mean():.1f} ms")
''',
        note="The driver's -1 timeout sentinel is averaged into latency (min_ms shows -1.0), "
             "pulling down the mean of the shard that times out most.",
    ),
    Case(
        id="h38-sv-shard-sentinel-ok",
        family=None,
        split="holdout38",
        twin="h38-sv-shard-sentinel",
        setup=_SHARD_SETUP,
        code='''
def p95(s):
    return s.quantile(0.95)

# -1 is the driver's timeout marker, not a latency: count timeouts separately and
# summarise latency over completed queries only
q["timed_out"] = q["latency_ms"].eq(-1.0)
done = q[~q["timed_out"]]
report = done.groupby("shard")["latency_ms"].agg(
    completed="size", min_ms="min", mean_ms="mean", p50_ms="median", p95_ms=p95)
report.insert(0, "queries", q.groupby("shard").size())
report["timeouts"] = q.groupby("shard")["timed_out"].sum()
report["timeout_pct"] = 100 * report["timeouts"] / report["queries"]
print(report.round(2).to_string())
print(f"fleet: {q['timed_out'].sum()} timeouts of {len(q)} queries; "
      f"mean latency of completed queries {done['latency_ms'].mean():.1f} ms")
''',
        note="The -1 timeout sentinel is separated out and reported as a per-shard timeout rate; "
             "latency statistics use completed queries only.",
    ),
    Case(
        id="h38-sv-availability-over-100",
        family="suspicious_values",
        split="holdout38",
        twin="h38-sv-availability-over-100-ok",
        setup=_AVAIL_SETUP,
        code='''
slo = lb.merge(app, on="service")
slo["availability_pct"] = 100 * slo["app_2xx"] / slo["lb_requests"]
slo["budget_used_pct"] = 100 * (100 - slo["availability_pct"]) / (100 * (1 - SLO))
slo["meets_slo"] = slo["availability_pct"] >= 100 * SLO
cols = ["service", "lb_requests", "app_2xx", "availability_pct", "budget_used_pct",
        "meets_slo"]
print(slo[cols].sort_values("availability_pct").round(3).to_string(index=False))
''',
        note="Availability divides app-log 2xx (retries counted) by load-balancer requests, giving "
             "availabilities above 100 % and negative error-budget use.",
    ),
    Case(
        id="h38-sv-availability-over-100-ok",
        family=None,
        split="holdout38",
        twin="h38-sv-availability-over-100",
        setup=_AVAIL_SETUP,
        code='''
# numerator and denominator from the same source (the load balancer), so retries
# counted by the app logs cannot inflate the ratio
slo = lb.copy()
slo["availability_pct"] = 100 * (1 - slo["lb_5xx"] / slo["lb_requests"])
slo["budget_used_pct"] = 100 * (slo["lb_5xx"] / slo["lb_requests"]) / (1 - SLO)
slo["meets_slo"] = slo["availability_pct"] >= 100 * SLO
assert slo["availability_pct"].between(0, 100).all()
print(slo.sort_values("availability_pct").round(3).to_string(index=False))
''',
        note="Availability is computed from load-balancer 5xx over load-balancer requests, one "
             "source, so it stays within 0-100 % and budget use is valid.",
    ),
]
