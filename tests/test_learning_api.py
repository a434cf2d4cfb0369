"""Learning across runs over real HTTP: the lessons endpoints (list, search, relevant, create,
edit, delete, export and import as JSON and Markdown), cell self-checks, reflections, the
improvement queue, and a GitHub issues stand-in on a local HTTP server as a sink; every bad
input a 4xx naming the field."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from .conftest import LiveServer, make_settings, new_notebook

GITHUB_TOKEN = "ghp_test_secret_value"


class GitHubStandIn:
    """`POST /repos/{owner}/{repo}/issues` as GitHub answers it (201 + html_url)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                outer.requests.append({"path": self.path, "headers": dict(self.headers),
                                       "body": json.loads(self.rfile.read(length))})
                number = len(outer.requests)
                payload = json.dumps({"number": number, "html_url":
                                      f"https://github.example/o/r/issues/{number}"}).encode()
                self.send_response(201)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def github() -> Iterator[GitHubStandIn]:
    stand_in = GitHubStandIn()
    yield stand_in
    stand_in.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory,
           github: GitHubStandIn) -> Iterator[LiveServer]:
    settings = make_settings(tmp_path_factory.mktemp("learning-api"), pool_size=1,
                             github_repo="octo/analysis", github_token=GITHUB_TOKEN,
                             github_api_url=github.url)
    with LiveServer(settings) as live:
        yield live


@pytest.fixture
def client(server: LiveServer) -> Iterator[httpx.Client]:
    with server.client() as c:
        yield c


def _lesson(client: httpx.Client, **fields: Any) -> dict[str, Any]:
    body = {"title": "Scaler fit before the split", "category": "fix", "severity": "critical",
            "what_went_wrong": "StandardScaler().fit(X) saw the test rows",
            "what_fixed_it": "fit the scaler inside a Pipeline on the training rows",
            "scope": {"rule_ids": ["leakage.scaler_before_split"], "libraries": ["sklearn"]},
            **fields}
    response = client.post("/api/lessons", json=body)
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_lessons_crud_search_and_relevance(client: httpx.Client) -> None:
    made = _lesson(client)
    assert made["created"] is True
    lesson = made["lesson"]
    again = client.post("/api/lessons", json={
        "title": "scaler fit before the split!", "category": "fix", "severity": "high",
        "what_went_wrong": "StandardScaler().fit(X) saw the test rows",
        "scope": {"rule_ids": ["leakage.scaler_before_split"], "libraries": ["sklearn"]}})
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["lesson"]["times_encountered"] == 2
    tip = _lesson(client, title="Log-transform skewed incomes before a t-test",
                  category="tip", severity="low", what_went_wrong="t-test on lognormal data",
                  what_fixed_it="", scope={"rule_ids": ["parametric_assumptions.skewed"]})
    found = client.get("/api/lessons", params={"q": "lognormal"}).json()["lessons"]
    assert [x["id"] for x in found] == [tip["lesson"]["id"]]
    relevant = client.get("/api/lessons", params={"rule_id": "leakage.scaler_before_split"}
                          ).json()["lessons"]
    assert relevant[0]["id"] == lesson["id"]
    edited = client.patch(f"/api/lessons/{lesson['id']}", json={"severity": "high"})
    assert edited.status_code == 200 and edited.json()["severity"] == "high"
    assert client.get(f"/api/lessons/{lesson['id']}").json()["severity"] == "high"
    assert client.delete(f"/api/lessons/{tip['lesson']['id']}").status_code == 204
    missing = client.get(f"/api/lessons/{tip['lesson']['id']}")
    assert missing.status_code == 404 and missing.json()["code"] == "lesson_not_found"


def test_lesson_validation_names_the_field(client: httpx.Client) -> None:
    bad = client.post("/api/lessons", json={"title": "x", "what_went_wrong": "y",
                                            "severity": "apocalyptic"})
    assert bad.status_code == 422 and "severity" in bad.json()["detail"]
    empty = client.post("/api/lessons", json={"title": "", "what_went_wrong": "y"})
    assert empty.status_code == 422 and "title" in empty.json()["detail"]
    nothing = client.patch(f"/api/lessons/{_lesson(client)['lesson']['id']}", json={})
    assert nothing.status_code == 422
    unknown = client.patch("/api/lessons/nope", json={"title": "z"})
    assert unknown.status_code == 404


def test_export_and_import_round_trip(client: httpx.Client) -> None:
    _lesson(client, title="Bonferroni across 13 outcome tests", category="pattern",
            what_went_wrong="13 t-tests at alpha 0.05",
            scope={"rule_ids": ["multiple_comparisons.uncorrected"]})
    markdown = client.get("/api/lessons/export", params={"format": "markdown"})
    assert markdown.status_code == 200
    assert markdown.headers["content-type"].startswith("text/markdown")
    assert "lessons-learned.md" in markdown.headers["content-disposition"]
    assert "Bonferroni across 13 outcome tests" in markdown.text
    exported = client.get("/api/lessons/export").json()
    before = {x["id"]: x["times_encountered"] for x in exported["lessons"]}
    # importing the export again finds every lesson by its id, unchanged: nothing new
    again = client.post("/api/lessons/import", content=markdown.text,
                        headers={"content-type": "text/markdown"}).json()
    assert again["created"] == 0 and again["unchanged"] == len(before)
    via_json = client.post("/api/lessons/import", json=exported).json()
    assert via_json["created"] == 0
    bad = client.post("/api/lessons/import", content=b"{not json",
                      headers={"content-type": "application/json"})
    assert bad.status_code == 422
    wrong = client.post("/api/lessons/import", content=b"x",
                        headers={"content-type": "image/png"})
    assert wrong.status_code == 415
    prose = client.post("/api/lessons/import", content="just some notes",
                        headers={"content-type": "text/markdown"})
    assert prose.status_code == 422 and "no category section" in prose.json()["detail"]
    bad_field = client.post("/api/lessons/import", json={
        "format": "nbcritic-lessons", "version": 1,
        "lessons": [{"title": "t", "category": "nonsense", "what_went_wrong": "w"}]})
    assert bad_field.status_code == 422 and "category" in bad_field.json()["detail"]


def test_cell_checks_endpoints(client: httpx.Client) -> None:
    nb, (cell,) = new_notebook(client, "import math\nratio = math.pi")
    url = f"/api/notebooks/{nb}/cells/{cell}/checks"
    bad = client.put(url, json={"checks": [{"type": "in_range", "target": "ratio",
                                            "min": "zero"}]})
    assert bad.status_code == 422 and "checks[0].min" in bad.json()["detail"]
    put = client.put(url, json={"checks": [{"type": "in_range", "target": "ratio",
                                            "min": 0, "max": 1}]})
    assert put.status_code == 200 and put.json()["checks"][0]["type"] == "in_range"
    run = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert run["status"] == "scientific_validity_error"
    assert run["critique"]["findings"][0]["rule_id"].startswith("self_check.")
    got = client.get(url).json()
    assert got["results"][0]["passed"] is False
    # request-level checks replace nothing but add to the cell's; validated the same way
    bad_request = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                              json={"checks": ["ratio >"]})
    assert bad_request.status_code == 422 and "checks[0]" in bad_request.json()["detail"]
    cleared = client.put(url, json={"checks": []})
    assert cleared.json()["checks"] == []
    ok = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                     json={"checks": ["ratio > 3"]}).json()
    assert ok["status"] == "ok"


def test_reflection_improvements_and_github_sink(client: httpx.Client,
                                                 github: GitHubStandIn) -> None:
    nb, _ = new_notebook(client, "a = {}\na['x']", "b = {}\nb['y']", "c = {}\nc['z']")
    run = client.post(f"/api/notebooks/{nb}/run", json={"stop_on_error": False})
    assert run.status_code == 200
    reflections = client.get(f"/api/notebooks/{nb}/reflections").json()["reflections"]
    assert reflections and not reflections[0]["clean"]
    improvements = client.get("/api/improvements", params={"status": "open"}).json()[
        "improvements"]
    assert improvements
    request = improvements[0]
    assert github.requests, "the GitHub sink was not called"
    sent = github.requests[0]
    assert sent["path"] == "/repos/octo/analysis/issues"
    assert sent["headers"]["Authorization"] == f"Bearer {GITHUB_TOKEN}"
    assert sent["body"]["title"] == request["title"]
    delivery = next(d for d in request["deliveries"] if d["sink"].startswith("github"))
    assert delivery["ok"] is True and delivery["url"].startswith("https://github.example/")
    assert GITHUB_TOKEN not in json.dumps(request)
    acked = client.post(f"/api/improvements/{request['id']}/acknowledge",
                        json={"note": "on it"})
    assert acked.status_code == 200 and acked.json()["status"] == "acknowledged"
    assert client.get("/api/improvements", params={"status": "acknowledged"}).json()[
        "improvements"][0]["id"] == request["id"]
    dismissed = client.post(f"/api/improvements/{request['id']}/dismiss")
    assert dismissed.json()["status"] == "dismissed"
    assert client.post("/api/improvements/nope/dismiss").status_code == 404
    assert client.get("/api/improvements", params={"status": "bogus"}).status_code == 422
    # on demand, for named executions; an unknown execution is a 404
    executions = client.get(f"/api/notebooks/{nb}/executions").json()
    first = executions["executions"][0]["id"] if "executions" in executions else \
        executions[0]["id"]
    on_demand = client.post(f"/api/notebooks/{nb}/reflection",
                            json={"execution_ids": [first]})
    assert on_demand.status_code == 200 and on_demand.json()["execution_ids"] == [first]
    unknown = client.post(f"/api/notebooks/{nb}/reflection",
                          json={"execution_ids": ["no-such"]})
    assert unknown.status_code == 404 and unknown.json()["code"] == "execution_not_found"
    assert client.post("/api/notebooks/missing/reflection").status_code == 404


def test_bad_learning_inputs_are_4xx_naming_the_field(client: httpx.Client) -> None:
    nb, (cell,) = new_notebook(client, "x = 1")
    base = f"/api/notebooks/{nb}/cells/{cell}"
    huge = client.put(f"{base}/checks", json={"checks": [
        {"type": "in_range", "target": "x", "min": 10**400}]})
    assert huge.status_code == 422 and "checks[0].min" in huge.json()["detail"]
    run_all = client.post(f"/api/notebooks/{nb}/run", json={"checks": ["x > 0"]})
    assert run_all.status_code == 422 and "checks" in run_all.json()["detail"]
    plan = client.post(f"{base}/execute", json={"plan": True})
    assert plan.status_code == 409 and "planner" in plan.json()["detail"]
    not_object = client.patch(base, json={"metadata": {"nbcritic": "oops"}})
    assert not_object.status_code == 422 and "metadata.nbcritic" in not_object.json()["detail"]
    deep = client.post("/api/lessons/import", content=b"[" * 100_000 + b"]" * 100_000,
                       headers={"content-type": "application/json"})
    assert deep.status_code == 422
    too_many = client.post("/api/lessons/import", json={
        "format": "nbcritic-lessons", "version": 1, "lessons": [
            {"title": "t", "what_went_wrong": "w", "category": "tip"}] * 5001})
    assert too_many.status_code == 422 and "lessons" in too_many.json()["detail"]
    assert client.get(f"{base}/checks").status_code == 200  # the cell is intact
