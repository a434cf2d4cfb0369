"""critics.ast_cache: ast.walk remembered for one review, plain outside it."""

from __future__ import annotations

import ast
import threading

from critics.ast_cache import cached_walks, walk


def test_outside_a_review_walk_is_plain_ast_walk() -> None:
    tree = ast.parse("x = f(a, b)\ny = x + 1")
    assert [type(n) for n in walk(tree)] == [type(n) for n in ast.walk(tree)]
    assert walk(tree) is not walk(tree)  # nothing remembered


def test_inside_a_review_each_node_is_walked_once() -> None:
    tree = ast.parse("x = f(a, b)\ny = x + 1")
    with cached_walks():
        first = walk(tree)
        assert walk(tree) is first
        assert list(first) == list(ast.walk(tree))
        call = next(n for n in first if isinstance(n, ast.Call))
        assert [type(n) for n in walk(call)] == [ast.Call, ast.Name, ast.Name, ast.Name,
                                                ast.Load, ast.Load, ast.Load]
    assert walk(tree) is not first  # forgotten when the review ends


def test_a_copy_of_a_node_is_walked_afresh() -> None:
    import copy

    tree = ast.parse("f(a)")
    with cached_walks():
        walk(tree)
        clone = copy.deepcopy(tree)
        clone.body[0].value.args.append(ast.Name("b", ast.Load()))  # a rewritten copy
        assert "b" in [n.id for n in walk(clone) if isinstance(n, ast.Name)]


def test_concurrent_reviews_do_not_share_a_memo() -> None:
    tree = ast.parse("g(1)")
    seen: dict[str, object] = {}
    with cached_walks():
        seen["main"] = walk(tree)

        def other() -> None:
            with cached_walks():
                seen["thread"] = walk(tree)

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert walk(tree) is seen["main"]
    assert seen["thread"] is not seen["main"]


def test_children_and_cached_walk_keep_ast_order() -> None:
    from critics.ast_cache import children

    tree = ast.parse("for i, (a, b) in enumerate(zip(x, y)):\n"
                     "    z = {k: f(v)[0] for k, v in d.items() if v} or [*a, b]\n"
                     "print(f'{z!r:>5}', sep='')\n")
    for node in ast.walk(tree):
        assert children(node) == list(ast.iter_child_nodes(node))
    with cached_walks():
        assert list(walk(tree)) == list(ast.walk(tree))


_VARIED = [
    "x = f(a, b)\ny = x + 1",
    "z = [[i * j for j in range(i) if j % 2] for i in (k for k in ks if k)]\n"
    "w = {k: {v for v in vs} for k, vs in d.items()}",
    "g = lambda a, b=1, *c, d, **e: (lambda q: q + a)(b) if c else e[d]",
    "try:\n    import numpy as np\nexcept (ImportError, OSError) as exc:\n    np = None\n"
    "else:\n    pass\nfinally:\n    del exc",
    "async def h(x, /, y):\n    async with a as (b, c):\n        async for i in b:\n"
    "            yield await c[i:j:k]\n    return f'{x!r:>{y}}'",
    "class C(B, metaclass=M):\n    @dec(1)\n    def m(self) -> int:\n"
    "        global q\n        match self:\n            case [1, *rest] | {'k': v}:\n"
    "                return rest\n            case P(x=0) if q:\n                return None",
    "",
]


def _all_walks_agree(tree: ast.AST) -> None:
    with cached_walks():
        assert list(walk(tree)) == list(ast.walk(tree))
        for node in ast.walk(tree):
            got = walk(node)
            assert list(got) == list(ast.walk(node))
            assert walk(node) is got


def test_walks_of_an_indexed_module_match_ast_walk() -> None:
    for src in _VARIED:
        _all_walks_agree(ast.parse(src))


def test_nodes_walked_before_their_module_and_shared_singletons() -> None:
    tree = ast.parse("a = b + c\nd = -a * b\ne = f(a)[b]")
    loads = [n for n in ast.walk(tree) if isinstance(n, ast.Load)]
    assert len({id(n) for n in loads}) == 1  # the parser shares one Load
    with cached_walks():
        call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
        assert list(walk(call)) == list(ast.walk(call))  # before the module: unindexed
        assert list(walk(tree)) == list(ast.walk(tree))
        for node in ast.walk(tree):
            assert list(walk(node)) == list(ast.walk(node))


def test_deep_binary_chain_needs_no_recursion() -> None:
    import sys

    src = "x = " + " + ".join(f"a{i}" for i in range(2000))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))  # only for parsing the chain
    try:
        tree = ast.parse(src)
    finally:
        sys.setrecursionlimit(limit)
    with cached_walks():
        assert list(walk(tree)) == list(ast.walk(tree))
        binops = [n for n in ast.walk(tree) if isinstance(n, ast.BinOp)]
        for node in binops[::97] + binops[-3:]:
            assert list(walk(node)) == list(ast.walk(node))


def test_two_modules_and_a_synthetic_tree() -> None:
    first, second = ast.parse("p = q(r)"), ast.parse("s = [t for t in u]")
    synthetic = ast.Module(body=[ast.Expr(ast.BinOp(ast.Name("a", ast.Load()), ast.Add(),
                                                    ast.Constant(1)))], type_ignores=[])
    with cached_walks():
        for tree in (first, second, synthetic):
            walk(tree)
        for tree in (first, second, synthetic):
            for node in ast.walk(tree):
                assert list(walk(node)) == list(ast.walk(node))


def test_tree_index_children_and_parents_match_ast() -> None:
    from critics.ast_cache import parents, tree_index

    assert tree_index(ast.parse("x = 1")) is None  # outside a review
    for src in _VARIED:
        tree = ast.parse(src)
        plain = parents(tree)
        with cached_walks():
            index = tree_index(tree)
            assert index is not None and tree_index(tree) is index
            assert index.nodes == list(ast.walk(tree))
            for i, node in enumerate(index.nodes):
                assert index.nodes[index.first[i]:index.stop[i]] == \
                    list(ast.iter_child_nodes(node))
            shared = parents(tree)
            assert shared is parents(tree)  # one map per tree within a review
            assert list(shared.items()) == list(plain.items())
            for node in ast.walk(tree):
                for child in ast.iter_child_nodes(node):
                    if not isinstance(child, ast.expr_context | ast.operator | ast.unaryop
                                      | ast.cmpop | ast.boolop):  # shared singletons
                        assert shared[id(child)] is node


def test_nodes_of_keeps_walk_order_inside_and_outside_a_review() -> None:
    from critics.ast_cache import nodes_of

    for src in _VARIED:
        tree = ast.parse(src)
        for classes in ((ast.Name,), (ast.Call, ast.Name), (ast.Import, ast.ImportFrom),
                        (ast.Assign, ast.ListComp, ast.Lambda, ast.Try)):
            want = [n for n in ast.walk(tree) if isinstance(n, classes)]
            assert nodes_of(tree, *classes) == want
            with cached_walks():
                walk(tree)
                assert nodes_of(tree, *classes) == want
