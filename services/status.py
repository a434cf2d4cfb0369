"""The status vocabulary: the one field clients branch on (see DESIGN.md)."""

from __future__ import annotations

from enum import StrEnum


class CellStatus(StrEnum):
    OK = "ok"
    ERROR = "error"
    SCIENTIFIC_VALIDITY_ERROR = "scientific_validity_error"
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"
    DEAD_KERNEL = "dead_kernel"
    ABORTED = "aborted"


class ExecutionState(StrEnum):
    """Life of an execution resource (one cell or a run of all cells)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
