"""The README's examples, run as written: its shell commands against a real `nbcritic serve`
on 127.0.0.1, `nbcritic run` and the pytest example as processes, its magics in a real kernel.

Every fenced block is either run here or marked `<!-- readme-example: not run (why) -->` on
the line before it; a new block that is neither fails `test_every_readme_block_is_run`.
The blocks run in a scratch directory that links `.venv` and `examples/` and copies
`notebooks/` (`nbcritic run` writes next to the notebook), so the checkout is left as it was.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from jupyter_client import KernelManager

from tests.conftest import free_port

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
EXAMPLE = ROOT / "examples" / "test_analysis_example.py"
NOT_RUN = "<!-- readme-example: not run"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
TOKEN = "readme-token"

# what the README's %%critique cell says comes "from earlier cells"
EARLIER_CELLS = """\
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
X, y = load_diabetes(return_X_y=True)"""


@dataclass
class Block:
    lang: str
    code: str
    marked_not_run: bool


def readme_blocks() -> list[Block]:
    text = README.read_text(encoding="utf-8")
    blocks = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        blocks.append(Block(m.group(1), m.group(2), before.startswith(NOT_RUN)))
    return blocks


def _runnable(kind: str) -> list[Block]:
    return [b for b in readme_blocks() if not b.marked_not_run and _kind(b) == kind]


def _kind(block: Block) -> str | None:
    """Which test runs a block (None: none does)."""
    if block.lang == "sh" and "curl " in block.code:
        return "rest"
    if block.lang == "sh" and "nbcritic run " in block.code:
        return "cli"
    if block.lang == "sh" and "pytest examples/" in block.code:
        return "pytest"
    if block.lang == "python":
        return "excerpt"
    if block.lang == "" and block.code.lstrip().startswith(("%load_ext", "%%critique")):
        return "magics"
    return None


def test_every_readme_block_is_run() -> None:
    blocks = readme_blocks()
    assert len(blocks) >= 7
    orphans = [b.code for b in blocks if not b.marked_not_run and _kind(b) is None]
    assert not orphans, f"README blocks neither run by this test nor marked: {orphans}"
    assert sum(b.marked_not_run for b in blocks) <= 2, "keep the not-run list short"


# -- a scratch directory and the service -----------------------------------------------------

@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("readme")
    (where / ".venv").symlink_to(ROOT / ".venv")
    (where / "examples").symlink_to(ROOT / "examples")
    shutil.copytree(ROOT / "notebooks", where / "notebooks")
    return where


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "NBCRITIC_"))}  # no key: nothing is rewritten
    return {**env, **extra}


@pytest.fixture(scope="module")
def service(scratch: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [str(ROOT / ".venv/bin/nbcritic"), "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(scratch / "service-data"), "--token", TOKEN, "--pool-size", "1",
         "--log-level", "warning"], cwd=scratch, env=_env())
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _wait_healthy(url: str, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        try:
            if httpx.get(url + "/health", timeout=1).json()["status"] == "ok":
                return
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, "nbcritic serve exited"
        time.sleep(0.1)
    raise AssertionError("nbcritic serve did not come up")


def _bash(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", code], cwd=cwd, env=_env(**env), text=True,
                          capture_output=True, timeout=600)


# -- the shell blocks ------------------------------------------------------------------------

def test_the_rest_example_runs_a_cell_and_the_notebook(service: str, scratch: Path) -> None:
    [block] = _runnable("rest")
    done = _bash("set -eu\n" + block.code, scratch, NBCRITIC_URL=service,
                 NBCRITIC_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    created, executed, ran = _json_documents(done.stdout)
    assert created["id"] == "demo" and created["content"]["cells"] == []
    assert executed["status"] == "ok"
    assert executed["outputs"] == [{"output_type": "stream", "name": "stdout", "text": "42\n"}]
    assert (ran["kind"], ran["state"], ran["status"]) == ("run_all", "done", "ok")
    assert [r["outputs"][0]["text"] for r in ran["results"]] == ["42\n"]


def _json_documents(text: str) -> list[dict]:
    """The JSON bodies curl printed one after another."""
    decoder, found, at = json.JSONDecoder(), [], 0
    while at < len(text):
        doc, at = decoder.raw_decode(text, at)
        found.append(doc)
        while at < len(text) and text[at].isspace():
            at += 1
    return found


def test_the_command_line_examples_exit_as_documented(scratch: Path) -> None:
    [block] = _runnable("cli")
    lines = [line for line in block.code.splitlines() if line.strip()]
    # demo: every cell ok (exit 0); flawed_analysis: "lists the findings, exit 3"
    expected = {"notebooks/demo.ipynb": 0, "notebooks/flawed_analysis.ipynb": 3}
    assert [next(p for p in expected if p in line) for line in lines] == list(expected)
    demo, flawed = (_bash(line, scratch) for line in lines)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert (scratch / "executed.ipynb").exists()
    assert flawed.returncode == 3, flawed.stdout + flawed.stderr
    assert "leakage.fit_saw_heldout_rows" in flawed.stdout + flawed.stderr


def test_the_pytest_example_passes(scratch: Path) -> None:
    [block] = _runnable("pytest")
    done = _bash(block.code, scratch)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert re.search(r"\b4 passed\b", done.stdout), done.stdout[-2000:]


def test_the_python_block_is_an_excerpt_of_the_example_file() -> None:
    # it uses the file's SETUP, LEAKY and SOUND, so it runs as part of that file
    [block] = _runnable("excerpt")
    assert block.code in EXAMPLE.read_text(encoding="utf-8")


# -- the magics, in a real kernel ------------------------------------------------------------

@pytest.fixture
def kernel(tmp_path: Path) -> Iterator[KernelManager]:
    km = KernelManager(kernel_name="python3")
    km.start_kernel(env=_env(NBCRITIC_DATA_DIR=str(tmp_path / "data")), cwd=str(tmp_path))
    try:
        yield km
    finally:
        km.shutdown_kernel(now=True)


def _execute(km: KernelManager, code: str) -> tuple[dict, list[dict]]:
    kc = km.client()
    kc.start_channels()
    outputs: list[dict] = []
    try:
        kc.wait_for_ready(timeout=60)
        reply = kc.execute_interactive(code, timeout=300, output_hook=lambda m: outputs.append(
            {"type": m["msg_type"], **m["content"]}))
    finally:
        kc.stop_channels()
    return reply["content"], outputs


def test_the_magics_example_blocks_a_leaky_cell(kernel: KernelManager) -> None:
    load, critique = (textwrap.dedent(b.code) for b in _runnable("magics"))
    assert load.startswith("%load_ext") and critique.startswith("%%critique")
    reply, _ = _execute(kernel, load)
    assert reply["status"] == "ok", reply
    assert _execute(kernel, EARLIER_CELLS)[0]["status"] == "ok"
    reply, outputs = _execute(kernel, critique)
    assert reply["status"] == "error" and reply["ename"] == "ScientificValidityError", reply
    shown = " ".join(str(o.get("data", o.get("text", ""))) for o in outputs)
    assert "leakage.fit_saw_heldout_rows" in shown
    # the cell ran in the kernel as usual: its printed score is there
    assert any("0." in o.get("text", "") for o in outputs if o["type"] == "stream")
