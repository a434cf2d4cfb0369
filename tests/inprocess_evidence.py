"""Evidence for a snippet run in this process: the same `kernel_facts.collect` the kernel
runs, without a kernel, for fast rule tests. Integration tests get evidence from a real
kernel through the service."""

from __future__ import annotations

import ast
import contextlib
import io
import textwrap
import warnings
from typing import Any

import matplotlib

from critics.evidence import Evidence
from services import trace_request
from services.cell_evidence import gather_in_process, snapshot_before

matplotlib.use("Agg")


# Rule tests check what the rules make of the facts; the kernel's 25 ms introspection budget is
# a cost target measured in bench/, and a loaded test machine must not cut facts short and make
# a rule test flaky (nor a development run of bench/critic_eval.py --in-process).
TEST_BUDGET_MS = 2000.0


def run_and_gather(code: str, setup: str = "", ns: dict[str, Any] | None = None,
                   budget_ms: float = TEST_BUDGET_MS) -> Evidence:
    """Run `setup` then `code` in a fresh namespace (stdout/stderr captured as stream
    outputs, as Jupyter would show them) and gather the evidence for `code`."""
    code, setup = textwrap.dedent(code), textwrap.dedent(setup)
    ns = {} if ns is None else ns
    trace_request.install_in_process()  # recording only between begin and export
    trace_request.begin_in_process(fresh=True)  # a new notebook: no earlier cells
    if setup:
        exec(compile(setup, "<setup>", "exec"), ns)
        trace_request.export_in_process()
    before = snapshot_before(code, ns, setup)
    trace_request.begin_in_process()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = _to_stream(err)
        try:
            result = _run_like_ipython(code, ns)
        finally:
            trace = trace_request.export_in_process()
    outputs: list[dict[str, Any]] = [
        {"output_type": "stream", "name": name, "text": buf.getvalue()}
        for name, buf in (("stdout", out), ("stderr", err)) if buf.getvalue()]
    if result is not None:  # the last bare expression is displayed, as in Jupyter
        data = {"text/plain": repr(result)}
        html = getattr(result, "_repr_html_", None)
        if callable(html) and (rendered := html()):
            data["text/html"] = rendered
        outputs.append({"output_type": "execute_result", "data": data, "metadata": {},
                        "execution_count": 1})
    return gather_in_process(code, ns, outputs, prior_code=setup, before=before,
                             budget_ms=budget_ms, trace=trace)


def _run_like_ipython(code: str, ns: dict[str, Any]) -> Any:
    """Execute `code`; return the value of its last statement if that is an expression
    (None for a trailing `;` or an expression that is None)."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr) and not code.rstrip().endswith(";"):
        tree.body.pop()
        exec(compile(tree, "<cell>", "exec"), ns)
        return eval(compile(ast.Expression(last.value), "<cell>", "eval"), ns)
    exec(compile(tree, "<cell>", "exec"), ns)
    return None


def _to_stream(stream: io.StringIO):  # type: ignore[no-untyped-def]
    def show(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
        stream.write(warnings.formatwarning(message, category, filename, lineno, line))
    return show


def evidence(code: str, **kwargs: Any) -> Evidence:
    """Evidence from code alone (no execution): for rules that read only the AST."""
    return Evidence(code=textwrap.dedent(code), **kwargs)
