from bench.critic_corpus import Case

_RECONTACT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4411)
n = 1500
panel = pd.DataFrame({
    "panelist_id": [f"PN{k:06d}" for k in rng.choice(900000, n, replace=False)],
    "age": rng.integers(18, 88, n),
    "waves_completed": rng.integers(1, 4, n),          # of waves 1-3
    "w3_item_nonresp": rng.poisson(1.2, n),            # skipped items in wave 3
    "email_on_file": rng.binomial(1, 0.7, n),
    "w3_device": rng.choice(["desktop", "smartphone", "tablet"], n, p=[0.45, 0.45, 0.10]),
})
lin = (-0.9 + 0.55 * panel["waves_completed"] - 0.25 * panel["w3_item_nonresp"]
       + 0.6 * panel["email_on_file"] + 0.01 * (panel["age"] - 45))
panel["w4_responded"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# fieldwork log for wave 4: reminders stop once the questionnaire comes back,
# and the $5 e-gift code is only issued on completion
resp = panel["w4_responded"] == 1
late = rng.choice([0, 1, 2, 3], n, p=[0.40, 0.3, 0.15, 0.15])
panel["w4_reminders_sent"] = np.where(resp, late, 3)
incentive_arm = rng.binomial(1, 0.5, n)
panel["w4_incentive_issued"] = np.where(resp & (incentive_arm == 1), 1, 0)
'''

_TURNOUT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(909)
n = 2200
pre = pd.DataFrame({
    "caseid": np.arange(1, n + 1),
    "age": rng.integers(18, 95, n),
    "educ_yrs": rng.choice([10, 12, 14, 16, 18], n, p=[0.1, 0.35, 0.2, 0.22, 0.13]),
    "interest": rng.integers(1, 5, n),           # 1 = not at all ... 4 = very interested
    "voted_last": rng.binomial(1, 0.62, n),      # self-reported vote in previous election
    "weight": rng.lognormal(0, 0.4, n).round(4),
})
lin = (-4.2 + 0.03 * pre["age"] + 0.12 * pre["educ_yrs"] + 0.35 * pre["interest"]
       + 1.1 * pre["voted_last"] + rng.normal(0, 1.0, n))
pre["lv_scale"] = np.clip(np.round(5 + 1.3 * lin + rng.normal(0, 1.5, n)), 0, 10).astype(int)
# outcome from the voter-file match after the election
pre["validated_vote"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
# post-election recontact: "did you vote?" (over-reported, as usual)
pre["post_said_voted"] = np.where(pre["validated_vote"] == 1,
                                  rng.binomial(1, 0.97, n), rng.binomial(1, 0.25, n))
'''

CASES: list[Case] = [
    Case(
        id="h31-target-leakage-wave4-fieldwork-log",
        family="target_leakage",
        setup=_RECONTACT_SETUP,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

feats = ["age", "waves_completed", "w3_item_nonresp", "email_on_file",
         "w4_reminders_sent", "w4_incentive_issued"]
X = pd.get_dummies(panel[feats + ["w3_device"]], columns=["w3_device"], dtype=int)
y = panel["w4_responded"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=3)

rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, random_state=3)
rf.fit(X_tr, y_tr)
p = rf.predict_proba(X_te)[:, 1]
print(f"wave-4 response propensity model: AUC {roc_auc_score(y_te, p):.3f}, "
      f"accuracy {accuracy_score(y_te, p > 0.5):.3f}")
print("-> use for targeting the wave-5 recontact effort")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
''',
        twin="h31-target-leakage-wave4-fieldwork-log-ok",
        note="Reminders sent and incentive issued in wave 4 are recorded only after (and because "
             "of) the wave-4 response, so the propensity model's near-perfect AUC is leakage.",
        split="holdout31",
    ),
    Case(
        id="h31-target-leakage-wave4-fieldwork-log-ok",
        family=None,
        setup=_RECONTACT_SETUP,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

# only what we know before wave-4 fieldwork starts (no wave-4 fieldwork log columns)
feats = ["age", "waves_completed", "w3_item_nonresp", "email_on_file"]
X = pd.get_dummies(panel[feats + ["w3_device"]], columns=["w3_device"], dtype=int)
y = panel["w4_responded"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=3)

rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, random_state=3)
rf.fit(X_tr, y_tr)
p = rf.predict_proba(X_te)[:, 1]
print(f"wave-4 response propensity model: AUC {roc_auc_score(y_te, p):.3f}, "
      f"accuracy {accuracy_score(y_te, p > 0.5):.3f}")
print("-> use for targeting the wave-5 recontact effort")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
''',
        twin="h31-target-leakage-wave4-fieldwork-log",
        note="Propensity model uses only pre-fieldwork panel history; evaluated on a held-out "
             "split with fixed seeds.",
        split="holdout31",
    ),
    Case(
        id="h31-target-leakage-turnout-post-wave",
        family="target_leakage",
        setup=_TURNOUT_SETUP,
        code='''import statsmodels.formula.api as smf

lv_fit = smf.logit(
    "validated_vote ~ age + educ_yrs + C(interest) + voted_last + lv_scale + post_said_voted",
    data=pre).fit(disp=0)
print(lv_fit.summary2().tables[1][["Coef.", "Std.Err.", "P>|z|"]].round(3))

pre["p_vote"] = lv_fit.predict(pre)
print(f"\\nMcFadden R2 = {lv_fit.prsquared:.3f}")
print(f"projected turnout (weighted) = {np.average(pre['p_vote'], weights=pre['weight']):.1%}")
''',
        twin="h31-target-leakage-turnout-post-wave-ok",
        note="The likely-voter model includes post_said_voted, asked in the post-election "
             "recontact, i.e. after the outcome, so its fit and turnout projection lean on it.",
        split="holdout31",
    ),
    Case(
        id="h31-target-leakage-turnout-post-wave-ok",
        family=None,
        setup=_TURNOUT_SETUP,
        code='''import statsmodels.formula.api as smf

# pre-election items only; the post-election self-report is not available at projection time
lv_fit = smf.logit(
    "validated_vote ~ age + educ_yrs + C(interest) + voted_last + lv_scale",
    data=pre).fit(disp=0)
print(lv_fit.summary2().tables[1][["Coef.", "Std.Err.", "P>|z|"]].round(3))

pre["p_vote"] = lv_fit.predict(pre)
print(f"\\nMcFadden R2 = {lv_fit.prsquared:.3f}  (in-sample, descriptive)")
print(f"projected turnout (weighted) = {np.average(pre['p_vote'], weights=pre['weight']):.1%}")
''',
        twin="h31-target-leakage-turnout-post-wave",
        note="Likely-voter model uses only pre-election measures; in-sample fit is labelled as "
             "descriptive, not as predictive accuracy.",
        split="holdout31",
    ),
]
