from bench.critic_corpus import Case

SPLIT = "holdout24"

_PRECINCT_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(6060)
precincts = [f"PCT {p:03d}" for p in sorted(rng.choice(np.arange(1, 124), 40, replace=False))]
offenses = {"BURGLARY": 1.0, "ROBBERY": 0.7, "GRAND LARCENY": 2.4, "FELONY ASSAULT": 1.1}
base = dict(zip(precincts, rng.gamma(5, 22, 40)))
rows = []
for pct in precincts:
    for year in (2022, 2023):
        for off, mult in offenses.items():
            lam = base[pct] * mult
            if pct == precincts[7] and off == "BURGLARY" and year == 2023:
                lam *= 1.7
            k = rng.poisson(lam)
            days = rng.integers(0, 365, k)
            rows.append(pd.DataFrame({
                "precinct": pct, "offense": off,
                "cmplnt_date": pd.Timestamp(f"{year}-01-01") + pd.to_timedelta(days, unit="D"),
            }))
complaints = pd.concat(rows, ignore_index=True)
complaints.insert(0, "cmplnt_num", rng.choice(10**8, len(complaints), replace=False))
complaints["year"] = complaints.cmplnt_date.dt.year
"""

_POLL_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(9090)
n = 1600
demo = {
    "age_band": (["18-24", "25-34", "35-44", "45-54", "55-64", "65+"],
                 [0.11, 0.17, 0.16, 0.17, 0.16, 0.23]),
    "gender": (["Female", "Male"], [0.51, 0.49]),
    "region": (["North", "Midlands", "London", "South", "Wales", "Scotland"],
               [0.22, 0.2, 0.15, 0.28, 0.05, 0.1]),
    "education": (["GCSE or below", "A-level", "Degree", "Postgrad"], [0.33, 0.25, 0.3, 0.12]),
    "tenure": (["Own outright", "Mortgage", "Private rent", "Social rent"],
               [0.33, 0.3, 0.2, 0.17]),
    "urban_rural": (["Urban", "Suburban", "Rural"], [0.4, 0.38, 0.22]),
    "income_band": (["<20k", "20-40k", "40-70k", "70k+"], [0.26, 0.34, 0.26, 0.14]),
    "vote_2019": (["Con", "Lab", "LD", "Other", "Did not vote"], [0.3, 0.25, 0.09, 0.08, 0.28]),
}
poll = pd.DataFrame({k: rng.choice(v[0], n, p=v[1]) for k, v in demo.items()})
questions = ["q1_4day_week", "q2_rent_controls", "q3_ban_new_petrol", "q4_wealth_tax",
             "q5_rejoin_eu", "q6_nationalise_rail", "q7_lower_voting_age", "q8_more_housing"]
for q in questions:
    p_support = np.full(n, 0.45)
    if q == "q7_lower_voting_age":
        p_support = np.where(poll.age_band.isin(["18-24", "25-34"]), 0.62, 0.38)
    u = rng.random(n)
    poll[q] = np.where(u < p_support, "Support",
                       np.where(u < p_support + 0.4, "Oppose", "Don't know"))
"""

CASES: list[Case] = [
    Case(
        id="h24-multiple-comparisons-burglary-by-precinct",
        family="multiple_comparisons",
        setup=_PRECINCT_SETUP,
        code=r"""
from scipy import stats

burg = (complaints.query("offense == 'BURGLARY'")
        .pivot_table(index="precinct", columns="year", values="cmplnt_num",
                     aggfunc="count", fill_value=0))

rows = []
for pct, r in burg.iterrows():
    res = stats.binomtest(int(r[2023]), int(r[2022] + r[2023]), 0.5)
    rows.append({"precinct": pct, "n_2022": r[2022], "n_2023": r[2023],
                 "change_pct": 100 * (r[2023] / r[2022] - 1), "p": res.pvalue})
yoy = pd.DataFrame(rows).sort_values("p")

sig = yoy[yoy.p < 0.05]
print(f"Burglary changed significantly in {len(sig)} of {len(yoy)} precincts:")
for _, r in sig.iterrows():
    print(f"  {r.precinct}: {r.n_2022} -> {r.n_2023} ({r.change_pct:+.0f}%), p = {r.p:.3f}")
""",
        twin="h24-multiple-comparisons-burglary-by-precinct-fdr",
        note="Forty precinct-by-precinct binomial tests; every p < 0.05 is reported as a "
             "significant change with no adjustment for running 40 tests.",
        split=SPLIT,
    ),
    Case(
        id="h24-multiple-comparisons-burglary-by-precinct-fdr",
        family=None,
        setup=_PRECINCT_SETUP,
        code=r"""
from scipy import stats
from statsmodels.stats.multitest import multipletests

burg = (complaints.query("offense == 'BURGLARY'")
        .pivot_table(index="precinct", columns="year", values="cmplnt_num",
                     aggfunc="count", fill_value=0))

rows = []
for pct, r in burg.iterrows():
    res = stats.binomtest(int(r[2023]), int(r[2022] + r[2023]), 0.5)
    rows.append({"precinct": pct, "n_2022": r[2022], "n_2023": r[2023],
                 "change_pct": 100 * (r[2023] / r[2022] - 1), "p": res.pvalue})
yoy = pd.DataFrame(rows).sort_values("p")
yoy["q_bh"] = multipletests(yoy.p, method="fdr_bh")[1]

sig = yoy[yoy.q_bh < 0.05]
print(f"Burglary changed significantly in {len(sig)} of {len(yoy)} precincts "
      f"(Benjamini-Hochberg, FDR 5%; {(yoy.p < 0.05).sum()} had unadjusted p < 0.05):")
for _, r in sig.iterrows():
    print(f"  {r.precinct}: {r.n_2022} -> {r.n_2023} ({r.change_pct:+.0f}%), q = {r.q_bh:.3f}")
""",
        twin="h24-multiple-comparisons-burglary-by-precinct",
        note="Same 40 binomial tests, but only precincts surviving a Benjamini-Hochberg "
             "false-discovery-rate adjustment are reported as significant.",
        split=SPLIT,
    ),
    Case(
        id="h24-multiple-comparisons-poll-crosstab-splits",
        family="multiple_comparisons",
        setup=_POLL_SETUP,
        code=r"""
from scipy.stats import chi2_contingency

splits = []
for q in questions:
    for d in demo:
        tab = pd.crosstab(poll[d], poll[q])
        chi2, p, dof, _ = chi2_contingency(tab)
        splits.append((q, d, round(chi2, 1), p))

splits = pd.DataFrame(splits, columns=["question", "split_by", "chi2", "p"]).sort_values("p")
found = splits[splits.p < 0.05]
print(f"{len(found)} statistically significant divides in our poll (p < 0.05):")
found.reset_index(drop=True)
""",
        twin="h24-multiple-comparisons-poll-crosstab-splits-holm",
        note="64 chi-square tests (8 questions x 8 demographics) and every p < 0.05 is "
             "headlined as a significant divide without any multiplicity correction.",
        split=SPLIT,
    ),
    Case(
        id="h24-multiple-comparisons-poll-crosstab-splits-holm",
        family=None,
        setup=_POLL_SETUP,
        code=r"""
from scipy.stats import chi2_contingency
from statsmodels.stats.multitest import multipletests

splits = []
for q in questions:
    for d in demo:
        tab = pd.crosstab(poll[d], poll[q])
        chi2, p, dof, _ = chi2_contingency(tab)
        splits.append((q, d, round(chi2, 1), p))

splits = pd.DataFrame(splits, columns=["question", "split_by", "chi2", "p"]).sort_values("p")
splits["p_holm"] = multipletests(splits.p, method="holm")[1]
found = splits[splits.p_holm < 0.05]
print(f"{len(found)} divides in our poll survive a Holm correction for the "
      f"{len(splits)} crosstabs tested:")
found.reset_index(drop=True)
""",
        twin="h24-multiple-comparisons-poll-crosstab-splits",
        note="Same 64 crosstab tests, with a Holm family-wise correction before any divide is "
             "called significant.",
        split=SPLIT,
    ),
]
