from bench.critic_corpus import Case

_PROT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n_prot = 420
accessions = [f"P{rng.integers(10000, 99999)}" for _ in range(n_prot)]
gene_sym = [f"PROT{i:03d}" for i in range(n_prot)]
samples = [f"TMT_{ch}_{rep}" for rep in "AB" for ch in
           ["126", "127N", "127C", "128N", "128C", "129N", "129C", "130N", "130C", "131"]]
groups = np.array(["sepsis"] * 5 + ["control"] * 5 + ["sepsis"] * 5 + ["control"] * 5)

abund = rng.normal(21, 1.8, size=(n_prot, 1)) + rng.normal(0, 0.45, size=(n_prot, 20))
true_up = rng.choice(n_prot, 6, replace=False)
abund[np.ix_(true_up, np.where(groups == "sepsis")[0])] += 0.9
intens = pd.DataFrame(2 ** abund, index=accessions, columns=samples)
annot = pd.DataFrame({"accession": accessions, "gene": gene_sym}).set_index("accession")
design = pd.DataFrame({"sample": samples, "group": groups}).set_index("sample")
'''

_PROT_FLAWED = '''
from scipy import stats

log2 = np.log2(intens)
log2 = log2 - log2.median(axis=0) + log2.median(axis=0).mean()
sep = log2.loc[:, design.group == "sepsis"].to_numpy()
ctl = log2.loc[:, design.group == "control"].to_numpy()

t, p = stats.ttest_ind(sep, ctl, axis=1)
res = pd.DataFrame({"gene": annot.loc[log2.index, "gene"].to_numpy(),
                    "log2FC": sep.mean(axis=1) - ctl.mean(axis=1),
                    "t": t, "p": p}, index=log2.index)
hits = res[res.p < 0.05].sort_values("p")
print(f"{len(hits)} of {len(res)} proteins differ between sepsis and control (p < 0.05)")
print(f"  up in sepsis: {(hits.log2FC > 0).sum()}, down: {(hits.log2FC < 0).sum()}")
hits.head(12).round(4)
'''

_PROT_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

log2 = np.log2(intens)
log2 = log2 - log2.median(axis=0) + log2.median(axis=0).mean()
sep = log2.loc[:, design.group == "sepsis"].to_numpy()
ctl = log2.loc[:, design.group == "control"].to_numpy()

t, p = stats.ttest_ind(sep, ctl, axis=1)
res = pd.DataFrame({"gene": annot.loc[log2.index, "gene"].to_numpy(),
                    "log2FC": sep.mean(axis=1) - ctl.mean(axis=1),
                    "t": t, "p": p}, index=log2.index)
res["q_BH"] = multipletests(res.p, method="fdr_bh")[1]
hits = res[res.q_BH < 0.05].sort_values("p")
print(f"{len(hits)} of {len(res)} proteins differ between sepsis and control (BH q < 0.05)")
print(f"  up in sepsis: {(hits.log2FC > 0).sum()}, down: {(hits.log2FC < 0).sum()}")
res.sort_values("p").head(12).round(4)
'''

_MICRO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(616)
genera = ["Bacteroides", "Prevotella", "Faecalibacterium", "Roseburia", "Ruminococcus",
          "Blautia", "Akkermansia", "Bifidobacterium", "Escherichia", "Klebsiella",
          "Enterococcus", "Streptococcus", "Veillonella", "Dialister", "Alistipes",
          "Parabacteroides", "Coprococcus", "Dorea", "Lachnospira", "Eubacterium",
          "Subdoligranulum", "Oscillibacter", "Sutterella", "Bilophila", "Desulfovibrio",
          "Haemophilus", "Lactobacillus", "Collinsella", "Megamonas", "Fusobacterium",
          "Odoribacter", "Butyricimonas", "Christensenella", "Methanobrevibacter",
          "Anaerostipes", "Intestinibacter", "Romboutsia", "Turicibacter", "Holdemania",
          "Erysipelatoclostridium", "Flavonifractor", "Eggerthella", "Hungatella",
          "Lachnoclostridium", "Agathobacter", "Barnesiella", "Phascolarctobacterium",
          "Catenibacterium", "Slackia", "Senegalimassilia"]
n_ibd, n_ctl = 28, 26
alpha = rng.lognormal(0, 1.2, len(genera))
props = rng.dirichlet(alpha, size=n_ibd + n_ctl)
props[:n_ibd, genera.index("Faecalibacterium")] *= 0.15
props = props / props.sum(axis=1, keepdims=True)
depth = rng.integers(18000, 60000, n_ibd + n_ctl)
reads = np.vstack([rng.multinomial(d, p) for d, p in zip(depth, props)])
otu = pd.DataFrame(reads, columns=genera,
                   index=[f"stool_{i:03d}" for i in range(n_ibd + n_ctl)])
meta = pd.DataFrame({"diagnosis": ["IBD"] * n_ibd + ["control"] * n_ctl,
                     "age": rng.integers(18, 70, n_ibd + n_ctl)}, index=otu.index)
'''

_MICRO_FLAWED = '''
from scipy.stats import mannwhitneyu

rel = otu.div(otu.sum(axis=1), axis=0)
prevalent = rel.columns[(rel > 1e-4).mean() >= 0.2]
is_ibd = meta.loc[rel.index, "diagnosis"].eq("IBD")

rows = []
for genus in prevalent:
    a, b = rel.loc[is_ibd, genus], rel.loc[~is_ibd, genus]
    stat, p = mannwhitneyu(a, b, alternative="two-sided")
    rows.append((genus, a.median() * 100, b.median() * 100,
                 np.log2((a.median() + 1e-6) / (b.median() + 1e-6)), p))
da = pd.DataFrame(rows, columns=["genus", "IBD_median_%", "ctrl_median_%", "log2FC", "p"])
da = da.sort_values("p").reset_index(drop=True)
print(f"differentially abundant genera (Wilcoxon p < 0.05): "
      f"{', '.join(da.loc[da.p < 0.05, 'genus'])}")
da.head(8).round(4)
'''

_MICRO_SOUND = '''
from scipy.stats import mannwhitneyu
from statsmodels.stats.multitest import multipletests

rel = otu.div(otu.sum(axis=1), axis=0)
prevalent = rel.columns[(rel > 1e-4).mean() >= 0.2]
is_ibd = meta.loc[rel.index, "diagnosis"].eq("IBD")

rows = []
for genus in prevalent:
    a, b = rel.loc[is_ibd, genus], rel.loc[~is_ibd, genus]
    stat, p = mannwhitneyu(a, b, alternative="two-sided")
    rows.append((genus, a.median() * 100, b.median() * 100,
                 np.log2((a.median() + 1e-6) / (b.median() + 1e-6)), p))
da = pd.DataFrame(rows, columns=["genus", "IBD_median_%", "ctrl_median_%", "log2FC", "p"])
da["q"] = multipletests(da.p, method="fdr_bh")[1]
da = da.sort_values("p").reset_index(drop=True)
print(f"{len(prevalent)} genera tested; differentially abundant (BH q < 0.1): "
      f"{', '.join(da.loc[da.q < 0.1, 'genus']) or 'none'}")
da.head(8).round(4)
'''

CASES: list[Case] = [
    Case(
        id="h17-multcomp-proteomics-420-ttests-raw-p",
        family="multiple_comparisons",
        setup=_PROT_SETUP,
        code=_PROT_FLAWED,
        twin="h17-multcomp-proteomics-420-ttests-bh",
        note="420 protein-wise t-tests with hits declared at raw p < 0.05 and no FDR control; "
             "about 20 false positives expected by chance among the reported list.",
        split="holdout17",
    ),
    Case(
        id="h17-multcomp-proteomics-420-ttests-bh",
        family=None,
        setup=_PROT_SETUP,
        code=_PROT_SOUND,
        twin="h17-multcomp-proteomics-420-ttests-raw-p",
        note="Same protein-wise t-tests, hits called at Benjamini-Hochberg q < 0.05.",
        split="holdout17",
    ),
    Case(
        id="h17-multcomp-microbiome-genus-wilcoxon-loop",
        family="multiple_comparisons",
        setup=_MICRO_SETUP,
        code=_MICRO_FLAWED,
        twin="h17-multcomp-microbiome-genus-wilcoxon-fdr",
        note="One Mann-Whitney test per prevalent genus (~50) and every genus with p < 0.05 "
             "is listed as differentially abundant with no multiplicity correction.",
        split="holdout17",
    ),
    Case(
        id="h17-multcomp-microbiome-genus-wilcoxon-fdr",
        family=None,
        setup=_MICRO_SETUP,
        code=_MICRO_SOUND,
        twin="h17-multcomp-microbiome-genus-wilcoxon-loop",
        note="Same per-genus Mann-Whitney tests with Benjamini-Hochberg q-values; only "
             "FDR-controlled genera are called.",
        split="holdout17",
    ),
]
