"""AnalysisCritic: run the rules (and the Claude critic when one is given) over Evidence,
merge and de-duplicate their findings, and never let a crashing rule fail the cell."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from importlib.metadata import entry_points
from types import ModuleType
from typing import Protocol

from .ast_cache import cached_walks
from .calibration import calibrate
from .evidence import Evidence
from .findings import CriticError, Critique, Finding
from .llm_blocking import apply_policy
from .rule import Rule
from .rules import builtin_rules, rules_of

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "nbcritic.rules"
BUILTIN_PREFIX = "critics.rules."  # rules whose confidence comes from calibration.json


class LLMCritic(Protocol):
    async def review(self, evidence: Evidence) -> list[Finding]: ...


def load_entry_point_rules(group: str = ENTRY_POINT_GROUP) -> tuple[list[Rule], list[CriticError]]:
    """Rules that installed packages publish under the `nbcritic.rules` entry point group.
    An entry point may name a Rule, a list of Rules, or a module of Rules."""
    rules: list[Rule] = []
    errors: list[CriticError] = []
    for ep in entry_points(group=group):
        try:
            rules += _as_rules(ep.load())
        except Exception as exc:  # a broken plugin must not take the critic down
            log.warning("rule entry point %s failed to load: %s", ep.name, exc)
            errors.append(CriticError(f"entry_point:{ep.name}", f"{type(exc).__name__}: {exc}"))
    return rules, errors


def _as_rules(obj: object) -> list[Rule]:
    if isinstance(obj, Rule):
        return [obj]
    if isinstance(obj, ModuleType):
        return rules_of(obj)
    if isinstance(obj, list | tuple) and all(isinstance(r, Rule) for r in obj):
        return list(obj)
    raise TypeError(f"expected a Rule, a list of Rules or a module, got {type(obj).__name__}")


class AnalysisCritic:
    def __init__(self, rules: Iterable[Rule] | None = None, *,
                 disabled: Iterable[str] = (), load_plugins: bool = True,
                 llm: LLMCritic | None = None):
        self._rules: dict[str, Rule] = {}
        self.load_errors: list[CriticError] = []
        for r in builtin_rules() if rules is None else rules:
            self.register(r)
        if load_plugins and rules is None:
            plugin_rules, self.load_errors = load_entry_point_rules()
            for r in plugin_rules:
                self.register(r, replace=True)
        self.disabled: set[str] = set(disabled)
        self.llm = llm

    # -- registry ---------------------------------------------------------------------------

    def register(self, rule: Rule, *, replace: bool = False) -> Rule:
        """Add a rule (programmatic registration). Ids are unique unless `replace`."""
        if not isinstance(rule, Rule):
            raise TypeError(f"expected a Rule, got {type(rule).__name__}")
        if rule.id in self._rules and not replace:
            raise ValueError(f"a rule with id {rule.id!r} is already registered")
        self._rules[rule.id] = rule
        return rule

    def unregister(self, rule_id: str) -> None:
        self._rules.pop(rule_id, None)

    @property
    def rules(self) -> list[Rule]:
        return list(self._rules.values())

    def rule(self, rule_id: str) -> Rule:
        return self._rules[rule_id]

    def active_rules(self, disabled: Iterable[str] = ()) -> list[Rule]:
        off = self.disabled | set(disabled)
        return [r for r in self._rules.values() if not _matches(r, off)]

    # -- review -----------------------------------------------------------------------------

    def review(self, evidence: Evidence, *, disabled: Iterable[str] = ()) -> Critique:
        """Run the rules (synchronously; they are pure and fast)."""
        critique = Critique(introspection_ms=evidence.introspection_ms,
                            trace_ms=evidence.trace.ms,
                            introspection_error=evidence.introspection_error)
        critique.errors += self.load_errors
        t0 = time.perf_counter()
        findings: list[Finding] = []
        with cached_walks():  # the rules walk the same tree hundreds of times
            for r in self.active_rules(disabled):
                critique.rules_run += 1
                builtin = r.check_fn.__module__.startswith(BUILTIN_PREFIX)
                try:
                    findings += [calibrate(f, builtin) for f in r.check(evidence)]
                except Exception as exc:
                    log.warning("rule %s crashed", r.id, exc_info=True)
                    critique.errors.append(CriticError(r.id, f"{type(exc).__name__}: {exc}"))
        critique.rules_ms = (time.perf_counter() - t0) * 1000
        critique.findings = merge_findings(findings)
        return critique

    async def areview(self, evidence: Evidence, *, disabled: Iterable[str] = (),
                      use_llm: bool = True) -> Critique:
        """Rules, then the Claude critic when configured; its findings merge with the rules'."""
        critique = self.review(evidence, disabled=disabled)
        if self.llm is None or not use_llm or "claude" in (self.disabled | set(disabled)):
            return critique
        t0 = time.perf_counter()
        try:
            extra = await self.llm.review(evidence)
        except Exception as exc:
            log.warning("the Claude critic failed", exc_info=True)
            critique.errors.append(CriticError("claude", f"{type(exc).__name__}: {exc}"))
            extra = []
        critique.llm_ms = (time.perf_counter() - t0) * 1000
        off = self.disabled | set(disabled)
        extra = [f for f in extra if f.rule_id not in off and f.family not in off]
        apply_policy(extra, critique.findings, evidence,
                     blocks_alone=bool(getattr(self.llm, "blocks_alone", False)))
        critique.findings = merge_findings(critique.findings + extra)
        return critique


def _matches(rule: Rule, off: set[str]) -> bool:
    """Disable by exact id, by family, or by an id prefix ending in '.' or '*'."""
    if rule.id in off or rule.family in off:
        return True
    return any(p.endswith((".", "*")) and rule.id.startswith(p.rstrip("*")) for p in off)


def merge_findings(findings: list[Finding]) -> list[Finding]:
    """One finding per (rule, lines); a Claude finding that restates a rule finding of the
    same family on overlapping lines is folded into it, unless it is corroborated and more
    severe (then both stay, the rule's marked confirmed). Ordered by severity, confidence."""
    merged: dict[tuple[str, tuple[int, ...]], Finding] = {}
    for f in findings:
        key = (f.rule_id, tuple(sorted(f.lines)))
        kept = merged.get(key)
        if kept is None or (f.severity, f.confidence) > (kept.severity, kept.confidence):
            merged[key] = f
    rule_findings = [f for f in merged.values() if f.source != "claude"]
    out: list[Finding] = list(rule_findings)
    for f in merged.values():
        if f.source != "claude":
            continue
        twin = next((r for r in rule_findings if r.family and r.family == f.family
                     and (not f.lines or not r.lines or set(f.lines) & set(r.lines))), None)
        if twin is not None:
            twin.evidence.setdefault("confirmed_by", []).append(f.rule_id)
            # severity only: a rule's confidence is measured, the model's is its own say
            if not (f.evidence.get("corroborated_by") and f.severity > twin.severity):
                continue
        out.append(f)
    out.sort(key=lambda f: (-f.severity.rank, -f.confidence, f.rule_id))
    return out
