"""What the critic's kernel facts cost on one DataFrame, by frame size, next to pandas' own
one-call summary (`df.describe(include="all")`, what an analyst runs to look at a frame) and
the frame's `df.isna().sum()` + `df.nunique()` (what a variable inspector shows).

The facts (`services.kernel_facts.describe`) run inside the user's kernel after every cell,
for each frame the cell created or used (and, for each model fit, the per-column strength
with the target of its (X, y) -- the "model fit" rows, with the frame as X); this script
calls the same functions in-process, on the same kind of frame in one run, so the ratios
hold on a noisy shared machine. Per-fact rows say where the time goes.

    .venv/bin/python bench/frame_facts_cost.py             # prints, rewrites its README part
    .venv/bin/python bench/frame_facts_cost.py --no-write
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from services import kernel_facts as kf  # noqa: E402

README = ROOT / "bench" / "README.md"
START, END = "<!-- frame_facts_cost:start -->", "<!-- frame_facts_cost:end -->"
# (rows, float columns, int columns, text columns): a small table, a wide mid-size one, a big one
SHAPES = [(10_000, 8, 4, 3), (200_000, 25, 6, 4), (1_000_000, 35, 8, 8)]


def make_frame(rows: int, floats: int, ints: int, texts: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    cols: dict[str, Any] = {}
    for i in range(floats):
        cols[f"f{i}"] = rng.normal(size=rows)
    for i in range(ints):  # a code column, a mid-cardinality one, an identifier-like one
        cols[f"i{i}"] = rng.integers(0, [5, 200, rows][i % 3], rows)
    for i in range(texts):
        cols[f"t{i}"] = rng.choice([f"lvl{j}" for j in range([4, 50, 5000][i % 3])], rows)
    cols["flag"] = rng.integers(0, 2, rows)
    df = pd.DataFrame(cols)
    df.loc[df.index[::97], "f0"] = np.nan
    return df


def _ranges(df: pd.DataFrame) -> dict[str, list[float]]:
    facts: dict[str, Any] = {"unique": {}}
    kf._levels_and_ranges(df, facts)
    return facts.get("ranges", {})


def _levels(df: pd.DataFrame, unique: dict[str, int]) -> dict[str, dict[str, int]]:
    facts: dict[str, Any] = {"unique": unique}
    kf._levels_and_ranges(df, facts)
    return facts.get("levels", {})


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times) if repeat < 3 else statistics.median(times)


def measure(repeat: int) -> list[dict[str, Any]]:
    rows = []
    for shape in SHAPES:
        df = make_frame(*shape)
        kf.describe("df", df)  # warm caches and imports
        facts = best_ms(lambda df=df: kf.describe("df", df), repeat)
        desc = best_ms(lambda df=df: df.describe(include="all"), repeat)
        inspect = best_ms(lambda df=df: (df.isna().sum(), df.nunique()), repeat)
        sample = df if len(df) <= kf.SAMPLE_ROWS else df.head(kf.SAMPLE_ROWS)
        unique = {str(c): int(v) for c, v in sample.nunique().items()}
        ranges = _ranges(df)
        levels = _levels(df, unique)
        parts = {
            "missing counts": lambda df=df: df.isna().sum(),
            "unique counts (row sample)": lambda s=sample: kf._unique_counts(s),
            "levels and ranges": lambda df=df, u=unique: kf._levels_and_ranges(
                df, {"unique": u}),
            "nesting": lambda df=df: kf._nesting(df),
            "missing by group": lambda df=df, lv=levels: kf._missing_by(
                df, {"f0": 1}, lv),
            "outcome indicators": lambda df=df, u=unique: kf._outcome_indicators(df, u),
            "tails": lambda df=df, r=ranges: kf._frame_tails(df, r),
        }
        rows.append({"shape": df.shape, "facts": facts, "describe": desc, "inspect": inspect,
                     "parts": {k: best_ms(fn, repeat) for k, fn in parts.items()}})
    return rows


def report(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| frame (rows x columns) | critic facts | `df.describe(include=\"all\")` | "
        "facts / describe | `isna().sum()` + `nunique()` | facts / that |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        n, k = r["shape"]
        lines.append(f"| {n:,} x {k} | {r['facts']:.1f} ms | {r['describe']:.1f} ms | "
                     f"{r['facts'] / r['describe']:.2f} | {r['inspect']:.1f} ms | "
                     f"{r['facts'] / r['inspect']:.2f} |")
    names = list(rows[0]["parts"])
    lines += ["", "| where the facts' time goes | " + " | ".join(
        f"{r['shape'][0]:,} x {r['shape'][1]}" for r in rows) + " |",
        "|---|" + "---|" * len(rows)]
    for name in names:
        lines.append(f"| {name} | " + " | ".join(f"{r['parts'][name]:.1f} ms" for r in rows)
                     + " |")
    return "\n".join(lines)


def write_readme(text: str, command: str) -> None:
    body = README.read_text()
    section = (f"{START}\n## Kernel facts on large frames (`bench/frame_facts_cost.py`)\n\n"
               f"Command: `{command}`\n\n{text}\n{END}")
    if START in body and END in body:
        head, rest = body.split(START, 1)
        body = head + section + rest.split(END, 1)[1]
    else:
        body = body.rstrip("\n") + "\n\n" + section + "\n"
    README.write_text(body)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="leave bench/README.md alone")
    args = parser.parse_args()
    text = report(measure(args.repeat))
    print(text)
    if not args.no_write:
        write_readme(text, ".venv/bin/python bench/frame_facts_cost.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
