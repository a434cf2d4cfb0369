"""The result of executing one cell, as the API, the CLI and the journal see it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .status import CellStatus


@dataclass
class CellResult:
    notebook_id: str
    cell_id: str
    execution_id: str
    status: CellStatus
    execution_count: int | None = None
    outputs: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None  # Jupyter's shape: {ename, evalue, traceback[]}
    started_at: str | None = None
    finished_at: str | None = None
    duration_ms: float = 0.0
    attempts: list[dict[str, Any]] = field(default_factory=list)
    skipped: bool = False  # `skip-execution` tag, or not a code cell
    output_truncated: bool = False
    expected_error: bool = False  # `raises-exception` tag and the cell raised
    critique: dict[str, Any] | None = None  # critics.Critique.to_dict() of an `ok` result

    @property
    def acceptable(self) -> bool:
        """Ok, skipped, or an error the cell declares it expects (`raises-exception`)."""
        return self.status is CellStatus.OK or self.expected_error

    def as_dict(self) -> dict[str, Any]:
        """Shallow (the outputs are shared, not copied: a result is not changed once built)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["status"] = self.status.value
        return data
