from bench.critic_corpus import Case

_SETUP_CAMP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
n = 22
pre = rng.normal(4.05, 0.35, n)
camp = pd.DataFrame({
    "player": [f"P{i:02d}" for i in range(1, n + 1)],
    "ln_rmssd_pre": pre.round(3),
    "ln_rmssd_post": (pre + rng.normal(-0.08, 0.2, n)).round(3),
})
'''

_SETUP_SHOTS = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n = 1500
shots = pd.DataFrame({
    "distance_m": rng.gamma(4, 4.2, n).round(1),
    "angle_deg": rng.uniform(5, 85, n).round(1),
    "header": rng.binomial(1, 0.18, n),
    "fast_break": rng.binomial(1, 0.08, n),
    "defenders_in_cone": rng.poisson(1.6, n),
    "gk_off_line_m": rng.gamma(2, 1.2, n).round(1),
})
lp = (0.6 - 0.13 * shots["distance_m"] + 0.015 * shots["angle_deg"] - 0.7 * shots["header"]
      + 0.5 * shots["fast_break"] - 0.35 * shots["defenders_in_cone"])
shots["goal"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
'''

CASES = [
    Case(
        id="h26-unseeded-randomness-bootstrap-hrv-camp",
        family="unseeded_randomness",
        setup=_SETUP_CAMP,
        code='''diff = (camp["ln_rmssd_post"] - camp["ln_rmssd_pre"]).to_numpy()
boot = []
for _ in range(2000):
    idx = np.random.randint(0, len(diff), len(diff))
    boot.append(diff[idx].mean())
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"Altitude camp, change in morning ln RMSSD (n = {len(diff)} players)")
print(f"Mean change {diff.mean():+.3f} (95% bootstrap CI {lo:+.3f} to {hi:+.3f})")
print(f"= {100 * (np.exp(diff.mean()) - 1):+.1f}% RMSSD; CI excludes zero: {hi < 0 or lo > 0}")
''',
        twin="h26-unseeded-randomness-bootstrap-hrv-camp-ok",
        note="Bootstrap CI drawn with unseeded np.random.randint; printed CI changes per run.",
        split="holdout26",
    ),
    Case(
        id="h26-unseeded-randomness-bootstrap-hrv-camp-ok",
        family=None,
        setup=_SETUP_CAMP,
        code='''diff = (camp["ln_rmssd_post"] - camp["ln_rmssd_pre"]).to_numpy()
boot_rng = np.random.default_rng(20240611)
boot = []
for _ in range(2000):
    idx = boot_rng.integers(0, len(diff), len(diff))
    boot.append(diff[idx].mean())
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"Altitude camp, change in morning ln RMSSD (n = {len(diff)} players)")
print(f"Mean change {diff.mean():+.3f} (95% bootstrap CI {lo:+.3f} to {hi:+.3f})")
print(f"= {100 * (np.exp(diff.mean()) - 1):+.1f}% RMSSD; CI excludes zero: {hi < 0 or lo > 0}")
''',
        twin="h26-unseeded-randomness-bootstrap-hrv-camp",
        note="Same paired bootstrap with a seeded Generator, so the reported CI is reproducible.",
        split="holdout26",
    ),
    Case(
        id="h26-unseeded-randomness-xg-forest",
        family="unseeded_randomness",
        setup=_SETUP_SHOTS,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.model_selection import train_test_split

feats = ["distance_m", "angle_deg", "header", "fast_break", "defenders_in_cone",
         "gk_off_line_m"]
X_tr, X_te, y_tr, y_te = train_test_split(shots[feats], shots["goal"], test_size=0.25)
xg_model = RandomForestClassifier(n_estimators=150, min_samples_leaf=20, max_features=2)
xg_model.fit(X_tr, y_tr)
p = xg_model.predict_proba(X_te)[:, 1]
print(f"In-house xG model: AUC {roc_auc_score(y_te, p):.3f}, "
      f"Brier {brier_score_loss(y_te, p):.4f}")
print(f"Total xG on test shots {p.sum():.1f} vs actual goals {y_te.sum()}")
''',
        twin="h26-unseeded-randomness-xg-forest-ok",
        note="train_test_split and the random forest have no random_state; AUC/Brier vary per run.",
        split="holdout26",
    ),
    Case(
        id="h26-unseeded-randomness-xg-forest-ok",
        family=None,
        setup=_SETUP_SHOTS,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.model_selection import train_test_split

feats = ["distance_m", "angle_deg", "header", "fast_break", "defenders_in_cone",
         "gk_off_line_m"]
X_tr, X_te, y_tr, y_te = train_test_split(shots[feats], shots["goal"], test_size=0.25,
                                          random_state=42, stratify=shots["goal"])
xg_model = RandomForestClassifier(n_estimators=150, min_samples_leaf=20, max_features=2,
                                  random_state=42)
xg_model.fit(X_tr, y_tr)
p = xg_model.predict_proba(X_te)[:, 1]
print(f"In-house xG model: AUC {roc_auc_score(y_te, p):.3f}, "
      f"Brier {brier_score_loss(y_te, p):.4f}")
print(f"Total xG on test shots {p.sum():.1f} vs actual goals {y_te.sum()}")
''',
        twin="h26-unseeded-randomness-xg-forest",
        note="Split and forest both seeded, so the reported AUC and Brier are reproducible.",
        split="holdout26",
    ),
]
