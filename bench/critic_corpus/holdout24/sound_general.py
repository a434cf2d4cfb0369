from bench.critic_corpus import Case

SPLIT = "holdout24"

CASES: list[Case] = [
    Case(
        id="h24-sound-robbery-rate-per-1000-precinct",
        family=None,
        setup=r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(1212)
pcts = [f"PCT {p:03d}" for p in sorted(rng.choice(np.arange(1, 124), 45, replace=False))]
pop = pd.DataFrame({"precinct": pcts,
                    "population": (rng.lognormal(11.1, 0.35, 45) // 10 * 10).astype(int)})
rate = rng.gamma(3, 0.9, 45)
counts = rng.poisson(rate * pop.population / 1000)
robberies = pd.DataFrame({"precinct": np.repeat(pcts, counts)})
robberies["cmplnt_date"] = pd.Timestamp("2023-01-01") + pd.to_timedelta(
    rng.integers(0, 365, len(robberies)), unit="D")
robberies["borough"] = robberies.precinct.map(
    dict(zip(pcts, rng.choice(["BRONX", "BROOKLYN", "MANHATTAN", "QUEENS", "STATEN IS"], 45))))
""",
        code=r"""
counts = robberies.groupby("precinct").size().rename("robberies").reset_index()
rates = pop.merge(counts, on="precinct", how="left", validate="one_to_one", indicator=True)
print(rates._merge.value_counts().to_dict())
rates["robberies"] = rates.robberies.fillna(0).astype(int)
rates["per_1000"] = 1000 * rates.robberies / rates.population

top = rates.sort_values("per_1000", ascending=False).head(10)
city = 1000 * rates.robberies.sum() / rates.population.sum()
print(f"Citywide: {city:.1f} robberies per 1,000 residents in 2023; "
      f"{top.precinct.iloc[0]} is highest at {top.per_1000.iloc[0]:.1f}")
top[["precinct", "population", "robberies", "per_1000"]].round(1).reset_index(drop=True)
""",
        note="Counts are merged onto population with a validated left join (no precinct lost), "
             "and the ranking uses per-1,000 rates rather than raw counts.",
        split=SPLIT,
    ),
    Case(
        id="h24-sound-turnout-change-paired-wards",
        family=None,
        setup=r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(2323)
n = 84
base = rng.normal(36, 7, n)
results = pd.DataFrame({
    "ward": [f"Ward {i:02d}" for i in range(1, n + 1)],
    "turnout_2019": base.round(1),
    "turnout_2023": (base - 2.1 + rng.normal(0, 3, n)).round(1),
})
""",
        code=r"""
from scipy import stats

d = results.turnout_2023 - results.turnout_2019
t, p = stats.ttest_rel(results.turnout_2023, results.turnout_2019)
lo, hi = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
print(f"Turnout fell in {(d < 0).sum()} of {len(d)} wards")
print(f"Average change {d.mean():+.1f} points (95% CI {lo:+.1f} to {hi:+.1f}; "
      f"paired t = {t:.2f}, p = {p:.1e}); differences: skew {stats.skew(d):.2f}")
results.assign(change=d).nsmallest(5, "change")
""",
        note="The same 84 wards are compared across two elections with a paired t-test on "
             "roughly symmetric ward-level differences, with a CI for the mean change.",
        split=SPLIT,
    ),
    Case(
        id="h24-sound-rent-index-growth-trend",
        family=None,
        setup=r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(3434)
years = np.arange(2014, 2025)
index = 100 * np.exp(0.041 * (years - 2014) + rng.normal(0, 0.01, len(years)))
rent_index = pd.DataFrame({"year": years, "private_rent_index": index.round(1),
                           "region": "North West"})
""",
        code=r"""
import matplotlib.pyplot as plt

slope, intercept = np.polyfit(rent_index.year, np.log(rent_index.private_rent_index), 1)
first, last = rent_index.private_rent_index.iloc[[0, -1]]
n_years = rent_index.year.iloc[-1] - rent_index.year.iloc[0]
print(f"Rents rose {100 * (last / first - 1):.0f}% between 2014 and 2024, "
      f"about {100 * ((last / first) ** (1 / n_years) - 1):.1f}% a year compounded "
      f"(log-linear trend: {100 * (np.exp(slope) - 1):.1f}% a year)")

fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(rent_index.year, rent_index.private_rent_index, marker="o")
ax.plot(rent_index.year, np.exp(intercept + slope * rent_index.year), ls="--")
ax.set(title="Private rents, North West (2014 = 100)", ylabel="Index")
plt.show()
""",
        note="Descriptive growth of a rent index: compound annual growth between end points "
             "and a log-linear trend, with no inferential claim.",
        split=SPLIT,
    ),
    Case(
        id="h24-sound-ofsted-grade-by-school-type",
        family=None,
        setup=r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(4545)
n = 620
school_type = rng.choice(["Academy", "Free school", "LA maintained"], n, p=[0.5, 0.1, 0.4])
p_grade = {"Academy": [0.14, 0.66, 0.16, 0.04], "Free school": [0.2, 0.58, 0.17, 0.05],
           "LA maintained": [0.1, 0.72, 0.15, 0.03]}
grades = ["Outstanding", "Good", "Requires improvement", "Inadequate"]
schools = pd.DataFrame({
    "urn": rng.choice(np.arange(100000, 150000), n, replace=False),
    "school_type": school_type,
    "ofsted_grade": [rng.choice(grades, p=p_grade[t]) for t in school_type],
})
""",
        code=r"""
from scipy.stats import chi2_contingency

tab = pd.crosstab(schools.school_type, schools.ofsted_grade)
tab = tab[["Outstanding", "Good", "Requires improvement", "Inadequate"]]
tab["Requires improvement or worse"] = tab.pop("Requires improvement") + tab.pop("Inadequate")
chi2, p, dof, expected = chi2_contingency(tab)
print(f"chi2 = {chi2:.1f}, df = {dof}, p = {p:.3f} (smallest expected count "
      f"{expected.min():.1f}, n = {tab.values.sum()})")
(100 * tab.div(tab.sum(axis=1), axis=0)).round(1)
""",
        note="A single pre-planned chi-square test of grade by school type, with sparse "
             "categories merged so expected counts are adequate, and row percentages shown.",
        split=SPLIT,
    ),
    Case(
        id="h24-sound-house-price-income-elasticity",
        family=None,
        setup=r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(5656)
n = 309
districts = pd.DataFrame({
    "lad_code": [f"E0{rng.integers(6, 10)}00{i:04d}" for i in range(n)],
    "median_income_gbp": np.exp(rng.normal(np.log(31000), 0.16, n)).round(-2),
    "region": rng.choice(["North", "Midlands", "South", "London", "East"], n),
})
districts["median_price_gbp"] = np.exp(
    12.3 + 1.6 * np.log(districts.median_income_gbp / 31000) + rng.normal(0, 0.22, n)
).round(-3)
""",
        code=r"""
import statsmodels.formula.api as smf

m = smf.ols("np.log(median_price_gbp) ~ np.log(median_income_gbp)", data=districts).fit(
    cov_type="HC3")
b = m.params.iloc[1]
lo, hi = m.conf_int().iloc[1]
ratio = districts.median_price_gbp / districts.median_income_gbp
print(f"{len(districts)} districts; median price-to-income ratio {ratio.median():.1f}")
print(f"A district with 10% higher incomes has house prices about "
      f"{100 * (1.1 ** b - 1):.0f}% higher (elasticity {b:.2f}, 95% CI {lo:.2f} to {hi:.2f}, "
      f"robust SEs; R² {m.rsquared:.2f})")
""",
        note="Log-log OLS across districts with heteroskedasticity-robust (HC3) standard errors, "
             "reported as an association, not a causal effect.",
        split=SPLIT,
    ),
]
