"""Target leakage, holdout10: implant consultations logged during follow-up used to predict
five-year tooth loss (dentistry, statsmodels logit), and days-in-locker used to predict parcels
returned to sender (parcel lockers, sklearn pipeline with cross_val_score)."""

from textwrap import dedent

from bench.critic_corpus import Case

_DENTAL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_011)
n = 900
teeth = pd.DataFrame({
    "patient_age": rng.integers(25, 80, n),
    "smoker": rng.random(n) < 0.22,
    "diabetic": rng.random(n) < 0.12,
    "pocket_depth_mm": np.clip(rng.gamma(4, 0.9, n), 1, 12).round(1),
    "plaque_index": rng.uniform(0, 3, n).round(2),
    "molar": rng.random(n) < 0.4,
})
lin = (-5.2 + 0.45 * teeth["pocket_depth_mm"] + 0.7 * teeth["smoker"] + 0.5 * teeth["diabetic"]
       + 0.02 * (teeth["patient_age"] - 50) + 0.3 * teeth["plaque_index"])
teeth["lost_5y"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
teeth["implant_consults"] = rng.poisson(0.15, n) + teeth["lost_5y"] * rng.poisson(1.3, n)
"""

_LOCKERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_012)
n = 2500
parcels = pd.DataFrame({
    "locker_size": rng.choice(["S", "M", "L"], n, p=[0.5, 0.35, 0.15]),
    "notify_channel": rng.choice(["app", "sms", "email"], n, p=[0.55, 0.3, 0.15]),
    "distance_km": rng.gamma(2.0, 1.1, n).round(2),
    "prior_parcels": rng.poisson(3, n),
    "cod": rng.random(n) < 0.08,
})
lin = (-2.4 + 0.35 * parcels["distance_km"] - 0.25 * parcels["prior_parcels"]
       + 1.1 * parcels["cod"]
       + parcels["notify_channel"].map({"app": -0.4, "sms": 0.0, "email": 0.6}))
parcels["returned"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
parcels["days_in_locker"] = np.where(parcels["returned"] == 1, rng.choice([7, 7, 8], n),
                                     np.clip(rng.exponential(2.2, n).round(), 0, 7)).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="target_leakage-h10-dental-implant-consults",
        family="target_leakage",
        twin="target_leakage-h10-dental-implant-consults-sound",
        split="holdout10",
        setup=_DENTAL,
        note="implant_consults counts consultations recorded during the five-year follow-up, "
        "which mostly happen because the tooth was lost; it is a consequence of the outcome.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from sklearn.metrics import roc_auc_score

            teeth["smoker"] = teeth["smoker"].astype(int)
            teeth["diabetic"] = teeth["diabetic"].astype(int)
            teeth["molar"] = teeth["molar"].astype(int)
            train = teeth.sample(frac=0.7, random_state=4)
            test = teeth.drop(train.index)

            formula = ("lost_5y ~ pocket_depth_mm + plaque_index + smoker + diabetic"
                       " + patient_age + molar + implant_consults")
            fit = smf.logit(formula, data=train).fit(disp=0)
            print(fit.params.round(3).to_string())
            auc = roc_auc_score(test["lost_5y"], fit.predict(test))
            print(f"\\ntooth-loss model, held-out AUC = {auc:.3f} (n_test = {len(test)})")
        """),
    ),
    Case(
        id="target_leakage-h10-dental-implant-consults-sound",
        family=None,
        twin="target_leakage-h10-dental-implant-consults",
        split="holdout10",
        setup=_DENTAL,
        note="Only baseline periodontal and patient characteristics measured at the index exam "
        "are used to predict five-year tooth loss.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from sklearn.metrics import roc_auc_score

            teeth["smoker"] = teeth["smoker"].astype(int)
            teeth["diabetic"] = teeth["diabetic"].astype(int)
            teeth["molar"] = teeth["molar"].astype(int)
            train = teeth.sample(frac=0.7, random_state=4)
            test = teeth.drop(train.index)

            formula = ("lost_5y ~ pocket_depth_mm + plaque_index + smoker + diabetic"
                       " + patient_age + molar")
            fit = smf.logit(formula, data=train).fit(disp=0)
            print(fit.params.round(3).to_string())
            auc = roc_auc_score(test["lost_5y"], fit.predict(test))
            print(f"\\ntooth-loss model, held-out AUC = {auc:.3f} (n_test = {len(test)})")
        """),
    ),
    Case(
        id="target_leakage-h10-locker-days-in-locker",
        family="target_leakage",
        twin="target_leakage-h10-locker-days-in-locker-sound",
        split="holdout10",
        setup=_LOCKERS,
        note="days_in_locker is only known once the parcel is collected or sent back, and "
        "returned parcels sit the full 7-8 day window by definition: it encodes the label.",
        code=dedent("""\
            from sklearn.compose import make_column_transformer
            from sklearn.ensemble import GradientBoostingClassifier
            from sklearn.model_selection import cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import OneHotEncoder

            cat = ["locker_size", "notify_channel"]
            num = ["distance_km", "prior_parcels", "cod", "days_in_locker"]
            prep = make_column_transformer(
                (OneHotEncoder(handle_unknown="ignore"), cat), ("passthrough", num),
            )
            pipe = make_pipeline(prep, GradientBoostingClassifier(n_estimators=150, max_depth=2,
                                                                  random_state=0))
            X, y = parcels[cat + num], parcels["returned"]
            ap = cross_val_score(pipe, X, y, cv=5, scoring="average_precision")
            print(f"return-to-sender rate: {y.mean():.1%}")
            print("average precision by fold:", np.round(ap, 3), f"mean {ap.mean():.3f}")
        """),
    ),
    Case(
        id="target_leakage-h10-locker-days-in-locker-sound",
        family=None,
        twin="target_leakage-h10-locker-days-in-locker",
        split="holdout10",
        setup=_LOCKERS,
        note="Features are those known when the courier drops the parcel into the locker "
        "(size, channel, distance, history, cash on delivery).",
        code=dedent("""\
            from sklearn.compose import make_column_transformer
            from sklearn.ensemble import GradientBoostingClassifier
            from sklearn.model_selection import cross_val_score
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import OneHotEncoder

            cat = ["locker_size", "notify_channel"]
            num = ["distance_km", "prior_parcels", "cod"]
            prep = make_column_transformer(
                (OneHotEncoder(handle_unknown="ignore"), cat), ("passthrough", num),
            )
            pipe = make_pipeline(prep, GradientBoostingClassifier(n_estimators=150, max_depth=2,
                                                                  random_state=0))
            X, y = parcels[cat + num], parcels["returned"]
            ap = cross_val_score(pipe, X, y, cv=5, scoring="average_precision")
            print(f"return-to-sender rate: {y.mean():.1%}")
            print("average precision by fold:", np.round(ap, 3), f"mean {ap.mean():.3f}")
        """),
    ),
]
