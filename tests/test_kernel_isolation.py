"""Kernels apart from the service (issue 21): environment allowlist, private runtime dirs,
resource limits with typed results, the separate identity. Real kernels throughout."""

from __future__ import annotations

import ctypes
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services.kernel_env import kernel_environment
from services.kernel_isolation import KernelIdentity, KernelIsolationError, runtime_root
from services.notebook_service import NotebookService
from services.status import CellStatus
from tests.conftest import make_settings

PR_GET_DUMPABLE = 3


def test_environment_is_an_allowlist() -> None:
    base = {"PATH": "/bin", "HOME": "/h", "LC_ALL": "C", "DATABASE_URL": "postgres://s",
            "SENTRY_DSN": "https://k@s", "MYAPP_MODE": "a", "MYAPP_TOKEN": "t",
            "NBCRITIC_TOKEN": "t", "ANTHROPIC_API_KEY": "k", "AWS_SECRET_ACCESS_KEY": "k"}
    assert sorted(kernel_environment(base=base)) == ["HOME", "LC_ALL", "PATH"]
    with_app = kernel_environment(["MYAPP_*"], base=base)
    assert "MYAPP_MODE" in with_app and "MYAPP_TOKEN" not in with_app
    named = kernel_environment(["MYAPP_TOKEN", "NBCRITIC_TOKEN"], ["HOME"], base=base)
    assert "MYAPP_TOKEN" in named and "NBCRITIC_TOKEN" not in named and "HOME" not in named


def test_runtime_root_is_private_and_cleaned_at_start(tmp_path: Path) -> None:
    first = runtime_root(tmp_path, shared=False)
    stale = first.parent / "999999999-dead00"  # a killed service: no such process
    (stale / "k-deadbeef0000").mkdir(parents=True)
    alive = first.parent / "1-abcdef"  # a service still running on the same data dir
    alive.mkdir()
    second = runtime_root(tmp_path, shared=False)
    assert second != first and first.exists() and alive.exists()
    assert not stale.exists()
    for path in (second, second.parent):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
    shutil.rmtree(second.parent)


def test_kernel_user_must_be_usable() -> None:
    with pytest.raises(KernelIsolationError, match="no such user"):
        KernelIdentity.resolve("no-such-user-nbcritic")
    with pytest.raises(KernelIsolationError, match="unprivileged"):
        KernelIdentity.resolve("root")


async def _service(tmp_path: Path, **overrides: Any) -> NotebookService:
    values: dict[str, Any] = {"pool_size": 0, "critic_enabled": False, "cell_timeout": 120.0}
    values.update(overrides)
    svc = NotebookService(make_settings(tmp_path, **values))
    await svc.start()
    return svc


async def _run(svc: NotebookService, nb: str, code: str) -> Any:
    return await svc.execute_cell(nb, (await svc.add_cell(nb, source=code)).id)


def _text(result: Any) -> str:
    out = result.outputs[0]
    return out.get("text") or out["data"]["text/plain"]


@pytest.fixture
async def default_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                          ) -> AsyncIterator[NotebookService]:
    monkeypatch.setenv("DATABASE_URL", "postgres://user:pw@db/x")
    monkeypatch.setenv("NBCRITIC_TOKEN", "service-token")
    monkeypatch.setenv("SHARED_SETTING", "visible")
    svc = await _service(tmp_path, kernel_env_allow=["SHARED_SETTING"])
    try:
        yield svc
    finally:
        await svc.stop()


async def test_kernel_sees_allowed_names_and_no_key_on_disk(
        default_service: NotebookService) -> None:
    svc = default_service
    nb = await svc.create_notebook("iso")
    code = ("import os, json\nprint(json.dumps([os.environ.get(k) for k in "
            "('DATABASE_URL', 'NBCRITIC_TOKEN', 'SHARED_SETTING')] + [bool(os.environ.get('PATH'))"
            "]))")
    result = await _run(svc, nb, code)
    assert json.loads(_text(result)) == [None, None, "visible", True]
    session = svc._kernels[nb]
    private = session.runtime_dir
    assert private.parent == svc.pool.runtime_dir
    assert stat.S_IMODE(private.stat().st_mode) & 0o777 == 0o700
    assert not Path(session.km.connection_file).exists()  # the HMAC key is not on disk
    assert not list(private.glob("*.json"))
    # the service and each kernel are non-dumpable: /proc/<pid>/environ and mem are closed
    # to processes of the same user
    assert ctypes.CDLL(None).prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0
    dumpable = await _run(svc, nb, "import ctypes\nprint(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))")
    assert _text(dumpable).strip() == "0"
    await svc.pool._shutdown(session)
    assert not private.exists()


async def test_memory_limit_is_a_typed_error_and_the_kernel_lives(tmp_path: Path) -> None:
    svc = await _service(tmp_path, kernel_memory_limit_mb=2048)
    try:
        nb = await svc.create_notebook("mem")
        before = await _run(svc, nb, "x = 1")
        hog = await _run(svc, nb, "big = bytearray(3 * 1024 ** 3)")
        assert hog.status is CellStatus.ERROR
        assert hog.error["ename"] == "MemoryError" and hog.error["reason"] == "memory_limit"
        assert "reason" not in hog.outputs[-1]  # the notebook output keeps nbformat's shape
        after = await _run(svc, nb, "x + 1")
        assert after.status is CellStatus.OK and _text(after) == "2"
        assert before.execution_count is not None
    finally:
        await svc.stop()


async def test_cpu_limit_ends_the_kernel_with_a_reason(tmp_path: Path) -> None:
    svc = await _service(tmp_path, kernel_cpu_limit_seconds=6)
    try:
        nb = await svc.create_notebook("cpu")
        spin = await _run(svc, nb, "while True:\n    pass")
        assert spin.status is CellStatus.DEAD_KERNEL
        assert spin.error["reason"] == "cpu_limit"
        assert "CPU time limit" in spin.error["evalue"]
        again = await _run(svc, nb, "1 + 1")  # a fresh kernel; the service is unharmed
        assert again.status is CellStatus.OK
    finally:
        await svc.stop()


async def test_file_size_limit_fails_the_write(tmp_path: Path) -> None:
    svc = await _service(tmp_path, kernel_max_file_mb=1)
    try:
        nb = await svc.create_notebook("fsize")
        code = (f"with open({str(tmp_path / 'big.bin')!r}, 'wb') as f:\n"
                "    f.write(b'0' * (2 * 1024 * 1024))")
        result = await _run(svc, nb, code)
        assert result.status is CellStatus.ERROR
        assert "File too large" in result.error["evalue"]
    finally:
        await svc.stop()


def _nobody() -> str | None:
    try:
        return pwd.getpwnam("nobody").pw_name
    except KeyError:
        return None


SYSTEM_PYTHON = Path("/usr/bin/python3")
THREAD_FLOOD = """\
import threading
stop = threading.Event()
started = []
try:
    for _ in range(200):
        t = threading.Thread(target=stop.wait)
        t.start()
        started.append(t)
except RuntimeError:
    pass
stop.set()
for t in started:
    t.join()
print(len(started))
"""


def _kernel_nobody_can_run(root: Path) -> str:
    """A kernelspec whose Python `nobody` can run: this test's Python may live where
    `nobody` cannot go (/root/.pyenv), so a venv of the system Python (same minor version)
    that sees this environment's packages."""
    venv = root / "venv"
    subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python3*/site-packages"))
    (site / "nbcritic_test.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    spec = root / "kernels" / "py-nobody"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(venv / "bin" / "python"), "-m", "ipykernel_launcher", "-f",
                 "{connection_file}"],
        "display_name": "nobody's Python", "language": "python"}))
    for path in (root, *root.parents):
        if path == Path("/tmp"):
            break
        path.chmod(path.stat().st_mode | 0o005)  # readable by others: this dir only
    return "py-nobody"


def _system_python_fits() -> bool:
    if not SYSTEM_PYTHON.exists():
        return False
    version = subprocess.run([str(SYSTEM_PYTHON), "-c", "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True).stdout.strip()
    return version == str(sys.version_info[:2])


@pytest.mark.skipif(os.geteuid() != 0 or _nobody() is None or not _system_python_fits(),
                    reason="the separate identity needs root, a `nobody` user and a system "
                    "Python of this version")
async def test_separate_identity_cannot_reach_the_service(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(KernelIsolationError, match="cannot run the kernel's program"):
        await _service(tmp_path / "refused", kernel_user="nobody")  # our Python is closed to it
    kernels = Path(tempfile.mkdtemp(prefix="nbc-nobody-"))
    monkeypatch.setenv("JUPYTER_PATH", str(kernels))
    kernel_name = _kernel_nobody_can_run(kernels)
    svc = await _service(tmp_path, kernel_user="nobody", kernel_name=kernel_name,
                         kernel_max_processes=64)
    try:
        nb = await svc.create_notebook("ident")
        notebook_file = next(tmp_path.rglob("*.ipynb"))
        code = f"""\
import os, json, signal
def tries(f):
    try:
        f()
        return "allowed"
    except PermissionError:
        return "denied"
print(json.dumps([os.getuid(),
    tries(lambda: open(f"/proc/{{os.getppid()}}/environ").read()),
    tries(lambda: open({str(notebook_file)!r}).read()),
    tries(lambda: os.kill(os.getppid(), 0))]))
"""
        result = await _run(svc, nb, code)
        uid, environ, notebook, signal_ = json.loads(_text(result))
        assert uid == pwd.getpwnam("nobody").pw_uid
        assert [environ, notebook, signal_] == ["denied"] * 3
        threads = await _run(svc, nb, THREAD_FLOOD)
        assert threads.status is CellStatus.OK
        assert int(_text(threads)) < 200  # the process limit stopped the flood in the cell
        assert (await _run(svc, nb, "1 + 1")).status is CellStatus.OK
    finally:
        await svc.stop()
        shutil.rmtree(kernels, ignore_errors=True)
