"""The rules that read the analysis trace, each in more than one idiom with a sound twin:
the kernel records what ran, so the shape of the code does not matter."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from critics import AnalysisCritic

from .inprocess_evidence import run_and_gather

CRITIC = AnalysisCritic()
SETUP = """
import numpy as np, pandas as pd
from scipy import stats
rng = np.random.default_rng(11)
X = rng.normal(size=(240, 6)); y = (X[:, 0] + rng.normal(size=240) > 0).astype(int)
trial = pd.DataFrame({"arm": rng.choice(["drug", "placebo"], 400),
                      "status": rng.choice(["completed", "withdrew"], 400, p=[.75, .25]),
                      "completed": rng.random(400) > .2, "pain": rng.normal(5, 2, 400)})
"""


def rules(code: str) -> set[str]:
    return {f.rule_id for f in CRITIC.review(run_and_gather(code, SETUP)).findings}


# --- leakage.fit_saw_heldout_rows -----------------------------------------------------------
def test_selector_fit_on_all_rows_then_split_in_numpy() -> None:
    assert "leakage.fit_saw_heldout_rows" in rules("""
    from sklearn.feature_selection import SelectKBest, f_classif
    from sklearn.model_selection import train_test_split
    from sklearn.svm import SVC
    Xk = SelectKBest(f_classif, k=3).fit_transform(X, y)
    idx = train_test_split(Xk, y, random_state=1)
    clf = SVC().fit(idx[0], idx[2])
    print(clf.score(idx[1], idx[3]))
    """)


def test_imputer_in_a_helper_then_cross_validation() -> None:
    assert "leakage.fit_saw_heldout_rows" in rules("""
    from sklearn.impute import SimpleImputer
    from sklearn.model_selection import cross_val_score
    from sklearn.linear_model import LogisticRegression
    def clean(a):
        return SimpleImputer(strategy="median").fit(a).transform(a)
    print(cross_val_score(LogisticRegression(), clean(X), y, cv=5).mean())
    """)


def test_pipeline_twin_is_quiet() -> None:
    found = rules("""
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.model_selection import train_test_split, cross_val_score
    from sklearn.linear_model import LogisticRegression
    a, b, c, d = train_test_split(X, y, random_state=1)
    pipe = make_pipeline(StandardScaler(), LogisticRegression()).fit(a, c)
    print(pipe.score(b, d), cross_val_score(pipe, X, y, cv=5).mean())
    """)
    assert "leakage.fit_saw_heldout_rows" not in found


def test_scaler_fit_on_training_rows_only_is_quiet() -> None:
    assert "leakage.fit_saw_heldout_rows" not in rules("""
    from sklearn.preprocessing import MinMaxScaler
    from sklearn.model_selection import train_test_split
    from sklearn.neighbors import KNeighborsClassifier
    a, b, c, d = train_test_split(X, y, random_state=2)
    mm = MinMaxScaler().fit(a)
    knn = KNeighborsClassifier().fit(mm.transform(a), c)
    print(knn.score(mm.transform(b), d))
    """)


# --- multiple_comparisons.tests_ran_uncorrected ---------------------------------------------
def test_many_tests_in_a_comprehension_only_significant_reported() -> None:
    assert "multiple_comparisons.tests_ran_uncorrected" in rules("""
    grp = rng.integers(0, 2, 120)
    cols = {f"m{i}": rng.normal(size=120) + (i < 2) * grp for i in range(20)}
    res = {k: stats.mannwhitneyu(v[grp == 0], v[grp == 1]).pvalue for k, v in cols.items()}
    print({k: round(p, 4) for k, p in res.items() if p < 0.05})
    """)


def test_many_tests_through_a_helper_over_subgroups() -> None:
    assert "multiple_comparisons.tests_ran_uncorrected" in rules("""
    def compare(frame):
        a = frame.loc[frame.arm == "drug", "pain"]
        b = frame.loc[frame.arm == "placebo", "pain"]
        return stats.ttest_ind(a, b).pvalue
    trial["site"] = rng.integers(0, 12, len(trial))
    trial.loc[trial.site == 3, "pain"] -= 2 * (trial.arm == "drug")
    out = trial.groupby("site").apply(compare)
    print(out[out < 0.05])
    """)


def test_corrected_family_twin_is_quiet() -> None:
    assert "multiple_comparisons.tests_ran_uncorrected" not in rules("""
    from statsmodels.stats.multitest import multipletests
    cols = {f"m{i}": rng.normal(size=120) for i in range(20)}
    grp = rng.integers(0, 2, 120)
    res = {k: stats.mannwhitneyu(v[grp == 0], v[grp == 1]).pvalue for k, v in cols.items()}
    reject, p_adj, _, _ = multipletests(list(res.values()), method="holm")
    print(dict(zip(res, p_adj.round(3))))
    """)


def test_a_power_simulation_is_not_a_family() -> None:
    assert "multiple_comparisons.tests_ran_uncorrected" not in rules("""
    hits = [stats.ttest_ind(rng.normal(0, 1, 30), rng.normal(0.5, 1, 30)).pvalue < 0.05
            for _ in range(250)]
    print("power", np.mean(hits))
    """)


# --- selection_on_outcome -------------------------------------------------------------------
def test_withdrawn_patients_removed_by_query_before_the_comparison() -> None:
    assert "selection_on_outcome.exits_removed" in rules("""
    done = trial.query("status == 'completed'")
    print(done.groupby("arm").pain.mean())
    print(stats.ttest_ind(done.pain[done.arm == "drug"], done.pain[done.arm == "placebo"]))
    """)


def test_boolean_completion_flag_mask_before_a_mean() -> None:
    assert "selection_on_outcome.exits_removed" in rules("""
    kept = trial[trial["completed"]]
    print(kept.groupby("arm")["pain"].agg(["mean", "count"]))
    """)


def test_intention_to_treat_twin_is_quiet() -> None:
    found = rules("""
    itt = trial.assign(pain=trial.pain.where(trial.status == "completed", trial.pain.max()))
    print(itt.groupby("arm").pain.mean())
    """)
    assert not {r for r in found if r.startswith("selection_on_outcome")}


def test_outcome_truncation_then_test_of_that_outcome() -> None:
    assert "selection_on_outcome.filtered_on_outcome" in rules("""
    high = trial[trial.pain > 4]
    print(stats.ttest_ind(high.pain[high.arm == "drug"], high.pain[high.arm == "placebo"]))
    """)


def test_baseline_eligibility_filter_twin_is_quiet() -> None:
    found = rules("""
    trial["age"] = rng.integers(12, 80, len(trial))
    adults = trial[trial.age >= 18]
    print(stats.ttest_ind(adults.pain[adults.arm == "drug"], adults.pain[adults.arm == "placebo"]))
    """)
    assert not {r for r in found if r.startswith("selection_on_outcome")}


# --- after the first looks of holdout39-42: general fixes, each in another idiom ------------
SURV = """
import statsmodels.formula.api as smf
cohort = pd.DataFrame({"older": rng.random(300) < .4, "smoker": rng.integers(0, 2, 300),
                       "died": rng.integers(0, 2, 300), "months": rng.exponential(20, 300),
                       "dose": rng.normal(10, 2, 300)})
"""


def trace_rules(code: str) -> dict[str, str]:
    ev = run_and_gather(code, SETUP + SURV)
    return {f.rule_id: f.severity.value for f in CRITIC.review(ev).findings}


def test_conditioning_on_an_event_indicator_with_numpy_arrays() -> None:
    found = trace_rules("""
    dead = cohort.loc[cohort["died"].astype(bool)]
    a = dead.loc[dead.older, "months"].to_numpy()
    b = dead.loc[~dead.older, "months"].to_numpy()
    print(stats.mannwhitneyu(a, b))
    """)
    assert "selection_on_outcome.exits_removed" in found


def test_a_baseline_binary_subgroup_is_not_an_event() -> None:
    found = trace_rules("""
    smokers = cohort[cohort.smoker == 1]
    print(stats.mannwhitneyu(smokers.months[smokers.older], smokers.months[~smokers.older]))
    """)
    assert "selection_on_outcome.exits_removed" not in found


def test_outcome_truncated_then_modelled_through_a_transform_in_a_formula() -> None:
    found = trace_rules("""
    short = cohort.query("months < 30")
    fit = smf.ols("np.log(months) ~ dose + older", data=short).fit()
    print(fit.params.round(3))
    """)
    assert "selection_on_outcome.filtered_on_outcome" in found


def test_a_filter_on_a_predictor_before_the_same_formula_is_quiet() -> None:
    found = trace_rules("""
    typical = cohort.query("dose < 14")
    fit = smf.ols("np.log(months) ~ dose + older", data=typical).fit()
    print(fit.params.round(3))
    """)
    assert "selection_on_outcome.filtered_on_outcome" not in found


def test_a_ranked_family_that_claims_nothing_is_only_a_note() -> None:
    code = """
    shifted = cohort.assign(dose=cohort.dose + 3 * cohort.smoker)
    groups = [g for _, g in shifted.groupby("smoker")]
    table = pd.DataFrame({c: {"p": stats.kruskal(*[g[c] for g in groups]).pvalue,
                              "spread": shifted[c].std()}
                          for c in ["months", "dose", "died", "older", "smoker"]}).T
    print(table.sort_values("p").round(4))
    """
    assert trace_rules(code)["multiple_comparisons.tests_ran_uncorrected"] == "medium"
    claimed = code.replace('print(table.sort_values("p").round(4))',
                           'print(table[table.p < 0.05])')
    assert trace_rules(claimed)["multiple_comparisons.tests_ran_uncorrected"] == "critical"


# --- leakage.target_aggregate_as_feature (column lineage) -----------------------------------
SHOPS = """
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split, cross_val_score
orders = pd.DataFrame({"store": rng.integers(0, 40, 2000), "basket": rng.normal(50, 15, 2000)})
orders["returned"] = (rng.random(2000) < 0.1 + 0.2 * (orders.store % 5 == 0)).astype(int)
"""


def lineage_rules(code: str) -> set[str]:
    return {f.rule_id for f in CRITIC.review(run_and_gather(code, SETUP + SHOPS)).findings}


def test_group_transform_of_the_target_as_a_feature_in_cross_validation() -> None:
    assert "leakage.target_aggregate_as_feature" in lineage_rules("""
    orders["store_rate"] = orders.groupby("store")["returned"].transform("mean")
    X = orders[["basket", "store_rate"]]
    print(cross_val_score(LogisticRegression(), X, orders["returned"], cv=5).mean())
    """)


def test_target_mean_mapped_and_assigned_then_a_formula_fit_on_a_sample() -> None:
    assert "leakage.target_aggregate_as_feature" in lineage_rules("""
    import statsmodels.formula.api as smf
    rates = orders.groupby("store").returned.mean()
    enriched = orders.assign(store_rate=orders.store.map(rates))
    train = enriched.sample(frac=0.7, random_state=0)
    fit = smf.logit("returned ~ basket + store_rate", data=train).fit(disp=0)
    print(fit.prsquared)
    """)


def test_encoding_learned_on_training_rows_and_mapped_onto_test_is_quiet() -> None:
    found = lineage_rules("""
    train, test = train_test_split(orders, test_size=0.3, random_state=0)
    rates = train.groupby("store")["returned"].mean()
    train = train.copy(); test = test.copy()
    train["store_rate"] = train.store.map(rates)
    test["store_rate"] = test.store.map(rates).fillna(train.returned.mean())
    model = LogisticRegression().fit(train[["basket", "store_rate"]], train["returned"])
    print(model.score(test[["basket", "store_rate"]], test["returned"]))
    """)
    assert "leakage.target_aggregate_as_feature" not in found


def test_group_aggregate_of_another_column_is_quiet() -> None:
    found = lineage_rules("""
    orders["store_basket"] = orders.groupby("store")["basket"].transform("mean")
    print(cross_val_score(LogisticRegression(), orders[["basket", "store_basket"]],
                          orders["returned"], cv=5).mean())
    """)
    assert "leakage.target_aggregate_as_feature" not in found


# --- circular_validation.scored_on_training_rows / unseeded_randomness.draws_ran_unseeded ----
def test_forest_scored_by_a_metric_on_its_own_training_rows() -> None:
    assert "circular_validation.scored_on_training_rows" in rules("""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.metrics import roc_auc_score
    forest = RandomForestClassifier(n_estimators=50, random_state=0).fit(X, y)
    print("AUC", roc_auc_score(y, forest.predict(X)))
    """)


def test_training_score_beside_a_held_out_score_is_quiet() -> None:
    found = rules("""
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.model_selection import train_test_split
    a, b, c, d = train_test_split(X, y, random_state=0)
    gb = GradientBoostingClassifier(random_state=0).fit(a, c)
    print("train", gb.score(a, c), "test", gb.score(b, d))
    """)
    assert "circular_validation.scored_on_training_rows" not in found


def test_explanatory_linear_fit_in_sample_is_quiet() -> None:
    found = rules("""
    from sklearn.linear_model import LinearRegression
    lr = LinearRegression().fit(X[:, 1:], X[:, 0])
    print("R2", lr.score(X[:, 1:], X[:, 0]))
    """)
    assert "circular_validation.scored_on_training_rows" not in found


def test_global_numpy_draws_inside_apply_unseeded() -> None:
    found = rules("""
    sims = pd.DataFrame({"mu": [5.0, 8.0, 3.0]})
    sims["p95"] = sims.mu.apply(lambda m: np.percentile(np.random.poisson(m, 500), 95))
    print(sims)
    """)
    assert "unseeded_randomness.draws_ran_unseeded" in found


def test_seeded_twin_and_unseeded_forest_in_another_idiom() -> None:
    seeded = rules("""
    np.random.seed(5)
    print(np.percentile(np.random.poisson(4.0, 500), 95))
    """)
    assert "unseeded_randomness.draws_ran_unseeded" not in seeded
    forest = rules("""
    from sklearn.ensemble import ExtraTreesClassifier
    print(ExtraTreesClassifier(n_estimators=30).fit(X, y).feature_importances_.round(3))
    """)
    assert "unseeded_randomness.draws_ran_unseeded" in forest


def test_draws_a_library_makes_on_import_are_not_the_cells(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "noisy_lib.py").write_text(
        "import numpy as np\nJITTER = np.random.rand(3)\nRNG = np.random.default_rng()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = rules("""
    import noisy_lib
    print(round(float(X[:, 0].mean()), 4))
    """)
    assert "unseeded_randomness.draws_ran_unseeded" not in found


def test_rows_split_into_groups_that_are_both_compared_are_no_selection() -> None:
    found = rules("""
    done = trial[trial.status == "completed"]
    gone = trial[trial.status != "completed"]
    print(done.pain.mean(), gone.pain.mean(), stats.ttest_ind(done.pain, gone.pain).pvalue)
    """)
    assert not {r for r in found if r.startswith("selection_on_outcome")}


def test_a_join_indicator_is_not_an_exit() -> None:
    found = rules("""
    sites = pd.DataFrame({"arm": ["drug"], "site": ["A"]})
    joined = trial.merge(sites, on="arm", how="left", indicator=True)
    matched = joined[joined["_merge"] == "both"]
    print(matched.pain.mean())
    """)
    assert not {r for r in found if r.startswith("selection_on_outcome")}


# --- row lineage through column selections ----------------------------------------------------
def test_selector_choice_applied_by_hand_with_loc_then_cross_validation() -> None:
    """The selector's transform never runs: its mask picks the columns by `.loc`."""
    assert "leakage.fit_saw_heldout_rows" in rules("""
    from sklearn.feature_selection import SelectKBest, f_classif
    from sklearn.model_selection import cross_val_score
    from sklearn.linear_model import LogisticRegression
    frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(6)])
    sel = SelectKBest(f_classif, k=2).fit(frame, y)
    chosen = frame.loc[:, sel.get_support()]
    print(cross_val_score(LogisticRegression(), chosen, y, cv=5).mean())
    """)


def test_selector_fit_on_training_rows_then_columns_picked_is_quiet() -> None:
    found = rules("""
    from sklearn.feature_selection import SelectKBest, f_classif
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(6)])
    tr, te, ytr, yte = train_test_split(frame, y, random_state=3)
    keep = tr.columns[SelectKBest(f_classif, k=2).fit(tr, ytr).get_support()]
    model = LogisticRegression().fit(tr[keep], ytr)
    print(model.score(te[keep], yte))
    """)
    assert "leakage.fit_saw_heldout_rows" not in found


# --- leakage.copies_across_split ---------------------------------------------------------------
def test_minority_upsampled_with_pandas_sample_then_split() -> None:
    assert "leakage.copies_across_split" in rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.ensemble import RandomForestClassifier
    frame = pd.DataFrame(X, columns=list("abcdef")).assign(label=y)
    pos = frame[frame.label == 1]
    up = pd.concat([frame, pos.sample(frac=1.5, replace=True, random_state=2)])
    a, b, c, d = train_test_split(up.drop(columns="label"), up.label, random_state=2)
    print(RandomForestClassifier(random_state=0).fit(a, c).score(b, d))
    """)


def test_sklearn_resample_of_arrays_then_cross_validation() -> None:
    assert "leakage.copies_across_split" in rules("""
    from sklearn.utils import resample
    from sklearn.model_selection import cross_val_score
    from sklearn.tree import DecisionTreeClassifier
    Xb, yb = resample(X, y, n_samples=480, random_state=4)
    print(cross_val_score(DecisionTreeClassifier(random_state=0), Xb, yb, cv=5).mean())
    """)


def test_upsampling_only_the_training_part_is_quiet() -> None:
    found = rules("""
    from sklearn.utils import resample
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier
    a, b, c, d = train_test_split(X, y, random_state=5)
    a_up, c_up = resample(a, c, n_samples=2 * len(a), random_state=5)
    print(DecisionTreeClassifier(random_state=0).fit(a_up, c_up).score(b, d))
    """)
    assert "leakage.copies_across_split" not in found


# --- circular_validation.chosen_on_heldout_rows ------------------------------------------------
def test_depth_picked_by_test_accuracy_in_a_loop() -> None:
    assert "circular_validation.chosen_on_heldout_rows" in rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier
    a, b, c, d = train_test_split(X, y, random_state=6)
    scores = {k: DecisionTreeClassifier(max_depth=k, random_state=0).fit(a, c).score(b, d)
              for k in range(1, 9)}
    best = max(scores, key=scores.get)
    print(best, scores[best])
    """)


def test_threshold_swept_on_test_probabilities_with_a_metric() -> None:
    assert "circular_validation.chosen_on_heldout_rows" in rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import f1_score
    a, b, c, d = train_test_split(X, y, random_state=7)
    p = LogisticRegression().fit(a, c).predict_proba(b)[:, 1]
    f1s = [f1_score(d, (p > t).astype(int)) for t in np.linspace(0.1, 0.9, 17)]
    print("best threshold", np.linspace(0.1, 0.9, 17)[int(np.argmax(f1s))], max(f1s))
    """)


def test_depth_picked_on_validation_then_tested_once_is_quiet() -> None:
    found = rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier
    a, b, c, d = train_test_split(X, y, random_state=6)
    a2, v, c2, vy = train_test_split(a, c, random_state=6)
    val = {k: DecisionTreeClassifier(max_depth=k, random_state=0).fit(a2, c2).score(v, vy)
           for k in range(1, 9)}
    best = max(val, key=val.get)
    print(best, DecisionTreeClassifier(max_depth=best, random_state=0).fit(a, c).score(b, d))
    """)
    assert "circular_validation.chosen_on_heldout_rows" not in found


def test_several_metrics_of_one_model_are_no_candidates() -> None:
    found = rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    from sklearn import metrics
    a, b, c, d = train_test_split(X, y, random_state=8)
    pred = LogisticRegression().fit(a, c).predict(b)
    for name in ("accuracy_score", "precision_score", "recall_score", "f1_score"):
        print(name, getattr(metrics, name)(d, pred))
    """)
    assert "circular_validation.chosen_on_heldout_rows" not in found


# --- statistics computed by hand, Pipeline methods, selectors ------------------------------------
def test_standardised_by_hand_with_pandas_before_the_split() -> None:
    """`(X - X.mean()) / X.std()` over every row is a scaler fit on the test rows."""
    assert "leakage.fit_saw_heldout_rows" in rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    frame = pd.DataFrame(X, columns=list("abcdef"))
    frame = frame.fillna(frame.median())
    z = (frame - frame.mean()) / frame.std()
    a, b, c, d = train_test_split(z, y, random_state=9)
    print(LogisticRegression().fit(a, c).score(b, d))
    """)


def test_standardised_by_hand_with_training_statistics_is_quiet() -> None:
    found = rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    frame = pd.DataFrame(X, columns=list("abcdef"))
    a, b, c, d = train_test_split(frame, y, random_state=9)
    mu, sd = a.mean(), a.std()
    print(LogisticRegression().fit((a - mu) / sd, c).score((b - mu) / sd, d))
    """)
    assert "leakage.fit_saw_heldout_rows" not in found


def test_pipelines_compared_on_the_test_rows_by_their_score_method() -> None:
    """`Pipeline.score` is behind sklearn's `available_if`: the trace still sees it."""
    assert "circular_validation.chosen_on_heldout_rows" in rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    a, b, c, d = train_test_split(X, y, random_state=10)
    acc = {C: make_pipeline(StandardScaler(), SVC(C=C)).fit(a, c).score(b, d)
           for C in (0.01, 0.1, 1, 10, 100)}
    print("best C", max(acc, key=acc.get), max(acc.values()))
    """)


def test_label_column_read_afresh_for_each_threshold_is_one_set_of_rows() -> None:
    assert "circular_validation.chosen_on_heldout_rows" in rules("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import f1_score
    t = pd.DataFrame(X, columns=list("abcdef")).assign(label=y)
    tr, te = t.iloc[:160], t.iloc[160:]
    p = LogisticRegression().fit(tr[list("abcdef")], tr["label"]).predict_proba(
        te[list("abcdef")])[:, 1]
    f1 = {q: f1_score(te["label"], p >= q) for q in np.arange(0.1, 0.9, 0.05)}
    print("best cut-off", max(f1, key=f1.get))
    """)


def test_recursive_elimination_on_all_rows_then_cross_validation() -> None:
    """RFE predicts too, yet it selects features: fit with the labels of every fold."""
    assert "leakage.fit_saw_heldout_rows" in rules("""
    from sklearn.feature_selection import RFE
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    frame = pd.DataFrame(X, columns=list("abcdef"))
    keep = frame.columns[RFE(LogisticRegression(), n_features_to_select=2).fit(frame, y).support_]
    print(cross_val_score(LogisticRegression(), frame[keep], y, cv=5).mean())
    """)


def test_threshold_read_off_a_precision_recall_curve_of_the_test_rows() -> None:
    assert "circular_validation.chosen_on_heldout_rows" in rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import precision_recall_curve
    a, b, c, d = train_test_split(X, y, random_state=12)
    p = LogisticRegression().fit(a, c).predict_proba(b)[:, 1]
    prec, rec, thr = precision_recall_curve(d, p)
    f1 = 2 * prec * rec / (prec + rec + 1e-12)
    print("operating point", thr[np.argmax(f1[:-1])], "F1", f1.max())
    """)


def test_threshold_from_a_validation_curve_then_one_test_score_is_quiet() -> None:
    found = rules("""
    from sklearn.model_selection import train_test_split
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import precision_recall_curve, f1_score
    a, b, c, d = train_test_split(X, y, random_state=12)
    a2, v, c2, vy = train_test_split(a, c, random_state=12)
    m = LogisticRegression().fit(a2, c2)
    prec, rec, thr = precision_recall_curve(vy, m.predict_proba(v)[:, 1])
    best = thr[np.argmax((2 * prec * rec / (prec + rec + 1e-12))[:-1])]
    print("test F1 at the validation cut-off", f1_score(d, m.predict_proba(b)[:, 1] >= best))
    """)
    assert "circular_validation.chosen_on_heldout_rows" not in found


def test_components_picked_by_a_hand_computed_test_error() -> None:
    """No metric call: the errors are numpy arithmetic, the predictions are traced."""
    assert "circular_validation.chosen_on_heldout_rows" in rules("""
    from sklearn.cross_decomposition import PLSRegression
    yc = X[:, 0] * 2 + X[:, 1]
    tr, te = slice(0, 180), slice(180, None)
    rmse = {}
    for k in range(1, 6):
        pred = PLSRegression(n_components=k).fit(X[tr], yc[tr]).predict(X[te]).ravel()
        rmse[k] = float(np.sqrt(np.mean((yc[te] - pred) ** 2)))
    best = min(rmse, key=rmse.get)
    print(f"best k = {best}, test RMSE {rmse[best]:.3f}")
    """)


# --- chosen_on_heldout_rows: what is not a choice on the reported rows ---------------------------
CHOSEN = "circular_validation.chosen_on_heldout_rows"
SPLIT = """
from sklearn.model_selection import train_test_split, cross_val_score
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression, Ridge
a, b, c, d = train_test_split(X, y, random_state=13)
"""


@pytest.mark.parametrize("code", [
    # chosen on a validation split of the training part; no test score in the cell
    """
    a2, v, c2, vy = train_test_split(a, c, random_state=1)
    s = [LogisticRegression(C=k).fit(a2, c2).score(v, vy) for k in (0.1, 1, 10)]
    print("best C", (0.1, 1, 10)[int(np.argmax(s))])
    """,
    # a learning curve: more training rows each time, nothing picked
    """
    curve = [LogisticRegression().fit(a[:n], c[:n]).score(b, d) for n in (40, 80, 120, 180)]
    print("best", max(curve), "with all rows")
    """,
    # a spread over seeds: min and max together are a range, not a choice
    """
    accs = [RandomForestClassifier(n_estimators=10, random_state=s).fit(a, c).score(b, d)
            for s in range(5)]
    print(f"test accuracy over seeds {min(accs):.3f} to {max(accs):.3f}")
    """,
    # each candidate judged by cross-validation; the test score shown beside it
    """
    rows = [{"C": k, "cv": cross_val_score(LogisticRegression(C=k), a, c, cv=5).mean(),
             "test": LogisticRegression(C=k).fit(a, c).score(b, d)} for k in (0.1, 1, 10)]
    print(max(rows, key=lambda r: r["cv"]))
    """,
    # errors by hand on a validation split, the winner refit and tested once
    """
    a2, v, c2, vy = train_test_split(a, c.astype(float), random_state=1)
    err = {k: np.mean((vy - Ridge(alpha=k).fit(a2, c2).predict(v)) ** 2) for k in (0.1, 1, 10)}
    best = min(err, key=err.get)
    print(best, np.mean((d - Ridge(alpha=best).fit(a, c).predict(b)) ** 2))
    """,
])
def test_not_a_choice_on_the_reported_rows(code: str) -> None:
    assert CHOSEN not in rules(SPLIT + textwrap.dedent(code))


def test_selector_fit_only_to_show_the_markers_beside_a_pipeline_is_quiet() -> None:
    """The cross-validation gets every column; its pipeline selects inside each fold."""
    found = rules("""
    from sklearn.feature_selection import SelectKBest, f_classif
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    frame = pd.DataFrame(X, columns=list("abcdef"))
    shown = frame.columns[SelectKBest(f_classif, k=2).fit(frame, y).get_support()]
    print("markers", list(shown))
    model = make_pipeline(SelectKBest(f_classif, k=2), LogisticRegression())
    print(cross_val_score(model, frame, y, cv=5).mean())
    """)
    assert "leakage.fit_saw_heldout_rows" not in found


def test_standardised_in_place_over_every_row_then_sliced_by_position() -> None:
    """`df[cols] = (cols - cols.mean()) / cols.std()`, then `iloc` slices: the frame holds the
    step's output, and its test slice carries those values."""
    assert "leakage.fit_saw_heldout_rows" in rules("""
    from sklearn.linear_model import LogisticRegression
    frame = pd.DataFrame(X, columns=list("abcdef")).assign(label=y)
    cols = frame[list("abcdef")]
    frame[list("abcdef")] = (cols - cols.mean()) / cols.std()
    train, test = frame.iloc[:180], frame.iloc[180:]
    m = LogisticRegression().fit(train[list("abcdef")], train.label)
    print(m.score(test[list("abcdef")], test.label))
    """)


def test_standardised_in_place_with_training_statistics_is_quiet() -> None:
    found = rules("""
    from sklearn.linear_model import LogisticRegression
    frame = pd.DataFrame(X, columns=list("abcdef")).assign(label=y)
    train, test = frame.iloc[:180].copy(), frame.iloc[180:].copy()
    mu, sd = train[list("abcdef")].mean(), train[list("abcdef")].std()
    for part in (train, test):
        part[list("abcdef")] = (part[list("abcdef")] - mu) / sd
    m = LogisticRegression().fit(train[list("abcdef")], train.label)
    print(m.score(test[list("abcdef")], test.label))
    """)
    assert "leakage.fit_saw_heldout_rows" not in found


# --- circular_validation.fit_on_test_rows ------------------------------------------------------
def test_search_fit_on_the_test_part_of_the_split() -> None:
    assert "circular_validation.fit_on_test_rows" in rules("""
    from sklearn.model_selection import GridSearchCV, train_test_split
    from sklearn.linear_model import LogisticRegression
    a, b, c, d = train_test_split(X, y, random_state=14)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1, 10]}, cv=3).fit(b, d)
    print(search.best_params_, search.best_score_)
    """)


def test_refit_on_all_rows_after_testing_is_quiet() -> None:
    found = rules("""
    from sklearn.model_selection import GridSearchCV, train_test_split
    from sklearn.linear_model import LogisticRegression
    a, b, c, d = train_test_split(X, y, random_state=14)
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1, 10]}, cv=3).fit(a, c)
    print("test", search.score(b, d))
    final = LogisticRegression(**search.best_params_).fit(X, y)  # deployed on all rows
    """)
    assert "circular_validation.fit_on_test_rows" not in found


def test_equal_labels_on_other_rows_are_other_data() -> None:
    # two studies' outcome columns hold the same values in the same order: other rows all the
    # same, so scoring one is not scoring the other (a label column read twice stays one datum)
    ev = run_and_gather(textwrap.dedent("""
    from sklearn.metrics import roc_auc_score
    a, b = df.iloc[:40], df.iloc[40:80].copy()
    b["y"] = a["y"].to_numpy()
    print(roc_auc_score(a["y"], a["x"]), roc_auc_score(a["y"], a["z"]))
    print(roc_auc_score(b["y"], b["x"]))
    """), LABELS)
    metrics = ev.trace.of("metric")
    assert metrics[0]["y"] == metrics[1]["y"] != metrics[2]["y"]


LABELS = """
import numpy as np, pandas as pd
rng = np.random.default_rng(2)
df = pd.DataFrame({"x": rng.normal(size=80), "z": rng.normal(size=80),
                   "y": np.tile([0, 1], 40)})
"""
