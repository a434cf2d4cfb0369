from bench.critic_corpus import Case

SPLIT = "holdout24"

_ASKING_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(5353)
areas = {"Clifton": 640_000, "Redland": 560_000, "Henleaze": 590_000, "Bishopston": 470_000,
         "Southville": 420_000, "Bedminster": 340_000, "Easton": 310_000,
         "Fishponds": 300_000, "Lawrence Hill": 255_000, "Hartcliffe": 215_000}
n = 900
area = rng.choice(list(areas), n)
price = np.array([areas[a] for a in area]) * np.exp(rng.normal(0, 0.45, n))
price = (price / 5000).round() * 5000

def fmt(p, u):
    if p >= 1_000_000 and u < 0.75:
        return f"£{p / 1e6:.2f}m".replace("0m", "m")
    if p >= 500_000 and u < 0.45:
        return f"£{p / 1e3:.0f}k"
    return f"£{p:,.0f}" + (" " if u > 0.93 else "")

listings = pd.DataFrame({
    "listing_ref": [f"RM{i}" for i in rng.choice(10**8, n, replace=False)],
    "area": area,
    "asking_price": [fmt(p, u) for p, u in zip(price, rng.random(n))],
    "bedrooms": rng.choice([1, 2, 3, 4, 5], n, p=[0.12, 0.3, 0.33, 0.18, 0.07]),
    "property_type": rng.choice(["Terraced", "Semi-detached", "Detached", "Flat"], n),
})
listings.loc[rng.random(n) < 0.025, "asking_price"] = "POA"
"""

_TUBE_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(7878)
stations = {
    "King's Cross St. Pancras": "Victoria", "Oxford Circus": "Victoria", "Victoria": "Victoria",
    "Brixton": "Victoria", "Walthamstow Central": "Victoria", "Highbury & Islington": "Victoria",
    "Stratford": "Jubilee", "Canary Wharf": "Jubilee", "London Bridge": "Jubilee",
    "Waterloo": "Jubilee", "Bond Street": "Jubilee", "Wembley Park": "Jubilee",
    "North Greenwich": "Jubilee", "Bank & Monument": "Northern", "Camden Town": "Northern",
    "Euston": "Northern", "Morden": "Northern", "Clapham Common": "Northern",
    "Elephant & Castle": "Northern", "Tottenham Court Road": "Central",
    "Liverpool Street": "Central", "Holborn": "Central", "Shepherd's Bush": "Central",
    "Ealing Broadway": "Central", "Mile End": "Central", "Leytonstone": "Central",
    "Hammersmith": "Piccadilly", "Leicester Square": "Piccadilly",
    "Piccadilly Circus": "Piccadilly", "Finsbury Park": "Piccadilly",
    "Heathrow Terminals 2 & 3": "Piccadilly", "Earl's Court": "District",
    "Wimbledon": "District", "Richmond": "District", "Upminster": "District",
    "Harrow-on-the-Hill": "Metropolitan", "Baker Street": "Metropolitan",
    "Wembley Central": "Bakerloo", "Paddington": "Bakerloo", "Lambeth North": "Bakerloo",
}
lookup = pd.DataFrame({"station": list(stations), "line": list(stations.values())})
lookup["zone"] = rng.choice([1, 2, 3, 4, 6], len(lookup), p=[0.45, 0.25, 0.15, 0.1, 0.05])

odd_names = {"King's Cross St. Pancras": "King's Cross St Pancras",
             "Bank & Monument": "Bank and Monument",
             "Highbury & Islington": "Highbury and Islington",
             "Heathrow Terminals 2 & 3": "Heathrow Terminals 2 and 3",
             "Harrow-on-the-Hill": "Harrow on the Hill",
             "Canary Wharf": "Canary Wharf ", "Stratford": "STRATFORD"}
big = {"King's Cross St. Pancras": 88, "Stratford": 92, "Bank & Monument": 70,
       "Canary Wharf": 52, "Oxford Circus": 76, "Waterloo": 82, "Victoria": 74,
       "London Bridge": 68, "Liverpool Street": 66}
entries = pd.DataFrame({
    "station": [odd_names.get(s, s) for s in stations],
    "entries_2019_m": [big.get(s, rng.uniform(6, 30)) for s in stations],
})
recovery = np.where(lookup.line.isin(["Jubilee", "Victoria"]), 0.9, 0.82)
entries["entries_2023_m"] = (entries.entries_2019_m * recovery
                             * rng.normal(1, 0.04, len(entries))).round(2)
entries["entries_2019_m"] = entries.entries_2019_m.round(2)
"""

CASES: list[Case] = [
    Case(
        id="h24-data-loss-asking-price-k-m-coerced",
        family="data_loss",
        setup=_ASKING_SETUP,
        code=r"""
price = pd.to_numeric(listings["asking_price"].str.replace("£", "").str.replace(",", "")
                      .str.strip(), errors="coerce")
by_area = (listings.assign(price=price)
           .groupby("area")["price"].median()
           .sort_values(ascending=False))
print(f"Priciest neighbourhood: {by_area.index[0]} "
      f"(median asking price £{by_area.iloc[0]:,.0f})")
print(f"Cheapest: {by_area.index[-1]} (£{by_area.iloc[-1]:,.0f}), a gap of "
      f"{by_area.iloc[0] / by_area.iloc[-1]:.1f}x")
by_area.map("£{:,.0f}".format)
""",
        twin="h24-data-loss-asking-price-k-m-parsed",
        note="Prices written as '£650k' or '£1.2m' (the dearer homes) become NaN under "
             "errors='coerce' and are silently skipped by the median, with no count reported.",
        split=SPLIT,
    ),
    Case(
        id="h24-data-loss-asking-price-k-m-parsed",
        family=None,
        setup=_ASKING_SETUP,
        code=r"""
s = listings["asking_price"].str.strip().str.lower().str.replace(r"[£,]", "", regex=True)
mult = np.select([s.str.endswith("m"), s.str.endswith("k")], [1e6, 1e3], 1)
price = pd.to_numeric(s.str.rstrip("mk"), errors="coerce") * mult
unparsed = listings.loc[price.isna(), "asking_price"]
print(f"{len(unparsed)} of {len(listings)} listings have no usable price: "
      f"{unparsed.value_counts().to_dict()}")
by_area = (listings.assign(price=price)
           .groupby("area")["price"].median()
           .sort_values(ascending=False))
print(f"Priciest neighbourhood: {by_area.index[0]} "
      f"(median asking price £{by_area.iloc[0]:,.0f})")
print(f"Cheapest: {by_area.index[-1]} (£{by_area.iloc[-1]:,.0f}), a gap of "
      f"{by_area.iloc[0] / by_area.iloc[-1]:.1f}x")
by_area.map("£{:,.0f}".format)
""",
        twin="h24-data-loss-asking-price-k-m-coerced",
        note="The k/m suffixes are parsed, and the listings still without a price (POA) are "
             "counted and shown before the medians are computed.",
        split=SPLIT,
    ),
    Case(
        id="h24-data-loss-tube-station-inner-merge",
        family="data_loss",
        setup=_TUBE_SETUP,
        code=r"""
by_line = (entries.merge(lookup, on="station")
           .groupby("line")[["entries_2019_m", "entries_2023_m"]].sum()
           .assign(recovery_pct=lambda d: 100 * d.entries_2023_m / d.entries_2019_m)
           .sort_values("entries_2023_m", ascending=False))
top = by_line.index[0]
print(f"{top} line stations are the busiest: {by_line.loc[top, 'entries_2023_m']:.0f}m "
      f"entries in 2023, {by_line.loc[top, 'recovery_pct']:.0f}% of 2019")
by_line.round(1)
""",
        twin="h24-data-loss-tube-station-matched-merge",
        note="The inner merge silently drops the 7 stations whose names are spelt differently "
             "(incl. King's Cross, Stratford, Bank), so line totals and the ranking are wrong.",
        split=SPLIT,
    ),
    Case(
        id="h24-data-loss-tube-station-matched-merge",
        family=None,
        setup=_TUBE_SETUP,
        code=r"""
def norm(s):
    return (s.str.lower().str.strip().str.replace("&", "and").str.replace(".", "")
             .str.replace("-", " ").str.replace(r"\s+", " ", regex=True))

merged = entries.assign(key=norm(entries.station)).merge(
    lookup.assign(key=norm(lookup.station)).drop(columns="station"),
    on="key", how="left", validate="one_to_one", indicator=True)
missing = merged.loc[merged._merge == "left_only", "station"].tolist()
print(f"{len(merged)} stations in the ridership file, {len(missing)} without a line: {missing}")

by_line = (merged.groupby("line")[["entries_2019_m", "entries_2023_m"]].sum()
           .assign(recovery_pct=lambda d: 100 * d.entries_2023_m / d.entries_2019_m)
           .sort_values("entries_2023_m", ascending=False))
top = by_line.index[0]
print(f"{top} line stations are the busiest: {by_line.loc[top, 'entries_2023_m']:.0f}m "
      f"entries in 2023, {by_line.loc[top, 'recovery_pct']:.0f}% of 2019")
by_line.round(1)
""",
        twin="h24-data-loss-tube-station-inner-merge",
        note="Station names are normalised before a validated left merge, and the count and "
             "names of unmatched stations are printed (none remain).",
        split=SPLIT,
    ),
]
