from bench.critic_corpus import Case

_EFFLUENT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3317)
outfalls = ["OF-1 plating", "OF-2 cooling tower", "OF-3 site drain"]
med_ni = {"OF-1 plating": 0.060, "OF-2 cooling tower": 0.012, "OF-3 site drain": 0.008}
LOD = 0.005
recs = []
for of in outfalls:
    for d in pd.date_range("2024-01-08", periods=20, freq="W-MON"):
        v = med_ni[of] * np.exp(rng.normal(0, 0.6))
        if v < LOD:
            txt = rng.choice(["<0.005", "< 0.005", "n.d."])
        elif rng.random() < 0.3:
            txt = f"{v:.3f}".replace(".", ",")          # entered on the German-locale PC
        else:
            txt = f"{v:.3f} mg/L" if rng.random() < 0.5 else f"{v:.3f}"
        recs.append({"outfall": of, "date": d.date(), "Ni (mg/L)": txt})
sheet = pd.DataFrame(recs)
sheet.sample(8, random_state=0)
'''

_TENSILE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3318)
furnace = rng.choice(["F1", "F2", "F3"], 60)
ht_log = pd.DataFrame({
    "specimen_id": [f"AL-{i:03d}" for i in range(1, 61)],
    "furnace": furnace,
    "solution_T_C": np.where(furnace == "F3", 538, 530),
    "age_h": 8,
})
Rm = 310 + np.where(furnace == "F3", 14, 0) + rng.normal(0, 7, 60)
# tensile machine export: IDs are typed by hand on the backup frame (used mostly for F3 loads)
p_barcode = np.where(furnace == "F3", 0.3, 0.8)
ids = [f"AL-{i:03d}" if rng.random() < p_barcode[i - 1]
       else rng.choice([f"AL{i:03d}", f"al-{i:03d}"]) for i in range(1, 61)]
tensile = pd.DataFrame({"Specimen": ids, "Rm_MPa": Rm.round(1),
                        "Rp02_MPa": (Rm * 0.88 + rng.normal(0, 4, 60)).round(1)})
'''

CASES: list[Case] = [
    Case(
        id="h33-data-loss-effluent-ni-coerce-drops-lod-and-commas",
        family="data_loss",
        setup=_EFFLUENT_SETUP,
        code='''
sheet["Ni"] = pd.to_numeric(sheet["Ni (mg/L)"].str.replace("mg/L", "").str.strip(),
                            errors="coerce")
ni = sheet.dropna(subset=["Ni"])

stats_ni = ni.groupby("outfall")["Ni"].agg(["mean", "median", "max"]).round(4)
stats_ni["over_0.05_limit"] = stats_ni["mean"] > 0.05
stats_ni
''',
        twin="h33-data-loss-effluent-ni-parsed-censoring-reported-sound",
        note="to_numeric(errors='coerce') turns '<0.005', 'n.d.' and comma-decimal entries into "
             "NaN and dropna removes them silently, biasing the outfall means.",
        split="holdout33",
    ),
    Case(
        id="h33-data-loss-effluent-ni-parsed-censoring-reported-sound",
        family=None,
        setup=_EFFLUENT_SETUP,
        code='''
raw = (sheet["Ni (mg/L)"].str.replace("mg/L", "").str.replace(",", ".")
       .str.replace(" ", ""))
sheet["censored"] = raw.str.startswith("<") | raw.eq("n.d.")
sheet["Ni"] = pd.to_numeric(raw.where(~sheet["censored"]), errors="coerce")
unparsed = sheet["Ni"].isna() & ~sheet["censored"]
print(f"{len(sheet)} results: {sheet['censored'].sum()} below LOD (0.005), "
      f"{unparsed.sum()} unparseable")

# bounds for the mean: censored values at 0 (lower) and at the LOD (upper)
sheet["Ni_lo"] = sheet["Ni"].fillna(0.0)
sheet["Ni_hi"] = sheet["Ni"].fillna(0.005)
stats_ni = sheet.groupby("outfall").agg(
    n=("Ni", "size"), n_below_LOD=("censored", "sum"),
    mean_lo=("Ni_lo", "mean"), mean_hi=("Ni_hi", "mean"), max=("Ni", "max")).round(4)
stats_ni["over_0.05_limit"] = stats_ni["mean_lo"] > 0.05
stats_ni
''',
        twin="h33-data-loss-effluent-ni-coerce-drops-lod-and-commas",
        note="Comma decimals and units are parsed, '<LOD'/n.d. results are kept as censored, "
             "counts are reported and the mean is bounded (censored at 0 and at the LOD).",
        split="holdout33",
    ),
    Case(
        id="h33-data-loss-tensile-inner-merge-mismatched-ids",
        family="data_loss",
        setup=_TENSILE_SETUP,
        code='''
res = ht_log.merge(tensile, left_on="specimen_id", right_on="Specimen")
by_furnace = res.groupby("furnace")[["Rm_MPa", "Rp02_MPa"]].mean().round(1)
print(by_furnace)
print(f"\\nF3 - F1 difference in Rm: "
      f"{by_furnace.loc['F3', 'Rm_MPa'] - by_furnace.loc['F1', 'Rm_MPa']:+.1f} MPa")
''',
        twin="h33-data-loss-tensile-merge-ids-normalised-sound",
        note="Inner merge on hand-typed specimen IDs ('AL012', 'al-012') silently drops 14 of "
             "60 tensile results, 10 of the 18 F3 specimens, before the furnace means.",
        split="holdout33",
    ),
    Case(
        id="h33-data-loss-tensile-merge-ids-normalised-sound",
        family=None,
        setup=_TENSILE_SETUP,
        code='''
# harmonise hand-typed IDs: AL012 / al-012 -> AL-012
tensile["specimen_id"] = (tensile["Specimen"].str.upper()
                          .str.replace(r"^AL-?(\\d{3})$", r"AL-\\1", regex=True))
res = ht_log.merge(tensile, on="specimen_id", how="outer", indicator=True,
                   validate="one_to_one")
print(res["_merge"].value_counts().to_string())
assert (res["_merge"] == "both").all(), "unmatched specimens - check IDs"

by_furnace = res.groupby("furnace")[["Rm_MPa", "Rp02_MPa"]].agg(["mean", "count"]).round(1)
print(by_furnace)
print(f"\\nF3 - F1 difference in Rm: "
      f"{by_furnace.loc['F3', ('Rm_MPa', 'mean')] - by_furnace.loc['F1', ('Rm_MPa', 'mean')]:+.1f}"
      " MPa")
''',
        twin="h33-data-loss-tensile-inner-merge-mismatched-ids",
        note="Specimen IDs are normalised, the merge is checked with indicator/validate and an "
             "assertion that all 60 specimens match, and counts are shown per furnace.",
        split="holdout33",
    ),
]
