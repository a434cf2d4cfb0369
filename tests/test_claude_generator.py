"""The Claude code generator through the real SDK client against a local Messages API
server: request shape, the generate and fix messages, parsing, malformed replies, retries,
timeouts."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import anthropic
import pytest

from services.anthropic_client import make_async_client
from services.claude_generator import (
    SYSTEM_PROMPT,
    TOOL_NAME,
    ClaudeCodeGenerator,
    clean_code,
    fix_message,
)
from services.code_generator import (
    AttemptSummary,
    CodeGenerator,
    Generation,
    GenerationContext,
    GeneratorError,
    TokenUsage,
    VariableInfo,
)
from tests.messages_api_server import MessagesAPIServer, sdk_retry_waits

MODEL = "claude-test-generator"

PROMPT = "Train a logistic regression on the cohort and report its test accuracy."

FAILING = """\
scaler = StandardScaler().fit(X)
X_s = scaler.transform(X)
X_train, X_test, y_train, y_test = train_test_split(X_s, y, random_state=0)
model = LogisticRegression().fit(X_train, y_train)
print("accuracy", model.score(X_test, y_test))"""

FIXED = """\
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
print("accuracy", model.score(X_test, y_test))"""

FEEDBACK = ("critical leakage.scaler_before_split: StandardScaler fit on all rows (line 1) "
            "before train_test_split (line 3); the test accuracy is optimistic.")


def make_context(**overrides: Any) -> GenerationContext:
    values: dict[str, Any] = {
        "prior_cells": ['import pandas as pd\ndf = pd.read_csv("cohort.csv")',
                        'X, y = df.drop(columns="outcome"), df["outcome"]'],
        "variables": [
            VariableInfo("df", "pandas.DataFrame", shape=[500, 9],
                         columns={"age": "int64", "bmi": "float64", "outcome": "int64"}),
            VariableInfo("y", "pandas.Series", shape=[500]),
        ],
        "lessons": ["Fit preprocessing inside a Pipeline after the split in this notebook."],
    }
    values.update(overrides)
    return GenerationContext(**values)


HISTORY = [
    AttemptSummary(attempt=1, code="model = LogisticRegression().fit(X_s, y)", status="error",
                   feedback="NameError: name 'X_s' is not defined"),
    AttemptSummary(attempt=2, code=FAILING, status="critic_rejected",
                   feedback="scaler fit before the split (attempt 2 feedback)"),
]


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
def gen(client: anthropic.AsyncAnthropic) -> ClaudeCodeGenerator:
    return ClaudeCodeGenerator(client, model=MODEL, max_tokens=2048)


def submit(server: MessagesAPIServer, code: Any = FIXED, explanation: Any = "Split first.",
           **kwargs: Any) -> None:
    data: dict[str, Any] = {"code": code}
    if explanation is not None:
        data["explanation"] = explanation
    server.reply_tool(TOOL_NAME, data, **kwargs)


# -- the request ------------------------------------------------------------------------------


async def test_request_shape(server: MessagesAPIServer, gen: ClaudeCodeGenerator) -> None:
    assert isinstance(gen, CodeGenerator)
    submit(server)
    await gen.generate(PROMPT, make_context())
    [req] = server.requests
    body = req.body
    assert req.path == "/v1/messages"
    assert body["model"] == MODEL and body["max_tokens"] == 2048
    assert body["temperature"] == 0.0  # through extra_body: the SDK has no such argument
    assert body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    [tool] = body["tools"]
    assert tool["name"] == TOOL_NAME
    schema = tool["input_schema"]
    assert schema["required"] == ["code"]
    assert schema["properties"]["code"]["type"] == "string"
    assert schema["properties"]["explanation"]["type"] == "string"
    # stable first, marked for prompt caching: tools, system, then the earlier cells
    [system] = body["system"]
    assert system == {"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}
    for phrase in ("one complete, runnable cell", "Reuse the kernel's existing variables",
                   "after the split", "suppress warnings", "try/except"):
        assert phrase in system["text"]
    # this SDK (2.x) sends the API key as a Bearer token, not as x-api-key
    assert req.headers["authorization"] == "Bearer test-key"
    assert "x-api-key" not in req.headers
    assert req.headers["anthropic-version"]
    [message] = body["messages"]
    cells, rest = message["content"]
    assert message["role"] == "user"
    assert cells["cache_control"] == {"type": "ephemeral"}
    assert cells["text"].startswith("<earlier_cells>") and "pd.read_csv" in cells["text"]
    assert "cache_control" not in rest and "<task>" in rest["text"]
    assert "pd.read_csv" not in rest["text"]  # what changes per call comes last, alone
    assert gen.last_request is not None and gen.last_request["model"] == MODEL


async def test_temperature_and_system_prompt_options(server: MessagesAPIServer,
                                                     client: anthropic.AsyncAnthropic) -> None:
    submit(server)
    submit(server)
    await ClaudeCodeGenerator(client, model=MODEL, temperature=0.7,
                              system_prompt="Custom system.").generate(PROMPT, make_context())
    await ClaudeCodeGenerator(client, model=MODEL, temperature=None).generate(
        PROMPT, make_context())
    first, second = (r.body for r in server.requests)
    assert first["temperature"] == 0.7 and first["system"][0]["text"] == "Custom system."
    assert first["max_tokens"] == 4096  # the default
    assert "temperature" not in second  # None: left out, for models that reject it


# -- the messages -------------------------------------------------------------------------------


async def test_generate_message(server: MessagesAPIServer, gen: ClaudeCodeGenerator) -> None:
    submit(server)
    await gen.generate(PROMPT, make_context())
    text = server.requests[0].user_text
    assert f"<task>\n{PROMPT}\n</task>" in text
    assert 'df = pd.read_csv("cohort.csv")' in text  # earlier cells
    assert 'X, y = df.drop(columns="outcome"), df["outcome"]' in text
    assert "df: pandas.DataFrame shape=(500, 9)" in text  # variables: name, type, shape
    assert "age (int64), bmi (float64), outcome (int64)" in text  # columns
    assert "y: pandas.Series" in text
    assert "## Lessons from earlier runs" in text
    assert "Fit preprocessing inside a Pipeline after the split" in text
    assert "<failing_code>" not in text


async def test_generate_with_empty_context(server: MessagesAPIServer,
                                           gen: ClaudeCodeGenerator) -> None:
    submit(server)
    await gen.generate(PROMPT, GenerationContext())
    text = server.requests[0].user_text
    assert "no earlier cells, no variables" in text
    assert "Lessons from earlier runs" not in text


async def test_fix_message(server: MessagesAPIServer, gen: ClaudeCodeGenerator) -> None:
    submit(server)
    await gen.fix(PROMPT, FAILING, FEEDBACK, HISTORY, make_context())
    text = server.requests[0].user_text
    assert f"<task>\n{PROMPT}\n</task>" in text
    assert "1 | scaler = StandardScaler().fit(X)" in text  # the failing code, numbered
    assert '5 | print("accuracy", model.score(X_test, y_test))' in text
    assert FEEDBACK in text
    assert "### Attempt 1 (status: error)" in text
    assert "NameError: name 'X_s' is not defined" in text
    assert "### Attempt 2 (status: critic_rejected)" in text
    assert "attempt 2 feedback" in text
    assert "model = LogisticRegression().fit(X_s, y)" in text  # code excerpt
    assert text.index("### Attempt 1") < text.index("### Attempt 2")  # oldest first
    assert "## Lessons from earlier runs" in text
    assert "df: pandas.DataFrame" in text and 'pd.read_csv("cohort.csv")' in text
    # the order: earlier cells (cached), task, failing code, feedback, attempts, variables
    marks = ["<earlier_cells>", "<task>", "<failing_code>", "<feedback", "<earlier_attempts",
             "<notebook_context>"]
    assert [text.index(m) for m in marks] == sorted(text.index(m) for m in marks)


async def test_a_blocked_cell_is_not_called_failed(server: MessagesAPIServer,
                                                   gen: ClaudeCodeGenerator) -> None:
    submit(server)
    await gen.fix(PROMPT, FAILING, FEEDBACK, [], make_context(status="scientific_validity_error"))
    text = server.requests[0].user_text
    assert "ran without error, but the reviewer blocked its result" in text
    assert "<blocked_code>" in text and "failed" not in text.split("<task>")[0]


async def test_fix_without_prompt_or_history(server: MessagesAPIServer,
                                             gen: ClaudeCodeGenerator) -> None:
    submit(server)
    await gen.fix(None, FAILING, "KeyError: 'outcome'", [], make_context(lessons=[]))
    text = server.requests[0].user_text
    assert "<task>" not in text and "<earlier_attempts" not in text
    assert "KeyError: 'outcome'" in text and "1 | scaler" in text
    assert "Lessons from earlier runs" not in text


def test_history_is_bounded_newest_first() -> None:
    long_code = "\n".join(f"value_{i} = compute({i})  # step" for i in range(300))
    history = [AttemptSummary(attempt=i, code=long_code, status="error",
                              feedback=f"ValueError: failure number {i}\n" + "trace line\n" * 200)
               for i in range(1, 101)]
    text = fix_message(PROMPT, FAILING, "x" * 50_000, history, GenerationContext())
    assert len(text) < 12_000 + 6_000 + 8_000 + 2_000  # code + feedback + history + framing
    assert "characters not shown" in text  # the huge feedback was cut in the middle
    # the newest attempts in full (with a code excerpt), older ones as one line, oldest counted
    newest = text[text.index("### Attempt 100"):]
    assert newest.startswith("### Attempt 100 (status: error)\nCode:")
    assert "value_0 = compute(0)" in newest and "more lines" in newest
    assert "ValueError: failure number 100" in newest
    assert "### Attempt 99 (status: error)\nCode:" in text
    assert "### Attempt 98 (status: error)\nCode:" not in text
    assert "### Attempt 98 (status: error): ValueError: failure number 98" in text
    assert "### Attempt 60 (status: error): ValueError: failure number 60" in text
    assert "older attempt(s) not shown" in text and "### Attempt 1 " not in text
    attempts = [int(n) for n in re.findall(r"### Attempt (\d+)", text)]
    assert attempts == sorted(attempts) and attempts[-1] == 100  # oldest first, no gaps
    assert attempts == list(range(attempts[0], 101))


# -- parsing ------------------------------------------------------------------------------------


async def test_generation_from_the_reply(server: MessagesAPIServer,
                                         gen: ClaudeCodeGenerator) -> None:
    submit(server, explanation=" Moved the scaler into a Pipeline fit after the split. ",
           usage=(1234, 56), text="I'll submit the fix.")
    result = await gen.fix(PROMPT, FAILING, FEEDBACK, HISTORY, make_context())
    assert result == Generation(
        code=FIXED, explanation="Moved the scaler into a Pipeline fit after the split.",
        usage=TokenUsage(1234, 56), model=MODEL)
    assert gen.last_stop_reason == "tool_use"


async def test_model_comes_from_the_reply(server: MessagesAPIServer,
                                          gen: ClaudeCodeGenerator) -> None:
    submit(server, explanation=None, model="claude-served-model")
    result = await gen.generate(PROMPT, make_context())
    assert result.model == "claude-served-model" and result.explanation == ""


@pytest.mark.parametrize("wrapped", [
    f"```python\n{FIXED}\n```",
    f"```\n{FIXED}\n```\n",
    f"\n  ```py\n{FIXED}```",
    "\n".join(f"{i:>2} | {line}" for i, line in enumerate(FIXED.splitlines(), 1)),
])
async def test_fenced_or_numbered_code_is_unwrapped(server: MessagesAPIServer,
                                                    gen: ClaudeCodeGenerator,
                                                    wrapped: str) -> None:
    submit(server, code=wrapped)
    assert (await gen.generate(PROMPT, make_context())).code == FIXED


def test_clean_code_keeps_inner_fences_and_pipes() -> None:
    code = 's = """```\\nx\\n```"""\nflags = 1 | 2\nprint(s, flags)'
    assert clean_code(code) == code
    assert clean_code("    x = 1\n    y = 2\n") == "    x = 1\n    y = 2"  # indentation kept


@pytest.mark.parametrize(("script", "match"), [
    ("text", "no submit_code tool call"),
    ("wrong_tool", r"no submit_code tool call .*tools called=\['run_code'\]"),
    ("missing_code", "no 'code'"),
    ("non_string_code", "'code' is not a string"),
    ("list_code", "'code' is not a string"),
    ("empty_code", "'code' is empty"),
    ("blank_fence", "'code' is empty"),
    ("invalid_json", "not valid JSON"),
    ("not_a_message", "no submit_code tool call"),
    ("max_tokens", "cut off at max_tokens=2048"),
    ("refusal", "refused"),
])
async def test_unusable_reply_raises_generator_error(server: MessagesAPIServer,
                                                     gen: ClaudeCodeGenerator, script: str,
                                                     match: str) -> None:
    if script == "text":
        server.reply_text("Here is the code:\n```python\nx = 1\n```")
    elif script == "wrong_tool":
        server.reply_tool("run_code", {"code": FIXED})
    elif script == "missing_code":
        server.reply_tool(TOOL_NAME, {"explanation": "done"})
    elif script == "non_string_code":
        submit(server, code=42)
    elif script == "list_code":
        submit(server, code=["x = 1", "print(x)"])
    elif script == "empty_code":
        submit(server, code="  \n\t")
    elif script == "blank_fence":
        submit(server, code="```python\n\n```")
    elif script == "invalid_json":
        server.reply_raw('{"id": "msg_1", "type": "message", "content": [')
    elif script == "not_a_message":
        server.reply_raw("[1, 2]")
    elif script == "max_tokens":  # a cut-off tool input: even a parsable prefix is rejected
        submit(server, code="X_train, X_test = train_test_split(", stop_reason="max_tokens")
    else:
        server.reply_message([{"type": "text", "text": "I can't help with that."}],
                             stop_reason="refusal")
    with pytest.raises(GeneratorError, match=match) as info:
        await gen.fix(PROMPT, FAILING, FEEDBACK, [], make_context())
    assert str(info.value).startswith("Claude code generator:")
    assert len(server.requests) == 1  # a bad 200 reply is not retried


# -- retries and timeouts (the real SDK's policy) -----------------------------------------------


async def test_429_then_success_is_retried(server: MessagesAPIServer,
                                           gen: ClaudeCodeGenerator,
                                           caplog: pytest.LogCaptureFixture) -> None:
    server.reply_error(429, "rate limited", retry_after="0.05")
    submit(server)
    with caplog.at_level(logging.INFO, logger="anthropic"):
        result = await gen.generate(PROMPT, make_context())
    assert result.code == FIXED
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]
    assert sdk_retry_waits(caplog.records) == [0.05]  # the retry-after, not the backoff


async def test_429_beyond_max_retries_raises(server: MessagesAPIServer) -> None:
    server.reply_errors(429, 3, retry_after="0.01")
    submit(server)
    async with make_async_client("k", base_url=server.url, max_retries=1) as c:
        with pytest.raises(GeneratorError, match="API error 429"):
            await ClaudeCodeGenerator(c, model=MODEL).generate(PROMPT, make_context())
    assert len(server.requests) == 2 and server.pending == 2


@pytest.mark.parametrize("max_retries", [0, 2])
async def test_repeated_500_fails_after_max_retries_plus_one(server: MessagesAPIServer,
                                                             max_retries: int) -> None:
    server.reply_errors(500, 5, retry_after="0.01")
    async with make_async_client("k", base_url=server.url, max_retries=max_retries) as c:
        with pytest.raises(GeneratorError, match=r"API error 500 \(InternalServerError\)") as info:
            await ClaudeCodeGenerator(c, model=MODEL).fix(PROMPT, FAILING, FEEDBACK, HISTORY,
                                                          make_context())
    assert isinstance(info.value.__cause__, anthropic.InternalServerError)
    assert len(server.requests) == max_retries + 1
    assert server.pending == 5 - (max_retries + 1)


async def test_client_errors_are_not_retried(server: MessagesAPIServer,
                                             gen: ClaudeCodeGenerator) -> None:
    server.reply_error(400, "max_tokens: too large")
    with pytest.raises(GeneratorError, match=r"API error 400.*max_tokens: too large"):
        await gen.generate(PROMPT, make_context())
    assert len(server.requests) == 1


async def test_timeout_raises_after_bounded_attempts(server: MessagesAPIServer) -> None:
    server.delay(3.0)
    server.delay(3.0)
    async with make_async_client("k", base_url=server.url, timeout=0.3, max_retries=1) as c:
        # a timeout, not the late reply (plain text, no code: another error)
        with pytest.raises(GeneratorError, match="timed out") as info:
            await ClaudeCodeGenerator(c, model=MODEL).generate(PROMPT, make_context())
    assert isinstance(info.value.__cause__, anthropic.APITimeoutError)
    assert len(server.requests) == 2  # timeouts are retried like connection errors


async def test_connection_refused_raises(server: MessagesAPIServer) -> None:
    url = server.url
    server.close()  # nothing listens on the port any more
    async with make_async_client("k", base_url=url, timeout=0.5, max_retries=0) as c:
        with pytest.raises(GeneratorError, match="could not connect") as info:
            await ClaudeCodeGenerator(c, model=MODEL).generate(PROMPT, make_context())
    assert isinstance(info.value.__cause__, anthropic.APIConnectionError)
