from bench.critic_corpus import Case

_P99_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3819)
baseline_ms = rng.lognormal(np.log(85), 0.5, 1500).round(2)
canary_ms = rng.lognormal(np.log(88), 0.52, 1500).round(2)
'''

_HOST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3820)
n = 2000
host = pd.DataFrame({
    "cpu_pct": np.clip(rng.normal(45, 12, n), 1, 100),
    "mem_pct": np.clip(rng.normal(62, 8, n), 5, 100),
    "gc_pause_ms": rng.lognormal(2.0, 0.5, n),
    "p99_ms": rng.lognormal(np.log(140), 0.25, n),
})
host["incident"] = 0
bad = rng.choice(n, 40, replace=False)
host.loc[bad, "cpu_pct"] = np.clip(host.loc[bad, "cpu_pct"] + rng.normal(25, 10, 40), 1, 100)
host.loc[bad, "gc_pause_ms"] *= rng.uniform(1.5, 4, 40)
host.loc[bad, "p99_ms"] *= rng.uniform(1.3, 3, 40)
host.loc[bad, "incident"] = 1
'''

CASES: list[Case] = [
    Case(
        id="h38-ur-bootstrap-p99",
        family="unseeded_randomness",
        split="holdout38",
        twin="h38-ur-bootstrap-p99-ok",
        setup=_P99_SETUP,
        code='''
def p99_delta(b, c, n_boot=2000):
    out = np.empty(n_boot)
    for i in range(n_boot):
        bs = np.random.choice(b, size=len(b), replace=True)
        cs = np.random.choice(c, size=len(c), replace=True)
        out[i] = np.percentile(cs, 99) - np.percentile(bs, 99)
    return out

point = np.percentile(canary_ms, 99) - np.percentile(baseline_ms, 99)
boots = p99_delta(baseline_ms, canary_ms)
lo, hi = np.percentile(boots, [2.5, 97.5])
print(f"p99 baseline {np.percentile(baseline_ms, 99):.1f} ms, "
      f"canary {np.percentile(canary_ms, 99):.1f} ms")
print(f"canary p99 delta {point:+.2f} ms, 95% bootstrap CI [{lo:+.2f}, {hi:+.2f}] ms")
print("gate:", "FAIL" if lo > 0 else "pass")
''',
        note="Bootstrap CI for the p99 latency delta drawn with the unseeded global np.random, "
             "so the printed interval (and possibly the gate) changes each run.",
    ),
    Case(
        id="h38-ur-bootstrap-p99-ok",
        family=None,
        split="holdout38",
        twin="h38-ur-bootstrap-p99",
        setup=_P99_SETUP,
        code='''
def p99_delta(b, c, rng, n_boot=2000):
    out = np.empty(n_boot)
    for i in range(n_boot):
        bs = rng.choice(b, size=len(b), replace=True)
        cs = rng.choice(c, size=len(c), replace=True)
        out[i] = np.percentile(cs, 99) - np.percentile(bs, 99)
    return out

boot_rng = np.random.default_rng(20240610)  # seeded so the gate result is reproducible
point = np.percentile(canary_ms, 99) - np.percentile(baseline_ms, 99)
boots = p99_delta(baseline_ms, canary_ms, boot_rng)
lo, hi = np.percentile(boots, [2.5, 97.5])
print(f"p99 baseline {np.percentile(baseline_ms, 99):.1f} ms, "
      f"canary {np.percentile(canary_ms, 99):.1f} ms")
print(f"canary p99 delta {point:+.2f} ms, 95% bootstrap CI [{lo:+.2f}, {hi:+.2f}] ms")
print("gate:", "FAIL" if lo > 0 else "pass")
''',
        note="Same bootstrap with an explicitly seeded Generator passed in, so the interval is "
             "reproducible.",
    ),
    Case(
        id="h38-ur-isoforest-hosts",
        family="unseeded_randomness",
        split="holdout38",
        twin="h38-ur-isoforest-hosts-ok",
        setup=_HOST_SETUP,
        code='''
from sklearn.ensemble import IsolationForest
from sklearn.metrics import precision_score, recall_score

feats = ["cpu_pct", "mem_pct", "gc_pause_ms", "p99_ms"]
iso = IsolationForest(n_estimators=100, contamination="auto")
host["flagged"] = (iso.fit_predict(host[feats]) == -1).astype(int)
host["score"] = -iso.score_samples(host[feats])
print(f"flagged {host.flagged.sum()} of {len(host)} host-minutes")
print(f"precision vs incident log: {precision_score(host.incident, host.flagged):.4f}, "
      f"recall: {recall_score(host.incident, host.flagged):.4f}")
print(f"mean anomaly score on incidents: {host.loc[host.incident == 1, 'score'].mean():.4f}")
''',
        note="IsolationForest has no random_state, so the flagged count, precision and recall "
             "printed differ from run to run.",
    ),
    Case(
        id="h38-ur-isoforest-hosts-ok",
        family=None,
        split="holdout38",
        twin="h38-ur-isoforest-hosts",
        setup=_HOST_SETUP,
        code='''
from sklearn.ensemble import IsolationForest
from sklearn.metrics import precision_score, recall_score

feats = ["cpu_pct", "mem_pct", "gc_pause_ms", "p99_ms"]
iso = IsolationForest(n_estimators=100, contamination="auto", random_state=42)
host["flagged"] = (iso.fit_predict(host[feats]) == -1).astype(int)
host["score"] = -iso.score_samples(host[feats])
print(f"flagged {host.flagged.sum()} of {len(host)} host-minutes")
print(f"precision vs incident log: {precision_score(host.incident, host.flagged):.4f}, "
      f"recall: {recall_score(host.incident, host.flagged):.4f}")
print(f"mean anomaly score on incidents: {host.loc[host.incident == 1, 'score'].mean():.4f}")
''',
        note="IsolationForest is given a fixed random_state, so the flagged count and the "
             "precision/recall are reproducible.",
    ),
]
