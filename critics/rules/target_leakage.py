"""Target leakage: the target, a column computed from it, or the column the target is computed
from, among the features of a model.

For every (features, target) pair the cell hands to a model (`.fit(X, y)`, train_test_split,
cross_val_score, `sm.OLS(y, X)`, formulas, `xgb.DMatrix(X, label=y)`), the target is traced back
to a column (`y = df['price']`, `df.pop('churn')`, `y = (df.score >= 50)`, `data[:, -1]`) and the
features are asked whether they hold it: first the kernel (the DataFrame's columns, a fitted
estimator's `feature_names_in_`), then the code (drop lists, column lists, iloc ranges,
select_dtypes with the frame's dtypes, pops and dels). Columns computed row by row from the
target (`df['price_per_sqft'] = df.price / df.sqft`, `np.where(df.dx == 1, …)`) are followed
transitively; group statistics (target encoding) belong to `leakage`, lagged copies
(`.shift(1)`) are legitimate.
"""

from __future__ import annotations

import ast
import builtins
import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..ast_cache import walk as _walk
from ..code_model import (
    CV_FUNCS,
    NON_COLUMN_ATTRS,
    chain_methods,
    const_strs,
    id_tokens,
    is_random_call,
    kwarg,
    literal,
    prior_statements,
    root_name,
    slice_prior,
)
from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from . import _columns

_PASS_METHODS = {"copy", "fillna", "dropna", "astype", "reset_index", "sample", "head", "tail",
                 "query", "sort_values", "sort_index", "to_numpy", "infer_objects",
                 "convert_dtypes", "set_index", "ffill", "bfill", "interpolate", "replace",
                 "clip", "round", "abs",
                 "loc", "iloc", "drop_duplicates", "rename_axis", "pipe", "transform",
                 "fit_transform", "reindex", "where", "mask", "apply"}
_TARGET_WRAPPERS = {"values", "to_numpy", "astype", "ravel", "reshape", "squeeze", "copy",
                    "fillna", "to_frame", "map", "replace", "cat", "codes", "factorize",
                    "flatten", "tolist", "to_list", "array", "asarray", "log", "log1p", "sqrt",
                    "fit_transform", "transform", "get_dummies", "Categorical"}
_COMPARE_METHODS = {"eq", "ne", "gt", "ge", "lt", "le", "isin", "between"}
_LAG_TOKENS = {"lag", "lagged", "prev", "previous", "last", "prior", "shift", "shifted",
               "rolling", "hist", "history", "historical", "past", "yesterday", "before", "pre",
               "lastyear", "lastmonth", "ma", "ewm", "avg7", "baseline", "t1", "tminus1"}
# name tokens of a quantity measured before the outcome it partly makes up (presales of the
# tickets sold, a pre-order count, a baseline or intake reading)
_BEFORE_TOKENS = {"pre", "before", "prior", "baseline", "advance", "early", "initial", "intake",
                  "enrolment", "enrollment", "screening", "preseason", "pretest", "preop"}
_BEFORE_WORD = re.compile(r"^pre(sold|sale|sales|order|orders|ordered|book|booked|booking|"
                          r"bookings|registered|registration|registrations|season|test|op)$")
_GENERIC_TARGETS = {"y", "target", "label", "labels", "class", "outcome", "response"}
_STATSMODELS = {"OLS", "WLS", "GLS", "GLM", "Logit", "Probit", "MNLogit", "Poisson",
                "NegativeBinomial", "QuantReg", "RLM", "GEE", "MixedLM"}
_FORMULA_FUNCS = {"ols", "wls", "gls", "glm", "logit", "probit", "mnlogit", "poisson",
                  "negativebinomial", "quantreg", "rlm", "gee", "mixedlm"}
_REDUCTIONS = {"mean", "std", "var", "min", "max", "median", "quantile", "sum", "count",
               "nunique", "sem", "mode", "prod", "idxmax", "idxmin"}
_COLUMN_PRESERVING = {"StandardScaler", "MinMaxScaler", "RobustScaler", "MaxAbsScaler",
                      "SimpleImputer", "KNNImputer", "IterativeImputer", "QuantileTransformer",
                      "PowerTransformer", "FunctionTransformer", "Normalizer", "Binarizer"}
_NP_REDUCTIONS = {"bincount", "nanmean", "nansum", "nanmedian", "nanstd", "nanvar",
                  "average", "percentile", "nanpercentile"}
_BUILTINS = frozenset(dir(builtins))
_RNG_MAKERS = {"default_rng", "RandomState", "Generator", "SeedSequence", "Random", "PCG64"}
_ROW_WINDOWS = {"rolling", "expanding", "ewm", "cumsum", "cumprod", "cummax", "cummin"}


@dataclass
class _Stmt:
    node: ast.stmt
    in_cell: bool
    pos: int
    in_func: bool = False  # inside a def: only its column definitions are indexed


@dataclass
class ColDef:
    col: str
    frame: str | None
    value: ast.expr
    pos: int
    in_cell: bool
    line: int


@dataclass
class Refs:
    """Columns an expression reads row by row (`row`), through group/whole-column statistics
    only (`agg`), or through a positive shift (`lagged`); plus whether it draws random
    numbers."""

    row: set[str] = field(default_factory=set)
    agg: set[str] = field(default_factory=set)
    lagged: set[str] = field(default_factory=set)
    random: bool = False
    shifted: bool = False


@dataclass
class Target:
    cols: set[str]  # the column(s) y is (direct) or is computed from (derived)
    direct: bool  # y is that column (possibly transformed), not a function of several
    frame: str | None
    deterministic: bool
    array: tuple[str, int] | None = None  # numpy: (array name, column index)
    line: int = 0
    src: str = ""


@dataclass
class Pair:
    x: ast.expr
    y: ast.expr
    line: int
    pos: int
    call: str
    estimator: str | None = None  # the fitted estimator's variable (facts)
    outputs: set[str] = field(default_factory=set)  # train_test_split: the X outputs
    split_only: bool = False  # split here, but no model is fitted on it in this cell


class _Analysis:
    def __init__(self, ev: Evidence):
        self.ev = ev
        self.m = ev.model
        prior, _ = prior_statements(ev)
        cell = self.m.tree.body
        self.stmts: list[_Stmt] = []
        for s in slice_prior(prior, cell, ev.prior_code):
            self._flatten(s, False)
        self.cell_start = len(self.stmts)
        for s in cell:
            self._flatten(s, True)
        self.coldefs: dict[str, list[ColDef]] = {}
        self.assigns: dict[str, list[tuple[int, ast.AST, ast.stmt]]] = {}
        self.removals: list[tuple[int, str, set[str]]] = []  # (pos, frame, cols)
        self._lambda_frames: list[str] = []
        # columns a sibling in the same DataFrame({...}) dict reads through the variable both
        # are built from: {"y": y.round(1), "y_per_km": y / 42.195} -> id(value) -> {"y"}
        self._dict_rows: dict[int, set[str]] = {}
        # records appended to / comprehended into a list, by the list's name
        self._records: dict[str, list[ast.Dict]] = {}
        self._coldef_frames: set[str | None] | None = None  # set once the index is built
        self._index()
        self._coldef_frames = {d.frame for defs in self.coldefs.values() for d in defs}

    def _flatten(self, s: ast.stmt, in_cell: bool, in_func: bool = False) -> None:
        self.stmts.append(_Stmt(s, in_cell, len(self.stmts), in_func))
        if isinstance(s, ast.For | ast.AsyncFor | ast.While | ast.If | ast.With | ast.AsyncWith):
            for b in (s.body, getattr(s, "orelse", [])):
                for c in b:
                    self._flatten(c, in_cell, in_func)
        elif isinstance(s, ast.Try):
            for b in (s.body, *[h.body for h in s.handlers], s.orelse, s.finalbody):
                for c in b:
                    self._flatten(c, in_cell, in_func)
        elif isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            # a helper that adds columns (`df.pipe(add_features)`): its column definitions
            for c in s.body:
                self._flatten(c, in_cell, True)

    def _index(self) -> None:
        for st in self.stmts:
            s = st.node
            if isinstance(s, ast.Assign | ast.AnnAssign):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                value = s.value
                if value is None:
                    continue
                for t in targets:
                    if isinstance(t, ast.Name):
                        if not st.in_func:
                            self.assigns.setdefault(t.id, []).append((st.pos, value, s))
                        # df = df.assign(c=...), X = pd.DataFrame({"c": ...})
                        for call in _calls(value):
                            fname = call.func.attr if isinstance(call.func, ast.Attribute) \
                                else call.func.id if isinstance(call.func, ast.Name) else ""
                            if fname == "assign":
                                for k in call.keywords:
                                    if k.arg:
                                        self.coldefs.setdefault(k.arg, []).append(ColDef(
                                            k.arg, t.id, k.value, st.pos, st.in_cell,
                                            k.value.lineno))
                            elif fname in ("DataFrame", "from_records") and call.args:
                                for d in self._frame_dicts(call.args[0]):
                                    self._dict_aliases(d, st.pos)
                                    for k, v in zip(d.keys, d.values, strict=True):
                                        if isinstance(k, ast.Constant) and \
                                                isinstance(k.value, str):
                                            self.coldefs.setdefault(k.value, []).append(
                                                ColDef(k.value, t.id, v, st.pos, st.in_cell,
                                                       v.lineno))
                        if isinstance(value, ast.ListComp) and isinstance(value.elt, ast.Dict) \
                                and not st.in_func:
                            # rows = [{"yield": y, "uptake": y * n_pct} for …]: one record a row
                            self._records[t.id] = [value.elt]
                    elif isinstance(t, ast.Tuple | ast.List) and not st.in_func:
                        for i, e in enumerate(t.elts):
                            if isinstance(e, ast.Name):
                                self.assigns.setdefault(e.id, []).append(
                                    (st.pos, _Elt(value, i, len(t.elts)), s))
                    elif isinstance(t, ast.Subscript):
                        frame = root_name(t)
                        sl = t.slice
                        if isinstance(sl, ast.Tuple) and len(sl.elts) == 2:
                            sl = sl.elts[1]
                        cols = self._strs(sl, st.pos)
                        for c in cols or []:
                            self.coldefs.setdefault(c, []).append(
                                ColDef(c, frame, value, st.pos, st.in_cell, s.lineno))
            elif isinstance(s, ast.Delete) and not st.in_func:
                for t in s.targets:
                    if isinstance(t, ast.Subscript):
                        cols = self._strs(t.slice, st.pos)
                        if cols and root_name(t):
                            self.removals.append((st.pos, root_name(t) or "", set(cols)))
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue  # its body is indexed statement by statement
            for call in _calls(s):
                f = call.func
                if not isinstance(f, ast.Attribute) or not isinstance(f.value, ast.Name):
                    continue
                if st.in_func and f.attr != "insert":
                    continue
                if f.attr == "append" and len(call.args) == 1 and \
                        isinstance(call.args[0], ast.Dict) and isinstance(s, ast.Expr):
                    # rows.append({"yield": y, "uptake": y * n_pct}) in a loop: a record
                    dicts = self._records.setdefault(f.value.id, [])
                    if all(d is not call.args[0] for d in dicts):
                        dicts.append(call.args[0])
                if f.attr == "pop" and call.args:
                    cols = self._strs(call.args[0], st.pos)
                    if cols:
                        self.removals.append((st.pos, f.value.id, set(cols)))
                elif f.attr == "drop" and literal(kwarg(call, "inplace"), False) is True:
                    cols = self._drop_cols(call, st.pos)
                    if cols:
                        self.removals.append((st.pos, f.value.id, set(cols)))
                elif f.attr == "insert" and len(call.args) >= 3:
                    cols = self._strs(call.args[1], st.pos)
                    for c in cols or []:
                        self.coldefs.setdefault(c, []).append(ColDef(
                            c, f.value.id, call.args[2], st.pos, st.in_cell, call.lineno))

    def _frame_dicts(self, arg: ast.expr) -> list[ast.Dict]:
        """The dicts a DataFrame is built from: `{"a": …}` itself, or the records of a list
        (`[{…} for …]`, a list filled with `rows.append({…})`)."""
        if isinstance(arg, ast.Dict):
            return [arg]
        if isinstance(arg, ast.ListComp) and isinstance(arg.elt, ast.Dict):
            return [arg.elt]
        if isinstance(arg, ast.Name):
            return list(self._records.get(arg.id, []))
        return []

    def _dict_aliases(self, d: ast.Dict, pos: int) -> None:
        """In `pd.DataFrame({"finish": finish.round(1), "pace": finish / 42.195 + noise})`
        the column "pace" is computed from the array that *is* the column "finish"; so is
        "band" in `{"finish": finish, "band": band}` when `band = pd.cut(0.6 * finish + …)`
        (the variable a column copies was itself computed from another column's variable)."""
        alias: dict[str, str] = {}
        for k, v in zip(d.keys, d.values, strict=True):
            var = _pass_through_name(v)
            if var and isinstance(k, ast.Constant) and isinstance(k.value, str):
                alias.setdefault(var, k.value)
        if not alias:
            return
        for k, v in zip(d.keys, d.values, strict=True):
            if not isinstance(k, ast.Constant):
                continue
            var = _pass_through_name(v)
            if var is not None:
                if len(alias) < 2 or self._is_frame(var):
                    continue
                a = self.last_assign(var, pos)
                if a is None or not isinstance(a[1], ast.expr) or \
                        isinstance(a[1], ast.Constant) or is_random_call(a[1]):
                    continue  # a draw conditioned on a label is judged as a drawn column
                cols = {c for x, c in alias.items() if x != var and c != k.value and
                        self.reads_var(a[1], x, a[0], 1)}
            else:
                read = {n.id for n in _walk(v) if isinstance(n, ast.Name)}
                cols = {alias[x] for x in read & alias.keys() if alias[x] != k.value}
            if cols:
                self._dict_rows.setdefault(id(v), set()).update(cols)

    # -- lookups --------------------------------------------------------------------------

    def last_assign(self, name: str, pos: int) -> tuple[int, ast.AST, ast.stmt] | None:
        found = None
        for a in self.assigns.get(name, []):
            if a[0] < pos:
                found = a
        return found

    def value_before(self, name: str, pos: int
                     ) -> tuple[ast.AST, int, ast.stmt, bool] | None:
        """What `name` held before `pos`: (value, its pos, its statement, whether it was one
        element of an unpacked split, now the array it was split from); None when unknown."""
        a = self.last_assign(name, pos)
        if a is None:
            return None
        value = a[1]
        if isinstance(value, _Elt):
            value = value.array_for_split()
            if value is None:
                return None
            return value, a[0], a[2], True
        return value, a[0], a[2], False

    def _strs(self, node: ast.AST | None, pos: int) -> list[str] | None:
        strs = const_strs(node)
        if strs is not None:
            return strs
        if isinstance(node, ast.Name):
            a = self.last_assign(node.id, pos + 1)
            if a is not None and isinstance(a[1], ast.expr):
                return const_strs(a[1]) if not isinstance(a[1], ast.Name) else None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            # a config dict's entry: CFG["target"] with CFG = {"target": "churned", ...} or
            # dict(target="churned", ...)
            a = self.last_assign(node.value.id, pos + 1)
            d = a[1] if a is not None else None
            if isinstance(d, ast.Dict):
                for k, v in zip(d.keys, d.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == node.slice.value:
                        return const_strs(v)
            elif isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and \
                    d.func.id == "dict" and not d.args:
                v = kwarg(d, node.slice.value)
                return const_strs(v) if v is not None else None
        return None

    def _drop_cols(self, call: ast.Call, pos: int) -> list[str] | None:
        cols = kwarg(call, "columns")
        if cols is None:
            cols = kwarg(call, "labels")
            if cols is None and call.args:
                axis = kwarg(call, "axis")
                if axis is None and len(call.args) > 1:
                    axis = call.args[1]
                if literal(axis) not in (1, "columns"):
                    return None
                cols = call.args[0]
        if cols is None:
            return None
        strs = self._strs(cols, pos)
        if strs is None and isinstance(cols, ast.List):
            out = []
            for e in cols.elts:
                s = self._strs(e, pos)
                if s is None:
                    return None
                out += s
            return out
        return strs

    def frame_facts(self, name: str | None) -> list[str] | None:
        facts = self.ev.objects.get(name or "")
        if facts is None or facts.kind != "dataframe" or not facts.dtypes:
            return None
        return list(facts.dtypes)

    def frame_dtypes(self, name: str | None) -> dict[str, str]:
        facts = self.ev.objects.get(name or "")
        return facts.dtypes if facts is not None and facts.kind == "dataframe" else {}

    def reassigned_after(self, name: str, pos: int) -> bool:
        return any(p > pos for p, _, _ in self.assigns.get(name, []))

    # -- column references ------------------------------------------------------------------

    def refs(self, node: ast.AST, pos: int, depth: int = 0) -> Refs:
        out = Refs()
        self._refs(node, pos, out, agg=False, lagged=False, depth=depth)
        # a draw anywhere in what it reads: `play = skill + rng.normal(…)`, `y = play > 0`
        out.random = out.random or is_random_call(node)
        return out

    def _refs(self, node: ast.AST, pos: int, out: Refs, agg: bool, lagged: bool,
              depth: int) -> None:
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                meth = f.attr
                chain = chain_methods(f.value)
                if meth in ("transform", "agg", "aggregate", "apply") and \
                        "groupby" not in chain and isinstance(f.value, ast.Name):
                    # grp = df.groupby("g")["y"]; grp.transform("sum"): a group statistic
                    g = self.last_assign(f.value.id, pos)
                    if g is not None and isinstance(g[1], ast.expr):
                        chain = chain | chain_methods(g[1])
                r_agg, r_lag = agg, lagged
                if meth == "shift":
                    k = literal(node.args[0], None) if node.args else \
                        literal(kwarg(node, "periods"), 1)
                    if isinstance(k, int) and k > 0:
                        r_lag = True
                    out.shifted = True
                elif meth in _REDUCTIONS | {"transform", "agg", "aggregate", "apply"} and \
                        not (chain & _ROW_WINDOWS) and not _row_wise(node) and (
                        "groupby" in chain or meth in _REDUCTIONS):
                    if not (meth in ("transform", "apply") and "groupby" not in chain):
                        r_agg = True
                elif meth == "groupby":
                    r_agg = True
                self._refs(f.value, pos, out, r_agg, r_lag, depth)
                args = [*node.args, *(k.value for k in node.keywords)]
                if self._module_reduction(node) or self._encoder_fit(node):
                    # np.bincount(codes, weights=df.y), np.mean(df.y): one value per group
                    # or per array; TargetEncoder().fit_transform(X, df.y): learnt from the
                    # target (cross-fitted), not a copy of each row's value
                    lead = node.args[:1] if self._encoder_fit(node) else []
                    for a in lead:
                        self._refs(a, pos, out, agg, lagged, depth)
                    for a in args[len(lead):]:
                        self._refs(a, pos, out, True, lagged, depth)
                    return
                for a in args:
                    # a lambda given to a group aggregation sees one group at a time
                    self._refs(a, pos, out, r_agg if isinstance(a, ast.Lambda) else agg,
                               lagged, depth)
                return
            for a in [*node.args, *(k.value for k in node.keywords)]:
                self._refs(a, pos, out, agg, lagged, depth)
            return
        if isinstance(node, ast.Subscript):
            sl = node.slice
            col_sl = sl.elts[1] if isinstance(sl, ast.Tuple) and len(sl.elts) == 2 else sl
            strs = const_strs(col_sl)
            if strs is None and isinstance(col_sl, ast.Name):
                strs = self._strs(col_sl, pos)
                if strs is not None and len(strs) != 1:
                    strs = None
            if strs is not None and len(strs) == 1 and root_name(node.value):
                grouped = self._group_summary(node.value, pos, depth)
                if grouped is not None:
                    # s = df.groupby(g)[y].agg(["sum", "count"]); s["sum"]: a statistic per
                    # group of y, not a column of rows
                    for c in grouped:
                        self._add(out, c, True, lagged)
                    return
                self._add(out, strs[0], agg, lagged)
                self._refs(node.value, pos, out, agg, lagged, depth)
                return
            if isinstance(col_sl, ast.List) and strs and root_name(node.value):
                for c in strs:  # df[["a", "b"]].sum(axis=1)
                    self._add(out, c, agg, lagged)
                self._refs(node.value, pos, out, agg, lagged, depth)
                return
            self._refs(node.value, pos, out, agg, lagged, depth)
            self._refs(sl, pos, out, agg, lagged, depth)
            return
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and self._is_frame(node.value.id) and \
                    node.attr not in NON_COLUMN_ATTRS and not node.attr.startswith("_"):
                grouped = self._group_summary(node.value, pos, depth)
                for c in grouped or ():
                    self._add(out, c, True, lagged)
                if grouped is None:
                    self._add(out, node.attr, agg, lagged)
                return
            self._refs(node.value, pos, out, agg, lagged, depth)
            return
        if isinstance(node, ast.Name):
            if depth < 3 and not self._is_frame(node.id):
                a = self.last_assign(node.id, pos)
                if a is not None and isinstance(a[1], _Elt):
                    # s_sum, s_n = grp.transform("sum"), grp.transform("count")
                    v = a[1].value
                    a = (a[0], v.elts[a[1].i], a[2]) if isinstance(v, ast.Tuple | ast.List) \
                        and len(v.elts) == a[1].n else None
                if a is not None and isinstance(a[1], ast.expr):
                    sub = self.refs(a[1], a[0], depth + 1)
                    for c in sub.row:
                        self._add(out, c, agg, lagged)
                    for c in sub.agg:
                        self._add(out, c, True, lagged)
                    for c in sub.lagged:
                        self._add(out, c, agg, True)
                    out.shifted |= sub.shifted
                    out.random |= sub.random
            return
        if isinstance(node, ast.Lambda):
            # df.assign(share=lambda d: d.sales / d.total), df.apply(lambda r: …, axis=1):
            # the first parameter is the frame (or row) the lambda is applied to
            params = [a.arg for a in node.args.posonlyargs + node.args.args]
            if params:
                self._lambda_frames.append(params[0])
                try:
                    self._refs(node.body, pos, out, agg, lagged, depth)
                finally:
                    self._lambda_frames.pop()
            return
        for child in ast.iter_child_nodes(node):
            self._refs(child, pos, out, agg, lagged, depth)

    def _group_summary(self, node: ast.AST, pos: int, depth: int) -> set[str] | None:
        """The columns a frame named in the code summarises by group, when it was assigned
        from a group aggregation that reads no column row by row
        (`s = tr.groupby("store")["revenue"].agg(["sum", "count"])`)."""
        if not isinstance(node, ast.Name) or depth >= 3:
            return None
        a = self.last_assign(node.id, pos)
        if a is None or not isinstance(a[1], ast.Call) or \
                "groupby" not in chain_methods(a[1]):
            return None
        sub = self.refs(a[1], a[0], depth + 1)
        named: set[str] = set()
        for c in _calls(a[1]):
            if isinstance(c.func, ast.Attribute) and c.func.attr in ("agg", "aggregate"):
                # .agg(tot=("revenue", "sum")) / .agg({"revenue": ["sum", "count"]})
                for k in c.keywords:
                    if isinstance(k.value, ast.Tuple) and k.value.elts and \
                            isinstance(k.value.elts[0], ast.Constant) and \
                            isinstance(k.value.elts[0].value, str):
                        named.add(k.value.elts[0].value)
                for arg in c.args:
                    if isinstance(arg, ast.Dict):
                        named |= {k.value for k in arg.keys if isinstance(k, ast.Constant)
                                  and isinstance(k.value, str)}
        if sub.row or sub.lagged or not (sub.agg | named):
            return None
        return set(sub.agg) | named

    def _module_reduction(self, call: ast.Call) -> bool:
        """`np.bincount(codes, weights=y)`, `np.mean(y)`, `np.nansum(y)`: a numpy function that
        reduces its argument (not along axis 1, one value per row)."""
        f = call.func
        if not isinstance(f, ast.Attribute) or not isinstance(f.value, ast.Name) or \
                f.attr not in _REDUCTIONS | _NP_REDUCTIONS:
            return False
        if not self.m.aliases.get(f.value.id, "").startswith("numpy"):
            return False
        axis = kwarg(call, "axis")
        if axis is None and len(call.args) > 1 and f.attr != "bincount":
            axis = call.args[1]
        return literal(axis) not in (1, -1, "columns")

    def _encoder_fit(self, call: ast.Call) -> bool:
        """`enc.fit_transform(X, y)` / `enc.fit(X, y)` of a categorical encoder
        (TargetEncoder, a LeaveOneOut/CatBoost/MEstimate encoder): its output is learnt from
        the target, per category."""
        f = call.func
        if not isinstance(f, ast.Attribute) or f.attr not in ("fit", "fit_transform") or \
                len(call.args) + len(call.keywords) < 2:
            return False
        recv = f.value
        while isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute) and \
                recv.func.attr in ("fit", "set_params", "set_output"):
            recv = recv.func.value
        if isinstance(recv, ast.Call):
            name = recv.func.attr if isinstance(recv.func, ast.Attribute) else \
                recv.func.id if isinstance(recv.func, ast.Name) else ""
            return name.endswith("Encoder")
        if isinstance(recv, ast.Name):
            facts = self.ev.objects.get(recv.id)
            if facts is not None and facts.type:
                return facts.type.rsplit(".", 1)[-1].endswith("Encoder")
            a = self.last_assign(recv.id, len(self.stmts) + 1)
            if a is not None and isinstance(a[1], ast.Call):
                fn = a[1].func
                name = fn.attr if isinstance(fn, ast.Attribute) else \
                    fn.id if isinstance(fn, ast.Name) else ""
                return name.endswith("Encoder")
        return False

    @staticmethod
    def _add(out: Refs, col: str, agg: bool, lagged: bool) -> None:
        if lagged:
            out.lagged.add(col)
        elif agg:
            out.agg.add(col)
        else:
            out.row.add(col)

    def _is_frame(self, name: str) -> bool:
        if name in self._lambda_frames:
            return True
        if self.m.is_type(name, "DataFrame"):
            return True
        facts = self.ev.objects.get(name)
        if facts is not None:
            return facts.kind == "dataframe"
        if self._coldef_frames is not None:  # asked tens of times per cell: a set lookup
            return name in self._coldef_frames
        return any(d.frame == name for defs in self.coldefs.values() for d in defs)

    # -- the target -----------------------------------------------------------------------

    def target(self, node: ast.AST, pos: int, depth: int = 0) -> Target | None:
        if depth > 6:
            return None
        if isinstance(node, ast.Name):
            a = self.last_assign(node.id, pos)
            if a is None:
                return None
            value = a[1]
            if isinstance(value, _Elt):
                arr = value.array_for_split()
                return self.target(arr, a[0], depth + 1) if arr is not None else None
            t = self.target(value, a[0], depth + 1)
            if t is not None and not t.line:
                t.line = a[2].lineno
            return t
        if isinstance(node, ast.Subscript):
            sl = node.slice
            # numpy column: data[:, -1]
            if isinstance(sl, ast.Tuple) and len(sl.elts) == 2 and \
                    isinstance(sl.elts[0], ast.Slice) and isinstance(node.value, ast.Name):
                j = literal(sl.elts[1])
                if isinstance(j, int):
                    return Target(set(), True, None, True, array=(node.value.id, j))
                strs = self._strs(sl.elts[1], pos)
                if strs and len(strs) == 1:
                    return Target({strs[0]}, True, root_name(node.value), True)
            strs = self._strs(sl, pos)
            if strs is not None and len(strs) == 1 and root_name(node.value):
                return Target({strs[0]}, True, root_name(node.value), True)
            if self._row_selector(sl, pos):
                # y[is_train], y.loc[df.year < 2023]: a subset of the rows of y; the columns
                # the mask reads pick rows, they are not what y is computed from
                base = node.value
                if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
                    base = base.value
                t = self.target(base, pos, depth + 1)
                if t is not None:
                    return t
        if isinstance(node, ast.Attribute):
            if node.attr in _TARGET_WRAPPERS:
                return self.target(node.value, pos, depth + 1)
            if isinstance(node.value, ast.Name) and self._is_frame(node.value.id) and \
                    node.attr not in NON_COLUMN_ATTRS:
                return Target({node.attr}, True, node.value.id, True)
            if node.attr == "target" and isinstance(node.value, ast.Name):
                return None  # sklearn Bunch
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "pop" and node.args:
                strs = self._strs(node.args[0], pos)
                if strs and len(strs) == 1:
                    return Target({strs[0]}, True, root_name(f.value), True)
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) \
                else ""
            if name in _COMPARE_METHODS and isinstance(f, ast.Attribute):
                # df.pop("status").eq("closed"), df.score.ge(50): a test of one column, like
                # `df.score >= 50`
                t = self.target(f.value, pos, depth + 1)
                if t is not None and t.array is None:
                    return t
            if name in _TARGET_WRAPPERS:
                inner = f.value if isinstance(f, ast.Attribute) and name in (
                    "values", "to_numpy", "astype", "ravel", "reshape", "squeeze", "copy",
                    "fillna", "to_frame", "map", "replace", "flatten", "tolist", "to_list") \
                    else (node.args[0] if node.args else None)
                if inner is not None:
                    t = self.target(inner, pos, depth + 1)
                    if t is not None:
                        return t
        # a function of columns: (df.score >= 50).astype(int), np.where(df.x > 0, 1, 0)
        r = self.refs(node, pos)
        if r.row and not r.agg - r.row:
            frame = root_name(node)
            return Target(set(r.row), len(r.row) == 1 and not r.shifted, frame,
                          not r.random and not r.shifted)
        return None

    def _row_selector(self, sl: ast.AST, pos: int) -> bool:
        """A boolean row mask or a row slice, written inline or held by a variable."""
        if isinstance(sl, ast.Slice):
            return True
        if isinstance(sl, ast.Name):
            a = self.last_assign(sl.id, pos)
            return a is not None and isinstance(a[1], ast.expr) and _row_mask(a[1])
        return _row_mask(sl)

    def ancestors(self, col: str, pos: int) -> tuple[set[str], bool, int] | None:
        """Columns the target column was computed from (row-wise), if it was computed in the
        analysed code: (columns, deterministic, line)."""
        defs = [d for d in self.coldefs.get(col, []) if d.pos < pos]
        for d in reversed(defs):
            r = self.refs(d.value, d.pos)
            srcs = r.row - {col}
            if col in r.row:  # df[t] = df[t].astype(int): keep looking further back
                continue
            if not srcs:
                return None
            return srcs, not r.random and not r.shifted and not r.lagged, d.line
        return None

    def derived_from(self, targets: set[str], pos: int) -> dict[str, tuple[str, int, bool,
                                                                           bool]]:
        """Columns computed row by row from the target (transitively): col -> (source col,
        line, in_cell, random)."""
        out: dict[str, tuple[str, int, bool, bool]] = {}
        tainted = set(targets)
        for col, defs in sorted(self.coldefs.items(), key=lambda kv: min(d.pos for d in kv[1])):
            if col in targets:
                continue
            for d in defs:
                if d.pos >= pos:
                    continue
                r = self.refs(d.value, d.pos)
                hit = (r.row | self._dict_rows.get(id(d.value), set())) & tainted
                if hit and not r.lagged & tainted and \
                        not self._encoding_fit_apart(col, d, r, tainted, pos):
                    out[col] = (sorted(hit)[0], d.line, d.in_cell, r.random)
                    tainted.add(col)
                    break
        # second pass for definitions out of name order
        changed = True
        while changed:
            changed = False
            for col, defs in self.coldefs.items():
                if col in tainted or col in targets:
                    continue
                for d in defs:
                    if d.pos < pos:
                        r = self.refs(d.value, d.pos)
                        hit = (r.row | self._dict_rows.get(id(d.value), set())) & tainted
                        if hit and not self._encoding_fit_apart(col, d, r, tainted, pos):
                            out[col] = (sorted(hit)[0], d.line, d.in_cell, r.random)
                            tainted.add(col)
                            changed = True
                            break
        return out

    def _encoding_fit_apart(self, col: str, d: ColDef, r: Refs, tainted: set[str],
                            pos: int) -> bool:
        """A target encoding learnt on one part of the rows and mapped onto another: `col`
        is defined on frame A from group statistics of the target (a leave-one-out or
        out-of-fold encoding also reads each row's own target, to take it out) and on another
        frame B from those statistics alone (`test["enc"] = test.g.map(means)`). The rows of
        B - the held-out part - never see their own target, so their score is honest; the
        definition on A is the standard way to fit the encoding, not a copy of the label."""
        if not (r.agg & tainted) or not d.frame:
            return False
        for other in self.coldefs.get(col, []):
            if other is d or other.pos >= pos or not other.frame or other.frame == d.frame:
                continue
            o = self.refs(other.value, other.pos)
            if o.agg & tainted and not (o.row | self._dict_rows.get(id(other.value), set())
                                        ) & tainted:
                return True
        return False

    def _read_vars(self, node: ast.AST) -> set[str]:
        """Variables an expression reads as values (not the `np` / `rng` a call goes
        through, not DataFrames)."""
        funcs = {id(c.func) for c in _calls(node)}  # f(x): f is called, not read
        out = set()
        for n in _walk(node):
            if not isinstance(n, ast.Name) or id(n) in funcs or isinstance(n.ctx, ast.Store) \
                    or n.id in _BUILTINS or n.id in self.m.aliases:
                continue
            facts = self.ev.objects.get(n.id)
            if facts is not None and facts.kind in ("module", "callable", "class"):
                continue
            a = self.last_assign(n.id, len(self.stmts) + 1)
            if a is not None and isinstance(a[1], ast.Call) and chain_methods(a[1]) & _RNG_MAKERS:
                continue  # rng = np.random.default_rng(…): draws, not data
            out.add(n.id)
        return out

    def latent_source(self, col: str, pos: int) -> tuple[str, int] | None:
        """The variable the target column is a deterministic function of, and of nothing
        else (`games["win"] = (play > 0.45).astype(int)`, `play = skill + rng.normal(…)`):
        (variable, line). Like a source column, it is the outcome's continuous version."""
        defs = [d for d in self.coldefs.get(col, []) if d.pos < pos]
        if not defs:
            return None
        d = defs[-1]
        value, vpos = d.value, d.pos
        for _ in range(2):
            if is_random_call(value) or isinstance(value, ast.Lambda):
                return None
            read = self._read_vars(value)
            if len(read) != 1:
                return None
            (v,) = tuple(read)
            if self._is_frame(v):
                return None
            a = self.last_assign(v, vpos)
            if a is None or not isinstance(a[1], ast.expr) or isinstance(
                    a[1], ast.Constant | ast.UnaryOp | ast.Lambda):
                return None
            if _pass_through_name(value) == v:
                # games["win"] = win; win = play > 0.45: look at what `win` is a function of
                # (a copy of a drawn label is the label itself, not its continuous version)
                value, vpos = a[1], a[0]
                continue
            return v, d.line
        return None

    def outcome_latent(self, col: str, pos: int) -> tuple[str, int] | None:
        """The outcome's own structural equation behind a target computed from columns
        (`turnout = (4 + 0.3 * x + … + rng.normal(0, 4.5, n))`, `df["votes"] = df.n * turnout`,
        `df["turnout_pct"] = df.votes / df.n`): the one variable, read by the target or by the
        columns it is computed from, that combines other inputs with a random draw - the
        outcome's error term. A feature drawn from it carries that error. (variable, line)."""
        defs = [d for d in self.coldefs.get(col, []) if d.pos < pos]
        if not defs:
            return None
        d = defs[-1]
        if is_random_call(d.value) or _pass_through_name(d.value) is not None:
            return None  # a copy of a drawn label is the label itself (latent_source)
        src_cols = self.refs(d.value, d.pos).row - {col}
        if not src_cols:
            return None  # `y = drawn.astype(int)`: a drawn label, not a computed outcome
        nodes = [(d.value, d.pos)]
        for c in src_cols:
            cd = [x for x in self.coldefs.get(c, []) if x.pos < d.pos]
            if cd:
                nodes.append((cd[-1].value, cd[-1].pos))
        found: set[str] = set()
        for node, npos in nodes:
            for v in self._read_vars(node):
                if self._is_frame(v):
                    continue
                a = self.last_assign(v, npos)
                if a is None or not isinstance(a[1], ast.expr) or not is_random_call(a[1]):
                    continue
                inputs = set()
                for x in self._read_vars(a[1]) - {v}:
                    xa = self.last_assign(x, a[0])
                    if xa is not None and not isinstance(xa[1], ast.Constant):
                        inputs.add(x)  # not `n = 600`: a size, not an input of the outcome
                if inputs or self.refs(a[1], a[0]).row:
                    found.add(v)
        if len(found) != 1:
            return None
        return next(iter(found)), d.line

    def copied_var(self, col: str, pos: int) -> str | None:
        """The variable column `col` is a copy of (`df["ln_ic50"] = ln_ic50.round(3)`,
        `pd.DataFrame({"won": won})`), when that variable is assigned in the code."""
        defs = [d for d in self.coldefs.get(col, []) if d.pos < pos]
        if not defs:
            return None
        d = defs[-1]
        v = _pass_through_name(d.value)
        if v is None or self._is_frame(v) or self.reassigned_after(v, d.pos):
            return None
        a = self.last_assign(v, d.pos)
        if a is None or not isinstance(a[1], ast.expr) or isinstance(a[1], ast.Constant):
            return None
        return v

    def reads_var(self, node: ast.AST, var: str, pos: int, depth: int = 0) -> bool:
        """Whether an expression reads `var`, directly or through variables assigned from
        it."""
        for v in self._read_vars(node):
            if v == var:
                return True
            if depth < 2 and not self._is_frame(v):
                a = self.last_assign(v, pos)
                if a is not None and isinstance(a[1], ast.expr) and \
                        self.reads_var(a[1], var, a[0], depth + 1):
                    return True
        return False

    # -- feature containment -----------------------------------------------------------------

    def contains(self, node: ast.AST, col: str, pos: int, frame_hint: str | None,
                 depth: int = 0) -> tuple[bool | None, str]:
        """Whether the feature expression holds column `col`: (answer, how we know)."""
        if depth > 8:
            return None, ""
        if isinstance(node, ast.Name):
            a = self.last_assign(node.id, pos)
            facts = self.frame_facts(node.id)
            if facts is not None and not self.reassigned_after(node.id, pos) and \
                    self.ev.objects[node.id].shape and \
                    len(facts) == self.ev.objects[node.id].shape[1]:
                return col in facts, f"kernel: `{node.id}` columns"
            if a is None:
                if facts is not None and (col in facts or len(facts) < 60):
                    return col in facts, f"kernel: `{node.id}` columns"
                if node.id == frame_hint:
                    return self._after_removals(True, node.id, col, -1, pos)
                return None, ""
            value = a[1]
            if isinstance(value, _Elt):
                arr = value.array_for_split()
                if arr is None:
                    return None, ""
                return self.contains(arr, col, a[0], frame_hint, depth + 1)
            added = any(d.frame == node.id and a[0] < d.pos < pos
                        for d in self.coldefs.get(col, []))
            if added:
                return True, "code"
            ans, how = self.contains(value, col, a[0], frame_hint, depth + 1)
            if ans is None and node.id == frame_hint:
                ans, how = True, "code"
            return self._after_removals(ans, node.id, col, a[0], pos, how)
        if isinstance(node, ast.Subscript):
            sl = node.slice
            base = node.value
            if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
                kind = base.attr
                base = base.value
                if isinstance(sl, ast.Tuple) and len(sl.elts) == 2:
                    col_sl = sl.elts[1]
                    if kind == "loc":
                        strs = self._strs(col_sl, pos)
                        if strs is not None:
                            return col in strs, "code"
                        if isinstance(col_sl, ast.Slice) and col_sl.lower is None and \
                                col_sl.upper is None:
                            return self.contains(base, col, pos, frame_hint, depth + 1)
                        return None, ""
                    return self._iloc(base, col_sl, col, pos, frame_hint, depth)
                return self.contains(base, col, pos, frame_hint, depth + 1)
            strs = self._strs(sl, pos)
            if strs is not None:
                return col in strs, "code"
            if isinstance(sl, ast.Name):
                a = self.last_assign(sl.id, pos)
                if a is not None and isinstance(a[1], ast.ListComp | ast.Call) and \
                        self.stmts[a[0]].in_cell:
                    # [c for c in df.columns if c.startswith(("usage_", "bill_"))]: the
                    # columns it keeps, from the frame's columns in the kernel
                    exact = _columns.columns(self.ev, a[1])
                    if exact is not None and exact[0] is not None:
                        added = _appended_strings(self.m, sl.id)
                        if added is not None:
                            return col in exact[1] or col in added, "kernel: column names"
                if a is not None and isinstance(a[1], ast.expr):
                    excl = _excludes(a[1], col)
                    if excl is not None:
                        return (not excl, "code") if excl else \
                            self.contains(base, col, pos, frame_hint, depth + 1)
                    if _row_mask(a[1]):  # `keep = df.year < 2020`; df[keep]
                        return self.contains(base, col, pos, frame_hint, depth + 1)
                return None, ""
            if isinstance(sl, ast.ListComp | ast.Call | ast.Attribute):
                excl = _excludes(sl, col)
                if excl is True:
                    return False, "code"
                if excl is False:
                    return self.contains(base, col, pos, frame_hint, depth + 1)
                return None, ""
            if isinstance(sl, ast.Tuple) and len(sl.elts) == 2 and \
                    isinstance(sl.elts[0], ast.Slice):
                return None, ""  # numpy 2-D: handled by the array path
            if isinstance(sl, ast.BinOp) and isinstance(sl.op, ast.Add):  # cols + ["y"]
                parts = [self._strs(sl.left, pos), self._strs(sl.right, pos)]
                if any(p is not None and col in p for p in parts):
                    return True, "code"
                return (False, "code") if all(p is not None for p in parts) else (None, "")
            if isinstance(sl, ast.Compare | ast.BoolOp | ast.UnaryOp | ast.Slice) or (
                    isinstance(sl, ast.BinOp) and isinstance(sl.op, ast.BitAnd | ast.BitOr)):
                # a row mask or slice keeps every column
                return self.contains(base, col, pos, frame_hint, depth + 1)
            return None, ""
        if isinstance(node, ast.Attribute):
            if node.attr in ("values", "T", "array"):
                return self.contains(node.value, col, pos, frame_hint, depth + 1)
            return None, ""
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                meth = f.attr
                if meth == "drop":
                    dropped = self._drop_cols(node, pos)
                    if dropped is None:
                        if kwarg(node, "columns") is None and kwarg(node, "labels") is None and \
                                literal(kwarg(node, "axis"), 0) in (0, "index") and \
                                (len(node.args) < 2):
                            return self.contains(f.value, col, pos, frame_hint, depth + 1)
                        return None, ""
                    if col in dropped:
                        return False, "code"
                    return self.contains(f.value, col, pos, frame_hint, depth + 1)
                if meth == "select_dtypes":
                    ans, how = self.contains(f.value, col, pos, frame_hint, depth + 1)
                    if ans is False:
                        return False, how
                    kind = self._dtype_of(col, f.value)
                    if kind is None:
                        return None, ""
                    inc = kwarg(node, "include") or (node.args[0] if node.args else None)
                    exc = kwarg(node, "exclude")
                    keep = _dtype_selected(kind, literal(inc), literal(exc))
                    if keep is None:
                        return None, ""
                    return (keep and ans is not False) if keep else False, \
                        "kernel: column dtypes" if ans else "code"
                if meth == "assign":
                    if any(k.arg == col for k in node.keywords):
                        return True, "code"
                    return self.contains(f.value, col, pos, frame_hint, depth + 1)
                if meth == "filter":
                    items = kwarg(node, "items") or (node.args[0] if node.args else None)
                    strs = self._strs(items, pos) if items is not None else None
                    if strs is not None:
                        return col in strs, "code"
                    return None, ""
                if meth in _PASS_METHODS:
                    target = f.value
                    if meth in ("fit_transform", "transform"):
                        if not node.args or not self._preserves_columns(f.value):
                            return None, ""
                        target = node.args[0]
                    elif meth in ("pipe", "apply", "where", "mask") and not isinstance(
                            f.value, ast.Name | ast.Subscript | ast.Call):
                        return None, ""
                    return self.contains(target, col, pos, frame_hint, depth + 1)
                if meth in ("concat", "hstack", "column_stack", "get_dummies", "DataFrame"):
                    return self._any_of(node, col, pos, frame_hint, depth)
                if meth == "add_constant" and node.args:  # sm.add_constant(X): X plus 1s
                    return self.contains(node.args[0], col, pos, frame_hint, depth + 1)
            elif isinstance(f, ast.Name) and f.id in ("concat", "get_dummies", "hstack",
                                                      "column_stack", "DataFrame"):
                return self._any_of(node, col, pos, frame_hint, depth)
            elif isinstance(f, ast.Name):
                inlined = self._inline(node, f.id)
                if inlined is not None:  # design(frame): the helper's returned expression
                    return self.contains(inlined, col, pos, frame_hint, depth + 1)
        return None, ""

    def _inline(self, call: ast.Call, fname: str) -> ast.expr | None:
        """The return expression of a one-statement helper `def f(frame): return expr`,
        with its parameters replaced by the call's arguments."""
        fn = next((st.node for st in self.stmts if isinstance(st.node, ast.FunctionDef)
                   and st.node.name == fname), None)
        if fn is None or len(fn.body) != 1 or not isinstance(fn.body[0], ast.Return) or \
                fn.body[0].value is None or call.keywords:
            return None
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        if len(call.args) > len(params) or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        bound = dict(zip(params, call.args, strict=False))

        class _Sub(ast.NodeTransformer):
            def visit_Name(self, n: ast.Name) -> ast.AST:
                return bound.get(n.id, n)

        return _Sub().visit(copy.deepcopy(fn.body[0].value))

    def _preserves_columns(self, recv: ast.expr) -> bool:
        """A transformer whose output keeps one column per input column."""
        if isinstance(recv, ast.Name):
            cls = self.m.type_of(recv.id)
        elif isinstance(recv, ast.Call):
            cls = self.m.dotted(recv.func) or (recv.func.id if isinstance(recv.func, ast.Name)
                                               else None)
        else:
            cls = None
        return bool(cls) and cls.rsplit(".", 1)[-1] in _COLUMN_PRESERVING  # type: ignore

    def _any_of(self, node: ast.Call, col: str, pos: int, frame_hint: str | None,
                depth: int) -> tuple[bool | None, str]:
        first = node.args[0] if node.args else kwarg(node, "data")
        if first is None:
            return None, ""
        parts = first.elts if isinstance(first, ast.List | ast.Tuple) else \
            [v for v in first.values if v is not None] if isinstance(first, ast.Dict) else [first]
        unknown = False
        for p in parts:
            ans, how = self.contains(p, col, pos, frame_hint, depth + 1)
            if ans is None and isinstance(p, ast.Attribute | ast.BinOp | ast.UnaryOp | ast.Call
                                          | ast.Subscript):
                # a column or an expression of columns stacked into the features
                r = self.refs(p, pos)
                if r.row and not r.random:
                    ans, how = (col in r.row and col not in r.lagged), "code"
            if ans:
                return True, how
            if ans is None:
                unknown = True
        return (None, "") if unknown else (False, "code")

    def _after_removals(self, ans: bool | None, frame: str, col: str, start: int, end: int,
                        how: str = "code") -> tuple[bool | None, str]:
        if ans:
            for p, fr, cols in self.removals:
                if fr == frame and start <= p < end and col in cols:
                    return False, "code"
        return ans, how

    def _iloc(self, base: ast.expr, col_sl: ast.expr, col: str, pos: int,
              frame_hint: str | None, depth: int) -> tuple[bool | None, str]:
        names = self.frame_facts(root_name(base)) if isinstance(base, ast.Name) else None
        if names is None or col not in names:
            return None, ""
        idx = names.index(col)
        n = len(names)
        if isinstance(col_sl, ast.Slice):
            lo, hi, st = (literal(col_sl.lower), literal(col_sl.upper), literal(col_sl.step))
            if any(v is not None and not isinstance(v, int) for v in (lo, hi, st)):
                return None, ""
            return idx in range(n)[slice(lo, hi, st)], "kernel: column order"
        v = literal(col_sl)
        if isinstance(v, int):
            return range(n)[v] == idx, "kernel: column order"
        if isinstance(v, list) and all(isinstance(i, int) for i in v):
            return idx in {range(n)[i] for i in v}, "kernel: column order"
        return None, ""

    def _dtype_of(self, col: str, frame_node: ast.AST) -> str | None:
        r = root_name(frame_node)
        for name in (r, *self.ev.objects):
            dt = self.frame_dtypes(name).get(col)
            if dt:
                return dt
        return None

    # -- pairs -------------------------------------------------------------------------------

    def pairs(self) -> list[Pair]:
        out: list[Pair] = []
        pos_of_line: dict[int, int] = {}
        for st in self.stmts[self.cell_start:]:
            for ln in range(st.node.lineno, (st.node.end_lineno or st.node.lineno) + 1):
                pos_of_line.setdefault(ln, st.pos)
        for c in self.m.calls:
            pos = pos_of_line.get(c.line, len(self.stmts)) + 1
            last = c.last
            node = c.node
            if last == "train_test_split":
                arrays = [a for a in node.args if not isinstance(a, ast.Starred)]
                if len(arrays) >= 2:
                    p = Pair(arrays[0], arrays[1], c.line, pos, "train_test_split")
                    p.outputs = set(c.targets[0::2][:2]) if len(c.targets) >= 4 else set()
                    out.append(p)
            elif last in CV_FUNCS:
                x = kwarg(node, "X") or (node.args[1] if len(node.args) > 1 else None)
                y = kwarg(node, "y") or (node.args[2] if len(node.args) > 2 else None)
                if x is not None and y is not None:
                    out.append(Pair(x, y, c.line, pos, last))
            elif c.method in ("fit", "fit_transform", "partial_fit"):
                x = kwarg(node, "X") or (node.args[0] if node.args else None)
                y = kwarg(node, "y") or (node.args[1] if len(node.args) > 1 else None)
                if x is not None and y is not None:
                    est = None
                    if isinstance(c.receiver, ast.Name):
                        est = c.receiver.id
                    elif len(c.targets) == 1 and isinstance(c.stmt, ast.Assign) and \
                            c.stmt.value is node:
                        est = c.targets[0]
                    out.append(Pair(x, y, c.line, pos, f"{est or _short(c)}.{c.method}", est))
            elif last in _STATSMODELS and c.name and "statsmodels" in c.name:
                y = kwarg(node, "endog") or (node.args[0] if node.args else None)
                x = kwarg(node, "exog") or (node.args[1] if len(node.args) > 1 else None)
                if x is not None and y is not None:
                    out.append(Pair(x, y, c.line, pos, last))
            elif last == "lstsq" and len(node.args) >= 2 and "linalg" in (c.name or "linalg"):
                # np.linalg.lstsq(A, b) / scipy.linalg.lstsq: a least-squares fit of b on A
                out.append(Pair(node.args[0], node.args[1], c.line, pos, "lstsq"))
            elif last in ("DMatrix", "Dataset", "Pool"):
                x = kwarg(node, "data") or (node.args[0] if node.args else None)
                y = kwarg(node, "label") or (node.args[1] if len(node.args) > 1 else None)
                if x is not None and y is not None:
                    out.append(Pair(x, y, c.line, pos, last))
        # a split whose feature outputs feed a fit in this cell is judged at that fit
        fitted = {root_name(p.x) for p in out if p.call != "train_test_split"}
        kept = []
        for p in out:
            if p.call == "train_test_split":
                if p.outputs & fitted:
                    continue
                p.split_only = True
            kept.append(p)
        return kept


class _Elt:
    """The i-th of n names a tuple assignment binds from `value`."""

    def __init__(self, value: ast.AST, i: int, n: int):
        self.value, self.i, self.n = value, i, n
        self.lineno = getattr(value, "lineno", 0)

    def array_for_split(self) -> ast.expr | None:
        v = self.value
        if isinstance(v, ast.Call):
            f = v.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) \
                else ""
            if name == "train_test_split":
                arrays = [a for a in v.args if not isinstance(a, ast.Starred)]
                k = self.i // 2
                return arrays[k] if k < len(arrays) else None
        if isinstance(v, ast.Tuple | ast.List) and len(v.elts) == self.n:
            return v.elts[self.i]
        return None


def _short(c) -> str:  # type: ignore[no-untyped-def]
    if isinstance(c.receiver, ast.Name):
        return c.receiver.id
    if c.receiver_type:
        return c.receiver_type.rsplit(".", 1)[-1]
    return "model"


def _calls(node: ast.AST) -> Iterator[ast.Call]:
    for n in _walk(node):
        if isinstance(n, ast.Call):
            yield n


def _computed(r: Refs) -> bool:
    """Computed from columns (row by row, by group, or lagged), not raw data."""
    return bool(r.row or r.agg or r.lagged)


def _row_wise(call: ast.Call) -> bool:
    """`df[cols].sum(axis=1)`, `.apply(f, axis="columns")`: one value per row."""
    axis = kwarg(call, "axis")
    if axis is None and call.args and isinstance(call.func, ast.Attribute) and \
            call.func.attr in _REDUCTIONS:
        axis = call.args[0]
    return literal(axis) in (1, "columns")


def _pass_through_name(v: ast.AST) -> str | None:
    """`x`, `x.round(1)`, `x.astype(int)`, `np.round(x, 2)`: the variable `x`, else None."""
    while isinstance(v, ast.Call):
        f = v.func
        if isinstance(f, ast.Name) and f.id in ("round", "float") and v.args:
            v = v.args[0]  # round(x, 2), float(x)
            continue
        if not isinstance(f, ast.Attribute):
            return None
        if isinstance(f.value, ast.Name) and f.value.id in ("np", "numpy"):
            if f.attr not in ("round", "around", "asarray", "array") or not v.args:
                return None
            v = v.args[0]
        elif f.attr in ("round", "astype", "copy", "to_numpy", "ravel", "squeeze"):
            v = f.value
        else:
            return None
    return v.id if isinstance(v, ast.Name) else None


def _row_mask(v: ast.AST) -> bool:
    """A boolean row mask (`np.arange(n) < 400`, `(df.a > 0) & ~df.b`), not a mask over
    `.columns`."""
    if any(isinstance(n, ast.Attribute) and n.attr == "columns" for n in _walk(v)):
        return False
    if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Invert | ast.Not):
        return _row_mask(v.operand)
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.BitAnd | ast.BitOr):
        return _row_mask(v.left) and _row_mask(v.right)
    return isinstance(v, ast.Compare) and not any(
        isinstance(op, ast.In | ast.NotIn) for op in v.ops)


def _all_columns(it: ast.AST) -> bool:
    """`df.columns` or `list(df)` / `df.columns.tolist()`."""
    if isinstance(it, ast.Attribute) and it.attr == "columns":
        return True
    if isinstance(it, ast.Call):
        f = it.func
        if isinstance(f, ast.Name) and f.id == "list" and len(it.args) == 1:
            return isinstance(it.args[0], ast.Name) or _all_columns(it.args[0])
        if isinstance(f, ast.Attribute) and f.attr in ("tolist", "to_list"):
            return _all_columns(f.value)
    return False


def _name_exclusion(cond: ast.AST, var: str) -> bool:
    """`c != "y"` or `c not in ("y", "id")` (constants only) on the loop variable."""
    if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1 and
            isinstance(cond.left, ast.Name) and cond.left.id == var):
        return False
    op, right = cond.ops[0], cond.comparators[0]
    if isinstance(op, ast.NotEq):
        return isinstance(right, ast.Constant) and isinstance(right.value, str)
    if isinstance(op, ast.NotIn):
        return isinstance(right, ast.List | ast.Tuple | ast.Set) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in right.elts)
    return False


def _appended_strings(m, name: str) -> list[str] | None:  # type: ignore[no-untyped-def]
    """Column names added to list `name` in the cell (`cols.append("x")`, `cols +=
    ["y"]`); None when something else is added or removed."""
    out: list[str] = []
    for c in m.calls:
        if c.receiver_root != name or not isinstance(c.receiver, ast.Name):
            continue
        if c.method in ("append", "extend", "insert"):
            arg = c.node.args[-1] if c.node.args else None
            strs = const_strs(arg)
            if strs is None:
                return None
            out += strs
        elif c.method in ("remove", "pop", "clear"):
            return None
    for node in _walk(m.tree):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                node.target.id == name:
            strs = const_strs(node.value)
            if strs is None:
                return None
            out += strs
    return out


def _excludes(node: ast.AST, col: str) -> bool | None:
    """For a column-list expression: True if it visibly excludes `col`
    ([c for c in df.columns if c != col], df.columns.drop(col), …), False if it is "all
    columns" (df.columns, list(df)), None if unknown."""
    if isinstance(node, ast.ListComp):
        for gen in node.generators:
            for cond in gen.ifs:
                for n in _walk(cond):
                    if isinstance(n, ast.Constant) and n.value == col:
                        return True
                    if isinstance(n, ast.List | ast.Tuple) and any(
                            isinstance(e, ast.Constant) and e.value == col for e in n.elts):
                        return True
            if isinstance(gen.iter, ast.Attribute) and gen.iter.attr == "columns" and \
                    not gen.ifs:
                return False
        # [c for c in df.columns if c != "y"] / `if c not in ("y", "id")`: only exclusions
        # by name, none of them `col`, so `col` is kept
        if len(node.generators) == 1 and isinstance(node.elt, ast.Name) and \
                _all_columns(node.generators[0].iter) and \
                all(_name_exclusion(cond, node.elt.id) for cond in node.generators[0].ifs):
            return False
        return None
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in ("drop", "difference"):
            for n in _walk(node):
                if isinstance(n, ast.Constant) and n.value == col:
                    return True
            return None
        if isinstance(f, ast.Name) and f.id == "list" and node.args:
            return _excludes(node.args[0], col)
        if isinstance(f, ast.Attribute) and f.attr in ("tolist", "to_list"):
            return _excludes(f.value, col)
    if isinstance(node, ast.Attribute) and node.attr == "columns":
        return False
    if isinstance(node, ast.Compare):
        for n in _walk(node):
            if isinstance(n, ast.Constant) and n.value == col:
                return True
    return None


def _dtype_selected(kind: str, include: object, exclude: object) -> bool | None:
    numeric = kind.startswith(("int", "float", "uint", "Int", "Float", "bool", "UInt"))

    def matches(spec: object) -> bool | None:
        specs = spec if isinstance(spec, list | tuple) else [spec]
        hit = False
        for s in specs:
            if not isinstance(s, str):
                return None
            s = s.lower()
            if (s in ("number", "numeric") and numeric and not kind.startswith("bool")) or \
                    s == "all" or kind.lower().startswith(s):
                hit = True
        return hit

    if include is not None:
        m = matches(include)
        if m is None:
            return None
        if not m:
            return False
    if exclude is not None:
        m = matches(exclude)
        if m is None:
            return None
        if m:
            return False
    return True


def _similar(feature: str, target: str) -> bool:
    if feature == target or target.lower() in _GENERIC_TARGETS:
        return False
    ft, tt = id_tokens(feature), id_tokens(target)
    if not tt or not ft or set(ft) & _LAG_TOKENS:
        return False
    # lag-like words as whole tokens (sales_lag7, prev_price, y_t1), not inside another word
    # (the `lag` of `Attrition_Flag`)
    if any(re.match(r"(lag|prev|shift)", t) or re.fullmatch(r"[tl]\d+", t) for t in ft):
        return False
    return len(ft) > len(tt) and all(t in ft for t in tt)


# words that mark a column as a model's output for the target it names
# (`Naive_Bayes_Classifier_<target>_1`, `<target>_prob`, `predicted_<target>`)
_PREDICTION_TOKENS = {"pred", "preds", "predicted", "prediction", "predictions", "prob", "proba",
                      "probability", "probabilities", "posterior", "score", "scores", "scored",
                      "classifier", "model", "logit", "propensity", "naive", "bayes", "yhat",
                      "fitted", "estimate", "estimated"}


# name tokens of a quantity only measured at or after the outcome: a length of stay, a
# discharge, a time to the event, a refund, a final/closing value, a resolution, a follow-up
_POST_TOKENS = {"los", "discharge", "discharged", "refund", "refunded", "refunds", "final",
                "outcome", "resolution", "resolved", "closed", "closure", "closing", "post",
                "after", "followup", "settlement", "settled", "payout", "chargeback",
                "chargebacks", "cancellation", "cancelled", "canceled", "exit", "termination",
                "terminated", "death", "died", "postop", "posttreatment", "aftermath"}
_POST_PHRASES = (("length", "of", "stay"), ("days", "to"), ("time", "to"), ("follow", "up"),
                 ("end", "of"), ("total", "follow"))


def _post_outcome_name(name: str) -> str | None:
    """The words of `name` that mark it as measured at or after the outcome, else None."""
    toks = id_tokens(name)
    hit = [t for t in toks if t in _POST_TOKENS]
    for ph in _POST_PHRASES:
        for i in range(len(toks) - len(ph) + 1):
            if toks[i:i + len(ph)] == ph:
                hit.append(" ".join(ph))
    return ", ".join(dict.fromkeys(hit)) or None


# further words of a quantity that only exists once the outcome has happened (a treatment
# started because of it, a contract, a reward or a payment it triggers, a benefit fixed by it),
# used only for a column the code itself draws from the label
_CONSEQUENCE_TOKENS = _POST_TOKENS | {
    "started", "initiated", "initiation", "commenced", "fu", "reward", "rewards", "rewarded",
    "benefit", "benefits", "checkoff", "contract", "contracts", "contracted", "award",
    "awarded", "awards", "paid", "payment", "payments", "prescribed", "dispensed", "admitted",
    "readmitted", "enrolled", "claimed", "granted", "approved", "issued", "filed", "state",
    "status", "disbursed", "redeemed", "converted", "hired", "signed"}
_PRE_TOKENS = {"pre", "before", "prior", "baseline", "lag", "lagged", "prev", "previous",
               "historic", "historical", "screening", "enrolment", "enrollment"}


def _consequence_name(name: str) -> str | None:
    """The words of `name` that mark it as a consequence of the outcome, unless it is named as
    measured before it (pre_/baseline_/prior_)."""
    toks = id_tokens(name)
    if set(toks) & _PRE_TOKENS:
        return None
    hit = [t for t in toks if t in _CONSEQUENCE_TOKENS]
    post = _post_outcome_name(name)
    if post:
        hit += post.split(", ")
    return ", ".join(dict.fromkeys(hit)) or None


def _label_drawn(an: _Analysis, target: str, pos: int) -> dict[str, tuple[str, int, bool, str]]:
    """Columns the code draws from the variable the target column copies (`won` for
    `"union_won": won`; `checkoff = np.where(won == 1, rng.binomial(1, .55, n), 0)`,
    `benefit = pia * factor[claim_age]` with `claim_age = np.where(at62 == 1, 62, ...)`), and
    columns computed from those: col -> (label variable, line, in_cell, seed column)."""
    v = an.copied_var(target, pos)
    if v is None:
        return {}
    seeds: dict[str, tuple[str, int, bool, str]] = {}
    for c, defs in an.coldefs.items():
        if c == target:
            continue
        for d in defs:
            if d.pos < pos and an.reads_var(d.value, v, d.pos, depth=-2):
                seeds[c] = (v, d.line, d.in_cell, c)
                break
    out = dict(seeds)
    for c, (via, line, in_cell, _random) in an.derived_from(set(seeds), pos).items():
        if c != target and c not in out:
            root = via
            while root not in seeds and root in out and out[root][3] != root:
                root = out[root][3]
            out[c] = (v, line, in_cell, root if root in seeds else via)
    return out


def _strongest(ev: Evidence, frame: str | None, target: str) -> dict[str, float]:
    """The few columns that separate the classes of `target` best (`separation_top` of the
    frame's facts, recorded when the best reaches ROC AUC 0.85)."""
    return {c: a for c, a in _frame_param(ev, frame, target, "separation_top").items()
            if isinstance(a, int | float)}


def _any_auc(ev: Evidence, frame: str | None, target: str, col: str) -> float | None:
    for found in (_separating(ev, frame, target), _strongest(ev, frame, target)):
        if isinstance(found.get(col), int | float):
            return float(found[col])
    return None


def _prediction_name(feature: str, target: str) -> bool:
    """`feature` names `target` in full and a model's output word (a previous model's score or
    posterior for the target, kept in the extract)."""
    ft = set(id_tokens(feature))
    return bool(ft & _PREDICTION_TOKENS) and _similar(feature, target)


def _x_columns(an: _Analysis, pair: Pair) -> list[str] | None:
    """Known feature names: a fitted estimator's feature_names_in_, the features' columns."""
    if pair.estimator:
        facts = an.ev.objects.get(pair.estimator)
        if facts is not None and facts.fitted_on.get("feature_names_in_"):
            return list(facts.fitted_on["feature_names_in_"])
    r = pair.x
    if isinstance(r, ast.Name):
        cols = an.frame_facts(r.id)
        if cols is not None:
            return cols
        # no facts for X itself (the kernel's time budget ran out): the columns of the frame
        # it is built from (`X = pd.get_dummies(df)`, `X = df.drop(columns=...)`) that the
        # code keeps in it
        node, pos = r, pair.pos
        for _ in range(4):
            a = an.last_assign(node.id, pos)
            if a is None or not isinstance(a[1], ast.expr):
                break
            value = a[1]
            srcs = [root_name(value)]
            if isinstance(value, ast.Call) and value.args:  # pd.get_dummies(df, ...)
                srcs.append(root_name(value.args[0]))
            src = next((x for x in srcs if x and x != node.id and an.frame_facts(x)),
                       next((x for x in srcs if x and x != node.id and x not in an.m.aliases),
                            None))
            if not src:
                break
            base = an.frame_facts(src)
            if base is not None:
                kept = [c for c in base[:200] if an.contains(r, c, pair.pos, None)[0] is True]
                return kept or None
            node, pos = ast.Name(id=src), a[0]
    if isinstance(r, ast.Subscript):
        strs = an._strs(r.slice, pair.pos)
        if strs is not None and len(strs) > 1:
            return strs
    return None


@dataclass
class _Hit:
    kind: str  # "target" | "source" | "derived" | "named" | "indicator" | "sibling" | "separates"
    col: str
    target: str
    pair: Pair
    how: str
    extra: dict = field(default_factory=dict)


# a column already reported for a stronger reason is not reported again for separating classes
_STRONGER = ("target", "source", "derived", "indicator", "sibling", "separates")


def _frame_param(ev: Evidence, frame: str | None, target: str, key: str) -> dict:
    """`params[key][target]` of the frame's facts (or of the first other frame that has it)."""
    frames = [frame] if frame else []
    frames += [n for n, f in ev.objects.items() if f.kind == "dataframe" and n != frame]
    for name in frames:
        f = ev.objects.get(name or "")
        if f is None or f.kind != "dataframe":
            continue
        found = (f.params or {}).get(key, {})
        if isinstance(found, dict) and isinstance(found.get(target), dict):
            return found[target]
    return {}


def _indicators(ev: Evidence, frame: str | None, target: str) -> dict[str, list]:
    """Columns the kernel found 0/missing for (almost) all rows of one class of `target`
    and set for most rows of the other (`outcome_indicators` of the frame's facts)."""
    return _frame_param(ev, frame, target, "outcome_indicators")


def _separating(ev: Evidence, frame: str | None, target: str) -> dict[str, float]:
    """Numeric columns that alone rank the two classes of `target` almost perfectly: their ROC
    AUC on the kernel's row sample (`class_separation` of the frame's facts)."""
    return {c: a for c, a in _frame_param(ev, frame, target, "class_separation").items()
            if isinstance(a, int | float)}


def _sibling_hits(an: _Analysis, pair: Pair, target: str, source: str, target_line: int,
                  present: list[tuple], n_known: int | None, seen: set, reported: set
                  ) -> list[_Hit]:
    """Hits for features computed from `source`, the column or variable `target` is built
    from; `simulated` when most of the known features are such random draws."""
    out = []
    for c, via, line, in_cell, random, how in present:
        seen.add(("sibling", c))
        reported.add(c)
        simulated = random and n_known is not None and n_known > 1 and \
            len(present) * 2 >= n_known
        out.append(_Hit("sibling", c, target, pair, how,
                        {"source": source, "line": line, "in_cell": in_cell,
                         "random": random, "simulated": simulated,
                         "target_line": target_line, "via": via if via != source else None,
                         "x_line": _x_line(an, pair)}))
    return out


def _dummied(an: _Analysis, frame: str | None, col: str, names: list[str]) -> bool:
    """A text column of `frame` expanded into indicator columns (`pd.get_dummies`:
    `col_level` for its levels) among the fitted feature names."""
    if "get_dummies" not in an.ev.code and "OneHotEncoder" not in an.ev.code:
        return False
    facts = an.ev.objects.get(frame) if frame else None
    levels = (getattr(facts, "levels", None) or {}).get(col) if facts is not None else None
    dtype = an.frame_dtypes(frame).get(col, "") if frame else ""
    if not levels and not (dtype.startswith(("object", "category", "str", "bool"))):
        return False
    want = {f"{col}_{lv}" for lv in levels} if levels else set()
    return any(n in want or (not want and n.startswith(col + "_")) for n in names)


def _analyse(ev: Evidence) -> list[_Hit]:
    cached = ev.__dict__.get("_nbcritic_target_leakage")
    if cached is not None:
        return cached
    hits: list[_Hit] = []
    ev.__dict__["_nbcritic_target_leakage"] = hits
    if ev.tree is None or not re.search(r"fit|split|cross_val|OLS|ols|Logit|logit|DMatrix|"
                                        r"Dataset|Pool|formula|lstsq", ev.code):
        return hits
    an = _Analysis(ev)
    seen: set[tuple[str, str]] = set()
    for pair in an.pairs():
        tgt = an.target(pair.y, pair.pos)
        if tgt is None:
            found = _variable_label_hits(an, pair, seen)
            hits += found or _variable_target_hits(an, pair, seen)
            continue
        if tgt.array is not None:
            hit = _array_hit(an, pair, tgt)
            if hit and ("target", hit.col) not in seen:
                seen.add(("target", hit.col))
                hits.append(hit)
            continue
        est_cols = None
        if pair.estimator:
            facts = ev.objects.get(pair.estimator)
            if facts is not None and facts.fitted_on.get("feature_names_in_"):
                est_cols = list(facts.fitted_on["feature_names_in_"])

        def has(col: str, pair: Pair = pair, tgt: Target = tgt,
                est_cols: list[str] | None = est_cols) -> tuple[bool | None, str]:
            if est_cols is not None and (col in est_cols or len(est_cols) < 60):
                if col not in est_cols and _dummied(an, tgt.frame, col, est_cols):
                    return True, (f"kernel: `{pair.estimator}.feature_names_in_` holds its "
                                  "dummy columns")
                return col in est_cols, f"kernel: `{pair.estimator}.feature_names_in_`"
            return an.contains(pair.x, col, pair.pos, tgt.frame)

        reported: set[str] = set()
        if tgt.direct:
            for t in tgt.cols:
                ans, how = has(t)
                if ans and ("target", t) not in seen:
                    seen.add(("target", t))
                    reported.add(t)
                    hits.append(_Hit("target", t, t, pair, how, {"x_line": _x_line(an, pair)}))
        elif tgt.deterministic and len(tgt.cols) == 1:
            (c,) = tuple(tgt.cols)
            ans, how = has(c)
            if ans and ("source", c) not in seen:
                seen.add(("source", c))
                reported.add(c)
                hits.append(_Hit("source", c, _y_desc(an, pair), pair, how,
                                 {"target_expr": an.m.src(pair.y),
                                  "x_line": _x_line(an, pair)}))
        targets = set(tgt.cols) if tgt.direct else set()
        # the target column computed from one other column in the analysed code
        for t in list(targets):
            anc = an.ancestors(t, pair.pos)
            if anc is None:
                continue
            cols, deterministic, line = anc
            if not deterministic:
                continue
            present = [c for c in sorted(cols) if has(c)[0]]
            if present and len(present) == len(cols) and ("source", t) not in seen:
                seen.add(("source", t))
                hits.append(_Hit("source", ", ".join(present), t, pair,
                                 has(present[0])[1], {"n_sources": len(cols),
                                                      "defined_at": line,
                                                      "x_line": _x_line(an, pair)}))
                reported |= set(present)
        # columns computed from the target
        derived = an.derived_from(targets or set(tgt.cols), pair.pos)
        x_cols = _x_columns(an, pair)
        present_derived = []
        for c, (src, line, in_cell, random) in derived.items():
            if c in reported:
                continue
            ans, how = has(c)
            if ans:
                root, hops = src, 0
                while root in derived and hops < 10:
                    root, hops = derived[root][0], hops + 1
                present_derived.append((c, src, line, in_cell, random, how, root))
        n_known = len(x_cols) if x_cols else None
        for c, src, line, in_cell, random, how, root in present_derived:
            if ("derived", c) in seen:
                continue
            seen.add(("derived", c))
            reported.add(c)
            simulated = random and n_known is not None and \
                len(present_derived) * 2 >= n_known and n_known > 1
            hits.append(_Hit("derived", c, root, pair, how,
                             {"line": line, "in_cell": in_cell, "random": random,
                              "simulated": simulated, "via": src if src != root else None,
                              "x_line": _x_line(an, pair),
                              "leading": _leading_proxy(derived, c)}))
        cands = x_cols if x_cols else sorted(an.coldefs)
        hits += _component_hits(an, targets, pair.pos, list(cands), has, pair, seen,
                                reported)
        hits += _rule_hits(an, targets, pair.pos, has, pair, seen, reported)
        # columns computed from the one column the target was computed from (`stale =
        # days_on_market > 60`, `n_price_cuts ~ days_on_market // 21`): siblings of the label
        for t in sorted(targets):
            anc = an.ancestors(t, pair.pos)
            if anc is None or not anc[1] or len(anc[0]) != 1:
                continue
            (s,) = tuple(anc[0])
            if has(s)[0] or ("source", s) in seen:
                continue  # the source itself is a feature: reported as "source"
            siblings = an.derived_from({s}, pair.pos)
            # the source column is itself a copy of a variable (`df["ln_ic50"] = ln_ic50`):
            # columns computed from that variable are siblings too
            lat_s = an.copied_var(s, pair.pos)
            if lat_s is not None:
                for c, defs in an.coldefs.items():
                    if c in targets or c == s or c in siblings:
                        continue
                    for d in defs:
                        if d.pos < pair.pos and an.reads_var(d.value, lat_s, d.pos):
                            siblings[c] = (lat_s, d.line, d.in_cell,
                                           an.refs(d.value, d.pos).random)
                            break
            present_sib = []
            for c, (via, line, in_cell, random) in siblings.items():
                if c in targets or c in derived or c in reported or c == s:
                    continue
                ans, how = has(c)
                if ans and ("sibling", c) not in seen:
                    present_sib.append((c, via, line, in_cell, random, how))
            hits += _sibling_hits(an, pair, t, s, anc[2], present_sib, n_known, seen,
                                  reported)
        # columns computed from the variable the target is a threshold of (`win = play > 0.45`,
        # `acc = 78 + 6 * play + noise`): siblings of the label through a latent variable
        for t in sorted(targets):
            lat = an.latent_source(t, pair.pos) or an.outcome_latent(t, pair.pos)
            if lat is None:
                continue
            v, t_line = lat
            seeds: dict[str, tuple[str, int, bool, bool]] = {}
            for c, defs in an.coldefs.items():
                if c in targets:
                    continue
                for d in defs:
                    if d.pos < pair.pos and an.reads_var(d.value, v, d.pos):
                        seeds[c] = (v, d.line, d.in_cell, an.refs(d.value, d.pos).random)
                        break
            if not seeds:
                continue
            family = dict(seeds)
            for c, (via, line, in_cell, random) in an.derived_from(set(seeds), pair.pos).items():
                if c not in targets:
                    family.setdefault(c, (via, line, in_cell, random or seeds[via][3]
                                          if via in seeds else random))
            present_lat = []
            for c, (via, line, in_cell, random) in family.items():
                if c in reported or c in derived or any((k, c) in seen for k in _STRONGER):
                    continue
                ans, how = has(c)
                if ans:
                    present_lat.append((c, via, line, in_cell, random, how))
            hits += _sibling_hits(an, pair, t, v, t_line, present_lat, n_known, seen,
                                  reported)
        # columns the kernel sees set only for rows of one class of the target, then columns
        # that alone tell its classes apart (ROC AUC)
        for kind, key, found_by in (("indicator", "shares", _indicators),
                                    ("separates", "auc", _separating)):
            for t in sorted(targets):
                for c, value in found_by(ev, tgt.frame, t).items():
                    if c in reported or c in targets or any((k, c) in seen for k in _STRONGER):
                        continue
                    ans, how = has(c)
                    if ans:
                        seen.add((kind, c))
                        reported.add(c)
                        hits.append(_Hit(kind, c, t, pair, how,
                                         {key: value, "x_line": _x_line(an, pair)}))
        # the column that separates the classes far better than any other, named as a
        # quantity measured at/after the outcome (length of stay, discharge, refund, final_*)
        for t in sorted(targets):
            top = _strongest(ev, tgt.frame, t)
            if not top:
                continue
            ranked = sorted(top.items(), key=lambda kv: -abs(kv[1] - 0.5))
            feats = [(k, a) for k, a in ranked if k != t and has(k)[0]]
            if not feats:
                continue
            c, auc = feats[0]  # the feature that separates the classes best
            strength = max(auc, 1 - auc)
            # the best other feature: a recorded column among the features, or - for a feature
            # the kernel left out - the weakest recorded column, which bounds it
            others = [max(a, 1 - a) for _, a in feats[1:]]
            if x_cols is None or any(k not in top and k != t for k in x_cols):
                weakest = ranked[-1][1]
                others.append(max(weakest, 1 - weakest) if len(ranked) > 1 else strength)
            runner = max(others, default=0.5)
            words = _post_outcome_name(c)
            if c in reported or c in targets or strength < 0.85 or strength - runner < 0.1 or \
                    not words or any((k, c) in seen for k in _STRONGER):
                continue
            ans, how = has(c)
            if ans:
                seen.add(("post", c))
                reported.add(c)
                hits.append(_Hit("post", c, t, pair, how,
                                 {"auc": auc, "runner_up": runner, "words": words,
                                  "x_line": _x_line(an, pair)}))
        # columns the code draws from the label itself, named as a consequence of the outcome
        for t in sorted(targets):
            for c, (v, line, in_cell, seed) in _label_drawn(an, t, pair.pos).items():
                if c in reported or c in targets or \
                        any((k, c) in seen for k in (*_STRONGER, "post")):
                    continue
                words = _consequence_name(c) or _consequence_name(seed)
                if not words:
                    continue
                ans, how = has(c)
                if ans and ("drawn", c) not in seen:
                    seen.add(("drawn", c))
                    reported.add(c)
                    hits.append(_Hit("drawn", c, t, pair, how,
                                     {"label_var": v, "line": line, "in_cell": in_cell,
                                      "seed": seed, "words": words,
                                      "auc": _any_auc(ev, tgt.frame, t, c),
                                      "x_line": _x_line(an, pair)}))
        # columns named after the target
        if x_cols:
            for t in sorted(targets):
                for c in x_cols:
                    if c in reported or ("named", c) in seen or not _similar(c, t):
                        continue
                    if any((k, c) in seen for k in ("target", "source", "derived", "sibling")):
                        continue
                    if any(_computed(an.refs(d.value, d.pos)) for d in an.coldefs.get(c, ())):
                        continue  # computed in view: judged by its definition, not its name
                    seen.add(("named", c))
                    hits.append(_Hit("named", c, t, pair, "name",
                                     {"prediction": _prediction_name(c, t),
                                      "auc": _any_auc(ev, tgt.frame, t, c)}))
    hits += _formula_hits(an, seen)
    return hits


_MONOTONE_WRAPS = {"log", "log1p", "log10", "log2", "sqrt", "round", "astype", "abs", "exp",
                   "float", "clip", "asarray", "to_numpy", "copy"}


def _strip_wraps(v: ast.AST) -> ast.AST:
    """`np.log(x)`, `x.round(2)`, `(x / 60)`-free core of a one-column transform."""
    for _ in range(8):
        if isinstance(v, ast.Call):
            f = v.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if \
                isinstance(f, ast.Name) else ""
            if name not in _MONOTONE_WRAPS:
                return v
            if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and
                                                     f.value.id in ("np", "numpy", "math")):
                v = f.value  # x.round(2), x.astype(float)
            elif v.args:
                v = v.args[0]  # np.log(x), abs(x)
            else:
                return v
        elif isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult | ast.Div) and \
                isinstance(v.right, ast.Constant):
            v = v.left
        elif isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult) and \
                isinstance(v.left, ast.Constant):
            v = v.right
        else:
            return v
    return v


def _transform_chain(an: _Analysis, col: str, pos: int) -> list[str]:
    """`col` and the columns it is a deterministic one-column transform of, back to the first
    column computed from several (log_cpue -> cpue)."""
    chain = [col]
    for _ in range(6):
        anc = an.ancestors(chain[-1], pos)
        if anc is None or not anc[1] or len(anc[0]) != 1:
            break
        (c,) = tuple(anc[0])
        if c in chain:
            break
        chain.append(c)
    return chain


def _rate_numerators(an: _Analysis, chain: list[str], pos: int
                     ) -> dict[str, tuple[str, int, bool]]:
    """Columns that are the numerator of a rate the target is (a transform of): `cpue = catch /
    hours` -> {"catch": ("cpue", line)}. Only a plain column divided by other columns."""
    out: dict[str, tuple[str, int, bool]] = {}
    for c in chain:
        defs = [d for d in an.coldefs.get(c, []) if d.pos < pos]
        if not defs:
            continue
        d = defs[-1]
        v = _strip_wraps(d.value)
        if not (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Div)):
            continue
        num = _strip_wraps(v.left)
        if isinstance(num, ast.BinOp) and isinstance(num.op, ast.Add | ast.Sub):
            # yield = (dies_in - sort_rej - ft_rej) / dies_in: the share left of a total once
            # counted parts are taken out; each plain column among the parts is a component
            for a in _share_parts(an, num, v.right, d.pos, chain):
                out.setdefault(a, (c, d.line if d.in_cell else 0, True))
            continue
        if not isinstance(num, ast.Subscript | ast.Attribute):
            continue
        rn, rd = an.refs(num, d.pos), an.refs(v.right, d.pos)
        if len(rn.row) != 1 or rn.random or rn.agg or rn.lagged or rn.shifted:
            continue
        (a,) = tuple(rn.row)
        if not rd.row or a in rd.row or rd.agg or rd.lagged or rd.random or a in chain:
            continue
        out[a] = (c, d.line if d.in_cell else 0, False)
    return out


def _share_parts(an: _Analysis, num: ast.BinOp, den: ast.expr, pos: int,
                 chain: list[str]) -> list[str]:
    """The plain columns added or taken out in the numerator `total - a - b` of a share whose
    denominator is that same `total` (only then is it an accounting identity, not a fitted
    equation `(2 * x + noise) / 10`)."""
    terms: list[ast.expr] = []
    stack: list[ast.expr] = [num]
    while stack and len(terms) < 12:
        e = stack.pop()
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add | ast.Sub):
            stack += [e.left, e.right]
        else:
            terms.append(e)
    den_src = ast.dump(_strip_wraps(den))
    if not any(ast.dump(_strip_wraps(t)) == den_src for t in terms):
        return []
    rd = an.refs(den, pos)
    out = []
    for t in terms:
        if not isinstance(t, ast.Subscript | ast.Attribute):
            continue
        r = an.refs(t, pos)
        if len(r.row) != 1 or r.random or r.agg or r.lagged or r.shifted:
            continue
        (a,) = tuple(r.row)
        if a not in rd.row and a not in chain:
            out.append(a)
    return out


def _rule_clause(an: _Analysis, t: str, pos: int) -> tuple[list[str], str, int] | None:
    """The target is a boolean combination (`(a >= 1.5 * b) | (a - b >= 0.3) | flag`) one
    of whose clauses is a noise-free comparison of columns only: wherever that clause holds
    the label is fixed by those columns. (columns of the clause, its source, line)."""
    defs = [d for d in an.coldefs.get(t, []) if d.pos < pos]
    if not defs:
        return None
    d = defs[-1]
    v = _strip_wraps(d.value)
    v = _strip_wraps(_where_condition(an, v) or v)
    op = _bool_op(an, v)
    if op is None:
        return None
    clauses: list[ast.expr] = []
    stack: list[ast.expr] = [v]
    while stack and len(clauses) < 8:
        e = stack.pop()
        if _bool_op(an, e) is op:
            stack += reversed(_bool_operands(e))
        else:
            clauses.append(e)
    for cl in clauses:
        if not isinstance(cl, ast.Compare) or is_random_call(cl):
            continue
        r = an.refs(cl, d.pos)
        if not r.row or r.agg or r.lagged or r.random or r.shifted or t in r.row:
            continue
        if any(not an._is_frame(x) for x in an._read_vars(cl)):
            continue  # a variable: may hold a draw, not a rule over recorded columns
        return sorted(r.row), ast.unparse(cl), d.line if d.in_cell else 0
    return None


def _np_func(an: _Analysis, node: ast.AST) -> str | None:
    """`np.logical_or` -> "logical_or", `np.logical_or.reduce` -> "logical_or.reduce" (numpy
    functions called through the module's alias)."""
    if not isinstance(node, ast.Call):
        return None
    f, parts = node.func, []
    while isinstance(f, ast.Attribute):
        parts.append(f.attr)
        f = f.value
    if not parts or not isinstance(f, ast.Name) or \
            not an.m.aliases.get(f.id, "").startswith("numpy"):
        return None
    return ".".join(reversed(parts))


def _bool_op(an: _Analysis, e: ast.AST) -> type | None:
    """ast.BitOr / ast.BitAnd for `a | b`, `np.logical_or(a, b)`, `np.logical_or.reduce([a,
    b, c])` (and the `&` / logical_and forms); None otherwise."""
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.BitOr | ast.BitAnd):
        return type(e.op)
    name = _np_func(an, e)
    if name in ("logical_or", "logical_and") and len(e.args) == 2 and not e.keywords:  # type: ignore[attr-defined]
        return ast.BitOr if name == "logical_or" else ast.BitAnd
    if name in ("logical_or.reduce", "logical_and.reduce") and len(e.args) == 1 and \
            isinstance(e.args[0], ast.List | ast.Tuple) and len(e.args[0].elts) >= 2:  # type: ignore[attr-defined]
        return ast.BitOr if name.startswith("logical_or") else ast.BitAnd
    return None


def _bool_operands(e: ast.AST) -> list[ast.expr]:
    if isinstance(e, ast.BinOp):
        return [e.left, e.right]
    args = e.args  # type: ignore[attr-defined]
    return list(args[0].elts) if isinstance(args[0], ast.List | ast.Tuple) else list(args)


def _where_condition(an: _Analysis, v: ast.AST) -> ast.expr | None:
    """`np.where(cond, 1, 0)` (two constants: the label is the rule `cond`, or its negation)."""
    if _np_func(an, v) != "where" or len(v.args) != 3 or v.keywords:  # type: ignore[attr-defined]
        return None
    a, b = v.args[1], v.args[2]  # type: ignore[attr-defined]
    if isinstance(a, ast.Constant) and isinstance(b, ast.Constant) and a.value != b.value:
        return v.args[0]  # type: ignore[attr-defined]
    return None


def _rule_hits(an: _Analysis, targets: set[str], pos: int, has, pair: Pair, seen: set,  # type: ignore[no-untyped-def]
               reported: set[str]) -> list[_Hit]:
    out: list[_Hit] = []
    for t in sorted(targets):
        if ("source", t) in seen or ("rule", t) in seen:
            continue
        rc = _rule_clause(an, t, pos)
        if rc is None:
            continue
        cols, clause, line = rc
        if any(c in reported for c in cols) or not all(has(c)[0] for c in cols):
            continue
        seen.add(("rule", t))
        reported.update(cols)
        out.append(_Hit("rule", ", ".join(cols), t, pair, has(cols[0])[1],
                        {"clause": clause, "defined_at": line, "n_sources": len(cols)}))
    return out


def _component_hits(an: _Analysis, targets: set[str], pos: int, cands: list[str],
                    has, pair: Pair, seen: set, reported: set[str]) -> list[_Hit]:  # type: ignore[no-untyped-def]
    """Features that are (a one-column transform of) the numerator of the rate the target is:
    the label's definition contains the feature (a part-whole leak)."""
    out: list[_Hit] = []
    for t in sorted(targets):
        tchain = _transform_chain(an, t, pos)
        nums = _rate_numerators(an, tchain, pos)
        if not nums:
            continue
        for c in cands:
            if c in reported or c in tchain or any((k, c) in seen for k in (*_STRONGER, "post",
                                                                             "drawn")):
                continue
            fchain = _transform_chain(an, c, pos)
            shared = [a for a in fchain if a in nums]
            if not shared or set(fchain) & set(tchain):
                continue
            ans, how = has(c)
            if ans and ("component", c) not in seen:
                seen.add(("component", c))
                reported.add(c)
                rate, line, part = nums[shared[0]]
                out.append(_Hit("component", c, t, pair, how,
                                {"numerator": shared[0], "rate": rate, "defined_at": line,
                                 "via": c != shared[0], "part": part}))
    return out


_LABEL_WRAPPERS = {"astype", "ravel", "reshape", "copy", "to_numpy", "squeeze", "flatten",
                   "asarray", "array", "int", "int_", "float"}
_CMP_METHODS = {"gt": ast.Gt, "ge": ast.GtE, "lt": ast.Lt, "le": ast.LtE}


def _variable_label(an: _Analysis, y: ast.AST, pos: int) -> tuple[str, str, int, int] | None:
    """A label that is a threshold of one array/Series variable, not of a frame column
    (`flooded = (peak_q > bankfull).astype(int)`, `y = np.where(score >= 50, 1, 0)`,
    `late = delay.gt(15)`): (label variable, source variable, label line, label pos)."""
    label = None
    node, npos = y, pos
    for _ in range(8):
        if isinstance(node, ast.Name):
            held = an.value_before(node.id, npos)
            if held is None:
                return None
            label = None if held[3] else label or node.id
            node, npos, line = held[0], held[1], held[2].lineno
            continue
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) \
                else ""
            if name in _CMP_METHODS and isinstance(f, ast.Attribute) and len(node.args) == 1:
                node = ast.Compare(left=f.value, ops=[_CMP_METHODS[name]()],
                                   comparators=[node.args[0]])
                break
            if name == "where" and len(node.args) == 3 and all(
                    isinstance(literal(a), int | float | bool) for a in node.args[1:]):
                node = node.args[0]
                continue
            if name in _LABEL_WRAPPERS:
                inner = f.value if isinstance(f, ast.Attribute) and name not in (
                    "asarray", "array", "int_") else (node.args[0] if node.args else None)
                if inner is None or (isinstance(f, ast.Attribute) and isinstance(
                        f.value, ast.Name) and f.value.id in an.m.aliases and
                        name in ("astype", "copy", "ravel", "reshape")):
                    return None
                node = inner
                continue
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and \
                literal(node.right) == 1:
            node = node.left
            continue
        break
    if label is None or not isinstance(node, ast.Compare) or len(node.ops) != 1 or \
            not isinstance(node.ops[0], ast.Gt | ast.GtE | ast.Lt | ast.LtE) or \
            is_random_call(node) or any(is_random_call(c) for c in _calls(node)):
        return None
    srcs = []
    for v in an._read_vars(node):
        facts = an.ev.objects.get(v)
        a = an.last_assign(v, npos)
        if facts is not None and facts.kind not in ("ndarray", "series"):
            continue  # a scalar threshold (bankfull = 14.5), a frame
        if facts is None and (a is None or not isinstance(a[1], ast.expr) or (isinstance(
                a[1], ast.Constant | ast.UnaryOp | ast.BinOp) and not an._read_vars(a[1]))):
            continue
        srcs.append(v)
    if len(srcs) != 1 or srcs[0] == label or an._is_frame(srcs[0]):
        return None
    return label, srcs[0], line, npos


def _stack_columns(an: _Analysis, x: ast.AST, pos: int) -> list[tuple[str, ast.expr]] | None:
    """The column expressions of a feature matrix stacked from variables in view
    (`np.column_stack([a, b])`, `np.c_[a, b]`, `np.vstack([a, b]).T`, `np.stack([a, b],
    axis=1)`, `pd.DataFrame({"a": a, "b": b})`): [(name, expression)], None when unknown."""
    node = x
    for _ in range(6):
        if isinstance(node, ast.Name):
            held = an.value_before(node.id, pos)
            if held is None:
                return None
            node, pos = held[0], held[1]
            continue
        if isinstance(node, ast.Attribute) and node.attr in ("T", "values"):
            inner = node.value
            if node.attr == "T" and not (isinstance(inner, ast.Call) and _call_name(inner) in (
                    "vstack", "array", "row_stack")):
                return None
            node = inner
            continue
        if isinstance(node, ast.Call) and _call_name(node) in ("to_numpy", "astype", "copy") \
                and isinstance(node.func, ast.Attribute):
            node = node.func.value
            continue
        if isinstance(node, ast.BinOp | ast.Call):
            # X = (X - X.mean(0)) / X.std(0), StandardScaler().fit_transform(X): the same
            # columns, rescaled by statistics of the matrix itself
            # (sm.add_constant(X) adds an intercept column)
            if isinstance(node, ast.Call) and len(node.args) == 1 and _call_name(node) in (
                    "fit_transform", "scale", "nan_to_num", "add_constant"):
                node = node.args[0]
                continue
            read = an._read_vars(node)
            if isinstance(node, ast.BinOp) and len(read) == 1:
                node = ast.Name(id=next(iter(read)), ctx=ast.Load())
                continue
        break
    elts: list[ast.expr] | None = None
    names: list[str] = []
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
            node.value.attr == "c_":
        elts = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    elif isinstance(node, ast.Call):
        name = _call_name(node)
        arg = node.args[0] if node.args else None
        if name in ("column_stack", "hstack", "vstack", "array", "row_stack", "stack") and \
                isinstance(arg, ast.List | ast.Tuple):
            if name == "stack" and literal(kwarg(node, "axis"), 0) not in (1, -1):
                return None
            elts = list(arg.elts)
        elif name == "DataFrame" and isinstance(arg, ast.Dict):
            if any(not (isinstance(k, ast.Constant) and isinstance(k.value, str))
                   for k in arg.keys):
                return None
            names = [k.value for k in arg.keys]  # type: ignore[union-attr]
            elts = list(arg.values)
        elif name == "DataFrame" and arg is not None:
            return _stack_columns(an, arg, pos + 1)
    if elts is None or any(isinstance(e, ast.Starred) for e in elts):
        return None
    return [(names[i] if names else ast.unparse(e)[:40], e) for i, e in enumerate(elts)]


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _draws_after(an: _Analysis, e: ast.AST, v: str, pos: int, depth: int = 0) -> bool:
    """Whether the computation of `e` from the variable `v` draws random numbers on the way
    (`stage = f(q) + rng.normal(…)`); the draws that made `v` itself do not count."""
    if is_random_call(e) or any(is_random_call(c) for c in _calls(e)):
        return True
    if depth >= 3:
        return False
    for w in an._read_vars(e):
        if w == v:
            continue
        a = an.last_assign(w, pos)
        if a is not None and isinstance(a[1], ast.expr) and an.reads_var(a[1], v, a[0]) and \
                _draws_after(an, a[1], v, a[0], depth + 1):
            return True
    return False


def _variable_label_hits(an: _Analysis, pair: Pair, seen: set) -> list[_Hit]:
    """The label is a threshold of a variable (`flooded = peak_q > bankfull`) and the feature
    matrix is stacked from variables: the variable itself among the columns ("source"), or a
    column computed from it ("sibling", the latent-source logic of the frame path)."""
    lab = _variable_label(an, pair.y, pair.pos)
    if lab is None:
        return []
    label, v, t_line, _ = lab
    cols = _stack_columns(an, pair.x, pair.pos)
    if not cols:
        return []
    out: list[_Hit] = []
    present = []
    for name, e in cols:
        if _pass_through_name(e) == v:
            if ("source", name) not in seen:
                seen.add(("source", name))
                out.append(_Hit("source", name, label, pair, "code",
                                {"target_expr": label, "x_line": _x_line(an, pair)}))
            continue
        if an.reads_var(e, v, pair.pos) and ("sibling", name) not in seen:
            line = getattr(e, "lineno", 0)
            via = _pass_through_name(e)
            a = an.last_assign(via, pair.pos) if via else None
            in_cell = a[0] >= an.cell_start if a is not None else pair.pos >= an.cell_start
            if a is not None:
                line = a[2].lineno
            present.append((name, via if via and via != name else v, line, in_cell,
                            _draws_after(an, e, v, pair.pos), "code"))
    if any(k == "source" for k in (h.kind for h in out)):
        return out
    return out + _sibling_hits(an, pair, label, v, t_line, present, len(cols), seen, set())


# calls whose value is not a row-by-row copy of what they read: whole-array statistics, shifts
# and filters (a lagged or smoothed target is a legitimate history feature or belongs to
# another rule), and models (out-of-fold predictions stacked as a feature)
_NOT_ROWWISE = (_REDUCTIONS | _NP_REDUCTIONS | _ROW_WINDOWS | CV_FUNCS |
                {"roll", "shift", "diff", "ediff1d", "gradient", "convolve", "correlate",
                 "sort", "argsort", "lfilter", "filtfilt", "savgol_filter", "len", "unique",
                 "histogram", "polyfit", "corrcoef", "cov", "fit", "predict", "predict_proba",
                 "predict_log_proba", "decision_function", "fit_predict", "fit_transform",
                 "transform", "score", "permutation", "shuffle", "choice", "nanmin", "nanmax",
                 "amin", "amax", "ptp", "argmax", "argmin", "searchsorted", "interp"})
_ROW_CONSTRUCTORS = {"Series", "DataFrame", "Categorical"}
_TARGET_TRANSFORMS = {"log", "log1p", "log10", "log2", "sqrt", "exp", "expm1", "abs",
                      "asarray", "array", "ravel", "squeeze", "flatten", "to_numpy", "values",
                      "astype", "copy", "round", "reshape", "float_"}


def _row_reads(an: _Analysis, e: ast.AST, targets: set[str], pos: int, depth: int = 0) -> bool:
    """Whether `e` computes each row from the same row of one of the `targets` variables
    (`rt - delay`, `y / 60`, `[v - 1 for v in y]`), through variables assigned in view; not
    through statistics, shifts (`y[:-1]`, `np.roll(y, 1)`), filters or models."""
    if isinstance(e, ast.Name):
        if e.id in targets:
            return True
        if depth >= 3 or e.id in an.m.aliases or e.id in _BUILTINS or an._is_frame(e.id):
            return False
        a = an.last_assign(e.id, pos)
        if a is None or not isinstance(a[1], ast.expr):
            return False
        return _row_reads(an, a[1], targets, a[0], depth + 1)
    if isinstance(e, ast.Call):
        name = _call_name(e)
        if (name in _NOT_ROWWISE and not _row_wise(e)) or is_random_call(e) or (
                name[:1].isupper() and name not in _ROW_CONSTRUCTORS):
            return False
        parts = [*e.args, *(k.value for k in e.keywords)]
        if isinstance(e.func, ast.Attribute):
            parts.append(e.func.value)
        return any(_row_reads(an, x, targets, pos, depth) for x in parts)
    if isinstance(e, ast.Subscript):
        sl = e.slice
        if isinstance(e.value, ast.Attribute) and e.value.attr in ("r_", "c_"):
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            return any(_row_reads(an, x, targets, pos, depth) for x in elts)
        if isinstance(sl, ast.Slice) and (sl.lower is not None or sl.upper is not None):
            return False  # y[:-1], y[1:]: the neighbouring row's value (a lag)
        return _row_reads(an, e.value, targets, pos, depth)
    if isinstance(e, ast.Attribute):
        return _row_reads(an, e.value, targets, pos, depth)
    return any(_row_reads(an, c, targets, pos, depth) for c in ast.iter_child_nodes(e))


def _target_vars(an: _Analysis, y: ast.AST, pos: int) -> tuple[list[str], int] | None:
    """The variable a continuous target is (`rt_ms`, `y[train]`, `np.log(price)`), followed
    back through copies and monotone transforms: ([names], pos of the outcome's own
    definition). None for a frame column, a label drawn at random (`y = rng.integers(0, 2,
    n)`: features drawn from it are a class-conditional simulation), or anything else."""
    names: list[str] = []
    node, npos = y, pos
    for _ in range(8):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Tuple | ast.Constant):
            node = node.value  # y[tr], y[mask]: rows of y
            continue
        if isinstance(node, ast.Attribute) and node.attr in ("values", "T"):
            node = node.value
            continue
        if isinstance(node, ast.Call) and _call_name(node) in _TARGET_TRANSFORMS:
            f = node.func
            inner = f.value if isinstance(f, ast.Attribute) and not (
                isinstance(f.value, ast.Name) and f.value.id in an.m.aliases) else \
                (node.args[0] if node.args else None)
            if inner is None:
                return None
            node = inner
            continue
        if not isinstance(node, ast.Name) or an._is_frame(node.id):
            break
        facts = an.ev.objects.get(node.id)
        if facts is not None and facts.kind not in ("ndarray", "series"):
            return None
        held = an.value_before(node.id, npos)
        if held is None or held[3]:
            break
        names.append(node.id)
        node, npos = held[0], held[1]
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript) or (
                isinstance(node, ast.Call) and _call_name(node) in _TARGET_TRANSFORMS):
            continue
        # the outcome's definition: a draw that reads no data is a simulated label
        if is_random_call(node) or any(is_random_call(c) for c in _calls(node)):
            data = [v for v in an._read_vars(node) if (an.ev.objects.get(v) is None or
                    an.ev.objects[v].kind in ("ndarray", "series", "dataframe")) and
                    not isinstance((an.last_assign(v, npos) or (0, None))[1],
                                   ast.Constant | _Elt | type(None))]
            if not data:
                return None
        return (names, npos) if names else None
    return (names, npos) if names else None


def _variable_target_hits(an: _Analysis, pair: Pair, seen: set) -> list[_Hit]:
    """A continuous target held in a variable (`rt_ms`, `y`) and a feature matrix stacked
    from variables, one of which is computed row by row from the target itself after it
    was recorded (`emg_onset = rt - delay`, `kg = lbs / 2.2`): "target" for the target
    itself among the columns, "derived" for a column computed from it."""
    found = _target_vars(an, pair.y, pair.pos)
    if found is None:
        return []
    names, tpos = found
    cols = _stack_columns(an, pair.x, pair.pos)
    if not cols or len(cols) < 2:
        return []
    targets = set(names)
    out: list[_Hit] = []
    derived = []
    for name, e in cols:
        via = _pass_through_name(e)
        if via in targets:
            if ("target", name) not in seen:
                seen.add(("target", name))
                out.append(_Hit("target", name, names[0], pair, "code",
                                {"x_line": _x_line(an, pair)}))
            continue
        if not _row_reads(an, e, targets, pair.pos):
            continue
        a = an.last_assign(via, pair.pos) if via else None
        if a is not None and a[0] <= tpos:
            continue  # defined before the outcome: the outcome may be computed from it
        line = a[2].lineno if a is not None else getattr(e, "lineno", 0)
        in_cell = (a[0] if a is not None else pair.pos) >= an.cell_start
        random = any(_draws_after(an, e, t, pair.pos) for t in targets)
        derived.append((name, line, in_cell, random))
    if out:
        return out
    for name, line, in_cell, random in derived:
        if ("derived", name) in seen:
            continue
        seen.add(("derived", name))
        toks = set(id_tokens(name))
        leading = name if random and not in_cell and (
            toks & _BEFORE_TOKENS or any(_BEFORE_WORD.match(t) for t in toks)) else None
        out.append(_Hit("derived", name, names[-1], pair, "code",
                        {"line": line, "in_cell": in_cell, "random": random,
                         "simulated": random and len(derived) * 2 >= len(cols),
                         "via": names[0] if names[0] != names[-1] else None,
                         "x_line": _x_line(an, pair), "leading": leading,
                         "variable": True}))
    return out


def _y_desc(an: _Analysis, pair: Pair) -> str:
    return an.m.src(pair.y)


def _array_hit(an: _Analysis, pair: Pair, tgt: Target) -> _Hit | None:
    assert tgt.array is not None
    arr, j = tgt.array
    x = pair.x
    pos = pair.pos
    # follow X = data / X = data[:, a:b]
    for _ in range(4):
        if isinstance(x, ast.Name) and x.id != arr:
            held = an.value_before(x.id, pos)
            if held is None:
                return None
            x, pos = held[0], held[1]  # type: ignore[assignment]
        else:
            break
    facts = an.ev.objects.get(arr)
    ncols = facts.shape[1] if facts is not None and facts.shape and len(facts.shape) == 2 \
        else None
    if isinstance(x, ast.Name) and x.id == arr:
        return _Hit("target", f"column {j}", f"{arr}[:, {j}]", pair, "code")
    if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name) and x.value.id == arr \
            and isinstance(x.slice, ast.Tuple) and len(x.slice.elts) == 2:
        sl = x.slice.elts[1]
        if isinstance(sl, ast.Slice):
            lo, hi = literal(sl.lower), literal(sl.upper)
            if not all(v is None or isinstance(v, int) for v in (lo, hi)):
                return None
            if ncols is None:
                if j >= 0 and (lo is None or lo >= 0) and (hi is None or hi >= 0):
                    inside = (lo or 0) <= j and (hi is None or j < hi)
                elif j < 0 and (lo is None or lo < 0 or lo == 0) and (hi is None or hi < 0):
                    inside = hi is None or j < hi
                    inside = inside and (lo is None or lo == 0 or j >= lo)
                else:
                    return None
            else:
                inside = (j % ncols) in range(ncols)[slice(lo, hi)]
            if inside:
                return _Hit("target", f"column {j}", f"{arr}[:, {j}]", pair,
                            "kernel: array shape" if ncols else "code")
    return None


def _formula_hits(an: _Analysis, seen: set) -> list[_Hit]:
    out: list[_Hit] = []
    for c in an.m.calls:
        if c.last not in _FORMULA_FUNCS or not c.name or "statsmodels" not in c.name:
            continue
        f = c.kwarg("formula") or (c.node.args[0] if c.node.args else None)
        formula = literal(f)
        pair = Pair(c.node, c.node, c.line, len(an.stmts) + 1, c.last)
        if isinstance(f, ast.Name):  # formula = "y ~ a + b"; smf.logit(formula, df)
            a = an.last_assign(f.id, pair.pos)
            formula = literal(a[1]) if a is not None and isinstance(a[1], ast.expr) else None
        if not isinstance(formula, str) or "~" not in formula:
            continue
        lhs, rhs = formula.split("~", 1)
        lhs_vars = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", lhs)) - {"np", "log", "C", "Q",
                                                                        "I", "sqrt", "exp"}
        rhs_vars = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", rhs)) - {"np", "log", "C", "Q",
                                                                        "I", "sqrt", "exp"}
        rhs_vars |= set(re.findall(r"Q\([\"']([^\"']+)[\"']\)", rhs))
        for t in lhs_vars:
            if t in rhs_vars and ("target", t) not in seen:
                seen.add(("target", t))
                out.append(_Hit("target", t, t, pair, "formula"))
            derived = an.derived_from({t}, pair.pos)
            for d, (src, line, in_cell, random) in derived.items():
                if d in rhs_vars and ("derived", d) not in seen:
                    seen.add(("derived", d))
                    root, hops = src, 0
                    while root in derived and hops < 10:
                        root, hops = derived[root][0], hops + 1
                    out.append(_Hit("derived", d, root, pair, "formula",
                                    {"line": line, "in_cell": in_cell, "random": random,
                                     "simulated": False, "via": src if src != root else None,
                                     "leading": _leading_proxy(derived, d)}))
            def in_rhs(col: str, rhs: set[str] = rhs_vars) -> tuple[bool, str]:
                return col in rhs, "formula"
            out += _component_hits(an, {t}, pair.pos, sorted(rhs_vars - {t}), in_rhs, pair,
                                   seen, set())
            out += _rule_hits(an, {t}, pair.pos, in_rhs, pair, seen, set())
            # a regressor the kernel sees set only for rows of one class of the response
            data = c.kwarg("data") or (c.node.args[1] if len(c.node.args) > 1 else None)
            frame = root_name(data) if data is not None else None
            for d, (v, line, in_cell, seed) in _label_drawn(an, t, pair.pos).items():
                words = _consequence_name(d) or _consequence_name(seed)
                if d in rhs_vars and d != t and words and \
                        not any((k, d) in seen for k in (*_STRONGER, "drawn")):
                    seen.add(("drawn", d))
                    out.append(_Hit("drawn", d, t, pair, "formula",
                                    {"label_var": v, "line": line, "in_cell": in_cell,
                                     "seed": seed, "words": words,
                                     "auc": _any_auc(an.ev, frame, t, d)}))
            for d, shares in _indicators(an.ev, frame, t).items():
                if d in rhs_vars and d != t and not any((k, d) in seen for k in (
                        "target", "derived", "indicator")):
                    seen.add(("indicator", d))
                    out.append(_Hit("indicator", d, t, pair, "formula",
                                    {"shares": shares}))
            for d, auc in _separating(an.ev, frame, t).items():
                if d in rhs_vars and d != t and not any((k, d) in seen for k in _STRONGER):
                    seen.add(("separates", d))
                    out.append(_Hit("separates", d, t, pair, "formula", {"auc": auc}))
    return out


def _leading_proxy(derived: dict[str, tuple[str, int, bool, bool]], col: str) -> str | None:
    """The column of `col`'s chain back to the target whose name marks it as measured before the
    outcome (`presold`, `baseline_score`, `early_signups`), when the hop that drew it from the
    target is a random draw made before this cell (how a simulation writes a leading
    indicator: `presold = tickets_sold * rng.uniform(0.3, 0.6, n)`). Code cannot tell such a
    correlate's timing, so it is no evidence of leakage on its own. None otherwise."""
    chain, c, hops = [], col, 0
    while c in derived and hops < 10:
        chain.append((c, derived[c]))
        c, hops = derived[c][0], hops + 1
    if not any(random and not in_cell for _, (_, _, in_cell, random) in chain):
        return None
    for name, _ in chain:
        toks = id_tokens(name)
        if set(toks) & _BEFORE_TOKENS or any(_BEFORE_WORD.match(t) for t in toks):
            return name
    return None


def _lines(h: _Hit) -> list[int]:
    lines = {h.pair.line}
    if h.extra.get("in_cell") and h.extra.get("line"):
        lines.add(h.extra["line"])
    if h.extra.get("x_line"):
        lines.add(h.extra["x_line"])
    return sorted(lines)


def _x_line(an: _Analysis, pair: Pair) -> int | None:
    """The cell line that defined the features, when it is a name assigned in this cell."""
    x = pair.x
    if isinstance(x, ast.Name):
        a = an.last_assign(x.id, pair.pos)
        if a is not None and a[0] >= an.cell_start:
            value = a[1]
            if isinstance(value, _Elt):
                arr = value.array_for_split()
                if isinstance(arr, ast.Name):
                    b = an.last_assign(arr.id, a[0])
                    if b is not None and b[0] >= an.cell_start:
                        return b[2].lineno
                return a[2].lineno
            return a[2].lineno
    return None


@rule("target_leakage.target_in_features",
      title="The target (or the column it is computed from) is among the features")
def target_in_features(ev: Evidence) -> Iterator[Finding]:
    """y = df['price'] while X still holds 'price' (drop list without it, select_dtypes,
    iloc range, `X = data` with `y = data[:, -1]`, formula with the response on both sides), or
    y is a threshold/transform of a single feature column (passed = final_exam >= 50). Critical:
    0.95 when the kernel shows the column in X / feature_names_in_, 0.88 from code."""
    for h in _analyse(ev):
        if h.kind not in ("target", "source", "component", "rule"):
            continue
        kernel = h.how.startswith("kernel")
        if h.kind == "rule":
            x = h.extra
            where = f"line {x['defined_at']}" if x.get("defined_at") else "an earlier cell"
            text = (f"The target `{h.target}` is defined by a rule ({where}) one of whose "
                    f"clauses, `{x['clause']}`, reads only `{h.col}`, and "
                    f"{'that column is' if x['n_sources'] == 1 else 'those columns are all'} "
                    f"among the features passed to `{h.pair.call}` (line {h.pair.line}; "
                    f"{h.how}). Wherever the clause holds the model can read the label off "
                    "its own definition, so the coefficients and the score are inflated.")
            sev, conf = "critical", 0.9 if kernel else 0.85
            if h.pair.split_only:
                sev, conf = "high", 0.7
            yield Finding(explanation=text, severity=sev, confidence=conf,
                          evidence={"lines": _lines(h),
                                    "values": {"column": h.col, "target": h.target,
                                               "clause": x["clause"], "known_from": h.how}},
                          suggestion=(f"Remove `{h.col}` from the features: the outcome is "
                                      "defined from it. Use only what is known before the "
                                      "outcome (e.g. the baseline value)."))
            continue
        if h.kind == "component":
            x = h.extra
            via = (f" (`{h.col}` is a transform of `{x['numerator']}`)" if x.get("via")
                   else "")
            where = f"line {x['defined_at']}" if x.get("defined_at") else "an earlier cell"
            shape = (f"(total - `{x['numerator']}` - …) / total" if x.get("part") else
                     f"`{x['numerator']}` / (other columns)")
            text = (f"The target `{h.target}` is the rate `{x['rate']}` = {shape} "
                    f"({where}, up to a transform), and "
                    f"{'that part' if x.get('part') else 'its numerator'} is a "
                    f"feature: `{h.col}`{via} is passed to "
                    f"`{h.pair.call}` (line {h.pair.line}; {h.how}). The label's definition "
                    "contains the feature, so the fit mostly recovers the shared component "
                    "(a part-whole leak) and the score is inflated.")
            sev, conf = "critical", 0.85
            if h.pair.split_only:
                sev, conf = "high", 0.7
            yield Finding(explanation=text, severity=sev, confidence=conf,
                          evidence={"lines": _lines(h),
                                    "values": {"column": h.col, "target": h.target,
                                               "numerator": x["numerator"], "rate": x["rate"],
                                               "known_from": h.how}},
                          suggestion=(f"Drop `{h.col}` from the features (it is the "
                                      f"numerator of `{x['rate']}`), or model "
                                      f"`{x['numerator']}` itself with the denominator as an "
                                      "offset/exposure."))
            continue
        if h.kind == "target":
            text = (f"The target column `{h.col}` is also a feature: `{an_src(ev, h.pair.x)}` "
                    f"passed to `{h.pair.call}` (line {h.pair.line}) still contains it "
                    f"({h.how}). The model can read the answer, so the score is meaningless.")
            sev, conf = "critical", 0.95 if kernel else 0.88
            if h.pair.split_only:
                sev, conf = "high", 0.7
                text += " (No model is fitted on it in this cell yet.)"
        else:
            n = h.extra.get("n_sources", 1)
            text = (f"The target `{h.target}` is computed from {'column' if n == 1 else 'columns'} "
                    f"`{h.col}`, which {'is' if n == 1 else 'are all'} among the features "
                    f"passed to `{h.pair.call}` (line {h.pair.line}; {h.how}). The model can "
                    "recover the label from its own definition.")
            sev, conf = ("critical", 0.93 if kernel else 0.88) if n == 1 else \
                ("high", 0.65)
            if h.pair.split_only and sev == "critical":
                sev, conf = "high", 0.7
        yield Finding(explanation=text, severity=sev, confidence=conf,
                      evidence={"lines": _lines(h), "values": {"column": h.col,
                                                               "target": h.target,
                                                               "known_from": h.how}},
                      suggestion=f"Drop `{h.col}` from the features (e.g. "
                                 f"`X = df.drop(columns=[{h.col!r}, …])`, or list the "
                                 "features explicitly).")


@rule("target_leakage.feature_derived_from_target",
      title="A feature is computed from the target")
def feature_derived_from_target(ev: Evidence) -> Iterator[Finding]:
    """A column computed row by row from the target (price_per_sqft = price / sqft, a
    prescription given because of the diagnosis, a cancellation date that exists only for
    churners) is among the features. Group statistics (target encoding) and lagged copies
    (`.shift(1)`) are not reported here. Critical 0.88 (0.93 with kernel columns); medium when
    most features are random draws conditioned on the label (a class-conditional simulation)."""
    for h in _analyse(ev):
        if h.kind != "derived":
            continue
        kernel = h.how.startswith("kernel")
        where = f"line {h.extra['line']}" if h.extra.get("in_cell") else "an earlier cell"
        via = f" through `{h.extra['via']}`" if h.extra.get("via") else ""
        text = (f"Feature `{h.col}` is computed from the target `{h.target}`{via} ({where}) "
                f"and is passed to `{h.pair.call}` (line {h.pair.line}; {h.how}). It carries "
                "the label into the features (information only available once the outcome is "
                "known), so the score is inflated.")
        if h.extra.get("simulated"):
            sev, conf = "medium", 0.45
            text += (" (Most features here are drawn conditionally on the label, which may be a "
                     "deliberate simulation.)")
        elif h.extra.get("leading"):
            sev, conf = "medium", 0.4
            text = (f"Feature `{h.col}` comes from the target `{h.target}`{via}, but through a "
                    "random draw made before this cell (a simulated correlate), and "
                    f"`{h.extra['leading']}` reads as a quantity measured "
                    "before the outcome (a leading indicator or a part of the total known "
                    f"earlier); it is used by `{h.pair.call}` (line {h.pair.line}; {h.how}). "
                    "Only a feature recorded after the outcome would leak the label.")
        elif h.extra.get("variable") and h.extra.get("random"):
            # the outcome plus a random offset (`onset = rt - rng.normal(60, 6, n)`): the code
            # shows the direction (the feature follows the outcome), no kernel fact measures
            # how much of the target it carries
            sev, conf = "high", 0.7
            text += (f" (`{h.col}` is `{h.target}` with a random offset or noise added: a "
                     "measurement that follows the outcome and tracks it row by row.)")
        else:
            sev, conf = "critical", 0.93 if kernel else 0.88
            if h.pair.split_only:
                sev, conf = "high", 0.7
        yield Finding(explanation=text, severity=sev, confidence=conf,
                      evidence={"lines": _lines(h), "values": {"column": h.col,
                                                               "derived_from": h.target,
                                                               "known_from": h.how}},
                      suggestion=f"Remove `{h.col}` (and anything computed from "
                                 f"`{h.target}`) from the features; use only information "
                                 "available before the outcome.")


@rule("target_leakage.feature_from_target_source",
      title="A feature computed from the column the target was computed from")
def feature_from_target_source(ev: Evidence) -> Iterator[Finding]:
    """The target is a function of one column (`stale = days_on_market > 60`, `default =
    days_past_due >= 90`, `obese = bmi >= 30`) that is kept out of the features, but another
    feature was computed from that same column (`n_price_cuts` drawn from the days on the
    market, `late_fee = 15 * (days_past_due // 30)`, `bmi_band = pd.cut(bmi, ...)`): it
    carries the outcome's continuous version into the features, the same leak as keeping the
    column itself. Critical 0.85 for an exact function of the source; high 0.7 when random
    draws are involved (a noisy consequence of the source); medium when most features are such
    draws (a class-conditional simulation)."""
    for h in _analyse(ev):
        if h.kind != "sibling":
            continue
        x = h.extra
        where = f"line {x['line']}" if x.get("in_cell") else "an earlier cell"
        via = f" through `{x['via']}`" if x.get("via") else ""
        text = (f"The target `{h.target}` is computed from `{x['source']}` alone, which is kept "
                f"out of the features, but feature `{h.col}` is computed from `{x['source']}` "
                f"too{via} ({where}) and is passed to `{h.pair.call}` (line {h.pair.line}; "
                f"{h.how}). It carries the outcome's continuous measure into the features "
                f"(whatever `{x['source']}` records - time to the event, a later measurement - "
                "is only known once the outcome is), so the score is inflated.")
        if x.get("simulated"):
            sev, conf = "medium", 0.45
            text += (" (Most features here are drawn from that column, which may be a "
                     "deliberate simulation.)")
        elif x.get("random"):
            sev, conf = "high", 0.7
        else:
            sev, conf = "critical", 0.85
            if h.pair.split_only:
                sev, conf = "high", 0.7
        yield Finding(explanation=text, severity=sev, confidence=conf,
                      evidence={"lines": _lines(h),
                                "values": {"column": h.col, "target": h.target,
                                           "target_source": x["source"],
                                           "known_from": h.how}},
                      suggestion=(f"Drop `{h.col}` along with `{x['source']}`: build features "
                                  "only from what is known when the prediction is made (for "
                                  "a count that accumulates, cut it at the prediction date)."))


@rule("target_leakage.target_named_feature",
      title="A feature is named after the target")
def target_named_feature(ev: Evidence) -> Iterator[Finding]:
    """A feature whose name extends the target's (churn_date for churn, outcome_flag for
    outcome, price_per_sqft for price) is likely recorded after, or computed from, the outcome.
    Lag-like names (prev, lag, shift, rolling) are skipped. High 0.6: a name is suggestive,
    not proof."""
    for h in _analyse(ev):
        if h.kind != "named":
            continue
        auc = h.extra.get("auc")
        values: dict = {"column": h.col, "target": h.target}
        conf = 0.6
        if h.extra.get("prediction"):
            text = (f"Feature `{h.col}` names the target `{h.target}` together with a model's "
                    "output word (prediction, probability, score, classifier): it reads as a "
                    f"previous model's prediction of `{h.target}` kept in the data, and it is "
                    f"passed to `{h.pair.call}` (line {h.pair.line}). A model fed another "
                    "model's answer is scored on that answer (a score fitted on these very "
                    "labels leaks them).")
            conf = 0.7
        else:
            text = (f"Feature `{h.col}` is named after the target `{h.target}` and is "
                    f"passed to `{h.pair.call}` (line {h.pair.line}). Columns like this "
                    "are often recorded after, or derived from, the outcome; check that it "
                    "is known at prediction time.")
        if isinstance(auc, int | float):
            text += (f" On its own it ranks the classes of `{h.target}` with ROC AUC "
                     f"{auc:.3f} (kernel, row sample).")
            values["roc_auc"] = auc
        yield Finding(
            explanation=text, severity="high", confidence=conf,
            evidence={"lines": [h.pair.line], "values": values},
            suggestion=f"If `{h.col}` is only known once `{h.target}` is (or was fitted on "
                       "it), drop it from the features.")


@rule("target_leakage.post_outcome_feature",
      title="The strongest feature is named as a quantity measured after the outcome")
def post_outcome_feature(ev: Evidence) -> Iterator[Finding]:
    """A feature that on its own separates the classes of the target strongly (ROC AUC >= 0.85
    or <= 0.15 on the kernel's row sample), at least 0.1 ahead of every other column, and whose
    name marks it as measured at or after the outcome (length of stay, discharge, days_to_*,
    refund, final_*, resolution, closed, follow-up, post_*). Either alone is no evidence: many
    real predictors reach AUC 0.9, and names are only names. Medium 0.5."""
    for h in _analyse(ev):
        if h.kind == "drawn":
            # a column the code draws from the label, named as a consequence of the outcome
            yield _drawn_finding(h)
            continue
        if h.kind != "post":
            continue
        auc = float(h.extra["auc"])
        runner = float(h.extra["runner_up"])
        yield Finding(
            explanation=(f"Feature `{h.col}` separates the classes of `{h.target}` far better "
                         f"than any other column: ROC AUC {auc:.3f} on its own (kernel, row "
                         f"sample; the next best column reaches {runner:.2f}), and its name "
                         f"({h.extra['words']}) marks it as measured at or after the outcome. "
                         f"It is passed to `{h.pair.call}` (line {h.pair.line}; {h.how}). If "
                         f"it is only known once `{h.target}` has happened (or is driven by "
                         "it), the model reads the outcome and its score will not hold at "
                         "prediction time."),
            severity="medium", confidence=0.5,
            evidence={"lines": _lines(h),
                      "values": {"column": h.col, "target": h.target, "roc_auc": auc,
                                 "next_best_roc_auc": runner, "known_from": h.how}},
            suggestion=(f"Check when `{h.col}` is recorded relative to `{h.target}`; if after, "
                        "drop it and refit on what is known at prediction time (compare the "
                        "score with and without it)."))


def _drawn_finding(h: _Hit) -> Finding:
    """The code that built the data draws a feature from the label variable itself
    (`np.where(won == 1, draw, 0)`, `label * ...`, a value looked up by a quantity fixed by
    the label) and the feature's name marks it as something that follows the outcome (a
    treatment started, a contract clause, a reward state, a benefit fixed at claiming).
    Class-conditional draws are also how simulated markers are written, so the draw alone is
    no evidence; with the name it is worth a check. Medium 0.5."""
    x = h.extra
    where = f"line {x['line']}" if x.get("in_cell") else "an earlier cell"
    via = f" (through `{x['seed']}`)" if x.get("seed") and x["seed"] != h.col else ""
    text = (f"Feature `{h.col}`{via} is drawn from `{x['label_var']}`, the variable the "
            f"target `{h.target}` copies (defined {'at ' if x.get('in_cell') else 'in '}"
            f"{where}): its values depend on the outcome itself, and its name "
            f"({x['words']}) marks it as something that happens once the outcome is known. "
            f"It is passed to `{h.pair.call}` (line {h.pair.line}; "
            f"{h.how}), so the model can read the label through it and its score will not "
            "hold at prediction time.")
    values: dict = {"column": h.col, "target": h.target, "label_variable": x["label_var"],
                    "known_from": h.how}
    if isinstance(x.get("auc"), int | float):
        text += (f" On its own it ranks the classes of `{h.target}` with ROC AUC "
                 f"{x['auc']:.3f} (kernel, row sample).")
        values["roc_auc"] = x["auc"]
    return Finding(
        explanation=text, severity="medium", confidence=0.5,
        evidence={"lines": _lines(h), "values": values},
        suggestion=(f"Check when `{h.col}` is recorded relative to `{h.target}`; if it "
                    "follows the outcome, drop it and refit on what is known at prediction "
                    "time (compare the score with and without it)."))


@rule("target_leakage.outcome_only_feature",
      title="A feature recorded only for rows that have the outcome")
def outcome_only_feature(ev: Evidence) -> Iterator[Finding]:
    """A feature that the kernel finds 0 or missing for (almost) every row of one class of the
    target and set for most rows of the other: a record that exists because of the outcome (a
    closing bill issued to leavers, the rework passes of units that failed inspection, a
    refund, a cancellation date, a chargeback count), typically merged in from a log kept
    after the event. The model reads the outcome from whether the record exists. High: 0.8
    when the split is clean (at least 99% unset in one class, at most 10% in the other), 0.7
    otherwise; the data show the pattern, only the timeline can prove it is post-outcome."""
    for h in _analyse(ev):
        if h.kind != "indicator":
            continue
        za, zb, a, b = (h.extra["shares"] + [None, None, None, None])[:4]
        if not isinstance(za, int | float) or not isinstance(zb, int | float):
            continue
        if za >= zb:
            unset_cls, set_cls, unset, set_share = a, b, za, 1 - zb
        else:
            unset_cls, set_cls, unset, set_share = b, a, zb, 1 - za
        clean = unset >= 0.99 and set_share >= 0.9
        yield Finding(
            explanation=(f"Feature `{h.col}` is 0 or missing for {unset:.0%} of the rows with "
                         f"`{h.target}` = {unset_cls!r} but set for {set_share:.0%} of those with "
                         f"`{h.target}` = {set_cls!r} (kernel), and it is passed to "
                         f"`{h.pair.call}` (line {h.pair.line}; {h.how}). A value that exists "
                         "almost only for one outcome is usually recorded because of it (a "
                         "closing bill, a refund, a rework or follow-up log merged in after the "
                         "event): the model reads the label from whether the record exists, so "
                         "the score will not hold when predicting before the outcome."),
            severity="high", confidence=0.8 if clean else 0.7,
            evidence={"lines": _lines(h),
                      "values": {"column": h.col, "target": h.target,
                                 f"unset share ({h.target}={unset_cls!r})": unset,
                                 f"set share ({h.target}={set_cls!r})": round(set_share, 3),
                                 "known_from": h.how}},
            suggestion=(f"Check when `{h.col}` is recorded; if it is only known after "
                        f"`{h.target}` (or because of it), drop it and rebuild the features "
                        "from what is known at prediction time (cut any event log at the "
                        "prediction date before merging it)."))


@rule("target_leakage.feature_separates_classes",
      title="A single feature separates the classes almost perfectly")
def feature_separates_classes(ev: Evidence) -> Iterator[Finding]:
    """A feature of a classifier that by itself ranks the two classes of the target almost
    perfectly (ROC AUC >= 0.98 or <= 0.02 on the kernel's row sample). Real predictors rarely
    do that; a value recorded after or because of the outcome (a final status, a settlement
    amount, a follow-up measurement) does, and it is the first thing a reviewer checks when a
    score looks too good. Medium: the data show the separation, not its timeline, and some
    sound problems are that easy (iris setosa)."""
    for h in _analyse(ev):
        if h.kind != "separates":
            continue
        auc = float(h.extra["auc"])
        strength = max(auc, 1 - auc)
        yield Finding(
            explanation=(f"Feature `{h.col}` alone separates the classes of `{h.target}` almost "
                         f"perfectly: ROC AUC {auc:.3f} (kernel, on a row sample), and it is "
                         f"passed to `{h.pair.call}` (line {h.pair.line}; {h.how}). A single "
                         "column that tells the outcome apart this well is often recorded "
                         "after or because of it; if so, the model's score will not hold "
                         "when it predicts before the outcome is known."),
            severity="medium", confidence=0.6 if strength >= 0.995 else 0.5,
            evidence={"lines": _lines(h),
                      "values": {"column": h.col, "target": h.target, "roc_auc": auc,
                                 "known_from": h.how}},
            suggestion=(f"Check when `{h.col}` becomes known relative to `{h.target}`. If it "
                        "is only known after the outcome, drop it; if it is a genuine "
                        "predictor, say so next to the score (and compare with a model "
                        "without it)."))


TRACKS_TARGET = 0.98  # ROC AUC (either direction) or |Pearson r| of one feature alone
_LAG_WORDS = re.compile(r"\.shift\(|\.diff\(|\blag|_prev\b|\bprev_")


@rule("target_leakage.feature_tracks_target",
      title="One feature alone predicts the target almost exactly")
def feature_tracks_target(ev: Evidence) -> Iterator[Finding]:
    """A model fitted on (X, y) where one column of X alone ranks the two classes of y almost
    perfectly (ROC AUC >= 0.98 or <= 0.02) or tracks a continuous y almost exactly (|r| >=
    0.98), measured in the kernel on the very arrays or frames passed to the fit. This needs
    no column names and no code that built the data: it is what a reviewer checks first when
    a score looks too good (a peak stage that defines the flood label, an onset time that is
    the reaction time minus a delay, a toxin only measured after the infection). Medium: the
    data show the strength, not its timeline, and some relations are genuinely that tight.
    Lagged copies of the target (forecasting features) and single-feature fits (calibration
    curves) are left alone."""
    if not ev.fits:
        return
    reported = {h.col for h in _analyse(ev)}
    seen: set[str] = set()
    text = ev.prior_code + "\n" + ev.code
    for f in ev.fits:
        if f.n_columns < 2 or not f.top or f.kind not in ("auc", "r"):
            continue
        col, value = next(iter(f.top.items()))
        strength = max(value, 1 - value) if f.kind == "auc" else abs(value)
        if strength < TRACKS_TARGET or col in reported or col in seen:
            continue
        lagged = [ln for ln in text.splitlines() if _LAG_WORDS.search(ln) and (
            col.startswith("[") or col in ln)]
        if lagged:
            continue  # a lag or difference of the series: what forecasting features are
        seen.add(col)
        others = [abs(v - 0.5) + 0.5 if f.kind == "auc" else abs(v)
                  for k, v in f.top.items() if k != col]
        runner = max(others, default=None)
        what = (f"ROC AUC {value:.3f} for the classes of `{f.y}`" if f.kind == "auc" else
                f"Pearson r {value:+.3f} with `{f.y}`")
        feature = f"column {col} of `{f.x}`" if col.startswith("[") else f"`{col}`"
        gap = f"; the next strongest of its {f.n_columns} columns reaches {runner:.2f}" \
            if runner is not None else ""
        yield Finding(
            explanation=(f"Feature {feature} alone predicts the target almost exactly: {what} "
                         f"(kernel, on {f.n} rows of the data passed to `{f.call}` at line "
                         f"{f.line}{gap}). A feature this tight is often recorded after or "
                         "because of the outcome (or computed from it); if so, the model's "
                         "score will not hold when it predicts before the outcome is known."),
            severity="medium", confidence=0.6 if strength >= 0.995 else 0.5,
            evidence={"lines": [f.line],
                      "values": {"feature": col, "features": f.x, "target": f.y,
                                 "kind": f.kind, "value": value, "rows": f.n,
                                 "next_strongest": runner}},
            suggestion=(f"Check when {feature} becomes known relative to `{f.y}`. If it is "
                        "only known after the outcome or derived from it, drop it; if it is a "
                        "genuine predictor, say so next to the score and compare with a model "
                        "without it."))


def an_src(ev: Evidence, node: ast.AST) -> str:
    return ev.model.src(node)[:60]


# -- centred windows: values from the future in a feature or the target ---------------------

_CENTRED_FILTERS = {"uniform_filter1d", "gaussian_filter1d", "median_filter", "uniform_filter",
                    "gaussian_filter", "savgol_filter", "filtfilt", "sosfiltfilt", "medfilt"}
_FIT_CALLS = {"fit", "fit_transform", "cross_val_score", "cross_validate", "cross_val_predict",
              "train_test_split", "OLS", "Logit", "GLM", "ols", "logit", "glm", "DMatrix",
              "Dataset"}
_PREDICTIVE = {"predict", "predict_proba", "score", "cross_val_score", "cross_validate",
               "cross_val_predict", "train_test_split", "TimeSeriesSplit", "forecast",
               "accuracy_score", "roc_auc_score", "mean_squared_error", "r2_score",
               "mean_absolute_error", "f1_score", "log_loss"}


def _centred_window(call, model) -> str | None:  # type: ignore[no-untyped-def]
    """How `call` looks ahead: a centred rolling window, a centred filter, a 'same' convolution."""
    last = call.last
    if last == "rolling" and call.kwarg_value("center") is True:
        return "`rolling(..., center=True)`"
    if last in _CENTRED_FILTERS and (call.name or "").startswith("scipy") and \
            call.kwarg_value("origin", 0) in (0, None):
        return f"`{last}` (a centred / zero-phase filter)"
    if (last == "convolve" and call.kwarg_value("mode") == "same") or (
            last == "convolve" and len(call.node.args) >= 3 and isinstance(
                call.node.args[2], ast.Constant) and call.node.args[2].value == "same"):
        return "`np.convolve(..., mode='same')` (a centred kernel)"
    return None


def _shifted_after(stmt: ast.stmt, call: ast.Call) -> bool:
    """`x.rolling(5, center=True).mean().shift(3)`: shifted back into the past."""
    for sub in _walk(stmt):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                sub.func.attr == "shift" and any(n is call for n in _walk(sub.func.value)):
            arg = sub.args[0] if sub.args else next(
                (k.value for k in sub.keywords if k.arg == "periods"), None)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, int) and arg.value > 0:
                return True
    return False


def _defined(stmt: ast.stmt) -> tuple[str | None, str | None]:
    """(frame, column) for `df["c"] = ...`, (name, None) for `s = ...`."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else (
        [stmt.target] if isinstance(stmt, ast.AnnAssign | ast.AugAssign) else [])
    for t in targets:
        if isinstance(t, ast.Name):
            return t.id, None
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
            sl = t.slice
            if isinstance(sl, ast.Constant) and isinstance(sl.value, str):
                return t.value.id, sl.value
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
            return t.value.id, t.attr
    return None, None


def _assign_col(call_node: ast.AST, stmt: ast.stmt) -> tuple[str | None, str | None]:
    """`df = df.assign(smooth=x.rolling(..., center=True).mean())`."""
    for sub in _walk(stmt):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                sub.func.attr == "assign":
            for k in sub.keywords:
                if k.arg and any(n is call_node for n in _walk(k.value)):
                    name, _ = _defined(stmt)
                    return name, k.arg
    return None


@rule("target_leakage.centered_window_feature",
      title="Centred window (future values) in a model's feature or target")
def centered_window_feature(ev: Evidence) -> Iterator[Finding]:
    """A centred rolling mean / zero-phase filter at time t averages values after t. Used as a
    feature (or target) of a model that is evaluated out of sample, it hands the model the
    future it is meant to predict. Trailing windows, or centred ones shifted back by at least
    half the window, are fine; so is smoothing only for a plot or a description."""
    if ev.tree is None:
        return
    model = ev.model
    calls = model.calls
    if not any(c.last in _PREDICTIVE for c in calls):
        return
    fits = [c for c in calls if c.last in _FIT_CALLS]
    if not fits:
        return
    strings = model.string_constants
    for c in calls:
        how = _centred_window(c, model)
        if how is None or _shifted_after(c.stmt, c.node):
            continue
        got = _assign_col(c.node, c.stmt)
        frame, col = got if got else _defined(c.stmt)
        # a `df["col"] = ...` definition is itself one mention of the column's name
        need = 2 if not got and col and col in strings else 1
        if frame is None:
            continue
        fed: list[int] = []
        for f in fits:
            if f.line < c.line:
                continue
            args = list(f.node.args) + [k.value for k in f.node.keywords]
            if isinstance(f.node.func, ast.Attribute):
                args.append(f.node.func.value)
            if not any(model.expr_depends_on(a, frame) for a in args):
                continue
            if col is None:
                fed.append(f.line)
                continue
            mentioned = sum(1 for s in strings if s == col or (re.search(
                r"(?<![\w])" + re.escape(col) + r"(?![\w])", s) and "~" in s))
            wide = any(d.last in ("drop", "select_dtypes", "pop") for d in calls
                       if d.line > c.line)
            if mentioned >= need or wide:
                fed.append(f.line)
        if not fed:
            continue
        what = f"`{frame}.{col}`" if col else f"`{frame}`"
        yield Finding(
            explanation=(f"Line {c.line} builds {what} with {how}: the value at time t "
                         "averages observations after t. It then feeds the model fitted on "
                         f"line {fed[0]} and evaluated out of sample, so every prediction "
                         "already sees part of the future it is scored on (for a target "
                         "defined by the next period, the feature contains it). The reported "
                         "accuracy is not achievable in real time."),
            severity="critical", confidence=0.85,
            evidence={"lines": sorted({c.line, *fed[:3]}), "values": {}},
            suggestion=("Use a trailing window (`rolling(k)` without `center=True`, or shift "
                        "the centred result by `k // 2 + 1` periods), or a causal filter "
                        "(`lfilter`, `ewm`), so each row only uses values up to its own time."))


# -- features aggregated over the whole observation period ----------------------------------

_TIME_COL = re.compile(r"(?i)^(?:week|wk|day|date|month|period|time|timestamp|ts|event_time|"
                       r"event_date|session_date|day_of_course|week_no|week_num|month_no)$")
_TERMINAL_OUTCOME = {"completed", "complete", "completion", "dropout", "dropped", "drop",
                     "churn", "churned", "retained", "retention", "survived", "died", "death",
                     "cancelled", "canceled", "defaulted", "graduated", "readmitted",
                     "attrition", "quit", "lapsed", "finished", "renewed"}
_EARLY = ("early", "in advance", "before", "at enrol", "at signup", "at sign-up",
          "first week", "at admission", "ahead")


def _group_aggregate_roots(value: ast.AST) -> list[tuple[ast.Call, str]]:
    """(groupby call, frame) for `frame.groupby(k)...agg/sum/count/size(...)` in `value`."""
    out = []
    for n in _walk(value):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                n.func.attr in _REDUCTIONS | {"agg", "aggregate", "size", "nunique"}:
            inner = n.func.value
            while isinstance(inner, ast.Subscript | ast.Attribute):
                inner = inner.value
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and \
                    inner.func.attr == "groupby":
                out.append((inner, inner.func.value))
    return [(g, root_name(base)) for g, base in out if root_name(base)]  # type: ignore


@rule("target_leakage.whole_period_aggregate",
      title="Features aggregated over the whole period, including after the outcome")
def whole_period_aggregate(ev: Evidence) -> Iterator[Finding]:
    """Per-unit features summed or counted over an event log with a time column (weeks, days,
    dates) without restricting it to the time the prediction is made, used to predict a
    terminal outcome (completion, dropout, churn, survival): units that dropped out or churned
    have no events after that point, so the totals encode the label. Quiet when the log is
    filtered on its time column before the aggregation. High (0.65) when the cell says the
    prediction is early / in advance; medium (0.5) otherwise."""
    if ev.tree is None or "groupby" not in ev.code or not (
            set(re.findall(r"[a-z]+", ev.code.lower())) & _TERMINAL_OUTCOME):
        return
    an = _Analysis(ev)
    m = ev.model
    for pair in an.pairs():
        tgt = an.target(pair.y, pair.pos)
        if tgt is None or not any(set(id_tokens(c)) & _TERMINAL_OUTCOME for c in tgt.cols):
            continue
        x_root = root_name(pair.x)
        if not x_root:
            continue
        names = [x_root, *sorted(m.dependencies(x_root))]
        for name in names:
            for a in m.assigned_at(name):
                if a.value is None:
                    continue
                for g, frame in _group_aggregate_roots(a.value):
                    facts = ev.objects.get(frame)
                    if facts is None or facts.kind != "dataframe":
                        continue
                    times = [c for c in facts.dtypes if _TIME_COL.match(c)]
                    keys = {n.value for n in _walk(g) if isinstance(n, ast.Constant)}
                    if not times or keys & set(times):
                        continue  # no time column, or aggregated per period
                    # a filter on the time column on the way: log.query("week <= 3"),
                    # log[log.week <= 3], an earlier `early = log[log.day < 14]`
                    chain = ev.code if a.stmt is None else m.src(a.value)
                    filtered = any(re.search(rf"\b{re.escape(t)}\b", chain) for t in times)
                    for fa in m.assigned_at(frame):
                        if fa.value is not None and any(
                                re.search(rf"\b{re.escape(t)}\b", m.src(fa.value))
                                for t in times):
                            filtered = True
                    if filtered:
                        continue
                    text = " ".join(ev.model.string_constants).lower() + ev.code.lower()
                    early = any(w in text for w in _EARLY)
                    target = sorted(tgt.cols)[0]
                    yield Finding(
                        explanation=f"`{name}` (line {a.line}) aggregates `{frame}` per unit "
                                    f"over its whole `{times[0]}` range, and is used to "
                                    f"predict `{target}` ({pair.call}, line {pair.line}). "
                                    "Units that reach the outcome (drop out, churn, die) stop "
                                    "generating events, so whole-period totals are partly "
                                    "recorded after, and caused by, the outcome: the features "
                                    "encode the label and the score is optimistic.",
                        severity="high" if early else "medium",
                        confidence=0.65 if early else 0.5,
                        evidence={"lines": sorted({a.line, pair.line}),
                                  "values": {"frame": frame, "time_column": times[0],
                                             "target": target}},
                        suggestion=f"Aggregate only the events known when the prediction is "
                                   f"made (e.g. `{frame}.query(\"{times[0]} <= 3\")` before "
                                   "the groupby), or per period before the outcome date.")
                    return


RULES = [target_in_features, feature_derived_from_target, feature_from_target_source,
         post_outcome_feature,
         target_named_feature,
         outcome_only_feature, feature_separates_classes, feature_tracks_target,
         centered_window_feature,
         whole_period_aggregate]
