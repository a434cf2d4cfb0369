"""Improvement requests: what a reflection found worth acting on, in a durable queue (SQLite).

One pattern (by its key) yields one request per cooldown window - per notebook by default
(`cooldown_scope="notebook"`), or across notebooks (`"pattern"`): a recurrence within the
window is absorbed into the open request (`occurrences` + 1, its context appended to
`context["recurrences"]`) instead of queuing another, so nothing is lost and nothing floods.
The window starts when the request was queued (not at its last recurrence), so a pattern that
keeps coming back is queued again once per window.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .database import open_sqlite
from .reflection import PatternFound, Reflection, read_field, read_mapping

PRIORITIES = ("low", "medium", "high", "critical")
STATUSES = ("open", "acknowledged", "dismissed")
TYPES = ("critic_rule", "prompt", "budget", "performance", "environment")
MAX_RECURRENCES_KEPT = 50  # context["recurrences"]; `occurrences` keeps counting beyond
MAX_DETAIL_CHARS = 500
MAX_NOTE_CHARS = 2000

SCHEMA = """
CREATE TABLE IF NOT EXISTS improvement_requests (
    id TEXT PRIMARY KEY,
    pattern_key TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS improvement_requests_key
    ON improvement_requests(pattern_key, created_at);
CREATE INDEX IF NOT EXISTS improvement_requests_status
    ON improvement_requests(status, created_at);
"""


class ImprovementError(ValueError):
    """A bad field of a request or a query; the message starts with the field."""


class ImprovementNotFound(KeyError):
    """No request with this id."""


@dataclass
class ImprovementRequest:
    title: str
    description: str  # markdown
    priority: str  # one of PRIORITIES
    type: str  # critic_rule | prompt | budget | performance | environment (others allowed)
    pattern_key: str
    source_pattern: dict[str, Any]  # PatternFound.to_dict(), or {"kind": "combined", ...}
    context: dict[str, Any]  # notebook_id, execution_ids, metrics (+ recurrences)
    id: str = ""
    status: str = "open"
    created_at: float = 0.0
    updated_at: float = 0.0
    occurrences: int = 1
    deliveries: list[dict[str, Any]] = field(default_factory=list)  # sink, ok, at, detail, url
    notes: list[dict[str, Any]] = field(default_factory=list)  # status, note, at

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> ImprovementRequest:
        data = read_mapping(data, "request", ImprovementError)

        def get(key: str, kinds: type | tuple[type, ...], **kw: Any) -> Any:
            return read_field(data, key, kinds, "", ImprovementError, **kw)

        request = cls(
            title=get("title", str), description=get("description", str, default=""),
            priority=get("priority", str, choices=PRIORITIES),
            type=get("type", str), pattern_key=get("pattern_key", str),
            source_pattern=dict(get("source_pattern", dict, default={})),
            context=dict(get("context", dict, default={})),
            id=get("id", str, default=""), status=get("status", str, default="open",
                                                      choices=STATUSES),
            created_at=float(get("created_at", (int, float), default=0.0)),
            updated_at=float(get("updated_at", (int, float), default=0.0)),
            occurrences=get("occurrences", int, default=1),
            deliveries=list(get("deliveries", list, default=[])),
            notes=list(get("notes", list, default=[])),
        )
        request.validate()
        return request

    def validate(self) -> None:
        for name in ("title", "type", "pattern_key"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ImprovementError(f"{name}: must be a non-empty string")
        if self.priority not in PRIORITIES:
            raise ImprovementError(f"priority: must be one of {', '.join(PRIORITIES)}, "
                                   f"not {self.priority!r}")
        if self.status not in STATUSES:
            raise ImprovementError(f"status: must be one of {', '.join(STATUSES)}, "
                                   f"not {self.status!r}")
        if isinstance(self.occurrences, bool) or not isinstance(self.occurrences, int) \
                or self.occurrences < 1:
            raise ImprovementError("occurrences: must be an integer >= 1")
        for name in ("source_pattern", "context"):
            if not isinstance(getattr(self, name), dict):
                raise ImprovementError(f"{name}: must be an object")


@dataclass
class Submitted:
    request: ImprovementRequest
    queued: bool  # False: absorbed by the request already queued for this pattern
    reason: str


COOLDOWN_SCOPES = ("notebook", "pattern")


class ImprovementQueue:
    """`cooldown_scope`: "notebook" - a window per pattern and notebook (a second notebook
    with the same recurring error gets its own request); "pattern" - one window per pattern
    whatever the notebook."""

    def __init__(self, path: Path, *, cooldown_seconds: float = 3600,
                 cooldown_scope: str = "notebook", clock: Callable[[], float] = time.time):
        if isinstance(cooldown_seconds, bool) or not isinstance(cooldown_seconds, int | float) \
                or cooldown_seconds < 0:
            raise ImprovementError("cooldown_seconds: must be a number >= 0")
        if cooldown_scope not in COOLDOWN_SCOPES:
            raise ImprovementError(f"cooldown_scope: must be one of "
                                   f"{', '.join(COOLDOWN_SCOPES)}, not {cooldown_scope!r}")
        self.path = path
        self.cooldown_scope = cooldown_scope
        self.cooldown_seconds = float(cooldown_seconds)
        self.clock = clock
        self._conn = open_sqlite(path)
        self._conn.executescript(SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        self._conn.close()

    # -- writing -----------------------------------------------------------------------------

    def submit(self, request: ImprovementRequest) -> Submitted:
        request.validate()
        now = self.clock()
        with self._lock, self._transaction():
            existing = self._in_cooldown(request, now)
            if existing is not None:
                existing.occurrences += 1
                existing.updated_at = now
                if PRIORITIES.index(request.priority) > PRIORITIES.index(existing.priority):
                    existing.priority = request.priority
                recurrences = existing.context.setdefault("recurrences", [])
                recurrences.append({"at": now, **{k: v for k, v in request.context.items()
                                                  if k != "recurrences"}})
                del recurrences[:-MAX_RECURRENCES_KEPT]
                self._write(existing)
                ago = now - existing.created_at
                return Submitted(existing, False, (
                    f"cooldown: {existing.id} was queued for {request.pattern_key}"
                    f"{self._where(request)} {ago:.0f} s ago (cooldown "
                    f"{self.cooldown_seconds:g} s); occurrence "
                    f"{existing.occurrences} recorded on it"))
            queued = ImprovementRequest.from_dict({
                **request.to_dict(), "id": uuid.uuid4().hex[:12], "status": "open",
                "created_at": now, "updated_at": now, "deliveries": [], "notes": []})
            self._conn.execute(
                "INSERT INTO improvement_requests (id, pattern_key, status, created_at,"
                " updated_at, data) VALUES (?, ?, ?, ?, ?, ?)",
                (queued.id, queued.pattern_key, queued.status, now, now,
                 json.dumps(queued.to_dict(), default=str)),
            )
        return Submitted(queued, True, "queued")

    def _in_cooldown(self, request: ImprovementRequest,
                     now: float) -> ImprovementRequest | None:
        """The newest request of this pattern (and notebook, by scope) queued within the
        cooldown window, if any."""
        if self.cooldown_seconds <= 0:
            return None
        rows = self._conn.execute(
            "SELECT data FROM improvement_requests WHERE pattern_key = ? AND created_at > ?"
            " ORDER BY created_at DESC, rowid DESC",
            (request.pattern_key, now - self.cooldown_seconds)).fetchall()
        for row in rows:
            existing = ImprovementRequest.from_dict(json.loads(row["data"]))
            if self.cooldown_scope == "pattern" or (
                    existing.context.get("notebook_id") == request.context.get("notebook_id")):
                return existing
        return None

    def _where(self, request: ImprovementRequest) -> str:
        notebook = request.context.get("notebook_id")
        return f" in notebook {notebook}" if self.cooldown_scope == "notebook" and notebook \
            else ""

    def acknowledge(self, request_id: str, note: str = "") -> ImprovementRequest:
        return self._set_status(request_id, "acknowledged", note)

    def dismiss(self, request_id: str, note: str = "") -> ImprovementRequest:
        return self._set_status(request_id, "dismissed", note)

    def record_delivery(self, request_id: str, sink: str, ok: bool, detail: str,
                        url: str | None = None) -> ImprovementRequest:
        def change(request: ImprovementRequest, now: float) -> None:
            request.deliveries.append({"sink": sink, "ok": bool(ok), "at": now,
                                       "detail": str(detail)[:MAX_DETAIL_CHARS], "url": url})

        return self._change(request_id, change)

    # -- reading -----------------------------------------------------------------------------

    def get(self, request_id: str) -> ImprovementRequest:
        row = self._conn.execute("SELECT data FROM improvement_requests WHERE id = ?",
                                 (request_id,)).fetchone()
        if row is None:
            raise ImprovementNotFound(request_id)
        return ImprovementRequest.from_dict(json.loads(row["data"]))

    def list(self, *, status: str | None = None, limit: int = 100) -> list[ImprovementRequest]:
        """Newest first."""
        if status is not None and status not in STATUSES:
            raise ImprovementError(f"status: must be one of {', '.join(STATUSES)}, "
                                   f"not {status!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ImprovementError("limit: must be an integer >= 1")
        query = "SELECT data FROM improvement_requests"
        params: list[Any] = []
        if status is not None:
            query += " WHERE status = ?"
            params.append(status)
        rows = self._conn.execute(query + " ORDER BY created_at DESC, rowid DESC LIMIT ?",
                                  (*params, limit)).fetchall()
        return [ImprovementRequest.from_dict(json.loads(row["data"])) for row in rows]

    # -- internals ---------------------------------------------------------------------------

    def _set_status(self, request_id: str, status: str, note: str) -> ImprovementRequest:
        if not isinstance(note, str):
            raise ImprovementError("note: must be a string")

        def change(request: ImprovementRequest, now: float) -> None:
            request.status = status
            request.notes.append({"status": status, "note": note[:MAX_NOTE_CHARS], "at": now})

        return self._change(request_id, change)

    def _change(self, request_id: str,
                change: Callable[[ImprovementRequest, float], None]) -> ImprovementRequest:
        now = self.clock()
        with self._lock, self._transaction():
            request = self.get(request_id)
            change(request, now)
            request.updated_at = now
            self._write(request)
        return request

    def _write(self, request: ImprovementRequest) -> None:
        self._conn.execute(
            "UPDATE improvement_requests SET status = ?, updated_at = ?, data = ? WHERE id = ?",
            (request.status, request.updated_at, json.dumps(request.to_dict(), default=str),
             request.id),
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error): a read-then-write is atomic even with
    another process (the CLI) on the same file."""

    def __init__(self, conn: Any):
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


# -- from a reflection -------------------------------------------------------------------------

ACTIONABLE = ("high", "critical")
ENVIRONMENT_ERRORS = {"ModuleNotFoundError", "ImportError", "MemoryError", "OSError",
                      "PermissionError", "FileNotFoundError"}
MIN_MEDIUM_FOR_COMBINED = 2


def request_type(pattern: PatternFound) -> str:
    """Where the fix belongs."""
    if pattern.kind == "repeated_error":
        errors = set(pattern.scope.get("error_types") or [])
        return "environment" if errors & ENVIRONMENT_ERRORS else "prompt"
    if pattern.kind == "kernel_failure":
        return "performance" if pattern.key.endswith(":timeout") else "environment"
    return {"repeated_finding": "prompt", "stall": "prompt", "escalated": "prompt",
            "budget_exhausted": "budget", "generator_failed": "environment",
            "slow_cell": "performance", "override": "critic_rule"}.get(pattern.kind, "prompt")


def requests_from(reflection: Reflection) -> list[ImprovementRequest]:
    """Each high or critical pattern -> one request; else two or more medium patterns -> one
    combined request; else none (a single medium pattern is for the lessons store)."""
    context = {"notebook_id": reflection.notebook_id,
               "execution_ids": list(reflection.execution_ids),
               "metrics": _plain_metrics(reflection.metrics)}
    actionable = [p for p in reflection.patterns if p.severity in ACTIONABLE]
    if actionable:
        return [_single(p, context) for p in actionable]
    medium = [p for p in reflection.patterns if p.severity == "medium"]
    if len(medium) >= MIN_MEDIUM_FOR_COMBINED:
        return [_combined(medium, context)]
    return []


def _priority(severity: str) -> str:
    """PRIORITIES has no `info`: it maps to `low`."""
    return severity if severity in PRIORITIES else "low"


def _single(p: PatternFound, context: dict[str, Any]) -> ImprovementRequest:
    return ImprovementRequest(
        title=f"[{p.severity}] {p.headline}", description=_describe([p], context),
        priority=_priority(p.severity), type=request_type(p), pattern_key=p.key,
        source_pattern=p.to_dict(), context=dict(context))


def _combined(patterns: list[PatternFound], context: dict[str, Any]) -> ImprovementRequest:
    types = Counter(request_type(p) for p in patterns)
    top = max(types.values())
    kind = next(request_type(p) for p in patterns if types[request_type(p)] == top)
    keys = sorted(p.key for p in patterns)
    return ImprovementRequest(
        title=f"[medium] {len(patterns)} recurring problems: "
              + "; ".join(p.headline for p in patterns[:3])
              + ("; …" if len(patterns) > 3 else ""),
        description=_describe(patterns, context), priority="medium", type=kind,
        pattern_key="combined:" + "+".join(keys),
        source_pattern={"kind": "combined", "key": "combined:" + "+".join(keys),
                        "severity": "medium", "patterns": [p.to_dict() for p in patterns]},
        context=dict(context))


def _describe(patterns: list[PatternFound], context: dict[str, Any]) -> str:
    """Markdown: each pattern's evidence and suggestion, then where it was seen."""
    parts = []
    for p in patterns:
        lines = [f"### {p.headline} ({p.severity})", "", p.detail, ""]
        if p.examples:
            lines += ["Examples:", *[f"- `{e}`" for e in p.examples], ""]
        if p.fixes:
            lines += ["What got past it on a retry:", *[f"- {f}" for f in p.fixes], ""]
        lines += [f"**Suggestion:** {p.suggestion}", "", f"Pattern key: `{p.key}`"]
        parts.append("\n".join(lines))
    m = context.get("metrics") or {}
    retries = m.get("retries_by_cause") or {}
    where = (f"Notebook `{context.get('notebook_id')}`, executions "
             + ", ".join(f"`{e}`" for e in context.get("execution_ids") or [])
             + f". Cells {m.get('cells', 0)}, attempts {m.get('attempts', 0)}, retries "
             f"{retries.get('error', 0)} error / {retries.get('critique', 0)} critique, "
             f"escalations {m.get('escalations', 0)}, tokens "
             f"{(m.get('tokens') or {}).get('total', 0)}.")
    return "\n\n".join([*parts, "---", where])


def _plain_metrics(metrics: dict[str, Any]) -> dict[str, Any]:
    """JSON-shaped (tuples as lists), so a stored request equals the one submitted."""
    return json.loads(json.dumps(metrics, default=str))

