"""Correlations between two autocorrelated time series.

- `autocorrelated_series`: a correlation or slope between two time series that each trend,
  cycle or wander (strong lag-1 autocorrelation of both samples, rows visibly in time
  order): shared time structure, and a p-value that counts every time step as independent.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ...ast_cache import walk as _walk
from ...code_model import CallSite, CodeModel, called_name, root_name
from ...evidence import Evidence, SampleFacts
from ...findings import Finding
from ...rule import rule
from ._scan import _POOLED_NAMES, _stat_call, _str

# -- a correlation between two autocorrelated time series (spurious / nonsense correlation) ------

_SERIES_LAG = 0.5  # lag-1 autocorrelation of both samples from which rows are "a series"
_SERIES_MIN_N = 30
# a short series (annual data: 12-29 points) needs stronger persistence: lag-1 estimates are
# noisy and biased towards zero at this length, so >= 0.7 in both is a plain trend
_SHORT_MIN_N, _SHORT_LAG = 12, 0.7
_MONOTONE_LAG = 1.0  # a sample rising (or falling) at every step in time order: a trend
# one series this persistent (a trend or a slow drift) and the other positively autocorrelated
_DRIFT_LAG, _WEAK_LAG = 0.8, 0.1
_TIME_NAME = re.compile(
    r"(?i)^(?:date|datetime|time|timestamp|ts|day|days|doy|dayofyear|day_of_year|hour|hours|"
    r"minute|week|month|year|years|yrs|yr|period|epoch|obs_date|obs_time|date_time|sample_date|"
    r"reading_time|t)$|(?:_date|_time|_day|_ts|_at|_hour|_month|_year)$")
# a running index of the rows in time: `t = np.arange(n)`, `trial = np.arange(n_trials)`
_INDEX_NAME = re.compile(r"(?i)^(?:trials?|trial_?(?:idx|index|num|no|n|number)|"
                         r"t_?(?:idx|index|s|sec|min|h|days?)|tt|timesteps?|time_?(?:idx|"
                         r"index|s|sec|axis)?)$")
_AXIS_CALLS = {"arange", "linspace", "range"}
# code that builds a time axis / index
_DATE_SRC = re.compile(r"date_range|period_range|timedelta_range|to_datetime|DatetimeIndex|"
                       r"PeriodIndex|datetime64|Timestamp\(|to_period|\.resample\(|\.asfreq\(")
# the cell takes the serial correlation into account, or works on changes / anomalies
_SERIAL_HANDLED = re.compile(
    r"(?i)\bn_?eff\b|eff(?:ective)?_n\b|n_effective|effective[ _]sample|\bacf\(|\bccf\(|"
    r"\bhac\b|newey|block_?boot|prewhiten|detrend|seasonal_decompose|\bSTL\(|\.diff\(|"
    r"np\.diff\(|pct_change|arima|sarimax|grangercausal|adfuller|coint\(|durbin_watson|"
    r"anomal")
_P_CALLS = {"scipy.stats.pearsonr", "scipy.stats.spearmanr", "scipy.stats.kendalltau",
            "scipy.stats.linregress", "pingouin.corr"}


def _assign_values(m: CodeModel) -> dict[str, list[ast.expr]]:
    """name -> the values assigned to it (or to its columns / index / attributes), over the
    earlier cells and this one."""
    out: dict[str, list[ast.expr]] = {}
    for tree in (m._prior_tree, m.tree):
        for node in _walk(tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    for sub in _walk(t):
                        if isinstance(sub, ast.Name):
                            out.setdefault(sub.id, []).append(node.value)
                            break
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                root = root_name(node.target)
                if root:
                    out.setdefault(root, []).append(node.value)
    return out


def _time_index_in(value: ast.expr, values: dict[str, list[ast.expr]]) -> str | None:
    """How `value` (a frame or series being built) gets a time axis, if it visibly does:
    an `index=` of dates, a `set_index` of a time column, `read_*(parse_dates=, index_col=)`,
    resampling; or a cumulative sum (a random walk)."""
    for node in _walk(value):
        if not isinstance(node, ast.Call):
            continue
        name = called_name(node)
        kws = {k.arg: k.value for k in node.keywords if k.arg}
        if "index" in kws and _dates_behind(kws["index"], values):
            return "a date index"
        if "index" in kws and _time_named(kws["index"]):
            return f"an index of `{_time_named(kws['index'])}`"
        if name == "set_index" and node.args:
            col = _str(node.args[0])
            if (col and _TIME_NAME.search(col)) or _dates_behind(node.args[0], values):
                return f"an index of `{col}`" if col else "a date index"
        if name and name.startswith("read_") and "parse_dates" in kws and "index_col" in kws:
            return "a parsed date index"
        if name in ("resample", "asfreq", "to_period"):
            return f"`.{name}()`"
        if name == "cumsum":
            return "cumulative sums (random walks)"
    return None


def _time_named(node: ast.expr) -> str | None:
    """The name of a time axis an index is built from or given: `index=years`,
    `index=pd.Index(yrs, name="year")`, `index=df["month"]`."""
    for n in _walk(node):
        if isinstance(n, ast.Name) and _TIME_NAME.search(n.id):
            return n.id
        if isinstance(n, ast.keyword) and n.arg == "name":
            v = _str(n.value)
            if v and _TIME_NAME.search(v):
                return v
        if isinstance(n, ast.Subscript):
            v = _str(n.slice)
            if v and _TIME_NAME.search(v):
                return v
    return None


def _dates_behind(node: ast.expr, values: dict[str, list[ast.expr]], depth: int = 3) -> bool:
    if _DATE_SRC.search(ast.unparse(node)):
        return True
    if depth <= 0:
        return False
    return any(_dates_behind(v, values, depth - 1)
               for n in _walk(node) if isinstance(n, ast.Name)
               for v in values.get(n.id, [])[:4])


def _sorted_by_other(value: ast.expr) -> bool:
    """The rows were put in the order of something other than time."""
    for node in _walk(value):
        if isinstance(node, ast.Call):
            name = called_name(node)
            if name in ("sort", "argsort", "sort_values", "nlargest", "nsmallest", "rank"):
                by = node.args[0] if node.args else next(
                    (k.value for k in node.keywords if k.arg == "by"), None)
                cols = [c for c in (_str(e) for e in (
                    by.elts if isinstance(by, ast.List | ast.Tuple) else [by])) if c] \
                    if by is not None else []
                if not cols or not all(_TIME_NAME.search(c) for c in cols):
                    return True
    return False


def _time_order(ev: Evidence, args: list[ast.expr]) -> str | None:
    """What shows that the rows of the samples are in time order: a datetime or time-named
    column of the frame they come from, an index built from dates, resampling, cumulative
    sums. None when nothing does, or when the rows were sorted by something else."""
    values = _assign_values(ev.model)
    seen: set[str] = set()
    queue = [n.id for a in args for n in _walk(a) if isinstance(n, ast.Name)]
    found: str | None = None
    for a in args:
        if _sorted_by_other(a):
            return None
        found = found or _time_index_in(a, values)
    while queue and len(seen) < 40:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        f = ev.objects.get(name)
        if f is not None and f.kind == "dataframe" and found is None:
            for col, dtype in f.dtypes.items():
                if "datetime" in dtype or "period" in dtype:
                    found = f"datetime column `{name}.{col}`"
                    break
            else:
                named = [c for c in f.dtypes if _TIME_NAME.search(c)
                         and f.unique.get(c, 0) >= 0.5 * (f.rows or 0) >= _SHORT_MIN_N / 2]
                if named:
                    found = f"time column `{name}.{named[0]}`"
        for v in values.get(name, [])[:6]:
            if _sorted_by_other(v):
                return None
            found = found or _time_index_in(v, values)
            if found is None and isinstance(v, ast.Call) and called_name(v) in _AXIS_CALLS \
                    and (_TIME_NAME.search(name) or _INDEX_NAME.search(name)):
                # the series are computed from a running time / trial index
                found = f"computed from the time index `{name}` = `{ast.unparse(v)[:40]}`"
            queue += [n.id for n in _walk(v) if isinstance(n, ast.Name) and n.id not in seen]
    m = ev.model
    for tree in (m._prior_tree, m.tree):  # df.sort_values("x", inplace=True), arr.sort()
        for node in _walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    root_name(node.func.value) in seen and _sorted_by_other(node) and (
                        called_name(node) == "sort" or any(
                            k.arg == "inplace" and isinstance(k.value, ast.Constant)
                            and k.value.value is True for k in node.keywords)):
                return None
    return found


def _lag(s: SampleFacts) -> float | None:
    """A sample's lag-1 autocorrelation in the order given; a sample that the kernel left
    without one because it rises (or falls) at every step is a monotone trend (a running
    count, a cumulative total) and counts as fully persistent -- unless it is the time axis
    itself (a time-named label, or evenly spaced values: `year`, `np.arange(n)`), which a
    trend test correlates with on purpose."""
    if s.lag1 is not None:
        return s.lag1
    if s.n < _SHORT_MIN_N or s.n_unique < 3 or not s.std or s.min is None or s.max is None:
        return None
    label = re.sub(r"^.*[\[.]\s*['\"]?|['\"]?\]?\s*$", "", s.expr.strip())
    if _TIME_NAME.search(label) or _INDEX_NAME.search(label):
        return None
    if s.n_unique == s.n and s.max > s.min:  # evenly spaced: std of an arithmetic sequence
        even_sd = (s.max - s.min) / (s.n - 1) * (s.n * (s.n + 1) / 12) ** 0.5
        if abs(s.std - even_sd) <= 0.02 * even_sd:
            return None
    return _MONOTONE_LAG


def _p_reported(ev: Evidence, call: CallSite, full: str) -> bool:
    """The call's p-value reaches the output (or is compared / stored)."""
    if full not in _P_CALLS:
        return False
    m = ev.model
    stmt = call.stmt
    if any(isinstance(n, ast.Attribute) and n.attr == "pvalue" for n in _walk(ev.tree)) \
            or "p-val" in ev.code:
        return True
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            stmt.value is call.node:
        t = stmt.targets[0]
        if isinstance(t, ast.Tuple | ast.List):
            slot = 3 if full.endswith("linregress") else 1
            if len(t.elts) > slot and isinstance(t.elts[slot], ast.Name):
                p = t.elts[slot].id
                return m.is_reported(p) or any(
                    isinstance(n, ast.Compare) and any(
                        isinstance(x, ast.Name) and x.id == p for x in _walk(n))
                    for n in _walk(ev.tree))
            return False
        if isinstance(t, ast.Name):
            return m.is_reported(t.id)
    # the whole result (r and p) printed or indexed in an expression the user sees
    return any(any(n is call.node for n in _walk(e)) for e in m.reported_exprs)


@rule("correlation_misuse.autocorrelated_series",
      title="Correlation of two autocorrelated time series (shared trend or season)")
def autocorrelated_series(ev: Evidence) -> Iterator[Finding]:
    """A correlation or straight-line fit between two time series whose values are each
    strongly autocorrelated in time order (a trend, a seasonal cycle, a random walk): the
    coefficient largely reflects the time structure both series share (Yule's "nonsense
    correlation"), and the p-value counts every time step as an independent observation
    when the series carry far fewer. From the kernel: the lag-1 autocorrelation of both
    samples (>= 0.5, n >= 30); the rows must visibly be in time order (a datetime or
    time-named column of the source frame, an index built from dates, resampling,
    cumulative sums), not sorted by a covariate. High (0.7, 0.75 when both lags >= 0.8)
    when a p-value is reported and both lags >= 0.6; medium (0.55) for a coefficient or
    slope alone. Quiet when the cell works on changes or anomalies or accounts for the
    serial correlation (differencing, detrending, effective sample size, HAC errors)."""
    if ev.tree is None or not ev.samples or _SERIAL_HANDLED.search(ev.code):
        return
    m = ev.model
    hits: list[tuple[CallSite, str, list[float], int, bool, str]] = []
    drift = False
    for c in m.calls:
        found = _stat_call(c)
        if found is None:
            continue
        full, args = found
        read = [s for s in ev.samples if s.line == c.line and s.call == full]
        if len(read) != 2:
            continue
        found_lags = [_lag(s) for s in read]
        if any(lg is None for lg in found_lags):
            continue
        lags = [lg for lg in found_lags if lg is not None]
        n_min = min(s.n for s in read)
        if n_min < _SERIES_MIN_N and (n_min < _SHORT_MIN_N or min(lags) < _SHORT_LAG):
            continue  # a short series is read only when both are strongly persistent
        one_drifts = max(lags) >= _DRIFT_LAG and min(lags) >= _WEAK_LAG
        if min(lags) < _SERIES_LAG and not one_drifts:
            continue
        why = _time_order(ev, args)
        if why is None:
            continue
        if min(lags) < _SERIES_LAG:
            if hits or not _p_reported(ev, c, full):
                continue  # only the first such pair, and only when it is tested
            drift = True
        hits.append((c, full, lags, min(s.n for s in read), _p_reported(ev, c, full), why))
    if not hits:
        return
    if drift and all(min(h[2]) < _SERIES_LAG for h in hits):
        yield _drift_finding(ev, hits[0])
        return
    hits = [h for h in hits if min(h[2]) >= _SERIES_LAG]
    strong = [h for h in hits if h[4] and min(h[2]) >= 0.6]
    if strong:
        lag_min = min(min(h[2]) for h in strong)
        severity, confidence = "high", 0.75 if lag_min >= 0.8 else 0.7
    else:
        severity, confidence = "medium", 0.55
    c, full, lags, n, with_p, why = (strong or hits)[0]
    rho = lags[0] * lags[1]
    n_eff = n * (1 - rho) / (1 + rho)
    names = list(dict.fromkeys(_POOLED_NAMES.get(h[1], h[1]) for h in hits))
    lines = sorted({h[0].line for h in hits})
    pair = [s for s in ev.samples if s.line == c.line and s.call == full]
    r_txt = f" (r = {pair[0].pair_r:+.2f})" if pair and pair[0].pair_r is not None else ""
    p_txt = (" and its p-value treats every one of the rows as an independent observation"
             if with_p else "")
    yield Finding(
        explanation=(f"{' and '.join(f'`{x}`' for x in names)} (line"
                     f"{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}) relate"
                     f"{'s' if len(names) == 1 else ''} two series in time order ({why}) "
                     f"that are each strongly autocorrelated: lag-1 autocorrelation "
                     f"{lags[0]:.2f} and {lags[1]:.2f} over {n} rows. Two series that both "
                     f"trend, cycle with the seasons or wander correlate whether or not "
                     f"they are coupled, so the coefficient{r_txt} mostly reflects their "
                     f"shared time structure{p_txt}; with this autocorrelation the pair "
                     f"carries about {n_eff:.0f} independent observations at most (AR(1) "
                     "approximation), so the evidence of association is overstated."),
        severity=severity, confidence=confidence,
        evidence={"lines": lines, "values": {
            "lag1": lags, "n": n, "n_effective_ar1": round(n_eff, 1), "time_order": why,
            "p_value_reported": with_p}},
        suggestion=("Remove the shared time structure before relating the series: "
                    "correlate changes (`df[cols].diff().dropna()`) or anomalies (the "
                    "residuals of a trend + month-of-year fit for each series), or model "
                    "one on the other with the time terms included and HAC/Newey-West "
                    "errors (`smf.ols('y ~ x + t + C(month)', df).fit(cov_type='HAC', "
                    "cov_kwds={'maxlags': 12})`); if a raw correlation is kept, test it "
                    "against an effective sample size from the autocorrelations."),
    )


def _drift_finding(ev: Evidence, hit: tuple[CallSite, str, list[float], int, bool, str]
                   ) -> Finding:
    """One series of a tested time-ordered pair drifts (lag-1 >= 0.8), the other is
    positively autocorrelated: a correlation that may be made by the two drifts."""
    c, full, lags, n, _, why = hit
    pair = [s for s in ev.samples if s.line == c.line and s.call == full]
    exprs = [s.expr for s in sorted(pair, key=lambda s: str(s.arg))][:2]
    hi, lo = max(lags), min(lags)
    name_hi = exprs[lags.index(hi)] if len(exprs) == 2 else "one series"
    name_lo = exprs[lags.index(lo)] if len(exprs) == 2 else "the other"
    r = pair[0].pair_r if pair else None
    p = pair[0].pair_p if pair else None
    r_txt = (f"r = {r:+.2f}" + (f", p = {p:.2g}" if p is not None else "")) if r is not None \
        else "the coefficient"
    persistent = ("moves in one direction at every step (a monotone trend)"
                  if hi >= _MONOTONE_LAG else
                  f"is highly persistent (lag-1 autocorrelation {hi:.2f}, the signature of "
                  "a trend or a slow drift)")
    return Finding(
        explanation=(f"`{_POOLED_NAMES.get(full, full)}` (line {c.line}) tests two series in "
                     f"time order ({why}) over {n} rows: `{name_hi}` {persistent} and "
                     f"`{name_lo}` is positively autocorrelated too ({lo:.2f}). "
                     f"Two series that each drift over the period correlate through "
                     f"their drifts whether or not one drives the other, and the test "
                     f"counts the {n} time steps as independent, so {r_txt} does not show "
                     "a year-to-year link; nothing in the cell removes the trends."),
        severity="medium", confidence=0.5,
        evidence={"lines": [c.line], "values": {"lag1": lags, "n": n, "time_order": why,
                                                **({"r": round(r, 4)} if r is not None
                                                   else {})}},
        suggestion=("Detrend both series (`scipy.signal.detrend`, or the residuals of a "
                    "linear fit on the year) or correlate their year-to-year changes "
                    "(`.diff().dropna()`), and judge the p-value against an effective "
                    "sample size from the autocorrelation of the residuals; report the raw "
                    "r only as the trend artefact."),
    )
