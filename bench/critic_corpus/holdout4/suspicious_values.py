"""Suspicious values, holdout4 idioms: tram trip durations computed from clock times, so trips
that cross midnight come out at about minus 23 hours, and two-digit birth years parsed with %y
so that patients born in the 1950s and 60s get negative ages."""

from textwrap import dedent

from bench.critic_corpus import Case

_TRIPS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(606)
n = 900
start_min = rng.integers(5 * 60, 24 * 60 + 40, n) % (24 * 60)   # service runs 05:00-00:40
duration = rng.gamma(6, 5, n).round()
end_min = (start_min + duration) % (24 * 60)
taps = pd.DataFrame({
    "line": rng.choice(["T1", "T2", "T3", "T4"], n),
    "tap_on": [f"{m // 60:02d}:{m % 60:02d}" for m in start_min],
    "tap_off": [f"{int(m) // 60:02d}:{int(m) % 60:02d}" for m in end_min],
})
"""

_PATIENTS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n = 600
birth = pd.Timestamp("1935-01-01") + pd.to_timedelta(rng.integers(0, 365 * 70, n), unit="D")
visits = pd.DataFrame({
    "patient_id": np.arange(n),
    "dob": birth.strftime("%d/%m/%y"),            # the LIS export writes two-digit years
    "visit": pd.Timestamp("2024-06-30") - pd.to_timedelta(rng.integers(0, 365, n), unit="D"),
    "egfr": rng.normal(78, 18, n).clip(8, 130).round(),
})
"""

CASES: list[Case] = [
    Case(
        id="suspicious-negative-trip-minutes-midnight",
        family="suspicious_values",
        twin="suspicious-negative-trip-minutes-midnight-sound",
        split="holdout4",
        setup=_TRIPS,
        note="tap_off - tap_on on bare clock times: trips crossing midnight get durations near "
        "-1400 minutes, which show up as the minimum and drag down the line means.",
        code=dedent("""\
            to_min = lambda s: s.str.slice(0, 2).astype(int) * 60 + s.str.slice(3, 5).astype(int)
            taps["minutes"] = to_min(taps.tap_off) - to_min(taps.tap_on)
            taps.groupby("line").minutes.agg(["count", "mean", "min", "max"]).round(1)
        """),
    ),
    Case(
        id="suspicious-negative-trip-minutes-midnight-sound",
        family=None,
        twin="suspicious-negative-trip-minutes-midnight",
        split="holdout4",
        setup=_TRIPS,
        note="Durations are taken modulo 24 h (a tap-off earlier than the tap-on is on the "
        "next day), so every trip has a positive length.",
        code=dedent("""\
            to_min = lambda s: s.str.slice(0, 2).astype(int) * 60 + s.str.slice(3, 5).astype(int)
            taps["minutes"] = (to_min(taps.tap_off) - to_min(taps.tap_on)) % (24 * 60)
            taps.groupby("line").minutes.agg(["count", "mean", "min", "max"]).round(1)
        """),
    ),
    Case(
        id="suspicious-negative-age-two-digit-year",
        family="suspicious_values",
        twin="suspicious-negative-age-two-digit-year-sound",
        split="holdout4",
        setup=_PATIENTS,
        note="'%d/%m/%y' maps years 00-68 to 2000-2068, so patients born 1935-1968 are given "
        "births in the future and the age summary shows negative ages.",
        code=dedent("""\
            dob = pd.to_datetime(visits.dob, format="%d/%m/%y")
            visits["age"] = (visits.visit - dob).dt.days / 365.25
            visits["age_band"] = pd.cut(visits.age, [-np.inf, 40, 60, 75, np.inf],
                                        labels=["<40", "40-59", "60-74", "75+"])
            print(visits.age.describe().round(1))
            visits.groupby("age_band", observed=True).egfr.median()
        """),
    ),
    Case(
        id="suspicious-negative-age-two-digit-year-sound",
        family=None,
        twin="suspicious-negative-age-two-digit-year",
        split="holdout4",
        setup=_PATIENTS,
        note="Birth dates that %y places after the visit are moved back a century, so every "
        "age is between 19 and 90 before banding.",
        code=dedent("""\
            dob = pd.to_datetime(visits.dob, format="%d/%m/%y")
            dob = dob.where(dob <= visits.visit, dob - pd.DateOffset(years=100))
            visits["age"] = (visits.visit - dob).dt.days / 365.25
            visits["age_band"] = pd.cut(visits.age, [-np.inf, 40, 60, 75, np.inf],
                                        labels=["<40", "40-59", "60-74", "75+"])
            print(visits.age.describe().round(1))
            visits.groupby("age_band", observed=True).egfr.median()
        """),
    ),
]
