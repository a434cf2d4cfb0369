"""Which columns an expression names, read from the code and the kernel's frame facts.

Shared by the families that need to know the columns a loop, a comprehension or a helper
function walks over: `df.columns`, `df.select_dtypes("number").columns.drop(target)`,
`[c for c in df.columns if c.startswith(("usage_", "bill_")) and c not in skip]`, a list
literal or a name bound to one (in this cell or an earlier one), and the parameters of a
helper bound at its call site (`driver_table(routes, "y")`). Anything it cannot evaluate
exactly gives None: callers must then stay quiet rather than guess.
"""

from __future__ import annotations

import ast

from ..ast_cache import parents as tree_parents
from ..ast_cache import walk as _walk
from ..evidence import Evidence, ObjectFacts

Bindings = dict[str, ast.expr]

_NUMERIC = ("int", "uint", "float", "Int", "UInt", "Float", "bool", "boolean")


def str_value(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def literal_assignment(ev: Evidence, name: str) -> ast.expr | None:
    """The value of `name` when it is bound exactly once, at the top level of this cell or of
    the earlier cells (the last earlier binding when the cell does not bind it)."""
    m = ev.model
    found: list[ast.expr] = []
    for tree in (m.tree, m._prior_tree):
        hits = [s.value for s in tree.body if isinstance(s, ast.Assign)
                and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and s.targets[0].id == name]
        rebinds = [n for n in _walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Store) and n.id == name]
        if hits:
            if tree is m.tree and len(rebinds) != 1:
                return None
            found = hits[-1:]
            break
        if rebinds:
            return None
    mutated = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and isinstance(n.func.value, ast.Name) and n.func.value.id == name
                  and n.func.attr in ("append", "extend", "insert", "remove", "pop")
                  for n in _walk(m.tree))
    return found[0] if found and not mutated else None


def resolve(ev: Evidence, node: ast.AST | None, bind: Bindings | None = None,
            depth: int = 0) -> ast.AST | None:
    """A Name replaced by its binding (a helper's argument) or its single literal value."""
    while isinstance(node, ast.Name) and depth < 4:
        depth += 1
        if bind and node.id in bind:
            node = bind[node.id]
            continue
        value = literal_assignment(ev, node.id)
        if isinstance(value, ast.List | ast.Tuple | ast.Set | ast.Constant):
            return value
        return node
    return node


def strings(ev: Evidence, node: ast.AST | None, bind: Bindings | None = None,
            depth: int = 0) -> list[str] | None:
    """The strings of `"a"`, `["a", "b"]`, `("a", *rest)`, `cols + ["x"]` and names bound to
    them; None when any part is not a known string."""
    if depth > 5 or node is None:
        return None
    node = resolve(ev, node, bind)
    s = str_value(node)
    if s is not None:
        return [s]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        out: list[str] = []
        for e in node.elts:
            inner = strings(ev, e.value if isinstance(e, ast.Starred) else e, bind, depth + 1)
            if inner is None:
                return None
            out += inner
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = strings(ev, node.left, bind, depth + 1)
        right = strings(ev, node.right, bind, depth + 1)
        return None if left is None or right is None else left + right
    return None


def frame_facts(ev: Evidence, node: ast.AST | None, bind: Bindings | None = None
                ) -> tuple[str, ObjectFacts] | None:
    node = resolve(ev, node, bind)
    if isinstance(node, ast.Name):
        f = ev.objects.get(node.id)
        if f is not None and f.kind == "dataframe" and f.dtypes and f.shape and \
                len(f.dtypes) == f.shape[1]:
            return node.id, f
    return None


def _dtype_keep(dtype: str, include: list[str] | None, exclude: list[str] | None) -> bool:
    def hit(kinds: list[str]) -> bool:
        for k in kinds:
            k = k.lower()
            if k in ("number", "numeric", "np.number") and dtype.startswith(_NUMERIC[:-2]):
                return True
            if k in ("object", "o", "str", "string") and dtype in ("object", "string", "str"):
                return True
            if k in ("category",) and dtype == "category":
                return True
            if k in ("bool", "boolean") and dtype in ("bool", "boolean"):
                return True
            if k.startswith(("int", "float", "uint")) and dtype.startswith(k):
                return True
            if k.startswith("datetime") and dtype.startswith("datetime"):
                return True
        return False

    if include is not None and not hit(include):
        return False
    return not (exclude is not None and hit(exclude))


def _dtype_names(node: ast.AST | None) -> list[str] | None:
    if node is None:
        return None
    if isinstance(node, ast.List | ast.Tuple):
        out: list[str] = []
        for e in node.elts:
            inner = _dtype_names(e)
            if inner is None:
                return None
            out += inner
        return out
    s = str_value(node)
    if s is not None:
        return [s]
    if isinstance(node, ast.Attribute):  # np.number, np.float64
        return [node.attr if node.attr != "number" else "number"]
    if isinstance(node, ast.Name) and node.id in ("float", "int", "bool", "object", "str"):
        return [node.id]
    return None


def columns(ev: Evidence, node: ast.AST | None, bind: Bindings | None = None,
            depth: int = 0) -> tuple[str | None, list[str]] | None:
    """(frame, column names) an expression evaluates to, or None when unknown: `df.columns`,
    `df.select_dtypes(...).columns`, `.drop(...)`, `.difference(...)`, `.tolist()`,
    comprehensions over those with simple conditions, and string lists."""
    if depth > 8 or node is None:
        return None
    node = resolve(ev, node, bind)
    lits = strings(ev, node, bind)
    if lits is not None and not isinstance(node, ast.Constant):
        return None, lits
    if isinstance(node, ast.Name) and not (bind and node.id in bind):
        # `cols = [c for c in df.columns if ...]` earlier in this cell
        value, line = _cell_binding(ev, node.id)
        if value is None or isinstance(value, ast.Name):
            return None
        found = columns(ev, value, bind, depth + 1)
        if found is None or (found[0] is not None and _frame_changed_after(
                ev, found[0], line)):
            return None  # the kernel's columns are the frame's at the end of the cell
        return found
    if isinstance(node, ast.Attribute) and node.attr == "columns":
        return _frame_columns(ev, node.value, bind, depth)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        meth, recv = node.func.attr, node.func.value
        if meth in ("tolist", "to_list", "copy", "unique") and not node.args:
            return columns(ev, recv, bind, depth + 1)
        if meth in ("drop", "difference"):
            base = columns(ev, recv, bind, depth + 1)
            arg = node.args[0] if node.args else next(
                (k.value for k in node.keywords if k.arg in ("labels", "columns", "other")),
                None)
            gone = strings(ev, arg, bind)
            if base is None or gone is None:
                return None
            return base[0], [c for c in base[1] if c not in gone]
        if meth == "keys" and not node.args:
            return _frame_columns(ev, recv, bind, depth)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in ("list", "sorted", "tuple") and len(node.args) == 1:
        return columns(ev, node.args[0], bind, depth + 1)
    if isinstance(node, ast.ListComp | ast.GeneratorExp) and len(node.generators) == 1:
        gen = node.generators[0]
        if not (isinstance(gen.target, ast.Name) and isinstance(node.elt, ast.Name)
                and node.elt.id == gen.target.id):
            return None
        base = columns(ev, gen.iter, bind, depth + 1)
        if base is None:
            return None
        kept = []
        for col in base[1]:
            verdict = all(_holds(ev, cond, gen.target.id, col, bind) for cond in gen.ifs)
            if verdict is None:
                return None
            if verdict:
                kept.append(col)
        return base[0], kept
    return None


def _cell_binding(ev: Evidence, name: str) -> tuple[ast.expr | None, int]:
    """(value, line) of `name` when this cell binds it exactly once, at the top level, and
    never mutates it (no append/extend/remove, no augmented assignment)."""
    tree = ev.model.tree
    stores = [n for n in _walk(tree) if isinstance(n, ast.Name)
              and isinstance(n.ctx, ast.Store) and n.id == name]
    hits = [s for s in tree.body if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name]
    if len(stores) != 1 or len(hits) != 1:
        return None, 0
    mutated = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                  and isinstance(n.func.value, ast.Name) and n.func.value.id == name
                  and n.func.attr in ("append", "extend", "insert", "remove", "pop", "clear")
                  for n in _walk(tree))
    return (None, 0) if mutated else (hits[0].value, hits[0].lineno)


def _frame_changed_after(ev: Evidence, frame: str, line: int) -> bool:
    """Whether this cell may change the columns of `frame` after `line`: it rebinds the
    frame, stores into one of its columns, or calls a method that can add or drop columns in
    place."""
    for n in _walk(ev.model.tree):
        if getattr(n, "lineno", 0) <= line:
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == frame:
            return True
        if isinstance(n, ast.Subscript | ast.Attribute) and isinstance(
                n.ctx, ast.Store | ast.Del):
            base = n.value
            if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc", "at"):
                base = base.value
            if isinstance(base, ast.Name) and base.id == frame:
                return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(
                n.func.value, ast.Name) and n.func.value.id == frame and (
                n.func.attr in ("insert", "pop", "update", "join") or any(
                    k.arg == "inplace" for k in n.keywords)):
            return True
    return False


def _frame_columns(ev: Evidence, frame: ast.AST, bind: Bindings | None, depth: int
                   ) -> tuple[str | None, list[str]] | None:
    include = exclude = None
    if isinstance(frame, ast.Call) and isinstance(frame.func, ast.Attribute) and \
            frame.func.attr == "select_dtypes":
        inc = frame.args[0] if frame.args else next(
            (k.value for k in frame.keywords if k.arg == "include"), None)
        exc = next((k.value for k in frame.keywords if k.arg == "exclude"), None)
        include, exclude = _dtype_names(inc), _dtype_names(exc)
        if (inc is not None and include is None) or (exc is not None and exclude is None):
            return None
        frame = frame.func.value
    if isinstance(frame, ast.Subscript):  # df[cols].columns
        cols = strings(ev, frame.slice, bind)
        found = frame_facts(ev, frame.value, bind)
        if cols is None or found is None:
            return None
        name, f = found
        return name, [c for c in cols if c in f.dtypes and _dtype_keep(
            f.dtypes[c], include, exclude)]
    found = frame_facts(ev, frame, bind)
    if found is None:
        return None
    name, f = found
    return name, [c for c, dt in f.dtypes.items() if _dtype_keep(dt, include, exclude)]


def _holds(ev: Evidence, cond: ast.expr, var: str, col: str, bind: Bindings | None
           ) -> bool | None:
    """Whether a comprehension condition keeps column `col` (None: cannot tell)."""
    if isinstance(cond, ast.BoolOp):
        vals = [_holds(ev, v, var, col, bind) for v in cond.values]
        if None in vals:
            return None
        return all(vals) if isinstance(cond.op, ast.And) else any(vals)
    if isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not):
        inner = _holds(ev, cond.operand, var, col, bind)
        return None if inner is None else not inner
    if isinstance(cond, ast.Compare) and len(cond.ops) == 1:
        left, op, right = cond.left, cond.ops[0], cond.comparators[0]
        if isinstance(left, ast.Name) and left.id == var:
            if isinstance(op, ast.Eq | ast.NotEq):
                other = strings(ev, right, bind)
                if other is None or len(other) != 1:
                    return None
                return (col == other[0]) == isinstance(op, ast.Eq)
            if isinstance(op, ast.In | ast.NotIn):
                other = strings(ev, right, bind)
                if other is None:
                    return None
                return (col in other) == isinstance(op, ast.In)
        if isinstance(right, ast.Name) and right.id == var and isinstance(
                op, ast.In | ast.NotIn):  # "kwh" in c
            s = str_value(resolve(ev, left, bind))
            if s is None:
                return None
            return (s in col) == isinstance(op, ast.In)
        return None
    if isinstance(cond, ast.Call) and isinstance(cond.func, ast.Attribute) and isinstance(
            cond.func.value, ast.Name) and cond.func.value.id == var and cond.args:
        meth = cond.func.attr
        args = strings(ev, cond.args[0], bind)
        if args is None:
            return None
        if meth == "startswith":
            return col.startswith(tuple(args))
        if meth == "endswith":
            return col.endswith(tuple(args))
        return None
    return None


def bindings_of(ev: Evidence, function: str | None) -> list[Bindings]:
    """Parameter -> argument maps for each call of the cell's helper `function`."""
    if not function:
        return []
    m = ev.model
    fn = next((n for n in _walk(m.tree) if isinstance(n, ast.FunctionDef)
               and n.name == function), None)
    if fn is None:
        return []
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    defaults = fn.args.defaults
    out: list[Bindings] = []
    for c in m.calls:
        if c.method is not None or c.name != function or c.function == function:
            continue
        if any(isinstance(a, ast.Starred) for a in c.node.args):
            continue
        b: Bindings = dict(zip(params, c.node.args, strict=False))
        for k in c.node.keywords:
            if k.arg:
                b[k.arg] = k.value
        for p, d in zip(params[len(params) - len(defaults):], defaults, strict=False):
            b.setdefault(p, d)
        out.append(b)
    return out


def loops_around(ev: Evidence, node: ast.AST) -> list[tuple[ast.expr, ast.expr]]:
    """(target, iterable) of every for-loop and comprehension whose body holds `node`,
    outermost first."""
    parents = _parents(ev)
    chain: list[tuple[ast.AST, ast.AST]] = []  # (ancestor, its child on the way to node)
    cur = node
    # the map's ids are of live nodes of the tree (the evidence holds it), so an id found is
    # `cur` itself
    while (parent := parents.get(id(cur))) is not None:
        chain.append((parent, cur))
        cur = parent
    out: list[tuple[ast.expr, ast.expr]] = []
    for n, child in reversed(chain):
        if isinstance(n, ast.For) and any(child is b for b in n.body):
            out.append((n.target, n.iter))
        elif isinstance(n, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            elts = [n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]
            if any(child is e for e in elts):
                out += [(g.target, g.iter) for g in n.generators]
    return out


def _parents(ev: Evidence) -> dict[int, ast.AST]:
    """id(node) -> parent over the cell's tree, built once per evidence (within a review the
    map the other rules share, see `ast_cache.parents`)."""
    found = ev.__dict__.get("_nbcritic_parents")
    if found is None:
        found = tree_parents(ev.model.tree)
        ev.__dict__["_nbcritic_parents"] = found
    return found


def enclosing_loop_iter(ev: Evidence, node: ast.AST, var: str) -> ast.expr | None:
    """What the innermost for-loop or comprehension binding `var` around `node` iterates."""
    best: ast.expr | None = None
    for target, it in loops_around(ev, node):
        if isinstance(target, ast.Name) and target.id == var:
            best = it
    return best
