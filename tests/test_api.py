"""The REST API over a real HTTP server (uvicorn on loopback) with real kernels."""

from __future__ import annotations

import json
import time

import httpx
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from tests.conftest import LiveServer, make_settings
from tests.conftest import new_notebook as make_notebook


def _events(client: httpx.Client, url: str, headers: dict[str, str] | None = None,
            stop_after: int | None = None) -> list[dict]:
    """Read SSE events; stop (disconnect) after `stop_after` events if given."""
    events: list[dict] = []
    current: dict = {}
    with client.stream("GET", url, headers=headers or {}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if not line:
                if "event" in current:
                    events.append(current)
                    if stop_after is not None and len(events) >= stop_after:
                        break
                current = {}
                continue
            field, _, value = line.partition(": ")
            if field == "id":
                current["id"] = int(value)
            elif field == "event":
                current["event"] = value
            elif field == "data":
                current["data"] = json.loads(value)
    return events


# -- auth, health, docs ---------------------------------------------------------------------

def test_health_needs_no_token_everything_else_does(live_server: LiveServer) -> None:
    with live_server.client(token=None) as anonymous:
        assert anonymous.get("/health").json()["status"] == "ok"
        missing = anonymous.get("/api/notebooks")
        assert missing.status_code == 401
        assert missing.json()["code"] == "unauthorized"
        assert missing.headers["www-authenticate"] == "Bearer"
        assert anonymous.get("/api/notebooks",
                             headers={"Authorization": "Basic dGVzdA=="}).status_code == 401
    with live_server.client(token="wrong-token") as wrong:
        response = wrong.get("/api/notebooks")
        assert response.status_code == 401 and response.json()["detail"] == "invalid token"
    with live_server.client() as right:
        assert right.get("/api/notebooks").status_code == 200


def test_openapi_docs_are_served_with_the_token(api: httpx.Client,
                                                live_server: LiveServer) -> None:
    with live_server.client(token=None) as anonymous:
        assert anonymous.get("/docs").status_code == 401
        assert anonymous.get("/openapi.json").status_code == 401
        page = anonymous.get("/docs", params={"token": live_server.settings.token
                                              .get_secret_value()})
        assert page.status_code == 200 and "swagger" in page.text.lower()
        assert "/openapi.json?token=" in page.text
    spec = api.get("/openapi.json").json()
    assert "/api/notebooks/{notebook_id}/cells/{cell_id}/execute" in spec["paths"]
    assert "/api/executions/{execution_id}/events" in spec["paths"]


# -- notebooks and cells -------------------------------------------------------------------

def test_notebook_lifecycle(api: httpx.Client) -> None:
    created = api.post("/api/notebooks", json={"id": "life"})
    assert created.status_code == 201
    assert created.headers["location"] == "/api/notebooks/life"
    assert api.post("/api/notebooks", json={"id": "life"}).json()["code"] == "notebook_exists"
    assert "life" in [n["id"] for n in api.get("/api/notebooks").json()["notebooks"]]
    body = api.get("/api/notebooks/life").json()
    assert body["content"]["nbformat"] == 4 and body["content"]["cells"] == []
    assert api.delete("/api/notebooks/life").status_code == 204
    gone = api.get("/api/notebooks/life")
    assert gone.status_code == 404 and gone.json()["code"] == "notebook_not_found"


def test_cells_add_update_move_delete(api: httpx.Client) -> None:
    nb = api.post("/api/notebooks", json={}).json()["id"]
    base = f"/api/notebooks/{nb}/cells"
    a = api.post(base, json={"source": "a = 1"}).json()
    b = api.post(base, json={"source": "b = 2"}).json()
    md = api.post(base, json={"source": "# head", "cell_type": "markdown", "position": 0}).json()
    prompt = api.post(base, json={"prompt": "plot the data"}).json()
    assert prompt["metadata"]["nbcritic"]["prompt"] == "plot the data"
    ids = [c["id"] for c in api.get(f"/api/notebooks/{nb}").json()["content"]["cells"]]
    assert ids == [md["id"], a["id"], b["id"], prompt["id"]]
    patched = api.patch(f"{base}/{a['id']}", json={"source": "a = 10",
                                                   "metadata": {"tags": ["x"]}}).json()
    assert patched["source"] == "a = 10" and patched["metadata"]["tags"] == ["x"]
    api.post(f"{base}/{b['id']}/move", json={"position": 0})
    assert api.delete(f"{base}/{md['id']}").status_code == 204
    ids = [c["id"] for c in api.get(f"/api/notebooks/{nb}").json()["content"]["cells"]]
    assert ids == [b["id"], a["id"], prompt["id"]]
    assert api.get(f"{base}/{a['id']}").json()["source"] == "a = 10"


def test_upload_and_download_round_trip(api: httpx.Client) -> None:
    nb = new_notebook(cells=[new_code_cell("print('from file')")])
    nb.nbformat_minor = 4  # an older 4.x: upgraded on import
    for cell in nb.cells:
        del cell["id"]
    text = json.dumps(nb)
    response = api.post("/api/notebooks/upload",
                        files={"file": ("uploaded.ipynb", text, "application/json")})
    assert response.status_code == 201, response.text
    assert response.json()["id"] == "uploaded"
    cell_id = response.json()["content"]["cells"][0]["id"]
    api.post(f"/api/notebooks/uploaded/cells/{cell_id}/execute")
    download = api.get("/api/notebooks/uploaded/ipynb")
    assert download.headers["content-type"].startswith("application/x-ipynb+json")
    assert 'filename="uploaded.ipynb"' in download.headers["content-disposition"]
    round_trip = nbformat.reads(download.text, as_version=4)
    nbformat.validate(round_trip)
    assert round_trip.cells[0].outputs[0]["text"] == "from file\n"


def test_create_from_json_content(api: httpx.Client) -> None:
    content = new_notebook(cells=[new_code_cell("40 + 2")])
    response = api.post("/api/notebooks", json={"id": "fromjson", "content": content})
    assert response.status_code == 201
    assert response.json()["content"]["cells"][0]["source"] == "40 + 2"


# -- bad input ------------------------------------------------------------------------------

def test_invalid_ipynb_is_422_with_nbformats_message(api: httpx.Client) -> None:
    bad = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
           "cells": [{"cell_type": "code", "id": "x", "metadata": {}, "source": "",
                      "outputs": [], "execution_count": "one"}]}
    response = api.post("/api/notebooks/upload",
                        files={"file": ("bad.ipynb", json.dumps(bad), "application/json")})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_notebook"
    assert "'one'" in response.json()["detail"]
    not_json = api.post("/api/notebooks/upload", files={"file": ("x.ipynb", "{", "text/plain")})
    assert not_json.status_code == 422 and "not JSON" in not_json.json()["detail"]
    assert api.get("/api/notebooks/bad").status_code == 404  # nothing half-written


def test_malformed_bodies_name_the_field(api: httpx.Client) -> None:
    nb, (cell,) = make_notebook(api, "1")
    cases = [
        (f"/api/notebooks/{nb}/cells", {"source": 5}, "body.source"),
        (f"/api/notebooks/{nb}/cells", {"cell_type": "python"}, "body.cell_type"),
        (f"/api/notebooks/{nb}/cells", {"position": -1}, "body.position"),
        (f"/api/notebooks/{nb}/cells", {"sorce": "typo"}, "body.sorce"),
        (f"/api/notebooks/{nb}/cells/{cell}/execute", {"timeout": 0}, "body.timeout"),
        (f"/api/notebooks/{nb}/cells/{cell}/move", {}, "body.position"),
    ]
    for url, body, field in cases:
        response = api.post(url, json=body)
        assert response.status_code == 422, (url, body)
        payload = response.json()
        assert payload["code"] == "validation_error"
        assert field in payload["detail"], payload
    not_json = api.post(f"/api/notebooks/{nb}/cells", content=b"{oops",
                        headers={"content-type": "application/json"})
    assert not_json.status_code == 422


def test_unknown_ids_are_404(api: httpx.Client) -> None:
    nb, _ = make_notebook(api)
    assert api.get("/api/notebooks/nope").json()["code"] == "notebook_not_found"
    assert api.get(f"/api/notebooks/{nb}/cells/nope").json()["code"] == "cell_not_found"
    assert api.post(f"/api/notebooks/{nb}/cells/nope/execute").status_code == 404
    assert api.post("/api/notebooks/nope/run").status_code == 404
    assert api.post("/api/notebooks/nope/kernel/interrupt").status_code == 404
    assert api.get("/api/executions/nope").json()["code"] == "execution_not_found"
    assert api.get("/api/executions/nope/events").status_code == 404


@pytest.mark.parametrize("bad_id", ["..%2F..%2Fetc%2Fpasswd", "..", ".secret", "a..b"])
def test_path_traversal_ids_are_refused(api: httpx.Client, bad_id: str) -> None:
    response = api.get(f"/api/notebooks/{bad_id}")
    assert response.status_code in (400, 404)
    assert "root:" not in response.text
    created = api.post("/api/notebooks", json={"id": "../../escape"})
    assert created.status_code == 400 and created.json()["code"] == "invalid_notebook_id"


def test_oversized_body_and_upload_are_413(api: httpx.Client, live_server: LiveServer) -> None:
    nb, _ = make_notebook(api)
    limit = live_server.settings.max_body_bytes
    big = api.post(f"/api/notebooks/{nb}/cells", json={"source": "x" * (limit + 10)})
    assert big.status_code == 413
    assert big.json()["code"] == "payload_too_large"
    assert f"{limit:,}" in big.json()["detail"]
    upload = api.post("/api/notebooks/upload",
                      files={"file": ("huge.ipynb", b" " * (limit + 10), "application/json")})
    assert upload.status_code == 413

    def chunks():  # no Content-Length: the limit applies to the streamed bytes
        for _ in range(limit // 1024 + 2):
            yield b" " * 1024

    streamed = api.post(f"/api/notebooks/{nb}/cells", content=chunks(),
                        headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    assert len(api.get(f"/api/notebooks/{nb}").json()["content"]["cells"]) == 0


def test_prompt_cell_without_generator_is_409(api: httpx.Client) -> None:
    nb = api.post("/api/notebooks", json={}).json()["id"]
    cell = api.post(f"/api/notebooks/{nb}/cells", json={"prompt": "load data"}).json()["id"]
    response = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute")
    assert response.status_code == 409
    assert response.json()["code"] == "cell_not_executable"
    assert "code generator" in response.json()["detail"]
    md = api.post(f"/api/notebooks/{nb}/cells", json={"cell_type": "markdown"}).json()["id"]
    assert api.post(f"/api/notebooks/{nb}/cells/{md}/execute").status_code == 409


def test_no_service_traceback_in_responses(api: httpx.Client) -> None:
    nb, (cell,) = make_notebook(api, "raise RuntimeError('user error')")
    body = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute").json()
    assert body["status"] == "error" and body["error"]["ename"] == "RuntimeError"
    for response in (api.get("/api/notebooks/%00"), api.post("/api/notebooks", content=b"[")):
        assert "Traceback" not in response.text
        assert "File \"" not in response.text


# -- execution ------------------------------------------------------------------------------

def test_synchronous_execute_returns_the_final_result(api: httpx.Client) -> None:
    nb, (cell,) = make_notebook(api, "print('hi')\n6 * 7")
    body = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute").json()
    assert body["status"] == "ok"
    assert body["outputs"][1]["data"]["text/plain"] == "42"
    assert body["attempts"][0]["status"] == "ok"
    stored = api.get(f"/api/notebooks/{nb}/cells/{cell}").json()
    assert stored["metadata"]["nbcritic"]["status"] == "ok"
    assert stored["execution_count"] == body["execution_count"]


def test_async_execute_is_a_resource_with_sse_events(api: httpx.Client) -> None:
    nb, (cell,) = make_notebook(
        api, "from IPython.display import display, HTML\nprint('out')\ndisplay(HTML('<b>x</b>'))")
    accepted = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                        headers={"Prefer": "respond-async"})
    assert accepted.status_code == 202
    location = accepted.headers["location"]
    events = _events(api, location + "/events")
    kinds = [e["event"] for e in events]
    assert kinds[0] == "status" and kinds[-1] == "done"
    assert {"attempt_started", "stream", "display_data", "final"} <= set(kinds)
    assert events[-1]["data"]["status"] == "ok"
    record = api.get(location).json()
    assert record["state"] == "done" and record["results"][0]["status"] == "ok"
    assert api.post(f"/api/notebooks/{nb}/cells/{cell}/execute?wait=false").status_code == 202


def test_sse_resume_after_disconnect_loses_no_event(api: httpx.Client) -> None:
    code = "import time\nfor i in range(8):\n    print('line', i, flush=True)\n    time.sleep(0.15)"
    nb, (cell,) = make_notebook(api, code)
    location = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute?wait=false").headers[
        "location"]
    first = _events(api, location + "/events", stop_after=4)  # then the client goes away
    assert len(first) == 4
    rest = _events(api, location + "/events", headers={"Last-Event-ID": str(first[-1]["id"])})
    combined = first + rest
    ids = [e["id"] for e in combined]
    assert ids == sorted(set(ids)), "duplicates or disorder across the reconnect"
    assert combined[-1]["event"] == "done"
    full = _events(api, location + "/events")  # a fresh reader sees the same journal
    assert [e["id"] for e in full] == ids
    text = "".join(e["data"]["text"] for e in combined if e["event"] == "stream")
    assert text == "".join(f"line {i}\n" for i in range(8))
    # `?after=` works like the header (for EventSource polyfills that cannot set headers)
    tail = _events(api, location + f"/events?after={ids[-2]}")
    assert [e["id"] for e in tail] == ids[-1:]
    bad = api.get(location + "/events", headers={"Last-Event-ID": "abc"})
    assert bad.status_code == 422 and "Last-Event-ID" in bad.json()["detail"]


def test_execution_continues_when_the_client_goes_away(api: httpx.Client) -> None:
    nb, (cell,) = make_notebook(api, "import time\ntime.sleep(1)\n'finished'")
    with pytest.raises(httpx.ReadTimeout):
        api.post(f"/api/notebooks/{nb}/cells/{cell}/execute", timeout=0.3)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        cell_body = api.get(f"/api/notebooks/{nb}/cells/{cell}").json()
        if cell_body["outputs"]:
            break
        time.sleep(0.1)
    assert cell_body["outputs"][0]["data"]["text/plain"] == "'finished'"


def test_run_all_sync_and_async(api: httpx.Client) -> None:
    nb, cells = make_notebook(api, "a = 2", "b = a * 3", "b")
    body = api.post(f"/api/notebooks/{nb}/run").json()
    assert body["status"] == "ok" and body["kind"] == "run_all"
    assert [r["cell_id"] for r in body["results"]] == cells
    assert body["results"][-1]["outputs"][0]["data"]["text/plain"] == "6"
    accepted = api.post(f"/api/notebooks/{nb}/run", headers={"Prefer": "respond-async"},
                        json={"stop_on_error": False, "timeout": 30})
    assert accepted.status_code == 202
    events = _events(api, accepted.headers["location"] + "/events")
    assert [e["data"]["cell_id"] for e in events if e["event"] == "final"] == cells
    listed = api.get(f"/api/notebooks/{nb}/executions").json()["executions"]
    assert len(listed) == 2


def test_kernel_endpoints(api: httpx.Client) -> None:
    nb, (slow, probe) = make_notebook(api, "import time\ntime.sleep(20)", "'alive'")
    assert api.get(f"/api/notebooks/{nb}/kernel").json() == {"kernel": None}
    started = api.post(f"/api/notebooks/{nb}/kernel").json()["kernel"]
    assert started["id"]
    location = api.post(f"/api/notebooks/{nb}/cells/{slow}/execute?wait=false").headers[
        "location"]
    deadline = time.monotonic() + 10
    while not api.get(f"/api/notebooks/{nb}/kernel").json()["kernel"]["busy"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    time.sleep(0.3)
    assert api.post(f"/api/notebooks/{nb}/kernel/interrupt").status_code == 204
    done = _events(api, location + "/events")[-1]
    assert done["data"]["results"][0]["status"] == "interrupted"
    restarted = api.post(f"/api/notebooks/{nb}/kernel/restart").json()["kernel"]
    assert restarted["id"] != started["id"]
    assert api.post(f"/api/notebooks/{nb}/cells/{probe}/execute").json()["status"] == "ok"
    assert api.delete(f"/api/notebooks/{nb}/kernel").status_code == 204
    assert api.get(f"/api/notebooks/{nb}/kernel").json() == {"kernel": None}


def test_cors_is_off_unless_configured(live_server: LiveServer, tmp_path_factory:
                                       pytest.TempPathFactory) -> None:
    preflight = {"Origin": "http://notebook.example", "Access-Control-Request-Method": "POST"}
    with live_server.client() as plain:
        assert live_server.settings.host == "127.0.0.1"
        response = plain.options("/api/notebooks", headers=preflight)
        assert "access-control-allow-origin" not in response.headers
    settings = make_settings(tmp_path_factory.mktemp("cors"), pool_size=0,
                             cors_origins=["http://notebook.example"])
    with LiveServer(settings) as server, server.client() as client:
        response = client.options("/api/notebooks", headers=preflight)
        assert response.headers["access-control-allow-origin"] == "http://notebook.example"
        other = client.options("/api/notebooks", headers={**preflight,
                                                           "Origin": "http://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_a_crashing_cell_leaves_other_notebooks_working(api: httpx.Client) -> None:
    doomed, (die,) = make_notebook(api, "import os\nos._exit(3)")
    healthy, (ok,) = make_notebook(api, "'fine'")
    assert api.post(f"/api/notebooks/{doomed}/cells/{die}/execute").json()[
        "status"] == "dead_kernel"
    assert api.post(f"/api/notebooks/{healthy}/cells/{ok}/execute").json()["status"] == "ok"
    assert api.get("/health").json()["status"] == "ok"
