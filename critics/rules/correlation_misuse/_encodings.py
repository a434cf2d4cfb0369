"""Which variables hold numeric codes of categories or ranks (for `pearson_on_codes`).

The words and names of ordinal levels and nominal categories, the encodings a cell and the
cells before it build (`_Encodings`: LabelEncoder / OrdinalEncoder, `.cat.codes`, `factorize`,
a `map` to ints, `pd.cut`/`qcut` bin numbers, `np.digitize`, KBinsDiscretizer), the kernel's
facts on a variable, and the classification and severity of a coded variable.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from itertools import pairwise

from ...ast_cache import walk as _walk
from ...code_model import CallSite, called_name, root_name
from ...evidence import Evidence
from ...stat_tests import PROBES
from ._scan import _const, _number, _src, _str, _Var, _var_of

_ORDINAL_WORDS = re.compile(
    r"(?i)^(?:very\s*)?(?:low|lower|medium|mid|middle|moderate|high|higher|small|large|"
    r"never|rarely|seldom|sometimes|occasionally|often|usually|always|"
    r"strongly\s*disagree|disagree|neutral|agree|strongly\s*agree|somewhat\s*\w+|"
    r"poor|fair|good|very\s*good|excellent|bad|average|"
    r"none|mild|moderate|severe|minimal|"
    r"primary|secondary|high\s*school|hs|college|some\s*college|bachelor'?s?|master'?s?|"
    r"phd|doctorate|graduate|undergraduate|diploma|"
    r"xs|s|m|l|xl|xxl|junior|senior|entry|lead|principal|"
    r"first|second|third|fourth|fifth|bronze|silver|gold|platinum|"
    r"[<>]?\s*\$?\d+[kK]?\s*(?:-|to|\u2013)\s*\$?\d+[kK]?|\d+\+|under\s*\S+|over\s*\S+)$")
_ORDINAL_NAME = re.compile(
    r"(?i)likert|(?:^|_)q\d+|(?:^|_)item_?\d+|rating|satisf|agree|education|(?:^|_)edu|"
    r"bracket|(?:^|_)band|income_?(?:group|level|cat|class)|(?:^|_)tier|severity|stage|"
    r"(?:^|_)grade|(?:^|_)level|(?:^|_)rank|frequency|(?:^|_)score_?cat|(?:^|_)nps|"
    r"pain_?score|stars?$|opinion|attitude|importance|likelihood|scale|"
    r"(?:^|_)bins?(?:_|$)|bucket|(?:dec|quint|quart|terc|percent)iles?(?:_|$)")
_NOMINAL_NAME = re.compile(
    r"(?i)(?:^|_)zip|postal|postcode|fips|(?:^|_)id$|^id_|_code$|^code|phone|"
    r"(?:^|_)(?:city|country|state|region|color|colour|department|dept|brand|genre|species|"
    r"breed|blood_?type|marital|occupation|job|race|ethnicity|religion|nationality|"
    r"category|product_?type|channel|store|team|make|model)(?:_?(?:code|id|enc|encoded|"
    r"label|num|idx|cat))?$")
_ENCODER_HINT = re.compile(
    r"LabelEncoder|OrdinalEncoder|\.codes|factorize|\.map\(|\.replace\(|ordered|"
    r"\bq?cut\(|digitize\(|searchsorted\(|KBinsDiscretizer|return_inverse")


@dataclass
class _Coded:
    kind: str  # "nominal" | "ordinal" | "id" | "few" | "binned" | "binned_equal"
    how: str
    line: int | None
    from_facts: bool
    by_name: bool = False  # only the column's name and integer values suggest the coding


class _Encodings:
    """Columns and variables that hold codes, read from this cell and earlier cells."""

    def __init__(self, ev: Evidence):
        self.m = ev.model
        self.cols: dict[tuple[str | None, str], _Coded] = {}
        self.frames: dict[str, _Coded] = {}  # every column of the frame encoded
        self._ordered_cats: set[str] = set()
        self._dicts: dict[str, ast.Dict] = {}
        self._lists: dict[str, ast.AST] = {}  # names bound to literal lists / linspace…
        self._binned: set[str] = set()  # names and columns holding pd.cut categories
        for tree, code, here in ((self.m._prior_tree, ev.prior_code, False),
                                 (self.m.tree, ev.code, True)):
            if _ENCODER_HINT.search(code):
                self._scan(tree, here)

    def _scan(self, tree: ast.AST, here: bool) -> None:
        for node in _walk(tree):
            if isinstance(node, ast.Assign):
                self._assign(node, here)
            elif isinstance(node, ast.For):
                self._loop(node, here)

    def _kind_of_value(self, value: ast.AST) -> tuple[str, str] | None:
        """('nominal'|'ordinal', how) when `value` computes category codes."""
        for sub in _walk(value):
            if isinstance(sub, ast.Attribute) and sub.attr == "codes":
                inner = _src(self.m.evidence, sub.value)
                if re.search(r"\bq?cut\(", inner) or (
                        self._binned and set(re.findall(r"\w+", inner)) & self._binned):
                    return "binned", "codes of `pd.cut` bins"
                if "ordered=True" in inner or any(n in inner for n in self._ordered_cats):
                    return "ordinal", "ordered categorical codes"
                return "nominal", "`.cat.codes`"
            if not isinstance(sub, ast.Call):
                continue
            f = sub.func
            attr = f.attr if isinstance(f, ast.Attribute) else (
                f.id if isinstance(f, ast.Name) else "")
            binned = self._bin_codes(sub, attr)
            if binned is not None:
                return binned
            if attr in ("fit_transform", "transform"):
                recv = f.value if isinstance(f, ast.Attribute) else None
                enc = self._encoder_of(recv)
                if enc == "LabelEncoder":
                    return "nominal", "LabelEncoder"
                if enc == "OrdinalEncoder":
                    has_cats = isinstance(recv, ast.Call) and any(
                        k.arg == "categories" for k in recv.keywords)
                    return ("ordinal", "OrdinalEncoder(categories=…)") if has_cats else (
                        "nominal", "OrdinalEncoder (alphabetical order)")
            if attr == "factorize":
                return "nominal", "`factorize`"
            if attr == "unique" and (self.m.dotted(f) or "").startswith("numpy.") and any(
                    k.arg == "return_inverse" and _const(k.value) is True
                    for k in sub.keywords):
                src = _var_of(self.m, sub.args[0]) if sub.args else None
                facts = _facts_of(self.m.evidence, src, None) if src is not None else None
                if facts is not None and facts[0].startswith(
                        ("int", "uint", "float", "Int", "UInt", "Float", "bool")):
                    continue  # the ranks of numbers, not labels
                return "nominal", "`np.unique(return_inverse=True)` codes"
            mapping = sub.args[0] if sub.args else None
            if isinstance(mapping, ast.Name):
                mapping = self._dicts.get(mapping.id)
            if attr in ("map", "replace") and isinstance(mapping, ast.Dict):
                d = mapping
                keys = [_str(k) for k in d.keys]
                ints = all(isinstance(v, ast.Constant) and isinstance(v.value, int)
                           and not isinstance(v.value, bool) for v in d.values)
                if not ints or not keys or None in keys or len(keys) < 3:
                    continue
                ordinal_keys = sum(1 for k in keys if k and _ORDINAL_WORDS.match(k.strip()))
                source = _src(self.m.evidence, f.value) if isinstance(f, ast.Attribute) else ""
                if 2 * ordinal_keys >= len(keys) or _ORDINAL_NAME.search(source):
                    return "ordinal", "a map of ordered labels to integers"
                return "nominal", "a map of category labels to integers"
        return None

    def _bin_codes(self, call: ast.Call, attr: str) -> tuple[str, str] | None:
        """Integer bin numbers: `pd.cut(x, edges, labels=False)`, `pd.qcut(x, 5,
        labels=False)`, `np.digitize(x, edges)`, `KBinsDiscretizer(encode="ordinal")`.
        ('binned', how) for bins of unequal (or unknown) width, ('binned_equal', how) for
        equal-width bins, whose numbers are a coarsened copy of the quantity."""
        if attr in ("cut", "qcut"):
            name = self.m.dotted(call.func) or ""
            if not name.startswith("pandas."):
                return None
            labels = next((k.value for k in call.keywords if k.arg == "labels"), None)
            if labels is None and len(call.args) > 2:
                labels = call.args[2]
            int_labels = isinstance(labels, ast.List | ast.Tuple) and labels.elts and all(
                isinstance(e, ast.Constant) and isinstance(e.value, int) for e in labels.elts)
            if not (isinstance(labels, ast.Constant) and labels.value is False) and \
                    not int_labels:
                return None  # categories, not numbers (their `.cat.codes` are handled above)
            if attr == "qcut":
                return "binned", "`pd.qcut` quantile-bin numbers (bins of unequal width)"
            bins = call.args[1] if len(call.args) > 1 else next(
                (k.value for k in call.keywords if k.arg == "bins"), None)
            return self._by_width(bins, "`pd.cut` bin numbers")
        if attr == "digitize" and (self.m.dotted(call.func) or "").startswith("numpy."):
            bins = call.args[1] if len(call.args) > 1 else next(
                (k.value for k in call.keywords if k.arg == "bins"), None)
            return self._by_width(bins, "`np.digitize` bin numbers")
        if attr == "searchsorted" and (self.m.dotted(call.func) or "").startswith("numpy."):
            edges = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "a"), None)
            return self._by_width(edges, "`np.searchsorted` bin numbers")
        if attr in ("fit_transform", "transform") and isinstance(call.func, ast.Attribute):
            recv = call.func.value
            if self._encoder_of(recv) == "KBinsDiscretizer":
                ctor = recv if isinstance(recv, ast.Call) else None
                if ctor is None and isinstance(recv, ast.Name):
                    ctor = next((a.value for a in self.m.assigned_at(recv.id)
                                 if isinstance(a.value, ast.Call)), None)
                kws = {k.arg: k.value for k in ctor.keywords} if ctor is not None else {}
                if _str(kws.get("encode")) != "ordinal":
                    return None  # one-hot columns, not codes
                if _str(kws.get("strategy")) == "uniform":
                    return "binned_equal", "`KBinsDiscretizer` equal-width bin numbers"
                return "binned", "`KBinsDiscretizer` quantile/k-means bin numbers"
        return None

    def _by_width(self, bins: ast.AST | None, what: str) -> tuple[str, str]:
        if isinstance(bins, ast.Name):
            bins = self._lists.get(bins.id, bins)
        if isinstance(bins, ast.Constant) and isinstance(bins.value, int):
            return "binned_equal", f"{what} of {bins.value} equal-width bins"
        if isinstance(bins, ast.Call) and called_name(bins) in ("linspace", "arange"):
            return "binned_equal", f"{what} of equal-width bins"
        if isinstance(bins, ast.List | ast.Tuple):
            edges = [_number(e) for e in bins.elts]
            finite = [e for e in edges if e is not None and math.isfinite(e)]
            if len(finite) == len(edges) >= 3:
                widths = [b - a for a, b in pairwise(finite)]
                if max(widths) - min(widths) <= 1e-9 * max(1.0, abs(max(widths))):
                    return "binned_equal", f"{what} of equal-width bins"
            return "binned", f"{what} (bins of unequal width)"
        return "binned", f"{what} (bins of unknown, possibly unequal width)"

    def _encoder_of(self, recv: ast.AST | None) -> str | None:
        if isinstance(recv, ast.Call):
            name = self.m.dotted(recv.func) or (
                recv.func.id if isinstance(recv.func, ast.Name) else "")
            return name.rsplit(".", 1)[-1] if name else None
        if isinstance(recv, ast.Name):
            t = self.m.type_of(recv.id)
            if t:
                return t.rsplit(".", 1)[-1]
        return None

    def _entry(self, value: ast.AST) -> _Coded | None:
        """The coding of one entry put into a dict or frame: codes computed inline, or a
        variable or column already known to hold codes."""
        kind = self._kind_of_value(value) if isinstance(value, ast.Call | ast.Attribute |
                                                          ast.Subscript) else None
        if kind is not None and _codes_position(value) is not None:
            return _Coded(kind[0], kind[1], getattr(value, "lineno", None), False)
        v = _var_of(self.m, value)
        return self.lookup(v) if (v.name or v.column) else None

    def _container(self, node: ast.Assign, here: bool) -> None:
        """`drivers = {"cuisine": codes, …}`, `X = pd.DataFrame({"city": codes, …})`,
        `df.assign(city=codes)`, `drivers["cuisine"] = codes`: the entry holds codes."""
        value = node.value
        entries: list[tuple[str | None, ast.AST]] = []
        if isinstance(value, ast.Dict):
            entries = [(_str(k), v) for k, v in zip(value.keys, value.values, strict=True)]
        elif isinstance(value, ast.Call) and called_name(value) in ("DataFrame", "dict",
                                                                    "assign"):
            a0 = value.args[0] if value.args else None
            if isinstance(a0, ast.Dict):
                entries = [(_str(k), v) for k, v in zip(a0.keys, a0.values, strict=True)]
            entries += [(k.arg, k.value) for k in value.keywords if k.arg]
        elif isinstance(value, ast.Name | ast.Attribute | ast.Subscript):
            for t in node.targets:  # drivers["cuisine"] = codes
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                        _str(t.slice) is not None and t.value.id in self._dicts:
                    coded = self._entry(value)
                    if coded is not None:
                        self.cols[(t.value.id, _str(t.slice) or "")] = _Coded(
                            coded.kind, coded.how, node.lineno if here else None, False)
            return
        for key, v in entries:
            coded = self._entry(v) if key is not None else None
            if coded is None:
                continue
            coded = _Coded(coded.kind, coded.how, node.lineno if here else None, False)
            for t in node.targets:
                if isinstance(t, ast.Name):
                    self.cols[(t.id, key)] = coded

    def _assign(self, node: ast.Assign, here: bool) -> None:
        value = node.value
        self._container(node, here)
        if isinstance(value, ast.Dict):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    self._dicts[t.id] = value
            return
        if isinstance(value, ast.List | ast.Tuple) or (
                isinstance(value, ast.Call) and called_name(value) in ("linspace", "arange")):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    self._lists[t.id] = value
            return
        if isinstance(value, ast.Call) and called_name(value) in ("cut", "qcut"):
            for t in node.targets:  # `df["band"] = pd.cut(df.income, edges)`: categories
                label = t.id if isinstance(t, ast.Name) else _str(
                    t.slice) if isinstance(t, ast.Subscript) else None
                if label:
                    self._binned.add(label)
        if isinstance(value, ast.Call) and _str(value.args[0] if value.args else None) \
                is None and any(k.arg == "ordered" for k in value.keywords):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    self._ordered_cats.add(t.id)
        kind = self._kind_of_value(value)
        # df = df.apply(LabelEncoder().fit_transform)
        if kind is None and isinstance(value, ast.Call) and isinstance(
                value.func, ast.Attribute) and value.func.attr == "apply" and value.args:
            a0 = value.args[0]
            if isinstance(a0, ast.Attribute) and a0.attr == "fit_transform" and \
                    self._encoder_of(a0.value) == "LabelEncoder":
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        self.frames[t.id] = _Coded("nominal", "LabelEncoder on every column",
                                                   node.lineno if here else None, False)
                return
        if kind is None:
            return
        pos = _codes_position(value)
        if pos is None:
            return  # `np.unique(x, return_inverse=True)[0]`: the levels, not the codes
        coded = _Coded(kind[0], kind[1], node.lineno if here else None, False)
        for t in node.targets:
            for target in (t.elts[pos:pos + 1] if isinstance(t, ast.Tuple) else [t]):
                if isinstance(target, ast.Name):
                    self.cols[(None, target.id)] = coded
                elif isinstance(target, ast.Subscript):
                    frame = root_name(target.value)
                    sl = target.slice
                    names = [_str(sl)] if _str(sl) else [
                        _str(e) for e in sl.elts] if isinstance(sl, ast.List | ast.Tuple) \
                        else []
                    for col in names:
                        if col:
                            self.cols[(frame, col)] = coded

    def _loop(self, node: ast.For, here: bool) -> None:
        """`for c in ["city", "color"]: df[c] = le.fit_transform(df[c])`."""
        if not isinstance(node.target, ast.Name):
            return
        var = node.target.id
        cols = [_str(e) for e in node.iter.elts] if isinstance(
            node.iter, ast.List | ast.Tuple) else None
        for stmt in node.body:
            if not isinstance(stmt, ast.Assign):
                continue
            kind = self._kind_of_value(stmt.value)
            if kind is None:
                continue
            for t in stmt.targets:
                if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Name) and \
                        t.slice.id == var:
                    frame = root_name(t.value)
                    coded = _Coded(kind[0], kind[1], stmt.lineno if here else None, False)
                    if cols:
                        for c in cols:
                            if c:
                                self.cols[(frame, c)] = coded
                    elif frame:
                        self.frames[frame] = _Coded(kind[0], kind[1] + " on some columns",
                                                    coded.line, False)

    def lookup(self, v: _Var) -> _Coded | None:
        if v.column is not None:
            found = self.cols.get((v.frame, v.column))
            if found is None:
                found = next((c for (fr, col), c in self.cols.items()
                              if col == v.column and fr is not None
                              and v.frame is not None
                              and self.m.depends_on(v.frame, fr)), None)
            return found
        if v.name is not None:
            found = self.cols.get((None, v.name))
            if found is None:  # x = df["city_code"] …
                for a in self.m.assigned_at(v.name):
                    if a.value is not None:
                        inner = _var_of(self.m, a.value)
                        if inner.column is not None:
                            return self.lookup(inner)
            return found
        return None


def _codes_position(value: ast.AST) -> int | None:
    """Where the codes sit in what `value` returns: 0 for `pd.factorize` (codes, uniques)
    and for a plain array of codes, the inverse's place in `np.unique(…,
    return_inverse=True)`; None when `value` picks out another element (`…[1]` of factorize,
    `…[0]` of np.unique)."""
    call, index = value, None
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Call) and isinstance(
            value.slice, ast.Constant) and isinstance(value.slice.value, int):
        call, index = value.value, value.slice.value
    pos = 0
    if isinstance(call, ast.Call) and called_name(call) == "unique" and any(
            k.arg == "return_inverse" and _const(k.value) is True for k in call.keywords):
        pos = 2 if any(k.arg == "return_index" and _const(k.value) is True
                       for k in call.keywords) else 1
    elif not (isinstance(call, ast.Call) and called_name(call) == "factorize"):
        return 0
    if index is None:
        return pos
    return 0 if index == pos else None


def _facts_of(ev: Evidence, v: _Var, call: CallSite | None) -> tuple[str, int, bool] | None:
    """(dtype, distinct values, integer-valued) for a variable, from the kernel."""
    if call is not None:
        for s in ev.samples:
            # (fits and coefficients read only for their group split are left to the frame
            # facts, as before they were read)
            if s.line == call.line and s.expr == v.label and s.call not in PROBES:
                return ("int" if s.integer_valued else "float"), s.n_unique, s.integer_valued
    if v.frame is not None and v.column is not None:
        for s in ev.samples:  # an entry of a dict/list of samples (`drivers['cuisine']`)
            if s.line == 0 and s.expr == f"{v.frame}[{v.column!r}]":
                return ("int" if s.integer_valued else "float"), s.n_unique, s.integer_valued
        f = ev.objects.get(v.frame)
        if f is not None and v.column in f.dtypes:
            dt = f.dtypes[v.column]
            return dt, f.unique.get(v.column, 0), _is_int(dt)
    if v.name is not None:
        f = ev.objects.get(v.name)
        if f is not None and f.kind in ("series", "ndarray") and "" in f.dtypes:
            dt = f.dtypes[""]
            return dt, f.unique.get("", 0), _is_int(dt) or (
                bool(f.values) and all(x == int(x) for x in f.values or []))
    return None


def _is_int(dtype: str) -> bool:
    return dtype.startswith(("int", "uint", "Int", "UInt")) or dtype == "category"


def _classify(ev: Evidence, enc: _Encodings, v: _Var,
              call: CallSite | None) -> _Coded | None:
    facts = _facts_of(ev, v, call)
    if facts is not None and 0 < facts[1] <= 2:
        return None  # binary: Pearson is the point-biserial / phi coefficient
    coded = enc.lookup(v)
    if coded is None and v.frame is not None and v.frame in enc.frames:
        coded = enc.frames[v.frame]
        if facts is not None and not facts[2]:
            coded = None  # a float column was not among the encoded ones
    ident = v.column or v.name or ""
    if coded is not None:
        return _Coded(coded.kind, coded.how, coded.line,
                      facts is not None and facts[2] and facts[1] >= 3)
    if facts is None:
        return None  # a name alone, without the kernel's facts, is too weak
    dtype, n_unique, integer = facts
    if not integer:
        return None
    if _ORDINAL_NAME.search(ident) and n_unique <= 11:
        return _Coded("ordinal", f"integer codes with {n_unique} levels", None, True,
                      by_name=True)
    if _NOMINAL_NAME.search(ident):
        return _Coded("id", f"an identifier/code column ({n_unique} distinct integers)",
                      None, True)
    if dtype == "category":
        return _Coded("nominal", "a categorical column's codes", None, True)
    if 3 <= n_unique <= 7:
        return _Coded("few", f"integers with only {n_unique} distinct values", None, True)
    return None


def _severity(c: _Coded, matrix: bool) -> tuple[str, float]:
    if c.kind == "nominal":
        if c.from_facts:
            return ("high", 0.8) if matrix else ("critical", 0.85)
        return "high", 0.7
    if c.kind == "ordinal":
        return "high", 0.8 if c.from_facts else 0.65
    if c.kind == "id":
        return "high", 0.75
    if c.kind == "binned":
        return "high", 0.8 if c.from_facts else 0.7
    if c.kind == "binned_equal":
        return "medium", 0.4  # a handful of ordered levels; a coarsened copy at best
    return "medium", 0.45
