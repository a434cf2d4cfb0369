from bench.critic_corpus import Case

_SURBER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
site_ids = [f"MR-{i:02d}" for i in range(1, 25)]
habitat = pd.DataFrame({
    "site_code": site_ids,
    "landuse": rng.choice(["forested", "agricultural", "urban"], 24, p=[0.4, 0.35, 0.25]),
    "elev_m": rng.uniform(120, 900, 24).round(0),
})
eff = {"forested": 0, "agricultural": -5, "urban": -9}
rows = []
for i, s in enumerate(site_ids):
    lu = habitat.loc[i, "landuse"]
    for rep in range(1, 4):
        code = s if i % 3 else s.replace("-", "").lower()
        rows.append({"site_code": code, "rep": rep,
                     "taxa_rich": max(2, int(rng.normal(24 + eff[lu], 3))),
                     "hbi": round(rng.normal(4.2 - 0.25 * eff[lu], 0.6), 2)})
surber = pd.DataFrame(rows)
'''

_SURBER_FLAWED = '''
df = surber.merge(habitat, on="site_code")
by_lu = (df.groupby("landuse")
         .agg(sites=("site_code", "nunique"), samples=("rep", "size"),
              taxa_rich=("taxa_rich", "mean"), hbi=("hbi", "mean"))
         .round(2))
by_lu.sort_values("hbi")
'''

_SURBER_SOUND = '''
s = surber.copy()
s["site_code"] = (s["site_code"].str.upper()
                  .str.replace(r"^([A-Z]+)-?(\\d+)$", r"\\1-\\2", regex=True))
df = s.merge(habitat, on="site_code", how="left", validate="many_to_one", indicator=True)
print(df["_merge"].value_counts().to_dict())
print("unmatched site codes:", sorted(df.loc[df["_merge"] != "both", "site_code"].unique()))
by_lu = (df.groupby("landuse")
         .agg(sites=("site_code", "nunique"), samples=("rep", "size"),
              taxa_rich=("taxa_rich", "mean"), hbi=("hbi", "mean"))
         .round(2))
by_lu.sort_values("hbi")
'''

_CORE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2468)
n = 72
lab = pd.DataFrame({
    "core_id": [f"SC{i:03d}" for i in range(1, n + 1)],
    "field": np.repeat(["F1", "F2", "F3", "F4"], 18),
    "depth_cm": np.tile(["0-15", "15-30", "30-60"], 24),
})
cd = rng.lognormal(np.log(0.18), 0.8, n)
cd = cd * np.where(lab["field"] == "F3", 2.5, 1.0)
lab["cd_mgkg"] = [f"<{0.10:.2f}" if v < 0.10 else f"{v:.3f}" for v in cd]
lab.loc[[5, 40], "cd_mgkg"] = "n.a."
lab["pb_mgkg"] = rng.lognormal(np.log(22), 0.4, n).round(1)
'''

_CORE_FLAWED = '''
lab["cd"] = pd.to_numeric(lab["cd_mgkg"], errors="coerce")
wide = (lab.dropna(subset=["cd"])
        .pivot_table(index="field", columns="depth_cm", values="cd", aggfunc="mean")
        .round(3))
wide["all_depths"] = lab.dropna(subset=["cd"]).groupby("field")["cd"].mean().round(3)
wide
'''

_CORE_SOUND = '''
raw = lab["cd_mgkg"].astype(str).str.strip()
censored = raw.str.startswith("<")
lab["cd"] = pd.to_numeric(raw.str.lstrip("<"), errors="coerce")
lab.loc[censored, "cd"] = lab.loc[censored, "cd"] / 2
print(f"below detection (<0.10, set to DL/2): {censored.sum()} | "
      f"not analysed: {lab['cd'].isna().sum()} of {len(lab)} cores")
kept = lab.dropna(subset=["cd"])
wide = kept.pivot_table(index="field", columns="depth_cm", values="cd", aggfunc="median").round(3)
wide["n_cores"] = kept.groupby("field").size()
wide["n_below_dl"] = censored.groupby(lab["field"]).sum()
wide
'''

CASES: list[Case] = [
    Case(
        id="h19-dl-surber-merge-flawed", family="data_loss", code=_SURBER_FLAWED,
        setup=_SURBER_SETUP, twin="h19-dl-surber-merge-sound", split="holdout19",
        note="inner merge silently drops a third of samples whose site codes are 'mr01' style",
    ),
    Case(
        id="h19-dl-surber-merge-sound", family=None, code=_SURBER_SOUND,
        setup=_SURBER_SETUP, twin="h19-dl-surber-merge-flawed", split="holdout19",
        note="site codes normalised, left merge with indicator; unmatched codes reported",
    ),
    Case(
        id="h19-dl-cadmium-coerce-flawed", family="data_loss", code=_CORE_FLAWED,
        setup=_CORE_SETUP, twin="h19-dl-cadmium-coerce-sound", split="holdout19",
        note="'<0.10' detection-limit results coerced to NaN, dropped unreported; means biased up",
    ),
    Case(
        id="h19-dl-cadmium-coerce-sound", family=None, code=_CORE_SOUND,
        setup=_CORE_SETUP, twin="h19-dl-cadmium-coerce-flawed", split="holdout19",
        note="censored values kept at DL/2, counts of censored and missing cores reported, medians",
    ),
]
