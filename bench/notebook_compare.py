"""Two executions of one notebook, compared cell by cell after normalisation.

Normalised only where two correct executors legitimately differ (nbclient's own test suite
normalises the same way, `tests/test_client.py::normalize_output`):

- consecutive chunks of one stream are one output (nbclient keeps one output per IOPub chunk,
  nbcritic and the Jupyter frontends merge them);
- ANSI colours, `Cell In[3], line 2` / `<ipython-input-...>` and ipykernel's per-process cell
  file names in tracebacks; object addresses (`0x7f...`); ISO timestamps;
- base64 payloads re-encoded (line breaks); widget model ids (random) renamed by where the model
  is shown (in outputs, `IPY_MODEL_` references and `metadata.widgets` alike).

Execution counts, output metadata and the widget state (`metadata.widgets`) are compared too.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from typing import Any

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
SUBSTITUTIONS = [
    (re.compile(r"<ipython-input-\d+-[0-9a-f]+>"), "<IPY-INPUT>"),
    (re.compile(r"(Cell|Input) In\s?\[\d+\]"), "<IPY-INPUT>"),
    (re.compile(r"/[^\s:'\"]*/ipykernel_\d+/\d+\.py"), "<CELL-FILE>"),
    (re.compile(r"0x[0-9a-f]{7,16}"), "<HEXADDR>"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?"), "<TIMESTAMP>"),
]


@dataclass
class CellParity:
    index: int
    same: bool
    detail: str = ""  # what differs, when something does


@dataclass
class NotebookParity:
    cells: list[CellParity] = field(default_factory=list)
    widget_state_same: bool | None = None  # None: the reference wrote no widget state

    @property
    def differing(self) -> list[CellParity]:
        return [cell for cell in self.cells if not cell.same]


def compare(reference: dict[str, Any], ours: dict[str, Any], *,
            widget_state: bool = True) -> NotebookParity:
    """Code cells and (unless asked not to: nbclient writes none when it raises) widget
    state of two executions of the same notebook."""
    ref_names, our_names = _model_names(reference), _model_names(ours)
    result = NotebookParity()
    pairs = zip(reference["cells"], ours["cells"], strict=True)
    for index, (theirs, mine) in enumerate(pairs):
        if theirs["cell_type"] != "code":
            continue
        result.cells.append(_compare_cell(index, _cell(theirs, ref_names), _cell(mine, our_names)))
    ref_state = reference["metadata"].get("widgets")
    if widget_state and ref_state is not None:
        result.widget_state_same = (_widgets(ref_state, ref_names)
                                    == _widgets(ours["metadata"].get("widgets"), our_names))
    return result


def _compare_cell(index: int, theirs: dict[str, Any], mine: dict[str, Any]) -> CellParity:
    if theirs == mine:
        return CellParity(index, True)
    if theirs["execution_count"] != mine["execution_count"]:
        detail = f"execution_count {theirs['execution_count']} vs {mine['execution_count']}"
    else:
        detail = f"outputs {_brief(theirs['outputs'])} vs {_brief(mine['outputs'])}"
    return CellParity(index, False, detail)


def _cell(cell: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {"execution_count": cell.get("execution_count"),
            "outputs": normalise_outputs(cell.get("outputs", []), names)}


def normalise_outputs(outputs: list[dict[str, Any]], names: dict[str, str]) -> list[Any]:
    merged: list[dict[str, Any]] = []
    for output in json.loads(json.dumps(outputs)):  # plain data, a copy
        last = merged[-1] if merged else None
        if (last is not None and output.get("output_type") == "stream"
                and last.get("output_type") == "stream" and last["name"] == output["name"]):
            last["text"] += output["text"]
        else:
            merged.append(output)
    return [_normalise_output(output, names) for output in merged]


def _normalise_output(output: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    output.pop("transient", None)
    if "text" in output:
        output["text"] = _text(output["text"])
    if "traceback" in output:
        output["traceback"] = [_text(ANSI.sub("", line)) for line in output["traceback"]]
    if "evalue" in output:
        output["evalue"] = _text(output["evalue"])
    data = output.get("data", {})
    for mime, value in data.items():
        if isinstance(value, str):
            data[mime] = _b64(value) if mime.startswith("image/") and "svg" not in mime \
                else _text(value)
    return _rename(output, names)


def _text(text: Any) -> Any:
    if isinstance(text, list):
        text = "".join(text)
    for pattern, replacement in SUBSTITUTIONS:
        text = pattern.sub(replacement, text)
    return text


def _b64(value: str) -> str:
    try:
        return base64.b64encode(base64.b64decode(value)).decode("ascii")
    except (binascii.Error, ValueError):
        return value


def _model_names(nb: dict[str, Any]) -> dict[str, str]:
    """Model id -> a name from where it is shown: `c3o0` for the view in cell 3's first
    output, `c3o0.layout0` for the model its `layout` refers to, and so on. Models no view
    reaches are named by their content (ids masked). Key order cannot serve: nbclient keeps
    the kernel's order in memory, nbformat sorts keys on disk."""
    state = ((nb["metadata"].get("widgets") or {}).get(WIDGET_STATE) or {}).get("state") or {}
    names: dict[str, str] = {}
    for i, cell in enumerate(nb["cells"]):
        for j, output in enumerate(cell.get("outputs", [])):
            for k, model_id in enumerate(_views([output])):
                _name_tree(model_id, f"c{i}o{j}v{k}", state, names)
    rest = [m for m in state if m not in names]
    for k, model_id in enumerate(sorted(rest, key=lambda m: _masked(state[m]))):
        names[model_id] = f"free{k}"
    return names


def _name_tree(model_id: str, name: str, state: dict[str, Any], names: dict[str, str]) -> None:
    if model_id in names:
        return
    names[model_id] = name
    model = (state.get(model_id) or {}).get("state") or {}
    for key in sorted(model):
        value = model[key]
        refs = [v for v in (value if isinstance(value, list) else [value])
                if isinstance(v, str) and v.startswith("IPY_MODEL_")]
        for k, ref in enumerate(refs):
            _name_tree(ref[len("IPY_MODEL_"):], f"{name}.{key}{k}", state, names)
    if isinstance(model.get("outputs"), list):  # widgets shown inside an Output widget
        for k, shown in enumerate(_views(model["outputs"])):
            _name_tree(shown, f"{name}.out{k}", state, names)


def _views(outputs: list[Any]) -> list[str]:
    found = []
    for output in outputs:
        view = output.get("data", {}).get(WIDGET_VIEW) if isinstance(output, dict) else None
        if isinstance(view, dict) and isinstance(view.get("model_id"), str):
            found.append(view["model_id"])
    return found


def _masked(model: Any) -> str:
    return re.sub(r"IPY_MODEL_[0-9a-f]+", "IPY_MODEL_", json.dumps(model, sort_keys=True))


def _rename(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, str):
        if value in names:
            return names[value]
        if value.startswith("IPY_MODEL_") and value[10:] in names:
            return "IPY_MODEL_" + names[value[10:]]
    return value


def _widgets(widgets: Any, names: dict[str, str]) -> Any:
    """The widget state with model ids renamed and Output widgets' outputs normalised."""
    if not isinstance(widgets, dict):
        return widgets
    widgets = json.loads(json.dumps(widgets))
    for model in ((widgets.get(WIDGET_STATE) or {}).get("state") or {}).values():
        state = model.get("state", {})
        if isinstance(state.get("outputs"), list):
            state["outputs"] = normalise_outputs(state["outputs"], names)
    return _rename(widgets, names)


def _brief(outputs: list[dict[str, Any]]) -> str:
    text = json.dumps(outputs, ensure_ascii=False)
    return text if len(text) <= 300 else text[:297] + "..."
