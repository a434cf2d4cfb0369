"""parametric_assumptions: t-tests, ANOVA and Pearson on skewed or tiny samples.

Cells run in-process so the rule sees the kernel's SampleFacts (n, skew, Shapiro p); the
code-only path (samples in a comprehension, no kernel) is tested with `code_only()`."""

from __future__ import annotations

import textwrap

import pytest

from critics.findings import Finding
from critics.rules.parametric_assumptions import mean_interval_on_skewed as MEAN_CI
from critics.rules.parametric_assumptions import normal_model_on_skewed as NORMAL_TAIL
from critics.rules.parametric_assumptions import parametric_on_nonnormal as RULE
from tests.inprocess_evidence import run_and_gather
from tests.rule_helpers import check as check_evidence
from tests.rule_helpers import code_only, one, quiet, run, silent

RULE_ID = "parametric_assumptions.nonnormal_samples"

SETUP = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
"""


def check(code: str, setup: str = SETUP) -> list[Finding]:
    return run([RULE], code, setup)


def only(found: list[Finding]) -> Finding:
    """The rule's single finding (and nothing else)."""
    assert len(found) == 1, found
    return one(found, RULE_ID)


# -- flawed ----------------------------------------------------------------------------------

def test_ttest_on_lognormal_groups_of_15():
    f = only(check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.ttest_ind(a, b))
    """))
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"]["n_min"] == 15
    assert "skew" in f.explanation and "mannwhitneyu" in f.suggestion


def test_ttest_on_skewed_frame_columns():
    f = only(check("""
        df = pd.DataFrame({"group": np.repeat(["a", "b"], 20),
                           "income": rng.lognormal(10, 1, 40)})
        res = stats.ttest_ind(df.loc[df.group == "a", "income"],
                              df.loc[df.group == "b", "income"], equal_var=False)
        print(res.pvalue)
    """))
    assert f.severity == "high" and f.lines == [4]


def test_tiny_and_extremely_skewed_is_critical_and_blocking():
    f = only(check("""
        treated = np.array([1.2, 0.9, 1.1, 14.5]); control = np.array([0.8, 1.0, 0.7, 0.9])
        t, p = stats.ttest_ind(treated, control)
        print(f"p = {p:.3f}")
    """))
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_tiny_groups_without_visible_skew_are_a_medium_caution():
    # four values cannot show normality either way; without skew in them or a skewed
    # generator in the code, a high finding would rest on no evidence
    f = only(check("""
        vehicle = np.array([412.0, 388.0, 455.0, 430.0])
        compound = np.array([301.0, 365.0, 280.0, 342.0])
        print(stats.ttest_ind(compound, vehicle))
    """))
    assert f.severity == "medium" and not f.is_blocking(0.5)


def test_pearson_on_skewed_variables():
    f = only(check("""
        spend = rng.pareto(1.5, 25) * 100
        visits = spend * 0.1 + rng.exponential(5, 25)
        r, p = stats.pearsonr(spend, visits)
        print(r, p)
    """))
    assert f.severity == "high" and "spearmanr" in f.suggestion


def test_pearson_driven_by_outliers_even_with_large_n():
    f = only(check("""
        d = pd.DataFrame({"hum": rng.normal(45, 6, 200), "power": rng.normal(310, 25, 200)})
        d.loc[[17, 64, 65, 150], ["hum", "power"]] = [99.9, 4095.0]
        r, p = stats.pearsonr(d.hum, d.power)
        print(r, p)
    """))
    assert f.severity == "high"


def test_paired_ttest_on_skewed_samples_has_lower_confidence():
    f = only(check("""
        before = rng.lognormal(2, 1, 12); after = before * rng.lognormal(0.2, 0.8, 12)
        print(stats.ttest_rel(before, after))
    """))
    assert f.severity == "high" and f.confidence < 0.85


def test_one_sample_ttest_on_exponential_data():
    f = only(check("""
        waits = rng.exponential(4, 14)
        print(stats.ttest_1samp(waits, 3.0))
    """))
    assert f.severity == "high"


def test_statsmodels_ttest_ind():
    f = only(check("""
        from statsmodels.stats.weightstats import ttest_ind
        a = rng.exponential(2, 12); b = rng.exponential(3, 12)
        print(ttest_ind(a, b))
    """))
    assert f.severity == "high"


def test_anova_on_groups_built_in_a_comprehension_reads_the_kernel_groups():
    # the kernel evaluates `df.groupby("site")["conc"]` and measures each group
    f = only(check("""
        df = pd.DataFrame({"site": np.repeat(list("ABC"), 12), "conc": rng.lognormal(1, 1, 36)})
        print(stats.f_oneway(*[g.conc.values for _, g in df.groupby("site")]))
    """))
    assert f.severity == "high" and f.evidence["values"]["n_min"] == 12
    assert min(f.evidence["values"]["skew"]) > 1
    assert "df.groupby('site')['conc']['A']" in f.explanation


@pytest.mark.parametrize("unpack", [
    '*(s.to_numpy() for _, s in visits.groupby("clinic")["wait_min"])',
    '*visits.groupby("clinic").wait_min.apply(np.asarray)',
    '*[g["wait_min"].dropna() for _, g in visits.groupby("clinic")]',
])
def test_unnamed_groupby_unpacked_into_a_test_gets_per_group_facts(unpack):
    ev = run_and_gather(f"print(stats.f_oneway({unpack}))", GROUPED_WAITS)
    assert sorted(s.n for s in ev.samples) == [8, 8, 8, 8]
    assert all(s.line == 1 and s.call == "scipy.stats.f_oneway" for s in ev.samples)
    f = one(check_evidence([RULE], ev), "parametric_assumptions.nonnormal_samples")
    assert f.severity == "high" and f.evidence["values"]["n_min"] == 8


def test_unnamed_groupby_of_normal_waits_or_a_rank_test_stays_quiet():
    normal = GROUPED_WAITS.replace("rng.lognormal(2.5, 1.1, 32)", "rng.normal(20, 3, 32)")
    for setup, test in ((normal, "f_oneway"), (GROUPED_WAITS, "kruskal")):
        ev = run_and_gather(
            f'print(stats.{test}(*[g.wait_min for _, g in visits.groupby("clinic")]))', setup)
        assert len(ev.samples) == 4
        quiet(check_evidence([RULE], ev))


GROUPED_WAITS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(8)
visits = pd.DataFrame({"clinic": np.repeat(["north", "south", "east", "west"], 8),
                       "wait_min": rng.lognormal(2.5, 1.1, 32)})
"""


def test_anova_on_concatenated_lognormal_frames():
    f = only(check("""
        regions = {"east": 120, "west": 135, "north": 150}
        logs = pd.concat([pd.DataFrame({"region": r,
                                        "latency": rng.lognormal(np.log(m), 0.9, 40)})
                          for r, m in regions.items()], ignore_index=True)
        groups = [g["latency"].to_numpy() for _, g in logs.groupby("region")]
        f, p = stats.f_oneway(*groups)
        print(f, p)
    """))
    assert f.severity == "high"


def test_code_only_skewed_generator():
    f = only(code_only([RULE], """
        import numpy as np
        from scipy import stats
        rng = np.random.default_rng(0)
        a = rng.lognormal(3, 1.2, size=15); b = rng.lognormal(3.4, 1.2, size=15)
        print(stats.ttest_ind(a, b))
    """))
    assert f.severity == "high" and f.confidence < 0.8


def test_code_only_pingouin_ttest():
    f = only(code_only([RULE], """
        import numpy as np
        import pingouin as pg
        x = np.random.default_rng(1).exponential(2.0, size=20)
        y = np.random.default_rng(2).exponential(3.0, size=20)
        pg.ttest(x, y)
    """))
    assert f.severity == "high"


# -- sound twins -----------------------------------------------------------------------------

def test_sound_mann_whitney_on_skewed_data():
    silent(check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.mannwhitneyu(a, b))
    """))


def test_sound_log_transformed_in_the_call():
    silent(check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.ttest_ind(np.log(a), np.log(b)))
    """))


def test_sound_log_column_computed_before():
    quiet(check("""
        df = pd.DataFrame({"group": np.repeat(["a", "b"], 20),
                           "income": rng.lognormal(10, 1, 40)})
        df["log_income"] = np.log(df.income)
        res = stats.ttest_ind(df.loc[df.group == "a", "log_income"],
                              df.loc[df.group == "b", "log_income"])
        print(res.pvalue)
    """))


def test_sound_normal_data_of_adequate_size():
    silent(check("""
        x = rng.normal(100, 15, 40); y = rng.normal(108, 15, 40)
        print(stats.ttest_ind(x, y, equal_var=False))
    """))


def test_sound_large_groups_with_moderate_skew():
    silent(check("""
        x = rng.gamma(4, 10, 400); y = rng.gamma(4, 11, 400)
        print(stats.ttest_ind(x, y, equal_var=False))
    """))


def test_sound_conversion_rates_are_binary():
    silent(check("""
        x = rng.binomial(1, 0.03, 3000); y = rng.binomial(1, 0.04, 3000)
        print(stats.ttest_ind(x, y))
    """))


def test_sound_kruskal_in_a_comprehension():
    silent(check("""
        df = pd.DataFrame({"site": np.repeat(list("ABC"), 12), "conc": rng.lognormal(1, 1, 36)})
        print(stats.kruskal(*[g.conc.values for _, g in df.groupby("site")]))
    """))


def test_sound_spearman_on_skewed_data():
    silent(check("""
        spend = rng.pareto(1.5, 25) * 100
        visits = spend * 0.1 + rng.exponential(5, 25)
        print(stats.spearmanr(spend, visits))
    """))


def test_sound_permutation_method():
    silent(check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        res = stats.ttest_ind(a, b, method=stats.PermutationMethod(n_resamples=999, rng=0))
        print(res.pvalue)
    """))


def test_sound_exact_permutation_test_on_tiny_groups():
    silent(check("""
        vehicle = np.array([412.0, 388.0, 455.0, 430.0])
        compound = np.array([301.0, 365.0, 280.0, 342.0])
        res = stats.permutation_test((compound, vehicle), lambda a, b: np.mean(a) - np.mean(b),
                                     n_resamples=np.inf)
        print(res.pvalue)
    """))


def test_sound_code_only_large_generated_samples():
    silent(code_only([RULE], """
        import numpy as np
        from scipy import stats
        rng = np.random.default_rng(0)
        a = rng.lognormal(0, 0.5, size=5000); b = rng.lognormal(0.1, 0.5, size=5000)
        print(stats.ttest_ind(a, b))
    """))


def test_a_rank_test_alongside_lowers_the_finding():
    findings = check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.ttest_ind(a, b), stats.mannwhitneyu(a, b))
    """)
    quiet(findings)


@pytest.mark.parametrize("code", [
    "", "stats.ttest_ind(", "ttest_ind()", "stats.ttest_ind(*x)", "stats.f_oneway(*(g for g in))",
    "cm.ttest_ind()", "CompareMeans().ttest_ind()", "DescrStatsW().ttest_mean()",
    "def f(a):\n    return stats.ttest_ind(a)\nf()", "def f(*a):\n    stats.ttest_ind(*a)\nf(1, 2)",
    "stats.f_oneway(*d.values(), *[x for x in y for z in w])"])
def test_odd_code_never_raises(code):
    silent(code_only([RULE], code))


# -- tests the stat-test table does not list: statsmodels objects, helpers, unpacked groups ---

CLAIMS = """
import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.weightstats import CompareMeans, DescrStatsW
rng = np.random.default_rng(44)


def claims(n, p_claim, scale):
    \"\"\"Insurance payouts per policy: mostly nothing, now and then a large claim.\"\"\"
    return np.where(rng.random(n) < p_claim, rng.lognormal(np.log(scale), 1.3, n), 0.0)


north, south = claims(20, 0.25, 900), claims(20, 0.25, 1100)
bp_a, bp_b = rng.normal(128, 11, 30), rng.normal(133, 11, 30)
nights = rng.exponential(2.0, 16).round(1)        # hospital stay, skewed
plots = pd.DataFrame({"fertiliser": np.repeat(["none", "n", "np", "npk"], 10),
                      "yield_t": rng.lognormal(1.2, 0.9, 40)})
tiny = pd.DataFrame({"line": np.repeat(["a", "b", "c"], 6),
                     "od": rng.normal(0.8, 0.05, 18)})
"""


def claims_check(code: str) -> list[Finding]:
    return check(code, CLAIMS)


def test_compare_means_from_data_on_zero_inflated_payouts():
    f = only(claims_check("""
        cm = CompareMeans.from_data(north, south)
        t, p, dof = cm.ttest_ind(usevar="unequal")
        print(f"north - south: t = {t:.2f}, p = {p:.3f}")
    """))
    assert f.severity == "high" and f.confidence >= 0.75
    assert "CompareMeans" in f.explanation and f.evidence["values"]["n_min"] == 20


def test_descrstatsw_one_sample_ttest_on_skewed_stays():
    f = only(claims_check("""
        stay = DescrStatsW(nights)
        print(stay.ttest_mean(2.5), stay.tconfint_mean())
    """))
    assert f.severity == "high" and "mannwhitneyu" not in f.suggestion


def test_ttest_wrapped_in_a_helper_is_judged_on_the_call_arguments():
    f = only(claims_check("""
        def compare(x, y, label):
            res = stats.ttest_ind(x, y, equal_var=False)
            print(f"{label}: t = {res.statistic:.2f}, p = {res.pvalue:.3f}")
            return res

        compare(north, south, "payout per policy")
    """))
    assert f.severity == "high" and f.lines == [7]
    assert "north" in f.explanation


def test_anova_unpacking_a_dict_of_skewed_groups():
    f = only(claims_check("""
        by_fert = {k: g.to_numpy() for k, g in plots.groupby("fertiliser")["yield_t"]}
        print(stats.f_oneway(*by_fert.values()))
    """))
    assert f.severity == "high" and f.evidence["values"]["n_min"] == 10


def test_anova_on_a_generator_over_a_named_groupby():
    f = only(claims_check("""
        per_fert = plots.groupby("fertiliser").yield_t
        F, p = stats.f_oneway(*(g.values for _, g in per_fert))
        print(F, p)
    """))
    assert f.severity == "high" and "per_fert[" in f.explanation


def test_test_in_a_function_reading_notebook_names_uses_the_kernel_samples():
    f = only(claims_check("""
        def report():
            res = stats.ttest_ind(north, south)
            print(f"t = {res.statistic:.2f}, p = {res.pvalue:.3f}")

        report()
    """))
    assert f.severity == "high" and f.lines == [3]


def test_sound_weightstats_on_normal_blood_pressure():
    silent(claims_check("""
        cm = CompareMeans(DescrStatsW(bp_a), DescrStatsW(bp_b))
        print(cm.ttest_ind(usevar="pooled"), cm.tconfint_diff(usevar="pooled"))
    """))


def test_sound_helper_tests_log_payouts_or_ranks():
    silent(claims_check("""
        def compare(x, y):
            return stats.ttest_ind(np.log1p(x), np.log1p(y))

        def robust(x, y):
            return stats.mannwhitneyu(x, y)

        print(compare(north, south), robust(north, south))
    """))


def test_sound_anova_on_log_groups_or_a_log_generator():
    silent(claims_check("""
        per_fert = plots.groupby("fertiliser").yield_t
        print(stats.f_oneway(*(np.log(g) for _, g in per_fert)))
        logged = plots.assign(log_yield=np.log(plots.yield_t)).groupby("fertiliser").log_yield
        print(stats.f_oneway(*(g.to_numpy() for _, g in logged)))
    """))


def test_small_normal_groups_are_at_most_a_medium_concern():
    quiet(claims_check("""
        per_line = tiny.groupby("line")["od"]
        print(stats.f_oneway(*(g for _, g in per_line)))
    """))


# -- OLS / ANOVA on counts --------------------------------------------------------------------

from critics.rules.parametric_assumptions import ols_on_counts as COUNTS_RULE  # noqa: E402

COUNTS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(21)
clinics = pd.DataFrame({"arm": np.repeat(["control", "reminder", "call"], 40)})
clinics["n_visits"] = rng.poisson(np.repeat([0.8, 1.2, 2.0], 40))
clinics["dose_mg"] = rng.normal(50, 5, 120)
"""


def count_findings(code: str) -> list[Finding]:
    return run([COUNTS_RULE], code, COUNTS)


def test_array_ols_on_poisson_counts_with_pvalues_is_medium():
    found = count_findings("""
        X = sm.add_constant(pd.get_dummies(clinics.arm, drop_first=True).astype(float))
        fit = sm.OLS(clinics["n_visits"], X).fit()
        print(fit.pvalues.round(4))
    """)
    assert [f.severity for f in found] == ["medium"]


def test_formula_ols_then_anova_on_counts_is_flagged():
    found = count_findings("""
        m = smf.ols("n_visits ~ C(arm)", clinics).fit()
        print(sm.stats.anova_lm(m))
    """)
    assert len(found) == 1


def test_count_models_and_continuous_outcomes_are_quiet():
    for code in (
        """
        m = smf.poisson("n_visits ~ C(arm)", clinics).fit(disp=0)
        print(m.summary())
        """,
        """
        m = smf.ols("np.log1p(n_visits) ~ C(arm)", clinics).fit()
        print(m.summary())
        """,
        """
        m = smf.ols("dose_mg ~ C(arm)", clinics).fit()
        print(sm.stats.anova_lm(m))
        """,
        """
        m = smf.ols("n_visits ~ C(arm)", clinics).fit()
        print(m.predict(clinics.head()))      # prediction only, no inference
        """,
    ):
        assert not count_findings(code), code


# -- Bartlett's variance test on non-normal samples -----------------------------------------------

from critics.rules.parametric_assumptions import bartlett_nonnormal as BARTLETT  # noqa: E402
from critics.rules.parametric_assumptions import ztest_small_counts as ZTEST  # noqa: E402

BARTLETT_ID = "parametric_assumptions.bartlett_nonnormal"
ZTEST_ID = "parametric_assumptions.ztest_small_counts"


def test_bartlett_on_skewed_named_samples_is_flagged() -> None:
    # server latencies per data centre: right-skewed, 60 requests each
    code = """
lat_a = rng.lognormal(3.0, 0.9, 60)
lat_b = rng.lognormal(3.0, 0.9, 60)
lat_c = rng.lognormal(3.0, 0.9, 60)
print(stats.bartlett(lat_a, lat_b, lat_c))
"""
    f = one(run([BARTLETT], code, SETUP), BARTLETT_ID)
    assert f.severity == "high" and f.confidence >= 0.8


def test_bartlett_on_laplace_groups_from_dict_code_only() -> None:
    code = """
import numpy as np
from scipy.stats import bartlett
rng = np.random.default_rng(1)
yields = {plot: rng.laplace(50, 6, size=30) for plot in "ABCD"}
T, p = bartlett(*yields.values())
print(p)
"""
    f = one(code_only([BARTLETT], code), BARTLETT_ID)
    assert f.severity == "high"


def test_bartlett_on_normal_samples_and_levene_on_skewed_stay_quiet() -> None:
    sound = """
w1, w2, w3 = (rng.normal(70, 8, 40) for _ in range(3))
print(stats.bartlett(w1, w2, w3))
"""
    silent(run([BARTLETT], sound, SETUP))
    robust = """
lat_a = rng.lognormal(3.0, 0.9, 60)
lat_b = rng.lognormal(3.0, 0.9, 60)
print(stats.levene(lat_a, lat_b, center="median"))
"""
    silent(run([BARTLETT], robust, SETUP))


# -- normal-approximation proportion tests on tiny counts -----------------------------------------

def test_proportions_ztest_on_few_events_is_flagged() -> None:
    # adverse events in a small pilot: 2 of 25 vs 7 of 30
    code = """
from statsmodels.stats.proportion import proportions_ztest
events = np.array([2, 7])
patients = np.array([25, 30])
z, p = proportions_ztest(events, patients)
print(f"z = {z:.2f}, p = {p:.3f}")
"""
    f = one(run([ZTEST], code, SETUP), ZTEST_ID)
    assert f.severity == "high"


def test_one_sample_proportions_ztest_with_rare_event_is_flagged() -> None:
    code = """
from statsmodels.stats.proportion import proportions_ztest
stat, pval = proportions_ztest(count=1, nobs=40, value=0.05)
print(pval)
"""
    one(code_only([ZTEST], code), ZTEST_ID)


def test_proportions_ztest_with_large_counts_stays_quiet() -> None:
    code = """
from statsmodels.stats.proportion import proportions_ztest
conversions = pd.Series([412, 468], index=["control", "variant"])
visitors = pd.Series([5120, 5088], index=["control", "variant"])
z, p = proportions_ztest(conversions, visitors)
print(p)
"""
    silent(run([ZTEST], code, SETUP))
    silent(code_only([ZTEST], "from statsmodels.stats.proportion import proportions_ztest\n"
                              "proportions_ztest(12, 20, value=0.5)\n"))


# -- pooled-variance t-test / ANOVA with unequal sizes and spreads (holdout4 round) ------------

from critics.rules.parametric_assumptions import (  # noqa: E402
    pooled_variance_unequal_spread as POOLED,
)
from critics.rules.parametric_assumptions import (  # noqa: E402
    wald_interval_few_events as WALD,
)

POOLED_ID = "parametric_assumptions.pooled_variance_unequal_spread"
WALD_ID = "parametric_assumptions.wald_interval_few_events"


def test_statsmodels_pooled_ttest_small_noisy_vs_large_tight_is_flagged() -> None:
    # a 10-patient pilot clinic with scattered readings against a 180-patient reference
    code = """
from statsmodels.stats.weightstats import ttest_ind
pilot = rng.normal(141, 22, 10)
reference = rng.normal(136, 4, 180)
tstat, pvalue, dof = ttest_ind(pilot, reference)
print(f"t = {tstat:.2f}, p = {pvalue:.4f}")
"""
    f = one(run([POOLED], code, SETUP), POOLED_ID)
    assert f.severity == "critical" and f.confidence >= 0.8
    assert f.evidence["values"]["se_ratio"] >= 2


def test_anova_with_one_small_scattered_group_is_flagged() -> None:
    code = """
line_a = rng.normal(50, 2, 80)
line_b = rng.normal(51, 2, 80)
line_c = rng.normal(53, 11, 7)
F, p = stats.f_oneway(line_a, line_b, line_c)
print(F, p)
"""
    f = one(run([POOLED], code, SETUP), POOLED_ID)
    assert f.severity in ("high", "critical")


def test_ttest_from_summary_statistics_with_unequal_spread_is_flagged() -> None:
    code = """
res = stats.ttest_ind_from_stats(mean1=12.4, std1=6.5, nobs1=8,
                                 mean2=9.1, std2=1.2, nobs2=120)
print(res.pvalue)
"""
    f = one(code_only([POOLED], code), POOLED_ID)
    assert f.severity in ("high", "critical")


def test_welch_equal_sizes_and_similar_spreads_stay_quiet() -> None:
    welch = """
small = rng.normal(420, 30, 9)
big = rng.normal(412, 4, 160)
print(stats.ttest_ind(small, big, equal_var=False))
"""
    silent(run([POOLED], welch, SETUP))
    equal_n = """
a = rng.normal(10, 1, 60)
b = rng.normal(11, 5, 60)
print(stats.ttest_ind(a, b))
"""
    silent(run([POOLED], equal_n, SETUP))
    similar_sd = """
a = rng.normal(10, 3.0, 15)
b = rng.normal(11, 3.2, 300)
print(stats.ttest_ind(a, b))
"""
    quiet(run([POOLED], similar_sd, SETUP))
    unequal = """
from statsmodels.stats.weightstats import ttest_ind
pilot = rng.normal(141, 22, 10)
reference = rng.normal(136, 4, 180)
print(ttest_ind(pilot, reference, usevar="unequal"))
"""
    silent(run([POOLED], unequal, SETUP))


# -- Wald intervals for proportions with few events ---------------------------------------------

def test_proportion_confint_default_method_with_few_events_is_flagged() -> None:
    code = """
from statsmodels.stats.proportion import proportion_confint
wards = pd.DataFrame({"ward": list("ABCDE"), "falls": [2, 0, 14, 31, 5],
                      "bed_days": [180, 95, 1200, 2600, 410]})
lo, hi = proportion_confint(wards.falls, wards.bed_days)
wards.assign(lo=lo, hi=hi)
"""
    f = one(run([WALD], code, SETUP), WALD_ID)
    assert f.severity == "high" and f.evidence["values"]["min_events"] == 0


def test_hand_rolled_wald_interval_on_numpy_counts_is_flagged() -> None:
    code = """
k = np.array([1, 3, 22, 48])
n = np.array([40, 35, 300, 510])
p_hat = k / n
se = np.sqrt(p_hat * (1 - p_hat) / n)
lower, upper = p_hat - 1.96 * se, p_hat + 1.96 * se
print(np.round(lower, 4), np.round(upper, 4))
"""
    f = one(run([WALD], code, SETUP), WALD_ID)
    assert f.severity == "high" and "lower" in f.explanation


def test_wald_interval_in_a_printed_pandas_table_is_flagged() -> None:
    code = """
crashes = pd.DataFrame({"model": ["X1", "X2", "X3"], "failures": [2, 1, 40],
                        "units": [60, 25, 900]})
crashes["rate"] = crashes.failures / crashes.units
crashes["moe"] = 1.96 * (crashes.rate * (1 - crashes.rate) / crashes.units) ** 0.5
crashes["lo"] = crashes.rate - crashes.moe
crashes["hi"] = crashes.rate + crashes.moe
print(crashes.round(4))
"""
    f = one(run([WALD], code, SETUP), WALD_ID)
    assert f.severity == "high"


def test_wilson_large_counts_and_difference_intervals_stay_quiet() -> None:
    wilson = """
from statsmodels.stats.proportion import proportion_confint
lo, hi = proportion_confint([2, 0, 14], [180, 95, 1200], method="wilson")
print(lo, hi)
"""
    silent(run([WALD], wilson, SETUP))
    large = """
k = np.array([120, 95, 230])
n = np.array([1000, 900, 2100])
p = k / n
half = 1.96 * np.sqrt(p * (1 - p) / n)
low, high = p - half, p + half
print(low, high)
"""
    silent(run([WALD], large, SETUP))
    difference = """
p1, n1, p2, n2 = 0.12, 200, 0.15, 210
se = np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
lo, hi = (p1 - p2) - 1.96 * se, (p1 - p2) + 1.96 * se
print(lo, hi)
"""
    silent(run([WALD], difference, SETUP))


# -- chi-square on sparse tables (holdout6 round) -----------------------------------------------

from critics.rules.parametric_assumptions import chi2_sparse_table as CHI2  # noqa: E402
from critics.rules.parametric_assumptions import single_point_leverage as LEVERAGE  # noqa: E402

CHI2_ID = "parametric_assumptions.chi2_sparse_table"
LEVERAGE_ID = "parametric_assumptions.single_point_leverage"

PHARMACY = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(21)
sites = np.repeat(["north", "south", "east", "west", "pilot"], [60, 55, 48, 52, 5])
rx = pd.DataFrame({"site": sites, "adverse": (rng.random(len(sites)) < 0.05).astype(int)})
big = np.repeat(["north", "south", "east", "west", "pilot"], 400)
rx_big = pd.DataFrame({"site": big, "adverse": (rng.random(len(big)) < 0.3).astype(int)})
"""


def test_crosstab_chi2_with_rare_outcome_unpacked_is_flagged() -> None:
    code = """
tab = pd.crosstab(rx.site, rx.adverse)
chi2, p, dof, expected = stats.chi2_contingency(tab)
print(f"chi2 = {chi2:.1f}, p = {p:.3f}")
"""
    f = one(run([CHI2], code, PHARMACY), CHI2_ID)
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"]["expected_min"] < 1
    sound = code.replace("rx.site, rx.adverse", "rx_big.site, rx_big.adverse")
    silent(run([CHI2], sound, PHARMACY))


def test_numpy_observed_table_result_object_is_flagged() -> None:
    # nesting success of a rare owl across four habitat types
    code = """
observed = np.array([[14, 1], [22, 0], [9, 2], [3, 1]])
res = stats.chi2_contingency(observed)
print(res.pvalue)
"""
    f = one(run([CHI2], code, SETUP), CHI2_ID)
    assert f.severity == "high"
    sound = code.replace("[[14, 1], [22, 0], [9, 2], [3, 1]]",
                         "[[140, 31], [122, 40], [95, 22], [83, 19]]")
    silent(run([CHI2], sound, SETUP))


def test_inline_crosstab_with_named_result_reads_its_expected_counts() -> None:
    code = """
out = stats.chi2_contingency(pd.crosstab(rx["site"], rx["adverse"]), correction=False)
print(out.statistic, out.pvalue)
"""
    one(run([CHI2], code, PHARMACY), CHI2_ID)
    silent(run([CHI2], code.replace('rx["site"], rx["adverse"]',
                                    'rx_big["site"], rx_big["adverse"]'), PHARMACY))


def test_goodness_of_fit_on_a_handful_of_counts_is_flagged() -> None:
    # machine breakdowns per weekday over one month
    code = """
breakdowns = np.array([2, 0, 1, 3, 1, 0, 2])
stat, p = stats.chisquare(breakdowns)
print(f"weekday effect: p = {p:.3f}")
"""
    f = one(run([CHI2], code, SETUP), CHI2_ID)
    assert f.evidence["values"]["cells_below_5"] == 7
    sound = code.replace("[2, 0, 1, 3, 1, 0, 2]", "[52, 40, 61, 47, 55, 38, 49]")
    silent(run([CHI2], sound, SETUP))


def test_proportions_chisquare_with_few_events_is_flagged() -> None:
    code = """
from statsmodels.stats.proportion import proportions_chisquare
chi2, p, table = proportions_chisquare(np.array([1, 4]), np.array([38, 41]))
print(p)
"""
    one(run([CHI2], code, SETUP), CHI2_ID)
    silent(run([CHI2], code.replace("[1, 4]", "[61, 84]").replace("[38, 41]", "[380, 410]"),
               SETUP))


def test_expected_counts_checked_or_exact_test_alongside_stay_quiet() -> None:
    checked = """
tab = pd.crosstab(rx.site, rx.adverse)
exp = stats.chi2_contingency(tab).expected_freq
print(exp.min())
res = stats.fisher_exact(tab.to_numpy(), method=stats.MonteCarloMethod(
    n_resamples=999, rng=np.random.default_rng(1)))
print(res.pvalue)
"""
    silent(run([CHI2], checked, PHARMACY))
    both = """
tab = pd.crosstab(rx.site, rx.adverse)
chi2, p, dof, expected = stats.chi2_contingency(tab)
exact = stats.fisher_exact(tab.to_numpy(), method=stats.MonteCarloMethod(
    n_resamples=999, rng=np.random.default_rng(1)))
print(p, exact.pvalue)
"""
    quiet(run([CHI2], both, PHARMACY))


# -- a correlation / regression carried by one high-leverage point ----------------------------

TOWNS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(8)
towns = pd.DataFrame({"population": rng.lognormal(9.5, 0.4, 11).round(),
                      "libraries": rng.poisson(3, 11)})
towns.loc[towns.population.idxmax(), ["population", "libraries"]] = [2_400_000, 60]
even = pd.DataFrame({"population": np.linspace(5_000, 60_000, 11)})
even["libraries"] = (even.population / 10_000 + rng.normal(0, 0.6, 11)).round(1)
"""


def test_linregress_on_frame_columns_with_one_giant_is_flagged() -> None:
    code = """
fit = stats.linregress(towns.population / 1e3, towns.libraries)
print(f"slope {fit.slope:.3f}, p = {fit.pvalue:.2g}")
"""
    f = one(run([LEVERAGE], code, TOWNS), LEVERAGE_ID)
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"]["cooks_max"] >= 1
    assert f.evidence["values"]["p_without"] >= 0.05
    silent(run([LEVERAGE], code.replace("towns", "even"), TOWNS))


def test_pearsonr_on_numpy_arrays_with_one_outlying_sample_is_flagged() -> None:
    # expression of two genes in 9 tissue samples, one a tumour with huge expression
    code = """
gene_a = np.array([1.1, 0.8, 1.3, 0.9, 1.2, 1.0, 0.7, 1.4, 25.0])
gene_b = np.array([3.2, 2.9, 2.7, 3.5, 3.0, 2.6, 3.4, 2.8, 40.0])
r, p = stats.pearsonr(gene_a, gene_b)
print(f"r = {r:.2f}, p = {p:.3g}")
"""
    one(run([LEVERAGE], code, SETUP), LEVERAGE_ID)
    sound = code.replace("25.0", "1.05").replace("40.0", "3.1")
    silent(run([LEVERAGE], sound, SETUP))


def test_keyword_linregress_in_a_loop_over_outcomes() -> None:
    code = """
for outcome in ["libraries"]:
    res = stats.linregress(x=towns["population"], y=towns[outcome])
    print(outcome, res.rvalue, res.pvalue)
"""
    one(run([LEVERAGE], code, TOWNS), LEVERAGE_ID)
    silent(run([LEVERAGE], code.replace("towns", "even"), TOWNS))


def test_genuine_trend_with_a_large_point_and_rank_checks_stay_quiet() -> None:
    # a real trend that holds without the largest point: not carried by it
    trend = """
x = np.arange(1.0, 13.0)
y = 2 * x + rng.normal(0, 1, 12)
x[-1], y[-1] = 30.0, 61.0
print(stats.linregress(x, y).pvalue)
"""
    silent(run([LEVERAGE], trend, SETUP))
    alongside = """
fit = stats.linregress(towns.population, towns.libraries)
rho = stats.spearmanr(towns.population, towns.libraries)
print(fit.pvalue, rho.pvalue)
"""
    quiet(run([LEVERAGE], alongside, TOWNS))
    spearman_only = "print(stats.spearmanr(towns.population, towns.libraries))"
    silent(run([LEVERAGE], spearman_only, TOWNS))


# -- normal-theory tails, capability indices and reference ranges on skewed data ------------

TAILS = """
import numpy as np, pandas as pd
from scipy import stats
from scipy.stats import norm
rng = np.random.default_rng(21)
los_days = rng.lognormal(1.2, 0.7, 120).round(1)            # hospital length of stay
log_los = np.log(los_days)
heights = rng.normal(170, 8, 150)
alt = pd.Series(rng.gamma(1.8, 14.0, 180), name="alt_u_l")  # liver enzyme, right-skewed
rt = rng.normal(0.45, 0.05, 160) + rng.exponential(0.25, 160) # reaction times (ex-Gaussian)
thickness = 1.5 + rng.exponential(0.08, 140)                 # coating thickness, mm
even = rng.normal(1.6, 0.05, 140)
"""
NT = "parametric_assumptions.normal_model_on_skewed"


def tails(code: str) -> list[Finding]:
    return run([NORMAL_TAIL], code, TAILS)


def test_normal_percentile_of_a_skewed_length_of_stay() -> None:
    f = one(tails("""
        p95 = norm.ppf(0.95, loc=los_days.mean(), scale=los_days.std(ddof=1))
        print(f"95th percentile stay: {p95:.1f} days")
    """), NT)
    assert f.severity == "high" and "los_days" in f.explanation


def test_reference_range_mean_plus_minus_196_sd_on_a_series() -> None:
    f = one(tails("""
        mu, sd = alt.mean(), alt.std()
        lo, hi = mu - 1.96 * sd, mu + 1.96 * sd
        print(f"ALT reference range: {lo:.0f} to {hi:.0f} U/L")
    """), NT)
    assert f.severity == "high" and "reference range" in f.explanation


def test_norm_fit_then_standardised_tail_and_frozen_distribution() -> None:
    f = one(tails("""
        mu, sd = norm.fit(rt)
        z = (1.0 - mu) / sd
        print("share slower than 1 s:", 1 - norm.cdf(z))
        print("frozen:", stats.norm(mu, sd).sf(1.0))
    """), NT)
    assert f.severity in ("high", "medium") and "rt" in f.explanation


def test_cpk_in_a_helper_function() -> None:
    f = one(tails("""
        def cpk(x, lsl, usl):
            m, s = x.mean(), x.std(ddof=1)
            return min(usl - m, m - lsl) / (3 * s)
        print(f"Cpk = {cpk(thickness, 1.3, 1.9):.2f}")
    """), NT)
    assert "capability" in f.explanation and "thickness" in f.explanation


def test_sound_normal_models_stay_quiet() -> None:
    # on the log scale, back-transformed
    silent(tails("""
        p95 = np.exp(norm.ppf(0.95, loc=log_los.mean(), scale=log_los.std(ddof=1)))
        print(f"95th percentile stay: {p95:.1f} days")
    """))
    # data that are normal
    silent(tails("""
        mu, sd = heights.mean(), heights.std()
        print(mu - 1.96 * sd, mu + 1.96 * sd, norm.sf(190, mu, sd))
        def cpk(x, lsl, usl):
            m, s = x.mean(), x.std(ddof=1)
            return min(usl - m, m - lsl) / (3 * s)
        print(f"Cpk = {cpk(even, 1.3, 1.9):.2f}")
    """))
    # a confidence interval of the mean (SE, not SD) and an empirical percentile
    silent(tails("""
        mu, se = alt.mean(), alt.std() / np.sqrt(len(alt))
        print(mu - 1.96 * se, mu + 1.96 * se)
        print("p95:", np.percentile(los_days, 95))
    """))


# -- t / z confidence interval of a mean on a small skewed sample --------------------------------

MEAN_CI_ID = "parametric_assumptions.mean_interval_on_skewed"
CI_SETUP = SETUP + """
import statsmodels.api as sm
from statsmodels.stats.weightstats import zconfint
claims = pd.DataFrame({"cost": np.round(rng.lognormal(6, 1.3, 18), 2),
                       "region": ["n", "s"] * 9})
wait_min = np.round(rng.lognormal(2.5, 1.1, 12), 1)
temps = np.round(rng.normal(36.8, 0.4, 18), 2)
big = pd.DataFrame({"cost": rng.lognormal(6, 1.3, 400)})
"""


def ci(code: str) -> list[Finding]:
    return run([MEAN_CI], code, CI_SETUP)


def test_t_interval_with_sem_of_a_frame_column() -> None:
    f = one(ci("""
        m = claims["cost"].mean()
        lo, hi = stats.t.interval(0.95, len(claims) - 1, loc=m, scale=stats.sem(claims["cost"]))
        print(f"mean claim {m:.0f} (95% CI {lo:.0f}-{hi:.0f})")
    """), MEAN_CI_ID)
    assert f.severity == "high" and "n=18" in f.explanation


def test_t_interval_on_log_scale_is_quiet() -> None:
    silent(ci("""
        logc = np.log(claims["cost"])
        lo, hi = stats.t.interval(0.95, len(logc) - 1, loc=logc.mean(), scale=stats.sem(logc))
        print(f"geometric mean 95% CI {np.exp(lo):.0f}-{np.exp(hi):.0f}")
    """))


def test_mean_plus_minus_t_times_sem_by_hand_numpy() -> None:
    f = one(ci("""
        n = len(wait_min)
        mu = wait_min.mean()
        se = wait_min.std(ddof=1) / np.sqrt(n)
        tq = stats.t.ppf(0.975, n - 1)
        print(f"mean wait {mu:.1f} min, 95% CI {mu - tq * se:.1f} to {mu + tq * se:.1f}")
    """), MEAN_CI_ID)
    assert f.severity in ("high", "medium")


def test_by_hand_interval_on_a_symmetric_sample_is_quiet() -> None:
    silent(ci("""
        n = len(temps)
        mu = temps.mean()
        se = temps.std(ddof=1) / np.sqrt(n)
        print(f"mean {mu:.2f}, 95% CI {mu - 2.11 * se:.2f} to {mu + 1.96 * se:.2f}")
    """))


def test_bootstrap_interval_is_quiet() -> None:
    silent(ci("""
        res = stats.bootstrap((wait_min,), np.mean, method="BCa", random_state=0)
        mu = wait_min.mean()
        se = stats.sem(wait_min)
        print(mu, res.confidence_interval, mu - 1.96 * se)
    """))


def test_statsmodels_zconfint_and_descrstats_in_a_helper() -> None:
    found = ci("""
        def mean_ci(x):
            return sm.stats.DescrStatsW(x).zconfint_mean(alpha=0.05)

        print("z interval", zconfint(claims.cost))
        print("per region", {g: mean_ci(d.cost.to_numpy()) for g, d in claims.groupby("region")})
    """)
    f = one(found, MEAN_CI_ID)
    assert "zconfint" in f.explanation


def test_zconfint_on_a_large_sample_is_quiet() -> None:
    silent(ci("""
        print("z interval", zconfint(big["cost"]))
    """))


# -- a normal band whose z comes from norm.ppf / a name, and its impossible lower limit --------

BANDS = """
import numpy as np
import pandas as pd
from scipy import stats
from scipy.stats import norm
rng = np.random.default_rng(77)
# weekly readmissions per ward: most weeks none, a few weeks a burst
readmits = pd.Series(np.where(rng.random(104) < 0.35, rng.poisson(3, 104) + 1, 0),
                     name="readmissions")
waits = rng.exponential(12.0, 200).round(1)             # queue waits, minutes
temps = pd.Series(rng.normal(36.8, 0.3, 150))            # body temperature, symmetric
fill = rng.normal(500, 4, 180)                           # bottle fill, ml, symmetric
"""


def bands(code: str) -> list[Finding]:
    return run([NORMAL_TAIL], code, BANDS)


def test_band_with_z_from_norm_ppf_on_zero_inflated_counts_reports_negative_limit() -> None:
    f = one(bands("""
        z = stats.norm.ppf(0.975)
        m, s = readmits.mean(), readmits.std()
        low, high = m - z * s, m + z * s
        print(f"usual weekly readmissions: {low:.1f} to {high:.1f}")
    """), NT)
    assert f.severity == "high" and f.confidence >= 0.85
    assert "below zero" in f.explanation and "readmits" in f.explanation


def test_empirical_percentile_band_on_the_same_counts_is_silent() -> None:
    silent(bands("""
        low, high = np.percentile(readmits, [2.5, 97.5])
        print(f"usual weekly readmissions: {low:.1f} to {high:.1f}")
    """))


def test_band_from_a_helper_with_a_module_level_isf_z_on_counts() -> None:
    f = one(bands("""
        Z95 = norm.isf(0.025)

        def normal_band(x):
            centre, spread = x.mean(), x.std(ddof=1)
            return centre - Z95 * spread, centre + Z95 * spread

        print(normal_band(readmits))
    """), NT)
    assert f.severity == "high"


def test_same_helper_band_on_symmetric_temperatures_is_silent() -> None:
    silent(bands("""
        Z95 = norm.isf(0.025)

        def normal_band(x):
            centre, spread = x.mean(), x.std(ddof=1)
            return centre - Z95 * spread, centre + Z95 * spread

        print(normal_band(temps))
    """))


def test_numpy_band_with_z_set_in_a_loop_on_exponential_waits() -> None:
    f = one(bands("""
        for level in (0.95, 0.99):
            z = norm.ppf(1 - (1 - level) / 2)
            lower = np.mean(waits) - z * np.std(waits, ddof=1)
            print(level, lower, np.mean(waits) + z * np.std(waits, ddof=1))
    """), NT)
    assert f.severity == "high" and "waits" in f.explanation


def test_numpy_loop_band_on_symmetric_fill_volumes_is_silent() -> None:
    silent(bands("""
        for level in (0.95, 0.99):
            z = norm.ppf(1 - (1 - level) / 2)
            lower = np.mean(fill) - z * np.std(fill, ddof=1)
            print(level, lower, np.mean(fill) + z * np.std(fill, ddof=1))
    """))


# -- Bland-Altman limits of agreement on paired differences ------------------------------------

AGREE = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(13)
true_bp = rng.gamma(3.0, 10.0, 160) + 95                # systolic pressure, right-skewed
# the wrist cuff reads high pressures low: differences shrink with the level (skew ~ -0.9)
cuff = pd.DataFrame({"wrist": 0.7 * true_bp + 40 + rng.normal(0, 2.0, 160),
                     "arm": true_bp + rng.normal(0, 2.0, 160)})
# a second pair of devices whose differences are clearly skewed (occasional large misreads)
glucose_lab = rng.normal(6.0, 1.2, 160)
glucose_meter = glucose_lab + rng.exponential(0.4, 160) ** 2
"""


def agree(code: str) -> list[Finding]:
    return run([NORMAL_TAIL], code, AGREE)


def test_limits_of_agreement_on_moderately_skewed_differences_are_not_loud() -> None:
    found = agree("""
        diff = cuff["wrist"] - cuff["arm"]
        bias, sd = diff.mean(), diff.std(ddof=1)
        print(f"bias {bias:.1f}, limits {bias - 1.96 * sd:.1f} to {bias + 1.96 * sd:.1f}")
    """)
    quiet(found)
    if found:
        assert "limits of agreement" in one(found, NT).explanation


def test_limits_of_agreement_from_np_subtract_on_arrays_are_not_loud() -> None:
    quiet(agree("""
        d = np.subtract(cuff.wrist.to_numpy(), cuff.arm.to_numpy())
        loa = (np.mean(d) - 1.96 * np.std(d, ddof=1), np.mean(d) + 1.96 * np.std(d, ddof=1))
        print(loa)
    """))


def test_limits_of_agreement_on_clearly_skewed_differences_stay_high() -> None:
    f = one(agree("""
        d = glucose_meter - glucose_lab
        bias, sd = d.mean(), d.std(ddof=1)
        print(f"limits {bias - 1.96 * sd:.2f} to {bias + 1.96 * sd:.2f}")
    """), NT)
    assert f.severity == "high"


# -- one-way ANOVA / Tukey HSD on a long-format frame: judged from the pooled response ------

GROUPED_SETUP = SETUP + """
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.multicomp import pairwise_tukeyhsd


def long_frame(sizes, centres, draw, name="y", factor="g"):
    rows = []
    for (level, k), c in zip(sizes.items(), centres):
        for v in draw(c, k):
            rows.append({factor: level, name: float(v)})
    return pd.DataFrame(rows)


def heavy(c, k):  # right-skewed with occasional very long waits
    v = rng.lognormal(c, 0.6, k)
    v[rng.random(k) < 0.2] += rng.uniform(80, 160)
    return v


def normal(c, k):
    return rng.normal(c, 4.0, k)
"""


def _grouped(code: str, draw: str, centres: str, sizes: str, name: str, factor: str,
             transform: str = "") -> list[Finding]:
    setup = GROUPED_SETUP + (f"\ndf = long_frame({sizes}, {centres}, {draw}, "
                             f"name={name!r}, factor={factor!r})\n")
    return check(code, setup)


G_CLINIC = dict(sizes='{"north": 7, "south": 8, "east": 6, "west": 9}', name="wait_min",
              factor="clinic")


def test_formula_anova_and_tukey_on_skewed_waits():
    f = only(_grouped("""
        fit = smf.ols("wait_min ~ C(clinic)", data=df).fit()
        table = sm.stats.anova_lm(fit, typ=2)
        tk = pairwise_tukeyhsd(df["wait_min"], df["clinic"])
        print(table, tk)
        """, "heavy", "[2.6, 2.7, 2.5, 2.65]", **G_CLINIC))
    assert f.severity == "high" and f.confidence >= 0.7
    assert "R^2" in f.explanation and "within-group" in f.explanation
    assert f.evidence["values"]["within_skew_min"] >= 1


def test_formula_anova_and_tukey_on_normal_waits_with_different_means_is_quiet():
    # very different group means: the pooled values are a mixture (skewed), the errors are not
    silent(_grouped("""
        fit = smf.ols("wait_min ~ C(clinic)", data=df).fit()
        table = sm.stats.anova_lm(fit, typ=2)
        tk = pairwise_tukeyhsd(df["wait_min"], df["clinic"])
        print(table, tk)
        """, "normal", "[20, 22, 21, 75]", **G_CLINIC))


def test_formula_anova_on_log_response_is_quiet():
    silent(_grouped("""
        df["log_wait"] = np.log(df["wait_min"])
        fit = smf.ols("np.log(wait_min) ~ C(clinic)", data=df).fit()
        table = sm.stats.anova_lm(fit, typ=2)
        tk = pairwise_tukeyhsd(df["log_wait"], df["clinic"])
        print(table, tk)
        """, "heavy", "[2.6, 2.7, 2.5, 2.65]", **G_CLINIC))


G_CLAIMS = dict(sizes='{"A": 9, "B": 10, "C": 8}', name="claim_k", factor="region")


def test_inline_anova_lm_with_bare_factor_and_pooled_shapiro():
    f = only(_grouped("""
        from statsmodels.formula.api import ols
        from statsmodels.stats.anova import anova_lm
        print("pooled normality", stats.shapiro(df.claim_k))
        res = ols("claim_k ~ region", data=df).fit()
        print(anova_lm(res))
        """, "heavy", "[2.4, 2.5, 2.6]", **G_CLAIMS))
    assert f.severity == "high"
    assert "anova_lm" in f.explanation


def test_inline_anova_lm_with_bare_factor_on_normal_claims_is_quiet():
    silent(_grouped("""
        from statsmodels.formula.api import ols
        from statsmodels.stats.anova import anova_lm
        print("pooled normality", stats.shapiro(df.claim_k))
        res = ols("claim_k ~ region", data=df).fit()
        print(anova_lm(res))
        """, "normal", "[30, 31, 29]", **G_CLAIMS))


G_BUILDS = dict(sizes='{"linux": 8, "mac": 6, "win": 7}', name="build_s", factor="runner")


def test_keyword_tukey_with_treatment_coded_model():
    f = only(_grouped("""
        model = smf.ols("build_s ~ C(runner, Treatment('linux'))", data=df).fit()
        aov = sm.stats.anova_lm(model)
        res = pairwise_tukeyhsd(endog=df.build_s, groups=df.runner, alpha=0.05)
        print(aov); print(res.summary())
        """, "heavy", "[3.0, 3.1, 2.9]", **G_BUILDS))
    assert f.severity in ("high", "critical")


def test_keyword_tukey_alongside_kruskal_is_quiet():
    quiet(_grouped("""
        model = smf.ols("build_s ~ C(runner, Treatment('linux'))", data=df).fit()
        aov = sm.stats.anova_lm(model)
        res = pairwise_tukeyhsd(endog=df.build_s, groups=df.runner, alpha=0.05)
        h, p = stats.kruskal(*[g["build_s"] for _, g in df.groupby("runner")])
        print(aov, res.summary(), p)
        """, "heavy", "[3.0, 3.1, 2.9]", **G_BUILDS))


def test_numeric_predictor_regression_is_not_an_anova():
    silent(check("""
        import statsmodels.api as sm
        import statsmodels.formula.api as smf
        d = pd.DataFrame({"dose": rng.uniform(0, 10, 30)})
        d["resp"] = rng.lognormal(2, 1, 30) + d["dose"]
        print(sm.stats.anova_lm(smf.ols("resp ~ dose", data=d).fit()))
        """))


# -- tiny samples of a narrow-band quantity: one point off the cluster is not a skewed law --

def test_per_unit_rates_six_vs_six_one_low_value_is_quiet():
    # one store's rate sits apart: skew near the most 6 values allow, Shapiro p < 0.01,
    # but SD/mean ~ 0.1: the rates are averages of many visits, not a long-tailed quantity
    quiet(check("""
        shop_a = pd.Series([0.47, 0.44, 0.52, 0.36, 0.49, 0.45])
        shop_b = pd.Series([0.50, 0.51, 0.52, 0.49, 0.515, 0.38])
        print(stats.ttest_ind(shop_a, shop_b))
        """))


def test_per_site_means_anova_one_low_site_is_quiet():
    quiet(check("""
        sites = [np.array([71.2, 70.8, 72.0, 71.5, 70.9, 62.0]),
                 np.array([69.8, 70.5, 71.0, 70.2, 69.9, 70.7]),
                 np.array([72.1, 71.0, 70.4, 71.8, 70.6, 71.3])]
        print(stats.f_oneway(*sites))
        """))


def test_statsmodels_ttest_on_narrow_band_pass_rates_is_quiet():
    quiet(check("""
        from statsmodels.stats.weightstats import ttest_ind
        old = np.array([0.91, 0.92, 0.90, 0.93, 0.915, 0.80])
        new = np.array([0.93, 0.94, 0.92, 0.95, 0.94, 0.935])
        print(ttest_ind(old, new))
        """))


def test_tiny_wide_spread_sample_with_one_extreme_value_still_flagged():
    f = only(check("""
        shop_a = pd.Series([12.0, 9.0, 15.0, 11.0, 10.0, 13.0])
        shop_b = pd.Series([8.0, 11.0, 9.5, 10.0, 12.0, 95.0])
        print(stats.ttest_ind(shop_a, shop_b))
        """))
    assert f.severity == "high"


# -- one-way ANOVA from a formula, judged from the per-group summary the cell printed --------

SUMMARY_SETUP = SETUP + """
import statsmodels.api as sm
import statsmodels.formula.api as smf


def long(levels, draw, name, factor):
    return pd.DataFrame([{factor: lv, name: float(v)} for lv, k, arg in levels
                         for v in draw(arg, k)])


# lognormal stays: the spread grows with the level (the same shape on the log scale)
shape = np.array([0.3, 0.6, 1.0, 1.7, 3.2, 0.8])
wards = pd.DataFrame({
    "ward": ["cardio"] * 5 + ["ortho"] * 6 + ["onco"] * 5,
    "los_days": np.r_[shape[:5] * 1.0, shape * 9.0, shape[1:] * 80.0].round(2),
})
wards_even = long([("cardio", 5, 10.0), ("ortho", 6, 12.0), ("onco", 5, 11.0)],
                  lambda mu, k: rng.normal(mu, 2.0, k), "los_days", "ward")
soil = pd.DataFrame({
    "site": ["mill"] * 8 + ["farm"] * 7 + ["park"] * 8,
    "lead_ppm": [31, 28, 35, 30, 27, 33, 29, 4100,
                 22, 25, 19, 24, 21, 26, 23,
                 40, 44, 38, 41, 300, 39, 43, 42],
    "ph": rng.normal(6.5, 0.3, 23),
})
soil_even = soil.assign(lead_ppm=[31, 28, 35, 30, 27, 33, 29, 36,
                                  22, 25, 19, 24, 21, 26, 23,
                                  40, 44, 38, 41, 46, 39, 43, 42])
lines = pd.DataFrame({
    "line": ["L1"] * 4 + ["L2"] * 5 + ["L3"] * 5,
    "yield_g": [0.21, 0.35, 0.6, 1.4,  2.0, 3.1, 4.4, 9.5, 22.0,  30.0, 55.0, 61.0, 140.0,
                390.0],
})
"""


def summary_check(code: str) -> list[Finding]:
    return run([RULE], code, SUMMARY_SETUP)


def test_inline_anova_lm_typ2_with_describe_of_skewed_stays():
    f = only(summary_check("""
        print(wards.groupby("ward")["los_days"].describe())
        print(sm.stats.anova_lm(smf.ols("los_days ~ C(ward)", data=wards).fit(), typ=2))
        """))
    assert f.severity == "high" and not f.is_blocking(0.8)
    assert "SD rises with the group mean" in f.explanation


def test_inline_anova_lm_on_log_stays_is_silent():
    silent(summary_check("""
        print(wards.groupby("ward")["los_days"].describe())
        print(sm.stats.anova_lm(smf.ols("np.log(los_days) ~ C(ward)", data=wards).fit(),
                                typ=2))
        """))


def test_inline_anova_lm_on_even_normal_stays_is_silent():
    silent(summary_check("""
        print(wards_even.groupby("ward")["los_days"].describe())
        print(sm.stats.anova_lm(smf.ols("los_days ~ C(ward)", data=wards_even).fit(), typ=2))
        """))


def test_named_fit_f_pvalue_with_one_extreme_reading():
    f = only(summary_check("""
        print(soil.groupby("site")["lead_ppm"].agg(["count", "mean", "std", "min", "max"]))
        fit = smf.ols("lead_ppm ~ C(site)", data=soil).fit()
        print(f"F = {fit.fvalue:.2f}, p = {fit.f_pvalue:.3f}")
        """))
    assert f.severity == "high" and f.evidence["values"]["signs"] >= 2
    assert "597-fold" in f.explanation


def test_named_fit_f_pvalue_without_extreme_reading_is_silent():
    silent(summary_check("""
        print(soil_even.groupby("site")["lead_ppm"].agg(["count", "mean", "std", "min", "max"]))
        fit = smf.ols("lead_ppm ~ C(site)", data=soil_even).fit()
        print(f"F = {fit.fvalue:.2f}, p = {fit.f_pvalue:.3f}")
        """))


def test_summary_of_another_column_is_not_evidence_about_the_response():
    # the pH summary says nothing about lead; the lead fit's own residuals do
    f = only(summary_check("""
        print(soil.groupby("site")["ph"].agg(["count", "mean", "std", "min", "max"]))
        fit = smf.ols("lead_ppm ~ C(site)", data=soil).fit()
        print(f"F = {fit.fvalue:.2f}, p = {fit.f_pvalue:.3f}")
        """))
    assert "residuals" in f.explanation and "ph" not in f.explanation


def test_bare_factor_anova_lm_with_attribute_groupby_summary():
    f = only(summary_check("""
        from statsmodels.formula.api import ols
        from statsmodels.stats.anova import anova_lm
        tab = lines.groupby("line").yield_g.agg(["count", "mean", "std"])
        print(tab.round(3))
        model = ols("yield_g ~ line", lines).fit()
        table = anova_lm(model)
        print(table)
        """))
    assert f.severity == "high"


def test_anova_on_log_column_made_in_the_cell_is_silent():
    silent(summary_check("""
        from statsmodels.formula.api import ols
        from statsmodels.stats.anova import anova_lm
        lines["log_yield"] = np.log(lines["yield_g"])
        tab = lines.groupby("line").log_yield.agg(["count", "mean", "std"])
        print(tab.round(3))
        model = ols("log_yield ~ line", lines).fit()
        print(anova_lm(model))
        """))


def test_anova_with_kruskal_alongside_is_low():
    found = summary_check("""
        print(wards.groupby("ward")["los_days"].describe())
        print(sm.stats.anova_lm(smf.ols("los_days ~ C(ward)", data=wards).fit(), typ=2))
        print(stats.kruskal(*[g["los_days"] for _, g in wards.groupby("ward")]))
        """)
    quiet(found)


def test_signed_changes_with_one_huge_swing_in_a_group():
    # changes can be negative, so only the lone extreme value speaks for a heavy tail
    f = only(summary_check("""
        d = pd.DataFrame({
            "config": ["O2"] * 7 + ["O3"] * 8 + ["Os"] * 7,
            "delta_ms": [-3.1, -2.4, -4.0, -1.8, -2.9, -3.5, -2.2,
                         1.2, -0.8, 0.4, 2.1, -1.5, 0.9, 1.7, 310.0,
                         -0.3, 0.8, -1.1, 0.2, 1.4, -0.6, 0.5],
        })
        print(d.groupby("config").delta_ms.agg(["count", "mean", "median", "std", "min", "max"]))
        res = smf.ols("delta_ms ~ C(config)", d).fit()
        print(sm.stats.anova_lm(res, typ=1))
        """))
    assert f.severity == "high" and "carries almost all of its spread" in f.explanation


def test_signed_changes_without_a_swing_are_silent():
    silent(summary_check("""
        d = pd.DataFrame({
            "config": ["O2"] * 7 + ["O3"] * 8 + ["Os"] * 7,
            "delta_ms": [-3.1, -2.4, -4.0, -1.8, -2.9, -3.5, -2.2,
                         1.2, -0.8, 0.4, 2.1, -1.5, 0.9, 1.7, 3.1,
                         -0.3, 0.8, -1.1, 0.2, 1.4, -0.6, 0.5],
        })
        print(d.groupby("config").delta_ms.agg(["count", "mean", "median", "std", "min", "max"]))
        res = smf.ols("delta_ms ~ C(config)", d).fit()
        print(sm.stats.anova_lm(res, typ=1))
        """))


# -- samples already on the log scale: the remedy, not the flaw ------------------------------

LOG_SETUP = SETUP + """
base = rng.lognormal(3.0, 0.8, 70)
# a log ratio that keeps some right skew (log of a shifted lognormal ratio)
ratio = 1.0 + rng.exponential(0.35, 70)
second = base * ratio
"""


def test_one_sample_t_on_log_ratios_is_at_most_medium():
    found = run([RULE], """
        log_ratio = np.log(second / base)
        print(stats.ttest_1samp(log_ratio, 0))
        """, LOG_SETUP)
    quiet(found)


def test_one_sample_t_on_raw_ratio_differences_stays_high():
    f = one(run([RULE], """
        excess = second / base - 1.0
        excess = excess ** 3
        print(stats.ttest_1samp(excess, 0.05))
        """, LOG_SETUP), RULE_ID)
    assert f.severity == "high"


def test_limits_of_agreement_on_log_differences_are_at_most_medium():
    quiet(run([NORMAL_TAIL], """
        d = np.log(second) - np.log(base)
        bias, sd = d.mean(), d.std(ddof=1)
        print(f"ratio limits {np.exp(bias - 1.96 * sd):.2f} to {np.exp(bias + 1.96 * sd):.2f}")
        """, LOG_SETUP))


def test_welch_on_log10_columns_is_at_most_medium():
    quiet(run([RULE], """
        a = np.log10(second[:35] * rng.exponential(1.0, 35) ** 2)
        b = np.log10(base[35:])
        print(stats.ttest_ind(a, b, equal_var=False))
        """, LOG_SETUP))


def test_welch_on_the_raw_columns_stays_high():
    f = one(run([RULE], """
        a = second[:35] * rng.exponential(1.0, 35) ** 2
        b = base[35:]
        print(stats.ttest_ind(a, b, equal_var=False))
        """, LOG_SETUP), RULE_ID)
    assert f.severity == "high"


# -- four per group with no sign of skew: a caution, not a verdict ---------------------------

def test_four_donor_means_per_arm_are_medium():
    f = only(check("""
        cells = pd.DataFrame({"donor": np.repeat(np.arange(8), 500),
                              "arm": np.repeat(["case"] * 4 + ["ctrl"] * 4, 500),
                              "expr": rng.gamma(2.0, 1.0, 4000)})
        per_donor = cells.groupby(["donor", "arm"])["expr"].mean().reset_index()
        case = per_donor.loc[per_donor.arm == "case", "expr"]
        ctrl = per_donor.loc[per_donor.arm == "ctrl", "expr"]
        print(stats.ttest_ind(case, ctrl))
        """))
    assert f.severity == "medium"


def test_three_vs_three_plate_averages_are_medium():
    f = only(check("""
        import statsmodels.stats.weightstats as ws
        plates_a = [0.82, 0.79, 0.88]; plates_b = [0.71, 0.75, 0.69]
        print(ws.ttest_ind(np.array(plates_a), np.array(plates_b)))
        """))
    assert f.severity == "medium"


def test_four_per_group_drawn_from_a_skewed_generator_stays_high():
    f = only(check("""
        a = rng.lognormal(0, 1.5, 4); b = rng.lognormal(0.5, 1.5, 4)
        print(stats.ttest_ind(a, b))
        """))
    assert f.severity in ("high", "critical")


# -- one sample moderately skewed, the other normal: a concern, not decisive (n 8-30) ---------

_LONE = "[12, 13, 12.5, 13.5, 14, 12.8, 13.2, 15, 16.5, 21]"  # skew 1.68, Shapiro p 0.0076
_NORMAL = "[61, 55, 58, 64, 59, 57, 62, 60, 56, 63]"  # skew 0, Shapiro p 0.89
_SKEWED_TOO = "[3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.8, 4.2, 5.9]"  # skew 1.9, p 0.003


def test_lone_moderately_skewed_sample_is_medium_scipy_arrays():
    f = only(check(f"""
        tension_a = np.array({_LONE}); tension_b = np.array({_NORMAL})
        print(stats.ttest_ind(tension_a, tension_b, equal_var=False).pvalue)
    """))
    assert f.severity == "medium" and "one of the samples" in f.explanation


def test_both_samples_skewed_stays_high_scipy_arrays():
    f = only(check(f"""
        tension_a = np.array({_LONE}); tension_b = np.array({_SKEWED_TOO})
        print(stats.ttest_ind(tension_a, tension_b, equal_var=False).pvalue)
    """))
    assert f.severity == "high"


def test_lone_moderately_skewed_column_is_medium_statsmodels_frame():
    found = check(f"""
        from statsmodels.stats.weightstats import ttest_ind
        fx = pd.DataFrame({{"site": ["north"] * 10 + ["south"] * 10,
                           "nitrate": {_LONE} + {_NORMAL}}})
        t, p, dof = ttest_ind(fx.loc[fx.site == "north", "nitrate"],
                              fx.loc[fx.site == "south", "nitrate"])
        print(round(p, 4))
    """)
    quiet(found)
    assert one(found, RULE_ID).severity == "medium"


def test_both_columns_skewed_stays_high_statsmodels_frame():
    f = one(check(f"""
        from statsmodels.stats.weightstats import ttest_ind
        fx = pd.DataFrame({{"site": ["north"] * 10 + ["south"] * 10,
                           "nitrate": {_LONE} + {_SKEWED_TOO}}})
        t, p, dof = ttest_ind(fx.loc[fx.site == "north", "nitrate"],
                              fx.loc[fx.site == "south", "nitrate"])
        print(round(p, 4))
    """), RULE_ID)
    assert f.severity == "high"


def _loop(last_pair: str) -> str:
    return f"""
        batches = {{"viscosity": (rng.normal(40, 3, 10), rng.normal(41, 3, 10)),
                   "density": (rng.normal(1.1, 0.05, 10), rng.normal(1.1, 0.05, 10)),
                   "ph": {last_pair}}}
        out = {{}}
        for prop, (old, new) in batches.items():
            out[prop] = stats.ttest_ind(old, new, equal_var=False).pvalue
        print(out)
    """


def test_lone_skewed_sample_in_a_loop_of_tests_is_medium():
    found = check(_loop(f"(np.array({_NORMAL}), np.array({_LONE}))"))
    quiet(found)
    assert one(found, RULE_ID).severity == "medium"


def test_both_skewed_in_a_loop_of_tests_stays_high():
    f = one(check(_loop(f"(np.array({_SKEWED_TOO}), np.array({_LONE}))")), RULE_ID)
    assert f.severity == "high"


# -- formula ANOVA judged from the frame's tail facts: zero-inflated response with one whale --

_ZI_SETUP = SETUP + """
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm
arm = np.repeat(["a", "b", "c"], 10)
hit = np.array([0, 1, 0, 0, 1, 0, 0, 0, 1, 0] * 3)
spend = np.where(hit == 1, np.round(rng.uniform(40, 90, 30), 1), 0.0)
spend_whale = spend.copy(); spend_whale[11] = 2600.0
ads = pd.DataFrame({"arm": arm, "spend": spend_whale})
ads_plain = pd.DataFrame({"arm": arm, "spend": rng.normal(60, 8, 30).round(1)})
ads_capped = pd.DataFrame({"arm": arm, "spend": spend})
"""


def test_zero_inflated_response_with_whale_anova_lm():
    f = one(run([RULE], """
        m = smf.ols("spend ~ C(arm)", data=ads).fit()
        print(anova_lm(m, typ=2))
    """, _ZI_SETUP), RULE_ID)
    assert f.severity == "high" and f.evidence["values"]["tied_share"] >= 0.5


def test_zero_inflated_response_with_whale_f_pvalue():
    f = one(run([RULE], """
        res = smf.ols(formula="spend ~ C(arm)", data=ads).fit()
        print(f"F p = {res.f_pvalue:.3f}")
    """, _ZI_SETUP), RULE_ID)
    assert f.severity == "high"


def test_zero_inflated_response_with_whale_tukey():
    f = one(run([RULE], """
        from statsmodels.stats.multicomp import pairwise_tukeyhsd
        print(pairwise_tukeyhsd(ads["spend"], ads["arm"]))
    """, _ZI_SETUP), RULE_ID)
    assert f.severity == "high"


@pytest.mark.parametrize("code", [
    'print(anova_lm(smf.ols("spend ~ C(arm)", data=ads_plain).fit(), typ=2))',
    'print(smf.ols("np.log1p(spend) ~ C(arm)", data=ads).fit().f_pvalue)',
    'print(smf.ols("spend ~ C(arm)", data=ads_capped).fit().f_pvalue)',
])
def test_sound_twins_of_zero_inflated_anova_stay_quiet(code):
    quiet(run([RULE], code, _ZI_SETUP))


# -- a handful of tightly clustered per-unit means: no evidence of skew, at most a caution -----

def test_four_vs_five_station_means_with_one_high_station_are_medium_pandas():
    found = check("""
        obs = pd.DataFrame({"station": np.repeat(np.arange(9), 200),
                            "urban": np.repeat([1] * 4 + [0] * 5, 200)})
        level = np.array([30.0, 29.0, 31.0, 35.5, 28.0, 29.5, 30.5, 31.0, 43.5])
        obs["pm25"] = level[obs.station] + rng.normal(0, 6, len(obs))
        means = obs.groupby(["station", "urban"])["pm25"].mean().reset_index()
        urban = means.loc[means.urban == 1, "pm25"]
        rural = means.loc[means.urban == 0, "pm25"]
        print(stats.ttest_ind(urban, rural, equal_var=False))
        """)
    quiet(found)
    assert one(found, RULE_ID).severity == "medium"


def test_five_clinic_averages_numpy_with_one_outlying_clinic_are_medium():
    found = check("""
        a = np.array([101.0, 99.0, 103.0, 100.0, 121.0])
        b = np.array([97.0, 95.0, 99.0, 96.0])
        print(stats.ttest_ind(a, b))
        """)
    quiet(found)
    assert one(found, RULE_ID).severity == "medium"


def test_helper_on_tight_lab_replicates_is_quiet_statsmodels():
    quiet(check("""
        from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

        def compare(x, y):
            return CompareMeans(DescrStatsW(x), DescrStatsW(y)).ttest_ind(usevar="unequal")

        print(compare(np.array([5.10, 5.00, 5.20, 5.05, 6.40]),
                      np.array([4.90, 4.95, 4.85, 5.00])))
        """))


def test_five_wide_spread_values_with_a_long_tail_stay_high():
    # the same shape but SD/mean well above 0.25: a long right tail, not a tight cluster
    f = one(check("""
        a = np.array([3.0, 1.0, 5.0, 2.0, 60.0])
        b = np.array([2.0, 4.0, 3.0, 1.5, 2.5])
        print(stats.ttest_ind(a, b))
        """), RULE_ID)
    assert f.severity in ("high", "critical")


# -- a z-test on a handful of values per group: the normal reference is too thin-tailed -------

def test_ztest_on_four_tight_plots_per_arm_is_high():
    f = one(check("""
        from statsmodels.stats.weightstats import ztest
        print(ztest(np.array([6.1, 6.4, 6.0, 7.2]), np.array([5.6, 5.9, 5.7, 5.5])))
        """), RULE_ID)
    assert f.severity == "high" and "z-test" in f.explanation


def test_ttest_on_the_same_four_tight_plots_is_medium():
    found = check("""
        print(stats.ttest_ind(np.array([6.1, 6.4, 6.0, 7.2]), np.array([5.6, 5.9, 5.7, 5.5])))
        """)
    quiet(found)


# -- formula ANOVA / Tukey: group means within about one pooled SD of a zero floor ------------

_FLOOR_SETUP = SETUP + """
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.multicomp import pairwise_tukeyhsd
# repair times (hours) of three crews, 8 jobs each: mostly short, a few very long
repairs = pd.DataFrame({
    "crew": np.repeat(["north", "south", "east"], 8),
    "hours": [2.5, 4.0, 1.5, 3.0, 60.0, 2.0, 5.5, 3.5,
              6.0, 3.0, 4.5, 2.0, 7.0, 3.5, 5.0, 48.0,
              9.0, 14.0, 6.5, 110.0, 8.0, 11.5, 7.5, 95.0],
})
# the same design on a quantity far from its floor (fill weights, grams)
fills = repairs.assign(hours=rng.normal(500, 6, 24).round(1)
                       + np.repeat([0.0, 2.0, 4.0], 8))
logged = repairs.assign(hours=np.log(repairs.hours))
"""


def floor_check(code: str) -> list[Finding]:
    return run([RULE], code, _FLOOR_SETUP)


def test_anova_lm_with_renamed_mean_sd_summary_near_the_floor():
    f = one(floor_check("""
        fit = smf.ols("hours ~ C(crew)", data=repairs).fit()
        print(sm.stats.anova_lm(fit, typ=2))
        print(repairs.groupby("crew")["hours"].agg(M="mean", SD="std", n="size").round(1))
        """), RULE_ID)
    assert f.severity == "high" and f.evidence["values"]["floor_p"] < 1e-3
    assert "below zero" in f.explanation


def test_f_pvalue_with_count_and_mean_only_uses_r2():
    f = one(floor_check("""
        print(repairs.groupby("crew").hours.agg(["count", "mean"]).round(2))
        model = smf.ols("hours ~ C(crew)", data=repairs).fit()
        print(f"F = {model.fvalue:.2f}, p = {model.f_pvalue:.4f}")
        """), RULE_ID)
    assert f.severity in ("medium", "high") and "R^2" in f.explanation


def test_tukey_with_describe_near_the_floor():
    f = one(floor_check("""
        print(repairs.groupby("crew")["hours"].describe()[["count", "mean", "std"]])
        print(pairwise_tukeyhsd(repairs["hours"], repairs["crew"]))
        """), RULE_ID)
    assert f.severity == "high"


@pytest.mark.parametrize("code", [
    # far from the floor: normal errors put no mass below zero
    """
    fit = smf.ols("hours ~ C(crew)", data=fills).fit()
    print(sm.stats.anova_lm(fit, typ=2))
    print(fills.groupby("crew")["hours"].agg(M="mean", SD="std", n="size").round(1))
    """,
    """
    print(fills.groupby("crew").hours.agg(["count", "mean"]).round(2))
    model = smf.ols("hours ~ C(crew)", data=fills).fit()
    print(f"F = {model.fvalue:.2f}, p = {model.f_pvalue:.4f}")
    """,
    # the analysis on the log scale (the frame's column is logged, can go negative)
    """
    print(logged.groupby("crew")["hours"].describe()[["count", "mean", "std"]])
    print(pairwise_tukeyhsd(logged["hours"], logged["crew"]))
    """,
    # a rank test alongside: reported low
    """
    fit = smf.ols("hours ~ C(crew)", data=repairs).fit()
    print(sm.stats.anova_lm(fit, typ=2))
    print(repairs.groupby("crew")["hours"].agg(M="mean", SD="std", n="size").round(1))
    print(stats.kruskal(*[g["hours"] for _, g in repairs.groupby("crew")]))
    """,
])
def test_sound_twins_of_floor_anova_stay_quiet(code):
    quiet(floor_check(code))


# -- Wald intervals for a rate near 0 or 1: too few non-events as well as too few events ------

_RATE_SETUP = SETUP + """
from statsmodels.stats.proportion import proportion_confint
audit = pd.DataFrame({"flagged": ["yes"] * 46 + ["no"] * 2 + ["yes"] * 3 + ["no"] * 149,
                      "fraud": [True] * 48 + [False] * 152})
"""


def test_wald_helper_on_near_one_detection_rate_pandas_scalars():
    f = one(run([WALD], """
        tab = pd.crosstab(audit.flagged, audit.fraud)
        caught, missed = tab.loc["yes", True], tab.loc["no", True]

        def normal_ci(x, total):
            rate = x / total
            se = np.sqrt(rate * (1 - rate) / total)
            return rate, max(rate - 1.96 * se, 0.0), min(rate + 1.96 * se, 1.0)

        print(normal_ci(caught, caught + missed))
        """, _RATE_SETUP), WALD_ID)
    assert f.severity == "high" and f.evidence["values"]["min_side"] == 2
    assert "non-events" in f.explanation and "clipped" in f.explanation


def test_wald_on_numpy_arrays_of_pass_rates():
    f = one(run([WALD], """
        passed = np.array([58, 31]); runs = np.array([60, 40])
        rate = passed / runs
        half = 1.96 * (rate * (1 - rate) / runs) ** 0.5
        print(np.c_[rate - half, rate + half])
        """, _RATE_SETUP), WALD_ID)
    assert f.severity == "high" and f.evidence["values"]["min_side"] == 2


def test_wald_on_module_scalars_with_few_misses_is_medium():
    f = one(run([WALD], """
        hits, shots = 94, 100
        p = hits / shots
        se = np.sqrt(p * (1 - p) / shots)
        print(f"{p:.2f} ({p - 1.96 * se:.3f} to {p + 1.96 * se:.3f})")
        """, _RATE_SETUP), WALD_ID)
    assert f.severity == "medium"


def test_proportion_confint_default_on_near_one_rates():
    f = one(run([WALD], """
        lo, hi = proportion_confint(np.array([97, 44]), np.array([99, 50]))
        print(lo, hi)
        """, _RATE_SETUP), WALD_ID)
    assert f.severity == "high" and f.evidence["values"]["min_events"] == 2


@pytest.mark.parametrize("code", [
    # exact / Wilson intervals for the same near-one rates
    """
    tab = pd.crosstab(audit.flagged, audit.fraud)
    caught, missed = tab.loc["yes", True], tab.loc["no", True]
    print(proportion_confint(caught, caught + missed, method="beta"))
    """,
    'print(proportion_confint(np.array([97, 44]), np.array([99, 50]), method="wilson"))',
    # Wald with plenty of events and non-events on both sides
    """
    passed = np.array([140, 61]); runs = np.array([200, 90])
    rate = passed / runs
    half = 1.96 * (rate * (1 - rate) / runs) ** 0.5
    print(np.c_[rate - half, rate + half])
    """,
    """
    def normal_ci(x, total):
        rate = x / total
        se = np.sqrt(rate * (1 - rate) / total)
        return rate - 1.96 * se, rate + 1.96 * se

    print(normal_ci(120, 300))
    """,
])
def test_sound_twins_of_near_one_wald_are_silent(code):
    silent(run([WALD], code, _RATE_SETUP))


def test_formula_anova_judged_from_the_fits_residuals_when_nothing_else_shows():
    # no summary printed, no pooled sample: the kernel's residual facts of the fit decide
    f = only(_grouped("""
        fit = smf.ols("wait_min ~ C(clinic)", data=df).fit()
        print(f"F({fit.df_model:.0f}, {fit.df_resid:.0f}) = {fit.fvalue:.2f}, "
              f"p = {fit.f_pvalue:.4f}")
        """, "heavy", "[2.6, 2.7, 2.5, 2.65]", **G_CLINIC))
    assert f.severity in ("high", "critical") and "residuals" in f.explanation
    assert f.evidence["values"]["within_skew_min"] >= 1


def test_formula_anova_with_normal_residuals_is_quiet():
    silent(_grouped("""
        fit = smf.ols("wait_min ~ C(clinic)", data=df).fit()
        print(f"F({fit.df_model:.0f}, {fit.df_resid:.0f}) = {fit.fvalue:.2f}, "
              f"p = {fit.f_pvalue:.4f}")
        """, "normal", "[20, 22, 21, 75]", **G_CLINIC))


# -- z interval written as mean ± z * SD / sqrt(n) (the division last) ------------------------

def test_z_interval_sd_over_root_n_numpy_functions() -> None:
    f = one(ci("""
        m, s = np.mean(wait_min), np.std(wait_min, ddof=1)
        lo = m - 1.96 * s / np.sqrt(len(wait_min))
        hi = m + 1.96 * s / np.sqrt(len(wait_min))
        print(f"mean wait {m:.1f} min (95% CI {lo:.1f} to {hi:.1f})")
    """), MEAN_CI_ID)
    assert f.severity == "high" and "wait_min" in f.explanation


def test_z_interval_sd_over_root_n_on_symmetric_temperatures_is_quiet() -> None:
    silent(ci("""
        m, s = np.mean(temps), np.std(temps, ddof=1)
        lo = m - 1.96 * s / np.sqrt(len(temps))
        hi = m + 1.96 * s / np.sqrt(len(temps))
        print(f"mean {m:.2f} (95% CI {lo:.2f} to {hi:.2f})")
    """))


def test_half_width_named_in_a_helper() -> None:
    f = one(ci("""
        def normal_ci(v):
            half = 2.0 * v.std() / np.sqrt(len(v))
            return v.mean() - half, v.mean() + half

        costs = claims["cost"].to_numpy()
        print("claim cost CI", normal_ci(costs))
    """), MEAN_CI_ID)
    assert f.severity == "high"


def test_half_width_named_in_a_helper_on_symmetric_sample_is_quiet() -> None:
    silent(ci("""
        def normal_ci(v):
            half = 2.0 * v.std() / np.sqrt(len(v))
            return v.mean() - half, v.mean() + half

        print("temperature CI", normal_ci(temps))
    """))


def test_statistics_module_interval_with_math_sqrt() -> None:
    f = one(ci("""
        import math
        import statistics
        mu = statistics.fmean(wait_min)
        sd = statistics.stdev(wait_min)
        upper = mu + 1.645 * sd / math.sqrt(len(wait_min))
        print(f"plan for at most {upper:.1f} min on average")
    """), MEAN_CI_ID)
    assert "n=12" in f.explanation


def test_statistics_module_interval_with_bootstrap_check_is_quiet() -> None:
    silent(ci("""
        import math
        import statistics
        mu = statistics.fmean(wait_min)
        sd = statistics.stdev(wait_min)
        upper = mu + 1.645 * sd / math.sqrt(len(wait_min))
        boot = stats.bootstrap((wait_min,), np.mean, method="BCa", random_state=1)
        print(upper, boot.confidence_interval)
    """))


# -- scipy f_oneway on groups unpacked straight from df.groupby(...) ---------------------------

ONEWAY = SETUP + """
# hospital length of stay (days): right-skewed, 12-14 patients per ward
stays = pd.DataFrame({
    "ward": ["a"] * 14 + ["b"] * 12 + ["c"] * 13 + ["d"] * 12,
    "los": np.round(-np.repeat([4.0, 5.0, 11.0, 4.5], [14, 12, 13, 12])
                    * np.log(rng.random(51)), 1)})
# bottle fill volumes (ml): symmetric, far from zero
fills = pd.DataFrame({
    "line": ["a"] * 14 + ["b"] * 12 + ["c"] * 13 + ["d"] * 12,
    "ml": np.round(np.concatenate([rng.normal(500, 4, 14), rng.normal(502, 4, 12),
                                   rng.normal(505, 4, 13), rng.normal(501, 4, 12)]), 1)})
"""


def oneway(code: str) -> list[Finding]:
    return run([RULE], code, ONEWAY)


def test_f_oneway_on_groupby_column_with_renamed_summary() -> None:
    f = only(oneway("""
        print(stays.groupby("ward")["los"].agg(n="size", mean_los="mean").round(1))
        F, p = stats.f_oneway(*[g.to_numpy() for _, g in stays.groupby("ward")["los"]])
        print(f"F={F:.2f} p={p:.4f}")
    """))
    # the kernel measures each ward's stays (the groupby the test unpacks): skew, not the
    # printed mean/SD, is the evidence
    assert f.severity == "high" and "skewed" in f.explanation
    assert f.evidence["values"]["n_min"] == 12


def test_f_oneway_on_groupby_column_symmetric_volumes_is_quiet() -> None:
    quiet(oneway("""
        print(fills.groupby("line")["ml"].agg(n="size", mean_ml="mean").round(1))
        F, p = stats.f_oneway(*[g.to_numpy() for _, g in fills.groupby("line")["ml"]])
        print(f"F={F:.2f} p={p:.4f}")
    """))


def test_f_oneway_generator_of_frame_groups_with_describe() -> None:
    f = only(oneway("""
        from scipy.stats import f_oneway
        print(stays.groupby("ward")["los"].describe()[["count", "mean", "max"]])
        stat, pval = f_oneway(*(grp["los"] for _, grp in stays.groupby("ward")))
        print("wards differ" if pval < 0.05 else "no difference", round(stat, 2))
    """))
    assert "f_oneway" in f.explanation


def test_kruskal_on_the_same_groups_is_quiet() -> None:
    silent(oneway("""
        from scipy.stats import kruskal
        print(stays.groupby("ward")["los"].describe()[["count", "25%", "50%", "75%"]])
        stat, pval = kruskal(*(grp["los"] for _, grp in stays.groupby("ward")))
        print(round(stat, 2), pval)
    """))


def test_f_oneway_attribute_column_in_a_helper_table() -> None:
    f = only(oneway("""
        table = stays.groupby("ward").los.agg(["count", "mean"])
        print(table)
        F, p = stats.f_oneway(*[v.values for _, v in stays.groupby("ward").los])
        print(F, p)
    """))
    assert f.severity == "high"


def test_f_oneway_attribute_column_on_volumes_is_quiet() -> None:
    quiet(oneway("""
        table = fills.groupby("line").ml.agg(["count", "mean"])
        print(table)
        F, p = stats.f_oneway(*[v.values for _, v in fills.groupby("line").ml])
        print(F, p)
    """))


def test_f_oneway_on_logged_groups_is_quiet() -> None:
    quiet(oneway("""
        print(stays.groupby("ward")["los"].agg(n="size", mean_los="mean").round(1))
        F, p = stats.f_oneway(*[np.log1p(g) for _, g in stays.groupby("ward")["los"]])
        print(F, p)
    """))


# -- a normal band on a long skewed sample, judged from the kernel's tail facts -----------------

LONG_TAILS = SETUP + """
n = 800
claims = pd.DataFrame({"region": rng.choice(["n", "s"], n),
                       "paid": np.where(rng.random(n) < 0.7, 0.0,
                                        rng.lognormal(7, 1.2, n)).round(2)})  # zero-inflated
downtime_min = pd.Series(rng.exponential(4.0, n) ** 1.6)                    # right-skewed
stature = pd.DataFrame({"cm": rng.normal(171, 7, n)})
gain = pd.Series(rng.normal(0.0, 2.0, n))                                   # can be negative
"""


def long_tails(code: str) -> list[Finding]:
    return run([NORMAL_TAIL], code, LONG_TAILS)


LONG_FLAWED = {
    "frame_column_tuple_moments": """
        paid = claims["paid"]
        m, s = paid.mean(), paid.std(ddof=1)
        print(f"typical claim range: {m - 1.96 * s:,.0f} to {m + 1.96 * s:,.0f}")
    """,
    "numpy_moments_named_z": """
        z = 2.0
        centre = np.mean(downtime_min)
        spread = np.std(downtime_min, ddof=1)
        band = (centre - z * spread, centre + z * spread)
        print("expected daily downtime:", band)
    """,
    "column_subscript_separate_lines": """
        avg = claims.paid.mean()
        sdev = claims.paid.std()
        lower = avg - 1.96 * sdev
        upper = avg + 1.96 * sdev
        print(lower, upper)
    """,
}

LONG_SOUND = {
    "empirical_percentiles": """
        paid = claims["paid"]
        lo, hi = paid.quantile([0.025, 0.975])
        print(f"typical claim range: {lo:,.0f} to {hi:,.0f}")
    """,
    "symmetric_column": """
        m, s = stature["cm"].mean(), stature["cm"].std()
        print(m - 1.96 * s, m + 1.96 * s)
    """,
    "quantity_that_can_be_negative": """
        mu, sd = gain.mean(), gain.std()
        print("weight change range:", mu - 1.96 * sd, mu + 1.96 * sd)
    """,
    "log_scale_band": """
        logged = np.log1p(downtime_min)
        m, s = logged.mean(), logged.std()
        print(np.expm1(m - 1.96 * s), np.expm1(m + 1.96 * s))
    """,
}


@pytest.mark.parametrize("idiom", sorted(LONG_FLAWED))
def test_normal_band_below_zero_on_a_long_skewed_sample(idiom: str) -> None:
    f = one(long_tails(LONG_FLAWED[idiom]), NT)
    assert f.severity == "high", f.explanation
    assert "below zero" in f.explanation and "95th percentile" in f.explanation


@pytest.mark.parametrize("idiom", sorted(LONG_SOUND))
def test_percentiles_symmetric_or_signed_samples_stay_quiet(idiom: str) -> None:
    quiet(long_tails(LONG_SOUND[idiom]))
    assert not [f for f in long_tails(LONG_SOUND[idiom]) if f.rule_id == NT], idiom



# -- spread proportional to the level (printed group SDs rise with the means) -----------------

# `draw(m)`: five values of a group with mean level m. Multiplicative errors with a right
# tail give every group the same CV (~0.6); additive errors one common SD; the log of the
# multiplicative values one common SD on the log scale.
_DRAWS = {
    "multiplicative": "lambda m: m * np.array([0.38, 0.62, 0.81, 1.12, 2.07])",
    "additive": "lambda m, s=np.array([-1.1, -0.5, 0.1, 0.4, 1.1]): m + 0.3 * BASE * s",
    "logged": "lambda m: np.log(m * np.array([0.38, 0.62, 0.81, 1.12, 2.07]))",
}

_PROP_CASES = {
    "ols_anova_lm": ("""
        BASE = 410.0
        pk = pd.DataFrame([{"dose": d, "auc": v}
                           for d, m in {"5 mg": 410.0, "10 mg": 820.0, "20 mg": 1700.0}.items()
                           for v in draw(m)])
        """, """
        import statsmodels.api as sm
        import statsmodels.formula.api as smf
        fit = smf.ols("auc ~ C(dose)", data=pk).fit()
        print(sm.stats.anova_lm(fit, typ=2))
        print(pk.groupby("dose")["auc"].agg(["mean", "std"]))
        """, "anova_lm"),
    "f_oneway_groupby": ("""
        BASE = 1200.0
        claims = pd.DataFrame({
            "region": np.repeat(["north", "coast", "metro"], 5),
            "payout": np.concatenate([draw(m) for m in (1200.0, 2600.0, 5100.0)]),
        })
        """, """
        print(claims.groupby("region")["payout"].describe())
        F, p = stats.f_oneway(*[g["payout"] for _, g in claims.groupby("region")])
        print(f"F={F:.2f} p={p:.3f}")
        """, "f_oneway"),
    "tukey_named_aggregates": ("""
        BASE = 0.4
        streams = pd.DataFrame({
            "landuse": ["forest"] * 5 + ["pasture"] * 5 + ["cropland"] * 5,
            "nitrate": [*draw(0.4), *draw(1.1), *draw(2.9)],
        })
        """, """
        from statsmodels.stats.multicomp import pairwise_tukeyhsd

        summary = streams.groupby("landuse")["nitrate"].agg(mean="mean", sd="std", n="size")
        print(summary.round(3))
        print(pairwise_tukeyhsd(streams["nitrate"], streams["landuse"]))
        """, "pairwise_tukeyhsd"),
}


def _prop(idiom: str, draw: str) -> list[Finding]:
    data, code, _ = _PROP_CASES[idiom]
    setup = SETUP + f"draw = {_DRAWS[draw]}\n" + textwrap.dedent(data)
    return check(code, setup)


@pytest.mark.parametrize("idiom", sorted(_PROP_CASES))
def test_anova_with_spread_proportional_to_the_group_mean(idiom: str) -> None:
    f = only(_prop(idiom, "multiplicative"))
    assert f.severity == "medium" and f.confidence == 0.5
    assert _PROP_CASES[idiom][2] in f.explanation and "rise with the means" in f.explanation
    assert f.evidence["values"]["cv_min"] >= 0.4


@pytest.mark.parametrize("draw", ["additive", "logged"])
@pytest.mark.parametrize("idiom", sorted(_PROP_CASES))
def test_anova_with_common_spread_is_quiet(idiom: str, draw: str) -> None:
    # one SD for all groups (additive errors, or the log of multiplicative ones): the
    # F-test's model holds
    quiet(_prop(idiom, draw))


# -- 5-7 values per group with nothing non-normal in them: a low caution only ----------------

_SMALL_NORMALISH = {
    "scipy_ttest_ind": """
        site_a = np.array([21.4, 22.9, 23.3, 23.8, 24.6, 25.9])
        site_b = np.array([24.1, 25.2, 26.0, 26.4, 27.3, 28.5])
        t, p = stats.ttest_ind(site_a, site_b, equal_var=False)
        print(f"t={t:.2f} p={p:.3f}")
        """,
    "weightstats_in_helper": """
        from statsmodels.stats.weightstats import ttest_ind as sm_ttest

        def compare(x, y):
            return sm_ttest(x, y)

        ctrl = pd.Series([61.2, 63.5, 64.0, 65.1, 66.7, 68.3])
        trt = pd.Series([64.9, 66.2, 67.8, 68.0, 70.1, 71.6])
        print(compare(ctrl, trt))
        """,
    "f_oneway_frame_columns": """
        yields = {"A": [5.1, 5.6, 5.8, 6.0, 6.3, 6.9],
                  "B": [5.9, 6.2, 6.6, 6.7, 7.1, 7.5],
                  "C": [6.4, 6.8, 7.0, 7.3, 7.7, 8.1]}
        plots = pd.DataFrame(yields)
        print(stats.f_oneway(plots["A"], plots["B"], plots["C"]))
        """,
}


@pytest.mark.parametrize("idiom", sorted(_SMALL_NORMALISH))
def test_six_unremarkable_values_per_group_is_only_a_low_caution(idiom: str) -> None:
    # n=6 cannot prove normality, but nothing in the values (skew, Shapiro, SD/mean) doubts
    # it either: the t-test / ANOVA is the standard tool at this size, no medium note
    found = check(_SMALL_NORMALISH[idiom])
    assert all(f.severity == "low" for f in found), found


@pytest.mark.parametrize("idiom", sorted(_SMALL_NORMALISH))
def test_six_values_with_one_far_out_keep_a_note(idiom: str) -> None:
    # the same tests when one group's six values carry a long right tail
    code = _SMALL_NORMALISH[idiom]
    for old, new in (("25.9])", "61.0])"), ("68.3])", "190.0])"), ("6.9]", "19.5]")):
        code = code.replace(old, new)
    f = only(check(code))
    assert f.severity in ("medium", "high"), f


def test_ztest_on_six_unremarkable_values_still_flags_the_normal_reference() -> None:
    found = check("""
        from statsmodels.stats.weightstats import ztest
        a = np.array([21.4, 22.9, 23.3, 23.8, 24.6, 25.9])
        b = np.array([24.1, 25.2, 26.0, 26.4, 27.3, 28.5])
        print(ztest(a, b))
        """)
    assert only(found).severity == "high"


# -- many small groups: one or two look skewed by chance, the pooled errors do not -------------

# eight values per group, in SD units: symmetric, one skewed left, one right (skew -/+1.69,
# Shapiro p 0.006 at n=8: what six small normal samples produce now and then), and a long
# right tail for every group (the flawed twin: each group skew 1.68)
_SMALL_GROUPS = """
SYM = np.array([-1.5, -1.0, -0.5, -0.2, 0.2, 0.5, 1.0, 1.5])
LEFT = np.array([-2.6, -0.6, 0.0, 0.25, 0.4, 0.5, 0.6, 0.75])
RIGHT = -LEFT[::-1]
TAIL = np.array([0.45, 0.52, 0.6, 0.7, 0.85, 1.05, 1.4, 2.9])
chance = [SYM, LEFT, SYM, RIGHT, SYM, SYM]
skewed = [TAIL] * 6
"""

_MANY_GROUPS = {
    "numpy_arrays": ("""
        arms = [62.0 + 1.6 * z for z in SHAPES]
        a, b, c, d, e, f = arms
        """, """
        F, p = stats.f_oneway(a, b, c, d, e, f)
        print(f"F={F:.2f} p={p:.4f}")
        """),
    "pandas_groupby_unpacked": ("""
        pens = pd.DataFrame({"diet": np.repeat(list("ABCDEF"), 8),
                             "adg": np.concatenate([62.0 + 1.6 * z for z in SHAPES])})
        """, """
        print(pens.groupby("diet")["adg"].agg(["mean", "std", "count"]).round(2))
        F, p = stats.f_oneway(*[g["adg"] for _, g in pens.groupby("diet")])
        print(f"F={F:.2f} p={p:.4f}")
        """),
    "frame_column_masks": ("""
        plots = pd.DataFrame({"variety": np.repeat(["v1", "v2", "v3", "v4", "v5", "v6"], 8),
                              "yield_t": np.concatenate([7.5 + 0.4 * z for z in SHAPES])})
        """, """
        res = stats.alexandergovern(*(plots.loc[plots.variety == v, "yield_t"]
                                      for v in ["v1", "v2", "v3", "v4", "v5", "v6"]))
        y1 = plots.loc[plots.variety == "v1", "yield_t"]
        y2 = plots.loc[plots.variety == "v2", "yield_t"]
        y3 = plots.loc[plots.variety == "v3", "yield_t"]
        y4 = plots.loc[plots.variety == "v4", "yield_t"]
        print(stats.f_oneway(y1, y2, y3, y4))
        """),
}


def _many(idiom: str, shapes: str) -> list[Finding]:
    data, code = _MANY_GROUPS[idiom]
    setup = SETUP + _SMALL_GROUPS + f"SHAPES = {shapes}\n" + textwrap.dedent(data)
    return check(code, setup)


@pytest.mark.parametrize("idiom", sorted(_MANY_GROUPS))
def test_chance_skew_in_a_few_of_many_small_groups_is_not_flagged(idiom: str) -> None:
    # two of six (or four) groups of 8 look skewed, in opposite directions; pooled, the
    # within-group deviations show no skew beyond what normal errors give
    found = _many(idiom, "chance")
    quiet(found)
    assert all(f.severity == "low" for f in found), found
    assert any("by chance" in f.explanation for f in found), found


@pytest.mark.parametrize("idiom", sorted(_MANY_GROUPS))
def test_every_small_group_skewed_stays_high(idiom: str) -> None:
    f = one(_many(idiom, "skewed"), RULE_ID)
    assert f.severity == "high", f.explanation
    assert "by chance" not in f.explanation


# -- a standard error by hand (sqrt of variances over n) transforms no data ---------------------

# lognormal draws (sigma 1.1) whose realised samples happen to look only mildly skewed: the
# code's skewed generator is the decisive signal, and `np.sqrt(a.var() / len(a) + ...)` beside
# the test must not count as the data being put on a transformed scale
_COLD = SETUP + """
import math
import statistics
rng = np.random.default_rng(3809)
cold_old = np.round(rng.lognormal(np.log(900), 1.1, 11), 0)
cold_new = np.round(rng.lognormal(np.log(600), 1.1, 13), 0)
"""

_SE_BY_HAND = {
    "numpy_var_len": """
        t, p = stats.ttest_ind(A, B)
        se = np.sqrt(A.var(ddof=1) / len(A) + B.var(ddof=1) / len(B))
        diff = A.mean() - B.mean()
        print(f"diff {diff:+.0f} [{diff - 1.96 * se:.0f}, {diff + 1.96 * se:.0f}] p={p:.3f}")
        """,
    "statistics_variance_math_sqrt": """
        t, p = stats.ttest_ind(A, B, equal_var=False)
        se = math.sqrt(statistics.variance(A) / len(A) + statistics.variance(B) / len(B))
        print(f"diff {statistics.fmean(A) - statistics.fmean(B):+.0f} ms, se {se:.0f}, p={p:.3f}")
        """,
    "statsmodels_pandas_series": """
        from statsmodels.stats.weightstats import ttest_ind as sm_ttest
        tstat, p, dof = sm_ttest(pd.Series(A), pd.Series(B))
        se = np.sqrt(np.var(A, ddof=1) / A.size + np.var(B, ddof=1) / B.shape[0])
        print(f"t={tstat:.2f} p={p:.3f} se={se:.0f}")
        """,
}


@pytest.mark.parametrize("idiom", sorted(_SE_BY_HAND))
def test_standard_error_by_hand_does_not_hide_a_skewed_generator(idiom: str) -> None:
    code = _SE_BY_HAND[idiom].replace("A", "cold_new").replace("B", "cold_old")
    f = one(check(code, _COLD), RULE_ID)
    assert f.severity == "high", f.explanation


@pytest.mark.parametrize("idiom", sorted(_SE_BY_HAND))
def test_same_test_on_logged_cold_starts_is_quiet(idiom: str) -> None:
    code = _SE_BY_HAND[idiom].replace("A", "log_new").replace("B", "log_old")
    code = "log_new, log_old = np.log(cold_new), np.log(cold_old)\n" + textwrap.dedent(code)
    quiet(check(code, _COLD))


# -- one-way fit whose residuals Shapiro rejects decisively, skew only moderate ----------------

# ten rates per pattern (7-10 taken per group, evenly): zero-inflated (4 of 10 at zero, a
# right tail: the fit's residuals have skew ~0.8, Shapiro p < 0.001) or symmetric
_RATES = SETUP + """
import statsmodels.api as sm
import statsmodels.formula.api as smf
from statsmodels.stats.multicomp import pairwise_tukeyhsd
PATTERNS = {"zero_inflated": [0, 0, 0, 0, 0.2, 0.5, 0.8, 1.2, 1.6, 2.1],
            "symmetric": [0.2, 0.5, 0.7, 0.85, 1.0, 1.1, 1.25, 1.4, 1.6, 1.9]}


def rates(pattern, sizes, scales, factor, response):
    z = np.array(PATTERNS[pattern])
    rows = [{factor: g, response: v}
            for (g, k), s in zip(sizes.items(), scales)
            for v in (z * s)[np.round(np.linspace(0, 9, k)).astype(int)]]
    return pd.DataFrame(rows)
"""

_RESID_IDIOMS = {
    "anova_lm_of_named_fit": ("""
        tele = rates(PATTERN, {"city": 9, "hatch": 10, "suv": 8, "van": 7},
                     [1.0, 0.9, 0.7, 1.2], "vehicle", "hb_rate")
        """, """
        fit = smf.ols("hb_rate ~ C(vehicle)", data=tele).fit()
        print(sm.stats.anova_lm(fit, typ=2).round(4))
        """),
    "f_pvalue_attribute": ("""
        wards = rates(PATTERN, {"w1": 8, "w2": 9, "w3": 10, "w4": 8, "w5": 7},
                      [1.1, 0.8, 1.0, 0.9, 1.3], "ward", "falls_per_1000")
        """, """
        model = smf.ols("falls_per_1000 ~ C(ward)", data=wards).fit()
        print(f"F = {model.fvalue:.2f}, p = {model.f_pvalue:.4f}")
        """),
    "tukey_beside_the_fit": ("""
        lines = rates(PATTERN, {"L1": 10, "L2": 9, "L3": 8, "L4": 9},
                      [1.0, 1.25, 0.8, 1.1], "line", "defects_per_k")
        """, """
        res = smf.ols("defects_per_k ~ C(line)", data=lines).fit()
        print(res.summary().tables[0])
        print(pairwise_tukeyhsd(lines["defects_per_k"], lines["line"]))
        """),
}


def _resid(idiom: str, pattern: str) -> list[Finding]:
    data, code = _RESID_IDIOMS[idiom]
    setup = _RATES + f"PATTERN = {pattern!r}\n" + textwrap.dedent(data)
    return check(code, setup)


@pytest.mark.parametrize("idiom", sorted(_RESID_IDIOMS))
def test_zero_inflated_rates_anova_with_rejected_residuals(idiom: str) -> None:
    f = one(_resid(idiom, "zero_inflated"), RULE_ID)
    assert f.severity == "high", f.explanation
    assert "minimum 0" in f.explanation or "R^2" in f.explanation, f.explanation


@pytest.mark.parametrize("idiom", sorted(_RESID_IDIOMS))
def test_symmetric_rates_anova_is_quiet(idiom: str) -> None:
    quiet(_resid(idiom, "symmetric"))

