"""unseeded_randomness: a reported number that depends on unseeded randomness (splits,
stochastic estimators, random draws), with sound twins: seeds (random_state, seeded
generators, a global seed here or in an earlier cell), deterministic estimators, and
randomness that reaches no reported number."""

from __future__ import annotations

import pytest

from critics.evidence import Evidence
from critics.findings import Finding
from critics.rules import rules_of
from critics.rules import unseeded_randomness as ur
from tests import rule_helpers
from tests.inprocess_evidence import evidence
from tests.rule_helpers import check, one, silent

SETUP = """
import random
import numpy as np, pandas as pd
from scipy import stats
from sklearn.model_selection import (train_test_split, cross_val_score, KFold, ShuffleSplit,
                                     StratifiedKFold, GridSearchCV, RandomizedSearchCV)
from sklearn.ensemble import RandomForestClassifier, GradientBoostingRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.cluster import KMeans
from sklearn.manifold import TSNE
from sklearn.metrics import accuracy_score, silhouette_score, r2_score
from sklearn.utils import resample
import matplotlib.pyplot as plt
X = np.linspace(0, 1, 400).reshape(200, 2)
X[:, 1] = np.sin(np.arange(200))
y = (X[:, 0] + 0.3 * X[:, 1] > 0.5).astype(int)
yr = X[:, 0] * 2 + X[:, 1]
df = pd.DataFrame({"x": yr, "g": ["a", "b"] * 100})
"""

RULES = rules_of(ur)
SPLIT = "unseeded_randomness.unseeded_split"
EST = "unseeded_randomness.unseeded_estimator"
RNG = "unseeded_randomness.unseeded_rng"
TRACED = "unseeded_randomness.draws_ran_unseeded"  # reads the analysis trace


def never_critical(found: list[Finding]) -> list[Finding]:
    assert all(f.severity != "critical" for f in found)  # this family never blocks
    return found


def findings(ev: Evidence) -> list[Finding]:
    return never_critical(check(RULES, ev))


def run(code: str, setup: str = SETUP) -> list[Finding]:
    """This family's findings on `code`, run in-process after `setup`."""
    return never_critical(rule_helpers.run(RULES, code, setup))


def test_rule_ids_are_stable() -> None:
    assert {r.id for r in RULES} == {SPLIT, EST, RNG, TRACED}


# -- splits ------------------------------------------------------------------------------------


def test_unseeded_split_feeding_a_printed_score_is_high() -> None:
    found = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25)
        model = LogisticRegression().fit(X_train, y_train)
        print("accuracy:", model.score(X_test, y_test))
    """)
    f = one(found, SPLIT)
    assert f.severity == "high" and not f.is_blocking(0.1)
    assert f.lines == [2, 4]
    assert "random_state" in f.suggestion


def test_shuffled_kfold_without_seed() -> None:
    found = run("""
        cv = KFold(5, shuffle=True)
        print(cross_val_score(LinearRegression(), X, yr, cv=cv).mean())
    """)
    assert one(found, SPLIT).severity == "high"


def test_shuffle_split_in_a_loop_appending_scores() -> None:
    found = run("""
        scores = []
        for tr, te in ShuffleSplit(n_splits=5, test_size=0.3).split(X):
            m = LinearRegression().fit(X[tr], yr[tr])
            scores.append(r2_score(yr[te], m.predict(X[te])))
        print(f"R2 {np.mean(scores):.3f}")
    """)
    assert one(found, SPLIT).severity == "high"


def test_unseeded_split_feeding_a_plain_mean_is_medium() -> None:
    found = run("""
        X_train, X_test = train_test_split(X)
        print("mean of the training features:", X_train.mean())
    """)
    assert one(found, SPLIT).severity == "medium"


@pytest.mark.parametrize("code", [
    "X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)",
    "X_train, X_test, y_train, y_test = train_test_split(X, y, shuffle=False)",
    "SEED = 7\nX_train, X_test, y_train, y_test = train_test_split(X, y, random_state=SEED)",
    "np.random.seed(0)\nX_train, X_test, y_train, y_test = train_test_split(X, y)",
])
def test_seeded_or_unshuffled_splits_are_sound(code: str) -> None:
    found = run(code + "\nprint(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))")
    silent(found)


def test_global_seed_in_an_earlier_cell_is_sound() -> None:
    found = run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y)
        print(LogisticRegression().fit(X_train, y_train).score(X_test, y_test))
    """, SETUP + "\nnp.random.seed(42)\n")
    silent(found)


def test_only_shapes_of_a_random_split_are_sound() -> None:
    silent(run("""
        X_train, X_test, y_train, y_test = train_test_split(X, y)
        print(X_train.shape, X_test.shape, len(y_train))
    """))


def test_unshuffled_kfold_is_deterministic() -> None:
    silent(run("""
        print(cross_val_score(LinearRegression(), X, yr, cv=KFold(5)).mean())
        cv = StratifiedKFold(5, shuffle=True, random_state=0)
        print(cross_val_score(LogisticRegression(), X, y, cv=cv).mean())
    """))


# -- estimators --------------------------------------------------------------------------------


def test_random_forest_without_seed_in_cross_validation() -> None:
    found = run("""
        scores = cross_val_score(RandomForestClassifier(n_estimators=20), X, y, cv=5)
        print(f"CV accuracy {scores.mean():.3f}")
    """)
    f = one(found, EST)
    assert f.severity == "high" and "RandomForestClassifier" in f.explanation


def test_kmeans_silhouette_confirmed_by_the_kernel() -> None:
    found = run("""
        km = KMeans(n_clusters=3, n_init=3)
        labels = km.fit_predict(X)
        print("silhouette:", silhouette_score(X, labels))
    """)
    f = one(found, EST)
    assert f.severity == "high" and f.confidence >= 0.8
    assert f.evidence["values"] == {"random_state": None}


def test_saga_logistic_regression_and_boosting() -> None:
    found = run("""
        clf = LogisticRegression(solver="saga", max_iter=200).fit(X, y)
        gb = GradientBoostingRegressor(n_estimators=20, subsample=0.8).fit(X, yr)
        print(clf.score(X, y), gb.score(X, yr))
    """)
    f = one(found, EST)
    assert f.severity == "high" and "saga" in f.explanation


def test_grid_search_over_an_unseeded_forest() -> None:
    found = run("""
        gs = GridSearchCV(RandomForestClassifier(n_estimators=10), {"max_depth": [2, 4]}, cv=3)
        gs.fit(X, y)
        print("best CV accuracy", gs.best_score_)
    """)
    assert one(found, EST).severity == "high"


def test_randomized_search_without_seed() -> None:
    found = run("""
        rs = RandomizedSearchCV(LogisticRegression(), {"C": [0.01, 0.1, 1, 10]}, n_iter=2,
                                cv=3, random_state=None)
        rs.fit(X, y)
        print(rs.best_params_, rs.best_score_)
    """)
    assert one(found, EST).severity == "high"


def test_estimator_built_earlier_without_seed_and_refit_here() -> None:
    found = run("""
        rf.fit(X, y)
        print("accuracy", accuracy_score(y, rf.predict(X)))
    """, SETUP + "\nrf = RandomForestClassifier(n_estimators=10)\n")
    f = one(found, EST)
    assert f.confidence >= 0.8 and "in an earlier cell is refit" in f.explanation


def test_split_in_an_earlier_cell_feeding_this_cells_score() -> None:
    found = run("""
        model = LogisticRegression().fit(X_train, y_train)
        print("test accuracy:", model.score(X_test, y_test))
    """, SETUP + "\nX_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)\n")
    f = one(found, SPLIT)
    assert f.severity == "high" and "earlier cell" in f.explanation


def test_seeded_split_in_an_earlier_cell_is_sound() -> None:
    silent(run("""
        model = LogisticRegression().fit(X_train, y_train)
        print("test accuracy:", model.score(X_test, y_test))
    """, SETUP + "\nX_train, X_test, y_train, y_test = train_test_split(X, y, random_state=1)\n"))


def test_unseeded_generator_from_an_earlier_cell() -> None:
    found = run("print(rng.normal(size=10).mean())", SETUP + "\nrng = np.random.default_rng()\n")
    assert one(found, RNG).severity == "medium"


def test_seeded_and_deterministic_estimators_are_sound() -> None:
    silent(run("""
        rf = RandomForestClassifier(n_estimators=10, random_state=0)
        lr = LinearRegression()
        lg = LogisticRegression()
        print(cross_val_score(rf, X, y, cv=3).mean(), lr.fit(X, yr).score(X, yr),
              lg.fit(X, y).score(X, y))
    """))


def test_seed_set_after_construction_is_read_from_the_kernel() -> None:
    silent(run("""
        rf = RandomForestClassifier(n_estimators=10)
        rf.set_params(random_state=3)
        print(cross_val_score(rf, X, y, cv=3).mean())
    """))


def test_tsne_for_a_plot_only_is_sound() -> None:
    # code only: t-SNE is slow to run, and what matters is that nothing is reported
    silent(findings(evidence("""
        emb = TSNE(n_components=2, perplexity=10, init="random").fit_transform(X[:60])
        fig, ax = plt.subplots()
        ax.scatter(emb[:, 0], emb[:, 1])
        plt.close(fig)
    """, prior_code=SETUP)))
    flagged = findings(evidence("""
        emb = TSNE(n_components=2, perplexity=10, init="random").fit_transform(X[:60])
        print("spread of the embedding:", emb.std())
    """, prior_code=SETUP))
    assert one(flagged, EST).severity == "medium"


def test_printing_the_unfitted_estimator_is_sound() -> None:
    silent(run("""
        rf = RandomForestClassifier(n_estimators=10)
        print(rf)
    """))


# -- random draws ------------------------------------------------------------------------------


def test_bootstrap_ci_with_the_legacy_global_rng() -> None:
    found = run("""
        boots = []
        for _ in range(200):
            s = np.random.choice(yr, size=len(yr), replace=True)
            boots.append(s.mean())
        lo, hi = np.percentile(boots, [2.5, 97.5])
        print(f"95% CI: [{lo:.3f}, {hi:.3f}]")
    """)
    f = one(found, RNG)
    assert f.severity == "high" and "confidence interval" in f.explanation


def test_permutation_p_value_with_python_random_in_a_helper() -> None:
    found = run("""
        def perm_p(a, b, n=200):
            obs = np.mean(a) - np.mean(b)
            pooled = list(a) + list(b)
            hits = 0
            for _ in range(n):
                random.shuffle(pooled)
                d = np.mean(pooled[:len(a)]) - np.mean(pooled[len(a):])
                hits += abs(d) >= abs(obs)
            return hits / n
        p = perm_p(yr[:100], yr[100:])
        print(f"permutation p = {p:.3f}")
    """)
    assert one(found, RNG).severity == "high"


def test_scipy_bootstrap_without_random_state() -> None:
    found = run("""
        res = stats.bootstrap((yr,), np.mean, n_resamples=200)
        print(res.confidence_interval)
    """)
    assert one(found, RNG).severity == "high"


def test_sklearn_resample_without_random_state() -> None:
    found = run("""
        means = [resample(yr).mean() for _ in range(100)]
        print("bootstrap SE:", np.std(means))
    """)
    assert one(found, RNG).severity == "high"


def test_unseeded_generator_feeding_a_simulated_mean_is_medium() -> None:
    found = run("""
        rng = np.random.default_rng()
        sim = rng.normal(size=1000)
        print("simulated mean:", sim.mean())
    """)
    f = one(found, RNG)
    assert f.severity == "medium" and 3 in f.lines


def test_dataframe_sample_without_random_state() -> None:
    found = run("""
        sub = df.sample(frac=0.5)
        print(sub.groupby("g").x.mean())
    """)
    assert one(found, RNG).severity == "medium"


def test_seed_after_the_draw_does_not_help() -> None:
    found = run("""
        noise = np.random.normal(size=50)
        np.random.seed(0)
        print("mean noise", noise.mean())
    """)
    assert one(found, RNG).severity == "medium"


@pytest.mark.parametrize("code", [
    "np.random.seed(0)\nx = np.random.normal(size=100)\nprint(x.mean())",
    "rng = np.random.default_rng(42)\nx = rng.normal(size=100)\nprint(x.mean())",
    "rs = np.random.RandomState(1)\nx = rs.normal(size=100)\nprint(x.mean())",
    "random.seed(1)\nvals = [random.random() for _ in range(10)]\nprint(sum(vals))",
    "sub = df.sample(frac=0.5, random_state=0)\nprint(sub.x.mean())",
    "res = stats.bootstrap((yr,), np.mean, n_resamples=100, random_state=0)\n"
    "print(res.confidence_interval)",
    "print(np.mean([resample(yr, random_state=i).mean() for i in range(20)]))",
])
def test_seeded_draws_are_sound(code: str) -> None:
    silent(run(code))


def test_exact_permutation_test_draws_nothing() -> None:
    silent(run("""
        res = stats.permutation_test((yr[:4], yr[4:8]), lambda a, b: np.mean(a) - np.mean(b),
                                     permutation_type="independent", n_resamples=np.inf)
        print(f"exact permutation p = {res.pvalue:.4f}")
    """))


def test_seeded_generator_from_an_earlier_cell_is_sound() -> None:
    silent(run("print(rng.normal(size=10).mean())",
              SETUP + "\nrng = np.random.default_rng(2024)\n"))


def test_random_data_for_a_plot_only_is_sound() -> None:
    silent(run("""
        noise = np.random.randn(100)
        fig, ax = plt.subplots()
        ax.hist(noise)
        plt.close(fig)
    """))


def test_peeking_at_a_random_sample_of_rows_is_sound() -> None:
    silent(run("df.sample(5)"))


def test_without_earlier_cells_confidence_is_lower() -> None:
    code = "x = np.random.normal(size=10)\nprint(x.mean())"
    with_prior = one(findings(evidence(code, prior_code="import numpy as np")), RNG)
    without = one(findings(evidence("import numpy as np\n" + code)), RNG)
    assert without.confidence < with_prior.confidence


# -- robustness --------------------------------------------------------------------------------


def test_odd_code_does_not_raise() -> None:
    for code in ("def broken(:\n    pass", "", "np.random.", "rng.normal()",
                 "train_test_split()", "KFold(shuffle=True, **cfg)", "x.sample()",
                 "RandomForestClassifier(**params).fit(X, y).score(X, y)"):
        findings(evidence(code))


# -- convex solvers: the seed only orders the updates of a problem with one optimum ------------

@pytest.mark.parametrize("code", [
    """
    clf = LogisticRegression(solver="liblinear").fit(X, y)
    print("accuracy", clf.score(X, y))
    """,
    """
    from sklearn.svm import LinearSVC
    print(cross_val_score(LinearSVC(C=0.5), X, y, cv=5).mean())
    """,
    """
    from sklearn.linear_model import Ridge
    m = Ridge(solver="sag", max_iter=5000).fit(X, yr)
    print(m.score(X, yr))
    """,
])
def test_converged_convex_solver_without_seed_is_low(code: str) -> None:
    f = one(run(code), EST)
    assert f.severity == "low" and f.confidence <= 0.3
    assert "convex solver" in f.explanation and "converged" in f.explanation


def test_convex_solver_built_in_an_earlier_cell_is_low() -> None:
    f = one(run("""
        clf.fit(X, y)
        print(clf.score(X, y))
    """, SETUP + "\nclf = LogisticRegression(solver='saga', max_iter=2000)\n"), EST)
    assert f.severity == "low" and "refits `clf`" in f.explanation


def test_convex_solver_that_did_not_converge_stays_high() -> None:
    # with a ConvergenceWarning the seed decides where the solver stopped
    f = one(run("""
        from sklearn.svm import LinearSVC
        m = LinearSVC(C=1000, max_iter=3).fit(X * 100, y)
        print(m.score(X * 100, y))
    """), EST)
    assert f.severity == "high" and "convex solver" not in f.explanation


def test_convex_solver_next_to_a_forest_stays_high() -> None:
    f = one(run("""
        from sklearn.svm import LinearSVC
        a = LinearSVC().fit(X, y)
        b = RandomForestClassifier(n_estimators=5).fit(X, y)
        print(a.score(X, y), b.score(X, y))
    """), EST)
    assert f.severity == "high" and "RandomForestClassifier" in f.explanation


def test_seeded_convex_solver_is_silent() -> None:
    silent(run("""
        from sklearn.svm import LinearSVC
        print(cross_val_score(LinearSVC(C=0.5, random_state=0), X, y, cv=5).mean())
    """))


# Draws written into an item of a container (`out[i] = …`, `res.loc[k, "m"] = …`,
# `acc[key] += …`) taint the container, which then feeds the reported number.
ITEM_WRITES = [
    # permutation test of a correlation (litter mass vs. canopy), null draws into an array
    ("""
        a, b = X[:, 0], X[:, 1]
        null = np.zeros(500)
        for i in range(500):
            null[i] = np.corrcoef(a, {draw})[0, 1]
        p = np.mean(np.abs(null) >= abs(np.corrcoef(a, b)[0, 1]))
        print(f"permutation p = {{p:.3f}}")
    """, "np.random.permutation(b)", "rng.permutation(b)"),
    # bootstrap of a trimmed mean of delivery delays, written into a DataFrame row by row
    ("""
        res = pd.DataFrame(index=range(300), columns=["tmean"], dtype=float)
        for k in range(300):
            res.loc[k, "tmean"] = stats.trim_mean({draw}, 0.1)
        lo, hi = res["tmean"].quantile([0.025, 0.975])
        print(f"trimmed mean 95% CI {{lo:.2f}} to {{hi:.2f}}")
    """, "random.choices(list(yr), k=len(yr))", "rnd.choices(list(yr), k=len(yr))"),
    # accumulated resampled totals per group in a dict (augmented assignment)
    ("""
        totals = {{"a": 0.0, "b": 0.0}}
        for rep in range(200):
            for g, sub in df.groupby("g"):
                totals[g] += sub["x"].sample(frac=1, replace=True{seed}).median() / 200
        print("mean bootstrap median by group:", {{g: round(v, 3) for g, v in totals.items()}})
    """, "", ", random_state=rep"),
]


@pytest.mark.parametrize(("template", "flawed", "sound"), ITEM_WRITES)
def test_draws_written_into_container_items_are_found(template: str, flawed: str,
                                                      sound: str) -> None:
    code = template.format(draw=flawed, seed=flawed)
    f = one(run(code), RNG)
    assert f.severity in ("high", "medium")


@pytest.mark.parametrize(("template", "flawed", "sound"), ITEM_WRITES)
def test_seeded_draws_written_into_container_items_are_silent(template: str, flawed: str,
                                                             sound: str) -> None:
    prefix = "rng = np.random.default_rng(1)\nrnd = random.Random(1)\n"
    code = template.format(draw=sound, seed=sound)
    silent(run(prefix + __import__("textwrap").dedent(code)))


# -- a p-value counted under a condition on shuffled data (control flow, not data flow) ----------

_COUNT_SETUP = SETUP + """
dose = [4.1, 3.8, 5.2, 4.9, 5.5, 4.4, 3.9, 5.1, 4.7, 5.0, 4.2, 4.8]
placebo = [3.9, 3.5, 4.0, 4.4, 3.7, 4.1, 3.6, 4.3, 3.8, 4.2, 3.4, 4.0]
beetles = np.array([12, 15, 9, 14, 11, 18, 16, 13, 10, 17, 19, 8], float)
site = np.array(["burnt"] * 6 + ["unburnt"] * 6)
"""


def test_stdlib_sample_counter_p_value() -> None:
    code = """
import random
obs = sum(dose) / len(dose) - sum(placebo) / len(placebo)
both = dose + placebo
extreme = 0
for i in range(3000):
    draw = random.sample(both, len(both))
    d = sum(draw[:12]) / 12 - sum(draw[12:]) / 12
    if d >= obs:
        extreme += 1
pval = extreme / 3000
print(f"one-sided permutation p = {pval:.4f}")
"""
    f = one(run(code, _COUNT_SETUP), RNG)
    assert f.severity == "high"
    silent(run(code.replace("extreme = 0", "random.seed(11)\nextreme = 0"), _COUNT_SETUP))


def test_numpy_global_permutation_while_counter() -> None:
    code = """
diff = beetles[site == "burnt"].mean() - beetles[site == "unburnt"].mean()
k, ge = 0, 0
while k < 2000:
    lab = np.random.permutation(site)
    stat = beetles[lab == "burnt"].mean() - beetles[lab == "unburnt"].mean()
    if abs(stat) >= abs(diff):
        ge = ge + 1
    k += 1
p_two_sided = (ge + 1) / (k + 1)
print("burn effect", round(diff, 2), "p =", round(p_two_sided, 4))
"""
    f = one(run(code, _COUNT_SETUP), RNG)
    assert f.severity == "high"
    seeded = code.replace("k, ge = 0, 0", "gen = np.random.default_rng(5)\nk, ge = 0, 0") \
        .replace("np.random.permutation(site)", "gen.permutation(site)")
    silent(run(seeded, _COUNT_SETUP))


def test_bootstrap_share_counted_in_helper() -> None:
    code = """
def share_positive(x, reps=1000):
    above = 0
    for _ in range(reps):
        m = np.mean(np.random.choice(x, size=len(x)))
        if m > 0:
            above += 1
    return above / reps

returns = np.diff(np.log(beetles))
prob_gain = share_positive(returns)
print(f"bootstrap share of positive mean returns: {prob_gain:.3f}")
"""
    one(run(code, _COUNT_SETUP), RNG)
    seeded = code.replace("above = 0", "above = 0\n    rs = np.random.RandomState(3)") \
        .replace("np.random.choice(x,", "rs.choice(x,")
    silent(run(seeded, _COUNT_SETUP))


def test_condition_on_fixed_data_does_not_taint_counter() -> None:
    """A counter guarded by a condition on unshuffled data stays deterministic."""
    code = """
import random
order = list(range(12))
random.shuffle(order)
big = 0
for i in range(12):
    if dose[i] > placebo[i]:
        big += 1
print(f"{big} of 12 pairs favour the dose; first in random order: {order[0] >= 0}")
"""
    found = run(code, _COUNT_SETUP)
    assert not [f for f in found if f.severity in ("high", "critical")]


def test_pandas_sample_shuffle_counter() -> None:
    code = """
wait = pd.DataFrame({"minutes": [31, 45, 28, 52, 39, 61, 33, 48, 57, 42],
                     "clinic": ["north"] * 5 + ["south"] * 5})
gap = wait.groupby("clinic").minutes.mean().diff().iloc[-1]
n_ge = 0
for r in range(1500):
    lab = wait["clinic"].sample(frac=1).to_numpy()
    g = wait.minutes[lab == "south"].mean() - wait.minutes[lab == "north"].mean()
    if g >= gap:
        n_ge += 1
print(f"south waits {gap:.1f} min longer, permutation p = {n_ge / 1500:.3f}")
"""
    one(run(code), RNG)
    silent(run(code.replace("sample(frac=1)", "sample(frac=1, random_state=r)")))
