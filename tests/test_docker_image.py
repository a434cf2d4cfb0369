"""The container image (Dockerfile): it builds from a Debian bookworm base made with
debootstrap (`.ci/docker`; no image registry is reachable here), runs as an unprivileged user
with no compiler inside, reports healthy, and executes a cell through its REST API. Built and
run with --network host and reached on 127.0.0.1 only."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import TOKEN, free_port

ROOT = Path(__file__).resolve().parents[1]
BASE_ENV = "NBCRITIC_TEST_DOCKER_BASE"


@pytest.fixture(scope="module")
def docker_base() -> str:
    base = os.environ.get(BASE_ENV)
    if not base:
        message = f"{BASE_ENV} is not set (a Debian/Python 3.11 base image; .ci/docker)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: .ci/run starts dockerd and makes the base image")
        pytest.skip(message)
    return base


def docker(*args: str, timeout: float = 120) -> str:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"docker {args[0]}: {done.stderr[-3000:]}"
    return done.stdout.strip()


@pytest.fixture(scope="module")
def image(docker_base: str) -> Iterator[str]:
    tag = f"nbcritic-test:{uuid.uuid4().hex[:8]}"
    # pip inside the build trusts this machine's CA bundle (.ci/docker copies it into the
    # base; a TLS-inspecting proxy's CA may be in it), or what PIP_CERT names here
    wanted = {"PIP_CERT": os.environ.get("PIP_CERT", "/etc/ssl/certs/ca-certificates.crt"),
              "PIP_INDEX_URL": os.environ.get("PIP_INDEX_URL", "")}
    passed = [arg for name, value in wanted.items() if value
              for arg in ("--build-arg", f"{name}={value}")]
    docker("build", "--network", "host", "--build-arg", f"BASE={docker_base}", *passed,
           "-t", tag, str(ROOT), timeout=1500)
    try:
        yield tag
    finally:
        subprocess.run(["docker", "rmi", "-f", tag], capture_output=True, timeout=120)


@pytest.mark.timeout(1800)
def test_the_image_runs_unprivileged_without_a_compiler(image: str) -> None:
    assert docker("image", "inspect", "-f", "{{.Config.User}}", image) == "nbcritic"
    assert "CMD" in docker("image", "inspect", "-f", "{{json .Config.Healthcheck}}", image)
    found = docker("run", "--rm", "--network", "host", "--entrypoint", "sh", image, "-c",
                   "id -un; command -v gcc cc make || echo no-compiler")
    assert found.splitlines() == ["nbcritic", "no-compiler"]


@pytest.mark.timeout(1800)
def test_the_container_executes_a_cell_over_rest(image: str) -> None:
    port = free_port()
    name = f"nbcritic-test-{uuid.uuid4().hex[:8]}"
    docker("run", "-d", "--name", name, "--network", "host", "-e", "NBCRITIC_HOST=127.0.0.1",
           "-e", f"NBCRITIC_PORT={port}", "-e", f"NBCRITIC_TOKEN={TOKEN}", image)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60,
                          headers={"Authorization": f"Bearer {TOKEN}"}) as api:
            _wait(lambda: _ok(api, "/health"), "the service answers", name)
            nb = api.post("/api/notebooks", json={}).json()["id"]
            cell = api.post(f"/api/notebooks/{nb}/cells", json={"source": "6 * 7"}).json()["id"]
            result = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute").json()
            assert result["status"] == "ok"
            assert result["outputs"][0]["data"]["text/plain"] == "42"
        _wait(lambda: docker("inspect", "-f", "{{.State.Health.Status}}", name) == "healthy",
              "docker reports the container healthy", name, timeout=90)
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True, timeout=120)


def _ok(api: httpx.Client, path: str) -> bool:
    try:
        return api.get(path).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(check: object, what: str, name: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.5)
    logs = subprocess.run(["docker", "logs", "--tail", "50", name], capture_output=True,
                          text=True, timeout=60)
    raise AssertionError(f"not within {timeout} s: {what}\n{logs.stdout}{logs.stderr}")
