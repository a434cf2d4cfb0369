"""Pseudoreplication, holdout9 idioms: a shelter harness trial assigned per dog but analysed with
a chi-square test on the crosstab of ~800 individual walks, and a split-arm moisturiser study
(active on one forearm, vehicle on the other) analysed from a long frame with an
independent-samples t-test."""

from textwrap import dedent

from bench.critic_corpus import Case

_WALKS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9601)
n_dogs = 24
dogs = pd.DataFrame({
    "dog": [f"K9-{i:02d}" for i in range(n_dogs)],
    "harness": np.repeat(["front_clip", "back_clip"], n_dogs // 2),
    "reactivity": rng.normal(0, 1.1, n_dogs),  # temperament, fixed per dog
})
walks = dogs.loc[dogs.index.repeat(rng.integers(25, 45, n_dogs))].reset_index(drop=True)
lin = -0.3 + walks.reactivity - 0.8 * walks.harness.eq("front_clip")
walks["pulled"] = (rng.random(len(walks)) < 1 / (1 + np.exp(-lin))).astype(int)
walks["walk_min"] = rng.integers(10, 35, len(walks))
walks = walks.drop(columns="reactivity")
"""

_ARMS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9602)
n = 26
skin = rng.normal(44, 9, n)  # each volunteer's own baseline hydration
active_arm = rng.choice(["left", "right"], n)
rows = []
for i in range(n):
    for product in ("active", "vehicle"):
        arm = active_arm[i] if product == "active" else {"left": "right", "right": "left"}[
            active_arm[i]]
        value = skin[i] + (3.0 if product == "active" else 0.0) + rng.normal(0, 3)
        rows.append({"volunteer": f"V{i + 1:02d}", "product": product, "arm": arm,
                     "corneometer_au": round(value, 1)})
hydration = pd.DataFrame(rows)
"""

CASES: list[Case] = [
    Case(
        id="pseudoreplication-h9-shelter-harness-walk-chi2",
        family="pseudoreplication",
        twin="pseudoreplication-h9-shelter-harness-walk-chi2-sound",
        split="holdout9",
        setup=_WALKS,
        note="Harness type was assigned to 24 dogs, but the chi-square test treats ~800 walks "
        "as independent; walks of the same dog share its temperament, so p is far too small.",
        code=dedent("""\
            from scipy.stats import chi2_contingency

            table = pd.crosstab(walks["harness"], walks["pulled"])
            chi2, p, dof, expected = chi2_contingency(table)
            rates = walks.groupby("harness")["pulled"].mean()
            print(table)
            print(f"walks with pulling: front clip {rates['front_clip']:.1%}, "
                  f"back clip {rates['back_clip']:.1%}")
            print(f"chi2 = {chi2:.2f}, dof = {dof}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h9-shelter-harness-walk-chi2-sound",
        family=None,
        twin="pseudoreplication-h9-shelter-harness-walk-chi2",
        split="holdout9",
        setup=_WALKS,
        note="Each dog (the unit the harness was assigned to) contributes one pulling rate, and "
        "the 12 vs 12 dog-level rates are compared with a Mann-Whitney test.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu

            per_dog = walks.groupby(["dog", "harness"], as_index=False)["pulled"].mean()
            front = per_dog.loc[per_dog.harness.eq("front_clip"), "pulled"]
            back = per_dog.loc[per_dog.harness.eq("back_clip"), "pulled"]
            res = mannwhitneyu(front, back)
            print(per_dog.groupby("harness")["pulled"].describe()[["count", "mean", "50%"]])
            print(f"median share of walks with pulling: front clip {front.median():.1%}, "
                  f"back clip {back.median():.1%}")
            print(f"Mann-Whitney U = {res.statistic:.1f}, p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h9-split-arm-moisturiser-ttest-ind",
        family="pseudoreplication",
        twin="pseudoreplication-h9-split-arm-moisturiser-ttest-ind-sound",
        split="holdout9",
        setup=_ARMS,
        note="Each volunteer has one active and one vehicle forearm, but the arms are compared "
        "with an independent-samples t-test, so between-person variation swamps the effect.",
        code=dedent("""\
            from scipy import stats

            groups = {k: g["corneometer_au"].to_numpy() for k, g in hydration.groupby("product")}
            res = stats.ttest_ind(groups["active"], groups["vehicle"])
            summary = hydration.groupby("product")["corneometer_au"].agg(["count", "mean", "std"])
            print(summary.round(2))
            diff = groups["active"].mean() - groups["vehicle"].mean()
            print(f"active - vehicle: {diff:+.2f} AU, t = {res.statistic:.2f}, "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h9-split-arm-moisturiser-ttest-ind-sound",
        family=None,
        twin="pseudoreplication-h9-split-arm-moisturiser-ttest-ind",
        split="holdout9",
        setup=_ARMS,
        note="The long frame is pivoted to one row per volunteer and the two arms are compared "
        "with a paired t-test, as the within-person (split-body) design requires.",
        code=dedent("""\
            from scipy import stats

            wide = hydration.pivot(index="volunteer", columns="product", values="corneometer_au")
            res = stats.ttest_rel(wide["active"], wide["vehicle"])
            summary = hydration.groupby("product")["corneometer_au"].agg(["count", "mean", "std"])
            print(summary.round(2))
            diff = (wide["active"] - wide["vehicle"]).mean()
            print(f"active - vehicle: {diff:+.2f} AU, t = {res.statistic:.2f}, "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
]
