"""The target, or a column derived from it (or recorded after it), among the features."""

from textwrap import dedent

from bench.critic_corpus import Case

_STUDENTS = dedent("""\
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(8)
    n = 1200
    students = pd.DataFrame({
        "student_id": np.arange(10000, 10000 + n),
        "attendance_pct": rng.uniform(55, 100, n),
        "homework_avg": rng.normal(72, 12, n),
        "midterm": rng.normal(68, 14, n),
        "tutoring_hrs": rng.poisson(4, n),
        "school": rng.choice(["north", "south", "east"], n),
    })
    students["final_exam"] = (
        0.3 * students.midterm + 0.25 * students.homework_avg
        + 0.2 * students.attendance_pct + rng.normal(0, 8, n)
    )
    students["passed"] = (students.final_exam >= 50).astype(int)
""")

_HOMES = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold, cross_val_score

rng = np.random.default_rng(15)
n = 900
homes = pd.DataFrame({
    "sqft": rng.normal(1700, 500, n).clip(500),
    "lot_acres": rng.gamma(2, 0.15, n),
    "bathrooms": rng.integers(1, 4, n),
    "year_built": rng.integers(1950, 2022, n),
})
homes["price"] = (
    150 * homes.sqft + 60000 * homes.lot_acres + 15000 * homes.bathrooms
    + 900 * (homes.year_built - 1950) + rng.normal(0, 45000, n)
)
homes["price_per_sqft"] = homes.price / homes.sqft
"""

_CHURN = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(4)
n = 2500
snapshot = pd.Timestamp("2024-06-30")
subs = pd.DataFrame({
    "customer_id": [f"C{i:05d}" for i in range(n)],
    "monthly_fee": rng.choice([19.0, 29.0, 49.0], n),
    "support_tickets": rng.poisson(1.2, n),
    "tenure_months": rng.integers(1, 60, n),
})
risk = -1.0 + 0.5 * subs.support_tickets - 0.04 * subs.tenure_months
subs["churned"] = (rng.random(n) < 1 / (1 + np.exp(-risk))).astype(int)
cancel = pd.Series(snapshot - pd.to_timedelta(rng.integers(1, 90, n), unit="D"))
# the CRM has logged a cancellation date for most (not all) churned accounts so far
subs["cancellation_date"] = cancel.where((subs.churned == 1) & (rng.random(n) < 0.7))
subs["days_since_cancel"] = (snapshot - subs.cancellation_date).dt.days.fillna(-1)
"""

_DIABETES = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(10)
n = 1600
ehr = pd.DataFrame({
    "age": rng.integers(25, 80, n),
    "bmi": rng.normal(28, 5, n),
    "systolic_bp": rng.normal(128, 15, n),
    "family_history": rng.integers(0, 2, n),
})
lp = -9 + 0.05 * ehr.age + 0.15 * ehr.bmi + 0.8 * ehr.family_history
ehr["diabetes_dx"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
# prescriptions pulled from the same extract (most diagnosed patients get metformin)
ehr["metformin_rx"] = np.where(ehr.diabetes_dx == 1, rng.random(n) < 0.85, rng.random(n) < 0.02)
ehr["metformin_rx"] = ehr["metformin_rx"].astype(int)
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-select-dtypes-exam",
        family="target_leakage",
        twin="target-leakage-select-dtypes-exam-sound",
        setup=_STUDENTS,
        note="select_dtypes('number') keeps final_exam, the score that 'passed' is a threshold "
        "of, among the features.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = students.select_dtypes("number").drop(columns=["student_id", "passed"])
            y = students["passed"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.25, stratify=y, random_state=0
            )
            clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            clf.fit(X_tr, y_tr)
            print(f"features: {list(X.columns)}")
            print(f"pass/fail accuracy on held-out students: {clf.score(X_te, y_te):.3f}")
        """),
    ),
    Case(
        id="target-leakage-select-dtypes-exam-sound",
        family=None,
        twin="target-leakage-select-dtypes-exam",
        setup=_STUDENTS,
        note="Only information available before the final exam is used to predict passing.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = students[["attendance_pct", "homework_avg", "midterm", "tutoring_hrs"]]
            y = students["passed"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.25, stratify=y, random_state=0
            )
            clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            clf.fit(X_tr, y_tr)
            print(f"features: {list(X.columns)}")
            print(f"pass/fail accuracy on held-out students: {clf.score(X_te, y_te):.3f}")
        """),
    ),
    Case(
        id="target-leakage-price-per-sqft",
        family="target_leakage",
        twin="target-leakage-price-per-sqft-sound",
        note="price_per_sqft is price / sqft, so the target is reconstructed from the features.",
        code=_HOMES + dedent("""\

            features = ["sqft", "lot_acres", "bathrooms", "year_built", "price_per_sqft"]
            cv = KFold(n_splits=5, shuffle=True, random_state=0)
            r2 = cross_val_score(LinearRegression(), homes[features], homes.price, cv=cv,
                                 scoring="r2")
            print(f"cross-validated R^2 = {r2.mean():.3f} (folds {r2.round(3)})")
        """),
    ),
    Case(
        id="target-leakage-price-per-sqft-sound",
        family=None,
        twin="target-leakage-price-per-sqft",
        note="The price-derived column is left out; the features are known before a sale.",
        code=_HOMES + dedent("""\

            features = ["sqft", "lot_acres", "bathrooms", "year_built"]
            cv = KFold(n_splits=5, shuffle=True, random_state=0)
            r2 = cross_val_score(LinearRegression(), homes[features], homes.price, cv=cv,
                                 scoring="r2")
            print(f"cross-validated R^2 = {r2.mean():.3f} (folds {r2.round(3)})")
        """),
    ),
    Case(
        id="target-leakage-days-since-cancel",
        family="target_leakage",
        twin="target-leakage-days-since-cancel-sound",
        note="days_since_cancel only exists for customers who already churned (-1 otherwise): "
        "it encodes the label.",
        code=_CHURN + dedent("""\

            features = ["monthly_fee", "support_tickets", "tenure_months", "days_since_cancel"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                subs[features], subs.churned, test_size=0.2, random_state=0,
                stratify=subs.churned,
            )
            clf = RandomForestClassifier(n_estimators=150, random_state=0).fit(X_tr, y_tr)
            print(f"churn model accuracy: {accuracy_score(y_te, clf.predict(X_te)):.3f}")
            imp = pd.Series(clf.feature_importances_, index=features)
            print(imp.sort_values(ascending=False).round(3))
        """),
    ),
    Case(
        id="target-leakage-days-since-cancel-sound",
        family=None,
        twin="target-leakage-days-since-cancel",
        note="Only account attributes known before the churn decision are features.",
        code=_CHURN + dedent("""\

            features = ["monthly_fee", "support_tickets", "tenure_months"]
            X_tr, X_te, y_tr, y_te = train_test_split(
                subs[features], subs.churned, test_size=0.2, random_state=0,
                stratify=subs.churned,
            )
            clf = RandomForestClassifier(n_estimators=150, random_state=0).fit(X_tr, y_tr)
            print(f"churn model accuracy: {accuracy_score(y_te, clf.predict(X_te)):.3f}")
            imp = pd.Series(clf.feature_importances_, index=features)
            print(imp.sort_values(ascending=False).round(3))
        """),
    ),
    Case(
        id="target-leakage-metformin-diagnosis",
        family="target_leakage",
        twin="target-leakage-metformin-diagnosis-sound",
        note="metformin_rx is prescribed because of the diabetes diagnosis being predicted "
        "(recorded after the outcome).",
        code=_DIABETES + dedent("""\

            X = ehr.drop(columns="diabetes_dx")
            y = ehr.diabetes_dx
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.3, stratify=y, random_state=11
            )
            risk_model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, risk_model.predict_proba(X_te)[:, 1])
            print(f"diabetes risk model: test AUC = {auc:.3f} using {X.columns.tolist()}")
        """),
    ),
    Case(
        id="target-leakage-metformin-diagnosis-sound",
        family=None,
        twin="target-leakage-metformin-diagnosis",
        note="The prescription (a consequence of the diagnosis) is excluded from the features.",
        code=_DIABETES + dedent("""\

            X = ehr.drop(columns=["diabetes_dx", "metformin_rx"])
            y = ehr.diabetes_dx
            X_tr, X_te, y_tr, y_te = train_test_split(
                X, y, test_size=0.3, stratify=y, random_state=11
            )
            risk_model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, risk_model.predict_proba(X_te)[:, 1])
            print(f"diabetes risk model: test AUC = {auc:.3f} using {X.columns.tolist()}")
        """),
    ),
]
