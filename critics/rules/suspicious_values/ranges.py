"""Impossible values of bounded quantities: a p-value outside [0, 1] (an unclipped
hand-rolled correction), a negative variance, a correlation outside [-1, 1], a
probability outside [0, 1] (an unnormalised exp / decision score)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import names_in as _names
from ...evidence import Evidence
from ...findings import Finding
from ...rule import rule
from ._code import _Code, _of, _stmt_keys, _target_key, _target_keys
from ._scan import _confidence, _finding, _Obs, _out_of_range, _p_of_event, _Scan, _scan
from ._vocabulary import _CLIP_CALLS, _name_quantity, _tokens

# -- rules ---------------------------------------------------------------------------------------


@rule("suspicious_values.pvalue_out_of_range",
      title="p-value above 1 or below 0")
def pvalue_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """A p-value is a probability: a value above 1 usually comes from a hand-rolled
    multiple-comparison correction (`p * n`) that was not clipped at 1."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"pvalue"}, 0.0, 1.0)
    unclipped = _unclipped_corrections(ev, scan)
    if bad:
        conf = max(_confidence(o, 0.92, 0.85) for o, _ in bad)
        lines = sorted({ln for site in unclipped for ln in [site[0]]})
        extra = (f" Line {', '.join(map(str, lines))} multiplies p-values by the number of "
                 "tests without capping the result at 1." if lines else "")
        f = _finding(bad, "These p-values are impossible (a p-value lies in [0, 1])",
                     "critical", conf,
                     "Use a tested correction: `statsmodels.stats.multitest.multipletests(p, "
                     "method='holm')` (or 'fdr_bh'), or clip a hand-rolled Bonferroni with "
                     "`np.minimum(p * m, 1)`; then re-derive which results are significant.",
                     extra)
        f.evidence["lines"] = sorted(set(f.evidence["lines"]) | set(lines))
        yield f
        return
    unknown = [u for u in unclipped if not u[2]]
    if unknown:
        lines = sorted({u[0] for u in unknown})
        yield Finding(
            explanation=(f"Line {', '.join(map(str, lines))} corrects p-values by hand "
                         f"(`{unknown[0][1]}`) without capping them at 1; corrected values "
                         "above 1 are not p-values, and the values could not be checked."),
            severity="medium", confidence=0.4,
            evidence={"lines": lines},
            suggestion="Use `multipletests(p, method='bonferroni')` or "
                       "`np.minimum(p * m, 1)`.")


def _unclipped_corrections(ev: Evidence, scan: _Scan) -> list[tuple[int, str, bool]]:
    """Hand-rolled corrections `p * n` that no min/clip caps: (line, source, checked) where
    `checked` says the result's values were seen (in the facts or the output)."""
    code = scan.code
    tree = code.model.tree
    mults = [n for n in _of(tree, ast.BinOp) if isinstance(n.op, ast.Mult)
             and any(_is_pish(code, side) for side in (n.left, n.right))
             and any(_is_count(code, side) for side in (n.left, n.right))]
    if not mults:
        return []
    clipped: set[int] = set()
    capped_later: set[str] = set()
    for node in _of(tree, ast.Call):
        last = _call_last(node)
        if last in _CLIP_CALLS or (last == "where" and any(
                isinstance(a, ast.Compare) for a in node.args)):
            capped_later |= _target_keys(node)
            clipped |= {id(sub) for sub in _walk(node) if isinstance(sub, ast.BinOp)}
    stmts = _of(tree, ast.Assign, ast.AugAssign, ast.Expr)
    found: list[tuple[int, str, bool]] = []
    for mult in mults:
        if id(mult) in clipped:
            continue
        stmt = next((st for st in stmts if st.lineno <= mult.lineno <= (
            st.end_lineno or st.lineno) and any(n is mult for n in _walk(st))), None)
        keys = _stmt_keys(stmt) if stmt is not None else set()
        if keys & capped_later:
            continue
        checked = any(any(k in o.where for k in keys) for o in scan.obs
                      if o.quantity == "pvalue")
        found.append((mult.lineno, ast.unparse(mult)[:60], checked))
    return found


def _is_pish(code: _Code, node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        nq = _name_quantity(node.attr)
        return node.attr in ("pvalue", "pvalues") or bool(nq and nq[0] == "pvalue")
    if isinstance(node, ast.Subscript):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            nq = _name_quantity(key.value)
            return bool(nq and nq[0] == "pvalue")
        return _is_pish(code, node.value)
    if isinstance(node, ast.Call) and _call_last(node) in ("array", "asarray", "Series"):
        return bool(node.args) and _is_pish(code, node.args[0])
    if isinstance(node, ast.Name):
        if _bound_to_counts(code, node.id):
            return False  # `p, n = g.ngroups, g.size().iloc[0]`: p groups, not a p-value
        nq = _name_quantity(node.id)
        if nq and nq[0] == "pvalue":
            return True
        o = code.origin(node)
        return o.quantity == "pvalue"
    return False


_COUNT_ATTRS = {"ngroups", "size", "ndim"}
_COUNT_CALLS = {"len", "int", "nunique", "count"}


def _bound_to_counts(code: _Code, name: str) -> bool:
    """Every value the cell binds to `name` is a count (a group count, a length, an int)."""
    values: list[ast.AST] = []
    for st in _of(code.model.tree, ast.Assign):
        for t in st.targets:
            if isinstance(t, ast.Name) and t.id == name:
                values.append(st.value)
            elif isinstance(t, ast.Tuple) and isinstance(st.value, ast.Tuple) and \
                    len(t.elts) == len(st.value.elts):
                values += [v for e, v in zip(t.elts, st.value.elts, strict=True)
                           if isinstance(e, ast.Name) and e.id == name]
    return bool(values) and all(
        _is_count(code, v) or (isinstance(v, ast.Attribute) and v.attr in _COUNT_ATTRS)
        or (isinstance(v, ast.Call) and _call_last(v) in _COUNT_CALLS) for v in values)


_COUNT_NAMES = {"n", "m", "k", "ntests", "n_tests", "num_tests", "n_comparisons", "ncomp",
                "n_comp", "n_genes", "n_features", "n_hypotheses", "m_tests", "n_cols",
                "ntest", "num_comparisons", "n_pairs", "n_groups", "n_outcomes"}


def _is_count(code: _Code, node: ast.AST) -> bool:
    if isinstance(node, ast.Call) and _call_last(node) == "len":
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, int) \
            and not isinstance(node.value, bool) and node.value > 1:
        return True
    if isinstance(node, ast.Attribute) and node.attr in ("size",):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
            and node.value.attr == "shape":
        return True
    if isinstance(node, ast.Name):
        if node.id in _COUNT_NAMES or node.id.startswith(("n_", "num_")):
            return True
        facts = code.ev.objects.get(node.id)
        return bool(facts and isinstance(facts.value, int) and not isinstance(
            facts.value, bool) and facts.value > 1)
    if isinstance(node, ast.BinOp):  # p * (n - i) in a hand-rolled Holm
        return _is_count(code, node.left) or _is_count(code, node.right)
    return False


@rule("suspicious_values.negative_variance",
      title="Negative variance, standard deviation or squared error")
def negative_variance(ev: Evidence) -> Iterator[Finding]:
    """Variances, standard deviations and standard errors cannot be negative; a negative
    value comes from a wrong formula (E[x]² - E[x²] swapped, a sign error)."""
    scan = _scan(ev)
    bad = [(o, [v for v in vals if v < -1e-9]) for o, vals in
           _out_of_range(scan, {"variance"}, 0.0, float("inf"))]
    bad = [(o, v) for o, v in bad if v]
    if bad and ev.tree is not None:
        bad = [(o, v) for o, v in bad if not _handled_obs(ev.tree, o)]
    if bad:
        conf = max(_confidence(o, 0.9, 0.8) for o, _ in bad)
        yield _finding(bad, "A variance or standard deviation cannot be negative",
                       "critical", conf,
                       "Compute spread with `np.var(x, ddof=1)` / `x.std()` (or check the "
                       "formula: E[x²] - E[x]², not the reverse) and recompute everything "
                       "derived from it (standard errors, z-scores, tests).")
    errs = [(o, [v for v in o.values if v < -1e-9]) for o in scan.obs if o.quantity == "error"]
    errs = [(o, v) for o, v in errs if v]
    if errs and not bad:
        conf = max(_confidence(o, 0.75, 0.7) for o, _ in errs)
        yield _finding(errs, "A squared or absolute error cannot be negative (this looks like "
                       "scikit-learn's `neg_*` scoring reported as the error itself)",
                       "high", conf,
                       "Negate `neg_mean_squared_error` scores before reporting them "
                       "(`mse = -scores.mean()`), or report them under their real name.")


_OBS_KEY = re.compile(r"^`([^`]+)`$|^column '([^']+)' of the printed table|"
                      r"^the printed Series '([^']+)'")


def _obs_key(where: str) -> str | None:
    """The name or column an observation cites (`var_g`, column 'var_g_raw' of the printed
    table, the printed Series 's2'); None for a printed labelled value."""
    m = _OBS_KEY.match(where)
    return next((g for g in m.groups() if g), None) if m else None


def _handled_obs(tree: ast.AST, o: _Obs) -> bool:
    """The negative value an observation shows is handled by the cell: for a name or column,
    that key; for a printed labelled value, every name the printing line reads."""
    key = _obs_key(o.where)
    if key is not None:
        return _negative_handled(tree, key)
    if o.source != "text" or not o.lines:
        return False
    names = {n.id for n in _of(tree, ast.Name) if n.lineno in o.lines}
    return bool(names) and any(_negative_handled(tree, k) for k in names)


def _zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float) and \
        not isinstance(node.value, bool) and float(node.value) == 0.0


def _clips_at_zero(call: ast.Call) -> bool:
    """`max(x, 0)`, `np.maximum(x, 0)`, `np.clip(x, 0, None)`, `x.clip(lower=0)`,
    `np.fmax(x, 0.0)`, `x.clip(0)`: a floor at zero."""
    last = _call_last(call)
    if last in ("max", "maximum", "fmax"):
        return len(call.args) >= 2 and any(_zero(a) for a in call.args)
    if last in ("clip", "clip_lower"):
        return any(_zero(a) for a in call.args[:2]) or any(
            k.arg in ("lower", "a_min", "min") and _zero(k.value) for k in call.keywords)
    return False


def _negative_handled(tree: ast.AST, key: str | None) -> bool:
    """The cell handles a negative estimate of the quantity `key` shows: it compares `key`
    with zero (`df[df["var_raw"] < 0]`, flags it), floors it at zero (`max(raw, 0)`,
    `.clip(lower=0)`), or `key` holds a value that the cell floors at zero elsewhere (a
    dict entry `"var_raw": raw` next to `var = max(raw, 0.0)`): the negative value is shown
    as the raw estimate beside its bounded version, not reported as a variance."""
    if not key:
        return False
    held: set[str] = {key}
    for node in _of(tree, ast.Dict):
        for k, v in zip(node.keys, node.values, strict=False):
            if isinstance(k, ast.Constant) and k.value == key and isinstance(v, ast.Name):
                held.add(v.id)
    for node in _of(tree, ast.Compare):
        sides = [node.left, *node.comparators]
        if any(_zero(x) for x in sides) and any(
                isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in node.ops) and \
                held & {k for x in sides for s in _walk(x) if isinstance(
                    s, ast.Name | ast.Subscript | ast.Attribute) for k in _target_key(s)}:
            return True
    return any(_clips_at_zero(c) and held & _target_keys(c) for c in _of(tree, ast.Call))


@rule("suspicious_values.correlation_out_of_range",
      title="Correlation outside [-1, 1]")
def correlation_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """A correlation coefficient lies in [-1, 1]; a value outside comes from a hand-rolled
    formula with mismatched normalisations (np.cov with ddof=1 over np.std with ddof=0)."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"correlation"}, -1.0, 1.0)
    if bad:
        conf = max(_confidence(o, 0.9, 0.85) for o, _ in bad)
        yield _finding(bad, "A correlation coefficient must lie in [-1, 1]", "critical", conf,
                       "Use `scipy.stats.pearsonr(x, y)` / `np.corrcoef(x, y)[0, 1]` / "
                       "`df[a].corr(df[b])`; a hand-rolled `cov / (sx * sy)` must use the same "
                       "ddof in the covariance and both standard deviations.")


@rule("suspicious_values.reliability_out_of_range",
      title="Reliability coefficient (Cronbach's alpha) below 0 or above 1")
def reliability_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """An internal-consistency reliability (Cronbach's alpha, KR-20, McDonald's omega) is at
    most 1; the estimate turns negative when the items covary negatively, almost always
    because negatively worded items were not reverse-keyed, and such a value is no
    reliability at all: the scale score summed from those items measures nothing coherent."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"reliability"}, 0.0, 1.0)
    if not bad:
        return
    conf = max(_confidence(o, 0.85, 0.8) for o, _ in bad)
    negative = any(v < 0 for _, vals in bad for v in vals)
    why = (" A negative alpha means the items covary negatively on average: the negatively "
           "worded items were most likely not reverse-scored before the scale was built."
           if negative else " A value above 1 comes from a wrong formula.")
    yield _finding(bad, "A reliability coefficient lies in [0, 1] (Cronbach's alpha, KR-20, "
                   "omega), so this value is not a reliability", "high", conf,
                   "Reverse-key the negatively worded items (`max + min - x`) before computing "
                   "alpha and the scale score, check the item-total correlations (every item "
                   "should correlate positively with the rest), then recompute alpha and "
                   "everything built from the scale score.", why)


@rule("suspicious_values.probability_out_of_range",
      title="Probability or bounded score outside its range")
def probability_out_of_range(ev: Evidence) -> Iterator[Finding]:
    """Probabilities, accuracy, AUC, F1, precision and recall lie in [0, 1] (or 0-100%),
    and R² cannot exceed 1. Values come from the kernel, the printed output (also a printed
    `describe()` of a probability Series). Without visible values, a probability computed
    by an unbounded transform - `np.exp` of log-odds / `decision_function` / logits (odds,
    not probabilities), or a raw decision score - is reported from the code alone (high)."""
    scan = _scan(ev)
    bad = _out_of_range(scan, {"probability"}, 0.0, 1.0)
    bad += _out_of_range(scan, {"accuracy", "auc", "f1", "bounded"}, 0.0, 1.0,
                         allow_percent=True)
    bad += [(o, [v for v in vals if v > 1]) for o, vals in
            _out_of_range(scan, {"r2", "adj_r2", "score"}, float("-inf"), 1.0)
            if any(v > 1 for v in vals)]
    unbounded = _unbounded_probabilities(scan.code)
    why = ""
    if unbounded:
        line, name, how = unbounded[0]
        why = f" `{name}` (line {line}) is {how}: it is not bounded by 1."
    if bad:
        conf = max(_confidence(o, 0.9, 0.8) for o, _ in bad)
        if unbounded:
            conf = max(conf, 0.85)
        f = _finding(bad, "These values are outside the range their quantity allows "
                     "(probabilities and classification scores lie in [0, 1], R² ≤ 1)",
                     "critical", conf,
                     "Find where the value is computed: normalise probabilities (softmax / "
                     "`predict_proba` / `expit(log_odds)`), use the library metric "
                     "(`accuracy_score`, `roc_auc_score`, `r2_score`) rather than a "
                     "hand-written formula.", why)
        if unbounded:
            f.evidence["lines"] = sorted(set(f.evidence["lines"]) | {unbounded[0][0]})
        yield f
        return
    if unbounded:
        line, name, how = unbounded[0]
        yield Finding(
            explanation=f"`{name}` is used as a probability but is {how} (line {line}). "
                        "Odds and decision scores are not bounded by 1 (odds of 3 are a "
                        "probability of 0.75), so anything summed or thresholded as a "
                        "probability is wrong.",
            severity="high", confidence=0.7,
            evidence={"lines": [line], "values": {"probability": name}},
            suggestion="Use `model.predict_proba(X)[:, 1]`, or map log-odds to a probability "
                       "with `scipy.special.expit(z)` (= exp(z) / (1 + exp(z))); normalise "
                       "exponentiated logits with a softmax.")


_EXP_CALLS = {"exp", "exp2", "expm1", "power"}
_SCORE_CALLS = {"decision_function"}
_LOGIT_TOKENS = {"logit", "logits", "logodds", "log_odds", "lin", "linear", "linpred", "eta",
                 "margin", "margins", "decision", "xb", "xbeta"}
_NORMALISERS = {"expit", "sigmoid", "softmax", "logistic", "predict_proba", "normalize"}


def _unbounded_probabilities(code: _Code) -> list[tuple[int, str, str]]:
    """(line, name, how) for a probability-named variable or column assigned from an
    unbounded transform: `np.exp` of a decision_function, log-odds, logits or a linear
    predictor (`X @ coef`) with no division that normalises it, or a raw decision score."""
    out: list[tuple[int, str, str]] = []
    if "exp" not in code.ev.code and "decision_function" not in code.ev.code:
        return out
    tree = code.model.tree
    normalised: set[str] = set()
    for node in _of(tree, ast.AugAssign):
        if isinstance(node.op, ast.Div) and isinstance(node.target, ast.Name):
            normalised.add(node.target.id)
    for node in _of(tree, ast.Assign):
        if any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div)
               for x in _walk(node.value)):
            normalised |= {n for t in node.targets for n in _names(t)} & _names(node.value)
    for node in _of(tree, ast.Assign):
        names = [_prob_target(t, node.value) for t in node.targets]
        name = next((n for n in names if n), None)
        if name is None or name in normalised:
            continue
        if code.has_test and _name_quantity(name) == ("pvalue", False):
            continue
        how = _unbounded_value(node.value)
        if how:
            out.append((node.lineno, name, how))
    return out


def _prob_target(target: ast.AST, value: ast.AST) -> str | None:
    """The probability name an assignment binds: `p_default = …`, `df["prob"] = …`, or
    `pd.Series(…, name="p_default")`."""
    names: list[str] = []
    if isinstance(target, ast.Name):
        names.append(target.id)
    elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) and \
            isinstance(target.slice.value, str):
        names.append(target.slice.value)
    if isinstance(value, ast.Call):
        for k in value.keywords:
            if k.arg == "name" and isinstance(k.value, ast.Constant) and \
                    isinstance(k.value.value, str):
                names.append(k.value.value)
    for n in names:
        nq = _name_quantity(n)
        if nq and (nq[0] == "probability" or (nq[0] == "pvalue" and _p_of_event(n))):
            return n
    return None


def _unbounded_value(value: ast.AST) -> str | None:
    if any(isinstance(x, ast.BinOp) and isinstance(x.op, ast.Div) for x in _walk(value)):
        return None  # exp(z) / (1 + exp(z)), exp / exp.sum(): normalised
    calls = [x for x in _walk(value) if isinstance(x, ast.Call)]
    if any(_call_last(c) in _NORMALISERS for c in calls):
        return None
    for c in calls:
        if _call_last(c) not in _EXP_CALLS or not c.args:
            continue
        arg = c.args[-1] if _call_last(c) == "power" else c.args[0]
        if _call_last(c) == "power" and not (isinstance(c.args[0], ast.Constant)):
            continue
        src = _unbounded_score(arg)
        if src:
            return f"`exp()` of {src} - odds, not a probability"
    for c in calls:
        if _call_last(c) in _SCORE_CALLS:
            return "a raw `decision_function` score"
    return None


def _unbounded_score(node: ast.AST) -> str | None:
    """What makes `node` an unbounded score: a decision_function call, a log-odds / logit /
    linear-predictor name, or a matrix product with coefficients."""
    for x in _walk(node):
        if isinstance(x, ast.Call):
            last = _call_last(x)
            if last in _SCORE_CALLS:
                return "a `decision_function` score"
            if last in ("predict_log_proba", "log_softmax", "logsumexp"):
                return None
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.MatMult):
            return "a linear predictor (`X @ coef`)"
        for ident in ((x.id,) if isinstance(x, ast.Name) else (x.attr,)
                      if isinstance(x, ast.Attribute) else ()):
            toks = _tokens(ident)
            if set(toks) & _LOGIT_TOKENS or "".join(toks) in _LOGIT_TOKENS or (
                    "log" in toks and "odds" in toks):
                if "prob" in toks or "proba" in toks:
                    return None  # log_prob: exp of it is a probability
                return f"log-odds (`{ident}`)"
            if ident in ("coef_", "params") and isinstance(x, ast.Attribute):
                return "a linear predictor (coefficients times features)"
    return None
