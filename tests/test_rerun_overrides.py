"""`rerun_overrides: false` on an execute request (the web page's "Let it fix"): re-running
code the critic blocked is then not an override; the code is reviewed again and, with a code
generator, rewritten. Over real HTTP, real kernel, scripted generator."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from critics import AnalysisCritic
from services.cell_review import CellReviewer
from services.scripted_generator import ScriptedGenerator

from .conftest import LiveServer, make_settings, new_notebook
from .test_retry_loop import RULES


@pytest.fixture(scope="module")
def scripted() -> ScriptedGenerator:
    return ScriptedGenerator()


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory,
           scripted: ScriptedGenerator) -> Iterator[httpx.Client]:
    settings = make_settings(tmp_path_factory.mktemp("rerun-overrides"), pool_size=1)
    reviewer = CellReviewer(settings, critic=AnalysisCritic(rules=RULES, load_plugins=False))
    with LiveServer(settings, generator=scripted, reviewer=reviewer) as live, \
            live.client() as c:
        yield c


def _blocked(client: httpx.Client) -> tuple[str, str]:
    nb, (cell,) = new_notebook(client, "x = 'BAD_A'")
    body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                       json={"auto_fix": False}).json()
    assert body["status"] == "scientific_validity_error"
    return nb, cell


def test_let_it_fix_rewrites_the_blocked_code_instead_of_overriding(
        client: httpx.Client, scripted: ScriptedGenerator) -> None:
    nb, cell = _blocked(client)
    scripted.queue("x = 'fine'")
    body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                       json={"rerun_overrides": False, "auto_fix": True}).json()
    assert body["status"] == "ok" and body["override"] is None
    assert [(a["status"], a["generated"]) for a in body["attempts"]] == [
        ("scientific_validity_error", False), ("ok", True)]
    assert client.get(f"/api/notebooks/{nb}/cells/{cell}").json()["source"] == "x = 'fine'"


def test_without_a_rewrite_the_rerun_stays_blocked(client: httpx.Client) -> None:
    nb, cell = _blocked(client)
    body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                       json={"rerun_overrides": False, "auto_fix": False}).json()
    assert body["status"] == "scientific_validity_error" and body["override"] is None


def test_by_default_the_unchanged_rerun_is_the_persons_override(client: httpx.Client) -> None:
    nb, cell = _blocked(client)
    body = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
    assert body["status"] == "ok" and body["override"]["how"] == "unchanged_rerun"


def test_a_non_boolean_is_a_422_naming_the_field(client: httpx.Client) -> None:
    nb, cell = _blocked(client)
    answer = client.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                         json={"rerun_overrides": "no"})
    assert answer.status_code == 422
    assert "rerun_overrides" in answer.json()["detail"]
