"""Eighth held-out split: written after holdout7's misses were fixed, by an author who had not
read the critic's rules, in domains used by none of the earlier splits (credit risk, wind-farm
maintenance, ornithology surveys, retail footfall, clinical pharmacokinetics, forestry,
oceanography, call-centre operations, e-sports, speech therapy, apiculture and water utilities)
and with idioms (minority upsampling with sklearn.utils.resample, GroupKFold over turbines,
hyper-parameter loops scored on a test split, per-store groupby t-tests, log-scale
bioequivalence ratios, stand-level aggregation, trend-and-season residuals, sentinel codes in
telephony logs, blanket dropna, bootstrap comprehensions, Poisson GLMs with offsets)."""
