from bench.critic_corpus import Case

_MICRO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8181)
n_taxa = 180
asv_ids = [f"ASV_{i:04d}" for i in range(n_taxa)]
n_abx, n_ctl = 16, 16
alpha_ctl = rng.lognormal(-0.5, 1.3, n_taxa)
alpha_abx = alpha_ctl.copy()
alpha_abx[rng.choice(n_taxa, 20, replace=False)] *= 0.6
props = np.vstack([rng.dirichlet(alpha_abx, n_abx), rng.dirichlet(alpha_ctl, n_ctl)])
depth = rng.integers(11000, 85000, n_abx + n_ctl)
counts = np.vstack([rng.multinomial(d, p) for d, p in zip(depth, props)])
asv = pd.DataFrame(counts, columns=asv_ids,
                   index=[f"infant_{i:02d}_m6" for i in range(n_abx + n_ctl)])
mapping = pd.DataFrame({"abx_exposure": ["yes"] * n_abx + ["no"] * n_ctl,
                        "delivery": rng.choice(["vaginal", "c_section"], n_abx + n_ctl)},
                       index=asv.index)
'''

_MICRO_FLAWED = '''
from scipy.stats import mannwhitneyu


def rarefy(row, depth):
    rng = np.random.default_rng()
    return rng.multivariate_hypergeometric(row, depth)


def shannon(c):
    p = c[c > 0] / c.sum()
    return -(p * np.log(p)).sum()


depth = int(asv.sum(axis=1).min())
rare = np.vstack([rarefy(r, depth) for r in asv.to_numpy()])
alpha = pd.DataFrame({"shannon": [shannon(r) for r in rare],
                      "observed_asvs": (rare > 0).sum(axis=1)}, index=asv.index)
alpha = alpha.join(mapping)
stat, p = mannwhitneyu(alpha.loc[alpha.abx_exposure == "yes", "shannon"],
                       alpha.loc[alpha.abx_exposure == "no", "shannon"])
print(f"rarefied to {depth} reads/sample; Shannon, abx vs none: Mann-Whitney p = {p:.4f}")
alpha.groupby("abx_exposure")[["shannon", "observed_asvs"]].mean().round(3)
'''

_MICRO_SOUND = '''
from scipy.stats import mannwhitneyu


def rarefy(row, depth, rng):
    return rng.multivariate_hypergeometric(row, depth)


def shannon(c):
    p = c[c > 0] / c.sum()
    return -(p * np.log(p)).sum()


depth = int(asv.sum(axis=1).min())
rng = np.random.default_rng(20240611)
rare = np.vstack([rarefy(r, depth, rng) for r in asv.to_numpy()])
alpha = pd.DataFrame({"shannon": [shannon(r) for r in rare],
                      "observed_asvs": (rare > 0).sum(axis=1)}, index=asv.index)
alpha = alpha.join(mapping)
stat, p = mannwhitneyu(alpha.loc[alpha.abx_exposure == "yes", "shannon"],
                       alpha.loc[alpha.abx_exposure == "no", "shannon"])
print(f"rarefied to {depth} reads/sample; Shannon, abx vs none: Mann-Whitney p = {p:.4f}")
alpha.groupby("abx_exposure")[["shannon", "observed_asvs"]].mean().round(3)
'''

_SC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3303)
genes = ["LYZ", "S100A8", "CD14", "FCGR3A", "MS4A7", "CD3E", "IL7R", "NKG7", "GNLY",
         "MS4A1", "CD79A", "PPBP"]
clusters = {"0": 1800, "1": 950, "2": 420, "3": 610}
prof = {"0": [3.1, 2.8, 1.9, 0.2, 0.4, 0.1, 0.2, 0.3, 0.1, 0.1, 0.1, 0.1],
        "1": [0.2, 0.1, 0.1, 0.1, 0.1, 2.2, 1.9, 0.6, 0.3, 0.1, 0.1, 0.1],
        "2": [1.6, 1.0, 0.5, 2.3, 2.0, 0.1, 0.1, 0.5, 0.2, 0.1, 0.1, 0.1],
        "3": [0.1, 0.1, 0.1, 0.1, 0.1, 0.4, 0.2, 2.4, 2.1, 0.1, 0.1, 0.1]}
blocks = []
for cl, n_cells in clusters.items():
    lam = np.expm1(np.array(prof[cl]))
    x = np.log1p(rng.poisson(lam * rng.lognormal(0, 0.5, size=(n_cells, 1)),
                             size=(n_cells, len(genes))))
    blocks.append(pd.DataFrame(x, columns=genes).assign(leiden=cl))
adata_df = pd.concat(blocks, ignore_index=True)
adata_df.index = [f"AAACC{i:06d}-1" for i in range(len(adata_df))]
'''

_SC_FLAWED = '''
from scipy.stats import mannwhitneyu

genes = [c for c in adata_df.columns if c != "leiden"]
sub = adata_df.groupby("leiden", group_keys=False).sample(n=300, replace=False)
target = sub.leiden == "2"

markers = []
for g in genes:
    a, b = sub.loc[target, g], sub.loc[~target, g]
    markers.append({"gene": g, "avg_log2FC": (a.mean() - b.mean()) / np.log(2),
                    "pct_in": (a > 0).mean(), "pct_out": (b > 0).mean(),
                    "p": mannwhitneyu(a, b).pvalue})
markers = pd.DataFrame(markers).sort_values("avg_log2FC", ascending=False)
print(f"cluster 2 vs rest, {len(sub)} cells after capping at 300 per cluster")
markers.head(5).set_index("gene").round(3)
'''

_SC_SOUND = '''
from scipy.stats import mannwhitneyu

genes = [c for c in adata_df.columns if c != "leiden"]
sub = adata_df.groupby("leiden", group_keys=False).sample(n=300, replace=False,
                                                            random_state=0)
target = sub.leiden == "2"

markers = []
for g in genes:
    a, b = sub.loc[target, g], sub.loc[~target, g]
    markers.append({"gene": g, "avg_log2FC": (a.mean() - b.mean()) / np.log(2),
                    "pct_in": (a > 0).mean(), "pct_out": (b > 0).mean(),
                    "p": mannwhitneyu(a, b).pvalue})
markers = pd.DataFrame(markers).sort_values("avg_log2FC", ascending=False)
print(f"cluster 2 vs rest, {len(sub)} cells after capping at 300 per cluster")
markers.head(5).set_index("gene").round(3)
'''

CASES: list[Case] = [
    Case(
        id="h17-unseeded-microbiome-rarefaction-default-rng",
        family="unseeded_randomness",
        setup=_MICRO_SETUP,
        code=_MICRO_FLAWED,
        twin="h17-unseeded-microbiome-rarefaction-seeded",
        note="Rarefaction draws from np.random.default_rng() with no seed, so the Shannon "
             "means and the Mann-Whitney p-value change on every run.",
        split="holdout17",
    ),
    Case(
        id="h17-unseeded-microbiome-rarefaction-seeded",
        family=None,
        setup=_MICRO_SETUP,
        code=_MICRO_SOUND,
        twin="h17-unseeded-microbiome-rarefaction-default-rng",
        note="One seeded Generator is passed to the rarefaction helper, so the diversity "
             "table and test are reproducible.",
        split="holdout17",
    ),
    Case(
        id="h17-unseeded-scrna-cluster-downsample-markers",
        family="unseeded_randomness",
        setup=_SC_SETUP,
        code=_SC_FLAWED,
        twin="h17-unseeded-scrna-cluster-downsample-seeded",
        note="groupby().sample() without random_state caps each cluster at 300 random cells, "
             "so the reported marker fold changes and p-values differ between runs.",
        split="holdout17",
    ),
    Case(
        id="h17-unseeded-scrna-cluster-downsample-seeded",
        family=None,
        setup=_SC_SETUP,
        code=_SC_SOUND,
        twin="h17-unseeded-scrna-cluster-downsample-markers",
        note="Per-cluster downsampling uses random_state=0, so the marker table is "
             "reproducible.",
        split="holdout17",
    ),
]
