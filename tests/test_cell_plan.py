"""Pre-run plans: the Claude planner through the real SDK client against a local Messages API
server (request shape, reply parsing, malformed replies, retries), criteria turned into
self-checks, the stored form and its rendering, and the scripted planner."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anthropic
import pandas as pd
import pytest

from services.anthropic_client import make_async_client
from services.cell_plan import (
    SYSTEM_PROMPT,
    TOOL_NAME,
    ClaudePlanner,
    Criterion,
    Plan,
    Planner,
    PlanSpecError,
)
from services.code_generator import GenerationContext, GeneratorError, TokenUsage, VariableInfo
from services.scripted_planner import ScriptedPlanner
from services.self_check_kernel import evaluate
from services.self_checks import SelfCheck
from tests.messages_api_server import MessagesAPIServer

MODEL = "claude-test-planner"
PROMPT = "Train a logistic regression on the cohort and report its test accuracy."
LESSON = "Fit preprocessing inside a Pipeline after the split (leakage.scaler_before_split)."

PLAN_INPUT: dict[str, Any] = {
    "objectives": ["Report the held-out accuracy of a logistic regression."],
    "approach": ["Split 80/20 with a seed.", "Pipeline(StandardScaler, LogisticRegression)."],
    "risks": ["Scaler fit before the split leaks test rows."],
    "success_criteria": [
        {"text": "Accuracy is a proportion.",
         "check": {"type": "in_range", "target": "accuracy", "min": 0, "max": 1}},
        {"text": "The test set is smaller than the training set.",
         "check": {"type": "expression", "expr": "len(X_test) < len(X_train)"}},
        {"text": "The model is easy to explain."},
    ],
    "lessons_applied": ["Scaling happens inside the pipeline, after the split."],
}


def make_context() -> GenerationContext:
    return GenerationContext(
        prior_cells=['import pandas as pd\ncohort = pd.read_csv("cohort.csv")'],
        variables=[VariableInfo("cohort", "pandas.DataFrame", shape=[500, 9],
                                columns={"age": "int64", "outcome": "int64"})],
        lessons=[LESSON])


@pytest.fixture
def server() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as srv:
        yield srv


@pytest.fixture
async def client(server: MessagesAPIServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    async with make_async_client(api_key="test-key", base_url=server.url, timeout=5.0,
                                 max_retries=2, max_retry_wait=1.0) as c:
        yield c


@pytest.fixture
def planner(client: anthropic.AsyncAnthropic) -> ClaudePlanner:
    return ClaudePlanner(client, model=MODEL)


# -- the Claude planner -----------------------------------------------------------------------


async def test_request_shape(server: MessagesAPIServer, planner: ClaudePlanner) -> None:
    assert isinstance(planner, Planner)
    server.reply_tool(TOOL_NAME, PLAN_INPUT)
    await planner.plan(PROMPT, make_context())
    [req] = server.requests
    body = req.body
    assert body["model"] == MODEL and body["max_tokens"] == 1500
    assert "temperature" not in body  # None by default: left out
    assert body["system"] == SYSTEM_PROMPT
    assert body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    [tool] = body["tools"]
    schema = tool["input_schema"]
    assert tool["name"] == TOOL_NAME
    assert set(schema["required"]) == {"objectives", "approach", "success_criteria"}
    criterion = schema["properties"]["success_criteria"]["items"]
    assert criterion["required"] == ["text"]
    assert criterion["properties"]["check"]["properties"]["type"]["enum"] == [
        "no_missing", "column_exists", "in_range", "expression"]
    text = req.user_text
    assert f"<task>\n{PROMPT}\n</task>" in text
    assert LESSON in text and "Lessons from earlier runs" in text
    assert "cohort: pandas.DataFrame shape=(500, 9)" in text
    assert 'cohort = pd.read_csv("cohort.csv")' in text


async def test_temperature_goes_through_extra_body(server: MessagesAPIServer,
                                                   client: anthropic.AsyncAnthropic) -> None:
    server.reply_tool(TOOL_NAME, PLAN_INPUT)
    await ClaudePlanner(client, model=MODEL, max_tokens=900, temperature=0.2).plan(
        PROMPT, GenerationContext())
    body = server.requests[0].body
    assert body["temperature"] == 0.2 and body["max_tokens"] == 900
    assert "(no earlier cells, no variables in the kernel)" in server.requests[0].user_text


async def test_plan_from_the_reply(server: MessagesAPIServer, planner: ClaudePlanner) -> None:
    server.reply_tool(TOOL_NAME, PLAN_INPUT, usage=(321, 87), model="claude-reply-model")
    plan = await planner.plan(PROMPT, make_context())
    assert plan.objectives == PLAN_INPUT["objectives"]
    assert plan.approach == PLAN_INPUT["approach"]
    assert plan.risks == PLAN_INPUT["risks"]
    assert plan.lessons_applied == PLAN_INPUT["lessons_applied"]
    assert plan.success_criteria[0] == Criterion(
        "Accuracy is a proportion.",
        {"type": "in_range", "target": "accuracy", "min": 0, "max": 1})
    assert plan.success_criteria[2] == Criterion("The model is easy to explain.")
    assert plan.usage == TokenUsage(321, 87)
    assert plan.model == "claude-reply-model"


async def test_lenient_where_harmless(server: MessagesAPIServer, planner: ClaudePlanner) -> None:
    server.reply_tool(TOOL_NAME, {"objectives": "One objective.", "approach": ["Do it."],
                                  "success_criteria": ["Plain text criterion",
                                                       {"text": "t", "check": "x > 0"}],
                                  "confidence": "high"})  # an invented key is ignored
    plan = await planner.plan(PROMPT, GenerationContext())
    assert plan.objectives == ["One objective."] and plan.risks == []
    assert plan.success_criteria == [Criterion("Plain text criterion"),
                                     Criterion("t", {"type": "expression", "expr": "x > 0"})]


@pytest.mark.parametrize(("script", "message"), [
    (lambda s: s.reply_text("Here is my plan: ..."), "no submit_plan tool call"),
    (lambda s: s.reply_tool("submit_code", {"code": "x"}), "no submit_plan tool call"),
    (lambda s: s.reply_tool(TOOL_NAME, {"objectives": [1], "approach": [],
                                        "success_criteria": []}),
     "invalid submit_plan input: plan.objectives[0]: must be a string"),
    (lambda s: s.reply_tool(TOOL_NAME, {"objectives": ["o"], "approach": [],
                                        "success_criteria": [{"check": {"expr": "x"}}]}),
     "plan.success_criteria[0].text: required"),
    (lambda s: s.reply_tool(TOOL_NAME, {"objectives": [], "approach": [],
                                        "success_criteria": []}), "empty plan"),
    (lambda s: s.reply_tool(TOOL_NAME, PLAN_INPUT, stop_reason="max_tokens"),
     "cut off at max_tokens=1500"),
    (lambda s: s.reply_text("no", stop_reason="refusal"), "refused"),
    (lambda s: s.reply_raw("{not json"), "not valid JSON"),
])
async def test_malformed_replies_raise_generator_error(server: MessagesAPIServer,
                                                       planner: ClaudePlanner, script: Any,
                                                       message: str) -> None:
    script(server)
    with pytest.raises(GeneratorError, match="Claude planner") as info:
        await planner.plan(PROMPT, GenerationContext())
    assert message in str(info.value)


async def test_429_then_success_is_retried(server: MessagesAPIServer,
                                           planner: ClaudePlanner) -> None:
    server.reply_error(429, "rate limited", retry_after="0.01")
    server.reply_tool(TOOL_NAME, PLAN_INPUT)
    plan = await planner.plan(PROMPT, make_context())
    assert len(server.requests) == 2 and plan.objectives == PLAN_INPUT["objectives"]


async def test_500_raises_generator_error(server: MessagesAPIServer) -> None:
    server.reply_errors(500, 2, retry_after="0.01")
    async with make_async_client(api_key="k", base_url=server.url, timeout=5.0,
                                 max_retries=1) as c:
        with pytest.raises(GeneratorError,
                           match=r"^Claude planner: API error 500 \(InternalServerError\)"):
            await ClaudePlanner(c, model=MODEL).plan(PROMPT, GenerationContext())
    assert len(server.requests) == 2  # the SDK's one retry, then the error


# -- criteria as self-checks --------------------------------------------------------------------


def test_checks_from_criteria() -> None:
    plan = Plan.from_dict(PLAN_INPUT)
    checks, dropped = plan.checks()
    assert dropped == []
    assert checks == [
        SelfCheck(type="in_range", name="plan_in_range_accuracy", target="accuracy",
                  min=0.0, max=1.0),
        SelfCheck(type="expression", name="plan_expression_len_x_test_len_x_train",
                  expr="len(X_test) < len(X_train)"),
    ]
    assert checks[0].rule_id == "self_check.plan_in_range_accuracy"


def test_invalid_criterion_checks_are_dropped_with_the_reason() -> None:
    plan = Plan(success_criteria=[
        Criterion("Share in range", {"type": "in_range", "target": "share", "min": "zero"}),
        Criterion("No gaps", {"type": "no_missing", "target": "df", "name": "gaps"}),
        Criterion("Also no gaps", {"type": "no_missing", "target": "df", "name": "gaps"}),
        Criterion("Broken", {"type": "expression", "expr": "len(df) >"}),
        Criterion("Just text"),
    ])
    checks, dropped = plan.checks()
    # a repeated name is renamed, not dropped: the model's criterion is kept
    assert [c.name for c in checks] == ["plan_gaps", "plan_gaps_2"]
    assert dropped == [
        "success_criteria[0].check.min: must be a number, not 'zero' (criterion: Share in range)",
        "success_criteria[3].check.expr: not a valid Python expression (invalid syntax): "
        "'len(df) >' (criterion: Broken)",
    ]


def test_plan_checks_evaluate_on_a_namespace() -> None:
    checks, _ = Plan.from_dict(PLAN_INPUT).checks()
    ns = {"accuracy": 1.2, "X_train": pd.DataFrame({"a": range(8)}),
          "X_test": pd.DataFrame({"a": range(2)})}
    results = json.loads(evaluate(ns, [c.to_dict() for c in checks]))
    assert [(r["name"], r["passed"]) for r in results] == [
        ("plan_in_range_accuracy", False), ("plan_expression_len_x_test_len_x_train", True)]


# -- stored form and rendering -------------------------------------------------------------


def test_round_trip() -> None:
    plan = Plan.from_dict(PLAN_INPUT)
    plan.usage, plan.model = TokenUsage(10, 4), "claude-x"
    stored = json.loads(json.dumps(plan.to_dict()))  # what cell metadata holds
    assert stored["usage"] == {"input_tokens": 10, "output_tokens": 4, "total": 14}
    assert stored["success_criteria"][2] == {"text": "The model is easy to explain."}
    assert Plan.from_dict(stored) == plan
    assert Plan.from_dict({}) == Plan()


@pytest.mark.parametrize(("data", "message"), [
    ([], "plan: must be an object, not list"),
    ({"objectives": {"a": 1}}, "plan.objectives: must be a list of strings, not dict"),
    ({"risks": ["ok", None]}, "plan.risks[1]: must be a string, not null"),
    ({"success_criteria": 3}, "plan.success_criteria: must be a list of criteria, not int"),
    ({"success_criteria": [7]}, "plan.success_criteria[0]: must be an object"),
    ({"success_criteria": [{"text": "t", "check": 5}]},
     "plan.success_criteria[0].check: must be a self-check object, not int"),
    ({"success_criteria": [{"text": "t", "why": "x"}]},
     "plan.success_criteria[0].why: unknown field"),
    ({"objective": ["typo"]}, "plan.objective: unknown field"),
    ({"usage": "lots"}, "plan.usage: must be an object"),
    ({"model": 3}, "plan.model: must be a string"),
])
def test_bad_plans_name_the_field(data: Any, message: str) -> None:
    with pytest.raises(PlanSpecError) as info:
        Plan.from_dict(data)
    assert str(info.value).startswith(message), str(info.value)
    assert str(info.value).startswith(info.value.field + ": ")


def test_render_is_short_markdown() -> None:
    text = Plan.from_dict(PLAN_INPUT).render()
    assert text.splitlines()[0] == "### Plan"
    assert "**Objectives**\n- Report the held-out accuracy of a logistic regression." in text
    assert "**Approach**\n- Split 80/20 with a seed.\n- Pipeline(" in text
    assert "- The test set is smaller than the training set. (checked: " \
           "`len(X_test) < len(X_train)`)" in text
    assert "- Accuracy is a proportion. (checked: `in_range on accuracy`)" in text
    assert "**Lessons applied**" in text
    sections = Plan(objectives=["only this"]).render()
    assert "**Risks**" not in sections and "**Approach**" not in sections
    assert Plan().render() == "### Plan\n\n(empty plan)"


# -- the scripted planner -------------------------------------------------------------------


async def test_scripted_planner_answers_in_order_and_records_calls() -> None:
    first = Plan(objectives=["first"])
    planner = ScriptedPlanner([first, {"objectives": ["second"]}])
    planner.queue(GeneratorError("model down"))
    assert isinstance(planner, Planner) and planner.pending == 3
    context = make_context()
    assert await planner.plan("p1", context) is first
    second = await planner.plan("p2", GenerationContext())
    assert second.objectives == ["second"] and second.model == "scripted"
    with pytest.raises(GeneratorError, match="model down"):
        await planner.plan("p3", GenerationContext())
    with pytest.raises(GeneratorError, match="no plan left"):
        await planner.plan("p4", GenerationContext())
    assert [c.prompt for c in planner.calls] == ["p1", "p2", "p3", "p4"]
    assert planner.calls[0].context.lessons == [LESSON]
