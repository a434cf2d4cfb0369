"""The IPython magics in a real ipykernel driven by jupyter_client: `%load_ext app.magics`,
then cells whose iopub messages (streams, display_data with text/html and text/plain,
execute_result, error) and execute replies (status, set_next_input payloads) are inspected.

Local mode: findings of a flawed cell and quiet on its sound twin, --force, --min-confidence,
--rules/--skip-rules, the retry loop with a ScriptedGenerator defined in the kernel (attempt,
diff, next input), --no-retry, error retries and budgets, %%ask, the %critic subcommands,
automatic review, usage errors. Remote mode: the same kernel talks to a live service (in
this process) over HTTP and replays the execution's events.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jupyter_client import KernelManager

from services.scripted_generator import ScriptedGenerator

from .conftest import TOKEN, LiveServer, free_port, make_settings
from .messages_api_server import MessagesAPIServer

ROOT = Path(__file__).resolve().parents[1]

SETUP = """\
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
X, y = load_diabetes(return_X_y=True)"""
LEAKY = """\
X_scaled = StandardScaler().fit_transform(X)
X_train, X_test, y_train, y_test = train_test_split(X_scaled, y, test_size=0.25, random_state=0)
model = Ridge(alpha=1.0).fit(X_train, y_train)
print(f"test R2 = {model.score(X_test, y_test):.3f}")"""
SOUND = """\
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
scaler = StandardScaler().fit(X_train)
model = Ridge(alpha=1.0).fit(scaler.transform(X_train), y_train)
print(f"test R2 = {model.score(scaler.transform(X_test), y_test):.3f}")"""
RULE = "leakage.fit_saw_heldout_rows"

# run silently before each test: no generator, auto review off, defaults, nothing accepted
RESET = """\
from app.magics import critic_magics as _cm
_m = _cm()
_m.generator = None; _m.auto = False; _m.accepted.clear(); _m.last = None; _m._critic = None
_m.planner = None
_m.settings = _m.settings.model_copy(update={
    "critic_min_confidence": 0.8, "anthropic_api_key": None, "anthropic_base_url": None})
if _m.remote is not None:
    _m.remote.close(); _m.remote = None
del _m, _cm"""


OnOutput = Callable[[str, dict[str, Any]], None]


@dataclass
class CellResult:
    messages: list[tuple[str, dict[str, Any]]]
    reply: dict[str, Any]

    @property
    def status(self) -> str:
        return self.reply["status"]

    @property
    def ename(self) -> str | None:
        return self.reply.get("ename")

    def of(self, msg_type: str) -> list[dict[str, Any]]:
        return [c for t, c in self.messages if t == msg_type]

    def stream(self, name: str = "stdout") -> str:
        return "".join(c["text"] for c in self.of("stream") if c["name"] == name)

    @property
    def panels(self) -> list[dict[str, Any]]:
        """nbcritic's displays: display_data whose text/plain starts with 'nbcritic:'."""
        return [c["data"] for c in self.of("display_data")
                if c["data"].get("text/plain", "").startswith("nbcritic:")]

    def panel_text(self) -> str:
        return "\n".join(p["text/plain"] for p in self.panels)

    def panel_html(self) -> str:
        return "\n".join(p.get("text/html", "") for p in self.panels)

    @property
    def next_input(self) -> dict[str, Any] | None:
        for payload in self.reply.get("payload") or []:
            if payload.get("source") == "set_next_input":
                return payload
        return None


class Kernel:
    def __init__(self, runtime: Path) -> None:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("ANTHROPIC_", "NBCRITIC_"))}
        env["NBCRITIC_DATA_DIR"] = str(runtime / "data")  # lessons learned by the magics
        self.km = KernelManager(kernel_name="python3", transport="ipc",
                                connection_file=str(runtime / "k.json"))
        self.km.ip = str(runtime / "k")
        self.km.start_kernel(env=env, cwd=str(ROOT))
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)

    def run(self, code: str, *, cell_id: str | None = None, silent: bool = False,
            timeout: float = 60, on_output: OnOutput | None = None) -> CellResult:
        """Execute `code`; `on_output` sees each output as it arrives, before the cell ends."""
        content = {"code": code, "silent": silent, "store_history": not silent,
                   "user_expressions": {}, "allow_stdin": False, "stop_on_error": False}
        msg = self.kc.session.msg("execute_request", content,
                                  metadata={"cellId": cell_id} if cell_id else {})
        self.kc.shell_channel.send(msg)
        msg_id = msg["header"]["msg_id"]
        messages: list[tuple[str, dict[str, Any]]] = []
        while True:
            m = self.kc.get_iopub_msg(timeout=timeout)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            kind = m["msg_type"]
            if kind == "status" and m["content"]["execution_state"] == "idle":
                break
            if kind in ("stream", "display_data", "execute_result", "error"):
                messages.append((kind, m["content"]))
                if on_output is not None:
                    on_output(kind, m["content"])
        while True:
            reply = self.kc.get_shell_msg(timeout=timeout)
            if reply["parent_header"].get("msg_id") == msg_id:
                return CellResult(messages, reply["content"])

    def close(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    k = Kernel(tmp_path_factory.mktemp("magics"))
    try:
        loaded = k.run("%load_ext app.magics")
        assert loaded.status == "ok", loaded.messages
        assert k.run(SETUP).status == "ok"
        yield k
    finally:
        k.close()


@pytest.fixture
def ipy(kernel: Kernel) -> Kernel:
    reset = kernel.run(RESET, silent=True)
    assert reset.status == "ok", reset.reply
    return kernel


def scripted(ipy: Kernel, name: str, *answers: str) -> None:
    code = (f"from services.scripted_generator import ScriptedGenerator\n"
            f"{name} = ScriptedGenerator({list(answers)!r})")
    assert ipy.run(code).status == "ok"
    assert ipy.run(f"%critic generator {name}").status == "ok"


def value(ipy: Kernel, expression: str) -> str:
    result = ipy.run(expression)
    assert result.status == "ok", result.reply
    return result.of("execute_result")[0]["data"]["text/plain"]


# -- local mode: the critic -----------------------------------------------------------------


def test_flawed_cell_shows_the_blocking_finding(ipy: Kernel) -> None:
    result = ipy.run("%%critique\n" + LEAKY)
    assert "test R2 = " in result.stream()  # the cell's own output, displayed as usual
    text = result.panel_text()
    assert RULE in text and "[blocking]" in text
    assert "scientific_validity_error: 1 blocking finding" in text
    html = result.panel_html()
    assert RULE in html and "nbcritic-critique" in html and "<b>" in html
    # no generator: escalated with the service's question, and the cell is marked failed
    assert "escalated (no_code_generator)" in text and "question:" in text
    assert result.status == "error" and result.ename == "ScientificValidityError"
    (error,) = result.of("error")
    assert len(error["traceback"]) == 1 and RULE in error["traceback"][0]  # no traceback wall
    assert result.next_input is None


def test_sound_twin_has_no_blocking_finding_and_out_works(ipy: Kernel) -> None:
    result = ipy.run("%%critique\n" + SOUND + "\nmodel.alpha")
    assert result.status == "ok"
    assert "[blocking]" not in result.panel_text()
    assert result.panel_text().startswith("nbcritic: no findings")
    (shown,) = result.of("execute_result")
    assert shown["data"]["text/plain"] == "1.0"
    count = result.reply["execution_count"]
    assert value(ipy, f"Out[{count}]") == "1.0"  # history and Out work for the magic's cell
    assert "run_cell_magic(\\'critique\\'" in value(ipy, f"In[{count}]")


def test_force_overrides_the_critic(ipy: Kernel) -> None:
    result = ipy.run("%%critique --force\n" + LEAKY)
    assert result.status == "ok"
    text = result.panel_text()
    assert "overridden (flag)" in text and "[overridden]" in text and RULE in text
    assert not result.of("error")


def test_min_confidence_sets_the_bar(ipy: Kernel) -> None:
    lenient = ipy.run("%%critique --min-confidence 0.95\n" + LEAKY)
    assert lenient.status == "ok"
    assert RULE in lenient.panel_text() and "[blocking]" not in lenient.panel_text()
    assert "blocks at confidence >= 0.95" in lenient.panel_text()
    strict = ipy.run("%%critique --min-confidence 0.5\n" + LEAKY)
    assert strict.ename == "ScientificValidityError"


def test_rules_and_skip_rules(ipy: Kernel) -> None:
    skipped = ipy.run("%%critique --skip-rules leakage\n" + LEAKY)
    assert skipped.status == "ok" and RULE not in skipped.panel_text()
    prefix = ipy.run("%%critique --skip-rules leakage.*,suspicious_values\n" + LEAKY)
    assert prefix.status == "ok" and RULE not in prefix.panel_text()
    only = ipy.run(f"%%critique --rules {RULE}\n" + LEAKY)
    assert only.ename == "ScientificValidityError"
    assert value(ipy, "__import__('app.magics').magics.critic_magics().last.critique"
                      "['rules_run']") == "1"
    other = ipy.run("%%critique --rules correlation_misuse\n" + LEAKY)
    assert other.status == "ok" and RULE not in other.panel_text()


def test_attempt_outputs_are_captured_for_the_critic(ipy: Kernel) -> None:
    code = """\
from app.magics_local import OutputCapture
with OutputCapture(get_ipython()) as capture:
    get_ipython().run_cell(
        "print('hi')\\nimport warnings\\nwarnings.warn('careful')\\n"
        "from IPython.display import HTML, display\\ndisplay(HTML('<b>x</b>'))\\n41 + 1")
[(o["output_type"], o.get("name"), o.get("text") or o.get("data")) for o in capture.outputs]"""
    result = ipy.run(code)
    assert result.stream() == "hi\n"  # still shown to the user
    captured = eval(result.of("execute_result")[-1]["data"]["text/plain"])
    assert captured[0] == ("stream", "stdout", "hi\n")
    assert captured[1][:2] == ("stream", "stderr") and "UserWarning: careful" in captured[1][2]
    assert captured[2][0] == "display_data" and captured[2][2]["text/html"] == "<b>x</b>"
    assert captured[3] == ("execute_result", None, {"text/plain": "42"})


# -- local mode: the retry loop -------------------------------------------------------------


def test_retry_fixes_the_leak_and_offers_the_code(ipy: Kernel) -> None:
    scripted(ipy, "gen", SOUND)
    result = ipy.run("%%critique\n" + LEAKY)
    assert result.status == "ok"
    text = result.panel_text()
    assert "attempt 2: code written by ScriptedGenerator after the critic's findings" in text
    assert "critique retry 1 of 2" in text
    assert "-X_scaled = StandardScaler().fit_transform(X)" in text
    assert "+scaler = StandardScaler().fit(X_train)" in text
    assert "background:#e8f5e9" in result.panel_html()  # the diff, coloured
    assert "no findings (attempt 2)" in text and "ok after 2 attempts" in text
    assert result.stream().count("test R2 = ") == 2  # both attempts shown as they ran
    assert result.next_input == {"source": "set_next_input", "text": SOUND, "replace": False}
    # the generator got this attempt's findings as feedback
    assert value(ipy, "gen.calls[0].kind") == "'fix'"
    feedback = value(ipy, "gen.calls[0].feedback")
    assert feedback[1:].startswith("ScientificValidityError") and RULE in feedback
    assert "X_scaled" in value(ipy, "gen.calls[0].code")
    assert "load_diabetes" in value(ipy, "gen.calls[0].context.render()")


def test_no_retry_and_a_surviving_finding(ipy: Kernel) -> None:
    still_leaky = LEAKY.replace("alpha=1.0", "alpha=2.0")
    scripted(ipy, "gen", still_leaky)
    once = ipy.run("%%critique --no-retry\n" + LEAKY)
    assert once.ename == "ScientificValidityError"
    assert "attempt 2" not in once.panel_text() and value(ipy, "len(gen.calls)") == "0"
    stalled = ipy.run("%%critique\n" + LEAKY)
    text = stalled.panel_text()
    assert "attempt 2" in text and "escalated (same_finding_survived_fix)" in text
    assert stalled.ename == "ScientificValidityError" and stalled.next_input is None


def test_error_retries_stop_at_the_budget(ipy: Kernel) -> None:
    scripted(ipy, "gen", "total = undefined_name + 1")
    result = ipy.run("%%critique --max-retries 1\nratio = 1 / 0")
    assert [e["ename"] for e in result.of("error")] == ["ZeroDivisionError", "NameError"]
    assert "after an error (error retry 1 of 1)" in result.panel_text()
    assert "escalated (error_budget_exhausted)" in result.panel_text()
    assert result.status == "error" and result.ename == "NameError"
    feedback = value(ipy, "gen.calls[0].feedback")
    assert "ZeroDivisionError" in feedback and "line 1: ratio = 1 / 0" in feedback


def test_ask_generates_runs_and_offers_the_code(ipy: Kernel) -> None:
    scripted(ipy, "gen", "m = y.mean()\nround(float(m), 1)")
    result = ipy.run("%%ask --max-retries 1 compute the patients' mean progression\n"
                     "# y holds the progression")
    assert result.status == "ok", result.messages
    text = result.panel_text()
    assert "attempt 1: code written by ScriptedGenerator from the prompt" in text
    assert result.of("execute_result")[0]["data"]["text/plain"] == "152.1"
    assert result.next_input and result.next_input["text"] == "m = y.mean()\nround(float(m), 1)"
    prompt = value(ipy, "gen.calls[0].prompt")
    assert "patients' mean progression" in prompt and "y holds the progression" in prompt
    assert value(ipy, "gen.calls[0].kind") == "'generate'"
    assert "y: numpy.ndarray shape=(442,)" in value(ipy, "gen.calls[0].context.render()")
    # a %%ask cell with nothing below its line (IPython refuses empty cell magics)
    ipy.run("gen.queue('answer = 42\\nanswer')")
    alone = ipy.run("%%ask the answer")
    assert alone.status == "ok" and alone.of("execute_result")[0]["data"]["text/plain"] == "42"
    # the generator fails (its queue is empty): escalated, the cell fails, nothing is offered
    failed = ipy.run("%ask one more")
    assert "escalated (generator_failed)" in failed.panel_text()
    assert "no answer left" in failed.panel_text()
    assert failed.ename == "CodeGenerationError" and failed.next_input is None


def test_claude_generator_and_critic_run_on_the_private_loop(ipy: Kernel) -> None:
    """The real Anthropic SDK (async httpx) from inside ipykernel's running event loop,
    against a local Messages-API server: the Claude critic reviews, Claude rewrites."""
    with MessagesAPIServer() as api:
        api.reply_tool("report_findings", {"findings": []})  # attempt 1: the Claude critic
        api.reply_tool("submit_code", {"code": SOUND, "explanation": "split first"},
                       usage=(900, 120))
        api.reply_tool("report_findings", {"findings": []})  # attempt 2
        env = (f"import os\nos.environ['ANTHROPIC_API_KEY'] = 'sk-test'\n"
               f"os.environ['ANTHROPIC_BASE_URL'] = {api.url!r}")
        assert ipy.run(env).status == "ok"
        try:
            assert "generator: ClaudeCodeGenerator" in ipy.run(
                "%critic generator claude").panel_text()
            result = ipy.run("%%critique\n" + LEAKY)
        finally:
            ipy.run("del os.environ['ANTHROPIC_API_KEY'], os.environ['ANTHROPIC_BASE_URL']")
        requests = [r.body.get("tool_choice", {}).get("name") for r in api.requests]
    assert requests == ["report_findings", "submit_code", "report_findings"]
    assert result.status == "ok", result.messages
    assert "code written by ClaudeCodeGenerator after the critic's findings" in (
        result.panel_text())
    assert "split first" in result.panel_text()
    assert RULE in api.requests[1].user_text  # the findings went to Claude as feedback
    assert result.next_input and result.next_input["text"] == SOUND
    assert value(ipy, "__import__('app.magics').magics.critic_magics().last.tokens.total") == (
        "1020")


def test_accepted_findings_do_not_cover_generated_code(ipy: Kernel) -> None:
    """The same rule as the service's (tests/test_retry_loop.py, one runner for both): an
    acceptance covers the code a person saw blocked, never code the generator wrote in its
    place. The magics used to let it cover every attempt of the run."""
    assert ipy.run("scale_input = X").status == "ok"
    code = LEAKY.replace("fit_transform(X)", "fit_transform(scale_input)")
    assert ipy.run("%%critique --no-retry\n" + code).ename == "ScientificValidityError"
    assert ipy.run("%critic accept reference data").status == "ok"
    assert ipy.run("del scale_input").status == "ok"  # the accepted code now fails
    scripted(ipy, "gen", LEAKY.replace("alpha=1.0", "alpha=3.0"))  # still leaky
    result = ipy.run("%%critique --max-retries 1\n" + code)
    assert [e["ename"] for e in result.of("error")][:1] == ["NameError"]
    text = result.panel_text()
    assert "attempt 2: code written by ScriptedGenerator after an error" in text
    assert result.ename == "ScientificValidityError" and "overridden" not in text
    record = "__import__('app.magics').magics.critic_magics().last.attempts[-1]"
    assert value(ipy, f"{record}.override is None") == "True"


def test_the_cell_timeout_interrupts_an_attempt_as_in_the_service(ipy: Kernel) -> None:
    assert ipy.run("%critic set cell_timeout 1").status == "ok"
    try:
        result = ipy.run("%%critique\nimport time\ntime.sleep(30)\nslept = True")
    finally:
        assert ipy.run("%critic set cell_timeout 120").status == "ok"
    assert result.ename == "CellTimeoutError"
    assert "exceeded its 1 s timeout" in result.reply["evalue"]
    status = "__import__('app.magics').magics.critic_magics().last.status.value"
    assert value(ipy, status) == "'timeout'"
    assert value(ipy, "'slept' in globals()") == "False"
    assert value(ipy, "1 + 1") == "2"  # the kernel lives; the alarm is off


# -- %critic --------------------------------------------------------------------------------


def test_critic_rules_settings_last_and_accept(ipy: Kernel) -> None:
    rules = ipy.run("%critic rules")
    assert RULE in rules.panel_text() and "<table" in rules.panel_html()
    assert ipy.run("%critic set min_confidence 0.6").status == "ok"
    assert "min_confidence        0.6" in ipy.run("%critic").panel_text()
    bad = ipy.run("%critic set min_confidence 7")
    assert bad.ename == "UsageError" and "less than or equal to 1" in bad.stream("stderr")
    assert ipy.run("%critic set min_confidence 0.8").status == "ok"

    assert "no critique yet" in ipy.run("%critic last").panel_text()
    blocked = ipy.run("%%critique\n" + LEAKY)
    assert blocked.ename == "ScientificValidityError"
    last = ipy.run("%critic last").panel_text()
    assert RULE in last and "[blocking]" in last and "escalated" in last

    accepted = ipy.run("%critic accept the scaler is fit on public reference data")
    assert f"accepted: {RULE}" in accepted.panel_text()
    rerun = ipy.run("%%critique\n" + LEAKY)
    assert rerun.status == "ok" and "overridden (accepted)" in rerun.panel_text()
    changed = ipy.run("%%critique\n" + LEAKY + "\n# changed")
    assert changed.ename == "ScientificValidityError"  # other code: the acceptance ends


def test_auto_mode_flags_flawed_cells_only(ipy: Kernel) -> None:
    assert "automatic review on" in ipy.run("%critic auto on").panel_text()
    flawed = ipy.run(LEAKY.replace("X_scaled", "X_all_scaled"))
    assert flawed.status == "ok"  # reviewed, never blocked or retried
    assert flawed.messages[0][0] == "stream"  # the flag comes after the cell's output
    assert RULE in flawed.panel_text() and "automatic review" in flawed.panel_text()
    assert ipy.run(SOUND).panels == []  # quiet on a sound cell
    failed = ipy.run("X_all_scaled.nope")
    assert failed.status == "error" and failed.panels == []  # failed cells are not reviewed
    magic = ipy.run("%%critique\n" + LEAKY)
    critiques = [p for p in magic.panels if "blocking finding" in p["text/plain"]]
    assert len(critiques) == 1  # its own magic cell: reviewed once
    assert "automatic review off" in ipy.run("%critic auto off").panel_text()
    assert ipy.run(LEAKY.replace("X_scaled", "X_all_scaled")).panels == []


# -- errors ---------------------------------------------------------------------------------


def test_usage_errors_are_clear_and_the_kernel_lives(ipy: Kernel) -> None:
    cases = {
        "%%critique --bogus\n1": "unrecognized arguments: --bogus",
        "%%critique --max-retries 2\n1": "--max-retries needs a code generator",
        "%%critique --min-confidence 3\n1": "--min-confidence must be between 0 and 1",
        "%%critique --rules nosuch\n1": "--rules: no rule matches nosuch",
        "%%ask fit a model\n": "%%ask needs a code generator",
        "%%ask --frob fit\nx": "unrecognized option --frob",
        f"%critic connect http://127.0.0.1:{free_port()}": "cannot reach nbcritic at",
        "%critic connect ftp://x": "usage: %critic connect URL",
        "%critic generator claude": "ANTHROPIC_API_KEY is not set",
        "%critic generator SETUP_NOT_THERE": "no variable 'SETUP_NOT_THERE'",
        "%critic frob": "unknown subcommand 'frob'",
        "%critic auto maybe": "usage: %critic auto on|off",
    }
    for code, message in cases.items():
        result = ipy.run(code)
        assert result.ename == "UsageError", code
        assert message in result.stream("stderr"), (code, result.stream("stderr"))
        assert not result.of("error")  # a one-line message, not a traceback
    ipy.run("not_a_generator = 3")
    wrong = ipy.run("%critic generator not_a_generator")
    assert "is a int, not a code generator" in wrong.stream("stderr")
    assert value(ipy, "1 + 1") == "2"


# -- remote mode ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def service_generator() -> ScriptedGenerator:
    return ScriptedGenerator()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory,
         service_generator: ScriptedGenerator) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("magics-service"), pool_size=1)
    with LiveServer(settings, generator=service_generator) as server:
        yield server


def test_remote_mode_streams_outputs_and_findings(ipy: Kernel, live: LiveServer,
                                                  service_generator: ScriptedGenerator,
                                                  tmp_path: Path) -> None:
    refused = ipy.run(f"%critic connect {live.url} --token wrong")
    assert "refused the token" in refused.stream("stderr")
    connected = ipy.run(f"%critic connect {live.url} --token {TOKEN}")
    assert f"connected to {live.url}" in connected.panel_text()

    # the service's kernel has its own namespace: set it up through the service
    setup = ipy.run("%%critique\n" + SETUP + "\nimport time\nprint('loaded', X.shape)",
                    cell_id="setup")
    assert setup.status == "ok" and "loaded (442, 10)" in setup.stream()

    # outputs arrive while the cell runs, not at the end: the cell waits, up to 60 s, until the
    # test has seen its first line, which the test can only see if it was streamed
    release = tmp_path / "seen-first"

    def release_on_first(kind: str, content: dict[str, Any]) -> None:
        if "first" in content.get("text", ""):
            release.touch()

    timed = ipy.run(
        "%%critique\nimport pathlib\nprint('first', flush=True)\n"
        f"for _ in range(1200):\n    if pathlib.Path({str(release)!r}).exists(): break\n"
        "    time.sleep(0.05)\nprint('released' if pathlib.Path("
        f"{str(release)!r}).exists() else 'never released')",
        cell_id="timed", timeout=120,
        on_output=release_on_first)
    assert timed.status == "ok" and timed.stream() == "first\nreleased\n"

    blocked = ipy.run("%%critique --no-retry\n" + LEAKY, cell_id="leaky")
    assert "test R2 = " in blocked.stream()
    assert RULE in blocked.panel_text() and "[blocking]" in blocked.panel_text()
    assert blocked.ename == "ScientificValidityError"
    with live.client() as api:
        notebooks = api.get("/api/notebooks").json()["notebooks"]
        (notebook,) = [n["id"] for n in notebooks]
        cells = api.get(f"/api/notebooks/{notebook}").json()["content"]["cells"]
        assert [c["metadata"]["nbcritic"]["status"] for c in cells] == [
            "ok", "ok", "scientific_validity_error"]

    # accepted on the service; the same frontend cell re-run is no longer blocked
    assert ipy.run("%critic accept reference scaler").status == "ok"
    rerun = ipy.run("%%critique --no-retry\n" + LEAKY, cell_id="leaky")
    assert rerun.status == "ok" and "overridden (accepted)" in rerun.panel_text()

    # the service's generator fixes a blocked cell: attempts, diff and next input come back
    service_generator.queue(SOUND)
    fixed = ipy.run("%%critique\n" + LEAKY.replace("alpha=1.0", "alpha=0.5"), cell_id="fix")
    assert fixed.status == "ok", fixed.messages
    assert "attempt 2: code written by the service after the critic's findings" in (
        fixed.panel_text())
    assert "+scaler = StandardScaler().fit(X_train)" in fixed.panel_text()
    assert fixed.next_input and fixed.next_input["text"] == SOUND

    error = ipy.run("%%critique --no-retry\nundefined_thing", cell_id="err")
    assert error.ename == "NameError" and error.of("error")[0]["ename"] == "NameError"

    assert "local mode" in ipy.run("%critic disconnect").panel_text()
    assert "local (this kernel)" in ipy.run("%critic").panel_text()



# -- self-checks and lessons (local mode) ---------------------------------------------------


def test_check_option_blocks_like_a_critical_finding(ipy: Kernel) -> None:
    blocked = ipy.run('%%critique --check "len(rows) == 3"\nrows = [1, 2]')
    assert blocked.ename == "ScientificValidityError"
    assert "self_check." in blocked.panel_text()
    assert "len(rows)" in blocked.panel_text()
    passed = ipy.run('%%critique --check "len(rows) == 3" --check \'{"type": "in_range", '
                     '"target": "rows[0]", "min": 0}\'\nrows = [1, 2, 3]')
    assert passed.status == "ok", passed.panel_text()
    bad = ipy.run('%%critique --check \'{"type": "in_range", "target": "x"}\'\nx = 1')
    assert bad.ename == "UsageError" and "min" in "".join(bad.reply.get("traceback", [])) + \
        bad.reply.get("evalue", "")


def test_a_fixed_retry_becomes_a_lesson_for_the_next_prompt(ipy: Kernel) -> None:
    scripted(ipy, "gen", "share = counts['north'] / 10", "share2 = counts['north'] / 20")
    assert ipy.run("counts = {'north': 4}").status == "ok"
    fixed = ipy.run("%%critique\nshare = counts['nort'] / 10")
    assert fixed.status == "ok"
    listed = ipy.run("%critic lessons KeyError")
    assert "KeyError" in listed.panel_text() and "fix" in listed.panel_text()
    again = ipy.run("%%critique\nshare2 = counts['nrth'] / 20")
    assert again.status == "ok"
    # the second fix request carried the lesson the first one taught
    taught = "sum('KeyError' in line for line in gen.calls[{}].context.lessons)"
    assert value(ipy, taught.format(0)) == "0"
    assert value(ipy, taught.format(1)) == "1"


def test_ask_with_a_plan_shows_it_and_checks_its_criteria(ipy: Kernel) -> None:
    without = ipy.run("%%ask --plan set x")
    assert without.ename == "UsageError"
    planner = (
        "from services.cell_plan import Plan, Criterion\n"
        "from services.scripted_planner import ScriptedPlanner\n"
        "from app.magics import critic_magics\n"
        "critic_magics().planner = ScriptedPlanner([Plan(objectives=['x is two'], "
        "approach=['assign'], risks=[], success_criteria=[Criterion('x equals 2', "
        "{'type': 'expression', 'expr': 'x == 2', 'name': 'two'})], lessons_applied=[])])")
    assert ipy.run(planner).status == "ok"
    scripted(ipy, "gen", "x = 1", "x = 2")
    result = ipy.run("%%ask --plan set x to two")
    assert result.status == "ok", result.panel_text()
    shown = [d["data"].get("text/markdown", "") for d in result.of("display_data")]
    assert any("x is two" in text for text in shown)
    assert "self_check.plan_two" in result.panel_text()  # the first attempt failed the check
    assert value(ipy, "x") == "2"
