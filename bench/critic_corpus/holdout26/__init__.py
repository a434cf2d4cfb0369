"""holdout26: a fresh held-out split of the critic corpus.

Written outside the repository by an author who read neither the critic's rules nor any earlier
split, in the voice of a sports performance / sports analytics scientist at a professional club:
GPS and accelerometer training loads, acute:chronic workload and injury risk, match event data
(shots, xG, passes), scouting and player ratings, sprint and jump testing, wellness
questionnaires, heart-rate variability, referee decisions, betting markets and the youth
academy. Cells use pandas long tables keyed by player/session/date, rolling and ewm windows,
scipy.stats, statsmodels formulas and scikit-learn, with coach-friendly printed summaries.

First look (measured once, before any tuning on this split, at commit 9467f30, rules only, real
kernels): recall 0.90 (18/20), strict recall 0.80, false-positive rate 0.08 (2/25, one blocked).
"""
