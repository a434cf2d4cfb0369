"""multiple_comparisons: many tests, a raw significance threshold, no correction.

Flawed cells and their sound twins run in-process (`run_and_gather`) so the rule sees the
kernel's real facts (lengths of p-value collections, frames, fitted models)."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules.multiple_comparisons import uncorrected_multiple_tests as RULE
from tests import rule_helpers
from tests.rule_helpers import code_only, one, quiet, silent

RULE_ID = "multiple_comparisons.uncorrected"

EXPR = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(0)
expr = pd.DataFrame(rng.normal(size=(40, 20)), columns=[f"g{i}" for i in range(20)])
expr["group"] = np.repeat(["ctrl", "trt"], 20)
"""

AB = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(1)
n = 400
ab = pd.DataFrame({
    "segment": rng.choice(["us", "eu", "apac", "latam", "mea", "ca", "uk", "jp"], n),
    "variant": rng.choice(["A", "B"], n),
    "revenue": rng.gamma(2, 10, n),
})
"""


def check(code: str, setup: str = "") -> list[Finding]:
    return rule_helpers.run([RULE], code, setup)


def only(found: list[Finding]) -> Finding:
    """The rule's single finding (and nothing else)."""
    rule_helpers.only(found)
    return one(found, RULE_ID)


# -- flawed ----------------------------------------------------------------------------------

def test_gene_loop_with_series_filter_is_critical_and_blocking():
    f = only(check("""
        pvals = []
        for g in expr.columns[:-1]:
            t, p = stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                   expr.loc[expr.group == "trt", g])
            pvals.append(p)
        res = pd.Series(pvals, index=expr.columns[:-1])
        sig = res[res < 0.05]
        print(f"{len(sig)} significant genes")
    """, EXPR))
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert f.evidence["values"]["n_tests"] == 20
    assert f.evidence["values"]["alpha"] == 0.05
    assert 4 in f.lines and 8 in f.lines


def test_dict_comprehension_and_filtered_list():
    f = only(check("""
        genes = [c for c in expr.columns if c != "group"]
        a, b = expr[expr.group == "ctrl"], expr[expr.group == "trt"]
        pv = {g: stats.mannwhitneyu(a[g], b[g]).pvalue for g in genes}
        hits = [g for g, p in pv.items() if p < 0.05]
        print("significant:", hits)
    """, EXPR))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 20


def test_results_frame_with_star_markers():
    f = only(check("""
        rows = []
        for g in expr.columns.drop("group"):
            r = stats.ttest_ind(expr.loc[expr.group == "ctrl", g], expr.loc[expr.group == "trt", g])
            rows.append({"gene": g, "t": r.statistic, "p": r.pvalue})
        results = pd.DataFrame(rows)
        results["sig"] = np.where(results.p < 0.05, "*", "")
        results.sort_values("p").head(10)
    """, EXPR))
    assert f.severity == "critical" and f.confidence >= 0.85


def test_query_string_threshold():
    f = only(check("""
        rows = [{"gene": g, "p": stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                                 expr.loc[expr.group == "trt", g]).pvalue}
                for g in expr.columns[:-1]]
        table = pd.DataFrame(rows)
        print(table.query("p < 0.05"))
    """, EXPR))
    assert f.severity == "critical"


def test_pairwise_combinations_of_five_groups():
    f = only(check("""
        from itertools import combinations
        df = pd.DataFrame({"dose": np.repeat(list("ABCDE"), 12), "y": rng.normal(size=60)})
        for a, b in combinations(sorted(df.dose.unique()), 2):
            p = stats.ttest_ind(df[df.dose == a].y, df[df.dose == b].y).pvalue
            if p < 0.05:
                print(a, b, "significant", round(p, 4))
    """, EXPR))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 10


def test_triangular_correlation_loop_with_stars():
    f = only(check("""
        num = pd.DataFrame(rng.normal(size=(50, 6)), columns=list("abcdef"))
        cols = list(num.columns)
        for i, c1 in enumerate(cols):
            for c2 in cols[i + 1:]:
                r, p = stats.pearsonr(num[c1], num[c2])
                star = "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""
                print(f"{c1}-{c2}: r={r:.2f}{star}")
    """, EXPR))
    assert f.evidence["values"]["n_tests"] == 15 and f.severity == "critical"


def test_eight_segments_is_high_not_critical():
    f = only(check("""
        for seg, g in ab.groupby("segment"):
            res = stats.ttest_ind(g.loc[g.variant == "A", "revenue"],
                                  g.loc[g.variant == "B", "revenue"])
            flag = "significant" if res.pvalue < 0.05 else ""
            print(f"{seg:6s} p={res.pvalue:.3f} {flag}")
    """, AB))
    assert f.severity == "high" and f.evidence["values"]["n_tests"] == 8
    assert not f.is_blocking(0.8)


def test_six_separate_calls():
    f = only(check("""
        x = expr[expr.group == "ctrl"]; y = expr[expr.group == "trt"]
        p1 = stats.ttest_ind(x.g0, y.g0).pvalue
        p2 = stats.ttest_ind(x.g1, y.g1).pvalue
        p3 = stats.ttest_ind(x.g2, y.g2).pvalue
        p4 = stats.ttest_ind(x.g3, y.g3).pvalue
        p5 = stats.ttest_ind(x.g4, y.g4).pvalue
        p6 = stats.ttest_ind(x.g5, y.g5).pvalue
        for name, p in zip("abcdef", [p1, p2, p3, p4, p5, p6]):
            print(name, p, "*" if p < 0.05 else "")
    """, EXPR))
    assert f.severity == "high" and f.evidence["values"]["n_tests"] == 6


def test_helper_function_called_in_a_comprehension():
    f = only(check("""
        def compare(col):
            return stats.ttest_ind(expr.loc[expr.group == "ctrl", col],
                                   expr.loc[expr.group == "trt", col]).pvalue
        pvalues = pd.Series({c: compare(c) for c in expr.columns[:-1]})
        print(pvalues[pvalues < 0.05])
    """, EXPR))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 20


def test_apply_lambda_over_columns():
    f = only(check("""
        num = pd.DataFrame(rng.normal(size=(50, 15)))
        pv = num.apply(lambda col: stats.ttest_1samp(col, 0).pvalue)
        print("significant columns:", list(pv[pv < 0.05].index))
    """, EXPR))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 15


def test_ols_coefficients_screened_at_005():
    f = only(check("""
        import statsmodels.api as sm
        X = sm.add_constant(expr.drop(columns="group").iloc[:, :12])
        fit = sm.OLS(expr["g19"], X).fit()
        sig = fit.pvalues[fit.pvalues < 0.05]
        print("significant predictors:", list(sig.index))
    """, EXPR))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 12


def test_p_values_from_an_earlier_cell():
    f = only(check("""
        hits = gwas[gwas.pval < 5e-2]
        print(len(hits), "significant SNPs")
    """, EXPR + """
gwas = pd.DataFrame({"snp": [f"rs{i}" for i in range(300)], "pval": rng.uniform(size=300)})
"""))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 300


def test_alpha_variable_from_earlier_cell():
    f = only(check("""
        sig = [g for g in expr.columns[:-1]
               if stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                  expr.loc[expr.group == "trt", g]).pvalue < ALPHA]
        print(sig)
    """, EXPR + "ALPHA = 0.05\n"))
    assert f.severity == "critical" and f.evidence["values"]["alpha"] == 0.05


def test_code_only_literal_list_of_markers():
    f = only(code_only([RULE], """
        from scipy import stats
        markers = ["il6", "tnf", "crp", "il1b", "il10", "ifng", "il4", "il17", "ccl2",
                   "cxcl8", "vegf", "tgfb"]
        for m in markers:
            p = stats.ttest_ind(cases[m], controls[m]).pvalue
            if p < 0.05:
                print(m, "differs significantly", p)
    """))
    assert f.severity == "critical" and f.confidence == 0.85
    assert f.evidence["values"]["n_tests"] == 12


def test_unknown_loop_length_is_high_with_low_confidence():
    f = only(code_only([RULE], """
        from scipy import stats
        for col in feature_cols:
            p = stats.mannwhitneyu(a[col], b[col]).pvalue
            if p < 0.05:
                print(col, "significant")
    """))
    assert f.severity == "high" and f.confidence < 0.8
    assert f.evidence["values"]["n_tests"] is None


GENES = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(2024)
genes = [f"G{i}" for i in range(300)]
tumor = pd.DataFrame(rng.normal(8, 1.2, (24, 300)), columns=genes)
normal = pd.DataFrame(rng.normal(8, 1.2, (24, 300)), columns=genes)
"""


def test_vectorised_test_over_300_columns():
    f = only(check("""
        t, p = stats.ttest_ind(tumor, normal)
        de = np.array(genes)[p < 0.05]
        print(len(de), "differentially expressed genes")
    """, GENES))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 300


def test_vectorised_result_object():
    f = only(check("""
        res = stats.ttest_ind(tumor, normal)
        print((res.pvalue < 0.05).sum(), "significant genes")
    """, GENES))
    assert f.evidence["values"]["n_tests"] == 300


def test_p_value_matrix_from_corr_with_a_callable():
    f = only(check("""
        sub = tumor.iloc[:, :8]
        pmat = sub.corr(method=lambda x, y: stats.pearsonr(x, y)[1])
        print((pmat < 0.05).sum().sum() // 2, "significant correlations")
    """, GENES))
    assert f.evidence["values"]["n_tests"] == 28


def test_series_lt_method_threshold():
    f = only(check("""
        rows = [{"gene": g, "p_value": stats.ttest_ind(tumor[g], normal[g]).pvalue}
                for g in genes[:40]]
        res = pd.DataFrame(rows)
        res["significant"] = res.p_value.lt(0.05)
        print(res[res.significant])
    """, GENES))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 40


def test_groupby_apply_lambda():
    f = only(check("""
        long = tumor.iloc[:, :12].melt(var_name="gene", value_name="x")
        long["grp"] = np.tile(["a", "b"], len(long) // 2)
        pv = long.groupby("gene").apply(
            lambda g: stats.ttest_ind(g[g.grp == "a"].x, g[g.grp == "b"].x).pvalue)
        print(pv[pv < 0.05])
    """, GENES))
    assert f.evidence["values"]["n_tests"] == 12


WIDE = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.api as sm
rng = np.random.default_rng(9)
n = 300
df = pd.DataFrame(rng.normal(size=(n, 14)), columns=[f"x{i}" for i in range(14)])
df["group"] = rng.choice(["a", "b"], n)
df["y"] = (rng.random(n) < 0.3).astype(int)
"""


def test_loop_over_select_dtypes_columns():
    f = only(check("""
        for col in df.select_dtypes("number").columns:
            p = stats.ttest_ind(df.loc[df.group == "a", col], df.loc[df.group == "b", col]).pvalue
            if p < 0.05:
                print(col, "significant", round(p, 4))
    """, WIDE))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 15


def test_logit_coefficient_table_filtered():
    f = only(check("""
        X = sm.add_constant(df[[f"x{i}" for i in range(14)]])
        fit = sm.Logit(df["y"], X).fit(disp=0)
        tbl = fit.summary2().tables[1]
        print(tbl[tbl["P>|z|"] < 0.05])
    """, WIDE))
    assert f.severity == "critical"


def test_sound_vectorised_with_fdr():
    silent(check("""
        res = stats.ttest_ind(tumor, normal)
        q = stats.false_discovery_control(res.pvalue)
        print((q < 0.05).sum(), "genes at FDR 5%")
    """, GENES))


# -- one fitted model per outcome/feature, p-values read off each fit ---------------------------

MODELS = """
import numpy as np, pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(5)
probes = [f"cg{i:04d}" for i in range(30)]
methyl = pd.DataFrame(rng.normal(size=(120, 30)), columns=probes)
methyl["age"] = 50 + 4 * methyl.cg0003 + rng.normal(0, 8, 120)
users = pd.DataFrame(rng.normal(size=(300, 12)), columns=[f"f{i}" for i in range(12)])
users["tenure"] = rng.integers(1, 60, 300)
users["churn"] = (rng.random(300) < 0.3).astype(int)
features = [f"f{i}" for i in range(12)]
sales = pd.DataFrame({"region": np.repeat([f"r{i}" for i in range(15)], 40),
                      "price": rng.uniform(1, 5, 600)})
sales["units"] = 50 - 3 * sales.price + rng.normal(0, 5, 600)
outcomes = ["sleep", "mood", "pain", "fatigue", "appetite", "focus", "anxiety", "energy"]
trial = pd.DataFrame(rng.normal(size=(90, 8)), columns=outcomes)
trial["arm"] = np.repeat(["placebo", "low", "high"], 30)
"""


def test_array_api_fits_in_a_comprehension_counted_with_zip():
    f = only(check("""
        ps = [sm.OLS(methyl.age, sm.add_constant(methyl[c])).fit().pvalues[c] for c in probes]
        hits = [c for c, p in zip(probes, ps) if p < 0.05]
        print(f"{len(hits)} CpG sites associated with age: {hits}")
    """, MODELS))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 30


def test_logit_fits_in_a_helper_collected_in_a_series():
    f = only(check("""
        def churn_p(col):
            res = smf.logit(f"churn ~ {col} + tenure", data=users).fit(disp=0)
            return res.pvalues[col]

        pvals = pd.Series({c: churn_p(c) for c in features})
        print(pvals[pvals.lt(0.05)].round(4))
    """, MODELS))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 12


def test_summary_table_p_column_per_region_read_by_a_query():
    f = only(check("""
        rows = []
        for region, sub in sales.groupby("region"):
            tab = smf.ols("units ~ price", data=sub).fit().summary2().tables[1]
            rows.append((region, tab.loc["price", "Coef."], tab.loc["price", "P>|t|"]))
        out = pd.DataFrame(rows, columns=["region", "slope", "p"])
        print(out.query("p < 0.05"))
    """, MODELS))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 15
    assert f.lines == [5, 7]  # where "P>|t|" is read, and the query


def test_omnibus_f_pvalue_per_outcome_read_twice_counts_once():
    f = only(check("""
        for outcome in outcomes:
            fit = smf.ols(f"{outcome} ~ C(arm)", data=trial).fit()
            if fit.f_pvalue < 0.05:
                print(outcome, "differs between arms, p =", round(fit.f_pvalue, 4))
    """, MODELS))
    assert f.severity == "high" and f.evidence["values"]["n_tests"] == 8


def test_anova_table_pr_f_per_outcome():
    f = only(check("""
        import statsmodels.api as sm
        table = {}
        for o in outcomes:
            aov = sm.stats.anova_lm(smf.ols(f"{o} ~ C(arm)", data=trial).fit())
            table[o] = aov.loc["C(arm)", "PR(>F)"]
        hits = {o: p for o, p in table.items() if p < 0.05}
        print("outcomes affected by the arm:", hits)
    """, MODELS))
    assert f.severity == "high" and f.evidence["values"]["n_tests"] == 8


def test_sound_fdr_on_the_comprehension_of_fits():
    silent(check("""
        from statsmodels.stats.multitest import fdrcorrection
        ps = [sm.OLS(methyl.age, sm.add_constant(methyl[c])).fit().pvalues[c] for c in probes]
        reject, q = fdrcorrection(ps, alpha=0.05)
        print([c for c, r in zip(probes, reject) if r])
    """, MODELS))


def test_sound_bonferroni_level_in_the_helper_idiom():
    silent(check("""
        def churn_p(col):
            res = smf.logit(f"churn ~ {col} + tenure", data=users).fit(disp=0)
            return res.pvalues[col]

        pvals = pd.Series({c: churn_p(c) for c in features})
        print(pvals[pvals.lt(0.05 / len(features))].round(4))
    """, MODELS))


def test_sound_holm_over_omnibus_tests():
    silent(check("""
        from statsmodels.stats.multitest import multipletests
        fp = {o: smf.ols(f"{o} ~ C(arm)", data=trial).fit().f_pvalue for o in outcomes}
        reject, p_holm, _, _ = multipletests(list(fp.values()), method="holm")
        for o, r, p in zip(fp, reject, p_holm):
            print(o, "differs" if r else "no difference", round(p, 4))
    """, MODELS))


def test_sound_one_model_one_prespecified_coefficient():
    silent(check("""
        fit = smf.ols("age ~ cg0003", data=methyl).fit()
        print(f"slope {fit.params['cg0003']:.2f}, p = {fit.pvalues['cg0003']:.3g}")
        print("significant" if fit.pvalues["cg0003"] < 0.05 else "not significant")
    """, MODELS))


# -- sound twins -----------------------------------------------------------------------------

def test_sound_fdr_with_multipletests():
    quiet(check("""
        from statsmodels.stats.multitest import multipletests
        pvals = []
        for g in expr.columns[:-1]:
            t, p = stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                   expr.loc[expr.group == "trt", g])
            pvals.append(p)
        reject, padj, _, _ = multipletests(pvals, method="fdr_bh")
        print(f"{reject.sum()} significant genes after FDR")
    """, EXPR))


def test_sound_bonferroni_by_division():
    silent(check("""
        rows = []
        for g in expr.columns.drop("group"):
            r = stats.ttest_ind(expr.loc[expr.group == "ctrl", g], expr.loc[expr.group == "trt", g])
            rows.append({"gene": g, "p": r.pvalue})
        results = pd.DataFrame(rows)
        alpha = 0.05 / len(results)
        results["sig"] = results.p < alpha
        print(results.sort_values("p").head(10))
    """, EXPR))


def test_sound_bonferroni_by_multiplying_p():
    silent(check("""
        pvals = np.array([stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                          expr.loc[expr.group == "trt", g]).pvalue
                          for g in expr.columns[:-1]])
        p_bonf = np.minimum(pvals * len(pvals), 1)
        print((p_bonf < 0.05).sum(), "significant")
    """, EXPR))


def test_sound_false_discovery_control():
    silent(check("""
        num = pd.DataFrame(rng.normal(size=(50, 15)))
        pv = num.apply(lambda col: stats.ttest_1samp(col, 0).pvalue)
        q = stats.false_discovery_control(pv)
        print("significant columns:", list(pv.index[q < 0.05]))
    """, EXPR))


def test_sound_tukey_hsd():
    silent(check("""
        from statsmodels.stats.multicomp import pairwise_tukeyhsd
        df = pd.DataFrame({"dose": np.repeat(list("ABCDE"), 12), "y": rng.normal(size=60)})
        print(pairwise_tukeyhsd(df.y, df.dose, alpha=0.05))
    """, EXPR))


def test_sound_manual_holm():
    silent(check("""
        ps = []
        for seg, g in ab.groupby("segment"):
            ps.append(stats.ttest_ind(g.loc[g.variant == "A", "revenue"],
                                      g.loc[g.variant == "B", "revenue"]).pvalue)
        ps = np.array(ps); order = np.argsort(ps); m = len(ps)
        adj = np.maximum.accumulate(ps[order] * (m - np.arange(m)))
        print((adj < 0.05).sum(), "significant after Holm")
    """, AB))


def test_sound_holm_column_in_results_table():
    silent(check("""
        from statsmodels.stats.multitest import multipletests
        segs, ps = [], []
        for seg, g in ab.groupby("segment"):
            res = stats.ttest_ind(g.loc[g.variant == "A", "revenue"],
                                  g.loc[g.variant == "B", "revenue"])
            segs.append(seg); ps.append(res.pvalue)
        out = pd.DataFrame({"segment": segs, "p": ps})
        out["p_holm"] = multipletests(out.p, method="holm")[1]
        print(out[out.p_holm < 0.05])
    """, AB))


def test_sound_power_simulation():
    silent(check("""
        rej = 0
        for _ in range(300):
            a = rng.normal(size=20); b = rng.normal(0.5, 1, size=20)
            rej += stats.ttest_ind(a, b).pvalue < 0.05
        print("power", rej / 300)
    """, EXPR))


def test_sound_bootstrap_comprehension():
    silent(check("""
        boot = [stats.ttest_ind(rng.choice(ab.revenue, 50), rng.choice(ab.revenue, 50)).pvalue
                for _ in range(200)]
        print("type I error", np.mean(np.array(boot) < 0.05))
    """, AB))


def test_sound_single_test():
    silent(check("""
        r = stats.ttest_ind(expr.loc[expr.group == "ctrl", "g0"],
                            expr.loc[expr.group == "trt", "g0"])
        print("significant" if r.pvalue < 0.05 else "not significant", r.pvalue)
    """, EXPR))


def test_sound_single_test_on_samples_within_0_and_1():
    silent(check("""
        a = rng.uniform(size=30); b = rng.uniform(0.1, 1, size=30)
        t, p = stats.ttest_ind(a, b)
        print("significant" if p < 0.05 else "ns")
    """, EXPR))


def test_sound_three_planned_tests():
    silent(check("""
        a, b = ab[ab.variant == "A"], ab[ab.variant == "B"]
        for metric in ["revenue"]:
            for seg in ["us", "eu", "jp"]:
                p = stats.mannwhitneyu(a[a.segment == seg][metric],
                                       b[b.segment == seg][metric]).pvalue
                print(seg, "significant" if p < 0.05 else "ns")
    """, AB))


def test_sound_effect_sizes_without_p_values():
    silent(check("""
        out = {}
        for seg, g in ab.groupby("segment"):
            out[seg] = (g.loc[g.variant == "B", "revenue"].mean()
                        - g.loc[g.variant == "A", "revenue"].mean())
        print(pd.Series(out).round(2))
    """, AB))


def test_sound_adjusted_column_from_earlier_cell():
    silent(check("""
        hits = gwas[gwas.padj < 0.05]
        print(len(hits), "significant SNPs")
    """, EXPR + """
from statsmodels.stats.multitest import multipletests
gwas = pd.DataFrame({"snp": [f"rs{i}" for i in range(300)], "pval": rng.uniform(size=300)})
gwas["padj"] = multipletests(gwas.pval, method="fdr_bh")[1]
"""))


def test_sound_corrected_alpha_from_earlier_cell():
    silent(check("""
        sig = [g for g in expr.columns[:-1]
               if stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                  expr.loc[expr.group == "trt", g]).pvalue < alpha]
        print(sig)
    """, EXPR + "alpha = 0.05 / 20\n"))


def test_many_raw_p_values_without_a_threshold_are_only_medium():
    findings = check("""
        pvals = pd.Series({g: stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                              expr.loc[expr.group == "trt", g]).pvalue
                           for g in expr.columns[:-1]})
        print(pvals.sort_values().round(4))
    """, EXPR)
    quiet(findings)
    assert [f.severity for f in findings] == ["medium"]


@pytest.mark.parametrize("code", [
    "", "x = (", "for : in", "p < 0.05", "r.pvalues", "for c in x:\n    t['P>|t|']",
    "q.query('p < ')\nfor c in cs:\n    m.fit().f_pvalue", "t['P>|t|'] < 0.05"])
def test_odd_code_never_raises(code):
    silent(code_only([RULE], code))


# -- p-values read off a distribution's tail (holdout4 round) -----------------------------------

COUNTS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(12)
genes = pd.DataFrame({"gene": [f"G{i}" for i in range(80)],
                      "expected": rng.uniform(40, 400, 80)})
genes["observed"] = rng.poisson(genes.expected)
stores = pd.DataFrame({"store": [f"S{i}" for i in range(30)], "n": rng.integers(80, 300, 30)})
stores["wins"] = rng.binomial(stores.n, 0.5)
"""


def test_vectorised_normal_tail_p_values_over_an_array_are_flagged() -> None:
    f = only(check("""
z = (genes.observed - genes.expected) / np.sqrt(genes.expected)
p = 2 * stats.norm.sf(np.abs(z))
hits = genes[p < 0.05]
print(len(hits), "genes differ")
""", COUNTS))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 80


def test_binomial_tail_in_a_row_loop_is_flagged() -> None:
    f = only(check("""
flagged = []
for r in stores.itertuples():
    p_val = stats.binom.sf(r.wins - 1, r.n, 0.5)
    if p_val < 0.05:
        flagged.append(r.store)
print("stores that beat a coin flip:", flagged)
""", COUNTS))
    assert f.evidence["values"]["n_tests"] == 30


def test_tail_p_values_corrected_single_or_bonferroni_stay_quiet() -> None:
    silent(check("""
from statsmodels.stats.multitest import multipletests
genes["p"] = 2 * stats.norm.sf(np.abs((genes.observed - genes.expected) / np.sqrt(genes.expected)))
reject, genes["p_adj"], _, _ = multipletests(genes.p, method="fdr_bh")
print(genes[reject])
""", COUNTS))
    silent(check("""
total_obs, total_exp = genes.observed.sum(), genes.expected.sum()
p = stats.poisson.sf(total_obs - 1, total_exp)
print("excess overall:", p < 0.05)
""", COUNTS))
    silent(check("""
genes["p"] = stats.poisson.sf(genes.observed - 1, genes.expected)
print(genes[genes.p < 0.05 / len(genes)])
""", COUNTS))


def test_tail_p_value_from_a_helper_applied_per_row_is_flagged() -> None:
    f = only(check("""
def excess_p(row):
    return stats.poisson.sf(row.observed - 1, row.expected)

genes["p_excess"] = genes.apply(excess_p, axis=1)
print(genes.query("p_excess < 0.01").gene.tolist())
""", COUNTS))
    assert f.evidence["values"]["n_tests"] == 80


def test_a_test_inside_pipe_runs_once_not_in_a_loop() -> None:
    # `.pipe(lambda d: ...)` calls its function once on the whole frame: one test, not a
    # test per group as in `groupby(...).apply(lambda g: ...)`
    setup = """
        import numpy as np
        import pandas as pd
        rng = np.random.default_rng(3)
        visits = pd.DataFrame({"dose": rng.normal(5, 1, 600), "g": rng.integers(0, 20, 600)})
        visits["bp"] = 120 - 2 * visits.dose + rng.normal(0, 3, 600)
    """
    once = rule_helpers.run([RULE], """
        from scipy.stats import pearsonr
        res = (visits.assign(log_dose=np.log(visits.dose))
               .pipe(lambda d: pearsonr(d.log_dose, d.bp)))
        p_txt = "< 0.05" if res.pvalue < 0.05 else f"= {res.pvalue:.2f}"
        print(f"r = {res.statistic:.2f}, p {p_txt}")
    """, setup)
    assert not [f for f in once if f.rule_id == "multiple_comparisons.uncorrected"], once
    per_group = rule_helpers.run([RULE], """
        from scipy.stats import pearsonr
        ps = visits.groupby("g").apply(lambda d: pearsonr(d.dose, d.bp).pvalue)
        print(ps[ps < 0.05])
    """, setup)
    assert [f for f in per_group if f.rule_id == "multiple_comparisons.uncorrected"], per_group


# -- a p-value screen that picks a model's inputs (univariate filter feature selection) ---------
# The screen runs on the training rows only and chooses what the model is fitted on; the claim
# is the model's held-out score, which the number of screening tests does not invalidate.

CHURN = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, mean_squared_error
from sklearn.model_selection import cross_val_score, train_test_split
rng = np.random.default_rng(11)
n, k = 240, 60
usage = pd.DataFrame(rng.normal(size=(n, k)), columns=[f"f{i:02d}" for i in range(k)])
churned = (usage.f03 + usage.f17 + rng.normal(0, 1, n) > 0).astype(int)
spend = 50 + 4 * usage.f05 - 3 * usage.f40 + rng.normal(0, 2, n)
U_tr, U_te, c_tr, c_te = train_test_split(usage, churned, test_size=0.25, random_state=0)
"""


def test_loop_screen_on_training_rows_then_classifier_is_silent():
    silent(check("""
        chosen = []
        for col in U_tr.columns:
            res = stats.ttest_ind(U_tr.loc[c_tr == 1, col], U_tr.loc[c_tr == 0, col])
            if res.pvalue < 0.05:
                chosen.append(col)
        clf = LogisticRegression(max_iter=500).fit(U_tr[chosen], c_tr)
        acc = accuracy_score(c_te, clf.predict(U_te[chosen]))
        print(f"{len(chosen)} features, test accuracy {acc:.3f}")
    """, CHURN))


def test_series_screen_joined_into_a_formula_is_silent():
    silent(check("""
        train = usage.iloc[:180].assign(spend=spend.iloc[:180])
        test = usage.iloc[180:].assign(spend=spend.iloc[180:])
        pv = pd.Series({c: stats.spearmanr(train[c], train.spend).pvalue for c in usage.columns})
        picked = pv[pv <= 0.01].index
        fit = smf.ols("spend ~ " + " + ".join(picked), data=train).fit()
        rmse = mean_squared_error(test.spend, fit.predict(test)) ** 0.5
        print(f"held-out RMSE {rmse:.2f} with {len(picked)} predictors")
    """, CHURN))


def test_numpy_mask_screen_then_cross_validated_ridge_is_silent():
    silent(check("""
        X, y = U_tr.to_numpy(), spend.loc[U_tr.index].to_numpy()
        def p_of(j):
            return stats.pearsonr(X[:, j], y)[1]
        pvals = np.array([p_of(j) for j in range(X.shape[1])])
        mask = pvals < 0.01
        cv = cross_val_score(Ridge(alpha=1.0), X[:, mask], y, cv=5, scoring="r2")
        print(f"{mask.sum()} columns kept, CV R2 = {cv.mean():.3f}")
    """, CHURN))


def test_a_screen_whose_picks_are_called_significant_is_only_a_note():
    f = only(check("""
        pvals = {c: stats.pearsonr(U_tr[c], c_tr)[1] for c in U_tr.columns}
        keep = [c for c, p in pvals.items() if p < 0.05]
        clf = LogisticRegression(max_iter=500).fit(U_tr[keep], c_tr)
        print("significant predictors of churn:", keep)
        print("test accuracy", accuracy_score(c_te, clf.predict(U_te[keep])))
    """, CHURN))
    assert f.severity == "medium" and not f.is_blocking(0.8)


def test_significant_features_reported_without_any_model_stay_critical():
    f = only(check("""
        pvals = {c: stats.pearsonr(U_tr[c], c_tr)[1] for c in U_tr.columns}
        keep = [c for c, p in pvals.items() if p < 0.05]
        print("usage features associated with churn (p < 0.05):", keep)
    """, CHURN))
    assert f.severity == "critical"


def test_per_feature_model_fits_screened_then_reported_stay_critical():
    f = only(check("""
        data = U_tr.assign(churned=c_tr)
        hits = []
        for col in U_tr.columns:
            fit = smf.logit(f"churned ~ {col}", data=data).fit(disp=0)
            if fit.pvalues[col] < 0.05:
                hits.append(col)
        print("risk factors:", hits)
    """, CHURN))
    assert f.severity == "critical"


# -- "not significant" is not a claim of significance ------------------------------------------

_WORDING_CELLS = [
    # scipy in a dict comprehension, the table of p-values printed with a verdict
    ("""
        pv = pd.Series({g: stats.ttest_ind(expr.loc[expr.group == "ctrl", g],
                                           expr.loc[expr.group == "trt", g]).pvalue
                        for g in expr.columns[:-1]})
        print(pv.round(3))
        print("{verdict}")
     """, EXPR),
    # a loop over segments with pandas, Mann-Whitney per segment
    ("""
        rows = []
        for seg, d in ab.groupby("segment"):
            u, p = stats.mannwhitneyu(d.loc[d.variant == "A", "revenue"],
                                      d.loc[d.variant == "B", "revenue"])
            rows.append((seg, p))
        table = pd.DataFrame(rows, columns=["segment", "p"])
        print(table)
        print("{verdict}")
     """, AB),
    # statsmodels: one regression per outcome, each coefficient's p-value kept
    ("""
        import statsmodels.formula.api as smf
        d = expr.assign(trt=(expr.group == "trt").astype(int))
        pvals = {}
        for g in expr.columns[:-1]:
            pvals[g] = smf.ols(f"{g} ~ trt", data=d).fit().pvalues["trt"]
        print(pd.Series(pvals).sort_values().head(10))
        print("{verdict}")
     """, EXPR),
]


@pytest.mark.parametrize("code, setup", _WORDING_CELLS)
@pytest.mark.parametrize("verdict", [
    "differences are not significant",
    "all non-significant at the 5% level",
    "no significant effect in any group",
    "the treatment isn't statistically significant anywhere",
    "nothing is insignificant enough to drop",
])
def test_negated_significance_wording_is_not_a_claim(code: str, setup: str, verdict: str):
    found = check(code.replace("{verdict}", verdict), setup)
    quiet(found)


@pytest.mark.parametrize("code, setup", _WORDING_CELLS)
def test_positive_significance_wording_is_a_claim(code: str, setup: str):
    f = one(check(code.replace("{verdict}", "the top rows are significant"), setup), RULE_ID)
    assert f.severity in ("high", "critical")


# -- a fixed level already strict enough for the family (holdout13: 6 associations at 0.01) --
# n x alpha <= 0.05 is Bonferroni's own bound: quiet. Up to ~7.5% family-wise: a medium note.
# The same cells at 0.05 stay flagged.

STORES = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats
rng = np.random.default_rng(7)
n = 300
stores = pd.DataFrame({f"x{i}": rng.normal(size=n) for i in range(6)})
stores["region"] = rng.choice(["n", "s", "e", "w"], n)
stores["sales"] = 0.3 * stores.x0 + rng.normal(size=n)
"""


@pytest.mark.parametrize("k", [5, 6])
@pytest.mark.parametrize("template", [
    # scipy in a loop, a list of dicts, a flag column
    """
rows = []
for c in [f"x{{i}}" for i in range({k})]:
    rho, p = stats.spearmanr(stores[c], stores.sales)
    rows.append({{"factor": c, "rho": rho, "p": p}})
tab = pd.DataFrame(rows)
tab["driver"] = np.where(tab.p < {alpha}, "yes", "no")
print(tab.round(3))
""",
    # a comprehension and a filter of the result
    """
cols = [f"x{{i}}" for i in range({k})]
ps = pd.Series({{c: stats.pearsonr(stores[c], stores.sales)[1] for c in cols}})
print("associated:", list(ps[ps < {alpha}].index))
""",
    # a fitted model's coefficient p-values, filtered as a vector
    """
fit = smf.ols("sales ~ " + " + ".join(f"x{{i}}" for i in range({k})), data=stores).fit()
pv = fit.pvalues.drop("Intercept")
print("significant:", fit.params[pv.index[pv < {alpha}]].round(3).to_dict())
""",
])
def test_a_fixed_level_strict_for_the_family_is_not_a_blocker(template, k):
    strict = check(template.format(k=k, alpha=0.01), STORES)
    if k * 0.01 <= 0.05:
        assert not [f for f in strict if f.rule_id == RULE_ID]
    else:
        assert all(f.severity == "medium" for f in strict if f.rule_id == RULE_ID)
    loose = check(template.format(k=k, alpha=0.05), STORES)
    assert one(loose, RULE_ID).severity in ("high", "critical")  # 23-26% family-wise


def test_a_strict_level_over_a_large_family_is_still_flagged():
    f = one(check("""
pv = pd.Series([stats.mannwhitneyu(stores.loc[stores.region == r, c],
                                   stores.loc[stores.region != r, c]).pvalue
                for r in "nsew" for c in stores.columns[:6]])
print((pv < 0.01).sum(), "hits")
""", STORES), RULE_ID)
    assert f.severity in ("high", "critical") and f.evidence["values"]["n_tests"] >= 24


# -- a results table with covariate-adjusted effects next to raw p-values ---------------------
# "adj_diff" / "adjusted OR" / "effect_adj" name an adjusted *effect*, not an adjusted p-value:
# the table is still read at a raw 0.05.

SOIL = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(7)
n = 150
plots = pd.DataFrame({"tillage": rng.choice(["none", "plough"], n),
                      "rain": rng.normal(600, 80, n)})
traits = [f"trait{i}" for i in range(11)]
for t in traits:
    plots[t] = 0.01 * plots.rain + rng.normal(0, 1, n)
"""

ADJUSTED_EFFECT_TABLES = [
    # statsmodels formula per outcome, rows of dicts, boolean filter on the frame
    ("""
        out = []
        for t in traits:
            m = smf.ols(f"{t} ~ tillage + rain", data=plots).fit()
            out.append({"trait": t, "adj_diff": m.params["tillage[T.plough]"],
                        "p": m.pvalues["tillage[T.plough]"]})
        tab = pd.DataFrame(out).set_index("trait")
        FIX
        print("tillage changes:", list(tab.index[tab.COL < 0.05]))
    """, "p"),
    # a statsmodels summary table read per outcome in a helper, a list comprehension, query()
    ("""
        def row(t):
            tbl = smf.ols(f"{t} ~ tillage + rain", data=plots).fit().summary2().tables[1]
            return tbl.loc["tillage[T.plough]", "Coef."], tbl.loc["tillage[T.plough]", "P>|t|"]
        tab = pd.DataFrame([row(t) for t in traits], index=traits,
                           columns=["effect_adj", "pval"])
        FIX
        print(tab.query("COL < 0.05"))
    """, "pval"),
    # a helper returning one Series per outcome, concatenated; np.where flags
    ("""
        def effect(t):
            m = smf.ols(f"{t} ~ tillage + rain", data=plots).fit()
            return pd.Series({"Adjusted mean diff": m.params.iloc[1], "p": m.pvalues.iloc[1]})
        tab = pd.DataFrame({t: effect(t) for t in traits}).T
        FIX
        tab["flag"] = np.where(tab.COL < 0.05, "*", "")
        print(tab)
    """, "p"),
]


@pytest.mark.parametrize(("template", "col"), ADJUSTED_EFFECT_TABLES)
def test_adjusted_effect_column_is_not_an_adjusted_p_value(template: str, col: str):
    f = one(check(template.replace("FIX", "").replace("COL", col), SOIL), RULE_ID)
    assert f.severity in ("critical", "high") and "11 tests" in f.explanation


@pytest.mark.parametrize(("template", "col"), ADJUSTED_EFFECT_TABLES)
def test_adjusted_effect_table_with_holm_is_silent(template: str, col: str):
    fix = ("from statsmodels.stats.multitest import multipletests\n"
           f"        tab['p_holm'] = multipletests(tab['{col}'], method='holm')[1]")
    silent(check(template.replace("FIX", fix).replace("COL", "p_holm"), SOIL))


# -- one planned coefficient of a model with many terms ----------------------------------------

PANEL = """
import numpy as np, pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(11)
n = 900
clinics = pd.DataFrame({
    "site": rng.choice([f"s{i}" for i in range(25)], n),
    "month": rng.integers(1, 13, n),
    "reform": rng.integers(0, 2, n),
    "after": rng.integers(0, 2, n),
})
clinics["wait"] = 30 - 3 * clinics.reform * clinics.after + rng.normal(0, 5, n)
crops = pd.DataFrame(rng.normal(size=(200, 15)), columns=[f"soil{i}" for i in range(15)])
crops["nitrogen"] = rng.uniform(0, 100, 200)
crops["yield_t"] = 2 + 0.02 * crops.nitrogen + rng.normal(0, 1, 200)
crops["lodged"] = (rng.random(200) < 0.2).astype(int)
"""


def test_sound_formula_fixed_effects_one_named_interaction():
    silent(check("""
        fit = smf.ols("wait ~ reform * after + C(site) + C(month)", data=clinics).fit()
        p = fit.pvalues["reform:after"]
        print(f"reform effect {fit.params['reform:after']:.2f} min, p = {p:.3g}")
        print("reform cut waits" if fit.pvalues["reform:after"] < 0.05 else "no evidence")
    """, PANEL))


def test_sound_array_fit_one_position_with_iloc():
    silent(check("""
        X = sm.add_constant(crops[["nitrogen"] + [f"soil{i}" for i in range(15)]])
        res = sm.OLS(crops.yield_t, X).fit()
        if res.pvalues.iloc[1] < 0.05:
            print("nitrogen raises yield:", round(res.params.iloc[1], 3))
    """, PANEL))


def test_sound_logit_one_coefficient_through_a_named_term():
    silent(check("""
        term = "nitrogen"
        m = smf.logit("lodged ~ nitrogen + " + " + ".join(f"soil{i}" for i in range(15)),
                      data=crops).fit(disp=0)
        verdict = "significant" if m.pvalues.loc[term] < 0.05 else "not significant"
        print(term, verdict, round(m.pvalues.get(term), 4))
    """, PANEL))


def test_whole_coefficient_vector_screened_is_still_a_family():
    f = only(check("""
        fit = smf.ols("wait ~ reform * after + C(site) + C(month)", data=clinics).fit()
        print("significant terms:", list(fit.pvalues[fit.pvalues < 0.05].index))
    """, PANEL))
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] > 30


def test_many_named_coefficients_of_one_model_are_a_family():
    f = one(check("""
        res = smf.ols("yield_t ~ " + " + ".join(crops.columns[:15]), data=crops).fit()
        for term in crops.columns[:15]:
            if res.pvalues[term] < 0.05:
                print(term, "affects yield")
    """, PANEL), RULE_ID)
    assert f.severity in ("critical", "high")


# -- adjusted p-values named by their method: p_BY, pBH, p-corr (pingouin), p_hommel ----------

TAXA = """
import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests
rng = np.random.default_rng(12)
rows = []
for i in range(60):
    grazed, ungrazed = rng.poisson(20, 12), rng.poisson(21, 12)
    rows.append({"taxon": f"otu{i}", "p": stats.mannwhitneyu(grazed, ungrazed).pvalue})
tab = pd.DataFrame(rows)
"""

_BY_METHOD = {"p_BY": "fdr_by", "pBH": "fdr_bh", "p-corr": "holm", "p_hommel": "hommel"}


@pytest.mark.parametrize("claim", [
    'hits = tab[tab["COL"] < 0.05]\nprint(len(hits), "taxa differ")\n',
    'hits = [r["taxon"] for _, r in tab.iterrows() if r["COL"] <= 0.05]\nprint(hits)\n',
    'sig = np.flatnonzero(tab["COL"].to_numpy() < 0.05)\nprint(tab.taxon.iloc[sig])\n',
])
@pytest.mark.parametrize("col", list(_BY_METHOD))
def test_adjusted_column_named_by_its_method_is_a_correction(claim: str, col: str):
    adjusted = TAXA + f'tab["{col}"] = multipletests(tab.p, method="{_BY_METHOD[col]}")[1]\n'
    silent(check(claim.replace("COL", col), adjusted))
    # the same claim on the raw p-values of a table without an adjusted column is flagged
    f = one(check(claim.replace("COL", "p"), TAXA), RULE_ID)
    assert f.severity in ("high", "critical")


@pytest.mark.parametrize("col", list(_BY_METHOD))
def test_query_on_an_adjusted_column_named_by_its_method_is_silent(col: str):
    silent(check(f'print(tab.query("`{col}` < 0.05").taxon.tolist())\n',
                 TAXA + f'tab["{col}"] = multipletests(tab.p, method="{_BY_METHOD[col]}")[1]\n'))


@pytest.mark.parametrize("col", ["p_by_site", "p_correlation"])
def test_raw_p_columns_that_merely_contain_a_method_word_are_not_corrections(col: str):
    f = one(check(f'hits = tab[tab["{col}"] < 0.05]\nprint(len(hits))\n',
                  TAXA + f'tab["{col}"] = tab.p\n'), RULE_ID)
    assert f.severity in ("high", "critical")


# -- a screen that ranks by p-value and feeds a model; the threshold is only counted ----------
# `top = np.argsort(p)[:k]` (or `nsmallest`, `sorted(key=...)`) chooses the model's inputs and
# the cell reports the model's held-out score; `(p < .01).sum()` printed beside it describes
# the screen, it is not a list of discoveries. The same count reported with no model fed by
# the p-values is the family of findings and stays critical.

SPECTRA = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
rng = np.random.default_rng(23)
n_lots, n_bands = 120, 150
absorb = rng.normal(size=(n_lots, n_bands))
grade = (absorb[:, 7] - absorb[:, 88] + rng.normal(0, 1, n_lots) > 0).astype(int)
bands = pd.DataFrame(absorb, columns=[f"nm{400 + 2 * i}" for i in range(n_bands)])
moisture = 12 + 0.8 * bands.nm414 + rng.normal(0, 0.5, n_lots)
"""


def test_fold_loop_ranked_screen_with_counted_threshold_is_silent():
    silent(check("""
        kf = KFold(n_splits=5, shuffle=True, random_state=3)
        scores, n_hits = [], []
        for tr, te in kf.split(absorb):
            A = absorb[tr]
            _, p = stats.mannwhitneyu(A[grade[tr] == 1], A[grade[tr] == 0], axis=0)
            n_hits.append((p < 0.01).sum())
            best = np.argsort(p)[:15]
            knn = KNeighborsClassifier(5).fit(A[:, best], grade[tr])
            scores.append(knn.score(absorb[te][:, best], grade[te]))
        print(f"bands with p < 0.01 per fold: {np.mean(n_hits):.1f}")
        print(f"grade accuracy from the 15 best bands: {np.mean(scores):.1%}")
    """, SPECTRA))


def test_fold_loop_counted_threshold_without_a_model_is_critical():
    f = only(check("""
        _, p = stats.mannwhitneyu(absorb[grade == 1], absorb[grade == 0], axis=0)
        n_hits = (p < 0.01).sum()
        print(f"{n_hits} absorption bands separate the grades (p < 0.01)")
    """, SPECTRA))
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_numpy_rank_screen_cross_validated_is_silent():
    silent(check("""
        p = np.array([stats.pearsonr(absorb[:, j], moisture)[1] for j in range(n_bands)])
        print("bands below 0.05:", np.count_nonzero(p < 0.05))
        keep = np.argsort(p)[:10]
        cv = cross_val_score(LogisticRegression(max_iter=500), absorb[:, keep], grade, cv=5)
        print(f"CV accuracy {cv.mean():.3f}")
    """, SPECTRA))


def test_numpy_counted_threshold_beside_an_unrelated_model_is_critical():
    # the model is fitted on every band: the p-values choose nothing, the count is the claim
    f = only(check("""
        p = np.array([stats.pearsonr(absorb[:, j], moisture)[1] for j in range(n_bands)])
        print("bands linked to moisture:", np.count_nonzero(p < 0.05))
        cv = cross_val_score(LogisticRegression(max_iter=500), absorb, grade, cv=5)
        print(f"CV accuracy {cv.mean():.3f}")
    """, SPECTRA))
    assert f.severity == "critical"


def test_pandas_nsmallest_screen_into_formula_is_silent():
    silent(check("""
        data = bands.assign(moisture=moisture)
        pv = pd.Series({c: stats.spearmanr(bands[c], moisture).pvalue for c in bands.columns})
        print(f"{len(pv[pv < 0.05])} of {len(pv)} bands under 0.05")
        top = pv.nsmallest(4).index
        fit = smf.ols("moisture ~ " + " + ".join(top), data=data.iloc[:90]).fit()
        resid = data.moisture.iloc[90:] - fit.predict(data.iloc[90:])
        print(f"held-out RMSE {np.sqrt((resid ** 2).mean()):.3f}")
    """, SPECTRA))


def test_pandas_counted_threshold_reported_as_findings_is_critical():
    f = only(check("""
        pv = pd.Series({c: stats.spearmanr(bands[c], moisture).pvalue for c in bands.columns})
        print(f"{len(pv[pv < 0.05])} of {len(pv)} bands track moisture")
        print(pv.sort_values().head(10).round(4))
    """, SPECTRA))
    assert f.severity == "critical"


def test_helper_sorted_screen_feeding_a_classifier_is_silent():
    silent(check("""
        def band_p(col):
            return stats.ttest_ind(bands.loc[grade == 1, col], bands.loc[grade == 0, col]).pvalue
        pvals = {c: band_p(c) for c in bands.columns}
        n_sig = sum(np.array(list(pvals.values())) < 0.05)
        chosen = sorted(pvals, key=pvals.get)[:8]
        clf = LogisticRegression(max_iter=500).fit(bands.iloc[:90][chosen], grade[:90])
        print(n_sig, "bands under 0.05; held-out accuracy",
              clf.score(bands.iloc[90:][chosen], grade[90:]))
    """, SPECTRA))


def test_counted_screen_called_significant_is_only_a_note():
    f = only(check("""
        p = np.array([stats.pearsonr(absorb[:, j], moisture)[1] for j in range(n_bands)])
        print("significant bands:", np.count_nonzero(p < 0.05))
        keep = np.argsort(p)[:10]
        cv = cross_val_score(LogisticRegression(max_iter=500), absorb[:, keep], grade, cv=5)
        print(f"CV accuracy {cv.mean():.3f}")
    """, SPECTRA))
    assert f.severity == "medium" and not f.is_blocking(0.8)


# -- a proportion's variance p * (1 - p) is not a hand-rolled correction ----------------------

RATES = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(4)
clinics = pd.DataFrame({"clinic": np.repeat([f"c{i}" for i in range(12)], 80),
                        "returned": rng.random(960) < 0.3})
"""


@pytest.mark.parametrize("se, test", [
    # vectorised over a table of rates, the two-proportion z-test written out
    ("np.sqrt(t.p * (1 - t.p) / t.n + t.p0 * (1 - t.p0) / t.n0)",
     "t['pval'] = 2 * stats.norm.sf((t.p - t.p0).abs() / se)"),
    # (1 - p) written first
    ("np.sqrt((1 - t.p) * t.p / t.n + (1 - t.p0) * t.p0 / t.n0)",
     "t['pval'] = 2 * (1 - stats.norm.cdf((t.p - t.p0).abs() / se))"),
])
def test_rates_z_tested_against_the_rest_and_starred_raw(se: str, test: str) -> None:
    code = f"""
        g = clinics.groupby("clinic")["returned"]
        t = pd.DataFrame({{"p": g.mean(), "n": g.size()}})
        t["p0"] = [clinics.loc[clinics.clinic != c, "returned"].mean() for c in t.index]
        t["n0"] = len(clinics) - t["n"]
        se = {se}
        {test}
        t["star"] = np.where(t["pval"] < 0.05, "*", "")
        print(t.round(3))
    """
    f = one(check(code, RATES), RULE_ID)
    assert f.severity in ("high", "critical") and f.evidence["values"]["n_tests"] == 12


def test_rates_starred_on_holm_adjusted_p_values_are_quiet() -> None:
    code = """
        from statsmodels.stats.multitest import multipletests
        g = clinics.groupby("clinic")["returned"]
        t = pd.DataFrame({"p": g.mean(), "n": g.size()})
        t["p0"] = [clinics.loc[clinics.clinic != c, "returned"].mean() for c in t.index]
        t["n0"] = len(clinics) - t["n"]
        se = np.sqrt(t.p * (1 - t.p) / t.n + t.p0 * (1 - t.p0) / t.n0)
        t["pval"] = 2 * stats.norm.sf((t.p - t.p0).abs() / se)
        t["p_holm"] = multipletests(t["pval"], method="holm")[1]
        t["star"] = np.where(t["p_holm"] < 0.05, "*", "")
        print(t.round(3))
    """
    silent(check(code, RATES))


RATE_TABLE = """
g = clinics.groupby("clinic")["returned"]
t = pd.DataFrame({"p": g.mean(), "n": g.size()})
t["p0"] = [clinics.loc[clinics.clinic != c, "returned"].mean() for c in t.index]
t["n0"] = len(clinics) - t["n"]
"""


@pytest.mark.parametrize("code", [
    # double-quoted columns, the flag read through attribute access
    """
se = np.sqrt(t["p"] * (1 - t["p"]) / t["n"] + t["p0"] * (1 - t["p0"]) / t["n0"])
t["pval"] = 2 * stats.norm.sf(np.abs(t["p"] - t["p0"]) / se)
t["star"] = np.where(t.pval < 0.05, "*", "")
print(t.round(3))
""",
    # the statistic multiplied out inside the tail call; one rate times each clinic's size
    # is its expected count, not a Bonferroni p * n
    """
p_all = clinics.returned.mean()
t["expected"] = t.n * p_all
t["pval"] = 2 * stats.norm.sf(np.abs(t.p - p_all) * np.sqrt(t.n / (p_all * (1 - p_all))))
print(t[t.pval < 0.05])
""",
    # the z column computed first, the rate difference scaled by sqrt(n)
    """
p_all = clinics.returned.mean()
t["z"] = (t.p - p_all) * np.sqrt(t.n) / np.sqrt(p_all * (1 - p_all))
t["pval"] = 2 * stats.norm.sf(t.z.abs())
t["flag"] = np.where(t["pval"] < 0.05, "*", "")
print(t)
""",
])
def test_rates_table_any_column_style_is_a_family(code: str) -> None:
    f = one(check(RATE_TABLE + code, RATES), RULE_ID)
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 12


RATE_ARRAYS = """
g = clinics.groupby("clinic")["returned"]
rate, n = g.mean().to_numpy(), g.size().to_numpy()
p0 = clinics.returned.mean()
z = (rate - p0) / np.sqrt(p0 * (1 - p0) / n)
p = 2 * stats.norm.sf(np.abs(z))
"""


def test_z_array_over_clinics_counted_at_a_raw_level_is_critical() -> None:
    f = one(check(RATE_ARRAYS + """
print((p < 0.05).sum(), "of", len(p), "clinics differ from the network rate")
""", RATES), RULE_ID)
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 12


def test_rates_table_bonferroni_by_multiplying_p_is_silent() -> None:
    silent(check(RATE_TABLE + """
p_all = clinics.returned.mean()
t["z"] = (t.p - p_all) * np.sqrt(t.n) / np.sqrt(p_all * (1 - p_all))
t["pval"] = 2 * stats.norm.sf(t.z.abs())
print(t[t.pval * len(t) < 0.05])
""", RATES))


@pytest.mark.parametrize("fix", [
    "q = stats.false_discovery_control(p)\nprint((q < 0.05).sum(), 'clinics differ')",
    "p_bonf = np.minimum(p * len(p), 1)\nprint((p_bonf < 0.05).sum(), 'clinics differ')",
])
def test_z_array_over_clinics_corrected_is_silent(fix: str) -> None:
    silent(check(RATE_ARRAYS + fix + "\n", RATES))


# -- a count written as a generator is a count ----------------------------------------------

@pytest.mark.parametrize("count", [
    "sum(v < 0.05 for v in p)",
    "sum(1 for v in p if v < 0.05)",
    "len([v for v in p if v < 0.05])",
])
def test_generator_count_beside_a_ranked_screen_is_silent(count: str) -> None:
    silent(check(f"""
        p = np.array([stats.pearsonr(absorb[:, j], moisture)[1] for j in range(n_bands)])
        print("bands below 0.05:", {count})
        keep = np.argsort(p)[:10]
        cv = cross_val_score(LogisticRegression(max_iter=500), absorb[:, keep], grade, cv=5)
        print(f"CV accuracy {{cv.mean():.3f}}")
    """, SPECTRA))


@pytest.mark.parametrize("count", [
    "sum(v < 0.05 for v in p)",
    "sum(1 for v in p if v < 0.05)",
])
def test_generator_count_reported_as_findings_is_critical(count: str) -> None:
    f = one(check(f"""
        p = np.array([stats.pearsonr(absorb[:, j], moisture)[1] for j in range(n_bands)])
        print("bands linked to moisture:", {count})
    """, SPECTRA), RULE_ID)
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 150


# -- pairwise tests whose hits are kept under `if p < alpha` -----------------------------------
# The list filled under the threshold holds the kept pairs (here 2-4), not one entry per test:
# the family is the loop's length (all pairs), and a short list of hits must not hide it.

TRIAL = """
import numpy as np
import pandas as pd
from itertools import combinations
from scipy import stats
rng = np.random.default_rng(3719)
arms = ["control", "a", "b", "c", "d", "e"]
mu = {"control": 62.0, "a": 62.5, "b": 61.8, "c": 63.6, "d": 62.2, "e": 62.9}
pens = pd.DataFrame([{"arm": d, "gain": rng.normal(mu[d], 1.6)} for d in arms for _ in range(8)])
by_arm = {d: pens.loc[pens.arm == d, "gain"].to_numpy() for d in arms}
"""


@pytest.mark.parametrize("code", [
    # scipy over itertools.combinations, hits appended under the threshold
    """
    hits = []
    for a, b in combinations(arms, 2):
        t, p = stats.ttest_ind(pens.loc[pens.arm == a, "gain"], pens.loc[pens.arm == b, "gain"])
        if p < 0.05:
            hits.append((a, b, round(p, 4)))
    print(len(hits), "significant contrasts:", hits)
    """,
    # numpy arrays, index double loop, dict of hits
    """
    sig = {}
    for i in range(len(arms)):
        for j in range(i + 1, len(arms)):
            res = stats.mannwhitneyu(by_arm[arms[i]], by_arm[arms[j]])
            if res.pvalue < 0.05:
                sig[(arms[i], arms[j])] = res.pvalue
    print("significant pairs:", sig)
    """,
    # statsmodels' t-test
    """
    from statsmodels.stats.weightstats import ttest_ind as sm_ttest
    kept = []
    for a, b in combinations(arms, 2):
        tstat, p, dof = sm_ttest(by_arm[a], by_arm[b])
        if p <= 0.05:
            kept.append(f"{a} vs {b}: P = {p:.3f}")
    print("\\n".join(kept))
    """,
])
def test_pairwise_hits_kept_under_threshold_count_all_pairs(code: str) -> None:
    f = one(check(code, TRIAL), RULE_ID)
    assert f.severity == "critical" and f.evidence["values"]["n_tests"] == 15


@pytest.mark.parametrize("code", [
    # Holm over all pairs before keeping any
    """
    from statsmodels.stats.multitest import multipletests
    pairs = list(combinations(arms, 2))
    ps = [stats.ttest_ind(by_arm[a], by_arm[b]).pvalue for a, b in pairs]
    reject, p_holm, _, _ = multipletests(ps, method="holm")
    print([pr for pr, r in zip(pairs, reject) if r])
    """,
    # Tukey HSD
    """
    from statsmodels.stats.multicomp import pairwise_tukeyhsd
    print(pairwise_tukeyhsd(pens["gain"], pens["arm"]).summary())
    """,
    # Bonferroni level inside the loop
    """
    pairs = list(combinations(arms, 2))
    level = 0.05 / len(pairs)
    hits = []
    for a, b in pairs:
        t, p = stats.ttest_ind(by_arm[a], by_arm[b])
        if p < level:
            hits.append((a, b))
    print(len(hits), "contrasts significant after Bonferroni")
    """,
])
def test_pairwise_hits_with_correction_are_silent(code: str) -> None:
    silent(check(code, TRIAL))
