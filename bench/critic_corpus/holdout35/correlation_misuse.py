from bench.critic_corpus import Case

_OCC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3561)
n = 9000
occ_rel = rng.lognormal(0, 0.3, 31)   # occupation lookup ids 1..30 (nominal codes)
pol = pd.DataFrame({
    "driver_age": rng.integers(17, 86, n),
    "vehicle_group": rng.integers(1, 51, n),
    "ncd_years": rng.integers(0, 10, n),
    "occupation_code": rng.integers(1, 31, n),
    "exposure": np.round(rng.uniform(0.1, 1.0, n), 3),
})
age_rel = np.where(pol.driver_age < 25, 2.0, np.where(pol.driver_age > 70, 1.3, 1.0))
lam = (0.08 * pol.exposure * age_rel * np.exp(0.015 * pol.vehicle_group - 0.07 * pol.ncd_years)
       * occ_rel[pol.occupation_code])
pol["claim_count"] = rng.poisson(lam)
'''

_TREND_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3562)
years = np.arange(2006, 2024)
t = years - 2006
mkt = pd.DataFrame({
    "year": years,
    "claim_freq": np.round(0.125 * np.exp(-0.022 * t) * np.exp(rng.normal(0, 0.025, 18)), 4),
    "telematics_share": np.round(0.2 / (1 + np.exp(-0.45 * (t - 11))) + rng.normal(0, 0.004, 18),
                                 4).clip(0.002),
})
'''

CASES = [
    Case(
        id="h35-corr-factor-screen-occupation-code",
        family="correlation_misuse",
        twin="h35-corr-factor-screen-glm-lr",
        split="holdout35",
        setup=_OCC_SETUP,
        code='''
pol["freq"] = pol.claim_count / pol.exposure
cands = ["driver_age", "vehicle_group", "ncd_years", "occupation_code"]

screen = (pol[cands + ["freq"]].corr()["freq"].drop("freq")
          .to_frame("r_with_freq")
          .assign(abs_r=lambda d: d.r_with_freq.abs())
          .sort_values("abs_r", ascending=False))
screen["keep"] = screen.abs_r >= 0.02
print(screen.round(4))
print("factors carried into the frequency GLM:", list(screen.index[screen.keep]))
''',
        note="Pearson correlation of claim frequency with occupation_code, a nominal lookup id, "
             "is used to screen rating factors, so occupation looks irrelevant and is dropped.",
    ),
    Case(
        id="h35-corr-factor-screen-glm-lr",
        family=None,
        twin="h35-corr-factor-screen-occupation-code",
        split="holdout35",
        setup=_OCC_SETUP,
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy import stats

# one-way Poisson GLM screen with exposure offset; occupation is a nominal code -> C()
terms = {"driver_age": "bs(driver_age, df=4)", "vehicle_group": "vehicle_group",
         "ncd_years": "ncd_years", "occupation_code": "C(occupation_code)"}
off = np.log(pol.exposure)
null = smf.glm("claim_count ~ 1", data=pol, family=sm.families.Poisson(), offset=off).fit()

rows = []
for factor, term in terms.items():
    fit = smf.glm(f"claim_count ~ {term}", data=pol, family=sm.families.Poisson(),
                  offset=off).fit()
    lr = null.deviance - fit.deviance
    df = int(fit.df_model)
    rows.append({"factor": factor, "dev_drop": lr, "df": df, "p": stats.chi2.sf(lr, df)})
screen = pd.DataFrame(rows).set_index("factor").sort_values("p")
print(screen.to_string(float_format=lambda v: f"{v:.4g}"))
print("factors carried into the frequency GLM:", list(screen.index[screen.p < 0.01]))
''',
        note="Each rating factor is screened by a one-way Poisson GLM likelihood-ratio test with "
             "an exposure offset, treating the occupation code as categorical.",
    ),
    Case(
        id="h35-corr-telematics-share-vs-frequency",
        family="correlation_misuse",
        twin="h35-corr-telematics-share-differenced",
        split="holdout35",
        setup=_TREND_SETUP,
        code='''
from scipy import stats

r, p = stats.pearsonr(mkt.telematics_share, mkt.claim_freq)
fit = stats.linregress(mkt.telematics_share * 100, mkt.claim_freq)
print(mkt.iloc[::3].to_string(index=False))
print(f"market claim frequency vs telematics share, {mkt.year.min()}-{mkt.year.max()}: "
      f"r = {r:.3f} (p = {p:.1e}), R^2 = {r ** 2:.2f}")
print(f"each +1pp of telematics penetration cuts market frequency by "
      f"{-fit.slope * 1000:.2f} claims per 1,000 vehicle-years")
''',
        note="Two trending annual series are correlated in levels and the slope is read as the "
             "causal effect of telematics on market frequency (spurious trend correlation).",
    ),
    Case(
        id="h35-corr-telematics-share-differenced",
        family=None,
        twin="h35-corr-telematics-share-vs-frequency",
        split="holdout35",
        setup=_TREND_SETUP,
        code='''
from scipy import stats

# both series trend over time, so compare year-on-year changes rather than levels
chg = pd.DataFrame({"d_log_freq": np.log(mkt.claim_freq).diff(),
                    "d_share_pp": mkt.telematics_share.diff() * 100}).dropna()
r, p = stats.pearsonr(chg.d_share_pp, chg.d_log_freq)
print(mkt.iloc[::3].to_string(index=False))
print(f"{len(chg)} annual changes: corr(d share, d log freq) = {r:.3f}, p = {p:.2f}")
print("descriptive association only; market data cannot attribute the frequency decline "
      "to telematics (vehicle safety, mix and reporting changes move it too)")
''',
        note="Correlates first differences of the two trending series and reports it as an "
             "association only, avoiding spurious level correlation and causal wording.",
    ),
]
