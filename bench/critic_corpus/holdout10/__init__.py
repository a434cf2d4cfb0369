"""Tenth held-out split: written outside the repository while holdout9's misses were being
fixed, by an author who had not read the critic's rules, and registered after its first look
was measured; in domains used by none of the earlier splits (semiconductor fabs, music
streaming, dentistry, parcel lockers, ski tourism, bird strikes at airports, sleep research,
mobile games, carbon markets, fisheries, urban trees, brewing, elections, satellite telemetry,
wine auctions, public transit, library circulation, coffee roasting, dog sports, e-scooters)."""
