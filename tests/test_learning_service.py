"""Learning across runs through NotebookService and real kernels: a fixed retry writes a
lesson, an escalation a mistake lesson, stored lessons reach the generator's prompt, cell
self-checks block and drive the retry loop, a prompt cell's plan is stored and its criteria
checked, and the automatic reflection after run-all (lessons, improvement requests, a
webhook sink on a local HTTP server; a clean run changes nothing)."""

from __future__ import annotations

import json
import textwrap
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from critics import AnalysisCritic
from services.cell_plan import Criterion, Plan
from services.cell_review import CellReviewer
from services.code_generator import GeneratorError, TokenUsage
from services.lessons import Category, Lesson, Scope
from services.notebook_service import ExecuteOptions, NotebookService
from services.scripted_generator import ScriptedGenerator
from services.scripted_planner import ScriptedPlanner
from services.self_checks import parse_checks

from .conftest import make_settings


async def _service(tmp_path: Path, generator: ScriptedGenerator | None = None,
                   planner: ScriptedPlanner | None = None, **overrides: Any
                   ) -> NotebookService:
    config = make_settings(tmp_path, **overrides)
    critic = AnalysisCritic(rules=[], load_plugins=False)  # self-checks only, no rules
    svc = NotebookService(config, reviewer=CellReviewer(config, critic=critic),
                          generator=generator, planner=planner)
    await svc.start()
    return svc


@pytest.fixture
def gen() -> ScriptedGenerator:
    return ScriptedGenerator(usage=TokenUsage(50, 10))


@pytest.fixture
async def svc(tmp_path: Path, gen: ScriptedGenerator) -> AsyncIterator[NotebookService]:
    service = await _service(tmp_path, gen)
    try:
        yield service
    finally:
        await service.stop()


async def _notebook(svc: NotebookService, *sources: str, **cell_kwargs: Any
                    ) -> tuple[str, list[str]]:
    nb = await svc.create_notebook()
    ids = [(await svc.add_cell(nb, source=textwrap.dedent(s), **cell_kwargs)).id
           for s in sources]
    return nb, ids


FRAME = """
import pandas as pd
sales = pd.DataFrame({"region": ["n", "s", "n"], "amount": [10.0, 20.0, 30.0]})
"""


# -- lessons from the retry loop -----------------------------------------------------------

async def test_a_fixed_retry_writes_a_fix_lesson(svc: NotebookService,
                                                 gen: ScriptedGenerator) -> None:
    gen.queue("total = sales['amount'].sum()\nprint(total)")
    nb, (setup, cell) = await _notebook(svc, FRAME, "total = sales['amont'].sum()")
    await svc.execute_cell(nb, setup)
    result = await svc.execute_cell(nb, cell)
    assert result.status.value == "ok" and len(result.attempts) == 2
    assert result.lessons is not None and len(result.lessons["created"]) == 1
    lesson = svc.learning.lessons.get(result.lessons["created"][0])
    assert lesson.category is Category.FIX
    assert lesson.scope.error_types == ["KeyError"]
    assert "pandas" in lesson.scope.libraries
    assert "-total = sales['amont'].sum()" in lesson.what_fixed_it
    assert "+total = sales['amount'].sum()" in lesson.what_fixed_it
    assert lesson.source["cell_id"] == cell
    events = svc.journal.notebook_events(nb, types=("lessons",))
    assert events and events[-1].data["created"] == [lesson.id]


async def test_the_same_mistake_again_is_counted_not_duplicated(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("a = sales['amount'].mean()", "b = sales['amount'].max()")
    nb, (setup, one, two) = await _notebook(svc, FRAME, "a = sales['amont'].mean()",
                                             "b = sales['amont'].max()")
    await svc.execute_cell(nb, setup)
    first = await svc.execute_cell(nb, one)
    second = await svc.execute_cell(nb, two)
    assert first.lessons and second.lessons
    assert second.lessons["created"] == []
    assert second.lessons["merged"] == first.lessons["created"]
    assert svc.learning.lessons.get(first.lessons["created"][0]).times_encountered == 2
    assert svc.learning.lessons.counts().get("fix") == 1


async def test_a_rewrite_that_fails_differently_is_no_lesson(svc: NotebookService,
                                                             gen: ScriptedGenerator) -> None:
    gen.queue("total = salez['amount'].sum()", "total = sales['amount'].sum()")
    nb, (setup, cell) = await _notebook(svc, FRAME, "total = sales['amont'].sum()")
    await svc.execute_cell(nb, setup)
    result = await svc.execute_cell(nb, cell)
    assert [a["status"] for a in result.attempts] == ["error", "error", "ok"]
    (lesson,) = svc.learning.lessons.list(category=Category.FIX)
    assert lesson.scope.error_types == ["NameError"]  # the verified fix only
    assert "+total = sales['amount'].sum()" in lesson.what_fixed_it
    assert lesson.source["verified"] is True and lesson.source["attempt"] == 2


async def test_an_overridden_result_is_no_verified_fix(svc: NotebookService,
                                                       gen: ScriptedGenerator) -> None:
    gen.queue("total = sales['amount'].sum()")
    nb, (setup, cell) = await _notebook(svc, FRAME, "total = sales['amont'].sum()")
    await svc.execute_cell(nb, setup)
    result = await svc.execute_cell(nb, cell, ExecuteOptions(
        checks=tuple(parse_checks(["total > 1000"])), override_critic=True))
    assert [a["status"] for a in result.attempts] == ["error", "ok"]
    assert result.attempts[1]["override"]["how"] == "flag"
    assert svc.learning.lessons.list(category=Category.FIX) == []


async def test_the_same_lesson_appears_once_in_a_prompt(svc: NotebookService,
                                                        gen: ScriptedGenerator) -> None:
    text = {"title": "KeyError from a misspelt column", "category": Category.FIX,
            "what_went_wrong": "sales['amont'] does not exist",
            "what_fixed_it": "check df.columns before indexing"}
    one = svc.learning.lessons.record(Lesson(
        **text, scope=Scope(error_types=["KeyError"], libraries=["pandas"]))).lesson
    two = svc.learning.lessons.record(Lesson(
        **text, scope=Scope(error_types=["KeyError", "IndexError"]))).lesson
    assert one.id != two.id  # two scopes, two stored lessons
    gen.queue("m = sales['amount'].median()")
    nb, (setup, cell) = await _notebook(svc, FRAME, "m = sales['amont'].median()")
    await svc.execute_cell(nb, setup)
    await svc.execute_cell(nb, cell)
    context = gen.calls[0].context
    assert len(context.lessons) == 1 and len(context.lesson_ids) == 1


async def test_an_escalated_cell_writes_a_mistake_lesson(svc: NotebookService,
                                                         gen: ScriptedGenerator) -> None:
    gen.queue(GeneratorError("model unavailable"))
    nb, (cell,) = await _notebook(svc, "import math\nmath.sqrt(-1)")
    result = await svc.execute_cell(nb, cell)
    assert result.escalation is not None
    mistakes = svc.learning.lessons.list(category=Category.MISTAKE)
    assert len(mistakes) == 1
    assert mistakes[0].scope.error_types == ["ValueError"]
    assert "generator_failed" in mistakes[0].what_went_wrong
    assert "math" in mistakes[0].scope.libraries


async def test_stored_lessons_reach_the_generators_prompt(svc: NotebookService,
                                                          gen: ScriptedGenerator) -> None:
    relevant = svc.learning.lessons.record(Lesson(
        title="KeyError from a misspelt column", category=Category.FIX, severity="high",
        what_went_wrong="sales['amont'] does not exist",
        what_fixed_it="check df.columns before indexing",
        scope=Scope(error_types=["KeyError"], libraries=["pandas"]))).lesson
    other = svc.learning.lessons.record(Lesson(
        title="Seed the generator before bootstrapping", category=Category.TIP,
        what_went_wrong="unseeded bootstrap", scope=Scope(libraries=["torch"]))).lesson
    gen.queue("m = sales['amount'].median()")
    nb, (setup, cell) = await _notebook(svc, FRAME, "m = sales['amont'].median()")
    await svc.execute_cell(nb, setup)
    result = await svc.execute_cell(nb, cell)
    assert result.status.value == "ok"
    context = gen.calls[0].context
    assert context.lessons == [relevant.prompt_line()]
    assert context.lesson_ids == [relevant.id] and other.id not in context.lesson_ids
    assert "Lessons from earlier runs" in context.render()
    assert result.attempts[1]["lessons"] == [relevant.id]


async def test_lessons_reach_the_prompt_that_writes_a_prompt_cells_code(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    by_column = svc.learning.lessons.record(Lesson(
        title="amount has refunds as negative values", category=Category.TIP,
        what_went_wrong="sum of amount counted refunds as sales",
        what_fixed_it="filter amount > 0 first", scope=Scope(columns=["amount"]))).lesson
    by_library = svc.learning.lessons.record(Lesson(
        title="groupby drops NaN keys by default", category=Category.TIP, severity="low",
        what_went_wrong="rows with a missing region vanished from the totals",
        what_fixed_it="groupby(..., dropna=False)", scope=Scope(libraries=["pandas"]))).lesson
    svc.learning.lessons.record(Lesson(
        title="Seed torch before training", category=Category.TIP,
        what_went_wrong="unseeded training run", scope=Scope(libraries=["torch"])))
    gen.queue("total = sales['amount'].sum()")
    nb, (setup,) = await _notebook(svc, FRAME)
    cell = (await svc.add_cell(nb, prompt="total amount of sales")).id
    await svc.execute_cell(nb, setup)
    result = await svc.execute_cell(nb, cell)
    assert result.status.value == "ok"
    (call,) = gen.calls
    assert call.kind == "generate"
    # the lesson about the column and the words the prompt names; a tip that only shares
    # the library the notebook imports is below the relevance floor (issue 26), torch too
    assert call.context.lesson_ids == [by_column.id]
    assert by_library.id not in call.context.lesson_ids
    assert "Lessons from earlier runs" in call.context.render()
    assert result.attempts[0]["lessons"] == [by_column.id]


async def test_lessons_off_writes_and_reads_nothing(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["y = 1"])
    svc = await _service(tmp_path, gen, lessons_enabled=False)
    try:
        nb, (cell,) = await _notebook(svc, "y = undefined_name")
        result = await svc.execute_cell(nb, cell)
        assert result.status.value == "ok" and result.lessons == {
            "created": [], "merged": [], "pruned": []}
        assert svc.learning.lessons.counts() == {} or sum(
            svc.learning.lessons.counts().values()) == 0
    finally:
        await svc.stop()


# -- self-checks -------------------------------------------------------------------------

async def test_a_failed_self_check_blocks_and_drives_a_retry(svc: NotebookService,
                                                             gen: ScriptedGenerator) -> None:
    gen.queue("clean = sales.dropna()\nprint(len(sales) - len(clean), 'rows dropped')")
    nb, (setup,) = await _notebook(svc, FRAME + "sales.loc[1, 'amount'] = None\n")
    cell = (await svc.add_cell(nb, source="clean = sales", metadata={
        "nbcritic": {"checks": [{"type": "no_missing", "target": "clean"}]}})).id
    await svc.execute_cell(nb, setup)
    result = await svc.execute_cell(nb, cell)
    first, second = result.attempts
    assert first["status"] == "scientific_validity_error"
    assert [f["rule_id"] for f in first["findings"]] == ["self_check.no_missing_clean"]
    assert "self_check.no_missing_clean" in gen.calls[0].feedback
    assert second["status"] == "ok" and result.status.value == "ok"
    assert result.critique is not None
    (check,) = result.critique["checks"]
    assert check["name"] == "no_missing_clean" and check["passed"] is True
    assert check["evaluated"] is True and check["error"] is None
    # a retry that got past a critique (here the check's) is a lesson too
    assert result.lessons is not None
    (lesson_id,) = result.lessons["created"]
    lesson = svc.learning.lessons.get(lesson_id)
    assert lesson.category is Category.FIX
    assert lesson.scope.rule_ids == ["self_check.no_missing_clean"]
    assert lesson.scope.error_types == [] and "critique" in lesson.scope.tags
    assert "+clean = sales.dropna()" in lesson.what_fixed_it


async def test_self_checks_run_with_the_critic_off_and_from_the_request(
        svc: NotebookService) -> None:
    nb, (cell,) = await _notebook(svc, "r2 = 1.7")
    checks = tuple(parse_checks([{"type": "in_range", "target": "r2", "min": 0, "max": 1}]))
    result = await svc.execute_cell(nb, cell, ExecuteOptions(critic=False, checks=checks,
                                                             auto_fix=False))
    assert result.status.value == "scientific_validity_error"
    assert result.error is not None and "self_check.in_range_r2" in result.error["evalue"]
    # the user overrides it like any critical finding
    again = await svc.execute_cell(nb, cell, ExecuteOptions(critic=False, checks=checks,
                                                            override_critic=True))
    assert again.status.value == "ok" and again.override is not None


async def test_set_checks_validates_and_stores(svc: NotebookService) -> None:
    nb, (cell,) = await _notebook(svc, "x = [1, 2]")
    stored = await svc.set_checks(nb, cell, ["len(x) == 2", {"type": "expression",
                                                              "expr": "x[0] == 1",
                                                              "name": "first"}])
    assert [c["name"] for c in stored][1] == "first"
    assert svc.get_cell(nb, cell).metadata["nbcritic"]["checks"] == stored
    result = await svc.execute_cell(nb, cell)
    assert result.status.value == "ok"
    assert [c["passed"] for c in result.critique["checks"]] == [True, True]


async def test_invalid_checks_in_metadata_are_reported_not_fatal(svc: NotebookService) -> None:
    nb, (cell,) = await _notebook(svc, "x = 1", metadata={
        "nbcritic": {"checks": [{"type": "no_such_type"}]}})
    result = await svc.execute_cell(nb, cell)
    assert result.status.value == "ok"
    errors = result.critique["errors"]
    assert errors and "checks[0].type" in errors[0]["error"]


# -- plans -------------------------------------------------------------------------------

async def test_a_plan_is_stored_and_its_criteria_checked(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["per_region = sales.groupby('region').sum()",
                             "per_region = sales.groupby('region')['amount'].sum()"])
    plan = Plan(objectives=["total sales per region"], approach=["groupby region, sum"],
                risks=["summing the text column"],
                success_criteria=[
                    Criterion("one number per region", {
                        "type": "expression", "expr": "per_region.ndim == 1",
                        "name": "one_column"}),
                    Criterion("the totals add up", None)],
                lessons_applied=[], usage=TokenUsage(30, 40), model="scripted")
    planner = ScriptedPlanner([plan])
    svc = await _service(tmp_path, gen, planner, planning=True)
    try:
        nb, (setup,) = await _notebook(svc, FRAME)
        cell = (await svc.add_cell(nb, prompt="total sales per region")).id
        await svc.execute_cell(nb, setup)
        result = await svc.execute_cell(nb, cell)
        assert len(planner.calls) == 1
        assert result.plan is not None and result.plan["objectives"] == [
            "total sales per region"]
        first, second = result.attempts
        assert first["status"] == "scientific_validity_error"
        assert first["findings"][0]["rule_id"] == "self_check.plan_one_column"
        assert second["status"] == "ok"
        meta = svc.get_cell(nb, cell).metadata["nbcritic"]
        assert meta["plan"]["objectives"] == ["total sales per region"]
        assert [c["name"] for c in meta["checks"]] == ["plan_one_column"]
        assert result.tokens is not None and result.tokens["total"] >= 70
        plans = svc.journal.notebook_events(nb, types=("plan",))
        assert plans and "total sales per region" in plans[0].data["text"]
        # a new prompt: the old plan and the checks it derived go
        await svc.update_cell(nb, cell, prompt="mean sales per region")
        meta = svc.get_cell(nb, cell).metadata["nbcritic"]
        assert "plan" not in meta and "checks" not in meta
    finally:
        await svc.stop()


async def test_no_plan_when_planning_is_off_or_fails(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["a = 1", "b = 2"])
    planner = ScriptedPlanner([GeneratorError("planner down")])
    svc = await _service(tmp_path, gen, planner)  # planning off by default
    try:
        nb = await svc.create_notebook()
        cell = (await svc.add_cell(nb, prompt="set a")).id
        result = await svc.execute_cell(nb, cell)
        assert result.status.value == "ok" and result.plan is None and planner.calls == []
        other = (await svc.add_cell(nb, prompt="set b")).id
        result = await svc.execute_cell(nb, other, ExecuteOptions(plan=True))
        assert result.status.value == "ok" and result.plan is None
        assert len(planner.calls) == 1
        events = svc.journal.notebook_events(nb, types=("plan",))
        assert events[-1].data["error"] == "planner down"
    finally:
        await svc.stop()


async def test_planning_per_cell_overrides_the_global_switch(tmp_path: Path) -> None:
    plan = Plan(objectives=["set a"], approach=["assign"], risks=[], success_criteria=[],
                lessons_applied=[])
    for planning, cell_planning, planned in ((False, True, True), (True, False, False)):
        gen = ScriptedGenerator(["a = 1"])
        planner = ScriptedPlanner([plan])
        svc = await _service(tmp_path / str(planning), gen, planner, planning=planning)
        try:
            nb = await svc.create_notebook()
            cell = (await svc.add_cell(nb, prompt="set a", metadata={
                "nbcritic": {"planning": cell_planning}})).id
            result = await svc.execute_cell(nb, cell)
            assert result.status.value == "ok"
            assert (result.plan is not None) is planned
            assert len(planner.calls) == int(planned)
            assert ("plan" in svc.get_cell(nb, cell).metadata["nbcritic"]) is planned
        finally:
            await svc.stop()


# -- reflection after run-all ------------------------------------------------------------

class Webhook:
    """A local HTTP endpoint that records JSON bodies; `fail` answers 500."""

    def __init__(self, fail: bool = False) -> None:
        self.bodies: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                outer.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(500 if fail else 200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def webhook() -> Iterator[Webhook]:
    hook = Webhook()
    yield hook
    hook.close()


async def test_run_all_reflects_learns_and_files_an_improvement(tmp_path: Path,
                                                                webhook: Webhook) -> None:
    svc = await _service(tmp_path, None, improvement_webhook_url=webhook.url)
    try:
        nb, _ = await _notebook(svc, "d = {}\nd['a']", "e = {}\ne['b']", "f = {}\nf['c']")
        results = await svc.run_all(nb, ExecuteOptions(stop_on_error=False))
        assert [r.status.value for r in results] == ["error"] * 3
        reflection = svc.last_reflection[nb]
        assert not reflection["clean"]
        kinds = {p["kind"] for p in reflection["patterns"]}
        assert "repeated_error" in kinds
        assert reflection["metrics"]["cells"] == 3
        stored = svc.reflections(nb)
        assert stored and stored[0]["id"] == reflection["id"]
        assert reflection["lessons"]["created"] or reflection["lessons"]["merged"]
        queued = svc.learning.queue.list()
        assert queued and reflection["improvements"][0]["queued"]
        assert webhook.bodies and webhook.bodies[0]["id"] == queued[0].id
        assert queued[0].deliveries[0]["ok"] is True
        # the same pattern again within the cooldown: absorbed, not a second request
        await svc.run_all(nb, ExecuteOptions(stop_on_error=False))
        assert len(svc.learning.queue.list()) == len(queued)
        assert svc.learning.queue.get(queued[0].id).occurrences == 2
        assert len(webhook.bodies) == 1
    finally:
        await svc.stop()


async def test_a_clean_run_changes_nothing(tmp_path: Path, webhook: Webhook) -> None:
    svc = await _service(tmp_path, None, improvement_webhook_url=webhook.url)
    try:
        nb, _ = await _notebook(svc, "a = 1", "b = a + 1\nprint(b)")
        results = await svc.run_all(nb)
        assert [r.status.value for r in results] == ["ok", "ok"]
        assert svc.last_reflection[nb]["clean"] is True
        assert svc.reflections(nb) == []
        assert sum(svc.learning.lessons.counts().values()) == 0
        assert svc.learning.queue.list() == [] and webhook.bodies == []
    finally:
        await svc.stop()


async def test_reflection_on_demand_and_unknown_execution(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None, reflection_auto=False)
    try:
        nb, cells = await _notebook(svc, "1/0", "2/0")
        for cell in cells:
            await svc.execute_cell(nb, cell)
        assert svc.reflections(nb) == []
        data = await svc.reflect(nb)
        assert len(data["execution_ids"]) == 2
        assert data["metrics"]["attempts"] == 2
        assert [p["key"] for p in data["patterns"]] == ["repeated_error:ZeroDivisionError"]
        assert svc.reflections(nb)[0]["id"] == data["id"]
        lesson_counts = {x.id: x.times_encountered for x in svc.learning.lessons.list()}
        # each execution counts once: nothing new -> a clean reflection that changes nothing
        # (and the reflection's own record is never reflected on)
        again = await svc.reflect(nb)
        assert again["execution_ids"] == [] and again["clean"] and "id" not in again
        # named again explicitly: analysed, but lessons and requests stay as they were
        named = await svc.reflect(nb, data["execution_ids"])
        assert named["already_reflected"] == sorted(data["execution_ids"])
        assert named["patterns"] and named["lessons"]["merged"] == []
        assert {x.id: x.times_encountered for x in svc.learning.lessons.list()} == lesson_counts
        assert len(svc.reflections(nb)) == 1
        # a new execution is reflected on its own
        await svc.execute_cell(nb, cells[0])
        fresh = await svc.reflect(nb)
        assert len(fresh["execution_ids"]) == 1 and fresh["execution_ids"][0] not in data[
            "execution_ids"]
        from services.notebook_service import ExecutionNotFound
        with pytest.raises(ExecutionNotFound):
            await svc.reflect(nb, ["no-such-execution"])
        # reflection_auto off: a run-all with the same failures is not reflected on by itself
        other, _ = await _notebook(svc, "1/0", "2/0")
        await svc.run_all(other, ExecuteOptions(stop_on_error=False))
        assert other not in svc.last_reflection and svc.reflections(other) == []
    finally:
        await svc.stop()


async def test_a_failing_sink_keeps_the_request_and_switching_off_files_none(
        tmp_path: Path) -> None:
    broken = Webhook(fail=True)
    cells = ("d = {}\nd['a']", "e = {}\ne['b']", "f = {}\nf['c']")
    try:
        svc = await _service(tmp_path / "on", None, improvement_webhook_url=broken.url)
        try:
            nb, _ = await _notebook(svc, *cells)
            await svc.run_all(nb, ExecuteOptions(stop_on_error=False))
            (request,) = svc.learning.queue.list()
            assert broken.bodies  # it was tried
            assert request.status == "open"
            assert request.deliveries[0]["ok"] is False
            assert "500" in request.deliveries[0]["detail"]
        finally:
            await svc.stop()
    finally:
        broken.close()
    svc = await _service(tmp_path / "off", None, improvements_enabled=False)
    try:
        nb, _ = await _notebook(svc, *cells)
        await svc.run_all(nb, ExecuteOptions(stop_on_error=False))
        reflection = svc.last_reflection[nb]
        assert not reflection["clean"] and reflection["improvements"] == []
        assert svc.learning.queue.list() == []
        assert sum(svc.learning.lessons.counts().values()) == 1  # lessons still learned
    finally:
        await svc.stop()


async def test_a_check_that_hangs_the_kernel_ends_the_cell_as_a_timeout(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["never = 'used'"])
    svc = await _service(tmp_path, gen, introspection_timeout=1.0, interrupt_grace=1.0)
    try:
        nb, (cell,) = await _notebook(svc, """
            import time
            def stubborn():
                while True:
                    try:
                        time.sleep(10)
                    except KeyboardInterrupt:
                        pass
            """)
        result = await svc.execute_cell(nb, cell, ExecuteOptions(
            checks=tuple(parse_checks(["stubborn()"]))))
        assert result.status.value == "timeout" and len(result.attempts) == 1
        assert "self-check did not finish" in result.error["evalue"]
        assert gen.calls == []  # no retry on a kernel whose variables are gone
        replaced = svc.journal.notebook_events(nb, types=("kernel",))
        assert any(e.data.get("event") == "replaced" for e in replaced)
        after = await svc.execute_cell(nb, cell)  # a fresh kernel takes the next run
        assert after.status.value == "ok"
    finally:
        await svc.stop()


async def test_pruning_never_drops_the_lesson_just_learned(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None, lessons_max_per_category=2)
    try:
        store = svc.learning.lessons
        old = [Lesson(title=f"Old tip number {word}", category=Category.TIP,
                      what_went_wrong=f"something about {word} went wrong",
                      scope=Scope(libraries=[word]), times_encountered=3)
               for word in ("alpha", "beta")]
        store.import_lessons(old)
        learned = await svc.learning.record([{
            "title": "A brand new tip", "category": "tip",
            "what_went_wrong": "the new mistake", "scope": {"libraries": ["gamma"]}}])
        (new_id,) = learned.created
        assert store.get(new_id).title == "A brand new tip"
        assert learned.pruned and learned.pruned[0]["removed"] and \
            new_id not in learned.pruned[0]["removed"]
        assert store.counts()["tip"] == 2
    finally:
        await svc.stop()
