from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h15-sound-nba-usage-ols-hc3",
        family=None,
        setup='''
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(90)
n = 420
pos = rng.choice(["G", "F", "C"], n, p=[.42, .38, .2])
age = rng.integers(19, 37, n)
usg = np.round(np.clip(rng.normal(19, 5, n), 8, 38), 1)
mp = np.round(np.clip(rng.normal(22, 8, n), 6, 38), 1)
ts = np.round(np.clip(rng.normal(0.565, 0.045, n) - 0.002 * (usg - 19), 0.42, 0.70), 3)
pts36 = np.round(1.0 * usg + 18 * (ts - 0.565) + 0.9 * (pos == "G") + rng.normal(0, 2.2, n), 1)
players = pd.DataFrame({"player_id": np.arange(n), "pos": pos, "age": age, "mp": mp,
                        "usg_pct": usg, "ts_pct": ts, "pts_per36": pts36})
''',
        code='''print(players[["usg_pct", "ts_pct", "mp", "pts_per36"]].describe().round(2))

fit = smf.ols("pts_per36 ~ usg_pct + ts_pct + C(pos) + age", data=players).fit(cov_type="HC3")
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)} player-seasons (one row per player), adj R2 = {fit.rsquared_adj:.3f}")
fit.conf_int().assign(coef=fit.params).round(3)
''',
        note="One row per player, linear model with heteroskedasticity-robust (HC3) SEs and "
             "coefficients reported with intervals; a standard descriptive regression.",
        split="holdout15",
    ),
    Case(
        id="h15-sound-telecom-type-by-channel-chi2",
        family=None,
        setup='''
import numpy as np
import pandas as pd
from scipy.stats import chi2_contingency

rng = np.random.default_rng(91)
n = 2600
chan = rng.choice(["phone", "email", "app", "social"], n, p=[.4, .2, .28, .12])
pr = {"phone": [.34, .3, .2, .16], "email": [.42, .18, .22, .18],
      "app": [.28, .36, .2, .16], "social": [.2, .45, .15, .2]}
ctype = np.array([rng.choice(["billing", "network", "device", "contract"], p=pr[c])
                  for c in chan])
tix = pd.DataFrame({"ticket_id": np.arange(n), "channel": chan, "complaint_type": ctype})
''',
        code='''print(tix["complaint_type"].value_counts())
tab = pd.crosstab(tix["channel"], tix["complaint_type"])
chi2, p, dof, exp = chi2_contingency(tab)
print(f"chi2 = {chi2:.1f}, dof = {dof}, p = {p:.2e}, min expected count = {exp.min():.1f}")
print(f"Cramer's V = {np.sqrt(chi2 / (tab.values.sum() * (min(tab.shape) - 1))):.3f}")
pd.crosstab(tix["channel"], tix["complaint_type"], normalize="index").round(3)
''',
        note="A single chi-square test of independence on a 4x4 table with adequate expected "
             "counts, with Cramer's V and row proportions as effect description.",
        split="holdout15",
    ),
    Case(
        id="h15-sound-dropout-logit-cv-pipeline",
        family=None,
        setup='''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(92)
n = 1800
course = rng.choice(["Nursing", "Management", "Informatics", "Agronomy", "Design"], n)
age = np.clip(rng.gamma(3, 2.2, n) + 17, 17, 60).round()
adm = np.round(rng.normal(127, 14, n), 1)
adm[rng.random(n) < 0.06] = np.nan
schol = rng.binomial(1, 0.25, n)
debt = rng.binomial(1, 0.11, n)
lo = -1.1 + 0.06 * (age - 23) - 0.025 * (np.nan_to_num(adm, nan=127) - 127) - 0.7 * schol + debt
enr = pd.DataFrame({"course": course, "age_at_enrollment": age, "admission_grade": adm,
                    "scholarship_holder": schol, "debtor": debt,
                    "dropout": rng.binomial(1, 1 / (1 + np.exp(-lo)))})
''',
        code='''print(enr.isna().sum()[lambda s: s > 0].to_dict(), enr["dropout"].mean().round(3))
X, y = enr.drop(columns="dropout"), enr["dropout"]

num = ["age_at_enrollment", "admission_grade", "scholarship_holder", "debtor"]
pre = ColumnTransformer([
    ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), num),
    ("cat", OneHotEncoder(handle_unknown="ignore"), ["course"]),
])
clf = Pipeline([("pre", pre), ("lr", LogisticRegression(max_iter=1000))])
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
auc = cross_val_score(clf, X, y, cv=cv, scoring="roc_auc")
print(f"ROC AUC {auc.mean():.3f} +/- {auc.std():.3f} (5-fold, stratified)")
pd.Series(auc, index=[f"fold{i}" for i in range(1, 6)]).round(3)
''',
        note="Enrolment-time features only; imputation, scaling and encoding sit inside the "
             "pipeline so each CV fold fits them on its own training part; seeded folds.",
        split="holdout15",
    ),
    Case(
        id="h15-sound-returns-rate-wilson",
        family=None,
        setup='''
import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

rng = np.random.default_rng(93)
n = 5200
cat = rng.choice(["apparel", "shoes", "electronics", "home", "beauty", "toys"], n,
                 p=[.3, .15, .15, .18, .12, .1])
rate = pd.Series(cat).map({"apparel": .24, "shoes": .19, "electronics": .08, "home": .07,
                           "beauty": .04, "toys": .06}).values
orders = pd.DataFrame({"order_id": np.arange(100000, 100000 + n), "category": cat,
                       "basket_eur": np.round(rng.lognormal(3.7, 0.7, n), 2),
                       "returned": rng.binomial(1, rate)})
''',
        code='''r = (orders.groupby("category")["returned"]
           .agg(orders="size", returns="sum")
           .assign(rate=lambda d: d["returns"] / d["orders"]))
lo, hi = proportion_confint(r["returns"], r["orders"], alpha=0.05, method="wilson")
r = r.assign(ci_low=lo, ci_high=hi).sort_values("rate", ascending=False)

print(f"{len(orders)} orders, overall return rate {orders['returned'].mean():.3f}")
r.round(3)
''',
        note="Descriptive return rates per category with Wilson 95% intervals and the counts "
             "behind them; no tests or claims beyond description.",
        split="holdout15",
    ),
    Case(
        id="h15-sound-houseprices-ridge-holdout",
        family=None,
        setup='''
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import RidgeCV
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

rng = np.random.default_rng(94)
n = 1460
nb = rng.choice(["NAmes", "CollgCr", "OldTown", "Edwards", "Somerst", "NridgHt", "Gilbert"], n)
area = np.round(rng.lognormal(7.3, 0.33, n))
qual = np.clip(np.round(rng.normal(6.1, 1.4, n)), 1, 10)
yr = rng.integers(1900, 2010, n)
lot = np.round(rng.lognormal(9.1, 0.45, n))
front = np.where(rng.random(n) < 0.18, np.nan, np.round(rng.normal(70, 20, n)).clip(21))
prem = pd.Series(nb).map({"NridgHt": .25, "Somerst": .15, "OldTown": -.15,
                          "Edwards": -.12}).fillna(0).values
lp = (11.2 + 0.55 * np.log(area / 1500) + 0.1 * (qual - 6) + 0.003 * (yr - 1970)
      + 0.08 * np.log(lot / 9000) + prem + rng.normal(0, 0.13, n))
house = pd.DataFrame({"Neighborhood": nb, "GrLivArea": area, "OverallQual": qual,
                      "YearBuilt": yr, "LotArea": lot, "LotFrontage": front,
                      "SalePrice": np.round(np.exp(lp), -2)})
''',
        code='''X = house.drop(columns="SalePrice")
y = np.log(house["SalePrice"])
num = ["GrLivArea", "OverallQual", "YearBuilt", "LotArea", "LotFrontage"]

pre = ColumnTransformer([
    ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), num),
    ("cat", OneHotEncoder(handle_unknown="ignore"), ["Neighborhood"]),
])
model = Pipeline([("pre", pre), ("ridge", RidgeCV(alphas=np.logspace(-3, 3, 25)))])
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=1)
model.fit(X_tr, y_tr)

rmse = mean_squared_error(y_te, model.predict(X_te)) ** 0.5
res = {"alpha": model.named_steps["ridge"].alpha_, "rmse_log_test": round(rmse, 4),
       "n_train": len(X_tr), "n_test": len(X_te)}
print(res)
res
''',
        note="Imputation, scaling and encoding in a pipeline; ridge alpha chosen by internal "
             "CV on the training part only; the held-out set is scored once.",
        split="holdout15",
    ),
]
