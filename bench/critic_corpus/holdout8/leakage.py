"""Leakage, holdout8 idiom: loan defaults upsampled with sklearn.utils.resample before the
train/test split, so copies of the same defaulted loans land on both sides."""

from textwrap import dedent

from bench.critic_corpus import Case

_LOANS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8101)
n = 2500
loans = pd.DataFrame({
    "income_k": rng.lognormal(3.8, 0.4, n).round(1),
    "dti": rng.beta(2, 5, n).round(3),
    "utilisation": rng.beta(2, 3, n).round(3),
    "months_on_book": rng.integers(3, 120, n),
    "delinq_12m": rng.poisson(0.3, n),
})
logit = (-3.4 + 2.0 * loans.dti + 1.5 * loans.utilisation + 0.5 * loans.delinq_12m
         - 0.004 * loans.months_on_book)
loans["default"] = rng.random(n) < 1 / (1 + np.exp(-logit))
"""

CASES: list[Case] = [
    Case(
        id="leakage-h8-loan-defaults-upsampled-before-split",
        family="leakage",
        twin="leakage-h8-loan-defaults-upsampled-before-split-sound",
        split="holdout8",
        setup=_LOANS,
        note="Defaults are upsampled with replacement before train_test_split, so duplicated "
        "defaulted loans sit in both train and test and the forest's test AUC is inflated.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.utils import resample

            # only a few percent default: rebalance so the forest actually learns the bad loans
            bad, good = loans[loans["default"]], loans[~loans["default"]]
            bad_up = resample(bad, replace=True, n_samples=len(good), random_state=42)
            balanced = pd.concat([good, bad_up]).reset_index(drop=True)

            X, y = balanced.drop(columns="default"), balanced["default"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.25, stratify=y, random_state=42)
            rf = RandomForestClassifier(n_estimators=150, random_state=42, n_jobs=-1)
            rf.fit(X_tr, y_tr)
            print(f"default rate in book: {loans['default'].mean():.1%}")
            print(f"hold-out ROC AUC: {roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1]):.3f}")
        """),
    ),
    Case(
        id="leakage-h8-loan-defaults-upsampled-before-split-sound",
        family=None,
        twin="leakage-h8-loan-defaults-upsampled-before-split",
        split="holdout8",
        setup=_LOANS,
        note="The book is split first and only the training defaults are upsampled; the test "
        "set keeps its natural class mix and contains no copies of training loans.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.utils import resample

            train, test = train_test_split(
                loans, test_size=0.25, stratify=loans["default"], random_state=42)
            # rebalance the training loans only; the test book keeps its real default rate
            bad, good = train[train["default"]], train[~train["default"]]
            bad_up = resample(bad, replace=True, n_samples=len(good), random_state=42)
            train_bal = pd.concat([good, bad_up])

            rf = RandomForestClassifier(n_estimators=150, random_state=42, n_jobs=-1)
            rf.fit(train_bal.drop(columns="default"), train_bal["default"])
            scores = rf.predict_proba(test.drop(columns="default"))[:, 1]
            print(f"default rate in book: {loans['default'].mean():.1%}")
            print(f"hold-out ROC AUC: {roc_auc_score(test['default'], scores):.3f}")
        """),
    ),
]
