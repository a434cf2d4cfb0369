"""correlation_misuse: Pearson on categorical/ordinal codes, and correlation worded as
causation."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules.correlation_misuse import causal_language as CAUSAL
from critics.rules.correlation_misuse import pearson_on_codes as CODES
from critics.rules.correlation_misuse import pooled_across_groups as POOLED_RULE
from tests.inprocess_evidence import evidence
from tests.rule_helpers import code_only, only, quiet, run, silent

SURVEY = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(6)
n = 200
survey = pd.DataFrame({
    "city": rng.choice(["Lyon", "Paris", "Nice", "Lille", "Brest"], n),
    "education": rng.choice(["high school", "bachelor", "master", "phd"], n),
    "satisfaction": rng.integers(1, 6, n),
    "income": rng.normal(40000, 9000, n),
    "age": rng.normal(40, 10, n).round(1),
    "zipcode": rng.integers(10000, 99999, n),
    "children": rng.integers(0, 5, n),
    "female": rng.integers(0, 2, n),
})
"""


def codes(code: str, setup: str = SURVEY) -> list[Finding]:
    return run([CODES], code, setup)


def causal(code: str, setup: str = SURVEY) -> list[Finding]:
    return run([CAUSAL], code, setup)


# -- Pearson on codes: flawed ------------------------------------------------------------------

def test_label_encoded_city_with_pearsonr_is_critical():
    f = only(codes("""
        from sklearn.preprocessing import LabelEncoder
        survey["city_code"] = LabelEncoder().fit_transform(survey["city"])
        r, p = stats.pearsonr(survey["city_code"], survey["income"])
        print(f"r={r:.2f} p={p:.3f}")
    """))
    assert f.rule_id == "correlation_misuse.pearson_on_codes"
    assert f.severity == "critical" and f.is_blocking(0.8)
    assert f.lines == [3, 4] and "chi2_contingency" in f.suggestion


def test_factorize_codes_with_corrcoef():
    f = only(codes("""
        codes, uniques = pd.factorize(survey["city"])
        print(np.corrcoef(codes, survey["income"]))
    """))
    assert f.severity == "critical"


def test_cat_codes_in_a_correlation_matrix():
    f = only(codes("""
        survey["city_code"] = survey.city.astype("category").cat.codes
        print(survey[["city_code", "income", "age"]].corr())
    """))
    assert f.severity == "high" and f.evidence["values"]["variables"] == ["survey['city_code']"]


def test_matrix_column_of_codes_read_out_is_critical():
    f = only(codes("""
        survey["city_code"] = survey.city.astype("category").cat.codes
        print(survey[["city_code", "income", "age"]].corr()["city_code"])
    """))
    assert f.severity == "critical"


def test_loop_of_label_encoders_then_full_matrix():
    f = only(codes("""
        from sklearn.preprocessing import LabelEncoder
        enc = survey.copy()
        for col in ["city", "education"]:
            enc[col] = LabelEncoder().fit_transform(enc[col])
        corr = enc.corr()
        print(corr["income"].sort_values())
    """))
    assert f.severity == "high"
    assert "enc['city']" in f.evidence["values"]["variables"]


def test_label_encoder_applied_to_every_column():
    f = only(codes("""
        from sklearn.preprocessing import LabelEncoder
        cats = survey[["city", "education"]].apply(LabelEncoder().fit_transform)
        print(cats.corr())
    """))
    assert f.severity in ("high", "critical")


def test_ordinal_encoder_without_categories_is_nominal():
    f = only(codes("""
        from sklearn.preprocessing import OrdinalEncoder
        survey[["city"]] = OrdinalEncoder().fit_transform(survey[["city"]])
        print(survey["city"].corr(survey["income"]))
    """))
    assert "OrdinalEncoder" in f.explanation


def test_ordinal_map_with_series_corr_is_high():
    f = only(codes("""
        levels = {"high school": 1, "bachelor": 2, "master": 3, "phd": 4}
        survey["edu_level"] = survey.education.map(levels)
        print(survey["edu_level"].corr(survey["income"]))
    """))
    assert f.severity == "high" and "spearman" in f.suggestion
    assert f.evidence["values"]["coding"] == ["a map of ordered labels to integers"]


def test_likert_item_with_pearsonr():
    f = only(codes("""
        r, p = stats.pearsonr(survey.satisfaction, survey.income)
        print(r, p)
    """))
    assert f.severity == "high" and f.confidence >= 0.8


def test_zip_code_with_corrcoef():
    f = only(codes('print(np.corrcoef(survey["zipcode"], survey["income"])[0, 1])'))
    assert f.severity == "high"


def test_identifier_column_in_a_correlation_matrix():
    f = only(codes("""
        d2 = survey[["income", "age"]].assign(customer_id=np.arange(n))
        print(d2.corr().round(2))
    """))
    assert f.severity == "high" and "customer_id" in f.explanation


def test_sound_identifier_dropped_before_the_matrix():
    silent(codes("""
        d2 = survey[["income", "age"]].assign(customer_id=np.arange(n))
        print(d2.drop(columns=["customer_id"]).corr().round(2))
    """))


def test_few_integer_values_without_a_hint_is_only_medium():
    f = only(codes('print(stats.pearsonr(survey["children"], survey["income"]))'))
    assert f.severity == "medium"


def test_spearman_on_nominal_label_codes_still_flagged():
    f = only(codes("""
        from sklearn.preprocessing import LabelEncoder
        survey["city_code"] = LabelEncoder().fit_transform(survey["city"])
        print(stats.spearmanr(survey["city_code"], survey["income"]))
    """))
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_code_only_label_encoder():
    f = only(code_only([CODES], """
        from sklearn.preprocessing import LabelEncoder
        from scipy import stats
        le = LabelEncoder()
        df["color_enc"] = le.fit_transform(df["color"])
        print(stats.pearsonr(df["color_enc"], df["price"]))
    """))
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_inline_category_codes_in_series_corr():
    f = only(codes('print(survey["city"].astype("category").cat.codes.corr(survey["income"]))'))
    assert f.severity == "high" and "cat.codes" in f.explanation


def test_inline_label_encoder_in_pearsonr():
    f = only(codes("""
        from sklearn.preprocessing import LabelEncoder
        print(stats.pearsonr(LabelEncoder().fit_transform(survey.city), survey.income))
    """))
    assert f.severity == "high"


def test_replace_education_labels_is_ordinal():
    f = only(codes("""
        survey["edu_num"] = survey["education"].replace(
            {"high school": 1, "bachelor": 2, "master": 3, "phd": 4}).astype(int)
        print(stats.pearsonr(survey.edu_num, survey.income))
    """))
    assert f.severity == "high" and "rank correlation" in f.suggestion


# -- Pearson on codes: sound --------------------------------------------------------------------

def test_sound_cramers_v_on_categories():
    silent(codes("""
        from scipy.stats.contingency import association
        table = pd.crosstab(survey["city"], survey["education"])
        chi2, p, dof, _ = stats.chi2_contingency(table)
        print(association(table, method="cramer"), p)
    """))


def test_sound_spearman_on_ordinal_map():
    silent(codes("""
        levels = {"high school": 1, "bachelor": 2, "master": 3, "phd": 4}
        survey["edu_level"] = survey.education.map(levels)
        print(survey["edu_level"].corr(survey["income"], method="spearman"))
    """))


def test_sound_spearmanr_on_likert():
    silent(codes("print(stats.spearmanr(survey.satisfaction, survey.income))"))


def test_sound_kendall_matrix_on_ordinal_columns():
    silent(codes("""
        survey["edu_level"] = survey.education.map(
            {"high school": 1, "bachelor": 2, "master": 3, "phd": 4})
        print(survey[["edu_level", "satisfaction", "income"]].corr(method="kendall"))
    """))


def test_sound_ordered_categorical_codes_with_spearman():
    silent(codes("""
        edu = pd.Categorical(survey.education,
                             categories=["high school", "bachelor", "master", "phd"],
                             ordered=True)
        survey["edu_code"] = edu.codes
        print(survey[["edu_code", "income"]].corr(method="spearman"))
    """))


def test_sound_pearson_on_continuous_measures():
    silent(codes("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"r = {r:.2f}")
        print(survey[["age", "income"]].corr())
    """))


def test_sound_pearson_with_a_binary_indicator():
    silent(codes('print(stats.pearsonr(survey["female"], survey["income"]))'))


# -- bin numbers treated as an interval variable ------------------------------------------------

CLINIC = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(17)
n = 300
visits = pd.DataFrame({"age": rng.uniform(18, 90, n).round(1),
                       "km_to_clinic": rng.exponential(12, n).round(2)})
visits["sbp"] = 105 + 0.45 * visits.age + rng.normal(0, 12, n)
visits["no_show"] = (rng.random(n) < 0.1 + 0.004 * visits.km_to_clinic).astype(float)
hours = rng.gamma(2, 3, n)
spend = 20 + 4 * np.sqrt(hours) + rng.normal(0, 3, n)
"""


def bins(code: str) -> list[Finding]:
    return codes(code, CLINIC)


def test_numpy_digitize_on_unequal_edges_with_corrcoef():
    f = only(bins("""
        usage_bucket = np.digitize(hours, [0, 1, 3, 8, 24])
        r = np.corrcoef(usage_bucket, spend)[0, 1]
        print(f"usage bucket vs spend: r = {r:.2f}")
    """))
    assert f.severity == "high" and "np.digitize" in f.explanation
    assert "unequal width" in f.explanation and "spearmanr" in f.suggestion


def test_qcut_quintile_numbers_as_a_formula_slope():
    f = only(bins("""
        visits["age_quintile"] = pd.qcut(visits.age, 5, labels=False)
        fit = smf.ols("sbp ~ age_quintile", data=visits).fit()
        print(f"SBP rises {fit.params['age_quintile']:.1f} mmHg per age quintile")
    """))
    assert f.severity == "high" and f.confidence >= 0.8  # int codes confirmed by the kernel
    assert "smf.ols" in f.explanation and "qcut" in f.explanation


def test_cut_category_codes_in_polyfit():
    f = only(bins("""
        distance_band = pd.cut(visits.km_to_clinic, [0, 2, 5, 15, 50, np.inf])
        slope, intercept = np.polyfit(distance_band.cat.codes, visits.no_show, 1)
        print(f"no-show rate rises {slope:.3f} per distance band")
    """))
    assert f.severity == "high" and "np.polyfit" in f.explanation


def test_cut_categories_coded_later_with_sm_ols():
    f = only(bins("""
        visits["age_band"] = pd.cut(visits.age, bins=[17, 30, 45, 65, 90])
        visits["age_band_no"] = visits.age_band.cat.codes
        res = sm.OLS(visits.sbp, sm.add_constant(visits[["age_band_no"]])).fit()
        print(res.params.round(2))
    """))
    assert f.severity == "high" and "sm.OLS" in f.explanation


def test_kbins_discretizer_quantile_codes_with_pearsonr():
    f = only(bins("""
        from sklearn.preprocessing import KBinsDiscretizer
        kb = KBinsDiscretizer(n_bins=4, encode="ordinal", strategy="quantile")
        visits["dist_bin"] = kb.fit_transform(visits[["km_to_clinic"]]).ravel()
        print(stats.pearsonr(visits.dist_bin, visits.no_show))
    """))
    assert f.severity == "high"


def test_searchsorted_bucket_numbers_in_spearman_are_fine_in_pearson_not():
    found = bins("""
        edges = [1, 2, 5, 10, 30]
        tier = np.searchsorted(edges, hours)
        print(stats.spearmanr(tier, spend))
        print(stats.pearsonr(tier, spend))
    """)
    f = only(found)
    assert f.severity == "high" and f.lines == [3, 5]


def test_code_only_cut_labels_false_with_linregress():
    f = only(code_only([CODES], """
        import pandas as pd
        from scipy import stats
        df["income_band"] = pd.cut(df.income, [0, 15, 30, 60, 120, 500], labels=False)
        print(stats.linregress(df.income_band, df.spend))
    """))
    assert f.severity == "high" and not f.is_blocking(0.8)


def test_sound_linear_fit_on_equal_width_bins():
    silent(bins("""
        visits["age_decade_bin"] = pd.cut(visits.age, bins=7, labels=False)
        print(stats.linregress(visits.age_decade_bin, visits.sbp))
    """))


def test_equal_width_bins_in_a_pearson_correlation_are_medium():
    f = only(bins("""
        visits["dist_bin"] = np.digitize(visits.km_to_clinic, [10, 20, 30, 40])
        print(visits[["dist_bin", "no_show"]].corr())
    """))
    assert f.severity == "medium" and "equal-width" in f.explanation


def test_sound_rank_correlation_on_unequal_bins():
    silent(bins("""
        usage_bucket = np.digitize(hours, [0, 1, 3, 8, 24])
        print(stats.spearmanr(usage_bucket, spend))
        visits["age_quintile"] = pd.qcut(visits.age, 5, labels=False)
        print(stats.kendalltau(visits.age_quintile, visits.sbp))
    """))


def test_sound_bins_as_categories_and_slope_on_the_raw_variable():
    silent(bins("""
        visits["age_band"] = pd.cut(visits.age, [17, 30, 45, 65, 90], labels=False)
        print(smf.ols("sbp ~ C(age_band)", data=visits).fit().f_pvalue)
        print(visits.groupby("age_band").sbp.median())
        fit = stats.linregress(visits.age, visits.sbp)
        print(f"{fit.slope:.2f} mmHg per year")
    """))


def test_a_name_alone_is_weak_evidence_for_a_slope():
    quiet(bins("""
        visits["education"] = rng.integers(8, 18, n)      # years of schooling
        print(smf.ols("sbp ~ education", data=visits).fit().params)
    """))


def test_sound_multiple_regression_with_a_band_covariate_is_not_judged():
    silent(bins("""
        visits["age_band"] = pd.cut(visits.age, [17, 30, 45, 65, 90], labels=False)
        print(smf.ols("sbp ~ km_to_clinic + age_band", data=visits).fit().params)
    """))


# -- causal language ----------------------------------------------------------------------------

def test_printed_causal_claim():
    f = only(causal("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"Age drives income (r = {r:.2f}, p = {p:.3g})")
    """))
    assert f.rule_id == "correlation_misuse.causal_language"
    assert f.severity == "medium" and not f.is_blocking(0.5)
    assert "drives" in f.evidence["quotes"][0]


def test_causal_plot_title():
    f = only(causal("""
        import matplotlib.pyplot as plt
        r = survey["age"].corr(survey["income"])
        plt.scatter(survey.age, survey.income)
        plt.title(f"Getting older leads to higher income (r={r:.2f})")
    """))
    assert f.severity == "medium"


def test_causal_verb_in_a_print():
    f = only(causal("""
        r = np.corrcoef(survey.children, survey.income)[0, 1]
        print(f"Having children reduces income (r = {r:.2f})")
    """))
    assert f.severity == "medium"


def test_sound_associational_wording():
    silent(causal("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"Age is associated with income (r = {r:.2f}, p = {p:.3g})")
    """))


def test_sound_hedged_wording():
    silent(causal("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"r = {r:.2f}; this does not imply causation: age may act through experience")
    """))


TUTORING = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(11)
n = 300
motivation = rng.normal(0, 1, n)
pupils = pd.DataFrame({"tutor_hours": np.clip(5 + 2 * motivation + rng.normal(0, 1, n), 0, None),
                       "motivation": motivation})
pupils["score"] = 60 + 4 * motivation + rng.normal(0, 5, n)
"""


@pytest.mark.parametrize("code, word", [
    ("""
    fit = stats.linregress(pupils.tutor_hours, pupils.score)
    print(f"each additional tutoring hour raises the score by {fit.slope:.1f} points")
    """, "raises"),
    ("""
    slope, icpt = np.polyfit(pupils.tutor_hours, pupils.score, 1)
    print(f"r = {pupils.tutor_hours.corr(pupils.score):.2f}")
    print(f"cutting tutoring by 2 hours a week would lower scores by {2 * slope:.1f}")
    """, "would lower"),
    ("""
    m = smf.ols("score ~ tutor_hours", data=pupils).fit()
    b = m.params["tutor_hours"]
    print(f"every extra hour of tutoring adds {b:.2f} points")
    """, "adds"),
    ("""
    r, p = stats.spearmanr(pupils.tutor_hours, pupils.score)
    print(f"rho = {r:.2f}: top classes score higher because more tutoring hours were booked")
    """, "because more"),
])
def test_per_unit_slope_read_as_an_intervention(code: str, word: str):
    f = only(causal(code, TUTORING))
    assert f.severity == "medium" and word in f.evidence["quotes"][0]


@pytest.mark.parametrize("code", [
    """
    fit = stats.linregress(pupils.tutor_hours, pupils.score)
    print(f"each additional tutoring hour is associated with {fit.slope:.1f} more points")
    """,
    """
    slope, icpt = np.polyfit(pupils.tutor_hours, pupils.score, 1)
    print(f"pupils with 2 fewer hours a week scored {2 * slope:.1f} lower on average")
    """,
    # an adjusted model, no correlation or simple regression in the cell
    """
    m = smf.ols("score ~ tutor_hours + motivation", data=pupils).fit()
    print(f"at equal motivation, each extra hour adds {m.params['tutor_hours']:.2f} points")
    """,
    """
    r, p = stats.spearmanr(pupils.tutor_hours, pupils.score)
    print(f"rho = {r:.2f}; scores were higher where more hours were booked")
    """,
])
def test_associational_reading_or_adjusted_model_is_silent(code: str):
    silent(causal(code, TUTORING))


def test_causal_words_without_a_correlation_are_not_this_rule():
    silent(causal('print("Smoking causes cancer")'))


@pytest.mark.parametrize("code", [
    "", "df.corr(", "x.corr()", "np.corrcoef()", "pearsonr(*a)", "stats.linregress()",
    "smf.ols()", "smf.ols('y ~ ', data=d)", "sm.OLS(y)", "np.polyfit(x, y, deg=d)",
    "b = pd.cut(x, e, labels=False)\nnp.digitize()\nb.cat.codes.corr()",
    "k = KBinsDiscretizer()\nz = k.fit_transform(X)\nstats.linregress(z, y)"])
def test_odd_code_never_raises(code):
    ev = evidence(code)
    assert CODES.check(ev) == [] and CAUSAL.check(ev) == []


# -- F / r feature ranking on OrdinalEncoder / LabelEncoder codes ---------------------------------

from critics.rules.correlation_misuse import linear_score_on_label_codes as LINSCORE  # noqa: E402
from critics.rules.correlation_misuse import ols_on_ordinal_response as ORDRESP  # noqa: E402

_CARS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(4)
n = 400
cars = pd.DataFrame({"fuel": rng.choice(["diesel", "electric", "hybrid", "petrol"], n),
                     "body": rng.choice(["coupe", "hatch", "suv", "van"], n),
                     "manual": rng.choice(["yes", "no"], n),
                     "age": rng.integers(0, 15, n)})
cars["price"] = (cars.fuel.map({"diesel": 18, "electric": 35, "hybrid": 27, "petrol": 17})
                 - 1.2 * cars.age + rng.normal(0, 3, n))
"""


def test_label_encoder_loop_then_selectkbest_f_regression_is_flagged() -> None:
    code = """
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.preprocessing import LabelEncoder
feats = cars[["fuel", "body", "age"]].copy()
for col in ["fuel", "body"]:
    feats[col] = LabelEncoder().fit_transform(feats[col])
sel = SelectKBest(f_regression, k=2).fit(feats, cars.price)
print(dict(zip(feats.columns, sel.scores_.round(1))))
"""
    found = run([LINSCORE], code, _CARS)
    assert len(found) == 1 and found[0].severity == "high", found


def test_ordinal_encoded_whole_frame_f_classif_is_flagged() -> None:
    code = """
from sklearn.feature_selection import f_classif
from sklearn.preprocessing import OrdinalEncoder
Xc = OrdinalEncoder().fit_transform(cars[["fuel", "body"]])
F, p = f_classif(Xc, cars.price > 20)
print(F, p)
"""
    found = run([LINSCORE], code, _CARS)
    assert len(found) == 1 and found[0].severity == "high", found


def test_one_hot_or_binary_codes_or_tree_importance_stay_quiet() -> None:
    onehot = """
from sklearn.feature_selection import f_regression
X = pd.get_dummies(cars[["fuel", "body", "age"]], dtype=float)
F, p = f_regression(X, cars.price)
print(F.round(1))
"""
    silent(run([LINSCORE], onehot, _CARS))
    binary = """
from sklearn.feature_selection import f_regression
from sklearn.preprocessing import OrdinalEncoder
X = cars[["manual", "age"]].copy()
X[["manual"]] = OrdinalEncoder().fit_transform(X[["manual"]])
print(f_regression(X, cars.price)[0])
"""
    silent(run([LINSCORE], binary, _CARS))


# -- OLS with an ordinal rating as the response ---------------------------------------------------

_REVIEWS = """
import numpy as np
import pandas as pd
import statsmodels.api as sm
import statsmodels.formula.api as smf
rng = np.random.default_rng(8)
n = 500
reviews = pd.DataFrame({"wait_min": rng.gamma(3, 5, n), "price": rng.normal(30, 8, n)})
latent = -0.05 * reviews.wait_min - 0.03 * reviews.price + rng.logistic(0, 1, n)
reviews["satisfaction"] = pd.cut(latent, [-np.inf, -3.5, -2.5, -1.5, np.inf],
                                 labels=[1, 2, 3, 4]).astype(int)
reviews["bill"] = reviews.price * rng.uniform(1, 3, n)
"""


def test_formula_ols_on_satisfaction_rating_is_flagged() -> None:
    code = """
fit = smf.ols("satisfaction ~ wait_min + price", data=reviews).fit()
print(fit.summary())
"""
    found = run([ORDRESP], code, _REVIEWS)
    assert len(found) == 1 and found[0].severity == "high", found


def test_array_ols_on_rating_column_is_flagged() -> None:
    code = """
X = sm.add_constant(reviews[["wait_min", "price"]])
res = sm.OLS(reviews["satisfaction"], X).fit()
print(res.params)
"""
    assert len(run([ORDRESP], code, _REVIEWS)) == 1


def test_ordered_model_and_continuous_outcome_stay_quiet() -> None:
    code = """
from statsmodels.miscmodels.ordinal_model import OrderedModel
om = OrderedModel(reviews["satisfaction"], reviews[["wait_min", "price"]], distr="logit")
print(om.fit(method="bfgs", disp=False).params)
fit = smf.ols("bill ~ wait_min + price", data=reviews).fit()
print(fit.params)
"""
    silent(run([ORDRESP], code, _REVIEWS))


# -- two ratios over the same denominator (holdout4 round) --------------------------------------

from critics.rules.correlation_misuse import shared_denominator as RATIOS  # noqa: E402
from tests.rule_helpers import one  # noqa: E402

RATIO_ID = "correlation_misuse.shared_denominator"
CITIES = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(8)
n = 120
cities = pd.DataFrame({"pop": rng.lognormal(11, 1.1, n).round(), "area_km2": rng.gamma(4, 30, n)})
cities["burglaries"] = rng.poisson(5 + cities["pop"] / 4000)
cities["officers"] = rng.poisson(3 + cities["pop"] / 900)
"""


def test_pearsonr_of_two_inline_per_capita_rates_is_flagged() -> None:
    f = one(run([RATIOS], """
r, p = stats.pearsonr(cities.burglaries / cities["pop"], cities.officers / cities["pop"])
print(r, p)
""", CITIES), RATIO_ID)
    assert f.severity == "medium" and f.evidence["values"]["denominator"] == "pop"


def test_corrcoef_of_named_ratio_arrays_is_flagged() -> None:
    one(run([RATIOS], """
pop = cities["pop"].to_numpy()
burglary_rate = 1000 * cities.burglaries.to_numpy() / pop
officer_rate = cities.officers.to_numpy() / pop * 1000
print(np.corrcoef(burglary_rate, officer_rate)[0, 1])
""", CITIES), RATIO_ID)


def test_formula_regression_of_one_rate_on_another_is_flagged() -> None:
    one(run([RATIOS], """
cities["burg_pc"] = cities.burglaries.div(cities["pop"])
cities["off_pc"] = cities.officers.div(cities["pop"])
fit = smf.ols("burg_pc ~ off_pc", data=cities).fit()
print(fit.params)
""", CITIES), RATIO_ID)


def test_different_denominators_non_ratios_and_partial_correlation_stay_quiet() -> None:
    silent(run([RATIOS], """
r, p = stats.pearsonr(cities.burglaries / cities["pop"], cities.officers / cities.area_km2)
print(r)
""", CITIES))
    silent(run([RATIOS], """
rate = cities.burglaries / cities["pop"]
print(stats.spearmanr(rate, cities.area_km2))
""", CITIES))
    silent(run([RATIOS], """
logpop = np.log(cities["pop"])
res_b = smf.ols("np.log1p(burglaries) ~ np.log(pop)", data=cities).fit().resid
res_o = smf.ols("np.log1p(officers) ~ np.log(pop)", data=cities).fit().resid
print(stats.spearmanr(res_b, res_o))
""", CITIES))


# -- Pearson on codes for every column of a frame (loops, helpers, comprehensions) -------------

SHOPS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(11)
n = 300
shops = pd.DataFrame({
    "region_code": rng.integers(1, 6, n),
    "store_id": rng.integers(1000, 1300, n),
    "staff": rng.integers(2, 9, n),
    "floor_m2": rng.normal(400, 90, n),
    "footfall": rng.normal(900, 150, n),
})
shops["revenue"] = 20 * shops.footfall + 300 * shops.staff + rng.normal(0, 2000, n)
"""


@pytest.mark.parametrize("code", [
    """
    rows = []
    for col in shops.select_dtypes("number").columns.drop("revenue"):
        r, p = stats.pearsonr(shops[col], shops["revenue"])
        rows.append((col, r, p))
    print(pd.DataFrame(rows, columns=["var", "r", "p"]).sort_values("r"))
    """,
    """
    def drivers(frame, target):
        out = {}
        for c in frame.columns.drop(target):
            out[c] = stats.pearsonr(frame[c], frame[target])[0]
        return pd.Series(out).sort_values()
    print(drivers(shops, "revenue"))
    """,
    """
    cols = [c for c in shops.columns if c != "revenue"]
    print({c: round(np.corrcoef(shops[c], shops.revenue)[0, 1], 3) for c in cols})
    """,
    """
    cols = [c for c in shops.columns if c != "revenue"]
    out = {}
    for c in cols:
        out[c] = stats.pearsonr(shops[c], shops["revenue"])[0]
    print(out)
    """,
])
def test_pearson_sweep_over_every_column_reaches_the_codes(code: str):
    f = only(codes(code, SHOPS))
    assert f.rule_id == "correlation_misuse.pearson_on_codes" and f.severity == "high"
    assert "shops['region_code']" in f.explanation and "shops['store_id']" in f.explanation
    assert "staff" not in f.explanation  # a few distinct integers in a sweep: likely a count


@pytest.mark.parametrize("code", [
    """
    rows = []
    for col in ["floor_m2", "footfall", "staff"]:
        r, p = stats.pearsonr(shops[col], shops["revenue"])
        rows.append((col, r, p))
    print(pd.DataFrame(rows, columns=["var", "r", "p"]).sort_values("r"))
    """,
    """
    def drivers(frame, target):
        out = {}
        for c in frame.columns.drop([target, "region_code", "store_id"]):
            out[c] = stats.pearsonr(frame[c], frame[target])[0]
        return pd.Series(out).sort_values()
    print(drivers(shops, "revenue"))
    """,
    """
    cols = [c for c in shops.columns if c not in ("revenue", "region_code", "store_id")]
    print({c: round(np.corrcoef(shops[c], shops.revenue)[0, 1], 3) for c in cols})
    """,
    # the list is built here but a code column is added after it: the kernel's columns are not
    # the ones the list was built from, so nothing is inferred
    """
    cols = [c for c in shops.columns if c not in ("revenue", "region_code", "store_id")]
    shops["zone_code"] = shops["region_code"] * 10
    print({c: round(np.corrcoef(shops[c], shops.revenue)[0, 1], 3) for c in cols})
    """,
])
def test_pearson_sweep_without_code_columns_is_silent(code: str):
    silent(codes(code, SHOPS))


# -- a part correlated with a total that contains it --------------------------------------------

PART_WHOLE = "correlation_misuse.part_whole"
SPEND = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(5)
n = 250
hh = pd.DataFrame({
    "food": rng.gamma(5, 60, n), "rent": rng.gamma(9, 90, n),
    "transport": rng.gamma(3, 40, n), "leisure": rng.gamma(2, 50, n),
    "income": rng.normal(3000, 600, n),
})
cats = ["food", "rent", "transport", "leisure"]
M = rng.normal(0, 1, (120, 8))
W = rng.normal(0, 1, (120, 15))
"""


def part_whole(code: str, setup: str = SPEND) -> list[Finding]:
    from critics.rules.correlation_misuse import part_whole as rule
    return run([rule], code, setup)


@pytest.mark.parametrize("code, parts", [
    ("""
    hh["spend"] = hh[cats].sum(axis=1)
    for c in cats:
        r, p = stats.pearsonr(hh[c], hh["spend"])
        print(c, round(r, 3), p)
    """, ["food", "rent", "transport", "leisure"]),
    ("""
    total = hh.food + hh.rent + hh.transport + hh.leisure
    print(np.corrcoef(hh.rent, total)[0, 1])
    """, ["rent"]),
    ("""
    hh = hh.assign(spend=hh[cats].sum(axis=1))
    print(hh[cats].corrwith(hh.spend).sort_values())
    """, ["food", "rent", "transport", "leisure"]),
    ("""
    hh["avg"] = hh[["food", "rent", "transport"]].mean(axis=1)
    print(hh["food"].corr(hh["avg"]))
    """, ["food"]),
    ("""
    score = M.sum(axis=1)
    rs = [stats.pearsonr(M[:, j], score)[0] for j in range(M.shape[1])]
    print(np.round(rs, 2))
    """, ["M[:, j]"]),
])
def test_part_correlated_with_its_total_is_high(code: str, parts: list[str]):
    f = only(part_whole(code))
    assert f.rule_id == PART_WHOLE and f.severity == "high" and f.confidence == 0.7
    assert f.evidence["values"]["parts"] == parts
    assert "item-rest" in f.suggestion


def test_part_of_a_long_scale_is_medium():
    f = only(part_whole("""
        score = W.sum(axis=1)
        print([round(np.corrcoef(W[:, j], score)[0, 1], 2) for j in range(W.shape[1])])
    """))
    assert f.severity == "medium" and f.evidence["values"]["n_parts"] == 15


@pytest.mark.parametrize("code", [
    """
    hh["spend"] = hh[cats].sum(axis=1)
    for c in cats:
        r, p = stats.pearsonr(hh[c], hh["spend"] - hh[c])
        print(c, round(r, 3), p)
    """,
    """
    hh["spend"] = hh[cats].sum(axis=1)
    print(stats.pearsonr(hh["spend"], hh["income"]))
    """,
    """
    score = M.sum(axis=1)
    rs = [stats.pearsonr(M[:, j], score - M[:, j])[0] for j in range(M.shape[1])]
    print(np.round(rs, 2))
    """,
    """
    total = hh.food + hh.rent
    print(np.corrcoef(hh.leisure, total)[0, 1])
    """,
])
def test_item_rest_or_external_correlations_are_silent(code: str):
    silent(part_whole(code))


# -- a correlation / slope pooled across groups that reverse it (Simpson's paradox) -------------

POOLED = "correlation_misuse.pooled_across_groups"

SCHOOLS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(11)
rows = []
for k in range(8):
    size0 = 18 + 2.5 * k      # the large urban schools have bigger classes
    level = 55 + 3 * k        # ... and higher scores; within a school, bigger classes score lower
    size = size0 + rng.normal(0, 2.5, 40)
    score = level - 1.2 * (size - size0) + rng.normal(0, 2, 40)
    rows.append(pd.DataFrame({"school": f"S{k}", "class_size": size.round(1),
                              "score": score.round(1)}))
pupils = pd.concat(rows, ignore_index=True)
"""

HOSPITALS = """
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
rng = np.random.default_rng(21)
frames = []
for h in range(10):
    acuity = h / 9            # tertiary centres take the sickest patients, with more nursing
    base = 4 + 6 * acuity
    hours = base + rng.normal(0, 1.0, 60)
    frames.append(pd.DataFrame({
        "hospital": f"H{h:02d}", "nurse_hours": hours,
        "mortality": 2 + 10 * acuity - 0.8 * (hours - base) + rng.normal(0, 0.6, 60),
        "readmit": 2 + 10 * acuity + rng.normal(0, 1.0, 60)}))
wards = pd.concat(frames, ignore_index=True)
"""

BIRDS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(5)
parts = []
for s, (mass, clutch, up) in enumerate([(20, 9, 2), (45, 7, 3), (90, 5.5, 4), (160, 4, 5),
                                        (300, 3, 6), (520, 2, 7)]):
    m = mass * rng.lognormal(0, 0.12, 50)
    fit = (m / mass) ** 1.5   # within a species, heavier females lay more eggs
    parts.append(pd.DataFrame({"species": f"sp{s}", "body_mass": m,
                               "clutch_size": clutch * fit * rng.lognormal(0, 0.08, 50),
                               "egg_count": up * fit * rng.lognormal(0, 0.08, 50)}))
birds = pd.concat(parts, ignore_index=True)
"""


def pooled(code: str, setup: str) -> list[Finding]:
    return run([POOLED_RULE], code, setup)


def test_pearsonr_on_pupils_pooled_across_schools_is_high():
    f = only(pooled("""
        r, p = stats.pearsonr(pupils.class_size, pupils["score"])
        print(f"class size vs score: r = {r:.2f} (p = {p:.1g}): bigger classes do better")
    """, SCHOOLS))
    assert f.rule_id == POOLED and f.severity == "high" and f.confidence == 0.75
    v = f.evidence["values"]
    assert v["group"] == "school" and v["pooled_r"] > 0.3 and v["within_r"] < -0.5
    assert v["neg_groups"] == 8 and "C(school)" in f.suggestion


def test_polyfit_slope_pooled_across_hospitals_is_high():
    f = only(pooled("""
        slope, icept = np.polyfit(wards["nurse_hours"], wards["mortality"], 1)
        print(f"each extra nursing hour: {slope:+.2f} deaths per 100 admissions")
    """, HOSPITALS))
    assert f.severity == "high" and "np.polyfit" in f.explanation
    assert f.evidence["values"]["group"] == "hospital" and f.evidence["values"]["within_r"] < 0


@pytest.mark.parametrize("code", [
    "print(birds.body_mass.corr(birds.clutch_size))",
    'print(birds[["body_mass", "clutch_size"]].corr().round(2))',
    'print(np.corrcoef(birds["body_mass"], birds["clutch_size"])[0, 1])',
    "print(stats.spearmanr(birds.body_mass, birds.clutch_size))",
])
def test_species_pooled_body_mass_and_clutch_is_high(code: str):
    f = only(pooled(code, BIRDS))
    v = f.evidence["values"]
    assert f.severity == "high" and v["group"] == "species"
    assert v["pooled_r"] < -0.5 and v["within_r"] > 0.3 and v["pos_groups"] == 6


def test_assign_then_pipe_lambda_is_read_through():
    f = only(pooled("""
        res = (pupils.assign(size10=pupils.class_size / 10)
                     .pipe(lambda d: stats.linregress(d.size10, d.score)))
        print(f"slope per 10 pupils: {res.slope:+.1f}")
    """, SCHOOLS))
    assert f.severity == "high" and "linregress" in f.explanation


def test_group_means_carrying_an_uncorrelated_pair_is_medium():
    f = only(pooled("""
        print(np.polyfit(wards.nurse_hours, wards.readmit, 1))
    """, HOSPITALS))
    assert f.severity == "medium" and abs(f.evidence["values"]["within_r"]) < 0.1
    assert "ecological" in f.explanation


@pytest.mark.parametrize("code, setup", [
    # within-group correlations reported next to the pooled one
    ("""
    r, p = stats.pearsonr(pupils.class_size, pupils.score)
    per_school = pupils.groupby("school").apply(lambda d: d.class_size.corr(d.score))
    print(f"pooled r = {r:.2f}; within schools: {per_school.round(2).to_dict()}")
    """, SCHOOLS),
    # demeaned within each school first
    ("""
    cols = ["class_size", "score"]
    within = pupils[cols] - pupils.groupby("school")[cols].transform("mean")
    print(stats.pearsonr(within.class_size, within.score))
    """, SCHOOLS),
    # a fixed-effects regression, the pooled slope shown as the naive one
    ("""
    naive = np.polyfit(wards.nurse_hours, wards.mortality, 1)[0]
    fe = smf.ols("mortality ~ nurse_hours + C(hospital)", data=wards).fit()
    print(f"naive {naive:+.2f}, within hospitals {fe.params['nurse_hours']:+.2f}")
    """, HOSPITALS),
    # a mixed model grouped by hospital
    ("""
    print(np.polyfit(wards.nurse_hours, wards.mortality, 1))
    m = smf.mixedlm("mortality ~ nurse_hours", wards, groups=wards["hospital"]).fit()
    print(m.params)
    """, HOSPITALS),
    # one correlation per species, in a loop
    ("""
    for sp, g in birds.groupby("species"):
        print(sp, round(stats.pearsonr(g.body_mass, g.clutch_size)[0], 2))
    """, BIRDS),
    # a comparison of species means: the between-species question, asked as such
    ("""
    means = birds.groupby("species")[["body_mass", "clutch_size"]].mean()
    print(means.body_mass.corr(means.clutch_size))
    """, BIRDS),
])
def test_stratified_or_controlled_analyses_are_quiet(code: str, setup: str):
    quiet(pooled(code, setup))


def test_pooled_and_within_signs_agree_is_silent():
    silent(pooled("print(stats.pearsonr(birds.body_mass, birds.egg_count))", BIRDS))
    silent(pooled("print(birds[['body_mass', 'egg_count']].corr())", BIRDS))


# -- rank correlations on nominal codes and identifiers ----------------------------------------

@pytest.mark.parametrize("code, variable", [
    # a Spearman sweep over every numeric column, zip codes included
    ("""
    for col in survey.select_dtypes("number").columns.drop("income"):
        rho, p = stats.spearmanr(survey[col], survey["income"])
        print(f"{col:>14}: rho = {rho:+.2f} (p = {p:.2g})")
    """, "survey['zipcode']"),
    # a Kendall matrix of a frame that carries an identifier
    ("""
    shops = survey[["income", "age"]].assign(store_id=rng.integers(100, 999, n))
    print(shops.corr(method="kendall").round(2))
    """, "shops['store_id']"),
    # Series.corr with a rank method on zip codes
    ("""print(survey.zipcode.corr(survey.income, method="spearman"))""", "survey.zipcode"),
    ("""print(stats.kendalltau(survey["zipcode"], survey["age"]))""", 'survey["zipcode"]'),
])
def test_rank_correlation_on_identifier_codes_is_high(code: str, variable: str):
    f = only(codes(code))
    assert f.rule_id == "correlation_misuse.pearson_on_codes"
    assert f.severity == "high" and f.confidence == 0.7
    assert f.explanation.startswith("A rank correlation")
    assert f.evidence["values"]["variables"][0] == variable
    assert "chi2_contingency" in f.suggestion


@pytest.mark.parametrize("code", [
    # the same sweep without the identifier: ratings and counts are fine for ranks
    """
    for col in ["satisfaction", "children", "age"]:
        rho, p = stats.spearmanr(survey[col], survey["income"])
        print(col, round(rho, 2), p)
    """,
    """print(survey[["satisfaction", "children", "income"]].corr(method="kendall"))""",
    """print(survey.satisfaction.corr(survey.income, method="spearman"))""",
])
def test_rank_correlation_on_ordinal_codes_or_counts_is_silent(code: str):
    silent(codes(code))


# -- a baseline correlated with the change from it (regression to the mean) ---------------------

from critics.rules.correlation_misuse import baseline_vs_change as BASELINE  # noqa: E402

TRIAL = """
import numpy as np
import pandas as pd
from scipy import stats
import statsmodels.formula.api as smf
rng = np.random.default_rng(21)
n = 250
true_bp = rng.normal(150, 12, n)
bp = pd.DataFrame({"sbp_0": true_bp + rng.normal(0, 8, n),
                   "sbp_12": true_bp - 6 + rng.normal(0, 8, n),
                   "age": rng.integers(40, 80, n)})
w0 = rng.gamma(5, 12, n)
w1 = w0 * rng.lognormal(0, 0.2, n)
"""


def baseline(code: str) -> list[Finding]:
    return run([BASELINE], code, TRIAL)


@pytest.mark.parametrize("code, severity", [
    ("""
    bp["drop"] = bp.sbp_12 - bp.sbp_0
    r, p = stats.pearsonr(bp.sbp_0, bp["drop"])
    print(f"r = {r:.2f}: patients starting higher respond more")
    """, "high"),
    ("""
    r = np.corrcoef(w0, w1 - w0)[0, 1]
    print(round(r, 2))
    """, "high"),
    ("""
    def change(before, after):
        return after - before
    fit = stats.linregress(bp["sbp_0"], change(bp["sbp_0"], bp["sbp_12"]))
    print(fit.slope)
    """, "high"),
    ("""
    res = smf.ols("delta ~ sbp_0", data=bp.assign(delta=lambda d: d.sbp_12 - d.sbp_0)).fit()
    print(res.params)
    """, "high"),
    ("""
    rho, p = stats.spearmanr(w0, w1 / w0)
    print(rho)
    """, "medium"),
])
def test_baseline_against_a_change_that_contains_it(code: str, severity: str):
    f = only(baseline(code))
    assert f.rule_id == "correlation_misuse.baseline_vs_change"
    assert f.severity == severity and not f.is_blocking(0.8)


@pytest.mark.parametrize("code", [
    # Oldham: the change against the mean of both measurements
    """
    bp["drop"] = bp.sbp_12 - bp.sbp_0
    r, p = stats.pearsonr((bp.sbp_0 + bp.sbp_12) / 2, bp["drop"])
    print(r)
    """,
    # ANCOVA-style: follow-up regressed on baseline
    """
    res = smf.ols("sbp_12 ~ sbp_0 + age", data=bp).fit()
    print(res.params)
    """,
    # the change against an outside variable
    """
    def change(before, after):
        return after - before
    fit = stats.linregress(bp["age"], change(bp["sbp_0"], bp["sbp_12"]))
    print(fit.slope)
    """,
    """
    r = np.corrcoef(w0, w1)[0, 1]
    print(round(r, 2))
    """,
])
def test_change_against_the_mean_or_an_outside_variable_is_silent(code: str):
    silent(baseline(code))


def test_residuals_against_fitted_values_are_a_diagnostic_not_a_change_score() -> None:
    setup = """
        import numpy as np
        import pandas as pd
        rng = np.random.default_rng(8)
        plots = pd.DataFrame({"n_rate": rng.uniform(0, 200, 120)})
        plots["yield_t"] = 4 + 0.02 * plots.n_rate + rng.normal(0, 0.5, 120)
    """
    found = run([BASELINE], """
        from scipy import stats
        slope, intercept = np.polyfit(plots.n_rate, plots.yield_t, 1)
        fitted = intercept + slope * plots.n_rate
        r, p = stats.pearsonr(fitted, plots.yield_t - fitted)
        print(f"residuals vs fitted: r = {r:.2f} (no structure left if near 0)")
    """, setup)
    silent(found)


# -- correlation of two autocorrelated time series ---------------------------------------------

from critics.rules.correlation_misuse import autocorrelated_series as SERIES  # noqa: E402

SERIES_ID = "correlation_misuse.autocorrelated_series"

TS_GRID = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(41)
n = 500
grid = pd.DataFrame({
    "date": pd.date_range("2022-01-01", periods=n, freq="D"),
    "load_mw": 900 + np.cumsum(rng.normal(0, 8, n)),
    "price_eur": 60 + np.cumsum(rng.normal(0, 1.5, n)),
    "noise_a": rng.normal(0, 1, n),
    "noise_b": rng.normal(0, 1, n),
})
"""

TS_STOCKS = """
import numpy as np
from scipy import stats
rng = np.random.default_rng(7)
steps = rng.normal(0, 1, size=(2, 750))
fund_a = 100 + np.cumsum(steps[0])
fund_b = 50 + np.cumsum(steps[1])
"""

TS_CLINIC = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3)
months = pd.period_range("2010-01", periods=180, freq="M").to_timestamp()
k = np.arange(180)
cycle = np.sin(2 * np.pi * k / 12)
visits = pd.DataFrame({
    "flu_visits": 200 + 0.8 * k + 60 * cycle + rng.normal(0, 10, 180),
    "ice_cream_sales": 1000 + 2.0 * k - 300 * cycle + rng.normal(0, 40, 180),
    "pharmacy_sales": 500 + 1.5 * k + 90 * cycle + rng.normal(0, 20, 180),
}, index=months)
"""

TS_PEOPLE = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(12)
n = 400
age = rng.uniform(20, 80, n)
people = pd.DataFrame({
    "age": age,
    "systolic": 100 + 0.7 * age + rng.normal(0, 3, n),
    "cholesterol": 150 + 1.2 * age + rng.normal(0, 5, n),
    "visit_date": pd.to_datetime("2020-01-01") + pd.to_timedelta(rng.integers(0, 900, n), "D"),
})
"""


def series(code: str, setup: str) -> list[Finding]:
    return run([SERIES], code, setup)


@pytest.mark.parametrize("code, setup, severity", [
    # scipy rank correlation on two random-walk columns of a daily frame, p printed
    ("rho, p = stats.spearmanr(grid['load_mw'], grid['price_eur'])\n"
     "print(f'load vs price: rho={rho:.2f}, p={p:.2g}')", TS_GRID, "high"),
    # numpy arrays that are cumulative sums, a straight-line fit with its p-value
    ("fit = stats.linregress(fund_a, fund_b)\n"
     "print('beta', round(fit.slope, 3), 'p', fit.pvalue)", TS_STOCKS, "high"),
    # a loop over columns of a monthly date-indexed frame, p compared with 0.05
    ("for col in ['ice_cream_sales', 'pharmacy_sales']:\n"
     "    tau, p = stats.kendalltau(visits['flu_visits'], visits[col])\n"
     "    if p < 0.05:\n"
     "        print(col, 'tracks flu visits', round(tau, 2))", TS_CLINIC, "high"),
    # pandas Series.corr alone: the coefficient, no p-value
    ("visits.flu_visits.corr(visits.pharmacy_sales)", TS_CLINIC, "medium"),
])
def test_correlated_autocorrelated_series_are_flagged(code: str, setup: str, severity: str):
    f = one(series(code, setup), SERIES_ID)
    assert f.severity == severity
    assert f.confidence < 0.8  # never blocks: the coupling may still be real
    assert "lag-1 autocorrelation" in f.explanation and "independent" in f.explanation


@pytest.mark.parametrize("code, setup", [
    # changes instead of levels
    ("d = grid[['load_mw', 'price_eur']].diff().dropna()\n"
     "rho, p = stats.spearmanr(d['load_mw'], d['price_eur'])\nprint(rho, p)", TS_GRID),
    ("fit = stats.linregress(np.diff(fund_a), np.diff(fund_b))\n"
     "print('beta', fit.slope, 'p', fit.pvalue)", TS_STOCKS),
    # anomalies from a trend + month-of-year fit, by hand
    ("k = np.arange(len(visits))\n"
     "X = np.column_stack([np.ones_like(k), k] + [visits.index.month == m for m in range(2, 13)])\n"
     "res = {c: visits[c] - X @ np.linalg.lstsq(X.astype(float), visits[c], rcond=None)[0]\n"
     "       for c in ['flu_visits', 'pharmacy_sales']}\n"
     "r, p = stats.pearsonr(res['flu_visits'], res['pharmacy_sales'])\nprint(r, p)", TS_CLINIC),
    # time-ordered rows that are not autocorrelated
    ("r, p = stats.pearsonr(grid.noise_a, grid.noise_b)\nprint(r, p)", TS_GRID),
])
def test_changes_anomalies_or_white_noise_are_silent(code: str, setup: str):
    silent(series(code, setup))


@pytest.mark.parametrize("code", [
    # rows sorted by a covariate: neighbours alike because of the sort, not of time
    ("s = people.sort_values('age').reset_index(drop=True)\n"
     "r, p = stats.pearsonr(s.systolic, s.cholesterol)\nprint(r, p)"),
    # the frame has a date column but was put in the order of age
    ("people.sort_values(by='age', inplace=True)\n"
     "r, p = stats.pearsonr(people.systolic, people.cholesterol)\nprint(r, p)"),
    ("order = np.argsort(people.age.to_numpy())\n"
     "sbp, chol = people.systolic.to_numpy()[order], people.cholesterol.to_numpy()[order]\n"
     "r, p = stats.pearsonr(sbp, chol)\nprint(r, p)"),
])
def test_rows_sorted_by_a_covariate_are_silent(code: str):
    silent(series(code, TS_PEOPLE))


def test_effective_sample_size_in_the_cell_is_silent():
    code = ("rho, p = stats.spearmanr(grid.load_mw, grid.price_eur)\n"
            "a1 = grid.load_mw.autocorr(); a2 = grid.price_eur.autocorr()\n"
            "n_eff = len(grid) * (1 - a1 * a2) / (1 + a1 * a2)\nprint(rho, p, n_eff)")
    silent(series(code, TS_GRID))


def test_yearly_frame_with_a_year_column_and_numpy_corrcoef_is_medium():
    setup = """
import numpy as np
import pandas as pd
from scipy import stats  # noqa: F401  (loaded before the introspection budget starts)
rng = np.random.default_rng(5)
yr = np.arange(1950, 2020)
econ = pd.DataFrame({"year": yr,
                     "gdp_index": 100 * 1.03 ** (yr - 1950) + rng.normal(0, 15, yr.size),
                     "co2_ppm": 310 + 1.4 * (yr - 1950) + rng.normal(0, 4, yr.size)})
econ = econ.sample(frac=1, random_state=1).sort_values("year")
"""
    f = one(series("np.corrcoef(econ.gdp_index, econ.co2_ppm)[0, 1]", setup), SERIES_ID)
    assert f.severity == "medium" and "year" in f.explanation


# -- agreement between two methods judged by their correlation ---------------------------------

from critics.rules.correlation_misuse import agreement_by_correlation as AGREE  # noqa: E402

AGREE_ID = "correlation_misuse.agreement_by_correlation"
METHODS = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(11)
true_bp = rng.normal(128, 16, 45)
bp = pd.DataFrame({"sbp_cuff": np.round(true_bp + rng.normal(0, 3, 45), 1),
                   "sbp_wrist": np.round(1.12 * true_bp - 6 + rng.normal(0, 3, 45), 1)})
true_hb = rng.normal(13.5, 1.6, 30)
hb_lab = np.round(true_hb + rng.normal(0, 0.2, 30), 2)
hb_poc = np.round(true_hb + 0.9 + rng.normal(0, 0.2, 30), 2)
true_area = rng.uniform(20, 90, 25)
areas = pd.DataFrame({f"rater{k}": np.round(true_area + off + rng.normal(0, 2, 25), 1)
                      for k, off in ((1, 0.0), (2, 6.0), (3, -4.0))})
twin_a = np.round(true_hb + rng.normal(0, 0.2, 30), 2)
twin_b = np.round(true_hb + rng.normal(0, 0.2, 30), 2)
"""


def agree(code: str) -> list[Finding]:
    return run([AGREE], code, METHODS)


def test_pearsonr_of_two_devices_read_as_agreement() -> None:
    f = one(agree("""
        r, p = stats.pearsonr(bp["sbp_cuff"], bp["sbp_wrist"])
        print(f"wrist vs cuff: r = {r:.3f}, p = {p:.1g}")
        if r > 0.9:
            print("the wrist monitor agrees with the cuff and can replace it")
    """), AGREE_ID)
    assert f.severity == "high" and "limits of agreement" in f.explanation


def test_bland_altman_on_the_two_devices_is_quiet() -> None:
    silent(agree("""
        r, p = stats.pearsonr(bp["sbp_cuff"], bp["sbp_wrist"])
        d = bp["sbp_wrist"] - bp["sbp_cuff"]
        lo, hi = d.mean() - 1.96 * d.std(), d.mean() + 1.96 * d.std()
        print(f"r = {r:.3f}; wrist - cuff {d.mean():+.1f} mmHg (95% LoA {lo:+.1f} to {hi:+.1f})")
        print("agreement is acceptable" if max(abs(lo), abs(hi)) < 10 else "the devices disagree")
    """))


def test_corrcoef_in_a_helper_claims_interchangeable() -> None:
    f = one(agree("""
        def compare(ref, new):
            return np.corrcoef(ref, new)[0, 1]

        rho = np.corrcoef(hb_lab, hb_poc)[0, 1]
        print(f"point-of-care Hb vs lab Hb: r = {rho:.3f} -> the meters are interchangeable")
    """), AGREE_ID)
    assert f.severity == "high" and "concordance" in f.explanation


def test_lins_concordance_on_the_meters_is_quiet() -> None:
    silent(agree("""
        def lins_ccc(x, y):
            sxy = np.cov(x, y, ddof=0)[0, 1]
            return 2 * sxy / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)

        rho = np.corrcoef(hb_lab, hb_poc)[0, 1]
        print(f"r = {rho:.3f}, Lin's CCC = {lins_ccc(hb_lab, hb_poc):.3f}: the meters agree "
              "only if the CCC is high")
    """))


def test_series_corr_between_raters_in_a_loop() -> None:
    f = one(agree("""
        for a, b in [("rater1", "rater2"), ("rater1", "rater3")]:
            r = areas[a].corr(areas[b])
            print(f"{a} vs {b}: r = {r:.2f} -> the raters agree")
    """), AGREE_ID)
    assert f.severity in ("medium", "high")


def test_rater_mean_absolute_difference_is_quiet() -> None:
    silent(agree("""
        for a, b in [("rater1", "rater2"), ("rater1", "rater3")]:
            r = areas[a].corr(areas[b])
            mad = (areas[a] - areas[b]).abs().mean()
            print(f"{a} vs {b}: r = {r:.2f}, mean |difference| {mad:.1f} cm2: "
                  f"{'agree' if mad < 3 else 'disagree'}")
    """))


def test_correlation_not_framed_as_agreement_is_quiet() -> None:
    silent(agree("""
        r, p = stats.pearsonr(bp["sbp_cuff"], bp["sbp_wrist"])
        print(f"cuff and wrist readings are associated: r = {r:.2f} (p = {p:.1g})")
    """))


def test_unbiased_methods_read_as_agreement_is_only_medium() -> None:
    f = one(agree("""
        r, p = stats.pearsonr(twin_a, twin_b)
        print(f"duplicate assays agree: r = {r:.3f}")
    """), AGREE_ID)
    assert f.severity == "medium"


# -- codes that reach Pearson through a dict, a loop, a zip or a helper ------------------------

def test_label_codes_in_a_dict_of_predictors_looped_with_pearsonr():
    f = one(codes("""
        from sklearn.preprocessing import LabelEncoder
        predictors = {"age": survey["age"].to_numpy(),
                      "city": LabelEncoder().fit_transform(survey["city"])}
        for name, x in predictors.items():
            r, p = stats.pearsonr(x, survey["income"])
            print(f"{name}: r={r:.2f} p={p:.3f}")
    """), "correlation_misuse.pearson_on_codes")
    assert f.severity == "critical" and "predictors['city']" in f.explanation


def test_dict_of_predictors_with_a_correlation_ratio_for_the_label_is_sound():
    silent(codes("""
        def eta(groups, y):
            m = y.groupby(groups).transform("mean")
            return np.sqrt(((m - y.mean()) ** 2).sum() / ((y - y.mean()) ** 2).sum())
        predictors = {"age": survey["age"].to_numpy(),
                      "children": survey["children"].to_numpy()}
        out = {k: stats.pearsonr(x, survey["income"])[0] for k, x in predictors.items()}
        out["city (eta)"] = eta(survey["city"], survey["income"])
        print(out)
    """))


def test_np_unique_inverse_codes_through_a_helper():
    f = one(codes("""
        levels, city_idx = np.unique(survey["city"].to_numpy(), return_inverse=True)
        def r_of(a, b):
            return np.corrcoef(a, b)[0, 1]
        print("age", r_of(survey["age"], survey["income"]))
        print("city", r_of(city_idx, survey["income"]))
    """), "correlation_misuse.pearson_on_codes")
    assert "np.unique" in f.explanation and f.severity in ("high", "critical")


def test_one_hot_point_biserial_per_level_through_a_helper_is_sound():
    silent(codes("""
        def r_of(a, b):
            return np.corrcoef(a, b)[0, 1]
        print("age", r_of(survey["age"], survey["income"]))
        for city in np.unique(survey["city"].to_numpy()):
            print(city, r_of((survey["city"] == city).astype(int), survey["income"]))
    """))


def test_unique_levels_not_codes_are_left_alone():
    silent(codes("""
        levels = np.unique(survey["city"].to_numpy(), return_inverse=True)[0]
        print(len(levels), np.corrcoef(survey["age"], survey["income"])[0, 1])
    """))


def test_cat_codes_zipped_with_names_and_series_corr():
    f = one(codes("""
        names = ["age", "city"]
        series = [survey["age"], survey["city"].astype("category").cat.codes]
        for name, s in zip(names, series):
            print(name, round(s.corr(survey["income"]), 3))
    """), "correlation_misuse.pearson_on_codes")
    assert f.severity in ("high", "critical") and ".cat.codes" in f.explanation


def test_ordinal_map_in_natural_order_zipped_with_spearman_is_sound():
    silent(codes("""
        order = {"high school": 0, "bachelor": 1, "master": 2, "phd": 3}
        names = ["age", "education"]
        series = [survey["age"], survey["education"].map(order)]
        for name, s in zip(names, series):
            print(name, round(s.corr(survey["income"], method="spearman"), 3))
    """))


def test_factorized_column_of_a_frame_built_from_a_dict_with_corrwith():
    f = one(codes("""
        X = pd.DataFrame({"age": survey["age"], "city": pd.factorize(survey["city"])[0]})
        print(X.corrwith(survey["income"]))
    """), "correlation_misuse.pearson_on_codes")
    assert "X['city']" in f.explanation


def test_frame_built_from_a_dict_with_cramers_v_for_the_label_is_sound():
    silent(codes("""
        from scipy.stats.contingency import association
        X = pd.DataFrame({"age": survey["age"], "log_age": np.log(survey["age"])})
        print(X.corrwith(survey["income"]))
        table = pd.crosstab(survey["city"], survey["education"])
        print("city~education V", association(table.to_numpy(), method="cramer"))
    """))


# -- calibration of predictions judged by their correlation with outcomes ------------------------

CALIB = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(21)
n = 6000
icu = pd.DataFrame({"risk_score": rng.beta(1.2, 8, n)})
icu["died"] = rng.binomial(1, np.minimum(0.55 * icu["risk_score"], 1))   # over-predicts
icu["died_ok"] = rng.binomial(1, icu["risk_score"])                         # calibrated
rain_p = np.round(rng.uniform(0.05, 0.5, n), 2)
rained = rng.binomial(1, np.minimum(1.9 * rain_p, 1))                       # under-predicts
shops = pd.DataFrame({"segment": rng.choice(list("ABCDEFGH"), n)})
seg_rate = dict(zip("ABCDEFGH", [0.02, 0.04, 0.06, 0.09, 0.12, 0.16, 0.2, 0.25]))
shops["expected_churn"] = shops["segment"].map(seg_rate)
shops["churned"] = rng.binomial(1, 0.5 * shops["expected_churn"] + 0.03)
"""

CALIB_ID = AGREE_ID

CALIB_FLAWED = {
    # deciles of a risk score, pearsonr of mean predicted vs observed mortality
    "scipy_deciles": """
        icu["decile"] = pd.qcut(icu["risk_score"], 10, labels=False)
        by = icu.groupby("decile")[["risk_score", "died"]].mean()
        r, p = stats.pearsonr(by["risk_score"], by["died"])
        print(f"predicted vs observed mortality by decile: r = {r:.3f}")
        print("the score is well calibrated" if r > 0.95 else "calibration is poor")
    """,
    # forecast bins built in a loop, np.corrcoef of the two lists
    "numpy_loop_bins": """
        fc, obs = [], []
        for lo in np.arange(0.05, 0.5, 0.05):
            m = (rain_p >= lo) & (rain_p < lo + 0.05)
            fc.append(rain_p[m].mean())
            obs.append(rained[m].mean())
        rho = np.corrcoef(fc, obs)[0, 1]
        print(f"forecast reliability: r = {rho:.3f} -> calibrated: {rho > 0.9}")
    """,
    # pandas Series.corr on per-segment aggregates, expected vs actual
    "pandas_series_corr": """
        seg = shops.groupby("segment").agg(expected=("expected_churn", "mean"),
                                           actual=("churned", "mean"))
        c = seg["expected"].corr(seg["actual"])
        print(f"expected vs actual churn across segments: corr {c:.2f}, so the churn model "
              "is calibrated")
    """,
}

CALIB_SOUND = {
    # the same deciles judged by observed / expected and a slope
    "scipy_deciles": """
        icu["decile"] = pd.qcut(icu["risk_score"], 10, labels=False)
        by = icu.groupby("decile")[["risk_score", "died"]].mean()
        r, p = stats.pearsonr(by["risk_score"], by["died"])
        o_over_e = by["died"].sum() / by["risk_score"].sum()
        print(f"predicted vs observed mortality by decile: r = {r:.3f}, O/E = {o_over_e:.2f}")
        print("the score is well calibrated" if abs(o_over_e - 1) < 0.1 else "recalibrate")
    """,
    # a calibrated forecast, correlation used only to describe ranking (no calibration claim)
    "numpy_loop_bins": """
        fc, obs = [], []
        for lo in np.arange(0.05, 0.5, 0.05):
            m = (rain_p >= lo) & (rain_p < lo + 0.05)
            fc.append(rain_p[m].mean())
            obs.append(rained[m].mean())
        rho = np.corrcoef(fc, obs)[0, 1]
        print(f"higher forecast bins see more rain: r = {rho:.3f}")
    """,
    # outcomes that really match the predictions: at most a note
    "pandas_series_corr": """
        icu["band"] = pd.qcut(icu["risk_score"], 8, labels=False)
        seg = icu.groupby("band").agg(expected=("risk_score", "mean"), actual=("died_ok", "mean"))
        c = seg["expected"].corr(seg["actual"])
        print(f"expected vs actual deaths across bands: corr {c:.2f}, so the model is calibrated")
    """,
}


@pytest.mark.parametrize("idiom", sorted(CALIB_FLAWED))
def test_correlation_read_as_calibration_with_biased_levels(idiom: str) -> None:
    f = one(run([AGREE], CALIB_FLAWED[idiom], CALIB), CALIB_ID)
    assert f.severity == "high", f.explanation
    assert "calibrat" in f.explanation and "mean_ratio" in f.evidence["values"]
    ratio = f.evidence["values"]["mean_ratio"]
    assert not 0.85 <= ratio <= 1 / 0.85, ratio


@pytest.mark.parametrize("idiom", sorted(CALIB_SOUND))
def test_calibration_sound_twins_stay_quiet(idiom: str) -> None:
    quiet(run([AGREE], CALIB_SOUND[idiom], CALIB))


# -- a matrix over a computed selection of columns: only the selected columns count ----------

_SELECTIONS = [
    # a named list plus the outcome, rank correlation
    ('cont = ["age", "children"{x}]\n'
     'r = survey[cont + ["income"]].corr(method="spearman")["income"]\n'
     'print(r.round(2))\n'),
    # a comprehension over the columns excluding the text and code columns
    ('keep = [c for c in survey.columns if c not in ("city", "education", "female"{x})]\n'
     'print(survey[keep].corr(method="spearman").round(2))\n'),
    # columns.drop inline, Kendall's tau
    ('m = survey[survey.columns.drop(["city", "education"{x}])].corr(method="kendall")\n'
     'print(m.loc["income"].round(2))\n'),
]


@pytest.mark.parametrize("cell", _SELECTIONS)
def test_matrix_over_a_computed_column_selection(cell: str):
    if "cont =" in cell:  # the flaw adds the identifier to the selection
        flawed, sound = cell.replace("{x}", ', "zipcode"'), cell.replace("{x}", "")
    else:  # the flaw leaves the identifier in the selection
        flawed, sound = cell.replace("{x}", ""), cell.replace("{x}", ', "zipcode"')
    f = only(codes(flawed))
    assert f.rule_id == "correlation_misuse.pearson_on_codes" and "zipcode" in f.explanation
    quiet(codes(sound))


# series computed from a running time / trial index (`t = np.arange(n)`), no date index at all

TS_RIVER = """
import numpy as np
from scipy import stats
rng = np.random.default_rng(21)
hours = np.arange(720)
stage_m = 1.2 + 0.0015 * hours + 0.2 * np.sin(2 * np.pi * hours / 24) + rng.normal(0, .03, 720)
turbidity = 8 + 0.01 * hours + 0.5 * np.sin(2 * np.pi * hours / 24) + rng.normal(0, .3, 720)
white_a, white_b = rng.normal(size=720), rng.normal(size=720)
"""

TS_LAKE = """
import numpy as np
from scipy import stats
rng = np.random.default_rng(22)
t_days = np.arange(365)
season = np.sin(2 * np.pi * (t_days - 100) / 365)
water_temp = 12 + 9 * season + rng.normal(0, 0.8, 365)
chl_a = [4 + 3 * s + rng.normal(0, 0.6) for s in season]
"""

TS_TRIALS = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(23)
trial = np.arange(600)
fatigue = np.exp(-trial / 250)
lick_rate = pd.Series(5 + 2 * fatigue + rng.normal(0, 0.3, 600))
running = pd.Series(20 * fatigue + rng.normal(0, 1.5, 600))
"""


@pytest.mark.parametrize("code, setup, severity", [
    # scipy pearsonr on two arrays that drift over the recording hours, p printed
    ("r, p = stats.pearsonr(stage_m, turbidity)\nprint(f'r={r:.2f} p={p:.1e}')",
     TS_RIVER, "high"),
    # a straight-line fit on a series built in a comprehension, slope p-value read
    ("res = stats.linregress(water_temp, np.array(chl_a))\n"
     "print('slope', res.slope, 'p', res.pvalue)", TS_LAKE, "high"),
    # pandas Series.corr between two per-trial series, coefficient only
    ("lick_rate.corr(running)", TS_TRIALS, "medium"),
])
def test_series_computed_from_a_time_index_are_flagged(code: str, setup: str, severity: str):
    f = one(series(code, setup), SERIES_ID)
    assert f.severity == severity and f.confidence < 0.8
    assert "time index" in f.explanation


@pytest.mark.parametrize("code, setup", [
    # detrended first
    ("from scipy.signal import detrend\n"
     "r, p = stats.pearsonr(detrend(stage_m), detrend(turbidity))\nprint(r, p)", TS_RIVER),
    # white noise on the same time axis
    ("r, p = stats.pearsonr(white_a, white_b)\nprint(r, p)", TS_RIVER),
    # a trend test against the time index itself (sorted: no lag-1 read)
    ("res = stats.linregress(t_days, water_temp)\nprint(res.slope, res.pvalue)", TS_LAKE),
    # changes from trial to trial
    ("lick_rate.diff().corr(running.diff())", TS_TRIALS),
])
def test_time_index_series_handled_or_white_are_silent(code: str, setup: str):
    silent(series(code, setup))


# -- one series drifts over the years, the other is weakly autocorrelated: a tested r ----------

TS_ANNUAL = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(88)
years = np.arange(1975, 2025)
k = years - years[0]
# glacier mass balance drifts down; regional wildfire area drifts up with a lot of noise
mass = -0.2 - 0.025 * k + rng.normal(0, 0.12, len(k))
fire = 300 + 6.0 * k + rng.normal(0, 120, len(k))
yearly = pd.DataFrame({"mass_bal": mass, "fire_kha": fire},
                      index=pd.Index(years, name="year"))
# a hospital's annual admissions and a city's bike trips, in a frame with a year column
adm = 5000 + 60 * k + rng.normal(0, 1600, len(k))
bikes = 2e5 + 9e3 * k + rng.normal(0, 3e4, len(k))
city = pd.DataFrame({"year": years, "admissions": adm, "bike_trips": bikes})
white_a, white_b = rng.normal(0, 1, len(k)), rng.normal(0, 1, len(k))
"""


@pytest.mark.parametrize("code", [
    # scipy pearsonr on two columns of a year-indexed frame, p printed
    "r, p = stats.pearsonr(yearly.mass_bal, yearly.fire_kha)\n"
    "print(f'r = {r:.2f}, p = {p:.1e}')",
    # spearmanr after set_index('year'), p compared with 0.05
    "c = city.set_index('year')\n"
    "rho, p = stats.spearmanr(c['admissions'], c['bike_trips'])\n"
    "if p < 0.05:\n    print('admissions track bike trips', round(rho, 2))",
    # linregress on arrays, slope and p-value reported
    "fit = stats.linregress(yearly['mass_bal'].to_numpy(), yearly['fire_kha'].to_numpy())\n"
    "print('slope', round(fit.slope, 1), 'p', fit.pvalue)",
])
def test_tested_correlation_of_a_drifting_series_is_noted(code: str) -> None:
    found = series(code, TS_ANNUAL)
    f = one(found, SERIES_ID)
    assert f.severity in ("medium", "high") and f.confidence < 0.8
    assert "lag-1 autocorrelation" in f.explanation


@pytest.mark.parametrize("code", [
    "from scipy.signal import detrend\n"
    "r, p = stats.pearsonr(detrend(yearly.mass_bal.to_numpy()),\n"
    "                      detrend(yearly.fire_kha.to_numpy()))\n"
    "print(r, p)",
    "c = city.set_index('year').diff().dropna()\n"
    "rho, p = stats.spearmanr(c['admissions'], c['bike_trips'])\nprint(rho, p)",
    # coefficient only, no test: not the drift tier
    "print(yearly.mass_bal.corr(yearly.fire_kha))",
    # white noise in year order
    "r, p = stats.pearsonr(white_a, white_b)\nprint(r, p)",
])
def test_detrended_untested_or_white_noise_pairs_are_silent(code: str) -> None:
    silent(series(code, TS_ANNUAL))


# -- agreement: one unit suffix, or a device named in the agreement sentence -------------------

THERMO = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3714)
n = 60
rectal = rng.normal(38.7, 0.7, n)
# the infrared reading is low and compresses the range
temps = pd.DataFrame({"rectal_c": rectal.round(1),
                      "ir_ear_c": (15.6 + 0.59 * rectal + rng.normal(0, 0.18, n)).round(1)})
oral_f = np.round(rectal * 9 / 5 + 32, 1)
tympanic_f = np.round(oral_f - 0.9 + rng.normal(0, 0.3, n), 1)
forehead = pd.Series(rectal - 0.6 + rng.normal(0, 0.25, n))
axillary = pd.Series(rectal - 0.1 + rng.normal(0, 0.25, n))
"""


@pytest.mark.parametrize("code", [
    # scipy on frame columns sharing a one-letter unit suffix (`_c`)
    """
    r, p = stats.pearsonr(temps.rectal_c, temps.ir_ear_c)
    print(f"r = {r:.3f} (P = {p:.1g}): the IR ear reading agrees closely with rectal "
          "temperature and can replace it")
    """,
    # numpy arrays in degrees F
    """
    r = np.corrcoef(oral_f, tympanic_f)[0, 1]
    print(f"r = {r:.3f}, so tympanic and oral readings are interchangeable")
    """,
    # pandas Series.corr, the device named in the sentence
    """
    r = forehead.corr(axillary)
    print(f"r = {r:.2f}: the forehead scanner agrees with axillary temperature")
    """,
])
def test_two_thermometers_read_as_agreement(code: str) -> None:
    f = one(run([AGREE], code, THERMO), AGREE_ID)
    assert f.severity == "high" and "limits of agreement" in f.explanation


@pytest.mark.parametrize("code", [
    # Bland-Altman on the frame columns
    """
    d = temps.ir_ear_c - temps.rectal_c
    bias, sd = d.mean(), d.std(ddof=1)
    print(f"bias {bias:+.2f} C, 95% limits of agreement {bias - 1.96 * sd:+.2f} to "
          f"{bias + 1.96 * sd:+.2f} C: the IR ear reading does not agree closely enough")
    """,
    # correlation reported as an association only
    """
    r = np.corrcoef(oral_f, tympanic_f)[0, 1]
    print(f"tympanic and oral readings are correlated, r = {r:.3f}")
    """,
    # agreement words, but about neither sample nor a measuring device
    """
    r = forehead.corr(axillary)
    print(f"r = {r:.2f}; the team agrees to collect another week of data")
    """,
])
def test_thermometers_compared_on_differences_or_not_as_agreement_are_quiet(code: str) -> None:
    silent(run([AGREE], code, THERMO))


# -- short annual series, and a monotone running count -----------------------------------------

TS_SHORT = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3562)
years = np.arange(2006, 2024)
t = years - 2006
freq = np.round(0.125 * np.exp(-0.022 * t) * np.exp(rng.normal(0, 0.025, 18)), 4)
share = np.round(0.2 / (1 + np.exp(-0.45 * (t - 11))) + rng.normal(0, 0.004, 18), 4).clip(0.002)
mkt = pd.DataFrame({"year": years, "claim_freq": freq, "telematics_share": share})
by_year = mkt.set_index("year")
noise_a, noise_b = rng.normal(0, 1, 18), rng.normal(0, 1, 18)
"""


@pytest.mark.parametrize("code, severity", [
    # scipy on two columns of a frame with a year column, p printed
    ("r, p = stats.pearsonr(mkt.telematics_share, mkt.claim_freq)\n"
     "print(f'r = {r:.3f}, p = {p:.1e}')", "high"),
    # numpy polyfit + a scipy p-value on the arrays built from the years
    ("slope = np.polyfit(share * 100, freq, 1)[0]\n"
     "fit = stats.linregress(share, freq)\n"
     "print('slope', round(slope, 4), 'p', fit.pvalue)", "high"),
    # pandas Series.corr on a year-indexed frame: the coefficient alone
    ("by_year.telematics_share.corr(by_year.claim_freq)", "medium"),
])
def test_short_annual_trending_series_are_flagged(code: str, severity: str) -> None:
    f = one(series(code, TS_SHORT), SERIES_ID)
    assert f.severity == severity and f.confidence < 0.8
    assert "18 rows" in f.explanation


@pytest.mark.parametrize("code", [
    # year-on-year changes
    "chg = mkt[['telematics_share', 'claim_freq']].diff().dropna()\n"
    "r, p = stats.pearsonr(chg.telematics_share, chg.claim_freq)\nprint(r, p)",
    "fit = stats.linregress(np.diff(share), np.diff(np.log(freq)))\nprint(fit.pvalue)",
    # a trend test against the year itself
    "fit = stats.linregress(mkt.year, mkt.claim_freq)\nprint(fit.slope, fit.pvalue)",
    # short white noise in year order
    "r, p = stats.pearsonr(noise_a, noise_b)\nprint(r, p)",
])
def test_short_series_differenced_trend_tested_or_white_are_silent(code: str) -> None:
    silent(series(code, TS_SHORT))


TS_COUNT = """
import numpy as np
import pandas as pd
from scipy import stats
rng = np.random.default_rng(3813)
weeks = pd.date_range("2023-01-02", periods=78, freq="W-MON")
# a running count of services (never falls) and a noisy rising page volume
n_services = 40 + np.cumsum(rng.poisson(0.8, 78))
pages = rng.poisson(6 * np.linspace(1.0, 2.3, 78) * rng.lognormal(0, 0.15, 78))
ops = pd.DataFrame({"week": weeks, "n_services": n_services, "pages": pages})
by_week = ops.set_index("week")
flat = rng.normal(10, 2, 78)
"""


@pytest.mark.parametrize("code", [
    # scipy on frame columns (a datetime column in the frame)
    "r, p = stats.pearsonr(ops['n_services'], ops['pages'])\nprint(f'r = {r:.2f}, p = {p:.1g}')",
    # spearman on a week-indexed frame, p compared with 0.05
    "rho, p = stats.spearmanr(by_week.n_services, by_week.pages)\n"
    "if p < 0.05:\n    print('pages rise with services', round(rho, 2))",
    # linregress on the numpy arrays, slope p-value printed
    "fit = stats.linregress(ops['n_services'].to_numpy(), ops['pages'].to_numpy())\n"
    "print('pages per service', round(fit.slope, 2), 'p', fit.pvalue)",
])
def test_monotone_running_count_against_a_trending_series_is_noted(code: str) -> None:
    f = one(series(code, TS_COUNT), SERIES_ID)
    assert f.severity == "medium" and "monotone" in f.explanation


@pytest.mark.parametrize("code", [
    "d = ops[['n_services', 'pages']].diff().iloc[1:]\n"
    "rho, p = stats.spearmanr(d['n_services'], d['pages'])\nprint(rho, p)",
    # the running count against a flat, unautocorrelated series
    "r, p = stats.pearsonr(ops['n_services'], flat)\nprint(r, p)",
    # pages against the week number itself: a trend test
    "k = np.arange(len(ops))\nfit = stats.linregress(k, ops['pages'])\nprint(fit.pvalue)",
])
def test_running_count_differenced_or_against_noise_is_silent(code: str) -> None:
    silent(series(code, TS_COUNT))


# -- per-unit slopes read as interventions, and hedged associations ----------------------------

@pytest.mark.parametrize("code", [
    'fit = stats.linregress(survey["children"], survey["income"])\n'
    'print(f"each new child adds {fit.slope:.0f} to income")',
    'b = np.polyfit(survey["age"], survey["income"], 1)[0]\n'
    'print(f"each +1 year of age raises income by {b:.0f}")',
    'r = survey["age"].corr(survey["income"])\n'
    'print(f"r = {r:.2f}: every +10 years of age adds income")',
])
def test_per_unit_slope_worded_as_an_intervention_is_causal(code: str) -> None:
    only(causal(code))


@pytest.mark.parametrize("code", [
    'r, p = stats.pearsonr(survey["age"], survey["income"])\n'
    'print(f"r = {r:.2f}; association only: no evidence here that age drives income")',
    'r = survey["age"].corr(survey["income"])\n'
    'print(f"r = {r:.2f}; the data cannot attribute income growth to age, it drives nothing")',
    'b = np.polyfit(survey["age"], survey["income"], 1)[0]\n'
    'print(f"slope {b:.0f}: only an association, other factors may drive income")',
])
def test_hedged_association_is_silent(code: str) -> None:
    silent(causal(code))
