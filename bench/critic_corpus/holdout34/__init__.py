"""holdout34: a fresh held-out split for the nbcritic corpus, in a climate scientist's voice.

Written outside the repository (NBCRITIC_CORPUS_STAGED) by an author who read only the `Case`
format and the corpus checker -- not the critic's rules, its tests, or any earlier split. The
cells are written the way a climate / atmospheric scientist writes notebook cells: station
time series and anomalies against 1991-2020 normals, reanalysis neighbourhoods flattened to
tables, gauge records with QC flags and missing codes, ENSO composites, trend tests across a
station network, large-ensemble member selection, NWP-based probability calibration, radar vs
gauge QPE, snow surveys, urban heat island networks, tropical-cyclone rapid intensification,
monsoon seasonal hindcasts, fog and gust statistics. Plain numpy / pandas / scipy /
statsmodels / scikit-learn (no xarray). All data are simulated in each case's `setup` with a
seeded numpy Generator.

Per family: two flawed cells in different idioms and sub-domains, each with a sound twin doing
the same work correctly, plus five ordinary sound analyses in `sound_general.py` (45 cells).

First look (measured once, before any tuning on this split, at commit 099b91c, rules only,
real kernels, machine load about 3.6-4.5): recall 0.75 (15/20), strict recall 0.65,
false-positive rate 0.00 (0/25, none blocked).
"""
