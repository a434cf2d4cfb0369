from bench.critic_corpus import Case

_TRUST_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5150)
n_resp, waves = 240, [1, 2, 3, 4, 5]
people = pd.DataFrame({
    "respid": [f"C{k:05d}" for k in range(1, n_resp + 1)],
    "rural": rng.binomial(1, 0.35, n_resp),
    "person_level": rng.normal(0, 1.9, n_resp),
})
long = people.loc[people.index.repeat(len(waves))].reset_index(drop=True)
long["wave"] = np.tile(waves, n_resp)
latent = 5.1 + 0.25 * long["rural"] + long["person_level"] - 0.1 * (long["wave"] - 3)
long["trust_council"] = np.clip(np.round(latent + rng.normal(0, 0.9, len(long))), 0, 10)
long = long.drop(columns="person_level")
'''

_SCRIPT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8072)
interviewers = pd.DataFrame({
    "int_id": [f"INT{k:02d}" for k in range(1, 21)],
    "script": ["new"] * 10 + ["old"] * 10,
    "int_effect": rng.normal(0, 0.55, 20),
})
contacts = interviewers.loc[interviewers.index.repeat(rng.integers(35, 60, 20))]
contacts = contacts.reset_index(drop=True)
lin = -0.35 - 0.25 * (contacts["script"] == "new") + contacts["int_effect"]
contacts["outcome"] = np.where(rng.random(len(contacts)) < 1 / (1 + np.exp(-lin)),
                               "refusal", "interview")
contacts["call_date"] = pd.Timestamp("2024-05-06") + pd.to_timedelta(
    rng.integers(0, 21, len(contacts)), unit="D")
contacts = contacts.drop(columns="int_effect")
'''

CASES: list[Case] = [
    Case(
        id="h31-pseudoreplication-panel-waves-ols-rural",
        family="pseudoreplication",
        setup=_TRUST_SETUP,
        code='''import statsmodels.formula.api as smf

fit = smf.ols("trust_council ~ rural + C(wave)", data=long).fit()
print(f"n = {int(fit.nobs)} observations")
print(fit.summary2().tables[1].loc[["Intercept", "rural"]].round(3))
print(f"\\nrural residents trust the council {fit.params['rural']:.2f} points more "
      f"(p = {fit.pvalues['rural']:.4f})")
''',
        twin="h31-pseudoreplication-panel-waves-ols-rural-ok",
        note="Five waves per respondent are fitted as 1,200 independent observations with plain "
             "OLS errors; the rural/urban comparison really has 240 units.",
        split="holdout31",
    ),
    Case(
        id="h31-pseudoreplication-panel-waves-ols-rural-ok",
        family=None,
        setup=_TRUST_SETUP,
        code='''import statsmodels.formula.api as smf

# rural is fixed per respondent and each person answers 5 waves: cluster SEs on respid
fit = smf.ols("trust_council ~ rural + C(wave)", data=long).fit(
    cov_type="cluster", cov_kwds={"groups": long["respid"]})
print(f"n = {int(fit.nobs)} observations from {long['respid'].nunique()} respondents")
print(fit.summary2().tables[1].loc[["Intercept", "rural"]].round(3))
print(f"\\nrural residents trust the council {fit.params['rural']:.2f} points more "
      f"(cluster-robust p = {fit.pvalues['rural']:.4f})")
''',
        twin="h31-pseudoreplication-panel-waves-ols-rural",
        note="Same panel regression with standard errors clustered on respondent.",
        split="holdout31",
    ),
    Case(
        id="h31-pseudoreplication-interviewer-script-chi2",
        family="pseudoreplication",
        setup=_SCRIPT_SETUP,
        code='''from scipy.stats import chi2_contingency

xt = pd.crosstab(contacts["script"], contacts["outcome"], margins=True)
print(xt)
chi2, p, dof, _ = chi2_contingency(xt.iloc[:2, :2])
rr = contacts.groupby("script")["outcome"].apply(lambda s: (s == "refusal").mean())
print(f"\\nrefusal rate: new script {rr['new']:.1%} vs old {rr['old']:.1%}")
print(f"chi2({dof}) = {chi2:.2f}, p = {p:.4f}")
if p < 0.05:
    print("-> new introduction script significantly cuts refusals; roll out to all CATI staff")
''',
        twin="h31-pseudoreplication-interviewer-script-chi2-ok",
        note="Script was assigned to 20 interviewers, but refusals are tested over ~950 contacts "
             "as if independent, ignoring interviewer clustering.",
        split="holdout31",
    ),
    Case(
        id="h31-pseudoreplication-interviewer-script-chi2-ok",
        family=None,
        setup=_SCRIPT_SETUP,
        code='''from scipy.stats import ttest_ind

xt = pd.crosstab(contacts["script"], contacts["outcome"], margins=True)
print(xt)
# the script was randomised to interviewers, so the interviewer is the unit of analysis
per_int = (contacts.assign(refused=contacts["outcome"] == "refusal")
           .groupby(["int_id", "script"], as_index=False)["refused"].mean())
new = per_int.loc[per_int["script"] == "new", "refused"]
old = per_int.loc[per_int["script"] == "old", "refused"]
t, p = ttest_ind(new, old, equal_var=False)
print(f"\\nmean interviewer refusal rate: new {new.mean():.1%} vs old {old.mean():.1%} "
      f"({len(new)} vs {len(old)} interviewers)")
print(f"Welch t = {t:.2f}, p = {p:.4f}")
''',
        twin="h31-pseudoreplication-interviewer-script-chi2",
        note="Analysis at the level of randomisation: refusal rate per interviewer, compared "
             "across the 10 + 10 interviewers.",
        split="holdout31",
    ),
]
