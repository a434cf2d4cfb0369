from bench.critic_corpus import Case

_HYP_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(3107)
n_zones = 84
wl = np.arange(402, 1002, 2)  # 300 bands, 2 nm
vigour = rng.normal(0, 1, n_zones)
refl = rng.normal(0.0, 1.0, (n_zones, wl.size))
red_edge = (wl >= 700) & (wl <= 740)
refl[:, red_edge] += 0.35 * vigour[:, None]
refl = 0.18 + 0.02 * refl
hyp = pd.DataFrame(refl.round(4), columns=[f"R{w}" for w in wl])
hyp.insert(0, "zone_id", [f"Z{i:03d}" for i in range(1, n_zones + 1)])
hyp.insert(1, "field", rng.choice(["Hillcrest", "Lower Meadow", "Church Piece"], n_zones))
hyp["yield_t_ha"] = (8.6 + 0.35 * vigour + rng.normal(0, 0.9, n_zones)).round(2)
print(hyp.shape)
"""

_BLIGHT_SETUP = """
import numpy as np
import pandas as pd

rng = np.random.default_rng(880)
n = 260
scout = pd.DataFrame({
    "field_id": [f"F{i:04d}" for i in range(n)],
    "hutton_periods": rng.poisson(2.0, n),
    "mean_rh_pct": rng.normal(82, 6, n).round(1),
    "mean_temp_c": rng.normal(15.5, 2.2, n).round(1),
    "days_since_spray": rng.integers(3, 21, n),
    "cultivar_resistance": rng.integers(2, 8, n),
    "irrigated": rng.integers(0, 2, n),
    "canopy_closure_pct": rng.uniform(40, 100, n).round(0),
})
logit = (-2.4 + 0.9 * (scout["hutton_periods"] - 2) + 0.12 * (scout["mean_rh_pct"] - 82)
         + 0.2 * (scout["days_since_spray"] - 11) - 0.6 * (scout["cultivar_resistance"] - 5))
p = 1 / (1 + np.exp(-logit))
scout["blight_confirmed"] = rng.binomial(1, p)
print(scout["blight_confirmed"].value_counts())
"""

CASES: list[Case] = [
    Case(
        id="h27-leakage-hyperspectral-selectkbest-before-split",
        family="leakage",
        setup=_HYP_SETUP,
        code="""
from sklearn.preprocessing import StandardScaler
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.metrics import r2_score, mean_absolute_error

band_cols = [c for c in hyp.columns if c.startswith("R")]
X = hyp[band_cols].to_numpy()
y = hyp["yield_t_ha"].to_numpy()

# standardise bands and keep the 15 most yield-responsive wavelengths
X_std = StandardScaler().fit_transform(X)
selector = SelectKBest(f_regression, k=15).fit(X_std, y)
X_sel = selector.transform(X_std)
best_bands = [band_cols[i] for i in selector.get_support(indices=True)]
print("Bands retained:", ", ".join(best_bands))

X_tr, X_te, y_tr, y_te = train_test_split(X_sel, y, test_size=0.3, random_state=11)
ridge = Ridge(alpha=1.0).fit(X_tr, y_tr)
pred = ridge.predict(X_te)
print(f"Hold-out zones: {len(y_te)}")
print(f"Test R2  = {r2_score(y_te, pred):.3f}")
print(f"Test MAE = {mean_absolute_error(y_te, pred):.2f} t/ha")
""",
        twin="h27-leakage-hyperspectral-selectkbest-in-pipeline",
        note="Scaler and SelectKBest are fit on all zones (using yield) before the train/test "
             "split, so the band selection has seen the hold-out yields and the test R2 is "
             "inflated.",
        split="holdout27",
    ),
    Case(
        id="h27-leakage-hyperspectral-selectkbest-in-pipeline",
        family=None,
        setup=_HYP_SETUP,
        code="""
from sklearn.preprocessing import StandardScaler
from sklearn.feature_selection import SelectKBest, f_regression
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.metrics import r2_score, mean_absolute_error

band_cols = [c for c in hyp.columns if c.startswith("R")]
X = hyp[band_cols].to_numpy()
y = hyp["yield_t_ha"].to_numpy()

X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=11)

# scaling + band selection live inside the pipeline, so they only ever see training zones
model = make_pipeline(StandardScaler(), SelectKBest(f_regression, k=15), Ridge(alpha=1.0))
model.fit(X_tr, y_tr)
support = model.named_steps["selectkbest"].get_support(indices=True)
print("Bands retained:", ", ".join(band_cols[i] for i in support))

pred = model.predict(X_te)
print(f"Hold-out zones: {len(y_te)}")
print(f"Test R2  = {r2_score(y_te, pred):.3f}")
print(f"Test MAE = {mean_absolute_error(y_te, pred):.2f} t/ha")
""",
        twin="h27-leakage-hyperspectral-selectkbest-before-split",
        note="Scaling and band selection are fit inside a pipeline on the training zones only; "
             "the hold-out zones are scored once.",
        split="holdout27",
    ),
    Case(
        id="h27-leakage-blight-oversample-before-cv",
        family="leakage",
        setup=_BLIGHT_SETUP,
        code="""
from sklearn.utils import resample
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_validate

features = ["hutton_periods", "mean_rh_pct", "mean_temp_c", "days_since_spray",
            "cultivar_resistance", "irrigated", "canopy_closure_pct"]

# late blight is rare in the scouting data -> upsample confirmed fields to balance classes
pos = scout[scout["blight_confirmed"] == 1]
neg = scout[scout["blight_confirmed"] == 0]
pos_up = resample(pos, replace=True, n_samples=len(neg), random_state=42)
balanced = pd.concat([neg, pos_up]).reset_index(drop=True)
print(f"after upsampling: {balanced['blight_confirmed'].value_counts().to_dict()}")

rf = RandomForestClassifier(n_estimators=80, min_samples_leaf=1, random_state=42)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
res = cross_validate(rf, balanced[features], balanced["blight_confirmed"], cv=cv,
                     scoring=["roc_auc", "recall", "precision"])
for m in ["roc_auc", "recall", "precision"]:
    s = res[f"test_{m}"]
    print(f"{m:>9}: {s.mean():.3f} +/- {s.std():.3f}")
""",
        twin="h27-leakage-blight-oversample-within-folds",
        note="Minority fields are duplicated by resampling before cross-validation, so copies "
             "of the same blighted field land in both training and test folds; AUC and recall "
             "are inflated.",
        split="holdout27",
    ),
    Case(
        id="h27-leakage-blight-oversample-within-folds",
        family=None,
        setup=_BLIGHT_SETUP,
        code="""
from sklearn.utils import resample
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold
from sklearn.metrics import roc_auc_score, recall_score, precision_score

features = ["hutton_periods", "mean_rh_pct", "mean_temp_c", "days_since_spray",
            "cultivar_resistance", "irrigated", "canopy_closure_pct"]
X = scout[features]
y = scout["blight_confirmed"]
print(f"class counts: {y.value_counts().to_dict()}")

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
scores = {"roc_auc": [], "recall": [], "precision": []}
for k, (tr, te) in enumerate(cv.split(X, y)):
    train = scout.iloc[tr]
    # upsample blighted fields inside the training fold only; the test fold stays untouched
    pos = train[train["blight_confirmed"] == 1]
    neg = train[train["blight_confirmed"] == 0]
    pos_up = resample(pos, replace=True, n_samples=len(neg), random_state=42 + k)
    bal = pd.concat([neg, pos_up])
    rf = RandomForestClassifier(n_estimators=80, min_samples_leaf=1, random_state=42)
    rf.fit(bal[features], bal["blight_confirmed"])
    prob = rf.predict_proba(X.iloc[te])[:, 1]
    pred = (prob >= 0.5).astype(int)
    scores["roc_auc"].append(roc_auc_score(y.iloc[te], prob))
    scores["recall"].append(recall_score(y.iloc[te], pred, zero_division=0))
    scores["precision"].append(precision_score(y.iloc[te], pred, zero_division=0))

for m, s in scores.items():
    print(f"{m:>9}: {np.mean(s):.3f} +/- {np.std(s):.3f}")
""",
        twin="h27-leakage-blight-oversample-before-cv",
        note="Upsampling of blighted fields is done inside each training fold; test folds "
             "contain only original, unseen fields.",
        split="holdout27",
    ),
]
