"""Linear methods on numeric codes of categories or ranks.

- `pearson_on_codes`: Pearson's r (`pearsonr`, `np.corrcoef`, `df.corr()`, `Series.corr`,
  `pingouin.corr`) on numeric codes of categories or ranks: label-encoded nominal categories
  (LabelEncoder, `.cat.codes`, `factorize`, a `map` to ints), Likert items, education or
  income brackets, zip codes and ids; and bin numbers (`pd.cut`/`qcut(labels=False)`,
  `np.digitize`, `KBinsDiscretizer(encode="ordinal")`) of unequal-width bins. Simple linear
  fits on one such variable (`linregress`, `np.polyfit(deg=1)`, a one-predictor `smf.ols` /
  `sm.OLS`) make the same interval assumption. Pearson measures linear association between
  interval quantities; on arbitrary codes the coefficient is not meaningful.
- `linear_score_on_label_codes`: `f_regression` / `r_regression` / `f_classif` feature
  ranking on ordinal-encoded nominal categories.
- `ols_on_ordinal_response`: ordinary least squares with an ordinal rating (stars, Likert,
  satisfaction) as the response.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import CallSite, CodeModel, called_name, root_name
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from .. import _columns
from ._encodings import _classify, _Coded, _Encodings, _facts_of, _is_int, _severity
from ._scan import _matrix_columns, _sites, _src, _str, _Var, _var_of


def _is_pearson(call: CallSite) -> bool:
    method = call.kwarg_value("method", None)
    if method is None and call.method in ("corr", "corrwith") and call.node.args:
        first = _str(call.node.args[0])
        if first is not None:
            method = first
    return method in (None, "pearson")


_LINEAR_FITS = ("linregress", "np.polyfit", "smf.ols", "sm.OLS")


@rule("correlation_misuse.pearson_on_codes",
      title="Pearson correlation on categorical or ordinal codes")
def pearson_on_codes(ev: Evidence) -> Iterator[Finding]:
    """Pearson's r (or a simple linear fit) on label-encoded categories, Likert items,
    brackets, unequal-width bin numbers, zip codes or ids."""
    if ev.tree is None:
        return
    sites = _sites(ev)
    if not sites:
        return
    enc = _Encodings(ev)
    m = ev.model
    for call, what, exprs, matrix in sites:
        pearson = what in ("np.corrcoef", *_LINEAR_FITS) or (
            what == "pearsonr") or (what in ("Series.corr", "DataFrame.corr",
                                             "DataFrame.corrwith", "pingouin.corr")
                                    and _is_pearson(call))
        flagged: list[tuple[_Var, _Coded]] = []
        if matrix and what != "np.corrcoef":
            frame, cols = _matrix_columns(ev, exprs[0])
            for col in cols:
                v = _Var(f"{frame}[{col!r}]", frame, col, None)
                c = _classify(ev, enc, v, None)
                if c is not None:
                    flagged.append((v, c))
        else:
            for e in exprs:
                v = _var_of(m, e)
                looped = _loop_column_vars(ev, call, e) if v.column is None else None
                if looped:  # pearsonr(df[col], df[y]) for every column of a frame
                    for lv in looped:
                        c = _classify(ev, enc, lv, None)
                        # a sweep over every numeric column: a few distinct integers are as
                        # often counts (stops, children) as codes, so only named/encoded codes
                        if c is not None and c.kind != "few":
                            flagged.append((lv, c))
                    matrix = True
                    continue
                routed = _routed_values(ev, enc, call, e) if v.column is None and (
                    enc.lookup(v) is None) else []
                if routed:  # a loop over a dict/list of variables, a helper's parameter
                    for rv, c in routed:
                        flagged.append((rv, c))
                    continue
                inline = enc._kind_of_value(e) if isinstance(e, ast.Call | ast.Attribute) \
                    else None  # pearsonr(LabelEncoder().fit_transform(df.city), …)
                if inline is not None:
                    facts = _facts_of(ev, v, call)
                    if facts is not None and 0 < facts[1] <= 2:
                        continue
                    c = _Coded(inline[0], inline[1], call.line,
                               facts is not None and facts[2] and facts[1] >= 3)
                else:
                    c = _classify(ev, enc, v, call)
                if c is not None:
                    flagged.append((v, c))
        if what in _LINEAR_FITS:  # a slope per count or per equal-width bin is conventional
            flagged = [(v, c) for v, c in flagged if c.kind not in ("few", "binned_equal")]
        if not flagged:
            continue
        if not pearson:
            # rank correlation: fine on ordinal codes, still meaningless on nominal ones
            # (label codes, zip codes, identifiers); a categorical dtype may be ordered
            flagged = [(v, c) for v, c in flagged if c.kind in ("nominal", "id") and c.how != (
                "a categorical column's codes")]
            if not flagged:
                continue
        order = {"nominal": 3, "id": 2, "ordinal": 1, "binned": 1, "few": 0, "binned_equal": 0}
        flagged.sort(key=lambda vc: (-order[vc[1].kind], not vc[1].from_facts))
        v, c = flagged[0]
        selected = matrix and _selects(call, [fv.column for fv, _ in flagged])
        severity, confidence = _severity(c, matrix and not selected)
        if not pearson:
            severity, confidence = "high", min(confidence, 0.7)
        if what in _LINEAR_FITS and c.kind == "ordinal" and c.by_name:
            # `wage ~ education` may be years of schooling: a name is weak evidence of codes
            severity, confidence = "medium", 0.45
        lines = sorted({call.line} | {fc.line for _, fc in flagged if fc.line})
        listed = ", ".join(f"`{fv.label}` ({fc.how})" for fv, fc in flagged[:4])
        kinds = {fc.kind for _, fc in flagged}
        if kinds <= {"binned", "binned_equal"}:
            meaning = ("bin numbers stand for ranges of the underlying quantity, so one step "
                       "of the code is a different change in that quantity from bin to bin; "
                       "a slope or a linear (Pearson) coefficient per bin step describes the "
                       "arbitrary bin edges, not the relationship" if "binned" in kinds else
                       "bin numbers are a handful of ordered levels, at best a coarsened copy "
                       "of the underlying quantity, which attenuates r")
            fix = ("use the underlying continuous variable (Pearson/`linregress` on it), or "
                   "treat the bins as ordered categories: a rank correlation "
                   "(`scipy.stats.spearmanr` / `kendalltau`) or the outcome's median per bin")
        elif kinds == {"few"}:
            meaning = ("if these integers code ordered categories (ratings, levels, "
                       "brackets) rather than counts or measurements, a linear (Pearson) "
                       "coefficient is not appropriate")
            fix = ("if they are ordinal codes use a rank correlation "
                   "(`scipy.stats.spearmanr` / `df.corr(method='spearman')`); Pearson is "
                   "fine for genuine counts")
        elif "nominal" in kinds or "id" in kinds:
            meaning = ("the numbers are labels whose order is arbitrary (re-coding the "
                       "categories changes r), so the coefficient has no meaning")
            fix = ("for categorical variables use a contingency table with "
                   "`scipy.stats.chi2_contingency` and Cramér's V "
                   "(`scipy.stats.contingency.association(table, method='cramer')`), or "
                   "compare the numeric variable across categories (ANOVA/Kruskal-Wallis, "
                   "eta squared)")
        else:
            meaning = ("the codes are ordered but not equally spaced, so a linear "
                       "(Pearson) coefficient is not appropriate")
            fix = ("use a rank correlation: `scipy.stats.spearmanr(x, y)` / "
                   "`kendalltau`, or `df.corr(method='spearman')`")
        corr_word = "A linear fit" if what in _LINEAR_FITS else (
            "Pearson's r" if pearson else "A rank correlation")
        yield Finding(
            explanation=(f"{corr_word} (`{what}`, line {call.line}) is computed on "
                         f"{listed}: {meaning}."),
            severity=severity, confidence=confidence,
            evidence={"lines": lines, "values": {
                "variables": [fv.label for fv, _ in flagged][:8],
                "coding": [fc.how for _, fc in flagged][:8]}},
            suggestion=fix[0].upper() + fix[1:] + ".",
        )


def _strip(node: ast.AST) -> ast.AST:
    while True:
        if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("to_numpy", "astype", "dropna", "fillna", "copy", "ravel"):
            node = node.func.value
        else:
            return node


def _literal_items(m: CodeModel, node: ast.AST) -> list[ast.expr] | None:
    """The elements of a literal list/tuple, or of a name bound once to one."""
    if isinstance(node, ast.List | ast.Tuple):
        return list(node.elts)
    if isinstance(node, ast.Name):
        binds = [a.value for a in m.assigned_at(node.id) if isinstance(a.stmt, ast.Assign)]
        if len(binds) == 1 and isinstance(binds[0], ast.List | ast.Tuple):
            return list(binds[0].elts)
    return None


def _loop_values(ev: Evidence, enc: _Encodings, call: CallSite,
                 var: str) -> list[ast.expr | _Var] | None:
    """What a loop/comprehension variable takes: `for k, v in drivers.items()` -> each value
    of `drivers` (as `drivers['key']`), `for v in (a, b)`, `for name, v in zip(names,
    (a, b))`, `for name, v in [("a", a), …]`, `for i, v in enumerate([a, b])`."""
    for target, it in reversed(_columns.loops_around(ev, call.node)):
        if isinstance(target, ast.Name):
            pos = None if target.id == var else -1
        elif isinstance(target, ast.Tuple):
            pos = next((i for i, t in enumerate(target.elts)
                        if isinstance(t, ast.Name) and t.id == var), -1)
        else:
            continue
        if pos == -1:
            continue
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and isinstance(
                it.func.value, ast.Name) and (it.func.attr, pos) in (("items", 1),
                                                                    ("values", None)):
            d = it.func.value.id
            return [_Var(f"{d}[{k!r}]", d, k, None) for (fr, k) in enc.cols if fr == d]
        if isinstance(it, ast.Call) and called_name(it) == "zip" and pos is not None and \
                pos < len(it.args):
            return _literal_items(ev.model, it.args[pos])
        if isinstance(it, ast.Call) and called_name(it) == "enumerate" and pos == 1 and \
                it.args:
            return _literal_items(ev.model, it.args[0])
        items = _literal_items(ev.model, it)
        if items is None:
            return None
        if pos is None:
            return items
        return [e.elts[pos] for e in items
                if isinstance(e, ast.Tuple | ast.List) and pos < len(e.elts)]
    return None


def _routed_values(ev: Evidence, enc: _Encodings, call: CallSite,
                   e: ast.AST) -> list[tuple[_Var, _Coded]]:
    """Codes that reach a correlation through a name standing for several variables: a
    loop or comprehension over a dict, list or zip of variables, or a helper's parameter
    (`def r(x, y): return np.corrcoef(x, y)[0, 1]` called with codes)."""
    node = _strip(e)
    m = ev.model
    cands: list[ast.expr | _Var] = []
    if isinstance(node, ast.Name):
        looped = _loop_values(ev, enc, call, node.id)
        if looped is not None:
            cands = looped
        elif call.function:
            cands = [b[node.id] for b in _columns.bindings_of(ev, call.function)
                     if node.id in b]
    elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(
            node.slice, ast.Name) and node.value.id in enc._dicts:
        d = node.value.id  # for k in drivers: np.corrcoef(drivers[k], y)
        it = _columns.enclosing_loop_iter(ev, call.node, node.slice.id)
        if it is not None and (root_name(it) == d or _src(ev, it) == d):
            cands = [_Var(f"{d}[{k!r}]", d, k, None) for (fr, k) in enc.cols if fr == d]
    out: list[tuple[_Var, _Coded]] = []
    for cand in cands:
        if isinstance(cand, _Var):
            v = cand
            c = _classify(ev, enc, v, None)
        else:
            v = _var_of(m, cand)
            inline = enc._kind_of_value(cand) if isinstance(
                cand, ast.Call | ast.Attribute) else None
            if inline is not None:
                facts = _facts_of(ev, v, None)
                if facts is not None and 0 < facts[1] <= 2:
                    continue
                c = _Coded(inline[0], inline[1], call.line,
                           facts is not None and facts[2] and facts[1] >= 3)
            elif v.name or v.column:
                c = _classify(ev, enc, v, None)
                if c is not None and c.kind == "few" and enc.lookup(v) is None:
                    c = None  # an unencoded count among several variables
            else:
                c = None
        if c is not None:
            out.append((v, c))
    return out


def _loop_column_vars(ev: Evidence, call: CallSite, e: ast.AST) -> list[_Var] | None:
    """`df[col]` where `col` walks the columns of a frame (`for col in
    df.select_dtypes("number").columns.drop(target)`, a comprehension, a list of names),
    possibly inside a helper called with the frame: one variable per column it visits."""
    node = e
    while True:
        if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("to_numpy", "astype", "dropna", "fillna", "copy"):
            node = node.func.value
        else:
            break
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name)):
        return None
    var = node.slice.id
    it = _columns.enclosing_loop_iter(ev, call.node, var)
    if it is None:
        return None
    binds = _columns.bindings_of(ev, call.function) if call.function else [{}]
    for bind in binds:
        found = _columns.frame_facts(ev, node.value, bind)
        cols = _columns.columns(ev, it, bind)
        if found is None or cols is None:
            continue
        frame, f = found
        if cols[0] not in (None, frame):
            continue
        return [_Var(f"{frame}[{c!r}]", frame, c, None) for c in cols[1] if c in f.dtypes]
    return None


def _selects(call: CallSite, cols: list[str | None]) -> bool:
    """`df.corr()["city_code"]`: the matrix is read for a coded column specifically."""
    stmt = call.stmt
    for node in _walk(stmt):
        if isinstance(node, ast.Subscript) and node.value is call.node:
            key = _str(node.slice)
            return key in cols
    return False


# -- linear (F / r) feature scoring on ordinal-encoded nominal columns ----------------------------

_ARBITRARY_ENCODERS = {"OrdinalEncoder", "LabelEncoder"}
_LINEAR_SCORES = {"f_regression", "r_regression", "f_classif"}


def _str_list(node: ast.AST | None, lists: dict[str, list[str]]) -> list[str] | None:
    if isinstance(node, ast.List | ast.Tuple):
        vals = [e.value for e in node.elts if isinstance(e, ast.Constant)
                and isinstance(e.value, str)]
        return vals if len(vals) == len(node.elts) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return lists.get(node.id)
    return None


def _arbitrary_codes(m: CodeModel) -> dict[str, tuple[list[str] | None, int, bool]]:
    """Frames whose columns an OrdinalEncoder/LabelEncoder replaced by codes, in the order
    of the (alphabetical) categories: frame -> (columns or None for all, line, explicit
    category order given)."""
    out: dict[str, tuple[list[str] | None, int, bool]] = {}
    lists: dict[str, list[str]] = {}
    for tree in (m._prior_tree, m.tree):
        if tree is None:
            continue
        for node in _walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                vals = _str_list(node.value, lists)
                if vals is not None:
                    lists[node.targets[0].id] = vals
        loops: dict[str, list[str]] = {}
        for node in _walk(tree):
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                vals = _str_list(node.iter, lists)
                if vals is not None:
                    loops[node.target.id] = vals
        for node in _walk(tree):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            encs = [c for c in _walk(node.value) if isinstance(c, ast.Call)
                    and called_name(c) in _ARBITRARY_ENCODERS]
            if not encs:
                continue
            explicit = any(kw.arg == "categories" and not (
                isinstance(kw.value, ast.Constant) and kw.value.value == "auto")
                for c in encs for kw in c.keywords)
            target = node.targets[0]
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                key = target.slice
                cols = loops.get(key.id) if isinstance(key, ast.Name) and key.id in loops \
                    else _str_list(key, lists)
                if cols is None:
                    continue
                prev = out.get(target.value.id)
                merged = (prev[0] or []) + cols if prev and prev[0] is not None else cols
                out[target.value.id] = (merged, node.lineno, explicit)
            elif isinstance(target, ast.Name):
                out[target.id] = (None, node.lineno, explicit)
    return out


def _scored_matrix(m: CodeModel) -> list[tuple[CallSite, ast.AST]]:
    """(call, X) for `f_regression(X, y)` and `SelectKBest(f_regression).fit(X, y)`."""
    out: list[tuple[CallSite, ast.AST]] = []
    selectors: set[str] = set()
    for c in m.calls:
        if c.last in _LINEAR_SCORES and c.node.args:
            out.append((c, c.node.args[0]))
        elif any(isinstance(a, ast.Name) and a.id in _LINEAR_SCORES
                 for a in [*c.node.args, *(k.value for k in c.node.keywords)]):
            for a in m.assignments:
                if a.value is not None and any(n is c.node for n in _walk(a.value)):
                    selectors |= set(a.targets)
            func = c.node
            for c2 in m.calls:  # SelectKBest(f_regression, k=3).fit_transform(X, y)
                if c2.last in ("fit", "fit_transform") and c2.node.args and \
                        isinstance(c2.node.func, ast.Attribute) and c2.node.func.value is func:
                    out.append((c2, c2.node.args[0]))
    for c in m.calls:
        if c.last in ("fit", "fit_transform") and c.node.args and \
                isinstance(c.node.func, ast.Attribute) and \
                isinstance(c.node.func.value, ast.Name) and c.node.func.value.id in selectors:
            out.append((c, c.node.args[0]))
    return out


@rule("correlation_misuse.linear_score_on_label_codes",
      title="F-test / r feature ranking on ordinal-encoded nominal categories")
def linear_score_on_label_codes(ev: Evidence) -> Iterator[Finding]:
    """`f_regression` / `r_regression` / `f_classif` measure a linear relation of each column
    with the target; on OrdinalEncoder/LabelEncoder codes (categories numbered alphabetically)
    the score depends on that arbitrary numbering, so a strong categorical driver can rank
    last."""
    if ev.tree is None or not any(s in ev.code for s in _LINEAR_SCORES):
        return
    sites = _scored_matrix(ev.model)
    if not sites:
        return
    coded = _arbitrary_codes(ev.model)
    if not coded:
        return
    for call, x in sites:
        root = root_name(x)
        if root is None:
            continue
        deps = {root} | ev.model.dependencies(root)
        hit = next(((f, coded[f]) for f in [root, *sorted(deps)] if f in coded), None)
        if hit is None:
            continue
        frame, (cols, line, explicit) = hit
        facts = ev.objects.get(frame)
        if cols is not None and facts is not None and facts.unique:
            cols = [c for c in cols if facts.unique.get(c, 3) > 2]  # binary codes are fine
            if not cols:
                continue
        many = facts is not None and cols is not None and bool(facts.unique) and all(
            facts.unique.get(c, 0) >= 3 for c in cols)
        if explicit:
            severity, confidence = "medium", 0.4  # an order the author chose: ordinal codes
        else:
            severity, confidence = ("high", 0.75) if many else ("high", 0.65)
        named = ", ".join(f"`{c}`" for c in (cols or [])[:5]) or f"the columns of `{frame}`"
        scorer = call.last if call.last in _LINEAR_SCORES else "a linear F/r score"
        yield Finding(
            explanation=(f"`{scorer}` (line {call.line}) ranks {named}, which line {line} "
                         "replaced by OrdinalEncoder/LabelEncoder codes (categories numbered "
                         "alphabetically): the F statistic and r measure a linear trend over "
                         "that arbitrary numbering, so re-coding the categories changes the "
                         "score and a strong categorical driver can look irrelevant."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({line, call.line}),
                      "values": {"encoded_columns": (cols or [])[:8], "frame": frame}},
            suggestion=("Score categorical features as categories: one-hot encode them and "
                        "compare nested models (an ANOVA F over all dummies, e.g. "
                        "`smf.ols('y ~ C(cat) + x')` with `anova_lm(typ=2)`), or use "
                        "`mutual_info_regression(..., discrete_features=mask)`."))
        return  # one finding per cell: the other scores read the same codes


# -- ordinary least squares with an ordinal rating as the response --------------------------------

_RATING_NAME = re.compile(
    r"(?i)stars?$|rating|likert|satisf|(?:^|_)nps|agree|(?:^|_)grade$|pain_?score|"
    r"(?:^|_)score_?cat|opinion|attitude|importance|(?:^|_)mood|happiness|(?:^|_)csat")
_INTERVAL_OUTCOME = re.compile(r"(?i)mean|avg|average|total|sum|pct|share|rate$|_z$|log")


def _ols_response(m: CodeModel, c: CallSite) -> tuple[str | None, str | None]:
    """(frame, column) of an OLS response: `smf.ols("stars ~ x", data=df)` or
    `sm.OLS(df["stars"], X)`."""
    if c.last == "ols":
        formula = _str(c.arg(0, "formula"))
        if not formula or "~" not in formula:
            return None, None
        lhs = formula.split("~", 1)[0].strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", lhs):
            return None, None  # np.log(y), Q("...") or a transformed response
        data = c.kwarg("data") or (c.node.args[1] if len(c.node.args) > 1 else None)
        return root_name(data) if data is not None else None, lhs
    if c.last == "OLS":
        y = c.arg(0, "endog")
        if y is None:
            return None, None
        v = _var_of(m, y)
        return v.frame, v.column or v.name
    return None, None


@rule("correlation_misuse.ols_on_ordinal_response",
      title="Linear regression with an ordinal rating as the response")
def ols_on_ordinal_response(ev: Evidence) -> Iterator[Finding]:
    """OLS on a 1-5 star / Likert / satisfaction rating treats the levels as equally spaced
    numbers: 'stars lost per 100 ms' assumes 1->2 is the same step as 4->5, and predictions
    leave the scale. Judged from the kernel's facts (integer response with a handful of
    levels) and a rating-like name; quiet for averaged or transformed scores."""
    if ev.tree is None or ("ols" not in ev.code and "OLS" not in ev.code):
        return
    m = ev.model
    for c in m.calls:
        if c.last not in ("ols", "OLS") or not (c.name or "").startswith("statsmodels"):
            continue
        frame, col = _ols_response(m, c)
        if col is None or not _RATING_NAME.search(col) or _INTERVAL_OUTCOME.search(col):
            continue
        facts = ev.objects.get(frame) if frame else ev.objects.get(col)
        key = col if frame else ""
        if facts is None or key not in facts.dtypes:
            continue
        dtype, levels = facts.dtypes[key], facts.unique.get(key, 0)
        if not (_is_int(dtype) or dtype.startswith("category")) or not 3 <= levels <= 11:
            continue
        severity, confidence = ("high", 0.65) if levels <= 7 else ("medium", 0.45)
        what = f"`{frame}.{col}`" if frame else f"`{col}`"
        yield Finding(
            explanation=(f"Line {c.line} fits ordinary least squares to {what}, an ordinal "
                         f"rating with {levels} integer levels: OLS treats the levels as "
                         "equally spaced numbers (the step from 1 to 2 stars equals the step "
                         "from 4 to 5), so 'rating points per unit' effects, R² and "
                         "predictions outside the scale rest on an interval assumption the "
                         "rating does not have."),
            severity=severity, confidence=confidence,
            evidence={"lines": [c.line], "values": {"response": col, "levels": levels,
                                                    "dtype": dtype}},
            suggestion=("Model the rating as ordinal: a proportional-odds model "
                        "(`statsmodels.miscmodels.ordinal_model.OrderedModel(..., "
                        "distr='logit')`) reporting odds ratios, or dichotomise it (e.g. "
                        "4-5 stars vs the rest) with a logistic regression."))
