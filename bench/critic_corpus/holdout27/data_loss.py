from bench.critic_corpus import Case

_PRATE_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(909)
p_rates = [0, 20, 40, 60, 80, 120]
recs_y, recs_s = [], []
for block in range(1, 5):
    blk = [0.0, -0.2, 0.6, 0.8][block - 1]   # blocks 3-4 on the deeper soil at the bottom
    for j, p in enumerate(rng.permutation(p_rates), start=1):
        plot = block * 100 + j
        olsen = 9 + 0.09 * p + rng.normal(0, 1.5) + 2 * (block > 2)
        yld = 6.2 + blk + 1.6 * (1 - np.exp(-0.04 * p)) + rng.normal(0, 0.35)
        recs_y.append({"plot": str(plot), "block": block, "p_rate_kg_ha": p,
                       "yield_t_ha": round(yld, 2)})
        # lab sheet: second technician typed plot ids with a 'P' prefix for blocks 3-4
        pid = str(plot) if block <= 2 else f"P{plot}"
        recs_s.append({"plot": pid, "olsen_p_mg_l": round(olsen, 1),
                       "ph": round(rng.normal(6.5, 0.2), 1)})
harvest = pd.DataFrame(recs_y)
soil_lab = pd.DataFrame(recs_s).sample(frac=1, random_state=1).reset_index(drop=True)
print(harvest.shape, soil_lab.shape)
soil_lab.head()
"""

_NO3_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
recs = []
for trt, mu in [("fallow", 1.9), ("rye_cover", 0.35)]:
    for field in ["North", "Ridge", "Brook"]:
        for core in range(1, 9):
            val = np.exp(rng.normal(mu, 0.7))
            txt = "<1.0" if val < 1.0 else f"{val:.1f}"
            recs.append({"treatment": trt, "field": field, "core": core, "no3n_mg_kg": txt})
rsn = pd.DataFrame(recs)
rsn.sample(6, random_state=0)
"""

CASES: list[Case] = [
    Case(
        id="h27-data-loss-prate-inner-merge-plot-ids",
        family="data_loss",
        setup=_PRATE_SETUP,
        code="""
trial = harvest.merge(soil_lab, on="plot")

by_rate = trial.groupby("p_rate_kg_ha").agg(
    yield_t_ha=("yield_t_ha", "mean"), olsen_p=("olsen_p_mg_l", "mean"))
print(by_rate.round(2))
gain = by_rate["yield_t_ha"].iloc[-1] - by_rate["yield_t_ha"].iloc[0]
print(f"Yield response 0 -> 120 kg P/ha: +{gain:.2f} t/ha")
print(f"Olsen P vs yield across plots: r = "
      f"{trial['olsen_p_mg_l'].corr(trial['yield_t_ha']):.2f}")
""",
        twin="h27-data-loss-prate-merge-validated",
        note="The inner merge silently drops blocks 3-4 (lab ids carry a 'P' prefix): half "
             "the plots, all on the better soil, vanish from the P-rate means with no report.",
        split="holdout27",
    ),
    Case(
        id="h27-data-loss-prate-merge-validated",
        family=None,
        setup=_PRATE_SETUP,
        code="""
# lab sheet ids: blocks 3-4 were entered as 'P301' etc. -> normalise before joining
soil_lab["plot"] = soil_lab["plot"].str.strip().str.lstrip("Pp")
trial = harvest.merge(soil_lab, on="plot", how="left", validate="one_to_one", indicator=True)
unmatched = trial.loc[trial["_merge"] != "both", "plot"].tolist()
print(f"{len(harvest)} harvest plots, {len(soil_lab)} lab rows, unmatched: {unmatched}")
assert not unmatched

by_rate = trial.groupby("p_rate_kg_ha").agg(
    n_plots=("plot", "size"),
    yield_t_ha=("yield_t_ha", "mean"), olsen_p=("olsen_p_mg_l", "mean"))
print(by_rate.round(2))
gain = by_rate["yield_t_ha"].iloc[-1] - by_rate["yield_t_ha"].iloc[0]
print(f"Yield response 0 -> 120 kg P/ha: +{gain:.2f} t/ha")
print(f"Olsen P vs yield across plots: r = "
      f"{trial['olsen_p_mg_l'].corr(trial['yield_t_ha']):.2f}")
""",
        twin="h27-data-loss-prate-inner-merge-plot-ids",
        note="Plot ids are normalised, the merge is validated one-to-one with an indicator, "
             "unmatched plots are reported (none) and n per rate is shown.",
        split="holdout27",
    ),
    Case(
        id="h27-data-loss-nitrate-below-lod-coerced",
        family="data_loss",
        setup=_NO3_SETUP,
        code="""
rsn["no3n"] = pd.to_numeric(rsn["no3n_mg_kg"], errors="coerce")
rsn = rsn.dropna(subset=["no3n"])

tbl = rsn.groupby("treatment")["no3n"].agg(["mean", "median", "std"]).round(2)
print(tbl)
red = 100 * (1 - tbl.loc["rye_cover", "mean"] / tbl.loc["fallow", "mean"])
print(f"Rye cover crop reduced residual soil nitrate by {red:.0f}% vs fallow")
""",
        twin="h27-data-loss-nitrate-below-lod-substituted",
        note="'<1.0' lab results are coerced to NaN and dropped without a count; most rye "
             "cores are below the LOD, so the rye mean is computed on its highest values and "
             "the reduction is understated.",
        split="holdout27",
    ),
    Case(
        id="h27-data-loss-nitrate-below-lod-substituted",
        family=None,
        setup=_NO3_SETUP,
        code="""
lod = 1.0
rsn["censored"] = rsn["no3n_mg_kg"].str.startswith("<")
rsn["no3n"] = pd.to_numeric(rsn["no3n_mg_kg"].str.lstrip("<"), errors="raise")
# below-LOD results kept as LOD/2 (a censored value, not a missing core)
rsn.loc[rsn["censored"], "no3n"] = lod / 2

tbl = rsn.groupby("treatment").agg(n=("no3n", "size"), n_below_lod=("censored", "sum"),
                                   mean=("no3n", "mean"), median=("no3n", "median"))
print(tbl.round(2))
red = 100 * (1 - tbl.loc["rye_cover", "median"] / tbl.loc["fallow", "median"])
print(f"Rye cover crop reduced median residual soil nitrate by {red:.0f}% vs fallow "
      f"(medians are unaffected by the LOD/2 substitution)")
""",
        twin="h27-data-loss-nitrate-below-lod-coerced",
        note="Censored '<1.0' results are kept (LOD/2), counted per treatment, and the "
             "comparison uses medians that do not depend on the substituted value.",
        split="holdout27",
    ),
]
