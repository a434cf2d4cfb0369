"""A real local HTTP server speaking the Anthropic Messages API (`POST /v1/messages`), for
testing the Anthropic client path (the Claude critic, the code generator) through the real
SDK: real HTTP, real retries, real timeouts, real response parsing.

    with MessagesAPIServer() as server:
        server.reply_tool("report_findings", {"findings": []}, usage=(120, 30))
        server.reply_error(429, retry_after="0.01")      # then the SDK retries
        client = make_async_client("test", base_url=server.url)
        ...
        server.requests[0].body["model"], server.requests[0].headers["authorization"]

Replies are scripted: each request takes the next queued reply (FIFO). An empty queue
answers 500 with an Anthropic-style error body and `x-should-retry: false`, so a test that
scripted too few replies fails at once with a clear message instead of retrying.
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MESSAGES_PATH = "/v1/messages"

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    402: "billing_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


def sdk_retry_waits(records: list[logging.LogRecord]) -> list[float]:
    """The waits, in seconds, the Anthropic SDK chose before each retry, read from its own
    log line ("Retrying request to ... in %f seconds"; capture with caplog at INFO on
    `anthropic`): which wait was taken, without timing the test."""
    return [float(r.args[1]) for r in records
            if r.name.startswith("anthropic") and r.msg.startswith("Retrying request to")
            and isinstance(r.args, tuple)]


@dataclass
class RecordedRequest:
    """One request the server received (recorded before it was answered)."""

    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    raw: bytes
    body: Any = None  # parsed JSON, None when the body was not JSON

    @property
    def user_text(self) -> str:
        """The text of every user message, joined (string or text-block content)."""
        parts: list[str] = []
        for message in (self.body or {}).get("messages", []):
            if message.get("role") != "user":
                continue
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
            else:
                parts += [b.get("text", "") for b in content or [] if b.get("type") == "text"]
        return "\n".join(parts)


@dataclass
class ScriptedReply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"
    delay: float = 0.0  # seconds to wait before answering (client timeouts)
    message: dict[str, Any] | None = None  # a Messages API reply, completed per request


class MessagesAPIServer:
    """`ThreadingHTTPServer` on 127.0.0.1 (a free port) in a background thread.

    `url` is the base URL to give the SDK (`base_url=server.url`); `requests` records every
    request; the `reply_*` methods queue the answers."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0,
                 model: str = "claude-test-model") -> None:
        self.model = model  # used when a request names no model
        self.requests: list[RecordedRequest] = []
        self._queue: deque[ScriptedReply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._ids = itertools.count(1)
        self._httpd = ThreadingHTTPServer((host, port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> MessagesAPIServer:
        if self._thread is None:
            self._thread = threading.Thread(target=self._httpd.serve_forever,
                                            kwargs={"poll_interval": 0.01},
                                            name="messages-api-server", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()  # wakes handlers sleeping on a scripted delay
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> MessagesAPIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- scripting -------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Scripted replies not consumed yet."""
        with self._lock:
            return len(self._queue)

    def clear(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    def reply_message(self, content: list[dict[str, Any]], *, stop_reason: str = "end_turn",
                      usage: tuple[int, int] | dict[str, int] = (10, 5), model: str | None = None,
                      delay: float = 0.0, headers: dict[str, str] | None = None) -> None:
        """Queue a Messages API reply with these content blocks. `usage` is
        `(input_tokens, output_tokens)` or a full usage object; `model` defaults to the
        request's model."""
        if isinstance(usage, tuple):
            usage = {"input_tokens": usage[0], "output_tokens": usage[1]}
        message = {"content": content, "stop_reason": stop_reason, "usage": dict(usage),
                   "model": model}
        self._push(ScriptedReply(message=message, delay=delay, headers=dict(headers or {})))

    def reply_tool(self, name: str, input: dict[str, Any], *,
                   usage: tuple[int, int] | dict[str, int] = (10, 5), text: str | None = None,
                   stop_reason: str = "tool_use", delay: float = 0.0, **kwargs: Any) -> None:
        """Queue a reply that calls tool `name` with `input` (after an optional text block)."""
        content: list[dict[str, Any]] = []
        if text is not None:
            content.append({"type": "text", "text": text})
        content.append({"type": "tool_use", "id": "", "name": name, "input": input})
        self.reply_message(content, stop_reason=stop_reason, usage=usage, delay=delay, **kwargs)

    def reply_text(self, text: str, *, usage: tuple[int, int] | dict[str, int] = (10, 5),
                   stop_reason: str = "end_turn", delay: float = 0.0, **kwargs: Any) -> None:
        """Queue a plain text reply (no tool call)."""
        self.reply_message([{"type": "text", "text": text}], stop_reason=stop_reason,
                           usage=usage, delay=delay, **kwargs)

    def reply_raw(self, body: str | bytes, *, status: int = 200,
                  content_type: str = "application/json", delay: float = 0.0,
                  headers: dict[str, str] | None = None) -> None:
        """Queue a verbatim body (e.g. malformed JSON)."""
        data = body.encode() if isinstance(body, str) else body
        self._push(ScriptedReply(status=status, body=data, content_type=content_type,
                                 delay=delay, headers=dict(headers or {})))

    def reply_error(self, status: int, message: str | None = None, *,
                    error_type: str | None = None, retry_after: str | float | None = None,
                    headers: dict[str, str] | None = None, delay: float = 0.0) -> None:
        """Queue an HTTP error with the API's error body
        `{"type": "error", "error": {"type", "message"}, "request_id"}`. `retry_after` sets
        the `retry-after` header (seconds; the SDK accepts fractions such as "0.01")."""
        extra = dict(headers or {})
        if retry_after is not None:
            extra["retry-after"] = str(retry_after)
        kind = error_type or ERROR_TYPES.get(status, "api_error")
        self._push(ScriptedReply(status=status, delay=delay, headers=extra,
                                 body=_error_body(kind, message or f"scripted {status}",
                                                  self._next_id("req_"))))

    def reply_errors(self, status: int, count: int, **kwargs: Any) -> None:
        for _ in range(count):
            self.reply_error(status, **kwargs)

    def delay(self, seconds: float, *, text: str = "late reply") -> None:
        """Queue a reply that arrives only after `seconds` (for client timeouts)."""
        self.reply_text(text, delay=seconds)

    # -- internals -------------------------------------------------------------------------

    def _push(self, reply: ScriptedReply) -> None:
        with self._lock:
            self._queue.append(reply)

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}test{next(self._ids):06d}"

    def _take(self, recorded: RecordedRequest) -> ScriptedReply:
        with self._lock:
            self.requests.append(recorded)
            if self._queue:
                return self._queue.popleft()
        return ScriptedReply(
            status=500, headers={"x-should-retry": "false"},
            body=_error_body("api_error", "MessagesAPIServer: no scripted reply left",
                             self._next_id("req_")))

    def _render(self, reply: ScriptedReply, request: RecordedRequest) -> bytes:
        if reply.message is None:
            return reply.body
        body = request.body if isinstance(request.body, dict) else {}
        content = []
        for block in reply.message["content"]:
            block = dict(block)
            if block.get("type") == "tool_use" and not block.get("id"):
                block["id"] = self._next_id("toolu_")
            content.append(block)
        message = {
            "id": self._next_id("msg_"),
            "type": "message",
            "role": "assistant",
            "model": reply.message["model"] or body.get("model") or self.model,
            "content": content,
            "stop_reason": reply.message["stop_reason"],
            "stop_sequence": None,
            "usage": reply.message["usage"],
        }
        return json.dumps(message).encode()


def _error_body(kind: str, message: str, request_id: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message},
                       "request_id": request_id}).encode()


def _handler_for(server: MessagesAPIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            recorded = RecordedRequest(
                method="POST", path=self.path.split("?", 1)[0],
                headers={k.lower(): v for k, v in self.headers.items()}, raw=raw, body=body)
            if recorded.path != MESSAGES_PATH:
                self._send(ScriptedReply(status=404, body=_error_body(
                    "not_found_error", f"no route {recorded.path}", server._next_id("req_"))))
                return
            reply = server._take(recorded)
            if reply.delay and server._stopping.wait(reply.delay):
                return  # shutting down
            self._send(reply, server._render(reply, recorded))

        def do_GET(self) -> None:
            self._send(ScriptedReply(status=404, body=_error_body(
                "not_found_error", f"no route {self.path}", server._next_id("req_"))))

        def _send(self, reply: ScriptedReply, body: bytes | None = None) -> None:
            data = reply.body if body is None else body
            try:
                self.send_response(reply.status)
                self.send_header("content-type", reply.content_type)
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", server._next_id("req_"))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    return Handler
