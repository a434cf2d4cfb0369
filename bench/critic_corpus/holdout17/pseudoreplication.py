from bench.critic_corpus import Case

_SC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2402)
donors = [f"D{i:02d}" for i in range(1, 9)]
status = dict(zip(donors, ["SLE"] * 4 + ["healthy"] * 4))
donor_shift = dict(zip(donors, rng.normal(0, 0.55, len(donors))))
rows = []
for d in donors:
    n_cells = int(rng.integers(250, 700))
    mu = 1.1 + donor_shift[d] + (0.25 if status[d] == "SLE" else 0.0)
    ifi27 = np.clip(rng.normal(mu, 0.7, n_cells), 0, None)
    isg15 = np.clip(rng.normal(1.6 + 0.5 * donor_shift[d], 0.6, n_cells), 0, None)
    rows.append(pd.DataFrame({"barcode": [f"{d}_{i:05d}-1" for i in range(n_cells)],
                              "donor": d, "condition": status[d],
                              "leiden": "3", "cell_type": "CD14_mono",
                              "IFI27": ifi27.round(3), "ISG15": isg15.round(3),
                              "n_counts": rng.integers(1500, 9000, n_cells)}))
obs = pd.concat(rows, ignore_index=True)
'''

_SC_FLAWED = '''
from scipy import stats

mono = obs[obs.cell_type == "CD14_mono"]
res = []
for gene in ["IFI27", "ISG15"]:
    sle = mono.loc[mono.condition == "SLE", gene]
    hc = mono.loc[mono.condition == "healthy", gene]
    t, p = stats.ttest_ind(sle, hc)
    res.append({"gene": gene, "mean_SLE": sle.mean(), "mean_HC": hc.mean(),
                "log2FC": np.log2((sle.mean() + 0.1) / (hc.mean() + 0.1)),
                "n_SLE": len(sle), "n_HC": len(hc), "t": t, "p": p})
print("CD14+ monocytes, SLE vs healthy")
pd.DataFrame(res).set_index("gene").round(4)
'''

_SC_SOUND = '''
from scipy import stats

mono = obs[obs.cell_type == "CD14_mono"]
pseudobulk = mono.groupby(["donor", "condition"])[["IFI27", "ISG15"]].mean().reset_index()
res = []
for gene in ["IFI27", "ISG15"]:
    sle = pseudobulk.loc[pseudobulk.condition == "SLE", gene]
    hc = pseudobulk.loc[pseudobulk.condition == "healthy", gene]
    t, p = stats.ttest_ind(sle, hc)
    res.append({"gene": gene, "mean_SLE": sle.mean(), "mean_HC": hc.mean(),
                "log2FC": np.log2((sle.mean() + 0.1) / (hc.mean() + 0.1)),
                "n_SLE": len(sle), "n_HC": len(hc), "t": t, "p": p})
print("CD14+ monocytes, SLE vs healthy (donor-level pseudobulk means)")
pd.DataFrame(res).set_index("gene").round(4)
'''

_EEG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1215)
subjects = [f"sub-{g}{i:02d}" for g in ("P", "C") for i in range(1, 13)]
rows = []
for s in subjects:
    grp = "patient" if s[4] == "P" else "control"
    subj_alpha = rng.normal(1.2 if grp == "patient" else 1.0, 0.35)
    n_trials = int(rng.integers(60, 90))
    rows.append(pd.DataFrame({
        "subject": s, "group": grp, "trial": np.arange(1, n_trials + 1),
        "condition": rng.choice(["eyes_open_task", "oddball"], n_trials),
        "frontal_alpha_log_power": subj_alpha + rng.normal(0, 0.4, n_trials),
        "rejected": rng.random(n_trials) < 0.03,
    }))
trials = pd.concat(rows, ignore_index=True)
'''

_EEG_FLAWED = '''
import statsmodels.formula.api as smf

clean = trials[~trials.rejected]
ols = smf.ols("frontal_alpha_log_power ~ C(group, Treatment('control'))", data=clean).fit()
print(f"{clean.subject.nunique()} subjects, {len(clean)} clean trials")
print(clean.groupby("group").frontal_alpha_log_power.agg(["mean", "sem", "count"]).round(3))
beta = ols.params.iloc[1]
lo, hi = ols.conf_int().iloc[1]
print(f"patients - controls: {beta:.3f} log-power [{lo:.3f}, {hi:.3f}], "
      f"p = {ols.pvalues.iloc[1]:.2e}")
'''

_EEG_SOUND = '''
import statsmodels.formula.api as smf

clean = trials[~trials.rejected]
mixed = smf.mixedlm("frontal_alpha_log_power ~ C(group, Treatment('control'))",
                    data=clean, groups=clean["subject"]).fit(reml=True)
print(f"{clean.subject.nunique()} subjects, {len(clean)} clean trials")
per_subj = clean.groupby(["subject", "group"]).frontal_alpha_log_power.mean()
print(per_subj.groupby("group").agg(["mean", "sem", "count"]).round(3))
beta = mixed.params.iloc[1]
lo, hi = mixed.conf_int().iloc[1]
print(f"patients - controls: {beta:.3f} log-power [{lo:.3f}, {hi:.3f}], "
      f"p = {mixed.pvalues.iloc[1]:.2e} (random intercept per subject)")
'''

CASES: list[Case] = [
    Case(
        id="h17-pseudorep-scrna-cells-as-replicates",
        family="pseudoreplication",
        setup=_SC_SETUP,
        code=_SC_FLAWED,
        twin="h17-pseudorep-scrna-donor-pseudobulk",
        note="Cells from 4 SLE and 4 healthy donors are fed to a t-test as ~3500 independent "
             "samples; donor-to-donor variation is ignored, so p-values are far too small.",
        split="holdout17",
    ),
    Case(
        id="h17-pseudorep-scrna-donor-pseudobulk",
        family=None,
        setup=_SC_SETUP,
        code=_SC_SOUND,
        twin="h17-pseudorep-scrna-cells-as-replicates",
        note="Expression averaged per donor (pseudobulk) and compared 4 vs 4 donors, the "
             "true experimental units.",
        split="holdout17",
    ),
    Case(
        id="h17-pseudorep-eeg-trials-pooled-ols",
        family="pseudoreplication",
        setup=_EEG_SETUP,
        code=_EEG_FLAWED,
        twin="h17-pseudorep-eeg-mixedlm-subject",
        note="OLS over ~1700 trials from 24 subjects treats trials as independent for a "
             "between-subject group effect; the SE and p-value are grossly understated.",
        split="holdout17",
    ),
    Case(
        id="h17-pseudorep-eeg-mixedlm-subject",
        family=None,
        setup=_EEG_SETUP,
        code=_EEG_SOUND,
        twin="h17-pseudorep-eeg-trials-pooled-ols",
        note="Linear mixed model with a random intercept per subject, so the group effect is "
             "tested against between-subject variability.",
        split="holdout17",
    ),
]
