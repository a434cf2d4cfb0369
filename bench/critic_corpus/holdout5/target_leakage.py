"""Target leakage, holdout5 idioms: a rework count merged in from the rework log (rework happens
because a unit failed final inspection) as a 'process history' feature, and a feature list built
by a prefix comprehension that sweeps in the closing-bill amount of accounts that switched
supplier."""

from textwrap import dedent

from bench.critic_corpus import Case

_UNITS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
n = 2000
units = pd.DataFrame({
    "unit_id": np.arange(50_000, 50_000 + n),
    "line": rng.choice(["L1", "L2", "L3"], n),
    "torque_nm": rng.normal(12.0, 0.6, n).round(2),
    "seal_temp_c": rng.normal(185, 6, n).round(1),
    "humidity_pct": rng.uniform(30, 70, n).round(0),
    "glue_g": rng.normal(2.4, 0.25, n).round(2),
})
z = (-3.0 + 0.9 * np.abs(units.torque_nm - 12) / 0.6 + 0.04 * (units.humidity_pct - 50)
     + 0.5 * (units.line == "L3"))
units["failed_final"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
# the rework cell logs every unit it receives: almost all final-inspection failures plus a
# few cosmetic touch-ups; a unit can go round the rework loop more than once
sent = np.where(units.failed_final == 1, rng.random(n) < 0.93, rng.random(n) < 0.03)
rework_log = pd.DataFrame({
    "unit_id": np.repeat(units.unit_id[sent].to_numpy(), rng.integers(1, 3, sent.sum())),
})
rework_log["station"] = rng.choice(["RW1", "RW2"], len(rework_log))
"""

_METERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n = 2500
meters = pd.DataFrame({
    "account": [f"EL{i:06d}" for i in range(n)],
    "tenure_months": rng.integers(1, 120, n),
    "usage_kwh_winter": rng.gamma(6, 180, n).round(0),
    "usage_kwh_summer": rng.gamma(5, 120, n).round(0),
    "usage_peak_share": rng.beta(4, 8, n).round(3),
    "bill_avg_eur": rng.normal(95, 30, n).clip(20).round(2),
    "bill_late_payments": rng.poisson(0.6, n),
    "bill_direct_debit": rng.integers(0, 2, n),
})
z = (-1.8 - 0.012 * meters.tenure_months + 0.018 * (meters.bill_avg_eur - 95)
     + 0.35 * meters.bill_late_payments - 0.5 * meters.bill_direct_debit)
meters["switched"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
# a closing bill is issued when an account leaves; 0 for accounts still supplied
closing = rng.gamma(2, 40, n).round(2)
meters["bill_closing_eur"] = np.where(meters.switched == 1, closing, 0.0)
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-rework-count-merge",
        family="target_leakage",
        twin="target-leakage-rework-count-merge-sound",
        split="holdout5",
        setup=_UNITS,
        note="Units are sent to rework because they failed final inspection, so the merged "
        "rework count (recorded after the label) all but restates failed_final.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import balanced_accuracy_score, recall_score
            from sklearn.model_selection import train_test_split

            history = (rework_log.groupby("unit_id").size().rename("rework_passes")
                       .reset_index())
            data = (units.merge(history, on="unit_id", how="left")
                         .fillna({"rework_passes": 0})
                         .assign(line_l3=lambda d: (d.line == "L3").astype(int)))
            features = ["torque_nm", "seal_temp_c", "humidity_pct", "glue_g", "line_l3",
                        "rework_passes"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                data[features], data.failed_final, test_size=0.25, stratify=data.failed_final,
                random_state=4)
            rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=0,
                                        n_jobs=1).fit(X_tr, y_tr)
            pred = rf.predict(X_te)
            print(f"final-inspection failure model: balanced accuracy "
                  f"{balanced_accuracy_score(y_te, pred):.3f}, "
                  f"recall {recall_score(y_te, pred):.3f}")
            print(pd.Series(rf.feature_importances_, index=features).round(3)
                  .sort_values(ascending=False).to_string())
        """),
    ),
    Case(
        id="target-leakage-rework-count-merge-sound",
        family=None,
        twin="target-leakage-rework-count-merge",
        split="holdout5",
        setup=_UNITS,
        note="Only in-process measurements taken before final inspection are features; the "
        "rework log (a consequence of failing inspection) is not merged in.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import balanced_accuracy_score, recall_score
            from sklearn.model_selection import train_test_split

            # only what is measured on the line, before the unit reaches final inspection
            data = units.assign(line_l3=lambda d: (d.line == "L3").astype(int))
            features = ["torque_nm", "seal_temp_c", "humidity_pct", "glue_g", "line_l3"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                data[features], data.failed_final, test_size=0.25, stratify=data.failed_final,
                random_state=4)
            rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=0,
                                        n_jobs=1).fit(X_tr, y_tr)
            pred = rf.predict(X_te)
            print(f"final-inspection failure model: balanced accuracy "
                  f"{balanced_accuracy_score(y_te, pred):.3f}, "
                  f"recall {recall_score(y_te, pred):.3f}")
            print(pd.Series(rf.feature_importances_, index=features).round(3)
                  .sort_values(ascending=False).to_string())
        """),
    ),
    Case(
        id="target-leakage-closing-bill-prefix-features",
        family="target_leakage",
        twin="target-leakage-closing-bill-prefix-features-sound",
        split="holdout5",
        setup=_METERS,
        note="The 'usage_/bill_' prefix comprehension also picks bill_closing_eur, a bill "
        "issued only to accounts that have already switched, so the label is in the features.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            feature_cols = [c for c in meters.columns if c.startswith(("usage_", "bill_"))]
            feature_cols.append("tenure_months")
            churn_model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=12)
            auc = cross_val_score(churn_model, meters[feature_cols], meters.switched,
                                  cv=folds, scoring="roc_auc")
            print(f"{len(feature_cols)} features: {feature_cols}")
            print(f"switching model, 5-fold ROC AUC = {auc.mean():.3f} +/- {auc.std():.3f}")
        """),
    ),
    Case(
        id="target-leakage-closing-bill-prefix-features-sound",
        family=None,
        twin="target-leakage-closing-bill-prefix-features",
        split="holdout5",
        setup=_METERS,
        note="The prefix comprehension excludes bill_closing_eur (issued only after an account "
        "leaves); only usage and billing history known beforehand are features.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            after_exit = {"bill_closing_eur"}   # only exists once the customer has left
            feature_cols = [c for c in meters.columns
                            if c.startswith(("usage_", "bill_")) and c not in after_exit]
            feature_cols.append("tenure_months")
            churn_model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=12)
            auc = cross_val_score(churn_model, meters[feature_cols], meters.switched,
                                  cv=folds, scoring="roc_auc")
            print(f"{len(feature_cols)} features: {feature_cols}")
            print(f"switching model, 5-fold ROC AUC = {auc.mean():.3f} +/- {auc.std():.3f}")
        """),
    ),
]
