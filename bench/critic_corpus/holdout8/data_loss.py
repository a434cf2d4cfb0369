"""Data loss, holdout8 idiom: a blanket dropna over an e-sports match export in which the coach
column is empty for most amateur teams, silently removing most of the amateur matches."""

from textwrap import dedent

from bench.critic_corpus import Case

_MATCHES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8109)
n = 3000
tier = rng.choice(["pro", "amateur"], n, p=[0.3, 0.7])
maps = rng.choice(["Ascent", "Bind", "Haven", "Lotus"], n)
duration = np.where(tier == "pro", rng.normal(38, 5, n), rng.normal(31, 6, n)).round(1)
has_coach = rng.random(n) < np.where(tier == "pro", 0.98, 0.15)
matches = pd.DataFrame({
    "match_id": np.arange(n),
    "tier": tier,
    "map": maps,
    "duration_min": duration,
    "coach_id": np.where(has_coach, rng.integers(100, 400, n).astype(str), None),
    "rounds_played": rng.integers(13, 30, n),
})
"""

CASES: list[Case] = [
    Case(
        id="data-loss-h8-esports-dropna-drops-amateur-matches",
        family="data_loss",
        twin="data-loss-h8-esports-dropna-drops-amateur-matches-sound",
        split="holdout8",
        setup=_MATCHES,
        note="dropna() over every column removes matches with no coach recorded, which are "
        "mostly amateur ones, so the per-map durations describe mainly pro play.",
        code=dedent("""\
            clean = matches.dropna()
            by_map = clean.groupby("map")["duration_min"].agg(["count", "mean", "median"])
            print(by_map.round(1))
            print(f"overall mean match length: {clean.duration_min.mean():.1f} min")
        """),
    ),
    Case(
        id="data-loss-h8-esports-dropna-drops-amateur-matches-sound",
        family=None,
        twin="data-loss-h8-esports-dropna-drops-amateur-matches",
        split="holdout8",
        setup=_MATCHES,
        note="Only rows missing the fields the summary uses are dropped, and the number "
        "removed is printed; the optional coach column does not filter matches.",
        code=dedent("""\
            clean = matches.dropna(subset=["map", "duration_min"])
            print(f"kept {len(clean)} of {len(matches)} matches")
            by_map = clean.groupby("map")["duration_min"].agg(["count", "mean", "median"])
            print(by_map.round(1))
            print(f"overall mean match length: {clean.duration_min.mean():.1f} min")
        """),
    ),
]
