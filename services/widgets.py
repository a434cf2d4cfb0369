"""Jupyter widgets as a frontend sees them: widget state from comm messages, and the
`Output` widget, which takes the output of the code run inside it (`with out:`).

One `WidgetComms` per kernel process (it lives on the KernelSession): a widget created by one
cell is used by later ones. It does what nbclient's executor does (`handle_comm_msg`,
`OutputWidget`, `set_widgets_metadata`):

- every comm message that carries `state` updates that comm's state (buffers kept by path);
  the models among them are written to the notebook's `metadata.widgets`, so the widget views
  in the outputs render when the file is opened in JupyterLab;
- an Output widget whose `msg_id` is set captures every output and `clear_output` of that
  request (the innermost one when nested); once the request is over (`flush`, called by the
  session after the execute reply), what it captured is sent back to the kernel as a state
  update, so `out.outputs` holds it in the next cell, as in JupyterLab (a sync cell's kernel
  reads comm messages only between requests anyway). nbclient sends that update after every
  output, on the shell socket it is waiting on for the execute reply; now and then it then
  notices the reply only at its timeout (measured: about 1 run in 8 of
  tests/parity_notebooks/widget_output.ipynb stalls for exactly the cell timeout).

An Output widget's outputs go through an `OutputCollector` of their own, so they merge streams,
defer `clear_output(wait=True)` and stay within the cell output budget like a cell's.
"""

from __future__ import annotations

import base64
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nbformat import NotebookNode, from_dict

from .outputs import OutputCollector

WIDGET_STATE_MIME = "application/vnd.jupyter.widget-state+json"
WIDGET_TARGET = "jupyter.widget"
OUTPUT_MODEL = ("@jupyter-widgets/output", "OutputModel")
CAPTURED = {"stream", "display_data", "execute_result", "error", "clear_output"}

# (comm id, comm data, parent header) -> a comm_msg sent to the kernel
CommSender = Callable[[str, dict[str, Any], dict[str, Any]], None]


@dataclass
class OutputWidget:
    """The frontend side of one `ipywidgets.Output`."""

    comm_id: str
    area: OutputCollector
    msg_id: str = ""
    changed: bool = False  # captured something the kernel has not been told about
    parent: dict[str, Any] = field(default_factory=dict)  # the request it captured for


@dataclass
class WidgetComms:
    send: CommSender | None = None
    state: dict[str, dict[str, Any]] = field(default_factory=dict)  # comm id -> state
    buffers: dict[str, dict[tuple[str, ...], dict[str, Any]]] = field(default_factory=dict)
    outputs: dict[str, OutputWidget] = field(default_factory=dict)  # Output widgets
    hooks: dict[str, list[OutputWidget]] = field(default_factory=lambda: defaultdict(list))

    def handle_comm(self, msg: dict[str, Any], budget_bytes: int) -> None:
        """A comm_open / comm_msg / comm_close of the running request."""
        content = msg["content"]
        comm_id = content.get("comm_id")
        data = content.get("data") or {}
        if not comm_id or not isinstance(data, dict):
            return
        if isinstance(data.get("state"), dict):  # custom messages carry no state
            self.state.setdefault(comm_id, {}).update(data["state"])
            self._keep_buffers(comm_id, msg)
        msg_type = msg["header"]["msg_type"]
        if msg_type == "comm_open" and content.get("target_name") == WIDGET_TARGET:
            self._open(comm_id, data.get("state") or {}, budget_bytes)
        elif msg_type == "comm_msg" and comm_id in self.outputs:
            self._update_output(self.outputs[comm_id], data.get("state"), msg)

    def capture(self, msg: dict[str, Any]) -> bool:
        """Give an output (or clear_output) to the Output widget capturing its request;
        False when none is, and the output belongs to the cell."""
        if msg["header"]["msg_type"] not in CAPTURED:
            return False
        stack = self.hooks.get(msg["parent_header"].get("msg_id", ""))
        if not stack:
            return False
        widget = stack[-1]
        widget.area.handle(_without_display_id(msg))
        widget.changed, widget.parent = True, msg["parent_header"]
        return True

    def flush(self) -> None:
        """Tell the kernel what each Output widget captured (between requests only)."""
        for widget in self.outputs.values():
            if widget.changed and self.send is not None:
                widget.changed = False
                self.send(widget.comm_id, {"method": "update", "buffer_paths": [], "state": {
                    "outputs": _plain(widget.area.outputs())}}, widget.parent)

    def metadata(self) -> dict[str, Any] | None:
        """`metadata.widgets` as nbclient writes it; None when no widget model exists."""
        models = {comm_id: self._serialise(comm_id, state)
                  for comm_id, state in self.state.items() if "_model_name" in state}
        if not models:
            return None
        return {WIDGET_STATE_MIME: {"state": models, "version_major": 2, "version_minor": 0}}

    # -- internals ---------------------------------------------------------------------

    def _open(self, comm_id: str, state: dict[str, Any], budget_bytes: int) -> None:
        if (state.get("_model_module"), state.get("_model_name")) != OUTPUT_MODEL:
            return
        area = OutputCollector(budget_bytes)
        area.replace(state.get("outputs") or [])
        self.outputs[comm_id] = OutputWidget(comm_id, area)

    def _update_output(self, widget: OutputWidget, state: Any, msg: dict[str, Any]) -> None:
        if not isinstance(state, dict):
            return
        if isinstance(state.get("outputs"), list):  # set by the kernel: append_stdout & co.
            widget.area.replace(state["outputs"])
        if "msg_id" not in state:
            return
        msg_id = state["msg_id"] or ""
        if widget.msg_id:
            self._release(widget)
        widget.msg_id = msg_id
        if msg_id:
            self.hooks[msg_id].append(widget)

    def _release(self, widget: OutputWidget) -> None:
        stack = self.hooks.get(widget.msg_id, [])
        if widget in stack:
            stack.remove(widget)
        if not stack:
            self.hooks.pop(widget.msg_id, None)

    def _keep_buffers(self, comm_id: str, msg: dict[str, Any]) -> None:
        paths = msg["content"]["data"].get("buffer_paths") or []
        if not paths:
            return
        kept = self.buffers.setdefault(comm_id, {})
        for path, buffer in zip(paths, msg.get("buffers") or [], strict=False):
            kept[tuple(path)] = {"data": base64.b64encode(bytes(buffer)).decode("ascii"),
                                 "encoding": "base64", "path": path}

    def _serialise(self, comm_id: str, state: dict[str, Any]) -> dict[str, Any]:
        if comm_id in self.outputs:
            state = {**state, "outputs": _plain(self.outputs[comm_id].area.outputs())}
        model = {"model_name": state.get("_model_name"),
                 "model_module": state.get("_model_module"),
                 "model_module_version": state.get("_model_module_version"),
                 "state": state}
        buffers = self.buffers.get(comm_id)
        if buffers:
            model["buffers"] = list(buffers.values())
        return model


def store_widget_state(nb: NotebookNode, widgets: WidgetComms | None) -> None:
    """Write the kernel's widget state into `nb.metadata.widgets` (as nbclient's
    `store_widget_state` does: only when the kernel has widget models, so a run without any
    keeps the notebook's own)."""
    state = widgets.metadata() if widgets is not None else None
    if state is not None:
        nb.metadata["widgets"] = from_dict(state)


def _plain(outputs: list[NotebookNode]) -> list[dict[str, Any]]:
    return [dict(output) for output in outputs]


def _without_display_id(msg: dict[str, Any]) -> dict[str, Any]:
    """An Output widget keeps outputs, not display ids (nbclient's does not track them)."""
    content = msg["content"]
    if not content.get("transient"):
        return msg
    return {**msg, "content": {**content, "transient": {}}}
