"""holdout36: a fresh held-out split of the nbcritic critic corpus.

Voice: a transport / urban mobility planner. Domains: traffic counts and loop detectors,
bike-share trips and station demand, transit ridership and on-time performance (AVL / GTFS),
household travel surveys and trip diaries, road safety crash data, congestion pricing and
speed-limit evaluations, ride-hailing (TNC) trips, parking sensors, origin-destination matrices
and mode choice models.

Written outside the repository by an author who read only the Case format and the corpus
checker.

First look (measured once, before any tuning on this split, at commit 8a67276, rules only, real
kernels, machine load under 1): recall 0.85 (17/20), strict recall 0.75, false-positive rate
0.04 (1/25, one blocked).
"""
