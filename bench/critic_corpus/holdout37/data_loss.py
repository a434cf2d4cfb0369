from bench.critic_corpus import Case

_IGG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3717)
farm_fpt = {"Brook": 0.18, "Fenwick": 0.42, "Hollins": 0.12, "Marsh": 0.30, "Ridley": 0.24}
rows = []
for farm, p_fpt in farm_fpt.items():
    n = int(rng.integers(30, 55))
    fpt = rng.random(n) < p_fpt
    igg = np.where(fpt, rng.gamma(2.5, 2.2, n), rng.normal(22, 6, n).clip(10.5, None))
    # lab report: below the RID detection limit comes back as "<5", some sera haemolysed
    txt = np.where(igg < 5, "<5", np.round(igg, 1).astype(str)).astype(object)
    txt[rng.random(n) < 0.05] = "haemolysed"
    rows.append(pd.DataFrame({"farm": farm, "calf": [f"{farm[:2]}{i:03d}" for i in range(n)],
                              "age_days": rng.integers(1, 8, n), "serum_igg": txt}))
calves = pd.concat(rows, ignore_index=True)
'''

_AMU_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3718)
n = 150
region = rng.choice(["0", "1", "2", "3"], n, p=[0.3, 0.25, 0.25, 0.2])
herd_id = [f"{r}{i:04d}" for r, i in zip(region, rng.choice(9000, n, replace=False) + 1000)]
ptype = np.where(region == "0", rng.choice(["pig", "dairy", "beef"], n, p=[0.7, 0.2, 0.1]),
                 rng.choice(["pig", "dairy", "beef"], n, p=[0.3, 0.45, 0.25]))
base = {"pig": 95.0, "dairy": 22.0, "beef": 14.0}
mg_pcu = [rng.lognormal(np.log(base[t] * (1.6 if r == "0" else 1.0)), 0.5)
          for t, r in zip(ptype, region)]
# veterinary prescribing system: herd ids kept as 5-character strings
amu = pd.DataFrame({"herd_id": herd_id, "mg_pcu_2023": np.round(mg_pcu, 1)})
# national census export: herd id read as an integer
census = pd.DataFrame({"herd_id": [int(h) for h in herd_id], "prod_type": ptype,
                       "pcu_tonnes": rng.lognormal(3.5, 0.7, n).round(1)})
'''

CASES = [
    Case(
        id="h37-dl-igg-coerce-dropna",
        family="data_loss",
        twin="h37-dl-igg-censored-explicit",
        setup=_IGG_SETUP,
        code='''calves["igg_gl"] = pd.to_numeric(calves["serum_igg"], errors="coerce")
igg = calves.dropna(subset=["igg_gl"])

fpt = (igg.assign(fpt=igg.igg_gl < 10)
          .groupby("farm")
          .agg(calves=("calf", "size"), mean_igg=("igg_gl", "mean"), fpt_pct=("fpt", "mean")))
fpt["fpt_pct"] *= 100
print(fpt.round(1))
print(f"\\nfailure of passive transfer (IgG < 10 g/L), all farms: "
      f"{100 * (igg.igg_gl < 10).mean():.1f} %")
''',
        note="'<5' results (the worst FPT calves) and haemolysed sera are coerced to NaN and "
             "silently dropped, so FPT prevalence is understated and nothing reports the loss.",
        split="holdout37",
    ),
    Case(
        id="h37-dl-igg-censored-explicit",
        family=None,
        twin="h37-dl-igg-coerce-dropna",
        setup=_IGG_SETUP,
        code='''raw = calves["serum_igg"].astype(str).str.strip()
below_lod = raw.eq("<5")
failed = raw.eq("haemolysed")
calves["igg_gl"] = pd.to_numeric(raw.where(~below_lod & ~failed), errors="raise")
print(f"{len(calves)} sera: {below_lod.sum()} below detection (<5 g/L), "
      f"{failed.sum()} haemolysed (no result, excluded)")

# a "<5" result is certainly below the 10 g/L cut-off, so it counts as FPT
tested = calves[~failed].assign(fpt=lambda d: below_lod[~failed] | (d.igg_gl < 10))
fpt = tested.groupby("farm").agg(calves=("calf", "size"), fpt_pct=("fpt", "mean"))
fpt["fpt_pct"] *= 100
fpt["below_lod"] = below_lod.groupby(calves.farm).sum()
fpt["haemolysed"] = failed.groupby(calves.farm).sum()
print(fpt.round(1))
print(f"\\nfailure of passive transfer (IgG < 10 g/L), all farms: "
      f"{100 * tested.fpt.mean():.1f} % of {len(tested)} calves with a result")
''',
        note="Censored '<5' results are kept and classed as FPT, haemolysed samples are "
             "counted and reported per farm, and the denominator is stated.",
        split="holdout37",
    ),
    Case(
        id="h37-dl-amu-herdid-inner-join",
        family="data_loss",
        twin="h37-dl-amu-herdid-zfill",
        setup=_AMU_SETUP,
        code='''census["herd_id"] = census["herd_id"].astype(str)
amu_prod = amu.merge(census, on="herd_id")

tab = (amu_prod.groupby("prod_type")["mg_pcu_2023"]
       .agg(herds="count", mean="mean", median="median",
            p75=lambda s: s.quantile(0.75))
       .round(1))
print(tab)
print(f"\\nnational median antimicrobial use: {amu_prod.mg_pcu_2023.median():.1f} mg/PCU")
''',
        note="Census ids lose their leading zero when stored as int, so the inner merge "
             "silently drops every region-0 herd (high-use pig herds) before the AMU summary.",
        split="holdout37",
    ),
    Case(
        id="h37-dl-amu-herdid-zfill",
        family=None,
        twin="h37-dl-amu-herdid-inner-join",
        setup=_AMU_SETUP,
        code='''# census stored herd ids as integers: restore the 5-character id before joining
census["herd_id"] = census["herd_id"].astype(str).str.zfill(5)
amu_prod = amu.merge(census, on="herd_id", how="left", validate="one_to_one",
                     indicator=True)
print(amu_prod["_merge"].value_counts().to_string())
assert (amu_prod["_merge"] == "both").all(), "unmatched herds, check ids"

tab = (amu_prod.groupby("prod_type")["mg_pcu_2023"]
       .agg(herds="count", mean="mean", median="median",
            p75=lambda s: s.quantile(0.75))
       .round(1))
print(tab)
print(f"\\nnational median antimicrobial use: {amu_prod.mg_pcu_2023.median():.1f} mg/PCU "
      f"({len(amu_prod)} of {len(amu)} herds)")
''',
        note="Ids are normalised before a validated left join, match counts are printed and "
             "asserted, so no herd silently drops out of the AMU summary.",
        split="holdout37",
    ),
]
