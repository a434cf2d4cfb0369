"""Correlation misuse, holdout11: Pearson on ordinal orthodontic questionnaire scales, and a
correlation on factorised cuisine labels in food delivery."""

from textwrap import dedent

from bench.critic_corpus import Case

_ORTHO = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_061)
n = 64
latent = rng.normal(size=n)
pain = np.digitize(latent + rng.normal(0, 0.8, n), [-0.3, 0.9, 1.7, 2.3])
wear = np.digitize(-0.8 * latent + rng.normal(0, 0.9, n), [-2.0, -1.4, -0.9, 0.2])
patients = pd.DataFrame({"patient": [f"P{i:03d}" for i in range(n)],
                         "discomfort_0_4": pain, "elastic_wear_band_1_5": wear + 1,
                         "age": rng.integers(11, 17, n)})
"""

_DELIVERY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_062)
n = 900
cuisine = rng.choice(["pizza", "sushi", "burgers", "thai", "indian", "salad"], n,
                     p=[.25, .12, .2, .13, .18, .12])
prep = pd.Series(cuisine).map({"pizza": 14, "sushi": 19, "burgers": 9, "thai": 17,
                               "indian": 21, "salad": 7}).to_numpy()
orders = pd.DataFrame({
    "cuisine": cuisine,
    "distance_km": rng.gamma(2.2, 1.5, n).round(2),
    "courier_rating": rng.normal(4.6, 0.25, n).clip(3, 5).round(2),
})
orders["delivery_min"] = (prep + 4.0 * orders["distance_km"] + rng.normal(10, 5, n)).round(1)
"""

CASES: list[Case] = [
    Case(
        id="correlation_misuse-h11-ortho-pearson-ordinal",
        family="correlation_misuse",
        twin="correlation_misuse-h11-ortho-spearman-ordinal",
        split="holdout11",
        setup=_ORTHO,
        note="Pearson r and its p-value on a 0-4 discomfort rating and a 1-5 wear band, both "
        "ordinal category codes with unequal, arbitrary spacing.",
        code=dedent("""\
            from scipy.stats import pearsonr

            print(pd.crosstab(patients["discomfort_0_4"], patients["elastic_wear_band_1_5"]))
            r, p = pearsonr(patients["discomfort_0_4"], patients["elastic_wear_band_1_5"])
            print(f"discomfort vs elastic wear: r = {r:.3f} (p = {p:.4f}, n = {len(patients)})")
        """),
    ),
    Case(
        id="correlation_misuse-h11-ortho-spearman-ordinal",
        family=None,
        twin="correlation_misuse-h11-ortho-pearson-ordinal",
        split="holdout11",
        setup=_ORTHO,
        note="Rank-based Spearman correlation for two ordinal rating scales.",
        code=dedent("""\
            from scipy.stats import spearmanr

            print(pd.crosstab(patients["discomfort_0_4"], patients["elastic_wear_band_1_5"]))
            rho, p = spearmanr(patients["discomfort_0_4"], patients["elastic_wear_band_1_5"])
            print(f"discomfort vs elastic wear: rho = {rho:.3f} (p = {p:.4f}, "
                  f"n = {len(patients)})")
        """),
    ),
    Case(
        id="correlation_misuse-h11-delivery-factorized-cuisine",
        family="correlation_misuse",
        twin="correlation_misuse-h11-delivery-cuisine-eta",
        split="holdout11",
        setup=_DELIVERY,
        note="Cuisine is a nominal label; pd.factorize gives arbitrary integer codes and their "
        "Pearson correlation with delivery time depends entirely on the code order.",
        code=dedent("""\
            codes, labels = pd.factorize(orders["cuisine"])
            drivers = {
                "distance_km": orders["distance_km"].to_numpy(),
                "courier_rating": orders["courier_rating"].to_numpy(),
                "cuisine": codes,
            }
            minutes = orders["delivery_min"].to_numpy()
            r = {k: np.corrcoef(v, minutes)[0, 1] for k, v in drivers.items()}
            for k, v in sorted(r.items(), key=lambda kv: -abs(kv[1])):
                print(f"{k:>15}: r = {v:+.3f}")
        """),
    ),
    Case(
        id="correlation_misuse-h11-delivery-cuisine-eta",
        family=None,
        twin="correlation_misuse-h11-delivery-factorized-cuisine",
        split="holdout11",
        setup=_DELIVERY,
        note="Numeric drivers get Pearson r; the nominal cuisine gets the correlation ratio "
        "(sqrt of eta squared from group means), which does not depend on any coding.",
        code=dedent("""\
            minutes = orders["delivery_min"]

            def corr_ratio(groups, y):
                means = y.groupby(groups).transform("mean")
                return np.sqrt(((means - y.mean()) ** 2).sum() / ((y - y.mean()) ** 2).sum())

            r = {k: np.corrcoef(orders[k], minutes)[0, 1]
                 for k in ["distance_km", "courier_rating"]}
            r["cuisine (eta)"] = corr_ratio(orders["cuisine"], minutes)
            for k, v in sorted(r.items(), key=lambda kv: -abs(kv[1])):
                print(f"{k:>15}: r = {v:+.3f}")
        """),
    ),
]
