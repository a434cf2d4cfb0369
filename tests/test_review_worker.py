"""The critic's parsing and rules run in bounded worker threads, off the event loop: a slow
review of one notebook does not hold up another notebook's execution (real kernels)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from critics import AnalysisCritic, Evidence, Finding, rule
from services.cell_review import CellReviewer
from services.notebook_service import NotebookService
from services.review_worker import ReviewWorker

from .conftest import make_settings

MARKER = "SLOW_REVIEW"
WAIT = 20.0  # seconds a blocked review waits before giving up (only if the test fails)
entered = threading.Event()
release = threading.Event()
order: list[str] = []


@rule("test.slow_review", family="test", title="Blocks the review of marked cells")
def slow_review(ev: Evidence) -> list[Finding]:
    if MARKER in ev.code:
        entered.set()
        release.wait(WAIT)  # on the event loop this would freeze every notebook
        order.append("slow review done")
    return []


@pytest.fixture
async def svc(tmp_path: Path):
    entered.clear()
    release.clear()
    order.clear()
    config = make_settings(tmp_path, pool_size=2)
    reviewer = CellReviewer(config, critic=AnalysisCritic(rules=[slow_review],
                                                          load_plugins=False))
    service = NotebookService(config, reviewer=reviewer)
    await service.start()
    try:
        yield service
    finally:
        release.set()
        await service.stop()


async def test_other_notebook_runs_while_a_review_is_slow(svc: NotebookService) -> None:
    slow_nb, fast_nb = await svc.create_notebook(), await svc.create_notebook()
    slow_cell = await svc.add_cell(slow_nb, source=f"x = 1  # {MARKER}")
    fast_cell = await svc.add_cell(fast_nb, source="1+1")
    slow = asyncio.create_task(svc.execute_cell(slow_nb, slow_cell.id))
    assert await asyncio.to_thread(entered.wait, WAIT), "the slow review never started"

    fast = await svc.execute_cell(fast_nb, fast_cell.id)
    order.append("other notebook done")
    assert fast.status.value == "ok"
    assert fast.outputs[0]["data"]["text/plain"] == "2"
    assert fast.critique is not None and fast.critique["rules_run"] == 1  # reviewed too
    assert not slow.done()

    release.set()
    result = await slow
    assert result.status.value == "ok" and result.critique is not None
    assert order == ["other notebook done", "slow review done"]


async def test_reviews_beyond_the_bound_wait_their_turn() -> None:
    worker = ReviewWorker(workers=1)
    first_in, first_go = threading.Event(), threading.Event()
    done: list[str] = []

    def first() -> str:
        first_in.set()
        first_go.wait(WAIT)
        done.append("first")
        return "first"

    def second() -> str:
        done.append("second")
        return "second"

    try:
        one = asyncio.create_task(worker.run(first))
        assert await asyncio.to_thread(first_in.wait, WAIT)
        two = asyncio.create_task(worker.run(second))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert worker.waiting == 1 and done == []  # queued on the loop, not in a thread
        first_go.set()
        assert await one == "first" and await two == "second"
        assert done == ["first", "second"] and worker.waiting == 0
    finally:
        first_go.set()
        worker.close()


async def test_a_cancelled_caller_keeps_its_slot_until_the_thread_ends() -> None:
    worker = ReviewWorker(workers=1)
    running, go = threading.Event(), threading.Event()

    def blocked() -> None:
        running.set()
        go.wait(WAIT)

    try:
        task = asyncio.create_task(worker.run(blocked))
        assert await asyncio.to_thread(running.wait, WAIT)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        later = asyncio.create_task(worker.run(lambda: "later"))
        await asyncio.sleep(0.05)
        assert not later.done() and worker.waiting == 1  # the thread still holds the slot
        go.set()
        assert await later == "later"
    finally:
        go.set()
        worker.close()


def test_at_least_one_worker() -> None:
    with pytest.raises(ValueError, match="critic_workers"):
        ReviewWorker(workers=0)


def test_one_worker_serves_successive_event_loops() -> None:
    worker = ReviewWorker(workers=1)
    go = threading.Event()

    async def contended() -> list[str]:
        first = asyncio.create_task(worker.run(lambda: go.wait(WAIT) and "first"))
        second = asyncio.create_task(worker.run(lambda: "second"))
        await asyncio.sleep(0.05)
        go.set()
        return [await first, await second]

    try:
        assert asyncio.run(contended()) == ["first", "second"]
        go.clear()
        assert asyncio.run(contended()) == ["first", "second"]  # a new loop, same worker
    finally:
        go.set()
        worker.close()
