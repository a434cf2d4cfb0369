"""Target leakage, held-out idioms: a centred rolling window over the return being predicted,
and an outcome-derived column kept by get_dummies on the whole frame."""

from textwrap import dedent

from bench.critic_corpus import Case

_RETURNS = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(99)
n = 1500
px = pd.DataFrame(
    {"ret": rng.normal(0.0003, 0.011, n)},
    index=pd.bdate_range("2018-01-01", periods=n),
)
next_ret = px.ret.shift(-1)
px["up_next"] = (next_ret > 0).astype(float).where(next_ret.notna())
px["ret_lag1"] = px.ret.shift(1)
px["vol_10"] = px.ret.rolling(10).std()
"""

_SESSIONS = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

rng = np.random.default_rng(2718)
n = 3000
sessions = pd.DataFrame({
    "device": rng.choice(["desktop", "mobile", "tablet"], n, p=[0.5, 0.4, 0.1]),
    "referrer": rng.choice(["search", "social", "email", "direct"], n),
    "pages_viewed": rng.poisson(5, n) + 1,
    "session_sec": rng.lognormal(5, 0.8, n).round(),
    "returning": rng.integers(0, 2, n),
})
lp = -3.2 + 0.18 * sessions.pages_viewed + 0.6 * sessions.returning
sessions["purchased"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
free_sample = rng.random(n) < 0.2   # free-sample orders are logged with value 0
paid = (sessions.purchased == 1) & ~free_sample
sessions["order_value"] = np.where(paid, rng.gamma(3, 25, n), 0.0).round(2)
"""

CASES: list[Case] = [
    Case(
        id="target-leakage-centered-rolling-returns",
        family="target_leakage",
        twin="target-leakage-centered-rolling-returns-sound",
        split="holdout",
        note="rolling(5, center=True) averages t-2..t+2, so the momentum feature contains "
        "tomorrow's return, which defines the label.",
        code=_RETURNS + dedent("""\
            px["mom_5"] = px.ret.rolling(5, center=True).mean()

            data = px.dropna()
            print(f"{len(px) - len(data)} warm-up/edge days dropped, {len(data)} used")
            cut = int(len(data) * 0.7)
            train, test = data.iloc[:cut], data.iloc[cut:]
            feats = ["ret_lag1", "vol_10", "mom_5"]
            clf = make_pipeline(StandardScaler(), LogisticRegression())
            clf.fit(train[feats], train.up_next)
            hit_rate = (clf.predict(test[feats]) == test.up_next).mean()
            print(f"out-of-sample directional accuracy: {hit_rate:.1%}")
        """),
    ),
    Case(
        id="target-leakage-centered-rolling-returns-sound",
        family=None,
        twin="target-leakage-centered-rolling-returns",
        split="holdout",
        note="Trailing window (t-4..t) only; chronological split; dropped warm-up rows reported.",
        code=_RETURNS + dedent("""\
            px["mom_5"] = px.ret.rolling(5).mean()

            data = px.dropna()
            print(f"{len(px) - len(data)} warm-up/edge days dropped, {len(data)} used")
            cut = int(len(data) * 0.7)
            train, test = data.iloc[:cut], data.iloc[cut:]
            feats = ["ret_lag1", "vol_10", "mom_5"]
            clf = make_pipeline(StandardScaler(), LogisticRegression())
            clf.fit(train[feats], train.up_next)
            hit_rate = (clf.predict(test[feats]) == test.up_next).mean()
            print(f"out-of-sample directional accuracy: {hit_rate:.1%}")
        """),
    ),
    Case(
        id="target-leakage-order-value-sessions",
        family="target_leakage",
        twin="target-leakage-order-value-sessions-sound",
        split="holdout",
        note="get_dummies on everything but the label keeps order_value, recorded at checkout "
        "and non-zero only for sessions that purchased.",
        code=_SESSIONS + dedent("""\

            X = pd.get_dummies(sessions.drop(columns="purchased"), drop_first=True)
            y = sessions.purchased
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
            print(f"purchase propensity AUC {auc.mean():.3f} (folds: {np.round(auc, 3)})")
        """),
    ),
    Case(
        id="target-leakage-order-value-sessions-sound",
        family=None,
        twin="target-leakage-order-value-sessions",
        split="holdout",
        note="The post-purchase order_value column is dropped along with the label.",
        code=_SESSIONS + dedent("""\

            X = pd.get_dummies(sessions.drop(columns=["purchased", "order_value"]),
                               drop_first=True)
            y = sessions.purchased
            cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
            model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
            auc = cross_val_score(model, X, y, cv=cv, scoring="roc_auc")
            print(f"purchase propensity AUC {auc.mean():.3f} (folds: {np.round(auc, 3)})")
        """),
    ),
]
