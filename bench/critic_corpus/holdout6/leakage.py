"""Leakage, holdout6 idioms: numpy-only species-centroid distance features for bird-song
spectra, built from every recording (each held-out recording pulled its own centroid towards
itself) before cross-validation, and a fitted sklearn pipeline sliced with `pipe[:-1]` so that
its SelectPercentile screen, fitted on every store-week, feeds a cross-validated final step."""

from textwrap import dedent

from bench.critic_corpus import Case

_SONGS = """\
import numpy as np

rng = np.random.default_rng(6101)
species_names = np.array(["chiffchaff", "willow_warbler", "blackcap"])
n_per, n_bins = 30, 256
species = np.repeat(species_names, n_per)
# log-power spectra: mostly site noise; each species sings slightly louder in 8 bins
spectra = rng.normal(0, 1, (len(species), n_bins))
for k, s in enumerate(species_names):
    spectra[species == s, 20 + 40 * k: 28 + 40 * k] += 0.25
"""

_SKU = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6102)
n_weeks, n_candidates = 150, 400
# candidate demand drivers: competitor shelf prices, local weather, footfall indices, ...
X = pd.DataFrame(rng.normal(0, 1, (n_weeks, n_candidates)),
                 columns=[f"drv_{i:03d}" for i in range(n_candidates)])
X = X.rename(columns={"drv_000": "own_price_idx", "drv_001": "promo_depth",
                      "drv_002": "holiday_wk"})
log_units = (5.0 - 0.45 * X.own_price_idx + 0.35 * X.promo_depth + 0.2 * X.holiday_wk
             + rng.normal(0, 0.7, n_weeks))
"""

CASES: list[Case] = [
    Case(
        id="leakage-species-centroid-distances-birdsong",
        family="leakage",
        twin="leakage-species-centroid-distances-birdsong-sound",
        split="holdout6",
        setup=_SONGS,
        note="Species mean spectra are computed from all 90 recordings, so every held-out "
        "recording is part of its own species' centroid: CV accuracy far above what the weak "
        "song differences support.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold, cross_val_score


            def centroid_distances(X, centroids):
                # distance of each recording to each species' mean spectrum
                return np.column_stack([np.linalg.norm(X - c, axis=1) for c in centroids])


            centroids = [spectra[species == s].mean(axis=0) for s in species_names]
            features = centroid_distances(spectra, centroids)
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=61)
            acc = cross_val_score(LogisticRegression(max_iter=1000), features, species, cv=folds)
            print(f"song classifier, 5-fold accuracy = {acc.mean():.3f} +/- {acc.std():.3f} "
                  f"(chance = {1 / len(species_names):.3f})")
        """),
    ),
    Case(
        id="leakage-species-centroid-distances-birdsong-sound",
        family=None,
        twin="leakage-species-centroid-distances-birdsong",
        split="holdout6",
        setup=_SONGS,
        note="The species centroids are recomputed from the training recordings of each fold "
        "and only then used to describe the held-out recordings.",
        code=dedent("""\
            from sklearn.linear_model import LogisticRegression
            from sklearn.model_selection import StratifiedKFold


            def centroid_distances(X, centroids):
                # distance of each recording to each species' mean spectrum
                return np.column_stack([np.linalg.norm(X - c, axis=1) for c in centroids])


            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=61)
            acc = []
            for tr, te in folds.split(spectra, species):
                centroids = [spectra[tr][species[tr] == s].mean(axis=0) for s in species_names]
                clf = LogisticRegression(max_iter=1000)
                clf.fit(centroid_distances(spectra[tr], centroids), species[tr])
                acc.append(clf.score(centroid_distances(spectra[te], centroids), species[te]))
            acc = np.array(acc)
            print(f"song classifier, 5-fold accuracy = {acc.mean():.3f} +/- {acc.std():.3f} "
                  f"(chance = {1 / len(species_names):.3f})")
        """),
    ),
    Case(
        id="leakage-sliced-pipeline-selectpercentile-sku",
        family="leakage",
        twin="leakage-sliced-pipeline-selectpercentile-sku-sound",
        split="holdout6",
        setup=_SKU,
        note="The pipeline is fitted on all 150 weeks and only its last step is cross-validated "
        "on pipe[:-1].transform(X): the f_regression screen already saw every test fold's demand.",
        code=dedent("""\
            from sklearn.feature_selection import SelectPercentile, f_regression
            from sklearn.linear_model import Ridge
            from sklearn.model_selection import KFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            pipe = make_pipeline(StandardScaler(), SelectPercentile(f_regression, percentile=5),
                                 Ridge(alpha=1.0))
            pipe.fit(X, log_units)
            kept = X.columns[pipe[1].get_support()]
            print(f"{len(kept)} drivers kept, e.g. {list(kept[:6])}")

            folds = KFold(n_splits=5, shuffle=True, random_state=8)
            r2 = cross_val_score(pipe[-1], pipe[:-1].transform(X), log_units, cv=folds,
                                 scoring="r2")
            print(f"weekly demand model: cross-validated R^2 = {r2.mean():.3f}")
        """),
    ),
    Case(
        id="leakage-sliced-pipeline-selectpercentile-sku-sound",
        family=None,
        twin="leakage-sliced-pipeline-selectpercentile-sku",
        split="holdout6",
        setup=_SKU,
        note="The whole pipeline, driver screen included, is cross-validated, so the screen is "
        "refitted on the training weeks of each fold; the full fit is only used to list drivers.",
        code=dedent("""\
            from sklearn.feature_selection import SelectPercentile, f_regression
            from sklearn.linear_model import Ridge
            from sklearn.model_selection import KFold, cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            pipe = make_pipeline(StandardScaler(), SelectPercentile(f_regression, percentile=5),
                                 Ridge(alpha=1.0))
            pipe.fit(X, log_units)
            kept = X.columns[pipe[1].get_support()]
            print(f"{len(kept)} drivers kept, e.g. {list(kept[:6])}")

            folds = KFold(n_splits=5, shuffle=True, random_state=8)
            r2 = cross_val_score(pipe, X, log_units, cv=folds, scoring="r2")
            print(f"weekly demand model: cross-validated R^2 = {r2.mean():.3f}")
        """),
    ),
]
