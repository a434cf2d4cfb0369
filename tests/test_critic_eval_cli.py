"""bench/critic_eval.py refuses bad options with a message naming the option (exit 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args,message", [
    (["--shard", "x"], "--shard: expected i/n"),
    (["--shard", "3/3"], "--shard: i must be in 0..n-1"),
    (["--rescore", "/nonexistent/run.jsonl"], "--rescore: no such file"),
])
def test_bad_options_are_named(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "bench/critic_eval.py", "--no-write", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert message in done.stderr
