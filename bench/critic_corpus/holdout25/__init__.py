"""holdout25: a fresh held-out split written in the voice of a marketing / growth analyst.

Written outside the repository by an author who read neither the critic's rules nor any earlier
split, only the `Case` format and the checker. Cells look like a growth team's notebook:
dashboard-style cells printing several KPIs, lift percentages and "winner" calls, helper
functions for repeated readouts, dict comprehensions over channels and segments.

Domains: multi-touch and last-touch attribution, channel ROI, cohort retention, email and push
campaign lifts, promotion propensity / uplift models, NPS and CSAT surveys, pricing tests, churn
prediction, basket analysis, influencer campaigns, regional marketing-mix and geo experiments,
app-store ratings. Idioms: pandas (Grouper, resample, merge, merge_asof, pivot tables,
pct_change), scipy.stats, statsmodels formulas and proportions_ztest, scikit-learn pipelines.
All data is simulated in each case's `setup` with a seeded numpy Generator.

First look (measured once, before any tuning on this split, at commit 9467f30, rules only, real
kernels): recall 0.85 (17/20), strict recall 0.85, false-positive rate 0.08 (2/25, both
blocked).
"""
