"""holdout27: a fresh held-out split in an agronomist's / plant scientist's voice.

Written outside the repository by an author who read neither the critic's rules nor any
earlier split, only the `Case` format and the corpus checker. The cells are the kind an
agronomist writes while analysing field trials and greenhouse work: variety and nitrogen-rate
trials in blocks, pot experiments with several plants per pot, drone and hyperspectral
vegetation indices, soil chemistry lab results, crop disease and mycotoxin surveys, seed
germination tests, weather-station records and plant-breeding heritability. Idioms are pandas,
scipy.stats, the statsmodels formula API and scikit-learn where a field agronomist would
reach for it. Each flaw family has two flawed cells in different sub-domains and code shapes,
each with a matched sound twin, plus five ordinary sound analyses in `sound_general.py`.

First look (measured once, before any tuning on this split, at commit 74d4830, rules only, real
kernels, machine load about 7-8): recall 0.85 (17/20), strict recall 0.85, false-positive rate
0.08 (2/25, one blocked).
"""
