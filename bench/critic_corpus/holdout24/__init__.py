"""holdout24: a fresh held-out split for the notebook critic, written in the voice of a data
journalist / public-policy analyst working with open government data.

Written outside the repository by an author who read only the `Case` format and the corpus
checker: not the critic, its rules, its tests, or any earlier split. Each family has two flawed
cells written in different idioms (sklearn pipelines and GridSearch, statsmodels formulas,
scipy.stats loops, numpy polyfit trends, pandas pivot/merge/str-cleaning chains, matplotlib
charts) and in different domains, each with a sound twin doing the same work correctly, plus
five ordinary sound analyses.

Domains: school league tables and Ofsted grades, private rents and asking prices, election
turnout, council by-election forecasts and opinion polls, A&E four-hour breaches and FOI waiting
times, council contract spending, precinct crime counts, Clean Air Zone NO2 monitors and
low-cost PM2.5 sensors, unemployment claims and claimant rates, and Tube ridership. All data are
simulated in each case's `setup` with a seeded numpy Generator.

First look (measured once, before any tuning on this split, at commit d2bf3ad, rules only, real
kernels): recall 0.75 (15/20), strict recall 0.65, false-positive rate 0.04 (1/25, none
blocked).
"""
