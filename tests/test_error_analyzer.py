"""ErrorAnalyzer on real ipykernel tracebacks (one kernel for the module, driven through the
project's KernelSession), plus ScientificValidityError feedback, render caps and signatures."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from critics import Finding
from services.code_generator import VariableInfo
from services.error_analyzer import (
    CRITIQUE_CLOSING,
    ErrorAnalyzer,
    ErrorFeedback,
    parse_traceback,
    strip_ansi,
)
from services.kernel_env import scrubbed_environment
from services.kernel_session import KernelSession
from services.scientific_validity import validity_error

SETUP = """\
import numpy as np
import pandas as pd
sales = pd.DataFrame({"price": [1.0, np.nan, 3.0, 4.0], "qty": [3, 4, 5, 6],
                      "city": ["a", "b", "a", "c"]})
total_sales = 3

def ratio(a, b):
    scale = 10
    return scale * a / b
"""

VARIABLES = [
    VariableInfo("sales", "pandas.DataFrame", [4, 3],
                 {"price": "float64", "qty": "int64", "city": "str"}),
    VariableInfo("total_sales", "int"),
    VariableInfo("ratio", "function"),
    VariableInfo("np", "module numpy"),
    VariableInfo("pd", "module pandas"),
]


@dataclass
class Run:
    code: str
    execution_count: int
    error: dict[str, Any] | None


class Kernel:
    """A real ipykernel behind KernelSession, run on a private event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.runtime_dir = Path(tempfile.mkdtemp(prefix="nbc-ea-"))
        self.session = self.loop.run_until_complete(KernelSession.start(
            kernel_name="python3", transport="ipc", runtime_dir=self.runtime_dir,
            env=scrubbed_environment(), timeout=60))

    def run(self, code: str) -> Run:
        messages: list[dict[str, Any]] = []
        outcome = self.loop.run_until_complete(self.session.execute(
            code, timeout=30, interrupt_grace=3, on_message=messages.append))
        assert outcome.reply is not None
        errors = [m["content"] for m in messages if m["msg_type"] == "error"]
        error = ({k: errors[-1][k] for k in ("ename", "evalue", "traceback")}
                 if errors else None)
        return Run(code, outcome.reply["execution_count"], error)

    def fail(self, code: str) -> Run:
        run = self.run(code)
        assert run.error is not None, f"expected an error from {code!r}"
        return run

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.session.shutdown(now=True))
        finally:
            self.loop.close()
            shutil.rmtree(self.runtime_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    k = Kernel()
    try:
        assert k.run(SETUP).error is None
        yield k
    finally:
        k.close()


analyzer = ErrorAnalyzer()


def analyze(run: Run, variables: list[VariableInfo] | None = VARIABLES,
            **kwargs: Any) -> ErrorFeedback:
    assert run.error is not None
    kwargs.setdefault("execution_count", run.execution_count)
    return analyzer.analyze(run.error, run.code, variables=variables, **kwargs)


# -- real tracebacks ----------------------------------------------------------------------


def test_real_tracebacks_carry_ansi_and_ipython_cell_frames(kernel: Kernel) -> None:
    run = kernel.fail("x = 1\ny = undefined_thing")
    raw = "".join(run.error["traceback"])
    assert "\x1b[" in raw  # colours are really there, and stripped
    assert "\x1b" not in strip_ansi(raw)
    frames = parse_traceback(run.error["traceback"])
    assert [(f.kind, f.cell, f.line, f.text) for f in frames] == [
        ("cell", run.execution_count, 2, "y = undefined_thing")]


def test_name_error_points_at_line_and_suggests_close_variable(kernel: Kernel) -> None:
    run = kernel.fail("x = 1\ny = total_sale + x")
    fb = analyze(run)
    assert (fb.kind, fb.ename) == ("error", "NameError")
    assert (fb.line, fb.line_text) == (2, "y = total_sale + x")
    assert fb.names[:2] == ["total_sale", "total_sales"]
    assert "x" in fb.names
    assert fb.hint is not None
    assert "'total_sales'" in fb.hint and "earlier cell" in fb.hint
    text = fb.render()
    assert text.startswith("NameError: name 'total_sale' is not defined\nline 2: y = total_sale")
    assert "hint: " in text and "\x1b" not in text


def test_name_error_of_a_module_alias_says_which_import(kernel: Kernel) -> None:
    fb = analyze(kernel.fail("fig, ax = plt.subplots()"))
    assert fb.hint is not None and "import matplotlib.pyplot as plt" in fb.hint


def test_key_error_on_a_dataframe_column_suggests_the_close_column(kernel: Kernel) -> None:
    code = "subset = sales[sales.qty > 3]\nmean_price = subset['Price'].mean()\nprint(mean_price)"
    run = kernel.fail(code)
    fb = analyze(run)
    assert fb.ename == "KeyError"
    assert (fb.line, fb.line_text) == (2, "mean_price = subset['Price'].mean()")
    assert fb.names[:2] == ["Price", "price"]
    assert fb.columns == {"sales": ["price", "qty", "city"]}  # pandas frames, subset unknown
    assert fb.hint is not None and "Did you mean 'price'?" in fb.hint
    text = fb.render()
    assert "available columns:\n  sales: 'price', 'qty', 'city'" in text
    # the chained pandas-internal KeyError before the cell frame is not shown
    assert "this cell, line 2" in text and "_libs" not in text
    # without variables, the traceback alone still says it is a DataFrame column
    bare = analyze(run, variables=None)
    assert bare.hint is not None and "is not a column of the DataFrame" in bare.hint


def test_key_error_on_a_list_of_columns_and_on_a_plain_dict(kernel: Kernel) -> None:
    fb = analyze(kernel.fail("sales[['price', 'qtty']]"))
    assert fb.names[:2] == ["qtty", "qty"]
    assert fb.hint is not None and fb.hint.startswith("'qtty' is not a column")
    fb = analyze(kernel.fail("d = {'a': 1}\nd['b']"))
    assert fb.line == 2 and fb.hint is not None and "d.get(key, default)" in fb.hint


def test_error_inside_a_function_of_an_earlier_cell_points_at_this_cells_call(
        kernel: Kernel) -> None:
    code = "values = [1, 2, 3]\ndenominators = [0, 1, 2]\nout = ratio(values[0], denominators[0])"
    run = kernel.fail(code)
    frames = parse_traceback(run.error["traceback"])
    assert {f.cell for f in frames} == {run.execution_count, 1}  # the setup cell defined ratio
    fb = analyze(run)
    assert (fb.line, fb.line_text) == (3, "out = ratio(values[0], denominators[0])")
    assert fb.names == ["out", "ratio", "values", "denominators"]
    text = fb.render()
    assert "an earlier cell (In[1]), line 9, in ratio(a, b)" in text
    assert "return scale * a / b" in text  # where it really broke, for the generator


def test_zero_division_deep_in_a_nested_loop(kernel: Kernel) -> None:
    code = ("total = 0.0\nfor i in range(3):\n    for j in range(3):\n        w = i - j\n"
            "        if i > 0:\n            total += 1 / w\nprint(total)")
    fb = analyze(kernel.fail(code))
    assert fb.ename == "ZeroDivisionError"
    assert (fb.line, fb.line_text) == (6, "            total += 1 / w")
    assert fb.names == ["total", "w"]
    assert fb.hint is not None and "denominator is 0" in fb.hint


def test_leading_blank_lines_are_mapped_back_to_the_attempts_code(kernel: Kernel) -> None:
    # IPython drops leading blank lines before compiling: it reports line 2 for code line 4
    code = "\n\nfirst = 1\nsecond = first / 0"
    run = kernel.fail(code)
    assert parse_traceback(run.error["traceback"])[-1].line == 2
    fb = analyze(run)
    assert (fb.line, fb.line_text) == (4, "second = first / 0")
    assert "this cell, line 4\n----> 4 second = first / 0" in fb.render()


def test_recursion_in_this_cell_reports_the_deepest_line_of_this_code(kernel: Kernel) -> None:
    code = ("def countdown(n):\n    if n == 0:\n        return 1 / n\n    return countdown(n - 1)\n"
            "countdown(3)")
    fb = analyze(kernel.fail(code))
    assert (fb.line, fb.line_text) == (3, "        return 1 / n")


def test_sklearn_inconsistent_samples(kernel: Kernel) -> None:
    code = ("from sklearn.linear_model import LinearRegression\nX = np.ones((5, 2))\n"
            "y = np.ones(4)\nmodel = LinearRegression().fit(X, y)")
    fb = analyze(kernel.fail(code))
    assert fb.ename == "ValueError"
    assert (fb.line, fb.line_text) == (4, "model = LinearRegression().fit(X, y)")
    assert {"model", "X", "y"} <= set(fb.names)
    assert fb.hint is not None and "different numbers of rows (5, 4)" in fb.hint
    assert "File sklearn/" in fb.render()  # library frames, site-packages prefix cut


@pytest.mark.parametrize(("code", "ename", "line", "hint_has"), [
    ("from sklearn.linear_model import LinearRegression\n"
     "LinearRegression().fit(sales[['price']], sales['qty'])",
     "ValueError", 2, "SimpleImputer"),
    ("from sklearn.linear_model import LinearRegression\n"
     "LinearRegression().fit(sales[['city']], sales['qty'])",
     "ValueError", 2, "encode categoricals"),
    ("from sklearn.preprocessing import StandardScaler\nStandardScaler().transform(sales[['qty']])",
     "NotFittedError", 2, ".fit(X_train, y_train)"),
    ("a = np.ones(3)\nb = np.ones(4)\nc = a + b", "ValueError", 3, "incompatible shapes"),
    ("sales['double'] = [1, 2, 3]", "ValueError", 1, "assigning 3 values to a frame with 4 rows"),
    ("import definitely_not_installed_pkg", "ModuleNotFoundError", 1, "not installed"),
    ("import seaborn_like_pkg as sns", "ModuleNotFoundError", 1, "do not retry the same import"),
    ("data = pd.read_csv('no_such_file.csv')", "FileNotFoundError", 1, "does not exist"),
    ("arr = np.zeros(3)\narr[7]", "IndexError", 2, "valid indices are 0..2"),
    ("sales.iloc[10]", "IndexError", 1, "past the last row"),
    ("res = None\nres + 1", "TypeError", 2, "one operand is None"),
    ("'3' - 1", "TypeError", 1, "one operand is a string"),
    ("sales.prise.mean()", "AttributeError", 1, "use df['price']"),
    ("sales.append(sales)", "AttributeError", 1, "pd.concat"),
    ("sales.loc[99]", "KeyError", 1, "use .iloc"),
    ("sales.merge(sales, on='nokey')", "KeyError", 1, "merge key 'nokey'"),
    ("pd.merge(sales, pd.DataFrame({'qty': ['3']}), on='qty')", "ValueError", 1,
     "cast both"),
    ("import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
     "plt.plot([1, 2, 3], [1, 2])", "ValueError", 4, "same length"),
    ("import matplotlib.pyplot as plt\nplt.subplot(2, 2, 5)", "ValueError", 2, "1-based"),
    ("def f(k):\n    return k\nf(1)\nlater = 2\nfirst_use = never_assigned + later\n"
     "never_assigned = 1", "NameError", 5, "used before it is assigned on line 6"),
])
def test_hints_for_common_errors(kernel: Kernel, code: str, ename: str, line: int,
                                 hint_has: str) -> None:
    fb = analyze(kernel.fail(code))
    assert fb.ename == ename
    assert fb.line == line
    assert fb.line_text == code.splitlines()[line - 1]
    assert fb.hint is not None and hint_has in fb.hint, fb.hint


def test_unknown_error_gets_no_hint(kernel: Kernel) -> None:
    fb = analyze(kernel.fail("x = 1\nraise RuntimeError('calibration drifted')"))
    assert (fb.ename, fb.line, fb.hint) == ("RuntimeError", 2, None)
    assert "hint:" not in fb.render()


def test_syntax_and_indentation_errors(kernel: Kernel) -> None:
    run = kernel.fail("x = 1\ny = (2,\nz = 3")
    assert run.error["ename"] == "SyntaxError"
    fb = analyze(run)
    assert (fb.line, fb.line_text) == (2, "y = (2,")
    assert fb.hint is None
    # the same line from the evalue alone ("... (<hash>.py, line 2)")
    no_tb = analyzer.analyze({**run.error, "traceback": []}, run.code)
    assert (no_tb.line, no_tb.line_text) == (2, "y = (2,")

    run = kernel.fail("\nif True:\nprint('x')")
    assert run.error["ename"] == "IndentationError"
    fb = analyze(run)
    assert (fb.line, fb.line_text) == (3, "print('x')")  # blank first line mapped back


def test_two_attempts_in_one_kernel_each_point_at_their_own_line(kernel: Kernel) -> None:
    attempt1 = kernel.fail("def helper(v):\n    return v.no_such_attribute\nhelper(1)")
    attempt2 = kernel.fail("scale = 2\nbase = 3\nprint(scale, base)\nresult = helper(base)\n")
    assert attempt2.execution_count == attempt1.execution_count + 1
    # attempt 2's traceback also shows attempt 1's cell (helper is defined there, line 2)
    cells = {(f.cell, f.line) for f in parse_traceback(attempt2.error["traceback"])}
    assert (attempt1.execution_count, 2) in cells

    fb1 = analyze(attempt1)
    assert (fb1.line, fb1.line_text) == (2, "    return v.no_such_attribute")
    fb2 = analyze(attempt2)
    assert (fb2.line, fb2.line_text) == (4, "result = helper(base)")
    assert fb2.names == ["no_such_attribute", "result", "helper", "base"]
    assert fb1.signature() != fb2.signature()
    # without an execution count: the highest In[N] is still this attempt
    guessed = analyze(attempt2, execution_count=None)
    assert (guessed.line, guessed.line_text) == (4, "result = helper(base)")


def test_plain_xmode_frames_are_understood(kernel: Kernel) -> None:
    kernel.run("%xmode Plain")
    try:
        run = kernel.fail("a = 1\nb = ratio(a, 0)")
    finally:
        kernel.run("%xmode Context")
    assert "Traceback (most recent call last)" in strip_ansi(run.error["traceback"][0])
    fb = analyze(run)
    assert (fb.line, fb.line_text) == (2, "b = ratio(a, 0)")


def test_cell_magic_body_line(kernel: Kernel) -> None:
    fb = analyze(kernel.fail("%%time\nx = 1\ny = x / 0"))
    assert (fb.line, fb.line_text) == (3, "y = x / 0")


# -- render and signature -----------------------------------------------------------------


def test_render_respects_max_chars_and_drops_whole_frames(kernel: Kernel) -> None:
    code = ("from sklearn.linear_model import LinearRegression\n"
            "LinearRegression().fit(sales[['price']], sales['qty'])")
    fb = analyze(kernel.fail(code))
    full = fb.render()
    assert len(full) <= 4000
    assert "traceback (most recent call last):" in full
    for cap in (120, 300, 700, 1200, 2000):
        text = fb.render(max_chars=cap)
        assert len(text) <= cap, (cap, len(text))
        assert text.startswith("ValueError: Input X contains NaN")
    mid = fb.render(max_chars=1500)
    assert "line 2: LinearRegression().fit" in mid and "hint: " in mid
    # frames are kept whole, innermost first, and the dropped outer ones are counted
    n = len(fb.frames)
    partial = 0
    for cap in range(900, 4000, 40):
        text = fb.render(max_chars=cap)
        shown = sum(frame in text for frame in fb.frames)
        if 0 < shown < n:
            partial += 1
            assert f"... {n - shown} outer frame(s) omitted" in text
            assert all(frame in text for frame in fb.frames[n - shown:])
    assert partial > 0
    assert len(json.dumps(fb.to_dict())) > 0


def test_render_never_exceeds_even_a_tiny_cap(kernel: Kernel) -> None:
    fb = analyze(kernel.fail("x = 1\ny = total_sale + x"))
    critique = analyzer.analyze(validity_error(_findings()), CRITIQUE_CODE)
    for cap in (0, 1, 10, 50, 80):
        assert len(fb.render(max_chars=cap)) <= cap
        assert len(critique.render(max_chars=cap)) <= cap


def test_plain_python_traceback_without_cell_numbers() -> None:
    # what a kernel emits when IPython's formatter is not in charge: hashed cell files only
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "/tmp/ipykernel_4242/1111.py", line 3, in <module>\n    out = f(0)\n'
        '  File "/tmp/ipykernel_4242/2222.py", line 2, in f\n    return 1 / a\n'
        "ZeroDivisionError: division by zero\n")
    error = {"ename": "ZeroDivisionError", "evalue": "division by zero", "traceback": [traceback]}
    fb = analyzer.analyze(error, "a = 1\nb = 2\nout = f(0)", execution_count=9)
    assert (fb.line, fb.line_text) == (3, "out = f(0)")
    none = analyzer.analyze({"ename": "OSError", "evalue": "boom", "traceback": []}, "x = 1")
    assert (none.line, none.line_text, none.hint) == (None, None, None)
    assert "line: unknown" in none.render()


def test_signature_is_stable_across_runs_and_distinguishes_errors(kernel: Kernel) -> None:
    code = "rows = sales[sales.qty > 4]\nvalue = rows['Price'].sum()"
    first, second = kernel.fail(code), kernel.fail(code)
    assert first.execution_count != second.execution_count
    assert analyze(first).signature() == analyze(second).signature()

    syntax = "a = [1,\nb = 2"
    s1, s2 = kernel.fail(syntax), kernel.fail(syntax)
    assert analyze(s1).signature() == analyze(s2).signature()

    other_key = kernel.fail("rows = sales[sales.qty > 4]\nvalue = rows['Qty'].sum()")
    other_line = kernel.fail("rows = sales[sales.qty > 4]\nvalue = rows['Price'].max()")
    signatures = {analyze(r).signature() for r in (first, other_key, other_line)}
    assert len(signatures) == 3


# -- ScientificValidityError --------------------------------------------------------------

CRITIQUE_CODE = """\
from sklearn.preprocessing import StandardScaler
scaler = StandardScaler().fit(X)
X_scaled = scaler.transform(X)
X_train, X_test = X_scaled[:80], X_scaled[80:]
best = max(scores_on_test, key=scores_on_test.get)
print(best)
"""


def _findings() -> list[Finding]:
    return [
        Finding("pvalues.no_correction", "13 tests without correction", "Many tests.",
                "high", 0.99, {"lines": [6]}, "Apply Holm or BH."),
        Finding("circular.selection_on_test", "Model picked on the test set",
                "The test score chose the model, so it is optimistic.", "critical", 0.85,
                {"lines": [5], "values": {"n_candidates": 12}}, "Select with CV on train."),
        Finding("leakage.scaler_before_split", "Scaler fit before the train/test split",
                "The scaler saw the test rows.", "critical", 0.95,
                {"lines": [2, 4], "values": {"n_test": 20}},
                "Split first, then fit the scaler on the training rows (a Pipeline)."),
    ]


def test_scientific_validity_error_passes_findings_through_in_severity_order() -> None:
    error = validity_error(_findings())
    assert error["ename"] == "ScientificValidityError"
    fb = analyzer.analyze(error, CRITIQUE_CODE, execution_count=7)
    assert fb.kind == "critique"
    assert [f["rule_id"] for f in fb.findings] == [
        "leakage.scaler_before_split", "circular.selection_on_test", "pvalues.no_correction"]
    assert fb.findings[0] == _findings()[2].to_dict()  # passed through unchanged
    assert (fb.line, fb.line_text) == (2, "scaler = StandardScaler().fit(X)")
    assert fb.hint is None
    text = fb.render()
    first = text.index("Scaler fit before the train/test split")
    assert first < text.index("Model picked on the test set") < text.index("13 tests without")
    assert "evidence line 2: scaler = StandardScaler().fit(X)" in text
    assert "evidence line 4: X_train, X_test = X_scaled[:80], X_scaled[80:]" in text
    assert "fix: Split first, then fit the scaler" in text
    assert "measured: n_test=20" in text
    assert text.endswith(CRITIQUE_CLOSING)
    assert "Do not silence the critic" in text
    json.dumps(fb.to_dict())


def test_critique_render_cap_drops_whole_findings_and_keeps_the_instruction() -> None:
    fb = analyzer.analyze(validity_error(_findings()), CRITIQUE_CODE)
    rule_ids = [f["rule_id"] for f in fb.findings]
    for cap in (450, 600, 800, 1000, 1300):
        text = fb.render(max_chars=cap)
        assert len(text) <= cap
        assert "Scaler fit before the train/test split" in text
        assert text.endswith(CRITIQUE_CLOSING)
        shown = [r for r in rule_ids if f"[{r}]" in text]
        assert shown == rule_ids[: len(shown)]  # most severe kept first
        if len(shown) < len(rule_ids):  # the rest is named, not silently dropped
            dropped = rule_ids[len(shown):]
            assert f"... {len(dropped)} more: {', '.join(dropped)}" in text
    squeezed = fb.render(max_chars=450)
    assert "... 2 more: circular.selection_on_test, pvalues.no_correction" in squeezed
    # room for one full item: the most severe finding whole, the others as title + fix
    mixed = fb.render(max_chars=900)
    assert "evidence line 2: scaler = StandardScaler().fit(X)" in mixed
    assert "2. [circular.selection_on_test] Model picked on the test set\n   fix: Select " in mixed
    assert "why: The test score chose" not in mixed


def test_critique_signature_is_the_sorted_rule_ids() -> None:
    a = analyzer.analyze(validity_error(_findings()), CRITIQUE_CODE)
    b = analyzer.analyze(validity_error(list(reversed(_findings()))), "other code")
    c = analyzer.analyze(validity_error(_findings()[:2]), CRITIQUE_CODE)
    assert a.signature() == b.signature() == (
        "critique:circular.selection_on_test,leakage.scaler_before_split,pvalues.no_correction")
    assert a.signature() != c.signature()
