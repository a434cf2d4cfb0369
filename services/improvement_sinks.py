"""Where improvement requests go besides the local queue: a webhook (POST JSON) and GitHub
issues (REST API). A sink never raises into the caller: every failure (HTTP status, refused
connection, timeout, any exception) becomes a failed `Delivery`, recorded on the request in
the queue, which keeps the request whatever happens.

Secrets (the GitHub token, webhook header values, the webhook URL, which often carries a
token in its path) are replaced by `***` in every recorded detail and log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass
from typing import Protocol

import httpx

from .improvement_queue import ImprovementQueue, ImprovementRequest

log = logging.getLogger(__name__)

MAX_BODY_SHOWN = 200  # of an error response, in the recorded detail
MAX_ISSUE_TITLE = 256
MAX_ISSUE_BODY = 60_000  # GitHub's limit is 65,536 characters
GITHUB_API_VERSION = "2022-11-28"
REDACTED = "***"


class SinkConfigError(ValueError):
    """A bad sink setting; the message starts with the setting's name."""


@dataclass
class Delivery:
    sink: str
    ok: bool
    detail: str
    url: str | None = None


class Sink(Protocol):
    name: str

    async def send(self, request: ImprovementRequest) -> Delivery: ...


class _Redacting:
    """Keeps a sink's secrets out of what it reports."""

    _secrets: tuple[str, ...] = ()

    def redact(self, text: str) -> str:
        for secret in sorted(self._secrets, key=len, reverse=True):
            if secret:
                text = text.replace(secret, REDACTED)
        return text


def _http_url(value: str, name: str) -> httpx.URL:
    try:
        url = httpx.URL(value)
    except (httpx.InvalidURL, TypeError) as exc:
        raise SinkConfigError(f"{name}: not a valid URL") from exc
    if url.scheme not in ("http", "https") or not url.host:
        raise SinkConfigError(f"{name}: must be an http:// or https:// URL")
    return url


def _failure(response: httpx.Response) -> str:
    """`HTTP 500: <the server's message>` (GitHub's JSON `message` when there is one)."""
    text = response.text
    try:
        data = response.json()
        if isinstance(data, dict) and isinstance(data.get("message"), str):
            text = data["message"]
    except ValueError:
        pass
    text = " ".join(text.split())[:MAX_BODY_SHOWN]
    return f"HTTP {response.status_code}: {text}" if text else f"HTTP {response.status_code}"


RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER = 30.0  # seconds: a longer Retry-After ends the attempts instead


def retry_delay(attempt: int, backoff: float, response: httpx.Response | None) -> float | None:
    """Seconds to wait before attempt `attempt + 1` (exponential from `backoff`, or the
    server's Retry-After in seconds); None: waiting that long is not worth it."""
    delay = backoff * 2 ** (attempt - 1)
    header = response.headers.get("retry-after") if response is not None else None
    if header is not None:
        with contextlib.suppress(ValueError):  # an HTTP date: keep the backoff
            delay = max(delay, float(header))
    return delay if delay <= MAX_RETRY_AFTER else None


class WebhookSink(_Redacting):
    """POST the request's JSON (`to_dict()`) to a URL; any 2xx is delivered. A refused
    connection, a timeout, 408, 429 or a 5xx is retried, at most `attempts` times in all,
    with exponential backoff from `backoff` seconds (a webhook receiver is usually
    idempotent; a GitHub issue is not retried, a retry after a lost reply would open two)."""

    def __init__(self, url: str, *, timeout: float = 5.0,
                 headers: dict[str, str] | None = None, name: str = "webhook",
                 attempts: int = 3, backoff: float = 0.5):
        parsed = _http_url(url, "url")
        if timeout <= 0:
            raise SinkConfigError("timeout: must be > 0")
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise SinkConfigError("attempts: must be an integer >= 1")
        if backoff < 0:
            raise SinkConfigError("backoff: must be >= 0")
        self.url = url
        self.attempts = attempts
        self.backoff = backoff
        self.timeout = timeout
        self.headers = dict(headers or {})
        self.name = name
        # the whole URL and its path (a Slack-style secret), userinfo, header values
        self._secrets = (url, str(parsed.copy_with(query=None, fragment=None)),
                         parsed.raw_path.decode("ascii", "replace")
                         if len(parsed.raw_path) > 1 else "",
                         parsed.userinfo.decode("ascii", "replace"),
                         *self.headers.values(),
                         *(v.split(" ", 1)[1] for v in self.headers.values() if " " in v))

    def __repr__(self) -> str:
        return f"WebhookSink(name={self.name!r})"

    async def send(self, request: ImprovementRequest) -> Delivery:
        attempt = 1
        async with httpx.AsyncClient(timeout=self.timeout) as client:
            while True:
                delivery, response, retryable = await self._post(client, request)
                delay = retry_delay(attempt, self.backoff, response) if retryable else None
                if delivery.ok or attempt >= self.attempts or delay is None:
                    break
                await asyncio.sleep(delay)
                attempt += 1
        if attempt > 1:
            delivery.detail += f" (attempt {attempt} of {self.attempts})"
        return delivery

    async def _post(self, client: httpx.AsyncClient, request: ImprovementRequest
                    ) -> tuple[Delivery, httpx.Response | None, bool]:
        """One POST: the delivery, the response (None: no answer) and whether to retry."""
        try:
            response = await client.post(self.url, json=request.to_dict(),
                                         headers=self.headers)
        except httpx.HTTPError as exc:
            return (Delivery(self.name, False, self.redact(f"{type(exc).__name__}: {exc}")),
                    None, True)
        if response.is_success:
            return Delivery(self.name, True, f"HTTP {response.status_code}"), response, False
        return (Delivery(self.name, False, self.redact(_failure(response))), response,
                response.status_code in RETRY_STATUSES)


class GitHubIssueSink(_Redacting):
    """Open the request as an issue: POST {api_url}/repos/{owner}/{repo}/issues."""

    name = "github"

    def __init__(self, repo: str, token: str, *, api_url: str = "https://api.github.com",
                 labels: tuple[str, ...] = ("nbcritic",), timeout: float = 10.0):
        if not isinstance(repo, str) or not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
            raise SinkConfigError(f"repo: must be owner/name, not {repo!r}")
        if not isinstance(token, str) or not token.strip():
            raise SinkConfigError("token: is required for GitHub issues")
        _http_url(api_url, "api_url")
        if timeout <= 0:
            raise SinkConfigError("timeout: must be > 0")
        self.repo = repo
        self.api_url = api_url.rstrip("/")
        self.labels = tuple(labels)
        self.timeout = timeout
        self._token = token
        self._secrets = (token,)

    def __repr__(self) -> str:
        return f"GitHubIssueSink(repo={self.repo!r}, api_url={self.api_url!r})"

    @property
    def issues_url(self) -> str:
        return f"{self.api_url}/repos/{self.repo}/issues"

    async def send(self, request: ImprovementRequest) -> Delivery:
        headers = {"Authorization": f"Bearer {self._token}",
                   "Accept": "application/vnd.github+json",
                   "X-GitHub-Api-Version": GITHUB_API_VERSION, "User-Agent": "nbcritic"}
        payload = {"title": request.title[:MAX_ISSUE_TITLE], "body": issue_body(request),
                   "labels": list(self.labels)}
        try:
            async with httpx.AsyncClient(timeout=self.timeout) as client:
                response = await client.post(self.issues_url, json=payload, headers=headers)
        except httpx.HTTPError as exc:
            return Delivery(self.name, False, self.redact(f"{type(exc).__name__}: {exc}"))
        if response.status_code != 201:
            return Delivery(self.name, False, self.redact(_failure(response)))
        try:
            data = response.json()
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        number = data.get("number")
        url = data.get("html_url") if isinstance(data.get("html_url"), str) else None
        detail = f"issue #{number} created" if number is not None else "issue created"
        return Delivery(self.name, True, detail, url)


def issue_body(request: ImprovementRequest) -> str:
    """The request's description and what identifies it (markdown)."""
    meta = [("request", request.id), ("priority", request.priority), ("type", request.type),
            ("pattern", request.pattern_key), ("occurrences", str(request.occurrences)),
            ("notebook", str(request.context.get("notebook_id", "")))]
    table = "\n".join(["| | |", "|---|---|", *[f"| {k} | `{v}` |" for k, v in meta]])
    footer = f"\n\n---\nFiled by nbcritic's post-mortem reflection.\n\n{table}\n"
    room = MAX_ISSUE_BODY - len(footer)
    description = request.description
    if len(description) > room:
        description = description[: room - 20] + "\n\n… (trimmed)"
    return description + footer


async def deliver(queue: ImprovementQueue, request: ImprovementRequest,
                  sinks: list[Sink]) -> list[Delivery]:
    """Send to every sink (concurrently) and record each outcome on the queued request.
    Never raises. A sink that already delivered this request is not asked again (a second
    `deliver` after a failure does not open a second GitHub issue)."""
    try:
        delivered = {d.get("sink"): d for d in queue.get(request.id).deliveries if d.get("ok")}
    except Exception:  # not in the queue (any more): deliver, recording will say so
        delivered = {}

    async def one(sink: Sink) -> tuple[Delivery, bool]:
        name = str(getattr(sink, "name", type(sink).__name__))
        if name in delivered:
            before = delivered[name]
            return Delivery(name, True, "already delivered", before.get("url")), False
        try:
            delivery = await sink.send(request)
        except Exception as exc:  # a sink bug must not lose the request or the others
            redact = getattr(sink, "redact", None)
            text = f"{type(exc).__name__}: {exc}"
            delivery = Delivery(name, False, redact(text) if callable(redact) else text)
        return delivery, True

    outcomes = await asyncio.gather(*(one(sink) for sink in sinks))
    for delivery, fresh in outcomes:
        if not fresh:
            continue
        if not delivery.ok:
            log.warning("improvement request %s: sink %s failed: %s", request.id,
                        delivery.sink, delivery.detail)
        try:
            queue.record_delivery(request.id, delivery.sink, delivery.ok, delivery.detail,
                                  delivery.url)
        except Exception:
            log.exception("improvement request %s: recording the %s delivery failed",
                          request.id, delivery.sink)
    return [delivery for delivery, _ in outcomes]
