from bench.critic_corpus import Case

_LOSS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3403)
# confirmed-fraud net losses (USD, after recoveries) for one mid-size merchant, Q3 pilot
loss_frictionless = np.round(rng.lognormal(5.0, 1.6, 11), 2)
loss_challenge = np.round(rng.lognormal(6.0, 1.6, 14), 2)
losses = pd.DataFrame({
    "case_id": [f"FR-{i:05d}" for i in range(25)],
    "threeds_flow": ["frictionless"] * 11 + ["challenge_exempt"] * 14,
    "net_loss_usd": np.concatenate([loss_frictionless, loss_challenge]),
    "days_to_confirm": rng.integers(9, 75, 25),
})
'''

_REVIEW_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4151)
teams = ["ops_dublin", "ops_austin", "ops_manila", "ops_krakow"]
sizes = [7, 6, 8, 7]
minutes = [rng.lognormal(np.log(m), 1.3, k) for m, k in zip([22, 25, 24, 23], sizes)]
review = pd.DataFrame({
    "queue_item": [f"Q{i:06d}" for i in range(sum(sizes))],
    "team": np.repeat(teams, sizes),
    "handle_min": np.round(np.concatenate(minutes), 1),
})
review["analyst_id"] = rng.choice(["a01", "a02", "a03", "a04", "a05"], len(review))
'''

CASES: list[Case] = [
    Case(
        id="h32-parametric-assumptions-loss-welch-small-n",
        family="parametric_assumptions",
        split="holdout32",
        twin="h32-parametric-assumptions-loss-welch-small-n-sound",
        setup=_LOSS_SETUP,
        note=("Welch t-test on 11 vs 14 heavily right-skewed (lognormal) fraud losses; the "
              "outlier-driven variance makes it report 'no difference', which decides the rollout"),
        code='''from scipy import stats

a = losses.loc[losses.threeds_flow == "frictionless", "net_loss_usd"]
b = losses.loc[losses.threeds_flow == "challenge_exempt", "net_loss_usd"]
t, p = stats.ttest_ind(b, a, equal_var=False)

print(losses.groupby("threeds_flow")["net_loss_usd"].agg(["count", "mean", "std"]).round(1))
print(f"Welch t = {t:.2f}, p = {p:.3f}")
if p >= 0.05:
    print("Loss severity does not differ between flows -> keep challenge exemption on")
''',
    ),
    Case(
        id="h32-parametric-assumptions-loss-welch-small-n-sound",
        family=None,
        split="holdout32",
        twin="h32-parametric-assumptions-loss-welch-small-n",
        setup=_LOSS_SETUP,
        note=("with 11 vs 14 heavily skewed losses the comparison uses an exact Mann-Whitney rank "
              "test and reports medians instead of a normal-theory t-test"),
        code='''from scipy import stats

a = losses.loc[losses.threeds_flow == "frictionless", "net_loss_usd"]
b = losses.loc[losses.threeds_flow == "challenge_exempt", "net_loss_usd"]
u, p = stats.mannwhitneyu(b, a, alternative="two-sided", method="exact")

print(losses.groupby("threeds_flow")["net_loss_usd"]
      .agg(n="count", median="median", p75=lambda s: s.quantile(0.75)).round(1))
print(f"Mann-Whitney U = {u:.0f}, exact p = {p:.4f}")
print(f"P(challenge_exempt loss > frictionless loss) = {u / (len(a) * len(b)):.2f}")
''',
    ),
    Case(
        id="h32-parametric-assumptions-review-time-anova",
        family="parametric_assumptions",
        split="holdout32",
        twin="h32-parametric-assumptions-review-time-anova-sound",
        setup=_REVIEW_SETUP,
        note=("one-way ANOVA on 6-8 right-skewed handling times per team; a single long case "
              "drives the F-test, so 'ops_austin is slower' rests on violated normality"),
        code='''import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

fit = smf.ols("handle_min ~ C(team)", data=review).fit()
aov = anova_lm(fit, typ=2)
print(review.groupby("team")["handle_min"].agg(["count", "mean"]).round(1))
print(aov.round(4))
p_team = aov.loc["C(team)", "PR(>F)"]
slowest = review.groupby("team")["handle_min"].mean().idxmax()
print(f"team effect p={p_team:.3f} -> {slowest} is significantly slower, rebalance queue")
''',
    ),
    Case(
        id="h32-parametric-assumptions-review-time-anova-sound",
        family=None,
        split="holdout32",
        twin="h32-parametric-assumptions-review-time-anova",
        setup=_REVIEW_SETUP,
        note=("handling times are few and right-skewed, so teams are compared with a "
              "Kruskal-Wallis rank test and medians rather than ANOVA on raw minutes"),
        code='''from scipy import stats

groups = [g["handle_min"].to_numpy() for _, g in review.groupby("team")]
h, p_team = stats.kruskal(*groups)
print(review.groupby("team")["handle_min"].agg(["count", "median", "max"]).round(1))
print(f"Kruskal-Wallis H={h:.2f}, p={p_team:.3f}")
if p_team >= 0.05:
    print("no evidence that any team is systematically slower")
''',
    ),
]
