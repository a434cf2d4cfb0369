"""Unseeded randomness, holdout9 idioms: a BCa confidence interval for the median theatre
occupancy from scipy.stats.bootstrap called without a generator, and XRF compositional groups of
pottery sherds from a single-initialisation KMeans without random_state, whose group sizes and
silhouette are reported."""

from textwrap import dedent

from bench.critic_corpus import Case

_THEATRE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10001)
n = 64
perf = pd.DataFrame({
    "performance": pd.date_range("2024-09-05", periods=n, freq="2D"),
    "production": rng.choice(["Hedda Gabler", "The Seagull", "Our Town"], n),
    "capacity": 720,
    "sold": np.minimum(720, rng.normal(520, 130, n).round()).astype(int),
})
perf["occupancy"] = perf.sold / perf.capacity
"""

_SHERDS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10002)
elements = ["K", "Ca", "Ti", "Fe", "Rb", "Sr", "Zr"]
centres = np.array([
    [1.9, 3.5, 0.45, 5.2, 120, 210, 180],
    [2.4, 1.2, 0.55, 6.1, 150, 110, 210],
    [2.1, 2.3, 0.50, 5.7, 135, 160, 195],
])
parts = []
for c, size in zip(centres, [60, 45, 35], strict=True):
    parts.append(c * rng.lognormal(0, 0.14, (size, len(elements))))
xrf = pd.DataFrame(np.vstack(parts), columns=elements).round(3)
xrf.insert(0, "sherd", [f"TR4-{i:03d}" for i in range(len(xrf))])
"""

CASES: list[Case] = [
    Case(
        id="unseeded_randomness-h9-theatre-occupancy-bootstrap-no-rng",
        family="unseeded_randomness",
        twin="unseeded_randomness-h9-theatre-occupancy-bootstrap-no-rng-sound",
        split="holdout9",
        setup=_THEATRE,
        note="scipy.stats.bootstrap is called without rng/random_state, so the resamples and "
        "hence the printed confidence limits change on every run.",
        code=dedent("""\
            from scipy import stats

            occ = perf["occupancy"].to_numpy()
            res = stats.bootstrap((occ,), np.median, n_resamples=4999, method="BCa")
            lo, hi = res.confidence_interval
            print(f"{len(occ)} performances, median occupancy {np.median(occ):.1%}")
            print(f"95% BCa interval for the median: {lo:.2%} to {hi:.2%}")
            print(f"bootstrap standard error: {res.standard_error:.4f}")
        """),
    ),
    Case(
        id="unseeded_randomness-h9-theatre-occupancy-bootstrap-no-rng-sound",
        family=None,
        twin="unseeded_randomness-h9-theatre-occupancy-bootstrap-no-rng",
        split="holdout9",
        setup=_THEATRE,
        note="The bootstrap gets a seeded Generator, so the interval and standard error are "
        "reproducible.",
        code=dedent("""\
            from scipy import stats

            occ = perf["occupancy"].to_numpy()
            res = stats.bootstrap((occ,), np.median, n_resamples=4999, method="BCa",
                                  rng=np.random.default_rng(2024))
            lo, hi = res.confidence_interval
            print(f"{len(occ)} performances, median occupancy {np.median(occ):.1%}")
            print(f"95% BCa interval for the median: {lo:.2%} to {hi:.2%}")
            print(f"bootstrap standard error: {res.standard_error:.4f}")
        """),
    ),
    Case(
        id="unseeded_randomness-h9-pottery-xrf-kmeans-single-init",
        family="unseeded_randomness",
        twin="unseeded_randomness-h9-pottery-xrf-kmeans-single-init-sound",
        split="holdout9",
        setup=_SHERDS,
        note="KMeans has n_init=1 and no random_state, so the initial centres come from the "
        "global numpy state and the group sizes and silhouette differ between runs.",
        code=dedent("""\
            from sklearn.cluster import KMeans
            from sklearn.metrics import silhouette_score
            from sklearn.preprocessing import StandardScaler

            comp = np.log(xrf[["K", "Ca", "Ti", "Fe", "Rb", "Sr", "Zr"]])
            z = StandardScaler().fit_transform(comp)
            km = KMeans(n_clusters=4, n_init=1, init="random").fit(z)
            xrf["group"] = km.labels_

            print("sherds per compositional group:",
                  xrf["group"].value_counts().sort_index().tolist())
            print(f"silhouette: {silhouette_score(z, km.labels_):.3f}")
            print(xrf.groupby("group")[["Ca", "Rb", "Sr"]].mean().round(2))
        """),
    ),
    Case(
        id="unseeded_randomness-h9-pottery-xrf-kmeans-single-init-sound",
        family=None,
        twin="unseeded_randomness-h9-pottery-xrf-kmeans-single-init",
        split="holdout9",
        setup=_SHERDS,
        note="KMeans is run with a fixed random_state and many initialisations, so the groups, "
        "their sizes and the silhouette are reproducible.",
        code=dedent("""\
            from sklearn.cluster import KMeans
            from sklearn.metrics import silhouette_score
            from sklearn.preprocessing import StandardScaler

            comp = np.log(xrf[["K", "Ca", "Ti", "Fe", "Rb", "Sr", "Zr"]])
            z = StandardScaler().fit_transform(comp)
            km = KMeans(n_clusters=4, n_init=20, random_state=7).fit(z)
            xrf["group"] = km.labels_

            print("sherds per compositional group:",
                  xrf["group"].value_counts().sort_index().tolist())
            print(f"silhouette: {silhouette_score(z, km.labels_):.3f}")
            print(xrf.groupby("group")[["Ca", "Rb", "Sr"]].mean().round(2))
        """),
    ),
]
