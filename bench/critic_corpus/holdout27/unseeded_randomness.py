from bench.critic_corpus import Case

_BEET_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n = 140
beet = pd.DataFrame({
    "field": rng.choice(["Top Fen", "Long Drove", "Mill Farm", "Ashby"], n),
    "s2_ndvi_jul": rng.normal(0.78, 0.06, n).round(3),
    "s2_ndre_aug": rng.normal(0.41, 0.05, n).round(3),
    "sowing_doy": rng.integers(75, 115, n),
    "clay_pct": rng.normal(22, 6, n).round(1),
    "awc_mm": rng.normal(150, 30, n).round(0),
    "rhizomania_risk": rng.integers(0, 3, n),
})
beet["root_yield_t_ha"] = (
    78 + 90 * (beet["s2_ndvi_jul"] - 0.78) + 70 * (beet["s2_ndre_aug"] - 0.41)
    - 0.25 * (beet["sowing_doy"] - 95) + 0.05 * (beet["awc_mm"] - 150)
    - 3 * beet["rhizomania_risk"] + rng.normal(0, 6, n)
).round(1)
features = ["s2_ndvi_jul", "s2_ndre_aug", "sowing_doy", "clay_pct", "awc_mm", "rhizomania_risk"]
beet.head()
"""

_STRIP_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(3003)
farms = [f"FARM{i:02d}" for i in range(1, 27)]
base = rng.normal(9.2, 1.1, len(farms))
resp = rng.normal(0.12, 0.32, len(farms))
strips = pd.DataFrame({
    "farm": farms,
    "region": rng.choice(["East", "Midlands", "South"], len(farms)),
    "control_t_ha": base.round(2),
    "inoculant_t_ha": (base + resp + rng.normal(0, 0.1, len(farms))).round(2),
})
strips["diff_t_ha"] = strips["inoculant_t_ha"] - strips["control_t_ha"]
strips.describe().round(2)
"""

CASES: list[Case] = [
    Case(
        id="h27-unseeded-randomness-beet-rf-split",
        family="unseeded_randomness",
        setup=_BEET_SETUP,
        code="""
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from sklearn.metrics import r2_score, mean_squared_error

X_train, X_test, y_train, y_test = train_test_split(
    beet[features], beet["root_yield_t_ha"], test_size=0.25)
rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=3)
rf.fit(X_train, y_train)
pred = rf.predict(X_test)

print(f"Sugar beet root yield model: R2 = {r2_score(y_test, pred):.3f}, "
      f"RMSE = {mean_squared_error(y_test, pred) ** 0.5:.2f} t/ha")
imp = pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False)
print(imp.round(3))
""",
        twin="h27-unseeded-randomness-beet-rf-seeded",
        note="Neither the train/test split nor the random forest has a random_state, so the "
             "reported R2, RMSE and importance ranking change every time the cell is run.",
        split="holdout27",
    ),
    Case(
        id="h27-unseeded-randomness-beet-rf-seeded",
        family=None,
        setup=_BEET_SETUP,
        code="""
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from sklearn.metrics import r2_score, mean_squared_error

SEED = 2024
X_train, X_test, y_train, y_test = train_test_split(
    beet[features], beet["root_yield_t_ha"], test_size=0.25, random_state=SEED)
rf = RandomForestRegressor(n_estimators=200, min_samples_leaf=3, random_state=SEED)
rf.fit(X_train, y_train)
pred = rf.predict(X_test)

print(f"Sugar beet root yield model: R2 = {r2_score(y_test, pred):.3f}, "
      f"RMSE = {mean_squared_error(y_test, pred) ** 0.5:.2f} t/ha")
imp = pd.Series(rf.feature_importances_, index=features).sort_values(ascending=False)
print(imp.round(3))
""",
        twin="h27-unseeded-randomness-beet-rf-split",
        note="The split and the forest are seeded, so the reported R2, RMSE and importances "
             "are reproducible.",
        split="holdout27",
    ),
    Case(
        id="h27-unseeded-randomness-strip-trial-bootstrap",
        family="unseeded_randomness",
        setup=_STRIP_SETUP,
        code="""
B = 2000
boot_means = np.array([
    strips.sample(frac=1, replace=True)["diff_t_ha"].mean() for _ in range(B)
])
lo, hi = np.percentile(boot_means, [2.5, 97.5])
print(f"{len(strips)} on-farm strip pairs, mean response {strips['diff_t_ha'].mean():+.3f} t/ha")
print(f"bootstrap 95% CI: {lo:+.3f} to {hi:+.3f} t/ha")
print(f"P(response > 0) = {(boot_means > 0).mean():.3f}")
""",
        twin="h27-unseeded-randomness-strip-trial-bootstrap-seeded",
        note="The farm-level bootstrap uses DataFrame.sample without a random_state, so the "
             "reported CI limits and P(response > 0) change on every run.",
        split="holdout27",
    ),
    Case(
        id="h27-unseeded-randomness-strip-trial-bootstrap-seeded",
        family=None,
        setup=_STRIP_SETUP,
        code="""
B = 2000
rng = np.random.default_rng(20240917)
boot_means = np.array([
    strips.sample(frac=1, replace=True, random_state=rng)["diff_t_ha"].mean() for _ in range(B)
])
lo, hi = np.percentile(boot_means, [2.5, 97.5])
print(f"{len(strips)} on-farm strip pairs, mean response {strips['diff_t_ha'].mean():+.3f} t/ha")
print(f"bootstrap 95% CI: {lo:+.3f} to {hi:+.3f} t/ha")
print(f"P(response > 0) = {(boot_means > 0).mean():.3f}")
""",
        twin="h27-unseeded-randomness-strip-trial-bootstrap",
        note="The same farm-level bootstrap draws from a seeded Generator, so the CI and "
             "proportion are reproducible.",
        split="holdout27",
    ),
]
