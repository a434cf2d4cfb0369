"""Unseeded randomness, holdout4 idioms: RandomizedSearchCV over a decision tree's complexity
with neither the search nor the tree seeded (a different 'best' configuration and score on every
run), and a pure-Python Monte Carlo of a playoff bracket using the global `random` module."""

from textwrap import dedent

from bench.critic_corpus import Case

_STARS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1618)
n = 1200
colour = pd.DataFrame({
    "u_g": rng.normal(0.9, 0.5, n), "g_r": rng.normal(0.4, 0.3, n),
    "r_i": rng.normal(0.2, 0.2, n), "i_z": rng.normal(0.1, 0.15, n),
})
# quasars are bluer in u-g; labels are noisy because spectra are sometimes ambiguous
p_qso = 1 / (1 + np.exp(4 * (colour.u_g - 0.7) + 2 * colour.g_r))
colour["is_quasar"] = (rng.random(n) < p_qso).astype(int)
X, y = colour.drop(columns="is_quasar"), colour.is_quasar
"""

_BRACKET = """\
import random

elo = {"Falcons": 1710, "Vipers": 1690, "Titans": 1655, "Owls": 1640,
       "Comets": 1610, "Lynx": 1600, "Rooks": 1580, "Sparks": 1560}
seeding = ["Falcons", "Sparks", "Owls", "Comets", "Vipers", "Rooks", "Titans", "Lynx"]


def p_win(a, b):
    return 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
"""

CASES: list[Case] = [
    Case(
        id="unseeded-randomizedsearch-tree-quasars",
        family="unseeded_randomness",
        twin="unseeded-randomizedsearch-tree-quasars-sound",
        split="holdout4",
        setup=_STARS,
        note="RandomizedSearchCV samples 6 configurations with no random_state (and the tree "
        "is unseeded), so the chosen depth/leaf size and the best CV score change every run.",
        code=dedent("""\
            from scipy.stats import loguniform, randint
            from sklearn.model_selection import RandomizedSearchCV, StratifiedKFold
            from sklearn.tree import DecisionTreeClassifier

            search = RandomizedSearchCV(
                DecisionTreeClassifier(max_features=2),
                {"max_depth": randint(2, 15), "min_samples_leaf": randint(1, 60),
                 "ccp_alpha": loguniform(1e-5, 1e-2)},
                n_iter=6, cv=StratifiedKFold(5), scoring="roc_auc",
            ).fit(X, y)
            print("best configuration:", search.best_params_)
            print(f"quasar/star ROC AUC (5-fold CV): {search.best_score_:.4f}")
        """),
    ),
    Case(
        id="unseeded-randomizedsearch-tree-quasars-sound",
        family=None,
        twin="unseeded-randomizedsearch-tree-quasars",
        split="holdout4",
        setup=_STARS,
        note="Both the tree and the RandomizedSearchCV sampler have a random_state, so the "
        "chosen configuration and score are reproducible.",
        code=dedent("""\
            from scipy.stats import loguniform, randint
            from sklearn.model_selection import RandomizedSearchCV, StratifiedKFold
            from sklearn.tree import DecisionTreeClassifier

            search = RandomizedSearchCV(
                DecisionTreeClassifier(max_features=2, random_state=0),
                {"max_depth": randint(2, 15), "min_samples_leaf": randint(1, 60),
                 "ccp_alpha": loguniform(1e-5, 1e-2)},
                n_iter=6, cv=StratifiedKFold(5), scoring="roc_auc", random_state=21,
            ).fit(X, y)
            print("best configuration:", search.best_params_)
            print(f"quasar/star ROC AUC (5-fold CV): {search.best_score_:.4f}")
        """),
    ),
    Case(
        id="unseeded-random-module-bracket-sim",
        family="unseeded_randomness",
        twin="unseeded-random-module-bracket-sim-sound",
        split="holdout4",
        setup=_BRACKET,
        note="The bracket Monte Carlo draws from the global `random` module without seeding it, "
        "so every title probability shifts from run to run.",
        code=dedent("""\
            from collections import Counter


            def play_bracket(teams):
                while len(teams) > 1:
                    teams = [a if random.random() < p_win(a, b) else b
                             for a, b in zip(teams[::2], teams[1::2])]
                return teams[0]


            titles = Counter(play_bracket(seeding) for _ in range(4000))
            {team: f"{titles[team] / 4000:.1%}" for team in sorted(elo, key=elo.get, reverse=True)}
        """),
    ),
    Case(
        id="unseeded-random-module-bracket-sim-sound",
        family=None,
        twin="unseeded-random-module-bracket-sim",
        split="holdout4",
        setup=_BRACKET,
        note="The simulation uses its own random.Random(2025) generator, so the title "
        "probabilities are reproducible.",
        code=dedent("""\
            from collections import Counter

            sim_rng = random.Random(2025)


            def play_bracket(teams):
                while len(teams) > 1:
                    teams = [a if sim_rng.random() < p_win(a, b) else b
                             for a, b in zip(teams[::2], teams[1::2])]
                return teams[0]


            titles = Counter(play_bracket(seeding) for _ in range(4000))
            {team: f"{titles[team] / 4000:.1%}" for team in sorted(elo, key=elo.get, reverse=True)}
        """),
    ),
]
