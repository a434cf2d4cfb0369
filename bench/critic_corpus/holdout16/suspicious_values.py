from bench.critic_corpus import Case

_SPLIT = "holdout16"

_TURNOUT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8642)
n = 6000
age = rng.integers(18, 91, n)
college = rng.binomial(1, 0.35, n)
owner = rng.binomial(1, 0.6, n)
yrs_addr = np.round(rng.gamma(1.5, 5, n), 1)
contacted = rng.binomial(1, 0.3, n)
lin = -3.0 + 0.045 * age + 0.9 * college + 0.6 * owner + 0.04 * yrs_addr + 0.35 * contacted
vf = pd.DataFrame({
    "voter_id": [f"OH{i:08d}" for i in rng.choice(10**8, n, replace=False)],
    "age": age, "college": college, "homeowner": owner, "yrs_at_address": yrs_addr,
    "canvassed": contacted, "voted_2022": rng.binomial(1, 1 / (1 + np.exp(-lin))),
})
profiles = pd.DataFrame({
    "profile": ["new young renter", "median voter", "canvassed student", "retired owner",
                "long-time owner, college"],
    "age": [19, 47, 21, 72, 85],
    "college": [0, 0, 1, 1, 1],
    "homeowner": [0, 1, 0, 1, 1],
    "yrs_at_address": [0.2, 6.0, 0.5, 30.0, 45.0],
    "canvassed": [0, 0, 1, 1, 1],
})
'''

_CPS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4321)
n = 5000
union = rng.binomial(1, 0.11, n)
age = rng.integers(18, 65, n)
industry = rng.choice(["construction", "manufacturing", "transport", "education", "retail",
                       "health"], n)
earn = np.exp(6.6 + 0.15 * union + 0.015 * (age - 40) + rng.normal(0, 0.5, n))
refused = rng.random(n) < np.where(union == 1, 0.01, 0.06)
earn = np.where(refused, 99999, np.round(earn, 2))
org = pd.DataFrame({
    "hrhhid": rng.integers(10**11, 10**12, n),
    "age": age,
    "industry": industry,
    "union_member": union,
    "weekly_earnings": earn,
})
'''

CASES = [
    Case(
        id="h16-suspicious-values-lpm-turnout-probs",
        family="suspicious_values",
        split=_SPLIT,
        twin="h16-suspicious-values-lpm-turnout-probs-ok",
        setup=_TURNOUT_SETUP,
        note="linear probability model predictions are reported as turnout probabilities for "
             "voter profiles although two of them exceed 1",
        code='''
import statsmodels.formula.api as smf

lpm = smf.ols("voted_2022 ~ age + college + homeowner + yrs_at_address + canvassed",
              data=vf).fit(cov_type="HC1")
print(lpm.summary2().tables[1].round(4))

pred = lpm.get_prediction(profiles).summary_frame(alpha=0.05)
out = profiles[["profile"]].assign(p_vote=pred["mean"].round(3),
                                   lo=pred["mean_ci_lower"].round(3),
                                   hi=pred["mean_ci_upper"].round(3))
out
''',
    ),
    Case(
        id="h16-suspicious-values-lpm-turnout-probs-ok",
        family=None,
        split=_SPLIT,
        twin="h16-suspicious-values-lpm-turnout-probs",
        setup=_TURNOUT_SETUP,
        note="profile turnout probabilities come from a logit, so they stay inside [0, 1]",
        code='''
import statsmodels.formula.api as smf

logit = smf.logit("voted_2022 ~ age + college + homeowner + yrs_at_address + canvassed",
                  data=vf).fit(disp=0)
print(logit.summary2().tables[1].round(4))

xb = logit.get_prediction(profiles, which="linear").summary_frame(alpha=0.05)
expit = lambda v: 1 / (1 + np.exp(-v))
out = profiles[["profile"]].assign(p_vote=expit(xb["predicted"]).round(3),
                                   lo=expit(xb["ci_lower"]).round(3),
                                   hi=expit(xb["ci_upper"]).round(3))
out
''',
    ),
    Case(
        id="h16-suspicious-values-union-premium-refusal-code",
        family="suspicious_values",
        split=_SPLIT,
        twin="h16-suspicious-values-union-premium-refusal-code-ok",
        setup=_CPS_SETUP,
        note="weekly_earnings contains the 99999 refusal code (more often for non-members), which "
             "is averaged in and flips the union wage premium",
        code='''
import statsmodels.formula.api as smf

print(org.groupby("union_member")["weekly_earnings"].describe().round(1))
gap = org.groupby("union_member")["weekly_earnings"].mean()
print(f"raw union premium: {gap[1] - gap[0]:,.1f} $/week")

fit = smf.ols("weekly_earnings ~ union_member + age + C(industry)", data=org).fit(
    cov_type="HC1")
fit.summary2().tables[1].loc[["union_member", "age"]].round(3)
''',
    ),
    Case(
        id="h16-suspicious-values-union-premium-refusal-code-ok",
        family=None,
        split=_SPLIT,
        twin="h16-suspicious-values-union-premium-refusal-code",
        setup=_CPS_SETUP,
        note="the 99999 refusal code is set to missing, the count of refusals by union status is "
             "reported, and the premium is estimated on valid earnings",
        code='''
import statsmodels.formula.api as smf

org["weekly_earnings"] = org["weekly_earnings"].replace(99999, np.nan)
print("refused / missing earnings by union status:")
print(org.groupby("union_member")["weekly_earnings"].apply(lambda s: s.isna().sum()))
print(org.groupby("union_member")["weekly_earnings"].describe().round(1))
gap = org.groupby("union_member")["weekly_earnings"].mean()
print(f"raw union premium: {gap[1] - gap[0]:,.1f} $/week")

fit = smf.ols("weekly_earnings ~ union_member + age + C(industry)", data=org).fit(
    cov_type="HC1")
print(f"regression n = {int(fit.nobs)}")
fit.summary2().tables[1].loc[["union_member", "age"]].round(3)
''',
    ),
]
