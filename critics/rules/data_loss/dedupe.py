"""`dedupe_wrong_key`: duplicates removed on a key coarser than a record (a customer, not an
order), judged from the kernel's rows kept against rows there were and the distinct values
of the columns the cell then summarises."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import name_tokens as _tokens
from ...code_model import names_in as _names
from ...code_model import root_name as _root
from ...evidence import Evidence, ObjectFacts
from ...findings import Finding
from ...rule import rule
from ._context import _Ctx, _ctx
from ._loss import _rows
from ._scan import _column_of, _Drop, _pct, _str_list

# -- deduplication on a key that does not identify the records -----------------------------------

_ID_TOKENS = {"id", "key", "uuid", "guid", "no", "num", "number", "ref", "code"}
_SORTS = {"sort_values", "sort_index", "nlargest", "nsmallest"}


def _dedupe_keys(node: ast.AST) -> tuple[ast.AST, list[str], bool] | None:
    """(frame expression, key columns, keep=False) of `df.drop_duplicates(subset=K)`,
    `df.drop_duplicates(K)`, `df[~df.duplicated(K)]`, `df.loc[~df["k"].duplicated()]`.
    Whole-row deduplication (no subset) is not a key choice and gives None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "drop_duplicates":
        subset = next((k.value for k in node.keywords if k.arg == "subset"), None)
        if subset is None and node.args:
            subset = node.args[0]
        keys = _str_list(subset)
        keep = next((k.value for k in node.keywords if k.arg == "keep"), None)
        frame = node.func.value
        if subset is None:  # whole rows of a column selection: `df[["a", "b"]]`
            frame, keys = _projection(frame)
        return (frame, keys, isinstance(keep, ast.Constant) and keep.value is False) \
            if keys else None
    if not isinstance(node, ast.Subscript):
        return None
    value, mask = node.value, node.slice
    if isinstance(value, ast.Attribute) and value.attr == "loc":
        value = value.value
        if isinstance(mask, ast.Tuple) and mask.elts:
            mask = mask.elts[0]
    if not (isinstance(mask, ast.UnaryOp) and isinstance(mask.op, ast.Invert)):
        return None
    call = mask.operand
    if not (isinstance(call, ast.Call) and _call_last(call) == "duplicated"
            and isinstance(call.func, ast.Attribute)):
        return None
    recv = call.func.value
    if _root(recv) != _root(value):
        return None
    subset = next((k.value for k in call.keywords if k.arg == "subset"), None)
    if subset is None and call.args:
        subset = call.args[0]
    keys = _str_list(subset)
    if not keys and _column_of(recv):
        keys = [_column_of(recv) or ""]  # df["k"].duplicated()
    keep = next((k.value for k in call.keywords if k.arg == "keep"), None)
    return (value, keys, isinstance(keep, ast.Constant) and keep.value is False) \
        if keys else None


def _projection(node: ast.AST) -> tuple[ast.AST, list[str]]:
    """(frame, columns) of `df[["a", "b"]]` / `df.loc[:, ["a", "b"]]`: deduplicating whole
    rows of a column selection keys on those columns. ([] for anything else.)"""
    if isinstance(node, ast.Subscript):
        value, sl = node.value, node.slice
        if isinstance(value, ast.Attribute) and value.attr == "loc" and \
                isinstance(sl, ast.Tuple) and len(sl.elts) == 2 and \
                isinstance(sl.elts[0], ast.Slice):
            value, sl = value.value, sl.elts[1]
        if isinstance(sl, ast.List | ast.Tuple):
            cols = _str_list(sl)
            if cols and len(cols) == len(sl.elts):
                return value, cols
    return node, []


_RECORD_ID_TOKENS = _ID_TOKENS | {"tag", "uid", "serial", "barcode", "sku", "accession",
                                  "ticket", "invoice", "receipt", "isbn", "guid"}


def _record_ids(facts: ObjectFacts, keys: list[str], kept: int) -> list[tuple[str, int]]:
    """Identifier columns left out of the key (`tree_tag`, `order_id`) with more distinct
    values than the rows kept: rows with different identifiers were merged away."""
    rows = facts.rows or 0
    out: list[tuple[str, int]] = []
    for c, dtype in facts.dtypes.items():
        if c in keys or dtype.startswith("float"):
            continue
        n = facts.unique.get(c, 0)
        named = bool(set(_tokens(c)) & _RECORD_ID_TOKENS) or c.lower().endswith("id")
        if (named or (rows and n >= 0.95 * rows)) and n > max(1.2 * kept, kept + 5):
            out.append((c, n))
    return out


def _sorted_first(ctx: _Ctx, frame_expr: ast.AST, line: int) -> bool:
    """The rows were ordered before one per key was kept (`df.sort_values("date")
    .drop_duplicates("customer_id", keep="last")`): a deliberate latest/first record."""
    for sub in _walk(frame_expr):
        if isinstance(sub, ast.Call) and _call_last(sub) in _SORTS:
            return True
    root = _root(frame_expr)
    return any(c.line <= line and c.last in _SORTS and (
        root in c.targets or (c.receiver_root == root and c.kwarg_value("inplace") is True))
        for c in ctx.model.calls)


def _used_columns(ctx: _Ctx, drop: _Drop, columns: set[str]) -> list[str]:
    """Columns of the deduplicated frame the rest of the cell reads (in the dedupe statement
    itself and in statements using what it produced)."""
    stmts = [drop.stmt]
    if drop.target and drop.target != "<return>":
        tainted = ctx.downstream({drop.target}, drop.line)
        stmts += [c.stmt for c in ctx.model.calls if c.line > drop.line and (
            ({c.receiver_root} | _names(c.node)) & tainted)]
    used: list[str] = []
    for st in stmts:
        for sub in _walk(st):
            text = sub.value if isinstance(sub, ast.Constant) and isinstance(
                sub.value, str) else sub.attr if isinstance(sub, ast.Attribute) else None
            if text in columns and text not in used:
                used.append(text)
    return used


@rule("data_loss.dedupe_wrong_key",
      title="Duplicates removed on a key that does not identify the records")
def dedupe_wrong_key(ev: Evidence) -> Iterator[Finding]:
    """`drop_duplicates(subset=K)` (or `df[~df.duplicated(K)]`) keeps one row per K. When K
    is coarser than a record (a customer, not an order) every other row of that customer is
    discarded, though it was a distinct record, and totals or means are computed on what is
    left. Judged from the kernel: the rows kept (distinct K) against the rows there were, and
    columns the cell then summarises that have many more distinct values than rows kept
    (so the deduplication threw away distinct records, not copies). Quiet when the rows were
    sorted first (a deliberate latest record per key), when the loss is reported, or when only
    per-key attributes are used afterwards."""
    if ev.tree is None or "duplicat" not in ev.code:
        return
    ctx = _ctx(ev)
    seen: set[int] = set()
    for node, st, fn in ctx.walk.items:
        if st is None or fn is not None or isinstance(
                st, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        found = _dedupe_keys(node)
        if found is None or node.lineno in seen:  # type: ignore[attr-defined]
            continue
        frame_expr, keys, keep_none = found
        drop = ctx.sites._make("dedupe", node, st, frame_expr, keys)
        seen.add(drop.line)
        if _sorted_first(ctx, frame_expr, drop.line):
            continue
        summaries = [s for s in ctx.summaries_after(drop) if s[1] != "fit"]
        if not summaries:
            continue
        f = _judge_dedupe(ctx, drop, keys, keep_none, summaries, ctx.reported(drop))
        if f is not None:
            yield f


def _judge_dedupe(ctx: _Ctx, drop: _Drop, keys: list[str], keep_none: bool,
                  summaries: list[tuple[int, str]], reported: bool = False) -> Finding | None:
    """`reported`: the cell says how many rows remain. That answers silence, not a wrong
    key, so only distinct record identifiers merged away still count then."""
    ev = ctx.ev
    by_id = False
    src = drop.source or ""
    facts = ev.objects.get(src)
    rows = kept = None
    finer: list[tuple[str, int]] = []
    if drop.in_place:
        before, after = _rows(ev.before.get(src)), _rows(facts)
        if before and after is not None and not ctx.rebound_after(src, drop.line):
            rows, kept = before, after
    elif facts is not None and facts.kind == "dataframe" and facts.rows and \
            not ctx.rebound_after(src, drop.line):
        rows = facts.rows
        target = ev.objects.get(drop.target or "")
        if drop.target and target is not None and target.kind == "dataframe" and \
                not ctx.rebound_after(drop.target, drop.line):
            kept = target.rows
        elif len(keys) == 1 and keys[0] in facts.unique and not keep_none:
            kept = facts.unique[keys[0]] + (1 if facts.missing.get(keys[0]) else 0)
        if kept:
            used = _used_columns(ctx, drop, set(facts.dtypes) - set(keys))
            finer = [(c, facts.unique[c]) for c in used
                     if facts.unique.get(c, 0) > max(1.2 * kept, kept + 5)]
            # the key is made of measured values (a float among them, no identifier): rows
            # that merely share those values are merged, though their record ids differ
            measured = any(facts.dtypes.get(k, "").startswith("float") for k in keys)
            id_key = any(set(_tokens(k)) & _RECORD_ID_TOKENS or k.lower().endswith("id")
                         for k in keys)
            if not finer and measured and not id_key:
                finer = _record_ids(facts, keys, kept)
                by_id = bool(finer)
    if reported and not by_id:
        return None
    key_txt = ", ".join(f"`{k}`" for k in keys)
    lines = sorted({drop.line, *(ln for ln, _ in summaries[:3])})
    what = ", ".join(f"`{k}`" for _, k in summaries[:3])
    if rows and kept is not None:
        frac = max(0, rows - kept) / rows
        if frac < 0.05:
            return None
        if finer and frac >= 0.2:
            severity, conf = "high", (0.85 if frac >= 0.4 else 0.8)
        elif finer:
            severity, conf = "medium", 0.55
        elif drop.in_place and frac >= 0.2:
            severity, conf = "medium", 0.5  # no per-column facts left to tell copies apart
        else:
            return None  # only per-key attributes are used afterwards: one row per key is fine
        head = (f"Line {drop.line} keeps one row per {key_txt} and discards the rest: "
                f"{rows - kept} of {rows} rows ({_pct(frac)}) of `{src}` are gone")
        if by_id:
            col, n = max(finer, key=lambda cn: cn[1])
            head += (f", although its record identifier `{col}` takes {n} distinct values: "
                     f"rows of different records that merely share the measured values "
                     f"{key_txt} were merged into one, not just copies removed (only {kept} "
                     "rows remain)")
        elif finer:
            col, n = max(finer, key=lambda cn: cn[1])
            head += (f", although `{col}` takes {n} distinct values in `{src}`: the discarded "
                     f"rows were distinct records, not copies (only {kept} rows remain)")
        values: dict[str, object] = {"rows_before": rows, "rows_after": kept,
                                     "fraction_lost": round(frac, 4),
                                     "finer_columns": dict(finer[:4])}
    elif facts is None:  # code only: the cell goes on to use a finer identifier
        used = _used_columns(ctx, drop, set(ctx.model.string_constants) - set(keys))
        other_ids = [c for c in used if set(_tokens(c)) & _ID_TOKENS]
        if not other_ids:
            return None
        severity, conf = "medium", 0.4
        head = (f"Line {drop.line} keeps one row per {key_txt}, yet the cell then works with "
                f"`{other_ids[0]}`, a finer identifier: every other record of the same "
                f"{key_txt} is discarded (how many could not be read from the kernel)")
        values = {"other_identifier": other_ids[0]}
    else:
        return None  # several key columns: how many rows one per key keeps is not known
    head += (f"; the cell then computes {what} on what is left"
             + (" without saying how many rows were removed" if not reported else "")
             + ". Deduplicating on a key that does not identify a record silently drops real "
             "rows and biases totals and means.")
    return Finding(
        explanation=head, severity=severity, confidence=conf,
        evidence={"lines": lines, "values": values},
        suggestion=("Deduplicate on the column(s) that identify one record (an order or "
                    "transaction id) or on all columns (`df.drop_duplicates()`), and print how "
                    "many rows were removed: `n0 = len(df); df = df.drop_duplicates(subset="
                    "['order_id']); print(f'removed {n0 - len(df)} duplicate rows')`. If one "
                    "row per key is intended, sort first and say which row is kept."))
