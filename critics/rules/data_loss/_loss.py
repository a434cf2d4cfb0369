"""How many rows a drop removed (`_Loss`, `_quantify`): from the kernel's shapes before and
after, the raw and cleaned frames, merge inputs, the NaN a coercion or parse made, or the
source's NaN counts as a lower bound; and where a coercion's NaN matter more than their
overall share (threshold shares, group totals, one group's losses)."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import root_name as _root
from ...evidence import ObjectFacts
from ._context import _Ctx
from ._scan import _column_of, _Drop, _grouping_keys, _num, _str_list

# -- quantifying the loss ---------------------------------------------------------------------


@dataclass
class _Loss:
    before: int | None = None
    after: int | None = None
    fraction: float | None = None
    lower_bound: bool = False
    how: str = ""
    side: str | None = None  # merge: the input whose rows were counted


def _rows(facts: ObjectFacts | None) -> int | None:
    if facts is None or facts.kind not in ("dataframe", "series", "ndarray"):
        return None
    return facts.rows


def _quantify(ctx: _Ctx, drop: _Drop) -> _Loss:
    ev = ctx.ev
    src, tgt = drop.source, drop.target
    if drop.kind == "coerce":
        return _coerce_loss(ctx, drop)
    if drop.kind == "skipped":
        return _skipped_loss(ctx, drop)
    if drop.kind == "merge":
        return _merge_loss(ctx, drop)
    if drop.in_place and src:
        before = _rows(ev.before.get(src))
        together = sorted({d.line for d in ctx.drops if d.in_place and d.source == src})
        last = max(together, default=drop.line)
        after = _rows(ev.objects.get(src))
        first = min(together, default=drop.line)
        how = "rows before and after the cell"
        if ctx.assigned_before(src, first):
            before, how = _copied_rows(ctx, src, first)
        if before and after is not None and not ctx.rebound_after(src, last):
            if len(together) > 1:
                how += f", lines {', '.join(map(str, together))} together"
            return _Loss(before, after, max(0, before - after) / before, how=how)
        return _Loss()
    reshape = _reshape_in_receiver(drop)
    if reshape is not None:
        return _reshaped_loss(ctx, drop, *reshape)
    if src and tgt and tgt != "<return>":
        before = _rows(ev.objects.get(src))
        after = _rows(ev.objects.get(tgt))
        if before and after is not None and not ctx.rebound_after(src, drop.line) \
                and not ctx.rebound_after(tgt, drop.line):
            if drop.kind == "merge" and after >= before:
                return _Loss(before, after, 0.0, how="rows of the frames")
            return _Loss(before, after, max(0, before - after) / before,
                         how=f"rows of `{src}` and `{tgt}`")
    return _missing_bound(ctx, drop)


_RESHAPES = {"pivot", "pivot_table", "unstack"}
_EXACT_UNIQUE_ROWS = 100_000  # the kernel counts distinct values over every row up to this


def _reshape_in_receiver(drop: _Drop) -> tuple[ast.Call, str] | None:
    """(call, name) of a long-to-wide reshape in the chain the dropna is called on
    (`panel.pivot(index="pid", columns="wave", values="y").dropna()`): the rows dropped are
    the reshaped table's (one per `pid`), not the source's."""
    if drop.kind != "missing" or not isinstance(drop.node, ast.Call) or not isinstance(
            drop.node.func, ast.Attribute):
        return None
    cur: ast.AST = drop.node.func.value
    for _ in range(12):
        if isinstance(cur, ast.Call):
            last = _call_last(cur)
            if last in _RESHAPES:
                return cur, last
            cur = cur.func
        elif isinstance(cur, ast.Attribute | ast.Subscript):
            cur = cur.value
        else:
            break
    return None


def _reshape_rows_key(call: ast.Call, last: str) -> str | None:
    """The one column whose distinct values are the reshaped table's rows: `index=` of a
    pivot, or the first of two keys before `.unstack()` (`df.set_index(["id", "t"])["y"]
    .unstack()`, `df.groupby(["id", "t"]).y.mean().unstack()`)."""
    if last in ("pivot", "pivot_table"):
        idx = next((k.value for k in call.keywords if k.arg == "index"), None)
        if idx is None and last == "pivot" and call.args:
            idx = call.args[0]
        cols = _str_list(idx)
        return cols[0] if len(cols) == 1 else None
    if call.args or call.keywords:
        return None  # unstack(level=...): which level becomes columns is not the last
    cur: ast.AST = call.func
    for _ in range(10):
        if isinstance(cur, ast.Call) and _call_last(cur) in ("set_index", "groupby"):
            keys = _str_list(cur.args[0]) if cur.args else []
            return keys[0] if len(keys) == 2 else None
        if isinstance(cur, ast.Call):
            cur = cur.func
        elif isinstance(cur, ast.Attribute | ast.Subscript):
            cur = cur.value
        else:
            break
    return None


def _reshaped_loss(ctx: _Ctx, drop: _Drop, call: ast.Call, last: str) -> _Loss:
    """Rows of the reshaped table (distinct values of its row key in the source, from the
    kernel) against rows left after the dropna."""
    ev = ctx.ev
    key = _reshape_rows_key(call, last)
    src, tgt = _root(call), drop.target
    facts = ev.objects.get(src or "")
    if key is None or facts is None or not tgt or tgt == "<return>" or ctx.rebound_after(
            tgt, drop.line) or ctx.rebound_after(src or "", drop.line):
        return _Loss()
    if not facts.rows or facts.rows > _EXACT_UNIQUE_ROWS or facts.missing.get(key):
        return _Loss()
    before, after = facts.unique.get(key), _rows(ev.objects.get(tgt))
    if not before or after is None or after > before:
        return _Loss()
    return _Loss(before, after, (before - after) / before,
                 how=f"distinct `{key}` in `{src}` (the rows of the `{last}` table) against "
                     f"rows of `{tgt}`")


def _copied_rows(ctx: _Ctx, name: str, line: int) -> tuple[int | None, str]:
    """(rows, how) when `name` was made in this cell, before `line`, only as a whole copy of
    another frame (`pay = payments.copy()` or `pay = payments`) that keeps its rows: the
    rows the in-place drops started from."""
    drop_lines = {d.line for d in ctx.drops}
    made = [st for st in ctx.name_assigns.get(name, ()) if st.lineno < line
            and st.lineno not in drop_lines]
    if len(made) != 1:
        return None, ""
    v = made[0].value
    if isinstance(v, ast.Call) and _call_last(v) == "copy" and isinstance(
            v.func, ast.Attribute) and not v.args:
        v = v.func.value
    if not isinstance(v, ast.Name) or v.id == name or ctx.rebound_after(v.id, 0):
        return None, ""
    rows = _rows(ctx.ev.objects.get(v.id))
    return rows, f"rows of `{v.id}` copied on line {made[0].lineno} and of `{name}` after"


def _whole_frame(node: ast.AST) -> bool:
    """`df` or a projection of its columns (`df[["k", "g"]]`): every row of the name."""
    if isinstance(node, ast.Name):
        return True
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and bool(
        _str_list(node.slice))


def _merge_loss(ctx: _Ctx, drop: _Drop) -> _Loss:
    """Rows of each input against rows of the result: every matched row of an input gives
    at least one result row, so an input with more rows than the result lost at least the
    difference (exactly, when the other input's key is unique). The side losing the largest
    share is the one reported."""
    ev = ctx.ev
    tgt = drop.target
    if not tgt or tgt == "<return>" or ctx.rebound_after(tgt, drop.line):
        return _Loss()
    after = _rows(ev.objects.get(tgt))
    if after is None:
        return _Loss()
    best: _Loss | None = None
    for i, (node, _keys) in enumerate(drop.sides):
        name = _root(node)
        if not name or not _whole_frame(node) or name == tgt or ctx.rebound_after(
                name, drop.line):
            continue
        before = _rows(ev.objects.get(name))
        if not before:
            continue
        lost = max(0, before - after)
        other = drop.sides[1 - i] if len(drop.sides) == 2 else None
        exact = False
        if other is not None and len(other[1]) == 1:
            of = ev.objects.get(_root(other[0]) or "")
            if of is not None and _whole_frame(other[0]) and of.rows and \
                    of.unique.get(other[1][0]) == of.rows:
                exact = True
        loss = _Loss(before, after, lost / before, lower_bound=not exact and lost > 0,
                     how=f"rows of `{name}` and `{tgt}`" + (
                         "" if exact or not lost else "; each matched row gives at least "
                         "one merged row"), side=name)
        if best is None or (loss.fraction or 0) > (best.fraction or 0):
            best = loss
    return best or _Loss()


def _skipped_loss(ctx: _Ctx, drop: _Drop) -> _Loss:
    """Records walked against records kept: the source's rows (or length) and the length
    of the list the loop appends to, or, when it appends into lists inside a container
    (`by_arm[arm].append(x)`), the sizes of the samples a statistical test then takes from
    that container (`ttest_ind(by_arm["a"], by_arm["b"])`: n_a + n_b of the records)."""
    src = ctx.ev.objects.get(drop.source or "")
    tgt = ctx.ev.objects.get(drop.target or "")
    if src is None or tgt is None or ctx.rebound_after(drop.target or "", drop.line):
        return _Loss()
    before = src.rows if src.kind in ("dataframe", "series", "ndarray", "sequence") else None
    if not before:
        return _Loss()
    if drop.nested:
        return _sampled_loss(ctx, drop, before)
    after = tgt.length if tgt.kind == "sequence" else None
    if after is None or after > before:
        return _Loss()
    return _Loss(before, after, (before - after) / before,
                 how=f"records in `{drop.source}` against entries appended to `{drop.target}`")


def _sampled_loss(ctx: _Ctx, drop: _Drop, before: int) -> _Loss:
    """The test after the loop whose samples, all read from the collecting container, hold
    the most values: records walked minus values tested are records the test lacks."""
    by_call: dict[tuple[str, int], list[tuple[str, int]]] = {}
    foreign: set[tuple[str, int]] = set()
    for s in ctx.ev.samples:
        if s.line < drop.line or not s.n:
            continue
        try:
            root = _root(ast.parse(s.expr, mode="eval").body)
        except SyntaxError:
            root = None
        key = (s.call, s.line)
        if root != drop.target:
            foreign.add(key)
            continue
        by_call.setdefault(key, []).append((s.expr, s.n))
    best = max((k for k in by_call if k not in foreign and len(by_call[k]) >= 2),
               key=lambda k: sum(n for _, n in by_call[k]), default=None)
    if best is None:
        return _Loss()
    parts = by_call[best]
    after = sum(n for _, n in parts)
    if after > before:
        return _Loss()
    name = best[0].rsplit(".", 1)[-1]
    sizes = " + ".join(f"{n} in `{e}`" for e, n in parts[:4])
    return _Loss(before, after, (before - after) / before,
                 how=f"records in `{drop.source}` against the values the `{name}` on line "
                     f"{best[1]} compares: {sizes}")


def _coerce_loss(ctx: _Ctx, drop: _Drop) -> _Loss:
    if drop.target is None and drop.source and drop.columns:
        # consumed inline: coercing a column that already has the target dtype loses nothing
        src = ctx.ev.objects.get(drop.source)
        col = (drop.parsed_from or drop.columns[0]).split(",")[0]
        dtype = src.dtypes.get(col, "") if src is not None else ""
        want = "datetime" if _call_last(drop.node) == "to_datetime" else ("int", "float")
        if src is not None and src.rows and dtype.startswith(want):
            return _Loss(src.rows, src.rows, 0.0, how="the column already had that type")
    facts = ctx.ev.objects.get(drop.target or "")
    if facts is None or not facts.rows or ctx.rebound_after(drop.target or "", drop.line):
        return _Loss()
    if facts.kind == "dataframe" and not drop.columns:
        return _Loss()
    if drop.parse:
        return _parse_loss(ctx, drop, facts)
    keys = drop.columns if facts.kind == "dataframe" else [""]
    counts = {k: facts.missing.get(k) for k in keys}
    if any(n is None for n in counts.values()):
        return _Loss()
    # NaN already in the text column were missing before the coercion: count only new ones
    src_cols = (drop.parsed_from or "").split(",") if drop.parsed_from else []
    less: list[str] = []
    if len(src_cols) == len(keys):
        for k, col in zip(keys, src_cols, strict=True):
            overwritten = drop.source == drop.target and col == k
            src = (ctx.ev.before if overwritten else ctx.ev.objects).get(drop.source or "")
            had = src.missing.get(col) if src is not None and src.rows == facts.rows else None
            if had:
                counts[k] = max(0, (counts[k] or 0) - had)
                less.append(f"{had} already missing in `{drop.source}.{col}`")
    worst = max(counts, key=lambda k: counts[k] or 0)
    n = counts[worst] or 0
    how = f"NaN count of `{drop.target}{'.' + worst if worst else ''}` after coercion"
    if drop.filled:
        how += f" and the fill on line {drop.filled}"
    if len(keys) > 1:
        how += " (" + ", ".join(f"{k}: {counts[k]}" for k in keys[:6]) + ")"
    if less:
        how += ", less " + "; ".join(less)
    return _Loss(facts.rows, facts.rows - n, n / facts.rows, how=how)


def _parse_loss(ctx: _Ctx, drop: _Drop, facts: ObjectFacts) -> _Loss:
    key = drop.columns[0] if facts.kind == "dataframe" else ""
    n = facts.missing.get(key)
    if n is None:
        return _Loss()
    # the parsed column's own NaN were missing before the parse: count only new ones
    col = drop.parsed_from
    overwritten = drop.source == drop.target and col == key
    src = (ctx.ev.before if overwritten else ctx.ev.objects).get(drop.source or "")
    had = src.missing.get(col or "") if src is not None else None
    if had is None or src is None or src.rows != facts.rows:
        return _Loss()
    n = max(0, n - had)
    how = (f"NaN count of `{drop.target}{'.' + key if key else ''}` after the parse, "
           f"less the {had} already missing in `{drop.source}.{col}`")
    return _Loss(facts.rows, facts.rows - n, n / facts.rows, how=how)


def _missing_bound(ctx: _Ctx, drop: _Drop) -> _Loss:
    """A lower bound from the source's NaN counts (dropna drops at least the rows of the
    column with most NaNs)."""
    if drop.kind != "missing" or not drop.source or not drop.plain or drop.in_place:
        return _Loss()
    facts = ctx.ev.objects.get(drop.source)
    if facts is None or ctx.rebound_after(drop.source, drop.line):
        return _Loss()
    rows = facts.rows
    if not rows or not facts.missing:
        return _Loss()
    if drop.columns:
        counts = [facts.missing.get(c) for c in drop.columns]
        if any(c is None for c in counts):
            return _Loss()
        worst = max(c for c in counts if c is not None)
    elif facts.kind == "dataframe":
        worst = max(facts.missing.values())
    else:
        worst = facts.missing.get("", 0)
    return _Loss(rows, rows - worst, worst / rows, lower_bound=True,
                 how=f"NaN counts of `{drop.source}`")


# -- where a coercion's NaN matter more than their overall share -------------------------------


def _reads_column(node: ast.AST, frame: str, cols: list[str]) -> bool:
    """`frame["col"]` / `frame.col` for a coerced column (or the coerced name itself)."""
    if not cols:
        return isinstance(node, ast.Name) and node.id == frame
    return isinstance(node, ast.Subscript | ast.Attribute) and _root(node) == frame and \
        _column_of(node) in cols


def _selects(chain: ast.AST, frame: str, cols: list[str]) -> bool:
    """The receiver chain of an `agg`/`apply` holds the coerced values: `df.groupby(k)["x"]`,
    `df["x"]`, or the coerced Series itself."""
    if _root(chain) != frame:
        return False
    if not cols:
        return True
    for n in _walk(chain):
        if _reads_column(n, frame, cols):
            return True
        if isinstance(n, ast.Subscript) and _str_list(n.slice) and set(
                _str_list(n.slice)) <= set(cols):
            return True
    return False


def _threshold_of(node: ast.AST) -> tuple[ast.AST, float] | None:
    """(operand, threshold) of `x > 12`, `12 <= x`, `x.gt(12)`."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(
            node.ops[0], ast.Gt | ast.GtE | ast.Lt | ast.LtE):
        a, b = node.left, node.comparators[0]
        if _num(b) is not None:
            return a, _num(b)  # type: ignore[return-value]
        if _num(a) is not None:
            return b, _num(a)  # type: ignore[return-value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("gt", "ge", "lt", "le") and node.args and \
            _num(node.args[0]) is not None:
        return node.func.value, _num(node.args[0])  # type: ignore[return-value]
    return None


def _threshold_shares(ctx: _Ctx, drop: _Drop) -> list[tuple[int, str]]:
    """(line, text) of shares or counts over a threshold computed on the coerced values:
    `(df.x > 12).mean()`, `np.mean(x > 12)`, `.agg(above=lambda s: (s > 12).mean())` on a
    groupby of the column. NaN compares False, so every value coercion destroyed is counted
    as not exceeding (or not below) the limit, and an over-range reading ('OVER', '>13')
    is exactly an exceedance."""
    frame = drop.target
    if not frame or frame == "<return>":
        return []
    cols = drop.columns if ctx.ev.objects.get(frame) is None or ctx.ev.objects[
        frame].kind == "dataframe" else []
    lambda_args: set[str] = set()
    for c in ctx.walk.of(ast.Call):
        if _call_last(c) in ("agg", "aggregate", "apply", "transform") and isinstance(
                c.func, ast.Attribute) and _selects(c.func.value, frame, cols):
            for a in list(c.args) + [k.value for k in c.keywords]:
                if isinstance(a, ast.Lambda):
                    lambda_args |= {x.arg for x in a.args.args}
    found: list[tuple[int, str]] = []
    for c in ctx.walk.of(ast.Call):
        last = _call_last(c)
        if last not in ("mean", "sum", "average", "count_nonzero"):
            continue
        inside = list(c.args) + ([c.func.value] if isinstance(c.func, ast.Attribute) else [])
        for part in inside:
            for n in _walk(part):
                t = _threshold_of(n)
                if t is None:
                    continue
                operand, limit = t
                if _reads_column(operand, frame, cols) or (
                        isinstance(operand, ast.Name) and operand.id in lambda_args):
                    found.append((c.lineno, ctx.ev.source_of(n) or f"> {limit:g}"))
                    break
    return found


def _agg_counts(ctx: _Ctx, drop: _Drop) -> bool:
    """A named aggregation showing, per group, both the rows and the values kept
    (`.agg(n="size", kept="count")`, `lots=("lot", "size"), measured=("x", "count")`): the
    table shows what each group lost. A `count` alone reads as the sample size."""
    frame = drop.target
    if not frame or frame == "<return>":
        return False
    for c in ctx.walk.of(ast.Call):
        if _call_last(c) in ("agg", "aggregate") and _root(c) == frame:
            named = {n.value for a in list(c.args) + [k.value for k in c.keywords]
                     for n in _walk(a) if isinstance(n, ast.Constant)}
            if {"count", "size"} <= named:
                return True
    return False


def _group_losses(ctx: _Ctx, drop: _Drop) -> tuple[str, str, int, int] | None:
    """(group column, level, NaN rows, rows) of the level of a groupby key the summaries
    use where the coerced column lost the largest share, from the kernel's per-level NaN
    counts (`missing_by` {column: {group column: {level: NaN rows}}}, beside `levels`), when
    the kernel provides them."""
    frame = drop.target
    facts = ctx.ev.objects.get(frame or "")
    by = getattr(facts, "missing_by", None) if facts is not None else None
    if not by or not drop.columns or ctx.rebound_after(frame or "", drop.line):
        return None
    keys: set[str] = set()
    for c in ctx.model.calls:
        if c.last == "groupby" and c.receiver_root == frame and c.line >= drop.line:
            for k in _grouping_keys(c.node, "groupby"):
                keys |= set(_str_list(k))
    best: tuple[str, str, int, int] | None = None
    for col in drop.columns:
        for key in keys:
            per = (by.get(col) or {}).get(key) or {}
            rows = facts.levels.get(key) or {}  # type: ignore[union-attr]
            for level, n in per.items():
                total = rows.get(level)
                if total and n and (best is None or n / total > best[2] / best[3]):
                    best = (key, level, int(n), int(total))
    return best


# -- where a row drop's loss concentrates: groups the summaries use, levels that vanish ----------


def _frames_around(ctx: _Ctx, drop: _Drop, loss: _Loss) -> tuple[ObjectFacts, ObjectFacts] | None:
    """(facts before the drop, facts after it) of the frame rows were dropped from, when the
    kernel read both: a merge's counted input and its result, a filter's source and target,
    or an in-place drop's frame before and after the cell."""
    ev = ctx.ev
    if loss.before is None or loss.after is None:
        return None
    if drop.kind == "merge":
        src, tgt = ev.objects.get(loss.side or ""), ev.objects.get(drop.target or "")
    elif drop.in_place and drop.source:
        src, tgt = ev.before.get(drop.source), ev.objects.get(drop.source)
    elif drop.source and drop.target and drop.target != "<return>":
        src, tgt = ev.objects.get(drop.source), ev.objects.get(drop.target)
    else:
        return None
    if src is None or tgt is None or src.kind != "dataframe" or tgt.kind != "dataframe" or \
            src.rows != loss.before or tgt.rows != loss.after:
        return None
    return src, tgt


def _level_losses(ctx: _Ctx, drop: _Drop, loss: _Loss) -> tuple[
        tuple[str, str, int, int] | None, list[tuple[str, list[str], int]]]:
    """((group column, level, rows lost, rows before) of the level of a groupby key of the
    remaining frame that lost the largest share, [(column, levels, rows) whose every row
    is gone]) from the kernel's per-level row counts of the frame before and after the drop
    (each remaining row counted once per level, so a level's loss is at least its drop in
    rows)."""
    frames = _frames_around(ctx, drop, loss)
    if frames is None:
        return None, []
    src, tgt = frames
    frame = drop.source if drop.in_place else drop.target
    keys: list[str] = []
    for c in ctx.model.calls:
        if c.last == "groupby" and c.receiver_root == frame and c.line >= drop.line:
            for k in _grouping_keys(c.node, "groupby"):
                keys += [x for x in _str_list(k) if x not in keys]
    best: tuple[str, str, int, int] | None = None
    for key in keys:
        before, after = src.levels.get(key), tgt.levels.get(key)
        if not before or after is None:
            continue
        for level, total in before.items():
            lost = max(0, total - after.get(level, 0))
            if total and lost and (best is None or lost / total > best[2] / best[3]):
                best = (key, level, lost, total)
    gone: list[tuple[str, list[str], int]] = []
    for col, before in src.levels.items():
        after = tgt.levels.get(col)
        if after is None or not after:
            continue
        missing = [lv for lv in before if lv not in after]
        rows = sum(before[lv] for lv in missing)
        if missing and rows >= 5:
            gone.append((col, missing, rows))
    gone.sort(key=lambda g: -g[2])
    return best, gone


# -- a coercion's loss whose spread over the compared groups the kernel could not read ----------


def _compared_keys(ctx: _Ctx, drop: _Drop) -> list[str]:
    """Grouping keys of the `groupby`s on the frame the coerced values end up in, after the
    coercion: the groups whose figures the cell compares."""
    frames = {f for f in (drop.target, drop.source) if f and f != "<return>"}
    keys: list[str] = []
    for c in ctx.model.calls:
        if c.last == "groupby" and c.receiver_root in frames and c.line >= drop.line:
            for k in _grouping_keys(c.node, "groupby"):
                keys += [x for x in _str_list(k) if x not in keys]
    return keys


def _unmeasured_spread(ctx: _Ctx, drop: _Drop, loss: _Loss,
                       group: tuple[str, str, int, int] | None,
                       gone: list[tuple[str, list[str], int]]) -> str | None:
    """A sentence for a loss of 5-10 % of values `errors="coerce"` could not parse (dropped
    or skipped) whose spread over the groups is unknown: the kernel's per-level counts
    (`missing_by` of the frame still holding the NaN, or levels before and after a drop)
    were not available, so nothing shows the failures fall evenly. Parse failures are
    systematic (a thousands separator, a unit, an over-range marker), so they tend to be
    the large or censored values and to sit in the group where those are common. None when
    the spread was measured (a balanced loss stays a low note) or the loss is outside the
    range."""
    if not (drop.kind == "coerce" or (drop.kind == "missing" and drop.coerced)):
        return None
    frac = loss.fraction
    if frac is None or loss.lower_bound or not 0.05 <= frac < 0.10 or group is not None or gone:
        return None
    keys = _compared_keys(ctx, drop)
    if keys:
        by = ", ".join(f"`{k}`" for k in keys[:3])
        text = (f" Whether the failures fall evenly across {by} could not be read (the kernel "
                "has no per-group count of them), and values that fail to parse are rarely a "
                "random few, so the groups compared may be thinned unequally.")
    else:
        text = (" Values that fail to parse are rarely a random few, so this share is more "
                "than noise.")
    return text + separator_hint(ctx, drop)


def separator_hint(ctx: _Ctx, drop: _Drop) -> str:
    """A sentence when the largest value a coercion left is just under a power of ten
    (995.7 of values up to 1,000): the values from there up were probably written with a
    thousands separator ('1,234'), which `to_numeric` cannot parse. Empty otherwise."""
    if not (drop.kind == "coerce" or (drop.kind == "missing" and drop.coerced)):
        return ""
    frame = drop.target if drop.target and drop.target != "<return>" else drop.source
    facts = ctx.ev.objects.get(frame or "")
    for col in drop.columns[:4] if drop.parse is None else []:
        span = facts.ranges.get(col) if facts is not None else None
        if not span:
            continue
        hi = span[1]
        for power in (1_000, 10_000, 100_000, 1_000_000):
            if 0.9 * power <= hi < power:
                return (f" The largest value left in `{col}` is {hi:g}, just under {power:,}: "
                        f"values of {power:,} and more written with a thousands separator "
                        f"('{power:,}') are exactly what `to_numeric` cannot parse.")
        break
    return ""
