"""Target leakage from what ran (critics/rules/target_leakage.py): column lineage with lags,
and how well each feature alone ordered the target at the fit. Each rule in several idioms,
each with a sound twin; no rule reads a column's name."""

from __future__ import annotations

from critics import AnalysisCritic

from .inprocess_evidence import run_and_gather

CRITIC = AnalysisCritic()
SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(5)
n = 900
clinic = pd.DataFrame({"visits": rng.poisson(1.2, n), "member": rng.integers(0, 150, n),
                       "age": rng.normal(45, 12, n), "income": rng.lognormal(10, .5, n)})
econ = pd.DataFrame({"output": np.exp(np.cumsum(rng.normal(.005, .01, 240))),
                     "rate": rng.normal(3, 1, 240)})
"""
LINEAGE = "target_leakage.feature_computed_from_outcome"
DETERMINES = "target_leakage.feature_determines_target"


def rules(code: str) -> set[str]:
    return {f.rule_id for f in CRITIC.review(run_and_gather(code, SETUP)).findings}


# --- feature_computed_from_outcome ------------------------------------------------------------
def test_indicator_target_and_member_average_of_the_same_count() -> None:
    assert LINEAGE in rules("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    clinic["any_visit"] = (clinic["visits"] > 0).astype(int)
    clinic["habit"] = clinic.groupby("member")["visits"].transform("mean")
    print(cross_val_score(LogisticRegression(), clinic[["age", "habit"]],
                          clinic["any_visit"], cv=5).mean())
    """)


def test_growth_over_four_periods_predicting_this_periods_growth() -> None:
    found = rules("""
    import statsmodels.formula.api as smf
    econ["growth"] = 400 * np.log(econ.output).diff()
    econ["annual"] = 100 * np.log(econ["output"]).diff(4)
    print(smf.ols("growth ~ annual + rate", data=econ.dropna()).fit().rsquared)
    """)
    assert LINEAGE in found


def test_lagged_growth_is_quiet() -> None:
    found = rules("""
    import statsmodels.formula.api as smf
    econ["growth"] = 400 * np.log(econ.output).diff()
    econ["annual"] = 100 * np.log(econ["output"]).diff(4)
    data = econ.assign(annual_l1=econ.annual.shift(1)).dropna()
    print(smf.ols("growth ~ annual_l1 + rate", data=data).fit().rsquared)
    """)
    assert LINEAGE not in found


def test_ratio_built_from_the_outcome_in_a_numpy_log_target() -> None:
    assert LINEAGE in rules("""
    from sklearn.linear_model import LinearRegression
    homes = clinic.assign(size=rng.normal(120, 30, n))
    homes["price"] = homes["income"] * 3 + homes["size"] * 900
    homes["per_m2"] = homes.price / homes["size"]
    homes["log_price"] = np.log(homes["price"])
    model = LinearRegression().fit(homes[["size", "per_m2"]], homes["log_price"])
    print(model.score(homes[["size", "per_m2"]], homes["log_price"]))
    """)


def test_change_score_adjusted_for_its_baseline_is_quiet() -> None:
    found = rules("""
    import statsmodels.formula.api as smf
    trial = pd.DataFrame({"pre": rng.normal(50, 10, 300), "arm": rng.integers(0, 2, 300)})
    trial["post"] = trial.pre * .8 + 10 + 3 * trial.arm + rng.normal(0, 5, 300)
    trial["change"] = trial["post"] - trial["pre"]
    print(smf.ols("change ~ pre + arm", data=trial).fit().params)
    """)
    assert LINEAGE not in found


# --- feature_determines_target ------------------------------------------------------------
def test_a_post_outcome_quantity_in_numpy_arrays() -> None:
    assert DETERMINES in rules("""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import cross_val_score
    bought = (rng.random(n) < .3).astype(int)
    spent_after = np.where(bought == 1, rng.gamma(2, 30, n), 0.0)
    X = np.column_stack([clinic.age, clinic.income, spent_after])
    rf = RandomForestClassifier(n_estimators=30, random_state=0)
    print(cross_val_score(rf, X, bought, cv=4).mean())
    """)


def test_a_post_outcome_count_in_a_formula_logit() -> None:
    assert DETERMINES in rules("""
    import statsmodels.formula.api as smf
    df = clinic.assign(churned=(rng.random(n) < .25).astype(int))
    df["refund_calls"] = np.where(df.churned == 1, rng.poisson(3, n) + 1, 0)
    print(smf.logit("churned ~ age + np.log(income) + refund_calls", data=df).fit(
        disp=0, method="bfgs", maxiter=200).prsquared)
    """)


def test_ordinary_predictors_are_quiet() -> None:
    found = rules("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    p = 1 / (1 + np.exp(-(clinic.age - 45) / 6))
    sick = (rng.random(n) < p).astype(int)
    print(cross_val_score(LogisticRegression(), clinic[["age", "income"]], sick, cv=5).mean())
    """)
    assert DETERMINES not in found


def test_several_near_perfect_features_are_an_easy_problem_not_a_leak() -> None:
    found = rules("""
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    iris = load_iris(as_frame=True).frame
    setosa = (iris.target == 0).astype(int)
    print(LogisticRegression(max_iter=500).fit(iris.iloc[:, :4], setosa).score(
        iris.iloc[:, :4], setosa))
    """)
    assert DETERMINES not in found


def test_a_one_feature_calibration_line_is_quiet() -> None:
    found = rules("""
    from sklearn.linear_model import LinearRegression
    conc = np.linspace(0, 10, 40)
    absorbance = .12 * conc + rng.normal(0, .005, 40)
    line = LinearRegression().fit(conc.reshape(-1, 1), absorbance)
    print(line.coef_, line.intercept_)
    """)
    assert DETERMINES not in found


# --- feature_dominates_target (medium) ---------------------------------------------------------
DOMINATES = "target_leakage.feature_dominates_target"


def test_a_treatment_given_mostly_because_of_the_outcome_dominates() -> None:
    assert DOMINATES in rules("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    sick = (rng.random(n) < .3).astype(int)
    treated = np.where(sick == 1, rng.random(n) < .85, rng.random(n) < .05).astype(int)
    courses = treated * rng.integers(1, 4, n)
    X = pd.DataFrame({"age": clinic.age + 3 * sick, "income": clinic.income,
                      "courses": courses})
    print(cross_val_score(LogisticRegression(max_iter=500), X, sick, cv=5).mean())
    """)


def test_two_comparable_predictors_are_quiet() -> None:
    found = rules("""
    import statsmodels.formula.api as smf
    df = clinic.assign(z=rng.normal(size=n))
    df["sick"] = (df.z + (df.age - 45) / 12 + rng.normal(0, .6, n) > 0).astype(int)
    print(smf.logit("sick ~ z + age + np.log(income)", data=df).fit(disp=0).prsquared)
    """)
    assert DOMINATES not in found


# --- lags through windows and group shifts ------------------------------------------------------
def test_a_centred_window_reads_the_outcome_day_itself() -> None:
    assert LINEAGE in rules("""
    from sklearn.linear_model import LogisticRegression
    days = pd.DataFrame({"rain": rng.gamma(.8, 6, 600), "temp": rng.normal(15, 5, 600)})
    days["flood"] = (days.rain > 12).astype(int)
    days["rain_3d"] = days["rain"].rolling(3, center=True).mean()
    d = days.dropna()
    print(LogisticRegression().fit(d[["temp", "rain_3d"]], d["flood"]).coef_)
    """)


def test_a_trailing_window_of_earlier_days_is_quiet() -> None:
    found = rules("""
    from sklearn.linear_model import LogisticRegression
    days = pd.DataFrame({"rain": rng.gamma(.8, 6, 600), "temp": rng.normal(15, 5, 600)})
    days["flood"] = (days.rain > 12).astype(int)
    days["rain_3d"] = days["rain"].rolling(3).mean().shift(1)
    d = days.dropna()
    print(LogisticRegression().fit(d[["temp", "rain_3d"]], d["flood"]).coef_)
    """)
    assert LINEAGE not in found


def test_last_periods_value_within_each_store_is_quiet() -> None:
    found = rules("""
    import statsmodels.formula.api as smf
    sales = pd.DataFrame({"store": np.repeat(np.arange(30), 20), "price": rng.normal(5, 1, 600)})
    sales["units"] = 100 - 6 * sales.price + rng.normal(0, 5, 600)
    sales["log_units"] = np.log(sales["units"])
    sales["units_prev"] = sales.groupby("store")["units"].shift(1)
    print(smf.ols("log_units ~ price + units_prev", data=sales.dropna()).fit().rsquared)
    """)
    assert LINEAGE not in found


# --- feature_set_for_one_class -------------------------------------------------------------------
ONE_CLASS = "target_leakage.feature_set_for_one_class"


def test_a_sentinel_filled_date_that_exists_only_for_churners() -> None:
    assert ONE_CLASS in rules("""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import train_test_split
    subs = clinic.assign(churned=(rng.random(n) < .3).astype(int))
    logged = (subs.churned == 1) & (rng.random(n) < .7)
    subs["days_since_cancel"] = np.where(logged, rng.integers(1, 90, n), -1)
    X = subs[["age", "income", "days_since_cancel"]]
    a, b, c, d = train_test_split(X, subs.churned, random_state=0)
    print(RandomForestClassifier(n_estimators=30, random_state=0).fit(a, c).score(b, d))
    """)


def test_a_refund_amount_zero_unless_the_customer_left_in_a_formula() -> None:
    assert ONE_CLASS in rules("""
    import statsmodels.formula.api as smf
    df = clinic.assign(left=(rng.random(n) < .25).astype(int))
    df["refund"] = np.where((df.left == 1) & (rng.random(n) < .6), rng.gamma(2, 20, n), 0.0)
    print(smf.logit("left ~ age + refund", data=df).fit(disp=0).prsquared)
    """)


def test_a_sparse_count_common_to_both_classes_is_quiet() -> None:
    found = rules("""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    df = clinic.assign(sick=(rng.random(n) < .3).astype(int), calls=rng.poisson(.4, n))
    print(cross_val_score(LogisticRegression(), df[["age", "calls"]], df.sick, cv=5).mean())
    """)
    assert ONE_CLASS not in found
