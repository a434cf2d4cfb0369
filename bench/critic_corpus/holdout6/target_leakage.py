"""Target leakage, holdout6 idioms: an 'all columns but the ids' comprehension feeding a
RandomForestClassifier that happily takes NaNs, so the day a dose was held for liver
toxicity (missing for everyone never held) encodes the toxicity label, and a ColumnTransformer
built from make_column_selector that sweeps the count of price cuts (made because a home did not
sell) into a 'stale listing' model."""

from textwrap import dedent

from bench.critic_corpus import Case

_TRIAL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6201)
n = 1200
trial = pd.DataFrame({
    "patient_id": np.arange(1, n + 1),
    "age": rng.integers(24, 80, n),
    "weight_kg": rng.normal(76, 14, n).round(1),
    "dose_mg_kg": rng.choice([2.0, 4.0, 6.0], n),
    "alt_baseline_u_l": rng.lognormal(3.2, 0.35, n).round(0),
    "bilirubin_umol_l": rng.lognormal(2.3, 0.3, n).round(1),
    "cyp2c9_poor": (rng.random(n) < 0.08).astype(int),
    "statin": rng.integers(0, 2, n),
})
z = (-3.6 + 0.5 * trial.dose_mg_kg + 1.4 * trial.cyp2c9_poor
     + 1.6 * (np.log(trial.alt_baseline_u_l) - 3.2) + 0.02 * (trial.age - 50))
trial["hepatotox_g3"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
# the protocol holds the dose when ALT climbs: nearly every grade-3 case is held (on the day
# the lab came back); a few other patients are held for unrelated reasons
held = np.where(trial.hepatotox_g3 == 1, rng.random(n) < 0.92, rng.random(n) < 0.05)
trial["dose_held_day"] = np.where(held, rng.integers(8, 85, n), np.nan)
"""

_LISTINGS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6202)
n = 1800
homes = pd.DataFrame({
    "listing_id": [f"L{i:05d}" for i in range(n)],
    "property_type": rng.choice(["flat", "terrace", "semi", "detached"], n,
                                p=[0.4, 0.25, 0.2, 0.15]),
    "floor_area_m2": rng.gamma(9, 10, n).round(0),
    "bedrooms": rng.integers(1, 6, n),
    "build_year": rng.integers(1890, 2023, n),
    "photos": rng.integers(4, 40, n),
    "km_to_station": rng.gamma(2, 0.8, n).round(2),
})
# asking price relative to the area's comparables: overpriced homes sit on the market
homes["ask_vs_comps_pct"] = rng.normal(0, 8, n).round(1)
log_dom = (3.7 + 0.045 * homes.ask_vs_comps_pct - 0.012 * (homes.photos - 20)
           + 0.08 * homes.km_to_station + rng.normal(0, 0.55, n))
homes["days_on_market"] = np.exp(log_dom).round().astype(int)
homes["stale"] = (homes.days_on_market > 60).astype(int)
# agents cut the asking price roughly every three weeks while a home stays unsold
homes["n_price_cuts"] = rng.binomial(homes.days_on_market // 21, 0.8)
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-dose-held-day-forest-hepatotox",
        family="target_leakage",
        twin="target-leakage-dose-held-day-forest-hepatotox-sound",
        split="holdout6",
        setup=_TRIAL,
        note="dose_held_day is recorded after (and because of) the rise in ALT that defines "
        "hepatotox_g3; the NaN-aware forest reads 'never held' as 'no toxicity', inflating AUC.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.model_selection import StratifiedKFold, cross_val_score

            features = [c for c in trial.columns if c not in ("patient_id", "hepatotox_g3")]
            # the forest handles the missing values natively, no imputation needed
            forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, n_jobs=1,
                                            random_state=0)
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=62)
            auc = cross_val_score(forest, trial[features], trial.hepatotox_g3, cv=folds,
                                  scoring="roc_auc")
            print(f"features: {features}")
            print(f"grade-3 hepatotoxicity risk model: ROC AUC = {auc.mean():.3f} "
                  f"+/- {auc.std():.3f}")
        """),
    ),
    Case(
        id="target-leakage-dose-held-day-forest-hepatotox-sound",
        family=None,
        twin="target-leakage-dose-held-day-forest-hepatotox",
        split="holdout6",
        setup=_TRIAL,
        note="Only baseline characteristics and the assigned dose are features; the dose-hold "
        "day (a consequence of the toxicity) is excluded along with the ids.",
        code=dedent("""\
            from sklearn.ensemble import RandomForestClassifier
            from sklearn.model_selection import StratifiedKFold, cross_val_score

            on_treatment = {"dose_held_day"}   # recorded after dosing starts, because of ALT
            features = [c for c in trial.columns
                        if c not in ("patient_id", "hepatotox_g3") and c not in on_treatment]
            forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, n_jobs=1,
                                            random_state=0)
            folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=62)
            auc = cross_val_score(forest, trial[features], trial.hepatotox_g3, cv=folds,
                                  scoring="roc_auc")
            print(f"features: {features}")
            print(f"grade-3 hepatotoxicity risk model: ROC AUC = {auc.mean():.3f} "
                  f"+/- {auc.std():.3f}")
        """),
    ),
    Case(
        id="target-leakage-price-cuts-column-selector-stale",
        family="target_leakage",
        twin="target-leakage-price-cuts-column-selector-stale-sound",
        split="holdout6",
        setup=_LISTINGS,
        note="make_column_selector picks up n_price_cuts, which grows with the days a home "
        "stays unsold, so the model at listing time is scored with the outcome in its inputs.",
        code=dedent("""\
            from sklearn.compose import ColumnTransformer, make_column_selector
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            X = homes.drop(columns=["listing_id", "days_on_market", "stale"])
            y = homes.stale
            prep = ColumnTransformer([
                ("num", StandardScaler(), make_column_selector(dtype_include="number")),
                ("cat", OneHotEncoder(handle_unknown="ignore"),
                 make_column_selector(dtype_exclude="number")),
            ])
            model = Pipeline([("prep", prep), ("logit", LogisticRegression(max_iter=1000))])
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=5)
            model.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
            print(f"stale-listing model at listing time: test ROC AUC = {auc:.3f}, "
                  f"accuracy = {model.score(X_te, y_te):.3f}")
        """),
    ),
    Case(
        id="target-leakage-price-cuts-column-selector-stale-sound",
        family=None,
        twin="target-leakage-price-cuts-column-selector-stale",
        split="holdout6",
        setup=_LISTINGS,
        note="n_price_cuts (accumulated while the home fails to sell) is dropped with the days "
        "on market; only what is known when the listing goes live is selected.",
        code=dedent("""\
            from sklearn.compose import ColumnTransformer, make_column_selector
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import Pipeline
            from sklearn.preprocessing import OneHotEncoder, StandardScaler

            after_listing = ["days_on_market", "n_price_cuts"]   # only known later
            X = homes.drop(columns=["listing_id", "stale", *after_listing])
            y = homes.stale
            prep = ColumnTransformer([
                ("num", StandardScaler(), make_column_selector(dtype_include="number")),
                ("cat", OneHotEncoder(handle_unknown="ignore"),
                 make_column_selector(dtype_exclude="number")),
            ])
            model = Pipeline([("prep", prep), ("logit", LogisticRegression(max_iter=1000))])
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=5)
            model.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
            print(f"stale-listing model at listing time: test ROC AUC = {auc:.3f}, "
                  f"accuracy = {model.score(X_te, y_te):.3f}")
        """),
    ),
]
