"""target_leakage.feature_tracks_target: one feature of a fit alone predicts its target almost
exactly, read from the kernel's facts on the very (X, y) passed to the fit, with the code
that built the data hidden (as when it is loaded from a file)."""

from __future__ import annotations

import textwrap

from critics.evidence import Evidence
from critics.findings import Finding
from critics.rules import target_leakage as T
from tests import rule_helpers as H
from tests.inprocess_evidence import run_and_gather

RULE = "target_leakage.feature_tracks_target"


def hidden(code: str, setup: str) -> list[Finding]:
    """Run setup and code for real; the rules see only the setup's imports."""
    ev = run_and_gather(code, setup)
    imports = "\n".join(ln for ln in textwrap.dedent(setup).splitlines()
                        if ln.startswith(("import ", "from ")))
    ev = Evidence.from_dict({**ev.to_dict(), "prior_code": imports})
    return H.check(T.RULES, ev)


def no_note(found: list[Finding]) -> None:
    mine = [f for f in found if f.rule_id == RULE]
    assert not mine, H.describe(mine)


REACTION = """
import numpy as np
rng = np.random.default_rng(3)
n = 320
rt_ms = rng.normal(370, 40, n)
bands = rng.normal(size=(n, 12)) + 0.01 * rt_ms[:, None]
emg_onset = rt_ms - 60 + rng.normal(0, 5, n)
"""


def test_array_column_that_is_the_target_minus_a_delay() -> None:
    code = """
    from sklearn.linear_model import RidgeCV
    from sklearn.model_selection import cross_val_predict
    X = np.column_stack([bands, emg_onset])
    pred = cross_val_predict(RidgeCV(), X, rt_ms, cv=5)
    print("cv r", np.corrcoef(pred, rt_ms)[0, 1].round(3))
    """
    f = H.one(hidden(code, REACTION), RULE)
    assert f.severity == "medium" and f.evidence["values"]["feature"] == "[:, 12]"
    assert f.evidence["values"]["value"] > 0.98 and "line" in f.explanation


def test_array_without_the_onset_is_quiet() -> None:
    code = """
    from sklearn.linear_model import RidgeCV
    from sklearn.model_selection import cross_val_predict
    X = bands
    pred = cross_val_predict(RidgeCV(), X, rt_ms, cv=5)
    print("cv r", np.corrcoef(pred, rt_ms)[0, 1].round(3))
    """
    no_note(hidden(code, REACTION))


GRAIN = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(11)
n = 400
fields = pd.DataFrame({"rain_days": rng.poisson(5, n), "rh_hours": rng.normal(60, 15, n),
                       "fungicide": rng.integers(0, 2, n)})
risk = 0.08 * fields.rain_days + 0.02 * fields.rh_hours - 1.0 * fields.fungicide - 2.2
fields["outbreak"] = (rng.random(n) < 1 / (1 + np.exp(-risk))).astype(int)
fields["don_ppm"] = np.where(fields.outbreak == 1, rng.gamma(6, 1.0, n), rng.gamma(1, 0.3, n))
"""


def test_frame_column_that_separates_the_classes_is_reported_once() -> None:
    code = """
    from sklearn.ensemble import RandomForestClassifier
    feats = ["rain_days", "rh_hours", "fungicide", "don_ppm"]
    X, y = fields[feats], fields["outbreak"]
    rf = RandomForestClassifier(n_estimators=50, random_state=0).fit(X, y)
    print(dict(zip(feats, rf.feature_importances_.round(2))))
    """
    # the frame's own facts already name it (feature_separates_classes): one note, not two
    notes = [f for f in hidden(code, GRAIN) if "don_ppm" in f.explanation]
    assert len(notes) == 1 and notes[0].severity == "medium", H.describe(notes)


def test_statsmodels_logit_on_arrays_with_a_constant_added() -> None:
    code = """
    import statsmodels.api as sm
    design = np.column_stack([fields.rain_days, fields.rh_hours, fields.don_ppm])
    won = fields.outbreak.to_numpy()
    res = sm.Logit(won, sm.add_constant(design)).fit(disp=0, maxiter=50)
    print(res.params.round(2))
    """
    f = H.one(hidden(code, GRAIN), RULE)
    assert f.evidence["values"]["feature"] == "[:, 2]"
    assert f.evidence["values"]["kind"] == "auc" and "`design`" in f.explanation


def test_forest_on_pre_season_features_only_is_quiet() -> None:
    code = """
    from sklearn.ensemble import RandomForestClassifier
    feats = ["rain_days", "rh_hours", "fungicide"]
    X, y = fields[feats], fields["outbreak"]
    rf = RandomForestClassifier(n_estimators=50, random_state=0).fit(X, y)
    print(dict(zip(feats, rf.feature_importances_.round(2))))
    """
    no_note(hidden(code, GRAIN))


LOAD = """
import numpy as np
import pandas as pd
rng = np.random.default_rng(5)
t = np.arange(800)
load = pd.DataFrame({"mw": 500 + 80 * np.sin(2 * np.pi * t / 400) + rng.normal(0, 2, 800),
                     "temp_c": 15 + 8 * np.sin(2 * np.pi * t / 365) + rng.normal(0, 2, 800)})
"""


def test_lag_features_of_a_smooth_series_are_forecasting_not_leakage() -> None:
    code = """
    from sklearn.linear_model import LinearRegression
    load["mw_lag1"] = load["mw"].shift(1)
    d = load.dropna()
    X, y = d[["mw_lag1", "temp_c"]], d["mw"]
    m = LinearRegression().fit(X[:600], y[:600])
    print("holdout R2", round(m.score(X[600:], y[600:]), 3))
    """
    no_note(hidden(code, LOAD))


def test_a_single_feature_calibration_curve_is_quiet() -> None:
    setup = """
    import numpy as np
    rng = np.random.default_rng(2)
    conc = np.repeat([0.5, 1, 2, 5, 10, 20], 6)
    absorb = 0.051 * conc + 0.003 + rng.normal(0, 0.002, conc.size)
    """
    code = """
    from sklearn.linear_model import LinearRegression
    cal = LinearRegression().fit(absorb.reshape(-1, 1), conc)
    print("slope", cal.coef_.round(2), "R2", round(cal.score(absorb.reshape(-1, 1), conc), 4))
    """
    no_note(hidden(code, setup))


def test_a_column_another_target_leakage_rule_reports_is_not_reported_twice() -> None:
    setup = """
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(9)
    n = 300
    runs = pd.DataFrame({"age": rng.integers(20, 60, n), "km_week": rng.normal(50, 12, n)})
    runs["finish_min"] = 300 - 1.2 * runs.km_week + 0.8 * runs.age + rng.normal(0, 15, n)
    """
    code = """
    from sklearn.linear_model import LinearRegression
    runs["pace"] = runs["finish_min"] / 42.195
    X, y = runs[["age", "km_week", "pace"]], runs["finish_min"]
    m = LinearRegression().fit(X, y)
    print(round(m.score(X, y), 3))
    """
    found = hidden(code, setup)
    assert any(f.rule_id != RULE and f.family == "target_leakage" for f in found), \
        H.describe(found)
    no_note(found)
