"""Precision of lesson retrieval on a small labelled set: which stored lessons reach the code
generator's prompt for a cell, against which a reader marked as relevant.

    .venv/bin/python -m bench.lesson_retrieval [--floors 0.5,1,1.5,2]

The set (`bench/lesson_retrieval/`): 18 lessons of the kinds the loop learns (fixes of rule
findings and exceptions, mistakes, patterns, hand-written tips) and 24 cells at hand - first
generations (a prompt) and retries (code, the error or the finding) - each with the lessons
that would help it, none for 4 of them. Each is run through `LessonStore.relevant` as the
service calls it (5 lessons, 1500 characters), with the ranking of `services.lesson_relevance`
at each floor, and with the ranking it replaced (any shared rule family, error type, library
or column made a lesson relevant; `scope_overlap` below). Printed: lessons sent, micro
precision and recall (also for the retries and the first generations apart), and how many of
the 4 cells with nothing relevant received something.
The set is small and labelled by the same hand that chose the weights: read the numbers as a
check that the ranking does what it says, not as a general accuracy.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from services.lesson_export import from_json
from services.lessons import Lesson, LessonQuery, LessonStore, prompt_key, severity_rank

DATA = Path(__file__).resolve().parent / "lesson_retrieval"
LIMIT, MAX_CHARS = 5, 1500  # the service's defaults (lessons_in_prompt, lessons_max_chars)


def load_queries() -> list[dict[str, Any]]:
    lines = (DATA / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def to_query(case: dict[str, Any]) -> LessonQuery:
    text = "\n".join(p for p in (case["prompt"], case["code"], case["said"]) if p)
    return LessonQuery(rule_ids=case["rule_ids"], error_types=case["error_types"],
                       libraries=case["libraries"], columns=case["columns"], text=text,
                       code=case["code"])


def scope_overlap(lessons: list[Lesson], query: LessonQuery) -> list[Lesson]:
    """The ranking before: any shared rule (family), error type, library or column, best
    first by that overlap, then severity, times seen, recency; the same budget."""
    def strength(lesson: Lesson) -> tuple[int, int]:
        scope = lesson.scope
        rule = 3 if set(scope.rule_ids) & set(query.rule_ids) else int(any(
            r.split(".")[0] in {q.split(".")[0] for q in query.rule_ids if "." in q}
            for r in scope.rule_ids if "." in r))
        error = 2 if set(scope.error_types) & set(query.error_types) else 0
        context = (len(set(scope.libraries) & set(query.libraries))
                   + len(set(scope.columns) & set(query.columns)))
        return rule + error, context

    matching = sorted((x for x in lessons if strength(x) != (0, 0)), key=lambda x: (
        -strength(x)[0], -strength(x)[1], -severity_rank(x.severity), -x.times_encountered,
        -x.last_seen, x.id))
    chosen: list[Lesson] = []
    said: set[str] = set()
    used = 0
    for lesson in matching:
        size = len(lesson.prompt_line())
        if len(chosen) < LIMIT and prompt_key(lesson) not in said and used + size <= MAX_CHARS:
            chosen.append(lesson)
            said.add(prompt_key(lesson))
            used += size
    return chosen


def score(sent: dict[str, list[str]], cases: list[dict[str, Any]]) -> dict[str, Any]:
    hits = sum(len(set(sent[c["name"]]) & set(c["relevant"])) for c in cases)
    total_sent = sum(len(ids) for ids in sent.values())
    total_relevant = sum(len(c["relevant"]) for c in cases)
    empty = [c for c in cases if not c["relevant"]]
    return {"sent": total_sent, "precision": hits / total_sent if total_sent else 1.0,
            "recall": hits / total_relevant if total_relevant else 1.0,
            "recall_retry": _recall(sent, [c for c in cases if c["code"]]),
            "recall_first": _recall(sent, [c for c in cases if not c["code"]]),
            "false_alarms": sum(1 for c in empty if sent[c["name"]]), "empty_cases": len(empty)}


def _recall(sent: dict[str, list[str]], cases: list[dict[str, Any]]) -> float:
    """Recall over some cases: retries (code that failed) or first generations (a prompt)."""
    relevant = sum(len(c["relevant"]) for c in cases)
    hits = sum(len(set(sent[c["name"]]) & set(c["relevant"])) for c in cases)
    return hits / relevant if relevant else 1.0


def measure(floors: list[float]) -> list[tuple[str, dict[str, Any]]]:
    cases = load_queries()
    document = json.loads((DATA / "lessons.json").read_text(encoding="utf-8"))
    rows: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory() as tmp, \
            LessonStore(Path(tmp) / "lessons.sqlite", max_per_category=100) as store:
        store.import_lessons(from_json(document))
        lessons = store.all_lessons()
        before = {c["name"]: [x.id for x in scope_overlap(lessons, to_query(c))] for c in cases}
        rows.append(("scope overlap (before)", score(before, cases)))
        for floor in floors:
            sent = {c["name"]: [x.id for x in store.relevant(
                to_query(c), limit=LIMIT, max_chars=MAX_CHARS, min_relevance=floor)]
                for c in cases}
            rows.append((f"relevance, floor {floor:g}", score(sent, cases)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--floors", default="0.5,1,1.5,2",
                        help="relevance floors to measure (comma-separated)")
    args = parser.parse_args(argv)
    floors = [float(x) for x in args.floors.split(",") if x.strip()]
    print(f"{'ranking':<26} {'sent':>5} {'precision':>9} {'recall':>7} {'(retries':>9} "
          f"{'first)':>7}  nothing-relevant cells that got lessons")
    for name, row in measure(floors):
        print(f"{name:<26} {row['sent']:>5} {row['precision']:>9.2f} {row['recall']:>7.2f} "
              f"{row['recall_retry']:>9.2f} {row['recall_first']:>7.2f}  "
              f"{row['false_alarms']} of {row['empty_cases']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
