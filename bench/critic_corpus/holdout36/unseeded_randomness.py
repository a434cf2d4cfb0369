from bench.critic_corpus import Case

_BIKESHARE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3691)
n = 4000
ebike = rng.random(n) < 0.38
dist_km = rng.lognormal(np.log(2.4), 0.6, n) * np.where(ebike, 1.25, 1.0)
speed = np.where(ebike, rng.normal(17.5, 3, n), rng.normal(13.0, 2.5, n)).clip(6)
bs = pd.DataFrame({
    "ride_id": [f"R{i:07d}" for i in range(n)],
    "rideable_type": np.where(ebike, "electric_bike", "classic_bike"),
    "member_casual": rng.choice(["member", "casual"], n, p=[0.64, 0.36]),
    "duration_min": np.round(3600 * dist_km / speed + rng.exponential(90, n)) / 60,
})
'''

_MODE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3692)
n = 1600
survey = pd.DataFrame({
    "dist_km": np.round(rng.lognormal(1.5, 0.8, n), 1),
    "cars_per_adult": np.round(rng.choice([0, 0.5, 1, 1.5], n, p=[.2, .3, .45, .05]), 1),
    "transit_pass": rng.binomial(1, 0.3, n),
    "parking_cost": np.round(rng.choice([0, 0, 0, 4, 8, 15], n), 0),
    "age": rng.integers(18, 80, n),
    "bike_owner": rng.binomial(1, 0.45, n),
})
u_car = 0.8 + 1.6 * survey["cars_per_adult"] - 0.12 * survey["parking_cost"]
u_pt = -0.3 + 1.4 * survey["transit_pass"] + 0.04 * survey["dist_km"]
u_bike = (0.2 + 1.2 * survey["bike_owner"] - 0.35 * survey["dist_km"]
          - 0.02 * (survey["age"] - 40))
U = np.column_stack([u_car, u_pt, u_bike]) + rng.gumbel(size=(n, 3))
survey["mode"] = np.array(["car", "transit", "bike"])[U.argmax(axis=1)]
'''

CASES = [
    Case(
        id="h36-ur-bikeshare-bootstrap",
        family="unseeded_randomness",
        twin="h36-ur-bikeshare-bootstrap-ok",
        setup=_BIKESHARE_SETUP,
        code='''
e = bs.loc[bs["rideable_type"] == "electric_bike", "duration_min"].to_numpy()
c = bs.loc[bs["rideable_type"] == "classic_bike", "duration_min"].to_numpy()

boot = np.array([
    np.median(np.random.choice(e, e.size)) - np.median(np.random.choice(c, c.size))
    for _ in range(2000)
])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"median ride: e-bike {np.median(e):.1f} min, classic {np.median(c):.1f} min")
print(f"difference in medians {np.median(e) - np.median(c):+.2f} min, "
      f"bootstrap 95% CI [{lo:+.3f}, {hi:+.3f}]")
''',
        note="Bootstrap CI is drawn with unseeded np.random.choice, so the reported interval "
             "changes on every run.",
        split="holdout36",
    ),
    Case(
        id="h36-ur-bikeshare-bootstrap-ok",
        family=None,
        twin="h36-ur-bikeshare-bootstrap",
        setup=_BIKESHARE_SETUP,
        code='''
e = bs.loc[bs["rideable_type"] == "electric_bike", "duration_min"].to_numpy()
c = bs.loc[bs["rideable_type"] == "classic_bike", "duration_min"].to_numpy()

boot_rng = np.random.default_rng(20240601)   # fixed seed: the CI is reproducible
boot = np.array([
    np.median(boot_rng.choice(e, e.size)) - np.median(boot_rng.choice(c, c.size))
    for _ in range(2000)
])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"median ride: e-bike {np.median(e):.1f} min, classic {np.median(c):.1f} min")
print(f"difference in medians {np.median(e) - np.median(c):+.2f} min, "
      f"bootstrap 95% CI [{lo:+.3f}, {hi:+.3f}]")
''',
        note="The bootstrap uses a seeded Generator, so the reported CI is reproducible.",
        split="holdout36",
    ),
    Case(
        id="h36-ur-modechoice-rf",
        family="unseeded_randomness",
        twin="h36-ur-modechoice-rf-ok",
        setup=_MODE_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import accuracy_score, classification_report

X = survey.drop(columns="mode")
y = survey["mode"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y)
rf = RandomForestClassifier(n_estimators=120, min_samples_leaf=5, n_jobs=1).fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"mode choice RF, test accuracy = {accuracy_score(y_te, pred):.3f}")
print(classification_report(y_te, pred, digits=3))
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
''',
        note="train_test_split and the random forest have no random_state, so the reported "
             "accuracy and importances change from run to run.",
        split="holdout36",
    ),
    Case(
        id="h36-ur-modechoice-rf-ok",
        family=None,
        twin="h36-ur-modechoice-rf",
        setup=_MODE_SETUP,
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.metrics import accuracy_score, classification_report

SEED = 36
X = survey.drop(columns="mode")
y = survey["mode"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=SEED)
rf = RandomForestClassifier(n_estimators=120, min_samples_leaf=5, n_jobs=1,
                            random_state=SEED).fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"mode choice RF, test accuracy = {accuracy_score(y_te, pred):.3f}")
print(classification_report(y_te, pred, digits=3))
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).round(3)
''',
        note="Split and forest are seeded, so the reported test accuracy and importances are "
             "reproducible.",
        split="holdout36",
    ),
]
