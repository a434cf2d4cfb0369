"""Labelled corpus of notebook cells for measuring the nbcritic analysis critic.

Each `Case` is one cell under review. Flawed cells carry the id of their flaw family in
`family`; sound cells carry `family=None`. Most flawed cells have a matched sound `twin` (the
same analysis done right), so a benchmark can measure recall on flawed cells and the
false-positive rate on sound ones that look almost the same.

Cases are data: `<split>/cases.jsonl` holds one JSON object per line with exactly the fields
id, family, split, twin, setup, code and note. Tune the critic on `dev`; every `holdout*` split
was written later, by an author who did not read the rules, to measure generalisation, and was
measured once at its first look before its misses were fixed. `splits.json` records each
registered split: its author's voice, how it was written and its first look (numbers from
bench/README.md); `split_records()` reads it.

The corpus was written independently of the critic's rules. Check it with
`.venv/bin/python bench/critic_corpus/check_corpus.py`.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FAMILIES: tuple[str, ...] = (
    "leakage",
    "target_leakage",
    "circular_validation",
    "multiple_comparisons",
    "parametric_assumptions",
    "pseudoreplication",
    "correlation_misuse",
    "suspicious_values",
    "data_loss",
    "unseeded_randomness",
    # units selected on the outcome, or on failure / exit, before the outcome is summarised
    # (survivorship)
    "selection_on_outcome",
)

REGISTERED_SPLITS: tuple[str, ...] = (
    "dev", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7",
    "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13", "holdout14",
    "holdout15", "holdout16", "holdout17", "holdout18", "holdout19", "holdout20", "holdout21",
    "holdout22", "holdout23", "holdout24", "holdout25", "holdout26", "holdout27",
    "holdout28", "holdout29", "holdout30", "holdout31", "holdout32", "holdout33",
    "holdout34", "holdout35", "holdout36", "holdout37", "holdout38", "holdout39",
    "holdout40", "holdout41", "holdout42", "holdout43", "holdout44", "holdout45", "holdout46",
    "holdout47",
    "holdout48",
    "holdout49",
    "holdout50",
)

CORPUS_DIR = Path(__file__).resolve().parent
CASES_FILE = "cases.jsonl"
SPLITS_FILE = CORPUS_DIR / "splits.json"
# the fields of a line of cases.jsonl, in the order the files are written
CASE_FIELDS: tuple[str, ...] = ("id", "family", "split", "twin", "setup", "code", "note")

# A fresh split is written outside the repository, so nobody tuning rules sees it before its
# first look is measured: NBCRITIC_CORPUS_STAGED=/path/to/holdoutN (os.pathsep-separated) adds
# each folder, which holds a cases.jsonl, as a split named after it.
STAGED_DIRS: tuple[Path, ...] = tuple(
    Path(p) for p in os.environ.get("NBCRITIC_CORPUS_STAGED", "").split(os.pathsep) if p
)
for _folder in STAGED_DIRS:
    if not _folder.is_dir():
        raise ValueError(f"NBCRITIC_CORPUS_STAGED: {_folder} is not a folder")
    if _folder.name in REGISTERED_SPLITS:
        raise ValueError(f"NBCRITIC_CORPUS_STAGED: {_folder} is named like the registered "
                         f"split {_folder.name!r}; name the folder after the new split")
    if not (_folder / CASES_FILE).is_file():
        hint = (" (it holds .py case modules: cases are now one JSON object per line)"
                if any(_folder.glob("*.py")) else "")
        raise ValueError(f"NBCRITIC_CORPUS_STAGED: {_folder} has no {CASES_FILE}{hint}")
SPLITS: tuple[str, ...] = REGISTERED_SPLITS + tuple(d.name for d in STAGED_DIRS)


class CorpusError(ValueError):
    """A malformed line of a cases.jsonl file (the message names file, line and field)."""


@dataclass(frozen=True)
class Case:
    id: str  # unique, e.g. "leakage-scaler-housing"
    family: str | None  # the flaw family for flawed cells, None for sound cells
    code: str  # the cell under review (self-contained unless `setup` is used)
    twin: str | None = None  # id of the matched sound/flawed counterpart, if any
    setup: str = ""  # optional earlier cell run first in the same kernel (not reviewed)
    note: str = ""  # one line: what the flaw is, or why the cell is sound
    split: str = "dev"  # one of SPLITS

    @property
    def flawed(self) -> bool:
        return self.family is not None


def case_files() -> list[tuple[str, Path]]:
    """(split, path of its cases.jsonl) for every split, registered ones first."""
    files = [(split, CORPUS_DIR / split / CASES_FILE) for split in REGISTERED_SPLITS]
    return files + [(folder.name, folder / CASES_FILE) for folder in STAGED_DIRS]


def _check_line(record: Any, split: str, where: str) -> Case:
    if not isinstance(record, dict):
        raise CorpusError(f"{where}: expected a JSON object, got {type(record).__name__}")
    for name in CASE_FIELDS:
        if name not in record:
            raise CorpusError(f"{where}: field {name!r} is missing")
    for name in record:
        if name not in CASE_FIELDS:
            raise CorpusError(f"{where}: field {name!r} is not a Case field "
                              f"(expected {', '.join(CASE_FIELDS)})")
    for name in CASE_FIELDS:
        value, nullable = record[name], name in ("family", "twin")
        if not (isinstance(value, str) or (nullable and value is None)):
            kind = "a string or null" if nullable else "a string"
            raise CorpusError(f"{where}: field {name!r} must be {kind}, got {value!r}")
    if not record["id"].strip():
        raise CorpusError(f"{where}: field 'id' is empty")
    if record["family"] is not None and record["family"] not in FAMILIES:
        raise CorpusError(f"{where}: field 'family': unknown family {record['family']!r} "
                          f"(expected null or one of {', '.join(FAMILIES)})")
    if record["split"] != split:
        raise CorpusError(f"{where}: field 'split' is {record['split']!r} but the file "
                          f"belongs to split {split!r}")
    return Case(**record)


def load_cases(path: Path, split: str, seen: dict[str, str] | None = None) -> list[Case]:
    """The cases of one cases.jsonl file whose lines must all belong to `split`. `seen` maps
    ids already loaded to where they were (file:line), to refuse duplicates across files."""
    seen = {} if seen is None else seen
    stat = Path(path).stat()
    cases = []
    for case, where in _parse(str(path), split, stat.st_mtime_ns, stat.st_size):
        if case.id in seen:
            raise CorpusError(f"{where}: field 'id': duplicate id {case.id!r} "
                              f"(first at {seen[case.id]})")
        seen[case.id] = where
        cases.append(case)
    return cases


@functools.lru_cache(maxsize=256)
def _parse(path: str, split: str, mtime_ns: int, size: int) -> tuple[tuple[Case, str], ...]:
    """(case, "file:line") for each line; cached until the file changes (cases are frozen)."""
    found = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})"
                                  ) from None
            found.append((_check_line(record, split, where), where))
    return tuple(found)


def all_cases(split: str | None = None) -> list[Case]:
    """Every case of every split in file order, or only those of one split (one of SPLITS)."""
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    seen: dict[str, str] = {}  # ids are unique across the whole corpus
    cases = [case for name, path in case_files() for case in load_cases(path, name, seen)]
    return [c for c in cases if split is None or c.split == split]


def by_id(split: str | None = None) -> dict[str, Case]:
    return {c.id: c for c in all_cases(split)}


def split_records() -> dict[str, dict[str, Any]]:
    """splits.json by split name, in registration order: voice, how the split was written,
    `first_look_recorded` and `first_look` (recall, false-positive rate... or null), and the
    split's former docstrings (`description`, `family_notes`, one string per line)."""
    data = json.loads(SPLITS_FILE.read_text(encoding="utf-8"))
    return {record["split"]: record for record in data["splits"]}
