"""`bad_lines_skipped`: `read_csv(on_bad_lines="skip")` and its kin discard every line that
does not parse, and nothing says how many."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...code_model import names_in as _names
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._context import _ctx
from ._scan import _INT_RE, FIT_CALLS, STAT_TESTS, SUMMARY_METHODS

# -- malformed lines skipped while reading ------------------------------------------------------

_READERS = {"read_csv", "read_table", "read_fwf", "genfromtxt"}
_SKIP_TEXT = re.compile(r"(?i)\b(?:skipp\w*|malformed|bad (?:lines?|rows?)|dropped|discard\w*|"
                        r"unparse\w*|invalid|repaired)\b")
_LINE_COUNT = re.compile(r"splitlines\(|readlines\(|\.count\(\s*['\"]\\n|wc -l|sum\(1 for")


def _bad_line_mode(c) -> str | None:
    """'skip' (silently), 'warn' (a warning lists them) or None."""
    if c.last == "genfromtxt":
        return "warn" if c.kwarg_value("invalid_raise", True) is False else None
    mode = c.kwarg_value("on_bad_lines")
    if mode == "skip":
        return "skip"
    if mode == "warn":
        return "warn"
    if c.kwarg_value("error_bad_lines", True) is False:
        return "skip" if c.kwarg_value("warn_bad_lines", True) is False else "warn"
    return None


@rule("data_loss.bad_lines_skipped",
      title="Malformed lines skipped silently while reading the data")
def bad_lines_skipped(ev: Evidence) -> Iterator[Finding]:
    """`read_csv(on_bad_lines="skip")` (or `error_bad_lines=False`, `genfromtxt(
    invalid_raise=False)`) discards every line that does not parse, and nothing says how many.
    Malformed lines are rarely random (a field with a comma, one client, one export)."""
    if ev.tree is None:
        return
    ctx = _ctx(ev)
    for c in ev.model.calls:
        if c.last not in _READERS:
            continue
        mode = _bad_line_mode(c)
        if mode is None:
            continue
        if any(_SKIP_TEXT.search(ln) and _INT_RE.search(ln)
               for ln in ev.text[:30_000].splitlines()[:500]):
            continue
        if _LINE_COUNT.search(ev.code):
            continue
        tainted = ctx.downstream(set(c.targets), c.line) if c.targets else set()
        summaries = [d for d in ev.model.calls if d.line > c.line and (
            d.last in SUMMARY_METHODS or d.last in STAT_TESTS or d.last in FIT_CALLS
            or d.last == "groupby") and (({d.receiver_root} | _names(d.node)) & tainted)]
        if mode == "skip":
            severity, conf = ("high", 0.7) if summaries else ("medium", 0.6)
        else:
            severity, conf = "low", 0.4
        how = ("skips them silently" if mode == "skip" else
               "only warns about them (the count is not part of the result)")
        lines = [c.line] + [d.line for d in summaries[:3]]
        then = (f"; lines {', '.join(str(d.line) for d in summaries[:3])} then summarise "
                "what was parsed" if summaries else "")
        yield Finding(
            explanation=(f"Line {c.line} reads the data with malformed lines discarded "
                         f"(`{c.last}` {how}){then}, and the cell never says how many lines "
                         "were lost. Lines that fail to parse are rarely random (an unquoted "
                         "comma in one field, one client or exporter), so the summary can be "
                         "biased by an unknown share of missing records."),
            severity=severity, confidence=conf,
            evidence={"lines": sorted(set(lines)), "values": {"on_bad_lines": mode}},
            suggestion=("Pass a callable to `on_bad_lines` (engine='python') that repairs or "
                        "collects the bad lines and print how many there were, or compare the "
                        "raw line count with `len(df)` and report the difference."))
