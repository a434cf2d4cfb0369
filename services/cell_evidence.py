"""Gather `critics.Evidence` for one executed cell.

Which facts to ask for is read from the code (names it created or used, samples passed to
statistical tests, names it filters in place); the kernel is asked through a silent,
history-free `execute_request` whose `user_expressions` evaluate `kernel_facts.collect` in
a private module (the user's namespace is read, never written). The same request runs
in-process for the IPython magics (`gather_in_process`).
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import time
from dataclasses import dataclass, field
from typing import Any

from critics.code_model import CodeModel, root_name
from critics.evidence import Evidence, ObjectFacts, SampleFacts
from critics.stat_tests import sample_args, starred_groups, stat_test_of
from critics.trace import Trace

from . import kernel_facts

MAX_NAMES = 80
MAX_SAMPLES = 24
# Calls that drop rows: a name reassigned from one of these is read before the cell runs.
FILTER_METHODS = {"dropna", "query", "drop_duplicates", "merge", "join", "drop", "filter",
                  "loc", "iloc", "head", "sample", "isin", "notna", "between"}
_BUILTINS = set(dir(builtins))
_SOURCE = inspect.getsource(kernel_facts)
_USER_EXPRESSION = (
    "(lambda s, t: s.modules.get('_nbcritic_facts') or (lambda m: (exec(compile({src!r}, "
    "'<nbcritic-facts>', 'exec'), m.__dict__), s.modules.__setitem__('_nbcritic_facts', m), "
    "m)[2])(t.ModuleType('_nbcritic_facts')))(__import__('sys'), __import__('types'))"
    ".collect(get_ipython().user_ns, {req!r})"
)


@dataclass
class ProbePlan:
    names: list[str] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)
    before: list[str] = field(default_factory=list)  # read before the cell runs

    @property
    def empty(self) -> bool:
        return not (self.names or self.samples)


def plan_probe(code: str, prior_code: str = "") -> ProbePlan:
    evidence = Evidence(code=code, prior_code=prior_code)
    if evidence.tree is None:
        return ProbePlan()
    model = evidence.model
    names = [n for n in dict.fromkeys(model.stored_names + model.loaded_names)
             if n not in _BUILTINS or n in model.stored_names][:MAX_NAMES]
    samples: list[dict[str, Any]] = []
    for call in model.calls:
        found = stat_test_of(call)
        if found is None:
            continue
        full, spec = found
        for slot, node in sample_args(call, spec):
            expr = model.src(node)
            if kernel_facts.is_safe_expression(expr):
                samples.append({"call": full, "line": call.line, "arg": slot, "expr": expr})
        grouped = starred_groups(call) if spec.variadic else None
        if grouped is not None and kernel_facts.is_safe_expression(expr := ast.unparse(grouped)):
            samples.append({"call": full, "line": call.line, "arg": 0, "expr": expr,
                            "groups": True})
    return ProbePlan(names, samples[:MAX_SAMPLES], _filtered_in_place(model))


def _filtered_in_place(model: CodeModel) -> list[str]:
    """Names the cell replaces by a filtered version of themselves (`df = df.dropna()`,
    `df = df[df.ok]`, `df.dropna(inplace=True)`) before any other assignment to them."""
    seen: set[str] = set()
    out: list[str] = []
    for a in model.assignments:
        for target in a.targets:
            if target in seen or _writes_into(a.stmt, target):
                continue  # a column write (`df["x"] = ...`) keeps the rows
            seen.add(target)
            if target in a.loaded and _is_filter(a.value, target):
                out.append(target)
    return out


def _writes_into(stmt: ast.AST, name: str) -> bool:
    """`name["col"] = ...` or `name.attr = ...`: the name is mutated, not rebound."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else []
    bound = {t.id for t in targets if isinstance(t, ast.Name)}
    return name not in bound and any(
        isinstance(t, ast.Subscript | ast.Attribute) and root_name(t) == name for t in targets)


def _is_filter(value: ast.AST | None, target: str) -> bool:
    if value is None:
        return False
    for node in ast.walk(value):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
            node.func.attr in FILTER_METHODS and root_name(node.func.value) == target
        ):
            return True
        if isinstance(node, ast.Subscript) and root_name(node.value) == target and isinstance(
            node.slice, ast.Compare | ast.BoolOp | ast.Call | ast.UnaryOp | ast.Name
        ):
            return True
    return False


_INSTALLED_EXPRESSION = (
    "__import__('sys').modules['_nbcritic_facts'].collect(get_ipython().user_ns, {req!r})"
)


def user_expression(request: dict[str, Any], installed: bool = False) -> str:
    """The expression the kernel evaluates: installs `kernel_facts` as a private module
    (once per kernel process) and calls `collect` on the user's namespace. `installed`
    sends the short form (a KeyError in the reply means the kernel process is new)."""
    template = _INSTALLED_EXPRESSION if installed else _USER_EXPRESSION
    return template.format(src=_SOURCE, req=json.dumps(request))


def parse_reply(reply: dict[str, Any] | None, key: str) -> dict[str, Any]:
    """The facts from an execute_reply's user_expressions, or {"error": ...}."""
    if not reply:
        return {"error": "no reply from the kernel"}
    if reply.get("status") != "ok":
        return {"error": f"introspection request failed: {reply.get('ename', '?')}"}
    value = (reply.get("user_expressions") or {}).get(key)
    if not value:
        return {"error": "the kernel did not evaluate the introspection expression"}
    if value.get("status") != "ok":
        return {"error": f"introspection raised {value.get('ename')}: {value.get('evalue')}"}
    text = (value.get("data") or {}).get("text/plain", "")
    try:
        return json.loads(ast.literal_eval(text))
    except (ValueError, SyntaxError) as exc:
        return {"error": f"unreadable introspection result: {exc}"}


def build_evidence(code: str, outputs: list[dict[str, Any]], facts: dict[str, Any],
                   before: dict[str, Any] | None = None, prior_code: str = "",
                   introspection_ms: float = 0.0,
                   trace: dict[str, Any] | None = None) -> Evidence:
    errors = [facts["error"]] if "error" in facts else list(facts.get("errors", []))[:3]
    if before and "error" in before:
        errors.append(before["error"])
    trace = trace or {}
    if "error" in trace:
        errors.append(trace["error"])
    elif trace.get("truncated") or trace.get("errors"):
        errors.append("analysis trace incomplete: " + "; ".join(trace.get("errors", []))[:300])
    return Evidence(
        code=code, outputs=outputs, prior_code=prior_code,
        objects={k: ObjectFacts.from_dict(v) for k, v in facts.get("objects", {}).items()},
        before={k: ObjectFacts.from_dict(v)
                for k, v in (before or {}).get("objects", {}).items()},
        samples=[SampleFacts.from_dict(s) for s in facts.get("samples", [])],
        trace=Trace.from_dict(trace) if "events" in trace else Trace(),
        introspection_error="; ".join(errors) or None,
        introspection_ms=introspection_ms,
    )


def request_for(plan: ProbePlan, *, before: bool = False,
                budget_ms: float = 25.0) -> dict[str, Any]:
    if before:
        return {"names": plan.before, "mode": "before", "budget_ms": budget_ms}
    return {"names": plan.names, "samples": plan.samples,
            "budget_ms": budget_ms}


def gather_in_process(code: str, ns: dict[str, Any], outputs: list[dict[str, Any]] | None = None,
                      *, prior_code: str = "", before: dict[str, Any] | None = None,
                      budget_ms: float = 25.0, trace: dict[str, Any] | None = None) -> Evidence:
    """Evidence for code that already ran in `ns` (this process): the magics' local mode,
    and tests. `before` is what `snapshot_before` returned before the code ran; `trace`
    what `trace_request.export_in_process` returned after it ran, if it was recorded."""
    t0 = time.perf_counter()
    plan = plan_probe(code, prior_code)
    facts = json.loads(kernel_facts.collect(ns, request_for(plan, budget_ms=budget_ms)))
    return build_evidence(code, outputs or [], facts, before, prior_code,
                          (time.perf_counter() - t0) * 1000, trace=trace)


def snapshot_before(code: str, ns: dict[str, Any], prior_code: str = "") -> dict[str, Any] | None:
    plan = plan_probe(code, prior_code)
    if not plan.before:
        return None
    return json.loads(kernel_facts.collect(ns, request_for(plan, before=True)))
