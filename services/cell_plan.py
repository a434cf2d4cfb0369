"""The pre-run plan of a prompt cell: before writing code, the model states objectives,
approach, risks, success criteria and the lessons it applies. The plan is stored in the
cell's metadata and shown to the user; success criteria that can be expressed as a
self-check (`services.self_checks`) are run as one after the cell succeeds.

Two real planners: `ClaudePlanner` (one Messages API call, structured output through a
forced `submit_plan` tool) and `services.scripted_planner.ScriptedPlanner` (queued plans,
for tests). Whatever goes wrong raises `GeneratorError`, like the code generator.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .anthropic_client import field_of, forced_tool_input
from .claude_generator import _api_error_text, _context_section, _int, earlier_cells_block
from .code_generator import GenerationContext, GeneratorError, TokenUsage
from .self_checks import CHECK_TYPES, CheckSpecError, SelfCheck, parse_check

PLAN_PREFIX = "plan_"  # names of the self-checks that come from a plan
TEXT_SECTIONS = ("objectives", "approach", "risks", "lessons_applied")
_PLAN_KEYS = (*TEXT_SECTIONS, "success_criteria", "usage", "model")


class PlanSpecError(ValueError):
    """An invalid plan. The message starts with the field path
    (`plan.success_criteria[0].text: required`); `field` holds that path."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


@dataclass
class Criterion:
    text: str
    check: dict[str, Any] | None = None  # a self-check spec, when the criterion is expressible

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text} if self.check is None else {"text": self.text,
                                                               "check": self.check}


@dataclass
class Plan:
    objectives: list[str] = field(default_factory=list)
    approach: list[str] = field(default_factory=list)
    risks: list[str] = field(default_factory=list)
    success_criteria: list[Criterion] = field(default_factory=list)
    lessons_applied: list[str] = field(default_factory=list)
    usage: TokenUsage = field(default_factory=TokenUsage)
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "objectives": list(self.objectives),
            "approach": list(self.approach),
            "risks": list(self.risks),
            "success_criteria": [c.to_dict() for c in self.success_criteria],
            "lessons_applied": list(self.lessons_applied),
            "usage": self.usage.to_dict(),
            "model": self.model,
        }

    @classmethod
    def from_dict(cls, data: Any, field: str = "plan") -> Plan:
        """A plan from its stored or submitted form. A lone string where a list is expected
        is one item; anything else malformed raises `PlanSpecError` naming the field."""
        if not isinstance(data, Mapping):
            raise PlanSpecError(field, f"must be an object, not {_kind(data)}")
        unknown = sorted(str(k) for k in data if k not in _PLAN_KEYS)
        if unknown:
            raise PlanSpecError(f"{field}.{unknown[0]}",
                                f"unknown field (known: {', '.join(_PLAN_KEYS)})")
        sections = {name: _texts(data.get(name), f"{field}.{name}") for name in TEXT_SECTIONS}
        criteria = data.get("success_criteria")
        if isinstance(criteria, str | Mapping):
            criteria = [criteria]
        if criteria is None:
            criteria = []
        if not isinstance(criteria, list):
            raise PlanSpecError(f"{field}.success_criteria",
                                f"must be a list of criteria, not {_kind(criteria)}")
        usage = data.get("usage") or {}
        if not isinstance(usage, Mapping):
            raise PlanSpecError(f"{field}.usage", f"must be an object, not {_kind(usage)}")
        model = data.get("model")
        if model is not None and not isinstance(model, str):
            raise PlanSpecError(f"{field}.model", f"must be a string, not {_kind(model)}")
        return cls(
            **sections,
            success_criteria=[_criterion(c, f"{field}.success_criteria[{i}]")
                              for i, c in enumerate(criteria)],
            usage=TokenUsage(_int(usage.get("input_tokens")), _int(usage.get("output_tokens"))),
            model=model,
        )

    def render(self) -> str:
        """Short Markdown for the user: a heading, then one bulleted section per part."""
        lines = ["### Plan"]
        sections: list[tuple[str, list[str]]] = [
            ("Objectives", self.objectives),
            ("Approach", self.approach),
            ("Risks", self.risks),
            ("Success criteria", [_criterion_line(c) for c in self.success_criteria]),
            ("Lessons applied", self.lessons_applied),
        ]
        for title, items in sections:
            if items:
                lines += ["", f"**{title}**", *(f"- {_one_line(item)}" for item in items)]
        if len(lines) == 1:
            lines += ["", "(empty plan)"]
        return "\n".join(lines)

    def checks(self) -> tuple[list[SelfCheck], list[str]]:
        """Self-checks from the criteria whose `check` is a valid spec (names prefixed
        "plan_", made unique), and why each other check was dropped. Criteria without a
        check stay text."""
        checks: list[SelfCheck] = []
        dropped: list[str] = []
        taken: set[str] = set()
        for i, criterion in enumerate(self.success_criteria):
            if criterion.check is None:
                continue
            try:
                checks.append(parse_check(criterion.check, f"success_criteria[{i}].check",
                                          taken, prefix=PLAN_PREFIX, rename=True))
            except CheckSpecError as exc:
                dropped.append(f"{exc} (criterion: {criterion.text})")
        return checks, dropped


def _texts(value: Any, field: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise PlanSpecError(field, f"must be a list of strings, not {_kind(value)}")
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise PlanSpecError(f"{field}[{i}]", f"must be a string, not {_kind(item)}")
        if item.strip():
            out.append(item.strip())
    return out


def _criterion(value: Any, field: str) -> Criterion:
    if isinstance(value, str):
        return Criterion(value.strip())
    if not isinstance(value, Mapping):
        raise PlanSpecError(field, f"must be an object {{text, check?}} or a string, "
                                   f"not {_kind(value)}")
    unknown = sorted(k for k in value if k not in ("text", "check"))
    if unknown:
        raise PlanSpecError(f"{field}.{unknown[0]}", "unknown field (known: text, check)")
    text = value.get("text")
    if not isinstance(text, str) or not text.strip():
        raise PlanSpecError(f"{field}.text", "required: a non-empty string")
    check = value.get("check")
    if isinstance(check, str):  # an expression, as self-check specs allow
        check = {"type": "expression", "expr": check}
    if check is not None and not isinstance(check, Mapping):
        raise PlanSpecError(f"{field}.check", f"must be a self-check object, not {_kind(check)}")
    # The spec itself is validated by `Plan.checks()`, which drops an invalid one with the
    # reason: a criterion is still worth showing when its check is not.
    return Criterion(text.strip(), dict(check) if check is not None else None)


def _criterion_line(criterion: Criterion) -> str:
    if criterion.check is None:
        return criterion.text
    spec = criterion.check
    shown = spec.get("expr") or f"{spec.get('type')} on {spec.get('target')}"
    return f"{criterion.text} (checked: `{_one_line(str(shown))}`)"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


# -- planners -------------------------------------------------------------------------------


@runtime_checkable
class Planner(Protocol):
    """Writes the plan of a prompt cell. Implementations raise `GeneratorError`."""

    async def plan(self, prompt: str, context: GenerationContext) -> Plan: ...


TOOL_NAME = "submit_plan"

SYSTEM_PROMPT = """\
You plan one Jupyter notebook cell before its code is written. The cell runs in a live \
kernel right after the earlier cells of the notebook: their imports, data and variables \
already exist.

Plan briefly: a few short bullet points per section, no code.
- objectives: what the cell must compute or show.
- approach: the steps and methods, in order, methodologically sound (fit preprocessing on \
training data only, validate on held-out data, correct for multiple comparisons, use tests \
whose assumptions hold).
- risks: what could make the result wrong or misleading.
- success_criteria: conditions the kernel's namespace must satisfy after the cell ran. \
Express a criterion as a check whenever it can be tested on the namespace: \
{"type": "no_missing", "target": "df"}, {"type": "column_exists", "target": "df", \
"columns": ["age"]}, {"type": "in_range", "target": "acc", "min": 0, "max": 1}, or \
{"type": "expression", "expr": "len(train) > len(test)"}. Targets and expressions are \
Python expressions over the variables the cell creates or the notebook already has. Only \
add a check that must hold for the result to be valid; otherwise give the criterion as \
text only.
- lessons_applied: the lessons from earlier runs (given in the context) that apply to this \
cell and how you apply them; leave it empty when none applies.

Submit the plan by calling the submit_plan tool exactly once."""


def _check_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "A self-check run on the kernel's namespace after the cell.",
        "properties": {
            "type": {"type": "string", "enum": list(CHECK_TYPES)},
            "name": {"type": "string", "description": "Short identifier, [a-z0-9_]."},
            "target": {"type": "string",
                       "description": "no_missing, column_exists, in_range: a Python "
                                      "expression naming the object (df, df['x'])."},
            "columns": {"type": "array", "items": {"type": "string"},
                        "description": "column_exists: required columns; no_missing, "
                                       "in_range: only these columns."},
            "expr": {"type": "string",
                     "description": "expression: a Python expression that must be true."},
            "min": {"type": "number", "description": "in_range: inclusive lower bound."},
            "max": {"type": "number", "description": "in_range: inclusive upper bound."},
            "message": {"type": "string", "description": "What to say when it fails."},
        },
        "required": ["type"],
    }


def _list_of_text(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description}


SUBMIT_TOOL: dict[str, Any] = {
    "name": TOOL_NAME,
    "description": "Submit the plan of the notebook cell.",
    "input_schema": {
        "type": "object",
        "properties": {
            "objectives": _list_of_text("What the cell must compute or show."),
            "approach": _list_of_text("The steps and methods, in order."),
            "risks": _list_of_text("What could make the result wrong or misleading."),
            "success_criteria": {
                "type": "array",
                "description": "Conditions that hold after the cell ran.",
                "items": {"type": "object",
                          "properties": {"text": {"type": "string"}, "check": _check_schema()},
                          "required": ["text"]},
            },
            "lessons_applied": _list_of_text("Lessons from earlier runs applied here."),
        },
        "required": ["objectives", "approach", "success_criteria"],
    },
}


class ClaudePlanner:
    """`Planner` on the Anthropic Messages API (client from
    `services.anthropic_client.make_async_client`, injected). `temperature` goes through
    `extra_body` (the SDK's `messages.create` has no such argument); None leaves it out.
    `last_request` holds the keyword arguments of the last call."""

    def __init__(self, client: Any, *, model: str, max_tokens: int = 1500,
                 temperature: float | None = None, system_prompt: str | None = None) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.system_prompt = system_prompt or SYSTEM_PROMPT
        self.last_request: dict[str, Any] | None = None

    def request(self, prompt: str, context: GenerationContext) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": self.system_prompt,
            "messages": [{"role": "user", "content": plan_message(prompt, context)}],
            "tools": [SUBMIT_TOOL],
            "tool_choice": {"type": "tool", "name": TOOL_NAME},
        }
        if self.temperature is not None:
            kwargs["extra_body"] = {"temperature": self.temperature}
        return kwargs

    async def plan(self, prompt: str, context: GenerationContext) -> Plan:
        import anthropic  # loaded with the client; not imported without a key

        kwargs = self.request(prompt, context)
        self.last_request = kwargs
        try:
            response = await self.client.messages.create(**kwargs)
        except anthropic.APIError as exc:  # status, connection and timeout errors
            raise GeneratorError(_planner_text(_api_error_text(exc))) from exc
        except json.JSONDecodeError as exc:  # the SDK parses the body with json.loads
            raise GeneratorError(f"Claude planner: the API reply is not valid JSON ({exc})"
                                 ) from exc
        plan = parse_plan_reply(response, max_tokens=self.max_tokens)
        usage = field_of(response, "usage")
        plan.usage = TokenUsage(_int(field_of(usage, "input_tokens")),
                                _int(field_of(usage, "output_tokens")))
        plan.model = field_of(response, "model") or self.model
        return plan


def plan_message(prompt: str, context: GenerationContext) -> str:
    """The user message: the task, then the notebook context (earlier cells, variables,
    lessons from earlier runs)."""
    return "\n\n".join(part for part in [
        "Plan the code of a new notebook cell for this task (do not write the code).",
        earlier_cells_block(context),  # the generator sends these as a cached block
        f"<task>\n{prompt.strip()}\n</task>",
        _context_section(context),
        f"Call {TOOL_NAME} with the plan.",
    ] if part)


def parse_plan_reply(response: Any, *, max_tokens: int | None = None) -> Plan:
    """The Plan in the reply's submit_plan call, or `GeneratorError`."""
    data = forced_tool_input(response, TOOL_NAME, "Claude planner", GeneratorError,
                             max_tokens=max_tokens, cut_off="the plan would be incomplete")
    try:
        # usage and model come from the reply itself; extra keys the model invented are
        # ignored rather than failing the cell
        plan = Plan.from_dict({k: v for k, v in data.items()
                               if k in _PLAN_KEYS and k not in ("usage", "model")})
    except PlanSpecError as exc:
        raise GeneratorError(f"Claude planner: invalid {TOOL_NAME} input: {exc}") from exc
    if not (plan.objectives or plan.approach or plan.success_criteria):
        raise GeneratorError(f"Claude planner: {TOOL_NAME} input is an empty plan "
                             f"(keys={sorted(data)})")
    return plan


def _planner_text(text: str) -> str:
    """The code generator's API error text, said by the planner."""
    return "Claude planner: " + text.split(": ", 1)[-1]
