"""Request bodies. Unknown fields are refused so a typo is a 422 naming it, not a no-op."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.self_checks import CheckSpecError, parse_checks

from .json_limits import shallow_json

MAX_TIMEOUT = 24 * 3600.0


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NotebookCreate(Body):
    id: str | None = Field(None, description="File name stem; generated when absent.",
                           min_length=1, max_length=128)
    content: dict[str, Any] | None = Field(None, description="An nbformat 4.x notebook (JSON).")

    _shallow = field_validator("content")(shallow_json)


class CellCreate(Body):
    source: str = ""
    prompt: str | None = Field(None, description="Natural-language request for this cell.")
    cell_type: Literal["code", "markdown", "raw"] = "code"
    position: int | None = Field(None, ge=0, description="Index to insert at; end when absent.")
    metadata: dict[str, Any] | None = None

    _shallow = field_validator("metadata")(shallow_json)


class CellUpdate(Body):
    source: str | None = None
    prompt: str | None = None
    metadata: dict[str, Any] | None = Field(None, description="Replaces the cell's metadata "
                                            "(the service's own `nbcritic` key is kept).")

    _shallow = field_validator("metadata")(shallow_json)


class CellMove(Body):
    position: int = Field(..., ge=0)


class CriticOptions(Body):
    critic: bool = Field(True, description="Review `ok` results with the critic.")
    disabled_rules: list[str] = Field(
        default_factory=list, max_length=200,
        description="Rule ids, families or prefixes (`leakage.*`) to skip for this request.")


class RetryOptions(CriticOptions):
    override_critic: bool = Field(
        False, description="Critical findings do not block this run (the critique is still "
        "stored, marked overridden; the override is journaled).")
    override_by: str = Field("user", min_length=1, max_length=200,
                             description="Who overrides (recorded with the override).")
    auto_fix: bool | None = Field(
        None, description="Rewrite failing or blocked cells with the code generator; "
        "default from settings.")
    max_error_retries: int | None = Field(
        None, ge=0, le=20, description="Rewrites after runtime errors (default: cell metadata, "
        "then settings).")
    max_critique_retries: int | None = Field(
        None, ge=0, le=20, description="Rewrites after ScientificValidityErrors (default: cell "
        "metadata, then settings).")
    replay_before_retry: bool | None = Field(
        None, description="Re-run the earlier cells in a fresh kernel before each retry.")
    plan: bool | None = Field(
        None, description="A prompt cell gets a pre-run plan first (default: cell metadata "
        "`nbcritic.planning`, then settings).")

    def retry_options(self) -> dict[str, Any]:
        return {"critic": self.critic, "disabled_rules": tuple(self.disabled_rules),
                "override_critic": self.override_critic, "override_by": self.override_by,
                "auto_fix": self.auto_fix, "max_error_retries": self.max_error_retries,
                "max_critique_retries": self.max_critique_retries,
                "replay_before_retry": self.replay_before_retry, "plan": self.plan}


def _checks(value: Any) -> None:
    """A CheckSpecError as a validation error (422 naming the field)."""
    try:
        parse_checks(value)
    except CheckSpecError as exc:
        raise ValueError(str(exc)) from None


class ExecuteRequest(RetryOptions):
    timeout: float | None = Field(None, gt=0, le=MAX_TIMEOUT, strict=True,
                                   description="Seconds for the cell.")
    # one cell only: on a run-all they would judge cells that run before their names exist
    checks: list[dict[str, Any] | str] = Field(
        default_factory=list, max_length=100,
        description="Self-checks for this run on top of the cell's own (a string is a Python "
        "expression that must be true): no_missing, column_exists, in_range, expression.")
    rerun_overrides: bool = Field(
        True, strict=True, description="Re-running, unchanged, code the critic blocked overrides "
        "it (`how: unchanged_rerun`). false: the code is reviewed again and, with a code "
        "generator and `auto_fix`, rewritten (the web page's \"Let it fix\").")

    @field_validator("checks")
    @classmethod
    def _valid_checks(cls, value: list[Any]) -> list[Any]:
        _checks(value)
        return value

    def retry_options(self) -> dict[str, Any]:
        return {**super().retry_options(), "checks": tuple(parse_checks(self.checks)),
                "rerun_overrides": self.rerun_overrides}


class RunAllRequest(RetryOptions):
    timeout: float | None = Field(None, gt=0, le=MAX_TIMEOUT, strict=True,
                                   description="Seconds per cell.")
    stop_on_error: bool = True
    # per cell: a check for the whole run would judge cells that run before its names exist
    checks: dict[str, Any] = Field(
        default_factory=dict, max_length=1000,
        description="Self-checks for this run, per cell: `{cell_id: [check, ...]}`, each on "
        "top of that cell's own (the forms of an execute request's `checks`).")

    @field_validator("checks", mode="before")
    @classmethod
    def _valid_checks(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError("on a run-all, an object mapping cell ids to their checks "
                             "({\"<cell id>\": [\"len(df) > 0\"]})")
        for cell_id, checks in value.items():
            try:
                parse_checks(checks, f"checks.{cell_id}")
            except CheckSpecError as exc:
                raise ValueError(str(exc)) from None
            if len(checks if isinstance(checks, list) else [checks]) > 100:
                raise ValueError(f"checks.{cell_id}: at most 100 checks per cell")
        return value

    def retry_options(self) -> dict[str, Any]:
        return {**super().retry_options(), "cell_checks": {
            cell_id: tuple(parse_checks(checks)) for cell_id, checks in self.checks.items()}}


class AcceptFindings(Body):
    by: str = Field("user", min_length=1, max_length=200, description="Who accepts them.")
    reason: str = Field("", max_length=2000, description="Why the findings do not apply.")


class ChecksBody(Body):
    checks: list[dict[str, Any] | str] = Field(..., max_length=100,
                                                description="The cell's self-checks (replaced).")

    @field_validator("checks")
    @classmethod
    def _valid_checks(cls, value: list[Any]) -> list[Any]:
        _checks(value)
        return value


class ScopeBody(Body):
    rule_ids: list[str] = Field(default_factory=list, max_length=50)
    error_types: list[str] = Field(default_factory=list, max_length=50)
    libraries: list[str] = Field(default_factory=list, max_length=50)
    columns: list[str] = Field(default_factory=list, max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=50)


Category = Literal["mistake", "fix", "pattern", "tip"]
Severity = Literal["info", "low", "medium", "high", "critical"]


class LessonCreate(Body):
    title: str = Field(..., min_length=1, max_length=300)
    category: Category = "tip"
    what_went_wrong: str = Field(..., min_length=1, max_length=20_000)
    what_fixed_it: str = Field("", max_length=20_000)
    severity: Severity = "medium"
    scope: ScopeBody = Field(default_factory=ScopeBody)


class LessonUpdate(Body):
    title: str | None = Field(None, min_length=1, max_length=300)
    category: Category | None = None
    what_went_wrong: str | None = Field(None, min_length=1, max_length=20_000)
    what_fixed_it: str | None = Field(None, max_length=20_000)
    severity: Severity | None = None
    scope: ScopeBody | None = None

    def changes(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


class ReflectRequest(Body):
    execution_ids: list[str] | None = Field(
        None, max_length=200, description="Executions to reflect on (default: the notebook's "
        "executions since its last reflection).")


class ImprovementNote(Body):
    note: str = Field("", max_length=2000)
