"""circular_validation: models, hyperparameters, thresholds or stopping epochs chosen by their
test-set score, and models scored on the rows they were fit on. Flawed cells are checked
against the whole critic (`flagged`: some circular_validation finding, medium or worse); sound
twins against this family's trace rules (selection by CV / a validation split, then one test
evaluation). The trace rules' own cases are in tests/test_rules_trace.py."""

from __future__ import annotations

import pytest

from critics import AnalysisCritic
from critics.findings import Finding
from critics.rules import circular_validation as C
from tests import rule_helpers as H
from tests.inprocess_evidence import run_and_gather
from tests.rule_helpers import quiet, silent

CRITIC = AnalysisCritic()
RULES = C.RULES

CANCER = """
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (GridSearchCV, RandomizedSearchCV, cross_val_score,
                                     train_test_split)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, f1_score, precision_recall_curve, roc_curve
X, y = load_breast_cancer(return_X_y=True)
X = X[:300, :8]
y = y[:300]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0,
                                                    stratify=y)
"""


def run(code: str, setup: str = CANCER) -> list[Finding]:
    return H.run(RULES, code, setup)


def flagged(code: str, setup: str = CANCER) -> None:
    """The whole critic (trace rules and all) finds a circular_validation issue, medium or worse."""
    found = CRITIC.review(run_and_gather(code, setup)).findings
    assert any(f.rule_id.startswith("circular_validation.") and f.severity >= "medium"
               for f in found), H.describe(found)


def code_only(code: str) -> list[Finding]:
    return H.code_only(RULES, code)


# -- selection on the test set: flawed ---------------------------------------------------------

def test_best_so_far_loop_over_depths():
    flagged("""
        best_depth, best_acc = None, 0.0
        for depth in range(1, 12):
            tree = DecisionTreeClassifier(max_depth=depth, random_state=0)
            tree.fit(X_train, y_train)
            acc = accuracy_score(y_test, tree.predict(X_test))
            if acc > best_acc:
                best_depth, best_acc = depth, acc
        print(f"best depth {best_depth}: test accuracy {best_acc:.3f}")
    """)


def test_scores_list_then_argmax_over_k():
    flagged("""
        ks = [1, 3, 5, 7, 9, 15]
        scores = []
        for k in ks:
            knn = KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train)
            scores.append(knn.score(X_test, y_test))
        best_k = ks[int(np.argmax(scores))]
        print("best k", best_k, "accuracy", max(scores))
    """)


def test_comprehension_over_C_with_max_of_zip():
    flagged("""
        Cs = [0.01, 0.1, 1, 10]
        results = [(LogisticRegression(C=c, max_iter=2000).fit(X_train, y_train)
                    .score(X_test, y_test), c) for c in Cs]
        best_score, best_C = max(results)
        print(best_C, round(best_score, 3))
    """)


def test_dict_of_models_and_best_by_test_accuracy():
    flagged("""
        models = {"lr": LogisticRegression(max_iter=2000),
                  "rf": RandomForestClassifier(n_estimators=30, random_state=0),
                  "knn": KNeighborsClassifier()}
        test_acc = {}
        for name, model in models.items():
            model.fit(X_train, y_train)
            test_acc[name] = accuracy_score(y_test, model.predict(X_test))
        winner = max(test_acc, key=test_acc.get)
        print(winner, test_acc[winner])
    """)


def test_helper_function_scored_on_test_inside_loop():
    flagged("""
        def evaluate(model):
            model.fit(X_train, y_train)
            return model.score(X_test, y_test)

        scores = {d: evaluate(DecisionTreeClassifier(max_depth=d, random_state=0))
                  for d in range(2, 8)}
        best = max(scores, key=scores.get)
        print(best, scores[best])
    """)


def test_threshold_from_precision_recall_curve_on_test():
    flagged("""
        clf = LogisticRegression(max_iter=2000).fit(X_train, y_train)
        proba = clf.predict_proba(X_test)[:, 1]
        prec, rec, thr = precision_recall_curve(y_test, proba)
        f1 = 2 * prec * rec / (prec + rec + 1e-12)
        best_thr = thr[np.argmax(f1[:-1])]
        print("threshold", best_thr, "test F1", f1_score(y_test, proba >= best_thr))
    """)


def test_youden_threshold_from_roc_on_test():
    flagged("""
        clf = LogisticRegression(max_iter=2000).fit(X_train, y_train)
        fpr, tpr, thr = roc_curve(y_test, clf.predict_proba(X_test)[:, 1])
        cut = thr[np.argmax(tpr - fpr)]
        print(cut)
    """)


def test_best_seed_on_test_is_selection():
    flagged("""
        accs = [RandomForestClassifier(n_estimators=20, random_state=s).fit(X_train, y_train)
                .score(X_test, y_test) for s in range(5)]
        print("accuracy", max(accs))
    """)


def test_manual_split_names_are_recognised():
    flagged("""
        n = 200
        Xtr, Xte, ytr, yte = X[:n], X[n:], y[:n], y[n:]
        best = max(range(1, 10), key=lambda k: KNeighborsClassifier(k).fit(Xtr, ytr)
                   .score(Xte, yte))
        print(best)
    """)


# -- selection: sound twins --------------------------------------------------------------------

def test_selection_by_cross_validation_then_one_test_score():
    silent(run("""
        cv = {d: cross_val_score(DecisionTreeClassifier(max_depth=d, random_state=0),
                                 X_train, y_train, cv=5).mean() for d in range(1, 8)}
        best = max(cv, key=cv.get)
        final = DecisionTreeClassifier(max_depth=best, random_state=0).fit(X_train, y_train)
        print(best, final.score(X_test, y_test))
    """))


def test_selection_on_a_validation_split_then_test():
    silent(run("""
        X_tr, X_val, y_tr, y_val = train_test_split(X_train, y_train, test_size=0.25,
                                                    random_state=0)
        best_k, best = None, -1
        for k in [1, 3, 5, 9]:
            s = KNeighborsClassifier(k).fit(X_tr, y_tr).score(X_val, y_val)
            if s > best:
                best_k, best = k, s
        final = KNeighborsClassifier(best_k).fit(X_train, y_train)
        print(best_k, final.score(X_test, y_test))
    """))


def test_bootstrap_interval_of_a_single_test_score_is_quiet():
    silent(run("""
        clf = LogisticRegression(max_iter=2000).fit(X_train, y_train)
        pred = clf.predict(X_test)
        rng = np.random.default_rng(0)
        boot = []
        for _ in range(200):
            idx = rng.integers(0, len(y_test), len(y_test))
            boot.append(accuracy_score(y_test[idx], pred[idx]))
        lo, hi = np.percentile(boot, [2.5, 97.5])
        print(accuracy_score(y_test, pred), lo, hi)
    """))


def test_threshold_tuned_on_out_of_fold_predictions_is_quiet():
    silent(run("""
        from sklearn.model_selection import cross_val_predict
        clf = LogisticRegression(max_iter=2000)
        oof = cross_val_predict(clf, X_train, y_train, cv=5, method="predict_proba")[:, 1]
        grid = np.linspace(0.1, 0.9, 17)
        t = grid[np.argmax([f1_score(y_train, oof >= g) for g in grid])]
        clf.fit(X_train, y_train)
        print(t, f1_score(y_test, clf.predict_proba(X_test)[:, 1] >= t))
    """))


def test_cv_folds_selection_is_not_test_selection():
    silent(run("""
        from sklearn.model_selection import StratifiedKFold
        fold_scores = []
        for tr, te in StratifiedKFold(5).split(X_train, y_train):
            m = LogisticRegression(max_iter=2000).fit(X_train[tr], y_train[tr])
            fold_scores.append(m.score(X_train[te], y_train[te]))
        print(max(fold_scores), np.mean(fold_scores))
    """))


def test_results_table_ranked_by_cv_column_is_quiet():
    silent(run("""
        rows = []
        for name, m in {"lr": LogisticRegression(max_iter=2000),
                        "tree": DecisionTreeClassifier(random_state=0)}.items():
            cv = cross_val_score(m, X_train, y_train, cv=5).mean()
            rows.append({"model": name, "cv_acc": cv,
                         "test_acc": m.fit(X_train, y_train).score(X_test, y_test)})
        table = pd.DataFrame(rows).sort_values("cv_acc", ascending=False)
        print(table)
        print(table.loc[table["cv_acc"].idxmax(), "model"])
    """))


# -- search fitted on the test set ------------------------------------------------------------


def test_gridsearch_on_train_is_quiet():
    silent(run("""
        grid = GridSearchCV(LogisticRegression(max_iter=2000), {"C": [0.1, 1, 10]}, cv=3)
        grid.fit(X_train, y_train)
        print(grid.best_params_, grid.score(X_test, y_test))
    """))


# -- hand-rolled test error used to pick a model -----------------------------------------------

def test_hand_rolled_test_accuracy_picks_k():
    flagged("""
        acc = {}
        for k in (1, 3, 5, 9, 15):
            pred = KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train).predict(X_test)
            acc[k] = (pred == y_test).mean()
        best_k = max(acc, key=acc.get)
        print(best_k, acc[best_k])
    """)


def test_hand_rolled_test_mse_ranked_in_frame():
    flagged("""
        rows = []
        for a in (0.01, 0.1, 1.0, 10.0):
            p = Ridge(alpha=a).fit(X_train, y_train).predict(X_test)
            rows.append({"alpha": a, "mse": np.mean((y_test - p) ** 2)})
        table = pd.DataFrame(rows).sort_values("mse")
        print(table.head(1))
    """)


def test_single_hand_rolled_test_error_is_quiet():
    quiet(run("""
        p = Ridge(alpha=1.0).fit(X_train, y_train).predict(X_test)
        print(np.mean(np.abs(y_test - p)))
    """))


# -- a spread summary of candidates' test scores is not a selection --------------------------


def test_bare_maximum_of_test_scores_next_to_the_mean_is_still_a_selection():
    flagged("""
        accs = [KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train).score(X_test, y_test)
                for k in (3, 5, 7, 9)]
        print(f"best test accuracy {max(accs):.3f} (mean over k {np.mean(accs):.3f})")
    """)


def test_range_printed_but_the_maximum_locates_the_winner_is_a_selection():
    flagged("""
        seeds = list(range(6))
        accs = [RandomForestClassifier(n_estimators=15, random_state=s).fit(X_train, y_train)
                .score(X_test, y_test) for s in seeds]
        best = max(accs)
        print("range", min(accs), best)
        chosen_seed = seeds[accs.index(best)]
        print("shipping seed", chosen_seed, "accuracy", best)
    """)


def test_range_next_to_an_idxmax_pick_is_a_selection():
    flagged("""
        accs = pd.Series({k: KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train)
                          .score(X_test, y_test) for k in (1, 5, 9)})
        print("range", accs.min(), accs.max())
        print("chosen k", accs.idxmax(), "test accuracy", accs[accs.idxmax()])
    """)


# -- errors computed by hand through a helper or a residual name ------------------------------

SERIES = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
idx = pd.date_range("2022-01-01", periods=300, freq="D")
load = pd.Series(50 + np.cumsum(rng.normal(0, 1, 300)) + rng.normal(0, 3, 300), index=idx)
windows = [3, 7, 14, 28]
"""


def test_window_chosen_on_a_validation_period_then_scored_on_final_period_is_quiet():
    silent(run("""
        def residuals(s, w):
            fc = s.rolling(w).mean().shift(1)
            return s - fc

        val_idx, holdout_idx = load.index[-90:-45], load.index[-45:]
        err = {w: residuals(load, w).loc[val_idx].abs().mean() for w in windows}
        w_best = min(err, key=err.get)
        print(f"window {w_best}: MAE on the final 45 days "
              f"{residuals(load, w_best).loc[holdout_idx].abs().mean():.2f}")
    """, SERIES))


def test_alpha_picked_by_rmse_of_a_residual_name_on_test_is_flagged():
    flagged("""
        rmse = {}
        for a in (0.01, 0.1, 1.0, 10.0):
            resid = y_test - Ridge(alpha=a).fit(X_train, y_train).predict(X_test)
            rmse[a] = float(np.sqrt(np.mean(resid ** 2)))
        a_best = min(rmse, key=rmse.get)
        print("alpha", a_best, "test RMSE", rmse[a_best])
    """)


def test_metric_helper_function_scored_on_test_inside_a_search_is_flagged():
    flagged("""
        def balanced_error(truth, pred):
            return np.mean(truth != pred)

        errs = {d: balanced_error(y_test, DecisionTreeClassifier(max_depth=d, random_state=0)
                                  .fit(X_train, y_train).predict(X_test))
                for d in range(2, 8)}
        best = min(errs, key=errs.get)
        print(best, 1 - errs[best])
    """)


# -- one model's error broken down by subgroup of the test rows is not a selection --------------

def test_worst_subgroup_by_boolean_mask_is_quiet():
    silent(run("""
        pred = LogisticRegression(max_iter=2000).fit(X_train, y_train).predict(X_test)
        band = pd.qcut(X_test[:, 2], 3, labels=["low", "mid", "high"])
        err = {}
        for b in ["low", "mid", "high"]:
            m = band == b
            err[b] = (pred[m] != y_test[m]).mean()
        worst = max(err, key=err.get)
        print(f"weakest band {worst}: error {err[worst]:.3f}")
    """))


def test_hardest_group_from_a_groupby_comprehension_is_quiet():
    silent(run("""
        test = pd.DataFrame(X_test[:, :3], columns=["a", "b", "c"]).assign(y=y_test)
        test["pred"] = LogisticRegression(max_iter=2000).fit(X_train, y_train).predict(X_test)
        test["band"] = pd.qcut(test.a, 3, labels=False)
        acc = {g: (sub.pred == sub.y).mean() for g, sub in test.groupby("band")}
        print("hardest band", min(acc, key=acc.get))
    """))


def test_residual_breakdown_by_quantile_inline_mask_is_quiet():
    silent(run("""
        p = Ridge().fit(X_train, y_train).predict(X_test)
        resid = y_test - p
        q = pd.qcut(X_test[:, 1], 4, labels=False)
        by_q = {k: np.abs(resid[q == k]).mean() for k in range(4)}
        print("largest error in quartile", max(by_q, key=by_q.get))
    """))


def test_threshold_swept_on_test_probabilities_is_still_a_selection():
    flagged("""
        proba = LogisticRegression(max_iter=2000).fit(X_train, y_train).predict_proba(X_test)[:, 1]
        grid = np.linspace(0.1, 0.9, 17)
        f1s = [f1_score(y_test, proba >= t) for t in grid]
        print(grid[int(np.argmax(f1s))], max(f1s))
    """)


def test_arima_order_chosen_by_aic_then_scored_once_is_quiet():
    silent(run("""
        from statsmodels.tsa.arima.model import ARIMA
        from sklearn.metrics import mean_squared_error
        train, test = load.iloc[:-30], load.iloc[-30:]
        aic = {o: ARIMA(train, order=o).fit().aic for o in [(1, 0, 0), (2, 0, 0), (1, 1, 1)]}
        best = min(aic, key=aic.get)
        fc = ARIMA(train, order=best).fit().forecast(len(test))
        print(best, mean_squared_error(test, fc) ** 0.5)
    """, SERIES))


# -- a search's best CV score quoted as the expected performance --------------------------------


def test_best_score_next_to_a_test_evaluation_is_silent():
    silent(run("""
        grid = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [2, 3, 5]}, cv=5)
        grid.fit(X_train, y_train)
        print(f"CV accuracy {grid.best_score_:.3f}, expected accuracy on new data "
              f"(test) {accuracy_score(y_test, grid.predict(X_test)):.3f}")
    """))


def test_nested_cv_of_the_search_is_silent():
    silent(run("""
        grid = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [2, 3, 5]}, cv=3)
        outer = cross_val_score(grid, X, y, cv=5)
        grid.fit(X, y)
        print(f"chosen depth {grid.best_params_}; expected accuracy {outer.mean():.3f} "
              f"(inner best {grid.best_score_:.3f})")
    """))


# -- a second stage (calibrator, stacker) fitted on the test split and scored on it ----------


def test_calibrator_fitted_on_a_validation_split_is_quiet():
    quiet(run("""
        from sklearn.isotonic import IsotonicRegression
        from sklearn.metrics import brier_score_loss
        X_fit, X_cal, y_fit, y_cal = train_test_split(X_train, y_train, test_size=0.3,
                                                      random_state=1)
        forest = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_fit, y_fit)
        iso = IsotonicRegression(out_of_bounds="clip").fit(
            forest.predict_proba(X_cal)[:, 1], y_cal)
        p_test = iso.predict(forest.predict_proba(X_test)[:, 1])
        print("Brier on test:", brier_score_loss(y_test, p_test))
    """))


# -- coefficients solved on the test rows, then scored there (holdout4 round) ------------------


# a test mask taken in complement selects the training rows (holdout7 round)


# -- helpers that collect residuals in a list, called with an unpacked configuration -----------

LOAD = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(4)
t = np.arange(400)
load = pd.DataFrame({"t": t, "temp": rng.normal(15, 6, 400)})
load["mw"] = 50 + 0.8 * load.temp + 0.05 * load.temp ** 2 + rng.normal(0, 3, 400)
train, test = load.iloc[:-60], load.iloc[-60:]
"""

_RMSE_HELPER = """
def rmse(deg, lam, fit_on, score_on):
    errs = []
    for half in (0, 1):
        f = fit_on[fit_on.t % 2 == half]
        s = score_on[score_on.t % 2 == half]
        coef = np.polyfit(f.temp, f.mw, deg)
        errs.append(s.mw - np.polyval(coef, s.temp))
    return float(np.sqrt(np.mean(np.concatenate(errs) ** 2)))

grid = [(d, l) for d in range(1, 6) for l in (0.0, 0.1)]
"""


@pytest.mark.parametrize("code", [
    _RMSE_HELPER + """
fit_part, val_part = train.iloc[:-60], train.iloc[-60:]
res = {g: rmse(*g, fit_part, val_part) for g in grid}
best = min(res, key=res.get)
print(best, rmse(*best, train, test))
""",
    """
def mae(deg, fit_on, score_on):
    errors = []
    coef = np.polyfit(fit_on.temp, fit_on.mw, deg)
    errors.extend(np.abs(score_on.mw - np.polyval(coef, score_on.temp)))
    return np.mean(errors)

fit_part, val_part = train.iloc[:-60], train.iloc[-60:]
table = pd.Series({d: mae(d, fit_part, val_part) for d in range(1, 8)})
print(table.idxmin(), mae(int(table.idxmin()), train, test))
""",
])
def test_residual_lists_scored_on_validation_then_one_test_are_quiet(code: str):
    quiet(run(code, LOAD))


# -- a temporal hold-out (earlier rows fitted, later rows scored) used to pick a setting ---------

GRID_LOAD = """
import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeRegressor
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score
from sklearn.model_selection import GridSearchCV, TimeSeriesSplit, cross_val_score
rng = np.random.default_rng(5)
stamp = pd.date_range("2019-01-01", periods=1400, freq="D")
grid = pd.DataFrame({"stamp": stamp, "temp": rng.normal(12, 7, 1400),
                     "holiday": rng.integers(0, 2, 1400), "dow": stamp.day_of_week})
grid["load_mw"] = 900 - 9 * grid.temp + 40 * (grid.dow < 5) + rng.normal(0, 30, 1400)
cols = ["temp", "holiday", "dow"]
"""


def test_temporal_holdout_dict_of_errors_min_by_key_get():
    flagged("""
        early = grid[grid["stamp"] < "2022-01-01"]
        late = grid[grid["stamp"] >= "2022-01-01"]
        rmse = {}
        for alpha in (0.01, 0.1, 1.0, 10.0, 100.0):
            model = Ridge(alpha=alpha).fit(early[cols], early["load_mw"])
            rmse[alpha] = mean_squared_error(late["load_mw"], model.predict(late[cols])) ** 0.5
        best_alpha = min(rmse, key=rmse.get)
        print(f"alpha={best_alpha}: RMSE on 2022-23 {rmse[best_alpha]:.1f} MW")
    """, GRID_LOAD)


def test_temporal_holdout_max_by_lambda_then_refit_scored_on_same_rows():
    flagged("""
        fitted_on = grid[grid.stamp.dt.year <= 2021]
        year_22 = grid[grid.stamp.dt.year == 2022]
        r2 = {}
        for depth in range(2, 9):
            tree = DecisionTreeRegressor(max_depth=depth, random_state=0)
            tree.fit(fitted_on[cols], fitted_on.load_mw)
            r2[depth] = r2_score(year_22.load_mw, tree.predict(year_22[cols]))
        depth = max(r2, key=lambda d: r2[d])
        final = DecisionTreeRegressor(max_depth=depth, random_state=0).fit(
            fitted_on[cols], fitted_on.load_mw)
        print("R2 2022:", round(r2_score(year_22.load_mw, final.predict(year_22[cols])), 3))
    """, GRID_LOAD)


def test_temporal_holdout_helper_comprehension_sorted_first():
    flagged("""
        history = grid.loc[grid["stamp"] < pd.Timestamp("2022-06-01")]
        recent = grid.loc[grid["stamp"] >= pd.Timestamp("2022-06-01")]

        def mae_for(n_trees):
            gb = GradientBoostingRegressor(n_estimators=n_trees, random_state=0)
            gb.fit(history[cols], history["load_mw"])
            return mean_absolute_error(recent["load_mw"], gb.predict(recent[cols]))

        maes = {n: mae_for(n) for n in (20, 50, 100)}
        chosen = sorted(maes, key=maes.get)[0]
        print(chosen, "trees, MAE", round(maes[chosen], 1))
    """, GRID_LOAD)


# -- in-sample evaluation of a fitted model; best of many candidates scored on the same rows ---

HOUSES = """
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor, RandomForestClassifier
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsRegressor
from sklearn.metrics import r2_score, mean_absolute_error, accuracy_score, roc_auc_score
from sklearn.model_selection import cross_val_predict, KFold, train_test_split
rng = np.random.default_rng(0)
homes = pd.DataFrame({"area": rng.normal(120, 30, 400), "rooms": rng.integers(1, 6, 400),
                      "age": rng.uniform(0, 80, 400)})
homes["price"] = 2000 * homes.area - 300 * homes.age + rng.normal(0, 40000, 400)
feats = ["area", "rooms", "age"]
Xh, yh = homes[feats], homes["price"]
labels = (homes.price > homes.price.median()).astype(int).to_numpy()
markers = rng.normal(size=(400, 12))
markers[:, 3] += 0.4 * labels
"""


def test_boosting_scored_on_its_own_rows_and_quoted_for_new_homes_is_flagged():
    flagged("""
gbr = GradientBoostingRegressor(random_state=0).fit(Xh, yh)
gbr.fit(Xh, yh)
err = mean_absolute_error(yh, gbr.predict(Xh))
print(f"expected error on a new home: {err:,.0f}")
""", HOUSES)


def test_forest_score_method_on_fitted_frame_is_flagged_high():
    flagged("""
clf = RandomForestClassifier(n_estimators=50, random_state=0)
clf.fit(homes[feats], labels)
print("accuracy:", clf.score(homes[feats], labels))
""", HOUSES)


# hand-computed accuracy / error on the fitted rows (no metric call), reshaped predictions


def test_max_tracking_loop_over_markers_and_thresholds_is_flagged():
    flagged("""
top = {"acc": 0}
for k in range(markers.shape[1]):
    for t in np.quantile(markers[:, k], [0.2, 0.4, 0.6, 0.8]):
        acc = accuracy_score(labels, markers[:, k] > t)
        if acc > top["acc"]:
            top = {"marker": k, "t": t, "acc": acc}
print("best marker", top["marker"], "accuracy", round(top["acc"], 3))
""", HOUSES)


def test_best_auc_of_a_comprehension_is_flagged():
    flagged("""
aucs = {j: roc_auc_score(labels, markers[:, j]) for j in range(markers.shape[1])}
best = max(aucs, key=aucs.get)
print(f"marker {best}: AUC {aucs[best]:.2f}")
""", HOUSES)


def test_best_of_a_pandas_series_of_scores_is_flagged():
    flagged("""
res = []
for j in range(markers.shape[1]):
    res.append(roc_auc_score(labels, markers[:, j]))
ranked = pd.Series(res).sort_values(ascending=False)
print("best AUC", ranked.max())
""", HOUSES)


# -- a one-off decision on the test score is not a selection -----------------------------------
# A single model scored once and compared with a fixed bar (a launch / acceptance decision), or
# a model's test score compared with a baseline's only to print a verdict, picks no candidate.

APPRAISALS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
homes = pd.DataFrame({"sqft": rng.normal(1800, 400, 400), "age": rng.integers(1, 80, 400),
                      "rooms": rng.integers(2, 7, 400)})
homes["price"] = 120 * homes.sqft - 900 * homes.age + rng.normal(0, 30000, 400)
homes["listed"] = homes.price * rng.normal(1.0, 0.1, 400)
homes["sold_fast"] = (homes.price > homes.listed).astype(int)
"""


def test_dict_of_test_metrics_checked_against_fixed_bar_is_quiet():
    silent(run("""
        from sklearn.metrics import recall_score, precision_score
        SHIP_BAR = 0.80
        clf = LogisticRegression(max_iter=3000).fit(X_train, y_train)
        pred = clf.predict(X_test)
        summary = {"recall": recall_score(y_test, pred),
                   "precision": precision_score(y_test, pred)}
        print(summary)
        print("ship it" if summary["recall"] >= SHIP_BAR else "hold back")
    """))


def test_statsmodels_fit_vs_naive_baseline_verdict_is_quiet():
    silent(run("""
        import statsmodels.formula.api as smf
        train, test = homes.iloc[:300], homes.iloc[300:]
        ols = smf.ols("price ~ sqft + age + rooms", data=train).fit()
        mae_model = (ols.predict(test) - test["price"]).abs().mean()
        mae_naive = (train["price"].median() - test["price"]).abs().mean()
        print(f"model MAE {mae_model:,.0f}  naive MAE {mae_naive:,.0f}")
        if mae_model < mae_naive:
            print("the regression beats the naive median")
        else:
            print("no better than the median")
    """, APPRAISALS))


def test_numpy_rmse_against_constant_in_fstring_is_quiet():
    silent(run("""
        from sklearn.linear_model import LinearRegression
        X = homes[["sqft", "age", "rooms"]].to_numpy()
        y = homes["price"].to_numpy()
        X_tr, X_te, y_tr, y_te = X[:320], X[320:], y[:320], y[320:]
        lr = LinearRegression().fit(X_tr, y_tr)
        rmse = float(np.sqrt(np.mean((lr.predict(X_te) - y_te) ** 2)))
        r2 = lr.score(X_te, y_te)
        print(f"holdout RMSE {rmse:,.0f}, R2 {r2:.2f}: "
              f"{'within' if rmse < 35000 else 'outside'} the appraisal tolerance")
    """, APPRAISALS))


# -- hand-made random / time hold-outs with role-less names ------------------------------------

CROPS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.model_selection import cross_val_score
from sklearn.metrics import mean_absolute_error
rs = np.random.RandomState(9)
fields = pd.DataFrame(rs.normal(size=(300, 3)), columns=["rain", "nitrogen", "sun"])
fields["yield_t"] = 2 * fields.rain + fields.nitrogen + rs.normal(size=300)
fields["season"] = rs.randint(2008, 2024, size=300)
xs = ["rain", "nitrogen", "sun"]
alphas = [0.01, 0.1, 1.0, 10.0, 100.0]
"""

_HAND_SELECT = {
    # pandas sample / drop, best-so-far loop
    "sample_drop": """
        plots_a = fields.sample(frac=0.7, random_state=3)
        plots_b = fields.drop(plots_a.index)
        best, best_mae = None, np.inf
        for a in alphas:
            m = Ridge(alpha=a).fit(plots_a[xs], plots_a.yield_t)
            e = mean_absolute_error(plots_b.yield_t, m.predict(plots_b[xs]))
            if e < best_mae:
                best, best_mae = a, e
        print(f"alpha {best}: MAE {best_mae:.3f}")
    """,
    # numpy permutation positions, dict of scores and min(key=...)
    "permutation": """
        F, t = fields[xs].to_numpy(), fields.yield_t.to_numpy()
        perm = np.random.default_rng(0).permutation(len(F))
        p1, p2 = perm[:210], perm[210:]
        maes = {a: mean_absolute_error(t[p2], Ridge(alpha=a).fit(F[p1], t[p1]).predict(F[p2]))
                for a in alphas}
        best = min(maes, key=maes.get)
        print(best, round(maes[best], 3))
    """,
    # random boolean mask, list of scores and argmin
    "random_mask": """
        sel = np.random.default_rng(1).random(len(fields)) < 0.7
        grp1, grp2 = fields[sel], fields[~sel]
        errs = []
        for a in alphas:
            m = Ridge(alpha=a).fit(grp1[xs], grp1.yield_t)
            errs.append(mean_absolute_error(grp2.yield_t, m.predict(grp2[xs])))
        i = int(np.argmin(errs))
        print(alphas[i], errs[i])
    """,
    # a time cut unpacked on one line
    "time_masks_one_line": """
        older, newer = fields[fields.season < 2020], fields[fields.season >= 2020]
        errs = {}
        for a in alphas:
            m = Ridge(alpha=a).fit(older[xs], older.yield_t)
            errs[a] = mean_absolute_error(newer.yield_t, m.predict(newer[xs]))
        best = min(errs, key=errs.get)
        print(best, errs[best])
    """,
}

_HAND_SELECT_SOUND = {
    "sample_drop": """
        plots_a = fields.sample(frac=0.7, random_state=3)
        plots_b = fields.drop(plots_a.index)
        cv = {a: -cross_val_score(Ridge(alpha=a), plots_a[xs], plots_a.yield_t, cv=5,
                                  scoring="neg_mean_absolute_error").mean() for a in alphas}
        best = min(cv, key=cv.get)
        m = Ridge(alpha=best).fit(plots_a[xs], plots_a.yield_t)
        print(best, mean_absolute_error(plots_b.yield_t, m.predict(plots_b[xs])))
    """,
    "random_mask": """
        sel = np.random.default_rng(1).random(len(fields)) < 0.7
        grp1, grp2 = fields[sel], fields[~sel]
        cv = [-cross_val_score(Ridge(alpha=a), grp1[xs], grp1.yield_t, cv=5,
                               scoring="neg_mean_absolute_error").mean() for a in alphas]
        best = alphas[int(np.argmin(cv))]
        m = Ridge(alpha=best).fit(grp1[xs], grp1.yield_t)
        print(best, mean_absolute_error(grp2.yield_t, m.predict(grp2[xs])))
    """,
    "time_masks_one_line": """
        older, newer = fields[fields.season < 2020], fields[fields.season >= 2020]
        cv = {a: -cross_val_score(Ridge(alpha=a), older[xs], older.yield_t, cv=5,
                                  scoring="neg_mean_absolute_error").mean() for a in alphas}
        best = min(cv, key=cv.get)
        m = Ridge(alpha=best).fit(older[xs], older.yield_t)
        print(best, mean_absolute_error(newer.yield_t, m.predict(newer[xs])))
    """,
}


@pytest.mark.parametrize("key", sorted(_HAND_SELECT))
def test_selection_on_a_hand_made_holdout_with_role_less_names(key: str) -> None:
    flagged(_HAND_SELECT[key], CROPS)


@pytest.mark.parametrize("key", sorted(_HAND_SELECT_SOUND))
def test_cv_selection_then_one_score_on_a_hand_made_holdout_is_quiet(key: str) -> None:
    quiet(run(_HAND_SELECT_SOUND[key], CROPS))


# -- a fixed positional hold-out written inline: the same tail rows pick and report ---------------

_POSITIONAL = {
    # a helper scoring the literal tail, a dict comprehension over candidates, min(key=)
    "helper_iloc_literal": ("""
        def tail_mae(a):
            m = Ridge(alpha=a).fit(fields[xs].iloc[:240], fields.yield_t.iloc[:240])
            return mean_absolute_error(fields.yield_t.iloc[240:], m.predict(fields[xs].iloc[240:]))
        res = {a: tail_mae(a) for a in alphas}
        best = min(res, key=res.get)
        print(best, res[best])
    """, """
        def block_mae(a, lo, hi):
            m = Ridge(alpha=a).fit(fields[xs].iloc[:lo], fields.yield_t.iloc[:lo])
            return mean_absolute_error(fields.yield_t.iloc[lo:hi],
                                       m.predict(fields[xs].iloc[lo:hi]))
        res = {a: block_mae(a, 200, 240) for a in alphas}
        best = min(res, key=res.get)
        m = Ridge(alpha=best).fit(fields[xs].iloc[:240], fields.yield_t.iloc[:240])
        tail_pred = m.predict(fields[xs].iloc[240:])
        print(best, mean_absolute_error(fields.yield_t.iloc[240:], tail_pred))
    """),
    # numpy arrays cut at a named position, best-so-far loop
    "numpy_named_cut": ("""
        F, t = fields[xs].to_numpy(), fields.yield_t.to_numpy()
        n_fit = 240
        best, best_e = None, np.inf
        for a in alphas:
            m = Ridge(alpha=a).fit(F[:n_fit], t[:n_fit])
            e = np.mean(np.abs(m.predict(F[n_fit:]) - t[n_fit:]))
            if e < best_e:
                best, best_e = a, e
        print(best, best_e)
    """, """
        F, t = fields[xs].to_numpy(), fields.yield_t.to_numpy()
        n_fit, n_dev = 200, 240
        best, best_e = None, np.inf
        for a in alphas:
            m = Ridge(alpha=a).fit(F[:n_fit], t[:n_fit])
            e = np.mean(np.abs(m.predict(F[n_fit:n_dev]) - t[n_fit:n_dev]))
            if e < best_e:
                best, best_e = a, e
        m = Ridge(alpha=best).fit(F[:n_dev], t[:n_dev])
        print(best, np.mean(np.abs(m.predict(F[n_dev:]) - t[n_dev:])))
    """),
    # a negative tail (the last 60 rows), list of scores and argmin
    "negative_tail": ("""
        errs = []
        for a in alphas:
            m = Ridge(alpha=a).fit(fields[xs].iloc[:-60], fields.yield_t.iloc[:-60])
            errs.append(mean_absolute_error(fields.yield_t.iloc[-60:],
                                            m.predict(fields[xs].iloc[-60:])))
        k = int(np.argmin(errs))
        print(alphas[k], errs[k])
    """, """
        errs = []
        for a in alphas:
            m = Ridge(alpha=a).fit(fields[xs].iloc[:-60], fields.yield_t.iloc[:-60])
            errs.append(-cross_val_score(Ridge(alpha=a), fields[xs].iloc[:-60],
                                         fields.yield_t.iloc[:-60], cv=5,
                                         scoring="neg_mean_absolute_error").mean())
        k = int(np.argmin(errs))
        m = Ridge(alpha=alphas[k]).fit(fields[xs].iloc[:-60], fields.yield_t.iloc[:-60])
        print(alphas[k], mean_absolute_error(fields.yield_t.iloc[-60:],
                                             m.predict(fields[xs].iloc[-60:])))
    """),
}


@pytest.mark.parametrize("key", sorted(_POSITIONAL))
def test_selection_on_a_fixed_positional_tail_that_is_also_reported(key: str) -> None:
    flawed, _sound = _POSITIONAL[key]
    flagged(flawed, CROPS)


def test_walk_forward_windows_are_not_a_fixed_holdout():
    quiet(run("""
        F, t = fields[xs].to_numpy(), fields.yield_t.to_numpy()
        errs = {}
        for a in alphas:
            e = []
            for cut in range(150, 300, 30):
                m = Ridge(alpha=a).fit(F[:cut], t[:cut])
                e.append(np.mean(np.abs(m.predict(F[cut:cut + 30]) - t[cut:cut + 30])))
            errs[a] = np.mean(e)
        best = min(errs, key=errs.get)
        print(best, errs[best])
    """, CROPS))


def test_label_slices_at_a_date_are_not_a_positional_holdout():
    quiet(run("""
        s = pd.Series(fields.yield_t.to_numpy(), index=pd.date_range("2001-01-01", periods=300))
        cut_day = s.index[240]
        res = {w: (s[:cut_day].rolling(w).mean().iloc[-1] - s[cut_day:].mean()) ** 2
               for w in (5, 10, 20)}
        best = min(res, key=res.get)
        print(best, res[best])
    """, CROPS))


# -- a threshold picked with numpy's nan-aware argmax over a test-set curve ---------------------

def test_pr_curve_f1_nanargmax_on_test_is_flagged():
    flagged("""
        clf = LogisticRegression(max_iter=5000).fit(X_train, y_train)
        s_te = clf.predict_proba(X_test)[:, 1]
        prec, rec, thr = precision_recall_curve(y_test, s_te)
        f1 = 2 * prec * rec / np.clip(prec + rec, 1e-12, None)
        i = int(np.nanargmax(f1[:-1]))
        print(f"threshold {thr[i]:.3f}: precision {prec[i]:.3f}, recall {rec[i]:.3f}")
    """)


def test_pr_curve_f1_nanargmax_on_train_oof_then_test_is_quiet():
    silent(run("""
        from sklearn.model_selection import cross_val_predict
        clf = LogisticRegression(max_iter=5000)
        oof = cross_val_predict(clf, X_train, y_train, cv=5, method="predict_proba")[:, 1]
        prec, rec, thr = precision_recall_curve(y_train, oof)
        f1 = 2 * prec * rec / np.clip(prec + rec, 1e-12, None)
        threshold = float(thr[int(np.nanargmax(f1[:-1]))])
        s_te = clf.fit(X_train, y_train).predict_proba(X_test)[:, 1]
        print(f"threshold {threshold:.3f}: test F1 {f1_score(y_test, s_te >= threshold):.3f}")
    """))


def test_youden_nanargmax_on_test_roc_is_flagged():
    flagged("""
        clf = LogisticRegression(max_iter=5000).fit(X_train, y_train)
        fpr, tpr, cut = roc_curve(y_test, clf.predict_proba(X_test)[:, 1])
        j = np.nanargmax(tpr - fpr)
        print(f"cut-off {cut[j]:.2f}: sensitivity {tpr[j]:.2f}, specificity {1 - fpr[j]:.2f}")
    """)


def test_youden_nanargmax_on_validation_split_then_test_is_quiet():
    quiet(run("""
        X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, test_size=0.3,
                                                      random_state=1, stratify=y_train)
        clf = LogisticRegression(max_iter=5000).fit(X_fit, y_fit)
        fpr, tpr, cut = roc_curve(y_val, clf.predict_proba(X_val)[:, 1])
        t = cut[np.nanargmax(tpr - fpr)]
        pred = clf.predict_proba(X_test)[:, 1] >= t
        print(f"cut-off {t:.2f} (validation): test accuracy {accuracy_score(y_test, pred):.3f}")
    """))


def test_threshold_grid_nanargmax_of_test_f1_is_flagged():
    flagged("""
        p_test = LogisticRegression(max_iter=5000).fit(X_train, y_train).predict_proba(X_test)[:, 1]
        grid = np.linspace(0.1, 0.9, 17)
        f1s = np.array([f1_score(y_test, p_test >= t) for t in grid])
        k = np.nanargmax(f1s)
        print(f"threshold {grid[k]:.2f}: F1 {f1s[k]:.3f}")
    """)


def test_threshold_grid_nanargmax_of_validation_f1_then_test_is_quiet():
    quiet(run("""
        X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, test_size=0.3,
                                                      random_state=1, stratify=y_train)
        clf = LogisticRegression(max_iter=5000).fit(X_fit, y_fit)
        p_val = clf.predict_proba(X_val)[:, 1]
        grid = np.linspace(0.1, 0.9, 17)
        f1s = np.array([f1_score(y_val, p_val >= t) for t in grid])
        t = grid[np.nanargmax(f1s)]
        print(f"threshold {t:.2f}: test F1 "
              f"{f1_score(y_test, clf.predict_proba(X_test)[:, 1] >= t):.3f}")
    """))


# -- a setting tuned on a score-named collection and that collection's best reported ------------

POLLS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(7)
n = 3000
polls = pd.DataFrame({"cycle": rng.choice([2018, 2022], n),
                      "region": rng.choice(list("ABCDEF"), n),
                      "lv_scale": rng.integers(0, 11, n)})
polls["vote_inc"] = 0.5 + 0.01 * (polls["lv_scale"] - 5) + rng.normal(0, 0.1, n)
official = pd.DataFrame({r: [0.52, 0.55] for r in "ABCDEF"}, index=[2018, 2022])
idx = pd.date_range("2021-01-01", periods=400, freq="D")
demand = pd.Series(100 + np.cumsum(rng.normal(0, 1, 400)) + rng.normal(0, 4, 400), index=idx)
"""


def test_cutoff_tuned_on_previous_cycle_scored_on_next_is_quiet():
    silent(run("""
        def regional_mae(cycle, cut):
            pc = polls[(polls["cycle"] == cycle) & (polls["lv_scale"] >= cut)]
            est = pc.groupby("region")["vote_inc"].mean()
            return (100 * (est - official.loc[cycle])).abs().mean()

        mae18 = {cut: regional_mae(2018, cut) for cut in range(0, 11)}
        lv_cut = min(mae18, key=mae18.get)
        print(f"keep lv_scale >= {lv_cut}: 2022 MAE {regional_mae(2022, lv_cut):.2f} pts")
    """, POLLS))


def test_error_per_region_worst_group_is_not_a_selection():
    silent(run("""
        truth22 = official.loc[2022]
        err = {}
        for r in "ABCDEF":
            err[r] = abs(100 * (polls[polls.region == r].vote_inc.mean() - truth22[r]))
        worst = max(err, key=err.get)
        print(f"worst region {worst}: error {err[worst]:.2f} pts")
    """, POLLS))


def test_window_by_error_on_early_days_scored_on_later_days_is_quiet():
    quiet(run("""
        windows = [3, 7, 14, 28, 56]
        early, late = demand.loc[:"2021-12-31"], demand.loc["2022-01-01":]
        errs = []
        for w in windows:
            fc = early.rolling(w).mean().shift(1)
            errs.append(np.nanmean(np.abs(early - fc)))
        w = windows[int(np.argmin(errs))]
        fc = demand.rolling(w).mean().shift(1).loc[late.index]
        print(f"window {w} (chosen on 2021): 2022 MAE {np.mean(np.abs(late - fc)):.2f}")
    """, POLLS))


def test_span_by_rmse_series_reported_as_in_sample_fit_only_is_quiet():
    silent(run("""
        rmse = pd.Series({span: np.sqrt(((demand - demand.ewm(span=span).mean().shift(1))
                                         ** 2).mean()) for span in range(2, 40)})
        print(rmse.round(2).to_string())
        print("span with the smallest in-sample error:", rmse.idxmin())
    """, POLLS))


# -- the top of a sorted table of same-rows scores reported ------------------------------------

PERIODS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import Lasso, Ridge
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import TimeSeriesSplit, cross_val_score
rng = np.random.default_rng(11)
idx = pd.date_range("1991-01-01", periods=360, freq="MS")
obs = pd.DataFrame(rng.normal(size=(360, 6)), index=idx, columns=[f"x{i}" for i in range(6)])
obs["t"] = obs.x0 + 0.5 * obs.x1 + rng.normal(0, 1, 360)
feats = [f"x{i}" for i in range(6)]
cal, ind = obs.loc[:"2010"], obs.loc["2011":]
cands = {f"ridge {a}": Ridge(alpha=a) for a in (1, 10, 100)} | {
    f"lasso {a}": Lasso(alpha=a) for a in (0.01, 0.1)}
"""


def test_models_ranked_on_independent_period_sort_values_iloc0_is_flagged():
    flagged("""
        rmse = {}
        for name, est in cands.items():
            m = est.fit(cal[feats], cal.t)
            rmse[name] = mean_squared_error(ind.t, m.predict(ind[feats])) ** 0.5
        rmse = pd.Series(rmse).sort_values()
        print(f"selected {rmse.index[0]}: independent RMSE {rmse.iloc[0]:.3f}")
    """, PERIODS)


def test_models_ranked_by_cv_in_calibration_then_independent_once_is_quiet():
    quiet(run("""
        cv_rmse = pd.Series({name: -cross_val_score(est, cal[feats], cal.t,
                                                     cv=TimeSeriesSplit(5),
                                                     scoring="neg_root_mean_squared_error").mean()
                             for name, est in cands.items()}).sort_values()
        best = cv_rmse.index[0]
        final = cands[best].fit(cal[feats], cal.t)
        print(f"selected {best}: independent RMSE "
              f"{mean_squared_error(ind.t, final.predict(ind[feats])) ** 0.5:.3f}")
    """, PERIODS))


def test_results_frame_sorted_by_rmse_first_row_is_flagged():
    flagged("""
        rows = []
        for name, est in cands.items():
            pred = est.fit(cal[feats], cal.t).predict(ind[feats])
            rows.append({"model": name, "rmse": mean_squared_error(ind.t, pred) ** 0.5})
        board = pd.DataFrame(rows).sort_values("rmse")
        print(board.iloc[0])
    """, PERIODS)


def test_nsmallest_of_same_rows_rmse_first_is_flagged():
    flagged("""
        rmse = pd.Series({name: mean_squared_error(ind.t, est.fit(cal[feats], cal.t)
                                                   .predict(ind[feats])) ** 0.5
                          for name, est in cands.items()})
        top = rmse.nsmallest(3)
        print(top.round(3).to_string())
        print(f"best: {top.index[0]} at {top.iloc[0]:.3f}")
    """, PERIODS)


# -- members / proxies chosen by their fit to a record, then scored on that record --------------

ENSEMBLE = """
import numpy as np
import pandas as pd
from scipy.stats import pearsonr
rng = np.random.default_rng(5)
years = np.arange(1950, 2021)
forced = 0.015 * (years - 1950)
tas_ens = np.array([forced + rng.normal(0, 0.2, years.size) for _ in range(30)])
tas_obs = forced + rng.normal(0, 0.2, years.size)
members = pd.DataFrame(tas_ens.T, index=pd.Index(years, name="year"),
                       columns=[f"m{i}" for i in range(30)])
obs = pd.Series(tas_obs, index=members.index)
proxies = rng.normal(size=(years.size, 40)) + 0.3 * tas_obs[:, None]
"""


def test_members_chosen_on_early_years_verified_on_later_years_is_quiet():
    silent(run("""
        sel_p, ver_p = years <= 1985, years > 1985
        r_mem = np.array([np.corrcoef(m[sel_p], tas_obs[sel_p])[0, 1] for m in tas_ens])
        best5 = np.argsort(r_mem)[::-1][:5]

        def skill(sim, o):
            return np.corrcoef(sim, o)[0, 1], np.sqrt(np.mean((sim - o) ** 2))

        r_sel, e_sel = skill(tas_ens[best5].mean(axis=0)[ver_p], tas_obs[ver_p])
        print(f"1986-2020 selected 5-member mean: r = {r_sel:.3f}, RMSE = {e_sel:.3f}")
    """, ENSEMBLE))


def test_members_by_corrwith_on_early_rows_corrcoef_on_the_rest_is_quiet():
    silent(run("""
        early = members.index <= 1985
        r = members[early].corrwith(obs[early])
        top = r.nlargest(5).index
        composite = members[top].mean(axis=1)
        print(f"after 1985: r = {np.corrcoef(composite[~early], obs[~early])[0, 1]:.3f}")
    """, ENSEMBLE))


def test_proxies_screened_on_calibration_years_rmse_on_verification_years_is_quiet():
    silent(run("""
        def rmse(a, b):
            return float(np.sqrt(np.mean((a - b) ** 2)))

        r = np.array([pearsonr(proxies[:40, j], tas_obs[:40])[0]
                      for j in range(proxies.shape[1])])
        keep = np.argsort(np.abs(r))[-8:]
        recon = proxies[:, keep].mean(axis=1)
        print(f"verification RMSE: {rmse(recon[40:], tas_obs[40:]):.3f}")
    """, ENSEMBLE))
