"""Notebooks as .ipynb files: validated on every write, written atomically, one lock each."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import re
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import nbformat
from nbformat import NotebookNode
from nbformat.v4 import nbjson, new_notebook
from nbformat.v4.nbbase import random_cell_id

from .notebook_repair import repair_notebook
from .notebook_text import NotebookText

T = TypeVar("T")
log = logging.getLogger(__name__)

WRITE_BEHIND_DELAY = 0.05  # seconds a background write waits to coalesce changes, at least
WRITE_BEHIND_SHARE = 0.05  # and long enough that writing a big notebook takes <= 5 % of the time
WRITE_BEHIND_MAX = 2.0  # but never longer (the journal replays anything a kill cut off)
DEFAULT_KERNEL = "python3"
META = "nbcritic"  # the notebook metadata key this service owns (as cell_metadata.META)
NOTEBOOK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\Z")  # \Z: "$" allows a final \n


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


def parse_notebook(content: str | bytes | dict[str, Any], *,
                   kernel_name: str = DEFAULT_KERNEL) -> NotebookNode:
    """Read any nbformat 4.x notebook, upgrade it to 4.5 (cell ids), validate it.

    Leniently, where Jupyter is (`notebook_repair`): what was filled in is listed under
    `metadata.nbcritic.load_warnings` and logged; anything else invalid is refused.
    """
    try:
        raw = content if isinstance(content, dict) else json.loads(content)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidNotebook(f"not JSON: {exc}") from exc
    if not isinstance(raw, dict):
        raise InvalidNotebook("a notebook is a JSON object")
    if raw.get("nbformat") != 4:
        raise InvalidNotebook(f"only nbformat 4 is supported, got nbformat={raw.get('nbformat')!r}")
    raw = copy.deepcopy(raw)
    repairs = repair_notebook(raw, kernel_name)
    _validate(copy.deepcopy(raw))  # first: rejoining lines assumes a sane structure
    nb = nbjson.JSONReader().to_notebook(raw)  # rejoins line lists
    if nb.get("nbformat_minor", 0) < 5:
        nb.nbformat_minor = 5
        for cell in nb.cells:
            cell.setdefault("id", random_cell_id())
    _validate(nb)
    if repairs:
        _keep_load_warnings(nb, repairs)
    return nb


def _keep_load_warnings(nb: NotebookNode, repairs: list[str]) -> None:
    log.info("notebook loaded leniently: %s", "; ".join(repairs))
    own = nb.metadata.get(META)
    if not isinstance(own, dict):
        own = nb.metadata[META] = NotebookNode()
    own["load_warnings"] = repairs


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
    nb: NotebookNode  # never mutated in place: every change replaces it (copy on write)
    version: int
    mtime_ns: int | None  # of the file holding this version; None while not yet written


class NotebookStore:
    """Reads come from memory (re-read when the file changed under us); writes are atomic.

    `update(durable=True)` returns once the file is renamed into place. `durable=False` returns
    at once and writes in the background, coalescing bursts: callers use it only for changes
    the journal can replay (execution results), since a rename on ext4 costs ~1.5 ms.
    """

    def __init__(self, root: Path, *, fsync: bool = True, kernel_name: str = DEFAULT_KERNEL):
        self.root = root
        self.kernel_name = kernel_name  # filled into a kernelspec without a name
        self.root.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self._locks: dict[str, asyncio.Lock] = {}
        self._write_locks: dict[str, asyncio.Lock] = {}
        self._cache: dict[str, _Cached] = {}
        self._written: dict[str, int] = {}  # version on disk
        self.written_seq: dict[str, int] = {}  # journal seq of the results the file holds
        self._flushes: dict[str, asyncio.Task[None]] = {}
        self._versions = 0
        self._text = NotebookText()  # serialises only the cells a change touched
        self._write_seconds: dict[str, float] = {}  # what the last write of each took

    def path(self, notebook_id: str) -> Path:
        check_notebook_id(notebook_id)
        path = (self.root / f"{notebook_id}.ipynb").resolve()
        if path.parent != self.root.resolve():
            raise InvalidNotebookId(f"invalid notebook id {notebook_id!r}")
        return path

    def lock(self, notebook_id: str) -> asyncio.Lock:
        return self._locks.setdefault(notebook_id, asyncio.Lock())

    def exists(self, notebook_id: str) -> bool:
        return notebook_id in self._cache or self.path(notebook_id).is_file()

    def list_ids(self) -> list[str]:
        on_disk = {p.stem for p in self.root.glob("*.ipynb") if NOTEBOOK_ID.match(p.stem)}
        return sorted(on_disk | set(self._cache))

    def read(self, notebook_id: str) -> NotebookNode:
        """A deep copy of the current notebook (callers may mutate it freely)."""
        return copy.deepcopy(self._load(notebook_id))

    def peek(self, notebook_id: str) -> NotebookNode:
        """The current notebook itself, not a copy: read it, never change it."""
        return self._load(notebook_id)

    def read_cell(self, notebook_id: str, cell_id: str) -> NotebookNode:
        return copy.deepcopy(find_cell(self._load(notebook_id), cell_id)[1])

    async def create(self, notebook_id: str | None, nb: NotebookNode | None = None) -> str:
        notebook_id = check_notebook_id(notebook_id or uuid.uuid4().hex[:12])
        nb = nb if nb is not None else new_notebook()
        nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3",
                                              "language": "python"})
        _validate(nb)
        async with self.lock(notebook_id):
            if self.exists(notebook_id):
                raise NotebookExists(notebook_id)
            self._put(notebook_id, nb)
            try:
                await self._flush(notebook_id)
            except BaseException:
                self._cache.pop(notebook_id, None)
                raise
        return notebook_id

    async def update(self, notebook_id: str, change: Callable[[NotebookNode], T],
                     *, durable: bool = True, touches: str | None = None) -> T:
        """Read-modify-write under the notebook's lock; nothing changes if `change` raises or
        the result is not a valid notebook.

        `touches`: the id of the only cell `change` modifies (besides notebook metadata);
        the other cells are shared with the previous version instead of deep-copied.
        """
        async with self.lock(notebook_id):
            nb = self._copy_for_change(notebook_id, touches)
            result = change(nb)
            _validate(_changed_part(nb, touches))
            previous = self._cache.get(notebook_id)
            self._put(notebook_id, nb)
            if durable:
                try:
                    await self._flush(notebook_id)
                except BaseException:  # the file still holds the previous version
                    if previous is not None:
                        self._cache[notebook_id] = previous
                    raise
            else:
                self._schedule_flush(notebook_id)
            return result

    async def delete(self, notebook_id: str) -> None:
        async with self.lock(notebook_id), self._write_lock(notebook_id):
            path = self.path(notebook_id)
            if not path.is_file() and notebook_id not in self._cache:
                raise NotebookNotFound(notebook_id)
            path.unlink(missing_ok=True)
            self._cache.pop(notebook_id, None)
            self._written.pop(notebook_id, None)
            self.written_seq.pop(notebook_id, None)
            self._text.forget(notebook_id)
            self._write_seconds.pop(notebook_id, None)
        self._locks.pop(notebook_id, None)

    async def flush_all(self) -> None:
        """Write every pending change (at shutdown)."""
        for notebook_id in list(self._cache):
            try:
                await self._flush(notebook_id)
            except Exception:
                log.exception("could not write notebook %s", notebook_id)

    # -- internals ---------------------------------------------------------------------

    def _copy_for_change(self, notebook_id: str, touches: str | None) -> NotebookNode:
        current = self._load(notebook_id)
        if touches is None:
            return copy.deepcopy(current)
        nb = NotebookNode({k: v for k, v in current.items() if k not in ("cells", "metadata")})
        nb.metadata = copy.deepcopy(current.metadata)
        nb.cells = [copy.deepcopy(c) if c.get("id") == touches else c for c in current.cells]
        return nb

    def _write_behind_delay(self, notebook_id: str) -> float:
        """Coalesce more results into one write as the notebook's writes get slower, so a
        notebook of many cells does not make each result cost more (bounded by the max)."""
        last = self._write_seconds.get(notebook_id, 0.0)
        return min(WRITE_BEHIND_MAX, max(WRITE_BEHIND_DELAY, last / WRITE_BEHIND_SHARE))

    def _write_lock(self, notebook_id: str) -> asyncio.Lock:
        return self._write_locks.setdefault(notebook_id, asyncio.Lock())

    def _put(self, notebook_id: str, nb: NotebookNode) -> None:
        self._versions += 1
        self._cache[notebook_id] = _Cached(nb, self._versions, None)

    def _load(self, notebook_id: str) -> NotebookNode:
        cached = self._cache.get(notebook_id)
        if cached and cached.mtime_ns is None:
            return cached.nb  # newer than the file: a background write is pending
        path = self.path(notebook_id)
        try:
            mtime = path.stat().st_mtime_ns
        except FileNotFoundError:
            self._cache.pop(notebook_id, None)
            raise NotebookNotFound(notebook_id) from None
        if cached and cached.mtime_ns == mtime:
            return cached.nb
        # first read, or edited outside the service
        nb = parse_notebook(path.read_bytes(), kernel_name=self.kernel_name)
        self._versions += 1
        self._cache[notebook_id] = _Cached(nb, self._versions, mtime)
        self._written[notebook_id] = self._versions
        self.written_seq[notebook_id] = _journal_seq(nb)
        return nb

    def _schedule_flush(self, notebook_id: str) -> None:
        task = self._flushes.get(notebook_id)
        if task is None or task.done():
            task = asyncio.create_task(self._background_flush(notebook_id))
            self._flushes[notebook_id] = task

    async def _background_flush(self, notebook_id: str) -> None:
        try:
            # a short delay turns a burst of cell results into one file write
            await asyncio.sleep(self._write_behind_delay(notebook_id))
            await self._flush(notebook_id)
        except Exception:  # kept in memory; the next write or shutdown tries again
            log.exception("background write of notebook %s failed", notebook_id)

    async def _flush(self, notebook_id: str) -> None:
        """Write the newest version if the file is older. Writes of one notebook are serial,
        so an older snapshot can never be renamed over a newer one."""
        async with self._write_lock(notebook_id):
            cached = self._cache.get(notebook_id)
            if cached is None or self._written.get(notebook_id, 0) >= cached.version:
                return
            started = time.perf_counter()
            text = self._text.text(notebook_id, cached.nb) + "\n"  # = nbjson.writes
            mtime = await asyncio.to_thread(self._write_file, self.path(notebook_id), text)
            self._write_seconds[notebook_id] = time.perf_counter() - started
            self._written[notebook_id] = cached.version
            self.written_seq[notebook_id] = _journal_seq(cached.nb)
            current = self._cache.get(notebook_id)
            if current is not None and current.version == cached.version:
                current.mtime_ns = mtime

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


def _changed_part(nb: NotebookNode, touches: str | None) -> NotebookNode:
    """What a change can have made invalid: all of it, or, when it touched one cell, the
    notebook's own fields and that cell (the others are the validated previous version's)."""
    if touches is None:
        return nb
    return NotebookNode({**nb, "cells": [c for c in nb.cells if c.get("id") == touches]})


def _journal_seq(nb: NotebookNode) -> int:
    own = nb.metadata.get(META)
    seq = own.get("journal_seq", 0) if isinstance(own, dict) else 0
    return seq if isinstance(seq, int) else 0
