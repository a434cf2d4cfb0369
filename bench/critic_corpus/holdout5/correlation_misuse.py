"""Correlation misuse, holdout5 idioms: a reusable `driver_table` helper that runs pearsonr over
every integer column of a bus-route table, nominal depot and vehicle-type codes included, and a
dict comprehension of item-total correlations where each exam section is correlated with a total
that contains it (part-whole correlation)."""

from textwrap import dedent

from bench.critic_corpus import Case

_ROUTES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2323)
n = 64
routes = pd.DataFrame({
    "route": [f"R{i}" for i in range(100, 100 + n)],
    "depot_code": rng.integers(1, 6, n),        # 1 Northgate ... 5 Riverside (a label)
    "vehicle_type": rng.integers(1, 5, n),      # 1 diesel, 2 hybrid, 3 electric, 4 articulated
    "route_km": rng.uniform(6, 28, n).round(1),
    "stops": rng.integers(15, 60, n),
    "peak_headway_min": rng.choice([6, 8, 10, 12, 15, 20], n),
})
depot_offset = {1: 1.5, 2: -0.5, 3: 2.0, 4: -4.5, 5: -6.0}     # pp punctuality, per depot
routes["punctual_pct"] = (88 - 0.25 * routes.route_km - 0.08 * routes.stops
                          + routes.depot_code.map(depot_offset)
                          + rng.normal(0, 2.0, n)).round(1)
"""

_EXAM = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7171)
n = 420
ability = rng.normal(0, 1, n)
exam = pd.DataFrame({
    "student": np.arange(n),
    "algebra": (12 + 3 * ability + rng.normal(0, 2, n)).clip(0, 20).round(),
    "geometry": (11 + 3 * ability + rng.normal(0, 2, n)).clip(0, 20).round(),
    "statistics": (12 + 3 * ability + rng.normal(0, 2, n)).clip(0, 20).round(),
    # the essay is marked out of 40 and marking is noisy
    "essay": (22 + 2 * ability + rng.normal(0, 10, n)).clip(0, 40).round(),
})
sections = ["algebra", "geometry", "statistics", "essay"]
"""

CASES: list[Case] = [
    Case(
        id="corr-driver-helper-nominal-depot-codes",
        family="correlation_misuse",
        twin="corr-driver-helper-nominal-depot-codes-sound",
        split="holdout5",
        setup=_ROUTES,
        note="The helper Pearson-correlates depot_code and vehicle_type (arbitrary labels 1-5, "
        "1-4) with punctuality and ranks depot as a top 'driver' with a per-code slope.",
        code=dedent("""\
            from scipy.stats import pearsonr


            def driver_table(df, target):
                rows = []
                for col in df.select_dtypes("number").columns.drop(target):
                    r, p = pearsonr(df[col], df[target])
                    rows.append({"driver": col, "r": r, "p": p})
                return pd.DataFrame(rows).set_index("driver").sort_values("r", key=abs,
                                                                          ascending=False)


            drivers = driver_table(routes, "punctual_pct")
            print(drivers.round(3))
            r_depot = drivers.loc["depot_code", "r"]
            print(f"depot matters: r = {r_depot:.2f}, punctuality falls with each depot number")
        """),
    ),
    Case(
        id="corr-driver-helper-nominal-depot-codes-sound",
        family=None,
        twin="corr-driver-helper-nominal-depot-codes",
        split="holdout5",
        setup=_ROUTES,
        note="The helper runs Pearson only on genuinely numeric columns; depot and vehicle type "
        "are treated as categories (per-group medians, Kruskal-Wallis).",
        code=dedent("""\
            from scipy.stats import kruskal, pearsonr

            categorical = ["depot_code", "vehicle_type"]


            def driver_table(df, target, skip):
                rows = []
                for col in df.select_dtypes("number").columns.drop([target, *skip]):
                    r, p = pearsonr(df[col], df[target])
                    rows.append({"driver": col, "r": r, "p": p})
                return pd.DataFrame(rows).set_index("driver").sort_values("r", key=abs,
                                                                          ascending=False)


            print(driver_table(routes, "punctual_pct", categorical).round(3))
            for col in categorical:
                by_code = routes.groupby(col)["punctual_pct"]
                groups = [g.to_numpy() for _, g in by_code]
                print(f"{col}: medians {by_code.median().round(1).to_dict()}, "
                      f"Kruskal-Wallis p = {kruskal(*groups).pvalue:.3g}")
        """),
    ),
    Case(
        id="corr-part-whole-item-total-exam",
        family="correlation_misuse",
        twin="corr-part-whole-item-total-exam-sound",
        split="holdout5",
        setup=_EXAM,
        note="Each section is correlated with a total that includes it, so the large, noisy "
        "essay (half the marks) tops the ranking by construction despite being the least valid.",
        code=dedent("""\
            from scipy.stats import pearsonr

            exam["total"] = exam[sections].sum(axis=1)
            item_total = {s: pearsonr(exam[s], exam["total"]) for s in sections}
            table = (pd.DataFrame({s: {"r": res.statistic, "p": res.pvalue}
                                   for s, res in item_total.items()}).T
                       .sort_values("r", ascending=False))
            print(table.round(3))
            print(f"best single indicator of overall ability: {table.index[0]}")
        """),
    ),
    Case(
        id="corr-part-whole-item-total-exam-sound",
        family=None,
        twin="corr-part-whole-item-total-exam",
        split="holdout5",
        setup=_EXAM,
        note="Corrected item-total correlations: each section is correlated with the total of "
        "the other sections, so no section is correlated with itself.",
        code=dedent("""\
            from scipy.stats import pearsonr

            exam["total"] = exam[sections].sum(axis=1)
            item_rest = {s: pearsonr(exam[s], exam["total"] - exam[s]) for s in sections}
            table = (pd.DataFrame({s: {"r_rest": res.statistic, "p": res.pvalue}
                                   for s, res in item_rest.items()}).T
                       .sort_values("r_rest", ascending=False))
            print(table.round(3))
            print(f"best single indicator of overall ability: {table.index[0]}")
        """),
    ),
]
