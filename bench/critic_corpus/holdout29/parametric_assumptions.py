from bench.critic_corpus import Case

_ABSENCE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290612)
leeds = rng.negative_binomial(1.2, 1.2 / (1.2 + 1.8), 12).astype(float)
leeds = np.append(leeds, 96)  # one long-term sickness case (surgery + phased return)
bristol = rng.negative_binomial(2.5, 2.5 / (2.5 + 5.5), 14).astype(float)
site_absence = pd.DataFrame({
    "employee_id": [f"LDS{i:03d}" for i in range(len(leeds))]
                   + [f"BRS{i:03d}" for i in range(len(bristol))],
    "site": ["Leeds"] * len(leeds) + ["Bristol"] * len(bristol),
    "sick_days_h1": np.concatenate([leeds, bristol]),
})
# Leeds piloted return-to-work interviews in H1; Bristol did not
'''

_TTF_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(290663)
sizes = {"Tech": 8, "GoToMarket": 9, "Corporate": 7, "Ops": 8}
medians = {"Tech": 36, "GoToMarket": 55, "Corporate": 34, "Ops": 33}
ttf = {t: rng.lognormal(np.log(medians[t]), 0.3, k) for t, k in sizes.items()}
ttf["Tech"][2] = 212   # req put on hold for a re-org, then reopened
ttf["Ops"][5] = 171    # candidate reneged twice
reqs = pd.DataFrame({
    "req_id": [f"REQ-{4100 + i}" for i in range(sum(sizes.values()))],
    "recruiting_team": np.repeat(list(sizes), list(sizes.values())),
    "days_to_fill": np.round(np.concatenate(list(ttf.values()))).astype(int),
})
'''

CASES: list[Case] = [
    Case(
        id="h29-param-rtw-pilot-ttest-absence",
        family="parametric_assumptions",
        setup=_ABSENCE_SETUP,
        code='''
from scipy import stats

leeds = site_absence.loc[site_absence.site == "Leeds", "sick_days_h1"]
bristol = site_absence.loc[site_absence.site == "Bristol", "sick_days_h1"]
print(site_absence.groupby("site")["sick_days_h1"].describe().round(1))

t, p = stats.ttest_ind(leeds, bristol, equal_var=False)
diff = leeds.mean() - bristol.mean()
print(f"\\nMean sick days H1: Leeds {leeds.mean():.1f} vs Bristol {bristol.mean():.1f} "
      f"(diff {diff:+.1f}), Welch t = {t:.2f}, p = {p:.3f}")
if p >= 0.05:
    print("No significant difference -> return-to-work interview pilot had no measurable "
          "effect; not rolling out.")
''',
        twin="h29-param-rtw-pilot-mannwhitney-absence",
        note="Welch t-test on 13 vs 14 zero-heavy absence counts dominated by one 96-day case; "
             "the non-significant mean difference drives a no-effect decision.",
        split="holdout29",
    ),
    Case(
        id="h29-param-rtw-pilot-mannwhitney-absence",
        family=None,
        setup=_ABSENCE_SETUP,
        code='''
from scipy import stats

leeds = site_absence.loc[site_absence.site == "Leeds", "sick_days_h1"]
bristol = site_absence.loc[site_absence.site == "Bristol", "sick_days_h1"]
print(site_absence.groupby("site")["sick_days_h1"].describe().round(1))

# small samples of skewed counts with a 96-day long-term case -> compare distributions
# with a rank test instead of means
u, p = stats.mannwhitneyu(leeds, bristol, alternative="two-sided")
prob_sup = u / (len(leeds) * len(bristol))  # P(Leeds employee has more days than Bristol)
print(f"\\nMedian sick days H1: Leeds {leeds.median():.1f} vs Bristol {bristol.median():.1f}; "
      f"Mann-Whitney U = {u:.0f}, p = {p:.3f}, P(Leeds > Bristol) = {prob_sup:.2f}")
print(f"Long-term cases (>20 days) handled separately: "
      f"Leeds {int((leeds > 20).sum())}, Bristol {int((bristol > 20).sum())}")
''',
        twin="h29-param-rtw-pilot-ttest-absence",
        note="Rank-based Mann-Whitney test with medians and a probability-of-superiority effect "
             "size, appropriate for small skewed count samples with a long-term outlier.",
        split="holdout29",
    ),
    Case(
        id="h29-param-time-to-fill-anova",
        family="parametric_assumptions",
        setup=_TTF_SETUP,
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

summary = reqs.groupby("recruiting_team")["days_to_fill"].agg(["count", "mean", "std", "max"])
print(summary.round(1))

fit = smf.ols("days_to_fill ~ C(recruiting_team)", data=reqs).fit()
aov = sm.stats.anova_lm(fit, typ=2)
print(aov.round(3))

p = aov.loc["C(recruiting_team)", "PR(>F)"]
verdict = "differs" if p < 0.05 else "does not differ significantly"
print(f"\\nQ3 time-to-fill {verdict} between recruiting teams (F-test p = {p:.2f}); "
      "keeping one shared SLA of 45 days.")
''',
        twin="h29-param-time-to-fill-kruskal",
        note="One-way ANOVA on 7-9 requisitions per team with lognormal times and two on-hold "
             "outliers (SD > mean); the non-significant F drives the SLA decision.",
        split="holdout29",
    ),
    Case(
        id="h29-param-time-to-fill-kruskal",
        family=None,
        setup=_TTF_SETUP,
        code='''
from scipy import stats

summary = reqs.groupby("recruiting_team")["days_to_fill"].agg(
    ["count", "median", "mean", "std", "max"])
print(summary.round(1))

# 7-9 reqs per team, right-skewed with two on-hold reqs -> rank-based Kruskal-Wallis
groups = [g["days_to_fill"].to_numpy() for _, g in reqs.groupby("recruiting_team")]
h, p = stats.kruskal(*groups)
n = len(reqs)
eta2_h = (h - len(groups) + 1) / (n - len(groups))  # eta-squared (H-based) effect size
verdict = "differs" if p < 0.05 else "does not differ significantly"
print(f"\\nQ3 time-to-fill {verdict} between recruiting teams "
      f"(Kruskal-Wallis H = {h:.2f}, p = {p:.3f}, eta^2_H = {eta2_h:.2f})")
''',
        twin="h29-param-time-to-fill-anova",
        note="Kruskal-Wallis on the skewed, outlier-laden small samples, reported with medians "
             "and an effect size.",
        split="holdout29",
    ),
]
