from bench.critic_corpus import Case

_DEPLOY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3803)
n = 1200
deploys = pd.DataFrame({
    "service": rng.choice(["checkout", "search", "auth", "inventory", "notifications"], n),
    "lines_changed": rng.lognormal(4.5, 1.2, n).round().astype(int) + 1,
    "files_touched": rng.poisson(6, n) + 1,
    "has_migration": (rng.random(n) < 0.12).astype(int),
    "friday_deploy": (rng.random(n) < 0.15).astype(int),
    "canary_error_delta": rng.normal(0, 0.004, n).round(5),
})
logit = (-3.2 + 0.35 * np.log(deploys["lines_changed"]) + 1.1 * deploys["has_migration"]
         + 0.5 * deploys["friday_deploy"] + 180 * deploys["canary_error_delta"])
deploys["rolled_back"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
deploys["minutes_to_rollback"] = np.where(deploys["rolled_back"] == 1,
                                          rng.gamma(2.0, 12.0, n).round(1), 0.0)
deploys["pages_during_deploy"] = rng.poisson(0.2 + 2.5 * deploys["rolled_back"])
'''

_INCIDENT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3804)
n = 420
inc = pd.DataFrame({
    "severity": rng.choice(["SEV1", "SEV2", "SEV3"], n, p=[0.1, 0.35, 0.55]),
    "detected_by": rng.choice(["alert", "customer", "synthetic"], n, p=[0.6, 0.25, 0.15]),
    "responders_paged": rng.integers(1, 9, n),
    "users_affected_at_declare": rng.lognormal(6, 1.5, n).round() + 1,
})
sev_eff = inc["severity"].map({"SEV1": -0.3, "SEV2": 0.0, "SEV3": 0.4})
det_eff = inc["detected_by"].map({"alert": 0.0, "customer": 0.5, "synthetic": -0.1})
inc["ttr_min"] = np.exp(3.6 + sev_eff + det_eff + 0.04 * inc["responders_paged"]
                        + rng.normal(0, 0.7, n)).round(1)
inc["user_minutes_lost"] = (inc["ttr_min"] * inc["users_affected_at_declare"]
                            * rng.uniform(0.6, 1.4, n)).round()
'''

CASES: list[Case] = [
    Case(
        id="h38-tl-rollback-risk",
        family="target_leakage",
        split="holdout38",
        twin="h38-tl-rollback-risk-ok",
        setup=_DEPLOY_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = pd.get_dummies(deploys.drop(columns=["rolled_back"]), columns=["service"],
                   drop_first=True).astype(float)
y = deploys["rolled_back"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
print(f"{len(deploys)} deploys, rollback rate {y.mean():.1%}")
print(f"rollback-risk model: test AUC = {auc:.3f}")
coef = pd.Series(model[-1].coef_[0], index=X.columns)
print(coef.sort_values(key=abs, ascending=False).head(6).round(3).to_string())
''',
        note="minutes_to_rollback and pages_during_deploy are recorded after (and because of) the "
             "rollback, yet they stay in the features, so the AUC is leaked.",
    ),
    Case(
        id="h38-tl-rollback-risk-ok",
        family=None,
        split="holdout38",
        twin="h38-tl-rollback-risk",
        setup=_DEPLOY_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

# only what the release tooling knows when the deploy starts; rollback timing and pages
# are outcomes, not inputs
pre_deploy = ["service", "lines_changed", "files_touched", "has_migration",
              "friday_deploy", "canary_error_delta"]
X = pd.get_dummies(deploys[pre_deploy], columns=["service"], drop_first=True).astype(float)
y = deploys["rolled_back"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=11)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
print(f"{len(deploys)} deploys, rollback rate {y.mean():.1%}")
print(f"rollback-risk model: test AUC = {auc:.3f}")
coef = pd.Series(model[-1].coef_[0], index=X.columns)
print(coef.sort_values(key=abs, ascending=False).head(6).round(3).to_string())
''',
        note="Features are restricted to pre-deploy attributes; the post-outcome rollback columns "
             "are excluded, and AUC is on a held-out split.",
    ),
    Case(
        id="h38-tl-ttr-ols",
        family="target_leakage",
        split="holdout38",
        twin="h38-tl-ttr-ols-ok",
        setup=_INCIDENT_SETUP,
        code='''
import statsmodels.formula.api as smf

formula = ("np.log(ttr_min) ~ C(severity) + detected_by + responders_paged"
           " + np.log(users_affected_at_declare) + np.log(user_minutes_lost)")
fit = smf.ols(formula, data=inc).fit()
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)} incidents, R^2 = {fit.rsquared:.3f}")
print("-> time-to-resolve is largely predictable from what we know at declaration")
''',
        note="user_minutes_lost is time-to-resolve multiplied by users affected, so the target is "
             "among the regressors and the R^2 is spurious.",
    ),
    Case(
        id="h38-tl-ttr-ols-ok",
        family=None,
        split="holdout38",
        twin="h38-tl-ttr-ols",
        setup=_INCIDENT_SETUP,
        code='''
import statsmodels.formula.api as smf

# user_minutes_lost is computed from the duration itself, so it is left out
formula = ("np.log(ttr_min) ~ C(severity) + detected_by + responders_paged"
           " + np.log(users_affected_at_declare)")
fit = smf.ols(formula, data=inc).fit()
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)} incidents, R^2 = {fit.rsquared:.3f}, "
      f"adj. R^2 = {fit.rsquared_adj:.3f}")
''',
        note="Only attributes known at declaration are regressors; the duration-derived "
             "user_minutes_lost is excluded.",
    ),
]
