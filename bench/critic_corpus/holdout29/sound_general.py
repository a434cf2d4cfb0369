from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h29-ok-funnel-conversion-wilson",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291201)
n = 3200
src = rng.choice(["referral", "linkedin", "job_board", "agency", "campus"], n,
                 p=[0.08, 0.32, 0.35, 0.07, 0.18])
p_screen = pd.Series(src).map({"referral": 0.55, "linkedin": 0.30, "job_board": 0.22,
                               "agency": 0.45, "campus": 0.28}).to_numpy()
screened = rng.random(n) < p_screen
interviewed = screened & (rng.random(n) < 0.45)
offered = interviewed & (rng.random(n) < np.where(src == "referral", 0.4, 0.28))
accepted = offered & (rng.random(n) < 0.8)
apps = pd.DataFrame({"application_id": np.arange(n), "source": src, "passed_screen": screened,
                     "interviewed": interviewed, "offered": offered, "accepted": accepted})
''',
        code='''
from statsmodels.stats.proportion import proportion_confint

stages = ["passed_screen", "interviewed", "offered", "accepted"]
counts = apps.groupby("source")[stages].sum().astype(int)
counts.insert(0, "applications", apps.groupby("source").size())

# application -> hire conversion per source, with Wilson 95% intervals
hires, n_apps = counts["accepted"], counts["applications"]
lo, hi = proportion_confint(hires, n_apps, alpha=0.05, method="wilson")
table = pd.DataFrame({"apps": n_apps, "offers": counts["offered"], "hires": hires,
                      "hire_rate": hires / n_apps, "ci_lo": lo, "ci_hi": hi,
                      "accept_rate": hires / counts["offered"]})

print(f"{len(apps)} applications, {int(hires.sum())} hires overall "
      f"({hires.sum() / n_apps.sum():.1%})")
table.sort_values("hire_rate", ascending=False).round(3)
''',
        note="Funnel counts per source with application-to-hire rates and Wilson intervals; "
             "every application is counted and denominators are shown.",
        split="holdout29",
    ),
    Case(
        id="h29-ok-engagement-scale-cronbach-alpha",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291202)
n = 860
trait = rng.normal(0, 1, n)
loadings = [0.8, 0.75, 0.7, 0.72, 0.65, 0.6]
scale_items = {}
for k, lam in enumerate(loadings, start=1):
    latent = 3.4 + lam * trait + rng.normal(0, 0.7, n)
    scale_items[f"eng_{k}"] = np.clip(np.round(latent), 1, 5).astype(int)
responses = pd.DataFrame(scale_items)
responses.insert(0, "resp_id", [f"R{i:04d}" for i in range(n)])
''',
        code='''
def cronbach_alpha(items: pd.DataFrame) -> float:
    k = items.shape[1]
    item_var = items.var(axis=0, ddof=1).sum()
    total_var = items.sum(axis=1).var(ddof=1)
    return k / (k - 1) * (1 - item_var / total_var)

items = responses.filter(like="eng_")
assert items.notna().all().all() and items.isin([1, 2, 3, 4, 5]).all().all()
alpha = cronbach_alpha(items)
print(f"Engagement scale: {items.shape[1]} items, n = {len(items)}, "
      f"Cronbach's alpha = {alpha:.3f}")

alpha_if_dropped = {c: cronbach_alpha(items.drop(columns=c)) for c in items.columns}
pd.DataFrame({"item_mean": items.mean(), "alpha_if_dropped": pd.Series(alpha_if_dropped)}).round(3)
''',
        note="Internal consistency of a six-item Likert scale via Cronbach's alpha and "
             "alpha-if-item-dropped, on complete, range-checked responses.",
        split="holdout29",
    ),
    Case(
        id="h29-ok-pay-equity-adjusted-ols-hc3",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291203)
n = 1800
pay = pd.DataFrame({
    "employee_id": [f"P{i:05d}" for i in range(n)],
    "gender": rng.choice(["F", "M"], n, p=[0.46, 0.54]),
    "job_family": rng.choice(["Engineering", "Sales", "Finance", "Operations"], n),
    "level": rng.choice(["L1", "L2", "L3", "L4"], n, p=[0.35, 0.3, 0.22, 0.13]),
    "tenure_yrs": np.round(rng.gamma(2.0, 2.6, n), 1),
    "perf_rating": rng.choice([1, 2, 3, 4, 5], n, p=[0.04, 0.14, 0.5, 0.24, 0.08]),
})
fam = pay.job_family.map({"Engineering": 11.05, "Sales": 10.8, "Finance": 10.95,
                          "Operations": 10.6})
lvl = pay.level.map({"L1": 0.0, "L2": 0.25, "L3": 0.52, "L4": 0.85})
pay["base_salary"] = np.round(np.exp(fam + lvl + 0.01 * pay.tenure_yrs
                                     + 0.02 * (pay.perf_rating - 3)
                                     - 0.025 * (pay.gender == "F")
                                     + rng.normal(0, 0.08, n)), -2)
''',
        code='''
import statsmodels.formula.api as smf

print(pay.groupby("gender").base_salary.agg(["count", "median", "mean"]).round(0))
raw_gap = 1 - pay.loc[pay.gender == "F", "base_salary"].median() / \\
    pay.loc[pay.gender == "M", "base_salary"].median()
print(f"unadjusted median gap: {raw_gap:.1%}")

model = smf.ols("np.log(base_salary) ~ C(gender, Treatment('M')) + C(job_family) + C(level)"
                " + tenure_yrs + C(perf_rating)", data=pay).fit(cov_type="HC3")
term = "C(gender, Treatment('M'))[T.F]"
b = model.params[term]
lo, hi = model.conf_int().loc[term]
print(f"adjusted gap (women vs men, like-for-like): {np.expm1(b):+.1%} "
      f"(95% CI {np.expm1(lo):+.1%} to {np.expm1(hi):+.1%}), p = {model.pvalues[term]:.4f}, "
      f"n = {int(model.nobs)}, R2 = {model.rsquared:.3f}")
''',
        note="Single pre-specified adjusted pay-gap regression on log salary with "
             "heteroskedasticity-robust (HC3) errors, reporting n and the CI.",
        split="holdout29",
    ),
    Case(
        id="h29-ok-absence-poisson-exposure",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291204)
n = 950
absn = pd.DataFrame({
    "employee_id": [f"A{i:05d}" for i in range(n)],
    "site": rng.choice(["Derby", "Leicester", "Nottingham"], n, p=[0.4, 0.35, 0.25]),
    "contract": rng.choice(["full_time", "part_time"], n, p=[0.75, 0.25]),
    "days_employed_fy": rng.integers(60, 366, n),   # starters and leavers have part years
})
rate = 0.018 * absn.site.map({"Derby": 1.0, "Leicester": 1.25, "Nottingham": 0.9})
rate = rate * np.where(absn.contract == "part_time", 0.8, 1.0)
mu = rate * absn.days_employed_fy * rng.gamma(2.0, 0.5, n)
absn["sick_days_fy"] = rng.poisson(mu)
''',
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

summary = absn.groupby("site").agg(staff=("employee_id", "size"),
                                   sick_days=("sick_days_fy", "sum"),
                                   days_employed=("days_employed_fy", "sum"))
summary["rate_per_100_days"] = 100 * summary.sick_days / summary.days_employed
print(summary.round(2))

# count model with exposure offset; robust (sandwich) SEs because counts are overdispersed
fit = smf.glm("sick_days_fy ~ C(site, Treatment('Derby')) + contract", data=absn,
              family=sm.families.Poisson(), offset=np.log(absn.days_employed_fy)
              ).fit(cov_type="HC0")
irr = pd.DataFrame({"IRR": np.exp(fit.params), "lo": np.exp(fit.conf_int()[0]),
                    "hi": np.exp(fit.conf_int()[1]), "p": fit.pvalues})
print(f"\\nPearson chi2/df = {fit.pearson_chi2 / fit.df_resid:.2f} (overdispersion -> HC0 SEs)")
irr.round(3)
''',
        note="Absence rates use days employed as exposure (offset) and robust SEs for "
             "overdispersed counts; incidence-rate ratios with CIs are reported.",
        split="holdout29",
    ),
    Case(
        id="h29-ok-training-pre-post-wilcoxon",
        family=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(291205)
n = 44
pre = np.clip(np.round(rng.normal(61, 11, n)), 20, 100)
post = np.clip(np.round(pre + rng.normal(5, 7, n)), 20, 100)
course = pd.DataFrame({
    "learner_id": [f"L{i:03d}" for i in range(n)],
    "cohort": rng.choice(["Mar", "Apr"], n),
    "pre_assessment": pre.astype(int),
    "post_assessment": post.astype(int),
})
''',
        code='''
from scipy import stats

# same learners before and after the data-literacy course -> paired analysis
diff = course.post_assessment - course.pre_assessment
print(f"n = {len(course)} learners; median change {diff.median():+.1f} points "
      f"(IQR {diff.quantile(0.25):+.1f} to {diff.quantile(0.75):+.1f}); "
      f"{(diff > 0).mean():.0%} improved")

w = stats.wilcoxon(course.post_assessment, course.pre_assessment)
nz = diff[diff != 0]
ranks = stats.rankdata(nz.abs())
r_rb = (ranks[nz > 0].sum() - ranks[nz < 0].sum()) / ranks.sum()   # matched rank-biserial
print(f"Wilcoxon signed-rank: W = {w.statistic:.0f}, p = {w.pvalue:.2g}, "
      f"rank-biserial r = {r_rb:.2f}")
course.assign(change=diff).groupby("cohort")["change"].describe().round(1)
''',
        note="Pre/post scores of the same learners analysed as pairs with a Wilcoxon "
             "signed-rank test and a matched rank-biserial effect size.",
        split="holdout29",
    ),
]
