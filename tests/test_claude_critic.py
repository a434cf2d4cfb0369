"""The Claude critic through the real SDK client against a local Messages API server:
request shape, parsing, the evidence check, malformed replies, retries, timeouts, and its
place in AnalysisCritic."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anthropic
import pytest

from critics.claude_critic import FAMILIES, TOOL_NAME, ClaudeCritic
from critics.critic import AnalysisCritic
from critics.evidence import Evidence, ObjectFacts, SampleFacts
from critics.findings import Finding, Severity
from critics.rule import rule
from services.anthropic_client import make_async_client
from services.notebook_service import NotebookService
from tests.conftest import make_settings
from tests.messages_api_server import MessagesAPIServer, sdk_retry_waits

MODEL = "claude-test-critic"

CODE = """\
scaler = StandardScaler().fit(X)
X_s = scaler.transform(X)
X_train, X_test, y_train, y_test = train_test_split(X_s, y, random_state=0)
model = LogisticRegression().fit(X_train, y_train)
print("accuracy", model.score(X_test, y_test))
model.score(X_test, y_test)"""

PRIOR = """\
import pandas as pd
from sklearn.preprocessing import StandardScaler
df = pd.read_csv("cohort.csv")
X, y = df.drop(columns="outcome"), df["outcome"]"""


def make_evidence(**overrides: Any) -> Evidence:
    values: dict[str, Any] = {
        "code": CODE,
        "prior_code": PRIOR,
        "outputs": [
            {"output_type": "stream", "name": "stdout", "text": "accuracy 0.9312\n"},
            {"output_type": "stream", "name": "stderr",
             "text": "/x/linear.py:469: ConvergenceWarning: lbfgs failed to converge\n"},
            {"output_type": "execute_result", "execution_count": 3, "metadata": {},
             "data": {"text/plain": "0.9312"}},
            {"output_type": "display_data", "metadata": {},
             "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480>"}},
        ],
        "objects": {
            "X": ObjectFacts(name="X", type="pandas.DataFrame", kind="dataframe",
                             shape=[500, 8], missing={"age": 3}),
            "scaler": ObjectFacts(name="scaler", type="sklearn.preprocessing.StandardScaler",
                                  kind="estimator", fitted=True,
                                  fitted_on={"n_samples_seen_": 500}),
        },
        "samples": [SampleFacts(call="scipy.stats.ttest_ind", line=9, arg=0, expr="a",
                                n=12, skew=2.7)],
    }
    values.update(overrides)
    return Evidence(**values)


def finding(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "family": "leakage",
        "title": "Scaler fit on all rows before the split",
        "explanation": "The test rows informed the scaling, so the accuracy is optimistic.",
        "severity": "critical",
        "confidence": 0.95,
        "quotes": ["scaler = StandardScaler().fit(X)"],
        "lines": [1],
        "suggestion": "Split first, fit the scaler on X_train only (or use a Pipeline).",
    }
    data.update(overrides)
    return data


@pytest.fixture
def server() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as srv:
        yield srv


@pytest.fixture
async def client(server: MessagesAPIServer) -> AsyncIterator[anthropic.AsyncAnthropic]:
    async with make_async_client(api_key="test", base_url=server.url, timeout=5.0,
                                 max_retries=2) as c:
        yield c


@pytest.fixture
def critic(client: anthropic.AsyncAnthropic) -> ClaudeCritic:
    return ClaudeCritic(client, model=MODEL, max_tokens=1024)


async def review_with(server: MessagesAPIServer, critic: ClaudeCritic, *items: dict[str, Any],
                      evidence: Evidence | None = None) -> list[Finding]:
    server.reply_tool(TOOL_NAME, {"findings": list(items)})
    return await critic.review(evidence or make_evidence())


# -- the request ------------------------------------------------------------------------------


async def test_request_shape(server: MessagesAPIServer, critic: ClaudeCritic) -> None:
    assert await review_with(server, critic) == []
    [req] = server.requests
    body = req.body
    assert req.path == "/v1/messages"
    assert body["model"] == MODEL and body["max_tokens"] == 1024
    assert body["temperature"] == 0.0  # a review is a judgement: the same cell, the same one
    assert body["tool_choice"] == {"type": "tool", "name": TOOL_NAME}
    [tool] = body["tools"]
    assert tool["name"] == TOOL_NAME
    item = tool["input_schema"]["properties"]["findings"]["items"]
    assert item["properties"]["family"]["enum"] == list(FAMILIES)
    assert item["properties"]["severity"]["enum"] == ["info", "low", "medium", "high", "critical"]
    assert {"quotes", "severity", "confidence"} <= set(item["required"])
    # stable first, marked for prompt caching: tool, system, earlier cells; the cell last
    [system] = body["system"]
    assert system["cache_control"] == {"type": "ephemeral"}
    assert "verbatim" in system["text"] and "empty" in system["text"]
    earlier, cell = body["messages"][0]["content"]
    assert earlier["cache_control"] == {"type": "ephemeral"}
    assert 'df = pd.read_csv("cohort.csv")' in earlier["text"]
    assert "cache_control" not in cell and "1 | scaler" in cell["text"]
    assert "cohort.csv" not in cell["text"]
    # the API key travels as a header (SDK 2.x: `Authorization: Bearer`; older: x-api-key)
    sent_key = req.headers.get("x-api-key") or req.headers.get("authorization", "")
    assert sent_key.removeprefix("Bearer ") == "test"
    assert req.headers["anthropic-version"]

    [message] = body["messages"]
    assert message["role"] == "user"
    text = req.user_text
    assert "1 | scaler = StandardScaler().fit(X)" in text  # the code, line-numbered
    assert "6 | model.score(X_test, y_test)" in text
    assert 'df = pd.read_csv("cohort.csv")' in text  # earlier cells
    assert "accuracy 0.9312" in text  # stdout
    assert "<Figure size 640x480>" in text  # text/plain of a display
    assert "1 image(s)" in text and "iVBORw0KGgo" not in text
    assert "ConvergenceWarning: lbfgs failed to converge" in text
    assert '"shape":[500,8]' in text and '"n_samples_seen_":500' in text  # kernel facts
    assert '"skew":2.7' in text


async def test_temperature_is_left_out_when_unset(server: MessagesAPIServer,
                                                  client: anthropic.AsyncAnthropic) -> None:
    critic = ClaudeCritic(client, model=MODEL, temperature=None)
    await review_with(server, critic)
    assert "temperature" not in server.requests[0].body


def test_prompt_respects_the_char_budgets() -> None:
    critic = ClaudeCritic(None, model=MODEL, max_output_chars=600, max_code_chars=1500)
    long_out = "".join(f"row {i}: value {i * 7}\n" for i in range(2000))
    ev = make_evidence(
        outputs=[{"output_type": "stream", "name": "stdout", "text": long_out + "FINAL 0.93\n"}],
        prior_code="\n".join(f"step_{i} = {i}" for i in range(5000)),
    )
    text = critic.user_message(ev)
    assert "FINAL 0.93" in text and "row 0: value 0" in text  # head and tail kept
    assert "characters not shown" in text
    assert "step_4999 = 4999" in text and "step_0 = 0" not in text  # the last part of the prior
    assert "earlier code not shown" in text
    assert len(text) < 1500 + 600 * 2 + 1500  # code + outputs + facts + framing

    huge = "\n".join(f"v{i} = {i}" for i in range(3000))
    text = critic.user_message(make_evidence(code=huge))
    assert "more lines not shown" in text and "earlier_cells" not in text


async def test_empty_cell_makes_no_call(server: MessagesAPIServer, critic: ClaudeCritic) -> None:
    assert await critic.review(make_evidence(code="  \n")) == []
    assert server.requests == []


# -- parsing and the evidence check -------------------------------------------------------------


async def test_verified_finding(server: MessagesAPIServer, critic: ClaudeCritic) -> None:
    server.reply_tool(TOOL_NAME, {"findings": [finding()]}, usage=(1234, 56),
                      text="I will report the findings.")
    [f] = await critic.review(make_evidence())
    assert f.rule_id == "claude.leakage" and f.family == "leakage" and f.source == "claude"
    assert f.severity is Severity.CRITICAL
    assert f.confidence == 0.9  # capped
    assert f.evidence == {"lines": [1], "quotes": ["scaler = StandardScaler().fit(X)"]}
    assert f.title.startswith("Scaler fit") and f.suggestion.startswith("Split first")
    assert f.is_blocking(0.8)
    assert critic.last_usage == {"input_tokens": 1234, "output_tokens": 56,
                                 "cache_read_input_tokens": 0,
                                 "cache_creation_input_tokens": 0}
    assert critic.last_stop_reason == "tool_use"


@pytest.mark.parametrize("quote", [
    "scaler   =\tStandardScaler().fit(X)",  # whitespace differs
    "1 | scaler = StandardScaler().fit(X)",  # the line-number prefix of the prompt
    "`scaler = StandardScaler().fit(X)`",  # markdown backticks
    "scaler = StandardScaler().fit(X)\nX_s = scaler.transform(X)",  # two lines
    "accuracy 0.9312",  # stdout
    "<Figure size 640x480>",  # text/plain
    "ConvergenceWarning: lbfgs failed to converge",  # stderr
    'df = pd.read_csv("cohort.csv")',  # an earlier cell
])
async def test_quotes_that_verify(server: MessagesAPIServer, critic: ClaudeCritic,
                                  quote: str) -> None:
    [f] = await review_with(server, critic, finding(quotes=[quote]))
    assert "unverified" not in f.evidence
    assert f.severity is Severity.CRITICAL and f.confidence == 0.9


@pytest.mark.parametrize("quotes", [
    ["scaler = MinMaxScaler().fit(X)"],  # invented
    [],  # nothing quoted
    ["X)"],  # too short to prove anything
    [42],  # not a string
])
async def test_unverified_finding_is_downgraded(server: MessagesAPIServer, critic: ClaudeCritic,
                                                quotes: list[Any]) -> None:
    [f] = await review_with(server, critic, finding(quotes=quotes, confidence=0.8))
    assert f.evidence["unverified"] is True
    assert f.severity is Severity.MEDIUM  # two steps below critical
    assert f.confidence == 0.4
    assert not f.is_blocking(0.0)


@pytest.mark.parametrize("quote", [
    "StandardScaler().fit(X)",  # a fragment of line 1
    "scaler.transform(X)",  # a fragment of line 2
    "accuracy 0.93",  # part of an output line
    "model.score(X_test, y_test))",  # not a statement of the cell
])
async def test_fragments_are_not_evidence(server: MessagesAPIServer, critic: ClaudeCritic,
                                          quote: str) -> None:
    [f] = await review_with(server, critic, finding(quotes=[quote]))
    assert f.evidence["unverified"] is True and f.severity is Severity.MEDIUM


async def test_a_multiline_statement_is_one_quote(server: MessagesAPIServer,
                                                  critic: ClaudeCritic) -> None:
    code = "model = LogisticRegression(\n    C=1e6,  # no penalty\n).fit(X, y)"
    [f] = await review_with(server, critic, finding(
        quotes=["model = LogisticRegression( C=1e6, ).fit(X, y)"]),
        evidence=make_evidence(code=code))
    assert "unverified" not in f.evidence and f.evidence["lines"] == [1]


async def test_one_verified_quote_is_enough(server: MessagesAPIServer,
                                            critic: ClaudeCritic) -> None:
    [f] = await review_with(server, critic, finding(
        quotes=["scaler.fit_transform(X_all)", "X_s = scaler.transform(X)"], lines=[]))
    assert "unverified" not in f.evidence
    assert f.evidence["quotes"] == ["X_s = scaler.transform(X)"]
    assert f.evidence["unmatched_quotes"] == ["scaler.fit_transform(X_all)"]
    assert f.evidence["lines"] == [2]  # derived from the quote when no lines were given


async def test_junk_fields_are_skipped_or_repaired(server: MessagesAPIServer,
                                                   critic: ClaudeCritic) -> None:
    items = [
        finding(title="no severity", severity=None),
        finding(title="bad severity", severity="catastrophic"),
        finding(title="bad confidence", confidence="very"),
        finding(title=""),  # no title
        {"family": "leakage"},  # nearly empty
        "not an object",
        finding(title="clamped", confidence=7, severity="HIGH"),
        finding(title="other family", family="small-samples", lines=[0, 1, 999, "2", True]),
    ]
    found = await review_with(server, critic, *items)
    assert [f.title for f in found] == ["clamped", "other family"]
    assert critic.skipped_findings == 6
    clamped, other = found
    assert clamped.severity is Severity.HIGH and clamped.confidence == 0.9
    assert other.family == "other" and other.rule_id == "claude.other"
    assert other.lines == [1, 2]


async def test_findings_sent_as_a_json_string(server: MessagesAPIServer,
                                              critic: ClaudeCritic) -> None:
    server.reply_tool(TOOL_NAME, {"findings": json.dumps([finding()])})
    [f] = await critic.review(make_evidence())
    assert f.rule_id == "claude.leakage"


@pytest.mark.parametrize("script", ["text", "other_tool", "no_list", "empty_input", "bad_json"])
async def test_unusable_reply_raises_value_error(server: MessagesAPIServer, critic: ClaudeCritic,
                                                 script: str) -> None:
    if script == "text":
        server.reply_text("The cell looks fine to me.")
    elif script == "other_tool":
        server.reply_tool("something_else", {"findings": []})
    elif script == "no_list":
        server.reply_tool(TOOL_NAME, {"findings": {"title": "x"}})
    elif script == "empty_input":  # what a max_tokens cut-off looks like
        server.reply_tool(TOOL_NAME, {}, stop_reason="max_tokens")
    else:
        server.reply_raw('{"id": "msg_1", "type": "message", "content": [')
    with pytest.raises(ValueError, match="Claude critic"):
        await critic.review(make_evidence())
    assert len(server.requests) == 1  # a bad 200 reply is not retried


async def test_a_reply_cut_at_max_tokens_is_a_critic_error(server: MessagesAPIServer,
                                                           critic: ClaudeCritic) -> None:
    server.reply_tool(TOOL_NAME, {"findings": [finding()]}, stop_reason="max_tokens")
    with pytest.raises(ValueError, match="cut off at max_tokens=1024"):
        await critic.review(make_evidence())


# -- retries and timeouts (the real SDK's policy) -----------------------------------------------


async def test_429_then_success_is_retried(server: MessagesAPIServer,
                                           critic: ClaudeCritic,
                                           caplog: pytest.LogCaptureFixture) -> None:
    server.reply_error(429, "rate limited", retry_after="0.05")
    server.reply_tool(TOOL_NAME, {"findings": [finding()]})
    with caplog.at_level(logging.INFO, logger="anthropic"):
        [f] = await critic.review(make_evidence())
    assert f.rule_id == "claude.leakage"
    assert [r.headers["x-stainless-retry-count"] for r in server.requests] == ["0", "1"]
    assert sdk_retry_waits(caplog.records) == [0.05]  # the retry-after, not the backoff


@pytest.mark.parametrize("max_retries", [0, 2])
async def test_repeated_500_fails_after_max_retries_plus_one(server: MessagesAPIServer,
                                                             max_retries: int) -> None:
    server.reply_errors(500, 5, retry_after="0.01")
    async with make_async_client("test", base_url=server.url, max_retries=max_retries) as c:
        with pytest.raises(anthropic.InternalServerError) as info:
            await ClaudeCritic(c, model=MODEL).review(make_evidence())
    assert info.value.status_code == 500
    assert len(server.requests) == max_retries + 1
    assert server.pending == 5 - (max_retries + 1)


async def test_client_errors_are_not_retried(server: MessagesAPIServer,
                                             critic: ClaudeCritic) -> None:
    server.reply_error(400, "max_tokens: too large")
    with pytest.raises(anthropic.BadRequestError, match="max_tokens: too large"):
        await critic.review(make_evidence())
    assert len(server.requests) == 1


async def test_long_retry_after_is_capped(server: MessagesAPIServer,
                                         caplog: pytest.LogCaptureFixture) -> None:
    server.reply_error(429, retry_after="3600")  # the SDK alone would sleep an hour
    server.reply_tool(TOOL_NAME, {"findings": []})
    async with make_async_client("test", base_url=server.url, max_retry_wait=0.05) as c:
        with caplog.at_level(logging.INFO, logger="anthropic"):
            assert await ClaudeCritic(c, model=MODEL).review(make_evidence()) == []
    assert sdk_retry_waits(caplog.records) == [0.05]  # the cap, not the hour
    assert len(server.requests) == 2


async def test_timeout_raises_after_retrying(server: MessagesAPIServer) -> None:
    server.delay(3.0)
    server.delay(3.0)
    async with make_async_client("test", base_url=server.url, timeout=0.2,
                                 max_retries=1) as c:
        # a timeout, not the late reply (which has no tool call: a ValueError)
        with pytest.raises(anthropic.APITimeoutError):
            await ClaudeCritic(c, model=MODEL).review(make_evidence())
    assert len(server.requests) == 2  # timeouts are retried like connection errors


# -- in AnalysisCritic ------------------------------------------------------------------------


@rule("leakage.scaler_before_split", title="Preprocessing fit before the split")
def scaler_rule(ev: Evidence) -> Iterator[Finding]:
    if "StandardScaler().fit(X)" in ev.code:
        yield Finding(explanation="fit on all rows", severity="critical", confidence=0.9,
                      evidence={"lines": [1, 3]})


async def test_analysis_critic_merges_claude_findings(server: MessagesAPIServer,
                                                      critic: ClaudeCritic) -> None:
    server.reply_tool(TOOL_NAME, {"findings": [
        finding(),  # restates the rule: folded into it
        finding(family="suspicious_values", title="Accuracy on 6 rows", severity="medium",
                confidence=0.6, quotes=["accuracy 0.9312"], lines=[5]),
    ]})
    analysis = AnalysisCritic(rules=[scaler_rule], llm=critic)
    critique = await analysis.areview(make_evidence())
    assert critique.errors == []
    assert [f.rule_id for f in critique.findings] == ["leakage.scaler_before_split",
                                                      "claude.suspicious_values"]
    assert critique.findings[0].evidence["confirmed_by"] == ["claude.leakage"]
    assert critique.findings[1].source == "claude"
    assert critique.llm_ms > 0


@pytest.mark.parametrize("failure", ["http", "reply"])
async def test_failing_claude_call_becomes_a_critic_error(server: MessagesAPIServer,
                                                          failure: str) -> None:
    if failure == "http":
        server.reply_errors(503, 2, retry_after="0.01")
    else:
        server.reply_text("no tool call")
    async with make_async_client("test", base_url=server.url, max_retries=1) as c:
        analysis = AnalysisCritic(rules=[scaler_rule], llm=ClaudeCritic(c, model=MODEL))
        critique = await analysis.areview(make_evidence())
    [error] = critique.errors
    assert error.rule_id == "claude"
    assert ("ServiceUnavailableError" in error.error and "503" in error.error if failure == "http"
            else error.error.startswith("ValueError: Claude critic"))
    assert [f.rule_id for f in critique.findings] == ["leakage.scaler_before_split"]
    assert critique.has_critical_issues(0.8)


async def test_disabled_claude_makes_no_call(server: MessagesAPIServer,
                                             critic: ClaudeCritic) -> None:
    analysis = AnalysisCritic(rules=[scaler_rule], llm=critic, disabled=["claude"])
    critique = await analysis.areview(make_evidence())
    assert server.requests == [] and len(critique.findings) == 1


# -- when an LLM finding may block (critics.llm_blocking) -------------------------------------


@rule("leakage.fit_on_all_rows", title="A transformer saw every row", family="leakage")
def weak_leakage_rule(ev: Evidence) -> Iterator[Finding]:
    if "StandardScaler().fit(X)" in ev.code:
        yield Finding(explanation="fit on all rows", severity="medium", confidence=0.6,
                      evidence={"lines": [1]})


async def test_an_llm_finding_alone_is_at_most_high(server: MessagesAPIServer,
                                                    critic: ClaudeCritic) -> None:
    server.reply_tool(TOOL_NAME, {"findings": [finding()]})
    critique = await AnalysisCritic(rules=[], llm=critic).areview(make_evidence())
    [f] = critique.findings
    assert f.severity is Severity.HIGH and f.evidence["uncorroborated"] is True
    assert f.evidence["severity_from_model"] == "critical"
    assert not critique.has_critical_issues(0.0)


async def test_a_rule_of_its_family_corroborates_an_llm_finding(
        server: MessagesAPIServer, critic: ClaudeCritic) -> None:
    server.reply_tool(TOOL_NAME, {"findings": [finding()]})
    critique = await AnalysisCritic(rules=[weak_leakage_rule], llm=critic).areview(
        make_evidence())
    claude = next(f for f in critique.findings if f.source == "claude")
    assert claude.severity is Severity.CRITICAL
    assert claude.evidence["corroborated_by"] == ["leakage.fit_on_all_rows"]
    assert critique.has_critical_issues(0.8)
    rule_finding = next(f for f in critique.findings if f.source != "claude")
    assert rule_finding.evidence["confirmed_by"] == ["claude.leakage"]


async def test_a_kernel_fact_corroborates_an_llm_finding(server: MessagesAPIServer,
                                                         critic: ClaudeCritic) -> None:
    skewed = finding(family="parametric_assumptions", title="t-test on a skewed sample",
                     quotes=["model.score(X_test, y_test)"])
    server.reply_tool(TOOL_NAME, {"findings": [skewed]})
    server.reply_tool(TOOL_NAME, {"findings": [skewed]})
    evidence = make_evidence()  # the sample passed to ttest_ind has skew 2.7
    [f] = (await AnalysisCritic(rules=[], llm=critic).areview(evidence)).findings
    assert f.severity is Severity.CRITICAL
    assert f.evidence["corroborated_by"] == ["kernel_facts.parametric_assumptions"]
    [g] = (await AnalysisCritic(rules=[], llm=critic).areview(
        make_evidence(samples=[]))).findings
    assert g.severity is Severity.HIGH and g.evidence["uncorroborated"] is True


async def test_a_setting_lets_an_llm_finding_block_alone(server: MessagesAPIServer,
                                                         client: anthropic.AsyncAnthropic
                                                         ) -> None:
    server.reply_tool(TOOL_NAME, {"findings": [finding()]})
    critic = ClaudeCritic(client, model=MODEL, blocks_alone=True)
    critique = await AnalysisCritic(rules=[], llm=critic).areview(make_evidence())
    assert critique.has_critical_issues(0.8)
    assert "uncorroborated" not in critique.findings[0].evidence


async def test_a_sound_cell_is_not_blocked_by_the_llm_alone_in_a_real_kernel(
        tmp_path: Path, server: MessagesAPIServer) -> None:
    settings = make_settings(tmp_path, anthropic_api_key="sk-test", anthropic_base_url=server.url,
                             llm_timeout=5.0, llm_max_retries=0)
    svc = NotebookService(settings, reviewer=settings.build_reviewer())
    await svc.start()
    try:
        nb = await svc.create_notebook()
        cell = (await svc.add_cell(nb, source="values = [3, 1, 2]\nprint(sorted(values))")).id
        server.reply_tool(TOOL_NAME, {"findings": [finding(
            family="suspicious_values", title="Sorted values reported",
            quotes=["print(sorted(values))"], lines=[2])]})
        result = await svc.execute_cell(nb, cell)
    finally:
        await svc.stop()
    assert result.status.value == "ok" and result.escalation is None
    [f] = [f for f in result.critique["findings"] if f["source"] == "claude"]
    assert f["severity"] == "high" and f["evidence"]["uncorroborated"] is True
    assert server.requests[0].body["temperature"] == 0.0


async def test_one_deadline_per_cell_then_the_rules_critique_stands(
        tmp_path: Path, server: MessagesAPIServer) -> None:
    settings = make_settings(tmp_path, anthropic_api_key="sk-test", anthropic_base_url=server.url,
                             llm_timeout=30.0, llm_max_retries=2, critic_llm_deadline=0.5)
    svc = NotebookService(settings, reviewer=settings.build_reviewer())
    await svc.start()
    try:
        nb = await svc.create_notebook()
        cell = (await svc.add_cell(nb, source="values = [3, 1, 2]\nprint(sorted(values))")).id
        for _ in range(3):  # each SDK attempt would wait its 30 s timeout
            server.delay(5.0)
        result = await svc.execute_cell(nb, cell)
    finally:
        await svc.stop()
    assert result.status.value == "ok"
    [error] = [e for e in result.critique["errors"] if e["rule_id"] == "claude"]
    assert "timed out" in error["error"] and "0.5 s deadline per cell" in error["error"]
    assert len(server.requests) == 1  # cut at the deadline, not retried


WIDE_CELL = """\
import numpy as np
import pandas as pd
y_test = pd.Series(np.linspace(0.0, 1.0, 100))
wide = pd.DataFrame({f"c{i}": np.arange(300) * i for i in range(40)})
wide["group"] = [f"level{i % 25}" for i in range(300)]
print(y_test.mean(), wide.shape)"""


async def test_kernel_facts_reach_the_model_as_summaries_in_valid_json(
        tmp_path: Path, server: MessagesAPIServer) -> None:
    settings = make_settings(tmp_path, anthropic_api_key="sk-test", anthropic_base_url=server.url,
                             llm_timeout=5.0, llm_max_retries=0)
    svc = NotebookService(settings, reviewer=settings.build_reviewer())
    await svc.start()
    try:
        nb = await svc.create_notebook()
        cell = (await svc.add_cell(nb, source=WIDE_CELL)).id
        server.reply_tool(TOOL_NAME, {"findings": []})
        assert (await svc.execute_cell(nb, cell)).status.value == "ok"
    finally:
        await svc.stop()
    text = server.requests[0].user_text
    facts = text.split("<kernel_facts", 1)[1].split("\n", 1)[1].split("</kernel_facts>")[0]
    lines = [line for line in facts.splitlines() if line.startswith(("object ", "sample "))]
    assert lines
    parsed = {}
    for line in lines:
        data = json.loads(line.split(" ", 1)[1])  # every line is whole JSON
        parsed[data.get("name")] = data
    assert parsed["y_test"]["values"]["n"] == 100  # a summary, not 100 floats
    assert parsed["y_test"]["values"]["max"] == 1.0
    assert max(_longest_list(d) for d in parsed.values()) <= 8
    assert len(parsed["wide"]["dtypes"]) <= 21  # 20 columns and a count of the rest


def _longest_list(value: Any) -> int:
    if isinstance(value, dict):
        return max((_longest_list(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return max([len(value), *(_longest_list(v) for v in value)])
    return 0


def test_an_overlong_fact_line_drops_whole_fields_and_names_them() -> None:
    from critics.llm_facts import fit_line

    data = {"name": "df", "type": "pandas.DataFrame", "shape": [10, 2],
            "tails": {"x": {"top": [[i, 1] for i in range(3)]}}, "levels": {"g": {"a": 5}}}
    line = fit_line("object", data, 90)
    parsed = json.loads(line.split(" ", 1)[1])
    assert len(line) <= 90 and parsed["shape"] == [10, 2]
    assert parsed["omitted"][0] == "tails"
