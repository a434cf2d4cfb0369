"""Target leakage, holdout8 idiom: a wind-farm failure model fed every column of a maintenance
extract, including the count of work orders raised during the prediction window itself."""

from textwrap import dedent

from bench.critic_corpus import Case

_SCADA = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8102)
n_turbines, n_windows = 60, 24
rows = n_turbines * n_windows
# one row per turbine per 30-day window, joined from SCADA and the maintenance system
windows = pd.DataFrame({
    "turbine": np.repeat([f"WTG{t:02d}" for t in range(n_turbines)], n_windows),
    "gearbox_vib_rms": rng.gamma(4, 0.5, rows).round(2),
    "oil_temp_c": rng.normal(58, 6, rows).round(1),
    "hours_since_service": rng.integers(0, 4000, rows),
    "mean_wind_ms": rng.normal(8, 2, rows).round(1),
})
risk = (-4.2 + 0.35 * windows.gearbox_vib_rms + 0.05 * (windows.oil_temp_c - 58)
        + 0.0003 * windows.hours_since_service)
windows["failure_30d"] = (rng.random(rows) < 1 / (1 + np.exp(-risk))).astype(int)
# work orders raised for the turbine in the same 30-day window (a failure always raises one)
windows["work_orders_30d"] = rng.poisson(0.4, rows) + windows["failure_30d"]
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-h8-turbine-work-orders-in-window",
        family="target_leakage",
        twin="target-leakage-h8-turbine-work-orders-in-window-sound",
        split="holdout8",
        setup=_SCADA,
        note="work_orders_30d counts orders raised during the window being predicted, and every "
        "failure raises one, so the model reads the outcome off a feature not known in advance.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import GroupKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = windows.drop(columns=["turbine", "failure_30d"])
            y = windows["failure_30d"]
            model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            auc = cross_val_score(model, X, y, groups=windows["turbine"],
                                  cv=GroupKFold(n_splits=5), scoring="roc_auc")
            print(f"features: {list(X.columns)}")
            print(f"gearbox failure model, turbine-grouped CV AUC: {auc.mean():.3f}")
        """),
    ),
    Case(
        id="target-leakage-h8-turbine-work-orders-in-window-sound",
        family=None,
        twin="target-leakage-h8-turbine-work-orders-in-window",
        split="holdout8",
        setup=_SCADA,
        note="Only SCADA and service-history signals known at the start of the window are used; "
        "the in-window work-order count is left out.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import GroupKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            # signals available when the window opens (work orders are logged during it)
            known_at_start = ["gearbox_vib_rms", "oil_temp_c", "hours_since_service",
                              "mean_wind_ms"]
            X, y = windows[known_at_start], windows["failure_30d"]
            model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            auc = cross_val_score(model, X, y, groups=windows["turbine"],
                                  cv=GroupKFold(n_splits=5), scoring="roc_auc")
            print(f"features: {list(X.columns)}")
            print(f"gearbox failure model, turbine-grouped CV AUC: {auc.mean():.3f}")
        """),
    ),
]
