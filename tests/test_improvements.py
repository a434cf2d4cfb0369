"""Improvement requests: the durable queue (persistence, cooldown per pattern, acknowledge /
dismiss, validation), which reflections become requests, and the sinks (webhook, GitHub
issues) against real HTTP servers on 127.0.0.1: successes, failures recorded and never
raised, the token kept out of every recorded detail and log."""

from __future__ import annotations

import json
import logging
import socket
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.improvement_queue import (
    ImprovementError,
    ImprovementNotFound,
    ImprovementQueue,
    ImprovementRequest,
    request_type,
    requests_from,
)
from services.improvement_sinks import (
    Delivery,
    GitHubIssueSink,
    SinkConfigError,
    WebhookSink,
    deliver,
)
from services.reflection import PatternFound, Reflection

TOKEN = "ghp_test_secret_0123456789"
ISSUES = "/repos/acme/analysis/issues"


class FakeClock:
    def __init__(self, now: float = 1_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def queue(tmp_path: Path, clock: FakeClock) -> Iterator[ImprovementQueue]:
    q = ImprovementQueue(tmp_path / "learning.sqlite3", cooldown_seconds=3600, clock=clock)
    try:
        yield q
    finally:
        q.close()


def pattern(kind: str = "repeated_error", key: str = "repeated_error:KeyError",
            severity: str = "high", **kw: Any) -> PatternFound:
    values: dict[str, Any] = {
        "count": 3, "cells": ["a", "b", "c"], "detail": f"{key} happened.",
        "suggestion": f"do something about {key}", "examples": ["KeyError: 'price'"],
        "scope": {"rule_ids": [], "error_types": ["KeyError"], "libraries": ["pandas"]}}
    values.update(kw)
    return PatternFound(kind=kind, key=key, severity=severity, **values)


def reflection(*patterns: PatternFound) -> Reflection:
    return Reflection("nb-1", ["exec-1"], list(patterns), {
        "cells": 3, "attempts": 6, "retries_by_cause": {"error": 3, "critique": 0},
        "tokens": {"input": 10, "output": 5, "total": 15}, "escalations": 0,
        "slowest_cells": [("a", 12.5)]}, [p.suggestion for p in patterns], 5.0)


def request(key: str = "repeated_error:KeyError", priority: str = "high",
            notebook: str = "nb-1") -> ImprovementRequest:
    return ImprovementRequest(
        title=f"[{priority}] {key}", description="**what** happened", priority=priority,
        type="prompt", pattern_key=key, source_pattern={"key": key},
        context={"notebook_id": notebook, "execution_ids": ["e1"]})


# -- the queue --------------------------------------------------------------------------------

def test_requests_persist_across_reopen(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "learning.sqlite3"
    first = ImprovementQueue(path, clock=clock)
    submitted = first.submit(request())
    first.record_delivery(submitted.request.id, "webhook", False, "HTTP 500: boom")
    first.close()
    again = ImprovementQueue(path, clock=clock)
    try:
        stored = again.get(submitted.request.id)
        assert stored.to_dict() == {
            **submitted.request.to_dict(),
            "deliveries": [{"sink": "webhook", "ok": False, "at": 1000.0,
                            "detail": "HTTP 500: boom", "url": None}]}
        assert (stored.status, stored.created_at, stored.occurrences) == ("open", 1000.0, 1)
        assert [r.id for r in again.list()] == [stored.id]
    finally:
        again.close()


def test_cooldown_absorbs_a_recurrence_and_queues_again_after_it(
        queue: ImprovementQueue, clock: FakeClock) -> None:
    first = queue.submit(request(priority="medium"))
    assert first.queued and first.reason == "queued" and len(first.request.id) == 12
    clock.now += 1800
    again = queue.submit(request(priority="high"))
    assert not again.queued and again.request.id == first.request.id
    assert again.reason.startswith(f"cooldown: {first.request.id} was queued")
    stored = queue.get(first.request.id)
    assert stored.occurrences == 2 and stored.updated_at == 2800.0
    assert stored.priority == "high"  # a recurrence can raise the priority, never lower it
    assert stored.context["recurrences"] == [
        {"at": 2800.0, "notebook_id": "nb-1", "execution_ids": ["e1"]}]
    other = queue.submit(request(key="stall:same_error_repeated"))  # another pattern
    assert other.queued
    clock.now = 1000.0 + 3600  # the window is [created, created + cooldown)
    third = queue.submit(request())
    assert third.queued and third.request.id != first.request.id
    assert [r.pattern_key for r in queue.list()] == [
        "repeated_error:KeyError", "stall:same_error_repeated", "repeated_error:KeyError"]
    assert queue.get(first.request.id).occurrences == 2


def test_the_cooldown_is_per_notebook_unless_scoped_to_the_pattern(
        tmp_path: Path, clock: FakeClock) -> None:
    per_notebook = ImprovementQueue(tmp_path / "a.sqlite3", cooldown_seconds=3600, clock=clock)
    across = ImprovementQueue(tmp_path / "b.sqlite3", cooldown_seconds=3600,
                              cooldown_scope="pattern", clock=clock)
    try:
        for queue in (per_notebook, across):
            first = queue.submit(request(notebook="nb-1"))
            clock.now += 60
            second = queue.submit(request(notebook="nb-2"))
            again = queue.submit(request(notebook="nb-1"))
            assert first.queued and not again.queued
            assert again.request.id == first.request.id
            if queue is per_notebook:  # the second notebook gets its own request
                assert second.queued and second.request.id != first.request.id
                assert "in notebook nb-1" in again.reason
                assert queue.get(first.request.id).occurrences == 2
            else:
                assert not second.queued and second.request.id == first.request.id
                assert queue.get(first.request.id).occurrences == 3
        with pytest.raises(ImprovementError, match=r"^cooldown_scope: must be one of"):
            ImprovementQueue(tmp_path / "c.sqlite3", cooldown_scope="global")
    finally:
        per_notebook.close()
        across.close()


def test_zero_cooldown_queues_every_submission(tmp_path: Path, clock: FakeClock) -> None:
    q = ImprovementQueue(tmp_path / "q.sqlite3", cooldown_seconds=0, clock=clock)
    try:
        assert all(q.submit(request()).queued for _ in range(3))
        assert len(q.list()) == 3
    finally:
        q.close()


def test_acknowledge_dismiss_and_unknown_ids(queue: ImprovementQueue,
                                             clock: FakeClock) -> None:
    a = queue.submit(request(key="k.a")).request
    b = queue.submit(request(key="k.b")).request
    clock.now = 1500.0
    acked = queue.acknowledge(a.id, "on it")
    assert (acked.status, acked.updated_at) == ("acknowledged", 1500.0)
    assert acked.notes == [{"status": "acknowledged", "note": "on it", "at": 1500.0}]
    dismissed = queue.dismiss(b.id)
    assert dismissed.status == "dismissed" and queue.get(b.id).status == "dismissed"
    assert [r.id for r in queue.list(status="acknowledged")] == [a.id]
    assert [r.id for r in queue.list(status="dismissed")] == [b.id]
    assert queue.list(status="open") == []
    assert len(queue.list(limit=1)) == 1
    for call in (queue.get, queue.acknowledge, queue.dismiss):
        with pytest.raises(ImprovementNotFound) as info:
            call("nope")
        assert info.value.args[0] == "nope"
    with pytest.raises(ImprovementNotFound):
        queue.record_delivery("nope", "webhook", True, "HTTP 200")


@pytest.mark.parametrize(("call", "message"), [
    (lambda q: q.submit(request(priority="urgent")),
     "priority: must be one of low, medium, high, critical, not 'urgent'"),
    (lambda q: q.submit(request(key=" ")), "pattern_key: must be a non-empty string"),
    (lambda q: q.list(status="closed"),
     "status: must be one of open, acknowledged, dismissed, not 'closed'"),
    (lambda q: q.list(limit=0), "limit: must be an integer >= 1"),
    (lambda q: ImprovementRequest.from_dict({"priority": "low"}), "title: is required"),
    (lambda q: ImprovementRequest.from_dict({**request().to_dict(), "occurrences": "2"}),
     "occurrences: must be an integer, not str"),
    (lambda q: ImprovementRequest.from_dict({**request().to_dict(), "context": []}),
     "context: must be an object, not list"),
])
def test_bad_input_names_the_field(queue: ImprovementQueue, call: Any, message: str) -> None:
    with pytest.raises(ImprovementError) as info:
        call(queue)
    assert str(info.value) == message
    assert queue.list() == []  # nothing half-written


def test_negative_cooldown_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ImprovementError, match=r"^cooldown_seconds: "):
        ImprovementQueue(tmp_path / "q.sqlite3", cooldown_seconds=-1)


# -- which reflections become requests -------------------------------------------------------

def test_one_high_pattern_is_one_request() -> None:
    p = pattern()
    (req,) = requests_from(reflection(p, pattern("slow_cell", "slow_cell", "low")))
    assert (req.priority, req.type, req.pattern_key) == ("high", "prompt",
                                                         "repeated_error:KeyError")
    assert req.title == "[high] KeyError in 3 cells"
    assert req.source_pattern == p.to_dict()
    assert req.context == {"notebook_id": "nb-1", "execution_ids": ["exec-1"], "metrics": {
        "cells": 3, "attempts": 6, "retries_by_cause": {"error": 3, "critique": 0},
        "tokens": {"input": 10, "output": 5, "total": 15}, "escalations": 0,
        "slowest_cells": [["a", 12.5]]}}
    assert "repeated_error:KeyError happened." in req.description
    assert "`KeyError: 'price'`" in req.description
    assert "**Suggestion:** do something about repeated_error:KeyError" in req.description
    assert "Notebook `nb-1`, executions `exec-1`" in req.description


def test_each_high_or_critical_pattern_is_its_own_request() -> None:
    found = reflection(pattern("override", "override:corr.pearson", "critical"),
                       pattern("budget_exhausted", "budget_exhausted:error_budget_exhausted"),
                       pattern("stall", "stall:same_error_repeated", "medium"),
                       pattern("slow_cell", "slow_cell", "medium"))
    reqs = requests_from(found)
    assert [(r.pattern_key, r.priority, r.type) for r in reqs] == [
        ("override:corr.pearson", "critical", "critic_rule"),
        ("budget_exhausted:error_budget_exhausted", "high", "budget")]


def test_two_medium_patterns_make_one_combined_request() -> None:
    stall = pattern("stall", "stall:same_error_repeated", "medium")
    slow = pattern("slow_cell", "slow_cell", "medium")
    finding = pattern("repeated_finding", "repeated_finding:r.x", "medium")
    (req,) = requests_from(reflection(stall, slow, finding, pattern("override", "override:r",
                                                                    "low")))
    assert req.priority == "medium" and req.type == "prompt"  # 2 of 3 are prompt problems
    assert req.pattern_key == "combined:repeated_finding:r.x+slow_cell+stall:same_error_repeated"
    assert req.source_pattern["kind"] == "combined"
    assert [p["key"] for p in req.source_pattern["patterns"]] == [
        "stall:same_error_repeated", "slow_cell", "repeated_finding:r.x"]
    assert req.title.startswith("[medium] 3 recurring problems: ")
    for p in (stall, slow, finding):
        assert f"### {p.headline} (medium)" in req.description


@pytest.mark.parametrize("severities", [(), ("medium",), ("medium", "low", "low", "info")])
def test_fewer_than_two_medium_and_no_high_is_no_request(severities: tuple[str, ...]) -> None:
    patterns = [pattern(key=f"k{i}", severity=s) for i, s in enumerate(severities)]
    assert requests_from(reflection(*patterns)) == []


@pytest.mark.parametrize(("p", "kind"), [
    (pattern(), "prompt"),
    (pattern(scope={"error_types": ["ModuleNotFoundError"]}), "environment"),
    (pattern("kernel_failure", "kernel_failure:timeout"), "performance"),
    (pattern("kernel_failure", "kernel_failure:dead_kernel"), "environment"),
    (pattern("generator_failed", "generator_failed"), "environment"),
    (pattern("stall", "stall:generator_repeated_code"), "prompt"),
])
def test_request_type(p: PatternFound, kind: str) -> None:
    assert request_type(p) == kind


# -- sinks against real local HTTP servers ----------------------------------------------------

@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


class StandIn:
    """ThreadingHTTPServer on 127.0.0.1 (a free port) in a thread. A POST takes the next
    reply scripted for its path (`(status, json_body)`; none left: 500); the reply "hold"
    answers only when the server stops (for client timeouts)."""

    def __init__(self) -> None:
        self.replies: dict[str, deque[tuple[int, Any] | str]] = {}
        self.received: list[Received] = []
        self.release = threading.Event()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                stand_in.received.append(Received(
                    self.path, {k.lower(): v for k, v in self.headers.items()},
                    json.loads(raw) if raw else None))
                queued = stand_in.replies.get(self.path)
                reply = queued.popleft() if queued else (500, {})
                if reply == "hold":
                    stand_in.release.wait(10)
                    return
                status, body = reply
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,),
                                       daemon=True)

    def reply(self, path: str, *replies: tuple[int, Any] | str) -> None:
        self.replies.setdefault(path, deque()).extend(replies)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def server() -> Iterator[StandIn]:
    with StandIn() as s:
        yield s


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_webhook_posts_the_request_json(queue: ImprovementQueue, server: StandIn) -> None:
    queued = queue.submit(request()).request
    server.reply("/hook", (200, {"ok": True}))
    (delivery,) = await deliver(queue, queued, [WebhookSink(f"{server.url}/hook")])
    assert delivery == Delivery("webhook", True, "HTTP 200")
    (got,) = server.received
    assert got.path == "/hook" and got.headers["content-type"] == "application/json"
    assert got.body == queued.to_dict()
    assert queue.get(queued.id).deliveries == [
        {"sink": "webhook", "ok": True, "at": 1000.0, "detail": "HTTP 200", "url": None}]


async def test_webhook_failures_are_recorded_not_raised(queue: ImprovementQueue,
                                                        server: StandIn) -> None:
    queued = queue.submit(request()).request
    server.reply("/hook", (500, {"message": "boom"}))
    refused = f"http://127.0.0.1:{closed_port()}/hook"
    deliveries = await deliver(queue, queued, [WebhookSink(f"{server.url}/hook", attempts=1),
                                               WebhookSink(refused, name="backup",
                                                           attempts=1)])
    assert [(d.sink, d.ok) for d in deliveries] == [("webhook", False), ("backup", False)]
    assert deliveries[0].detail == "HTTP 500: boom"
    assert deliveries[1].detail.startswith("ConnectError")
    stored = queue.get(queued.id)
    assert stored.status == "open" and [r.id for r in queue.list()] == [queued.id]
    assert [(d["sink"], d["ok"], d["detail"]) for d in stored.deliveries] == [
        (d.sink, False, d.detail) for d in deliveries]


async def test_webhook_timeout_is_recorded(queue: ImprovementQueue, server: StandIn) -> None:
    queued = queue.submit(request()).request
    server.reply("/", "hold")
    (delivery,) = await deliver(queue, queued, [WebhookSink(server.url, timeout=0.2,
                                                                 attempts=1)])
    assert not delivery.ok and delivery.detail.startswith("ReadTimeout")
    assert queue.get(queued.id).deliveries[0]["detail"] == delivery.detail


async def test_webhook_secrets_stay_out_of_details(queue: ImprovementQueue,
                                                   server: StandIn) -> None:
    secret_path = "/services/T0/B0/SeCrEtPaRt"
    server.reply(secret_path, (404, {"message": f"no hook at {secret_path}"}))
    queued = queue.submit(request()).request
    sink = WebhookSink(f"{server.url}{secret_path}", headers={"Authorization": "Bearer hdr-tok"},
                       attempts=1)
    (delivery,) = await deliver(queue, queued, [sink])
    assert delivery.detail == "HTTP 404: no hook at ***"
    assert server.received[0].headers["authorization"] == "Bearer hdr-tok"
    assert "SeCrEtPaRt" not in repr(sink) and "hdr-tok" not in repr(sink)


async def test_github_issue_created(queue: ImprovementQueue, server: StandIn) -> None:
    queued = queue.submit(request()).request
    html_url = "https://github.com/acme/analysis/issues/7"
    server.reply(ISSUES, (201, {"number": 7, "html_url": html_url}))
    sink = GitHubIssueSink("acme/analysis", TOKEN, api_url=server.url + "/",
                           labels=("nbcritic", "reflection"))
    (delivery,) = await deliver(queue, queued, [sink])
    assert delivery == Delivery("github", True, "issue #7 created", html_url)
    (got,) = server.received
    assert got.path == ISSUES
    assert got.headers["authorization"] == f"Bearer {TOKEN}"
    assert got.headers["accept"] == "application/vnd.github+json"
    assert got.headers["x-github-api-version"] == "2022-11-28"
    assert set(got.body) == {"title", "body", "labels"}
    assert got.body["title"] == queued.title and got.body["labels"] == ["nbcritic", "reflection"]
    assert got.body["body"].startswith("**what** happened\n\n---\n")
    assert f"| request | `{queued.id}` |" in got.body["body"]
    assert "| pattern | `repeated_error:KeyError` |" in got.body["body"]
    (recorded,) = queue.get(queued.id).deliveries
    assert (recorded["sink"], recorded["ok"], recorded["url"]) == ("github", True, html_url)


async def test_github_failure_keeps_the_token_out(queue: ImprovementQueue, server: StandIn,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    queued = queue.submit(request()).request
    server.reply(ISSUES, (401, {"message": f"Bad credentials: {TOKEN}",
                                "documentation_url": "https://docs.github.com/rest"}))
    sink = GitHubIssueSink("acme/analysis", TOKEN, api_url=server.url)
    with caplog.at_level(logging.DEBUG):
        (delivery,) = await deliver(queue, queued, [sink])
    assert not delivery.ok and delivery.detail == "HTTP 401: Bad credentials: ***"
    stored = queue.get(queued.id)
    assert stored.deliveries[0]["detail"] == "HTTP 401: Bad credentials: ***"
    assert stored.status == "open"
    assert TOKEN not in json.dumps(stored.to_dict())
    assert "github failed" in caplog.text and TOKEN not in caplog.text
    assert TOKEN not in repr(sink)


async def test_every_sink_is_tried_and_a_success_is_not_repeated(
        queue: ImprovementQueue, server: StandIn, clock: FakeClock) -> None:
    class Broken:
        name = "broken"

        async def send(self, request: ImprovementRequest) -> Delivery:
            raise RuntimeError("sink bug")

    queued = queue.submit(request()).request
    server.reply(ISSUES, (201, {"number": 1, "html_url": "https://x/1"}))
    server.reply("/hook", (500, {}), (204, None))
    github = GitHubIssueSink("acme/analysis", TOKEN, api_url=server.url)
    webhook = WebhookSink(f"{server.url}/hook", attempts=1)  # retries: test_retries
    first = await deliver(queue, queued, [github, Broken(), webhook])
    assert [(d.sink, d.ok) for d in first] == [("github", True), ("broken", False),
                                              ("webhook", False)]
    assert first[1].detail == "RuntimeError: sink bug"
    # delivering again (say after fixing the webhook) does not open a second issue
    clock.now = 2000.0
    second = await deliver(queue, queued, [github, webhook])
    assert second == [Delivery("github", True, "already delivered", "https://x/1"),
                      Delivery("webhook", True, "HTTP 204")]
    assert [r.path for r in server.received].count(ISSUES) == 1
    assert [(d["sink"], d["ok"], d["at"]) for d in queue.get(queued.id).deliveries] == [
        ("github", True, 1000.0), ("broken", False, 1000.0), ("webhook", False, 1000.0),
        ("webhook", True, 2000.0)]


async def test_webhook_retries_with_backoff_bounded(queue: ImprovementQueue,
                                                    server: StandIn) -> None:
    queued = queue.submit(request()).request
    server.reply("/flaky", (503, {}), (500, {}), (200, {}))
    (delivery,) = await deliver(queue, queued, [WebhookSink(f"{server.url}/flaky",
                                                            backoff=0.01)])
    assert delivery.ok and delivery.detail == "HTTP 200 (attempt 3 of 3)"
    assert len(server.received) == 3
    # always failing: three attempts, then a failed delivery saying so
    server.reply("/down", (502, {}), (502, {}), (502, {}), (200, {}))
    (down,) = await deliver(queue, queued, [WebhookSink(f"{server.url}/down", backoff=0.01,
                                                        name="down")])
    assert not down.ok and down.detail.startswith("HTTP 502")
    assert down.detail.endswith("(attempt 3 of 3)")
    assert [r.path for r in server.received].count("/down") == 3
    # an answer that a retry cannot change is final at once
    server.reply("/gone", (404, {"message": "no such hook"}), (200, {}))
    (gone,) = await deliver(queue, queued, [WebhookSink(f"{server.url}/gone", backoff=0.01,
                                                        name="gone")])
    assert not gone.ok and gone.detail == "HTTP 404: no such hook"
    assert [r.path for r in server.received].count("/gone") == 1


def test_retry_delay_doubles_and_honours_retry_after() -> None:
    from services.improvement_sinks import retry_delay

    assert [retry_delay(n, 0.5, None) for n in (1, 2, 3)] == [0.5, 1.0, 2.0]
    slow = httpx.Response(429, headers={"retry-after": "7"})
    assert retry_delay(1, 0.5, slow) == 7.0
    assert retry_delay(1, 0.5, httpx.Response(429, headers={"retry-after": "3600"})) is None


async def test_delivery_of_a_request_not_in_the_queue_does_not_raise(
        queue: ImprovementQueue, server: StandIn) -> None:
    server.reply("/", (200, {}))
    (delivery,) = await deliver(queue, request(), [WebhookSink(server.url, attempts=1)])
    assert delivery.ok and queue.list() == []


@pytest.mark.parametrize(("make", "message"), [
    (lambda: GitHubIssueSink("not-a-repo", TOKEN), "repo: must be owner/name, not 'not-a-repo'"),
    (lambda: GitHubIssueSink("acme/analysis", " "), "token: is required for GitHub issues"),
    (lambda: GitHubIssueSink("acme/analysis", TOKEN, api_url="ftp://x"),
     "api_url: must be an http:// or https:// URL"),
    (lambda: WebhookSink("localhost/hook"), "url: must be an http:// or https:// URL"),
    (lambda: WebhookSink("http://x/hook", timeout=0), "timeout: must be > 0"),
])
def test_sink_settings_are_checked(make: Any, message: str) -> None:
    with pytest.raises(SinkConfigError) as info:
        make()
    assert str(info.value) == message
