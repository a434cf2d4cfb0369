from bench.critic_corpus import Case

_SPLIT = "holdout16"

_HOUSING_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2468)
n = 1400
tenure = rng.choice([1, 2, 3, 4], n, p=[0.45, 0.30, 0.12, 0.13])
sat_mean = pd.Series({1: 3.9, 2: 3.1, 3: 2.6, 4: 3.3})[tenure].to_numpy()
satisfaction = np.clip(np.round(sat_mean + rng.normal(0, 0.9, n)), 1, 5).astype(int)
ahs = pd.DataFrame({
    "resp_id": np.arange(n),
    "tenure_code": tenure,
    "region_code": rng.choice([1, 2, 3, 4], n),
    "hh_income_k": np.round(rng.lognormal(3.9, 0.6, n), 1),
    "housing_satisfaction": satisfaction,
})
codebook = {1: "owner", 2: "private renter", 3: "public housing", 4: "HCV voucher"}
'''

_REMIT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(15)
years = np.arange(1992, 2023)
t = len(years)
remit = np.exp(np.log(3.2) + np.cumsum(rng.normal(0.075, 0.06, t)))
constr = 5.1 + np.cumsum(rng.normal(0.09, 0.25, t))
series = pd.DataFrame({
    "year": years,
    "remittances_usd_bn": remit.round(2),
    "us_construction_emp_m": constr.round(2),
}).set_index("year")
'''

CASES = [
    Case(
        id="h16-correlation-misuse-tenure-codes-pearson",
        family="correlation_misuse",
        split=_SPLIT,
        twin="h16-correlation-misuse-tenure-codes-pearson-ok",
        setup=_HOUSING_SETUP,
        note="Pearson r between nominal tenure codes (owner/renter/public/voucher = 1-4) and "
             "satisfaction; the sign and size depend on the arbitrary code order",
        code='''
from scipy import stats

cols = ["tenure_code", "region_code", "hh_income_k", "housing_satisfaction"]
print(ahs[cols].corr().round(3).to_string())
r, p = stats.pearsonr(ahs["tenure_code"], ahs["housing_satisfaction"])
print(f"tenure vs housing satisfaction: r = {r:.3f} (p = {p:.2g}, n = {len(ahs)})")
''',
    ),
    Case(
        id="h16-correlation-misuse-tenure-codes-pearson-ok",
        family=None,
        split=_SPLIT,
        twin="h16-correlation-misuse-tenure-codes-pearson",
        setup=_HOUSING_SETUP,
        note="tenure is treated as nominal: satisfaction distribution by tenure, chi-square "
             "test and Cramer's V instead of a correlation of codes",
        code='''
from scipy import stats

ahs["tenure"] = ahs["tenure_code"].map(codebook)
tab = pd.crosstab(ahs["tenure"], ahs["housing_satisfaction"])
chi2, p, dof, _ = stats.chi2_contingency(tab)
cramers_v = np.sqrt(chi2 / (tab.to_numpy().sum() * (min(tab.shape) - 1)))
print(ahs.groupby("tenure")["housing_satisfaction"].agg(["count", "mean", "median"]).round(2))
print(f"tenure x satisfaction: chi2({dof}) = {chi2:.1f}, p = {p:.2g}, Cramer's V = {cramers_v:.3f}")
''',
    ),
    Case(
        id="h16-correlation-misuse-remittances-trending",
        family="correlation_misuse",
        split=_SPLIT,
        twin="h16-correlation-misuse-remittances-trending-ok",
        setup=_REMIT_SETUP,
        note="correlation of two independently trending annual series in levels; the high r "
             "reflects shared trends, not co-movement",
        code='''
from scipy import stats

r, p = stats.pearsonr(series["remittances_usd_bn"], series["us_construction_emp_m"])
print(f"{series.index.min()}-{series.index.max()}: remittances vs US construction employment "
      f"r = {r:.3f} (p = {p:.1e})")
series.corr().round(3)
''',
    ),
    Case(
        id="h16-correlation-misuse-remittances-trending-ok",
        family=None,
        split=_SPLIT,
        twin="h16-correlation-misuse-remittances-trending",
        setup=_REMIT_SETUP,
        note="both series are differenced (log growth of remittances, change in employment) "
             "before correlating, removing the common trend",
        code='''
from scipy import stats

growth = pd.DataFrame({
    "dlog_remittances": np.log(series["remittances_usd_bn"]).diff(),
    "d_construction_emp": series["us_construction_emp_m"].diff(),
}).dropna()
r, p = stats.pearsonr(growth["dlog_remittances"], growth["d_construction_emp"])
print(f"{growth.index.min()}-{growth.index.max()} ({len(growth)} annual changes): "
      f"r = {r:.3f} (p = {p:.2f})")
growth.corr().round(3)
''',
    ),
]
