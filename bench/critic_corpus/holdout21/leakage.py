from bench.critic_corpus import Case

_ONBOARDING_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2117)
n_students, n_items = 150, 160
belonging = rng.normal(size=n_students)
items = {}
for j in range(n_items):
    loading = 0.7 if j in (4, 17, 33, 58, 91, 120) else 0.0
    raw = loading * belonging + rng.normal(size=n_students)
    items[f"q{j + 1:03d}"] = np.clip(np.round(3 + 1.1 * raw), 1, 5).astype(int)
survey = pd.DataFrame(items)
survey.insert(0, "student_id", [f"S{21000 + i}" for i in range(n_students)])
survey.insert(1, "faculty", rng.choice(["Arts", "Science", "Social Sci", "Medicine"],
                                       size=n_students))
p_drop = 1 / (1 + np.exp(-(-1.1 - 0.6 * belonging)))
survey["dropped_out_y1"] = rng.binomial(1, p_drop)
print(survey.shape, "dropout rate:", round(survey["dropped_out_y1"].mean(), 3))
"""

_SCHOOLS_SETUP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9021)
rows = []
for s in range(60):
    school_effect = rng.normal(0, 6)
    n_pupils = int(rng.integers(5, 16))
    for p in range(n_pupils):
        ks2 = rng.normal(104, 6.5)
        fsm = rng.binomial(1, 0.24)
        eal = rng.binomial(1, 0.18)
        attendance = np.clip(rng.normal(94, 4), 60, 100)
        score = (0.9 * (ks2 - 104) - 3 * fsm + 0.35 * (attendance - 94)
                 + school_effect + rng.normal(0, 7) + 55)
        rows.append({"school": f"URN{140300 + s}", "pupil": f"{s:02d}-{p:02d}",
                     "ks2_maths": round(ks2, 1), "fsm": fsm, "eal": eal,
                     "attendance_pct": round(attendance, 1),
                     "maths_y9": round(float(np.clip(score, 0, 100)), 1)})
pupils = pd.DataFrame(rows)
print(pupils.shape, pupils["school"].nunique(), "schools")
"""

CASES: list[Case] = [
    Case(
        id="h21-leakage-onboarding-items-selectkbest",
        family="leakage",
        setup=_ONBOARDING_SETUP,
        code="""\
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

item_cols = [c for c in survey.columns if c.startswith("q")]
X = StandardScaler().fit_transform(survey[item_cols])
y = survey["dropped_out_y1"].to_numpy()

# keep the 10 onboarding items that best separate leavers from stayers
selector = SelectKBest(f_classif, k=10).fit(X, y)
X_top = selector.transform(X)
kept = [c for c, keep in zip(item_cols, selector.get_support()) if keep]
print("Items retained:", ", ".join(kept))

X_tr, X_te, y_tr, y_te = train_test_split(X_top, y, test_size=0.3, stratify=y,
                                          random_state=7)
clf = LogisticRegression(max_iter=1000).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
print(f"Held-out accuracy = {clf.score(X_te, y_te):.2f}, AUC = {auc:.2f} "
      f"(n_test = {len(y_te)})")
""",
        twin="h21-leakage-onboarding-items-pipeline",
        note="Scaling and SelectKBest are fit on all 150 students before the split, so the "
             "item selection has seen the test students' outcomes and the held-out AUC is "
             "inflated.",
        split="holdout21",
    ),
    Case(
        id="h21-leakage-onboarding-items-pipeline",
        family=None,
        setup=_ONBOARDING_SETUP,
        code="""\
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

item_cols = [c for c in survey.columns if c.startswith("q")]
X = survey[item_cols]
y = survey["dropped_out_y1"].to_numpy()

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                          random_state=7)
# scaling and item selection are learnt from the training students only
clf = make_pipeline(StandardScaler(), SelectKBest(f_classif, k=10),
                    LogisticRegression(max_iter=1000))
clf.fit(X_tr, y_tr)
support = clf.named_steps["selectkbest"].get_support()
kept = [c for c, keep in zip(item_cols, support) if keep]
print("Items retained (training fit):", ", ".join(kept))

auc = roc_auc_score(y_te, clf.predict_proba(X_te)[:, 1])
print(f"Held-out accuracy = {clf.score(X_te, y_te):.2f}, AUC = {auc:.2f} "
      f"(n_test = {len(y_te)})")
""",
        twin="h21-leakage-onboarding-items-selectkbest",
        note="Scaler and SelectKBest sit inside a pipeline fit on the training students only; "
             "the held-out AUC is an honest estimate.",
        split="holdout21",
    ),
    Case(
        id="h21-leakage-school-mean-target-encoding",
        family="leakage",
        setup=_SCHOOLS_SETUP,
        code="""\
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

df = pupils.copy()
# school context: average Y9 maths attainment of the pupil's school
df["school_mean_maths"] = df.groupby("school")["maths_y9"].transform("mean")

features = ["ks2_maths", "fsm", "eal", "attendance_pct", "school_mean_maths"]
train, test = train_test_split(df, test_size=0.25, random_state=11)
model = LinearRegression().fit(train[features], train["maths_y9"])
pred = model.predict(test[features])

print(f"Test pupils: {len(test)}")
print(f"R2 = {r2_score(test['maths_y9'], pred):.3f}, "
      f"MAE = {mean_absolute_error(test['maths_y9'], pred):.2f} marks")
pd.Series(model.coef_, index=features).round(3)
""",
        twin="h21-leakage-school-mean-train-only",
        note="The school-mean target encoding is computed on all pupils, including each test "
             "pupil's own Y9 score, before the split, so the test R2 is inflated.",
        split="holdout21",
    ),
    Case(
        id="h21-leakage-school-mean-train-only",
        family=None,
        setup=_SCHOOLS_SETUP,
        code="""\
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

df = pupils.copy()
train, test = train_test_split(df, test_size=0.25, random_state=11)
train, test = train.copy(), test.copy()

# school context from training pupils only; leave-one-out within the training set
grp = train.groupby("school")["maths_y9"]
s_sum, s_n = grp.transform("sum"), grp.transform("count")
grand_mean = train["maths_y9"].mean()
train["school_mean_maths"] = ((s_sum - train["maths_y9"]) / (s_n - 1)).where(s_n > 1)
train["school_mean_maths"] = train["school_mean_maths"].fillna(grand_mean)
test["school_mean_maths"] = test["school"].map(grp.mean()).fillna(grand_mean)

features = ["ks2_maths", "fsm", "eal", "attendance_pct", "school_mean_maths"]
model = LinearRegression().fit(train[features], train["maths_y9"])
pred = model.predict(test[features])

print(f"Test pupils: {len(test)}")
print(f"R2 = {r2_score(test['maths_y9'], pred):.3f}, "
      f"MAE = {mean_absolute_error(test['maths_y9'], pred):.2f} marks")
pd.Series(model.coef_, index=features).round(3)
""",
        twin="h21-leakage-school-mean-target-encoding",
        note="School means are estimated from training pupils only (leave-one-out inside the "
             "training set) and mapped onto test pupils, so the test R2 is honest.",
        split="holdout21",
    ),
]
