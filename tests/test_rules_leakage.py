"""leakage: preprocessing / feature selection / target encoding / oversampling fitted on data
that includes the test rows. Flawed cells are checked against the whole critic (`flagged`: some
leakage finding, medium or worse); sound twins against this family's trace rules; all run
in-process for real kernel facts. The trace rules' own cases are in tests/test_rules_trace.py."""

from __future__ import annotations

import pytest

from critics import AnalysisCritic
from critics.findings import Finding
from critics.rules import leakage as L
from tests import rule_helpers as H
from tests.inprocess_evidence import run_and_gather
from tests.rule_helpers import quiet, silent

CRITIC = AnalysisCritic()
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


def flagged(code: str, setup: str = DIABETES) -> None:
    """The whole critic (trace rules and all) finds a leakage issue, medium or worse."""
    found = CRITIC.review(run_and_gather(code, setup)).findings
    assert any(f.rule_id.startswith("leakage.") and f.severity >= "medium"
               for f in found), H.describe(found)


# -- preprocessing before the split: flawed ----------------------------------------------------

def test_numpy_scaler_fit_transform_then_split_is_critical():
    flagged("""
        scaler = StandardScaler()
        X_scaled = scaler.fit_transform(X_np)
        X_train, X_test, y_train, y_test = train_test_split(X_scaled, y_np, random_state=0)
        model = Ridge().fit(X_train, y_train)
        print(model.score(X_test, y_test))
    """)


def test_one_liner_scaler_on_frame_then_cross_val_score():
    flagged("""
        X = StandardScaler().fit_transform(df[features])
        scores = cross_val_score(Ridge(), X, df["target"], cv=5)
        print(scores.mean())
    """)


def test_pandas_zscore_of_whole_frame_then_split():
    flagged("""
        X = df[features]
        X = (X - X.mean()) / X.std()
        X_tr, X_te, y_tr, y_te = train_test_split(X, df.target, test_size=0.3, random_state=1)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """)


def test_scaler_fit_on_all_then_applied_to_each_split():
    flagged("""
        scaler = MinMaxScaler().fit(X_np)
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        X_train = scaler.transform(X_train)
        X_test = scaler.transform(X_test)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """)


def test_helper_function_that_fits_on_its_argument():
    flagged("""
        def preprocess(frame):
            scaler = StandardScaler()
            return scaler.fit_transform(frame)

        X_p = preprocess(df[features])
        X_train, X_test, y_train, y_test = train_test_split(X_p, df.target, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """)


def test_helper_function_that_scales_then_cross_validates():
    flagged("""
        def evaluate(model, X, y):
            X = StandardScaler().fit_transform(X)
            return cross_val_score(model, X, y, cv=5).mean()

        print(evaluate(Ridge(), X_np, y_np))
    """)


def test_pipeline_of_polynomial_and_scaler_fit_before_split():
    flagged("""
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import PolynomialFeatures
        prep = make_pipeline(PolynomialFeatures(2), StandardScaler())
        Xp = prep.fit_transform(X_np)
        X_train, X_test, y_train, y_test = train_test_split(Xp, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """)


def test_scaler_in_an_earlier_cell_split_in_this_cell():
    setup = DIABETES + "\nX_all = StandardScaler().fit_transform(X_np)\n"
    flagged("""
        X_train, X_test, y_train, y_test = train_test_split(X_all, y_np, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """, setup)


def test_scaler_fit_on_train_and_test_stacked():
    flagged("""
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        scaler = StandardScaler().fit(np.vstack([X_train, X_test]))
        m = Ridge().fit(scaler.transform(X_train), y_train)
        print(m.score(scaler.transform(X_test), y_test))
    """)


def test_gridsearch_on_prescaled_data():
    flagged("""
        X_s = StandardScaler().fit_transform(X_np)
        grid = GridSearchCV(Ridge(), {"alpha": [0.1, 1, 10]}, cv=5).fit(X_s, y_np)
        print(grid.best_score_)
    """)


def test_column_transformer_fit_on_all_rows():
    flagged("""
        from sklearn.compose import ColumnTransformer
        from sklearn.preprocessing import OneHotEncoder
        frame = df.assign(band=np.where(df.bmi > 0, "hi", "lo"))
        ct = ColumnTransformer([("num", StandardScaler(), ["bmi", "bp"]),
                                ("cat", OneHotEncoder(), ["band"])])
        Xt = ct.fit_transform(frame)
        X_tr, X_te, y_tr, y_te = train_test_split(Xt, frame.target, random_state=0)
        print(Ridge().fit(X_tr, y_tr).score(X_te, y_te))
    """)


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
    flagged("""
        from sklearn.feature_selection import SelectKBest, f_classif
        X_sel = SelectKBest(f_classif, k=5).fit_transform(X, y)
        print(cross_val_score(LogisticRegression(), X_sel, y, cv=5).mean())
    """, CLASSIF)


def test_rfe_before_split():
    flagged("""
        from sklearn.feature_selection import RFE
        selector = RFE(LogisticRegression(max_iter=500), n_features_to_select=5).fit(X, y)
        X_small = selector.transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X_small, y, random_state=0)
        print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))
    """, CLASSIF)


def test_select_from_model_on_all_rows():
    flagged("""
        from sklearn.feature_selection import SelectFromModel
        sfm = SelectFromModel(LogisticRegression(penalty="l1", solver="liblinear")).fit(X, y)
        print(cross_val_score(LogisticRegression(), sfm.transform(X), y, cv=5).mean())
    """, CLASSIF)


def test_variance_threshold_before_cv_is_preprocessing():
    flagged("""
        from sklearn.feature_selection import VarianceThreshold
        Xv = VarianceThreshold(0.5).fit_transform(X)
        print(cross_val_score(LogisticRegression(), Xv, y, cv=5).mean())
    """, CLASSIF)


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
    flagged("""
        from sklearn.feature_selection import SelectKBest, f_classif
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        X_tr_sel = SelectKBest(f_classif, k=5).fit_transform(X_train, y_train)
        print(cross_val_score(LogisticRegression(), X_tr_sel, y_train, cv=5).mean())
    """, CLASSIF)


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
    flagged("""
        rate = leads.groupby("city")["converted"].mean()
        leads["city_rate"] = leads["city"].map(rate)
        X = leads[["visits", "city_rate"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, leads["converted"], random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, LEADS)


def test_target_encoding_on_train_only_is_quiet():
    silent(run("""
        train, test = train_test_split(leads, random_state=0)
        rate = train.groupby("city")["converted"].mean()
        train = train.assign(city_rate=train.city.map(rate))
        test = test.assign(city_rate=test.city.map(rate).fillna(train.converted.mean()))
        m = LogisticRegression().fit(train[["visits", "city_rate"]], train.converted)
        print(m.score(test[["visits", "city_rate"]], test.converted))
    """, LEADS))


def test_target_encoding_helper_with_keyword_target_in_cv():
    flagged("""
        from sklearn.model_selection import cross_val_score

        def encode(df, col, target):
            return df[col].map(df.groupby(col)[target].mean())

        leads["city_enc"] = encode(leads, col="city", target="converted")
        print(cross_val_score(LogisticRegression(), leads[["visits", "city_enc"]],
                              leads.converted, cv=5).mean())
    """, LEADS)


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


# -- test rows in training -------------------------------------------------------------------


def test_model_fit_on_train_scored_on_test_is_quiet():
    silent(run("""
        X_train, X_test, y_train, y_test = train_test_split(X_np, y_np, random_state=0)
        model = Ridge().fit(X_train, y_train)
        print("test R2", model.score(X_test, y_test))
        final = Ridge().fit(X_np, y_np)   # refit on everything for deployment
    """))


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
    flagged("""
        healthy, broken = pumps[~pumps["failed"]], pumps[pumps["failed"]]
        broken_up = resample(broken, replace=True, n_samples=len(healthy), random_state=0)
        both = pd.concat([healthy, broken_up])
        X_tr, X_te, y_tr, y_te = train_test_split(both[["vibration", "temp"]], both["failed"],
                                                  random_state=0)
        print(LogisticRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, PUMPS)


# -- same entity on both sides: high only on evidence of copies or a claim about new entities --
# (holdout15: a smoothed per-shop encoding learned on training rows and scored on known shops)


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


