"""Linear probability models: predictions of a 0/1 response from OLS / LinearRegression
reported outside [0, 1]."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import names_in as _names
from ...code_model import root_name as _root
from ...evidence import Evidence, ObjectFacts
from ...findings import Finding
from ...rule import rule
from ._code import _Code, _of
from ._scan import _scan
from ._vocabulary import _fmt, _tokens

# -- linear probability model: predictions of a 0/1 response outside [0, 1] -------------------

_LPM_FORMULA = {"ols", "wls"}  # statsmodels.formula.api
_LPM_ARRAY = {"OLS", "WLS"}  # statsmodels.api
_LPM_SKLEARN = {"LinearRegression", "Ridge", "Lasso", "ElasticNet", "RidgeCV", "LassoCV",
                "ElasticNetCV", "BayesianRidge"}
_LPM_WORDS = {"p", "prob", "probs", "proba", "probability", "probabilities", "chance",
              "chances", "likelihood", "risk", "risks", "propensity", "share", "pct",
              "percent", "phat", "rate", "odds_of", "pd", "pds"}
_LPM_PASS = {"round", "head", "tail", "to_string", "to_frame", "to_numpy", "tolist",
             "sort_values", "nlargest", "nsmallest", "describe", "max", "min", "item",
             "float", "squeeze", "reset_index", "rename", "astype", "print", "display",
             "iloc", "loc", "values", "mean", "median", "quantile", "agg"}
_LPM_NOT_PRED = {"clip", "minimum", "maximum", "expit", "sigmoid", "logistic", "cdf", "sum",
                 "cumsum", "count", "len", "nunique", "idxmax", "idxmin", "argmax", "argmin",
                 "std", "var", "sem", "between", "isna", "notna", "value_counts", "corr"}
_LPM_NUM = r"(-?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?%?)"


def _binary_facts(facts: ObjectFacts | None, col: str) -> bool:
    """A 0/1 (or boolean) column `col` of a frame (`""`: a Series / array) by the kernel."""
    if facts is None or facts.unique.get(col) != 2:
        return False
    if facts.dtypes.get(col, "").startswith("bool"):
        return True
    rng = facts.ranges.get(col)
    if rng is None and col in facts.tails:
        t = facts.tails[col]
        rng = [t["bottom"][0][0], t["top"][0][0]] if t.get("top") and t.get("bottom") else None
    return rng is not None and [float(rng[0]), float(rng[1])] == [0.0, 1.0]


# a modelled rate / probability response: a non-binary column the kernel shows inside [0, 1]
# whose name says it is a rate (default_rate, pd, churn_rate, conversion, share…)
_RATE_RESPONSE_WORDS = {"rate", "rates", "pd", "pds", "prob", "probs", "probability", "proba",
                        "share", "shares", "proportion", "prop", "fraction", "frac", "churn",
                        "conversion", "conv", "ctr", "cvr", "default", "incidence",
                        "prevalence", "ratio"}


def _rate_facts(facts: ObjectFacts | None, col: str) -> list[float] | None:
    """[min, max] of a non-binary column inside [0, 1] (kernel facts), else None."""
    if facts is None or (facts.unique.get(col) or 0) <= 2:
        return None
    rng = facts.ranges.get(col)
    if rng is None and col in facts.tails:
        t = facts.tails[col]
        rng = [t["bottom"][0][0], t["top"][0][0]] if t.get("top") and t.get("bottom") else None
    if rng is None or not (float(rng[0]) >= 0.0 and float(rng[1]) <= 1.0):
        return None
    return [float(rng[0]), float(rng[1])]


def _rate_name(name: str) -> bool:
    return bool(set(_tokens(name)) & _RATE_RESPONSE_WORDS)


def _response_facts(facts: ObjectFacts | None, col: str, name: str) -> str | None:
    """How the kernel shows the response bounded: "holds only 0 and 1" (a 0/1 outcome) or
    "is a rate between a and b" (a rate / probability named as one), else None."""
    if _binary_facts(facts, col):
        return "holds only 0 and 1: a linear probability model"
    rng = _rate_facts(facts, col) if _rate_name(name) else None
    if rng is not None:
        return (f"is a rate / probability (the kernel shows it between {_fmt(rng[0])} and "
                f"{_fmt(rng[1])}), fitted on its own scale with no link keeping it in [0, 1]")
    return None


def _bounded_response(ev: Evidence, node: ast.AST | None,
                      depth: int = 0) -> tuple[str, str] | None:
    """(name, how bounded) of a 0/1 or [0, 1]-rate response expression (`df["y"]`, `df.y`,
    `y`), by the kernel facts."""
    if node is None or depth > 3:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("astype", "to_numpy", "ravel"):
        return _bounded_response(ev, node.func.value, depth + 1)
    if isinstance(node, ast.Attribute) and node.attr == "values":
        return _bounded_response(ev, node.value, depth + 1)
    frame, col = None, None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        frame, col = node.value.id, node.slice.value
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        frame, col = node.value.id, node.attr
    if frame is not None and col is not None:
        facts = ev.objects.get(frame) or ev.before.get(frame)
        how = _response_facts(facts, col, col)
        return (f"{frame}.{col}", how) if how else None
    if isinstance(node, ast.Name):
        facts = ev.objects.get(node.id) or ev.before.get(node.id)
        how = _response_facts(facts, "", node.id)
        return (node.id, how) if how else None
    return None


def _lpm_fits(ev: Evidence, code: _Code,
              bounded: dict[str, str] | None = None) -> dict[str, tuple[str, int, str]]:
    """{name holding a linear model fitted on a 0/1 (or [0, 1] rate) response: (response,
    line, how)}; how each response is bounded is filled into `bounded` {response: how}."""
    tree = code.model.tree
    bnd: dict[str, str] = {} if bounded is None else bounded
    roots: list[tuple[ast.Call, str, str]] = []  # (call, response, how)
    for call in _of(tree, ast.Call):
        last = _call_last(call)
        if last in _LPM_FORMULA:
            f = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "formula"), None)
            data = call.args[1] if len(call.args) > 1 else next(
                (k.value for k in call.keywords if k.arg == "data"), None)
            if not (isinstance(f, ast.Constant) and isinstance(f.value, str) and "~" in f.value
                    and isinstance(data, ast.Name)):
                continue
            lhs = f.value.split("~", 1)[0].strip()
            bounded = _response_facts(ev.objects.get(data.id) or ev.before.get(data.id),
                                      lhs, lhs) if re.fullmatch(r"\w+", lhs) else None
            if bounded:
                bnd[f"{data.id}.{lhs}"] = bounded
                roots.append((call, f"{data.id}.{lhs}", f"`{last}` (least squares)"))
        elif last in _LPM_ARRAY:
            y = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "endog"), None)
            hit = _bounded_response(ev, y)
            if hit:
                bnd[hit[0]] = hit[1]
                roots.append((call, hit[0], f"`{last}` (least squares)"))
        elif last == "fit" and isinstance(call.func, ast.Attribute) and len(call.args) >= 2:
            est = call.func.value
            cls = _call_last(est) if isinstance(est, ast.Call) else None
            if isinstance(est, ast.Name):
                facts = ev.objects.get(est.id)
                cls = facts.type.rsplit(".", 1)[-1] if facts and facts.type else None
                if cls is None:
                    binds = code.assign.get(est.id, [])
                    if binds and isinstance(binds[-1][1], ast.Call):
                        cls = _call_last(binds[-1][1])  # type: ignore[arg-type]
            if cls in _LPM_SKLEARN:
                hit = _bounded_response(ev, call.args[1])
                resp = hit[0] if hit else None
                if hit:
                    bnd[hit[0]] = hit[1]
                    roots.append((call, resp, f"`{cls}`"))
                    if isinstance(est, ast.Name):
                        roots.append((est, resp, f"`{cls}`"))  # type: ignore[arg-type]
    out: dict[str, tuple[str, int, str]] = {}
    for node, resp, how in roots:
        if isinstance(node, ast.Name):
            out[node.id] = (resp, getattr(node, "lineno", 0), how)
    for _ in range(2):
        for st in _of(tree, ast.Assign):
            inner = set(map(id, _walk(st.value)))
            hit = next(((resp, how) for node, resp, how in roots if id(node) in inner), None)
            if hit is None and isinstance(st.value, ast.Call) and _call_last(st.value) == "fit" \
                    and isinstance(st.value.func, ast.Attribute) and \
                    _root(st.value.func.value) in out:
                resp, _, how = out[_root(st.value.func.value)]  # type: ignore[index]
                hit = (resp, how)
            if hit:
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, (hit[0], st.lineno, hit[1]))
    return out


def _params_of(node: ast.AST, models: dict) -> bool:  # type: ignore[type-arg]
    return any(isinstance(x, ast.Attribute) and x.attr in ("params", "coef_", "intercept_")
               and _root(x) in models for x in _walk(node))


def _is_lpm_prediction(node: ast.AST, models: dict, preds: set[str],  # type: ignore[type-arg]
                       cols: dict[str, set[str]] | None = None) -> bool:
    """`node` computes predictions of one of `models`: `.predict(…)`, `.fittedvalues`,
    `.get_prediction(…).predicted_mean`, a dot product of `.params` / `.coef_` with a design
    row, a name already known to hold such predictions, or (with `cols` {frame: prediction
    columns}) a frame column they were stored in (`d["p"].min()` after `d["p"] = m.predict(d)`)."""
    for x in _walk(node):
        if isinstance(x, ast.Call) and _call_last(x) in _LPM_NOT_PRED:
            return False  # bounded (clip, expit), or a count / spread of the predictions
        if isinstance(x, ast.Compare | ast.BoolOp):
            return False  # `(p > 1).sum()`: how many are out of range, not a prediction
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mult | ast.Div) and any(
                isinstance(s, ast.Constant) and isinstance(s.value, int | float)
                for s in (x.left, x.right)):
            return False  # `p * 100`: rescaled, read by its own scale
    for x in _walk(node):
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Attribute) and \
                x.func.attr in ("predict", "get_prediction") and _root(x.func) in models:
            return True
        if isinstance(x, ast.Attribute) and x.attr in ("fittedvalues", "predicted_mean") and \
                _root(x) in models:
            return True
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.MatMult) and _params_of(x, models):
            return True
        if isinstance(x, ast.Call) and _call_last(x) in ("dot", "inner", "matmul") and \
                _params_of(x, models):
            return True
        if isinstance(x, ast.Name) and x.id in preds:
            return True
        if cols and isinstance(x, ast.Subscript | ast.Attribute) and \
                isinstance(x.value, ast.Name) and x.value.id in cols and \
                _column_name(x) in cols[x.value.id]:
            return True
    return False


def _column_name(node: ast.Subscript | ast.Attribute) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    s = node.slice
    return s.value if isinstance(s, ast.Constant) and isinstance(s.value, str) else None


def _lpm_pred_names(code: _Code, models: dict) -> set[str]:  # type: ignore[type-arg]
    preds: set[str] = set()
    tree = code.model.tree
    for _ in range(3):
        for st in _of(tree, ast.Assign):
            if _is_lpm_prediction(st.value, models, preds):
                for t in st.targets:
                    preds |= _names(t) if isinstance(t, ast.Name | ast.Tuple) else set()
        for loop in _of(tree, ast.For, ast.comprehension):
            if _is_lpm_prediction(loop.iter, models, preds):
                preds |= _names(loop.target)
    return preds


def _lpm_label(*texts: str) -> bool:
    for text in texts:
        toks = set(_tokens(text))
        if toks & _LPM_WORDS or "%" in text:
            return True
    return False


def _shown_in_text(text: str, v: float) -> str | None:
    """The printed token of `v` (rounded as displayed), if the output shows it: as a
    decimal ('-0.49', '1.22') or as a percentage ('-49%', '122.0%')."""
    for m in re.finditer(r"(?<![\w.])-?\d+(?:\.\d+)?(%?)", text):
        tok = m.group(0)
        pct = bool(m.group(1))
        num = tok.rstrip("%")
        decimals = len(num.split(".")[1]) if "." in num else 0
        if decimals == 0 and not pct:
            continue
        try:
            t = float(num) / (100 if pct else 1)
        except ValueError:
            continue
        tol = 0.5 * 10 ** -decimals / (100 if pct else 1) + 1e-9
        if (t > 1 or t < 0) and abs(t - v) <= tol:
            return tok
    return None


def _fstring_values(js: ast.JoinedStr, field_idx: int, text: str, anchored: bool) -> list[float]:
    parts = []
    for i, v in enumerate(js.values):
        if isinstance(v, ast.Constant):
            parts.append(re.escape(str(v.value)))
        elif i == field_idx:
            parts.append(_LPM_NUM)
        else:
            parts.append(r".*?")
    pattern = ("(?m)^" if anchored else "") + "".join(parts)
    out: list[float] = []
    try:
        for m in re.finditer(pattern, text):
            tok = m.group(1).replace(",", "")
            v = float(tok.rstrip("%")) / (100 if tok.endswith("%") else 1)
            out.append(v)
    except (re.error, ValueError, IndexError):
        return []
    return out


def _frame_facts_range(facts: ObjectFacts | None, col: str) -> list[float]:
    if facts is None:
        return []
    if facts.values and col == "":
        return list(facts.values)
    if isinstance(facts.value, int | float) and not isinstance(facts.value, bool):
        return [float(facts.value)]
    rng = facts.ranges.get(col)
    if rng:
        return [float(rng[0]), float(rng[1])]
    t = facts.tails.get(col)
    if t and t.get("top") and t.get("bottom"):
        return [float(t["bottom"][0][0]), float(t["top"][0][0])]
    return []


# the point prediction only: an interval (of the mean, or for a new 0/1 observation) may
# cross 0 or 1 around a prediction that does not
_SUMMARY_FRAME_COLUMNS = ("mean",)


def _prediction_columns(value: ast.AST, models: dict, preds: set[str]) -> list[str]:  # type: ignore[type-arg]
    """Columns of a frame expression that hold predictions of `models`: `assign(col=pred)`
    keywords, `pd.DataFrame({"col": pred})` keys, or the point column of a statsmodels
    `get_prediction(...).summary_frame()`."""
    cols: list[str] = []
    for x in _walk(value):
        if not isinstance(x, ast.Call):
            continue
        last = _call_last(x)
        if last == "assign":
            cols += [k.arg for k in x.keywords
                     if k.arg and _is_lpm_prediction(k.value, models, preds)]
        elif last == "DataFrame" and x.args and isinstance(x.args[0], ast.Dict):
            d = x.args[0]
            cols += [str(k.value) for k, v in zip(d.keys, d.values, strict=False)
                     if isinstance(k, ast.Constant) and isinstance(k.value, str)
                     and _is_lpm_prediction(v, models, preds)]
    top = value
    while isinstance(top, ast.Call) and isinstance(top.func, ast.Attribute) and \
            top.func.attr in _LPM_PASS:  # `.round(3)`, `.head()` on the frame
        top = top.func.value
    if not cols and isinstance(top, ast.Call) and _call_last(top) == "summary_frame" and \
            _is_lpm_prediction(top, models, preds):
        cols = list(_SUMMARY_FRAME_COLUMNS)
    return cols


def _lpm_caveat(tree: ast.AST, preds: set[str], models: dict) -> bool:  # type: ignore[type-arg]
    """The cell checks its predictions against 0 or 1 (`(p > 1).sum()`, `p.between(0, 1)`):
    the analyst looks at the out-of-range share rather than presenting it as a probability."""
    for x in _walk(tree):
        if isinstance(x, ast.Compare) and (_is_lpm_prediction(x.left, models, preds)) and any(
                isinstance(c, ast.Constant) and c.value in (0, 1) for c in x.comparators):
            return True
        if isinstance(x, ast.Call) and _call_last(x) == "between" and \
                isinstance(x.func, ast.Attribute) and \
                _is_lpm_prediction(x.func.value, models, preds):
            return True
    return False


_AGG_POINT = {"min", "max", "mean", "median", "first", "last", "nanmin", "nanmax", "nanmean"}
_AGG_TOTAL = {"sum", "nansum", "cumsum"}


def _pred_columns_of_frames(code: _Code, models: dict, preds: set[str],  # type: ignore[type-arg]
                            ev: Evidence) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """({frame: columns holding predictions}, {frame: columns computed from them by
    multiplication}): `f = d.assign(p=m.predict(X))`, `f["p"] = m.predict(X)`,
    `f["el"] = f["p"] * lgd * ead`."""
    tree = code.model.tree
    point = {n for n in preds
             if (ev.objects.get(n) is None or ev.objects[n].kind != "dataframe")}
    direct: dict[str, set[str]] = {}
    derived: dict[str, set[str]] = {}
    for st in _of(tree, ast.Assign):
        for t in st.targets:
            if isinstance(t, ast.Name):
                cols = [k.arg for x in _walk(st.value) if isinstance(x, ast.Call)
                        and _call_last(x) == "assign" for k in x.keywords
                        if k.arg and _is_lpm_prediction(k.value, models, point)]
                if cols:
                    direct.setdefault(t.id, set()).update(cols)
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                    isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                frame, col = t.value.id, t.slice.value
                if _is_lpm_prediction(st.value, models, point):
                    direct.setdefault(frame, set()).add(col)
                elif isinstance(st.value, ast.BinOp) and isinstance(st.value.op, ast.Mult) and \
                        any(isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name)
                            and x.value.id == frame and isinstance(x.slice, ast.Constant)
                            and x.slice.value in direct.get(frame, ())
                            for x in _walk(st.value)):
                    derived.setdefault(frame, set()).add(col)
    return direct, derived


def _aggregated_hits(ev: Evidence, code: _Code, models: dict,  # type: ignore[type-arg]
                     preds: set[str]) -> tuple[list[tuple[str, float, bool, int]],
                                               list[tuple[str, float]]]:
    """Named aggregations of prediction columns (`g.agg(min_p=("p", "min"))`) shown outside
    [0, 1], and totals of columns computed from them (`("el", "sum")`) shown below 0."""
    direct, derived = _pred_columns_of_frames(code, models, preds, ev)
    if not direct:
        return [], []
    text = ev.text
    hits: list[tuple[str, float, bool, int]] = []
    neg: list[tuple[str, float]] = []
    for st in _of(code.model.tree, ast.Assign):
        if len(st.targets) != 1 or not isinstance(st.targets[0], ast.Name):
            continue
        out = st.targets[0].id
        if out not in code.model.reported_names:
            continue
        facts = ev.objects.get(out)
        for x in _walk(st.value):
            if not (isinstance(x, ast.Call) and _call_last(x) in ("agg", "aggregate")):
                continue
            src = _root(x.func)
            for k in x.keywords:
                if not (k.arg and isinstance(k.value, ast.Tuple) and len(k.value.elts) == 2
                        and all(isinstance(e, ast.Constant) and isinstance(e.value, str)
                                for e in k.value.elts)) or k.arg not in text:
                    continue
                col, fn = (e.value for e in k.value.elts)  # type: ignore[attr-defined]
                if col in direct.get(src, ()) and fn in _AGG_POINT:
                    for v in _frame_facts_range(facts, k.arg):
                        if (v > 1 or v < 0) and _shown_in_text(text, v):
                            hits.append((k.arg, v, _lpm_label(k.arg, col), st.lineno))
                elif col in derived.get(src, ()) and fn in _AGG_TOTAL | _AGG_POINT:
                    for v in _frame_facts_range(facts, k.arg)[:1]:
                        if v < 0 and _shown_in_text(text, v):
                            neg.append((k.arg, v))
    return hits, neg


@rule("suspicious_values.lpm_probability_out_of_range",
      title="Linear-model 'probabilities' of a 0/1 outcome outside [0, 1]")
def lpm_probability_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """A least-squares model (OLS / WLS, `LinearRegression`, Ridge…) fitted to a 0/1 response
    (the kernel shows the column holds two values, 0 and 1) is a linear probability model: its
    predictions are not bounded, and a prediction of 1.22 or -0.06 is not a probability.
    Reported when such predictions - `.predict(new)`, `.fittedvalues`, `params @ row` - are
    shown outside [0, 1] (kernel facts confirmed in the printed output, or the printed
    f-string field itself); critical when they are labelled as a probability / chance / risk
    / share, medium when unlabelled or when the cell checks the out-of-range share."""
    code_text = ev.code or ""
    if not any(w in code_text for w in ("ols", "OLS", "WLS", "Regression", "Ridge", "Lasso",
                                        "ElasticNet")):
        return
    code = _scan(ev).code
    bounded: dict[str, str] = {}
    models = _lpm_fits(ev, code, bounded)
    if not models:
        return
    tree = code.model.tree
    preds = _lpm_pred_names(code, models)
    text = ev.text
    hits: list[tuple[str, float, bool, int]] = []  # (what, value, labelled, line)
    # predictions bound to a name or a frame column and shown
    for st in _of(tree, ast.Assign):
        if not _is_lpm_prediction(st.value, models, preds):
            continue
        for t in st.targets:
            what, facts, col = None, None, ""
            if isinstance(t, ast.Name):
                what, facts = t.id, ev.objects.get(t.id)
                if t.id not in code.model.reported_names:
                    continue
            elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                    isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                what, col = t.slice.value, t.slice.value
                facts = ev.objects.get(t.value.id)
                if t.value.id not in code.model.reported_names or col not in text:
                    continue
            if what is None:
                continue
            if facts is not None and facts.kind == "dataframe" and not col:
                # a frame built around the predictions: `.assign(p=pred)`,
                # `pd.DataFrame({"p": pred})`, a `get_prediction(...).summary_frame()`
                for c in _prediction_columns(st.value, models, preds):
                    if c not in text:
                        continue
                    for v in _frame_facts_range(facts, c):
                        if (v > 1 or v < 0) and _shown_in_text(text, v):
                            hits.append((c, v, _lpm_label(c), st.lineno))
                continue
            for v in _frame_facts_range(facts, col):
                if (v > 1 or v < 0) and _shown_in_text(text, v):
                    hits.append((what, v, _lpm_label(what), st.lineno))
    # predictions formatted straight into a printed f-string, or a frame column holding them
    # (`d["p"] = m.predict(d)` then `f"{d['p'].min():.1%}"`)
    pred_cols: dict[str, set[str]] | None = None
    for call in _of(tree, ast.Call):
        if _call_last(call) != "print":
            continue
        if pred_cols is None and any(isinstance(a, ast.JoinedStr) for a in call.args):
            pred_cols = _pred_columns_of_frames(code, models, preds, ev)[0]
        for ai, a in enumerate(call.args):
            if not isinstance(a, ast.JoinedStr):
                continue
            consts = " ".join(str(v.value) for v in a.values if isinstance(v, ast.Constant))
            for i, v in enumerate(a.values):
                if isinstance(v, ast.FormattedValue) and _is_lpm_prediction(
                        v.value, models, preds, pred_cols):
                    spec = ast.unparse(v.format_spec) if v.format_spec else ""
                    label = _lpm_label(consts, ast.unparse(v.value)) or "%" in spec
                    for val in _fstring_values(a, i, ev.stdout, anchored=ai == 0):
                        if val > 1 or val < 0:
                            hits.append((ast.unparse(v.value), val, label, call.lineno))
    # per-group summaries of a prediction column: `.agg(min_p=("p", "min"))`
    derived: list[tuple[str, float]] = []
    if not hits:
        hits, derived = _aggregated_hits(ev, code, models, preds)
    if not hits:
        return
    resp, fit_line, how = next(iter(models.values()))
    bound_how = bounded.get(resp, "holds only 0 and 1: a linear probability model")
    is_rate = not bound_how.startswith("holds")  # the response is itself a named rate
    labelled = is_rate or any(h[2] for h in hits)
    caveat = _lpm_caveat(tree, preds, models)
    vals = sorted({round(h[1], 4) for h in hits})
    shown = ", ".join(_fmt(v) for v in vals[:4]) + ("…" if len(vals) > 4 else "")
    severity, conf = ("critical", 0.85) if labelled and not caveat else ("medium", 0.6)
    yield Finding(
        explanation=f"A linear model ({how}, line {fit_line}) is fitted to `{resp}`, which "
                    f"{'' if is_rate else 'the kernel shows '}"
                    f"{bound_how}. Its "
                    f"predictions are not bounded, and the cell shows predicted values "
                    f"{shown} for `{hits[0][0]}`"
                    + (" presented as rates" if is_rate else
                       " presented as probabilities" if labelled else "")
                    + " - outside [0, 1], so they are not "
                    + ("rates" if is_rate else "probabilities")
                    + ("".join(f"; `{c}`, computed from them, is shown at {_fmt(v)}"
                               for c, v in derived[:2]))
                    + ".",
        severity=severity, confidence=conf,
        evidence={"lines": sorted({fit_line} | {h[3] for h in hits}),
                  "values": {"response": resp, "predictions_outside_0_1": vals[:6],
                             **({"derived_negative": dict(derived[:4])} if derived else {})}},
        suggestion=("Model a rate on the logit scale (OLS on `logit(rate)` mapped back with "
                    "`expit`) or with a binomial / fractional-logit GLM so projections stay in "
                    "[0, 1]; if the linear fit is kept, floor the projections and say how many "
                    "fell outside [0, 1] and how that changes any total computed from them.")
        if is_rate else
                   ("Model a 0/1 outcome with a logistic (or probit) regression "
                   "(`smf.logit(...)`, `LogisticRegression`, `predict_proba`) so predicted "
                   "probabilities stay in [0, 1]; if the linear model is kept for its "
                   "coefficients, do not report its predictions as probabilities (or clip "
                   "them and say how many fell outside [0, 1])."))
