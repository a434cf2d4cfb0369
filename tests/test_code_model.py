"""critics.code_model: the call sites a review collects from the tree index are the ones
collected from the tree's fields."""

from __future__ import annotations

from critics.ast_cache import cached_walks
from critics.code_model import CodeModel
from critics.evidence import Evidence

_SRC = """\
import numpy as np
from sklearn.model_selection import train_test_split as tts
X_tr, X_te = tts(X, y, test_size=0.2)
def f(a, b=g(1)):
    for i in range(a):
        while h(i):
            yield [k(j) for j in np.arange(i) if m(j)]
    return (lambda q: q.fit(a))(b).score(a, b)
try:
    r = f(2)[0].mean()
except (ValueError, n()) as e:
    print(e)
out = {z: w(z) for z in p()}
"""


def _sites(model: CodeModel) -> list[tuple]:
    return [(c.node, c.line, c.end_line, c.name, c.method, c.receiver, c.receiver_root,
             c.receiver_type, c.targets, c.loop_depth, c.function, c.order,
             type(c.stmt), getattr(c.stmt, "lineno", None)) for c in model.calls]


def test_calls_in_a_review_match_calls_outside() -> None:
    ev = Evidence(code=_SRC)
    plain = _sites(CodeModel(ev))
    with cached_walks():
        indexed = _sites(CodeModel(ev))
    assert len(plain) == 16
    assert indexed == plain
