from bench.critic_corpus import Case

SPLIT = "holdout13"

PARKING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8642)
old_zones = [f"Z{z:02d}" for z in range(1, 19)]
new_zones = ["Z19", "Z20", "Z21", "Z22"]  # CPZ extension, live from March
zone_lookup = pd.DataFrame({
    "zone_code": old_zones,
    "ward": rng.choice(["Central", "Harbour", "University", "Northside", "Westfield"], 18),
    "tariff_band": rng.choice(["A", "B", "C"], 18, p=[0.3, 0.4, 0.3]),
})
n = 9000
zone = np.where(rng.random(n) < 0.26, rng.choice(new_zones, n), rng.choice(old_zones, n))
contravention = rng.choice(["01 no valid ticket", "12 resident bay", "30 overstay",
                            "40 disabled bay", "62 footway"], n,
                           p=[0.38, 0.22, 0.25, 0.05, 0.10])
fine = np.select([np.char.startswith(contravention.astype(str), c) for c in
                  ["01", "12", "30", "40", "62"]], [70, 110, 70, 110, 110])
pcns = pd.DataFrame({
    "pcn_ref": [f"PCN{6100000 + i}" for i in range(n)],
    "issued_at": pd.Timestamp("2024-01-01")
    + pd.to_timedelta(rng.integers(0, 182 * 24 * 60, n), unit="min"),
    "zone_code": zone,
    "contravention": contravention,
    "fine_gbp": fine,
    "paid": rng.random(n) < np.where(np.isin(zone, new_zones), 0.55, 0.68),
})
'''

PARKING_FLAWED = '''
pcns["month"] = pcns["issued_at"].dt.to_period("M")
pcns["paid_gbp"] = np.where(pcns["paid"], pcns["fine_gbp"], 0)

enriched = pcns.merge(zone_lookup, on="zone_code")

by_ward = (
    enriched.groupby("ward")
    .agg(pcns=("pcn_ref", "count"),
         issued_value=("fine_gbp", "sum"),
         collected=("paid_gbp", "sum"),
         pay_rate=("paid", "mean"))
    .assign(collection_pct=lambda d: 100 * d["collected"] / d["issued_value"])
    .sort_values("collected", ascending=False)
)
print("PCN income by ward, Jan-Jun 2024")
print(by_ward.round(2).to_string())

monthly = enriched.pivot_table(index="month", columns="tariff_band", values="paid_gbp",
                               aggfunc="sum").fillna(0)
monthly["total"] = monthly.sum(axis=1)
print("\\nCollected income by month and tariff band (GBP)")
print(monthly.round(0).to_string())

top_codes = (enriched.groupby("contravention")["paid"].agg(["count", "mean"])
             .sort_values("count", ascending=False))
print("\\nContraventions: count and pay rate")
print(top_codes.round(3).to_string())
print(f"\\nTotal issued: {len(enriched):,} PCNs; collected GBP {enriched['paid_gbp'].sum():,.0f}; "
      f"overall pay rate {enriched['paid'].mean():.1%}")
'''

PARKING_SOUND = '''
pcns["month"] = pcns["issued_at"].dt.to_period("M")
pcns["paid_gbp"] = np.where(pcns["paid"], pcns["fine_gbp"], 0)

enriched = pcns.merge(zone_lookup, on="zone_code", how="left", indicator=True)
unmatched = enriched["_merge"] == "left_only"
print(f"{unmatched.sum():,} of {len(pcns):,} PCNs ({unmatched.mean():.1%}) have a zone code "
      f"missing from the lookup: {sorted(enriched.loc[unmatched, 'zone_code'].unique())}")
enriched[["ward", "tariff_band"]] = enriched[["ward", "tariff_band"]].fillna("unmapped")

by_ward = (
    enriched.groupby("ward")
    .agg(pcns=("pcn_ref", "count"),
         issued_value=("fine_gbp", "sum"),
         collected=("paid_gbp", "sum"),
         pay_rate=("paid", "mean"))
    .assign(collection_pct=lambda d: 100 * d["collected"] / d["issued_value"])
    .sort_values("collected", ascending=False)
)
print("\\nPCN income by ward, Jan-Jun 2024 (unmapped = CPZ extension zones)")
print(by_ward.round(2).to_string())

monthly = enriched.pivot_table(index="month", columns="tariff_band", values="paid_gbp",
                               aggfunc="sum").fillna(0)
monthly["total"] = monthly.sum(axis=1)
print("\\nCollected income by month and tariff band (GBP)")
print(monthly.round(0).to_string())

top_codes = (enriched.groupby("contravention")["paid"].agg(["count", "mean"])
             .sort_values("count", ascending=False))
print("\\nContraventions: count and pay rate")
print(top_codes.round(3).to_string())
print(f"\\nTotal issued: {len(enriched):,} PCNs; collected GBP {enriched['paid_gbp'].sum():,.0f}; "
      f"overall pay rate {enriched['paid'].mean():.1%}")
'''

LIBRARY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1209)
n = 6000
branch = rng.choice(["Central", "Eastfield", "Marsh Lane", "Orchard", "Stonebridge"], n,
                    p=[0.34, 0.18, 0.16, 0.17, 0.15])
out = pd.Timestamp("2024-01-03") + pd.to_timedelta(rng.integers(0, 300, n), unit="D")
dur = np.where(branch == "Marsh Lane", rng.gamma(3.2, 7.5, n), rng.gamma(2.6, 7.0, n)).round()
ret = out + pd.to_timedelta(dur, unit="D")
still_out = rng.random(n) < 0.04
# Marsh Lane still runs the old LMS export, which writes day-first dates
fmt = np.where(branch == "Marsh Lane", "%d/%m/%Y", "%Y-%m-%d")
loans = pd.DataFrame({
    "loan_id": np.arange(1, n + 1),
    "branch": branch,
    "item_type": rng.choice(["adult fiction", "adult non-fiction", "junior", "DVD",
                             "audiobook"], n, p=[0.35, 0.25, 0.28, 0.05, 0.07]),
    "checkout_date": [d.strftime(f) for d, f in zip(out, fmt)],
    "return_date": [None if s else d.strftime(f) for d, f, s in zip(ret, fmt, still_out)],
})
'''

LIBRARY_FLAWED = '''
LOAN_PERIOD_DAYS = 21

def to_date(s):
    return pd.to_datetime(s, format="%Y-%m-%d", errors="coerce")

returned = (
    loans
    .assign(checkout=lambda d: to_date(d["checkout_date"]),
            returned=lambda d: to_date(d["return_date"]))
    .dropna(subset=["checkout", "returned"])
    .assign(days_out=lambda d: (d["returned"] - d["checkout"]).dt.days,
            overdue=lambda d: d["days_out"] > LOAN_PERIOD_DAYS)
)

branch_stats = (
    returned.groupby("branch")
    .agg(loans=("loan_id", "count"),
         median_days=("days_out", "median"),
         mean_days=("days_out", "mean"),
         overdue_rate=("overdue", "mean"))
    .sort_values("overdue_rate", ascending=False)
)
print(f"Returned loans, Jan-Oct 2024 (loan period {LOAN_PERIOD_DAYS} days)")
print(branch_stats.round(3).to_string())

by_type = returned.pivot_table(index="item_type", values=["days_out", "overdue"],
                               aggfunc={"days_out": "median", "overdue": "mean"})
print("\\nBy item type")
print(by_type.round(3).to_string())

worst = branch_stats.index[0]
print(f"\\nSystem-wide overdue rate: {returned['overdue'].mean():.1%}; "
      f"highest at {worst} ({branch_stats.loc[worst, 'overdue_rate']:.1%})")
print("Proposal: pilot SMS due-date reminders at the top two branches: "
      f"{', '.join(branch_stats.index[:2])}")
'''

LIBRARY_SOUND = '''
LOAN_PERIOD_DAYS = 21

def to_date(s):
    iso = pd.to_datetime(s, format="%Y-%m-%d", errors="coerce")
    dmy = pd.to_datetime(s, format="%d/%m/%Y", errors="coerce")
    return iso.fillna(dmy)

parsed = loans.assign(checkout=lambda d: to_date(d["checkout_date"]),
                      returned=lambda d: to_date(d["return_date"]))
bad_checkout = parsed["checkout"].isna()
bad_return = parsed["returned"].isna() & parsed["return_date"].notna()
on_loan = parsed["return_date"].isna()
print(f"{len(loans):,} loans: {bad_checkout.sum()} unparseable checkout dates, "
      f"{bad_return.sum()} unparseable return dates, {on_loan.sum()} still on loan "
      "(excluded from duration stats)")
print(on_loan.groupby(parsed["branch"]).sum().rename("still_on_loan").to_string())

returned = (
    parsed.loc[~bad_checkout & ~bad_return & ~on_loan]
    .assign(days_out=lambda d: (d["returned"] - d["checkout"]).dt.days,
            overdue=lambda d: d["days_out"] > LOAN_PERIOD_DAYS)
)

branch_stats = (
    returned.groupby("branch")
    .agg(loans=("loan_id", "count"),
         median_days=("days_out", "median"),
         mean_days=("days_out", "mean"),
         overdue_rate=("overdue", "mean"))
    .sort_values("overdue_rate", ascending=False)
)
print(f"\\nReturned loans, Jan-Oct 2024 (loan period {LOAN_PERIOD_DAYS} days)")
print(branch_stats.round(3).to_string())

by_type = returned.pivot_table(index="item_type", values=["days_out", "overdue"],
                               aggfunc={"days_out": "median", "overdue": "mean"})
print("\\nBy item type")
print(by_type.round(3).to_string())

worst = branch_stats.index[0]
print(f"\\nSystem-wide overdue rate: {returned['overdue'].mean():.1%}; "
      f"highest at {worst} ({branch_stats.loc[worst, 'overdue_rate']:.1%})")
print("Proposal: pilot SMS due-date reminders at the top two branches: "
      f"{', '.join(branch_stats.index[:2])}")
'''

CASES: list[Case] = [
    Case(
        id="h13-dataloss-parking-inner-join-new-zones",
        family="data_loss",
        code=PARKING_FLAWED,
        setup=PARKING_SETUP,
        twin="h13-dataloss-parking-left-join-reported",
        note="Inner merge with a zone lookup that lacks the four new CPZ zones silently drops "
             "about a quarter of PCNs (with a lower pay rate) from income and pay-rate totals.",
        split=SPLIT,
    ),
    Case(
        id="h13-dataloss-parking-left-join-reported",
        family=None,
        code=PARKING_SOUND,
        setup=PARKING_SETUP,
        twin="h13-dataloss-parking-inner-join-new-zones",
        note="Left merge with an indicator; unmatched PCNs are counted, named and kept as "
             "'unmapped' in every total.",
        split=SPLIT,
    ),
    Case(
        id="h13-dataloss-library-dayfirst-dates-coerced",
        family="data_loss",
        code=LIBRARY_FLAWED,
        setup=LIBRARY_SETUP,
        twin="h13-dataloss-library-both-formats-parsed",
        note="ISO-only date parsing with errors='coerce' turns all of Marsh Lane's day-first "
             "dates into NaT and dropna removes the branch from the overdue ranking silently.",
        split=SPLIT,
    ),
    Case(
        id="h13-dataloss-library-both-formats-parsed",
        family=None,
        code=LIBRARY_SOUND,
        setup=LIBRARY_SETUP,
        twin="h13-dataloss-library-dayfirst-dates-coerced",
        note="Both date formats are parsed; unparseable and still-on-loan rows are counted "
             "and reported before they are excluded from duration stats.",
        split=SPLIT,
    ),
]
