"""Remote mode of the magics: `%%critique` cells are sent to a running nbcritic service over
its REST API (one notebook per IPython session there, created on first use; each cell is
added or updated, then executed as an execution resource) and the execution's Server-Sent
Events are followed: the cell's outputs are shown in the user's cell as they arrive, then
the service's findings, attempts (with diffs) and escalation.

Uses httpx's synchronous client: the magic runs in the kernel's thread and simply waits.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
from IPython.display import clear_output, display, publish_display_data

from services.status import CellStatus

from .magics_display import attempt_panel, critique_panel, escalation_panel, summary_panel
from .magics_local import AttemptRecord, CellRun, RunOptions

CONNECT_TIMEOUT = 5.0
REQUEST_TIMEOUT = 60.0
EVENT_READ_TIMEOUT = 60.0  # the service sends a keep-alive every 15 s
MAX_RECONNECTS = 5


class RemoteError(Exception):
    """The service could not be reached or refused a request (a clear, short message)."""


class RemoteExecutionError(Exception):
    """An error raised by the cell in the service's kernel (its ename names a subclass)."""


def remote_exception(ename: str, evalue: str) -> RemoteExecutionError:
    name = ename if ename.isidentifier() else "RemoteExecutionError"
    cls = type(name, (RemoteExecutionError,), {"__module__": "nbcritic.remote"})
    return cls(evalue)


@dataclass
class SSEvent:
    id: int
    type: str
    data: dict[str, Any]


class RemoteSession:
    """A connection to one nbcritic service: the notebook this session runs cells in, and
    which remote cell each frontend cell maps to."""

    def __init__(self, url: str, token: str | None, *,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.url = url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.client = httpx.Client(
            base_url=self.url, headers=headers, transport=transport,
            timeout=httpx.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT))
        self.notebook_id: str | None = None
        self.cells: dict[str, str] = {}  # frontend cell id -> the service's cell id
        self.critic: dict[str, Any] = {}  # GET /api/critic, read on connect

    # -- HTTP -----------------------------------------------------------------------------

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self.client.request(method, path, **kwargs)
        except httpx.TimeoutException as exc:
            raise RemoteError(f"nbcritic at {self.url} did not answer in time "
                              f"({type(exc).__name__})") from None
        except httpx.HTTPError as exc:
            raise RemoteError(f"cannot reach nbcritic at {self.url}: "
                              f"{type(exc).__name__}: {exc}") from None
        if response.status_code >= 400:
            raise RemoteError(_describe_failure(response, method, path))
        return response

    def connect(self) -> dict[str, Any]:
        """Reachable, an nbcritic service, and the token accepted: its critic settings."""
        health = self.request("GET", "/health")
        try:
            body = health.json()
        except ValueError:
            body = None
        if not isinstance(body, dict) or "status" not in body:
            raise RemoteError(f"{self.url} answered /health, but not like an nbcritic service")
        self.critic = self.request("GET", "/api/critic").json()
        return self.critic

    def close(self) -> None:
        self.client.close()

    def rules(self) -> list[dict[str, Any]]:
        return self.request("GET", "/api/critic/rules").json().get("rules", [])

    def ensure_notebook(self) -> str:
        if self.notebook_id is None:
            self.notebook_id = self.request("POST", "/api/notebooks", json={}).json()["id"]
        return self.notebook_id

    def put_cell(self, key: str | None, source: str, prompt: str | None) -> str:
        """Add the cell (first run of this frontend cell) or update it (a re-run)."""
        notebook = self.ensure_notebook()
        cell_id = self.cells.get(key) if key else None
        body: dict[str, Any] = {"source": source}
        if prompt is not None:
            body["prompt"] = prompt
        if cell_id is not None:
            try:
                self.request("PATCH", f"/api/notebooks/{notebook}/cells/{cell_id}", json=body)
                return cell_id
            except RemoteError:
                self.cells.pop(key or "", None)  # deleted on the service: add it again
        cell_id = self.request("POST", f"/api/notebooks/{notebook}/cells",
                               json=body).json()["id"]
        if key:
            self.cells[key] = cell_id
        return cell_id

    def execute(self, cell_id: str, body: dict[str, Any]) -> str:
        notebook = self.ensure_notebook()
        response = self.request("POST", f"/api/notebooks/{notebook}/cells/{cell_id}/execute",
                                params={"wait": "false"}, json=body)
        return response.json()["id"]

    def events(self, execution_id: str) -> Iterator[SSEvent]:
        """The execution's events until `done`; a dropped stream resumes after the last id."""
        last = 0
        reconnects = 0
        while True:
            try:
                with self.client.stream(
                        "GET", f"/api/executions/{execution_id}/events",
                        params={"after": last},
                        timeout=httpx.Timeout(REQUEST_TIMEOUT, connect=CONNECT_TIMEOUT,
                                              read=EVENT_READ_TIMEOUT)) as response:
                    if response.status_code >= 400:
                        response.read()
                        raise RemoteError(_describe_failure(response, "GET", "events"))
                    for event in parse_sse(response.iter_lines()):
                        last = max(last, event.id)
                        yield event
                        if event.type == "done":
                            return
            except httpx.HTTPError as exc:
                reconnects += 1
                if reconnects > MAX_RECONNECTS:
                    raise RemoteError(f"lost the event stream of execution {execution_id}: "
                                      f"{type(exc).__name__}: {exc}") from None
                continue
            reconnects += 1  # the stream ended without `done`: resume
            if reconnects > MAX_RECONNECTS:
                raise RemoteError(f"the event stream of execution {execution_id} ended early")

    def accept(self, cell_id: str, by: str, reason: str) -> dict[str, Any]:
        notebook = self.ensure_notebook()
        return self.request("POST", f"/api/notebooks/{notebook}/cells/{cell_id}/critique/accept",
                            json={"by": by, "reason": reason}).json()

    def interrupt(self) -> None:
        if self.notebook_id is not None:
            self.request("POST", f"/api/notebooks/{self.notebook_id}/kernel/interrupt")


def _describe_failure(response: httpx.Response, method: str, path: str) -> str:
    try:
        body = response.json()
        detail, code = body.get("detail"), body.get("code")
    except ValueError:
        detail, code = response.text[:200], None
    if response.status_code == 401:
        return (f"nbcritic at {response.url.scheme}://{response.url.host}:{response.url.port} "
                f"refused the token ({detail}); pass --token")
    suffix = f" ({code})" if code else ""
    return f"{method} {path}: {response.status_code} {detail}{suffix}"


def parse_sse(lines: Iterator[str]) -> Iterator[SSEvent]:
    """Server-Sent Events framing: `id:`, `event:`, `data:` lines up to a blank line."""
    event_id, event_type = 0, "message"
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r")
        if not line:
            if data:
                try:
                    payload = json.loads("\n".join(data))
                except ValueError:
                    payload = {"text": "\n".join(data)}
                yield SSEvent(event_id, event_type, payload if isinstance(payload, dict)
                              else {"value": payload})
            event_type, data = "message", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            with contextlib.suppress(ValueError):
                event_id = int(value)
        elif name == "event":
            event_type = value
        elif name == "data":
            data.append(value)


# -- one cell, executed by the service ------------------------------------------------------


def request_body(options: RunOptions, user: str) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if options.force:
        body.update(override_critic=True, override_by=user)
    if options.retry is not None:
        body["auto_fix"] = options.retry
    if options.max_error_retries is not None:
        body["max_error_retries"] = options.max_error_retries
    if options.max_critique_retries is not None:
        body["max_critique_retries"] = options.max_critique_retries
    if options.disabled_rules:
        body["disabled_rules"] = list(options.disabled_rules)
    if options.checks:
        body["checks"] = [c.to_dict() for c in options.checks]
    if options.plan is not None:
        body["plan"] = options.plan
    return body


class RemoteRunner:
    """Runs one cell on the service and replays its events in the user's cell."""

    def __init__(self, shell: Any, session: RemoteSession) -> None:
        self.shell = shell
        self.session = session
        self._shown_error = False

    def run(self, code: str, options: RunOptions, *, key: str | None, prompt: str | None,
            user: str) -> CellRun:
        cell_id = self.session.put_cell(key, code, prompt)
        execution_id = self.session.execute(cell_id, request_body(options, user))
        min_conf = float(self.session.critic.get("min_confidence", 0.8))
        run = CellRun("remote", code, prompt, min_confidence=min_conf,
                      notebook_id=self.session.notebook_id, cell_id=cell_id)
        critiques: dict[int, dict[str, Any]] = {}
        codes: dict[int, str] = {}
        note = ""
        self._shown_error = False
        final: dict[str, Any] | None = None
        try:
            for event in self.session.events(execution_id):
                data = event.data
                if event.type == "attempt_started":
                    number = int(data.get("attempt", 1))
                    codes[number] = data.get("code", "")
                    if number > 1 or data.get("generated"):
                        display(attempt_panel(number, codes[number], codes.get(number - 1),
                                              cause=data.get("cause"), generator="the service",
                                              note=note))
                    note = ""
                elif event.type == "stream":
                    stream = sys.stderr if data.get("name") == "stderr" else sys.stdout
                    stream.write(data.get("text", ""))
                    stream.flush()
                elif event.type in ("display_data", "execute_result"):
                    publish_display_data(data.get("data", {}), data.get("metadata") or {})
                elif event.type == "clear_output":
                    clear_output(wait=bool(data.get("wait")))
                elif event.type == "error":
                    self._show_error(data)
                elif event.type == "critique":
                    number = int(data.get("attempt", 1))
                    critique = {k: v for k, v in data.items() if k not in ("attempt", "cell_id")}
                    critiques[number] = critique
                    display(_critique_panel(critique, min_conf, number))
                elif event.type == "retry_scheduled":
                    kind = data.get("cause") or "error"
                    used = (data.get("retries_used") or {}).get(kind, 0) + 1
                    budget = (data.get("budgets") or {}).get(f"{kind}_retries", "?")
                    note = f"{kind} retry {used} of {budget}"
                elif event.type == "escalated":
                    run.escalation = {k: v for k, v in data.items() if k != "cell_id"}
                    display(escalation_panel(run.escalation))
                elif event.type == "final":
                    final = data
                elif event.type == "done" and final is None:
                    reason = data.get("reason") or data.get("status") or "no result"
                    raise RemoteError(f"the service ended the execution without a result: "
                                      f"{reason}")
        except KeyboardInterrupt:
            with contextlib.suppress(RemoteError):
                self.session.interrupt()
            raise
        assert final is not None
        return self._conclude(run, final, critiques, prompt)

    def _show_error(self, error: dict[str, Any]) -> None:
        if error.get("ename") == "ScientificValidityError":
            return  # shown as the findings display instead of a wall of text
        exc = remote_exception(str(error.get("ename", "Error")), str(error.get("evalue", "")))
        traceback = list(error.get("traceback") or []) or [f"{type(exc).__name__}: {exc}"]
        self.shell._showtraceback(type(exc), exc, traceback)
        self._shown_error = True

    def _conclude(self, run: CellRun, final: dict[str, Any],
                  critiques: dict[int, dict[str, Any]], prompt: str | None) -> CellRun:
        run.status = CellStatus(final.get("status", "ok"))
        for a in final.get("attempts") or []:
            number = int(a.get("attempt", 1))
            record = AttemptRecord(number, a.get("code", ""), CellStatus(a.get("status", "ok")),
                                   a.get("cause"), bool(a.get("generated")),
                                   a.get("execution_count"), error=a.get("error"),
                                   critique=critiques.get(number), feedback=a.get("feedback"),
                                   explanation=a.get("explanation"), analysis=a.get("analysis"))
            if a.get("findings"):
                record.blocking = [f.get("rule_id", "") for f in a["findings"]]
                record.error = {**(record.error or {}), "findings": a["findings"]}
            run.attempts.append(record)
        if run.attempts and final.get("critique") is not None:
            run.attempts[-1].critique = final["critique"]
            run.attempts[-1].override = final.get("override")
        if run.escalation is None:
            run.escalation = final.get("escalation")
        error = final.get("error")
        if run.status not in (CellStatus.OK, CellStatus.SCIENTIFIC_VALIDITY_ERROR) and error:
            # a timeout, a dead kernel or a failed generation has no error event of its own
            if not self._shown_error:
                self._show_error(error)
            run.exception = remote_exception(str(error.get("ename", "Error")),
                                             str(error.get("evalue", "")))
        code = final.get("code")
        generated = any(r.generated for r in run.attempts)
        if run.status is CellStatus.OK and generated and code:
            run.next_input = code
            self.shell.set_next_input(code, replace=False)
        if len(run.attempts) > 1 or run.next_input is not None:
            display(summary_panel(run.status.value, len(run.attempts),
                                  next_input=run.next_input is not None,
                                  fixed=len(run.attempts) > 1 and run.status is CellStatus.OK,
                                  overridden=final.get("override") is not None))
        return run


def _critique_panel(critique: dict[str, Any], min_conf: float, attempt: int) -> Any:
    overridden = critique.get("overridden")
    blocking = [] if overridden else [
        f.get("rule_id", "") for f in critique.get("findings") or []
        if f.get("severity") == "critical" and float(f.get("confidence", 0)) >= min_conf]
    status = "scientific_validity_error" if blocking else "ok"
    return critique_panel(critique, status=status, blocking=blocking, min_confidence=min_conf,
                          attempt=attempt, overridden=overridden)
