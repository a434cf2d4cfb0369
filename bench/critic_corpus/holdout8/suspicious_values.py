"""Suspicious values, holdout8 idiom: average handle time per call-centre team computed from a
telephony export in which unclosed timers are written as 65535 seconds and abandoned calls as 0."""

from textwrap import dedent

from bench.critic_corpus import Case

_CALLS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(8108)
n = 6000
teams = rng.choice(["billing", "technical", "retention"], n, p=[0.4, 0.4, 0.2])
centre = {"billing": 330, "technical": 420, "retention": 380}
handle = np.array([rng.gamma(6, centre[t] / 6) for t in teams]).round()
# switch export: abandoned-in-queue calls logged with 0 s, timers never closed with 65535 s;
# the technical team's queue runs through the older switch that loses timers more often
abandoned = rng.random(n) < 0.05
lost_timer = rng.random(n) < np.where(teams == "technical", 0.015, 0.003)
handle[abandoned] = 0
handle[lost_timer] = 65535
calls = pd.DataFrame({"call_id": np.arange(n), "team": teams, "handle_s": handle.astype(int)})
"""

CASES: list[Case] = [
    Case(
        id="suspicious-values-h8-call-handle-time-sentinels",
        family="suspicious_values",
        twin="suspicious-values-h8-call-handle-time-sentinels-sound",
        split="holdout8",
        setup=_CALLS,
        note="handle_s holds 0 for abandoned calls and the 65535 overflow code for lost timers; "
        "averaging them as real durations inflates technical's AHT by minutes.",
        code=dedent("""\
            aht = (calls.groupby("team")["handle_s"]
                   .agg(calls="count", aht_s="mean", p90_s=lambda s: s.quantile(0.9))
                   .assign(aht_min=lambda d: d.aht_s / 60))
            print(aht.round(1))
            print(f"centre AHT: {calls.handle_s.mean() / 60:.1f} min")
        """),
    ),
    Case(
        id="suspicious-values-h8-call-handle-time-sentinels-sound",
        family=None,
        twin="suspicious-values-h8-call-handle-time-sentinels",
        split="holdout8",
        setup=_CALLS,
        note="The switch's 0 (abandoned) and 65535 (lost timer) codes are excluded and counted "
        "before average handle time is computed.",
        code=dedent("""\
            SENTINELS = {0: "abandoned", 65535: "timer lost"}
            flags = calls.handle_s.map(SENTINELS)
            print(flags.value_counts().to_string())
            answered = calls[flags.isna()]
            aht = (answered.groupby("team")["handle_s"]
                   .agg(calls="count", aht_s="mean", p90_s=lambda s: s.quantile(0.9))
                   .assign(aht_min=lambda d: d.aht_s / 60))
            print(aht.round(1))
            print(f"centre AHT: {answered.handle_s.mean() / 60:.1f} min")
        """),
    ),
]
