from bench.critic_corpus import Case

_SETUP_WELL = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(17)
dates = pd.date_range("2024-08-05", periods=28, freq="D")
players = [f"P{i:02d}" for i in range(1, 23)]
rows = []
for p in players:
    skip_rate = rng.uniform(0.01, 0.25)
    for d in dates:
        rec = {"player": p, "date": d}
        for item in ["sleep", "fatigue", "soreness", "stress", "mood"]:
            rec[item] = int(np.clip(round(rng.normal(5, 1.1)), 1, 7))
            if rng.random() < skip_rate:
                rec[item] = -9   # app export code for "not answered"
        rows.append(rec)
wellness = pd.DataFrame(rows)
'''

_SETUP_ACWR = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(222)
n = 700
risk = pd.DataFrame({
    "player": rng.choice([f"P{i:02d}" for i in range(1, 27)], n),
    "week": rng.integers(1, 30, n),
    "acwr": rng.lognormal(0, 0.3, n).round(2),
    "prev_inj_12m": rng.poisson(0.8, n),
    "age": rng.integers(18, 35, n),
})
lp = -3.6 + 2.4 * (risk["acwr"] - 1) + 0.6 * risk["prev_inj_12m"] + 0.05 * (risk["age"] - 26)
risk["injury"] = (rng.random(n) < 1 / (1 + np.exp(-lp))).astype(int)
this_week = risk.sort_values("week").groupby("player").tail(1).copy()
'''

CASES = [
    Case(
        id="h26-suspicious-values-wellness-minus9",
        family="suspicious_values",
        setup=_SETUP_WELL,
        code='''items = ["sleep", "fatigue", "soreness", "stress", "mood"]
wellness["wellness_total"] = wellness[items].sum(axis=1)
per_player = (wellness.groupby("player")[items + ["wellness_total"]].mean()
              .sort_values("wellness_total"))
print("Pre-season wellness (1-7 per item, total out of 35)")
print("Lowest 5 players - check in with them before training:")
print(per_player.head(5).round(2).to_string())
print(f"\\nSquad mean total: {per_player['wellness_total'].mean():.1f} / 35")
''',
        twin="h26-suspicious-values-wellness-minus9-ok",
        note="-9 'not answered' codes averaged into 1-7 wellness items; lowest means are below 1.",
        split="holdout26",
    ),
    Case(
        id="h26-suspicious-values-wellness-minus9-ok",
        family=None,
        setup=_SETUP_WELL,
        code='''items = ["sleep", "fatigue", "soreness", "stress", "mood"]
clean = wellness.copy()
clean[items] = clean[items].where((clean[items] >= 1) & (clean[items] <= 7))  # -9 = no answer
missing = clean[items].isna().sum().sum()
print(f"Unanswered items (-9) set to missing: {missing} of {clean[items].size}")
clean["wellness_total"] = clean[items].mean(axis=1) * 5   # scaled to /35 from answered items
clean["answered"] = clean[items].notna().sum(axis=1)
per_player = (clean.groupby("player")
              .agg(**{i: (i, "mean") for i in items},
                   wellness_total=("wellness_total", "mean"),
                   completion=("answered", lambda a: a.sum() / (5 * len(a))))
              .sort_values("wellness_total"))
print("Pre-season wellness (1-7 per item, total out of 35, answered items only)")
print("Lowest 5 players - check in with them before training:")
print(per_player.head(5).round(2).to_string())
print(f"\\nSquad mean total: {per_player['wellness_total'].mean():.1f} / 35")
''',
        twin="h26-suspicious-values-wellness-minus9",
        note="-9 codes recoded to missing and counted; totals from answered items with completion.",
        split="holdout26",
    ),
    Case(
        id="h26-suspicious-values-lpm-negative-risk",
        family="suspicious_values",
        setup=_SETUP_ACWR,
        code='''import statsmodels.formula.api as smf

fit = smf.ols("injury ~ acwr + prev_inj_12m + age", data=risk).fit()
this_week["inj_prob"] = fit.predict(this_week)
top = this_week.sort_values("inj_prob", ascending=False).head(5)
print("Injury probability this week - top 5 players to modify training:")
for _, r in top.iterrows():
    print(f"  {r['player']}: ACWR {r['acwr']:.2f}, previous injuries {r['prev_inj_12m']}, "
          f"risk {r['inj_prob']:.0%}")
print(f"Squad average risk: {this_week['inj_prob'].mean():.1%}")
print(f"Lowest risk: {this_week['inj_prob'].min():.1%}")
''',
        twin="h26-suspicious-values-lpm-negative-risk-ok",
        note="Linear probability model prints a negative injury probability (-2.5%).",
        split="holdout26",
    ),
    Case(
        id="h26-suspicious-values-lpm-negative-risk-ok",
        family=None,
        setup=_SETUP_ACWR,
        code='''import statsmodels.formula.api as smf

fit = smf.logit("injury ~ acwr + prev_inj_12m + age", data=risk).fit(disp=0)
this_week["inj_prob"] = fit.predict(this_week)
top = this_week.sort_values("inj_prob", ascending=False).head(5)
print("Injury probability this week - top 5 players to modify training:")
for _, r in top.iterrows():
    print(f"  {r['player']}: ACWR {r['acwr']:.2f}, previous injuries {r['prev_inj_12m']}, "
          f"risk {r['inj_prob']:.0%}")
print(f"Squad average risk: {this_week['inj_prob'].mean():.1%}")
print(f"Lowest risk: {this_week['inj_prob'].min():.1%}")
''',
        twin="h26-suspicious-values-lpm-negative-risk",
        note="Logistic model keeps predicted injury probabilities inside 0-1.",
        split="holdout26",
    ),
]
