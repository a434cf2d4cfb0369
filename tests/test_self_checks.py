"""Per-cell self-checks: spec validation, evaluation in a real ipykernel (each check type on
real pandas/numpy objects, a raising check, a slow one against the timeout, a dying kernel),
the user's namespace left untouched, findings, and the in-process `evaluate`."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from critics.findings import Severity
from services.kernel_env import scrubbed_environment
from services.kernel_session import KernelSession
from services.self_check_kernel import evaluate
from services.self_checks import (
    CheckResult,
    CheckSpecError,
    SelfCheck,
    cell_checks,
    check_findings,
    execute_checks,
    parse_checks,
    parse_results,
    run_checks,
    unevaluated,
    user_expression,
)

SETUP = """\
import numpy as np
import pandas as pd
clean = pd.DataFrame({"age": [23, 35, 41, 58], "income": [30.5, 42.0, 51.2, 60.0],
                      "group": ["a", "b", "a", "b"]})
dirty = clean.copy()
dirty.loc[[0, 2], "age"] = np.nan
dirty.loc[1, "income"] = np.nan
scores = np.array([0.2, 0.5, 0.9])
bad_scores = np.array([0.2, 1.3, np.nan, -0.5])
accuracy = 0.87
"""


class Kernel:
    """A real ipykernel behind KernelSession, driven on a private event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.runtime_dir = Path(tempfile.mkdtemp(prefix="nbc-sc-"))
        self.session = self.loop.run_until_complete(KernelSession.start(
            kernel_name="python3", transport="ipc", runtime_dir=self.runtime_dir,
            env=scrubbed_environment(), timeout=60))

    def execute(self, code: str, **kwargs: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        messages: list[dict[str, Any]] = []
        kwargs.setdefault("timeout", 30)
        outcome = self.loop.run_until_complete(self.session.execute(
            code, interrupt_grace=3, on_message=messages.append, **kwargs))
        assert outcome.reply is not None
        return outcome.reply, messages

    def run(self, code: str) -> dict[str, Any]:
        reply, _ = self.execute(code)
        assert reply["status"] == "ok", reply
        return reply

    def checks(self, raw: Any, timeout: float = 10.0, **kwargs: Any) -> list[CheckResult]:
        return self.loop.run_until_complete(run_checks(
            self.session, parse_checks(raw), timeout=timeout, interrupt_grace=3, **kwargs))

    def state(self) -> dict[str, Any]:
        """The namespace's names, `_`, len(Out) and the execution count, read silently."""
        expr = ("__import__('json').dumps({'names': sorted(get_ipython().user_ns), "
                "'underscore': repr(get_ipython().user_ns.get('_')), "
                "'out': len(get_ipython().user_ns['Out']), "
                "'count': get_ipython().execution_count})")
        reply, messages = self.execute("", silent=True, store_history=False,
                                       user_expressions={"s": expr})
        assert not messages
        return json.loads(eval(reply["user_expressions"]["s"]["data"]["text/plain"]))

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.session.shutdown(now=True))
        finally:
            self.loop.close()
            shutil.rmtree(self.runtime_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    k = Kernel()
    try:
        k.run(SETUP)
        yield k
    finally:
        k.close()


def by_name(results: list[CheckResult]) -> dict[str, CheckResult]:
    return {r.name: r for r in results}


# -- each check type in a real kernel ---------------------------------------------------------


def test_no_missing_passes_and_fails_with_counts_per_column(kernel: Kernel) -> None:
    results = by_name(kernel.checks([
        {"type": "no_missing", "target": "clean", "name": "clean_full"},
        {"type": "no_missing", "target": "dirty", "name": "dirty_full"},
        {"type": "no_missing", "target": "dirty", "columns": ["group"], "name": "dirty_group"},
        {"type": "no_missing", "target": "dirty['age']", "name": "dirty_age"},
        {"type": "no_missing", "target": "bad_scores", "name": "array"},
    ]))
    assert results["clean_full"].passed and results["clean_full"].error is None
    dirty = results["dirty_full"]
    assert not dirty.passed and dirty.error is None
    assert dirty.detail == "dirty has 3 missing values: age 2, income 1"
    assert dirty.value == {"missing": 3, "rows": 4, "by_column": {"age": 2, "income": 1}}
    assert results["dirty_group"].passed  # only the named column is checked
    assert not results["dirty_age"].passed
    assert results["dirty_age"].detail == "dirty['age'] has 2 missing values (of 4)"
    assert not results["array"].passed and results["array"].value == {"missing": 1, "size": 4}


def test_column_exists(kernel: Kernel) -> None:
    ok, missing = kernel.checks([
        {"type": "column_exists", "target": "clean", "columns": ["age", "group"]},
        {"type": "column_exists", "target": "clean", "columns": ["age", "bmi", "sex"]},
    ])
    assert ok.passed and ok.name == "column_exists_clean_age_group"
    assert not missing.passed and missing.error is None
    assert missing.detail == "clean lacks column(s) bmi, sex (it has: age, income, group)"
    assert missing.value["absent"] == ["bmi", "sex"]


def test_in_range_on_series_arrays_and_scalars(kernel: Kernel) -> None:
    results = by_name(kernel.checks([
        {"type": "in_range", "target": "clean['age']", "min": 18, "max": 99, "name": "ages"},
        {"type": "in_range", "target": "scores", "min": 0, "max": 1, "name": "scores"},
        {"type": "in_range", "target": "bad_scores", "min": 0, "max": 1, "name": "bad"},
        {"type": "in_range", "target": "accuracy", "min": 0.9, "name": "acc_high"},
        {"type": "in_range", "target": "accuracy", "max": 1, "name": "acc_max"},
        {"type": "in_range", "target": "dirty", "columns": ["age"], "min": 0, "name": "nan_age"},
        {"type": "in_range", "target": "clean['group']", "min": 0, "name": "text"},
    ]))
    assert results["ages"].passed and results["scores"].passed and results["acc_max"].passed
    bad = results["bad"]
    assert not bad.passed and bad.error is None
    # 1.3 and -0.5 are outside; NaN counts as outside too
    assert bad.value == {"n": 4, "outside": 3, "nan": 1, "min": -0.5, "max": 1.3,
                         "examples": [1.3, -0.5]}
    assert bad.detail == "3 of 4 values of bad_scores are outside [0, 1] (min -0.5, max 1.3, 1 NaN)"
    assert not results["acc_high"].passed
    assert results["acc_high"].detail == "accuracy = 0.87 is outside >= 0.9"
    assert not results["nan_age"].passed and results["nan_age"].value["nan"] == 2
    text = results["text"]
    assert not text.passed and text.error is not None and "is not numeric" in text.error


def test_expression_passes_fails_and_shows_the_operands(kernel: Kernel) -> None:
    ok, small, both, ambiguous = kernel.checks([
        "len(clean) == 4", "len(clean) > 100", "accuracy > 0.5 and clean['age'].max() < 50",
        "clean['age'] > 0",
    ])
    assert ok.passed and ok.value is True
    assert not small.passed and small.value is False
    assert small.detail == "len(clean) > 100 is False (len(clean) = 4)"
    assert not both.passed and "clean['age'].max() = " in both.detail  # the false part
    # a Series has no single truth value: the check errs, it does not silently pass
    assert not ambiguous.passed and "ambiguous" in (ambiguous.error or "")


def test_a_raising_check_fails_with_its_exception_and_the_others_still_run(
        kernel: Kernel) -> None:
    missing, typo, fine = kernel.checks([
        {"type": "no_missing", "target": "not_defined_anywhere"},
        "clean['agee'].mean() > 0",
        "accuracy < 1",
    ])
    assert not missing.passed
    assert missing.error == "NameError: name 'not_defined_anywhere' is not defined"
    assert not typo.passed and (typo.error or "").startswith("KeyError")
    assert fine.passed and fine.error is None


def test_slow_check_times_out_and_leaves_the_kernel_usable(kernel: Kernel) -> None:
    kernel.run("marker_before_timeout = 'kept'")
    results = kernel.checks(["__import__('time').sleep(30) or True", "accuracy < 1"],
                            timeout=0.5)
    assert [r.passed for r in results] == [False, False]
    assert all("timed out after 0.5 s" in (r.error or "") for r in results)
    # interrupted, not killed: the namespace survived and a normal execute works
    reply, messages = kernel.execute("marker_before_timeout")
    assert reply["status"] == "ok"
    assert messages[-1]["content"]["data"]["text/plain"] == "'kept'"
    assert kernel.checks("accuracy < 1")[0].passed


def test_checks_left_after_the_budget_fail_as_not_evaluated(kernel: Kernel) -> None:
    slow, later = kernel.checks(["__import__('time').sleep(0.3) or True", "accuracy < 1"],
                                budget_ms=100)
    assert slow.passed
    assert not later.passed and "not evaluated" in (later.error or "")
    assert not later.evaluated and slow.evaluated


def test_checks_leave_the_namespace_history_and_outputs_untouched(kernel: Kernel) -> None:
    kernel.run("41 + 1")
    before = kernel.state()
    assert before["underscore"] == "42"
    checks = parse_checks([
        "(leaked := 5) > 1",  # a walrus binds in the copy, not in the user's namespace
        "print('noise') is None",
        "[tmp for tmp in range(3)] == [0, 1, 2]",
        "__import__('warnings').warn('w') is None",
        {"type": "no_missing", "target": "clean"},
    ])
    reply, messages = kernel.execute("", silent=True, store_history=False,
                                     user_expressions={"nbcritic_self_checks":
                                                       user_expression(checks, 1000)})
    assert messages == []  # no stream, no display, no execute_result published
    assert all(r.passed for r in parse_results(reply, checks))
    assert all(r.passed for r in kernel.loop.run_until_complete(
        run_checks(kernel.session, checks, timeout=10, interrupt_grace=3)))
    assert kernel.state() == before  # names, `_`, Out and execution_count unchanged
    reply, messages = kernel.execute("'leaked' in dir() or 'tmp' in dir()")
    assert reply["execution_count"] == before["count"]  # the next count was not used up
    assert messages[-1]["content"]["data"]["text/plain"] == "False"


def test_a_dying_kernel_fails_every_check_without_raising() -> None:
    k = Kernel()
    try:
        checks = parse_checks(["__import__('os')._exit(1)", "True"])
        results, raw = k.loop.run_until_complete(execute_checks(
            k.session, checks, timeout=10, interrupt_grace=1))
        assert raw is not None and raw.dead
        assert [r.passed for r in results] == [False, False]
        assert all(r.error == "the kernel died while the self-checks ran" for r in results)
    finally:
        k.close()


def test_a_kernel_that_ignores_the_interrupt_is_reported_unusable() -> None:
    k = Kernel()
    try:
        stubborn = ("(__import__('signal').signal(2, __import__('signal').SIG_IGN), "
                    "__import__('time').sleep(30))")
        results, raw = k.loop.run_until_complete(execute_checks(
            k.session, parse_checks([stubborn]), timeout=0.3, interrupt_grace=0.3))
        assert raw is not None and raw.kernel_unusable  # the caller replaces this kernel
        assert results[0].error == ("the self-checks timed out after 0.3 s; the kernel did "
                                    "not come back from the interrupt")
    finally:
        k.close()


def test_no_checks_sends_nothing(kernel: Kernel) -> None:
    results, raw = kernel.loop.run_until_complete(execute_checks(
        kernel.session, [], timeout=1, interrupt_grace=1))
    assert results == [] and raw is None


# -- replies that cannot be read ---------------------------------------------------------------


@pytest.mark.parametrize(("reply", "reason"), [
    (None, "no reply"),
    ({"status": "error", "ename": "RuntimeError"}, "request failed: RuntimeError"),
    ({"status": "ok", "user_expressions": {}}, "did not evaluate"),
    ({"status": "ok", "user_expressions": {"nbcritic_self_checks": {
        "status": "error", "ename": "KeyboardInterrupt", "evalue": ""}}},
     "raised KeyboardInterrupt"),
    ({"status": "ok", "user_expressions": {"nbcritic_self_checks": {
        "status": "ok", "data": {"text/plain": "'not json'"}}}}, "unreadable"),
])
def test_unusable_replies_fail_every_check(reply: dict[str, Any] | None, reason: str) -> None:
    checks = parse_checks(["a > 1", "b > 1"])
    results = parse_results(reply, checks)
    assert [r.name for r in results] == [c.name for c in checks]
    assert all(not r.passed and reason in (r.error or "") for r in results)


def test_a_result_missing_from_the_reply_fails_that_check() -> None:
    checks = parse_checks(["a > 1", "b > 1"])
    text = repr(json.dumps([{"name": checks[0].name, "passed": True}]))
    reply = {"status": "ok", "user_expressions": {"nbcritic_self_checks": {
        "status": "ok", "data": {"text/plain": text}}}}
    first, second = parse_results(reply, checks)
    assert first.passed
    assert not second.passed and "no result" in (second.error or "")


# -- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "message"), [
    ({"type": "no_missing", "target": "df"}, "checks: must be a list of checks"),
    ([42], "checks[0]: must be an object or an expression string, not int"),
    ([{"target": "df"}], "checks[0].type: required, one of no_missing, column_exists"),
    ([{"type": "not_null", "target": "df"}], "checks[0].type: must be one of"),
    ([{"type": "no_missing"}], "checks[0].target: required: a Python expression"),
    ([{"type": "no_missing", "target": "df["}], "checks[0].target: not a valid Python expr"),
    (["x >"], "checks[0].expr: not a valid Python expression"),
    ([{"type": "expression", "expr": "x = 1"}], "checks[0].expr: not a valid Python"),
    ([{"type": "expression", "expr": ""}], "checks[0].expr: must be a non-empty"),
    (["a > 1", {"type": "in_range", "target": "x", "min": "0"}],
     "checks[1].min: must be a number, not '0'"),
    ([{"type": "in_range", "target": "x", "max": True}], "checks[0].max: must be a number"),
    ([{"type": "in_range", "target": "x", "min": float("nan")}], "checks[0].min: must be a "
                                                                 "finite number, not nan"),
    ([{"type": "in_range", "target": "x"}], "checks[0].min: in_range needs min, max or both"),
    ([{"type": "in_range", "target": "x", "min": 2, "max": 1}], "checks[0].min: greater than"),
    ([{"type": "column_exists", "target": "df"}], "checks[0].columns: required"),
    ([{"type": "column_exists", "target": "df", "columns": ["a", 3]}],
     "checks[0].columns[1]: must be a column name"),
    ([{"type": "column_exists", "target": "df", "columns": {"a": 1}}],
     "checks[0].columns: must be a list of column names, not dict"),
    ([{"type": "no_missing", "target": "df", "column": "a"}],
     "checks[0].column: unknown field (known: "),
    ([{"type": "no_missing", "target": "df", "min": 0}], "checks[0].min: not used by no_missing"),
    ([{"type": "expression", "expr": "a", "target": "df"}], "checks[0].target: not used by "
                                                            "expression checks"),
    ([{"type": "expression", "expr": "a", "severity": "fatal"}], "checks[0].severity: must be "
                                                                 "one of info, low"),
    ([{"type": "expression", "expr": "a", "message": 3}], "checks[0].message: must be a string"),
    ([{"expr": "a", "name": "Has Spaces"}], "checks[0].name: must match [a-z0-9_]+"),
    ([{"expr": "a", "name": "same"}, {"expr": "b", "name": "same"}],
     "checks[1].name: duplicate name 'same' (also checks[0])"),
])
def test_bad_specs_name_the_field(raw: Any, message: str) -> None:
    with pytest.raises(CheckSpecError) as info:
        parse_checks(raw)
    assert str(info.value).startswith(message), str(info.value)
    assert str(info.value).startswith(info.value.field + ": ")
    assert isinstance(info.value, ValueError)


def test_unknown_field_suggests_the_near_one() -> None:
    with pytest.raises(CheckSpecError, match="did you mean 'columns'"):
        parse_checks([{"type": "no_missing", "target": "df", "column": ["a"]}])


def test_parsing_defaults_names_and_round_trip() -> None:
    checks = parse_checks([
        "len(df) > 0",
        {"type": "no_missing", "target": "df"},
        {"type": "no_missing", "target": "df"},
        {"type": "no_missing", "target": "df", "name": "no_missing_df"},  # given: keeps its name
        {"type": "in_range", "target": "df['p']", "min": 0, "max": 1, "message": "p is a share",
         "severity": "high", "columns": "x"},
    ])
    assert [c.name for c in checks] == ["expression_len_df_0", "no_missing_df_2",
                                        "no_missing_df_3", "no_missing_df", "in_range_df_p_x"]
    assert checks[0] == SelfCheck(type="expression", name="expression_len_df_0",
                                  expr="len(df) > 0")
    assert checks[4].min == 0.0 and checks[4].columns == ("x",)
    assert checks[4].rule_id == "self_check.in_range_df_p_x"
    assert checks[1].to_dict() == {"type": "no_missing", "name": "no_missing_df_2",
                                   "target": "df"}
    assert checks[4].to_dict() == {"type": "in_range", "name": "in_range_df_p_x",
                                   "target": "df['p']", "columns": ["x"], "min": 0.0, "max": 1.0,
                                   "message": "p is a share", "severity": "high"}
    assert parse_checks([c.to_dict() for c in checks]) == checks
    assert parse_checks(None) == [] and parse_checks("x > 1")[0].expr == "x > 1"


def test_cell_checks_from_metadata_never_raise() -> None:
    good = {"metadata": {"nbcritic": {"checks": [{"type": "no_missing", "target": "df"}]}}}
    checks, error = cell_checks(good)
    assert error is None and [c.name for c in checks] == ["no_missing_df"]
    assert cell_checks({"metadata": {}}) == ([], None)
    assert cell_checks({"metadata": {"nbcritic": {"status": "ok"}}}) == ([], None)
    bad = {"metadata": {"nbcritic": {"checks": [{"type": "no_missing", "target": "df"},
                                                {"type": "bogus"}]}}}
    checks, error = cell_checks(bad)
    assert checks == []
    assert error is not None and error.startswith("checks[1].type: must be one of")


# -- findings ---------------------------------------------------------------------------------


def test_failed_checks_become_blocking_findings() -> None:
    checks = parse_checks([
        {"type": "no_missing", "target": "df"},
        {"type": "in_range", "target": "acc", "min": 0, "max": 1, "message": "Accuracy is a "
                                                                             "proportion."},
        {"type": "expression", "expr": "len(df) > 10", "severity": "medium"},
        {"type": "column_exists", "target": "df", "columns": ["age"]},
    ])
    results = [
        CheckResult("no_missing_df", False, "df has 12 missing values: age 9, income 3",
                    {"missing": 12, "by_column": {"age": 9, "income": 3}}),
        CheckResult("in_range_acc", False, "NameError: name 'acc' is not defined",
                    error="NameError: name 'acc' is not defined"),
        CheckResult("expression_len_df_10", False, "len(df) > 10 is False (len(df) = 4)", False),
        CheckResult("column_exists_df_age", True, "df has column(s) age"),
    ]
    missing, ranged, expression = check_findings(checks, results)
    assert missing.rule_id == "self_check.no_missing_df"
    assert (missing.family, missing.source) == ("self_check", "self_check")
    assert missing.title == "Self-check failed: no missing values in df"
    assert "df has 12 missing values: age 9, income 3" in missing.explanation
    assert missing.severity is Severity.CRITICAL and missing.confidence == 1.0
    assert missing.is_blocking(0.99)
    assert missing.evidence == {"values": {"missing": 12, "by_column": {"age": 9, "income": 3}},
                                "check": {"type": "no_missing", "name": "no_missing_df",
                                          "target": "df"}}
    assert "missing values" in missing.suggestion  # the default for the type
    assert ranged.title == "Self-check failed: acc within [0, 1]"
    assert "could not be evaluated: NameError" in ranged.explanation
    assert ranged.evidence["values"]["error"] == "NameError: name 'acc' is not defined"
    assert ranged.suggestion == "Accuracy is a proportion."  # the user's message
    assert expression.severity is Severity.MEDIUM and not expression.is_blocking(0.5)
    assert expression.evidence["values"] == {"value": False}
    assert expression.to_dict()["severity"] == "medium"


def test_a_check_without_a_verdict_is_a_finding_and_an_error() -> None:
    checks = parse_checks(["x > 1", "y > 1"])
    results = [CheckResult(checks[1].name, False, error="not evaluated: out of time",
                           evaluated=False)]
    found = check_findings(checks, results)  # no verdict is no pass (issue 26)
    assert [f.rule_id for f in found] == [c.rule_id for c in checks]
    assert all(f.title.startswith("Self-check could not be evaluated") for f in found)
    assert "out of time" in found[1].explanation and found[1].is_blocking(0.9)
    assert unevaluated(checks, results) == [
        f"self-check {checks[0].name}: no result",
        f"self-check {checks[1].name}: not evaluated: out of time"]


def test_bounds_must_be_finite() -> None:
    for bad in (10**400, float("inf"), 1e999):
        with pytest.raises(CheckSpecError, match=r"^checks\[0\]\.max: must be a finite number"):
            parse_checks([{"type": "in_range", "target": "x", "max": bad}])


# -- in process (the magics' local mode) -------------------------------------------------------


def test_evaluate_in_process_leaves_the_namespace_alone(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    df = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [1, 2, 3]})
    ns: dict[str, Any] = {"df": df, "n": 3, "d": {"x": 1, "y": None}}
    snapshot = dict(ns)
    checks = parse_checks([
        {"type": "no_missing", "target": "df"},
        {"type": "column_exists", "target": "df", "columns": ["b"]},
        {"type": "in_range", "target": "df['b']", "min": 1, "max": 3},
        {"type": "no_missing", "target": "d", "columns": ["x"]},
        "(k := n) == 3 and print('loud') is None",
        "'k' not in dir()",  # each check sees the namespace, not the previous check's names
        "missing_name > 0",
    ])
    results = json.loads(evaluate(ns, [c.to_dict() for c in checks], budget_ms=5000))
    assert [r["passed"] for r in results] == [False, True, True, True, True, True, False]
    assert results[0]["detail"] == "df has 1 missing value: a 1"
    assert results[6]["error"] == "NameError: name 'missing_name' is not defined"
    assert ns == snapshot  # no `k`, no `__builtins__` added
    assert capsys.readouterr().out == ""  # the check's print went nowhere
    # the JSON string form (what the kernel receives) gives the same answer
    assert json.loads(evaluate(ns, json.dumps([checks[1].to_dict()])))[0]["passed"]
