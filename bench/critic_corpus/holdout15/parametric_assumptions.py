from bench.critic_corpus import Case

_APPS = '''
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(29)
g = (["Medical"] * 13 + ["Education"] * 11 + ["Games"] * 60 + ["Productivity"] * 22
     + ["Health & Fitness"] * 18)
mu = pd.Series(g).map({"Medical": 9.2, "Education": 11.0, "Games": 10.5,
                       "Productivity": 9.8, "Health & Fitness": 9.6}).values
apps = pd.DataFrame({
    "track_name": [f"app_{i:04d}" for i in range(len(g))],
    "prime_genre": g,
    "price": rng.choice([0.99, 1.99, 2.99, 4.99, 9.99], len(g)),
    "rating_count_tot": np.round(np.exp(mu + rng.normal(0, 2.1, len(g)))).astype(int),
    "user_rating": np.clip(np.round(rng.normal(3.9, 0.7, len(g)) * 2) / 2, 1, 5),
})
'''

_RET = '''
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(14)
n = 24
cost = np.round(np.exp(rng.normal(2.6, 1.45, n)), 2)
pilot = pd.DataFrame({
    "return_id": [f"R{70412 + i}" for i in range(n)],
    "category": rng.choice(["apparel", "shoes", "electronics", "home"], n),
    "handling_cost_eur": cost,
})
'''

CASES: list[Case] = [
    Case(
        id="h15-parametric-appstore-welch-skewed-counts",
        family="parametric_assumptions",
        setup=_APPS,
        code='''paid = apps.query("price > 0")
med = paid.loc[paid["prime_genre"] == "Medical", "rating_count_tot"]
edu = paid.loc[paid["prime_genre"] == "Education", "rating_count_tot"]
print(paid.groupby("prime_genre")["rating_count_tot"].agg(["count", "mean", "median"]).round(0))

t, p = stats.ttest_ind(med, edu, equal_var=False)
print(f"Welch t = {t:.2f}, p = {p:.3f}")
print("Education vs Medical engagement:", "different" if p < 0.05 else "no real difference")
{"n_med": len(med), "n_edu": len(edu), "t": round(t, 3), "p": round(p, 4)}
''',
        twin="h15-parametric-appstore-welch-skewed-counts-ok",
        note="Welch t-test on 13 vs 11 rating counts spanning several orders of magnitude; "
             "the tiny skewed samples break the t-test and its 'no difference' verdict.",
        split="holdout15",
    ),
    Case(
        id="h15-parametric-appstore-welch-skewed-counts-ok",
        family=None,
        setup=_APPS,
        code='''paid = apps.query("price > 0")
med = paid.loc[paid["prime_genre"] == "Medical", "rating_count_tot"]
edu = paid.loc[paid["prime_genre"] == "Education", "rating_count_tot"]
print(paid.groupby("prime_genre")["rating_count_tot"].agg(["count", "mean", "median"]).round(0))

u, p = stats.mannwhitneyu(med, edu, alternative="two-sided", method="exact")
t, p_log = stats.ttest_ind(np.log10(med + 1), np.log10(edu + 1), equal_var=False)
print(f"Mann-Whitney U = {u:.0f}, exact p = {p:.4f}; Welch on log10 counts p = {p_log:.4f}")
{"n_med": len(med), "n_edu": len(edu), "U": u, "p_exact": round(p, 4),
 "p_log_welch": round(p_log, 4)}
''',
        twin="h15-parametric-appstore-welch-skewed-counts",
        note="Rating counts are log-normal-like, so the groups are compared with an exact "
             "rank test and a t-test on the log scale instead of raw means.",
        split="holdout15",
    ),
    Case(
        id="h15-parametric-returns-normal-ci-tiny-skewed",
        family="parametric_assumptions",
        setup=_RET,
        code='''x = pilot["handling_cost_eur"]
print(x.describe().round(2).to_dict())

m, se = x.mean(), x.std(ddof=1) / np.sqrt(len(x))
lo, hi = m - 1.96 * se, m + 1.96 * se
print(f"mean handling cost per return: {m:.2f} EUR, 95% CI [{lo:.2f}, {hi:.2f}]")

q_returns = 4200
budget = pd.Series(q_returns * np.array([lo, m, hi]), index=["low", "mid", "high"])
budget.round(0)
''',
        twin="h15-parametric-returns-normal-ci-tiny-skewed-ok",
        note="Normal-theory mean +/- 1.96 SE interval on 24 heavily right-skewed costs; "
             "the symmetric interval is miscalibrated (lower bound near zero, upper too short).",
        split="holdout15",
    ),
    Case(
        id="h15-parametric-returns-normal-ci-tiny-skewed-ok",
        family=None,
        setup=_RET,
        code='''x = pilot["handling_cost_eur"]
print(x.describe().round(2).to_dict())

m = x.mean()
ci = stats.bootstrap((x.to_numpy(),), np.mean, confidence_level=0.95, n_resamples=9999,
                     method="BCa", rng=np.random.default_rng(0)).confidence_interval
lo, hi = ci.low, ci.high
print(f"mean handling cost per return: {m:.2f} EUR, 95% BCa bootstrap CI [{lo:.2f}, {hi:.2f}]")
print(f"median {x.median():.2f} EUR; n = {len(x)} is small and one return costs {x.max():.0f}")

q_returns = 4200
budget = pd.Series(q_returns * np.array([lo, m, hi]), index=["low", "mid", "high"])
budget.round(0)
''',
        twin="h15-parametric-returns-normal-ci-tiny-skewed",
        note="Skewed small-sample mean gets a seeded BCa bootstrap interval (stays positive, "
             "asymmetric) and the small n and extreme value are reported.",
        split="holdout15",
    ),
]
