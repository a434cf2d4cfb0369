"""holdout23: a fresh held-out split of the critic corpus (45 cells: 20 flawed, 20 twins, 5 sound).

Written outside the repository by an author who read only the `Case` format and the corpus
checker -- neither the critic's rules nor any earlier split -- in the voice of a clinical
epidemiologist / biostatistician at a hospital research unit. Cells use the idioms such an
analyst uses day to day: pandas tables keyed by patient / encounter ids with string dates parsed
by `pd.to_datetime`, merges of admissions, labs and medication tables, `crosstab`, Table-1
helpers that build "n (%)" and "mean (SD)" strings, scipy.stats tests, statsmodels formula
models (logit, GLM Binomial/Poisson with offsets, GEE, mixedlm, odds ratios via
`np.exp(params)`), and sklearn prediction models scored by AUC.

Domains: EHR readmission and delirium prediction, ICU mortality with ICD-10 diagnosis codes,
surgical site infection and cardiac-surgery AKI, ED sepsis biomarkers, rapid antigen and
troponin diagnostic accuracy, point-of-care glucose method comparison, randomised-trial
secondary analyses (patient-reported outcomes, diabetes education, knee rehabilitation,
nerve-block opioid use), cluster-randomised care-home vaccination, CLABSI and vaccine
effectiveness surveillance, stroke, hip-fracture and cancer-waiting-time registries, CKD and
statin cohorts, and repeated eGFR / HbA1c measurements. All data are simulated in each case's
`setup` cell with a seeded numpy Generator.

First look (measured once, before any tuning on this split, at commit d2bf3ad, rules only, real
kernels): recall 0.65 (13/20), strict recall 0.65, false-positive rate 0.08 (2/25, both
blocked).
"""
