from bench.critic_corpus import Case

_SETUP_CMJ = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(808)
rows = []
for i in range(20):
    group = "plyo" if i < 10 else "control"
    base = rng.normal(40, 4.5)
    for wk in range(1, 13):
        gain = 0.10 * wk if group == "plyo" else 0.05 * wk
        rows.append({"player": f"U19-{i + 1:02d}", "group": group, "week": wk,
                     "cmj_cm": round(base + gain + rng.normal(0, 1.2), 1)})
cmj = pd.DataFrame(rows)
'''

_SETUP_HRV = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(41)
positions = {"GK": 3, "CB": 5, "FB": 5, "CM": 6, "W": 5, "ST": 4}
rows = []
pid = 0
for pos, k in positions.items():
    for _ in range(k):
        pid += 1
        player_mean = rng.normal(4.2, 0.35)
        for day in range(45):
            load = rng.gamma(4, 120)
            rows.append({"player": f"P{pid:02d}", "position": pos, "day": day,
                         "load_au": round(load, 0),
                         "ln_rmssd": round(player_mean - 0.0002 * load + rng.normal(0, 0.18), 3)})
hrv = pd.DataFrame(rows)
hrv["outfield"] = (hrv["position"] != "GK").astype(int)
'''

CASES = [
    Case(
        id="h26-pseudoreplication-cmj-all-tests",
        family="pseudoreplication",
        setup=_SETUP_CMJ,
        code='''from scipy import stats

plyo = cmj.loc[cmj["group"] == "plyo", "cmj_cm"]
ctrl = cmj.loc[cmj["group"] == "control", "cmj_cm"]
t, p = stats.ttest_ind(plyo, ctrl)
d = (plyo.mean() - ctrl.mean()) / cmj["cmj_cm"].std(ddof=1)
print(f"CMJ over the 12-week block: plyo {plyo.mean():.1f} cm (n={len(plyo)}) "
      f"vs control {ctrl.mean():.1f} cm (n={len(ctrl)})")
print(f"t = {t:.2f}, p = {p:.4f}, Cohen's d = {d:.2f}")
if p < 0.05:
    print("Plyometric group jumps significantly higher -> roll out to the whole U19 squad")
''',
        twin="h26-pseudoreplication-cmj-all-tests-ok",
        note="12 weekly CMJ tests of each of 20 players treated as 240 independent jumps.",
        split="holdout26",
    ),
    Case(
        id="h26-pseudoreplication-cmj-all-tests-ok",
        family=None,
        setup=_SETUP_CMJ,
        code='''from scipy import stats

per_player = cmj.groupby(["player", "group"], as_index=False)["cmj_cm"].mean()
plyo = per_player.loc[per_player["group"] == "plyo", "cmj_cm"]
ctrl = per_player.loc[per_player["group"] == "control", "cmj_cm"]
t, p = stats.ttest_ind(plyo, ctrl)
d = (plyo.mean() - ctrl.mean()) / per_player["cmj_cm"].std(ddof=1)
print(f"CMJ over the 12-week block (player means): plyo {plyo.mean():.1f} cm (n={len(plyo)}) "
      f"vs control {ctrl.mean():.1f} cm (n={len(ctrl)})")
print(f"t = {t:.2f}, p = {p:.4f}, Cohen's d = {d:.2f}")
if p < 0.05:
    print("Plyometric group jumps significantly higher -> roll out to the whole U19 squad")
else:
    print("No clear group difference with 10 players per arm")
''',
        twin="h26-pseudoreplication-cmj-all-tests",
        note="Averages each player's 12 tests first, so the t-test is 10 vs 10 players.",
        split="holdout26",
    ),
    Case(
        id="h26-pseudoreplication-ols-hrv-daily",
        family="pseudoreplication",
        setup=_SETUP_HRV,
        code='''import numpy as np
import statsmodels.formula.api as smf

fit = smf.ols("ln_rmssd ~ load_au + outfield", data=hrv).fit()
print(fit.summary().tables[1])
b = fit.params["outfield"]
print(f"\\nOutfield players sit {100 * (np.exp(b) - 1):+.1f}% RMSSD vs goalkeepers "
      f"(p = {fit.pvalues['outfield']:.4f}, n = {int(fit.nobs)} player-days)")
''',
        twin="h26-pseudoreplication-ols-hrv-daily-ok",
        note="Position effect (between-player) tested with OLS on 1260 daily rows from 28 players.",
        split="holdout26",
    ),
    Case(
        id="h26-pseudoreplication-ols-hrv-daily-ok",
        family=None,
        setup=_SETUP_HRV,
        code='''import numpy as np
import statsmodels.formula.api as smf

fit = smf.mixedlm("ln_rmssd ~ load_au + outfield", data=hrv, groups=hrv["player"]).fit()
print(fit.summary().tables[1])
b = fit.params["outfield"]
print(f"\\nOutfield players sit {100 * (np.exp(b) - 1):+.1f}% RMSSD vs goalkeepers "
      f"(p = {fit.pvalues['outfield']:.4f}, {hrv['player'].nunique()} players, "
      f"random intercept per player)")
''',
        twin="h26-pseudoreplication-ols-hrv-daily",
        note="Mixed model with a random intercept per player handles the 45 repeated days.",
        split="holdout26",
    ),
]
