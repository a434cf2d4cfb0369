from bench.critic_corpus import Case

_NBA = '''
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(6)
players = ["J. Holt", "M. Reyes", "D. Okafor", "T. Brandt", "K. Lindqvist", "A. Mensah",
           "R. Castillo", "B. Kowalski", "S. Nakamura", "C. Dubois", "E. Vasquez", "L. Grant"]
camp = dict(zip(players, [1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0]))
skill = dict(zip(players, rng.normal(0.455, 0.04, len(players))))
rows = []
for p in players:
    for gm in range(1, rng.integers(55, 80) + 1):
        fga = rng.integers(6, 21)
        fgm = rng.binomial(fga, np.clip(skill[p] + rng.normal(0, 0.03), 0.2, 0.8))
        rows.append((p, gm, camp[p], fga, fgm))
logs = pd.DataFrame(rows, columns=["player", "game_no", "summer_camp", "FGA", "FGM"])
logs["FG_PCT"] = (logs["FGM"] / logs["FGA"]).round(3)
'''

_REST = '''
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(9)
k = 30
rest = pd.DataFrame({"restaurant_id": [f"biz_{i:02d}" for i in range(k)],
                     "online_ordering": np.repeat([1, 0], k // 2),
                     "price_tier": rng.integers(1, 5, k),
                     "base": rng.normal(0.15, 0.28, k)})
nrev = rng.integers(40, 160, k)
rv = rest.loc[rest.index.repeat(nrev)].reset_index(drop=True)
rv["sentiment"] = np.clip(rv["base"] + 0.03 * rv["online_ordering"]
                          + rng.normal(0, 0.35, len(rv)), -1, 1).round(3)
rv["review_len"] = rng.poisson(85, len(rv))
rv = rv.drop(columns="base")
'''

CASES: list[Case] = [
    Case(
        id="h15-pseudorep-nba-camp-game-logs",
        family="pseudoreplication",
        setup=_NBA,
        code='''print(logs.groupby("summer_camp").agg(players=("player", "nunique"),
                                     games=("game_no", "size"),
                                     fg_pct=("FG_PCT", "mean")).round(3))

a = logs.loc[logs["summer_camp"] == 1, "FG_PCT"]
b = logs.loc[logs["summer_camp"] == 0, "FG_PCT"]
t, p = stats.ttest_ind(a, b)
print(f"camp {a.mean():.3f} vs no camp {b.mean():.3f}: t = {t:.2f}, p = {p:.4f}, "
      f"df = {len(a) + len(b) - 2}")
{"diff": round(a.mean() - b.mean(), 4), "p": round(p, 5)}
''',
        twin="h15-pseudorep-nba-camp-game-logs-ok",
        note="Camp attendance is a player-level treatment (6 vs 6 players) but the t-test "
             "treats ~800 game logs as independent, inflating n and shrinking p.",
        split="holdout15",
    ),
    Case(
        id="h15-pseudorep-nba-camp-game-logs-ok",
        family=None,
        setup=_NBA,
        code='''print(logs.groupby("summer_camp").agg(players=("player", "nunique"),
                                     games=("game_no", "size"),
                                     fg_pct=("FG_PCT", "mean")).round(3))

pl = (logs.groupby(["player", "summer_camp"], as_index=False)[["FGM", "FGA"]].sum()
          .assign(fg_pct=lambda d: d["FGM"] / d["FGA"]))
a = pl.loc[pl["summer_camp"] == 1, "fg_pct"]
b = pl.loc[pl["summer_camp"] == 0, "fg_pct"]
t, p = stats.ttest_ind(a, b)
print(f"camp {a.mean():.3f} vs no camp {b.mean():.3f} (player season FG%): "
      f"t = {t:.2f}, p = {p:.4f}, df = {len(a) + len(b) - 2}")
{"diff": round(a.mean() - b.mean(), 4), "p": round(p, 5)}
''',
        twin="h15-pseudorep-nba-camp-game-logs",
        note="Games are aggregated to one season FG% per player, so the test compares 6 vs "
             "6 independent players, the level at which camp was assigned.",
        split="holdout15",
    ),
    Case(
        id="h15-pseudorep-restaurant-ols-review-level",
        family="pseudoreplication",
        setup=_REST,
        code='''print(rv.groupby("online_ordering")["sentiment"].describe().round(3))

fit = smf.ols("sentiment ~ online_ordering + C(price_tier) + review_len", data=rv).fit()
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)} reviews, R2 = {fit.rsquared:.3f}")
fit.params.round(4).to_dict()
''',
        twin="h15-pseudorep-restaurant-ols-review-level-ok",
        note="Online ordering varies only between 30 restaurants, yet OLS treats ~3000 "
             "reviews as independent; the standard error of its effect is far too small.",
        split="holdout15",
    ),
    Case(
        id="h15-pseudorep-restaurant-ols-review-level-ok",
        family=None,
        setup=_REST,
        code='''print(rv.groupby("online_ordering")["sentiment"].describe().round(3))

fit = smf.ols("sentiment ~ online_ordering + C(price_tier) + review_len", data=rv).fit(
    cov_type="cluster", cov_kwds={"groups": pd.factorize(rv["restaurant_id"])[0]})
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)} reviews in {rv['restaurant_id'].nunique()} restaurants "
      f"(SE clustered by restaurant), R2 = {fit.rsquared:.3f}")
fit.params.round(4).to_dict()
''',
        twin="h15-pseudorep-restaurant-ols-review-level",
        note="Same review-level model with restaurant-clustered standard errors, so inference "
             "on the restaurant-level treatment reflects the 30 independent units.",
        split="holdout15",
    ),
]
