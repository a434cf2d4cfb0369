"""leakage: preprocessing / feature selection / target encoding / oversampling fitted on data
that includes the test rows, and models scored on rows they were trained on. Flawed cells and
their sound twins, run in-process for real kernel facts."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules import leakage as L
from tests import rule_helpers as H
from tests.inprocess_evidence import evidence, run_and_gather
from tests.rule_helpers import one, quiet, silent

RULES = L.RULES

DIABETES = """
import numpy as np
import pandas as pd
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge, LogisticRegression
from sklearn.model_selection import train_test_split, cross_val_score, KFold, GridSearchCV
from sklearn.preprocessing import StandardScaler, MinMaxScaler
d = load_diabetes(as_frame=True)
df = d.frame.copy()
features = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]
X_np, y_np = d.data.to_numpy(), d.target.to_numpy()
"""

CLASSIF = """
import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split, cross_val_score, StratifiedKFold
X, y = make_classification(n_samples=240, n_features=30, n_informative=4, random_state=0)
frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(30)]).assign(label=y)
"""


def run(code: str, setup: str = DIABETES) -> list[Finding]:
    return H.run(RULES, code, setup)


# -- preprocessing before the split: flawed ----------------------------------------------------

def test_numpy_scaler_fit_transform_then_split_is_critical():
    found = run("""
        scaler = StandardScaler()
        X_scaled = scaler.fit_transform(X_np)
        X_train, X_test, y_train, y_test = train_test_split(X_scaled, y_np, random_state=0)
        model = Ridge().fit(X_train, y_train)
        print(model.score(X_test, y_test))
    """)
    f = one(found, "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and f.confidence >= 0.9  # n_samples_seen_ 442 > 331 train rows
    assert f.evidence["values"]["n_samples_seen_"] == 442
    assert f.evidence["values"]["X_train rows"] == 331
    assert f.lines == [3, 4]
    assert "StandardScaler" in f.explanation and "Pipeline" in f.suggestion


def test_one_liner_scaler_on_frame_then_cross_val_score():
    f = one(run("""
        X = StandardScaler().fit_transform(df[features])
        scores = cross_val_score(Ridge(), X, df["target"], cv=5)
        print(scores.mean())
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and f.lines == [2, 3]
    assert "cross_val_score" in f.explanation


def test_pandas_zscore_of_whole_frame_then_split():
    f = one(run("""
        X = df[features]
        X = (X - X.mean()) / X.std()
        X_tr, X_te, y_tr, y_te = train_test_split(X, df.target, test_size=0.3, random_state=1)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and 3 in f.lines and 4 in f.lines
    assert "statistics" in f.explanation


def test_minmax_by_column_in_a_loop_then_manual_split():
    f = one(run("""
        data = df.copy()
        for c in features:
            data[c] = (data[c] - data[c].min()) / (data[c].max() - data[c].min())
        cut = int(0.8 * len(data))
        train, test = data.iloc[:cut], data.iloc[cut:]
        m = Ridge().fit(train[features], train["target"])
        print(m.score(test[features], test["target"]))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_fillna_with_full_mean_then_split():
    f = one(run("""
        data = df.copy()
        data.loc[::7, "bmi"] = np.nan
        data["bmi"] = data["bmi"].fillna(data["bmi"].mean())
        X_train, X_test, y_train, y_test = train_test_split(data[features], data.target,
                                                            random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_sklearn_scale_function_then_cross_val_score():
    f = one(run("""
        from sklearn.preprocessing import scale
        Xs = scale(X_np)
        print(cross_val_score(Ridge(), Xs, y_np, cv=5).mean())
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "scale" in f.explanation


def test_scipy_zscore_then_split():
    f = one(run("""
        from scipy import stats
        Z = stats.zscore(X_np)
        X_train, X_test, y_train, y_test = train_test_split(Z, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_scaler_fit_on_all_then_applied_to_each_split():
    f = one(run("""
        scaler = MinMaxScaler().fit(X_np)
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        X_train = scaler.transform(X_train)
        X_test = scaler.transform(X_test)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and f.confidence >= 0.9
    assert f.lines[0] == 2


def test_imputer_and_pca_before_kfold_loop():
    found = run("""
        from sklearn.impute import SimpleImputer
        from sklearn.decomposition import PCA
        X_imp = SimpleImputer(strategy="median").fit_transform(X_np)
        pca = PCA(n_components=5).fit(X_imp)
        Z = pca.transform(X_imp)
        scores = []
        for tr, te in KFold(5, shuffle=True, random_state=0).split(Z):
            m = Ridge().fit(Z[tr], y_np[tr])
            scores.append(m.score(Z[te], y_np[te]))
        print(np.mean(scores))
    """)
    f = one(found, "leakage.preprocessing_before_split")  # one finding per leaked split
    assert f.is_blocking(0.8) and f.lines == [4, 5, 8]
    assert {f.evidence["values"]["fitted"], *f.evidence["values"]["also_fitted"]} == \
        {"SimpleImputer", "PCA"}


def test_indices_from_kfold_on_raw_x_index_prescaled_array():
    f = one(run("""
        Xs = StandardScaler().fit_transform(X_np)
        kf = KFold(n_splits=5, shuffle=True, random_state=0)
        r2 = []
        for fold, (tr_idx, te_idx) in enumerate(kf.split(X_np)):
            m = Ridge().fit(Xs[tr_idx], y_np[tr_idx])
            r2.append(m.score(Xs[te_idx], y_np[te_idx]))
        print(np.mean(r2))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_helper_function_that_fits_on_its_argument():
    f = one(run("""
        def preprocess(frame):
            scaler = StandardScaler()
            return scaler.fit_transform(frame)

        X_p = preprocess(df[features])
        X_train, X_test, y_train, y_test = train_test_split(X_p, df.target, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "preprocess" in f.explanation
    assert f.lines == [6, 7]


def test_helper_function_that_scales_then_cross_validates():
    f = one(run("""
        def evaluate(model, X, y):
            X = StandardScaler().fit_transform(X)
            return cross_val_score(model, X, y, cv=5).mean()

        print(evaluate(Ridge(), X_np, y_np))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_pipeline_of_polynomial_and_scaler_fit_before_split():
    from sklearn.pipeline import make_pipeline  # noqa: F401  (import check only)
    f = one(run("""
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import PolynomialFeatures
        prep = make_pipeline(PolynomialFeatures(2), StandardScaler())
        Xp = prep.fit_transform(X_np)
        X_train, X_test, y_train, y_test = train_test_split(Xp, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "StandardScaler" in f.explanation


def test_scaler_in_an_earlier_cell_split_in_this_cell():
    setup = DIABETES + "\nX_all = StandardScaler().fit_transform(X_np)\n"
    f = one(run("""
        X_train, X_test, y_train, y_test = train_test_split(X_all, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """, setup), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and f.lines == [2]
    assert "earlier cell" in f.explanation


def test_truncated_earlier_cells_are_reparsed_from_a_cell_boundary():
    prior = ("ures = pd.read_csv('x.csv')\n    broken(\n\n"   # the cut-off start of a notebook
             "from sklearn.preprocessing import StandardScaler\n\n"
             "X_all = StandardScaler().fit_transform(X)\n")
    ev = evidence("""
        from sklearn.model_selection import train_test_split
        X_train, X_test, y_train, y_test = train_test_split(X_all, y)
    """, prior_code=prior)
    found = H.check(RULES, ev)
    f = one(found, "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "earlier cell" in f.explanation


def test_scaler_fit_on_train_and_test_stacked():
    f = one(run("""
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        scaler = StandardScaler().fit(np.vstack([X_train, X_test]))
        m = Ridge().fit(scaler.transform(X_train), y_train)
        print(m.score(scaler.transform(X_test), y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_polynomial_features_alone_is_only_a_low_note():
    found = run("""
        from sklearn.preprocessing import PolynomialFeatures
        Xp = PolynomialFeatures(degree=2).fit_transform(X_np)
        X_train, X_test, y_train, y_test = train_test_split(Xp, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """)
    quiet(found)
    f = one(found, "leakage.preprocessing_before_split")
    assert f.severity == "low" and "stateless" in f.explanation


def test_one_hot_encoder_on_all_rows_is_medium():
    found = run("""
        from sklearn.preprocessing import OneHotEncoder
        cats = pd.DataFrame({"g": np.where(df.sex > 0, "a", "b")})
        enc = OneHotEncoder().fit(cats)
        G = enc.transform(cats).toarray()
        X_train, X_test, y_train, y_test = train_test_split(G, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """)
    quiet(found)
    assert one(found, "leakage.preprocessing_before_split").severity == "medium"


def test_gridsearch_on_prescaled_data():
    f = one(run("""
        X_s = StandardScaler().fit_transform(X_np)
        grid = GridSearchCV(Ridge(), {"alpha": [0.1, 1, 10]}, cv=5).fit(X_s, y_np)
        print(grid.best_score_)
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "GridSearchCV" in f.explanation


def test_in_place_numpy_centering_and_scaling():
    f = one(run("""
        X = X_np.copy()
        X -= X.mean(axis=0)
        X /= X.std(axis=0)
        print(cross_val_score(Ridge(), X, y_np, cv=5).mean())
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and f.lines == [3, 4, 5]


def test_apply_lambda_zscore_per_column():
    f = one(run("""
        X = df[features].apply(lambda c: (c - c.mean()) / c.std())
        X_tr, X_te, y_tr, y_te = train_test_split(X, df.target, random_state=0)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_scaled_columns_written_into_a_copy_then_split():
    f = one(run("""
        scaler = StandardScaler()
        scaled = df.copy()
        scaled[features] = scaler.fit_transform(df[features])
        X_tr, X_te, y_tr, y_te = train_test_split(scaled[features], scaled["target"],
                                                  random_state=0)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and f.confidence >= 0.9  # n_samples_seen_ 442 > 331
    assert f.evidence["values"]["n_samples_seen_"] == 442


def test_column_transformer_fit_on_all_rows():
    f = one(run("""
        from sklearn.compose import ColumnTransformer
        from sklearn.preprocessing import OneHotEncoder
        frame = df.assign(band=np.where(df.bmi > 0, "hi", "lo"))
        ct = ColumnTransformer([("num", StandardScaler(), ["bmi", "bp"]),
                                ("cat", OneHotEncoder(), ["band"])])
        Xt = ct.fit_transform(frame)
        X_tr, X_te, y_tr, y_te = train_test_split(Xt, frame.target, random_state=0)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "StandardScaler" in f.explanation


def test_manual_positional_split_after_scaling():
    f = one(run("""
        X = StandardScaler().fit_transform(df[features])
        n = int(0.8 * len(X))
        X_train, X_test, y_train, y_test = X[:n], X[n:], df.target[:n], df.target[n:]
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "split by hand" in f.explanation


def test_offset_by_full_minimum_is_only_medium():
    found = run("""
        data = df.assign(day=pd.date_range("2020-01-01", periods=len(df)))
        data["days"] = (data.day - data.day.min()).dt.days
        data["log_s4"] = np.log(data.s4 - data.s4.min() + 1)
        X_tr, X_te, y_tr, y_te = train_test_split(data[["bmi", "days", "log_s4"]], data.target,
                                                  random_state=0)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """)
    quiet(found)
    assert one(found, "leakage.preprocessing_before_split").severity == "medium"


def test_code_only_evidence_still_flags():
    ev = evidence("""
        from sklearn.preprocessing import StandardScaler
        from sklearn.model_selection import train_test_split
        X = StandardScaler().fit_transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X, y)
    """)
    found = H.check(RULES, ev)
    f = one(found, "leakage.preprocessing_before_split")
    assert f.severity == "critical" and f.confidence >= 0.85


# -- preprocessing: sound twins ----------------------------------------------------------------

def test_split_then_fit_scaler_on_train_is_quiet():
    quiet(run("""
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        scaler = StandardScaler().fit(X_train)
        X_train_s, X_test_s = scaler.transform(X_train), scaler.transform(X_test)
        print(Ridge().fit(X_train_s, y_train).score(X_test_s, y_test))
    """))


def test_fit_transform_on_train_transform_on_test_is_quiet():
    silent(run("""
        X_train, X_test, y_train, y_test = train_test_split(df[features], df.target,
                                                            random_state=0)
        scaler = StandardScaler()
        X_train = scaler.fit_transform(X_train)
        X_test = scaler.transform(X_test)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """))


def test_pipeline_inside_cross_val_score_is_quiet():
    silent(run("""
        from sklearn.pipeline import make_pipeline
        model = make_pipeline(StandardScaler(), Ridge())
        print(cross_val_score(model, X_np, y_np, cv=5).mean())
    """))


def test_pipeline_in_gridsearch_on_train_is_quiet():
    silent(run("""
        from sklearn.pipeline import Pipeline
        pipe = Pipeline([("sc", StandardScaler()), ("ridge", Ridge())])
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        grid = GridSearchCV(pipe, {"ridge__alpha": [0.1, 1, 10]}, cv=5).fit(X_train, y_train)
        print(grid.best_params_, grid.score(X_test, y_test))
    """))


def test_scaler_fit_inside_each_fold_is_quiet():
    silent(run("""
        scores = []
        for tr, te in KFold(5, shuffle=True, random_state=0).split(X_np):
            sc = StandardScaler().fit(X_np[tr])
            m = Ridge().fit(sc.transform(X_np[tr]), y_np[tr])
            scores.append(m.score(sc.transform(X_np[te]), y_np[te]))
        print(np.mean(scores))
    """))


def test_pandas_stats_from_train_only_is_quiet():
    silent(run("""
        cut = int(0.8 * len(df))
        train, test = df.iloc[:cut].copy(), df.iloc[cut:].copy()
        mu, sd = train[features].mean(), train[features].std()
        train[features] = (train[features] - mu) / sd
        test[features] = (test[features] - mu) / sd
        m = Ridge().fit(train[features], train.target)
        print(m.score(test[features], test.target))
    """))


def test_helper_fitting_on_its_train_argument_is_quiet():
    silent(run("""
        def scale_pair(a, b):
            s = StandardScaler().fit(a)
            return s.transform(a), s.transform(b)

        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        A, B = scale_pair(X_train, X_test)
        print(Ridge().fit(A, y_train).score(B, y_test))
    """))


def test_pca_on_all_rows_for_a_plot_only_is_quiet():
    silent(run("""
        import matplotlib.pyplot as plt
        from sklearn.decomposition import PCA
        Z = PCA(n_components=2).fit_transform(StandardScaler().fit_transform(X_np))
        plt.scatter(Z[:, 0], Z[:, 1], c=y_np)
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """))


def test_target_scaling_and_label_encoding_are_quiet():
    quiet(run("""
        from sklearn.preprocessing import LabelEncoder
        y_std = (y_np - y_np.mean()) / y_np.std()
        grade = LabelEncoder().fit_transform(np.where(y_np > 140, "high", "low"))
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_std, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """))


def test_row_wise_normalisation_and_outlier_filter_are_quiet():
    silent(run("""
        data = df[df.bmi < df.bmi.quantile(0.99)]
        X = data[features].to_numpy()
        X = X / np.abs(X).sum(axis=1, keepdims=True)
        X_train, X_test, y_train, y_test = train_test_split(X, data.target, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """))


def test_refit_on_train_plus_validation_then_test_is_quiet():
    silent(run("""
        X_tmp, X_test, y_tmp, y_test = train_test_split(X_np, y_np, test_size=0.2,
                                                        random_state=0)
        X_tr, X_val, y_tr, y_val = train_test_split(X_tmp, y_tmp, test_size=0.25,
                                                    random_state=0)
        sc = StandardScaler().fit(X_tr)
        best = max([0.1, 1, 10], key=lambda a: Ridge(alpha=a).fit(sc.transform(X_tr), y_tr)
                   .score(sc.transform(X_val), y_val))
        sc = StandardScaler().fit(X_tmp)
        final = Ridge(alpha=best).fit(sc.transform(X_tmp), y_tmp)
        print(final.score(sc.transform(X_test), y_test))
    """))


def test_scaler_fit_on_train_in_an_earlier_cell_is_quiet():
    setup = DIABETES + """
X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
scaler = StandardScaler().fit(X_train)
"""
    silent(run("""
        model = Ridge().fit(scaler.transform(X_train), y_train)
        print(model.score(scaler.transform(X_test), y_test))
    """, setup))


# -- feature selection -----------------------------------------------------------------------

def test_selectkbest_on_all_rows_then_cross_val_score():
    f = one(run("""
        from sklearn.feature_selection import SelectKBest, f_classif
        X_sel = SelectKBest(f_classif, k=5).fit_transform(X, y)
        print(cross_val_score(LogisticRegression(), X_sel, y, cv=5).mean())
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8) and f.confidence >= 0.9
    assert "labels" in f.explanation


def test_rfe_before_split():
    f = one(run("""
        from sklearn.feature_selection import RFE
        selector = RFE(LogisticRegression(max_iter=500), n_features_to_select=5).fit(X, y)
        X_small = selector.transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X_small, y, random_state=0)
        print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_correlation_with_target_on_full_frame_then_cv():
    f = one(run("""
        corr = frame.corr()["label"].abs().drop("label")
        top = corr.sort_values(ascending=False).index[:5]
        print(cross_val_score(LogisticRegression(), frame[top], frame["label"], cv=5).mean())
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8) and "correlation" in f.explanation


def test_pearsonr_screening_loop_then_split():
    f = one(run("""
        from scipy.stats import pearsonr
        keep = []
        for c in frame.columns.drop("label"):
            r, p = pearsonr(frame[c], frame["label"])
            if p < 0.05:
                keep.append(c)
        X_tr, X_te, y_tr, y_te = train_test_split(frame[keep], frame.label, random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_corrwith_target_top_k_then_cv():
    f = one(run("""
        feats = frame.drop(columns="label")
        top = feats.corrwith(frame.label).abs().nlargest(5).index
        print(cross_val_score(LogisticRegression(), frame[top], frame.label, cv=5).mean())
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_mutual_information_screen_then_split():
    f = one(run("""
        from sklearn.feature_selection import mutual_info_classif
        mi = mutual_info_classif(X, y, random_state=0)
        keep = np.argsort(mi)[-5:]
        X_tr, X_te, y_tr, y_te = train_test_split(X[:, keep], y, random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_select_from_model_on_all_rows():
    f = one(run("""
        from sklearn.feature_selection import SelectFromModel
        sfm = SelectFromModel(LogisticRegression(penalty="l1", solver="liblinear")).fit(X, y)
        print(cross_val_score(LogisticRegression(), sfm.transform(X), y, cv=5).mean())
    """, CLASSIF), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_importances_of_a_model_fit_on_all_rows_pick_features():
    found = run("""
        from sklearn.ensemble import RandomForestClassifier
        rf = RandomForestClassifier(n_estimators=30, random_state=0).fit(X, y)
        top = np.argsort(rf.feature_importances_)[-5:]
        print(cross_val_score(LogisticRegression(), X[:, top], y, cv=5).mean())
    """, CLASSIF)
    f = one(found, "leakage.feature_selection_before_split")
    assert f.severity == "high" and f.confidence == 0.7


def test_variance_threshold_before_cv_is_preprocessing():
    f = one(run("""
        from sklearn.feature_selection import VarianceThreshold
        Xv = VarianceThreshold(0.5).fit_transform(X)
        print(cross_val_score(LogisticRegression(), Xv, y, cv=5).mean())
    """, CLASSIF), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8)


def test_selection_inside_pipeline_is_quiet():
    silent(run("""
        from sklearn.feature_selection import SelectKBest, f_classif
        from sklearn.pipeline import make_pipeline
        pipe = make_pipeline(SelectKBest(f_classif, k=5), LogisticRegression())
        print(cross_val_score(pipe, X, y, cv=5).mean())
    """, CLASSIF))


def test_selection_on_train_then_test_is_quiet():
    quiet(run("""
        from sklearn.feature_selection import SelectKBest, f_classif
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        sel = SelectKBest(f_classif, k=5).fit(X_train, y_train)
        m = LogisticRegression().fit(sel.transform(X_train), y_train)
        print(m.score(sel.transform(X_test), y_test))
    """, CLASSIF))


def test_feature_feature_correlation_pruning_is_quiet():
    silent(run("""
        c = frame.drop(columns="label").corr().abs()
        upper = c.where(np.triu(np.ones(c.shape), k=1).astype(bool))
        to_drop = [col for col in upper.columns if (upper[col] > 0.9).any()]
        X_pruned = frame.drop(columns=to_drop + ["label"])
        print(cross_val_score(LogisticRegression(), X_pruned, frame.label, cv=5).mean())
    """, CLASSIF))


def test_selectkbest_on_train_then_cv_on_train_is_medium_only():
    found = run("""
        from sklearn.feature_selection import SelectKBest, f_classif
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        X_tr_sel = SelectKBest(f_classif, k=5).fit_transform(X_train, y_train)
        print(cross_val_score(LogisticRegression(), X_tr_sel, y_train, cv=5).mean())
    """, CLASSIF)
    quiet(found)
    assert one(found, "leakage.feature_selection_before_split").severity == "medium"


# correlation screens whose target has no target-like name: it is known as the target because
# it is what the model is cross-validated / split against
ASSAY = """
import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, TimeSeriesSplit, cross_val_score, cross_validate, \\
    train_test_split
rng = np.random.default_rng(21)
n, p = 120, 300
expr = pd.DataFrame(rng.normal(size=(n, p)), columns=[f"g{j}" for j in range(p)])
survival_days = pd.Series(400 + 30 * expr.g0 + rng.normal(0, 90, n), name="survival_days")
churned = (expr.g1 + rng.normal(0, 2, n) > 0).astype(int)
expr_np = expr.to_numpy()
"""


def test_numpy_corrcoef_screen_on_all_rows_then_cv():
    f = one(run("""
        r = np.array([np.corrcoef(expr_np[:, j], churned)[0, 1] for j in range(p)])
        keep = np.argsort(-np.abs(r))[:10]
        acc = cross_val_score(LogisticRegression(), expr_np[:, keep], churned, cv=5)
        print(f"accuracy {acc.mean():.3f}")
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8) and "correlation" in f.explanation


def test_apply_corr_lambda_screen_then_split():
    f = one(run("""
        strength = expr.apply(lambda col: col.corr(churned)).abs()
        top = strength.sort_values(ascending=False).index[:10]
        X_tr, X_te, c_tr, c_te = train_test_split(expr[top], churned, random_state=0)
        print(LogisticRegression().fit(X_tr, c_tr).score(X_te, c_te))
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_spearman_dict_screen_then_cross_validate():
    f = one(run("""
        rho = {g: spearmanr(expr[g], survival_days)[0] for g in expr.columns}
        chosen = sorted(rho, key=lambda g: -abs(rho[g]))[:15]
        res = cross_validate(Ridge(), expr[chosen], survival_days, cv=KFold(5))
        print(res["test_score"].mean())
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_corrwith_screen_against_a_series_then_time_series_cv():
    f = one(run("""
        signal = expr.corrwith(survival_days).abs().nlargest(8).index
        cv_r2 = cross_val_score(Ridge(), expr[signal], survival_days, cv=TimeSeriesSplit(4))
        print(cv_r2.mean())
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_corrwith_screen_on_the_training_rows_only_is_quiet():
    quiet(run("""
        X_tr, X_te, s_tr, s_te = train_test_split(expr, survival_days, random_state=0)
        signal = X_tr.corrwith(s_tr).abs().nlargest(8).index
        model = Ridge().fit(X_tr[signal], s_tr)
        print(model.score(X_te[signal], s_te))
    """, ASSAY))


def test_exploratory_corrwith_next_to_cv_on_all_features_is_quiet():
    silent(run("""
        print(expr.corrwith(survival_days).abs().nlargest(5))
        print(cross_val_score(Ridge(alpha=10.0), expr, survival_days, cv=KFold(5)).mean())
    """, ASSAY))


def test_two_sample_test_screen_between_target_classes_then_cv():
    f = one(run("""
        from scipy import stats
        t, pv = stats.ttest_ind(expr_np[churned == 1], expr_np[churned == 0])
        keep = np.argsort(pv)[:10]
        print(cross_val_score(LogisticRegression(), expr_np[:, keep], churned, cv=5).mean())
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_mann_whitney_dict_screen_then_split():
    f = one(run("""
        from scipy.stats import mannwhitneyu
        pvals = {g: mannwhitneyu(expr.loc[churned == 1, g], expr.loc[churned == 0, g]).pvalue
                 for g in expr.columns}
        top = sorted(pvals, key=pvals.get)[:10]
        X_tr, X_te, c_tr, c_te = train_test_split(expr[top], churned, random_state=0)
        print(LogisticRegression().fit(X_tr, c_tr).score(X_te, c_te))
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_per_feature_statsmodels_formula_screen_then_cv():
    f = one(run("""
        import statsmodels.formula.api as smf
        df = expr.iloc[:, :40].assign(outcome=survival_days)
        keep = [g for g in df.columns[:-1]
                if smf.ols(f"outcome ~ {g}", data=df).fit().pvalues[g] < 0.05]
        print(cross_val_score(Ridge(), df[keep], df.outcome, cv=5).mean())
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_per_feature_statsmodels_logit_screen_loop_then_cv():
    f = one(run("""
        import statsmodels.api as sm
        kept = []
        for g in expr.columns[:30]:
            res = sm.Logit(churned, sm.add_constant(expr[[g]])).fit(disp=0)
            if res.pvalues[g] < 0.1:
                kept.append(g)
        print(cross_val_score(LogisticRegression(), expr[kept], churned, cv=5).mean())
    """, ASSAY), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)


def test_two_sample_screen_on_the_training_rows_only_is_quiet():
    quiet(run("""
        from scipy import stats
        X_tr, X_te, c_tr, c_te = train_test_split(expr_np, churned.to_numpy(), random_state=0)
        _, pv = stats.ttest_ind(X_tr[c_tr == 1], X_tr[c_tr == 0])
        keep = np.argsort(pv)[:10]
        clf = LogisticRegression().fit(X_tr[:, keep], c_tr)
        print(clf.score(X_te[:, keep], c_te))
    """, ASSAY))


def test_group_comparison_of_a_non_target_and_one_outcome_model_are_quiet():
    silent(run("""
        import statsmodels.api as sm
        from scipy import stats
        site = (expr.g5 > 0).astype(int)
        print(stats.ttest_ind(expr_np[site == 1], expr_np[site == 0]).pvalue[:5])
        print(sm.OLS(survival_days, sm.add_constant(expr.iloc[:, :5])).fit().rsquared)
        print(cross_val_score(Ridge(alpha=10.0), expr, survival_days, cv=KFold(5)).mean())
    """, ASSAY))


# -- target encoding and oversampling ---------------------------------------------------------

LEADS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(3)
n = 400
leads = pd.DataFrame({"city": rng.choice(list("ABCDEFGHIJ"), n), "visits": rng.poisson(3, n)})
leads["converted"] = (rng.random(n) < 0.2 + 0.05 * leads.visits.clip(0, 8) / 8).astype(int)
"""


def test_groupby_target_mean_map_before_split():
    f = one(run("""
        rate = leads.groupby("city")["converted"].mean()
        leads["city_rate"] = leads["city"].map(rate)
        X = leads[["visits", "city_rate"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, leads["converted"], random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, LEADS), "leakage.target_encoding_before_split")
    assert f.is_blocking(0.8) and "own label" in f.explanation


def test_target_encoding_on_train_only_is_quiet():
    silent(run("""
        train, test = train_test_split(leads, random_state=0)
        rate = train.groupby("city")["converted"].mean()
        train = train.assign(city_rate=train.city.map(rate))
        test = test.assign(city_rate=test.city.map(rate).fillna(train.converted.mean()))
        m = LogisticRegression().fit(train[["visits", "city_rate"]], train.converted)
        print(m.score(test[["visits", "city_rate"]], test.converted))
    """, LEADS))


def test_target_encoding_in_a_helper_called_with_column_names_before_split():
    # the target column reaches the groupby only as a string argument of a helper
    f = one(run("""
        def smoothed_rate(frame, key, outcome, k=20):
            stats = frame.groupby(key)[outcome].agg(["sum", "count"])
            prior = frame[outcome].mean()
            return (stats["sum"] + k * prior) / (stats["count"] + k)

        leads["city_rate"] = leads["city"].map(smoothed_rate(leads, "city", "converted"))
        X_tr, X_te, y_tr, y_te = train_test_split(leads[["visits", "city_rate"]],
                                                  leads.converted, random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, LEADS), "leakage.target_encoding_before_split")
    assert f.is_blocking(0.8)


def test_target_encoding_helper_with_keyword_target_in_cv():
    f = one(run("""
        from sklearn.model_selection import cross_val_score

        def encode(df, col, target):
            return df[col].map(df.groupby(col)[target].mean())

        leads["city_enc"] = encode(leads, col="city", target="converted")
        print(cross_val_score(LogisticRegression(), leads[["visits", "city_enc"]],
                              leads.converted, cv=5).mean())
    """, LEADS), "leakage.target_encoding_before_split")
    assert f.severity in H.LOUD


def test_target_encoding_helper_fitted_on_train_only_is_quiet():
    quiet(run("""
        def smoothed_rate(frame, key, outcome, k=20):
            stats = frame.groupby(key)[outcome].agg(["sum", "count"])
            prior = frame[outcome].mean()
            return (stats["sum"] + k * prior) / (stats["count"] + k)

        train, test = train_test_split(leads, random_state=0)
        rate = smoothed_rate(train, "city", "converted")
        train = train.assign(city_rate=train.city.map(rate))
        test = test.assign(city_rate=test.city.map(rate).fillna(rate.mean()))
        m = LogisticRegression().fit(train[["visits", "city_rate"]], train.converted)
        print(m.score(test[["visits", "city_rate"]], test.converted))
    """, LEADS))


def test_helper_grouping_a_non_target_column_is_quiet():
    quiet(run("""
        def group_mean(frame, key, col):
            return frame.groupby(key)[col].mean()

        leads["city_visits"] = leads.city.map(group_mean(leads, "city", "visits"))
        X_tr, X_te, y_tr, y_te = train_test_split(leads[["visits", "city_visits"]],
                                                  leads.converted, random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, LEADS))


def test_unrelated_groupby_feature_is_not_target_encoding():
    quiet(run("""
        leads["city_visits"] = leads.groupby("city")["visits"].transform("mean")
        X_tr, X_te, y_tr, y_te = train_test_split(leads[["visits", "city_visits"]],
                                                  leads.converted, random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, LEADS))


def test_upsampling_minority_with_replacement_before_split():
    f = one(run("""
        from sklearn.utils import resample
        minority = leads[leads.converted == 1]
        majority = leads[leads.converted == 0]
        up = resample(minority, replace=True, n_samples=len(majority), random_state=0)
        balanced = pd.concat([majority, up])
        X_tr, X_te, y_tr, y_te = train_test_split(balanced[["visits"]], balanced.converted,
                                                  random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, LEADS), "leakage.resampling_before_split")
    assert f.is_blocking(0.8)


def test_upsampling_the_training_part_only_is_quiet():
    silent(run("""
        from sklearn.utils import resample
        train, test = train_test_split(leads, random_state=0, stratify=leads.converted)
        minority = train[train.converted == 1]
        up = resample(minority, replace=True, n_samples=len(train) - len(minority),
                      random_state=0)
        train_bal = pd.concat([train[train.converted == 0], up])
        m = LogisticRegression().fit(train_bal[["visits"]], train_bal.converted)
        print(m.score(test[["visits"]], test.converted))
    """, LEADS))


def test_smote_like_fit_resample_is_flagged_from_code():
    ev = evidence("""
        from imblearn.over_sampling import SMOTE
        from sklearn.model_selection import cross_val_score
        X_res, y_res = SMOTE(random_state=0).fit_resample(X, y)
        print(cross_val_score(model, X_res, y_res, cv=5).mean())
    """)
    found = H.check(RULES, ev)
    assert one(found, "leakage.resampling_before_split").is_blocking(0.8)


# -- test rows in training -------------------------------------------------------------------

def test_model_fit_on_all_rows_scored_on_test_split():
    f = one(run("""
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        model = Ridge().fit(X_np, y_np)
        print("test R2", model.score(X_test, y_test))
    """), "leakage.test_rows_in_training")
    assert f.is_blocking(0.8) and f.lines == [3, 4]


def test_model_fit_on_train_scored_on_test_is_quiet():
    silent(run("""
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        model = Ridge().fit(X_train, y_train)
        print("test R2", model.score(X_test, y_test))
        final = Ridge().fit(X_np, y_np)   # refit on everything for deployment
    """))


# -- robustness ------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "x = (",                      # syntax error
    "",                           # empty
    "print('hello')",
    "fit = 3\nsplit = fit + 1",
    "for a, b in zip(x, y):\n    a.fit(b)\n",
    "def f(*args, **kw):\n    return f(*args)\nf(1, x=2)\n",
    "lambda: (yield)",
    "X[::2] = scaler.fit_transform(X)[::2]\ntrain_test_split()",
])
def test_odd_code_never_raises(code):
    H.check(RULES, evidence(code))


def test_every_pair_of_a_fifty_line_cell_is_found():
    code = "\n".join(
        ["from sklearn.preprocessing import StandardScaler",
         "from sklearn.model_selection import train_test_split"]
        + [f"X{i} = StandardScaler().fit_transform(data[cols{i}])\n"
           f"a{i}, b{i}, c{i}, d{i} = train_test_split(X{i}, y, random_state={i})"
           for i in range(24)])
    ev = evidence(code)
    _ = ev.model.calls, ev.model.assignments, ev.model.variable_types  # shared, warmed
    # one finding per leaky pair; the time per cell is measured by bench/critic_eval.py
    found = H.check(RULES, ev)
    assert len(found) == 24


# -- rows of the same entity on both sides of a random split (holdout4 round) ----------------

ENTITY = "leakage.repeated_entities_across_split"
VISITS = """
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import (GroupKFold, KFold, cross_val_score, train_test_split)
rng = np.random.default_rng(21)
patients = pd.DataFrame({"patient_id": np.arange(150), "age": rng.integers(20, 90, 150),
                         "bmi": rng.normal(27, 4, 150).round(1)})
visits = patients.loc[patients.index.repeat(rng.integers(2, 7, 150))].reset_index(drop=True)
visits["sbp"] = (100 + 0.5 * visits.age + rng.normal(0, 8, len(visits))).round()
visits["dose"] = rng.uniform(0, 10, len(visits)).round(2)
# exact re-sends of the same order rows
orders = pd.DataFrame({"order_id": np.arange(300), "qty": rng.integers(1, 9, 300),
                       "price": rng.choice([2.5, 4.0, 7.5], 300),
                       "weight_kg": rng.gamma(2.0, 1.5, 300)})
orders["revenue"] = orders.qty * orders.price
orders = orders.loc[orders.index.repeat(rng.integers(1, 4, 300))].reset_index(drop=True)
"""


def test_kfold_cross_validation_over_repeated_patient_visits_is_flagged() -> None:
    found = run("""
X = visits[["age", "bmi", "dose"]]
scores = cross_val_score(GradientBoostingRegressor(random_state=0), X, visits.sbp,
                         cv=KFold(5, shuffle=True, random_state=0),
                         scoring="neg_mean_absolute_error")
print(-scores.mean())
""", VISITS)
    f = one(found, ENTITY)
    assert f.severity == "medium" and f.evidence["values"]["id_column"] == "patient_id"


def test_train_test_split_of_copied_order_rows_is_flagged_high() -> None:
    found = run("""
tr, te = train_test_split(orders, test_size=0.3, random_state=1)
model = Ridge().fit(tr[["qty", "price"]], tr.revenue)
print(mean_absolute_error(te.revenue, model.predict(te[["qty", "price"]])))
""", VISITS)
    f = one(found, ENTITY)
    assert f.severity == "high"


def test_kfold_split_loop_over_repeated_patients_is_flagged() -> None:
    found = run("""
X, y = visits[["age", "bmi"]].to_numpy(), visits.sbp.to_numpy()
errs = []
for tr, te in KFold(4, shuffle=True, random_state=3).split(X):
    m = Ridge().fit(X[tr], y[tr])
    errs.append(mean_absolute_error(y[te], m.predict(X[te])))
print(np.mean(errs))
""", VISITS)
    one(found, ENTITY)


def test_grouped_splits_and_one_row_per_entity_stay_quiet() -> None:
    grouped = run("""
X = visits[["age", "bmi", "dose"]]
scores = cross_val_score(GradientBoostingRegressor(random_state=0), X, visits.sbp,
                         cv=GroupKFold(5), groups=visits.patient_id,
                         scoring="neg_mean_absolute_error")
print(-scores.mean())
""", VISITS)
    assert not [f for f in grouped if f.rule_id == ENTITY]
    deduped = run("""
unique_orders = orders.drop_duplicates(subset="order_id")
tr, te = train_test_split(unique_orders, test_size=0.3, random_state=1)
model = Ridge().fit(tr[["qty", "price"]], tr.revenue)
print(mean_absolute_error(te.revenue, model.predict(te[["qty", "price"]])))
""", VISITS)
    assert not [f for f in deduped if f.rule_id == ENTITY]
    per_patient = run("""
tr, te = train_test_split(patients, test_size=0.3, random_state=1)
model = Ridge().fit(tr[["age"]], tr.bmi)
print(mean_absolute_error(te.bmi, model.predict(te[["age"]])))
""", VISITS)
    assert not [f for f in per_patient if f.rule_id == ENTITY]


# -- a class-mean contrast used to pick features, and hand-rolled cross-validation loops --------

EXPR = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(9)
n, p = 60, 2000
expr = rng.normal(0, 1, (n, p))
tumour = rng.integers(0, 2, n)
genes = pd.DataFrame(expr[:, :300], columns=[f"g{i}" for i in range(300)]).assign(label=tumour)
"""


@pytest.mark.parametrize("code, cv", [
    ("""
    gap = np.abs(expr[tumour == 1].mean(axis=0) - expr[tumour == 0].mean(axis=0))
    top = np.argsort(gap)[-20:]
    Z = expr[:, top]
    correct = 0
    for i in range(n):
        train = np.arange(n) != i
        mu1 = Z[train & (tumour == 1)].mean(axis=0)
        mu0 = Z[train & (tumour == 0)].mean(axis=0)
        pred = int(np.linalg.norm(Z[i] - mu1) < np.linalg.norm(Z[i] - mu0))
        correct += pred == tumour[i]
    print("LOO accuracy", correct / n)
    """, "hand-rolled leave-one-out loop"),
    ("""
    from sklearn.linear_model import LogisticRegression
    d = np.median(expr[tumour == 1], axis=0) - np.median(expr[tumour == 0], axis=0)
    keep = np.argsort(np.abs(d))[-15:]
    X = expr[:, keep]
    fold = np.arange(n) % 5
    accs = []
    for k in range(5):
        te = fold == k
        m = LogisticRegression(max_iter=1000).fit(X[~te], tumour[~te])
        accs.append(m.score(X[te], tumour[te]))
    print("5-fold accuracy", np.mean(accs))
    """, "hand-rolled k-fold loop"),
    ("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    feat = genes.drop(columns="label")
    diff = feat[genes["label"] == 1].mean() - feat[genes["label"] == 0].mean()
    chosen = diff.abs().nlargest(10).index
    lr = LogisticRegression(max_iter=1000)
    print(cross_val_score(lr, genes[chosen], genes["label"], cv=5).mean())
    """, "cross_val_score"),
])
def test_class_mean_contrast_screen_before_cross_validation_is_critical(code: str, cv: str):
    f = one(run(code, EXPR), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)
    assert "difference of class means" in f.explanation and cv in f.explanation


@pytest.mark.parametrize("code", [
    """
    correct = 0
    for i in range(n):
        train = np.arange(n) != i
        gap = np.abs(expr[train & (tumour == 1)].mean(axis=0)
                     - expr[train & (tumour == 0)].mean(axis=0))
        top = np.argsort(gap)[-20:]
        Z = expr[:, top]
        mu1 = Z[train & (tumour == 1)].mean(axis=0)
        mu0 = Z[train & (tumour == 0)].mean(axis=0)
        pred = int(np.linalg.norm(Z[i] - mu1) < np.linalg.norm(Z[i] - mu0))
        correct += pred == tumour[i]
    print("LOO accuracy", correct / n)
    """,
    """
    from sklearn.linear_model import LogisticRegression
    fold = np.arange(n) % 5
    accs = []
    for k in range(5):
        te = fold == k
        tr = ~te
        d = (np.median(expr[tr & (tumour == 1)], axis=0)
             - np.median(expr[tr & (tumour == 0)], axis=0))
        keep = np.argsort(np.abs(d))[-15:]
        m = LogisticRegression(max_iter=1000).fit(expr[tr][:, keep], tumour[tr])
        accs.append(m.score(expr[te][:, keep], tumour[te]))
    print("5-fold accuracy", np.mean(accs))
    """,
    """
    v = expr.var(axis=0)
    top = np.argsort(v)[-20:]
    Z = expr[:, top]
    correct = 0
    for i in range(n):
        train = np.arange(n) != i
        mu1 = Z[train & (tumour == 1)].mean(axis=0)
        mu0 = Z[train & (tumour == 0)].mean(axis=0)
        pred = int(np.linalg.norm(Z[i] - mu1) < np.linalg.norm(Z[i] - mu0))
        correct += pred == tumour[i]
    print("LOO accuracy", correct / n)
    """,
    """
    diff = expr[tumour == 1].mean(axis=0) - expr[tumour == 0].mean(axis=0)
    print("largest mean difference", np.abs(diff).max())
    """,
])
def test_contrast_inside_the_folds_or_unsupervised_or_descriptive_is_silent(code: str):
    silent(run(code, EXPR))


def test_scaler_fitted_before_a_hand_rolled_kfold_loop_is_critical():
    f = one(run("""
        from sklearn.preprocessing import StandardScaler
        from sklearn.linear_model import LogisticRegression
        Xs = StandardScaler().fit_transform(expr[:, :50])
        fold = np.arange(n) % 4
        accs = []
        for k in range(4):
            te = fold == k
            m = LogisticRegression(max_iter=1000).fit(Xs[~te], tumour[~te])
            accs.append(m.score(Xs[te], tumour[te]))
        print(np.mean(accs))
    """, EXPR), "leakage.preprocessing_before_split")
    assert f.is_blocking(0.8) and "hand-rolled k-fold loop" in f.explanation


def test_scaler_fitted_inside_a_hand_rolled_kfold_loop_is_silent():
    silent(run("""
        from sklearn.preprocessing import StandardScaler
        from sklearn.linear_model import LogisticRegression
        fold = np.arange(n) % 4
        accs = []
        for k in range(4):
            te = fold == k
            sc = StandardScaler().fit(expr[~te, :50])
            m = LogisticRegression(max_iter=1000).fit(sc.transform(expr[~te, :50]), tumour[~te])
            accs.append(m.score(sc.transform(expr[te, :50]), tumour[te]))
        print(np.mean(accs))
    """, EXPR))


# -- per-class statistics (groupby by the label) used to pick features before the split ---------

SPECTRA = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(4)
n, p = 150, 120
bands = pd.DataFrame(rng.normal(0, 1, (n, p)), columns=[f"b{i}" for i in range(p)])
grade = pd.Series(rng.choice(["pass", "fail"], n), name="grade")
wine = bands.iloc[:, :40].assign(quality=rng.integers(0, 2, n))
bands_cols = list(wine.columns[:-1])
"""


@pytest.mark.parametrize("code", [
    # a helper that contrasts per-class means, called on every row, then cross-validated
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    def discriminating_bands(frame, classes, k=10):
        centroids = frame.groupby(classes).mean()
        spread = frame.groupby(classes).std().mean()
        t = (centroids.loc["pass"] - centroids.loc["fail"]) / spread
        return t.abs().nlargest(k).index
    picked = discriminating_bands(bands, grade)
    print(cross_val_score(LogisticRegression(max_iter=500), bands[picked], grade, cv=5).mean())
    """,
    # inline: class medians of a frame grouped by its label column, then a hold-out split
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    med = wine.groupby("quality")[bands_cols].median()
    gap = (med.iloc[1] - med.iloc[0]).abs().sort_values(ascending=False)
    chosen = list(gap.index[:8])
    X_tr, X_te, y_tr, y_te = train_test_split(wine[chosen], wine["quality"], random_state=1)
    print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """,
    # class means as a numpy array, ranked with argsort, then a manual k-fold loop
    """
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.model_selection import KFold
    y = (grade == "pass").astype(int).to_numpy()
    cm = bands.groupby(y).mean().to_numpy()
    order = np.argsort(-np.abs(cm[1] - cm[0]))[:12]
    Z = bands.to_numpy()[:, order]
    accs = []
    for tr, te in KFold(5, shuffle=True, random_state=0).split(Z):
        m = KNeighborsClassifier().fit(Z[tr], y[tr])
        accs.append(m.score(Z[te], y[te]))
    print(np.mean(accs))
    """,
])
def test_class_conditional_screen_before_the_split_is_critical(code: str):
    f = one(run(code, SPECTRA), "leakage.feature_selection_before_split")
    assert f.is_blocking(0.8)
    assert "per-class" in f.explanation


@pytest.mark.parametrize("code", [
    # the same helper rerun inside each fold, on training rows only
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    def discriminating_bands(frame, classes, k=10):
        centroids = frame.groupby(classes).mean()
        spread = frame.groupby(classes).std().mean()
        t = (centroids.loc["pass"] - centroids.loc["fail"]) / spread
        return t.abs().nlargest(k).index
    accs = []
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(bands, grade):
        picked = discriminating_bands(bands.iloc[tr], grade.iloc[tr])
        m = LogisticRegression(max_iter=500).fit(bands.iloc[tr][picked], grade.iloc[tr])
        accs.append(m.score(bands.iloc[te][picked], grade.iloc[te]))
    print(np.mean(accs))
    """,
    # the screen on the training split only
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    train, test = train_test_split(wine, random_state=1)
    med = train.groupby("quality")[bands_cols].median()
    gap = (med.iloc[1] - med.iloc[0]).abs().sort_values(ascending=False)
    chosen = list(gap.index[:8])
    m = LogisticRegression().fit(train[chosen], train["quality"])
    print(m.score(test[chosen], test["quality"]))
    """,
    # class means only described; the model uses every band
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    print(bands.groupby(grade).mean().T.head())
    print(cross_val_score(LogisticRegression(max_iter=500), bands, grade, cv=5).mean())
    """,
    # grouped by a non-target column (a batch), ranking unsupervised
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    batch = np.arange(n) % 3
    drift = bands.groupby(batch).mean().std()
    stable = drift.nsmallest(30).index
    print(cross_val_score(LogisticRegression(max_iter=500), bands[stable], grade, cv=5).mean())
    """,
])
def test_class_conditional_screen_inside_folds_or_descriptive_is_quiet(code: str):
    quiet(run(code, SPECTRA))


# -- oversampling the training part only: a negated column of that part is not the test rows ------

PUMPS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.utils import resample
rng = np.random.default_rng(3)
pumps = pd.DataFrame({"vibration": rng.normal(size=600), "temp": rng.normal(size=600),
                      "hours": rng.integers(100, 5000, size=600)})
pumps["failed"] = rng.random(600) < 0.08
"""


def test_sklearn_resample_of_negated_minority_in_x_train_is_quiet():
    silent(run("""
        X = pumps[["vibration", "temp", "hours"]].to_numpy()
        y = pumps["failed"].to_numpy()
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                                  random_state=0)
        ok = ~y_tr
        X_fail_up = resample(X_tr[y_tr], replace=True, n_samples=int(ok.sum()), random_state=0)
        X_bal = np.vstack([X_tr[ok], X_fail_up])
        y_bal = np.r_[np.zeros(ok.sum(), bool), np.ones(len(X_fail_up), bool)]
        clf = LogisticRegression().fit(X_bal, y_bal)
        print("held-out accuracy", clf.score(X_te, y_te))
    """, PUMPS))


def test_pandas_sample_with_replacement_of_training_frame_is_quiet():
    silent(run("""
        tr, te = train_test_split(pumps, test_size=0.3, random_state=1)
        healthy = tr.loc[~tr["failed"]]
        broken = tr.loc[tr["failed"]].sample(n=len(healthy), replace=True, random_state=1)
        tr_up = pd.concat([healthy, broken], ignore_index=True)
        cols = ["vibration", "temp", "hours"]
        clf = LogisticRegression(max_iter=500).fit(tr_up[cols], tr_up["failed"])
        print("test accuracy", clf.score(te[cols], te["failed"]))
    """, PUMPS))


def test_index_draws_from_negated_training_labels_in_helper_are_quiet():
    silent(run("""
        def upsample(frame, flag, seed=0):
            rest, rare = frame[~frame[flag]], frame[frame[flag]]
            idx = np.random.default_rng(seed).choice(len(rare), size=len(rest))
            return pd.concat([rest, rare.iloc[idx]])

        train_df, test_df = train_test_split(pumps, test_size=0.25, random_state=2)
        balanced = upsample(train_df, "failed")
        feats = ["vibration", "temp"]
        model = LogisticRegression().fit(balanced[feats], balanced["failed"])
        print(model.predict_proba(test_df[feats])[:, 1].mean())
    """, PUMPS))


def test_negated_minority_upsampled_before_split_still_fires():
    f = one(run("""
        healthy, broken = pumps[~pumps["failed"]], pumps[pumps["failed"]]
        broken_up = resample(broken, replace=True, n_samples=len(healthy), random_state=0)
        both = pd.concat([healthy, broken_up])
        X_tr, X_te, y_tr, y_te = train_test_split(both[["vibration", "temp"]], both["failed"],
                                                  random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, PUMPS), "leakage.resampling_before_split")
    assert f.is_blocking(0.8)


def test_manual_negated_split_mask_still_separates_train_and_test():
    f = one(run("""
        is_test = np.random.default_rng(0).random(len(pumps)) < 0.2
        train_rows, test_rows = pumps[~is_test], pumps[is_test]
        cols = ["vibration", "temp"]
        clf = LogisticRegression().fit(pumps[cols], pumps["failed"])
        print(clf.score(test_rows[cols], test_rows["failed"]))
    """, PUMPS), "leakage.test_rows_in_training")
    assert f.is_blocking(0.8)


# -- same entity on both sides: high only on evidence of copies or a claim about new entities --
# (holdout15: a smoothed per-shop encoding learned on training rows and scored on known shops)

SHOPS = """
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LinearRegression
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold, cross_val_score, train_test_split
rng = np.random.default_rng(4)
n = 1800
shop = rng.integers(0, 300, n)
sales = pd.DataFrame({"shop_id": [f"S{s:03d}" for s in shop], "weekday": rng.integers(0, 7, n),
                      "promo": rng.integers(0, 2, n),
                      "rain_mm": rng.gamma(1.0, 2.0, n).round(1)})
sales["units"] = rng.poisson(5 + 3 * sales.promo + rng.normal(0, 1, 300)[shop].clip(-4, 4))
"""


def _entity(found):
    return [f for f in found if f.rule_id == ENTITY]


def run_shops(code: str) -> list[Finding]:
    # a roomy facts budget: these tests are about the rule, not about which frames the
    # default 25 ms budget reaches on a loaded test machine
    return H.check(RULES, run_and_gather(code, SHOPS, budget_ms=1000))


@pytest.mark.parametrize("claim", [
    # a train/test split, the claim in a print
    """
tr, te = train_test_split(sales, test_size=0.25, random_state=0)
m = LinearRegression().fit(tr[["weekday", "promo", "rain_mm"]], tr.units)
print("R2 on unseen shops:", r2_score(te.units, m.predict(te[["weekday", "promo", "rain_mm"]])))
""",
    # cross_val_score, the claim in a comment
    """
# how well does the model generalise to new shops?
X = sales[["weekday", "promo", "rain_mm"]]
print(cross_val_score(RandomForestRegressor(50, random_state=0), X, sales.units,
                      cv=KFold(5, shuffle=True, random_state=0), scoring="r2").mean())
""",
    # a KFold loop over numpy arrays, the claim in the result's label
    """
X, y = sales[["promo", "rain_mm"]].to_numpy(), sales.units.to_numpy()
out = []
for tr, te in KFold(4, shuffle=True, random_state=1).split(X):
    out.append(r2_score(y[te], LinearRegression().fit(X[tr], y[tr]).predict(X[te])))
summary = {"r2 (held-out shops)": np.mean(out)}
print(summary)
""",
])
def test_score_read_as_performance_on_new_entities_is_high(claim) -> None:
    f = one(run_shops(claim), ENTITY)
    assert f.severity == "high" and "shop" in f.explanation


@pytest.mark.parametrize("known", [
    """
tr, te = train_test_split(sales, test_size=0.25, random_state=0)
m = LinearRegression().fit(tr[["weekday", "promo", "rain_mm"]], tr.units)
print("R2 on held-out days:", r2_score(te.units, m.predict(te[["weekday", "promo", "rain_mm"]])))
""",
    """
# forecast for the shops we already run
X = sales[["weekday", "promo", "rain_mm"]]
print(cross_val_score(RandomForestRegressor(50, random_state=0), X, sales.units,
                      cv=KFold(5, shuffle=True, random_state=0), scoring="r2").mean())
""",
    # a smoothed per-shop mean learned on the training rows only
    """
tr, te = train_test_split(sales, test_size=0.25, random_state=0)
g = tr.units.mean()  # unseen shops get the global mean
agg = tr.groupby("shop_id").units.agg(["sum", "count"])
enc = (agg["sum"] + 10 * g) / (agg["count"] + 10)
tr = tr.assign(shop_te=tr.shop_id.map(enc))
te = te.assign(shop_te=te.shop_id.map(enc).fillna(g))
cols = ["weekday", "promo", "rain_mm", "shop_te"]
m = RandomForestRegressor(50, random_state=0).fit(tr[cols], tr.units)
print(r2_score(te.units, m.predict(te[cols])))
""",
])
def test_known_entities_without_copies_or_a_new_entity_claim_are_at_most_medium(known) -> None:
    found = _entity(run_shops(known))
    assert found and all(f.severity == "medium" for f in found)


# -- a full-data statistic that only shifts/scales the outcome column is not a feature leak ----

FARMS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(21)
n = 300
rain = rng.gamma(4.0, 50.0, n)
heat = rng.normal(18, 3, n)
season = np.repeat(np.arange(1994, 2024), 10)
"""
PREP = "leakage.preprocessing_before_split"


@pytest.mark.parametrize("code,leaky", [
    # a frame built from a dict: the centred values form the outcome column / a feature column
    ("""
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
farm = pd.DataFrame({"yield_t": 5 + 0.01 * (rain - rain.mean()) + rng.normal(0, 1, n),
                     "heat": heat})
X_tr, X_te, y_tr, y_te = train_test_split(farm[["heat"]], farm["yield_t"], random_state=0)
print(LinearRegression().fit(X_tr, y_tr).score(X_te, y_te))
""", False),
    ("""
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
farm = pd.DataFrame({"yield_t": 5 + 0.01 * rain + rng.normal(0, 1, n),
                     "rain_c": rain - rain.mean()})
X_tr, X_te, y_tr, y_te = train_test_split(farm[["rain_c"]], farm["yield_t"], random_state=0)
print(LinearRegression().fit(X_tr, y_tr).score(X_te, y_te))
""", True),
    # a column written with df[...] = ..., a statsmodels formula on a year cut
    ("""
import statsmodels.formula.api as smf
farm = pd.DataFrame({"season": season, "rain": rain, "heat": heat})
farm["yield_z"] = (farm["rain"] * 0.01 + farm["heat"] * 0.1)
farm["yield_z"] = (farm["yield_z"] - farm["yield_z"].mean()) / farm["yield_z"].std()
early = farm[farm["season"] < 2015]
late = farm[farm["season"] >= 2015]
fit = smf.ols("yield_z ~ heat", data=early).fit()
print(np.sqrt(((late["yield_z"] - fit.predict(late)) ** 2).mean()))
""", False),
    ("""
import statsmodels.formula.api as smf
farm = pd.DataFrame({"season": season, "rain": rain, "heat": heat})
farm["yield_t"] = farm["rain"] * 0.01 + farm["heat"] * 0.1
farm["heat_z"] = (farm["heat"] - farm["heat"].mean()) / farm["heat"].std()
early = farm[farm["season"] < 2015]
late = farm[farm["season"] >= 2015]
fit = smf.ols("yield_t ~ heat_z", data=early).fit()
print(np.sqrt(((late["yield_t"] - fit.predict(late)) ** 2).mean()))
""", True),
    # numpy: the outcome column centred on another array's mean, sklearn fit(X, y)
    ("""
from sklearn.linear_model import Ridge
from sklearn.model_selection import cross_val_score
farm = pd.DataFrame({"heat": heat, "rain": rain})
farm["anomaly"] = 0.02 * (rain - np.mean(rain)) + rng.normal(0, 1, n)
print(cross_val_score(Ridge(), farm[["heat"]], farm["anomaly"], cv=5).mean())
""", False),
    ("""
from sklearn.linear_model import Ridge
from sklearn.model_selection import cross_val_score
farm = pd.DataFrame({"heat": heat, "rain": rain})
farm["anomaly"] = 0.02 * rain + rng.normal(0, 1, n)
farm["rain_dev"] = (rain - np.mean(rain)) / np.std(rain)
print(cross_val_score(Ridge(), farm[["rain_dev", "heat"]], farm["anomaly"], cv=5).mean())
""", True),
])
def test_statistic_confined_to_the_outcome_column_is_not_a_preprocessing_leak(code, leaky):
    found = H.run(RULES, code, FARMS)
    if leaky:
        assert one(found, PREP).severity in ("critical", "high", "medium")
    else:
        quiet(found)
        assert not [f for f in found if f.rule_id == PREP], H.describe(found)


# -- a target encoding of a model formula's response, computed before the split ---------------

OUTLETS = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(3)
n = 300
shops = pd.DataFrame({"region": rng.choice([f"r{i}" for i in range(60)], n),
                      "staff": rng.integers(2, 20, n), "area": rng.uniform(50, 400, n)})
shops["sales"] = 10 * shops.staff + 0.2 * shops.area + rng.normal(0, 20, n)
shops["churned"] = (rng.random(n) < 0.3).astype(int)
"""

_FORMULA_ENC = {
    "transform_ols": ("""
shops["region_sales"] = shops.groupby("region")["sales"].transform("mean")
train_df = shops.sample(frac=0.75, random_state=1)
test_df = shops.drop(train_df.index)
model = smf.ols("sales ~ staff + area + region_sales", data=train_df).fit()
print(np.mean(np.abs(test_df["sales"] - model.predict(test_df))))
""", """
train_df = shops.sample(frac=0.75, random_state=1)
test_df = shops.drop(train_df.index).copy()
means = train_df.groupby("region")["sales"].mean()
train_df = train_df.assign(region_sales=train_df.region.map(means))
test_df["region_sales"] = test_df.region.map(means).fillna(train_df.sales.mean())
model = smf.ols("sales ~ staff + area + region_sales", data=train_df).fit()
print(np.mean(np.abs(test_df["sales"] - model.predict(test_df))))
"""),
    "mean_map_logit": ("""
rate = shops.groupby("region")["churned"].mean()
shops["region_rate"] = shops["region"].map(rate)
tr, te = train_test_split(shops, test_size=0.3, random_state=0)
m = smf.logit("churned ~ staff + region_rate", data=tr).fit(disp=0)
print(((m.predict(te) > 0.5) == te.churned).mean())
""", """
tr, te = train_test_split(shops, test_size=0.3, random_state=0)
rate = tr.groupby("region")["churned"].mean()
tr = tr.assign(region_rate=tr["region"].map(rate))
te = te.assign(region_rate=te["region"].map(rate).fillna(tr.churned.mean()))
m = smf.logit("churned ~ staff + region_rate", data=tr).fit(disp=0)
print(((m.predict(te) > 0.5) == te.churned).mean())
"""),
    "median_slice_glm": ("""
df2 = shops.copy()
df2["reg_med"] = df2.groupby("region").sales.transform("median")
cut = int(len(df2) * 0.8)
train, test = df2.iloc[:cut], df2.iloc[cut:]
g = smf.glm("sales ~ staff + reg_med", data=train).fit()
print(np.sqrt(np.mean((test.sales - g.predict(test)) ** 2)))
""", """
df2 = shops.copy()
cut = int(len(df2) * 0.8)
train, test = df2.iloc[:cut].copy(), df2.iloc[cut:].copy()
med = train.groupby("region").sales.median()
train["reg_med"] = train.region.map(med)
test["reg_med"] = test.region.map(med).fillna(train.sales.median())
g = smf.glm("sales ~ staff + reg_med", data=train).fit()
print(np.sqrt(np.mean((test.sales - g.predict(test)) ** 2)))
"""),
}


@pytest.mark.parametrize("key", sorted(_FORMULA_ENC))
def test_target_encoding_of_a_formula_response_before_split(key: str) -> None:
    flawed, sound = _FORMULA_ENC[key]
    f = one(H.run(RULES, flawed, OUTLETS), "leakage.target_encoding_before_split")
    assert f.severity in ("high", "critical")
    quiet(H.run(RULES, sound, OUTLETS))


# -- hand-made random / time hold-outs with role-less names ------------------------------------

SENSORS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.preprocessing import StandardScaler
from sklearn.metrics import r2_score
rs = np.random.RandomState(4)
plant = pd.DataFrame(rs.normal(size=(360, 4)), columns=["temp", "rpm", "load", "vib"])
plant["output"] = 3 * plant.temp - plant.load + rs.normal(size=360)
plant["year"] = rs.randint(2012, 2024, size=360)
cols = ["temp", "rpm", "load", "vib"]
"""

_HAND_SPLITS = {
    # pandas: sample a fraction, the rest by drop(index)
    "sample_drop": ("""
plant[cols] = StandardScaler().fit_transform(plant[cols])
fitted = plant.sample(frac=0.75, random_state=1)
rest = plant.drop(fitted.index)
m = Ridge().fit(fitted[cols], fitted.output)
print(r2_score(rest.output, m.predict(rest[cols])))
""", """
fitted = plant.sample(frac=0.75, random_state=1)
rest = plant.drop(fitted.index)
sc = StandardScaler().fit(fitted[cols])
m = Ridge().fit(sc.transform(fitted[cols]), fitted.output)
print(r2_score(rest.output, m.predict(sc.transform(rest[cols]))))
"""),
    # pandas: the rest as rows whose index is not in the sample; a hand z-score first
    "sample_isin": ("""
z = plant.copy()
z[cols] = (z[cols] - z[cols].mean()) / z[cols].std()
seen = z.sample(n=270, random_state=2)
unseen_rows = z.loc[~z.index.isin(seen.index)]
m = Ridge().fit(seen[cols], seen.output)
print(r2_score(unseen_rows.output, m.predict(unseen_rows[cols])))
""", """
seen = plant.sample(n=270, random_state=2)
unseen_rows = plant.loc[~plant.index.isin(seen.index)]
mu, sd = seen[cols].mean(), seen[cols].std()
m = Ridge().fit((seen[cols] - mu) / sd, seen.output)
print(r2_score(unseen_rows.output, m.predict((unseen_rows[cols] - mu) / sd)))
"""),
    # numpy: a random permutation of positions sliced into two index arrays
    "permutation_slices": ("""
A = StandardScaler().fit_transform(plant[cols].to_numpy())
out = plant.output.to_numpy()
order = np.random.default_rng(5).permutation(len(A))
first, second = order[:280], order[280:]
m = Ridge().fit(A[first], out[first])
print(r2_score(out[second], m.predict(A[second])))
""", """
A = plant[cols].to_numpy()
out = plant.output.to_numpy()
order = np.random.default_rng(5).permutation(len(A))
first, second = order[:280], order[280:]
sc = StandardScaler().fit(A[first])
m = Ridge().fit(sc.transform(A[first]), out[first])
print(r2_score(out[second], m.predict(sc.transform(A[second]))))
"""),
    # a random boolean mask and its negation, unpacked on one line
    "random_mask": ("""
plant[cols] = StandardScaler().fit_transform(plant[cols])
keep = np.random.default_rng(6).random(len(plant)) < 0.8
part_a, part_b = plant[keep], plant[~keep]
m = Ridge().fit(part_a[cols], part_a.output)
print(r2_score(part_b.output, m.predict(part_b[cols])))
""", """
keep = np.random.default_rng(6).random(len(plant)) < 0.8
part_a, part_b = plant[keep], plant[~keep]
sc = StandardScaler().fit(part_a[cols])
m = Ridge().fit(sc.transform(part_a[cols]), part_a.output)
print(r2_score(part_b.output, m.predict(sc.transform(part_b[cols]))))
"""),
    # positions drawn without replacement, the rest by setdiff1d
    "choice_setdiff": ("""
A = StandardScaler().fit_transform(plant[cols].to_numpy())
out = plant.output.to_numpy()
rng = np.random.default_rng(7)
picked = rng.choice(len(A), size=270, replace=False)
others = np.setdiff1d(np.arange(len(A)), picked)
m = Ridge().fit(A[picked], out[picked])
print(r2_score(out[others], m.predict(A[others])))
""", """
A = plant[cols].to_numpy()
out = plant.output.to_numpy()
rng = np.random.default_rng(7)
picked = rng.choice(len(A), size=270, replace=False)
others = np.setdiff1d(np.arange(len(A)), picked)
sc = StandardScaler().fit(A[picked])
m = Ridge().fit(sc.transform(A[picked]), out[picked])
print(r2_score(out[others], m.predict(sc.transform(A[others]))))
"""),
    # a split at a point in time written as one tuple assignment of two masks
    "time_masks_one_line": ("""
plant[cols] = StandardScaler().fit_transform(plant[cols])
older, newer = plant[plant.year < 2020], plant[plant.year >= 2020]
m = Ridge().fit(older[cols], older.output)
print(r2_score(newer.output, m.predict(newer[cols])))
""", """
older, newer = plant[plant.year < 2020], plant[plant.year >= 2020]
sc = StandardScaler().fit(older[cols])
m = Ridge().fit(sc.transform(older[cols]), older.output)
print(r2_score(newer.output, m.predict(sc.transform(newer[cols]))))
"""),
}


@pytest.mark.parametrize("key", sorted(_HAND_SPLITS))
def test_preprocessing_before_a_hand_made_split_with_role_less_names(key: str) -> None:
    flawed, sound = _HAND_SPLITS[key]
    f = one(H.run(RULES, flawed, SENSORS), "leakage.preprocessing_before_split")
    assert f.severity in ("high", "critical")
    quiet(H.run(RULES, sound, SENSORS))


def test_two_unrelated_samples_or_a_fixed_mask_are_not_a_split() -> None:
    # two independent samples of one frame (a bootstrap-like comparison), and a mask that is
    # a property of the rows (not random): no hold-out, nothing before it leaks
    quiet(H.run(RULES, """
plant[cols] = StandardScaler().fit_transform(plant[cols])
s1 = plant.sample(frac=0.5, random_state=1)
s2 = plant.sample(frac=0.5, random_state=2)
hot = plant.temp > 0
warm, cold = plant[hot], plant[~hot]
print(s1.output.mean() - s2.output.mean(), warm.output.mean() - cold.output.mean())
""", SENSORS))


# -- oversampling through an array of row indices ----------------------------------------------

RESAMPLED = "leakage.resampling_before_split"


@pytest.mark.parametrize("code", [
    # sklearn.utils.resample on an index array, then a random split of the balanced rows
    """
from sklearn.utils import resample
pos_idx = np.flatnonzero(y == 1)[:40]
neg_idx = np.flatnonzero(y == 0)
extra = resample(pos_idx, replace=True, n_samples=len(neg_idx), random_state=1)
rows = np.concatenate([neg_idx, extra])
X_tr, X_te, y_tr, y_te = train_test_split(X[rows], y[rows], random_state=0)
print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
""",
    # a Generator's choice with replace=True, stacked with np.r_, cross-validated
    """
rng = np.random.default_rng(3)
rare_ix = np.where(y == 1)[0][:30]
common_ix = np.where(y == 0)[0]
boost = rng.choice(rare_ix, size=len(common_ix), replace=True)
keep = np.r_[common_ix, boost]
Xb, yb = X[keep], y[keep]
print(cross_val_score(LogisticRegression(max_iter=500), Xb, yb, cv=5).mean())
""",
    # every minority row index repeated, then a StratifiedKFold on the inflated frame
    """
minority_idx = frame.index[frame.label == 1][:25].to_numpy()
grown = np.hstack([frame.index.to_numpy(), np.repeat(minority_idx, 4)])
big = frame.iloc[grown]
cv = StratifiedKFold(5, shuffle=True, random_state=0)
feats = [c for c in frame.columns if c != "label"]
print(cross_val_score(LogisticRegression(max_iter=500), big[feats], big.label, cv=cv).mean())
""",
])
def test_oversampling_row_indices_before_split_is_flagged(code):
    f = one(run(code, CLASSIF), RESAMPLED)
    assert f.severity == "critical"


@pytest.mark.parametrize("code", [
    """
from sklearn.utils import resample
tr_idx, te_idx = train_test_split(np.arange(len(y)), random_state=0, stratify=y)
pos_idx = tr_idx[y[tr_idx] == 1][:40]
neg_idx = tr_idx[y[tr_idx] == 0]
extra = resample(pos_idx, replace=True, n_samples=len(neg_idx), random_state=1)
rows = np.concatenate([neg_idx, extra])
m = LogisticRegression(max_iter=500).fit(X[rows], y[rows])
print(m.score(X[te_idx], y[te_idx]))
""",
    """
rng = np.random.default_rng(3)
scores = []
for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
    rare_ix = tr[y[tr] == 1][:30]
    boost = rng.choice(rare_ix, size=len(tr) - 2 * len(rare_ix), replace=True)
    keep = np.r_[tr, boost]
    m = LogisticRegression(max_iter=500).fit(X[keep], y[keep])
    scores.append(m.score(X[te], y[te]))
print(np.mean(scores))
""",
    # indices drawn without replacement (undersampling the majority) are not copies
    """
rng = np.random.default_rng(3)
rare_ix = np.where(y == 1)[0]
common_ix = rng.choice(np.where(y == 0)[0], size=len(rare_ix), replace=False)
keep = np.r_[common_ix, rare_ix]
print(cross_val_score(LogisticRegression(max_iter=500), X[keep], y[keep], cv=5).mean())
""",
])
def test_oversampling_indices_inside_training_rows_is_quiet(code):
    quiet(run(code, CLASSIF))


# -- a whole-data statistic that defines the label in df.assign(...) is not a feature leak -----

SEGS = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score, train_test_split
rng = np.random.default_rng(36)
n = 400
segs = pd.DataFrame({"aadt": rng.lognormal(2, 0.5, n), "lanes": rng.integers(1, 5, n),
                     "speed": rng.normal(50, 10, n), "year": rng.integers(2014, 2024, n)})
risk = 0.05 * segs.aadt + 0.2 * segs.lanes + rng.normal(0, 1, n)
"""

_ASSIGNED_LABEL = {
    # numpy quantile of a latent score as the class cut, sklearn cross-validation
    "np_quantile_cv": ("""
data = segs.assign(high=(risk > np.quantile(risk, 0.7)).astype(int),
                   aadt_z=(segs.aadt - segs.aadt.mean()) / segs.aadt.std())
X, y = data[["aadt_z", "lanes", "speed"]], data["high"]
cv = StratifiedKFold(5, shuffle=True, random_state=0)
print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=cv).mean())
""", """
data = segs.assign(high=(risk > np.quantile(risk, 0.7)).astype(int))
X, y = data.drop(columns="high"), data["high"]
cv = StratifiedKFold(5, shuffle=True, random_state=0)
print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=cv).mean())
"""),
    # a pandas median inside an assign lambda, train_test_split of the frame
    "lambda_median_tts": ("""
data = segs.assign(busy=lambda d: (d.aadt > d.aadt.median()).astype(int),
                   speed_c=lambda d: (d.speed - d.speed.mean()) / d.speed.std())
tr, te = train_test_split(data, test_size=0.3, random_state=0)
m = LogisticRegression().fit(tr[["lanes", "speed_c"]], tr.busy)
print(m.score(te[["lanes", "speed_c"]], te.busy))
""", """
data = segs.assign(busy=lambda d: (d.aadt > d.aadt.median()).astype(int))
tr, te = train_test_split(data, test_size=0.3, random_state=0)
m = LogisticRegression().fit(tr[["lanes", "speed"]], tr.busy)
print(m.score(te[["lanes", "speed"]], te.busy))
"""),
    # a Series quantile in an earlier cell, a statsmodels formula on a year cut
    "series_quantile_formula": ("""
early, late = segs2[segs2.year < 2021], segs2[segs2.year >= 2021]
m = smf.logit("severe ~ lanes + speed_s", data=early).fit(disp=0)
print(((m.predict(late) > 0.5) == late.severe).mean())
""", """
early, late = segs2[segs2.year < 2021], segs2[segs2.year >= 2021]
m = smf.logit("severe ~ lanes + speed", data=early).fit(disp=0)
print(((m.predict(late) > 0.5) == late.severe).mean())
"""),
}
_SEGS2 = SEGS + """
segs2 = segs.assign(severe=(risk > risk.quantile(0.8)).astype(int),
                    speed_s=(segs.speed - segs.speed.mean()) / segs.speed.std())
"""
_SEGS2_OK = SEGS + """
segs2 = segs.assign(severe=(risk > risk.quantile(0.8)).astype(int))
"""


@pytest.mark.parametrize("key", sorted(_ASSIGNED_LABEL))
def test_label_cut_at_a_whole_data_quantile_in_assign_is_not_a_preprocessing_leak(key) -> None:
    flawed, sound = _ASSIGNED_LABEL[key]
    formula = key == "series_quantile_formula"
    f = one(H.run(RULES, flawed, _SEGS2 if formula else SEGS), PREP)  # the feature leaks
    assert f.severity in ("high", "critical")
    found = H.run(RULES, sound, _SEGS2_OK if formula else SEGS)
    quiet(found)
    assert not [x for x in found if x.rule_id == PREP], H.describe(found)


# -- per-row window statistics (rolling / expanding / ewm objects bound to a name) ------------

OPS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(38)
idx = pd.date_range("2024-01-01", periods=24 * 60, freq="h")
spike = (rng.random(len(idx)) < 0.08).astype(int)
load = 100 + 10 * np.sin(np.arange(len(idx)) * 2 * np.pi / 24) + rng.normal(0, 5, len(idx))
ops = pd.DataFrame({"load": load + 25 * spike, "spike": spike}, index=idx)
"""

_WINDOWS = {
    # a trailing rolling window, a cut at a date
    "rolling_date_cut": ("""
ops["z"] = (ops["load"] - ops["load"].mean()) / ops["load"].std()
tune, hold = ops.loc[:"2024-02-10"], ops.loc["2024-02-11":]
m = LogisticRegression().fit(tune[["z"]], tune["spike"])
print(roc_auc_score(hold["spike"], m.predict_proba(hold[["z"]])[:, 1]))
""", """
base = ops["load"].shift(1).rolling(24, min_periods=6)
ops["z"] = ((ops["load"] - base.mean()) / base.std()).fillna(0.0)
tune, hold = ops.loc[:"2024-02-10"], ops.loc["2024-02-11":]
m = LogisticRegression().fit(tune[["z"]], tune["spike"])
print(roc_auc_score(hold["spike"], m.predict_proba(hold[["z"]])[:, 1]))
"""),
    # an expanding mean, train_test_split without shuffling
    "expanding_tts": ("""
ops["rel"] = ops["load"] / ops["load"].mean()
X_tr, X_te, y_tr, y_te = train_test_split(ops[["rel"]], ops["spike"], shuffle=False,
                                          test_size=0.3)
m = LogisticRegression().fit(X_tr, y_tr)
print(roc_auc_score(y_te, m.predict_proba(X_te)[:, 1]))
""", """
hist = ops["load"].expanding(min_periods=24)
ops["rel"] = (ops["load"] / hist.mean().shift(1)).fillna(1.0)
X_tr, X_te, y_tr, y_te = train_test_split(ops[["rel"]], ops["spike"], shuffle=False,
                                          test_size=0.3)
m = LogisticRegression().fit(X_tr, y_tr)
print(roc_auc_score(y_te, m.predict_proba(X_te)[:, 1]))
"""),
    # an exponentially weighted mean/std, numpy arrays cut by position
    "ewm_numpy_cut": ("""
x = ops["load"].to_numpy()
dev = ((x - x.mean()) / x.std()).reshape(-1, 1)
cut = int(0.7 * len(dev))
m = LogisticRegression().fit(dev[:cut], spike[:cut])
print(roc_auc_score(spike[cut:], m.predict_proba(dev[cut:])[:, 1]))
""", """
sm = ops["load"].shift(1).ewm(span=12)
dev = ((ops["load"] - sm.mean()) / sm.std()).fillna(0.0).to_numpy().reshape(-1, 1)
cut = int(0.7 * len(dev))
m = LogisticRegression().fit(dev[:cut], spike[:cut])
print(roc_auc_score(spike[cut:], m.predict_proba(dev[cut:])[:, 1]))
"""),
}


@pytest.mark.parametrize("key", sorted(_WINDOWS))
def test_window_statistics_of_a_named_rolling_object_are_not_whole_data_stats(key) -> None:
    flawed, sound = _WINDOWS[key]
    f = one(H.run(RULES, flawed, OPS), PREP)
    assert f.severity in ("high", "critical")
    found = H.run(RULES, sound, OPS)
    quiet(found)
    assert not [x for x in found if x.rule_id == PREP], H.describe(found)


def test_window_statistics_in_an_earlier_cell_are_quiet() -> None:
    setup = OPS + """
base = ops["load"].shift(1).rolling("1D", min_periods=12)
ops["z"] = ((ops["load"] - base.mean()) / base.std()).fillna(0.0)
"""
    found = H.run(RULES, """
tune, hold = ops.loc[:"2024-02-10"], ops.loc["2024-02-11":]
m = LogisticRegression().fit(tune[["z"]], tune["spike"])
print(roc_auc_score(hold["spike"], m.predict_proba(hold[["z"]])[:, 1]))
""", setup)
    assert not [x for x in found if x.rule_id == PREP], H.describe(found)


# -- a named aggregation of the target (agg(n=("y", "sum")), pd.NamedAgg) before the split ----

TARGET_ENC = "leakage.target_encoding_before_split"
_NAMED_AGG = {
    # tuple named aggregation of a formula's response, statsmodels after train_test_split
    "tuple_formula": ("""
reg = shops.groupby("region").agg(n=("sales", "size"), tot=("sales", "sum"))
shops["region_avg"] = shops.region.map(reg.tot / reg.n)
tr, te = train_test_split(shops, test_size=0.3, random_state=0)
m = smf.ols("sales ~ staff + region_avg", data=tr).fit()
print(np.mean(np.abs(te.sales - m.predict(te))))
""", """
tr, te = train_test_split(shops, test_size=0.3, random_state=0)
reg = tr.groupby("region").agg(n=("sales", "size"), tot=("sales", "sum"))
tr = tr.assign(region_avg=tr.region.map(reg.tot / reg.n))
te = te.assign(region_avg=te.region.map(reg.tot / reg.n).fillna(tr.sales.mean()))
m = smf.ols("sales ~ staff + region_avg", data=tr).fit()
print(np.mean(np.abs(te.sales - m.predict(te))))
"""),
    # pd.NamedAgg of a classifier's label, merged back, sklearn train_test_split
    "namedagg_sklearn": ("""
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
rates = shops.groupby("region").agg(rate=pd.NamedAgg(column="churned", aggfunc="mean"))
feat = shops.merge(rates, left_on="region", right_index=True)
X_tr, X_te, y_tr, y_te = train_test_split(feat[["staff", "rate"]], feat["churned"],
                                          random_state=0)
clf = LogisticRegression().fit(X_tr, y_tr)
print(roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1]))
""", """
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
tr, te = train_test_split(shops, random_state=0)
rates = tr.groupby("region").agg(rate=pd.NamedAgg(column="churned", aggfunc="mean"))
tr = tr.merge(rates, left_on="region", right_index=True, how="left")
te = te.merge(rates, left_on="region", right_index=True, how="left").fillna(
    {"rate": tr.churned.mean()})
clf = LogisticRegression().fit(tr[["staff", "rate"]], tr["churned"])
print(roc_auc_score(te["churned"], clf.predict_proba(te[["staff", "rate"]])[:, 1]))
"""),
    # a named aggregation over all rows, then cross-validation; its twin aggregates a feature
    "tuple_cv_vs_feature_agg": ("""
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
enc = shops.groupby("region").agg(churn_rate=("churned", "mean"))
X = shops.join(enc, on="region")[["staff", "area", "churn_rate"]]
print(cross_val_score(LogisticRegression(max_iter=500), X, shops["churned"], cv=5).mean())
""", """
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
enc = shops.groupby("region").agg(region_staff=("staff", "mean"))
X = shops.join(enc, on="region")[["staff", "area", "region_staff"]]
print(cross_val_score(LogisticRegression(max_iter=500), X, shops["churned"], cv=5).mean())
"""),
}


@pytest.mark.parametrize("key", sorted(_NAMED_AGG))
def test_named_aggregation_of_the_target_before_split_is_target_encoding(key) -> None:
    flawed, sound = _NAMED_AGG[key]
    f = one(H.run(RULES, flawed, OUTLETS), TARGET_ENC)
    assert f.severity in ("high", "critical")
    found = H.run(RULES, sound, OUTLETS)
    quiet(found)
    assert not [x for x in found if x.rule_id == TARGET_ENC], H.describe(found)


# -- repeated entities when the split reads columns of the frame directly (df[feats]) ---------

_ENTITY_COLS = {
    "tts_feature_list": ("""
feats = ["age", "bmi", "dose"]
X_tr, X_te, y_tr, y_te = train_test_split(visits[feats], visits["sbp"], random_state=0)
m = Ridge().fit(X_tr, y_tr)
print(mean_absolute_error(y_te, m.predict(X_te)))
""", """
from sklearn.model_selection import GroupShuffleSplit
feats = ["age", "bmi", "dose"]
gss = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=0)
tr, te = next(gss.split(visits, groups=visits["patient_id"]))
m = Ridge().fit(visits.iloc[tr][feats], visits.iloc[tr]["sbp"])
print(mean_absolute_error(visits.iloc[te]["sbp"], m.predict(visits.iloc[te][feats])))
"""),
    "cv_column_list": ("""
print(cross_val_score(Ridge(), visits[["age", "bmi", "dose"]], visits.sbp,
                      cv=KFold(5, shuffle=True, random_state=0),
                      scoring="neg_mean_absolute_error").mean())
""", """
print(cross_val_score(Ridge(), visits[["age", "bmi", "dose"]], visits.sbp,
                      cv=GroupKFold(5), groups=visits.patient_id,
                      scoring="neg_mean_absolute_error").mean())
"""),
    "kfold_split_loop": ("""
feats = ["age", "bmi"]
errs = []
for tr, te in KFold(4, shuffle=True, random_state=3).split(visits[feats]):
    m = Ridge().fit(visits[feats].iloc[tr], visits.sbp.iloc[tr])
    errs.append(mean_absolute_error(visits.sbp.iloc[te], m.predict(visits[feats].iloc[te])))
print(np.mean(errs))
""", """
feats = ["age", "bmi"]
errs = []
for tr, te in GroupKFold(4).split(visits[feats], groups=visits.patient_id):
    m = Ridge().fit(visits[feats].iloc[tr], visits.sbp.iloc[tr])
    errs.append(mean_absolute_error(visits.sbp.iloc[te], m.predict(visits[feats].iloc[te])))
print(np.mean(errs))
"""),
}


@pytest.mark.parametrize("key", sorted(_ENTITY_COLS))
def test_random_split_of_a_frames_columns_over_repeated_entities(key) -> None:
    flawed, sound = _ENTITY_COLS[key]
    f = one(run(flawed, VISITS), ENTITY)
    assert f.severity == "medium" and f.evidence["values"]["id_column"] == "patient_id"
    found = run(sound, VISITS)
    assert not [x for x in found if x.rule_id == ENTITY], H.describe(found)
