"""`walk(node)`: `ast.walk`, remembered for the length of one review.

The rules walk the same cell's syntax tree hundreds of times (every call site, assignment
and loop asks for its descendants), which was half of the rules' time. Inside
`cached_walks()` (what `AnalysisCritic.review` runs the rules in) each node's descendants are
listed once; outside it `walk` is plain `ast.walk`. The memo holds the nodes it lists, so an id
is never reused while cached; trees are never changed after parsing (rules that rewrite an
expression rewrite a deep copy, which has new ids), and the memo is per review and per
context (thread or task), so concurrent reviews never share one.

The first walk of a whole `ast.Module` also indexes it (`TreeIndex`): in breadth-first order a
node's descendants at each depth are one contiguous run, so a later walk of any node of the
module (~57 of the ~60 walks a review makes, ~12 nodes each) is a few list slices instead of
a Python loop over every node's fields. Nodes outside an indexed module (a rewritten copy, a
tree walked only in parts) are listed as before.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar


class TreeIndex:
    """One module's nodes in `ast.walk`'s breadth-first order, with where each node's
    children are in it.

    A node's children are appended together, so its descendants at each depth are one
    contiguous run: the children of run [a, b) are [first[a], stop[b - 1]). Walking a node
    of the module is then a few slices instead of a Python loop over every node's fields.
    `pos` maps id(node) -> position; `nodes` holds every node, so the ids stay valid while
    the index lives. A node that occurs twice (the parser shares the `Load` / `Store` /
    operator singletons, which have no children) keeps its last position: its walk is
    itself wherever it occurs."""

    __slots__ = ("_by_type", "_parents", "first", "nodes", "pos", "stop")

    def __init__(self, tree: ast.AST) -> None:
        nodes = [tree]
        append = nodes.append
        first: list[int] = []
        stop: list[int] = []
        add_first = first.append
        add_stop = stop.append
        i = 0
        while i < len(nodes):
            n = nodes[i]
            i += 1
            add_first(len(nodes))
            for name in n._fields:
                v = getattr(n, name, None)
                if v.__class__ is list:
                    for x in v:
                        if isinstance(x, _AST):
                            append(x)
                elif isinstance(v, _AST):
                    append(v)
            add_stop(len(nodes))
        self.nodes = nodes
        self.first = first
        self.stop = stop
        self.pos = {id(n): i for i, n in enumerate(nodes)}
        self._parents: dict[int, ast.AST] | None = None
        self._by_type: dict[type, list[int]] | None = None

    def walk(self, i: int) -> tuple[ast.AST, ...]:
        """`tuple(ast.walk(nodes[i]))`: the node, then its descendants' run at each depth."""
        nodes, first, stop = self.nodes, self.first, self.stop
        a, b = first[i], stop[i]
        if a == b:
            return (nodes[i],)
        out = nodes[i:i + 1]
        while a < b:
            out += nodes[a:b]
            a, b = first[a], stop[b - 1]
        return tuple(out)


    def parents(self) -> dict[int, ast.AST]:
        """id(child) -> parent, built as a walk listing each node's children would build it
        (a shared singleton keeps its last parent)."""
        if self._parents is None:
            nodes, first, stop = self.nodes, self.first, self.stop
            out: dict[int, ast.AST] = {}
            for i in range(len(nodes)):
                a, b = first[i], stop[i]
                if a < b:
                    p = nodes[i]
                    for c in nodes[a:b]:
                        out[id(c)] = p
            self._parents = out
        return self._parents


    def of_type(self, *classes: type[ast.AST]) -> list[ast.AST]:
        """The nodes of these concrete classes (a parsed tree has no subclasses of them), in
        walk order: one pass over the tree sorts every node by class for all the asks."""
        by = self._by_type
        if by is None:
            by = {}
            for i, n in enumerate(self.nodes):
                cls = n.__class__
                found = by.get(cls)
                if found is None:
                    by[cls] = [i]
                else:
                    found.append(i)
            self._by_type = by
        nodes = self.nodes
        if len(classes) == 1:
            return [nodes[i] for i in by.get(classes[0], ())]
        return [nodes[i] for i in sorted(i for c in classes for i in by.get(c, ()))]


class _Memo:
    __slots__ = ("indexed", "walks")

    def __init__(self) -> None:
        self.walks: dict[int, tuple[ast.AST, tuple[ast.AST, ...]]] = {}
        self.indexed: list[TreeIndex] = []


_MEMO: ContextVar[_Memo | None] = ContextVar("nbcritic_ast_walks", default=None)


def walk(node: ast.AST) -> Iterable[ast.AST]:
    memo = _MEMO.get()
    if memo is None:
        return ast.walk(node)
    walks = memo.walks
    key = id(node)
    hit = walks.get(key)
    if hit is not None and hit[0] is node:
        return hit[1]
    nodes: tuple[ast.AST, ...] | None = None
    for index in memo.indexed:
        i = index.pos.get(key)
        if i is not None and index.nodes[i] is node:
            nodes = index.walk(i)
            break
    if nodes is None:
        if node.__class__ is ast.Module:
            index = TreeIndex(node)
            memo.indexed.append(index)
            nodes = index.walk(0)
        else:
            nodes = _descendants(node)
    walks[key] = (node, nodes)
    return nodes


def tree_index(tree: ast.AST) -> TreeIndex | None:
    """The review's index of `tree` (built on first use), or None outside a review. Its
    `nodes` are `ast.walk(tree)`'s; the children of `nodes[i]` are
    `nodes[first[i]:stop[i]]` (what `children` lists), so a pass over a whole tree can
    follow positions instead of listing every node's fields again."""
    memo = _MEMO.get()
    if memo is None:
        return None
    for index in memo.indexed:
        if index.nodes[0] is tree:
            return index
    index = TreeIndex(tree)
    memo.indexed.append(index)
    return index


def parents(tree: ast.AST) -> dict[int, ast.AST]:
    """id(child) -> parent over `tree` (ids of its live nodes): within a review, one map per
    tree shared by every rule that asks."""
    index = tree_index(tree)
    if index is not None:
        return index.parents()
    out: dict[int, ast.AST] = {}
    for n in ast.walk(tree):
        for c in children(n):
            out[id(c)] = n
    return out


def nodes_of(tree: ast.AST, *classes: type[ast.AST]) -> list[ast.AST]:
    """`[n for n in ast.walk(tree) if isinstance(n, classes)]` for concrete node classes
    (none of which a parsed tree subclasses); within a review, from the tree's index."""
    index = tree_index(tree)
    if index is not None:
        return index.of_type(*classes)
    return [n for n in ast.walk(tree) if isinstance(n, classes)]


def _descendants(node: ast.AST) -> tuple[ast.AST, ...]:
    """`tuple(ast.walk(node))` (same breadth-first order) without its per-node generators,
    which cost a third of the walk."""
    out = [node]
    append = out.append
    i = 0
    while i < len(out):
        n = out[i]
        i += 1
        for name in n._fields:
            v = getattr(n, name, None)
            if v.__class__ is list:
                for x in v:
                    if isinstance(x, _AST):
                        append(x)
            elif isinstance(v, _AST):
                append(v)
    return tuple(out)


_AST = ast.AST


def children(node: ast.AST) -> list[ast.AST]:
    """`list(ast.iter_child_nodes(node))`, same order, without the generators."""
    out: list[ast.AST] = []
    for name in node._fields:
        v = getattr(node, name, None)
        if v.__class__ is list:
            out += [x for x in v if isinstance(x, _AST)]
        elif isinstance(v, _AST):
            out.append(v)
    return out


@contextlib.contextmanager
def cached_walks() -> Iterator[None]:
    token = _MEMO.set(_Memo())
    try:
        yield
    finally:
        _MEMO.reset(token)
