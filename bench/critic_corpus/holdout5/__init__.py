"""Fifth held-out split: written after holdout4, by an author who had not read the critic's
rules, with domains (hospital operations, genomics-lite, manufacturing QA, energy metering,
transport, customer support, finance risk, agronomy, education, sports analytics) and idioms
(helper functions, loops over groups, comprehension-built results, numpy-only code, sklearn
pipelines and utilities used wrongly) used by none of the earlier splits."""
