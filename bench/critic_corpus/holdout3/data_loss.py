"""Data loss, holdout3 idioms: a bare .dropna() in a method chain that throws away every trip
without a promo code, np.log of zero spend turned to NaN and skipped by groupby.mean, and
pd.cut bins whose last edge (20 kg) silently drops the heavy parcels from a groupby."""

from textwrap import dedent

from bench.critic_corpus import Case

_TRIPS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(5005)
n = 4000
trips = pd.DataFrame({
    "city": rng.choice(["Lisbon", "Porto", "Braga", "Faro"], n, p=[0.4, 0.3, 0.15, 0.15]),
    "distance_km": rng.gamma(2.2, 3.0, n).round(1),
})
has_promo = rng.random(n) < 0.18
trips["promo_code"] = np.where(has_promo, rng.choice(["WELCOME10", "RAIN5", "NIGHT15"], n),
                               None)
trips["fare_eur"] = (3.2 + 1.1 * trips.distance_km - np.where(has_promo, 2.5, 0)
                     + rng.normal(0, 1.0, n)).clip(2.5).round(2)
trips.loc[rng.random(n) < 0.01, "fare_eur"] = np.nan    # a few fares failed to sync
"""

_PLAYERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6262)
n = 5000
players = pd.DataFrame({
    "install_cohort": rng.choice(["2024-01", "2024-02", "2024-03", "2024-04"], n),
    "platform": rng.choice(["ios", "android"], n, p=[0.35, 0.65]),
})
payer = rng.random(n) < np.where(players.platform == "ios", 0.09, 0.04)
players["revenue_usd"] = np.where(payer, rng.lognormal(2.3, 1.1, n), 0.0).round(2)
"""

_PARCELS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(4747)
n = 3000
weight = np.concatenate([rng.gamma(1.6, 2.5, int(n * 0.9)),       # ordinary parcels
                         rng.uniform(20, 60, n - int(n * 0.9))])   # bulky freight items
parcels = pd.DataFrame({"weight_kg": weight.round(2)})
parcels["cost_eur"] = (4.5 + 0.9 * parcels.weight_kg + rng.normal(0, 1.2, n)).round(2)
"""

CASES: list[Case] = [
    Case(
        id="dataloss-bare-dropna-promo-column",
        family="data_loss",
        twin="dataloss-bare-dropna-promo-column-sound",
        split="holdout3",
        setup=_TRIPS,
        note="A bare .dropna() also drops every trip with no promo_code (~82% of trips, "
        "the full-price ones), so the per-city counts and fares describe promo trips only.",
        code=dedent("""\
            summary = (trips
                       .dropna()
                       .groupby("city")
                       .agg(trips=("fare_eur", "size"), mean_fare=("fare_eur", "mean"),
                            median_km=("distance_km", "median"))
                       .sort_values("trips", ascending=False))
            summary.round(2)
        """),
    ),
    Case(
        id="dataloss-bare-dropna-promo-column-sound",
        family=None,
        twin="dataloss-bare-dropna-promo-column",
        split="holdout3",
        setup=_TRIPS,
        note="Only rows missing the fare are dropped (dropna(subset=...)), and the number and "
        "share of dropped trips is printed before the per-city summary.",
        code=dedent("""\
            complete = trips.dropna(subset=["fare_eur", "distance_km"])
            lost = len(trips) - len(complete)
            print(f"dropped {lost} of {len(trips)} trips ({lost / len(trips):.1%}) with no fare")
            summary = (complete
                       .groupby("city")
                       .agg(trips=("fare_eur", "size"), mean_fare=("fare_eur", "mean"),
                            median_km=("distance_km", "median"))
                       .sort_values("trips", ascending=False))
            summary.round(2)
        """),
    ),
    Case(
        id="dataloss-log-zero-spend-cohorts",
        family="data_loss",
        twin="dataloss-log-zero-spend-cohorts-sound",
        split="holdout3",
        setup=_PLAYERS,
        note="np.log(0) gives -inf for the ~95% of players who never paid; they become NaN "
        "and groupby.mean skips them, so 'typical spend per player' describes payers only.",
        code=dedent("""\
            typical = (players
                       .assign(log_rev=np.log(players.revenue_usd))
                       .replace([np.inf, -np.inf], np.nan)
                       .groupby(["install_cohort", "platform"]).log_rev.mean()
                       .pipe(np.exp)
                       .unstack())
            print("typical revenue per player (geometric mean, USD):")
            typical.round(2)
        """),
    ),
    Case(
        id="dataloss-log-zero-spend-cohorts-sound",
        family=None,
        twin="dataloss-log-zero-spend-cohorts",
        split="holdout3",
        setup=_PLAYERS,
        note="Non-payers are kept: the table reports players, payer share and revenue per "
        "player, with the geometric mean computed and labelled for payers only.",
        code=dedent("""\
            summary = (players
                       .assign(payer=players.revenue_usd > 0,
                               log_rev=np.log(players.revenue_usd.where(
                                   players.revenue_usd > 0)))
                       .groupby(["install_cohort", "platform"])
                       .agg(players=("payer", "size"), payer_share=("payer", "mean"),
                            arpu=("revenue_usd", "mean"), payers=("payer", "sum"),
                            payer_geo_mean=("log_rev", "mean"))
                       .assign(payer_geo_mean=lambda d: np.exp(d.payer_geo_mean)))
            print(f"{(players.revenue_usd == 0).sum()} of {len(players)} players never paid; "
                  f"they count in arpu and payer_share, not in payer_geo_mean")
            summary.round(3)
        """),
    ),
    Case(
        id="dataloss-cut-bins-drop-heavy-parcels",
        family="data_loss",
        twin="dataloss-cut-bins-drop-heavy-parcels-sound",
        split="holdout3",
        setup=_PARCELS,
        note="pd.cut with a last edge of 20 kg makes the 10% heavier (and costliest) parcels "
        "NaN; groupby drops them and the 'average cost per parcel' ignores them.",
        code=dedent("""\
            bands = pd.cut(parcels.weight_kg, bins=[0, 1, 5, 10, 20],
                           labels=["<1 kg", "1-5 kg", "5-10 kg", "10-20 kg"])
            by_band = parcels.groupby(bands, observed=True).cost_eur.agg(["count", "mean"])
            overall = (by_band["count"] * by_band["mean"]).sum() / by_band["count"].sum()
            print(by_band.round(2).to_string())
            print(f"average shipping cost per parcel: EUR {overall:.2f}")
        """),
    ),
    Case(
        id="dataloss-cut-bins-drop-heavy-parcels-sound",
        family=None,
        twin="dataloss-cut-bins-drop-heavy-parcels",
        split="holdout3",
        setup=_PARCELS,
        note="The last band is open-ended (20 kg to inf) and the cell checks that every parcel "
        "landed in a band before averaging.",
        code=dedent("""\
            bands = pd.cut(parcels.weight_kg, bins=[0, 1, 5, 10, 20, np.inf],
                           labels=["<1 kg", "1-5 kg", "5-10 kg", "10-20 kg", "20+ kg"])
            print(f"parcels without a band: {bands.isna().sum()} of {len(parcels)}")
            by_band = parcels.groupby(bands, observed=True).cost_eur.agg(["count", "mean"])
            overall = (by_band["count"] * by_band["mean"]).sum() / by_band["count"].sum()
            print(by_band.round(2).to_string())
            print(f"average shipping cost per parcel: EUR {overall:.2f}")
        """),
    ),
]
