from bench.critic_corpus import Case

_AIR = '''
import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

rng = np.random.default_rng(17)
aps = ["ATL", "ORD", "DFW", "DEN", "LAX", "SFO", "SEA", "LAS", "MCO", "CLT", "PHX", "IAH",
       "MIA", "JFK", "EWR", "BOS", "MSP", "DTW", "PHL", "LGA", "BWI", "SLC", "SAN", "DCA",
       "TPA", "MDW", "PDX", "STL", "HNL", "AUS"]
n = 9000
w = rng.dirichlet(np.full(len(aps), 3))
origin = rng.choice(aps, n, p=w)
base = rng.gamma(1.1, 14, n) - 9
dep = np.where(origin == "EWR", base * 1.35 + 4, base)
flights = pd.DataFrame({
    "ORIGIN": origin,
    "OP_CARRIER": rng.choice(["AA", "DL", "UA", "WN", "B6", "AS", "NK"], n),
    "MONTH": rng.integers(1, 13, n),
    "DEP_DELAY": np.round(dep + rng.normal(0, 3, n)),
})
'''

_HEART = '''
import numpy as np
import pandas as pd
from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests

rng = np.random.default_rng(18)
n = 303
items = ["smoker_current", "smoker_former", "alcohol_weekly", "sedentary_job", "sleep_lt6h",
         "shift_work", "fried_food_daily", "red_meat_4wk", "coffee_3plus", "energy_drinks",
         "salt_added", "lives_alone", "pets_owned", "urban_home", "stress_high", "snoring",
         "family_hx_cad", "vitamin_d_supp", "fish_oil_supp", "vegetarian", "gym_member",
         "stairs_daily", "commute_gt1h", "tv_gt3h", "flu_vaccine", "dental_checkup"]
sv = pd.DataFrame(rng.binomial(1, rng.uniform(0.15, 0.55, len(items)), (n, len(items))),
                  columns=items)
lo = -0.35 + 0.9 * sv["family_hx_cad"] + 0.6 * sv["smoker_current"]
sv["target"] = rng.binomial(1, 1 / (1 + np.exp(-lo)))
'''

CASES: list[Case] = [
    Case(
        id="h15-multcomp-airline-airport-mannwhitney",
        family="multiple_comparisons",
        setup=_AIR,
        code='''rows = []
for ap, g in flights.groupby("ORIGIN"):
    rest = flights.loc[flights["ORIGIN"] != ap, "DEP_DELAY"]
    u, p = stats.mannwhitneyu(g["DEP_DELAY"], rest, alternative="two-sided")
    rows.append({"origin": ap, "n": len(g), "median_delay": g["DEP_DELAY"].median(),
                 "mean_delay": round(g["DEP_DELAY"].mean(), 1), "p": p})
res = pd.DataFrame(rows).sort_values("p")

sig = res[res["p"] < 0.05]
print(f"overall median delay: {flights['DEP_DELAY'].median():.0f} min")
print(f"airports with significantly different delays: {', '.join(sig['origin'])}")
sig.round(4)
''',
        twin="h15-multcomp-airline-airport-mannwhitney-ok",
        note="30 airport-vs-rest Mann-Whitney tests, airports with raw p < 0.05 are reported "
             "as significantly different with no multiplicity correction.",
        split="holdout15",
    ),
    Case(
        id="h15-multcomp-airline-airport-mannwhitney-ok",
        family=None,
        setup=_AIR,
        code='''rows = []
for ap, g in flights.groupby("ORIGIN"):
    rest = flights.loc[flights["ORIGIN"] != ap, "DEP_DELAY"]
    u, p = stats.mannwhitneyu(g["DEP_DELAY"], rest, alternative="two-sided")
    rows.append({"origin": ap, "n": len(g), "median_delay": g["DEP_DELAY"].median(),
                 "mean_delay": round(g["DEP_DELAY"].mean(), 1), "p": p})
res = pd.DataFrame(rows).sort_values("p")
res["p_holm"] = multipletests(res["p"], method="holm")[1]

sig = res[res["p_holm"] < 0.05]
print(f"overall median delay: {flights['DEP_DELAY'].median():.0f} min")
print(f"{len(res)} tests, Holm-adjusted; significant: {', '.join(sig['origin']) or 'none'}")
res.head(6).round(4)
''',
        twin="h15-multcomp-airline-airport-mannwhitney",
        note="Same 30 airport-vs-rest tests but the family-wise error is controlled with Holm "
             "before calling any airport different.",
        split="holdout15",
    ),
    Case(
        id="h15-multcomp-heart-lifestyle-chi2-screen",
        family="multiple_comparisons",
        setup=_HEART,
        code='''res = pd.DataFrame(
    [(c, *chi2_contingency(pd.crosstab(sv[c], sv["target"]))[:2],
      sv.groupby(c)["target"].mean().diff().iloc[-1]) for c in items],
    columns=["item", "chi2", "p", "risk_diff"],
).set_index("item").sort_values("p")

print(f"n = {len(sv)}, disease prevalence = {sv['target'].mean():.2f}")
res.query("p < 0.05").round(4)
''',
        twin="h15-multcomp-heart-lifestyle-chi2-screen-ok",
        note="26 lifestyle items screened with chi-square tests against disease; every "
             "p < 0.05 is kept as a risk factor without any multiplicity adjustment.",
        split="holdout15",
    ),
    Case(
        id="h15-multcomp-heart-lifestyle-chi2-screen-ok",
        family=None,
        setup=_HEART,
        code='''res = pd.DataFrame(
    [(c, *chi2_contingency(pd.crosstab(sv[c], sv["target"]))[:2],
      sv.groupby(c)["target"].mean().diff().iloc[-1]) for c in items],
    columns=["item", "chi2", "p", "risk_diff"],
).set_index("item").sort_values("p")
res["q_bh"] = multipletests(res["p"], method="fdr_bh")[1]

print(f"n = {len(sv)}, disease prevalence = {sv['target'].mean():.2f}, {len(res)} items tested")
print("kept at BH q < 0.05:", res.index[res["q_bh"] < 0.05].tolist())
res.head(5).round(4)
''',
        twin="h15-multcomp-heart-lifestyle-chi2-screen",
        note="Same screen of 26 items, but items are kept only at Benjamini-Hochberg "
             "q < 0.05, controlling the false discovery rate.",
        split="holdout15",
    ),
]
