"""nbcritic's IPython magics: the analysis critic and the retry loop inside a notebook.

    %load_ext app.magics

* `%%critique [options]` runs the cell, reviews the result with `AnalysisCritic`, shows the
  findings, and with a code generator configured retries a failing or blocked cell within
  budgets (each attempt and the diff of its code are shown; accepted code goes to the next
  input, the user's cell is never rewritten).
* `%%ask [options] PROMPT` has the generator write the cell's code from PROMPT (the cell
  body, if any, is extra context), then runs it through the same loop.
* `%critic ...` shows or changes the settings, lists the rules, shows the last critique,
  accepts findings, picks the code generator, turns automatic review of every cell on or
  off, and connects to (or disconnects from) a running nbcritic service (remote mode).

Local mode runs cells in this kernel (`app.magics_local`); remote mode sends them to the
service over REST and replays its event stream (`app.magics_remote`). Displays are built in
`app.magics_display`; coroutines run on a private loop (`app.magics_event_loop`).
"""

from __future__ import annotations

import ast
import contextlib
import logging
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

from critics import AnalysisCritic, Finding
from services import trace_request
from services.cell_evidence import gather_in_process, snapshot_before
from services.cell_metadata import fingerprint, now_iso
from services.cell_review import nearest_within_budget
from services.code_generator import CodeGenerator
from services.learning import Learning
from services.scientific_validity import ScientificValidityError, blocking_findings
from services.self_checks import CheckSpecError, parse_checks
from services.shell_capture import OutputCapture
from services.shell_executor import start_trace
from services.status import CellStatus

from .magics_display import (
    Panel,
    critique_panel,
    escalation_panel,
    message_panel,
    summary_panel,
)
from .magics_event_loop import BackgroundLoop
from .magics_local import (
    AttemptRecord,
    CellRun,
    LocalRunner,
    RunOptions,
    current_user,
    generator_name,
)
from .magics_remote import RemoteError, RemoteRunner, RemoteSession
from .settings import Settings

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

log = logging.getLogger(__name__)

LOAD_LINE = "%load_ext app.magics"
MAX_RETRIES_LIMIT = 20
# `%critic set KEY VALUE`: short names, and the Settings field each one sets
SETTABLE = {
    "min_confidence": "critic_min_confidence",
    "disabled_rules": "critic_disabled_rules",
    "critic_enabled": "critic_enabled",
    "llm": "critic_llm",
    "auto_fix": "auto_fix",
    "max_error_retries": "max_error_retries",
    "max_critique_retries": "max_critique_retries",
    "cell_token_budget": "cell_token_budget",
    "feedback_max_chars": "feedback_max_chars",
    "context_max_chars": "context_max_chars",
    "introspection_budget_ms": "introspection_budget_ms",
    "cell_timeout": "cell_timeout",
}
# history entries that are our own magics: their code is recorded separately
_OWN_MAGIC = re.compile(
    r"^\s*get_ipython\(\)\.(?:run_cell_magic\(['\"](?:critique|ask)['\"]"
    r"|run_line_magic\(['\"](?:critic|load_ext|reload_ext)['\"])")
_ASK_FLAGS = {"--force", "--no-retry", "--plan"}
_ASK_VALUED = {"--max-retries", "--min-confidence", "--rules", "--skip-rules", "--check"}

CRITIC_USAGE = """\
%critic                          show the settings (local or remote mode, generator, auto)
%critic set KEY VALUE            change a setting: {keys}
%critic rules                    list the critic's rules
%critic last                     show the last critique (findings, attempts, escalation)
%critic accept [REASON]          the last cell's current findings stop blocking that code
%critic generator claude|off|NAME  Claude (ANTHROPIC_API_KEY), none, or a CodeGenerator
                                 object named NAME in the namespace (e.g. a ScriptedGenerator)
%critic auto on|off              review every executed cell (no retry; flags critical findings)
%critic connect URL [--token T]  send %%critique/%%ask cells to an nbcritic service (remote mode)
%critic disconnect               back to local mode
%critic lessons [TEXT]           lessons learned (NBCRITIC_DATA_DIR), or those matching TEXT
""".format(keys=", ".join(SETTABLE)).rstrip()


class CodeGenerationError(Exception):
    """%%ask could not get code from the generator (shown as an escalation)."""


def rule_matches(rule_id: str, family: str, patterns: set[str]) -> bool:
    """Exact id, family, or an id prefix ending in '.' or '*' (as `critic_disabled_rules`)."""
    if rule_id in patterns or family in patterns:
        return True
    return any(p.endswith((".", "*")) and rule_id.startswith(p.rstrip("*")) for p in patterns)


def _checks(values: list[str]) -> list[Any]:
    """--check values: a JSON object is a spec, anything else an expression."""
    import json

    raw: list[Any] = []
    for index, value in enumerate(values):
        text = value.strip().strip("'\"") if value.strip()[:1] in "'\"" else value.strip()
        if text.startswith("{"):
            try:
                raw.append(json.loads(text))
            except json.JSONDecodeError as exc:
                raise UsageError(f"--check {index + 1}: invalid JSON ({exc})") from None
        else:
            raw.append(text)
    try:
        return parse_checks(raw, field="--check")
    except CheckSpecError as exc:
        raise UsageError(str(exc)) from None


def _split_list(value: str | None) -> list[str]:
    return [p.strip() for p in (value or "").split(",") if p.strip()]


def _load_settings() -> Settings:
    try:
        return Settings()
    except Exception as exc:  # a broken NBCRITIC_* variable must not stop the extension
        print(f"nbcritic: settings could not be read ({type(exc).__name__}: {exc}); "
              "using the defaults", file=sys.stderr)
        return Settings.model_construct()


def _critique_options(func: Any) -> Any:
    for deco in reversed([
        argument("--force", action="store_true",
                 help="Override the critic: critical findings do not block this run (the "
                      "critique still runs and is shown, marked overridden)."),
        argument("--max-retries", type=int, default=None, metavar="N",
                 help="Both retry budgets (after errors, after blocked results) for this "
                      "cell; needs a code generator. Default: the settings (3 and 2)."),
        argument("--no-retry", action="store_true",
                 help="Review only: never rewrite the cell, even with a generator."),
        argument("--min-confidence", type=float, default=None, metavar="X",
                 help="Confidence (0..1) a critical finding needs to block. Default: the "
                      "settings (0.8)."),
        argument("--rules", default=None, metavar="A,B",
                 help="Run only these rules (ids, families or prefixes like leakage.*)."),
        argument("--skip-rules", default=None, metavar="A,B",
                 help="Skip these rules (ids, families, prefixes; `claude`: no LLM critic)."),
        argument("--check", action="append", default=None, metavar="EXPR",
                 help="A self-check run after the cell succeeds: a Python expression that "
                      "must be true, or a JSON spec ({\"type\": \"no_missing\", \"target\": "
                      "\"df\"}); a failed check blocks like a critical finding (repeatable)."),
    ]):
        func = deco(func)
    return func


@magics_class
class CriticMagics(Magics):
    """The magics' state: settings, critic, generator, overrides, the last run, remote
    session and the automatic-review hooks."""

    shell: InteractiveShell  # never None here: IPython passes its shell when loading these

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.settings = _load_settings()
        self._critic: AnalysisCritic | None = None
        self.generator: CodeGenerator | None = None
        if self.settings.anthropic_api_key is not None:
            try:
                self.generator = self.settings.build_generator()
            except Exception as exc:
                print(f"nbcritic: the Claude generator could not be built: {exc}",
                      file=sys.stderr)
        self.loop = BackgroundLoop()
        self.accepted: dict[str, dict[str, Any]] = {}  # fingerprint -> acceptance record
        self.last: CellRun | None = None
        self.auto = False
        self.remote: RemoteSession | None = None
        self.ran_code: dict[int, str] = {}  # execution count -> code our magic ran there
        self._depth = 0  # > 0 while a magic runs cells itself
        self._magic_cell = False  # the current top-level cell is one of our magics
        self._cell_info: Any = None  # ExecutionInfo of the current top-level cell
        self._count = 0  # execution count of the magic's own cell
        self._auto_capture: OutputCapture | None = None
        self._auto_before: dict[str, Any] | None = None
        self._auto_traced = False  # the recorder runs for this automatic review
        self._learning: Learning | None = None
        self.planner: Any = None
        if self.settings.anthropic_api_key is not None:
            with contextlib.suppress(Exception):
                self.planner = self.settings.build_planner()

    def learning(self) -> Learning | None:
        """The lessons store of NBCRITIC_DATA_DIR, opened on first use (None when lessons
        are off or the store cannot be opened)."""
        if self._learning is None and self.settings.lessons_enabled:
            try:
                self._learning = self.settings.build_learning()
            except Exception as exc:
                print(f"nbcritic: lessons unavailable ({type(exc).__name__}: {exc})",
                      file=sys.stderr)
                self.settings.lessons_enabled = False
        return self._learning

    # -- shared pieces --------------------------------------------------------------------

    @property
    def analysis_critic(self) -> AnalysisCritic:
        if self._critic is None:
            self._critic = self.settings.build_reviewer().critic
        return self._critic

    def prior_cells(self, upto: int | None = None) -> list[str]:
        """Code of the cells run before cell `upto` (default: the current cell), oldest
        first, the nearest kept within the service's budget: what the critic reads
        imports from, and what the generator is told about the notebook."""
        history = getattr(self.shell.history_manager, "input_hist_parsed", [])
        if upto is None:
            upto = self._count
        parts: list[str] = []
        for n in range(1, min(upto, len(history))):
            code = self.ran_code.get(n)
            if code is None:
                code = history[n]
                if not code.strip() or _OWN_MAGIC.match(code) or not _parses(code):
                    continue
            parts.append(code)
        return nearest_within_budget(parts)

    def _count_of(self, outer: Any) -> int:
        """The execution count of the running top-level cell (IPython 9 increments the
        counter before a cell runs, older versions after)."""
        if outer is not None and getattr(outer, "execution_count", None):
            return int(outer.execution_count)
        return max(1, int(self.shell.execution_count) - 1)

    def _runner(self) -> LocalRunner:
        return LocalRunner(self.shell, config=self.settings, critic=self.analysis_critic,
                           generator=self.generator, loop=self.loop,
                           prior_cells=self.prior_cells, accepted=self.accepted,
                           learning=self.learning, planner=self.planner)

    def _enter_magic(self) -> Any:
        """Mark the cell as ours (automatic review skips it) and return the cell's own
        ExecutionResult (to mark it failed), taken before any nested run replaces it."""
        outer = getattr(self.shell.displayhook, "exec_result", None)
        if self._depth == 0:
            self._magic_cell = True
            self._stop_auto_capture()
            self._count = self._count_of(outer)
        return outer

    def _options(self, args: Any, *, remote: bool) -> RunOptions:
        options = RunOptions(force=bool(args.force))
        if args.no_retry and args.max_retries is not None:
            raise UsageError("--no-retry and --max-retries contradict each other")
        if args.no_retry:
            options.retry = False
        if args.max_retries is not None:
            if not 0 <= args.max_retries <= MAX_RETRIES_LIMIT:
                raise UsageError(f"--max-retries must be between 0 and {MAX_RETRIES_LIMIT}")
            has_generator = (bool(self.remote.critic.get("generator")) if remote and self.remote
                             else self.generator is not None)
            if not has_generator:
                where = ("the service has no code generator (it needs ANTHROPIC_API_KEY)"
                         if remote else "no code generator is configured: use `%critic "
                         "generator claude` or `%critic generator NAME`")
                raise UsageError(f"--max-retries needs a code generator to rewrite the cell; "
                                 f"{where}")
            options.retry = True
            options.max_error_retries = options.max_critique_retries = args.max_retries
        if args.min_confidence is not None:
            if not 0.0 <= args.min_confidence <= 1.0:
                raise UsageError("--min-confidence must be between 0 and 1")
            if remote:
                print("nbcritic: --min-confidence applies in local mode only; the service "
                      "blocks at its own critic_min_confidence "
                      f"({self.remote.critic.get('min_confidence') if self.remote else '?'})",
                      file=sys.stderr)
            else:
                options.min_confidence = args.min_confidence
        if args.check:
            options.checks = _checks(args.check)
        if getattr(args, "plan", False):
            if not remote and self.planner is None:
                raise UsageError("--plan needs a planner: Claude (set ANTHROPIC_API_KEY)")
            options.plan = True
        only, skip = _split_list(args.rules), _split_list(args.skip_rules)
        if only or skip:
            rules = ([(r.get("id", ""), r.get("family", "")) for r in self.remote.rules()]
                     if remote and self.remote else
                     [(r.id, r.family) for r in self.analysis_critic.rules])
            for option, patterns in (("--rules", only), ("--skip-rules", skip)):
                unknown = [p for p in patterns if p != "claude"
                           and not any(rule_matches(i, f, {p}) for i, f in rules)]
                if unknown:
                    raise UsageError(f"{option}: no rule matches {', '.join(unknown)} "
                                     "(`%critic rules` lists them)")
            disabled = list(skip)
            if only:
                wanted = set(only)
                disabled += [i for i, f in rules if not rule_matches(i, f, wanted)]
                if "claude" not in wanted:
                    disabled.append("claude")
            options.disabled_rules = list(dict.fromkeys(disabled))
        return options

    def _conclude(self, outer: Any, run: CellRun) -> None:
        """Remember the run and give the magic's cell the run's status: a cell that ends
        in an error or a blocked result fails like a cell that raised (the kernel's reply
        is `error`, so "run all" stops), without a traceback wall for the critic."""
        self.last = run
        if run.mode == "local" and run.attempts:
            self.ran_code[self._count] = run.final_code
        if run.status is CellStatus.OK or outer is None:
            return
        exc: BaseException | None = run.exception
        if run.status is CellStatus.SCIENTIFIC_VALIDITY_ERROR:
            last = run.last
            findings = [Finding.from_dict(f) for f in ((last.error or {}).get("findings") or [])
                        ] if last else []
            exc = ScientificValidityError(findings)
            ids = ", ".join(last.blocking) if last else ""
            short = (f"the critic blocks this result ({ids}); see the findings above. "
                     "Override: %%critique --force, or %critic accept")
            self._show_error(ScientificValidityError, exc, short)
        elif exc is None:  # %%ask whose code could not be generated
            reason = (run.escalation or {}).get("reason") or run.status.value
            exc = CodeGenerationError(reason)
            self._show_error(CodeGenerationError, exc, reason)
        elif run.status is CellStatus.TIMEOUT:  # interrupted at cell_timeout, as the service
            self._show_error(type(exc), exc, str(exc))
        outer.error_in_exec = exc

    def _show_error(self, etype: type[BaseException], exc: BaseException, text: str) -> None:
        line = f"\x1b[0;31m{etype.__name__}\x1b[0m: {text}"
        try:
            self.shell._showtraceback(etype, exc, [line])
        except Exception:
            print(f"{etype.__name__}: {text}", file=sys.stderr)

    def _run(self, outer: Any, code: str, options: RunOptions, *, prompt: str | None,
             ask_prompt: str | None) -> None:
        self._depth += 1
        try:
            if self.remote is not None:
                key = getattr(self._cell_info, "cell_id", None)
                if key is None and fingerprint(code, prompt) in self.accepted:
                    # no frontend cell id: each run is a new cell on the service, so an
                    # acceptance of this exact code travels as an explicit override
                    options.force = True
                try:
                    run = RemoteRunner(self.shell, self.remote).run(
                        code, options, key=key, prompt=prompt, user=current_user())
                except RemoteError as exc:
                    raise UsageError(str(exc)) from None
            else:
                run = self._runner().run(code, options, prompt=prompt, ask_prompt=ask_prompt)
        finally:
            self._depth -= 1
        self._conclude(outer, run)

    # -- %%critique -----------------------------------------------------------------------

    @magic_arguments()
    @_critique_options
    @cell_magic
    def critique(self, line: str, cell: str) -> None:
        """Run the cell, review its result with nbcritic's analysis critic, and (with a code
        generator configured) rewrite a failing or blocked cell within the retry budgets.
        The accepted code is put into the next input; the cell itself is not changed."""
        outer = self._enter_magic()
        try:
            args = parse_argstring(self.critique, line)
        except ValueError as exc:  # unbalanced quotes
            raise UsageError(f"%%critique: {exc}") from None
        try:
            options = self._options(args, remote=self.remote is not None)
        except RemoteError as exc:
            raise UsageError(str(exc)) from None
        if not cell.strip():
            raise UsageError("%%critique needs code in the cell below the magic line")
        self._run(outer, cell, options, prompt=None, ask_prompt=None)

    # -- %%ask ----------------------------------------------------------------------------

    @magic_arguments()
    @_critique_options
    @argument("--plan", action="store_true",
              help="Have the model write a short plan first (objectives, approach, risks, "
                   "success criteria); criteria it can express as checks are checked.")
    @argument("prompt", nargs="*", help="What the code should do (the rest of the line).")
    @line_cell_magic
    def ask(self, line: str, cell: str | None = None) -> None:
        """Have the code generator write the cell's code from PROMPT (options first, then
        the prompt; the cell body, if any, is extra context), run it, review it, and retry
        like %%critique. The accepted code is put into the next input. `%ask PROMPT` and a
        `%%ask PROMPT` cell with nothing below the magic line are the same."""
        cell = cell or ""
        outer = self._enter_magic()
        tokens, prompt = _split_leading_options(line)
        args = self.ask.parser.parse_args(tokens)
        if not prompt:
            raise UsageError("%%ask needs a prompt on its line: %%ask [options] PROMPT")
        remote = self.remote is not None
        if remote and self.remote and not self.remote.critic.get("generator"):
            raise UsageError("%%ask: the service has no code generator (it needs "
                             "ANTHROPIC_API_KEY)")
        if not remote and self.generator is None:
            raise UsageError("%%ask needs a code generator: `%critic generator claude` "
                             "(with ANTHROPIC_API_KEY set) or `%critic generator NAME` for a "
                             "CodeGenerator object in the namespace")
        try:
            options = self._options(args, remote=remote)
        except RemoteError as exc:
            raise UsageError(str(exc)) from None
        full = prompt
        if cell.strip():
            full += f"\n\nContext given with the request:\n{cell.strip()}"
        self._run(outer, "", options, prompt=full, ask_prompt=full)

    # -- %critic --------------------------------------------------------------------------

    @line_magic
    def critic(self, line: str) -> None:
        """Settings, rules, the last critique, accepting findings, the code generator,
        automatic review and remote mode. `%critic help` lists the subcommands."""
        self._enter_magic()
        words = line.split()
        command, rest = (words[0], words[1:]) if words else ("", [])
        handlers = {
            "": self._show_settings, "settings": self._show_settings, "set": self._set,
            "rules": self._rules, "last": self._last, "accept": self._accept,
            "generator": self._generator, "auto": self._auto, "connect": self._connect,
            "disconnect": self._disconnect, "lessons": self._lessons,
        }
        if command in ("help", "-h", "--help"):
            print(CRITIC_USAGE)
            return
        handler = handlers.get(command)
        if handler is None:
            raise UsageError(f"%critic: unknown subcommand {command!r}\n{CRITIC_USAGE}")
        handler(rest)

    def _lessons(self, rest: list[str]) -> None:
        learning = self.learning()
        if learning is None:
            print("nbcritic: lessons are off (lessons_enabled)")
            return
        found = learning.lessons.list(text=" ".join(rest) or None, limit=50)
        if not found:
            print("no lessons" + (f" matching {' '.join(rest)!r}" if rest else ""))
            return
        rows = [[x.id, str(x.category), x.severity, x.times_encountered, x.title] for x in found]
        display(Panel("lessons", kind="settings").table(
            ["id", "category", "severity", "seen", "title"], rows))

    def _show_settings(self, rest: list[str]) -> None:
        s = self.settings
        mode = f"remote ({self.remote.url})" if self.remote else "local (this kernel)"
        rows: list[list[Any]] = [
            ["mode", mode], ["auto review", "on" if self.auto else "off"],
            ["generator", generator_name(self.generator)],
            ["min_confidence", s.critic_min_confidence],
            ["disabled_rules", ", ".join(s.critic_disabled_rules) or "-"],
            ["critic_enabled", s.critic_enabled],
            ["llm critic", self.analysis_critic.llm is not None],
            ["auto_fix", s.auto_fix], ["max_error_retries", s.max_error_retries],
            ["max_critique_retries", s.max_critique_retries],
            ["cell_token_budget", s.cell_token_budget],
            ["accepted findings", len(self.accepted)],
        ]
        panel = Panel("settings", kind="settings").table(["setting", "value"], rows)
        if self.remote is not None:
            panel.para("the service's own settings (they apply to %%critique in remote mode):",
                       muted=True)
            panel.table(["setting", "value"], [[k, v] for k, v in self.remote.critic.items()])
        display(panel)

    def _set(self, rest: list[str]) -> None:
        if len(rest) < 2:
            raise UsageError(f"usage: %critic set KEY VALUE  (KEY: {', '.join(SETTABLE)})")
        key, value = rest[0], " ".join(rest[1:])
        field = SETTABLE.get(key) or (key if key in SETTABLE.values() else None)
        if field is None:
            raise UsageError(f"%critic set: unknown setting {key!r}; one of "
                             f"{', '.join(SETTABLE)}")
        parsed: Any = _split_list(value) if field == "critic_disabled_rules" else value
        if field == "critic_disabled_rules" and value.strip().lower() in ("-", "none", "[]"):
            parsed = []
        updated = self.settings.model_copy(deep=True)
        try:
            Settings.__pydantic_validator__.validate_assignment(updated, field, parsed)
        except Exception as exc:
            errors = getattr(exc, "errors", None)
            message = errors()[0]["msg"] if callable(errors) else str(exc)
            raise UsageError(f"%critic set {key}: {message}") from None
        self.settings = updated
        if field in ("critic_disabled_rules", "critic_llm"):
            self._critic = None  # rebuilt with the new settings
        display(message_panel(f"{key} = {getattr(updated, field)!r}", kind="settings"))

    def _rules(self, rest: list[str]) -> None:
        if self.remote is not None:
            try:
                rules = self.remote.rules()
            except RemoteError as exc:
                raise UsageError(str(exc)) from None
            rows = [[r.get("id"), r.get("family"), "yes" if r.get("enabled", True) else "no",
                     r.get("title", "")] for r in rules]
            where = f"rules of the service at {self.remote.url}"
        else:
            active = {r.id for r in self.analysis_critic.active_rules()}
            rows = [[r.id, r.family, "yes" if r.id in active else "no", r.title]
                    for r in self.analysis_critic.rules]
            where = "rules"
        display(Panel(f"{len(rows)} {where}", kind="rules").table(
            ["id", "family", "enabled", "title"], rows))

    def _last(self, rest: list[str]) -> None:
        run = self.last
        if run is None:
            display(message_panel("no critique yet in this session",
                                  "run a cell with %%critique (or turn on %critic auto)"))
            return
        for panel in last_panels(run):
            display(panel)

    def _accept(self, rest: list[str]) -> None:
        run = self.last
        if run is None or run.critique is None:
            raise UsageError("%critic accept: no critique to accept yet")
        reason = " ".join(rest)
        by = current_user()
        record = {"by": by, "at": now_iso(), "reason": reason,
                  "findings": [f.get("rule_id") for f in run.critique.get("findings") or []]}
        if run.mode == "remote" and self.remote is not None and run.cell_id:
            try:  # the service records it on its cell (kept while the code is unchanged)
                self.remote.accept(run.cell_id, by, reason)
            except RemoteError as exc:
                raise UsageError(str(exc)) from None
        # the code the person saw: the cell as written, and the run's last attempt (as
        # code, and under its %%ask prompt); never code the generator writes later
        for code, prompt in ((run.code, run.prompt), (run.final_code, None),
                             (run.final_code, run.prompt)):
            self.accepted[fingerprint(code, prompt)] = record
        findings = ", ".join(r for r in record["findings"] if r) or "none"
        display(message_panel(
            "findings accepted", f"accepted: {findings}",
            "they no longer block this exact code (changing the code ends the acceptance)",
            tone="warn", kind="accept"))

    def _generator(self, rest: list[str]) -> None:
        if len(rest) != 1:
            raise UsageError("usage: %critic generator claude|off|NAME")
        name = rest[0]
        if name in ("off", "none"):
            self.generator = None
        elif name == "claude":
            fresh = _load_settings()  # picks up a key set after the extension was loaded
            if fresh.anthropic_api_key is None:
                raise UsageError("%critic generator claude: ANTHROPIC_API_KEY is not set in "
                                 "the kernel's environment (set it, or use `%critic "
                                 "generator NAME` with a CodeGenerator object)")
            self.settings = self.settings.model_copy(update={
                "anthropic_api_key": fresh.anthropic_api_key,
                "anthropic_base_url": fresh.anthropic_base_url})
            self._critic = None
            self.generator = self.settings.build_generator()
        else:
            if name not in self.shell.user_ns:
                raise UsageError(f"%critic generator: no variable {name!r} in the namespace "
                                 "(claude, off, or the name of a CodeGenerator object)")
            obj = self.shell.user_ns[name]
            if not isinstance(obj, CodeGenerator):
                raise UsageError(f"%critic generator: {name} is a {type(obj).__name__}, not a "
                                 "code generator (it needs async generate() and fix())")
            self.generator = obj
        note = (["remote mode: the service uses its own generator"]
                if self.remote is not None else [])
        display(message_panel(f"generator: {generator_name(self.generator)}", *note,
                              kind="settings"))

    def _auto(self, rest: list[str]) -> None:
        if rest not in (["on"], ["off"]):
            raise UsageError("usage: %critic auto on|off")
        self.auto = rest[0] == "on"
        display(message_panel(
            f"automatic review {rest[0]}",
            *(["every executed cell is reviewed (no retry); critical findings are flagged "
               "after its output"] if self.auto else []), kind="settings"))

    def _connect(self, rest: list[str]) -> None:
        url, token = None, os.environ.get("NBCRITIC_TOKEN")
        i = 0
        while i < len(rest):
            word = rest[i]
            if word == "--token" and i + 1 < len(rest):
                token, i = rest[i + 1], i + 2
                continue
            if word.startswith("--token="):
                token = word.split("=", 1)[1]
            elif word.startswith("-") or url is not None:
                raise UsageError("usage: %critic connect URL [--token TOKEN]")
            else:
                url = word
            i += 1
        if not url or not re.match(r"^https?://", url):
            raise UsageError("usage: %critic connect URL [--token TOKEN]  (URL: http://host:port)")
        session = RemoteSession(url, token)
        try:
            critic = session.connect()
        except RemoteError as exc:
            session.close()
            raise UsageError(f"%critic connect: {exc}") from None
        if self.remote is not None:
            self.remote.close()
        self.remote = session
        display(message_panel(
            f"connected to {session.url}",
            "%%critique and %%ask cells now run on the service (its kernel, its critic, "
            f"its generator: {'yes' if critic.get('generator') else 'none'}); "
            "a notebook is created there on first use", kind="settings"))

    def _disconnect(self, rest: list[str]) -> None:
        if self.remote is None:
            display(message_panel("not connected: already in local mode", kind="settings"))
            return
        url = self.remote.url
        self.remote.close()
        self.remote = None
        display(message_panel(f"disconnected from {url}: local mode", kind="settings"))

    # -- automatic review (post_run_cell) ---------------------------------------------------

    def pre_run_cell(self, info: Any) -> None:
        if self._depth > 0 or not _top_level(info):
            return  # an attempt of our own, or code run by code (run_cell without history)
        self._cell_info = info
        self._magic_cell = False
        self._stop_auto_capture()
        if not self.auto:
            return
        try:
            code = self._reviewable_code(info)
            self._auto_before = (snapshot_before(code, self.shell.user_ns)
                                 if code is not None else None)  # names a cell filters
            self._auto_traced = self.settings.critic_enabled and start_trace(self.shell)
            self._auto_capture = OutputCapture(self.shell).__enter__()
        except Exception as exc:
            log.warning("nbcritic: automatic review could not start: %s", exc)

    def post_run_cell(self, result: Any) -> None:
        if self._depth > 0 or result is None or not _top_level(result.info):
            return  # not the end of the cell pre_run_cell saw begin
        capture = self._auto_capture
        self._stop_auto_capture()
        if self._magic_cell:
            self._magic_cell = False
            return
        if not self.auto or capture is None or not result.success:
            return
        try:
            self._auto_review(result, capture.outputs)
        except Exception as exc:  # a review must never break the user's session
            print(f"nbcritic: automatic review failed: {type(exc).__name__}: {exc}",
                  file=sys.stderr)

    def _stop_auto_capture(self) -> None:
        if self._auto_capture is not None:
            self._auto_capture.__exit__(None, None, None)
            self._auto_capture = None

    def _reviewable_code(self, info: Any) -> str | None:
        """The cell's code as Python: as written if it parses (line numbers match the
        cell), else IPython's transformed form (magics and shell escapes as calls)."""
        raw = getattr(info, "raw_cell", "") or ""
        if not raw.strip():
            return None
        if _parses(raw):
            return raw
        transformed = getattr(info, "transformed_cell", None)
        if transformed is None:
            try:
                transformed = self.shell.transform_cell(raw)
            except Exception:
                return None
        return transformed if transformed and _parses(transformed) else None

    def _auto_review(self, result: Any, outputs: list[dict[str, Any]]) -> None:
        info = result.info
        code = self._reviewable_code(info)
        if code is None or not self.settings.critic_enabled:
            return
        count = result.execution_count or self._count_of(None)
        prior = "\n\n".join(self.prior_cells(count))
        trace = trace_request.in_cell_lines(trace_request.export_in_process(), code) \
            if self._auto_traced else None
        evidence = gather_in_process(code, self.shell.user_ns, outputs, prior_code=prior,
                                     before=self._auto_before,
                                     budget_ms=self.settings.introspection_budget_ms,
                                     trace=trace)
        self._auto_before = None
        critique = self.analysis_critic.review(evidence).to_dict()  # rules only: fast, no API spend
        min_conf = self.settings.critic_min_confidence
        blocking = [f.rule_id for f in blocking_findings(critique, min_conf)]
        run = CellRun("auto", code, min_confidence=min_conf)
        record = AttemptRecord(1, code, CellStatus.OK, execution_count=count, critique=critique)
        run.attempts.append(record)
        accepted = self.accepted.get(fingerprint(code, None))
        if blocking and accepted is not None:
            record.override = {"how": "accepted", "by": accepted.get("by"),
                               "at": accepted.get("at"), "findings": blocking}
            critique["overridden"] = record.override
        self.last = run
        if not blocking or accepted is not None:
            return  # quiet: nothing critical (`%critic last` shows the whole critique)
        record.blocking = blocking
        display(critique_panel(
            critique, status="flagged", blocking=blocking, min_confidence=min_conf,
            note="automatic review: the cell ran and was not retried. Re-run it with "
                 "%%critique to fix it, or %critic accept if the finding is wrong here."))


def last_panels(run: CellRun) -> list[Panel]:
    """The last run again: its last critique, escalation and outcome."""
    panels: list[Panel] = []
    last = run.last
    reviewed = next((r for r in reversed(run.attempts) if r.critique is not None), None)
    if reviewed is not None:
        where = {"local": "%%critique", "remote": "%%critique on the service",
                 "auto": "automatic review"}.get(run.mode, run.mode)
        panels.append(critique_panel(
            reviewed.critique, status=reviewed.status.value, blocking=reviewed.blocking,
            min_confidence=run.min_confidence, attempt=reviewed.attempt,
            overridden=reviewed.override, note=f"from {where}"))
    if run.escalation:
        panels.append(escalation_panel(run.escalation))
    summary = summary_panel(run.status.value, len(run.attempts),
                            next_input=run.next_input is not None,
                            fixed=len(run.attempts) > 1 and run.status is CellStatus.OK,
                            overridden=bool(last and last.override))
    if last and last.error and last.status is not CellStatus.SCIENTIFIC_VALIDITY_ERROR:
        summary.para(f"{last.error.get('ename')}: {last.error.get('evalue', '')}".strip(": "))
    panels.append(summary)
    return panels


def _top_level(info: Any) -> bool:
    """A cell the user ran (stored in history), not code that code ran."""
    return bool(getattr(info, "store_history", False)) and not getattr(info, "silent", False)


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _split_leading_options(line: str) -> tuple[list[str], str]:
    """`%%ask --max-retries 2 fit a model on X's columns`: the options up front, then the
    prompt as written (quotes and apostrophes kept, not shell-split)."""
    tokens: list[str] = []
    rest = line.strip()
    while rest.startswith("-"):
        word, _, after = rest.partition(" ")
        name = word.split("=", 1)[0]
        if name in _ASK_FLAGS or (name in _ASK_VALUED and "=" in word):
            tokens.append(word)
            rest = after.strip()
        elif name in _ASK_VALUED:
            value, after2 = _next_value(after.strip())
            if not value:
                raise UsageError(f"%%ask: {name} needs a value")
            tokens += [word, value]
            rest = after2.strip()
        else:
            raise UsageError(f"%%ask: unrecognized option {word} (options: "
                             f"{', '.join(sorted(_ASK_FLAGS | _ASK_VALUED))})")
    return tokens, rest


def _next_value(text: str) -> tuple[str, str]:
    """The next word, or a quoted value with spaces (`--check 'len(df) > 0'`)."""
    if text[:1] in ("'", '"'):
        end = text.find(text[0], 1)
        if end > 0:
            return text[1:end], text[end + 1:]
    value, _, after = text.partition(" ")
    return value, after


# -- extension entry points -----------------------------------------------------------------


def critic_magics(shell: Any = None) -> CriticMagics:
    """The loaded magics' state (to register rules on `.analysis_critic`, or inspect
    `.last`)."""
    if shell is None:
        from IPython import get_ipython

        shell = get_ipython()
    magics = shell.magics_manager.registry.get(CriticMagics.__name__) if shell else None
    if magics is None:
        raise RuntimeError(f"nbcritic's magics are not loaded: run `{LOAD_LINE}`")
    return magics


def empty_ask_as_line_magic(lines: list[str]) -> list[str]:
    """IPython refuses a cell magic with an empty body; `%%ask PROMPT` alone is the line
    magic `%ask PROMPT` (an input transformer, applied before magics are parsed)."""
    if lines and re.match(r"%%ask(\s|$)", lines[0]) and not "".join(lines[1:]).strip():
        return [lines[0][1:], *lines[1:]]
    return lines


def load_ipython_extension(shell: Any) -> None:
    magics = CriticMagics(shell)
    shell.register_magics(magics)
    cleanup = getattr(shell, "input_transformers_cleanup", None)
    if cleanup is not None and empty_ask_as_line_magic not in cleanup:
        cleanup.append(empty_ask_as_line_magic)
    shell.events.register("pre_run_cell", magics.pre_run_cell)
    shell.events.register("post_run_cell", magics.post_run_cell)


def unload_ipython_extension(shell: Any) -> None:
    cleanup = getattr(shell, "input_transformers_cleanup", None)
    if cleanup is not None and empty_ask_as_line_magic in cleanup:
        cleanup.remove(empty_ask_as_line_magic)
    magics = shell.magics_manager.registry.get(CriticMagics.__name__)
    if magics is None:
        return
    for event, callback in (("pre_run_cell", magics.pre_run_cell),
                            ("post_run_cell", magics.post_run_cell)):
        with contextlib.suppress(ValueError):
            shell.events.unregister(event, callback)
    magics._stop_auto_capture()
    magics.loop.close()
    if magics.remote is not None:
        magics.remote.close()
