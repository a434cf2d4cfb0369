from bench.critic_corpus import Case

_RARE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(555)
species = [f"sp{k:02d}" for k in range(1, 41)]
rows = []
for site, (n_quads, alpha) in {"dune": (12, 0.6), "slack": (12, 1.5), "heath": (12, 0.9)}.items():
    p = rng.dirichlet(np.full(len(species), alpha))
    for q in range(1, n_quads + 1):
        counts = rng.multinomial(rng.integers(15, 40), p)
        for sp, c in zip(species, counts):
            if c:
                rows.append({"site": site, "quadrat": f"{site[:2]}{q:02d}", "species": sp,
                             "stems": c})
stems = pd.DataFrame(rows)
'''

_RARE_FLAWED = '''
pooled = stems.groupby(["site", "species"])["stems"].sum()
depth = int(pooled.groupby("site").sum().min())

out = []
for site, s in pooled.groupby(level="site"):
    pool = np.repeat(s.index.get_level_values("species"), s.values)
    rich = [len(np.unique(np.random.choice(pool, depth, replace=False))) for _ in range(50)]
    out.append({"site": site, "n_stems": len(pool), "S_obs": s.size,
                "S_rarefied": np.mean(rich), "sd": np.std(rich, ddof=1)})
print(f"rarefied to {depth} stems")
pd.DataFrame(out).round(2)
'''

_RARE_SOUND = '''
pooled = stems.groupby(["site", "species"])["stems"].sum()
depth = int(pooled.groupby("site").sum().min())
rng = np.random.default_rng(2024)

out = []
for site, s in pooled.groupby(level="site"):
    pool = np.repeat(s.index.get_level_values("species"), s.values)
    rich = [len(np.unique(rng.choice(pool, depth, replace=False))) for _ in range(500)]
    out.append({"site": site, "n_stems": len(pool), "S_obs": s.size,
                "S_rarefied": np.mean(rich), "sd": np.std(rich, ddof=1)})
print(f"rarefied to {depth} stems, 500 seeded draws")
pd.DataFrame(out).round(2)
'''

_SDM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8080)
n = 320
plots = pd.DataFrame({
    "plot_id": [f"FIA{i:04d}" for i in range(n)],
    "elev_m": rng.uniform(200, 1600, n).round(0),
    "slope_deg": rng.uniform(0, 35, n).round(1),
    "soil_ph": rng.normal(5.6, 0.6, n).round(2),
    "gdd5": rng.normal(1800, 300, n).round(0),
    "twi": rng.gamma(4, 2, n).round(2),
})
eta = -0.5 + 0.004 * (plots["gdd5"] - 1800) - 1.1 * (plots["soil_ph"] - 5.6) \\
      + 0.1 * (plots["twi"] - 8)
plots["tsca_present"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
'''

_SDM_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

preds = ["elev_m", "slope_deg", "soil_ph", "gdd5", "twi"]
X_tr, X_te, y_tr, y_te = train_test_split(plots[preds], plots["tsca_present"],
                                          test_size=0.3, stratify=plots["tsca_present"])
rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=3, n_jobs=1)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"eastern hemlock SDM, test AUC = {auc:.3f}")
imp = pd.DataFrame({"predictor": preds, "importance": rf.feature_importances_})
imp.sort_values("importance", ascending=False).round(3)
'''

_SDM_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

preds = ["elev_m", "slope_deg", "soil_ph", "gdd5", "twi"]
X_tr, X_te, y_tr, y_te = train_test_split(plots[preds], plots["tsca_present"],
                                          test_size=0.3, stratify=plots["tsca_present"],
                                          random_state=17)
rf = RandomForestClassifier(n_estimators=150, min_samples_leaf=3, n_jobs=1, random_state=17)
rf.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, rf.predict_proba(X_te)[:, 1])
print(f"eastern hemlock SDM, test AUC = {auc:.3f}")
imp = pd.DataFrame({"predictor": preds, "importance": rf.feature_importances_})
imp.sort_values("importance", ascending=False).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h19-ur-rarefaction-flawed", family="unseeded_randomness", code=_RARE_FLAWED,
        setup=_RARE_SETUP, twin="h19-ur-rarefaction-sound", split="holdout19",
        note="rarefied richness from 50 draws of np.random.choice with no seed",
    ),
    Case(
        id="h19-ur-rarefaction-sound", family=None, code=_RARE_SOUND,
        setup=_RARE_SETUP, twin="h19-ur-rarefaction-flawed", split="holdout19",
        note="same rarefaction with a seeded Generator and 500 draws; reproducible",
    ),
    Case(
        id="h19-ur-hemlock-sdm-flawed", family="unseeded_randomness", code=_SDM_FLAWED,
        setup=_SDM_SETUP, twin="h19-ur-hemlock-sdm-sound", split="holdout19",
        note="train_test_split and random forest have no random_state; AUC changes per run",
    ),
    Case(
        id="h19-ur-hemlock-sdm-sound", family=None, code=_SDM_SOUND,
        setup=_SDM_SETUP, twin="h19-ur-hemlock-sdm-flawed", split="holdout19",
        note="split and forest seeded, so the reported AUC is reproducible",
    ),
]
