"""suspicious_values: impossible values (p > 1, negative variance, |r| > 1, probabilities
outside [0, 1]) and suspicious ones (a perfect score, a negative R²), read from the kernel's
facts and from the printed output, each with a sound twin that must stay quiet."""

from __future__ import annotations

import re
import textwrap

import pytest

from critics.evidence import Evidence
from critics.findings import Finding
from critics.rules import rules_of
from critics.rules import suspicious_values as sv
from tests import rule_helpers as H
from tests.inprocess_evidence import evidence, run_and_gather
from tests.rule_helpers import one, quiet, silent

SETUP = """
import numpy as np, pandas as pd
from scipy import stats
import statsmodels.api as sm
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.cluster import KMeans
from sklearn.metrics import r2_score, accuracy_score, silhouette_score, classification_report
from sklearn.model_selection import train_test_split, cross_val_score, GridSearchCV
rng = np.random.default_rng(0)
X = rng.normal(size=(300, 4))
y = X[:, 0] + 0.5 * rng.normal(size=300)
yc = (X[:, 0] + rng.normal(size=300) > 0).astype(int)
groups = {g: rng.normal(loc=0.2 * i, size=40) for i, g in enumerate("abcdef")}
"""

RULES = rules_of(sv)


def check(ev: Evidence, rule_id: str | None = None) -> list[Finding]:
    return H.check(RULES, ev, rule_id)


def gather(code: str, setup: str = SETUP) -> Evidence:
    """Run `code` in-process after `setup`: the evidence (tests also read its facts)."""
    return run_and_gather(code, setup)


def stdout(text: str) -> list[dict]:
    return [{"output_type": "stream", "name": "stdout", "text": text}]


def displayed(code: str, setup: str = SETUP) -> Evidence:
    """Run `code` and show its last expression as Jupyter would (an execute_result)."""
    ns: dict = {}
    body, _, last = code.strip().rpartition("\n")
    ev = run_and_gather(body + "\n_shown = " + last.strip(), setup, ns)
    data = ev.to_dict()
    data["code"] = code.strip()
    data["outputs"].append({"output_type": "execute_result",
                            "data": {"text/plain": repr(ns["_shown"])}})
    return Evidence.from_dict(data)


def test_rule_ids_are_stable() -> None:
    assert {r.id for r in RULES} == {
        "suspicious_values.pvalue_out_of_range", "suspicious_values.negative_variance",
        "suspicious_values.correlation_out_of_range",
        "suspicious_values.probability_out_of_range", "suspicious_values.perfect_score",
        "suspicious_values.negative_r2", "suspicious_values.percentage_error_blowup",
        "suspicious_values.two_sided_p_without_abs", "suspicious_values.share_over_100",
        "suspicious_values.proportion_over_100", "suspicious_values.factor_over_100",
        "suspicious_values.negative_duration",
        "suspicious_values.negative_physical_quantity",
        "suspicious_values.sentinel_code_in_summary",
        "suspicious_values.lpm_probability_out_of_range",
        "suspicious_values.reliability_out_of_range"}
    assert all(r.family == "suspicious_values" for r in RULES)


# -- p-values ----------------------------------------------------------------------------------

PV = "suspicious_values.pvalue_out_of_range"


def test_bonferroni_by_hand_in_a_list_comprehension_is_blocking() -> None:
    ev = gather("""
        pvals = [stats.ttest_ind(groups["a"], groups[g]).pvalue for g in "bcdef"]
        p_adj = [p * len(pvals) for p in pvals]
        print("adjusted:", p_adj)
    """)
    f = one(check(ev), PV)
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert 3 in f.lines  # the unclipped multiplication is cited
    assert "capping" in f.explanation


def test_bonferroni_column_in_a_printed_dataframe() -> None:
    ev = gather("""
        res = pd.DataFrame({"group": list("bcdef"),
                            "p": [stats.ttest_ind(groups["a"], groups[g]).pvalue
                                  for g in "bcdef"]})
        res["p_bonf"] = res["p"] * len(res)
        print(res)
    """)
    f = one(check(ev), PV)
    assert f.is_blocking(0.8)
    assert "p_bonf" in f.explanation


def test_numpy_array_of_corrected_pvalues_in_the_facts() -> None:
    ev = gather("""
        pv = np.array([stats.mannwhitneyu(groups["a"], groups[g]).pvalue for g in "bcdef"])
        n_tests = len(pv)
        corrected = pv * n_tests
        significant = corrected < 0.05
    """)
    f = one(check(ev), PV)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_statsmodels_pvalues_times_number_of_models() -> None:
    ev = gather("""
        fit = sm.OLS(y, sm.add_constant(X)).fit()
        p_holm = fit.pvalues * 5
        p_holm
    """)
    assert one(check(ev), PV).is_blocking(0.8)


def test_inline_fstring_with_bare_p_label() -> None:
    ev = gather("""
        t, p = stats.ttest_ind(groups["a"], groups["b"])
        print(f"t = {t:.2f}, p = {p * 40:.3f}")
    """)
    f = one(check(ev), PV)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_hand_rolled_holm_in_a_helper_function() -> None:
    ev = gather("""
        def holm(ps):
            order = np.argsort(ps)
            out = np.empty(len(ps))
            for rank, i in enumerate(order):
                out[i] = ps[i] * (len(ps) - rank)
            return out
        null = [rng.normal(size=30) for _ in range(6)]
        raw = np.array([stats.ttest_ind(null[0], s).pvalue for s in null[1:]])
        p_adjusted = holm(raw)
        print(p_adjusted)
    """)
    assert one(check(ev), PV).severity == "critical"


def test_code_only_unclipped_correction_is_a_medium_concern() -> None:
    ev = evidence("""
        res["p_bonf"] = res["p"] * len(res)
        res.sort_values("p_bonf")
    """)
    f = one(check(ev), PV)
    assert f.severity == "medium" and not f.is_blocking(0.5)


@pytest.mark.parametrize("counts", [
    "p, n = g.ngroups, int(g.size().iloc[0])",  # ISO 5725 variance components
    "p = len(days)\nn = 4",
    "p = days.nunique()\nn = 4",
])
def test_a_name_p_bound_to_a_count_is_not_a_p_value(counts: str) -> None:
    code = ('g = lab.groupby("day")["y"]\ndays = lab["day"]\n' + counts + "\n"
            'ms_within = ((lab["y"] - g.transform("mean")) ** 2).sum() / (p * (n - 1))\n'
            "print(ms_within)\n")
    ev = evidence(code)
    assert ev.tree is not None
    assert not check(ev, PV)
    # the same cell with p bound to a test's p-value is read as a hand correction
    ev = evidence(code.replace(counts, "p = res.pvalue\nn = 4"))
    assert one(check(ev), PV).severity == "medium"


def test_a_name_p_bound_to_a_p_value_and_multiplied_is_still_read() -> None:
    ev = evidence("""
        p = res.pvalue
        n = len(tests)
        print(p * n)
    """)
    assert one(check(ev), PV).severity == "medium"


@pytest.mark.parametrize("fix", [
    "p_adj = [min(p * len(pvals), 1.0) for p in pvals]",
    "p_adj = np.minimum(np.array(pvals) * len(pvals), 1)",
    "p_adj = np.clip(np.array(pvals) * len(pvals), 0, 1)",
    "from statsmodels.stats.multitest import multipletests\n"
    "_, p_adj, _, _ = multipletests(pvals, method='bonferroni')",
])
def test_clipped_or_library_corrections_are_sound(fix: str) -> None:
    ev = gather('pvals = [stats.ttest_ind(groups["a"], groups[g]).pvalue for g in "bcdef"]\n'
             + fix + '\nprint("adjusted:", list(p_adj))\n')
    silent(check(ev))


def test_dataframe_column_clipped_afterwards_is_sound() -> None:
    ev = gather("""
        res = pd.DataFrame({"p": [stats.ttest_ind(groups["a"], groups[g]).pvalue
                                  for g in "bcdef"]})
        res["p_bonf"] = res["p"] * len(res)
        res["p_bonf"] = res["p_bonf"].clip(upper=1)
        print(res)
    """)
    silent(check(ev))


def test_negative_p_value_from_a_wrong_two_sided_formula() -> None:
    ev = gather("""
        z = (groups["f"].mean() - groups["a"].mean()) / 0.2
        p_two_sided = 1 - 2 * stats.norm.cdf(abs(z))
        print(f"z = {z:.2f}, p = {p_two_sided:.3g}")
    """)
    f = one(check(ev), PV)
    assert f.is_blocking(0.8)


def test_invalid_p_values_from_an_earlier_cell_are_not_this_cells_finding() -> None:
    ev = gather("""
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.bar(range(len(p_adj)), p_adj)
        plt.close(fig)
    """, SETUP + "\np_adj = [0.5 * 5, 0.01 * 5]\n")
    silent(check(ev))


def test_counts_and_log_pvalues_are_not_pvalues() -> None:
    ev = evidence("print(x)", outputs=stdout(
        "n = 120, p = 4 predictors\n-log10(p): 7.31\nneg log p = 3.2\nalpha = 0.05\n"
        "t(18) = 2.10, p = .049\n"))
    silent(check(ev))


# -- variance ----------------------------------------------------------------------------------

NV = "suspicious_values.negative_variance"


def test_swapped_variance_formula() -> None:
    ev = gather("""
        x = groups["c"]
        var = np.mean(x) ** 2 - np.mean(x ** 2)
        print(f"variance = {var:.3f}")
    """)
    f = one(check(ev), NV)
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert "`var`" in f.explanation


def test_per_group_variances_with_a_sign_error() -> None:
    ev = gather("""
        variances = {g: v.mean() ** 2 - (v ** 2).mean() for g, v in groups.items()}
        print(pd.Series(variances, name="variance"))
    """)
    assert one(check(ev), NV).severity == "critical"


def test_printed_negative_sd_from_text_only() -> None:
    ev = evidence("print(summary)", outputs=stdout("mean = 3.20, SD = -0.41\n"))
    f = one(check(ev), NV)
    assert f.severity == "critical" and f.confidence >= 0.75


def test_catastrophic_cancellation_in_a_displayed_aggregate_table() -> None:
    ev = displayed("""
def one_pass_var(x):
    x = x.to_numpy()
    n, s, ss = len(x), x.sum(), (x * x).sum()
    return (ss - s * s / n) / (n - 1)
readings = pd.DataFrame({"sensor": np.repeat(list("ABCDE"), 2000),
                         "value": np.concatenate([rng.normal(o, 0.02, 2000) for o in
                                                  [1e4, 1.2e4, 1.3e4, 1.1e4, 1.5e4]])
                         .astype(np.float32)})
summary = readings.groupby("sensor")["value"].agg(["mean", one_pass_var])
summary
""")
    f = one(check(ev), NV)
    assert f.severity == "critical" and "one_pass_var" in f.explanation


def test_raw_data_columns_named_like_statistics_are_not_results() -> None:
    ev = displayed("""
data = pd.DataFrame({"var": rng.normal(size=8), "r2": rng.normal(size=8),
                     "prob": rng.normal(size=8)})
data.to_csv("/dev/null")
data[["var", "r2", "prob"]].corr()
""")
    silent(check(ev))
    ev = evidence("df[['var', 'p', 'prob']].head()", outputs=[{
        "output_type": "execute_result", "data": {"text/plain":
            "        var         p      prob\n0 -0.120000  1.300000  2.500000\n"
            "1 -1.500000  3.100000 -0.400000\n"}}])
    silent(check(ev))


def test_neg_mse_reported_as_mse_is_high_not_critical() -> None:
    ev = gather("""
        scores = cross_val_score(Ridge(), X, y, cv=5, scoring="neg_mean_squared_error")
        print("MSE:", scores.mean())
    """)
    f = one(check(ev), NV)
    assert f.severity == "high"


def test_standardised_values_and_differences_are_sound() -> None:
    ev = gather("""
        x = groups["d"]
        x_std = (x - x.mean()) / x.std()
        var = np.var(x, ddof=1)
        sd = x.std()
        print(f"variance {var:.3f}, sd {sd:.3f}, first z {x_std[0]:.2f}")
        print("std change: -0.4; explained variance: -0.2; delta var = -1.3")
    """)
    silent(check(ev))


def test_neg_mse_negated_before_reporting_is_sound() -> None:
    ev = gather("""
        scores = cross_val_score(Ridge(), X, y, cv=5, scoring="neg_mean_squared_error")
        print("MSE:", -scores.mean())
    """)
    silent(check(ev))


# -- correlation -------------------------------------------------------------------------------

CR = "suspicious_values.correlation_out_of_range"


def test_hand_rolled_correlation_with_mismatched_ddof() -> None:
    ev = gather("""
        a = X[:, 0]
        b = a + 0.01 * X[:, 1]
        r = np.cov(a, b)[0, 1] / (a.std() * b.std())
        print(f"r = {r:.3f}")
    """)
    f = one(check(ev), CR)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_correlation_out_of_range_in_printed_text() -> None:
    ev = evidence("""
        from scipy import stats
        print(f"Pearson r = {compute(a, b):.3f}")
    """, outputs=stdout("Pearson r = 1.042\n"))
    assert one(check(ev), CR).severity == "critical"


def test_library_correlations_are_sound() -> None:
    ev = gather("""
        r, p = stats.pearsonr(X[:, 0], y)
        rho = stats.spearmanr(X[:, 0], y).statistic
        corr = pd.DataFrame(X).corr()
        print(f"r = {r:.3f} (p = {p:.2g}), rho = {rho:.3f}")
        print(corr)
    """)
    silent(check(ev))


# -- probabilities and bounded scores ----------------------------------------------------------

PR = "suspicious_values.probability_out_of_range"


def test_unnormalised_probabilities() -> None:
    ev = gather("""
        logits = X @ np.array([1.0, 2.0, 0.0, 0.0])
        prob = np.exp(logits)
        print("max probability:", prob.max())
    """)
    f = one(check(ev), PR)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_r2_above_one_from_a_sign_error() -> None:
    ev = gather("""
        pred = LinearRegression().fit(X, y).predict(X)
        ss_res = ((y - pred) ** 2).sum()
        ss_tot = ((y - y.mean()) ** 2).sum()
        r2 = 1 + ss_res / ss_tot
        print(f"R2 = {r2:.3f}")
    """)
    assert one(check(ev), PR).severity == "critical"


def test_accuracy_percentage_scaled_twice() -> None:
    ev = evidence("print(f'Accuracy: {acc * 100:.1f}%')",
                  outputs=stdout("Accuracy: 9350.0%\n"))
    assert one(check(ev), PR).severity == "critical"


def test_percentages_and_log_probabilities_are_sound() -> None:
    ev = gather("""
        clf = LogisticRegression().fit(X, yc)
        probs = clf.predict_log_proba(X)[:, 1]
        proba = clf.predict_proba(X)[:, 1]
        acc = accuracy_score(yc, clf.predict(X)) * 100
        print(f"Accuracy: {acc:.1f}%  ({acc:.1f} percent); mean p(y=1) {proba.mean():.2f}")
        print("Accuracy: 87.3")
    """)
    silent(check(ev))


# -- perfect scores ----------------------------------------------------------------------------

PS = "suspicious_values.perfect_score"


def test_score_on_the_fitting_data_reported_as_accuracy_is_blocking() -> None:
    ev = gather("""
        clf = DecisionTreeClassifier().fit(X, yc)
        print("Accuracy:", clf.score(X, yc))
    """)
    f = one(check(ev), PS)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_accuracy_score_of_training_predictions_in_the_facts() -> None:
    ev = gather("""
        tree = DecisionTreeClassifier(random_state=0)
        tree.fit(X, yc)
        acc = accuracy_score(yc, tree.predict(X))
        print(f"model accuracy {acc:.3f}")
    """)
    f = one(check(ev), PS)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_perfect_held_out_score_with_a_leaked_feature_is_high() -> None:
    ev = gather("""
        Xl = np.column_stack([X, yc])
        Xtr, Xte, ytr, yte = train_test_split(Xl, yc, test_size=0.3, random_state=0)
        clf = DecisionTreeClassifier(random_state=0).fit(Xtr, ytr)
        acc = accuracy_score(yte, clf.predict(Xte))
        print(f"Test accuracy: {acc:.3f}")
    """)
    f = one(check(ev), PS)
    assert f.severity == "high" and not f.is_blocking(0.5)


def test_perfect_cross_validated_grid_search_score() -> None:
    ev = gather("""
        Xl = np.column_stack([X, yc])
        gs = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=5).fit(Xl, yc)
        print("best CV accuracy:", gs.best_score_)
    """)
    assert one(check(ev), PS).severity == "high"


def test_statsmodels_perfect_in_sample_fit() -> None:
    ev = gather("""
        fit = sm.OLS(y, sm.add_constant(np.column_stack([X, 2 * y]))).fit()
        print(f"R-squared: {fit.rsquared:.3f}")
    """)
    assert one(check(ev), PS).severity == "high"


def test_training_accuracy_labelled_as_such_but_alone_is_high() -> None:
    ev = evidence("""
        model.fit(X_train, y_train)
        print(f"Training accuracy: {model.score(X_train, y_train):.3f}")
    """, outputs=stdout("Training accuracy: 1.000\n"))
    f = one(check(ev), PS)
    assert f.severity == "high"


def test_perfect_accuracy_on_a_tiny_test_set_is_medium() -> None:
    ev = gather("""
        from sklearn.datasets import load_iris
        Xi, yi = load_iris(return_X_y=True)
        Xtr, Xte, ytr, yte = train_test_split(Xi, yi, test_size=0.2, random_state=3)
        clf = LogisticRegression(max_iter=500).fit(Xtr, ytr)
        acc = accuracy_score(yte, clf.predict(Xte))
        print(f"Test accuracy: {acc:.3f}")
    """)
    assert acc_value(ev) == 1.0
    assert one(check(ev), PS).severity == "medium"


def acc_value(ev: Evidence) -> float:
    return float(ev.objects["acc"].value)  # type: ignore[arg-type]


def test_training_score_next_to_a_test_score_is_a_diagnostic() -> None:
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, yc, random_state=0)
        clf = DecisionTreeClassifier(random_state=0).fit(X_train, y_train)
        train_acc = clf.score(X_train, y_train)
        test_acc = clf.score(X_test, y_test)
        print(f"train acc {train_acc:.3f}, test acc {test_acc:.3f}")
    """)
    assert ev.objects["train_acc"].value == 1.0
    silent(check(ev))


def test_classification_report_with_a_perfect_class_is_sound() -> None:
    ev = gather("""
        from sklearn.datasets import load_iris
        Xi, yi = load_iris(return_X_y=True)
        Xtr, Xte, ytr, yte = train_test_split(Xi, yi, test_size=0.3, random_state=1,
                                              stratify=yi)
        clf = LogisticRegression(max_iter=500).fit(Xtr, ytr)
        print(classification_report(yte, clf.predict(Xte)))
    """)
    assert "1.00" in ev.stdout
    silent(check(ev))


def test_cross_validated_score_below_one_is_sound() -> None:
    ev = gather("""
        scores = cross_val_score(LogisticRegression(), X, yc, cv=5)
        print(f"CV accuracy {scores.mean():.3f} +/- {scores.std():.3f}")
    """)
    silent(check(ev))


# -- negative R² -------------------------------------------------------------------------------

NR = "suspicious_values.negative_r2"


def test_negative_test_r2_reported_alone_is_high() -> None:
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        m = LinearRegression().fit(X_train, y_train)
        r2 = r2_score(y_test, -m.predict(X_test))
        print(f"R2: {r2:.3f}")
    """)
    f = one(check(ev), NR)
    assert f.severity == "high" and f.confidence >= 0.8
    assert not f.is_blocking(0.5)


def test_misaligned_held_out_targets_are_medium() -> None:
    # predictions uncorrelated with the target give R² in [-1, 0] on held-out rows (-0.9
    # here), the same as an honest model without signal: a concern, not proof of a bug
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = Ridge().fit(X_train, y_train)
        print("R^2 =", model.score(X_test, np.sort(y_test)))
    """)
    assert one(check(ev), NR).severity == "medium"


def test_negative_r2_next_to_an_error_metric_is_still_high() -> None:
    ev = evidence("print(report)", outputs=stdout("test R2 = -10.01\nRMSE = 1234.5\n"))
    assert one(check(ev), NR).severity == "high"


def test_scoring_one_model_on_data_another_model_was_fit_on_is_not_training() -> None:
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, yc, random_state=0)
        Xl = np.column_stack([X_test, y_test])
        probe = LogisticRegression().fit(X, yc)
        clf = DecisionTreeClassifier(random_state=0).fit(
            np.column_stack([X_train, y_train]), y_train)
        print(f"accuracy {clf.score(Xl, y_test):.3f}")
    """)
    f = one(check(ev), PS)
    assert f.severity == "high"  # suspicious (a leak), but not scored on its own fit data


@pytest.mark.parametrize("line", ["R2: -0.31", "R^2 = -1.2", "r2=-0.05", "R² (test) = -1.4",
                                  "coefficient of determination: -0.12"])
def test_printed_negative_r2_variants(line: str) -> None:
    ev = evidence("print(report)", outputs=stdout(line + "\n"))
    f = one(check(ev), NR)
    assert f.severity == "high" and f.confidence >= 0.7


def test_negative_r2_among_several_held_out_scores_is_medium() -> None:
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        noise = rng.normal(size=len(y_test))
        for name, target in [("signal", y_test), ("noise", noise)]:
            m = LinearRegression().fit(X_train, y_train)
            print(f"{name} test R2: {r2_score(target, m.predict(X_test)):.3f}")
    """)
    f = one(check(ev), NR)
    assert f.severity == "medium"


def test_negative_cross_validated_r2_is_medium() -> None:
    ev = gather("""
        noise = rng.normal(size=len(y))
        scores = cross_val_score(Ridge(), X, noise, cv=5)
        print(f"CV R2: {scores.mean():.3f} +/- {scores.std():.3f}")
    """)
    assert one(check(ev), NR).severity == "medium"


def test_last_value_of_a_search_loop_is_not_a_reported_r2() -> None:
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        best_alpha, best_r2 = None, -np.inf
        for alpha in [0.01, 1.0, 1e6]:
            r2 = Ridge(alpha=alpha).fit(X_train, y_train).score(X_test, -y_test)
            if r2 > best_r2:
                best_alpha, best_r2 = alpha, r2
        print(f"alpha {best_alpha}")
    """)
    assert ev.objects["r2"].value < 0
    assert not check(ev, NR)


def test_positive_test_r2_and_other_negative_scores_are_sound() -> None:
    ev = gather("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        m = LinearRegression().fit(X_train, y_train)
        r2 = r2_score(y_test, m.predict(X_test))
        km = KMeans(n_clusters=3, n_init=3, random_state=0).fit(X)
        km_score = km.score(X)
        sil = silhouette_score(X, km.labels_)
        neg_mse = cross_val_score(Ridge(), X, y, cv=3, scoring="neg_mean_squared_error")
        print(f"R2 = {r2:.3f}; k-means score {km_score:.1f}; silhouette {sil:.3f}")
        print("neg MSE per fold:", neg_mse)
    """)
    assert ev.objects["km_score"].value < 0
    silent(check(ev))


# -- robustness --------------------------------------------------------------------------------


def test_odd_code_and_outputs_do_not_raise() -> None:
    for ev in (evidence("def broken(:\n    pass"), evidence(""),
               evidence("x = 1", outputs=stdout("R2: \nR2: [\np = [1.2, \n" + "9" * 5000)),
               evidence("print(1)", outputs=[{"output_type": "execute_result",
                                              "data": {"text/plain": ["R2: -0.5"]}}])):
        check(ev)


def test_sound_analysis_output_gets_no_high_finding() -> None:
    ev = gather("""
        fit = sm.OLS(y, sm.add_constant(X)).fit()
        print(fit.summary())
        print(pd.DataFrame(X, columns=["a", "b", "c", "d"]).describe())
    """)
    silent(check(ev))


# -- `p_<event>` names read as probabilities -----------------------------------------------------

EVENTS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(8)
users = pd.DataFrame({"plan": rng.choice(["free", "pro"], 500)})
tickets = users.loc[users.index.repeat(rng.poisson(np.where(users.plan == "pro", 1.5, 0.3)))]
"""


def test_p_event_rate_above_one_is_flagged():
    ev = gather("""
        p_ticket = tickets.plan.value_counts() / users.plan.value_counts()
        print(p_ticket)
    """, EVENTS)
    f = one(check(ev), "suspicious_values.probability_out_of_range")
    assert f.confidence < 0.8   # named only, no test: not blocking


def test_p_event_scalar_above_one_is_flagged():
    ev = gather("""
        pChurn = float(len(tickets)) / (users.plan == "pro").sum()
        print(f"churn probability {pChurn:.2f}")
    """, EVENTS)
    assert check(ev, "suspicious_values.probability_out_of_range")


def test_p_event_within_range_is_quiet():
    silent(check(gather("""
        p_ticket = tickets.reset_index().groupby("plan")["index"].nunique() / \
            users.plan.value_counts()
        print(p_ticket)
    """, EVENTS)))


# -- negative R²: in-sample (impossible) vs held-out (honest unless far below -1) -------------


def test_negative_in_sample_r2_is_high() -> None:
    ev = gather("""
        m = LinearRegression().fit(X, y)
        r2_train = r2_score(y[::-1], m.predict(X))   # rows out of order
        print(f"training R2 = {r2_train:.3f}")
    """)
    f = one(check(ev), NR)
    assert f.severity == "high" and "fitted on" in f.explanation


@pytest.mark.parametrize("line", ["R² (test) = -0.4", "CV R^2 = -0.25, MAE = 1.1",
                                  "holdout r2: -0.93"])
def test_printed_mildly_negative_held_out_r2_is_medium(line: str) -> None:
    f = one(check(evidence("print(report)", outputs=stdout(line + "\n"))), NR)
    assert f.severity == "medium"


def test_honest_test_r2_of_a_model_without_signal_is_not_loud() -> None:
    found = check(gather("""
        noise = rng.normal(size=len(y))
        X_tr, X_te, n_tr, n_te = train_test_split(X, noise, random_state=1)
        r2 = r2_score(n_te, Ridge().fit(X_tr, n_tr).predict(X_te))
        print(f"test R2 = {r2:.3f}")
    """))
    assert one(found, NR).severity == "medium"
    quiet(found)


def test_log_scale_predictions_scored_against_raw_values_are_high() -> None:
    ev = gather("""
        amount = np.exp(5 + 0.2 * X[:, 0] + 0.1 * rng.normal(size=len(y)))
        X_tr, X_te, a_tr, a_te = train_test_split(X, amount, random_state=0)
        log_model = LinearRegression().fit(X_tr, np.log(a_tr))
        print(f"test R2 {r2_score(a_te, log_model.predict(X_te)):.2f}")
    """)
    f = one(check(ev), NR)
    assert f.severity == "high" and "below -1" in f.explanation


# -- percentage errors divided by zero actuals -------------------------------------------------

PE = "suspicious_values.percentage_error_blowup"

CALLS = """
import numpy as np, pandas as pd
from sklearn.linear_model import PoissonRegressor
from sklearn.metrics import mean_absolute_percentage_error
rng = np.random.default_rng(5)
hours = pd.DataFrame({"hour": np.tile(np.arange(24), 30)})
hours["calls"] = rng.poisson(np.where(hours.hour.between(8, 20), 6.0, 0.2))
train, test = hours.iloc[:600], hours.iloc[600:]
model = PoissonRegressor().fit(pd.get_dummies(train.hour), train.calls)
forecast = model.predict(pd.get_dummies(test.hour))
"""


def test_sklearn_mape_with_zero_actuals_is_high() -> None:
    ev = gather("""
        mape = mean_absolute_percentage_error(test.calls, forecast)
        print(f"hourly call forecast MAPE: {mape:.0%}")
    """, CALLS)
    f = one(check(ev), PE)
    assert f.severity == "high" and f.confidence >= 0.8 and "zero" in f.explanation


def test_hand_rolled_numpy_mape_dividing_by_zero_is_high() -> None:
    ev = gather("""
        actual = test.calls.to_numpy()
        ape = np.abs((actual - forecast) / actual) * 100
        print(f"MAPE: {np.mean(ape):.1f}%")
    """, CALLS)
    f = one(check(ev), PE)
    assert f.severity == "high" and "inf" in f.explanation


def test_pandas_percentage_error_column_with_near_zero_actuals_is_high() -> None:
    ev = gather("""
        out = test.assign(fc=forecast, actual=test.calls + 1e-6)
        out["pct_err"] = (out.actual - out.fc).abs() / out.actual
        print("mean absolute percentage error", round(out.pct_err.mean() * 100, 1))
    """, CALLS)
    assert one(check(ev), PE).severity == "high"


def test_printed_astronomical_mape_is_flagged_from_the_text_alone() -> None:
    ev = evidence("print(summary)", outputs=stdout("sMAPE = 3.2e+16%\n"))
    assert one(check(ev), PE).severity == "high"


def test_mape_on_positive_actuals_wape_and_masked_mape_are_quiet() -> None:
    silent(check(gather("""
        busy = test.calls > 0
        masked = mean_absolute_percentage_error(test.calls[busy], forecast[busy])
        wape = np.abs(test.calls - forecast).sum() / test.calls.sum()
        day = test.hour.between(8, 20)
        day_mape = np.mean(np.abs(test.calls[day] + 5 - forecast[day]) / (test.calls[day] + 5))
        print(f"MAPE on {busy.mean():.0%} busy hours {masked:.1%}; WAPE {wape:.1%}; "
              f"daytime MAPE {day_mape:.1%}")
    """, CALLS)))


def test_a_large_but_finite_percentage_error_is_quiet() -> None:
    silent(check(evidence("print(summary)", outputs=stdout("MAPE = 230.5%\n"))))


# -- odds, logits and decision scores used as probabilities -------------------------------------

PR = "suspicious_values.probability_out_of_range"

BANK = """
import numpy as np, pandas as pd
import statsmodels.api as sm
from scipy.special import expit, softmax
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
Xb, yb = make_classification(n_samples=600, n_features=5, class_sep=0.8, flip_y=0.1,
                             random_state=4)
Xb_tr, Xb_te, yb_tr, yb_te = Xb[:400], Xb[400:], yb[:400], yb[400:]
svm = LinearSVC(dual=False).fit(Xb_tr, yb_tr)
logit_res = sm.Logit(yb_tr, sm.add_constant(Xb_tr)).fit(disp=0)
"""


def test_exponentiated_decision_scores_summarised_as_probabilities_are_critical() -> None:
    ev = gather("""
        p_churn = pd.Series(np.exp(svm.decision_function(Xb_te)))
        print(p_churn.describe())
    """, BANK)
    f = one(check(ev), PR)
    assert f.severity == "critical" and "odds" in f.explanation


def test_exponentiated_statsmodels_linear_predictor_is_flagged() -> None:
    ev = gather("""
        lin = sm.add_constant(Xb_te) @ logit_res.params
        prob_default = np.exp(lin)
        print(f"highest probability of default: {prob_default.max():.2f}")
    """, BANK)
    f = one(check(ev), PR)
    assert f.severity == "critical" and "odds" in f.explanation


def test_unnormalised_softmax_of_logits_is_high_from_the_code() -> None:
    found = check(evidence("""
        logits = features @ weights + bias
        class_probs = np.exp(logits)
        print(class_probs[:3])
    """))
    f = one(found, PR)
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_raw_decision_function_named_probability_is_high() -> None:
    f = one(check(gather("""
        risk_prob = svm.decision_function(Xb_te)
        print((risk_prob > 0.5).mean())
    """, BANK)), PR)
    assert f.severity in ("high", "critical") and "decision_function" in f.explanation


def test_properly_mapped_probabilities_are_quiet() -> None:
    silent(check(gather("""
        z = svm.decision_function(Xb_te)
        p_churn = pd.Series(expit(z))
        print(p_churn.describe())
        lin = sm.add_constant(Xb_te) @ logit_res.params
        prob_default = np.exp(lin) / (1 + np.exp(lin))
        logits = np.column_stack([z, -z])
        class_probs = np.exp(logits)
        class_probs /= class_probs.sum(axis=1, keepdims=True)
        clf = LogisticRegression().fit(Xb_tr, yb_tr)
        proba = np.exp(clf.predict_log_proba(Xb_te))[:, 1]
        surv_prob = np.exp(-0.02 * np.arange(10))
        odds = np.exp(z)
        print(prob_default.max(), class_probs.max(), proba.max(), surv_prob.min(), odds.max())
    """, BANK)))


# -- two-sided p-value doubled from a signed statistic ---------------------------------------------

TWO_SIDED = "suspicious_values.two_sided_p_without_abs"


def test_two_sided_t_p_from_negative_statistic_is_critical() -> None:
    # paired difference in reaction time went down: t < 0, p = 2 * (1 - cdf) is near 2
    code = """
d = np.array([-12.0, -8.5, -15.2, -3.1, -9.9, -11.4, -6.0, -7.7])
t_stat = d.mean() / (d.std(ddof=1) / np.sqrt(len(d)))
p_value = 2 * (1 - stats.t.cdf(t_stat, df=len(d) - 1))
print(f"t = {t_stat:.2f}, p_value = {p_value:.4f}")
"""
    f = one(check(run_and_gather(code, SETUP), TWO_SIDED), TWO_SIDED)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_doubled_sf_without_abs_in_a_helper_is_flagged_from_code() -> None:
    code = """
from scipy.stats import norm
def wald_test(beta, se):
    z = beta / se
    return 2 * norm.sf(z)
"""
    f = one(check(evidence(code), TWO_SIDED), TWO_SIDED)
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_abs_statistic_and_coverage_formulas_stay_silent() -> None:
    code = """
d = np.array([-12.0, -8.5, -15.2, -3.1, -9.9, -11.4, -6.0, -7.7])
t_stat = d.mean() / (d.std(ddof=1) / np.sqrt(len(d)))
p_a = 2 * stats.t.sf(abs(t_stat), df=len(d) - 1)
p_b = 2 * stats.t.cdf(-np.abs(t_stat), len(d) - 1)
z = np.abs(t_stat)
p_c = 2 * (1 - stats.norm.cdf(z))
within = 2 * stats.norm.cdf(1.5) - 1
one_sided = 1 - stats.norm.cdf(t_stat)
print(p_a, p_b, p_c, within, one_sided)
"""
    silent(check(run_and_gather(code, SETUP), TWO_SIDED))


# -- shares far above 100 % ------------------------------------------------------------------------

SHARE = "suspicious_values.share_over_100"

_BEDS = """
wards = pd.DataFrame({"ward": ["cardio", "ortho", "neuro"] * 30,
                      "patients": np.tile([24, 18, 11], 30), "beds": np.tile([26, 20, 12], 30)})
"""


def test_monthly_patient_days_over_daily_beds_is_flagged() -> None:
    # 30 days of census summed, divided by the beds of one day
    code = """
occ = wards.groupby("ward").agg(patients=("patients", "sum"), beds=("beds", "first"))
occ["occupancy_pct"] = occ.patients / occ.beds * 100
print(occ)
"""
    f = one(check(run_and_gather(code, SETUP + _BEDS), SHARE), SHARE)
    assert f.severity == "critical"


def test_market_share_scalar_over_one_is_flagged() -> None:
    code = """
sales = pd.Series([120.0, 80.0, 40.0], index=["us", "rivals", "other"])
market_share = sales.sum() / sales["rivals"]
print(round(market_share, 2))
"""
    one(check(run_and_gather(code, SETUP), SHARE), SHARE)


def test_consistent_shares_and_growth_ratios_stay_silent() -> None:
    code = """
occ = wards.groupby("ward").agg(patients=("patients", "sum"), beds=("beds", "sum"))
occ["occupancy_pct"] = occ.patients / occ.beds * 100
sales_growth = 340.0 / 120.0
print(occ, sales_growth)
"""
    silent(check(run_and_gather(code, SETUP + _BEDS), SHARE))


# -- negative durations and ages (holdout4 round) ----------------------------------------------

DURATION = "suspicious_values.negative_duration"
STAYS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(11)
n = 400
admitted = pd.Timestamp("2023-01-01") + pd.to_timedelta(rng.integers(0, 300, n), unit="D")
stays = pd.DataFrame({"ward": rng.choice(["med", "surg", "icu"], n),
                      "admitted": admitted,
                      "discharged": admitted + pd.to_timedelta(rng.gamma(2, 3, n).round(),
                                                               unit="D")})
# 8% of the records have the two dates keyed into the wrong fields
swap = rng.random(n) < 0.08
stays.loc[swap, ["admitted", "discharged"]] = stays.loc[swap, ["discharged",
                                                                "admitted"]].to_numpy()
"""


def test_length_of_stay_with_swapped_dates_in_a_describe_is_flagged() -> None:
    ev = gather("""
stays["los_days"] = (stays.discharged - stays.admitted).dt.days
print(stays.los_days.describe().round(1))
""", STAYS)
    f = one(check(ev, DURATION), DURATION)
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"]["los_days"] < 0


def test_numpy_durations_across_a_wrap_are_flagged_from_the_kernel_values() -> None:
    ev = gather("""
start_s = np.array([3590, 100, 2400, 3500, 1200, 3300])
end_s = np.array([20, 340, 2700, 80, 1500, 3550])    # a stopwatch that wraps every hour
durations = end_s - start_s
print("mean session length:", durations.mean())
""")
    f = one(check(ev, DURATION), DURATION)
    assert "kernel" in f.explanation


def test_ages_from_birth_years_in_a_groupby_table_are_flagged() -> None:
    ev = displayed("""
people = pd.DataFrame({"sex": ["f", "m"] * 30,
                       "birth_year": [1950 + i if i % 7 else 2050 + i % 3 for i in range(60)]})
people["age"] = 2024 - people.birth_year
people.groupby("sex").age.agg(["mean", "min", "max"])
""")
    one(check(ev, DURATION), DURATION)


def test_sound_durations_signed_delays_and_wrapped_clocks_stay_quiet() -> None:
    fixed = gather("""
ok = stays.discharged >= stays.admitted
stays["los_days"] = (stays.discharged - stays.admitted).dt.days.where(ok)
print(stays.los_days.describe().round(1))
""", STAYS)
    quiet(check(fixed, DURATION))
    assert not check(fixed, DURATION)
    delays = gather("""
flights = pd.DataFrame({"scheduled": [600, 615, 630, 700], "actual": [590, 640, 629, 730]})
flights["delay_min"] = flights.actual - flights.scheduled
print(flights.delay_min.describe())
""")
    assert not check(delays, DURATION)
    wrapped = gather("""
start_s = np.array([3590, 100, 2400, 3500, 1200, 3300])
end_s = np.array([20, 340, 2700, 80, 1500, 3550])
durations = (end_s - start_s) % 3600
print("mean session length:", durations.mean())
""")
    assert not check(wrapped, DURATION)


def test_duration_from_a_helper_function_over_midnight_is_flagged() -> None:
    ev = displayed("""
shifts = pd.DataFrame({"nurse": ["a", "b", "c", "d", "e", "f"],
                       "clock_in": ["07:00", "19:00", "07:30", "22:00", "06:45", "20:00"],
                       "clock_out": ["15:10", "07:05", "15:20", "06:10", "14:50", "08:00"]})
def minutes_between(start, end):
    to_min = lambda s: s.str[:2].astype(int) * 60 + s.str[3:].astype(int)
    return to_min(end) - to_min(start)
shifts["worked_minutes"] = minutes_between(shifts.clock_in, shifts.clock_out)
shifts[["nurse", "worked_minutes"]]
""")
    f = one(check(ev, DURATION), DURATION)
    assert f.evidence["values"]["worked_minutes"] < 0


# -- prevalences, proportions and percentages above 100 % ----------------------------------------

PROPORTIONS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(21)
n = 900
# patients are tested repeatedly: one row per test
tests = pd.DataFrame({"clinic": rng.choice(["Ash", "Birch", "Cedar"], n),
                      "patient": rng.integers(0, 40, n),
                      "positive": (rng.random(n) < 0.3).astype(int)})
lots = pd.DataFrame({"line": ["L1", "L2", "L3", "L4"], "units_sampled": [50, 40, 60, 30],
                     "defective_units": [4, 3, 9, 2], "defects_found": [7, 5, 71, 2]})
towns = pd.DataFrame({"town": ["Ayr", "Troon", "Irvine"], "cases": [130, 45, 260],
                      "households": [100, 400, 900], "residents": [2400, 9100, 21000]})
mail = pd.DataFrame({"wave": ["spring", "summer", "autumn"], "invited": [400, 350, 500],
                     "contacts": [520, 300, 410], "replied": [180, 120, 160]})
PCT = 100
"""


def gather_p(code: str) -> Evidence:
    return run_and_gather(code, PROPORTIONS)


PROP = "suspicious_values.proportion_over_100"


def test_groupby_apply_renamed_pct_series_above_100_printed_with_to_string() -> None:
    f = one(check(gather_p("""
        positivity = (tests.groupby("clinic")
                           .apply(lambda g: g.positive.sum() / g.patient.nunique())
                           .mul(100).round(1)
                           .rename("positivity_pct"))
        print(positivity.to_string())
    """)), PROP)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_fraction_column_above_one_in_a_results_table() -> None:
    f = one(check(gather_p("""
        lots["fraction_defective"] = lots.defects_found / lots.units_sampled
        print(lots[["line", "fraction_defective"]].to_string(index=False))
    """)), PROP)
    assert f.severity == "critical" and "as fractions" in f.explanation


def test_scalar_prevalence_over_the_wrong_denominator() -> None:
    f = one(check(gather_p("""
        ayr = towns.iloc[0]
        prevalence_pct = 100 * ayr.cases / ayr.households
        print(f"Ayr: {prevalence_pct:.1f}% of residents affected")
    """)), PROP)
    assert f.severity == "critical" and "130" in f.explanation


def test_assign_keyword_percentage_of_contacts_over_invitations() -> None:
    f = one(check(gather_p("""
        summary = mail.assign(response_pct=lambda d: d.contacts / d.invited * 100)
        print(summary.round(1).to_string())
    """)), PROP)
    assert f.severity == "high"


def test_sound_proportions_stay_quiet() -> None:
    for code in (
        # each clinic's tests over its own number of tests
        """
        positivity = (tests.groupby("clinic").positive.mean().mul(100).round(1)
                           .rename("positivity_pct"))
        print(positivity.to_string())
        """,
        """
        lots["fraction_defective"] = lots.defective_units / lots.units_sampled
        print(lots[["line", "fraction_defective"]].to_string(index=False))
        """,
        """
        ayr = towns.iloc[0]
        prevalence_pct = 100 * ayr.cases / ayr.residents
        print(f"Ayr: {prevalence_pct:.1f}% of residents affected")
        """,
        """
        summary = mail.assign(response_pct=lambda d: d.replied / d.invited * 100)
        print(summary.round(1).to_string())
        """,
        # percentages that may exceed 100: growth, attainment of a target, rates per 100k
        """
        towns["case_growth_pct"] = towns.cases.pct_change() * 100
        towns["pct_of_target"] = towns.cases / 50 * 100
        towns["prevalence_per_100k"] = towns.cases / towns.residents * 100_000
        print(towns.to_string())
        """,
        # a prevalence already in percent through a named constant: values up to 100 are fine
        """
        prevalence = tests.groupby("clinic").positive.mean().pipe(lambda s: s * PCT)
        print(prevalence.round(1))
        """,
    ):
        silent(check(gather_p(code), PROP))


# -- negative values of quantities that cannot be negative -------------------------------------

NONNEG = "suspicious_values.negative_physical_quantity"
FIELD = """
import numpy as np, pandas as pd
from sklearn.linear_model import LinearRegression
rng = np.random.default_rng(5)
n = 200
logs = pd.DataFrame({"stand": rng.choice(["N", "S"], n), "dbh_cm": rng.normal(35, 6, n),
                     "height_m": rng.normal(18, 3, n), "stump_m": rng.normal(0.4, 0.1, n)})
logs.loc[:9, "stump_m"] = logs.loc[:9, "height_m"] + 2.0      # stump recorded in cm by mistake
absorbance = rng.normal(0.05, 0.04, 30)                          # near the blank
standards = np.array([0.0, 1.0, 2.0, 5.0, 10.0])
signal = 0.02 + 0.11 * standards + rng.normal(0, 0.005, 5)
kids = pd.DataFrame({"height_cm": rng.normal(120, 15, n)})
kids["age_years"] = (kids.height_cm - 70) / 6 + rng.normal(0, 1.5, n)
catalogue = [("A12", 20.0, 0.25), ("B07", 15.0, 1.4), ("C33", 9.5, 0.1)]
"""


def test_negative_volume_column_summarised_by_group() -> None:
    f = one(check(run_and_gather("""
        logs["volume_m3"] = 7.85e-5 * logs.dbh_cm ** 2 * (logs.height_m - logs.stump_m)
        print(logs.groupby("stand")["volume_m3"].sum().round(1))
    """, FIELD)), NONNEG)
    assert f.severity == "high" and "volume" in f.explanation


def test_calibration_inverse_gives_a_negative_mean_concentration() -> None:
    f = one(check(run_and_gather("""
        slope, intercept = np.polyfit(standards, signal, 1)
        conc = (absorbance - intercept) / slope
        mean_conc = conc.mean()
        print(f"mean concentration: {mean_conc:.3f} mg/L")
    """, FIELD + "absorbance = absorbance - 0.1\n")), NONNEG)
    assert f.severity == "high" and "concentration" in f.explanation


def test_regression_predicts_negative_ages_and_a_helper_gives_negative_prices() -> None:
    f = one(check(run_and_gather("""
        model = LinearRegression().fit(kids[["height_cm"]], kids.age_years)
        grid = pd.DataFrame({"height_cm": np.linspace(40, 180, 15)})
        grid["predicted_age"] = model.predict(grid[["height_cm"]])
        print(grid.describe())
    """, FIELD)), NONNEG)
    assert "age" in f.explanation
    f = one(check(run_and_gather("""
        def sale_price(list_price, discount):
            return list_price * (1 - discount)
        for sku, p, d in catalogue:
            print(f"{sku} price: {sale_price(p, d):.2f}")
    """, FIELD)), NONNEG)
    assert f.severity == "high" and "price" in f.explanation


def test_signed_or_checked_quantities_stay_quiet() -> None:
    # a difference of distances, a log concentration, a change in price: signed by meaning
    silent(check(run_and_gather("""
        d_a, d_b = 3.2, 4.7
        distance_gap = d_a - d_b
        print(f"distance: {d_a - d_b:.2f} km")
        log_conc = np.log10(np.array([0.2, 0.5]))
        print("log concentration:", log_conc.mean())
        price_change = -1.5
        print(f"price change: {price_change}")
        print(f"x position: {-3.2}")
        sim = pd.DataFrame({"sqft": rng.normal(1500, 400, 300)})
        sim["price"] = 150 * sim.sqft - 20000 + rng.normal(0, 60000, 300)  # a linear model
        print(sim.price.describe())
    """, FIELD), NONNEG))
    # the negative volumes are found and dealt with in the cell
    silent(check(run_and_gather("""
        logs["volume_m3"] = 7.85e-5 * logs.dbh_cm ** 2 * (logs.height_m - logs.stump_m)
        bad = logs.volume_m3 < 0
        print(f"{bad.sum()} logs with stump above height: excluded")
        print(logs[~bad].groupby("stand")["volume_m3"].sum().round(1))
    """, FIELD), NONNEG))
    # all values valid: the same computations on sound inputs
    silent(check(run_and_gather("""
        logs["stump_m"] = logs["stump_m"].clip(upper=1.0)
        logs["volume_m3"] = 7.85e-5 * logs.dbh_cm ** 2 * (logs.height_m - logs.stump_m)
        print(logs.groupby("stand")["volume_m3"].sum().round(1))
        slope, intercept = np.polyfit(standards, signal, 1)
        conc = (absorbance + 0.5 - intercept) / slope
        print(f"mean concentration: {conc.mean():.3f} mg/L")
    """, FIELD), NONNEG))



FIT_STATS = """
import numpy as np, pandas as pd
from scipy import stats
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(11)
n = 300
segs = pd.DataFrame({"age": rng.uniform(0, 80, n), "km": rng.uniform(0.2, 5, n)})
segs["bursts"] = rng.poisson(0.05 * segs.km * (1 + segs.age / 40))
pk = pd.DataFrame({"arm": np.repeat(["ref", "test"], 12),
                   "auc": np.r_[rng.lognormal(6, 0.3, 12), rng.lognormal(6.6, 0.3, 12)]})
t = np.array([0, 0.5, 1, 2, 4, 8, 12, 24.0])
conc = 80 * (np.exp(-0.15 * t) - np.exp(-1.2 * t))
"""


def test_pearson_fit_statistics_are_not_correlations() -> None:
    # Pearson's chi-square, the Pearson dispersion (chi2 / df) and a contingency chi-square
    # are goodness-of-fit statistics named after Pearson: above 1 by design
    for code in ("""
        fit = smf.glm("bursts ~ age", data=segs, offset=np.log(segs.km),
                      family=sm.families.Poisson()).fit()
        print(f"Pearson dispersion {fit.pearson_chi2 / fit.df_resid:.2f} on {fit.df_resid:.0f} df")
    """, """
        fit = smf.poisson("bursts ~ age", data=segs, offset=np.log(segs.km)).fit(disp=0)
        mu = fit.predict()
        chi2 = float(((segs.bursts - mu) ** 2 / mu).sum())
        print("Pearson chi2 / df:", round(chi2 / fit.df_resid, 2))
    """, """
        tab = pd.crosstab(segs.age > 40, segs.bursts > 0)
        stat, p, dof, _ = stats.chi2_contingency(tab, correction=False)
        print(f"Pearson's chi-square = {stat:.2f} (df {dof}), p = {p:.3f}")
    """, """
        fit = sm.GLM(segs.bursts, sm.add_constant(segs[["age"]]),
                     family=sm.families.Poisson(), offset=np.log(segs.km)).fit()
        pearson_disp = fit.pearson_chi2 / fit.df_resid + 1.0
        pearson_chi2 = fit.pearson_chi2
        print(pearson_disp, pearson_chi2)
    """):
        H.quiet(H.run(RULES, code, FIT_STATS))


def test_pharmacokinetic_auc_is_not_a_roc_auc() -> None:
    # an area under a concentration-time curve (ng*h/mL) is an exposure, not a score
    for code in ("""
        gm = pk.groupby("arm").auc.apply(lambda a: np.exp(np.log(a).mean()))
        print(f"geometric mean AUC ref {gm['ref']:.0f}, test {gm['test']:.0f} ng*h/mL")
    """, """
        print("AUC0-inf (ng*h/mL):", pk.groupby("arm").auc.median().round(1).to_dict())
    """, """
        auc_0_24 = float(np.trapezoid(conc, t))
        print(f"AUC 0-24 h = {auc_0_24:.1f}")
    """, """
        rows = []
        for arm, g in pk.groupby("arm"):
            rows.append(f"{arm}: AUC {g.auc.mean():.1f} mg*h/L")
        print("; ".join(rows))
    """):
        H.quiet(H.run(RULES, code, FIT_STATS))


def test_a_correlation_or_roc_auc_out_of_range_is_still_flagged() -> None:
    one(H.run(RULES, """
        print(f"Pearson r = {1.14:.2f}")
    """, FIT_STATS), "suspicious_values.correlation_out_of_range")
    # an "AUC" above 100 next to a classifier's scores is a broken ROC AUC, not an area
    one(H.run(RULES, """
        from sklearn.linear_model import LogisticRegression
        Xs = segs[["age", "km"]].to_numpy(); ys = (segs.bursts > 0).astype(int)
        proba = LogisticRegression().fit(Xs, ys).predict_proba(Xs)[:, 1]
        pos, neg = proba[ys == 1], proba[ys == 0]
        auc = float(sum((p > neg).sum() for p in pos))
        print(f"AUC: {auc:.1f}")
    """, FIT_STATS), "suspicious_values.probability_out_of_range")
    # a hand-rolled correlation named after Pearson still has to lie in [-1, 1]
    one(H.run(RULES, """
        x, y = segs.age.to_numpy(), segs.km.to_numpy()
        pearson_r = np.cov(x, y)[0, 1] / (x.std() * y.std()) * 40
        print("Pearson correlation:", round(pearson_r, 3))
    """, FIT_STATS), "suspicious_values.correlation_out_of_range")


# -- placeholder codes (65535, 999, -999...) summarised as real values ---------------------------

SENTINELS = """
import numpy as np, pandas as pd, statistics
rng = np.random.default_rng(11)
n = 3000
stations = rng.choice(["north", "harbour", "ridge"], n)
pm = rng.gamma(4, 6, n).round(1)
pm[rng.random(n) < 0.03] = 999          # monitor offline
air = pd.DataFrame({"station": stations, "pm25": pm,
                    "status": np.where(pm == 999, "offline", "ok")})
age = rng.integers(18, 90, n).astype(float)
age[rng.random(n) < 0.04] = -999        # not asked
survey = pd.DataFrame({"age": age, "answered": age >= 0})
dur = rng.gamma(3, 200, n).round()
dur[rng.random(n) < 0.02] = 65535       # trip never closed
trips = pd.DataFrame({"bike": rng.integers(0, 40, n), "duration_s": dur.astype(int),
                      "closed": dur < 65535})
lat = rng.lognormal(4, 0.5, n).round()
lat[rng.random(n) < 0.02] = 9999        # request timed out
logs = pd.DataFrame({"endpoint": rng.choice(["/a", "/b"], n), "latency_ms": lat,
                     "ok": lat < 9999})
tickets = pd.DataFrame({"seat": rng.integers(0, 1000, n), "zone": rng.choice(list("AB"), n)})
"""
RULE_SENTINEL = "suspicious_values.sentinel_code_in_summary"


def test_placeholder_code_in_a_groupby_named_aggregation_is_flagged() -> None:
    f = one(H.run(RULES, """
        by_station = air.groupby("station").agg(mean_pm=("pm25", "mean"),
                                               p95_pm=("pm25", lambda s: s.quantile(0.95)),
                                               readings=("pm25", "count"))
        print(by_station.round(1))
    """, SENTINELS), RULE_SENTINEL)
    # 3% of readings at 999 next to values around 24: the mean is more than 2x off
    assert f.severity == "critical" and "999" in f.explanation and "x above" in f.explanation
    # sound: the summary reads the rows whose status says the monitor was on
    H.quiet(H.run(RULES, """
        online = air[air.status == "ok"]
        by_station = online.groupby("station").agg(mean_pm=("pm25", "mean"),
                                                  readings=("pm25", "count"))
        print(by_station.round(1))
    """, SENTINELS))


def test_negative_placeholder_in_describe_is_flagged() -> None:
    f = one(H.run(RULES, """
        print(survey["age"].describe())
    """, SENTINELS), RULE_SENTINEL)
    assert "-999" in f.explanation
    # sound: the rows the survey did not ask are masked out first
    H.silent([x for x in H.run(RULES, """
        print(survey.loc[survey.answered, "age"].describe())
    """, SENTINELS) if x.rule_id == RULE_SENTINEL])


def test_overflow_code_averaged_with_numpy_on_values_is_flagged() -> None:
    f = one(H.run(RULES, """
        d = trips["duration_s"].values
        mean_trip = float(np.mean(d))
        p90_trip = float(np.percentile(d, 90))
        print(f"mean trip {mean_trip / 60:.1f} min, p90 {p90_trip / 60:.1f} min")
    """, SENTINELS), RULE_SENTINEL)
    assert f.severity == "critical" and "65535" in f.explanation
    # sound: the unclosed trips are replaced by NaN before averaging
    H.silent([x for x in H.run(RULES, """
        d = trips["duration_s"].replace(65535, np.nan).to_numpy()
        mean_trip = float(np.nanmean(d))
        print(f"mean trip {mean_trip / 60:.1f} min")
    """, SENTINELS) if x.rule_id == RULE_SENTINEL])


def test_placeholder_code_through_a_helper_function_is_flagged() -> None:
    one(H.run(RULES, """
        def latency_summary(frame):
            out = frame.groupby("endpoint")["latency_ms"].agg(["mean", "median", "std"])
            return out

        summary = latency_summary(logs)
        print(summary.round(1))
    """, SENTINELS), RULE_SENTINEL)
    # sound: the helper is given the requests that completed
    H.silent([x for x in H.run(RULES, """
        def latency_summary(frame):
            out = frame.groupby("endpoint")["latency_ms"].agg(["mean", "median", "std"])
            return out

        summary = latency_summary(logs[logs.ok])
        print(summary.round(1))
    """, SENTINELS) if x.rule_id == RULE_SENTINEL])


def test_placeholder_code_in_a_loop_over_groups_and_statistics_module() -> None:
    f = one(H.run(RULES, """
        for bike, g in trips.groupby("bike"):
            if bike < 2:
                print(bike, round(statistics.mean(g["duration_s"]), 1))
    """, SENTINELS), RULE_SENTINEL)
    # nothing kept, but the kernel's tails show 2% of trips at 65535 with the next value near
    # 2,000: the printed means are several times what the trips took
    assert f.severity == "critical" and f.evidence["values"]["code_rows"] >= 2
    H.silent([x for x in H.run(RULES, """
        for bike, g in trips[trips.closed].groupby("bike"):
            if bike < 2:
                print(bike, round(statistics.mean(g["duration_s"]), 1))
    """, SENTINELS) if x.rule_id == RULE_SENTINEL])


def test_a_maximum_of_999_that_is_an_ordinary_value_is_quiet() -> None:
    # seat numbers run evenly from 0 to 999: the mean (about 500) is of the same order
    H.silent([x for x in H.run(RULES, """
        seat_mean = tickets.groupby("zone")["seat"].mean()
        print(seat_mean)
        overall = np.mean(tickets.seat.to_numpy())
        print(tickets.seat.describe())
    """, SENTINELS) if x.rule_id == RULE_SENTINEL])


def test_minus_one_in_a_column_that_cannot_be_negative_is_flagged() -> None:
    setup = SENTINELS + """
tenure = rng.integers(0, 120, n).astype(float)
tenure[rng.random(n) < 0.1] = -1          # unknown start date
temp = rng.integers(-1, 30, n).astype(float)
staff = pd.DataFrame({"dept": rng.choice(["ops", "it", "hr"], n), "tenure_months": tenure,
                      "office_temp": temp})
"""
    f = one(H.run(RULES, """
        avg = {d: g["tenure_months"].mean() for d, g in staff.groupby("dept")}
        print(avg)
    """, setup), RULE_SENTINEL)
    assert "cannot be negative" in f.explanation
    # sound: a temperature may well be -1
    H.silent([x for x in H.run(RULES, """
        avg = {d: g["office_temp"].mean() for d, g in staff.groupby("dept")}
        print(avg)
    """, setup) if x.rule_id == RULE_SENTINEL])


TAIL_CODES = """
import numpy as np, pandas as pd, statistics
rng = np.random.default_rng(23)
n = 4000
kwh = rng.gamma(5, 4, n).round(1)
kwh[rng.random(n) < 0.002] = 99999      # meter fault, rare
meters = pd.DataFrame({"site": rng.choice(["a", "b", "c"], n), "kwh": kwh,
                       "kwh_fixed": np.where(kwh == 99999, np.nan, kwh)})
steps = rng.poisson(40, n).astype(float)
steps[rng.random(n) < 0.06] = 32767     # pedometer overflow
walk = pd.DataFrame({"user": rng.integers(0, 50, n), "steps": steps})
score = rng.integers(0, 1000, n).astype(float)          # spread evenly up to 999
score[:40] = 999
exam = pd.DataFrame({"score": score, "room": rng.choice(list("xyz"), n)})
aht = rng.gamma(6, 60, n).round() + 90                  # handle times start at 90 s
aht[rng.random(n) < 0.15] = 0                           # not logged
visits = rng.poisson(0.7, n)                            # many real zeros
wait = rng.exponential(200, n).round()                  # real waits down to 0 s
calls = pd.DataFrame({"agent": rng.choice(["ann", "bo", "cy"], n), "handle_time_s": aht,
                      "visits": visits, "queue_wait_s": wait})
"""


def _sentinel(code: str) -> list:
    return [x for x in H.run(RULES, code, TAIL_CODES) if x.rule_id == RULE_SENTINEL]


def test_a_set_apart_code_in_a_cell_that_only_prints_a_summary() -> None:
    for code in ("""
        print(walk.steps.mean())
    """, """
        arr = walk["steps"].to_numpy()
        print(f"average {np.mean(arr):.0f} steps")
    """, """
        walk.groupby("user")["steps"].sum()
    """):
        (f,) = _sentinel(code)
        assert f.severity == "critical" and "32767" in f.explanation
        assert f.evidence["values"]["code_rows"] > 100
    # sound twins: the overflow rows are dropped, or the values run evenly up to 999
    for code in ("""
        print(walk.steps[walk.steps < 30000].mean())
    """, """
        print(f"average score {np.mean(exam['score'].to_numpy()):.0f}")
    """, """
        exam.groupby("room")["score"].sum()
    """, """
        print(exam.score.describe())
    """):
        assert not _sentinel(code)


def test_a_rare_code_that_does_not_double_the_mean_is_high_not_critical() -> None:
    # 0.2% of readings at 99999 next to values around 20: set apart, so flagged, but a median
    # or a percentile is not averaged: high, not critical
    for code in ("""
        print(meters.kwh.median())
    """, """
        q = np.percentile(meters["kwh"].to_numpy(), 90)
        print(q)
    """, """
        print(meters.groupby("site")["kwh"].quantile(0.5))
    """):
        (f,) = _sentinel(code)
        assert f.severity == "high" and "99999" in f.explanation  # a median is not averaged
    for code in ("""
        print(meters.kwh_fixed.median())
    """, """
        print(np.nanpercentile(meters["kwh_fixed"].to_numpy(), 90))
    """, """
        print(meters.groupby("site")["kwh_fixed"].quantile(0.5))
    """):
        assert not _sentinel(code)


def test_a_spike_of_zeros_in_a_handle_time_that_starts_far_above_zero() -> None:
    for code in ("""
        print(calls.groupby("agent")["handle_time_s"].mean())
    """, """
        avg = np.mean(calls.handle_time_s.to_numpy())
        print(round(avg, 1))
    """, """
        for agent, g in calls.groupby("agent"):
            print(agent, round(statistics.fmean(g["handle_time_s"]), 1))
    """):
        (f,) = _sentinel(code)
        assert f.severity == "high" and "cannot really be 0" in f.explanation
    # sound: counts with many real zeros, waits that run continuously down to 0
    for code in ("""
        print(calls.groupby("agent")["visits"].mean())
    """, """
        avg = np.mean(calls.queue_wait_s.to_numpy())
        print(round(avg, 1))
    """, """
        for agent, g in calls.groupby("agent"):
            print(agent, round(statistics.fmean(g["queue_wait_s"]), 1))
    """, """
        print(calls.loc[calls.handle_time_s > 0, "handle_time_s"].mean())
    """):
        assert not _sentinel(code)


# -- a whole number inside a label counts what the label names; it is not the metric's value ----

@pytest.mark.parametrize("code,out", [
    # statsmodels Logit: pseudo R2 and a held-out AUC over the last N rows
    ("""
    exog = sm.add_constant(X[:, :2])
    fit = sm.Logit(yc[:150], exog[:150]).fit(disp=0)
    p = fit.predict(exog[150:])
    print(f"pseudo R2 {fit.prsquared:.3f}; AUC on last {len(p)} rows: "
          f"{roc_auc_score(yc[150:], p):.3f}")
    """, None),
    # np.column_stack exog; odds ratios, then in-sample accuracy over all rows
    ("""
    exog = np.column_stack([np.ones(len(X)), X[:, 0], X[:, 1]])
    res = sm.Logit(yc, exog).fit(disp=0)
    acc = accuracy_score(yc, res.predict(exog) > 0.5)
    print("odds ratios", np.exp(res.params).round(2))
    print(f"accuracy over {len(yc)} patients = {acc:.3f}")
    """, None),
    # a DataFrame exog; marginal effects, then R2 for a year
    ("""
    df = pd.DataFrame(X[:, :2], columns=["a", "b"])
    res = sm.Logit(yc, sm.add_constant(df)).fit(disp=0)
    print(res.get_margeff().summary_frame().round(3))
    print("precision for 2021: 0.74, recall on 120 flagged cases: 0.69")
    """, None),
    ("print(summary)", "ROC AUC across 5000 bootstrap resamples: 0.812 (95% CI 0.77-0.85)\n"),
])
def test_counts_inside_a_label_are_not_values(code: str, out: str | None) -> None:
    setup = SETUP + "from sklearn.metrics import roc_auc_score\n"
    ev = evidence(code, outputs=stdout(out)) if out else gather(code, setup)
    quiet(check(ev, PR))
    assert not check(ev, PR)


@pytest.mark.parametrize("text", [
    "ROC AUC on last 300 patients: -0.84\n",
    "R2 for 2019: 1.27\n",
    "accuracy over 5 folds = 132.5\n",
])
def test_a_bad_value_after_a_counted_label_is_still_reported(text: str) -> None:
    ev = evidence("print(report)", outputs=stdout(text))
    f = one(check(ev), PR)
    assert f.severity == "critical"
    assert any(x in str(f.evidence["values"]) for x in ("-0.84", "1.27", "132.5"))


# -- a block of zeros standing for 'did not happen' in a quantity that cannot be 0 -------------

ZERO_BLOCKS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(7)
n = 900
cat = rng.choice(["toys", "tools", "books", "audio"], n)
start = np.round(rng.lognormal(3.5, 0.7, n), 2)
unsold = rng.random(n) < np.where(cat == "books", 0.35, 0.15)
listings = pd.DataFrame({"category": cat, "start_bid": start,
                         "final_price": np.where(unsold, 0.0, np.round(start * rng.lognormal(
                             0.3, 0.3, n), 2)),
                         "watchers": rng.poisson(1.2, n)})
ward = rng.choice(["A", "B", "C"], n)
weighed = rng.random(n) > 0.12
babies = pd.DataFrame({"ward": ward,
                       "birth_weight_g": np.where(weighed, rng.normal(3350, 480, n).round(),
                                                  0.0),
                       "apgar": rng.integers(4, 11, n)})
region = rng.choice(["north", "south", "east"], n)
closed = rng.random(n) > 0.25
asking = np.round(rng.lognormal(12.3, 0.4, n), -3)
homes = pd.DataFrame({"region": region, "status": np.where(closed, "closed", "withdrawn"),
                      "asking_price": asking,
                      "sale_price": np.where(closed, np.round(asking * rng.normal(
                          0.97, 0.04, n), -2), 0.0),
                      "close_amount": np.where(closed, np.round(asking * 0.97, -2), 0.0)})
station = rng.choice(["s1", "s2", "s3", "s4"], n)
wet = rng.random(n) < 0.45
weather = pd.DataFrame({"station": station,
                        "rain_mm": np.where(wet, np.round(rng.exponential(3.0, n), 1), 0.0),
                        "units_sold": rng.poisson(2.5, n),
                        "defects": rng.poisson(0.4, n)})
bought = rng.random(n) < 0.3
shop = pd.DataFrame({"channel": rng.choice(["ads", "seo", "mail"], n),
                     "converted": bought.astype(int),
                     "revenue": np.where(bought, np.round(rng.lognormal(3.8, 0.5, n), 2), 0.0)})
"""


def _zero(code: str) -> list:
    return [x for x in H.run(RULES, code, ZERO_BLOCKS) if x.rule_id == RULE_SENTINEL]


@pytest.mark.parametrize("code", [
    # a groupby with named aggregations: unsold listings averaged in at a price of 0
    """
    by_cat = listings.groupby("category").agg(n=("start_bid", "size"),
                                              avg_price=("final_price", "mean"),
                                              mid_price=("final_price", "median"))
    by_cat
    """,
    # numpy on the raw values: babies never weighed averaged in at 0 g
    """
    w = babies["birth_weight_g"].values
    print(f"mean birth weight {np.mean(w):.0f} g")
    """,
    # a ratio of means in a helper, called per region: withdrawn homes sold 'for 0'
    """
    def sale_to_ask(d):
        return d["sale_price"].mean() / d["asking_price"].mean()

    for r, grp in homes.groupby("region"):
        print(r, round(sale_to_ask(grp), 3))
    """,
])
def test_a_block_of_zeros_in_a_price_or_weight_is_a_placeholder(code: str) -> None:
    (f,) = _zero(code)
    assert f.severity == "high" and "cannot really be 0" in f.explanation
    assert f.evidence["values"]["code"] == 0.0 and f.evidence["values"]["code_rows"] >= 10
    assert "> 0" in f.suggestion


def test_a_status_column_marking_the_zero_rows_is_cited() -> None:
    (f,) = _zero("""
    def sale_to_ask(d):
        return d["sale_price"].mean() / d["asking_price"].mean()
    print(round(sale_to_ask(homes), 3))
    """)
    assert f.severity == "high" and f.confidence >= 0.75
    assert f.evidence["values"]["status_column"] == "status" and "withdrawn" in f.explanation
    # a neutral name whose zeros line up with a status: a note, not a high finding
    (g,) = _zero("""
    print(homes.groupby("region")["close_amount"].mean())
    """)
    assert g.severity == "medium" and "status" in g.explanation


@pytest.mark.parametrize("code", [
    # the twins: zeros filtered, replaced by NaN, or the summary on the status's rows
    """
    sold = listings[listings["final_price"] > 0]
    by_cat = sold.groupby("category").agg(n=("start_bid", "size"),
                                          avg_price=("final_price", "mean"),
                                          mid_price=("final_price", "median"))
    by_cat
    """,
    """
    w = babies["birth_weight_g"].replace(0, np.nan).values
    print(f"mean birth weight {np.nanmean(w):.0f} g")
    """,
    """
    def sale_to_ask(d):
        return d["sale_price"].mean() / d["asking_price"].mean()

    done = homes[homes.status == "closed"]
    for r, grp in done.groupby("region"):
        print(r, round(sale_to_ask(grp), 3))
    """,
    """
    print(listings.query("final_price > 0").groupby("category")["final_price"].mean())
    """,
    # a total is not moved by zeros
    """
    print(f"gross merchandise value {listings['final_price'].sum():,.2f}")
    """,
    # zero is an ordinary value: dry days, units sold, defects, watchers, revenue per visitor
    """
    print(weather.groupby("station").agg(rain=("rain_mm", "mean"), units=("units_sold", "mean"),
                                         defects=("defects", "mean")))
    """,
    """
    print(np.mean(weather["rain_mm"].to_numpy()), np.median(listings["watchers"].to_numpy()))
    """,
    """
    def per_visitor(d):
        return d["revenue"].mean()
    for ch, g in shop.groupby("channel"):
        print(ch, round(per_visitor(g), 2))
    """,
])
def test_zeros_that_are_handled_or_real_values_stay_quiet(code: str) -> None:
    found = _zero(code)
    quiet(found)
    assert not found


# -- linear probability model: predictions of a 0/1 outcome outside [0, 1] ---------------------

LPM_SETUP = """
import numpy as np, pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from sklearn.linear_model import LinearRegression, LogisticRegression
rng = np.random.default_rng(11)
n = 500
visits = pd.DataFrame({
    "age": rng.uniform(18, 90, n),
    "smoker": rng.integers(0, 2, n),
    "prior_visits": rng.poisson(2, n),
})
z = -6 + 0.08 * visits.age + 1.2 * visits.smoker + 0.3 * visits.prior_visits
visits["readmitted"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
"""

LPM_ID = "suspicious_values.lpm_probability_out_of_range"

LPM_FLAWED = {
    # a dict of scenarios, each predicted on a one-row frame and printed in an f-string
    "formula_scenarios_fstring": """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        cases = {"young non-smoker": dict(age=20, smoker=0, prior_visits=0),
                 "elderly smoker": dict(age=89, smoker=1, prior_visits=6)}
        for label, row in cases.items():
            p = lpm.predict(pd.DataFrame([row])).iloc[0]
            print(f"{label}: chance of readmission {p:.2f}")
    """,
    # fitted values of an array OLS summarised with min / max
    "fittedvalues_min_max": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits["readmitted"], X).fit()
        fv = res.fittedvalues
        print(f"predicted readmission risk ranges from {fv.min():.3f} to {fv.max():.3f}")
    """,
    # the linear predictor by hand: np.dot of the coefficients with a design row
    "params_dot_row": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits.readmitted, X).fit()
        row = [1.0, 90.0, 1.0, 8.0]
        p_readmit = np.dot(res.params, row)
        print("probability of readmission, 90-year-old smoker:", round(p_readmit, 3))
    """,
    # sklearn least squares, predictions stored in a scenario frame that is printed
    "sklearn_frame_column": """
        cols = ["age", "smoker", "prior_visits"]
        reg = LinearRegression().fit(visits[cols], visits["readmitted"])
        grid = pd.DataFrame({"age": [18, 50, 90], "smoker": [0, 1, 1], "prior_visits": [0, 3, 9]})
        grid["risk"] = reg.predict(grid[cols])
        print(grid.round(3).to_string(index=False))
    """,
    # statsmodels prediction frame, the point column carried into a profile table by assign
    "assign_from_summary_frame": """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit(cov_type="HC1")
        who = pd.DataFrame({"age": [25, 60, 92], "smoker": [0, 1, 1], "prior_visits": [0, 2, 9]})
        sf = lpm.get_prediction(who).summary_frame(alpha=0.1)
        table = who.assign(p_readmit=sf["mean"].round(3), upper=sf["mean_ci_upper"].round(3))
        table
    """,
    # sklearn predictions placed in a new frame by a dict constructor
    "dict_frame_constructor": """
        cols = ["age", "smoker", "prior_visits"]
        reg = LinearRegression().fit(visits[cols].to_numpy(), visits["readmitted"].to_numpy())
        new = np.array([[19, 0, 0], [88, 1, 7]])
        res = pd.DataFrame({"patient": ["a", "b"], "prob_readmit": reg.predict(new)})
        print(res.round(3))
    """,
}

LPM_SOUND = {
    # the same scenarios through a logistic model
    "formula_scenarios_fstring": """
        lgt = smf.logit("readmitted ~ age + smoker + prior_visits", data=visits).fit(disp=0)
        cases = {"young non-smoker": dict(age=20, smoker=0, prior_visits=0),
                 "elderly smoker": dict(age=89, smoker=1, prior_visits=6)}
        for label, row in cases.items():
            p = lgt.predict(pd.DataFrame([row])).iloc[0]
            print(f"{label}: chance of readmission {p:.2f}")
    """,
    # fitted values clipped to [0, 1], with the number clipped stated
    "fittedvalues_min_max": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits["readmitted"], X).fit()
        outside = ((res.fittedvalues < 0) | (res.fittedvalues > 1)).sum()
        fv = res.fittedvalues.clip(0, 1)
        print(f"{outside} fitted values fell outside [0, 1] and were clipped (LPM caveat)")
        print(f"predicted readmission risk ranges from {fv.min():.3f} to {fv.max():.3f}")
    """,
    # the same LPM, asked about a profile whose prediction stays inside [0, 1]
    "params_dot_row": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits.readmitted, X).fit()
        row = [1.0, 55.0, 0.0, 2.0]
        p_readmit = np.dot(res.params, row)
        print("probability of readmission, 55-year-old non-smoker:", round(p_readmit, 3))
    """,
    # a classifier's predict_proba for the same grid
    "sklearn_frame_column": """
        cols = ["age", "smoker", "prior_visits"]
        clf = LogisticRegression(max_iter=1000).fit(visits[cols], visits["readmitted"])
        grid = pd.DataFrame({"age": [18, 50, 90], "smoker": [0, 1, 1], "prior_visits": [0, 3, 9]})
        grid["risk"] = clf.predict_proba(grid[cols])[:, 1]
        print(grid.round(3).to_string(index=False))
    """,
    "assign_from_summary_frame": """
        lgt = smf.logit("readmitted ~ age + smoker + prior_visits", data=visits).fit(disp=0)
        who = pd.DataFrame({"age": [25, 60, 92], "smoker": [0, 1, 1], "prior_visits": [0, 2, 9]})
        sf = lgt.get_prediction(who).summary_frame(alpha=0.1)
        table = who.assign(p_readmit=sf["predicted"].round(3), upper=sf["ci_upper"].round(3))
        table
    """,
    "dict_frame_constructor": """
        cols = ["age", "smoker", "prior_visits"]
        clf = LogisticRegression(max_iter=1000).fit(visits[cols].to_numpy(),
                                                    visits["readmitted"].to_numpy())
        new = np.array([[19, 0, 0], [88, 1, 7]])
        res = pd.DataFrame({"patient": ["a", "b"], "prob_readmit": clf.predict_proba(new)[:, 1]})
        print(res.round(3))
    """,
}


@pytest.mark.parametrize("idiom", sorted(LPM_FLAWED))
def test_lpm_predictions_outside_0_1_reported_as_probabilities(idiom: str) -> None:
    ev = run_and_gather(LPM_FLAWED[idiom], LPM_SETUP)
    f = one(check(ev), LPM_ID)
    assert f.severity == "critical" and f.confidence >= 0.8, f.explanation
    assert "readmitted" in f.explanation
    assert any(v > 1 or v < 0 for v in f.evidence["values"]["predictions_outside_0_1"])


@pytest.mark.parametrize("idiom", sorted(LPM_SOUND))
def test_lpm_sound_twins_stay_quiet(idiom: str) -> None:
    ev = run_and_gather(LPM_SOUND[idiom], LPM_SETUP)
    found = check(ev)
    quiet(found)
    assert not [f for f in found if f.rule_id == LPM_ID], [f.explanation for f in found]


def test_lpm_predictions_printed_without_a_probability_label_are_only_noted() -> None:
    code = """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        fitted = lpm.predict(pd.DataFrame({"age": [20, 89], "smoker": [0, 1],
                                           "prior_visits": [0, 6]}))
        print(fitted.round(2).tolist())
    """
    found = check(run_and_gather(code, LPM_SETUP))
    quiet(found)
    assert one(found, LPM_ID).severity == "medium"


def test_lpm_on_a_continuous_response_is_not_a_probability_model() -> None:
    code = """
        visits["los_days"] = visits.age / 10 + visits.prior_visits
        res = smf.ols("los_days ~ age + smoker", data=visits).fit()
        p = res.predict(pd.DataFrame({"age": [95], "smoker": [1]})).iloc[0]
        print(f"predicted stay, p-profile: {p:.2f} days")
    """
    silent(check(run_and_gather(code, LPM_SETUP), LPM_ID))


# -- holdout14 misreadings: a measurement, a printed equation, a standardised coefficient ------

PV_ID = "suspicious_values.pvalue_out_of_range"
PROB_ID = "suspicious_values.probability_out_of_range"
VAR_ID = "suspicious_values.negative_variance"

MEASURE_SETUP = SETUP + """
load_kn = rng.uniform(2, 12, size=200)
failed = (load_kn + rng.normal(scale=2, size=200) > 7).astype(int)
lfit = sm.Logit(failed, sm.add_constant(load_kn)).fit(disp=0)
"""

# A number followed by a unit of measurement, under a label whose head noun is that
# measurement ("<quantity> for / at <…probability…>"), is not a probability.
MEASURE_SOUND = {
    "fstring_newton": """
        x50 = -lfit.params[0] / lfit.params[1] * 1000
        print(f"load for 50% failure probability: {x50:.0f} N")
    """,
    "format_days": """
        years = 1.4 * lfit.params[1] / lfit.params[1]
        print("time to 90% cure probability = {:.1f} years".format(years))
    """,
    "percent_format_mg": """
        dose = 135.2 + 0 * lfit.params[0]
        print("dose at %d%% response probability: %.1f mg" % (10, dose))
    """,
    "celsius_in_a_loop": """
        for q, t in [(0.95, 1.3), (0.99, 1.8)]:
            print(f"warming at {q:.0%} exceedance probability: {t:.1f} °C")
    """,
}


@pytest.mark.parametrize("idiom", sorted(MEASURE_SOUND))
def test_a_measurement_labelled_by_a_probability_is_not_a_probability(idiom: str) -> None:
    found = check(gather(MEASURE_SOUND[idiom], MEASURE_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id in (PROB_ID, PV_ID)], H.describe(found)


@pytest.mark.parametrize("line", [
    'print(f"probability of failure at the design load: {odds:.2f}")',
    'print(f"P(failure) = {odds:.2f}")',
    'print("failure probability: %.2f" % odds)',
])
def test_a_real_probability_above_1_is_still_blocked(line: str) -> None:
    code = "odds = float(np.exp(lfit.params[0] + lfit.params[1] * 7.5))\n" + line
    f = one(check(gather(code, MEASURE_SETUP)), PROB_ID)
    assert f.severity == "critical" and f.confidence >= 0.8, f.explanation


# Numbers that are terms of a printed equation are coefficients, not reported quantities; and
# P(event) is the probability of an event (under a logit it is any real number), not a p-value.
EQUATION_SOUND = {
    "logit_fstring": """
        print(f"logit P(failure) = {lfit.params[0]:.3f} + {lfit.params[1]:.4f} * load_kN"
              f"   (slope p = {lfit.pvalues[1]:.1e})")
    """,
    "calibration_line_format": """
        b = np.polyfit(load_kn, failed, 1)
        print("calibrated probability = {:.2f} * raw_score {:+.2f}".format(b[0] * 12, b[1]))
    """,
    "decay_curve_percent": """
        amp, rate = 1.35, 0.2
        print("fitted autocorrelation: rho = %.2f * exp(-%.2f * lag)" % (amp, rate))
    """,
    "equation_with_minus": """
        b0, b1 = -4.2, 1.7
        print(f"prob(failure) = expit({b0:.2f} + {b1:.2f} * load)")
        print(f"odds model: p = {abs(b0):.2f} - {b1:.2f} * load")
    """,
}


@pytest.mark.parametrize("idiom", sorted(EQUATION_SOUND))
def test_terms_of_a_printed_equation_are_not_reported_values(idiom: str) -> None:
    found = check(gather(EQUATION_SOUND[idiom], MEASURE_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id in (PROB_ID, PV_ID,
                                                    "suspicious_values.correlation_out_of_range")
                ], H.describe(found)


def test_a_real_pvalue_above_1_next_to_an_equation_is_still_blocked() -> None:
    code = """
        p_bonf = lfit.pvalues[1] * 40 + 1.2
        print(f"logit P(failure) = {lfit.params[0]:.3f} + {lfit.params[1]:.4f} * load"
              f"   (slope p = {p_bonf:.3f})")
    """
    f = one(check(gather(code, MEASURE_SETUP)), PV_ID)
    assert f.severity == "critical" and f.confidence >= 0.8, f.explanation


def test_a_real_event_probability_above_1_is_a_probability_not_a_pvalue() -> None:
    code = """
        p_fail = float(np.exp(lfit.params[0] + lfit.params[1] * 7.5))
        print(f"P(failure | 7.5 kN) = {p_fail:.2f}")
    """
    found = check(gather(code, MEASURE_SETUP))
    assert one(found, PROB_ID).severity == "critical"


# `std` in front of coef / beta / effect / score means standardised (signed), not a standard
# deviation; a column holding a fitted model's coefficients is signed whatever its name.
STD_SETUP = SETUP + """
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import Lasso
feats = ["income", "tenure", "debt", "age"]
"""

STD_SOUND = {
    "pipeline_coef_dataframe": """
        pipe = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, yc)
        w = pipe[-1].coef_[0]
        pd.DataFrame({"std_coef": w, "or_per_sd": np.exp(w)}, index=feats).round(3)
    """,
    "statsmodels_beta_series": """
        Z = (X - X.mean(0)) / X.std(0)
        res = sm.OLS(-y, sm.add_constant(Z)).fit()
        print(pd.Series(res.params[1:], index=feats, name="std_beta").round(3))
    """,
    "fstring_effect_size": """
        a, b = groups["a"], groups["f"]
        d = (a.mean() - b.mean()) / np.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
        print(f"std. effect (Cohen's d): {d:.2f}")
        print(f"SD score of group a: {(a.mean() - b.mean()) / b.std():.2f}")
    """,
    "coefficients_by_evidence": """
        las = Lasso(alpha=0.01).fit((X - X.mean(0)) / X.std(0), -y)
        tab = pd.DataFrame(index=feats)
        tab["sd_units"] = las.coef_
        tab.round(3)
    """,
}


@pytest.mark.parametrize("idiom", sorted(STD_SOUND))
def test_standardised_coefficients_are_not_standard_deviations(idiom: str) -> None:
    code = STD_SOUND[idiom]
    ev = displayed(textwrap.dedent(code), STD_SETUP) if idiom in ("pipeline_coef_dataframe",
                                                 "coefficients_by_evidence") \
        else gather(code, STD_SETUP)
    assert "-" in ev.text, ev.text  # a negative value is shown
    found = check(ev)
    quiet(found)
    assert not [f for f in found if f.rule_id == VAR_ID], H.describe(found)


@pytest.mark.parametrize("code", [
    """
        v = [float(np.mean(g) ** 2 - np.mean(g ** 2)) for g in groups.values()]
        pd.DataFrame({"sd": np.sign(v) * np.sqrt(np.abs(v))}, index=list(groups)).round(3)
    """,
    """
        boots = [np.mean(g[:20]) ** 2 - np.mean(g[:20] ** 2) for g in groups.values()]
        pd.DataFrame({"coef_var": boots}, index=list(groups)).round(3)
    """,
])
def test_a_real_negative_spread_in_a_table_is_still_blocked(code: str) -> None:
    f = one(check(displayed(textwrap.dedent(code), STD_SETUP)), VAR_ID)
    assert f.severity == "critical" and f.confidence >= 0.8, f.explanation


def test_a_real_negative_std_printed_is_still_blocked() -> None:
    code = """
        g = groups["c"]
        sd_hand = np.mean(g) ** 2 - np.mean(g ** 2)
        print(f"std of the residual load: {sd_hand:.3f}")
    """
    assert one(check(gather(code, STD_SETUP)), VAR_ID).severity == "critical"


# -- placeholder codes reached through a list of columns, negative codes under large values ----

LISTED_CODES = """
import numpy as np, pandas as pd
rng = np.random.default_rng(31)
n = 2400
ward = rng.choice(["cardio", "renal", "ortho"], n)
sbp = np.round(rng.normal(128, 14, n))
sbp[rng.random(n) < np.where(ward == "renal", 0.06, 0.01)] = 999    # not taken
hr = np.round(rng.normal(78, 11, n))
patients = pd.DataFrame({"ward": ward, "sbp": sbp, "heart_rate": hr,
                         "los_days": rng.integers(1, 20, n)})
absorb = np.round(rng.lognormal(7.2, 0.3, size=(n, 3)))             # counts in the thousands
absorb[rng.random((n, 3)) < 0.07] = -999                              # failed read
plates = pd.DataFrame(absorb, columns=["il6", "tnf", "crp"])
plates["arm"] = rng.choice(["drug", "placebo"], n)
signed = np.round(rng.normal(0, 300, n))                              # a signed change
signed[:30] = -999
deltas = pd.DataFrame({"arm": rng.choice(["a", "b"], n), "delta_mass": signed})
"""


def _listed(code: str) -> list:
    return [x for x in H.run(RULES, code, LISTED_CODES) if x.rule_id == RULE_SENTINEL]


@pytest.mark.parametrize("code", [
    # a list of vitals named once, then the group means of the frame's subset
    """
    vitals = ["sbp", "heart_rate", "los_days"]
    by_ward = patients.groupby("ward")[vitals].mean().T.round(1)
    by_ward["gap"] = by_ward["renal"] - by_ward["cardio"]
    by_ward
    """,
    # describe() of the listed columns, transposed
    """
    cols = ["sbp", "heart_rate"]
    print(patients[cols].describe().T.round(1))
    """,
    # a pivot-free named list in a helper-free agg over the listed columns
    """
    keep = ["sbp"]
    summary = patients.groupby("ward")[keep].agg(["mean", "std"])
    print(summary.round(2))
    """,
])
def test_a_code_in_columns_named_through_a_list_variable(code: str) -> None:
    (f,) = _listed(code)
    assert f.severity in ("high", "critical") and "999" in f.explanation
    assert "sbp" in f.explanation


@pytest.mark.parametrize("code", [
    """
    vitals = ["sbp", "heart_rate", "los_days"]
    clean = patients.assign(sbp=patients["sbp"].mask(patients["sbp"] > 300))
    by_ward = clean.groupby("ward")[vitals].mean().T.round(1)
    by_ward
    """,
    """
    cols = ["heart_rate", "los_days"]
    print(patients[cols].describe().T.round(1))
    """,
    """
    keep = ["sbp"]
    taken = patients[patients.sbp < 300]
    summary = taken.groupby("ward")[keep].agg(["mean", "std"])
    print(summary.round(2))
    """,
])
def test_listed_columns_without_a_code_stay_quiet(code: str) -> None:
    assert not _listed(code)


@pytest.mark.parametrize("code", [
    # pandas: group means of a marker matrix holding -999 for failed reads
    """
    markers = ["il6", "tnf", "crp"]
    means = plates.groupby("arm")[markers].mean().T
    means["pct_diff"] = 100 * (means["drug"] / means["placebo"] - 1)
    means.round(1)
    """,
    # numpy: column means of the matrix's values
    """
    m = np.mean(plates["tnf"].to_numpy())
    print(f"mean TNF signal {m:.0f}")
    """,
    # a comprehension over arms
    """
    avg = {arm: g["crp"].mean() for arm, g in plates.groupby("arm")}
    print(avg)
    """,
])
def test_a_negative_code_under_large_positive_values_is_flagged(code: str) -> None:
    fs = _listed(code)
    assert fs and "-999" in fs[0].explanation and "every other value is >= 0" in fs[0].explanation
    assert fs[0].severity in ("high", "critical")


@pytest.mark.parametrize("code", [
    """
    markers = ["il6", "tnf", "crp"]
    clean = plates.copy()
    clean[markers] = clean[markers].mask(clean[markers] < 0)
    means = clean.groupby("arm")[markers].mean().T
    means.round(1)
    """,
    """
    v = plates["tnf"].to_numpy()
    m = np.mean(v[v >= 0])
    print(f"mean TNF signal {m:.0f}")
    """,
    # a signed quantity whose values run below zero: -999 is not set apart from them
    """
    avg = {arm: g["delta_mass"].mean() for arm, g in deltas.groupby("arm")}
    print(avg)
    """,
])
def test_negative_codes_masked_or_in_signed_columns_stay_quiet(code: str) -> None:
    assert not _listed(code)


def test_lpm_prediction_frame_shown_as_is_is_noted() -> None:
    # the raw summary_frame: 'mean' above 1 with no probability label -> a medium note
    code = """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        who = pd.DataFrame({"age": [25, 92], "smoker": [0, 1], "prior_visits": [0, 9]})
        lpm.get_prediction(who).summary_frame().round(3)
    """
    sf = """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        who = pd.DataFrame({"age": [25, 92], "smoker": [0, 1], "prior_visits": [0, 9]})
        frame = lpm.get_prediction(who).summary_frame().round(3)
        frame
    """
    for c in (sf,):
        found = check(run_and_gather(c, LPM_SETUP))
        quiet(found)
        assert one(found, LPM_ID).severity == "medium"
    quiet(check(run_and_gather(code, LPM_SETUP)))
    # sound: the same frame for a profile inside the data's range
    ok = """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        who = pd.DataFrame({"age": [50], "smoker": [0], "prior_visits": [1]})
        frame = lpm.get_prediction(who).summary_frame().round(3)
        frame
    """
    assert not [f for f in check(run_and_gather(ok, LPM_SETUP)) if f.rule_id == LPM_ID]


# -- 'SD' as the unit of an effect, its bracket the confidence interval ------------------------

@pytest.mark.parametrize("text", [
    # a standardised effect with its CI in brackets
    "N = 3209 pupils in 42 schools; effect -0.075 SD [-0.269, 0.119], p = 0.45\n",
    # parentheses, lower-case unit
    "Cohen's d: -0.31 sd (-0.52, -0.10)\n",
    # several effects on a line, spelled out
    "math -0.12 standard deviations [-0.30, 0.06]; reading 0.05 standard deviations "
    "[-0.11, 0.21]\n",
])
def test_an_interval_after_sd_as_a_unit_is_not_a_negative_sd(text: str) -> None:
    ev = evidence("print(report)", outputs=stdout(text))
    silent([f for f in check(ev) if f.rule_id == NV])


@pytest.mark.parametrize("text", [
    "SD [-0.41, 0.22, 0.30]\n",
    "per-arm SD: [-0.41, 0.22]\n",
    "mean 3.1, SD = -0.27 (n = 40)\n",
])
def test_a_printed_list_of_negative_sds_is_still_blocked(text: str) -> None:
    ev = evidence("print(report)", outputs=stdout(text))
    assert one(check(ev), NV).severity == "critical"


def test_a_regression_effect_in_sd_units_with_its_interval_is_quiet() -> None:
    code = """
        import statsmodels.formula.api as smf
        d = pd.DataFrame({"z": y / y.std(), "t": (X[:, 2] > 0).astype(int), "x1": X[:, 1]})
        m = smf.ols("z ~ t + x1", data=d).fit()
        b, ci = m.params["t"], m.conf_int().loc["t"]
        print(f"treatment effect {b:.3f} SD [{ci[0]:.3f}, {ci[1]:.3f}]")
    """
    ev = gather(code)
    assert "[-0." in ev.text  # the interval's lower bound is printed negative
    found = check(ev)
    quiet(found)
    assert not [f for f in found if f.rule_id == NV]


# -- a percent change or model effect may exceed 100 %; only a share of a whole cannot --------

@pytest.mark.parametrize("code", [
    # statsmodels Poisson: exp(coef) - 1 in percent, from the coefficient table
    """
    import statsmodels.formula.api as smf
    d = pd.DataFrame({"y": rng.poisson(np.exp(0.2 + 1.4 * (np.arange(n) % 2)), n),
                      "treated": np.arange(n) % 2})
    m = smf.poisson("y ~ treated", data=d).fit(disp=0)
    tab = m.summary2().tables[1]
    tab["rate_pct"] = (np.exp(tab["Coef."]) - 1) * 100
    print(tab.round(2))
    """,
    # pandas: a ratio to the first wave minus one
    """
    mail["contacts_pct"] = (mail.contacts / mail.invited.iloc[0] - 1) * 100
    mail["contacts_pct"] = mail["contacts_pct"] + 200
    print(mail.round(1).to_string())
    """,
    # numpy: (new - old) / old, and expm1 of log differences
    """
    old, new = towns.households.to_numpy(), towns.cases.to_numpy() * 5
    hh_pct = (new - old) / old * 100
    log_pct = np.expm1(np.log(new) - np.log(old)) * 100
    print("household pct:", hh_pct.round(1), "log pct:", log_pct.round(1))
    """,
])
def test_percent_changes_and_model_effects_above_100_are_quiet(code: str) -> None:
    ev = gather_p(code)
    assert re.search(r"\b[1-9]\d{2,}\.", ev.text), ev.text  # a value above 100 is shown
    silent(check(ev, PROP))


@pytest.mark.parametrize("code", [
    # the share twins: counts over the wrong base, no change relative to a base
    """
    tab = towns.assign(hit_pct=towns.cases / towns.households * 100)
    print(tab.round(2))
    """,
    """
    mail["contacts_pct"] = mail.contacts / mail.invited * 100
    print(mail.round(1).to_string())
    """,
    """
    hh_pct = towns.cases.to_numpy() / towns.households.to_numpy() * 100
    print("household pct:", hh_pct.round(1))
    s = pd.Series(hh_pct, index=towns.town, name="hh_pct")
    print(s)
    """,
])
def test_shares_of_a_whole_above_100_are_still_flagged(code: str) -> None:
    assert one(check(gather_p(code)), PROP).severity in ("high", "critical")


# -- a row of a per-feature Series named after a feature is not that quantity -----------------

FEATURES = SETUP + """
feats = pd.DataFrame({"AUC": rng.uniform(0.05, 0.95, 300), "accuracy": rng.uniform(0, 1, 300),
                      "prob_default": rng.uniform(0, 1, 300)})
target = (3 * feats.AUC - 2 * feats.accuracy + rng.normal(size=300) > 0.5).astype(int)
broken = pd.DataFrame({"model": ["a", "b"], "probability": [0.4, 1.3]})
"""


@pytest.mark.parametrize("code", [
    # sklearn: a coefficient Series indexed by the feature names
    """
    clf = LogisticRegression(C=10).fit(feats, target)
    coef = pd.Series(clf.coef_.ravel(), index=feats.columns)
    coef.sort_values().round(3)
    """,
    # statsmodels: the params of an OLS printed
    """
    res = sm.OLS(target.astype(float), sm.add_constant(feats)).fit()
    print((res.params * 7).round(3))
    """,
    # a dict of coefficients by feature, shown as a Series
    """
    reg = LogisticRegression(C=50).fit(feats.to_numpy(), target)
    by_feature = dict(zip(feats.columns, reg.coef_[0]))
    pd.Series(by_feature).round(2)
    """,
])
def test_a_feature_named_like_a_metric_in_a_per_feature_series_is_quiet(code: str) -> None:
    ev = gather(code, FEATURES)
    # a row named like a bounded metric shows a value outside [0, 1]
    assert re.search(r"(?m)^(AUC|accuracy|prob_default)\s+(-|[1-9])", ev.text), ev.text
    found = check(ev)
    quiet(found)
    assert not [f for f in found if f.rule_id == PROB_ID], H.describe(found)


@pytest.mark.parametrize("code", [
    # metrics with no model coefficients shown: the row names the quantity
    """
    m = pd.Series({"AUC": 0.5 - 0.77, "accuracy": 0.81})
    m
    """,
    # the column itself holds an impossible probability
    """
    print(broken[["probability"]].max())
    """,
    """
    summary = pd.Series({"accuracy": (41 - 93) / 300, "f1": 0.7}).round(3)
    print(summary)
    """,
])
def test_a_metric_row_out_of_range_is_still_blocked(code: str) -> None:
    f = one(check(gather(code, FEATURES)), PROB_ID)
    assert f.severity == "critical"


# -- -1 "never happened" codes in counts / durations; rates of rows over people above 100 % ---

MINUS_ONE = """
import numpy as np, pandas as pd
rng = np.random.default_rng(11)
n = 800
called = rng.random(n) < 0.6
tickets = pd.DataFrame({
    "queue": rng.choice(["billing", "tech", "sales"], n),
    "minutes_to_callback": np.where(called, rng.integers(3, 240, n), -1),
    "n_refills": np.where(rng.random(n) < 0.3, -1, rng.poisson(3, n) + 1),
    "stock_level": np.where(rng.random(n) < 0.3, -1, rng.integers(0, 50, n)),
    "days_late": np.where(rng.random(n) < 0.3, -1, rng.integers(0, 30, n)),
})
"""


def _minus_one(code: str) -> list[Finding]:
    return [x for x in H.run(RULES, code, MINUS_ONE) if x.rule_id == RULE_SENTINEL]


@pytest.mark.parametrize("code", [
    # pandas: named aggregations with a median, shown as a table
    """
    t = tickets.groupby("queue").agg(calls=("queue", "size"),
                                     median_wait=("minutes_to_callback", "median"))
    t
    """,
    # numpy over the column's values, printed in an f-string
    """
    m = np.mean(tickets["minutes_to_callback"].to_numpy())
    print(f"average time to callback: {m:.1f} min")
    """,
    # a comprehension over groups on a count column
    """
    refills = {q: g["n_refills"].mean() for q, g in tickets.groupby("queue")}
    print(refills)
    """,
])
def test_a_minus_one_code_in_a_count_or_duration_is_flagged(code: str) -> None:
    fs = _minus_one(code)
    assert fs and "-1" in fs[0].explanation and "every other value is >= 0" in \
        fs[0].explanation, H.describe(fs)
    assert fs[0].severity in ("high", "critical")


@pytest.mark.parametrize("code", [
    # the code filtered out before the summary
    """
    t = tickets[tickets["minutes_to_callback"] >= 0].groupby("queue").agg(
        calls=("queue", "size"), median_wait=("minutes_to_callback", "median"))
    t
    """,
    # the code replaced by NaN
    """
    v = tickets["minutes_to_callback"].replace(-1, np.nan).to_numpy()
    print(f"average time to callback: {np.nanmean(v):.1f} min")
    """,
    # a column whose name says nothing about counting from zero, and a signed one
    """
    lv = {q: g["stock_level"].mean() for q, g in tickets.groupby("queue")}
    late = tickets.groupby("queue")["days_late"].mean()
    print(lv, late)
    """,
])
def test_minus_one_handled_or_in_other_columns_stays_quiet(code: str) -> None:
    assert not _minus_one(code)


BOOKINGS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
members = pd.DataFrame({"member_id": np.arange(600),
                        "plan": rng.choice(["basic", "plus", "family"], 600, p=[.6, .3, .1])})
# one row per booked class: family plans book several classes
k = np.where(members["plan"].eq("family"), rng.integers(1, 5, 600),
             (rng.random(600) < 0.3).astype(int))
bookings = members.loc[members.index.repeat(k), ["member_id", "plan"]].reset_index(drop=True)
earlier = bookings.sample(frac=0.9, random_state=1)
"""


def _bookings(code: str) -> list[Finding]:
    return [x for x in H.run(RULES, code, BOOKINGS) if x.rule_id == PROP]


@pytest.mark.parametrize("code", [
    # grouped sizes divided, formatted as percentages
    """
    rate = bookings.groupby("plan").size() / members.groupby("plan").size()
    print(rate.map("{:.0%}".format))
    """,
    # two count tables side by side, the rate named as an activation
    """
    t = pd.DataFrame({"members": members.groupby("plan").size(),
                      "booked": bookings.groupby("plan").size()})
    t["activation"] = t["booked"] / t["members"]
    print(t.round(3))
    """,
    # scalars from len(), an f-string percentage
    """
    fam_rows = len(bookings[bookings["plan"] == "family"])
    fam_members = len(members[members["plan"] == "family"])
    act = fam_rows / fam_members
    basic = len(bookings[bookings["plan"] == "basic"]) / len(members[members["plan"] == "basic"])
    print(f"family {act:.1%}, basic {basic:.1%}")
    """,
])
def test_a_rate_of_rows_over_people_above_100_is_flagged(code: str) -> None:
    fs = _bookings(code)
    assert fs and "count of rows over a count of units" in fs[0].explanation, H.describe(fs)
    assert fs[0].severity in ("high", "critical")


@pytest.mark.parametrize("code", [
    # each member counted once
    """
    rate = (bookings.drop_duplicates("member_id").groupby("plan").size()
            / members.groupby("plan").size())
    print(rate.map("{:.0%}".format))
    """,
    # bookings per member: a ratio of rows over people, not shown as a rate
    """
    t = pd.DataFrame({"members": members.groupby("plan").size(),
                      "booked": bookings.groupby("plan").size()})
    t["per_member"] = t["booked"] / t["members"]
    print(t.round(2))
    """,
    # this period over an earlier one, shown in percent: all values near 100 %
    """
    wk = bookings.groupby("plan").size() / earlier.groupby("plan").size()
    print(wk.map("{:.0%}".format))
    """,
])
def test_rates_counted_once_or_ratios_of_counts_stay_quiet(code: str) -> None:
    found = H.run(RULES, code, BOOKINGS)
    quiet(found)
    assert not [f for f in found if f.rule_id == PROP], H.describe(found)


# -- a modelled rate (not a 0/1 outcome) fitted by least squares, shown outside [0, 1] --------

RATE_SETUP = """
import numpy as np, pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy.special import logit, expit
from sklearn.linear_model import LinearRegression
rng = np.random.default_rng(5)
n = 120
shops = pd.DataFrame({
    "price_gap": rng.uniform(-5, 5, n),
    "tenure_m": rng.uniform(1, 60, n),
    "region": rng.choice(["north", "south"], n),
})
shops["churn_rate"] = np.clip(0.01 + 0.004 * shops.price_gap + 0.0008 * (60 - shops.tenure_m)
                              + rng.normal(0, 0.002, n), 0.002, 0.2)
ads = pd.DataFrame({"spend_k": rng.uniform(1, 40, n), "slot": rng.integers(1, 6, n)})
ads["conversion_rate"] = np.clip(0.002 + 0.0009 * ads.spend_k - 0.0012 * ads.slot
                                 + rng.normal(0, 0.0005, n), 0.0005, 0.5)
"""

RATE_FLAWED = {
    # formula OLS, predictions assigned into a scenario grid, summarised per region
    "formula_assign_groupby_agg": """
        m = smf.ols("churn_rate ~ price_gap + tenure_m", data=shops).fit()
        grid = pd.DataFrame({"region": ["north"] * 3 + ["south"] * 3,
                             "price_gap": [-9, -6, 0, 2, 4, 9], "tenure_m": [60, 60, 30, 20, 5, 1]})
        out = grid.assign(churn_hat=m.predict(grid))
        out["lost_customers"] = out["churn_hat"] * 1200
        tab = out.groupby("region").agg(lowest_churn=("churn_hat", "min"),
                                        highest_churn=("churn_hat", "max"),
                                        lost=("lost_customers", "sum"))
        tab.round(4)
    """,
    # sklearn least squares, predicted rates in a frame column that is printed
    "sklearn_frame_column": """
        reg = LinearRegression().fit(ads[["spend_k", "slot"]], ads["conversion_rate"])
        plan = pd.DataFrame({"spend_k": [0.5, 10.0, 60.0], "slot": [5, 2, 1]})
        plan["conversion_rate_hat"] = reg.predict(plan[["spend_k", "slot"]])
        print(plan.round(4).to_string(index=False))
    """,
    # array OLS, the range of the projected rate printed in an f-string
    "array_ols_fstring": """
        X = sm.add_constant(ads[["spend_k", "slot"]])
        fit = sm.OLS(ads.conversion_rate, X).fit()
        proj = fit.predict(sm.add_constant(pd.DataFrame({"spend_k": [0.2, 80.0],
                                                          "slot": [5, 1]})))
        print(f"projected conversion rate from {proj.min():.4f} to {proj.max():.4f}")
    """,
}

RATE_SOUND = {
    # the rate modelled on the logit scale and mapped back
    "formula_assign_groupby_agg": """
        m = smf.ols("logit(churn_rate) ~ price_gap + tenure_m", data=shops).fit()
        grid = pd.DataFrame({"region": ["north"] * 3 + ["south"] * 3,
                             "price_gap": [-9, -6, 0, 2, 4, 9], "tenure_m": [60, 60, 30, 20, 5, 1]})
        out = grid.assign(churn_hat=expit(m.predict(grid)))
        out["lost_customers"] = out["churn_hat"] * 1200
        tab = out.groupby("region").agg(lowest_churn=("churn_hat", "min"),
                                        highest_churn=("churn_hat", "max"),
                                        lost=("lost_customers", "sum"))
        tab.round(4)
    """,
    # the same linear model, asked only inside the range where it stays in (0, 1)
    "sklearn_frame_column": """
        reg = LinearRegression().fit(ads[["spend_k", "slot"]], ads["conversion_rate"])
        plan = pd.DataFrame({"spend_k": [10.0, 20.0, 30.0], "slot": [2, 2, 1]})
        plan["conversion_rate_hat"] = reg.predict(plan[["spend_k", "slot"]])
        print(plan.round(4).to_string(index=False))
    """,
    # a binomial GLM (logit link) on the rate
    "array_ols_fstring": """
        X = sm.add_constant(ads[["spend_k", "slot"]])
        fit = sm.GLM(ads.conversion_rate, X, family=sm.families.Binomial()).fit()
        proj = fit.predict(sm.add_constant(pd.DataFrame({"spend_k": [0.2, 80.0],
                                                          "slot": [5, 1]})))
        print(f"projected conversion rate from {proj.min():.4f} to {proj.max():.4f}")
    """,
}


@pytest.mark.parametrize("idiom", sorted(RATE_FLAWED))
def test_linear_model_of_a_rate_projected_outside_0_1(idiom: str) -> None:
    ev = run_and_gather(RATE_FLAWED[idiom], RATE_SETUP)
    f = one(check(ev), LPM_ID)
    assert f.severity == "critical" and f.confidence >= 0.8, f.explanation
    assert "rate" in f.explanation
    assert any(v < 0 or v > 1 for v in f.evidence["values"]["predictions_outside_0_1"])


def test_linear_rate_projection_names_a_negative_total_computed_from_it() -> None:
    f = one(check(run_and_gather(RATE_FLAWED["formula_assign_groupby_agg"], RATE_SETUP)),
            LPM_ID)
    assert "lost" in f.evidence["values"].get("derived_negative", {}), f.explanation


@pytest.mark.parametrize("idiom", sorted(RATE_SOUND))
def test_linear_model_of_a_rate_sound_twins_stay_quiet(idiom: str) -> None:
    found = check(run_and_gather(RATE_SOUND[idiom], RATE_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id == LPM_ID], [f.explanation for f in found]


def test_linear_model_of_an_unbounded_quantity_in_0_1_is_not_a_rate() -> None:
    # a [0, 1]-valued response whose name says nothing about a rate: not judged
    code = """
        shops["score"] = shops["churn_rate"]
        m = smf.ols("score ~ price_gap + tenure_m", data=shops).fit()
        grid = pd.DataFrame({"price_gap": [-9, 9], "tenure_m": [60, 1]})
        grid["score_hat"] = m.predict(grid)
        print(grid.round(4))
    """
    found = check(run_and_gather(code, RATE_SETUP))
    assert not [f for f in found if f.rule_id == LPM_ID], [f.explanation for f in found]


# -- reading printed text: blank table cells and k/n fractions -----------------------------------

PV_BLANK_CELL = {
    # a results table with a blank significance-star column: the cells are read by position
    "loop_rows_star_column": ("""
        rows = []
        for g in "bcdef":
            t, p = stats.ttest_ind(groups["a"], groups[g])
            rows.append({"grp": g, "t": t, "p": p, "d": -abs(t) / 6})
        res = pd.DataFrame(rows).set_index("grp")
        res["p_adj"] = {adj}
        res["flag"] = np.where(res["p_adj"] < 0.05, "*", "")
        res.round(3)
    """, "multipletests(res['p'], method='holm')[1]", "res['p'] * len(res)"),
    # no index, the blank cell between two numeric columns
    "to_string_no_index": ("""
        recs = [(g, *stats.ttest_ind(groups["a"], groups[g])) for g in "bcdef"]
        tab = pd.DataFrame(recs, columns=["grp", "t", "p"])
        tab["note"] = ["" if p > 0.05 else "sig" for p in tab.p]
        tab["p_corr"] = {adj}
        tab["eff"] = -tab.t.abs() / 5
        print(tab.round(3).to_string(index=False))
    """, "multipletests(tab.p, method='fdr_bh')[1]", "tab.p * 5"),
    # a dict comprehension of per-outcome results, a text column in the middle
    "dict_comprehension": ("""
        out = {g: {"t": (r := stats.ttest_ind(groups["a"], groups[g])).statistic,
                   "mark": "" if r.pvalue > 0.01 else "!", "p": r.pvalue} for g in "bcdef"}
        frame = pd.DataFrame(out).T
        frame["p_holm"] = {adj}
        frame["t"] = -frame["t"].astype(float).abs()
        frame
    """, "multipletests(frame.p.astype(float), method='holm')[1]",
       "frame.p.astype(float) * 5"),
}


@pytest.mark.parametrize("idiom", sorted(PV_BLANK_CELL))
def test_table_with_blank_cells_is_read_by_column_position(idiom: str) -> None:
    code, sound, flawed = PV_BLANK_CELL[idiom]
    setup = SETUP + "from statsmodels.stats.multitest import multipletests\n"
    ok = displayed(textwrap.dedent(code).replace("{adj}", sound), setup)
    quiet(check(ok))
    assert not check(ok, PV)
    bad = displayed(textwrap.dedent(code).replace("{adj}", flawed), setup)
    f = one(check(bad), PV)
    # the value read is the corrected p-value (above 1), not a neighbouring negative effect
    assert all(v > 1 for v in (f.evidence["values"].values() if isinstance(
        f.evidence["values"], dict) else [])
        for v in ([v] if isinstance(v, float) else v)), f.explanation


BOUNDED_FRACTIONS = [
    # exact binomial intervals formatted next to the counts
    """
        from statsmodels.stats.proportion import proportion_confint
        tp, fn, tn, fp = 188, 3, 902, 11
        for name, k, m in [("sensitivity", tp, tp + fn), ("specificity", tn, tn + fp)]:
            lo, hi = proportion_confint(k, m, method="beta")
            print(f"{name:12s} {k}/{m} = {k / m:.1%} ({lo:.1%}-{hi:.1%})")
    """,
    # a Series of formatted strings, displayed
    """
        from statsmodels.stats.proportion import proportion_confint
        def fmt(k, m):
            lo, hi = proportion_confint(k, m, method="wilson")
            return f"{k} / {m} = {k / m:.2f} [{lo:.2f}, {hi:.2f}]"
        print(pd.Series({"Precision": fmt(412, 455), "Recall": fmt(412, 530),
                         "Accuracy": fmt(1804, 1960)}).to_string())
    """,
    # accuracy per fold, counts first
    """
        folds = [(47, 50), (45, 50), (49, 50)]
        for i, (hit, tot) in enumerate(folds):
            print(f"fold {i}: accuracy {hit}/{tot} ({hit / tot:.0%})")
    """,
]


@pytest.mark.parametrize("code", BOUNDED_FRACTIONS)
def test_counts_of_a_printed_fraction_are_not_the_proportion(code: str) -> None:
    silent(check(gather(code), "suspicious_values.probability_out_of_range"))


def test_a_proportion_above_one_after_its_counts_is_still_caught() -> None:
    found = check(gather("""
        tp, fn = 212, 9
        sens = tp / (fn + 10)          # wrong denominator
        print(f"sensitivity {tp}/{fn + 10} = {sens:.1%}")
    """), "suspicious_values.probability_out_of_range")
    assert found and "1116" in found[0].explanation, [f.explanation for f in found]


# -- reliability coefficients (Cronbach's alpha, KR-20) outside [0, 1] -------------------------

REL = "suspicious_values.reliability_out_of_range"
SCALE_SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 400
trait = rng.normal(size=n)
items = pd.DataFrame({f"q{i}": np.clip(np.round(3 + trait + rng.normal(0, 0.8, n)), 1, 5)
                      for i in range(1, 9)})
for q in ("q2", "q4", "q6", "q8"):       # negatively worded items, stored as answered
    items[q] = 6 - items[q]
quiz = pd.DataFrame((rng.random((n, 6)) < 0.5 + 0.1 * trait[:, None]).astype(int),
                    columns=[f"i{k}" for k in range(6)])
for c in ("i1", "i3", "i5"):              # reverse-scored right/wrong keys never flipped
    quiz[c] = 1 - quiz[c]
"""
REVERSE = """
rev = items.copy()
for q in ("q2", "q4", "q6", "q8"):
    rev[q] = 6 - rev[q]
"""

RELIABILITY_FLAWED = {
    # a hand-rolled alpha in numpy, printed with its name in an f-string
    "numpy_helper_fstring": """
        def alpha_of(m):
            m = np.asarray(m, float)
            k = m.shape[1]
            return k / (k - 1) * (1 - m.var(axis=0, ddof=1).sum() / m.sum(axis=1).var(ddof=1))
        a = alpha_of({data})
        print(f"Internal consistency (Cronbach's alpha): {a:.2f}")
    """,
    # pandas, the coefficient held by a variable named after it and printed bare
    "pandas_named_scalar": """
        tot_var = {data}.sum(axis=1).var()
        cronbach_alpha = len({data}.columns) / (len({data}.columns) - 1) * (
            1 - {data}.var().sum() / tot_var)
        print(round(cronbach_alpha, 3))
    """,
    # KR-20 for dichotomous items, one value per form in a loop
    "kr20_loop": """
        for form, cols in {"A": ["i0", "i1", "i2"], "B": ["i3", "i4", "i5"]}.items():
            sub = quiz[cols]
            p = sub.mean()
            kr = len(cols) / (len(cols) - 1) * (1 - (p * (1 - p)).sum() / sub.sum(axis=1).var())
            print(f"form {form}: KR-20 = {kr:.2f}")
    """,
}


@pytest.mark.parametrize("idiom", sorted(RELIABILITY_FLAWED))
def test_negative_reliability_coefficient_is_reported(idiom: str) -> None:
    code = RELIABILITY_FLAWED[idiom].replace("{data}", "items")
    f = one(check(gather(code, SCALE_SETUP)), REL)
    assert f.severity == "high" and f.confidence >= 0.75, f.explanation
    assert "reverse" in f.explanation and "reverse" in f.suggestion.lower()


@pytest.mark.parametrize("idiom", sorted(RELIABILITY_FLAWED))
def test_reliability_of_reverse_keyed_items_stays_quiet(idiom: str) -> None:
    code = RELIABILITY_FLAWED[idiom].replace("{data}", "rev")
    if idiom == "kr20_loop":
        code = code.replace("sub = quiz[cols]",
                            "sub = quiz[cols].copy()\n"
                            "            sub[[c for c in cols if c in ('i1', 'i3', 'i5')]] = "
                            "1 - sub[[c for c in cols if c in ('i1', 'i3', 'i5')]]")
    silent(check(gather(code, SCALE_SETUP + REVERSE), REL))


def test_a_significance_level_named_alpha_is_not_a_reliability() -> None:
    silent(check(gather("""
        alpha = 0.05
        t, p = stats.ttest_ind(groups["a"], groups["b"])
        print(f"alpha = {alpha}, t = {t:.2f}, p = {p:.3f}, reject: {p < alpha}")
    """), REL))


# -- placeholder codes summarised through an array bound inside the groupby loop ----------------

SENTINEL_LOOP_FLAWED = {
    # `for g, x in df.groupby(k).col`, then methods of the loop's numpy array
    "groupby_attribute_array_methods": """
        out = {}
        for st, x in air.groupby("station").pm25:
            v = x.to_numpy()
            out[st] = {"mean": v.mean(), "sd": v.std(ddof=1), "n": v.size}
        print(pd.DataFrame(out).T.round(1))
    """,
    # `for g, sub in df.groupby(k)`, the column's values, a helper summarising them
    "groupby_frame_values_helper": """
        def spread(a):
            return np.mean(a), np.percentile(a, 90)
        for st, sub in air.groupby("station"):
            arr = sub["pm25"].values
            m, p90 = spread(arr)
            print(f"{st}: mean {m:.1f}, p90 {p90:.1f}")
    """,
    # a negative code, the array's median and mean in a list comprehension's loop
    "overflow_code_list_of_rows": """
        rows = []
        for b, grp in trips.groupby(trips.bike % 4):
            secs = grp.duration_s.to_numpy()
            rows.append((b, secs.mean(), np.median(secs)))
        print(rows)
    """,
}
SENTINEL_LOOP_SOUND = {
    "groupby_attribute_array_methods": """
        out = {}
        for st, x in air.groupby("station").pm25:
            v = x[x != 999].to_numpy()
            out[st] = {"mean": v.mean(), "sd": v.std(ddof=1), "n": v.size}
        print(pd.DataFrame(out).T.round(1))
    """,
    "groupby_frame_values_helper": """
        def spread(a):
            return np.mean(a), np.percentile(a, 90)
        for st, sub in air.groupby("station"):
            arr = sub["pm25"].replace(999, np.nan).dropna().values
            m, p90 = spread(arr)
            print(f"{st}: mean {m:.1f}, p90 {p90:.1f}")
    """,
    "overflow_code_list_of_rows": """
        rows = []
        for b, grp in trips[trips.closed].groupby(trips.bike % 4):
            secs = grp.duration_s.to_numpy()
            rows.append((b, secs.mean(), np.median(secs)))
        print(rows)
    """,
}


@pytest.mark.parametrize("idiom", sorted(SENTINEL_LOOP_FLAWED))
def test_placeholder_code_summarised_through_a_loop_bound_array(idiom: str) -> None:
    f = one(H.run(RULES, SENTINEL_LOOP_FLAWED[idiom], SENTINELS), RULE_SENTINEL)
    assert f.severity in ("high", "critical"), f.explanation
    assert "999" in f.explanation or "65535" in f.explanation


@pytest.mark.parametrize("idiom", sorted(SENTINEL_LOOP_SOUND))
def test_placeholder_code_removed_before_the_loop_summary_stays_quiet(idiom: str) -> None:
    found = H.run(RULES, SENTINEL_LOOP_SOUND[idiom], SENTINELS)
    quiet(found)
    assert not [f for f in found if f.rule_id == RULE_SENTINEL], H.describe(found)


# -- linear-model 'probabilities' printed as percentages ----------------------------------------

LPM_PERCENT_FLAWED = {
    # to_string with a percent formatter on the prediction column
    "to_string_formatters": """
        cols = ["age", "smoker", "prior_visits"]
        reg = LinearRegression().fit(visits[cols], visits["readmitted"])
        grid = pd.DataFrame({"age": [18, 50, 95], "smoker": [0, 1, 1], "prior_visits": [0, 3, 12]})
        grid["chance"] = reg.predict(grid[cols])
        print(grid.to_string(index=False, formatters={"chance": "{:.0%}".format}))
    """,
    # the column mapped to percent strings for display
    "map_format": """
        lpm = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        who = pd.DataFrame({"age": [19, 60, 94], "smoker": [0, 0, 1], "prior_visits": [0, 1, 11]})
        who["risk"] = lpm.predict(who)
        print(who.assign(risk=who["risk"].map("{:.1%}".format)))
    """,
    # statsmodels arrays, the predictions held by a frame built from a dict
    "dict_frame_percent": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits["readmitted"], X).fit()
        new = sm.add_constant(pd.DataFrame({"age": [20.0, 93.0], "smoker": [0, 1],
                                            "prior_visits": [0, 10]}), has_constant="add")
        tab = pd.DataFrame({"profile": ["young", "old"], "prob": res.predict(new)})
        print(tab.to_string(formatters={"prob": "{:.0%}".format}))
    """,
}


@pytest.mark.parametrize("idiom", sorted(LPM_PERCENT_FLAWED))
def test_lpm_predictions_shown_as_percentages_outside_0_100(idiom: str) -> None:
    f = one(check(run_and_gather(LPM_PERCENT_FLAWED[idiom], LPM_SETUP)), LPM_ID)
    assert f.severity == "critical", f.explanation


@pytest.mark.parametrize("idiom", sorted(LPM_PERCENT_FLAWED))
def test_logistic_predictions_shown_as_percentages_stay_quiet(idiom: str) -> None:
    code = (LPM_PERCENT_FLAWED[idiom]
            .replace("LinearRegression()", "LogisticRegression(max_iter=1000)")
            .replace("reg.predict(grid[cols])", "reg.predict_proba(grid[cols])[:, 1]")
            .replace("smf.ols(", "smf.logit(").replace("prior_visits\", data=visits).fit()",
                                                        "prior_visits\", data=visits).fit(disp=0)")
            .replace("sm.OLS(", "sm.Logit(").replace("X).fit()", "X).fit(disp=0)"))
    found = check(run_and_gather(code, LPM_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id == LPM_ID], H.describe(found)


# -- a table titled as a percentage of a cohort with cells above 100 ----------------------------

COHORT_SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(3)
n = 3000
students = pd.DataFrame({
    "cohort": rng.choice(["2019", "2020", "2021"], n),
    "term_left": np.where(rng.random(n) < 0.6, rng.integers(1, 13, n), 99),
    "region": rng.choice(["N", "S", "E"], n),
})
visits = students.sample(9000, replace=True, random_state=1)   # one row per visit
pop = students.groupby("region").size()
"""

TITLED_FLAWED = {
    # per-term hazards added up and called a cumulative incidence
    "apply_helper_summed_hazards": """
        def cum_dropout(g, horizons=(4, 8, 12)):
            at_risk, cum, out = len(g), 0.0, {}
            for t in range(1, 13):
                left = int((g.term_left == t).sum())
                cum += 3 * left / at_risk
                at_risk -= left
                if t in horizons:
                    out[f"term {t}"] = round(100 * cum, 1)
            return pd.Series(out)
        print("Cumulative incidence of dropout (%) by cohort")
        students.groupby("cohort").apply(cum_dropout)
    """,
    # visits counted over people, shown under a prevalence title
    "visits_over_people": """
        tab = (100 * visits.groupby(["region", "cohort"]).size().unstack()
               / students.groupby(["region", "cohort"]).size().unstack()).round(1)
        print("Prevalence of advising contact (%), region x cohort")
        print(tab)
    """,
    # a crosstab scaled by the wrong margin, printed after a percentage title
    "crosstab_wrong_margin": """
        ct = pd.crosstab(visits.region, visits.cohort)
        first = students[students.cohort == "2019"].groupby("region").size()
        print("Percentage of students seen, by region and cohort")
        print((ct.div(first, axis=0) * 100).round(1))
    """,
}
TITLED_SOUND = {
    "apply_helper_summed_hazards": """
        def cum_dropout(g, horizons=(4, 8, 12)):
            surv, at_risk, out = 1.0, len(g), {}
            for t in range(1, 13):
                left = int((g.term_left == t).sum())
                surv *= 1 - left / at_risk
                at_risk -= left
                if t in horizons:
                    out[f"term {t}"] = round(100 * (1 - surv), 1)
            return pd.Series(out)
        print("Cumulative incidence of dropout (%) by cohort")
        students.groupby("cohort").apply(cum_dropout)
    """,
    # a rate per 1,000 student-terms may exceed 100
    "visits_over_people": """
        tab = (1000 * visits.groupby(["region", "cohort"]).size().unstack()
               / students.groupby(["region", "cohort"]).size().unstack()).round(1)
        print("Advising contacts per 1,000 students (%), region x cohort")
        print(tab * 100 / 100)
    """,
    # the head count beside the percentage: a count column may exceed 100
    "crosstab_wrong_margin": """
        seen = students.assign(seen=students.index.isin(visits.index))
        tab = seen.groupby("region").agg(n=("seen", "size"), pct=("seen", "mean"))
        tab["pct"] = (100 * tab.pct).round(1)
        print("Percentage of students seen, by region")
        print(tab)
    """,
}


@pytest.mark.parametrize("idiom", sorted(TITLED_FLAWED))
def test_cohort_percentage_table_above_100_is_reported(idiom: str) -> None:
    code = textwrap.dedent(TITLED_FLAWED[idiom])
    ev = displayed(code, COHORT_SETUP) if idiom.startswith("apply") else gather(
        code, COHORT_SETUP)
    f = one(check(ev), PROP)
    assert f.severity in ("high", "critical") and "printed table" in f.explanation, f.explanation


@pytest.mark.parametrize("idiom", sorted(TITLED_SOUND))
def test_cohort_percentage_table_within_100_stays_quiet(idiom: str) -> None:
    code = textwrap.dedent(TITLED_SOUND[idiom])
    ev = displayed(code, COHORT_SETUP) if idiom.startswith("apply") else gather(
        code, COHORT_SETUP)
    found = check(ev)
    quiet(found)
    assert not [f for f in found if f.rule_id == PROP], H.describe(found)


# -- LPM predictions stored in a frame column, then summarised inside an f-string ---------------

LPM_COLUMN_FLAWED = {
    # formula OLS, column assigned, min / mean printed as percentages
    "formula_column_min_pct": """
        fit = smf.ols("readmitted ~ age + smoker + prior_visits", data=visits).fit()
        ward = pd.DataFrame({"age": [19, 35, 60, 90], "smoker": [0, 0, 1, 1],
                             "prior_visits": [0, 1, 3, 9]})
        ward["p_readmit"] = fit.predict(ward)
        print(f"lowest readmission risk on the ward: {ward['p_readmit'].min():.1%}")
    """,
    # sklearn least squares, attribute access to the column, max as a decimal
    "sklearn_column_attribute_max": """
        cols = ["age", "smoker", "prior_visits"]
        reg = LinearRegression().fit(visits[cols], visits["readmitted"])
        ward = pd.DataFrame({"age": [19, 60, 90], "smoker": [0, 1, 1], "prior_visits": [0, 3, 9]})
        ward["p_hat"] = reg.predict(ward[cols])
        print(f"highest chance of readmission: {ward.p_hat.max():.2f}")
    """,
    # array OLS on fitted values put back into the source frame, per-row loop over the column
    "array_ols_column_in_loop": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits["readmitted"], X).fit()
        visits["lp_fit"] = res.fittedvalues
        for q in (0.0, 1.0):
            print(f"risk at quantile {q}: {visits['lp_fit'].quantile(q):.1%}")
    """,
}

LPM_COLUMN_SOUND = {
    "formula_column_min_pct": """
        fit = smf.logit("readmitted ~ age + smoker + prior_visits", data=visits).fit(disp=0)
        ward = pd.DataFrame({"age": [19, 35, 60, 90], "smoker": [0, 0, 1, 1],
                             "prior_visits": [0, 1, 3, 9]})
        ward["p_readmit"] = fit.predict(ward)
        print(f"lowest readmission risk on the ward: {ward['p_readmit'].min():.1%}")
    """,
    "sklearn_column_attribute_max": """
        cols = ["age", "smoker", "prior_visits"]
        clf = LogisticRegression(max_iter=1000).fit(visits[cols], visits["readmitted"])
        ward = pd.DataFrame({"age": [19, 60, 90], "smoker": [0, 1, 1], "prior_visits": [0, 3, 9]})
        ward["p_hat"] = clf.predict_proba(ward[cols])[:, 1]
        print(f"highest chance of readmission: {ward.p_hat.max():.2f}")
    """,
    # the same LPM, its fitted values clipped into [0, 1] before they are shown
    "array_ols_column_in_loop": """
        X = sm.add_constant(visits[["age", "smoker", "prior_visits"]])
        res = sm.OLS(visits["readmitted"], X).fit()
        visits["lp_fit"] = res.fittedvalues.clip(0, 1)
        for q in (0.0, 1.0):
            print(f"risk at quantile {q}: {visits['lp_fit'].quantile(q):.1%}")
    """,
}


@pytest.mark.parametrize("idiom", sorted(LPM_COLUMN_FLAWED))
def test_lpm_prediction_column_summarised_in_an_fstring(idiom: str) -> None:
    f = one(check(run_and_gather(LPM_COLUMN_FLAWED[idiom], LPM_SETUP)), LPM_ID)
    assert f.severity == "critical" and f.confidence >= 0.8, f.explanation
    assert any(v > 1 or v < 0 for v in f.evidence["values"]["predictions_outside_0_1"])


@pytest.mark.parametrize("idiom", sorted(LPM_COLUMN_SOUND))
def test_lpm_prediction_column_sound_twins_stay_quiet(idiom: str) -> None:
    found = check(run_and_gather(LPM_COLUMN_SOUND[idiom], LPM_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id == LPM_ID], [f.explanation for f in found]


# -- a negative variance estimate that the cell floors at zero / flags is handled -------------

VC_SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(11)
# six lots, four assays each; the between-lot variance is tiny, so its ANOVA estimate
# comes out negative for one of the two assays
lots = pd.DataFrame({"lot": np.repeat(list("abcdef"), 4),
                     "assay_a": rng.normal(10, 1.0, 24) + np.repeat(rng.normal(0, 1.5, 6), 4),
                     "assay_b": np.tile([9.0, 11.0, 10.0, 10.0], 6) + np.repeat(
                         [0.01, -0.01, 0.0, 0.02, -0.02, 0.0], 4)})

def mean_squares(df, col):
    g = df.groupby("lot")[col]
    k, n = g.ngroups, g.size().iloc[0]
    msb = n * ((g.mean() - df[col].mean()) ** 2).sum() / (k - 1)
    msw = ((df[col] - g.transform("mean")) ** 2).sum() / (k * (n - 1))
    return msb, msw, n
"""

VC_FLAWED = {
    "dict_rows": """
        rows = []
        for col in ["assay_a", "assay_b"]:
            msb, msw, n = mean_squares(lots, col)
            rows.append({"assay": col, "var_between": (msb - msw) / n, "var_within": msw})
        print(pd.DataFrame(rows).set_index("assay").round(4))
    """,
    "column": """
        comp = pd.DataFrame([mean_squares(lots, c) for c in ["assay_a", "assay_b"]],
                            index=["assay_a", "assay_b"], columns=["msb", "msw", "n"])
        comp["var_lot"] = (comp["msb"] - comp["msw"]) / comp["n"]
        print(comp[["var_lot", "msw"]].round(4))
    """,
    "scalar": """
        msb, msw, n = mean_squares(lots, "assay_b")
        s2_lot = (msb - msw) / n
        print(f"between-lot variance = {s2_lot:.4f}")
    """,
}

VC_SOUND = {
    "dict_rows": """
        rows = []
        for col in ["assay_a", "assay_b"]:
            msb, msw, n = mean_squares(lots, col)
            est = (msb - msw) / n
            rows.append({"assay": col, "var_between_est": est,
                         "var_between": max(est, 0.0), "var_within": msw})
        print(pd.DataFrame(rows).set_index("assay").round(4))
    """,
    "column": """
        comp = pd.DataFrame([mean_squares(lots, c) for c in ["assay_a", "assay_b"]],
                            index=["assay_a", "assay_b"], columns=["msb", "msw", "n"])
        comp["var_lot_anova"] = (comp["msb"] - comp["msw"]) / comp["n"]
        comp["var_lot"] = comp["var_lot_anova"].clip(lower=0)
        print(comp[["var_lot_anova", "var_lot", "msw"]].round(4))
        print("negative ANOVA estimates set to 0:", list(comp.index[comp["var_lot_anova"] < 0]))
    """,
    "scalar": """
        msb, msw, n = mean_squares(lots, "assay_b")
        s2_lot = (msb - msw) / n
        if s2_lot < 0:
            print("MS between < MS within: no detectable lot variance (truncated at 0)")
        print(f"between-lot variance = {s2_lot:.4f}, used {np.maximum(s2_lot, 0):.4f}")
    """,
}


@pytest.mark.parametrize("idiom", sorted(VC_FLAWED))
def test_negative_variance_component_reported_as_is(idiom: str) -> None:
    f = one(check(run_and_gather(VC_FLAWED[idiom], VC_SETUP)), NV)
    assert f.severity == "critical"


@pytest.mark.parametrize("idiom", sorted(VC_SOUND))
def test_negative_variance_component_floored_or_flagged_stays_quiet(idiom: str) -> None:
    found = check(run_and_gather(VC_SOUND[idiom], VC_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id == NV], [f.explanation for f in found]


# -- negative placeholder codes: named in the cell as a negative literal, or decimal nines ------

NEG_CODES = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 400
sat = rng.integers(1, 8, n).astype(float)
sat[rng.random(n) < 0.12] = -9                  # 'don't know'
hh = pd.DataFrame({"region": rng.choice(["n", "s", "e"], n), "satisfaction": sat})
inc = rng.lognormal(10, 0.4, n).round()
inc[rng.random(n) < 0.1] = -999                 # refused
panel = pd.DataFrame({"wave": rng.choice([1, 2], n), "income": inc})
days = pd.date_range("2023-05-01", periods=184, freq="D")
flow = rng.gamma(2.0, 3.0, 184).round(1)
flow[rng.choice(184, 12, replace=False)] = -99.9   # gauge offline
river = pd.DataFrame({"date": days, "flow_m3s": flow})
snow = rng.gamma(1.5, 4.0, 184).round(2)
snow[rng.choice(184, 10, replace=False)] = -9.99
stn = pd.DataFrame({"month": days.month, "snow_cm": snow})
"""

NEG_CODE_FLAWED = {
    "agg_lambda": """
        by = hh.groupby("region").agg(mean_sat=("satisfaction", "mean"),
                                      high=("satisfaction", lambda s: (s >= 6).mean()))
        print(by.round(2))
    """,
    "numpy_helper": """
        def avg_income(df):
            return np.mean(df["income"].to_numpy())
        print(f"mean income {avg_income(panel):,.0f}")
    """,
    "resample_sum": """
        monthly = river.set_index("date").resample("MS")["flow_m3s"].sum()
        print(monthly.round(1))
    """,
    "groupby_sum_decimal_code": """
        print(stn.groupby("month")["snow_cm"].sum().round(1))
    """,
}

NEG_CODE_SOUND = {
    "agg_lambda": """
        by = hh.groupby("region").agg(
            mean_sat=("satisfaction", lambda s: s[s != -9].mean()),
            high=("satisfaction", lambda s: (s[s != -9] >= 6).mean()))
        print(by.round(2))
    """,
    "numpy_helper": """
        def avg_income(df):
            x = df["income"].to_numpy()
            return np.nanmean(np.where(x == -999, np.nan, x))
        print(f"mean income {avg_income(panel):,.0f}")
    """,
    "resample_sum": """
        river["flow_m3s"] = river["flow_m3s"].mask(river["flow_m3s"] < -99)
        monthly = river.set_index("date").resample("MS")["flow_m3s"].sum(min_count=20)
        print(monthly.round(1))
    """,
    "groupby_sum_decimal_code": """
        ok = stn[stn.snow_cm >= 0]
        print(ok.groupby("month")["snow_cm"].sum().round(1))
    """,
}


@pytest.mark.parametrize("idiom", sorted(NEG_CODE_FLAWED))
def test_negative_placeholder_codes_summarised(idiom: str) -> None:
    found = check(run_and_gather(NEG_CODE_FLAWED[idiom], NEG_CODES))
    f = one(found, RULE_SENTINEL)
    assert f.severity in ("high", "critical")
    assert "infx" not in f.explanation


@pytest.mark.parametrize("idiom", sorted(NEG_CODE_SOUND))
def test_negative_placeholder_codes_recoded_stay_quiet(idiom: str) -> None:
    found = check(run_and_gather(NEG_CODE_SOUND[idiom], NEG_CODES))
    quiet(found)
    assert not [f for f in found if f.rule_id == RULE_SENTINEL], [f.explanation for f in found]


# -- capacity / load factors and conversion efficiencies above 100 % ----------------------------

FACTOR_ID = "suspicious_values.factor_over_100"
FACTOR_SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(3)
# hourly output of three solar parks for one week; park C was extended from 2 to 9 MW
rated_old = pd.Series({"A": 5.0, "B": 7.5, "C": 2.0})
rated_now = pd.Series({"A": 5.0, "B": 7.5, "C": 9.0})
sun = np.clip(np.sin(np.linspace(0, 14 * np.pi, 168)), 0, None)
out = pd.DataFrame({p: sun * rated_now[p] * 0.8 for p in rated_now.index})
out["week"] = 1
# a chiller plant: tonnage delivered against design tonnage, by month
chill = pd.DataFrame({"month": ["May", "Jun", "Jul"], "ton_hours": [61000.0, 70000.0, 93000.0],
                      "hours": [744, 720, 744]})
# a battery: energy in and out per cycle (kWh); the meters of unit 2 swap in and out
cycles = pd.DataFrame({"unit": [1, 1, 2, 2], "kwh_in": [100.0, 98.0, 88.0, 87.0],
                       "kwh_out": [88.0, 86.0, 100.0, 98.0]})
"""

FACTOR_FLAWED = {
    "fstring_percent": """
        energy = out[["A", "B", "C"]].sum()
        cf = energy / (rated_old * 168)
        for park, v in cf.items():
            print(f"park {park}: capacity factor {v:.1%}")
    """,
    "titled_table": """
        chill["design_ton_hours"] = 100 * chill["hours"]
        chill["load_factor"] = chill["ton_hours"] / chill["design_ton_hours"]
        print("Chiller load factor by month")
        print(chill.set_index("month")[["load_factor"]].round(3))
    """,
    "helper_numpy": """
        def rte(df):
            return np.sum(df["kwh_out"].to_numpy()) / np.sum(df["kwh_in"].to_numpy())
        for unit, g in cycles.groupby("unit"):
            print(f"unit {unit} round-trip efficiency = {100 * rte(g):.1f}%")
    """,
}

FACTOR_SOUND = {
    "fstring_percent": """
        energy = out[["A", "B", "C"]].sum()
        assert (out[["A", "B", "C"]].max() <= rated_now).all()
        cf = energy / (rated_now * 168)
        for park, v in cf.items():
            print(f"park {park}: capacity factor {v:.1%}")
    """,
    "titled_table": """
        chill["design_ton_hours"] = 150 * chill["hours"]
        chill["load_factor"] = chill["ton_hours"] / chill["design_ton_hours"]
        print("Chiller load factor by month")
        print(chill.set_index("month")[["load_factor"]].round(3))
    """,
    "helper_numpy": """
        def rte(df):
            a, b = np.sum(df["kwh_out"].to_numpy()), np.sum(df["kwh_in"].to_numpy())
            return min(a, b) / max(a, b)   # unit 2's meters are wired the other way round
        for unit, g in cycles.groupby("unit"):
            print(f"unit {unit} round-trip efficiency = {100 * rte(g):.1f}%")
    """,
    "change_line": """
        energy = out[["A", "B", "C"]].sum()
        cf = energy / (rated_now * 168)
        print(f"park C capacity factor up {100 * (cf['C'] / 0.05 - 1):.0f}% on last winter")
    """,
}


@pytest.mark.parametrize("idiom", sorted(FACTOR_FLAWED))
def test_capacity_factor_or_efficiency_above_100_percent(idiom: str) -> None:
    f = one(check(run_and_gather(FACTOR_FLAWED[idiom], FACTOR_SETUP)), FACTOR_ID)
    assert f.severity == "critical" and f.is_blocking(0.8)


@pytest.mark.parametrize("idiom", sorted(FACTOR_SOUND))
def test_capacity_factor_or_efficiency_within_bounds_stays_quiet(idiom: str) -> None:
    found = check(run_and_gather(FACTOR_SOUND[idiom], FACTOR_SETUP))
    quiet(found)
    assert not [f for f in found if f.rule_id == FACTOR_ID], [f.explanation for f in found]


# -- -1 "no response" codes in reaction times / latencies; a summary driven below zero -------

TRIALS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(23)
n = 900
cond = rng.choice(["congruent", "incongruent", "neutral"], n)
lat = rng.lognormal(-0.6, 0.3, n).round(3)          # seconds, all > 0
miss = rng.random(n) < 0.12
peak = rng.uniform(0.05, 0.4, n).round(3)           # a small positive measurement
blink = rng.random(n) < 0.45
trials = pd.DataFrame({
    "cond": cond,
    "rt": np.where(miss, -1.0, lat),
    "saccade_latency_ms": np.where(miss, -1.0, (1000 * lat).round(1)),
    "peak_val": np.where(blink, -1.0, peak),
    "score_delta": np.where(miss, -1.0, peak),
})
"""


def _trials(code: str) -> list[Finding]:
    return [x for x in H.run(RULES, code, TRIALS) if x.rule_id == RULE_SENTINEL]


@pytest.mark.parametrize("code", [
    # pandas: a per-condition mean of a reaction-time column in seconds
    """
    by_cond = trials.groupby("cond")["rt"].mean()
    print(by_cond.round(3))
    """,
    # numpy over the values of a latency in ms, in an f-string
    """
    mlat = np.mean(trials["saccade_latency_ms"].to_numpy())
    print(f"mean saccade latency: {mlat:.0f} ms")
    """,
    # a dict comprehension over groups on a column whose name says nothing: its own mean
    # comes out negative although every real value is > 0
    """
    peaks = {c: g["peak_val"].mean() for c, g in trials.groupby("cond")}
    print(peaks)
    """,
])
def test_a_minus_one_code_in_reaction_times_or_positive_values_is_flagged(code: str) -> None:
    fs = _trials(code)
    assert fs and "-1" in fs[0].explanation, H.describe(fs)
    assert fs[0].severity in ("high", "critical")


def test_a_negative_mean_reaction_time_is_named_in_the_finding() -> None:
    fs = _trials("""
        t = trials.groupby("cond").agg(mean_peak=("peak_val", "mean"), n=("cond", "size"))
        t
    """)
    assert fs and "comes out negative" in fs[0].explanation, H.describe(fs)


@pytest.mark.parametrize("code", [
    # the no-response rows filtered out (and counted) before the mean
    """
    ok = trials[trials["rt"] >= 0]
    print(f"no response: {(trials.rt < 0).sum()}")
    print(ok.groupby("cond")["rt"].mean().round(3))
    """,
    # the code replaced by NaN
    """
    v = trials["saccade_latency_ms"].replace(-1, np.nan).to_numpy()
    print(f"mean saccade latency: {np.nanmean(v):.0f} ms")
    """,
    # a column with no duration name whose mean stays positive, and a signed name
    """
    lat_rt = {c: g["score_delta"].mean() for c, g in trials.groupby("cond")}
    print(lat_rt)
    """,
])
def test_minus_one_in_reaction_times_handled_or_signed_stays_quiet(code: str) -> None:
    assert not _trials(code), H.describe(_trials(code))


# -- negative R² the cell itself reads as 'no better than the mean' ----------------------------

NR_FLAWED_HANDLED = [
    # sklearn cross-validation on a target without signal; verdict by comparing with 0
    ("""
    noise = rng.normal(size=len(y))
    cv_r2 = cross_val_score(Ridge(), X, noise, cv=5, scoring="r2")
    print(f"CV R2 = {cv_r2.mean():.3f}")
    """, """
    noise = rng.normal(size=len(y))
    cv_r2 = cross_val_score(Ridge(), X, noise, cv=5, scoring="r2")
    verdict = "predictive" if cv_r2.mean() > 0 else "not predictive"
    print(f"CV R2 = {cv_r2.mean():.3f} -> {verdict}")
    """),
    # statsmodels, out-of-sample R² by hand; floored at zero when reported
    ("""
    noise = rng.normal(size=len(y))
    fit = sm.OLS(noise[:15], sm.add_constant(X[:15])).fit()
    pred = fit.predict(sm.add_constant(X[15:]))
    sse = ((noise[15:] - pred) ** 2).sum()
    oos_r2 = 1 - sse / ((noise[15:] - noise[15:].mean()) ** 2).sum()
    print(f"out-of-sample R2: {oos_r2:.3f}")
    """, """
    noise = rng.normal(size=len(y))
    fit = sm.OLS(noise[:15], sm.add_constant(X[:15])).fit()
    pred = fit.predict(sm.add_constant(X[15:]))
    sse = ((noise[15:] - pred) ** 2).sum()
    oos_r2 = 1 - sse / ((noise[15:] - noise[15:].mean()) ** 2).sum()
    print(f"out-of-sample R2: {oos_r2:.3f}; reported as {max(oos_r2, 0.0):.3f} (floored at 0)")
    """),
    # a loop over targets with r2_score; the output says what a value <= 0 means
    ("""
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=1)
    for name, shift in [("sales_noise", 1), ("footfall_noise", 2)]:
        target = rng.normal(size=len(X))
        m = LinearRegression().fit(X_train, target[:len(X_train)])
        print(f"{name} test R2: {r2_score(target[len(X_train):], m.predict(X_test)):.3f}")
    """, """
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=1)
    print("test R2 <= 0: the model predicts no better than the mean of the target")
    for name, shift in [("sales_noise", 1), ("footfall_noise", 2)]:
        target = rng.normal(size=len(X))
        m = LinearRegression().fit(X_train, target[:len(X_train)])
        print(f"{name} test R2: {r2_score(target[len(X_train):], m.predict(X_test)):.3f}")
    """),
    # per-site R² clipped at zero before they are shown
    ("""
    sites = {f"site{i}": rng.normal(size=len(y)) for i in range(3)}
    site_r2 = np.array([cross_val_score(Ridge(), X, t, cv=4).mean() for t in sites.values()])
    print("R2 per site:", site_r2.round(3))
    """, """
    sites = {f"site{i}": rng.normal(size=len(y)) for i in range(3)}
    site_r2 = np.array([cross_val_score(Ridge(), X, t, cv=4).mean() for t in sites.values()])
    print("R2 per site (clipped):", np.clip(site_r2, 0, None).round(3))
    """),
]


@pytest.mark.parametrize(("flawed", "sound"), NR_FLAWED_HANDLED)
def test_negative_r2_the_cell_reads_as_no_skill_stays_quiet(flawed: str, sound: str) -> None:
    f = one(check(gather(flawed)), NR)
    assert f.severity in ("medium", "high")
    silent(check(gather(sound), NR))


# -- survey non-response codes above a rating scale, a -99.9 code under signed values, ------------
# -- a row count over a count column loaded with the data ------------------------------------------

SURVEY_CODES = """
import numpy as np, pandas as pd, statistics
rng = np.random.default_rng(77)
n = 1500
# staff survey: engagement 1-5, 8 = don't know, 9 = refused (codes not applied)
eng = rng.choice([1, 2, 3, 4, 5], n, p=[0.08, 0.17, 0.3, 0.3, 0.15])
u = rng.random(n)
staff = pd.DataFrame({"dept": rng.choice(["ops", "sales", "it"], n),
                      "engage": np.where(u < 0.07, 8, np.where(u < 0.1, 9, eng))})
# pain clinic: NRS 0-10, 97 = unable to rate, 98 = not asked
nrs = rng.integers(0, 11, n)
v = rng.random(n)
pain = pd.DataFrame({"ward": rng.choice(["A", "B"], n),
                     "nrs": np.where(v < 0.04, 97, np.where(v < 0.06, 98, nrs))})
# trust in institutions 1-4, 9 = no answer
w = rng.random(n)
poll = pd.DataFrame({"region": rng.choice(["N", "S", "E", "W"], n),
                     "trust": np.where(w < 0.05, 9, rng.integers(1, 5, n))})
# a real 1-9 scale (no gap before 8 and 9) and a count of children 0-5
poll["liking"] = rng.integers(1, 10, n)
poll["kids"] = rng.integers(0, 6, n)
"""


def _codes(code: str) -> list:
    return [x for x in H.run(RULES, textwrap.dedent(code), SURVEY_CODES)
            if x.rule_id == RULE_SENTINEL]


@pytest.mark.parametrize("code, codes", [
    # pandas groupby mean of a 1-5 item with 8 / 9 still in it
    ("staff.groupby('dept')['engage'].mean().round(2)", "8"),
    # numpy on the array of a 0-10 scale with 97 / 98
    ("arr = pain['nrs'].to_numpy()\nprint(f'mean pain {np.mean(arr):.1f}')", "97"),
    # a loop over groups, statistics.mean on a 1-4 item with 9
    ("for reg, g in poll.groupby('region'):\n"
     "    print(reg, round(statistics.mean(g['trust']), 2))", "9"),
])
def test_survey_nonresponse_codes_averaged_into_a_scale(code: str, codes: str) -> None:
    (f,) = _codes(code)
    assert f.severity == "high" and f.confidence < 0.8
    assert "don't know" in f.explanation and codes in f.explanation
    assert "pushed up by at least" in f.explanation


@pytest.mark.parametrize("code", [
    "staff[staff['engage'].between(1, 5)].groupby('dept')['engage'].mean()",
    "arr = pain['nrs'].replace({97: np.nan, 98: np.nan}).to_numpy()\nprint(np.nanmean(arr))",
    "for reg, g in poll.groupby('region'):\n"
    "    print(reg, statistics.mean(g.loc[g['trust'] != 9, 'trust']))",
    # no codes: a full 1-9 scale, a count that runs 0-5
    "print(poll['liking'].mean(), poll.groupby('region')['kids'].mean())",
])
def test_survey_codes_excluded_or_absent_stay_quiet(code: str) -> None:
    assert not _codes(code)


MISSING_CODE = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 4000
# sea-surface temperature anomaly (degC) and soil temperature: -99.9 / -999 = no reading
sst = rng.normal(0.2, 0.6, n)
sst[rng.choice(n, 90, replace=False)] = -99.9
soil = 8 + 9 * np.sin(np.arange(n) / 58) + rng.normal(0, 1.5, n)
bad = rng.choice(n, 60, replace=False)
soil[bad] = -999.0
obs = pd.DataFrame({"buoy": rng.choice(["b1", "b2", "b3"], n), "sst_anom": sst.round(2),
                    "soil_t": soil.round(1), "soil_ok": ~np.isin(np.arange(n), bad)})
# a signed quantity whose cold tail runs on to its minimum (no code)
obs["air_t"] = rng.normal(-5, 6, n).round(1)
"""


@pytest.mark.parametrize("code", [
    "obs.groupby('buoy').sst_anom.agg(['mean', 'min', 'max'])",
    "print(f\"mean soil temperature {np.mean(obs['soil_t'].to_numpy()):.2f}\")",
    "obs[['soil_t']].describe()",
])
def test_negative_nines_code_under_signed_values(code: str) -> None:
    (f,) = [x for x in H.run(RULES, code, MISSING_CODE) if x.rule_id == RULE_SENTINEL]
    assert f.severity in ("high", "critical")
    assert "-99.9" in f.explanation or "-999" in f.explanation


@pytest.mark.parametrize("code", [
    "obs.groupby('buoy').sst_anom.agg(['mean', 'min', 'max'])".replace(
        "obs.", "obs.replace(-99.9, np.nan)."),
    "print(np.mean(obs.loc[obs.soil_ok, 'soil_t'].to_numpy()))",
    "obs[['air_t']].describe()",
])
def test_negative_code_removed_or_ordinary_cold_tail_is_quiet(code: str) -> None:
    assert not [x for x in H.run(RULES, code, MISSING_CODE) if x.rule_id == RULE_SENTINEL]


WHOLE_COUNTS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(21)
clinics = pd.DataFrame({"clinic": list("ABCDEF"),
                        "booked": [400, 380, 120, 510, 90, 300]})
# walk-ins were logged as visits too, for two clinics
rows = []
for c, b in zip(clinics.clinic, clinics.booked):
    rows += [(c, "booked")] * rng.binomial(b, 0.6) + [(c, "walk_in")] * (
        150 if c in ("C", "E") else 0)
visits = pd.DataFrame(rows, columns=["clinic", "kind"])
schools = pd.DataFrame({"school": list("PQRST"), "enrolled": [220, 180, 90, 300, 260]})
pupils = pd.DataFrame({"school": rng.choice(list("PQRST"), 700,
                                            p=[0.2, 0.15, 0.25, 0.2, 0.2])})
"""


@pytest.mark.parametrize("code", [
    # a groupby size over a count column loaded with the data, shown as a percentage
    "att = clinics.set_index('clinic')\n"
    "att['seen'] = visits.groupby('clinic').size()\n"
    "att['attendance'] = att['seen'] / att['booked']\n"
    "print(f\"best clinic: {att['attendance'].max():.0%}\")\natt",
    # .div() with value_counts, printed with a % format
    "t = schools.set_index('school')\n"
    "t['present'] = pupils['school'].value_counts()\n"
    "t['turnout'] = t['present'].div(t['enrolled'])\n"
    "for s, v in t['turnout'].items():\n    print(f'{s}: {v:.1%}')",
])
def test_row_count_over_a_loaded_count_above_100_percent(code: str) -> None:
    f = one(H.run(RULES, code, WHOLE_COUNTS), PROP)
    assert f.severity in ("high", "critical") and "count of rows" in f.explanation


@pytest.mark.parametrize("code", [
    "att = clinics.set_index('clinic')\n"
    "att['seen'] = visits[visits.kind == 'booked'].groupby('clinic').size()\n"
    "att['attendance'] = att['seen'] / att['booked']\n"
    "print(f\"best clinic: {att['attendance'].max():.0%}\")\natt",
    "t = schools.set_index('school')\n"
    "t['present'] = pupils['school'].value_counts()\n"
    "t['per_place'] = t['present'].div(t['enrolled'] * 4)\n"
    "for s, v in t['per_place'].items():\n    print(f'{s}: {v:.1%}')",
])
def test_row_count_over_a_loaded_count_within_100_is_quiet(code: str) -> None:
    quiet(H.run(RULES, code, WHOLE_COUNTS))
    assert not [x for x in H.run(RULES, code, WHOLE_COUNTS) if x.rule_id == PROP]


# -- holdout35-38 round: all-nines codes as a spike at the top; shares a little over 100 %;
#    prevalence abbreviated; percentiles named `pct`; an error budget used past 100 % ---------

NINES_SPIKE = """
import numpy as np, pandas as pd, statistics
rng = np.random.default_rng(41)
n = 5000
miles = np.round(rng.lognormal(8.9, 0.45, n), -2)
miles[rng.random(n) < 0.06] = 99999          # 'not declared' on the proposal form
pol = pd.DataFrame({"cover": rng.choice(["comp", "tpo"], n), "miles": miles,
                    "expo": rng.uniform(0.2, 1.0, n).round(3)})
income = rng.integers(20_000, 100_000, n).astype(float)   # runs evenly up to 99999
income[:3] = 99999
hh = pd.DataFrame({"region": rng.choice(list("NSEW"), n), "income": income})
"""


@pytest.mark.parametrize("code", [
    # pandas named aggregation
    'print(pol.groupby("cover").agg(n=("miles", "size"), avg_miles=("miles", "mean")))',
    # numpy weighted average on the column's values
    'print(round(np.average(pol["miles"].to_numpy(), weights=pol["expo"].to_numpy())))',
    # statistics module in a loop over groups
    'for c, g in pol.groupby("cover"):\n    print(c, round(statistics.fmean(g["miles"])))',
])
def test_an_all_nines_code_as_a_spike_above_the_values_is_flagged(code: str) -> None:
    # the real values stop near 37,000; 6 % of rows sit at exactly 99999 (2.7x above):
    # not 8x away from the rest, but a repeated all-nines value the values never run up to
    (f,) = _sentinel_in(code, NINES_SPIKE)
    assert f.severity in ("high", "critical") and "99999" in f.explanation


@pytest.mark.parametrize("code", [
    'decl = pol[pol.miles != 99999]\n'
    'print(decl.groupby("cover").agg(n=("miles", "size"), avg_miles=("miles", "mean")))',
    'm = pol["miles"].replace(99999, np.nan).to_numpy()\n'
    'ok = ~np.isnan(m)\n'
    'print(round(np.average(m[ok], weights=pol["expo"].to_numpy()[ok])))',
    # incomes that run evenly up to 99999: a real maximum, a few rows, no gap
    'for r, g in hh.groupby("region"):\n    print(r, round(statistics.fmean(g["income"])))',
    'print(hh.income.describe())',
])
def test_a_nines_code_removed_or_a_maximum_the_values_run_up_to_is_quiet(code: str) -> None:
    assert not _sentinel_in(code, NINES_SPIKE)


def _sentinel_in(code: str, setup: str) -> list:
    return [x for x in H.run(RULES, code, setup) if x.rule_id == RULE_SENTINEL]


OCCUPANCY = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
blocks = [f"B{i:02d}" for i in range(1, 11)]
bays = pd.Series(rng.integers(10, 30, 10), index=blocks)
minutes = pd.Series(bays.to_numpy() * 720 * 5 * rng.uniform(0.6, 0.9, 10), index=blocks)
resent = minutes.copy()
resent["B03"] = bays["B03"] * 720 * 5 * 1.12   # a gateway re-sent sessions: counted twice
seats = np.array([120, 90, 150, 110])
votes = np.array([95, 70, 158, 80])    # one ward's votes double-keyed
votes_ok = np.array([95, 70, 121, 80])
"""


@pytest.mark.parametrize("code", [
    # pandas: a percentage stored in a frame built from a dict, from a ratio made before
    'occ = resent / (bays * 720 * 5)\n'
    'table = pd.DataFrame({"bays": bays, "occupancy_pct": (100 * occ).round(1)})\n'
    'table.sort_values("occupancy_pct", ascending=False)',
    # pandas: an assigned column, fractions
    'df = pd.DataFrame({"bays": bays, "used": resent})\n'
    'df["occupancy"] = df.used / (df.bays * 720 * 5)\nprint(df.round(3))',
    # numpy arrays: turnout per ward
    'turnout = votes / seats\nprint(np.round(turnout, 3))',
])
def test_a_strict_share_a_little_above_100_percent_is_flagged(code: str) -> None:
    f = one(H.run(RULES, code, OCCUPANCY), SHARE)
    assert f.severity == "high"


@pytest.mark.parametrize("code", [
    'occ = minutes / (bays * 720 * 5)\n'
    'table = pd.DataFrame({"bays": bays, "occupancy_pct": (100 * occ).round(1)})\n'
    'table.sort_values("occupancy_pct", ascending=False)',
    'df = pd.DataFrame({"bays": bays, "used": minutes})\n'
    'df["occupancy"] = df.used / (df.bays * 720 * 5)\nprint(df.round(3))',
    'turnout = votes_ok / seats\nprint(np.round(turnout, 3))',
    # a utilisation may pass 100 % a little (overtime, several cores): only far above counts
    'util = resent / (bays * 720 * 5)\nprint(pd.DataFrame({"bay_util": util}).round(3))',
])
def test_a_strict_share_within_100_or_a_loose_one_a_little_above_is_quiet(code: str) -> None:
    assert not [x for x in H.run(RULES, code, OCCUPANCY) if x.rule_id == SHARE]


ALLOWANCES = """
import numpy as np, pandas as pd
rng = np.random.default_rng(8)
svc = pd.DataFrame({"service": list("abcdef"),
                    "requests": rng.integers(2_000_000, 9_000_000, 6)})
svc["errors"] = (svc.requests * np.array([4, 21, 9, 3, 15, 48]) / 1e4).round()
SLO = 0.999
spend = np.array([120.0, 95.0, 310.0])
plan = np.array([100.0, 100.0, 100.0])
"""


@pytest.mark.parametrize("code", [
    # pandas: an SLO's error budget burnt several times over
    'svc["budget_used_pct"] = 100 * (svc.errors / svc.requests) / (1 - SLO)\n'
    'print(svc.round(2).to_string(index=False))',
    # numpy: spend against plan
    'plan_used = spend / plan\nprint(np.round(plan_used, 2))',
    # a quota used through .assign
    'print(svc.assign(quota_used=svc.errors / 2000).round(2))',
])
def test_an_allowance_used_past_100_percent_is_quiet(code: str) -> None:
    found = H.run(RULES, code, ALLOWANCES)
    assert not [x for x in found if x.rule_id in (SHARE, PROP)], H.describe(found)


def test_a_share_of_a_budget_above_100_percent_is_still_flagged() -> None:
    one(H.run(RULES, 'budget_share = spend / (plan / 2)\nprint(np.round(budget_share, 2))',
              ALLOWANCES), SHARE)


PREV = """
import numpy as np, pandas as pd
rng = np.random.default_rng(12)
herds = pd.DataFrame({"herd": [f"H{i}" for i in range(12)],
                      "cows": rng.integers(50, 250, 12)})
rows = []
for h, c in zip(herds.herd, herds.cows):
    cows_hit = rng.choice(c, int(c * rng.uniform(0.3, 0.6)), replace=False)
    top = 5 if h in ("H0", "H1") else 2              # repeat cases, many in two herds
    rows += [(h, k) for k in cows_hit for _ in range(rng.integers(1, top))]
cases = pd.DataFrame(rows, columns=["herd", "cow"])
"""


@pytest.mark.parametrize("code", [
    # pandas: cases (repeats counted) over cows, named with an abbreviation
    't = herds.set_index("herd")\n'
    't["n_cases"] = cases.groupby("herd").size()\n'
    't["mastitis_prev_pct"] = 100 * t.n_cases / t.cows\n'
    'print("herd prevalence of mastitis")\nprint(t.round(1))',
    # numpy arrays
    'n_cases = cases.groupby("herd").size().reindex(herds.herd).to_numpy()\n'
    'prev_pct = 100 * n_cases / herds.cows.to_numpy()  # prevalence\nprint(prev_pct.round(1))',
    # a Series renamed
    'prev = (cases.groupby("herd").size() / herds.set_index("herd").cows).rename("prev")\n'
    '# apparent prevalence per herd\nprint(prev.round(3))',
])
def test_an_abbreviated_prevalence_above_100_percent_is_flagged(code: str) -> None:
    f = one(H.run(RULES, code, PREV), PROP)
    assert f.severity == "critical"


@pytest.mark.parametrize("code", [
    # distinct cows affected: a real prevalence
    't = herds.set_index("herd")\n'
    't["n_cows"] = cases.groupby("herd").cow.nunique()\n'
    't["mastitis_prev_pct"] = 100 * t.n_cows / t.cows\n'
    'print("herd prevalence of mastitis")\nprint(t.round(1))',
    # `prev` for a previous value, the cell never speaks of prevalence
    'cur = cases.groupby("herd").size().reindex(herds.herd).to_numpy()\n'
    'last = np.maximum(cur // 2, 1)\n'
    'prev_pct = 100 * cur / last   # this year against the previous one\nprint(prev_pct)',
])
def test_a_prevalence_of_distinct_units_or_a_previous_value_is_quiet(code: str) -> None:
    assert not [x for x in H.run(RULES, code, PREV) if x.rule_id == PROP]


BOOT = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
losses = rng.lognormal(16, 0.3, 400)
"""


@pytest.mark.parametrize("code", [
    'pct = np.percentile(losses, [50, 75, 99.5])\nprint(pct.round())',
    'pct = pd.Series(losses).quantile([0.5, 0.9]).round(0)\nprint(pct)',
    'pct = stats.scoreatpercentile(losses, 99)\nprint(round(pct))',
])
def test_percentiles_held_in_a_name_pct_are_not_percentages(code: str) -> None:
    assert not [x for x in H.run(RULES, code, BOOT) if x.rule_id == PROP]


def test_a_percentage_named_pct_above_100_is_still_flagged() -> None:
    one(H.run(RULES, 'pct = 100 * np.array([3, 5, 9]) / np.array([4, 4, 10])\nprint(pct)',
              BOOT), PROP)


RENEWALS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(35)
n = 3000
expiring = pd.DataFrame({"policy": np.arange(n), "broker": rng.choice(list("ABCDEF"), n)})
renewed = expiring[rng.random(n) < 0.85]
mta = renewed[rng.random(len(renewed)) < 0.25]      # mid-term adjustments, same status
trans = pd.concat([renewed, mta]).assign(status="renewed")
"""


@pytest.mark.parametrize("code", [
    # pandas columns from a dict of counts, shown with a % formatter
    'ret = pd.DataFrame({"expiring": expiring.groupby("broker").size(),\n'
    '                    "renewed": trans.groupby("broker").size()})\n'
    'ret["retention"] = ret.renewed / ret.expiring\n'
    'print(ret.to_string(formatters={"retention": "{:.1%}".format}))',
    # .div on two size() Series, scaled by 100
    'retention_pct = trans.groupby("broker").size().div(expiring.groupby("broker").size())'
    ' * 100\nprint(retention_pct.round(1))',
    # value_counts over value_counts
    'retention = trans.broker.value_counts() / expiring.broker.value_counts()\n'
    'for b, r in retention.sort_index().items():\n    print(f"{b}: {r:.1%}")',
])
def test_a_retention_of_rows_over_policies_mostly_above_100_is_flagged(code: str) -> None:
    f = one(H.run(RULES, code, RENEWALS), PROP)
    assert f.severity in ("high", "critical")


@pytest.mark.parametrize("code", [
    'ret = pd.DataFrame({"expiring": expiring.groupby("broker").size(),\n'
    '                    "renewed": trans.groupby("broker").policy.nunique()})\n'
    'ret["retention"] = ret.renewed / ret.expiring\n'
    'print(ret.to_string(formatters={"retention": "{:.1%}".format}))',
    'retention_pct = trans.groupby("broker").policy.nunique().div('
    'expiring.groupby("broker").size()) * 100\nprint(retention_pct.round(1))',
    # transactions per expiring policy: not a retention, no rate word
    'tx_per_policy = trans.broker.value_counts() / expiring.broker.value_counts()\n'
    'print(tx_per_policy.round(2))',
])
def test_a_retention_of_distinct_policies_or_a_per_policy_count_is_quiet(code: str) -> None:
    assert not [x for x in H.run(RULES, code, RENEWALS) if x.rule_id == PROP]
