"""Target leakage, holdout7 idioms: an emergency-department admission model fed every column
of the visit extract except the id and the label (minutes to bed request, which exists only for
admitted patients, rides along as NaN for the rest and the imputer's missing-indicator passes
that on),
and a statsmodels formula logit of clinical mastitis with the lactation's intramammary antibiotic
tube count listed among the herd-record "risk factors"."""

from textwrap import dedent

from bench.critic_corpus import Case

_ED = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7201)
n = 1500
visits = pd.DataFrame({
    "visit_id": np.arange(100_000, 100_000 + n),
    "age": rng.integers(18, 95, n),
    "triage_level": rng.choice([1, 2, 3, 4, 5], n, p=[0.03, 0.17, 0.45, 0.3, 0.05]),
    "heart_rate": rng.normal(88, 16, n).round(),
    "lactate": rng.lognormal(0.3, 0.45, n).round(1),
    "prior_visits_12m": rng.poisson(0.8, n),
    "arrival_hour": rng.integers(0, 24, n),
})
lin = (-1.2 + 0.04 * (visits.age - 55) - 0.8 * (visits.triage_level - 3)
       + 0.6 * (visits.lactate - 1.5) + 0.015 * (visits.heart_rate - 88))
visits["admitted"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# filled in by the bed bureau once a ward bed is requested, i.e. only for admissions
visits["bed_request_min"] = np.where(visits.admitted == 1,
                                     rng.gamma(3.0, 60.0, n).round(), np.nan)
"""

_HERD = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7202)
n = 900
cows = pd.DataFrame({
    "parity": rng.integers(1, 7, n),
    "dim": rng.integers(5, 305, n),                      # days in milk at herd test
    "log_scc_prev": rng.normal(4.6, 0.8, n).round(2),    # ln somatic cells, previous test
    "milk_kg": rng.normal(31, 6, n).round(1),
    "housing": rng.choice(["cubicle", "straw_yard"], n, p=[0.7, 0.3]),
})
lin = (-2.4 + 0.18 * (cows.parity - 3) + 0.7 * (cows.log_scc_prev - 4.6)
       + 0.45 * (cows.housing == "straw_yard"))
cows["clinical_mastitis"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# intramammary tubes used this lactation (dry-cow tubes for a few healthy cows)
cows["antibiotic_tubes"] = np.where(cows.clinical_mastitis == 1,
                                    rng.poisson(3.5, n), rng.poisson(0.15, n))
test_herd = rng.random(n) < 0.3
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-h7-ed-admission-bed-request-minutes",
        family="target_leakage",
        twin="target-leakage-h7-ed-admission-bed-request-minutes-sound",
        split="holdout7",
        setup=_ED,
        note="bed_request_min is recorded only after the admission decision (NaN otherwise); "
        "dropping only the id and label keeps it, and the imputer's indicator flags admissions.",
        code=dedent("""\
            from sklearn.impute import SimpleImputer
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = visits.drop(columns=["visit_id", "admitted"])
            y = visits["admitted"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=21)
            model = make_pipeline(SimpleImputer(strategy="median", add_indicator=True),
                                  StandardScaler(), LogisticRegression(max_iter=1000))
            model.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
            print(f"features: {list(X.columns)}")
            print(f"admission-at-triage model: test AUC = {auc:.3f} (n_test = {len(y_te)})")
        """),
    ),
    Case(
        id="target-leakage-h7-ed-admission-bed-request-minutes-sound",
        family=None,
        twin="target-leakage-h7-ed-admission-bed-request-minutes",
        split="holdout7",
        setup=_ED,
        note="Only fields known at triage are used; the bed-bureau timestamp, which exists only "
        "once a patient is being admitted, is left out with the id and the label.",
        code=dedent("""\
            from sklearn.impute import SimpleImputer
            from sklearn.linear_model import LogisticRegression
            from sklearn.metrics import roc_auc_score
            from sklearn.model_selection import train_test_split
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            X = visits.drop(columns=["visit_id", "admitted", "bed_request_min"])
            y = visits["admitted"]
            X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y,
                                                      random_state=21)
            model = make_pipeline(SimpleImputer(strategy="median", add_indicator=True),
                                  StandardScaler(), LogisticRegression(max_iter=1000))
            model.fit(X_tr, y_tr)
            auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
            print(f"features: {list(X.columns)}")
            print(f"admission-at-triage model: test AUC = {auc:.3f} (n_test = {len(y_te)})")
        """),
    ),
    Case(
        id="target-leakage-h7-mastitis-logit-antibiotic-tubes",
        family="target_leakage",
        twin="target-leakage-h7-mastitis-logit-antibiotic-tubes-sound",
        split="holdout7",
        setup=_HERD,
        note="antibiotic_tubes counts treatments given because a cow had clinical mastitis, so "
        "the 'risk factor' is a consequence of the outcome; odds ratio and hold-out AUC explode.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from sklearn.metrics import roc_auc_score

            formula = ("clinical_mastitis ~ parity + dim + log_scc_prev + milk_kg"
                       " + C(housing) + antibiotic_tubes")
            fit = smf.logit(formula, data=cows[~test_herd]).fit(disp=0)
            odds = np.exp(fit.params.drop("Intercept")).round(2)
            print("odds ratios per unit:")
            print(odds.to_string())
            auc = roc_auc_score(cows.loc[test_herd, "clinical_mastitis"],
                                fit.predict(cows[test_herd]))
            print(f"AUC on the held-back herd tests: {auc:.3f}")
        """),
    ),
    Case(
        id="target-leakage-h7-mastitis-logit-antibiotic-tubes-sound",
        family=None,
        twin="target-leakage-h7-mastitis-logit-antibiotic-tubes",
        split="holdout7",
        setup=_HERD,
        note="The risk-factor logit uses only what is known before the case (parity, stage of "
        "lactation, previous cell count, yield, housing); treatment records are left out.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from sklearn.metrics import roc_auc_score

            formula = "clinical_mastitis ~ parity + dim + log_scc_prev + milk_kg + C(housing)"
            fit = smf.logit(formula, data=cows[~test_herd]).fit(disp=0)
            odds = np.exp(fit.params.drop("Intercept")).round(2)
            print("odds ratios per unit:")
            print(odds.to_string())
            auc = roc_auc_score(cows.loc[test_herd, "clinical_mastitis"],
                                fit.predict(cows[test_herd]))
            print(f"AUC on the held-back herd tests: {auc:.3f}")
        """),
    ),
]
