"""How relevant a stored lesson is to the cell at hand: a score from what the cell does, with a
floor below which a lesson is not sent at all.

A lesson that only shares a library with the cell (pandas, sklearn) says nothing about it: a
"count rows per group" prompt must not receive a leakage lesson. So the score adds up
evidence, each kind weighted by how much it says (`WEIGHTS`, data):
- the rule a blocked attempt tripped (exact id, or only its family), the exception an
  attempt raised - what the retry is about;
- the words of the cell against the words of the lesson: the prompt, the code and the
  operations it calls (`groupby`, `train_test_split`, `StandardScaler`), the error or the
  findings, compared with the lesson's title, texts and fix as TF-IDF vectors (cosine, IDF
  over the stored lessons, so words every lesson uses count little);
- the columns both name, a little; shared libraries, a trace (never enough alone).
`MIN_RELEVANCE` is the floor: only a rule, an error type, or real overlap of words lifts a
lesson over it. Precision of this ranking on a small labelled set: `bench/lesson_retrieval.py`
(numbers in bench/README.md).

Pure functions, no dependency beyond the standard library and `lesson_similarity`'s
normaliser (stop words, stems).
"""

from __future__ import annotations

import ast
import math
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .lesson_similarity import normalise

if TYPE_CHECKING:
    from .lessons import Lesson, LessonQuery

WEIGHTS = {
    "rule_exact": 3.0,  # the lesson is about the very rule this attempt tripped
    "rule_family": 1.0,  # a rule of the same family (leakage.*)
    "error_type": 2.0,  # the same exception (many causes: less than a rule id)
    "text": 3.0,  # times the cosine of the cell's and the lesson's words
    "column": 0.5,  # per shared column, at most COLUMN_CAP
    "library": 0.25,  # per shared library, at most LIBRARY_CAP
}
COLUMN_CAP = 1.0
LIBRARY_CAP = 0.5
# the floor: a rule family, an error type, or a text cosine of 1/3 (with nothing else)
MIN_RELEVANCE = 1.0

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def rule_family(rule_id: str) -> str:
    """`leakage.fit_saw_heldout_rows` -> `leakage`; "" for an id without a family."""
    return rule_id.split(".", 1)[0] if "." in rule_id else ""


def operations(code: str) -> list[str]:
    """The functions, methods and classes the code calls, in order of first call
    (`df.groupby("g").size()` -> groupby, size); a regex for code that does not parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return list(dict.fromkeys(re.findall(r"([A-Za-z_]\w*)\s*\(", code)))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute):
                names.append(func.attr)
            elif isinstance(func, ast.Name):
                names.append(func.id)
    return list(dict.fromkeys(names))


def terms(text: str) -> list[str]:
    """Content words: identifiers split at `_` and camel case (`StandardScaler` ->
    standard scaler), stop words dropped, light stems (`lesson_similarity.normalise`)."""
    spaced = _IDENT.sub(lambda m: _CAMEL.sub(" ", m.group(0)), text)
    return [w for w in normalise(spaced).split() if w not in ("q", "n") and len(w) > 1]


def query_terms(query: LessonQuery) -> list[str]:
    """The cell's words: its text and, again, the operations its code calls (what the
    cell does weighs more than how it is told)."""
    return terms(query.text) + terms(" ".join(operations(query.code)))


def lesson_terms(lesson: Lesson) -> list[str]:
    return terms("\n".join([lesson.title, lesson.what_went_wrong, lesson.what_fixed_it,
                            " ".join(lesson.scope.tags)]))


PARTIAL = 0.5  # what a word contained in another is worth against an equal word
MIN_CONTAINED = 4  # shorter words match only when equal ("fit" is not in "fitness")


def _contains(a: str, b: str) -> bool:
    return min(len(a), len(b)) >= MIN_CONTAINED and (a in b or b in a)


class TextIndex:
    """TF-IDF vectors of the stored lessons (IDF over them: a word in every lesson counts
    little), built once per query."""

    def __init__(self, lessons: Iterable[Lesson]) -> None:
        self.docs = {lesson.id: Counter(lesson_terms(lesson)) for lesson in lessons}
        df: Counter[str] = Counter()
        for counts in self.docs.values():
            df.update(counts.keys())
        n = len(self.docs)
        self.idf = {word: math.log((n + 1) / (k + 1)) + 1.0 for word, k in df.items()}
        self.default_idf = math.log(n + 1) + 1.0  # a word no lesson has
        self.norms = {key: self._norm(counts) for key, counts in self.docs.items()}

    def _weight(self, word: str, count: int) -> float:
        return (1.0 + math.log(count)) * self.idf.get(word, self.default_idf)

    def _norm(self, counts: Counter[str]) -> float:
        return math.sqrt(sum(self._weight(w, c) ** 2 for w, c in counts.items()))

    def cosine(self, lesson_id: str, query: Counter[str], query_norm: float) -> float:
        doc = self.docs.get(lesson_id)
        norm = self.norms.get(lesson_id, 0.0)
        if not doc or not query or norm == 0 or query_norm == 0:
            return 0.0
        dot = 0.0
        for word, count in query.items():
            if word in doc:
                dot += self._weight(word, count) * self._weight(word, doc[word])
                continue
            # a word inside a longer one (scale / scaler, test / ttest): half credit
            near = [w for w in doc if _contains(word, w)]
            if near:
                other = max(near, key=lambda w: self._weight(w, doc[w]))
                dot += PARTIAL * self._weight(word, count) * self._weight(other, doc[other])
        return min(1.0, dot / (norm * query_norm))

    def query_vector(self, words: list[str]) -> tuple[Counter[str], float]:
        counts = Counter(words)
        return counts, self._norm(counts)


def relevance(lesson: Lesson, query: LessonQuery, index: TextIndex,
              vector: tuple[Counter[str], float]) -> float:
    """The lesson's score for the query (0 = nothing in common)."""
    scope = lesson.scope
    score = 0.0
    if set(scope.rule_ids) & set(query.rule_ids):
        score += WEIGHTS["rule_exact"]
    else:
        families = {rule_family(r) for r in query.rule_ids} - {""}
        if any(rule_family(r) in families for r in scope.rule_ids):
            score += WEIGHTS["rule_family"]
    if set(scope.error_types) & set(query.error_types):
        score += WEIGHTS["error_type"]
    score += min(COLUMN_CAP, WEIGHTS["column"] * len(set(scope.columns) & set(query.columns)))
    score += min(LIBRARY_CAP,
                 WEIGHTS["library"] * len(set(scope.libraries) & set(query.libraries)))
    score += WEIGHTS["text"] * index.cosine(lesson.id, *vector)
    return round(score, 6)


def ranked(lessons: list[Lesson], query: LessonQuery,
           floor: float = MIN_RELEVANCE) -> list[tuple[float, Lesson]]:
    """`(score, lesson)` at or above `floor`, best first; ties: the more severe, the more
    often seen, the more recent."""
    from .lessons import severity_rank

    index = TextIndex(lessons)
    vector = index.query_vector(query_terms(query))
    scored = [(relevance(lesson, query, index, vector), lesson) for lesson in lessons]
    kept = [(score, lesson) for score, lesson in scored if score > 0 and score >= floor]
    kept.sort(key=lambda item: (-item[0], -severity_rank(item[1].severity),
                                -item[1].times_encountered, -item[1].last_seen, item[1].id))
    return kept
