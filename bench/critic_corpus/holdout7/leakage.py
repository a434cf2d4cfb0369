"""Leakage, holdout7 idioms: marker words for a two-author attribution problem picked by a
pandas groupby effect-size screen over every pamphlet before the CV folds are drawn, and wafer
chamber sensors screened with a dict comprehension of scipy Pearson p-values over all wafers
before a train_test_split."""

from textwrap import dedent

from bench.critic_corpus import Case

_PAMPHLETS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7101)
n_texts, n_words = 120, 300
named = ["upon", "whilst", "amongst", "though", "hence", "thereby", "albeit", "unto"]
words = named + [f"fw_{i:03d}" for i in range(len(named), n_words)]
# rate per 1,000 tokens of each function word in 120 pamphlets of known authorship
rates = pd.DataFrame(rng.gamma(4.0, 2.0, (n_texts, n_words)), columns=words)
author = np.where(np.arange(n_texts) % 2 == 0, "Hale", "Ormsby")
# the two pamphleteers differ only mildly, in three words
rates.loc[author == "Hale", ["upon", "whilst", "fw_117"]] *= 1.2
"""

_WAFERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7102)
n_wafers, n_sensors = 160, 500
stats_ = ["mean", "max", "std", "slope"]
cols = [f"ch{k % 4 + 1}_s{k // 4:03d}_{stats_[k % 4]}" for k in range(n_sensors)]
# per-wafer summaries of chamber sensor traces (RF power, pressure, gas flows, ...)
sensors = pd.DataFrame(rng.normal(0, 1, (n_wafers, n_sensors)), columns=cols)
yield_pct = (91.0 + 1.1 * sensors.iloc[:, 0] - 0.9 * sensors.iloc[:, 5]
             + rng.normal(0, 2.5, n_wafers))
"""

CASES: list[Case] = [
    Case(
        id="leakage-h7-marker-words-screened-on-all-pamphlets",
        family="leakage",
        twin="leakage-h7-marker-words-screened-on-all-pamphlets-sound",
        split="holdout7",
        setup=_PAMPHLETS,
        note="The 15 marker words are chosen by their Hale/Ormsby effect size over all 120 texts, "
        "held-out folds included, so the CV accuracy rewards noise words that fit those texts.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler


            def marker_words(X, labels, k=15):
                means = X.groupby(labels).mean()
                pooled_sd = X.groupby(labels).std().mean()
                effect = (means.loc["Hale"] - means.loc["Ormsby"]) / pooled_sd
                return effect.abs().nlargest(k).index.tolist()


            markers = marker_words(rates, author)
            print("marker words:", ", ".join(markers[:6]), "...")
            clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
            acc = cross_val_score(clf, rates[markers], author, cv=cv)
            print(f"attribution accuracy, 15 marker words: {acc.mean():.2f} +/- {acc.std():.2f}")
        """),
    ),
    Case(
        id="leakage-h7-marker-words-screened-on-all-pamphlets-sound",
        family=None,
        twin="leakage-h7-marker-words-screened-on-all-pamphlets",
        split="holdout7",
        setup=_PAMPHLETS,
        note="The marker-word screen is rerun inside each fold on the training pamphlets only, "
        "so the held-out texts never influence which words are used.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler


            def marker_words(X, labels, k=15):
                means = X.groupby(labels).mean()
                pooled_sd = X.groupby(labels).std().mean()
                effect = (means.loc["Hale"] - means.loc["Ormsby"]) / pooled_sd
                return effect.abs().nlargest(k).index.tolist()


            clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=7)
            acc = []
            for train, test in cv.split(rates, author):
                markers = marker_words(rates.iloc[train], author[train])
                clf.fit(rates.iloc[train][markers], author[train])
                acc.append(clf.score(rates.iloc[test][markers], author[test]))
            acc = np.array(acc)
            print(f"attribution accuracy, 15 marker words chosen per fold: "
                  f"{acc.mean():.2f} +/- {acc.std():.2f}")
        """),
    ),
    Case(
        id="leakage-h7-wafer-sensor-pearson-screen-before-split",
        family="leakage",
        twin="leakage-h7-wafer-sensor-pearson-screen-before-split-sound",
        split="holdout7",
        setup=_WAFERS,
        note="Sensors are kept when their Pearson p < 0.01 against yield over all 160 wafers, "
        "before the split, so noise sensors correlated with the test wafers' yield inflate R^2.",
        code=dedent("""\
            from scipy import stats
            from sklearn.linear_model import LinearRegression
            from sklearn.metrics import r2_score
            from sklearn.model_selection import train_test_split

            pvals = {c: stats.pearsonr(sensors[c], yield_pct)[1] for c in sensors.columns}
            keep = [c for c, p in pvals.items() if p < 0.01]
            X_tr, X_te, y_tr, y_te = train_test_split(sensors[keep], yield_pct,
                                                      test_size=0.3, random_state=3)
            model = LinearRegression().fit(X_tr, y_tr)
            print(f"{len(keep)} of {sensors.shape[1]} sensor features kept")
            print(f"yield model, hold-out R^2 = {r2_score(y_te, model.predict(X_te)):.3f}")
        """),
    ),
    Case(
        id="leakage-h7-wafer-sensor-pearson-screen-before-split-sound",
        family=None,
        twin="leakage-h7-wafer-sensor-pearson-screen-before-split",
        split="holdout7",
        setup=_WAFERS,
        note="The wafers are split first and the Pearson screen uses the training wafers only; "
        "the held-out wafers are touched once, for the reported R^2.",
        code=dedent("""\
            from scipy import stats
            from sklearn.linear_model import LinearRegression
            from sklearn.metrics import r2_score
            from sklearn.model_selection import train_test_split

            X_tr, X_te, y_tr, y_te = train_test_split(sensors, yield_pct,
                                                      test_size=0.3, random_state=3)
            pvals = {c: stats.pearsonr(X_tr[c], y_tr)[1] for c in X_tr.columns}
            keep = [c for c, p in pvals.items() if p < 0.01]
            model = LinearRegression().fit(X_tr[keep], y_tr)
            print(f"{len(keep)} of {sensors.shape[1]} sensor features kept (training wafers)")
            print(f"yield model, hold-out R^2 = {r2_score(y_te, model.predict(X_te[keep])):.3f}")
        """),
    ),
]
