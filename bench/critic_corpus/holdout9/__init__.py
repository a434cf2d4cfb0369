"""Ninth held-out split: written after holdout8's misses were fixed (and while its fixes were
being made), by an author who had not read the critic's rules, outside the repository until
its first look was measured, in domains used by none of the earlier splits (gut microbiome,
aviation maintenance, restaurant inspections, chess, podcasting, cycling counters, museum
visits, rare-disease case-control studies, veterinary labs, mining assays, animal shelters,
cosmetics trials, viticulture, insurance fraud, hotel bookings, shipping ports, fire/EMS
response, shellfish toxin monitoring, theatre ticketing, archaeometry) and with idioms
(cross_val_predict leave-one-out after a fold-change screen, RFE before cross_validate,
ColumnTransformer pipelines, statsmodels array-API Logit, threshold tables on the test set,
min(errs, key=errs.get), itertools.combinations of Mann-Whitney tests, Table2x2 screens,
mean +/- 1.96 SD reference intervals, t intervals on lognormal assays, chi2_contingency over
walks, split-arm designs, instrument agreement by r, LabelEncoder correlations, linear
probability models, placeholder dates, zero-padded merge keys, censored values coerced to NaN,
scipy.stats.bootstrap without rng, single-init KMeans)."""
