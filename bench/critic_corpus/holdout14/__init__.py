"""holdout14: a fresh, held-out split of the critic corpus.

Written outside the repository by an author who read only the `Case` format and the corpus
checker, never the critic's rules nor any earlier split. The cells are written in the voice of
research scientists analysing lab and field data for a paper (neuroscience, plant physiology,
epidemiology, sociology, materials engineering, microbiology, audiology, sleep research,
kinesiology, archaeology, hydrology, ophthalmology), with the errors peer reviewers and
statistics-methods critiques report in published work: numpy arrays and scipy.stats, hand-rolled
loops over conditions, results gathered in dicts and printed as tables, statsmodels OLS / GLM /
MixedLM, and scikit-learn where a scientist would use it (decoding, spectral classification).
Each family has two flawed cells in different domains and idioms, each with a sound twin, plus
five ordinary sound analyses in `sound_general.py`.

First look, through real kernels, before any rule was tuned on it, at 6fbd51c:
recall 0.80 (16/20), false-positive rate 0.12 (3/25).
"""
