"""holdout35: a fresh held-out split of the nbcritic critic corpus.

Voice: an insurance actuary / pricing analyst. Domains: motor and home claims frequency and
severity, Poisson / Gamma / Tweedie GLMs with exposure offsets, loss triangles and chain-ladder
reserving, telematics driving scores, underwriting and referral models, claims fraud flags,
lapse / retention at renewal, and catastrophe event losses.

Written outside the repository by an author who read only the Case format and the corpus checker.

First look (measured once, before any tuning on this split, at commit 8a67276, rules only, real
kernels, machine load under 1): recall 0.65 (13/20), strict recall 0.60, false-positive rate
0.04 (1/25, none blocked).
"""
