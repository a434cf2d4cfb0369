"""Gathering every observed value once per evidence (`_Obs`, `_scan`): from the kernel's
facts, from result objects and from the printed text; plus the shared range check and
finding builder the range rules use."""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass, field

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...evidence import Evidence, ObjectFacts
from ...findings import Finding
from ._code import _Code, _not_roc_auc, _Origin, _Position
from ._text import (
    _COUNT_ROWS,
    _MAX_LINES,
    _MAX_TEXT,
    _computed_columns,
    _label_quantity,
    _match_site,
    _report_sites,
    _series_blocks,
    _tables,
    _text_numbers,
    _to_float,
)
from ._vocabulary import (
    _NOT_A_VALUE,
    _PLURAL_VARIANCE,
    _TRAIN_TOKENS,
    METRIC_QUANTITIES,
    PERFECT_QUANTITIES,
    _context_of_tokens,
    _fmt,
    _name_quantity,
    _tokens,
)

# -- observations ---------------------------------------------------------------------------


@dataclass
class _Obs:
    quantity: str
    values: list[float]
    source: str  # facts | text
    where: str  # what to cite: "`p_adj`" or "printed 'R2: -0.31'"
    lines: list[int] = field(default_factory=list)
    context: str | None = None
    train_visible: bool = False
    label_train: bool = False
    strong: bool = True
    multi: bool = False  # one of several values (a sequence, a table, a dict of models)
    is_dict: bool = False
    reported: bool = True
    percent: bool = False
    estimator: str | None = None
    data_names: set[str] = field(default_factory=set)
    intermediate: bool = False  # the last value of a loop variable that is not itself shown


# -- gathering everything once per evidence ----------------------------------------------------


@dataclass
class _Scan:
    obs: list[_Obs]
    code: _Code
    heldout_reported: bool
    metric_count: int


_CACHE: list[tuple[weakref.ref, _Scan]] = []


def _scan(ev: Evidence) -> _Scan:
    for ref, scan in _CACHE:
        if ref() is ev:
            return scan
    scan = _build_scan(ev)
    _CACHE[:] = [(weakref.ref(ev), scan)]
    return scan


def _build_scan(ev: Evidence) -> _Scan:
    code = _Code(ev)
    obs: list[_Obs] = []
    obs += _fact_observations(ev, code)
    obs += _text_observations(ev, code)
    heldout = any(o.quantity in METRIC_QUANTITIES and o.context in ("test", "cv")
                  for o in obs)
    # distinct R² / score values the cell shows: several models, folds or targets
    metric_count = len({round(v, 2) for o in obs if o.quantity in ("r2", "score")
                        for v in o.values[:20]})
    return _Scan(obs, code, heldout, metric_count)


def _fact_observations(ev: Evidence, code: _Code) -> list[_Obs]:
    out: list[_Obs] = []
    model = code.model
    stored = set(model.stored_names)
    reported_names = model.reported_names
    for name, facts in ev.objects.items():
        if facts.kind in ("module", "callable", "class", "dataframe", "other"):
            continue
        reported = name in reported_names or name in code.reported_closure
        if name not in stored and not reported:
            continue  # an earlier cell's object this cell only used
        if facts.kind == "result":
            out += _result_observations(name, facts, reported)
            continue
        if facts.kind == "estimator":
            best = facts.fitted_on.get("best_score_")
            if isinstance(best, int | float) and not isinstance(best, bool) and reported:
                binds = code.assign.get(name, [])
                value = binds[-1][1] if binds else None
                q = code._cv_quantity(value) if isinstance(value, ast.Call) else "score"
                if q is None:
                    continue
                out.append(_Obs(q, [float(best)], "facts", f"`{name}.best_score_`",
                                [b[0] for b in code.assign.get(name, [])][-1:], "cv"))
            continue
        if name in code.loop_targets and name not in code.assign:
            continue
        values: list[float]
        if facts.kind == "scalar":
            if not isinstance(facts.value, float) or isinstance(facts.value, bool):
                continue
            values = [facts.value]
        elif facts.values:
            values = list(facts.values)
        else:
            continue
        binds = code.assign.get(name, [])
        if binds and _is_log_scale(binds[-1][1]):
            continue  # log-probabilities, -log10(p): negative or above 1 by design
        origin = code.origin(binds[-1][1]) if binds else _Origin()
        nq = _name_quantity(name)
        quantity = origin.quantity
        strong = True
        if quantity in _NOT_A_VALUE:
            if nq is None:
                continue
            if not nq[1]:
                confirmed = (nq[0] == "pvalue" and code.has_test) or (
                    nq[0] == "correlation" and code.has_corr)
                if not reported:
                    continue
                if not confirmed and not (nq[0] == "pvalue" and _p_of_event(name)):
                    continue
                strong = False
                if not confirmed:  # `p_click`, `p_default` with no test: P(event)
                    nq = ("probability", False)
            quantity = nq[0]
        elif quantity == "score" and nq and nq[1] and nq[0] in PERFECT_QUANTITIES:
            quantity = nq[0]
        if quantity == "pvalue_clipped":
            continue
        if quantity == "auc" and _not_roc_auc(name, values, False, code):
            continue
        if quantity == "variance" and facts.kind != "scalar" and origin.quantity != "variance" \
                and not set(_tokens(name)) & _PLURAL_VARIANCE:
            continue
        ctx = origin.context or _context_of_tokens(_tokens(name))
        lines = [b[0] for b in binds][-1:] or origin.lines
        out.append(_Obs(quantity, values, "facts", f"`{name}`", lines, ctx,
                        origin.train_visible, "train" in _tokens(name) or "training"
                        in _tokens(name), strong, facts.kind != "scalar",
                        facts.type == "builtins.dict", reported, estimator=origin.estimator,
                        data_names=origin.data_names,
                        intermediate=name in code.loop_assigned and name not in reported_names))
    return out


def _p_of_event(name: str) -> bool:
    """`p_purchase`, `pClick`, `p_default_12m`: P(event), bounded like a p-value."""
    toks = _tokens(name)
    return len(toks) >= 2 and toks[0] == "p" and toks[1].isalpha() and len(toks[1]) > 2


def _is_log_scale(value: ast.AST) -> bool:
    node = value.value if isinstance(value, _Position) else value
    for sub in _walk(node):
        if isinstance(sub, ast.Call) and "log" in _call_last(sub).lower():
            return True
    return False


def _result_observations(name: str, facts: ObjectFacts, reported: bool) -> list[_Obs]:
    out: list[_Obs] = []
    p = facts.params
    if isinstance(p.get("pvalue"), int | float):
        out.append(_Obs("pvalue", [float(p["pvalue"])], "facts", f"`{name}.pvalue`",
                        reported=reported))
    if facts.values and "rsquared" in p:
        out.append(_Obs("pvalue", list(facts.values), "facts", f"`{name}.pvalues`",
                        multi=True, reported=reported))
    if isinstance(p.get("rsquared"), int | float):
        out.append(_Obs("r2", [float(p["rsquared"])], "facts", f"`{name}.rsquared`",
                        context="insample", reported=reported))
    if isinstance(p.get("correlation"), int | float):
        out.append(_Obs("correlation", [float(p["correlation"])], "facts",
                        f"`{name}.correlation`", reported=reported))
    return out


def _text_observations(ev: Evidence, code: _Code) -> list[_Obs]:
    text = ev.text
    if not text:
        return []
    out: list[_Obs] = []
    sites = _report_sites(code.model.tree)
    has_test, has_corr = code.has_test, code.has_corr
    per_feature = _shows_per_feature_estimates(code)
    for tn in _text_numbers(text):
        found = _label_quantity(tn.label)
        if found is None:
            continue
        if per_feature and not tn.in_list and _SERIES_ROW.fullmatch(tn.line):
            # a bare 'name   value' row while the cell shows a fitted model's coefficients
            # per feature: the row label is a feature's name ('AUC', 'prob_default'), the
            # value its coefficient
            continue
        quantity, strong = found
        if tn.formula:
            continue  # a term of a printed equation ('logit P = -13.0 + 0.029 * x')
        if tn.measure and quantity in _UNITLESS:
            continue  # '450 MPa', '12 days': a measurement, not a probability or a score
        site = _match_site(tn.label, sites)
        origin = code.origin(site.expr) if site else _Origin()
        if origin.quantity in _NOT_A_VALUE:
            origin.quantity = None
        if not strong:
            if origin.quantity == quantity or (quantity == "score" and origin.quantity
                                               in PERFECT_QUANTITIES):
                quantity = origin.quantity or quantity
            elif origin.quantity is None and (
                    (quantity == "pvalue" and has_test) or (quantity == "correlation"
                                                            and has_corr)):
                pass
            else:
                continue
        elif quantity == "score" or (origin.quantity in PERFECT_QUANTITIES
                                     and quantity in PERFECT_QUANTITIES):
            quantity = origin.quantity or quantity
        if origin.quantity == "pvalue_clipped" and quantity == "pvalue":
            continue
        toks = _tokens(tn.label)
        ctx = _context_of_tokens(toks) or origin.context
        label_train = any(t in _TRAIN_TOKENS for t in toks)
        if quantity == "pvalue" and "." not in tn.text and "e" not in tn.text.lower():
            continue  # "p = 3": a count of predictors, not a p-value
        if quantity == "correlation" and not strong and "." not in tn.text:
            continue
        if quantity == "auc" and _not_roc_auc(tn.label, [tn.value], tn.unit, code):
            continue
        out.append(_Obs(quantity, [tn.value], "text", f"printed '{tn.line[:80]}'",
                        [site.line] if site else [], ctx, origin.train_visible, label_train,
                        strong or origin.quantity == quantity, tn.in_list, False, True,
                        tn.percent, origin.estimator, origin.data_names))
    out += _describe_observations(text, code)
    computed = _computed_columns(code.model.tree)
    for col, values in _series_blocks(text):
        nq = _name_quantity(col)
        if nq and nq[1] and col in computed:
            out.append(_Obs(nq[0], values, "text", f"the printed Series '{col}'",
                            context=_context_of_tokens(_tokens(col)), multi=True))
    for col, labels, values in _tables(text, computed):
        nq = _name_quantity(col)
        if not nq:
            continue
        if nq[0] == "variance" and any(v < 0 for v in values) and _signed_column(code, col):
            continue  # the column holds a fitted model's coefficients: signed by nature
        ctx = _context_of_tokens(_tokens(col))
        for lab, v in zip(labels, values, strict=False):
            if lab.lower() in _COUNT_ROWS:
                continue  # describe()'s count row, value_counts…
            row_ctx = _context_of_tokens(_tokens(lab)) if lab else None
            out.append(_Obs(nq[0], [v], "text", f"column '{col}' of the printed table"
                            + (f" (row {lab})" if lab else ""), context=row_ctx or ctx,
                            label_train=(row_ctx or ctx) == "train", multi=len(values) > 1))
    return out


# a pandas Series row: an index label, two or more blanks, one number, nothing else
_SERIES_ROW = re.compile(r"[^\s:=][^:=]*?\s{2,}[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")
def _shows_per_feature_estimates(code: _Code) -> bool:
    """The cell shows (prints or displays) something read from a fitted model's
    per-feature estimates: `pd.Series(model.coef_.ravel(), index=X.columns)`, `.params`,
    `feature_importances_`."""
    if not _ESTIMATE_ATTR.search(code.ev.code or "") and \
            not _ESTIMATE_ATTR.search(code.ev.prior_code or ""):
        return False  # no such attribute is read anywhere: skip the walks
    return any(_reads_signed(code, e, 0) or any(
        isinstance(x, ast.Attribute) and x.attr in ("feature_importances_",
                                                     "importances_mean")
        for x in _walk(e)) for e in code.model.reported_exprs)


# attributes of fitted models that hold signed estimates (coefficients, loadings, t values)
_SIGNED_ATTRS = {"coef_", "intercept_", "params", "coef", "coefs_", "components_", "tvalues",
                 "dual_coef_", "loadings", "loadings_", "x_loadings_", "y_loadings_",
                 "fe_params", "coef_path_", "scalings_", "x_weights_"}
_ESTIMATE_ATTR = re.compile(r"\.\s*(?:" + "|".join(sorted(
    _SIGNED_ATTRS | {"feature_importances_", "importances_mean"})) + r")\b")


def _signed_column(code: _Code, col: str) -> bool:
    """The expression the cell stores under column `col` (a dict key of a DataFrame it
    builds, `assign(col=…)`, `df[col] = …`) reads a fitted model's coefficients, directly or
    through a variable: `pd.DataFrame({"std_coef": model[-1].coef_[0]})`."""
    exprs: list[ast.AST] = []
    for node in _walk(code.model.tree):
        if isinstance(node, ast.Dict):
            exprs += [v for k, v in zip(node.keys, node.values, strict=False)
                      if isinstance(k, ast.Constant) and k.value == col]
        elif isinstance(node, ast.Call):
            exprs += [k.value for k in node.keywords if k.arg == col]
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)
                and t.slice.value == col for t in node.targets):
            exprs.append(node.value)
    return any(_reads_signed(code, e, 0) for e in exprs)


def _reads_signed(code: _Code, node: ast.AST, depth: int) -> bool:
    if depth > 3:
        return False
    for sub in _walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in _SIGNED_ATTRS:
            return True
        if isinstance(sub, ast.Name) and sub.id in code.assign:
            value = code.assign[sub.id][-1][1]
            value = value.value if isinstance(value, _Position) else value
            if value is not node and _reads_signed(code, value, depth + 1):
                return True
    return False


# quantities without a unit of measurement: a number followed by MPa, kg or days is not one
_UNITLESS = {"pvalue", "probability", "correlation", "accuracy", "auc", "f1", "bounded", "r2",
             "adj_r2", "score"}

_DESCRIBE_ROW = re.compile(r"^\s*(mean|min|max|\d+(?:\.\d+)?%)\s+"
                           r"([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan))\s*$")
_BOUNDED_SUMMARIES = {"probability", "pvalue", "correlation", "accuracy", "auc", "f1",
                      "bounded"}


def _describe_observations(text: str, code: _Code) -> list[_Obs]:
    """`print(p_default.describe())`: the printed mean / min / percentiles / max of one
    Series whose name says it is a probability (or another bounded quantity). Only when the
    cell shows a single describe(), so that the summary rows belong to it."""
    if "describe" not in code.ev.code or "max" not in text:
        return []
    sites = [c for c in code.model.calls if c.method == "describe" and c.receiver is not None]
    if len(sites) != 1:
        return []
    call = sites[0]
    shown = any(any(sub is call.node for sub in _walk(e))
                for e in code.model.reported_exprs)
    if not shown:
        return []
    recv = call.receiver
    name = None
    if isinstance(recv, ast.Name):
        name = recv.id
    elif isinstance(recv, ast.Subscript) and isinstance(recv.slice, ast.Constant) and \
            isinstance(recv.slice.value, str):
        name = recv.slice.value
    elif isinstance(recv, ast.Attribute):
        name = recv.attr
    if name is None:
        return []
    quantity, strong = _bounded_name(name, code)
    if quantity is None:
        origin = code.origin(recv)
        quantity, strong = origin.quantity, True
    if quantity not in _BOUNDED_SUMMARIES:
        return []
    values: list[float] = []
    for line in text[:_MAX_TEXT].splitlines()[:_MAX_LINES]:
        m = _DESCRIBE_ROW.match(line)
        if m:
            v = _to_float(m.group(2))
            if v is not None and v == v:
                values.append(v)
    if not values:
        return []
    return [_Obs(quantity, values, "text", f"the printed describe() of `{name}`",
                 [call.line], strong=strong, multi=True)]


def _bounded_name(name: str, code: _Code) -> tuple[str | None, bool]:
    """What a variable or column name says it holds: ('probability', strong) for probs /
    p_hat, ('probability', False) for `p_default` in a cell without a statistical test."""
    nq = _name_quantity(name)
    if nq is None:
        return None, False
    if nq[0] == "pvalue" and not nq[1]:
        if _p_of_event(name) and not code.has_test:
            return "probability", False
        return ("pvalue", False) if code.has_test else (None, False)
    return nq


# -- range checks --------------------------------------------------------------------------------


def _scaled(o: _Obs, v: float, allow_percent: bool) -> float | None:
    """A value on the 0..1 scale; None when it may be a percentage written without '%'
    (accuracy 93.5 is a percentage; a 'probability' of 65 may be one too)."""
    if o.percent:
        return v / 100
    if allow_percent and 1 < v <= 100:
        return v / 100
    if 2 <= v <= 100 and o.quantity in ("r2", "probability", "bounded") and max(o.values) <= 100:
        return None
    return v


def _confidence(o: _Obs, facts: float, text: float) -> float:
    c = facts if o.source == "facts" else text
    if not o.strong:
        c -= 0.15
    if not o.reported:
        c -= 0.05
    return c


def _finding(bad: list[tuple[_Obs, list[float]]], what: str, severity: str, confidence: float,
             suggestion: str, extra: str = "") -> Finding:
    parts = []
    lines: list[int] = []
    values: dict[str, object] = {}
    for o, vals in bad[:5]:
        shown = ", ".join(_fmt(v) for v in vals[:5]) + (" …" if len(vals) > 5 else "")
        parts.append(f"{o.where} = {shown}" if o.source == "facts" else f"{o.where} ({shown})")
        lines += o.lines
        values[o.where.strip("`")[:60]] = vals[:5] if len(vals) > 1 else vals[0]
    if len(bad) > 5:
        parts.append(f"and {len(bad) - 5} more")
    where = "; ".join(parts)
    return Finding(explanation=f"{what}: {where}.{extra}", severity=severity,
                   confidence=confidence,
                   evidence={"lines": sorted(set(lines)), "values": values},
                   suggestion=suggestion)


def _out_of_range(scan: _Scan, quantities: set[str], low: float, high: float, *,
                  allow_percent: bool = False) -> list[tuple[_Obs, list[float]]]:
    bad: list[tuple[_Obs, list[float]]] = []
    for o in scan.obs:
        if o.quantity not in quantities:
            continue
        vals = []
        for v in o.values:
            s = _scaled(o, v, allow_percent)
            if s is not None and (s < low - 1e-9 or s > high + 1e-9):
                vals.append(v)
        if vals:
            bad.append((o, vals))
    return bad
