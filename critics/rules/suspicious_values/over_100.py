"""Shares and proportions above 100 %: an occupancy / utilisation share, a prevalence,
proportion or percentage of a whole that exceeds the whole."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._code import _of, _target_key
from ._text import _column_in_text, _series_blocks, _text_numbers
from ._vocabulary import _tokens

# -- shares / occupancy far above 100 % ------------------------------------------------------------

_SHARE_TOKENS = {"share", "occupancy", "utilisation", "utilization", "util", "full", "fill",
                 "coverage", "turnout", "penetration", "uptake", "completion", "load",
                 "attainment", "capacity", "used", "filled", "sold", "booked"}
_SHARE_EXCLUDE = {"growth", "change", "increase", "decrease", "diff", "delta", "ratio", "lift",
                  "index", "multiple", "times", "per", "rel", "relative", "vs", "over", "gain",
                  "yoy", "mom", "excess", "odds"}
_PCT_TOKENS = {"pct", "percent", "percentage", "perc"}


# an allowance consumed (an error budget, a quota, a plan, a credit limit): used / burnt
# beyond it is an overrun, not an impossible share; only a `share` of it is bounded
_ALLOWANCE_TOKENS = {"budget", "target", "quota", "plan", "goal", "allowance", "allotment",
                     "limit", "entitlement", "burn"}
# shares of a whole by their very name, also when their values are only a little above 100 %
_STRICT_SHARE_TOKENS = {"share", "occupancy", "turnout"}


def _share_name(name: str) -> bool:
    toks = set(_tokens(name))
    if toks & _SHARE_EXCLUDE:
        return False
    if toks & _ALLOWANCE_TOKENS and "share" not in toks:
        return False
    return (bool(toks & _SHARE_TOKENS) and len(toks) >= 2) or bool(
        toks & {"share", "occupancy", "utilisation", "utilization", "turnout", "coverage"})


def _ratio_defs(tree: ast.AST) -> dict[str, tuple[int, bool]]:
    """Share-like names/columns the cell defines as a ratio: name -> (line, in percent)."""
    out: dict[str, tuple[int, bool]] = {}

    def add(key: str, value: ast.AST, line: int) -> None:
        if not _share_name(key):
            return
        # a value computed before it was stored: only for a name that says share / percent
        # (`load_mw` holding a ratio-built series is a quantity, not a share)
        bound = _ratio_bound(value, tree) if set(_tokens(key)) & (
            _STRICT_SHARE_TOKENS | _PCT_TOKENS) else value
        divs = [b for b in _walk(bound) if isinstance(b, ast.BinOp)
                and isinstance(b.op, ast.Div)]
        if not divs:
            return
        pct = any(isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult) and any(
            isinstance(s, ast.Constant) and s.value in (100, 100.0) for s in (b.left, b.right))
            for e in {id(value): value, id(bound): bound}.values()
            for b in _walk(e)) or bool(set(_tokens(key)) & _PCT_TOKENS)
        if key not in out:
            out[key] = (line, pct)

    for node in _of(tree, ast.Assign):
        for t in node.targets:
            for k in _target_key(t):
                add(k, node.value, node.lineno)
    for node in _of(tree, ast.Call):
        for kw in node.keywords:
            if kw.arg:
                add(kw.arg, kw.value, kw.value.lineno)
    # a column of a frame built from a dict (`pd.DataFrame({"occ_pct": 100 * occ})`)
    for node in _of(tree, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=False):
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and \
                    set(_tokens(k.value)) & (_STRICT_SHARE_TOKENS | _PCT_TOKENS):
                add(k.value, v, v.lineno)
    return out


def _ratio_bound(value: ast.AST, tree: ast.AST) -> ast.AST:
    """The expression, or the definition of the one name it scales (`(100 * occ).round(1)`
    where the cell binds `occ = used / capacity` once), so that a share stored in a table
    after it was computed is still read as a ratio."""
    if any(isinstance(b, ast.BinOp) and isinstance(b.op, ast.Div) for b in _walk(value)):
        return value
    names = {n.id for n in _walk(value) if isinstance(n, ast.Name)}
    bound = [a.value for a in _of(tree, ast.Assign) if len(a.targets) == 1 and
             isinstance(a.targets[0], ast.Name) and a.targets[0].id in names]
    return bound[0] if len(bound) == 1 else value


def _frame_column(ev: Evidence, key: str) -> tuple[list[float], float | None]:
    """(largest values, median) the kernel shows for a column `key` of one of its frames."""
    for g in ev.objects.values():
        if g.kind != "dataframe" or key not in (g.ranges or {}):
            continue
        t = (g.tails or {}).get(key) or {}
        tops = [float(v) for v, _ in (t.get("top") or [])] or [float(g.ranges[key][1])]
        q = t.get("q") or []
        return tops, (float(q[1]) if len(q) == 3 else None)
    return [], None


@rule("suspicious_values.share_over_100",
      title="Share, occupancy or utilisation far above 100 %")
def share_over_100(ev: Evidence) -> Iterator[Finding]:
    """A share of a whole (occupancy, utilisation, market share, coverage, turnout) computed
    as a ratio cannot be far above 100 %: values of several hundred percent mean numerator and
    denominator are on different bases (a season total over one game's capacity, a sum over a
    count of groups, a join that duplicated rows)."""
    if ev.tree is None or "/" not in ev.code:
        return
    defs = _ratio_defs(ev.tree)
    if not defs:
        return
    text = ev.text or ""
    for key, (line, pct) in defs.items():
        values: list[float] = []
        mid: float | None = None
        f = ev.objects.get(key)
        if f is not None:
            values += [float(v) for v in (f.values or []) if isinstance(v, int | float)]
            if isinstance(f.value, int | float) and not isinstance(f.value, bool):
                values.append(float(f.value))
        where = "the computed values"
        if not values and text:
            values = _column_in_text(text, key)
            where = f"the printed column `{key}`"
        if not values:
            values, mid = _frame_column(ev, key)
            where = f"the column `{key}`"
        scale = 100.0 if pct else 1.0
        if not values and text:
            for tn in _text_numbers(text):
                if tn.label.replace(" ", "_") == key.lower():
                    values.append(tn.value if not tn.percent else tn.value / 100 * scale)
            where = "the printed output"
        values = [v for v in values if v == v and abs(v) != float("inf")]
        if not values:
            continue
        top = max(values) / scale
        if mid is None and len(values) >= 3:
            mid = sorted(values)[len(values) // 2]
        # a share by its very name (occupancy, turnout, market share) whose values are
        # mostly below 100 %: any value past it is impossible, not only one far above
        strict = bool(set(_tokens(key)) & _STRICT_SHARE_TOKENS) and mid is not None and \
            mid / scale <= 1.0
        bound = 1.02 if strict else 1.5
        if top <= bound:
            continue
        severity, confidence = ("critical", 0.85) if top >= 2 else ("high", 0.7)
        over = sum(v / scale > bound for v in values)
        yield Finding(
            explanation=(f"`{key}` (line {line}) is a share of a whole, yet {where} reach "
                         f"{top:.0%} ({over} of {len(values)} above {bound:.0%}): numerator and "
                         "denominator are not on the same basis (a total over several "
                         "periods or rows divided by a single-period or per-row capacity)."),
            severity=severity, confidence=confidence,
            evidence={"lines": [line], "values": {key: round(top, 3), "n_above": over}},
            suggestion=("Aggregate numerator and denominator the same way (sum both over the "
                        "same games/rows, or average both), and check that every share lies "
                        "in [0, 1] (`assert share.between(0, 1).all()`)."))


# -- proportions, prevalences and percentages above 100 % -----------------------------------------

# a proportion of a whole by its very name: it cannot exceed 100 % (nor 1 as a fraction)
_PROPORTION_WORDS = {"prevalence", "seroprevalence", "proportion", "proportions", "fraction",
                     "positivity", "percentage", "incidence_proportion"}
# names that are percentages of something that may well exceed it, or not of a whole at all
_PERCENT_EXCLUDE = _SHARE_EXCLUDE | {
    "error", "err", "errors", "mape", "ape", "smape", "return", "returns", "roi", "roas",
    "target", "goal", "quota", "budget", "plan", "baseline", "base", "forecast", "expected",
    "predicted", "pred", "cpu", "gpu", "mem", "memory", "yield", "markup", "growth", "recovery",
    "points", "pp", "median", "mean", "avg", "average", "norm", "normal", "ref", "reference",
    "benchmark", "prev", "previous", "last", "prior", "inflation", "apr", "apy", "interest",
    "cagr", "volatility", "vol", "slope", "grade", "elongation", "strain", "deviation", "dev",
    "bias", "cv", "variation", "above", "below", "under", "surplus", "deficit", "overrun",
    "achievement", "attainment", "capacity", "load", "speed", "efficiency", "rank",
    "percentile", "pctile", "quantile", "markdown", "uplift", "vs", "versus", "chg", "pnl",
    # effects of a model: a semi-elasticity, an incidence-rate or hazard effect in percent
    "effect", "effects", "elast", "elasticity", "semi", "semielasticity", "irr", "impact",
}


def _relative_change(value: ast.AST) -> bool:
    """The expression is a change relative to a base, which may exceed 100 %: a ratio minus
    one (`x / y - 1`, `np.exp(b) - 1`, `ratio - 100`), `np.expm1(b)`, `.pct_change()`, or
    `(a - b) / b`."""
    for b in _walk(value):
        if isinstance(b, ast.Call) and _call_last(b) in ("expm1", "pct_change"):
            return True
        if not isinstance(b, ast.BinOp):
            continue
        if isinstance(b.op, ast.Sub) and isinstance(b.right, ast.Constant) and \
                b.right.value in (1, 1.0, 100, 100.0) and (
                    (isinstance(b.left, ast.BinOp) and isinstance(b.left.op, ast.Div | ast.Mult))
                    or (isinstance(b.left, ast.Call) and _call_last(b.left) in (
                        "exp", "exp2", "power", "div", "divide", "truediv"))):
            return True
        if isinstance(b.op, ast.Div) and isinstance(b.left, ast.BinOp) and \
                isinstance(b.left.op, ast.Sub):
            base = ast.dump(b.right)
            if base in (ast.dump(b.left.left), ast.dump(b.left.right)):
                return True
    return False


# (strong word, top / limit, key, line, top, values above, values, limit, where read)
_Hit = tuple[bool, float, str, int, float, int, int, float, str]


def _proportion_kind(name: str, prevalence: bool = False) -> str | None:
    """'proportion' for a name that says it is a proportion of a whole (prevalence,
    proportion, fraction, positivity), 'percent' for a plain percentage name (`_pct`,
    `percent_`), None otherwise or when it may exceed its base (growth, error, of target).
    `prevalence`: the cell speaks of prevalence (and never of a previous value), so `prev`
    in a name abbreviates it (`mastitis_prev_pct`)."""
    toks = set(_tokens(name))
    if prevalence and "prev" in toks:
        toks = (toks - {"prev"}) | {"prevalence"}
    if not toks or toks & _PERCENT_EXCLUDE or _share_name(name):
        return None
    if toks & _PROPORTION_WORDS:
        return "proportion"
    if toks & _PCT_TOKENS:
        return "percent"
    return None


_PREVALENCE_RE = re.compile(r"(?i)prevalen")
_PREVIOUS_RE = re.compile(r"(?i)previous|\bprior\b|\blast\b|\bshift\(")


def _speaks_of_prevalence(code: str) -> bool:
    """The cell's code (its names, strings, comments) says 'prevalence' and nothing about a
    previous value: a `prev` in its names abbreviates prevalence."""
    return bool(_PREVALENCE_RE.search(code)) and not _PREVIOUS_RE.search(code)


_QUANTILE_CALLS = {"percentile", "nanpercentile", "quantile", "nanquantile",
                   "scoreatpercentile", "mquantiles"}
_THROUGH_CALLS = {"round", "to_numpy", "tolist", "astype", "squeeze", "to_list", "abs"}


def _quantile_value(value: ast.AST) -> bool:
    """The expression is a percentile / quantile of something (`np.percentile(x, [50, 95])`,
    `s.quantile(0.9).round(1)`): a `pct` holding it abbreviates percentile, not percent."""
    cur = value
    while isinstance(cur, ast.Call):
        last = _call_last(cur)
        if last in _QUANTILE_CALLS:
            return True
        if last in _THROUGH_CALLS and isinstance(cur.func, ast.Attribute):
            cur = cur.func.value
        elif last in ("round", "asarray", "array", "float") and cur.args:
            cur = cur.args[0]
        else:
            return False
    return False


def _proportion_keys(tree: ast.AST, prevalence: bool = False
                     ) -> dict[str, list[tuple[int, ast.AST, str | None]]]:
    """Proportion-like names the cell defines: key -> [(line, defining expression, the
    variable holding it)]. Keys are variables, stored columns, `assign`/`agg` keywords, and
    Series names set by `.rename("x")` / `name="x"` (held by the variable assigned)."""
    out: dict[str, list[tuple[int, ast.AST, str | None]]] = {}

    def add(key: str, line: int, value: ast.AST, holder: str | None) -> None:
        if _proportion_kind(key, prevalence):
            out.setdefault(key, []).append((line, value, holder))

    for node in _of(tree, ast.Assign):
        holder = node.targets[0].id if len(node.targets) == 1 and isinstance(
            node.targets[0], ast.Name) else None
        for t in node.targets:
            for k in _target_key(t):
                add(k, node.lineno, node.value, k if isinstance(t, ast.Name) else None)
        for sub in _walk(node.value):
            if isinstance(sub, ast.Call) and _call_last(sub) == "rename" and sub.args and \
                    isinstance(sub.args[0], ast.Constant) and isinstance(sub.args[0].value, str):
                add(sub.args[0].value, node.lineno, node.value, holder)
            if isinstance(sub, ast.Call):
                for kw in sub.keywords:
                    if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(
                            kw.value.value, str):
                        add(kw.value.value, node.lineno, node.value, holder)
    for node in _of(tree, ast.Call):
        if _call_last(node) in ("assign", "agg", "aggregate"):
            for kw in node.keywords:
                if kw.arg:
                    add(kw.arg, kw.value.lineno, kw.value, None)
    return out


def _percent_scaled(value: ast.AST) -> bool | None:
    """True when the expression multiplies by 100 (`* 100`, `.mul(100)`), None when it
    multiplies by a larger power of ten (a rate per 1,000 or 100,000), else False."""
    found = False
    for b in _walk(value):
        consts: list[object] = []
        if isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult):
            consts = [s.value for s in (b.left, b.right) if isinstance(s, ast.Constant)]
        elif isinstance(b, ast.Call) and _call_last(b) in ("mul", "multiply") and b.args and \
                isinstance(b.args[0], ast.Constant):
            consts = [b.args[0].value]
        for v in consts:
            if isinstance(v, int | float) and not isinstance(v, bool):
                if v in (100, 100.0):
                    found = True
                elif v >= 1000:
                    return None
    return found


@rule("suspicious_values.proportion_over_100",
      title="Prevalence, proportion or percentage above 100 %")
def proportion_over_100(ev: Evidence) -> Iterator[Finding]:
    """A prevalence, proportion, fraction or percentage of a whole cannot exceed 100 % (or 1
    as a fraction). The cell names such a quantity (a variable, a column, an `assign`/`agg`
    keyword, a Series `.rename("..._pct")`) and the kernel's values (or the printed table,
    Series footer or label) exceed it: numerator and denominator are on different bases (a
    weighted count over an unweighted n, a sum over rows that a join duplicated, a count of
    events over a count of people). Percent scale is read from the name (`pct`, `percent`),
    a `* 100` / `.mul(100)` in the definition or a printed `%`; a fraction scale (most values
    at most 1) makes values above 1 impossible. Critical (0.85) for a proportion word
    (prevalence, proportion, fraction) above 101 %, high (0.75) for a plain percentage name;
    quiet for percentages of a target/baseline, growth, errors, rates per 1,000."""
    if ev.tree is None:
        return
    prevalence = _speaks_of_prevalence(ev.code)
    keys = _proportion_keys(ev.tree, prevalence)
    text = ev.text or ""
    hits: list[_Hit] = []
    for key, defs in keys.items():
        kind = _proportion_kind(key, prevalence) or "percent"
        scaled = [_percent_scaled(v) for _, v, _ in defs]
        if any(s is None for s in scaled):
            continue  # a rate per 1,000 / 100,000
        if kind == "percent" and any(_quantile_value(v) for _, v, _ in defs):
            continue  # `pct = np.percentile(...)`: percentiles, not percentages
        if any(_relative_change(v) for _, v, _ in defs):
            continue  # a percent change / effect: may exceed 100 %, it is not a share
        pct = kind == "percent" or any(scaled)
        values: list[float] = []
        where = ""
        for _, _, holder in defs:
            f = ev.objects.get(holder or "")
            if f is None:
                continue
            if f.kind in ("series", "ndarray", "sequence") and f.values:
                values += [float(v) for v in f.values]
            elif f.kind == "scalar" and isinstance(f.value, int | float) and \
                    not isinstance(f.value, bool):
                values.append(float(f.value))
            if values:
                where = f"the values of `{holder}`"
                break
        if not values and text:
            values = _column_in_text(text, key)
            where = f"the printed column `{key}`"
        if not values and text:
            for name, vals in _series_blocks(text):
                if name == key:
                    values, where = vals, f"the printed Series `{key}`"
        only_range = False
        if not values:
            for f in ev.objects.values():
                if f.kind == "dataframe" and key in f.ranges:
                    values, only_range = list(f.ranges[key]), True
                    where = f"the column `{f.name}.{key}` (min, max)"
                    break
        values = [v for v in values if v == v and abs(v) != float("inf")]
        if not values:
            continue
        top = max(values)
        ordered = sorted(values)
        median = ordered[len(ordered) // 2]
        if top > 100.5:
            limit = 100.0
        elif not pct and not only_range and median <= 1.0 and top > 1.005:
            limit = 1.0
        else:
            continue
        over = sum(v > limit * 1.005 for v in values)
        line = min(ln for ln, _, _ in defs)
        strong = kind == "proportion"
        hits.append((strong, top / limit, key, line, top, over, len(values), limit, where))
    hits += _labelled_proportions(text)
    hits += _titled_tables(text, ev.tree)
    hits += _count_ratio_hits(ev, set(keys))
    if not hits:
        return
    strong, _, key, line, top, over, n, limit, where = max(hits)
    if limit == 1.0:
        where += " (as fractions)"
    shown = f"{top:.4g}" + ("%" if limit == 100 else "")
    if strong and top > limit * 1.01:
        severity, confidence = "critical", 0.85
    else:
        severity, confidence = "high", 0.75
    yield Finding(
        explanation=(f"`{key}`{f' (line {line})' if line else ''} is a proportion of a whole, "
                     f"yet {where} reach {shown} ({over} of {n} above "
                     f"{'100 %' if limit == 100 else '1'}): no prevalence, proportion or "
                     "percentage of a group can exceed all of it. The numerator and the "
                     "denominator are on different bases (weights scaled to the whole "
                     "sample divided by a subgroup's head count, a sum over duplicated rows, "
                     "per-period risks added up instead of compounded, "
                     "events counted over people), so the other values are wrong too, just "
                     "less visibly."),
        severity=severity, confidence=confidence,
        evidence={"lines": [line] if line else [], "values": {key: round(top, 4),
                                                               "n_above": over}},
        suggestion=("Compute the proportion with numerator and denominator from the same rows "
                    "and weights (`np.average(flag, weights=w)` = `(w * flag).sum() / "
                    "w.sum()` for a weighted prevalence; `flag.mean()` unweighted), and check "
                    "that every value lies in [0, 1] (`assert p.between(0, 1).all()`)."))


def _labelled_proportions(text: str) -> list[_Hit]:
    """Printed labels with a proportion word ('prevalence: 108.1%', 'fraction = 1.3')."""
    out: list[_Hit] = []
    if not text or not re.search(r"(?i)prevalence|proportion|fraction|positivity", text):
        return out
    for tn in _text_numbers(text):
        toks = set(re.split(r"[\s_\W]+", tn.label))
        if not toks & _PROPORTION_WORDS or toks & _PERCENT_EXCLUDE:
            continue
        if tn.percent and tn.value > 101:  # a bare '1.3' after 'fraction' has no scale
            out.append((True, tn.value / 100, tn.label, 0, tn.value, 1, 1, 100.0,
                        f"the printed value '{tn.line[:60]}'"))
    return out


# a printed title that names a proportion of a cohort in percent ('Cumulative mortality (%)
# by age band', '5-year survival, %', 'Prevalence (%) by region') over the table it heads
_TITLE_PROPORTION = re.compile(
    r"(?i)\b(?:(?:cumulative|absolute|\d+[\s-]*(?:day|week|month|year)s?)[\s-]+"
    r"(?:mortality|incidence|risk|survival|fatality|recurrence|readmission)|"
    r"case[\s-]+fatality|prevalence|proportion|percentage|positivity|"
    r"(?:mortality|survival)\s*(?:\(%\)|,\s*%|\bin\s*%|\bpercent))")
_TITLE_PERCENT = re.compile(r"(?i)%|\bpercent(?:age)?\b|\bpct\b")
_TITLE_NOT_SHARE = re.compile(
    r"(?i)\bper\s*[\d,.]+|person[\s-]*(?:years?|time)|\brate\s+ratio|\bratio\b|\brelative\b|"
    r"\bexcess\b|\bchange\b|\bincrease\b|\bdifference\b|\bodds\b|\bhazard\b")
# table columns that hold counts or other quantities, not the titled proportion
_TABLE_OTHER_TOKENS = {"n", "count", "counts", "cases", "deaths", "died", "events", "total",
                       "patients", "subjects", "people", "persons", "population", "pop", "py",
                       "pyears", "days", "months", "age", "mean", "median", "sd", "std",
                       "denominator", "numerator", "size", "nobs", "obs", "rows", "num",
                       "number", "ci", "lo", "hi", "lower", "upper", "se", "cases_n",
                       "followup", "fu", "rr", "hr", "or", "ratio", "diff", "change", "at"}
_CELL_DECIMAL = re.compile(r"^[-+]?\d*\.\d+%?$")
_CELL_NUM = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)%?$")


def _titled_tables(text: str, tree: ast.AST | None) -> list[_Hit]:
    """A printed table (a DataFrame / Series repr) right under a title that names a
    proportion of a cohort in percent ('Cumulative mortality (%) by age band'): cells above
    100 in the columns that are not counts. Only when the cell's code scales by 100 (the
    values are percentages by construction)."""
    out: list[_Hit] = []
    if not text or tree is None or not _TITLE_PERCENT.search(text) or \
            not _TITLE_PROPORTION.search(text) or not _percent_scaled(tree):
        return out
    lines = text[:30_000].splitlines()[:600]
    for i, title in enumerate(lines):
        m = _TITLE_PROPORTION.search(title)
        if not m or not _TITLE_PERCENT.search(title) or _TITLE_NOT_SHARE.search(title):
            continue
        j = i + 1
        while j < len(lines) and j <= i + 2 and not lines[j].strip():
            j += 1
        if j >= len(lines):
            continue
        header = lines[j]
        heads = [(hm.end(), hm.group(0)) for hm in re.finditer(r"\S+", header)]
        if not heads or any(_CELL_DECIMAL.match(h) for _, h in heads):
            continue  # a row of values, not a header (whole numbers may label columns)
        ok_ends = {e for e, h in heads if not set(_tokens(h)) & _TABLE_OTHER_TOKENS}
        values: list[float] = []
        for row in lines[j + 1:j + 201]:
            if not row.strip() or row.startswith(("Name:", "dtype:")):
                break
            for cm in re.finditer(r"\S+", row):
                if cm.start() == 0 or cm.end() not in ok_ends or not _CELL_NUM.match(
                        cm.group(0)):
                    continue  # the row's index label, a count column, a text cell
                values.append(float(cm.group(0).rstrip("%")))
        over = [v for v in values if v > 101]
        if not over:
            continue
        top = max(over)
        out.append((True, top / 100, m.group(0), 0, top, len(over), len(values), 100.0,
                    f"the printed table under '{title.strip()[:60]}'"))
    return out


# -- a rate of counted rows over counted people, shown as a percentage above 100 % --------------

_COUNT_CALLS = {"size", "count", "nunique", "len", "value_counts"}
_COUNT_AGG_NAMES = {"size", "count", "nunique"}
# rates of a whole by name: each counted unit converts, stays, churns or responds at most once
_RATE_WORDS = {"conversion", "conv", "cvr", "retention", "retained", "churn", "ctr",
               "activation", "adoption", "redemption", "uptake", "signup", "response",
               "attendance", "participation", "enrolment", "enrollment", "winrate"}
_PERCENT_FORMAT_RE = re.compile(r"\{[^{}\n]*:[^{}\n'\"]*%\}")


def _count_columns(tree: ast.AST) -> set[str]:
    """Columns the cell fills with a count of rows: a `pd.DataFrame({"n": g.size()})`
    entry, `df["n"] = g.size()`, a named aggregation `n=("id", "size")` / `n="count"`."""
    out: set[str] = set()
    for node in _of(tree, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=False):
            if isinstance(k, ast.Constant) and isinstance(k.value, str) and _is_count(v, tree):
                out.add(k.value)
    for node in _of(tree, ast.Assign):
        for t in node.targets:
            if isinstance(t, ast.Subscript) and _is_count(node.value, tree):
                out |= _target_key(t)
    for node in _of(tree, ast.Call):
        if _call_last(node) in ("agg", "aggregate"):
            for kw in node.keywords:
                v = kw.value
                if isinstance(v, ast.Tuple) and len(v.elts) == 2:
                    v = v.elts[1]
                if kw.arg and isinstance(v, ast.Constant) and v.value in _COUNT_AGG_NAMES:
                    out.add(kw.arg)
    return out


def _is_count(node: ast.AST, tree: ast.AST, columns: set[str] | None = None,
              depth: int = 0) -> bool:
    """The expression is a number of rows / distinct values: `g.size()`, `.count()`,
    `.nunique()`, `len(x)`, `x.shape[0]`, a name bound once to one, or a column the cell
    fills with counts."""
    if depth > 3:
        return False
    if isinstance(node, ast.Call):
        last = _call_last(node)
        if last in _COUNT_CALLS:
            return True
        if last in ("reindex", "fillna", "astype", "rename", "sort_index") and isinstance(
                node.func, ast.Attribute):
            return _is_count(node.func.value, tree, columns, depth + 1)
        return False
    if isinstance(node, ast.Subscript):
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            return True
        return columns is not None and isinstance(node.slice, ast.Constant) and \
            node.slice.value in columns
    if isinstance(node, ast.Attribute) and columns is not None and node.attr in columns:
        return True
    if isinstance(node, ast.Name):
        bound = [a.value for a in _of(tree, ast.Assign) if len(a.targets) == 1 and
                 isinstance(a.targets[0], ast.Name) and a.targets[0].id == node.id]
        return len(bound) == 1 and _is_count(bound[0], tree, columns, depth + 1)
    return False


def _count_ratio(value: ast.AST, tree: ast.AST, columns: set[str],
                 whole: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """The expression divides one count of rows by another (`a.groupby(g).size() /
    b.groupby(g).size()`, `t["orders"] / t["users"]`, `n_events.div(n_users)`), possibly
    reshaped (`.unstack()`). `whole` are columns the kernel shows to hold whole non-negative
    numbers (a count loaded with the data): one side may be such a column when the other is
    a count the cell made."""
    both = columns | whole

    def pair(a: ast.AST, b: ast.AST) -> bool:
        if not (_is_count(a, tree, both) and _is_count(b, tree, both)):
            return False
        return not whole or _is_count(a, tree, columns) or _is_count(b, tree, columns)

    for b in _walk(value):
        if isinstance(b, ast.BinOp) and isinstance(b.op, ast.Div) and pair(b.left, b.right):
            return True
        if isinstance(b, ast.Call) and _call_last(b) in ("div", "divide", "truediv") and \
                isinstance(b.func, ast.Attribute) and b.args and \
                pair(b.func.value, b.args[0]):
            return True
    return False


def _whole_columns(ev: Evidence) -> set[str]:
    """Columns of the kernel's frames whose every shown value (range, tails, quantiles) is a
    whole number >= 0 with a positive median: counts loaded with the data (eligible,
    issued, invited, enrolled)."""
    out: set[str] = set()
    for f in ev.objects.values():
        if f.kind != "dataframe":
            continue
        for col, t in (f.tails or {}).items():
            q = (t or {}).get("q") or []
            shown = [v for v, _ in ((t.get("top") or []) + (t.get("bottom") or []))] + list(q)
            if len(q) == 3 and float(q[1]) > 0 and shown and all(
                    isinstance(v, int | float) and float(v) >= 0 and float(v).is_integer()
                    for v in shown):
                out.add(col)
    return out


def _count_ratio_hits(ev: Evidence, seen: set[str]) -> list[_Hit]:
    """A ratio of two counts of rows shown as a rate of a whole (formatted as a percentage
    in the cell, or named conversion / retention / churn...) whose kernel values mostly lie
    in [0, 1] (median below 0.8, or 1 for a rate word) yet exceed 1: the numerator counts
    rows (events, line items, visits) and the denominator people, so some units are counted
    more than once. Quiet for changes relative to a base, names that say the ratio is not a
    share (per, vs, index, growth...), rates per 1,000."""
    tree = ev.tree
    if tree is None or ("/" not in ev.code and "div" not in ev.code):
        return []
    percent_shown = bool(_PERCENT_FORMAT_RE.search(ev.code))
    columns = _count_columns(tree)
    whole = _whole_columns(ev) if columns else set()
    found: list[tuple[str, int, bool, float, list[float], list[float]]] = []
    for node in _of(tree, ast.Assign):
        if not _count_ratio(node.value, tree, columns, whole) or _relative_change(node.value):
            continue
        scaled = _percent_scaled(node.value)
        if scaled is None:
            continue
        for t in node.targets:
            for key in _target_key(t):
                toks = set(_tokens(key))
                if key in seen or toks & _PERCENT_EXCLUDE:
                    continue
                rate_word = bool(toks & _RATE_WORDS)
                if not (percent_shown or scaled or rate_word):
                    continue
                tops, mids = _kernel_values(ev, key, holder=isinstance(t, ast.Name))
                if not tops:
                    continue
                limit = 100.0 if scaled else 1.0
                found.append((key, node.lineno, rate_word, limit, tops,
                              [m / limit for m in mids] or [max(tops) / limit]))
    out: list[_Hit] = []
    for key, line, rate_word, limit, tops, mids in found:
        mid = sorted(mids)[len(mids) // 2]
        # a single value (a scalar): its typical level is that of the cell's other ratios
        others = sorted(m for k, *_, ms in found if k != key for m in ms)
        if len(mids) < 2 and others:
            mid = others[len(others) // 2]
        top = max(tops)
        # a rate of a whole by name, shown as a percentage: even when most units come out
        # a little above 100 % (every renewed policy counted once per transaction), the
        # author reads it as a share; a typical level far above it is another quantity
        ceiling = (1.25 if percent_shown or limit == 100.0 else 1.0) if rate_word else 0.8
        if top <= limit * 1.005 or mid > ceiling:
            continue
        over = sum(v > limit * 1.005 for v in tops)
        out.append((rate_word, top / limit, key, line, top * (100 / limit), over,
                    len(tops), 100.0,
                    f"the values of `{key}` (a count of rows over a count of units, shown "
                    "as a percentage)"))
    return out


def _kernel_values(ev: Evidence, key: str, holder: bool) -> tuple[list[float], list[float]]:
    """(values to test against the limit, values giving the typical level) the kernel holds
    for a variable (Series values, a scalar, every column of a DataFrame) or a column."""
    tops: list[float] = []
    mids: list[float] = []
    f = ev.objects.get(key) if holder else None
    if f is not None:
        if f.kind in ("series", "ndarray", "sequence") and f.values:
            tops = [float(v) for v in f.values if isinstance(v, int | float)]
            mids = list(tops)
        elif f.kind == "scalar" and isinstance(f.value, int | float) and \
                not isinstance(f.value, bool):
            tops = mids = [float(f.value)]
        elif f.kind == "dataframe":
            for col, rng in (f.ranges or {}).items():
                q = ((f.tails or {}).get(col) or {}).get("q") or []
                if rng and len(q) == 3:
                    tops.append(float(rng[1]))
                    mids.append(float(q[1]))
    elif not holder:
        for g in ev.objects.values():
            if g.kind == "dataframe" and key in (g.ranges or {}):
                q = ((g.tails or {}).get(key) or {}).get("q") or []
                if len(q) == 3:
                    top_rows = ((g.tails or {}).get(key) or {}).get("top") or []
                    tops = [float(v) for v, _ in top_rows] or [float(g.ranges[key][1])]
                    mids = [float(q[1])]
                    break
    tops = [v for v in tops if v == v and abs(v) != float("inf")]
    mids = [v for v in mids if v == v and abs(v) != float("inf")]
    return tops, mids


# -- capacity factors, load factors and conversion efficiencies above 100 % -----------------------

# quantities bounded by 1 by their definition: output over the most the plant or device could
# deliver (a capacity / load / availability factor, a capacity utilisation), or energy out over
# energy in for a conversion (a round-trip, thermal or inverter efficiency)
_FACTOR_RE = re.compile(
    r"(?i)\b(?:capacity|load|plant|availability|utili[sz]ation)[\s_-]*factors?\b|"
    r"\bcapacity[\s_-]*utili[sz]ation\b|"
    r"\b(?:round[\s_-]*trip|conversion|thermal|combustion|inverter|boiler|charging|"
    r"collection|capture|removal)[\s_-]+efficienc(?:y|ies)\b")
# a line or title that speaks of a change, a comparison or a target, not the factor itself
_FACTOR_NOT_LEVEL = re.compile(
    r"(?i)\b(?:change|changes|increase|decrease|growth|grew|rose|fell|up|down|uplift|gain|"
    r"improvement|improved|relative|vs|versus|than|above|below|difference|ratio|target|"
    r"plan|budget|index|yoy|per)\b|%\s*(?:pts?|points)")
_PERCENT_NUM = re.compile(r"(?<![\w.])([-+]?\d+(?:\.\d+)?)\s*%")
_TABLE_CELL = re.compile(r"^[-+]?(?:\d+\.\d*|\.\d+|\d+)$")


def _factor_lines(text: str) -> list[tuple[float, str, float]]:
    """(value, line, limit) of printed percentages above 100 % on a line that names a
    capacity / load factor or a conversion efficiency ('Fallago at 112.0% Q1 capacity
    factor')."""
    out: list[tuple[float, str, float]] = []
    for line in text[:30_000].splitlines()[:600]:
        if not _FACTOR_RE.search(line) or _FACTOR_NOT_LEVEL.search(line):
            continue
        for m in _PERCENT_NUM.finditer(line):
            v = float(m.group(1))
            if v > 100.5:
                out.append((v, line.strip(), 100.0))
    return out


def _factor_tables(text: str) -> list[tuple[float, str, float]]:
    """(largest value, title, limit) of a printed table right under a title that names such
    a factor ('Q1 monthly capacity factor'), whose cells are fractions (median at most 1)
    with some above 1, or percentages (a '%' in the title) above 100."""
    out: list[tuple[float, str, float]] = []
    lines = text[:30_000].splitlines()[:600]
    for i, title in enumerate(lines):
        if not _FACTOR_RE.search(title) or _FACTOR_NOT_LEVEL.search(title):
            continue
        rest = [ln for ln in lines[i + 1:i + 4]]
        if not rest or not rest[0].strip() or any(
                _TABLE_CELL.match(t) and "." in t for t in rest[0].split()):
            continue  # no header row right under the title
        values: list[float] = []
        for row in lines[i + 2:i + 202]:
            if not row.strip() or row.startswith(("Name:", "dtype:")):
                break
            cells = row.split()[1:]
            values += [float(c) for c in cells if _TABLE_CELL.match(c)]
        if len(values) < 2:
            continue
        pct = bool(re.search(r"%|percent", title, re.I))
        top = max(values)
        mid = sorted(values)[len(values) // 2]
        if pct and top > 100.5:
            out.append((top, title.strip(), 100.0))
        elif not pct and mid <= 1.0 and 1.005 < top <= 5:
            out.append((top, title.strip(), 1.0))
    return out


@rule("suspicious_values.factor_over_100",
      title="Capacity factor, load factor or conversion efficiency above 100 %")
def factor_over_100(ev: Evidence) -> Iterator[Finding]:
    """A capacity factor (energy produced over what the nameplate capacity could produce in
    the period), a load or availability factor, a capacity utilisation and a conversion
    efficiency (energy out over energy in) cannot exceed 100 % (1 as a fraction). A printed
    value above it means the denominator is wrong: an outdated or partial capacity (a plant
    repowered or extended since the register was written), hours of the wrong period, units
    mixed (kW against MW, 10-minute power summed as energy). Evidence: a percentage above
    100 % printed on a line that names the factor, or a printed table of fractions titled
    with it whose cells exceed 1. The cell must compute a ratio. Quiet for lines about a
    change, a comparison or a target (up 120 %, vs plan)."""
    text = ev.text or ""
    if not text or not _FACTOR_RE.search(text) or ("/" not in ev.code and "div" not in ev.code):
        return
    hits = _factor_lines(text) + _factor_tables(text)
    if not hits:
        return
    value, where, limit = max(hits, key=lambda h: h[0] / h[2])
    shown = f"{value:g}%" if limit == 100 else f"{value:g} (as a fraction, {value:.1%})"
    yield Finding(
        explanation=(f"The output shows {shown} for a capacity / load factor or a conversion "
                     f"efficiency ('{where[:90]}'), and {len(hits)} such value"
                     f"{'s' if len(hits) > 1 else ''} above {'100 %' if limit == 100 else '1'}"
                     ". That is impossible: no plant or device delivers more than its capacity "
                     "over the period, and no conversion returns more energy than went in. The "
                     "denominator is wrong (a capacity from an outdated register, e.g. before "
                     "repowering; the wrong number of hours; kW against MW), so every factor "
                     "computed with it, and any ranking of them, is wrong."),
        severity="critical", confidence=0.85,
        evidence={"lines": [], "values": {"max_shown": value, "limit": limit,
                                          "n_above": len(hits)}},
        suggestion=("Check the denominator against the data: the metered peak must not exceed "
                    "the capacity used (`assert (power.max() <= capacity).all()`), use the "
                    "capacity in force over the period and the period's real hours, then "
                    "`assert factor.between(0, 1).all()` before ranking or reporting."))
