from bench.critic_corpus import Case

_XRF_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3313)
n = 40
icp_pb = np.exp(rng.uniform(np.log(150), np.log(12000), n))   # mg/kg, reference ICP-OES
xrf_pb = 1.18 * icp_pb * np.exp(rng.normal(0, 0.09, n)) + 35   # handheld XRF reads high
paint = pd.DataFrame({
    "chip_id": [f"PB-{i:03d}" for i in range(1, n + 1)],
    "icp_pb_mgkg": icp_pb.round(0),
    "xrf_pb_mgkg": xrf_pb.round(0),
})
'''

_PANEL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3314)
pretreat_names = {1: "Zn phosphate", 2: "Fe phosphate", 3: "Zr conversion",
                  4: "none (solvent wipe)"}
mean_creep = {1: 1.2, 2: 3.6, 3: 1.0, 4: 3.9}     # mm after 1000 h neutral salt spray
recs = []
for code, name in pretreat_names.items():
    for i in range(12):
        dft = rng.normal(65, 8)
        creep = max(0.2, mean_creep[code] * np.exp(rng.normal(0, 0.25)) - 0.01 * (dft - 65))
        blister = int(np.clip(np.round(10 - 1.6 * creep + rng.normal(0, 0.8)), 0, 10))
        recs.append({"panel": f"P{code}{i:02d}", "pretreat_code": code, "pretreat": name,
                     "dft_um": round(dft, 1), "creep_mm": round(creep, 1),
                     "blister_rating": blister})   # ASTM D714-style 10 = none ... 0 = worst
panels = pd.DataFrame(recs)
'''

CASES: list[Case] = [
    Case(
        id="h33-correlation-misuse-xrf-vs-icp-agreement-by-r",
        family="correlation_misuse",
        setup=_XRF_SETUP,
        code='''
from scipy.stats import pearsonr
import matplotlib.pyplot as plt

r, p = pearsonr(paint["icp_pb_mgkg"], paint["xrf_pb_mgkg"])
fig, ax = plt.subplots(figsize=(4, 4))
ax.loglog(paint["icp_pb_mgkg"], paint["xrf_pb_mgkg"], "o", mfc="none")
ax.plot([100, 2e4], [100, 2e4], "k--", lw=0.8)
ax.set_xlabel("ICP-OES Pb (mg/kg)")
ax.set_ylabel("handheld XRF Pb (mg/kg)")

print(f"Pearson r = {r:.4f} (r2 = {r ** 2:.4f}), p = {p:.1e}, n = {len(paint)}")
print("-> XRF agrees with ICP-OES; XRF can replace the lab digest for Pb screening")
''',
        twin="h33-correlation-misuse-xrf-vs-icp-bland-altman-sound",
        note="A high Pearson r is taken as agreement between XRF and ICP-OES, but XRF reads "
             "about 20 % high; correlation measures association, not agreement.",
        split="holdout33",
    ),
    Case(
        id="h33-correlation-misuse-xrf-vs-icp-bland-altman-sound",
        family=None,
        setup=_XRF_SETUP,
        code='''
import matplotlib.pyplot as plt
from scipy import stats

# Bland-Altman on the log scale: concentrations span 2 decades, error is proportional
d = np.log(paint["xrf_pb_mgkg"]) - np.log(paint["icp_pb_mgkg"])
avg = (np.log(paint["xrf_pb_mgkg"]) + np.log(paint["icp_pb_mgkg"])) / 2
bias, sd = d.mean(), d.std(ddof=1)
se = sd / np.sqrt(len(d))
tq = stats.t.ppf(0.975, len(d) - 1)
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.plot(np.exp(avg), 100 * (np.exp(d) - 1), "o", mfc="none")
ax.set_xscale("log")
for v in (bias, bias - 1.96 * sd, bias + 1.96 * sd):
    ax.axhline(100 * (np.exp(v) - 1), ls="--", lw=0.8)
ax.set_xlabel("mean Pb (mg/kg)")
ax.set_ylabel("XRF vs ICP (%)")

print(f"n = {len(d)}  mean ratio XRF/ICP = {np.exp(bias):.3f} "
      f"(95% CI {np.exp(bias - tq * se):.3f}-{np.exp(bias + tq * se):.3f})")
print(f"95% limits of agreement: {100 * (np.exp(bias - 1.96 * sd) - 1):+.0f} % to "
      f"{100 * (np.exp(bias + 1.96 * sd) - 1):+.0f} %")
''',
        twin="h33-correlation-misuse-xrf-vs-icp-agreement-by-r",
        note="Agreement assessed by a log-scale Bland-Altman analysis: mean XRF/ICP ratio with "
             "its CI and 95% limits of agreement, which expose the proportional bias.",
        split="holdout33",
    ),
    Case(
        id="h33-correlation-misuse-coating-panels-corr-on-codes",
        family="correlation_misuse",
        setup=_PANEL_SETUP,
        code='''
cm = panels[["pretreat_code", "dft_um", "creep_mm", "blister_rating"]].corr()
print(cm.round(2))
print()
print(f"pretreatment vs scribe creep:  r = {cm.loc['pretreat_code', 'creep_mm']:+.2f}")
print(f"pretreatment vs blistering:    r = {cm.loc['pretreat_code', 'blister_rating']:+.2f}")
print("-> pretreatment type has only a weak influence on corrosion (|r| < 0.4)")
''',
        twin="h33-correlation-misuse-coating-panels-rank-and-groups-sound",
        note="Pearson correlation on a nominal pretreatment code (1-4) and an ordinal blister "
             "rating; the code order is arbitrary and the weak r hides large group differences.",
        split="holdout33",
    ),
    Case(
        id="h33-correlation-misuse-coating-panels-rank-and-groups-sound",
        family=None,
        setup=_PANEL_SETUP,
        code='''
from scipy import stats

# pretreatment is nominal -> compare groups; blister rating is ordinal -> ranks
print(panels.groupby("pretreat")[["creep_mm", "blister_rating"]].median())
print()
h_c, p_c = stats.kruskal(*[g["creep_mm"] for _, g in panels.groupby("pretreat")])
h_b, p_b = stats.kruskal(*[g["blister_rating"] for _, g in panels.groupby("pretreat")])
print(f"Kruskal-Wallis, creep by pretreatment:     H = {h_c:.1f}, p = {p_c:.2g}")
print(f"Kruskal-Wallis, blister by pretreatment:   H = {h_b:.1f}, p = {p_b:.2g}")
rho, p_r = stats.spearmanr(panels["dft_um"], panels["blister_rating"])
print(f"Spearman DFT vs blister rating:          rho = {rho:+.2f}, p = {p_r:.2g}")
''',
        twin="h33-correlation-misuse-coating-panels-corr-on-codes",
        note="Nominal pretreatment is compared across groups with Kruskal-Wallis and the "
             "ordinal blister rating is related to DFT with Spearman's rho.",
        split="holdout33",
    ),
]
