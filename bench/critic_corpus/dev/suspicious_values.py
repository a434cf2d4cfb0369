"""A printed result that is impossible or too good to be true: accuracy of exactly 1.0,
p-values above 1, a hugely negative R^2, a negative variance."""

from textwrap import dedent

from bench.critic_corpus import Case

_MARKERS = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(88)
markers = ["CRP", "IL6", "TNFa", "ferritin", "D_dimer", "procalcitonin", "LDH", "troponin"]
shift = dict.fromkeys(markers, 0.0) | {"CRP": 0.8, "IL6": 0.6}
cases = pd.DataFrame({m: rng.normal(shift[m], 1, 40) for m in markers})     # z-scored assays
controls = pd.DataFrame({m: rng.normal(0, 1, 40) for m in markers})
p_raw = np.array([stats.ttest_ind(cases[m], controls[m]).pvalue for m in markers])
"""

_HOMES = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split

rng = np.random.default_rng(46)
n = 1000
homes = pd.DataFrame({
    "sqft": rng.normal(1900, 550, n).clip(500),
    "beds": rng.integers(1, 6, n),
    "age": rng.integers(0, 90, n),
})
homes["price"] = np.exp(11.9 + 0.0004 * homes.sqft + 0.04 * homes.beds - 0.003 * homes.age
                        + rng.normal(0, 0.18, n))
X_train, X_test, y_train, y_test = train_test_split(
    homes[["sqft", "beds", "age"]], homes.price, test_size=0.2, random_state=4
)
model = LinearRegression().fit(X_train, np.log(y_train))     # log-price model
"""

_STRAIN = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11)
names = ["strain_A", "strain_B", "strain_C", "strain_D", "strain_E"]
offsets = [10000, 12000, 13000, 11000, 15000]             # microstrain, per gauge
readings = pd.DataFrame({
    "sensor": np.repeat(names, 2000),
    "value": np.concatenate([rng.normal(o, 0.02, 2000) for o in offsets]).astype(np.float32),
})
"""

CASES: list[Case] = [
    Case(
        id="suspicious-train-accuracy-tree",
        family="suspicious_values",
        twin="suspicious-train-accuracy-tree-sound",
        note="Unpruned decision tree scored on the rows it was fitted on: prints accuracy "
        "1.000 as the model's accuracy.",
        code=dedent("""\
            from sklearn.datasets import load_breast_cancer
            from sklearn.metrics import accuracy_score, confusion_matrix
            from sklearn.tree import DecisionTreeClassifier

            data = load_breast_cancer(as_frame=True)
            X, y = data.data, data.target
            tree = DecisionTreeClassifier(random_state=0).fit(X, y)
            pred = tree.predict(X)
            print(f"Model accuracy: {accuracy_score(y, pred):.3f}")
            print(confusion_matrix(y, pred))
        """),
    ),
    Case(
        id="suspicious-train-accuracy-tree-sound",
        family=None,
        twin="suspicious-train-accuracy-tree",
        note="Same tree, accuracy estimated with stratified 5-fold cross-validation "
        "(a plausible ~0.9).",
        code=dedent("""\
            from sklearn.datasets import load_breast_cancer
            from sklearn.model_selection import StratifiedKFold, cross_val_score
            from sklearn.tree import DecisionTreeClassifier

            data = load_breast_cancer(as_frame=True)
            X, y = data.data, data.target
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            acc = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, cv=cv)
            print(f"Model accuracy (5-fold CV): {acc.mean():.3f} +/- {acc.std():.3f}")
        """),
    ),
    Case(
        id="suspicious-bonferroni-unclipped",
        family="suspicious_values",
        twin="suspicious-bonferroni-unclipped-sound",
        note="Hand-rolled Bonferroni p * m without capping at 1: the table shows adjusted "
        "p-values of 3-7.",
        code=_MARKERS + dedent("""\

            p_bonf = p_raw * len(markers)
            report = pd.DataFrame({"p_raw": p_raw, "p_bonferroni": p_bonf}, index=markers)
            report["significant"] = report.p_bonferroni < 0.05
            report.sort_values("p_raw").round(4)
        """),
    ),
    Case(
        id="suspicious-bonferroni-unclipped-sound",
        family=None,
        twin="suspicious-bonferroni-unclipped",
        note="Bonferroni via statsmodels multipletests, which caps adjusted p-values at 1.",
        code=_MARKERS + dedent("""\
            from statsmodels.stats.multitest import multipletests

            reject, p_bonf, _, _ = multipletests(p_raw, alpha=0.05, method="bonferroni")
            report = pd.DataFrame({"p_raw": p_raw, "p_bonferroni": p_bonf}, index=markers)
            report["significant"] = reject
            report.sort_values("p_raw").round(4)
        """),
    ),
    Case(
        id="suspicious-negative-r2-log-target",
        family="suspicious_values",
        twin="suspicious-negative-r2-log-target-sound",
        note="Model predicts log(price) but R^2 is computed against raw prices: prints an "
        "R^2 of about -10.",
        code=_HOMES + dedent("""\

            pred = model.predict(X_test)
            print(f"test R^2 = {r2_score(y_test, pred):.2f}")
        """),
    ),
    Case(
        id="suspicious-negative-r2-log-target-sound",
        family=None,
        twin="suspicious-negative-r2-log-target",
        note="Predictions back-transformed with exp() before scoring against prices; R^2 on "
        "the log scale also shown.",
        code=_HOMES + dedent("""\

            log_pred = model.predict(X_test)
            print(f"test R^2 (log price) = {r2_score(np.log(y_test), log_pred):.2f}")
            print(f"test R^2 (price, back-transformed) = {r2_score(y_test, np.exp(log_pred)):.2f}")
        """),
    ),
    Case(
        id="suspicious-negative-variance-float32",
        family="suspicious_values",
        twin="suspicious-negative-variance-float32-sound",
        setup=_STRAIN,
        note="One-pass sum-of-squares variance in float32 on large offsets: catastrophic "
        "cancellation prints negative and zero variances.",
        code=dedent("""\
            def one_pass_var(x):
                x = x.to_numpy()
                n, s, ss = len(x), x.sum(), (x * x).sum()
                return (ss - s * s / n) / (n - 1)

            summary = readings.groupby("sensor")["value"].agg(["mean", one_pass_var])
            summary["noise_sd"] = np.sqrt(summary["one_pass_var"])
            summary
        """),
    ),
    Case(
        id="suspicious-negative-variance-float32-sound",
        family=None,
        twin="suspicious-negative-variance-float32",
        setup=_STRAIN,
        note="Values upcast to float64 and pandas' two-pass var/std used: small positive "
        "noise variances.",
        code=dedent("""\
            summary = (readings.astype({"value": "float64"})
                       .groupby("sensor")["value"].agg(["mean", "var", "std"]))
            summary.columns = ["mean", "noise_var", "noise_sd"]
            summary
        """),
    ),
]
