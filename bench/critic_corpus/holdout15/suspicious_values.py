from bench.critic_corpus import Case

_CHURN = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(19)
n = 3000
att = rng.binomial(1, 0.16, n)
age = np.clip(np.round(rng.normal(46, 8, n)), 26, 73)
age = np.where(rng.random(n) < np.where(att == 1, 0.035, 0.008), 999, age).astype(int)
mob = np.clip(np.round(rng.normal(36, 8, n)), 13, 56).astype(int)
util = np.round(np.where(att == 1, rng.beta(1.2, 4, n), rng.beta(2, 4, n)), 3)
cc = pd.DataFrame({
    "CLIENTNUM": rng.integers(708000000, 828000000, n),
    "Attrition_Flag": np.where(att == 1, "Attrited Customer", "Existing Customer"),
    "Customer_Age": age, "Months_on_book": mob,
    "Credit_Limit": np.round(np.exp(rng.normal(8.8, 0.8, n)), 0),
    "Avg_Utilization_Ratio": util,
    "Total_Trans_Ct": np.clip(np.round(rng.normal(np.where(att == 1, 45, 68), 20)), 10, 139),
})
'''

_CARS = '''
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(23)
n = 1500
age = rng.integers(1, 16, n)
km = np.round(np.clip(rng.normal(15000, 5000, n), 1000, None) * age, -2)
price = np.round(np.exp(10.2 - 0.09 * age + rng.normal(0, 0.35, n)), -1)
gap = rng.normal(0, 0.12, n) - 0.05
ask = np.round(price * (1 + gap), -1)
lo = 0.6 - 14 * gap - 0.08 * (age - 7) + rng.normal(0, 0.4, n)
listings = pd.DataFrame({
    "listing_id": np.arange(500000, 500000 + n), "age_years": age, "mileage_km": km,
    "ask_price": ask, "price_vs_market": np.round(gap, 3),
    "photos": rng.integers(1, 25, n),
    "sold_30d": rng.binomial(1, 1 / (1 + np.exp(-lo))),
})
'''

CASES: list[Case] = [
    Case(
        id="h15-suspicious-churn-age-999-averaged",
        family="suspicious_values",
        setup=_CHURN,
        code='''num = ["Customer_Age", "Months_on_book", "Credit_Limit", "Avg_Utilization_Ratio",
       "Total_Trans_Ct"]
print(cc[num].describe().T.round(2))

prof = cc.groupby("Attrition_Flag")[num].mean().T.round(2)
prof["diff"] = prof["Attrited Customer"] - prof["Existing Customer"]
print("Attrited customers are on average "
      f"{prof.loc['Customer_Age', 'diff']:.1f} years older than existing ones")
prof
''',
        twin="h15-suspicious-churn-age-999-averaged-ok",
        note="Customer_Age contains 999 placeholder codes (max 999 in describe) that are "
             "averaged in, producing a spurious age gap for attrited customers.",
        split="holdout15",
    ),
    Case(
        id="h15-suspicious-churn-age-999-averaged-ok",
        family=None,
        setup=_CHURN,
        code='''num = ["Customer_Age", "Months_on_book", "Credit_Limit", "Avg_Utilization_Ratio",
       "Total_Trans_Ct"]
bad = cc["Customer_Age"].gt(100)
print(f"Customer_Age placeholder 999: {bad.sum()} rows -> set to NaN")
print(cc.loc[bad, "Attrition_Flag"].value_counts().to_dict())
df = cc.assign(Customer_Age=cc["Customer_Age"].mask(bad))
print(df[num].describe().T.round(2))

prof = df.groupby("Attrition_Flag")[num].mean().T.round(2)
prof["diff"] = prof["Attrited Customer"] - prof["Existing Customer"]
print("Attrited customers are on average "
      f"{prof.loc['Customer_Age', 'diff']:.1f} years older than existing ones (known ages)")
prof
''',
        twin="h15-suspicious-churn-age-999-averaged",
        note="999 age codes are flagged, counted by group and set to missing before the "
             "group means are computed.",
        split="holdout15",
    ),
    Case(
        id="h15-suspicious-cars-linear-prob-sale",
        family="suspicious_values",
        setup=_CARS,
        code='''X = listings[["age_years", "mileage_km", "price_vs_market", "photos"]]
y = listings["sold_30d"]
lm = make_pipeline(StandardScaler(), LinearRegression()).fit(X, y)

listings["p_sell_30d"] = lm.predict(X)
print(listings["p_sell_30d"].describe().round(3))
print(f"mean predicted probability {listings['p_sell_30d'].mean():.3f} "
      f"vs observed rate {y.mean():.3f}")
(listings.nlargest(5, "p_sell_30d")
         [["listing_id", "age_years", "ask_price", "price_vs_market", "p_sell_30d"]]
         .round(3))
''',
        twin="h15-suspicious-cars-linear-prob-sale-ok",
        note="A linear regression on a 0/1 outcome is reported as a probability of sale; "
             "its predictions run below 0 and above 1 and are shown without comment.",
        split="holdout15",
    ),
    Case(
        id="h15-suspicious-cars-linear-prob-sale-ok",
        family=None,
        setup=_CARS,
        code='''X = listings[["age_years", "mileage_km", "price_vs_market", "photos"]]
y = listings["sold_30d"]
clf = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X, y)

listings["p_sell_30d"] = clf.predict_proba(X)[:, 1]
print(listings["p_sell_30d"].describe().round(3))
print(f"mean predicted probability {listings['p_sell_30d'].mean():.3f} "
      f"vs observed rate {y.mean():.3f}")
(listings.nlargest(5, "p_sell_30d")
         [["listing_id", "age_years", "ask_price", "price_vs_market", "p_sell_30d"]]
         .round(3))
''',
        twin="h15-suspicious-cars-linear-prob-sale",
        note="Logistic regression gives fitted sale probabilities that stay inside [0, 1]; "
             "it is a descriptive scoring of current listings.",
        split="holdout15",
    ),
]
