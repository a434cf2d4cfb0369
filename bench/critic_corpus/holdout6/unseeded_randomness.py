"""Unseeded randomness, holdout6 idioms: a hand-written permutation-test helper for a web A/B
test's revenue per visitor that shuffles with np.random.permutation on the unseeded global state,
and an HR attrition pipeline whose SelectFromModel selector wraps an ExtraTreesClassifier with no
random_state, so which survey items are kept, and the cross-validated AUC, change per run."""

from textwrap import dedent

from bench.critic_corpus import Case

_BASKETS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6609)
n = 6000
visits = pd.DataFrame({
    "visitor_id": np.arange(100_000, 100_000 + n),
    "arm": rng.choice(["control", "bundle_banner"], n),
})
buys = rng.random(n) < np.where(visits.arm == "bundle_banner", 0.070, 0.055)
visits["revenue"] = np.where(buys, rng.lognormal(3.7, 0.8, n), 0.0).round(2)
"""

_ATTRITION = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6602)
n = 900
items = [f"engage_q{i:02d}" for i in range(1, 19)]
staff = pd.DataFrame(rng.integers(1, 6, (n, len(items))), columns=items)
staff["tenure_yrs"] = rng.gamma(2.0, 2.5, n).round(1)
staff["salary_ratio"] = rng.normal(1.0, 0.12, n).round(3)    # pay / band midpoint
staff["overtime_hrs_mo"] = rng.poisson(9, n)
weights = rng.normal(0, 0.12, len(items))                   # many weakly informative items
z = (-1.4 + (staff[items] - 3).to_numpy() @ weights - 0.15 * staff.tenure_yrs
     - 2.0 * (staff.salary_ratio - 1) + 0.04 * staff.overtime_hrs_mo)
staff["left_within_yr"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="unseeded-np-permutation-helper-basket-ab",
        family="unseeded_randomness",
        twin="unseeded-np-permutation-helper-basket-ab-sound",
        split="holdout6",
        setup=_BASKETS,
        note="The perm_test helper shuffles with np.random.permutation on the never-seeded global "
        "RNG, so the reported permutation p-value (and the ship decision) differs run to run.",
        code=dedent("""\
            def perm_test(a, b, n_perm=4000):
                \"\"\"Two-sided permutation test for a difference in means.\"\"\"
                observed = a.mean() - b.mean()
                pooled = np.concatenate([a, b])
                hits = 0
                for _ in range(n_perm):
                    shuffled = np.random.permutation(pooled)
                    diff = shuffled[:len(a)].mean() - shuffled[len(a):].mean()
                    hits += abs(diff) >= abs(observed)
                return observed, (hits + 1) / (n_perm + 1)

            rpv = {arm: g.revenue.to_numpy() for arm, g in visits.groupby("arm")}
            lift, p = perm_test(rpv["bundle_banner"], rpv["control"])
            print(f"revenue per visitor: bundle_banner {rpv['bundle_banner'].mean():.3f} vs "
                  f"control {rpv['control'].mean():.3f} (lift {lift:+.3f})")
            print(f"permutation p = {p:.4f} -> {'ship it' if p < 0.05 else 'no clear win'}")
        """),
    ),
    Case(
        id="unseeded-np-permutation-helper-basket-ab-sound",
        family=None,
        twin="unseeded-np-permutation-helper-basket-ab",
        split="holdout6",
        setup=_BASKETS,
        note="The perm_test helper draws its shuffles from a Generator passed in and created "
        "with default_rng(66), so the permutation p-value is reproducible.",
        code=dedent("""\
            def perm_test(a, b, rng, n_perm=4000):
                \"\"\"Two-sided permutation test for a difference in means.\"\"\"
                observed = a.mean() - b.mean()
                pooled = np.concatenate([a, b])
                hits = 0
                for _ in range(n_perm):
                    shuffled = rng.permutation(pooled)
                    diff = shuffled[:len(a)].mean() - shuffled[len(a):].mean()
                    hits += abs(diff) >= abs(observed)
                return observed, (hits + 1) / (n_perm + 1)

            rpv = {arm: g.revenue.to_numpy() for arm, g in visits.groupby("arm")}
            lift, p = perm_test(rpv["bundle_banner"], rpv["control"], np.random.default_rng(66))
            print(f"revenue per visitor: bundle_banner {rpv['bundle_banner'].mean():.3f} vs "
                  f"control {rpv['control'].mean():.3f} (lift {lift:+.3f})")
            print(f"permutation p = {p:.4f} -> {'ship it' if p < 0.05 else 'no clear win'}")
        """),
    ),
    Case(
        id="unseeded-selectfrommodel-extratrees-attrition",
        family="unseeded_randomness",
        twin="unseeded-selectfrommodel-extratrees-attrition-sound",
        split="holdout6",
        setup=_ATTRITION,
        note="The CV folds are seeded but the ExtraTreesClassifier inside SelectFromModel has no "
        "random_state: the median-importance cut, the kept items and the printed AUC vary per run.",
        code=dedent("""\
            from sklearn.ensemble import ExtraTreesClassifier
            from sklearn.feature_selection import SelectFromModel
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = staff.drop(columns="left_within_yr")
            y = staff["left_within_yr"]
            attrition_model = make_pipeline(
                StandardScaler(),
                SelectFromModel(ExtraTreesClassifier(n_estimators=60, min_samples_leaf=5),
                                threshold="median"),
                LogisticRegression(max_iter=1000),
            )
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=12)
            auc = cross_val_score(attrition_model, X, y, cv=cv, scoring="roc_auc")
            print(f"attrition model, 5-fold CV ROC AUC = {auc.mean():.4f} (sd {auc.std():.4f})")

            attrition_model.fit(X, y)
            kept = X.columns[attrition_model[1].get_support()]
            print(f"{len(kept)} of {X.shape[1]} drivers kept:", ", ".join(kept))
        """),
    ),
    Case(
        id="unseeded-selectfrommodel-extratrees-attrition-sound",
        family=None,
        twin="unseeded-selectfrommodel-extratrees-attrition",
        split="holdout6",
        setup=_ATTRITION,
        note="ExtraTreesClassifier(random_state=0) inside SelectFromModel, with seeded CV folds, "
        "so the kept items and the cross-validated AUC are reproducible.",
        code=dedent("""\
            from sklearn.ensemble import ExtraTreesClassifier
            from sklearn.feature_selection import SelectFromModel
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = staff.drop(columns="left_within_yr")
            y = staff["left_within_yr"]
            attrition_model = make_pipeline(
                StandardScaler(),
                SelectFromModel(ExtraTreesClassifier(n_estimators=60, min_samples_leaf=5,
                                                     random_state=0),
                                threshold="median"),
                LogisticRegression(max_iter=1000),
            )
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=12)
            auc = cross_val_score(attrition_model, X, y, cv=cv, scoring="roc_auc")
            print(f"attrition model, 5-fold CV ROC AUC = {auc.mean():.4f} (sd {auc.std():.4f})")

            attrition_model.fit(X, y)
            kept = X.columns[attrition_model[1].get_support()]
            print(f"{len(kept)} of {X.shape[1]} drivers kept:", ", ".join(kept))
        """),
    ),
]
