"""Live fan-out of journal events to followers (SSE streams), with stream-chunk coalescing.

Every event goes to the journal first; followers read the journal from their last sequence
number, so a follower that reconnects with Last-Event-ID loses nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from .journal import Event, Journal
from .status import ExecutionState

TERMINAL_EVENT = "done"
COALESCE_SECONDS = 0.05  # stream chunks within this window become one event
COALESCE_BYTES = 64 * 1024


@dataclass
class _PendingStream:
    notebook_id: str
    cell_id: str | None
    name: str
    text: str
    timer: asyncio.TimerHandle | None = None


class ExecutionHub:
    def __init__(self, journal: Journal):
        self.journal = journal
        self._signals: dict[str, asyncio.Event] = {}
        self._pending: dict[str, _PendingStream] = {}
        # seconds between re-reads of the journal while waiting; None: only when this
        # process appends (set when replicas share the journal: another may be appending)
        self.poll: float | None = None

    def emit(self, execution_id: str, notebook_id: str, cell_id: str | None, type_: str,
             data: dict[str, Any]) -> Event:
        self.flush(execution_id)
        return self._append(execution_id, notebook_id, cell_id, type_, data)

    def stream(self, execution_id: str, notebook_id: str, cell_id: str | None, name: str,
               text: str) -> None:
        """Buffer a stdout/stderr chunk; written when the window closes or another event comes."""
        pending = self._pending.get(execution_id)
        if pending and (pending.name != name or pending.cell_id != cell_id):
            self.flush(execution_id)
            pending = None
        if pending is None:
            pending = _PendingStream(notebook_id, cell_id, name, text)
            self._pending[execution_id] = pending
            loop = asyncio.get_running_loop()
            pending.timer = loop.call_later(COALESCE_SECONDS, self.flush, execution_id)
        else:
            pending.text += text
        if len(pending.text) >= COALESCE_BYTES:
            self.flush(execution_id)

    def flush(self, execution_id: str) -> None:
        pending = self._pending.pop(execution_id, None)
        if pending is None:
            return
        if pending.timer:
            pending.timer.cancel()
        self._append(execution_id, pending.notebook_id, pending.cell_id, "stream",
                     {"name": pending.name, "text": pending.text})

    def finish(self, execution_id: str, notebook_id: str, result: dict[str, Any]) -> None:
        self.flush(execution_id)
        self.journal.set_state(execution_id, ExecutionState.DONE, result)
        self._append(execution_id, notebook_id, None, TERMINAL_EVENT, result)
        signal = self._signals.pop(execution_id, None)
        if signal:
            signal.set()

    async def follow(self, execution_id: str, after_seq: int = 0,
                     keepalive: float = 15.0) -> AsyncIterator[Event | None]:
        """Yield events after `after_seq` until the terminal one; None as a keep-alive tick."""
        quiet = 0.0
        while True:
            signal = self._signals.setdefault(execution_id, asyncio.Event())
            events = self.journal.events(execution_id, after_seq)
            for event in events:
                yield event
                after_seq = event.seq
                if event.type == TERMINAL_EVENT:
                    return
            if events:
                quiet = 0.0
                continue
            record = self.journal.execution(execution_id)
            if record is None or record.state == ExecutionState.DONE:
                # finished between our read and now: one more read picks up the tail
                if not self.journal.events(execution_id, after_seq):
                    self._signals.pop(execution_id, None)
                    return
                continue
            wait = min(self.poll or keepalive, keepalive)
            try:
                await asyncio.wait_for(signal.wait(), wait)
            except TimeoutError:
                quiet += wait
                if quiet >= keepalive:
                    quiet = 0.0
                    yield None

    # -- internals ---------------------------------------------------------------------

    def _append(self, execution_id: str, notebook_id: str, cell_id: str | None, type_: str,
                data: dict[str, Any]) -> Event:
        event = self.journal.append(execution_id, notebook_id, cell_id, type_, data)
        signal = self._signals.get(execution_id)
        if signal is not None and type_ != TERMINAL_EVENT:
            # wake current followers; later ones wait on a fresh Event
            self._signals[execution_id] = asyncio.Event()
            signal.set()
        return event
