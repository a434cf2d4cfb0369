"""Unseeded randomness, holdout7 idioms: a Monte Carlo reorder-point calculation that resamples
supplier lead times and daily demand with numpy's global np.random functions and prints the
97.5th percentile of lead-time demand as the reorder point; and an eye-tracking decoding result
from sklearn's permutation_test_score with an unseeded shuffled StratifiedKFold and no
random_state, whose accuracy and permutation p-value are reported."""

from textwrap import dedent

from bench.critic_corpus import Case

_SKU = """\
import numpy as np

rng = np.random.default_rng(8001)
daily_demand = rng.negative_binomial(4, 4 / (4 + 38), 365)         # units/day, last year
lead_times = rng.choice([5, 6, 7, 8, 9, 12, 16], 60,
                        p=[0.1, 0.25, 0.3, 0.15, 0.1, 0.06, 0.04])  # days, last 60 POs
"""

_GAZE = """\
import numpy as np

rng = np.random.default_rng(8002)
n_trials = 90
task = np.repeat(["reading", "search"], n_trials // 2)
# per-trial gaze features: fixation duration, saccade amplitude, regressions, pupil size, ...
gaze = rng.normal(0, 1, (n_trials, 10))
gaze[task == "search", :3] += 0.3
"""

CASES: list[Case] = [
    Case(
        id="unseeded-h7-global-np-random-reorder-point",
        family="unseeded_randomness",
        twin="unseeded-h7-global-np-random-reorder-point-sound",
        split="holdout7",
        setup=_SKU,
        note="Lead times and daily demands are resampled with the global np.random functions, "
        "never seeded, so the printed reorder point and safety stock change on every run.",
        code=dedent("""\
            n_sims = 4000
            sim_lt = np.random.choice(lead_times, n_sims)
            lt_demand = np.array([np.random.choice(daily_demand, k).sum() for k in sim_lt])
            reorder_point = np.percentile(lt_demand, 97.5)
            safety_stock = reorder_point - daily_demand.mean() * lead_times.mean()
            print(f"mean lead-time demand = {lt_demand.mean():.1f} units")
            print(f"reorder point (97.5% service) = {reorder_point:.1f} units, "
                  f"safety stock = {safety_stock:.1f} units")
        """),
    ),
    Case(
        id="unseeded-h7-global-np-random-reorder-point-sound",
        family=None,
        twin="unseeded-h7-global-np-random-reorder-point",
        split="holdout7",
        setup=_SKU,
        note="The same Monte Carlo run from a seeded Generator, so the reorder point is "
        "reproducible.",
        code=dedent("""\
            sim = np.random.default_rng(20240611)
            n_sims = 4000
            sim_lt = sim.choice(lead_times, n_sims)
            lt_demand = np.array([sim.choice(daily_demand, k).sum() for k in sim_lt])
            reorder_point = np.percentile(lt_demand, 97.5)
            safety_stock = reorder_point - daily_demand.mean() * lead_times.mean()
            print(f"mean lead-time demand = {lt_demand.mean():.1f} units")
            print(f"reorder point (97.5% service) = {reorder_point:.1f} units, "
                  f"safety stock = {safety_stock:.1f} units")
        """),
    ),
    Case(
        id="unseeded-h7-permutation-test-score-gaze-decoding",
        family="unseeded_randomness",
        twin="unseeded-h7-permutation-test-score-gaze-decoding-sound",
        split="holdout7",
        setup=_GAZE,
        note="Neither the shuffled folds nor the label permutations have a random_state, so the "
        "reported decoding accuracy and permutation p-value differ from run to run.",
        code=dedent("""\
            from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
            from sklearn.model_selection import StratifiedKFold, permutation_test_score

            acc, null_acc, p = permutation_test_score(
                LinearDiscriminantAnalysis(), gaze, task,
                cv=StratifiedKFold(n_splits=5, shuffle=True), n_permutations=150)
            print(f"reading vs search decoded from gaze: accuracy = {acc:.3f} "
                  f"(null mean {null_acc.mean():.3f}), permutation p = {p:.4f}")
        """),
    ),
    Case(
        id="unseeded-h7-permutation-test-score-gaze-decoding-sound",
        family=None,
        twin="unseeded-h7-permutation-test-score-gaze-decoding",
        split="holdout7",
        setup=_GAZE,
        note="Both the fold shuffling and the label permutations are seeded, so the accuracy "
        "and the p-value are reproducible.",
        code=dedent("""\
            from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
            from sklearn.model_selection import StratifiedKFold, permutation_test_score

            acc, null_acc, p = permutation_test_score(
                LinearDiscriminantAnalysis(), gaze, task,
                cv=StratifiedKFold(n_splits=5, shuffle=True, random_state=8),
                n_permutations=150, random_state=9)
            print(f"reading vs search decoded from gaze: accuracy = {acc:.3f} "
                  f"(null mean {null_acc.mean():.3f}), permutation p = {p:.4f}")
        """),
    ),
]
