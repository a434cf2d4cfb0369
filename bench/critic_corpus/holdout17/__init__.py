"""holdout17: a fresh, blind held-out split of the critic corpus.

Written by one author (voice: bioinformatician / biomedical data scientist) who read only the
`Case` format and the corpus checker, nothing of the critic or of earlier splits. Cells are
numpy-matrix-heavy analyses (samples x genes, epochs x channels, cells x markers, subjects x
ROIs) using scipy.stats, statsmodels, scikit-learn and pandas sample sheets, with small helper
functions for normalisation. Data are simulated in each case's `setup` with seeded numpy
Generators.

Domains: bulk RNA-seq differential expression, proteomics, flow cytometry, EEG decoding, fMRI
ROI analyses, gut microbiome abundances, GWAS-style SNP tables, radiomics, wearable ECG patches,
drug-response (cell-line) screens, single-cell clusters, digital pathology features and DNA
methylation arrays. Ten flaw families with two flawed cells each (different domains and idioms)
and a matched sound twin per flawed cell, plus five ordinary sound analyses.

First look, through real kernels, before any rule was tuned on it, at 4b49223:
recall 0.75 (15/20), false-positive rate 0.12 (3/25).
"""
