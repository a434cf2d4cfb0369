"""The analysis trace, recorded inside the kernel while a cell runs (DESIGN.md, Critic).

Kernel-side code: the service sends this module's source to the kernel once (like
`kernel_facts`); it imports only the standard library at load and reads numpy/pandas from
`sys.modules` when they are there. `install(catalogue)` wraps the entry points that
`trace_catalogue.json` names (classes and functions, also of modules imported later, through
an import hook) and records, for each outermost call made while a cell runs, one event: the
operation, its line in the cell, its data and its result.

Row lineage: every datum an event reads carries a sketch of its *root rows* (the 64-bit
hashes of the rows it came from, bottom-k). A transform's output keeps its input's rows, a
split's outputs the rows its indices chose, so "the scaler saw the rows that are later scored
as test rows" is a set containment computed here and sent as a number. A frame filter records
which columns decided it, what it removed, and the identity of its result's index, so later
summaries of those rows can be linked to it.

Tracing never changes a result: wrappers call the original with the same arguments (a split
gets one extra index array, which does not change what it draws), record after it returned,
and swallow their own errors. Recording stops for the rest of a cell past its time budget.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import json
import sys
import time
import weakref
from collections import deque
from typing import Any

_PANDAS_ONLY: tuple[str, ...] = ("pandas",)


class _Datum:
    __slots__ = ("cols", "full", "id", "kind", "n", "name", "origin", "sketch")

    def __init__(self, did: str, kind: str, n: int, cols: list[str] | None, name: Any,
                 full: Any, sketch: Any, origin: str | None = None):
        self.id, self.kind, self.n, self.cols, self.name = did, kind, n, cols, name
        self.full, self.sketch, self.origin = full, sketch, origin

    @property
    def identifies(self) -> bool:
        """Rows tell units apart (not a label column whose values repeat)."""
        return self.sketch is not None and len(self.sketch) >= 0.5 * min(self.n, len(
            self.sketch) + (self.n > len(self.sketch)) * self.n)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "n": self.n}
        if self.cols:
            out["cols"] = self.cols[:60]
        if self.name is not None:
            out["name"] = str(self.name)[:80]
        if self.origin:
            out["from"] = self.origin
        out["rows"] = self.sketch is not None
        return out


class Recorder:
    def __init__(self, catalogue: dict[str, Any]):
        self.cat = catalogue
        self.lim = catalogue.get("limits", {})
        self.on = False
        self.depth = 0
        self.cell = 0
        self.events: list[dict[str, Any]] = []
        self.history: deque[dict[str, Any]] = deque(maxlen=int(self.lim.get("history_events", 200)))
        self.data: dict[str, _Datum] = {}
        self.by_obj: dict[int, tuple[Any, str]] = {}  # id(obj) -> (obj, datum id)
        self.by_content: dict[tuple[Any, ...], str] = {}
        self.keep: deque[Any] = deque(maxlen=4000)  # keeps ids of linked objects unique
        self.spent = 0.0
        self.errors: list[str] = []
        self.stopped = False
        self.patched: set[str] = set()
        self.seeded = False
        self.originals: dict[int, Any] = {}  # id(original function) -> its wrapper
        # column lineage: id(a pandas result computed from columns) -> (a weak reference to
        # it, {source column: the lags it was read at}, rows, whether it is an aggregate)
        self.derived: dict[int, tuple[Any, dict[str, list[int]], int, bool]] = {}
        self.measured = 0  # feature-target associations measured in this cell
        # row lineage through column selections: id(view) -> (view, the frame it selects from)
        self.views: dict[int, tuple[Any, Any]] = {}
        # ungrouped statistics of a frame: id(result) -> (result, the frame, method)
        self.stats: dict[int, tuple[Any, Any, str]] = {}
        # outputs of statistics applied by hand: id(result) -> (result, its event)
        self.by_hand: dict[int, tuple[Any, dict[str, Any]]] = {}
        # a pandas datum's row labels (first and last few): equal values on other rows (two
        # studies' label columns in the same order) are other data
        self.labels: dict[str, tuple[Any, ...] | None] = {}
        self.modules_seen = 0
        self._next = 0

    def wants(self, name: str) -> bool:
        return _wants(self, name)

    def patch(self, module: Any) -> None:
        _patch_module(self, module)

    def sweep(self) -> None:
        """Patch catalogue modules loaded since the last look (cheap when none were)."""
        if len(sys.modules) != self.modules_seen:
            self.modules_seen = len(sys.modules)
            for name, module in list(sys.modules.items()):
                if module is not None and name not in self.patched and self.wants(name):
                    self.patch(module)

    # --- cell lifecycle -------------------------------------------------------------------
    def start(self, *_args: Any) -> None:
        self.history.extend(self.events)
        self.events, self.errors = [], []
        self.spent, self.stopped, self.on = 0.0, False, True
        self.cell += 1
        self._trim()
        if len(self.derived) > 300:  # keep the newest: lineage of recent columns
            self.derived = dict(list(self.derived.items())[-150:])
        if len(self.views) > 200:
            self.views = dict(list(self.views.items())[-100:])
        self.stats.clear()  # applied in the cell that computed them
        self.by_hand.clear()
        self.measured = 0

    def stop(self, *_args: Any) -> None:
        self.on = False

    def _trim(self) -> None:
        live = {d for e in self.history for d in _refs(e)}
        if len(self.data) > 400:
            self.data = {k: v for k, v in self.data.items() if k in live}
            self.labels = {k: v for k, v in self.labels.items() if k in self.data}
            self.by_obj = {k: v for k, v in self.by_obj.items() if v[1] in self.data}
            self.by_content = {k: v for k, v in self.by_content.items() if v in self.data}

    # --- recording --------------------------------------------------------------------------
    def record(self, fn: Any, *args: Any) -> None:
        """Run one recording step under the budget; never raise into the user's code."""
        if self.stopped:
            return
        t0 = time.process_time()
        self.depth += 1
        try:
            event = fn(*args)
            if event is not None:
                event.setdefault("line", _cell_line())
                event["cell"] = self.cell
                if event["op"] in _COUNTED and self._count(event):
                    return
                if len(self.events) < int(self.lim.get("max_events", 300)):
                    self.events.append(event)
                else:
                    self._stop("too many analysis events in one cell")
        except Exception as exc:  # the trace degrades, the cell never fails
            if len(self.errors) < 5:
                self.errors.append(f"{type(exc).__name__}: {exc}"[:200])
        finally:
            self.depth -= 1
            self.spent += (time.process_time() - t0) * 1000
            if self.spent > float(self.lim.get("max_ms_per_cell", 400)):
                self._stop("trace time budget spent")

    def _count(self, event: dict[str, Any]) -> bool:
        """Repeated random draws from one line are one event with a count."""
        key = (event["op"], event.get("func"), event.get("line"))
        for seen in reversed(self.events[-20:]):
            if (seen["op"], seen.get("func"), seen.get("line")) == key:
                seen["count"] = seen.get("count", 1) + 1
                return True
        return False

    def _stop(self, why: str) -> None:
        self.stopped = True
        self.errors.append(why)

    def datum(self, obj: Any, origin: str | None = None, full: Any = None) -> str | None:
        """The datum id of an array-like (the same id for an object seen before)."""
        if obj is None:
            return None
        known = self.by_obj.get(id(obj))
        if known is not None and known[0] is obj:
            return known[1]
        kind, n, cols, name = _shape_of(obj)
        if n is None:
            return None
        if full is None:
            source = self.source_rows(obj)
            full = self.row_hashes(source)
            if full is not None:
                sig = _content_key(full, None if source is obj else cols)
                did = self.by_content.get(sig)  # same rows (and, for a selection, columns)
                if did is not None and not _other_rows(self.labels.get(did), source):
                    self.by_obj[id(obj)] = (obj, did)
                    self.keep.append(obj)
                    return did
        self._next += 1
        did = f"d{self._next}"
        self.data[did] = _Datum(did, kind, n, cols, name, full, _sketch(full, self.k), origin)
        self.labels[did] = _row_labels(self.source_rows(obj))
        if full is not None and origin is None:
            self.by_content.setdefault(_content_key(
                full, None if self.source_rows(obj) is obj else cols), did)
        self.by_obj[id(obj)] = (obj, did)
        self.keep.append(obj)
        return did

    def derive(self, result: Any, lags: dict[str, list[int]], n: int, agg: bool) -> None:
        """Remember that `result` was computed from these columns (at these lags)."""
        if result is None or not lags or len(self.derived) > 5000:
            return
        try:
            ref = weakref.ref(result)
        except TypeError:
            return
        self.derived[id(result)] = (ref, lags, n, agg)

    def lineage_of(self, obj: Any) -> tuple[dict[str, list[int]], int, bool] | None:
        """The columns `obj` was computed from: remembered, or a named Series' own name
        (pandas keeps the name through unary steps: `np.log(s)`, `s > 0`, `s.astype(int)`)."""
        entry = self.derived.get(id(obj))
        if entry is not None and entry[0]() is obj:
            return entry[1], entry[2], entry[3]
        pd = sys.modules.get("pandas")
        name = getattr(obj, "name", None)
        if pd is not None and isinstance(obj, pd.Series) and name is not None:
            return {str(name): [0]}, len(obj), False
        return None

    def source_rows(self, obj: Any) -> Any:
        """The frame whose rows `obj` has: a column selection is its source's rows (hashing
        only the selected columns would make them look like other rows)."""
        for _ in range(8):
            view = self.views.get(id(obj))
            if view is None or view[0] is not obj:
                return obj
            obj = view[1]
        return obj

    def view(self, result: Any, source: Any) -> None:
        if result is not source and len(getattr(result, "index", ())) == len(source.index):
            self.views[id(result)] = (result, source)

    def alias(self, obj: Any, root: str | None, origin: str, full: Any = None) -> str | None:
        """A new datum for `obj` whose rows are `root`'s rows (or `full`, per position)."""
        base = self.data.get(root or "")
        if obj is None or base is None:
            return self.datum(obj, origin)
        rows = base.full if full is None else full
        did = self.datum(obj, origin, full=rows)
        if did is None:
            return None
        content = self.row_hashes(obj)
        if content is not None:
            self.by_content[_signature(content)] = did
        return did

    @property
    def k(self) -> int:
        return int(self.lim.get("sketch_rows", 4096))

    def row_hashes(self, obj: Any) -> Any:
        return _row_hashes(obj, int(self.lim.get("max_hash_elements", 4_000_000)))

    # --- the export -------------------------------------------------------------------------
    def export(self) -> str:
        events = list(self.events)
        ids = {d for e in events for d in _refs(e)}
        prior = [e for e in self.history if e["op"] in _LINEAGE_OPS]
        prior = prior[-40:]
        ids |= {d for e in prior for d in _refs(e)}
        out = {"cell": self.cell, "events": events, "prior": prior,
               "data": {d: self.data[d].public() for d in sorted(ids) if d in self.data},
               "overlap": self.overlaps(events + prior),
               "errors": list(self.errors), "truncated": self.stopped,
               "ms": round(self.spent, 2), "seeded": self.seeded}
        return json.dumps(out, default=_plain)

    def overlaps(self, events: list[dict[str, Any]]) -> list[list[Any]]:
        """[a, b, share of a's rows that are rows of b] for evaluated/split data (a) against
        fitted/split data (b): what lineage rules ask."""
        evals, fits = set(), set()
        for e in events:
            if e["op"] in _FIT_OPS:
                fits.update(_refs(e, inputs_only=True))
            elif e["op"] != "test":
                evals.update(_refs(e, inputs_only=True))
            if e["op"] == "cross_validate" or e.get("kind") == "search":
                evals.update(_refs(e, inputs_only=True))  # its folds are held out
            if e["op"] == "split":
                evals.update(e.get("outputs", []))
                fits.update([*e.get("outputs", []), e.get("X")])
            if e["op"] == "resample" and e.get("out"):
                evals.add(e["out"])  # did the copies reach a split?
            if e.get("assigned"):
                fits.add(e["assigned"])  # the frame a step by hand was written into
        out = []
        for a in sorted(evals):
            for b in sorted(fits):
                if a == b:
                    continue
                share = _containment(self.data.get(a), self.data.get(b))
                if share is not None:
                    out.append([a, b, round(share, 4)])
        return out


_COUNTED = {"draw", "rng"}
_MODEL_KINDS = {"model", "search"}
RESAMPLED = "resample"  # the origin of rows drawn with replacement
FRAME_LEVEL_METHODS = {"query", "eval"}  # resolve `@name` in the caller's frame
_FIT_OPS = {"fit", "fit_transform", "fit_predict", "cross_validate", "resample", "split"}
_LINEAGE_OPS = {"fit", "fit_transform", "transform", "split", "resample", "filter",
                "cross_validate", "seed", "rng", "derive"}


def _refs(event: dict[str, Any], inputs_only: bool = False) -> list[str]:
    keys = ("X", "y", "samples") if inputs_only else ("X", "y", "out", "samples", "outputs",
                                                       "assigned")
    found: list[str] = []
    for key in keys:
        value = event.get(key)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            found.extend(v for v in value if isinstance(v, str))
    return found


def _plain(value: Any) -> Any:
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)[:200]


# --- rows --------------------------------------------------------------------------------
_MIX = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)


def _shape_of(obj: Any) -> tuple[str, int | None, list[str] | None, Any]:
    pd = sys.modules.get("pandas")
    if pd is not None and isinstance(obj, pd.DataFrame):
        return "frame", len(obj), [str(c) for c in obj.columns[:60]], None
    if pd is not None and isinstance(obj, pd.Series):
        return "series", len(obj), None, obj.name
    shape = getattr(obj, "shape", None)
    if isinstance(shape, tuple) and shape:
        return "array", int(shape[0]), None, None
    if isinstance(obj, list | tuple) and obj and not isinstance(obj[0], str | bytes):
        return "list", len(obj), None, None
    return "other", None, None, None


def _row_hashes(obj: Any, max_elements: int) -> Any:
    """One 64-bit hash per row, equal for equal values whatever the container (a frame, its
    `.values`, a list of rows); None when the data are too large or not tabular."""
    np = sys.modules.get("numpy")
    if np is None:
        return None
    pd = sys.modules.get("pandas")
    try:
        if pd is not None and isinstance(obj, pd.DataFrame | pd.Series):
            if obj.size > max_elements:
                return None
            try:
                arr = obj.to_numpy(dtype="float64", na_value=np.nan)
            except (TypeError, ValueError):
                return pd.util.hash_pandas_object(obj, index=False).to_numpy(np.uint64)
        else:
            if getattr(obj, "format", None) in ("csr", "csc", "coo"):  # scipy.sparse
                return None
            arr = np.asarray(obj)
            if arr.size > max_elements or arr.ndim == 0:
                return None
            if arr.dtype.kind not in "biuf":
                if pd is None:
                    return None
                return pd.util.hash_pandas_object(pd.DataFrame(arr.reshape(len(arr), -1)),
                                                  index=False).to_numpy(np.uint64)
        arr = np.ascontiguousarray(np.asarray(arr, dtype=np.float64).reshape(len(arr), -1))
        arr = arr + 0.0  # -0.0 and 0.0 hash alike
        words = arr.view(np.uint64)
        weights = (np.arange(1, words.shape[1] + 1, dtype=np.uint64) * np.uint64(_MIX[0])) | \
            np.uint64(1)
        with np.errstate(over="ignore"):
            h = (words * weights).sum(axis=1, dtype=np.uint64)
            h ^= h >> np.uint64(31)
            h *= np.uint64(_MIX[1])
            h ^= h >> np.uint64(29)
            h *= np.uint64(_MIX[2])
            h ^= h >> np.uint64(32)
        return h
    except Exception:
        return None


def _row_labels(obj: Any) -> tuple[Any, ...] | None:
    """A short fingerprint of a pandas object's row labels; None for other containers."""
    index = getattr(obj, "index", None)
    pd = sys.modules.get("pandas")
    if pd is None or not isinstance(index, pd.Index):
        return None
    try:
        return (len(index), *index[:3].tolist(), *index[-3:].tolist())
    except Exception:
        return None


def _other_rows(known: tuple[Any, ...] | None, obj: Any) -> bool:
    """Both have row labels and they differ: equal content, other rows."""
    mine = _row_labels(obj)
    return known is not None and mine is not None and mine != known


def _sketch(full: Any, k: int) -> Any:
    np = sys.modules.get("numpy")
    if full is None or np is None:
        return None
    uniq = np.unique(full)
    return uniq[:k]


def _content_key(full: Any, cols: list[str] | None) -> tuple[Any, ...]:
    """Equal for equal rows; a column selection also by its columns (its rows are hashed
    over its source's columns, so selections of other columns must stay apart)."""
    return _signature(full) if cols is None else (*_signature(full), *cols)


def _signature(full: Any) -> tuple[int, int]:
    """Equal for the same rows in the same order (a transform's output passed on as a copy)."""
    return len(full), hash(full.tobytes())


def _containment(a: _Datum | None, b: _Datum | None) -> float | None:
    """Share of a's rows found among b's rows (on the part of the hash space both sketches
    cover completely); None when too few rows fall in it to say."""
    np = sys.modules.get("numpy")
    if a is None or b is None or np is None or not b.identifies or \
            not (a.identifies or a.origin == RESAMPLED):  # copies repeat rows by design
        return None
    if not len(a.sketch) or not len(b.sketch):
        return None
    top = min(a.sketch[-1], b.sketch[-1]) if len(a.sketch) < a.n or len(b.sketch) < b.n \
        else max(a.sketch[-1], b.sketch[-1])
    mine = a.sketch[a.sketch <= top]
    if len(mine) < min(20, len(a.sketch)):
        return None
    pos = np.searchsorted(b.sketch, mine)
    pos[pos >= len(b.sketch)] = 0
    return float(np.mean(b.sketch[pos] == mine))


# --- where in the cell --------------------------------------------------------------------
_CELL_FILE = __import__("re").compile(r"ipykernel_\d+[/\\]|^<(cell|setup|ipython-input)")


def _is_cell_file(filename: str) -> bool:
    """A cell's code: ipykernel names it /tmp/ipykernel_<pid>/<hash>.py, exec'd code '<...>'."""
    return _CELL_FILE.search(filename) is not None


def _called_from_cell(through: str = "") -> bool:
    """The wrapped call was made by the user's code (a cell, or a function a cell defined),
    not by a library (module-level code run by an import, a plotting library's groupby).
    `through`: frames of files containing it in between are looked through (pandas' own
    `assign` sets the column the cell asked for)."""
    frame = sys._getframe(2)
    while through and frame.f_back is not None and through in frame.f_code.co_filename:
        frame = frame.f_back
    return _is_cell_file(frame.f_code.co_filename)


def _cell_line() -> int | None:
    """The line of the cell's top-level statement that led to this call."""
    frame = sys._getframe(2)
    line = None
    while frame is not None:
        code = frame.f_code
        if code.co_name == "<module>" and _is_cell_file(code.co_filename):
            line = frame.f_lineno
        frame = frame.f_back
    return line


# --- events --------------------------------------------------------------------------------
def _first(args: tuple[Any, ...], kwargs: dict[str, Any], pos: int, *names: str) -> Any:
    if len(args) > pos:
        return args[pos]
    for name in names:
        if name in kwargs:
            return kwargs[name]
    return None


def _estimator_kind(est: Any) -> str:
    name = type(est).__name__
    if name.endswith("SearchCV") or hasattr(est, "best_estimator_"):
        return "search"
    if hasattr(est, "predict") or hasattr(est, "fit_predict"):
        return "model"
    if hasattr(est, "transform") or hasattr(est, "fit_resample"):
        return "transformer"
    return "other"


def _number(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return out if out == out else None


def _estimator_event(rec: Recorder, op: str, est: Any, args: tuple[Any, ...],
                     kwargs: dict[str, Any], result: Any) -> dict[str, Any]:
    rec.keep.append(est)
    event: dict[str, Any] = {"op": op, "est": type(est).__name__,
                             "module": type(est).__module__, "est_id": id(est),
                             "kind": _estimator_kind(est)}
    if hasattr(est, "get_support"):  # a feature selector, whatever else it is
        event["selector"] = True
    if op == "model_fit":
        event = _model_fit_event(event, est, result)
        _measure(rec, event, getattr(est, "exog", None), getattr(est, "endog", None),
                 event["exog"])
        return event
    x = _first(args, kwargs, 0, "X")
    event["X"] = rec.datum(x)
    y = _first(args, kwargs, 1, "y")
    if y is not None and op in ("fit", "fit_transform", "fit_predict", "score", "resample"):
        event["y"] = rec.datum(y)
    if op in ("transform", "fit_transform") and result is not None:
        event["out"] = rec.alias(result, event["X"], f"{type(est).__name__}.{op}")
    elif op == "resample" and isinstance(result, tuple) and result:
        event["out"] = rec.datum(result[0], f"{type(est).__name__}.fit_resample")
    elif op == "score":
        event["result"] = _number(result)
    elif op == "predict" and result is not None:  # predictions keep their rows
        event["out"] = rec.alias(result, event["X"], f"{type(est).__name__}.predict")
    params = getattr(est, "get_params", None)
    if callable(params):
        try:
            state = params(deep=False).get("random_state", "absent")
            event["random_state"] = None if state is None else str(state)[:40]
        except Exception:
            pass
    if op in ("fit", "fit_predict") and event["kind"] in _MODEL_KINDS and y is not None:
        _measure(rec, event, x, y)
    if event["kind"] == "search" and op == "fit":
        event["result"] = _number(getattr(est, "best_score_", None))
        event["candidates"] = len(getattr(est, "cv_results_", {}).get("params", []))
    return event


# --- how well each feature alone orders the target, at a model's fit ---------------------
ASSOC_ROWS = 2000  # evenly spaced rows measured (a ranking needs no more)
ASSOC_COLUMNS = 80
ASSOC_PER_CELL = 12  # fits measured per cell (a loop of fits measures its first few)


def _measure(rec: Recorder, event: dict[str, Any], x: Any, y: Any,
             names: list[str] | None = None) -> None:
    if rec.measured >= ASSOC_PER_CELL or x is None or y is None:
        return
    rec.measured += 1
    found = _association(x, y, names)
    if found is not None:
        event["assoc"] = found


def _association(x: Any, y: Any, names: list[str] | None) -> dict[str, Any] | None:
    """How well each feature column alone orders the target: ROC AUC folded to >= 0.5 for a
    two-valued target, |Spearman's rho| for a numeric one with many values; the three
    strongest. A feature that alone nearly determines the target is what target-leakage
    rules ask about. Reads copies of a sample of rows; the user's data are not touched."""
    np = sys.modules["numpy"]
    yv = np.asarray(y)
    if yv.ndim == 2 and yv.shape[1] == 1:
        yv = yv[:, 0]
    if yv.ndim != 1 or len(yv) < 20:
        return None
    step = max(1, len(yv) // ASSOC_ROWS)
    yv = yv[::step]
    known = _not_missing(yv)
    levels = np.unique(yv[known].astype(str))
    if len(levels) == 2:
        kind, target = "auc", yv.astype(str) == levels[1]
    elif yv.dtype.kind in "biuf" and len(levels) >= 10:
        kind, target = "rho", _avg_ranks(yv.astype(float))
    else:
        return None
    found, one_class = [], []
    for name, col in _feature_columns(x, names, step, len(yv)):
        if kind == "auc" and _set_for_one_class(col[known], target[known]):
            one_class.append(name)
        ok = known & ~np.isnan(col)
        if ok.sum() < 20:
            continue
        strength = _strength(kind, col[ok], target[ok])
        if strength is not None:
            found.append([name, round(strength, 4)])
    found.sort(key=lambda p: -p[1])
    out = {"kind": kind, "top": found[:3], "features": len(found), "rows": int(known.sum())}
    if one_class:
        out["one_class"] = one_class[:5]
    return out


def _set_for_one_class(col: Any, target: Any) -> bool:
    """The column holds one value (missing counts as a value) for almost every row of one
    class, a value most rows of the other class do not have: a field that exists only once
    the outcome happened (a cancellation date, a refund, a rework count)."""
    np = sys.modules["numpy"]
    filled = np.where(np.isnan(col), -np.inf, col)
    for rows in (target, ~target):
        mine, other = filled[rows], filled[~rows]
        if len(mine) < 10 or len(other) < 10:
            continue
        values, counts = np.unique(mine, return_counts=True)
        top = values[counts.argmax()]
        if counts.max() >= 0.95 * len(mine) and (other == top).mean() <= 0.5:
            return True
    return False


def _not_missing(values: Any) -> Any:
    pd = sys.modules.get("pandas")
    np = sys.modules["numpy"]
    return ~pd.isna(values) if pd is not None else np.ones(len(values), bool)


def _feature_columns(x: Any, names: list[str] | None, step: int, n: int) -> Any:
    np, pd = sys.modules["numpy"], sys.modules.get("pandas")
    if pd is not None and isinstance(x, pd.DataFrame):
        for c in list(x.columns)[:ASSOC_COLUMNS]:
            col = x[c]
            if getattr(col, "ndim", 2) == 1 and col.dtype.kind in "biuf":
                yield str(c), col.to_numpy(dtype=float, na_value=np.nan)[::step]
        return
    if pd is not None and isinstance(x, pd.Series):
        x = x.to_numpy()
    if type(x).__module__.startswith("scipy.sparse") or not hasattr(x, "shape"):
        return
    a = np.asarray(x)
    if a.dtype.kind not in "biuf" or a.ndim not in (1, 2):
        return
    a = a.reshape(len(a), -1)[::step].astype(float)
    if len(a) != n:
        return
    for j in range(min(a.shape[1], ASSOC_COLUMNS)):
        yield (names[j] if names and j < len(names) else f"column {j}"), a[:, j]


def _strength(kind: str, col: Any, target: Any) -> float | None:
    np = sys.modules["numpy"]
    ranks = _avg_ranks(col)
    if kind == "auc":
        n1 = int(target.sum())
        n0 = len(target) - n1
        if n1 < 5 or n0 < 5:
            return None
        auc = (ranks[target].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)
        return float(max(auc, 1 - auc))
    if ranks.std() == 0 or target.std() == 0:
        return None
    return float(abs(np.corrcoef(ranks, target)[0, 1]))


def _avg_ranks(values: Any) -> Any:
    """1-based ranks, ties sharing their average rank."""
    np = sys.modules["numpy"]
    order = np.argsort(values, kind="mergesort")
    _, first, counts = np.unique(values[order], return_index=True, return_counts=True)
    ranks = np.empty(len(values))
    ranks[order] = np.repeat(first + (counts + 1) / 2.0, counts)
    return ranks


def _model_fit_event(event: dict[str, Any], model: Any, result: Any) -> dict[str, Any]:
    event["endog"] = str(getattr(model, "endog_names", ""))[:80]
    exog = getattr(model, "exog_names", None)
    event["exog"] = [str(e) for e in exog[:40]] if isinstance(exog, list) else []
    event["formula"] = str(getattr(model, "formula", "") or "")[:300]
    endog = getattr(model, "endog", None)
    event["n"] = _number(getattr(model, "nobs", None)) or _number(getattr(endog, "shape", [0])[0])
    pvalues = getattr(result, "pvalues", None)
    if pvalues is not None:
        event["n_pvalues"] = int(getattr(pvalues, "size", 0) or 0)
    return event


def _split_event(rec: Recorder, orig: Any, arrays: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    """Run the split with one extra index array (the draw does not depend on how many
    arrays are split) to learn which rows went where."""
    np = sys.modules["numpy"]
    n = _shape_of(arrays[0])[1] if arrays else None
    if not n:
        return orig(*arrays, **kwargs), None
    parts = orig(*arrays, np.arange(n), **kwargs)
    train_idx, test_idx = parts[-2], parts[-1]
    result = parts[:-2]
    root = rec.datum(arrays[0])
    base = rec.data.get(root or "")
    outputs: list[str | None] = []
    for i, part in enumerate(result):
        idx = train_idx if i % 2 == 0 else test_idx
        full = base.full[idx] if base is not None and base.full is not None else None
        outputs.append(rec.alias(part, root, "split:" + ("train" if i % 2 == 0 else "test"),
                                 full=full) if full is not None else rec.datum(part, "split"))
    state = kwargs.get("random_state")
    event = {"op": "split", "func": "train_test_split", "X": root, "outputs": outputs,
             "shuffle": kwargs.get("shuffle", True) is not False,
             "random_state": None if state is None else str(state)[:40],
             "stratified": kwargs.get("stratify") is not None}
    return result, event


def _function_event(rec: Recorder, op: str, name: str, args: tuple[Any, ...],
                    kwargs: dict[str, Any], result: Any) -> dict[str, Any] | None:
    event: dict[str, Any] = {"op": op, "func": name}
    if op == "cross_validate":
        est = _first(args, kwargs, 0, "estimator")
        event.update(est=type(est).__name__, est_id=id(est), X=rec.datum(_first(
            args, kwargs, 1, "X")), y=rec.datum(_first(args, kwargs, 2, "y")),
            cv=str(kwargs.get("cv", ""))[:80])
        rec.keep.append(est)
        _measure(rec, event, _first(args, kwargs, 1, "X"), _first(args, kwargs, 2, "y"))
    elif op == "metric":
        event["y"] = rec.datum(_first(args, kwargs, 0, "y_true"))
        event["X"] = rec.datum(_first(args, kwargs, 1, "y_pred", "y_score", "y_prob",
                                      "probas_pred"))
        event["result"] = _number(result)
    elif op == "test":
        arrays = [a for a in args[:8] if _shape_of(a)[1] is not None]
        event["samples"] = [d for d in map(rec.datum, arrays) if d]
        event["pvalue"] = _pvalue(result)
        event["names"] = [str(getattr(a, "name", "") or "")[:60] for a in arrays]
        event["ix"] = [id(getattr(a, "index", a)) for a in arrays]
        rec.keep.extend(getattr(a, "index", a) for a in arrays)
        if len(arrays) == 2:
            event["shared_rows"] = _shared_rows(*arrays)
        event.update(_sample_shapes(name, arrays, kwargs, result))
    elif op == "correction":
        first = _first(args, kwargs, 0, "pvals", "data")
        event["n"] = _shape_of(first)[1]
        event["method"] = str(kwargs.get("method", ""))[:40]
    elif op == "resample":
        if kwargs.get("replace", True) is False or not args:
            return None  # a shuffle or a subsample draws no copies
        out = result[0] if isinstance(result, list | tuple) and len(args) > 1 else result
        return _resample_event(rec, name, args[0], out)
    elif op in ("draw", "rng", "seed"):
        if op == "seed":
            rec.seeded = True
        seed = _first(args, kwargs, 0, "seed")
        event["seeded"] = seed is not None if op != "draw" else rec.seeded
    return event


SHAPE_ROWS = 5000  # values per sample read for its shape (evenly spaced)


def _sample_shapes(name: str, arrays: list[Any], kwargs: dict[str, Any],
                   result: Any) -> dict[str, Any]:
    """What a test's assumptions are about, read off the samples it ran on: per sample its
    size, skewness and standard deviation (of the differences, for a paired t-test); the
    smallest expected count of a chi-square test; whether a t-test pooled the variances."""
    np = sys.modules["numpy"]
    out: dict[str, Any] = {}
    plain = [np.asarray(a) for a in arrays[:8]]
    values = [a.astype(float).ravel() for a in plain if a.dtype.kind in "biuf"]
    if name == "ttest_rel" and len(values) == 2 and len(values[0]) == len(values[1]):
        values = [values[0] - values[1]]
    if values and name != "chi2_contingency":
        out["shapes"] = [_shape(v[~np.isnan(v)]) for v in values]
    if name == "ttest_ind":
        out["equal_var"] = kwargs.get("equal_var", True) is not False and \
            kwargs.get("usevar", "pooled") == "pooled"  # scipy's and statsmodels' spelling
    expected = getattr(result, "expected_freq", None)
    if expected is None and name == "chi2_contingency" and isinstance(result, tuple) and \
            len(result) == 4:
        expected = result[3]
    if expected is not None:
        e = np.asarray(expected, dtype=float).ravel()
        out["expected"] = {"min": round(float(e.min()), 3), "cells": int(e.size),
                           "below5": int((e < 5).sum())}
    return out


def _shape(v: Any) -> list[float]:
    n = len(v)
    v = v[::max(1, n // SHAPE_ROWS)]
    sd = float(v.std(ddof=1)) if len(v) > 1 else 0.0
    skew = float(((v - v.mean()) ** 3).mean() / v.std() ** 3) if len(v) > 2 and sd > 0 else 0.0
    return [n, round(skew, 3), round(sd, 6)]


def _shared_rows(a: Any, b: Any) -> float | None:
    """Share of the smaller sample's row labels that label rows of the other too: two
    columns of one frame (the same units measured twice) share them all, two groups of
    rows share none. None when the labels say nothing: no index, or two default ranges
    that are not one frame's (independently made samples are numbered alike)."""
    pd = sys.modules.get("pandas")
    ia, ib = getattr(a, "index", None), getattr(b, "index", None)
    if pd is None or not isinstance(ia, pd.Index) or not isinstance(ib, pd.Index):
        return None
    if ia is not ib and isinstance(ia, pd.RangeIndex) and isinstance(ib, pd.RangeIndex):
        return None
    small = min(len(ia), len(ib))
    if not small or not ia.is_unique or not ib.is_unique:
        return None
    return round(len(ia.intersection(ib)) / small, 4)


def _pvalue(result: Any) -> Any:
    for attr in ("pvalue", "p_value"):
        value = getattr(result, attr, None)
        if value is not None:
            return _number(value) if _number(value) is not None else "array"
    if isinstance(result, tuple) and len(result) >= 2:
        return _number(result[1])
    return None


# --- frames --------------------------------------------------------------------------------
def _filter_event(rec: Recorder, method: str, frame: Any, key: Any, result: Any,
                  kwargs: dict[str, Any]) -> dict[str, Any] | None:
    pd = sys.modules["pandas"]
    if not isinstance(frame, pd.DataFrame) or not isinstance(result, pd.DataFrame):
        return None
    if method == "sample" and (kwargs.get("replace") or len(result) > len(frame)):
        return _resample_event(rec, "DataFrame.sample", frame, result)
    if method != "merge" and len(result) >= len(frame):
        return None
    cond = _condition_columns(method, frame, key, kwargs)
    event: dict[str, Any] = {"op": "filter", "method": method, "n_in": len(frame),
                             "n_out": len(result), "cond": cond,
                             "cols": [str(c) for c in frame.columns[:60]],
                             "in_ix": id(frame.index), "out_ix": id(result.index)}
    rec.keep.extend((frame.index, result.index))
    if method == "merge":
        event["how"] = str(kwargs.get("how", "inner"))
        return event
    removed = frame.index.difference(result.index) if frame.index.is_unique else None
    if removed is not None and len(removed):
        event["removed"] = {c: _levels(frame.loc[removed, c]) for c in cond[:4]
                            if c in frame.columns}
        event["kept"] = {c: _levels(result[c]) for c in cond[:4] if c in result.columns}
    return event


def _resample_event(rec: Recorder, how: str, data: Any, result: Any) -> dict[str, Any]:
    """Rows drawn with replacement: copies of rows that a later split can put on both sides."""
    return {"op": "resample", "est": how, "kind": "sampler", "X": rec.datum(data),
            "out": rec.datum(result, RESAMPLED), "replace": True}


def _condition_columns(method: str, frame: Any, key: Any, kwargs: dict[str, Any]) -> list[str]:
    cols = {str(c) for c in frame.columns}
    if method == "query" and isinstance(key, str):
        import re
        return [w for w in dict.fromkeys(re.findall(r"[A-Za-z_]\w*|`[^`]+`", key))
                if w.strip("`") in cols]
    if method == "dropna":
        subset = kwargs.get("subset")
        if subset is not None:
            return [str(s) for s in ([subset] if isinstance(subset, str) else subset)]
        return [str(c) for c in frame.columns[frame.isna().any()].tolist()][:10]
    if method == "merge":
        on = kwargs.get("on") or kwargs.get("left_on")
        return [str(s) for s in ([on] if isinstance(on, str) else on or [])]
    name = getattr(key, "name", None)
    return [str(name)] if name is not None and str(name) in cols else []


def _levels(values: Any) -> dict[str, Any]:
    """A short picture of a column: its most common values (text) or its range."""
    if values.dtype.kind in "biuf" and values.nunique() > 12:
        return {"min": _number(values.min()), "max": _number(values.max()),
                "mean": _number(values.mean()), "n": len(values)}
    counts = values.astype(str).value_counts().head(6)
    return {"top": {str(k): int(v) for k, v in counts.items()}, "n": len(values)}


def _summary_event(method: str, obj: Any) -> dict[str, Any] | None:
    pd = sys.modules["pandas"]
    base = getattr(obj, "obj", obj)  # a groupby's frame
    if isinstance(base, pd.Series):
        cols = [str(base.name)] if base.name is not None else []
    elif isinstance(base, pd.DataFrame):
        cols = [str(c) for c in base.columns[:30]]
        selected = getattr(obj, "_selection", None)
        if selected is not None:
            cols = [str(s) for s in ([selected] if isinstance(selected, str) else selected)]
    else:
        return None
    return {"op": "summary", "method": method, "cols": cols, "n": len(base),
            "ix": id(base.index), "grouped": obj is not base}


# --- wrapping ------------------------------------------------------------------------------
def _wrap(rec: Recorder, orig: Any, make: Any, frame_level: str | None = None) -> Any:
    """`orig` unchanged, plus `make(args, kwargs, result)` recorded for outermost calls.
    `frame_level`: the keyword by which `orig` finds its caller's frame (`DataFrame.query`
    resolves `@name` that way): raised by one for the frame this wrapper adds."""
    if getattr(orig, "__nbcritic_orig__", None) is not None:
        return orig

    @functools.wraps(orig)
    def traced(*args: Any, **kwargs: Any) -> Any:
        if frame_level:
            kwargs[frame_level] = kwargs.get(frame_level, 0) + 1
        if not rec.on or rec.depth or rec.stopped or not _called_from_cell():
            return orig(*args, **kwargs)
        rec.depth += 1
        try:
            result = orig(*args, **kwargs)
        finally:
            rec.depth -= 1
        rec.record(make, args, kwargs, result)
        return result

    traced.__nbcritic_orig__ = orig  # type: ignore[attr-defined]
    return traced


def _wrap_split(rec: Recorder, orig: Any) -> Any:
    @functools.wraps(orig)
    def traced(*arrays: Any, **kwargs: Any) -> Any:
        if not rec.on or rec.depth or rec.stopped or "numpy" not in sys.modules or \
                not _called_from_cell():
            return orig(*arrays, **kwargs)
        rec.depth += 1
        try:
            n = _shape_of(arrays[0])[1] if arrays else None
            if not n:
                return orig(*arrays, **kwargs)
            np = sys.modules["numpy"]
            try:
                parts = orig(*arrays, np.arange(n), **kwargs)
            except Exception:
                return orig(*arrays, **kwargs)  # the user's own error, raised as usual
        finally:
            rec.depth -= 1
        result = parts[:-2]
        rec.record(_record_split, rec, arrays, kwargs, parts)
        return result

    traced.__nbcritic_orig__ = orig  # type: ignore[attr-defined]
    return traced


def _record_split(rec: Recorder, arrays: tuple[Any, ...], kwargs: dict[str, Any],
                  parts: list[Any]) -> dict[str, Any]:
    return _split_event(rec, lambda *a, **k: parts, arrays, kwargs)[1] or {}


def _patch_classes(rec: Recorder, module: Any, spec: dict[str, Any]) -> None:
    bases = tuple(b for b in (_resolve(p) for p in spec.get("bases", [])) if b is not None)
    if not bases:
        return
    for obj in list(vars(module).values()):
        if not isinstance(obj, type) or obj.__module__ != module.__name__:
            continue
        if not (issubclass(obj, bases) or obj.__name__.endswith("Mixin")):
            continue
        for method, op in spec["methods"].items():
            fn = obj.__dict__.get(method)
            make = functools.partial(_method_maker, rec, op)
            if callable(fn) and not isinstance(fn, staticmethod | classmethod):
                setattr(obj, method, _wrap(rec, fn, make))
            elif callable(getattr(fn, "fn", None)):  # sklearn's `available_if` descriptor
                fn.fn = _wrap(rec, fn.fn, make)


def _method_maker(rec: Recorder, op: str, args: tuple[Any, ...], kwargs: dict[str, Any],
                  result: Any) -> dict[str, Any]:
    return _estimator_event(rec, op, args[0], args[1:], kwargs, result)


def _patch_functions(rec: Recorder, module: Any, table: dict[str, str]) -> None:
    for name, op in table.items():
        fn = getattr(module, name, None)
        if fn is None or isinstance(fn, type) or getattr(fn, "__nbcritic_orig__", None):
            continue  # classes stay classes (isinstance checks must keep working)
        if op == "split":
            wrapped = _wrap_split(rec, fn)
        else:
            def make(args: Any, kwargs: Any, result: Any, _op: str = op,
                     _name: str = name) -> dict[str, Any] | None:
                return _function_event(rec, _op, _name, args, kwargs, result)
            wrapped = _wrap(rec, fn, make)
        rec.originals[id(fn)] = wrapped
        setattr(module, name, wrapped)


def _patch_pandas(rec: Recorder, pd: Any) -> None:
    frame = pd.DataFrame
    for method in rec.cat.get("pandas_filters", []):
        fn = frame.__dict__.get(method) or getattr(frame, method, None)  # `sample`: NDFrame's
        if callable(fn):
            def make(args: Any, kwargs: Any, result: Any, _m: str = method) -> Any:
                key = args[1] if len(args) > 1 else kwargs.get("expr")
                return _filter_event(rec, _m, args[0], key, result, kwargs)
            level = "level" if method in FRAME_LEVEL_METHODS else None
            setattr(frame, method, _wrap(rec, fn, make, level))
    getitem = frame.__dict__["__getitem__"]

    def mask_getitem(self: Any, key: Any) -> Any:
        if not rec.on or rec.depth or rec.stopped:
            return getitem(self, key)
        if not _is_mask(key):
            result = getitem(self, key)
            if _is_labels(key) and _called_from_cell():
                rec.view(result, self)
            return result
        if not _called_from_cell():
            return getitem(self, key)
        rec.depth += 1
        try:
            result = getitem(self, key)
        finally:
            rec.depth -= 1
        rec.record(_filter_event, rec, "mask", self, key, result, {})
        return result

    mask_getitem.__nbcritic_orig__ = getitem  # type: ignore[attr-defined]
    frame.__getitem__ = mask_getitem
    loc = pd.core.indexing._LocIndexer
    loc_get = loc.__getitem__

    def loc_getitem(self: Any, key: Any) -> Any:
        rows = key[0] if isinstance(key, tuple) and key else key
        if not rec.on or rec.depth or rec.stopped or not isinstance(self.obj, pd.DataFrame):
            return loc_get(self, key)
        if not _is_mask(rows):
            result = loc_get(self, key)
            if isinstance(rows, slice) and rows == slice(None) and _called_from_cell():
                rec.view(result, self.obj)  # `.loc[:, columns]`
            return result
        if not _called_from_cell():
            return loc_get(self, key)
        rec.depth += 1
        try:
            result = loc_get(self, key)
        finally:
            rec.depth -= 1
        rec.record(_filter_event, rec, "loc", self.obj, rows, result, {})
        return result

    loc_getitem.__nbcritic_orig__ = loc_get  # type: ignore[attr-defined]
    loc.__getitem__ = loc_getitem
    groupby = pd.core.groupby.generic
    for cls in (pd.Series, frame, groupby.DataFrameGroupBy, groupby.SeriesGroupBy):
        for method in rec.cat.get("pandas_summaries", []):
            fn = cls.__dict__.get(method) or getattr(cls, method, None)
            if callable(fn) and getattr(fn, "__nbcritic_orig__", None) is None:
                def make(args: Any, kwargs: Any, result: Any, _m: str = method) -> Any:
                    ev = _summary_event(_m, args[0])
                    if ev is not None:
                        rec.keep.append(getattr(getattr(args[0], "obj", args[0]), "index", None))
                        if ev["grouped"]:
                            _derive(rec, result, ev["cols"], ev["n"])
                        elif isinstance(args[0], frame):
                            rec.stats[id(result)] = (result, args[0], _m)
                    return ev
                setattr(cls, method, _wrap(rec, fn, make))
    _patch_views(rec, frame)
    _patch_by_hand(rec, frame)
    _patch_lineage(rec, pd)


def _patch_by_hand(rec: Recorder, frame: Any) -> None:
    """`(X - X.mean()) / X.std()`, `X.fillna(X.median())`: statistics learned from rows and
    applied to them are a fit by hand, recorded like a scaler's or an imputer's."""
    for method in rec.cat.get("pandas_by_hand", []):
        fn = frame.__dict__.get(method) or getattr(frame, method, None)
        if not callable(fn) or getattr(fn, "__nbcritic_orig__", None) is not None:
            continue

        def applied(self: Any, *args: Any, _fn: Any = fn, _m: str = method, **kw: Any) -> Any:
            result = _fn(self, *args, **kw)
            if rec.on and not rec.depth and not rec.stopped and rec.stats:
                stat = next((rec.stats[id(a)] for a in (*args, *kw.values())
                             if id(a) in rec.stats and rec.stats[id(a)][0] is a), None)
                if stat is not None and len(stat[1]) == len(self) and _called_from_cell():
                    rec.record(_by_hand_event, rec, stat, self, result)
            return result
        applied.__nbcritic_orig__ = fn  # type: ignore[attr-defined]
        functools.update_wrapper(applied, fn)
        setattr(frame, method, applied)


def _by_hand_event(rec: Recorder, stat: tuple[Any, Any, str], frame: Any,
                   result: Any) -> dict[str, Any] | None:
    last = rec.events[-1] if rec.events else None
    line = _cell_line()
    if last is not None and last.get("by_hand") and last.get("line") == line:
        last["out"] = rec.alias(result, last["X"], "by hand")  # `(x - mean) / std`: one step
        rec.by_hand[id(result)] = (result, last)
        return None
    rows = rec.datum(frame)
    event = {"op": "fit_transform", "est": f"{stat[2]} by hand", "kind": "transformer",
             "by_hand": True, "X": rows, "out": rec.alias(result, rows, "by hand"),
             "line": line}
    rec.by_hand[id(result)] = (result, event)
    return event


def _assigned_by_hand(rec: Recorder, frame: Any, value: Any) -> None:
    """`df[cols] = (cols - cols.mean()) / cols.std()`: the frame now holds the step's output;
    its rows as they are now (every column) are what the step produced."""
    event = rec.by_hand[id(value)][1]
    rec.by_obj.pop(id(frame), None)  # its values changed: hash it afresh
    event["assigned"] = rec.datum(frame, "by hand")

def _patch_views(rec: Recorder, frame: Any) -> None:
    """Column selections by method keep their source's rows (row lineage)."""
    for method in ("drop", "select_dtypes", "filter"):
        fn = frame.__dict__.get(method)
        if not callable(fn) or getattr(fn, "__nbcritic_orig__", None) is not None:
            continue

        def viewed(*args: Any, _fn: Any = fn, **kwargs: Any) -> Any:
            result = _fn(*args, **kwargs)
            if rec.on and not rec.depth and not rec.stopped and \
                    isinstance(result, type(args[0])) and _called_from_cell():
                rec.view(result, args[0])
            return result
        viewed.__nbcritic_orig__ = fn  # type: ignore[attr-defined]
        functools.update_wrapper(viewed, fn)
        setattr(frame, method, viewed)


def _is_labels(key: Any) -> bool:
    """A list of column labels (`df[["a", "b"]]`), not a mask or one label."""
    if isinstance(key, list):
        return True
    dtype = getattr(key, "dtype", None)
    return dtype is not None and getattr(key, "ndim", 0) == 1 and dtype.kind != "b"


def _derive(rec: Recorder, result: Any, cols: list[str], n: int) -> None:
    """Remember that `result` is an aggregate of `cols` (over `n` rows)."""
    rec.derive(result, {c: [0] for c in cols}, n, True)


def _patch_lineage(rec: Recorder, pd: Any) -> None:
    """Column lineage: group transforms, maps through aggregates, and the columns they
    become (`df[c] = ...`, `assign`), so a feature computed from the outcome is a lookup."""
    groupby = pd.core.groupby.generic
    for cls in (groupby.DataFrameGroupBy, groupby.SeriesGroupBy):
        fn = cls.__dict__.get("transform") or getattr(cls, "transform", None)

        def transform_made(args: Any, kwargs: Any, result: Any) -> Any:
            ev = _summary_event("transform", args[0])
            if ev is not None:
                _derive(rec, result, ev["cols"], ev["n"])
                return {"op": "derive", "how": "transform", "from": ev["cols"], "n": ev["n"]}
            return None
        cls.transform = _wrap(rec, fn, transform_made)
    series_map = pd.Series.__dict__["map"]

    def map_made(args: Any, kwargs: Any, result: Any) -> Any:
        mapping = args[1] if len(args) > 1 else kwargs.get("arg")
        entry = rec.derived.get(id(mapping))
        if entry is None or entry[0]() is not mapping or not entry[3]:
            return None
        rec.derive(result, entry[1], entry[2], True)
        return {"op": "derive", "how": "map", "from": list(entry[1]), "n": entry[2]}
    pd.Series.map = _wrap(rec, series_map, map_made)
    setitem = pd.DataFrame.__dict__["__setitem__"]

    def traced_setitem(self: Any, key: Any, value: Any) -> None:
        setitem(self, key, value)
        if not rec.on or rec.depth or rec.stopped:
            return
        source = rec.lineage_of(value) if isinstance(key, str) else None
        if source is not None and list(source[0]) != [key] and \
                _called_from_cell(through="/pandas/"):
            rec.record(_column_event, key, source)
        elif id(value) in rec.by_hand and rec.by_hand[id(value)][0] is value and \
                _called_from_cell(through="/pandas/"):
            rec.record(_assigned_by_hand, rec, self, value)

    traced_setitem.__nbcritic_orig__ = setitem  # type: ignore[attr-defined]
    pd.DataFrame.__setitem__ = traced_setitem
    _patch_series_lineage(rec, pd.Series)
    _patch_windows(rec, pd)


_LAGGING = {"shift": "shift", "diff": "diff", "pct_change": "diff"}
_ARITHMETIC = ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
               "__truediv__", "__rtruediv__", "__pow__", "__array_ufunc__")


def _patch_series_lineage(rec: Recorder, series: Any) -> None:
    """Lags and arithmetic of columns: `s.shift(1)` holds s's values one row earlier,
    `s.diff(4)` holds them now and four rows earlier, `a / b` holds both columns; a column
    built from them (`df[c] = ...`) carries that lineage, lags included."""
    for method, how in _LAGGING.items():
        fn = getattr(series, method)
        if getattr(fn, "__nbcritic_orig__", None) is not None:
            continue

        def lagged(self: Any, *args: Any, _fn: Any = fn, _how: str = how, **kw: Any) -> Any:
            result = _fn(self, *args, **kw)
            if rec.on and not rec.depth and not rec.stopped:
                k = _first(args, kw, 0, "periods")
                _lag(rec, self, result, k if isinstance(k, int) else 1, _how)
            return result
        _install(series, method, fn, lagged)
    for method in _ARITHMETIC:
        fn = getattr(series, method)
        if getattr(fn, "__nbcritic_orig__", None) is not None:
            continue

        def combined(self: Any, *args: Any, _fn: Any = fn, **kw: Any) -> Any:
            result = _fn(self, *args, **kw)
            if rec.on and not rec.depth and not rec.stopped:
                _combine(rec, result, self, *args)
            return result
        _install(series, method, fn, combined)


_WINDOW_STATS = ("mean", "sum", "median", "std", "var", "min", "max", "count", "quantile")


def _patch_windows(rec: Recorder, pd: Any) -> None:
    """Lags through windows and group shifts: `s.rolling(3).mean()` holds s now and two rows
    earlier, `center=True` also one row later; `df.groupby(g)[c].shift(1)` is one row earlier
    within each group."""
    rolling = pd.core.window.rolling.Rolling
    for method in _WINDOW_STATS:
        fn = rolling.__dict__.get(method)
        if fn is None or getattr(fn, "__nbcritic_orig__", None) is not None:
            continue

        def windowed(self: Any, *args: Any, _fn: Any = fn, **kw: Any) -> Any:
            result = _fn(self, *args, **kw)
            if rec.on and not rec.depth and not rec.stopped and isinstance(self.window, int):
                w, back = self.window, (self.window // 2 if self.center else 0)
                _lag(rec, self.obj, result, 0, "window", range(-back, w - back))
            return result
        _install(rolling, method, fn, windowed)
    grouped = pd.core.groupby.generic.SeriesGroupBy
    for method, how in _LAGGING.items():
        fn = getattr(grouped, method)
        if getattr(fn, "__nbcritic_orig__", None) is not None:
            continue

        def group_lagged(self: Any, *args: Any, _fn: Any = fn, _how: str = how,
                         **kw: Any) -> Any:
            result = _fn(self, *args, **kw)
            if rec.on and not rec.depth and not rec.stopped:
                k = _first(args, kw, 0, "periods")
                _lag(rec, self.obj, result, k if isinstance(k, int) else 1, _how)
            return result
        _install(grouped, method, fn, group_lagged)


def _install(cls: Any, method: str, orig: Any, wrapper: Any) -> None:
    wrapper.__nbcritic_orig__ = orig
    functools.update_wrapper(wrapper, orig)
    setattr(cls, method, wrapper)


def _lag(rec: Recorder, source: Any, result: Any, k: int, how: str,
         window: range = range(0)) -> None:
    """`result` holds `source`'s values k rows earlier (shift), now and k rows earlier
    (diff), or over a window of row offsets (negative: later rows)."""
    found = rec.lineage_of(source)
    if found is None:
        return
    lags, n, agg = found
    if how == "shift":
        moved = {c: [x + k for x in xs] for c, xs in lags.items()}
    elif how == "window":
        moved = {c: sorted({x + j for x in xs for j in window}) for c, xs in lags.items()}
    else:
        moved = {c: sorted(set(xs) | {x + k for x in xs}) for c, xs in lags.items()}
    rec.derive(result, moved, n, agg)


def _combine(rec: Recorder, result: Any, *operands: Any) -> None:
    """`result` holds every operand's columns; remembered only when its own name no longer
    says so (two columns combined) or an operand's lineage is more than its name."""
    pd = sys.modules["pandas"]
    if not isinstance(result, pd.Series):
        return
    merged: dict[str, set[int]] = {}
    agg = False
    for op in operands:
        if not isinstance(op, pd.Series):
            continue
        found = rec.lineage_of(op)
        if found is not None:
            agg = agg or found[2]
            for c, xs in found[0].items():
                merged.setdefault(c, set()).update(xs)
    if not merged or (list(merged) == [str(result.name)] and merged[str(result.name)] == {0}):
        return
    rec.derive(result, {c: sorted(xs) for c, xs in merged.items()}, len(result), agg)


def _column_event(key: Any, source: tuple[dict[str, list[int]], int, bool]
                  ) -> dict[str, Any]:
    lags, n, agg = source
    return {"op": "derive", "how": "column", "column": str(key), "from": list(lags),
            "lags": lags, "n": n, "agg": agg}


def _is_mask(key: Any) -> bool:
    dtype = getattr(key, "dtype", None)
    return dtype is not None and getattr(dtype, "kind", "") == "b" and \
        getattr(key, "ndim", 0) == 1


def _resolve(path: str) -> Any:
    module, _, attr = path.rpartition(".")
    return getattr(sys.modules.get(module), attr, None)


class _Hook(importlib.abc.MetaPathFinder):
    """Patches catalogue modules as they finish importing (a cell's own imports)."""

    def __init__(self, rec: Recorder):
        self.rec = rec
        self.busy: set[str] = set()

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name in self.busy or not self.rec.wants(name):
            return None
        self.busy.add(name)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.busy.discard(name)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return None
        exec_module = loader.exec_module

        def exec_and_patch(module: Any) -> None:
            exec_module(module)
            self.rec.patch(module)

        loader.exec_module = exec_and_patch
        return spec


def _wants(rec: Recorder, name: str) -> bool:
    return name in rec.cat.get("functions", {}) or name == "pandas" or any(
        name.startswith(c["prefix"]) for c in rec.cat.get("classes", []))


def _patch_module(rec: Recorder, module: Any) -> None:
    name = getattr(module, "__name__", "")
    if name in rec.patched:
        return
    rec.patched.add(name)
    rec.depth += 1
    try:
        for spec in rec.cat.get("classes", []):
            if name.startswith(spec["prefix"]):
                _patch_classes(rec, module, spec)
        table = rec.cat.get("functions", {}).get(name)
        if table:
            _patch_functions(rec, module, table)
        if name == "pandas" and hasattr(module, "DataFrame"):
            _patch_pandas(rec, module)
    except Exception as exc:
        rec.errors.append(f"patching {name}: {type(exc).__name__}: {exc}"[:200])
    finally:
        rec.depth -= 1

RECORDER: Recorder | None = None


def install(catalogue: str, user_ns: dict[str, Any] | None = None, shell: Any = None) -> bool:
    """Install once per process: wrap what is loaded, hook later imports, start and stop
    recording with each (non-silent) cell through IPython's events."""
    global RECORDER
    if RECORDER is not None:
        return False
    rec = RECORDER = Recorder(json.loads(catalogue))
    sys.meta_path.insert(0, _Hook(rec))
    rec.sweep()
    for key, value in list((user_ns or {}).items()):  # names imported before the install
        wrapped = rec.originals.get(id(value))
        if wrapped is not None and getattr(wrapped, "__nbcritic_orig__", None) is value:
            user_ns[key] = wrapped  # type: ignore[index]
    if shell is not None:
        shell.events.register("pre_run_cell", rec.start)
        shell.events.register("post_run_cell", rec.stop)
    return True


def begin(fresh: bool = False) -> None:
    """Start recording a cell run outside IPython's events (in-process evidence); `fresh`
    forgets earlier cells, as a new kernel would."""
    if RECORDER is not None:
        RECORDER.sweep()
        if fresh:
            RECORDER.events, RECORDER.data, RECORDER.labels = [], {}, {}
            RECORDER.history.clear()
            RECORDER.by_obj.clear()
            RECORDER.by_content.clear()
            RECORDER.seeded = False
        RECORDER.start()


def export() -> str:
    if RECORDER is None:
        return json.dumps({"error": "the analysis trace is not installed in this kernel"})
    RECORDER.stop()
    RECORDER.sweep()
    return RECORDER.export()
