"""The analysis trace must not change a result, and must cost little: run every corpus cell
with the trace recording and without the recorder installed at all (separate processes),
compare what each cell printed, and compare the recorder's CPU time with the cell's own.

    .venv/bin/python bench/trace_parity.py              # all registered cases
    .venv/bin/python bench/trace_parity.py --every 5    # every 5th case (quicker)

A cell whose output differs is run once more without the recorder: if that run differs from
the first run without it too, the cell is nondeterministic by itself (unseeded draws, timing)
and says nothing about the trace.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run_cases(ids: list[str], trace: bool) -> list[dict[str, Any]]:
    import matplotlib

    matplotlib.use("Agg")
    from bench.critic_corpus import by_id
    from services import trace_request

    cases = by_id()
    if trace:
        trace_request.install_in_process()
    out = []
    for cid in ids:
        case, ns, buf = cases[cid], {}, io.StringIO()
        row: dict[str, Any] = {"id": cid}
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if trace:
                    trace_request.begin_in_process(fresh=True)
                exec(compile(textwrap.dedent(case.setup), "<setup>", "exec"), ns)
                if trace:
                    trace_request.begin_in_process()
                t0 = time.process_time()
                exec(compile(textwrap.dedent(case.code), "<cell>", "exec"), ns)
                row["cell_ms"] = (time.process_time() - t0) * 1000
                if trace:
                    got = trace_request.export_in_process()
                    row["trace_ms"], row["events"] = got.get("ms", 0.0), len(got["events"])
            except Exception as exc:
                row["error"] = f"{type(exc).__name__}: {exc}"[:300]
        row["stdout"] = buf.getvalue()
        out.append(row)
    return out


def _child(ids: list[str], trace: bool) -> dict[str, dict[str, Any]]:
    with tempfile.NamedTemporaryFile("w+", suffix=".json") as f:
        json.dump(ids, f)
        f.flush()
        done = subprocess.run([sys.executable, __file__, "--child", f.name,
                               *(["--trace"] if trace else [])],
                              capture_output=True, text=True, check=True)
    return {r["id"]: r for r in map(json.loads, done.stdout.splitlines())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        for row in run_cases(json.loads(args.child.read_text()), args.trace):
            print(json.dumps(row))
        return 0
    from bench.critic_corpus import REGISTERED_SPLITS, all_cases

    ids = [c.id for c in all_cases() if c.split in REGISTERED_SPLITS][::args.every]
    on, off = _child(ids, True), _child(ids, False)
    differ = [i for i in ids if on[i]["stdout"] != off[i]["stdout"]
              or on[i].get("error") != off[i].get("error")]
    again = _child(differ, False) if differ else {}
    by_trace = [i for i in differ if again[i]["stdout"] == off[i]["stdout"]]
    ratios = [on[i]["trace_ms"] / max(off[i]["cell_ms"], 0.1) for i in ids
              if "trace_ms" in on[i] and "cell_ms" in off[i]]
    print(json.dumps({
        "cases": len(ids), "outputs_differ": len(differ),
        "nondeterministic_by_themselves": len(differ) - len(by_trace),
        "changed_by_trace": by_trace,
        "trace_ms_median": round(statistics.median(r["trace_ms"] for r in on.values()
                                                   if "trace_ms" in r), 3),
        "cell_ms_median": round(statistics.median(r["cell_ms"] for r in off.values()
                                                  if "cell_ms" in r), 3),
        "trace_over_cell_median": round(statistics.median(ratios), 4),
        "trace_over_cell_p90": round(sorted(ratios)[int(0.9 * len(ratios))], 4),
    }, indent=1))
    return 1 if by_trace else 0


if __name__ == "__main__":
    raise SystemExit(main())
