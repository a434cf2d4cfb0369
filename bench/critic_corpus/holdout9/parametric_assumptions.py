"""Parametric assumptions, holdout9 idioms: a canine ALT reference interval built as mean +/-
1.96 SD from strongly right-skewed enzyme activities, and a Student-t confidence interval via
stats.t.interval for the mean gold grade of 14 lognormal drill-core assays."""

from textwrap import dedent

from bench.critic_corpus import Case

_ALT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9501)
n = 150
healthy = pd.DataFrame({
    "dog_id": [f"D{i:04d}" for i in range(n)],
    "breed_group": rng.choice(["toy", "terrier", "working", "sporting", "hound"], n),
    "alt_u_l": rng.lognormal(np.log(38), 0.5, n).round(),
})
new_patients = pd.Series([14, 22, 71, 88, 105, 160], name="alt_u_l")
"""

_ASSAYS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9502)
assays = pd.DataFrame({
    "hole": "KD-117",
    "from_m": np.arange(212.0, 226.0),
    "au_gpt": rng.lognormal(np.log(0.75), 1.35, 14).round(2),
})
"""

CASES: list[Case] = [
    Case(
        id="parametric_assumptions-h9-canine-alt-reference-interval",
        family="parametric_assumptions",
        twin="parametric_assumptions-h9-canine-alt-reference-interval-sound",
        split="holdout9",
        setup=_ALT,
        note="ALT activities are strongly right-skewed, so the normal-theory mean +/- 1.96 SD "
        "reference limits are wrong (lower limit too low, upper too low) and misflag patients.",
        code=dedent("""\
            alt = healthy["alt_u_l"]
            centre, spread = alt.mean(), alt.std()
            lower, upper = centre - 1.96 * spread, centre + 1.96 * spread
            print(f"reference population: {len(alt)} healthy dogs")
            print(f"ALT reference interval: {lower:.0f} - {upper:.0f} U/L")
            outside = ((alt < lower) | (alt > upper)).mean()
            print(f"healthy dogs outside the interval: {outside:.1%}")

            flags = np.select([new_patients < lower, new_patients > upper], ["LOW", "HIGH"], "")
            print(pd.DataFrame({"alt_u_l": new_patients, "flag": flags}).to_string(index=False))
        """),
    ),
    Case(
        id="parametric_assumptions-h9-canine-alt-reference-interval-sound",
        family=None,
        twin="parametric_assumptions-h9-canine-alt-reference-interval",
        split="holdout9",
        setup=_ALT,
        note="With 150 reference dogs the limits are the nonparametric 2.5th and 97.5th "
        "percentiles, which need no normality assumption for the skewed ALT values.",
        code=dedent("""\
            alt = healthy["alt_u_l"]
            lower, upper = alt.quantile([0.025, 0.975])
            print(f"reference population: {len(alt)} healthy dogs")
            print(f"ALT reference interval: {lower:.0f} - {upper:.0f} U/L")
            outside = ((alt < lower) | (alt > upper)).mean()
            print(f"healthy dogs outside the interval: {outside:.1%}")

            flags = np.select([new_patients < lower, new_patients > upper], ["LOW", "HIGH"], "")
            print(pd.DataFrame({"alt_u_l": new_patients, "flag": flags}).to_string(index=False))
        """),
    ),
    Case(
        id="parametric_assumptions-h9-gold-assay-t-interval",
        family="parametric_assumptions",
        twin="parametric_assumptions-h9-gold-assay-t-interval-sound",
        split="holdout9",
        setup=_ASSAYS,
        note="Fourteen highly skewed (lognormal, nugget-affected) gold assays get a symmetric "
        "Student-t interval for the mean, which badly understates the upside uncertainty of "
        "the grade (upper limit 1.6 vs about 6.5 g/t on the log scale).",
        code=dedent("""\
            from scipy import stats

            grades = assays["au_gpt"].to_numpy()
            mean_grade = grades.mean()
            lo, hi = stats.t.interval(0.95, df=len(grades) - 1, loc=mean_grade,
                                      scale=stats.sem(grades))
            print(f"{assays['hole'].iat[0]}, {len(grades)} one-metre assays")
            print(f"mean grade {mean_grade:.2f} g/t Au, 95% CI {lo:.2f} to {hi:.2f} g/t")
            cutoff = 0.5
            verdict = "above" if lo > cutoff else "not demonstrably above"
            print(f"intercept is {verdict} the {cutoff} g/t cut-off")
        """),
    ),
    Case(
        id="parametric_assumptions-h9-gold-assay-t-interval-sound",
        family=None,
        twin="parametric_assumptions-h9-gold-assay-t-interval",
        split="holdout9",
        setup=_ASSAYS,
        note="The assays are treated as lognormal: the interval for the mean grade uses Cox's "
        "method on the log scale, which respects the skew and cannot go below zero.",
        code=dedent("""\
            from scipy import stats

            grades = assays["au_gpt"].to_numpy()
            logs = np.log(grades)
            n, ybar, s2 = len(logs), logs.mean(), logs.var(ddof=1)
            centre = ybar + s2 / 2
            se = np.sqrt(s2 / n + s2**2 / (2 * (n - 1)))
            t = stats.t.ppf(0.975, df=n - 1)
            mean_grade, lo, hi = np.exp([centre, centre - t * se, centre + t * se])
            print(f"{assays['hole'].iat[0]}, {n} one-metre assays")
            print(f"mean grade {mean_grade:.2f} g/t Au, 95% CI {lo:.2f} to {hi:.2f} g/t")
            cutoff = 0.5
            verdict = "above" if lo > cutoff else "not demonstrably above"
            print(f"intercept is {verdict} the {cutoff} g/t cut-off")
        """),
    ),
]
