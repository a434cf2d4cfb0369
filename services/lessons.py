"""The lessons store: what earlier runs learned (a mistake, the fix that worked, a pattern, a
tip), scoped to the rule ids, error types, libraries and columns it is about (SQLite).

A lesson seen again (same category, same scope, near-identical text; `lesson_similarity`)
is merged: `times_encountered` grows instead of the store filling with copies. `relevant`
picks the few lessons for what is at hand, for the code generator's prompt. Growth is
bounded by `lesson_pruning.prune`, which the caller runs (it may call a model).

    store = LessonStore(data_dir / "lessons.sqlite")
    store.record(Lesson("Scaler fit before the split", Category.FIX, "...", "..."))
    lines = [l.prompt_line() for l in store.relevant(LessonQuery(rule_ids=[...]))]
"""

from __future__ import annotations

import builtins
import json
import math
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from critics.findings import Severity

from .database import immediate, open_sqlite
from .lesson_relevance import MIN_RELEVANCE, ranked
from .lesson_similarity import is_duplicate, similarity


class Category(StrEnum):
    MISTAKE = "mistake"
    FIX = "fix"
    PATTERN = "pattern"
    TIP = "tip"


SEVERITIES = ("info", "low", "medium", "high", "critical")

TITLE_MAX_CHARS = 300
TEXT_MAX_CHARS = 20_000  # what went wrong / what fixed it (a diff can be long, not unbounded)
PROMPT_LINE_MAX_CHARS = 300
MAX_TIMES = 10**9  # times_encountered: bounded (SQLite INTEGER), merges saturate
PROMPT_TITLE_MAX_CHARS = 100
MAX_TIMESTAMP = 253_402_300_799.0  # 9999-12-31T23:59:59Z: what datetime (and Markdown) can show

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

# distribution names people write for the package they import
_LIBRARY_ALIASES = {
    "scikit-learn": "sklearn", "scikit_learn": "sklearn", "scikit-image": "skimage",
    "pillow": "pil", "opencv-python": "cv2", "opencv": "cv2", "beautifulsoup4": "bs4",
    "pyyaml": "yaml", "pytorch": "torch",
}


class LessonError(ValueError):
    """A bad field. The message starts with the field's path: `severity: must be one of ...`,
    `lessons[3].scope.rule_ids[0]: must be a string`, `line 12: ...` (Markdown)."""

    def __init__(self, field_path: str, problem: str) -> None:
        super().__init__(f"{field_path}: {problem}" if field_path else problem)
        self.field = field_path
        self.problem = problem

    def within(self, prefix: str) -> LessonError:
        """The same error inside a container: `lessons[3]` + `severity` ->
        `lessons[3].severity`."""
        path = f"{prefix}.{self.field}" if self.field else prefix
        return LessonError(path, self.problem)


class LessonNotFound(KeyError):
    def __init__(self, lesson_id: str) -> None:
        super().__init__(lesson_id)
        self.lesson_id = lesson_id

    def __str__(self) -> str:  # KeyError would show the repr of the id only
        return f"no lesson with id {self.lesson_id!r}"


# -- scope ---------------------------------------------------------------------------------


SCOPE_FIELDS = ("rule_ids", "error_types", "libraries", "columns", "tags")


def library_name(name: str) -> str:
    """The lower-cased top-level package: `sklearn.preprocessing` and `scikit-learn` ->
    `sklearn`."""
    name = name.strip().lower()
    name = _LIBRARY_ALIASES.get(name, name)
    return name.split(".", 1)[0]


def _error_type_name(name: str) -> str:
    # `sklearn.exceptions.NotFittedError` and `NotFittedError` are the same exception here
    return name.strip().rsplit(".", 1)[-1]


_NORMALISERS: dict[str, Callable[[str], str]] = {
    "rule_ids": str.strip,
    "error_types": _error_type_name,
    "libraries": library_name,
    "columns": str.strip,  # column names are case-sensitive
    "tags": lambda s: s.strip().lower(),
}


def _scope_values(values: Any, name: str, path: str) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str) or not isinstance(values, list | tuple | set | frozenset):
        raise LessonError(path, f"must be a list of strings (got {type(values).__name__})")
    out: set[str] = set()
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise LessonError(f"{path}[{i}]", f"must be a string (got {type(value).__name__})")
        if "\n" in value or "\r" in value:
            raise LessonError(f"{path}[{i}]", "must be one line")
        value = _NORMALISERS[name](value)
        if value:
            out.add(value)
    return sorted(out)


@dataclass
class Scope:
    """What a lesson is about. Values are normalised: stripped, de-duplicated, sorted;
    libraries as lower-cased top-level packages, error types as bare class names, tags
    lower-cased."""

    rule_ids: list[str] = field(default_factory=list)
    error_types: list[str] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in SCOPE_FIELDS:
            setattr(self, name, _scope_values(getattr(self, name), name, f"scope.{name}"))

    def to_dict(self) -> dict[str, list[str]]:
        return {name: list(getattr(self, name)) for name in SCOPE_FIELDS}

    @classmethod
    def from_dict(cls, data: Any) -> Scope:
        if isinstance(data, Scope):
            return cls(**data.to_dict())
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise LessonError("scope", f"must be an object (got {type(data).__name__})")
        for key in data:
            if key not in SCOPE_FIELDS:
                raise LessonError(f"scope.{key}",
                                  f"unknown field (expected one of {', '.join(SCOPE_FIELDS)})")
        return cls(**data)

    def values(self) -> list[str]:
        return [v for name in SCOPE_FIELDS for v in getattr(self, name)]

    def is_empty(self) -> bool:
        return not self.values()


# -- the lesson -----------------------------------------------------------------------------


def _text(value: Any, name: str, *, required: bool, max_chars: int) -> str:
    """Newlines unified, blank lines and trailing space at either end dropped; the first
    line keeps its indentation (a diff's context line, indented code)."""
    if not isinstance(value, str):
        raise LessonError(name, f"must be a string (got {type(value).__name__})")
    lines = value.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    value = "\n".join(lines).rstrip()
    if required and not value:
        raise LessonError(name, "must not be empty")
    if len(value) > max_chars:
        raise LessonError(name, f"at most {max_chars} characters (got {len(value)})")
    return value


def _timestamp(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LessonError(name, f"must be a number of epoch seconds (got {type(value).__name__})")
    value = float(value)
    if not math.isfinite(value) or not 0 <= value <= MAX_TIMESTAMP:
        raise LessonError(name, f"must be epoch seconds between 0 and {MAX_TIMESTAMP:.0f}")
    # microseconds: what an ISO timestamp (the Markdown export) holds exactly
    return round(value, 6)


def _severity(value: Any) -> str:
    text = value.strip().lower() if isinstance(value, str) else value
    if text not in SEVERITIES:
        raise LessonError("severity", f"must be one of {', '.join(SEVERITIES)} (got {value!r})")
    return str(text)


def _category(value: Any) -> Category:
    try:
        return Category(value.strip().lower() if isinstance(value, str) else value)
    except ValueError:
        raise LessonError("category", f"must be one of {', '.join(Category)} "
                                      f"(got {value!r})") from None


def severity_rank(severity: str) -> int:
    return Severity(severity).rank


@dataclass
class Lesson:
    title: str
    category: Category
    what_went_wrong: str
    what_fixed_it: str = ""  # the diff or the approach
    severity: str = "medium"
    scope: Scope = field(default_factory=Scope)
    id: str = ""  # assigned by the store (short hex)
    times_encountered: int = 1
    created_at: float = 0.0  # epoch seconds, set by the store
    last_seen: float = 0.0
    source: dict[str, Any] = field(default_factory=dict)  # notebook_id, cell_id, execution_id

    def __post_init__(self) -> None:
        """Validates and normalises every field (LessonError names the bad one)."""
        title = _text(self.title, "title", required=True, max_chars=10 * TITLE_MAX_CHARS)
        self.title = " ".join(title.split())  # one line: it is a Markdown heading
        if len(self.title) > TITLE_MAX_CHARS:
            raise LessonError("title", f"at most {TITLE_MAX_CHARS} characters "
                                       f"(got {len(self.title)})")
        self.category = _category(self.category)
        self.what_went_wrong = _text(self.what_went_wrong, "what_went_wrong", required=True,
                                     max_chars=TEXT_MAX_CHARS)
        self.what_fixed_it = _text(self.what_fixed_it, "what_fixed_it", required=False,
                                   max_chars=TEXT_MAX_CHARS)
        self.severity = _severity(self.severity)
        self.scope = Scope.from_dict(self.scope)
        if not isinstance(self.id, str) or (self.id and not _ID.fullmatch(self.id)):
            raise LessonError("id", "must be letters, digits, '-' or '_' (at most 64)")
        count = self.times_encountered
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_TIMES:
            raise LessonError("times_encountered",
                              f"must be an integer from 1 to {MAX_TIMES} (got {count!r})")
        self.created_at = _timestamp(self.created_at, "created_at")
        self.last_seen = _timestamp(self.last_seen, "last_seen")
        if self.created_at and self.last_seen and self.last_seen < self.created_at:
            raise LessonError("last_seen", "must not be before created_at")
        self.source = _source(self.source)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "title": self.title, "category": self.category.value,
            "severity": self.severity, "what_went_wrong": self.what_went_wrong,
            "what_fixed_it": self.what_fixed_it, "scope": self.scope.to_dict(),
            "times_encountered": self.times_encountered, "created_at": self.created_at,
            "last_seen": self.last_seen, "source": json.loads(json.dumps(self.source)),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Lesson:
        if not isinstance(data, dict):
            raise LessonError("", f"a lesson must be an object (got {type(data).__name__})")
        for key in data:
            if key not in LESSON_FIELDS:
                raise LessonError(str(key), "unknown field")
        for key in ("title", "category", "what_went_wrong"):
            if key not in data:
                raise LessonError(key, "required")
        values = dict(data)
        values["scope"] = Scope.from_dict(data.get("scope"))
        return cls(**values)

    def prompt_line(self) -> str:
        """One line for the generator's prompt, at most PROMPT_LINE_MAX_CHARS:
        `[fix, high, seen 3x] Title: what went wrong -> what fixed it`. A diff shows its
        added lines."""
        head = f"[{self.category.value}, {self.severity}, seen {self.times_encountered}x] "
        head += _clip(self.title, PROMPT_TITLE_MAX_CHARS) + ": "
        wrong = _after_title(self.title, _one_line(self.what_went_wrong))
        fixed = _one_line(self.what_fixed_it)
        arrow = " -> " if fixed else ""
        room = PROMPT_LINE_MAX_CHARS - len(head) - len(arrow)
        if len(wrong) + len(fixed) > room:
            if not fixed:
                wrong = _clip(wrong, room)
            else:  # an even split; a short side gives its unused share to the other
                half = room // 2
                if len(wrong) < half:
                    fixed = _clip(fixed, room - len(wrong))
                elif len(fixed) < half:
                    wrong = _clip(wrong, room - len(fixed))
                else:
                    wrong, fixed = _clip(wrong, half), _clip(fixed, room - half)
        return f"{head}{wrong}{arrow}{fixed}"


LESSON_FIELDS = frozenset(f.name for f in fields(Lesson))


def _source(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise LessonError("source", f"must be an object (got {type(value).__name__})")
    for key in value:
        if not isinstance(key, str):
            raise LessonError("source", f"keys must be strings (got {key!r})")
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise LessonError("source", f"must be JSON-serialisable ({exc})") from None
    except RecursionError:
        raise LessonError("source", "nested too deeply") from None


def looks_like_diff(text: str) -> bool:
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    if any(line.startswith(("@@", "+++ ", "--- ")) for line in lines):
        return True
    return (any(line.startswith("+") for line in lines)
            and any(line.startswith("-") for line in lines)
            and all(line.startswith(("+", "-", " ")) for line in lines))


def _after_title(title: str, text: str) -> str:
    """`text` without the part that repeats the title it follows in a prompt line: the
    whole title (a finding's `Title: explanation`), or the message of an error's title
    (`KeyError: 'price'` then `'price' (at ...)`)."""
    folded = title.casefold().rstrip(" .:")
    repeats = [folded]
    if ": " in folded:
        repeats.append(folded.split(": ", 1)[1])
    for repeat in repeats:
        if len(repeat) >= 3 and text.casefold().startswith(repeat):
            rest = text[len(repeat):].lstrip(" .:;-—")
            return rest or text
    return text


def _one_line(text: str) -> str:
    """A diff keeps its prose (an explanation) and its added lines: those are the fix; the
    removed and context lines repeat the mistake."""
    if looks_like_diff(text):
        kept = [line[1:] if line.startswith("+") else line for line in text.split("\n")
                if not line.startswith(("+++", "-", " ", "@@", "\\", "…"))]
        text = "; ".join(k.strip() for k in kept if k.strip()) or text
    return " ".join(text.split())


def _clip(text: str, budget: int) -> str:
    if len(text) <= budget:
        return text
    if budget <= 1:
        return "…"[:budget]
    cut = text[: budget - 1]
    space = cut.rfind(" ")
    if space > budget * 2 // 3:  # end on a word when that loses little
        cut = cut[:space]
    return cut.rstrip() + "…"


# -- matching -------------------------------------------------------------------------------


@dataclass
class LessonQuery:
    """What is at hand when the generator is asked (the scope fields normalised like a
    Scope): the rule ids and error types of the attempt being fixed, the cell's libraries
    and columns, its words (`text`: the prompt, the code, the error or findings) and its
    `code`, whose calls say what the cell does (`services.lesson_relevance`)."""

    rule_ids: list[str] = field(default_factory=list)
    error_types: list[str] = field(default_factory=list)
    libraries: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    text: str = ""
    code: str = ""

    def __post_init__(self) -> None:
        for name in ("rule_ids", "error_types", "libraries", "columns"):
            setattr(self, name, _scope_values(getattr(self, name), name, name))
        for name in ("text", "code"):
            if not isinstance(getattr(self, name), str):
                raise LessonError(name, "must be a string")

    def is_empty(self) -> bool:
        return not (self.rule_ids or self.error_types or self.libraries or self.columns
                    or self.text.strip() or self.code.strip())


def merge_lessons(existing: Lesson, incoming: Lesson) -> Lesson:
    """`incoming` seen again as `existing`: counts add up (the same id is the same sightings,
    so the higher count), first and last sighting widen, the higher severity stays, the
    newest non-empty fix wins unless it would replace a verified fix with an unverified
    one, libraries/columns/tags are united. Title and description stay (an existing lesson
    does not change under the user's eyes)."""
    if existing.id and existing.id == incoming.id:
        times = max(existing.times_encountered, incoming.times_encountered)
    else:
        times = min(MAX_TIMES, existing.times_encountered + incoming.times_encountered)
    fixed, source = existing.what_fixed_it, existing.source or incoming.source
    if _takes_fix(existing, incoming):
        fixed = incoming.what_fixed_it
        if is_verified(incoming) and not is_verified(existing):
            source = {**existing.source, "verified": True}
    severity = max(existing.severity, incoming.severity, key=severity_rank)
    scope = existing.scope.to_dict()
    for name in ("libraries", "columns", "tags"):
        scope[name] = scope[name] + getattr(incoming.scope, name)
    return Lesson(
        title=existing.title, category=existing.category,
        what_went_wrong=existing.what_went_wrong, what_fixed_it=fixed, severity=severity,
        scope=Scope(**scope), id=existing.id, times_encountered=times,
        created_at=min(existing.created_at, incoming.created_at),
        last_seen=max(existing.last_seen, incoming.last_seen),
        source=source,
    )


def edited_lesson(current: Lesson, edit: Lesson) -> Lesson:
    """`current` as `edit` (the same id, from an edited export) says it now reads: the
    content is the edit's; the sightings only widen (a stale export does not undo counts the
    store gathered since), and times the edit leaves out (0) keep the stored ones."""
    return Lesson(
        title=edit.title, category=edit.category, what_went_wrong=edit.what_went_wrong,
        what_fixed_it=edit.what_fixed_it, severity=edit.severity, scope=edit.scope,
        id=current.id,
        times_encountered=max(current.times_encountered, edit.times_encountered),
        created_at=min(current.created_at, edit.created_at or current.created_at),
        last_seen=max(current.last_seen, edit.last_seen),
        source=edit.source or current.source)


def is_hand_written(lesson: Lesson) -> bool:
    """Added by a person (the API, `nbcritic lessons import` of a file they wrote), not
    learned from a run: learned lessons name the notebook they came from."""
    return not lesson.source.get("notebook_id")


def is_verified(lesson: Lesson) -> bool:
    """A fix the retry loop saw work: its attempt ended `ok` and passed the critic."""
    return lesson.source.get("verified") is True


def _takes_fix(existing: Lesson, incoming: Lesson) -> bool:
    if not incoming.what_fixed_it:
        return False
    if not existing.what_fixed_it:
        return True
    if is_verified(existing) and not is_verified(incoming):
        return False  # an unverified fix never overwrites a verified one
    if is_verified(incoming) and not is_verified(existing):
        return True
    return incoming.last_seen >= existing.last_seen


def prompt_key(lesson: Lesson) -> str:
    """What a lesson says in a prompt, without its counts: two lessons with one key are
    the same lesson to the model."""
    line = lesson.prompt_line()
    return " ".join(line.split("] ", 1)[-1].lower().split())


# -- the store ------------------------------------------------------------------------------


SCHEMA = """
CREATE TABLE IF NOT EXISTS lessons (
    id TEXT PRIMARY KEY,
    category TEXT NOT NULL,
    severity TEXT NOT NULL,
    title TEXT NOT NULL,
    what_went_wrong TEXT NOT NULL,
    what_fixed_it TEXT NOT NULL,
    scope TEXT NOT NULL,
    scope_key TEXT NOT NULL,
    times_encountered INTEGER NOT NULL,
    created_at REAL NOT NULL,
    last_seen REAL NOT NULL,
    source TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lessons_dedup ON lessons(category, scope_key);
CREATE INDEX IF NOT EXISTS lessons_recent ON lessons(last_seen);
"""

_COLUMNS = ("id", "category", "severity", "title", "what_went_wrong", "what_fixed_it", "scope",
            "scope_key", "times_encountered", "created_at", "last_seen", "source")

EDITABLE_FIELDS = LESSON_FIELDS - {"id", "created_at"}


@dataclass
class Recorded:
    lesson: Lesson
    created: bool  # False: merged into an existing lesson


def _scope_key(scope: Scope) -> str:
    # dedup candidates share rule ids and error types (see lesson_similarity.same_scope)
    return json.dumps([scope.rule_ids, scope.error_types])


def _non_negative_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LessonError(name, f"must be an integer >= 0 (got {value!r})")
    return value


class LessonStore:
    """Lessons in one SQLite file. Thread-safe writes (one lock); reads go straight to the
    WAL database."""

    def __init__(self, path: Path, *, max_per_category: int = 20,
                 clock: Callable[[], float] = time.time) -> None:
        if isinstance(max_per_category, bool) or not isinstance(max_per_category, int) \
                or max_per_category < 1:
            raise LessonError("max_per_category", f"must be an integer >= 1 "
                                                  f"(got {max_per_category!r})")
        self.path = Path(path)
        self.max_per_category = max_per_category
        self._clock = clock
        self._conn = open_sqlite(self.path)
        self._conn.executescript(SCHEMA)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> LessonStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def record(self, lesson: Lesson) -> Recorded:
        """Store a lesson seen now, or merge it into the existing one it duplicates. Does not
        prune (pruning may call a model: the caller runs `lesson_pruning.prune`)."""
        now = self._now()
        # a new sighting: the store names it (an id given here would read as "already seen")
        incoming = _copy(lesson, id="", created_at=now, last_seen=now)
        return self._record(incoming)

    def import_lessons(self, lessons: Iterable[Lesson]) -> dict[str, int]:
        """Import lessons. One whose id the store holds is that lesson, edited (an export
        edited by hand and imported back): its title, texts, category, severity and scope
        become the file's ("updated"; "unchanged" when nothing differs), its counts never
        go back. Any other lesson is recorded (dedup applies: "created" or "merged"),
        keeping its own times_encountered, created_at and last_seen where given (0 = not
        given: now)."""
        result = {"created": 0, "merged": 0, "updated": 0, "unchanged": 0}
        for lesson in lessons:
            if lesson.id:
                edited = self._apply_edit(lesson)
                if edited is not None:
                    result[edited] += 1
                    continue
            now = self._now()
            created = lesson.created_at or lesson.last_seen or now
            seen = lesson.last_seen or created
            recorded = self._record(_copy(lesson, created_at=created, last_seen=seen))
            result["created" if recorded.created else "merged"] += 1
        return result

    def _apply_edit(self, lesson: Lesson) -> str | None:
        """The stored lesson with this id takes the file's content: "updated" or
        "unchanged"; None when the store has no such id."""
        with self._lock, immediate(self._conn):
            row = self._conn.execute("SELECT * FROM lessons WHERE id = ?",
                                     (lesson.id,)).fetchone()
            if row is None:
                return None
            current = _from_row(row)
            edited = edited_lesson(current, lesson)
            if edited.to_dict() == current.to_dict():
                return "unchanged"
            self._write(edited, replace=True)
            return "updated"

    def _record(self, incoming: Lesson) -> Recorded:
        # one write transaction: a CLI and a service sharing the file cannot interleave
        # between the duplicate search and the write
        with self._lock, immediate(self._conn):
            rows = self._conn.execute(
                "SELECT * FROM lessons WHERE category = ? AND scope_key = ?",
                (incoming.category.value, _scope_key(incoming.scope)),
            ).fetchall()
            candidates = [c for c in map(_from_row, rows) if is_duplicate(c, incoming)]
            if candidates:
                best = max(candidates, key=lambda c: (similarity(c, incoming), c.last_seen))
                merged = merge_lessons(best, incoming)
                self._write(merged, replace=True)
                return Recorded(merged, created=False)
            if not incoming.id or self._exists(incoming.id):
                incoming.id = self._new_id()
            self._write(incoming, replace=False)
            return Recorded(incoming, created=True)

    def update(self, lesson_id: str, changes: dict[str, Any]) -> Lesson:
        """Change fields of a lesson, validated like `Lesson.from_dict`. `scope` changes
        replace the scope fields they name and keep the others. No dedup on edit."""
        if not isinstance(changes, dict):
            raise LessonError("", f"changes must be an object (got {type(changes).__name__})")
        for key in changes:
            if key in ("id", "created_at"):
                raise LessonError(key, "not editable")
            if key not in EDITABLE_FIELDS:
                raise LessonError(str(key), "unknown field")
        with self._lock, immediate(self._conn):
            current = self._get(lesson_id)
            data = current.to_dict()
            for key, value in changes.items():
                if key == "scope":
                    if not isinstance(value, dict):
                        raise LessonError("scope", f"must be an object "
                                                   f"(got {type(value).__name__})")
                    data["scope"] = {**data["scope"], **value}
                else:
                    data[key] = value
            updated = Lesson.from_dict(data)
            self._write(updated, replace=True)
            return updated

    def delete(self, lesson_id: str) -> None:
        with self._lock:
            cur = self._conn.execute("DELETE FROM lessons WHERE id = ?", (lesson_id,))
        if cur.rowcount == 0:
            raise LessonNotFound(lesson_id)

    def remove(self, ids: Iterable[str]) -> int:
        """Delete these lessons; unknown ids are skipped. Returns how many were deleted."""
        wanted = sorted({i for i in ids if isinstance(i, str)})
        if not wanted:
            return 0
        removed = 0
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                for lesson_id in wanted:
                    cur = self._conn.execute("DELETE FROM lessons WHERE id = ?", (lesson_id,))
                    removed += cur.rowcount
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
        return removed

    # -- reading ---------------------------------------------------------------------------

    def get(self, lesson_id: str) -> Lesson:
        return self._get(lesson_id)

    def list(self, *, category: Category | None = None, text: str | None = None,
             limit: int = 100, offset: int = 0) -> builtins.list[Lesson]:
        """Newest `last_seen` first. `text`: case-insensitive substring of the title, what
        went wrong, what fixed it or a scope value."""
        limit = _non_negative_int(limit, "limit")
        offset = _non_negative_int(offset, "offset")
        if text is not None and not isinstance(text, str):
            raise LessonError("text", f"must be a string (got {type(text).__name__})")
        lessons = self.all_lessons(category)
        needle = (text or "").strip().casefold()
        if needle:
            lessons = [lesson for lesson in lessons if needle in _haystack(lesson)]
        return lessons[offset: offset + limit]

    # (`list` below is the method: annotations after it name the builtin explicitly)

    def all_lessons(self, category: Category | None = None) -> builtins.list[Lesson]:
        """Every lesson (of one category), newest `last_seen` first."""
        query = "SELECT * FROM lessons"
        params: tuple[Any, ...] = ()
        if category is not None:
            query += " WHERE category = ?"
            params = (_category(category).value,)
        query += " ORDER BY last_seen DESC, created_at DESC, id"
        return [_from_row(row) for row in self._conn.execute(query, params).fetchall()]

    def relevant(self, query: LessonQuery, *, limit: int = 5, max_chars: int = 1500,
                 min_relevance: float = MIN_RELEVANCE) -> builtins.list[Lesson]:
        """The lessons relevant to the query, best first (`lesson_relevance.ranked`; none
        below `min_relevance`): at most `limit`, each text once (`prompt_key`), their
        prompt lines together within `max_chars` (a line that does not fit is skipped, a
        shorter one after it may still go in)."""
        limit = _non_negative_int(limit, "limit")
        max_chars = _non_negative_int(max_chars, "max_chars")
        if isinstance(min_relevance, bool) or not isinstance(min_relevance, int | float) \
                or not math.isfinite(min_relevance) or min_relevance < 0:
            raise LessonError("min_relevance", f"must be a number >= 0 (got {min_relevance!r})")
        if limit == 0 or query.is_empty():
            return []
        chosen: builtins.list[Lesson] = []
        said: set[str] = set()
        used = 0
        for _, lesson in ranked(self.all_lessons(), query, min_relevance):
            if len(chosen) >= limit:
                break
            if prompt_key(lesson) in said:
                continue  # the same lesson under another scope: once per prompt
            size = len(lesson.prompt_line())
            if used + size <= max_chars:
                chosen.append(lesson)
                said.add(prompt_key(lesson))
                used += size
        return chosen

    def counts(self) -> dict[str, int]:
        counts = {c.value: 0 for c in Category}
        for row in self._conn.execute(
                "SELECT category, COUNT(*) AS n FROM lessons GROUP BY category"):
            counts[row["category"]] = row["n"]
        return counts

    def over_limit(self) -> dict[Category, int]:
        """Categories above `max_per_category`, with how many lessons are too many."""
        return {Category(name): n - self.max_per_category
                for name, n in self.counts().items() if n > self.max_per_category}

    # -- internals -------------------------------------------------------------------------

    def _now(self) -> float:
        return _timestamp(self._clock(), "clock")

    def _get(self, lesson_id: str) -> Lesson:
        row = self._conn.execute("SELECT * FROM lessons WHERE id = ?", (lesson_id,)).fetchone()
        if row is None:
            raise LessonNotFound(lesson_id)
        return _from_row(row)

    def _exists(self, lesson_id: str) -> bool:
        return self._conn.execute("SELECT 1 FROM lessons WHERE id = ?",
                                  (lesson_id,)).fetchone() is not None

    def _new_id(self) -> str:
        while True:
            candidate = secrets.token_hex(4)
            if not self._exists(candidate):
                return candidate

    def _write(self, lesson: Lesson, *, replace: bool) -> None:
        values = (lesson.id, lesson.category.value, lesson.severity, lesson.title,
                  lesson.what_went_wrong, lesson.what_fixed_it,
                  json.dumps(lesson.scope.to_dict(), ensure_ascii=False),
                  _scope_key(lesson.scope), lesson.times_encountered, lesson.created_at,
                  lesson.last_seen, json.dumps(lesson.source, ensure_ascii=False))
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        self._conn.execute(
            f"{verb} INTO lessons ({', '.join(_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(_COLUMNS))})", values)


def _copy(lesson: Lesson, **changes: Any) -> Lesson:
    """A validated copy (the caller's object is never changed by the store)."""
    data = lesson.to_dict()
    data.update(changes)
    return Lesson.from_dict(data)


def _from_row(row: sqlite3.Row) -> Lesson:
    return Lesson(
        id=row["id"], category=Category(row["category"]), severity=row["severity"],
        title=row["title"], what_went_wrong=row["what_went_wrong"],
        what_fixed_it=row["what_fixed_it"], scope=Scope(**json.loads(row["scope"])),
        times_encountered=row["times_encountered"], created_at=row["created_at"],
        last_seen=row["last_seen"], source=json.loads(row["source"]),
    )


def _haystack(lesson: Lesson) -> str:
    return "\n".join([lesson.title, lesson.what_went_wrong, lesson.what_fixed_it,
                      *lesson.scope.values()]).casefold()
