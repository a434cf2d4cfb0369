"""holdout32: a fresh, held-out critic-corpus split in the voice of a fraud / fintech ML engineer.

Written outside the repository (staged via NBCRITIC_CORPUS_STAGED) by an author who read only the
`Case` format and the corpus checker -- not the critic, its rules, its tests or any earlier split.
Cells are written the way a payments-risk engineer writes close-to-production notebook code:
sklearn Pipelines and ColumnTransformers, config dicts, small helper functions, model comparison
tables, statsmodels/scipy for experiment readouts, and f-string status prints.

Domains: card-not-present e-commerce fraud with merchant target encoding, KYC / synthetic-identity
onboarding, chargeback prediction, BNPL credit default, card-present POS fraud, AML alert triage,
MCC risk screening, issuer ruleset A/B tests by country, 3DS loss severity, fraud-ops review
queues, merchant-level step-up-auth pilots, keystroke biometrics for account takeover, batch vs
streaming feature parity, bureau no-hit sentinels, vendor score calibration, acquirer settlement
exports, merchant dimension joins, payout ATO models, promo-abuse rule backtests, out-of-time
validation with chargeback label maturity, chargeback lag, alert budgets and card velocity.

Per family: two flawed cells written in different idioms and domains, each with a sound twin on
the same data; plus five ordinary sound analyses in sound_general.py (45 cells in total).

First look (measured once, before any tuning on this split, at commit 099b91c, rules only,
real kernels, machine load about 2.4-2.6): recall 0.80 (16/20), strict recall 0.70,
false-positive rate 0.00 (0/25, none blocked).
"""
