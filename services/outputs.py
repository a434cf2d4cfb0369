"""IOPub messages -> nbformat v4 outputs, under a per-cell byte budget.

Follows nbclient's semantics (nbformat's `output_from_msg`, deferred `clear_output(wait=True)`,
`update_display_data` by display id) and, like the Jupyter frontends, appends a stream chunk to
the previous output when it is the same stream. Beyond the budget the cell keeps the first half
of the budget (head) and the most recent half (tail) with a marker in between, so memory stays
bounded for a cell that prints without end.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from nbformat import NotebookNode
from nbformat.v4 import new_output, output_from_msg

OUTPUT_MSG_TYPES = {"stream", "display_data", "execute_result", "error"}


def _size(output: NotebookNode) -> int:
    if output.output_type == "stream":
        return len(output.text)
    if output.output_type == "error":
        return len(output.evalue) + sum(len(line) for line in output.traceback)
    return len(json.dumps(output.get("data", {}))) + 64


@dataclass
class _Slot:
    output: NotebookNode
    display_id: str | None = None


@dataclass
class OutputCollector:
    budget_bytes: int
    head: list[_Slot] = field(default_factory=list)
    tail: deque[_Slot] = field(default_factory=deque)
    head_bytes: int = 0
    tail_bytes: int = 0
    dropped_bytes: int = 0
    clear_pending: bool = False
    execution_count: int | None = None
    error: dict[str, Any] | None = None
    # display ids updated here but shown by other cells (nbclient updates those too)
    foreign_updates: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def truncated(self) -> bool:
        return self.dropped_bytes > 0 or bool(self.tail)

    def handle(self, msg: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """Apply one IOPub message; return the (event type, payload) to stream, if any.

        Returns None for messages that change nothing the client sees, and for stream text past
        the budget (the final outputs carry the tail; the journal stays bounded).
        """
        msg_type = msg["header"]["msg_type"]
        content = msg["content"]
        if "execution_count" in content and msg_type in ("execute_input", "execute_result"):
            self.execution_count = content["execution_count"]
        if msg_type == "clear_output":
            if content.get("wait"):
                self.clear_pending = True
            else:
                self._clear()
            return "clear_output", {"wait": bool(content.get("wait"))}
        if msg_type == "update_display_data":
            display_id = (content.get("transient") or {}).get("display_id")
            if display_id and not self._update_display(display_id, content):
                self.foreign_updates[display_id] = {
                    "data": content.get("data", {}),
                    "metadata": content.get("metadata", {}),
                }
            return "update_display_data", {
                "display_id": display_id,
                "data": content.get("data", {}),
                "metadata": content.get("metadata", {}),
            }
        if msg_type not in OUTPUT_MSG_TYPES:
            return None
        if self.clear_pending:
            self._clear()
            self.clear_pending = False
        out = output_from_msg(msg)
        display_id = (content.get("transient") or {}).get("display_id")
        if msg_type == "error":
            self.error = {k: content[k] for k in ("ename", "evalue", "traceback")}
        if display_id and msg_type in ("display_data", "execute_result"):
            self._update_display(display_id, content)
        in_head = self._add(out, display_id)
        if msg_type == "stream":
            if not in_head:
                return None
            return "stream", {"name": out.name, "text": out.text}
        return msg_type, dict(out)

    def outputs(self) -> list[NotebookNode]:
        result = [slot.output for slot in self.head]
        if self.truncated:
            result.append(
                new_output(
                    "stream",
                    name="stderr",
                    text=(
                        f"\n[nbcritic] output truncated: {self.dropped_bytes:,} bytes omitted "
                        f"(cell output budget {self.budget_bytes:,} bytes; head and tail kept)\n"
                    ),
                )
            )
            result.extend(slot.output for slot in self.tail)
        return result

    def add_error(self, error: dict[str, Any]) -> None:
        """An error the service itself reports (timeout, dead kernel), shown like a traceback."""
        self.error = error
        self.head.append(_Slot(new_output("error", ename=error["ename"], evalue=error["evalue"],
                                          traceback=error["traceback"])))

    def display_positions(self) -> dict[str, list[int]]:
        """Where each display id sits in `outputs()`, for later update_display_data."""
        positions: dict[str, list[int]] = {}
        offset = len(self.head) + 1  # the truncation marker
        slots = list(enumerate(self.head)) + [(offset + i, s) for i, s in enumerate(self.tail)]
        for index, slot in slots:
            if slot.display_id:
                positions.setdefault(slot.display_id, []).append(index)
        return positions

    # -- internals -----------------------------------------------------------------------

    def _clear(self) -> None:
        self.head.clear()
        self.tail.clear()
        self.head_bytes = self.tail_bytes = self.dropped_bytes = 0

    def _update_display(self, display_id: str, content: dict[str, Any]) -> bool:
        found = False
        for slot in (*self.head, *self.tail):
            if slot.display_id == display_id:
                slot.output["data"] = content.get("data", {})
                slot.output["metadata"] = content.get("metadata", {})
                found = True
        return found

    def _add(self, out: NotebookNode, display_id: str | None) -> bool:
        """Add an output; True when it (or its start) landed in the head."""
        size = _size(out)
        half = self.budget_bytes // 2
        if not self.tail and self.dropped_bytes == 0:
            last = self.head[-1].output if self.head else None
            if self.head_bytes + size <= half:
                if _same_stream(last, out):
                    last.text += out.text
                else:
                    self.head.append(_Slot(out, display_id))
                self.head_bytes += size
                return True
            if out.output_type == "stream":
                room = half - self.head_bytes
                if room > 0:
                    if _same_stream(last, out):
                        last.text += out.text[:room]
                    else:
                        self.head.append(_Slot(new_output("stream", name=out.name,
                                                          text=out.text[:room])))
                    self.head_bytes += room
                    out = new_output("stream", name=out.name, text=out.text[room:])
                    size = len(out.text)
        self._add_tail(out, size, display_id)
        return False

    def _add_tail(self, out: NotebookNode, size: int, display_id: str | None) -> None:
        half = self.budget_bytes - self.budget_bytes // 2
        last = self.tail[-1].output if self.tail else None
        if _same_stream(last, out):
            last.text += out.text
        else:
            self.tail.append(_Slot(out, display_id))
        self.tail_bytes += size
        while self.tail_bytes > half and self.tail:
            first = self.tail[0].output
            excess = self.tail_bytes - half
            if first.output_type == "stream" and len(first.text) > excess:
                first.text = first.text[excess:]
                self.tail_bytes -= excess
                self.dropped_bytes += excess
            else:
                dropped = self.tail.popleft()
                removed = _size(dropped.output)
                self.tail_bytes -= removed
                self.dropped_bytes += removed


def _same_stream(last: NotebookNode | None, out: NotebookNode) -> bool:
    return (
        last is not None
        and out.output_type == "stream"
        and last.output_type == "stream"
        and last.name == out.name
    )
