"""Fourth held-out split: written after holdout3's misses were fixed, by an author who had not
read the critic's rules, with domains and idioms used by none of dev, holdout, holdout2 or
holdout3."""
