from bench.critic_corpus import Case

SPLIT = "holdout24"

_POLL_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(1106)
n = 1204
poll = pd.DataFrame({
    "resp_id": np.arange(1, n + 1),
    "region": rng.choice(["North", "Midlands", "London", "South", "Wales", "Scotland"], n),
    "vote_intention": rng.choice(
        ["Lab", "Con", "Reform", "Lib Dem", "Green", "SNP/PC", "Other", "Don't know"], n,
        p=[0.28, 0.235, 0.14, 0.1, 0.07, 0.03, 0.015, 0.13]),
    "fieldwork_date": pd.Timestamp("2024-11-14")
    + pd.to_timedelta(rng.integers(0, 3, n), unit="D"),
})
"""

_CLAIMANT_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(4646)
n = 330
las = pd.DataFrame({
    "la_code": [f"E0{rng.integers(6, 9)}00{i:04d}" for i in range(n)],
    "pct_no_quals": rng.uniform(10, 30, n).round(1),
    "pct_social_rent": rng.uniform(6, 35, n).round(1),
    "pct_manufacturing": rng.uniform(4, 22, n).round(1),
    "pop_density": np.exp(rng.normal(6.2, 1.3, n)).round(0),
    "median_age": rng.normal(41, 4.5, n).round(1),
    "pct_students": rng.gamma(2, 2.2, n).round(1),
})
las["claimant_rate_pct"] = (
    0.6 + 0.09 * las.pct_no_quals + 0.06 * las.pct_social_rent
    + 0.25 * np.log(las.pop_density) - 0.03 * (las.median_age - 41)
    + rng.normal(0, 0.55, n)
).clip(0.8, None).round(1)
"""

CASES: list[Case] = [
    Case(
        id="h24-unseeded-poll-lead-bootstrap",
        family="unseeded_randomness",
        setup=_POLL_SETUP,
        code=r"""
decided = poll.loc[poll.vote_intention != "Don't know", "vote_intention"].to_numpy()
print(f"{len(poll) - len(decided)} don't-knows excluded, {len(decided)} with a party")

def lab_lead(v):
    return 100 * ((v == "Lab").mean() - (v == "Con").mean())

boot = np.array([lab_lead(np.random.choice(decided, len(decided))) for _ in range(2000)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"Labour lead: {lab_lead(decided):.1f} points (95% CI {lo:.1f} to {hi:.1f})")
""",
        twin="h24-unseeded-poll-lead-bootstrap-seeded",
        note="The bootstrap interval for the Labour lead is drawn with unseeded np.random.choice, "
             "so the published CI end-points change every time the cell is run.",
        split=SPLIT,
    ),
    Case(
        id="h24-unseeded-poll-lead-bootstrap-seeded",
        family=None,
        setup=_POLL_SETUP,
        code=r"""
decided = poll.loc[poll.vote_intention != "Don't know", "vote_intention"].to_numpy()
print(f"{len(poll) - len(decided)} don't-knows excluded, {len(decided)} with a party")

def lab_lead(v):
    return 100 * ((v == "Lab").mean() - (v == "Con").mean())

boot_rng = np.random.default_rng(20241117)
boot = np.array([lab_lead(boot_rng.choice(decided, len(decided))) for _ in range(2000)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"Labour lead: {lab_lead(decided):.1f} points (95% CI {lo:.1f} to {hi:.1f})")
""",
        twin="h24-unseeded-poll-lead-bootstrap",
        note="Same bootstrap drawn from a seeded Generator, so the published interval can be "
             "reproduced exactly.",
        split=SPLIT,
    ),
    Case(
        id="h24-unseeded-claimant-rate-forest",
        family="unseeded_randomness",
        setup=_CLAIMANT_SETUP,
        code=r"""
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split

X = las.drop(columns=["la_code", "claimant_rate_pct"])
y = las["claimant_rate_pct"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25)
rf = RandomForestRegressor(n_estimators=150, max_features=0.5).fit(X_tr, y_tr)

print(f"Census profile explains {r2_score(y_te, rf.predict(X_te)):.1%} of the variation in "
      f"claimant rates across councils it hasn't seen")
imp = pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False)
print("Most important predictors:", ", ".join(f"{k} ({v:.0%})" for k, v in imp.head(3).items()))
""",
        twin="h24-unseeded-claimant-rate-forest-seeded",
        note="train_test_split and the random forest both run without random_state, so the "
             "reported R² and importance shares shift from run to run.",
        split=SPLIT,
    ),
    Case(
        id="h24-unseeded-claimant-rate-forest-seeded",
        family=None,
        setup=_CLAIMANT_SETUP,
        code=r"""
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import r2_score
from sklearn.model_selection import train_test_split

X = las.drop(columns=["la_code", "claimant_rate_pct"])
y = las["claimant_rate_pct"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25, random_state=42)
rf = RandomForestRegressor(n_estimators=150, max_features=0.5, random_state=42)
rf.fit(X_tr, y_tr)

print(f"Census profile explains {r2_score(y_te, rf.predict(X_te)):.1%} of the variation in "
      f"claimant rates across councils it hasn't seen")
imp = pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False)
print("Most important predictors:", ", ".join(f"{k} ({v:.0%})" for k, v in imp.head(3).items()))
""",
        twin="h24-unseeded-claimant-rate-forest",
        note="The split and the forest are seeded, so the quoted R² and importances are "
             "reproducible.",
        split=SPLIT,
    ),
]
