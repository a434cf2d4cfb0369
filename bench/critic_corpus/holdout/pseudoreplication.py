"""Pseudoreplication, held-out idioms: a crossover trial analysed with Mann-Whitney on a long
frame, and an OLS regression over repeated terms per student with naive standard errors."""

from textwrap import dedent

from bench.critic_corpus import Case

_CROSSOVER = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(303)
n = 22
patient_level = rng.normal(55, 15, n)            # how much pain each patient reports overall
long = pd.concat([
    pd.DataFrame({"patient": np.arange(n), "drug": "A",
                  "vas_mm": patient_level + rng.normal(0, 5, n)}),
    pd.DataFrame({"patient": np.arange(n), "drug": "B",
                  "vas_mm": patient_level - 5 + rng.normal(0, 5, n)}),
], ignore_index=True).sample(frac=1, random_state=0)   # rows arrive in visit order
long["vas_mm"] = long.vas_mm.clip(0, 100).round(1)
"""

_TERMS = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(50)
n_students, n_terms = 60, 4
program = rng.permutation(np.repeat([0, 1], n_students // 2))
ability = rng.normal(0, 9, n_students)
scores = pd.DataFrame({
    "student": np.repeat(np.arange(n_students), n_terms),
    "term": np.tile(np.arange(1, n_terms + 1), n_students),
    "mentoring": np.repeat(program, n_terms),
})
scores["math_score"] = (
    62 + 1.5 * scores.term + 3.0 * scores.mentoring
    + ability[scores.student] + rng.normal(0, 4, len(scores))
)
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-crossover-mannwhitney",
        family="pseudoreplication",
        twin="pseudorep-crossover-mannwhitney-sound",
        split="holdout",
        note="Crossover trial: each patient rated pain on both drugs, but the two drugs are "
        "compared with an unpaired Mann-Whitney test.",
        code=_CROSSOVER + dedent("""\

            a = long.loc[long.drug == "A", "vas_mm"]
            b = long.loc[long.drug == "B", "vas_mm"]
            res = stats.mannwhitneyu(a, b, alternative="two-sided")
            print(f"median VAS: drug A {a.median():.1f} mm, drug B {b.median():.1f} mm; "
                  f"Mann-Whitney p = {res.pvalue:.3f}")
        """),
    ),
    Case(
        id="pseudorep-crossover-mannwhitney-sound",
        family=None,
        twin="pseudorep-crossover-mannwhitney",
        split="holdout",
        note="Pivot to one row per patient and use the Wilcoxon signed-rank test on the "
        "within-patient differences.",
        code=_CROSSOVER + dedent("""\

            wide = long.pivot(index="patient", columns="drug", values="vas_mm")
            diff = wide["B"] - wide["A"]
            res = stats.wilcoxon(wide["A"], wide["B"])
            print(f"median within-patient difference (B - A): {diff.median():.1f} mm "
                  f"over {len(wide)} patients; Wilcoxon signed-rank p = {res.pvalue:.4f}")
        """),
    ),
    Case(
        id="pseudorep-ols-repeated-terms",
        family="pseudoreplication",
        twin="pseudorep-ols-repeated-terms-sound",
        split="holdout",
        note="OLS over 240 student-terms with ordinary standard errors; mentoring varies "
        "between the 60 students, whose four terms are strongly correlated.",
        code=_TERMS + dedent("""\

            fit = smf.ols("math_score ~ mentoring + term", data=scores).fit()
            print(fit.summary().tables[1])
            print(f"mentoring effect {fit.params['mentoring']:.2f} points, "
                  f"p = {fit.pvalues['mentoring']:.4f} (n = {int(fit.nobs)})")
        """),
    ),
    Case(
        id="pseudorep-ols-repeated-terms-sound",
        family=None,
        twin="pseudorep-ols-repeated-terms",
        split="holdout",
        note="Same OLS but with standard errors clustered by student (60 clusters).",
        code=_TERMS + dedent("""\

            fit = smf.ols("math_score ~ mentoring + term", data=scores).fit(
                cov_type="cluster", cov_kwds={"groups": scores["student"]}
            )
            print(fit.summary().tables[1])
            print(f"mentoring effect {fit.params['mentoring']:.2f} points, "
                  f"p = {fit.pvalues['mentoring']:.4f} (SEs clustered on 60 students)")
        """),
    ),
]
