"""The error hints are a table (services/error_hints.toml): it loads, every row is well formed,
and rows fill their groups in. The hints on real kernel tracebacks: tests/test_error_analyzer.py."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from services import error_analyzer as ea

ROOT = Path(__file__).resolve().parents[1]


def hint(ename: str, evalue: str, line: str = "x") -> str | None:
    ctx = ea._Context(ename, evalue, line, "", [], [], ea.names_in_line(line))
    if ename in ea._SUBJECTS:
        ea._SUBJECTS[ename](ctx)
    return ea.find_hint(ctx)


def test_the_table_loads_and_uses_every_builder() -> None:
    rows = ea.load_hints()
    assert len(rows) >= 40
    used = {row.builder for row in rows if row.builder is not None}
    assert used == set(ea.HINT_BUILDERS.values())


def test_a_malformed_row_fails_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "hints.toml"
    bad.write_text("[[hint]]\nevalue = 'x'\ntext = 'a'\nbuilder = 'key_error'\n")
    with pytest.raises(ValueError, match="row 1"):
        ea.load_hints(bad)
    bad.write_text("[[hint]]\nevalue = 'x'\nbuilder = 'nope'\n")
    with pytest.raises(ValueError, match="no builder 'nope'"):
        ea.load_hints(bad)


def test_rows_fill_in_their_groups() -> None:
    assert hint("ValueError", "Length of values (3) does not match length of index (4)") == (
        "assigning 3 values to a frame with 4 rows: compute the new column from the same "
        "frame (or assign a Series aligned on its index).")
    assert "shapes (3,) (4,): compute" in hint(
        "ValueError", "operands could not be broadcast together with shapes (3,) (4,) ")
    assert hint("FileNotFoundError",
                "[Errno 2] No such file or directory: 'data.csv'").startswith("'data.csv' does")
    assert "f\"{x}\"" in hint("TypeError", 'can only concatenate str (not "int") to str')
    assert hint("UnboundLocalError", "cannot access local variable 'n' where it is not "
                "associated with a value").startswith("`n` is assigned inside the function")


def test_order_and_fall_through() -> None:
    assert hint("ValueError", "Input X contains infinity").startswith("the input holds inf")
    assert hint("ValueError", "Input X contains NaN, infinity").startswith("the model input")
    none_op = hint("TypeError", "unsupported operand type(s) for +: 'int' and 'NoneType'")
    assert none_op.startswith("one operand is None")
    assert hint("TypeError", "unsupported operand type(s) for -: 'list' and 'list'") is None
    assert hint("RuntimeError", "something else") is None


def test_the_table_is_installed_with_the_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config["package-data"]["services"]
    assert any(re.fullmatch(p.replace(".", r"\.").replace("*", ".*"), ea.HINTS_TABLE.name)
               for p in patterns)
