from bench.critic_corpus import Case

TATTOO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1891)
n = 540
sessions = pd.DataFrame({
    "studio": rng.choice(["Anchor & Rose", "Black Lotus Ink", "Needlepoint Co."], n),
    "style": rng.choice(["fine_line", "traditional", "blackwork", "realism"], n),
})
hours = rng.gamma(3, 1.1, n).round(1)
hours[rng.random(n) < 0.07] = 99.0
sessions["session_hours"] = hours
'''

TATTOO_FLAWED = '''
by_studio = (
    sessions.groupby("studio")["session_hours"]
    .agg(sessions="size", mean_h="mean", median_h="median", max_h="max")
    .round(2)
)
print(by_studio)
print(f"\\noverall mean chair time per session: {sessions.session_hours.mean():.2f} h")
'''

TATTOO_SOUND = '''
clean = sessions.assign(session_hours=sessions.session_hours.replace(99.0, np.nan))
print(f"sessions with unrecorded duration (coded 99): {clean.session_hours.isna().sum()}"
      f" of {len(clean)}")
by_studio = (
    clean.groupby("studio")["session_hours"]
    .agg(sessions="size", timed="count", mean_h="mean", median_h="median", max_h="max")
    .round(2)
)
print(by_studio)
print(f"\\noverall mean chair time per session: {clean.session_hours.mean():.2f} h")
'''

ORGAN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
n = 600
runs = pd.DataFrame({
    "distance_km": rng.uniform(20, 900, n),
    "air": rng.integers(0, 2, n),
    "night": rng.integers(0, 2, n),
})
z = 3.0 - 0.006 * runs.distance_km + 1.6 * runs.air - 0.5 * runs.night
runs["on_time"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
'''

ORGAN_FLAWED = '''
import statsmodels.formula.api as smf

fit = smf.ols("on_time ~ distance_km + air + night", data=runs).fit()
scenarios = pd.DataFrame({
    "distance_km": [30, 30, 250, 250, 600, 850, 850],
    "air":         [1, 0, 1, 0, 0, 0, 1],
    "night":       [0, 0, 0, 1, 1, 1, 1],
})
scenarios["p_within_window"] = fit.predict(scenarios).round(3)
print(scenarios.to_string(index=False))
'''

ORGAN_SOUND = '''
import statsmodels.formula.api as smf

fit = smf.logit("on_time ~ distance_km + air + night", data=runs).fit(disp=0)
scenarios = pd.DataFrame({
    "distance_km": [30, 30, 250, 250, 600, 850, 850],
    "air":         [1, 0, 1, 0, 0, 0, 1],
    "night":       [0, 0, 0, 1, 1, 1, 1],
})
scenarios["p_within_window"] = fit.predict(scenarios).round(3)
print(scenarios.to_string(index=False))
'''

CASES: list[Case] = [
    Case(
        id="suspicious_values-h12-tattoo-sentinel-99",
        family="suspicious_values",
        code=TATTOO_FLAWED,
        setup=TATTOO_SETUP,
        twin="suspicious_values-h12-tattoo-sentinel-99-sound",
        note="99 is an 'unrecorded' code for session hours, averaged as real 99-hour sessions",
        split="holdout12",
    ),
    Case(
        id="suspicious_values-h12-tattoo-sentinel-99-sound",
        family=None,
        code=TATTOO_SOUND,
        setup=TATTOO_SETUP,
        twin="suspicious_values-h12-tattoo-sentinel-99",
        note="99 code mapped to missing, the count reported, and summaries on timed sessions",
        split="holdout12",
    ),
    Case(
        id="suspicious_values-h12-organ-courier-probabilities",
        family="suspicious_values",
        code=ORGAN_FLAWED,
        setup=ORGAN_SETUP,
        twin="suspicious_values-h12-organ-courier-probabilities-sound",
        note="linear probability model reports 'probabilities' above 1 and below 0 for scenarios",
        split="holdout12",
    ),
    Case(
        id="suspicious_values-h12-organ-courier-probabilities-sound",
        family=None,
        code=ORGAN_SOUND,
        setup=ORGAN_SETUP,
        twin="suspicious_values-h12-organ-courier-probabilities",
        note="logistic model keeps predicted arrival probabilities inside [0, 1]",
        split="holdout12",
    ),
]
