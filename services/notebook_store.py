"""Notebooks as .ipynb files: validated on every write, written atomically, one lock each."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import re
import tempfile
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import nbformat
from nbformat import NotebookNode
from nbformat.v4 import nbjson, new_notebook
from nbformat.v4.nbbase import random_cell_id

T = TypeVar("T")

NOTEBOOK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
LARGE_WRITE = 256 * 1024  # above this, serialise and write in a worker thread


class NotebookNotFound(LookupError):
    pass


class CellNotFound(LookupError):
    pass


class NotebookExists(Exception):
    pass


class InvalidNotebookId(ValueError):
    pass


class InvalidNotebook(ValueError):
    """The content is not a valid nbformat 4 notebook; the message is nbformat's."""


def check_notebook_id(notebook_id: str) -> str:
    if not NOTEBOOK_ID.match(notebook_id) or ".." in notebook_id:
        raise InvalidNotebookId(
            f"invalid notebook id {notebook_id!r}: use 1-128 letters, digits, '_', '-', '.', "
            "starting with a letter or digit, no '..'"
        )
    return notebook_id


def parse_notebook(content: str | bytes | dict[str, Any]) -> NotebookNode:
    """Read any nbformat 4.x notebook, upgrade it to 4.5 (cell ids), validate it."""
    try:
        raw = content if isinstance(content, dict) else json.loads(content)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidNotebook(f"not JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise InvalidNotebook("a notebook is a JSON object")
    if raw.get("nbformat") != 4:
        raise InvalidNotebook(f"only nbformat 4 is supported, got nbformat={raw.get('nbformat')!r}")
    _validate(copy.deepcopy(raw))  # first: rejoining lines assumes a sane structure
    nb = nbjson.JSONReader().to_notebook(copy.deepcopy(raw))  # rejoins line lists
    if nb.get("nbformat_minor", 0) < 5:
        nb.nbformat_minor = 5
        for cell in nb.cells:
            cell.setdefault("id", random_cell_id())
    _validate(nb)
    return nb


def _validate(nb: NotebookNode | dict[str, Any]) -> None:
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as exc:
        raise InvalidNotebook(str(exc.message)) from exc
    except (KeyError, TypeError, AttributeError) as exc:  # nbformat trips on some shapes
        raise InvalidNotebook(f"malformed notebook structure ({type(exc).__name__}: {exc})"
                              ) from exc


def find_cell(nb: NotebookNode, cell_id: str) -> tuple[int, NotebookNode]:
    for index, cell in enumerate(nb.cells):
        if cell.get("id") == cell_id:
            return index, cell
    raise CellNotFound(cell_id)


@dataclass
class _Cached:
    nb: NotebookNode
    mtime_ns: int


class NotebookStore:
    def __init__(self, root: Path, *, fsync: bool = True):
        self.root = root
        self.root.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self._locks: dict[str, asyncio.Lock] = {}
        self._cache: dict[str, _Cached] = {}

    def path(self, notebook_id: str) -> Path:
        check_notebook_id(notebook_id)
        path = (self.root / f"{notebook_id}.ipynb").resolve()
        if path.parent != self.root.resolve():
            raise InvalidNotebookId(f"invalid notebook id {notebook_id!r}")
        return path

    def lock(self, notebook_id: str) -> asyncio.Lock:
        return self._locks.setdefault(notebook_id, asyncio.Lock())

    def exists(self, notebook_id: str) -> bool:
        return self.path(notebook_id).is_file()

    def list_ids(self) -> list[str]:
        return sorted(p.stem for p in self.root.glob("*.ipynb") if NOTEBOOK_ID.match(p.stem))

    def read(self, notebook_id: str) -> NotebookNode:
        """A deep copy of the current notebook (callers may mutate it freely)."""
        return copy.deepcopy(self._load(notebook_id))

    async def create(self, notebook_id: str | None, nb: NotebookNode | None = None) -> str:
        notebook_id = check_notebook_id(notebook_id or uuid.uuid4().hex[:12])
        nb = nb if nb is not None else new_notebook()
        nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3",
                                              "language": "python"})
        async with self.lock(notebook_id):
            if self.exists(notebook_id):
                raise NotebookExists(notebook_id)
            await self._write(notebook_id, nb)
        return notebook_id

    async def update(self, notebook_id: str, change: Callable[[NotebookNode], T]) -> T:
        """Read-modify-write under the notebook's lock; nothing is written if `change` raises."""
        async with self.lock(notebook_id):
            nb = self.read(notebook_id)
            result = change(nb)
            await self._write(notebook_id, nb)
            return result

    async def delete(self, notebook_id: str) -> None:
        async with self.lock(notebook_id):
            path = self.path(notebook_id)
            if not path.is_file():
                raise NotebookNotFound(notebook_id)
            path.unlink()
            self._cache.pop(notebook_id, None)
        self._locks.pop(notebook_id, None)

    # -- internals ---------------------------------------------------------------------

    def _load(self, notebook_id: str) -> NotebookNode:
        path = self.path(notebook_id)
        try:
            mtime = path.stat().st_mtime_ns
        except FileNotFoundError:
            self._cache.pop(notebook_id, None)
            raise NotebookNotFound(notebook_id) from None
        cached = self._cache.get(notebook_id)
        if cached and cached.mtime_ns == mtime:
            return cached.nb
        nb = parse_notebook(path.read_bytes())
        self._cache[notebook_id] = _Cached(nb, mtime)
        return nb

    async def _write(self, notebook_id: str, nb: NotebookNode) -> None:
        _validate(nb)
        path = self.path(notebook_id)
        text = nbjson.writes(nb) + "\n"  # Jupyter's on-disk form: sources as line lists
        if len(text) > LARGE_WRITE:
            mtime = await asyncio.to_thread(self._write_file, path, text)
        else:
            mtime = self._write_file(path, text)
        self._cache[notebook_id] = _Cached(copy.deepcopy(nb), mtime)

    def _write_file(self, path: Path, text: str) -> int:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                if self.fsync:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path.stat().st_mtime_ns
