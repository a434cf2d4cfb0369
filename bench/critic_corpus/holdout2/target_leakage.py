"""Target leakage, holdout2 idioms: a groupby.transform share of the target used in a
statsmodels formula, and the raw amount that defines the label passed through a
ColumnTransformer (remainder='passthrough')."""

from textwrap import dedent

from bench.critic_corpus import Case

_STORES = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(8128)
n = 400
outlets = pd.DataFrame({
    "region": rng.choice(["alpine", "coastal", "lakes", "plains", "metro"], n),
    "footfall_k": rng.gamma(4, 5, n).round(1),
    "floor_m2": rng.uniform(150, 1200, n).round(),
    "staff": rng.integers(4, 30, n),
})
outlets["sales_k"] = (
    12 + 1.8 * outlets.footfall_k + 0.04 * outlets.floor_m2 + 0.9 * outlets.staff
    + rng.normal(0, 14, n)
).round(1)
"""

_CLAIMS = """\
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

rng = np.random.default_rng(6174)
n = 1200
claims = pd.DataFrame({
    "policy_type": rng.choice(["comprehensive", "third_party", "fire_theft"], n),
    "vehicle_age": rng.integers(0, 20, n),
    "driver_age": rng.integers(18, 85, n),
    "prior_claims": rng.poisson(0.6, n),
    "garage": rng.choice(["dealer", "independent", "chain"], n),
})
mu = 7.6 + 0.05 * claims.prior_claims - 0.02 * claims.vehicle_age
claims["claim_amount"] = np.exp(mu + rng.normal(0, 0.9, n)).round(2)
large_loss = (claims.claim_amount > 5000).astype(int)       # the label to predict at FNOL
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=21)
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-region-share-formula",
        family="target_leakage",
        twin="target-leakage-region-share-formula-sound",
        split="holdout2",
        note="region_sales (groupby.transform sum of sales_k) and share_of_region "
        "(sales_k / region_sales) are regressors for sales_k: the target is rebuilt exactly.",
        code=_STORES + dedent("""\

            model_df = outlets.assign(
                region_sales=lambda d: d.groupby("region")["sales_k"].transform("sum"),
                share_of_region=lambda d: d.sales_k / d.region_sales,
            )
            fit = smf.ols("sales_k ~ footfall_k + floor_m2 + staff + region_sales "
                          "+ share_of_region", data=model_df).fit()
            print(fit.params.round(4))
            print(f"R^2 = {fit.rsquared:.3f}, residual SD = {np.sqrt(fit.scale):.2f} k")
        """),
    ),
    Case(
        id="target-leakage-region-share-formula-sound",
        family=None,
        twin="target-leakage-region-share-formula",
        split="holdout2",
        note="Region enters as a factor, C(region); nothing computed from sales_k is a "
        "regressor.",
        code=_STORES + dedent("""\

            fit = smf.ols("sales_k ~ footfall_k + floor_m2 + staff + C(region)",
                          data=outlets).fit()
            print(fit.params.round(4))
            print(f"R^2 = {fit.rsquared:.3f}, residual SD = {np.sqrt(fit.scale):.2f} k")
        """),
    ),
    Case(
        id="target-leakage-passthrough-claim-amount",
        family="target_leakage",
        twin="target-leakage-passthrough-claim-amount-sound",
        split="holdout2",
        note="remainder='passthrough' forwards claim_amount, the settled amount whose "
        "threshold defines large_loss, into the gradient-boosting features.",
        code=_CLAIMS + dedent("""\

            prep = ColumnTransformer(
                [("cat", OrdinalEncoder(), ["policy_type", "garage"])],
                remainder="passthrough",
            )
            clf = GradientBoostingClassifier(n_estimators=80, random_state=0)
            res = cross_validate(make_pipeline(prep, clf), claims, large_loss, cv=cv,
                                 scoring=["roc_auc", "average_precision"])
            print(f"large-loss triage: AUC {res['test_roc_auc'].mean():.3f}, "
                  f"AP {res['test_average_precision'].mean():.3f}")
        """),
    ),
    Case(
        id="target-leakage-passthrough-claim-amount-sound",
        family=None,
        twin="target-leakage-passthrough-claim-amount",
        split="holdout2",
        note="claim_amount (known only at settlement) is dropped before the pipeline; only "
        "first-notice attributes are features.",
        code=_CLAIMS + dedent("""\

            fnol = claims.drop(columns="claim_amount")
            prep = ColumnTransformer(
                [("cat", OrdinalEncoder(), ["policy_type", "garage"])],
                remainder="passthrough",
            )
            clf = GradientBoostingClassifier(n_estimators=80, random_state=0)
            res = cross_validate(make_pipeline(prep, clf), fnol, large_loss, cv=cv,
                                 scoring=["roc_auc", "average_precision"])
            print(f"large-loss triage: AUC {res['test_roc_auc'].mean():.3f}, "
                  f"AP {res['test_average_precision'].mean():.3f}")
        """),
    ),
]
