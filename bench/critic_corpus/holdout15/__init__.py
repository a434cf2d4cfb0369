"""holdout15: a fresh held-out split for the notebook-cell critic.

Written outside the repository by one author who read only the `Case` format and the corpus
checker, never the critic's rules or any earlier split. The cells imitate Kaggle-style
competition and tutorial notebooks by a self-taught analyst: chained pandas, plain matplotlib,
sklearn pipelines, cross_val_score / GridSearchCV / train_test_split, value_counts, describe(),
corr() tables and quick scipy / statsmodels tests, with short variable names and results left
as the last expression. Data are simulated (seeded) in the shape of classic public datasets:
bike sharing demand, airline delays, restaurant reviews, student dropout, wine quality, heart
disease, credit-card churn, basketball player stats, used-car prices, app store ratings,
telecom complaints, e-commerce returns, plus one house-prices case. Two flawed cells per
family, each with a matched sound twin, and five ordinary sound analyses.

First look, through real kernels, before any rule was tuned on it, at 6fbd51c:
recall 0.80 (16/20), false-positive rate 0.08 (2/25).
"""
