"""A kernel on a Jupyter Kernel Gateway or Enterprise Gateway, as the two objects `KernelSession`
drives for a local kernel: a manager (REST: start, interrupt, restart, delete, liveness) and a
client (the kernel's channels multiplexed over one WebSocket, `/api/kernels/{id}/channels`).

The same session code (timeouts, interrupts, dead-kernel detection, silent introspection
requests) then runs on either. httpx speaks the REST calls, `websockets` the channels.
jupyter_server ships gateway classes too, but they poll their queues in a busy loop, keep a
thread per kernel and read one process-wide configuration; these are small and asyncio-native.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from queue import Empty
from typing import Any

import httpx
from jupyter_client.jsonutil import json_default
from jupyter_client.session import Session

log = logging.getLogger(__name__)

CHANNELS = ("shell", "iopub", "stdin", "control")
QUEUE_LIMIT = 200_000  # messages one channel may be behind, as the local client's ZMQ HWM
DEATH_STATES = ("restarting", "dead")  # the gateway's own restarter saw the process die
ALIVE_CHECK_EVERY = 2.0  # seconds between REST liveness checks (the socket tells sooner)


class GatewayError(RuntimeError):
    pass


@dataclass(frozen=True)
class GatewayOptions:
    url: str  # http(s)://host:port[/base]
    token: str | None
    kernel_name: str
    connect_timeout: float
    request_timeout: float
    reconnect_attempts: int

    @classmethod
    def from_config(cls, config: Any) -> GatewayOptions:
        token = config.gateway_token.get_secret_value() if config.gateway_token else None
        return cls(url=config.gateway_url.rstrip("/"), token=token,
                   kernel_name=config.gateway_kernel_name or config.kernel_name,
                   connect_timeout=config.gateway_connect_timeout,
                   request_timeout=config.gateway_request_timeout,
                   reconnect_attempts=config.gateway_reconnect_attempts)

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"token {self.token}"} if self.token else {}

    def channels_url(self, kernel_id: str) -> str:
        return "ws" + self.url.removeprefix("http") + f"/api/kernels/{kernel_id}/channels"

    def http_client(self) -> httpx.AsyncClient:
        timeout = httpx.Timeout(self.request_timeout, connect=self.connect_timeout)
        return httpx.AsyncClient(base_url=self.url, headers=self.headers, timeout=timeout)


class GatewayKernelManager:
    """The REST half. `provisioner` is None: a remote process's exit code is not known."""

    provisioner = None
    connection_file = ""  # nothing on this machine to clean after a restart

    def __init__(self, options: GatewayOptions, http: httpx.AsyncClient):
        self.options = options
        self.http = http
        self.kernel_id: str | None = None
        self.dead = False  # set by the client: the process died, or the socket is gone
        self._checked = 0.0

    @property
    def _url(self) -> str:
        return f"/api/kernels/{self.kernel_id}"

    async def start_kernel(self, env: dict[str, str] | None = None) -> None:
        body = {"name": self.options.kernel_name, "env": env or {}}
        response = await self.http.post("/api/kernels", json=body)
        _check(response, "start a kernel")
        self.kernel_id = response.json()["id"]

    def client(self) -> GatewayKernelClient:
        return GatewayKernelClient(self)

    async def is_alive(self) -> bool:
        if self.dead or self.kernel_id is None:
            return False
        now = time.monotonic()
        if now - self._checked >= ALIVE_CHECK_EVERY:
            self._checked = now
            try:
                response = await self.http.get(self._url)
            except httpx.HTTPError:
                return True  # the gateway is slow or away; the socket decides
            if response.status_code == 404:
                self.dead = True
        return not self.dead

    async def interrupt_kernel(self) -> None:
        _check(await self.http.post(f"{self._url}/interrupt", json={}), "interrupt")

    async def restart_kernel(self, now: bool = True) -> None:
        _check(await self.http.post(f"{self._url}/restart", json={}), "restart")

    async def shutdown_kernel(self, now: bool = False) -> None:
        if self.kernel_id is None:
            return
        response = await self.http.delete(self._url)
        if response.status_code != 404:  # already gone is fine
            _check(response, "shut down")
        self.dead = True

    async def _async_kill_kernel(self) -> None:
        await self.shutdown_kernel(now=True)


def _check(response: httpx.Response, action: str) -> None:
    if response.is_success:
        return
    raise GatewayError(f"gateway could not {action}: HTTP {response.status_code} "
                       f"{response.text[:300]}")


class _Channel:
    """Sending on one channel (`kc.shell_channel.send(msg)` in jupyter_client's API)."""

    def __init__(self, client: GatewayKernelClient, name: str):
        self.client = client
        self.name = name

    def send(self, msg: dict[str, Any]) -> None:
        self.client.send(self.name, msg)


class GatewayKernelClient:
    """The WebSocket half: one socket carries every channel (`"channel"` names it); a reader
    task routes frames into per-channel queues, a writer task sends in order. A socket that
    drops is reopened (`reconnect_attempts`); messages sent by the kernel meanwhile are lost."""

    def __init__(self, manager: GatewayKernelManager):
        self.manager = manager
        self.session = Session(username="nbcritic")  # builds message dicts; no signing here
        self.shell_channel = _Channel(self, "shell")
        self._queues: dict[str, asyncio.Queue[dict[str, Any]]] = {
            name: asyncio.Queue(QUEUE_LIMIT) for name in CHANNELS}
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._ws: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self.reconnects = 0  # times the socket was reopened after it dropped

    async def start_channels(self) -> None:
        self._ws = await self._connect()
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]

    def stop_channels(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        if self._ws is not None:
            closing = asyncio.ensure_future(self._ws.close())
            closing.add_done_callback(lambda _: None)
            self._tasks.append(closing)  # keep a reference until it ran

    # -- jupyter_client's KernelClient surface that KernelSession uses ---------------------

    def execute(self, code: str, *, silent: bool = False, store_history: bool = True,
                user_expressions: dict[str, str] | None = None, allow_stdin: bool = False,
                stop_on_error: bool = True) -> str:
        content = {"code": code, "silent": silent, "store_history": store_history,
                   "user_expressions": user_expressions or {}, "allow_stdin": allow_stdin,
                   "stop_on_error": stop_on_error}
        return self._request("execute_request", content)

    def kernel_info(self) -> str:
        return self._request("kernel_info_request", {})

    async def get_shell_msg(self, timeout: float | None = None) -> dict[str, Any]:
        return await _get(self._queues["shell"], timeout)

    async def get_iopub_msg(self, timeout: float | None = None) -> dict[str, Any]:
        return await _get(self._queues["iopub"], timeout)

    def send(self, channel: str, msg: dict[str, Any]) -> None:
        msg = {**msg, "channel": channel, "buffers": []}
        self._outbox.put_nowait(json.dumps(msg, default=json_default))

    # -- internals -------------------------------------------------------------------------

    def _request(self, msg_type: str, content: dict[str, Any]) -> str:
        msg = self.session.msg(msg_type, content)
        self.send("shell", msg)
        return str(msg["header"]["msg_id"])

    async def _connect(self) -> Any:
        from websockets.asyncio.client import connect  # only gateway set-ups need it

        options = self.manager.options
        assert self.manager.kernel_id is not None
        # max_size None: one output message may be large (an image); the output budget and
        # QUEUE_LIMIT bound what is kept
        return await connect(options.channels_url(self.manager.kernel_id),
                             additional_headers=options.headers,
                             open_timeout=options.connect_timeout, max_size=None)

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                async for frame in self._ws:
                    self._route(decode_frame(frame))
            except ConnectionClosed:
                pass
            if self._stopping or not await self._reconnect():
                self.manager.dead = True
                return

    async def _reconnect(self) -> bool:
        for attempt in range(self.manager.options.reconnect_attempts):
            await asyncio.sleep(0.5 * 2 ** attempt)
            if self._stopping:
                return False
            try:
                self._ws = await self._connect()
            except Exception as exc:
                log.warning("kernel %s: reconnect %d failed: %s", self.manager.kernel_id,
                            attempt + 1, exc)
                continue
            log.warning("kernel %s: channels reconnected", self.manager.kernel_id)
            self.reconnects += 1
            return True
        return False

    async def _write(self) -> None:
        while True:
            text = await self._outbox.get()
            try:
                await self._ws.send(text)
            except Exception as exc:  # the reader reconnects; this message is lost
                log.warning("kernel %s: send failed: %s", self.manager.kernel_id, exc)

    def _route(self, msg: dict[str, Any]) -> None:
        channel = msg.get("channel")
        if channel not in self._queues:
            return
        if (msg.get("msg_type") == "status" and not msg.get("parent_header")
                and msg["content"].get("execution_state") in DEATH_STATES):
            # the gateway restarted a process that died: its namespace is gone
            self.manager.dead = True
        try:
            self._queues[channel].put_nowait(msg)
        except asyncio.QueueFull:
            log.warning("kernel %s: %s queue full, message dropped", self.manager.kernel_id,
                        channel)


async def _get(queue: asyncio.Queue[dict[str, Any]], timeout: float | None) -> dict[str, Any]:
    """jupyter_client's semantics: queue.Empty when nothing came within `timeout`."""
    if timeout is not None and timeout <= 0:
        try:
            return queue.get_nowait()
        except asyncio.QueueEmpty:
            raise Empty from None
    try:
        return await asyncio.wait_for(queue.get(), timeout)
    except TimeoutError:
        raise Empty from None


def decode_frame(frame: str | bytes) -> dict[str, Any]:
    """A text frame is the message's JSON; a binary frame (a message with buffers, in the
    default protocol) is: uint32 count n, n uint32 offsets, then the JSON and the buffers."""
    if isinstance(frame, str):
        return dict(json.loads(frame))
    count = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i:8 + 4 * i], "big") for i in range(count)]
    parts = [frame[start:end] for start, end in
             zip(offsets, [*offsets[1:], len(frame)], strict=True)]
    msg = dict(json.loads(parts[0]))
    msg["buffers"] = [memoryview(part) for part in parts[1:]]
    return msg

