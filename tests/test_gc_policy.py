"""After start-up the long-lived heap is frozen: a full collection no longer walks it."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import gc
import app.main  # everything `nbcritic serve` has imported when it freezes
from app.gc_policy import freeze_startup_heap
before = len(gc.get_objects())
frozen = freeze_startup_heap()
print(before, frozen, len(gc.get_objects()))
"""


def test_freezing_leaves_little_for_a_full_collection() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    before, frozen, after = map(int, out.split())
    assert frozen >= before * 0.9  # nearly all of it survived start-up and is frozen
    assert after < before * 0.05  # what a full collection still walks
