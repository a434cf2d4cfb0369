from bench.critic_corpus import Case

ESCAPE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
themes = ["asylum", "bank_heist", "pharaoh_tomb", "space_station", "victorian_seance"]
base = {"asylum": 52, "bank_heist": 47, "pharaoh_tomb": 55, "space_station": 49,
        "victorian_seance": 58}
games = pd.DataFrame({"theme": rng.choice(themes, 400)})
games["minutes"] = games.theme.map(base) + rng.normal(0, 6, len(games))
games["players"] = rng.integers(2, 7, len(games))
'''

ESCAPE_FLAWED = '''
from scipy.stats import pearsonr

games["theme_id"] = games["theme"].astype("category").cat.codes
r, p = pearsonr(games["theme_id"], games["minutes"])
print(games.groupby("theme").minutes.mean().round(1).to_string())
print(f"room theme vs escape time: r = {r:.3f} (p = {p:.3g})")
print(f"theme explains {r**2:.1%} of the variation in escape time")
'''

ESCAPE_SOUND = '''
import statsmodels.formula.api as smf

fit = smf.ols("minutes ~ C(theme)", data=games).fit()
print(games.groupby("theme").minutes.mean().round(1).to_string())
print(f"room theme vs escape time: F = {fit.fvalue:.1f} (p = {fit.f_pvalue:.3g})")
print(f"theme explains {fit.rsquared:.1%} of the variation in escape time")
'''

KITE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(88)
true_wind = rng.gamma(4, 1.6, 150)
winds = pd.DataFrame({
    "mast_ms": true_wind + rng.normal(0, 0.3, 150),
    "handheld_ms": 0.8 * true_wind + 0.9 + rng.normal(0, 0.35, 150),
})
'''

KITE_FLAWED = '''
r = winds["handheld_ms"].corr(winds["mast_ms"])
print(winds.describe().round(2).loc[["mean", "std", "min", "max"]])
print(f"handheld vs mast anemometer: r = {r:.3f}")
if r > 0.9:
    print("handheld readings agree with the mast; OK to use them for launch decisions")
'''

KITE_SOUND = '''
diff = winds["handheld_ms"] - winds["mast_ms"]
mean_ms = (winds["handheld_ms"] + winds["mast_ms"]) / 2
bias, sd = diff.mean(), diff.std(ddof=1)
slope = np.polyfit(mean_ms, diff, 1)[0]
print(winds.describe().round(2).loc[["mean", "std", "min", "max"]])
print(f"handheld - mast: bias {bias:+.2f} m/s, 95% limits {bias - 1.96 * sd:+.2f}"
      f" to {bias + 1.96 * sd:+.2f} m/s, trend with wind {slope:+.2f}")
if abs(bias) < 0.3 and 1.96 * sd < 0.8 and abs(slope) < 0.05:
    print("handheld readings agree with the mast; OK to use them for launch decisions")
else:
    print("handheld readings do not agree closely enough with the mast")
'''

CASES: list[Case] = [
    Case(
        id="correlation_misuse-h12-escape-room-theme-codes",
        family="correlation_misuse",
        code=ESCAPE_FLAWED,
        setup=ESCAPE_SETUP,
        twin="correlation_misuse-h12-escape-room-theme-codes-sound",
        note="Pearson r on arbitrary category codes of a nominal theme; r^2 depends on code order",
        split="holdout12",
    ),
    Case(
        id="correlation_misuse-h12-escape-room-theme-codes-sound",
        family=None,
        code=ESCAPE_SOUND,
        setup=ESCAPE_SETUP,
        twin="correlation_misuse-h12-escape-room-theme-codes",
        note="one-way ANOVA with theme as a categorical factor; R^2 is eta-squared",
        split="holdout12",
    ),
    Case(
        id="correlation_misuse-h12-kite-anemometer-agreement",
        family="correlation_misuse",
        code=KITE_FLAWED,
        setup=KITE_SETUP,
        twin="correlation_misuse-h12-kite-anemometer-agreement-sound",
        note="high r taken as agreement although handheld reads with proportional bias vs mast",
        split="holdout12",
    ),
    Case(
        id="correlation_misuse-h12-kite-anemometer-agreement-sound",
        family=None,
        code=KITE_SOUND,
        setup=KITE_SETUP,
        twin="correlation_misuse-h12-kite-anemometer-agreement",
        note="Bland-Altman bias, limits of agreement and proportional-bias slope judge agreement",
        split="holdout12",
    ),
]
