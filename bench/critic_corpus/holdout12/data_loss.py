from bench.critic_corpus import Case

PIANO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1709)
site_ids = [f"SP-{i:02d}" for i in range(1, 41)]
hoods = rng.choice(["Harbourside", "Old Town", "Mill Quarter", "Uni Hill"], 40)
sites = pd.DataFrame({"site_id": site_ids, "neighbourhood": hoods})
log_ids = rng.choice(site_ids, 3000)
plays = pd.DataFrame({"site_id": log_ids, "day": rng.integers(1, 121, 3000)})
older = plays.site_id.isin(site_ids[:12]) & (plays.day < 60)
plays.loc[older, "site_id"] = plays.loc[older, "site_id"].str.replace("-", "").str.lower()
'''

PIANO_FLAWED = '''
daily = plays.groupby(["site_id", "day"]).size().rename("plays").reset_index()
merged = daily.merge(sites, on="site_id")
summary = (
    merged.groupby("neighbourhood")
    .agg(pianos=("site_id", "nunique"), total_plays=("plays", "sum"),
         plays_per_day=("plays", "mean"))
    .round(2)
)
print(summary)
print(f"\\nplays logged across the programme: {summary.total_plays.sum()}")
'''

PIANO_SOUND = '''
plays["site_id"] = (
    plays.site_id.str.upper().str.replace(r"^SP-?(\\d+)$", r"SP-\\1", regex=True)
)
daily = plays.groupby(["site_id", "day"]).size().rename("plays").reset_index()
merged = daily.merge(sites, on="site_id", how="left", indicator=True)
print(f"site-days without a matching site record: {(merged._merge != 'both').sum()}")
summary = (
    merged.groupby("neighbourhood")
    .agg(pianos=("site_id", "nunique"), total_plays=("plays", "sum"),
         plays_per_day=("plays", "mean"))
    .round(2)
)
print(summary)
print(f"\\nplays logged across the programme: {summary.total_plays.sum()}")
'''

METEOR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1947)
n = 320
mass = rng.lognormal(4.0, 1.6, n)
text = [f"{m:,.1f}" for m in mass]
for i in rng.choice(n, 18, replace=False):
    text[i] = "<5"
finds = pd.DataFrame({
    "field": rng.choice(["Atacama", "Nullarbor", "Dhofar", "Lut"], n),
    "class": rng.choice(["H5", "L6", "LL5", "CM2"], n, p=[0.4, 0.35, 0.2, 0.05]),
    "mass_g": text,
})
'''

METEOR_FLAWED = '''
finds["mass_g"] = pd.to_numeric(finds["mass_g"], errors="coerce")
stats_by_field = finds.groupby("field")["mass_g"].describe()[["count", "mean", "50%", "max"]]
print(stats_by_field.round(1))
print(f"median recovered fragment: {finds.mass_g.median():.1f} g")
'''

METEOR_SOUND = '''
raw = finds["mass_g"].str.replace(",", "", regex=False)
below_limit = raw.str.startswith("<")
finds["mass_g"] = pd.to_numeric(raw.where(~below_limit), errors="coerce")
print(f"fragments below the 5 g scale limit: {below_limit.sum()} of {len(finds)};"
      f" other unparsed: {(finds.mass_g.isna() & ~below_limit).sum()}")
stats_by_field = finds.groupby("field")["mass_g"].describe()[["count", "mean", "50%", "max"]]
print(stats_by_field.round(1))
print(f"median recovered fragment (sub-5 g finds counted as smallest): "
      f"{finds.mass_g.fillna(0).median():.1f} g")
'''

CASES: list[Case] = [
    Case(
        id="data_loss-h12-street-piano-inner-merge",
        family="data_loss",
        code=PIANO_FLAWED,
        setup=PIANO_SETUP,
        twin="data_loss-h12-street-piano-inner-merge-sound",
        note="inner merge silently drops site-days logged under old id format ('sp07'), unreported",
        split="holdout12",
    ),
    Case(
        id="data_loss-h12-street-piano-inner-merge-sound",
        family=None,
        code=PIANO_SOUND,
        setup=PIANO_SETUP,
        twin="data_loss-h12-street-piano-inner-merge",
        note="ids normalised, left merge with indicator and the unmatched count printed",
        split="holdout12",
    ),
    Case(
        id="data_loss-h12-meteorite-mass-coerce",
        family="data_loss",
        code=METEOR_FLAWED,
        setup=METEOR_SETUP,
        twin="data_loss-h12-meteorite-mass-coerce-sound",
        note="to_numeric(coerce) turns every '1,234.5' and '<5' mass into NaN; stats skip them",
        split="holdout12",
    ),
    Case(
        id="data_loss-h12-meteorite-mass-coerce-sound",
        family=None,
        code=METEOR_SOUND,
        setup=METEOR_SETUP,
        twin="data_loss-h12-meteorite-mass-coerce",
        note="thousands separators stripped, below-limit finds counted and reported, not lost",
        split="holdout12",
    ),
]
