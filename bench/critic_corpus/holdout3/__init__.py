"""Third held-out split: written after holdout2's misses were fixed, by an author who had not
read the critic's rules, with domains and idioms used by none of dev, holdout or holdout2."""
