"""Widget comms without a kernel: hand-made comm and output messages through an
OutputCollector with the kernel's WidgetComms attached (what nbclient's executor does)."""

from __future__ import annotations

import uuid
from typing import Any

from nbformat.v4 import new_notebook

from services.outputs import OutputCollector
from services.widgets import WIDGET_STATE_MIME, WidgetComms, store_widget_state
from tests.test_outputs import PARENT, _msg, clear, display, stream

OTHER_REQUEST = {"msg_id": "execute-request-2", "msg_type": "execute_request"}


def _comm(msg_type: str, comm_id: str, data: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return _msg(msg_type, comm_id=comm_id, data=data, **extra)


def open_output(comm_id: str = "out-1", outputs: list[Any] | None = None) -> dict[str, Any]:
    state = {"_model_module": "@jupyter-widgets/output", "_model_name": "OutputModel",
             "_model_module_version": "1.0.0", "msg_id": "", "outputs": outputs or [],
             "layout": "IPY_MODEL_layout-1"}
    return _comm("comm_open", comm_id, {"state": state, "buffer_paths": []},
                 target_name="jupyter.widget")


def set_msg_id(comm_id: str, msg_id: str) -> dict[str, Any]:
    return _comm("comm_msg", comm_id, {"method": "update", "state": {"msg_id": msg_id},
                                       "buffer_paths": []})


class Recorder:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    def __call__(self, comm_id: str, data: dict[str, Any], parent: dict[str, Any]) -> None:
        self.sent.append((comm_id, data, parent))


def _collector(widgets: WidgetComms, budget: int = 10_000) -> OutputCollector:
    return OutputCollector(budget, widgets=widgets)


def _feed(collector: OutputCollector, *messages: dict[str, Any]) -> None:
    for message in messages:
        collector.handle(message)


def _texts(outputs: list[Any]) -> list[str]:
    return [o.get("text", "") for o in outputs]


def _widget_outputs(widgets: WidgetComms, comm_id: str = "out-1") -> list[dict[str, Any]]:
    state = widgets.metadata()
    assert state is not None
    return state[WIDGET_STATE_MIME]["state"][comm_id]["state"]["outputs"]


def test_output_inside_the_widget_is_the_widgets_and_the_kernel_is_told() -> None:
    sent = Recorder()
    widgets = WidgetComms(sent)
    cell = _collector(widgets)
    _feed(cell, open_output(), stream("hi\n"), set_msg_id("out-1", PARENT["msg_id"]),
          stream("in output\n"), stream("more\n"))
    _feed(cell, set_msg_id("out-1", ""), stream("after\n"))
    assert _texts(cell.outputs()) == ["hi\nafter\n"]
    assert _widget_outputs(widgets) == [
        {"output_type": "stream", "name": "stdout", "text": "in output\nmore\n"}]
    assert sent.sent == []  # not while the request runs: only once it is over
    widgets.flush()
    widgets.flush()  # once
    [(comm_id, data, parent)] = sent.sent
    assert comm_id == "out-1" and parent == PARENT
    assert data["method"] == "update" and data["state"]["outputs"] == _widget_outputs(widgets)


def test_clear_output_inside_the_widget_leaves_the_cell_alone() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    _feed(cell, open_output(), stream("cell text\n"), set_msg_id("out-1", PARENT["msg_id"]),
          stream("hello\n"), clear(wait=True), stream("world\n"),
          stream("gone\n"), clear(wait=False), set_msg_id("out-1", ""))
    assert _texts(cell.outputs()) == ["cell text\n"]
    assert _widget_outputs(widgets) == []
    assert not cell.clear_pending


def test_wait_clear_without_new_output_keeps_the_widgets_outputs() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    _feed(cell, open_output(), set_msg_id("out-1", PARENT["msg_id"]), stream("in output2\n"),
          clear(wait=True), set_msg_id("out-1", ""), stream("cell\n"))
    assert _widget_outputs(widgets)[0]["text"] == "in output2\n"
    assert _texts(cell.outputs()) == ["cell\n"]


def test_nested_widgets_the_innermost_captures() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    _feed(cell, open_output("outer"), open_output("inner"),
          set_msg_id("inner", PARENT["msg_id"]), stream("in inner\n"),
          set_msg_id("outer", PARENT["msg_id"]), stream("in outer\n"),
          set_msg_id("outer", ""), stream("also in inner\n"), set_msg_id("inner", ""))
    assert _texts(_widget_outputs(widgets, "inner")) == ["in inner\nalso in inner\n"]
    assert _texts(_widget_outputs(widgets, "outer")) == ["in outer\n"]
    assert cell.outputs() == []


def test_an_error_inside_the_widget_is_not_the_cells_error() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    error = _msg("error", ename="ValueError", evalue="boom", traceback=["tb"])
    _feed(cell, open_output(), set_msg_id("out-1", PARENT["msg_id"]), error,
          set_msg_id("out-1", ""))
    assert cell.error is None and cell.outputs() == []
    assert _widget_outputs(widgets)[0]["ename"] == "ValueError"


def test_only_the_capturing_request_is_routed() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    _feed(cell, open_output(), set_msg_id("out-1", OTHER_REQUEST["msg_id"]), stream("mine\n"))
    assert _texts(cell.outputs()) == ["mine\n"]


def test_a_widget_made_by_an_earlier_cell_captures_in_a_later_one() -> None:
    widgets = WidgetComms()
    _feed(_collector(widgets), open_output())
    later = _collector(widgets)
    _feed(later, set_msg_id("out-1", PARENT["msg_id"]), stream("later\n"),
          set_msg_id("out-1", ""))
    assert later.outputs() == [] and _texts(_widget_outputs(widgets)) == ["later\n"]


def test_outputs_set_by_the_kernel_replace_the_widgets() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    appended = [{"output_type": "stream", "name": "stdout", "text": "appended\n"}]
    _feed(cell, open_output(outputs=[{"output_type": "stream", "name": "stdout",
                                      "text": "seed\n"}]),
          _comm("comm_msg", "out-1", {"method": "update", "state": {"outputs": appended},
                                      "buffer_paths": []}))
    assert _widget_outputs(widgets) == appended


def test_widget_outputs_stay_within_the_budget() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets, budget=1000)
    _feed(cell, open_output(), set_msg_id("out-1", PARENT["msg_id"]),
          *[stream(f"line {i:04d} " + "x" * 40 + "\n") for i in range(200)],
          set_msg_id("out-1", ""))
    kept = _widget_outputs(widgets)
    assert sum(len(o["text"]) for o in kept) < 1300
    assert any("output truncated" in o["text"] for o in kept)


def test_a_display_id_shown_in_a_widget_still_updates_the_cell() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    _feed(cell, display({"text/plain": "v1"}, display_id="d"), open_output(),
          set_msg_id("out-1", PARENT["msg_id"]), display({"text/plain": "v2"}, display_id="d"),
          set_msg_id("out-1", ""))
    assert [o["data"]["text/plain"] for o in cell.outputs()] == ["v2"]
    assert _widget_outputs(widgets)[0]["data"] == {"text/plain": "v2"}


def test_metadata_keeps_models_with_their_buffers_and_skips_other_comms() -> None:
    widgets = WidgetComms()
    cell = _collector(widgets)
    label = {"_model_module": "@jupyter-widgets/controls", "_model_name": "LabelModel",
             "_model_module_version": "2.0.0", "value": "Hello World"}
    image = {"_model_module": "@jupyter-widgets/controls", "_model_name": "ImageModel",
             "_model_module_version": "2.0.0"}
    _feed(cell,
          _comm("comm_open", "label", {"state": label, "buffer_paths": []},
                target_name="jupyter.widget"),
          _comm("comm_msg", "label", {"method": "custom", "content": {"msg": "Hello"}}),
          _comm("comm_open", "image", {"state": image, "buffer_paths": [["value"]]},
                target_name="jupyter.widget") | {"buffers": [b"\x89PNG"]},
          _comm("comm_open", "other", {"id": "foo"}, target_name="no-such-handler"),
          _comm("comm_open", "stateful", {"state": {"x": 1}}, target_name="some-comm"))
    state = widgets.metadata()
    assert state is not None
    body = state[WIDGET_STATE_MIME]
    assert (body["version_major"], body["version_minor"]) == (2, 0)
    assert list(body["state"]) == ["label", "image"]
    assert body["state"]["label"] == {"model_name": "LabelModel",
                                      "model_module": "@jupyter-widgets/controls",
                                      "model_module_version": "2.0.0", "state": label}
    assert body["state"]["image"]["buffers"] == [
        {"data": "iVBORw==", "encoding": "base64", "path": ["value"]}]
    assert cell.outputs() == []


def test_store_widget_state_replaces_only_when_the_kernel_has_models() -> None:
    nb = new_notebook()
    nb.metadata["widgets"] = {"stale": True}
    store_widget_state(nb, WidgetComms())
    assert nb.metadata["widgets"] == {"stale": True}  # nbclient keeps it too
    widgets = WidgetComms()
    _feed(_collector(widgets), open_output(comm_id=uuid.uuid4().hex))
    store_widget_state(nb, widgets)
    assert list(nb.metadata["widgets"]) == [WIDGET_STATE_MIME]
