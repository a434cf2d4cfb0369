"""The retry loop over real HTTP: attempt history and escalation in responses and the
attempts endpoint, accepting findings, the override flag, request validation, and the Claude
code generator end to end against a local Messages-API server (never a real model)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from critics import AnalysisCritic
from services.cell_review import CellReviewer
from services.scripted_generator import ScriptedGenerator

from .conftest import LiveServer, make_settings, new_notebook
from .messages_api_server import MessagesAPIServer
from .test_retry_loop import FIXED, LEAKY, RULES, SETUP


@pytest.fixture(scope="module")
def scripted() -> ScriptedGenerator:
    return ScriptedGenerator()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory,
           scripted: ScriptedGenerator) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("retry-api"), pool_size=1)
    reviewer = CellReviewer(settings, critic=AnalysisCritic(rules=RULES, load_plugins=False))
    with LiveServer(settings, generator=scripted, reviewer=reviewer) as live:
        yield live


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client() as c:
        yield c


def test_escalation_and_attempts_over_http(client: httpx.Client,
                                           scripted: ScriptedGenerator) -> None:
    scripted.queue("x = 'BAD_A'  # still")
    nb, (cell,) = new_notebook(client, "x = 'BAD_A'")
    body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert body["status"] == "scientific_validity_error"
    assert body["error"]["ename"] == "ScientificValidityError"
    assert body["escalation"]["pattern"] == "same_finding_survived_fix"
    assert len(body["attempts"]) == 2
    history = client.get(f"/api/notebooks/{nb}/cells/{cell}/attempts").json()
    assert history["status"] == "scientific_validity_error"
    assert [a["attempt"] for a in history["attempts"]] == [1, 2]
    assert history["attempts"][0]["feedback"] and history["escalation"] == body["escalation"]
    assert history["blocked"]["fingerprint"]


def test_accept_endpoint_then_rerun(client: httpx.Client) -> None:
    nb, (cell,) = new_notebook(client, "x = 'BAD_B'")
    run = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={"auto_fix": False})
    assert run.json()["status"] == "scientific_validity_error"
    accepted = client.post(f"/api/notebooks/{nb}/cells/{cell}/critique/accept",
                           json={"by": "reviewer-1", "reason": "known artefact"})
    assert accepted.status_code == 200
    assert accepted.json()["override"]["findings"] == ["test.bad_b"]
    rerun = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert rerun["status"] == "ok"
    assert rerun["critique"]["overridden"] == {**rerun["override"]}
    assert rerun["override"]["by"] == "reviewer-1" and rerun["override"]["how"] == "accepted"
    attempts = client.get(f"/api/notebooks/{nb}/cells/{cell}/attempts").json()
    assert attempts["override"]["by"] == "reviewer-1"


def test_run_all_twice_lists_blocked_cells_and_never_overrides(client: httpx.Client) -> None:
    nb, (_, leaky) = new_notebook(client, "y = 1", "x = 'BAD_B'")
    for _ in range(2):
        body = client.post(f"/api/notebooks/{nb}/run", json={"auto_fix": False}).json()
        assert [r["status"] for r in body["results"]] == ["ok", "scientific_validity_error"]
        assert body["blocked"] == [leaky] and body["results"][1]["override"] is None
    attempts = client.get(f"/api/notebooks/{nb}/cells/{leaky}/attempts").json()
    assert attempts["last_override"] is None


def test_override_flag_over_http(client: httpx.Client) -> None:
    nb, (cell,) = new_notebook(client, "x = 'BAD_A'")
    body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                       json={"override_critic": True, "override_by": "sam"}).json()
    assert body["status"] == "ok" and body["override"]["how"] == "flag"


@pytest.mark.parametrize(("payload", "field"), [
    ({"max_error_retries": -1}, "body.max_error_retries"),
    ({"max_critique_retries": 21}, "body.max_critique_retries"),
    ({"override_critic": "perhaps"}, "body.override_critic"),
    ({"override_by": ""}, "body.override_by"),
    ({"retries": 3}, "body.retries"),
])
def test_bad_retry_options_are_422_naming_the_field(client: httpx.Client, payload: dict,
                                                    field: str) -> None:
    nb, (cell,) = new_notebook(client, "1")
    response = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json=payload)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == field
    assert field in response.json()["detail"]


def test_accept_and_attempts_on_missing_cells_are_404(client: httpx.Client) -> None:
    nb, _ = new_notebook(client)
    assert client.post(f"/api/notebooks/{nb}/cells/nope/critique/accept").json()["code"] == (
        "cell_not_found")
    assert client.get(f"/api/notebooks/{nb}/cells/nope/attempts").status_code == 404
    assert client.get("/api/notebooks/missing/cells/x/attempts").json()["code"] == (
        "notebook_not_found")


def test_critic_settings_report_the_generator(client: httpx.Client) -> None:
    body = client.get("/api/critic").json()
    assert body["generator"] is True
    assert body["max_error_retries"] == 3 and body["max_critique_retries"] == 2


# -- the Claude generator, end to end, against a local Messages API -------------------------

@pytest.fixture(scope="module")
def messages_api() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as api:
        yield api


@pytest.fixture(scope="module")
def claude_server(tmp_path_factory: pytest.TempPathFactory,
                  messages_api: MessagesAPIServer) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("claude"), pool_size=1,
                             anthropic_api_key="sk-test", critic_llm=False,
                             anthropic_base_url=messages_api.url, llm_timeout=5.0,
                             llm_max_retries=1, model="claude-test-model")
    with LiveServer(settings) as live:
        yield live


def test_claude_generator_fixes_leakage_over_http(claude_server: LiveServer,
                                                  messages_api: MessagesAPIServer) -> None:
    messages_api.clear()
    messages_api.reply_tool("submit_code", {"code": FIXED, "explanation": "split first"},
                            usage=(900, 150))
    with claude_server.client() as client:
        nb, (setup, cell) = new_notebook(client, SETUP, LEAKY)
        assert client.post(f"/api/notebooks/{nb}/cells/{setup}/execute").json()["status"] == "ok"
        body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert body["status"] == "ok", body.get("escalation")
    assert [a["status"] for a in body["attempts"]] == ["scientific_validity_error", "ok"]
    assert body["attempts"][1]["tokens"] == {"input_tokens": 900, "output_tokens": 150,
                                             "total": 1050}
    assert body["attempts"][1]["explanation"] == "split first"
    (request,) = messages_api.requests
    assert request.body["model"] == "claude-test-model"
    text = request.user_text
    assert "fit_transform" in text  # the failing attempt's code
    assert "split" in text.lower()  # the finding as feedback
    assert "load_diabetes" in text  # the earlier cell, as context
    assert "X: numpy.ndarray" in text or "X: ndarray" in text  # the kernel's variables


def test_prompt_caching_shape_and_cached_tokens_in_the_attempt(
        claude_server: LiveServer, messages_api: MessagesAPIServer) -> None:
    messages_api.clear()
    messages_api.reply_tool("submit_code", {"code": FIXED}, usage={
        "input_tokens": 300, "output_tokens": 150, "cache_read_input_tokens": 1200,
        "cache_creation_input_tokens": 0})
    with claude_server.client() as client:
        nb, (setup, cell) = new_notebook(client, SETUP, LEAKY)
        client.post(f"/api/notebooks/{nb}/cells/{setup}/execute")
        body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert body["attempts"][1]["tokens"] == {
        "input_tokens": 300, "output_tokens": 150, "cache_read_input_tokens": 1200,
        "total": 450}
    (request,) = messages_api.requests
    assert request.body["system"][0]["cache_control"] == {"type": "ephemeral"}
    earlier, rest = request.body["messages"][0]["content"]
    assert earlier["cache_control"] == {"type": "ephemeral"} and "load_diabetes" in earlier["text"]
    assert "cache_control" not in rest and "fit_transform" in rest["text"]


def test_claude_generator_failures_escalate(claude_server: LiveServer,
                                            messages_api: MessagesAPIServer) -> None:
    messages_api.clear()
    messages_api.reply_errors(500, 2)  # the first try and its one retry
    with claude_server.client() as client:
        nb, (cell,) = new_notebook(client, "value = missing_name")
        body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert body["status"] == "error"
    assert body["escalation"]["pattern"] == "generator_failed"
    assert "500" in body["escalation"]["reason"]
    assert len(messages_api.requests) == 2


def test_prompt_cell_without_a_key_is_409(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, pool_size=0, anthropic_api_key=None)
    with LiveServer(settings) as live, live.client() as client:
        nb = client.post("/api/notebooks", json={}).json()["id"]
        cell = client.post(f"/api/notebooks/{nb}/cells", json={"prompt": "plot x"}).json()["id"]
        response = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute")
        assert response.status_code == 409
        assert response.json()["code"] == "cell_not_executable"
        assert "ANTHROPIC_API_KEY" in response.json()["detail"]
