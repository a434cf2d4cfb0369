"""Pseudoreplication, holdout8 idiom: a thinning trial analysed tree by tree, although the
treatment was applied to whole stands and trees within a stand share soil and history."""

from textwrap import dedent

from bench.critic_corpus import Case

_STANDS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8118)
stand_ids = [f"ST{i:02d}" for i in range(1, 11)]
treatment = dict(zip(stand_ids, ["thinned"] * 5 + ["control"] * 5))
stand_effect = dict(zip(stand_ids, rng.normal(0, 0.6, 10)))
rows = []
for s in stand_ids:
    n_trees = int(rng.integers(35, 55))
    boost = 0.5 if treatment[s] == "thinned" else 0.0
    growth = 4.0 + boost + stand_effect[s] + rng.normal(0, 1.0, n_trees)
    rows += [(s, treatment[s], g) for g in growth.round(2)]
# five-year diameter increment (mm) of tagged trees in each stand
trees = pd.DataFrame(rows, columns=["stand", "treatment", "dbh_growth_mm"])
"""

CASES: list[Case] = [
    Case(
        id="pseudoreplication-h8-thinning-trial-trees-as-replicates",
        family="pseudoreplication",
        twin="pseudoreplication-h8-thinning-trial-trees-as-replicates-sound",
        split="holdout8",
        setup=_STANDS,
        note="Thinning was assigned to 10 stands but the t-test treats ~430 trees as independent "
        "replicates, ignoring the shared stand effect and overstating significance.",
        code=dedent("""\
            from scipy import stats

            summary = trees.groupby("treatment")["dbh_growth_mm"].agg(["mean", "std", "count"])
            print(summary.round(2))
            thinned = trees.loc[trees.treatment == "thinned", "dbh_growth_mm"]
            control = trees.loc[trees.treatment == "control", "dbh_growth_mm"]
            t, p = stats.ttest_ind(thinned, control)
            print(f"thinning effect {thinned.mean() - control.mean():+.2f} mm, "
                  f"t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudoreplication-h8-thinning-trial-trees-as-replicates-sound",
        family=None,
        twin="pseudoreplication-h8-thinning-trial-trees-as-replicates",
        split="holdout8",
        setup=_STANDS,
        note="Trees are averaged within stand first, so the test compares five thinned with five "
        "control stands, the units the treatment was applied to.",
        code=dedent("""\
            from scipy import stats

            stand_means = (trees.groupby(["stand", "treatment"], as_index=False)
                           ["dbh_growth_mm"].mean())
            summary = stand_means.groupby("treatment")["dbh_growth_mm"].agg(
                ["mean", "std", "count"])
            print(summary.round(2))
            thinned = stand_means.loc[stand_means.treatment == "thinned", "dbh_growth_mm"]
            control = stand_means.loc[stand_means.treatment == "control", "dbh_growth_mm"]
            t, p = stats.ttest_ind(thinned, control)
            print(f"thinning effect {thinned.mean() - control.mean():+.2f} mm, "
                  f"t = {t:.2f}, p = {p:.2g}")
        """),
    ),
]
