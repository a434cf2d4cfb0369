"""Multiple comparisons, held-out idioms: chi-square tests in a dict comprehension, and a
single vectorised ttest_1samp call returning 60 p-values."""

from textwrap import dedent

from bench.critic_corpus import Case

_SURVEY = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(25)
n = 640
questions = [f"Q{i:02d}" for i in range(1, 21)]
base_rates = rng.uniform(0.3, 0.8, len(questions))
survey = pd.DataFrame(
    rng.random((n, len(questions))) < base_rates, columns=questions
).replace({True: "agree", False: "disagree"})
survey.insert(0, "work_mode", rng.choice(["remote", "on-site"], n))
"""

_FUNDS = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(4)
days, n_funds = 252, 60
benchmark = rng.normal(0.0004, 0.010, days)
fund_ids = [f"FND{i:03d}" for i in range(n_funds)]
beta = rng.uniform(0.8, 1.2, n_funds)
daily = pd.DataFrame(
    benchmark[:, None] * beta + rng.normal(0, 0.006, (days, n_funds)), columns=fund_ids
)
excess = daily - np.outer(benchmark, beta)        # beta-adjusted excess returns
"""

CASES: list[Case] = [
    Case(
        id="multcomp-survey-chi2-dictcomp",
        family="multiple_comparisons",
        twin="multcomp-survey-chi2-dictcomp-sound",
        split="holdout",
        note="20 chi-square tests (one per survey item) in a dict comprehension, items with "
        "p < 0.05 reported as differing.",
        code=_SURVEY + dedent("""\

            pvals = {q: stats.chi2_contingency(pd.crosstab(survey.work_mode, survey[q])).pvalue
                     for q in questions}
            differing = {q: round(p, 4) for q, p in pvals.items() if p < 0.05}
            print(f"Items where remote and on-site staff differ: {differing}")
        """),
    ),
    Case(
        id="multcomp-survey-chi2-dictcomp-sound",
        family=None,
        twin="multcomp-survey-chi2-dictcomp",
        split="holdout",
        note="Same 20 chi-square tests against a Bonferroni threshold of 0.05 / 20.",
        code=_SURVEY + dedent("""\

            pvals = {q: stats.chi2_contingency(pd.crosstab(survey.work_mode, survey[q])).pvalue
                     for q in questions}
            alpha = 0.05 / len(pvals)                     # Bonferroni over the 20 items
            differing = {q: round(p, 4) for q, p in pvals.items() if p < alpha}
            print(f"Bonferroni threshold {alpha:.4f}; items that differ: {differing}")
            print(f"smallest p-value: {min(pvals.values()):.4f}")
        """),
    ),
    Case(
        id="multcomp-fund-alpha-vectorised",
        family="multiple_comparisons",
        twin="multcomp-fund-alpha-vectorised-sound",
        split="holdout",
        note="One vectorised ttest_1samp over 60 funds; funds with p < 0.05 are declared to "
        "have alpha, no correction.",
        code=_FUNDS + dedent("""\

            res = stats.ttest_1samp(excess, 0.0, axis=0, alternative="greater")
            table = pd.DataFrame({"ann_alpha": excess.mean() * 252, "t": res.statistic,
                                  "p": res.pvalue}, index=fund_ids)
            winners = table[table.p < 0.05].sort_values("p")
            print(f"{len(winners)} of {n_funds} funds show significant positive alpha:")
            print(winners.round(4))
        """),
    ),
    Case(
        id="multcomp-fund-alpha-vectorised-sound",
        family=None,
        twin="multcomp-fund-alpha-vectorised",
        split="holdout",
        note="Same 60 one-sided tests, with Benjamini-Hochberg q-values from "
        "scipy.stats.false_discovery_control.",
        code=_FUNDS + dedent("""\

            res = stats.ttest_1samp(excess, 0.0, axis=0, alternative="greater")
            table = pd.DataFrame({"ann_alpha": excess.mean() * 252, "t": res.statistic,
                                  "p": res.pvalue}, index=fund_ids)
            table["q"] = stats.false_discovery_control(table.p)
            winners = table[table.q < 0.05].sort_values("q")
            print(f"{len(winners)} of {n_funds} funds show positive alpha at FDR 5%")
            print(table.sort_values("p").head(5).round(4))
        """),
    ),
]
