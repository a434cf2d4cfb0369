"""nbcritic's pytest plugin (app/pytest_plugin.py): registered through the `pytest11` entry
point; the example users copy (examples/test_analysis_example.py) passes in pytest-asyncio's
auto and strict modes; failures read well and leave no kernel behind; the marker's settings
and rules reach the service, unknown settings fail naming them; the assertion helpers fail
when the behaviour is not there."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from app.pytest_plugin import (
    NbcriticHarness,
    assert_attempts,
    assert_blocked,
    assert_escalated,
    assert_findings,
    assert_no_findings,
    assert_status,
    build_config,
    build_service,
    marker_settings,
)
from critics import Evidence, Finding, rule
from services.cell_result import CellResult
from services.scripted_generator import ScriptedGenerator
from services.status import CellStatus

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "test_analysis_example.py"
RUN_ARGS = ("-p", "no:cacheprovider", "--strict-markers",
            "-o", "asyncio_default_fixture_loop_scope=function")


def _marker_rule(marker: str, confidence: float) -> Any:
    @rule(f"acme.{marker.lower()}", title=f"Uses {marker}")
    def flags(ev: Evidence) -> list[Finding]:
        lines = [i for i, text in enumerate(ev.code.splitlines(), 1) if marker in text]
        return [Finding(explanation=f"{marker} is not allowed", severity="critical",
                        confidence=confidence, evidence={"lines": lines})] if lines else []
    return flags


BAD = _marker_rule("BAD", 0.95)
UNSURE = _marker_rule("UNSURE", 0.6)


# -- registration ------------------------------------------------------------------------

def test_registered_through_the_pytest11_entry_point(pytestconfig: pytest.Config) -> None:
    (ep,) = [e for e in entry_points(group="pytest11") if e.name == "nbcritic"]
    assert ep.value == "app.pytest_plugin"
    assert pytestconfig.pluginmanager.has_plugin("nbcritic")  # loaded in our own session too
    assert any(line.startswith("nbcritic(") for line in pytestconfig.getini("markers"))


# -- the example file, run as a user would ---------------------------------------------------

@pytest.mark.parametrize("mode", ["auto", "strict"])
def test_the_example_passes(pytester: pytest.Pytester, mode: str) -> None:
    pytester.makepyfile(test_analysis_example=EXAMPLE.read_text())
    result = pytester.runpytest_subprocess(*RUN_ARGS, "-o", f"asyncio_mode={mode}")
    result.assert_outcomes(passed=4)
    assert re.search(r"^plugins:.*\bnbcritic-", result.stdout.str(), re.M)  # the entry point


FAILING = '''
import os, time
from pathlib import Path
import pytest
from critics import Evidence, Finding, rule

SETUP = """
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    X, y = load_diabetes(return_X_y=True)
"""
PIDS = []

async def test_1_fails_readably(nbcritic, nbcritic_service):
    result = await nbcritic.run("""
        X_scaled = StandardScaler().fit_transform(X)
        X_train, X_test, y_train, y_test = train_test_split(X_scaled, y, random_state=0)
        print(Ridge().fit(X_train, y_train).score(X_test, y_test))
    """, setup=SETUP)
    PIDS.extend(s.km.provisioner.process.pid for s in nbcritic_service.pool._live)
    nbcritic.assert_status(result, "ok")

def test_2_the_failed_test_left_no_kernel():
    assert PIDS
    deadline = time.monotonic() + 15
    while PIDS and time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{PIDS[0]}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            state = "gone"
        if state in ("gone", "Z"):
            PIDS.pop(0)
        else:
            time.sleep(0.1)
    assert not PIDS, f"kernel processes still running: {PIDS}"

@pytest.mark.nbcritic(critic_min_confidenc=0.5)
async def test_3_unknown_setting(nbcritic):
    pass

@pytest.mark.nbcritic(rules=["not a rule"])
async def test_4_not_a_rule(nbcritic):
    pass

@pytest.mark.nbcritic(builtin_rules=False)
async def test_5_unknown_option(nbcritic):
    await nbcritic.run("1", retries=3)
'''


def test_failures_are_readable_and_leave_no_kernel(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_failing=FAILING)
    result = pytester.runpytest_subprocess(*RUN_ARGS, "-o", "asyncio_mode=auto")
    result.assert_outcomes(passed=1, failed=2, errors=2)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        "E       AssertionError: expected status 'ok', got 'scientific_validity_error'",
        "E       status: scientific_validity_error (ScientificValidityError: blocked by the "
        "critic)",
        "E       attempts: 1",
        "E         1. scientific_validity_error ScientificValidityError blocked by "
        "leakage.fit_saw_heldout_rows",
        "E       findings of the last attempt: *",
        "E         CRITICAL (0.*) leakage.fit_saw_heldout_rows line *: A step before *",
        "E       escalation: generator_failed - *no answer left",
    ])
    assert "in nbcritic.assert_status(result, \"ok\")" not in out  # the user's line, not ours
    assert ">       nbcritic.assert_status(result, \"ok\")" in out
    assert ("@pytest.mark.nbcritic: unknown setting 'critic_min_confidenc' "
            "(did you mean 'critic_min_confidence'?)") in out
    assert "rules=[...] holds 'not a rule', not a Rule" in out
    assert "unknown execute option(s) 'retries'" in out


# -- the marker reaches the service (in this session, real kernels) ----------------------------

@pytest.mark.parametrize("min_confidence, status", [
    pytest.param(0.8, "ok", marks=pytest.mark.nbcritic(rules=[UNSURE], builtin_rules=False)),
    pytest.param(0.5, "scientific_validity_error", marks=pytest.mark.nbcritic(
        rules=[UNSURE], builtin_rules=False, critic_min_confidence=0.5, auto_fix=False)),
])
async def test_the_markers_min_confidence_decides_blocking(
        nbcritic: NbcriticHarness, min_confidence: float, status: str) -> None:
    assert nbcritic.service.config.critic_min_confidence == min_confidence
    result = await nbcritic.run("x = 'UNSURE'")
    nbcritic.assert_status(result, status)
    nbcritic.assert_findings(result, includes=["acme.unsure"], severity_at_least="critical")
    assert [r.id for r in nbcritic.service.reviewer.critic.rules] == ["acme.unsure"]


@pytest.mark.nbcritic(rules=[BAD, UNSURE], critic_disabled_rules=["acme.unsure"],
                      max_critique_retries=0)
async def test_rules_join_the_builtin_ones_and_budgets_apply(nbcritic: NbcriticHarness) -> None:
    critic = nbcritic.service.reviewer.critic
    assert {"acme.bad", "leakage.fit_saw_heldout_rows"} <= {r.id for r in critic.rules}
    result = await nbcritic.run("x = 'BAD'  # UNSURE too")
    nbcritic.assert_blocked(result, rule_id="acme.bad")
    nbcritic.assert_findings(result, excludes=["acme.unsure"])  # disabled by the marker
    nbcritic.assert_escalated(result, pattern="critique_budget_exhausted")
    nbcritic.assert_attempts(result, 1)


@pytest.mark.nbcritic(rules=[BAD], builtin_rules=False)
async def test_one_notebook_fixes_overrides_prompts_and_metadata(
        nbcritic: NbcriticHarness, nbcritic_generator: ScriptedGenerator) -> None:
    # earlier cells' variables exist; the fix comes from the queue, dedented
    nbcritic.queue("""
        y = x + 1
        print(y)
    """)
    result = await nbcritic.run("y = x + 1  # BAD\nprint(y)", setup=["x = 40", "x += 1"])
    nbcritic.assert_attempts(result, 2, statuses=["scientific_validity_error", "ok"])
    assert result.outputs[0]["text"] == "42\n"
    assert nbcritic.cell(result).source == "y = x + 1\nprint(y)"
    first, second = nbcritic.critiques(result)
    assert_findings(first, includes="acme.bad")  # every attempt's critique, from the journal
    assert_no_findings(second)
    assert nbcritic_generator.calls[0].kind == "fix"
    # a blocked cell re-run unchanged is the user's override
    blocked = await nbcritic.run("z = 'BAD'", auto_fix=False)
    nbcritic.assert_blocked(blocked)
    again = await nbcritic.rerun(blocked)
    nbcritic.assert_status(again, "ok")
    assert again.override["how"] == "unchanged_rerun"
    # per-cell metadata and per-run options
    skipped = await nbcritic.run("w = 'BAD'", metadata={"nbcritic": {"skip_critic": True}})
    assert skipped.critique["skipped"] and str(skipped.status) == "ok"
    nbcritic.assert_status(await nbcritic.run("v = 'BAD'", disabled_rules="acme.*"), "ok")
    # a prompt-only cell: the generator writes it
    nbcritic.queue("print('hello')")
    generated = await nbcritic.run(prompt="say hello")
    assert generated.outputs[0]["text"] == "hello\n"
    assert nbcritic_generator.calls[-1].kind == "generate"
    assert len(nbcritic.service.list_notebooks()) == 1


@pytest.mark.nbcritic(builtin_rules=False)
async def test_self_checks_and_lessons_through_the_harness(
        nbcritic: NbcriticHarness, nbcritic_generator: ScriptedGenerator) -> None:
    nbcritic.queue("rows = [1, 2, 3]")
    result = await nbcritic.run("rows = [1, 2]", checks=["len(rows) == 3"])
    nbcritic.assert_attempts(result, 2, statuses=["scientific_validity_error", "ok"])
    assert nbcritic_generator.calls[0].feedback.count("self_check.") >= 1
    (lesson,) = nbcritic.lessons.list()
    assert lesson.category == "fix" and lesson.scope.rule_ids[0].startswith("self_check.")
    with pytest.raises(ValueError, match=r"checks\[0\]\.min"):
        await nbcritic.run("x = 1", checks={"type": "in_range", "target": "x", "min": "a"})


@pytest.mark.nbcritic(cell_timeout=7)
class TestMarkers:
    @pytest.mark.nbcritic(cell_timeout=9, pool_size=0)
    def test_the_closest_marker_wins(self, request: pytest.FixtureRequest,
                                     tmp_path: Path) -> None:
        settings = marker_settings(request.node)
        assert settings == {"cell_timeout": 9, "pool_size": 0}
        config = build_config(settings, tmp_path)
        assert config.cell_timeout == 9 and not config.fsync_writes
        assert config.data_dir == tmp_path


def test_marker_validation(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match="unknown setting 'max_retries'"):
        build_config({"max_retries": 1}, tmp_path)
    with pytest.raises(pytest.fail.Exception, match=r"(?s)invalid settings.*critic_min_confidence"):
        build_config({"critic_min_confidence": 2}, tmp_path)
    with pytest.raises(pytest.fail.Exception, match="builtin_rules must be True or False"):
        build_service({"builtin_rules": "no"}, tmp_path, None)
    with pytest.raises(pytest.fail.Exception, match="rules must be a list"):
        build_service({"rules": "acme.bad"}, tmp_path, None)


# -- the assertion helpers, both sides (no kernel) ---------------------------------------------

def _finding(rule_id: str, severity: str = "critical", confidence: float = 0.9) -> dict[str, Any]:
    return {"rule_id": rule_id, "family": rule_id.split(".")[0], "title": f"title of {rule_id}",
            "severity": severity, "confidence": confidence, "evidence": {"lines": [2]}}


LEAK = _finding("leakage.fit_saw_heldout_rows", confidence=0.94)
SMALL = _finding("small_sample.tiny_groups", "medium", 0.7)


def _blocked() -> CellResult:
    error = {"ename": "ScientificValidityError", "evalue": "...", "traceback": [],
             "findings": [LEAK]}
    return CellResult(
        "nb", "c1", "e1", CellStatus.SCIENTIFIC_VALIDITY_ERROR, error=error,
        critique={"findings": [LEAK, SMALL], "errors": [{"rule_id": "acme.x",
                                                         "error": "KeyError: 'y'"}]},
        attempts=[{"attempt": 1, "status": "scientific_validity_error", "cause": None,
                   "error": error, "findings": [LEAK]}],
        escalation={"pattern": "no_code_generator", "reason": "no generator",
                    "question": "Fix or override?"})


def _fixed() -> CellResult:
    return CellResult(
        "nb", "c1", "e1", CellStatus.OK, critique={"findings": [SMALL], "errors": []},
        attempts=[{"attempt": 1, "status": "scientific_validity_error", "findings": [LEAK],
                   "error": {"ename": "ScientificValidityError"}},
                  {"attempt": 2, "status": "ok", "cause": "critique", "generated": True,
                   "findings": None}])


def test_helpers_pass_when_the_behaviour_is_there() -> None:
    blocked, fixed = _blocked(), _fixed()
    assert_status(blocked, "scientific_validity_error")
    assert_status(fixed, CellStatus.OK)
    assert assert_blocked(blocked, rule_id="leakage.*") == [LEAK]
    assert_findings(blocked, includes=["leakage", "small_sample.tiny_groups"])
    assert_findings(blocked, includes="leakage.fit_saw_heldout_rows",
                    excludes=["small_sample.*"], severity_at_least="high")
    assert_findings(fixed, attempt=1, includes=["leakage.fit_saw_heldout_rows"])
    assert assert_findings(fixed) == [SMALL]  # no pattern: at least one finding
    assert_no_findings(fixed, severity_at_least="high")
    assert_no_findings(fixed, attempt=2)
    assert_attempts(fixed, 2, statuses=["scientific_validity_error", "ok"])
    assert assert_escalated(blocked, pattern="no_code_generator")["question"]
    # the REST API's dict works too, and so does a critique
    as_dict = blocked.as_dict()
    assert_blocked(as_dict, rule_id="leakage.fit_saw_heldout_rows")
    assert_attempts(as_dict, 1)
    assert_findings({"attempt": 1, "findings": [SMALL]}, includes=["small_sample"])


@pytest.mark.parametrize("check, message", [
    (lambda: assert_status(_blocked(), "ok"),
     "expected status 'ok', got 'scientific_validity_error'"),
    (lambda: assert_blocked(_fixed()), "expected the critic to block the result"),
    (lambda: assert_blocked(_blocked(), rule_id="acme.*"),
     "expected acme.* among the blocking findings, got leakage.fit_saw_heldout_rows"),
    (lambda: assert_findings(_fixed(), includes=["leakage"]),
     "expected finding(s) leakage, not found"),
    (lambda: assert_findings(_blocked(), includes=["small_sample"], severity_at_least="high"),
     "expected finding(s) small_sample at severity >= high, not found"),
    (lambda: assert_findings(_blocked(), excludes=["leakage.*"]),
     "unexpected finding(s) leakage.*"),
    (lambda: assert_findings(_fixed(), attempt=2), "expected at least one finding in attempt 2"),
    (lambda: assert_findings(_fixed(), attempt=3), "attempt 3 does not exist"),
    (lambda: assert_no_findings(_fixed()), "expected no finding at severity >= info, found "
     "small_sample.tiny_groups"),
    (lambda: assert_attempts(_fixed(), 1), "expected 1 attempt(s), got 2"),
    (lambda: assert_attempts(_fixed(), 2, statuses=["error", "ok"]),
     "expected attempt statuses ['error', 'ok'], got ['scientific_validity_error', 'ok']"),
    (lambda: assert_escalated(_fixed()), "expected the retry loop to escalate, it did not"),
    (lambda: assert_escalated(_blocked(), pattern="generator_failed"),
     "expected escalation pattern 'generator_failed', got 'no_code_generator'"),
])
def test_helpers_fail_when_the_behaviour_is_not_there(check: Any, message: str) -> None:
    with pytest.raises(AssertionError) as info:
        check()
    text = str(info.value)
    assert text.startswith(message)
    assert "status: " in text and "attempts: " in text and "escalation: " in text


def test_a_failure_shows_status_attempts_findings_and_escalation() -> None:
    with pytest.raises(AssertionError) as info:
        assert_status(_blocked(), "ok")
    assert str(info.value).splitlines()[1:] == [
        "status: scientific_validity_error (ScientificValidityError: blocked by the critic)",
        "attempts: 1",
        "  1. scientific_validity_error ScientificValidityError blocked by "
        "leakage.fit_saw_heldout_rows",
        "findings of the last attempt: 2",
        "  CRITICAL (0.94) leakage.fit_saw_heldout_rows line 2: "
        "title of leakage.fit_saw_heldout_rows",
        "  MEDIUM (0.70) small_sample.tiny_groups line 2: title of small_sample.tiny_groups",
        "  critic error in acme.x: KeyError: 'y'",
        "escalation: no_code_generator - no generator",
        "  question: Fix or override?",
    ]
    with pytest.raises(ValueError, match="unknown severity 'severe'"):
        assert_findings(_blocked(), severity_at_least="severe")


def test_importing_the_plugin_starts_nothing() -> None:
    """Every session loads the plugin (ours too): importing it must not import the engine."""
    code = ("import sys, app.pytest_plugin; print(sorted(m for m in sys.modules if "
            "m.split('.')[0] in ('services', 'critics', 'jupyter_client', 'nbformat')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
