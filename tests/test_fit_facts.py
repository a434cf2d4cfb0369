"""Kernel facts of model fits: how strongly each feature alone tracks the target of
`est.fit(X, y)`, `cross_val_score(est, X, y)`, `sm.OLS(y, X)` (services/kernel_facts.fit_facts),
which fits the probe plans (services/cell_evidence), and the round trip through Evidence."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from critics.evidence import Evidence, FitFacts
from services.cell_evidence import plan_probe
from services.kernel_facts import _column_aucs, _column_rs, fit_facts

RNG = np.random.default_rng(7)


def test_auc_per_column_matches_sklearn_with_ties_and_gaps() -> None:
    n = 400
    y = RNG.random(n) < 0.35
    x = np.column_stack([
        RNG.normal(size=n) + 2 * y,  # continuous, no ties
        RNG.integers(0, 4, n),  # counts: many ties
        (RNG.random(n) < 0.3).astype(float),  # a dummy
        RNG.normal(size=n) - y,  # lower for the positive class
    ])
    x[::11, 0] = np.nan
    found = _column_aucs(x, y)
    for j in range(x.shape[1]):
        keep = ~np.isnan(x[:, j])
        assert found[j] == pytest.approx(roc_auc_score(y[keep], x[keep, j]), abs=1e-12)


def test_pearson_r_per_column_matches_numpy_with_gaps() -> None:
    n = 300
    y = RNG.normal(size=n)
    x = np.column_stack([y * 3 + RNG.normal(size=n), RNG.normal(size=n), -y])
    x[::7, 1] = np.nan
    found = _column_rs(x, y)
    for j in range(3):
        keep = ~np.isnan(x[:, j])
        assert found[j] == pytest.approx(np.corrcoef(x[keep, j], y[keep])[0, 1], abs=1e-12)


def test_a_near_copy_of_a_continuous_target_tops_the_list() -> None:
    rt = RNG.normal(370, 40, 500)
    X = np.column_stack([RNG.normal(size=(500, 8)), rt - 60 + RNG.normal(0, 4, 500)])
    f = fit_facts(X, rt)
    assert f is not None and f["kind"] == "r" and f["n_columns"] == 9
    col, r = next(iter(f["top"].items()))
    assert col == "[:, 8]" and r > 0.98


def test_frame_columns_by_name_and_a_separating_column_for_a_binary_target() -> None:
    n = 600
    y = pd.Series(RNG.random(n) < 0.3, name="infected").astype(int)
    X = pd.DataFrame({"rain_days": RNG.poisson(4, n), "humidity": RNG.normal(70, 8, n),
                      "toxin_ppm": np.where(y == 1, RNG.gamma(4, 3, n), RNG.gamma(1, 0.3, n)),
                      "variety": RNG.choice(["a", "b"], n)})
    f = fit_facts(X, y)
    assert f is not None and f["kind"] == "auc" and f["n_columns"] == 3  # text column left out
    assert next(iter(f["top"])) == "toxin_ppm" and f["top"]["toxin_ppm"] > 0.95


def test_rows_are_sampled_evenly_on_large_data() -> None:
    y = RNG.normal(size=20_000)
    f = fit_facts(np.column_stack([y, RNG.normal(size=20_000)]), y)
    assert f is not None and f["n"] == 1000 and f["top"]["[:, 0]"] == 1.0


@pytest.mark.parametrize("x, y", [
    (np.ones((10, 2)), np.arange(10.0)),  # too few rows
    (np.ones((100, 2)), np.arange(50.0)),  # lengths differ
    (RNG.normal(size=(100, 2)), RNG.integers(0, 4, 100)),  # 4 classes: neither kind
    (RNG.normal(size=(100, 2)), np.array(["a", "b"] * 50, dtype=object)),  # text labels
    (np.array([["a", "b"]] * 100), np.arange(100.0)),  # text features
])
def test_nothing_for_what_it_cannot_measure(x: object, y: object) -> None:
    assert fit_facts(x, y) is None


def test_the_probe_plans_the_fits_it_can_re_read_safely() -> None:
    code = (
        "import statsmodels.api as sm\n"
        "from scipy import stats\n"
        "rf.fit(X_tr, y_tr)\n"
        "scores = cross_val_score(Ridge(), X, y, cv=5)\n"
        "res = sm.Logit(df['won'], sm.add_constant(df[feats])).fit()\n"
        "km.fit(X)\n"  # one argument: not a supervised fit
        "loc, scale = stats.norm.fit(values)\n"
        "lr.fit(df.drop(columns='y'), df['y'])\n"  # not side-effect free to re-evaluate
        "rf.fit(X_tr, y_tr)\n"  # the same pair again
    )
    fits = plan_probe(code).fits
    assert [(f["call"], f["x"], f["y"]) for f in fits] == [
        ("fit", "X_tr", "y_tr"), ("cross_val_score", "X", "y"),
        ("Logit", "df[feats]", "df['won']")]


def test_fit_facts_travel_with_the_evidence() -> None:
    ev = Evidence(code="m.fit(X, y)", fits=[FitFacts("fit", 1, "X", "y", "r", 200, 5,
                                                     {"[:, 2]": 0.99})])
    back = Evidence.from_dict(ev.to_dict())
    assert back.fits == ev.fits
