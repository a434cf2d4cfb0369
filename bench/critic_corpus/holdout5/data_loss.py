"""Data loss, holdout5 idioms: a hand-written duration parser in a try/except-continue loop that
silently skips every ticket whose resolution time is written in days, and numpy nan-aware
reductions (nanmean/nanmax/nanpercentile) that skip the furnace readings the logger stored as
NaN because they were above its range."""

from textwrap import dedent

from bench.critic_corpus import Case

_TICKETS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(3131)
n = 1500
channel = rng.choice(["chat", "phone", "email"], n, p=[0.45, 0.25, 0.30])
scale = pd.Series(channel).map({"chat": 90, "phone": 240, "email": 900}).to_numpy()
minutes = (rng.lognormal(0, 1.1, n) * scale).round().astype(int) + 1


def as_text(m):
    # the helpdesk export writes durations as '45m', '3h 20m' or '2d 4h'
    d, rest = divmod(m, 1440)
    h, mm = divmod(rest, 60)
    if d:
        return f"{d}d {h}h"
    return f"{h}h {mm}m" if h else f"{mm}m"


tickets = pd.DataFrame({"ticket": np.arange(n), "channel": channel,
                        "resolution": [as_text(m) for m in minutes]})
"""

_FURNACES = """\
import numpy as np

rng = np.random.default_rng(8585)
furnaces = ["A", "B", "C", "D", "E", "F"]
target = np.array([1195, 1200, 1190, 1205, 1228, 1198])[:, None]
peaks = rng.normal(target, 14, (6, 240)).round(1)        # peak temperature per heat, deg C
# the logger's range ends at 1250 deg C; readings above it are stored as NaN
peaks[peaks > 1250] = np.nan
spec_max = 1260
"""

CASES: list[Case] = [
    Case(
        id="dataloss-try-except-skips-day-durations",
        family="data_loss",
        twin="dataloss-try-except-skips-day-durations-sound",
        split="holdout5",
        setup=_TICKETS,
        note="The parser only knows h and m, and the loop's except/continue silently skips "
        "every ticket that took a day or more (most of them email), so mean times are far too low.",
        code=dedent("""\
            def to_minutes(text):
                total = 0
                for part in text.split():
                    if part.endswith("h"):
                        total += 60 * int(part[:-1])
                    elif part.endswith("m"):
                        total += int(part[:-1])
                    else:
                        raise ValueError(f"unknown unit in {text!r}")
                return total


            parsed = []
            for row in tickets.itertuples():
                try:
                    hours = to_minutes(row.resolution) / 60
                    parsed.append({"channel": row.channel, "hours": hours})
                except ValueError:
                    continue
            times = pd.DataFrame(parsed)
            print(times.groupby("channel")["hours"].agg(["mean", "median"]).round(1))
            print(f"overall mean time to resolution: {times.hours.mean():.1f} h")
        """),
    ),
    Case(
        id="dataloss-try-except-skips-day-durations-sound",
        family=None,
        twin="dataloss-try-except-skips-day-durations",
        split="holdout5",
        setup=_TICKETS,
        note="The parser handles days as well, and the cell counts (and prints) any durations "
        "it still cannot parse before summarising, so every ticket is accounted for.",
        code=dedent("""\
            UNIT_MIN = {"d": 1440, "h": 60, "m": 1}


            def to_minutes(text):
                return sum(UNIT_MIN[part[-1]] * int(part[:-1]) for part in text.split())


            parsed, failed = [], []
            for row in tickets.itertuples():
                try:
                    hours = to_minutes(row.resolution) / 60
                    parsed.append({"channel": row.channel, "hours": hours})
                except (KeyError, ValueError):
                    failed.append(row.resolution)
            times = pd.DataFrame(parsed)
            print(f"parsed {len(times)} of {len(tickets)} tickets; unparseable: {len(failed)}")
            print(times.groupby("channel")["hours"].agg(["count", "mean", "median"]).round(1))
            print(f"overall mean time to resolution: {times.hours.mean():.1f} h")
        """),
    ),
    Case(
        id="dataloss-nanmax-over-range-furnace",
        family="data_loss",
        twin="dataloss-nanmax-over-range-furnace-sound",
        split="holdout5",
        setup=_FURNACES,
        note="nanmean/nanpercentile/nanmax skip the over-range (NaN) heats, the hottest ones, "
        "so furnace E is reported with a maximum below 1250 and 'within spec' though it is not.",
        code=dedent("""\
            summary = {
                f: {"mean": np.nanmean(row), "p99": np.nanpercentile(row, 99),
                    "max": np.nanmax(row)}
                for f, row in zip(furnaces, peaks)
            }
            for f, s in summary.items():
                verdict = "within spec" if s["max"] <= spec_max else "OUT OF SPEC"
                print(f"furnace {f}: mean {s['mean']:.1f}, p99 {s['p99']:.1f}, "
                      f"max {s['max']:.1f} deg C -> {verdict}")
        """),
    ),
    Case(
        id="dataloss-nanmax-over-range-furnace-sound",
        family=None,
        twin="dataloss-nanmax-over-range-furnace",
        split="holdout5",
        setup=_FURNACES,
        note="Over-range heats are counted per furnace and treated as above 1250 deg C (censored): "
        "medians are still valid and any furnace with such heats cannot be called within spec.",
        code=dedent("""\
            for f, row in zip(furnaces, peaks):
                over_range = int(np.isnan(row).sum())
                # censored at 1250: put over-range heats at the top when taking the median
                median = np.median(np.where(np.isnan(row), np.inf, row))
                verdict = ("within spec" if over_range == 0 and np.max(row) <= spec_max
                           else f"cannot confirm spec: {over_range} heats above 1250")
                print(f"furnace {f}: {row.size} heats, median {median:.1f} deg C, "
                      f"over range {over_range} ({over_range / row.size:.1%}) -> {verdict}")
        """),
    ),
]
