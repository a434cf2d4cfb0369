"""Frame facts the probe collects (`services.kernel_facts`), read in-process: the kernel runs
the same `collect`, which tests/test_critic_service.py checks through a real kernel."""

from __future__ import annotations

from tests.inprocess_evidence import run_and_gather

SETUP = """
import numpy as np
import pandas as pd
df = pd.DataFrame({"channel": ["Email", "Paid Search", "Social"] * 40,
                   "tier": pd.Categorical(["a", "b"] * 60),
                   "spend": np.arange(120.0) - 10,
                   "user": [f"u{i}" for i in range(120)]})
df.loc[3, "channel"] = None
"""


def test_levels_of_low_cardinality_columns_with_their_rows() -> None:
    f = run_and_gather("n = len(df)", SETUP).objects["df"]
    assert f.levels["channel"] == {"Email": 39, "Paid Search": 40, "Social": 40}
    assert f.levels["tier"] == {"a": 60, "b": 60}
    assert "user" not in f.levels  # 120 distinct values: an identifier, not levels


def test_ranges_of_numeric_columns() -> None:
    f = run_and_gather("n = len(df)", SETUP).objects["df"]
    assert f.ranges == {"spend": [-10.0, 109.0]}
