"""Whether an estimator is fitted, as the kernel reports it (`services.kernel_facts`), read
through a real kernel: sklearn's own `check_is_fitted` semantics, so a fitted Pipeline (whose
fitted attributes live on its steps) is fitted and an unfitted one is not."""

from __future__ import annotations

import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from critics import AnalysisCritic, Evidence, Finding, rule
from services import kernel_facts
from services.cell_review import CellReviewer
from services.notebook_service import NotebookService

from .conftest import make_settings

SEEN: list[Evidence] = []


@rule("test.records_facts", family="test", title="Records the evidence it saw")
def records(ev: Evidence) -> list[Finding]:
    SEEN.append(ev)
    return []


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[NotebookService]:
    SEEN.clear()
    config = make_settings(tmp_path)
    service = NotebookService(config, reviewer=CellReviewer(
        config, critic=AnalysisCritic(rules=[records], load_plugins=False)))
    await service.start()
    try:
        yield service
    finally:
        await service.stop()


CELL = """
import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
rng = np.random.default_rng(0)
X = rng.normal(size=(60, 3))
y = (X[:, 0] > 0).astype(int)
pipe = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
idle = make_pipeline(StandardScaler(), LogisticRegression())
scaler = StandardScaler().fit(X)
fresh = StandardScaler()
"""


async def test_a_fitted_pipeline_is_fitted_in_a_real_kernel(svc: NotebookService) -> None:
    nb = await svc.create_notebook()
    cell = await svc.add_cell(nb, source=textwrap.dedent(CELL))
    result = await svc.execute_cell(nb, cell.id)
    assert result.status.value == "ok", result.error
    objects = SEEN[-1].objects
    assert objects["pipe"].kind == "estimator" and objects["pipe"].fitted is True
    assert objects["idle"].fitted is False
    assert objects["scaler"].fitted is True and objects["fresh"].fitted is False


class _Step:
    """An estimator-like object outside sklearn (no check_is_fitted to ask)."""

    def __init__(self, fitted: bool) -> None:
        if fitted:
            self.coef_ = 1.0

    def get_params(self, deep: bool = False) -> dict[str, object]:
        return {}

    def fit(self, X: object, y: object = None) -> _Step:
        return self


class _Chain(_Step):
    def __init__(self, *steps: _Step) -> None:
        self.steps = [(f"s{i}", s) for i, s in enumerate(steps)]


def test_the_fallback_reads_a_chain_by_its_last_step() -> None:
    """Without sklearn's verdict: trailing-underscore attributes, a chain by its last step."""
    fallback = kernel_facts.fitted_by_attributes
    assert fallback(_Step(True)) is True and fallback(_Step(False)) is False
    assert fallback(_Chain(_Step(False), _Step(True))) is True
    assert fallback(_Chain(_Step(True), _Step(False))) is False
    assert fallback(_Chain()) is False


def test_an_object_sklearn_cannot_judge_falls_back() -> None:
    class NoFit:  # get_params but no fit: check_is_fitted raises TypeError
        def __init__(self) -> None:
            self.coef_ = 2.0

    assert kernel_facts.is_fitted(NoFit()) is True
