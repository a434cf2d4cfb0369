from bench.critic_corpus import Case

SPLIT = "holdout30"

_KO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8081)
# Shank3 KO vs WT littermates, L2/3 S1 units, spontaneous firing (Hz), silicon probe
recs = []
for geno, mice in [("WT", ["WT1", "WT2", "WT3", "WT4", "WT5"]),
                   ("KO", ["KO1", "KO2", "KO3", "KO4", "KO5"])]:
    for m in mice:
        mouse_offset = rng.normal(0, 0.35)                  # anaesthesia depth, probe placement
        n_units = int(rng.integers(28, 75))
        log_fr = np.log(3.0) + mouse_offset + rng.normal(0, 0.7, n_units)
        recs.append(pd.DataFrame({"mouse": m, "genotype": geno,
                                  "unit": np.arange(n_units), "fr_hz": np.exp(log_fr)}))
units = pd.concat(recs, ignore_index=True)
units.groupby(["genotype", "mouse"]).fr_hz.agg(["count", "median"]).round(2)
'''

_KO_FLAWED = '''
from scipy import stats

wt = np.log10(units.loc[units.genotype == "WT", "fr_hz"].to_numpy())
ko = np.log10(units.loc[units.genotype == "KO", "fr_hz"].to_numpy())
t, p = stats.ttest_ind(ko, wt)
print(f"WT: n = {len(wt)} units, geometric mean {10 ** wt.mean():.2f} Hz")
print(f"KO: n = {len(ko)} units, geometric mean {10 ** ko.mean():.2f} Hz")
print(f"log10 FR, KO vs WT: t({len(wt) + len(ko) - 2}) = {t:.2f}, p = {p:.2g}")
print(f"-> KO units fire {10 ** (ko.mean() - wt.mean()):.2f}x the WT rate")
'''

_KO_SOUND = '''
from scipy import stats

# the mouse is the experimental unit: summarise units within each mouse first
per_mouse = (units.assign(log_fr=np.log10(units.fr_hz))
             .groupby(["genotype", "mouse"], as_index=False)
             .agg(n_units=("unit", "size"), log_fr=("log_fr", "mean")))
wt = per_mouse.loc[per_mouse.genotype == "WT", "log_fr"].to_numpy()
ko = per_mouse.loc[per_mouse.genotype == "KO", "log_fr"].to_numpy()
t, p = stats.ttest_ind(ko, wt)
print(f"WT: {len(wt)} mice ({per_mouse.n_units[per_mouse.genotype == 'WT'].sum()} units), "
      f"geometric mean {10 ** wt.mean():.2f} Hz")
print(f"KO: {len(ko)} mice ({per_mouse.n_units[per_mouse.genotype == 'KO'].sum()} units), "
      f"geometric mean {10 ** ko.mean():.2f} Hz")
print(f"per-mouse mean log10 FR, KO vs WT: t({len(wt) + len(ko) - 2}) = {t:.2f}, p = {p:.2g}")
print(f"-> KO/WT ratio {10 ** (ko.mean() - wt.mean()):.2f}x")
'''

_RT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1206)
# 5-choice serial reaction time task, day 3 post-surgery; PPC lesion vs sham rats
rows = []
for grp, n_rats in [("sham", 6), ("lesion", 6)]:
    for r in range(n_rats):
        rat = f"{grp[:2]}{r + 1}"
        rat_mu = rng.normal(6.05, 0.13)                    # log-ms, rat-specific speed
        n = int(rng.integers(120, 200))
        rt = np.exp(rat_mu + (0.04 if grp == "lesion" else 0) + rng.normal(0, 0.25, n))
        rows.append(pd.DataFrame({"rat": rat, "group": grp, "trial": np.arange(n),
                                  "rt_ms": rt.round(1)}))
srtt = pd.concat(rows, ignore_index=True)
srtt["log_rt"] = np.log(srtt.rt_ms)
print(srtt.groupby("group").rat.nunique().to_dict(), len(srtt), "correct trials")
'''

_RT_FLAWED = '''
import statsmodels.formula.api as smf

m = smf.ols("log_rt ~ C(group, Treatment('sham')) + trial", data=srtt).fit()
print(m.summary().tables[1])
b = m.params["C(group, Treatment('sham'))[T.lesion]"]
p = m.pvalues["C(group, Treatment('sham'))[T.lesion]"]
print(f"\\nPPC lesion slows responses by {100 * (np.exp(b) - 1):.1f}% (p = {p:.2g}, "
      f"n = {int(m.nobs)} trials)")
'''

_RT_SOUND = '''
import statsmodels.formula.api as smf

# trials are nested in rats -> random intercept per rat; group is a between-rat factor
m = smf.mixedlm("log_rt ~ C(group, Treatment('sham')) + trial", data=srtt,
                groups=srtt["rat"]).fit(reml=True)
print(pd.DataFrame({"coef": m.fe_params, "se": m.bse_fe, "p": m.pvalues[m.fe_params.index]})
      .round(4).to_string())
print(f"rat intercept SD = {np.sqrt(m.cov_re.iloc[0, 0]):.3f} log-ms, "
      f"residual SD = {np.sqrt(m.scale):.3f}")
b = m.params["C(group, Treatment('sham'))[T.lesion]"]
p = m.pvalues["C(group, Treatment('sham'))[T.lesion]"]
print(f"\\nPPC lesion effect on RT: {100 * (np.exp(b) - 1):+.1f}% (p = {p:.2g}, "
      f"{srtt.rat.nunique()} rats, {len(srtt)} trials)")
'''

CASES: list[Case] = [
    Case(
        id="h30-pseudo-shank3-units-as-n",
        family="pseudoreplication",
        setup=_KO_SETUP,
        code=_KO_FLAWED,
        twin="h30-pseudo-shank3-units-as-n-ok",
        note="Several hundred units from 5 KO and 5 WT mice are compared with a t-test as if "
             "independent; genotype is a between-mouse factor, so n is 10 mice, not ~500 units.",
        split=SPLIT,
    ),
    Case(
        id="h30-pseudo-shank3-units-as-n-ok",
        family=None,
        setup=_KO_SETUP,
        code=_KO_SOUND,
        twin="h30-pseudo-shank3-units-as-n",
        note="Units are averaged within mouse and genotypes are compared across mice (n = 5 "
             "vs 5).",
        split=SPLIT,
    ),
    Case(
        id="h30-pseudo-5csrtt-trial-level-ols",
        family="pseudoreplication",
        setup=_RT_SETUP,
        code=_RT_FLAWED,
        twin="h30-pseudo-5csrtt-trial-level-ols-ok",
        note="OLS on ~1900 trials from 12 rats treats trials as independent for a between-rat "
             "lesion effect; between-rat variation makes the p-value far too small.",
        split=SPLIT,
    ),
    Case(
        id="h30-pseudo-5csrtt-trial-level-ols-ok",
        family=None,
        setup=_RT_SETUP,
        code=_RT_SOUND,
        twin="h30-pseudo-5csrtt-trial-level-ols",
        note="Mixed model with a random intercept per rat, so the lesion effect is tested "
             "against between-rat variability.",
        split=SPLIT,
    ),
]
