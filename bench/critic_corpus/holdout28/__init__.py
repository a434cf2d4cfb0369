"""holdout28: a fresh, held-out split of the critic corpus.

Written outside the repository by an author who read neither the critic's rules nor any earlier
split, in the voice of an energy / utilities data scientist: smart-meter consumption, grid load
and solar PV forecasting, wind-farm SCADA, outage logs and reliability indices, tariff and
demand-response trials, billing / churn models, transformer and meter asset data, EV charging.
Cells use the habits of that work: pandas time-series idioms (resample, groupby on settlement
periods), numpy, scipy.stats, statsmodels formulas and scikit-learn pipelines, with f-string
readouts. Each family has two flawed cells in different sub-domains and idioms, each with a
matched sound twin, plus five ordinary sound analyses in sound_general.py.

First look (measured once, before any tuning on this split, at commit 74d4830, rules only, real
kernels, machine load about 7-8): recall 0.80 (16/20), strict recall 0.75, false-positive rate
0.08 (2/25, one blocked).
"""
