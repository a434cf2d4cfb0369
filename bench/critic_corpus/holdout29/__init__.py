"""holdout29: a fresh held-out split written by an HR / people-analytics analyst voice.

Written outside the repository by an author who read neither the critic's rules nor any earlier
split (only the `Case` format and the checker). Every cell is a notebook cell the way a people
analyst writes them: pandas groupbys over HRIS extracts, scipy.stats tests on survey and absence
data, statsmodels formulas for pay-equity and engagement models, scikit-learn attrition and
hiring-funnel models, and f-string readouts for HR business partners.

Domains: voluntary attrition / flight risk, engagement surveys with Likert items, performance
ratings and calibration, pay equity and compensation, hiring funnels and time-to-fill, sickness
absence, training programmes, and manager teams. Data are simulated in each case's `setup` with
a seeded numpy Generator.

First look (measured once, before any tuning on this split, at commit 74d4830, rules only, real
kernels, machine load about 7-8): recall 0.95 (19/20), strict recall 0.90, false-positive rate
0.04 (1/25, blocked).
"""
