from bench.critic_corpus import Case

_TEL = '''
import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import f1_score, accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

rng = np.random.default_rng(50)
n = 1400
ctype = rng.choice(["billing", "network", "roaming", "device", "contract", "porting"], n,
                   p=[.3, .25, .1, .15, .12, .08])
chan = rng.choice(["phone", "email", "app", "store", "social"], n)
tenure = rng.integers(1, 120, n)
prior = rng.poisson(0.8, n)
wait = np.round(rng.gamma(2, 9, n), 1)
lo = (-2.0 + 0.7 * (ctype == "contract") + 0.9 * (ctype == "porting") + 0.45 * prior
      + 0.03 * wait + 0.8 * (chan == "social") - 0.004 * tenure)
tk = pd.DataFrame({"complaint_type": ctype, "channel": chan, "tenure_months": tenure,
                   "prior_complaints_90d": prior, "first_response_min": wait,
                   "escalated": rng.binomial(1, 1 / (1 + np.exp(-lo)))})
'''

_BIKE = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(73)
dates = pd.date_range("2012-04-01", periods=84, freq="D")
wknd = dates.day_of_week >= 5
temp = np.round(18 + 6 * np.sin(np.arange(84) / 13) + rng.normal(0, 3, 84), 1)
cas = np.round(rng.normal(900 + 230 * wknd + 35 * (temp - 18), 420)).clip(60)
daily = pd.DataFrame({"dteday": dates, "weekend": wknd.astype(int), "temp_c": temp,
                      "casual": cas.astype(int)})
'''

CASES: list[Case] = [
    Case(
        id="h15-unseeded-telecom-rf-split",
        family="unseeded_randomness",
        setup=_TEL,
        code='''X, y = tk.drop(columns="escalated"), tk["escalated"]
print(y.value_counts().to_dict())

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y)
ct = make_column_transformer((OneHotEncoder(handle_unknown="ignore"),
                              ["complaint_type", "channel"]), remainder="passthrough")
model = make_pipeline(ct, RandomForestClassifier(n_estimators=200, min_samples_leaf=5,
                                                 class_weight="balanced"))
model.fit(X_tr, y_tr)
pred = model.predict(X_te)

res = {"accuracy": round(accuracy_score(y_te, pred), 4), "f1": round(f1_score(y_te, pred), 4)}
print(res)
res
''',
        twin="h15-unseeded-telecom-rf-split-ok",
        note="Neither the train/test split nor the random forest has a random_state, so the "
             "reported accuracy and F1 change on every run.",
        split="holdout15",
    ),
    Case(
        id="h15-unseeded-telecom-rf-split-ok",
        family=None,
        setup=_TEL,
        code='''X, y = tk.drop(columns="escalated"), tk["escalated"]
print(y.value_counts().to_dict())

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=42)
ct = make_column_transformer((OneHotEncoder(handle_unknown="ignore"),
                              ["complaint_type", "channel"]), remainder="passthrough")
model = make_pipeline(ct, RandomForestClassifier(n_estimators=200, min_samples_leaf=5,
                                                 class_weight="balanced", random_state=42))
model.fit(X_tr, y_tr)
pred = model.predict(X_te)

res = {"accuracy": round(accuracy_score(y_te, pred), 4), "f1": round(f1_score(y_te, pred), 4)}
print(res)
res
''',
        twin="h15-unseeded-telecom-rf-split",
        note="Split and forest are both seeded, so the reported metrics are reproducible.",
        split="holdout15",
    ),
    Case(
        id="h15-unseeded-bike-permutation-weekend",
        family="unseeded_randomness",
        setup=_BIKE,
        code='''obs = daily.groupby("weekend")["casual"].mean().diff().iloc[-1]
x, g = daily["casual"].to_numpy(), daily["weekend"].to_numpy()

perm = np.empty(5000)
for i in range(5000):
    s = np.random.permutation(g)
    perm[i] = x[s == 1].mean() - x[s == 0].mean()
p = (np.sum(np.abs(perm) >= abs(obs)) + 1) / (len(perm) + 1)

print(f"weekend - weekday casual riders: {obs:.1f} per day, permutation p = {p:.4f}")
{"diff": round(obs, 1), "p_perm": round(p, 4), "n_days": len(daily)}
''',
        twin="h15-unseeded-bike-permutation-weekend-ok",
        note="Permutation test draws from numpy's unseeded global RNG, so the reported "
             "p-value (near 0.05) shifts from run to run.",
        split="holdout15",
    ),
    Case(
        id="h15-unseeded-bike-permutation-weekend-ok",
        family=None,
        setup=_BIKE,
        code='''obs = daily.groupby("weekend")["casual"].mean().diff().iloc[-1]
x, g = daily["casual"].to_numpy(), daily["weekend"].to_numpy()

rng = np.random.default_rng(2012)
perm = np.empty(5000)
for i in range(5000):
    s = rng.permutation(g)
    perm[i] = x[s == 1].mean() - x[s == 0].mean()
p = (np.sum(np.abs(perm) >= abs(obs)) + 1) / (len(perm) + 1)

print(f"weekend - weekday casual riders: {obs:.1f} per day, permutation p = {p:.4f}")
{"diff": round(obs, 1), "p_perm": round(p, 4), "n_days": len(daily)}
''',
        twin="h15-unseeded-bike-permutation-weekend",
        note="Same permutation test with a seeded Generator; the p-value is reproducible.",
        split="holdout15",
    ),
]
