from bench.critic_corpus import Case

_STORM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3481)
# event totals (mm) at the Cerro Alto gauge, 2015-2023, by synoptic type of the event
col = np.exp(rng.normal(3.0, 1.3, 9))
front = np.exp(rng.normal(3.0, 0.6, 12))
events = pd.DataFrame({
    "event_start": pd.to_datetime("2015-01-01")
                   + pd.to_timedelta(np.sort(rng.integers(0, 3200, 21)), unit="D"),
    "synoptic": ["cut-off low"] * 9 + ["frontal"] * 12,
    "total_mm": np.r_[col, front].round(1),
})
'''

_STORM_FLAWED = '''
from scipy import stats

col = events.loc[events.synoptic == "cut-off low", "total_mm"]
fro = events.loc[events.synoptic == "frontal", "total_mm"]
print(events.groupby("synoptic").total_mm.agg(["count", "mean", "std", "max"]).round(1))

t, p = stats.ttest_ind(col, fro, equal_var=False)
print(f"\\nWelch t = {t:.2f}, p = {p:.3f}")
print("event totals differ by synoptic type" if p < 0.05 else "no difference in event totals")
'''

_STORM_SOUND = '''
from scipy import stats

col = events.loc[events.synoptic == "cut-off low", "total_mm"]
fro = events.loc[events.synoptic == "frontal", "total_mm"]
print(events.groupby("synoptic").total_mm.agg(["count", "median", "min", "max"]).round(1))

# 9 vs 12 events, strongly right-skewed totals -> rank test instead of a t-test
u, p = stats.mannwhitneyu(col, fro, alternative="two-sided")
print(f"\\nMann-Whitney U = {u:.0f}, p = {p:.3f}")
wetter = "frontal" if fro.median() > col.median() else "cut-off low"
print(f"event totals differ: {wetter} events are typically wetter" if p < 0.05
      else "no difference in event totals")
'''

_LWT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3474)
# winter 2022/23 wet days at the station, tagged with the Lamb weather type of the day
lwt = np.array(["A"] * 7 + ["C"] * 9 + ["W"] * 11 + ["NW"] * 8)
shape = {"A": 0.6, "C": 0.9, "W": 0.6, "NW": 0.6}
scale = {"A": 3.0, "C": 10.0, "W": 4.0, "NW": 3.5}
pr = np.array([rng.gamma(shape[k], scale[k]) for k in lwt]) + 0.2
wetdays = pd.DataFrame({"lwt": lwt, "pr_mm": pr.round(1)})
wetdays.loc[wetdays.index[wetdays.lwt == "W"][0], "pr_mm"] = 74.6      # 14 Jan storm
'''

_LWT_FLAWED = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(wetdays.groupby("lwt").pr_mm.describe()[["count", "mean", "std", "max"]].round(1))
fit = smf.ols("pr_mm ~ C(lwt)", data=wetdays).fit()
aov = sm.stats.anova_lm(fit, typ=2)
print(aov.round(3))
p = aov["PR(>F)"].iloc[0]
print(f"\\nF = {aov.F.iloc[0]:.2f}, p = {p:.4f} -> "
      + ("wet-day amounts differ by weather type" if p < 0.05 else "no weather-type effect"))
'''

_LWT_SOUND = '''
from scipy import stats

print(wetdays.groupby("lwt").pr_mm.describe()[["count", "50%", "max"]].round(1))
# 7-11 wet days per type, gamma-like amounts with a 75 mm storm day -> Kruskal-Wallis
groups = [g.pr_mm.to_numpy() for _, g in wetdays.groupby("lwt")]
h, p = stats.kruskal(*groups)
print(f"\\nKruskal-Wallis H = {h:.2f}, p = {p:.4f} -> "
      + ("wet-day amounts differ by weather type" if p < 0.05 else "no weather-type effect"))
'''

CASES: list[Case] = [
    Case(
        id="h34-param-event-totals-welch-t",
        family="parametric_assumptions",
        setup=_STORM_SETUP,
        code=_STORM_FLAWED,
        twin="h34-param-event-totals-mann-whitney",
        note="Welch t-test on 9 vs 12 log-normal event totals inflated in variance by one huge "
             "event; 'no difference' rests on means of tiny, heavily skewed samples",
        split="holdout34",
    ),
    Case(
        id="h34-param-event-totals-mann-whitney",
        family=None,
        setup=_STORM_SETUP,
        code=_STORM_SOUND,
        twin="h34-param-event-totals-welch-t",
        note="same comparison with a Mann-Whitney rank test and medians, suitable for small "
             "skewed samples",
        split="holdout34",
    ),
    Case(
        id="h34-param-weather-type-anova",
        family="parametric_assumptions",
        setup=_LWT_SETUP,
        code=_LWT_FLAWED,
        twin="h34-param-weather-type-kruskal",
        note="one-way ANOVA on 7-11 gamma-distributed wet-day totals per weather type with a "
             "75 mm outlier; normality and equal variance fail and the null verdict rests on it",
        split="holdout34",
    ),
    Case(
        id="h34-param-weather-type-kruskal",
        family=None,
        setup=_LWT_SETUP,
        code=_LWT_SOUND,
        twin="h34-param-weather-type-anova",
        note="Kruskal-Wallis across weather types, appropriate for small skewed samples",
        split="holdout34",
    ),
]
