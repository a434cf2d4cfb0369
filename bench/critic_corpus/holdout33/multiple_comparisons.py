from bench.critic_corpus import Case

_DIGEST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3312)
# CRM soil, certified-ish mass fractions (mg/kg)
cert = {"As": 18.1, "Ba": 410, "Cd": 0.92, "Co": 11.8, "Cr": 88, "Cu": 35.5, "Fe": 28400,
        "Mn": 612, "Mo": 1.6, "Ni": 31.2, "Pb": 44.0, "Sb": 1.1, "Se": 0.52, "V": 71,
        "Zn": 118, "Tl": 0.41}
rows = []
for method in ["microwave HNO3/HCl", "hot block aqua regia"]:
    for rep in range(1, 7):
        row = {"method": method, "subsample": f"{method[:2].upper()}-{rep}"}
        for el, c in cert.items():
            rec = 0.97
            if el == "Cr" and method.startswith("hot"):
                rec = 0.78          # refractory chromite not fully attacked
            row[el] = round(c * rec * rng.normal(1, 0.04), 3)
        rows.append(row)
icp = pd.DataFrame(rows)
elements = list(cert)
'''

_IZOD_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3310)
suppliers = ["Borea", "Lyon-PP", "Sabic-X", "TPC", "Repsol-H", "Braskem-7"]
recs = []
for s in suppliers:
    for bar in range(1, 9):
        recs.append({"supplier": s, "bar_id": f"{s[:3].upper()}{bar:02d}",
                     "izod_kJ_m2": round(rng.normal(6.2, 0.55), 2)})
izod = pd.DataFrame(recs)
izod.groupby("supplier")["izod_kJ_m2"].agg(["mean", "std", "count"]).round(2)
'''

CASES: list[Case] = [
    Case(
        id="h33-multiple-comparisons-crm-digestion-16-elements",
        family="multiple_comparisons",
        setup=_DIGEST_SETUP,
        code='''
from scipy import stats

mw = icp[icp["method"].str.startswith("micro")]
hb = icp[icp["method"].str.startswith("hot")]

res = pd.DataFrame({
    el: {"mean_MW": mw[el].mean(), "mean_HB": hb[el].mean(),
         "p": stats.ttest_ind(mw[el], hb[el]).pvalue}
    for el in elements
}).T
res["ratio_HB/MW"] = res["mean_HB"] / res["mean_MW"]
res["sig"] = np.where(res["p"] < 0.05, "*", "")
print(res.round(4).to_string())
print("\\nelements where hot block differs from microwave (p<0.05):",
      ", ".join(res.index[res["p"] < 0.05]))
''',
        twin="h33-multiple-comparisons-crm-digestion-holm-sound",
        note="Sixteen element-wise t-tests at alpha 0.05 with no multiplicity correction; the "
             "list of 'different' elements includes chance hits.",
        split="holdout33",
    ),
    Case(
        id="h33-multiple-comparisons-crm-digestion-holm-sound",
        family=None,
        setup=_DIGEST_SETUP,
        code='''
from scipy import stats
from statsmodels.stats.multitest import multipletests

mw = icp[icp["method"].str.startswith("micro")]
hb = icp[icp["method"].str.startswith("hot")]

res = pd.DataFrame({
    el: {"mean_MW": mw[el].mean(), "mean_HB": hb[el].mean(),
         "p": stats.ttest_ind(mw[el], hb[el]).pvalue}
    for el in elements
}).T
res["ratio_HB/MW"] = res["mean_HB"] / res["mean_MW"]
# 16 elements tested -> Holm adjustment, family-wise alpha 0.05
res["reject"], res["p_holm"], _, _ = multipletests(res["p"], alpha=0.05, method="holm")
print(res.round(4).to_string())
print("\\nelements where hot block differs from microwave (Holm, FWER 5%):",
      ", ".join(res.index[res["reject"]]))
''',
        twin="h33-multiple-comparisons-crm-digestion-16-elements",
        note="Same sixteen element-wise tests, with Holm-adjusted p-values controlling the "
             "family-wise error rate before naming elements that differ.",
        split="holdout33",
    ),
    Case(
        id="h33-multiple-comparisons-izod-pairwise-suppliers",
        family="multiple_comparisons",
        setup=_IZOD_SETUP,
        code='''
from itertools import combinations
from scipy.stats import ttest_ind

print("Izod notched impact, pairwise supplier comparison (Student t, alpha = 0.05)")
flagged = []
for a, b in combinations(suppliers, 2):
    xa = izod.loc[izod.supplier == a, "izod_kJ_m2"]
    xb = izod.loc[izod.supplier == b, "izod_kJ_m2"]
    t, p = ttest_ind(xa, xb)
    mark = "  <-- different" if p < 0.05 else ""
    print(f"  {a:>9} vs {b:<9}  diff = {xa.mean() - xb.mean():+.2f} kJ/m2  p = {p:.3f}{mark}")
    if p < 0.05:
        flagged.append(f"{a}/{b}")
print(f"{len(flagged)} supplier pairs differ:", flagged)
''',
        twin="h33-multiple-comparisons-izod-tukey-sound",
        note="Fifteen unadjusted pairwise t-tests between six resin suppliers; pairs called "
             "'different' at p<0.05 without any multiplicity control.",
        split="holdout33",
    ),
    Case(
        id="h33-multiple-comparisons-izod-tukey-sound",
        family=None,
        setup=_IZOD_SETUP,
        code='''
from statsmodels.stats.multicomp import pairwise_tukeyhsd

print("Izod notched impact, pairwise supplier comparison (Tukey HSD, FWER = 0.05)")
tuk = pairwise_tukeyhsd(izod["izod_kJ_m2"], izod["supplier"], alpha=0.05)
print(tuk.summary())
tk = pd.DataFrame(tuk.summary().data[1:], columns=tuk.summary().data[0])
flagged = [f"{a}/{b}" for a, b, r in zip(tk.group1, tk.group2, tk.reject) if r]
print(f"{len(flagged)} supplier pairs differ:", flagged)
''',
        twin="h33-multiple-comparisons-izod-pairwise-suppliers",
        note="All fifteen supplier pairs compared with Tukey's HSD, which controls the "
             "family-wise error rate across the comparisons.",
        split="holdout33",
    ),
]
