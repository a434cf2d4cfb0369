"""target_leakage: the target, a column computed from it, or the column it is computed from,
among a model's features. Flawed cells and their sound twins, run in-process for real kernel
facts (DataFrame columns, feature_names_in_)."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules import target_leakage as T
from tests import rule_helpers as H
from tests.rule_helpers import one, quiet, silent

RULES = T.RULES

HOMES = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split, cross_val_score
rng = np.random.default_rng(1)
n = 300
homes = pd.DataFrame({
    "id": np.arange(n),
    "sqft": rng.normal(1700, 400, n).clip(400),
    "price": rng.normal(300000, 60000, n),
    "rooms": rng.integers(1, 7, n),
    "age": rng.uniform(0, 90, n),
})
"""

SALES = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(2)
n = 200
shop = pd.DataFrame({"promo": rng.integers(0, 2, n), "temp": rng.normal(20, 5, n)})
shop["sales"] = 100 + 20 * shop.promo + 2 * shop.temp + rng.normal(0, 5, n)
"""


def run(code: str, setup: str = HOMES) -> list[Finding]:
    return H.run(RULES, code, setup)


def code_only(code: str) -> list[Finding]:
    return H.code_only(RULES, code)


# -- the target column itself among the features -------------------------------------------------

def test_drop_list_forgets_the_target():
    f = one(run("""
        X = homes.drop(columns=["id"])
        y = homes["price"]
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        model = LinearRegression().fit(X_train, y_train)
        print(model.score(X_test, y_test))
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8) and f.confidence >= 0.95  # kernel: X's columns
    assert f.evidence["values"]["column"] == "price"
    assert f.lines == [2, 5] and "`model.fit`" in f.explanation


def test_split_without_a_model_in_the_cell_is_high_not_blocking():
    found = run("""
        X = homes.drop(columns=["id"])
        y = homes["price"]
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    """)
    f = one(found, "target_leakage.target_in_features")
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_model_fitted_in_a_later_cell_is_blocking_there():
    setup = HOMES + """
X = homes.drop(columns=["id"])
X_train, X_test, y_train, y_test = train_test_split(X, homes["price"], random_state=0)
"""
    f = one(run("""
        reg = RandomForestRegressor(n_estimators=10, random_state=0).fit(X_train, y_train)
        print(reg.score(X_test, y_test))
    """, setup), "target_leakage.target_in_features")
    assert f.is_blocking(0.8) and f.confidence >= 0.95 and f.lines == [2]


def test_drop_list_without_target_is_quiet():
    silent(run("""
        X = homes.drop(columns=["id", "price"])
        y = homes["price"]
        X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
        print(LinearRegression().fit(X_train, y_train).score(X_test, y_test))
    """))


def test_whole_frame_as_features():
    f = one(run("""
        target = "price"
        y = homes[target]
        print(cross_val_score(LinearRegression(), homes, y, cv=5).mean())
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_pop_removes_the_target():
    silent(run("""
        data = homes.copy()
        y = data.pop("price")
        print(cross_val_score(LinearRegression(), data, y, cv=5).mean())
    """))


def test_del_removes_the_target():
    silent(run("""
        data = homes.copy()
        y = data["price"].to_numpy()
        del data["price"]
        print(cross_val_score(LinearRegression(), data, y, cv=5).mean())
    """))


def test_iloc_range_that_keeps_the_target_column():
    f = one(run("""
        X = homes.iloc[:, 1:]
        y = homes.iloc[:, 2]
        y = homes["price"]
        model = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y)
        print(model.feature_importances_.round(2))
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8) and f.confidence >= 0.95  # feature_names_in_ has 'price'


def test_iloc_range_excluding_the_last_target_column_is_quiet():
    silent(run("""
        data = homes[["sqft", "rooms", "age", "price"]]
        X, y = data.iloc[:, :-1], data.iloc[:, -1]
        print(cross_val_score(LinearRegression(), X, y, cv=5).mean())
    """))


def test_select_dtypes_keeps_a_numeric_target():
    f = one(run("""
        X = homes.select_dtypes("number").drop(columns="id")
        X_tr, X_te, y_tr, y_te = train_test_split(X, homes.price, random_state=0)
        print(LinearRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_column_comprehension_filter_without_target():
    f = one(run("""
        features = [c for c in homes.columns if c != "id"]
        X = homes[features]
        print(cross_val_score(LinearRegression(), X, homes["price"], cv=5).mean())
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_column_comprehension_filter_with_target_is_quiet():
    silent(run("""
        features = [c for c in homes.columns if c not in ("id", "price")]
        print(cross_val_score(LinearRegression(), homes[features], homes["price"], cv=5).mean())
    """))


def test_log_target_with_raw_target_in_features():
    f = one(run("""
        y = np.log1p(homes["price"])
        X = homes.drop(columns=["id"])
        print(cross_val_score(LinearRegression(), X, y, cv=5).mean())
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_numpy_array_with_target_as_last_column():
    f = one(run("""
        data = homes[["sqft", "rooms", "age", "price"]].to_numpy()
        X_all, y_all = data, data[:, -1]
        X_train, X_test, y_train, y_test = train_test_split(X_all, y_all, random_state=0)
        print(LinearRegression().fit(X_train, y_train).score(X_test, y_test))
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_numpy_array_sliced_without_target_is_quiet():
    silent(run("""
        data = homes[["sqft", "rooms", "age", "price"]].to_numpy()
        X_all, y_all = data[:, :-1], data[:, -1]
        X_train, X_test, y_train, y_test = train_test_split(X_all, y_all, random_state=0)
        print(LinearRegression().fit(X_train, y_train).score(X_test, y_test))
    """))


def test_statsmodels_ols_with_target_in_exog():
    f = one(run("""
        import statsmodels.api as sm
        X = sm.add_constant(homes.drop(columns="id"))
        y = homes.price
        fit = sm.OLS(y, homes.drop(columns="id")).fit()
        print(fit.rsquared)
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_code_only_drop_without_target():
    found = code_only("""
        import pandas as pd
        df = pd.read_csv("houses.csv")
        X = df.drop(columns=["id", "date"])
        y = df["price"]
        model.fit(X, y)
    """)
    f = one(found, "target_leakage.target_in_features")
    assert f.is_blocking(0.8) and f.confidence == 0.88


# -- target computed from a feature ------------------------------------------------------------

def test_binarised_target_with_its_source_column_in_features():
    f = one(run("""
        homes["expensive"] = (homes["price"] > 320000).astype(int)
        X = homes.drop(columns=["id", "expensive"])
        y = homes["expensive"]
        print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=5).mean())
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8) and "price" in f.explanation


def test_inline_threshold_target_with_source_in_features():
    f = one(run("""
        X = homes[["sqft", "rooms", "price"]]
        y = (homes.price > homes.price.median()).astype(int)
        print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=3).mean())
    """), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_binarised_target_with_source_dropped_is_quiet():
    silent(run("""
        homes["expensive"] = (homes["price"] > 320000).astype(int)
        X = homes.drop(columns=["id", "expensive", "price"])
        y = homes["expensive"]
        print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=5).mean())
    """))


def test_simulated_target_from_features_with_noise_is_quiet():
    silent(run("""
        shop["temp_f"] = shop.temp * 9 / 5 + 32
        X = shop[["promo", "temp"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, shop.sales, random_state=0)
        print(LinearRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, SALES))


def test_target_as_a_difference_of_two_features_is_high_not_blocking():
    found = run("""
        homes["cost"] = homes.price * 0.7
        homes["margin"] = homes.price - homes.cost
        X = homes[["sqft", "price", "cost"]]
        print(cross_val_score(LinearRegression(), X, homes["margin"], cv=3).mean())
    """)
    f = one(found, "target_leakage.target_in_features")
    assert f.severity == "high" and not f.is_blocking(0.8)


# -- features computed from the target ---------------------------------------------------------

def test_price_per_sqft_feature():
    f = one(run("""
        homes["price_per_sqft"] = homes["price"] / homes["sqft"]
        features = ["sqft", "rooms", "age", "price_per_sqft"]
        print(cross_val_score(LinearRegression(), homes[features], homes.price, cv=5).mean())
    """), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and f.lines == [2, 4]


def test_derived_feature_left_out_is_quiet():
    silent(run("""
        homes["price_per_sqft"] = homes["price"] / homes["sqft"]
        features = ["sqft", "rooms", "age"]
        print(cross_val_score(LinearRegression(), homes[features], homes.price, cv=5).mean())
    """))


def test_derived_through_an_intermediate_series_and_kernel_columns():
    f = one(run("""
        y = homes["price"]
        band = pd.cut(y, 4, labels=False)
        homes["price_band"] = band
        X = homes.drop(columns=["price", "id"])
        model = LinearRegression().fit(X, y)
        print(model.score(X, y))
    """), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and f.confidence >= 0.9


def test_future_shift_of_target_is_leakage_but_lags_are_not():
    found = run("""
        shop["sales_lag1"] = shop["sales"].shift(1)
        shop["sales_next"] = shop["sales"].shift(-1)
        shop["sales_ma3"] = shop["sales"].shift(1).rolling(3).mean()
        data = shop.dropna()
        X = data[["promo", "temp", "sales_lag1", "sales_next", "sales_ma3"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, data.sales, shuffle=False)
        print(LinearRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, SALES)
    f = one(found, "target_leakage.feature_derived_from_target")
    assert f.evidence["values"]["column"] == "sales_next"
    assert not [x for x in found if x.rule_id == "target_leakage.target_named_feature"]


def test_rolling_mean_including_current_target_is_leakage():
    f = one(run("""
        shop["sales_roll"] = shop["sales"].rolling(3, min_periods=1).mean()
        X = shop[["promo", "temp", "sales_roll"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, shop.sales, shuffle=False)
        print(LinearRegression().fit(X_tr, y_tr).score(X_te, y_te))
    """, SALES), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8)


def test_post_outcome_flag_generated_from_label():
    f = one(run("""
        homes["sold_fast"] = (homes.price < 280000).astype(int)
        homes["discount_applied"] = np.where(homes.sold_fast == 0, rng.random(n) < 0.7, False)
        X = homes[["sqft", "rooms", "discount_applied"]]
        print(cross_val_score(LogisticRegression(max_iter=500), X, homes.sold_fast, cv=3).mean())
    """), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8)


def test_class_conditional_simulation_is_only_medium():
    found = run("""
        labels = rng.integers(0, 2, n)
        sim = pd.DataFrame({"label": labels})
        sim["marker_a"] = rng.normal(1.0 * sim.label, 1.0)
        sim["marker_b"] = rng.normal(0.5 * sim.label, 1.0)
        X = sim[["marker_a", "marker_b"]]
        print(cross_val_score(LogisticRegression(), X, sim.label, cv=5).mean())
    """)
    quiet(found)
    assert {f.severity for f in found} == {"medium"}


def test_target_encoding_is_left_to_the_leakage_family():
    silent(run("""
        homes["rooms_mean_price"] = homes.groupby("rooms")["price"].transform("mean")
        X = homes[["sqft", "rooms_mean_price"]]
        print(cross_val_score(LinearRegression(), X, homes.price, cv=5).mean())
    """))


def test_formula_with_a_derived_regressor():
    f = one(run("""
        import statsmodels.formula.api as smf
        homes["ppsf"] = homes.price / homes.sqft
        fit = smf.ols("price ~ sqft + rooms + ppsf", data=homes).fit()
        print(fit.rsquared)
    """), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8)


def test_formula_without_derived_regressor_is_quiet():
    silent(run("""
        import statsmodels.formula.api as smf
        homes["ppsf"] = homes.price / homes.sqft
        fit = smf.ols("price ~ sqft + rooms + age", data=homes).fit()
        print(fit.rsquared)
    """))


# -- features named after the target -----------------------------------------------------------

CHURN = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(5)
n = 300
crm = pd.DataFrame({"tenure": rng.integers(1, 60, n), "tickets": rng.poisson(1, n),
                    "churn": rng.integers(0, 2, n), "churn_reason_code": rng.integers(0, 4, n),
                    "churn_prev_quarter": rng.integers(0, 2, n)})
"""


def test_feature_named_after_the_target_is_high():
    found = run("""
        X = crm.drop(columns="churn")
        X_tr, X_te, y_tr, y_te = train_test_split(X, crm["churn"], random_state=0)
        clf = LogisticRegression(max_iter=500).fit(X_tr, y_tr)
        print(clf.score(X_te, y_te))
    """, CHURN)
    f = one(found, "target_leakage.target_named_feature")
    assert f.severity == "high" and f.confidence == 0.6
    assert f.evidence["values"]["column"] == "churn_reason_code"  # the lag is skipped


def test_explicit_pre_outcome_features_are_quiet():
    silent(run("""
        X = crm[["tenure", "tickets", "churn_prev_quarter"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, crm["churn"], random_state=0)
        print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
    """, CHURN))


# -- robustness ------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "x = (", "", "model.fit()", "model.fit(X, y)", "df['a'] = df['a']\nm.fit(df, df.a)",
    "X, y = data\nm.fit(X, y)", "train_test_split(*arrays)",
    "y = d[:, 'a']\nX = d[:, 1:]\nm.fit(X, y)",
    "smf.ols(formula, data=df)", "smf.ols('y ~ ', data=df)",
])
def test_odd_code_never_raises(code):
    code_only(code)


# -- centred windows -------------------------------------------------------------------------

DEMAND = """
import numpy as np
import pandas as pd
from scipy.ndimage import uniform_filter1d
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import TimeSeriesSplit, cross_val_score
rng = np.random.default_rng(11)
n = 400
load = pd.DataFrame({"kw": 50 + np.cumsum(rng.normal(0, 1, n))},
                    index=pd.date_range("2023-01-01", periods=n, freq="h"))
load["kw_next"] = load.kw.shift(-1)
"""

CENTRED = "target_leakage.centered_window_feature"


def test_centred_rolling_via_assign_in_cross_val_is_critical() -> None:
    found = run("""
        frame = load.assign(smooth=load["kw"].rolling(window=7, center=True).median(),
                            lag=load["kw"].shift(1)).dropna()
        X, y = frame[["lag", "smooth"]], frame["kw_next"]
        print(cross_val_score(Ridge(), X, y, cv=TimeSeriesSplit(5)).mean())
    """, DEMAND)
    hits = [f for f in found if f.rule_id == CENTRED]
    assert len(hits) == 1 and hits[0].severity == "critical" and hits[0].confidence >= 0.8


def test_scipy_centred_filter_array_feature_is_critical() -> None:
    found = run("""
        kw = load.kw.to_numpy()
        smooth = uniform_filter1d(kw, size=9)
        X = np.column_stack([smooth[:-1], kw[:-1]])
        y = kw[1:]
        cut = 300
        model = RandomForestRegressor(n_estimators=20, random_state=0).fit(X[:cut], y[:cut])
        print(mean_absolute_error(y[cut:], model.predict(X[cut:])))
    """, DEMAND)
    assert [f.severity for f in found if f.rule_id == CENTRED] == ["critical"]


def test_centred_window_sound_twins_are_quiet() -> None:
    for code in (
        # trailing window
        """
        load["ma"] = load.kw.rolling(7).mean()
        d = load.dropna()
        model = Ridge().fit(d[["ma"]][:300], d.kw_next[:300])
        print(mean_absolute_error(d.kw_next[300:], model.predict(d[["ma"]][300:])))
        """,
        # centred, then shifted back past the window
        """
        load["ma"] = load.kw.rolling(7, center=True).mean().shift(4)
        d = load.dropna()
        model = Ridge().fit(d[["ma"]][:300], d.kw_next[:300])
        print(mean_absolute_error(d.kw_next[300:], model.predict(d[["ma"]][300:])))
        """,
        # centred smoothing only for description, no model
        """
        load["trend"] = load.kw.rolling(24, center=True).mean()
        print(load.trend.describe())
        """,
    ):
        found = run(code, DEMAND)
        assert not [f for f in found if f.rule_id == CENTRED], code


# -- features built with lambdas from the target (assign / apply) ------------------------------

CLINICS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(11)
n = 240
visits = pd.DataFrame({
    "district": rng.choice(["north", "south", "east", "west"], n),
    "doctors": rng.integers(2, 12, n),
    "population_k": rng.uniform(5, 60, n).round(1),
})
visits["patients"] = (40 * visits.doctors + 3 * visits.population_k
                      + rng.normal(0, 30, n)).round()
"""


def test_assign_lambda_share_of_group_total_in_a_formula():
    f = one(run("""
        panel = visits.assign(
            district_total=lambda d: d.groupby("district")["patients"].transform("sum"),
            load_share=lambda d: d["patients"] / d["district_total"],
        )
        res = smf.ols("patients ~ doctors + population_k + load_share", data=panel).fit()
        print(res.rsquared)
    """, CLINICS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and "load_share" in f.explanation


def test_row_apply_lambda_ratio_of_the_target_in_ols_arrays():
    f = one(run("""
        visits["per_doctor"] = visits.apply(lambda r: r.patients / r.doctors, axis=1)
        X = sm.add_constant(visits[["doctors", "population_k", "per_doctor"]])
        print(sm.OLS(visits["patients"], X).fit().rsquared)
    """, CLINICS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and "per_doctor" in f.explanation


def test_inline_assign_lambda_feature_in_sklearn_cv():
    f = one(run("""
        feats = visits.assign(excess=lambda d: d.patients - 40 * d.doctors)
        X = feats[["doctors", "population_k", "excess"]]
        print(cross_val_score(LinearRegression(), X, visits.patients, cv=5).mean())
    """, CLINICS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8)


def test_assign_lambdas_from_other_columns_are_quiet():
    silent(run("""
        panel = visits.assign(
            density=lambda d: d.population_k / d.doctors,
            district_doctors=lambda d: d.groupby("district")["doctors"].transform("sum"),
        )
        res = smf.ols("patients ~ doctors + density + district_doctors", data=panel).fit()
        print(res.rsquared)
    """, CLINICS))


def test_lagged_share_of_the_target_is_quiet():
    silent(run("""
        panel = visits.assign(prev_share=lambda d: d.patients.shift(1) / d.doctors.shift(1))
        res = smf.ols("patients ~ doctors + population_k + prev_share", data=panel).fit()
        print(res.rsquared)
    """, CLINICS))


def test_group_apply_lambda_of_the_target_is_not_a_row_derived_feature():
    found = run("""
        means = visits.groupby("district").apply(lambda g: g.patients.mean())
        visits["district_mean"] = visits.district.map(means)
        res = smf.ols("patients ~ doctors + district_mean", data=visits).fit()
        print(res.rsquared)
    """, CLINICS)
    assert not [f for f in found if f.rule_id == "target_leakage.feature_derived_from_target"]



def test_row_wise_sum_that_includes_the_target_is_derived():
    f = one(run("""
        visits["activity"] = visits[["patients", "doctors"]].sum(axis=1)
        X = visits[["doctors", "activity"]]
        print(cross_val_score(LinearRegression(), X, visits.patients, cv=5).mean())
    """, CLINICS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and "activity" in f.explanation


def test_column_added_by_a_piped_helper_function_is_derived():
    f = one(run("""
        def add_share(d):
            d = d.copy()
            d["share"] = d.patients / d.patients.sum()
            return d

        panel = visits.pipe(add_share)
        print(smf.ols("patients ~ doctors + share", data=panel).fit().rsquared)
    """, CLINICS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8)


def test_target_expression_stacked_into_a_numpy_design_matrix():
    f = one(run("""
        Xn = np.column_stack([visits.doctors, visits.population_k,
                              visits.patients / visits.doctors])
        print(cross_val_score(LinearRegression(), Xn, visits.patients, cv=5).mean())
    """, CLINICS), "target_leakage.target_in_features")
    assert f.is_blocking(0.8)


def test_target_expression_in_a_dataframe_built_from_a_dict():
    f = one(run("""
        design = pd.DataFrame({"doctors": visits.doctors,
                               "load": visits.patients / visits.population_k})
        print(sm.OLS(visits.patients, sm.add_constant(design)).fit().rsquared)
    """, CLINICS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8)


def test_row_sums_stacks_and_helpers_without_the_target_are_quiet():
    silent(run("""
        def add_density(d):
            d = d.copy()
            d["density"] = d.population_k / d.doctors
            return d

        panel = visits.pipe(add_density)
        panel["size"] = panel[["doctors", "population_k"]].sum(axis=1)
        Xn = np.column_stack([panel.doctors, panel.density, panel["size"]])
        print(cross_val_score(LinearRegression(), Xn, panel.patients, cv=5).mean())
        print(smf.ols("patients ~ doctors + density + size", data=panel).fit().rsquared)
    """, CLINICS))


# -- a column built from the same array as the target, numpy least squares, helpers -------------

TRIPS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(21)
n = 500
dist = rng.gamma(3, 4, n)
traffic = rng.uniform(0, 1, n)
minutes = 5 + 2.2 * dist + 12 * traffic + rng.normal(0, 4, n)
trips = pd.DataFrame({
    "dist_km": dist.round(2),
    "traffic": traffic.round(3),
    "speed_kmh": (60 * dist / minutes).round(1),   # measured over the trip itself
    "minutes": minutes.round(1),
})
"""


def test_sibling_column_built_from_the_target_array_in_sklearn():
    f = one(run("""
        from sklearn.linear_model import LinearRegression
        from sklearn.model_selection import cross_val_score
        X = trips.drop(columns="minutes")
        print(cross_val_score(LinearRegression(), X, trips.minutes, cv=5).mean())
    """, TRIPS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and "speed_kmh" in f.explanation


def test_numpy_lstsq_through_a_design_helper():
    f = one(run("""
        cols = [c for c in trips.columns if c != "minutes"]

        def design(d):
            return np.column_stack([np.ones(len(d)), d[cols].to_numpy(float)])

        train = np.arange(len(trips)) < 400
        beta, *_ = np.linalg.lstsq(design(trips[train]), trips.minutes[train], rcond=None)
        err = trips.minutes[~train] - design(trips[~train]) @ beta
        print(f"held-out RMSE {np.sqrt(np.mean(err ** 2)):.2f}")
    """, TRIPS), "target_leakage.feature_derived_from_target")
    assert f.severity == "critical"


def test_lstsq_on_columns_known_before_the_trip_is_quiet():
    quiet(run("""
        cols = [c for c in trips.columns if c not in ("minutes", "speed_kmh")]

        def design(d):
            return np.column_stack([np.ones(len(d)), d[cols].to_numpy(float)])

        train = np.arange(len(trips)) < 400
        beta, *_ = np.linalg.lstsq(design(trips[train]), trips.minutes[train], rcond=None)
        err = trips.minutes[~train] - design(trips[~train]) @ beta
        print(f"held-out RMSE {np.sqrt(np.mean(err ** 2)):.2f}")
    """, TRIPS))


def test_simulated_target_from_feature_arrays_is_quiet():
    # the target is built from the feature arrays, not the other way round
    quiet(run("""
        from sklearn.linear_model import LinearRegression
        sim = pd.DataFrame({"x1": dist, "x2": traffic, "y": (2 * dist + traffic).round(2)})
        print(LinearRegression().fit(sim[["x1", "x2"]], sim.y).score(sim[["x1", "x2"]], sim.y))
    """, TRIPS))


# -- per-unit totals over the whole period, including after the outcome ----------------------

SUBS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(30)
n, days = 300, 60
churn_day = np.where(rng.random(n) < 0.35, rng.integers(5, days, n), days + 1)
ev_rows = [(u, d, rng.poisson(3)) for u in range(n) for d in range(days) if d < churn_day[u]]
events = pd.DataFrame(ev_rows, columns=["user_id", "day", "sessions"])
users = pd.DataFrame({"user_id": np.arange(n), "plan_price": rng.choice([5, 10, 20], n),
                      "churned": (churn_day <= days).astype(int)})
"""


def test_all_time_usage_predicting_churn():
    f = one(run("""
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import cross_val_score
        usage = events.groupby("user_id").sessions.sum().rename("total_sessions")
        table = users.merge(usage, left_on="user_id", right_index=True, how="left").fillna(0)
        X = table[["plan_price", "total_sessions"]]
        auc = cross_val_score(LogisticRegression(), X, table.churned, cv=5, scoring="roc_auc")
        print(f"churn AUC, predicted in advance: {auc.mean():.3f}")
    """, SUBS), "target_leakage.whole_period_aggregate")
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_usage_of_the_first_two_weeks_only_is_silent():
    found = run("""
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import cross_val_score
        first = events[events.day < 14]
        usage = first.groupby("user_id").sessions.sum().rename("total_sessions")
        table = users.merge(usage, left_on="user_id", right_index=True, how="left").fillna(0)
        X = table[["plan_price", "total_sessions"]]
        auc = cross_val_score(LogisticRegression(), X, table.churned, cv=5, scoring="roc_auc")
        print(f"churn AUC, predicted in advance: {auc.mean():.3f}")
    """, SUBS)
    assert not [f for f in found if f.rule_id == "target_leakage.whole_period_aggregate"]
    quiet(found)


def test_whole_period_totals_for_a_non_terminal_outcome_are_silent():
    found = run("""
        from sklearn.linear_model import LinearRegression
        usage = events.groupby("user_id").sessions.sum().rename("total_sessions")
        table = users.merge(usage, left_on="user_id", right_index=True, how="left").fillna(0)
        m = LinearRegression().fit(table[["total_sessions"]], table.plan_price)
        print(m.coef_)
    """, SUBS)
    assert not [f for f in found if f.rule_id == "target_leakage.whole_period_aggregate"]


# -- a feature recorded only for rows that have the outcome (kernel: outcome_indicators) --------

REFUNDS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split, cross_val_score
rng = np.random.default_rng(7)
n = 600
subs = pd.DataFrame({
    "account": np.arange(n),
    "monthly_fee": rng.normal(30, 8, n).round(2),
    "tenure_m": rng.integers(1, 60, n),
    "support_calls": rng.poisson(1.2, n),
    "late_payments": rng.poisson(0.3, n),
    "usage_gb": rng.gamma(2, 10, n),
    "usage_days": rng.integers(0, 30, n),
})
churn = rng.random(n) < 0.3
subs["cancelled"] = churn.astype(int)
# refunds are only ever issued once a subscription is cancelled (a log merged in afterwards)
issued = churn & (rng.random(n) < 0.95)
log = pd.DataFrame({"account": subs.account[issued],
                    "refund_eur": rng.uniform(5, 40, n)[issued].round(2)})
subs = subs.merge(log, on="account", how="left").fillna({"refund_eur": 0})
"""

OUTCOME_ONLY = "target_leakage.outcome_only_feature"


@pytest.mark.parametrize("code", [
    """
    feats = ["monthly_fee", "tenure_m", "support_calls", "refund_eur"]
    X_tr, X_te, y_tr, y_te = train_test_split(subs[feats], subs.cancelled, random_state=0)
    m = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_tr, y_tr)
    print(m.score(X_te, y_te))
    """,
    """
    X = subs.drop(columns=["account", "cancelled"])
    print(cross_val_score(LogisticRegression(max_iter=1000), X, subs["cancelled"], cv=5).mean())
    """,
    """
    X = subs.select_dtypes("number").drop(columns=["account", "cancelled"])
    m = LogisticRegression(max_iter=1000).fit(X, subs.cancelled)
    print(m.score(X, subs.cancelled))
    """,
    """
    feats = [c for c in subs.columns if c.startswith(("usage_", "refund_"))]
    X_tr, X_te, y_tr, y_te = train_test_split(subs[feats], subs.cancelled, random_state=0)
    print(LogisticRegression(max_iter=1000).fit(X_tr, y_tr).score(X_te, y_te))
    """,
])
def test_feature_set_only_for_one_class_is_high(code: str):
    f = one(run(code, REFUNDS), OUTCOME_ONLY)
    assert f.severity == "high" and not f.is_blocking(0.8)
    assert f.confidence == 0.8  # never set without a cancellation, set for ~95% with one
    v = f.evidence["values"]
    assert v["column"] == "refund_eur" and v["target"] == "cancelled"
    assert v["unset share (cancelled=0)"] == 1.0 and v["set share (cancelled=1)"] >= 0.9
    assert "0 or missing for 100% of the rows with `cancelled` = 0" in f.explanation


@pytest.mark.parametrize("code", [
    """
    feats = ["monthly_fee", "tenure_m", "support_calls"]
    X_tr, X_te, y_tr, y_te = train_test_split(subs[feats], subs.cancelled, random_state=0)
    m = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_tr, y_tr)
    print(m.score(X_te, y_te))
    """,
    """
    X = subs.drop(columns=["account", "cancelled", "refund_eur"])
    print(cross_val_score(LogisticRegression(max_iter=1000), X, subs["cancelled"], cv=5).mean())
    """,
    """
    feats = [c for c in subs.columns if c.startswith("usage_")]
    X_tr, X_te, y_tr, y_te = train_test_split(subs[feats], subs.cancelled, random_state=0)
    print(LogisticRegression(max_iter=1000).fit(X_tr, y_tr).score(X_te, y_te))
    """,
    # a zero-inflated feature that is zero as often in both classes is no indicator
    """
    feats = ["monthly_fee", "late_payments", "support_calls"]
    print(cross_val_score(LogisticRegression(max_iter=1000), subs[feats], subs.cancelled,
                          cv=5).mean())
    """,
])
def test_features_without_the_outcome_record_are_silent(code: str):
    silent(run(code, REFUNDS))


def test_outcome_record_missing_for_some_outcomes_is_less_confident():
    f = one(run("""
        X = subs.drop(columns=["account", "cancelled"])
        print(cross_val_score(LogisticRegression(max_iter=1000), X, subs.cancelled, cv=5).mean())
    """, REFUNDS.replace("< 0.95)", "< 0.82)")), OUTCOME_ONLY)
    assert f.severity == "high" and f.confidence == 0.7
    assert f.evidence["values"]["set share (cancelled=1)"] < 0.9


@pytest.mark.parametrize("code", [
    """
    import statsmodels.formula.api as smf
    res = smf.logit("cancelled ~ monthly_fee + tenure_m + refund_eur", data=subs).fit(disp=0)
    print(np.exp(res.params))
    """,
    """
    import statsmodels.api as sm
    import statsmodels.formula.api as smf
    f = "cancelled ~ monthly_fee + support_calls + np.log1p(refund_eur)"
    res = smf.glm(f, subs[subs.tenure_m > 2], family=sm.families.Binomial()).fit()
    print(res.summary())
    """,
    """
    import statsmodels.formula.api as smf
    res = smf.probit(formula="cancelled ~ usage_gb + refund_eur + C(late_payments > 0)",
                     data=subs).fit(disp=0)
    print(res.params.round(3))
    """,
])
def test_formula_regressor_set_only_for_one_class_is_high(code: str):
    f = one(run(code, REFUNDS), OUTCOME_ONLY)
    assert f.severity == "high" and f.evidence["values"]["column"] == "refund_eur"


@pytest.mark.parametrize("code", [
    """
    import statsmodels.formula.api as smf
    res = smf.logit("cancelled ~ monthly_fee + tenure_m + support_calls", data=subs).fit(disp=0)
    print(np.exp(res.params))
    """,
    # the indicator as the response of a model of its own (how big are refunds?) is no leak
    """
    import statsmodels.formula.api as smf
    res = smf.ols("refund_eur ~ monthly_fee + tenure_m", data=subs[subs.cancelled == 1]).fit()
    print(res.params)
    """,
    """
    import statsmodels.formula.api as smf
    res = smf.probit(formula="cancelled ~ usage_gb + C(late_payments > 0)", data=subs).fit(disp=0)
    print(res.params.round(3))
    """,
])
def test_formula_without_the_outcome_record_is_quiet(code: str):
    found = run(code, REFUNDS)
    assert not [f for f in found if f.rule_id == OUTCOME_ONLY]
    quiet(found)


# -- feature lists built by a prefix comprehension, read from the frame's columns ---------------

PLANS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score, train_test_split
rng = np.random.default_rng(3)
n = 400
plans = pd.DataFrame({"usage_min": rng.gamma(3, 100, n), "usage_sms": rng.poisson(40, n),
                      "fee_base": rng.normal(20, 3, n), "age": rng.integers(18, 80, n)})
plans["switched"] = (rng.random(n) < 0.25).astype(int)
plans["fee_exit"] = np.where(plans.switched == 1, rng.uniform(10, 50, n), 0.0)
"""


@pytest.mark.parametrize("code", [
    """
    cols = [c for c in plans.columns if c.startswith(("usage_", "fee_"))]
    cols.append("age")
    print(cross_val_score(LogisticRegression(max_iter=1000), plans[cols], plans.switched,
                          cv=5).mean())
    """,
    """
    cols = [c for c in plans.columns if "fee" in c or c == "age"]
    X_tr, X_te, y_tr, y_te = train_test_split(plans[cols], plans["switched"], random_state=0)
    print(LogisticRegression(max_iter=1000).fit(X_tr, y_tr).score(X_te, y_te))
    """,
])
def test_prefix_comprehension_picks_a_column_derived_from_the_target(code: str):
    f = one(run(code, PLANS), "target_leakage.feature_derived_from_target")
    assert f.is_blocking(0.8) and f.evidence["values"]["column"] == "fee_exit"


@pytest.mark.parametrize("code", [
    """
    cols = [c for c in plans.columns if c.startswith(("usage_", "fee_")) and c != "fee_exit"]
    cols.append("age")
    print(cross_val_score(LogisticRegression(max_iter=1000), plans[cols], plans.switched,
                          cv=5).mean())
    """,
    """
    cols = [c for c in plans.columns if "usage" in c or c == "age"]
    X_tr, X_te, y_tr, y_te = train_test_split(plans[cols], plans["switched"], random_state=0)
    print(LogisticRegression(max_iter=1000).fit(X_tr, y_tr).score(X_te, y_te))
    """,
])
def test_prefix_comprehension_without_the_derived_column_is_silent(code: str):
    silent(run(code, PLANS))


# -- a feature computed from the one column the target was computed from ------------------------

SIBLING = "target_leakage.feature_from_target_source"

LOANS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split, cross_val_score
rng = np.random.default_rng(12)
n = 500
loans = pd.DataFrame({
    "amount": rng.gamma(4, 2500, n).round(0),
    "income": rng.normal(42000, 9000, n).round(0),
    "term_m": rng.choice([12, 24, 36, 60], n),
    "bmi": rng.normal(27, 5, n).round(1),
})
loans["days_past_due"] = rng.poisson(20 + loans.amount / 1000)
loans["default"] = (loans.days_past_due >= 30).astype(int)
loans["late_fees"] = 15 * (loans.days_past_due // 10)
loans["reminders"] = rng.poisson(loans.days_past_due / 5)
loans["obese"] = (loans.bmi >= 30).astype(int)
loans["bmi_band"] = pd.cut(loans.bmi, [0, 18.5, 25, 30, 100], labels=False)
"""


@pytest.mark.parametrize("code", [
    """
    X = loans.drop(columns=["default", "days_past_due", "reminders", "obese", "bmi_band"])
    X_tr, X_te, y_tr, y_te = train_test_split(X, loans["default"], random_state=0)
    m = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_tr, y_tr)
    print("default model accuracy", m.score(X_te, y_te))
    """,
    """
    feats = ["amount", "income", "term_m", "bmi_band"]
    print(cross_val_score(LogisticRegression(max_iter=1000), loans[feats], loans.obese,
                          cv=5).mean())
    """,
])
def test_exact_function_of_the_targets_source_is_critical(code: str):
    f = one(run(code, LOANS), SIBLING)
    assert f.is_blocking(0.8) and f.confidence == 0.85
    assert f.evidence["values"]["target_source"] in ("days_past_due", "bmi")


def test_random_draws_from_the_targets_source_are_high():
    f = one(run("""
        X = loans.select_dtypes("number").drop(columns=["default", "days_past_due",
                                                        "late_fees", "obese", "bmi_band"])
        m = LogisticRegression(max_iter=1000).fit(X, loans.default)
        print("in-sample accuracy", m.score(X, loans.default))
    """, LOANS), SIBLING)
    assert f.severity == "high" and f.confidence == 0.7
    assert f.evidence["values"]["column"] == "reminders"
    assert "days_past_due" in f.explanation


@pytest.mark.parametrize("code", [
    """
    X = loans.drop(columns=["default", "days_past_due", "reminders", "late_fees", "obese",
                            "bmi_band"])
    X_tr, X_te, y_tr, y_te = train_test_split(X, loans["default"], random_state=0)
    m = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_tr, y_tr)
    print("default model accuracy", m.score(X_te, y_te))
    """,
    """
    feats = ["amount", "income", "term_m"]
    print(cross_val_score(LogisticRegression(max_iter=1000), loans[feats], loans.obese,
                          cv=5).mean())
    """,
    # a feature derived from the source of *another* outcome is not this target's sibling
    """
    feats = ["amount", "income", "bmi_band"]
    print(cross_val_score(LogisticRegression(max_iter=1000), loans[feats], loans.default,
                          cv=5).mean())
    """,
])
def test_features_not_computed_from_the_targets_source_are_silent(code: str):
    silent(run(code, LOANS))


def test_features_drawn_from_a_latent_source_in_a_simulation_are_only_medium():
    setup = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(0)
n = 400
sim = pd.DataFrame({"latent": rng.normal(0, 1, n), "age": rng.normal(50, 9, n)})
sim["y"] = (sim.latent > 0).astype(int)
sim["x0"] = sim.latent + rng.normal(0, 2, n)
sim["x1"] = sim.latent * 0.5 + rng.normal(0, 2, n)
sim["x2"] = sim.latent + rng.normal(0, 3, n)
"""
    found = run("""
        X = sim[["x0", "x1", "x2", "age"]]
        print(cross_val_score(LogisticRegression(), X, sim.y, cv=5).mean())
    """, setup)
    quiet(found)
    assert {f.severity for f in found if f.rule_id == SIBLING} == {"medium"}


def test_formula_in_a_variable_with_a_regressor_computed_from_the_response():
    setup = REFUNDS + 'subs["winback_offer"] = np.where(subs.cancelled == 1, 1, 0)\n'
    f = one(run("""
        import statsmodels.formula.api as smf
        spec = "cancelled ~ monthly_fee + tenure_m + winback_offer"
        res = smf.logit(spec, subs).fit(disp=0, method="bfgs", maxiter=50)
        print(res.params)
    """, setup), "target_leakage.feature_derived_from_target")
    assert "winback_offer" in f.explanation
    quiet(run("""
        import statsmodels.formula.api as smf
        spec = "cancelled ~ monthly_fee + tenure_m"
        res = smf.logit(spec, subs).fit(disp=0)
        print(res.params)
    """, setup))


# -- a single feature that separates the classes almost perfectly (kernel ROC AUC) -------------

# the maintenance export arrives from outside the notebook (generated out of the
# analysis' sight, as a file read would be): no code in view shows where `shutdown_vib` came from
_PUMPS_EXPORT = """
rng = np.random.default_rng(21)
n = 500
pumps = pd.DataFrame({"hours": rng.uniform(100, 9000, n).round(),
                      "load": rng.uniform(0.2, 1.0, n).round(3),
                      "temp_c": rng.normal(60, 8, n).round(1)})
risk = 1 / (1 + np.exp(-(pumps.hours / 3000 - 2 + 1.5 * pumps.load)))
pumps["failed"] = (rng.random(n) < risk).astype(int)
# vibration read at the shutdown inspection: a pump that failed was already broken then
pumps["shutdown_vib"] = np.where(pumps.failed == 1, rng.uniform(7, 30, n),
                                 rng.uniform(0.5, 8.5, n)).round(1)
"""

PUMPS = f"""
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split, cross_val_score
_export = {{"np": np, "pd": pd}}
exec({_PUMPS_EXPORT!r}, _export)
pumps = _export["pumps"]
"""

SEPARATES = "target_leakage.feature_separates_classes"


@pytest.mark.parametrize("code", [
    """
    X = pumps.drop(columns="failed")
    scores = cross_val_score(GradientBoostingClassifier(random_state=0), X, pumps.failed, cv=5)
    print(f"accuracy {scores.mean():.3f}")
    """,
    """
    feats = ["hours", "load", "shutdown_vib"]
    X_tr, X_te, y_tr, y_te = train_test_split(pumps[feats], pumps["failed"], random_state=0)
    clf = LogisticRegression(max_iter=2000).fit(X_tr, y_tr)
    print(clf.score(X_te, y_te))
    """,
    """
    import statsmodels.formula.api as smf
    res = smf.logit("failed ~ hours + load + shutdown_vib", data=pumps).fit(disp=0, maxiter=200)
    print(res.params.round(3))
    """,
])
def test_feature_that_alone_separates_the_classes_is_a_medium_note(code: str):
    f = one(run(code, PUMPS), SEPARATES)
    assert f.severity == "medium"  # the data show the separation, not its timeline
    v = f.evidence["values"]
    assert v["column"] == "shutdown_vib" and v["target"] == "failed"
    assert 0.98 <= v["roc_auc"] <= 1.0
    assert "alone separates the classes of `failed`" in f.explanation


@pytest.mark.parametrize("code", [
    """
    X = pumps.drop(columns=["failed", "shutdown_vib"])
    scores = cross_val_score(GradientBoostingClassifier(random_state=0), X, pumps.failed, cv=5)
    print(f"accuracy {scores.mean():.3f}")
    """,
    """
    feats = ["hours", "load", "temp_c"]
    X_tr, X_te, y_tr, y_te = train_test_split(pumps[feats], pumps["failed"], random_state=0)
    print(LogisticRegression(max_iter=2000).fit(X_tr, y_tr).score(X_te, y_te))
    """,
    """
    import statsmodels.formula.api as smf
    res = smf.logit("failed ~ hours + load", data=pumps).fit(disp=0)
    print(res.params.round(3))
    """,
    # the separating column as the response of its own model is no leak
    """
    import statsmodels.formula.api as smf
    print(smf.ols("shutdown_vib ~ hours + load", data=pumps).fit().params)
    """,
])
def test_features_that_do_not_separate_the_classes_are_silent(code: str):
    assert not [f for f in run(code, PUMPS) if f.rule_id == SEPARATES]


def test_an_easy_sound_problem_gets_a_note_not_a_false_positive():
    # iris setosa is separable by petal length: a genuine predictor, so only a medium note
    found = run("""
        from sklearn.datasets import load_iris
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import cross_val_score
        iris = load_iris(as_frame=True).frame
        iris["setosa"] = (iris.target == 0).astype(int)
        X = iris[["sepal width (cm)", "petal length (cm)"]]
        print(cross_val_score(LogisticRegression(), X, iris.setosa, cv=5).mean())
    """)
    f = one(found, SEPARATES)
    assert f.evidence["values"]["column"] == "petal length (cm)"
    quiet(found)


# -- a simulated outcome: a label drawn from the features plus noise is not "computed from" them,
# but a feature computed from the same latent variable the label is a threshold of is a sibling

CLINIC = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(31)
n = 900
age = rng.normal(60, 10, n).round()
clinic = pd.DataFrame({
    "age": age,
    "dose": rng.uniform(0, 40, n).round(1),
    "smoker": rng.integers(0, 2, n),
})
severity = 0.04 * (age - 60) - 0.05 * clinic.dose + 0.6 + rng.normal(0, 1, n)
clinic["relapse"] = (severity > 0.3).astype(int)
clinic["discharge_score"] = (50 - 8 * severity + rng.normal(0, 3, n)).round(1)
clinic["stay_days"] = np.round(4 + 2 * severity.clip(0) + rng.exponential(1, n))
"""


@pytest.mark.parametrize("code", [
    # DataFrame exog through add_constant; predicted probabilities printed
    """
    feats = ["age", "dose", "smoker"]
    fit = sm.Logit(clinic["relapse"], sm.add_constant(clinic[feats])).fit(disp=0)
    print(fit.params.round(3).to_string())
    print(f"mean predicted risk {fit.predict(sm.add_constant(clinic[feats])).mean():.3f}")
    """,
    # numpy exog with np.column_stack; odds ratios printed
    """
    exog = np.column_stack([np.ones(len(clinic)), clinic.dose.to_numpy(),
                            clinic.age.to_numpy()])
    res = sm.Logit(clinic.relapse.to_numpy(), exog).fit(disp=0)
    print("odds ratios", np.exp(res.params).round(3))
    """,
    # a DataFrame built for the model; marginal effects printed
    """
    X = pd.DataFrame({"dose_10mg": clinic.dose / 10, "smoker": clinic.smoker})
    res = sm.Logit(clinic["relapse"], sm.add_constant(X)).fit(disp=0)
    print(res.get_margeff().summary_frame().round(3))
    """,
    # sklearn on the same pre-treatment columns
    """
    auc = cross_val_score(LogisticRegression(max_iter=1000), clinic[["dose", "age"]],
                          clinic.relapse, cv=5, scoring="roc_auc")
    print(f"CV AUC {auc.mean():.3f}")
    """,
])
def test_label_simulated_from_a_feature_plus_noise_is_quiet(code: str):
    quiet(run(code, CLINIC))


def test_label_that_is_a_threshold_of_a_feature_through_a_variable_is_still_critical():
    f = one(run("""
        z = clinic.dose * 2
        clinic["high_dose"] = (z > 40).astype(int)
        fit = sm.Logit(clinic["high_dose"], sm.add_constant(clinic[["dose", "age"]])).fit(
            disp=0, method="bfgs", maxiter=50)
        print(fit.params)
    """, CLINIC), "target_leakage.target_in_features")
    assert f.is_blocking(0.8) and f.evidence["values"]["column"] == "dose"


@pytest.mark.parametrize("code,col", [
    ("""
    feats = ["age", "dose", "discharge_score"]
    fit = sm.Logit(clinic["relapse"], sm.add_constant(clinic[feats])).fit(disp=0)
    print(f"pseudo R2 {fit.prsquared:.3f}")
    """, "discharge_score"),
    ("""
    exog = sm.add_constant(clinic[["dose", "age", "stay_days"]])
    res = sm.Logit(clinic.relapse, exog).fit(disp=0)
    print("odds ratios", np.exp(res.params).round(3).to_dict())
    """, "stay_days"),
    # transitively, through a column computed from the sibling
    ("""
    df = clinic.assign(score_drop=50 - clinic.discharge_score)
    auc = cross_val_score(LogisticRegression(max_iter=1000),
                          df[["dose", "age", "smoker", "score_drop"]], df.relapse, cv=5,
                          scoring="roc_auc")
    print(f"CV AUC {auc.mean():.3f}")
    """, "score_drop"),
])
def test_feature_computed_from_the_latent_the_label_thresholds_is_reported(code: str,
                                                                           col: str):
    found = run(code, CLINIC)
    f = one(found, SIBLING)
    assert f.severity == "high" and f.confidence == 0.7
    assert f.evidence["values"]["column"] == col
    assert f.evidence["values"]["target_source"] == "severity"
    assert not any(x.is_blocking(0.8) for x in found), [x.rule_id for x in found]


RUNNERS = """
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(44)
n = 600
km_week = rng.gamma(5, 10, n).round(1)
race_day = 0.02 * km_week + rng.normal(0, 1, n)
sub3 = np.where(race_day > 1.2, 1, 0)
runners = pd.DataFrame({"km_week": km_week, "age": rng.integers(20, 65, n), "sub3": sub3,
                        "finish_hr": (160 - 6 * race_day + rng.normal(0, 3, n)).round()})
"""


def test_label_copied_from_a_thresholded_variable_in_a_dict_follows_the_variable():
    f = one(run("""
        X = runners[["km_week", "age", "finish_hr"]]
        print(cross_val_score(RandomForestClassifier(n_estimators=30, random_state=0), X,
                              runners.sub3, cv=3).mean())
    """, RUNNERS), SIBLING)
    assert f.evidence["values"]["target_source"] == "race_day"


def test_label_copied_from_a_thresholded_variable_without_its_sibling_is_quiet():
    quiet(run("""
        X = runners[["km_week", "age"]]
        print(cross_val_score(RandomForestClassifier(n_estimators=30, random_state=0), X,
                              runners.sub3, cv=3).mean())
    """, RUNNERS))


# -- a leading indicator the simulation drew from the outcome ------------------------------------
# A column measured before the outcome (presales, early sign-ups, a baseline reading) that the
# setup simulated from the target with noise is a correlate whose timing the code cannot tell:
# a medium note at most. The same draw under an after-the-outcome name, or a deterministic
# function of the target computed in the cell, stays critical.

DERIVED = "target_leakage.feature_derived_from_target"

FESTIVAL = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(8)
n = 300
fest = pd.DataFrame({"capacity": rng.choice([500, 1200, 3000], n),
                     "headliner": rng.integers(0, 2, n), "rainy": rng.integers(0, 2, n)})
fest["attendance"] = (fest.capacity * rng.uniform(0.4, 0.95, n)
                      * (1 + 0.1 * fest.headliner - 0.15 * fest.rainy)).round()
fest["early_signups"] = (fest.attendance * rng.uniform(0.2, 0.5, n)
                         + rng.normal(0, 20, n)).clip(0).round()
fest["refund_requests"] = (fest.attendance * rng.uniform(0.01, 0.05, n)).round()
"""


def test_early_signups_simulated_from_attendance_is_not_blocking_with_a_feature_list():
    found = run("""
        X = fest[["capacity", "headliner", "rainy", "early_signups"]]
        print(cross_val_score(LinearRegression(), X, fest["attendance"], cv=5).mean())
    """, FESTIVAL)
    quiet(found)
    f = one(found, DERIVED)
    assert f.severity == "medium" and "early_signups" in f.explanation


def test_refunds_drawn_from_attendance_with_a_feature_list_stay_critical():
    f = one(run("""
        X = fest[["capacity", "headliner", "rainy", "refund_requests"]]
        print(cross_val_score(LinearRegression(), X, fest["attendance"], cv=5).mean())
    """, FESTIVAL), DERIVED)
    assert f.severity == "critical" and f.is_blocking(0.8)


ORCHARD = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
rng = np.random.default_rng(9)
n = 240
trees = pd.DataFrame({"age_y": rng.integers(3, 30, n), "irrigated": rng.integers(0, 2, n)})
trees["yield_kg"] = (40 + 1.5 * trees.age_y + 12 * trees.irrigated + rng.normal(0, 8, n)).round(1)
trees["baseline_blossoms"] = (trees.yield_kg * rng.normal(6, 1.5, n)).round()
trees["bins_filled"] = (trees.yield_kg / 18 + rng.normal(0, 0.2, n)).round(1)
"""


def test_baseline_count_simulated_from_yield_in_a_formula_is_not_blocking():
    found = run("""
        fit = smf.ols("yield_kg ~ age_y + irrigated + baseline_blossoms", data=trees).fit()
        print(fit.rsquared)
    """, ORCHARD)
    quiet(found)
    assert one(found, DERIVED).severity == "medium"


def test_bins_filled_drawn_from_yield_in_a_formula_stays_critical():
    f = one(run("""
        fit = smf.ols("yield_kg ~ age_y + irrigated + bins_filled", data=trees).fit()
        print(fit.rsquared)
    """, ORCHARD), DERIVED)
    assert f.severity == "critical"


BOOKSHOP = """
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(10)
n = 400
titles = pd.DataFrame({"price": rng.uniform(8, 30, n).round(2),
                       "author_followers": rng.gamma(2, 5000, n).round(),
                       "hardcover": rng.integers(0, 2, n)})
titles["copies_sold"] = rng.poisson(200 + 0.01 * titles.author_followers)
titles["preorders"] = rng.binomial(titles.copies_sold, 0.25)
"""


def test_preorders_thinned_from_sales_through_a_helper_and_drop_is_not_blocking():
    found = run("""
        def features(frame):
            return frame.drop(columns=["copies_sold"])
        X_tr, X_te, y_tr, y_te = train_test_split(features(titles), titles.copies_sold,
                                                  random_state=0)
        model = GradientBoostingRegressor(random_state=0).fit(X_tr, y_tr)
        print(model.score(X_te, y_te))
    """, BOOKSHOP)
    quiet(found)


def test_preorder_share_computed_from_sales_in_the_cell_stays_critical():
    found = run("""
        titles["preorder_share"] = titles.preorders / titles.copies_sold
        X_tr, X_te, y_tr, y_te = train_test_split(titles.drop(columns=["copies_sold"]),
                                                  titles.copies_sold, random_state=0)
        model = GradientBoostingRegressor(random_state=0).fit(X_tr, y_tr)
        print(model.score(X_te, y_te))
    """, BOOKSHOP)
    loud = [f for f in found if f.rule_id == DERIVED and f.severity == "critical"]
    assert len(loud) == 1 and "preorder_share" in loud[0].explanation


# -- a target encoding fitted on the training rows and mapped onto the held-out rows -------------

SHOPS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(4)
n = 400
shops = pd.DataFrame({"store": rng.choice([f"s{i}" for i in range(40)], n),
                      "footfall": rng.normal(500, 80, n)})
shops["revenue"] = (3 * shops.footfall + shops.store.str[1:].astype(int) * 5
                    + rng.normal(0, 50, n))
"""

_FIT_TAIL = """
m = Ridge().fit(tr[["footfall", "store_enc"]], tr.revenue)
print(f"held-out R2 {m.score(te[['footfall', 'store_enc']], te.revenue):.3f}")
"""

_TRAIN_ONLY_ENCODINGS = {
    # pandas: leave-one-out on the training rows, plain group means for the test rows
    "pandas_loo": """
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
        tr, te = tr.copy(), te.copy()
        s = tr.groupby("store")["revenue"].agg(["sum", "count"])
        tr["store_enc"] = (tr.store.map(s["sum"]) - tr.revenue) / (tr.store.map(s["count"]) - 1)
        te["store_enc"] = te.store.map(s["sum"] / s["count"]).fillna(tr.revenue.mean())
    """,
    # numpy: bincount sums with each row's own value taken out
    "numpy_bincount_loo": """
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
        tr, te = tr.copy(), te.copy()
        codes, uniq = pd.factorize(tr.store)
        sums = np.bincount(codes, weights=tr.revenue.to_numpy())
        cnt = np.bincount(codes)
        tr["store_enc"] = (sums[codes] - tr.revenue.to_numpy()) / np.maximum(cnt[codes] - 1, 1)
        lookup = dict(zip(uniq, sums / cnt))
        te["store_enc"] = te.store.map(lookup).fillna(tr.revenue.mean())
    """,
    # pandas named aggregation read back by attribute, leave-one-out on the training rows
    "pandas_named_agg_attribute": """
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
        tr, te = tr.copy(), te.copy()
        st = tr.groupby("store").agg(tot=("revenue", "sum"), k=("revenue", "size"))
        tr["store_enc"] = (tr.store.map(st.tot) - tr.revenue) / (tr.store.map(st.k) - 1)
        te["store_enc"] = te.store.map(st.tot / st.k).fillna(tr.revenue.median())
    """,
    # sklearn's TargetEncoder (cross-fitted on the training rows)
    "sklearn_target_encoder": """
        from sklearn.preprocessing import TargetEncoder
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
        tr, te = tr.copy(), te.copy()
        enc = TargetEncoder(target_type="continuous", random_state=0)
        tr["store_enc"] = enc.fit_transform(tr[["store"]], tr["revenue"]).ravel()
        te["store_enc"] = enc.transform(te[["store"]]).ravel()
    """,
    # hand-written out-of-fold encoding in a loop
    "out_of_fold_loop": """
        from sklearn.model_selection import KFold
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
        tr, te = tr.copy(), te.copy()
        tr["store_enc"] = np.nan
        for fit_idx, enc_idx in KFold(5, shuffle=True, random_state=0).split(tr):
            means = tr.iloc[fit_idx].groupby("store")["revenue"].mean()
            col = tr.columns.get_loc("store_enc")
            tr.iloc[enc_idx, col] = tr.iloc[enc_idx]["store"].map(means).to_numpy()
        tr["store_enc"] = tr["store_enc"].fillna(tr.revenue.mean())
        te["store_enc"] = te.store.map(tr.groupby("store")["revenue"].mean())
    """,
}


@pytest.mark.parametrize("code", list(_TRAIN_ONLY_ENCODINGS.values()),
                         ids=list(_TRAIN_ONLY_ENCODINGS))
def test_target_encoding_fitted_on_training_rows_after_the_split_is_quiet(code: str):
    import textwrap
    found = run(textwrap.dedent(code) + _FIT_TAIL, SHOPS)
    quiet(found)
    assert not [f for f in found if f.rule_id == "target_leakage.feature_derived_from_target"]


_LEAKY_ENCODINGS = {
    # leave-one-out over all rows before the split: each row's own target is in the feature
    "pandas_loo_before_split": """
        g = shops.groupby("store")["revenue"]
        shops["store_enc"] = (g.transform("sum") - shops.revenue) / (g.transform("count") - 1)
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
    """,
    # a per-store summary over all rows, leave-one-out on every row, then the split
    "named_agg_loo_before_split": """
        st = shops.groupby("store").agg(tot=("revenue", "sum"), k=("revenue", "size"))
        shops["store_enc"] = (shops.store.map(st.tot) - shops.revenue) / (shops.store.map(st.k) - 1)
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
    """,
    # the test rows' encoding reads their own target
    "test_rows_read_their_own_target": """
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
        tr, te = tr.copy(), te.copy()
        s = tr.groupby("store")["revenue"].agg(["sum", "count"])
        tr["store_enc"] = (tr.store.map(s["sum"]) - tr.revenue) / (tr.store.map(s["count"]) - 1)
        te["store_enc"] = (te.store.map(s["sum"]) + te.revenue) / (te.store.map(s["count"]) + 1)
    """,
    # numpy: the row's own value added to the encoding on all rows
    "numpy_with_own_value": """
        codes, uniq = pd.factorize(shops.store)
        sums = np.bincount(codes, weights=shops.revenue.to_numpy())
        shops["store_enc"] = (sums[codes] + shops.revenue.to_numpy()) / 2
        tr, te = train_test_split(shops, test_size=0.3, random_state=0)
    """,
}


@pytest.mark.parametrize("code", list(_LEAKY_ENCODINGS.values()), ids=list(_LEAKY_ENCODINGS))
def test_encoding_that_reads_each_scored_rows_own_target_stays_critical(code: str):
    import textwrap
    f = one(run(textwrap.dedent(code) + _FIT_TAIL, SHOPS),
            "target_leakage.feature_derived_from_target")
    assert f.severity == "critical"


# -- a previous model's prediction of the target kept as a feature ------------------------------

CREDIT = """
import io
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score, train_test_split
rng = np.random.default_rng(31)
n = 400
bad = rng.integers(0, 2, n)
num = np.column_stack([
    rng.normal(50, 12, n),
    np.where(bad == 1, rng.beta(5, 2, n), rng.beta(2, 5, n)).round(3),
    rng.uniform(0, 1, n),
])
loans = pd.DataFrame(num, columns=["income", "vendor_model_default_status_prob", "utilisation"])
loans["term"] = rng.choice(["36m", "60m"], n)
loans["default_status"] = np.where(bad == 1, "charged off", "paid")
"""


def test_a_previous_models_score_for_the_target_popped_then_dummied_is_high():
    found = run("""
        d = loans.copy()
        y = d.pop("default_status").eq("charged off").astype(int)
        X = pd.get_dummies(d, drop_first=True, dtype=float)
        print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=5).mean())
    """, CREDIT)
    f = one(found, "target_leakage.target_named_feature")
    assert f.severity == "high" and f.confidence == 0.7
    assert f.evidence["values"]["column"] == "vendor_model_default_status_prob"
    assert "prediction" in f.explanation


def test_the_same_model_without_the_previous_score_is_quiet():
    silent(run("""
        d = loans.drop(columns=["vendor_model_default_status_prob"])
        y = d.pop("default_status").eq("charged off").astype(int)
        X = pd.get_dummies(d, drop_first=True, dtype=float)
        print(cross_val_score(LogisticRegression(max_iter=500), X, y, cv=5).mean())
    """, CREDIT))


def test_a_previous_score_kept_by_a_drop_list_under_a_comparison_label_is_high():
    found = run("""
        target = loans["default_status"] == "charged off"
        feats = loans.drop(columns=["default_status", "term"])
        X_tr, X_te, y_tr, y_te = train_test_split(feats, target, random_state=0)
        rf = RandomForestClassifier(n_estimators=30, random_state=0).fit(X_tr, y_tr)
        print(rf.score(X_te, y_te))
    """, CREDIT)
    f = one(found, "target_leakage.target_named_feature")
    assert f.evidence["values"]["column"] == "vendor_model_default_status_prob"


def test_a_drop_list_that_removes_the_previous_score_is_quiet():
    silent(run("""
        target = loans["default_status"] == "charged off"
        feats = loans.drop(columns=["default_status", "term",
                                    "vendor_model_default_status_prob"])
        X_tr, X_te, y_tr, y_te = train_test_split(feats, target, random_state=0)
        rf = RandomForestClassifier(n_estimators=30, random_state=0).fit(X_tr, y_tr)
        print(rf.score(X_te, y_te))
    """, CREDIT))


def test_a_previous_score_selected_by_dtype_with_an_isin_label_is_high():
    found = run("""
        def design(frame):
            return frame.select_dtypes("number")
        lab = loans.default_status.isin(["charged off"]).astype(int)
        model = LogisticRegression(max_iter=500).fit(design(loans), lab)
        print(model.coef_)
    """, CREDIT)
    f = one(found, "target_leakage.target_named_feature")
    assert "vendor_model_default_status_prob" in f.explanation


def test_numeric_features_without_the_previous_score_are_quiet():
    silent(run("""
        def design(frame):
            return frame.select_dtypes("number").drop(columns="vendor_model_default_status_prob")
        lab = loans.default_status.isin(["charged off"]).astype(int)
        model = LogisticRegression(max_iter=500).fit(design(loans), lab)
        print(model.coef_)
    """, CREDIT))


def test_lag_words_are_whole_tokens_not_parts_of_the_target_name():
    assert T._similar("nb_classifier_attrition_flag_1", "attrition_flag")
    assert T._prediction_name("nb_classifier_attrition_flag_1", "attrition_flag")
    assert not T._similar("attrition_flag_lag1", "attrition_flag")
    assert not T._similar("attrition_flag_t1", "attrition_flag")
    assert not T._prediction_name("attrition_flag_reason", "attrition_flag")


# -- the strongest feature, named as measured after the outcome ----------------------------------

STAYS = """
import io
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score, train_test_split
rng = np.random.default_rng(41)
n = 900
y = rng.integers(0, 2, n)
cols = ["basket_items", "customer_age", "refund_wait_days", "days_to_close",
        "final_invoice_eur", "page_views", "final_score"]
orders = pd.DataFrame(np.column_stack([
    rng.poisson(3, n) + y,
    rng.normal(40, 12, n),
    y * 2.2 + rng.normal(0, 1, n),          # AUC about 0.94
    y * 2.2 + rng.normal(0, 1, n) + 5,
    80 + 20 * (y * 2.2 + rng.normal(0, 1, n)),
    y * 2.2 + rng.normal(0, 1, n),          # as strong, but an innocent name
    y * 0.5 + rng.normal(0, 1, n),          # AUC about 0.64
]), columns=cols)
orders["returned"] = y
"""


def test_a_strongly_separating_refund_column_is_a_medium_note():
    found = run("""
        cols = ["basket_items", "customer_age", "refund_wait_days"]
        clf = LogisticRegression(max_iter=500).fit(orders[cols], orders.returned)
        print(clf.coef_)
    """, STAYS)
    f = one(found, "target_leakage.post_outcome_feature")
    assert f.severity == "medium" and f.confidence == 0.5
    v = f.evidence["values"]
    assert v["column"] == "refund_wait_days" and 0.85 <= v["roc_auc"] < 0.98
    assert v["next_best_roc_auc"] < v["roc_auc"] - 0.1
    quiet(found)


def test_a_days_to_close_column_kept_by_a_drop_list_is_a_medium_note():
    found = run("""
        X = orders.drop(columns=["returned", "refund_wait_days", "final_invoice_eur",
                                 "page_views"])
        print(cross_val_score(RandomForestClassifier(n_estimators=20, random_state=0), X,
                              orders["returned"], cv=3).mean())
    """, STAYS)
    f = one(found, "target_leakage.post_outcome_feature")
    assert f.evidence["values"]["column"] == "days_to_close"


def test_a_final_amount_in_a_split_is_a_medium_note():
    found = run("""
        X = orders[["customer_age", "final_invoice_eur"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, orders.returned, random_state=1)
        print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
    """, STAYS)
    assert one(found, "target_leakage.post_outcome_feature").evidence["values"]["column"] == \
        "final_invoice_eur"


@pytest.mark.parametrize("code", [
    # the same models without the post-outcome column
    """
    cols = ["basket_items", "customer_age"]
    clf = LogisticRegression(max_iter=500).fit(orders[cols], orders.returned)
    """,
    """
    X = orders.drop(columns=["returned", "refund_wait_days", "final_invoice_eur",
                             "page_views", "days_to_close"])
    print(cross_val_score(RandomForestClassifier(n_estimators=20, random_state=0), X,
                          orders["returned"], cv=3).mean())
    """,
    # as strong a predictor, but an innocent name: a real predictor, not evidence of leakage
    """
    X = orders[["customer_age", "page_views"]]
    X_tr, X_te, y_tr, y_te = train_test_split(X, orders.returned, random_state=1)
    print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
    """,
])
def test_no_post_outcome_note_without_both_the_name_and_the_separation(code: str):
    silent(run(code, STAYS))


def test_a_post_outcome_name_that_barely_separates_is_silent():
    silent(run("""
        cols = ["customer_age", "final_score"]
        print(LogisticRegression().fit(orders[cols], orders.returned).coef_)
    """, STAYS))


# -- a label that thresholds an array variable; a feature computed from that variable -----------

ARRAYS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import cross_val_score, train_test_split
rng = np.random.default_rng(17)
n = 300
heart_rate = rng.normal(80, 12, n)
age = rng.uniform(20, 80, n)
core_temp = 36.8 + 0.02 * (heart_rate - 80) + rng.normal(0, 0.8, n)
skin_temp = 0.7 * core_temp + 9 + rng.normal(0, 0.05, n)
fever = (core_temp > 38.0).astype(int)
"""


def test_a_noisy_image_of_the_thresholded_variable_in_a_column_stack_is_high():
    found = run("""
        X = np.column_stack([heart_rate, age, skin_temp])
        print(cross_val_score(RandomForestClassifier(n_estimators=20, random_state=0), X,
                              fever, cv=3).mean())
    """, ARRAYS)
    f = one(found, "target_leakage.feature_from_target_source")
    assert f.severity == "high"
    v = f.evidence["values"]
    assert v["column"] == "skin_temp" and v["target_source"] == "core_temp"


def test_the_column_stack_without_it_is_silent():
    silent(run("""
        X = np.column_stack([heart_rate, age])
        print(cross_val_score(RandomForestClassifier(n_estimators=20, random_state=0), X,
                              fever, cv=3).mean())
    """, ARRAYS))


def test_the_thresholded_variable_itself_in_np_c_is_critical():
    found = run("""
        hot = np.where(core_temp >= 38.0, 1, 0)
        X = np.c_[heart_rate, core_temp]
        X_tr, X_te, y_tr, y_te = train_test_split(X, hot, random_state=0)
        print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
    """, ARRAYS)
    f = one(found, "target_leakage.target_in_features")
    assert f.severity == "critical"


def test_np_c_of_the_causes_of_the_thresholded_variable_is_silent():
    # the label's variable is computed from these features: they predict it, they are not it
    silent(run("""
        hot = np.where(core_temp >= 38.0, 1, 0)
        X = np.c_[heart_rate, age]
        X_tr, X_te, y_tr, y_te = train_test_split(X, hot, random_state=0)
        print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
    """, ARRAYS))


def test_an_exact_function_of_a_thresholded_series_in_a_dataframe_is_critical():
    found = run("""
        delay = pd.Series(rng.gamma(2.0, 8.0, n))
        late = delay.gt(15)
        feats = pd.DataFrame({"age": age, "delay_hours": delay / 60})
        print(LogisticRegression(max_iter=500).fit(feats, late).score(feats, late))
    """, ARRAYS)
    f = one(found, "target_leakage.feature_from_target_source")
    assert f.severity == "critical" and f.evidence["values"]["column"] == "delay_hours"


def test_a_dataframe_without_the_delay_is_silent():
    silent(run("""
        delay = pd.Series(rng.gamma(2.0, 8.0, n))
        late = delay.gt(15)
        feats = pd.DataFrame({"age": age, "heart_rate": heart_rate})
        print(LogisticRegression(max_iter=500).fit(feats, late).score(feats, late))
    """, ARRAYS))


# -- a column the setup draws from the label variable, named as a consequence of the outcome ------

ADMISSIONS = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score, train_test_split
rng = np.random.default_rng(77)
n = 900
gpa = rng.normal(3.2, 0.4, n)
essays = rng.integers(1, 6, n)
admit = rng.binomial(1, 1 / (1 + np.exp(-(3 * (gpa - 3.2) + 0.3 * (essays - 3)))))
scholarship = np.where(admit == 1, rng.binomial(1, 0.6, n), 0)
tier = np.where(admit == 1, "A", rng.choice(["B", "C"], n))
rate = pd.Series({"A": 1.0, "B": 0.85, "C": 0.6})[tier].to_numpy()
aid_award = np.round(4000 * rate * rng.normal(1, 0.12, n), 2)
interview = np.where(admit == 1, rng.normal(7, 1.5, n), rng.normal(6, 1.5, n)).round(1)
apps = pd.DataFrame({"gpa": gpa.round(2), "essays": essays, "interview_score": interview,
                     "scholarship_awarded": scholarship, "aid_award_usd": aid_award,
                     "campus_visit_contract": rng.binomial(1, 0.3, n),
                     "admitted": admit})
"""

_DRAWN_CONSEQUENCE = {
    # sklearn: a 0/1 column drawn only for the admitted, kept through drop()
    "sklearn_np_where": """
        X = apps.drop(columns=["admitted", "aid_award_usd"])
        X_tr, X_te, y_tr, y_te = train_test_split(X, apps["admitted"], random_state=0)
        m = LogisticRegression(max_iter=1000).fit(X_tr, y_tr)
        print(m.score(X_te, y_te))
    """,
    # statsmodels formula: an amount looked up through a tier fixed by the label, logged in
    # the cell
    "statsmodels_formula_lookup": """
        apps["log_aid"] = np.log(apps["aid_award_usd"])
        fit = smf.logit("admitted ~ gpa + essays + log_aid", data=apps).fit(disp=0)
        print(fit.prsquared)
    """,
    # a list of columns and cross-validation
    "cross_val_column_list": """
        cols = ["gpa", "essays", "aid_award_usd"]
        gb = GradientBoostingClassifier(random_state=0)
        print(cross_val_score(gb, apps[cols], apps.admitted, cv=5).mean())
    """,
}

_DRAWN_SOUND = {
    "sklearn_np_where": """
        X = apps[["gpa", "essays", "interview_score"]]
        X_tr, X_te, y_tr, y_te = train_test_split(X, apps["admitted"], random_state=0)
        m = LogisticRegression(max_iter=1000).fit(X_tr, y_tr)
        print(m.score(X_te, y_te))
    """,
    "statsmodels_formula_lookup": """
        fit = smf.logit("admitted ~ gpa + essays + interview_score", data=apps).fit(disp=0)
        print(fit.prsquared)
    """,
    # a consequence-like name on a column that is not drawn from the label
    "cross_val_column_list": """
        cols = ["gpa", "essays", "campus_visit_contract"]
        gb = GradientBoostingClassifier(random_state=0)
        print(cross_val_score(gb, apps[cols], apps.admitted, cv=5).mean())
    """,
}


@pytest.mark.parametrize("key", list(_DRAWN_CONSEQUENCE))
def test_column_drawn_from_the_label_named_as_its_consequence_is_medium(key: str):
    import textwrap
    found = run(textwrap.dedent(_DRAWN_CONSEQUENCE[key]), ADMISSIONS)
    f = one(found, "target_leakage.post_outcome_feature")
    assert f.severity == "medium" and f.confidence == 0.5
    assert f.evidence["values"]["label_variable"] == "admit"
    quiet(found)


@pytest.mark.parametrize("key", list(_DRAWN_SOUND))
def test_label_drawn_marker_or_an_undrawn_consequence_name_is_quiet(key: str):
    import textwrap
    found = run(textwrap.dedent(_DRAWN_SOUND[key]), ADMISSIONS)
    quiet(found)
    assert not [f for f in found if f.rule_id == "target_leakage.post_outcome_feature"]


# -- dummies of a text column computed from the target ------------------------------------------

TICKETS = """
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
rng = np.random.default_rng(8)
n = 600
tickets = pd.DataFrame({"channel": rng.choice(["chat", "mail", "phone"], n),
                        "wait_min": rng.gamma(2, 6, n).round(1)})
tickets["escalated"] = (rng.random(n) < 0.2 + 0.01 * tickets.wait_min).astype(int)
tickets["queue_after"] = np.where(tickets["escalated"] == 1,
                                  rng.choice(["tier2", "tier3"], n), "tier1")
"""


@pytest.mark.parametrize("code", [
    """
        X = pd.get_dummies(tickets.drop(columns=["escalated"]), dtype=float)
        rf = RandomForestClassifier(random_state=0).fit(X, tickets.escalated)
    """,
    # named columns, drop_first, a held-out split
    """
        from sklearn.model_selection import train_test_split
        X = pd.get_dummies(tickets.drop(columns="escalated"), columns=["channel", "queue_after"],
                           drop_first=True, dtype=int)
        X_tr, X_te, y_tr, y_te = train_test_split(X, tickets["escalated"], random_state=1)
        rf = RandomForestClassifier(random_state=0).fit(X_tr, y_tr)
        print(rf.score(X_te, y_te))
    """,
    # the dummies joined back onto the numeric columns
    """
        X = tickets[["wait_min"]].join(pd.get_dummies(tickets["queue_after"],
                                                      prefix="queue_after", dtype=float))
        rf = RandomForestClassifier(random_state=0).fit(X, tickets.escalated)
    """,
])
def test_dummies_of_a_text_column_computed_from_the_target_are_reported(code: str):
    found = run(code, TICKETS)
    f = one(found, DERIVED)
    assert f.evidence["values"]["column"] == "queue_after"
    assert "dummy" in f.explanation


def test_dummies_of_a_text_column_known_before_the_outcome_are_quiet():
    silent(run("""
        X = pd.get_dummies(tickets[["channel", "wait_min"]], dtype=float)
        rf = RandomForestClassifier(random_state=0).fit(X, tickets.escalated)
    """, TICKETS))


# -- a sibling of the label through the variable its source column copies ----------------------

ASSAY = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(12)
n = 300
dose = rng.uniform(0, 1, (n, 5))
log_ec50 = 1.0 - 2 * dose[:, 0] + rng.normal(0, 0.8, n)
emax = 100 / (1 + np.exp(log_ec50)) + rng.normal(0, 3, n)
assay = pd.DataFrame(dose, columns=[f"d{i}" for i in range(5)])
assay["emax_pct"] = emax.round(1)
assay["log_ec50"] = log_ec50.round(3)
assay["potent"] = (assay["log_ec50"] < 0.5).astype(int)
"""


ASSAY_DICT = """
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(13)
n = 300
d0, d1 = rng.uniform(0, 1, n), rng.uniform(0, 1, n)
log_ec50 = 1.0 - 2 * d0 + rng.normal(0, 0.8, n)
emax = 100 / (1 + np.exp(log_ec50)) + rng.normal(0, 3, n)
assay = pd.DataFrame({"d0": d0, "d1": d1, "emax_pct": emax.round(1),
                      "log_ec50": np.round(log_ec50, 3)})
assay["potent"] = np.where(assay["log_ec50"] < 0.5, 1, 0)
"""


@pytest.mark.parametrize("code,setup", [
    ("""
        X = assay.drop(columns=["log_ec50", "potent"])
        print(cross_val_score(LogisticRegression(max_iter=500), X, assay.potent, cv=5).mean())
    """, ASSAY),
    # columns built from a dict of variables, a label from np.where, a held-out split
    ("""
        X_tr, X_te, y_tr, y_te = train_test_split(assay[["d0", "d1", "emax_pct"]],
                                                  assay["potent"], random_state=0)
        rf = RandomForestClassifier(random_state=0).fit(X_tr, y_tr)
        print(rf.score(X_te, y_te))
    """, ASSAY_DICT),
    # the features picked with a comprehension
    ("""
        feats = [c for c in assay.columns if c not in ("log_ec50", "potent")]
        rf = RandomForestClassifier(random_state=0).fit(assay[feats], assay.potent)
    """, ASSAY_DICT),
])
def test_feature_from_the_variable_the_label_source_copies_is_reported(code: str, setup: str):
    found = run(code, setup)
    f = one(found, "target_leakage.feature_from_target_source")
    assert f.evidence["values"]["column"] == "emax_pct" and f.severity == "high"


def test_without_the_sibling_of_the_label_source_is_quiet():
    silent(run("""
        X = assay.drop(columns=["log_ec50", "potent", "emax_pct"])
        print(cross_val_score(LogisticRegression(max_iter=500), X, assay.potent, cv=5).mean())
    """, ASSAY))


def test_without_the_sibling_of_the_label_source_dict_setup_is_quiet():
    silent(run("""
        feats = [c for c in assay.columns if c not in ("log_ec50", "potent", "emax_pct")]
        rf = RandomForestClassifier(random_state=0).fit(assay[feats], assay.potent)
    """, ASSAY_DICT))


# -- the numerator of the rate the target is, among the features (part-whole leak) ----------

_FARMS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(7)
n = 240
farms = pd.DataFrame({
    "area_ha": rng.uniform(5, 120, n).round(1),
    "rain_mm": rng.normal(600, 90, n).round(0),
    "n_kg_ha": rng.uniform(40, 180, n).round(0),
})
farms["production_t"] = (farms["area_ha"] * np.exp(1.0 + 0.001 * farms["rain_mm"]
                         + rng.normal(0, 0.4, n))).round(2)
farms["yield_t_ha"] = (farms["production_t"] / farms["area_ha"]).round(3)
"""

_FARMS_SK = """
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
farms["log_yield"] = np.log(farms["yield_t_ha"])
X = farms[[{feats}]]
y = farms["log_yield"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, random_state=0)
reg = LinearRegression().fit(X_tr, y_tr)
print(reg.score(X_te, y_te))
"""

_INSURE = """
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.model_selection import cross_val_score
rng = np.random.default_rng(3)
n = 300
pol = pd.DataFrame({
    "policy_years": rng.uniform(0.2, 5, n).round(2),
    "driver_age": rng.integers(18, 80, n),
})
pol["claims_eur"] = (pol["policy_years"] * rng.gamma(2, 300, n)).round(0)
"""

_INSURE_CELL = """
pol = pol.assign(loss_rate=pol["claims_eur"] / pol["policy_years"])
pol["log_claims"] = np.log1p(pol["claims_eur"])
feats = [{feats}]
gb = GradientBoostingRegressor(random_state=0)
print(cross_val_score(gb, pol[feats], pol["loss_rate"], cv=5).mean())
"""

_TOWNS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
n = 200
towns = pd.DataFrame({
    "area_km2": rng.uniform(2, 80, n).round(1),
    "elevation_m": rng.uniform(0, 900, n).round(0),
})
towns["population"] = (towns["area_km2"] * rng.lognormal(5, 0.5, n)).round(0)
"""

_TOWNS_CELL = """
import statsmodels.formula.api as smf

def add_density(d):
    d = d.copy()
    d["density"] = d["population"] / d["area_km2"]
    return d

t = add_density(towns)
fit = smf.ols("np.log(density) ~ {rhs}", data=t).fit()
print(fit.rsquared)
"""


@pytest.mark.parametrize("code, setup", [
    (_FARMS_SK.format(feats='"production_t", "rain_mm", "n_kg_ha"'), _FARMS),
    (_INSURE_CELL.format(feats='"log_claims", "driver_age"'), _INSURE),
    (_TOWNS_CELL.format(rhs="np.log(population) + elevation_m"), _TOWNS),
])
def test_numerator_of_the_target_rate_as_a_feature_is_reported(code: str, setup: str):
    f = one(H.run(RULES, code, setup), "target_leakage.target_in_features")
    assert f.severity == "critical" and "numerator" in f.explanation


@pytest.mark.parametrize("code, setup", [
    # the denominator (exposure) and other inputs known beforehand are fine
    (_FARMS_SK.format(feats='"area_ha", "rain_mm", "n_kg_ha"'), _FARMS),
    (_INSURE_CELL.format(feats='"policy_years", "driver_age"'), _INSURE),
    (_TOWNS_CELL.format(rhs="np.log(area_km2) + elevation_m"), _TOWNS),
])
def test_denominator_or_unrelated_features_of_a_rate_target_are_quiet(code: str, setup: str):
    quiet(H.run(RULES, code, setup))


# -- train-only target encodings mapped onto held-out rows stay quiet ------------------------

_CLINICS = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(8)
n = 400
visits = pd.DataFrame({"clinic": rng.choice(list("ABCDEFGH"), n),
                       "age": rng.normal(50, 12, n)})
visits["wait_min"] = 20 + 0.2 * visits.age + rng.normal(0, 5, n)
"""


@pytest.mark.parametrize("enc", [
    # leave-one-out inside training from a tuple of group transforms
    ('g = tr.groupby("clinic")["wait_min"]\n'
     's, k = g.transform("sum"), g.transform("count")\n'
     'tr["clinic_wait"] = (s - tr["wait_min"]) / (k - 1)\n'
     'te["clinic_wait"] = te["clinic"].map(g.mean())\n'),
    # the group statistics written out in the tuple, the test side through .agg
    ('tot, cnt = (tr.groupby("clinic")["wait_min"].transform("sum"),\n'
     '            tr.groupby("clinic")["wait_min"].transform("size"))\n'
     'tr["clinic_wait"] = (tot - tr.wait_min) / (cnt - 1)\n'
     'te["clinic_wait"] = te.clinic.map(tr.groupby("clinic")["wait_min"].agg("mean"))\n'),
])
def test_train_only_leave_one_out_encoding_is_quiet(enc: str):
    code = ("tr, te = train_test_split(visits, test_size=0.3, random_state=0)\n"
            "tr, te = tr.copy(), te.copy()\n" + enc +
            'cols = ["age", "clinic_wait"]\n'
            'm = LinearRegression().fit(tr[cols].fillna(0), tr["wait_min"])\n'
            'print(m.score(te[cols].fillna(0), te["wait_min"]))\n')
    quiet(H.run(RULES, code, _CLINICS))


# -- a feature copied from a variable that was computed from the target's variable ----------

_ESSAY = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
n = 250
hours = rng.normal(10, 3, n)
essay = 40 + 2 * hours + rng.normal(0, 6, n)
oral = rng.normal(60, 8, n)
combined = 0.7 * essay + 0.3 * oral
band = pd.cut(combined, [-1, 50, 60, 70, 200], labels=["D", "C", "B", "A"])
marks = pd.DataFrame({"hours": hours.round(1), "oral": oral.round(1),
                      "band": band, "essay": essay.round(1)})
"""
_ESSAY_CELLS = [
    'import statsmodels.formula.api as smf\n'
    'fit = smf.ols("essay ~ hours + {x}", data=marks).fit()\nprint(fit.rsquared)\n',
    'from sklearn.linear_model import LinearRegression\n'
    'X = pd.get_dummies(marks[["hours", "{x}"]], drop_first=True)\n'
    'm = LinearRegression().fit(X, marks["essay"])\nprint(m.score(X, marks["essay"]))\n',
    'from sklearn.ensemble import RandomForestRegressor\n'
    'X = marks.drop(columns=["essay", "{drop}"])\nX = pd.get_dummies(X)\n'
    'rf = RandomForestRegressor(n_estimators=20, random_state=0).fit(X, marks.essay)\n',
]


@pytest.mark.parametrize("cell", _ESSAY_CELLS)
def test_feature_copied_from_a_variable_built_from_the_target_is_reported(cell: str):
    code = cell.replace("{x}", "C(band)" if "smf" in cell else "band").replace("{drop}", "oral")
    f = one(H.run(RULES, code, _ESSAY), "target_leakage.feature_derived_from_target")
    assert f.severity == "critical" and "band" in f.explanation


@pytest.mark.parametrize("cell", _ESSAY_CELLS)
def test_features_not_built_from_the_target_variable_are_quiet(cell: str):
    code = cell.replace("{x}", "oral").replace("{drop}", "band")
    quiet(H.run(RULES, code, _ESSAY))


# -- a part taken out of the total of a share target -------------------------------------------

_BATCH = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(4)
n = 200
runs = pd.DataFrame({"line": rng.choice(["L1", "L2"], n), "speed": rng.normal(30, 3, n),
                     "humidity": rng.normal(50, 8, n)})
started = 5000
scrap_a = rng.binomial(started, 0.03 + 0.002 * (runs.speed - 30).clip(0))
runs["rework"] = rng.binomial(started - scrap_a, 0.02, n)
runs["good_pct"] = 100 * (started - scrap_a - runs["rework"]) / started
"""


@pytest.mark.parametrize("cell", [
    'import statsmodels.formula.api as smf\n'
    'fit = smf.ols("good_pct ~ speed + humidity + {x}", data=runs).fit()\n',
    'from sklearn.linear_model import LinearRegression\n'
    'X = runs[["speed", "humidity", "{x}"]]\n'
    'm = LinearRegression().fit(X, runs.good_pct)\n',
    'import statsmodels.api as sm\n'
    'X = sm.add_constant(runs[["speed", "{x}"]])\n'
    'res = sm.OLS(runs["good_pct"], X).fit()\n',
])
def test_part_taken_out_of_a_share_target_is_reported(cell: str):
    f = one(H.run(RULES, cell.replace("{x}", "rework"), _BATCH),
            "target_leakage.target_in_features")
    assert f.severity == "critical" and "rework" in f.explanation
    quiet(H.run(RULES, cell.replace("{x}", "humidity").replace(
        '"humidity", "humidity"', '"humidity"').replace("humidity + humidity", "humidity"),
        _BATCH))


# -- a label defined by a rule one of whose clauses reads only feature columns -----------------

_SEPSIS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(6)
n = 500
icu = pd.DataFrame({"age": rng.normal(60, 12, n), "lactate_0h": rng.lognormal(0.3, 0.3, n)})
icu["lactate_max"] = icu.lactate_0h * np.exp(rng.normal(0.1, 0.3, n))
other = rng.binomial(1, 0.05, n)
icu["shock"] = ((icu.lactate_max > 2 * icu.lactate_0h) | (other == 1)).astype(int)
"""


@pytest.mark.parametrize("cell", [
    'import statsmodels.formula.api as smf\n'
    'fit = smf.logit("shock ~ age + lactate_0h{x}", data=icu).fit(disp=0)\n',
    'from sklearn.linear_model import LogisticRegression\n'
    'cols = ["age", "lactate_0h"{x}]\n'
    'm = LogisticRegression(max_iter=500).fit(icu[cols], icu["shock"])\n',
    'from sklearn.ensemble import RandomForestClassifier\n'
    'X = icu.drop(columns=["shock"{x}])\n'
    'rf = RandomForestClassifier(n_estimators=20, random_state=0).fit(X, icu.shock)\n',
])
def test_label_rule_over_feature_columns_is_reported(cell: str):
    flawed = cell.replace("{x}", " + lactate_max" if "smf" in cell else
                          ', "lactate_max"' if "cols" in cell else "")
    f = one(H.run(RULES, flawed, _SEPSIS), "target_leakage.target_in_features")
    assert f.severity == "critical" and "lactate_max" in f.explanation
    sound = cell.replace("{x}", "" if "drop" not in cell else ', "lactate_max"')
    quiet(H.run(RULES, sound, _SEPSIS))


# -- a feature drawn from the outcome's own structural equation (its error term) ---------------

_SHOP = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(9)
n = 400
st = pd.DataFrame({"footfall": rng.integers(500, 3000, n), "staff": rng.integers(2, 9, n)})
conv = (0.02 + 0.004 * st.staff + rng.normal(0, 0.01, n)).clip(0.001)
st["orders"] = (st.footfall * conv).round()
st["ad_share"] = rng.uniform(0.1, 0.4, n)
st["returns_rate"] = (conv * 3 + rng.normal(0, 0.005, n)).round(4)
st["conv_pct"] = 100 * st.orders / st.footfall
"""


@pytest.mark.parametrize("cell", [
    'from sklearn.ensemble import RandomForestRegressor\n'
    'feats = ["footfall", "staff", "{x}"]\n'
    'rf = RandomForestRegressor(n_estimators=20, random_state=0).fit(st[feats], st.conv_pct)\n',
    'from sklearn.linear_model import LinearRegression\n'
    'X, y = st[["footfall", "staff", "{x}"]], st["conv_pct"]\n'
    'm = LinearRegression().fit(X, y)\n',
    'from sklearn.linear_model import Ridge\n'
    'from sklearn.model_selection import cross_val_score\n'
    'print(cross_val_score(Ridge(), st[["footfall", "staff", "{x}"]], st.conv_pct, cv=5).mean())\n',
])
def test_feature_drawn_from_the_outcome_error_term_is_reported(cell: str):
    found = H.run(RULES, cell.replace("{x}", "returns_rate"), _SHOP)
    f = one(found, "target_leakage.feature_from_target_source")
    assert f.severity in ("high", "critical") and "returns_rate" in f.explanation
    quiet(H.run(RULES, cell.replace("{x}", "ad_share"), _SHOP))


# -- the same label rules written with numpy functions: np.logical_or / np.logical_and /
# np.logical_or.reduce / np.where(cond, 1, 0) -------------------------------------------------

_TURBINES = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
n = 400
wt = pd.DataFrame({"hours": rng.uniform(0, 9e4, n), "vib_rms": rng.gamma(2.0, 1.5, n),
                   "oil_temp": rng.normal(70, 8, n), "gust_max": rng.gamma(3.0, 5.0, n)})
wt["error_code"] = rng.binomial(1, 0.07, n)
"""

_NUMPY_RULES = [
    # np.logical_or, then .astype(int); statsmodels formula
    ('wt["failed"] = np.logical_or(wt.vib_rms > 6, wt.error_code == 1).astype(int)\n'
     'import statsmodels.formula.api as smf\n'
     'fit = smf.logit("failed ~ hours + oil_temp{x}", data=wt).fit(disp=0)\n'
     'print(fit.prsquared)\n'),
    # np.where(cond, 1, 0) over an & rule; sklearn with a column list
    ('from sklearn.ensemble import GradientBoostingClassifier\n'
     'wt["overheat"] = np.where((wt["oil_temp"] >= 85) & (wt["hours"] > 2e4), 1, 0)\n'
     'cols = ["vib_rms", "gust_max"{x}]\n'
     'gb = GradientBoostingClassifier(random_state=0).fit(wt[cols], wt["overheat"])\n'),
    # np.logical_or.reduce over three clauses; a drop list
    ('from sklearn.linear_model import LogisticRegression\n'
     'wt["alarm"] = np.logical_or.reduce([wt.gust_max > 30, wt.vib_rms > 7,\n'
     '                                    wt.error_code == 1]).astype(int)\n'
     'X = wt.drop(columns=["alarm", "error_code"{x}])\n'
     'clf = LogisticRegression(max_iter=1000).fit(X, wt.alarm)\n'),
    # np.logical_and with a flag clause; train_test_split of a feature array
    ('from sklearn.model_selection import train_test_split\n'
     'from sklearn.tree import DecisionTreeClassifier\n'
     'wt["retire"] = np.logical_and(wt.hours > 6e4, wt.error_code == 1)\n'
     'feats = ["oil_temp", "vib_rms"{x}]\n'
     'X_tr, X_te, y_tr, y_te = train_test_split(wt[feats], wt.retire, random_state=0)\n'
     'tree = DecisionTreeClassifier(random_state=0).fit(X_tr, y_tr)\n'
     'print(tree.score(X_te, y_te))\n'),
]
_NUMPY_RULE_COLUMNS = ["vib_rms", "oil_temp", "gust_max", "hours"]


@pytest.mark.parametrize("i", range(len(_NUMPY_RULES)))
def test_label_rule_written_with_numpy_functions_is_reported(i: int):
    cell, col = _NUMPY_RULES[i], _NUMPY_RULE_COLUMNS[i]
    if "drop(" in cell:  # the flaw keeps the clause column among the features
        flawed, sound = cell.replace("{x}", ""), cell.replace("{x}", ', "gust_max", "vib_rms"')
    elif "smf" in cell:
        flawed, sound = cell.replace("{x}", " + vib_rms"), cell.replace("{x}", "")
    else:
        flawed, sound = cell.replace("{x}", f', "{col}"'), cell.replace("{x}", "")
    f = one(H.run(RULES, flawed, _TURBINES), "target_leakage.target_in_features")
    assert f.severity == "critical" and col in f.explanation
    quiet(H.run(RULES, sound, _TURBINES))



# -- a frame built from per-row records: one field computed from the target's value --------

_RECORD_SETUPS = [
    # a loop over raw order lines appending dicts; the revenue field is units x price
    ("""
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
raw = [(int(u), float(p), float(a)) for u, p, a in zip(rng.poisson(20, 150),
       rng.uniform(2, 9, 150), rng.uniform(0, 500, 150))]
rows = []
for units, price, ad_spend in raw:
    rows.append({"units": units, "price": round(price, 2), "ad_spend": ad_spend,
                 "revenue": round(units * price, 2)})
orders = pd.DataFrame(rows)
""", "revenue"),
    # a list comprehension of records; bed-day cost is length of stay x daily rate
    ("""
import numpy as np
import pandas as pd
rng = np.random.default_rng(12)
stays = [(float(l), float(r), int(a)) for l, r, a in zip(rng.gamma(2, 3, 160),
         rng.uniform(800, 1500, 160), rng.integers(20, 90, 160))]
adm = pd.DataFrame([{"los_days": los, "daily_rate": rate, "age": age,
                     "bed_cost": los * rate} for los, rate, age in stays])
""", "bed_cost"),
    # records appended inside a nested loop, then from_records; catch per hour of effort
    ("""
import numpy as np
import pandas as pd
rng = np.random.default_rng(13)
hauls = []
for vessel in range(6):
    for trip in range(25):
        hours = float(rng.uniform(2, 12))
        catch = float(rng.gamma(3, 40))
        hauls.append({"vessel": vessel, "hours": hours, "sst": float(rng.normal(14, 2)),
                      "catch_kg": round(catch, 1), "cpue": catch / hours})
fish = pd.DataFrame.from_records(hauls)
""", "cpue"),
]
_RECORD_CELLS = [
    ('from sklearn.linear_model import LinearRegression\n'
     'cols = ["price", "ad_spend"{x}]\n'
     'lr = LinearRegression().fit(orders[cols], orders["units"])\n'
     'print(lr.score(orders[cols], orders["units"]))\n'),
    ('import statsmodels.formula.api as smf\n'
     'fit = smf.ols("los_days ~ age + daily_rate{x}", data=adm).fit()\n'
     'print(fit.rsquared)\n'),
    ('import statsmodels.api as sm\n'
     'X = sm.add_constant(fish[["hours", "sst"{x}]])\n'
     'res = sm.OLS(fish["catch_kg"], X).fit()\n'
     'print(res.rsquared)\n'),
]


@pytest.mark.parametrize("i", range(len(_RECORD_CELLS)))
def test_feature_computed_from_the_target_in_row_records_is_reported(i: int):
    setup, col = _RECORD_SETUPS[i]
    cell = _RECORD_CELLS[i]
    extra = f" + {col}" if "smf" in cell else f', "{col}"'
    f = one(H.run(RULES, cell.replace("{x}", extra), setup),
            "target_leakage.feature_derived_from_target")
    assert f.severity == "critical" and col in f.explanation
    quiet(H.run(RULES, cell.replace("{x}", ""), setup))


# -- a target subset by a row mask: the mask's columns are not what the target is made of -----

_INCIDENTS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(21)
n = 400
inc = pd.DataFrame({
    "opened": pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.uniform(0, 1400, n), unit="D"),
    "severity": rng.integers(1, 5, n),
    "staff_on_shift": rng.integers(2, 9, n),
    "resolve_hours": rng.gamma(2, 5, n),
})
inc["weekday"] = inc["opened"].dt.dayofweek
inc["quarter"] = inc["opened"].dt.quarter
inc["agent_hours"] = inc["resolve_hours"] * inc["staff_on_shift"]
"""
_MASKED_TARGETS = [
    # a named mask on the target vector, sklearn
    ('from sklearn.ensemble import RandomForestRegressor\n'
     'feats = ["severity", "staff_on_shift", "weekday", "quarter"{x}]\n'
     'y = np.log1p(inc["resolve_hours"])\n'
     'early = inc["opened"] < "2023-01-01"\n'
     'rf = RandomForestRegressor(n_estimators=50, random_state=0)\n'
     'rf.fit(inc.loc[early, feats], y[early])\n'
     'print(rf.score(inc.loc[~early, feats], y[~early]))\n'),
    # .loc with an inline mask on the target Series
    ('from sklearn.linear_model import Ridge\n'
     'feats = ["severity", "weekday"{x}]\n'
     'target = inc["resolve_hours"]\n'
     'm = Ridge().fit(inc.loc[inc.opened.dt.year < 2023, feats],\n'
     '                target.loc[inc.opened.dt.year < 2023])\n'
     'print(m.coef_)\n'),
    # a mask combining two conditions, GradientBoosting
    ('from sklearn.ensemble import GradientBoostingRegressor\n'
     'cols = ["quarter", "staff_on_shift"{x}]\n'
     'outcome = inc.resolve_hours.clip(upper=100)\n'
     'keep = (inc.opened.dt.year >= 2021) & (inc.severity > 1)\n'
     'gb = GradientBoostingRegressor(random_state=0).fit(inc[cols][keep], outcome[keep])\n'
     'print(gb.feature_importances_)\n'),
]


@pytest.mark.parametrize("cell", _MASKED_TARGETS)
def test_row_mask_on_the_target_does_not_make_its_columns_targets(cell: str):
    # sound: date parts of the timestamp the mask reads are legitimate features
    quiet(H.run(RULES, cell.replace("{x}", ""), _INCIDENTS))
    # flawed twin: a feature computed from the target is still reported
    f = one(H.run(RULES, cell.replace("{x}", ', "agent_hours"'), _INCIDENTS),
            "target_leakage.feature_derived_from_target")
    assert f.severity == "critical" and "agent_hours" in f.explanation


# -- a continuous target held in a variable, a stacked feature computed from it ----------------

_VAR_TARGETS = [
    # energy: the bill is the consumption times the tariff (deterministic), numpy + sklearn
    ("""
import numpy as np
rng = np.random.default_rng(4)
n = 400
temp = rng.normal(12, 6, n)
occupants = rng.integers(1, 6, n)
kwh = 300 + 14 * np.clip(18 - temp, 0, None) + 40 * occupants + rng.normal(0, 25, n)
bill_eur = kwh * 0.31
""", """
from sklearn.linear_model import LinearRegression
X = np.column_stack([temp, occupants{x}])
m = LinearRegression().fit(X, kwh)
print(m.score(X, kwh))
""", ", bill_eur", "critical"),
    # hospital: a discharge invoice drawn from the length of stay, np.c_ + cross_val_score
    ("""
import numpy as np
rng = np.random.default_rng(8)
n = 350
age = rng.uniform(20, 90, n)
severity = rng.integers(1, 5, n)
los_days = np.exp(0.6 + 0.01 * age + 0.3 * severity + rng.normal(0, 0.3, n))
invoice = 1200 * los_days + rng.normal(0, 300, n)
""", """
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import cross_val_score
feats = np.c_[age, severity{x}]
feats = (feats - feats.mean(axis=0)) / feats.std(axis=0)
print(cross_val_score(RandomForestRegressor(n_estimators=30, random_state=0),
                      feats, los_days, cv=5).mean())
""", ", invoice", "high"),
    # agronomy: revenue per field from a comprehension over the yield, statsmodels OLS
    ("""
import numpy as np
rng = np.random.default_rng(15)
rain = rng.normal(600, 90, 220)
nitrogen = rng.uniform(50, 200, 220)
yield_t = 2 + 0.004 * rain + 0.01 * nitrogen + rng.normal(0, 0.4, 220)
revenue = np.array([v * 185.0 for v in yield_t])
""", """
import statsmodels.api as sm
design = sm.add_constant(np.column_stack([rain, nitrogen{x}]))
fit = sm.OLS(yield_t, design).fit()
print(fit.rsquared)
""", ", revenue", "critical"),
]


@pytest.mark.parametrize(("setup", "cell", "extra", "severity"), _VAR_TARGETS)
def test_stacked_feature_computed_from_a_variable_target(setup: str, cell: str, extra: str,
                                                         severity: str):
    f = one(H.run(RULES, cell.replace("{x}", extra), setup),
            "target_leakage.feature_derived_from_target")
    assert f.severity == severity and extra.strip(", ") in f.explanation
    quiet(H.run(RULES, cell.replace("{x}", ""), setup))


_VAR_TARGET_SOUND = [
    # a lag of the target (yesterday's load) is history, not the outcome
    """
import numpy as np
from sklearn.linear_model import Ridge
rng = np.random.default_rng(2)
temp = rng.normal(15, 5, 300)
load = 500 + 8 * temp + rng.normal(0, 20, 300)
load_prev = np.roll(load, 1)
X = np.column_stack([temp, load_prev])
print(Ridge().fit(X[1:], load[1:]).coef_)
""",
    # stacking: out-of-fold predictions of the target as a second-level feature
    """
import numpy as np
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.model_selection import cross_val_predict
rng = np.random.default_rng(3)
a, b = rng.normal(size=200), rng.normal(size=200)
y = 2 * a - b + rng.normal(0, 0.5, 200)
oof = cross_val_predict(LinearRegression(), np.c_[a, b], y, cv=5)
X2 = np.column_stack([a, oof])
print(Ridge().fit(X2, y).coef_)
""",
    # a class-conditional simulation: markers drawn from a label drawn at random
    """
import numpy as np
from sklearn.linear_model import LinearRegression
rng = np.random.default_rng(5)
score = rng.normal(50, 10, 250)
marker1 = score * 0.1 + rng.normal(0, 1, 250)
marker2 = rng.normal(0, 1, 250)
print(LinearRegression().fit(np.column_stack([marker1, marker2]), score).coef_)
""",
    # a predictor recorded first, the outcome computed from it
    """
import numpy as np
from sklearn.linear_model import LinearRegression
rng = np.random.default_rng(6)
dose = rng.uniform(0, 10, 180)
age = rng.uniform(30, 70, 180)
response = 3 * dose - 0.1 * age + rng.normal(0, 2, 180)
print(LinearRegression().fit(np.column_stack([dose, age]), response).coef_)
""",
]


@pytest.mark.parametrize("cell", _VAR_TARGET_SOUND)
def test_variable_target_sound_features_are_quiet(cell: str):
    silent([f for f in H.run(RULES, cell) if f.rule_id.startswith("target_leakage.feature_")])


# -- the target named through a config dict entry (CFG["target"], dict(label=...)) ------------

CFG_CHURN = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
n = 1500
tenure = rng.integers(1, 72, n)
monthly = rng.normal(60, 15, n).round(2)
plan = rng.choice(["basic", "plus", "family"], n)
churned = (rng.random(n) < 1 / (1 + np.exp(0.04 * tenure - 0.5))).astype(int)
# the CRM's line state, pulled when the extract ran (after the churn happened)
line_state = np.where(churned == 1,
                      rng.choice(["ported_out", "suspended", "active"], n, p=[.6, .3, .1]),
                      rng.choice(["ported_out", "suspended", "active"], n, p=[.01, .03, .96]))
subs = pd.DataFrame({"tenure": tenure, "monthly": monthly, "plan": plan,
                     "line_state": line_state, "churned": churned})
"""


@pytest.mark.parametrize("cats", [["plan", "line_state"], ["plan"]])
def test_config_dict_target_with_a_post_outcome_state_in_a_column_transformer(cats):
    code = f"""
        from sklearn.compose import ColumnTransformer
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import OneHotEncoder, StandardScaler
        from sklearn.model_selection import cross_val_score

        CFG = {{"target": "churned", "num": ["tenure", "monthly"], "cat": {cats!r}}}
        prep = ColumnTransformer([("n", StandardScaler(), CFG["num"]),
                                  ("c", OneHotEncoder(handle_unknown="ignore"), CFG["cat"])])
        model = make_pipeline(prep, LogisticRegression(max_iter=500))
        X, y = subs[CFG["num"] + CFG["cat"]], subs[CFG["target"]]
        model.fit(X, y)
        print(cross_val_score(model, X, y, scoring="roc_auc").mean())
        """
    found = H.run(RULES, code, CFG_CHURN)
    if "line_state" in cats:
        f = one(found, "target_leakage.post_outcome_feature")
        assert "line_state" in f.explanation and "churned" in f.explanation
    else:
        quiet(found)


CFG_READMIT = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(12)
n = 800
adm = pd.DataFrame({"age": rng.integers(30, 95, n), "los_prior": rng.poisson(3, n),
                    "hba1c": rng.normal(7.5, 1.2, n).round(1)})
adm["readmit_30d"] = (rng.random(n) < 0.15 + 0.002 * (adm.age - 60)).astype(int)
"""


@pytest.mark.parametrize("features", [["age", "hba1c", "readmit_30d"], ["age", "hba1c"]])
def test_config_dict_target_among_statsmodels_features(features):
    code = f"""
        import statsmodels.api as sm
        SPEC = dict(outcome="readmit_30d", covariates={features!r})
        res = sm.Logit(adm[SPEC["outcome"]], sm.add_constant(adm[SPEC["covariates"]])).fit(
            disp=0, method="bfgs", maxiter=200)
        print(res.params)
        """
    found = H.run(RULES, code, CFG_READMIT)
    if "readmit_30d" in features:
        f = one(found, "target_leakage.target_in_features")
        assert "readmit_30d" in f.explanation
    else:
        quiet(found)


CFG_LOANS = """
import numpy as np
import pandas as pd
from sklearn.ensemble import GradientBoostingClassifier
rng = np.random.default_rng(13)
n = 900
loans = pd.DataFrame({"loan_id": np.arange(n), "dti": rng.uniform(5, 45, n),
                      "fico": rng.normal(690, 40, n).round()})
loans["defaulted"] = (rng.random(n) < 1 / (1 + np.exp((loans.fico - 640) / 25))).astype(int)
"""


@pytest.mark.parametrize("dropped", ['["loan_id"]', '["loan_id", params["label"]]'])
def test_config_dict_label_left_in_the_frame_a_model_is_fitted_on(dropped):
    code = f"""
        params = {{"label": "defaulted", "seed": 0}}
        X = loans.drop(columns={dropped})
        y = loans[params["label"]]
        clf = GradientBoostingClassifier(random_state=params["seed"]).fit(X, y)
        print(clf.score(X, y))
        """
    found = H.run(RULES, code, CFG_LOANS)
    if "params" not in dropped:
        f = one(found, "target_leakage.target_in_features")
        assert "defaulted" in f.explanation
    else:
        quiet(found)
