"""Development cases: tune the critic on these."""
