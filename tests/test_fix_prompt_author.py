"""A fix request says whose code it rewrites: the generator's own attempt, or the cell the
user wrote. Real kernels and the local Messages-API stand-in (never a real model)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from services.claude_generator import fix_message
from services.code_generator import AttemptSummary, GenerationContext
from services.notebook_service import NotebookService

from .conftest import make_settings
from .messages_api_server import MessagesAPIServer


@pytest.fixture
def api() -> Iterator[MessagesAPIServer]:
    with MessagesAPIServer() as server:
        yield server


@pytest.fixture
async def svc(tmp_path: Path, api: MessagesAPIServer) -> AsyncIterator[NotebookService]:
    settings = make_settings(tmp_path, anthropic_api_key="sk-test", critic_llm=False,
                             anthropic_base_url=api.url, llm_timeout=5.0, llm_max_retries=0,
                             model="claude-test-model")
    service = NotebookService(settings, reviewer=settings.build_reviewer(),
                              generator=settings.build_generator())
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


async def test_the_fix_prompt_says_who_wrote_the_code(svc: NotebookService,
                                                      api: MessagesAPIServer) -> None:
    """A prompt cell: the generator wrote attempt 1, so the fix request says the code is
    its own; a cell the user wrote says it is the user's."""
    api.reply_tool("submit_code", {"code": "print(undefined_total)"})
    api.reply_tool("submit_code", {"code": "print(6 * 7)"})
    api.reply_tool("submit_code", {"code": "print(7 * 6)"})
    nb = await svc.create_notebook()
    prompt_cell = (await svc.add_cell(nb, prompt="print the answer")).id
    user_cell = (await svc.add_cell(nb, source="print(user_total)")).id
    generated = await svc.execute_cell(nb, prompt_cell)
    assert generated.status.value == "ok", generated.escalation
    written = await svc.execute_cell(nb, user_cell)
    assert written.status.value == "ok", written.escalation
    _generate, fix_generated, fix_users = (r.user_text for r in api.requests)
    assert "written by the code generator" in fix_generated
    assert "written by the user" not in fix_generated
    assert "written by the user" in fix_users
    assert "written by the code generator" not in fix_users


def test_earlier_attempts_name_the_generators_own() -> None:
    history = [AttemptSummary(1, "x = user_code", "error", "NameError: user_code"),
               AttemptSummary(2, "x = its_code", "error", "NameError: its_code", True)]
    text = fix_message(None, "x = third", "NameError: third", history,
                       GenerationContext(generated=True))
    assert "### Attempt 1 (status: error)\n" in text
    assert "### Attempt 2 (status: error, written by the code generator)\n" in text
