from bench.critic_corpus import Case

_FISH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1331)
spp = {"walleye": (420, 900), "yellow_perch": (190, 95), "northern_pike": (560, 1450),
       "white_sucker": (380, 700)}
rows = []
for net in range(1, 25):
    for sp, (tl, wt) in spp.items():
        for _ in range(rng.integers(2, 9)):
            L = rng.normal(tl, tl * 0.15)
            rows.append({"net": net, "species": sp, "tl_mm": round(L),
                         "wt_g": round(wt * (L / tl) ** 3.1 * rng.lognormal(0, 0.08))})
gillnet = pd.DataFrame(rows)
# scale broke on day 3 of the survey
bad = gillnet.index[(gillnet["net"] > 9) & (gillnet["net"] <= 13)]
gillnet.loc[bad, "wt_g"] = -999
'''

_FISH_FLAWED = '''
summ = (gillnet.groupby("species")
        .agg(n=("tl_mm", "size"), mean_wt_g=("wt_g", "mean"))
        .round(1))
summ["cpue_fish_per_net"] = (summ["n"] / gillnet["net"].nunique()).round(2)
summ["biomass_kg_per_net"] = (summ["cpue_fish_per_net"] * summ["mean_wt_g"] / 1000).round(3)
summ.sort_values("biomass_kg_per_net", ascending=False)
'''

_FISH_SOUND = '''
g = gillnet.copy()
g["wt_g"] = g["wt_g"].mask(g["wt_g"] <= 0)
print(f"weights missing (scale fault, -999): {g['wt_g'].isna().sum()} of {len(g)} fish")
summ = (g.groupby("species")
        .agg(n=("tl_mm", "size"), n_weighed=("wt_g", "count"), mean_wt_g=("wt_g", "mean"))
        .round(1))
summ["cpue_fish_per_net"] = (summ["n"] / g["net"].nunique()).round(2)
summ["biomass_kg_per_net"] = (summ["cpue_fish_per_net"] * summ["mean_wt_g"] / 1000).round(3)
summ.sort_values("biomass_kg_per_net", ascending=False)
'''

_FROG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n = 90
ponds = pd.DataFrame({
    "pond": [f"WP{i:03d}" for i in range(n)],
    "hydroperiod_wk": rng.integers(4, 40, n),
    "fish_present": rng.binomial(1, 0.35, n),
    "canopy_pct": rng.uniform(0, 95, n).round(0),
})
eta = (-0.6 + 0.16 * (ponds["hydroperiod_wk"] - 20) - 1.6 * ponds["fish_present"]
       - 0.02 * (ponds["canopy_pct"] - 40))
ponds["spring_peeper"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
new_ponds = pd.DataFrame({
    "pond": ["WP201", "WP202", "WP203", "WP204", "WP205", "WP206"],
    "hydroperiod_wk": [38, 6, 30, 12, 39, 22],
    "fish_present": [0, 1, 0, 1, 0, 0],
    "canopy_pct": [5, 90, 20, 70, 2, 45],
})
'''

_FROG_FLAWED = '''
import statsmodels.formula.api as smf

lpm = smf.ols("spring_peeper ~ hydroperiod_wk + fish_present + canopy_pct", data=ponds).fit()
print(lpm.params.round(4))
pred = new_ponds.assign(p_occupied=lpm.predict(new_ponds).round(3))
print("expected occupied ponds among new sites:", round(pred["p_occupied"].sum(), 2))
pred
'''

_FROG_SOUND = '''
import statsmodels.formula.api as smf

glm = smf.logit("spring_peeper ~ hydroperiod_wk + fish_present + canopy_pct", data=ponds)
glm = glm.fit(disp=0)
print(glm.params.round(4))
pred = new_ponds.assign(p_occupied=glm.predict(new_ponds).round(3))
print("expected occupied ponds among new sites:", round(pred["p_occupied"].sum(), 2))
pred
'''

CASES: list[Case] = [
    Case(
        id="h19-sv-gillnet-999-flawed", family="suspicious_values", code=_FISH_FLAWED,
        setup=_FISH_SETUP, twin="h19-sv-gillnet-999-sound", split="holdout19",
        note="-999 missing-weight codes averaged into mean weight and biomass per net",
    ),
    Case(
        id="h19-sv-gillnet-999-sound", family=None, code=_FISH_SOUND,
        setup=_FISH_SETUP, twin="h19-sv-gillnet-999-flawed", split="holdout19",
        note="-999 codes masked to NaN, counted, and weights averaged over weighed fish only",
    ),
    Case(
        id="h19-sv-peeper-lpm-flawed", family="suspicious_values", code=_FROG_FLAWED,
        setup=_FROG_SETUP, twin="h19-sv-peeper-lpm-sound", split="holdout19",
        note="linear probability model gives occupancy probabilities >1 and <0, reported as is",
    ),
    Case(
        id="h19-sv-peeper-lpm-sound", family=None, code=_FROG_SOUND,
        setup=_FROG_SETUP, twin="h19-sv-peeper-lpm-flawed", split="holdout19",
        note="logistic regression keeps predicted occupancy probabilities within [0, 1]",
    ),
]
