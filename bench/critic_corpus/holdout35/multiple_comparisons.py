from bench.critic_corpus import Case

_TERR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3535)
n_terr = 36
terr_exp = pd.DataFrame({
    "territory": [f"T{i:02d}" for i in range(1, n_terr + 1)],
    "car_years": np.round(rng.lognormal(7.0, 0.6, n_terr), 1),
})
true_rel = np.ones(n_terr)
true_rel[[4, 17, 29]] = [1.45, 1.40, 0.65]
terr_exp["claims"] = rng.poisson(0.075 * terr_exp.car_years * true_rel)
'''

_FLAG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3533)
n = 3000
flag_names = ["rf_" + s for s in [
    "new_policy_60d", "cash_settlement_req", "late_night_loss", "no_witness", "prior_denial",
    "address_change", "hire_car_same_day", "pay_by_cash", "multiple_phones", "bodyshop_nominated",
    "vehicle_high_mileage", "claimant_unemployed", "loss_near_home", "pre_existing_damage",
    "third_party_hostile", "passenger_count_high", "photos_missing", "claim_by_phone_only",
    "agent_introduced", "recent_cover_upgrade", "weekend_loss", "keys_not_present",
    "finance_arrears", "social_media_flag"]]
flags = pd.DataFrame(rng.binomial(1, rng.uniform(0.05, 0.3, len(flag_names)), (n, 24)),
                     columns=flag_names)
eta = -3.0 + 0.9 * flags.rf_new_policy_60d + 0.8 * flags.rf_recent_cover_upgrade
flags["fraud_confirmed"] = rng.binomial(1, 1 / (1 + np.exp(-eta)))
'''

CASES = [
    Case(
        id="h35-mc-territory-ae-uncorrected",
        family="multiple_comparisons",
        twin="h35-mc-territory-ae-bh",
        split="holdout35",
        setup=_TERR_SETUP,
        code='''
from scipy import stats

def poisson_two_sided(k, mu):
    return min(1.0, 2 * min(stats.poisson.cdf(k, mu), stats.poisson.sf(k - 1, mu)))

book_freq = terr_exp.claims.sum() / terr_exp.car_years.sum()
terr_exp["expected"] = book_freq * terr_exp.car_years
terr_exp["ae"] = terr_exp.claims / terr_exp.expected
terr_exp["p_value"] = [poisson_two_sided(k, mu)
                       for k, mu in zip(terr_exp.claims, terr_exp.expected)]

review = terr_exp[terr_exp.p_value < 0.05].sort_values("ae", ascending=False)
print(f"book frequency {book_freq:.4f}; {len(review)} of {len(terr_exp)} territories "
      f"significantly off book at 5% -> proposed for rate review:")
print(review[["territory", "car_years", "claims", "expected", "ae", "p_value"]]
      .round(3).to_string(index=False))
''',
        note="36 territory-vs-book Poisson tests each judged at p<0.05 with no multiplicity "
             "correction; the flagged list is presented as territories needing a rate change.",
    ),
    Case(
        id="h35-mc-territory-ae-bh",
        family=None,
        twin="h35-mc-territory-ae-uncorrected",
        split="holdout35",
        setup=_TERR_SETUP,
        code='''
from scipy import stats
from statsmodels.stats.multitest import multipletests

def poisson_two_sided(k, mu):
    return min(1.0, 2 * min(stats.poisson.cdf(k, mu), stats.poisson.sf(k - 1, mu)))

book_freq = terr_exp.claims.sum() / terr_exp.car_years.sum()
terr_exp["expected"] = book_freq * terr_exp.car_years
terr_exp["ae"] = terr_exp.claims / terr_exp.expected
terr_exp["p_value"] = [poisson_two_sided(k, mu)
                       for k, mu in zip(terr_exp.claims, terr_exp.expected)]
# 36 territories tested at once: control the false discovery rate (Benjamini-Hochberg)
reject, terr_exp["q_value"], _, _ = multipletests(terr_exp.p_value, alpha=0.05,
                                                  method="fdr_bh")

review = terr_exp[reject].sort_values("ae", ascending=False)
print(f"book frequency {book_freq:.4f}; {len(review)} of {len(terr_exp)} territories "
      f"off book at FDR 5% -> proposed for rate review:")
print(review[["territory", "car_years", "claims", "expected", "ae", "p_value", "q_value"]]
      .round(3).to_string(index=False))
''',
        note="Territory A/E Poisson tests are adjusted with Benjamini-Hochberg across all 36 "
             "territories before any are proposed for rate review.",
    ),
    Case(
        id="h35-mc-fraud-redflag-screen",
        family="multiple_comparisons",
        twin="h35-mc-fraud-redflag-holm",
        split="holdout35",
        setup=_FLAG_SETUP,
        code='''
from scipy.stats import chi2_contingency

rows = []
for f in [c for c in flags.columns if c.startswith("rf_")]:
    tab = pd.crosstab(flags[f], flags.fraud_confirmed)
    chi2, p, dof, _ = chi2_contingency(tab)
    rate_on = flags.loc[flags[f] == 1, "fraud_confirmed"].mean()
    rate_off = flags.loc[flags[f] == 0, "fraud_confirmed"].mean()
    rows.append({"flag": f, "fraud_if_set": rate_on, "fraud_if_not": rate_off,
                 "lift": rate_on / rate_off, "chi2": chi2, "p": p})

screen = pd.DataFrame(rows).sort_values("p")
validated = screen[screen.p < 0.05]
print(f"{len(validated)} red flags validated against SIU outcomes "
      f"(n={len(flags):,} claims) -> add to referral rules:")
print(validated.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
''',
        note="24 red-flag indicators are each chi-square tested against fraud outcome and every "
             "p<0.05 is promoted to the rules engine without multiple-testing correction.",
    ),
    Case(
        id="h35-mc-fraud-redflag-holm",
        family=None,
        twin="h35-mc-fraud-redflag-screen",
        split="holdout35",
        setup=_FLAG_SETUP,
        code='''
from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests

rows = []
for f in [c for c in flags.columns if c.startswith("rf_")]:
    tab = pd.crosstab(flags[f], flags.fraud_confirmed)
    chi2, p, dof, _ = chi2_contingency(tab)
    rate_on = flags.loc[flags[f] == 1, "fraud_confirmed"].mean()
    rate_off = flags.loc[flags[f] == 0, "fraud_confirmed"].mean()
    rows.append({"flag": f, "fraud_if_set": rate_on, "fraud_if_not": rate_off,
                 "lift": rate_on / rate_off, "chi2": chi2, "p": p})

screen = pd.DataFrame(rows).sort_values("p")
# 24 flags screened together -> Holm family-wise correction before promoting any of them
screen["p_holm"] = multipletests(screen.p, method="holm")[1]
validated = screen[screen.p_holm < 0.05]
print(f"{len(validated)} red flags validated against SIU outcomes "
      f"(n={len(flags):,} claims, Holm-adjusted) -> add to referral rules:")
print(validated.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
''',
        note="The 24 red-flag chi-square tests are Holm-adjusted before any flag is promoted, "
             "controlling the family-wise error rate of the screen.",
    ),
]
