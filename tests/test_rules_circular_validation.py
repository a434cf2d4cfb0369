"""circular_validation: models, hyperparameters, thresholds or stopping epochs chosen by their
test-set score. Flawed cells and sound twins (selection by CV / a validation split, then one
test evaluation)."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules import circular_validation as C
from tests import rule_helpers as H
from tests.rule_helpers import one, quiet, silent

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


def code_only(code: str) -> list[Finding]:
    return H.code_only(RULES, code)


# -- selection on the test set: flawed ---------------------------------------------------------

def test_best_so_far_loop_over_depths():
    f = one(run("""
        best_depth, best_acc = None, 0.0
        for depth in range(1, 12):
            tree = DecisionTreeClassifier(max_depth=depth, random_state=0)
            tree.fit(X_train, y_train)
            acc = accuracy_score(y_test, tree.predict(X_test))
            if acc > best_acc:
                best_depth, best_acc = depth, acc
        print(f"best depth {best_depth}: test accuracy {best_acc:.3f}")
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and f.confidence >= 0.9
    assert f.lines == [6, 7]
    assert f.evidence["values"]["reported"] is True


def test_scores_list_then_argmax_over_k():
    f = one(run("""
        ks = [1, 3, 5, 7, 9, 15]
        scores = []
        for k in ks:
            knn = KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train)
            scores.append(knn.score(X_test, y_test))
        best_k = ks[int(np.argmax(scores))]
        print("best k", best_k, "accuracy", max(scores))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and f.lines == [6, 7]


def test_comprehension_over_C_with_max_of_zip():
    f = one(run("""
        Cs = [0.01, 0.1, 1, 10]
        results = [(LogisticRegression(C=c, max_iter=2000).fit(X_train, y_train)
                    .score(X_test, y_test), c) for c in Cs]
        best_score, best_C = max(results)
        print(best_C, round(best_score, 3))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_dict_of_models_and_best_by_test_accuracy():
    f = one(run("""
        models = {"lr": LogisticRegression(max_iter=2000),
                  "rf": RandomForestClassifier(n_estimators=30, random_state=0),
                  "knn": KNeighborsClassifier()}
        test_acc = {}
        for name, model in models.items():
            model.fit(X_train, y_train)
            test_acc[name] = accuracy_score(y_test, model.predict(X_test))
        winner = max(test_acc, key=test_acc.get)
        print(winner, test_acc[winner])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_results_frame_idxmax():
    f = one(run("""
        rows = []
        for n in [10, 30, 60]:
            rf = RandomForestClassifier(n_estimators=n, random_state=0).fit(X_train, y_train)
            rows.append({"n": n, "test_f1": f1_score(y_test, rf.predict(X_test))})
        res = pd.DataFrame(rows)
        best = res.loc[res.test_f1.idxmax()]
        print(best)
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_two_models_compared_explicitly():
    f = one(run("""
        lr = LogisticRegression(max_iter=2000).fit(X_train, y_train)
        rf = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_train, y_train)
        lr_acc, rf_acc = lr.score(X_test, y_test), rf.score(X_test, y_test)
        chosen = "rf" if rf_acc > lr_acc else "lr"
        print(chosen, max(lr_acc, rf_acc))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_helper_function_scored_on_test_inside_loop():
    f = one(run("""
        def evaluate(model):
            model.fit(X_train, y_train)
            return model.score(X_test, y_test)

        scores = {d: evaluate(DecisionTreeClassifier(max_depth=d, random_state=0))
                  for d in range(2, 8)}
        best = max(scores, key=scores.get)
        print(best, scores[best])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_threshold_from_precision_recall_curve_on_test():
    f = one(run("""
        clf = LogisticRegression(max_iter=2000).fit(X_train, y_train)
        proba = clf.predict_proba(X_test)[:, 1]
        prec, rec, thr = precision_recall_curve(y_test, proba)
        f1 = 2 * prec * rec / (prec + rec + 1e-12)
        best_thr = thr[np.argmax(f1[:-1])]
        print("threshold", best_thr, "test F1", f1_score(y_test, proba >= best_thr))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and "threshold" in f.explanation


def test_youden_threshold_from_roc_on_test():
    f = one(run("""
        clf = LogisticRegression(max_iter=2000).fit(X_train, y_train)
        fpr, tpr, thr = roc_curve(y_test, clf.predict_proba(X_test)[:, 1])
        cut = thr[np.argmax(tpr - fpr)]
        print(cut)
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_sorted_table_of_test_scores_is_high_not_blocking():
    found = run("""
        accs = {name: m.fit(X_train, y_train).score(X_test, y_test)
                for name, m in {"lr": LogisticRegression(max_iter=2000),
                                "tree": DecisionTreeClassifier(random_state=0)}.items()}
        print(pd.Series(accs).sort_values(ascending=False))
    """)
    f = one(found, "circular_validation.selection_on_test")
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_best_seed_on_test_is_selection():
    f = one(run("""
        accs = [RandomForestClassifier(n_estimators=20, random_state=s).fit(X_train, y_train)
                .score(X_test, y_test) for s in range(5)]
        print("accuracy", max(accs))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_manual_split_names_are_recognised():
    f = one(run("""
        n = 200
        Xtr, Xte, ytr, yte = X[:n], X[n:], y[:n], y[n:]
        best = max(range(1, 10), key=lambda k: KNeighborsClassifier(k).fit(Xtr, ytr)
                   .score(Xte, yte))
        print(best)
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_checkpoint_kept_when_test_accuracy_improves():
    f = one(code_only("""
        import torch
        best_acc = 0.0
        for epoch in range(30):
            train_one_epoch(model, train_loader, optimizer)
            acc = evaluate(model, test_loader)
            if acc > best_acc:
                best_acc = acc
                torch.save(model.state_dict(), "best.pt")
        print(f"best test accuracy {best_acc:.3f}")
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and f.lines == [6, 7]


def test_checkpoint_on_validation_loader_is_quiet():
    silent(code_only("""
        best = 0.0
        for epoch in range(30):
            train_one_epoch(model, train_loader, optimizer)
            acc = evaluate(model, val_loader)
            if acc > best:
                best = acc
                torch.save(model.state_dict(), "best.pt")
        model.load_state_dict(torch.load("best.pt"))
        print("test accuracy", evaluate(model, test_loader))
    """))


def test_optimiser_objective_scoring_the_test_set():
    f = one(code_only("""
        import optuna
        from sklearn.model_selection import train_test_split
        X_train, X_test, y_train, y_test = train_test_split(X, y)

        def objective(trial):
            c = trial.suggest_float("C", 1e-3, 10, log=True)
            model = LogisticRegression(C=c).fit(X_train, y_train)
            return model.score(X_test, y_test)

        study = optuna.create_study(direction="maximize")
        study.optimize(objective, n_trials=50)
        print(study.best_value)
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and "optimiser" in f.explanation


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


def test_validation_named_set_from_a_separate_split_is_quiet():
    silent(run("""
        X_dev, X_valid, y_dev, y_valid = train_test_split(X_train, y_train, random_state=1)
        scores = [LogisticRegression(C=c, max_iter=2000).fit(X_dev, y_dev)
                  .score(X_valid, y_valid) for c in (0.1, 1, 10)]
        c_best = (0.1, 1, 10)[int(np.argmax(scores))]
        print(c_best)
    """))


def test_learning_curve_on_test_without_selection_is_quiet():
    silent(run("""
        import matplotlib.pyplot as plt
        sizes = [50, 100, 150, 210]
        test_scores = [LogisticRegression(max_iter=2000).fit(X_train[:n], y_train[:n])
                       .score(X_test, y_test) for n in sizes]
        plt.plot(sizes, test_scores)
        print(np.mean(test_scores))
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


def test_seed_average_is_quiet():
    silent(run("""
        accs = [RandomForestClassifier(n_estimators=20, random_state=s).fit(X_train, y_train)
                .score(X_test, y_test) for s in range(5)]
        print(f"{np.mean(accs):.3f} +/- {np.std(accs):.3f}")
    """))


def test_selection_key_on_cv_column_is_quiet():
    quiet(run("""
        rows = []
        for d in (2, 4, 6):
            m = DecisionTreeClassifier(max_depth=d, random_state=0)
            cv = cross_val_score(m, X_train, y_train, cv=5).mean()
            rows.append({"depth": d, "cv": cv,
                         "test": m.fit(X_train, y_train).score(X_test, y_test)})
        best = max(rows, key=lambda r: r["cv"])
        print(best)
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


def test_results_table_ranked_by_test_column_is_flagged():
    f = one(run("""
        rows = []
        for name, m in {"lr": LogisticRegression(max_iter=2000),
                        "tree": DecisionTreeClassifier(random_state=0)}.items():
            rows.append({"model": name,
                         "test_acc": m.fit(X_train, y_train).score(X_test, y_test)})
        table = pd.DataFrame(rows)
        print(table.loc[table["test_acc"].idxmax()])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_best_validation_score_reported_without_test_is_medium():
    found = run("""
        X_a, X_val, y_a, y_val = train_test_split(X, y, test_size=0.3, random_state=0)
        scores = [KNeighborsClassifier(k).fit(X_a, y_a).score(X_val, y_val) for k in (1, 5, 9)]
        print("best validation accuracy", max(scores))
    """, CANCER)
    quiet(found)
    assert one(found, "circular_validation.selection_on_validation_reported").severity == \
        "medium"


# -- search fitted on the test set ------------------------------------------------------------

def test_gridsearch_fit_on_test():
    f = one(run("""
        grid = GridSearchCV(LogisticRegression(max_iter=2000), {"C": [0.1, 1, 10]}, cv=3)
        grid.fit(X_test, y_test)
        print(grid.best_params_, grid.best_score_)
    """), "circular_validation.search_fit_on_test")
    assert f.is_blocking(0.8) and f.lines == [3]


def test_randomized_search_on_holdout_named_arrays():
    f = one(run("""
        X_dev, X_holdout, y_dev, y_holdout = train_test_split(X, y, random_state=2)
        search = RandomizedSearchCV(KNeighborsClassifier(), {"n_neighbors": list(range(1, 20))},
                                    n_iter=5, cv=3, random_state=0)
        search.fit(X_holdout, y_holdout)
        print(search.best_score_)
    """), "circular_validation.search_fit_on_test")
    assert f.is_blocking(0.8)


def test_gridsearch_on_train_is_quiet():
    silent(run("""
        grid = GridSearchCV(LogisticRegression(max_iter=2000), {"C": [0.1, 1, 10]}, cv=3)
        grid.fit(X_train, y_train)
        print(grid.best_params_, grid.score(X_test, y_test))
    """))


# -- early stopping on the test set --------------------------------------------------------------

def test_xgboost_eval_set_with_early_stopping_on_test():
    f = one(code_only("""
        import xgboost as xgb
        from sklearn.model_selection import train_test_split
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = xgb.XGBClassifier(n_estimators=2000, early_stopping_rounds=50)
        model.fit(X_train, y_train, eval_set=[(X_test, y_test)], verbose=False)
        print(model.score(X_test, y_test))
    """), "circular_validation.early_stopping_on_test")
    assert f.is_blocking(0.8) and f.lines == [6]


def test_keras_validation_data_test_with_early_stopping_callback():
    f = one(code_only("""
        from tensorflow import keras
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)
        net = keras.Sequential([keras.layers.Dense(16), keras.layers.Dense(1)])
        net.compile("adam", "mse")
        stop = keras.callbacks.EarlyStopping(patience=5, restore_best_weights=True)
        net.fit(X_train, y_train, validation_data=(X_test, y_test), epochs=200,
                callbacks=[keras.callbacks.EarlyStopping(patience=5)])
        print(net.evaluate(X_test, y_test))
    """), "circular_validation.early_stopping_on_test")
    assert f.is_blocking(0.8)


def test_lightgbm_train_valid_sets_test_with_callback():
    f = one(code_only("""
        import lightgbm as lgb
        X_tr, X_te, y_tr, y_te = train_test_split(X, y)
        dtrain = lgb.Dataset(X_tr, y_tr)
        dtest = lgb.Dataset(X_te, y_te, reference=dtrain)
        booster = lgb.train({"objective": "binary"}, dtrain, valid_sets=[dtest],
                            callbacks=[lgb.early_stopping(30)])
    """), "circular_validation.early_stopping_on_test")
    assert f.is_blocking(0.8)


def test_early_stopping_on_validation_split_is_quiet():
    silent(code_only("""
        import xgboost as xgb
        from sklearn.model_selection import train_test_split
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, random_state=0)
        model = xgb.XGBClassifier(n_estimators=2000, early_stopping_rounds=50)
        model.fit(X_fit, y_fit, eval_set=[(X_val, y_val)], verbose=False)
        print(model.score(X_test, y_test))
    """))


def test_eval_set_on_test_only_for_monitoring_is_quiet():
    silent(code_only("""
        import xgboost as xgb
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = xgb.XGBClassifier(n_estimators=300)
        model.fit(X_train, y_train, eval_set=[(X_test, y_test)], verbose=False)
        print(model.score(X_test, y_test))
    """))


def test_best_epoch_picked_from_test_history_is_selection():
    f = one(code_only("""
        X_train, X_test, y_train, y_test = train_test_split(X, y)
        hist = net.fit(X_train, y_train, epochs=50, validation_data=(X_test, y_test))
        best_epoch = int(np.argmax(hist.history["val_accuracy"]))
        print(best_epoch, max(hist.history["val_accuracy"]))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and "epoch" in f.explanation


@pytest.mark.parametrize("code", ["x = (", "", "max()", "sorted(x, key=lambda: 1)",
                                  "if a > b:\n    pass", "for (a, b) in c: a.score(b)"])
def test_odd_code_never_raises(code):
    code_only(code)


# -- hand-rolled test error used to pick a model -----------------------------------------------

def test_hand_rolled_test_accuracy_picks_k():
    f = one(run("""
        acc = {}
        for k in (1, 3, 5, 9, 15):
            pred = KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train).predict(X_test)
            acc[k] = (pred == y_test).mean()
        best_k = max(acc, key=acc.get)
        print(best_k, acc[best_k])
    """), "circular_validation.selection_on_test")
    assert f.severity == "critical"


def test_hand_rolled_test_mse_ranked_in_frame():
    found = run("""
        rows = []
        for a in (0.01, 0.1, 1.0, 10.0):
            p = Ridge(alpha=a).fit(X_train, y_train).predict(X_test)
            rows.append({"alpha": a, "mse": np.mean((y_test - p) ** 2)})
        table = pd.DataFrame(rows).sort_values("mse")
        print(table.head(1))
    """)
    f = one(found, "circular_validation.selection_on_test")
    assert f.severity in ("high", "critical")


def test_hand_rolled_error_on_validation_then_test_once_is_quiet():
    quiet(run("""
        X_tr, X_val, y_tr, y_val = train_test_split(X_train, y_train, test_size=0.25,
                                                    random_state=1)
        errs = {}
        for a in (0.01, 0.1, 1.0, 10.0):
            p = Ridge(alpha=a).fit(X_tr, y_tr).predict(X_val)
            errs[a] = np.mean((y_val - p) ** 2)
        best = min(errs, key=errs.get)
        final = Ridge(alpha=best).fit(X_train, y_train)
        print(best, np.mean((y_test - final.predict(X_test)) ** 2))
    """))


def test_single_hand_rolled_test_error_is_quiet():
    quiet(run("""
        p = Ridge(alpha=1.0).fit(X_train, y_train).predict(X_test)
        print(np.mean(np.abs(y_test - p)))
    """))


# -- a spread summary of candidates' test scores is not a selection --------------------------

def test_range_of_test_scores_over_seeds_is_quiet():
    silent(run("""
        aucs = []
        for seed in range(8):
            rf = RandomForestClassifier(n_estimators=15, random_state=seed).fit(X_train, y_train)
            aucs.append(accuracy_score(y_test, rf.predict(X_test)))
        print(f"test accuracy over seeds: mean {np.mean(aucs):.3f}, "
              f"range {np.min(aucs):.3f}-{np.max(aucs):.3f}")
    """))


def test_builtin_min_max_of_a_comprehension_over_configs_is_quiet():
    silent(run("""
        accs = [KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train).score(X_test, y_test)
                for k in (3, 5, 7, 9)]
        print("test accuracy is stable across k:", round(min(accs), 3), "to",
              round(max(accs), 3))
    """))


def test_series_describe_and_max_of_test_scores_is_quiet():
    silent(run("""
        f1s = pd.Series({d: f1_score(y_test, DecisionTreeClassifier(max_depth=d, random_state=0)
                                     .fit(X_train, y_train).predict(X_test))
                         for d in range(2, 7)})
        print(f1s.describe())
        print("worst depth still reaches", f1s.min(), "best", f1s.max())
    """))


def test_bare_maximum_of_test_scores_next_to_the_mean_is_still_a_selection():
    f = one(run("""
        accs = [KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train).score(X_test, y_test)
                for k in (3, 5, 7, 9)]
        print(f"best test accuracy {max(accs):.3f} (mean over k {np.mean(accs):.3f})")
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_range_printed_but_the_maximum_locates_the_winner_is_a_selection():
    f = one(run("""
        seeds = list(range(6))
        accs = [RandomForestClassifier(n_estimators=15, random_state=s).fit(X_train, y_train)
                .score(X_test, y_test) for s in seeds]
        best = max(accs)
        print("range", min(accs), best)
        chosen_seed = seeds[accs.index(best)]
        print("shipping seed", chosen_seed, "accuracy", best)
    """), "circular_validation.selection_on_test")
    assert f.severity == "critical"


def test_range_next_to_an_idxmax_pick_is_a_selection():
    f = one(run("""
        accs = pd.Series({k: KNeighborsClassifier(n_neighbors=k).fit(X_train, y_train)
                          .score(X_test, y_test) for k in (1, 5, 9)})
        print("range", accs.min(), accs.max())
        print("chosen k", accs.idxmax(), "test accuracy", accs[accs.idxmax()])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


# -- errors computed by hand through a helper or a residual name ------------------------------

SERIES = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
idx = pd.date_range("2022-01-01", periods=300, freq="D")
load = pd.Series(50 + np.cumsum(rng.normal(0, 1, 300)) + rng.normal(0, 3, 300), index=idx)
windows = [3, 7, 14, 28]
"""


def test_window_chosen_by_helper_error_on_final_period_is_flagged():
    f = one(run("""
        def residuals(s, w):
            fc = s.rolling(w).mean().shift(1)
            return s - fc

        holdout_idx = load.index[-45:]
        err = {}
        for w in windows:
            err[w] = residuals(load, w).loc[holdout_idx].abs().mean()
        w_best = min(err, key=err.get)
        print(f"window {w_best}: expected MAE {err[w_best]:.2f}")
    """, SERIES), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8) and f.evidence["values"]["reported"] is True


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
    f = one(run("""
        rmse = {}
        for a in (0.01, 0.1, 1.0, 10.0):
            resid = y_test - Ridge(alpha=a).fit(X_train, y_train).predict(X_test)
            rmse[a] = float(np.sqrt(np.mean(resid ** 2)))
        a_best = min(rmse, key=rmse.get)
        print("alpha", a_best, "test RMSE", rmse[a_best])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_metric_helper_function_scored_on_test_inside_a_search_is_flagged():
    f = one(run("""
        def balanced_error(truth, pred):
            return np.mean(truth != pred)

        errs = {d: balanced_error(y_test, DecisionTreeClassifier(max_depth=d, random_state=0)
                                  .fit(X_train, y_train).predict(X_test))
                for d in range(2, 8)}
        best = min(errs, key=errs.get)
        print(best, 1 - errs[best])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_metric_helper_function_on_validation_then_test_once_is_quiet():
    silent(run("""
        def balanced_error(truth, pred):
            return np.mean(truth != pred)

        X_fit, X_val, y_fit, y_val = train_test_split(X_train, y_train, random_state=0)
        errs = {d: balanced_error(y_val, DecisionTreeClassifier(max_depth=d, random_state=0)
                                  .fit(X_fit, y_fit).predict(X_val))
                for d in range(2, 8)}
        best = min(errs, key=errs.get)
        final = DecisionTreeClassifier(max_depth=best, random_state=0).fit(X_train, y_train)
        print(best, 1 - balanced_error(y_test, final.predict(X_test)))
    """))


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
    f = one(run("""
        proba = LogisticRegression(max_iter=2000).fit(X_train, y_train).predict_proba(X_test)[:, 1]
        grid = np.linspace(0.1, 0.9, 17)
        f1s = [f1_score(y_test, proba >= t) for t in grid]
        print(grid[int(np.argmax(f1s))], max(f1s))
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_feature_subsets_indexed_by_the_loop_variable_are_still_a_selection():
    f = one(run("""
        import itertools
        rmse = {}
        for cols in itertools.combinations(range(6), 3):
            m = Ridge().fit(X_train[:, list(cols)], y_train)
            rmse[cols] = np.sqrt(np.mean((y_test - m.predict(X_test[:, list(cols)])) ** 2))
        best = min(rmse, key=rmse.get)
        print(best, rmse[best])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_model_looked_up_by_name_in_the_loop_is_still_a_selection():
    f = one(run("""
        models = {"lr": LogisticRegression(max_iter=2000),
                  "tree": DecisionTreeClassifier(random_state=0)}
        acc = {}
        for name in models:
            m = models[name]
            m.fit(X_train, y_train)
            acc[name] = (m.predict(X_test) == y_test).mean()
        best = max(acc, key=acc.get)
        print(best, acc[best])
    """), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


def test_smoothing_level_chosen_on_the_future_window_is_flagged():
    f = one(run("""
        from statsmodels.tsa.holtwinters import SimpleExpSmoothing
        hist, future = load[:-28], load[-28:]
        alphas, maes = [0.1, 0.3, 0.5, 0.8], []
        for a in alphas:
            fc = SimpleExpSmoothing(hist, initialization_method="estimated").fit(
                smoothing_level=a).forecast(28)
            maes.append(np.abs(future.values - fc.values).mean())
        i = int(np.argmin(maes))
        print("alpha", alphas[i], "MAE on the last 4 weeks", maes[i])
    """, SERIES), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


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


def test_hand_rolled_test_error_without_imports_in_view_is_flagged():
    f = one(code_only("""
        errs = {}
        for a in alphas:
            p = Ridge(alpha=a).fit(X_train, y_train).predict(X_test)
            errs[a] = np.mean((y_test - p) ** 2)
        best = min(errs, key=errs.get)
        print(best, errs[best])
    """), "circular_validation.selection_on_test")
    assert f.severity == "critical"


# -- a search's best CV score quoted as the expected performance --------------------------------

def test_randomized_search_best_score_as_expected_performance():
    f = one(run("""
        search = RandomizedSearchCV(DecisionTreeClassifier(random_state=0),
                                    {"max_depth": [2, 4, 8, None], "min_samples_leaf": [1, 5]},
                                    n_iter=6, cv=4, scoring="f1", random_state=0)
        search.fit(X, y)
        print(f"F1 to expect on unseen patients: {search.best_score_:.3f}")
    """), "circular_validation.search_best_score_reported")
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_max_of_cv_results_in_a_summary_dict():
    f = one(run("""
        grid = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 3, 5, 9, 15]}, cv=5)
        grid.fit(X, y)
        top = max(grid.cv_results_["mean_test_score"])
        {"k": grid.best_params_["n_neighbors"], "generalisation accuracy": round(top, 3)}
    """), "circular_validation.search_best_score_reported")
    assert f.severity == "high"


def test_best_score_labelled_as_cv_without_a_test_set_is_only_medium():
    found = run("""
        grid = GridSearchCV(DecisionTreeClassifier(random_state=0), {"max_depth": [2, 3, 5]}, cv=5)
        grid.fit(X, y)
        print("inner CV accuracy of the chosen depth:", round(grid.best_score_, 3))
    """)
    quiet(found)
    assert one(found, "circular_validation.search_best_score_reported").severity == "medium"


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

def test_platt_scaling_fitted_on_test_scores():
    f = one(run("""
        from sklearn.metrics import brier_score_loss
        forest = DecisionTreeClassifier(max_depth=4, random_state=0).fit(X_train, y_train)
        s_test = forest.predict_proba(X_test)[:, 1].reshape(-1, 1)
        platt = LogisticRegression().fit(s_test, y_test)
        print("Brier after Platt scaling:",
              brier_score_loss(y_test, platt.predict_proba(s_test)[:, 1]))
    """), "circular_validation.fitted_on_test_set")
    assert f.is_blocking(0.8)


def test_stacker_fitted_on_test_predictions():
    f = one(run("""
        knn = KNeighborsClassifier().fit(X_train, y_train)
        tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X_train, y_train)
        meta_X = np.column_stack([knn.predict_proba(X_test)[:, 1],
                                  tree.predict_proba(X_test)[:, 1]])
        stacker = LogisticRegression().fit(meta_X, y_test)
        print(f"stacked accuracy {stacker.score(meta_X, y_test):.3f}")
    """), "circular_validation.fitted_on_test_set")
    assert f.severity == "critical"


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

COEF = "circular_validation.coefficients_fit_on_test"
DECAY = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy.optimize import curve_fit
from sklearn.metrics import mean_squared_error, r2_score
rng = np.random.default_rng(17)
t = np.linspace(0, 10, 120)
signal = 3 * np.exp(-0.3 * t) + rng.normal(0, 0.2, 120)
t_train, y_train = t[:60], signal[:60]
t_val, y_val = t[60:90], signal[60:90]
t_test, y_test = t[90:], signal[90:]
def decay(x, a, k):
    return a * np.exp(-k * x)
"""


def test_polyfit_on_the_test_points_then_mse_there_is_critical() -> None:
    f = one(run("""
coefs = np.polyfit(t_test, y_test, 5)
pred = np.polyval(coefs, t_test)
print("test MSE:", mean_squared_error(y_test, pred))
""", DECAY), COEF)
    assert f.severity == "critical" and f.confidence >= 0.8


def test_curve_fit_on_the_holdout_then_scored_there_is_flagged() -> None:
    f = one(run("""
popt, _ = curve_fit(decay, t_test, y_test, p0=(1, 0.1))
rmse = np.sqrt(np.mean((y_test - decay(t_test, *popt)) ** 2))
r2 = r2_score(y_test, decay(t_test, *popt))
print(f"held-out R2 = {r2:.3f}, RMSE = {rmse:.3f}")
""", DECAY), COEF)
    assert f.severity == "critical"


def test_statsmodels_ols_fitted_on_test_rows_then_r2_there_is_flagged() -> None:
    one(run("""
X_test = sm.add_constant(np.column_stack([t_test, t_test ** 2]))
res = sm.OLS(y_test, X_test).fit()
print("test R2", r2_score(y_test, res.predict(X_test)))
""", DECAY), COEF)


def test_fit_on_train_or_validation_and_a_calibration_slope_stay_quiet() -> None:
    found = run("""
coefs = np.polyfit(t_train, y_train, 3)
print("test MSE:", mean_squared_error(y_test, np.polyval(coefs, t_test)))
""", DECAY)
    assert not [f for f in found if f.rule_id == COEF]
    found = run("""
popt, _ = curve_fit(decay, t_val, y_val, p0=(1, 0.1))
print("test MSE:", mean_squared_error(y_test, decay(t_test, *popt)))
""", DECAY)
    assert not [f for f in found if f.rule_id == COEF]
    found = run("""
coefs = np.polyfit(t_train, y_train, 3)
pred_test = np.polyval(coefs, t_test)
slope, intercept = np.polyfit(pred_test, y_test, 1)
print(f"calibration slope on the test set: {slope:.2f}")
""", DECAY)
    quiet(found)
    assert not [f for f in found if f.rule_id == COEF]


# a test mask taken in complement selects the training rows (holdout7 round)
STATIONS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy.optimize import curve_fit
from sklearn.metrics import mean_absolute_error, roc_auc_score
rng = np.random.default_rng(5)
n = 300
sites = pd.DataFrame({"temp": rng.normal(15, 6, n), "wind": rng.gamma(2, 3, n),
                      "station": rng.integers(0, 12, n)})
sites["frost"] = (rng.random(n) < 1 / (1 + np.exp(0.4 * sites.temp - 3))).astype(int)
sites["load"] = 40 + 2.5 * sites.temp - 0.8 * sites.wind + rng.normal(0, 3, n)
is_test = (sites.station >= 9).to_numpy()
test_idx = sites.index[is_test]
"""


def test_formula_logit_fit_on_the_complement_of_a_test_mask_stays_quiet() -> None:
    found = run("""
res = smf.logit("frost ~ temp + wind", data=sites[~is_test]).fit(disp=0)
print("held-out AUC", roc_auc_score(sites.loc[is_test, "frost"], res.predict(sites[is_test])))
""", STATIONS)
    quiet(found)
    assert not [f for f in found if f.rule_id == COEF]


def test_ols_on_rows_left_after_dropping_the_test_index_stays_quiet() -> None:
    found = run("""
fit_rows = sites.drop(index=test_idx)
X_fit = sm.add_constant(fit_rows[["temp", "wind"]])
ols = sm.OLS(fit_rows["load"], X_fit).fit()
X_hold = sm.add_constant(sites.loc[test_idx, ["temp", "wind"]])
print("MAE on held-out stations", mean_absolute_error(sites.loc[test_idx, "load"],
                                                       ols.predict(X_hold)))
""", STATIONS)
    quiet(found)
    assert not [f for f in found if f.rule_id == COEF]


def test_curve_fit_on_rows_where_the_test_flag_is_false_stays_quiet() -> None:
    found = run("""
def line(x, a, b):
    return a + b * x
keep = is_test == False
popt, _ = curve_fit(line, sites.temp[keep], sites.load[keep])
err = mean_absolute_error(sites.load[is_test], line(sites.temp[is_test], *popt))
print(f"held-out MAE {err:.2f}")
""", STATIONS)
    quiet(found)
    assert not [f for f in found if f.rule_id == COEF]


def test_fit_on_the_test_mask_itself_is_still_flagged() -> None:
    one(run("""
res = smf.ols("load ~ temp + wind", data=sites[is_test]).fit()
print("held-out MAE", mean_absolute_error(sites.load[is_test], res.predict(sites[is_test])))
""", STATIONS), COEF)
    one(run("""
fit_mask = ~is_test
res = smf.ols("load ~ temp + wind", data=sites[~fit_mask]).fit()
print("held-out MAE", mean_absolute_error(sites.load[is_test], res.predict(sites[is_test])))
""", STATIONS), COEF)


# -- picked by its association, then tested on the same rows ------------------------------------

DIP = "circular_validation.selection_then_test_same_data"
OMICS = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.api as sm
rng = np.random.default_rng(41)
n = 80
expr = pd.DataFrame(rng.normal(size=(n, 300)), columns=[f"gene{i}" for i in range(300)])
outcome = rng.normal(size=n)                 # unrelated to every gene
trial = pd.DataFrame({"segment": rng.choice(list("ABCDEFGH"), 800),
                      "treated": rng.integers(0, 2, 800), "spend": rng.normal(50, 10, 800),
                      "store_m2": rng.normal(400, 80, 800)})
half = np.arange(n) < n // 2
"""


def test_genes_screened_by_correlation_then_correlated_again_is_critical() -> None:
    f = one(run("""
r = expr.corrwith(pd.Series(outcome))
top = r.abs().nlargest(15).index
score = expr[top].mean(axis=1)
rho, p = stats.pearsonr(score, outcome)
print(f"signature vs outcome: r = {rho:.2f}, p = {p:.1e}")
""", OMICS), DIP)
    assert f.severity == "critical" and f.evidence["values"]["candidates"] == 300


def test_best_segment_by_uplift_then_t_tested_is_flagged() -> None:
    f = one(run("""
uplift = trial.groupby("segment").apply(
    lambda g: g[g.treated == 1].spend.mean() - g[g.treated == 0].spend.mean())
best = uplift.idxmax()
seg = trial[trial.segment == best]
t, p = stats.ttest_ind(seg[seg.treated == 1].spend, seg[seg.treated == 0].spend)
print(f"segment {best}: t = {t:.2f}, p = {p:.3f}")
""", OMICS), DIP)
    assert f.severity in ("high", "critical")


def test_p_value_screen_then_ols_p_values_is_flagged() -> None:
    one(run("""
keep = [c for c in expr.columns[:60] if stats.pearsonr(expr[c], outcome)[1] < 0.1]
fit = sm.OLS(outcome, sm.add_constant(expr[keep])).fit()
print(fit.pvalues.round(3))
""", OMICS), DIP)


def test_split_halves_unsupervised_filters_and_other_criteria_stay_quiet() -> None:
    found = run("""
disc, conf = expr[half], expr[~half]
y_disc, y_conf = outcome[half], outcome[~half]
r = disc.corrwith(pd.Series(y_disc, index=disc.index))
top = r.abs().nlargest(15).index
print(stats.pearsonr(conf[top].mean(axis=1), y_conf))
""", OMICS)
    assert not [f for f in found if f.rule_id == DIP]
    found = run("""
top = expr.var().nlargest(15).index
print(stats.pearsonr(expr[top].mean(axis=1), outcome))
""", OMICS)
    assert not [f for f in found if f.rule_id == DIP]
    found = run("""
big = trial.groupby("segment").store_m2.mean().nlargest(3).index
sub = trial[trial.segment.isin(big)]
print(stats.ttest_ind(sub[sub.treated == 1].spend, sub[sub.treated == 0].spend))
""", OMICS)
    assert not [f for f in found if f.rule_id == DIP]


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
res = {g: rmse(*g, train, test) for g in grid}
best = min(res, key=res.get)
print(best, res[best])
""",
    _RMSE_HELPER + """
scores = [rmse(d, l, train, test) for d, l in grid]
print(grid[int(np.argmin(scores))], min(scores))
""",
    """
def mae(deg, fit_on, score_on):
    errors = []
    coef = np.polyfit(fit_on.temp, fit_on.mw, deg)
    errors.extend(np.abs(score_on.mw - np.polyval(coef, score_on.temp)))
    return np.mean(errors)

table = pd.Series({d: mae(d, train, test) for d in range(1, 8)})
print(table.idxmin(), table.min())
""",
])
def test_residual_lists_scored_on_test_then_best_reported(code: str):
    f = one(run(code, LOAD), "circular_validation.selection_on_test")
    assert f.is_blocking(0.8)


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


# -- a cut-off calibrated on values, then its coverage / hit rate measured on those values -------

SENSORS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(21)
n = 900
plant = pd.DataFrame({"vib": rng.gamma(2.0, 1.5, n), "temp": rng.normal(60, 4, n)})
plant["wear"] = 0.4 * plant.vib + 0.05 * plant.temp + rng.standard_t(4, n)
fit_rows, calib_rows, test_rows = plant.iloc[:500], plant.iloc[500:700], plant.iloc[700:]
coef = np.polyfit(fit_rows.vib, fit_rows.wear, 1)
err_calib = calib_rows.wear - np.polyval(coef, calib_rows.vib)
err_test = test_rows.wear - np.polyval(coef, test_rows.vib)
score_test = np.abs(err_test.to_numpy())
score_calib = np.abs(err_calib.to_numpy())
"""

CUTOFF = "circular_validation.cutoff_scored_on_its_calibration_data"


@pytest.mark.parametrize("code, rate", [
    ("""
    band = err_test.abs().quantile(0.8)
    coverage = (err_test.abs() <= band).mean()
    print(f"80% band: +/- {band:.2f}, test coverage {coverage:.1%}")
    """, 0.8),
    ("""
    thr = np.percentile(score_test, 95)
    false_alarms = np.mean(score_test > thr)
    print(f"alarm threshold {thr:.2f}; false-alarm rate on the test period: {false_alarms:.1%}")
    """, 0.05),
    ("""
    lo, hi = np.quantile(err_test, [0.05, 0.95])
    inside = np.mean((err_test >= lo) & (err_test <= hi))
    print(f"90% interval [{lo:.2f}, {hi:.2f}] holds {inside:.1%} of test errors")
    """, 0.9),
    ("""
    cutoff = np.sort(score_test)[int(0.9 * len(score_test))]
    hit_rate = (score_test < cutoff).sum() / len(score_test)
    print("hit rate", round(hit_rate, 3))
    """, 0.9),
])
def test_coverage_measured_on_the_calibration_values_is_critical(code: str, rate: float):
    f = one(run(code, SENSORS), CUTOFF)
    assert f.is_blocking(0.8) and f.confidence == 0.9
    assert f.evidence["values"]["expected_rate"] == pytest.approx(rate)
    assert abs(f.evidence["values"]["reported_rate"] - rate) <= 0.02
    assert "by construction" in f.explanation and "calibrat" in f.suggestion.lower()


def test_inline_quantile_in_the_printed_coverage_is_high():
    f = one(run("""
        print("coverage:", np.mean(score_test <= np.quantile(score_test, 0.9)))
    """, SENSORS), CUTOFF)
    assert f.severity == "high" and f.confidence == 0.7  # no named value for the kernel


def test_output_that_calls_it_in_sample_is_medium():
    f = one(run("""
        q = np.quantile(score_calib, 0.9)
        cov = np.mean(score_calib <= q)
        print(f"in-sample coverage on the calibration set (by construction): {cov:.2f}")
    """, SENSORS), CUTOFF)
    assert f.severity == "medium"


@pytest.mark.parametrize("code", [
    # split-conformal: calibrated on one set, coverage measured on another
    """
    band = err_calib.abs().quantile(0.8)
    coverage = (err_test.abs() <= band).mean()
    print(f"80% band: +/- {band:.2f}, test coverage {coverage:.1%}")
    """,
    """
    thr = np.percentile(score_calib, 95)
    false_alarms = np.mean(score_test > thr)
    print(f"alarm threshold {thr:.2f}; false-alarm rate on the test period: {false_alarms:.1%}")
    """,
    """
    lo, hi = np.quantile(err_calib, [0.05, 0.95])
    inside = np.mean((err_test >= lo) & (err_test <= hi))
    print(f"90% interval [{lo:.2f}, {hi:.2f}] holds {inside:.1%} of test errors")
    """,
    # a quantile described, not validated
    """
    q90 = np.quantile(score_test, 0.9)
    print(f"90% of test errors are below {q90:.2f}")
    """,
    # a count of readings above a percentile, no rate offered as validation
    """
    thr = np.percentile(score_test, 99)
    n_high = int((score_test > thr).sum())
    print(f"{n_high} readings above the 99th percentile ({thr:.2f})")
    """,
    # the values were recomputed between calibration and check
    """
    thr = np.percentile(score_test, 95)
    score_test = np.abs(err_test.to_numpy()) * 1.1
    print("alarm rate", np.mean(score_test > thr))
    """,
])
def test_cutoff_checked_on_other_values_or_only_described_is_silent(code: str):
    silent([f for f in run(code, SENSORS) if f.rule_id == CUTOFF])
    quiet(run(code, SENSORS))


# -- selection cross-validated on a hand-made fold that is the test set --------------------------

CREDIT = """
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification, make_regression
from sklearn.linear_model import LogisticRegression, LassoCV
from sklearn.metrics import accuracy_score, r2_score, roc_auc_score
from sklearn.model_selection import (GridSearchCV, PredefinedSplit, RandomizedSearchCV,
                                     cross_val_score, train_test_split)
from sklearn.feature_selection import RFECV
from sklearn.tree import DecisionTreeRegressor
X, y = make_classification(n_samples=300, n_features=12, n_informative=3, random_state=2)
Xr, yr = make_regression(n_samples=300, n_features=10, noise=20.0, random_state=2)
idx = np.arange(300)
tr_idx, te_idx = train_test_split(idx, test_size=0.3, random_state=2)
is_test = np.isin(idx, te_idx)
"""

FOLD = "circular_validation.validation_fold_is_test"


@pytest.mark.parametrize("code", [
    """
    gs = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 0.1, 1, 10]},
                      cv=[(tr_idx, te_idx)]).fit(X, y)
    print("held-out accuracy:", gs.score(X[te_idx], y[te_idx]))
    """,
    """
    sel = RFECV(LogisticRegression(max_iter=500),
                cv=[(np.where(~is_test)[0], np.where(is_test)[0])], scoring="roc_auc")
    sel.fit(X, y)
    Xs = sel.transform(X)
    clf = LogisticRegression(max_iter=500).fit(Xs[~is_test], y[~is_test])
    auc = roc_auc_score(y[is_test], clf.predict_proba(Xs[is_test])[:, 1])
    print(f"test AUC with {sel.n_features_} features: {auc:.3f}")
    """,
    """
    fold = np.full(len(yr), -1)
    fold[te_idx] = 0
    search = RandomizedSearchCV(DecisionTreeRegressor(random_state=0),
                                {"max_depth": list(range(1, 12))}, n_iter=6, random_state=0,
                                cv=PredefinedSplit(fold)).fit(Xr, yr)
    print("test R2", r2_score(yr[te_idx], search.predict(Xr[te_idx])))
    """,
    """
    split = [(tr_idx, te_idx)]
    lasso = LassoCV(cv=split).fit(Xr, yr)
    r2 = r2_score(yr[te_idx], lasso.predict(Xr[te_idx]))
    print(f"alpha={lasso.alpha_:.3f}, test R2 = {r2:.3f}")
    """,
])
def test_search_whose_only_fold_is_the_test_rows_is_critical(code: str):
    f = one(run(code, CREDIT), FOLD)
    assert f.is_blocking(0.8)
    assert "te_idx" in f.explanation or "is_test" in f.explanation


def test_candidates_scored_by_cross_val_score_on_the_test_fold_then_best_picked():
    f = one(run("""
        scores = {}
        for C in (0.01, 0.1, 1.0, 10.0):
            scores[C] = cross_val_score(LogisticRegression(C=C, max_iter=500), X, y,
                                        cv=[(tr_idx, te_idx)]).mean()
        best = max(scores, key=scores.get)
        print(f"best C={best}: test accuracy {scores[best]:.3f}")
    """, CREDIT), FOLD)
    assert f.is_blocking(0.8) and "cross_val_score" in f.explanation


def test_search_not_reported_is_high():
    f = one(run("""
        gs = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 0.1, 1, 10]},
                          cv=[(tr_idx, te_idx)]).fit(X, y)
        acc = gs.score(X[te_idx], y[te_idx])
    """, CREDIT), FOLD)
    assert f.severity == "high"


@pytest.mark.parametrize("code", [
    # a validation fold carved out of the training rows
    """
    fit_idx, val_idx = train_test_split(tr_idx, test_size=0.25, random_state=0)
    gs = GridSearchCV(LogisticRegression(max_iter=500), {"C": [0.01, 0.1, 1, 10]},
                      cv=[(fit_idx, val_idx)]).fit(X, y)
    final = LogisticRegression(max_iter=500, **gs.best_params_).fit(X[tr_idx], y[tr_idx])
    print("held-out accuracy:", final.score(X[te_idx], y[te_idx]))
    """,
    # ordinary k-fold CV on the training rows
    """
    sel = RFECV(LogisticRegression(max_iter=500), cv=5, scoring="roc_auc")
    sel.fit(X[~is_test], y[~is_test])
    Xs = sel.transform(X)
    clf = LogisticRegression(max_iter=500).fit(Xs[~is_test], y[~is_test])
    auc = roc_auc_score(y[is_test], clf.predict_proba(Xs[is_test])[:, 1])
    print(f"test AUC with {sel.n_features_} features: {auc:.3f}")
    """,
    # a predefined validation fold inside the training rows, test rows left out of the search
    """
    val_idx = tr_idx[:60]
    fold = np.full(len(tr_idx), -1)
    fold[:60] = 0
    search = RandomizedSearchCV(DecisionTreeRegressor(random_state=0),
                                {"max_depth": list(range(1, 12))}, n_iter=6, random_state=0,
                                cv=PredefinedSplit(fold)).fit(Xr[tr_idx], yr[tr_idx])
    print("test R2", r2_score(yr[te_idx], search.predict(Xr[te_idx])))
    """,
    # one model evaluated on the test fold: an evaluation, not a selection
    """
    acc = cross_val_score(LogisticRegression(max_iter=500), X, y, cv=[(tr_idx, te_idx)])
    print("test accuracy", acc[0])
    """,
])
def test_selection_on_training_rows_then_one_test_score_is_quiet(code: str):
    silent([f for f in run(code, CREDIT) if f.rule_id == FOLD])
    quiet(run(code, CREDIT))


def test_negated_test_mask_selects_the_training_rows():
    # `~is_test` is the training part: fitting on it and scoring on `is_test` is sound
    code = """
        clf = LogisticRegression(max_iter=500).fit(X[{fit}], y[{fit}])
        print("test accuracy", accuracy_score(y[is_test], clf.predict(X[is_test])))
    """
    quiet(run(code.format(fit="~is_test"), CREDIT))
    f = one(run(code.format(fit="is_test"), CREDIT), "circular_validation.fitted_on_test_set")
    assert f.is_blocking(0.8)


# -- descriptive cut-offs on raw measurements (reference intervals, fences, quantile flags) -----

LAB = """
import numpy as np
import pandas as pd
from scipy import stats
from sklearn.linear_model import LinearRegression
rng = np.random.default_rng(11)
ref = pd.DataFrame({"creatinine": rng.lognormal(4.4, 0.25, 240),
                    "age": rng.integers(20, 80, 240)})
spend = pd.Series(rng.gamma(2.0, 40.0, 500), name="spend")
fit = LinearRegression().fit(ref[["age"]], ref["creatinine"])
resid = ref["creatinine"] - fit.predict(ref[["age"]])
gap = np.abs(ref["creatinine"].to_numpy() - fit.predict(ref[["age"]]))
"""


@pytest.mark.parametrize("code", [
    # a nonparametric reference interval, and the share of the reference sample outside it
    """
    crea = ref["creatinine"]
    lo, hi = crea.quantile([0.025, 0.975])
    outside = ((crea < lo) | (crea > hi)).mean()
    print(f"reference interval {lo:.0f}-{hi:.0f} umol/L; reference subjects outside the "
          f"interval: {outside:.1%}")
    """,
    # Tukey fences from the quartiles, and the share of values beyond them
    """
    q1, q3 = np.percentile(spend, [25, 75])
    upper_fence = q3 + 1.5 * (q3 - q1)
    share_out = np.mean(spend > upper_fence)
    top = np.percentile(spend, 90)
    share_top = np.mean(spend > top)
    print(f"fence {upper_fence:.0f}: {share_out:.1%} beyond; share above p90 {share_top:.1%}")
    """,
    # a top-decile flag on raw values and the share flagged
    """
    cut = stats.scoreatpercentile(ref.creatinine.to_numpy(), 90)
    flagged_rate = (ref.creatinine.to_numpy() > cut).sum() / len(ref)
    print("share flagged as high creatinine:", round(flagged_rate, 3))
    """,
])
def test_descriptive_cutoff_on_raw_measurements_is_quiet(code: str):
    silent([f for f in run(code, LAB) if f.rule_id == CUTOFF])
    quiet(run(code, LAB))


@pytest.mark.parametrize("code", [
    # the same share wording on a model's residuals: a prediction band's coverage
    """
    lo, hi = resid.quantile([0.025, 0.975])
    inside = ((resid >= lo) & (resid <= hi)).mean()
    print(f"prediction band +{hi:.1f}/{lo:.1f}: share of subjects inside {inside:.1%}")
    """,
    # an alarm limit on absolute prediction errors, its exceedance share reported
    """
    limit = np.percentile(gap, 95)
    share_over = np.mean(gap > limit)
    print(f"alarm limit {limit:.1f}: fraction of readings over it {share_over:.1%}")
    """,
    # raw measurements, but the rate is offered as a false-alarm rate (a validation claim)
    """
    thr = np.quantile(spend, 0.99)
    false_alarm = (spend > thr).mean()
    print(f"spend alarm at {thr:.0f}; false-alarm rate {false_alarm:.2%}")
    """,
])
def test_cutoff_validated_on_its_own_model_errors_still_fires(code: str):
    f = one(run(code, LAB), CUTOFF)
    assert f.severity in ("high", "critical")


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

SEL = "circular_validation.selection_on_test"


def test_temporal_holdout_dict_of_errors_min_by_key_get():
    f = one(run("""
        early = grid[grid["stamp"] < "2022-01-01"]
        late = grid[grid["stamp"] >= "2022-01-01"]
        rmse = {}
        for alpha in (0.01, 0.1, 1.0, 10.0, 100.0):
            model = Ridge(alpha=alpha).fit(early[cols], early["load_mw"])
            rmse[alpha] = mean_squared_error(late["load_mw"], model.predict(late[cols])) ** 0.5
        best_alpha = min(rmse, key=rmse.get)
        print(f"alpha={best_alpha}: RMSE on 2022-23 {rmse[best_alpha]:.1f} MW")
    """, GRID_LOAD), SEL)
    assert f.is_blocking(0.8) and f.evidence["values"]["reported"] is True


def test_temporal_holdout_max_by_lambda_then_refit_scored_on_same_rows():
    f = one(run("""
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
    """, GRID_LOAD), SEL)
    assert f.is_blocking(0.8)


def test_temporal_holdout_helper_comprehension_sorted_first():
    f = one(run("""
        history = grid.loc[grid["stamp"] < pd.Timestamp("2022-06-01")]
        recent = grid.loc[grid["stamp"] >= pd.Timestamp("2022-06-01")]

        def mae_for(n_trees):
            gb = GradientBoostingRegressor(n_estimators=n_trees, random_state=0)
            gb.fit(history[cols], history["load_mw"])
            return mean_absolute_error(recent["load_mw"], gb.predict(recent[cols]))

        maes = {n: mae_for(n) for n in (20, 50, 100)}
        chosen = sorted(maes, key=maes.get)[0]
        print(chosen, "trees, MAE", round(maes[chosen], 1))
    """, GRID_LOAD), SEL)
    assert f.severity == "critical"


@pytest.mark.parametrize("code", [
    # tuned by time-series CV on the earlier rows, scored once on the later rows
    """
    early = grid[grid["stamp"] < "2022-01-01"]
    late = grid[grid["stamp"] >= "2022-01-01"]
    search = GridSearchCV(Ridge(), {"alpha": [0.01, 0.1, 1.0, 10.0, 100.0]},
                          cv=TimeSeriesSplit(n_splits=4), scoring="neg_root_mean_squared_error")
    search.fit(early[cols], early["load_mw"])
    rmse = mean_squared_error(late["load_mw"], search.predict(late[cols])) ** 0.5
    print(f"alpha={search.best_params_['alpha']}: RMSE on 2022-23 {rmse:.1f} MW")
    """,
    # candidates compared by CV on the earlier years, the winner refitted and scored once
    """
    fitted_on = grid[grid.stamp.dt.year <= 2021]
    year_22 = grid[grid.stamp.dt.year == 2022]
    cv_r2 = {}
    for depth in range(2, 9):
        tree = DecisionTreeRegressor(max_depth=depth, random_state=0)
        cv_r2[depth] = cross_val_score(tree, fitted_on[cols], fitted_on.load_mw,
                                       cv=TimeSeriesSplit(4), scoring="r2").mean()
    depth = max(cv_r2, key=lambda d: cv_r2[d])
    final = DecisionTreeRegressor(max_depth=depth, random_state=0).fit(
        fitted_on[cols], fitted_on.load_mw)
    print("R2 2022:", round(r2_score(year_22.load_mw, final.predict(year_22[cols])), 3))
    """,
    # one fixed model, scored on the later rows: nothing is chosen
    """
    history = grid.loc[grid["stamp"] < pd.Timestamp("2022-06-01")]
    recent = grid.loc[grid["stamp"] >= pd.Timestamp("2022-06-01")]
    gb = GradientBoostingRegressor(n_estimators=100, random_state=0)
    gb.fit(history[cols], history["load_mw"])
    print("MAE", round(mean_absolute_error(recent["load_mw"], gb.predict(recent[cols])), 1))
    """,
])
def test_temporal_holdout_scored_once_is_quiet(code: str):
    quiet(run(code, GRID_LOAD))
    silent([f for f in run(code, GRID_LOAD) if f.rule_id == SEL])


@pytest.mark.parametrize("code, roles", [
    ('past = d[d.date.dt.year < 2023]\nnow = d[d.date.dt.year == 2023]',
     {"past": "train", "now": "test"}),
    ('a = d.loc[d["period"] <= 8]\nb = d.loc[d["period"] > 8]', {"a": "train", "b": "test"}),
    # not a time column, no date bound: subgroups, not a split
    ('young = d[d.age < 40]\nold = d[d.age >= 40]', {}),
    # two later parts (a validation year and a test year, unnamed): ambiguous, no roles
    ('a = d[d.year < 2021]\nb = d[d.year == 2021]\nc = d[d.year == 2022]', {}),
    # the later bound precedes the earlier one: overlapping windows, not a hold-out
    ('a = d[d.year < 2022]\nb = d[d.year >= 2020]', {}),
])
def test_time_split_roles(code: str, roles: dict[str, str]):
    import ast

    from critics.rules._split_flow import _time_split_roles
    assert _time_split_roles(list(ast.walk(ast.parse(code)))) == roles


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
IN_SAMPLE = "circular_validation.in_sample_fit_reported"
BEST_OF = "circular_validation.best_of_many_in_sample"


def test_boosting_scored_on_its_own_rows_and_quoted_for_new_homes_is_flagged():
    f = one(run("""
gbr = GradientBoostingRegressor(random_state=0).fit(Xh, yh)
gbr.fit(Xh, yh)
err = mean_absolute_error(yh, gbr.predict(Xh))
print(f"expected error on a new home: {err:,.0f}")
""", HOUSES), IN_SAMPLE)
    assert f.severity == "critical" and "400" in f.explanation


def test_forest_score_method_on_fitted_frame_is_flagged_high():
    f = one(run("""
clf = RandomForestClassifier(n_estimators=50, random_state=0)
clf.fit(homes[feats], labels)
print("accuracy:", clf.score(homes[feats], labels))
""", HOUSES), IN_SAMPLE)
    assert f.severity == "high"


def test_knn_hand_written_rmse_on_fitted_rows_is_flagged():
    f = one(run("""
knn = KNeighborsRegressor(n_neighbors=3)
knn.fit(Xh, yh)
fitted = knn.predict(Xh)
print("RMSE", np.sqrt(np.mean((yh - fitted) ** 2)))
""", HOUSES), IN_SAMPLE)
    assert f.severity == "high"


def test_linear_model_in_sample_is_only_medium():
    f = one(run("""
lr = LinearRegression()
lr.fit(Xh, yh)
print("R2", r2_score(yh, lr.predict(Xh)))
""", HOUSES), IN_SAMPLE)
    assert f.severity == "medium"


@pytest.mark.parametrize("code", [
    # out-of-fold figure, refit only for inspection
    """
gbr = GradientBoostingRegressor(random_state=0)
pred = cross_val_predict(gbr, Xh, yh, cv=KFold(5, shuffle=True, random_state=0))
print("MAE (out-of-fold)", mean_absolute_error(yh, pred))
gbr.fit(Xh, yh)
""",
    # labelled as the training fit
    """
clf = RandomForestClassifier(n_estimators=50, random_state=0)
clf.fit(homes[feats], labels)
print("training accuracy (in-sample):", clf.score(homes[feats], labels))
""",
    # a held-out split scored as well
    """
X_tr, X_te, y_tr, y_te = train_test_split(Xh, yh, random_state=0)
knn = KNeighborsRegressor(n_neighbors=3).fit(X_tr, y_tr)
knn.fit(X_tr, y_tr)
print("R2", r2_score(y_tr, knn.predict(X_tr)), r2_score(y_te, knn.predict(X_te)))
""",
    # out-of-bag estimate
    """
clf = RandomForestClassifier(n_estimators=50, oob_score=True, random_state=0)
clf.fit(homes[feats], labels)
print("accuracy", clf.score(homes[feats], labels), "oob", clf.oob_score_)
""",
])
def test_in_sample_sound_twins_are_silent(code):
    silent([f for f in run(code, HOUSES) if f.rule_id == IN_SAMPLE])


# hand-computed accuracy / error on the fitted rows (no metric call), reshaped predictions
@pytest.mark.parametrize("code", [
    # accuracy as the mean of a comparison, a method call on the array
    """
from sklearn.naive_bayes import GaussianNB
nb = GaussianNB()
nb.fit(markers, labels)
guess = nb.predict(markers)
print(f"price class is decodable from the markers: {(guess == labels).mean():.1%}")
""",
    # error rate with np.mean over `!=`
    """
from sklearn.linear_model import LogisticRegression
logit = LogisticRegression(max_iter=500).fit(markers, labels)
pred = logit.predict(markers)
miss = np.mean(pred != labels)
print("misclassification rate", round(miss, 3))
""",
    # R2 and RMSE by hand from raveled predictions
    """
from sklearn.linear_model import Ridge
rg = Ridge(alpha=1.0)
rg.fit(Xh, yh)
p = rg.predict(Xh).ravel()
r2 = 1 - ((yh - p) ** 2).sum() / ((yh - yh.mean()) ** 2).sum()
rmse = ((yh - p) ** 2).mean() ** 0.5
print(f"R2 {r2:.3f}  RMSE {rmse:,.0f}")
""",
    # a confusion matrix of in-sample predictions
    """
from sklearn.metrics import confusion_matrix
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
lda = LinearDiscriminantAnalysis().fit(markers, labels)
print(confusion_matrix(labels, np.asarray(lda.predict(markers))))
""",
])
def test_hand_computed_in_sample_scores_are_flagged(code):
    f = one(run(code, HOUSES), IN_SAMPLE)
    assert f.severity in ("medium", "high") and "400" in f.explanation


@pytest.mark.parametrize("code", [
    """
from sklearn.naive_bayes import GaussianNB
guess = cross_val_predict(GaussianNB(), markers, labels, cv=KFold(5, shuffle=True, random_state=0))
print(f"price class is decodable from the markers: {(guess == labels).mean():.1%} (5-fold CV)")
""",
    """
from sklearn.linear_model import LogisticRegression
m_tr, m_te, l_tr, l_te = train_test_split(markers, labels, random_state=0)
logit = LogisticRegression(max_iter=500).fit(m_tr, l_tr)
pred = logit.predict(m_te)
print("misclassification rate", round(np.mean(pred != l_te), 3))
""",
    """
from sklearn.linear_model import Ridge
X_tr, X_te, y_tr, y_te = train_test_split(Xh, yh, random_state=0)
rg = Ridge(alpha=1.0)
rg.fit(X_tr, y_tr)
p = rg.predict(X_te).ravel()
r2 = 1 - ((y_te - p) ** 2).sum() / ((y_te - y_te.mean()) ** 2).sum()
print(f"R2 {r2:.3f}")
""",
    # labelled as the training fit
    """
from sklearn.metrics import confusion_matrix
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
lda = LinearDiscriminantAnalysis().fit(markers, labels)
print("training-set confusion matrix:", confusion_matrix(labels, lda.predict(markers)))
""",
])
def test_hand_computed_scores_on_held_out_rows_are_silent(code):
    silent([f for f in run(code, HOUSES) if f.rule_id == IN_SAMPLE])


def test_max_tracking_loop_over_markers_and_thresholds_is_flagged():
    f = one(run("""
top = {"acc": 0}
for k in range(markers.shape[1]):
    for t in np.quantile(markers[:, k], [0.2, 0.4, 0.6, 0.8]):
        acc = accuracy_score(labels, markers[:, k] > t)
        if acc > top["acc"]:
            top = {"marker": k, "t": t, "acc": acc}
print("best marker", top["marker"], "accuracy", round(top["acc"], 3))
""", HOUSES), BEST_OF)
    assert f.severity == "high" and "12" in f.explanation


def test_best_auc_of_a_comprehension_is_flagged():
    one(run("""
aucs = {j: roc_auc_score(labels, markers[:, j]) for j in range(markers.shape[1])}
best = max(aucs, key=aucs.get)
print(f"marker {best}: AUC {aucs[best]:.2f}")
""", HOUSES), BEST_OF)


def test_best_of_a_pandas_series_of_scores_is_flagged():
    one(run("""
res = []
for j in range(markers.shape[1]):
    res.append(roc_auc_score(labels, markers[:, j]))
ranked = pd.Series(res).sort_values(ascending=False)
print("best AUC", ranked.max())
""", HOUSES), BEST_OF)


def test_helper_scored_selection_with_separate_best_score_is_flagged():
    one(run("""
def youden(x, y, c):
    hit = x > c
    return hit[y == 1].mean() + (~hit[y == 0]).mean() - 1
best_score, best_cut = -1, None
for c in np.linspace(-2, 2, 41):
    s = youden(markers[:, 3], labels, c)
    if s > best_score:
        best_score, best_cut = s, c
print("cut-off", best_cut, "Youden J", best_score)
""", HOUSES), BEST_OF)


@pytest.mark.parametrize("code", [
    # chosen on a development half, scored once on the other half
    """
order = np.random.default_rng(1).permutation(400)
dev, hold = order[:200], order[200:]
top = {"acc": 0}
for k in range(markers.shape[1]):
    for t in np.quantile(markers[dev, k], [0.2, 0.4, 0.6, 0.8]):
        acc = accuracy_score(labels[dev], markers[dev, k] > t)
        if acc > top["acc"]:
            top = {"marker": k, "t": t, "acc": acc}
print("held-out accuracy", accuracy_score(labels[hold], markers[hold, top["marker"]] > top["t"]))
""",
    # only the name of the winner is reported
    """
aucs = {j: roc_auc_score(labels, markers[:, j]) for j in range(markers.shape[1])}
print("most discriminating marker:", max(aucs, key=aucs.get))
""",
    # the range of all candidates is described (no selection loop, no pick)
    """
res = [roc_auc_score(labels, markers[:, j]) for j in range(markers.shape[1])]
print(pd.Series(res).describe())
""",
    # a largest value that is not a score
    """
biggest = -np.inf
for j in range(markers.shape[1]):
    spread = markers[:, j].std()
    if spread > biggest:
        biggest = spread
print("largest spread", biggest)
""",
])
def test_best_of_many_sound_twins_are_silent(code):
    silent([f for f in run(code, HOUSES) if f.rule_id == BEST_OF])


# -- the best of many cross-validated scores reported as the winner's performance ----------

BEST_CV = "circular_validation.best_cv_score_reported"

SOILS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (GridSearchCV, KFold, cross_val_score, cross_validate,
                                     train_test_split)
from sklearn.neighbors import KNeighborsRegressor
from sklearn.tree import DecisionTreeRegressor
rng = np.random.default_rng(3)
n = 120
sites = pd.DataFrame(rng.normal(size=(n, 30)), columns=[f"band{i}" for i in range(30)])
yield_t = sites["band0"] * 0.3 + rng.normal(size=n)
blocks = {f"sensor{k}": sites.iloc[:, 3 * k:3 * k + 3].to_numpy() for k in range(10)}
Xa, ya = sites.to_numpy(), yield_t.to_numpy()
Xa_tr, Xa_te, ya_tr, ya_te = train_test_split(Xa, ya, test_size=0.3, random_state=1)
"""

BEST_CV_FLAWED = [
    # a dict comprehension of CV scores, a Series, idxmax, the winner's CV score printed
    """
r2 = pd.Series({s: cross_val_score(Ridge(), B, ya, cv=5, scoring="r2").mean()
                for s, B in blocks.items()})
winner = r2.idxmax()
print(f"yield predicted from {winner}: cross-validated R2 {r2[winner]:.3f}")
""",
    # a max-tracking loop over a hyperparameter grid scored by cross-validation
    """
best_cv, best_k = -np.inf, None
for k in range(1, 16):
    cv_r2 = cross_val_score(KNeighborsRegressor(n_neighbors=k), Xa, ya, cv=5).mean()
    if cv_r2 > best_cv:
        best_cv, best_k = cv_r2, k
print("k =", best_k, "R2 =", round(best_cv, 3))
""",
    # a list filled in a loop from cross_validate, its max reported
    """
cv_means = []
for depth in [1, 2, 3, 4, 5, 6, 8, 10]:
    res = cross_validate(DecisionTreeRegressor(max_depth=depth, random_state=0), Xa, ya, cv=5)
    cv_means.append(res["test_score"].mean())
print("tree accuracy (CV R2):", max(cv_means))
""",
    # a ranking, its first row reported
    """
table = pd.DataFrame({"cv": [cross_val_score(Ridge(alpha=a), Xa, ya, cv=5).mean()
                             for a in np.logspace(-3, 3, 9)]}).sort_values("cv",
                                                                          ascending=False)
print("best ridge model, 5-fold R2:", table["cv"].iloc[0])
""",
]


@pytest.mark.parametrize("code", BEST_CV_FLAWED)
def test_best_cv_score_reported_is_flagged(code):
    f = one(run(code, SOILS), BEST_CV)
    assert f.severity == "high", f.explanation
    assert "cross-validated" in f.explanation


def test_best_cv_score_of_few_candidates_is_medium():
    f = one(run("""
scores = {m: cross_val_score(est, Xa, ya, cv=5).mean()
          for m, est in {"ridge": Ridge(), "knn": KNeighborsRegressor()}.items()}
print("best model R2", max(scores.values()))
""", SOILS), BEST_CV)
    assert f.severity == "medium"


@pytest.mark.parametrize("code", [
    # nested: the block is chosen inside every outer training fold, the outer score reported
    """
outer = KFold(5, shuffle=True, random_state=0)
outer_r2 = []
for tr, te in outer.split(Xa):
    inner = {s: cross_val_score(Ridge(), B[tr], ya[tr], cv=3).mean() for s, B in blocks.items()}
    s = max(inner, key=inner.get)
    outer_r2.append(Ridge().fit(blocks[s][tr], ya[tr]).score(blocks[s][te], ya[te]))
print("nested CV R2", np.mean(outer_r2))
""",
    # k chosen by CV on the training part, the winner scored once on the test part
    """
best_cv, best_k = -np.inf, None
for k in range(1, 16):
    cv_r2 = cross_val_score(KNeighborsRegressor(n_neighbors=k), Xa_tr, ya_tr, cv=5).mean()
    if cv_r2 > best_cv:
        best_cv, best_k = cv_r2, k
final = KNeighborsRegressor(n_neighbors=best_k).fit(Xa_tr, ya_tr)
print("k =", best_k, "test R2 =", round(final.score(Xa_te, ya_te), 3))
""",
    # the search itself is cross-validated (GridSearchCV inside cross_val_score)
    """
cv_means = []
for depth in [1, 2, 3, 4, 5, 6, 8, 10]:
    res = cross_validate(DecisionTreeRegressor(max_depth=depth, random_state=0), Xa, ya, cv=5)
    cv_means.append(res["test_score"].mean())
search = GridSearchCV(DecisionTreeRegressor(random_state=0), {"max_depth": [1, 2, 3, 4]}, cv=3)
print("per-depth CV", np.round(cv_means, 3), "best", max(cv_means),
      "nested", cross_val_score(search, Xa, ya, cv=5).mean())
""",
    # the whole table of CV scores, no winner reported
    """
table = pd.DataFrame({"cv": [cross_val_score(Ridge(alpha=a), Xa, ya, cv=5).mean()
                             for a in np.logspace(-3, 3, 9)]})
print(table.round(3))
""",
    # the range of all candidates
    """
cv_means = [cross_val_score(Ridge(alpha=a), Xa, ya, cv=5).mean() for a in np.logspace(-3, 3, 9)]
print("CV R2 ranges from", min(cv_means), "to", max(cv_means))
""",
])
def test_best_cv_score_sound_twins_are_quiet(code):
    found = run(code, SOILS)
    quiet(found)
    assert not [f for f in found if f.rule_id == BEST_CV], [f.explanation for f in found]


# -- selection on a validation period, then one evaluation on the final holdout -------------

TIMES = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from sklearn.linear_model import Ridge
rng = np.random.default_rng(5)
n = 300
sales = pd.DataFrame({"week": np.arange(n), "price": rng.normal(10, 1, n),
                      "promo": rng.integers(0, 2, n), "temp": rng.normal(15, 5, n)})
sales["units"] = 50 - 2 * sales["price"] + 5 * sales["promo"] + rng.normal(0, 3, n)
formulas = {f"m{i}": "units ~ " + " + ".join(["price", "promo", "temp"][:1 + i % 3])
            + (" + I(price ** 2)" if i >= 3 else "") for i in range(6)}
Xw = sales[["price", "promo", "temp"]].to_numpy()
yw = sales["units"].to_numpy()
"""

SPEC_SEARCH = [
    # statsmodels formulas ranked on a validation period, refit, scored once on the last weeks
    ("""
early = sales[sales["week"] < 200]
check = sales[(sales["week"] >= 200) & (sales["week"] < 250)]
last = sales[sales["week"] >= 250]
mae = {}
for name, f in formulas.items():
    fit = smf.ols(f, data=early).fit()
    mae[name] = np.mean(np.abs(check["units"] - fit.predict(check)))
pick = min(mae, key=mae.get)
final = smf.ols(formulas[pick], data=sales[sales["week"] < 250]).fit()
print(pick, "final-period MAE", np.mean(np.abs(last["units"] - final.predict(last))))
""", """
early = sales[sales["week"] < 250]
last = sales[sales["week"] >= 250]
mae = {}
for name, f in formulas.items():
    fit = smf.ols(f, data=early).fit()
    mae[name] = np.mean(np.abs(last["units"] - fit.predict(last)))
pick = min(mae, key=mae.get)
print(pick, "final-period MAE", mae[pick])
"""),
    # ridge penalties compared on the weeks before the holdout, the winner scored on it
    ("""
a_part = sales[sales["week"] < 200]
b_part = sales[(sales["week"] >= 200) & (sales["week"] < 250)]
c_part = sales[sales["week"] >= 250]
cols = ["price", "promo", "temp"]
rows = []
for alpha in [0.01, 0.1, 1.0, 10.0, 100.0]:
    m = Ridge(alpha=alpha).fit(a_part[cols], a_part["units"])
    rows.append({"alpha": alpha, "rmse": np.sqrt(np.mean((b_part["units"]
                                                          - m.predict(b_part[cols])) ** 2))})
ranked = pd.DataFrame(rows).sort_values("rmse")
chosen = ranked.iloc[0]["alpha"]
refit = Ridge(alpha=chosen).fit(sales.loc[sales["week"] < 250, cols],
                                sales.loc[sales["week"] < 250, "units"])
print("alpha", chosen, "holdout RMSE",
      np.sqrt(np.mean((c_part["units"] - refit.predict(c_part[cols])) ** 2)))
""", """
a_part = sales[sales["week"] < 250]
c_part = sales[sales["week"] >= 250]
cols = ["price", "promo", "temp"]
rows = []
for alpha in [0.01, 0.1, 1.0, 10.0, 100.0]:
    m = Ridge(alpha=alpha).fit(a_part[cols], a_part["units"])
    rows.append({"alpha": alpha, "rmse": np.sqrt(np.mean((c_part["units"]
                                                          - m.predict(c_part[cols])) ** 2))})
ranked = pd.DataFrame(rows).sort_values("rmse")
print("alpha", ranked.iloc[0]["alpha"], "holdout RMSE", ranked.iloc[0]["rmse"])
"""),
    # numpy polynomial degree kept with `if err < best` on a middle period, then the last
    ("""
t = sales["week"].to_numpy()
u = sales["units"].to_numpy()
fit_t, fit_u = t[:200], u[:200]
mid_t, mid_u = t[200:250], u[200:250]
end_t, end_u = t[250:], u[250:]
best_err, best_deg = np.inf, None
for deg in range(1, 7):
    coef = np.polyfit(fit_t, fit_u, deg)
    err = np.mean((np.polyval(coef, mid_t) - mid_u) ** 2)
    if err < best_err:
        best_err, best_deg = err, deg
coef = np.polyfit(t[:250], u[:250], best_deg)
print("degree", best_deg, "final MSE", np.mean((np.polyval(coef, end_t) - end_u) ** 2))
""", """
t = sales["week"].to_numpy()
u = sales["units"].to_numpy()
fit_t, fit_u = t[:250], u[:250]
end_t, end_u = t[250:], u[250:]
best_err, best_deg = np.inf, None
for deg in range(1, 7):
    coef = np.polyfit(fit_t, fit_u, deg)
    err = np.mean((np.polyval(coef, end_t) - end_u) ** 2)
    if err < best_err:
        best_err, best_deg = err, deg
print("degree", best_deg, "final MSE", best_err)
"""),
]


@pytest.mark.parametrize("sound,flawed", SPEC_SEARCH)
def test_selection_on_validation_period_then_one_holdout_score_is_quiet(sound, flawed):
    quiet(run(sound, TIMES))
    bad = [f for f in run(flawed, TIMES) if f.severity in ("medium", "high", "critical")
           and f.rule_id.startswith("circular_validation.")]
    assert bad, "the flawed twin (selection on the holdout itself) must still be flagged"


# -- a trading rule's performance (Sharpe, Sortino, CAGR) is a score too -------------------

PRICES = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
idx = pd.bdate_range("2012-01-02", periods=1800)
fx = pd.DataFrame({"px": 100 * np.exp(np.cumsum(rng.normal(0.0002, 0.01, len(idx))))},
                  index=idx)
fx["r"] = fx["px"].pct_change()

def sharpe_ann(r):
    r = r.dropna()
    return np.sqrt(252) * r.mean() / r.std()

def sortino(r):
    r = r.dropna()
    return np.sqrt(252) * r.mean() / r[r < 0].std()

def cagr(r):
    r = r.dropna()
    return (1 + r).prod() ** (252 / len(r)) - 1

def crossover(fast, slow):
    sig = np.where(fx["px"].rolling(fast).mean() > fx["px"].rolling(slow).mean(), 1.0, -1.0)
    return pd.Series(sig, index=fx.index).shift(1) * fx["r"]
"""


@pytest.mark.parametrize("code", [
    # a dict of metric dicts, transposed into a table, the Sharpe column's idxmax reported
    """
perf = {}
for fast in (5, 10, 20, 40):
    for slow in (60, 120, 200):
        pnl_r = crossover(fast, slow)
        perf[(fast, slow)] = {"sharpe": sharpe_ann(pnl_r), "win_rate": (pnl_r > 0).mean()}
grid = pd.DataFrame(perf).T
top = grid["sharpe"].idxmax()
print("best crossover", top, "Sharpe to expect:", round(grid.loc[top, "sharpe"], 2))
""",
    # a comprehension of Sortino ratios, max() reported
    """
spans = list(range(20, 260, 20))
sortinos = [sortino(crossover(s // 4, s)) for s in spans]
print("Sortino of the chosen span:", round(max(sortinos), 2))
""",
    # a Series of CAGRs from a dict comprehension, the winner's looked up by idxmax
    """
cagr_by = pd.Series({s: cagr(crossover(5, s)) for s in range(30, 230, 10)})
pick = cagr_by.idxmax()
print(f"slow window {pick}: expected CAGR {cagr_by[pick]:.1%}")
""",
])
def test_best_strategy_metric_of_many_in_sample_is_flagged(code):
    f = one(run(code, PRICES), BEST_OF)
    assert f.severity == "high"


@pytest.mark.parametrize("code", [
    # chosen on the in-sample Sharpe, the out-of-sample column reported
    """
cut = fx.index[1200]
perf = {}
for fast in (5, 10, 20, 40):
    for slow in (60, 120, 200):
        pnl_r = crossover(fast, slow)
        perf[(fast, slow)] = {"is_sharpe": sharpe_ann(pnl_r[:cut]),
                              "oos_sharpe": sharpe_ann(pnl_r[cut:].iloc[1:])}
grid = pd.DataFrame(perf).T
top = grid["is_sharpe"].idxmax()
print("crossover", top, "out-of-sample Sharpe:", round(grid.loc[top, "oos_sharpe"], 2))
""",
    # every span's Sortino described, no winner reported
    """
spans = list(range(20, 260, 20))
sortinos = [sortino(crossover(s // 4, s)) for s in spans]
print(pd.Series(sortinos, index=spans).describe())
""",
    # a pre-registered window, its one CAGR reported
    """
print(f"slow window 100: CAGR {cagr(crossover(5, 100)):.1%}")
""",
])
def test_strategy_metrics_without_an_in_sample_winner_are_silent(code):
    silent([f for f in run(code, PRICES) if f.rule_id == BEST_OF])


# -- in-sample fit of an estimator built and fitted in one chained expression ------------------

PLANTS = """
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier, RandomForestRegressor
from sklearn.neighbors import KNeighborsRegressor
from sklearn.metrics import accuracy_score, mean_absolute_error, r2_score, roc_auc_score
from sklearn.metrics import roc_curve, average_precision_score
from sklearn.model_selection import cross_val_predict, train_test_split, KFold
rng = np.random.default_rng(11)
n = 240
plants = pd.DataFrame(rng.normal(size=(n, 12)), columns=[f"g{i}" for i in range(12)])
plants["yield_t"] = plants.g0 * 2 + rng.normal(0, 1, n)
plants["blight"] = (plants.g1 + rng.normal(0, 1.5, n) > 0.5).astype(int)
Xp = plants[[f"g{i}" for i in range(12)]]
"""

_CHAINED_FIT = {
    "boosting_accuracy": ("""
clf = GradientBoostingClassifier(random_state=0).fit(Xp, plants.blight)
print("blight classifier accuracy:", accuracy_score(plants.blight, clf.predict(Xp)))
""", """
clf = GradientBoostingClassifier(random_state=0)
pred = cross_val_predict(clf, Xp, plants.blight, cv=KFold(5, shuffle=True, random_state=0))
print("blight classifier accuracy (5-fold):", accuracy_score(plants.blight, pred))
"""),
    "knn_mae_named_prediction": ("""
knn = KNeighborsRegressor(n_neighbors=2).fit(Xp, plants.yield_t)
fitted = knn.predict(Xp)
err = mean_absolute_error(plants.yield_t, fitted)
print(f"expected yield error: {err:.2f} t/ha")
""", """
Xa, Xb, ya, yb = train_test_split(Xp, plants.yield_t, test_size=0.3, random_state=0)
knn = KNeighborsRegressor(n_neighbors=2).fit(Xa, ya)
err = mean_absolute_error(yb, knn.predict(Xb))
print(f"expected yield error: {err:.2f} t/ha")
"""),
    "forest_score_method": ("""
forest = RandomForestRegressor(n_estimators=50, random_state=0).fit(Xp, plants.yield_t)
print({"R2": round(forest.score(Xp, plants.yield_t), 3)})
""", """
forest = RandomForestRegressor(n_estimators=50, random_state=0)
pred = cross_val_predict(forest, Xp, plants.yield_t, cv=5)
print({"R2": round(r2_score(plants.yield_t, pred), 3)})
"""),
}


@pytest.mark.parametrize("key", sorted(_CHAINED_FIT))
def test_in_sample_fit_of_a_chained_fit(key: str) -> None:
    flawed, sound = _CHAINED_FIT[key]
    f = one(H.run(RULES, flawed, PLANTS), "circular_validation.in_sample_fit_reported")
    assert f.severity in ("high", "critical")
    quiet(H.run(RULES, sound, PLANTS))


# -- the winner's row of a table of scores sorted by a score -----------------------------------

_WINNER_ROW = {
    "index0_loc_attr": ("""
rows = []
for g in [f"g{i}" for i in range(12)]:
    rows.append({"gene": g, "auc": roc_auc_score(plants.blight, plants[g])})
tbl = pd.DataFrame(rows).set_index("gene").sort_values("auc", ascending=False)
top = tbl.index[0]
row = tbl.loc[top]
print(f"marker {top}: AUC {row.auc:.2f}")
""", """
tr, te = train_test_split(plants, test_size=0.5, random_state=0)
rows = []
for g in [f"g{i}" for i in range(12)]:
    rows.append({"gene": g, "auc": roc_auc_score(tr.blight, tr[g])})
tbl = pd.DataFrame(rows).set_index("gene").sort_values("auc", ascending=False)
top = tbl.index[0]
print(f"marker {top}: test AUC {roc_auc_score(te.blight, te[top]):.2f}")
"""),
    "iloc0_key": ("""
res = {}
for g in ["g0", "g1", "g2", "g3", "g4", "g5"]:
    res[g] = {"r2": r2_score(plants.yield_t, plants[g] * plants.yield_t.std())}
ranked = pd.DataFrame(res).T.sort_values("r2", ascending=False)
winner = ranked.iloc[0]
print("best single-gene R2:", winner["r2"])
""", """
dev, hold = train_test_split(plants, test_size=0.5, random_state=1)
res = {}
for g in ["g0", "g1", "g2", "g3", "g4", "g5"]:
    res[g] = {"r2": r2_score(dev.yield_t, dev[g] * dev.yield_t.std())}
ranked = pd.DataFrame(res).T.sort_values("r2", ascending=False)
g = ranked.index[0]
print("chosen gene, hold-out R2:", r2_score(hold.yield_t, hold[g] * hold.yield_t.std()))
"""),
    "comprehension_table": ("""
tab = pd.DataFrame([{"feat": g, "ap": average_precision_score(plants.blight, plants[g])}
                    for g in Xp.columns])
tab = tab.sort_values(by="ap", ascending=False).set_index("feat")
lead = tab.index[0]
best_row = tab.loc[lead]
print(lead, "average precision", round(best_row.ap, 3))
""", """
a, b = train_test_split(plants, test_size=0.5, random_state=2)
tab = pd.DataFrame([{"feat": g, "ap": average_precision_score(a.blight, a[g])}
                    for g in Xp.columns])
tab = tab.sort_values(by="ap", ascending=False).set_index("feat")
lead = tab.index[0]
print(lead, "held-out average precision", round(average_precision_score(b.blight, b[lead]), 3))
"""),
}


@pytest.mark.parametrize("key", sorted(_WINNER_ROW))
def test_best_of_many_winner_row_reported(key: str) -> None:
    flawed, sound = _WINNER_ROW[key]
    f = one(H.run(RULES, flawed, PLANTS), "circular_validation.best_of_many_in_sample")
    assert f.severity == "high"
    quiet(H.run(RULES, sound, PLANTS))


# -- items picked by their association with the outcome, then their AUC on the same rows -------

_PICK_THEN_AUC = {
    "corrwith_sorted_slice": ("""
r = Xp.corrwith(plants.blight).sort_values(ascending=False)
keep = list(r.index[:3])
score = plants[keep].sum(axis=1)
print("panel AUC:", roc_auc_score(plants.blight, score))
""", """
disc, conf = train_test_split(plants, test_size=0.5, random_state=0)
r = disc[Xp.columns].corrwith(disc.blight).sort_values(ascending=False)
keep = list(r.index[:3])
print("panel AUC (confirmation half):", roc_auc_score(conf.blight, conf[keep].sum(axis=1)))
"""),
    "abs_corr_nlargest_roc_curve": ("""
assoc = Xp.corrwith(plants.blight).abs()
chosen = assoc.nlargest(2).index
fpr, tpr, thr = roc_curve(plants.blight, plants[chosen].mean(axis=1))
j = np.argmax(tpr - fpr)
print("sensitivity", tpr[j], "specificity", 1 - fpr[j])
""", """
disc, conf = train_test_split(plants, test_size=0.5, random_state=0)
assoc = disc[Xp.columns].corrwith(disc.blight).abs()
chosen = assoc.nlargest(2).index
fpr, tpr, thr = roc_curve(conf.blight, conf[chosen].mean(axis=1))
print("confirmation AUC points", len(thr))
"""),
    "sorted_head_ap": ("""
ranking = Xp.corrwith(plants.blight).sort_values(ascending=False).head(4).index
combo = plants[list(ranking)].sum(axis=1)
print("AP of the 4-gene score:", average_precision_score(plants.blight, combo))
""", """
half1, half2 = train_test_split(plants, test_size=0.5, random_state=3)
ranking = half1[Xp.columns].corrwith(half1.blight).sort_values(ascending=False).head(4).index
combo = half2[list(ranking)].sum(axis=1)
print("AP of the 4-gene score in half 2:", average_precision_score(half2.blight, combo))
"""),
}


@pytest.mark.parametrize("key", sorted(_PICK_THEN_AUC))
def test_items_picked_by_outcome_then_auc_on_same_rows(key: str) -> None:
    flawed, sound = _PICK_THEN_AUC[key]
    f = one(H.run(RULES, flawed, PLANTS), "circular_validation.selection_then_test_same_data")
    assert f.severity in ("high", "critical")
    quiet(H.run(RULES, sound, PLANTS))


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


def test_bar_checked_inside_candidate_loop_is_a_selection():
    # the flawed twin: the first depth whose test accuracy clears the bar is kept
    f = one(run("""
        chosen = None
        for depth in range(1, 10):
            acc = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(
                X_train, y_train).score(X_test, y_test)
            if acc > 0.93:
                chosen = depth
                break
        print(chosen, acc)
    """), "circular_validation.selection_on_test")
    assert f.severity == "critical"


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


def test_two_fitted_models_verdict_that_keeps_the_winner_is_a_selection():
    # the flawed twin: the comparison decides which model is kept and reported
    f = one(run("""
        import statsmodels.formula.api as smf
        train, test = homes.iloc[:300], homes.iloc[300:]
        small = smf.ols("price ~ sqft", data=train).fit()
        big = smf.ols("price ~ sqft + age + rooms", data=train).fit()
        mae_small = (small.predict(test) - test["price"]).abs().mean()
        mae_big = (big.predict(test) - test["price"]).abs().mean()
        if mae_big < mae_small:
            final, final_mae = big, mae_big
        else:
            final, final_mae = small, mae_small
        print(f"chosen model test MAE {final_mae:,.0f}")
    """, APPRAISALS), "circular_validation.selection_on_test")
    assert f.severity == "critical"


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


def test_numpy_verdict_printing_the_winners_score_is_still_a_selection():
    # a verdict that carries the winner's own test score reports the best of two estimates
    f = one(run("""
        from sklearn.linear_model import LinearRegression, Lasso
        X = homes[["sqft", "age", "rooms"]].to_numpy()
        y = homes["price"].to_numpy()
        X_tr, X_te, y_tr, y_te = X[:320], X[320:], y[:320], y[320:]
        r2_ols = LinearRegression().fit(X_tr, y_tr).score(X_te, y_te)
        r2_las = Lasso(alpha=50.0).fit(X_tr, y_tr).score(X_te, y_te)
        print(f"OLS wins, R2 {r2_ols:.3f}" if r2_ols > r2_las else f"Lasso wins, R2 {r2_las:.3f}")
    """, APPRAISALS), "circular_validation.selection_on_test")
    assert f.severity == "critical"


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
    found = run(_HAND_SELECT[key], CROPS)
    f = one(found, "circular_validation.selection_on_test")
    assert f.severity == "critical"
    assert not [g for g in found if g.rule_id == "circular_validation.best_of_many_in_sample"]


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
    flawed, sound = _POSITIONAL[key]
    f = one(run(flawed, CROPS), "circular_validation.selection_on_test")
    assert f.severity == "critical"
    quiet(run(sound, CROPS))


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


def test_choice_on_the_positional_head_reported_on_the_tail_is_quiet():
    # both scores of each candidate sit in one dict; the head (in-sample) score picks and only
    # the tail score of the winner is reported
    quiet(run("""
        F, t = fields[xs].to_numpy(), fields.yield_t.to_numpy()
        n_is = int(0.8 * len(F))
        rows = {}
        for a in alphas:
            m = Ridge(alpha=a).fit(F[:n_is], t[:n_is])
            rows[a] = {"in_mae": np.mean(np.abs(m.predict(F[:n_is]) - t[:n_is])),
                       "out_mae": np.mean(np.abs(m.predict(F[n_is:]) - t[n_is:]))}
        table = pd.DataFrame(rows).T
        best = table["in_mae"].idxmin()
        print(best, table.loc[best, "out_mae"])
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


def test_in_sample_accuracy_with_many_features_per_row_is_high():
    f = one(run("""
from sklearn.linear_model import LogisticRegression
wide = np.random.default_rng(5).normal(size=(60, 40))
grp = np.random.default_rng(6).integers(0, 2, 60)
clf = LogisticRegression(max_iter=1000).fit(wide, grp)
print("group decodable:", np.mean(clf.predict(wide) == grp))
""", HOUSES), IN_SAMPLE)
    assert f.severity == "high" and "40 features" in f.explanation
    assert not f.is_blocking(0.8)


# -- a threshold picked with numpy's nan-aware argmax over a test-set curve ---------------------

def test_pr_curve_f1_nanargmax_on_test_is_flagged():
    f = one(run("""
        clf = LogisticRegression(max_iter=5000).fit(X_train, y_train)
        s_te = clf.predict_proba(X_test)[:, 1]
        prec, rec, thr = precision_recall_curve(y_test, s_te)
        f1 = 2 * prec * rec / np.clip(prec + rec, 1e-12, None)
        i = int(np.nanargmax(f1[:-1]))
        print(f"threshold {thr[i]:.3f}: precision {prec[i]:.3f}, recall {rec[i]:.3f}")
    """), SEL)
    assert f.severity == "critical" and "threshold" in f.explanation


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
    one(run("""
        clf = LogisticRegression(max_iter=5000).fit(X_train, y_train)
        fpr, tpr, cut = roc_curve(y_test, clf.predict_proba(X_test)[:, 1])
        j = np.nanargmax(tpr - fpr)
        print(f"cut-off {cut[j]:.2f}: sensitivity {tpr[j]:.2f}, specificity {1 - fpr[j]:.2f}")
    """), SEL)


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
    one(run("""
        p_test = LogisticRegression(max_iter=5000).fit(X_train, y_train).predict_proba(X_test)[:, 1]
        grid = np.linspace(0.1, 0.9, 17)
        f1s = np.array([f1_score(y_test, p_test >= t) for t in grid])
        k = np.nanargmax(f1s)
        print(f"threshold {grid[k]:.2f}: F1 {f1s[k]:.3f}")
    """), SEL)


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


def test_cutoff_tuned_by_mae_dict_on_same_election_is_flagged():
    f = one(run("""
        p22 = polls[polls["cycle"] == 2022]
        truth22 = official.loc[2022]
        mae = {}
        for cut in range(0, 11):
            est = p22[p22["lv_scale"] >= cut].groupby("region")["vote_inc"].mean()
            mae[cut] = (100 * (est - truth22)).abs().mean()
        lv_cut = min(mae, key=mae.get)
        print(f"keep lv_scale >= {lv_cut}: track record MAE {mae[lv_cut]:.2f} pts")
    """, POLLS), BEST_OF)
    assert "mae[lv_cut]" in f.explanation and f.severity == "high"


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


def test_window_by_error_list_and_argmin_is_flagged():
    f = one(run("""
        windows = [3, 7, 14, 28, 56]
        errs = []
        for w in windows:
            fc = demand.rolling(w).mean().shift(1)
            errs.append(np.nanmean(np.abs(demand - fc)))
        i = int(np.argmin(errs))
        print(f"window {windows[i]}: forecast MAE {errs[i]:.2f}")
    """, POLLS), BEST_OF)
    assert "errs[i]" in f.explanation


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


def test_span_by_rmse_series_comprehension_and_min_is_flagged():
    f = one(run("""
        rmse = pd.Series({span: np.sqrt(((demand - demand.ewm(span=span).mean().shift(1))
                                         ** 2).mean()) for span in range(2, 40)})
        best = rmse.idxmin()
        print(f"span {best}: RMSE {rmse.min():.2f}")
    """, POLLS), BEST_OF)
    assert "rmse.min()" in f.explanation


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
    f = one(run("""
        rmse = {}
        for name, est in cands.items():
            m = est.fit(cal[feats], cal.t)
            rmse[name] = mean_squared_error(ind.t, m.predict(ind[feats])) ** 0.5
        rmse = pd.Series(rmse).sort_values()
        print(f"selected {rmse.index[0]}: independent RMSE {rmse.iloc[0]:.3f}")
    """, PERIODS), BEST_OF)
    assert "rmse.iloc[0]" in f.explanation


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
    one(run("""
        rows = []
        for name, est in cands.items():
            pred = est.fit(cal[feats], cal.t).predict(ind[feats])
            rows.append({"model": name, "rmse": mean_squared_error(ind.t, pred) ** 0.5})
        board = pd.DataFrame(rows).sort_values("rmse")
        print(board.iloc[0])
    """, PERIODS), BEST_OF)


def test_results_frame_sorted_winner_name_only_then_scored_later_is_quiet():
    silent([f for f in run("""
        rows = []
        for name, est in cands.items():
            pred = est.fit(cal.loc[:"2005", feats], cal.loc[:"2005", "t"]).predict(
                cal.loc["2006":, feats])
            rows.append({"model": name,
                         "rmse": mean_squared_error(cal.loc["2006":, "t"], pred) ** 0.5})
        board = pd.DataFrame(rows).sort_values("rmse")
        print("chosen on 2006-2010:", board.iloc[0]["model"])
        final = cands[board.iloc[0]["model"]].fit(cal[feats], cal.t)
        print(f"2011-2020 RMSE {mean_squared_error(ind.t, final.predict(ind[feats])) ** 0.5:.3f}")
    """, PERIODS) if f.rule_id == BEST_OF])


def test_nsmallest_of_same_rows_rmse_first_is_flagged():
    one(run("""
        rmse = pd.Series({name: mean_squared_error(ind.t, est.fit(cal[feats], cal.t)
                                                   .predict(ind[feats])) ** 0.5
                          for name, est in cands.items()})
        top = rmse.nsmallest(3)
        print(top.round(3).to_string())
        print(f"best: {top.index[0]} at {top.iloc[0]:.3f}")
    """, PERIODS), BEST_OF)


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


def test_members_chosen_by_correlation_then_subset_skill_on_same_record_is_flagged():
    f = one(run("""
        r_mem = np.array([np.corrcoef(m, tas_obs)[0, 1] for m in tas_ens])
        best5 = np.argsort(r_mem)[::-1][:5]

        def skill(sim, o):
            return np.corrcoef(sim, o)[0, 1], np.sqrt(np.mean((sim - o) ** 2))

        r_sel, e_sel = skill(tas_ens[best5].mean(axis=0), tas_obs)
        print(f"selected 5-member mean: r = {r_sel:.3f}, RMSE = {e_sel:.3f}")
    """, ENSEMBLE), DIP)
    assert "skill" in f.explanation and "p-value" not in f.explanation


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


def test_members_by_corrwith_nlargest_then_corrcoef_of_composite_is_flagged():
    one(run("""
        r = members.corrwith(obs)
        top = r.nlargest(5).index
        composite = members[top].mean(axis=1)
        print(f"constrained composite vs obs: r = {np.corrcoef(composite, obs)[0, 1]:.3f}")
    """, ENSEMBLE), DIP)


def test_members_by_corrwith_on_early_rows_corrcoef_on_the_rest_is_quiet():
    silent(run("""
        early = members.index <= 1985
        r = members[early].corrwith(obs[early])
        top = r.nlargest(5).index
        composite = members[top].mean(axis=1)
        print(f"after 1985: r = {np.corrcoef(composite[~early], obs[~early])[0, 1]:.3f}")
    """, ENSEMBLE))


def test_proxies_screened_by_pearsonr_then_rmse_helper_on_same_years_is_flagged():
    one(run("""
        def rmse(a, b):
            return float(np.sqrt(np.mean((a - b) ** 2)))

        r = np.array([pearsonr(proxies[:, j], tas_obs)[0] for j in range(proxies.shape[1])])
        keep = np.argsort(np.abs(r))[-8:]
        recon = proxies[:, keep].mean(axis=1)
        print(f"reconstruction RMSE: {rmse(recon / 0.3 - recon.mean() / 0.3, tas_obs):.3f}")
    """, ENSEMBLE), DIP)


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
