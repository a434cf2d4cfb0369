"""Sixth held-out split: written after holdout5, by an author who had not read the critic's
rules, with domains (ecology, marketing attribution, HR analytics, climate, retail pricing, web
A/B tests, pharmacology, seismology, real estate, public-health surveys) and idioms (helper
functions, loops over groups, method chains, statsmodels formulas, sklearn pipelines and
selectors used wrongly, numpy-only code, comprehension-built results) used by none of the
earlier splits."""
