from bench.critic_corpus import Case

CHESS = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1851)
n = 420
members = pd.DataFrame({
    "club": rng.choice(["Rook & Raven", "Knights of Leith", "Gambit Hall"], n),
    "age_band": rng.choice(["U18", "18-39", "40-64", "65+"], n),
    "rating": rng.normal(1550, 260, n).round(),
})
members.loc[rng.random(n) < 0.06, "rating"] = np.nan

print(f"members: {len(members)}, unrated: {members.rating.isna().sum()}")
summary = members.groupby(["club", "age_band"]).rating.agg(
    members="size", rated="count", median_rating="median"
)
summary.unstack("age_band")["median_rating"].round(0)
'''

KILN_PLOT = '''
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
hours = np.arange(0, 30, 0.5)
curves = {}
for kiln, rate in [("noborigama", 48.0), ("electric_test", 62.0)]:
    ramp = np.minimum(hours * rate, 1290) - np.where(hours > 22, (hours - 22) * 120, 0)
    curves[kiln] = ramp + 20 + rng.normal(0, 8, hours.size)
log = pd.DataFrame(curves, index=pd.Index(hours, name="hour"))

fig, ax = plt.subplots(figsize=(7, 3.5))
log.plot(ax=ax)
ax.axhline(1280, ls="--", color="grey", lw=1)
ax.set_ylabel("chamber temperature (C)")
ax.set_title("Firing curves, spring batch")
fig.tight_layout()
print(log.agg(["max", "idxmax"]).T)
'''

LOCKS = '''
import numpy as np
import pandas as pd
from scipy.stats import chi2_contingency

passages = pd.DataFrame(
    {"narrowboat": [412, 388, 455], "widebeam": [61, 94, 58], "cruiser": [130, 102, 149]},
    index=pd.Index(["Lock 7 Foxton", "Lock 12 Hatton", "Lock 3 Caen Hill"], name="lock"),
)
chi2, p, dof, expected = chi2_contingency(passages)
print(passages)
print(f"chi2 = {chi2:.1f}, dof = {dof}, p = {p:.3g}; min expected count {expected.min():.0f}")
shares = passages.div(passages.sum(axis=1), axis=0).round(3)
shares
'''

PUPPET = '''
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(1922)
n = 240
shows = pd.DataFrame({
    "run_minutes": rng.uniform(35, 95, n),
    "matinee": rng.integers(0, 2, n),
    "school_holiday": rng.integers(0, 2, n),
    "marionette": rng.integers(0, 2, n),
})
shows["audience"] = (
    60 + 0.4 * shows.run_minutes + 25 * shows.matinee + 18 * shows.school_holiday
    + 9 * shows.marionette + rng.normal(0, 14, n)
)
fit = smf.ols(
    "audience ~ run_minutes + matinee + school_holiday + marionette", data=shows
).fit(cov_type="HC3")
print(fit.summary().tables[1])
print(f"n = {int(fit.nobs)}, adj. R^2 = {fit.rsquared_adj:.3f}")
'''

HARPSI = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1700)
n = 150
tunings = pd.DataFrame({
    "maker": rng.choice(["Ruckers copy", "Taskin copy", "Italian single"], n),
    "humidity_pct": rng.normal(48, 9, n).round(1),
    "cents_drift": rng.normal(0, 4, n).round(2),
    "strings_broken": rng.poisson(0.3, n),
})
tunings.loc[rng.choice(n, 7, replace=False), "humidity_pct"] = np.nan

print(tunings.isna().sum().rename("missing").to_frame().T)
print(tunings.describe().round(2))
tunings.groupby("maker")[["cents_drift", "strings_broken"]].agg(["mean", "std", "count"]).round(2)
'''

CASES: list[Case] = [
    Case(
        id="sound-h12-chess-club-ratings",
        family=None,
        code=CHESS,
        note="grouped summary with unrated members counted and shown, medians of ratings",
        split="holdout12",
    ),
    Case(
        id="sound-h12-kiln-firing-curves-plot",
        family=None,
        code=KILN_PLOT,
        note="descriptive plot of two firing curves and their peak temperatures",
        split="holdout12",
    ),
    Case(
        id="sound-h12-canal-lock-chi-square",
        family=None,
        code=LOCKS,
        note="chi-square test of independence on a 3x3 count table with large expected counts",
        split="holdout12",
    ),
    Case(
        id="sound-h12-puppet-theatre-ols",
        family=None,
        code=PUPPET,
        note="OLS with robust (HC3) errors on a linear, well-specified audience model",
        split="holdout12",
    ),
    Case(
        id="sound-h12-harpsichord-tuning-eda",
        family=None,
        code=HARPSI,
        note="EDA: missing counts reported, describe, and per-maker mean/std/count",
        split="holdout12",
    ),
]
