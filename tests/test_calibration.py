"""Calibrated confidence: built-in rules carry their measured precision, unmeasured rules
cannot block, user rules keep their own numbers; the table is recomputed from labelled runs."""

from __future__ import annotations

import pytest

from bench.calibrate import tally
from critics import AnalysisCritic, Evidence, Finding, calibration, rule
from critics.rules.leakage import fit_saw_heldout_rows


def test_wilson_lower_bound_is_conservative_for_few_firings() -> None:
    assert calibration.wilson_lower(0, 0) == 0.0
    assert calibration.wilson_lower(3, 0) < 0.5 < calibration.wilson_lower(20, 0) < 0.9
    assert calibration.wilson_lower(200, 0) > 0.98
    assert calibration.wilson_lower(50, 10) < calibration.wilson_lower(50, 0)


def test_tally_counts_own_family_as_tp_sound_as_fp_and_ignores_other_flaws() -> None:
    rows = [
        {"family": "leakage", "findings": [{"rule_id": "leakage.a", "family": "leakage",
                                            "severity": "critical"}]},
        {"family": None, "findings": [{"rule_id": "leakage.a", "family": "leakage",
                                       "severity": "high"},
                                      {"rule_id": "leakage.b", "family": "leakage",
                                       "severity": "low"}]},
        {"family": "data_loss", "findings": [{"rule_id": "leakage.a", "family": "leakage",
                                              "severity": "high"}]},
    ]
    table = tally(rows)
    assert table["leakage.a"]["tp"] == 1 and table["leakage.a"]["fp"] == 1
    assert "leakage.b" not in table  # a low note is no claim


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calibration, "table", lambda: {
        "leakage.fit_saw_heldout_rows": {"tp": 40, "fp": 0, "confidence": 0.912}})


def test_builtin_rule_gets_measured_confidence_unmeasured_is_capped(measured: None) -> None:
    f = Finding(rule_id="leakage.fit_saw_heldout_rows", severity="critical", confidence=0.5)
    assert calibration.calibrate(f, builtin=True).confidence == 0.912
    g = Finding(rule_id="leakage.new_rule", severity="critical", confidence=0.95)
    assert calibration.calibrate(g, builtin=True).confidence == calibration.UNMEASURED_CAP
    assert not calibration.calibrate(g, builtin=True).is_blocking(0.8)
    assert calibration.calibrate(g, builtin=False).confidence == 0.95


@rule("acme.always", family="acme", title="A user rule")
def always(ev: Evidence) -> list[Finding]:
    return [Finding(explanation="x", severity="critical", confidence=0.97)]


def test_critic_applies_calibration_to_builtin_rules_only(measured: None) -> None:
    critic = AnalysisCritic(rules=[always, fit_saw_heldout_rows])
    (found,) = critic.review(Evidence(code="x = 1")).findings
    assert found.rule_id == "acme.always" and found.confidence == 0.97
