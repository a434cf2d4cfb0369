"""holdout22: a fresh, blind split of the critic corpus, written outside the repository.

Written in the voice of a manufacturing / process and reliability engineer analysing plant data,
by an author who read only the `Case` format and the corpus checker (not the critic, its rules,
its tests, or any earlier split). Every cell simulates its data in `setup` with a seeded numpy
Generator, and the reviewed cell is written the way an engineer writes plant analyses: terse
names, helper functions such as `cpk`, loops over furnaces / months / params, dict-of-results
tables, printed summaries with units, and the odd assert.

Domains: wafer PCM / inline metrology and sort results, predictive maintenance of pumps, CNC
spindles and cutting tools, warranty returns, etch lot yield, CNC and compressed-air energy,
monthly shift scrap, flatness and OD capability (Ppk/Cpk), chamber-clean particle counts,
film-thickness wafer maps, gauge agreement and gauge R&R, N2 purity vs reflow scrap, furnace PLC
logs, SMT first-pass yield, MES lot / final-test joins, SCADA energy-meter exports, Weibull
bench life, 2^3 DOE, X-bar/R charts and line scrap rates.

Idioms: numpy vectorised maths, pandas datetime indexes with resample / Grouper, MES merges,
scipy.stats (ttest_ind, f_oneway, kruskal, pearsonr, shapiro, lognorm, weibull_min), statsmodels
(ols with categorical factors, anova_lm, proportions_ztest, multipletests, proportion_confint)
and sklearn (RandomForest, IsolationForest, SelectKBest, pipelines, resample).

Ten families x 2 flawed cells, each with a sound twin, plus 5 ordinary sound analyses (45 cells).

First look (measured once, before any tuning on this split, at commit d2bf3ad, rules only, real
kernels): recall 0.85 (17/20), strict recall 0.80, false-positive rate 0.00 (0/25).
"""
