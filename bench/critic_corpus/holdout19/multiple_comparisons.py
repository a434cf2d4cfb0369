from bench.critic_corpus import Case

_SOIL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(409)
plots = [f"B{i:02d}" for i in range(1, 11)] + [f"U{i:02d}" for i in range(1, 11)]
cores = pd.DataFrame({"plot": plots, "burn": ["burned"] * 10 + ["unburned"] * 10})
props = {
    "ph_h2o": (5.4, 0.4), "soc_pct": (3.1, 0.9), "tn_pct": (0.21, 0.06),
    "olsen_p_mgkg": (14, 5), "k_cmolkg": (0.45, 0.15), "ca_cmolkg": (4.2, 1.4),
    "mg_cmolkg": (1.1, 0.35), "cec_cmolkg": (12, 3), "bulk_dens_gcm3": (1.15, 0.12),
    "sand_pct": (48, 9), "clay_pct": (18, 5), "mbc_mgkg": (410, 120),
    "nh4_mgkg": (9, 3), "no3_mgkg": (5, 2), "wsa_pct": (62, 10), "ec_dsm": (0.12, 0.04),
}
for col, (mu, sd) in props.items():
    cores[col] = rng.normal(mu, sd, 20).round(3)
cores.loc[cores["burn"] == "burned", "ph_h2o"] += 0.75
long = cores.melt(id_vars=["plot", "burn"], var_name="property", value_name="value")
'''

_SOIL_FLAWED = '''
from scipy import stats

res = []
for prop, g in long.groupby("property"):
    b = g.loc[g["burn"] == "burned", "value"]
    u = g.loc[g["burn"] == "unburned", "value"]
    t, p = stats.ttest_ind(b, u, equal_var=False)
    res.append({"property": prop, "burned_mean": b.mean(), "unburned_mean": u.mean(),
                "t": t, "p": p})
res = pd.DataFrame(res).sort_values("p")
res["effect"] = np.where(res["p"] < 0.05, "burn effect", "ns")
print("properties changed by fire:", ", ".join(res.loc[res["p"] < 0.05, "property"]))
res.round(4)
'''

_SOIL_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

res = []
for prop, g in long.groupby("property"):
    b = g.loc[g["burn"] == "burned", "value"]
    u = g.loc[g["burn"] == "unburned", "value"]
    t, p = stats.ttest_ind(b, u, equal_var=False)
    res.append({"property": prop, "burned_mean": b.mean(), "unburned_mean": u.mean(),
                "t": t, "p": p})
res = pd.DataFrame(res).sort_values("p")
res["p_holm"] = multipletests(res["p"], method="holm")[1]
res["effect"] = np.where(res["p_holm"] < 0.05, "burn effect", "ns")
print("properties changed by fire (Holm, 16 tests):",
      ", ".join(res.loc[res["p_holm"] < 0.05, "property"]) or "none")
res[["property", "t", "p", "p_holm", "effect"]].round(4)
'''

_PC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3030)
spp = ["AMRE", "BTNW", "OVEN", "REVI", "BCCH", "HETH", "WIWR", "BLBW", "MAWA", "CSWA",
       "NAWA", "YBSA", "DOWO", "WBNU", "BRCR", "GCKI", "RBNU", "PIWA", "EAWP", "SCTA",
       "VEER", "WOTH", "CEDW", "AMGO", "PUFI", "MOWA"]
stations = pd.DataFrame({"station": [f"S{i:02d}" for i in range(1, 49)]})
stations["treatment"] = np.repeat(["thinned", "control"], 24)
stations["obs_min"] = rng.choice([10, 10, 10, 8], 48)
rows = []
for sp in spp:
    base = rng.uniform(0.3, 3)
    eff = 1.8 if sp == "CSWA" else 1.0
    mu = base * np.where(stations["treatment"] == "thinned", eff, 1.0)
    for st, m in zip(stations["station"], mu):
        rows.append((st, sp, rng.poisson(m)))
counts = pd.DataFrame(rows, columns=["station", "species", "n"])
'''

_PC_FLAWED = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

pc = counts.merge(stations, on="station")
summ = []
for sp, d in pc.groupby("species"):
    m = smf.glm("n ~ treatment", data=d, family=sm.families.Poisson(),
                offset=np.log(d["obs_min"])).fit()
    summ.append({"species": sp, "irr_thinned": np.exp(m.params["treatment[T.thinned]"]),
                 "p": m.pvalues["treatment[T.thinned]"]})
summ = pd.DataFrame(summ).sort_values("p")
resp = summ[summ["p"] < 0.05]
print(f"{len(resp)} of {len(summ)} species respond to thinning:")
resp.round(3)
'''

_PC_SOUND = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.multitest import multipletests

pc = counts.merge(stations, on="station")
summ = []
for sp, d in pc.groupby("species"):
    m = smf.glm("n ~ treatment", data=d, family=sm.families.Poisson(),
                offset=np.log(d["obs_min"])).fit()
    summ.append({"species": sp, "irr_thinned": np.exp(m.params["treatment[T.thinned]"]),
                 "p": m.pvalues["treatment[T.thinned]"]})
summ = pd.DataFrame(summ).sort_values("p")
summ["q_bh"] = multipletests(summ["p"], method="fdr_bh")[1]
resp = summ[summ["q_bh"] < 0.05]
print(f"{len(resp)} of {len(summ)} species respond to thinning (BH FDR 5%):")
summ.head(8).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h19-mc-soil-burn-flawed", family="multiple_comparisons", code=_SOIL_FLAWED,
        setup=_SOIL_SETUP, twin="h19-mc-soil-burn-sound", split="holdout19",
        note="16 soil properties t-tested burned vs unburned, p<0.05 hits reported uncorrected",
    ),
    Case(
        id="h19-mc-soil-burn-sound", family=None, code=_SOIL_SOUND,
        setup=_SOIL_SETUP, twin="h19-mc-soil-burn-flawed", split="holdout19",
        note="same 16 tests with Holm adjustment before declaring burn effects",
    ),
    Case(
        id="h19-mc-pointcount-spp-flawed", family="multiple_comparisons", code=_PC_FLAWED,
        setup=_PC_SETUP, twin="h19-mc-pointcount-spp-sound", split="holdout19",
        note="Poisson GLM per species for 26 species, raw p<0.05 list presented as responders",
    ),
    Case(
        id="h19-mc-pointcount-spp-sound", family=None, code=_PC_SOUND,
        setup=_PC_SETUP, twin="h19-mc-pointcount-spp-flawed", split="holdout19",
        note="per-species GLMs with Benjamini-Hochberg FDR across the 26 species",
    ),
]
