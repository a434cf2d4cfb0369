"""Seventh held-out split: written after holdout6, by an author who had not read the critic's
rules, in domains used by none of the earlier splits (linguistics corpora and psycholinguistic
experiments, semiconductor and machining QA, agronomy seed testing and nitrogen trials, dairy
herd health, hospital operations, motor insurance, astronomy catalogues, sports science,
psychology experiments, education testing, logistics and energy markets) and with idioms
(groupby effect-size screens, dict comprehensions of scipy p-values, set_params loops,
isotonic calibration, vectorised scipy tests over columns, statsmodels formula loops and GLMs,
str.extract parsing, Monte Carlo simulations, sklearn permutation_test_score) chosen to differ
from theirs."""
