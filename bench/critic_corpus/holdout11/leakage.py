"""Leakage, holdout11: mushroom toxicity marker selection and dialysis session preprocessing."""

from textwrap import dedent

from bench.critic_corpus import Case

_MUSHROOMS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_001)
n_spec, n_markers = 140, 600
markers = rng.normal(size=(n_spec, n_markers))
score = 0.9 * markers[:, 0] - 0.7 * markers[:, 1] + 0.5 * markers[:, 2]
toxic = (score + rng.normal(0, 1.6, n_spec) > 0.3).astype(int)
specimens = pd.DataFrame(markers, columns=[f"mz_{i:03d}" for i in range(n_markers)])
specimens["toxic"] = toxic
"""

_DIALYSIS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_002)
n = 520
sessions = pd.DataFrame({
    "dry_weight_kg": rng.normal(74, 14, n).round(1),
    "pre_sbp": rng.normal(148, 22, n).round(),
    "blood_flow_ml_min": rng.normal(330, 45, n).round(),
    "dialysate_na": rng.normal(138, 2.2, n).round(1),
    "albumin_g_dl": rng.normal(3.7, 0.45, n).round(2),
    "session_hours": rng.choice([3.5, 4.0, 4.5], n, p=[.3, .55, .15]),
})
sessions["kt_v"] = (0.35 + 0.0021 * sessions["blood_flow_ml_min"] + 0.18 * sessions["session_hours"]
                    - 0.006 * sessions["dry_weight_kg"] + 0.12 * sessions["albumin_g_dl"]
                    + rng.normal(0, 0.13, n)).round(3)
for col, frac in [("pre_sbp", .08), ("albumin_g_dl", .15), ("blood_flow_ml_min", .05)]:
    sessions.loc[rng.random(n) < frac, col] = np.nan
"""

CASES: list[Case] = [
    Case(
        id="leakage-h11-mushroom-kbest-before-cv",
        family="leakage",
        twin="leakage-h11-mushroom-kbest-in-pipeline",
        split="holdout11",
        setup=_MUSHROOMS,
        note="SelectKBest picks the 20 markers most associated with toxicity using every "
        "specimen, then cross-validates on those markers; the held-out folds helped choose them.",
        code=dedent("""\
            from sklearn.feature_selection import SelectKBest, f_classif
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score

            X = specimens.drop(columns="toxic").to_numpy()
            y = specimens["toxic"].to_numpy()

            picker = SelectKBest(f_classif, k=20).fit(X, y)
            X_top = picker.transform(X)
            kept = specimens.columns[:-1][picker.get_support()]
            print("markers kept:", ", ".join(kept[:8]), "...")

            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            auc = cross_val_score(LogisticRegression(max_iter=2000), X_top, y, cv=cv,
                                  scoring="roc_auc")
            print(f"toxicity classifier AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
        """),
    ),
    Case(
        id="leakage-h11-mushroom-kbest-in-pipeline",
        family=None,
        twin="leakage-h11-mushroom-kbest-before-cv",
        split="holdout11",
        setup=_MUSHROOMS,
        note="Marker selection sits inside the pipeline, so each fold picks its 20 markers from "
        "its own training specimens only.",
        code=dedent("""\
            from sklearn.feature_selection import SelectKBest, f_classif
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import make_pipeline

            X = specimens.drop(columns="toxic").to_numpy()
            y = specimens["toxic"].to_numpy()

            model = make_pipeline(SelectKBest(f_classif, k=20), LogisticRegression(max_iter=2000))
            picker = SelectKBest(f_classif, k=20).fit(X, y)
            kept = specimens.columns[:-1][picker.get_support()]
            print("markers kept:", ", ".join(kept[:8]), "...")

            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
            print(f"toxicity classifier AUC: {auc.mean():.3f} +/- {auc.std():.3f}")
        """),
    ),
    Case(
        id="leakage-h11-dialysis-impute-scale-then-split",
        family="leakage",
        twin="leakage-h11-dialysis-split-then-impute-scale",
        split="holdout11",
        setup=_DIALYSIS,
        note="Median imputation and z-scoring use medians/means/SDs of all sessions, including the "
        "test sessions, before train_test_split; test statistics leak into training features.",
        code=dedent("""\
            from sklearn.linear_model import Ridge
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import train_test_split

            feats = ["dry_weight_kg", "pre_sbp", "blood_flow_ml_min", "dialysate_na",
                     "albumin_g_dl", "session_hours"]
            X = sessions[feats].fillna(sessions[feats].median())
            X = (X - X.mean()) / X.std()
            y = sessions["kt_v"]

            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=7)
            reg = Ridge(alpha=1.0).fit(X_tr, y_tr)
            pred = reg.predict(X_te)

            coefs = pd.Series(reg.coef_, index=feats).round(3)
            print(coefs.sort_values())
            print(f"Kt/V test MAE {mean_absolute_error(y_te, pred):.4f}, "
                  f"R2 {r2_score(y_te, pred):.4f}")
        """),
    ),
    Case(
        id="leakage-h11-dialysis-split-then-impute-scale",
        family=None,
        twin="leakage-h11-dialysis-impute-scale-then-split",
        split="holdout11",
        setup=_DIALYSIS,
        note="The split comes first; medians, means and SDs are computed on the training sessions "
        "and applied unchanged to the test sessions.",
        code=dedent("""\
            from sklearn.linear_model import Ridge
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import train_test_split

            feats = ["dry_weight_kg", "pre_sbp", "blood_flow_ml_min", "dialysate_na",
                     "albumin_g_dl", "session_hours"]
            X_tr, X_te, y_tr, y_te = train_test_split(sessions[feats], sessions["kt_v"],
                                                      test_size=0.25, random_state=7)
            med = X_tr.median()
            X_tr, X_te = X_tr.fillna(med), X_te.fillna(med)
            mu, sd = X_tr.mean(), X_tr.std()
            X_tr, X_te = (X_tr - mu) / sd, (X_te - mu) / sd

            reg = Ridge(alpha=1.0).fit(X_tr, y_tr)
            pred = reg.predict(X_te)

            coefs = pd.Series(reg.coef_, index=feats).round(3)
            print(coefs.sort_values())
            print(f"Kt/V test MAE {mean_absolute_error(y_te, pred):.4f}, "
                  f"R2 {r2_score(y_te, pred):.4f}")
        """),
    ),
]
