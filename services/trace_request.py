"""The service's side of the analysis trace: the expressions that install the kernel-side
recorder (`analysis_trace`, once per kernel process, before the first reviewed cell runs)
and read the trace of the cell that just ran, and the same for code run in this process."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from . import analysis_trace

CATALOGUE = (Path(__file__).with_name("trace_catalogue.json")).read_text()
_SOURCE = inspect.getsource(analysis_trace)
_MODULE = "_nbcritic_trace"

# The recorder's frames sit between a cell and the library calls it makes. A warning raised
# with `stacklevel` would name the recorder's line instead of the cell's; CPython's warnings
# (C and Python) step over frames whose file name holds both "importlib" and "_bootstrap",
# so the recorder's code is compiled under such a name and warnings still point at the cell.
TRACE_FILENAME = "<nbcritic-trace importlib._bootstrap>"
INSTALL_EXPRESSION = (
    f"(lambda s, t: s.modules.get({_MODULE!r}) or (lambda m: (exec(compile({_SOURCE!r}, "
    f"{TRACE_FILENAME!r}, 'exec'), m.__dict__), s.modules.__setitem__({_MODULE!r}, m), "
    f"m)[2])(t.ModuleType({_MODULE!r})))(__import__('sys'), __import__('types'))"
    f".install({CATALOGUE!r}, get_ipython().user_ns, get_ipython())"
)
EXPORT_EXPRESSION = f"__import__('sys').modules[{_MODULE!r}].export()"


def install_in_process(user_ns: dict[str, Any] | None = None, shell: Any = None) -> bool:
    """Install the recorder in this process (the magics' local mode, the in-process evidence
    of tests and bench); with `shell`, it records every cell that shell runs. True when this
    call installed it."""
    return analysis_trace.install(CATALOGUE, user_ns, shell)


def begin_in_process(fresh: bool = False) -> None:
    analysis_trace.begin(fresh)


def export_in_process() -> dict[str, Any]:
    return json.loads(analysis_trace.export())


def in_cell_lines(trace: dict[str, Any], code: str) -> dict[str, Any]:
    """IPython drops a cell's leading blank lines before it compiles the cell, so the
    recorder's line numbers count from the first non-blank line: shift this cell's events
    back to the lines of the code as written (what the rules and the user read)."""
    lines = code.splitlines()
    shift = next((i for i, line in enumerate(lines) if line and not line.isspace()), 0)
    if shift:
        for event in trace.get("events", []):
            if isinstance(event.get("line"), int):
                event["line"] += shift
    return trace

