from bench.critic_corpus import Case

_BLANK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3319)
# ICP-MS, Cd-111, procedural blanks over 3 weeks (ug/L, blank-corrected to the cal blank)
blanks = pd.DataFrame({
    "run": np.repeat(["R0412", "R0415", "R0419", "R0423", "R0426"], 5),
    "cd_ugL": (0.004 + rng.gamma(2.0, 0.0035, 25) - 0.006).round(4),
})
slope_cps_per_ugL = 18650.0
blanks.describe().T
'''

_OCTANE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3320)
n = 150
comp = pd.DataFrame({
    "paraffins_vol": rng.uniform(8, 18, n),
    "isoparaffins_vol": rng.uniform(25, 45, n),
    "olefins_vol": rng.uniform(2, 15, n),
    "naphthenes_vol": rng.uniform(4, 12, n),
    "aromatics_vol": rng.uniform(18, 35, n),
    "oxygenates_vol": rng.choice([0.0, 5.0, 10.0], n),
    "benzene_vol": rng.uniform(0.3, 1.0, n),
})
ron = (62 + 0.45 * comp.isoparaffins_vol + 0.55 * comp.aromatics_vol + 0.3 * comp.olefins_vol
       - 0.6 * comp.paraffins_vol + 0.6 * comp.oxygenates_vol
       + 0.002 * comp.aromatics_vol ** 2 + rng.normal(0, 0.6, n))
comp["RON"] = ron.round(1)
'''

CASES: list[Case] = [
    Case(
        id="h33-unseeded-randomness-lod-bootstrap-np-random",
        family="unseeded_randomness",
        setup=_BLANK_SETUP,
        code='''
x = blanks["cd_ugL"].to_numpy()
lod = 3 * x.std(ddof=1)

boot = []
for _ in range(2000):
    xb = np.random.choice(x, size=len(x), replace=True)
    boot.append(3 * xb.std(ddof=1))
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"n blanks = {len(x)}, mean = {x.mean():.4f} ug/L")
print(f"LOD (3 s_blank) = {lod:.4f} ug/L   95% bootstrap CI {lo:.4f} - {hi:.4f} ug/L")
print(f"LOQ (10 s_blank) = {10 * x.std(ddof=1):.4f} ug/L")
''',
        twin="h33-unseeded-randomness-lod-bootstrap-seeded-sound",
        note="The bootstrap CI for the LOD uses np.random.choice with no seed, so the reported "
             "interval limits change every time the cell is run.",
        split="holdout33",
    ),
    Case(
        id="h33-unseeded-randomness-lod-bootstrap-seeded-sound",
        family=None,
        setup=_BLANK_SETUP,
        code='''
x = blanks["cd_ugL"].to_numpy()
lod = 3 * x.std(ddof=1)

rng_boot = np.random.default_rng(20240426)
idx = rng_boot.integers(0, len(x), size=(2000, len(x)))
boot = 3 * x[idx].std(axis=1, ddof=1)
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"n blanks = {len(x)}, mean = {x.mean():.4f} ug/L")
print(f"LOD (3 s_blank) = {lod:.4f} ug/L   95% bootstrap CI {lo:.4f} - {hi:.4f} ug/L"
      " (2000 resamples, seed 20240426)")
print(f"LOQ (10 s_blank) = {10 * x.std(ddof=1):.4f} ug/L")
''',
        twin="h33-unseeded-randomness-lod-bootstrap-np-random",
        note="Same percentile bootstrap for the LOD with a seeded Generator, so the reported "
             "interval is reproducible.",
        split="holdout33",
    ),
    Case(
        id="h33-unseeded-randomness-ron-random-forest-unseeded-split",
        family="unseeded_randomness",
        setup=_OCTANE_SETUP,
        code='''
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_absolute_error, r2_score

X = comp.drop(columns="RON")
y = comp["RON"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25)

rf = RandomForestRegressor(n_estimators=150, max_features=0.5)
rf.fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"RON from GC-PIONA, random forest: R2 = {r2_score(y_te, pred):.3f}, "
      f"MAE = {mean_absolute_error(y_te, pred):.2f} octane numbers (n test = {len(y_te)})")
''',
        twin="h33-unseeded-randomness-ron-random-forest-seeded-sound",
        note="Neither train_test_split nor the random forest has a random_state, so the reported "
             "R2 and MAE change from run to run.",
        split="holdout33",
    ),
    Case(
        id="h33-unseeded-randomness-ron-random-forest-seeded-sound",
        family=None,
        setup=_OCTANE_SETUP,
        code='''
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_absolute_error, r2_score

X = comp.drop(columns="RON")
y = comp["RON"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=17)

rf = RandomForestRegressor(n_estimators=150, max_features=0.5, random_state=17)
rf.fit(X_tr, y_tr)
pred = rf.predict(X_te)
print(f"RON from GC-PIONA, random forest: R2 = {r2_score(y_te, pred):.3f}, "
      f"MAE = {mean_absolute_error(y_te, pred):.2f} octane numbers (n test = {len(y_te)})")
''',
        twin="h33-unseeded-randomness-ron-random-forest-unseeded-split",
        note="Split and forest are both seeded, so the held-out R2 and MAE are reproducible.",
        split="holdout33",
    ),
]
