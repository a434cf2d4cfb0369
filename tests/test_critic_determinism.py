"""A critique must not depend on Python's string-hash seed: the retry loop compares findings
between attempts (stall detection), and users diff critiques stored in notebooks. Each review
runs in a fresh interpreter under a different PYTHONHASHSEED and the findings must be equal
(with an introspection budget no run reaches, so timing cannot cut the facts short)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A statistic fitted inside a helper whose data comes from two parameters (which of them is
# "the data" used to depend on set order), and several statistics of the data on one line
# (their order in the explanation used to, too).
SETUP = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(3)
spectra = pd.DataFrame(rng.normal(size=(90, 40)), columns=[f"band{i}" for i in range(40)])
grade = pd.Series(rng.choice(["A", "B"], 90))
"""
HELPER_SELECTION = """
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

def top_bands(X, y, k=8):
    centroids = X.groupby(y).mean()
    spread = X.groupby(y).std().mean()
    gap = (centroids.loc["A"] - centroids.loc["B"]) / spread
    return gap.abs().nlargest(k).index.tolist()

bands = top_bands(spectra, grade)
acc = cross_val_score(LogisticRegression(max_iter=500), spectra[bands], grade, cv=5)
print(f"grading accuracy: {acc.mean():.2f}")
"""
SAME_LINE_STATS = """
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

z = (spectra - spectra.mean()) / spectra.std()
z = z.fillna(spectra.median())
X_tr, X_te, y_tr, y_te = train_test_split(z, grade, test_size=0.3, random_state=0)
print(LogisticRegression(max_iter=500).fit(X_tr, y_tr).score(X_te, y_te))
"""

SCRIPT = """
import json, sys
sys.path[:0] = [{root!r}, {tests!r}]
from inprocess_evidence import run_and_gather
from critics import AnalysisCritic
critic = AnalysisCritic(load_plugins=False)
out = [[f.to_dict() for f in
        critic.review(run_and_gather(code, {setup!r}, budget_ms=60_000)).findings]
       for code in {codes!r}]
print(json.dumps(out, sort_keys=True, default=str))
"""


def _review_under(seed: str) -> list:
    script = SCRIPT.format(root=str(ROOT), tests=str(ROOT / "tests"), setup=SETUP,
                           codes=[HELPER_SELECTION, SAME_LINE_STATS])
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_findings_do_not_depend_on_the_hash_seed():
    runs = [_review_under(seed) for seed in ("1", "3", "5")]
    _helper, same_line = runs[0]
    assert any(f["rule_id"] == "leakage.fit_saw_heldout_rows" for f in same_line)
    assert runs[1] == runs[0]
    assert runs[2] == runs[0]
