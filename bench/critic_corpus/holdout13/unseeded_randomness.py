from bench.critic_corpus import Case

SPLIT = "holdout13"

CDR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n = 4000
cdr = pd.DataFrame({
    "call_id": [f"C{10**8 + i}" for i in range(n)],
    "cell_site": rng.choice([f"SITE{k:03d}" for k in range(1, 61)], n),
    "core": rng.choice(["legacy_MSC", "volte_IMS"], n, p=[0.55, 0.45]),
    "call_type": rng.choice(["MO", "MT"], n),
    "hour": rng.integers(0, 24, n),
})
setup_ms = np.where(cdr["core"] == "volte_IMS",
                    rng.lognormal(np.log(1900), 0.45, n), rng.lognormal(np.log(2300), 0.5, n))
slow = rng.random(n) < 0.02  # re-attempts after paging timeout
setup_ms[slow] += rng.uniform(8000, 20000, slow.sum())
cdr["setup_ms"] = setup_ms.round()
cdr["dropped"] = (rng.random(n) < np.where(cdr["core"] == "volte_IMS", 0.011, 0.016))
'''

CDR_FLAWED = '''
def p95(x):
    return np.percentile(x, 95)

def boot_ci(a, b, stat, n_boot=2000, level=0.95):
    rng = np.random.default_rng()
    diffs = np.empty(n_boot)
    for i in range(n_boot):
        diffs[i] = stat(rng.choice(a, len(a))) - stat(rng.choice(b, len(b)))
    tail = (1 - level) / 2 * 100
    return np.percentile(diffs, [tail, 100 - tail])

volte = cdr.loc[cdr["core"] == "volte_IMS", "setup_ms"].to_numpy()
legacy = cdr.loc[cdr["core"] == "legacy_MSC", "setup_ms"].to_numpy()

summary = cdr.groupby("core").agg(
    calls=("call_id", "count"),
    median_setup_ms=("setup_ms", "median"),
    p95_setup_ms=("setup_ms", p95),
    drop_rate=("dropped", "mean"),
)
print("Call setup time by core network (sampled CDRs, week 41)")
print(summary.round(3).to_string())

rows = []
for name, stat in [("median", np.median), ("p95", p95)]:
    lo, hi = boot_ci(volte, legacy, stat)
    rows.append({"statistic": name, "volte_minus_legacy_ms": stat(volte) - stat(legacy),
                 "ci_low": lo, "ci_high": hi})
res = pd.DataFrame(rows).set_index("statistic")
print("\\nVoLTE minus legacy, bootstrap 95% CI (2000 resamples)")
print(res.round(1).to_string())
gain = -res.loc["p95", "volte_minus_legacy_ms"]
print(f"\\nVoLTE cuts 95th-percentile setup time by {gain:.0f} ms "
      f"(CI {-res.loc['p95', 'ci_high']:.0f} to {-res.loc['p95', 'ci_low']:.0f} ms); "
      "figure goes into the migration business case.")
'''

CDR_SOUND = CDR_FLAWED.replace(
    "def boot_ci(a, b, stat, n_boot=2000, level=0.95):\n    rng = np.random.default_rng()",
    "def boot_ci(a, b, stat, n_boot=2000, level=0.95, seed=20241014):\n"
    "    rng = np.random.default_rng(seed)",
)

FISH_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1357)
n = 900
hauls = pd.DataFrame({
    "haul_id": [f"H{2023}{i:05d}" for i in range(n)],
    "vessel": rng.choice(["FV Skerry", "FV Morven", "FV Aurora", "FV Kittiwake",
                          "FV Solan"], n),
    "ices_rect": rng.choice(["44E8", "44E9", "45E8", "45E9", "46E7", "46E8"], n),
    "month": rng.integers(1, 13, n),
    "depth_m": rng.uniform(40, 220, n).round(),
    "tow_hours": rng.uniform(1.5, 6, n).round(2),
    "sst_c": rng.normal(10.5, 1.8, n).round(2),
    "mesh_mm": rng.choice([80, 100, 120], n, p=[0.3, 0.5, 0.2]),
})
rect = hauls["ices_rect"].map({"44E8": 0.2, "44E9": 0.0, "45E8": 0.35, "45E9": -0.1,
                               "46E7": 0.5, "46E8": 0.15})
hauls["catch_kg"] = np.round(
    hauls["tow_hours"] * np.exp(5.2 + rect + 0.004 * hauls["depth_m"]
                                - 0.05 * (hauls["sst_c"] - 10) ** 2
                                - 0.004 * (hauls["mesh_mm"] - 100)
                                + 0.25 * np.sin(hauls["month"] / 12 * 2 * np.pi)
                                + rng.normal(0, 0.55, n)), 1)
'''

FISH_FLAWED = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import train_test_split

df = pd.get_dummies(hauls, columns=["ices_rect", "vessel"], dtype=float)
df["month_sin"] = np.sin(df["month"] / 12 * 2 * np.pi)
df["month_cos"] = np.cos(df["month"] / 12 * 2 * np.pi)
y = np.log(df["catch_kg"] / df["tow_hours"])
X = df.drop(columns=["haul_id", "catch_kg", "month"])

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25)
rf = RandomForestRegressor(n_estimators=150, min_samples_leaf=3, max_features=0.5,
                           n_jobs=1)
rf.fit(X_tr, y_tr)
pred = rf.predict(X_te)

r2 = r2_score(y_te, pred)
mae_log = mean_absolute_error(y_te, pred)
cpue_te = np.exp(y_te)
cpue_pred = np.exp(pred)
mape = np.median(np.abs(cpue_pred - cpue_te) / cpue_te)

print(f"Hauls: {len(df)} (train {len(X_tr)}, test {len(X_te)})")
print(f"Test R^2 on log CPUE    : {r2:.3f}")
print(f"Test MAE on log CPUE    : {mae_log:.3f}")
print(f"Median abs % error, CPUE: {mape:.1%}")

imp = pd.Series(rf.feature_importances_, index=X.columns)
grouped = imp.groupby(lambda c: c.split("_")[0] if c.startswith(("ices", "vessel"))
                      else c).sum().sort_values(ascending=False)
print("\\nImpurity importance (dummies grouped)")
print(grouped.round(3).to_string())
print(f"\\nStandardisation model explains {r2:.0%} of variance in log CPUE; "
      "used for the 2024 stock-index submission.")
'''

FISH_SOUND = FISH_FLAWED.replace(
    "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25)",
    "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=2024)",
).replace(
    "                           n_jobs=1)",
    "                           n_jobs=1, random_state=17)",
)

CASES: list[Case] = [
    Case(
        id="h13-unseeded-cdr-bootstrap-default-rng",
        family="unseeded_randomness",
        code=CDR_FLAWED,
        setup=CDR_SETUP,
        twin="h13-unseeded-cdr-bootstrap-seeded",
        note="The bootstrap helper builds np.random.default_rng() with no seed, so the CIs "
             "quoted for the business case change on every run.",
        split=SPLIT,
    ),
    Case(
        id="h13-unseeded-cdr-bootstrap-seeded",
        family=None,
        code=CDR_SOUND,
        setup=CDR_SETUP,
        twin="h13-unseeded-cdr-bootstrap-default-rng",
        note="Same bootstrap with a fixed seed, so the reported CIs are reproducible.",
        split=SPLIT,
    ),
    Case(
        id="h13-unseeded-fisheries-rf-split-and-forest",
        family="unseeded_randomness",
        code=FISH_FLAWED,
        setup=FISH_SETUP,
        twin="h13-unseeded-fisheries-rf-seeded",
        note="train_test_split and the random forest have no random_state, so the R^2 quoted "
             "for the stock-index submission varies run to run.",
        split=SPLIT,
    ),
    Case(
        id="h13-unseeded-fisheries-rf-seeded",
        family=None,
        code=FISH_SOUND,
        setup=FISH_SETUP,
        twin="h13-unseeded-fisheries-rf-split-and-forest",
        note="Split and forest are seeded; the reported hold-out metrics are reproducible.",
        split=SPLIT,
    ),
]
