"""Per-cell self-checks: assertions a cell declares about the namespace it leaves behind
(no missing values, a column exists, values in a range, any expression holds).

They are run in the kernel after the cell succeeds, through ONE silent, history-free
execute request whose `user_expressions` call `self_check_kernel.evaluate` in a private
module (the user's namespace is read, never written; nothing is published). A failed check
becomes a `Finding` (rule id `self_check.<name>`, critical by default) that blocks the cell
and feeds the retry loop like a critical finding of the critic.

    checks = parse_checks([{"type": "no_missing", "target": "df"}, "len(df) > 100"])
    results = await run_checks(session, checks, timeout=5, interrupt_grace=3)
    findings = check_findings(checks, results)
"""

from __future__ import annotations

import ast
import difflib
import inspect
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from critics.findings import Finding, Severity

from . import self_check_kernel
from .kernel_session import KernelSession, RawOutcome

CHECK_TYPES = ("no_missing", "column_exists", "in_range", "expression")
META = "nbcritic"
RULE_PREFIX = "self_check."
FAMILY = "self_check"
MAX_NAME = 64
_NAME = re.compile(r"^[a-z0-9_]+$")
_KEY = "nbcritic_self_checks"

# Which fields each type uses; any other field given for that type is an error (it would be
# silently ignored otherwise, and the user would believe it is checked).
_FIELDS = {
    "no_missing": {"target", "columns"},
    "column_exists": {"target", "columns"},
    "in_range": {"target", "columns", "min", "max"},
    "expression": {"expr"},
}
_COMMON = {"type", "name", "message", "severity"}
_ALL_KEYS = sorted(_COMMON | set().union(*_FIELDS.values()))


class CheckSpecError(ValueError):
    """An invalid check spec. The message starts with the field path
    (`checks[1].min: must be a number`); `field` holds that path."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class SelfCheck:
    type: str  # one of CHECK_TYPES
    name: str  # unique within the cell, [a-z0-9_]
    target: str | None = None  # expression naming the object (no_missing, column_exists, in_range)
    columns: tuple[str, ...] = ()  # no_missing/in_range: only these; column_exists: required
    expr: str | None = None  # expression: must be truthy
    min: float | None = None  # in_range: inclusive bounds, at least one
    max: float | None = None
    message: str = ""  # what the user wants said when it fails
    severity: str = "critical"

    @property
    def rule_id(self) -> str:
        return f"{RULE_PREFIX}{self.name}"

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that are set (the form stored in cell metadata; it parses back)."""
        data: dict[str, Any] = {"type": self.type, "name": self.name}
        if self.target is not None:
            data["target"] = self.target
        if self.columns:
            data["columns"] = list(self.columns)
        if self.expr is not None:
            data["expr"] = self.expr
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        if self.message:
            data["message"] = self.message
        if self.severity != Severity.CRITICAL.value:
            data["severity"] = self.severity
        return data

    def describe(self) -> str:
        """What the check asserts, in a few words (finding titles)."""
        cols = f" ({', '.join(self.columns)})" if self.columns else ""
        if self.type == "no_missing":
            return f"no missing values in {self.target}{cols}"
        if self.type == "column_exists":
            return f"{self.target} has column(s) {', '.join(self.columns)}"
        if self.type == "in_range":
            return f"{self.target}{cols} within {_bounds(self.min, self.max)}"
        return str(self.expr)


# -- parsing -------------------------------------------------------------------------------------


def parse_checks(raw: Any, field: str = "checks") -> list[SelfCheck]:
    """Validate check specs: a list whose items are dicts (or, for convenience, strings: an
    expression check each); a single string is one expression check; None is no checks.
    Raises `CheckSpecError` naming the first bad field; names default to a slug of the
    target or expression and are unique."""
    if raw is None:
        return []
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list | tuple):
        raise CheckSpecError(field, "must be a list of checks "
                                    f"(objects or expression strings), not {_kind(raw)}")
    parsed = [_parse_fields(item, f"{field}[{i}]") for i, item in enumerate(raw)]
    return _named(parsed, field)


def parse_check(raw: Any, field: str, taken: set[str] | None = None, *,
                prefix: str = "", rename: bool = False) -> SelfCheck:
    """One check spec. `prefix` goes before its name (plan criteria use "plan_"). A name
    already in `taken` gets a numbered suffix when it was derived (or when `rename`), else
    it is an error. The name is added to `taken`."""
    taken = set() if taken is None else taken
    values, explicit = _parse_fields(raw, field)
    if explicit is not None and not rename and _prefixed(prefix, explicit) in taken:
        raise CheckSpecError(f"{field}.name", f"duplicate name {explicit!r}")
    name = _unique(_prefixed(prefix, explicit or _derived_name(values)), taken)
    taken.add(name)
    return SelfCheck(name=name, **values)


def _named(parsed: list[tuple[dict[str, Any], str | None]], field: str) -> list[SelfCheck]:
    # Given names first, so a derived name never takes one the user chose.
    taken: dict[str, int] = {}
    for i, (_, name) in enumerate(parsed):
        if name is None:
            continue
        if name in taken:
            raise CheckSpecError(f"{field}[{i}].name",
                                 f"duplicate name {name!r} (also {field}[{taken[name]}])")
        taken[name] = i
    used = set(taken)
    checks: list[SelfCheck] = []
    for values, name in parsed:
        if name is None:
            name = _unique(_derived_name(values), used)
            used.add(name)
        checks.append(SelfCheck(name=name, **values))
    return checks


def _parse_fields(item: Any, field: str) -> tuple[dict[str, Any], str | None]:
    """The validated fields of one spec (all but the name) and the name given, if any."""
    if isinstance(item, str):
        item = {"type": "expression", "expr": item}
    if not isinstance(item, Mapping):
        raise CheckSpecError(field, f"must be an object or an expression string, not {_kind(item)}")
    unknown = [k for k in item if k not in _ALL_KEYS]
    if unknown:
        key = unknown[0]
        hint = difflib.get_close_matches(str(key), _ALL_KEYS, n=1)
        extra = f"; did you mean {hint[0]!r}?" if hint else ""
        raise CheckSpecError(f"{field}.{key}",
                             f"unknown field (known: {', '.join(_ALL_KEYS)}){extra}")
    kind = item.get("type")
    if kind is None and "expr" in item:
        kind = "expression"
    if kind is None:
        raise CheckSpecError(f"{field}.type", f"required, one of {', '.join(CHECK_TYPES)}")
    if kind not in CHECK_TYPES:
        raise CheckSpecError(f"{field}.type",
                             f"must be one of {', '.join(CHECK_TYPES)}, not {kind!r}")
    misplaced = [k for k in item if k not in _COMMON and k not in _FIELDS[kind]]
    if misplaced:
        raise CheckSpecError(f"{field}.{misplaced[0]}", f"not used by {kind} checks (they take "
                                                        f"{', '.join(sorted(_FIELDS[kind]))})")
    values: dict[str, Any] = {"type": kind}
    if kind == "expression":
        values["expr"] = _expression(item.get("expr"), f"{field}.expr")
    else:
        values["target"] = _expression(item.get("target"), f"{field}.target")
    if "columns" in item:
        values["columns"] = _columns(item["columns"], f"{field}.columns")
    if kind == "column_exists" and not values.get("columns"):
        raise CheckSpecError(f"{field}.columns", "required: the columns that must exist")
    if kind == "in_range":
        values["min"] = _number(item.get("min"), f"{field}.min")
        values["max"] = _number(item.get("max"), f"{field}.max")
        if values["min"] is None and values["max"] is None:
            raise CheckSpecError(f"{field}.min", "in_range needs min, max or both")
        if values["min"] is not None and values["max"] is not None and (
            values["min"] > values["max"]
        ):
            raise CheckSpecError(f"{field}.min",
                                 f"greater than max ({values['min']:g} > {values['max']:g})")
    if "message" in item:
        message = item["message"]
        if not isinstance(message, str):
            raise CheckSpecError(f"{field}.message", f"must be a string, not {_kind(message)}")
        values["message"] = message.strip()
    if "severity" in item:
        values["severity"] = _severity(item["severity"], f"{field}.severity")
    name = item.get("name")
    if name is not None and (
        not isinstance(name, str) or not _NAME.match(name) or len(name) > MAX_NAME
    ):
        raise CheckSpecError(f"{field}.name", f"must match [a-z0-9_]+ (at most {MAX_NAME} "
                                              f"characters), not {name!r}")
    return values, name


def _expression(value: Any, field: str) -> str:
    if value is None:
        raise CheckSpecError(field, "required: a Python expression")
    if not isinstance(value, str) or not value.strip():
        raise CheckSpecError(field, f"must be a non-empty Python expression, not {value!r}")
    source = value.strip()
    try:
        ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise CheckSpecError(field, f"not a valid Python expression ({exc.msg}): "
                                    f"{source!r}") from None
    return source


def _columns(value: Any, field: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        raise CheckSpecError(field, f"must be a list of column names, not {_kind(value)}")
    for i, col in enumerate(value):
        if not isinstance(col, str) or not col:
            raise CheckSpecError(f"{field}[{i}]", f"must be a column name (string), not {col!r}")
    return tuple(value)


def _number(value: Any, field: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CheckSpecError(field, f"must be a number, not {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        raise CheckSpecError(field, "must be a finite number (this one is too large)") from None
    if not math.isfinite(number):
        raise CheckSpecError(field, f"must be a finite number, not {value!r}")
    return number


def _severity(value: Any, field: str) -> str:
    allowed = [s.value for s in Severity]
    if value not in allowed:
        raise CheckSpecError(field, f"must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _derived_name(values: dict[str, Any]) -> str:
    source = values.get("target") or values.get("expr") or ""
    slug = re.sub(r"[^a-z0-9]+", "_", source.lower()).strip("_")[:40].rstrip("_")
    if values.get("columns"):
        cols = re.sub(r"[^a-z0-9]+", "_", "_".join(values["columns"]).lower()).strip("_")
        slug = f"{slug}_{cols}"[:40].rstrip("_")
    return f"{values['type']}_{slug}" if slug else values["type"]


def _prefixed(prefix: str, name: str) -> str:
    name = name if not prefix or name.startswith(prefix) else prefix + name
    return name[:MAX_NAME]


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name[:MAX_NAME - 4]}_{n}" in taken:
        n += 1
    return f"{name[:MAX_NAME - 4]}_{n}"


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def cell_checks(cell: Mapping[str, Any]) -> tuple[list[SelfCheck], str | None]:
    """The checks in `cell.metadata["nbcritic"]["checks"]`. An invalid spec does not raise
    (the cell still runs): it gives no checks and the error text, for the caller to report."""
    meta = (cell.get("metadata") or {}).get(META) or {}
    raw = meta.get("checks") if isinstance(meta, Mapping) else None
    if raw is None:
        return [], None
    try:
        return parse_checks(raw), None
    except CheckSpecError as exc:
        return [], str(exc)


# -- running ---------------------------------------------------------------------------------


@dataclass
class CheckResult:
    name: str
    passed: bool
    detail: str = ""
    value: Any = None
    error: str | None = None  # the check itself raised (or could not run): passed is False
    elapsed_ms: float = 0.0
    # False: no verdict (out of time, the kernel hung or died). Not a pass: it becomes a
    # finding (blocking at the check's severity) and a critic error saying why
    evaluated: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "detail": self.detail,
                "value": self.value, "error": self.error, "elapsed_ms": self.elapsed_ms,
                "evaluated": self.evaluated}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckResult:
        return cls(name=str(data.get("name", "?")), passed=data.get("passed") is True,
                   detail=str(data.get("detail") or ""), value=data.get("value"),
                   error=data.get("error"), elapsed_ms=float(data.get("elapsed_ms") or 0.0),
                   evaluated=data.get("evaluated", True) is not False)


_SOURCE = inspect.getsource(self_check_kernel)
_USER_EXPRESSION = (
    "(lambda s, t: s.modules.get('_nbcritic_checks') or (lambda m: (exec(compile({src!r}, "
    "'<nbcritic-checks>', 'exec'), m.__dict__), s.modules.__setitem__('_nbcritic_checks', m), "
    "m)[2])(t.ModuleType('_nbcritic_checks')))(__import__('sys'), __import__('types'))"
    ".evaluate(get_ipython().user_ns, {req!r}, {budget!r})"
)


def user_expression(checks: list[SelfCheck], budget_ms: float) -> str:
    """The expression the kernel evaluates: installs `self_check_kernel` as a private module
    (once per kernel process: later requests find it in sys.modules) and evaluates the
    checks on the user's namespace."""
    request = json.dumps([c.to_dict() for c in checks])
    return _USER_EXPRESSION.format(src=_SOURCE, req=request, budget=float(budget_ms))


def parse_results(reply: dict[str, Any] | None, checks: list[SelfCheck]) -> list[CheckResult]:
    """One result per check (in order) from the execute_reply; whatever went wrong with the
    request fails every check with that reason."""
    if not reply:
        return failed_all(checks, "the kernel sent no reply to the self-checks")
    if reply.get("status") != "ok":
        return failed_all(checks, f"the self-check request failed: {reply.get('ename', '?')}")
    value = (reply.get("user_expressions") or {}).get(_KEY)
    if not value:
        return failed_all(checks, "the kernel did not evaluate the self-checks")
    if value.get("status") != "ok":
        return failed_all(checks, f"the self-checks raised {value.get('ename')}: "
                                  f"{value.get('evalue')}")
    text = (value.get("data") or {}).get("text/plain", "")
    try:
        items = json.loads(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError) as exc:
        return failed_all(checks, f"unreadable self-check results: {exc}")
    by_name = {str(r.get("name")): r for r in items if isinstance(r, dict)}
    return [CheckResult.from_dict(by_name[c.name]) if c.name in by_name
            else CheckResult(c.name, False, error="the kernel returned no result for this check")
            for c in checks]


def failed_all(checks: list[SelfCheck], reason: str) -> list[CheckResult]:
    return [CheckResult(c.name, False, detail=reason, error=reason, evaluated=False)
            for c in checks]


async def run_checks(session: KernelSession, checks: list[SelfCheck], *, timeout: float,
                     interrupt_grace: float, budget_ms: float | None = None) -> list[CheckResult]:
    """All checks in ONE silent request. Never hangs (timeout, then interrupt) and never
    raises: a timeout, a dead kernel or a failed request fails every check, saying why."""
    results, _ = await execute_checks(session, checks, timeout=timeout,
                                      interrupt_grace=interrupt_grace, budget_ms=budget_ms)
    return results


async def execute_checks(session: KernelSession, checks: list[SelfCheck], *, timeout: float,
                         interrupt_grace: float, budget_ms: float | None = None,
                         ) -> tuple[list[CheckResult], RawOutcome | None]:
    """`run_checks`, also returning the raw outcome, so the caller can see a kernel that did
    not come back from the interrupt (`kernel_unusable`) or died, and replace it.
    `budget_ms` (default: half the timeout) is the in-kernel soft budget: checks left when
    it is spent fail as not evaluated, before the hard timeout interrupts them all."""
    if not checks:
        return [], None
    budget = timeout * 500 if budget_ms is None else budget_ms
    try:
        raw = await session.execute(
            "", silent=True, store_history=False,
            user_expressions={_KEY: user_expression(checks, budget)},
            timeout=timeout, interrupt_grace=interrupt_grace, on_message=_ignore)
    except Exception as exc:  # the client's channels closed under us, a broken socket
        return failed_all(checks, f"the self-checks could not be sent to the kernel: "
                                  f"{type(exc).__name__}: {exc}"), None
    if raw.timed_out:
        after = ("; the kernel did not come back from the interrupt" if raw.kernel_unusable
                 else "; they were interrupted")
        return failed_all(checks, f"the self-checks timed out after {timeout:g} s{after}"), raw
    if raw.dead:
        return failed_all(checks, "the kernel died while the self-checks ran"), raw
    return parse_results(raw.reply, checks), raw


def _ignore(_msg: dict[str, Any]) -> None:
    """A silent request publishes nothing the user should see."""


# -- findings -------------------------------------------------------------------------------

_SUGGESTIONS = {
    "no_missing": "Handle the missing values explicitly (drop or impute them, and say how many "
                  "rows that affects), or fix the step that introduced them (a merge, a "
                  "reindex, a failed parse).",
    "column_exists": "Make the cell create or keep the required column(s); check for a rename, "
                     "a typo or a drop/selection that removed them.",
    "in_range": "Find out why values fall outside the expected range (units, sign, a bad "
                "merge or parse, missing values) and fix the computation rather than "
                "clipping or filtering the values away.",
    "expression": "Change the cell so that the condition holds, by fixing the computation, "
                  "not by special-casing the check.",
}
_UNEVALUATED_SUGGESTION = ("The check got no verdict: make it cheap enough to finish within "
                           "the self-check timeout (introspection_timeout), or make the cell "
                           "leave what it checks ready to read.")
_ERROR_SUGGESTION = ("The check could not be evaluated: make sure the names it uses exist "
                     "after the cell runs and have the expected type, or correct the check.")


def unevaluated(checks: list[SelfCheck], results: list[CheckResult]) -> list[str]:
    """Why each check without a verdict has none (for the critique's errors)."""
    by_name = {r.name: r for r in results}
    reasons = []
    for check in checks:
        result = by_name.get(check.name)
        if result is None:
            reasons.append(f"self-check {check.name}: no result")
        elif not result.evaluated:
            reasons.append(f"self-check {check.name}: {result.error or result.detail}")
    return reasons


def check_findings(checks: list[SelfCheck], results: list[CheckResult]) -> list[Finding]:
    """One critical (by default) Finding per check that did not pass. A check with no
    verdict (out of time, kernel lost, no result) is not a passed check: it is a finding
    too, saying why it could not be evaluated (and `unevaluated` lists it as an error)."""
    by_name = {r.name: r for r in results}
    findings: list[Finding] = []
    for check in checks:
        result = by_name.get(check.name) or CheckResult(
            check.name, False, error="the kernel returned no result for this check",
            evaluated=False)
        if not result.passed:
            findings.append(_finding(check, result))
    return findings


def _finding(check: SelfCheck, result: CheckResult) -> Finding:
    if not result.evaluated:
        reason = result.error or result.detail or "no verdict"
        explanation = f"The self-check {check.name!r} ({check.describe()}) could not be " \
                      f"evaluated: {reason}. A check without a verdict does not pass."
        default = _UNEVALUATED_SUGGESTION
    elif result.error:
        explanation = f"The self-check {check.name!r} ({check.describe()}) could not be " \
                      f"evaluated: {result.error}."
        default = _ERROR_SUGGESTION
    else:
        explanation = f"The self-check {check.name!r} failed: {result.detail}."
        default = _SUGGESTIONS[check.type]
    values: dict[str, Any] = (dict(result.value) if isinstance(result.value, dict)
                              else {"value": result.value})
    if result.error:
        values["error"] = result.error
    if not result.evaluated:
        values["evaluated"] = False
    what = "failed" if result.evaluated else "could not be evaluated"
    return Finding(
        rule_id=check.rule_id,
        title=f"Self-check {what}: {check.describe()}",
        explanation=explanation,
        severity=Severity(check.severity),
        confidence=1.0,
        evidence={"values": values, "check": check.to_dict()},
        suggestion=check.message or default,
        family=FAMILY,
        source="self_check",
    )


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"[{low:g}, {high:g}]"
    return f">= {low:g}" if low is not None else f"<= {high:g}"

