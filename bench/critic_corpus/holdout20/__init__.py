"""holdout20: a fresh held-out split of the critic corpus.

Written outside the repository by an author who read neither the critic's rules nor any
earlier split, in the voice of a risk / quant analyst at a bank or insurer. Domains: credit
PD models and scorecards, card fraud detection, claims severity, loss reserving triangles,
portfolio returns and factor regressions, trading-signal backtests, customer lifetime value,
collections, motor pricing GLMs and macro stress tests. Idioms: pandas with dates and rolling
windows, statsmodels (OLS with HAC errors, GLM with exposure offsets, logit, formula API),
sklearn (LogisticRegression, GradientBoosting, pipelines, train_test_split) and numpy
simulations, reporting AUC/Gini/KS, Sharpe ratios, hit rates and lift tables. Each flaw family
has two flawed cells in different domains and idioms, each with a sound twin, plus five
ordinary sound analyses.

First look, through real kernels, before any rule was tuned on it, at 157ca0d:
recall 0.75 (15/20), false-positive rate 0.08 (2/25).
"""
