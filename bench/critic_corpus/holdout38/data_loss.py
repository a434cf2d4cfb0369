from bench.critic_corpus import Case

_JOIN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3817)
builds = pd.DataFrame({"build_sha": ["a1f9c3e", "b72d010", "c03e5aa"],
                       "version": ["2024.05.1", "2024.05.2", "2024.06.0"]})
n = 40000
sha = rng.choice(np.array(["a1f9c3e", "b72d010", "c03e5aa", "d9e4f21", "none"]), n,
                 p=[0.3, 0.3, 0.2, 0.08, 0.12])
p_err = pd.Series(sha).map({"a1f9c3e": 0.004, "b72d010": 0.005, "c03e5aa": 0.006,
                            "d9e4f21": 0.020, "none": 0.012}).to_numpy()
status = np.where(rng.random(n) < p_err, rng.choice([500, 502, 503], n), 200)
reqlog = pd.DataFrame({"ts": pd.Timestamp("2024-06-10") + pd.to_timedelta(
                           np.sort(rng.uniform(0, 86400, n)), unit="s"),
                       "host": rng.choice([f"web-{i:02d}" for i in range(24)], n),
                       "build_sha": np.where(sha == "none", None, sha),
                       "status": status})
'''

_CI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3818)
parts = []
for pool, mu, p_timeout in (("gha-large", np.log(24), 0.02), ("k8s-spot", np.log(19), 0.14)):
    n = 700
    dur = np.minimum(rng.lognormal(mu, 0.45, n), 59.9).round(1).astype(str)
    status = rng.random(n)
    dur = np.where(status < p_timeout, "TIMEOUT", dur)
    dur = np.where((status >= p_timeout) & (status < p_timeout + 0.03), "CANCELLED", dur)
    parts.append(pd.DataFrame({"runner_pool": pool, "pipeline_id": rng.integers(1e6, 9e6, n),
                               "duration": dur}))
ci = pd.concat(parts, ignore_index=True)
'''

CASES: list[Case] = [
    Case(
        id="h38-dl-build-join",
        family="data_loss",
        split="holdout38",
        twin="h38-dl-build-join-ok",
        setup=_JOIN_SETUP,
        code='''
by_version = (reqlog.merge(builds, on="build_sha")
              .assign(is_5xx=lambda d: d["status"] >= 500)
              .groupby("version")
              .agg(requests=("status", "size"), errors_5xx=("is_5xx", "sum"),
                   error_rate_pct=("is_5xx", "mean")))
by_version["error_rate_pct"] *= 100
print(by_version.round(3))
total = by_version[["requests", "errors_5xx"]].sum()
print(f"overall 5xx rate: {100 * total.errors_5xx / total.requests:.3f}%")
''',
        note="The inner merge silently drops every request whose build_sha is missing or not "
             "registered (about 20 %, and the most error-prone), then reports the 5xx rate.",
    ),
    Case(
        id="h38-dl-build-join-ok",
        family=None,
        split="holdout38",
        twin="h38-dl-build-join",
        setup=_JOIN_SETUP,
        code='''
# left join and keep unmatched requests visible instead of losing them in an inner join
merged = reqlog.merge(builds, on="build_sha", how="left", indicator=True)
unmatched_label = pd.Series(np.where(merged["build_sha"].isna(), "no-sha (legacy agent)",
                                     "unregistered sha"), index=merged.index)
merged["version"] = merged["version"].fillna(unmatched_label)
n_unmatched = (merged["_merge"] == "left_only").sum()
print(f"{n_unmatched} of {len(merged)} requests ({n_unmatched / len(merged):.1%}) "
      f"have no registered build")
by_version = (merged.assign(is_5xx=lambda d: d["status"] >= 500)
              .groupby("version")
              .agg(requests=("status", "size"), errors_5xx=("is_5xx", "sum"),
                   error_rate_pct=("is_5xx", "mean")))
by_version["error_rate_pct"] *= 100
print(by_version.round(3))
print(f"overall 5xx rate: {100 * (merged['status'] >= 500).mean():.3f}%")
''',
        note="Left join with indicator; unmatched requests are counted, kept as their own groups "
             "and included in the overall 5xx rate.",
    ),
    Case(
        id="h38-dl-ci-coerce",
        family="data_loss",
        split="holdout38",
        twin="h38-dl-ci-coerce-ok",
        setup=_CI_SETUP,
        code='''
ci["duration_min"] = pd.to_numeric(ci["duration"], errors="coerce")
summary = ci.groupby("runner_pool")["duration_min"].agg(
    builds="count", median="median", mean="mean", p90=lambda s: s.quantile(0.9))
print(summary.round(1))
speedup = 1 - summary.loc["k8s-spot", "median"] / summary.loc["gha-large", "median"]
print(f"k8s-spot pool builds are {speedup:.0%} faster at the median -> migrate CI")
''',
        note="to_numeric(errors='coerce') turns TIMEOUT/CANCELLED builds into NaN and the "
             "aggregates skip them silently, hiding the spot pool's many timeouts.",
    ),
    Case(
        id="h38-dl-ci-coerce-ok",
        family=None,
        split="holdout38",
        twin="h38-dl-ci-coerce",
        setup=_CI_SETUP,
        code='''
ci["duration_min"] = pd.to_numeric(ci["duration"], errors="coerce")
ci["outcome"] = np.where(ci["duration_min"].notna(), "completed", ci["duration"])
print(pd.crosstab(ci["runner_pool"], ci["outcome"], margins=True))
# a timed-out build ran for at least the 60-minute cap: count it as >= 60 for the median
# rather than dropping it; cancelled builds have no duration and are reported above
ci["dur_capped"] = ci["duration_min"].where(ci["outcome"] != "TIMEOUT", 60.0)
summary = ci[ci["outcome"] != "CANCELLED"].groupby("runner_pool").agg(
    builds=("dur_capped", "size"), median=("dur_capped", "median"),
    timeout_pct=("outcome", lambda s: 100 * (s == "TIMEOUT").mean()))
print(summary.round(1))
''',
        note="Timeouts and cancellations are tabulated per pool, timeouts enter the median at "
             "the 60-minute cap, and cancelled builds are counted, not silently lost.",
    ),
]
