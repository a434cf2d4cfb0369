from bench.critic_corpus import Case

_SHAFT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1818)
# OD of turned shafts, 5 parts sampled per hour over 2 shifts, mm
n = 80
df_od = pd.DataFrame({
    "sample_ts": np.repeat(pd.date_range("2024-04-15 06:00", periods=16, freq="h"), 5),
    "lathe": "LT-07",
    "od_mm": rng.normal(19.9962, 0.0021, n).round(4),
})
LSL, USL = 19.985, 20.005
'''

_SHAFT_FLAWED = '''
def cpk(x, lsl=LSL, usl=USL):
    mu, s = x.mean(), x.std(ddof=1)
    return min(usl - mu, mu - lsl) / (3 * s)

x = df_od.od_mm.to_numpy()
boot = np.array([cpk(np.random.choice(x, size=x.size, replace=True)) for _ in range(2000)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"LT-07 OD: n = {x.size}, Cpk = {cpk(x):.3f}")
print(f"bootstrap 95% CI for Cpk: {lo:.3f} .. {hi:.3f}")
print(f"lower bound {'>=' if lo >= 1.33 else '<'} 1.33 -> "
      f"{'PPAP capability met' if lo >= 1.33 else 'capability not demonstrated'}")
'''

_SHAFT_SOUND = '''
def cpk(x, lsl=LSL, usl=USL):
    mu, s = x.mean(), x.std(ddof=1)
    return min(usl - mu, mu - lsl) / (3 * s)

x = df_od.od_mm.to_numpy()
rng_bs = np.random.default_rng(20240415)
boot = np.array([cpk(rng_bs.choice(x, size=x.size, replace=True)) for _ in range(2000)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"LT-07 OD: n = {x.size}, Cpk = {cpk(x):.3f}")
print(f"bootstrap 95% CI for Cpk (seed 20240415, B=2000): {lo:.3f} .. {hi:.3f}")
print(f"lower bound {'>=' if lo >= 1.33 else '<'} 1.33 -> "
      f"{'PPAP capability met' if lo >= 1.33 else 'capability not demonstrated'}")
'''

_TOOL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
n = 900   # one row per machining cycle on the milling cell
df_tw = pd.DataFrame({
    "cycle_id": np.arange(1, n + 1),
    "spindle_load_pct": rng.normal(55, 8, n).round(1),
    "ae_rms_mv": rng.gamma(6, 4, n).round(2),
    "vib_peak_g": rng.gamma(3, 0.15, n).round(3),
    "feed_mm_min": rng.choice([800, 1000, 1200], n),
    "cut_min_on_tool": rng.uniform(0, 240, n).round(1),
})
lin = (-7 + 0.06 * df_tw.spindle_load_pct + 0.05 * df_tw.ae_rms_mv
       + 1.2 * df_tw.vib_peak_g + 0.012 * df_tw.cut_min_on_tool)
df_tw["worn"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)   # VB > 0.3 mm
'''

_TOOL_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import train_test_split

feats = ["spindle_load_pct", "ae_rms_mv", "vib_peak_g", "feed_mm_min", "cut_min_on_tool"]
X_tr, X_te, y_tr, y_te = train_test_split(df_tw[feats], df_tw.worn, test_size=0.25,
                                          stratify=df_tw.worn)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3).fit(X_tr, y_tr)
y_hat = rf.predict(X_te)
print(f"worn-tool classifier: accuracy = {accuracy_score(y_te, y_hat):.4f}, "
      f"F1(worn) = {f1_score(y_te, y_hat):.4f}")
imp = pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False)
imp.round(4)
'''

_TOOL_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import train_test_split

SEED = 11
feats = ["spindle_load_pct", "ae_rms_mv", "vib_peak_g", "feed_mm_min", "cut_min_on_tool"]
X_tr, X_te, y_tr, y_te = train_test_split(df_tw[feats], df_tw.worn, test_size=0.25,
                                          stratify=df_tw.worn, random_state=SEED)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=3, random_state=SEED)
rf.fit(X_tr, y_tr)
y_hat = rf.predict(X_te)
print(f"worn-tool classifier: accuracy = {accuracy_score(y_te, y_hat):.4f}, "
      f"F1(worn) = {f1_score(y_te, y_hat):.4f}")
imp = pd.Series(rf.feature_importances_, index=feats).sort_values(ascending=False)
imp.round(4)
'''

CASES: list[Case] = [
    Case(
        id="h22-unseeded-cpk-bootstrap-ci",
        family="unseeded_randomness",
        code=_SHAFT_FLAWED,
        setup=_SHAFT_SETUP,
        twin="h22-unseeded-cpk-bootstrap-ci-sound",
        note="bootstrap CI for Cpk drawn with the global np.random.choice and no seed; the "
             "reported bounds change on every run",
        split="holdout22",
    ),
    Case(
        id="h22-unseeded-cpk-bootstrap-ci-sound",
        family=None,
        code=_SHAFT_SOUND,
        setup=_SHAFT_SETUP,
        twin="h22-unseeded-cpk-bootstrap-ci",
        note="same bootstrap with a seeded Generator and the seed and B reported",
        split="holdout22",
    ),
    Case(
        id="h22-unseeded-tool-wear-rf-split",
        family="unseeded_randomness",
        code=_TOOL_FLAWED,
        setup=_TOOL_SETUP,
        twin="h22-unseeded-tool-wear-rf-split-sound",
        note="train_test_split and RandomForestClassifier without random_state; the accuracy, "
             "F1 and importances printed to 4 decimals differ on every rerun",
        split="holdout22",
    ),
    Case(
        id="h22-unseeded-tool-wear-rf-split-sound",
        family=None,
        code=_TOOL_SOUND,
        setup=_TOOL_SETUP,
        twin="h22-unseeded-tool-wear-rf-split",
        note="split and forest both seeded, so the reported metrics are reproducible",
        split="holdout22",
    ),
]
