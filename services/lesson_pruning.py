"""Bounded growth of the lessons store: a category above `max_per_category` loses its excess.

Who chooses: a `LessonPruner` (Claude: obsolete, redundant, least general lessons go) when
one is configured, otherwise - and to complete a choice that failed or came up short - the
heuristic `oldest_least_encountered`. Never more than the excess is removed, and
hand-written or critical lessons (`is_kept`) only once no other lesson of the category is
left to remove (the model is not even offered them before).

    reports = await prune(store, pruner=ClaudeLessonPruner(client, model=...))
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from .anthropic_client import forced_tool_input
from .lessons import (
    SCOPE_FIELDS,
    Category,
    Lesson,
    LessonStore,
    is_hand_written,
    severity_rank,
)

TOOL_NAME = "remove_lessons"
MAX_NOTE_CHARS = 300


@runtime_checkable
class LessonPruner(Protocol):
    async def choose(self, category: Category, lessons: list[Lesson], remove: int) -> list[str]:
        """The ids of `remove` lessons of `category` to delete."""
        ...


def is_kept(lesson: Lesson) -> bool:
    """Hand-written and critical lessons go last: a person chose to add the one, the other
    prevents the worst mistakes, however rarely either comes up."""
    return is_hand_written(lesson) or lesson.severity == "critical"


def oldest_least_encountered(lessons: list[Lesson], remove: int) -> list[str]:
    """The fallback: learned lessons below critical first, then hand-written or critical
    ones (`is_kept`); within each, the lower severity first, then the fewest times
    encountered, the oldest last seen (then the older creation, then the id, so the choice
    is stable)."""
    order = sorted(lessons, key=lambda x: (is_kept(x), severity_rank(x.severity),
                                           x.times_encountered, x.last_seen, x.created_at,
                                           x.id))
    return [lesson.id for lesson in order[: max(0, remove)]]


@dataclass
class PruneReport:
    category: str
    removed: list[str]
    by: str  # "model" | "heuristic"
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "removed": list(self.removed), "by": self.by,
                "note": self.note}


async def prune(store: LessonStore, *, pruner: LessonPruner | None = None,
                protect: Iterable[str] = ()) -> list[PruneReport]:
    """Bring every category back to the store's limit. A pruner that raises, or names
    unknown, repeated or too few ids, is completed by the heuristic (said in `note`); extra
    ids beyond the excess are ignored. `protect`: ids never removed (the lessons just
    written: else a category full of lessons seen twice would drop every newcomer at once)."""
    reports: list[PruneReport] = []
    kept = set(protect)
    for category, excess in store.over_limit().items():
        lessons = [x for x in store.all_lessons(category) if x.id not in kept]
        excess = min(excess, len(lessons))
        if excess <= 0:
            continue
        expendable = [x for x in lessons if not is_kept(x)]
        if len(expendable) >= excess:  # a model, too, only chooses among these
            lessons = expendable
        chosen, by, note = await _choose(category, lessons, excess, pruner)
        store.remove(chosen)
        reports.append(PruneReport(category.value, chosen, by, note))
    return reports


async def _choose(category: Category, lessons: list[Lesson], excess: int,
                  pruner: LessonPruner | None) -> tuple[list[str], str, str]:
    if pruner is None:
        return oldest_least_encountered(lessons, excess), "heuristic", ""
    try:
        answer = await pruner.choose(category, list(lessons), excess)
    except Exception as exc:  # any failure of the model path falls back, never blocks
        ids = oldest_least_encountered(lessons, excess)
        return ids, "heuristic", _clip(f"the pruner failed ({type(exc).__name__}: {exc}); "
                                       "chose oldest and least encountered instead")
    known = {lesson.id for lesson in lessons}
    chosen: list[str] = []
    unknown: list[str] = []
    for lesson_id in answer if isinstance(answer, list) else []:
        if isinstance(lesson_id, str) and lesson_id in known:
            if lesson_id not in chosen:
                chosen.append(lesson_id)
        else:
            unknown.append(repr(lesson_id))
    problems = []
    if not isinstance(answer, list):
        problems.append(f"a {type(answer).__name__} instead of a list of ids")
    if unknown:
        problems.append(f"{len(unknown)} unknown id(s) ({', '.join(unknown[:5])})")
    if len(chosen) > excess:
        problems.append(f"{len(chosen) - excess} id(s) beyond the {excess} asked for")
        chosen = chosen[:excess]
    if len(chosen) == excess:
        return chosen, "model", _clip(f"ignored {'; '.join(problems)}") if problems else ""
    problems.append(f"{len(chosen)} usable of {excess}")
    rest = [lesson for lesson in lessons if lesson.id not in chosen]
    filled = oldest_least_encountered(rest, excess - len(chosen))
    note = (f"the pruner gave {'; '.join(problems)}; {len(filled)} chosen by oldest and "
            "least encountered")
    return chosen + filled, "model" if chosen else "heuristic", _clip(note)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_NOTE_CHARS else text[: MAX_NOTE_CHARS - 1] + "…"


# -- Claude ---------------------------------------------------------------------------------


SYSTEM_PROMPT = """\
You curate a small store of lessons that a notebook code generator learned from earlier \
runs (mistakes it made, fixes that worked, patterns, tips). The store keeps a bounded number \
of lessons per category, and this category has too many.

Choose exactly the requested number of lessons to remove. Remove first the lessons that are:
- obsolete: about a situation that no longer arises or that a newer lesson supersedes;
- redundant: covered by another lesson in the list, especially by a more general one;
- least general: tied to one dataset, column or variable, and unlikely to help elsewhere.
Keep the lessons that are general, severe and seen often.

Call the remove_lessons tool exactly once with the ids (as given) of the lessons to remove."""

REMOVE_TOOL: dict[str, Any] = {
    "name": TOOL_NAME,
    "description": "Remove these lessons from the store.",
    "input_schema": {
        "type": "object",
        "properties": {
            "ids": {"type": "array", "items": {"type": "string"},
                    "description": "The ids of the lessons to remove, exactly as given."},
            "reason": {"type": "string",
                       "description": "One or two sentences: why these lessons go."},
        },
        "required": ["ids"],
    },
}

LESSON_TEXT_CHARS = 400  # what went wrong / what fixed it, per lesson in the request


class LessonPrunerError(RuntimeError):
    """The model did not give a usable choice (API error, no tool call, cut-off reply)."""


class ClaudeLessonPruner:
    """`LessonPruner` on the Anthropic Messages API, structured through a forced
    `remove_lessons` tool. The client (from `services.anthropic_client.make_async_client`)
    is injected and used duck-typed. `temperature` goes through `extra_body` (None leaves it
    out, for models that reject it). `last_request` / `last_reason` for inspection."""

    def __init__(self, client: Any, *, model: str, max_tokens: int = 1024,
                 temperature: float | None = 0.0) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.last_request: dict[str, Any] | None = None
        self.last_reason = ""

    def request(self, category: Category, lessons: list[Lesson], remove: int) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "system": SYSTEM_PROMPT,
            "messages": [{"role": "user",
                          "content": user_message(category, lessons, remove)}],
            "tools": [REMOVE_TOOL],
            "tool_choice": {"type": "tool", "name": TOOL_NAME},
        }
        if self.temperature is not None:
            kwargs["extra_body"] = {"temperature": self.temperature}
        return kwargs

    async def choose(self, category: Category, lessons: list[Lesson], remove: int) -> list[str]:
        import anthropic  # loaded with the client; not imported without a key

        kwargs = self.request(category, lessons, remove)
        self.last_request = kwargs
        self.last_reason = ""
        try:
            response = await self.client.messages.create(**kwargs)
        except anthropic.APIError as exc:
            status = getattr(exc, "status_code", None)
            what = f"API error {status}" if status is not None else type(exc).__name__
            raise LessonPrunerError(f"Claude lesson pruner: {what}: "
                                    f"{_clip(str(getattr(exc, 'message', '') or exc))}") from exc
        except json.JSONDecodeError as exc:  # the SDK parses the body with json.loads
            raise LessonPrunerError(f"Claude lesson pruner: the reply is not JSON ({exc})") \
                from exc
        ids, reason = parse_reply(response)
        self.last_reason = reason
        return ids


def parse_reply(response: Any) -> tuple[list[str], str]:
    """`(ids, reason)` from the reply's remove_lessons call, or LessonPrunerError."""
    data = forced_tool_input(response, TOOL_NAME, "Claude lesson pruner", LessonPrunerError)
    ids = data.get("ids") if isinstance(data, dict) else None
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise LessonPrunerError(f"Claude lesson pruner: {TOOL_NAME} 'ids' is not a list of "
                                "strings")
    reason = data.get("reason") if isinstance(data, dict) else ""
    return [i.strip() for i in ids], reason.strip() if isinstance(reason, str) else ""


def user_message(category: Category, lessons: list[Lesson], remove: int) -> str:
    blocks = [_lesson_block(lesson) for lesson in lessons]
    return (f"Category: {category.value}. The store holds {len(lessons)} lessons of this "
            f"category; remove exactly {remove} of them.\n\n<lessons>\n"
            + "\n\n".join(blocks)
            + f"\n</lessons>\n\nCall {TOOL_NAME} with the {remove} ids to remove.")


def _lesson_block(lesson: Lesson) -> str:
    scope = "; ".join(f"{name}: {', '.join(getattr(lesson.scope, name))}"
                      for name in SCOPE_FIELDS if getattr(lesson.scope, name)) or "none"
    last = datetime.fromtimestamp(lesson.last_seen, UTC).strftime("%Y-%m-%d")
    lines = [f'<lesson id="{lesson.id}" severity="{lesson.severity}" '
             f'times_seen="{lesson.times_encountered}" last_seen="{last}">',
             f"title: {lesson.title}",
             f"scope: {scope}",
             f"what went wrong: {_head(lesson.what_went_wrong)}"]
    if lesson.what_fixed_it:
        lines.append(f"what fixed it: {_head(lesson.what_fixed_it)}")
    lines.append("</lesson>")
    return "\n".join(lines)


def _head(text: str) -> str:
    return text if len(text) <= LESSON_TEXT_CHARS else text[: LESSON_TEXT_CHARS - 1] + "…"
