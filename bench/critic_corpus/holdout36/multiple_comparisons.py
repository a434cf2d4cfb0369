from bench.critic_corpus import Case

_CORDON_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3631)
stations = [f"CP{k:03d}" for k in range(101, 149)]   # 48 ATCs on the boundary ring roads
base = rng.lognormal(9.3, 0.5, len(stations))
diverted = {"CP107": 0.09, "CP122": 0.11, "CP139": 0.08}
rows = []
for s, b in zip(stations, base):
    for period, days in (("before", pd.bdate_range("2024-02-05", periods=30)),
                         ("after", pd.bdate_range("2024-04-08", periods=30))):
        lift = diverted.get(s, 0.0) if period == "after" else 0.0
        vol = b * (1 + lift) * rng.normal(1, 0.07, len(days))
        rows.append(pd.DataFrame({"station": s, "period": period, "date": days,
                                  "weekday_vol": vol.round()}))
atc = pd.concat(rows, ignore_index=True)
'''

_OTP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3635)
routes = [str(r) for r in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 18, 20, 21,
                           22, 24, 25, 27, 28, 30, 31, 33, 36, 40, 41, 44, 47, 52]]
true_otp = {r: rng.uniform(0.85, 0.865) for r in routes}
true_otp.update({"9": 0.78, "24": 0.79, "44": 0.77})
frames = []
for r in routes:
    n = int(rng.integers(280, 520))   # sampled trips in March, one terminal arrival each
    dev = rng.normal(1.2, 3.0, n)
    on_time = rng.random(n) < true_otp[r]
    frames.append(pd.DataFrame({"route": r, "on_time": on_time.astype(int),
                                "dev_min": np.where(on_time, dev.clip(-1, 5),
                                                    5 + rng.gamma(2, 2.5, n))}))
avl = pd.concat(frames, ignore_index=True)
'''

CASES = [
    Case(
        id="h36-mc-cordon-diversion-ttests",
        family="multiple_comparisons",
        twin="h36-mc-cordon-diversion-ttests-ok",
        setup=_CORDON_SETUP,
        code='''
from scipy import stats

def diversion_test(g):
    b = g.loc[g["period"] == "before", "weekday_vol"]
    a = g.loc[g["period"] == "after", "weekday_vol"]
    t, p = stats.ttest_ind(a, b, equal_var=False)
    return pd.Series({"before": b.mean(), "after": a.mean(),
                      "change_pct": 100 * (a.mean() / b.mean() - 1), "p": p})

res = atc.groupby("station").apply(diversion_test, include_groups=False)
sig = res[(res["p"] < 0.05) & (res["change_pct"] > 0)]
print(f"{len(sig)} of {len(res)} boundary stations show a significant traffic increase "
      f"after charge go-live (diversion hotspots):")
sig.sort_values("p").round({"before": 0, "after": 0, "change_pct": 1, "p": 4})
''',
        note="48 station-level t-tests at p<0.05 with no multiplicity correction; the list "
             "of 'diversion hotspots' includes expected false positives.",
        split="holdout36",
    ),
    Case(
        id="h36-mc-cordon-diversion-ttests-ok",
        family=None,
        twin="h36-mc-cordon-diversion-ttests",
        setup=_CORDON_SETUP,
        code='''
from scipy import stats
from statsmodels.stats.multitest import multipletests

def diversion_test(g):
    b = g.loc[g["period"] == "before", "weekday_vol"]
    a = g.loc[g["period"] == "after", "weekday_vol"]
    t, p = stats.ttest_ind(a, b, equal_var=False)
    return pd.Series({"before": b.mean(), "after": a.mean(),
                      "change_pct": 100 * (a.mean() / b.mean() - 1), "p": p})

res = atc.groupby("station").apply(diversion_test, include_groups=False)
# 48 stations screened at once: control the false discovery rate (Benjamini-Hochberg)
res["q"] = multipletests(res["p"], method="fdr_bh")[1]
sig = res[(res["q"] < 0.05) & (res["change_pct"] > 0)]
print(f"{len(sig)} of {len(res)} boundary stations show a traffic increase after go-live "
      f"at FDR 5% (diversion hotspots):")
sig.sort_values("q").round({"before": 0, "after": 0, "change_pct": 1, "p": 4, "q": 4})
''',
        note="Station-level tests are screened with Benjamini-Hochberg FDR control across "
             "all 48 stations before naming diversion hotspots.",
        split="holdout36",
    ),
    Case(
        id="h36-mc-otp-routes-binomtest",
        family="multiple_comparisons",
        twin="h36-mc-otp-routes-binomtest-ok",
        setup=_OTP_SETUP,
        code='''
from scipy.stats import binomtest

TARGET = 0.85
tally = avl.groupby("route")["on_time"].agg(["sum", "count"])
otp_tests = {
    r: binomtest(int(k), int(n), TARGET, alternative="less")
    for r, (k, n) in tally.iterrows()
}
report = pd.DataFrame({
    "trips": tally["count"],
    "otp_pct": (100 * tally["sum"] / tally["count"]).round(1),
    "p_below_target": {r: t.pvalue for r, t in otp_tests.items()},
})
below = report[report["p_below_target"] < 0.05].sort_values("otp_pct")
print(f"Routes significantly below the {TARGET:.0%} on-time standard (March): "
      f"{', '.join(below.index)}")
below
''',
        note="32 per-route binomial tests against the OTP standard at p<0.05 with no "
             "correction; routes flagged as failing include chance findings.",
        split="holdout36",
    ),
    Case(
        id="h36-mc-otp-routes-binomtest-ok",
        family=None,
        twin="h36-mc-otp-routes-binomtest",
        setup=_OTP_SETUP,
        code='''
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests

TARGET = 0.85
tally = avl.groupby("route")["on_time"].agg(["sum", "count"])
otp_tests = {
    r: binomtest(int(k), int(n), TARGET, alternative="less")
    for r, (k, n) in tally.iterrows()
}
report = pd.DataFrame({
    "trips": tally["count"],
    "otp_pct": (100 * tally["sum"] / tally["count"]).round(1),
    "p_below_target": {r: t.pvalue for r, t in otp_tests.items()},
})
# one test per route -> Holm adjustment keeps the family-wise error at 5% over 32 routes
report["p_holm"] = multipletests(report["p_below_target"], method="holm")[1]
below = report[report["p_holm"] < 0.05].sort_values("otp_pct")
print(f"Routes below the {TARGET:.0%} on-time standard after Holm correction (March): "
      f"{', '.join(below.index)}")
below
''',
        note="Per-route binomial tests are Holm-adjusted across all 32 routes before routes "
             "are declared below the on-time standard.",
        split="holdout36",
    ),
]
