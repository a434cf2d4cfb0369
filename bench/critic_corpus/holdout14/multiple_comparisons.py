from bench.critic_corpus import Case

_ERP_SETUP = '''
import numpy as np

rng = np.random.default_rng(1908)
channels = ["Fp1", "Fp2", "F7", "F3", "Fz", "F4", "F8", "FC5", "FC1", "FC2", "FC6", "T7",
            "C3", "Cz", "C4", "T8", "CP5", "CP1", "CP2", "CP6", "P7", "P3", "Pz", "P4", "P8",
            "PO9", "O1", "Oz", "O2", "PO10", "TP9", "TP10"]
windows_ms = [(t, t + 50) for t in range(100, 600, 50)]
n_sub = 22
# mean amplitude (uV) per participant x channel x window, congruent vs incongruent primes
subj_level = rng.normal(0, 1.8, (n_sub, len(channels), 1))
congruent = 2.0 + subj_level + rng.normal(0, 1.3, (n_sub, len(channels), len(windows_ms)))
incongruent = 2.0 + subj_level + rng.normal(0, 1.3, (n_sub, len(channels), len(windows_ms)))
print(congruent.shape, "participants x channels x windows")
'''

_ERP_FLAWED = '''
from scipy import stats

hits = []
for ci, ch in enumerate(channels):
    for wi, (t0, t1) in enumerate(windows_ms):
        t, p = stats.ttest_rel(incongruent[:, ci, wi], congruent[:, ci, wi])
        if p < 0.05:
            diff = (incongruent[:, ci, wi] - congruent[:, ci, wi]).mean()
            hits.append((ch, f"{t0}-{t1} ms", diff, t, p))

print(f"{len(hits)} channel x window effects of prime congruency (paired t, p < .05, "
      f"N = {n_sub}):")
for ch, win, diff, t, p in sorted(hits, key=lambda h: h[4]):
    print(f"  {ch:5s} {win:11s} diff={diff:+.2f} uV  t({n_sub - 1})={t:+.2f}  p={p:.4f}")
'''

_ERP_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

rows, pvals = [], []
for ci, ch in enumerate(channels):
    for wi, (t0, t1) in enumerate(windows_ms):
        t, p = stats.ttest_rel(incongruent[:, ci, wi], congruent[:, ci, wi])
        diff = (incongruent[:, ci, wi] - congruent[:, ci, wi]).mean()
        rows.append((ch, f"{t0}-{t1} ms", diff, t, p))
        pvals.append(p)

reject, p_fdr, _, _ = multipletests(pvals, alpha=0.05, method="fdr_bh")
print(f"{len(pvals)} channel x window tests; uncorrected p < .05: {np.sum(np.array(pvals) < .05)}; "
      f"surviving Benjamini-Hochberg FDR q < .05: {reject.sum()}")
for (ch, win, diff, t, p), q, r in zip(rows, p_fdr, reject):
    if r:
        print(f"  {ch:5s} {win:11s} diff={diff:+.2f} uV  t({n_sub - 1})={t:+.2f}  q={q:.4f}")
'''

_DROUGHT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(64)
traits = ["gs_mmol", "A_umol", "E_mmol", "Fv_Fm", "psi_leaf_MPa", "RWC_pct", "proline",
          "ABA_ng_g", "chl_SPAD", "SLA_cm2_g", "LMA_g_m2", "d13C", "N_pct", "K_pct",
          "sucrose", "glucose", "fructose", "starch", "MDA", "H2O2", "root_shoot",
          "tiller_n", "height_cm", "leaf_temp_C"]
genotypes = ["Ciano", "Kukri", "Excalibur", "RAC875"]
rows = []
for g in genotypes:
    for trt in ["WW", "WD"]:
        for rep in range(5):
            rows.append({"genotype": g, "water": trt, "pot": f"{g[:3]}-{trt}-{rep + 1}"})
plants = pd.DataFrame(rows)
n = len(plants)
for tr in traits:
    mu = rng.uniform(5, 50)
    drought = -0.35 * mu * (plants.water == "WD")
    plants[tr] = (mu + drought + rng.normal(0, 0.25 * mu, n)).round(3)
plants.head()
'''

_DROUGHT_FLAWED = '''
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

out = {}
for tr in traits:
    fit = smf.ols(f"{tr} ~ C(genotype) * C(water)", data=plants).fit()
    tab = anova_lm(fit, typ=2)
    out[tr] = {
        "F_GxW": tab.loc["C(genotype):C(water)", "F"],
        "p_GxW": tab.loc["C(genotype):C(water)", "PR(>F)"],
        "p_water": tab.loc["C(water)", "PR(>F)"],
    }
res = pd.DataFrame(out).T
tolerant = res[res.p_GxW < 0.05].sort_values("p_GxW")
print(f"traits with a genotype x water-regime interaction (p < 0.05): {list(tolerant.index)}")
res.round(4).sort_values("p_GxW").head(8)
'''

_DROUGHT_SOUND = '''
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.multitest import multipletests

out = {}
for tr in traits:
    fit = smf.ols(f"{tr} ~ C(genotype) * C(water)", data=plants).fit()
    tab = anova_lm(fit, typ=2)
    out[tr] = {
        "F_GxW": tab.loc["C(genotype):C(water)", "F"],
        "p_GxW": tab.loc["C(genotype):C(water)", "PR(>F)"],
        "p_water": tab.loc["C(water)", "PR(>F)"],
    }
res = pd.DataFrame(out).T
res["q_GxW"] = multipletests(res.p_GxW, method="fdr_bh")[1]
res["q_water"] = multipletests(res.p_water, method="fdr_bh")[1]
tolerant = res[res.q_GxW < 0.05].sort_values("p_GxW")
print(f"traits with a genotype x water-regime interaction (BH q < 0.05, {len(traits)} traits): "
      f"{list(tolerant.index)}")
res.round(4).sort_values("p_GxW").head(8)
'''

CASES: list[Case] = [
    Case(
        id="h14-multcomp-erp-channel-window-ttests",
        family="multiple_comparisons",
        setup=_ERP_SETUP,
        code=_ERP_FLAWED,
        twin="h14-multcomp-erp-channel-window-fdr",
        note="320 paired t-tests over channels x time windows and every p < .05 reported as a "
             "congruency effect with no correction; the data contain no true effect.",
        split="holdout14",
    ),
    Case(
        id="h14-multcomp-erp-channel-window-fdr",
        family=None,
        setup=_ERP_SETUP,
        code=_ERP_SOUND,
        twin="h14-multcomp-erp-channel-window-ttests",
        note="Same 320 tests, with Benjamini-Hochberg FDR control over the whole family before "
             "any effect is reported.",
        split="holdout14",
    ),
    Case(
        id="h14-multcomp-wheat-drought-trait-interactions",
        family="multiple_comparisons",
        setup=_DROUGHT_SETUP,
        code=_DROUGHT_FLAWED,
        twin="h14-multcomp-wheat-drought-trait-fdr",
        note="Genotype x drought interaction tested in 24 separate two-way ANOVAs and traits "
             "with p < 0.05 declared drought-tolerance markers, no multiplicity correction.",
        split="holdout14",
    ),
    Case(
        id="h14-multcomp-wheat-drought-trait-fdr",
        family=None,
        setup=_DROUGHT_SETUP,
        code=_DROUGHT_SOUND,
        twin="h14-multcomp-wheat-drought-trait-interactions",
        note="Same 24 ANOVAs, with interaction and main-effect p-values FDR-adjusted across "
             "traits before selection.",
        split="holdout14",
    ),
]
