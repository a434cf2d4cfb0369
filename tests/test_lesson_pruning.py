"""Pruning the lessons store back to its per-category limit: the heuristic, a pruner that
fails or answers badly, and the Claude pruner through the real SDK against a local Messages
API server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anthropic
import pytest

from app.settings import Settings
from services.anthropic_client import make_async_client
from services.learning import Learning
from services.lesson_pruning import (
    TOOL_NAME,
    ClaudeLessonPruner,
    LessonPruner,
    oldest_least_encountered,
    prune,
)
from services.lessons import Category, Lesson, LessonStore, Scope
from tests.conftest import make_settings
from tests.messages_api_server import MessagesAPIServer

T0 = 1_700_000_000.0
MODEL = "claude-test-pruner"

# distinct mistakes (each its own rule id, so none merges with another)
TOPICS = ["scaler fit before split", "target among the features", "selection on the test set",
          "uncorrected t-tests", "pearson on codes", "unseeded split"]


def lesson(title: str, *, times: int = 1, last_seen: float = T0, severity: str = "medium",
           created_at: float | None = None, lesson_id: str = "",
           category: Category = Category.MISTAKE) -> Lesson:
    return Lesson(title, category, f"{title}: what went wrong.", severity=severity,
                  scope=Scope(rule_ids=[f"rule.{title.replace(' ', '_')}"]), id=lesson_id,
                  times_encountered=times, created_at=created_at or last_seen,
                  last_seen=last_seen, source={"notebook_id": "nb"})  # learned from a run


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LessonStore]:
    """Five mistakes (limit 3: two too many) and one tip."""
    with LessonStore(tmp_path / "lessons.sqlite", max_per_category=3,
                     clock=lambda: T0 + 1000) as s:
        s.import_lessons([
            lesson(TOPICS[0], times=5, last_seen=T0 + 50, lesson_id="m0"),
            lesson(TOPICS[1], times=1, last_seen=T0 + 40, lesson_id="m1"),
            lesson(TOPICS[2], times=1, last_seen=T0 + 10, lesson_id="m2"),  # heuristic: 1st
            lesson(TOPICS[3], times=2, last_seen=T0 + 5, lesson_id="m3"),
            lesson(TOPICS[4], times=1, last_seen=T0 + 20, lesson_id="m4"),  # heuristic: 2nd
            lesson("use dtype", lesson_id="t0", category=Category.TIP),
        ])
        yield s


def remaining(store: LessonStore, category: Category = Category.MISTAKE) -> list[str]:
    return sorted(x.id for x in store.all_lessons(category))


# -- the heuristic -----------------------------------------------------------------------------


def test_heuristic_order_and_each_tie_breaker() -> None:
    lessons = [
        lesson("a", times=3, last_seen=T0, lesson_id="often"),
        lesson("b", times=1, last_seen=T0 + 30, severity="low", lesson_id="recent"),
        lesson("c", times=1, last_seen=T0 + 10, severity="critical", lesson_id="old_severe"),
        lesson("d", times=1, last_seen=T0 + 10, severity="info", lesson_id="old_mild"),
    ]
    # critical last; then the lower severity first; then fewest times, oldest last seen
    assert oldest_least_encountered(lessons, 4) == ["old_mild", "recent", "often", "old_severe"]
    assert oldest_least_encountered(lessons, 1) == ["old_mild"]
    same = [lesson("e", times=1, last_seen=T0 + 10, lesson_id="once_old"),
            lesson("f", times=1, last_seen=T0 + 20, lesson_id="once_new"),
            lesson("g", times=4, last_seen=T0, lesson_id="often")]
    assert oldest_least_encountered(same, 3) == ["once_old", "once_new", "often"]
    assert oldest_least_encountered(lessons, 0) == []
    assert oldest_least_encountered(lessons, -2) == []


async def test_prune_with_the_heuristic(store: LessonStore) -> None:
    [report] = await prune(store)
    assert (report.category, report.by, report.note) == ("mistake", "heuristic", "")
    assert report.removed == ["m2", "m4"]
    assert remaining(store) == ["m0", "m1", "m3"]
    assert remaining(store, Category.TIP) == ["t0"]  # under its limit: untouched
    assert await prune(store) == []  # nothing over the limit any more


# -- a pruner that answers well or badly -------------------------------------------------------


class ListPruner:
    """A real LessonPruner that answers what it was given (or raises it)."""

    def __init__(self, answer: list[str] | BaseException) -> None:
        self.answer = answer
        self.calls: list[tuple[Category, list[str], int]] = []

    async def choose(self, category: Category, lessons: list[Lesson], remove: int) -> list[str]:
        self.calls.append((category, [x.id for x in lessons], remove))
        if isinstance(self.answer, BaseException):
            raise self.answer
        return list(self.answer)


async def test_prune_by_the_pruner(store: LessonStore) -> None:
    pruner = ListPruner(["m0", "m1"])
    assert isinstance(pruner, LessonPruner)
    [report] = await prune(store, pruner=pruner)
    assert pruner.calls == [(Category.MISTAKE, ["m0", "m1", "m4", "m2", "m3"], 2)]
    assert (report.removed, report.by, report.note) == (["m0", "m1"], "model", "")
    assert remaining(store) == ["m2", "m3", "m4"]


async def test_pruner_unknown_and_too_few_ids_are_completed(store: LessonStore) -> None:
    [report] = await prune(store, pruner=ListPruner(["nope", "m0", "m0"]))
    assert report.removed == ["m0", "m2"]  # its one usable id, then the heuristic's first
    assert report.by == "model"
    assert "1 unknown id(s) ('nope')" in report.note
    assert "1 usable of 2" in report.note and "1 chosen by oldest and least" in report.note
    assert remaining(store) == ["m1", "m3", "m4"]


async def test_pruner_with_no_usable_id_falls_back(store: LessonStore) -> None:
    [report] = await prune(store, pruner=ListPruner(["x", "y"]))
    assert (report.removed, report.by) == (["m2", "m4"], "heuristic")
    assert "2 unknown id(s)" in report.note


async def test_pruner_never_removes_more_than_the_excess(store: LessonStore) -> None:
    [report] = await prune(store, pruner=ListPruner(["m3", "m1", "m0", "m4"]))
    assert (report.removed, report.by) == (["m3", "m1"], "model")
    assert "2 id(s) beyond the 2 asked for" in report.note
    assert remaining(store) == ["m0", "m2", "m4"]


async def test_pruner_failure_falls_back_with_a_note(store: LessonStore) -> None:
    [report] = await prune(store, pruner=ListPruner(RuntimeError("model down")))
    assert (report.removed, report.by) == (["m2", "m4"], "heuristic")
    assert "RuntimeError: model down" in report.note


# -- Claude ------------------------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as srv:
        yield srv


@pytest.fixture
async def client(server: MessagesAPIServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    async with make_async_client(api_key="test-key", base_url=server.url, timeout=5.0,
                                 max_retries=1, max_retry_wait=1.0) as c:
        yield c


@pytest.fixture
def claude(client: anthropic.AsyncAnthropic) -> ClaudeLessonPruner:
    return ClaudeLessonPruner(client, model=MODEL)


async def test_claude_pruner_good_reply(store: LessonStore, server: MessagesAPIServer,
                                        claude: ClaudeLessonPruner) -> None:
    server.reply_tool(TOOL_NAME, {"ids": ["m1", "m3"], "reason": "Narrow ones."})
    [report] = await prune(store, pruner=claude)
    assert (report.removed, report.by, report.note) == (["m1", "m3"], "model", "")
    assert remaining(store) == ["m0", "m2", "m4"]
    assert claude.last_reason == "Narrow ones."

    [request] = server.requests
    body = request.body
    assert body["model"] == MODEL
    assert body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    assert [t["name"] for t in body["tools"]] == [TOOL_NAME]
    assert body["temperature"] == 0.0  # sent through extra_body
    text = request.user_text
    assert "Category: mistake" in text and "remove exactly 2" in text
    for lesson_id, topic in zip(["m0", "m1", "m2", "m3", "m4"], TOPICS, strict=False):
        assert f'<lesson id="{lesson_id}"' in text
        assert f"title: {topic}" in text
    assert 'times_seen="5"' in text
    assert "use dtype" not in text  # only the category being pruned


async def test_claude_pruner_unknown_ids(store: LessonStore, server: MessagesAPIServer,
                                         claude: ClaudeLessonPruner) -> None:
    server.reply_tool(TOOL_NAME, {"ids": ["m9", "m0"]})
    [report] = await prune(store, pruner=claude)
    assert (report.removed, report.by) == (["m0", "m2"], "model")
    assert "'m9'" in report.note and "heuristic" not in report.note
    assert "chosen by oldest and least encountered" in report.note


async def test_claude_pruner_server_error_falls_back(store: LessonStore,
                                                     server: MessagesAPIServer,
                                                     claude: ClaudeLessonPruner) -> None:
    server.reply_errors(500, 2, retry_after="0.01")  # the first try and the SDK's one retry
    [report] = await prune(store, pruner=claude)
    assert (report.removed, report.by) == (["m2", "m4"], "heuristic")
    assert "LessonPrunerError" in report.note and "API error 500" in report.note
    assert len(server.requests) == 2 and server.pending == 0
    assert remaining(store) == ["m0", "m1", "m3"]


async def test_claude_pruner_rate_limit_then_answer(store: LessonStore,
                                                    server: MessagesAPIServer,
                                                    claude: ClaudeLessonPruner) -> None:
    server.reply_error(429, retry_after="0.01")
    server.reply_tool(TOOL_NAME, {"ids": ["m0", "m3"]})
    [report] = await prune(store, pruner=claude)
    assert (report.removed, report.by) == (["m0", "m3"], "model")
    assert len(server.requests) == 2


async def test_claude_pruner_reply_without_tool_call(store: LessonStore,
                                                     server: MessagesAPIServer,
                                                     claude: ClaudeLessonPruner) -> None:
    server.reply_text("I would rather keep them all.")
    [report] = await prune(store, pruner=claude)
    assert report.by == "heuristic"
    assert f"no {TOOL_NAME} tool call" in report.note


async def test_claude_pruner_bad_tool_input(store: LessonStore, server: MessagesAPIServer,
                                            claude: ClaudeLessonPruner) -> None:
    server.reply_tool(TOOL_NAME, {"ids": "m0, m1"})
    [report] = await prune(store, pruner=claude)
    assert report.by == "heuristic" and "'ids' is not a list of strings" in report.note


def test_claude_pruner_without_temperature(client: anthropic.AsyncAnthropic) -> None:
    pruner = ClaudeLessonPruner(client, model=MODEL, temperature=None, max_tokens=200)
    request = pruner.request(Category.TIP, [lesson("x", category=Category.TIP,
                                                   lesson_id="t1")], 1)
    assert "extra_body" not in request and request["max_tokens"] == 200


# -- the service's choice of pruner --------------------------------------------------------


async def _learn_a_third_tip(settings: Settings) -> tuple[Learning, dict[str, object]]:
    """Two stored tips (limit 2; the heuristic would drop `t_rare`) and a new one learned."""
    learning = settings.build_learning()
    learning.lessons.import_lessons([
        Lesson("rare tip", Category.TIP, "seen once", scope=Scope(libraries=["a"]),
               id="t_rare", created_at=T0, last_seen=T0),
        Lesson("common tip", Category.TIP, "seen often", scope=Scope(libraries=["b"]),
               id="t_common", times_encountered=9, created_at=T0, last_seen=T0)])
    learned = await learning.record([{"title": "new tip", "category": "tip",
                                      "what_went_wrong": "just learned",
                                      "scope": {"libraries": ["c"]}}])
    (report,) = learned.pruned
    return learning, report


async def test_with_an_api_key_the_service_prunes_by_claude(tmp_path: Path,
                                                            server: MessagesAPIServer) -> None:
    settings = make_settings(tmp_path, anthropic_api_key="test-key",
                             anthropic_base_url=server.url, lessons_max_per_category=2,
                             llm_max_retries=0)
    server.reply_tool(TOOL_NAME, {"ids": ["t_common"], "reason": "Too general to help."})
    learning, report = await _learn_a_third_tip(settings)
    try:
        assert isinstance(learning.pruner, ClaudeLessonPruner)
        assert (report["removed"], report["by"]) == (["t_common"], "model")
        assert len(server.requests) == 1 and "new tip" not in server.requests[0].user_text
        assert sorted(x.title for x in learning.lessons.all_lessons()) == ["new tip",
                                                                          "rare tip"]
    finally:
        learning.close()


async def test_without_an_api_key_the_service_prunes_by_the_heuristic(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, anthropic_api_key=None, lessons_max_per_category=2)
    learning, report = await _learn_a_third_tip(settings)
    try:
        assert learning.pruner is None
        assert (report["removed"], report["by"]) == (["t_rare"], "heuristic")
    finally:
        learning.close()
