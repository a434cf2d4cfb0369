from bench.critic_corpus import Case

SPLIT = "holdout28"

_DR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1707)
n_hh = 300
hh = pd.DataFrame({"hh_id": [f"H{i:04d}" for i in range(n_hh)],
                   "arm": np.repeat(["control", "dr_event"], n_hh // 2)})
base_shape = 0.35 + 0.25 * np.exp(-((np.arange(24) - 8) ** 2) / 6) \\
    + 0.7 * np.exp(-((np.arange(24) - 18.5) ** 2) / 5)
size = rng.lognormal(0, 0.35, n_hh)[:, None]
effect = np.zeros(24)
effect[17:20] = -0.06               # event window 17:00-20:00
kwh = size * base_shape + (hh["arm"].values == "dr_event")[:, None] * effect \\
    + rng.normal(0, 0.12, (n_hh, 24))
# mean kWh per household per hour-of-day, averaged over the 12 event days
event_day_kwh = pd.DataFrame(kwh.round(3), columns=[f"h{h:02d}" for h in range(24)])
event_day_kwh.insert(0, "arm", hh["arm"].values)
event_day_kwh.insert(0, "hh_id", hh["hh_id"].values)
event_day_kwh.iloc[:3, :8]
'''

_DR_FLAWED = '''
from scipy import stats

hours = event_day_kwh.filter(regex=r"^h\\d\\d$").columns
ctl = event_day_kwh[event_day_kwh.arm == "control"]
trt = event_day_kwh[event_day_kwh.arm == "dr_event"]

rows = []
for h in hours:
    t, p = stats.ttest_ind(trt[h], ctl[h], equal_var=False)
    rows.append({"hour": h, "diff_kwh": trt[h].mean() - ctl[h].mean(), "t": t, "p": p})
res = pd.DataFrame(rows).set_index("hour")

sig = res[res.p < 0.05]
print(f"{len(sig)} of {len(res)} hours show a significant change (p<0.05):")
for h, r in sig.iterrows():
    direction = "reduction" if r.diff_kwh < 0 else "increase"
    print(f"  {h}: {r.diff_kwh:+.3f} kWh/hh ({direction}), p={r.p:.4f}")
'''

_DR_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

hours = event_day_kwh.filter(regex=r"^h\\d\\d$").columns
ctl = event_day_kwh[event_day_kwh.arm == "control"]
trt = event_day_kwh[event_day_kwh.arm == "dr_event"]

rows = []
for h in hours:
    t, p = stats.ttest_ind(trt[h], ctl[h], equal_var=False)
    rows.append({"hour": h, "diff_kwh": trt[h].mean() - ctl[h].mean(), "t": t, "p": p})
res = pd.DataFrame(rows).set_index("hour")
# 24 hourly tests -> Holm adjustment across the day
res["p_holm"] = multipletests(res.p, method="holm")[1]

sig = res[res.p_holm < 0.05]
print(f"{len(sig)} of {len(res)} hours show a significant change (Holm-adjusted p<0.05):")
for h, r in sig.iterrows():
    direction = "reduction" if r.diff_kwh < 0 else "increase"
    print(f"  {h}: {r.diff_kwh:+.3f} kWh/hh ({direction}), p_holm={r.p_holm:.4f}")
'''

_FEEDER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
n_feeders = 64
feeders = pd.DataFrame({
    "feeder": [f"{s}-{k:02d}" for s in ["ABN", "DUN", "INV", "PER"] for k in range(1, 17)],
    "circuit_km": rng.uniform(12, 95, n_feeders).round(1),
    "overhead_share": rng.uniform(0.2, 0.95, n_feeders).round(2),
})
rate_per_100km_yr = 3.1
feeders["faults_3yr"] = rng.poisson(rate_per_100km_yr * 3 * feeders["circuit_km"] / 100)
feeders.sort_values("faults_3yr", ascending=False).head()
'''

_FEEDER_FLAWED = '''
from scipy.stats import poisson

system_rate = feeders["faults_3yr"].sum() / feeders["circuit_km"].sum()   # faults per km, 3 yr
feeders["expected"] = system_rate * feeders["circuit_km"]
feeders["ratio"] = feeders["faults_3yr"] / feeders["expected"]
# one-sided exact Poisson test: is this feeder worse than the network as a whole?
feeders["p_worse"] = poisson.sf(feeders["faults_3yr"] - 1, feeders["expected"])

worst = feeders.query("p_worse < 0.05").sort_values("p_worse")
print(f"network rate {100 * system_rate / 3:.2f} faults/100km/yr")
print(f"{len(worst)} feeders significantly worse than network -> reinforcement shortlist")
worst[["feeder", "circuit_km", "faults_3yr", "expected", "ratio", "p_worse"]].round(3)
'''

_FEEDER_SOUND = '''
from scipy.stats import poisson
from statsmodels.stats.multitest import multipletests

system_rate = feeders["faults_3yr"].sum() / feeders["circuit_km"].sum()   # faults per km, 3 yr
feeders["expected"] = system_rate * feeders["circuit_km"]
feeders["ratio"] = feeders["faults_3yr"] / feeders["expected"]
# one-sided exact Poisson test: is this feeder worse than the network as a whole?
feeders["p_worse"] = poisson.sf(feeders["faults_3yr"] - 1, feeders["expected"])
# 64 feeders screened at once -> control the false discovery rate
feeders["q_bh"] = multipletests(feeders["p_worse"], method="fdr_bh")[1]

worst = feeders.query("q_bh < 0.05").sort_values("p_worse")
print(f"network rate {100 * system_rate / 3:.2f} faults/100km/yr")
print(f"{len(worst)} feeders worse than network at FDR 5% "
      f"({(feeders.p_worse < 0.05).sum()} at unadjusted p<0.05)")
feeders.sort_values("p_worse").head(5)[
    ["feeder", "circuit_km", "faults_3yr", "expected", "ratio", "p_worse", "q_bh"]].round(3)
'''

CASES: list[Case] = [
    Case(
        id="h28-mc-dr-trial-hourly-ttests",
        family="multiple_comparisons",
        setup=_DR_SETUP,
        code=_DR_FLAWED,
        twin="h28-mc-dr-trial-hourly-ttests-sound",
        note="24 hourly Welch t-tests between demand-response and control homes, every hour "
             "with p<0.05 reported as a real change with no multiplicity correction",
        split=SPLIT,
    ),
    Case(
        id="h28-mc-dr-trial-hourly-ttests-sound",
        family=None,
        setup=_DR_SETUP,
        code=_DR_SOUND,
        twin="h28-mc-dr-trial-hourly-ttests",
        note="same 24 hourly tests with Holm-adjusted p-values",
        split=SPLIT,
    ),
    Case(
        id="h28-mc-feeder-fault-rate-screen",
        family="multiple_comparisons",
        setup=_FEEDER_SETUP,
        code=_FEEDER_FLAWED,
        twin="h28-mc-feeder-fault-rate-screen-sound",
        note="64 per-feeder Poisson tests against the network rate; feeders with raw p<0.05 "
             "are shortlisted as significantly worse although all share one fault rate",
        split=SPLIT,
    ),
    Case(
        id="h28-mc-feeder-fault-rate-screen-sound",
        family=None,
        setup=_FEEDER_SETUP,
        code=_FEEDER_SOUND,
        twin="h28-mc-feeder-fault-rate-screen",
        note="same feeder screen with Benjamini-Hochberg FDR control across the 64 tests",
        split=SPLIT,
    ),
]
