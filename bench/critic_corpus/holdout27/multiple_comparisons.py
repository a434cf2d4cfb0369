from bench.critic_corpus import Case

_VT_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(131)
entries = ["CHECK"] + [f"WB{n}" for n in [101, 104, 107, 112, 115, 118, 121, 126, 130, 133,
                                          137, 140, 144, 149, 152]]
true_gain = {e: 0.0 for e in entries}
true_gain["WB126"] = 0.75
rows = []
for block in range(1, 5):
    blk = rng.normal(0, 0.35)
    for plot_in_blk, entry in enumerate(rng.permutation(entries), start=1):
        rows.append({"block": block, "plot": block * 100 + plot_in_blk, "entry": entry,
                     "yield_t_ha": round(9.4 + blk + true_gain[entry] + rng.normal(0, 0.42), 2)})
vt = pd.DataFrame(rows)
print(vt.shape)
vt.pivot_table(index="entry", columns="block", values="yield_t_ha").head()
"""

_SOIL_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(103)
props = {"ph_water": (6.4, 0.35), "olsen_p_mg_kg": (24, 7), "exch_k_mg_kg": (160, 40),
         "exch_mg_mg_kg": (110, 25), "soc_pct": (1.9, 0.35), "total_n_pct": (0.17, 0.03),
         "cec_cmol_kg": (14, 3), "bulk_density_g_cm3": (1.35, 0.09), "mbc_mg_kg": (310, 70)}
rows = []
for tillage in ["no_till", "conventional"]:
    for f in range(1, 11):
        for depth, mult in [("0-10", 1.0), ("10-20", 0.85), ("20-30", 0.7)]:
            rec = {"tillage": tillage, "field": f"{tillage[:2].upper()}{f:02d}",
                   "depth_cm": depth}
            for prop, (mu, sd) in props.items():
                val = mu * mult + rng.normal(0, sd * mult)
                if prop == "soc_pct" and tillage == "no_till" and depth == "0-10":
                    val += 0.45
                rec[prop] = round(val, 3)
            rows.append(rec)
soil = pd.DataFrame(rows)
soil.groupby(["tillage", "depth_cm"]).size()
"""

CASES: list[Case] = [
    Case(
        id="h27-multiple-comparisons-variety-trial-vs-check",
        family="multiple_comparisons",
        setup=_VT_SETUP,
        code="""
import statsmodels.formula.api as smf

fit = smf.ols("yield_t_ha ~ C(entry, Treatment('CHECK')) + C(block)", data=vt).fit()
contr = pd.DataFrame({
    "diff_vs_check": fit.params.filter(like="entry"),
    "se": fit.bse.filter(like="entry"),
    "p": fit.pvalues.filter(like="entry"),
})
contr.index = contr.index.str.extract(r"T\\.(\\w+)\\]", expand=False)
contr = contr.sort_values("diff_vs_check", ascending=False)
print(f"Residual CV = {100 * np.sqrt(fit.scale) / vt['yield_t_ha'].mean():.1f}%")

winners = contr[(contr["p"] < 0.05) & (contr["diff_vs_check"] > 0)]
print(f"{len(winners)} of {len(contr)} lines significantly out-yielded CHECK (P<0.05):")
for entry, r in winners.iterrows():
    print(f"  {entry}: +{r.diff_vs_check:.2f} t/ha (P = {r.p:.3f}) -> advance to 2025 NL")
contr.round(3)
""",
        twin="h27-multiple-comparisons-variety-trial-vs-check-holm",
        note="Fifteen breeding lines are each tested against the check at P<0.05 and the "
             "'winners' are advanced with no multiplicity adjustment across the 15 contrasts.",
        split="holdout27",
    ),
    Case(
        id="h27-multiple-comparisons-variety-trial-vs-check-holm",
        family=None,
        setup=_VT_SETUP,
        code="""
import statsmodels.formula.api as smf
from statsmodels.stats.multitest import multipletests

fit = smf.ols("yield_t_ha ~ C(entry, Treatment('CHECK')) + C(block)", data=vt).fit()
contr = pd.DataFrame({
    "diff_vs_check": fit.params.filter(like="entry"),
    "se": fit.bse.filter(like="entry"),
    "p": fit.pvalues.filter(like="entry"),
})
contr.index = contr.index.str.extract(r"T\\.(\\w+)\\]", expand=False)
# 15 comparisons with the check -> Holm adjustment (family-wise error 5%)
contr["p_holm"] = multipletests(contr["p"], method="holm")[1]
contr = contr.sort_values("diff_vs_check", ascending=False)
print(f"Residual CV = {100 * np.sqrt(fit.scale) / vt['yield_t_ha'].mean():.1f}%")

winners = contr[(contr["p_holm"] < 0.05) & (contr["diff_vs_check"] > 0)]
print(f"{len(winners)} of {len(contr)} lines out-yielded CHECK (Holm-adjusted P<0.05):")
for entry, r in winners.iterrows():
    print(f"  {entry}: +{r.diff_vs_check:.2f} t/ha (adj. P = {r.p_holm:.3f})")
contr.round(3)
""",
        twin="h27-multiple-comparisons-variety-trial-vs-check",
        note="Same block-adjusted contrasts against the check, with Holm adjustment across the "
             "15 comparisons before declaring any line superior.",
        split="holdout27",
    ),
    Case(
        id="h27-multiple-comparisons-tillage-soil-properties",
        family="multiple_comparisons",
        setup=_SOIL_SETUP,
        code="""
from scipy import stats

soil_vars = [c for c in soil.columns if c not in ("tillage", "field", "depth_cm")]
out = []
for depth, d in soil.groupby("depth_cm"):
    nt = d[d["tillage"] == "no_till"]
    ct = d[d["tillage"] == "conventional"]
    for v in soil_vars:
        t, p = stats.ttest_ind(nt[v], ct[v], equal_var=False)
        out.append({"depth_cm": depth, "property": v, "mean_NT": nt[v].mean(),
                    "mean_CT": ct[v].mean(), "t": t, "p": p})
res = pd.DataFrame(out)

sig = res[res["p"] < 0.05]
print(f"Welch t-tests, no-till vs conventional (10 fields each): {len(res)} comparisons")
print(f"Significant tillage effects (p < 0.05): {len(sig)}")
print(sig.round(3).to_string(index=False))
""",
        twin="h27-multiple-comparisons-tillage-soil-properties-fdr",
        note="27 Welch t-tests (9 soil properties x 3 depths) are screened at p<0.05 and the "
             "hits reported as tillage effects without any multiplicity correction.",
        split="holdout27",
    ),
    Case(
        id="h27-multiple-comparisons-tillage-soil-properties-fdr",
        family=None,
        setup=_SOIL_SETUP,
        code="""
from scipy import stats
from statsmodels.stats.multitest import multipletests

soil_vars = [c for c in soil.columns if c not in ("tillage", "field", "depth_cm")]
out = []
for depth, d in soil.groupby("depth_cm"):
    nt = d[d["tillage"] == "no_till"]
    ct = d[d["tillage"] == "conventional"]
    for v in soil_vars:
        t, p = stats.ttest_ind(nt[v], ct[v], equal_var=False)
        out.append({"depth_cm": depth, "property": v, "mean_NT": nt[v].mean(),
                    "mean_CT": ct[v].mean(), "t": t, "p": p})
res = pd.DataFrame(out)
# 27 tests -> control the false discovery rate (Benjamini-Hochberg)
res["q_bh"] = multipletests(res["p"], method="fdr_bh")[1]

sig = res[res["q_bh"] < 0.05]
print(f"Welch t-tests, no-till vs conventional (10 fields each): {len(res)} comparisons")
print(f"Tillage effects with BH q < 0.05: {len(sig)}")
print(sig.round(3).to_string(index=False))
""",
        twin="h27-multiple-comparisons-tillage-soil-properties",
        note="Same 27 tests, with Benjamini-Hochberg FDR control before reporting tillage "
             "effects.",
        split="holdout27",
    ),
]
