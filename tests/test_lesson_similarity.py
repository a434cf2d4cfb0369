"""The near-duplicate measure of lessons, on a labeled set of pairs written for it: true
duplicates (paraphrases, other numbers / column names / variable names, word order,
inflection) and look-alike non-duplicates (same rule or error, another mistake)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from services.lesson_similarity import (
    THRESHOLD,
    is_duplicate,
    normalise,
    same_scope,
    similarity,
)
from services.lessons import Category, Lesson, Scope


@dataclass(frozen=True)
class Pair:
    name: str
    a: tuple[str, str]  # (title, what went wrong)
    b: tuple[str, str]
    duplicate: bool
    columns: tuple[str, ...] = ()


PAIRS = [
    # -- true duplicates --------------------------------------------------------------------
    Pair("numbers and column differ",
         ("dropna removed 38% of the rows",
          "df.dropna() dropped 380 of 1000 rows because column 'income' had missing values"),
         ("dropna removed 12% of the rows",
          "df.dropna() dropped 120 of 1000 rows because column 'age' had missing values"),
         True),
    Pair("paraphrase with inflection",
         ("StandardScaler fit before train_test_split",
          "The StandardScaler was fit on all rows before the train/test split, so test "
          "statistics leaked into training."),
         ("Scaler fitted before the train/test split",
          "StandardScaler fitted on all the rows before splitting into train and test, so "
          "the test statistics leaked into the training data."),
         True),
    Pair("word order",
         ("13 t-tests without multiple comparison correction",
          "Ran 13 t-tests and reported p < 0.05 without any correction for multiple "
          "comparisons."),
         ("Multiple comparison correction missing for 13 t-tests",
          "Reported p < 0.05 for 13 t-tests without any correction for multiple comparisons."),
         True),
    Pair("quoted key differs",
         ("KeyError: column not found in the DataFrame",
          "KeyError: 'Age' - the column is spelled 'age' in the DataFrame"),
         ("KeyError: column not found in DataFrame",
          "KeyError: 'Income' - the column is spelled 'income' in the DataFrame"),
         True),
    Pair("suspicious score, other number",
         ("Test accuracy of 1.0 is suspicious",
          "The model reached accuracy 1.0 on the test set, which points to leakage."),
         ("Test accuracy of 0.998 is suspicious",
          "The model reached accuracy 0.998 on the test set, which points to leakage."),
         True),
    Pair("unquoted column names from the scope",
         ("Pearson correlation on the region codes",
          "pearsonr was computed on region, an integer-coded categorical variable."),
         ("Pearson correlation on the smoker codes",
          "pearsonr was computed on smoker, an integer-coded categorical variable."),
         True, ("region", "smoker")),
    Pair("string to float, other value",
         ("String column passed to the model",
          "ValueError: could not convert string to float: 'male' when fitting "
          "LogisticRegression"),
         ("String column passed to the model",
          "ValueError: could not convert string to float: 'female' when fitting "
          "LogisticRegression"),
         True),
    Pair("unseeded split, inflection",
         ("Unseeded random split behind a reported score",
          "train_test_split was called without random_state, so the reported accuracy "
          "changes on every run."),
         ("Unseeded random splits behind the reported scores",
          "train_test_split called without a random_state: the reported accuracy changed "
          "on each run."),
         True),
    Pair("more detail in one description",
         ("t-test on skewed data",
          "scipy.stats.ttest_ind was used on strongly right-skewed income data (skew 4.2)."),
         ("t-test on skewed data",
          "ttest_ind was used on strongly right-skewed income data (skew 3.1, n=40)."),
         True),
    Pair("variable names differ",
         ("Scaler fit on X before the split",
          "scaler.fit(X_all) ran before train_test_split, so X_train_scaled saw the test "
          "rows."),
         ("Scaler fit on X before the split",
          "scaler.fit(features) ran before train_test_split, so X_tr saw the test rows."),
         True),
    Pair("escalation told twice",
         ("Cell escalated: critique retries exhausted",
          "leakage.fit_saw_heldout_rows was found again after 2 retries; the generator "
          "kept fitting the scaler on X before the split."),
         ("Cell escalated after the critique retries were exhausted",
          "leakage.fit_saw_heldout_rows found again after 3 retries: the generator kept "
          "fitting the scaler on X before splitting."),
         True),
    Pair("imbalanced accuracy, reordered",
         ("Imbalanced classes: accuracy reported alone",
          "Accuracy 0.95 reported on a dataset with 95% negatives; balanced accuracy or F1 "
          "would show the model is no better than the majority class."),
         ("Accuracy reported alone on imbalanced classes",
          "Reported accuracy of 0.91 on data with 91% negatives; balanced accuracy or F1 would "
          "show that the model is no better than the majority class."),
         True),
    # -- look-alike non-duplicates -----------------------------------------------------------
    Pair("scaler vs PCA (same rule, another transformer)",
         ("StandardScaler fit before the split",
          "StandardScaler was fit on all rows before train_test_split."),
         ("PCA fit before the split",
          "PCA was fit on all rows before train_test_split."),
         False),
    Pair("imputer vs scaler",
         ("SimpleImputer fit before the split",
          "SimpleImputer was fit on all rows before train_test_split."),
         ("StandardScaler fit before the split",
          "StandardScaler was fit on all rows before train_test_split."),
         False),
    Pair("uncorrected vs partly corrected",
         ("13 t-tests without correction",
          "Ran 13 t-tests and reported p < 0.05 without correction for multiple comparisons."),
         ("Bonferroni applied to half of the tests",
          "Ran 13 t-tests and applied the Bonferroni correction to only 6 of them."),
         False),
    Pair("same error type, other cause",
         ("String column passed to the model",
          "ValueError: could not convert string to float: 'male'"),
         ("Missing values passed to the model",
          "ValueError: Input X contains NaN"),
         False),
    Pair("KeyError: column vs dict",
         ("KeyError: column not found in the DataFrame",
          "KeyError: 'age' - the column does not exist in the DataFrame"),
         ("KeyError: parameter not found in best_params_",
          "KeyError: 'C' - the key does not exist in the best_params_ dictionary"),
         False),
    Pair("perfect score: target vs duplicates",
         ("Accuracy 1.0: the target is among the features",
          "The outcome column was left in X, so the model reads the answer."),
         ("Accuracy 1.0: duplicate rows across train and test",
          "The same rows appear in the train and test sets, so the model memorises them."),
         False),
    Pair("t-test: skewed vs paired",
         ("t-test on skewed data",
          "ttest_ind on strongly right-skewed income data."),
         ("t-test on paired data",
          "ttest_ind on paired before/after measurements of the same patients."),
         False),
    Pair("seed the split vs seed the model",
         ("Unseeded train_test_split",
          "train_test_split was called without random_state."),
         ("Unseeded RandomForestClassifier",
          "RandomForestClassifier was created without random_state."),
         False),
    Pair("dropna vs inner merge",
         ("dropna removed 40% of the rows",
          "df.dropna() silently dropped 400 of 1000 rows."),
         ("Inner merge removed 40% of the rows",
          "pd.merge(how='inner') silently dropped 400 of 1000 rows."),
         False),
    Pair("before vs after the split",
         ("Feature selection before the split",
          "SelectKBest was fit on all rows before train_test_split."),
         ("Feature selection on the test split",
          "SelectKBest was fit on the test rows after train_test_split."),
         False),
    Pair("Pearson vs Spearman on codes",
         ("Pearson correlation on categorical codes",
          "pearsonr on integer codes of a nominal variable."),
         ("Spearman correlation on categorical codes",
          "spearmanr on integer codes of a nominal variable."),
         False),
    Pair("NameError: never created vs not imported",
         ("NameError: a variable used before it exists",
          "The cell used df_clean, which no earlier cell created."),
         ("NameError: a module used before it is imported",
          "The cell used np without importing numpy."),
         False),
]


def lesson(title: str, wrong: str, *, category: Category = Category.MISTAKE,
           scope: Scope | None = None, columns: tuple[str, ...] = ()) -> Lesson:
    scope = scope or Scope(rule_ids=["family.rule"], columns=list(columns))
    return Lesson(title, category, wrong, scope=scope)


def pair_lessons(pair: Pair) -> tuple[Lesson, Lesson]:
    return (lesson(*pair.a, columns=pair.columns), lesson(*pair.b, columns=pair.columns))


def test_labeled_set_size_and_balance() -> None:
    positives = sum(p.duplicate for p in PAIRS)
    assert len(PAIRS) >= 15
    assert positives >= 8 and len(PAIRS) - positives >= 8


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_labeled_pair(pair: Pair) -> None:
    a, b = pair_lessons(pair)
    score = similarity(a, b)
    assert 0.0 <= score <= 1.0
    assert score == pytest.approx(similarity(b, a))  # symmetric
    assert is_duplicate(a, b) is pair.duplicate, f"{pair.name}: similarity {score:.3f}"


def test_precision_and_recall_on_the_labeled_set() -> None:
    """The figures the threshold is reported with; both 1.0 on this set, and a margin on
    either side of the threshold so it is not balanced on one pair."""
    scores = [(similarity(*pair_lessons(p)), p.duplicate) for p in PAIRS]
    tp = sum(s >= THRESHOLD and d for s, d in scores)
    fp = sum(s >= THRESHOLD and not d for s, d in scores)
    fn = sum(s < THRESHOLD and d for s, d in scores)
    assert tp / (tp + fp) == 1.0 and tp / (tp + fn) == 1.0
    lowest_duplicate = min(s for s, d in scores if d)
    highest_other = max(s for s, d in scores if not d)
    assert lowest_duplicate - THRESHOLD >= 0.01 and THRESHOLD - highest_other >= 0.01


def test_identical_lessons_score_one() -> None:
    a = lesson("Scaler fit before split", "StandardScaler fit on all rows.")
    assert similarity(a, a) == 1.0


def test_normalise_numbers_quotes_columns_stems_and_stop_words() -> None:
    assert normalise("Dropped 38.5% of 1,000 rows in 'income'") == "drop n n row q"
    assert normalise("fitted before splitting the columns") == "fit before split column"
    assert normalise("pearsonr on region", frozenset({"region"})) == "pearsonr q"
    assert normalise("X_train_scaled") == "x train scal"
    # words ending in -ss/-us/-is keep their s
    assert normalise("class status analysis") == "class status analysis"


def test_same_scope() -> None:
    base = Scope(rule_ids=["leakage.fit_saw_heldout_rows"], libraries=["sklearn"])
    a = lesson("t", "w", scope=base)
    # other libraries and columns do not make another scope
    b = lesson("t", "w", scope=Scope(rule_ids=["leakage.fit_saw_heldout_rows"],
                                     libraries=["pandas"], columns=["age"]))
    assert same_scope(a, b)
    c = lesson("t", "w", scope=Scope(rule_ids=["leakage.target_aggregate_as_feature"]))
    assert not same_scope(a, c)
    d = lesson("t", "w", scope=Scope(rule_ids=["leakage.fit_saw_heldout_rows"],
                                     error_types=["ValueError"]))
    assert not same_scope(a, d)
    # no rule, no error type: the libraries are the scope
    e = lesson("t", "w", scope=Scope(libraries=["pandas"]))
    f = lesson("t", "w", scope=Scope(libraries=["pandas"], tags=["io"]))
    g = lesson("t", "w", scope=Scope(libraries=["polars"]))
    assert same_scope(e, f)
    assert not same_scope(e, g)


def test_is_duplicate_needs_category_and_scope() -> None:
    a = lesson("Scaler fit before split", "StandardScaler fit on all rows.")
    assert is_duplicate(a, lesson("Scaler fit before split", "StandardScaler fit on all rows."))
    assert not is_duplicate(a, lesson("Scaler fit before split",
                                      "StandardScaler fit on all rows.", category=Category.FIX))
    assert not is_duplicate(a, lesson("Scaler fit before split",
                                      "StandardScaler fit on all rows.",
                                      scope=Scope(rule_ids=["other.rule"])))


def test_what_fixed_it_does_not_count() -> None:
    a = lesson("Scaler fit before split", "StandardScaler fit on all rows.")
    b = lesson("Scaler fit before split", "StandardScaler fit on all rows.")
    b.what_fixed_it = "+ pipeline = make_pipeline(StandardScaler(), LogisticRegression())"
    assert similarity(a, b) == 1.0
