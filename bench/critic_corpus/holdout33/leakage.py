from bench.critic_corpus import Case

_NIR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3301)
n_samples, n_wl = 120, 350
wavelength_nm = np.linspace(1100, 2498, n_wl)
kf_moisture = rng.uniform(0.8, 4.5, n_samples).round(2)
water_band = np.exp(-0.5 * ((wavelength_nm - 1940) / 40) ** 2)
oh_band = np.exp(-0.5 * ((wavelength_nm - 1450) / 30) ** 2)
api_band = np.exp(-0.5 * ((wavelength_nm - 1680) / 25) ** 2)
api = rng.normal(1, 0.08, (n_samples, 1))
scatter = rng.lognormal(0, 0.06, (n_samples, 1))
offset = rng.normal(0.35, 0.05, (n_samples, 1))
tilt = rng.normal(0, 0.02, (n_samples, 1)) * (wavelength_nm - 1800) / 700
true_w = kf_moisture + rng.normal(0, 0.12, n_samples)  # KF reference error
absorb = (offset + tilt + scatter * (0.25 * api * api_band
          + 0.012 * true_w[:, None] * water_band
          + 0.005 * true_w[:, None] * oh_band)
          + rng.normal(0, 0.006, (n_samples, n_wl)))
spectra = pd.DataFrame(absorb.round(5), columns=[f"{w:.0f}" for w in wavelength_nm])
spectra.insert(0, "batch", [f"GR-{i:03d}" for i in range(n_samples)])
lab = pd.DataFrame({"batch": spectra["batch"], "kf_moisture_pct": kf_moisture})
'''

_RAMAN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3302)
n_tab = 64
shift_cm = np.arange(400, 1800, 2.5)
status = np.array(["genuine"] * 34 + ["suspect"] * 30)
rng.shuffle(status)
base = (1.0 + 0.6 * np.exp(-0.5 * ((shift_cm - 1605) / 9) ** 2)
        + 0.4 * np.exp(-0.5 * ((shift_cm - 1001) / 7) ** 2))
raman = base + rng.normal(0, 0.05, (n_tab, shift_cm.size))
# very weak extra excipient band in some suspect tablets
raman[status == "suspect"] += 0.03 * np.exp(-0.5 * ((shift_cm - 1290) / 12) ** 2)
raman_df = pd.DataFrame(raman.round(4), columns=[f"rs_{s:.1f}" for s in shift_cm])
raman_df["status"] = status
raman_df["seizure_ref"] = [f"SZ{rng.integers(100, 999)}" for _ in range(n_tab)]
'''

CASES: list[Case] = [
    Case(
        id="h33-leakage-nir-moisture-pca-fit-before-split",
        family="leakage",
        setup=_NIR_SETUP,
        code='''
from sklearn.preprocessing import StandardScaler
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_squared_error, r2_score

X = spectra.drop(columns="batch").to_numpy()
y = lab["kf_moisture_pct"].to_numpy()

# autoscale + PCA on the spectra, then PCR on the scores
X_sc = StandardScaler().fit_transform(X)
pca = PCA(n_components=6)
scores = pca.fit_transform(X_sc)
print("expl. var (%):", np.round(100 * pca.explained_variance_ratio_, 1))

T_cal, T_val, y_cal, y_val = train_test_split(scores, y, test_size=0.3, random_state=7)
pcr = LinearRegression().fit(T_cal, y_cal)
y_hat = pcr.predict(T_val)
rmsep = mean_squared_error(y_val, y_hat) ** 0.5
print(f"PCR (6 PCs)  RMSEP = {rmsep:.3f} % w/w   R2 val = {r2_score(y_val, y_hat):.3f}"
      f"   n val = {len(y_val)}")
''',
        twin="h33-leakage-nir-moisture-pca-pipeline-sound",
        note="StandardScaler and PCA are fit on all 120 spectra before the calibration/"
             "validation split, so the validation spectra shape the scores used to report RMSEP.",
        split="holdout33",
    ),
    Case(
        id="h33-leakage-nir-moisture-pca-pipeline-sound",
        family=None,
        setup=_NIR_SETUP,
        code='''
from sklearn.preprocessing import StandardScaler
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import train_test_split
from sklearn.metrics import mean_squared_error, r2_score

X = spectra.drop(columns="batch").to_numpy()
y = lab["kf_moisture_pct"].to_numpy()

# split first; scaler + PCA are learned on the calibration set only
X_cal, X_val, y_cal, y_val = train_test_split(X, y, test_size=0.3, random_state=7)
pcr = make_pipeline(StandardScaler(), PCA(n_components=6), LinearRegression())
pcr.fit(X_cal, y_cal)
print("expl. var (%):", np.round(100 * pcr.named_steps["pca"].explained_variance_ratio_, 1))

y_hat = pcr.predict(X_val)
rmsep = mean_squared_error(y_val, y_hat) ** 0.5
print(f"PCR (6 PCs)  RMSEP = {rmsep:.3f} % w/w   R2 val = {r2_score(y_val, y_hat):.3f}"
      f"   n val = {len(y_val)}")
''',
        twin="h33-leakage-nir-moisture-pca-fit-before-split",
        note="Split first; scaling and PCA live in a pipeline fit on the calibration spectra "
             "only, so RMSEP is an honest validation figure.",
        split="holdout33",
    ),
    Case(
        id="h33-leakage-raman-counterfeit-selectkbest-all-tablets",
        family="leakage",
        setup=_RAMAN_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score

bands = raman_df.filter(like="rs_")
X = bands.values
y = (raman_df["status"] == "suspect").astype(int).values
print(f"{X.shape[0]} tablets x {X.shape[1]} Raman channels, {y.sum()} suspect")

# keep the 15 most discriminating Raman shifts
sel = SelectKBest(f_classif, k=15).fit(X, y)
print("selected shifts (cm-1):", [c[3:] for c in bands.columns[sel.get_support()]])
X_sel = sel.transform(X)

clf = LogisticRegression(C=100.0, max_iter=5000)
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
acc = cross_val_score(clf, X_sel, y, cv=cv, scoring="accuracy")
print(f"screening model, 5-fold CV accuracy = {acc.mean():.2f} +/- {acc.std():.2f}")
''',
        twin="h33-leakage-raman-counterfeit-selectkbest-in-cv-sound",
        note="SelectKBest picks 15 of 560 channels using all tablets' labels before "
             "cross-validation, so the CV accuracy of the screening model is inflated.",
        split="holdout33",
    ),
    Case(
        id="h33-leakage-raman-counterfeit-selectkbest-in-cv-sound",
        family=None,
        setup=_RAMAN_SETUP,
        code='''
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline

bands = raman_df.filter(like="rs_")
X = bands.values
y = (raman_df["status"] == "suspect").astype(int).values
print(f"{X.shape[0]} tablets x {X.shape[1]} Raman channels, {y.sum()} suspect")

# band selection is re-done inside every CV fold
model = Pipeline([
    ("sel", SelectKBest(f_classif, k=15)),
    ("clf", LogisticRegression(C=100.0, max_iter=5000)),
])
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=11)
acc = cross_val_score(model, X, y, cv=cv, scoring="accuracy")
print(f"screening model, 5-fold CV accuracy = {acc.mean():.2f} +/- {acc.std():.2f}")
''',
        twin="h33-leakage-raman-counterfeit-selectkbest-all-tablets",
        note="Channel selection sits inside the pipeline, so it is refit on each training fold "
             "and the CV accuracy is not contaminated by the held-out tablets.",
        split="holdout33",
    ),
]
