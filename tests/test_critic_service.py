"""The critic inside the cell flow, through real kernels: evidence read from the kernel,
the critique in metadata, events and the API, user rules (programmatic and entry point),
crashing rules, disabled rules, skipped cells, and an introspection that leaves no trace."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from critics import AnalysisCritic, Evidence, Finding, rule
from critics.critic import load_entry_point_rules
from services.cell_review import CellReviewer
from services.notebook_service import ExecuteOptions, NotebookService

from .conftest import make_settings, new_notebook

SEEN: list[Evidence] = []


@rule("test.records", family="test", title="Records the evidence it saw")
def records(ev: Evidence) -> list[Finding]:
    SEEN.append(ev)
    return []


@rule("test.flags_print", family="test", title="Flags cells that print")
def flags_print(ev: Evidence) -> list[Finding]:
    calls = ev.model.calls_to("print")
    return [Finding(explanation="prints", severity="critical", confidence=0.9,
                    evidence={"lines": [c.line for c in calls]}, suggestion="do not")
            ] if calls else []


@rule("test.crashes", family="test", title="Always crashes")
def crashes(ev: Evidence) -> list[Finding]:
    raise RuntimeError("boom in a user rule")


async def _service(tmp_path: Path, rules: list[Any], **overrides: Any) -> NotebookService:
    config = make_settings(tmp_path, **overrides)
    reviewer = CellReviewer(config, critic=AnalysisCritic(
        rules=rules, disabled=config.critic_disabled_rules))
    svc = NotebookService(config, reviewer=reviewer)
    await svc.start()
    return svc


@pytest.fixture
async def critic_service(tmp_path: Path) -> AsyncIterator[NotebookService]:
    SEEN.clear()
    svc = await _service(tmp_path, [records, flags_print, crashes])
    try:
        yield svc
    finally:
        await svc.stop()


async def _run(svc: NotebookService, *sources: str, **options: Any) -> list[Any]:
    nb = await svc.create_notebook()
    results = []
    for source in sources:
        cell = await svc.add_cell(nb, source=textwrap.dedent(source))
        results.append(await svc.execute_cell(nb, cell.id, ExecuteOptions(**options)))
    return results


async def test_critique_in_result_metadata_and_journal(critic_service: NotebookService) -> None:
    (result,) = await _run(critic_service, "print('hello')")
    # a critical finding at confidence 0.9 (>= 0.8) blocks: a logical error, not `ok`
    assert result.status.value == "scientific_validity_error"
    assert result.error["ename"] == "ScientificValidityError"
    findings = result.critique["findings"]
    assert [f["rule_id"] for f in findings] == ["test.flags_print"]
    assert findings[0]["severity"] == "critical" and findings[0]["confidence"] == 0.9
    assert findings[0]["evidence"]["lines"] == [1]
    assert set(findings[0]) >= {"rule_id", "title", "explanation", "severity", "confidence",
                                "evidence", "suggestion"}
    stored = critic_service.get_cell(result.notebook_id, result.cell_id)
    assert stored.metadata["nbcritic"]["critique"]["findings"] == findings
    events = critic_service.journal.events(result.execution_id)
    types = [e.type for e in events]
    assert types.index("critique") < types.index("final")
    critique_event = next(e for e in events if e.type == "critique")
    assert critique_event.data["findings"][0]["rule_id"] == "test.flags_print"


async def test_crashing_rule_is_reported_not_raised(critic_service: NotebookService) -> None:
    (result,) = await _run(critic_service, "x = 1")
    assert result.status.value == "ok"
    assert result.critique["errors"] == [
        {"rule_id": "test.crashes", "error": "RuntimeError: boom in a user rule"}]
    assert result.critique["rules_run"] == 3


async def test_facts_come_from_the_kernel(critic_service: NotebookService) -> None:
    setup = """
        import numpy as np, pandas as pd
        rng = np.random.default_rng(0)
        df = pd.DataFrame({"x": rng.lognormal(size=200), "g": rng.integers(0, 2, 200)})
        df.loc[:59, "x"] = np.nan
    """
    cell = """
        from scipy import stats
        df = df.dropna()
        res = stats.ttest_ind(df[df.g == 0].x, df.loc[df.g == 1, "x"])
        r2 = -0.25
        def summarise(frame):
            return frame.describe()
        summary = summarise(df)
        from sklearn.linear_model import LinearRegression
        X = np.column_stack([df.g.to_numpy(), df.x.to_numpy() * 2 + 1])
        lr = LinearRegression().fit(X, df.x)
    """
    results = await _run(critic_service, setup, cell)
    assert all(r.status.value == "ok" for r in results)
    ev = SEEN[-1]
    assert ev.introspection_error is None
    assert ev.before["df"].shape == [200, 2]  # read before the cell dropped rows
    assert ev.objects["df"].shape == [140, 2]
    assert ev.objects["df"].missing == {"x": 0, "g": 0}
    assert ev.objects["r2"].value == -0.25
    assert ev.objects["res"].kind == "result" and 0 <= ev.objects["res"].value <= 1
    assert ev.objects["stats"].qualname == "scipy.stats"
    # a function the user defined is named as the code names it (not `__main__.summarise`),
    # so rules follow calls of the user's helpers in a kernel as they do in-process
    assert ev.objects["summarise"].qualname == "summarise"
    samples = {s.expr: s for s in ev.samples}
    assert samples["df[df.g == 0].x"].call == "scipy.stats.ttest_ind"
    assert samples["df[df.g == 0].x"].n + samples['df.loc[df.g == 1, "x"]'].n == 140
    assert samples["df[df.g == 0].x"].skew > 1  # lognormal
    # the model fit as the trace saw it, with how well each feature alone orders the target
    (fit,) = [e for e in ev.trace.events if e["op"] == "fit"]
    assert fit["est"] == "LinearRegression" and fit["assoc"]["kind"] == "rho"
    assert fit["assoc"]["top"][0] == ["column 1", 1.0] and fit["assoc"]["rows"] == 140
    assert abs(fit["assoc"]["top"][1][1]) < 0.5
    assert "import numpy" in ev.prior_code  # the earlier cell, for imports and context
    assert results[1].critique["timing_ms"]["introspection"] > 0


async def test_introspection_leaves_no_trace(critic_service: NotebookService) -> None:
    results = await _run(
        critic_service, "a = [1, 2, 3]\na", "b = sum(a)\nb",
        "print(len(In), sorted(k for k in globals() if not k.startswith('_')), _, Out[1])")
    assert [r.execution_count for r in results] == [1, 2, 3]
    text = results[2].outputs[0]["text"]
    assert text.startswith("4 ")  # In holds '' and the three cells, no introspection
    assert "'a', 'b'" in text and "nbcritic" not in text  # namespace: only the user's names
    assert text.rstrip().endswith("6 [1, 2, 3]")  # `_` and Out unchanged by introspection


async def test_introspection_is_time_bounded(tmp_path: Path) -> None:
    SEEN.clear()
    svc = await _service(tmp_path, [records], introspection_timeout=0.5)
    try:
        slow = """
            import time
            class Slow:
                def __len__(self):
                    time.sleep(5)
                    return 1
            s = Slow()
        """
        results = await _run(svc, slow, "y = 2\ny")
        assert results[0].status.value == "ok"
        assert "timed out" in results[0].critique["introspection_error"] or \
            "KeyboardInterrupt" in results[0].critique["introspection_error"]
        assert results[1].status.value == "ok" and results[1].outputs[0]["data"][
            "text/plain"] == "2"  # the kernel is still usable
    finally:
        await svc.stop()


async def test_disabled_rules_settings_cell_and_request(tmp_path: Path) -> None:
    svc = await _service(tmp_path, [flags_print, crashes],
                         critic_disabled_rules=["test.crashes"])
    try:
        (r,) = await _run(svc, "print(1)")
        assert r.critique["errors"] == [] and r.critique["rules_run"] == 1
        (r,) = await _run(svc, "print(1)", disabled_rules=("test.*",))
        assert r.critique["findings"] == [] and r.critique["rules_run"] == 0
        nb = await svc.create_notebook()
        cell = await svc.add_cell(nb, source="print(1)",
                                  metadata={"nbcritic": {"disabled_rules": ["test"]}})
        r = await svc.execute_cell(nb, cell.id)
        assert r.critique["findings"] == [] and r.critique["rules_run"] == 0
    finally:
        await svc.stop()


async def test_skip_tag_and_metadata_skip_the_critic(critic_service: NotebookService) -> None:
    nb = await critic_service.create_notebook()
    tagged = await critic_service.add_cell(nb, source="print(1)",
                                           metadata={"tags": ["nbcritic-skip"]})
    flagged = await critic_service.add_cell(nb, source="print(2)",
                                            metadata={"nbcritic": {"skip_critic": True}})
    for cell, reason in ((tagged, "tag nbcritic-skip"),
                         (flagged, "metadata nbcritic.skip_critic")):
        r = await critic_service.execute_cell(nb, cell.id)
        assert r.status.value == "ok" and r.outputs
        assert r.critique["skipped"] is True and r.critique["reason"] == reason
        assert r.critique["findings"] == []
    (r,) = await _run(critic_service, "print(3)", critic=False)
    assert r.critique["skipped"] and r.critique["reason"] == "the request asked for no critique"


async def test_error_result_drops_the_stale_critique(critic_service: NotebookService) -> None:
    nb = await critic_service.create_notebook()
    cell = await critic_service.add_cell(nb, source="print(1)")
    await critic_service.execute_cell(nb, cell.id)
    assert "critique" in critic_service.get_cell(nb, cell.id).metadata["nbcritic"]
    await critic_service.update_cell(nb, cell.id, source="1/0")
    r = await critic_service.execute_cell(nb, cell.id)
    assert r.status.value == "error" and r.critique is None
    assert "critique" not in critic_service.get_cell(nb, cell.id).metadata["nbcritic"]


def test_rule_registration_is_checked() -> None:
    critic = AnalysisCritic(rules=[flags_print])
    with pytest.raises(ValueError, match="already registered"):
        critic.register(flags_print)
    with pytest.raises(TypeError):
        critic.register(lambda ev: [])  # type: ignore[arg-type]
    critic.register(records)
    assert [r.id for r in critic.rules] == ["test.flags_print", "test.records"]
    assert [r.id for r in critic.active_rules(["test.records"])] == ["test.flags_print"]


@pytest.fixture
def plugin_dist(tmp_path: Path) -> Iterator[Path]:
    """An installed distribution publishing a rule under the `nbcritic.rules` group."""
    (tmp_path / "myrules.py").write_text(textwrap.dedent("""
        from critics import Finding, rule

        @rule("acme.no_magic_numbers", title="Magic number")
        def no_magic(ev):
            if "42" in ev.code:
                yield Finding(explanation="42", severity="low", confidence=0.5)
        """))
    info = tmp_path / "acme_rules-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-rules\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[nbcritic.rules]\nmagic = myrules:no_magic\nbroken = myrules:missing_name\n")
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("myrules", None)


def test_entry_point_rules_load_and_broken_ones_are_reported(plugin_dist: Path) -> None:
    rules, errors = load_entry_point_rules()
    assert [r.id for r in rules] == ["acme.no_magic_numbers"]
    assert [e.rule_id for e in errors] == ["entry_point:broken"]
    critic = AnalysisCritic()  # built-in rules plus plugins
    assert "acme.no_magic_numbers" in {r.id for r in critic.rules}
    critique = critic.review(Evidence(code="x = 42"))
    assert critique.by_rule("acme.no_magic_numbers")[0].severity == "low"
    assert any(e.rule_id == "entry_point:broken" for e in critique.errors)


def test_critique_over_http(live_server: Any) -> None:
    critic = live_server.service.reviewer.critic
    critic.register(flags_print, replace=True)
    try:
        with live_server.client() as api:
            nb, (cell,) = new_notebook(api, "print('hi')")
            missing = api.get(f"/api/notebooks/{nb}/cells/{cell}/critique")
            assert missing.status_code == 404 and missing.json()["code"] == "no_critique"
            body = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute", json={}).json()
            assert body["critique"]["findings"][0]["rule_id"] == "test.flags_print"
            got = api.get(f"/api/notebooks/{nb}/cells/{cell}/critique")
            assert got.status_code == 200
            assert got.json()["critique"]["findings"] == body["critique"]["findings"]
            off = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                           json={"disabled_rules": ["test.flags_print"]}).json()
            assert off["critique"]["findings"] == []
            bad = api.post(f"/api/notebooks/{nb}/cells/{cell}/execute",
                           json={"disabled_rules": "test.flags_print"})
            assert bad.status_code == 422 and "disabled_rules" in bad.json()["detail"]
            rules = api.get("/api/critic/rules").json()["rules"]
            assert {"id": "test.flags_print", "family": "test", "enabled": True}.items() <= \
                next(r for r in rules if r["id"] == "test.flags_print").items()
            settings = api.get("/api/critic").json()
            assert settings["enabled"] is True and settings["llm"] is False
            assert api.get("/api/notebooks/nope/cells/x/critique").status_code == 404
    finally:
        critic.unregister("test.flags_print")


def test_claude_critic_end_to_end_over_http(tmp_path: Path) -> None:
    """With a key and a base URL, the service's critique includes the Claude critic's
    findings (the model is a local server speaking the Messages API); a Claude finding that
    restates a rule's finding is folded into it as a confirmation."""
    from .conftest import LiveServer
    from .messages_api_server import MessagesAPIServer

    def finding(family: str, quote: str) -> dict[str, Any]:
        return {"family": family, "title": "t", "explanation": "e", "severity": "high",
                "confidence": 0.7, "quotes": [quote], "lines": [1], "suggestion": "s"}

    with MessagesAPIServer() as claude:
        claude.reply_tool("report_findings", {"findings": [finding("other", "41 + 1")]})
        claude.reply_tool("report_findings",
                          {"findings": [finding("suspicious_values", "acc = 1.0")]})
        settings = make_settings(tmp_path, anthropic_api_key="test-key",
                                 anthropic_base_url=claude.url, llm_max_retries=0)
        with LiveServer(settings) as server, server.client() as api:
            nb, cells = new_notebook(api, "x = 41 + 1\nprint(x)",
                                     "acc = 1.0\nprint(f'accuracy: {acc}')")
            first, second = (api.post(f"/api/notebooks/{nb}/cells/{c}/execute", json={}).json()
                             for c in cells)
            assert api.get("/api/critic").json()["llm"] is True
        assert len(claude.requests) == 2
        assert "x = 41 + 1" in claude.requests[0].user_text
        assert [f["rule_id"] for f in first["critique"]["findings"]] == ["claude.other"]
        assert first["critique"]["findings"][0]["evidence"]["quotes"] == ["41 + 1"]
        assert first["critique"]["timing_ms"]["llm"] > 0
        rule_findings = second["critique"]["findings"]
        assert [f["source"] for f in rule_findings] == ["rules"], [
            (f["rule_id"], f["evidence"].get("lines"), f.get("confidence")) for f in rule_findings]
        assert rule_findings[0]["family"] == "suspicious_values"
        assert rule_findings[0]["evidence"]["confirmed_by"] == ["claude.suspicious_values"]
