"""Correlation misuse.

- `pearson_on_codes`: Pearson's r (`pearsonr`, `np.corrcoef`, `df.corr()`, `Series.corr`,
  `pingouin.corr`) on numeric codes of categories or ranks: label-encoded nominal categories
  (LabelEncoder, `.cat.codes`, `factorize`, a `map` to ints), Likert items, education or
  income brackets, zip codes and ids; and bin numbers (`pd.cut`/`qcut(labels=False)`,
  `np.digitize`, `KBinsDiscretizer(encode="ordinal")`) of unequal-width bins. Simple linear
  fits on one such variable (`linregress`, `np.polyfit(deg=1)`, a one-predictor `smf.ols` /
  `sm.OLS`) make the same interval assumption. Pearson measures linear association between
  interval quantities; on arbitrary codes the coefficient is not meaningful.
- `causal_language`: a correlation reported as causation ("X drives Y", "leads to").
- `pooled_across_groups`: a correlation or slope on rows pooled across groups (products,
  schools, sites) that explain most of both variables, reversing the within-group relation
  (Simpson's paradox) or carrying all of it (an ecological correlation), read from the
  kernel's within/between split of the pair along the source frame's grouping columns.
- `autocorrelated_series`: a correlation or slope between two time series that each trend,
  cycle or wander (strong lag-1 autocorrelation of both samples, rows visibly in time
  order): shared time structure, and a p-value that counts every time step as independent.
"""

from __future__ import annotations

import ast
import copy
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from ..ast_cache import walk as _walk
from ..code_model import CallSite, CodeModel, called_name, root_name
from ..evidence import Evidence
from ..findings import Finding
from ..rule import rule
from ..stat_tests import PROBES
from . import _columns

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
_CAUSAL = re.compile(
    r"(?i)\b(?:causes?|caused|causing|leads?\s+to|led\s+to|drives?|driving|drove|"
    r"(?<=\w\s)results?\s+in|resulting\s+in|is\s+responsible\s+for|"
    r"(?:the\s+)?(?:causal\s+)?effect\s+of\s+\w+\s+on|impact\s+of\s+\w+\s+on|"
    r"(?:will|would)\s+(?:increase|decrease|raise|lower|reduce|improve|boost)|"
    r"makes?\s+(?:people|customers|users|patients|students)|boosts?|"
    r"(?<!as\s)(?:reduces|lowers|raises|improves|prevents|hurts|harms|protects\s+against)|"
    r"increasing\s+\w+\s+(?:will|would)|if\s+we\s+(?:increase|raise|cut|reduce)|"
    # a per-unit slope read as an intervention: "each extra driver adds 0.4 late drops",
    # "every additional hour of tutoring raises the score by 2 points"
    r"(?:each|every|one|an?)\s+(?:extra|additional|more|further)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:adds?|causes?|creates?|generates?|costs?|saves?|brings?|buys?|increases?|decreases?|"
    r"raises?|lowers?|cuts?|reduces?|removes?|prevents?|produces?)|"
    # a change to X that "should / will / would" change Y: "trimming the roster by 3
    # drivers should save ~12 a day", "cutting prices would lift sales"
    r"(?:trimming|cutting|reducing|increasing|adding|removing|raising|lowering|doubling|"
    r"halving|hiring|dropping)\s+(?:[^.;:\n]{0,60}?)\b(?:should|will|would|could)\s+"
    r"(?:save|cut|reduce|increase|add|lower|raise|improve|prevent|lift|boost|avoid|"
    r"remove|eliminate|bring)|"
    r"\bbecause\s+(?:there\s+(?:are|were|is)\s+)?(?:more|fewer|less|higher|lower)\s+\w+)\b")
_HEDGE = re.compile(
    r"(?i)not\s+(?:imply|necessarily|mean|prove|establish)\s+caus|causation|not\s+causal|"
    r"correlation\s+(?:is\s+)?not|no\s+causal|cannot\s+(?:infer|conclude)|"
    r"observational|confound")
_ENCODER_HINT = re.compile(
    r"LabelEncoder|OrdinalEncoder|\.codes|factorize|\.map\(|\.replace\(|ordered|"
    r"\bq?cut\(|digitize\(|searchsorted\(|KBinsDiscretizer|return_inverse")
_CORR_CALLS = ("pearsonr", "spearmanr", "kendalltau", "pointbiserialr", "corrcoef",
               "linregress", "corr", "corrwith", "polyfit")


def _src(ev: Evidence, node: ast.AST) -> str:
    return ev.source_of(node)


@dataclass
class _Var:
    label: str
    frame: str | None
    column: str | None
    name: str | None  # a plain variable


@dataclass
class _Coded:
    kind: str  # "nominal" | "ordinal" | "id" | "few" | "binned" | "binned_equal"
    how: str
    line: int | None
    from_facts: bool
    by_name: bool = False  # only the column's name and integer values suggest the coding


def _str(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _number(node: ast.AST) -> float | None:
    """A literal number; `np.inf`, `float("inf")` and `-np.inf` are infinite."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(
            node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Attribute) and node.attr in ("inf", "Inf", "infty"):
        return math.inf
    if isinstance(node, ast.Call) and called_name(node) == "float" and node.args and _str(
            node.args[0]) in ("inf", "-inf", "Infinity"):
        return float(_str(node.args[0]) or "inf")
    return None


def _var_of(m: CodeModel, node: ast.AST) -> _Var:
    """`df["edu"]`, `df.edu`, `df["edu"].values`, `codes` -> frame/column/name."""
    label = _src(m.evidence, node)
    while True:
        if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("to_numpy", "astype", "dropna", "ravel", "tolist",
                                   "fillna", "copy"):
            node = node.func.value
        else:
            break
    if isinstance(node, ast.Subscript):
        base = node.value
        col = _str(node.slice)
        if isinstance(base, ast.Attribute) and base.attr == "loc" and isinstance(
                node.slice, ast.Tuple) and len(node.slice.elts) == 2:
            col = _str(node.slice.elts[1])
            base = base.value
        if col is not None:
            return _Var(label, root_name(base), col, None)
    if isinstance(node, ast.Attribute):
        return _Var(label, root_name(node.value), node.attr, None)
    if isinstance(node, ast.Name):
        return _Var(label, None, None, node.id)
    return _Var(label, root_name(node), None, None)


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


def _is_pearson(call: CallSite) -> bool:
    method = call.kwarg_value("method", None)
    if method is None and call.method in ("corr", "corrwith") and call.node.args:
        first = _str(call.node.args[0])
        if first is not None:
            method = first
    return method in (None, "pearson")


def _sites(ev: Evidence) -> list[tuple[CallSite, str, list[ast.AST], bool]]:
    """(call, what, variable expressions, is a matrix) for each correlation on variables."""
    m = ev.model
    out: list[tuple[CallSite, str, list[ast.AST], bool]] = []
    for c in m.calls:
        last = c.last
        if last in ("pearsonr", "spearmanr", "kendalltau") and (
                (c.name or "").startswith("scipy") or c.name == last or "." not in (c.name or "")):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, last, args, False))
        elif last == "linregress" and (
                (c.name or "").startswith("scipy") or c.name == last or "." not in (c.name or "")):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "linregress", args, False))
        elif last == "polyfit" and (c.name or "").startswith("numpy") and \
                _const(c.arg(2, "deg")) == 1:
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "np.polyfit", args, False))
        elif last in ("ols", "OLS") and (c.name or "").startswith("statsmodels"):
            x = _single_regressor(c)
            if x is not None:
                out.append((c, f"{'smf.ols' if last == 'ols' else 'sm.OLS'}", [x], False))
        elif last == "corr" and (c.name or "").startswith("pingouin"):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "pingouin.corr", args, False))
        elif last == "corrcoef" and (c.name or "").startswith("numpy"):
            args = [a for a in (c.arg(0, "x"), c.arg(1, "y")) if a is not None]
            out.append((c, "np.corrcoef", args, len(args) == 1))
        elif c.method == "corr" and c.receiver is not None and not (
                c.name or "").startswith("pingouin"):
            other = c.arg(0, "other")
            if other is not None and _str(other) is None:
                out.append((c, "Series.corr", [c.receiver, other], False))
            else:
                out.append((c, "DataFrame.corr", [c.receiver], True))
        elif c.method == "corrwith" and c.receiver is not None:
            out.append((c, "DataFrame.corrwith", [c.receiver], True))
    return out


_LINEAR_FITS = ("linregress", "np.polyfit", "smf.ols", "sm.OLS")


def _const(node: ast.AST | None) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def _single_regressor(c: CallSite) -> ast.AST | None:
    """The one predictor of a simple linear regression: `smf.ols("y ~ band", data=df)` ->
    `df["band"]`; `sm.OLS(y, sm.add_constant(df["band"]))` -> `df["band"]`. None when the
    model has several predictors or treats it as categorical (`C(band)`)."""
    if c.last == "ols":
        formula, data = _str(c.arg(0, "formula")), c.arg(1, "data")
        if formula is None or "~" not in formula or not isinstance(data, ast.Name):
            return None
        terms = [t.strip() for t in formula.split("~", 1)[1].split("+")]
        terms = [t for t in terms if t not in ("1", "0", "-1")]
        if len(terms) != 1:
            return None
        mt = re.fullmatch(r"(?:Q\(['\"])?([A-Za-z_]\w*)(?:['\"]\))?", terms[0])
        if mt is None:
            return None  # C(x), np.log(x), interactions
        return ast.Subscript(value=data, slice=ast.Constant(mt.group(1)), ctx=ast.Load())
    exog = c.arg(1, "exog")
    if isinstance(exog, ast.Call) and called_name(exog) == "add_constant" and exog.args:
        exog = exog.args[0]
    if isinstance(exog, ast.Subscript) and isinstance(exog.slice, ast.List) and len(
            exog.slice.elts) == 1 and _str(exog.slice.elts[0]) is not None:
        return ast.Subscript(value=exog.value, slice=exog.slice.elts[0], ctx=ast.Load())
    if isinstance(exog, ast.Attribute) or (
            isinstance(exog, ast.Subscript) and _str(exog.slice) is not None):
        return exog
    return None


def _matrix_columns(ev: Evidence, node: ast.AST) -> tuple[str | None, list[str]]:
    """The frame and the columns a `df.corr()` / `df[cols].corr()` includes."""
    m = ev.model
    cols: list[str] | None = None
    base = node
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.List | ast.Tuple):
        cols = [s for s in (_str(e) for e in node.slice.elts) if s]
        base = node.value
    elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name):
        base = node.value
        for a in m.assigned_at(node.slice.id):
            if isinstance(a.value, ast.List | ast.Tuple):
                cols = [s for s in (_str(e) for e in a.value.elts) if s]
    dropped: set[str] = set()
    floats_only = False
    while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and \
            base.func.attr in ("select_dtypes", "dropna", "copy", "drop", "assign",
                               "reset_index", "fillna"):
        call = base
        if call.func.attr == "drop":  # type: ignore[attr-defined]
            target = next((k.value for k in call.keywords if k.arg == "columns"), None)
            axis = next((k.value for k in call.keywords if k.arg == "axis"), None)
            if target is None and call.args and isinstance(axis, ast.Constant) and \
                    axis.value in (1, "columns"):
                target = call.args[0]
            if target is not None:
                dropped |= {s for s in (_str(e) for e in (
                    target.elts if isinstance(target, ast.List | ast.Tuple) else [target])) if s}
        elif call.func.attr == "select_dtypes":  # type: ignore[attr-defined]
            include = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "include"), None)
            floats_only = "float" in (_src(ev, include) if include is not None else "")
        base = call.func.value  # type: ignore[attr-defined]
    frame = root_name(base)
    f = ev.objects.get(frame) if frame else None
    if cols is None:
        if f is not None and f.kind == "dataframe":
            kinds = ("float", "Float") if floats_only else (
                "int", "uint", "float", "Int", "UInt", "Float", "bool")
            cols = [c for c, dt in f.dtypes.items() if dt.startswith(kinds)]
        else:
            cols = []
    return frame, [c for c in cols if c not in dropped]


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


def _reported_strings(ev: Evidence) -> list[tuple[int, str]]:
    """Text the cell writes for people: print/f-strings, titles and labels, markdown."""
    out: list[tuple[int, str]] = []
    for c in ev.model.calls:
        if c.last in ("print", "display", "Markdown", "title", "set_title", "suptitle",
                      "xlabel", "ylabel", "set_xlabel", "set_ylabel", "annotate", "text"):
            for node in _walk(c.node):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    out.append((c.line, node.value))
    return out


_FORMULA_MODELS = {"ols", "glm", "logit", "probit", "poisson", "negativebinomial", "wls",
                   "rlm", "quantreg"}


def _bivariate_model(c: CallSite) -> bool:
    """`smf.ols("y ~ x", df)`: a statsmodels formula with one regressor, i.e. a simple
    regression — a correlation in another form. A model with covariates (an adjusted
    estimate) is not."""
    if c.last not in _FORMULA_MODELS or not c.name or "statsmodels" not in c.name:
        return False
    f = c.kwarg("formula") or (c.node.args[0] if c.node.args else None)
    if not (isinstance(f, ast.Constant) and isinstance(f.value, str)) or "~" not in f.value:
        return False
    rhs = f.value.split("~", 1)[1]
    terms = [t for t in re.split(r"[+*:]", rhs) if t.strip() and t.strip() not in ("1", "0")]
    return len(terms) == 1


@rule("correlation_misuse.causal_language",
      title="Correlation reported as causation")
def causal_language(ev: Evidence) -> Iterator[Finding]:
    """A cell that computes a correlation and words the result causally."""
    if ev.tree is None:
        return
    m = ev.model
    corr = [c for c in m.calls if (c.last in _CORR_CALLS and (
        c.last != "corr" or c.receiver is not None)) or _bivariate_model(c)]
    if not corr:
        return
    texts = _reported_strings(ev)
    out_text = ev.text
    if _HEDGE.search(out_text) or any(_HEDGE.search(t) for _, t in texts):
        return
    found: list[tuple[int | None, str]] = []
    for line, t in texts:
        mt = _CAUSAL.search(t)
        if mt:
            found.append((line, t.strip()))
    output_hit = _CAUSAL.search(out_text)
    if not found and not output_hit:
        return
    if output_hit:
        start = max(0, output_hit.start() - 60)
        quote = out_text[start:output_hit.end() + 60].strip().splitlines()
        quote_txt = next((q for q in quote if output_hit.group(0) in q), quote[0] if quote
                         else output_hit.group(0))
    else:
        quote_txt = found[0][1]
    lines = sorted({ln for ln, _ in found if ln} | {corr[0].line})
    yield Finding(
        explanation=(f"The cell computes a correlation (line {corr[0].line}) and reports it in "
                     f"causal terms: \"{quote_txt[:160]}\". A correlation in observational "
                     "data does not show that one variable causes the other (confounding, "
                     "reverse causation, selection)."),
        severity="medium", confidence=0.55 if output_hit else 0.45,
        evidence={"lines": lines, "quotes": [quote_txt[:200]]},
        suggestion=("Report it as an association (\"X is associated with Y, r = …\"), name "
                    "plausible confounders, and keep causal claims for designs that support "
                    "them (randomised experiments, or an explicit causal model)."),
    )


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


# -- ratios that share a denominator --------------------------------------------------------------

_PASS_THROUGH = {"round", "astype", "to_numpy", "fillna", "abs", "copy", "clip"}


def _key_of(node: ast.AST) -> str | None:
    """A comparable key for a column or variable: `df.pop`, `df["pop"]`, `pop` -> "pop"."""
    while (isinstance(node, ast.Attribute) and node.attr in ("values", "array")) or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in _PASS_THROUGH):
        node = node.value if isinstance(node, ast.Attribute) else node.func.value  # type: ignore[union-attr]
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        col = _str(node.slice)
        if col is not None:
            return col
    if isinstance(node, ast.Name):
        return node.id
    return None


def _ratio_parts(node: ast.AST) -> tuple[str, str] | None:
    """(numerator key, denominator key) of `a / b`, `1e5 * a / b`, `a / b * 100`,
    `(a / b).round(2)`, `a.div(b)`, `np.divide(a, b)`; None for anything else or a
    constant denominator."""
    for _ in range(6):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            if _number(node.left) is not None:
                node = node.right
                continue
            if _number(node.right) is not None:
                node = node.left
                continue
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _PASS_THROUGH:
            node = node.func.value
            continue
        break
    num = den = None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        num, den = node.left, node.right
        while isinstance(num, ast.BinOp) and isinstance(num.op, ast.Mult) and (
                _number(num.left) is not None or _number(num.right) is not None):
            num = num.right if _number(num.left) is not None else num.left
    elif isinstance(node, ast.Call) and called_name(node) in ("div", "truediv", "divide"):
        if isinstance(node.func, ast.Attribute) and called_name(node) != "divide" and node.args:
            num, den = node.func.value, node.args[0]
        elif len(node.args) == 2:
            num, den = node.args
    if num is None or den is None or _number(den) is not None:
        return None
    nk, dk = _key_of(num), _key_of(den)
    if nk is None or dk is None or nk == dk:
        return None
    return nk, dk


def _ratio_defs(m: CodeModel) -> dict[str, tuple[str, str, int]]:
    """Names and columns defined as a ratio (this cell and earlier ones):
    key -> (numerator, denominator, line in this cell or 0)."""
    out: dict[str, tuple[str, str, int]] = {}
    for tree, here in ((m._prior_tree, False), (m.tree, True)):
        for node in _walk(tree):
            pairs: list[tuple[ast.AST, ast.AST, int]] = []
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    elts = t.elts if isinstance(t, ast.Tuple | ast.List) else [t]
                    vals = node.value.elts if isinstance(node.value, ast.Tuple) and isinstance(
                        t, ast.Tuple | ast.List) and len(node.value.elts) == len(elts) else None
                    for i, e in enumerate(elts):
                        pairs.append((e, vals[i] if vals else node.value, node.lineno))
            elif isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg:
                        pairs.append((ast.Name(id=kw.arg), kw.value, kw.value.lineno))
            for target, value, line in pairs:
                key = _key_of(target)
                parts = _ratio_parts(value) if key else None
                if key and parts:
                    out[key] = (*parts, line if here else 0)
    return out


@rule("correlation_misuse.shared_denominator",
      title="Correlation between two ratios that share a denominator")
def shared_denominator(ev: Evidence) -> Iterator[Finding]:
    """Correlating x/z with y/z (two per-capita rates, two shares of the same total) builds a
    correlation in through the common, noisy denominator: even unrelated counts x and y give a
    clear r once both are divided by the same varying z (Pearson's spurious correlation of
    ratios). Found for scipy/numpy/pandas correlations and simple regressions whose two
    variables are ratios with the same denominator, written inline or defined as names or
    columns. Medium (0.5): per-capita comparisons can be what is meant, but the correlation
    then needs the denominator controlled (a partial correlation, a count model with an
    offset)."""
    if ev.tree is None or ("/" not in ev.code + ev.prior_code and "div" not in ev.code):
        return
    sites = _sites(ev)
    if not sites:
        return
    m = ev.model
    defs: dict[str, tuple[str, str, int]] | None = None
    for call, what, exprs, matrix in sites:
        if defs is None:
            defs = _ratio_defs(m)
        variables: list[tuple[str, tuple[str, str, int]]] = []
        if matrix and what != "np.corrcoef":
            if what != "DataFrame.corr":
                continue
            _frame, cols = _matrix_columns(ev, exprs[0])
            variables = [(c, defs[c]) for c in cols if c in defs]
        else:
            if what == "sm.OLS":
                continue
            if what == "smf.ols":  # "rate_a ~ rate_b": both sides of the formula
                formula = _str(call.arg(0, "formula")) or ""
                exprs = []
                for ident in re.findall(r"[A-Za-z_]\w*", formula):
                    if ident in defs and all(v[0] != ident for v in variables):
                        variables.append((ident, defs[ident]))
            for e in exprs:
                inline = _ratio_parts(e)
                key = _key_of(e)
                if inline is not None:
                    variables.append((_src(ev, e), (*inline, call.line)))
                elif key is not None and key in defs:
                    variables.append((key, defs[key]))
        found = None
        for i, (a, (an, ad, al)) in enumerate(variables):
            for b, (bn, bd, bl) in variables[i + 1:]:
                if ad == bd and an != bn:
                    found = (a, b, ad, [x for x in (al, bl) if x])
                    break
            if found:
                break
        if found is None:
            continue
        a, b, den, lines = found
        yield Finding(
            explanation=(f"`{what}` (line {call.line}) correlates `{a}` with `{b}`, and both "
                         f"are ratios over the same denominator `{den}`. Dividing two "
                         f"unrelated quantities by a shared, varying `{den}` makes them "
                         "correlated by itself (Pearson's spurious correlation of ratios): "
                         "part or all of this correlation comes from the common denominator, "
                         "not from a link between the numerators."),
            severity="medium", confidence=0.5,
            evidence={"lines": sorted({call.line, *lines}),
                      "values": {"variables": [a, b], "denominator": den}},
            suggestion=(f"Control for `{den}` instead of dividing both sides by it: a partial "
                        f"correlation of the counts given `{den}` (correlate the residuals of "
                        f"each count regressed on log `{den}`), or a count model with "
                        f"`offset=np.log({den})`; at least show that the correlation survives "
                        f"when `{den}` is held roughly fixed (within strata)."))
        return


# -- a part correlated with a whole that contains it -------------------------------------------

_ROW_TOTALS = {"sum", "mean", "nansum", "nanmean", "average"}


@dataclass
class _Total:
    key: str  # the total's name or column
    frame: str | None  # the frame it is a column of (None for a plain variable)
    source: str | None  # the frame/matrix whose columns were summed (None: named terms)
    parts: list[str] | None  # the summed columns (None: every column of `source`)
    line: int  # line in this cell (0: an earlier cell)


def _row_total_parts(ev: Evidence, value: ast.AST) -> tuple[str | None, list[str] | None] | None:
    """(source, parts) when `value` adds up (or averages) several columns row by row:
    `df[cols].sum(axis=1)`, `np.sum(M, axis=1)`, `M.mean(1)`, `df.a + df.b + df.c`."""
    if isinstance(value, ast.Call) and called_name(value) in ("round", "astype") and \
            isinstance(value.func, ast.Attribute):
        value = value.func.value
    if isinstance(value, ast.Call) and called_name(value) in _ROW_TOTALS:
        f = value.func
        module = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
            f.value.id in ("np", "numpy")
        if isinstance(f, ast.Attribute) and not module:
            data = f.value
            axis = next((k.value for k in value.keywords if k.arg == "axis"),
                        value.args[0] if value.args else None)
        elif value.args:
            data = value.args[0]
            axis = next((k.value for k in value.keywords if k.arg == "axis"),
                        value.args[1] if len(value.args) > 1 else None)
        else:
            return None
        if not (isinstance(axis, ast.Constant) and axis.value in (1, "columns")):
            return None
        if isinstance(data, ast.Subscript):
            base, sl = data.value, data.slice
            if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
                if base.attr == "iloc" or not (isinstance(sl, ast.Tuple) and len(sl.elts) == 2):
                    return None
                base, sl = base.value, sl.elts[1]
            cols = _columns.columns(ev, sl)
            if cols is None or len(cols[1]) < 2 or not isinstance(base, ast.Name):
                return None
            return base.id, cols[1]
        if isinstance(data, ast.Name):
            return data.id, None
        return None
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        terms: list[ast.AST] = []
        stack: list[ast.AST] = [value]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                stack += [n.right, n.left]
            else:
                terms.append(n)
        keys = [_key_of(t) for t in terms]
        frames = {root_name(t) for t in terms if isinstance(t, ast.Attribute | ast.Subscript)}
        if len(terms) < 2 or None in keys or len(set(keys)) < len(keys) or len(frames) > 1:
            return None
        return (next(iter(frames)) if frames else None), [k for k in keys if k]
    return None


def _totals(ev: Evidence) -> dict[str, _Total]:
    m = ev.model
    out: dict[str, _Total] = {}
    for tree, here in ((m._prior_tree, False), (m.tree, True)):
        owner = _assign_owners(tree)
        for node in _walk(tree):
            pairs: list[tuple[ast.AST, ast.AST]] = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                pairs.append((node.targets[0], node.value))
            elif isinstance(node, ast.Call) and called_name(node) == "assign":
                frame = owner.get(id(node)) or (root_name(node.func) if isinstance(
                    node.func, ast.Attribute) else None)
                pairs += [(ast.Subscript(value=ast.Name(id=frame), slice=ast.Constant(k.arg))
                           if frame else ast.Name(id=k.arg), k.value)
                          for k in node.keywords if k.arg]
            for target, value in pairs:
                key = _key_of(target) if isinstance(target, ast.Name | ast.Subscript |
                                                    ast.Attribute) else None
                if key is None:
                    continue
                found = _row_total_parts(ev, value)
                if found is None:
                    continue
                source, parts = found
                frame = root_name(target) if not isinstance(target, ast.Name) else None
                out[key] = _Total(key, frame, source, parts,
                                  getattr(value, "lineno", 0) if here else 0)
    return out


def _assign_owners(tree: ast.AST) -> dict[int, str]:
    """`df2 = df.assign(total=...).query(...)`: the frame (`df2`) each `.assign` call's new
    columns end up in."""
    out: dict[int, str] = {}
    for node in _walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], ast.Name):
            n = node.value
            while isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                if n.func.attr == "assign":
                    out[id(n)] = node.targets[0].id
                n = n.func.value
    return out


def _component(ev: Evidence, call: CallSite, node: ast.AST, total: _Total) -> list[str]:
    """The parts of `total` that `node` stands for: `df["essay"]`, `M[:, j]`, `df[s]` for a
    loop over parts, `df[parts]` (several)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _PASS_THROUGH:
        node = node.func.value
    if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    if not isinstance(node, ast.Subscript | ast.Attribute):
        return []
    root = root_name(node)
    if total.parts is None:  # every column of a matrix / frame: M[:, j], df.iloc[:, j]
        base = node.value if isinstance(node, ast.Subscript) else None
        if isinstance(base, ast.Attribute) and base.attr == "iloc":
            base = base.value
        if isinstance(base, ast.Name) and base.id == total.source:
            return [ast.unparse(node)]
        return []
    if total.source is not None and root != total.source and not (
            total.frame is not None and root == total.frame):
        return []
    key = _key_of(node)
    if key is not None and key in total.parts:
        return [key]
    if isinstance(node, ast.Subscript):
        sl = node.slice
        if isinstance(sl, ast.Name):
            it = _columns.enclosing_loop_iter(ev, call.node, sl.id)
            cols = _columns.columns(ev, it) if it is not None else None
            if cols is not None:
                return [c for c in cols[1] if c in total.parts]
        cols = _columns.columns(ev, sl) if not isinstance(sl, ast.Constant) else None
        if cols is not None:
            return [c for c in cols[1] if c in total.parts]
    return []


def _is_total(node: ast.AST, total: _Total) -> bool:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _PASS_THROUGH:
        node = node.func.value
    if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    if _key_of(node) != total.key:
        return False
    if total.frame is None:
        return isinstance(node, ast.Name)
    return root_name(node) == total.frame


@rule("correlation_misuse.part_whole",
      title="A component correlated with a total that contains it")
def part_whole(ev: Evidence) -> Iterator[Finding]:
    """Correlating each part of a sum with the sum itself (an exam section with the total
    mark, a spending category with total spending, an item with its scale score): the part
    is on both sides, so r is inflated by construction, and most for the parts with the
    largest variance, whatever their real relation to the others. Found for scipy/numpy/
    pandas correlations whose one side is a row total (`df[cols].sum(axis=1)`, `a + b + c`,
    `M.sum(axis=1)`, a mean of columns) and whose other side is one of its columns, including
    loops over the parts and `df[parts].corrwith(df.total)`. High (0.7) for a total of at most
    ten parts, medium (0.5) for more (the inflation shrinks). Quiet for part-rest
    correlations (`total - part`)."""
    if ev.tree is None or not any(k in ev.code + ev.prior_code for k in
                                  ("sum", "mean", "average", "+")):
        return
    sites = _sites(ev)
    if not sites:
        return
    totals = _totals(ev)
    if not totals:
        return
    for call, what, exprs, matrix in sites:
        pairs: list[tuple[ast.AST, ast.AST]] = []
        if what == "DataFrame.corrwith":
            other = call.arg(0, "other")
            if other is not None:
                pairs.append((exprs[0], other))
        elif not matrix and len(exprs) == 2:
            pairs += [(exprs[0], exprs[1]), (exprs[1], exprs[0])]
        hit = None
        for part, whole in pairs:
            for total in totals.values():
                if not _is_total(whole, total):
                    continue
                parts = _component(ev, call, part, total)
                if parts:
                    hit = (total, parts, part, whole)
                    break
            if hit:
                break
        if hit is None:
            continue
        total, parts, part, whole = hit
        n_parts = len(total.parts) if total.parts is not None else None
        if total.parts is None:
            f = ev.objects.get(total.source or "")
            n_parts = f.shape[1] if f is not None and f.shape and len(f.shape) == 2 else None
        few = n_parts is not None and n_parts <= 10
        severity, confidence = ("high", 0.7) if few else ("medium", 0.5)
        shown = ", ".join(f"`{p}`" for p in parts[:4]) + (" …" if len(parts) > 4 else "")
        where = f"line {total.line}" if total.line else "an earlier cell"
        of = (f"the {n_parts} columns {', '.join(total.parts[:6])}"
              + (" …" if len(total.parts) > 6 else "") if total.parts is not None else
              f"every column of `{total.source}`")
        yield Finding(
            explanation=(f"`{what}` (line {call.line}) correlates {shown} with "
                         f"`{ev.source_of(whole)}`, a total of {of} ({where}) that contains "
                         f"{'it' if len(parts) == 1 else 'them'}. The part is on both sides of "
                         "the correlation, so r is inflated by construction - most for the "
                         "parts with the largest variance - and says little about how well "
                         "the part tracks the rest (a part-whole correlation)."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({call.line, *([total.line] if total.line else [])}),
                      "values": {"total": total.key, "parts": parts[:8],
                                 "n_parts": n_parts}},
            suggestion=("Correlate each part with the total of the other parts (the corrected "
                        "item-rest correlation: `pearsonr(df[c], df[parts].sum(axis=1) - "
                        "df[c])`), or compare parts with an external criterion rather than "
                        "with a sum they belong to."))
        return


# -- a correlation / slope pooled across groups that carry both variables (Simpson) -------------

_POOLED_NAMES = {
    "scipy.stats.pearsonr": "pearsonr", "scipy.stats.spearmanr": "spearmanr",
    "scipy.stats.kendalltau": "kendalltau", "scipy.stats.linregress": "linregress",
    "pingouin.corr": "pingouin.corr", "numpy.polyfit": "np.polyfit",
    "numpy.corrcoef": "np.corrcoef", "pandas.Series.corr": "Series.corr",
    "pandas.DataFrame.corr": "DataFrame.corr"}
_SLOPES = {"linregress", "np.polyfit"}
# what, next to a `groupby(g)` in one statement, makes it a per-group analysis or demeaning
_PER_GROUP = re.compile(r"corr|cov|apply|transform|pearsonr|spearmanr|kendalltau|linregress|"
                        r"polyfit|ols|OLS|regress|slope|demean")
# keywords that put a grouping into a model (random effects, covariates, clusters, absorbed
# fixed effects)
_GROUP_KWARGS = {"groups", "covar", "x_covar", "y_covar", "absorb", "entity_effects",
                 "cluster", "clusters", "fe", "fixed_effects", "re_formula", "vc_formula"}


def _names_column(ev: Evidence, node: ast.AST | None, col: str) -> bool:
    """The expression names column `col`: "col", ["col", ...], df.col, df["col"], or a
    variable bound to such a literal."""
    if node is None:
        return False
    for sub in _walk(node):
        if isinstance(sub, ast.Constant) and sub.value == col:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr == col:
            return True
        if isinstance(sub, ast.Name):
            bound = _columns.literal_assignment(ev, sub.id)
            if bound is not None and bound is not node and any(
                    isinstance(b, ast.Constant) and b.value == col for b in _walk(bound)):
                return True
    return False


def _controls_for(ev: Evidence, col: str) -> str | None:
    """How the cell already takes grouping `col` into account, if it does: correlations,
    fits or demeaning per group, a fixed effect / covariate in a model formula, a grouping
    in a mixed model or partial correlation, dummies of it."""
    m = ev.model
    term = re.compile(rf"(?:C\(\s*{re.escape(col)}\b|(?<![\w.]){re.escape(col)}(?![\w(]))")
    for node in _walk(m.tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                "~" in node.value and term.search(node.value.split("~", 1)[1]):
            return "a model formula with it as a term"
    loops = [n.iter for n in _walk(m.tree) if isinstance(n, ast.For | ast.AsyncFor)] + [
        g.iter for n in _walk(m.tree)
        if isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
        for g in n.generators]
    for c in m.calls:
        by_col = c.last == "groupby" and c.receiver is not None and (
            _names_column(ev, c.arg(0, "by"), col) or _names_column(ev, c.kwarg("level"), col))
        if by_col and (_PER_GROUP.search(ev.source_of(c.stmt)) or any(
                any(n is c.node for n in _walk(it)) for it in loops)):
            return "a per-group analysis (`groupby`)"
        if c.last == "get_dummies" and any(_names_column(ev, a, col) for a in (
                *c.node.args, *(k.value for k in c.node.keywords))):
            return "dummies of it in a model"
        for k in c.node.keywords:
            if k.arg in _GROUP_KWARGS and _names_column(ev, k.value, col):
                return f"`{k.arg}=` in `{c.last}`"
        if c.last in ("partial_corr", "pcorr", "partial_correlation") and any(
                _names_column(ev, a, col) for a in c.node.args):
            return "a partial correlation"
    return None


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


@rule("correlation_misuse.pooled_across_groups",
      title="Correlation or slope pooled across groups that reverse it (Simpson's paradox)")
def pooled_across_groups(ev: Evidence) -> Iterator[Finding]:
    """A correlation or straight-line slope computed on rows pooled across groups
    (categories, sites, products, schools) when the grouping explains most of the variance
    of both variables and the relation within the groups has the opposite sign: the pooled
    coefficient describes how the group means line up, not how y moves with x, and its sign
    is the reverse of what happens inside every group (Simpson's paradox). From the
    kernel's split of the pair along the source frame's grouping columns. High (0.75) for
    a reversal (|pooled r| >= 0.2, within-group r of the opposite sign with |r| >= 0.2,
    and the groups explain >= 50% of a variable's variance or most groups' own r is of the
    opposite sign); medium (0.5) for an ecological correlation (|pooled r| >= 0.4 carried
    by the group means while |within-group r| < 0.1). Quiet when the cell analyses the
    same grouping (per-group correlations, demeaning, a fixed effect `C(g)`, a mixed
    model's `groups=`, a partial correlation)."""
    if ev.tree is None or not any(s.groups for s in ev.samples):
        return
    per_call: dict[tuple[str, int], dict[str, dict]] = {}
    exprs: dict[tuple[str, int], dict[int | str, str]] = {}
    for s in ev.samples:
        if s.groups and s.call in _POOLED_NAMES:
            per_call.setdefault((s.call, s.line), s.groups)
            exprs.setdefault((s.call, s.line), {})[s.arg] = s.expr
    rank = {"high": 1, "medium": 0}
    best: dict[str, tuple[tuple[int, float], str, float, dict, tuple[str, int]]] = {}
    calls: dict[str, list[tuple[str, int]]] = {}
    for key, groups in per_call.items():
        for col, g in groups.items():
            r, w = g.get("r"), g.get("within_r")
            if r is None or w is None:
                continue
            eta = max(g.get("eta2_x") or 0.0, g.get("eta2_y") or 0.0)
            pos, neg = g.get("pos_groups") or 0, g.get("neg_groups") or 0
            opposite = neg if r > 0 else pos
            signed = pos + neg
            if abs(r) >= 0.2 and _sign(w) == -_sign(r) and abs(w) >= 0.2 and (
                    eta >= 0.5 or (signed >= 3 and opposite >= 2 / 3 * signed)):
                severity, confidence = "high", 0.75
            elif abs(r) >= 0.4 and abs(w) < 0.1 and eta >= 0.5:
                severity, confidence = "medium", 0.5
            else:
                continue
            order = (rank[severity], abs(w))
            calls.setdefault(col, []).append(key)
            if col not in best or order > best[col][0]:
                best[col] = (order, severity, confidence, g, key)
    best = {c: v for c, v in best.items() if _controls_for(ev, c) is None}
    if not best:
        return
    col, (_, severity, confidence, g, key) = max(best.items(), key=lambda kv: kv[1][0])
    others = [c for c in best if c != col]
    calls_of = calls[col]
    xy = exprs.get(key, {})
    x_name = xy.get(0, xy.get("x", "x"))
    y_name = xy.get(1, xy.get("y", "y"))
    lines = sorted({ln for _, ln in calls_of})
    names = list(dict.fromkeys(_POOLED_NAMES[c] for c, _ in calls_of))
    slope = any(n in _SLOPES for n in names)
    r, w = g["r"], g["within_r"]
    what = " and ".join(f"`{n}`" for n in names)
    share = (f"`{col}` ({g['n_groups']} groups) explains {g['eta2_x']:.0%} of the "
             f"variance of `{x_name}` and {g['eta2_y']:.0%} of `{y_name}`")
    between = (f"; the group means correlate at r = {g['between_r']:+.2f}"
               if g.get("between_r") is not None else "")
    signs = (f" ({g['neg_groups'] if r > 0 else g['pos_groups']} of "
             f"{g['pos_groups'] + g['neg_groups']} groups have their own r "
             f"{'negative' if r > 0 else 'positive'})" if g['pos_groups'] + g['neg_groups']
             else "")
    if severity == "high":
        meaning = (f"the pooled r = {r:+.2f} over {g['n']} rows, but within `{col}` r = "
                   f"{w:+.2f}{signs}: {share}{between}. The pooled "
                   f"{'slope' if slope else 'coefficient'} describes how the groups' "
                   "levels line up, and its sign is the reverse of the relation inside the "
                   "groups (Simpson's paradox)")
    else:
        meaning = (f"the pooled r = {r:+.2f} over {g['n']} rows, but within `{col}` r = "
                   f"{w:+.2f}: {share}{between}. The association is carried by differences "
                   "between the groups (an ecological correlation), not by how the "
                   "variables move together within a group")
    if others:
        meaning += f" (also along {', '.join(f'`{c}`' for c in others[:3])})"
    yield Finding(
        explanation=(f"{what} (line{'s' if len(lines) > 1 else ''} "
                     f"{', '.join(map(str, lines))}) pool{'s' if len(names) == 1 else ''} "
                     f"rows across the groups of `{col}`: {meaning}."),
        severity=severity, confidence=confidence,
        evidence={"lines": lines, "values": {
            "group": col, "pooled_r": r, "within_r": w, "between_r": g.get("between_r"),
            "eta2_x": g["eta2_x"], "eta2_y": g["eta2_y"], "n_groups": g["n_groups"],
            "pos_groups": g["pos_groups"], "neg_groups": g["neg_groups"]}},
        suggestion=(f"Analyse the relation within `{col}`: demean both variables per group "
                    f"(`df[cols] - df.groupby('{col}')[cols].transform('mean')`) before the "
                    f"correlation/fit, fit a fixed-effects model (`smf.ols('y ~ x + "
                    f"C({col})', data=df)`) or a mixed model (`smf.mixedlm(..., "
                    f"groups=df['{col}'])`), or report the per-group coefficients; keep the "
                    "pooled figure only as an explicit between-group comparison."),
    )


# -- a baseline correlated with the change from it (regression to the mean) ----------------------

_DIFF_WRAPPERS = {"round", "astype", "to_numpy", "copy"}


def _strip_wrappers(node: ast.AST) -> ast.AST:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in _DIFF_WRAPPERS:
        node = node.func.value
    if isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    return node


class _Substitute(ast.NodeTransformer):
    def __init__(self, given: dict[str, ast.expr]):
        self.given = given

    def visit_Name(self, n: ast.Name) -> ast.AST:
        return self.given.get(n.id, n)


def _inline_helper(ev: Evidence, node: ast.AST) -> ast.AST:
    """`change(df.pre, df.post)` with `def change(a, b): return b - a`: the returned
    expression with the call's arguments in place of the parameters."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return node
    for tree in (ev.model.tree, ev.model._prior_tree):
        for fn in _walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name == node.func.id:
                rets = [s for s in fn.body if isinstance(s, ast.Return)]
                if len(rets) != 1 or rets[0].value is None:
                    return node
                params = [a.arg for a in fn.args.args]
                given = dict(zip(params, node.args, strict=False))
                given.update({k.arg: k.value for k in node.keywords if k.arg})

                return _Substitute(given).visit(copy.deepcopy(rets[0].value))
    return node


def _difference(node: ast.AST) -> tuple[str, ast.AST, ast.AST] | None:
    """("-"|"/", left, right) for `b - a`, `b.sub(a)`, `np.subtract(b, a)`, `b / a`,
    `(b - a) / k`, `100 * (b - a)`: a change score or a ratio of two variables."""
    node = _strip_wrappers(node)
    for _ in range(4):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Div) and \
                _number(node.right) is not None:
            node = _strip_wrappers(node.left)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and \
                _number(node.left) is not None:
            node = _strip_wrappers(node.right)
        else:
            break
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub | ast.Div):
        if _number(node.left) is not None or _number(node.right) is not None:
            return None
        return ("-" if isinstance(node.op, ast.Sub) else "/"), node.left, node.right
    if isinstance(node, ast.Call):
        name = called_name(node)
        if name in ("sub", "subtract", "div", "divide", "truediv"):
            op = "-" if name in ("sub", "subtract") else "/"
            if isinstance(node.func, ast.Attribute) and name not in ("subtract", "divide") \
                    and node.args:
                return op, node.func.value, node.args[0]
            if len(node.args) == 2:
                return op, node.args[0], node.args[1]
    return None


def _defined_differences(ev: Evidence) -> dict[str, tuple[str, ast.AST, ast.AST, int]]:
    """Names and columns assigned a difference or a ratio: `df["gain"] = df.post - df.pre`,
    `gain = post - pre`, `df.assign(gain=lambda d: d.post - d.pre)`."""
    m = ev.model
    out: dict[str, tuple[str, ast.AST, ast.AST, int]] = {}
    for tree, here in ((m._prior_tree, False), (m.tree, True)):
        for node in _walk(tree):
            pairs: list[tuple[str | None, ast.AST]] = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name | ast.Subscript | ast.Attribute):
                pairs.append((_key_of(node.targets[0]), node.value))
            elif isinstance(node, ast.Call) and called_name(node) == "assign":
                for k in node.keywords:
                    v = k.value.body if isinstance(k.value, ast.Lambda) else k.value
                    pairs.append((k.arg, v))
            for key, value in pairs:
                d = _difference(_inline_helper(ev, value)) if key else None
                if key and d:
                    out[key] = (*d, getattr(node, "lineno", 0) if here else 0)
    return out


def _same_var(a: ast.AST, b: ast.AST) -> bool:
    ka, kb = _key_of(_strip_wrappers(a)), _key_of(_strip_wrappers(b))
    if ka is None or ka != kb:
        return False
    ra, rb = root_name(a), root_name(b)
    # `d.pre` inside an assign lambda and `df.pre` outside: same column, other frame name
    return ra == rb or isinstance(a, ast.Attribute | ast.Subscript) == isinstance(
        b, ast.Attribute | ast.Subscript)


def _formula_sides(c: CallSite) -> tuple[str, str] | None:
    """(response, regressor) of a one-regressor statsmodels formula `gain ~ pre`."""
    if c.last not in _FORMULA_MODELS or not (c.name or "").startswith("statsmodels"):
        return None
    formula = _str(c.arg(0, "formula"))
    if formula is None or "~" not in formula:
        return None
    lhs, rhs = formula.split("~", 1)
    terms = [t.strip() for t in rhs.split("+") if t.strip() not in ("1", "0", "-1", "")]
    if len(terms) != 1:
        return None
    return lhs.strip(), terms[0]


# a model's fitted values / predictions and what is left of y after them: residuals against
# fitted values is a diagnostic (is there structure left?), not a baseline-vs-change claim
_MODEL_OUTPUT = re.compile(r"(?i)fitted|pred|yhat|y_hat|forecast|resid|estimate")


@rule("correlation_misuse.baseline_vs_change",
      title="A baseline correlated with the change from it")
def baseline_vs_change(ev: Evidence) -> Iterator[Finding]:
    """Correlating (or regressing) a baseline x with a change that contains it (`post - x`,
    or a ratio `post / x`): x's measurement error enters the change with the opposite sign,
    so r is negative by construction even when every unit changed alike (regression to the
    mean; Oldham 1962). Found for scipy/numpy/pandas correlations, linregress / polyfit and
    one-regressor statsmodels formulas, with the change written inline, as a helper's return
    value, or stored in a name / column. High (0.7) for a difference: a negative r is then
    no evidence that low starters gain more. Medium (0.5) for a ratio. Quiet for the change
    against the mean of both measurements (Oldham's method) or against an outside variable."""
    if ev.tree is None or not re.search(r"-|/|sub|div", ev.code + ev.prior_code):
        return
    sites = [(c, what, exprs) for c, what, exprs, matrix in _sites(ev)
             if not matrix and len(exprs) == 2]
    formulas = [(c, sides) for c in ev.model.calls
                if (sides := _formula_sides(c)) is not None]
    if not sites and not formulas:
        return
    diffs = _defined_differences(ev)
    hits: list[tuple[CallSite, str, str, str, str, int]] = []
    for c, what, exprs in sites:
        for base, other in ((exprs[0], exprs[1]), (exprs[1], exprs[0])):
            other_s = _strip_wrappers(other)
            d = _difference(_inline_helper(ev, other_s))
            line = c.line
            if d is None:
                key = _key_of(other_s)
                if key in diffs:
                    op, left, right, line = diffs[key]
                    d = (op, left, right)
            if d is None:
                continue
            op, left, right = d
            if _same_var(base, right) or (op == "/" and _same_var(base, left)):
                hits.append((c, what, ev.source_of(base), ev.source_of(other),
                             f"{ast.unparse(left)} {op} {ast.unparse(right)}", line or 0))
                break
    for c, (lhs, rhs) in formulas:
        m = re.fullmatch(r"I\((.*)\)", lhs.replace(" ", ""))
        expr = m.group(1) if m else None
        if expr is None and lhs in diffs:
            op, left, right, _ = diffs[lhs]
            expr = f"{_key_of(left)}{op}{_key_of(right)}"
        if expr is None:
            continue
        mt = re.fullmatch(r"([A-Za-z_]\w*)([-/])([A-Za-z_]\w*)", expr.replace(" ", ""))
        if mt and (mt.group(3) == rhs or (mt.group(2) == "/" and mt.group(1) == rhs)):
            hits.append((c, f"{c.last}", rhs, lhs,
                         f"{mt.group(1)} {mt.group(2)} {mt.group(3)}", 0))
    hits = [h for h in hits if not (_MODEL_OUTPUT.search(h[2]) or _MODEL_OUTPUT.search(h[3]))]
    for c, what, base, change, expr, def_line in hits[:1]:
        ratio = " / " in expr
        severity, confidence = ("medium", 0.5) if ratio else ("high", 0.7)
        kind = "a ratio" if ratio else "a change score"
        yield Finding(
            explanation=(f"`{what}` (line {c.line}) relates `{base}` to `{change}`, which is "
                         f"{kind} that contains it (`{expr}`). The baseline's measurement "
                         "error and day-to-day noise enter both sides with opposite signs, so "
                         "the correlation/slope is negative by construction even when every "
                         "unit changed by the same amount (regression to the mean): a negative "
                         "r does not show that low starters gain more."),
            severity=severity, confidence=confidence,
            evidence={"lines": sorted({c.line, *([def_line] if def_line else [])}),
                      "values": {"baseline": base, "change": change, "definition": expr}},
            suggestion=("Relate the change to the mean of the two measurements (Oldham's "
                        "method), regress the follow-up on the baseline (ANCOVA: `post ~ pre "
                        "+ group`), or compare against the negative r expected from the "
                        "baseline's test-retest reliability."))


# -- a correlation between two autocorrelated time series (spurious / nonsense correlation) ------

_SERIES_LAG = 0.5  # lag-1 autocorrelation of both samples from which rows are "a series"
_SERIES_MIN_N = 30
_TIME_NAME = re.compile(
    r"(?i)^(?:date|datetime|time|timestamp|ts|day|days|doy|dayofyear|day_of_year|hour|hours|"
    r"minute|week|month|year|period|epoch|obs_date|obs_time|date_time|sample_date|"
    r"reading_time|t)$|(?:_date|_time|_day|_ts|_at|_hour|_month|_year)$")
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
                         and f.unique.get(c, 0) >= 0.5 * (f.rows or 0) >= _SERIES_MIN_N / 2]
                if named:
                    found = f"time column `{name}.{named[0]}`"
        for v in values.get(name, [])[:6]:
            if _sorted_by_other(v):
                return None
            found = found or _time_index_in(v, values)
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
    for c in m.calls:
        found = _stat_call(c)
        if found is None:
            continue
        full, args = found
        read = [s for s in ev.samples if s.line == c.line and s.call == full]
        if len(read) != 2 or any(s.lag1 is None or s.n < _SERIES_MIN_N for s in read):
            continue
        lags = [s.lag1 for s in read if s.lag1 is not None]
        if min(lags) < _SERIES_LAG:
            continue
        why = _time_order(ev, args)
        if why is None:
            continue
        hits.append((c, full, lags, min(s.n for s in read), _p_reported(ev, c, full), why))
    if not hits:
        return
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


def _stat_call(c: CallSite) -> tuple[str, list[ast.expr]] | None:
    """(resolved name, sample expressions) of a correlation or straight-line fit whose two
    samples the kernel reads."""
    from ..stat_tests import sample_args, stat_test_of

    found = stat_test_of(c)
    if found is None or found[0] not in _POOLED_NAMES:
        return None
    full, spec = found
    return full, [node for _, node in sample_args(c, spec)]


# -- agreement between two methods judged by their correlation ------------------------------------

_AGREE = re.compile(
    r"(?i)\b(?:agree(?:s|d|ment)?|interchangeabl\w*|"
    r"(?:can|could|may)\s+(?:safely\s+)?(?:replace|substitute\s+for|stand\s+in\s+for)|"
    r"(?:valid|good|suitable|acceptable|reliable)\s+(?:substitute|replacement|proxy|surrogate|"
    r"alternative)|(?<!cross-)(?<!cross\s)validat(?:es|ed|ion)|"
    r"consistent\s+with\s+(?:the\s+)?(?:lab|reference|gold|standard|each\s+other|one\s+another|"
    r"manual|clinic)|(?:measure|read|give)s?\s+the\s+same|equivalent\s+(?:to|readings|"
    r"measurements|results|methods?)|concordan\w*)")
_LIKERT_AGREE = re.compile(r"(?i)strongly\s+(?:dis)?agree|agree\s*(?:/|or)\s*disagree|"
                           r"neither\s+agree|somewhat\s+agree")
# what looks at the differences between the methods (or uses an agreement statistic)
_AGREEMENT_DONE = re.compile(
    r"(?i)bland|altman|limits?[_\s]of[_\s]agreement|\bloa\b|\bicc\d?\b|intraclass|"
    r"concordance|\bccc\b|lins?_|deming|passing|bablok|mean_absolute_error|"
    r"mean_squared_error|\bmae\b|\brmse\b|\bbias\b|allclose|isclose|np\.subtract|"
    r"\bdiffs?\b|difference")
_METHOD_WORD = re.compile(
    r"(?i)(?:^|_)(?:lab|field|ref|reference|gold|standard|std|device|meter|manual|auto|"
    r"automated|rater|observer|reader|judge|method|instrument|sensor|assay|kit|new|old|poc|"
    r"bedside|portable|handheld|wearable|clinic|home|self|cuff|wrist|probe|gauge|machine|"
    r"human|expert|visual)(?:_|$|\d)|(?:^|_)(?:a|b|1|2)$|rater_?\d|obs_?\d")
_GENERIC_TOKENS = {"df", "data", "x", "y", "values", "value", "col", "the", "to", "numpy",
                   "array", "a", "b", "s", "of", "and"}


def _key_label(expr: str) -> str:
    """The column or variable a sample expression names: `df["lab_na"]` -> `lab_na`."""
    quoted = re.findall(r"""["']([^"']+)["']""", expr)
    if quoted:
        return quoted[-1]
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\.(?:values|to_numpy|dropna|astype|"
                                                  r"ravel|array)\b.*$", "", expr))
    return names[-1] if names else expr


def _tokens(label: str) -> set[str]:
    return {t.lower() for t in re.split(r"[^A-Za-z]+|_", label)
            if len(t) >= 2 and t.lower() not in _GENERIC_TOKENS}


def _subtracts(ev: Evidence, a: str, b: str) -> bool:
    """The cell subtracts one sample from the other (as written, or by column key)."""
    keys = {a, b, _key_label(a), _key_label(b)}
    for node in _walk(ev.tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            left, right = ev.source_of(node.left), ev.source_of(node.right)
            ls = {left, _key_label(left)}
            rs = {right, _key_label(right)}
            if ls & keys and rs & keys and _key_label(left) != _key_label(right):
                return True
    return False


@rule("correlation_misuse.agreement_by_correlation",
      title="Agreement between two methods judged by their correlation")
def agreement_by_correlation(ev: Evidence) -> Iterator[Finding]:
    """Two measurements of the same quantity (two instruments, methods, raters: the same
    scale, names sharing a unit or a method word) correlated and the result worded as
    agreement ("agrees", "interchangeable", "can replace", "validated"): r measures how
    well the points follow *some* line, not the identity line, so a constant offset or a
    proportional bias leaves r near 1 while the methods disagree. From the kernel's facts of
    the two samples: the mean difference, the SD ratio and (with r) the SD of the
    differences and Lin's concordance; without r, the highest concordance any r could give.
    High (0.7) when those show a bias the correlation hides; medium (0.5) otherwise. Quiet
    when the cell looks at the differences (Bland-Altman, limits of agreement, a bias or
    MAE) or computes ICC, Lin's CCC, Deming or Passing-Bablok regression."""
    if ev.tree is None or not ev.samples or _AGREEMENT_DONE.search(ev.code):
        return
    texts = [t for _, t in _reported_strings(ev)] + [ev.text]
    quote = None
    for t in texts:
        if _LIKERT_AGREE.search(t):
            return
        mt = _AGREE.search(t)
        if mt and quote is None:
            line = next((ln for ln in t.splitlines() if mt.group(0) in ln), t)
            quote = line.strip()[:160]
    if quote is None:
        return
    for c in ev.model.calls:
        found = _stat_call(c)
        if found is None:
            continue
        full = found[0]
        read = {s.arg: s for s in ev.samples if s.line == c.line and s.call == full}
        a, b = read.get(0, read.get("x")), read.get(1, read.get("y"))
        if a is None or b is None or a.expr == b.expr:
            continue
        if None in (a.mean, b.mean, a.std, b.std, a.min, a.max, b.min, b.max) or \
                min(a.n, b.n) < 5 or not a.std or not b.std:
            continue
        if a.integer_valued and b.integer_valued and max(a.n_unique, b.n_unique) <= 10:
            continue  # ratings on a short scale: a kappa question, not this one
        ma, mb, sa, sb = a.mean, b.mean, a.std, b.std  # type: ignore[assignment]
        if ma * mb <= 0 or not 0.5 <= mb / ma <= 2 or not 0.5 <= sb / sa <= 2 or \
                max(a.min, b.min) >= min(a.max, b.max):  # type: ignore[type-var]
            continue  # not two readings of one quantity on one scale
        la, lb = _key_label(a.expr), _key_label(b.expr)
        if not (_tokens(la) & _tokens(lb) or _METHOD_WORD.search(la) or _METHOD_WORD.search(lb)):
            continue
        if _subtracts(ev, a.expr, b.expr):
            return
        d = mb - ma
        r = a.pair_r
        ccc_max = 2 * sa * sb / (sa ** 2 + sb ** 2 + d ** 2)
        values: dict[str, object] = {"mean_difference": round(d, 4),
                                     "sd_ratio": round(sb / sa, 3),
                                     "ccc_upper_bound": round(ccc_max, 3)}
        detail = (f"`{lb}` averages {mb:.4g} and `{la}` {ma:.4g} (mean difference "
                  f"{d:+.3g}), with SDs {sb:.3g} and {sa:.3g} (ratio {sb / sa:.2f})")
        biased = ccc_max < 0.95
        if r is not None and abs(r) <= 1:
            sd_d = math.sqrt(max(sa ** 2 + sb ** 2 - 2 * r * sa * sb, 0.0))
            ccc = 2 * r * sa * sb / (sa ** 2 + sb ** 2 + d ** 2)
            values.update(r=r, sd_difference=round(sd_d, 4), lin_ccc=round(ccc, 3),
                          limits_of_agreement=[round(d - 1.96 * sd_d, 4),
                                               round(d + 1.96 * sd_d, 4)])
            detail += (f"; with r = {r:.3f} the differences have SD {sd_d:.3g}, so the 95% "
                       f"limits of agreement are {d - 1.96 * sd_d:+.3g} to "
                       f"{d + 1.96 * sd_d:+.3g} and Lin's concordance is {ccc:.3f}")
            biased = biased or (r - ccc >= 0.03 and abs(d) >= 0.5 * sd_d)
        else:
            detail += (f"; even a perfect correlation would give a concordance of at most "
                       f"{ccc_max:.3f}")
        severity, confidence = ("high", 0.7) if biased else ("medium", 0.5)
        name = _POOLED_NAMES.get(full, full)
        yield Finding(
            explanation=(f"`{name}` (line {c.line}) correlates two measurements of the same "
                         f"quantity (`{a.expr}` and `{b.expr}`) and the cell reads it as "
                         f"agreement: \"{quote}\". A correlation says how closely the points "
                         "follow some straight line, not the line of equality: a constant "
                         "offset or a proportional bias leaves r near 1 while the methods "
                         f"disagree. Here {detail}."
                         + (" The correlation hides a systematic bias." if biased else "")),
            severity=severity, confidence=confidence,
            evidence={"lines": [c.line], "quotes": [quote], "values": values},
            suggestion=("Assess agreement on the differences: a Bland-Altman analysis (mean "
                        "difference = bias, 95% limits of agreement = bias ± 1.96·SD of the "
                        "differences, and a regression of the difference on the mean for "
                        "proportional bias), judged against a clinically/practically "
                        "acceptable difference; or report Lin's concordance coefficient, an "
                        "ICC (absolute agreement), or a Deming / Passing-Bablok fit."),
        )
        return
