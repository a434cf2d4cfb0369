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
