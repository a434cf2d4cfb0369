"""holdout30: a fresh held-out split written in the voice of a systems neuroscientist.

Written outside the repository by an author who read only the `Case` format and the corpus
checker (neither the critic's rules nor any earlier split). Cells look like the analysis cells of
an electrophysiology / imaging / rodent-behaviour lab notebook: spike counts and firing rates per
unit, dF/F traces per ROI, trials nested in animals and sessions, reaction times, population
decoders (scikit-learn), encoding models, lesion vs sham and KO vs WT comparisons. Code mixes
numpy arrays, scipy.stats, statsmodels and scikit-learn, with short and long cells, helper
functions, loops and f-string reports. Every family has two flawed cells in different
sub-domains and idioms, each with a sound twin on the same data, plus five ordinary sound
analyses in `sound_general.py`. All data are simulated with seeded numpy Generators.

First look (measured once, before any tuning on this split, at commit 9a8597e (rules as at
74d4830), rules only, real kernels, machine load about 7-9): recall 0.70 (14/20), strict recall
0.70, false-positive rate 0.08 (2/25, one blocked).
"""
