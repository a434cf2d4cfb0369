from bench.critic_corpus import Case

SPLIT = "holdout30"

_HIST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(90210)
# kilosort units from two Neuropixels probes in one mouse + channel -> region table from the
# histology alignment GUI (exported by hand to a spreadsheet)
n0, n1 = 210, 180
units = pd.DataFrame({
    "probe": ["imec0"] * n0 + ["imec1"] * n1,
    "peak_ch": np.r_[rng.integers(0, 384, n0), rng.integers(0, 384, n1)],
})
units["cluster_id"] = np.arange(len(units))
regions0 = np.select([np.arange(384) < 90, np.arange(384) < 200, np.arange(384) < 300],
                     ["CA1", "DG", "VISp"], "VISp")
regions1 = np.select([np.arange(384) < 140, np.arange(384) < 260], ["VPM", "PO"], "SSp-bfd")
chan_map = pd.DataFrame({
    "probe": ["imec0"] * 384 + ["imec1 "] * 384,           # trailing space from the export
    "peak_ch": np.r_[np.arange(384), np.arange(384)],
    "region": np.r_[regions0, regions1],
})
base = {"CA1": 1.5, "DG": 0.8, "VISp": 4.0, "VPM": 14.0, "PO": 9.0, "SSp-bfd": 3.0}
reg_true = np.where(units.probe == "imec0", regions0[units.peak_ch], regions1[units.peak_ch])
units["fr_hz"] = rng.lognormal(np.log([base[r] for r in reg_true]), 0.6).round(2)
units.head()
'''

_HIST_FLAWED = '''
merged = units.merge(chan_map, on=["probe", "peak_ch"])
by_region = (merged.groupby("region")["fr_hz"]
             .agg(n_units="size", median_hz="median", mean_hz="mean")
             .sort_values("median_hz", ascending=False)
             .round(2))
print(f"overall median firing rate: {merged.fr_hz.median():.2f} Hz")
by_region
'''

_HIST_SOUND = '''
chan_map["probe"] = chan_map["probe"].str.strip()
merged = units.merge(chan_map, on=["probe", "peak_ch"], how="left", validate="many_to_one",
                     indicator=True)
unmatched = merged["_merge"] != "both"
print(f"units: {len(units)}, matched to a region: {(~unmatched).sum()}, "
      f"unmatched: {unmatched.sum()}")
if unmatched.any():
    print(merged.loc[unmatched, "probe"].value_counts().to_string())
by_region = (merged.dropna(subset=["region"]).groupby("region")["fr_hz"]
             .agg(n_units="size", median_hz="median", mean_hz="mean")
             .sort_values("median_hz", ascending=False)
             .round(2))
print(f"overall median firing rate: {merged.fr_hz.median():.2f} Hz")
by_region
'''

_OPTO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6174)
# go/no-go licking task, ArchT silencing of ALM on a random 30% of trials; 3 mice, 2 sessions
n = 1500
laser = rng.random(n) < 0.3
rt = rng.lognormal(np.log(450), 0.45, n) + np.where(laser, 330, 0)
rt_txt = np.array([f"{v:.1f}" for v in rt], dtype=object)
# the logger writes thousands with a comma and caps late licks at the 1500 ms window
slow = rt >= 1000
rt_txt[slow] = [f"{int(v // 1000)},{v % 1000:05.1f}" for v in rt[slow]]
rt_txt[rt >= 1500] = ">1500"
log = pd.DataFrame({
    "mouse": rng.choice(["ALM07", "ALM09", "ALM12"], n),
    "session": rng.choice(["s1", "s2"], n),
    "laser": np.where(laser, "on", "off"),
    "first_lick_ms": rt_txt,
})
log.head()
'''

_OPTO_FLAWED = '''
log["first_lick_ms"] = pd.to_numeric(log["first_lick_ms"], errors="coerce")
log = log.dropna(subset=["first_lick_ms"])

summ = log.groupby("laser")["first_lick_ms"].agg(["mean", "median", "std"]).round(1)
print(summ)
delta = summ.loc["on", "mean"] - summ.loc["off", "mean"]
print(f"\\nALM silencing delays the first lick by {delta:.0f} ms on average")
'''

_OPTO_SOUND = '''
raw = log["first_lick_ms"].astype(str)
capped = raw.str.startswith(">")
rt_ms = pd.to_numeric(raw.str.replace(",", "", regex=False).where(~capped, "1500"),
                      errors="coerce")
print(f"trials: {len(log)}; capped at the 1500 ms window: {capped.sum()}; "
      f"unparseable: {rt_ms.isna().sum()}")
log["first_lick_ms"] = rt_ms
log["capped"] = capped
# capped trials are right-censored, so compare medians (valid while < 50% are capped)
summ = log.groupby("laser").agg(n=("first_lick_ms", "size"), n_capped=("capped", "sum"),
                                median=("first_lick_ms", "median")).round(1)
print(summ)
delta = summ.loc["on", "median"] - summ.loc["off", "median"]
print(f"\\nALM silencing delays the median first lick by {delta:.0f} ms")
'''

CASES: list[Case] = [
    Case(
        id="h30-loss-probe-key-mismatch-merge",
        family="data_loss",
        setup=_HIST_SETUP,
        code=_HIST_FLAWED,
        twin="h30-loss-probe-key-mismatch-merge-ok",
        note="Inner merge on probe name where the histology table has 'imec1 ' (trailing "
             "space) silently drops every imec1 unit, so the thalamic regions vanish.",
        split=SPLIT,
    ),
    Case(
        id="h30-loss-probe-key-mismatch-merge-ok",
        family=None,
        setup=_HIST_SETUP,
        code=_HIST_SOUND,
        twin="h30-loss-probe-key-mismatch-merge",
        note="Keys are cleaned, the merge is a validated left join with an indicator, and "
             "matched/unmatched counts are reported.",
        split=SPLIT,
    ),
    Case(
        id="h30-loss-lick-latency-coerce-dropna",
        family="data_loss",
        setup=_OPTO_SETUP,
        code=_OPTO_FLAWED,
        twin="h30-loss-lick-latency-coerce-dropna-ok",
        note="to_numeric(errors='coerce') turns '1,234' and '>1500' latencies into NaN and "
             "dropna removes them silently: all slow (mostly laser) trials are lost.",
        split=SPLIT,
    ),
    Case(
        id="h30-loss-lick-latency-coerce-dropna-ok",
        family=None,
        setup=_OPTO_SETUP,
        code=_OPTO_SOUND,
        twin="h30-loss-lick-latency-coerce-dropna",
        note="Thousands separators are parsed, capped values kept as censored at 1500 ms, "
             "counts reported, and medians compared.",
        split=SPLIT,
    ),
]
