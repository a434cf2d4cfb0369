"""The critic's face: a cell's critique, the rules, the critic's settings."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.deps import Service
from app.errors import ApiError
from app.schemas import AcceptFindings, ChecksBody

router = APIRouter(prefix="/api", tags=["critic"])


@router.get("/notebooks/{notebook_id}/cells/{cell_id}/critique")
async def get_critique(notebook_id: str, cell_id: str, service: Service) -> dict[str, Any]:
    """The critique of the cell's last `ok` execution (`findings`: rule_id, title,
    explanation, severity, confidence, evidence, suggestion)."""
    cell = service.get_cell(notebook_id, cell_id)
    critique = cell.metadata.get("nbcritic", {}).get("critique")
    if critique is None:
        raise ApiError(404, f"cell {cell_id} has no critique: it has not run successfully "
                       "since the critic was enabled", "no_critique")
    return {"notebook_id": notebook_id, "cell_id": cell_id,
            "status": cell.metadata["nbcritic"].get("status"), "critique": critique}


@router.post("/notebooks/{notebook_id}/cells/{cell_id}/critique/accept")
async def accept_findings(notebook_id: str, cell_id: str, service: Service,
                          body: AcceptFindings | None = None) -> dict[str, Any]:
    """Accept the cell's findings: its current code and prompt are no longer blocked by the
    critic (the critique still runs, marked overridden) until the code or prompt changes."""
    body = body or AcceptFindings()
    record = await service.accept_findings(notebook_id, cell_id, by=body.by,
                                           reason=body.reason)
    return {"notebook_id": notebook_id, "cell_id": cell_id, "override": record}


@router.get("/notebooks/{notebook_id}/cells/{cell_id}/attempts")
async def get_attempts(notebook_id: str, cell_id: str, service: Service) -> dict[str, Any]:
    """The attempts of the cell's last run (code, status, error or findings, feedback sent,
    tokens, duration), the escalation if the retry loop gave up, and overrides."""
    cell = service.get_cell(notebook_id, cell_id)
    meta = cell.metadata.get("nbcritic", {})
    return {"notebook_id": notebook_id, "cell_id": cell_id, "status": meta.get("status"),
            "attempts": meta.get("attempts", []), "escalation": meta.get("escalation"),
            "override": meta.get("override"), "last_override": meta.get("last_override"),
            "blocked": meta.get("blocked"), "tokens": meta.get("tokens")}


@router.get("/notebooks/{notebook_id}/cells/{cell_id}/checks")
async def get_checks(notebook_id: str, cell_id: str, service: Service) -> dict[str, Any]:
    """The cell's self-checks and the results of their last run."""
    cell = service.get_cell(notebook_id, cell_id)
    meta = cell.metadata.get("nbcritic", {})
    critique = meta.get("critique") or {}
    return {"notebook_id": notebook_id, "cell_id": cell_id, "checks": meta.get("checks", []),
            "results": critique.get("checks")}


@router.put("/notebooks/{notebook_id}/cells/{cell_id}/checks")
async def put_checks(notebook_id: str, cell_id: str, body: ChecksBody,
                     service: Service) -> dict[str, Any]:
    """Replace the cell's self-checks. They run in the kernel after every successful run of
    the cell; a failed one is a finding (`self_check.<name>`, critical unless the check says
    otherwise) that blocks the result and drives a retry like the critic's own."""
    checks = await service.set_checks(notebook_id, cell_id, body.checks)
    return {"notebook_id": notebook_id, "cell_id": cell_id, "checks": checks}


@router.get("/critic")
async def critic_settings(service: Service) -> dict[str, Any]:
    config = service.config
    return {"enabled": config.critic_enabled, "min_confidence": config.critic_min_confidence,
            "disabled_rules": config.critic_disabled_rules,
            "llm": service.reviewer.critic.llm is not None,
            "llm_blocks_alone": bool(getattr(service.reviewer.critic.llm, "blocks_alone",
                                             False)),
            "generator": service.generator is not None, "auto_fix": config.auto_fix,
            "max_error_retries": config.max_error_retries,
            "max_critique_retries": config.max_critique_retries,
            "cell_token_budget": config.cell_token_budget,
            "replay_before_retry": config.replay_before_retry,
            "planning": config.planning, "planner": service.planner is not None,
            "lessons": config.lessons_enabled, "reflection_auto": config.reflection_auto,
            "improvements": config.improvements_enabled}


@router.get("/critic/rules")
async def list_rules(service: Service) -> dict[str, Any]:
    critic = service.reviewer.critic
    active = {r.id for r in critic.active_rules()}
    return {"rules": [{**r.describe(), "enabled": r.id in active} for r in critic.rules],
            "load_errors": [e.__dict__ for e in critic.load_errors]}
