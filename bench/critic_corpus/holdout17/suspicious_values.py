from bench.critic_corpus import Case

_FLOW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1919)
markers = ["CD3", "CD4", "CD8", "CD19", "CD56", "CD14", "HLA-DR", "CD38"]
base_mfi = np.array([5200, 3100, 2700, 1800, 950, 4200, 1350, 720])
n_pat, n_ctl = 20, 18
group = np.array(["RA"] * n_pat + ["healthy"] * n_ctl)
mfi = base_mfi * rng.lognormal(0, 0.18, size=(group.size, len(markers)))
mfi[group == "RA", markers.index("CD38")] *= 1.3
mfi = mfi.round(0)
failed = rng.random(mfi.shape) < 0.05
failed[:, markers.index("HLA-DR")] = rng.random(group.size) < np.where(group == "RA", 0.0, 0.22)
mfi[failed] = -999
panel = pd.DataFrame(mfi, columns=markers)
panel.insert(0, "fcs_file", [f"PBMC_{i:03d}_panel2.fcs" for i in range(group.size)])
panel.insert(1, "group", group)
panel.insert(2, "acq_date", rng.choice(pd.date_range("2023-03-01", periods=40), group.size))
'''

_FLOW_FLAWED = '''
markers = ["CD3", "CD4", "CD8", "CD19", "CD56", "CD14", "HLA-DR", "CD38"]
med = panel.groupby("group")[markers].mean().T
med["pct_change_RA"] = 100 * (med["RA"] - med["healthy"]) / med["healthy"]
med = med.sort_values("pct_change_RA", ascending=False)
print("median fluorescence intensity, mean per group (CD45+ lymph/mono gate)")
top = med.index[0]
print(f"largest shift in RA: {top} ({med.loc[top, 'pct_change_RA']:+.0f}%)")
med.round(1)
'''

_FLOW_SOUND = '''
markers = ["CD3", "CD4", "CD8", "CD19", "CD56", "CD14", "HLA-DR", "CD38"]
clean = panel.copy()
clean[markers] = clean[markers].mask(clean[markers] < 0)
print("failed channels (-999) per marker and group, excluded from the means:")
print(clean[markers].isna().groupby(clean["group"]).sum())
med = clean.groupby("group")[markers].mean().T
med["pct_change_RA"] = 100 * (med["RA"] - med["healthy"]) / med["healthy"]
med = med.sort_values("pct_change_RA", ascending=False)
top = med.index[0]
print(f"largest shift in RA: {top} ({med.loc[top, 'pct_change_RA']:+.0f}%)")
med.round(1)
'''

_METH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(450)
n_cpg, n_case, n_ctrl = 3000, 18, 18
probe_ids = [f"cg{rng.integers(0, 10**8):08d}" for _ in range(n_cpg)]
genes = rng.choice(["MGMT", "MLH1", "CDKN2A", "RASSF1", "GSTP1", "APC", "BRCA1", "intergenic"],
                   n_cpg, p=[0.004, 0.004, 0.004, 0.004, 0.004, 0.004, 0.004, 0.972])
genes[:12] = "MGMT"
mu = rng.beta(2, 5, n_cpg)
beta = np.clip(mu[:, None] + rng.normal(0, 0.06, size=(n_cpg, n_case + n_ctrl)), 0.001, 0.999)
beta[:4, :n_case] += 0.12
beta = np.clip(beta, 0.001, 0.999)
betas = pd.DataFrame(beta, index=probe_ids,
                     columns=[f"GBM_{i:02d}" for i in range(n_case)]
                     + [f"NB_{i:02d}" for i in range(n_ctrl)])
probe_annot = pd.DataFrame({"gene": genes, "chr": "chr10"}, index=probe_ids)
'''

_METH_FLAWED = '''
from scipy import stats


def m_values(b):
    return np.log2(b / (1 - b))


def bonferroni(p):
    return p * p.size


M = m_values(betas.to_numpy())
is_case = betas.columns.str.startswith("GBM")
t, p = stats.ttest_ind(M[:, is_case], M[:, ~is_case], axis=1)
dm = pd.DataFrame({"gene": probe_annot.gene.to_numpy(),
                   "delta_beta": betas.loc[:, is_case].mean(1) - betas.loc[:, ~is_case].mean(1),
                   "t": t, "p": p, "p_bonf": bonferroni(p)}, index=betas.index)
mgmt = dm[dm.gene == "MGMT"].sort_values("p")
print(f"{(dm.p_bonf < 0.05).sum()} CpGs genome-wide significant after Bonferroni")
print(f"MGMT promoter: {(mgmt.p_bonf < 0.05).sum()}/{len(mgmt)} CpGs hypermethylated in GBM")
mgmt.round(4)
'''

_METH_SOUND = '''
from scipy import stats


def m_values(b):
    return np.log2(b / (1 - b))


def bonferroni(p):
    return np.minimum(p * p.size, 1.0)


M = m_values(betas.to_numpy())
is_case = betas.columns.str.startswith("GBM")
t, p = stats.ttest_ind(M[:, is_case], M[:, ~is_case], axis=1)
dm = pd.DataFrame({"gene": probe_annot.gene.to_numpy(),
                   "delta_beta": betas.loc[:, is_case].mean(1) - betas.loc[:, ~is_case].mean(1),
                   "t": t, "p": p, "p_bonf": bonferroni(p)}, index=betas.index)
mgmt = dm[dm.gene == "MGMT"].sort_values("p")
print(f"{(dm.p_bonf < 0.05).sum()} CpGs genome-wide significant after Bonferroni")
print(f"MGMT promoter: {(mgmt.p_bonf < 0.05).sum()}/{len(mgmt)} CpGs hypermethylated in GBM")
mgmt.round(4)
'''

CASES: list[Case] = [
    Case(
        id="h17-suspicious-flow-mfi-minus999-averaged",
        family="suspicious_values",
        setup=_FLOW_SETUP,
        code=_FLOW_FLAWED,
        twin="h17-suspicious-flow-mfi-failed-channels-masked",
        note="-999 failed-acquisition codes are averaged into the MFI means (22% of healthy "
             "HLA-DR), so HLA-DR appears strongly raised in RA; the placeholder drives it.",
        split="holdout17",
    ),
    Case(
        id="h17-suspicious-flow-mfi-failed-channels-masked",
        family=None,
        setup=_FLOW_SETUP,
        code=_FLOW_SOUND,
        twin="h17-suspicious-flow-mfi-minus999-averaged",
        note="Negative placeholder MFIs are masked to NaN and counted per marker and group "
             "before averaging.",
        split="holdout17",
    ),
    Case(
        id="h17-suspicious-methylation-bonferroni-above-one",
        family="suspicious_values",
        setup=_METH_SETUP,
        code=_METH_FLAWED,
        twin="h17-suspicious-methylation-bonferroni-capped",
        note="Hand-rolled Bonferroni multiplies p by 3000 without capping, so the reported "
             "MGMT table shows adjusted p-values far above 1 and nobody notices.",
        split="holdout17",
    ),
    Case(
        id="h17-suspicious-methylation-bonferroni-capped",
        family=None,
        setup=_METH_SETUP,
        code=_METH_SOUND,
        twin="h17-suspicious-methylation-bonferroni-above-one",
        note="Bonferroni-adjusted p-values are capped at 1, so every reported value is a "
             "valid probability.",
        split="holdout17",
    ),
]
