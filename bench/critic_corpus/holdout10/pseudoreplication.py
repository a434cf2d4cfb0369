"""Pseudoreplication, holdout10: leaves treated as independent replicates when comparing
roadside and park street trees (urban trees, scipy), and technical hydrometer readings treated
as independent batches in an OLS yeast comparison (brewing, statsmodels formula)."""

from textwrap import dedent

from bench.critic_corpus import Case

_TREES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_051)
rows = []
for site, shift in (("roadside", -2.5), ("park", 0.0)):
    for t in range(11):
        tree_effect = rng.normal(0, 2.8)
        n_leaves = int(rng.integers(15, 25))
        spad = 38 + shift + tree_effect + rng.normal(0, 2.5, n_leaves)
        rows.append(pd.DataFrame({"site": site, "tree_id": f"{site[0].upper()}{t:02d}",
                                  "species": "Tilia cordata", "spad": spad.round(1)}))
leaves = pd.concat(rows, ignore_index=True)
"""

_BREW = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_052)
rows = []
for strain, base in (("US-05", 78.0), ("WLP001", 79.2)):
    for b in range(6):
        batch_att = base + rng.normal(0, 1.8)
        og = rng.normal(1.052, 0.003)
        for r in range(4):
            rows.append({"strain": strain, "batch": f"{strain}-{b + 1}", "reading": r + 1,
                         "og": round(og, 4),
                         "attenuation": round(batch_att + rng.normal(0, 0.4), 2)})
ferm = pd.DataFrame(rows)
"""

CASES: list[Case] = [
    Case(
        id="pseudoreplication-h10-street-tree-leaves",
        family="pseudoreplication",
        twin="pseudoreplication-h10-street-tree-leaves-sound",
        split="holdout10",
        setup=_TREES,
        note="About 20 leaves per tree are entered as independent observations; the replicate is "
        "the tree (11 per site), so the t-test's degrees of freedom and p-value are inflated.",
        code=dedent("""\
            from scipy import stats

            road = leaves.loc[leaves["site"] == "roadside", "spad"]
            park = leaves.loc[leaves["site"] == "park", "spad"]
            t, p = stats.ttest_ind(road, park)
            print(leaves.groupby("site")["spad"].agg(["count", "mean", "std"]).round(2))
            print(f"\\nroadside vs park chlorophyll (SPAD): diff = {road.mean() - park.mean():.2f},"
                  f" t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudoreplication-h10-street-tree-leaves-sound",
        family=None,
        twin="pseudoreplication-h10-street-tree-leaves",
        split="holdout10",
        setup=_TREES,
        note="Leaf readings are averaged within each tree first, and the t-test compares the 11 "
        "roadside tree means with the 11 park tree means.",
        code=dedent("""\
            from scipy import stats

            per_tree = leaves.groupby(["site", "tree_id"], as_index=False)["spad"].mean()
            road = per_tree.loc[per_tree["site"] == "roadside", "spad"]
            park = per_tree.loc[per_tree["site"] == "park", "spad"]
            t, p = stats.ttest_ind(road, park)
            print(per_tree.groupby("site")["spad"].agg(["count", "mean", "std"]).round(2))
            print(f"\\nroadside vs park chlorophyll (SPAD): diff = {road.mean() - park.mean():.2f},"
                  f" t = {t:.2f}, p = {p:.2g}")
        """),
    ),
    Case(
        id="pseudoreplication-h10-brewing-hydrometer-readings",
        family="pseudoreplication",
        twin="pseudoreplication-h10-brewing-hydrometer-readings-sound",
        split="holdout10",
        setup=_BREW,
        note="Four repeat hydrometer readings of each batch enter the OLS as 48 independent rows; "
        "there are only 6 batches per strain, so the strain p-value is far too small.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            model = smf.ols("attenuation ~ C(strain, Treatment('US-05')) + og", data=ferm).fit()
            coef = model.params.filter(like="strain").iloc[0]
            pval = model.pvalues.filter(like="strain").iloc[0]
            lo, hi = model.conf_int().filter(like="strain", axis=0).iloc[0]
            print(f"n = {int(model.nobs)}, residual df = {model.df_resid:.0f}")
            print(f"WLP001 vs US-05 apparent attenuation: {coef:+.2f} points "
                  f"(95% CI {lo:+.2f} to {hi:+.2f}), p = {pval:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h10-brewing-hydrometer-readings-sound",
        family=None,
        twin="pseudoreplication-h10-brewing-hydrometer-readings",
        split="holdout10",
        setup=_BREW,
        note="Repeat readings are averaged to one value per batch before the OLS, so the 12 "
        "fermentations are the units of analysis.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            batches = ferm.groupby(["strain", "batch"], as_index=False)[
                ["attenuation", "og"]].mean()
            model = smf.ols("attenuation ~ C(strain, Treatment('US-05')) + og",
                            data=batches).fit()
            coef = model.params.filter(like="strain").iloc[0]
            pval = model.pvalues.filter(like="strain").iloc[0]
            lo, hi = model.conf_int().filter(like="strain", axis=0).iloc[0]
            print(f"n = {int(model.nobs)}, residual df = {model.df_resid:.0f}")
            print(f"WLP001 vs US-05 apparent attenuation: {coef:+.2f} points "
                  f"(95% CI {lo:+.2f} to {hi:+.2f}), p = {pval:.4f}")
        """),
    ),
]
