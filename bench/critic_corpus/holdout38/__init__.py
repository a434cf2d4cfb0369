"""holdout38: a fresh held-out split of the nbcritic critic corpus.

Voice: a software performance / site-reliability engineer analysing systems data in a notebook
(request latencies, benchmark runs, canary and A/B deploys, error rates, incident logs, capacity
planning, load tests, anomaly detection on metrics, CI build times, flaky tests, on-call pages).

Domains: canary analysis of per-endpoint latencies, paging prediction from host metrics, flaky-test
detection from CI reruns, deploy rollback risk, incident time-to-resolve, alert-threshold tuning,
load-test capacity models, serverless cold starts, per-AZ 5xx counts, microbenchmarks on CI
runners, connection-pool A/B tests, tracing-instrument agreement, database shard timeouts,
availability / error-budget reports, request logs joined to build metadata, CI build durations,
bootstrap CIs of p99 latency, isolation-forest anomaly detection, SLO burn rates.

Written outside the repository by an author who read only the Case format and the corpus
checker.

First look (measured once, before any tuning on this split, at commit 8a67276, rules only, real
kernels, machine load under 1): recall 0.85 (17/20), strict recall 0.80, false-positive rate
0.12 (3/25, two blocked).
"""
