"""Learning across runs: the lessons store, the improvement queue and its sinks, and the
post-mortem reflection, behind one object the NotebookService holds.

Everything here is best effort for the cell that triggered it: a failure to learn is logged
and never changes a cell's result.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from .attempt_lessons import drafts_from_attempts
from .config import EngineConfig
from .improvement_queue import ImprovementQueue, requests_from
from .improvement_sinks import Sink, WebhookSink, deliver
from .journal import Journal
from .lesson_pruning import LessonPruner, PruneReport, prune
from .lessons import Lesson, LessonQuery, LessonStore
from .reflection import REFLECTION_PREFIX, Reflection, lesson_drafts, reflect

log = logging.getLogger(__name__)

REFLECTION_EVENT = "reflection"
MAX_EXECUTIONS = 50  # one reflection reads at most this many executions
# what a post-mortem does not read: the cells' outputs
OUTPUT_EVENTS = ("stream", "display_data", "execute_result", "error", "clear_output",
                 "update_display_data", "output_truncated")


@dataclass
class Learned:
    """What one cell or one reflection changed in the lessons store."""

    created: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    pruned: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"created": self.created, "merged": self.merged, "pruned": self.pruned}


def default_sinks(config: EngineConfig) -> list[Sink]:
    """The sinks configuration names without secrets (the GitHub sink needs a token: the
    app's Settings builds it)."""
    return [WebhookSink(config.improvement_webhook_url,
                        attempts=config.improvement_webhook_attempts)] \
        if config.improvement_webhook_url else []


class Learning:
    def __init__(self, config: EngineConfig, *, pruner: LessonPruner | None = None,
                 sinks: list[Sink] | None = None):
        self.config = config
        path = config.learning_path
        self.lessons = LessonStore(path, max_per_category=config.lessons_max_per_category)
        self.queue = ImprovementQueue(path, cooldown_seconds=config.improvement_cooldown,
                                      cooldown_scope=config.improvement_cooldown_scope)
        self.pruner = pruner
        self.sinks = default_sinks(config) if sinks is None else sinks
        self._pruning: set[asyncio.Task[Any]] = set()

    def close(self) -> None:
        self.lessons.close()
        self.queue.close()

    async def aclose(self) -> None:
        """Let background pruning finish, then close."""
        if self._pruning:
            await asyncio.gather(*self._pruning, return_exceptions=True)
        self.close()

    # -- lessons in, lessons out ---------------------------------------------------------

    def for_prompt(self, query: LessonQuery) -> list[Lesson]:
        """The lessons relevant to what is at hand, within the prompt budget."""
        if not self.config.lessons_enabled or self.config.lessons_in_prompt == 0:
            return []
        try:
            return self.lessons.relevant(query, limit=self.config.lessons_in_prompt,
                                         max_chars=self.config.lessons_max_chars,
                                         min_relevance=self.config.lessons_min_relevance)
        except Exception:
            log.exception("reading lessons failed")
            return []

    async def record(self, drafts: list[dict[str, Any]], *,
                     prune_later: bool = False) -> Learned:
        """Write lesson drafts (near-duplicates merge; a draft that fails validation is
        logged and the others still land), then prune what grew over its limit, never the
        lessons just written. `prune_later`: prune in the background (a cell's result must
        not wait for a model choosing what to forget)."""
        learned = Learned()
        for draft in drafts:
            try:
                recorded = self.lessons.record(Lesson.from_dict(draft))
            except Exception:
                log.exception("a lesson could not be written: %.200r", draft)
                continue
            (learned.created if recorded.created else learned.merged).append(recorded.lesson.id)
        if learned.created and self.lessons.over_limit():
            if prune_later:
                task = asyncio.create_task(self._prune(learned.created))
                self._pruning.add(task)
                task.add_done_callback(self._pruning.discard)
            else:
                learned.pruned = await self._prune(learned.created)
        return learned

    async def _prune(self, protect: list[str]) -> list[dict[str, Any]]:
        try:
            return _reports(await prune(self.lessons, pruner=self.pruner, protect=protect))
        except Exception:
            log.exception("pruning lessons failed")
            return []

    async def import_lessons(self, lessons: list[Lesson]) -> dict[str, Any]:
        """Import (near-duplicates merge; in a worker thread, since every newcomer is
        compared with the stored lessons of its scope), then prune what grew over its
        limit, never what was just imported."""
        before = {x.id for x in self.lessons.all_lessons()}
        counts: dict[str, Any] = dict(await asyncio.to_thread(self.lessons.import_lessons,
                                                              lessons))
        if self.lessons.over_limit():
            fresh = [x.id for x in self.lessons.all_lessons() if x.id not in before]
            counts["pruned"] = await self._prune(fresh)
        return counts

    async def learn_from_cell(self, attempts: list[dict[str, Any]],
                              escalation: dict[str, Any] | None, *, notebook_id: str,
                              cell_id: str, execution_id: str, prior_code: str = "",
                              namespace: dict[str, Any] | None = None) -> Learned:
        """A fixed retry writes `fix` lessons; an escalation a `mistake` lesson."""
        if not self.config.lessons_enabled:
            return Learned()
        drafts = drafts_from_attempts(attempts, escalation=escalation, notebook_id=notebook_id,
                                      cell_id=cell_id, execution_id=execution_id,
                                      prior_code=prior_code, namespace=namespace)
        return await self.record(drafts, prune_later=True)

    # -- reflection ------------------------------------------------------------------------

    @staticmethod
    def reflected(journal: Journal, notebook_id: str) -> set[str]:
        """Executions a journaled reflection of this notebook already covered."""
        events = journal.notebook_events(notebook_id, types=(REFLECTION_EVENT,), limit=10**6)
        return {i for e in events for i in e.data.get("execution_ids", [])}

    def executions_to_reflect(self, journal: Journal, notebook_id: str) -> list[str]:
        """The notebook's finished executions no reflection covered yet (the latest
        MAX_EXECUTIONS), oldest first."""
        done = self.reflected(journal, notebook_id)
        records = [r for r in journal.executions(notebook_id, limit=MAX_EXECUTIONS)
                   if r.finished_at is not None and not r.id.startswith(REFLECTION_PREFIX)
                   and r.id not in done]
        return [r.id for r in reversed(records)]

    async def reflect(self, journal: Journal, notebook_id: str,
                      execution_ids: list[str] | None = None, *, record_clean: bool = False
                      ) -> dict[str, Any]:
        """Analyse the journal of some executions; update lessons and queue improvement
        requests from what recurs. A clean run changes nothing (and is not journaled unless
        `record_clean`). Each execution counts once: executions an earlier reflection
        covered are analysed when named, but then change nothing."""
        ids = execution_ids if execution_ids is not None else \
            self.executions_to_reflect(journal, notebook_id)
        again = sorted(set(ids) & self.reflected(journal, notebook_id))
        journal.commit()  # the worker thread reads through its own connection
        reflection: Reflection = await asyncio.to_thread(self._reflect, journal, notebook_id,
                                                         list(ids))
        learned, improvements = Learned(), []
        if not reflection.clean and not again:
            if self.config.lessons_enabled:
                learned = await self.record(lesson_drafts(reflection))
            if self.config.improvements_enabled:
                improvements = await self._improve(reflection)
        data = {**reflection.to_dict(), "clean": reflection.clean,
                "lessons": learned.to_dict(), "improvements": improvements}
        if again:
            data["already_reflected"] = again
        if ids and not again and (not reflection.clean or record_clean):
            record_id = f"{REFLECTION_PREFIX}{uuid.uuid4().hex}"
            event = journal.append(record_id, notebook_id, None, REFLECTION_EVENT, data)
            data["id"], data["seq"] = record_id, event.seq
        return data

    def _reflect(self, journal: Journal, notebook_id: str, ids: list[str]) -> Reflection:
        events = journal.read_events(ids, skip_types=OUTPUT_EVENTS, drop_outputs=True)
        reflection = reflect(notebook_id, events,
                             slow_cell_ms=self.config.slow_cell_seconds * 1000)
        reflection.execution_ids = ids
        return reflection

    async def _improve(self, reflection: Reflection) -> list[dict[str, Any]]:
        out = []
        for request in requests_from(reflection):
            submitted = self.queue.submit(request)
            if submitted.queued and self.sinks:
                await deliver(self.queue, submitted.request, self.sinks)
            current = self.queue.get(submitted.request.id)
            out.append({"id": current.id, "title": current.title, "queued": submitted.queued,
                        "reason": submitted.reason, "deliveries": current.deliveries})
        return out


def _reports(reports: list[PruneReport]) -> list[dict[str, Any]]:
    return [{"category": str(r.category), "removed": r.removed, "by": r.by, "note": r.note}
            for r in reports]
