from bench.critic_corpus import Case

_SHERD_SETUP = '''
import numpy as np

gen = np.random.default_rng(1066)
# rim-sherd wall thickness (mm), Trench C, by ceramic phase
phase_ii = np.round(gen.gamma(9.0, 0.78, 23), 2)
phase_iii = np.round(gen.gamma(9.0, 0.86, 17), 2)
print(f"phase II n={phase_ii.size}, mean {phase_ii.mean():.2f} mm; "
      f"phase III n={phase_iii.size}, mean {phase_iii.mean():.2f} mm")
'''

_SHERD_FLAWED = '''
B = 2000
boot = np.empty(B)
for b in range(B):
    s2 = np.random.choice(phase_ii, phase_ii.size, replace=True)
    s3 = np.random.choice(phase_iii, phase_iii.size, replace=True)
    boot[b] = s3.mean() - s2.mean()
lo, hi = np.percentile(boot, [2.5, 97.5])
obs = phase_iii.mean() - phase_ii.mean()
print(f"difference in mean wall thickness (III - II): {obs:.2f} mm")
print(f"95% bootstrap CI: {lo:.3f} to {hi:.3f} mm  ({B} resamples)")
print("CI excludes zero" if lo > 0 or hi < 0 else "CI includes zero")
'''

_SHERD_SOUND = '''
rs = np.random.default_rng(20240611)
B = 2000
boot = np.empty(B)
for b in range(B):
    s2 = rs.choice(phase_ii, phase_ii.size, replace=True)
    s3 = rs.choice(phase_iii, phase_iii.size, replace=True)
    boot[b] = s3.mean() - s2.mean()
lo, hi = np.percentile(boot, [2.5, 97.5])
obs = phase_iii.mean() - phase_ii.mean()
print(f"difference in mean wall thickness (III - II): {obs:.2f} mm")
print(f"95% bootstrap CI: {lo:.3f} to {hi:.3f} mm  ({B} resamples, seed 20240611)")
print("CI excludes zero" if lo > 0 or hi < 0 else "CI includes zero")
'''

_MALDI_SETUP = '''
import numpy as np

rng = np.random.default_rng(4040)
n_iso, n_peaks = 150, 300
mz = np.sort(rng.uniform(2000, 20000, n_peaks)).round(1)
resistant = rng.binomial(1, 0.4, n_iso)        # K. pneumoniae, carbapenem resistance (AST)
intens = rng.lognormal(0, 0.8, (n_iso, n_peaks))
for j in rng.choice(n_peaks, 8, replace=False):
    intens[:, j] *= np.exp(0.9 * resistant + rng.normal(0, 0.3, n_iso))
intens /= intens.sum(axis=1, keepdims=True) / 1000   # TIC normalisation
print(intens.shape, "isolates x binned peaks;", resistant.sum(), "carbapenem-resistant")
'''

_MALDI_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

X_tr, X_te, y_tr, y_te = train_test_split(np.log1p(intens), resistant, test_size=0.3,
                                          stratify=resistant)
rf = RandomForestClassifier(n_estimators=150, max_features="sqrt").fit(X_tr, y_tr)
prob = rf.predict_proba(X_te)[:, 1]
print(f"test isolates {len(y_te)}: AUC {roc_auc_score(y_te, prob):.3f}, "
      f"balanced accuracy {balanced_accuracy_score(y_te, prob > 0.5):.3f}")
top = np.argsort(rf.feature_importances_)[::-1][:5]
print("most informative peaks (m/z):", ", ".join(f"{mz[j]:.0f}" for j in top))
'''

_MALDI_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import balanced_accuracy_score, roc_auc_score
from sklearn.model_selection import train_test_split

X_tr, X_te, y_tr, y_te = train_test_split(np.log1p(intens), resistant, test_size=0.3,
                                          stratify=resistant, random_state=17)
rf = RandomForestClassifier(n_estimators=150, max_features="sqrt",
                            random_state=17).fit(X_tr, y_tr)
prob = rf.predict_proba(X_te)[:, 1]
print(f"test isolates {len(y_te)}: AUC {roc_auc_score(y_te, prob):.3f}, "
      f"balanced accuracy {balanced_accuracy_score(y_te, prob > 0.5):.3f}")
top = np.argsort(rf.feature_importances_)[::-1][:5]
print("most informative peaks (m/z):", ", ".join(f"{mz[j]:.0f}" for j in top))
'''

CASES: list[Case] = [
    Case(
        id="h14-unseeded-sherd-bootstrap-global-rng",
        family="unseeded_randomness",
        setup=_SHERD_SETUP,
        code=_SHERD_FLAWED,
        twin="h14-unseeded-sherd-bootstrap-seeded",
        note="Bootstrap CI (and its 'excludes zero' verdict) drawn from the unseeded global "
             "numpy RNG, so the reported interval changes on every run.",
        split="holdout14",
    ),
    Case(
        id="h14-unseeded-sherd-bootstrap-seeded",
        family=None,
        setup=_SHERD_SETUP,
        code=_SHERD_SOUND,
        twin="h14-unseeded-sherd-bootstrap-global-rng",
        note="Same bootstrap with a dedicated, seeded Generator; the interval is reproducible.",
        split="holdout14",
    ),
    Case(
        id="h14-unseeded-maldi-rf-split",
        family="unseeded_randomness",
        setup=_MALDI_SETUP,
        code=_MALDI_FLAWED,
        twin="h14-unseeded-maldi-rf-split-seeded",
        note="Train/test split and random forest both unseeded, so the reported AUC and the "
             "'most informative peaks' change from run to run.",
        split="holdout14",
    ),
    Case(
        id="h14-unseeded-maldi-rf-split-seeded",
        family=None,
        setup=_MALDI_SETUP,
        code=_MALDI_SOUND,
        twin="h14-unseeded-maldi-rf-split",
        note="Split and forest seeded with random_state, so AUC and peak ranking are "
             "reproducible.",
        split="holdout14",
    ),
]
