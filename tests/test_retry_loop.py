"""The critique-driven retry loop through real kernels, with a scripted code generator:
errors and critical findings fixed on retry, budgets (error vs critique) respected exactly,
stalls escalating early, low-confidence findings not blocking, overrides (unchanged re-run,
flag, accepted findings) and what clears them, feedback about each attempt's own code, the
replay option, prompt cells, token budgets and the events of it all."""

from __future__ import annotations

import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from critics import AnalysisCritic, Evidence, Finding, Rule, rule
from services.cell_metadata import fingerprint
from services.cell_review import CellReviewer
from services.code_generator import GeneratorError, TokenUsage
from services.notebook_service import ExecuteOptions, NotebookService
from services.scripted_generator import ScriptedGenerator

from .conftest import make_settings


def _marker_rule(marker: str, confidence: float = 0.9) -> Rule:
    @rule(f"test.{marker.lower()}", family="test", title=f"Uses {marker}")
    def flags(ev: Evidence) -> list[Finding]:
        lines = [i for i, text in enumerate(ev.code.splitlines(), 1) if marker in text]
        if not lines:
            return []
        return [Finding(explanation=f"{marker} makes the result invalid", severity="critical",
                        confidence=confidence, evidence={"lines": lines},
                        suggestion=f"do not use {marker}")]
    return flags


RULES = [_marker_rule("BAD_A"), _marker_rule("BAD_B"), _marker_rule("UNSURE", 0.5)]


async def _service(tmp_path: Path, generator: ScriptedGenerator | None,
                   rules: list[Any] | None = RULES, **overrides: Any) -> NotebookService:
    config = make_settings(tmp_path, **overrides)
    critic = AnalysisCritic(rules=rules, load_plugins=False) if rules is not None else None
    svc = NotebookService(config, reviewer=CellReviewer(config, critic=critic),
                          generator=generator)
    await svc.start()
    return svc


@pytest.fixture
def gen() -> ScriptedGenerator:
    return ScriptedGenerator(usage=TokenUsage(100, 20))


@pytest.fixture
async def svc(tmp_path: Path, gen: ScriptedGenerator) -> AsyncIterator[NotebookService]:
    service = await _service(tmp_path, gen)
    try:
        yield service
    finally:
        await service.stop()


async def _cell(svc: NotebookService, *sources: str, **cell_kwargs: Any) -> tuple[str, list[str]]:
    nb = await svc.create_notebook()
    ids = [(await svc.add_cell(nb, source=textwrap.dedent(s), **cell_kwargs)).id
           for s in sources]
    return nb, ids


async def _run(svc: NotebookService, nb: str, cell: str, **options: Any) -> Any:
    return await svc.execute_cell(nb, cell, ExecuteOptions(**options))


def _events(svc: NotebookService, nb: str, types: tuple[str, ...] | None = None) -> list[Any]:
    return svc.journal.notebook_events(nb, types=types)


# -- fixed on retry ------------------------------------------------------------------------

async def test_error_fixed_on_retry(svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("total = 40 + 2\nprint(total)")
    nb, (cell,) = await _cell(svc, "total = fourty + 2\nprint(total)")
    result = await _run(svc, nb, cell)
    assert result.status.value == "ok"
    assert [a["status"] for a in result.attempts] == ["error", "ok"]
    assert result.attempts[0]["error"]["ename"] == "NameError"
    assert result.attempts[1]["cause"] == "error" and result.attempts[1]["generated"]
    assert result.outputs[0]["text"] == "42\n"
    (call,) = gen.calls
    assert call.kind == "fix" and call.code == "total = fourty + 2\nprint(total)"
    assert "NameError" in call.feedback and "fourty" in call.feedback
    # the notebook keeps the working code; the original is the first attempt's
    stored = svc.get_cell(nb, cell)
    assert stored.source == "total = 40 + 2\nprint(total)"
    assert stored.metadata["nbcritic"]["attempts"][0]["code"].startswith("total = fourty")
    assert stored.metadata["nbcritic"]["status"] == "ok"
    assert "escalation" not in stored.metadata["nbcritic"]
    assert result.tokens == {"input_tokens": 100, "output_tokens": 20, "total": 120}


SETUP = """
import numpy as np
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
X, y = load_diabetes(return_X_y=True)
"""
LEAKY = """
X_scaled = StandardScaler().fit_transform(X)
X_train, X_test, y_train, y_test = train_test_split(X_scaled, y, random_state=0)
model = Ridge().fit(X_train, y_train)
print(f"test R2 = {model.score(X_test, y_test):.3f}")
"""
FIXED = """
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
scaler = StandardScaler().fit(X_train)
model = Ridge().fit(scaler.transform(X_train), y_train)
print(f"test R2 = {model.score(scaler.transform(X_test), y_test):.3f}")
"""


async def test_critical_finding_fixed_on_retry_with_the_real_rules(
        tmp_path: Path, gen: ScriptedGenerator) -> None:
    svc = await _service(tmp_path, gen, rules=None)  # the built-in rules
    try:
        gen.queue(FIXED)
        nb, (_, cell) = await _cell(svc, SETUP, LEAKY)
        await _run(svc, nb, _)
        result = await _run(svc, nb, cell)
    finally:
        await svc.stop()
    first, second = result.attempts
    assert first["status"] == "scientific_validity_error"
    assert first["error"]["ename"] == "ScientificValidityError"
    assert "leakage.fit_saw_heldout_rows" in {f["rule_id"] for f in first["findings"]}
    assert second["status"] == "ok" and second["cause"] == "critique"
    assert result.status.value == "ok"
    assert not [f for f in result.critique["findings"] if f["severity"] == "critical"]
    feedback = gen.calls[0].feedback
    assert "leakage.fit_saw_heldout_rows" in feedback
    assert "fit_transform" in feedback  # the finding's evidence line, quoted from the code


# -- budgets -------------------------------------------------------------------------------

async def test_error_budget_respected_exactly(svc: NotebookService,
                                              gen: ScriptedGenerator) -> None:
    gen.queue("1/0", "[][3]", "{}['k']", "print('never asked for')")
    nb, (cell,) = await _cell(svc, "undefined_thing")
    result = await _run(svc, nb, cell, max_error_retries=2)
    assert len(result.attempts) == 3 and len(gen.calls) == 2
    assert result.status.value == "error"
    assert result.escalation["pattern"] == "error_budget_exhausted"
    assert result.escalation["retries_used"] == {"error": 2, "critique": 0}
    assert [a["summary"].split(":")[0] for a in result.escalation["attempts"]] == [
        "NameError", "ZeroDivisionError", "IndexError"]
    assert result.escalation["question"].endswith("?")
    # the cell keeps the last attempt: its code, outputs, status
    stored = svc.get_cell(nb, cell)
    assert stored.source == "[][3]"
    assert stored.outputs[0]["ename"] == "IndexError"
    assert stored.metadata["nbcritic"]["escalation"]["pattern"] == "error_budget_exhausted"


async def test_critique_budget_respected_exactly(svc: NotebookService,
                                                 gen: ScriptedGenerator) -> None:
    gen.queue("x = 'BAD_B'", "x = 'BAD_A'  # again", "x = 'fine'")
    nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
    result = await _run(svc, nb, cell)  # settings: max_critique_retries = 2
    assert [a["status"] for a in result.attempts] == ["scientific_validity_error"] * 3
    assert len(gen.calls) == 2 and gen.pending == 1
    assert result.status.value == "scientific_validity_error"
    assert result.escalation["pattern"] == "critique_budget_exhausted"
    assert "Uses BAD_A" in result.escalation["question"]


async def test_error_and_critique_budgets_are_separate(svc: NotebookService,
                                                       gen: ScriptedGenerator) -> None:
    gen.queue("x = 'BAD_A'", "x = 1/0", "x = 'fine'")
    nb, (cell,) = await _cell(svc, "x = missing")
    result = await _run(svc, nb, cell, max_error_retries=1, max_critique_retries=1)
    # error (1 error retry used) -> critique (1 critique retry used) -> error: error budget out
    assert [a["status"] for a in result.attempts] == [
        "error", "scientific_validity_error", "error"]
    assert result.escalation["pattern"] == "error_budget_exhausted"
    assert result.escalation["retries_used"] == {"error": 1, "critique": 1}


async def test_zero_budgets_mean_no_retry_and_cell_metadata_sets_budgets(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    nb, (cell,) = await _cell(svc, "x = missing",
                              metadata={"nbcritic": {"max_error_retries": 0}})
    result = await _run(svc, nb, cell)
    assert len(result.attempts) == 1 and not gen.calls
    assert result.escalation["pattern"] == "error_budget_exhausted"
    # the request wins over the cell
    gen.queue("x = 1")
    result = await _run(svc, nb, cell, max_error_retries=1)
    assert result.status.value == "ok" and len(gen.calls) == 1


# -- stalls --------------------------------------------------------------------------------

async def test_same_finding_surviving_a_fix_escalates_early(svc: NotebookService,
                                                            gen: ScriptedGenerator) -> None:
    gen.queue("y = 2\nx = 'BAD_A'", "x = 'fine'")
    nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
    result = await _run(svc, nb, cell, max_critique_retries=5)
    assert len(result.attempts) == 2 and len(gen.calls) == 1
    assert result.escalation["pattern"] == "same_finding_survived_fix"


async def test_generator_repeating_tried_code_escalates_without_running_it(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("x = missing  \n\n", "x = 1")
    nb, (cell,) = await _cell(svc, "x = missing")
    result = await _run(svc, nb, cell)
    assert len(result.attempts) == 1 and len(gen.calls) == 1
    assert result.escalation["pattern"] == "generator_repeated_code"
    assert result.status.value == "error"


async def test_same_error_twice_escalates(svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("# second try\nx = missing", "x = 1")
    nb, (cell,) = await _cell(svc, "x = missing")
    result = await _run(svc, nb, cell)
    assert len(result.attempts) == 2
    assert result.escalation["pattern"] == "same_error_repeated"


async def test_generator_failure_escalates(svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue(GeneratorError("API error 529 (OverloadedError): overloaded"))
    nb, (cell,) = await _cell(svc, "x = missing")
    result = await _run(svc, nb, cell)
    assert result.escalation["pattern"] == "generator_failed"
    assert "529" in result.escalation["reason"] and "529" in result.escalation["question"]
    assert result.status.value == "error" and len(result.attempts) == 1


async def test_generator_failure_after_a_block_names_the_api_failure(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue(GeneratorError("API error 529 (OverloadedError): overloaded"))
    nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
    result = await _run(svc, nb, cell)
    assert result.escalation["pattern"] == "generator_failed"
    question = result.escalation["question"]
    assert "529" in question and "Uses BAD_A" in question


async def test_a_cut_suggestion_never_leaves_a_code_span_open(tmp_path: Path) -> None:
    long = ("wrap the estimator as `make_pipeline(StandardScaler(), "
            + "PolynomialFeatures(degree=2), " * 20 + "Ridge())` and refit")

    @rule("test.long_fix", family="test", title="Needs a long fix")
    def long_fix(ev: Evidence) -> list[Finding]:
        return [Finding(explanation="x", severity="critical", confidence=0.9,
                        evidence={"lines": [1]}, suggestion=long)]

    svc = await _service(tmp_path, None, rules=[long_fix])
    try:
        nb, (cell,) = await _cell(svc, "x = 1")
        result = await _run(svc, nb, cell)
    finally:
        await svc.stop()
    question = result.escalation["question"]
    assert "…" in question and question.count("`") % 2 == 0


async def test_the_fix_prompt_knows_blocked_from_failed_and_skips_noise(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("x = 'fine'", "total = 1")
    nb, (setup, blocked, failing) = await _cell(
        svc, "sales = [1, 2]", "x = 'BAD_A'",
        "X_tmp = [1, 2]\nfrom collections import OrderedDict\ntotal = undefined_name")
    await _run(svc, nb, setup)
    await _run(svc, nb, blocked)
    await _run(svc, nb, failing)
    on_block, on_error = gen.calls
    assert on_block.context.status == "scientific_validity_error"
    assert on_error.context.status == "error"
    names = {v.name for v in on_error.context.variables}
    assert "sales" in names  # an earlier cell's data
    assert "X_tmp" not in names  # left behind by the failed attempt
    assert "OrderedDict" not in names  # an imported class


async def test_token_budget_stops_the_loop(tmp_path: Path) -> None:
    gen = ScriptedGenerator(usage=TokenUsage(700, 100))
    svc = await _service(tmp_path, gen, cell_token_budget=1000)
    try:
        gen.queue("x = missing2", "x = missing3", "x = 1")
        nb, (cell,) = await _cell(svc, "x = missing")
        result = await _run(svc, nb, cell)
    finally:
        await svc.stop()
    # 800 tokens after the first fix, 1600 after the second: no third request
    assert len(gen.calls) == 2
    assert result.escalation["pattern"] == "token_budget_exhausted"
    assert result.tokens["total"] == 1600


# -- what does not block -------------------------------------------------------------------

async def test_low_confidence_critical_finding_does_not_block(svc: NotebookService,
                                                              gen: ScriptedGenerator) -> None:
    nb, (cell,) = await _cell(svc, "x = 'UNSURE'")
    result = await _run(svc, nb, cell)
    assert result.status.value == "ok" and len(result.attempts) == 1 and not gen.calls
    (finding,) = result.critique["findings"]
    assert finding["severity"] == "critical" and finding["confidence"] == 0.5


async def test_min_confidence_setting_decides_what_blocks(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None, critic_min_confidence=0.4)
    try:
        nb, (cell,) = await _cell(svc, "x = 'UNSURE'")
        result = await _run(svc, nb, cell)
    finally:
        await svc.stop()
    assert result.status.value == "scientific_validity_error"


async def test_expected_error_and_no_generator_are_not_retried(tmp_path: Path) -> None:
    gen = ScriptedGenerator(["x = 1"])
    svc = await _service(tmp_path, gen)
    try:
        nb, (cell,) = await _cell(svc, "1/0", metadata={"tags": ["raises-exception"]})
        result = await _run(svc, nb, cell)
        assert result.expected_error and len(result.attempts) == 1 and not gen.calls
        nb2, (cell2,) = await _cell(svc, "1/0")
        result = await _run(svc, nb2, cell2, auto_fix=False)
        assert result.status.value == "error" and result.escalation is None and not gen.calls
        assert result.attempts[0]["analysis"]["ename"] == "ZeroDivisionError"
    finally:
        await svc.stop()


async def test_without_a_generator_a_blocked_cell_escalates_with_a_question(
        tmp_path: Path) -> None:
    svc = await _service(tmp_path, None)
    try:
        nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
        result = await _run(svc, nb, cell)
    finally:
        await svc.stop()
    assert result.status.value == "scientific_validity_error"
    assert result.escalation["pattern"] == "no_code_generator"
    assert "override" in result.escalation["question"]
    assert result.outputs[-1]["output_type"] == "error"
    assert result.outputs[-1]["ename"] == "ScientificValidityError"
    assert set(result.outputs[-1]) == {"output_type", "ename", "evalue", "traceback"}
    assert "BAD_A makes the result invalid" in result.error["evalue"]
    assert "do not use BAD_A" in result.error["evalue"]


# -- overrides -----------------------------------------------------------------------------

async def test_unchanged_rerun_overrides_and_changed_code_clears_it(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None)
    try:
        nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
        blocked = await _run(svc, nb, cell)
        assert blocked.status.value == "scientific_validity_error"
        assert "blocked" in svc.get_cell(nb, cell).metadata["nbcritic"]
        rerun = await _run(svc, nb, cell, override_by="ana")
        assert rerun.status.value == "ok"
        overridden = rerun.critique["overridden"]
        assert overridden["how"] == "unchanged_rerun" and overridden["findings"] == [
            "test.bad_a"]
        # who, how and on which code
        assert overridden["by"] == "ana" and overridden["generated"] is False
        assert overridden["fingerprint"] == fingerprint("x = 'BAD_A'", None)
        assert rerun.critique["findings"][0]["rule_id"] == "test.bad_a"  # still stored
        (event,) = _events(svc, nb, ("override_applied",))
        assert event.data["how"] == "unchanged_rerun"
        # blocked again after an edit (the marker no longer matches)
        await svc.update_cell(nb, cell, source="x = 'BAD_A'  # edited")
        edited = await _run(svc, nb, cell)
        assert edited.status.value == "scientific_validity_error"
    finally:
        await svc.stop()


async def test_run_all_twice_never_overrides(tmp_path: Path) -> None:
    svc = await _service(tmp_path, None)
    try:
        nb, (_, cell) = await _cell(svc, "y = 1", "x = 'BAD_A'")
        for _ in range(2):
            results = await svc.run_all(nb)
            assert [r.status.value for r in results] == ["ok", "scientific_validity_error"]
            assert results[1].override is None
        assert not _events(svc, nb, ("override_applied",))
        (*_, last) = [e for e in _events(svc, nb, ("done",))]
        assert last.data["blocked"] == [cell]
    finally:
        await svc.stop()


async def test_rerun_after_escalation_does_not_override_generated_code(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("x = 'BAD_A'  # still")
    nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
    escalated = await _run(svc, nb, cell)
    assert escalated.escalation["pattern"] == "same_finding_survived_fix"
    stored = svc.get_cell(nb, cell)
    assert stored.source == "x = 'BAD_A'  # still"  # the generator's code, never shown blocked
    assert stored.metadata["nbcritic"]["blocked"]["generated"] is True
    rerun = await _run(svc, nb, cell, auto_fix=False)
    assert rerun.status.value == "scientific_validity_error" and rerun.override is None


async def test_accepted_findings_do_not_cover_generated_code(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    nb, (setup, cell) = await _cell(svc, "data = {'k': 1}", "y = data['k']  # BAD_A")
    await _run(svc, nb, setup)
    assert (await _run(svc, nb, cell, auto_fix=False)).status.value == (
        "scientific_validity_error")
    await svc.accept_findings(nb, cell, by="lead")
    await svc.restart(nb)  # `data` is gone: the accepted code now fails
    gen.queue("y = 1  # BAD_A rewritten")
    result = await _run(svc, nb, cell, max_critique_retries=0)
    assert [a["status"] for a in result.attempts] == ["error", "scientific_validity_error"]
    assert result.override is None and "overridden" not in result.critique


async def test_override_flag_is_recorded_with_who(svc: NotebookService,
                                                  gen: ScriptedGenerator) -> None:
    nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
    result = await _run(svc, nb, cell, override_critic=True, override_by="ana")
    assert result.status.value == "ok" and not gen.calls
    assert result.critique["overridden"]["how"] == "flag"
    assert result.critique["overridden"]["by"] == "ana"
    assert result.override["by"] == "ana"
    stored = svc.get_cell(nb, cell).metadata["nbcritic"]
    assert stored["critique"]["overridden"]["by"] == "ana"
    assert stored["last_override"]["how"] == "flag"


async def test_accepted_findings_hold_until_the_code_changes(svc: NotebookService,
                                                             gen: ScriptedGenerator) -> None:
    nb, (cell,) = await _cell(svc, "x = 'BAD_A'")
    await _run(svc, nb, cell, auto_fix=False)
    record = await svc.accept_findings(nb, cell, by="lead", reason="synthetic data")
    assert record["findings"] == ["test.bad_a"]
    assert (await _run(svc, nb, cell)).critique["overridden"]["how"] == "accepted"
    assert (await _run(svc, nb, cell)).status.value == "ok"  # holds for every re-run
    await svc.update_cell(nb, cell, source="x = 'BAD_A' + ''")
    assert "override" not in svc.get_cell(nb, cell).metadata["nbcritic"]
    result = await _run(svc, nb, cell, auto_fix=False)
    assert result.status.value == "scientific_validity_error"
    accepted = [e for e in _events(svc, nb, ("override_applied",)) if e.data["how"] == "accepted"]
    assert accepted and accepted[0].data["by"] == "lead"


# -- feedback, history, replay, prompts, events ----------------------------------------------

async def test_feedback_on_retry_n_is_about_attempt_n(svc: NotebookService,
                                                      gen: ScriptedGenerator) -> None:
    second = "a = 1\nb = 0\nc = a / b\n"
    gen.queue(second, "c = 1")
    nb, (cell,) = await _cell(svc, "c = nope")
    result = await _run(svc, nb, cell)
    assert result.status.value == "ok" and len(result.attempts) == 3
    first_call, second_call = gen.calls
    assert "NameError" in first_call.feedback and "line 1" in first_call.feedback
    assert second_call.code == second
    assert "ZeroDivisionError" in second_call.feedback and "line 3" in second_call.feedback
    assert "NameError" not in second_call.feedback
    assert [h.attempt for h in second_call.history] == [1]
    assert "NameError" in second_call.history[0].feedback
    assert result.attempts[0]["feedback"] == first_call.feedback
    assert result.attempts[1]["feedback"] == second_call.feedback


async def test_context_carries_earlier_cells_and_kernel_variables(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue("print(sales['units'].sum())")
    nb, (_, cell) = await _cell(
        svc, "import pandas as pd\nsales = pd.DataFrame({'units': [1, 2], 'city': ['a', 'b']})",
        "print(sales['unit'].sum())")
    await _run(svc, nb, _)
    result = await _run(svc, nb, cell)
    assert result.status.value == "ok"
    context = gen.calls[0].context
    assert any("sales = pd.DataFrame" in c for c in context.prior_cells)
    sales = {v.name: v for v in context.variables}["sales"]
    assert sales.columns["units"] == "int64" and set(sales.columns) == {"units", "city"}
    assert sales.shape == [2, 2]
    assert "units" in gen.calls[0].feedback  # the KeyError hint names the close column


async def test_replay_option_starts_the_retry_from_a_clean_namespace(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    dirty = "data.append(99)\nraise ValueError('half done')"
    nb, (_, cell) = await _cell(svc, "data = [1, 2, 3]", dirty)
    await _run(svc, nb, _)
    gen.queue("print(len(data))")
    without = await _run(svc, nb, cell)
    assert without.outputs[0]["text"] == "4\n"  # the failed attempt's append is still there
    await svc.update_cell(nb, cell, source=dirty)
    await svc.restart(nb)
    await _run(svc, nb, _)
    kernel_before = svc.kernel_state(nb)["id"]
    gen.queue("print(len(data)) # clean")
    with_replay = await _run(svc, nb, cell, replay_before_retry=True)
    assert with_replay.outputs[0]["text"] == "3\n"
    assert svc.kernel_state(nb)["id"] != kernel_before
    (replay,) = [e for e in _events(svc, nb, ("replay",))]
    assert replay.data["cells"] == 1 and replay.data["ok"] is True


async def test_prompt_cell_generated_then_fixed(svc: NotebookService,
                                                gen: ScriptedGenerator) -> None:
    gen.queue("print(undefined_total)", "print(6 * 7)")
    nb = await svc.create_notebook()
    cell = (await svc.add_cell(nb, prompt="print the answer")).id
    result = await _run(svc, nb, cell)
    assert result.status.value == "ok" and result.outputs[0]["text"] == "42\n"
    assert [c.kind for c in gen.calls] == ["generate", "fix"]
    assert gen.calls[0].prompt == "print the answer" and gen.calls[1].prompt == "print the answer"
    assert result.attempts[0]["generated"] and result.attempts[0]["tokens"]["total"] == 120
    stored = svc.get_cell(nb, cell)
    assert stored.source == "print(6 * 7)"
    assert stored.metadata["nbcritic"]["prompt"] == "print the answer"


async def test_prompt_cell_whose_generation_fails_is_an_escalated_error(
        svc: NotebookService, gen: ScriptedGenerator) -> None:
    gen.queue(GeneratorError("could not connect"))
    nb = await svc.create_notebook()
    cell = (await svc.add_cell(nb, prompt="plot it")).id
    result = await _run(svc, nb, cell)
    assert result.status.value == "error"
    assert result.error["ename"] == "CodeGenerationError"
    assert result.escalation["pattern"] == "generator_failed"
    stored = svc.get_cell(nb, cell)
    assert stored.source == "" and stored.outputs[0]["ename"] == "CodeGenerationError"


async def test_events_of_a_retried_cell_in_order(svc: NotebookService,
                                                 gen: ScriptedGenerator) -> None:
    gen.queue("x = 'BAD_B'", "x = 'BAD_A' # 3")
    nb, (cell,) = await _cell(svc, "x = missing")
    result = await _run(svc, nb, cell, max_critique_retries=1)
    types = [e.type for e in _events(svc, nb) if e.type not in ("status", "kernel", "stream")]
    assert types == ["attempt_started", "error", "retry_scheduled",
                     "attempt_started", "critique", "retry_scheduled",
                     "attempt_started", "critique", "escalated", "lessons", "final", "done"]
    retry = _events(svc, nb, ("retry_scheduled",))[1].data
    assert retry["cause"] == "critique" and retry["attempt"] == 3
    assert retry["retries_used"] == {"error": 1, "critique": 0}
    assert result.escalation["pattern"] == "critique_budget_exhausted"
    final = _events(svc, nb, ("final",))[0].data
    assert len(final["attempts"]) == 3 and final["escalation"] == result.escalation
