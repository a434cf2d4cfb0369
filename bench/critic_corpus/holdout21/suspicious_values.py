from bench.critic_corpus import Case

_TEACHER_SETUP = """\
import numpy as np
import pandas as pd

# classroom behaviour checklist: teachers rate each pupil 1 (never) - 5 (always)
# 99 = "not observed this term"
rng = np.random.default_rng(9901)
items = ["on_task", "follows_instr", "cooperates", "persists", "waits_turn", "calm"]
n = 540
year_group = rng.choice(["Y3", "Y4", "Y5", "Y6"], size=n)
trait = rng.normal(0, 1, n) + 0.1 * (pd.Series(year_group).str[1].astype(int) - 4.5)
data = {}
for it in items:
    x = np.clip(np.round(3.4 + 0.8 * trait + rng.normal(0, 0.7, n)), 1, 5)
    x[rng.random(n) < 0.025] = 99
    data[it] = x.astype(int)
ratings = pd.DataFrame(data)
ratings.insert(0, "pupil", [f"B{10000 + i}" for i in range(n)])
ratings.insert(1, "teacher", rng.choice([f"T{t:02d}" for t in range(1, 25)], size=n))
ratings.insert(2, "year_group", year_group)
ratings.head()
"""

_WELLBEING_SETUP = """\
import numpy as np
import pandas as pd

# Student Wellbeing Questionnaire, 1 = strongly disagree ... 5 = strongly agree
ITEM_TEXT = {
    "sw01": "I feel good about myself",
    "sw02": "I often feel lonely at university",
    "sw03": "I can cope with the workload",
    "sw04": "I worry about things a lot",
    "sw05": "I have people I can turn to",
    "sw06": "I feel like giving up",
    "sw07": "I enjoy my course",
    "sw08": "I feel tense most of the time",
    "sw09": "I sleep well",
    "sw10": "Nothing seems to go right for me",
}
rng = np.random.default_rng(3030)
n = 260
wb = rng.normal(0, 1, n)
swq = pd.DataFrame({"student": [f"W{700 + i}" for i in range(n)]})
for j, item in enumerate(ITEM_TEXT):
    sign = -1 if j % 2 == 1 else 1           # even-numbered items are negatively worded
    swq[item] = np.clip(np.round(3 + sign * 0.9 * wb + rng.normal(0, 0.8, n)), 1, 5).astype(int)
swq["counselling_visits"] = rng.poisson(np.exp(0.2 - 0.6 * wb))
swq.head()
"""

CASES: list[Case] = [
    Case(
        id="h21-suspicious-values-behaviour-checklist-99-averaged",
        family="suspicious_values",
        setup=_TEACHER_SETUP,
        code="""\
ratings["behaviour"] = ratings[items].mean(axis=1)

table = ratings.groupby("year_group")[items + ["behaviour"]].mean().round(2)
overall = ratings["behaviour"]
print(f"Teacher-rated behaviour, all pupils: M = {overall.mean():.2f}, "
      f"SD = {overall.std():.2f}, N = {len(ratings)}")
print("Item means by year group (1-5 scale):")
table
""",
        twin="h21-suspicious-values-behaviour-checklist-99-missing",
        note="The 99 'not observed' code is averaged into the 1-5 item and composite means, so "
             "reported means exceed the scale maximum and the SD is inflated.",
        split="holdout21",
    ),
    Case(
        id="h21-suspicious-values-behaviour-checklist-99-missing",
        family=None,
        setup=_TEACHER_SETUP,
        code="""\
scored = ratings.copy()
scored[items] = scored[items].replace(99, np.nan)       # 99 = not observed
print("Not observed per item:", scored[items].isna().sum().to_dict())

# composite = mean of observed items, only if at least 4 of 6 were rated
n_obs = scored[items].notna().sum(axis=1)
scored["behaviour"] = scored[items].mean(axis=1).where(n_obs >= 4)
print(f"Composite missing for {scored['behaviour'].isna().sum()} pupils (< 4 items rated)")

overall = scored["behaviour"]
print(f"Teacher-rated behaviour: M = {overall.mean():.2f}, SD = {overall.std():.2f}, "
      f"N = {overall.notna().sum()} of {len(scored)}")
print("Item means by year group (1-5 scale):")
scored.groupby("year_group")[items + ["behaviour"]].mean().round(2)
""",
        twin="h21-suspicious-values-behaviour-checklist-99-averaged",
        note="The 99 code is recoded to missing, counted and reported, and composites need "
             "4 of 6 observed items; all means stay within the 1-5 scale.",
        split="holdout21",
    ),
    Case(
        id="h21-suspicious-values-wellbeing-negative-alpha",
        family="suspicious_values",
        setup=_WELLBEING_SETUP,
        code="""\
from scipy import stats


def cronbach_alpha(items):
    items = np.asarray(items, dtype=float)
    k = items.shape[1]
    item_var = items.var(axis=0, ddof=1).sum()
    total_var = items.sum(axis=1).var(ddof=1)
    return k / (k - 1) * (1 - item_var / total_var)


item_cols = list(ITEM_TEXT)
alpha = cronbach_alpha(swq[item_cols])
swq["swq_total"] = swq[item_cols].mean(axis=1)
rho, p = stats.spearmanr(swq["swq_total"], swq["counselling_visits"])

print(f"SWQ internal consistency: Cronbach's alpha = {alpha:.2f} (k = {len(item_cols)})")
print(f"SWQ score: M = {swq['swq_total'].mean():.2f}, SD = {swq['swq_total'].std():.2f}")
print(f"Wellbeing and counselling visits: rho = {rho:.2f}, p = {p:.3f}")
""",
        twin="h21-suspicious-values-wellbeing-alpha-reverse-keyed",
        note="Cronbach's alpha comes out negative (negatively worded items not reversed) and is "
             "reported as the scale's reliability; the scale score built from it is meaningless.",
        split="holdout21",
    ),
    Case(
        id="h21-suspicious-values-wellbeing-alpha-reverse-keyed",
        family=None,
        setup=_WELLBEING_SETUP,
        code="""\
from scipy import stats


def cronbach_alpha(items):
    items = np.asarray(items, dtype=float)
    k = items.shape[1]
    item_var = items.var(axis=0, ddof=1).sum()
    total_var = items.sum(axis=1).var(ddof=1)
    return k / (k - 1) * (1 - item_var / total_var)


item_cols = list(ITEM_TEXT)
reverse = ["sw02", "sw04", "sw06", "sw08", "sw10"]      # negatively worded
keyed = swq[item_cols].copy()
keyed[reverse] = 6 - keyed[reverse]

alpha = cronbach_alpha(keyed)
swq["swq_total"] = keyed.mean(axis=1)
rho, p = stats.spearmanr(swq["swq_total"], swq["counselling_visits"])

print(f"SWQ internal consistency: Cronbach's alpha = {alpha:.2f} (k = {len(item_cols)}, "
      f"{len(reverse)} items reverse-scored)")
print(f"SWQ score: M = {swq['swq_total'].mean():.2f}, SD = {swq['swq_total'].std():.2f}")
print(f"Wellbeing and counselling visits: rho = {rho:.2f}, p = {p:.3g}")
""",
        twin="h21-suspicious-values-wellbeing-negative-alpha",
        note="Negatively worded items are reverse-scored before alpha and the scale score, "
             "giving a plausible alpha and a meaningful total.",
        split="holdout21",
    ),
]
