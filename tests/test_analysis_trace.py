"""The analysis trace: recorded in a real kernel while a reviewed cell runs, read as data
by the rules; results unchanged by tracing; a trace that cannot follow degrades."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from critics import AnalysisCritic, Evidence, Finding, rule
from critics.trace import Trace
from services.cell_review import CellReviewer
from services.notebook_service import ExecuteOptions, NotebookService

from .conftest import make_settings

SEEN: list[Evidence] = []


@rule("test.keeps_evidence", family="test", title="Keeps the evidence")
def keeps(ev: Evidence) -> list[Finding]:
    SEEN.append(ev)
    return []


SETUP = """
import numpy as np, pandas as pd
from sklearn.preprocessing import StandardScaler
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
rng = np.random.default_rng(7)
frame = pd.DataFrame(rng.normal(size=(300, 4)), columns=list("abcd"))
frame["y"] = (frame.a + rng.normal(size=300) > 0).astype(int)
"""

LEAKY = """
scaled = pd.DataFrame(StandardScaler().fit_transform(frame[list("abcd")]), columns=list("abcd"))
tr, te, ytr, yte = train_test_split(scaled, frame.y, test_size=0.25, random_state=0)
model = LogisticRegression().fit(tr, ytr)
print(round(model.score(te, yte), 3))
"""


async def _run(tmp_path: Path, *sources: str, **settings: Any) -> list[Any]:
    config = make_settings(tmp_path, **settings)
    reviewer = CellReviewer(config, critic=AnalysisCritic(
        rules=[keeps, *AnalysisCritic().rules], disabled=config.critic_disabled_rules))
    svc = NotebookService(config, reviewer=reviewer)
    await svc.start()
    try:
        nb = await svc.create_notebook()
        out = []
        for source in sources:
            cell = await svc.add_cell(nb, source=textwrap.dedent(source))
            out.append(await svc.execute_cell(nb, cell.id, ExecuteOptions()))
        return out
    finally:
        await svc.stop()


async def test_kernel_records_lineage_and_the_rule_blocks(tmp_path: Path) -> None:
    SEEN.clear()
    _, leaky = await _run(tmp_path, SETUP, LEAKY)
    trace = SEEN[-1].trace
    ops = [e["op"] for e in trace.events]
    assert ops[:4] == ["fit_transform", "split", "fit", "score"]
    # the lines of the cell as written (it starts with a blank line, which IPython drops
    # before compiling: the events are shifted back to the code the user reads)
    assert [e["line"] for e in trace.events][:4] == [2, 3, 4, 5]
    score = trace.events[3]
    assert trace.share(score["X"], trace.events[0]["X"]) == 1.0  # the scaler saw test rows
    assert trace.share(score["X"], trace.events[2]["X"]) == 0.0  # the model did not
    rules = {f["rule_id"] for f in leaky.critique["findings"]}
    assert "leakage.fit_saw_heldout_rows" in rules
    assert leaky.status.value == "scientific_validity_error"


async def test_trace_off_by_setting_leaves_no_events(tmp_path: Path) -> None:
    SEEN.clear()
    await _run(tmp_path, SETUP, LEAKY, critic_trace=False)
    assert not SEEN[-1].trace.recorded


async def test_tracing_does_not_change_results(tmp_path: Path) -> None:
    """An unseeded split and draws after it give the same numbers with the trace on/off."""
    code = """
    import warnings; warnings.simplefilter("always")
    from scipy import stats
    np.random.seed(3)
    a, b = train_test_split(np.arange(50), test_size=0.2)
    print(sorted(b.tolist()), np.random.rand())
    print(frame[frame.a > 0].shape, frame.dropna().y.mean())
    stats.mannwhitneyu([1.0], [])
    """
    on = await _run(tmp_path / "on", SETUP, code)
    off = await _run(tmp_path / "off", SETUP, code, critic_trace=False)

    def shown(result: Any) -> str:  # the cell's file name carries the kernel's pid
        return re.sub(r"ipykernel_\d+", "ipykernel_N", json.dumps(result.outputs))

    assert shown(on[1]) == shown(off[1])
    stderr = "".join(o.get("text", "") for o in on[1].outputs if o.get("name") == "stderr")
    assert "SmallSampleWarning" in stderr and "ipykernel_" in stderr, stderr  # the cell's line
    assert on[1].status.value == "ok"


def test_trace_round_trips_through_evidence() -> None:
    t = Trace(events=[{"op": "fit", "line": 2, "X": "d1"}], data={"d1": {"n": 5}},
              overlap=[["d2", "d1", 0.5]])
    ev = Evidence.from_dict(Evidence(code="x = 1", trace=t).to_dict())
    assert ev.trace.events == t.events and ev.trace.share("d2", "d1") == 0.5
    assert ev.trace.share("d3", "d1") is None


def test_a_cell_the_trace_cannot_follow_degrades() -> None:
    """Past the per-cell event limit the recorder stops, says why, and the cell runs on."""
    from tests.inprocess_evidence import run_and_gather

    ev = run_and_gather("""
    from scipy import stats
    ps = [stats.ttest_1samp(np.arange(i, i + 9.0), 0).pvalue for i in range(400)]
    print(len(ps))
    """, SETUP)
    assert "400" in ev.text
    assert ev.trace.truncated and "too many analysis events" in " ".join(ev.trace.errors)
    assert "analysis trace incomplete" in (ev.introspection_error or "")


@pytest.mark.parametrize("bad", [None, {}, {"status": "error", "ename": "KeyError"},
                                 {"status": "ok", "data": {"text/plain": "'not json'"}}])
def test_unreadable_trace_replies_become_errors(bad: Any) -> None:
    from services.cell_review import _trace_of

    reply = {"status": "ok", "user_expressions": {"nbcritic_trace": bad} if bad else {}}
    assert "error" in _trace_of(reply) and "error" in _trace_of(None)


def test_query_still_resolves_the_callers_names() -> None:
    """`DataFrame.query` finds `@name` by counting frames: the wrapper must not shift it."""
    from tests.inprocess_evidence import run_and_gather

    ev = run_and_gather("""
    wanted = [1, 2]
    def pick(d):
        lo = 0.5
        return d.query("y in @wanted and a > @lo")
    third = frame.query("a > @lo2", local_dict={"lo2": 0})
    print(len(frame.query("y in @wanted")), len(pick(frame)), len(third))
    """, SETUP)
    assert ev.trace.of("filter")  # recorded, and each query saw its own caller's names
    first, second, third = (int(x) for x in ev.stdout.split())
    assert first > 0 and 0 < second < first and third > 0

