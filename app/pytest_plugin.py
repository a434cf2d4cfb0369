"""nbcritic's pytest plugin: test your own critic rules and analyses against real kernels.

Registered through the `pytest11` entry point, so installing nbcritic enables it. It needs
pytest-asyncio (the fixtures are async; they work in its `auto` and `strict` modes).

Fixtures (all function-scoped):
    nbcritic_generator  a fresh `ScriptedGenerator`: queue the fixes the retry loop will get
    nbcritic_service    a started `NotebookService` on `tmp_path` with that generator, the
                        marker's settings and rules; stopped after the test (no kernel left)
    nbcritic            a `NbcriticHarness` bound to both: `await nbcritic.run(code)`

Marker: `@pytest.mark.nbcritic(critic_min_confidence=0.5, rules=[my_rule], ...)` - any
`EngineConfig` field, plus `rules` (extra rules registered on the critic) and
`builtin_rules=False` (only those rules).

Assertion helpers (functions here, and methods of the harness), each failing with the status,
attempts, findings and escalation of the result: `assert_status`, `assert_findings`,
`assert_no_findings`, `assert_blocked`, `assert_attempts`, `assert_escalated`.

Importing this module is cheap: the engine is imported when a fixture is first used, so test
sessions that never ask for these fixtures pay nothing and start no kernel.
"""

from __future__ import annotations

import difflib
import fnmatch
import textwrap
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

try:
    import pytest_asyncio
except ImportError:  # pragma: no cover - the fixtures then fail with a clear message
    pytest_asyncio = None  # type: ignore[assignment]  # absent: checked where fixtures need it

if TYPE_CHECKING:
    from nbformat import NotebookNode

    from critics import Rule
    from services.cell_result import CellResult
    from services.config import EngineConfig
    from services.notebook_service import NotebookService
    from services.scripted_generator import ScriptedGenerator

__all__ = [
    "NbcriticHarness",
    "assert_attempts",
    "assert_blocked",
    "assert_escalated",
    "assert_findings",
    "assert_no_findings",
    "assert_status",
    "describe_result",
]

MARKER = "nbcritic"
MARKER_HELP = (
    "nbcritic(**settings): settings of the nbcritic_service fixture: any EngineConfig field "
    "(critic_min_confidence=0.5, critic_disabled_rules=[...], max_critique_retries=1, "
    "cell_timeout=30, ...), rules=[extra critic rules], builtin_rules=False (only those rules)"
)
PLUGIN_KEYS = ("rules", "builtin_rules")
# One kernel per test, started when the first cell runs (a warm pool would start a second one
# in the background as soon as the first is taken, only to shut it down); no idle reaper.
DEFAULTS: dict[str, Any] = {"pool_size": 0, "fsync_writes": False, "cell_timeout": 60.0,
                            "interrupt_grace": 3.0, "idle_kernel_timeout": 0}
BLOCKED = "scientific_validity_error"
SEVERITIES = ("info", "low", "medium", "high", "critical")


# -- pytest hooks ----------------------------------------------------------------------------

def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER_HELP)


# -- the marker ------------------------------------------------------------------------------

def marker_settings(node: pytest.Item) -> dict[str, Any]:
    """The `nbcritic` markers of a test (module, class, function), merged: the closest wins."""
    merged: dict[str, Any] = {}
    for mark in reversed(list(node.iter_markers(MARKER))):
        if mark.args:
            pytest.fail(f"@pytest.mark.{MARKER} takes keyword settings only, got positional "
                        f"{mark.args!r}", pytrace=False)
        merged.update(mark.kwargs)
    return merged


def build_config(settings: Mapping[str, Any], data_dir: Path) -> EngineConfig:
    """The service's EngineConfig: the plugin's defaults, then the marker's settings. An
    unknown setting or an invalid value fails the test with a message naming it."""
    from pydantic import ValidationError

    from services.config import EngineConfig

    known = set(EngineConfig.model_fields)
    values = {k: v for k, v in settings.items() if k not in PLUGIN_KEYS}
    for key in values:
        if key not in known:
            close = difflib.get_close_matches(key, [*known, *PLUGIN_KEYS], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            pytest.fail(f"@pytest.mark.{MARKER}: unknown setting {key!r}{hint}. Settings are "
                        f"{', '.join(PLUGIN_KEYS)} and the EngineConfig fields: "
                        f"{', '.join(sorted(known))}", pytrace=False)
    try:
        return EngineConfig(**{**DEFAULTS, "data_dir": data_dir, **values})
    except ValidationError as exc:
        problem = str(exc)
    pytest.fail(f"@pytest.mark.{MARKER}: invalid settings: {problem}", pytrace=False)


def _rules_from(value: Any) -> list[Rule]:
    from critics import Rule
    from critics.rules import rules_of

    items = [value] if isinstance(value, Rule | ModuleType) else value
    if not isinstance(items, Iterable) or isinstance(items, str | bytes):
        pytest.fail(f"@pytest.mark.{MARKER}: rules must be a list of rules (made with "
                    f"critics.rule) or modules, got {value!r}", pytrace=False)
    rules: list[Rule] = []
    for item in items:
        if isinstance(item, ModuleType):
            rules += rules_of(item)
        elif isinstance(item, Rule):
            rules.append(item)
        else:
            pytest.fail(f"@pytest.mark.{MARKER}: rules=[...] holds {item!r}, not a Rule "
                        "(decorate the check function with critics.rule(...))", pytrace=False)
    return rules


def build_service(settings: Mapping[str, Any], data_dir: Path,
                  generator: ScriptedGenerator | None) -> NotebookService:
    """A NotebookService (not started) as the marker describes it. Its critic runs the
    built-in rules and those installed under the `nbcritic.rules` entry point group, plus the
    marker's `rules` (which replace a rule of the same id); with `builtin_rules=False` only
    the marker's rules. The Claude critic is never used: tests stay deterministic."""
    from critics import AnalysisCritic
    from services.cell_review import CellReviewer
    from services.notebook_service import NotebookService

    config = build_config(settings, data_dir)
    extra = _rules_from(settings.get("rules", []))
    builtin = settings.get("builtin_rules", True)
    if not isinstance(builtin, bool):
        pytest.fail(f"@pytest.mark.{MARKER}: builtin_rules must be True or False, "
                    f"got {builtin!r}", pytrace=False)
    if builtin:
        critic = AnalysisCritic(disabled=config.critic_disabled_rules)
        for r in extra:
            critic.register(r, replace=True)
    else:
        critic = AnalysisCritic(rules=extra, disabled=config.critic_disabled_rules,
                                load_plugins=False)
    return NotebookService(config, reviewer=CellReviewer(config, critic=critic),
                           generator=generator)


# -- fixtures --------------------------------------------------------------------------------

@pytest.fixture
def nbcritic_generator() -> ScriptedGenerator:
    """A code generator that answers the retry loop with the fixes you queue, and records
    each request in `.calls` (`kind`, `code`, `feedback`, `history`)."""
    from services.scripted_generator import ScriptedGenerator

    return ScriptedGenerator()


async def _service(request: pytest.FixtureRequest, tmp_path: Path,
                   nbcritic_generator: ScriptedGenerator) -> AsyncIterator[NotebookService]:
    """A started NotebookService on `tmp_path / "nbcritic"` (real kernels), configured by the
    test's `@pytest.mark.nbcritic(...)`; stopped, with its kernels, after the test."""
    service = build_service(marker_settings(request.node), tmp_path / "nbcritic",
                            nbcritic_generator)
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


if pytest_asyncio is not None:
    nbcritic_service = pytest_asyncio.fixture(_service, name="nbcritic_service")
else:  # pragma: no cover
    @pytest.fixture(name="nbcritic_service")
    def _no_asyncio() -> None:
        pytest.fail("nbcritic's pytest fixtures need pytest-asyncio "
                    "(pip install 'nbcritic[dev]' or pytest-asyncio)", pytrace=False)


@pytest.fixture
def nbcritic(nbcritic_service: NotebookService,
             nbcritic_generator: ScriptedGenerator) -> NbcriticHarness:
    """Run cells in one notebook of the test's service and assert on their results."""
    return NbcriticHarness(nbcritic_service, nbcritic_generator)


# -- reading a result (a CellResult, or the dict the REST API returns) -------------------------

def _get(result: Any, key: str, default: Any = None) -> Any:
    if isinstance(result, Mapping):
        return result.get(key, default)
    return getattr(result, key, default)


def _status(result: Any) -> str:
    status = _get(result, "status")
    return str(getattr(status, "value", status))


def _is_critique(obj: Any) -> bool:
    return isinstance(obj, Mapping) and "findings" in obj and "status" not in obj


def _findings(result: Any, attempt: int | None = None) -> list[dict[str, Any]]:
    """The findings of the last attempt's critique, or the blocking findings of attempt
    `attempt` (1-based; earlier attempts keep only those), or a critique's findings."""
    __tracebackhide__ = True
    if _is_critique(result):
        return list(result.get("findings") or [])
    if attempt is None:
        return list((_get(result, "critique") or {}).get("findings") or [])
    attempts = _get(result, "attempts") or []
    if not 1 <= attempt <= len(attempts):
        raise AssertionError(f"attempt {attempt} does not exist: the result has "
                             f"{len(attempts)} attempt(s)\n{describe_result(result)}")
    return list(attempts[attempt - 1].get("findings") or [])


def _rank(severity: str) -> int:
    if severity not in SEVERITIES:
        raise ValueError(f"unknown severity {severity!r}: one of {', '.join(SEVERITIES)}")
    return SEVERITIES.index(severity)


def _at_least(findings: list[dict[str, Any]], severity: str | None) -> list[dict[str, Any]]:
    if severity is None:
        return findings
    floor = _rank(str(severity))
    return [f for f in findings if _rank(str(f.get("severity", "info"))) >= floor]


def _matches(pattern: str, finding: Mapping[str, Any]) -> bool:
    """A rule id, a family (`leakage`), or a glob over rule ids (`leakage.*`)."""
    rule_id = str(finding.get("rule_id", ""))
    return (pattern == rule_id or pattern == finding.get("family")
            or fnmatch.fnmatchcase(rule_id, pattern))


def _ids(value: str | Iterable[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _finding_line(f: Mapping[str, Any]) -> str:
    lines = (f.get("evidence") or {}).get("lines") or []
    where = f" line {','.join(map(str, lines))}" if lines else ""
    return (f"{str(f.get('severity', '?')).upper()} ({float(f.get('confidence', 0)):.2f}) "
            f"{f.get('rule_id', '?')}{where}: {f.get('title', '')}")


def describe_result(result: Any) -> str:
    """Status, error, attempts, findings, critic errors and escalation, for failure messages."""
    if _is_critique(result):
        found = result.get("findings") or []
        head = [f"critique of attempt {result.get('attempt', '?')}: {len(found)} finding(s)"]
        return "\n".join(head + [f"  {_finding_line(f)}" for f in found])
    out = [f"status: {_status(result)}"]
    error = _get(result, "error")
    if error and error.get("ename") == "ScientificValidityError":
        out[0] += " (ScientificValidityError: blocked by the critic)"
    elif error:
        first = str(error.get("evalue", "")).splitlines()[:1]
        out[0] += f" ({error.get('ename')}: {first[0] if first else ''})"
    attempts = _get(result, "attempts") or []
    out.append(f"attempts: {len(attempts)}")
    for a in attempts:
        cause = f", after {a['cause']}" if a.get("cause") else ""
        gen = ", generated" if a.get("generated") else ""
        err = a.get("error") or {}
        ename = f" {err.get('ename')}" if err.get("ename") else ""
        blocked = [f.get("rule_id") for f in a.get("findings") or []]
        by = f" blocked by {', '.join(blocked)}" if blocked else ""
        out.append(f"  {a.get('attempt')}. {a.get('status')}{ename}{by}{cause}{gen}")
    critique = _get(result, "critique")
    if critique is None:
        out.append("findings: no critique (the cell did not end ok)")
    elif critique.get("skipped"):
        out.append(f"findings: critic skipped ({critique.get('reason', '')})")
    else:
        found = critique.get("findings") or []
        out.append(f"findings of the last attempt: {len(found)}")
        out += [f"  {_finding_line(f)}" for f in found]
        if critique.get("overridden"):
            out.append(f"  (overridden: {critique['overridden'].get('how')})")
        for e in critique.get("errors") or []:
            out.append(f"  critic error in {e.get('rule_id', '?')}: {e.get('error', '')}")
    escalation = _get(result, "escalation")
    if escalation:
        out.append(f"escalation: {escalation.get('pattern')} - {escalation.get('reason', '')}")
        if escalation.get("question"):
            out.append(f"  question: {escalation['question']}")
    else:
        out.append("escalation: none")
    return "\n".join(out)


def _fail(message: str, result: Any) -> None:
    __tracebackhide__ = True
    raise AssertionError(f"{message}\n{describe_result(result)}")


# -- assertion helpers -------------------------------------------------------------------------

def assert_status(result: Any, status: str) -> None:
    """The result's final status (`ok`, `error`, `scientific_validity_error`, `timeout`, ...)."""
    __tracebackhide__ = True
    expected = str(getattr(status, "value", status))
    if _status(result) != expected:
        _fail(f"expected status {expected!r}, got {_status(result)!r}", result)


def assert_findings(result: Any, includes: str | Iterable[str] = (),
                    excludes: str | Iterable[str] = (), *,
                    severity_at_least: str | None = None,
                    attempt: int | None = None) -> list[dict[str, Any]]:
    """Findings of the last attempt (or the blocking findings of attempt `attempt`, or a
    critique from `NbcriticHarness.critiques`), optionally only those at `severity_at_least`:
    each of `includes` matches one, none of `excludes` matches any. A pattern is a rule id, a
    family or a glob (`leakage.*`). With neither, at least one finding must exist. Returns the
    findings considered."""
    __tracebackhide__ = True
    found = _at_least(_findings(result, attempt), severity_at_least)
    where = (f" in attempt {attempt}" if attempt else "") + (
        f" at severity >= {severity_at_least}" if severity_at_least else "")
    include, exclude = _ids(includes), _ids(excludes)
    missing = [p for p in include if not any(_matches(p, f) for f in found)]
    present = [p for p in exclude if any(_matches(p, f) for f in found)]
    if missing:
        _fail(f"expected finding(s) {', '.join(missing)}{where}, not found", result)
    if present:
        _fail(f"unexpected finding(s) {', '.join(present)}{where}", result)
    if not include and not exclude and not found:
        _fail(f"expected at least one finding{where}, found none", result)
    return found


def assert_no_findings(result: Any, *, severity_at_least: str = "info",
                       attempt: int | None = None) -> None:
    """No finding at or above `severity_at_least` (every finding, by default)."""
    __tracebackhide__ = True
    found = _at_least(_findings(result, attempt), severity_at_least)
    if found:
        where = f" in attempt {attempt}" if attempt else ""
        _fail(f"expected no finding at severity >= {severity_at_least}{where}, found "
              f"{', '.join(str(f.get('rule_id')) for f in found)}", result)


def assert_blocked(result: Any, rule_id: str | None = None) -> list[dict[str, Any]]:
    """The critic blocked the final result (`scientific_validity_error`), by `rule_id` (an id,
    family or glob) when given. Returns the blocking findings."""
    __tracebackhide__ = True
    if _status(result) != BLOCKED:
        _fail(f"expected the critic to block the result ({BLOCKED}), got status "
              f"{_status(result)!r}", result)
    error = _get(result, "error") or {}
    if error.get("ename") != "ScientificValidityError":
        _fail(f"expected a ScientificValidityError, got {error.get('ename')!r}", result)
    blocking = list(error.get("findings") or [])
    if rule_id is not None and not any(_matches(rule_id, f) for f in blocking):
        _fail(f"expected {rule_id} among the blocking findings, got "
              f"{', '.join(str(f.get('rule_id')) for f in blocking) or 'none'}", result)
    return blocking


def assert_attempts(result: Any, n: int, statuses: Iterable[str] | None = None) -> None:
    """Exactly `n` attempts (1: no retry), with these statuses in order when given."""
    __tracebackhide__ = True
    attempts = _get(result, "attempts") or []
    if len(attempts) != n:
        _fail(f"expected {n} attempt(s), got {len(attempts)}", result)
    if statuses is not None:
        want = [str(getattr(s, "value", s)) for s in statuses]
        got = [str(a.get("status")) for a in attempts]
        if want != got:
            _fail(f"expected attempt statuses {want}, got {got}", result)


def assert_escalated(result: Any, pattern: str | None = None) -> dict[str, Any]:
    """The retry loop gave up and asked the user, with this `pattern` when given
    (`no_code_generator`, `generator_failed`, `critique_budget_exhausted`,
    `error_budget_exhausted`, `same_finding_survived_fix`, `same_error_repeated`,
    `generator_repeated_code`, `token_budget_exhausted`). Returns the escalation
    (`pattern`, `reason`, `question`, `attempts`, ...)."""
    __tracebackhide__ = True
    escalation = _get(result, "escalation")
    if not escalation:
        _fail("expected the retry loop to escalate, it did not", result)
    want = None if pattern is None else str(getattr(pattern, "value", pattern))
    if want is not None and escalation.get("pattern") != want:
        _fail(f"expected escalation pattern {want!r}, got {escalation.get('pattern')!r}",
              result)
    return dict(escalation)


# -- the harness -----------------------------------------------------------------------------

def _code(source: str) -> str:
    """Triple-quoted test code, dedented, without its leading and trailing blank lines (so
    line 1 of a finding is the first line you wrote)."""
    return textwrap.dedent(source).strip("\n")


class NbcriticHarness:
    """One notebook in the test's service, created on first use and reused, so the variables
    of earlier cells exist in later ones (one kernel, as in Jupyter)."""

    def __init__(self, service: NotebookService, generator: ScriptedGenerator | None = None):
        self.service = service
        self.generator = generator
        self.notebook_id: str | None = None

    async def notebook(self) -> str:
        if self.notebook_id is None:
            self.notebook_id = await self.service.create_notebook()
        return self.notebook_id

    def queue(self, *answers: Any) -> NbcriticHarness:
        """Queue the generator's next answers (code strings are dedented like `run`'s, an
        exception is raised by the generator, a `Generation` is returned as is)."""
        if self.generator is None:
            raise RuntimeError("this harness has no scripted generator")
        self.generator.queue(*(_code(a) if isinstance(a, str) else a for a in answers))
        return self

    async def add(self, source: str = "", *, prompt: str | None = None,
                  metadata: Mapping[str, Any] | None = None) -> str:
        """Append a code cell (not run); return its id."""
        cell = await self.service.add_cell(await self.notebook(), source=_code(source),
                                           prompt=prompt,
                                           metadata=dict(metadata) if metadata else None)
        return str(cell.id)

    async def run(self, source: str = "", *, setup: str | Iterable[str] | None = None,
                  prompt: str | None = None, metadata: Mapping[str, Any] | None = None,
                  **options: Any) -> CellResult:
        """Append a cell and execute it through the whole flow (critic, retries, persist).

        `setup`: code cells appended and run first, without the critic and without retries
        (they must end `ok`); they are the cell's earlier cells, as the critic sees them.
        `prompt`: the cell's natural-language prompt (with no `source`, the generator writes
        the code). `metadata`: the cell's metadata (`{"tags": ["raises-exception"]}`,
        `{"nbcritic": {"disabled_rules": [...]}}`). `options`: `ExecuteOptions` fields
        (`timeout`, `critic`, `disabled_rules`, `override_critic`, `auto_fix`,
        `max_error_retries`, `max_critique_retries`, `replay_before_retry`, `checks` (self-
        checks: dicts as in cell metadata, or expression strings), ...)."""
        __tracebackhide__ = True
        execute = self._options(options)  # before anything runs
        if setup is not None:
            for i, code in enumerate([setup] if isinstance(setup, str) else list(setup), 1):
                await self._setup_cell(i, code)
        cell_id = await self.add(source, prompt=prompt, metadata=metadata)
        return await self.service.execute_cell(await self.notebook(), cell_id, execute)

    async def rerun(self, result: CellResult | Mapping[str, Any], **options: Any) -> CellResult:
        """Execute a cell again as it is stored (a single-cell execute: re-running a blocked
        cell whose code is the user's own and unchanged overrides the critic, as in the
        service; generated code is blocked again)."""
        return await self.service.execute_cell(_get(result, "notebook_id"),
                                               _get(result, "cell_id"), self._options(options))

    def cell(self, result: CellResult | Mapping[str, Any]) -> NotebookNode:
        """The stored cell of a result: final `source`, `outputs`, `metadata["nbcritic"]`."""
        return self.service.get_cell(_get(result, "notebook_id"), _get(result, "cell_id"))

    def critiques(self, result: CellResult | Mapping[str, Any]) -> list[dict[str, Any]]:
        """The critique of every reviewed attempt of a result (from the execution journal),
        each with its `attempt` number: a result keeps only its last attempt's critique, and
        `attempts[i]["findings"]` only the findings that blocked. Pass one to
        `assert_findings`."""
        events = self.service.journal.events(_get(result, "execution_id"), limit=100_000)
        return [e.data for e in events
                if e.type == "critique" and e.cell_id == _get(result, "cell_id")]

    async def _setup_cell(self, index: int, code: str) -> None:
        __tracebackhide__ = True
        from services.notebook_service import ExecuteOptions

        cell_id = await self.add(code)
        result = await self.service.execute_cell(
            await self.notebook(), cell_id, ExecuteOptions(critic=False, auto_fix=False))
        if str(result.status) != "ok":
            raise AssertionError(f"setup cell {index} did not run ok:\n"
                                 f"{describe_result(result)}")

    @staticmethod
    def _options(options: Mapping[str, Any]) -> Any:
        from services.notebook_service import ExecuteOptions

        names = [f.name for f in fields(ExecuteOptions)]
        unknown = [k for k in options if k not in names]
        if unknown:
            raise TypeError(f"unknown execute option(s) {', '.join(map(repr, unknown))}; "
                            f"options are {', '.join(names)}")
        values = dict(options)
        if isinstance(values.get("disabled_rules"), str):
            values["disabled_rules"] = (values["disabled_rules"],)
        if "disabled_rules" in values:
            values["disabled_rules"] = tuple(values["disabled_rules"])
        if "checks" in values:  # specs as in cell metadata: dicts, or expression strings
            from services.self_checks import SelfCheck, parse_checks

            raw = values["checks"]
            raw = [raw] if isinstance(raw, str | dict) else list(raw)
            values["checks"] = tuple(c if isinstance(c, SelfCheck) else parse_checks([c])[0]
                                     for c in raw)
        return ExecuteOptions(**values)

    @property
    def lessons(self) -> Any:
        """The test's lessons store (`services.lessons.LessonStore`): what fixed retries,
        escalations and reflections wrote."""
        return self.service.learning.lessons

    # the assertion helpers, as methods (no import needed in a test)
    assert_status = staticmethod(assert_status)
    assert_findings = staticmethod(assert_findings)
    assert_no_findings = staticmethod(assert_no_findings)
    assert_blocked = staticmethod(assert_blocked)
    assert_attempts = staticmethod(assert_attempts)
    assert_escalated = staticmethod(assert_escalated)
