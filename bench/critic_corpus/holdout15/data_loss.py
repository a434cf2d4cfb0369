from bench.critic_corpus import Case

_PLAY = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
n = 2200
cat = rng.choice(["GAME", "FAMILY", "TOOLS", "COMMUNICATION", "PHOTOGRAPHY", "MEDICAL",
                  "EDUCATION", "FINANCE"], n, p=[.2, .18, .14, .08, .1, .1, .1, .1])
big = np.isin(cat, ["TOOLS", "COMMUNICATION", "PHOTOGRAPHY"])
lvl = np.clip(np.round(rng.normal(4.2 + 1.4 * big, 1.4, n)), 1, 9).astype(int)
inst = (10 ** lvl) * rng.choice([1, 5], n)
size_mb = np.round(rng.lognormal(2.8, 0.9, n), 1)
size = np.where(size_mb < 1, (size_mb * 1000).round().astype(int).astype(str) + "k",
                size_mb.astype(str) + "M")
size = np.where(rng.random(n) < np.where(big, 0.55, 0.08), "Varies with device", size)
rating = np.clip(np.round(rng.normal(4.1 + 0.08 * (lvl - 4), 0.45, n), 1), 1, 5)
rating = np.where(lvl <= 2, np.nan, rating)
apps = pd.DataFrame({
    "App": [f"app {i}" for i in range(n)], "Category": cat, "Rating": rating,
    "Size": size, "Installs": [f"{v:,}+" for v in inst],
    "Type": rng.choice(["Free", "Paid"], n, p=[.92, .08]),
})
'''

_FLY = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(13)
days = pd.date_range("2023-01-01", "2023-03-31", freq="D")
ap = ["ATL", "ORD", "DEN", "DFW", "SEA", "BOS", "MSP", "ASE", "JAC", "EGE"]
n = 7000
origin = rng.choice(ap, n, p=[.18, .17, .15, .14, .1, .09, .08, .03, .03, .03])
car = np.where(np.isin(origin, ["ASE", "JAC", "EGE"]),
               rng.choice(["OO", "UA"], n, p=[.8, .2]),
               rng.choice(["AA", "DL", "UA", "WN", "OO"], n))
date = rng.choice(days, n)
wx = pd.DataFrame([(a, d) for a in ap[:7] for d in days], columns=["ORIGIN", "FL_DATE"])
wx["PRCP_MM"] = np.round(rng.gamma(0.35, 9, len(wx)), 1)
wx["WIND_KT"] = np.round(rng.gamma(4, 3, len(wx)), 0)
mtn = np.isin(origin, ["ASE", "JAC", "EGE"])
flights = pd.DataFrame({"FL_DATE": date, "ORIGIN": origin, "CARRIER": car})
flights = flights.merge(wx, on=["ORIGIN", "FL_DATE"], how="left")
delay = rng.gamma(1.0, 13, n) - 8 + 22 * mtn + 0.5 * flights["PRCP_MM"].fillna(8)
flights = flights.drop(columns=["PRCP_MM", "WIND_KT"]).assign(DEP_DELAY=np.round(delay))
weather = wx
'''

CASES: list[Case] = [
    Case(
        id="h15-dataloss-playstore-coerce-dropna",
        family="data_loss",
        setup=_PLAY,
        code='''clean = (apps
         .assign(size_mb=lambda d: pd.to_numeric(d["Size"].str.rstrip("M"), errors="coerce"),
                 installs=lambda d: pd.to_numeric(d["Installs"].str.replace(r"[+,]", "",
                                                                             regex=True)))
         .dropna())

summary = (clean.groupby("Category")
                .agg(apps=("App", "size"), avg_rating=("Rating", "mean"),
                     median_installs=("installs", "median"), avg_size_mb=("size_mb", "mean"))
                .sort_values("median_installs", ascending=False))
print(f"overall average rating {clean['Rating'].mean():.2f}")
summary.round(2)
''',
        twin="h15-dataloss-playstore-coerce-dropna-ok",
        note="Sizes given in 'k' or 'Varies with device' coerce to NaN and dropna() also "
             "drops unrated apps, silently removing many (mostly big) apps before summaries.",
        split="holdout15",
    ),
    Case(
        id="h15-dataloss-playstore-coerce-dropna-ok",
        family=None,
        setup=_PLAY,
        code='''def to_mb(s):
    num = pd.to_numeric(s.str[:-1], errors="coerce")
    return num.where(s.str.endswith("M"), num / 1000).where(s.str[-1].isin(["M", "k"]))

clean = apps.assign(size_mb=to_mb(apps["Size"]),
                    installs=pd.to_numeric(apps["Installs"].str.replace(r"[+,]", "",
                                                                        regex=True)))
print(f"{len(clean)} apps; missing: rating {clean['Rating'].isna().sum()}, "
      f"size {clean['size_mb'].isna().sum()} ('Varies with device'), "
      f"installs {clean['installs'].isna().sum()}")

summary = (clean.groupby("Category")
                .agg(apps=("App", "size"), rated=("Rating", "count"),
                     avg_rating=("Rating", "mean"), median_installs=("installs", "median"),
                     sized=("size_mb", "count"), avg_size_mb=("size_mb", "mean"))
                .sort_values("median_installs", ascending=False))
summary.round(2)
''',
        twin="h15-dataloss-playstore-coerce-dropna",
        note="Sizes in k and M are both parsed, nothing is dropped, and the number of "
             "missing ratings and sizes is reported overall and per category.",
        split="holdout15",
    ),
    Case(
        id="h15-dataloss-airline-inner-merge-weather",
        family="data_loss",
        setup=_FLY,
        code='''fw = pd.merge(flights, weather, on=["ORIGIN", "FL_DATE"])
fw["wet"] = fw["PRCP_MM"] > 2

by_car = (fw.groupby("CARRIER")["DEP_DELAY"]
            .agg(flights="size", mean_delay="mean", p_late=lambda s: (s > 15).mean())
            .sort_values("mean_delay", ascending=False))
print(fw.groupby("wet")["DEP_DELAY"].mean().round(1).to_dict())
print(f"avg departure delay: {fw['DEP_DELAY'].mean():.1f} min")
by_car.round(2)
''',
        twin="h15-dataloss-airline-inner-merge-weather-ok",
        note="Inner merge with weather drops every flight from the three airports without a "
             "weather station (mostly OO), biasing the carrier delay table, unreported.",
        split="holdout15",
    ),
    Case(
        id="h15-dataloss-airline-inner-merge-weather-ok",
        family=None,
        setup=_FLY,
        code='''fw = pd.merge(flights, weather, on=["ORIGIN", "FL_DATE"], how="left",
              validate="many_to_one", indicator=True)
miss = fw["_merge"].eq("left_only")
print(f"{miss.sum()} of {len(fw)} flights have no weather record:",
      fw.loc[miss, "ORIGIN"].value_counts().to_dict())

by_car = (fw.groupby("CARRIER")["DEP_DELAY"]
            .agg(flights="size", mean_delay="mean", p_late=lambda s: (s > 15).mean())
            .sort_values("mean_delay", ascending=False))
wet = fw.loc[~miss].assign(wet=lambda d: d["PRCP_MM"] > 2)
print("wet vs dry (flights with weather only):",
      wet.groupby("wet")["DEP_DELAY"].agg(["size", "mean"]).round(1).to_dict())
print(f"avg departure delay (all flights): {fw['DEP_DELAY'].mean():.1f} min")
by_car.round(2)
''',
        twin="h15-dataloss-airline-inner-merge-weather",
        note="Left merge keeps all flights for the carrier table, reports which airports lack "
             "weather, and restricts only the wet/dry comparison to matched flights, with n.",
        split="holdout15",
    ),
]
