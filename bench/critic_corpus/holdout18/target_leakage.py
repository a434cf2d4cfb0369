from bench.critic_corpus import Case

_REFERRAL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2207)
n = 900
invitees = pd.DataFrame({
    "invitee_id": [f"inv_{i:05d}" for i in range(n)],
    "invite_channel": rng.choice(["link", "email", "sms", "whatsapp"], size=n,
                                 p=[0.4, 0.25, 0.15, 0.2]),
    "platform": rng.choice(["ios", "android", "web"], size=n, p=[0.35, 0.4, 0.25]),
    "referrer_tenure_days": rng.gamma(2.0, 120, size=n).round(),
    "referrer_is_paid": rng.random(n) < 0.3,
    "sessions_wk1": rng.poisson(4, size=n),
    "projects_created_wk1": rng.poisson(1.2, size=n),
})
lin = (-2.2 + 0.25 * invitees["sessions_wk1"] + 0.4 * invitees["projects_created_wk1"]
       + 0.6 * invitees["referrer_is_paid"] - 0.3 * (invitees["platform"] == "web"))
invitees["upgraded_60d"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# reward workflow state pulled from the referral service on the export date
state = np.where(invitees["upgraded_60d"] == 1,
                 rng.choice(["paid_out", "pending", "none"], size=n, p=[0.7, 0.2, 0.1]),
                 rng.choice(["none", "pending"], size=n, p=[0.96, 0.04]))
invitees["referrer_reward_state"] = state
'''

_SUPPORT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3302)
n = 1400
accounts = pd.DataFrame({
    "account_id": np.arange(50000, 50000 + n),
    "plan": rng.choice(["basic", "plus", "pro"], size=n, p=[0.5, 0.35, 0.15]),
    "chats_90d": rng.poisson(1.6, size=n),
    "first_response_min": np.round(rng.lognormal(1.6, 0.7, size=n), 1),
    "csat_last": rng.choice([1, 2, 3, 4, 5], size=n, p=[0.08, 0.09, 0.18, 0.35, 0.30]),
    "tenure_months": rng.integers(1, 48, size=n),
})
lin = (-1.9 + 0.22 * accounts["chats_90d"] + 0.03 * accounts["first_response_min"]
       - 0.25 * (accounts["csat_last"] - 3) - 0.02 * accounts["tenure_months"])
accounts["churned_30d"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
# cancel-flow save offer: shown when the customer opens the cancellation page
accounts["save_offer_shown"] = np.where(
    accounts["churned_30d"] == 1, rng.random(n) < 0.85, rng.random(n) < 0.06).astype(int)
accounts["holdout"] = accounts["account_id"] % 5 == 0
'''

CASES: list[Case] = [
    Case(
        id="h18-target_leakage-referral-upgrade-gbm",
        family="target_leakage",
        setup=_REFERRAL_SETUP,
        code='''from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

feature_frame = pd.get_dummies(
    invitees.drop(columns=["invitee_id", "upgraded_60d"]),
    columns=["invite_channel", "platform", "referrer_reward_state"], dtype=float,
)
X_tr, X_te, y_tr, y_te = train_test_split(
    feature_frame, invitees["upgraded_60d"], test_size=0.3, stratify=invitees["upgraded_60d"],
    random_state=42,
)
gbm = GradientBoostingClassifier(n_estimators=80, max_depth=2, random_state=0).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1])

importance = pd.Series(gbm.feature_importances_, index=feature_frame.columns)
print(f"invitee -> paid within 60d, test AUC = {auc:.3f}")
print(importance.sort_values(ascending=False).head(6).round(3).to_string())
''',
        twin="h18-target_leakage-referral-upgrade-gbm-ok",
        note="referrer_reward_state is set by the referral service only after the invitee "
             "upgrades, so it encodes the label and drives the near-perfect AUC.",
        split="holdout18",
    ),
    Case(
        id="h18-target_leakage-referral-upgrade-gbm-ok",
        family=None,
        setup=_REFERRAL_SETUP,
        code='''from sklearn.ensemble import GradientBoostingClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

feature_frame = pd.get_dummies(
    invitees.drop(columns=["invitee_id", "upgraded_60d", "referrer_reward_state"]),
    columns=["invite_channel", "platform"], dtype=float,
)
X_tr, X_te, y_tr, y_te = train_test_split(
    feature_frame, invitees["upgraded_60d"], test_size=0.3, stratify=invitees["upgraded_60d"],
    random_state=42,
)
gbm = GradientBoostingClassifier(n_estimators=80, max_depth=2, random_state=0).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, gbm.predict_proba(X_te)[:, 1])

importance = pd.Series(gbm.feature_importances_, index=feature_frame.columns)
print(f"invitee -> paid within 60d, test AUC = {auc:.3f}")
print(importance.sort_values(ascending=False).head(6).round(3).to_string())
''',
        twin="h18-target_leakage-referral-upgrade-gbm",
        note="Uses only invitee and referrer attributes known in the invitee's first week; the "
             "post-upgrade reward state is excluded.",
        split="holdout18",
    ),
    Case(
        id="h18-target_leakage-support-churn-logit",
        family="target_leakage",
        setup=_SUPPORT_SETUP,
        code='''import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

formula = ("churned_30d ~ chats_90d + first_response_min + csat_last + tenure_months"
           " + C(plan) + save_offer_shown")
fit = smf.logit(formula, data=accounts[~accounts["holdout"]]).fit(disp=0)

test = accounts[accounts["holdout"]]
auc = roc_auc_score(test["churned_30d"], fit.predict(test))
odds = pd.DataFrame({"odds_ratio": np.exp(fit.params), "p": fit.pvalues}).round(3)
print(f"churn model: pseudo-R2 {fit.prsquared:.2f}, holdout AUC {auc:.3f} (n={len(test)})")
odds.drop(index="Intercept")
''',
        twin="h18-target_leakage-support-churn-logit-ok",
        note="save_offer_shown comes from the cancellation flow, i.e. it is recorded as the "
             "customer churns, so the churn model's AUC and pseudo-R2 are driven by the outcome.",
        split="holdout18",
    ),
    Case(
        id="h18-target_leakage-support-churn-logit-ok",
        family=None,
        setup=_SUPPORT_SETUP,
        code='''import statsmodels.formula.api as smf
from sklearn.metrics import roc_auc_score

formula = "churned_30d ~ chats_90d + first_response_min + csat_last + tenure_months + C(plan)"
fit = smf.logit(formula, data=accounts[~accounts["holdout"]]).fit(disp=0)

test = accounts[accounts["holdout"]]
auc = roc_auc_score(test["churned_30d"], fit.predict(test))
odds = pd.DataFrame({"odds_ratio": np.exp(fit.params), "p": fit.pvalues}).round(3)
print(f"churn model: pseudo-R2 {fit.prsquared:.2f}, holdout AUC {auc:.3f} (n={len(test)})")
odds.drop(index="Intercept")
''',
        twin="h18-target_leakage-support-churn-logit",
        note="Only support history and account attributes observed before the churn window "
             "are used; the cancellation-flow save-offer flag is left out.",
        split="holdout18",
    ),
]
