from bench.critic_corpus import Case

SPLIT = "holdout24"

_EDU_VOTE_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(1202)
n = 2100
edu_labels = {1: "No qualifications", 2: "GCSE", 3: "A-level", 4: "Degree", 5: "Postgraduate"}
vote_labels = {1: "Con", 2: "Lab", 3: "Lib Dem", 4: "Green", 5: "Reform", 6: "Other"}
edu = rng.choice([1, 2, 3, 4, 5], n, p=[0.14, 0.24, 0.22, 0.28, 0.12])
probs = {
    1: [0.30, 0.24, 0.04, 0.03, 0.33, 0.06],
    2: [0.28, 0.27, 0.06, 0.05, 0.28, 0.06],
    3: [0.24, 0.33, 0.11, 0.09, 0.17, 0.06],
    4: [0.17, 0.38, 0.18, 0.15, 0.07, 0.05],
    5: [0.14, 0.36, 0.22, 0.20, 0.04, 0.04],
}
vote = np.array([rng.choice([1, 2, 3, 4, 5, 6], p=probs[e]) for e in edu])
poll = pd.DataFrame({
    "resp_id": np.arange(100001, 100001 + n),
    "age": rng.integers(18, 90, n),
    "education_code": edu,
    "vote_code": vote,
    "likelihood_to_vote": rng.integers(0, 11, n),
})
poll["education"] = poll.education_code.map(edu_labels)
poll["vote_intention"] = poll.vote_code.map(vote_labels)
"""

_SENSOR_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(2525)
hours = pd.date_range("2024-10-07", periods=21 * 24, freq="h")
log_ref = np.zeros(len(hours))
for i in range(1, len(hours)):
    log_ref[i] = 0.92 * log_ref[i - 1] + rng.normal(0, 0.18)
ref = 8.5 * np.exp(log_ref + 0.25 * np.sin(2 * np.pi * (hours.hour - 7) / 24))
humidity = np.clip(72 + 15 * np.sin(2 * np.pi * (hours.hour + 3) / 24)
                   + rng.normal(0, 6, len(hours)), 35, 100)
sensor = 1.45 * ref + 2.4 + 0.04 * (humidity - 70) * ref / 5 + rng.normal(0, 1.2, len(hours))
colocation = pd.DataFrame({
    "timestamp": hours,
    "ref_pm25": ref.round(1),
    "sensor_pm25": np.clip(sensor, 0, None).round(1),
    "rh_pct": humidity.round(0),
    "sensor_id": "LCS-017",
})
"""

CASES: list[Case] = [
    Case(
        id="h24-correlation-misuse-education-vote-codes",
        family="correlation_misuse",
        setup=_EDU_VOTE_SETUP,
        code=r"""
from scipy import stats

print(poll[["age", "education_code", "vote_code", "likelihood_to_vote"]].corr().round(2))
r, p = stats.pearsonr(poll.education_code, poll.vote_code)
print(f"\nEducation vs vote choice: r = {r:.2f} (p = {p:.2f}, n = {len(poll):,})")
print("The education divide in British politics has all but vanished in our latest poll")
""",
        twin="h24-correlation-misuse-education-vote-crosstab",
        note="Pearson r between ordinal education codes and nominal party codes (1=Con ... "
             "6=Other); the arbitrary party numbering hides a strong association.",
        split=SPLIT,
    ),
    Case(
        id="h24-correlation-misuse-education-vote-crosstab",
        family=None,
        setup=_EDU_VOTE_SETUP,
        code=r"""
from scipy import stats

tab = pd.crosstab(poll.education, poll.vote_intention)
tab = tab.loc[["No qualifications", "GCSE", "A-level", "Degree", "Postgraduate"]]
chi2, p, dof, expected = stats.chi2_contingency(tab)
cramers_v = np.sqrt(chi2 / (tab.values.sum() * (min(tab.shape) - 1)))
print(f"Education vs vote choice: chi2 = {chi2:.0f} on {dof} df, p = {p:.1e}, "
      f"Cramér's V = {cramers_v:.2f} (n = {len(poll):,}; smallest expected count "
      f"{expected.min():.0f})")
(100 * pd.crosstab(poll.education, poll.vote_intention, normalize="index")).round(0).loc[
    tab.index]
""",
        twin="h24-correlation-misuse-education-vote-codes",
        note="Association between two categorical variables measured with a chi-square test, "
             "Cramér's V and row percentages instead of correlating codes.",
        split=SPLIT,
    ),
    Case(
        id="h24-correlation-misuse-sensor-agreement",
        family="correlation_misuse",
        setup=_SENSOR_SETUP,
        code=r"""
import matplotlib.pyplot as plt
from scipy import stats

r, p = stats.pearsonr(colocation.ref_pm25, colocation.sensor_pm25)
fig, ax = plt.subplots(figsize=(5, 5))
ax.scatter(colocation.ref_pm25, colocation.sensor_pm25, s=6, alpha=0.5)
ax.set(xlabel="Reference monitor PM2.5 (µg/m³)", ylabel="Low-cost sensor PM2.5 (µg/m³)",
       title=f"Three weeks side by side, r = {r:.2f}")
print(f"Sensor vs reference: r = {r:.3f} over {len(colocation)} hours")
print("The £250 sensors track the council's reference monitor almost perfectly, so we can "
      "publish their readings street by street")
""",
        twin="h24-correlation-misuse-sensor-agreement-bland-altman",
        note="A high Pearson r is taken as proof the sensor agrees with the reference, yet it "
             "reads ~6 µg/m³ (1.8x) high; correlation does not measure agreement.",
        split=SPLIT,
    ),
    Case(
        id="h24-correlation-misuse-sensor-agreement-bland-altman",
        family=None,
        setup=_SENSOR_SETUP,
        code=r"""
import matplotlib.pyplot as plt

diff = colocation.sensor_pm25 - colocation.ref_pm25
avg = (colocation.sensor_pm25 + colocation.ref_pm25) / 2
bias, sd = diff.mean(), diff.std()
ratio = (colocation.sensor_pm25 / colocation.ref_pm25).median()
fig, ax = plt.subplots(figsize=(6, 4))
ax.scatter(avg, diff, s=6, alpha=0.5)
for y in (bias, bias - 1.96 * sd, bias + 1.96 * sd):
    ax.axhline(y, ls="--", c="grey")
ax.set(xlabel="Mean of the two (µg/m³)", ylabel="Sensor minus reference (µg/m³)",
       title="Bland-Altman: sensor LCS-017 vs reference")
print(f"Sensor reads {bias:+.1f} µg/m³ on average vs the reference "
      f"(95% limits of agreement {bias - 1.96 * sd:+.1f} to {bias + 1.96 * sd:+.1f}); "
      f"median ratio {ratio:.2f}")
print("Raw sensor readings overstate PM2.5 and need calibrating before we publish them")
""",
        twin="h24-correlation-misuse-sensor-agreement",
        note="Agreement is assessed with Bland-Altman bias and limits of agreement plus the "
             "median ratio, which shows the sensor's systematic over-reading.",
        split=SPLIT,
    ),
]
