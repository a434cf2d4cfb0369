"""Post-mortem reflection: the journal of some executions in, recurring trouble out.

`reflect()` is pure (events in, a `Reflection` out). It folds the events of each cell run
(one cell in one execution) into its attempts, critiques, retries, escalation, overrides
and final result, and looks across cell runs for patterns:

kind (what)                                  severity policy (by distinct cells)
repeated_error    the same exception type in     2 medium, 3 high, 5 critical; one step
                  failing attempts (expected     lower when retries got past every
                  errors, timeouts, blocked      occurrence; at least high when it is still
                  results excluded) of 2+ cell   the final error of 2+ cells; one cell on
                  runs                           several runs: low
repeated_finding  the same critic rule (a high   critical finding: as repeated_error
                  or critical finding) on        (fixed: gone from the cell's result; still
                  attempts of 2+ cell runs       failing: still blocking it); a high
                                                 finding: one step lower
budget_exhausted  escalations: error, critique   1 medium, 2 high, 4 critical
                  or token budget spent
stall             escalations: same finding or   1 medium, 2 high, 4 critical
                  error again, repeated code
generator_failed  escalations: generator failed  1 medium, 2 high, 4 critical
kernel_failure    attempts that timed out or     timeout: 1 medium, 2 high, 4 critical;
                  killed the kernel              dead kernel: 1 high, 2 critical (state lost)
slow_cell         results slower than            1 low; medium at 3 cells or at 4x the
                  `slow_cell_ms`                 threshold (never more: not a wrong result)
override          findings overridden, per rule  1 low, 2 medium, 3 high (the rule is likely
                                                 wrong for such data)

Severity follows the number of distinct cells, not of attempts: one cell retried five times
is the retry loop's business (its escalation is the pattern), one cell failing on every run
is that cell's problem (low); the same mistake in three cells is a habit. An escalation
pattern the table does not know becomes `escalated` (medium). A `no_code_generator`
escalation is not a pattern of its own (a hand-written cell the critic blocks: its finding
counts when it recurs).

Events of reflection records (execution ids starting with `REFLECTION_PREFIX`) and events of
type `reflection`/`improvement` are ignored, so a reflection never reflects on itself.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .attempt_lessons import libraries_of, verified
from .journal import Event

REFLECTION_PREFIX = "reflection-"
IGNORED_EVENT_TYPES = frozenset({"reflection", "improvement"})
SEVERITIES = ("info", "low", "medium", "high", "critical")
MAX_EXAMPLES = 3
MAX_EXAMPLE_CHARS = 160
SLOWEST_SHOWN = 3
KERNEL_FAILURES = {"timeout": "CellTimeoutError", "dead_kernel": "DeadKernelError"}
SLOW_FACTOR_MEDIUM = 4.0

# escalation pattern (iteration_control.Pattern values) -> pattern kind
ESCALATION_KINDS = {
    "error_budget_exhausted": "budget_exhausted",
    "critique_budget_exhausted": "budget_exhausted",
    "token_budget_exhausted": "budget_exhausted",
    "same_finding_survived_fix": "stall",
    "same_error_repeated": "stall",
    "generator_repeated_code": "stall",
    "generator_failed": "generator_failed",
    "no_code_generator": None,
}

# (severity, least distinct cells), ascending
Steps = tuple[tuple[str, int], ...]
BY_CELLS: dict[str, Steps] = {
    "repeated": (("medium", 2), ("high", 3), ("critical", 5)),
    "repeated_high_finding": (("low", 2), ("medium", 3), ("high", 5)),
    "escalation": (("medium", 1), ("high", 2), ("critical", 4)),
    "timeout": (("medium", 1), ("high", 2), ("critical", 4)),
    "dead_kernel": (("high", 1), ("critical", 2)),
    "override": (("low", 1), ("medium", 2), ("high", 3)),
    "slow": (("low", 1), ("medium", 3)),
}

SUGGESTIONS = {
    "repeated_error": "Give the code generator what it keeps getting wrong (the real names, "
                      "columns and types in the kernel) and keep the lesson for later runs.",
    "repeated_finding": "The same methodological mistake keeps being written: put the rule's "
                        "fix into the generator's instructions for this kind of analysis.",
    "budget_exhausted": "The retry budget ran out before a fix: decide the cell's approach by "
                        "hand, or raise the budget only if the attempts were converging.",
    "stall": "The generator did not use the feedback: answer the escalation's question, or "
             "give the cell a more specific prompt.",
    "generator_failed": "The code generator failed: check the API key, endpoint, model and "
                        "rate limits.",
    "kernel_failure": "Cells ran out of time or killed the kernel: work on a sample, lower "
                      "memory use, or raise the cell timeout.",
    "slow_cell": "Profile the slow cells; cache expensive steps or work on a sample while "
                 "iterating.",
    "override": "Users override this rule: review it for false positives on this kind of data.",
    "escalated": "Answer the escalation's question for the cell.",
}


class ReflectionError(ValueError):
    """A bad field in a reflection; the message starts with the field's path."""


# -- records -----------------------------------------------------------------------------------


@dataclass
class PatternFound:
    kind: str
    key: str  # stable identity (cooldowns, lessons): "repeated_error:KeyError"
    severity: str  # one of SEVERITIES, from the table in the module docstring
    count: int  # occurrences (attempts, escalations, overrides, slow results)
    cells: list[str]
    detail: str
    suggestion: str
    examples: list[str] = field(default_factory=list)  # at most MAX_EXAMPLES
    scope: dict[str, Any] = field(default_factory=dict)  # rule_ids, error_types, libraries
    fixes: list[str] = field(default_factory=list)  # how retries got past it (explanations)

    @property
    def headline(self) -> str:
        """One line naming the pattern and its reach (for titles and reports)."""
        name = self.key.split(":", 1)[1] if ":" in self.key else ""
        cells = f"{len(self.cells)} cell{'s' if len(self.cells) != 1 else ''}"
        what = {
            "repeated_error": f"{name} in {cells}",
            "repeated_finding": f"finding {name} in {cells}",
            "budget_exhausted": f"{name.replace('_', ' ')} in {cells}",
            "stall": f"retry stalled ({name.replace('_', ' ')}) in {cells}",
            "generator_failed": f"code generator failed in {cells}",
            "kernel_failure": f"{name.replace('_', ' ')} in {cells}",
            "slow_cell": f"{cells} slower than the threshold",
            "override": f"rule {name} overridden in {cells}",
            "escalated": f"escalated ({name.replace('_', ' ')}) in {cells}",
        }.get(self.kind, f"{self.key} in {cells}")
        return what[0].upper() + what[1:]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any, path: str = "pattern") -> PatternFound:
        data = read_mapping(data, path, ReflectionError)
        return cls(
            kind=read_field(data, "kind", str, path, ReflectionError),
            key=read_field(data, "key", str, path, ReflectionError),
            severity=read_field(data, "severity", str, path, ReflectionError,
                                choices=SEVERITIES),
            count=read_field(data, "count", int, path, ReflectionError),
            cells=_strings(read_field(data, "cells", list, path, ReflectionError),
                           f"{path}.cells"),
            detail=read_field(data, "detail", str, path, ReflectionError),
            suggestion=read_field(data, "suggestion", str, path, ReflectionError, default=""),
            examples=_strings(read_field(data, "examples", list, path, ReflectionError,
                                         default=[]), f"{path}.examples"),
            scope=dict(read_field(data, "scope", dict, path, ReflectionError, default={})),
            fixes=_strings(read_field(data, "fixes", list, path, ReflectionError, default=[]),
                           f"{path}.fixes"),
        )


@dataclass
class Reflection:
    notebook_id: str
    execution_ids: list[str]
    patterns: list[PatternFound]
    metrics: dict[str, Any]
    suggestions: list[str]
    created_at: float

    @property
    def clean(self) -> bool:
        return not self.patterns

    def to_dict(self) -> dict[str, Any]:
        metrics = dict(self.metrics)
        if "slowest_cells" in metrics:
            metrics["slowest_cells"] = [list(pair) for pair in metrics["slowest_cells"]]
        return {"notebook_id": self.notebook_id, "execution_ids": list(self.execution_ids),
                "patterns": [p.to_dict() for p in self.patterns], "metrics": metrics,
                "suggestions": list(self.suggestions), "created_at": self.created_at,
                "clean": self.clean}

    @classmethod
    def from_dict(cls, data: Any) -> Reflection:
        data = read_mapping(data, "reflection", ReflectionError)
        raw_patterns = read_field(data, "patterns", list, "", ReflectionError, default=[])
        metrics = dict(read_field(data, "metrics", dict, "", ReflectionError, default={}))
        if isinstance(metrics.get("slowest_cells"), list):
            try:
                metrics["slowest_cells"] = [(str(c), float(ms))
                                            for c, ms in metrics["slowest_cells"]]
            except (TypeError, ValueError) as exc:
                raise ReflectionError(
                    "metrics.slowest_cells: must be a list of [cell_id, ms] pairs") from exc
        return cls(
            notebook_id=read_field(data, "notebook_id", str, "", ReflectionError),
            execution_ids=_strings(read_field(data, "execution_ids", list, "",
                                              ReflectionError, default=[]), "execution_ids"),
            patterns=[PatternFound.from_dict(p, f"patterns[{i}]")
                      for i, p in enumerate(raw_patterns)],
            metrics=metrics,
            suggestions=_strings(read_field(data, "suggestions", list, "", ReflectionError,
                                            default=[]), "suggestions"),
            created_at=float(read_field(data, "created_at", (int, float), "",
                                        ReflectionError, default=0.0)),
        )

    def render(self) -> str:
        """A short plain-text report (the CLI prints it)."""
        m = self.metrics
        runs = len(self.execution_ids)
        head = (f"Reflection on notebook {self.notebook_id} "
                f"({runs} execution{'s' if runs != 1 else ''}): ")
        head += ("clean, nothing recurring." if self.clean else
                 f"{len(self.patterns)} pattern{'s' if len(self.patterns) != 1 else ''}.")
        retries = m.get("retries_by_cause", {})
        tokens = m.get("tokens", {})
        lines = [head, (
            f"  cells {m.get('cells', 0)}, attempts {m.get('attempts', 0)}, retries "
            f"{retries.get('error', 0)} error / {retries.get('critique', 0)} critique, "
            f"escalations {m.get('escalations', 0)}, overrides {m.get('overrides', 0)}, "
            f"tokens {tokens.get('total', 0)}, time {m.get('duration_ms', 0) / 1000:.1f} s")]
        statuses = m.get("statuses") or {}
        if statuses:
            lines.append("  statuses: " + ", ".join(f"{k} {v}" for k, v in statuses.items()))
        for p in self.patterns:
            lines.append(f"- [{p.severity}] {p.headline}: {p.detail}")
            lines.extend(f"    e.g. {example}" for example in p.examples)
        if self.suggestions:
            lines.append("Suggestions:")
            lines.extend(f"- {s}" for s in self.suggestions)
        return "\n".join(lines)


# -- field reading (shared with the improvement queue) ----------------------------------------

_MISSING: Any = object()


def read_mapping(data: Any, path: str, error: type[ValueError]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise error(f"{path}: must be an object")
    return data


def read_field(data: dict[str, Any], key: str, kinds: type | tuple[type, ...], path: str,
               error: type[ValueError], *, default: Any = _MISSING,
               choices: Iterable[str] | None = None) -> Any:
    """`data[key]` checked against `kinds` (bool is never a number); a bad value raises
    `error("<path>.<key>: ...")`."""
    name = f"{path}.{key}" if path else key
    if key not in data or data[key] is None:
        if default is _MISSING:
            raise error(f"{name}: is required")
        return default
    value = data[key]
    wanted = kinds if isinstance(kinds, tuple) else (kinds,)
    if isinstance(value, bool) and bool not in wanted:
        raise error(f"{name}: must be {_kind_names(wanted)}, not a boolean")
    if not isinstance(value, wanted):
        raise error(f"{name}: must be {_kind_names(wanted)}, not {type(value).__name__}")
    if choices is not None and value not in tuple(choices):
        raise error(f"{name}: must be one of {', '.join(choices)}, not {value!r}")
    return value


def _kind_names(kinds: tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "a boolean",
             list: "a list", dict: "an object"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _strings(values: list[Any], path: str) -> list[str]:
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise ReflectionError(f"{path}[{i}]: must be a string")
    return list(values)


# -- folding the journal into cell runs -------------------------------------------------------


@dataclass
class _CellRun:
    """One cell in one execution, as its events tell it."""

    execution_id: str
    cell_id: str
    attempts: list[dict[str, Any]] = field(default_factory=list)
    critiques: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # attempt -> ...
    retries: Counter[str] = field(default_factory=Counter)
    escalation: dict[str, Any] | None = None
    overrides: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None
    started_attempts: int = 0
    started_tokens: Counter[str] = field(default_factory=Counter)

    def add(self, event: Event) -> None:
        data = event.data if isinstance(event.data, dict) else {}
        if event.type == "attempt_started":
            self.started_attempts += 1
            self.attempts.append({"attempt": data.get("attempt", len(self.attempts) + 1),
                                  "code": data.get("code") or "", "status": "ok",
                                  "cause": data.get("cause")})
            for key, value in _dict(data.get("tokens")).items():
                if isinstance(value, int | float):
                    self.started_tokens[key] += int(value)  # token counts are whole
        elif event.type == "error" and self.attempts:  # the kernel's error output
            self.attempts[-1]["status"] = "error"
            self.attempts[-1]["error"] = {k: data.get(k) for k in ("ename", "evalue")}
        elif event.type == "critique":
            number = data.get("attempt", len(self.attempts))
            self.critiques[number] = [f for f in data.get("findings") or []
                                      if isinstance(f, dict)]
        elif event.type == "retry_scheduled":
            self.retries[str(data.get("cause") or "error")] += 1
        elif event.type == "escalated":
            self.escalation = data
        elif event.type == "override_applied":
            self.overrides.append(data)
        elif event.type == "final":
            self.final = data
            records = [a for a in data.get("attempts") or [] if isinstance(a, dict)]
            if records or not self.attempts:
                self.attempts = records  # the service's own records win over the fold

    @property
    def skipped(self) -> bool:
        return bool(self.final and self.final.get("skipped"))

    @property
    def expected_error(self) -> bool:
        return bool(self.final and self.final.get("expected_error"))

    @property
    def final_status(self) -> str | None:
        if self.final is None:
            return None
        return "skipped" if self.skipped else str(self.final.get("status", ""))

    def findings(self, attempt: int) -> list[dict[str, Any]]:
        """The attempt's critique (its event), else what the final result kept of it."""
        if attempt in self.critiques:
            return self.critiques[attempt]
        record = next((a for a in self.attempts if a.get("attempt") == attempt), None)
        if record is None:
            return []
        found = record.get("findings") or []
        if record is self.attempts[-1]:
            found = _dict((self.final or {}).get("critique")).get("findings") or found
        return [f for f in found if isinstance(f, dict)]

    def duration_ms(self) -> float:
        if self.final is not None and isinstance(self.final.get("duration_ms"), int | float):
            return float(self.final["duration_ms"])
        return float(sum(a.get("duration_ms") or 0 for a in self.attempts))

    def tokens(self) -> dict[str, int]:
        used = _dict((self.final or {}).get("tokens")) or self.started_tokens
        return {"input": int(used.get("input_tokens", 0)),
                "output": int(used.get("output_tokens", 0))}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _cell_runs(events: Iterable[Event]) -> tuple[list[str], list[_CellRun]]:
    execution_ids: dict[str, None] = {}  # in order of first appearance
    runs: dict[tuple[str, str], _CellRun] = {}
    for event in sorted(events, key=lambda e: e.seq):
        if event.execution_id.startswith(REFLECTION_PREFIX) or \
                event.type in IGNORED_EVENT_TYPES:
            continue
        execution_ids.setdefault(event.execution_id)
        if event.cell_id is None:
            continue
        key = (event.execution_id, event.cell_id)
        run = runs.get(key)
        if run is None:
            run = runs[key] = _CellRun(event.execution_id, event.cell_id)
        run.add(event)
    return list(execution_ids), list(runs.values())


# -- patterns ---------------------------------------------------------------------------------


def _severity(cells: int, steps: Steps) -> str | None:
    found = None
    for severity, least in steps:
        if cells >= least:
            found = severity
    return found


def _raise(severity: str, to: str) -> str:
    return max(severity, to, key=SEVERITIES.index)


def _short(text: Any, limit: int = MAX_EXAMPLE_CHARS) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_line(text: Any) -> str:
    lines = [line for line in str(text or "").strip().splitlines() if line.strip()]
    return lines[0] if lines else ""


def _unique(items: Iterable[str], limit: int | None = MAX_EXAMPLES) -> list[str]:
    """Non-empty items, first occurrences only, at most `limit` (None: all)."""
    out: list[str] = []
    for item in items:
        if limit is not None and len(out) == limit:
            break
        if item and item not in out:
            out.append(item)
    return out


def _cells_text(cells: list[str]) -> str:
    shown = ", ".join(cells[:5])
    return shown + (f" and {len(cells) - 5} more" if len(cells) > 5 else "")


_SITE_PACKAGE = re.compile(r"(?:site|dist)-packages[/\\]([A-Za-z_]\w*)")


def _libraries(codes: Iterable[str], tracebacks: Iterable[str] = ()) -> list[str]:
    """Imported by the code, or on the traceback's library frames."""
    found = set(libraries_of(*codes))
    for text in tracebacks:
        found.update(m.group(1) for m in _SITE_PACKAGE.finditer(text))
    return sorted(found - {"IPython", "ipykernel", "_pytest"})


@dataclass
class _Tally:
    """Occurrences of one would-be pattern."""

    count: int = 0
    cells: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)  # explanations of attempts that fixed it
    unresolved: set[str] = field(default_factory=set)  # cells it still fails or blocks
    lingering: set[str] = field(default_factory=set)  # cells whose result still shows it
    extra: dict[str, Any] = field(default_factory=dict)
    runs: set[tuple[str, str]] = field(default_factory=set)  # (execution, cell)

    def hit(self, cell_id: str, example: str = "", code: str = "",
            execution_id: str = "") -> None:
        self.count += 1
        self.runs.add((execution_id, cell_id))
        if cell_id not in self.cells:
            self.cells.append(cell_id)
        if example:
            self.examples.append(example)
        if code:
            self.codes.append(code)


def _repeated_severity(tally: _Tally, steps: Steps) -> str | None:
    """By distinct cells; one step lower when retries got past every occurrence (the loop
    coped: worth a lesson, rarely a request); at least high when it still fails (or
    blocks) two or more cells. One cell it recurs in on several runs: low (that cell's
    problem, reported, not a habit)."""
    if len(tally.cells) < 2:
        return "low" if len(tally.runs) >= 2 else None
    if not tally.lingering:
        steps = tuple((SEVERITIES[max(0, SEVERITIES.index(sev) - 1)], least)
                      for sev, least in steps)
    severity = _severity(len(tally.cells), steps)
    if severity is not None and len(tally.unresolved) >= 2:
        severity = _raise(severity, "high")
    return severity


def _fix_after(attempts: list[dict[str, Any]], index: int) -> str:
    """The explanation of the attempt that followed a failure and was verified (ended `ok`
    and passed the critic, no override)."""
    if index + 1 < len(attempts) and verified(attempts[index + 1]):
        return _short(attempts[index + 1].get("explanation") or "", 300)
    return ""


def _error_patterns(runs: list[_CellRun]) -> list[PatternFound]:
    by_type: dict[str, _Tally] = defaultdict(_Tally)
    by_failure: dict[str, _Tally] = defaultdict(_Tally)
    for run in runs:
        if run.expected_error:
            continue
        for index, record in enumerate(run.attempts):
            status = record.get("status")
            error = _dict(record.get("error"))
            if status in KERNEL_FAILURES:
                tally = by_failure[status]
                tally.hit(run.cell_id, _short(_first_line(error.get("evalue"))),
                          record.get("code") or "")
                continue
            if status != "error" or not error.get("ename"):
                continue
            ename = str(error["ename"])
            tally = by_type[ename]
            tally.hit(run.cell_id, _short(f"{ename}: {_first_line(error.get('evalue'))}"),
                      record.get("code") or "", run.execution_id)
            tally.tracebacks.append("\n".join(map(str, error.get("traceback") or [])))
            analysis = _dict(record.get("analysis"))
            if analysis.get("hint"):
                tally.extra.setdefault("hints", []).append(_short(analysis["hint"], 300))
            fix = _fix_after(run.attempts, index)
            if fix:
                tally.fixes.append(fix)
            if index == len(run.attempts) - 1 and run.final_status == "error":
                tally.unresolved.add(run.cell_id)
                tally.lingering.add(run.cell_id)
    patterns = []
    for ename, tally in by_type.items():
        severity = _repeated_severity(tally, BY_CELLS["repeated"])
        if severity is None:
            continue
        still = (f" It is still the final error of {len(tally.unresolved)} of them."
                 if tally.unresolved else " Retries got past every occurrence.")
        hints = _unique(tally.extra.get("hints", []), 1)
        patterns.append(PatternFound(
            kind="repeated_error", key=f"repeated_error:{ename}", severity=severity,
            count=tally.count, cells=tally.cells,
            detail=(f"{ename} was raised {tally.count} time{'s' if tally.count != 1 else ''} "
                    f"in {len(tally.cells)} cells ({_cells_text(tally.cells)}).{still}"),
            suggestion=SUGGESTIONS["repeated_error"] + (f" Hint: {hints[0]}" if hints else ""),
            examples=_unique(tally.examples),
            scope={"rule_ids": [], "error_types": [ename],
                   "libraries": _libraries(tally.codes, tally.tracebacks)},
            fixes=_unique(tally.fixes),
        ))
    for status, tally in by_failure.items():
        severity = _severity(len(tally.cells), BY_CELLS[status])
        if severity is None:
            continue
        what = "timed out" if status == "timeout" else "killed the kernel"
        patterns.append(PatternFound(
            kind="kernel_failure", key=f"kernel_failure:{status}", severity=severity,
            count=tally.count, cells=tally.cells,
            detail=(f"{tally.count} attempt{'s' if tally.count != 1 else ''} {what} in "
                    f"{len(tally.cells)} cell{'s' if len(tally.cells) != 1 else ''} "
                    f"({_cells_text(tally.cells)})."),
            suggestion=SUGGESTIONS["kernel_failure"], examples=_unique(tally.examples),
            scope={"rule_ids": [], "error_types": [KERNEL_FAILURES[status]],
                   "libraries": _libraries(tally.codes)},
        ))
    return patterns


def _finding_patterns(runs: list[_CellRun]) -> list[PatternFound]:
    by_rule: dict[str, _Tally] = defaultdict(_Tally)
    for run in runs:
        for index, record in enumerate(run.attempts):
            number = record.get("attempt", index + 1)
            for finding in run.findings(number):
                if finding.get("severity") not in ("high", "critical"):
                    continue
                rule_id = str(finding.get("rule_id") or "")
                if not rule_id:
                    continue
                tally = by_rule[rule_id]
                tally.hit(run.cell_id, _short(finding.get("title") or rule_id),
                          record.get("code") or "", run.execution_id)
                if finding.get("severity") == "critical":
                    tally.extra["critical"] = True
                if finding.get("suggestion"):
                    tally.extra.setdefault("suggestion", _short(finding["suggestion"], 300))
                fix = _fix_after(run.attempts, index) if record.get("status") != "ok" else ""
                if fix:
                    tally.fixes.append(fix)
                if index == len(run.attempts) - 1:
                    tally.lingering.add(run.cell_id)
                    if record.get("status") == "scientific_validity_error":
                        tally.unresolved.add(run.cell_id)
    patterns = []
    for rule_id, tally in by_rule.items():
        steps = BY_CELLS["repeated" if tally.extra.get("critical") else "repeated_high_finding"]
        severity = _repeated_severity(tally, steps)
        if severity is None:
            continue
        title = tally.examples[0] if tally.examples else rule_id
        patterns.append(PatternFound(
            kind="repeated_finding", key=f"repeated_finding:{rule_id}", severity=severity,
            count=tally.count, cells=tally.cells,
            detail=(f"The critic reported \u201c{title}\u201d ({rule_id}) on {tally.count} "
                    f"attempt{'s' if tally.count != 1 else ''} of {len(tally.cells)} cells "
                    f"({_cells_text(tally.cells)})."),
            suggestion=(f"{tally.extra['suggestion'].rstrip('.')}. " if
                        tally.extra.get("suggestion") else "") + SUGGESTIONS["repeated_finding"],
            examples=_unique(tally.examples),
            scope={"rule_ids": [rule_id], "error_types": [],
                   "libraries": _libraries(tally.codes)},
            fixes=_unique(tally.fixes),
        ))
    return patterns


def _escalation_patterns(runs: list[_CellRun]) -> list[PatternFound]:
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for run in runs:
        if run.escalation is None:
            continue
        name = str(run.escalation.get("pattern") or "unknown")
        if ESCALATION_KINDS.get(name, "escalated") is None:
            continue
        last = run.attempts[-1] if run.attempts else {}
        tally = tallies[name]
        tally.hit(run.cell_id, _short(run.escalation.get("reason", "")), last.get("code") or "")
        rules = tally.extra.setdefault("rule_ids", set())
        rules.update(str(f.get("rule_id")) for f in last.get("findings") or []
                     if isinstance(f, dict) and f.get("rule_id"))
        ename = _dict(last.get("error")).get("ename")
        if ename and last.get("status") != "scientific_validity_error":
            tally.extra.setdefault("error_types", set()).add(str(ename))
    patterns = []
    for name, tally in tallies.items():
        kind = ESCALATION_KINDS.get(name, "escalated")
        assert kind is not None
        severity = _severity(len(tally.cells), BY_CELLS["escalation"]) or "medium"
        key = "generator_failed" if kind == "generator_failed" else f"{kind}:{name}"
        patterns.append(PatternFound(
            kind=kind, key=key, severity=severity, count=tally.count, cells=tally.cells,
            detail=(f"The retry loop escalated with {name} in {len(tally.cells)} "
                    f"cell{'s' if len(tally.cells) != 1 else ''} ({_cells_text(tally.cells)})."),
            suggestion=SUGGESTIONS[kind], examples=_unique(tally.examples),
            scope={"rule_ids": sorted(tally.extra.get("rule_ids", ())),
                   "error_types": sorted(tally.extra.get("error_types", ())),
                   "libraries": _libraries(tally.codes)},
        ))
    return patterns


def _slow_pattern(runs: list[_CellRun], slow_cell_ms: float) -> list[PatternFound]:
    slow = sorted(((run.duration_ms(), run.cell_id) for run in runs
                   if not run.skipped and run.duration_ms() > slow_cell_ms), reverse=True)
    cells = _unique((cell for _, cell in slow), limit=None)
    severity = _severity(len(cells), BY_CELLS["slow"])
    if severity is None:
        return []
    slowest = slow[0][0]
    if slowest >= SLOW_FACTOR_MEDIUM * slow_cell_ms:
        severity = _raise(severity, "medium")
    return [PatternFound(
        kind="slow_cell", key="slow_cell", severity=severity, count=len(slow), cells=cells,
        detail=(f"{len(cells)} cell{'s' if len(cells) != 1 else ''} took longer than "
                f"{slow_cell_ms / 1000:g} s ({_cells_text(cells)}; slowest "
                f"{slowest / 1000:.1f} s)."),
        suggestion=SUGGESTIONS["slow_cell"],
        examples=[f"{cell}: {ms / 1000:.1f} s" for ms, cell in slow[:MAX_EXAMPLES]],
        scope={"rule_ids": [], "error_types": [], "libraries": []},
    )]


def _override_patterns(runs: list[_CellRun]) -> list[PatternFound]:
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for run in runs:
        for override in run.overrides:
            for rule_id in override.get("findings") or []:
                how = override.get("how", "override")
                by = override.get("by", "user")
                reason = f" ({_short(override['reason'], 80)})" if override.get("reason") else ""
                tallies[str(rule_id)].hit(run.cell_id, f"{run.cell_id}: {how} by {by}{reason}")
    patterns = []
    for rule_id, tally in tallies.items():
        severity = _severity(len(tally.cells), BY_CELLS["override"])
        if severity is None:
            continue
        patterns.append(PatternFound(
            kind="override", key=f"override:{rule_id}", severity=severity, count=tally.count,
            cells=tally.cells,
            detail=(f"Findings of {rule_id} were overridden {tally.count} "
                    f"time{'s' if tally.count != 1 else ''} in {len(tally.cells)} "
                    f"cell{'s' if len(tally.cells) != 1 else ''} ({_cells_text(tally.cells)})."),
            suggestion=SUGGESTIONS["override"], examples=_unique(tally.examples),
            scope={"rule_ids": [rule_id], "error_types": [], "libraries": []},
        ))
    return patterns


# -- metrics ----------------------------------------------------------------------------------


def _metrics(runs: list[_CellRun]) -> dict[str, Any]:
    counted = [r for r in runs if not r.skipped]
    statuses: Counter[str] = Counter(r.final_status for r in runs if r.final_status)
    retries = Counter[str]({"error": 0, "critique": 0})
    tokens = {"input": 0, "output": 0}
    slowest: dict[str, float] = {}
    escalation_patterns: Counter[str] = Counter()
    for run in counted:
        retries.update(run.retries)
        for key, value in run.tokens().items():
            tokens[key] += value
        if run.final is not None:
            slowest[run.cell_id] = max(slowest.get(run.cell_id, 0.0), run.duration_ms())
        if run.escalation is not None:
            escalation_patterns[str(run.escalation.get("pattern") or "unknown")] += 1
    top = sorted(slowest.items(), key=lambda item: (-item[1], item[0]))[:SLOWEST_SHOWN]
    return {
        "cells": len({r.cell_id for r in counted}),
        "cell_runs": len(counted),
        "attempts": sum(max(r.started_attempts, len(r.attempts)) for r in counted),
        "retries_by_cause": dict(retries),
        "tokens": {**tokens, "total": tokens["input"] + tokens["output"]},
        "duration_ms": round(sum(r.duration_ms() for r in counted if r.final), 3),
        "statuses": dict(sorted(statuses.items())),
        "escalations": sum(escalation_patterns.values()),
        "escalation_patterns": dict(sorted(escalation_patterns.items())),
        "overrides": sum(len(r.overrides) for r in runs),
        "slowest_cells": [(cell, round(ms, 3)) for cell, ms in top],
    }


# -- the entry points -------------------------------------------------------------------------


def reflect(notebook_id: str, events: list[Event], *, slow_cell_ms: float = 30_000,
            clock: Callable[[], float] = time.time) -> Reflection:
    """Patterns, metrics and suggestions of the executions the events belong to."""
    if isinstance(slow_cell_ms, bool) or not isinstance(slow_cell_ms, int | float) \
            or slow_cell_ms <= 0:
        raise ReflectionError("slow_cell_ms: must be a number > 0")
    execution_ids, runs = _cell_runs(e for e in events if e.notebook_id == notebook_id)
    patterns = (_error_patterns(runs) + _finding_patterns(runs) + _escalation_patterns(runs)
                + _slow_pattern(runs, slow_cell_ms) + _override_patterns(runs))
    patterns.sort(key=lambda p: (-SEVERITIES.index(p.severity), -len(p.cells), -p.count, p.key))
    suggestions = _unique((p.suggestion for p in patterns), limit=None)
    return Reflection(notebook_id, execution_ids, patterns, _metrics(runs), suggestions,
                      clock())


# -- lessons ------------------------------------------------------------------------------------

LESSON_CATEGORIES = {"repeated_error": "mistake", "repeated_finding": "mistake",
                     "budget_exhausted": "pattern", "stall": "pattern", "escalated": "pattern",
                     "kernel_failure": "tip"}
LESSON_MIN_SEVERITY = "medium"


def lesson_drafts(reflection: Reflection) -> list[dict[str, Any]]:
    """Lesson dicts (`Lesson.from_dict` shape), one per pattern worth remembering: of a kind
    the code generator can act on (not slow cells, overrides or a failing generator: those
    are for people, through improvement requests) and at least `LESSON_MIN_SEVERITY`.
    Titles and texts name no cells and no counts, so the same pattern found by a later
    reflection merges into the same lesson."""
    drafts = []
    floor = SEVERITIES.index(LESSON_MIN_SEVERITY)
    for p in reflection.patterns:
        category = LESSON_CATEGORIES.get(p.kind)
        if category is None or SEVERITIES.index(p.severity) < floor:
            continue
        title, wrong = _lesson_text(p)
        if p.examples:
            wrong += " Seen: " + "; ".join(p.examples) + "."
        drafts.append({
            "title": title, "category": category, "severity": p.severity,
            "what_went_wrong": wrong, "what_fixed_it": p.fixes[0] if p.fixes else "",
            "scope": {"rule_ids": list(p.scope.get("rule_ids") or []),
                      "error_types": list(p.scope.get("error_types") or []),
                      "libraries": list(p.scope.get("libraries") or []),
                      "columns": [], "tags": ["reflection", p.kind]},
            "source": {"notebook_id": reflection.notebook_id, "reflection": True,
                       "pattern_key": p.key, "execution_ids": list(reflection.execution_ids)},
        })
    return drafts


def _lesson_text(p: PatternFound) -> tuple[str, str]:
    """(title, what went wrong) without cell ids or counts."""
    name = p.key.split(":", 1)[1] if ":" in p.key else p.kind
    about = ", ".join((p.scope.get("rule_ids") or []) + (p.scope.get("error_types") or []))
    on = f" ({about})" if about else ""
    if p.kind == "repeated_error":
        return (f"{name} in several cells",
                f"{name} was raised in several cells of one run.")
    if p.kind == "repeated_finding":
        title = p.examples[0] if p.examples else name
        return (f"{title} ({name}) in several cells",
                f"The critic flagged \u201c{title}\u201d ({name}) in several cells of one run.")
    if p.kind == "kernel_failure":
        what = "Cells timed out" if name == "timeout" else "A cell killed the kernel"
        return what, f"{what} while running."
    words = name.replace("_", " ")
    if p.kind == "stall":
        return (f"Retry stalled: {words}{on}",
                f"The retry loop stopped early ({words}){on}: the fix did not change the "
                "outcome.")
    return (f"{words[0].upper()}{words[1:]}{on}",
            f"The retry loop gave up ({words}){on}.")
