"""Reading the cell's code once per evidence: `_Code` (the origin of each name — what
quantity it computes, on which data, by which estimator — fit calls, ROC evidence),
the parsed-tree cache, `CellIndex` / `cell_index` (also used by data_loss), the
fits made by earlier cells, and the names / columns a statement assigns."""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass, field

from ...ast_cache import TreeIndex, tree_index
from ...ast_cache import walk as _walk
from ...code_model import called_name as _call_last
from ...code_model import names_in as _names
from ...code_model import root_name as _root
from ...evidence import Evidence
from ._vocabulary import (
    _CLASSIFIER_RE,
    _CORR_TESTS,
    _METRIC_CALLS,
    _NOT_A_VALUE,
    _REGRESSOR_RE,
    _SHORT_TRAIN,
    _STAT_TESTS,
    _TEST_TOKENS,
    _TRAIN_TOKENS,
    _TRANSPARENT,
    _context_of_tokens,
    _name_quantity,
    _tokens,
)

# -- origin of an expression: what quantity it computes, and on which data -------------------


@dataclass
class _Origin:
    quantity: str | None = None
    context: str | None = None  # train | test | cv
    train_visible: bool = False  # scored on the very data the model was fit on
    lines: list[int] = field(default_factory=list)
    estimator: str | None = None  # "classifier" | "regressor" | None
    data_names: set[str] = field(default_factory=set)  # names of the evaluated data


_ROC_CALLS = {"roc_auc_score", "roc_curve", "predict_proba", "decision_function",
              "precision_recall_curve", "average_precision_score", "RocCurveDisplay",
              "from_predictions", "from_estimator"}
_ROC_WORDS = re.compile(r"(?i)\b(?:roc\w*|auroc|tpr|fpr|y_score|y_prob\w*|\w*_proba)\b|"
                        r"Classifier\b|roc_auc")
# a printed number followed by a physical unit: "884 ng*h/mL", "12.5 mg/L", "3 µg"
_UNIT_AFTER = re.compile(
    r"^\s*(?:[a-z\u00b5\u03bc]{1,5}\s*[*\u00b7\u00d7/]\s*[a-z\u00b5\u03bc]{1,5}|"
    r"(?:ng|ug|\u00b5g|\u03bcg|mg|kg|mmol|umol|\u00b5mol|nmol|pmol|ml|dl)\b)", re.IGNORECASE)


def _not_roc_auc(label_or_name: str, values: list[float], unit: bool, code: _Code) -> bool:
    """An "AUC" that is an area under a physical curve (pharmacokinetic exposure in ng*h/mL,
    an integrated signal), not a ROC AUC: the cell shows no classifier / ROC evidence, the
    label does not say ROC, and the value carries a unit or exceeds 100 (not even a
    percentage)."""
    low = label_or_name.lower()
    if code.has_roc or "roc" in low or "auroc" in low:
        return False
    return unit or any(v > 100 for v in values)


class _Code:
    """Per-evidence view of the code for this family (assignments by name, fit calls…)."""

    def __init__(self, ev: Evidence):
        self.ev = ev
        self.model = ev.model
        self.assign: dict[str, list[tuple[int, ast.AST, ast.stmt]]] = {}
        # name -> [(line, value expr or tuple position marker, statement)], in source order
        tree = self.model.tree
        for node in _of(tree, ast.Assign):
            for t in node.targets:
                self._bind(t, node.value, node)
        for node in _of(tree, ast.AnnAssign):
            if node.value is not None:
                self._bind(node.target, node.value, node)
        for binds in self.assign.values():
            binds.sort(key=lambda b: b[0])
        self.loop_targets: set[str] = set()
        for node in _of(tree, ast.For, ast.AsyncFor, ast.comprehension):
            self.loop_targets |= _names(node.target)
        self.loop_assigned: set[str] = set()  # names (re)bound inside a loop body
        for node in _of(tree, ast.For, ast.AsyncFor, ast.While):
            for st in node.body:
                for sub in _walk(st):
                    if isinstance(sub, ast.Assign):
                        self.loop_assigned |= {n for t in sub.targets for n in _names(t)}
        self.fit_args: list[tuple[set[str], set[str]]] = list(_prior_fit_args(ev.prior_code,
                                                                               ev.model._prior_tree))
        self.scoring_literals: set[str] = set()
        for c in self.model.calls:
            if c.last in ("fit", "fit_transform") and c.node.args and c.receiver is not None:
                owners = {c.receiver_root} if c.receiver_root else set()
                self.fit_args.append((owners | set(c.targets), _names(c.node.args[0])))
            for kw in c.node.keywords:
                if kw.arg == "scoring" and isinstance(kw.value, ast.Constant) and isinstance(
                        kw.value.value, str):
                    self.scoring_literals.add(kw.value.value)
        self.test_calls = {c.last for c in self.model.calls}
        self.has_test = bool(self.test_calls & (_STAT_TESTS | {"cdf", "sf"})) or (
            "pvalue" in ev.code)
        self.has_corr = bool(self.test_calls & {"corr", "corrcoef", "pearsonr", "spearmanr",
                                                "kendalltau", "cov", "linregress"})
        # a ROC AUC needs scores and labels: without any sign of a classifier or ROC curve,
        # an "AUC" may be an area under a concentration-time (or other) curve, unbounded
        self.has_roc = bool(self.test_calls & _ROC_CALLS) or any(
            _kind_of_class(c) == "classifier" for c in self.test_calls) or any(
            "auc" in lit or "roc" in lit for lit in self.scoring_literals) or bool(
            _ROC_WORDS.search(ev.code or "") or _ROC_WORDS.search(ev.prior_code or ""))
        # names whose value reaches the output (what CodeModel.is_reported answers, once)
        reported = set(self.model.reported_names)
        closure = set(reported)
        for r in reported:
            closure |= self.model.dependencies(r)
        self.reported_closure = closure

    def _bind(self, target: ast.AST, value: ast.AST, stmt: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            self.assign.setdefault(target.id, []).append((stmt.lineno, value, stmt))
        elif isinstance(target, ast.Tuple | ast.List):
            for i, elt in enumerate(target.elts):
                if isinstance(elt, ast.Name):
                    self.assign.setdefault(elt.id, []).append(
                        (stmt.lineno, _Position(value, i), stmt))

    # -- estimator kind ------------------------------------------------------------------

    def estimator_kind(self, node: ast.AST | None, depth: int = 0) -> str | None:
        if node is None or depth > 3:
            return None
        if isinstance(node, ast.Call):
            name = _call_last(node)
            kind = _kind_of_class(name)
            if kind:
                return kind
            if name in ("fit",) and isinstance(node.func, ast.Attribute):
                return self.estimator_kind(node.func.value, depth + 1)
            # make_pipeline(StandardScaler(), Ridge()), GridSearchCV(SVC(), …)
            for arg in reversed(node.args):
                kind = self.estimator_kind(arg, depth + 1)
                if kind:
                    return kind
            return None
        if isinstance(node, ast.Name):
            facts = self.ev.objects.get(node.id)
            if facts and facts.type:
                kind = _kind_of_class(facts.type.rsplit(".", 1)[-1])
                if kind:
                    return kind
            t = self.model.type_of(node.id)
            if t:
                kind = _kind_of_class(t.rsplit(".", 1)[-1])
                if kind:
                    return kind
            for _, value, _ in self.assign.get(node.id, [])[-1:]:
                if isinstance(value, ast.AST):
                    return self.estimator_kind(value, depth + 1)
        if isinstance(node, ast.Attribute) and node.attr in ("best_estimator_",):
            return self.estimator_kind(node.value, depth + 1)
        return None

    # -- origin ----------------------------------------------------------------------------

    def origin(self, node: ast.AST | None, depth: int = 0) -> _Origin:
        out = _Origin()
        if node is None or depth > 4:
            return out
        if isinstance(node, _Position):
            return self._position_origin(node, depth)
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call):
            last = _call_last(node)
            if last == "score" and isinstance(node.func, ast.Attribute):
                kind = self.estimator_kind(node.func.value)
                q = {"regressor": "r2", "classifier": "accuracy"}.get(kind or "", "score")
                if self.scoring_literals - {"r2", "accuracy"} and kind is None:
                    q = None  # a search with a custom scorer: its .score is not R²/accuracy
                return self._with_context(_Origin(q, estimator=kind, lines=[line]), node)
            if last in ("cross_val_score", "cross_validate"):
                return _Origin(self._cv_quantity(node), "cv", lines=[line])
            if last in _METRIC_CALLS:
                q = _METRIC_CALLS[last]
                return self._with_context(_Origin(q, lines=[line]), node)
            if last in _STAT_TESTS:
                return _Origin("test_result_corr" if last in _CORR_TESTS else "test_result",
                               lines=[line])
            if last in _TRANSPARENT:
                inner = node.func.value if (isinstance(node.func, ast.Attribute)
                                            and last not in ("max", "min", "round", "float",
                                                             "abs", "sorted", "list")) else (
                    node.args[0] if node.args else None)
                if isinstance(node.func, ast.Attribute) and _root(node.func.value) in (
                        "np", "numpy") and node.args:
                    inner = node.args[0]
                return self.origin(inner, depth + 1)
            return out
        if isinstance(node, ast.Attribute):
            attr = node.attr
            if attr in ("pvalue", "pvalues", "pvalues_"):
                return _Origin("pvalue", lines=[line])
            if attr == "rsquared":
                return _Origin("r2", lines=[line])
            if attr == "rsquared_adj":
                return _Origin("adj_r2", lines=[line])
            if attr == "correlation":
                return _Origin("correlation", lines=[line])
            if attr == "best_score_":
                return _Origin("score", "cv", lines=[line])
            if attr == "statistic":
                inner = self.origin(node.value, depth + 1)
                if inner.quantity == "test_result_corr":
                    return _Origin("correlation", lines=[line])
                return out
            if attr in ("values", "T", "iloc", "loc"):
                return self.origin(node.value, depth + 1)
            return out
        if isinstance(node, ast.Subscript):
            value = node.value
            if isinstance(value, ast.Call) and _call_last(value) in _STAT_TESTS:
                idx = _const_index(node.slice)
                if idx == 1:
                    return _Origin("pvalue", lines=[line])
                if idx == 0 and _call_last(value) in _CORR_TESTS:
                    return _Origin("correlation", lines=[line])
                return out
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                nq = _name_quantity(key.value)
                if nq and nq[1]:
                    ctx = _context_of_tokens(_tokens(key.value))
                    return _Origin(nq[0], ctx, lines=[line])
            return self.origin(value, depth + 1)
        if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            return self.origin(node.elt, depth + 1)
        if isinstance(node, ast.DictComp):
            return self.origin(node.value, depth + 1)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Div):
                num = {_call_last(c) for c in _walk(node.left) if isinstance(c, ast.Call)}
                den = {_call_last(c) for c in _walk(node.right) if isinstance(c, ast.Call)}
                if "cov" in num and den & {"std", "sqrt", "var", "nanstd"}:
                    return _Origin("correlation", lines=[line])  # cov / (sx * sy)
            if isinstance(node.op, ast.Mult | ast.Div):
                for side in (node.left, node.right):
                    o = self.origin(side, depth + 1)
                    if o.quantity == "pvalue":
                        return _Origin("pvalue", lines=[line])
            return out
        if isinstance(node, ast.Name):
            nq = _name_quantity(node.id)
            binds = self.assign.get(node.id, [])
            if binds and depth < 4:
                o = self.origin(binds[-1][1], depth + 1)
                if o.quantity not in _NOT_A_VALUE:
                    return o
            if nq and nq[1]:
                return _Origin(nq[0], _context_of_tokens(_tokens(node.id)))
            return out
        return out

    def _position_origin(self, pos: _Position, depth: int) -> _Origin:
        value = pos.value
        line = getattr(value, "lineno", 0)
        if isinstance(value, ast.Call):
            last = _call_last(value)
            if last in _STAT_TESTS:
                if pos.index == 1:
                    return _Origin("pvalue", lines=[line])
                if pos.index == 0 and last in _CORR_TESTS:
                    return _Origin("correlation", lines=[line])
            if last in ("multipletests",) and pos.index == 1:
                return _Origin("pvalue_clipped", lines=[line])
            if last == "linregress" and pos.index == 2:
                return _Origin("correlation", lines=[line])
            if last == "linregress" and pos.index == 3:
                return _Origin("pvalue", lines=[line])
        return _Origin()

    def _cv_quantity(self, node: ast.Call) -> str | None:
        scoring = None
        for kw in node.keywords:
            if kw.arg == "scoring":
                if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                    return None  # a list, a dict or a scorer object: no single meaning
                scoring = kw.value.value
        if scoring is None:
            kind = self.estimator_kind(node.args[0] if node.args else None)
            return {"regressor": "r2", "classifier": "accuracy"}.get(kind or "", "score")
        if scoring.startswith("neg_"):
            return None
        if scoring == "r2":
            return "r2"
        if scoring.startswith(("accuracy", "balanced_accuracy")):
            return "accuracy"
        if scoring.startswith(("roc_auc", "average_precision")):
            return "auc"
        if scoring.startswith("f1"):
            return "f1"
        if scoring.startswith(("precision", "recall", "jaccard")):
            return "bounded"
        return None

    def _with_context(self, o: _Origin, call: ast.Call) -> _Origin:
        """Whether a metric was computed on training or test data: from the names of its
        arguments, following `pred = model.predict(X_train)` one step."""
        names: set[str] = set()
        data_args: list[ast.AST] = list(call.args) + [k.value for k in call.keywords]
        for a in data_args:
            names |= _names(a)
            for n in _names(a):
                for _, value, _ in self.assign.get(n, [])[-1:]:
                    if isinstance(value, ast.Call) and _call_last(value) in (
                            "predict", "predict_proba", "decision_function"):
                        names |= {x for arg in value.args for x in _names(arg)}
            for sub in _walk(a):
                if isinstance(sub, ast.Call) and _call_last(sub) in (
                        "predict", "predict_proba", "decision_function"):
                    names |= {x for arg in sub.args for x in _names(arg)}
        toks = [t for n in names for t in _tokens(n)]
        ctx = _context_of_tokens(toks)
        if ctx == "train" and _context_of_tokens([t for t in toks if not (
                t in _TRAIN_TOKENS or t in _SHORT_TRAIN or t.endswith("train"))]) == "test":
            ctx = None
        o.context = ctx
        o.data_names = names
        # scored on exactly the data the same model was fit on: fit(X, y) … score(X, y)
        scored = _scored_on(call, self.assign)
        if scored is not None:
            model, x_names = scored
            if x_names and any(x_names == fit_x and (model in owners or not owners)
                               for owners, fit_x in self.fit_args) and not any(
                    t in _TEST_TOKENS for n in x_names for t in _tokens(n)):
                o.train_visible = True
                o.context = "train"
        return o


def _scored_on(call: ast.Call, assign: dict) -> tuple[str | None, set[str]] | None:  # type: ignore[type-arg]
    """(model, names of X) for `model.score(X, y)` or `metric(y, model.predict(X))`, also
    through `pred = model.predict(X)` a few lines up."""
    if _call_last(call) == "score" and call.args and isinstance(call.func, ast.Attribute):
        return _root(call.func.value), _names(call.args[0])
    candidates: list[ast.AST] = [sub for sub in _walk(call) if isinstance(sub, ast.Call)]
    for a in call.args[:2]:
        for n in _names(a):
            candidates += [value for _, value, _ in assign.get(n, [])[-1:]]
    for sub in candidates:
        if isinstance(sub, ast.Call) and _call_last(sub) in ("predict", "predict_proba") \
                and sub.args and isinstance(sub.func, ast.Attribute):
            return _root(sub.func.value), _names(sub.args[0])
    return None


@dataclass
class _Position:
    """Element `index` of a tuple-unpacking assignment from `value`."""

    value: ast.AST
    index: int


def _kind_of_class(name: str) -> str | None:
    if _CLASSIFIER_RE.search(name):
        return "classifier"
    if _REGRESSOR_RE.search(name):
        return "regressor"
    return None


def _const_index(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    return None


class CellIndex:
    """One walk of a cell's AST, shared by this family and `data_loss`: every node by type,
    each statement's own expression nodes (not those of nested statements), the statement
    holding each node, and the function enclosing each statement."""

    def __init__(self, tree: ast.AST):
        by_type: dict[type, list[ast.AST]] = {}
        own: dict[int, list[ast.AST]] = {}
        stmt_of: dict[int, ast.stmt] = {}
        items: list[tuple[ast.AST, ast.stmt, str | None]] = []
        body = getattr(tree, "body", [])
        index = tree_index(tree) if tree.__class__ is ast.Module else None
        if index is not None:
            self._index_positions(index, len(body), by_type, own, stmt_of, items)
            body = []
        stmts: list[tuple[ast.stmt, str | None]] = [(st, None) for st in reversed(body)]
        while stmts:
            st, fn = stmts.pop()
            by_type.setdefault(type(st), []).append(st)
            inner = st.name if isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef) else fn
            nodes: list[ast.AST] = []
            stack: list[ast.AST] = []
            nested: list[ast.stmt] = []
            for name in st._fields:
                v = getattr(st, name, None)
                if isinstance(v, list):
                    for x in v:
                        if isinstance(x, ast.stmt):
                            nested.append(x)
                        elif isinstance(x, ast.AST):
                            stack.append(x)
                elif isinstance(v, ast.AST):
                    stack.append(v)
            while stack:
                node = stack.pop()
                nodes.append(node)
                for name in node._fields:
                    v = getattr(node, name, None)
                    if isinstance(v, list):
                        for x in v:
                            if isinstance(x, ast.stmt):
                                nested.append(x)
                            elif isinstance(x, ast.AST):
                                stack.append(x)
                    elif isinstance(v, ast.AST):
                        stack.append(v)
            own[id(st)] = nodes
            for node in nodes:
                stmt_of[id(node)] = st
                by_type.setdefault(type(node), []).append(node)
                items.append((node, st, inner))
            stmts.extend((x, inner) for x in reversed(nested))
        self.by_type = by_type
        self.own = own
        self.stmt_of = stmt_of
        self.items = items  # (node, its statement, the function enclosing the statement)

    @staticmethod
    def _index_positions(index: TreeIndex, n_body: int, by_type: dict[type, list[ast.AST]],
                         own: dict[int, list[ast.AST]], stmt_of: dict[int, ast.stmt],
                         items: list[tuple[ast.AST, ast.stmt, str | None]]) -> None:
        """The pass above over the review's index of a module: the same statements and
        nodes in the same order, each node's children read as positions (`nodes[first[i]:
        stop[i]]`, its fields' nodes in order; statements only ever sit in list fields)
        instead of from its fields."""
        nodes_at, first, stop = index.nodes, index.first, index.stop
        stmt_cls = ast.stmt
        b0 = first[0]  # a module's body comes first among its children
        stmts: list[tuple[int, str | None]] = [(b0 + k, None)
                                               for k in reversed(range(n_body))]
        while stmts:
            p, fn = stmts.pop()
            st = nodes_at[p]
            by_type.setdefault(type(st), []).append(st)
            inner = st.name if isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef) else fn
            nodes: list[ast.AST] = []
            stack: list[int] = []
            nested: list[int] = []
            for j in range(first[p], stop[p]):
                if isinstance(nodes_at[j], stmt_cls):
                    nested.append(j)
                else:
                    stack.append(j)
            while stack:
                k = stack.pop()
                nodes.append(nodes_at[k])
                for j in range(first[k], stop[k]):
                    if isinstance(nodes_at[j], stmt_cls):
                        nested.append(j)
                    else:
                        stack.append(j)
            own[id(st)] = nodes
            for node in nodes:
                stmt_of[id(node)] = st
                by_type.setdefault(type(node), []).append(node)
                items.append((node, st, inner))
            stmts.extend((x, inner) for x in reversed(nested))

    def of(self, *types: type) -> list:  # type: ignore[type-arg]
        return [n for t in types for n in self.by_type.get(t, ())]


_INDEX: list[tuple[weakref.ref, CellIndex]] = []


def cell_index(tree: ast.AST) -> CellIndex:
    """The index of `tree`, cached for the tree being critiqued."""
    for ref, idx in _INDEX:
        if ref() is tree:
            return idx
    idx = CellIndex(tree)
    _INDEX[:] = [(weakref.ref(tree), idx)]
    return idx


def _of(tree: ast.AST, *types: type) -> list:  # type: ignore[type-arg]
    return cell_index(tree).of(*types)


_PRIOR_FITS: dict[str, list[tuple[set[str], set[str]]]] = {}


def _fits_in(tree: ast.AST) -> list[tuple[set[str], set[str]]]:
    """(names of the fitted model, names of the data) for every `.fit(X, …)`: the receiver
    and, for `clf = Tree().fit(X, y)`, the name it is assigned to."""
    fits: dict[int, tuple[set[str], set[str]]] = {}
    for node in _walk(tree):
        if isinstance(node, ast.Call) and _call_last(node) in ("fit", "fit_transform") \
                and node.args and isinstance(node.func, ast.Attribute):
            owner = _root(node.func.value)
            fits[id(node)] = ({owner} if owner else set(), _names(node.args[0]))
    if fits:
        for node in _walk(tree):
            if isinstance(node, ast.Assign):
                for sub in _walk(node.value):
                    if id(sub) in fits:
                        fits[id(sub)][0].update(n for t in node.targets for n in _names(t))
    return list(fits.values())


def _prior_fit_args(prior: str, tree: ast.Module) -> list[tuple[set[str], set[str]]]:
    found = _PRIOR_FITS.get(prior)
    if found is None:
        found = _fits_in(tree) if "fit" in prior else []
        if len(_PRIOR_FITS) > 16:
            _PRIOR_FITS.clear()
        _PRIOR_FITS[prior] = found
    return found


def _stmt_keys(stmt: ast.stmt) -> set[str]:
    keys: set[str] = set()
    targets = stmt.targets if isinstance(stmt, ast.Assign) else (
        [stmt.target] if isinstance(stmt, ast.AugAssign) else [])
    for t in targets:
        keys |= _target_key(t)
    return keys


def _target_key(t: ast.AST) -> set[str]:
    if isinstance(t, ast.Name):
        return {t.id}
    if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(
            t.slice.value, str):
        return {t.slice.value}
    if isinstance(t, ast.Attribute):
        return {t.attr}
    if isinstance(t, ast.Tuple | ast.List):
        return {k for e in t.elts for k in _target_key(e)}
    return set()


def _target_keys(call: ast.Call) -> set[str]:
    """Names/columns a clipping call reads: np.minimum(p_bonf, 1), res.p_bonf.clip(upper=1)."""
    keys: set[str] = set()
    nodes = list(call.args)
    if isinstance(call.func, ast.Attribute):
        nodes.append(call.func.value)
    for n in nodes:
        for sub in _walk(n):
            keys |= _target_key(sub) if isinstance(sub, ast.Name | ast.Subscript
                                                    | ast.Attribute) else set()
    return keys
