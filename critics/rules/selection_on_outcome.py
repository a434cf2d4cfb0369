"""Selection on the outcome (survivorship): units removed by a condition on their exit
(failed, dropped out, died, churned) or on the outcome's own value, before the outcome is
summarised or compared, so the result describes only the survivors.

Reads the analysis trace: the kernel recorded each frame filter that ran, which columns
decided it and which values it removed, and the summaries, tests and fits that followed.
Word lists and thresholds: critics/trace_rules.toml.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..thresholds import has_word, section

_READS = ("summary", "test", "fit", "model_fit", "cross_validate", "metric")


def _later_reads(ev: Evidence, flt: dict[str, Any]) -> list[dict[str, Any]]:
    """Summaries, tests and fits after the filter that read its rows' columns."""
    line = flt.get("line") or 0
    cols, out_ix = set(flt.get("cols", [])), flt.get("out_ix")
    found = []
    for e in ev.trace.of(*_READS):
        if (e.get("line") or 0) < line:
            continue
        read = set(e.get("cols", [])) | set(e.get("names", []))
        read |= {e.get("endog", "")} | set(e.get("exog", []))
        ix = e.get("ix")
        linked = out_ix is not None and out_ix in (ix if isinstance(ix, list) else [ix])
        if linked or read & cols or _fits_in(ev, e, flt):
            found.append(e)
    return found


def _other_side_kept(ev: Evidence, flt: dict[str, Any]) -> bool:
    """Another filter of the cell keeps what this one removed (by the same column): the
    rows were split into groups that are both analysed, not selected."""
    for col in flt.get("cond", []):
        removed = set((flt.get("removed") or {}).get(col, {}).get("top", {}))
        removed_n = (flt.get("removed") or {}).get(col, {}).get("n")
        for other in ev.trace.of("filter"):
            if other is flt or col not in other.get("cond", []):
                continue
            kept = (other.get("kept") or {}).get(col, {})
            if (removed and removed & set(kept.get("top", {}))) or kept.get("n") == removed_n:
                return True
    return False


def _fits_in(ev: Evidence, event: dict[str, Any], flt: dict[str, Any]) -> bool:
    """A test on bare arrays whose samples together are no larger than what the filter
    kept: they may well be those rows (arrays carry no column names to link by)."""
    if event.get("op") != "test" or any(event.get("names", [])):
        return False
    sizes = [ev.trace.data.get(d, {}).get("n") or 0 for d in event.get("samples", [])]
    return 0 < sum(sizes) <= (flt.get("n_out") or 0)


def _exit_reason(flt: dict[str, Any]) -> str | None:
    words = section("selection_on_outcome")
    for col in flt.get("cond", []):
        removed = (flt.get("removed") or {}).get(col, {}).get("top", {})
        kept = (flt.get("kept") or {}).get(col, {}).get("top", {})
        for value in removed:
            if has_word(value, words["exit_words"]):
                return f"{col} = {value!r}"
        if kept and set(kept) <= {"True", "1", "1.0"} and has_word(col, words["stay_words"]):
            return f"{col} is False"
        if removed and set(removed) <= {"True", "1", "1.0"} and \
                has_word(col, words["exit_words"]):
            return f"{col} is True"
        binary = set(kept) | set(removed) <= _BINARY
        if binary and kept and has_word(col, words["event_words"]):
            return f"{col} (an event indicator) is not {'/'.join(sorted(kept))}"
    return None


_BINARY = {"True", "False", "1", "0", "1.0", "0.0"}


def _outcome_columns(event: dict[str, Any]) -> set[str]:
    """The columns a test or fit measures: sample names, a model's response and the
    identifiers on the left of its formula (`np.log(duration) ~ x` measures duration)."""
    cols = set(event.get("names", [])) | {str(event.get("endog") or "")}
    formula = str(event.get("formula") or "")
    lhs = formula.split("~", 1)[0] if "~" in formula else str(event.get("endog") or "")
    return cols | set(re.findall(r"[A-Za-z_]\w*", lhs))


def _selections(ev: Evidence, skip: tuple[str, ...]) -> Iterator[tuple[dict[str, Any], int, int]]:
    """(filter, rows in, rows out) for the cell's filters that removed a material share of
    rows and did not merely split them into groups that are all analysed."""
    floor = section("selection_on_outcome")["min_removed_share"]
    for flt in ev.trace.of("filter"):
        n_in, n_out = flt.get("n_in") or 0, flt.get("n_out") or 0
        if n_in and (n_in - n_out) / n_in >= floor and flt.get("method") not in skip \
                and not _other_side_kept(ev, flt):
            yield flt, n_in, n_out


@rule("selection_on_outcome.exits_removed", family="selection_on_outcome",
      title="Units that failed or left were removed before the outcome was summarised")
def exits_removed(ev: Evidence) -> Iterator[Finding]:
    for flt, n_in, n_out in _selections(ev, ("merge",)):  # unmatched keys: data loss
        reason = _exit_reason(flt)
        reads = _later_reads(ev, flt) if reason else []
        outcome = [e for e in reads if not set(e.get("cols", []) + e.get("names", []))
                   <= set(flt.get("cond", []))]
        if not outcome:
            continue
        yield Finding(
            explanation=(f"Line {flt.get('line')} removes {n_in - n_out} of {n_in} rows where "
                         f"{reason}, and the cell then summarises or compares the remaining "
                         f"rows (line {outcome[0].get('line')}). Units that failed or left are "
                         "part of the outcome: without them the result describes only the "
                         "survivors and is biased (survivorship)."),
            severity="high", confidence=0.7,
            evidence={"lines": sorted({x for x in (flt.get("line"), outcome[0].get("line"))
                                       if isinstance(x, int)}),
                      "values": {"removed": n_in - n_out, "rows": n_in, "condition": reason}},
            suggestion="Keep the units that failed or left in the analysis: count them as the "
                       "outcome they had (failure, zero, censored), use survival methods for "
                       "time-to-event outcomes, or an intention-to-treat comparison; if they "
                       "must be excluded, report how many and compare them with the rest.")


@rule("selection_on_outcome.filtered_on_outcome", family="selection_on_outcome",
      title="Rows were selected on the value of the outcome they are then used to measure")
def filtered_on_outcome(ev: Evidence) -> Iterator[Finding]:
    for flt, n_in, n_out in _selections(ev, ("dropna", "merge")):
        cond = set(flt.get("cond", []))
        tested = [e for e in _later_reads(ev, flt) if e.get("op") in ("test", "model_fit")
                  and _outcome_columns(e) & cond]
        if not tested:
            continue
        col = sorted(_outcome_columns(tested[0]) & cond)[0]
        yield Finding(
            explanation=(f"Line {flt.get('line')} keeps rows by the value of {col!r}, and "
                         f"line {tested[0].get('line')} then tests {col!r} itself on what is "
                         "left: selecting on the outcome truncates its distribution and biases "
                         "the comparison."),
            severity="high", confidence=0.7,
            evidence={"lines": sorted({x for x in (flt.get("line"), tested[0].get("line"))
                                       if isinstance(x, int)}),
                      "values": {"outcome": col, "removed": n_in - n_out, "rows": n_in}},
            suggestion="Select units on what was known before the outcome (baseline "
                       "covariates, eligibility), never on the outcome's value; model the "
                       "truncation if it is part of the design.")
