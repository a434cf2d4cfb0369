"""What a cell's code does, read from its AST: imports and aliases, calls in source order
with their resolved names, assignments and a simple data-flow graph, and what the cell
reports (prints, f-strings, the displayed last expression).

Rules ask questions of this model instead of walking the AST themselves. Names resolve
through the cell's imports, the notebook's earlier imports, the kernel's facts (a name that
is a module or function knows its qualified name), and the community's conventional
aliases (`pd`, `np`, `stats`, `sm`, `smf`) as a last resort.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from .ast_cache import TreeIndex, children, nodes_of, tree_index
from .ast_cache import walk as _walk

if TYPE_CHECKING:
    from .evidence import Evidence

CONVENTIONAL_ALIASES = {
    "pd": "pandas", "np": "numpy", "stats": "scipy.stats", "st": "scipy.stats",
    "sm": "statsmodels.api", "smf": "statsmodels.formula.api", "plt": "matplotlib.pyplot",
    "sns": "seaborn",
}

# Factories whose result type is known without the kernel.
FACTORY_TYPES = {
    "sklearn.pipeline.make_pipeline": "sklearn.pipeline.Pipeline",
    "pandas.read_csv": "pandas.DataFrame",
    "pandas.DataFrame": "pandas.DataFrame",
    "pandas.Series": "pandas.Series",
}

_LOOP_NODES = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp,
               ast.GeneratorExp)


@dataclass
class CallSite:
    node: ast.Call
    line: int
    end_line: int
    name: str | None  # resolved dotted name: "scipy.stats.ttest_ind", "sklearn….StandardScaler.fit"
    method: str | None  # the attribute called, for `obj.method(...)`
    receiver: ast.expr | None  # `obj` in `obj.method(...)`
    receiver_root: str | None  # the root Name of the receiver chain (`df` in `df.x.mean()`)
    receiver_type: str | None  # qualified type of the receiver when known
    targets: list[str]  # names assigned by the statement holding this call
    loop_depth: int  # enclosing for/while loops and comprehensions
    function: str | None  # enclosing def, if any
    stmt: ast.stmt
    order: int = 0  # position in source order

    @property
    def last(self) -> str:
        """Last component of the called name: "ttest_ind", "fit_transform"."""
        if self.name:
            return self.name.rsplit(".", 1)[-1]
        return self.method or ""

    def matches(self, *names: str) -> bool:
        """True if the call is any of `names`: a dotted suffix ("stats.ttest_ind",
        "StandardScaler.fit") or a bare last component ("ttest_ind")."""
        for n in names:
            if self.name and (self.name == n or self.name.endswith("." + n)):
                return True
            if "." not in n and self.last == n:
                return True
        return False

    def arg(self, index: int, keyword: str | None = None) -> ast.expr | None:
        if keyword is not None:
            for kw in self.node.keywords:
                if kw.arg == keyword:
                    return kw.value
        if index < len(self.node.args):
            a = self.node.args[index]
            return None if isinstance(a, ast.Starred) else a
        return None

    def kwarg(self, name: str) -> ast.expr | None:
        for kw in self.node.keywords:
            if kw.arg == name:
                return kw.value
        return None

    def has_kwarg(self, name: str) -> bool:
        return any(kw.arg == name for kw in self.node.keywords)

    def kwarg_value(self, name: str, default: object = None) -> object:
        """A keyword's literal value (None literal, numbers, strings, bools), else `default`."""
        node = self.kwarg(name)
        if node is None:
            return default
        try:
            return ast.literal_eval(node)
        except (ValueError, SyntaxError):
            return default


@dataclass
class Assignment:
    line: int
    targets: list[str]  # every Name bound (tuple unpacking flattened)
    value: ast.expr | None  # None for for-loop targets and augmented assigns without value
    stmt: ast.stmt
    loaded: set[str] = field(default_factory=set)  # names the value reads


def names_in(node: ast.AST | None) -> set[str]:
    """Names read anywhere in `node`."""
    if node is None:
        return set()
    return {n.id for n in _walk(node) if isinstance(n, ast.Name)}


def root_name(node: ast.AST | None) -> str | None:
    """`df` for `df`, `df.a.b`, `df["x"][0]`, `df.loc[m, "x"]`, `df.dropna().x`."""
    while node is not None:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute | ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            return None
    return None


def called_name(node: ast.Call) -> str:
    """The last component of what a call calls: `fit` for `model.fit(...)`, `len` for
    `len(...)`, '' for anything else (`f()()`, a subscript)."""
    f = node.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return ""


def name_tokens(name: str) -> list[str]:
    """Lower-case words of an identifier: `pValueAdj` and `p_value_adj` -> p, value, adj."""
    name = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", name)
    return [t for t in re.split(r"[_\W]+", name.lower()) if t]


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        out: list[str] = []
        for elt in target.elts:
            out += _bound_names(elt.value if isinstance(elt, ast.Starred) else elt)
        return out
    return []


def _mutated_root(target: ast.AST) -> str | None:
    """`df` for `df["x"] = …` and `df.loc[…] = …`: a write into an existing object."""
    if isinstance(target, ast.Subscript | ast.Attribute):
        return root_name(target)
    return None


class CodeModel:
    def __init__(self, evidence: Evidence):
        self.evidence = evidence
        self.code = evidence.code
        self.tree = evidence.tree or ast.Module(body=[], type_ignores=[])
        self._prior_tree = _parse_quietly(evidence.prior_code)

    # -- names -----------------------------------------------------------------------------

    @cached_property
    def aliases(self) -> dict[str, str]:
        """Local name -> qualified module or object, from every source we have."""
        table = dict(CONVENTIONAL_ALIASES)
        for name, facts in self.evidence.objects.items():
            if facts.qualname and facts.kind in ("module", "callable", "class"):
                table[name] = facts.qualname
        for tree in (self._prior_tree, self.tree):
            for node in nodes_of(tree, ast.Import, ast.ImportFrom):
                if isinstance(node, ast.Import):
                    for a in node.names:
                        if a.asname:
                            table[a.asname] = a.name
                        else:
                            top = a.name.split(".")[0]
                            table[top] = top
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    for a in node.names:
                        table[a.asname or a.name] = f"{node.module}.{a.name}"
        return table

    def dotted(self, node: ast.AST | None) -> str | None:
        """Qualified name of a Name/Attribute chain rooted at an import: `pd.read_csv` ->
        "pandas.read_csv". None when the root is not an imported name."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        if node.id in self.variable_types and node.id not in self._imported_names:
            return None  # a variable that shadows a conventional alias
        return ".".join([self.aliases[node.id], *reversed(parts)])

    @cached_property
    def _imported_names(self) -> set[str]:
        names: set[str] = set()
        for tree in (self._prior_tree, self.tree):
            for node in nodes_of(tree, ast.Import, ast.ImportFrom):
                names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        return names

    @cached_property
    def variable_types(self) -> dict[str, str]:
        """Variable -> qualified type: from `x = SomeClass(...)` in this cell or earlier
        cells, overridden by what the kernel reported."""
        types: dict[str, str] = {}
        for tree in (self._prior_tree, self.tree):
            for node in nodes_of(tree, ast.Assign):
                if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                        and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                    called = self._dotted_no_vars(node.value.func)
                    if called is None:
                        continue
                    last = called.rsplit(".", 1)[-1]
                    if called in FACTORY_TYPES:
                        types[node.targets[0].id] = FACTORY_TYPES[called]
                    elif last[:1].isupper():
                        types[node.targets[0].id] = called
        for name, facts in self.evidence.objects.items():
            if facts.type and facts.kind not in ("module", "callable", "class"):
                types[name] = facts.type
        return types

    def _dotted_no_vars(self, node: ast.AST) -> str | None:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        return ".".join([self.aliases[node.id], *reversed(parts)])

    def type_of(self, name: str | None) -> str | None:
        return self.variable_types.get(name) if name else None

    # -- calls -----------------------------------------------------------------------------

    @cached_property
    def calls(self) -> list[CallSite]:
        sites: list[CallSite] = []
        self._collect_calls(self.tree, sites)
        sites.sort(key=lambda c: (c.line, c.node.col_offset))
        for i, c in enumerate(sites):
            c.order = i
        return sites

    def _collect_calls(self, tree: ast.AST, sites: list[CallSite]) -> None:
        """Every call in source pre-order, with its loop depth, enclosing function and
        statement. An explicit stack: a recursive call per node cost more than the work."""
        index = tree_index(tree)
        if index is not None:
            self._collect_indexed_calls(index, sites)
            return
        stack: list[tuple[ast.AST, int, str | None, ast.stmt | None, list[str]]] = [
            (tree, 0, None, None, [])]
        while stack:
            node, loop_depth, function, stmt, targets = stack.pop()
            if isinstance(node, ast.stmt):
                stmt = node
                targets = self._stmt_targets(node)
            if isinstance(node, ast.Call):
                sites.append(self._call_site(node, loop_depth, function, stmt, targets))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                function = node.name
            if isinstance(node, _LOOP_NODES):
                loop_depth += 1
            stack += [(child, loop_depth, function, stmt, targets)
                      for child in reversed(children(node))]

    def _collect_indexed_calls(self, index: TreeIndex, sites: list[CallSite]) -> None:
        """`_collect_calls` over the review's index of the tree: the same pre-order, each
        node's children read as positions from the index instead of from its fields."""
        nodes, first, stop = index.nodes, index.first, index.stop
        stack: list[tuple[int, int, str | None, ast.stmt | None, list[str]]] = [
            (0, 0, None, None, [])]
        while stack:
            i, loop_depth, function, stmt, targets = stack.pop()
            node = nodes[i]
            if isinstance(node, ast.stmt):
                stmt = node
                targets = self._stmt_targets(node)
            if isinstance(node, ast.Call):
                sites.append(self._call_site(node, loop_depth, function, stmt, targets))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                function = node.name
            if isinstance(node, _LOOP_NODES):
                loop_depth += 1
            stack += [(j, loop_depth, function, stmt, targets)
                      for j in range(stop[i] - 1, first[i] - 1, -1)]

    @staticmethod
    def _stmt_targets(stmt: ast.stmt) -> list[str]:
        if isinstance(stmt, ast.Assign):
            return [n for t in stmt.targets for n in _bound_names(t)]
        if isinstance(stmt, ast.AnnAssign | ast.AugAssign):
            return _bound_names(stmt.target)
        return []

    def _call_site(self, node: ast.Call, loop_depth: int, function: str | None,
                   stmt: ast.stmt | None, targets: list[str]) -> CallSite:
        func = node.func
        method = receiver = root = rtype = None
        name = self.dotted(func)
        if isinstance(func, ast.Attribute):
            method, receiver = func.attr, func.value
            root = root_name(receiver)
            if name is None:
                if isinstance(receiver, ast.Name):
                    rtype = self.type_of(receiver.id)
                elif isinstance(receiver, ast.Call):  # StandardScaler().fit_transform(X)
                    inner = self.dotted(receiver.func)
                    if inner and inner.rsplit(".", 1)[-1][:1].isupper():
                        rtype = inner
                if rtype:
                    name = f"{rtype}.{method}"
        elif isinstance(func, ast.Name) and name is None:
            name = func.id  # a builtin, a local function, or a name we cannot resolve
        return CallSite(node=node, line=node.lineno, end_line=node.end_lineno or node.lineno,
                        name=name, method=method, receiver=receiver, receiver_root=root,
                        receiver_type=rtype, targets=list(targets), loop_depth=loop_depth,
                        function=function, stmt=stmt or ast.Pass())

    def calls_to(self, *names: str) -> list[CallSite]:
        return [c for c in self.calls if c.matches(*names)]

    def first_call(self, *names: str) -> CallSite | None:
        found = self.calls_to(*names)
        return found[0] if found else None

    # -- assignments and data flow ---------------------------------------------------------

    @cached_property
    def assignments(self) -> list[Assignment]:
        out: list[Assignment] = []
        for node in _walk(self.tree):
            if isinstance(node, ast.Assign):
                names = [n for t in node.targets for n in _bound_names(t)]
                mutated = [r for t in node.targets if (r := _mutated_root(t))]
                out.append(Assignment(node.lineno, names + mutated, node.value, node,
                                      names_in(node.value)))
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                out.append(Assignment(node.lineno, _bound_names(node.target), node.value, node,
                                      names_in(node.value)))
            elif isinstance(node, ast.AugAssign):
                root = root_name(node.target)
                out.append(Assignment(node.lineno, [root] if root else [], node.value, node,
                                      names_in(node.value) | ({root} if root else set())))
            elif isinstance(node, ast.For | ast.comprehension):
                out.append(Assignment(getattr(node, "lineno", 0) or _line_of(node.iter),
                                      _bound_names(node.target), node.iter, node,  # type: ignore[arg-type]
                                      names_in(node.iter)))
        # in-place methods write into their receiver: df.dropna(inplace=True), X.fillna(…)
        for c in self.calls:
            if c.receiver_root and c.kwarg_value("inplace") is True:
                out.append(Assignment(c.line, [c.receiver_root], c.node, c.stmt,
                                      names_in(c.node)))
        out.sort(key=lambda a: a.line)
        return out

    def assigned_at(self, name: str) -> list[Assignment]:
        return [a for a in self.assignments if name in a.targets]

    @cached_property
    def _graph(self) -> dict[str, set[str]]:
        graph: dict[str, set[str]] = {}
        for a in self.assignments:
            for t in a.targets:
                graph.setdefault(t, set()).update(a.loaded - {t})
        return graph

    def depends_on(self, name: str, source: str) -> bool:
        """Whether `name` was computed (transitively, anywhere in the cell) from `source`."""
        return source in self.dependencies(name)

    def dependencies(self, name: str) -> set[str]:
        seen: set[str] = set()
        stack = [name]
        while stack:
            for dep in self._graph.get(stack.pop(), ()):
                if dep not in seen:
                    seen.add(dep)
                    stack.append(dep)
        return seen

    # -- names the cell touched (what introspection asks about) -----------------------------

    @cached_property
    def stored_names(self) -> list[str]:
        return _unique(t for a in self.assignments for t in a.targets)

    @cached_property
    def loaded_names(self) -> list[str]:
        return _unique(n.id for n in _walk(self.tree)
                       if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))

    # -- what the cell reports -------------------------------------------------------------

    @cached_property
    def reported_exprs(self) -> list[ast.expr]:
        """Expressions the user sees: print() arguments, f-string fields, display() args and
        the cell's last bare expression."""
        found: list[ast.expr] = []
        for c in self.calls:
            if c.matches("print", "display", "IPython.display.display") or c.last == "print":
                found += [a for a in c.node.args if not isinstance(a, ast.Starred)]
        for node in _walk(self.tree):
            if isinstance(node, ast.FormattedValue):
                found.append(node.value)
        body = self.tree.body
        if body and isinstance(body[-1], ast.Expr):
            found.append(body[-1].value)
        return found

    @cached_property
    def reported_names(self) -> set[str]:
        names: set[str] = set()
        for e in self.reported_exprs:
            names |= names_in(e)
        return names

    def is_reported(self, name: str) -> bool:
        """`name`, or something computed from it, reaches the output."""
        if name in self.reported_names:
            return True
        return any(self.depends_on(r, name) for r in self.reported_names)

    # -- source ----------------------------------------------------------------------------

    def src(self, node: ast.AST | None) -> str:
        if node is None:
            return ""
        return ast.get_source_segment(self.code, node) or ast.unparse(node)

    @cached_property
    def string_constants(self) -> list[str]:
        return [n.value for n in _walk(self.tree)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)]

    def loops(self) -> Iterator[ast.AST]:
        for node in _walk(self.tree):
            if isinstance(node, _LOOP_NODES):
                yield node


def _parse_quietly(code: str) -> ast.Module:
    try:
        return ast.parse(code or "")
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def _line_of(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


# -- helpers shared by the code-reading rules ------------------------------------------------

def const_strs(node: ast.AST | None) -> list[str] | None:
    """['a', 'b'] for 'a', ['a', 'b'], ('a', 'b'); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def kwarg(node: ast.Call, name: str) -> ast.expr | None:
    """The expression passed as keyword `name` to a call, or None."""
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def literal(node: ast.AST | None, default: object = None) -> object:
    """The value of a literal expression, else `default`."""
    if node is None:
        return default
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return default
