"""When is a new lesson the same as a stored one? Same category, same scope, near-identical
text.

Dedup is deliberately conservative: a false merge throws away the second lesson's wording for
good, a missed merge only costs a slot that pruning (by Claude: "redundant, least general")
reclaims later. So "near-identical" means the same mistake told again - other numbers, other
column or variable names, other quoting, word order, inflection, a paraphrase that keeps the
content words - and not a related mistake: "StandardScaler fit before the split" and "PCA fit
before the split" share a rule and a fix but are two lessons (the object differs), and
consolidating them is the pruner's call.

The measure: each text is normalised (quoted literals and the lessons' own column names ->
`q`, numbers -> `n`, lower case, punctuation and stop words dropped, a light suffix stemmer),
then scored twice and the lower score kept - both must agree:
- characters: rapidfuzz's `token_sort_ratio` (order-insensitive edit similarity);
- words: the F1 of matched words, a word matching an equal one or one that contains it
  (`scaler` / `standardscaler`).
Characters alone rate look-alike words close (`pearson` / `spearman`: 0.93 on the labeled
set, a false merge); words alone are blind to spelling. The title and what went wrong are
weighted 2:3 (the description carries more of the content); what fixed it is left out, since
one mistake can be fixed in many ways (the merge keeps the newest fix).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

if TYPE_CHECKING:
    from .lessons import Lesson

# tests/test_lesson_similarity.py's labeled pairs: duplicates score >= 0.869, look-alikes
# <= 0.780; the threshold sits between them (precision and recall 1.0 on that set)
THRESHOLD = 0.82
MIN_CONTAINED_WORD = 4  # shorter words match only when equal ("fit" is not in "fitness")
TITLE_WEIGHT = 0.4
DESCRIPTION_WEIGHT = 0.6
# each text score is at most its character score, so a pair reaching THRESHOLD needs at
# least these character scores: a C-speed cutoff rejects most pairs before the word score
MIN_DESCRIPTION_CHARS = 100 * (THRESHOLD - TITLE_WEIGHT) / DESCRIPTION_WEIGHT
MIN_TITLE_CHARS = 100 * (THRESHOLD - DESCRIPTION_WEIGHT) / TITLE_WEIGHT

_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
_NUMBER = re.compile(
    r"(?<![a-z_])[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?%?"
    r"(?![a-z_])")
_WORD = re.compile(r"[a-z0-9]+")

_STOP_WORDS = """
a an the this that these those it its is are was were be been being has have had do does did
of on in into onto to for with by at from as and or so than then there their which who whom
when while will would should could can may might must also just only very all any each every
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())


def _stem(word: str) -> str:
    """Strip the common English inflections (`fitted` -> `fit`, `splitting` -> `split`,
    `columns` -> `column`); enough for paraphrases, no dictionary."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            if suffix == "s" and stem.endswith(("s", "u", "i")):  # class, status, analysis
                return word
            if len(stem) >= 4 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]  # fitt -> fit, splitt -> split (keep "fill", "pass")
            return stem
    return word


@lru_cache(maxsize=8192)  # a store compares each stored lesson with every newcomer
def normalise(text: str, columns: frozenset[str] = frozenset()) -> str:
    """The content words, lower case: quoted literals and the given column names become `q`,
    numbers `n`; stop words dropped, inflections stripped."""
    text = _QUOTED.sub(" q ", text)
    for column in sorted(columns, key=len, reverse=True):
        text = re.sub(rf"(?<![\w]){re.escape(column)}(?![\w])", " q ", text)
    text = _NUMBER.sub(" n ", text.lower())
    words = [_stem(w) for w in _WORD.findall(text.replace("_", " "))]
    return " ".join(w for w in words if w not in STOP_WORDS)


def _words_match(x: str, y: str) -> bool:
    return x == y or (min(len(x), len(y)) >= MIN_CONTAINED_WORD and (x in y or y in x))


def word_f1(a: str, b: str) -> float:
    """F1 of the words of `a` and `b` matched one to one (greedy, in order)."""
    left, right = a.split(), b.split()
    if not left or not right:
        return float(left == right)
    free = list(right)
    matched = 0
    for word in left:
        for i, other in enumerate(free):
            if _words_match(word, other):
                del free[i]
                matched += 1
                break
    return 2 * matched / (len(left) + len(right))


def text_similarity(a: str, b: str) -> float:
    """0..1 for two normalised texts: the lower of the character and the word score."""
    if not a and not b:
        return 1.0
    return min(fuzz.token_sort_ratio(a, b, processor=None) / 100.0, word_f1(a, b))


def similarity(a: Lesson, b: Lesson) -> float:
    """0..1: how near-identical the two lessons' title and what went wrong are."""
    columns = frozenset(a.scope.columns) | frozenset(b.scope.columns)
    title = text_similarity(normalise(a.title, columns), normalise(b.title, columns))
    description = text_similarity(normalise(a.what_went_wrong, columns),
                                  normalise(b.what_went_wrong, columns))
    return TITLE_WEIGHT * title + DESCRIPTION_WEIGHT * description


def same_scope(a: Lesson, b: Lesson) -> bool:
    """The same rule ids and the same error types. Lessons tied to neither (tips about a
    library) must name the same libraries, else nothing would scope them."""
    if a.scope.rule_ids != b.scope.rule_ids or a.scope.error_types != b.scope.error_types:
        return False
    if not a.scope.rule_ids and not a.scope.error_types:
        return a.scope.libraries == b.scope.libraries
    return True


def _could_reach_threshold(a: Lesson, b: Lesson) -> bool:
    columns = frozenset(a.scope.columns) | frozenset(b.scope.columns)
    for x, y, cutoff in ((a.what_went_wrong, b.what_went_wrong, MIN_DESCRIPTION_CHARS),
                         (a.title, b.title, MIN_TITLE_CHARS)):
        left, right = normalise(x, columns), normalise(y, columns)
        if (left or right) and not fuzz.token_sort_ratio(left, right, processor=None,
                                                         score_cutoff=cutoff):
            return False
    return True


def is_duplicate(a: Lesson, b: Lesson) -> bool:
    """Would the store merge them: same category, same scope, similarity >= THRESHOLD."""
    return (a.category == b.category and same_scope(a, b) and _could_reach_threshold(a, b)
            and similarity(a, b) >= THRESHOLD)
