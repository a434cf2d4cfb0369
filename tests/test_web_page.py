"""The web page at `/`, used as a person would: headless Chromium (Debian's `chromium`) driven
by Playwright against a real `nbcritic serve` on 127.0.0.1 with real kernels. The code
generator is Claude through the real SDK against the local Messages-API stand-in.

Waits are on DOM state (Playwright's expect), never on time. Without chromium or playwright
the tests are skipped, except in CI (CI=true), where that is a failure: `.ci/run` installs them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import nbformat
import pytest

from tests.conftest import free_port
from tests.messages_api_server import MessagesAPIServer
from tests.tcp_proxy import TcpProxy
from tests.test_cli import NBCRITIC, ROOT
from tests.test_retry_demo import FIX

CHROMIUM = Path(os.environ.get("NBCRITIC_CHROMIUM", "/usr/bin/chromium"))
SHOTS = os.environ.get("NBCRITIC_SCREENSHOTS")  # a folder: save the docs' screenshots there
TOKEN = "page-token-7c1d"
BLOCKED_CELL = "f63ef374"  # notebooks/flawed_analysis.ipynb: the scaler fit before the split
RETRIED_CELL = "8f506023"  # notebooks/retry_demo.ipynb: the same flaw, with a prompt
CURSOR_LINE = """(node => (node.nodeType === 1 ? node : node.parentElement)
  .closest('.cm-line').textContent)(getSelection().focusNode)"""

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - CI installs it (dev extra)
    sync_playwright = None

if sync_playwright is None or not CHROMIUM.exists():
    missing = "playwright (pip)" if sync_playwright is None else f"chromium at {CHROMIUM}"
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"the page tests need {missing}; .ci/run installs it")
    pytest.skip(f"the page tests need {missing}", allow_module_level=True)

expect.set_options(timeout=90_000)  # real kernels on a shared 2-core machine: allow minutes


class Server:
    def __init__(self, data_dir: Path, api_url: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "server.log"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("NBCRITIC_", "ANTHROPIC_"))}
        env |= {"ANTHROPIC_API_KEY": "sk-page", "ANTHROPIC_BASE_URL": api_url,
                "NBCRITIC_CRITIC_LLM": "false"}
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(
                [*NBCRITIC, "serve", "--port", str(self.port), "--data-dir", str(data_dir),
                 "--pool-size", "1", "--token", TOKEN, "--log-level", "warning"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(600):  # bounded: 60 s
            try:
                if httpx.get(self.url + "/health", timeout=1).json()["status"] == "ok":
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.log.read_text()
            time.sleep(0.1)
        raise AssertionError("server did not come up")


@pytest.fixture(scope="module")
def messages_api() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as api:
        yield api


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory,
           messages_api: MessagesAPIServer) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("web-page"), messages_api.url)
    try:
        yield running
    finally:
        running.proc.terminate()
        running.proc.wait(timeout=60)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-background-networking",
                  "--disable-component-update"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.goto(server.url + "/")
    yield opened
    context.close()
    assert not errors, errors  # no uncaught exception in the page's scripts


def log_in(page: Page, token: str = TOKEN) -> None:
    page.get_by_label("Access token").fill(token)
    page.get_by_role("button", name="Log in").click()


def cell(page: Page, cell_id: str) -> Any:
    return page.locator(f'section.cell[data-cell-id="{cell_id}"]')


def shot(view: Any, name: str) -> None:
    """The documentation's screenshots (docs/web-page.md), when NBCRITIC_SCREENSHOTS is set."""
    if SHOTS:
        view.screenshot(path=str(Path(SHOTS) / f"{name}.png"), animations="disabled",
                        style=".notebook-toolbar { position: static; }")  # not over the cell


def upload(page: Page, name: str) -> None:
    log_in(page)
    page.get_by_label("Upload an .ipynb file").set_input_files(ROOT / "notebooks" / name)
    title = f"Notebook {name.removesuffix('.ipynb')}"
    expect(page.get_by_role("heading", name=title)).to_be_visible()


def test_the_page_and_its_modules_are_served_with_a_csp_allowing_only_its_import_map(
        server: Server) -> None:
    answer = httpx.get(server.url + "/", timeout=30)
    assert answer.status_code == 200
    script = re.search(r'<script type="importmap">(.*?)</script>', answer.text, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}'" in answer.headers["content-security-policy"]
    for target in json.loads(script)["imports"].values():
        module = httpx.get(server.url + target, timeout=30)
        assert module.status_code == 200, target
        assert module.headers["content-type"].startswith("text/javascript"), target
    assert httpx.get(server.url + "/api/notebooks", timeout=30).status_code == 401


def test_login_refuses_a_wrong_token_and_keeps_the_right_one_out_of_the_url(
        page: Page, server: Server) -> None:
    log_in(page, "not-the-token")
    expect(page.get_by_role("alert")).to_contain_text("refused this token")
    expect(page.get_by_role("heading", name="Notebooks")).to_have_count(0)
    log_in(page)
    expect(page.get_by_role("heading", name="Notebooks")).to_be_visible()
    assert TOKEN not in page.url
    assert page.evaluate("sessionStorage.getItem('nbcritic.token')") == TOKEN
    page.reload()  # the tab keeps its session
    expect(page.get_by_role("heading", name="Notebooks")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_label("Access token")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('nbcritic.token')") is None


def test_a_cell_streams_before_it_ends_and_a_reload_mid_run_loses_nothing(
        page: Page, tmp_path: Path) -> None:
    gate = tmp_path / "go"
    log_in(page)
    page.get_by_label("Notebook name").fill("live")
    page.get_by_role("button", name="Create notebook").click()
    editor = page.get_by_label("Cell 1 (code) source")
    editor.click()
    page.keyboard.type(f'import os, time\nshown = display("stage 0", display_id=True)\n'
                       f'shown.update("stage 1")\nprint("first", flush=True)\n'
                       f'while not os.path.exists({str(gate)!r}): time.sleep(0.02)\n'
                       f'print("second")')
    page.keyboard.press("Shift+Enter")
    running = page.locator("section.cell").first
    expect(running.locator(".outputs")).to_contain_text("first")
    expect(running).to_have_attribute("data-status", "running")  # streamed before the end
    expect(running.locator(".outputs")).to_contain_text("'stage 1'")  # updated live
    expect(running.locator(".outputs")).not_to_contain_text("stage 0")
    page.reload()
    running = page.locator("section.cell").first
    expect(running.locator(".outputs")).to_contain_text("first")
    expect(running).to_have_attribute("data-status", "running")
    gate.touch()
    expect(running).to_have_attribute("data-status", "ok")
    expect(running.locator(".outputs pre")).to_have_text(["'stage 1'", "first\nsecond\n"])
    running.get_by_label("Cell 1 (code) source").click()  # Escape, then Tab leaves the editor
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.cm-editor') === null")


def test_a_network_drop_mid_run_is_resumed_without_losing_or_repeating_output(
        browser: Browser, server: Server, tmp_path: Path) -> None:
    """The page talks to the service through a proxy that cuts every open connection: the
    event stream breaks mid-run and the page resumes it with Last-Event-ID."""
    gate = tmp_path / "go"
    code = (f'import os, time\nprint("before", flush=True)\n'
            f'while not os.path.exists({str(gate)!r}): time.sleep(0.02)\nprint("after")')
    headers = {"Authorization": f"Bearer {TOKEN}"}
    httpx.post(f"{server.url}/api/notebooks", json={"id": "drop"}, headers=headers, timeout=30)
    httpx.post(f"{server.url}/api/notebooks/drop/cells", json={"source": code},
               headers=headers, timeout=30).raise_for_status()
    with TcpProxy(("127.0.0.1", server.port)) as proxy:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{proxy.port}/#/nb/drop")
        log_in(page)
        running = page.locator("section.cell").first
        running.get_by_role("button", name="Run", exact=True).click()
        expect(running.locator(".outputs")).to_contain_text("before")
        expect(running).to_have_attribute("data-status", "running")
        assert proxy.drop() > 0  # the event stream among them
        gate.touch()
        expect(running).to_have_attribute("data-status", "ok")
        expect(running.locator(".outputs pre")).to_have_text(["before\nafter\n"])
        context.close()


def test_interrupt_stops_a_running_cell_and_restart_gives_a_fresh_kernel(
        page: Page, server: Server) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    httpx.post(f"{server.url}/api/notebooks", json={"id": "spin"}, headers=headers, timeout=30)
    for source in ('import time\nx = 1\nprint("spinning", flush=True)\n'
                   'while True:\n    time.sleep(0.05)', "print(x)"):
        httpx.post(f"{server.url}/api/notebooks/spin/cells", json={"source": source},
                   headers=headers, timeout=30).raise_for_status()
    log_in(page)
    page.get_by_role("link", name="spin").click()
    expect(page.locator("section.cell")).to_have_count(2)
    spinning, after = page.locator("section.cell").all()
    spinning.get_by_role("button", name="Run", exact=True).click()
    expect(spinning.locator(".outputs")).to_contain_text("spinning")
    page.get_by_role("button", name="Interrupt").click()
    expect(spinning).to_have_attribute("data-status", "interrupted")
    expect(spinning.locator(".traceback")).to_contain_text("KeyboardInterrupt")
    page.get_by_role("button", name="Restart kernel").click()
    expect(page.locator("#notice")).to_contain_text("Kernel restarted")
    after.get_by_role("button", name="Run", exact=True).click()  # x is gone with the kernel
    expect(after).to_have_attribute("data-status", "error")
    expect(after.locator(".traceback")).to_contain_text("NameError")


def test_a_blocked_finding_is_shown_on_its_lines_accepted_with_a_reason_and_downloaded(
        page: Page) -> None:
    upload(page, "flawed_analysis.ipynb")
    page.get_by_role("button", name="Run all").click()
    blocked = cell(page, BLOCKED_CELL)
    expect(blocked).to_have_attribute("data-status", "scientific_validity_error")
    critique = blocked.get_by_role("region", name="Critique")
    expect(critique).to_contain_text("Blocked by the critic")
    expect(critique.locator('[data-rule="leakage.fit_saw_heldout_rows"]')).to_contain_text(
        "Suggested fix")
    evidence = blocked.locator(".cm-evidence-line")
    expect(evidence).to_have_count(2)
    expect(evidence.first).to_contain_text("StandardScaler().fit_transform(X)")
    critique.get_by_role("button", name="lines 7, 10").click()  # the cursor goes to line 7
    assert page.evaluate(CURSOR_LINE).startswith("X_scaled = StandardScaler()")
    expect(blocked.get_by_role("region", name="Escalation")).to_contain_text("?")

    blocked.get_by_role("button", name="Run", exact=True).click()  # unchanged: no silent override
    expect(page.locator("#notice")).to_contain_text("accept the finding with a reason")
    expect(blocked).to_have_attribute("data-status", "scientific_validity_error")

    blocked.get_by_label("Reason for accepting").fill("exploratory: the split is shown later")
    blocked.get_by_label("Accepted by").fill("ana")
    blocked.get_by_role("button", name="Accept finding and run again").click()
    expect(blocked).to_have_attribute("data-status", "ok")
    expect(blocked.get_by_role("status").first).to_contain_text("overridden")
    expect(blocked.locator(".override-note")).to_contain_text(
        "exploratory: the split is shown later")

    shot(page, "web-page-notebook")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download .ipynb").click()
    assert download.value.suggested_filename == "flawed_analysis.ipynb"
    saved = nbformat.read(download.value.path(), as_version=4)
    meta = next(c for c in saved.cells if c.get("id") == BLOCKED_CELL).metadata["nbcritic"]
    assert meta["status"] == "ok"
    assert meta["override"]["by"] == "ana"
    assert meta["override"]["reason"] == "exploratory: the split is shown later"


def test_let_it_fix_has_the_generator_rewrite_a_blocked_cell(
        page: Page, server: Server, messages_api: MessagesAPIServer) -> None:
    flawed = nbformat.read(ROOT / "notebooks" / "flawed_analysis.ipynb", as_version=4)
    sound = nbformat.read(ROOT / "notebooks" / "sound_analysis.ipynb", as_version=4)
    setup, leaky = [c.source for c in flawed.cells if c.cell_type == "code"][:2]
    fixed = [c.source for c in sound.cells if c.cell_type == "code"][1]
    with httpx.Client(base_url=server.url, timeout=120,
                      headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        client.post("/api/notebooks", json={"id": "fixit"}).raise_for_status()
        cells = [client.post("/api/notebooks/fixit/cells", json={"source": source}).json()["id"]
                 for source in (setup, leaky)]
        run = client.post("/api/notebooks/fixit/run", json={"auto_fix": False}).json()
        assert run["blocked"] == [cells[1]]
    messages_api.reply_tool("submit_code", {"code": fixed, "explanation": "a pipeline"})
    log_in(page)
    page.get_by_role("link", name="fixit").click()
    blocked = cell(page, cells[1])
    expect(blocked).to_have_attribute("data-status", "scientific_validity_error")
    expect(blocked.locator(".cm-evidence-line")).to_have_count(2)
    shot(blocked, "web-page-blocked")
    blocked.get_by_role("button", name="Let the code generator fix it").click()
    expect(blocked).to_have_attribute("data-status", "ok")
    expect(blocked.get_by_role("status").first).not_to_contain_text("overridden")
    expect(blocked.locator(".attempt")).to_have_count(2)
    expect(blocked.locator(".cm-content")).to_contain_text("make_pipeline(StandardScaler()")


def test_a_retried_cell_shows_its_attempts_and_the_diff_between_them(
        page: Page, messages_api: MessagesAPIServer) -> None:
    messages_api.reply_tool("submit_code", {"code": FIX, "explanation": "fit the scaler on "
                                            "the training rows only"}, usage=(1800, 220))
    upload(page, "retry_demo.ipynb")
    page.get_by_role("button", name="Run all").click()
    retried = cell(page, RETRIED_CELL)
    expect(retried).to_have_attribute("data-status", "ok")
    timeline = retried.locator(".attempts")
    expect(timeline.locator(":scope > summary")).to_have_text("Attempts (2)")
    expect(timeline.locator(".attempt")).to_have_count(2)
    expect(timeline.locator('.attempt[data-attempt="1"]')).to_contain_text(
        "leakage.fit_saw_heldout_rows")
    diff = timeline.locator('.attempt[data-attempt="2"] .diff')
    expect(diff.locator("ins")).to_contain_text(["scaler = StandardScaler().fit(X_train)"])
    expect(diff.locator("del")).to_contain_text(["X_scaled = StandardScaler().fit_transform(X)"])
    expect(retried.locator(".cm-content")).to_contain_text("scaler = StandardScaler().fit(X_train)")
    expect(retried.locator(".outputs")).to_contain_text("test R2 = ")
    shot(retried, "web-page-attempts")
    page.get_by_role("link", name="Lessons and improvement requests").click()
    lesson = page.get_by_role("list", name="Lessons").get_by_role("listitem").first
    expect(lesson).to_contain_text("leakage")  # learned from the verified fix
    expect(lesson).to_contain_text("What fixed it")
