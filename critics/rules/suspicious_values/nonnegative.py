"""Negative values of quantities that cannot be negative: durations and ages computed
by subtraction, and physical or counting quantities (weights, prices, counts…)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import names_in as _names
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._code import _of, _target_key, _target_keys
from ._text import (
    _MAX_LINES,
    _MAX_TEXT,
    _SERIES_FOOTER,
    _column_in_text,
    _match_site,
    _report_sites,
    _text_numbers,
    _to_float,
)
from ._vocabulary import _tokens

# -- negative durations and ages ------------------------------------------------------------------

# names of quantities that cannot be negative: ages, durations, lengths of stay
_NONNEG_TOKENS = {"age", "ages", "duration", "durations", "elapsed", "los", "tenure", "runtime",
                  "lifetime", "latency", "turnaround", "tat", "dwell", "stay", "lengthofstay"}
_TIME_QUALIFIERS = {"trip", "travel", "ride", "commute", "journey", "wait", "waiting",
                    "response", "cycle", "processing", "process", "lead", "run", "service",
                    "handling", "resolution", "transit", "delivery", "flight", "survival",
                    "session", "watch", "call", "visit", "treatment", "repair", "shift"}
_UNIT_TOKENS = {"minutes", "minute", "mins", "hours", "hour", "hrs", "days", "seconds", "secs",
                "sec", "weeks", "months", "years", "yrs", "ms", "millis"}
# quantities that may legitimately be negative (a signed gap, a delay, time to a deadline)
_SIGNED_TOKENS = {"diff", "delta", "change", "offset", "lag", "delay", "early", "late",
                  "lateness", "until", "remaining", "left", "overdue", "before", "after",
                  "relative", "rel", "error", "err", "resid", "residual", "gap", "deviation",
                  "bias", "slack", "margin", "balance", "net", "shift", "drift", "skew", "tz",
                  "utc", "signed", "vs", "minus", "from"}
_LATER_TOKENS = {"end", "ended", "stop", "stopped", "finish", "finished", "off", "out", "exit",
                 "arrival", "arrive", "arrived", "discharge", "discharged", "close", "closed",
                 "completed", "complete", "completion", "return", "returned", "visit", "death",
                 "died", "resolved", "delivered", "last", "to", "dropoff", "checkout"}
_EARLIER_TOKENS = {"start", "started", "begin", "began", "on", "in", "entry", "enter",
                   "entered", "departure", "depart", "departed", "admit", "admission",
                   "admitted", "open", "opened", "created", "birth", "born", "dob", "first",
                   "submitted", "ordered", "request", "requested", "from", "pickup",
                   "checkin", "onset", "enrol", "enrolled", "hire", "hired", "join", "joined"}
_DURATION_GUARDS = {"abs", "clip", "where", "mask", "maximum", "fmax", "absolute", "max"}


def _duration_key(key: str) -> str | None:
    """'nonneg' for names of quantities that cannot be negative (age, duration, length of
    stay, trip_time), 'unit' for a bare unit (minutes, days) whose sign depends on what was
    subtracted, None otherwise."""
    toks = _tokens(key)
    if not toks or set(toks) & _SIGNED_TOKENS:
        return None
    if set(toks) & _NONNEG_TOKENS or (
            "time" in toks and set(toks) & (_TIME_QUALIFIERS | {"to"})):
        return "nonneg"
    if set(toks) & _UNIT_TOKENS:
        return "unit"
    return None


def _operand_tokens(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for sub in _walk(node):
        if isinstance(sub, ast.Name):
            out |= set(_tokens(sub.id))
        elif isinstance(sub, ast.Attribute):
            out |= set(_tokens(sub.attr))
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out |= set(_tokens(sub.value))
    return out


def _elapsed_sub(value: ast.AST, kind: str,
                 helpers: dict[str, list[ast.AST]] | None = None) -> ast.BinOp | None:
    """The subtraction that makes `value` an elapsed time: `end - start`, `visit - dob`,
    `2024 - birth_year`, or one returned by a helper the value calls (`minutes_between(a,
    b)`); None when a guard keeps it non-negative (`% (24 * 60)`, abs, clip, where) or
    nothing later-minus-earlier is subtracted."""
    for sub in _walk(value):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod):
            return None
        if isinstance(sub, ast.Call) and _call_last(sub) in _DURATION_GUARDS:
            return None
    for sub in _walk(value):
        if not (isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Sub)):
            continue
        left, right = sub.left, sub.right
        if isinstance(right, ast.Constant):
            continue  # `x - 1`: an offset, not an elapsed time
        if isinstance(left, ast.Constant) and not (
                isinstance(left.value, int | float) and 1800 <= left.value <= 2200):
            continue
        if kind == "nonneg":
            return sub
        lt, rt = _operand_tokens(left), _operand_tokens(right)
        if lt & _LATER_TOKENS and rt & _EARLIER_TOKENS:
            return sub
    for sub in _walk(value) if helpers else ():
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                sub.func.id in helpers:  # type: ignore[operator]
            for ret in helpers[sub.func.id]:  # type: ignore[index]
                found = _elapsed_sub(ret, kind)
                if found is not None:
                    return found
    return None


def _helper_returns(tree: ast.AST) -> dict[str, list[ast.AST]]:
    """What the cell's helper functions and named lambdas return."""
    out: dict[str, list[ast.AST]] = {}
    for fn in _of(tree, ast.FunctionDef):
        out[fn.name] = [r.value for r in _walk(fn) if isinstance(r, ast.Return) and r.value]
    for node in _of(tree, ast.Assign):
        if isinstance(node.value, ast.Lambda):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = [node.value.body]
    return out


def _duration_defs(tree: ast.AST) -> list[tuple[str, int]]:
    """(name or column, line) of elapsed times the cell computes by subtraction."""
    out: list[tuple[str, int]] = []
    helpers = _helper_returns(tree)
    for node in _of(tree, ast.Assign):
        for t in node.targets:
            for key in _target_key(t):
                kind = _duration_key(key)
                if kind and _elapsed_sub(node.value, kind, helpers) is not None:
                    out.append((key, node.lineno))
    for node in _of(tree, ast.Call):
        for kw in node.keywords:
            if kw.arg and (kind := _duration_key(kw.arg)) and \
                    _elapsed_sub(kw.value, kind, helpers) is not None:
                out.append((kw.arg, kw.value.lineno))
    return out


def _footer_blocks(text: str, key: str) -> list[tuple[str, float]]:
    """(row label, value) of each printed Series named `key` ('Name: age, dtype: float64'):
    a describe() gives count/mean/std/min/…, a groupby mean gives one row per group."""
    lines = text[:_MAX_TEXT].splitlines()[:_MAX_LINES]
    out: list[tuple[str, float]] = []
    for i, line in enumerate(lines):
        m = _SERIES_FOOTER.match(line)
        if not m or m.group(1).strip() != key:
            continue
        j = i - 1
        while j >= 0 and len(out) < 500:
            parts = lines[j].split()
            v = _to_float(parts[-1]) if parts else None
            if v is None:
                break
            out.append((" ".join(parts[:-1]), v))
            j -= 1
    return out


def _chain_columns(node: ast.AST) -> set[str]:
    """Columns named along a method chain: `df.groupby("g").minutes.agg` -> {"minutes"}."""
    cols: set[str] = set()
    called: set[int] = set()
    cur: ast.AST | None = node
    while cur is not None:
        if isinstance(cur, ast.Call):
            called.add(id(cur.func))
            cur = cur.func
        elif isinstance(cur, ast.Attribute):
            if id(cur) not in called:
                cols.add(cur.attr)
            cur = cur.value
        elif isinstance(cur, ast.Subscript):
            cols |= _str_consts(cur.slice)
            cur = cur.value
        else:
            cur = None
    return cols


def _summary_of(tree: ast.AST, key: str) -> bool:
    """The cell aggregates `key` into a table (`df.groupby(g).key.agg([... "min" ...])`,
    `df[key].describe()`) and summarises nothing else, so the printed table's `min`/`mean`
    columns speak for it."""
    found = False
    for node in _of(tree, ast.Call):
        if _call_last(node) not in ("agg", "aggregate", "describe", "min", "mean", "median"):
            continue
        recv = node.func.value if isinstance(node.func, ast.Attribute) else None
        if recv is None:
            continue
        cols = _chain_columns(recv) - {"str", "dt", "values", "loc", "iloc", "T"}
        if key in cols or key in _str_consts(node):
            found = True
        elif cols:
            return False  # another column is summarised too: the table may be its
    return found


def _str_consts(node: ast.AST) -> set[str]:
    return {n.value for n in _walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def _negative_evidence(ev: Evidence, key: str) -> tuple[list[float], str] | None:
    f = ev.objects.get(key)
    if f is not None:
        vals = [float(v) for v in (f.values or [])]
        if isinstance(f.value, int | float) and not isinstance(f.value, bool):
            vals.append(float(f.value))
        neg = [v for v in vals if v < 0]
        if neg:
            return neg, f"the kernel's values of `{key}` ({len(neg)} of {len(vals)} negative)"
    text = ev.text or ""
    if not text or "-" not in text:
        return None
    rows = _footer_blocks(text, key)
    if rows:
        labelled = {lab: v for lab, v in rows}
        if "min" in labelled and "max" in labelled:  # a describe()
            low = labelled["min"]
            if low < 0:
                return [low], f"the printed summary of `{key}` (min {low:g})"
        else:
            neg = [v for _, v in rows if v < 0]
            if neg:
                return neg, f"the printed values of `{key}`"
    vals = _column_in_text(text, key)
    neg = [v for v in vals if v < 0]
    if neg:
        return neg, f"the printed column `{key}`"
    if _summary_of(ev.tree, key) if ev.tree is not None else False:
        for col in ("min", "mean", "median", "amin"):
            neg = [v for v in _column_in_text(text, col) if v < 0]
            if neg:
                return neg, f"the printed `{col}` of `{key}`"
    return None


@rule("suspicious_values.negative_duration",
      title="Negative durations or ages in the results")
def negative_duration(ev: Evidence) -> Iterator[Finding]:
    """An age, duration or length of stay computed by subtracting two times (`end - start`,
    `visit - dob`, clock minutes) cannot be negative; negative values in the output mean the
    subtraction is wrong for some rows - a trip across midnight on bare clock times, a
    two-digit year parsed into the wrong century, swapped or mis-parsed dates - and every
    mean or band built from them is wrong. Flagged only from evidence: the kernel's values of
    the quantity or the printed summary (describe, a groupby's min/mean, the column) showing
    negatives. Quiet when the subtraction is guarded (`% (24 * 60)`, abs, clip, where)."""
    if ev.tree is None or "-" not in ev.code:
        return
    for key, line in _duration_defs(ev.tree):
        found = _negative_evidence(ev, key)
        if found is None:
            continue
        neg, where = found
        yield Finding(
            explanation=(f"`{key}` (line {line}) is an elapsed time computed by subtraction, "
                         f"yet {where} shows negative values (as low as {min(neg):.4g}). "
                         "A duration or age cannot be negative: the subtraction is wrong for "
                         "some rows (a time that wraps past midnight, a two-digit year put in "
                         "the wrong century, swapped or mis-parsed dates), and the means, "
                         "bands and totals computed from it are wrong too."),
            severity="high", confidence=0.8,
            evidence={"lines": [line], "values": {key: round(min(neg), 4),
                                                  "n_negative_shown": len(neg)}},
            suggestion=("Find the rows with `df[df[col] < 0]` and fix the cause: add a day "
                        "when the end clock time is before the start (`(end - start) % "
                        "(24 * 60)` or full timestamps), move two-digit years past the "
                        "reference date back a century, parse dates with the right format "
                        "/ dayfirst; then `assert (df[col] >= 0).all()` before summarising."))
        return


# -- negative values of quantities that cannot be negative ---------------------------------------

# Physical and counting quantities that are non-negative by definition. Variances and standard
# deviations have their own rule; ages and durations computed by subtraction too.
_PHYSICAL_NONNEG = {
    "distance": "distance", "distances": "distance", "dist": "distance", "dists": "distance",
    "length": "length", "lengths": "length", "radius": "radius", "radii": "radius",
    "diameter": "diameter", "area": "area", "volume": "volume", "mass": "mass",
    "masses": "mass", "age": "age", "ages": "age", "duration": "duration",
    "durations": "duration", "count": "count", "counts": "count", "price": "price",
    "prices": "price", "concentration": "concentration", "conc": "concentration",
    "dose": "dose", "population": "population", "rainfall": "rainfall",
    "precipitation": "precipitation", "speed": "speed", "salary": "salary", "wage": "wage",
}
# tokens that make the quantity signed or transformed (a change, a log, a standardised value,
# a coordinate, a signed distance to a boundary)
_PHYSICAL_SIGNED = _SIGNED_TOKENS | {
    "difference", "differences", "diffs", "deltas", "changes", "increase", "decrease",
    "reduction", "improvement", "gain", "gained", "loss", "growth", "trend", "log", "ln",
    "log10", "log2", "logged", "z", "zscore", "score", "scores", "standardized",
    "standardised", "scaled", "centered", "centred", "demeaned", "anomaly", "anomalies",
    "coef", "coefficient", "slope", "effect", "to", "boundary", "hyperplane", "decision",
    "profit", "pnl", "return", "returns", "surplus", "excess", "adjustment", "correction",
    "x", "y", "z0", "pos", "position", "coord", "coordinate", "velocity", "elevation",
    "altitude", "depth", "temp", "temperature", "celsius", "sign", "signed", "std", "sd",
    "var", "variance", "stdev", "sem", "se", "ci", "lower", "lo", "upper", "hi", "bound",
    "mahalanobis", "cosine", "kl", "divergence", "energy", "potential", "elasticity",
}


def _physical_key(label: str) -> str | None:
    """The non-negative quantity a name or printed label denotes ('distance' for `dist_pc`,
    'cluster distance'); None when it says nothing or says the value may be signed."""
    toks = _tokens(label)
    if not toks or set(toks) & _PHYSICAL_SIGNED:
        return None
    found = [_PHYSICAL_NONNEG[t] for t in toks if t in _PHYSICAL_NONNEG]
    return found[-1] if found else None


_SIGNED_CALLS = {"diff", "log", "log10", "log2", "log1p", "pct_change", "gradient", "ediff1d",
                 "subtract", "zscore", "scale", "standardize", "decision_function"}
_WRAPPERS = {"mean", "median", "sum", "round", "float", "int", "nanmean", "nanmedian", "min",
             "max", "squeeze", "item", "average", "agg", "aggregate", "describe", "quantile"}


def _signed_by_construction(value: ast.AST | None) -> bool:
    """A value that is at heart a difference (`a - b`, `-x`, also under a mean or round), or
    that passes through a log, `diff`, a standardisation: its sign carries meaning, whatever
    its name. (`(signal - blank) / slope` is a ratio, not a difference.)"""
    if value is None:
        return True
    top = value
    for _ in range(6):
        if isinstance(top, ast.Call) and _call_last(top) in _WRAPPERS:
            f = top.func
            module_call = not isinstance(f, ast.Attribute) or isinstance(f.value, ast.Name)
            nxt = top.args[0] if module_call and top.args else (
                f.value if isinstance(f, ast.Attribute) else None)
            if nxt is None:
                break
            top = nxt
            continue
        if isinstance(top, ast.Subscript | ast.Attribute) and not isinstance(
                top.value, ast.Name):
            top = top.value
            continue
        break
    chain = [top]
    while chain:  # `a - b`, `a - b + noise`: a signed sum of terms
        node = chain.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            if isinstance(node.op, ast.Sub) and not (
                    isinstance(node.right, ast.Constant) and isinstance(node.left, ast.Constant)):
                return True
            chain += [node.left, node.right]
    if isinstance(top, ast.UnaryOp) and isinstance(top.op, ast.USub) and not isinstance(
            top.operand, ast.Constant):
        return True
    return any(isinstance(sub, ast.Call) and _call_last(sub) in _SIGNED_CALLS
               for sub in _walk(value))


def _sign_checked(tree: ast.AST, key: str) -> bool:
    """The cell compares `key` with zero or clips it (`df[df.dist < 0]`, `(dist <= 0).sum()`,
    `.clip(lower=0)`, `np.abs`): the user already handles the sign."""
    for node in _walk(tree):
        sides = [node.left, *node.comparators] if isinstance(node, ast.Compare) else []
        if any(isinstance(x, ast.Constant) and x.value == 0 for x in sides) and key in {
                k for x in sides for s in _walk(x) for k in _target_key(s)}:
            return True
        if isinstance(node, ast.Call) and _call_last(node) in (
                "clip", "abs", "absolute", "maximum", "fmax", "where", "mask") and \
                key in _target_keys(node):
            return True
    return False


def _assigned_values(tree: ast.AST) -> dict[str, list[tuple[int, ast.AST]]]:
    """(line, value) of every name or column the cell assigns (`d = ...`, `df["d"] = ...`,
    `df.assign(d=...)`)."""
    out: dict[str, list[tuple[int, ast.AST]]] = {}
    for node in _of(tree, ast.Assign):
        for t in node.targets:
            for key in _target_key(t):
                out.setdefault(key, []).append((node.lineno, node.value))
    for node in _of(tree, ast.Call):
        if _call_last(node) == "assign":
            for kw in node.keywords:
                if kw.arg:
                    out.setdefault(kw.arg, []).append((kw.value.lineno, kw.value))
    return out


@rule("suspicious_values.negative_physical_quantity",
      title="A quantity that cannot be negative (distance, mass, count, price...) is negative")
def negative_physical_quantity(ev: Evidence) -> Iterator[Finding]:
    """Distances, lengths, masses, concentrations, counts, prices and ages cannot be negative.
    A negative one among a cell's results means the formula is wrong for some rows: a noisy
    measurement inverted (1/parallax with parallax <= 0), a sign or unit error, a
    subtraction where an absolute value was meant. Evidence: the kernel's range of a column
    the cell computes, the value of a scalar it computes, or a printed labelled value that
    the code ties to the expression it printed. Quiet for names that say the value is signed
    or transformed (a change, a log, a z-score, a coordinate, a signed distance to a
    boundary), for differences and logs by construction, and when the cell checks the sign."""
    if ev.tree is None or ("-" not in (ev.text or "") and not any(
            (f.ranges or f.value is not None) for f in ev.objects.values())):
        return
    tree = ev.tree
    assigned = _assigned_values(tree)
    reported = ev.model.reported_names
    seen: set[str] = set()
    hits: list[tuple[str, str, int, float, str, bool]] = []  # key, what, line, low, where, shown

    def ok_value(key: str) -> tuple[int, bool] | None:
        defs = assigned.get(key)
        if not defs or any(_signed_by_construction(v) for _, v in defs):
            return None
        if _duration_key(key) and any(_elapsed_sub(v, "nonneg") is not None for _, v in defs):
            return None  # an elapsed time by subtraction: negative_duration's finding
        if _sign_checked(tree, key):
            return None
        return defs[-1][0], True

    # printed labelled values, tied to the expression that printed them
    sites = _report_sites(tree)
    for tn in _text_numbers(ev.text or ""):
        if tn.value >= 0 or tn.in_list:
            continue
        what = _physical_key(tn.label)
        site = _match_site(tn.label, sites) if what else None
        if site is None or _signed_by_construction(site.expr):
            continue
        names = _names(site.expr)
        if any(_physical_key(n) is None and set(_tokens(n)) & _PHYSICAL_SIGNED for n in names):
            continue
        keys = {k for s in _walk(site.expr) for k in _target_key(s)}
        if any(k in assigned and ok_value(k) is None for k in keys) or any(
                _sign_checked(tree, k) for k in keys):
            continue
        key = tn.raw_label.strip(" :=") or tn.label
        if key in seen:
            continue
        seen.add(key)
        hits.append((key, what or "", site.line, tn.value, f"printed '{tn.line[:80]}'", True))
    # kernel facts: scalars and computed columns
    for name, facts in ev.objects.items():
        if facts.kind == "scalar" and isinstance(facts.value, int | float) and not isinstance(
                facts.value, bool) and facts.value < 0:
            what = _physical_key(name)
            got = ok_value(name) if what else None
            if got and name not in seen:
                seen.add(name)
                hits.append((name, what or "", got[0], float(facts.value),
                             f"the kernel's value of `{name}`", name in reported))
        if facts.kind != "dataframe":
            continue
        for col, rng in (facts.ranges or {}).items():
            if not rng or rng[0] is None or rng[0] >= 0:
                continue
            what = _physical_key(col)
            got = ok_value(col) if what else None
            if not got or col in seen:
                continue
            shown = bool(reported & {name}) or any(
                col in _chain_columns(c.node) or col in {
                    k for s in _walk(c.node) for k in _target_key(s)}
                for c in ev.model.calls if c.last in (
                    "mean", "median", "describe", "agg", "aggregate", "sum", "min", "max",
                    "quantile", "print", "display"))
            seen.add(col)
            hits.append((f"{name}.{col}", what or "", got[0], float(rng[0]),
                         f"the kernel's range of `{name}.{col}` ([{rng[0]:.4g}, {rng[1]:.4g}])",
                         shown))
    if not hits:
        return
    hits.sort(key=lambda h: (not h[5], h[3]))
    key, what, line, low, where, shown = hits[0]
    also = "; ".join(f"{w} shows {lo:.4g} for `{k}`" for k, _, _, lo, w, _ in hits[1:4])
    severity, conf = ("high", 0.85) if shown else ("medium", 0.6)
    yield Finding(
        explanation=(f"`{key}` (line {line}) is a {what}, which cannot be negative, yet "
                     f"{where} shows {low:.4g}{f' (also: {also})' if also else ''}. A negative "
                     f"{what} means the computation is wrong for some rows (a noisy measurement "
                     "inverted or divided by a value near or below zero, a sign or unit error, "
                     "a subtraction where a magnitude was meant), and any mean, total or fit "
                     "built from these values is wrong too."),
        severity=severity, confidence=conf,
        evidence={"lines": sorted({h[2] for h in hits}),
                  "values": {h[0]: round(h[3], 6) for h in hits[:5]}},
        suggestion=(f"Find the rows that give a negative {what} (`df[df[col] < 0]`) and fix "
                    "the computation rather than the symptom: combine noisy measurements "
                    "before a non-linear transform (average parallaxes, then invert), take "
                    "magnitudes where a magnitude is meant, or exclude invalid inputs "
                    "explicitly and report how many."))
