"""holdout37: a fresh held-out split of the nbcritic critic corpus.

Voice: a veterinary / animal-science researcher. Herd and flock trials, pens and litters, milk
yield and lactation records, feed conversion and weight gain, disease prevalence surveys on
farms, antimicrobial use and resistance, companion-animal clinic records, lameness scores,
welfare audits and mortality. Domains: dairy herd health (mastitis, lameness, milk recording),
feedlot and beef cow-calf, pig and broiler production trials, small-ruminant parasitology,
equine and small-animal clinics, on-farm antimicrobial stewardship.

Written outside the repository by an author who read only the Case format and the corpus
checker.

First look (measured once, before any tuning on this split, at commit 8a67276, rules only, real
kernels, machine load under 1): recall 0.80 (16/20), strict recall 0.80, false-positive rate
0.04 (1/25, none blocked).
"""
