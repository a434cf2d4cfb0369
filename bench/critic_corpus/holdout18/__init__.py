"""holdout18: a fresh, held-out split of the critic corpus (ids prefixed ``h18-``).

Written blind by a single author playing a product / growth analyst at a consumer-software
company, without reading the critic, its rules or any earlier split. Every cell is ordinary
event-log analysis as it would appear in a growth team's notebook: funnels, cohort retention,
A/B test readouts (proportions z-tests, chi-square, t-tests on revenue per user, bootstraps),
uplift by segment, KPI dashboards, churn / LTV / click models with scikit-learn and statsmodels.

Domains: onboarding flow, pricing page, push notifications, search ranking, referral programme,
checkout redesign, recommendation widget, free-trial length, in-app ads, customer support chat,
dark mode, loyalty points (plus subscription renewals for one general sound cell).

Each family has two flawed cells written in different idioms and domains, each with a sound
twin on the same data; ``sound_general.py`` holds five ordinary sound analyses. All data are
simulated in ``setup`` with seeded numpy Generators and kept small so each case runs quickly.

First look, through real kernels, before any rule was tuned on it, at 5273673:
recall 0.80 (16/20), false-positive rate 0.04 (1/25).
"""
