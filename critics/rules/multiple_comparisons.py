"""Multiple comparisons: many hypothesis tests, significance claimed at a fixed alpha, and no
correction for the number of tests (Makin & Orban de Xivry, mistake 7).

Tests are the known test calls and fitted models' p-values read in a loop or comprehension
(`fit.pvalues[c]`, `.f_pvalue`, a summary table's `"P>|t|"` / anova table's `"PR(>F)"`).
The number of tests comes from the kernel when it can (the length of the list, Series or
frame the p-values were collected into, the length of what a loop iterated over, the number
of coefficients of a fitted model) and from the code otherwise (literal lists, `range(12)`,
separate test calls). A power simulation or a bootstrap (tests inside `for _ in range(n)`
drawing fresh random data) is not a family of comparisons and is skipped.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..ast_cache import tree_index
from ..ast_cache import walk as _walk
from ..code_model import CallSite, root_name
from ..evidence import Evidence, ObjectFacts
from ..findings import Finding
from ..rule import rule
from ..stat_tests import NOT_A_TEST_KINDS, StatTest, sample_args, test_calls

# p-values: p, ps, p1, pval, pvals, p_value, pvalues, "p-value", p_raw, pv…
_P_RE = re.compile(
    r"(?i)(?<![a-z0-9])(?:p|ps|pv|pvs|p_?vals?|p_?values?|pvalues?|p-values?|f_pvalue|"
    r"raw_?p\w*|p_?unc\w*|p_?nominal)(?![a-z])")
# a p- or q-value named by its correction: "p_bh", "pBH", "q_by", "p-corr" (pingouin's
# corrected column), "pcorr"; not "p_by_group" (raw p-values per group)
_NAMED_BY_METHOD = r"(?<![a-z0-9])[pq][\W_]*(?:bh|by|corr|corrected)(?![a-z0-9_])"
# adjusted p-values / q-values / rejection flags of a correction
_CORRECTED_RE = re.compile(
    r"(?i)adj|fdr|bonf|holm|sidak|hochberg|benjamini|hommel|simes|storey|fwer|corrected|"
    r"reject|(?<![a-z0-9])(?:q|qs|q_?vals?|q_?values?|bh)(?![a-z])|" + _NAMED_BY_METHOD)
_CORRECTED_COL_RE = re.compile(
    r"(?i)adj|fdr|bonf|holm|sidak|hochberg|benjamini|hommel|simes|storey|fwer|corrected|"
    r"q_?val|qvalue|" + _NAMED_BY_METHOD)
_ALPHA_NAME_RE = re.compile(r"(?i)alpha|sig|thresh|cut_?off|level|crit|^a$")
_CORRECTION_CALLS = {
    "multipletests", "fdrcorrection", "fdrcorrection_twostage", "false_discovery_control",
    "multicomp", "pairwise_tukeyhsd", "tukey_hsd", "tukeyhsd", "pairwise_tukey",
    "posthoc_tukey", "posthoc_tukey_hsd", "posthoc_scheffe", "dunnett", "allpairtest",
    "p_adjust", "padjust", "qvalue", "qvalues", "local_fdr", "bonferroni", "holm",
    "benjamini_hochberg", "sidak", "MultiComparison",
}
_CORRECTION_NAME_RE = re.compile(
    r"(?i)fdr|bonferroni|holm|hochberg|benjamini|sidak|p_?adjust|multipletest|"
    r"(?<![a-z])bh_|_bh(?![a-z])")
_RNG_METHODS = {
    "normal", "uniform", "choice", "permutation", "permuted", "shuffle", "integers",
    "randint", "binomial", "poisson", "lognormal", "exponential", "standard_normal", "randn",
    "rand", "random", "sample", "resample", "gamma", "beta", "multivariate_normal",
}
_APPLY_METHODS = {"apply", "agg", "aggregate", "transform", "map", "applymap", "pipe"}
_SIGNIFICANT_RE = re.compile(r"(?i)\bsignifican(?:t|ce)\b|\bsig\.?\b")
# wording before "significant" that denies it: "not significant", "non-significant",
# "no significant difference", "isn't statistically significant", "failed to reach
# significance" ("insignificant" never matches `\bsignificant`)
_NEGATED_BEFORE = re.compile(
    r"(?i)(?:\b(?:not|no|never|nor|neither|without|lack\s+of|fail(?:s|ed)?\s+to\s+reach)\b"
    r"|n't\b|\bnon\s*-?)\s*(?:(?:statistically|stat\.?|very|quite|really|any|yet|be|been|"
    r"deemed|considered|found|formally)\s+){0,3}$")
_COMP_NODES = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_RAW_LIMIT = 0.1  # thresholds above this are not significance levels
_P_ATTRS = ("pvalues", "pvalue", "f_pvalue")


def _src(ev: Evidence, node: ast.AST) -> str:
    return ev.source_of(node)


@dataclass
class _Count:
    n: float | None = None  # fractional for triangular loops (`cols[i + 1:]`)
    from_facts: bool = False

    def times(self, other: _Count) -> _Count:
        if self.n is None or other.n is None:
            return _Count(None, self.from_facts or other.from_facts)
        return _Count(self.n * other.n, self.from_facts or other.from_facts)


@dataclass
class _Site:
    line: int
    count: _Count
    looped: bool  # inside a loop, comprehension, apply or a helper called in one
    collections: set[str] = field(default_factory=set)  # names the p-values are stored in


_INDEXED = (ast.Compare, ast.BinOp, ast.Attribute, ast.Name, ast.Subscript, ast.Call)


def _index(tree: ast.AST) -> tuple[dict[int, ast.AST], dict[type, list[ast.AST]]]:
    """One pass over the tree: each node's parent, and the nodes of the types rules read."""
    parents: dict[int, ast.AST] = {}
    by_type: dict[type, list[ast.AST]] = {t: [] for t in _INDEXED}
    index = tree_index(tree)
    if index is not None:
        # the same depth-first pass over the review's index of the tree: each node's
        # children are the positions first[i]:stop[i] (its fields' nodes, in order)
        nodes, first, stop = index.nodes, index.first, index.stop
        at: list[int] = [0]
        while at:
            i = at.pop()
            node = nodes[i]
            kind = type(node)
            if kind in by_type:
                by_type[kind].append(node)
            a, b = first[i], stop[i]
            if a < b:
                for child in nodes[a:b]:
                    parents[id(child)] = node
                at += range(a, b)
        return parents, by_type
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in by_type:
            by_type[kind].append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                parents[id(value)] = node
                stack.append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        parents[id(item)] = node
                        stack.append(item)
    return parents, by_type


def _const_number(node: ast.AST | None) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _const_number(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
            and not isinstance(node.value, bool):
        return float(node.value)
    return None


class _Analysis:
    def __init__(self, ev: Evidence):
        self.ev = ev
        self.m = ev.model
        self.tree = self.m.tree
        self.parents, self.nodes = _index(self.tree)
        self.objects = ev.objects
        self._assigned: dict[str, ast.expr | None] = {}
        for a in self.m.assignments:
            if isinstance(a.stmt, ast.Assign) and len(a.targets) == 1:
                self._assigned.setdefault(a.targets[0], a.value)
        self.test_nodes: set[int] = set()

    @cached_property
    def _prior_consts(self) -> dict[str, float | None]:
        return _prior_constants(self.m._prior_tree) if self.ev.prior_code else {}

    # -- facts ------------------------------------------------------------------------------

    def facts(self, name: str | None) -> ObjectFacts | None:
        return self.objects.get(name) if name else None

    def scalar(self, node: ast.AST | None) -> float | None:
        num = _const_number(node)
        if num is not None:
            return num
        if isinstance(node, ast.Name):
            f = self.facts(node.id)
            if f is not None and isinstance(f.value, int | float) \
                    and not isinstance(f.value, bool):
                return float(f.value)
            value = self._assigned.get(node.id)
            num = _const_number(value)
            if num is not None:
                return num
            return self._prior_consts.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "len" and node.args:
            n = self.length(node.args[0]).n
            return float(n) if n is not None else None
        return None

    def length(self, node: ast.AST | None) -> _Count:
        """How many items iterating over `node` yields."""
        if node is None:
            return _Count()
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                return _Count()
            return _Count(len(node.elts))
        if isinstance(node, ast.Dict):
            return _Count(len(node.keys))
        if isinstance(node, ast.Name):
            f = self.facts(node.id)
            if f is not None:
                if f.kind == "dataframe" and f.shape and len(f.shape) > 1:
                    return _Count(f.shape[1], True)  # iterating a frame yields its columns
                if f.shape:
                    return _Count(f.shape[0], True)
                if f.length is not None and f.kind != "scalar":
                    return _Count(f.length, True)
            value = self._assigned.get(node.id)
            if value is not None and not isinstance(value, ast.Name):
                return self.length(value)
            return _Count()
        if isinstance(node, ast.Attribute):
            f = self.facts(root_name(node.value)) if isinstance(node.value, ast.Name) else None
            if f is not None and f.kind == "dataframe" and f.shape:
                if node.attr == "columns":
                    return _Count(f.shape[1], True)
                if node.attr == "index":
                    return _Count(f.shape[0], True)
            if node.attr == "columns" and isinstance(node.value, ast.Subscript):
                return self._frame_subscript_columns(node.value)
            if node.attr == "columns" and isinstance(node.value, ast.Call):
                return self._selected_columns(node.value)
            return _Count()
        if isinstance(node, ast.Subscript):
            base = self.length(node.value)
            sl = node.slice
            if isinstance(sl, ast.Slice) and base.n is not None and sl.step is None:
                lo = _const_number(sl.lower) if sl.lower is not None else 0.0
                hi = _const_number(sl.upper) if sl.upper is not None else float(base.n)
                if lo is not None and hi is not None:
                    return _Count(len(range(base.n)[int(lo):int(hi)]), base.from_facts)
                if sl.upper is None and _is_index_offset(sl.lower):
                    # `cols[i + 1:]` under `for i, c in enumerate(cols)`: the upper triangle,
                    # (n - 1) / 2 items on average
                    return _Count((base.n - 1) / 2, base.from_facts)
            if isinstance(sl, ast.List | ast.Tuple):  # df[["a", "b"]]
                return _Count(len(sl.elts))
            return _Count()
        if isinstance(node, ast.Call):
            return self._call_length(node)
        return _Count()

    def _selected_columns(self, call: ast.Call) -> _Count:
        """`df.select_dtypes("number").columns`, `df.drop(columns=[…]).columns`."""
        func = call.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return _Count()
        f = self.facts(func.value.id)
        if f is None or f.kind != "dataframe" or not f.dtypes:
            return _Count()
        if func.attr == "select_dtypes":
            spec = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "include"), None)
            text = ast.unparse(spec) if spec is not None else ""
            if "number" in text or "float" in text or "int" in text:
                kinds = ("float",) if "float" in text and "number" not in text else (
                    "int", "uint", "float", "Int", "UInt", "Float")
                return _Count(sum(1 for dt in f.dtypes.values() if dt.startswith(kinds)), True)
            if "object" in text or "category" in text:
                return _Count(sum(1 for dt in f.dtypes.values()
                                  if dt in ("object", "category", "str", "string")), True)
        if func.attr == "drop":
            return self.length(call)
        return _Count()

    def _frame_subscript_columns(self, node: ast.Subscript) -> _Count:
        if isinstance(node.slice, ast.List | ast.Tuple):
            return _Count(len(node.slice.elts))
        return _Count()

    def _call_length(self, node: ast.Call) -> _Count:
        func = node.func
        fname = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else "")
        args = node.args
        if fname == "range":
            if len(args) == 2 and _is_index_offset(args[0]):  # range(i + 1, n)
                hi = self.scalar(args[1])
                if hi is not None and hi > 1:
                    return _Count((hi - 1) / 2)
            nums = [self.scalar(a) for a in args]
            if nums and all(n is not None for n in nums):
                try:
                    return _Count(len(range(*[int(n) for n in nums if n is not None])))
                except (TypeError, ValueError):
                    return _Count()
            return _Count()
        if fname in ("enumerate", "sorted", "list", "tuple", "set", "reversed", "tqdm",
                     "array", "asarray", "Index", "Series") and args:
            return self.length(args[0])
        if fname == "zip" and args:
            counts = [self.length(a) for a in args]
            known = [c.n for c in counts if c.n is not None]
            return _Count(min(known), any(c.from_facts for c in counts)) if known else _Count()
        if fname in ("combinations", "permutations") and args:
            base = self.length(args[0])
            r = self.scalar(args[1]) if len(args) > 1 else None
            if r is None:
                kw = next((k.value for k in node.keywords if k.arg == "r"), None)
                r = self.scalar(kw)
            if base.n is None or r is None:
                return _Count(None, base.from_facts)
            fn = math.comb if fname == "combinations" else math.perm
            return _Count(fn(base.n, int(r)), base.from_facts)
        if fname == "product" and args:
            counts = [self.length(a) for a in args]
            repeat = next((self.scalar(k.value) for k in node.keywords if k.arg == "repeat"),
                          1.0)
            total = _Count(1)
            for c in counts:
                total = total.times(c)
            if total.n is not None and repeat:
                total = _Count(total.n ** int(repeat), total.from_facts)
            return total
        if isinstance(func, ast.Attribute):
            recv = func.value
            module = isinstance(recv, ast.Name) and recv.id in self.m.aliases and (
                self.facts(recv.id) is None or self.facts(recv.id).kind == "module")
            if fname == "unique" and module and args:  # np.unique(x), pd.unique(x)
                return self._unique_of(args[0])
            if fname in ("items", "keys", "values", "iteritems", "tolist", "to_list",
                         "dropna", "copy", "sort_values"):
                return self.length(recv)
            if fname in ("unique", "drop_duplicates"):
                return self._unique_of(recv)
            if fname == "groupby":
                return self._groups(recv, args[0] if args else None)
            if fname in ("iterrows", "itertuples"):
                f = self.facts(root_name(recv)) if isinstance(recv, ast.Name) else None
                if f is not None and f.shape:
                    return _Count(f.shape[0], True)
            if fname == "drop":
                base = self.length(recv)
                dropped = args[0] if args else next(
                    (k.value for k in node.keywords if k.arg in ("columns", "labels")), None)
                k = self.length(dropped).n if isinstance(dropped, ast.List | ast.Tuple) else 1
                if base.n is not None and k is not None:
                    return _Count(max(0, base.n - k), base.from_facts)
        return _Count()

    def _unique_of(self, node: ast.AST | None) -> _Count:
        """Distinct values of `df["col"]` / `df.col` / a Series name."""
        if node is None:
            return _Count()
        frame, col = _frame_column(node)
        f = self.facts(frame)
        if f is not None:
            key = col if col is not None else ("" if f.kind == "series" else None)
            if key is not None and key in f.unique:
                return _Count(f.unique[key], True)
        return _Count()

    def _groups(self, frame_node: ast.AST, by: ast.AST | None) -> _Count:
        f = self.facts(root_name(frame_node)) if isinstance(frame_node, ast.Name) else None
        if f is None or by is None:
            return _Count()
        if isinstance(by, ast.Constant) and isinstance(by.value, str) and by.value in f.unique:
            return _Count(f.unique[by.value], True)
        return _Count()

    # -- where tests run -------------------------------------------------------------------

    def multiplier(self, node: ast.AST, depth: int = 0) -> tuple[_Count, bool, bool]:
        """(how many times `node` runs, whether inside a loop, whether in a simulation)."""
        count = _Count(1)
        looped = False
        prev: ast.AST = node
        came_from_iter = False
        cur = self.parents.get(id(node))
        while cur is not None:
            if isinstance(cur, ast.For | ast.AsyncFor) and any(prev is s for s in cur.body):
                looped = True
                if self._is_simulation(cur.iter, cur, cur.target):
                    return _Count(0), True, True
                count = count.times(self.length(cur.iter))
            elif isinstance(cur, ast.While) and any(prev is s for s in cur.body):
                looped = True
                count = _Count(None, count.from_facts)
            elif isinstance(cur, ast.comprehension):
                came_from_iter = prev is cur.iter
            elif isinstance(cur, _COMP_NODES):
                gens = cur.generators
                if isinstance(prev, ast.comprehension):
                    i = next(k for k, g in enumerate(gens) if g is prev)
                    gens = gens[:i] if came_from_iter else gens[:i + 1]
                for g in gens:
                    looped = True
                    if self._is_simulation(g.iter, cur, g.target):
                        return _Count(0), True, True
                    count = count.times(self.length(g.iter))
            elif isinstance(cur, ast.Lambda):
                outer = self.parents.get(id(cur))
                if isinstance(outer, ast.keyword):
                    outer = self.parents.get(id(outer))
                once = isinstance(outer, ast.Call) and isinstance(outer.func, ast.Attribute) \
                    and outer.func.attr == "pipe"  # `.pipe(lambda d: ...)` runs it once
                if isinstance(outer, ast.Call) and not once:
                    looped = True
                    count = count.times(self._apply_count(outer))
            elif isinstance(cur, ast.FunctionDef | ast.AsyncFunctionDef):
                if depth > 3:
                    return _Count(None), True, False
                callers = self._callers(cur.name)
                if not callers:
                    return _Count(0), looped, False  # defined, not run here
                total = _Count(0)
                any_loop = False
                for site, via_apply in callers:
                    c, lp, sim = self.multiplier(site, depth + 1)
                    if sim:
                        continue
                    if via_apply is not None:
                        c = c.times(self._apply_count(via_apply))
                        lp = True
                    any_loop = any_loop or lp
                    total = _Count(None if total.n is None or c.n is None else total.n + c.n,
                                   total.from_facts or c.from_facts)
                return count.times(total), looped or any_loop, False
            prev = cur
            cur = self.parents.get(id(cur))
        return count, looped, False

    def _callers(self, fname: str) -> list[tuple[ast.AST, ast.Call | None]]:
        out: list[tuple[ast.AST, ast.Call | None]] = []
        for c in self.m.calls:
            if isinstance(c.node.func, ast.Name) and c.node.func.id == fname:
                out.append((c.node, None))
            elif any(isinstance(a, ast.Name) and a.id == fname for a in c.node.args) and (
                    c.method in _APPLY_METHODS or c.name in ("map", "starmap")):
                out.append((c.node, c.node))
        return out

    def _apply_count(self, call: ast.Call) -> _Count:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "corr":
            k = self.length(func.value)  # df.corr(method=lambda x, y: pearsonr(x, y)[1])
            return _Count(k.n * (k.n - 1) / 2, k.from_facts) if k.n else _Count()
        if isinstance(func, ast.Name) and func.id == "map" and len(call.args) > 1:
            return self.length(call.args[1])
        if not isinstance(func, ast.Attribute) or func.attr not in _APPLY_METHODS:
            return _Count()
        recv = func.value
        if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Attribute) \
                and recv.func.attr == "groupby":
            return self._groups(recv.func.value, recv.args[0] if recv.args else None)
        axis = next((k.value for k in call.keywords if k.arg == "axis"), None)
        rows = isinstance(axis, ast.Constant) and axis.value in (1, "columns")
        f = self.facts(recv.id) if isinstance(recv, ast.Name) else None
        if f is not None and f.shape:
            if f.kind == "dataframe" and len(f.shape) > 1 and not rows:
                return _Count(f.shape[1], True)
            return _Count(f.shape[0], True)
        if isinstance(recv, ast.Subscript) and not rows:
            return self._frame_subscript_columns(recv)
        return _Count()

    def _is_simulation(self, iterable: ast.AST, loop: ast.AST, target: ast.AST) -> bool:
        """`for _ in range(1000): x = rng.normal(...); ttest(...)`: a power simulation,
        bootstrap or permutation null, not a family of hypotheses."""
        if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)
                and iterable.func.id == "range"):
            return False
        for node in _walk(loop):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Attribute) and f.attr in _RNG_METHODS:
                    return True
                if isinstance(f, ast.Name) and f.id in ("resample", "shuffle", "choice"):
                    return True
        return False

    # -- p-value collections ---------------------------------------------------------------

    def collections_of(self, call: CallSite) -> set[str]:
        """Names the results of a looped test call are stored in."""
        names: set[str] = set(call.targets)
        stmt = call.stmt
        loop = self._enclosing_for(stmt)
        if loop is not None:
            produced = set(call.targets)
            for node in _walk(loop):
                if self._kept_if(node, loop, produced):
                    continue  # `if p < .05: hits.append(...)`: the hits, not the family
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr in ("append", "extend", "add", "update", "loc"):
                    used = {n.id for a in node.args for n in _walk(a)
                            if isinstance(n, ast.Name)}
                    contains = any(n is call.node for a in node.args for n in _walk(a))
                    if contains or used & produced:
                        r = root_name(node.func.value)
                        if r:
                            names.add(r)
                elif isinstance(node, ast.Assign):
                    for t in node.targets:
                        if isinstance(t, ast.Subscript):
                            used = {n.id for n in _walk(node.value)
                                    if isinstance(n, ast.Name)}
                            contains = any(n is call.node for n in _walk(node.value))
                            r = root_name(t)
                            if r and (contains or used & produced):
                                names.add(r)
        return names

    def _kept_if(self, node: ast.AST, loop: ast.AST, produced: set[str]) -> bool:
        """`node` runs only under an `if` inside `loop` that reads a test's result (`if p <
        alpha:`): a collection filled there holds the kept results, not one per test."""
        if not (isinstance(node, ast.Call | ast.Assign) and produced):
            return False
        prev, cur = node, self.parents.get(id(node))
        while cur is not None and cur is not loop:
            if isinstance(cur, ast.If) and prev is not cur.test and any(
                    isinstance(n, ast.Name) and n.id in produced for n in _walk(cur.test)):
                return True
            prev, cur = cur, self.parents.get(id(cur))
        return False

    def _enclosing_for(self, node: ast.AST) -> ast.AST | None:
        cur = self.parents.get(id(node))
        found = None
        while cur is not None:
            if isinstance(cur, ast.For | ast.AsyncFor | ast.While):
                found = cur  # outermost loop: collections usually live outside all loops
            cur = self.parents.get(id(cur))
        return found

    def collection_size(self, names: set[str]) -> tuple[int | None, list[float] | None]:
        best: int | None = None
        values: list[float] | None = None
        for name in names:
            f = self.facts(name)
            if f is None or f.kind in ("scalar", "module", "callable", "class", "result"):
                continue
            n = f.rows if f.kind != "dataframe" else (f.shape[0] if f.shape else None)
            if n is None:
                continue
            if f.kind == "dataframe" and f.shape and len(f.shape) == 2 and \
                    f.shape[0] == f.shape[1] > 2:
                n = f.shape[0] * (f.shape[0] - 1) // 2  # a square matrix of pairwise p-values
            if best is None or n > best:
                best = n
                vals = f.values
                values = vals if vals and all(0.0 <= v <= 1.0 for v in vals) else None
        return best, values


# a column of adjusted p-values / q-values / rejection flags: "p_adj", "padj", "adj_pval",
# "adjusted p", "p_holm", "fdr", "q", "p_bh", "p-corr", "reject" (not "adj. diff", a
# covariate-adjusted effect)
_ADJUSTED_P_COL_RE = re.compile(
    r"(?i)fdr|bonf|holm|sidak|hochberg|benjamini|hommel|simes|storey|fwer|reject|corrected|"
    r"p[\W_]*adj|adj\w*[\W_]*p(?:[\W_]*val\w*)?(?![a-z])|^adj(?:usted)?$|"
    r"(?<![a-z0-9])(?:q|qs|q_?vals?|q_?values?|bh)(?![a-z])|" + _NAMED_BY_METHOD)


def _adjusted_p_column(f: ObjectFacts, col: str) -> bool:
    """Whether column `col` of the frame `f` holds adjusted p-values (by its name, and by its
    range when the kernel reports one: an adjusted p-value lies in [0, 1])."""
    if not col or not _ADJUSTED_P_COL_RE.search(col):
        return False
    span = f.ranges.get(col)
    return not (span and len(span) == 2 and (span[0] < 0 or span[1] > 1))


def _is_index_offset(node: ast.AST | None) -> bool:
    """`i + 1` or `i` (a loop index), not a constant."""
    if isinstance(node, ast.Name):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(
        node.left, ast.Name) and _const_number(node.right) is not None


def _prior_constants(tree: ast.AST) -> dict[str, float | None]:
    """Names the earlier cells assign: their constant value, None when computed."""
    out: dict[str, float | None] = {}
    for node in _walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            out[node.targets[0].id] = _const_number(node.value)
    return out


def _frame_column(node: ast.AST) -> tuple[str | None, str | None]:
    """(`df`, `"col"`) for `df["col"]`, `df.col`, `df["col"].values`; (`s`, None) for `s`."""
    while isinstance(node, ast.Attribute) and node.attr in ("values", "array"):
        node = node.value
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        sl = node.slice
        if isinstance(sl, ast.Constant) and isinstance(sl.value, str):
            return node.value.id, sl.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    if isinstance(node, ast.Name):
        return node.id, None
    return None, None


# -- claims and corrections ------------------------------------------------------------------

@dataclass
class _Claim:
    line: int
    alpha: float
    p_expr: str
    p_names: set[str]
    corrected: bool
    node: ast.AST | None = None


def _threshold_compares(a: _Analysis, p_names: set[str]) -> list[_Claim]:
    """`p < 0.05`, `res.pvalue <= alpha`, `df[df.p < .05]`, `0.05 > p`, `p.lt(0.05)`,
    `query("p < 0.05")`."""
    found: list[_Claim] = []
    for node in a.nodes[ast.Compare] + a.nodes[ast.Call]:
        p_side = t_side = None
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right, op = node.left, node.comparators[0], node.ops[0]
            if isinstance(op, ast.Lt | ast.LtE):
                p_side, t_side = left, right
            elif isinstance(op, ast.Gt | ast.GtE):
                p_side, t_side = right, left
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr in ("lt", "le") and len(node.args) == 1:  # res.p_value.lt(0.05)
                p_side, t_side = node.func.value, node.args[0]
            elif attr == "query" and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                found += _query_claims(a, node)
        if p_side is None or t_side is None:
            continue
        alpha = _raw_threshold(a, t_side)
        adjusted_level = alpha is None and _corrected_threshold(a, t_side)
        if alpha is None and not adjusted_level:
            continue
        src = _src(a.ev, p_side)
        names = {n.id for n in _walk(p_side) if isinstance(n, ast.Name)}
        contains_test = any(isinstance(n, ast.Call) and _is_test_node(a, n)
                            for n in _walk(p_side))
        if not (_P_RE.search(src) or _CORRECTED_RE.search(src) or names & p_names
                or contains_test
                or any(a.m.dependencies(nm) & p_names for nm in names)):
            continue
        found.append(_Claim(node.lineno, alpha or 0.0, src, names,
                            adjusted_level or bool(_CORRECTED_RE.search(src)), node))
    return found


def _query_claims(a: _Analysis, node: ast.Call) -> list[_Claim]:
    out: list[_Claim] = []
    text = node.args[0].value  # type: ignore[attr-defined]
    for mt in re.finditer(r"([\w`-]+)\s*<=?\s*(\d*\.\d+(?:e-?\d+)?|@?\w+)", text):
        col, thr = mt.group(1).strip("`"), mt.group(2).lstrip("@")
        try:
            alpha: float | None = float(thr)
        except ValueError:
            alpha = a.scalar(ast.Name(id=thr)) if _ALPHA_NAME_RE.search(thr) else None
        if alpha is None or not 0 < alpha <= _RAW_LIMIT:
            continue
        if _P_RE.search(col) or _CORRECTED_RE.search(col):
            root = root_name(node.func)
            out.append(_Claim(node.lineno, alpha, col, {root} if root else set(),
                              bool(_CORRECTED_RE.search(col)), node))
    return out


def _raw_threshold(a: _Analysis, node: ast.AST) -> float | None:
    """A fixed significance level: 0.05, `alpha` (= 0.05); not `0.05 / n`."""
    num = _const_number(node)
    if num is not None:
        return num if 0 < num <= _RAW_LIMIT else None
    if isinstance(node, ast.Name):
        value = a._assigned.get(node.id)
        if value is not None and _const_number(value) is None:
            return None  # computed: a corrected level
        if value is None and node.id in a._prior_consts and a._prior_consts[node.id] is None:
            return None  # computed in an earlier cell
        num = a.scalar(node)
        if num is not None and 0 < num <= _RAW_LIMIT and (
                _ALPHA_NAME_RE.search(node.id) or value is not None
                or node.id in a._prior_consts):
            return num
    return None


def _corrected_threshold(a: _Analysis, node: ast.AST) -> bool:
    """`alpha / n`, or a level name computed rather than set (`alpha = 0.05 / len(cols)`)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _raw_threshold(a, node.left) is not None
    if isinstance(node, ast.Name) and _ALPHA_NAME_RE.search(node.id):
        value = a._assigned.get(node.id)
        if value is not None:
            return _const_number(value) is None
        return node.id in a._prior_consts and a._prior_consts[node.id] is None
    return False


def _is_test_node(a: _Analysis, node: ast.Call) -> bool:
    return id(node) in a.test_nodes


def _corrections(a: _Analysis) -> list[int]:
    """Lines where the cell corrects for multiplicity."""
    lines: list[int] = []
    for c in a.m.calls:
        last = c.last
        if last in _CORRECTION_CALLS or (last and _CORRECTION_NAME_RE.search(last)):
            lines.append(c.line)
            continue
        for kw in c.node.keywords:
            literal = kw.value.value if isinstance(kw.value, ast.Constant) else ...
            adjust = kw.arg in ("padjust", "p_adjust", "p_adjust_method", "correction") \
                and literal not in (None, "none", "None", False, "no")
            by_method = kw.arg == "method" and isinstance(literal, str) \
                and bool(_CORRECTION_NAME_RE.search(literal))
            if adjust or by_method:
                lines.append(c.line)
    for node in a.nodes[ast.BinOp] + a.nodes[ast.Name] + a.nodes[ast.Subscript]:
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div) and _raw_threshold(a, node.left) is not None \
                    and (_const_number(node.right) or 3.0) >= 3:
                lines.append(node.lineno)  # Bonferroni: alpha / n (not alpha / 2)
            elif isinstance(node.op, ast.Mult) and not _in_tail_args(a, node):
                for p_side, other in ((node.left, node.right), (node.right, node.left)):
                    if _p_valued(a, p_side) and not _is_small_const(other) \
                            and not _one_minus(a, other, p_side) \
                            and not _one_minus(a, p_side, other) \
                            and not _expected_counts(a, p_side, other):
                        lines.append(node.lineno)  # Bonferroni / BH: p * n (/ rank)
            elif isinstance(node.op, ast.Pow) and _raw_threshold(
                    a, node.left.right if isinstance(node.left, ast.BinOp) else node.left):
                lines.append(node.lineno)  # Sidak: 1 - (1 - alpha) ** (1 / n)
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store) and _CORRECTION_NAME_RE.search(node.id):
                lines.append(node.lineno)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            sl = node.slice
            if isinstance(sl, ast.Constant) and isinstance(sl.value, str) and (
                    _CORRECTED_COL_RE.search(sl.value)):
                lines.append(node.lineno)  # df["p_adj"] = …
    return lines


def _one_minus(a: _Analysis, node: ast.AST, p_side: ast.AST) -> bool:
    """`1 - p` beside `p`: p * (1 - p) is a proportion's variance, not a correction."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and \
        _const_number(node.left) == 1 and _src(a.ev, node.right) == _src(a.ev, p_side)


_TAIL_METHODS = {"sf", "cdf", "logsf", "logcdf"}


def _is_tail_call(node: ast.AST) -> bool:
    """`stats.norm.sf(z)`, `norm.cdf(-abs(z))`: a distribution's tail probability."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr in _TAIL_METHODS


def _in_tail_args(a: _Analysis, node: ast.AST) -> bool:
    """`node` is part of the statistic a tail probability is taken of (`norm.sf(abs(t.p -
    t.p0) * np.sqrt(t.n))`): arithmetic on rates or proportions named p, not on p-values."""
    cur = a.parents.get(id(node))
    while cur is not None and not isinstance(cur, ast.stmt):
        if _is_tail_call(cur):
            return True
        cur = a.parents.get(id(cur))
    return False


def _is_vector(a: _Analysis, node: ast.AST) -> bool:
    """A Series, array or frame column with several values (by the kernel's facts)."""
    frame, col = _frame_column(node)
    f = a.facts(frame)
    if f is None:
        return False
    if col is not None:
        return f.kind == "dataframe" and col in f.dtypes and bool(f.shape) and f.shape[0] > 1
    return f.kind in ("series", "ndarray") and (f.rows or 0) > 1


def _expected_counts(a: _Analysis, p_side: ast.AST, other: ast.AST) -> bool:
    """`t.n * p0`: one rate times each group's size is the expected counts; a correction
    multiplies p-values (a vector, or one) by the number of tests, never one p by a vector."""
    if not isinstance(p_side, ast.Name):
        return False
    f = a.facts(p_side.id)
    return f is not None and f.kind == "scalar" and _is_vector(a, other)


def _p_valued(a: _Analysis, node: ast.AST) -> bool:
    """The operand names p-values (`p`, `pvals[i]`, `res.pvalue`, `t["p"]`), not counting the
    arguments of a tail probability: in `2 * norm.sf((t.p - t.p0).abs() / se)` the p's are
    proportions, the statistic's inputs. A difference (`t.p - t.p0`, `1 - p`) is an effect or
    a complement, never the p-value a correction scales."""
    while isinstance(node, ast.Call) and len(node.args) == 1 and (
            (isinstance(node.func, ast.Name) and node.func.id in ("abs", "fabs"))
            or (isinstance(node.func, ast.Attribute) and node.func.attr in ("abs", "fabs"))):
        node = node.args[0]  # np.abs(t.p - t.p0)
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "abs":
        node = node.func.value  # (t.p - t.p0).abs()
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return False
    src = _src(a.ev, node)
    for sub in _walk(node):
        if _is_tail_call(sub):
            for arg in [*sub.args, *(k.value for k in sub.keywords)]:  # type: ignore[attr-defined]
                src = src.replace(_src(a.ev, arg), "")
    return bool(_P_RE.search(src))


def _stmt_p_keys(stmt: ast.stmt) -> tuple[set[str], set[str]]:
    """(p-like names or columns the statement assigns, the roots they live in)."""
    keys: set[str] = set()
    roots: set[str] = set()
    targets = stmt.targets if isinstance(stmt, ast.Assign) else (
        [stmt.target] if isinstance(stmt, ast.AnnAssign | ast.AugAssign) else [])
    for t in targets:
        for sub in _walk(t):
            key = None
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                key = sub.id
            elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and \
                    isinstance(sub.slice.value, str):
                key = sub.slice.value
            if key and _P_RE.search(key) and not _CORRECTED_RE.search(key):
                keys.add(key)
                root = root_name(sub)
                if root:
                    roots.add(root)
    return keys, roots


def _tail_sites(a: _Analysis) -> list[tuple[_Site, set[str]]]:
    """Tail probabilities of a scipy distribution stored as p-values (`df["p"] =
    df.apply(lambda r: stats.poisson.sf(r.k - 1, r.mu), axis=1)`, `p = 2 *
    stats.norm.sf(np.abs(z))`): one test per row, element or loop pass."""
    out: list[tuple[_Site, set[str]]] = []
    for c in a.m.calls:
        name = c.name or ""
        if c.last not in _TAIL_METHODS or not name.startswith("scipy.stats.") or \
                name.count(".") < 3:
            continue
        keys, roots = _stmt_p_keys(c.stmt)
        if not keys and c.function is not None:  # `def tail_p(row): return stats.x.sf(...)`
            by_node = {id(x.node): x for x in a.m.calls}
            for node, _via in a._callers(c.function):
                site = by_node.get(id(node))
                if site is not None:
                    more, more_roots = _stmt_p_keys(site.stmt)
                    keys, roots = keys | more, roots | more_roots
        if not keys:
            continue
        count, looped, simulated = a.multiplier(c.node)
        if simulated or (count.n == 0 and not looped):
            continue
        if not looped:  # vectorised: as many tests as the p-values it produced
            sizes = [n for k in keys | roots if (f := a.facts(k)) is not None
                     and f.kind in ("series", "ndarray", "dataframe") and (n := f.rows)]
            if not sizes or max(sizes) < 2:
                continue
            count = _Count(max(sizes), True)
        out.append((_Site(c.line, count, True, roots | {k for k in keys if a.facts(k)}),
                    keys | roots))
    return out


def _columns_tested(a: _Analysis, call: CallSite, spec: StatTest) -> _Count:
    """scipy tests vectorise over columns: `stats.ttest_ind(tumor, normal)` with two
    24 x 300 frames runs 300 tests (axis=0; axis=1 tests each row)."""
    axis = call.kwarg_value("axis", 0)
    best = 1
    for _, node in sample_args(call, spec):
        f = a.facts(node.id) if isinstance(node, ast.Name) else None
        if f is None or not f.shape or len(f.shape) != 2 or f.kind not in (
                "dataframe", "ndarray"):
            continue
        k = f.shape[0] if axis in (1, -1) else f.shape[1]
        best = max(best, k)
    return _Count(best, best > 1)


def _pairs(a: _Analysis, call: CallSite) -> _Count:
    data, between = call.kwarg("data"), call.kwarg("between")
    f = a.facts(data.id) if isinstance(data, ast.Name) else None
    col = between.value if isinstance(between, ast.Constant) else None
    if f is not None and isinstance(col, str) and col in f.unique:
        k = f.unique[col]
        return _Count(k * (k - 1) // 2, True)
    return _Count()


_P_COLUMN_RE = re.compile(r"^(?:P>\|[tz]\||PR\(>F\)|PR\(>Chi\)|Pr\(>F\))$")


def _p_columns(a: _Analysis) -> list[ast.AST]:
    """Subscripts reading the p-value column of a statsmodels table:
    `res.summary2().tables[1]["P>|t|"]`, `tab.loc["dose", "P>|z|"]`,
    `anova_lm(fit).loc["C(arm)", "PR(>F)"]`."""
    out: list[ast.AST] = []
    for node in a.nodes[ast.Subscript]:
        sl = node.slice  # type: ignore[attr-defined]
        parts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if any(isinstance(e, ast.Constant) and isinstance(e.value, str)
               and _P_COLUMN_RE.match(e.value) for e in parts):
            out.append(node)
    return out


def _picked_key(a: _Analysis, node: ast.Attribute) -> str | None:
    """The one coefficient `fit.pvalues` is indexed by, when it is a single label or position
    written in the code or held by a scalar (`fit.pvalues["dose"]`, `.pvalues.loc[term]`,
    `.pvalues.iloc[1]`, `.pvalues.get("dose")`); None for the whole vector, a mask or a list."""
    parent = a.parents.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.attr in ("loc", "iloc", "at", "iat", "get"):
        outer = a.parents.get(id(parent))
        if parent.attr == "get" and isinstance(outer, ast.Call) and outer.func is parent \
                and outer.args:
            key: ast.AST = outer.args[0]
        elif isinstance(outer, ast.Subscript) and outer.value is parent:
            key = outer.slice
        else:
            return None
    elif isinstance(parent, ast.Subscript) and parent.value is node:
        key = parent.slice
    else:
        return None
    if isinstance(key, ast.Constant) and isinstance(key.value, str | int) and \
            not isinstance(key.value, bool):
        return repr(key.value)
    if isinstance(key, ast.Name):
        f = a.facts(key.id)
        value = f.value if f is not None else None
        if value is None and isinstance(v := a._assigned.get(key.id), ast.Constant):
            value = v.value
        if isinstance(value, str | int) and not isinstance(value, bool):
            return repr(value)
    return None


def _is_small_const(node: ast.AST) -> bool:
    """A factor that corrects nothing: 2 * p is a two-sided p-value (and 2 tests are no
    family), p * 0.5 a one-sided one."""
    num = _const_number(node)
    return num is not None and num <= 2


def _claims_significance(text: str) -> bool:
    """`text` calls something significant: "significant", "sig.", not negated on its line
    ("not significant", "non-significant", "no significant difference")."""
    for mt in _SIGNIFICANT_RE.finditer(text):
        before = text[max(0, mt.start() - 60):mt.start()].rsplit("\n", 1)[-1]
        if not _NEGATED_BEFORE.search(before):
            return True
    return False


def _text_claims(a: _Analysis) -> list[str]:
    out: list[str] = []
    for s in a.m.string_constants:
        if _claims_significance(s):
            out.append("significant")
    if _claims_significance(a.ev.text):
        out.append("significant (output)")
    return out


# -- a p-value screen that chooses a model's features --------------------------------------------

_FITS = {"fit", "fit_transform", "cross_val_score", "cross_validate", "cross_val_predict",
         "OLS", "Logit", "GLM", "WLS", "Probit", "ols", "logit", "glm", "wls", "probit"}
_COLLECTORS = {"append", "add", "extend", "update", "insert"}
_SIZES = {"len", "sum", "size", "shape", "count_nonzero", "nunique"}


def _selection_targets(a: _Analysis, claim: _Claim) -> tuple[set[str], int]:
    """Names the claim's selection is stored into, and the last line of the statement that
    stores it: `keep = [c for c, p in pvals.items() if p < .01]`, `sel = pv[pv < .05].index`,
    `if p < .05: chosen.append(col)`."""
    node = claim.node
    if node is None:
        return set(), claim.line
    for st in _walk(a.ev.tree):  # type: ignore[arg-type]
        if isinstance(st, ast.Assign | ast.AnnAssign) and st.value is not None and any(
                sub is node for sub in _walk(st.value)):
            names = {n.id for t in (st.targets if isinstance(st, ast.Assign) else [st.target])
                     for n in _walk(t) if isinstance(n, ast.Name)}
            return names, st.end_lineno or st.lineno
        if isinstance(st, ast.If) and any(sub is node for sub in _walk(st.test)):
            names = set()
            for b in st.body:
                for sub in _walk(b):
                    collected = None  # chosen.append(c), chosen += [c]
                    if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                            sub.func.attr in _COLLECTORS:
                        collected = root_name(sub.func.value)
                    elif isinstance(sub, ast.AugAssign):
                        collected = root_name(sub.target)
                    if collected:
                        names.add(collected)
                    if isinstance(sub, ast.Assign):
                        names |= {r for t in sub.targets if isinstance(t, ast.Subscript)
                                  and (r := root_name(t))}
            return names, st.end_lineno or st.lineno
    return set(), claim.line


def _feeds_a_model(a: _Analysis, names: set[str], after: int) -> int | None:
    """The line of a model fit after `after` whose data is chosen by `names` (`X[keep]`,
    a formula joined from them), or None."""
    if not names:
        return None
    for c in a.m.calls:
        if c.line <= after or c.last not in _FITS or id(c.node) in a.test_nodes:
            continue
        args = [*c.node.args, *(k.value for k in c.node.keywords)]
        used = {n.id for arg in args for n in _walk(arg) if isinstance(n, ast.Name)}
        if used & names or any(a.m.dependencies(u) & names for u in used):
            return c.line
    return None


_COUNTS = _SIZES | {"mean", "any"}


def _only_counted(a: _Analysis, node: ast.AST | None) -> bool:
    """The threshold is only reduced to how many pass it: `(p < .01).sum()`,
    `np.count_nonzero(p < alpha)`, `len(p[p < .05])`, `np.mean(p < .05)`, `sum(v < .05 for v
    in p)`, `sum(1 for v in p if v < .05)` — a count, not a list of items called discoveries."""
    if node is None:
        return False
    par = a.parents.get(id(node))
    if isinstance(par, ast.Subscript) and par.slice is node:  # p[p < .05] -> its size
        node, par = par, a.parents.get(id(par))
    elif isinstance(par, ast.comprehension) and node in par.ifs:  # `... for v in p if v < .05`
        node = a.parents.get(id(par))  # type: ignore[assignment]
        par = a.parents.get(id(node))
    elif isinstance(par, ast.GeneratorExp | ast.ListComp) and par.elt is node:
        node, par = par, a.parents.get(id(par))  # `[v < .05 for v in p]`
    if isinstance(par, ast.Call) and node in par.args:
        f = par.func
        return (isinstance(f, ast.Name) and f.id in _COUNTS) or (
            isinstance(f, ast.Attribute) and f.attr in _COUNTS)
    if isinstance(par, ast.Attribute) and par.attr in _COUNTS:
        return par.attr in ("size", "shape") or isinstance(a.parents.get(id(par)), ast.Call)
    return False


def _p_sources(a: _Analysis, claim: _Claim) -> set[str]:
    """The claim's p-value names, and for a comprehension's loop variable (`v` in `sum(v < .05
    for v in p)`) the names it iterates over (`p`), which a ranked screen reads."""
    names = set(claim.p_names)
    cur = a.parents.get(id(claim.node)) if claim.node is not None else None
    while cur is not None and not isinstance(cur, ast.stmt):
        if isinstance(cur, _COMP_NODES):
            for g in cur.generators:
                if {n.id for n in _walk(g.target) if isinstance(n, ast.Name)} & names:
                    names |= {n.id for n in _walk(g.iter) if isinstance(n, ast.Name)}
        cur = a.parents.get(id(cur))
    return names


def _shown(a: _Analysis, names: set[str]) -> bool:
    """Whether the selection itself is printed (not only its size `len(keep)` or its use as
    column labels `X[keep]`)."""
    for e in a.m.reported_exprs:
        parents: dict[int, ast.AST] = {}
        for par in _walk(e):
            for ch in ast.iter_child_nodes(par):
                parents[id(ch)] = par
        for n in _walk(e):
            if not (isinstance(n, ast.Name) and n.id in names):
                continue
            par = parents.get(id(n))
            if isinstance(par, ast.Call) and n in par.args and (
                    (isinstance(par.func, ast.Name) and par.func.id in _SIZES)
                    or (isinstance(par.func, ast.Attribute) and par.func.attr in _SIZES)):
                continue  # len(keep), np.count_nonzero(mask)
            if isinstance(par, ast.Attribute) and par.attr in _SIZES:
                continue  # mask.sum(), keep.size
            if isinstance(par, ast.Subscript) and par.slice is n:
                continue
            return True
    return False


def _fmt_lines(lines: list[int]) -> str:
    lines = sorted(set(lines))
    if len(lines) == 1:
        return f"line {lines[0]}"
    return "lines " + ", ".join(str(n) for n in lines[:6]) + ("…" if len(lines) > 6 else "")


@rule("multiple_comparisons.uncorrected",
      title="Many hypothesis tests, significance at a fixed alpha, no correction")
def uncorrected_multiple_tests(ev: Evidence) -> Iterator[Finding]:
    """Many tests (a test in a loop or comprehension, pairwise combinations, many separate
    calls, many model coefficients) with significance claimed at a raw threshold and no
    Bonferroni/Holm/FDR correction or Tukey-type post-hoc procedure. A screen whose every
    threshold picks what a model is then fitted on (univariate filter feature selection:
    `keep = [...if p < .01]; model.fit(X[keep], y)`) is not a claim of discoveries: quiet,
    or a medium note when the picks are printed or called significant."""
    if ev.tree is None:
        return
    a = _Analysis(ev)
    tests = [(c, full, spec) for c, full, spec in test_calls(a.m)
             if spec.kind not in NOT_A_TEST_KINDS]
    a.test_nodes = {id(c.node) for c, _, _ in tests}
    tails = _tail_sites(a)
    if not tests and not tails and not a.nodes[ast.Compare] and "P>|" not in ev.code and \
            "(>F)" not in ev.code and not any(
            isinstance(n, ast.Attribute) and n.attr in _P_ATTRS for n in a.nodes[ast.Attribute]):
        return  # neither a test, a fitted model's p-values, nor a comparison
    if any(spec.kind == "posthoc" for _, _, spec in tests):
        return  # Tukey HSD / Dunnett: the family-wise error rate is controlled
    tests = [t for t in tests if t[2].kind != "posthoc"]

    sites: list[_Site] = []
    p_names: set[str] = set()
    test_targets = {t for c, _, _ in tests for t in c.targets}
    for call, _full, spec in tests:
        count, looped, simulated = a.multiplier(call.node)
        if simulated:
            continue
        if count.n == 0 and not looped:
            continue  # inside a function this cell does not call
        if spec.kind == "pairwise":  # pg.pairwise_tests(data=df, between="g"): k(k-1)/2
            count = count.times(_pairs(a, call))
        elif not looped and spec.kind in ("independent", "paired", "one_sample"):
            count = count.times(_columns_tested(a, call, spec))  # ttest_ind(X_a, X_b): per column
        colls = a.collections_of(call) if looped else set()
        p_names |= set(call.targets) | colls
        sites.append(_Site(call.line, count, looped, colls))
    # p-values read off a distribution's tail: `stats.poisson.sf(k - 1, mu)` per row,
    # `2 * stats.norm.sf(abs(z))` over an array of z-scores
    for site, keys in tails:
        sites.append(site)
        p_names |= keys
    # fitted models: `res.pvalues < 0.05` over many coefficients; `.pvalue(s)` in loops
    seen_attrs: set[tuple[str, str, int]] = set()
    for node in sorted(a.nodes[ast.Attribute] + _p_columns(a),
                       key=lambda n: (n.lineno, n.col_offset)):  # type: ignore[attr-defined]
        if isinstance(node, ast.Subscript):  # `table.loc["x", "P>|t|"]` of a model summary
            count, looped, simulated = a.multiplier(node)
            key = (_src(a.ev, node.value), "P>|t|", id(a._enclosing_for(node) or node))
            if looped and not simulated and key not in seen_attrs:
                seen_attrs.add(key)
                sites.append(_Site(node.lineno, count, True, set()))
                if (root := root_name(node.value)) is not None:
                    p_names.add(root)
            continue
        if isinstance(node, ast.Attribute) and node.attr in _P_ATTRS:
            inner = node.value
            if isinstance(inner, ast.Call) and id(inner) in a.test_nodes:
                continue
            root = root_name(inner)
            if root in test_targets:
                continue  # `res.pvalue` of a test already counted
            if node.attr == "pvalue" and not (
                    (f := a.facts(root)) is not None and f.kind == "result"):
                continue
            # the same model's p-values read twice in one loop (`if fit.f_pvalue < .05:
            # print(fit.f_pvalue)`) are one test per iteration
            loop = a._enclosing_for(node)
            key = (_src(a.ev, inner), node.attr, id(loop) if loop else node.lineno)
            # one planned coefficient picked by name (`fit.pvalues["treated:post"]`,
            # `.pvalues.loc["dose"]`): one test, however many terms the model has, and the
            # same coefficient read on several lines is still that one test
            picked = _picked_key(a, node) if node.attr == "pvalues" and loop is None else None
            if picked is not None:
                key = (_src(a.ev, inner), node.attr, picked)
            if key in seen_attrs:
                continue
            seen_attrs.add(key)
            count, looped, simulated = a.multiplier(node)
            if simulated or (count.n == 0 and not looped):
                continue
            f = a.facts(inner.id) if isinstance(inner, ast.Name) else None
            if picked is not None and not looped:
                sites.append(_Site(node.lineno, _Count(1), False, set()))
            elif node.attr == "pvalues" and not looped:
                vals = f.values if f is not None else None
                if vals:
                    n = max(1, len(vals) - 1)  # the intercept is rarely a claim
                    sites.append(_Site(node.lineno, _Count(n, True), False, set()))
                else:
                    sites.append(_Site(node.lineno, _Count(None), True, set()))
            elif looped:
                sites.append(_Site(node.lineno, count, True, set()))
            if root:
                p_names.add(root)

    claims = _threshold_compares(a, p_names)
    raw = [c for c in claims if not c.corrected]
    if not sites and not raw:
        return
    if _corrections(a) or (claims and not raw):
        return

    # number of tests: the kernel's collections first, then the code
    n_facts: int | None = None
    p_values: list[float] | None = None
    colls = set().union(*(s.collections for s in sites)) if sites else set()
    size, vals = a.collection_size(colls)
    if size is not None and size > 1:
        n_facts, p_values = size, vals
    if n_facts is None:  # p-value collections the claims read (`pvals`, `results.p`)
        names: set[str] = set()
        for c in raw:
            for nm in c.p_names:
                names |= {nm} | a.m.dependencies(nm)
        samples = {n.id for c, _, spec in tests for _, arg in sample_args(c, spec)
                   for n in _walk(arg) if isinstance(n, ast.Name)}
        candidates = {nm for nm in names - samples if (f := a.facts(nm)) is not None and (
            _P_RE.search(nm) or any(_P_RE.search(col) for col in f.dtypes if col))}
        size, vals = a.collection_size(candidates)
        if size is not None and size > 1:
            n_facts, p_values = size, vals
            if any(_adjusted_p_column(f, col) for nm in candidates
                   if (f := a.facts(nm)) for col in f.dtypes):
                return  # the table has adjusted p-values; a raw filter may be deliberate
    code_n: float | None = 0
    code_facts = False
    for s in sites:
        if s.count.n is None:
            code_n = None
            break
        code_n += s.count.n
        code_facts = code_facts or s.count.from_facts
    looped = any(s.looped for s in sites)

    if code_n is not None:
        code_n = round(code_n)
    n = n_facts if n_facts is not None else code_n
    from_facts = n_facts is not None or code_facts
    if n is not None and n < 5:
        return
    alpha = raw[0].alpha if raw else 0.05
    text = _text_claims(a)
    # a screen: every raw threshold picks what a model is then fitted on (univariate filter
    # feature selection). Its p-values choose inputs; the claim is the model's score, which
    # the multiplicity does not invalidate. Quiet, unless the picks are also shown or called
    # significant: a note then, never a blocker.
    # A threshold that is only counted (`(p < .01).sum()` printed beside the screen) is a
    # description of the screen when the same p-values choose the model's inputs, by the
    # threshold or by rank (`top = np.argsort(p)[:40]; clf.fit(X[:, top], y)`).
    screen_fit: int | None = None
    if raw:
        fits = []
        picks = []  # the claims that select items (not only count them)
        ranked: int | bool | None = False  # not yet looked up
        first = min([s.line for s in sites] or [min(c.line for c in raw)])
        for c in raw:
            targets, end = _selection_targets(a, c)
            fit = _feeds_a_model(a, targets, end)
            if fit is None and _only_counted(a, c.node):
                if ranked is False:
                    ranked = _feeds_a_model(
                        a, set().union(*(_p_sources(a, c) for c in raw)) - set(a.m.aliases),
                        first)
                fit = ranked  # type: ignore[assignment]
            else:
                picks.append(targets)
            fits.append(fit)
        if all(f is not None for f in fits):
            screen_fit = fits[0]
            shown = text or any(_shown(a, targets) for targets in picks)
            if not shown:
                return
    claimed = bool(raw) or (bool(text) and not claims)
    lines = sorted({s.line for s in sites} | {c.line for c in raw})
    values: dict[str, object] = {"n_tests": n, "alpha": alpha}
    if p_values:
        below = sum(1 for v in p_values if v < alpha)
        values["n_below_alpha"] = below
        values["expected_false_positives"] = round(len(p_values) * alpha, 2)

    if n is None:
        if not (claimed and looped):
            return
        severity, confidence = "high", 0.6
        how_many = "an unknown number of tests (the loop's length is not known)"
    elif not claimed:
        if n < 10 or not any(a.m.is_reported(nm) for nm in p_names | colls):
            return
        severity, confidence = "medium", 0.45
        how_many = f"{n} tests"
    elif n >= 10:
        severity, confidence = "critical", 0.9 if from_facts else 0.85
        how_many = f"{n} tests"
    else:
        severity, confidence = "high", 0.8 if from_facts else 0.75
        how_many = f"{n} tests"

    if screen_fit is not None:
        severity, confidence = "medium", 0.5
    # a fixed level already strict enough for the family: 0.01 over 5 tests (n x alpha <=
    # 0.05 is Bonferroni's own bound) controls the family-wise error by itself; up to 1.5x
    # the conventional 5% (0.01 over 6-7 tests) is a note, not a claim the data cannot bear
    strict = None
    if n is not None and raw and screen_fit is None:
        worst = max(c.alpha for c in raw)
        fwer_max = 1 - (1 - worst) ** n
        if n * worst <= 0.05:
            return
        if fwer_max <= 0.075:
            strict = fwer_max
            severity, confidence = "medium", 0.4
    where = _fmt_lines([s.line for s in sites]) if sites else "an earlier cell"
    claim_txt = (f"significance is decided at a fixed alpha = {alpha:g} "
                 f"({_fmt_lines([c.line for c in raw])}: `{raw[0].p_expr}`)" if raw else
                 "results are called significant or starred at a fixed level")
    chance = ""
    if n is not None and claimed:
        fwer = 1 - (1 - alpha) ** n
        chance = (f" With {n} independent tests at {alpha:g}, about {n * alpha:.1f} false "
                  f"positive(s) are expected by chance alone and the probability of at least "
                  f"one is {fwer:.0%}.")
        if "n_below_alpha" in values:
            chance += f" {values['n_below_alpha']} p-value(s) fall below {alpha:g}."
    explanation = (f"The cell runs {how_many} ({where}) and {claim_txt} without correcting "
                   f"for the number of comparisons.{chance}")
    if not claimed:
        explanation = (f"The cell reports raw p-values of {how_many} ({where}) without any "
                       "multiplicity correction; readers will judge them one by one at 0.05.")
    if strict is not None:
        explanation += (f" The level is already strict for {n} tests (family-wise error "
                        f"{strict:.0%}, near the conventional 5%), so this is a minor point: "
                        f"state it, or use alpha = {0.05 / n:.3g} (0.05 / {n}) or Holm.")
    if screen_fit is not None:
        explanation += (f" The selection feeds the model fitted on line {screen_fit}, so as a "
                        "feature screen it is fine, but the selected items are shown as "
                        "findings: do not read them as discoveries without a correction.")
    yield Finding(
        explanation=explanation, severity=severity, confidence=confidence,
        evidence={"lines": lines, "values": values},
        suggestion=("Adjust the p-values for the family of tests and decide on the adjusted "
                    "values: `from statsmodels.stats.multitest import multipletests; "
                    "reject, p_adj, _, _ = multipletests(pvals, alpha=0.05, "
                    "method='fdr_bh')` (or 'holm' for family-wise control; "
                    "`scipy.stats.false_discovery_control(pvals)`), or use a post-hoc "
                    "procedure such as Tukey's HSD (`pairwise_tukeyhsd`) for pairwise "
                    "group comparisons."),
    )


# --- from the analysis trace: the tests that actually ran ---------------------------------
@rule("multiple_comparisons.tests_ran_uncorrected",
      title="Many hypothesis tests ran, with no correction for multiplicity")
def tests_ran_uncorrected(ev: Evidence) -> Iterator[Finding]:
    """Reads the trace: the kernel counted the tests the cell ran (in loops, comprehensions,
    helpers alike). A family of them with no correction anywhere in the cell, where some
    result clears the usual alpha, is read one p-value at a time."""
    from ..thresholds import has_word, section

    cfg = section("multiple_comparisons")
    tests = [e for e in ev.trace.of("test") if e.get("func") not in cfg["not_claims"]]
    by_line: dict[Any, int] = {}
    for e in tests:
        by_line[e.get("line")] = by_line.get(e.get("line"), 0) + 1
    tests = [e for e in tests if by_line[e.get("line")] <= cfg["simulation_calls"]]
    if len(tests) < cfg["min_tests"] or ev.trace.of("correction"):
        return
    if has_word(ev.code + "\n" + ev.text, cfg["correction_words"]):
        return
    pvalues = [p for e in tests if isinstance(p := e.get("pvalue"), float)]
    hits = sum(p < cfg["alpha"] for p in pvalues)
    if not hits:
        return
    n, alpha = len(tests), cfg["alpha"]
    screen = any(e.get("line", 0) > max(x.get("line") or 0 for x in tests)
                 for e in ev.trace.of("fit", "model_fit"))
    claimed = any(re.search(p, ev.code + "\n" + ev.text, re.IGNORECASE)
                  for p in cfg["claim_patterns"])
    funcs = ", ".join(sorted({str(e.get("func")) for e in tests}))
    yield Finding(
        explanation=(f"The cell ran {n} hypothesis tests ({funcs}) "
                     f"and {hits} came out below {alpha:g}, with no correction for the number "
                     f"of tests: about {n * alpha:.1f} would fall below {alpha:g} by chance "
                     f"alone (family-wise error {1 - (1 - alpha) ** n:.0%})."),
        severity="critical" if claimed and not screen else "medium", confidence=0.85,
        evidence={"lines": sorted({e["line"] for e in tests if isinstance(e.get("line"), int)}),
                  "values": {"tests_run": n, "below_alpha": hits}},
        suggestion="Correct the family before reading any one result: `multipletests(pvals, "
                   "method='holm')` or `'fdr_bh'` (statsmodels), and report every test that "
                   "ran, not only the significant ones.")
