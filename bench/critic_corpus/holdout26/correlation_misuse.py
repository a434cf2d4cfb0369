from bench.critic_corpus import Case

_SETUP_POS = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
pos_hsr = {"GK": 120, "CB": 650, "FB": 1150, "CM": 900, "W": 1250, "ST": 800}
rows = []
for pos, mu in pos_hsr.items():
    for i in range(rng.integers(6, 12)):
        player_mu = rng.normal(mu, 0.25 * mu)
        for md in range(1, 9):
            rows.append({"player": f"{pos}_{i}", "position": pos, "matchday": md,
                         "hsr_m": max(0, round(rng.normal(player_mu, 180), 0))})
match_gps = pd.DataFrame(rows)
pos_code = {"GK": 1, "CB": 2, "FB": 3, "CM": 4, "W": 5, "ST": 6}
'''

_SETUP_DEV = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(64)
n = 46   # first-team + U23, one MD-4 session each, both units worn
true_dist = rng.normal(6200, 1400, n)
devices = pd.DataFrame({
    "player": [f"P{i + 1:02d}" for i in range(n)],
    "session": "MD-4",
    "vendor_a_m": (true_dist + rng.normal(0, 90, n)).round(0),
    "vendor_b_m": (true_dist * 1.075 + 180 + rng.normal(0, 140, n)).round(0),
})
'''

CASES = [
    Case(
        id="h26-correlation-misuse-position-codes",
        family="correlation_misuse",
        setup=_SETUP_POS,
        code='''from scipy.stats import pearsonr

per_player = match_gps.groupby(["player", "position"], as_index=False)["hsr_m"].mean()
per_player["pos_num"] = per_player["position"].map(pos_code)
r, p = pearsonr(per_player["pos_num"], per_player["hsr_m"])
print(f"Players: {len(per_player)}")
print(f"Position vs match HSR: r = {r:.2f}, p = {p:.4f}")
print(f"Position explains {r ** 2:.0%} of the variation in high-speed running")
''',
        twin="h26-correlation-misuse-position-codes-ok",
        note="Pearson r on arbitrary 1-6 position codes; r^2 read as variance explained.",
        split="holdout26",
    ),
    Case(
        id="h26-correlation-misuse-position-codes-ok",
        family=None,
        setup=_SETUP_POS,
        code='''from scipy.stats import f_oneway

per_player = match_gps.groupby(["player", "position"], as_index=False)["hsr_m"].mean()
groups = [g["hsr_m"].to_numpy() for _, g in per_player.groupby("position")]
F, p = f_oneway(*groups)
grand = per_player["hsr_m"].mean()
ss_between = sum(len(g) * (g.mean() - grand) ** 2 for g in groups)
ss_total = ((per_player["hsr_m"] - grand) ** 2).sum()
print(f"Players: {len(per_player)}")
print(f"Position vs match HSR: one-way ANOVA F = {F:.1f}, p = {p:.2g}")
print(f"Position explains {ss_between / ss_total:.0%} of the variation (eta squared)")
per_player.groupby("position")["hsr_m"].agg(["count", "mean", "std"]).round(0)
''',
        twin="h26-correlation-misuse-position-codes",
        note="Position treated as categorical: one-way ANOVA on player means with eta squared.",
        split="holdout26",
    ),
    Case(
        id="h26-correlation-misuse-device-agreement",
        family="correlation_misuse",
        setup=_SETUP_DEV,
        code='''import numpy as np

r = np.corrcoef(devices["vendor_a_m"], devices["vendor_b_m"])[0, 1]
print(f"Total distance, vendor A vs vendor B units: r = {r:.3f} (n = {len(devices)})")
if r > 0.95:
    print("Excellent agreement -> the two systems can be used interchangeably;")
    print("we can merge loan players' vendor B data straight into our load database.")
''',
        twin="h26-correlation-misuse-device-agreement-ok",
        note="High r used to claim two GPS vendors agree; B reads ~7.5% + 180 m higher.",
        split="holdout26",
    ),
    Case(
        id="h26-correlation-misuse-device-agreement-ok",
        family=None,
        setup=_SETUP_DEV,
        code='''import numpy as np

diff = devices["vendor_b_m"] - devices["vendor_a_m"]
mean_pair = (devices["vendor_a_m"] + devices["vendor_b_m"]) / 2
bias = diff.mean()
sd = diff.std(ddof=1)
loa = (bias - 1.96 * sd, bias + 1.96 * sd)
slope = np.polyfit(mean_pair, diff, 1)[0]
print(f"Bland-Altman, vendor B minus vendor A (n = {len(devices)} player-sessions)")
print(f"Mean bias: {bias:+.0f} m ({100 * bias / devices['vendor_a_m'].mean():+.1f}%)")
print(f"95% limits of agreement: {loa[0]:+.0f} to {loa[1]:+.0f} m")
print(f"Bias grows with distance: {slope * 1000:+.0f} m per 1000 m")
print("Not interchangeable without a calibration equation." if abs(bias) > 100
      else "Within our 100 m tolerance.")
''',
        twin="h26-correlation-misuse-device-agreement",
        note="Agreement assessed with Bland-Altman bias and limits of agreement, not correlation.",
        split="holdout26",
    ),
]
