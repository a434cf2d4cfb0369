from bench.critic_corpus import Case

SPLIT = "holdout28"

_MERGE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1001)
regions = ["South West", "Midlands", "North East", "Scotland", "Wales"]
n = 2500
region = rng.choice(regions, n, p=[0.22, 0.28, 0.15, 0.2, 0.15])
# legacy Scottish meter serials are 8 digits with a leading zero in the CRM
serial = rng.choice(89_999_999, n, replace=False) + 10_000_000
legacy = (region == "Scotland") & (rng.random(n) < 0.65)
serial[legacy] = rng.choice(8_999_999, legacy.sum(), replace=False) + 1_000_000
crm = pd.DataFrame({
    "msn": [f"{s:08d}" for s in serial],
    "region": region,
    "property_type": rng.choice(["flat", "terrace", "semi", "detached"], n),
})
# electric storage heating is common in the legacy Scottish stock
storage = legacy | (rng.random(n) < 0.08)
kwh = rng.lognormal(8.0, 0.35, n) * np.where(storage, 1.9, 1.0)
# meter-read system stores the serial as an integer, so leading zeros are gone
reads = pd.DataFrame({"msn": serial.astype(str), "annual_kwh": kwh.round()})
reads = reads.sample(frac=1, random_state=0).reset_index(drop=True)
crm.head()
'''

_MERGE_FLAWED = '''
annual = crm.merge(reads, on="msn")
by_region = (annual.groupby("region")["annual_kwh"]
             .agg(customers="size", mean_kwh="mean", median_kwh="median")
             .round(0).sort_values("mean_kwh", ascending=False))
print(f"TDCV-style benchmark, {len(annual):,} metered customers")
by_region
'''

_MERGE_SOUND = '''
# CRM keeps 8-digit zero-padded serials; the read system stores them as integers
reads_fixed = reads.assign(msn=reads["msn"].str.zfill(8))
annual = crm.merge(reads_fixed, on="msn", how="left", indicator=True)
unmatched = annual["_merge"] != "both"
print(f"CRM customers {len(crm):,}, matched to a read {(~unmatched).sum():,}, "
      f"unmatched {unmatched.sum()}")
print(unmatched.groupby(annual["region"]).sum().to_string())

annual = annual[~unmatched]
by_region = (annual.groupby("region")["annual_kwh"]
             .agg(customers="size", mean_kwh="mean", median_kwh="median")
             .round(0).sort_values("mean_kwh", ascending=False))
print(f"\\nTDCV-style benchmark, {len(annual):,} metered customers")
by_region
'''

_PRICE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4096)
sp = pd.date_range("2024-01-01", "2024-03-31 23:30", freq="30min", tz="Europe/London")
base = 68 + 25 * np.sin(2 * np.pi * (sp.hour.values + sp.minute.values / 60 - 12) / 24)
price = base + rng.standard_t(3, len(sp)) * 18
spikes = rng.random(len(sp)) < 0.012                       # system stress periods
price[spikes] = rng.uniform(1000, 4000, spikes.sum())
price_txt = [f"{p:,.2f}" for p in price]                   # BM portal export: "1,234.56"
miss = rng.choice(len(sp), 6, replace=False)
for m in miss:
    price_txt[m] = "N/A"
imb = pd.DataFrame({"settlement_ts": sp, "sp": (sp.hour * 2 + sp.minute // 30 + 1),
                    "ssp_gbp_mwh": price_txt})
imb.head()
'''

_PRICE_FLAWED = '''
imb["ssp"] = pd.to_numeric(imb["ssp_gbp_mwh"], errors="coerce")
imb = imb.dropna(subset=["ssp"])

monthly = imb.set_index("settlement_ts")["ssp"].resample("MS").agg(
    ["mean", "std", "max", lambda s: s.quantile(0.99)])
monthly.columns = ["mean", "std", "max", "p99"]
print(f"Q1 2024 system sell price: mean £{imb['ssp'].mean():.2f}/MWh, "
      f"max £{imb['ssp'].max():.0f}/MWh")
print(f"periods above £500/MWh: {(imb['ssp'] > 500).sum()}")
monthly.round(1)
'''

_PRICE_SOUND = '''
txt = imb["ssp_gbp_mwh"].str.replace(",", "", regex=False)
imb["ssp"] = pd.to_numeric(txt.replace("N/A", np.nan), errors="raise")
missing = imb["ssp"].isna()
print(f"{missing.sum()} of {len(imb):,} settlement periods have no price (N/A):")
print(imb.loc[missing, "settlement_ts"].dt.strftime("%Y-%m-%d %H:%M").tolist())
imb = imb[~missing]

monthly = imb.set_index("settlement_ts")["ssp"].resample("MS").agg(
    ["mean", "std", "max", lambda s: s.quantile(0.99)])
monthly.columns = ["mean", "std", "max", "p99"]
print(f"Q1 2024 system sell price: mean £{imb['ssp'].mean():.2f}/MWh, "
      f"max £{imb['ssp'].max():.0f}/MWh")
print(f"periods above £500/MWh: {(imb['ssp'] > 500).sum()}")
monthly.round(1)
'''

CASES: list[Case] = [
    Case(
        id="h28-loss-meter-serial-inner-merge",
        family="data_loss",
        setup=_MERGE_SETUP,
        code=_MERGE_FLAWED,
        twin="h28-loss-meter-serial-inner-merge-sound",
        note="inner merge on meter serial silently drops zero-padded legacy Scottish meters "
             "(high storage-heater users), biasing the regional consumption benchmark",
        split=SPLIT,
    ),
    Case(
        id="h28-loss-meter-serial-inner-merge-sound",
        family=None,
        setup=_MERGE_SETUP,
        code=_MERGE_SOUND,
        twin="h28-loss-meter-serial-inner-merge",
        note="serials normalised with zfill, left merge with indicator, unmatched customers "
             "counted by region before summarising",
        split=SPLIT,
    ),
    Case(
        id="h28-loss-imbalance-price-coerce-commas",
        family="data_loss",
        setup=_PRICE_SETUP,
        code=_PRICE_FLAWED,
        twin="h28-loss-imbalance-price-coerce-commas-sound",
        note="to_numeric(errors='coerce') turns every price written with a thousands comma "
             "(all >= £1,000 spikes) into NaN and dropna removes them silently",
        split=SPLIT,
    ),
    Case(
        id="h28-loss-imbalance-price-coerce-commas-sound",
        family=None,
        setup=_PRICE_SETUP,
        code=_PRICE_SOUND,
        twin="h28-loss-imbalance-price-coerce-commas",
        note="thousands separators stripped, parse errors raised, and the six genuinely "
             "missing periods listed before they are excluded",
        split=SPLIT,
    ),
]
