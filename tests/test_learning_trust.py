"""Learning a user can rely on (issue 26), through the real flow: a plan reaches the code
generator (the scripted one and the Claude one against a local Messages API server), a
self-check that cannot be evaluated blocks the cell and fails `nbcritic run`, real kernels
throughout."""

from __future__ import annotations

import json
import textwrap
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anthropic
import nbformat
import pytest

from app import cli
from app.main import create_app
from critics import AnalysisCritic
from services.anthropic_client import make_async_client
from services.cell_plan import ClaudePlanner, Criterion, Plan
from services.cell_review import CellReviewer
from services.claude_generator import ClaudeCodeGenerator
from services.code_generator import CodeGenerator
from services.improvement_sinks import SinkConfigError
from services.lesson_export import from_json
from services.notebook_service import ExecuteOptions, NotebookService
from services.scripted_generator import ScriptedGenerator
from services.scripted_planner import ScriptedPlanner
from services.self_checks import parse_checks
from tests.messages_api_server import MessagesAPIServer

from .conftest import LiveServer, make_settings, new_notebook

FRAME = """
import pandas as pd
sales = pd.DataFrame({"region": ["n", "s", "n"], "amount": [10.0, 20.0, 30.0]})
"""
APPROACH = "group the rows by region and sum the amount column only"
RISK = "summing the text column region as well"


async def _service(tmp_path: Path, generator: CodeGenerator | None = None,
                   planner: Any = None, **overrides: Any) -> NotebookService:
    config = make_settings(tmp_path, **overrides)
    critic = AnalysisCritic(rules=[], load_plugins=False)  # self-checks only
    svc = NotebookService(config, reviewer=CellReviewer(config, critic=critic),
                          generator=generator, planner=planner)
    await svc.start()
    return svc


async def _prompt_cell(svc: NotebookService, prompt: str) -> tuple[str, str]:
    nb = await svc.create_notebook()
    setup = (await svc.add_cell(nb, source=textwrap.dedent(FRAME))).id
    cell = (await svc.add_cell(nb, prompt=prompt)).id
    assert (await svc.execute_cell(nb, setup)).status.value == "ok"
    return nb, cell


def _plan() -> Plan:
    return Plan(objectives=["total sales per region"], approach=[APPROACH], risks=[RISK],
                success_criteria=[Criterion("one number per region", {
                    "type": "expression", "expr": "per_region.ndim == 1",
                    "name": "one_column"})])


# -- 1. plans reach the generator ------------------------------------------------------------

async def test_the_plan_reaches_generate_and_every_fix(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["per_region = sales.groupby('region').sum()",
                             "per_region = sales.groupby('region')['amount'].sum()"])
    svc = await _service(tmp_path, gen, ScriptedPlanner([_plan()]), planning=True)
    try:
        nb, cell = await _prompt_cell(svc, "total sales per region")
        result = await svc.execute_cell(nb, cell)
        assert result.status.value == "ok" and len(result.attempts) == 2
        first, fix = gen.calls
        assert (first.kind, fix.kind) == ("generate", "fix")
        for call in gen.calls:  # the plan shapes the first code and every rewrite
            assert APPROACH in call.context.plan and RISK in call.context.plan
            assert APPROACH in call.context.render()
            assert "per_region.ndim == 1" in call.context.plan
    finally:
        await svc.stop()


async def test_without_a_plan_the_context_has_none(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["per_region = sales.groupby('region')['amount'].sum()"])
    svc = await _service(tmp_path, gen, ScriptedPlanner([_plan()]))  # planning off
    try:
        nb, cell = await _prompt_cell(svc, "total sales per region")
        assert (await svc.execute_cell(nb, cell)).status.value == "ok"
        assert gen.calls[0].context.plan == ""
        assert "plan for this cell" not in gen.calls[0].context.render()
    finally:
        await svc.stop()


@pytest.fixture
def api() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as srv:
        yield srv


@pytest.fixture
async def client(api: MessagesAPIServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    async with make_async_client(api_key="test-key", base_url=api.url, timeout=5.0,
                                 max_retries=0, max_retry_wait=1.0) as c:
        yield c


async def test_the_plan_is_in_the_claude_generation_request(
        tmp_path: Path, api: MessagesAPIServer, client: anthropic.AsyncAnthropic) -> None:
    api.reply_tool("submit_plan", {
        "objectives": ["total sales per region"], "approach": [APPROACH], "risks": [RISK],
        "success_criteria": [{"text": "one number per region",
                              "check": {"type": "expression", "expr": "per_region.ndim == 1",
                                        "name": "one_column"}}]})
    api.reply_tool("submit_code", {
        "code": "per_region = sales.groupby('region')['amount'].sum()",
        "explanation": "sums the amount per region"})
    svc = await _service(tmp_path, ClaudeCodeGenerator(client, model="m"),
                         ClaudePlanner(client, model="m"), planning=True)
    try:
        nb, cell = await _prompt_cell(svc, "total sales per region")
        result = await svc.execute_cell(nb, cell)
        assert result.status.value == "ok", result.error
        plan_request, code_request = api.requests
        assert plan_request.body["tool_choice"]["name"] == "submit_plan"
        assert code_request.body["tool_choice"]["name"] == "submit_code"
        text = code_request.user_text
        assert "<plan" in text and APPROACH in text and RISK in text
        assert text.index("<task>") < text.index("<plan")
    finally:
        await svc.stop()


# -- 2. a self-check that cannot be evaluated does not pass --------------------------------

SLOW_CHECK = '__import__("time").sleep(60) or True'


async def test_a_check_that_times_out_blocks_the_cell(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None, introspection_timeout=1.5, interrupt_grace=3.0)
    try:
        nb = await svc.create_notebook()
        cell = (await svc.add_cell(nb, source="x = 1")).id
        result = await svc.execute_cell(nb, cell, ExecuteOptions(
            checks=tuple(parse_checks([SLOW_CHECK, "x == 1"]))))
        assert result.status.value == "scientific_validity_error"
        # the interrupt took the verdict of both checks: neither passes
        slow, other = result.critique["findings"]
        assert other["rule_id"] == "self_check.expression_x_1"
        finding = slow
        assert finding["rule_id"].startswith("self_check.expression")
        assert finding["severity"] == "critical"
        assert "could not be evaluated" in finding["explanation"]
        assert "timed out" in finding["explanation"]
        assert "could not be evaluated" in result.error["evalue"]
        checks = {c["name"]: c for c in result.critique["checks"]}
        assert [c["evaluated"] for c in checks.values()] == [False, False]
        # the kernel came back from the interrupt: the next run works
        assert (await svc.execute_cell(nb, cell)).status.value == "ok"
    finally:
        await svc.stop()


def test_nbcritic_run_fails_on_a_check_that_cannot_be_evaluated(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x = 1")
    cell.metadata["nbcritic"] = {"checks": [{"expr": SLOW_CHECK, "name": "slow"}]}
    nb.cells = [cell]
    path = tmp_path / "slow.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    monkeypatch.setenv("NBCRITIC_INTROSPECTION_TIMEOUT", "1.5")
    monkeypatch.setenv("NBCRITIC_POOL_SIZE", "1")
    code = cli.main(["run", str(path), "--no-critic", "-o", str(tmp_path / "out.ipynb")])
    err = capsys.readouterr().err
    assert code == cli.EXIT_FINDINGS, err  # blocked: non-zero, like any blocking finding
    assert "self_check.slow" in err and "could not be evaluated" in err
    assert "timed out" in err
    out = json.loads((tmp_path / "out.ipynb").read_text())
    assert out["cells"][0]["metadata"]["nbcritic"]["status"] == "scientific_validity_error"


# -- 4. edited lessons are taken on import ----------------------------------------------------

def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


HANDMADE = {"format": "nbcritic-lessons", "version": 1, "lessons": [{
    "title": "Fit the scaler on the training rows only", "category": "fix",
    "severity": "high", "what_went_wrong": "StandardScaler fit before the split",
    "what_fixed_it": "a Pipeline inside cross_val_score", "times_encountered": 3,
    "scope": {"rule_ids": ["leakage.fit_saw_heldout_rows"], "libraries": ["sklearn"]}}]}


@pytest.mark.parametrize("form", ["markdown", "json"])
def test_an_edited_export_updates_its_lessons(tmp_path: Path, form: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    source = tmp_path / "in.json"
    source.write_text(json.dumps(HANDMADE))
    assert _cli(capsys, "lessons", "import", str(source), *data)[0] == 0
    exported = tmp_path / ("lessons.md" if form == "markdown" else "lessons.json")
    assert _cli(capsys, "lessons", "export", "-o", str(exported), *data)[0] == 0
    text = exported.read_text()
    # a small edit (the title) and a large one (what went wrong, rewritten entirely)
    text = text.replace("Fit the scaler on the training rows only",
                        "Fit every preprocessing step on the training rows only")
    text = text.replace("StandardScaler fit before the split",
                        "Imputer, scaler and selector were all fit on every row, test rows "
                        "included, so the held-out score was optimistic")
    text = text.replace('"severity": "high"', '"severity": "critical"').replace(
        "**Severity:** high", "**Severity:** critical")
    exported.write_text(text)
    code, out, _ = _cli(capsys, "lessons", "import", str(exported), *data)
    assert code == 0 and "updated 1" in out and "imported 0 new" in out
    _, out, _ = _cli(capsys, "lessons", "list", "--json", *data)
    (lesson,) = json.loads(out)  # the edit replaced the lesson, no second one beside it
    assert lesson["title"] == "Fit every preprocessing step on the training rows only"
    assert lesson["what_went_wrong"].startswith("Imputer, scaler and selector")
    assert lesson["severity"] == "critical" and lesson["times_encountered"] == 3
    # importing the same file again changes nothing
    code, out, _ = _cli(capsys, "lessons", "import", str(exported), *data)
    assert code == 0 and "unchanged 1" in out


def test_deeply_nested_json_is_a_usage_error(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    code, out, err = _cli(capsys, "lessons", "import", str(deep),
                          "--data-dir", str(tmp_path / "data"))
    assert code == 2 and "nested too deeply" in err and "Traceback" not in err + out


# -- 5. pruning keeps hand-written and critical lessons ------------------------------------

def _tip(word: str, **fields: Any) -> dict[str, Any]:
    return {"title": f"Tip about {word}", "category": "tip",
            "what_went_wrong": f"something about {word} went wrong",
            "scope": {"libraries": [word]}, **fields}


async def test_pruning_keeps_hand_written_and_critical_tips(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None, lessons_max_per_category=3)
    try:
        learning = svc.learning
        # a person's tips (an imported file, as `nbcritic lessons import` reads it)
        await learning.import_lessons(from_json({
            "format": "nbcritic-lessons", "version": 1,
            "lessons": [_tip("hand", severity="low"), _tip("critical", severity="critical")]}))
        run = {"notebook_id": "nb1", "execution_id": "e1"}
        # a minor tip learned from runs, seen often
        for _ in range(6):
            await learning.record([_tip("often", severity="low", source=run)])
        learned = await learning.record([_tip("fresh", source=run)])
        (removed,) = learned.pruned[0]["removed"]
        titles = sorted(x.title for x in learning.lessons.all_lessons())
        assert titles == ["Tip about critical", "Tip about fresh", "Tip about hand"]
        assert learning.lessons.counts()["tip"] == 3
        assert removed not in {x.id for x in learning.lessons.all_lessons()}
    finally:
        await svc.stop()


# -- 7. smaller: run-all checks, all-or-nothing ack, a sink without its token --------------

def test_run_all_takes_checks_per_cell(tmp_path: Path) -> None:
    with LiveServer(make_settings(tmp_path, pool_size=1)) as live, live.client() as client:
        nb, (_, second) = new_notebook(client, "x = 1", "y = x + 1")
        run = client.post(f"/api/notebooks/{nb}/run", json={
            "checks": {second: ["y == 3"]}, "critic": False})
        assert run.status_code == 200, run.text
        body = run.json()
        assert body["status"] == "scientific_validity_error" and body["blocked"] == [second]
        (finding,) = [f for r in body["results"] for f in (r["critique"] or {})
                      .get("findings", [])]
        assert finding["rule_id"] == "self_check.expression_y_3"
        for bad, field in (({"checks": ["y == 3"]}, "checks"),
                           ({"checks": {"nope": ["y == 3"]}}, "checks.nope"),
                           ({"checks": {second: [{"type": "in_range", "target": "y"}]}},
                            f"checks.{second}[0].min")):
            answer = client.post(f"/api/notebooks/{nb}/run", json=bad)
            assert answer.status_code == 422 and field in answer.text, answer.text


def _queue_two_requests(data_dir: Path) -> list[str]:
    from services.improvement_queue import ImprovementQueue, ImprovementRequest

    queue = ImprovementQueue(make_settings(data_dir).learning_path)
    try:
        return [queue.submit(ImprovementRequest(
            title=f"request {key}", description="d", priority="high", type="prompt",
            pattern_key=key, source_pattern={}, context={"notebook_id": "nb"})).request.id
            for key in ("a", "b")]
    finally:
        queue.close()


def test_improvements_ack_is_all_or_nothing(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path)]
    known, other = _queue_two_requests(tmp_path)
    code, _, err = _cli(capsys, "improvements", "ack", known, "no-such-request", *data)
    assert code == 1 and "no-such-request" in err
    _, out, _ = _cli(capsys, "improvements", "list", "--json", *data)
    assert {r["id"]: r["status"] for r in json.loads(out)} == {known: "open", other: "open"}
    code, out, _ = _cli(capsys, "improvements", "ack", known, other, *data)
    assert code == 0 and "2 request(s)" in out


def test_a_github_repo_without_token_stops_only_what_delivers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NBCRITIC_GITHUB_REPO", "octo/analysis")
    monkeypatch.delenv("NBCRITIC_GITHUB_TOKEN", raising=False)
    data = ["--data-dir", str(tmp_path)]
    code, out, err = _cli(capsys, "lessons", "list", *data)
    assert code == 0 and "no lessons" in out, err
    assert _cli(capsys, "improvements", "list", *data)[0] == 0
    code, _, err = _cli(capsys, "reflect", "nb", *data)  # reflecting files requests
    assert code == 2 and "github_token" in err
    with pytest.raises(SinkConfigError, match="github_token"):
        create_app(make_settings(tmp_path))


# -- 6. the improvement cooldown per notebook; failed deliveries shown and retried ---------

class FailingHook:
    """A local webhook that answers 500 to every POST and counts them."""

    def __init__(self) -> None:
        self.posts = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                outer.posts += 1
                self.send_response(500)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


REPEATED_KEY_ERRORS = ("d = {}\nd['a']", "e = {}\ne['b']", "f = {}\nf['c']")


async def test_a_second_notebook_gets_its_own_request_and_failures_are_listed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hook = FailingHook()
    try:
        svc = await _service(tmp_path, None, improvement_webhook_url=hook.url,
                             improvement_webhook_attempts=2)
        try:
            for _ in range(2):  # two notebooks, the same recurring error, within the hour
                nb = await svc.create_notebook()
                for source in REPEATED_KEY_ERRORS:
                    await svc.add_cell(nb, source=source)
                await svc.run_all(nb, ExecuteOptions(stop_on_error=False))
            requests = svc.learning.queue.list()
            assert len(requests) == 2
            assert {r.pattern_key for r in requests} == {requests[0].pattern_key}
            assert len({r.context["notebook_id"] for r in requests}) == 2
            assert hook.posts == 4  # each delivery tried twice (bounded), then recorded
            assert all(r.deliveries[0]["detail"].endswith("(attempt 2 of 2)")
                       for r in requests)
        finally:
            await svc.stop()
    finally:
        hook.close()
    code, out, _ = _cli(capsys, "improvements", "list", "--data-dir", str(tmp_path))
    assert code == 0 and out.count("delivery to webhook FAILED: HTTP 500") == 2, out


# -- 3. relevance: what the cell does, with a floor ------------------------------------------

LEAKAGE = {"title": "StandardScaler fit before the split", "category": "fix",
           "severity": "critical",
           "what_went_wrong": "StandardScaler fit before the split: the scaler saw the test "
                              "rows, so the test accuracy is optimistic",
           "what_fixed_it": "fit the scaler inside a Pipeline on the training rows",
           "scope": {"rule_ids": ["leakage.fit_saw_heldout_rows"],
                     "libraries": ["pandas", "sklearn"]}}
MISSPELT = {"title": "KeyError: 'regoin'", "category": "fix", "severity": "medium",
            "what_went_wrong": "'regoin' (at sales.groupby('regoin')). Hint: did you mean "
                               "'region'?",
            "what_fixed_it": "use the column as spelled in sales.columns",
            "scope": {"error_types": ["KeyError"], "libraries": ["pandas"],
                      "columns": ["region"]}}


async def test_only_relevant_lessons_reach_the_prompt(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["counts = sales.groupby('region').size()",
                             "total = sales['amout'].sum()", "total = sales['amount'].sum()"])
    svc = await _service(tmp_path, gen)
    try:
        await svc.learning.record([LEAKAGE, MISSPELT])
        # a prompt that shares only pandas (and a column) with the stored lessons: none
        nb, cell = await _prompt_cell(svc, "count the rows per region")
        assert (await svc.execute_cell(nb, cell)).status.value == "ok"
        assert gen.calls[0].context.lessons == []
        # a retry of a KeyError: the misspelt-column lesson, not the leakage one
        other = (await svc.add_cell(nb, prompt="total amount")).id
        result = await svc.execute_cell(nb, other)
        assert result.status.value == "ok" and len(result.attempts) == 2
        fix = gen.calls[-1]
        assert fix.kind == "fix" and len(fix.context.lessons) == 1
        (line,) = fix.context.lessons
        assert "regoin" in line and "StandardScaler" not in line
        # the title is not repeated by the text after it
        assert "KeyError: 'regoin': (at sales.groupby" in line
    finally:
        await svc.stop()


def test_the_floor_is_a_setting(tmp_path: Path) -> None:
    from services.lessons import LessonQuery, LessonStore

    with LessonStore(tmp_path / "l.sqlite") as store:
        store.import_lessons(from_json({"format": "nbcritic-lessons", "version": 1,
                                        "lessons": [LEAKAGE, MISSPELT]}))
        query = LessonQuery(libraries=["pandas"], columns=["region"],
                            text="count the rows per region")
        assert store.relevant(query) == []
        assert len(store.relevant(query, min_relevance=0)) == 2
    settings = make_settings(tmp_path, lessons_min_relevance=0)
    assert settings.lessons_min_relevance == 0
