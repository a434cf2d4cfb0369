"""Leakage, held-out idioms: whole-array imputation/PCA before a manual CV loop, and
oversampling before the split."""

from textwrap import dedent

from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="leakage-imputer-pca-manual-folds",
        family="leakage",
        twin="leakage-imputer-pca-manual-folds-sound",
        split="holdout",
        note="SimpleImputer, StandardScaler and PCA fitted on the whole array; only the "
        "classifier is refitted inside the hand-written CV loop.",
        code=dedent("""\
            import numpy as np
            from sklearn.datasets import load_breast_cancer
            from sklearn.decomposition import PCA
            from sklearn.impute import SimpleImputer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold
            from sklearn.preprocessing import StandardScaler

            X, y = load_breast_cancer(return_X_y=True)
            rng = np.random.default_rng(5)
            X = X.copy()
            X[rng.random(X.shape) < 0.15] = np.nan   # assays not run for some patients
            print(f"{np.isnan(X).mean():.1%} of assay values missing (median-imputed)")

            X_filled = SimpleImputer(strategy="median").fit_transform(X)
            X_std = StandardScaler().fit_transform(X_filled)
            X_pc = PCA(n_components=8, random_state=0).fit_transform(X_std)

            accs = []
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            for tr, te in folds.split(X_pc, y):
                clf = LogisticRegression(max_iter=2000).fit(X_pc[tr], y[tr])
                accs.append((clf.predict(X_pc[te]) == y[te]).mean())
            print("fold accuracies:", np.round(accs, 3))
            print(f"mean CV accuracy = {np.mean(accs):.3f}")
        """),
    ),
    Case(
        id="leakage-imputer-pca-manual-folds-sound",
        family=None,
        twin="leakage-imputer-pca-manual-folds",
        split="holdout",
        note="Imputer, scaler and PCA are refitted on each training fold (a pipeline fitted "
        "inside the loop).",
        code=dedent("""\
            import numpy as np
            from sklearn.datasets import load_breast_cancer
            from sklearn.decomposition import PCA
            from sklearn.impute import SimpleImputer
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X, y = load_breast_cancer(return_X_y=True)
            rng = np.random.default_rng(5)
            X = X.copy()
            X[rng.random(X.shape) < 0.15] = np.nan   # assays not run for some patients
            print(f"{np.isnan(X).mean():.1%} of assay values missing (median-imputed)")

            accs = []
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            for tr, te in folds.split(X, y):
                clf = make_pipeline(
                    SimpleImputer(strategy="median"),
                    StandardScaler(),
                    PCA(n_components=8, random_state=0),
                    LogisticRegression(max_iter=2000),
                ).fit(X[tr], y[tr])
                accs.append((clf.predict(X[te]) == y[te]).mean())
            print("fold accuracies:", np.round(accs, 3))
            print(f"mean CV accuracy = {np.mean(accs):.3f}")
        """),
    ),
    Case(
        id="leakage-oversample-before-split-attrition",
        family="leakage",
        twin="leakage-oversample-before-split-attrition-sound",
        split="holdout",
        note="Minority class upsampled with replacement before train_test_split, so copies "
        "of the same leavers land in both train and test.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import classification_report
            from sklearn.model_selection import train_test_split

            rng = np.random.default_rng(21)
            n = 1500
            staff = pd.DataFrame({
                "satisfaction": rng.uniform(0, 1, n),
                "overtime_hrs": rng.gamma(2, 5, n),
                "tenure_yrs": rng.exponential(4, n),
                "salary_band": rng.integers(1, 6, n),
            })
            z = (-0.8 - 2.0 * staff.satisfaction + 0.06 * staff.overtime_hrs
                 - 0.15 * staff.tenure_yrs - 0.2 * staff.salary_band)
            staff["left"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)

            # balance the classes before modelling
            leavers = staff[staff.left == 1]
            stayers = staff[staff.left == 0]
            balanced = pd.concat([
                stayers, leavers.sample(len(stayers), replace=True, random_state=0)
            ])

            X_train, X_test, y_train, y_test = train_test_split(
                balanced.drop(columns="left"), balanced.left, test_size=0.25, random_state=0
            )
            rf = RandomForestClassifier(n_estimators=200, random_state=0).fit(X_train, y_train)
            print(classification_report(y_test, rf.predict(X_test), digits=3))
        """),
    ),
    Case(
        id="leakage-oversample-before-split-attrition-sound",
        family=None,
        twin="leakage-oversample-before-split-attrition",
        split="holdout",
        note="Split first (stratified); only the training leavers are upsampled and the test "
        "set keeps its natural class balance.",
        code=dedent("""\
            import numpy as np
            import pandas as pd
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import classification_report
            from sklearn.model_selection import train_test_split

            rng = np.random.default_rng(21)
            n = 1500
            staff = pd.DataFrame({
                "satisfaction": rng.uniform(0, 1, n),
                "overtime_hrs": rng.gamma(2, 5, n),
                "tenure_yrs": rng.exponential(4, n),
                "salary_band": rng.integers(1, 6, n),
            })
            z = (-0.8 - 2.0 * staff.satisfaction + 0.06 * staff.overtime_hrs
                 - 0.15 * staff.tenure_yrs - 0.2 * staff.salary_band)
            staff["left"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)

            train, test = train_test_split(
                staff, test_size=0.25, random_state=0, stratify=staff.left
            )
            # balance the classes in the training data only
            leavers = train[train.left == 1]
            stayers = train[train.left == 0]
            train_bal = pd.concat([
                stayers, leavers.sample(len(stayers), replace=True, random_state=0)
            ])

            rf = RandomForestClassifier(n_estimators=200, random_state=0)
            rf.fit(train_bal.drop(columns="left"), train_bal.left)
            print(classification_report(test.left, rf.predict(test.drop(columns="left")), digits=3))
        """),
    ),
]
