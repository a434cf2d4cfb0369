"""holdout13: a fresh, blind generalisation split for the notebook critic.

Written outside the repository (NBCRITIC_CORPUS_STAGED) by an author who read only the `Case`
format and the corpus checker, neither the critic's rules nor any earlier split. The voice is a
working analyst in a company data team: long weekly-notebook cells (load/clean, reshape,
compute, model or test, small printed report) in which the flaw is one ordinary step, with no
comments pointing at it. Idioms: sklearn pipelines and ColumnTransformers, manual CV loops,
statsmodels formula API (OLS, logit, GLM), scipy tests in loops and groupby/apply, pandas method
chains, pivot tables and merges, numpy bootstraps.

Ten families x 2 flawed cells with matched sound twins, plus 5 general sound analyses, in these
domains: insurance fraud, semiconductor wafer yield, subscription churn, court case outcomes,
hotel revenue, music streaming, food safety inspections, railway punctuality, charity donations,
aircraft maintenance, veterinary clinics, urban cycling counters, museum visitors, solar panel
output, warehouse picking, dental practices, parking enforcement, library loans, call-detail
records and fisheries catch. All data are simulated in each case's setup with seeded numpy
Generators.

First look, through real kernels, before any rule was tuned on it, at 6fbd51c:
recall 0.95 (19/20), false-positive rate 0.04 (1/25).
"""
