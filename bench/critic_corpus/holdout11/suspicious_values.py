"""Suspicious values, holdout11: a 99999 'not weighed' sentinel in rail-freight wagon weights,
and hand-Bonferroni p-values above 1 in a tonewood comparison for violin making."""

from textwrap import dedent

from bench.critic_corpus import Case

_WAGONS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_071)
n = 1500
routes = rng.choice(["Port-Inland", "Quarry-Yard", "Grain-Coast", "Steel-North"], n,
                    p=[.35, .25, .25, .15])
mean_t = pd.Series(routes).map({"Port-Inland": 58, "Quarry-Yard": 71, "Grain-Coast": 63,
                                "Steel-North": 66}).to_numpy()
net_t = rng.normal(mean_t, 6).round(1)
unweighed = rng.random(n) < np.where(routes == "Quarry-Yard", 0.06, 0.015)
net_t[unweighed] = 99999
wagons = pd.DataFrame({"wagon": [f"W{i:05d}" for i in range(n)], "route": routes,
                       "net_tonnes": net_t, "axles": 4})
"""

_TONEWOOD = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_072)
origins = {"Val di Fiemme": 0.0, "Bosnia": -0.25, "Carpathian": 0.05, "Engelmann": -0.1,
           "Sitka": 0.3, "Lutz": -0.05, "Swiss Alpine": 0.1, "Bavarian": -0.15}
rows = [{"origin": o, "speed_of_sound": rng.normal(5.6 + d, 0.35)}
        for o, d in origins.items() for _ in range(12)]
plates = pd.DataFrame(rows).round(3)
"""

CASES: list[Case] = [
    Case(
        id="suspicious_values-h11-freight-sentinel-weights",
        family="suspicious_values",
        twin="suspicious_values-h11-freight-sentinel-masked",
        split="holdout11",
        setup=_WAGONS,
        note="Unweighed wagons carry a 99999 t placeholder that is averaged as a real load: route "
        "means are in the thousands of tonnes and the max is the sentinel itself.",
        code=dedent("""\
            loads = (wagons.groupby("route")["net_tonnes"]
                     .agg(wagons="size", mean_t="mean", median_t="median", max_t="max")
                     .sort_values("mean_t", ascending=False))
            loads["tonnage_kt"] = wagons.groupby("route")["net_tonnes"].sum() / 1000
            print(loads.round(1))
            print(f"network average load per wagon: {wagons['net_tonnes'].mean():.1f} t")
        """),
    ),
    Case(
        id="suspicious_values-h11-freight-sentinel-masked",
        family=None,
        twin="suspicious_values-h11-freight-sentinel-weights",
        split="holdout11",
        setup=_WAGONS,
        note="The 99999 'not weighed' code is masked to NaN and counted per route before loads "
        "are summarised.",
        code=dedent("""\
            w = wagons.assign(net_tonnes=wagons["net_tonnes"].mask(wagons["net_tonnes"] == 99999))
            loads = (w.groupby("route")["net_tonnes"]
                     .agg(wagons="size", unweighed=lambda s: s.isna().sum(), mean_t="mean",
                          median_t="median", max_t="max")
                     .sort_values("mean_t", ascending=False))
            loads["tonnage_kt"] = w.groupby("route")["net_tonnes"].sum() / 1000
            print(loads.round(1))
            print(f"network average load per weighed wagon: {w['net_tonnes'].mean():.1f} t "
                  f"({w['net_tonnes'].isna().sum()} of {len(w)} wagons not weighed)")
        """),
    ),
    Case(
        id="suspicious_values-h11-tonewood-bonferroni-over-one",
        family="suspicious_values",
        twin="suspicious_values-h11-tonewood-bonferroni-capped",
        split="holdout11",
        setup=_TONEWOOD,
        note="Bonferroni done by hand as p * m without capping, so the table reports 'adjusted "
        "p-values' well above 1, which are impossible probabilities.",
        code=dedent("""\
            from itertools import combinations

            from scipy.stats import ttest_ind

            groups = {o: g["speed_of_sound"].to_numpy() for o, g in plates.groupby("origin")}
            pairs = list(combinations(sorted(groups), 2))
            out = []
            for a, b in pairs:
                t, p = ttest_ind(groups[a], groups[b])
                out.append((a, b, groups[a].mean() - groups[b].mean(), p * len(pairs)))
            table = pd.DataFrame(out, columns=["origin_a", "origin_b", "diff_km_s", "p_bonf"])
            table = table.sort_values("p_bonf")
            print(table.head(6).round(3).to_string(index=False))
            print(table.tail(4).round(3).to_string(index=False))
        """),
    ),
    Case(
        id="suspicious_values-h11-tonewood-bonferroni-capped",
        family=None,
        twin="suspicious_values-h11-tonewood-bonferroni-over-one",
        split="holdout11",
        setup=_TONEWOOD,
        note="Pairwise p-values are Bonferroni-adjusted with multipletests, which caps adjusted "
        "p-values at 1.",
        code=dedent("""\
            from itertools import combinations

            from scipy.stats import ttest_ind
            from statsmodels.stats.multitest import multipletests

            groups = {o: g["speed_of_sound"].to_numpy() for o, g in plates.groupby("origin")}
            pairs = list(combinations(sorted(groups), 2))
            out = []
            for a, b in pairs:
                t, p = ttest_ind(groups[a], groups[b])
                out.append((a, b, groups[a].mean() - groups[b].mean(), p))
            table = pd.DataFrame(out, columns=["origin_a", "origin_b", "diff_km_s", "p"])
            table["p_bonf"] = multipletests(table["p"], method="bonferroni")[1]
            table = table.drop(columns="p").sort_values("p_bonf")
            print(table.head(6).round(3).to_string(index=False))
            print(table.tail(4).round(3).to_string(index=False))
        """),
    ),
]
