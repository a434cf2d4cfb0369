"""The kernel provider seam: the same session behaviour on a local ipykernel and on kernels
run by a real Jupyter Kernel Gateway and a real Jupyter Enterprise Gateway on loopback
(outputs, silent introspection requests, interrupt, restart, timeout, a kernel that ignores
the interrupt, a dead kernel), and the service end to end on both gateways' kernels (warm
pool, statuses, no kernel left behind)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from services.code_generator import TokenUsage
from services.gateway_client import decode_frame
from services.kernel_provider import GatewayKernels, KernelProvider, LocalKernels
from services.kernel_session import KernelSession, KernelStartError
from services.notebook_service import ExecuteOptions, NotebookService
from services.scripted_generator import ScriptedGenerator
from services.status import CellStatus
from tests.conftest import make_settings
from tests.kernel_gateway import (
    ENTERPRISE_GATEWAY_ENV,
    GATEWAY_TOKEN,
    enterprise_gateway,
    gateway_kernels,
    kernel_gateway,
)
from tests.test_retry_loop import FIXED, LEAKY, SETUP

GATEWAYS = ("kernel_gateway", "enterprise_gateway")


@pytest.fixture(scope="module")
def kernel_gateway_url() -> Iterator[str]:
    with kernel_gateway() as url:
        yield url


@pytest.fixture(scope="module")
def enterprise_gateway_url() -> Iterator[str]:
    executable = os.environ.get(ENTERPRISE_GATEWAY_ENV)
    if not executable:
        message = f"{ENTERPRISE_GATEWAY_ENV} is not set (.ci/enterprise-gateway prints it)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: .ci/run installs Enterprise Gateway and sets it")
        pytest.skip(message)
    with enterprise_gateway(executable) as url:
        yield url


def _gateway_url(request: pytest.FixtureRequest, which: str) -> str:
    return str(request.getfixturevalue(f"{which}_url"))


def _settings(tmp_path: Path, gateway_url: str | None, **extra: Any) -> Any:
    if gateway_url:
        extra.update(gateway_url=gateway_url, gateway_token=GATEWAY_TOKEN)
    return make_settings(tmp_path, **extra)


@pytest.fixture(params=["local", *GATEWAYS])
async def provider(request: pytest.FixtureRequest,
                   tmp_path: Path) -> AsyncIterator[KernelProvider]:
    url = None if request.param == "local" else _gateway_url(request, request.param)
    config = _settings(tmp_path, url)
    chosen: KernelProvider = GatewayKernels(config) if url else LocalKernels(config)
    try:
        yield chosen
    finally:
        await chosen.close()


@pytest.fixture
async def session(provider: KernelProvider) -> AsyncIterator[KernelSession]:
    kernel = await provider.start()
    try:
        yield kernel
    finally:
        await provider.stop(kernel, now=True)


async def _run(session: KernelSession, code: str, timeout: float = 30, grace: float = 3,
               ) -> tuple[Any, list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []
    outcome = await session.execute(code, timeout=timeout, interrupt_grace=grace,
                                    on_message=seen.append)
    return outcome, seen


def _result_text(seen: list[dict[str, Any]]) -> list[str]:
    return [m["content"]["data"]["text/plain"] for m in seen
            if m["msg_type"] == "execute_result"]


async def test_outputs_of_every_kind_arrive_in_order(session: KernelSession) -> None:
    code = ("import sys\nprint('out')\nprint('err', file=sys.stderr)\n"
            "display({'text/plain': 'shown'}, raw=True)\n6 * 7")
    outcome, seen = await _run(session, code)
    assert outcome.reply["status"] == "ok"
    assert not (outcome.dead or outcome.timed_out or outcome.interrupted)
    kinds = [(m["msg_type"], m["content"].get("name")) for m in seen
             if m["msg_type"] != "execute_input"]
    assert kinds == [("stream", "stdout"), ("stream", "stderr"), ("display_data", None),
                     ("execute_result", None)]
    assert seen[-1]["content"]["data"]["text/plain"] == "42"


async def test_a_silent_request_answers_in_its_reply_and_publishes_nothing(
        session: KernelSession) -> None:
    await _run(session, "rows = [1, 2, 3]")
    outcome = await session.execute("", silent=True, store_history=False,
                                    user_expressions={"n": "len(rows)"}, timeout=10,
                                    interrupt_grace=3, on_message=pytest.fail)
    assert outcome.reply["user_expressions"]["n"]["data"]["text/plain"] == "3"


async def test_an_error_keeps_the_jupyter_shape(session: KernelSession) -> None:
    outcome, seen = await _run(session, "1 / 0")
    assert outcome.reply["status"] == "error"
    assert outcome.reply["ename"] == "ZeroDivisionError"
    assert [m["msg_type"] for m in seen][-1] == "error"


async def test_interrupt_stops_the_cell_and_keeps_the_namespace(
        session: KernelSession) -> None:
    await _run(session, "kept = 'yes'")
    running = asyncio.create_task(_run(session, "import time\nfor _ in range(600):\n"
                                                "    time.sleep(0.1)"))
    while not session.busy:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.5)  # inside the loop
    await session.interrupt()
    outcome, _ = await running
    assert outcome.interrupted and not outcome.timed_out
    assert outcome.reply["ename"] == "KeyboardInterrupt"
    _, seen = await _run(session, "kept")
    assert _result_text(seen) == ["'yes'"]


async def test_restart_empties_the_namespace_and_the_kernel_answers(
        session: KernelSession) -> None:
    await _run(session, "gone = 1")
    await session.restart()
    outcome, _ = await _run(session, "gone")
    assert outcome.reply["ename"] == "NameError"
    _, seen = await _run(session, "1 + 1")
    assert _result_text(seen) == ["2"]


async def test_timeout_interrupts_and_the_kernel_stays_usable(session: KernelSession) -> None:
    await _run(session, "kept = 5")
    outcome, _ = await _run(session, "while True:\n    pass", timeout=1.0)
    assert outcome.timed_out and not outcome.kernel_unusable
    assert outcome.reply["ename"] == "KeyboardInterrupt"
    _, seen = await _run(session, "kept")
    assert _result_text(seen) == ["5"]


async def test_a_kernel_that_ignores_the_interrupt_is_unusable(session: KernelSession) -> None:
    code = ("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "while True:\n    time.sleep(0.05)")
    outcome, _ = await _run(session, code, timeout=1.0, grace=1.0)
    assert outcome.timed_out and outcome.kernel_unusable
    assert outcome.reply is None


async def test_a_dead_kernel_is_noticed(session: KernelSession) -> None:
    outcome, _ = await _run(session, "import os\nos._exit(3)")
    assert outcome.dead
    assert outcome.reply is None
    assert not await session.is_alive()


# -- the service on gateway kernels ------------------------------------------------------


@pytest.mark.parametrize("which", GATEWAYS)
async def test_the_service_runs_notebooks_on_gateway_kernels(
        tmp_path: Path, request: pytest.FixtureRequest, which: str) -> None:
    gateway_url = _gateway_url(request, which)
    before = {k["id"] for k in gateway_kernels(gateway_url)}
    svc = NotebookService(_settings(tmp_path, gateway_url, pool_size=1))
    await svc.start()
    try:
        await svc.pool.wait_warm(1)
        nb = await svc.create_notebook("remote")
        cell = (await svc.add_cell(nb, source="x = 20\nprint('hello')\nx + 1")).id
        result = await svc.execute_cell(nb, cell)
        assert result.status is CellStatus.OK
        assert result.outputs[0]["text"] == "hello\n"
        assert result.outputs[1]["data"]["text/plain"] == "21"
        assert svc.pool.cold_starts == 0  # the warm kernel was a gateway kernel
        kernel_id = svc.kernel_state(nb)["id"]
        assert kernel_id in {k["id"] for k in gateway_kernels(gateway_url)}

        slow = (await svc.add_cell(nb, source="while True:\n    pass")).id
        timed = await svc.execute_cell(nb, slow, ExecuteOptions(timeout=1.0))
        assert timed.status is CellStatus.TIMEOUT

        dies = (await svc.add_cell(nb, source="import os\nos._exit(1)")).id
        dead = await svc.execute_cell(nb, dies)
        assert dead.status is CellStatus.DEAD_KERNEL
        again = (await svc.add_cell(nb, source="'fresh kernel'")).id
        fresh = await svc.execute_cell(nb, again)
        assert fresh.status is CellStatus.OK
        assert svc.kernel_state(nb)["id"] != kernel_id
    finally:
        await svc.stop()
    assert {k["id"] for k in gateway_kernels(gateway_url)} <= before  # none left behind


async def test_a_gateway_that_refuses_is_a_clear_start_error(
        tmp_path: Path, kernel_gateway_url: str) -> None:
    config = make_settings(tmp_path, gateway_url=kernel_gateway_url, gateway_token="wrong")
    provider = GatewayKernels(config)
    try:
        with pytest.raises(KernelStartError, match="HTTP 401"):
            await provider.start()
    finally:
        await provider.close()


async def test_the_critic_blocks_and_the_retry_fixes_on_a_gateway_kernel(
        tmp_path: Path, kernel_gateway_url: str) -> None:
    """The analysis trace, the kernel facts (silent requests) and the retry loop on a remote
    kernel: the leaky cell of test_retry_loop is blocked, rewritten by the scripted generator
    and then passes (the Kernel Gateway's kernels have the analysis packages)."""
    gen = ScriptedGenerator(usage=TokenUsage(100, 20))
    gen.queue(FIXED)
    svc = NotebookService(_settings(tmp_path, kernel_gateway_url), generator=gen)
    await svc.start()
    try:
        nb = await svc.create_notebook()
        setup = (await svc.add_cell(nb, source=SETUP)).id
        leaky = (await svc.add_cell(nb, source=LEAKY)).id
        assert (await svc.execute_cell(nb, setup)).status is CellStatus.OK
        result = await svc.execute_cell(nb, leaky)
    finally:
        await svc.stop()
    first, second = result.attempts
    assert first["status"] == "scientific_validity_error"
    assert "leakage.fit_saw_heldout_rows" in {f["rule_id"] for f in first["findings"]}
    assert second["status"] == "ok" and second["cause"] == "critique"
    assert result.status is CellStatus.OK


def test_a_binary_frame_is_the_message_and_its_buffers() -> None:
    """The default WebSocket protocol sends a message with buffers as one binary frame:
    uint32 count, uint32 offsets, the JSON, the buffers (jupyter_server's serializer)."""
    from jupyter_server.services.kernels.connection.base import serialize_binary_message

    msg = {"header": {"msg_id": "m", "msg_type": "comm_msg"}, "parent_header": {},
           "metadata": {}, "content": {"data": {}}, "channel": "iopub",
           "buffers": [b"\x00\x01", b"abc"]}
    decoded = decode_frame(serialize_binary_message(msg))
    assert decoded["channel"] == "iopub" and decoded["header"]["msg_id"] == "m"
    assert [bytes(b) for b in decoded["buffers"]] == [b"\x00\x01", b"abc"]
    assert decode_frame('{"channel": "shell"}') == {"channel": "shell"}


class TcpRelay:
    """A loopback TCP relay in front of the gateway whose connections a test can cut: the
    network between the service and the gateway failing while the kernel lives on."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.writers: list[asyncio.StreamWriter] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    def cut(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer),
                             return_exceptions=True)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.transport.abort()


async def _until(check: Any, what: str, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.05)


@pytest.mark.parametrize("attempts", [3, 0])
async def test_a_dropped_websocket_is_reopened_or_the_kernel_is_dead(
        tmp_path: Path, kernel_gateway_url: str, attempts: int) -> None:
    relay = TcpRelay(int(kernel_gateway_url.rsplit(":", 1)[1]))
    config = _settings(tmp_path, await relay.start(), gateway_reconnect_attempts=attempts)
    provider = GatewayKernels(config)
    session = await provider.start()
    try:
        await _run(session, "kept = 7")
        relay.cut()
        if attempts:  # reopened: the same kernel, its namespace intact
            async def reopened() -> bool:
                return bool(session.kc.reconnects)
            await _until(reopened, "the channels are reopened")
            _, seen = await _run(session, "kept")
            assert _result_text(seen) == ["7"]
            assert await session.is_alive()
        else:  # no reconnect allowed: the kernel counts as dead and gets replaced
            async def dead() -> bool:
                return not await session.is_alive()
            await _until(dead, "the kernel counts as dead")
    finally:
        await provider.stop(session, now=True)
        await provider.close()
        await relay.close()
