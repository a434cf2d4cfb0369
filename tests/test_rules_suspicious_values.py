"""suspicious_values: impossible values (p > 1, negative variance, |r| > 1, probabilities
outside [0, 1]) and suspicious ones (a perfect score, a negative R²), read from the kernel's
facts and from the printed output, each with a sound twin that must stay quiet."""

from __future__ import annotations

import pytest

from critics.evidence import Evidence
from critics.findings import Finding
from critics.rules import rules_of
from critics.rules import suspicious_values as sv
from tests.inprocess_evidence import evidence, run_and_gather

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


def findings(ev: Evidence, rule_id: str | None = None) -> list[Finding]:
    out = [f for r in RULES for f in r.check(ev)]
    return [f for f in out if rule_id is None or f.rule_id == rule_id]


def run(code: str, setup: str = SETUP) -> Evidence:
    return run_and_gather(code, setup)


def one(ev: Evidence, rule_id: str) -> Finding:
    found = findings(ev, rule_id)
    assert len(found) == 1, [f.rule_id for f in findings(ev)]
    return found[0]


def quiet(ev: Evidence) -> None:
    found = findings(ev)
    assert not found, [(f.rule_id, f.severity, f.explanation) for f in found]


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
        "suspicious_values.negative_r2"}
    assert all(r.family == "suspicious_values" for r in RULES)


# -- p-values ----------------------------------------------------------------------------------

PV = "suspicious_values.pvalue_out_of_range"


def test_bonferroni_by_hand_in_a_list_comprehension_is_blocking() -> None:
    ev = run("""
        pvals = [stats.ttest_ind(groups["a"], groups[g]).pvalue for g in "bcdef"]
        p_adj = [p * len(pvals) for p in pvals]
        print("adjusted:", p_adj)
    """)
    f = one(ev, PV)
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert 3 in f.lines  # the unclipped multiplication is cited
    assert "capping" in f.explanation


def test_bonferroni_column_in_a_printed_dataframe() -> None:
    ev = run("""
        res = pd.DataFrame({"group": list("bcdef"),
                            "p": [stats.ttest_ind(groups["a"], groups[g]).pvalue
                                  for g in "bcdef"]})
        res["p_bonf"] = res["p"] * len(res)
        print(res)
    """)
    f = one(ev, PV)
    assert f.is_blocking(0.8)
    assert "p_bonf" in f.explanation


def test_numpy_array_of_corrected_pvalues_in_the_facts() -> None:
    ev = run("""
        pv = np.array([stats.mannwhitneyu(groups["a"], groups[g]).pvalue for g in "bcdef"])
        n_tests = len(pv)
        corrected = pv * n_tests
        significant = corrected < 0.05
    """)
    f = one(ev, PV)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_statsmodels_pvalues_times_number_of_models() -> None:
    ev = run("""
        fit = sm.OLS(y, sm.add_constant(X)).fit()
        p_holm = fit.pvalues * 5
        p_holm
    """)
    assert one(ev, PV).is_blocking(0.8)


def test_inline_fstring_with_bare_p_label() -> None:
    ev = run("""
        t, p = stats.ttest_ind(groups["a"], groups["b"])
        print(f"t = {t:.2f}, p = {p * 40:.3f}")
    """)
    f = one(ev, PV)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_hand_rolled_holm_in_a_helper_function() -> None:
    ev = run("""
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
    assert one(ev, PV).severity == "critical"


def test_code_only_unclipped_correction_is_a_medium_concern() -> None:
    ev = evidence("""
        res["p_bonf"] = res["p"] * len(res)
        res.sort_values("p_bonf")
    """)
    f = one(ev, PV)
    assert f.severity == "medium" and not f.is_blocking(0.5)


@pytest.mark.parametrize("fix", [
    "p_adj = [min(p * len(pvals), 1.0) for p in pvals]",
    "p_adj = np.minimum(np.array(pvals) * len(pvals), 1)",
    "p_adj = np.clip(np.array(pvals) * len(pvals), 0, 1)",
    "from statsmodels.stats.multitest import multipletests\n"
    "_, p_adj, _, _ = multipletests(pvals, method='bonferroni')",
])
def test_clipped_or_library_corrections_are_sound(fix: str) -> None:
    ev = run('pvals = [stats.ttest_ind(groups["a"], groups[g]).pvalue for g in "bcdef"]\n'
             + fix + '\nprint("adjusted:", list(p_adj))\n')
    quiet(ev)


def test_dataframe_column_clipped_afterwards_is_sound() -> None:
    ev = run("""
        res = pd.DataFrame({"p": [stats.ttest_ind(groups["a"], groups[g]).pvalue
                                  for g in "bcdef"]})
        res["p_bonf"] = res["p"] * len(res)
        res["p_bonf"] = res["p_bonf"].clip(upper=1)
        print(res)
    """)
    quiet(ev)


def test_negative_p_value_from_a_wrong_two_sided_formula() -> None:
    ev = run("""
        z = (groups["f"].mean() - groups["a"].mean()) / 0.2
        p_two_sided = 1 - 2 * stats.norm.cdf(abs(z))
        print(f"z = {z:.2f}, p = {p_two_sided:.3g}")
    """)
    f = one(ev, PV)
    assert f.is_blocking(0.8)


def test_invalid_p_values_from_an_earlier_cell_are_not_this_cells_finding() -> None:
    ev = run("""
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots()
        ax.bar(range(len(p_adj)), p_adj)
        plt.close(fig)
    """, SETUP + "\np_adj = [0.5 * 5, 0.01 * 5]\n")
    quiet(ev)


def test_counts_and_log_pvalues_are_not_pvalues() -> None:
    ev = evidence("print(x)", outputs=stdout(
        "n = 120, p = 4 predictors\n-log10(p): 7.31\nneg log p = 3.2\nalpha = 0.05\n"
        "t(18) = 2.10, p = .049\n"))
    quiet(ev)


# -- variance ----------------------------------------------------------------------------------

NV = "suspicious_values.negative_variance"


def test_swapped_variance_formula() -> None:
    ev = run("""
        x = groups["c"]
        var = np.mean(x) ** 2 - np.mean(x ** 2)
        print(f"variance = {var:.3f}")
    """)
    f = one(ev, NV)
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert "`var`" in f.explanation


def test_per_group_variances_with_a_sign_error() -> None:
    ev = run("""
        variances = {g: v.mean() ** 2 - (v ** 2).mean() for g, v in groups.items()}
        print(pd.Series(variances, name="variance"))
    """)
    assert one(ev, NV).severity == "critical"


def test_printed_negative_sd_from_text_only() -> None:
    ev = evidence("print(summary)", outputs=stdout("mean = 3.20, SD = -0.41\n"))
    f = one(ev, NV)
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
    f = one(ev, NV)
    assert f.severity == "critical" and "one_pass_var" in f.explanation


def test_raw_data_columns_named_like_statistics_are_not_results() -> None:
    ev = displayed("""
data = pd.DataFrame({"var": rng.normal(size=8), "r2": rng.normal(size=8),
                     "prob": rng.normal(size=8)})
data.to_csv("/dev/null")
data[["var", "r2", "prob"]].corr()
""")
    quiet(ev)
    ev = evidence("df[['var', 'p', 'prob']].head()", outputs=[{
        "output_type": "execute_result", "data": {"text/plain":
            "        var         p      prob\n0 -0.120000  1.300000  2.500000\n"
            "1 -1.500000  3.100000 -0.400000\n"}}])
    quiet(ev)


def test_neg_mse_reported_as_mse_is_high_not_critical() -> None:
    ev = run("""
        scores = cross_val_score(Ridge(), X, y, cv=5, scoring="neg_mean_squared_error")
        print("MSE:", scores.mean())
    """)
    f = one(ev, NV)
    assert f.severity == "high"


def test_standardised_values_and_differences_are_sound() -> None:
    ev = run("""
        x = groups["d"]
        x_std = (x - x.mean()) / x.std()
        var = np.var(x, ddof=1)
        sd = x.std()
        print(f"variance {var:.3f}, sd {sd:.3f}, first z {x_std[0]:.2f}")
        print("std change: -0.4; explained variance: -0.2; delta var = -1.3")
    """)
    quiet(ev)


def test_neg_mse_negated_before_reporting_is_sound() -> None:
    ev = run("""
        scores = cross_val_score(Ridge(), X, y, cv=5, scoring="neg_mean_squared_error")
        print("MSE:", -scores.mean())
    """)
    quiet(ev)


# -- correlation -------------------------------------------------------------------------------

CR = "suspicious_values.correlation_out_of_range"


def test_hand_rolled_correlation_with_mismatched_ddof() -> None:
    ev = run("""
        a = X[:, 0]
        b = a + 0.01 * X[:, 1]
        r = np.cov(a, b)[0, 1] / (a.std() * b.std())
        print(f"r = {r:.3f}")
    """)
    f = one(ev, CR)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_correlation_out_of_range_in_printed_text() -> None:
    ev = evidence("""
        from scipy import stats
        print(f"Pearson r = {compute(a, b):.3f}")
    """, outputs=stdout("Pearson r = 1.042\n"))
    assert one(ev, CR).severity == "critical"


def test_library_correlations_are_sound() -> None:
    ev = run("""
        r, p = stats.pearsonr(X[:, 0], y)
        rho = stats.spearmanr(X[:, 0], y).statistic
        corr = pd.DataFrame(X).corr()
        print(f"r = {r:.3f} (p = {p:.2g}), rho = {rho:.3f}")
        print(corr)
    """)
    quiet(ev)


# -- probabilities and bounded scores ----------------------------------------------------------

PR = "suspicious_values.probability_out_of_range"


def test_unnormalised_probabilities() -> None:
    ev = run("""
        logits = X @ np.array([1.0, 2.0, 0.0, 0.0])
        prob = np.exp(logits)
        print("max probability:", prob.max())
    """)
    f = one(ev, PR)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_r2_above_one_from_a_sign_error() -> None:
    ev = run("""
        pred = LinearRegression().fit(X, y).predict(X)
        ss_res = ((y - pred) ** 2).sum()
        ss_tot = ((y - y.mean()) ** 2).sum()
        r2 = 1 + ss_res / ss_tot
        print(f"R2 = {r2:.3f}")
    """)
    assert one(ev, PR).severity == "critical"


def test_accuracy_percentage_scaled_twice() -> None:
    ev = evidence("print(f'Accuracy: {acc * 100:.1f}%')",
                  outputs=stdout("Accuracy: 9350.0%\n"))
    assert one(ev, PR).severity == "critical"


def test_percentages_and_log_probabilities_are_sound() -> None:
    ev = run("""
        clf = LogisticRegression().fit(X, yc)
        probs = clf.predict_log_proba(X)[:, 1]
        proba = clf.predict_proba(X)[:, 1]
        acc = accuracy_score(yc, clf.predict(X)) * 100
        print(f"Accuracy: {acc:.1f}%  ({acc:.1f} percent); mean p(y=1) {proba.mean():.2f}")
        print("Accuracy: 87.3")
    """)
    quiet(ev)


# -- perfect scores ----------------------------------------------------------------------------

PS = "suspicious_values.perfect_score"


def test_score_on_the_fitting_data_reported_as_accuracy_is_blocking() -> None:
    ev = run("""
        clf = DecisionTreeClassifier().fit(X, yc)
        print("Accuracy:", clf.score(X, yc))
    """)
    f = one(ev, PS)
    assert f.severity == "critical" and f.is_blocking(0.8)


def test_accuracy_score_of_training_predictions_in_the_facts() -> None:
    ev = run("""
        tree = DecisionTreeClassifier(random_state=0)
        tree.fit(X, yc)
        acc = accuracy_score(yc, tree.predict(X))
        print(f"model accuracy {acc:.3f}")
    """)
    f = one(ev, PS)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_perfect_held_out_score_with_a_leaked_feature_is_high() -> None:
    ev = run("""
        Xl = np.column_stack([X, yc])
        Xtr, Xte, ytr, yte = train_test_split(Xl, yc, test_size=0.3, random_state=0)
        clf = DecisionTreeClassifier(random_state=0).fit(Xtr, ytr)
        acc = accuracy_score(yte, clf.predict(Xte))
        print(f"Test accuracy: {acc:.3f}")
    """)
    f = one(ev, PS)
    assert f.severity == "high" and not f.is_blocking(0.5)


def test_perfect_cross_validated_grid_search_score() -> None:
    ev = run("""
        Xl = np.column_stack([X, yc])
        gs = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=5).fit(Xl, yc)
        print("best CV accuracy:", gs.best_score_)
    """)
    assert one(ev, PS).severity == "high"


def test_statsmodels_perfect_in_sample_fit() -> None:
    ev = run("""
        fit = sm.OLS(y, sm.add_constant(np.column_stack([X, 2 * y]))).fit()
        print(f"R-squared: {fit.rsquared:.3f}")
    """)
    assert one(ev, PS).severity == "high"


def test_training_accuracy_labelled_as_such_but_alone_is_high() -> None:
    ev = evidence("""
        model.fit(X_train, y_train)
        print(f"Training accuracy: {model.score(X_train, y_train):.3f}")
    """, outputs=stdout("Training accuracy: 1.000\n"))
    f = one(ev, PS)
    assert f.severity == "high"


def test_perfect_accuracy_on_a_tiny_test_set_is_medium() -> None:
    ev = run("""
        from sklearn.datasets import load_iris
        Xi, yi = load_iris(return_X_y=True)
        Xtr, Xte, ytr, yte = train_test_split(Xi, yi, test_size=0.2, random_state=3)
        clf = LogisticRegression(max_iter=500).fit(Xtr, ytr)
        acc = accuracy_score(yte, clf.predict(Xte))
        print(f"Test accuracy: {acc:.3f}")
    """)
    assert acc_value(ev) == 1.0
    assert one(ev, PS).severity == "medium"


def acc_value(ev: Evidence) -> float:
    return float(ev.objects["acc"].value)  # type: ignore[arg-type]


def test_training_score_next_to_a_test_score_is_a_diagnostic() -> None:
    ev = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, yc, random_state=0)
        clf = DecisionTreeClassifier(random_state=0).fit(X_train, y_train)
        train_acc = clf.score(X_train, y_train)
        test_acc = clf.score(X_test, y_test)
        print(f"train acc {train_acc:.3f}, test acc {test_acc:.3f}")
    """)
    assert ev.objects["train_acc"].value == 1.0
    quiet(ev)


def test_classification_report_with_a_perfect_class_is_sound() -> None:
    ev = run("""
        from sklearn.datasets import load_iris
        Xi, yi = load_iris(return_X_y=True)
        Xtr, Xte, ytr, yte = train_test_split(Xi, yi, test_size=0.3, random_state=1,
                                              stratify=yi)
        clf = LogisticRegression(max_iter=500).fit(Xtr, ytr)
        print(classification_report(yte, clf.predict(Xte)))
    """)
    assert "1.00" in ev.stdout
    quiet(ev)


def test_cross_validated_score_below_one_is_sound() -> None:
    ev = run("""
        scores = cross_val_score(LogisticRegression(), X, yc, cv=5)
        print(f"CV accuracy {scores.mean():.3f} +/- {scores.std():.3f}")
    """)
    quiet(ev)


# -- negative R² -------------------------------------------------------------------------------

NR = "suspicious_values.negative_r2"


def test_negative_test_r2_reported_alone_is_high() -> None:
    ev = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        m = LinearRegression().fit(X_train, y_train)
        r2 = r2_score(y_test, -m.predict(X_test))
        print(f"R2: {r2:.3f}")
    """)
    f = one(ev, NR)
    assert f.severity == "high" and f.confidence >= 0.8
    assert not f.is_blocking(0.5)


def test_misaligned_targets_give_a_negative_score() -> None:
    ev = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = Ridge().fit(X_train, y_train)
        print("R^2 =", model.score(X_test, np.sort(y_test)))
    """)
    assert one(ev, NR).severity == "high"


def test_negative_r2_next_to_an_error_metric_is_still_high() -> None:
    ev = evidence("print(report)", outputs=stdout("test R2 = -10.01\nRMSE = 1234.5\n"))
    assert one(ev, NR).severity == "high"


def test_scoring_one_model_on_data_another_model_was_fit_on_is_not_training() -> None:
    ev = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, yc, random_state=0)
        Xl = np.column_stack([X_test, y_test])
        probe = LogisticRegression().fit(X, yc)
        clf = DecisionTreeClassifier(random_state=0).fit(
            np.column_stack([X_train, y_train]), y_train)
        print(f"accuracy {clf.score(Xl, y_test):.3f}")
    """)
    f = one(ev, PS)
    assert f.severity == "high"  # suspicious (a leak), but not scored on its own fit data


@pytest.mark.parametrize("line", ["R2: -0.31", "R^2 = -1.2", "r2=-0.05", "R² (test) = -0.4",
                                  "coefficient of determination: -0.12"])
def test_printed_negative_r2_variants(line: str) -> None:
    ev = evidence("print(report)", outputs=stdout(line + "\n"))
    f = one(ev, NR)
    assert f.severity == "high" and f.confidence >= 0.7


def test_negative_r2_among_several_held_out_scores_is_medium() -> None:
    ev = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        noise = rng.normal(size=len(y_test))
        for name, target in [("signal", y_test), ("noise", noise)]:
            m = LinearRegression().fit(X_train, y_train)
            print(f"{name} test R2: {r2_score(target, m.predict(X_test)):.3f}")
    """)
    f = one(ev, NR)
    assert f.severity == "medium"


def test_negative_cross_validated_r2_is_medium() -> None:
    ev = run("""
        noise = rng.normal(size=len(y))
        scores = cross_val_score(Ridge(), X, noise, cv=5)
        print(f"CV R2: {scores.mean():.3f} +/- {scores.std():.3f}")
    """)
    assert one(ev, NR).severity == "medium"


def test_last_value_of_a_search_loop_is_not_a_reported_r2() -> None:
    ev = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        best_alpha, best_r2 = None, -np.inf
        for alpha in [0.01, 1.0, 1e6]:
            r2 = Ridge(alpha=alpha).fit(X_train, y_train).score(X_test, -y_test)
            if r2 > best_r2:
                best_alpha, best_r2 = alpha, r2
        print(f"alpha {best_alpha}")
    """)
    assert ev.objects["r2"].value < 0
    assert not findings(ev, NR)


def test_positive_test_r2_and_other_negative_scores_are_sound() -> None:
    ev = run("""
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
    quiet(ev)


# -- robustness --------------------------------------------------------------------------------


def test_odd_code_and_outputs_do_not_raise() -> None:
    for ev in (evidence("def broken(:\n    pass"), evidence(""),
               evidence("x = 1", outputs=stdout("R2: \nR2: [\np = [1.2, \n" + "9" * 5000)),
               evidence("print(1)", outputs=[{"output_type": "execute_result",
                                              "data": {"text/plain": ["R2: -0.5"]}}])):
        findings(ev)


def test_sound_analysis_output_gets_no_high_finding() -> None:
    ev = run("""
        fit = sm.OLS(y, sm.add_constant(X)).fit()
        print(fit.summary())
        print(pd.DataFrame(X, columns=["a", "b", "c", "d"]).describe())
    """)
    quiet(ev)


def test_rules_are_fast() -> None:
    import time

    code = """
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        m = LinearRegression().fit(X_train, y_train)
        r2 = r2_score(y_test, m.predict(X_test))
        pvals = [stats.ttest_ind(groups["a"], groups[g]).pvalue for g in "bcdef"]
        p_adj = [min(p * len(pvals), 1) for p in pvals]
        print(f"R2 = {r2:.3f}", p_adj)
    """ * 6
    base = run(code)
    times = []
    for _ in range(5):
        ev = Evidence.from_dict(base.to_dict())
        _ = ev.model.calls, ev.model.assignments, ev.model.reported_names  # warm-up
        t0 = time.perf_counter()
        findings(ev)
        times.append(time.perf_counter() - t0)
    assert min(times) < 0.005


# -- `p_<event>` names read as probabilities -----------------------------------------------------

EVENTS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(8)
users = pd.DataFrame({"plan": rng.choice(["free", "pro"], 500)})
tickets = users.loc[users.index.repeat(rng.poisson(np.where(users.plan == "pro", 1.5, 0.3)))]
"""


def test_p_event_rate_above_one_is_flagged():
    ev = run("""
        p_ticket = tickets.plan.value_counts() / users.plan.value_counts()
        print(p_ticket)
    """, EVENTS)
    f = one(ev, "suspicious_values.probability_out_of_range")
    assert f.confidence < 0.8   # named only, no test: not blocking


def test_p_event_scalar_above_one_is_flagged():
    ev = run("""
        pChurn = float(len(tickets)) / (users.plan == "pro").sum()
        print(f"churn probability {pChurn:.2f}")
    """, EVENTS)
    assert findings(ev, "suspicious_values.probability_out_of_range")


def test_p_event_within_range_is_quiet():
    quiet(run("""
        p_ticket = tickets.reset_index().groupby("plan")["index"].nunique() / \
            users.plan.value_counts()
        print(p_ticket)
    """, EVENTS))
