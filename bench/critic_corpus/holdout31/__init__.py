"""holdout31: a fresh, blind generalisation split for the nbcritic critic corpus.

Written outside the repository by an author who read only the `Case` format and the corpus
checker -- not the critic's rules, its tests, or any earlier split. Voice: a survey statistician /
public-opinion pollster at a research institute. Cells use weighted estimates (np.average,
DescrStatsW, Kish effective n), crosstabs, Likert items with SPSS-style don't-know codes,
panel waves per respondent, fieldwork and response-rate monitoring, split-ballot and incentive
experiments, interviewer-level designs, likely-voter screens and recontact studies.

Domains: vote intention and government approval polls, likely-voter modelling against election
returns, panel attrition and recontact propensity, mixed-mode (web-first) uptake, council and
GP-service satisfaction surveys, health surveys (flu vaccination, smoking), community surveys
(food bank use by ward), consumer-confidence trackers, news-media use, CATI interviewer
scripts, and question-wording experiments.

Ten flaw families x 2 flawed cells, each with a matched sound twin, plus 5 ordinary sound
analyses (45 cells). Data are simulated in each case's `setup` with seeded numpy Generators.

First look (measured once, before any tuning on this split, at commit 099b91c, rules only,
real kernels, machine load about 2.1-2.4): recall 0.70 (14/20), strict recall 0.60,
false-positive rate 0.00 (0/25, none blocked).
"""
