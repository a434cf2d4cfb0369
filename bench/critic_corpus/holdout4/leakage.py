"""Leakage, holdout4 idioms: reposted rental listings (exact copies) scattered across a random
train/test split, and PLS scores computed from every serum spectrum (using the lactate values)
before cross-validating a regression on those scores."""

from textwrap import dedent

from bench.critic_corpus import Case

_RENTALS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(4141)
n_flats = 500
flats = pd.DataFrame({
    "listing_id": np.arange(n_flats),
    "area_m2": rng.normal(62, 18, n_flats).clip(18, 160).round(),
    "rooms": rng.integers(1, 5, n_flats),
    "floor": rng.integers(0, 9, n_flats),
    "km_to_centre": rng.gamma(2, 2.5, n_flats).round(1),
})
# most of a flat's rent is idiosyncratic (view, renovation, landlord) and not in the features
flats["rent_eur"] = (300 + 11 * flats.area_m2 - 35 * flats.km_to_centre
                     + rng.normal(0, 260, n_flats)).round(-1)
# landlords repost the same ad several times; the scraper keeps every copy
listings = flats.loc[flats.index.repeat(rng.integers(1, 6, n_flats))].reset_index(drop=True)
features = ["area_m2", "rooms", "floor", "km_to_centre"]
"""

_SPECTRA = """\
import numpy as np

rng = np.random.default_rng(5150)
n_sera, n_shifts = 70, 600
raman = rng.normal(0, 1, (n_sera, n_shifts))
# lactate shows up weakly in three bands; everything else is instrument noise
lactate = 1.8 + 0.25 * raman[:, [120, 121, 340]].sum(axis=1) + rng.normal(0, 0.6, n_sera)
"""

CASES: list[Case] = [
    Case(
        id="leakage-reposted-listings-random-split",
        family="leakage",
        twin="leakage-reposted-listings-random-split-sound",
        split="holdout4",
        setup=_RENTALS,
        note="Reposted ads are identical rows; a row-level random split puts copies of the same "
        "flat in train and test, so the forest is scored on flats it memorised.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import train_test_split

            train, test = train_test_split(listings, test_size=0.25, random_state=11)
            forest = RandomForestRegressor(n_estimators=150, random_state=0, n_jobs=1)
            forest.fit(train[features], train.rent_eur)
            pred = forest.predict(test[features])
            print(f"{len(listings)} ads, {len(test)} in the test set")
            print(f"test MAE = {mean_absolute_error(test.rent_eur, pred):.0f} EUR, "
                  f"R^2 = {r2_score(test.rent_eur, pred):.2f}")
        """),
    ),
    Case(
        id="leakage-reposted-listings-random-split-sound",
        family=None,
        twin="leakage-reposted-listings-random-split",
        split="holdout4",
        setup=_RENTALS,
        note="GroupShuffleSplit on listing_id keeps every copy of a flat on one side of the "
        "split, so the test flats are genuinely unseen.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.metrics import mean_absolute_error, r2_score
            from sklearn.model_selection import GroupShuffleSplit

            splitter = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=11)
            tr_idx, te_idx = next(splitter.split(listings, groups=listings.listing_id))
            train, test = listings.iloc[tr_idx], listings.iloc[te_idx]
            forest = RandomForestRegressor(n_estimators=150, random_state=0, n_jobs=1)
            forest.fit(train[features], train.rent_eur)
            pred = forest.predict(test[features])
            print(f"{len(listings)} ads, {len(test)} in the test set "
                  f"({test.listing_id.nunique()} unseen flats)")
            print(f"test MAE = {mean_absolute_error(test.rent_eur, pred):.0f} EUR, "
                  f"R^2 = {r2_score(test.rent_eur, pred):.2f}")
        """),
    ),
    Case(
        id="leakage-pls-scores-before-cv-serum",
        family="leakage",
        twin="leakage-pls-scores-before-cv-serum-sound",
        split="holdout4",
        setup=_SPECTRA,
        note="PLS latent scores are fitted against the lactate of all 70 sera, then a linear "
        "model on those scores is cross-validated: every fold's test sera shaped the scores.",
        code=dedent("""\
            from sklearn.cross_decomposition import PLSRegression
            from sklearn.linear_model import LinearRegression
            from sklearn.model_selection import KFold, cross_val_predict

            pls = PLSRegression(n_components=4).fit(raman, lactate)
            scores = pls.transform(raman)
            folds = KFold(n_splits=7, shuffle=True, random_state=2)
            pred = cross_val_predict(LinearRegression(), scores, lactate, cv=folds)
            rmsecv = np.sqrt(np.mean((pred - lactate) ** 2))
            q2 = 1 - np.sum((pred - lactate) ** 2) / np.sum((lactate - lactate.mean()) ** 2)
            print(f"RMSECV = {rmsecv:.2f} mmol/L, Q^2 = {q2:.2f}")
        """),
    ),
    Case(
        id="leakage-pls-scores-before-cv-serum-sound",
        family=None,
        twin="leakage-pls-scores-before-cv-serum",
        split="holdout4",
        setup=_SPECTRA,
        note="The PLS model itself is cross-validated, so its latent components are re-fitted "
        "on the training sera of every fold.",
        code=dedent("""\
            from sklearn.cross_decomposition import PLSRegression
            from sklearn.model_selection import KFold, cross_val_predict

            folds = KFold(n_splits=7, shuffle=True, random_state=2)
            pred = cross_val_predict(PLSRegression(n_components=4), raman, lactate,
                                     cv=folds).ravel()
            rmsecv = np.sqrt(np.mean((pred - lactate) ** 2))
            q2 = 1 - np.sum((pred - lactate) ** 2) / np.sum((lactate - lactate.mean()) ** 2)
            print(f"RMSECV = {rmsecv:.2f} mmol/L, Q^2 = {q2:.2f}")
        """),
    ),
]
