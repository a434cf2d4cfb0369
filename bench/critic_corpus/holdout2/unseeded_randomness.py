"""Unseeded randomness, holdout2 idioms: ShuffleSplit without random_state inside
cross_validate, and an audit sample drawn with the standard library's random.sample."""

from textwrap import dedent

from bench.critic_corpus import Case

_WINE = """\
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ShuffleSplit, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

wine = load_wine(as_frame=True)
clf = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=2000))
"""

_AUDIT = """\
import random

import numpy as np
import pandas as pd

gen = np.random.default_rng(90210)
n = 20000
ledger = pd.DataFrame({
    "invoice": [f"INV{i:06d}" for i in range(n)],
    "amount": gen.gamma(2, 350, n).round(2),
    "miscoded": gen.random(n) < 0.031,         # true (unknown) error rate about 3%
})
"""

CASES: list[Case] = [
    Case(
        id="unseeded-shufflesplit-cross-validate",
        family="unseeded_randomness",
        twin="unseeded-shufflesplit-cross-validate-sound",
        split="holdout2",
        note="ShuffleSplit(n_splits=10) without random_state: which rows land in each test "
        "split, and so the printed balanced accuracy, changes every run.",
        code=_WINE + dedent("""\

            splitter = ShuffleSplit(n_splits=10, test_size=0.25)
            res = cross_validate(clf, wine.data, wine.target, cv=splitter,
                                 scoring="balanced_accuracy", return_train_score=True)
            print(f"balanced accuracy: test {res['test_score'].mean():.4f} "
                  f"+/- {res['test_score'].std():.4f}, train {res['train_score'].mean():.4f}")
        """),
    ),
    Case(
        id="unseeded-shufflesplit-cross-validate-sound",
        family=None,
        twin="unseeded-shufflesplit-cross-validate",
        split="holdout2",
        note="ShuffleSplit with random_state=42, so the splits and the score are reproducible.",
        code=_WINE + dedent("""\

            splitter = ShuffleSplit(n_splits=10, test_size=0.25, random_state=42)
            res = cross_validate(clf, wine.data, wine.target, cv=splitter,
                                 scoring="balanced_accuracy", return_train_score=True)
            print(f"balanced accuracy: test {res['test_score'].mean():.4f} "
                  f"+/- {res['test_score'].std():.4f}, train {res['train_score'].mean():.4f}")
        """),
    ),
    Case(
        id="unseeded-random-sample-audit",
        family="unseeded_randomness",
        twin="unseeded-random-sample-audit-sound",
        split="holdout2",
        note="Audit sample of 400 invoices from random.sample on the unseeded global "
        "generator; the estimated error rate and its CI change per run.",
        code=_AUDIT + dedent("""\

            picked = random.sample(list(ledger.invoice), k=400)
            audit = ledger.set_index("invoice").loc[picked]
            rate = audit.miscoded.mean()
            half = 1.96 * np.sqrt(rate * (1 - rate) / len(audit))
            print(f"estimated miscoding rate {rate:.2%} (95% CI {rate - half:.2%} to "
                  f"{rate + half:.2%}); projected miscoded value "
                  f"EUR {rate * ledger.amount.sum():,.0f}")
        """),
    ),
    Case(
        id="unseeded-random-sample-audit-sound",
        family=None,
        twin="unseeded-random-sample-audit",
        split="holdout2",
        note="Same audit sample drawn from a dedicated random.Random(2024) instance, so it "
        "can be reproduced and re-audited.",
        code=_AUDIT + dedent("""\

            picked = random.Random(2024).sample(list(ledger.invoice), k=400)
            audit = ledger.set_index("invoice").loc[picked]
            rate = audit.miscoded.mean()
            half = 1.96 * np.sqrt(rate * (1 - rate) / len(audit))
            print(f"estimated miscoding rate {rate:.2%} (95% CI {rate - half:.2%} to "
                  f"{rate + half:.2%}); projected miscoded value "
                  f"EUR {rate * ledger.amount.sum():,.0f}")
        """),
    ),
]
