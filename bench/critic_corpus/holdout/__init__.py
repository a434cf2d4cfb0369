"""Held-out cases: different idioms from dev, for measuring generalisation."""
