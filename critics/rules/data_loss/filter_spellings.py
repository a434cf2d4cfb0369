"""`filter_misses_spellings`: a filter on listed values (`isin`, `==`, `query("x in
@names")`) that misses other spellings of the same categories in the column's levels."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...code_model import called_name as _call_last
from ...code_model import const_strs
from ...code_model import root_name as _root
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ..suspicious_values import CellIndex
from ._context import _ctx
from ._scan import _column_of, _pct

# -- filters on listed values that miss the column's spellings ------------------------------------

_QUERY_IN = re.compile(r"`?([A-Za-z_][\w ]*?)`?\s+in\s+(@\w+|\[[^\]]*\]|\([^)]*\))")
_QUERY_EQ = re.compile(r"`?([A-Za-z_]\w*)`?\s*==\s*(@\w+|'[^']*'|\"[^\"]*\")")


def _norm_level(s: str) -> str:
    """A spelling-insensitive form of a category: case, surrounding blanks, runs of
    blanks/underscores and hyphens between letters do not matter."""
    s = re.sub(r"(?<=\w)-(?=\w)", " ", s.strip().casefold())
    return re.sub(r"[\s_]+", " ", s).strip()


def _named_strs(ev: Evidence, name: str, line: int) -> list[str] | None:
    """The strings a name was last bound to before `line` (in the cell, else earlier cells):
    `channels = ["Email", "Social"]`."""
    found: list[str] | None = None
    for a in ev.model.assignments:
        if a.line < line and a.targets == [name] and a.value is not None:
            found = const_strs(a.value)
    if found is not None or not ev.prior_code or name not in ev.prior_code:
        return found
    try:
        prior = ast.parse(ev.prior_code)
    except SyntaxError:
        return None
    for st in prior.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(
                st.targets[0], ast.Name) and st.targets[0].id == name:
            found = const_strs(st.value)
    return found


def _strs_of(ev: Evidence, node: ast.AST | None, line: int) -> list[str] | None:
    if isinstance(node, ast.Name):
        return _named_strs(ev, node.id, line)
    if isinstance(node, ast.Call) and _call_last(node) in ("list", "set", "tuple", "sorted") \
            and len(node.args) == 1:
        return _strs_of(ev, node.args[0], line)
    return const_strs(node)


def _query_strs(ev: Evidence, text: str, line: int) -> list[str] | None:
    text = text.strip()
    if text.startswith("@"):
        return _named_strs(ev, text[1:], line)
    try:
        return const_strs(ast.parse(text, mode="eval").body)
    except SyntaxError:
        return None


def _value_filters(ev: Evidence, walk: CellIndex) -> list[tuple[ast.AST, ast.stmt, str, str,
                                                                list[str]]]:
    """(filtering node, its statement, frame, column, listed values) of every row filter
    that keeps listed values of a text column: `df[df.c.isin([...])]`, `df.loc[df["c"] ==
    "v"]`, `df.query("c in @names")`, `df.query("c == 'v'")` (negated conditions and `|`
    are left out: they keep rows rather than select them)."""
    out: list[tuple[ast.AST, ast.stmt, str, str, list[str]]] = []
    for node, st, fn in walk.items:
        if fn is not None or st is None or isinstance(st, ast.FunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.Call) and _call_last(node) == "query" and isinstance(
                node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and \
                node.args and isinstance(node.args[0], ast.Constant) and \
                isinstance(node.args[0].value, str):
            q = node.args[0].value
            if re.search(r"\bor\b|\||\bnot\b|~|!=", q):
                continue
            for m in _QUERY_IN.finditer(q):
                vals = _query_strs(ev, m.group(2), node.lineno)
                if vals:
                    out.append((node, st, node.func.value.id, m.group(1).strip(), vals))
            for m in _QUERY_EQ.finditer(q):
                vals = _query_strs(ev, m.group(2), node.lineno)
                if vals:
                    out.append((node, st, node.func.value.id, m.group(1), vals))
            continue
        if not isinstance(node, ast.Subscript):
            continue
        value, mask = node.value, node.slice
        if isinstance(value, ast.Attribute) and value.attr == "loc":
            value = value.value
            if isinstance(mask, ast.Tuple) and mask.elts:
                mask = mask.elts[0]
        if not isinstance(value, ast.Name):
            continue
        conjuncts: list[ast.AST] = []
        stack = [mask]
        while stack:
            m = stack.pop()
            if isinstance(m, ast.BinOp) and isinstance(m.op, ast.BitAnd):
                stack += [m.left, m.right]
            else:
                conjuncts.append(m)
        for c in conjuncts:
            col_node, listed = None, None
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and \
                    c.func.attr in ("isin", "eq") and c.args:
                col_node, listed = c.func.value, c.args[0]
            elif isinstance(c, ast.Compare) and len(c.ops) == 1 and isinstance(c.ops[0], ast.Eq):
                col_node, listed = c.left, c.comparators[0]
                if _column_of(col_node) is None:
                    col_node, listed = listed, col_node
            col = _column_of(col_node)
            if col is None or _root(col_node) != value.id:
                continue
            vals = _strs_of(ev, listed, node.lineno)
            if vals:
                out.append((node, st, value.id, col, vals))
    return out


def _spelling_gaps(listed: list[str], levels: dict[str, int]) -> tuple[
        dict[str, list[str]], dict[str, list[str]]]:
    """({listed value: levels spelled like it but left out}, {listed value: close levels
    that may be the same category}). A level is 'spelled like' a listed value when they are
    equal ignoring case, blanks, underscores and hyphens (case alone only for codes of 3+
    characters: `A` and `a` can be different alleles or grades); 'close' by difflib."""
    import difflib

    keep = set(listed)
    same: dict[str, list[str]] = {}
    close: dict[str, list[str]] = {}
    norm_listed = {v: _norm_level(v) for v in listed}
    for lev in levels:
        if lev in keep:
            continue
        nl = _norm_level(lev)
        for v, nv in norm_listed.items():
            if nl == nv and (len(nv) >= 3 or lev.strip().lower() != v.strip().lower()
                             or lev.strip() != lev):
                same.setdefault(v, []).append(lev)
                break
        else:
            prefixed = [v for v, nv in norm_listed.items() if len(nv) >= 4 and (
                nl.startswith(nv + " ") or nl.endswith(" " + nv))]
            if prefixed:
                close.setdefault(prefixed[0], []).append(lev)
            elif len(nl) >= 4:
                hit = difflib.get_close_matches(nl, list(norm_listed.values()), n=1, cutoff=0.8)
                if hit:
                    v = next(k for k, nv in norm_listed.items() if nv == hit[0])
                    if v not in levels:  # the listed spelling is absent: a typo in the list
                        same.setdefault(v, []).append(lev)
                    else:
                        close.setdefault(v, []).append(lev)
    return same, close


@rule("data_loss.filter_misses_spellings",
      title="Filter on listed values misses other spellings of the same categories")
def filter_misses_spellings(ev: Evidence) -> Iterator[Finding]:
    """`df[df.channel.isin(["Email", "Social"])]`, `df.query("channel in @names")`, `df[df.city
    == "new york"]`: the kernel lists the column's levels, and some of them are the listed
    categories spelled differently (`"email "`, `"paid_search"`, `"New York"`) or a listed
    value is absent while a near spelling holds rows (a typo in the list). Those rows are
    dropped silently, usually not at random (one data source, one app, one clerk), so every
    total, rate or ranking computed from the filtered rows is off. High (0.85) when at least
    5% of the rows meant to be kept are lost and a summary follows without any count being
    reported; medium otherwise (from 2%). Close-but-unequal levels (`"social_ads"` for
    `"Social"`) are named in the explanation, not counted."""
    if ev.tree is None or not any(k in ev.code for k in ("isin", "==", ".eq(", "query")):
        return
    ctx = _ctx(ev)
    seen: set[tuple[str, str, int]] = set()
    for node, st, frame, col, listed in _value_filters(ev, ctx.walk):
        facts = ev.objects.get(frame)
        if facts is None or facts.kind != "dataframe" or col not in facts.levels or \
                ctx.rebound_after(frame, node.lineno) or (frame, col, node.lineno) in seen:
            continue
        levels = facts.levels[col]
        if facts.unique.get(col, 0) > len(levels):
            continue  # levels from a truncated listing: absence proves nothing
        same, close = _spelling_gaps(listed, levels)
        if not same:
            continue
        seen.add((frame, col, node.lineno))
        lost = sum(levels[lev] for levs in same.values() for lev in levs)
        kept = sum(levels.get(v, 0) for v in set(listed))
        frac = lost / (lost + kept) if lost + kept else 0.0
        if frac < 0.02:
            continue
        drop = ctx.sites._make("values", node, st, ast.Name(id=frame), [col])
        summaries = ctx.summaries_after(drop)
        reported = ctx.reported(drop)
        if frac >= 0.05 and summaries and not reported:
            severity, confidence = "high", 0.85
        else:
            severity, confidence = "medium", 0.55
        pairs = "; ".join(
            f"{v!r} is also spelled " + ", ".join(f"{lev!r} ({levels[lev]} rows)"
                                                 for lev in levs[:4])
            if v in levels else
            f"{v!r} is not in the column, but " + ", ".join(
                f"{lev!r} ({levels[lev]} rows)" for lev in levs[:4]) + " is"
            for v, levs in list(same.items())[:5])
        maybe = ""
        if close:
            maybe = (" Possibly the same categories too: " + "; ".join(
                f"{lev!r} ({levels[lev]} rows) for {v!r}" for v, levs in list(
                    close.items())[:3] for lev in levs[:2]) + ".")
        then = ""
        if summaries:
            then = " The cell then computes " + ", ".join(
                f"`{k}` on line {ln}" for ln, k in summaries[:3]) + " on what is left."
        yield Finding(
            explanation=(f"Line {node.lineno} keeps the rows of `{frame}` whose `{col}` is one "
                         f"of {len(set(listed))} listed value(s), but the column spells some of "
                         f"them differently: {pairs}. Those {lost} rows ({_pct(frac)} of the "
                         f"{lost + kept} rows meant to be kept) are dropped without a "
                         f"trace.{maybe}{then} Rows with a variant spelling usually come from "
                         "one source (an app, a site, a form version), so the totals and "
                         "rankings are biased, not just smaller."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({node.lineno, *(ln for ln, _ in summaries[:3])}),
                      "values": {"column": col, "rows_lost": lost, "rows_kept": kept,
                                 "variants": {v: levs[:4] for v, levs in same.items()}}},
            suggestion=(f"Normalise the categories before filtering (`{frame}['{col}'].str."
                        "strip().str.casefold()` plus a mapping of known aliases), then print "
                        f"the rows the filter leaves out (`{frame}.loc[~mask, '{col}']."
                        "value_counts()`) and check it is empty or intended."))
