"""Leakage, holdout10: minority-class upsampling of scrapped wafers before stratified CV
(semiconductor fab), and playlist-level target encoding computed before the train/test split
(music-streaming churn)."""

from textwrap import dedent

from bench.critic_corpus import Case

_WAFERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_001)
n = 420
param_cols = ["etch_rate", "cd_bias", "overlay_x", "overlay_y", "film_thk", "rs_uniformity",
              "chuck_temp", "rf_power", "gas_flow", "pressure", "cmp_time", "particle_cnt"]
wafers = pd.DataFrame(rng.normal(size=(n, len(param_cols))), columns=param_cols)
wafers.insert(0, "wafer_id", [f"LOT{i // 25:03d}-W{i % 25:02d}" for i in range(n)])
logit = -2.8 + 0.7 * wafers["overlay_x"] + 0.6 * wafers["particle_cnt"] - 0.4 * wafers["film_thk"]
wafers["scrapped"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
"""

_STREAMING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_002)
n = 3000
subs = pd.DataFrame({
    "user_id": np.arange(100_000, 100_000 + n),
    "plan": rng.choice(["free", "student", "individual", "family"], n, p=[.45, .15, .3, .1]),
    "minutes_week": rng.gamma(2.0, 180, n).round(),
    "skips_per_session": rng.poisson(4, n),
    "top_playlist": rng.choice([f"pl_{i:04d}" for i in range(700)], n),
})
lin = (-0.6 - 0.004 * (subs["minutes_week"] - 360) + 0.12 * (subs["skips_per_session"] - 4)
       + subs["plan"].map({"free": 0.5, "student": 0.1, "individual": -0.3, "family": -0.6}))
subs["churned"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="leakage-h10-wafer-upsample-before-cv",
        family="leakage",
        twin="leakage-h10-wafer-upsample-before-cv-sound",
        split="holdout10",
        setup=_WAFERS,
        note="Scrapped wafers are duplicated with replacement before StratifiedKFold, so copies of "
        "the same wafer sit in training and test folds and the forest's F1 is inflated.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.utils import resample

            print(wafers["scrapped"].value_counts().rename("wafers"))

            scrap = wafers[wafers["scrapped"] == 1]
            keep = wafers[wafers["scrapped"] == 0]
            scrap_up = resample(scrap, replace=True, n_samples=len(keep), random_state=3)
            balanced = pd.concat([keep, scrap_up], ignore_index=True)

            rf = RandomForestClassifier(n_estimators=120, min_samples_leaf=1, random_state=3)
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
            f1 = cross_val_score(rf, balanced[param_cols], balanced["scrapped"],
                                 cv=folds, scoring="f1")
            print(f"scrap-prediction F1 (5-fold): {f1.mean():.3f} +/- {f1.std():.3f}")
        """),
    ),
    Case(
        id="leakage-h10-wafer-upsample-before-cv-sound",
        family=None,
        twin="leakage-h10-wafer-upsample-before-cv",
        split="holdout10",
        setup=_WAFERS,
        note="Upsampling of scrapped wafers happens inside each training fold only; every test "
        "fold keeps its original, un-duplicated wafers.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.metrics import f1_score
            from sklearn.model_selection import StratifiedKFold
            from sklearn.utils import resample

            print(wafers["scrapped"].value_counts().rename("wafers"))

            rf = RandomForestClassifier(n_estimators=120, min_samples_leaf=1, random_state=3)
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=3)
            scores = []
            for tr_idx, te_idx in folds.split(wafers, wafers["scrapped"]):
                tr, te = wafers.iloc[tr_idx], wafers.iloc[te_idx]
                scrap, keep = tr[tr["scrapped"] == 1], tr[tr["scrapped"] == 0]
                scrap_up = resample(scrap, replace=True, n_samples=len(keep), random_state=3)
                fold_train = pd.concat([keep, scrap_up], ignore_index=True)
                rf.fit(fold_train[param_cols], fold_train["scrapped"])
                scores.append(f1_score(te["scrapped"], rf.predict(te[param_cols])))
            f1 = np.array(scores)
            print(f"scrap-prediction F1 (5-fold): {f1.mean():.3f} +/- {f1.std():.3f}")
        """),
    ),
    Case(
        id="leakage-h10-streaming-playlist-encoding",
        family="leakage",
        twin="leakage-h10-streaming-playlist-encoding-sound",
        split="holdout10",
        setup=_STREAMING,
        note="The per-playlist churn rate is computed on all subscribers (test rows included, "
        "about 4 users per playlist) before the split, so each test user's own label feeds "
        "their feature and the AUC is inflated.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            playlist_rate = subs.groupby("top_playlist")["churned"].mean()
            subs["playlist_churn"] = subs["top_playlist"].map(playlist_rate)

            feats = pd.get_dummies(
                subs[["minutes_week", "skips_per_session", "playlist_churn", "plan"]],
                columns=["plan"], drop_first=True, dtype=float,
            )
            X_tr, X_te, y_tr, y_te = train_test_split(
                feats, subs["churned"], test_size=0.25, stratify=subs["churned"], random_state=11
            )
            clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
            print(f"churn rate {subs['churned'].mean():.1%}; hold-out AUC {auc:.3f}")
            pd.Series(clf[-1].coef_[0], index=feats.columns).round(3)
        """),
    ),
    Case(
        id="leakage-h10-streaming-playlist-encoding-sound",
        family=None,
        twin="leakage-h10-streaming-playlist-encoding",
        split="holdout10",
        setup=_STREAMING,
        note="The playlist churn rate is estimated (with smoothing) from training subscribers "
        "only and mapped onto the test set, unseen playlists falling back to the training mean.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            train, test = train_test_split(
                subs, test_size=0.25, stratify=subs["churned"], random_state=11
            )
            prior = train["churned"].mean()
            grp = train.groupby("top_playlist")["churned"].agg(["sum", "count"])
            playlist_rate = (grp["sum"] + 10 * prior) / (grp["count"] + 10)

            def design(frame):
                out = frame[["minutes_week", "skips_per_session", "plan"]].copy()
                out["playlist_churn"] = frame["top_playlist"].map(playlist_rate).fillna(prior)
                return pd.get_dummies(out, columns=["plan"], drop_first=True, dtype=float)

            X_tr, X_te = design(train), design(test)
            clf = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_tr, train["churned"])
            auc = roc_auc_score(test["churned"], clf.predict_proba(X_te)[:, 1])
            print(f"churn rate {subs['churned'].mean():.1%}; hold-out AUC {auc:.3f}")
            pd.Series(clf[-1].coef_[0], index=X_tr.columns).round(3)
        """),
    ),
]
