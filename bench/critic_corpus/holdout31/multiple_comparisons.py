from bench.critic_corpus import Case

_SERVICES_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
n = 1100
services = ["bins", "libraries", "parks", "roads", "street_lighting", "leisure_centres",
            "housing_office", "planning", "parking", "bus_info", "council_tax_admin",
            "youth_services", "adult_care", "schools_admissions", "recycling", "noise_team",
            "pest_control", "registrars", "cemeteries", "markets", "tourist_info",
            "trading_standards", "licensing", "website"]
res = pd.DataFrame({"serial": np.arange(1, n + 1),
                    "gender": rng.choice(["Male", "Female"], n, p=[0.47, 0.53])})
for s in services:
    p = [0.10, 0.15, 0.25, 0.32, 0.18]
    if s == "adult_care":  # the one real gap
        p_f = [0.16, 0.20, 0.25, 0.27, 0.12]
        is_f = (res["gender"] == "Female").to_numpy()
        res[f"sat_{s}"] = np.where(is_f, rng.choice(np.arange(1, 6), n, p=p_f),
                                   rng.choice(np.arange(1, 6), n, p=p))
    else:
        res[f"sat_{s}"] = rng.choice(np.arange(1, 6), n, p=p)
'''

_FLU_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(99)
hb = ["Ayrshire & Arran", "Borders", "Dumfries & Galloway", "Fife", "Forth Valley",
      "Grampian", "Greater Glasgow & Clyde", "Highland", "Lanarkshire", "Lothian",
      "Orkney", "Shetland", "Tayside", "Western Isles"]
sizes = [420, 150, 180, 400, 320, 560, 1150, 330, 620, 880, 60, 60, 440, 70]
hs = pd.DataFrame({"health_board": np.repeat(hb, sizes)})
n = len(hs)
hs["age65plus"] = rng.binomial(1, 0.24, n)
hs["wt_final"] = rng.lognormal(0, 0.45, n).round(4)
p_vac = 0.42 + 0.33 * hs["age65plus"]
hs["flu_vacc"] = rng.binomial(1, p_vac.to_numpy())
'''

CASES: list[Case] = [
    Case(
        id="h31-multiple-comparisons-gender-gaps-24-services",
        family="multiple_comparisons",
        setup=_SERVICES_SETUP,
        code='''from scipy.stats import chi2_contingency

rows = []
for col in [c for c in res.columns if c.startswith("sat_")]:
    tab = pd.crosstab(res[col], res["gender"])
    chi2, p, dof, _ = chi2_contingency(tab)
    top2 = res.assign(t2=res[col] >= 4).groupby("gender")["t2"].mean()
    rows.append({"service": col[4:], "F_top2": top2["Female"], "M_top2": top2["Male"],
                 "chi2": chi2, "p": p})
gaps = pd.DataFrame(rows).sort_values("p")
sig = gaps[gaps["p"] < 0.05]
print(f"{len(sig)} of {len(gaps)} services show a significant gender gap (p<0.05):")
sig.round({"F_top2": 3, "M_top2": 3, "chi2": 1, "p": 4})
''',
        twin="h31-multiple-comparisons-gender-gaps-24-services-ok",
        note="24 chi-square tests of satisfaction by gender; those with raw p<0.05 are reported "
             "as gender gaps without any multiplicity correction.",
        split="holdout31",
    ),
    Case(
        id="h31-multiple-comparisons-gender-gaps-24-services-ok",
        family=None,
        setup=_SERVICES_SETUP,
        code='''from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests

rows = []
for col in [c for c in res.columns if c.startswith("sat_")]:
    tab = pd.crosstab(res[col], res["gender"])
    chi2, p, dof, _ = chi2_contingency(tab)
    top2 = res.assign(t2=res[col] >= 4).groupby("gender")["t2"].mean()
    rows.append({"service": col[4:], "F_top2": top2["Female"], "M_top2": top2["Male"],
                 "chi2": chi2, "p": p})
gaps = pd.DataFrame(rows).sort_values("p")
# 24 services tested -> Holm adjustment keeps the familywise error at 5%
gaps["p_holm"] = multipletests(gaps["p"], method="holm")[1]
sig = gaps[gaps["p_holm"] < 0.05]
print(f"{len(sig)} of {len(gaps)} services show a gender gap after Holm adjustment:")
sig.round({"F_top2": 3, "M_top2": 3, "chi2": 1, "p": 4, "p_holm": 4})
''',
        twin="h31-multiple-comparisons-gender-gaps-24-services",
        note="Same 24 chi-square tests, but significance is judged on Holm-adjusted p-values.",
        split="holdout31",
    ),
    Case(
        id="h31-multiple-comparisons-flu-health-boards",
        family="multiple_comparisons",
        setup=_FLU_SETUP,
        code='''from scipy.stats import norm

def wprop(d):
    w = d["wt_final"]
    return pd.Series({"n": len(d), "n_eff": w.sum() ** 2 / (w ** 2).sum(),
                      "p": np.average(d["flu_vacc"], weights=w)})

tab = hs.groupby("health_board")[["flu_vacc", "wt_final"]].apply(wprop)
rest = {b: wprop(hs[hs["health_board"] != b]) for b in tab.index}
tab["p_rest"] = [rest[b]["p"] for b in tab.index]
se = np.sqrt(tab["p"] * (1 - tab["p"]) / tab["n_eff"]
             + tab["p_rest"] * (1 - tab["p_rest"]) / [rest[b]["n_eff"] for b in tab.index])
tab["z"] = (tab["p"] - tab["p_rest"]) / se
tab["p_value"] = 2 * norm.sf(tab["z"].abs())
tab["flag"] = np.where(tab["p_value"] < 0.05, np.where(tab["z"] > 0, "ABOVE *", "BELOW *"), "")
print("Flu vaccine uptake by health board vs rest of Scotland (weighted, Kish n_eff)")
tab[["n", "p", "p_rest", "z", "p_value", "flag"]].round(3)
''',
        twin="h31-multiple-comparisons-flu-health-boards-ok",
        note="Each of 14 health boards is z-tested against the rest of the country and starred at "
             "p<0.05 with no correction for the 14 tests.",
        split="holdout31",
    ),
    Case(
        id="h31-multiple-comparisons-flu-health-boards-ok",
        family=None,
        setup=_FLU_SETUP,
        code='''from scipy.stats import norm
from statsmodels.stats.multitest import multipletests

def wprop(d):
    w = d["wt_final"]
    return pd.Series({"n": len(d), "n_eff": w.sum() ** 2 / (w ** 2).sum(),
                      "p": np.average(d["flu_vacc"], weights=w)})

tab = hs.groupby("health_board")[["flu_vacc", "wt_final"]].apply(wprop)
rest = {b: wprop(hs[hs["health_board"] != b]) for b in tab.index}
tab["p_rest"] = [rest[b]["p"] for b in tab.index]
se = np.sqrt(tab["p"] * (1 - tab["p"]) / tab["n_eff"]
             + tab["p_rest"] * (1 - tab["p_rest"]) / [rest[b]["n_eff"] for b in tab.index])
tab["z"] = (tab["p"] - tab["p_rest"]) / se
tab["p_value"] = 2 * norm.sf(tab["z"].abs())
# 14 boards compared -> Benjamini-Hochberg before anything gets a star
tab["q_bh"] = multipletests(tab["p_value"], method="fdr_bh")[1]
tab["flag"] = np.where(tab["q_bh"] < 0.05, np.where(tab["z"] > 0, "ABOVE *", "BELOW *"), "")
print("Flu vaccine uptake by health board vs rest of Scotland (weighted, Kish n_eff, BH q)")
tab[["n", "p", "p_rest", "z", "p_value", "q_bh", "flag"]].round(3)
''',
        twin="h31-multiple-comparisons-flu-health-boards",
        note="Same 14 board-vs-rest comparisons, flagged only on Benjamini-Hochberg q-values.",
        split="holdout31",
    ),
]
