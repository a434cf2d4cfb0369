"""Suspicious values, holdout3 idioms: a named-aggregation chain dividing season attendance by
one match's capacity (stadiums '1,700 % full'), an unshuffled cv=5 on a redshift-sorted
catalogue (mean CV R^2 of -1.9), and a hand-written two-sided p-value of 2 * (1 - cdf(z))
with a negative z (p = 1.77)."""

from textwrap import dedent

from bench.critic_corpus import Case

_LEAGUE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1888)
clubs = pd.DataFrame({"club": [f"Club {c}" for c in "ABCDEFGHIJKLMNOPQRST"],
                      "capacity": rng.integers(12, 75, 20) * 1000})
matches = clubs.loc[clubs.index.repeat(19)].reset_index(drop=True)   # 19 home games each
matches["attendance"] = (matches.capacity * rng.beta(8, 2, len(matches))).round()
"""

_GALAXIES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9009)
n = 1500
z_spec = rng.gamma(2.0, 0.25, n)
bands = ["u", "g", "r", "i", "z"]
slopes = np.array([3.1, 2.4, 1.6, 1.1, 0.8])
mags = pd.DataFrame(20 + slopes * np.log1p(z_spec)[:, None] * 2
                    + rng.normal(0, 0.15, (n, 5)), columns=[f"mag_{b}" for b in bands])
galaxies = mags.assign(z_spec=z_spec.round(4))
# spectroscopic catalogue as delivered by the survey: sorted by redshift
galaxies = galaxies.sort_values("z_spec", ignore_index=True)
colours = pd.DataFrame({f"{a}-{b}": galaxies[f"mag_{a}"] - galaxies[f"mag_{b}"]
                        for a, b in zip(bands, bands[1:])}).assign(mag_r=galaxies.mag_r)
"""

_POLL = """\
import numpy as np
import pandas as pd
from scipy import stats

waves = pd.DataFrame({"wave": ["May", "June"], "approve": [1075, 1012],
                      "respondents": [2250, 2200]})
"""

CASES: list[Case] = [
    Case(
        id="suspicious-attendance-over-capacity",
        family="suspicious_values",
        twin="suspicious-attendance-over-capacity-sound",
        split="holdout3",
        setup=_LEAGUE,
        note="Season attendance (19 games summed) divided by a single game's capacity: the "
        "table shows stadiums more than 1,500 % full.",
        code=dedent("""\
            utilisation = (matches
                           .groupby("club")
                           .agg(attendance=("attendance", "sum"), capacity=("capacity", "first"))
                           .assign(pct_full=lambda d: 100 * d.attendance / d.capacity)
                           .sort_values("pct_full", ascending=False))
            utilisation.head(8).round(1)
        """),
    ),
    Case(
        id="suspicious-attendance-over-capacity-sound",
        family=None,
        twin="suspicious-attendance-over-capacity",
        split="holdout3",
        setup=_LEAGUE,
        note="Season attendance divided by the season's total seats (capacity summed over the "
        "same 19 games), so utilisation stays between 0 and 100 %.",
        code=dedent("""\
            utilisation = (matches
                           .groupby("club")
                           .agg(attendance=("attendance", "sum"), capacity=("capacity", "sum"))
                           .assign(pct_full=lambda d: 100 * d.attendance / d.capacity)
                           .sort_values("pct_full", ascending=False))
            utilisation.head(8).round(1)
        """),
    ),
    Case(
        id="suspicious-sorted-catalogue-negative-r2",
        family="suspicious_values",
        twin="suspicious-sorted-catalogue-negative-r2-sound",
        split="holdout3",
        setup=_GALAXIES,
        note="cv=5 gives unshuffled folds of a redshift-sorted catalogue, so each fold covers "
        "a redshift range unseen in training: fold R^2 from -5.0 to -0.8 (mean -1.9) is printed.",
        code=dedent("""\
            from sklearn.model_selection import cross_val_score
            from sklearn.neighbors import KNeighborsRegressor
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            photo_z = make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=15))
            r2 = cross_val_score(photo_z, colours, galaxies.z_spec, cv=5, scoring="r2")
            print(f"fold R^2: {np.round(r2, 2)}")
            print(f"photometric-redshift model: mean CV R^2 = {r2.mean():.2f}")
        """),
    ),
    Case(
        id="suspicious-sorted-catalogue-negative-r2-sound",
        family=None,
        twin="suspicious-sorted-catalogue-negative-r2",
        split="holdout3",
        setup=_GALAXIES,
        note="Shuffled, seeded KFold, so every fold spans the whole redshift range of the "
        "catalogue; the fold R^2 values are high and consistent.",
        code=dedent("""\
            from sklearn.model_selection import KFold, cross_val_score
            from sklearn.neighbors import KNeighborsRegressor
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            photo_z = make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=15))
            folds = KFold(n_splits=5, shuffle=True, random_state=0)   # catalogue is z-sorted
            r2 = cross_val_score(photo_z, colours, galaxies.z_spec, cv=folds, scoring="r2")
            print(f"fold R^2: {np.round(r2, 2)}")
            print(f"photometric-redshift model: mean CV R^2 = {r2.mean():.2f}")
        """),
    ),
    Case(
        id="suspicious-two-sided-p-over-one",
        family="suspicious_values",
        twin="suspicious-two-sided-p-over-one-sound",
        split="holdout3",
        setup=_POLL,
        note="Two-sided p computed as 2 * (1 - norm.cdf(z)) without abs(): approval fell, z is "
        "negative, and the reported p-value is 1.77.",
        code=dedent("""\
            def two_prop_z(x1, n1, x2, n2):
                p1, p2 = x1 / n1, x2 / n2
                pooled = (x1 + x2) / (n1 + n2)
                z = (p2 - p1) / np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
                return {"before": round(p1, 4), "after": round(p2, 4), "z": round(float(z), 3),
                        "p_two_sided": round(float(2 * (1 - stats.norm.cdf(z))), 4)}


            may, june = waves.itertuples(index=False)
            two_prop_z(may.approve, may.respondents, june.approve, june.respondents)
        """),
    ),
    Case(
        id="suspicious-two-sided-p-over-one-sound",
        family=None,
        twin="suspicious-two-sided-p-over-one",
        split="holdout3",
        setup=_POLL,
        note="Two-sided p as 2 * norm.sf(|z|), which lies in [0, 1] whichever way approval "
        "moved.",
        code=dedent("""\
            def two_prop_z(x1, n1, x2, n2):
                p1, p2 = x1 / n1, x2 / n2
                pooled = (x1 + x2) / (n1 + n2)
                z = (p2 - p1) / np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
                return {"before": round(p1, 4), "after": round(p2, 4), "z": round(float(z), 3),
                        "p_two_sided": round(float(2 * stats.norm.sf(abs(z))), 4)}


            may, june = waves.itertuples(index=False)
            two_prop_z(may.approve, may.respondents, june.approve, june.respondents)
        """),
    ),
]
