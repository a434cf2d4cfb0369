"""Check the critic corpus: every case runs, quickly, and the labels hang together.

    .venv/bin/python bench/critic_corpus/check_corpus.py            # everything
    .venv/bin/python bench/critic_corpus/check_corpus.py -k leakage  # ids containing "leakage"
    .venv/bin/python bench/critic_corpus/check_corpus.py -v          # also show each cell's output

Each case runs twice (setup, then code) in a fresh namespace with matplotlib's Agg backend,
under two different global random states (numpy's legacy global generator and `random`). The
output of a cell is what it prints plus the repr of its last expression (what Jupyter would
display). A sound cell, and a flawed cell of any family but `unseeded_randomness`, must print the
same thing both times; an `unseeded_randomness` cell must not (its flaw has to show in the
number it reports). The split records (splits.json) must cover the registered splits. A
malformed line of a cases.jsonl is reported with its file, line and field. Exit status 1 if
anything is wrong.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import random
import re
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.critic_corpus import (
    FAMILIES,
    REGISTERED_SPLITS,
    SPLITS,
    Case,
    CorpusError,
    all_cases,
    split_records,
)

TIME_LIMIT_S = 3.0
MIN_FLAWED_PER_FAMILY = 5
MIN_SOUND_GENERAL = 12
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def run_cell(source: str, ns: dict, name: str) -> str:
    """Execute like a notebook cell; return its displayed value's repr ('' if none)."""
    tree = ast.parse(source, filename=name)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, name, "exec"), ns)
    if last is None:
        return ""
    value = eval(compile(last, name, "eval"), ns)
    return "" if value is None else repr(value) + "\n"


def run_case(case: Case, global_seed: int) -> tuple[str, float]:
    """(normalised output, seconds) of setup + code in a fresh namespace."""
    np.random.seed(global_seed)
    random.seed(global_seed)
    ns: dict = {"__name__": "__main__"}
    out = io.StringIO()
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if case.setup:
                run_cell(case.setup, ns, f"<{case.id}:setup>")
            shown = run_cell(case.code, ns, f"<{case.id}>")
    finally:
        plt.close("all")
    elapsed = time.perf_counter() - start
    return _ADDRESS.sub("0x?", out.getvalue() + shown), elapsed


def static_problems(cases: list[Case]) -> list[str]:
    problems = []
    records = split_records()
    problems += [f"split {s}: no record in splits.json" for s in REGISTERED_SPLITS
                 if s not in records]
    problems += [f"splits.json: {s!r} is not a registered split" for s in records
                 if s not in REGISTERED_SPLITS]
    for s, record in records.items():
        if not isinstance(record.get("first_look_recorded"), bool):
            problems.append(f"splits.json: {s}: first_look_recorded is not true or false")
        elif record["first_look_recorded"] != (record.get("first_look") is not None):
            problems.append(f"splits.json: {s}: first_look_recorded disagrees with first_look")
    ids = Counter(c.id for c in cases)
    problems += [f"duplicate id {i!r} ({n} times)" for i, n in ids.items() if n > 1]
    index = {c.id: c for c in cases}
    for c in cases:
        if c.split not in SPLITS:
            problems.append(f"{c.id}: unknown split {c.split!r}")
        if c.family is not None and c.family not in FAMILIES:
            problems.append(f"{c.id}: unknown family {c.family!r}")
        if not c.note.strip():
            problems.append(f"{c.id}: empty note")
        if "\n" in c.note.strip():
            problems.append(f"{c.id}: note is more than one line")
        if not c.code.strip():
            problems.append(f"{c.id}: empty code")
        long_lines = [ln for ln in (c.setup + "\n" + c.code).splitlines() if len(ln) > 100]
        if long_lines:
            problems.append(f"{c.id}: {len(long_lines)} code line(s) over 100 characters")
        if c.twin is None:
            if c.family is not None:
                problems.append(f"{c.id}: flawed case without a sound twin")
            continue
        other = index.get(c.twin)
        if other is None:
            problems.append(f"{c.id}: twin {c.twin!r} does not exist")
            continue
        if (c.family is None) == (other.family is None):
            problems.append(f"{c.id}: twin {other.id} has the same label (both flawed/sound)")
        if other.twin != c.id:
            problems.append(f"{c.id}: twin {other.id} points back to {other.twin!r}")
        if other.split != c.split:
            problems.append(f"{c.id}: twin {other.id} is in another split")
    return problems


def count_table(cases: list[Case]) -> tuple[str, list[str]]:
    index = {c.id: c for c in cases}
    problems = []
    heads = " ".join(f"{s[:4] + s[7:]:>5}" for s in SPLITS)
    lines = [f"{'family':24} {heads} {'total':>6}   (flawed / sound twins)"]
    for fam in FAMILIES:
        flawed = Counter(c.split for c in cases if c.family == fam)
        twins = Counter(
            c.split for c in cases
            if c.family is None and c.twin in index and index[c.twin].family == fam
        )
        total = sum(flawed.values())
        if not total:  # a family registered before any case of it was written
            lines.append(f"{fam:24} (no cases yet)")
            continue
        if total < MIN_FLAWED_PER_FAMILY:
            problems.append(f"family {fam}: only {total} flawed cases")
        if not all(flawed[s] for s in SPLITS):
            problems.append(f"family {fam}: needs flawed cases in every split")
        cells = " ".join(f"{flawed[s]}/{twins[s]}".rjust(5) for s in SPLITS)
        lines.append(f"{fam:24} {cells} {total:>3}/{sum(twins.values())}")
    general = Counter(c.split for c in cases if c.family is None and c.twin is None)
    general_cells = " ".join(f"{general[s]:>5}" for s in SPLITS)
    lines.append(f"{'sound_general':24} {general_cells} {sum(general.values()):>6}")
    if sum(general.values()) < MIN_SOUND_GENERAL:
        problems.append(f"only {sum(general.values())} general sound cases")
    split_n = Counter(c.split for c in cases)
    flawed_n = Counter(c.split for c in cases if c.family)
    n = len(cases)
    lines.append(
        f"all: {n} cases, {sum(flawed_n.values())} flawed, {n - sum(flawed_n.values())} sound; "
        + ", ".join(
            f"{s} {split_n[s]} ({split_n[s] / max(n, 1):.0%}: {flawed_n[s]} flawed, "
            f"{split_n[s] - flawed_n[s]} sound)"
            for s in SPLITS
        )
    )
    return "\n".join(lines), problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only run cases whose id contains this")
    parser.add_argument("-v", action="store_true", help="print each cell's output")
    parser.add_argument("--no-run", action="store_true", help="static checks only")
    args = parser.parse_args()

    try:
        corpus = all_cases()
    except CorpusError as exc:
        print(f"cannot load the corpus: {exc}")
        return 1
    problems = static_problems(corpus)
    table, count_problems = count_table(corpus)
    problems += count_problems

    if not args.no_run:
        # Import the heavy libraries once so that timings measure the cells, not the imports.
        import pandas  # noqa: F401
        import scipy.stats  # noqa: F401
        import sklearn.ensemble  # noqa: F401
        import statsmodels.formula.api  # noqa: F401

        cases = [c for c in corpus if args.k in c.id]
        for case in cases:
            try:
                out1, t1 = run_case(case, global_seed=1)
                out2, t2 = run_case(case, global_seed=2)
            except Exception as exc:  # report every broken case, not just the first
                problems.append(f"{case.id}: raised {type(exc).__name__}: {exc}")
                print(f"FAIL {case.id}")
                continue
            slow = max(t1, t2)
            label = case.family or "sound"
            print(f"ok   {case.id:55} {label:22} {slow:5.2f}s")
            if args.v:
                print("     | " + out1.rstrip().replace("\n", "\n     | "))
            if slow > TIME_LIMIT_S:
                problems.append(f"{case.id}: took {slow:.2f} s (limit {TIME_LIMIT_S} s)")
            if not out1.strip():
                problems.append(f"{case.id}: prints/displays nothing")
            if case.family == "unseeded_randomness":
                if out1 == out2:
                    problems.append(f"{case.id}: output does not change with the random state")
            elif out1 != out2:
                problems.append(f"{case.id}: output changes with the global random state")

    print()
    print(table)
    print()
    if problems:
        print(f"{len(problems)} problem(s):")
        for p in problems:
            print(f"  - {p}")
        return 1
    print("corpus OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
