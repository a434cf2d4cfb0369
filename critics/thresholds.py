"""Thresholds and word lists of the trace rules, read once from `trace_rules.toml`."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any


@cache
def section(name: str) -> dict[str, Any]:
    data = tomllib.loads(Path(__file__).with_name("trace_rules.toml").read_text())
    return data[name]


def has_word(text: str, words: list[str]) -> str | None:
    """The first word of `words` found in `text` as a word (or a phrase), lower-cased."""
    low = text.lower().replace("_", " ")
    for word in words:
        w = word.lower().replace("_", " ")
        at = low.find(w)
        while at >= 0:
            before = low[at - 1] if at else " "
            after = low[at + len(w)] if at + len(w) < len(low) else " "
            if not before.isalpha() and not (after.isalpha() and len(w) < 5 and w[-1].isalpha()):
                return word
            at = low.find(w, at + 1)
    return None
