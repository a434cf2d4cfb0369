"""Multiple comparisons, holdout8 idiom: a per-store groupby loop of Welch t-tests on daily
footfall before and after a window-display refit, with every store at p < 0.05 called an effect."""

from textwrap import dedent

from bench.critic_corpus import Case

_FOOTFALL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8104)
stores = [f"S{i:03d}" for i in range(1, 31)]
base = dict(zip(stores, rng.normal(900, 150, len(stores))))
rows = []
for s in stores:
    for period in ("before", "after"):
        lift = 1.06 if (s == "S007" and period == "after") else 1.0
        counts = rng.normal(base[s] * lift, 90, 42).round()
        rows += [(s, period, int(c)) for c in counts]
# door-counter visitors per trading day, six weeks either side of the new window displays
footfall = pd.DataFrame(rows, columns=["store", "period", "visitors"])
"""

CASES: list[Case] = [
    Case(
        id="multiple-comparisons-h8-footfall-store-by-store-ttests",
        family="multiple_comparisons",
        twin="multiple-comparisons-h8-footfall-store-by-store-ttests-sound",
        split="holdout8",
        setup=_FOOTFALL,
        note="Thirty stores are each tested at alpha 0.05 with no correction and the stores "
        "below 0.05 are reported as display effects, though about 1.5 are expected by chance.",
        code=dedent("""\
            from scipy import stats

            results = []
            for store, g in footfall.groupby("store"):
                after = g.loc[g.period == "after", "visitors"]
                before = g.loc[g.period == "before", "visitors"]
                t, p = stats.ttest_ind(after, before, equal_var=False)
                lift = 100 * (after.mean() / before.mean() - 1)
                results.append({"store": store, "lift_pct": lift, "p": p})
            results = pd.DataFrame(results).set_index("store")
            winners = results[results.p < 0.05].sort_values("p")
            print(f"{len(winners)} of {len(results)} stores show a significant footfall change:")
            print(winners.round(4))
        """),
    ),
    Case(
        id="multiple-comparisons-h8-footfall-store-by-store-ttests-sound",
        family=None,
        twin="multiple-comparisons-h8-footfall-store-by-store-ttests",
        split="holdout8",
        setup=_FOOTFALL,
        note="The thirty per-store p-values are adjusted with Benjamini-Hochberg before any "
        "store is said to have changed.",
        code=dedent("""\
            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            results = []
            for store, g in footfall.groupby("store"):
                after = g.loc[g.period == "after", "visitors"]
                before = g.loc[g.period == "before", "visitors"]
                t, p = stats.ttest_ind(after, before, equal_var=False)
                lift = 100 * (after.mean() / before.mean() - 1)
                results.append({"store": store, "lift_pct": lift, "p": p})
            results = pd.DataFrame(results).set_index("store")
            reject, results["q"], _, _ = multipletests(results.p, alpha=0.05, method="fdr_bh")
            winners = results[reject].sort_values("q")
            print(f"{len(winners)} of {len(results)} stores show a footfall change at FDR 5%:")
            print(winners.round(4))
        """),
    ),
]
