"""The retry demo (`notebooks/retry_demo.ipynb`) as the README shows it: headless with no API
key it is caught and escalated (exit 3); with a code generator it is caught, rewritten and
fixed. The generator is Claude through the real SDK against a local Messages-API server
(the CLI is a real subprocess pointed at it with ANTHROPIC_BASE_URL), never a real model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat

from .messages_api_server import MessagesAPIServer

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "notebooks" / "retry_demo.ipynb"
FIX = """\
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
scaler = StandardScaler().fit(X_train)
model = Ridge(alpha=1.0).fit(scaler.transform(X_train), y_train)
test_r2 = model.score(scaler.transform(X_test), y_test)
print(f"test R2 = {test_r2:.3f}")
"""


def _run(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "NBCRITIC_"))}
    return subprocess.run([sys.executable, "-m", "app.cli", "run", str(DEMO), "-o", str(out)],
                          capture_output=True, text=True, timeout=180, cwd=ROOT,
                          env={**clean, "NBCRITIC_DATA_DIR": str(out.parent / "data"), **env})


def test_demo_without_a_key_is_caught_and_escalated(tmp_path: Path) -> None:
    out = tmp_path / "caught.ipynb"
    proc = _run(out)
    assert proc.returncode == 3, proc.stderr
    assert "scientific_validity_error" in proc.stderr
    assert "escalated (no_code_generator)" in proc.stderr
    cell = nbformat.read(out, as_version=4).cells[2]
    meta = cell.metadata["nbcritic"]
    assert meta["status"] == "scientific_validity_error"
    assert meta["escalation"]["question"].endswith("?")
    assert cell.outputs[-1]["ename"] == "ScientificValidityError"
    assert "fit_transform" in cell.source  # the user's code is left as it was


def test_demo_with_claude_is_caught_rewritten_and_fixed(tmp_path: Path) -> None:
    out = tmp_path / "fixed.ipynb"
    with MessagesAPIServer() as api:
        api.reply_tool("submit_code", {"code": FIX, "explanation": "fit the scaler on the "
                                       "training rows only"}, usage=(1800, 220))
        proc = _run(out, ANTHROPIC_API_KEY="sk-demo", ANTHROPIC_BASE_URL=api.url,
                    NBCRITIC_CRITIC_LLM="false")
        (request,) = api.requests
    assert proc.returncode == 0, proc.stderr
    assert "Fit a ridge regression" in request.user_text  # the cell's prompt
    assert "leakage.fit_saw_heldout_rows" in request.user_text  # the finding
    cell = nbformat.read(out, as_version=4).cells[2]
    meta = cell.metadata["nbcritic"]
    assert meta["status"] == "ok"
    assert [a["status"] for a in meta["attempts"]] == ["scientific_validity_error", "ok"]
    assert cell.source == FIX.strip() and "fit_transform" in meta["attempts"][0]["code"]
    assert meta["tokens"]["total"] == 2020
    assert cell.outputs[0]["text"].startswith("test R2 = ")
