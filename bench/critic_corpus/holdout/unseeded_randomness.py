"""Unseeded randomness, held-out idioms: a permutation test with an unseeded default_rng(),
and a shuffled StratifiedKFold without random_state inside cross_val_score."""

from textwrap import dedent

from bench.critic_corpus import Case

_SCORES = """\
import numpy as np
import pandas as pd

data_rng = np.random.default_rng(418)
scores = pd.DataFrame({
    "method": np.repeat(["lecture", "flipped"], [48, 52]),
    "exam": np.r_[data_rng.normal(71, 11, 48), data_rng.normal(75, 11, 52)].round(1),
})
"""

_ATTRITION = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.compose import make_column_transformer

rng = np.random.default_rng(1234)
n = 600
staff = pd.DataFrame({
    "overtime": rng.integers(0, 2, n),
    "job_level": rng.integers(1, 5, n),
    "commute_km": rng.gamma(2, 8, n),
    "engagement": rng.normal(3.5, 0.8, n),
    "dept": rng.choice(["ops", "tech", "sales"], n),
})
lp = -1.5 + 1.1 * staff.overtime - 0.3 * staff.job_level - 0.6 * (staff.engagement - 3.5)
staff["left"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
model = make_pipeline(
    make_column_transformer(
        (OneHotEncoder(), ["dept"]),
        (StandardScaler(), ["overtime", "job_level", "commute_km", "engagement"]),
    ),
    LogisticRegression(max_iter=1000),
)
"""

CASES: list[Case] = [
    Case(
        id="unseeded-permutation-test-default-rng",
        family="unseeded_randomness",
        twin="unseeded-permutation-test-default-rng-sound",
        split="holdout",
        note="Permutation p-value from np.random.default_rng() with no seed (fresh OS entropy "
        "each run); the data itself is seeded.",
        code=_SCORES + dedent("""\

            def mean_diff(values, labels):
                return values[labels == "flipped"].mean() - values[labels == "lecture"].mean()

            values, labels = scores.exam.to_numpy(), scores.method.to_numpy()
            observed = mean_diff(values, labels)
            rng = np.random.default_rng()
            null = np.array([mean_diff(values, rng.permutation(labels)) for _ in range(5000)])
            p_value = (np.sum(np.abs(null) >= abs(observed)) + 1) / (len(null) + 1)
            print(f"flipped - lecture = {observed:.2f} points, permutation p = {p_value:.4f}")
        """),
    ),
    Case(
        id="unseeded-permutation-test-default-rng-sound",
        family=None,
        twin="unseeded-permutation-test-default-rng",
        split="holdout",
        note="Same permutation test with default_rng(2024), so the p-value is reproducible.",
        code=_SCORES + dedent("""\

            def mean_diff(values, labels):
                return values[labels == "flipped"].mean() - values[labels == "lecture"].mean()

            values, labels = scores.exam.to_numpy(), scores.method.to_numpy()
            observed = mean_diff(values, labels)
            rng = np.random.default_rng(2024)
            null = np.array([mean_diff(values, rng.permutation(labels)) for _ in range(5000)])
            p_value = (np.sum(np.abs(null) >= abs(observed)) + 1) / (len(null) + 1)
            print(f"flipped - lecture = {observed:.2f} points, permutation p = {p_value:.4f}")
        """),
    ),
    Case(
        id="unseeded-shuffled-kfold-cv",
        family="unseeded_randomness",
        twin="unseeded-shuffled-kfold-cv-sound",
        split="holdout",
        note="StratifiedKFold(shuffle=True) without random_state: the fold assignment, and so "
        "the printed CV AUC, changes every run.",
        code=_ATTRITION + dedent("""\

            cv = StratifiedKFold(n_splits=5, shuffle=True)
            auc = cross_val_score(model, staff.drop(columns="left"), staff.left, cv=cv,
                                  scoring="roc_auc")
            print(f"attrition model CV AUC: {auc.mean():.4f} +/- {auc.std():.4f}")
        """),
    ),
    Case(
        id="unseeded-shuffled-kfold-cv-sound",
        family=None,
        twin="unseeded-shuffled-kfold-cv",
        split="holdout",
        note="Shuffled StratifiedKFold with random_state=0.",
        code=_ATTRITION + dedent("""\

            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            auc = cross_val_score(model, staff.drop(columns="left"), staff.left, cv=cv,
                                  scoring="roc_auc")
            print(f"attrition model CV AUC: {auc.mean():.4f} +/- {auc.std():.4f}")
        """),
    ),
]
