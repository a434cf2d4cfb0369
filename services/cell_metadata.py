"""What the service reads from and writes to `cell.metadata["nbcritic"]`.

Read: the prompt, per-cell retry budgets and token budget, an accepted override.
Written (by `apply_result`): status, timing, attempts, critique, escalation, the override
in force, and `blocked` (the fingerprint of the code and prompt that ended in a
ScientificValidityError, and whether the generator wrote that code).

An override is an act of a person on code they saw (DESIGN.md, "User override"): the
`override_critic` flag of a request, findings accepted through the API, or a single-cell
execute of exactly the code that was shown blocked, when that code is not the generator's.
A run-all, `nbcritic run` or automatic review never turns a block into an override.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from nbformat import NotebookNode

from .notebook_store import CellNotFound, find_cell
from .status import CellStatus

META = "nbcritic"  # cell.metadata key this service owns
MAX_CELL_BUDGET = 20


class CellMetadataError(ValueError):
    """A cell's `metadata.nbcritic` that is not an object (from a PATCH or an import)."""


def nbmeta(cell: NotebookNode) -> dict[str, Any]:
    meta = cell.get("metadata", {}).get(META, {})
    return meta if isinstance(meta, dict) else {}


def check_own_metadata(metadata: Any, where: str = "metadata") -> None:
    """Refuse a `nbcritic` key that is not an object before it reaches a notebook."""
    if isinstance(metadata, dict) and META in metadata and not isinstance(metadata[META], dict):
        raise CellMetadataError(f"{where}.{META}: must be an object, not "
                                f"{type(metadata[META]).__name__}")


def own_meta(cell: NotebookNode, *, repair: bool = False) -> dict[str, Any]:
    """The cell's `metadata.nbcritic`, created when absent. One that is not an object is a
    CellMetadataError, or (`repair`, for results the service must not lose) replaced."""
    meta = cell.metadata.get(META)
    if meta is None or (repair and not isinstance(meta, dict)):
        meta = cell.metadata[META] = NotebookNode()
    if not isinstance(meta, dict):
        raise CellMetadataError(f"cell {cell.get('id')}: metadata.{META} must be an object, "
                                f"not {type(meta).__name__}")
    return meta


def cell_prompt(cell: NotebookNode) -> str | None:
    prompt = nbmeta(cell).get("prompt")
    return prompt if isinstance(prompt, str) and prompt.strip() else None


def tags(cell: NotebookNode) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def fingerprint(code: str, prompt: str | None) -> str:
    """Identity of what the user asked to run: code and prompt (whitespace at the ends
    ignored, as editors add and strip trailing newlines)."""
    text = code.strip() + "\0" + (prompt or "").strip()
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cell_int(cell: NotebookNode, key: str, upper: int = MAX_CELL_BUDGET) -> int | None:
    """A per-cell integer setting, ignored unless it is a sane non-negative int."""
    value = nbmeta(cell).get(key)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= upper:
        return value
    return None


@dataclass
class Override:
    """An override in force for one run: who, when, how it came about, and the code (and
    prompt) it was granted for (`fingerprint`; None for a request's flag, which covers the
    run it came with)."""

    how: str  # "flag" (override_critic in the request) | "accepted" | "unchanged_rerun"
    by: str
    at: str
    reason: str = ""
    fingerprint: str | None = None

    def applies_to(self, code: str, prompt: str | None) -> bool:
        """An accepted or re-run override covers the code it was granted for, never code
        the generator wrote in its place."""
        return self.fingerprint is None or self.fingerprint == fingerprint(code, prompt)

    def to_dict(self) -> dict[str, Any]:
        return {"how": self.how, "by": self.by, "at": self.at, "reason": self.reason}


def standing_override(cell: NotebookNode, code: str, prompt: str | None, *,
                      single_cell: bool, by: str = "user") -> Override | None:
    """An override the cell's metadata grants to this exact code and prompt: findings
    accepted through the API (any run), or - only for a single-cell execute (`single_cell`)
    by `by` - the re-run of code the user was shown blocked that the generator did not
    write."""
    meta = nbmeta(cell)
    key = fingerprint(code, prompt)
    accepted = meta.get("override")
    if isinstance(accepted, dict) and accepted.get("fingerprint") == key:
        return Override("accepted", str(accepted.get("by", "user")),
                        str(accepted.get("at", now_iso())), str(accepted.get("reason", "")),
                        key)
    blocked = meta.get("blocked")
    if (single_cell and isinstance(blocked, dict) and blocked.get("fingerprint") == key
            and blocked.get("generated") is False):
        return Override("unchanged_rerun", by, now_iso(),
                        "re-ran the cell unchanged after its ScientificValidityError", key)
    return None


def accept_findings(cell: NotebookNode, by: str, reason: str = "") -> dict[str, Any]:
    """Record that the user accepts the cell's current findings (for its current code)."""
    record = {"fingerprint": fingerprint(cell.source, cell_prompt(cell)), "by": by,
              "at": now_iso(), "reason": reason,
              "findings": [f.get("rule_id") for f in
                           (nbmeta(cell).get("critique") or {}).get("findings", [])]}
    own_meta(cell)["override"] = record
    return record


def clear_if_changed(cell: NotebookNode) -> None:
    """Changing the code or prompt clears an accepted override and the blocked marker."""
    meta = cell.get("metadata", {}).get(META)
    if not isinstance(meta, dict):
        return
    key = fingerprint(cell.source, cell_prompt(cell))
    for name in ("override", "blocked"):
        record = meta.get(name)
        if isinstance(record, dict) and record.get("fingerprint") != key:
            meta.pop(name)


def drop_plan(cell: NotebookNode) -> None:
    """Forget a cell's plan and the checks it derived (`plan_*`): the prompt changed."""
    meta = nbmeta(cell)
    if meta.pop("plan", None) is None:
        return
    checks = meta.get("checks")
    if isinstance(checks, list):
        kept = [c for c in checks
                if not (isinstance(c, dict) and str(c.get("name", "")).startswith("plan_"))]
        if kept:
            meta["checks"] = kept
        else:
            meta.pop("checks", None)


def apply_result(nb: NotebookNode, result: dict[str, Any]) -> bool:
    """Write one cell result (CellResult.as_dict()) into the notebook; False if the cell is
    gone. A retried cell gets the code of its last attempt (its outputs belong to it; the
    original code stays in `attempts[0]`)."""
    try:
        _, cell = find_cell(nb, result["cell_id"])
    except CellNotFound:
        return False
    if result.get("code") is not None and len(result.get("attempts", [])) > 1:
        cell.source = result["code"]
    elif result.get("code") is not None and not cell.source.strip():
        cell.source = result["code"]  # a prompt cell's generated code
    cell.outputs = [NotebookNode(o) for o in result["outputs"]]
    cell.execution_count = result["execution_count"]
    meta = own_meta(cell, repair=True)
    meta.update({
        "status": result["status"],
        "execution_id": result["execution_id"],
        "timing": {"started_at": result["started_at"], "finished_at": result["finished_at"],
                   "duration_ms": result["duration_ms"]},
        "attempts": result["attempts"],
    })
    for key in ("output_truncated",):
        if result.get(key):
            meta[key] = True
        else:
            meta.pop(key, None)
    # an error or a skipped cell: an older critique is about outputs that are gone
    for key in ("critique", "escalation", "tokens"):
        if result.get(key) is not None:
            meta[key] = result[key]
        else:
            meta.pop(key, None)
    plan = result.get("plan")
    if plan is not None:  # its expressible success criteria become the cell's own checks
        meta["plan"] = plan
        declared = meta.get("checks")
        if not isinstance(declared, list):
            declared = []
        names = {c.get("name") for c in declared if isinstance(c, dict)}
        added = [c for c in plan.get("checks") or [] if c.get("name") not in names]
        if added:
            meta["checks"] = [*declared, *added]
    if result["status"] == CellStatus.SCIENTIFIC_VALIDITY_ERROR.value:
        last = (result.get("attempts") or [{}])[-1]
        meta["blocked"] = {"fingerprint": fingerprint(cell.source, cell_prompt(cell)),
                           "at": result.get("finished_at"),
                           "execution_id": result.get("execution_id"),
                           "attempt": last.get("attempt"),
                           "generated": bool(last.get("generated"))}
    else:
        meta.pop("blocked", None)
    override = result.get("override")
    if override is not None:
        meta["last_override"] = override
    clear_if_changed(cell)
    return True
