from bench.critic_corpus import Case

_PULSE_EXPORT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290901)
teams = {"Warehouse Nights": 140, "Warehouse Days": 160, "Transport": 90, "Customer Care": 120,
         "Head Office": 110, "IT": 60}
skip_rate = {"Warehouse Nights": 0.22, "Warehouse Days": 0.10, "Transport": 0.12,
             "Customer Care": 0.05, "Head Office": 0.03, "IT": 0.02}
level = {"Warehouse Nights": 3.3, "Warehouse Days": 3.4, "Transport": 3.5,
         "Customer Care": 3.6, "Head Office": 3.8, "IT": 3.9}
frames = []
for team, k in teams.items():
    d = pd.DataFrame({"team": team, "resp_id": [f"{team[:3].upper()}{i:04d}" for i in range(k)]})
    for q in ["eng_q1_energised", "eng_q2_proud", "eng_q3_recommend", "eng_q4_stay",
              "eng_q5_manager_support", "eng_q6_growth"]:
        x = np.clip(np.round(rng.normal(level[team], 0.9, k)), 1, 5).astype(int)
        # survey tool exports "prefer not to say" / skipped as -99
        d[q] = np.where(rng.random(k) < skip_rate[team], -99, x)
    frames.append(d)
pulse_export = pd.concat(frames, ignore_index=True)
'''

_LPM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290902)
n = 1500
staff = pd.DataFrame({
    "employee_id": [f"E{810000 + i}" for i in range(n)],
    "department": rng.choice(["Stores", "Distribution", "Head Office", "Contact Centre"], n,
                             p=[0.4, 0.25, 0.15, 0.2]),
    "tenure_yrs": np.round(rng.gamma(1.6, 2.5, n), 1),
    "hourly_pay_vs_market": np.round(rng.normal(1.0, 0.08, n), 3),
    "engagement_idx": np.round(np.clip(rng.normal(3.5, 0.75, n), 1, 5), 2),
    "shift_changes_90d": rng.poisson(2.0, n),
})
lin = (-1.4 - 2.0 * (staff.engagement_idx - 3.5) - 8 * (staff.hourly_pay_vs_market - 1)
       - 0.25 * (staff.tenure_yrs - 4) + 0.25 * (staff.shift_changes_90d - 2))
staff["left_12m"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h29-sv-engagement-index-with-999-codes",
        family="suspicious_values",
        setup=_PULSE_EXPORT_SETUP,
        code='''
items = [c for c in pulse_export.columns if c.startswith("eng_q")]
pulse_export["engagement_index"] = pulse_export[items].mean(axis=1)

by_team = (pulse_export.groupby("team")
           .agg(respondents=("resp_id", "size"), engagement=("engagement_index", "mean"),
                favourable_q4=("eng_q4_stay", lambda s: (s >= 4).mean()))
           .sort_values("engagement"))
print(f"Company engagement index: {pulse_export.engagement_index.mean():.2f} / 5")
print(f"Lowest team: {by_team.index[0]} ({by_team.engagement.iloc[0]:.2f}) "
      f"-> priority for the action-planning workshop")
by_team.round(2)
''',
        twin="h29-sv-engagement-index-codes-as-missing",
        note="The survey export's -99 'prefer not to say' code is averaged in, giving team "
             "engagement indices far below the 1-5 scale (negative values) that are reported "
             "as real.",
        split="holdout29",
    ),
    Case(
        id="h29-sv-engagement-index-codes-as-missing",
        family=None,
        setup=_PULSE_EXPORT_SETUP,
        code='''
items = [c for c in pulse_export.columns if c.startswith("eng_q")]
answers = pulse_export[items].replace(-99, np.nan)       # -99 = prefer not to say / skipped
assert (answers.isna() | answers.isin([1, 2, 3, 4, 5])).all().all()
print(f"'prefer not to say' answers: {answers.isna().sum().sum()} of {answers.size} "
      f"({answers.isna().mean().mean():.1%})")

# index = mean of the answered items, only for respondents who answered at least 4 of 6
n_answered = answers.notna().sum(axis=1)
pulse_export["engagement_index"] = answers.mean(axis=1).where(n_answered >= 4)

by_team = (pulse_export.groupby("team")
           .agg(respondents=("resp_id", "size"),
                scored=("engagement_index", "count"),
                engagement=("engagement_index", "mean"),
                favourable_q4=("eng_q4_stay", lambda s: (s[s != -99] >= 4).mean()))
           .sort_values("engagement"))
print(f"Company engagement index: {pulse_export.engagement_index.mean():.2f} / 5 "
      f"({pulse_export.engagement_index.notna().sum()} scored respondents)")
print(f"Lowest team: {by_team.index[0]} ({by_team.engagement.iloc[0]:.2f})")
by_team.round(2)
''',
        twin="h29-sv-engagement-index-with-999-codes",
        note="The -99 code is recoded to missing before averaging, values are checked to lie "
             "on the 1-5 scale, and the number of scored respondents is reported.",
        split="holdout29",
    ),
    Case(
        id="h29-sv-flight-risk-linear-probability",
        family="suspicious_values",
        setup=_LPM_SETUP,
        code='''
from sklearn.linear_model import LinearRegression

X = pd.get_dummies(staff[["department", "tenure_yrs", "hourly_pay_vs_market",
                          "engagement_idx", "shift_changes_90d"]], drop_first=True)
lm = LinearRegression().fit(X, staff.left_12m)
staff["p_leave"] = lm.predict(X)

print("predicted probability of leaving in the next 12 months:")
print(staff.p_leave.describe().round(3))
print("\\nmean risk by department:")
print(staff.groupby("department").p_leave.mean().round(3))
print("\\nTop 5 flight risks for the retention conversation:")
staff.nlargest(5, "p_leave")[["employee_id", "department", "engagement_idx", "p_leave"]]
''',
        twin="h29-sv-flight-risk-logistic-probability",
        note="A linear regression on the 0/1 leaver flag is reported as a 'probability of "
             "leaving', and the printed predictions run below 0 and above 1 without comment.",
        split="holdout29",
    ),
    Case(
        id="h29-sv-flight-risk-logistic-probability",
        family=None,
        setup=_LPM_SETUP,
        code='''
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = pd.get_dummies(staff[["department", "tenure_yrs", "hourly_pay_vs_market",
                          "engagement_idx", "shift_changes_90d"]], drop_first=True)
logit = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
logit.fit(X, staff.left_12m)
staff["p_leave"] = logit.predict_proba(X)[:, 1]   # bounded in (0, 1)

print("predicted probability of leaving in the next 12 months:")
print(staff.p_leave.describe().round(3))
print("\\nmean risk by department (observed leaver rate alongside):")
print(staff.groupby("department")[["p_leave", "left_12m"]].mean().round(3))
print("\\nTop 5 flight risks for the retention conversation:")
staff.nlargest(5, "p_leave")[["employee_id", "department", "engagement_idx", "p_leave"]]
''',
        twin="h29-sv-flight-risk-linear-probability",
        note="Leaving risk comes from a logistic model, so scores are valid probabilities, and "
             "department averages are shown next to observed leaver rates.",
        split="holdout29",
    ),
]
