"""correlation_misuse: Pearson on categorical/ordinal codes, and correlation worded as
causation."""

from __future__ import annotations

import pytest

from critics.findings import Finding
from critics.rules.correlation_misuse import causal_language as CAUSAL
from critics.rules.correlation_misuse import pearson_on_codes as CODES
from tests.inprocess_evidence import evidence, run_and_gather

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
    return CODES.check(run_and_gather(code, setup))


def causal(code: str, setup: str = SURVEY) -> list[Finding]:
    return CAUSAL.check(run_and_gather(code, setup))


def only(found: list[Finding]) -> Finding:
    assert len(found) == 1, found
    return found[0]


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
    assert codes("""
        d2 = survey[["income", "age"]].assign(customer_id=np.arange(n))
        print(d2.drop(columns=["customer_id"]).corr().round(2))
    """) == []


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
    f = only(CODES.check(evidence("""
        from sklearn.preprocessing import LabelEncoder
        from scipy import stats
        le = LabelEncoder()
        df["color_enc"] = le.fit_transform(df["color"])
        print(stats.pearsonr(df["color_enc"], df["price"]))
    """)))
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
    assert codes("""
        from scipy.stats.contingency import association
        table = pd.crosstab(survey["city"], survey["education"])
        chi2, p, dof, _ = stats.chi2_contingency(table)
        print(association(table, method="cramer"), p)
    """) == []


def test_sound_spearman_on_ordinal_map():
    assert codes("""
        levels = {"high school": 1, "bachelor": 2, "master": 3, "phd": 4}
        survey["edu_level"] = survey.education.map(levels)
        print(survey["edu_level"].corr(survey["income"], method="spearman"))
    """) == []


def test_sound_spearmanr_on_likert():
    assert codes("print(stats.spearmanr(survey.satisfaction, survey.income))") == []


def test_sound_kendall_matrix_on_ordinal_columns():
    assert codes("""
        survey["edu_level"] = survey.education.map(
            {"high school": 1, "bachelor": 2, "master": 3, "phd": 4})
        print(survey[["edu_level", "satisfaction", "income"]].corr(method="kendall"))
    """) == []


def test_sound_ordered_categorical_codes_with_spearman():
    assert codes("""
        edu = pd.Categorical(survey.education,
                             categories=["high school", "bachelor", "master", "phd"],
                             ordered=True)
        survey["edu_code"] = edu.codes
        print(survey[["edu_code", "income"]].corr(method="spearman"))
    """) == []


def test_sound_pearson_on_continuous_measures():
    assert codes("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"r = {r:.2f}")
        print(survey[["age", "income"]].corr())
    """) == []


def test_sound_pearson_with_a_binary_indicator():
    assert codes('print(stats.pearsonr(survey["female"], survey["income"]))') == []


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
    assert causal("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"Age is associated with income (r = {r:.2f}, p = {p:.3g})")
    """) == []


def test_sound_hedged_wording():
    assert causal("""
        r, p = stats.pearsonr(survey["age"], survey["income"])
        print(f"r = {r:.2f}; this does not imply causation: age may act through experience")
    """) == []


def test_causal_words_without_a_correlation_are_not_this_rule():
    assert causal('print("Smoking causes cancer")') == []


@pytest.mark.parametrize("code", ["", "df.corr(", "x.corr()", "np.corrcoef()", "pearsonr(*a)"])
def test_odd_code_never_raises(code):
    ev = evidence(code)
    assert CODES.check(ev) == [] and CAUSAL.check(ev) == []
