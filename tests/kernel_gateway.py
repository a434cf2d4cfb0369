"""Real gateways on a loopback port for the tests of remote kernels: Jupyter Kernel Gateway
(PyPI jupyter-kernel-gateway, a dev dependency) and Jupyter Enterprise Gateway (a venv of its
own, .ci/enterprise-gateway); each started as its own process with a token, stopped with its
kernels."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import free_port

GATEWAY_TOKEN = "gateway-test-token"


# the path of jupyter-enterprisegateway (.ci/enterprise-gateway prints it)
ENTERPRISE_GATEWAY_ENV = "NBCRITIC_TEST_ENTERPRISE_GATEWAY"


@contextmanager
def kernel_gateway(token: str = GATEWAY_TOKEN, start_timeout: float = 60.0) -> Iterator[str]:
    """A Jupyter Kernel Gateway's URL while it runs."""
    with _gateway([sys.executable, "-m", "kernel_gateway"], "KernelGatewayApp", token,
                  start_timeout) as url:
        yield url


@contextmanager
def enterprise_gateway(executable: str, token: str = GATEWAY_TOKEN,
                       start_timeout: float = 60.0) -> Iterator[str]:
    """A Jupyter Enterprise Gateway's URL while it runs (its local process proxy: kernels on
    this machine). Tests run as root, which it refuses by default (unauthorized_users)."""
    with _gateway([executable, "--EnterpriseGatewayApp.unauthorized_users=nobody"],
                  "EnterpriseGatewayApp", token, start_timeout) as url:
        yield url


@contextmanager
def _gateway(command: list[str], app: str, token: str,
             start_timeout: float) -> Iterator[str]:
    """The gateway's URL while it runs; its log is in the error when it does not come up."""
    port = free_port()
    runtime = Path(tempfile.mkdtemp(prefix="nbc-gw-"))
    log_path = runtime / "gateway.log"
    # *_LIST_KERNELS: GET /api/kernels answers, so a test can see what is left running
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime), "KG_LIST_KERNELS": "True",
           "EG_LIST_KERNELS": "True"}
    args = [*command, f"--{app}.ip=127.0.0.1", f"--{app}.port={port}",
            f"--{app}.auth_token={token}"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env,
                                stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_up(url, token, proc, start_timeout, log_path)
        yield url
    finally:
        proc.terminate()  # a gateway shuts its kernels down on SIGTERM
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_up(url: str, token: str, proc: subprocess.Popen[bytes], timeout: float,
             log_path: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"kernel gateway exited {proc.returncode}: "
                               f"{log_path.read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/api", headers=gateway_headers(token), timeout=2).is_success:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"kernel gateway not up in {timeout} s: {log_path.read_text()[-2000:]}")


def gateway_headers(token: str = GATEWAY_TOKEN) -> dict[str, str]:
    return {"Authorization": f"token {token}"}


def gateway_kernels(url: str, token: str = GATEWAY_TOKEN) -> list[dict[str, object]]:
    """The kernels the gateway runs now."""
    response = httpx.get(f"{url}/api/kernels", headers=gateway_headers(token), timeout=10)
    response.raise_for_status()
    return list(response.json())
