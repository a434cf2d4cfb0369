"""The drop-site rules and their shared finding: rows with missing values dropped
(`silent_dropna`, including `errors="coerce"` and string parses), failed or invalid runs
filtered out or skipped (`failed_rows_filtered`), and inner merges that lose unmatched rows
(`inner_merge_loss`), each before a summary that does not say how many rows went."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from itertools import pairwise

from ...ast_cache import walk as _walk
from ...code_model import root_name as _root
from ...evidence import Evidence, ObjectFacts
from ...findings import Finding
from ...rule import rule
from ._context import _ctx, _shown_earlier
from ._loss import (
    _agg_counts,
    _group_losses,
    _level_losses,
    _Loss,
    _quantify,
    _threshold_shares,
    _unmeasured_spread,
    separator_hint,
)
from ._scan import _NAT_DROPPING, _Drop, _pct

# -- the finding ---------------------------------------------------------------------------------


_WHAT = {
    "missing": "drops rows with missing values",
    "coerce": "turns unparseable values into NaN (`errors='coerce'`), which the summary then "
              "skips",
    "failed": "keeps only successful / valid rows",
    "merge": "inner-merges, which drops rows without a match",
    "skipped": "skips every record whose processing raises (an `except` that only moves on)",
}


def _findings(ev: Evidence, kinds: set[str]) -> Iterator[Finding]:
    if ev.tree is None:
        return
    ctx = _ctx(ev)
    seen: set[tuple[str | None, str | None]] = set()
    flagged: set[str] = set()
    for drop in ctx.drops:
        if drop.kind not in kinds:
            continue
        key = (drop.source, drop.target) if drop.in_place else (drop.source, str(drop.line))
        if key in seen:
            continue
        seen.add(key)
        if drop.kind == "missing" and drop.coerced and drop.source in flagged:
            continue  # the coercion that made these NaN is already the finding
        if drop.kind == "missing" and _triangle_cells(ctx.ev, drop):
            continue  # the NaN are development periods that have not happened yet
        summaries = ctx.summaries_after(drop)
        if drop.kind == "coerce" and not summaries:
            continue
        shown_n = None
        if drop.kind == "missing":
            shown_n = ctx.missing_report(drop)
            if shown_n == "full":
                continue
        elif ctx.reported(drop) or (drop.kind == "coerce" and _agg_counts(ctx, drop)):
            continue
        loss = _quantify(ctx, drop)
        gone: list[tuple[str, list[str], int]] = []
        if drop.kind == "coerce":
            shares, group = _threshold_shares(ctx, drop), _group_losses(ctx, drop)
        else:
            shares, (group, gone) = [], _level_losses(ctx, drop, loss)
        spread = _unmeasured_spread(ctx, drop, loss, group, gone)
        # measured spread: still say why the values failed to parse
        sep = separator_hint(ctx, drop) if drop.kind in ("coerce", "missing") else ""
        hint = sep if spread is None and group is not None else ""
        f = _judge(ev, drop, loss, summaries, shares, group, gone, only_after=shown_n == "after",
                   spread=spread, hint=hint, truncated=sep)
        if f is not None:
            if drop.kind == "coerce" and drop.target:
                flagged.add(drop.target)
            yield f


def _runoff_triangle(facts: ObjectFacts | None) -> bool:
    """A development (run-off) triangle: a small numeric frame whose columns are evenly
    spaced periods (development years 1..n, months 12, 24, ...) and whose NaN counts grow by
    the same step from a complete first column (0, 1, 2, ...): each later origin row has one
    period fewer, so the NaN are the cells of the lower right that do not exist yet, not
    records that went missing. Longitudinal dropout rarely gives exactly this staircase."""
    if facts is None or facts.kind != "dataframe" or not facts.rows or facts.rows > 100:
        return False
    cols = list(facts.dtypes)
    if len(cols) < 3 or any(not facts.dtypes[c].startswith(("float", "int", "Float", "Int"))
                            for c in cols):
        return False
    try:
        labels = [float(c) for c in cols]
    except ValueError:
        return False
    steps = {b - a for a, b in pairwise(labels)}
    if len(steps) != 1 or steps.pop() <= 0:
        return False
    counts = [facts.missing.get(c) for c in cols]
    if any(n is None for n in counts) or counts[0] != 0:
        return False
    rises = {b - a for a, b in pairwise(counts)}  # type: ignore[operator]
    if len(rises) != 1:
        return False
    rise = rises.pop()
    return rise >= 1 and counts[-1] < facts.rows  # type: ignore[operator]


def _picks_columns(node: ast.AST, frame: str) -> bool:
    """The drop reads chosen columns of `frame` (`tri[[d, d + 1]].dropna()`,
    `tri.loc[tri[c + 1].notna(), c]`), not every column of it."""
    for n in _walk(node):
        if not isinstance(n, ast.Subscript) or _root(n.value) != frame:
            continue
        part: ast.AST | None = n.slice
        if isinstance(n.value, ast.Attribute) and n.value.attr in ("loc", "iloc"):
            part = n.slice.elts[1] if isinstance(n.slice, ast.Tuple) and len(
                n.slice.elts) == 2 else None
        elif not isinstance(n.value, ast.Name):
            continue
        if part is not None and not isinstance(part, ast.Compare | ast.Call | ast.BoolOp |
                                               ast.UnaryOp | ast.Slice):
            return True
    return False


def _triangle_cells(ev: Evidence, drop: _Drop) -> bool:
    """A NaN drop on chosen periods of a run-off triangle (age-to-age factors on the origins
    observed at both ages): the cells skipped are future development, structure not loss.
    Dropping every incomplete row of the triangle (`tri.dropna()`) still counts."""
    src = drop.source or ""
    facts = ev.objects.get(src) or ev.before.get(src)
    return bool(src) and _runoff_triangle(facts) and _picks_columns(drop.node, src)


def _defined_group(ev: Evidence, gone: tuple[str, list[str], int], loss: _Loss) -> bool:
    """Every dropped row belongs to the vanished levels of one column and nothing else was
    lost (`gift` NaN exactly where `responded` is False), and the cell reads that column: the
    dropped rows are a group the analyst defines, not records that went missing."""
    col, _levels, rows = gone
    if loss.before is None or loss.after is None or rows != loss.before - loss.after:
        return False
    return re.search(r"[\"'.]" + re.escape(col) + r"\b", ev.code) is not None


# summaries decided by a few values in the tail, which a handful of parse failures can remove
_EXTREMES = {"max", "min", "quantile", "percentile", "describe", "nanmax", "nanmin",
             "nanpercentile", "nanquantile"}


def _parse_failures(drop: _Drop, loss: _Loss, stats: list[tuple[int, str]]) -> bool:
    """Under 2 % of rows lost (at least 0.5 % and 10 rows, read from the kernel), as values
    `errors="coerce"` could not parse (not empty cells), dropped or skipped before a maximum,
    minimum or percentile is reported: parse failures are systematic (a thousands separator,
    a unit suffix, an over-range marker), often exactly the extremes the few can decide."""
    if not (drop.kind == "coerce" or (drop.kind == "missing" and drop.coerced)):
        return False
    frac = loss.fraction
    if frac is None or loss.before is None or loss.after is None or loss.lower_bound:
        return False
    if not 0.005 <= frac < 0.02 or loss.before - loss.after < 10:
        return False
    return any(k in _EXTREMES for _, k in stats)


def _judge(ev: Evidence, drop: _Drop, loss: _Loss,
           summaries: list[tuple[int, str]], shares: list[tuple[int, str]] | None = None,
           group: tuple[str, str, int, int] | None = None,
           vanished: list[tuple[str, list[str], int]] | None = None,
           only_after: bool = False, spread: str | None = None, hint: str = "",
           truncated: str = "") -> Finding | None:
    frac = loss.fraction
    stats = [s for s in summaries if s[1] != "fit"]
    fits = [s for s in summaries if s[1] == "fit"]
    rare = _parse_failures(drop, loss, stats)
    # the values that failed to parse are the whole upper tail (what is left stops just under
    # a power of ten): every mean, total or maximum reported afterwards is biased low
    cut = bool(truncated) and bool(stats) and frac is not None and frac >= 0.02 and \
        loss.before is not None and loss.after is not None and \
        loss.before - loss.after >= 10 and not loss.lower_bound
    if rare or cut:
        only_after = False  # a count of the rows left says nothing of the values that failed
    elif frac is not None and frac < 0.02 and not cut:
        return None
    if only_after and (frac is None or (vanished and _defined_group(ev, vanished[0], loss))):
        # the cell shows the n left, and the loss is either unread or exactly the rows of
        # one category the cell itself names (non-responders' gifts): nothing to add
        return None
    shown = _shown_earlier(ev, drop)
    gfrac = group[2] / group[3] if group is not None and frac is not None else None
    # one group lost 5-10 %, at least twice the overall share: unequal, but not by enough
    # to call the comparison biased
    uneven = gfrac is not None and frac is not None and 0.05 <= gfrac < 0.10 and \
        gfrac >= 2 * frac
    if gfrac is not None and not uneven and (gfrac < 0.10 or gfrac < 1.5 * frac):
        gfrac, group = None, None
    if frac is not None and frac >= 0.10 and stats:
        severity, conf = "high", (0.9 if frac >= 0.3 else 0.85)
    elif gfrac is not None and stats and not uneven:
        # the loss concentrates in one group the cell reports
        severity, conf = "high", (0.85 if gfrac >= 0.2 else 0.8)
    elif cut:
        severity, conf = "high", 0.7
    elif uneven and stats:
        severity, conf = "medium", 0.55
    elif frac is not None and frac >= 0.10:
        severity, conf = "medium", 0.6
    elif rare:  # few parse failures, but an extreme the cell reports may be among them
        severity, conf = "medium", 0.55
    elif spread is not None and stats:
        # 5-10 % of values failed to parse, and nothing shows they fall evenly on the groups
        severity, conf = "medium", 0.55
    elif frac is not None and (shares or vanished):
        # NaN counted as not exceeding a limit, or whole categories gone
        severity, conf = "medium", 0.55
    elif drop.kind == "merge" and frac is not None and frac >= 0.05 and stats \
            and not only_after:
        # rows lost to unmatched keys are selected by the key, not at random: entities newer
        # than the lookup table, ids written another way
        severity, conf = "medium", 0.5
    elif frac is not None:
        severity, conf = "low", 0.5
    elif stats or fits:
        severity, conf = "medium", 0.45
    else:
        return None
    if severity == "high" and shown:
        severity, conf = "medium", conf - 0.15
    if severity == "high" and only_after and not vanished and gfrac is None:
        # the cell shows how many rows remain (an n, a test's degrees of freedom) but not
        # how many went: a reader who knows the raw count could see the loss (not that
        # whole categories vanished or one group lost far more)
        severity, conf = "medium", conf - 0.2
    if loss.lower_bound and severity == "high":
        conf -= 0.05
    src = f"`{drop.source}`" if drop.source else "the data"
    what = _WHAT.get(drop.kind, "drops rows")
    if drop.kind == "missing" and drop.coerced:
        what = "drops rows made NaN by `errors='coerce'`"
    if drop.kind == "coerce" and drop.parse:
        what = (f"parses text{f' `{drop.parsed_from}`' if drop.parsed_from else ''} with "
                f"`{drop.parse}`, which gives NaN wherever it fails (a format, unit or decimal "
                "separator the pattern does not cover), and the summary then skips them")

    via = f" (inside `{drop.via}()`)" if drop.via else ""
    cols = f" in {', '.join(f'`{c}`' for c in drop.columns[:4])}" if drop.columns and \
        drop.kind in ("missing", "coerce") else ""
    head = f"Line {drop.line}{via} {what}{cols} from {src}"
    if drop.kind == "coerce" and drop.inline_summary in _NAT_DROPPING:
        head = (f"Line {drop.line}{via} turns unparseable values{cols} of {src} into NaN/NaT "
                f"(`errors='coerce'`), and `{drop.inline_summary}` then silently leaves those "
                "rows out")
    values: dict[str, object] = {}
    if frac is not None and loss.before is not None and loss.after is not None:
        lost = loss.before - loss.after
        bound = "at least " if loss.lower_bound else ""
        gone = "are NaN after it" if drop.parse else "are gone"
        unit = "records" if drop.kind == "skipped" else "rows"
        head += (f": {bound}{lost} of {loss.before} {unit} ({bound}{_pct(frac)}) {gone} "
                 f"({loss.how})")
        values = {"rows_before": loss.before, "rows_after": loss.after,
                  "fraction_lost": round(frac, 4)}
    else:
        head += " (how many rows this removes could not be read from the kernel)"
    lines = [drop.line]
    if summaries:
        where = ", ".join(f"`{k}` on line {ln}" for ln, k in summaries[:3])
        head += f"; the cell then computes {where} on what is left"
        lines += [ln for ln, _ in summaries[:3]]
    head += (" without reporting how many records were skipped." if drop.kind == "skipped"
             else " without reporting how many rows were removed.")
    if group is not None and gfrac is not None:
        state = "are NaN" if drop.kind == "coerce" else "are gone"
        least = "at least " if drop.kind == "merge" and loss.lower_bound else ""
        head += (f" The loss is concentrated: {least}{group[2]} of the {group[3]} rows with "
                 f"`{group[0]}` = {group[1]!r} ({least}{_pct(gfrac)}) {state}, against "
                 f"{_pct(frac or 0)} overall, so the per-`{group[0]}` figures compare groups "
                 "thinned unequally.")
        values["group_fraction_lost"] = round(gfrac, 4)
    if vanished:
        col, levels, rows = vanished[0]
        names = ", ".join(repr(lv) for lv in levels[:6]) + (", …" if len(levels) > 6 else "")
        head += (f" Whole categories vanish: every row with `{col}` in {names} ({rows} rows "
                 "before) is gone, so they are absent from every figure.")
        values["levels_gone"] = {col: levels[:10]}
    if shares and frac is not None and loss.before is not None and loss.after is not None:
        ln, text = shares[0]
        head += (f" `{text}` on line {ln} counts every NaN as not meeting the limit (NaN "
                 f"compares False), so a share over the limit can be off by up to "
                 f"{100 * frac:.1f} percentage points, and values that failed to parse are "
                 "often the out-of-range ones ('OVER', '>13', '<LOD').")
    if spread is not None and stats:
        head += spread
    head += hint
    if cut:
        head += ("" if hint else truncated) + (
            " So the rows dropped are not a random few but the top of the distribution, and "
            "every mean, total or maximum computed on what is left is biased low. Strip the "
            "separator first "
            "(`s.str.replace(',', '')`) and count what still fails.")
    if rare and not cut:
        ext = sorted({k for _, k in stats if k in _EXTREMES})
        hit = (f"the extremes that `{'`, `'.join(ext)}` report" if ext else
               "a whole tail or condition of the summary")
        head += (" Values that fail to parse are rarely a random few: a thousands separator, "
                 "a unit or an over-range marker ('1,250', '3.2k', '>500') fails on exactly "
                 f"the large or censored values, so even this share can remove {hit}. Count "
                 "the failures (`coerced.isna().sum() - raw.isna().sum()`) and print a few "
                 "of the raw strings before dropping them.")
    if only_after and loss.before is not None:
        head += (f" The cell shows only how many rows remain (an n or a test's degrees of "
                 f"freedom), not that {loss.before} went in.")
    if shown:
        head += " (An earlier cell showed the missing values or status counts.)"
    if drop.kind == "failed":
        head += (" Failed runs are rarely missing at random: the summary describes only the "
                 "runs that succeeded.")
    elif drop.kind == "merge":
        head += " Unmatched keys often mean inconsistent IDs rather than absent data."
        if severity == "medium" and frac is not None and frac < 0.10:
            head += (" Rows lost to a join are selected by their key, not at random (entities "
                     "newer than the lookup table, ids written another way), so even this "
                     "share can shift the figures if those entities differ.")
    elif drop.kind == "skipped":
        head += (" The records that fail to parse are rarely a random sample (an unhandled "
                 "format, unit or range), so the summary describes only the easy cases.")
    elif frac is not None and frac >= 0.10:
        head += " If missingness relates to the outcome, the summary is biased."
    return Finding(explanation=head, severity=severity, confidence=conf,
                   evidence={"lines": sorted(set(lines)), "values": values},
                   suggestion=_SUGGEST[drop.kind if drop.kind in _SUGGEST else "missing"])


_SUGGEST = {
    "missing": "Report the loss next to the result: `n0 = len(df); df = df.dropna(subset=[...]);"
               " print(f'dropped {n0 - len(df)} of {n0} rows')` (or show `df.isna().sum()`), "
               "and say whether missingness could relate to the outcome (or impute and say so).",
    "coerce": "Count what coercion destroyed: `bad = df[col].notna() & converted.isna(); "
              "print(bad.sum(), 'unparseable values')`, and show a few of them before "
              "summarising.",
    "failed": "Report how many runs failed and where: `print(df.status.value_counts())` (per "
              "condition), and consider whether failures depend on the condition you compare.",
    "merge": "Check the merge: `merged = a.merge(b, on=key, how='left', indicator=True)` and "
             "print `merged._merge.value_counts()`, or `assert len(merged) == len(a)`.",
    "skipped": "Record what fails instead of skipping it: append the failing records to a "
               "list in the `except` clause and print how many (and a few examples) before "
               "summarising; better, fix the parser for the formats it misses.",
}


@rule("data_loss.silent_dropna",
      title="Rows with missing values dropped silently before a summary")
def silent_dropna(ev: Evidence) -> Iterator[Finding]:
    """`dropna`, `notna` masks or `to_numeric(errors='coerce')` remove rows, and the cell
    summarises what is left without saying how many rows went."""
    yield from _findings(ev, {"missing", "coerce"})


@rule("data_loss.failed_rows_filtered",
      title="Failed or invalid runs filtered out silently before a summary")
def failed_rows_filtered(ev: Evidence) -> Iterator[Finding]:
    """Keeping only `status == 'ok'` rows (or `~failed`, `converged`, …), or skipping every
    record whose parsing raises (`except ...: continue` in the loop that builds the data), and
    summarising what is left without reporting how many were excluded."""
    yield from _findings(ev, {"failed", "skipped"})


@rule("data_loss.inner_merge_loss",
      title="Inner merge silently dropped unmatched rows")
def inner_merge_loss(ev: Evidence) -> Iterator[Finding]:
    """An inner `merge`/`join` loses every row whose key has no match, and the cell does
    not check how many."""
    yield from _findings(ev, {"merge"})
