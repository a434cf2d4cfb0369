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
    critique: dict[str, Any] | None = None  # critics.Critique.to_dict() of the last attempt
    code: str | None = None  # the code of the last attempt (a retry rewrites the cell)
    escalation: dict[str, Any] | None = None  # when the retry loop gave up: summary + question
    override: dict[str, Any] | None = None  # the critic override applied to this run
    tokens: dict[str, int] | None = None  # generator (and planner) tokens spent on this run
    plan: dict[str, Any] | None = None  # the pre-run plan of a prompt cell, when one was made
    lessons: dict[str, Any] | None = None  # lesson ids this run created, merged, pruned

    @property
    def acceptable(self) -> bool:
        """Ok, skipped, or an error the cell declares it expects (`raises-exception`)."""
        return self.status is CellStatus.OK or self.expected_error

    @property
    def stops_a_run(self) -> bool:
        """Run-all stops here with `stop_on_error`: a runtime failure. A blocked result
        (scientific_validity_error) does not stop it: the cell's variables exist, and the
        later cells are run and reviewed too, so one run lists every finding."""
        return not (self.acceptable or self.skipped
                    or self.status is CellStatus.SCIENTIFIC_VALIDITY_ERROR)

    def as_dict(self) -> dict[str, Any]:
        """Shallow (the outputs are shared, not copied: a result is not changed once built)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["status"] = self.status.value
        return data
