"""IOPub messages -> nbformat v4 outputs, under a per-cell byte budget.

Follows nbclient's semantics (nbformat's `output_from_msg`, deferred `clear_output(wait=True)`,
`update_display_data` by display id) and, like the Jupyter frontends, appends a stream chunk to
the previous output when it is the same stream. Beyond the budget the cell keeps the first half
of the budget (head) and the most recent half (tail) with a marker in between, so memory stays
bounded for a cell that prints without end.

With the kernel's `WidgetComms` attached, comm messages go to it, and so does output that an
ipywidgets `Output` widget captures (`with out:`): that output is the widget's, not the cell's.
"""

from __future__ import annotations

import contextlib
import json
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

from nbformat import NotebookNode, from_dict

if TYPE_CHECKING:
    from .widgets import WidgetComms

OUTPUT_MSG_TYPES = {"stream", "display_data", "execute_result", "error"}


def new_output(output_type: str, **fields: Any) -> NotebookNode:
    """nbformat's `new_output` without its per-output jsonschema validation (a hot path:
    the whole notebook is validated on every write anyway)."""
    return from_dict({"output_type": output_type, **fields})


def output_from_msg(msg: dict[str, Any]) -> NotebookNode:
    """nbformat's `output_from_msg`, same fields, without the per-output validation."""
    msg_type = msg["header"]["msg_type"]
    content = msg["content"]
    if msg_type == "stream":
        return new_output(msg_type, name=content["name"], text=content["text"])
    if msg_type == "error":
        return new_output(msg_type, ename=content["ename"], evalue=content["evalue"],
                          traceback=content["traceback"])
    fields = {"metadata": content["metadata"], "data": content["data"]}
    if msg_type == "execute_result":
        fields["execution_count"] = content["execution_count"]
    return new_output(msg_type, **fields)


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _first_bytes(text: str, n: int) -> str:
    """The longest prefix of `text` within `n` UTF-8 bytes (no split characters)."""
    if text.isascii():
        return text[:n]
    return text.encode("utf-8")[:max(0, n)].decode("utf-8", errors="ignore")


def _drop_bytes(text: str, n: int) -> str:
    """`text` without its first `n` UTF-8 bytes (rounded up to a whole character)."""
    if text.isascii():
        return text[n:]
    return text.encode("utf-8")[n:].decode("utf-8", errors="ignore")


def _size(output: NotebookNode) -> int:
    """UTF-8 bytes an output costs against the budget."""
    if output.output_type == "stream":
        return _utf8_len(output.text)
    if output.output_type == "error":
        return _utf8_len(output.evalue) + sum(_utf8_len(line) for line in output.traceback)
    return len(json.dumps(output.get("data", {}))) + 64


@dataclass
class _Slot:
    output: NotebookNode
    display_id: str | None = None


@dataclass
class OutputCollector:
    """Outputs of one execution. The head takes the first half of the budget; later outputs go
    to the tail, which may use whatever the head left. Only when the tail overflows is the
    oldest tail output dropped, and only then does the cell count as truncated."""

    budget_bytes: int
    head: list[_Slot] = field(default_factory=list)
    tail: deque[_Slot] = field(default_factory=deque)
    head_bytes: int = 0
    tail_bytes: int = 0
    dropped_bytes: int = 0
    streamed_bytes: int = 0  # stream text sent live; capped at the budget (journal bound)
    clear_pending: bool = False
    execution_count: int | None = None
    error: dict[str, Any] | None = None
    # display id -> newest data/metadata, applied to earlier cells showing it (as nbclient does)
    foreign_updates: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the kernel's widgets: comm messages and the output of a capturing Output widget go there
    widgets: WidgetComms | None = None

    @property
    def truncated(self) -> bool:
        return self.dropped_bytes > 0

    def handle(self, msg: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """Apply one IOPub message; return the (event type, payload) to stream, if any.

        Returns None for messages that change nothing the client sees, and for stream text
        past the budget (the final outputs carry the tail; the journal stays bounded).
        """
        msg_type = msg["header"]["msg_type"]
        content = msg["content"]
        if "execution_count" in content and msg_type in ("execute_input", "execute_result"):
            self.execution_count = content["execution_count"]
        if self.widgets is not None and self._to_widget(msg):
            return None
        if msg_type == "clear_output":
            if content.get("wait"):
                self.clear_pending = True
            else:
                self._clear()
            return "clear_output", {"wait": bool(content.get("wait"))}
        display_id = (content.get("transient") or {}).get("display_id")
        if msg_type == "update_display_data":
            bundle = self._within_budget(content)
            if display_id:
                self._update_display(display_id, bundle)
                self.foreign_updates[display_id] = bundle
            return "update_display_data", {"display_id": display_id, **bundle}
        if msg_type not in OUTPUT_MSG_TYPES:
            return None
        if self.clear_pending:
            self._clear()
            self.clear_pending = False
        out = output_from_msg(msg)
        if msg_type == "error":
            self.error = {k: content[k] for k in ("ename", "evalue", "traceback")}
        if display_id and msg_type in ("display_data", "execute_result"):
            bundle = {"data": content.get("data", {}), "metadata": content.get("metadata", {})}
            self._update_display(display_id, bundle)
            self.foreign_updates[display_id] = bundle
        if msg_type == "stream":
            live = _first_bytes(out.text, self.budget_bytes - self.streamed_bytes)
            self.streamed_bytes += _utf8_len(live)
            self._add(out, None)
            return ("stream", {"name": out.name, "text": live}) if live else None
        self._add(out, display_id)
        event = dict(out)
        if display_id:  # as in Jupyter's message: a client can apply later updates live
            event["transient"] = {"display_id": display_id}
        return msg_type, event

    def outputs(self) -> list[NotebookNode]:
        return self._assemble()[0]

    def replace(self, outputs: list[dict[str, Any]]) -> None:
        """Start over from `outputs` (nbformat dicts), under the same budget."""
        self._clear()
        self.clear_pending = False
        for output in outputs:
            # a widget's outputs may be set by user code: keep what has an output's shape
            with contextlib.suppress(KeyError, TypeError, AttributeError):
                self._add(from_dict(output), None)

    def add_error(self, error: dict[str, Any]) -> None:
        """An error the service itself reports (timeout, dead kernel), shown last like a
        traceback; it is never dropped for the budget."""
        self.error = error
        slot = _Slot(new_output("error", ename=error["ename"], evalue=error["evalue"],
                                traceback=error["traceback"]))
        (self.tail if self.tail else self.head).append(slot)

    def display_positions(self) -> dict[str, list[int]]:
        """Where each display id sits in `outputs()`, for later update_display_data."""
        return self._assemble()[1]

    def _assemble(self) -> tuple[list[NotebookNode], dict[str, list[int]]]:
        result: list[NotebookNode] = []
        positions: dict[str, list[int]] = {}

        def place(slot: _Slot, may_merge: bool) -> None:
            if may_merge and result and _same_stream(result[-1], slot.output):
                # nothing was dropped: the head's last chunk and the tail's first are one text
                result[-1] = new_output("stream", name=slot.output.name,
                                        text=result[-1].text + slot.output.text)
            else:
                result.append(slot.output)
            if slot.display_id:
                positions.setdefault(slot.display_id, []).append(len(result) - 1)

        for slot in self.head:
            place(slot, False)
        if self.truncated:
            result.append(new_output("stream", name="stderr", text=(
                f"\n[nbcritic] output truncated: {self.dropped_bytes:,} bytes omitted "
                f"(cell output budget {self.budget_bytes:,} bytes; head and tail kept)\n")))
        for index, slot in enumerate(self.tail):
            place(slot, index == 0 and not self.truncated)
        return result, positions

    # -- internals -----------------------------------------------------------------------

    def _to_widget(self, msg: dict[str, Any]) -> bool:
        """Comm messages, and output an Output widget captures, are not the cell's. A
        display id shown inside a widget still updates the cell's displays (nbclient)."""
        assert self.widgets is not None
        if msg["header"]["msg_type"].startswith("comm_"):
            self.widgets.handle_comm(msg, self.budget_bytes)
            return True
        if not self.widgets.capture(msg):
            return False
        content = msg["content"]
        display_id = (content.get("transient") or {}).get("display_id")
        if display_id and msg["header"]["msg_type"] in ("display_data", "execute_result"):
            bundle = {"data": content.get("data", {}), "metadata": content.get("metadata", {})}
            self._update_display(display_id, bundle)
            self.foreign_updates[display_id] = bundle
        return True

    def _clear(self) -> None:
        self.head.clear()
        self.tail.clear()
        self.head_bytes = self.tail_bytes = self.dropped_bytes = 0

    def _within_budget(self, content: dict[str, Any]) -> dict[str, Any]:
        bundle = {"data": content.get("data", {}), "metadata": content.get("metadata", {})}
        size = len(json.dumps(bundle["data"]))
        if size <= self.budget_bytes // 2:
            return bundle
        return {"data": {"text/plain": f"[nbcritic] display update of {size:,} bytes omitted "
                                       f"(cell output budget {self.budget_bytes:,} bytes)"},
                "metadata": {}}

    def _update_display(self, display_id: str, bundle: dict[str, Any]) -> None:
        for slot in (*self.head, *self.tail):
            if slot.display_id == display_id:
                slot.output["data"] = bundle["data"]
                slot.output["metadata"] = bundle["metadata"]

    def _add(self, out: NotebookNode, display_id: str | None) -> None:
        size = _size(out)
        half = self.budget_bytes // 2
        if not self.tail:
            last = self.head[-1].output if self.head else None
            if self.head_bytes + size <= half:
                if _same_stream(last, out):
                    last.text += out.text
                else:
                    self.head.append(_Slot(out, display_id))
                self.head_bytes += size
                return
            if out.output_type == "stream" and self.head_bytes < half:
                part = _first_bytes(out.text, half - self.head_bytes)
                if part:
                    if _same_stream(last, out):
                        last.text += part
                    else:
                        self.head.append(_Slot(new_output("stream", name=out.name, text=part)))
                    self.head_bytes += _utf8_len(part)
                    out = new_output("stream", name=out.name, text=out.text[len(part):])
                    size = _utf8_len(out.text)
        self._add_tail(out, size, display_id)

    def _add_tail(self, out: NotebookNode, size: int, display_id: str | None) -> None:
        room = self.budget_bytes - self.head_bytes
        last = self.tail[-1].output if self.tail else None
        if _same_stream(last, out):
            last.text += out.text
        else:
            self.tail.append(_Slot(out, display_id))
        self.tail_bytes += size
        while self.tail_bytes > room and self.tail:
            first = self.tail[0].output
            excess = self.tail_bytes - room
            if first.output_type == "stream" and _utf8_len(first.text) > excess:
                before = _utf8_len(first.text)
                first.text = _drop_bytes(first.text, excess)
                removed = before - _utf8_len(first.text)
            else:
                removed = _size(self.tail.popleft().output)
            self.tail_bytes -= removed
            self.dropped_bytes += removed


def _same_stream(last: NotebookNode | None, out: NotebookNode) -> TypeGuard[NotebookNode]:
    return (
        last is not None
        and out.output_type == "stream"
        and last.output_type == "stream"
        and last.name == out.name
    )
