from bench.critic_corpus import Case

_RNA_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6006)
n = 64
batch = np.repeat(["run_2021_07", "run_2022_02"], n // 2)
ids_canonical = [f"PT-{i:03d}" for i in range(1, n + 1)]
ids_sheet = [s if b == "run_2021_07" else s.lower().replace("-", "_")
             for s, b in zip(ids_canonical, batch)]
timepoint = np.where(batch == "run_2021_07",
                     rng.choice(["baseline", "week12"], n, p=[0.75, 0.25]),
                     rng.choice(["baseline", "week12"], n, p=[0.25, 0.75]))
sample_sheet = pd.DataFrame({"sample_id": ids_sheet, "patient": ids_canonical,
                             "timepoint": timepoint, "sequencing_run": batch,
                             "rin": rng.uniform(6.5, 9.8, n).round(1)})

genes = ["CXCL10", "IFNG", "GZMB", "IL7R", "FOXP3", "CD8A"]
logcpm = rng.normal([5.2, 3.1, 6.0, 7.4, 3.9, 6.6], 0.8, size=(n, len(genes)))
wk12 = timepoint == "week12"
logcpm[wk12, 0] += 0.9
logcpm[wk12, 2] += 0.6
expr = pd.DataFrame(logcpm.round(3), index=ids_canonical, columns=genes)
expr.index.name = "sample"
'''

_RNA_FLAWED = '''
from scipy import stats

genes = ["CXCL10", "IFNG", "GZMB", "IL7R", "FOXP3", "CD8A"]
dat = sample_sheet.merge(expr, left_on="sample_id", right_index=True)

rows = []
for g in genes:
    base = dat.loc[dat.timepoint == "baseline", g]
    wk = dat.loc[dat.timepoint == "week12", g]
    t, p = stats.ttest_ind(wk, base, equal_var=False)
    rows.append({"gene": g, "baseline": base.mean(), "week12": wk.mean(),
                 "log2FC": wk.mean() - base.mean(), "p": p})
de = pd.DataFrame(rows).sort_values("p").set_index("gene")
print("on-treatment change in log-CPM (week 12 vs baseline)")
de.round(4)
'''

_RNA_SOUND = '''
from scipy import stats

genes = ["CXCL10", "IFNG", "GZMB", "IL7R", "FOXP3", "CD8A"]
sheet = sample_sheet.assign(
    sample_key=sample_sheet.sample_id.str.upper().str.replace("_", "-", regex=False))
unmatched = sorted(set(sheet.sample_key) ^ set(expr.index))
print(f"sample sheet: {len(sheet)}, expression matrix: {len(expr)}, "
      f"unmatched after ID normalisation: {len(unmatched)}")
assert not unmatched, unmatched
dat = sheet.merge(expr, left_on="sample_key", right_index=True, validate="one_to_one")
print(dat.groupby(["sequencing_run", "timepoint"]).size().unstack())

rows = []
for g in genes:
    base = dat.loc[dat.timepoint == "baseline", g]
    wk = dat.loc[dat.timepoint == "week12", g]
    t, p = stats.ttest_ind(wk, base, equal_var=False)
    rows.append({"gene": g, "baseline": base.mean(), "week12": wk.mean(),
                 "log2FC": wk.mean() - base.mean(), "p": p})
de = pd.DataFrame(rows).sort_values("p").set_index("gene")
print("on-treatment change in log-CPM (week 12 vs baseline)")
de.round(4)
'''

_ECG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4500)
n = 150
arm = np.repeat(["placebo", "10 mg", "40 mg"], n // 3)
site = rng.choice(["site_A", "site_B"], n)
qtc = rng.normal(415, 22, n) + np.select([arm == "10 mg", arm == "40 mg"], [8, 56], 0)
txt = np.where(site == "site_B", [f"{v:.0f} ms" for v in qtc], [f"{v:.0f}" for v in qtc])
txt = np.where(qtc > 500, ">500", txt)
txt = np.where(rng.random(n) < 0.04, "", txt)
patch_ecg = pd.DataFrame({"subject": [f"1001-{i:04d}" for i in range(n)], "arm": arm,
                          "site": site, "visit": "day_14", "qtcf_ms": txt,
                          "hr_bpm": rng.normal(70, 9, n).round()})
'''

_ECG_FLAWED = '''
ecg = patch_ecg.copy()
ecg["qtcf_ms"] = pd.to_numeric(ecg["qtcf_ms"], errors="coerce")
ecg = ecg.dropna(subset=["qtcf_ms"])

summ = ecg.groupby("arm", sort=False)["qtcf_ms"].agg(["mean", "std", "max"])
summ["dQTcF_vs_placebo"] = summ["mean"] - summ.loc["placebo", "mean"]
summ["n_gt_500"] = ecg.groupby("arm", sort=False)["qtcf_ms"].apply(lambda s: (s > 500).sum())
print(f"subjects with QTcF > 500 ms: {int(summ.n_gt_500.sum())}")
summ.round(1)
'''

_ECG_SOUND = '''
ecg = patch_ecg.copy()
raw = ecg["qtcf_ms"].str.strip()
ecg["gt_500"] = raw.eq(">500")
ecg["qtcf_num"] = pd.to_numeric(raw.str.replace(r"\\s*ms$", "", regex=True), errors="coerce")
ecg.loc[ecg.gt_500, "qtcf_num"] = 500.0
missing = ecg.qtcf_num.isna()
print(f"{len(ecg)} ECGs: {int(ecg.gt_500.sum())} reported as '>500', "
      f"{int(missing.sum())} blank/unreadable (excluded):")
print(ecg.loc[missing].groupby("arm", sort=False).size().to_string())

ok = ecg[~missing]
summ = ok.groupby("arm", sort=False)["qtcf_num"].agg(n="size", median="median")
summ["dQTcF_median_vs_placebo"] = summ["median"] - summ.loc["placebo", "median"]
summ["n_gt_500"] = ok.groupby("arm", sort=False)["gt_500"].sum()
print(f"subjects with QTcF > 500 ms: {int(summ.n_gt_500.sum())}")
summ.round(1)
'''

CASES: list[Case] = [
    Case(
        id="h17-dataloss-rnaseq-sheet-merge-id-mismatch",
        family="data_loss",
        setup=_RNA_SETUP,
        code=_RNA_FLAWED,
        twin="h17-dataloss-rnaseq-sheet-merge-ids-normalised",
        note="Second sequencing run's sample IDs are lowercase with underscores, so the inner "
             "merge silently drops half the samples (most week-12) before the DE summary.",
        split="holdout17",
    ),
    Case(
        id="h17-dataloss-rnaseq-sheet-merge-ids-normalised",
        family=None,
        setup=_RNA_SETUP,
        code=_RNA_SOUND,
        twin="h17-dataloss-rnaseq-sheet-merge-id-mismatch",
        note="IDs normalised before the merge, unmatched samples counted and asserted zero, "
             "one-to-one merge validated; all 64 samples are analysed.",
        split="holdout17",
    ),
    Case(
        id="h17-dataloss-ecg-qtcf-coerce-drops-over-500",
        family="data_loss",
        setup=_ECG_SETUP,
        code=_ECG_FLAWED,
        twin="h17-dataloss-ecg-qtcf-parsed-with-censoring",
        note="to_numeric(errors='coerce') + dropna silently removes every '>500' and 'NNN ms' "
             "reading (site B), so the table reports no QTcF > 500 and biased arm means.",
        split="holdout17",
    ),
    Case(
        id="h17-dataloss-ecg-qtcf-parsed-with-censoring",
        family=None,
        setup=_ECG_SETUP,
        code=_ECG_SOUND,
        twin="h17-dataloss-ecg-qtcf-coerce-drops-over-500",
        note="Unit suffixes stripped, '>500' kept as a censored value and counted, blanks "
             "reported per arm; medians are valid with the right-censored readings.",
        split="holdout17",
    ),
]
