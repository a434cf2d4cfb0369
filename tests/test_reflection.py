"""Post-mortem reflection over execution journals: journals with known patterns (built by
appending the service's event shapes to a real Journal), exact patterns and metrics, a clean
journal, reflection records ignored, lesson drafts, and one reflection over a REAL journal
written by the service with a scripted code generator."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from critics import AnalysisCritic, Evidence, Finding, rule
from services.cell_result import CellResult
from services.code_generator import TokenUsage
from services.improvement_queue import requests_from
from services.journal import Journal
from services.reflection import (
    REFLECTION_PREFIX,
    PatternFound,
    Reflection,
    ReflectionError,
    lesson_drafts,
    reflect,
)
from services.status import CellStatus

NB = "nb-1"
PANDAS_TB = ["\x1b[0;31mKeyError\x1b[0m Traceback (most recent call last)",
             "File /venv/lib/python3.12/site-packages/pandas/core/frame.py:4102, in "
             "DataFrame.__getitem__(self, key)", "KeyError: 'price'"]


def clock() -> float:
    return 1_700_000_000.0


def finding(rule_id: str, severity: str = "critical", confidence: float = 0.9) -> dict[str, Any]:
    return {"rule_id": rule_id, "family": rule_id.split(".")[0], "title": f"Title {rule_id}",
            "explanation": f"{rule_id} is wrong", "severity": severity,
            "confidence": confidence, "evidence": {}, "suggestion": f"fix {rule_id}",
            "source": "rule"}


def attempt(status: str = "ok", *, ename: str | None = None, evalue: str = "",
            findings: list[dict[str, Any]] | None = None, code: str = "x = 1",
            duration_ms: float = 10.0, explanation: str | None = None,
            traceback: list[str] | None = None, hint: str | None = None) -> dict[str, Any]:
    return {"status": status, "ename": ename, "evalue": evalue, "findings": findings or [],
            "code": code, "duration_ms": duration_ms, "explanation": explanation,
            "traceback": traceback or [], "hint": hint}


class JournalWriter:
    """Appends what NotebookService emits for a cell: attempt_started, the kernel's error
    output, critique, override_applied, retry_scheduled, escalated, final (a real
    CellResult.as_dict())."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.count = 0

    def execution(self) -> str:
        self.count += 1
        execution_id = f"exec-{self.count}"
        self.journal.append(execution_id, NB, None, "status", {"state": "running"})
        return execution_id

    def done(self, execution_id: str) -> None:
        self.journal.append(execution_id, NB, None, "done", {"state": "done", "results": []})

    def cell(self, execution_id: str, cell_id: str, attempts: list[dict[str, Any]], *,
             escalation: str | None = None, override: list[str] | None = None,
             tokens: tuple[int, int] | None = None, expected_error: bool = False,
             skipped: bool = False) -> None:
        emit = self.journal.append
        records: list[dict[str, Any]] = []
        critique: dict[str, Any] | None = None
        cause = None
        for number, spec in enumerate(attempts, 1):
            emit(execution_id, NB, cell_id, "attempt_started",
                 {"attempt": number, "code": spec["code"], "cause": cause,
                  "generated": number > 1, "tokens": None})
            error = None
            if spec["status"] in ("error", "timeout", "dead_kernel"):
                error = {"ename": spec["ename"], "evalue": spec["evalue"],
                         "traceback": spec["traceback"]}
                if spec["status"] == "error":
                    emit(execution_id, NB, cell_id, "error", {"output_type": "error", **error})
            blocking = []
            if spec["status"] in ("ok", "scientific_validity_error"):
                critique = {"findings": spec["findings"], "errors": [], "rules_run": 3,
                            "skipped": False}
                if override:
                    applied = {"how": "flag", "by": "ana", "at": "t", "reason": "synthetic",
                               "attempt": number, "findings": override}
                    critique["overridden"] = applied
                    emit(execution_id, NB, cell_id, "override_applied", applied)
                emit(execution_id, NB, cell_id, "critique", {**critique, "attempt": number})
                if spec["status"] == "scientific_validity_error":
                    blocking = [f for f in spec["findings"] if f["severity"] == "critical"]
                    error = {"ename": "ScientificValidityError", "evalue": "blocked",
                             "traceback": []}
            records.append({
                "attempt": number, "code": spec["code"], "status": spec["status"],
                "cause": cause, "generated": number > 1, "started_at": "t",
                "duration_ms": spec["duration_ms"], "execution_count": number, "error": error,
                "findings": blocking or None,
                "analysis": {"ename": spec["ename"], "hint": spec["hint"]} if error else None,
                "feedback": None, "tokens": None, "explanation": spec["explanation"]})
            if number < len(attempts):
                cause = "critique" if spec["status"] == "scientific_validity_error" else "error"
                emit(execution_id, NB, cell_id, "retry_scheduled",
                     {"attempt": number + 1, "after_attempt": number, "cause": cause})
        escalation_data = None
        if escalation:
            escalation_data = {"pattern": escalation, "reason": f"because {escalation}",
                               "question": "what now?", "attempts": []}
            emit(execution_id, NB, cell_id, "escalated", escalation_data)
        last = records[-1] if records else {}
        result = CellResult(
            NB, cell_id, execution_id, CellStatus(last.get("status", "ok")),
            duration_ms=sum(r["duration_ms"] for r in records), attempts=records,
            error=last.get("error"), critique=critique, code=last.get("code"),
            escalation=escalation_data, skipped=skipped, expected_error=expected_error,
            tokens={"input_tokens": tokens[0], "output_tokens": tokens[1],
                    "total": sum(tokens)} if tokens else None)
        emit(execution_id, NB, cell_id, "final", result.as_dict())


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "journal.sqlite3")
    try:
        yield j
    finally:
        j.close()


@pytest.fixture
def writer(journal: Journal) -> JournalWriter:
    return JournalWriter(journal)


def _reflect(journal: Journal, **kwargs: Any) -> Reflection:
    return reflect(NB, journal.notebook_events(NB, limit=10**6), clock=clock, **kwargs)


def _by_key(reflection: Reflection) -> dict[str, PatternFound]:
    return {p.key: p for p in reflection.patterns}


# -- known patterns --------------------------------------------------------------------------

def test_repeated_key_error_across_cells(journal: Journal, writer: JournalWriter) -> None:
    run = writer.execution()
    pandas_code = "import pandas as pd\nprint(df['price'])"
    writer.cell(run, "c1", [attempt("error", ename="KeyError", evalue="'price'",
                                    code=pandas_code, traceback=PANDAS_TB,
                                    hint="did you mean 'price_usd'?"),
                            attempt("ok", explanation="use the column price_usd")])
    writer.cell(run, "c2", [attempt("error", ename="KeyError", evalue="'qty'\nmore")])
    writer.cell(run, "c3", [attempt("error", ename="KeyError", evalue="'price'")])
    writer.cell(run, "c4", [attempt("error", ename="KeyError", evalue="'x'")],
                expected_error=True)  # raises-exception: not a mistake
    writer.cell(run, "c5", [attempt("error", ename="NameError", evalue="name 'y'")])
    writer.done(run)
    reflection = _reflect(journal)
    assert [p.key for p in reflection.patterns] == ["repeated_error:KeyError"]
    (p,) = reflection.patterns
    assert (p.kind, p.severity, p.count, p.cells) == ("repeated_error", "high", 3,
                                                      ["c1", "c2", "c3"])
    assert p.examples == ["KeyError: 'price'", "KeyError: 'qty'"]
    assert p.scope == {"rule_ids": [], "error_types": ["KeyError"], "libraries": ["pandas"]}
    assert p.fixes == ["use the column price_usd"]
    assert "3 cells (c1, c2, c3)" in p.detail and "final error of 2" in p.detail
    assert p.suggestion.endswith("Hint: did you mean 'price_usd'?")
    assert reflection.execution_ids == [run]


@pytest.mark.parametrize(("unresolved", "severity"), [(0, "low"), (1, "medium"), (2, "high")])
def test_severity_of_an_error_in_two_cells_follows_what_retries_fixed(
        journal: Journal, writer: JournalWriter, unresolved: int, severity: str) -> None:
    run = writer.execution()
    fixed = [attempt("error", ename="TypeError", evalue="bad"), attempt("ok")]
    failing = [attempt("error", ename="TypeError", evalue="bad")]
    writer.cell(run, "a", failing if unresolved >= 1 else fixed)
    writer.cell(run, "b", failing if unresolved == 2 else fixed)
    (p,) = _reflect(journal).patterns
    assert (p.key, p.severity, p.count) == ("repeated_error:TypeError", severity, 2)


def test_one_cell_failing_on_several_runs_is_low(journal: Journal,
                                                  writer: JournalWriter) -> None:
    for _ in range(3):
        run = writer.execution()
        writer.cell(run, "a", [attempt("error", ename="ZeroDivisionError", evalue="division"),
                               attempt("error", ename="ZeroDivisionError", evalue="division")])
    reflection = _reflect(journal)
    (p,) = reflection.patterns
    assert (p.key, p.severity, p.count, p.cells) == ("repeated_error:ZeroDivisionError", "low",
                                                     6, ["a"])
    assert lesson_drafts(reflection) == [] and requests_from(reflection) == []
    # retried within one run only: the retry loop's business, not a pattern
    assert reflect(NB, journal.events("exec-1"), clock=clock).clean


def test_same_finding_in_three_cells(journal: Journal, writer: JournalWriter) -> None:
    leak = finding("leakage.scaler_before_split")
    run = writer.execution()
    code = "from sklearn.preprocessing import StandardScaler\nX = StandardScaler().fit_transform(X)"
    writer.cell(run, "c1", [attempt("scientific_validity_error", findings=[leak], code=code),
                            attempt("ok", explanation="fit the scaler on the training split")])
    writer.cell(run, "c2", [attempt("scientific_validity_error", findings=[leak]),
                            attempt("ok")])
    writer.cell(run, "c3", [attempt("ok", findings=[finding("leakage.scaler_before_split",
                                                            confidence=0.4)])])
    high_only = finding("tests.many", severity="high")
    writer.cell(run, "c4", [attempt("ok", findings=[high_only])])
    writer.cell(run, "c5", [attempt("ok", findings=[high_only, finding("x.medium", "medium")])])
    writer.cell(run, "c6", [attempt("ok", findings=[finding("x.medium", "medium")])])
    writer.cell(run, "c7", [attempt("ok", findings=[finding("x.medium", "medium")])])
    reflection = _reflect(journal)
    patterns = _by_key(reflection)
    assert set(patterns) == {"repeated_finding:leakage.scaler_before_split",
                             "repeated_finding:tests.many"}  # medium findings are not counted
    leak_p = patterns["repeated_finding:leakage.scaler_before_split"]
    assert (leak_p.severity, leak_p.count, leak_p.cells) == ("high", 3, ["c1", "c2", "c3"])
    assert leak_p.examples == ["Title leakage.scaler_before_split"]
    assert leak_p.scope == {"rule_ids": ["leakage.scaler_before_split"], "error_types": [],
                            "libraries": ["sklearn"]}
    assert leak_p.fixes == ["fit the scaler on the training split"]
    assert leak_p.suggestion.startswith("fix leakage.scaler_before_split. ")
    # a high (not critical) finding in 2 cells is one step lower: low
    assert patterns["repeated_finding:tests.many"].severity == "low"
    assert reflection.patterns[0].key == "repeated_finding:leakage.scaler_before_split"
    assert reflection.metrics["retries_by_cause"] == {"error": 0, "critique": 2}


@pytest.mark.parametrize(("ends", "severity"), [
    ("fixed", "low"), ("shown", "medium"), ("blocked", "high")])
def test_severity_of_a_critical_finding_in_two_cells_follows_how_the_cells_ended(
        journal: Journal, writer: JournalWriter, ends: str, severity: str) -> None:
    bad = finding("r.bad")
    last = {"fixed": attempt("ok"), "shown": attempt("ok", findings=[bad]),
            "blocked": attempt("scientific_validity_error", findings=[bad], code="x = 2")}[ends]
    run = writer.execution()
    for cell in ("a", "b"):
        writer.cell(run, cell, [attempt("scientific_validity_error", findings=[bad]), last])
    patterns = _by_key(_reflect(journal))
    assert patterns["repeated_finding:r.bad"].severity == severity
    assert patterns["repeated_finding:r.bad"].count == (2 if ends == "fixed" else 4)


def test_exhausted_critique_budget(journal: Journal, writer: JournalWriter) -> None:
    bad = finding("test.bad_a")
    run = writer.execution()
    writer.cell(run, "c1", [attempt("scientific_validity_error", findings=[bad],
                                    code=f"x = {i}") for i in range(3)],
                escalation="critique_budget_exhausted", tokens=(200, 40))
    reflection = _reflect(journal)
    (p,) = reflection.patterns  # one cell: not a repeated finding
    assert (p.kind, p.key, p.severity, p.count, p.cells) == (
        "budget_exhausted", "budget_exhausted:critique_budget_exhausted", "medium", 1, ["c1"])
    assert p.scope["rule_ids"] == ["test.bad_a"] and p.scope["error_types"] == []
    assert p.examples == ["because critique_budget_exhausted"]
    m = reflection.metrics
    assert m["retries_by_cause"] == {"error": 0, "critique": 2}
    assert (m["attempts"], m["escalations"]) == (3, 1)
    assert m["escalation_patterns"] == {"critique_budget_exhausted": 1}
    assert m["statuses"] == {"scientific_validity_error": 1}


def test_stall_in_two_cells_is_high_and_no_generator_is_no_pattern(
        journal: Journal, writer: JournalWriter) -> None:
    run = writer.execution()
    for cell in ("a", "b"):
        writer.cell(run, cell, [attempt("error", ename="ValueError", evalue="v", code="x = 1"),
                                attempt("error", ename="ValueError", evalue="v", code="x = 2")],
                    escalation="same_error_repeated")
    writer.cell(run, "c", [attempt("scientific_validity_error", findings=[finding("r.one")])],
                escalation="no_code_generator")
    patterns = _by_key(_reflect(journal))
    assert set(patterns) == {"stall:same_error_repeated", "repeated_error:ValueError"}
    stall = patterns["stall:same_error_repeated"]
    assert (stall.kind, stall.severity, stall.count, stall.cells) == ("stall", "high", 2,
                                                                      ["a", "b"])
    assert stall.scope["error_types"] == ["ValueError"]
    # ValueError: 4 attempts in 2 cells, both still failing
    assert patterns["repeated_error:ValueError"].count == 4
    assert patterns["repeated_error:ValueError"].severity == "high"


def test_generator_failures_dead_kernels_and_unknown_escalations(
        journal: Journal, writer: JournalWriter) -> None:
    run = writer.execution()
    for cell in ("p1", "p2"):  # prompt cells whose code could not be generated: no attempt
        writer.cell(run, cell, [], escalation="generator_failed")
    writer.cell(run, "k", [attempt("dead_kernel", ename="DeadKernelError", evalue="died",
                                   code="import numpy as np\nnp.ones(10**12)")])
    writer.cell(run, "u", [attempt("error", ename="OSError", evalue="disk")],
                escalation="some_future_pattern")
    patterns = _by_key(_reflect(journal))
    assert set(patterns) == {"generator_failed", "kernel_failure:dead_kernel",
                             "escalated:some_future_pattern"}
    failed = patterns["generator_failed"]
    assert (failed.kind, failed.severity, failed.count, failed.cells) == (
        "generator_failed", "high", 2, ["p1", "p2"])
    dead = patterns["kernel_failure:dead_kernel"]
    assert (dead.severity, dead.scope) == ("high", {
        "rule_ids": [], "error_types": ["DeadKernelError"], "libraries": ["numpy"]})
    assert patterns["escalated:some_future_pattern"].severity == "medium"
    assert patterns["escalated:some_future_pattern"].headline == (
        "Escalated (some future pattern) in 1 cell")


def test_slow_cells_and_kernel_failures(journal: Journal, writer: JournalWriter) -> None:
    run = writer.execution()
    writer.cell(run, "fast", [attempt(duration_ms=2_000)])
    writer.cell(run, "slow", [attempt(duration_ms=45_000)])
    writer.cell(run, "t", [attempt("timeout", ename="CellTimeoutError",
                                   evalue="cell exceeded its 20 s timeout", duration_ms=20_500)])
    patterns = _by_key(_reflect(journal, slow_cell_ms=30_000))
    slow = patterns["slow_cell"]
    assert (slow.severity, slow.count, slow.cells) == ("low", 1, ["slow"])
    assert slow.examples == ["slow: 45.0 s"]
    timeout = patterns["kernel_failure:timeout"]
    assert (timeout.severity, timeout.cells) == ("medium", ["t"])
    assert timeout.scope["error_types"] == ["CellTimeoutError"]
    assert "repeated_error:CellTimeoutError" not in patterns
    # 4x the threshold: medium; a lower threshold catches more cells
    assert _by_key(_reflect(journal, slow_cell_ms=10_000))["slow_cell"].severity == "medium"
    assert _by_key(_reflect(journal, slow_cell_ms=1_000))["slow_cell"].cells == [
        "slow", "t", "fast"]


def test_overrides_counted_per_rule_over_distinct_cells(journal: Journal,
                                                        writer: JournalWriter) -> None:
    for _ in range(2):  # the same cell overridden on two runs
        run = writer.execution()
        writer.cell(run, "c1", [attempt(findings=[finding("corr.pearson")])],
                    override=["corr.pearson"])
    writer.cell(run, "c2", [attempt(findings=[finding("corr.pearson")])],
                override=["corr.pearson"])
    reflection = _reflect(journal)
    patterns = _by_key(reflection)
    override = patterns["override:corr.pearson"]
    assert (override.severity, override.count, override.cells) == ("medium", 3, ["c1", "c2"])
    assert override.examples == ["c1: flag by ana (synthetic)", "c2: flag by ana (synthetic)"]
    assert reflection.metrics["overrides"] == 3
    assert patterns["repeated_finding:corr.pearson"].cells == ["c1", "c2"]


def test_metrics_are_exact(journal: Journal, writer: JournalWriter) -> None:
    first = writer.execution()
    writer.cell(first, "a", [attempt("error", ename="NameError", evalue="n", duration_ms=100),
                             attempt("ok", duration_ms=50)], tokens=(100, 20))
    writer.cell(first, "b", [attempt(duration_ms=300)])
    writer.cell(first, "skip", [], skipped=True)
    writer.done(first)
    second = writer.execution()
    writer.cell(second, "a", [attempt("scientific_validity_error", findings=[finding("r.x")],
                                      duration_ms=10),
                              attempt("ok", duration_ms=20)], tokens=(300, 60))
    writer.done(second)
    reflection = _reflect(journal)
    assert reflection.clean
    assert reflection.execution_ids == [first, second]
    assert reflection.metrics == {
        "cells": 2, "cell_runs": 3, "attempts": 5,
        "retries_by_cause": {"error": 1, "critique": 1},
        "tokens": {"input": 400, "output": 80, "total": 480},
        "duration_ms": 480.0, "statuses": {"ok": 3, "skipped": 1},
        "escalations": 0, "escalation_patterns": {}, "overrides": 0,
        "slowest_cells": [("b", 300.0), ("a", 150.0)],
    }
    assert reflection.created_at == clock()


# -- clean runs, and what is never reflected on ------------------------------------------------

def test_clean_journal_gives_nothing_to_learn_or_ask(journal: Journal,
                                                     writer: JournalWriter) -> None:
    run = writer.execution()
    writer.cell(run, "a", [attempt()])
    writer.cell(run, "b", [attempt("error", ename="KeyError", evalue="'k'"),
                           attempt("ok")])  # one fixed error in one cell: not a pattern
    writer.cell(run, "c", [attempt(findings=[finding("r.low", "low")])])
    writer.done(run)
    reflection = _reflect(journal)
    assert reflection.clean and reflection.patterns == [] and reflection.suggestions == []
    assert lesson_drafts(reflection) == []
    assert requests_from(reflection) == []
    assert "clean" in reflection.render()


def test_reflection_records_are_ignored(journal: Journal, writer: JournalWriter) -> None:
    run = writer.execution()
    for cell in ("a", "b", "c"):
        writer.cell(run, cell, [attempt("error", ename="KeyError", evalue="'k'")])
    before = _reflect(journal)
    assert before.patterns
    # what a reflection writes: its record, and events of reflection executions of any type
    journal.append(f"{REFLECTION_PREFIX}1", NB, None, "reflection", before.to_dict())
    journal.append(run, NB, None, "improvement", {"id": "r1", "queued": True})
    twin = JournalWriter(journal)
    twin.count = 100
    fake = f"{REFLECTION_PREFIX}2"
    for cell in ("x", "y", "z"):  # failures journaled under a reflection id: never counted
        journal.append(fake, NB, cell, "attempt_started", {"attempt": 1, "code": "1/0"})
        journal.append(fake, NB, cell, "escalated", {"pattern": "generator_failed"})
        journal.append(fake, NB, cell, "final", {"status": "error", "duration_ms": 99_999,
                                                 "attempts": [{"status": "error", "error": {
                                                     "ename": "ZeroDivisionError"}}]})
    after = _reflect(journal)
    assert after.to_dict() == before.to_dict()
    assert _reflect(journal).to_dict() == after.to_dict()  # reflecting twice: the same
    assert fake not in after.execution_ids and f"{REFLECTION_PREFIX}1" not in after.execution_ids
    # a journal holding only reflection records: nothing at all
    only = reflect(NB, journal.events(fake) + journal.events(f"{REFLECTION_PREFIX}1"),
                   clock=clock)
    assert only.clean and only.execution_ids == [] and only.metrics["attempts"] == 0


def test_other_notebooks_events_are_not_mixed_in(journal: Journal,
                                                 writer: JournalWriter) -> None:
    run = writer.execution()
    for cell in ("a", "b"):
        writer.cell(run, cell, [attempt("error", ename="KeyError", evalue="'k'")])
    assert reflect("other-notebook", journal.notebook_events(NB), clock=clock).clean


# -- the record, lessons ----------------------------------------------------------------------

def _problem_journal(writer: JournalWriter) -> None:
    run = writer.execution()
    for cell in ("a", "b", "c"):
        writer.cell(run, cell, [attempt("error", ename="KeyError", evalue=f"'{cell}'",
                                        code="import pandas as pd"),
                                attempt("ok", explanation="use df.columns")])
    writer.cell(run, "d", [attempt("scientific_validity_error", findings=[finding("r.x")]),
                           attempt("scientific_validity_error", findings=[finding("r.x")])],
                escalation="same_finding_survived_fix")
    writer.cell(run, "e", [attempt(duration_ms=40_000)])
    writer.cell(run, "f", [attempt(findings=[finding("r.y")])], override=["r.y"])


def test_to_dict_from_dict_round_trip_and_render(journal: Journal,
                                                 writer: JournalWriter) -> None:
    _problem_journal(writer)
    reflection = _reflect(journal)
    data = json.loads(json.dumps(reflection.to_dict()))
    assert data["clean"] is False
    again = Reflection.from_dict(data)
    assert again == reflection
    text = reflection.render()
    assert text.splitlines()[0] == "Reflection on notebook nb-1 (1 execution): 4 patterns."
    assert "- [medium] KeyError in 3 cells:" in text  # retries fixed all: one step lower
    assert "- [medium] Retry stalled (same finding survived fix) in 1 cell:" in text
    assert "- [low] Rule r.y overridden in 1 cell:" in text
    assert "retries 3 error / 1 critique" in text


@pytest.mark.parametrize(("data", "message"), [
    ([], "reflection: must be an object"),
    ({"patterns": []}, "notebook_id: is required"),
    ({"notebook_id": 3}, "notebook_id: must be a string, not int"),
    ({"notebook_id": "n", "patterns": [{"kind": "stall", "key": "k", "severity": "huge",
                                        "count": 1, "cells": [], "detail": ""}]},
     "patterns[0].severity: must be one of info, low, medium, high, critical, not 'huge'"),
    ({"notebook_id": "n", "patterns": [{"kind": "stall", "key": "k", "severity": "low",
                                        "count": True, "cells": [], "detail": ""}]},
     "patterns[0].count: must be an integer, not a boolean"),
    ({"notebook_id": "n", "patterns": [{"kind": "stall", "key": "k", "severity": "low",
                                        "count": 1, "cells": ["a", 2], "detail": ""}]},
     "patterns[0].cells[1]: must be a string"),
    ({"notebook_id": "n", "metrics": {"slowest_cells": [["a"]]}},
     "metrics.slowest_cells: must be a list of [cell_id, ms] pairs"),
])
def test_from_dict_names_the_bad_field(data: Any, message: str) -> None:
    with pytest.raises(ReflectionError) as info:
        Reflection.from_dict(data)
    assert str(info.value) == message


def test_reflect_checks_its_threshold() -> None:
    with pytest.raises(ReflectionError, match=r"^slow_cell_ms: must be a number > 0"):
        reflect(NB, [], slow_cell_ms=0)


def test_lesson_drafts(journal: Journal, writer: JournalWriter) -> None:
    _problem_journal(writer)
    reflection = _reflect(journal)
    drafts = lesson_drafts(reflection)
    # slow cells and overrides are for people (improvement requests), not lessons
    assert [(d["title"], d["category"], d["severity"]) for d in drafts] == [
        ("KeyError in several cells", "mistake", "medium"),
        ("Retry stalled: same finding survived fix (r.x)", "pattern", "medium"),
    ]
    key_error = drafts[0]
    assert key_error["what_fixed_it"] == "use df.columns"
    assert key_error["what_went_wrong"] == (
        "KeyError was raised in several cells of one run. Seen: KeyError: 'a'; KeyError: 'b'; "
        "KeyError: 'c'.")
    assert key_error["scope"] == {"rule_ids": [], "error_types": ["KeyError"],
                                  "libraries": ["pandas"], "columns": [],
                                  "tags": ["reflection", "repeated_error"]}
    assert key_error["source"] == {"notebook_id": NB, "reflection": True,
                                   "pattern_key": "repeated_error:KeyError",
                                   "execution_ids": ["exec-1"]}
    assert drafts[1]["scope"]["rule_ids"] == ["r.x"] and drafts[1]["what_fixed_it"] == ""


def test_lesson_drafts_are_valid_lessons(journal: Journal, writer: JournalWriter) -> None:
    lessons = pytest.importorskip("services.lessons")  # written in parallel (issue 6)
    _problem_journal(writer)
    for draft in lesson_drafts(_reflect(journal)):
        lesson = lessons.Lesson.from_dict(draft)
        assert lesson.title == draft["title"] and lesson.source["reflection"] is True


# -- a REAL journal from the service --------------------------------------------------------

@rule("test.bad_marker", family="test", title="Uses BAD_MARKER")
def _bad_marker(ev: Evidence) -> list[Finding]:
    lines = [i for i, text in enumerate(ev.code.splitlines(), 1) if "BAD_MARKER" in text]
    return [Finding(explanation="BAD_MARKER makes the result invalid", severity="critical",
                    confidence=0.9, evidence={"lines": lines}, suggestion="drop BAD_MARKER")
            ] if lines else []


async def test_reflection_over_a_real_service_journal(tmp_path: Path) -> None:
    from services.cell_review import CellReviewer
    from services.notebook_service import ExecuteOptions, NotebookService
    from services.scripted_generator import ScriptedGenerator

    from .conftest import make_settings

    config = make_settings(tmp_path)
    gen = ScriptedGenerator(usage=TokenUsage(100, 20))
    critic = AnalysisCritic(rules=[_bad_marker], load_plugins=False)
    svc = NotebookService(config, reviewer=CellReviewer(config, critic=critic), generator=gen)
    await svc.start()
    try:
        nb = await svc.create_notebook()
        fixed = (await svc.add_cell(nb, source="total = fourty + 2")).id
        stalled = (await svc.add_cell(nb, source="y = 'BAD_MARKER'")).id
        # cell 1: NameError fixed on retry; cell 2: the same finding survives the fix
        gen.queue("total = 40 + 2", "z = 2\ny = 'BAD_MARKER'")
        results = await svc.run_all(nb, ExecuteOptions(max_critique_retries=3))
        events = svc.journal.notebook_events(nb, limit=10**6)
    finally:
        await svc.stop()
    assert [r.status.value for r in results] == ["ok", "scientific_validity_error"]
    reflection = reflect(nb, events, clock=clock)
    assert reflection.execution_ids == [results[0].execution_id]
    (p,) = reflection.patterns
    assert (p.key, p.severity, p.count, p.cells) == (
        "stall:same_finding_survived_fix", "medium", 1, [stalled])
    assert p.scope["rule_ids"] == ["test.bad_marker"]
    m = reflection.metrics
    assert (m["cells"], m["cell_runs"], m["attempts"]) == (2, 2, 4)
    assert m["retries_by_cause"] == {"error": 1, "critique": 1}
    assert m["tokens"] == {"input": 200, "output": 40, "total": 240}
    assert m["statuses"] == {"ok": 1, "scientific_validity_error": 1}
    assert (m["escalations"], m["overrides"]) == (1, 0)
    assert m["duration_ms"] == pytest.approx(sum(r.duration_ms for r in results), abs=0.01)
    assert {cell for cell, _ in m["slowest_cells"]} == {fixed, stalled}
    assert [d["title"] for d in lesson_drafts(reflection)] == [
        "Retry stalled: same finding survived fix (test.bad_marker)"]
    assert requests_from(reflection) == []  # one medium pattern: a lesson, not a request
