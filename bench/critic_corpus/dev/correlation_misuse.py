"""Pearson correlation on categorical or ordinal codes."""

from textwrap import dedent

from bench.critic_corpus import Case

_LIKERT = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(55)
n = 320
latent = rng.normal(0, 1, n)
cuts = [-1.5, -0.6, 0.3, 1.1]
survey = pd.DataFrame({
    "respondent": np.arange(n),
    "satisfaction": np.digitize(latent + rng.normal(0, 0.6, n), cuts) + 1,     # 1-5 Likert
    "would_recommend": np.digitize(latent + rng.normal(0, 0.9, n), cuts) + 1,  # 1-5 Likert
})
"""

_HR = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(404)
n = 1470
hr = pd.DataFrame({
    "department": rng.choice(["Sales", "R&D", "HR", "Finance", "IT"], n),
    "job_role": rng.choice(["Manager", "Analyst", "Engineer", "Rep", "Scientist", "Admin"], n),
    "marital_status": rng.choice(["Single", "Married", "Divorced"], n),
    "business_travel": rng.choice(["Non-Travel", "Travel_Rarely", "Travel_Frequently"], n),
    "monthly_income": rng.normal(6500, 1800, n).round(),
    "years_at_company": rng.integers(0, 25, n),
})
lp = (-2.2 + 0.9 * (hr.department == "Sales") + 0.8 * (hr.marital_status == "Single")
      + 0.7 * (hr.business_travel == "Travel_Frequently") - 0.04 * hr.years_at_company)
hr["attrition"] = np.where(rng.random(n) < 1 / (1 + np.exp(-lp)), "Yes", "No")
"""

_ZIP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(98)
zip_premium = {98103: 0.35, 98105: 0.10, 98118: -0.25, 98122: 0.20, 98133: -0.15,
               98144: 0.05, 98199: 0.40}
zips = rng.choice(list(zip_premium), 700)
homes = pd.DataFrame({"zipcode": zips, "sqft": rng.normal(1900, 500, 700).clip(600)})
homes["price"] = np.exp(
    12.2 + 0.00035 * homes.sqft + homes.zipcode.map(zip_premium) + rng.normal(0, 0.2, 700)
).round(-3)
"""

_EDU = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(1010)
n = 500
levels = ["High school", "Bachelor", "Master", "Doctorate"]
staff = pd.DataFrame({"education": rng.choice(levels, n, p=[0.35, 0.4, 0.2, 0.05])})
bump = staff.education.map({"High school": 0, "Bachelor": 9000, "Master": 14000,
                            "Doctorate": 16000})
staff["salary"] = (48000 + bump + rng.normal(0, 9000, n)).round(-2)
"""

CASES: list[Case] = [
    Case(
        id="corr-pearson-likert",
        family="correlation_misuse",
        twin="corr-pearson-likert-sound",
        note="pearsonr between two 1-5 Likert items (ordinal scores treated as interval).",
        code=_LIKERT + dedent("""\

            r, p = stats.pearsonr(survey.satisfaction, survey.would_recommend)
            print(f"satisfaction vs would-recommend: r = {r:.2f}, p = {p:.1e}")
        """),
    ),
    Case(
        id="corr-pearson-likert-sound",
        family=None,
        twin="corr-pearson-likert",
        note="Spearman rank correlation for two ordinal Likert items.",
        code=_LIKERT + dedent("""\

            rho, p = stats.spearmanr(survey.satisfaction, survey.would_recommend)
            print(f"satisfaction vs would-recommend: Spearman rho = {rho:.2f}, p = {p:.1e}")
        """),
    ),
    Case(
        id="corr-labelencoded-hr-matrix",
        family="correlation_misuse",
        twin="corr-labelencoded-hr-matrix-sound",
        setup=_HR,
        note="LabelEncoder turns nominal columns (department, job role, marital status) into "
        "arbitrary integers, then df.corr() ranks them against attrition.",
        code=dedent("""\
            from sklearn.preprocessing import LabelEncoder

            encoded = hr.copy()
            for col in ["department", "job_role", "marital_status", "business_travel",
                        "attrition"]:
                encoded[col] = LabelEncoder().fit_transform(hr[col])

            corr_with_attrition = encoded.corr()["attrition"].drop("attrition")
            print("Correlation with attrition:")
            print(corr_with_attrition.sort_values(key=abs, ascending=False).round(3))
        """),
    ),
    Case(
        id="corr-labelencoded-hr-matrix-sound",
        family=None,
        twin="corr-labelencoded-hr-matrix",
        setup=_HR,
        note="Cramer's V (chi-square based) for the nominal columns, point-biserial r for the "
        "numeric ones (effect sizes only, no significance claims).",
        code=dedent("""\
            from scipy import stats

            left = (hr.attrition == "Yes").astype(int)
            rows = []
            for col in ["department", "job_role", "marital_status", "business_travel"]:
                table = pd.crosstab(hr[col], hr.attrition)
                v = stats.contingency.association(table, method="cramer")
                rows.append({"feature": col, "measure": "Cramer's V", "value": v})
            for col in ["monthly_income", "years_at_company"]:
                r = stats.pointbiserialr(left, hr[col]).statistic
                rows.append({"feature": col, "measure": "point-biserial r", "value": r})
            print("Association with attrition:")
            print(pd.DataFrame(rows).round(4).to_string(index=False))
        """),
    ),
    Case(
        id="corr-zipcode-price",
        family="correlation_misuse",
        twin="corr-zipcode-price-sound",
        note="Pearson correlation of price with the numeric value of the zip code, a nominal "
        "label.",
        code=_ZIP + dedent("""\

            r = homes["zipcode"].corr(homes["price"])
            print(f"Correlation between zip code and sale price: {r:.3f}")
            print("=> prices rise as zip codes increase" if r > 0 else
                  "=> prices fall as zip codes increase")
        """),
    ),
    Case(
        id="corr-zipcode-price-sound",
        family=None,
        twin="corr-zipcode-price",
        note="Zip code treated as a categorical factor (C(zipcode)) in an OLS on log price; "
        "variance explained and F-test reported.",
        code=_ZIP + dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.ols("np.log(price) ~ C(zipcode)", data=homes).fit()
            print(homes.groupby("zipcode")["price"].median().map("${:,.0f}".format))
            print(f"zip code explains {fit.rsquared:.1%} of the variance in log price "
                  f"(F = {fit.fvalue:.1f}, p = {fit.f_pvalue:.1e})")
        """),
    ),
    Case(
        id="corr-education-codes-pearson",
        family="correlation_misuse",
        twin="corr-education-codes-pearson-sound",
        note="Education levels mapped to 1-4 and correlated with salary by Pearson r, as if "
        "the steps between levels were equal.",
        code=_EDU + dedent("""\

            edu_code = staff.education.map({lvl: i + 1 for i, lvl in enumerate(levels)})
            r, p = stats.pearsonr(edu_code, staff.salary)
            print(f"education level vs salary: r = {r:.2f} (p = {p:.1e}, n = {n})")
        """),
    ),
    Case(
        id="corr-education-codes-pearson-sound",
        family=None,
        twin="corr-education-codes-pearson",
        note="Kendall's tau-b between the ordinal education level and salary (handles the "
        "many ties).",
        code=_EDU + dedent("""\

            edu_rank = staff.education.map({lvl: i + 1 for i, lvl in enumerate(levels)})
            tau, p = stats.kendalltau(edu_rank, staff.salary)
            print(f"education level vs salary: Kendall tau-b = {tau:.2f} (p = {p:.1e}, n = {n})")
        """),
    ),
]
