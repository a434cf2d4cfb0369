"""The lessons store on real SQLite files: dedup, relevance, editing, persistence, validation,
export/import as JSON and Markdown, and the lesson drafts a cell's attempts make."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from services.attempt_lessons import drafts_from_attempts
from services.lesson_export import (
    from_json,
    from_markdown,
    to_json,
    to_markdown,
)
from services.lessons import (
    PROMPT_LINE_MAX_CHARS,
    Category,
    Lesson,
    LessonError,
    LessonNotFound,
    LessonQuery,
    LessonStore,
    Scope,
)

T0 = 1_714_564_800.25  # 2024-05-01T12:00:00.25Z

LEAKAGE = "leakage.fit_saw_heldout_rows"


class Clock:
    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[LessonStore]:
    with LessonStore(tmp_path / "lessons.sqlite", max_per_category=3, clock=clock) as s:
        yield s


def scaler_lesson(**overrides: Any) -> Lesson:
    values: dict[str, Any] = {
        "title": "StandardScaler fit before train_test_split",
        "category": Category.FIX,
        "what_went_wrong": "The StandardScaler was fit on all rows before the train/test "
                           "split, so test statistics leaked into training.",
        "what_fixed_it": "Fit the scaler inside a Pipeline on the training split.",
        "severity": "high",
        "scope": Scope(rule_ids=[LEAKAGE], libraries=["sklearn"], columns=["age"]),
        "source": {"notebook_id": "nb1", "cell_id": "c1"},
    }
    values.update(overrides)
    return Lesson(**values)


def paraphrase(**overrides: Any) -> Lesson:
    values: dict[str, Any] = {
        "title": "Scaler fitted before the train/test split",
        "what_went_wrong": "StandardScaler fitted on all the rows before splitting into train "
                           "and test, so the test statistics leaked into the training data.",
        "what_fixed_it": "",
        "severity": "medium",
        "scope": Scope(rule_ids=[LEAKAGE], libraries=["pandas"], columns=["bmi"]),
        "source": {"notebook_id": "nb2"},
    }
    values.update(overrides)
    return scaler_lesson(**values)


def simple(title: str, *, category: Category = Category.MISTAKE, severity: str = "medium",
           wrong: str | None = None, id: str = "", **scope: list[str]) -> Lesson:
    return Lesson(title, category, wrong or f"{title}: what went wrong.", severity=severity,
                  scope=Scope(**scope), id=id)


# -- record and dedup --------------------------------------------------------------------------


def test_record_assigns_id_and_times(store: LessonStore, clock: Clock) -> None:
    lesson = scaler_lesson()
    recorded = store.record(lesson)
    assert recorded.created
    stored = recorded.lesson
    assert len(stored.id) == 8 and int(stored.id, 16) >= 0
    assert stored.created_at == stored.last_seen == T0
    assert stored.times_encountered == 1
    assert lesson.id == "" and lesson.created_at == 0.0  # the caller's object is untouched
    assert store.get(stored.id) == stored


def test_duplicate_merges(store: LessonStore, clock: Clock) -> None:
    first = store.record(scaler_lesson()).lesson
    clock.advance(60)
    second = store.record(paraphrase())
    assert not second.created
    merged = second.lesson
    assert merged.id == first.id
    assert merged.times_encountered == 2
    assert merged.created_at == T0 and merged.last_seen == T0 + 60
    assert merged.severity == "high"  # the higher severity stays
    assert merged.what_fixed_it == first.what_fixed_it  # an empty fix does not erase one
    assert merged.title == first.title  # the wording stays
    assert merged.scope.libraries == ["pandas", "sklearn"]
    assert merged.scope.columns == ["age", "bmi"]
    assert merged.source == {"notebook_id": "nb1", "cell_id": "c1"}
    assert store.counts()["fix"] == 1
    assert store.get(first.id) == merged

    clock.advance(60)
    third = store.record(paraphrase(what_fixed_it="Use make_pipeline(StandardScaler(), model).",
                                    severity="critical"))
    assert not third.created
    assert third.lesson.times_encountered == 3
    assert third.lesson.severity == "critical"
    assert third.lesson.what_fixed_it == "Use make_pipeline(StandardScaler(), model)."


def test_an_unverified_fix_never_overwrites_a_verified_one(store: LessonStore,
                                                           clock: Clock) -> None:
    verified = store.record(scaler_lesson(what_fixed_it="fit the scaler on X_train only",
                                          source={"verified": True})).lesson
    clock.advance(60)
    merged = store.record(scaler_lesson(what_fixed_it="drop the scaler")).lesson
    assert merged.id == verified.id and merged.times_encountered == 2
    assert merged.what_fixed_it == "fit the scaler on X_train only"
    clock.advance(60)
    newer = store.record(scaler_lesson(what_fixed_it="use a Pipeline",
                                       source={"verified": True})).lesson
    assert newer.what_fixed_it == "use a Pipeline" and newer.source["verified"] is True


def test_different_scope_does_not_merge(store: LessonStore) -> None:
    store.record(scaler_lesson())
    other_rule = store.record(scaler_lesson(
        scope=Scope(rule_ids=["leakage.target_aggregate_as_feature"])))
    other_error = store.record(scaler_lesson(
        scope=Scope(rule_ids=[LEAKAGE], error_types=["ValueError"])))
    assert other_rule.created and other_error.created
    assert store.counts()["fix"] == 3


def test_different_category_does_not_merge(store: LessonStore) -> None:
    store.record(scaler_lesson())
    assert store.record(scaler_lesson(category=Category.MISTAKE)).created
    assert store.counts() == {"mistake": 1, "fix": 1, "pattern": 0, "tip": 0}


def test_look_alike_in_same_scope_does_not_merge(store: LessonStore) -> None:
    store.record(scaler_lesson())
    pca = store.record(scaler_lesson(
        title="PCA fit before train_test_split",
        what_went_wrong="PCA was fit on all rows before the train/test split, so the "
                        "components saw the test rows."))
    assert pca.created
    assert store.counts()["fix"] == 2


def test_merge_picks_the_most_similar_candidate(store: LessonStore, clock: Clock) -> None:
    exact = store.record(scaler_lesson()).lesson
    clock.advance(1)
    store.update(store.record(scaler_lesson(
        title="PCA fit before train_test_split",
        what_went_wrong="PCA was fit on all rows before the train/test split.")).lesson.id,
        {"times_encountered": 5})
    clock.advance(1)
    merged = store.record(scaler_lesson()).lesson
    assert merged.id == exact.id and merged.times_encountered == 2


# -- get, list, search, update, delete ---------------------------------------------------------


def test_get_and_delete(store: LessonStore) -> None:
    lesson = store.record(scaler_lesson()).lesson
    store.delete(lesson.id)
    with pytest.raises(LessonNotFound) as info:
        store.get(lesson.id)
    assert lesson.id in str(info.value)
    with pytest.raises(LessonNotFound):
        store.delete(lesson.id)


def test_concurrent_records_merge_into_one(store: LessonStore) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: store.record(scaler_lesson()), range(16)))
    assert sum(r.created for r in results) == 1
    [lesson] = store.all_lessons()
    assert lesson.times_encountered == 16


def test_remove_counts_only_existing(store: LessonStore) -> None:
    ids = [store.record(simple(f"lesson {name}", rule_ids=[f"r.{name}"])).lesson.id
           for name in "abc"]
    assert store.remove([ids[0], ids[1], "nope", ids[0]]) == 2
    assert [x.id for x in store.all_lessons()] == [ids[2]]
    assert store.remove([]) == 0


def test_list_order_filter_paging(store: LessonStore, clock: Clock) -> None:
    a = store.record(simple("alpha", rule_ids=["r.a"])).lesson
    clock.advance(10)
    b = store.record(simple("beta", category=Category.TIP, libraries=["pandas"])).lesson
    clock.advance(10)
    c = store.record(simple("gamma", rule_ids=["r.c"])).lesson
    clock.advance(10)
    store.record(simple("alpha", rule_ids=["r.a"]))  # seen again: newest now
    assert [x.title for x in store.list()] == ["alpha", "gamma", "beta"]
    assert [x.id for x in store.list(category=Category.MISTAKE)] == [a.id, c.id]
    assert [x.id for x in store.list(limit=1, offset=1)] == [c.id]
    assert store.list(offset=5) == []
    assert [x.id for x in store.list(category=Category.TIP)] == [b.id]


def test_list_text_search(store: LessonStore) -> None:
    lesson = store.record(scaler_lesson()).lesson
    store.record(simple("Unrelated", wrong="Something else entirely.", rule_ids=["r.x"]))
    for needle in ("standardscaler", "TEST STATISTICS", "pipeline", "sklearn", "AGE", LEAKAGE):
        assert [x.id for x in store.list(text=needle)] == [lesson.id], needle
    assert store.list(text="no such words") == []
    # text search combines with the category filter
    assert store.list(category=Category.MISTAKE, text="scaler") == []


def test_list_validates_arguments(store: LessonStore) -> None:
    with pytest.raises(LessonError, match=r"^limit: "):
        store.list(limit=-1)
    with pytest.raises(LessonError, match=r"^offset: "):
        store.list(offset="2")  # type: ignore[arg-type]
    with pytest.raises(LessonError, match=r"^category: "):
        store.list(category="nonsense")  # type: ignore[arg-type]


def test_update(store: LessonStore, tmp_path: Path, clock: Clock) -> None:
    lesson = store.record(scaler_lesson()).lesson
    updated = store.update(lesson.id, {"title": "  Fit scalers after the split ",
                                       "severity": "CRITICAL",
                                       "scope": {"tags": ["Preprocessing"]}})
    assert updated.title == "Fit scalers after the split"
    assert updated.severity == "critical"
    # a scope change replaces the fields it names and keeps the others
    assert updated.scope.tags == ["preprocessing"]
    assert updated.scope.rule_ids == [LEAKAGE] and updated.scope.columns == ["age"]
    assert updated.created_at == lesson.created_at
    assert store.get(lesson.id) == updated


@pytest.mark.parametrize(("changes", "message"), [
    ({"id": "abc"}, r"^id: not editable"),
    ({"created_at": 5.0}, r"^created_at: not editable"),
    ({"colour": "red"}, r"^colour: unknown field"),
    ({"severity": "urgent"}, r"^severity: must be one of info, low, medium, high, critical"),
    ({"category": "rule"}, r"^category: must be one of mistake, fix, pattern, tip"),
    ({"title": "   "}, r"^title: must not be empty"),
    ({"times_encountered": 0}, r"^times_encountered: must be an integer from 1 to"),
    ({"times_encountered": 2**63}, r"^times_encountered: must be an integer from 1 to"),
    ({"scope": {"rule_ids": ["ok", 3]}}, r"^scope\.rule_ids\[1\]: must be a string"),
    ({"scope": {"owners": []}}, r"^scope\.owners: unknown field"),
    ({"scope": ["x"]}, r"^scope: must be an object"),
    ({"last_seen": 5.0}, r"^last_seen: must not be before created_at"),
])
def test_update_rejects_bad_changes(store: LessonStore, changes: dict[str, Any],
                                    message: str) -> None:
    lesson = store.record(scaler_lesson()).lesson
    with pytest.raises(LessonError, match=message):
        store.update(lesson.id, changes)
    assert store.get(lesson.id) == lesson  # nothing lost, nothing half-written


def test_update_missing_lesson(store: LessonStore) -> None:
    with pytest.raises(LessonNotFound):
        store.update("deadbeef", {"title": "x"})


def test_persists_across_close_and_reopen(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "sub" / "lessons.sqlite"
    store = LessonStore(path, clock=clock)
    first = store.record(scaler_lesson()).lesson
    clock.advance(5)
    second = store.record(simple("tip", category=Category.TIP, libraries=["pandas"])).lesson
    store.update(first.id, {"times_encountered": 4})
    store.close()
    reopened = LessonStore(path, clock=clock)
    try:
        assert reopened.get(first.id).times_encountered == 4
        assert reopened.get(second.id) == second
        assert reopened.counts() == {"mistake": 0, "fix": 1, "pattern": 0, "tip": 1}
        # dedup still works against what was stored before
        assert not reopened.record(paraphrase()).created
    finally:
        reopened.close()


# -- relevance ---------------------------------------------------------------------------------


def test_relevant_by_evidence_with_a_floor(store: LessonStore) -> None:
    exact = store.record(simple("exact rule", rule_ids=[LEAKAGE])).lesson
    family = store.record(simple("family rule", rule_ids=["leakage.copies_across_split"])).lesson
    error = store.record(simple("error type", error_types=["ValueError"])).lesson
    both = store.record(simple("rule and error", rule_ids=[LEAKAGE],
                               error_types=["ValueError"])).lesson
    library = store.record(simple("library only", libraries=["sklearn"])).lesson
    library_column = store.record(simple("library and column", libraries=["sklearn"],
                                         columns=["age"])).lesson
    store.record(simple("unrelated", rule_ids=["data_loss.silent_dropna"],
                        libraries=["polars"]))
    query = LessonQuery(rule_ids=[LEAKAGE], error_types=["sklearn.exceptions.ValueError"],
                        libraries=["scikit-learn"], columns=["age"])
    got = store.relevant(query, limit=10, max_chars=10_000)
    # a library and a column in common are below the floor: no evidence the lesson applies
    assert [x.id for x in got] == [both.id, exact.id, error.id, family.id]
    assert library.id not in {x.id for x in got} and library_column.id not in {
        x.id for x in got}
    everything = store.relevant(query, limit=10, max_chars=10_000, min_relevance=0)
    assert [x.id for x in everything][4:] == [library_column.id, library.id]


def test_relevant_family_match_is_weaker_than_exact(store: LessonStore) -> None:
    family = store.record(simple("family", severity="critical",
                                 rule_ids=["leakage.copies_across_split"])).lesson
    exact = store.record(simple("exact", severity="low", rule_ids=[LEAKAGE])).lesson
    got = store.relevant(LessonQuery(rule_ids=[LEAKAGE]))
    assert [x.id for x in got] == [exact.id, family.id]
    # a rule of another family, or an id without a family, does not match at all
    assert store.relevant(LessonQuery(rule_ids=["data_loss.silent_dropna", "leakage"])) == []


def test_relevant_tie_breakers(store: LessonStore, clock: Clock) -> None:
    """Same match strength: severity first, then times encountered, then recency."""
    rule = {"rule_ids": [LEAKAGE]}
    severe = store.record(simple("severe but rare and old", severity="high", **rule)).lesson
    clock.advance(10)
    old_frequent = store.record(simple("old frequent", **rule)).lesson
    store.update(old_frequent.id, {"times_encountered": 3})
    clock.advance(10)
    new_rare = store.record(simple("new rare", **rule)).lesson
    clock.advance(10)
    newest_rare = store.record(simple("newest rare", **rule)).lesson
    got = store.relevant(LessonQuery(rule_ids=[LEAKAGE]), limit=10, max_chars=10_000)
    assert [x.id for x in got] == [severe.id, old_frequent.id, newest_rare.id, new_rare.id]


def test_relevant_limit_and_char_budget(store: LessonStore, clock: Clock) -> None:
    lessons = []
    for name, severity in [("alpha", "critical"), ("beta", "high"), ("gamma", "medium"),
                           ("delta", "low")]:
        lessons.append(store.record(simple(f"lesson {name}", severity=severity,
                                           rule_ids=[LEAKAGE])).lesson)
    lines = [x.prompt_line() for x in lessons]
    query = LessonQuery(rule_ids=[LEAKAGE])
    assert [x.id for x in store.relevant(query, limit=2)] == [lessons[0].id, lessons[1].id]
    budget = len(lines[0]) + len(lines[1])
    got = store.relevant(query, limit=10, max_chars=budget)
    assert [x.id for x in got] == [lessons[0].id, lessons[1].id]
    assert sum(len(x.prompt_line()) for x in got) <= budget
    assert store.relevant(query, max_chars=min(map(len, lines)) - 1) == []
    assert store.relevant(query, limit=0) == []


def test_relevant_skips_a_line_that_does_not_fit(store: LessonStore) -> None:
    long = store.record(simple("long", severity="critical", wrong="x " * 400,
                               rule_ids=[LEAKAGE])).lesson
    short = store.record(simple("short", rule_ids=[LEAKAGE])).lesson
    budget = len(short.prompt_line()) + 10
    assert len(long.prompt_line()) > budget
    assert [x.id for x in store.relevant(LessonQuery(rule_ids=[LEAKAGE]),
                                         max_chars=budget)] == [short.id]


def test_relevant_without_overlap_is_empty(store: LessonStore) -> None:
    store.record(simple("a", rule_ids=[LEAKAGE], libraries=["sklearn"]))
    assert store.relevant(LessonQuery()) == []
    assert store.relevant(LessonQuery(error_types=["KeyError"], libraries=["pandas"])) == []


# -- limits, counts ----------------------------------------------------------------------------


def test_counts_and_over_limit(store: LessonStore) -> None:
    for i in range(5):
        store.record(simple(f"mistake number {i}", wrong=f"distinct mistake {'x' * i}",
                            rule_ids=[f"r.{i}"]))
    store.record(simple("tip", category=Category.TIP, libraries=["pandas"]))
    assert store.counts() == {"mistake": 5, "fix": 0, "pattern": 0, "tip": 1}
    assert store.over_limit() == {Category.MISTAKE: 2}


def test_store_rejects_bad_limit(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match=r"^max_per_category: "):
        LessonStore(tmp_path / "x.sqlite", max_per_category=0)


# -- import ------------------------------------------------------------------------------------


def counts(**given: int) -> dict[str, int]:
    """What `import_lessons` returns: every outcome, 0 unless given."""
    return {"created": 0, "merged": 0, "updated": 0, "unchanged": 0, **given}


def test_import_keeps_counts_and_times(store: LessonStore) -> None:
    lesson = scaler_lesson(id="abc123", times_encountered=4, created_at=T0 - 100,
                           last_seen=T0 - 50)
    assert store.import_lessons([lesson]) == counts(created=1)
    stored = store.get("abc123")
    assert (stored.times_encountered, stored.created_at, stored.last_seen) == (4, T0 - 100,
                                                                              T0 - 50)
    # another lesson seen 3 times merges into it: the counts add up
    result = store.import_lessons([paraphrase(id="other1", times_encountered=3,
                                              created_at=T0 - 500, last_seen=T0 - 10)])
    assert result == counts(merged=1)
    merged = store.get("abc123")
    assert merged.times_encountered == 7
    assert (merged.created_at, merged.last_seen) == (T0 - 500, T0 - 10)


def test_import_same_lesson_again_does_not_double_count(store: LessonStore) -> None:
    lesson = scaler_lesson(id="abc123", times_encountered=4, created_at=T0 - 100,
                           last_seen=T0 - 50)
    store.import_lessons([lesson])
    assert store.import_lessons([lesson]) == counts(unchanged=1)
    assert store.get("abc123").times_encountered == 4


def test_import_without_times_uses_the_clock(store: LessonStore) -> None:
    store.import_lessons([simple("tip", category=Category.TIP, libraries=["pandas"])])
    [stored] = store.all_lessons()
    assert stored.created_at == stored.last_seen == T0
    # only a first sighting given: the last one is the same
    dated = simple("tip two", category=Category.TIP, libraries=["numpy"])
    dated.created_at = T0 - 30
    store.import_lessons([dated])
    [two] = store.list(text="tip two")
    assert two.created_at == two.last_seen == T0 - 30


def test_import_of_a_known_id_is_an_edit_of_that_lesson(store: LessonStore) -> None:
    existing = store.import_lessons([simple("first", id="same1", rule_ids=["r.a"])])
    assert existing == counts(created=1)
    edited = store.import_lessons([simple("second, rewritten", id="same1", rule_ids=["r.b"])])
    assert edited == counts(updated=1)
    (only,) = store.all_lessons()  # no second lesson beside the unedited one
    assert (only.id, only.title, only.scope.rule_ids) == ("same1", "second, rewritten",
                                                          ["r.b"])


def test_record_ignores_a_given_id(store: LessonStore) -> None:
    first = store.record(scaler_lesson()).lesson
    again = store.record(paraphrase(id=first.id))
    assert not again.created and again.lesson.times_encountered == 2


# -- the lesson itself -------------------------------------------------------------------------


@pytest.mark.parametrize(("data", "message"), [
    ({"title": "t", "category": "fix"}, r"^what_went_wrong: required"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "severity": 3},
     r"^severity: must be one of"),
    ({"title": "t", "category": "fixes", "what_went_wrong": "w"}, r"^category: must be one of"),
    ({"title": 5, "category": "fix", "what_went_wrong": "w"}, r"^title: must be a string"),
    ({"title": "x" * 301, "category": "fix", "what_went_wrong": "w"},
     r"^title: at most 300 characters"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "times_encountered": True},
     r"^times_encountered: must be an integer from 1 to"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "created_at": -1},
     r"^created_at: must be epoch seconds"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "last_seen": float("nan")},
     r"^last_seen: must be epoch seconds"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "id": "a b"}, r"^id: must be"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "source": {"x": {1, 2}}},
     r"^source: must be JSON-serialisable"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "source": []},
     r"^source: must be an object"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "scope": {"columns": "age"}},
     r"^scope\.columns: must be a list of strings"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "scope": {"tags": ["a\nb"]}},
     r"^scope\.tags\[0\]: must be one line"),
    ({"title": "t", "category": "fix", "what_went_wrong": "w", "extra": 1},
     r"^extra: unknown field"),
])
def test_from_dict_names_the_bad_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(LessonError, match=message):
        Lesson.from_dict(data)


def test_to_dict_from_dict_round_trip() -> None:
    lesson = scaler_lesson(id="a1", times_encountered=3, created_at=T0, last_seen=T0 + 1)
    data = lesson.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["category"] == "fix" and data["scope"]["rule_ids"] == [LEAKAGE]
    assert Lesson.from_dict(data) == lesson


def test_scope_normalisation() -> None:
    scope = Scope(rule_ids=[" b.rule ", "a.rule", "b.rule"],
                  error_types=["sklearn.exceptions.NotFittedError", "ValueError"],
                  libraries=["sklearn.preprocessing", "Scikit-Learn", "pandas", " "],
                  columns=["Age", "age"], tags=["Leakage", "leakage"])
    assert scope.to_dict() == {
        "rule_ids": ["a.rule", "b.rule"], "error_types": ["NotFittedError", "ValueError"],
        "libraries": ["pandas", "sklearn"], "columns": ["Age", "age"], "tags": ["leakage"]}
    assert LessonQuery(libraries=["scikit-learn"]).libraries == ["sklearn"]


def test_text_fields_are_trimmed_but_keep_indentation() -> None:
    lesson = Lesson("  A   title\nacross lines ", "tip", "\n\n  indented first line\r\nnext  \n\n")
    assert lesson.title == "A title across lines"
    assert lesson.what_went_wrong == "  indented first line\nnext"
    assert lesson.category is Category.TIP


def test_prompt_line_short() -> None:
    lesson = scaler_lesson(times_encountered=3)
    assert lesson.prompt_line() == (
        "[fix, high, seen 3x] StandardScaler fit before train_test_split: The StandardScaler "
        "was fit on all rows before the train/test split, so test statistics leaked into "
        "training. -> Fit the scaler inside a Pipeline on the training split.")


def test_prompt_line_trims_a_long_diff() -> None:
    diff = "\n".join(["@@ -1,40 +1,40 @@"]
                     + [f"-old_line_{i} = fit_everything(X)" for i in range(40)]
                     + [f"+new_line_{i} = make_pipeline(StandardScaler(), model)"
                        for i in range(40)])
    line = scaler_lesson(what_fixed_it=diff, what_went_wrong="w " * 300).prompt_line()
    assert len(line) <= PROMPT_LINE_MAX_CHARS
    assert "\n" not in line
    assert "new_line_0 = make_pipeline" in line  # the added lines show, not the removed ones
    assert "old_line_0" not in line
    assert line.endswith("…")
    assert line.count(" -> ") == 1


def test_prompt_line_of_an_explained_unified_diff() -> None:
    fixed = ("Split first, then scale inside a pipeline.\n"
             "--- failing attempt\n+++ fix\n@@ -1,2 +1,2 @@\n"
             "-X_s = StandardScaler().fit_transform(X)\n"
             "-X_train, X_test = train_test_split(X_s)\n"
             "+X_train, X_test = train_test_split(X)\n"
             " print(X_train.shape)\n"
             "… (diff trimmed)")
    line = scaler_lesson(what_went_wrong="Scaler fit early.", what_fixed_it=fixed).prompt_line()
    assert line.endswith("Scaler fit early. -> Split first, then scale inside a pipeline.; "
                         "X_train, X_test = train_test_split(X)")


def test_prompt_line_short_side_gives_room_to_the_long_one() -> None:
    line = scaler_lesson(what_went_wrong="Scaler fit early.",
                         what_fixed_it="step " * 200).prompt_line()
    assert len(line) <= PROMPT_LINE_MAX_CHARS
    assert "Scaler fit early. -> step step" in line
    assert len(line) > PROMPT_LINE_MAX_CHARS - 10
    no_fix = scaler_lesson(what_went_wrong="word " * 200, what_fixed_it="").prompt_line()
    assert len(no_fix) <= PROMPT_LINE_MAX_CHARS and " -> " not in no_fix


# -- export and import -------------------------------------------------------------------------

TRICKY_FIX = """\
@@ -1,3 +1,3 @@
-scaler = StandardScaler().fit(X)
+X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
+model = make_pipeline(StandardScaler(), LogisticRegression())
 print("```not a fence```")"""


def varied_lessons() -> list[Lesson]:
    return [
        scaler_lesson(what_fixed_it=TRICKY_FIX, times_encountered=5,
                      source={"notebook_id": "nb`1", "attempts": [1, 2], "note": "ü ∑"}),
        Lesson("Hash lines and markers in prose", Category.TIP,
               "first line\n# looks like a heading\n**What fixed it**\n\n```\nnot closed",
               "  indented approach\n\n~~~ and tildes", severity="info",
               scope=Scope(libraries=["pandas"], columns=["a`b", "``", "with, comma"],
                           tags=["io"])),
        Lesson("Plain mistake without fix or scope", Category.MISTAKE,
               "Two paragraphs.\n\nSecond one with *markdown* and a trailing hash #",
               severity="critical"),
        Lesson("Pattern with code", Category.PATTERN,
               "x = df.groupby('g')['v'].mean()\nprint(x)",
               "df.groupby('g', dropna=False)",
               scope=Scope(error_types=["KeyError"],
                           rule_ids=["data_loss.groupby_drops_nan_keys"])),
    ]


def fill(store: LessonStore, clock: Clock) -> list[Lesson]:
    for lesson in varied_lessons():
        clock.advance(0.123457)
        store.record(lesson)
    [first] = store.list(category=Category.FIX)
    store.update(first.id, {"times_encountered": 5})
    return sorted(store.all_lessons(), key=lambda x: x.id)


def fresh_store(tmp_path: Path, name: str, clock: Clock) -> LessonStore:
    return LessonStore(tmp_path / name, clock=Clock(clock.now + 1000))


def test_json_round_trip_into_a_fresh_store(store: LessonStore, clock: Clock,
                                            tmp_path: Path) -> None:
    original = fill(store, clock)
    document = to_json(store.all_lessons())
    assert document["format"] == "nbcritic-lessons" and document["version"] == 1
    text = json.dumps(document)
    with fresh_store(tmp_path, "json.sqlite", clock) as other:
        assert other.import_lessons(from_json(text)) == counts(created=4)
        assert sorted(other.all_lessons(), key=lambda x: x.id) == original


def test_markdown_round_trip_into_a_fresh_store(store: LessonStore, clock: Clock,
                                                tmp_path: Path) -> None:
    original = fill(store, clock)
    markdown = to_markdown(store.all_lessons())
    assert markdown.startswith("# Lessons learned\n")
    for section in ("## Mistakes", "## Fixes", "## Patterns", "## Tips"):
        assert section in markdown
    assert "```diff\n@@ -1,3 +1,3 @@" in markdown  # a diff is fenced as one
    assert "```python\nx = df.groupby" in markdown
    with fresh_store(tmp_path, "md.sqlite", clock) as other:
        assert other.import_lessons(from_markdown(markdown)) == counts(created=4)
        assert sorted(other.all_lessons(), key=lambda x: x.id) == original
    assert to_markdown(from_markdown(markdown)) == markdown


def test_markdown_round_trip_of_odd_timestamps() -> None:
    lesson = Lesson("t", "tip", "w", created_at=1_714_564_800.1234567,
                    last_seen=253_402_300_799.0, id="x")
    [back] = from_markdown(to_markdown([lesson]))
    assert back == lesson


def test_markdown_empty_and_only_placeholders() -> None:
    markdown = to_markdown([])
    assert markdown.count("_No lessons._") == 4
    assert from_markdown(markdown) == []


def test_hand_edited_markdown(store: LessonStore, clock: Clock) -> None:
    original = store.record(scaler_lesson()).lesson
    markdown = to_markdown([original])
    edited = markdown.replace(f"### {original.title}", "### Always split before scaling")
    edited = edited.replace("- **Severity:** high", "- **Severity:** Critical")
    [back] = from_markdown(edited)
    assert back.title == "Always split before scaling"
    assert back.severity == "critical"
    assert back.id == original.id and back.what_fixed_it == original.what_fixed_it


def test_hand_written_markdown_minimal() -> None:
    text = """# My lessons

Some notes of mine.

## Tips

### Read CSVs with an explicit dtype

- **Scope:**
  - libraries: pandas, numpy
  - columns: `zip code`

**What went wrong**

Zip codes lost their leading zeros.
"""
    [lesson] = from_markdown(text)
    assert lesson.category is Category.TIP
    assert lesson.scope.libraries == ["numpy", "pandas"]
    assert lesson.scope.columns == ["zip code"]
    assert (lesson.id, lesson.severity, lesson.times_encountered, lesson.created_at) == (
        "", "medium", 1, 0.0)
    assert lesson.what_fixed_it == ""


GOOD_LESSON = """## Fixes

### A title

- **Severity:** high
- **Times seen:** 2

**What went wrong**

It broke.
"""


@pytest.mark.parametrize(("text", "message"), [
    (GOOD_LESSON.replace("## Fixes", "## Bugs"), r"^line 1: unknown section 'Bugs'"),
    (GOOD_LESSON.replace("## Fixes\n", ""), r"^line 2: a lesson heading before any category"),
    (GOOD_LESSON.replace("high", "hgih"), r"^line 5: severity: must be one of"),
    (GOOD_LESSON.replace("**Times seen:** 2", "**Times seen:** two"),
     r"^line 6: times seen: must be a whole number"),
    (GOOD_LESSON.replace("**Times seen:** 2", "**Times seen:** 0"),
     r"^line 6: times_encountered: must be an integer from 1 to"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Colour:** red"),
     r"^line 6: unknown field 'colour'"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "just a sentence"),
     r"^line 6: expected a field line"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Last seen:** yesterday"),
     r"^line 6: last seen: not an ISO timestamp"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Source:** `[1]`"),
     r"^line 6: source: must be a JSON object"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Id:** `ab`, `cd`"),
     r"^line 6: expected one value, got 2"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Scope:**\n  - owners: `me`"),
     r"^line 7: scope: unknown entry 'owners'"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Scope:**\n  - columns: `a` `b`"),
     r"^line 7: expected ',' between values"),
    (GOOD_LESSON.replace("- **Times seen:** 2", "- **Scope:**\n  - columns: `a"),
     r"^line 7: unclosed code value"),
    (GOOD_LESSON.replace("It broke.", "```python\nx = 1"),
     r"^line 8: a fenced block after this line is never closed"),
    (GOOD_LESSON.replace("**What went wrong**\n\nIt broke.\n", ""),
     r"^line 3: lesson 'A title' has no \*\*What went wrong\*\* section"),
    (GOOD_LESSON.replace("It broke.", ""), r"^line 8: nothing after this line"),
    (GOOD_LESSON.replace("### A title", "###  "), r"^line 3: title: must not be empty"),
    ("## Tips\n\nstray text\n", r"^line 3: unexpected text outside a lesson"),
    ("hello, not a lessons file\n", r"^markdown: no category section"),
    ("", r"^markdown: no category section"),
    (GOOD_LESSON + "\n**What went wrong**\n\nagain\n",
     r"^line 12: \*\*What went wrong\*\* given twice"),
])
def test_malformed_markdown_names_the_line(text: str, message: str) -> None:
    with pytest.raises(LessonError, match=message):
        from_markdown(text)


def test_good_lesson_parses() -> None:
    [lesson] = from_markdown(GOOD_LESSON)
    assert (lesson.title, lesson.severity, lesson.times_encountered, lesson.what_went_wrong) == (
        "A title", "high", 2, "It broke.")


@pytest.mark.parametrize(("document", "message"), [
    ({"format": "other", "version": 1, "lessons": []}, r"^format: must be 'nbcritic-lessons'"),
    ({"format": "nbcritic-lessons", "version": 2, "lessons": []}, r"^version: unsupported"),
    ({"format": "nbcritic-lessons", "version": 1, "lessons": {}}, r"^lessons: must be a list"),
    ([], r"the document must be an object"),
    ("{not json", r"^json: not valid JSON"),
])
def test_from_json_rejects_bad_documents(document: Any, message: str) -> None:
    with pytest.raises(LessonError, match=message):
        from_json(document)


def test_from_json_names_the_lesson_and_field() -> None:
    good = scaler_lesson().to_dict()
    bad_severity = {**good, "severity": "extreme"}
    bad_scope = {**good, "scope": {"rule_ids": ["a", None]}}
    document = to_json([])
    document["lessons"] = [good, good, good, bad_severity]
    with pytest.raises(LessonError, match=r"^lessons\[3\]\.severity: must be one of"):
        from_json(document)
    document["lessons"] = [good, bad_scope]
    with pytest.raises(LessonError, match=r"^lessons\[1\]\.scope\.rule_ids\[1\]: must be a"):
        from_json(document)
    document["lessons"] = [good, "nope"]
    with pytest.raises(LessonError, match=r"^lessons\[1\]: a lesson must be an object"):
        from_json(document)


# -- drafts from a cell's attempts --------------------------------------------------------------


SCALER_FINDING = {"rule_id": LEAKAGE, "title": "Scaler fit before the split",
                  "explanation": "StandardScaler saw the test rows", "severity": "critical"}
NAMESPACE = {"objects": {"df": {"dtypes": {"age": "int64", "income": "float64"}}}}


def _attempt(n: int, code: str, status: str, **extra: Any) -> dict[str, Any]:
    return {"attempt": n, "code": code, "status": status, **extra}


def test_a_critique_fixed_by_a_retry_drafts_a_fix_lesson() -> None:
    failing = ("from sklearn.preprocessing import StandardScaler\n"
               "X = StandardScaler().fit_transform(df[['age']])")
    fixed = "from sklearn.pipeline import make_pipeline\nmodel = make_pipeline(StandardScaler())"
    attempts = [_attempt(1, failing, "scientific_validity_error", findings=[SCALER_FINDING]),
                _attempt(2, fixed, "ok", explanation="fit inside a Pipeline", cause="critique")]
    (draft,) = drafts_from_attempts(attempts, escalation=None, notebook_id="nb", cell_id="c1",
                                    execution_id="e1", prior_code="import pandas as pd",
                                    namespace=NAMESPACE)
    lesson = Lesson.from_dict(draft)
    assert (lesson.category, lesson.severity, lesson.title) == (
        Category.FIX, "critical", "Scaler fit before the split")
    assert lesson.scope.rule_ids == [LEAKAGE] and lesson.scope.error_types == []
    assert lesson.scope.libraries == ["pandas", "sklearn"] and lesson.scope.columns == ["age"]
    assert lesson.what_fixed_it.startswith("fit inside a Pipeline\n")
    assert "+model = make_pipeline(StandardScaler())" in lesson.what_fixed_it
    assert lesson.source == {"notebook_id": "nb", "cell_id": "c1", "execution_id": "e1",
                             "attempt": 1, "verified": True}


def test_the_same_failure_again_is_no_fix_and_an_escalation_is_a_mistake() -> None:
    error = {"ename": "KeyError", "evalue": "'agee'", "traceback": []}
    attempts = [_attempt(1, "df['agee']", "error", error=error),
                _attempt(2, "df['agee '] ", "error", error=error)]
    escalation = {"pattern": "stalled", "reason": "same error twice"}
    (draft,) = drafts_from_attempts(attempts, escalation=escalation, notebook_id="nb",
                                    cell_id="c1", execution_id="e1")
    lesson = Lesson.from_dict(draft)
    assert (lesson.category, lesson.severity) == (Category.MISTAKE, "high")
    assert lesson.scope.error_types == ["KeyError"]
    assert "stalled" in lesson.scope.tags and "escalated" in lesson.scope.tags
    assert "the retry loop gave up (stalled: same error twice)" in lesson.what_went_wrong
    assert drafts_from_attempts(attempts, escalation=None, notebook_id="nb", cell_id="c1",
                                execution_id="e1") == []
