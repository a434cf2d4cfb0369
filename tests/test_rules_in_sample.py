"""In-sample fit reported as skill, from what ran: a flexible model's predictions for its own
training rows, the error computed by hand. Several idioms, each with a sound twin."""

from __future__ import annotations

from critics import AnalysisCritic

from .inprocess_evidence import run_and_gather

CRITIC = AnalysisCritic()
SETUP = """
import numpy as np, pandas as pd
rng = np.random.default_rng(8)
A = rng.normal(size=(300, 5)); z = A[:, 0] - A[:, 1] ** 2 + rng.normal(0, .5, 300)
"""
SCORED = "circular_validation.scored_on_training_rows"


def rules(code: str) -> set[str]:
    return {f.rule_id for f in CRITIC.review(run_and_gather(code, SETUP)).findings}


def test_forest_predicting_its_own_rows_with_the_error_by_hand() -> None:
    assert SCORED in rules("""
    from sklearn.ensemble import RandomForestRegressor
    rf = RandomForestRegressor(n_estimators=40, random_state=0).fit(A, z)
    resid = rf.predict(A) - z
    print("RMSE", np.sqrt(np.mean(resid ** 2)))
    """)


def test_neighbours_on_a_frame_scored_by_hand_in_a_helper() -> None:
    assert SCORED in rules("""
    from sklearn.neighbors import KNeighborsRegressor
    frame = pd.DataFrame(A, columns=list("abcde")).assign(z=z)
    def mae(model, data):
        return (model.predict(data[list("abcde")]) - data.z).abs().mean()
    knn = KNeighborsRegressor(3).fit(frame[list("abcde")], frame.z)
    print("MAE", mae(knn, frame))
    """)


def test_forest_predicting_held_out_rows_by_hand_is_quiet() -> None:
    found = rules("""
    from sklearn.ensemble import RandomForestRegressor
    rf = RandomForestRegressor(n_estimators=40, random_state=0).fit(A[:200], z[:200])
    print("RMSE", np.sqrt(np.mean((rf.predict(A[200:]) - z[200:]) ** 2)))
    """)
    assert SCORED not in found
