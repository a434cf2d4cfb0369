"""Request bodies. Unknown fields are refused so a typo is a 422 naming it, not a no-op."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_TIMEOUT = 24 * 3600.0


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NotebookCreate(Body):
    id: str | None = Field(None, description="File name stem; generated when absent.",
                           min_length=1, max_length=128)
    content: dict[str, Any] | None = Field(None, description="An nbformat 4.x notebook (JSON).")


class CellCreate(Body):
    source: str = ""
    prompt: str | None = Field(None, description="Natural-language request for this cell.")
    cell_type: Literal["code", "markdown", "raw"] = "code"
    position: int | None = Field(None, ge=0, description="Index to insert at; end when absent.")
    metadata: dict[str, Any] | None = None


class CellUpdate(Body):
    source: str | None = None
    prompt: str | None = None
    metadata: dict[str, Any] | None = Field(None, description="Replaces the cell's metadata "
                                            "(the service's own `nbcritic` key is kept).")


class CellMove(Body):
    position: int = Field(..., ge=0)


class CriticOptions(Body):
    critic: bool = Field(True, description="Review `ok` results with the critic.")
    disabled_rules: list[str] = Field(
        default_factory=list, max_length=200,
        description="Rule ids, families or prefixes (`leakage.*`) to skip for this request.")


class ExecuteRequest(CriticOptions):
    timeout: float | None = Field(None, gt=0, le=MAX_TIMEOUT, description="Seconds for the cell.")


class RunAllRequest(CriticOptions):
    timeout: float | None = Field(None, gt=0, le=MAX_TIMEOUT, description="Seconds per cell.")
    stop_on_error: bool = True
