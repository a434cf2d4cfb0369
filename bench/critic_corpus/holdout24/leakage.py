from bench.critic_corpus import Case

SPLIT = "holdout24"

_OFSTED_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(2407)
n = 150
items = [f"q{i:03d}_agree_pct" for i in range(1, 121)]
survey = pd.DataFrame(rng.normal(64, 8, size=(n, len(items))).round(1), columns=items)
survey.insert(0, "urn", rng.choice(np.arange(100000, 149999), n, replace=False))
survey.insert(1, "la_name", rng.choice(
    ["Leeds", "Bradford", "Kirklees", "Wakefield", "Calderdale"], n))
survey["fsm_pct"] = (rng.beta(2, 6, n) * 100).round(1)
survey["response_rate_pct"] = rng.uniform(12, 70, n).round(0)
latent = 0.9 - 0.05 * (survey["fsm_pct"] - 25) + rng.normal(0, 1, n)
survey["good_or_outstanding"] = (latent > 0).astype(int)
"""

_RENTS_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(824)
districts = [f"{a}{k}" for a in ["LS", "BD", "HX", "WF", "HD"] for k in range(1, 25)]
premium = dict(zip(districts, rng.normal(0, 120, len(districts)).round()))
n = 520
lets = pd.DataFrame({
    "listing_id": np.arange(70001, 70001 + n),
    "postcode_district": rng.choice(districts, n),
    "bedrooms": rng.choice([1, 2, 3, 4], n, p=[0.3, 0.4, 0.22, 0.08]),
    "dist_to_station_km": rng.gamma(2, 0.9, n).round(2),
})
lets["floor_area_sqm"] = (28 + 22 * lets.bedrooms + rng.normal(0, 9, n)).round()
lets["monthly_rent"] = (
    420 + 3.1 * lets.floor_area_sqm + 60 * lets.bedrooms - 35 * lets.dist_to_station_km
    + lets.postcode_district.map(premium) + rng.normal(0, 170, n)
).round(-1)
"""

CASES: list[Case] = [
    Case(
        id="h24-leakage-selectkbest-ofsted-survey",
        family="leakage",
        setup=_OFSTED_SETUP,
        code=r"""
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = survey.filter(like="_pct")
y = survey["good_or_outstanding"]

picker = SelectKBest(f_classif, k=15).fit(X, y)
keep = X.columns[picker.get_support()]
print(f"{len(keep)} of {X.shape[1]} survey columns kept:", ", ".join(keep[:6]), "...")

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
auc = cross_val_score(model, X[keep], y, cv=cv, scoring="roc_auc")
print(f"Parent survey answers predict a Good/Outstanding Ofsted grade: "
      f"AUC {auc.mean():.2f} (folds {auc.min():.2f}-{auc.max():.2f})")
""",
        twin="h24-leakage-selectkbest-ofsted-survey-pipeline",
        note="SelectKBest picks 15 of 122 survey columns using every school's Ofsted grade, "
             "then the CV AUC is computed on those columns, so the held-out folds chose them.",
        split=SPLIT,
    ),
    Case(
        id="h24-leakage-selectkbest-ofsted-survey-pipeline",
        family=None,
        setup=_OFSTED_SETUP,
        code=r"""
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X = survey.filter(like="_pct")
y = survey["good_or_outstanding"]

model = make_pipeline(SelectKBest(f_classif, k=15), StandardScaler(),
                      LogisticRegression(max_iter=1000))
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=1)
auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
print(f"Parent survey answers predict a Good/Outstanding Ofsted grade: "
      f"AUC {auc.mean():.2f} (folds {auc.min():.2f}-{auc.max():.2f})")

keep = X.columns[model.fit(X, y)[0].get_support()]
print(f"Items picked when refit on all {len(X)} schools:", ", ".join(keep[:6]), "...")
""",
        twin="h24-leakage-selectkbest-ofsted-survey",
        note="Item selection sits inside the pipeline, so each CV fold selects on its own "
             "training schools; the full-data refit is only used to list items.",
        split=SPLIT,
    ),
    Case(
        id="h24-leakage-district-mean-rent-encoding",
        family="leakage",
        setup=_RENTS_SETUP,
        code=r"""
import statsmodels.formula.api as smf

df = lets.copy()
df["district_avg_rent"] = df.groupby("postcode_district")["monthly_rent"].transform("mean")

train = df.sample(frac=0.8, random_state=5)
test = df.drop(train.index)

ols = smf.ols("monthly_rent ~ bedrooms + floor_area_sqm + dist_to_station_km"
              " + district_avg_rent", data=train).fit()
err = test["monthly_rent"] - ols.predict(test)
ss_tot = ((test["monthly_rent"] - test["monthly_rent"].mean()) ** 2).sum()
print(f"Held-out listings: typical miss £{err.abs().median():.0f}/month, "
      f"R² {1 - (err ** 2).sum() / ss_tot:.2f}")
ols.params.round(2)
""",
        twin="h24-leakage-district-mean-rent-encoding-train-only",
        note="The district mean-rent feature is computed from all listings, test rents "
             "included (about 4 lets per district), before the 80/20 split.",
        split=SPLIT,
    ),
    Case(
        id="h24-leakage-district-mean-rent-encoding-train-only",
        family=None,
        setup=_RENTS_SETUP,
        code=r"""
import statsmodels.formula.api as smf

df = lets.copy()
train = df.sample(frac=0.8, random_state=5)
test = df.drop(train.index)

district_means = train.groupby("postcode_district")["monthly_rent"].mean()
fallback = train["monthly_rent"].mean()
train = train.assign(district_avg_rent=train.postcode_district.map(district_means))
test = test.assign(
    district_avg_rent=test.postcode_district.map(district_means).fillna(fallback))

ols = smf.ols("monthly_rent ~ bedrooms + floor_area_sqm + dist_to_station_km"
              " + district_avg_rent", data=train).fit()
err = test["monthly_rent"] - ols.predict(test)
ss_tot = ((test["monthly_rent"] - test["monthly_rent"].mean()) ** 2).sum()
print(f"Held-out listings: typical miss £{err.abs().median():.0f}/month, "
      f"R² {1 - (err ** 2).sum() / ss_tot:.2f}")
ols.params.round(2)
""",
        twin="h24-leakage-district-mean-rent-encoding",
        note="District mean rents come from the training listings only and are mapped onto "
             "the test listings (overall train mean for unseen districts).",
        split=SPLIT,
    ),
]
