from bench.critic_corpus import Case

TYPE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1901)
faces = ["Garamond", "Baskerville", "Caslon", "Bodoni", "Didot", "Futura", "Gill Sans",
         "Helvetica", "Univers", "Frutiger", "Optima", "Palatino", "Minion", "Sabon",
         "Rockwell", "Clarendon", "Courier", "Verdana", "Georgia", "Lexend"]
rows = []
for face in faces:
    shift = 14.0 if face == "Lexend" else 0.0
    for wpm in rng.normal(238 + shift, 30, 28):
        rows.append({"typeface": face, "wpm": wpm})
reading = pd.DataFrame(rows)
'''

TYPE_FLAWED = '''
from scipy import stats

control = reading.loc[reading.typeface == "Garamond", "wpm"]
results = []
for face, grp in reading[reading.typeface != "Garamond"].groupby("typeface"):
    t, p = stats.ttest_ind(grp.wpm, control)
    results.append((face, grp.wpm.mean() - control.mean(), p))

table = pd.DataFrame(results, columns=["typeface", "diff_wpm", "p"]).sort_values("p")
faster_or_slower = table[table.p < 0.05]
print(table.head(6).round(4).to_string(index=False))
print("typefaces that change reading speed vs Garamond:", ", ".join(faster_or_slower.typeface))
'''

TYPE_SOUND = '''
from scipy import stats
from statsmodels.stats.multitest import multipletests

control = reading.loc[reading.typeface == "Garamond", "wpm"]
results = []
for face, grp in reading[reading.typeface != "Garamond"].groupby("typeface"):
    t, p = stats.ttest_ind(grp.wpm, control)
    results.append((face, grp.wpm.mean() - control.mean(), p))

table = pd.DataFrame(results, columns=["typeface", "diff_wpm", "p"]).sort_values("p")
table["p_holm"] = multipletests(table.p, method="holm")[1]
faster_or_slower = table[table.p_holm < 0.05]
print(table.head(6).round(4).to_string(index=False))
print("typefaces that change reading speed vs Garamond:",
      ", ".join(faster_or_slower.typeface) or "none")
'''

MUSH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
n_plots = 48
soil_vars = ["ph", "moisture", "nitrate", "phosphate", "potassium", "calcium", "magnesium",
             "organic_c", "clay_pct", "sand_pct", "canopy_pct", "litter_cm", "birch_dbh",
             "spruce_dbh", "moss_pct", "slope_deg", "aspect_sin", "elevation", "fungal_dna",
             "deadwood_m3", "soil_temp", "frost_days", "road_dist", "trail_use", "deer_pellets"]
plots = pd.DataFrame(rng.normal(size=(n_plots, len(soil_vars))), columns=soil_vars)
plots["chanterelle_g"] = rng.gamma(2, 150, n_plots) * np.exp(0.35 * plots["birch_dbh"])
'''

MUSH_FLAWED = '''
from scipy.stats import spearmanr

def assoc(col):
    rho, p = spearmanr(plots[col], plots["chanterelle_g"])
    return {"rho": round(rho, 3), "p": round(p, 4)}

scan = {col: assoc(col) for col in soil_vars}
hits = {c: r for c, r in scan.items() if r["p"] < 0.05}
print(f"{len(soil_vars)} site variables screened on {len(plots)} plots")
for col, r in sorted(hits.items(), key=lambda kv: kv[1]["p"]):
    print(f"  {col:12s} rho={r['rho']:+.3f}  p={r['p']:.4f}")
'''

MUSH_SOUND = '''
from scipy.stats import spearmanr
from statsmodels.stats.multitest import fdrcorrection

def assoc(col):
    rho, p = spearmanr(plots[col], plots["chanterelle_g"])
    return {"rho": round(rho, 3), "p": round(p, 4)}

scan = {col: assoc(col) for col in soil_vars}
reject, q = fdrcorrection([r["p"] for r in scan.values()], alpha=0.05)
hits = {c: {**r, "q": qi} for (c, r), ok, qi in zip(scan.items(), reject, q) if ok}
print(f"{len(soil_vars)} site variables screened on {len(plots)} plots (BH FDR 5%)")
for col, r in sorted(hits.items(), key=lambda kv: kv[1]["p"]):
    print(f"  {col:12s} rho={r['rho']:+.3f}  p={r['p']:.4f}  q={r['q']:.4f}")
'''

CASES: list[Case] = [
    Case(
        id="multiple_comparisons-h12-typeface-loop",
        family="multiple_comparisons",
        code=TYPE_FLAWED,
        setup=TYPE_SETUP,
        twin="multiple_comparisons-h12-typeface-loop-sound",
        note="19 typefaces each t-tested against Garamond at 0.05 with no multiplicity correction",
        split="holdout12",
    ),
    Case(
        id="multiple_comparisons-h12-typeface-loop-sound",
        family=None,
        code=TYPE_SOUND,
        setup=TYPE_SETUP,
        twin="multiple_comparisons-h12-typeface-loop",
        note="same 19 comparisons, Holm-adjusted before declaring any typeface different",
        split="holdout12",
    ),
    Case(
        id="multiple_comparisons-h12-chanterelle-screen",
        family="multiple_comparisons",
        code=MUSH_FLAWED,
        setup=MUSH_SETUP,
        twin="multiple_comparisons-h12-chanterelle-screen-sound",
        note="25 site variables screened by Spearman p < 0.05 with no FDR/FWER control",
        split="holdout12",
    ),
    Case(
        id="multiple_comparisons-h12-chanterelle-screen-sound",
        family=None,
        code=MUSH_SOUND,
        setup=MUSH_SETUP,
        twin="multiple_comparisons-h12-chanterelle-screen",
        note="same screen with Benjamini-Hochberg FDR correction across the 25 tests",
        split="holdout12",
    ),
]
