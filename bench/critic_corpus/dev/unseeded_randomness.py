"""A printed number that depends on unseeded randomness (splits, forests, bootstraps,
k-means initialisation, sampling)."""

from textwrap import dedent

from bench.critic_corpus import Case

_REVENUE = """\
import numpy as np

rng = np.random.default_rng(73)
revenue = np.round(rng.gamma(shape=0.6, scale=80, size=1500), 2)   # revenue per user, USD
"""

_CUSTOMERS = """\
import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(12)
n = 1500
customers = pd.DataFrame({
    "recency_days": rng.exponential(40, n),
    "frequency": rng.poisson(5, n) + 1,
    "monetary": rng.gamma(2, 60, n),
    "tenure_months": rng.uniform(1, 60, n),
})
Z = StandardScaler().fit_transform(np.log1p(customers))
"""

_PANEL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(5)
n = 20000
panel = pd.DataFrame({
    "respondent": np.arange(n),
    "region": rng.choice(["north", "south", "east", "west"], n),
    "hours_online": rng.gamma(3, 1.2, n).round(1),
    "trust_score": rng.normal(6.1, 1.8, n).clip(0, 10).round(1),
})
"""

CASES: list[Case] = [
    Case(
        id="unseeded-split-and-forest-diabetes",
        family="unseeded_randomness",
        twin="unseeded-split-and-forest-diabetes-sound",
        note="train_test_split and RandomForestRegressor both without random_state; the "
        "printed R^2 changes on every run.",
        code=dedent("""\
            from sklearn.datasets import load_diabetes
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.metrics import r2_score
            from sklearn.model_selection import train_test_split

            X, y = load_diabetes(return_X_y=True, as_frame=True)
            X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)
            forest = RandomForestRegressor(n_estimators=200, min_samples_leaf=3)
            forest.fit(X_train, y_train)
            r2 = r2_score(y_test, forest.predict(X_test))
            print(f"disease progression model: test R^2 = {r2:.3f}")
        """),
    ),
    Case(
        id="unseeded-split-and-forest-diabetes-sound",
        family=None,
        twin="unseeded-split-and-forest-diabetes",
        note="Both the split and the forest are seeded (random_state), so the R^2 is "
        "reproducible.",
        code=dedent("""\
            from sklearn.datasets import load_diabetes
            from sklearn.ensemble import RandomForestRegressor
            from sklearn.metrics import r2_score
            from sklearn.model_selection import train_test_split

            X, y = load_diabetes(return_X_y=True, as_frame=True)
            X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2,
                                                                random_state=42)
            forest = RandomForestRegressor(n_estimators=200, min_samples_leaf=3, random_state=0)
            forest.fit(X_train, y_train)
            r2 = r2_score(y_test, forest.predict(X_test))
            print(f"disease progression model: test R^2 = {r2:.3f}")
        """),
    ),
    Case(
        id="unseeded-bootstrap-np-random-choice",
        family="unseeded_randomness",
        twin="unseeded-bootstrap-np-random-choice-sound",
        setup=_REVENUE,
        note="Bootstrap resamples drawn with the global np.random.choice, never seeded; the "
        "printed CI bounds differ per run.",
        code=dedent("""\
            boot_means = [np.random.choice(revenue, size=revenue.size, replace=True).mean()
                          for _ in range(2000)]
            lo, hi = np.percentile(boot_means, [2.5, 97.5])
            print(f"ARPU ${revenue.mean():.2f} (95% bootstrap CI ${lo:.2f} - ${hi:.2f})")
        """),
    ),
    Case(
        id="unseeded-bootstrap-np-random-choice-sound",
        family=None,
        twin="unseeded-bootstrap-np-random-choice",
        setup=_REVENUE,
        note="Bootstrap resamples drawn from np.random.default_rng(2024).",
        code=dedent("""\
            boot_rng = np.random.default_rng(2024)
            boot_means = [boot_rng.choice(revenue, size=revenue.size, replace=True).mean()
                          for _ in range(2000)]
            lo, hi = np.percentile(boot_means, [2.5, 97.5])
            print(f"ARPU ${revenue.mean():.2f} (95% bootstrap CI ${lo:.2f} - ${hi:.2f})")
        """),
    ),
    Case(
        id="unseeded-kmeans-rfm-segments",
        family="unseeded_randomness",
        twin="unseeded-kmeans-rfm-segments-sound",
        note="KMeans without random_state on unclustered RFM data: segment sizes, inertia and "
        "silhouette change with the initialisation.",
        code=_CUSTOMERS + dedent("""\

            km = KMeans(n_clusters=5).fit(Z)
            customers["segment"] = km.labels_
            print(customers.groupby("segment").mean().round(1))
            sil = silhouette_score(Z, km.labels_)
            print(f"inertia = {km.inertia_:.1f}, silhouette = {sil:.3f}")
        """),
    ),
    Case(
        id="unseeded-kmeans-rfm-segments-sound",
        family=None,
        twin="unseeded-kmeans-rfm-segments",
        note="KMeans with random_state and several initialisations (n_init=10).",
        code=_CUSTOMERS + dedent("""\

            km = KMeans(n_clusters=5, n_init=10, random_state=0).fit(Z)
            customers["segment"] = km.labels_
            print(customers.groupby("segment").mean().round(1))
            sil = silhouette_score(Z, km.labels_)
            print(f"inertia = {km.inertia_:.1f}, silhouette = {sil:.3f}")
        """),
    ),
    Case(
        id="unseeded-df-sample-panel",
        family="unseeded_randomness",
        twin="unseeded-df-sample-panel-sound",
        note="A 2% subsample drawn with df.sample() and no random_state; the reported means "
        "depend on which rows were drawn.",
        code=_PANEL + dedent("""\

            pilot = panel.sample(frac=0.02)
            print(f"pilot sample of {len(pilot)} respondents")
            print(pilot.groupby("region")[["hours_online", "trust_score"]].mean().round(2))
        """),
    ),
    Case(
        id="unseeded-df-sample-panel-sound",
        family=None,
        twin="unseeded-df-sample-panel",
        note="Same 2% subsample with random_state fixed.",
        code=_PANEL + dedent("""\

            pilot = panel.sample(frac=0.02, random_state=7)
            print(f"pilot sample of {len(pilot)} respondents")
            print(pilot.groupby("region")[["hours_online", "trust_score"]].mean().round(2))
        """),
    ),
]
