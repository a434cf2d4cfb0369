from bench.critic_corpus import Case

SPLIT = "holdout24"

_WARD_RENTS_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(6161)
las = {"Bolton": 795, "Bury": 860, "Manchester": 1150, "Oldham": 740, "Rochdale": 735,
       "Salford": 1010, "Stockport": 980, "Tameside": 770, "Trafford": 1190, "Wigan": 720}
rows = []
for la, level in las.items():
    k = int(rng.integers(15, 24))
    lets = rng.poisson({"Wigan": 13, "Bolton": 17}.get(la, 38), k)
    rent = (level * np.exp(rng.normal(0, 0.12, k))).round(-1)
    rows.append(pd.DataFrame({"local_authority": la, "n_lets": lets, "median_rent_pcm": rent}))
rents = pd.concat(rows, ignore_index=True)
rents.insert(0, "ward_code", [f"E0500{i:04d}" for i in rng.choice(9999, len(rents), False)])
rents.loc[rents.n_lets < 10, "median_rent_pcm"] = -999
"""

_FLIPS_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(8282)

def make_wards(n, prefix):
    d = pd.DataFrame({
        "ward": [f"{prefix} {i:02d}" for i in range(1, n + 1)],
        "holder": rng.choice(["Lab", "Con", "LD", "Ind"], n, p=[0.45, 0.35, 0.15, 0.05]),
        "majority_pct": np.round(rng.gamma(1.6, 9, n), 1),
        "incumbent_standing": rng.binomial(1, 0.7, n),
        "turnout_pct": rng.normal(33, 7, n).round(1),
    })
    return d

history = make_wards(260, "Ward")
lin = (1.2 - 0.22 * history.majority_pct - 0.6 * history.incumbent_standing
       + 0.03 * (history.turnout_pct - 33))
history["flipped"] = rng.binomial(1, 1 / (1 + np.exp(-lin)))
upcoming = make_wards(72, "Division")
upcoming.loc[:5, "majority_pct"] = [0.4, 0.9, 1.3, 2.2, 0.2, 1.7]
upcoming.loc[:5, "incumbent_standing"] = 0
"""

CASES: list[Case] = [
    Case(
        id="h24-suspicious-values-rent-suppression-code",
        family="suspicious_values",
        setup=_WARD_RENTS_SETUP,
        code=r"""
by_la = (rents.groupby("local_authority")
         .agg(wards=("ward_code", "count"),
              avg_rent=("median_rent_pcm", "mean"),
              cheapest_ward=("median_rent_pcm", "min"),
              dearest_ward=("median_rent_pcm", "max"))
         .sort_values("avg_rent"))
print(f"Cheapest place to rent in Greater Manchester: {by_la.index[0]}, "
      f"£{by_la.avg_rent.iloc[0]:,.0f} a month on average - "
      f"£{by_la.avg_rent.iloc[-1] - by_la.avg_rent.iloc[0]:,.0f} less than {by_la.index[-1]}")
by_la.round(0)
""",
        twin="h24-suspicious-values-rent-suppression-code-as-missing",
        note="Suppressed wards carry the code -999, which is averaged in as a rent: the table "
             "shows minimum ward rents of -999 and a deflated average for Wigan.",
        split=SPLIT,
    ),
    Case(
        id="h24-suspicious-values-rent-suppression-code-as-missing",
        family=None,
        setup=_WARD_RENTS_SETUP,
        code=r"""
clean = rents.assign(median_rent_pcm=rents.median_rent_pcm.replace(-999, np.nan))
print(f"{clean.median_rent_pcm.isna().sum()} of {len(clean)} wards suppressed "
      f"(fewer than 10 lets) and left out")
by_la = (clean.groupby("local_authority")
         .agg(wards=("ward_code", "count"),
              wards_with_data=("median_rent_pcm", "count"),
              avg_rent=("median_rent_pcm", "mean"),
              cheapest_ward=("median_rent_pcm", "min"),
              dearest_ward=("median_rent_pcm", "max"))
         .sort_values("avg_rent"))
print(f"Cheapest place to rent in Greater Manchester: {by_la.index[0]}, "
      f"£{by_la.avg_rent.iloc[0]:,.0f} a month on average - "
      f"£{by_la.avg_rent.iloc[-1] - by_la.avg_rent.iloc[0]:,.0f} less than {by_la.index[-1]}")
by_la.round(0)
""",
        twin="h24-suspicious-values-rent-suppression-code",
        note="The -999 suppression code is turned into missing, the number of suppressed wards "
             "is reported, and averages use only wards with published rents.",
        split=SPLIT,
    ),
    Case(
        id="h24-suspicious-values-flip-probability-lpm",
        family="suspicious_values",
        setup=_FLIPS_SETUP,
        code=r"""
from sklearn.linear_model import LinearRegression

feats = ["majority_pct", "incumbent_standing", "turnout_pct"]
lpm = LinearRegression().fit(history[feats], history["flipped"])
upcoming["flip_chance"] = lpm.predict(upcoming[feats])

ranked = upcoming.sort_values("flip_chance", ascending=False)
fmt = {"flip_chance": "{:.0%}".format}
print("Most likely to change hands in May:")
print(ranked[["ward", "holder", "majority_pct", "flip_chance"]].head(6)
      .to_string(index=False, formatters=fmt))
print("\nSafest seats:")
print(ranked[["ward", "holder", "majority_pct", "flip_chance"]].tail(4)
      .to_string(index=False, formatters=fmt))
print(f"\nExpected seats changing hands: {upcoming.flip_chance.sum():.1f} of {len(upcoming)}")
""",
        twin="h24-suspicious-values-flip-probability-logit",
        note="A linear model's predictions are printed as chances of a seat flipping, "
             "including negative 'chances' down to -49%, and summed as expected seats.",
        split=SPLIT,
    ),
    Case(
        id="h24-suspicious-values-flip-probability-logit",
        family=None,
        setup=_FLIPS_SETUP,
        code=r"""
from sklearn.linear_model import LogisticRegression

feats = ["majority_pct", "incumbent_standing", "turnout_pct"]
logit = LogisticRegression(C=1e4, max_iter=1000).fit(history[feats], history["flipped"])
upcoming["flip_chance"] = logit.predict_proba(upcoming[feats])[:, 1]

ranked = upcoming.sort_values("flip_chance", ascending=False)
fmt = {"flip_chance": "{:.0%}".format}
print("Most likely to change hands in May:")
print(ranked[["ward", "holder", "majority_pct", "flip_chance"]].head(6)
      .to_string(index=False, formatters=fmt))
print("\nSafest seats:")
print(ranked[["ward", "holder", "majority_pct", "flip_chance"]].tail(4)
      .to_string(index=False, formatters=fmt))
print(f"\nExpected seats changing hands: {upcoming.flip_chance.sum():.1f} of {len(upcoming)}")
""",
        twin="h24-suspicious-values-flip-probability-lpm",
        note="Logistic regression gives flip probabilities bounded in [0, 1], so the ranking "
             "and expected-seat total are valid probabilities.",
        split=SPLIT,
    ),
]
