"""Lessons out and in: JSON (`{"format": "nbcritic-lessons", "version": 1, "lessons": [...]}`)
and a readable `lessons-learned.md` that can be edited by hand and imported back.

The Markdown is one `## <Category>` section per category and one `### <title>` per lesson:

    ### StandardScaler fit before the split

    - **Id:** `3f2a9c1b`
    - **Severity:** high
    - **Times seen:** 3
    - **First seen:** 2024-05-01T12:00:00.000000Z
    - **Last seen:** 2024-05-03T08:12:44.123456Z
    - **Scope:**
      - rule ids: `leakage.fit_saw_heldout_rows`
      - libraries: `sklearn`
    - **Source:** `{"notebook_id": "nb1"}`

    **What went wrong**

    prose, or a fenced block (code, diffs, or text that prose would mangle)

    **What fixed it**

    ...

Every field round-trips exactly (timestamps are kept to the microsecond by the lesson
itself). A missing field takes its default; a malformed line is a LessonError naming the line,
and text with no category section at all is refused (it is not a lessons file).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from .lessons import (
    SCOPE_FIELDS,
    Category,
    Lesson,
    LessonError,
    Scope,
    looks_like_diff,
)

FORMAT = "nbcritic-lessons"
VERSION = 1

MARKDOWN_TITLE = "# Lessons learned"
EMPTY_SECTION = "_No lessons._"
WENT_WRONG = "**What went wrong**"
FIXED_IT = "**What fixed it**"

SECTION_NAMES = {Category.MISTAKE: "Mistakes", Category.FIX: "Fixes",
                 Category.PATTERN: "Patterns", Category.TIP: "Tips"}
SCOPE_LABELS = {"rule_ids": "rule ids", "error_types": "error types", "libraries": "libraries",
                "columns": "columns", "tags": "tags"}
FIELD_LABELS = ("Id", "Severity", "Times seen", "First seen", "Last seen", "Scope", "Source")

_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


# -- JSON --------------------------------------------------------------------------------------


def to_json(lessons: Iterable[Lesson]) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION,
            "lessons": [lesson.to_dict() for lesson in lessons]}


def from_json(data: Any) -> list[Lesson]:
    """Lessons from `to_json`'s document (a dict, or its JSON text)."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise LessonError("json", f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise LessonError("", f"the document must be an object (got {type(data).__name__})")
    if data.get("format") != FORMAT:
        raise LessonError("format", f"must be {FORMAT!r} (got {data.get('format')!r})")
    if data.get("version") != VERSION:
        raise LessonError("version", f"unsupported (got {data.get('version')!r}, "
                                     f"this version reads {VERSION})")
    items = data.get("lessons")
    if not isinstance(items, list):
        raise LessonError("lessons", f"must be a list (got {type(items).__name__})")
    lessons = []
    for i, item in enumerate(items):
        try:
            lessons.append(Lesson.from_dict(item))
        except LessonError as exc:
            raise exc.within(f"lessons[{i}]") from None
    return lessons


# -- Markdown out ------------------------------------------------------------------------------


def to_markdown(lessons: Iterable[Lesson]) -> str:
    lessons = list(lessons)
    by_category: dict[Category, list[Lesson]] = {c: [] for c in Category}
    for lesson in lessons:
        by_category[lesson.category].append(lesson)
    out = [MARKDOWN_TITLE, "",
           f"{len(lessons)} lesson(s) nbcritic learned from earlier runs. Edit freely and "
           "import the file back; each `###` heading is a lesson, under the section of its "
           "category.", ""]
    for category, items in by_category.items():
        out += [f"## {SECTION_NAMES[category]}", ""]
        if not items:
            out += [EMPTY_SECTION, ""]
        for lesson in items:
            out += _lesson_markdown(lesson)
    return "\n".join(out).rstrip("\n") + "\n"


def _lesson_markdown(lesson: Lesson) -> list[str]:
    out = [f"### {lesson.title}", ""]
    if lesson.id:
        out.append(f"- **Id:** {code_span(lesson.id)}")
    out.append(f"- **Severity:** {lesson.severity}")
    out.append(f"- **Times seen:** {lesson.times_encountered}")
    if lesson.created_at:
        out.append(f"- **First seen:** {_format_time(lesson.created_at)}")
    if lesson.last_seen:
        out.append(f"- **Last seen:** {_format_time(lesson.last_seen)}")
    scope = [(SCOPE_LABELS[name], getattr(lesson.scope, name)) for name in SCOPE_FIELDS]
    scope = [(label, values) for label, values in scope if values]
    if scope:
        out.append("- **Scope:**")
        out += [f"  - {label}: {', '.join(code_span(v) for v in values)}"
                for label, values in scope]
    else:
        out.append("- **Scope:** none")
    if lesson.source:
        out.append(f"- **Source:** {code_span(json.dumps(lesson.source, ensure_ascii=False))}")
    out += ["", WENT_WRONG, "", *_text_block(lesson.what_went_wrong), ""]
    if lesson.what_fixed_it:
        out += [FIXED_IT, "", *_text_block(lesson.what_fixed_it), ""]
    return out


def code_span(text: str) -> str:
    """`text` as a Markdown code span that reads back exactly (CommonMark rules: a longer
    backtick run than any inside, one padding space when it starts or ends with one)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (
        text.startswith(" ") and text.endswith(" ") and text.strip()) else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_FENCE_OPEN = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


def _text_block(text: str) -> list[str]:
    """Prose as it is, unless prose would not read back the same (a line that looks like a
    heading, a marker or a fence) or the text is code: then a fenced block."""
    lines = text.split("\n")
    unsafe = any(_HEADING.match(line) or _FENCE_OPEN.match(line)
                 or line.strip() in (WENT_WRONG, FIXED_IT) for line in lines)
    language = _code_language(text)
    if not unsafe and not language:
        return lines
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{language}", *lines, fence]


def _code_language(text: str) -> str:
    if looks_like_diff(text):
        return "diff"
    if not any(ch in text for ch in "()=[]"):
        return ""
    try:
        compile(text, "<lesson>", "exec")
    except (SyntaxError, ValueError):
        return ""
    return "python"


def _format_time(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime(_TIME_FORMAT)


# -- Markdown in -------------------------------------------------------------------------------


_SECTION_BY_NAME = {**{name.lower(): c for c, name in SECTION_NAMES.items()},
                    **{c.value: c for c in Category}}
_FIELD = re.compile(r"- \*\*(?P<label>[^*]+?):\*\*(?:[ \t]+(?P<value>.*?))?\s*$")
_SCOPE_ITEM = re.compile(r"[ \t]+- (?P<label>[^:]+?):[ \t]*(?P<value>.*?)\s*$")


class _Parser:
    def __init__(self, text: str) -> None:
        self.lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.i = 0  # index of the next line
        self.lessons: list[Lesson] = []

    def error(self, line_no: int, problem: str) -> LessonError:
        return LessonError(f"line {line_no}", problem)

    def parse(self) -> list[Lesson]:
        category: Category | None = None
        seen_lesson = False
        while self.i < len(self.lines):
            line = self.lines[self.i]
            no = self.i + 1
            self.i += 1
            if line.startswith("## "):
                name = line[3:].strip()
                category = _SECTION_BY_NAME.get(name.lower())
                if category is None:
                    raise self.error(no, f"unknown section {name!r} (expected one of "
                                         f"{', '.join(SECTION_NAMES.values())})")
                seen_lesson = False
            elif line.startswith("### "):
                if category is None:
                    raise self.error(no, "a lesson heading before any category section "
                                         "(## Mistakes, ## Fixes, ## Patterns, ## Tips)")
                self.lessons.append(self.lesson(category, line[4:].strip(), no))
                seen_lesson = True
            elif category is None:
                continue  # the title and introduction
            elif line.strip() and not (line.strip() == EMPTY_SECTION and not seen_lesson):
                raise self.error(no, f"unexpected text outside a lesson: {line.strip()[:60]!r}")
        if category is None:  # not a lessons file: never a silent import of nothing
            raise LessonError("markdown", "no category section (## Mistakes, ## Fixes, "
                                          "## Patterns, ## Tips): not a lessons-learned.md")
        return self.lessons

    def lesson(self, category: Category, title: str, heading_no: int) -> Lesson:
        data: dict[str, Any] = {"title": title, "category": category}
        labels: dict[str, int] = {}  # field -> its line, for validation errors
        field_lines: dict[str, int] = {"title": heading_no, "category": heading_no}
        while self.i < len(self.lines):
            line = self.lines[self.i]
            no = self.i + 1
            if line.startswith(("## ", "### ")):
                break
            self.i += 1
            if not line.strip():
                continue
            if line.strip() in (WENT_WRONG, FIXED_IT):
                key = "what_went_wrong" if line.strip() == WENT_WRONG else "what_fixed_it"
                if key in data:
                    raise self.error(no, f"{line.strip()} given twice in this lesson")
                data[key] = self.text_block(no)
                field_lines[key] = no
                continue
            match = _FIELD.fullmatch(line)
            if match is None:
                raise self.error(no, f"expected a field line such as '- **Severity:** high' "
                                     f"or a {WENT_WRONG} section, got {line.strip()[:60]!r}")
            label = match["label"].strip().lower()
            value = (match["value"] or "").strip()
            if label in labels:
                raise self.error(no, f"field {match['label']!r} given twice in this lesson")
            labels[label] = no
            key = self.field(label, value, no, data)
            field_lines[key] = no
        if "what_went_wrong" not in data:
            raise self.error(heading_no, f"lesson {title!r} has no {WENT_WRONG} section")
        try:
            return Lesson.from_dict(data)
        except LessonError as exc:
            where = field_lines.get(exc.field.split(".")[0].split("[")[0], heading_no)
            raise self.error(where, str(exc)) from None

    def field(self, label: str, value: str, no: int, data: dict[str, Any]) -> str:
        """Store one `- **Label:** value` line; returns the lesson field it sets."""
        if label == "id":
            data["id"] = self.single_span(value, no)
            return "id"
        if label == "severity":
            data["severity"] = value
            return "severity"
        if label == "times seen":
            if not re.fullmatch(r"\d+", value):
                raise self.error(no, f"times seen: must be a whole number (got {value!r})")
            data["times_encountered"] = int(value)
            return "times_encountered"
        if label in ("first seen", "last seen"):
            key = "created_at" if label == "first seen" else "last_seen"
            data[key] = self.timestamp(value, label, no)
            return key
        if label == "scope":
            data["scope"] = self.scope(value, no)
            return "scope"
        if label == "source":
            raw = self.single_span(value, no)
            try:
                source = json.loads(raw)
            except ValueError as exc:
                raise self.error(no, f"source: not valid JSON ({exc})") from None
            if not isinstance(source, dict):
                raise self.error(no, "source: must be a JSON object")
            data["source"] = source
            return "source"
        raise self.error(no, f"unknown field {label!r} (expected one of "
                             f"{', '.join(FIELD_LABELS)})")

    def timestamp(self, value: str, label: str, no: int) -> float:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise self.error(no, f"{label}: not an ISO timestamp (got {value!r})") from None
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.timestamp()

    def scope(self, value: str, no: int) -> dict[str, list[str]]:
        if value and value.lower() != "none":
            raise self.error(no, "scope: list the values on indented lines below "
                                 "('  - rule ids: `...`'), or write 'none'")
        scope: dict[str, list[str]] = {}
        labels = {label: name for name, label in SCOPE_LABELS.items()}
        labels.update({name: name for name in SCOPE_FIELDS})
        while self.i < len(self.lines):
            match = _SCOPE_ITEM.fullmatch(self.lines[self.i])
            if match is None:
                break
            item_no = self.i + 1
            self.i += 1
            label = match["label"].strip().lower()
            name = labels.get(label)
            if name is None:
                raise self.error(item_no, f"scope: unknown entry {label!r} (expected one of "
                                          f"{', '.join(SCOPE_LABELS.values())})")
            if name in scope:
                raise self.error(item_no, f"scope: {label!r} given twice")
            scope[name] = self.spans(match["value"], item_no)
        try:
            Scope.from_dict(scope)
        except LessonError as exc:
            raise self.error(no, str(exc)) from None
        return scope

    def single_span(self, value: str, no: int) -> str:
        spans = self.spans(value, no)
        if len(spans) != 1:
            raise self.error(no, f"expected one value, got {len(spans)}")
        return spans[0]

    def spans(self, text: str, no: int) -> list[str]:
        """Comma-separated code spans; plain comma-separated words are taken too (a hand
        edit)."""
        text = text.strip()
        if not text:
            return []
        if not text.startswith("`"):
            return [part.strip() for part in text.split(",") if part.strip()]
        values: list[str] = []
        pos = 0
        while pos < len(text):
            opening = re.match(r"`+", text[pos:])
            if opening is None:
                raise self.error(no, f"expected a `code` value at column {pos + 1}: "
                                     f"{text[pos:pos + 30]!r}")
            ticks = opening.group()
            start = pos + len(ticks)
            closing = re.compile(rf"(?<!`){ticks}(?!`)").search(text, start)
            if closing is None:
                raise self.error(no, f"unclosed code value at column {pos + 1}")
            content = text[start:closing.start()]
            if len(content) >= 2 and content[0] == content[-1] == " " and content.strip():
                content = content[1:-1]
            values.append(content)
            pos = closing.end()
            separator = re.match(r"\s*,\s*", text[pos:])
            if separator is not None:
                pos += separator.end()
            elif pos < len(text):
                raise self.error(no, f"expected ',' between values at column {pos + 1}")
        return values

    def text_block(self, marker_no: int) -> str:
        """The lines after a marker, up to the next marker or heading outside a fence. One
        fenced block alone is unwrapped; anything else is taken as written."""
        region: list[str] = []
        fence: str | None = None
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if fence is None:
                if (line.startswith(("## ", "### ")) or _HEADING.match(line)
                        or line.strip() in (WENT_WRONG, FIXED_IT)):
                    break
                opening = _FENCE_OPEN.match(line)
                if opening:
                    fence = opening["fence"]
            elif re.fullmatch(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*", line):
                fence = None
            region.append(line)
            self.i += 1
        if fence is not None:
            raise self.error(marker_no, "a fenced block after this line is never closed")
        while region and not region[0].strip():
            region.pop(0)
        while region and not region[-1].strip():
            region.pop()
        if not region:
            raise self.error(marker_no, "nothing after this line")
        opening = _FENCE_OPEN.match(region[0])
        if opening and len(region) >= 2:
            fence = opening["fence"]
            close = re.compile(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*")
            inner_closes = [j for j in range(1, len(region)) if close.fullmatch(region[j])]
            if inner_closes == [len(region) - 1]:
                return "\n".join(region[1:-1])
        return "\n".join(region)


def from_markdown(text: str) -> list[Lesson]:
    """Lessons from a `to_markdown` file (hand edits welcome). LessonError names the line."""
    if not isinstance(text, str):
        raise LessonError("markdown", f"must be text (got {type(text).__name__})")
    return _Parser(text).parse()
