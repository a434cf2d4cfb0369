from bench.critic_corpus import Case

SPLIT = "holdout30"

_UNITS_SETUP = '''
import numpy as np

rng = np.random.default_rng(660)
n_units, n_trials = 240, 30
# auditory cortex, Neuropixels (kilosort 2.5, good units only)
# spike counts per trial: 200 ms baseline before the tone vs 200 ms after tone onset
base_hz = rng.lognormal(1.3, 0.8, n_units)
lam_base = np.outer(np.ones(n_trials), base_hz) * 0.2
mod = np.ones(n_units)
mod[:8] = 2.4                                  # a handful of truly tone-driven units
trial_gain = rng.gamma(12, 1 / 12, (n_trials, n_units))
spk_base = rng.poisson(lam_base * trial_gain)
spk_tone = rng.poisson(lam_base * mod * rng.gamma(12, 1 / 12, (n_trials, n_units)))
unit_ids = np.array([f"imec0_{i:03d}" for i in rng.choice(900, n_units, replace=False)])
print(spk_base.shape, spk_tone.shape)
'''

_UNITS_FLAWED = '''
from scipy.stats import wilcoxon

pvals = np.ones(n_units)
delta_hz = (spk_tone.mean(0) - spk_base.mean(0)) / 0.2
for i in range(n_units):
    d = spk_tone[:, i] - spk_base[:, i]
    if np.all(d == 0):
        continue
    pvals[i] = wilcoxon(spk_tone[:, i], spk_base[:, i]).pvalue

responsive = np.flatnonzero(pvals < 0.05)
print(f"tone-responsive units: {len(responsive)}/{n_units} "
      f"({len(responsive) / n_units:.0%}), Wilcoxon signed-rank p < 0.05")
print(f"  excited: {(delta_hz[responsive] > 0).sum()}, "
      f"suppressed: {(delta_hz[responsive] < 0).sum()}")
for i in responsive[np.argsort(pvals[responsive])][:10]:
    print(f"  {unit_ids[i]}  dFR = {delta_hz[i]:+6.2f} Hz   p = {pvals[i]:.4f}")
'''

_UNITS_SOUND = '''
from scipy.stats import wilcoxon
from statsmodels.stats.multitest import multipletests

pvals = np.ones(n_units)
delta_hz = (spk_tone.mean(0) - spk_base.mean(0)) / 0.2
for i in range(n_units):
    d = spk_tone[:, i] - spk_base[:, i]
    if np.all(d == 0):
        continue
    pvals[i] = wilcoxon(spk_tone[:, i], spk_base[:, i]).pvalue

# 240 tests -> control the false discovery rate across units
reject, qvals, _, _ = multipletests(pvals, alpha=0.05, method="fdr_bh")
responsive = np.flatnonzero(reject)
print(f"uncorrected p < 0.05: {(pvals < 0.05).sum()} units (~{0.05 * n_units:.0f} expected "
      f"by chance)")
print(f"tone-responsive units (BH-FDR q < 0.05): {len(responsive)}/{n_units} "
      f"({len(responsive) / n_units:.0%})")
print(f"  excited: {(delta_hz[responsive] > 0).sum()}, "
      f"suppressed: {(delta_hz[responsive] < 0).sum()}")
for i in responsive[np.argsort(pvals[responsive])][:10]:
    print(f"  {unit_ids[i]}  dFR = {delta_hz[i]:+6.2f} Hz   q = {qvals[i]:.4f}")
'''

_BATTERY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1719)
n_per = 11
measures = {
    "openfield_dist_m": (38, 7), "openfield_center_pct": (14, 5), "rotarod_latency_s": (142, 40),
    "grip_strength_g": (118, 15), "ymaze_alternation_pct": (66, 9), "nor_disc_index": (0.28, .15),
    "epm_open_arm_pct": (21, 8), "tail_susp_immob_s": (95, 30), "sucrose_pref_pct": (78, 8),
    "nest_score": (3.6, 0.8), "beam_slips": (4.2, 1.8), "fear_freeze_pct": (41, 12),
    "mwm_latency_d5_s": (22, 9), "prepulse_inhib_pct": (52, 14),
}
rows = []
for grp in ["sham", "lesion"]:
    for k in range(n_per):
        row = {"rat": f"{grp[0].upper()}{k + 1:02d}", "group": grp}
        for m, (mu, sd) in measures.items():
            row[m] = rng.normal(mu, sd)
        rows.append(row)
beh = pd.DataFrame(rows)
# dorsal hippocampus lesion (NMDA) vs sham: water maze is the only truly affected measure
beh.loc[beh.group == "lesion", "mwm_latency_d5_s"] += 12
beh.round(2).head()
'''

_BATTERY_FLAWED = '''
from scipy import stats

out = []
for m in [c for c in beh.columns if c not in ("rat", "group")]:
    sham = beh.loc[beh.group == "sham", m]
    les = beh.loc[beh.group == "lesion", m]
    t, p = stats.ttest_ind(les, sham)
    d = (les.mean() - sham.mean()) / np.sqrt((les.var() + sham.var()) / 2)
    out.append({"measure": m, "sham": sham.mean(), "lesion": les.mean(),
                "cohen_d": d, "p": p})
res = pd.DataFrame(out).sort_values("p")
res["sig"] = np.where(res.p < 0.05, "*", "")
print("Lesion effects (p < 0.05):", ", ".join(res.loc[res.p < 0.05, "measure"]))
res.round(3)
'''

_BATTERY_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

out = []
for m in [c for c in beh.columns if c not in ("rat", "group")]:
    sham = beh.loc[beh.group == "sham", m]
    les = beh.loc[beh.group == "lesion", m]
    t, p = stats.ttest_ind(les, sham)
    d = (les.mean() - sham.mean()) / np.sqrt((les.var() + sham.var()) / 2)
    out.append({"measure": m, "sham": sham.mean(), "lesion": les.mean(),
                "cohen_d": d, "p": p})
res = pd.DataFrame(out).sort_values("p")
# 14 outcomes in the battery -> Holm adjustment (family-wise error 0.05)
res["p_holm"] = multipletests(res.p, method="holm")[1]
res["sig"] = np.where(res.p_holm < 0.05, "*", "")
print("Lesion effects (Holm-adjusted p < 0.05):",
      ", ".join(res.loc[res.p_holm < 0.05, "measure"]) or "none")
res.round(3)
'''

CASES: list[Case] = [
    Case(
        id="h30-mc-tone-responsive-units",
        family="multiple_comparisons",
        setup=_UNITS_SETUP,
        code=_UNITS_FLAWED,
        twin="h30-mc-tone-responsive-units-ok",
        note="240 per-unit Wilcoxon tests at p < 0.05 with no correction; about 12 'responsive' "
             "units are expected by chance alone and are reported as tone-driven.",
        split=SPLIT,
    ),
    Case(
        id="h30-mc-tone-responsive-units-ok",
        family=None,
        setup=_UNITS_SETUP,
        code=_UNITS_SOUND,
        twin="h30-mc-tone-responsive-units",
        note="Per-unit p-values are BH-FDR corrected before units are called responsive.",
        split=SPLIT,
    ),
    Case(
        id="h30-mc-lesion-behaviour-battery",
        family="multiple_comparisons",
        setup=_BATTERY_SETUP,
        code=_BATTERY_FLAWED,
        twin="h30-mc-lesion-behaviour-battery-ok",
        note="14 behavioural measures tested lesion vs sham at p < 0.05 each; the list of "
             "'lesion effects' is not corrected for the 14 tests.",
        split=SPLIT,
    ),
    Case(
        id="h30-mc-lesion-behaviour-battery-ok",
        family=None,
        setup=_BATTERY_SETUP,
        code=_BATTERY_SOUND,
        twin="h30-mc-lesion-behaviour-battery",
        note="Same battery of t-tests, with Holm adjustment across the 14 outcomes.",
        split=SPLIT,
    ),
]
