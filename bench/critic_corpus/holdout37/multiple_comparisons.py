from bench.critic_corpus import Case

_AUDIT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3707)
n_org, n_conv = 34, 48
system = np.array(["organic"] * n_org + ["conventional"] * n_conv)
n = len(system)
org = system == "organic"
# one row per farm: Welfare Quality-style audit, animal-based measures as % of cows assessed
audit = pd.DataFrame({
    "farm_id": [f"F{i:03d}" for i in range(n)],
    "system": system,
    "lame_pct": rng.beta(4, 14, n) * 100 - 4 * org,
    "hock_lesion_pct": rng.beta(3, 9, n) * 100,
    "thin_pct": rng.beta(2, 18, n) * 100,
    "dirty_hindquarter_pct": rng.beta(5, 9, n) * 100,
    "nasal_discharge_pct": rng.beta(1.2, 30, n) * 100,
    "ocular_discharge_pct": rng.beta(1.5, 25, n) * 100,
    "diarrhoea_pct": rng.beta(1.5, 20, n) * 100,
    "hairless_patch_pct": rng.beta(3, 10, n) * 100,
    "swollen_knee_pct": rng.beta(2, 12, n) * 100,
    "avoid_dist_gt1m_pct": rng.beta(4, 8, n) * 100,
    "collision_per_cow_h": rng.gamma(2, 0.15, n),
    "lying_outside_pct": rng.beta(2, 20, n) * 100,
    "mortality_pct": rng.gamma(2.5, 1.0, n),
    "dystocia_pct": rng.gamma(2.0, 2.0, n),
})
'''

_DIET_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3719)
diets = ["control", "probiotic_A", "probiotic_B", "butyrate", "essential_oil", "enzyme_mix"]
true_adg = {"control": 62.0, "probiotic_A": 62.5, "probiotic_B": 61.8, "butyrate": 63.6,
            "essential_oil": 62.2, "enzyme_mix": 62.9}
# pen is the experimental unit: 8 pens of ~45 Ross 308 broilers per diet, pen-mean ADG d0-35
pens = pd.DataFrame([
    {"pen": f"P{d_i * 8 + k + 1:02d}", "diet": d,
     "adg_g": round(rng.normal(true_adg[d], 1.6), 2),
     "fcr": round(rng.normal(1.52, 0.03), 3)}
    for d_i, d in enumerate(diets) for k in range(8)
])
'''

CASES = [
    Case(
        id="h37-mc-welfare-audit-mwu-loop",
        family="multiple_comparisons",
        twin="h37-mc-welfare-audit-bh",
        setup=_AUDIT_SETUP,
        code='''from scipy.stats import mannwhitneyu

measures = [c for c in audit.columns if c not in ("farm_id", "system")]
res = []
for m in measures:
    o = audit.loc[audit.system == "organic", m]
    c = audit.loc[audit.system == "conventional", m]
    u, p = mannwhitneyu(o, c, alternative="two-sided")
    res.append({"measure": m, "organic_median": o.median(), "conv_median": c.median(), "p": p})

res = pd.DataFrame(res).set_index("measure").sort_values("p")
res["differs"] = np.where(res.p < 0.05, "*", "")
print(res.round(3))
hits = res.index[res.p < 0.05].tolist()
print(f"\\n{len(hits)} of {len(measures)} welfare measures differ between organic and "
      f"conventional farms: {', '.join(hits)}")
''',
        note="Fourteen Mann-Whitney tests with no multiplicity correction; measures with "
             "p < 0.05 are reported as organic-vs-conventional differences.",
        split="holdout37",
    ),
    Case(
        id="h37-mc-welfare-audit-bh",
        family=None,
        twin="h37-mc-welfare-audit-mwu-loop",
        setup=_AUDIT_SETUP,
        code='''from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

measures = [c for c in audit.columns if c not in ("farm_id", "system")]
res = []
for m in measures:
    o = audit.loc[audit.system == "organic", m]
    c = audit.loc[audit.system == "conventional", m]
    u, p = mannwhitneyu(o, c, alternative="two-sided")
    res.append({"measure": m, "organic_median": o.median(), "conv_median": c.median(), "p": p})

res = pd.DataFrame(res).set_index("measure").sort_values("p")
# 14 audit measures tested -> Benjamini-Hochberg false discovery rate at 5 %
reject, res["q_bh"], _, _ = multipletests(res.p, alpha=0.05, method="fdr_bh")
res["differs"] = np.where(reject, "*", "")
print(res.round(3))
hits = res.index[reject].tolist()
print(f"\\n{len(hits)} of {len(measures)} welfare measures differ at FDR 5 %: "
      f"{', '.join(hits) if hits else 'none'}")
''',
        note="Same farm-level Mann-Whitney tests, with Benjamini-Hochberg FDR control across "
             "the 14 measures before any difference is claimed.",
        split="holdout37",
    ),
    Case(
        id="h37-mc-broiler-diets-pairwise-t",
        family="multiple_comparisons",
        twin="h37-mc-broiler-diets-tukey",
        setup=_DIET_SETUP,
        code='''from itertools import combinations
from scipy import stats

print(pens.groupby("diet")["adg_g"].agg(["mean", "std", "count"]).round(2))
print()
sig_pairs = []
for a, b in combinations(diets, 2):
    t, p = stats.ttest_ind(pens.loc[pens.diet == a, "adg_g"], pens.loc[pens.diet == b, "adg_g"])
    diff = pens.loc[pens.diet == a, "adg_g"].mean() - pens.loc[pens.diet == b, "adg_g"].mean()
    if p < 0.05:
        sig_pairs.append((a, b, round(diff, 2), round(p, 4)))
print(f"{len(sig_pairs)} significant diet contrasts (P < 0.05) out of "
      f"{len(list(combinations(diets, 2)))}:")
for row in sig_pairs:
    print("  {} vs {}: diff = {} g/d, P = {}".format(*row))
''',
        note="All 15 pairwise pen-level t-tests between six diets at P < 0.05 with no "
             "adjustment; the significant pairs are reported as diet effects.",
        split="holdout37",
    ),
    Case(
        id="h37-mc-broiler-diets-tukey",
        family=None,
        twin="h37-mc-broiler-diets-pairwise-t",
        setup=_DIET_SETUP,
        code='''from scipy import stats
from statsmodels.stats.multicomp import pairwise_tukeyhsd

print(pens.groupby("diet")["adg_g"].agg(["mean", "std", "count"]).round(2))
f, p = stats.f_oneway(*[g["adg_g"] for _, g in pens.groupby("diet")])
print(f"\\none-way ANOVA on pen means: F = {f:.2f}, P = {p:.4f}")

# all 15 pairwise contrasts with Tukey's HSD (family-wise error held at 5 %)
tukey = pairwise_tukeyhsd(pens["adg_g"], pens["diet"], alpha=0.05)
print(tukey.summary())
''',
        note="Pen means analysed by one-way ANOVA with Tukey HSD, which controls the "
             "family-wise error rate over all 15 pairwise diet contrasts.",
        split="holdout37",
    ),
]
