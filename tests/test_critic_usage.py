"""The Claude critic's token usage (prompt-cache counts included) in the stored critique,
like the generator's in the attempt record: real kernels and the local Messages-API
stand-in (never a real model)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from services.notebook_service import ExecuteOptions, NotebookService

from .conftest import make_settings
from .messages_api_server import MessagesAPIServer

CACHED_USAGE = {"input_tokens": 210, "output_tokens": 40, "cache_read_input_tokens": 1800,
                "cache_creation_input_tokens": 0}


@pytest.fixture
def api() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as server:
        yield server


async def _service(tmp_path: Path, api: MessagesAPIServer, **overrides: Any
                   ) -> NotebookService:
    settings = make_settings(tmp_path, anthropic_api_key="sk-test",
                             anthropic_base_url=api.url, llm_timeout=5.0, llm_max_retries=0,
                             model="claude-test-model", **overrides)
    svc = NotebookService(settings, reviewer=settings.build_reviewer(),
                          generator=settings.build_generator())
    await svc.start()
    return svc


@pytest.fixture
async def critic_svc(tmp_path: Path, api: MessagesAPIServer) -> AsyncIterator[NotebookService]:
    svc = await _service(tmp_path, api, critic_llm=True)
    try:
        yield svc
    finally:
        await svc.stop()


async def test_the_critics_cached_tokens_are_in_the_stored_critique(
        critic_svc: NotebookService, api: MessagesAPIServer) -> None:
    api.reply_tool("report_findings", {"findings": []}, usage=CACHED_USAGE)
    nb = await critic_svc.create_notebook()
    cell = (await critic_svc.add_cell(nb, source="total = 40 + 2\nprint(total)")).id
    result = await critic_svc.execute_cell(nb, cell)
    assert result.status.value == "ok" and len(api.requests) == 1
    expected = {"input_tokens": 210, "output_tokens": 40, "cache_read_input_tokens": 1800,
                "total": 250}
    assert result.critique["usage"] == expected
    stored = critic_svc.get_cell(nb, cell).metadata["nbcritic"]["critique"]
    assert stored["usage"] == expected


async def test_no_usage_when_the_claude_critic_did_not_run(
        critic_svc: NotebookService, api: MessagesAPIServer) -> None:
    nb = await critic_svc.create_notebook()
    cell = (await critic_svc.add_cell(nb, source="x = 1")).id
    result = await critic_svc.execute_cell(nb, cell, ExecuteOptions(disabled_rules=("claude",)))
    assert result.status.value == "ok" and not api.requests
    assert "usage" not in result.critique
