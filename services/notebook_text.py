"""A notebook's on-disk text, as `nbformat.v4.nbjson.writes` makes it, byte for byte, with
only the cells not seen before serialised.

The store never changes a cached notebook in place: an update shares every cell it did not
touch with the previous version (copy on write). So a cell object seen at the last write
has the same text now, and a write after one cell ran costs that cell, not the notebook
(`nbjson.writes` deep-copies the whole notebook and runs json's pure-Python indenting
encoder over all of it: ~100 ms for a few hundred cells).

How the pieces fit: with `indent=1` and sorted keys, `cells` is the notebook's first key and
each cell sits two levels deep, so a cell's text is its own dump with every line break
followed by two more spaces (JSON strings hold no raw line breaks).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from nbformat import NotebookNode
from nbformat.v4.nbjson import BytesEncoder
from nbformat.v4.rwbase import split_lines, strip_transient

_DUMP: dict[str, Any] = {"cls": BytesEncoder, "indent": 1, "sort_keys": True,
                         "separators": (",", ": "), "ensure_ascii": False}
_EMPTY_CELLS = '"cells": []'


class NotebookText:
    """Per notebook, the text of each cell object at its last write."""

    def __init__(self) -> None:
        self._cells: dict[str, dict[int, tuple[NotebookNode, str]]] = {}

    def text(self, notebook_id: str, nb: NotebookNode) -> str:
        """What `nbjson.writes(nb)` returns."""
        seen = self._cells.get(notebook_id, {})
        now: dict[int, tuple[NotebookNode, str]] = {}
        texts = []
        for cell in nb.cells:
            kept = seen.get(id(cell))
            if kept is None or kept[0] is not cell:
                kept = (cell, cell_text(cell))  # the object is held, so its id stays its own
            now[id(cell)] = kept
            texts.append(kept[1])
        self._cells[notebook_id] = now
        return join(nb, texts)

    def forget(self, notebook_id: str) -> None:
        self._cells.pop(notebook_id, None)


def cell_text(cell: NotebookNode) -> str:
    one = NotebookNode(cells=[copy.deepcopy(cell)], metadata=NotebookNode())
    dumped = json.dumps(strip_transient(split_lines(one)).cells[0], **_DUMP)
    return dumped.replace("\n", "\n  ")


def join(nb: NotebookNode, cell_texts: list[str]) -> str:
    rest = NotebookNode({k: copy.deepcopy(v) for k, v in nb.items() if k != "cells"})
    rest.cells = []
    head = json.dumps(strip_transient(rest), **_DUMP)
    if not cell_texts:
        return head
    start = head.index(_EMPTY_CELLS)  # the first key: `{\n "cells": [],\n ...`
    cells = '"cells": [\n  ' + ",\n  ".join(cell_texts) + "\n ]"
    return head[:start] + cells + head[start + len(_EMPTY_CELLS):]
