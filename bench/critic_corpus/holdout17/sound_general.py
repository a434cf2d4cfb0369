from bench.critic_corpus import Case

_FMRI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2021)
rois = ["V1", "FFA_L", "FFA_R", "PPA_L", "PPA_R", "LOC"]
true_effect = np.array([0.05, 0.45, 0.55, 0.0, 0.05, 0.3])
n_sub = 26
subj_mean = rng.normal(0.8, 0.3, size=(n_sub, 1))
faces = subj_mean + true_effect + rng.normal(0, 0.35, size=(n_sub, len(rois)))
houses = subj_mean + rng.normal(0, 0.35, size=(n_sub, len(rois)))
betas = pd.concat([
    pd.DataFrame(faces, columns=rois).assign(condition="faces"),
    pd.DataFrame(houses, columns=rois).assign(condition="houses"),
]).assign(subject=np.tile([f"sub-{i:02d}" for i in range(1, n_sub + 1)], 2))
'''

_FMRI_CODE = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

rois = ["V1", "FFA_L", "FFA_R", "PPA_L", "PPA_R", "LOC"]
wide = betas.pivot(index="subject", columns="condition")
diff = wide.xs("faces", axis=1, level=1)[rois] - wide.xs("houses", axis=1, level=1)[rois]

res = []
for roi in rois:
    d = diff[roi].to_numpy()
    t = stats.ttest_1samp(d, 0.0)
    ci = t.confidence_interval(0.95)
    res.append({"roi": roi, "mean_diff": d.mean(), "ci_low": ci.low, "ci_high": ci.high,
                "dz": d.mean() / d.std(ddof=1), "t": t.statistic, "p": t.pvalue,
                "shapiro_p": stats.shapiro(d).pvalue})
res = pd.DataFrame(res).set_index("roi")
res["p_holm"] = multipletests(res.p, method="holm")[1]
print(f"faces > houses, paired within {len(diff)} subjects, Holm-adjusted over {len(rois)} ROIs")
res.sort_values("p").round(4)
'''

_PROT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n_prot, n_samp = 600, 30
batch = np.repeat(["plate1", "plate2", "plate3"], 10)
tissue = np.tile(["tumour", "adjacent"], 15)
log2_int = rng.normal(22, 2, size=(n_prot, 1)) + rng.normal(0, 0.4, size=(n_prot, n_samp))
log2_int[:40, tissue == "tumour"] += 1.2
log2_int += rng.normal(0, 0.3, size=(1, n_samp))
lfq = pd.DataFrame(2 ** log2_int, index=[f"Q{i:05d}" for i in range(n_prot)],
                   columns=[f"{b}_{t}_{i:02d}" for i, (b, t) in enumerate(zip(batch, tissue))])
coldata = pd.DataFrame({"batch": batch, "tissue": tissue}, index=lfq.columns)
'''

_PROT_CODE = '''
from scipy import stats
from sklearn.decomposition import PCA

X = np.log2(lfq)
X = X - X.median(axis=0)
X = X.T
X = X - X.mean(axis=0)
pca = PCA(n_components=5, svd_solver="full").fit(X)
scores = pd.DataFrame(pca.transform(X)[:, :2], columns=["PC1", "PC2"], index=X.index)
scores = scores.join(coldata)
print("variance explained:", np.round(pca.explained_variance_ratio_, 3))
for pc in ["PC1", "PC2"]:
    kw_b = stats.kruskal(*[g[pc] for _, g in scores.groupby("batch")]).pvalue
    mw_t = stats.mannwhitneyu(*[g[pc] for _, g in scores.groupby("tissue")]).pvalue
    print(f"{pc}: batch Kruskal p = {kw_b:.3f}, tissue Mann-Whitney p = {mw_t:.2e}")
scores.groupby(["tissue", "batch"])[["PC1", "PC2"]].mean().round(2)
'''

_GWAS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(909)
n, n_snp = 1400, 25
maf = rng.uniform(0.08, 0.45, n_snp)
G = rng.binomial(2, maf, size=(n, n_snp))
snps = [f"rs{rng.integers(10**6, 10**8)}" for _ in range(n_snp)]
age = rng.normal(58, 9, n)
sex = rng.integers(0, 2, n)
pcs = rng.normal(0, 1, size=(n, 3))
lp = -1.0 + 0.03 * (age - 58) + 0.2 * sex + 0.35 * G[:, 4] + 0.25 * G[:, 17] + 0.2 * pcs[:, 0]
case = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
geno = pd.DataFrame(G, columns=snps)
cov = pd.DataFrame({"case": case, "age": age.round(1), "sex": sex,
                    "PC1": pcs[:, 0], "PC2": pcs[:, 1], "PC3": pcs[:, 2]})
'''

_GWAS_CODE = '''
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests

base = sm.add_constant(cov[["age", "sex", "PC1", "PC2", "PC3"]])
rows = []
for snp in geno.columns:
    X = base.assign(dosage=geno[snp])
    fit = sm.Logit(cov["case"], X).fit(disp=0)
    lo, hi = np.exp(fit.conf_int().loc["dosage"])
    rows.append({"snp": snp, "eaf": geno[snp].mean() / 2, "OR": np.exp(fit.params["dosage"]),
                 "OR_lo": lo, "OR_hi": hi, "p": fit.pvalues["dosage"]})
assoc = pd.DataFrame(rows).set_index("snp")
assoc["q_BH"] = multipletests(assoc.p, method="fdr_bh")[1]
print(f"{len(assoc)} candidate SNPs, additive logistic model adjusted for age, sex, PC1-3")
print(f"FDR < 5%: {list(assoc.index[assoc.q_BH < 0.05])}")
assoc.sort_values("p").head(6).round(4)
'''

_FLOW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(515)
n = 19
pre = rng.beta(4, 60, n) * 100
post = pre * rng.lognormal(0.3, 0.3, n)
tregs = pd.DataFrame({
    "patient": [f"GVHD-{i:02d}" for i in range(1, n + 1)],
    "treg_pct_cd4_pre": pre.round(2),
    "treg_pct_cd4_d28": post.round(2),
    "cd4_events_pre": rng.integers(8000, 40000, n),
    "cd4_events_d28": rng.integers(8000, 40000, n),
})
'''

_FLOW_CODE = '''
from scipy import stats

d = tregs.treg_pct_cd4_d28 - tregs.treg_pct_cd4_pre
ratio = tregs.treg_pct_cd4_d28 / tregs.treg_pct_cd4_pre
w = stats.wilcoxon(tregs.treg_pct_cd4_d28, tregs.treg_pct_cd4_pre)
q = tregs[["treg_pct_cd4_pre", "treg_pct_cd4_d28"]].quantile([0.25, 0.5, 0.75]).T
print(f"n = {len(tregs)} patients with paired samples (low-dose IL-2, day 0 vs day 28)")
print(f"median paired change {d.median():+.2f} %-points, "
      f"median fold change {ratio.median():.2f}, increased in {(d > 0).sum()}/{len(d)}")
print(f"Wilcoxon signed-rank: W = {w.statistic:.0f}, p = {w.pvalue:.4f}")
q.round(2)
'''

_PATH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6161)
n_pat = 60
msi = rng.random(n_pat) < 0.35
tiles = []
for i in range(n_pat):
    n_tiles = int(rng.integers(6, 14))
    pat_eff = rng.normal(0, 0.6, 12)
    f = rng.normal(0, 1, size=(n_tiles, 12)) + pat_eff
    f[:, :3] += 0.8 * msi[i]
    df = pd.DataFrame(f, columns=[f"feat_{j:02d}" for j in range(12)])
    df["patient_id"] = f"TCGA-{i:04d}"
    df["msi_high"] = int(msi[i])
    tiles.append(df)
tiles = pd.concat(tiles, ignore_index=True)
'''

_PATH_CODE = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedGroupKFold

feats = [c for c in tiles.columns if c.startswith("feat_")]
X, y, groups = tiles[feats].to_numpy(), tiles["msi_high"].to_numpy(), tiles["patient_id"]
cv = StratifiedGroupKFold(n_splits=5, shuffle=True, random_state=4)
fold_auc = []
for k, (tr, te) in enumerate(cv.split(X, y, groups)):
    assert set(groups.iloc[tr]).isdisjoint(groups.iloc[te])
    rf = RandomForestClassifier(n_estimators=80, min_samples_leaf=5, random_state=k, n_jobs=1)
    rf.fit(X[tr], y[tr])
    tile_p = pd.Series(rf.predict_proba(X[te])[:, 1], index=groups.iloc[te].to_numpy())
    pat_p = tile_p.groupby(level=0).mean()
    pat_y = tiles.groupby("patient_id")["msi_high"].first().loc[pat_p.index]
    fold_auc.append(roc_auc_score(pat_y, pat_p))
print(f"{groups.nunique()} patients, {len(tiles)} tiles; patient-level AUC per fold:",
      np.round(fold_auc, 3))
print(f"mean patient-level AUC = {np.mean(fold_auc):.3f} (SD {np.std(fold_auc, ddof=1):.3f})")
'''

CASES: list[Case] = [
    Case(
        id="h17-sound-fmri-roi-paired-ttests-holm",
        family=None,
        setup=_FMRI_SETUP,
        code=_FMRI_CODE,
        note="Within-subject faces-houses differences per ROI, one-sample t-tests on n=26 "
             "roughly normal differences with CIs, Holm correction over the 6 ROIs.",
        split="holdout17",
    ),
    Case(
        id="h17-sound-proteomics-pca-batch-check",
        family=None,
        setup=_PROT_SETUP,
        code=_PROT_CODE,
        note="Descriptive PCA of median-normalised log2 LFQ intensities with nonparametric "
             "checks of PC scores against batch and tissue; unsupervised, no test set.",
        split="holdout17",
    ),
    Case(
        id="h17-sound-gwas-candidate-snps-logit-bh",
        family=None,
        setup=_GWAS_SETUP,
        code=_GWAS_CODE,
        note="Per-SNP additive logistic regressions adjusted for age, sex and 3 PCs, with "
             "odds-ratio CIs and Benjamini-Hochberg FDR across the 25 SNPs.",
        split="holdout17",
    ),
    Case(
        id="h17-sound-flow-treg-paired-wilcoxon",
        family=None,
        setup=_FLOW_SETUP,
        code=_FLOW_CODE,
        note="Paired pre/post Treg percentages per patient compared with the Wilcoxon "
             "signed-rank test, medians and IQRs reported; one test, paired design respected.",
        split="holdout17",
    ),
    Case(
        id="h17-sound-pathology-tiles-grouped-cv",
        family=None,
        setup=_PATH_SETUP,
        code=_PATH_CODE,
        note="Tile-level classifier evaluated with StratifiedGroupKFold by patient, tile "
             "predictions aggregated to patient-level AUC; seeded and leak-free.",
        split="holdout17",
    ),
]
