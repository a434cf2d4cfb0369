from bench.critic_corpus import Case

_KOOS_SETUP = '''
import numpy as np
import pandas as pd

gen = np.random.default_rng(9090)
n = 118
koos = pd.DataFrame({
    "participant_id": [f"KN-{i:03d}" for i in range(1, n + 1)],
    "arm": np.where(np.arange(n) % 2 == 0, "physio-led", "surgeon-led"),
    "age": gen.normal(64, 8, n).round(),
    "koos_pain_bl": gen.normal(48, 14, n).clip(0, 100).round(1),
})
gain = np.where(koos.arm == "physio-led", 17, 13) + gen.gumbel(0, 9, n)
koos["koos_pain_6m"] = (koos.koos_pain_bl + gain).clip(0, 100).round(1)
koos["koos_change"] = koos.koos_pain_6m - koos.koos_pain_bl
'''

_PE_SETUP = '''
import numpy as np
import pandas as pd

gen = np.random.default_rng(5353)
n = 1100
pe = pd.DataFrame({
    "ctpa_id": [f"CT{gen.integers(10**7, 10**8)}" for _ in range(n)],
    "age": gen.normal(58, 18, n).round().clip(18, 97),
    "wells_score": gen.choice(np.arange(0, 9.5, 0.5), n),
    "d_dimer_ng_ml": np.exp(gen.normal(6.6, 0.9, n)).round(),
    "heart_rate": gen.normal(92, 18, n).round(),
    "spo2": gen.normal(95, 3, n).round().clip(78, 100),
    "recent_surgery": gen.binomial(1, 0.12, n),
    "active_cancer": gen.binomial(1, 0.1, n),
    "prior_vte": gen.binomial(1, 0.09, n),
    "oestrogen_use": gen.binomial(1, 0.06, n),
})
lp = (-2.9 + 0.28 * pe.wells_score + 0.7 * np.log(pe.d_dimer_ng_ml / 735)
      + 0.02 * (pe.heart_rate - 92) - 0.06 * (pe.spo2 - 95) + 0.5 * pe.prior_vte)
pe["pe_confirmed"] = gen.binomial(1, 1 / (1 + np.exp(-lp)))
'''

CASES: list[Case] = [
    Case(
        id="h23-unseed-koos-bootstrap-median",
        family="unseeded_randomness",
        split="holdout23",
        twin="h23-unseed-koos-bootstrap-median-ok",
        setup=_KOOS_SETUP,
        note="Bootstrap CI for the difference in median KOOS change uses the unseeded global "
             "numpy generator, so the reported interval changes on every run.",
        code='''
physio = koos.loc[koos.arm == "physio-led", "koos_change"].to_numpy()
surgeon = koos.loc[koos.arm == "surgeon-led", "koos_change"].to_numpy()
observed = np.median(physio) - np.median(surgeon)

B = 2000
boot = np.empty(B)
for b in range(B):
    boot[b] = (np.median(np.random.choice(physio, physio.size))
               - np.median(np.random.choice(surgeon, surgeon.size)))
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"Median KOOS-pain change at 6 months: physio-led {np.median(physio):.1f}, "
      f"surgeon-led {np.median(surgeon):.1f}")
print(f"Difference {observed:.2f} points (bootstrap SE {boot.std(ddof=1):.3f}; "
      f"percentile 95% CI {lo:.2f} to {hi:.2f})")
''',
    ),
    Case(
        id="h23-unseed-koos-bootstrap-median-ok",
        family=None,
        split="holdout23",
        twin="h23-unseed-koos-bootstrap-median",
        setup=_KOOS_SETUP,
        note="Same percentile bootstrap drawn from a seeded Generator, so the reported CI is "
             "reproducible.",
        code='''
physio = koos.loc[koos.arm == "physio-led", "koos_change"].to_numpy()
surgeon = koos.loc[koos.arm == "surgeon-led", "koos_change"].to_numpy()
observed = np.median(physio) - np.median(surgeon)

rng = np.random.default_rng(20240305)
B = 2000
boot = np.empty(B)
for b in range(B):
    boot[b] = (np.median(rng.choice(physio, physio.size))
               - np.median(rng.choice(surgeon, surgeon.size)))
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"Median KOOS-pain change at 6 months: physio-led {np.median(physio):.1f}, "
      f"surgeon-led {np.median(surgeon):.1f}")
print(f"Difference {observed:.2f} points (bootstrap SE {boot.std(ddof=1):.3f}; "
      f"percentile 95% CI {lo:.2f} to {hi:.2f}; B = {B}, seed 20240305)")
''',
    ),
    Case(
        id="h23-unseed-pe-forest-split",
        family="unseeded_randomness",
        split="holdout23",
        twin="h23-unseed-pe-forest-split-ok",
        setup=_PE_SETUP,
        note="Train/test split and random forest both run without a random_state, so the "
             "reported AUC and sensitivity depend on the session's random state.",
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import confusion_matrix, roc_auc_score
from sklearn.model_selection import train_test_split

X = pe.drop(columns=["ctpa_id", "pe_confirmed"])
y = pe["pe_confirmed"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5)
rf.fit(X_train, y_train)
prob = rf.predict_proba(X_test)[:, 1]
tn, fp, fn, tp = confusion_matrix(y_test, prob >= 0.1).ravel()
print(f"CTPA-confirmed PE: {y.sum()} / {len(y)} ({y.mean():.1%})")
print(f"Test AUC {roc_auc_score(y_test, prob):.3f}")
print(f"At predicted risk >= 10%: sensitivity {tp / (tp + fn):.1%}, "
      f"CTPAs avoided {(tn + fn) / len(y_test):.1%}")
''',
    ),
    Case(
        id="h23-unseed-pe-forest-split-ok",
        family=None,
        split="holdout23",
        twin="h23-unseed-pe-forest-split",
        setup=_PE_SETUP,
        note="Same forest with the split and the model seeded, so the reported AUC and "
             "sensitivity are reproducible.",
        code='''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import confusion_matrix, roc_auc_score
from sklearn.model_selection import train_test_split

SEED = 31
X = pe.drop(columns=["ctpa_id", "pe_confirmed"])
y = pe["pe_confirmed"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y,
                                                    random_state=SEED)
rf = RandomForestClassifier(n_estimators=200, min_samples_leaf=5, random_state=SEED)
rf.fit(X_train, y_train)
prob = rf.predict_proba(X_test)[:, 1]
tn, fp, fn, tp = confusion_matrix(y_test, prob >= 0.1).ravel()
print(f"CTPA-confirmed PE: {y.sum()} / {len(y)} ({y.mean():.1%})")
print(f"Test AUC {roc_auc_score(y_test, prob):.3f}")
print(f"At predicted risk >= 10%: sensitivity {tp / (tp + fn):.1%}, "
      f"CTPAs avoided {(tn + fn) / len(y_test):.1%}")
''',
    ),
]
