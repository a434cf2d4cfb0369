"""The critic's face: a cell's critique, the rules, the critic's settings."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.deps import Service
from app.errors import ApiError

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


@router.get("/critic")
async def critic_settings(service: Service) -> dict[str, Any]:
    config = service.config
    return {"enabled": config.critic_enabled, "min_confidence": config.critic_min_confidence,
            "disabled_rules": config.critic_disabled_rules,
            "llm": service.reviewer.critic.llm is not None}


@router.get("/critic/rules")
async def list_rules(service: Service) -> dict[str, Any]:
    critic = service.reviewer.critic
    active = {r.id for r in critic.active_rules()}
    return {"rules": [{**r.describe(), "enabled": r.id in active} for r in critic.rules],
            "load_errors": [e.__dict__ for e in critic.load_errors]}
