"""The critic step of a cell's flow (DESIGN.md step 5): decide whether the cell is
reviewed, read facts from its kernel before and after it runs, run `AnalysisCritic`.

Introspection goes through its own silent execute request (no history, no output, nothing
written to the user's namespace), bounded by `introspection_timeout`; a failed or slow
introspection leaves the rules to work from the code and outputs alone.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from nbformat import NotebookNode

from critics import AnalysisCritic, Critique
from critics.critic import LLMCritic

from .cell_evidence import (
    ProbePlan,
    build_evidence,
    parse_reply,
    plan_probe,
    request_for,
    user_expression,
)
from .config import EngineConfig
from .kernel_session import KernelSession
from .review_worker import ReviewWorker
from .trace_request import EXPORT_EXPRESSION, INSTALL_EXPRESSION, in_cell_lines

log = logging.getLogger(__name__)

META = "nbcritic"
SKIP_TAG = "nbcritic-skip"
PRIOR_CODE_CHARS = 20_000
_KEY = "nbcritic_facts"
_TRACE_KEY = "nbcritic_trace"


@dataclass
class ReviewPlan:
    prior_code: str
    probe: ProbePlan
    disabled: list[str] = field(default_factory=list)
    before: dict[str, Any] | None = None
    before_ms: float = 0.0
    traced: bool = False  # the kernel's recorder was installed before the cell ran


def skip_reason(cell: NotebookNode) -> str | None:
    """Why the critic must not review this cell, if the user said so."""
    if SKIP_TAG in cell.get("metadata", {}).get("tags", []):
        return f"tag {SKIP_TAG}"
    if cell.get("metadata", {}).get(META, {}).get("skip_critic") is True:
        return "metadata nbcritic.skip_critic"
    return None


def cell_disabled_rules(cell: NotebookNode) -> list[str]:
    rules = cell.get("metadata", {}).get(META, {}).get("disabled_rules", [])
    return [r for r in rules if isinstance(r, str)] if isinstance(rules, list) else []


def nearest_within_budget(sources: list[str], budget: int = PRIOR_CODE_CHARS) -> list[str]:
    """Whole sources (oldest first), the nearest ones kept when together they exceed
    `budget` characters (always at least the last one), so the text still parses."""
    kept: list[str] = []
    size = 0
    for source in reversed(sources):
        size += len(source) + 2
        if size > budget and kept:
            break
        kept.append(source)
    return list(reversed(kept))


def prior_code_of(nb: NotebookNode, cell_id: str) -> str:
    """The code cells above `cell_id` (their imports and data loading), within the budget."""
    parts: list[str] = []
    for cell in nb.cells:
        if cell.get("id") == cell_id:
            break
        if cell.cell_type == "code" and cell.source.strip():
            parts.append(cell.source)
    return "\n\n".join(nearest_within_budget(parts))


class CellReviewer:
    def __init__(self, config: EngineConfig, critic: AnalysisCritic | None = None,
                 llm: LLMCritic | None = None):
        self.config = config
        use_llm = llm if config.critic_llm else None
        self.critic = critic or AnalysisCritic(disabled=config.critic_disabled_rules,
                                               llm=use_llm)
        self.worker = ReviewWorker(config.critic_workers)  # parses and rules, off the loop
        self._installed: set[str] = set()  # kernel ids that hold the facts module
        self._traced: set[str] = set()  # kernel ids that hold the analysis trace recorder

    def plan(self, code: str, prior_code: str, disabled: list[str]) -> ReviewPlan:
        return ReviewPlan(prior_code, plan_probe(code, prior_code), disabled)

    async def aplan(self, code: str, prior_code: str, disabled: list[str]) -> ReviewPlan:
        """`plan` in a review worker: it parses the cell and the earlier cells."""
        return await self.worker.run(self.plan, code, prior_code, disabled)

    def close(self) -> None:
        self.worker.close()

    async def read_before(self, session: KernelSession, plan: ReviewPlan) -> None:
        """Install the analysis trace recorder (once per kernel process) and read the rows
        of the names the cell filters in place, before it runs."""
        t0 = time.perf_counter()
        if self.config.critic_trace and session.kernel_id not in self._traced:
            raw = await self._request(session, {_TRACE_KEY: INSTALL_EXPRESSION})
            value = ((raw or {}).get("user_expressions") or {}).get(_TRACE_KEY) or {}
            if value.get("status") == "ok":
                self._traced.add(session.kernel_id)
            else:
                log.warning("analysis trace not installed: %s", value.get("evalue"))
        plan.traced = session.kernel_id in self._traced
        if not plan.probe.before:
            plan.before_ms = (time.perf_counter() - t0) * 1000
            return
        plan.before, _ = await self._probe(session, request_for(
            plan.probe, before=True, budget_ms=self.config.introspection_budget_ms))
        plan.before_ms = (time.perf_counter() - t0) * 1000

    async def review(self, session: KernelSession, plan: ReviewPlan, code: str,
                     outputs: list[dict[str, Any]]) -> Critique:
        t0 = time.perf_counter()
        extra = {_TRACE_KEY: EXPORT_EXPRESSION} if plan.traced else {}
        trace: dict[str, Any] = {}
        if plan.probe.empty and not extra:
            facts: dict[str, Any] = {}
        elif plan.probe.empty:
            raw = await self._request(session, extra)
            facts, trace = {}, _trace_of(raw)
        else:
            facts, raw = await self._probe(session, request_for(
                plan.probe, budget_ms=self.config.introspection_budget_ms), extra)
            trace = _trace_of(raw) if extra else {}
        ms = (time.perf_counter() - t0) * 1000 + plan.before_ms
        if self._llm_reviews(plan):  # the Claude step is async: the rules go with it
            evidence = build_evidence(code, outputs, facts, plan.before, plan.prior_code, ms,
                                      trace=in_cell_lines(trace, code))
            return await self.critic.areview(evidence, disabled=plan.disabled)
        return await self.worker.run(self._rules_review, plan, code, outputs, facts, trace, ms)

    def _rules_review(self, plan: ReviewPlan, code: str, outputs: list[dict[str, Any]],
                      facts: dict[str, Any], trace: dict[str, Any], ms: float) -> Critique:
        """Evidence and the rules (what `areview` does without an LLM), in a worker."""
        evidence = build_evidence(code, outputs, facts, plan.before, plan.prior_code, ms,
                                  trace=in_cell_lines(trace, code))
        return self.critic.review(evidence, disabled=plan.disabled)

    def _llm_reviews(self, plan: ReviewPlan) -> bool:
        off = self.critic.disabled | set(plan.disabled)
        return self.critic.llm is not None and "claude" not in off

    async def namespace(self, session: KernelSession) -> dict[str, Any]:
        """Shallow facts (type, shape, DataFrame dtypes) of every public name in the kernel:
        what the code generator is told about the namespace. Silent and time-bounded."""
        facts, _ = await self._probe(session, {
            "names": "*", "mode": "namespace",
            "budget_ms": self.config.introspection_budget_ms})
        return facts

    async def _probe(self, session: KernelSession, request: dict[str, Any],
                     extra: dict[str, str] | None = None,
                     ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """Facts (and the raw reply, for `extra` expressions evaluated alongside)."""
        installed = session.kernel_id in self._installed
        facts, raw = await self._ask(session, user_expression(request, installed), extra)
        if installed and "KeyError" in facts.get("error", ""):  # restarted in place
            self._traced.discard(session.kernel_id)
            facts, raw = await self._ask(session, user_expression(request), extra)
        if "error" not in facts:
            self._installed.add(session.kernel_id)
        return facts, raw

    async def _ask(self, session: KernelSession, expression: str,
                   extra: dict[str, str] | None = None,
                   ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        raw = await self._request(session, {_KEY: expression, **(extra or {})})
        if raw is None:
            return {"error": "introspection timed out or the kernel died"}, None
        return parse_reply(raw, _KEY), raw

    async def _request(self, session: KernelSession,
                       expressions: dict[str, str]) -> dict[str, Any] | None:
        """The execute_reply of one silent request evaluating `expressions`, or None."""
        raw = await session.execute(
            "", silent=True, store_history=False, user_expressions=expressions,
            timeout=self.config.introspection_timeout,
            interrupt_grace=self.config.interrupt_grace, on_message=_ignore)
        if raw.timed_out or raw.dead:
            return None
        return raw.reply


def _trace_of(raw: dict[str, Any] | None) -> dict[str, Any]:
    if raw is None:
        return {"error": "analysis trace: introspection timed out or the kernel died"}
    return parse_reply(raw, _TRACE_KEY)  # a kernel restarted in place has no recorder


def _ignore(_msg: dict[str, Any]) -> None:
    """A silent request publishes nothing the user should see."""
