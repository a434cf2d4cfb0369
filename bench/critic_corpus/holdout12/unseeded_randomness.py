from bench.critic_corpus import Case

KILN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1300)
firings = pd.DataFrame({
    "kiln": rng.choice(["anagama", "gas_downdraft"], 140),
    "peak_c": rng.normal(1280, 15, 140).round(),
})
firings["crawled"] = (rng.random(140) < np.where(firings.kiln == "anagama", 0.18, 0.09))
'''

KILN_FLAWED = '''
def boot_ci(flags, reps=2000, level=0.95):
    flags = np.asarray(flags, dtype=float)
    means = [np.random.choice(flags, flags.size).mean() for _ in range(reps)]
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return flags.mean(), lo, hi

for kiln, grp in firings.groupby("kiln"):
    rate, lo, hi = boot_ci(grp.crawled)
    print(f"{kiln:14s} glaze crawl rate {rate:.1%}  (95% CI {lo:.1%} - {hi:.1%})")
'''

KILN_SOUND = '''
def boot_ci(flags, reps=2000, level=0.95, seed=0):
    gen = np.random.default_rng(seed)
    flags = np.asarray(flags, dtype=float)
    means = gen.choice(flags, (reps, flags.size)).mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return flags.mean(), lo, hi

for kiln, grp in firings.groupby("kiln"):
    rate, lo, hi = boot_ci(grp.crawled)
    print(f"{kiln:14s} glaze crawl rate {rate:.1%}  (95% CI {lo:.1%} - {hi:.1%})")
'''

BALLOON_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1783)
n = 180
mornings = pd.DataFrame({
    "surface_wind_kt": rng.gamma(3, 2, n),
    "wind_1000ft_kt": rng.gamma(4, 3, n),
    "dew_spread_c": rng.gamma(2, 2, n),
    "cloud_base_ft": rng.normal(3500, 1200, n).clip(300),
    "thermal_index": rng.normal(0, 1, n),
})
score = (-0.5 * mornings.surface_wind_kt - 0.12 * mornings.wind_1000ft_kt
         + 0.0006 * mornings.cloud_base_ft - 0.6 * mornings.thermal_index + 3.5)
mornings["launched"] = (score + rng.normal(0, 1.2, n) > 0).astype(int)
'''

BALLOON_FLAWED = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, balanced_accuracy_score
from sklearn.model_selection import train_test_split

X = mornings.drop(columns="launched")
y = mornings["launched"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y)
forest = RandomForestClassifier(n_estimators=100, min_samples_leaf=3).fit(X_tr, y_tr)
pred = forest.predict(X_te)
print(f"go/no-go accuracy: {accuracy_score(y_te, pred):.3f}")
print(f"balanced accuracy: {balanced_accuracy_score(y_te, pred):.3f}")
'''

BALLOON_SOUND = '''
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score, balanced_accuracy_score
from sklearn.model_selection import train_test_split

X = mornings.drop(columns="launched")
y = mornings["launched"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, stratify=y, random_state=17)
forest = RandomForestClassifier(n_estimators=100, min_samples_leaf=3, random_state=17)
forest.fit(X_tr, y_tr)
pred = forest.predict(X_te)
print(f"go/no-go accuracy: {accuracy_score(y_te, pred):.3f}")
print(f"balanced accuracy: {balanced_accuracy_score(y_te, pred):.3f}")
'''

CASES: list[Case] = [
    Case(
        id="unseeded_randomness-h12-kiln-crawl-bootstrap",
        family="unseeded_randomness",
        code=KILN_FLAWED,
        setup=KILN_SETUP,
        twin="unseeded_randomness-h12-kiln-crawl-bootstrap-sound",
        note="bootstrap helper draws from the unseeded global np.random; CI bounds change per run",
        split="holdout12",
    ),
    Case(
        id="unseeded_randomness-h12-kiln-crawl-bootstrap-sound",
        family=None,
        code=KILN_SOUND,
        setup=KILN_SETUP,
        twin="unseeded_randomness-h12-kiln-crawl-bootstrap",
        note="bootstrap uses a seeded Generator, so the reported CI is reproducible",
        split="holdout12",
    ),
    Case(
        id="unseeded_randomness-h12-balloon-launch-forest",
        family="unseeded_randomness",
        code=BALLOON_FLAWED,
        setup=BALLOON_SETUP,
        twin="unseeded_randomness-h12-balloon-launch-forest-sound",
        note="train_test_split and the forest have no random_state; accuracy varies run to run",
        split="holdout12",
    ),
    Case(
        id="unseeded_randomness-h12-balloon-launch-forest-sound",
        family=None,
        code=BALLOON_SOUND,
        setup=BALLOON_SETUP,
        twin="unseeded_randomness-h12-balloon-launch-forest",
        note="split and forest both get a fixed random_state; the accuracy is reproducible",
        split="holdout12",
    ),
]
