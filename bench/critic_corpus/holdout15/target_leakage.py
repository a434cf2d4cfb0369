from bench.critic_corpus import Case

_DROP = '''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, classification_report
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(21)
n = 1500
course = rng.choice(["Nursing", "Management", "Informatics", "Agronomy", "Design", "Social"],
                    n, p=[.22, .2, .15, .13, .15, .15])
age = np.clip(rng.gamma(3, 2.2, n) + 17, 17, 60).round()
adm = np.round(rng.normal(127, 14, n), 1)
schol = rng.binomial(1, 0.25, n)
debtor = rng.binomial(1, 0.11, n)
fees_ok = rng.binomial(1, 0.88, n)
u1 = np.clip(rng.poisson(4.6, n) - rng.binomial(3, 0.2, n), 0, 8)
lo = (-1.2 + 0.05 * (age - 23) - 0.02 * (adm - 127) - 0.6 * schol + 0.9 * debtor
      - 1.4 * fees_ok - 0.35 * (u1 - 4) + 1.3)
dropout = rng.binomial(1, 1 / (1 + np.exp(-lo)))
refund = np.where(dropout == 1, rng.choice([0, 180, 360, 540], n, p=[.2, .3, .3, .2]),
                  rng.choice([0, 180], n, p=[.97, .03]))
stud = pd.DataFrame({
    "course": course, "age_at_enrollment": age, "admission_grade": adm,
    "scholarship_holder": schol, "debtor": debtor, "tuition_fees_up_to_date": fees_ok,
    "cu_1st_sem_approved": u1, "tuition_refund_eur": refund,
    "target": np.where(dropout == 1, "Dropout", "Graduate"),
})
'''

_CHURN = '''
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(8)
n = 2500
age = rng.integers(26, 70, n)
mob = np.clip(age - 20 + rng.integers(-8, 8, n), 13, 56)
rel = rng.integers(1, 7, n)
inact = rng.integers(0, 7, n)
cont = rng.integers(0, 7, n)
lim = np.round(np.exp(rng.normal(8.8, 0.8, n)), 0)
trans_ct = np.clip(rng.normal(65, 22, n), 10, 139).round()
lo = -1.7 - 0.35 * (rel - 3.5) + 0.35 * (inact - 2) + 0.3 * (cont - 2.5) - 0.04 * (trans_ct - 65)
att = rng.binomial(1, 1 / (1 + np.exp(-lo)))
nb = ("Naive_Bayes_Classifier_Attrition_Flag_Card_Category_Contacts_Count_12_mon_"
      "Dependent_count_Education_Level_Months_Inactive_12_mon_")
p_nb = np.where(att == 1, rng.beta(4, 1.8, n), rng.beta(1.6, 5, n)).round(5)
bank = pd.DataFrame({
    "CLIENTNUM": rng.integers(708000000, 828000000, n),
    "Attrition_Flag": np.where(att == 1, "Attrited Customer", "Existing Customer"),
    "Customer_Age": age, "Gender": rng.choice(["M", "F"], n),
    "Card_Category": rng.choice(["Blue", "Silver", "Gold"], n, p=[.9, .07, .03]),
    "Months_on_book": mob, "Total_Relationship_Count": rel,
    "Months_Inactive_12_mon": inact, "Contacts_Count_12_mon": cont,
    "Credit_Limit": lim, "Total_Trans_Ct": trans_ct,
    nb + "1": p_nb, nb + "2": (1 - p_nb).round(5),
})
'''

CASES: list[Case] = [
    Case(
        id="h15-target-leakage-dropout-refund",
        family="target_leakage",
        setup=_DROP,
        code='''print(stud["target"].value_counts(normalize=True).round(3))
X = stud.drop(columns="target")
y = (stud["target"] == "Dropout").astype(int)

pre = ColumnTransformer([("cat", OneHotEncoder(handle_unknown="ignore"), ["course"])],
                        remainder="passthrough")
clf = Pipeline([("pre", pre),
                ("rf", RandomForestClassifier(n_estimators=300, random_state=42))])
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
clf.fit(X_tr, y_tr)
print(f"accuracy: {accuracy_score(y_te, clf.predict(X_te)):.3f}")
print(classification_report(y_te, clf.predict(X_te), digits=3))

imp = pd.Series(clf.named_steps["rf"].feature_importances_,
                index=clf.named_steps["pre"].get_feature_names_out())
imp.sort_values(ascending=False).head(6).round(3)
''',
        twin="h15-target-leakage-dropout-refund-ok",
        note="tuition_refund_eur is only paid after a student withdraws, so the dropout "
             "label leaks into the features and accuracy is inflated.",
        split="holdout15",
    ),
    Case(
        id="h15-target-leakage-dropout-refund-ok",
        family=None,
        setup=_DROP,
        code='''print(stud["target"].value_counts(normalize=True).round(3))
X = stud.drop(columns=["target", "tuition_refund_eur"])
y = (stud["target"] == "Dropout").astype(int)

pre = ColumnTransformer([("cat", OneHotEncoder(handle_unknown="ignore"), ["course"])],
                        remainder="passthrough")
clf = Pipeline([("pre", pre),
                ("rf", RandomForestClassifier(n_estimators=300, random_state=42))])
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, stratify=y, random_state=42)
clf.fit(X_tr, y_tr)
print(f"accuracy: {accuracy_score(y_te, clf.predict(X_te)):.3f}")
print(classification_report(y_te, clf.predict(X_te), digits=3))

imp = pd.Series(clf.named_steps["rf"].feature_importances_,
                index=clf.named_steps["pre"].get_feature_names_out())
imp.sort_values(ascending=False).head(6).round(3)
''',
        twin="h15-target-leakage-dropout-refund",
        note="Refund column (paid only after withdrawal) is dropped; remaining features are "
             "known at or soon after enrolment, so the test accuracy is honest.",
        split="holdout15",
    ),
    Case(
        id="h15-target-leakage-churn-naive-bayes-cols",
        family="target_leakage",
        setup=_CHURN,
        code='''df = bank.drop(columns=["CLIENTNUM"])
y = df.pop("Attrition_Flag").eq("Attrited Customer").astype(int)
X = pd.get_dummies(df, drop_first=True, dtype=float)
print(X.shape, f"churn rate {y.mean():.3f}")

lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
cv = StratifiedKFold(5, shuffle=True, random_state=0)
cvr = cross_validate(lr, X, y, cv=cv, scoring=["roc_auc", "accuracy", "recall"])
scores = {k[5:]: round(v.mean(), 4) for k, v in cvr.items() if k.startswith("test_")}
print(scores)
scores
''',
        twin="h15-target-leakage-churn-naive-bayes-cols-ok",
        note="The two Naive_Bayes_Classifier_Attrition_Flag_* columns are a previous model's "
             "posteriors for the label; left in as features they leak the target.",
        split="holdout15",
    ),
    Case(
        id="h15-target-leakage-churn-naive-bayes-cols-ok",
        family=None,
        setup=_CHURN,
        code='''df = (bank.drop(columns=["CLIENTNUM"])
          .loc[:, lambda d: ~d.columns.str.startswith("Naive_Bayes")])
y = df.pop("Attrition_Flag").eq("Attrited Customer").astype(int)
X = pd.get_dummies(df, drop_first=True, dtype=float)
print(X.shape, f"churn rate {y.mean():.3f}")

lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
cv = StratifiedKFold(5, shuffle=True, random_state=0)
cvr = cross_validate(lr, X, y, cv=cv, scoring=["roc_auc", "accuracy", "recall"])
scores = {k[5:]: round(v.mean(), 4) for k, v in cvr.items() if k.startswith("test_")}
print(scores)
scores
''',
        twin="h15-target-leakage-churn-naive-bayes-cols",
        note="Drops the Naive_Bayes_* posterior columns (built from the label) along with the "
             "id, so only genuine customer attributes predict churn.",
        split="holdout15",
    ),
]
