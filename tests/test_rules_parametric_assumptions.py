"""parametric_assumptions: t-tests, ANOVA and Pearson on skewed or tiny samples.

Cells run in-process so the rule sees the kernel's SampleFacts (n, skew, Shapiro p); the
code-only path (samples in a comprehension, no kernel) is tested with `evidence()`."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules.parametric_assumptions import parametric_on_nonnormal as RULE
from tests.inprocess_evidence import evidence, run_and_gather

RULE_ID = "parametric_assumptions.nonnormal_samples"

SETUP = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
"""


def check(code: str, setup: str = SETUP) -> list[Finding]:
    return RULE.check(run_and_gather(code, setup))


def only(findings: list[Finding]) -> Finding:
    assert len(findings) == 1, findings
    assert findings[0].rule_id == RULE_ID
    return findings[0]


def assert_quiet(findings: list[Finding]) -> None:
    assert not [f for f in findings if f.severity in ("high", "critical")], findings


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


def test_tiny_groups_without_visible_skew_are_high_but_not_blocking():
    f = only(check("""
        vehicle = np.array([412.0, 388.0, 455.0, 430.0])
        compound = np.array([301.0, 365.0, 280.0, 342.0])
        print(stats.ttest_ind(compound, vehicle))
    """))
    assert f.severity == "high" and not f.is_blocking(0.5)


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


def test_anova_on_groups_built_in_a_comprehension_reads_the_code():
    f = only(check("""
        df = pd.DataFrame({"site": np.repeat(list("ABC"), 12), "conc": rng.lognormal(1, 1, 36)})
        print(stats.f_oneway(*[g.conc.values for _, g in df.groupby("site")]))
    """))
    assert f.severity == "high" and f.confidence < 0.8
    assert f.evidence["values"]["generator"] == "skewed"


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
    f = only(RULE.check(evidence("""
        import numpy as np
        from scipy import stats
        rng = np.random.default_rng(0)
        a = rng.lognormal(3, 1.2, size=15); b = rng.lognormal(3.4, 1.2, size=15)
        print(stats.ttest_ind(a, b))
    """)))
    assert f.severity == "high" and f.confidence < 0.8


def test_code_only_pingouin_ttest():
    f = only(RULE.check(evidence("""
        import numpy as np
        import pingouin as pg
        x = np.random.default_rng(1).exponential(2.0, size=20)
        y = np.random.default_rng(2).exponential(3.0, size=20)
        pg.ttest(x, y)
    """)))
    assert f.severity == "high"


# -- sound twins -----------------------------------------------------------------------------

def test_sound_mann_whitney_on_skewed_data():
    assert check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.mannwhitneyu(a, b))
    """) == []


def test_sound_log_transformed_in_the_call():
    assert check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.ttest_ind(np.log(a), np.log(b)))
    """) == []


def test_sound_log_column_computed_before():
    assert_quiet(check("""
        df = pd.DataFrame({"group": np.repeat(["a", "b"], 20),
                           "income": rng.lognormal(10, 1, 40)})
        df["log_income"] = np.log(df.income)
        res = stats.ttest_ind(df.loc[df.group == "a", "log_income"],
                              df.loc[df.group == "b", "log_income"])
        print(res.pvalue)
    """))


def test_sound_normal_data_of_adequate_size():
    assert check("""
        x = rng.normal(100, 15, 40); y = rng.normal(108, 15, 40)
        print(stats.ttest_ind(x, y, equal_var=False))
    """) == []


def test_sound_large_groups_with_moderate_skew():
    assert check("""
        x = rng.gamma(4, 10, 400); y = rng.gamma(4, 11, 400)
        print(stats.ttest_ind(x, y, equal_var=False))
    """) == []


def test_sound_conversion_rates_are_binary():
    assert check("""
        x = rng.binomial(1, 0.03, 3000); y = rng.binomial(1, 0.04, 3000)
        print(stats.ttest_ind(x, y))
    """) == []


def test_sound_kruskal_in_a_comprehension():
    assert check("""
        df = pd.DataFrame({"site": np.repeat(list("ABC"), 12), "conc": rng.lognormal(1, 1, 36)})
        print(stats.kruskal(*[g.conc.values for _, g in df.groupby("site")]))
    """) == []


def test_sound_spearman_on_skewed_data():
    assert check("""
        spend = rng.pareto(1.5, 25) * 100
        visits = spend * 0.1 + rng.exponential(5, 25)
        print(stats.spearmanr(spend, visits))
    """) == []


def test_sound_permutation_method():
    assert check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        res = stats.ttest_ind(a, b, method=stats.PermutationMethod(n_resamples=999, rng=0))
        print(res.pvalue)
    """) == []


def test_sound_exact_permutation_test_on_tiny_groups():
    assert check("""
        vehicle = np.array([412.0, 388.0, 455.0, 430.0])
        compound = np.array([301.0, 365.0, 280.0, 342.0])
        res = stats.permutation_test((compound, vehicle), lambda a, b: np.mean(a) - np.mean(b),
                                     n_resamples=np.inf)
        print(res.pvalue)
    """) == []


def test_sound_code_only_large_generated_samples():
    assert RULE.check(evidence("""
        import numpy as np
        from scipy import stats
        rng = np.random.default_rng(0)
        a = rng.lognormal(0, 0.5, size=5000); b = rng.lognormal(0.1, 0.5, size=5000)
        print(stats.ttest_ind(a, b))
    """)) == []


def test_a_rank_test_alongside_lowers_the_finding():
    findings = check("""
        a = rng.lognormal(3, 1.2, 15); b = rng.lognormal(3.4, 1.2, 15)
        print(stats.ttest_ind(a, b), stats.mannwhitneyu(a, b))
    """)
    assert_quiet(findings)


@pytest.mark.parametrize("code", ["", "stats.ttest_ind(", "ttest_ind()", "stats.ttest_ind(*x)"])
def test_odd_code_never_raises(code):
    assert RULE.check(evidence(code)) == []


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
    return COUNTS_RULE.check(run_and_gather(code, COUNTS))


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
