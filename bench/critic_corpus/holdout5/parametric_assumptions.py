"""Parametric assumptions, holdout5 idioms: statsmodels' large-sample ztest on four replicate
plots per fungicide, and scipy's ttest_ind_from_stats fed from a groupby mean/std/count summary
of heavily skewed ticket resolution times in a small pilot (the summary hides the skew)."""

from textwrap import dedent

from bench.critic_corpus import Case

_PLOTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(378)
treated = rng.normal(6.2, 0.5, 4)      # grain yield, t/ha, four replicate plots
untreated = rng.normal(5.6, 0.5, 4)
trial = pd.DataFrame({
    "plot": [f"P{i:02d}" for i in range(1, 9)],
    "fungicide": ["FX-200"] * 4 + ["none"] * 4,
    "yield_t_ha": np.concatenate([treated, untreated]).round(2),
})
"""

_PILOT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1215)
bot = rng.lognormal(1.6, 1.3, 11)       # hours to resolution, bot-triaged tickets
manual = rng.lognormal(2.3, 1.3, 13)    # hours to resolution, agent-triaged tickets
pilot = pd.DataFrame({
    "ticket": [f"T-{i:04d}" for i in range(24)],
    "triage": ["bot"] * 11 + ["agent"] * 13,
    "hours_to_resolve": np.concatenate([bot, manual]).round(1),
})
"""

CASES: list[Case] = [
    Case(
        id="parametric-ztest-four-plots-fungicide",
        family="parametric_assumptions",
        twin="parametric-ztest-four-plots-fungicide-sound",
        split="holdout5",
        setup=_PLOTS,
        note="A large-sample z-test (normal reference distribution) on 4 vs 4 plots: with six "
        "degrees of freedom the z p-value of about 0.01 is far too small (exact p is about 0.11).",
        code=dedent("""\
            from statsmodels.stats.weightstats import ztest

            by_trt = trial.groupby("fungicide")["yield_t_ha"]
            print(by_trt.agg(["count", "mean", "std"]).round(2))
            z, p = ztest(by_trt.get_group("FX-200"), by_trt.get_group("none"))
            gain = by_trt.mean()["FX-200"] - by_trt.mean()["none"]
            print(f"yield gain with FX-200: {gain:.2f} t/ha (z = {z:.2f}, p = {p:.4f})")
        """),
    ),
    Case(
        id="parametric-ztest-four-plots-fungicide-sound",
        family=None,
        twin="parametric-ztest-four-plots-fungicide",
        split="holdout5",
        setup=_PLOTS,
        note="Exact permutation test over all 70 ways of assigning the eight plots, which needs "
        "no normal approximation for four plots per treatment.",
        code=dedent("""\
            from scipy.stats import permutation_test

            by_trt = trial.groupby("fungicide")["yield_t_ha"]
            print(by_trt.agg(["count", "mean", "std"]).round(2))
            res = permutation_test(
                (by_trt.get_group("FX-200").to_numpy(), by_trt.get_group("none").to_numpy()),
                lambda a, b: a.mean() - b.mean(), permutation_type="independent",
                n_resamples=np.inf)
            print(f"yield gain with FX-200: {res.statistic:.2f} t/ha "
                  f"(exact permutation p = {res.pvalue:.3f}, all 70 allocations)")
        """),
    ),
    Case(
        id="parametric-ttest-from-stats-skewed-pilot",
        family="parametric_assumptions",
        twin="parametric-ttest-from-stats-skewed-pilot-sound",
        split="holdout5",
        setup=_PILOT,
        note="Student t-test from summary stats on 11 vs 13 lognormal resolution times: one "
        "150-hour ticket dominates the bot mean and SD, so p = 0.95 hides a clear speed-up.",
        code=dedent("""\
            from scipy.stats import ttest_ind_from_stats

            summary = pilot.groupby("triage")["hours_to_resolve"].agg(["mean", "std", "count"])
            print(summary.round(1))
            bot, agent = summary.loc["bot"], summary.loc["agent"]
            res = ttest_ind_from_stats(bot["mean"], bot["std"], bot["count"],
                                       agent["mean"], agent["std"], agent["count"])
            print(f"bot vs agent triage: t = {res.statistic:.2f}, p = {res.pvalue:.3f} "
                  f"-> no difference in resolution time")
        """),
    ),
    Case(
        id="parametric-ttest-from-stats-skewed-pilot-sound",
        family=None,
        twin="parametric-ttest-from-stats-skewed-pilot",
        split="holdout5",
        setup=_PILOT,
        note="Mann-Whitney U on the raw, strongly skewed resolution times with medians and "
        "quartiles reported; no normality assumption for 11 and 13 tickets.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu

            hours = pilot.groupby("triage")["hours_to_resolve"]
            print(hours.describe()[["count", "25%", "50%", "75%", "max"]].round(1))
            res = mannwhitneyu(hours.get_group("bot"), hours.get_group("agent"))
            print(f"bot vs agent triage: Mann-Whitney U = {res.statistic:.0f}, "
                  f"p = {res.pvalue:.4f}")
        """),
    ),
]
