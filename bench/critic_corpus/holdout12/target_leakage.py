from bench.critic_corpus import Case

DIVE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(77)
n = 1200
dives = pd.DataFrame({
    "depth_m": rng.uniform(10, 60, n),
    "bottom_min": rng.uniform(10, 70, n),
    "ascent_rate": rng.normal(9, 2.5, n).clip(3),
    "age": rng.integers(19, 70, n),
    "surface_interval_h": rng.exponential(3, n),
})
lin = (0.04 * dives.depth_m + 0.02 * dives.bottom_min + 0.15 * dives.ascent_rate
       - 0.15 * dives.surface_interval_h - 5.2)
dives["dcs"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
treated = (dives.dcs == 1) & (rng.random(n) < 0.85) | (dives.dcs == 0) & (rng.random(n) < 0.03)
dives["chamber_hours"] = np.where(treated, rng.gamma(2, 2.5, n), 0.0)
'''

DIVE_FLAWED = '''
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

features = ["depth_m", "bottom_min", "ascent_rate", "age", "chamber_hours"]
X_tr, X_te, y_tr, y_te = train_test_split(
    dives[features], dives["dcs"], test_size=0.3, stratify=dives["dcs"], random_state=1
)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_tr, y_tr)
auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
coefs = pd.Series(model[-1].coef_[0], index=features).round(2)
print(coefs.to_string())
print(f"held-out AUC for decompression sickness: {auc:.3f}")
'''

DIVE_SOUND = DIVE_FLAWED.replace('"age", "chamber_hours"]', '"age", "surface_interval_h"]')

OPERA_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(31)
n = 260
shows = pd.DataFrame({
    "capacity": rng.choice([900, 1400, 2100], n),
    "star_cast": rng.integers(0, 2, n),
    "weekend": rng.integers(0, 2, n),
    "repertoire": rng.choice(["verdi", "puccini", "baroque", "modern"], n),
})
base = {"verdi": 0.72, "puccini": 0.78, "baroque": 0.55, "modern": 0.45}
rate = shows.repertoire.map(base) + 0.1 * shows.star_cast + 0.06 * shows.weekend
rate = (rate + rng.normal(0, 0.12, n)).clip(0.1, 1.0)
shows["tickets_sold"] = (shows.capacity * rate).round()
shows["presold"] = (shows.tickets_sold * rng.uniform(0.3, 0.6, n)
                    + rng.normal(0, 60, n)).clip(0).round()
'''

OPERA_FLAWED = '''
import statsmodels.formula.api as smf
from sklearn.metrics import r2_score

shows["fill_rate"] = shows.tickets_sold / shows.capacity
train = shows.sample(frac=0.75, random_state=4)
test = shows.drop(train.index)

fit = smf.ols(
    "tickets_sold ~ capacity + star_cast + weekend + C(repertoire) + fill_rate", data=train
).fit()
print(fit.params.round(2).to_string())
print(f"out-of-sample R^2 for tickets sold: {r2_score(test.tickets_sold, fit.predict(test)):.3f}")
'''

OPERA_SOUND = '''
import statsmodels.formula.api as smf
from sklearn.metrics import r2_score

shows["presale_rate"] = shows.presold / shows.capacity
train = shows.sample(frac=0.75, random_state=4)
test = shows.drop(train.index)

fit = smf.ols(
    "tickets_sold ~ capacity + star_cast + weekend + C(repertoire) + presale_rate", data=train
).fit()
print(fit.params.round(2).to_string())
print(f"out-of-sample R^2 for tickets sold: {r2_score(test.tickets_sold, fit.predict(test)):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="target_leakage-h12-cave-dive-chamber",
        family="target_leakage",
        code=DIVE_FLAWED,
        setup=DIVE_SETUP,
        twin="target_leakage-h12-cave-dive-chamber-sound",
        note="hyperbaric chamber hours are the treatment given after DCS occurs, used as a feature",
        split="holdout12",
    ),
    Case(
        id="target_leakage-h12-cave-dive-chamber-sound",
        family=None,
        code=DIVE_SOUND,
        setup=DIVE_SETUP,
        twin="target_leakage-h12-cave-dive-chamber",
        note="only pre-dive features (incl. surface interval before the dive) predict DCS",
        split="holdout12",
    ),
    Case(
        id="target_leakage-h12-opera-fill-rate",
        family="target_leakage",
        code=OPERA_FLAWED,
        setup=OPERA_SETUP,
        twin="target_leakage-h12-opera-fill-rate-sound",
        note="fill_rate is tickets_sold / capacity, the target itself, used as a regressor",
        split="holdout12",
    ),
    Case(
        id="target_leakage-h12-opera-fill-rate-sound",
        family=None,
        code=OPERA_SOUND,
        setup=OPERA_SETUP,
        twin="target_leakage-h12-opera-fill-rate",
        note="presale rate is known before the run opens; a legitimate leading indicator",
        split="holdout12",
    ),
]
