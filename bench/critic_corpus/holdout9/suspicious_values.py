"""Suspicious values, holdout9 idioms: hotel-booking cancellation 'probabilities' from a
statsmodels-formula linear probability model, whose fitted values run below 0 and above 1 and are
reported as such, and container dwell times computed from a terminal-system export in which boxes
still in the yard carry the 1900-01-01 placeholder gate-out date (dwell of about -45,000 days)."""

from textwrap import dedent

from bench.critic_corpus import Case

_BOOKINGS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9801)
n = 3000
bookings = pd.DataFrame({
    "booking_ref": [f"HB{i:06d}" for i in range(n)],
    "lead_time": rng.gamma(1.3, 70, n).round().astype(int),
    "deposit": rng.choice(["none", "refundable", "non_refund"], n, p=[0.75, 0.1, 0.15]),
    "channel": rng.choice(["direct", "ota", "corporate"], n, p=[0.3, 0.55, 0.15]),
    "prev_cancel": rng.poisson(0.15, n) + 5 * (rng.random(n) < 0.01),
    "special_requests": rng.poisson(0.6, n),
})
z = (-1.6 + 0.006 * bookings.lead_time + 1.8 * bookings.deposit.eq("non_refund")
     + 0.5 * bookings.channel.eq("ota") + 0.6 * bookings.prev_cancel
     - 0.4 * bookings.special_requests)
bookings["cancelled"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(int)
"""

_GATE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9802)
n = 1600
gate_in = pd.Timestamp("2024-03-01") + pd.to_timedelta(rng.uniform(0, 60, n), unit="D")
dwell = pd.to_timedelta(rng.gamma(2.0, 2.2, n), unit="D")
gate_out = np.array((gate_in + dwell).strftime("%Y-%m-%d %H:%M"), dtype=object)
still_in_yard = (gate_in + dwell) > pd.Timestamp("2024-04-30")
gate_out[still_in_yard] = "1900-01-01 00:00"  # TOS default for an empty gate-out field
moves = pd.DataFrame({
    "container": [f"MSKU{rng.integers(1_000_000, 9_999_999)}" for _ in range(n)],
    "terminal": rng.choice(["T1 Deepsea", "T2 Feeder", "T3 Reefer"], n, p=[0.5, 0.3, 0.2]),
    "gate_in": gate_in.strftime("%Y-%m-%d %H:%M"),
    "gate_out": gate_out,
})
"""

CASES: list[Case] = [
    Case(
        id="suspicious_values-h9-hotel-lpm-probabilities-out-of-range",
        family="suspicious_values",
        twin="suspicious_values-h9-hotel-lpm-probabilities-out-of-range-sound",
        split="holdout9",
        setup=_BOOKINGS,
        note="The OLS linear probability model yields fitted cancellation 'probabilities' "
        "below 0 and above 1, which are printed and ranked as if they were probabilities.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            lpm = smf.ols("cancelled ~ lead_time + C(deposit) + C(channel) + prev_cancel"
                          " + special_requests", data=bookings).fit()
            bookings["p_cancel"] = lpm.fittedvalues
            print(bookings["p_cancel"].describe().round(3).to_string())
            print(f"expected cancellations: {bookings['p_cancel'].sum():.0f} "
                  f"of {len(bookings)} bookings")
            cols = ["booking_ref", "lead_time", "deposit", "prev_cancel", "p_cancel"]
            print(bookings.nlargest(5, "p_cancel")[cols].round(3).to_string(index=False))
        """),
    ),
    Case(
        id="suspicious_values-h9-hotel-lpm-probabilities-out-of-range-sound",
        family=None,
        twin="suspicious_values-h9-hotel-lpm-probabilities-out-of-range",
        split="holdout9",
        setup=_BOOKINGS,
        note="A logistic regression gives predicted cancellation probabilities that stay in "
        "(0, 1); the summary and ranking are of genuine probabilities.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            logit = smf.logit("cancelled ~ lead_time + C(deposit) + C(channel) + prev_cancel"
                              " + special_requests", data=bookings).fit(disp=0)
            bookings["p_cancel"] = logit.predict(bookings)
            print(bookings["p_cancel"].describe().round(3).to_string())
            print(f"expected cancellations: {bookings['p_cancel'].sum():.0f} "
                  f"of {len(bookings)} bookings")
            cols = ["booking_ref", "lead_time", "deposit", "prev_cancel", "p_cancel"]
            print(bookings.nlargest(5, "p_cancel")[cols].round(3).to_string(index=False))
        """),
    ),
    Case(
        id="suspicious_values-h9-container-dwell-1900-gate-out",
        family="suspicious_values",
        twin="suspicious_values-h9-container-dwell-1900-gate-out-sound",
        split="holdout9",
        setup=_GATE,
        note="Boxes still in the yard have the placeholder gate-out 1900-01-01, so their dwell "
        "is about -45,000 days and the per-terminal mean and minimum dwell are impossible.",
        code=dedent("""\
            t_in = pd.to_datetime(moves["gate_in"])
            t_out = pd.to_datetime(moves["gate_out"])
            moves["dwell_days"] = (t_out - t_in).dt.total_seconds() / 86_400

            summary = (moves.groupby("terminal")["dwell_days"]
                       .agg(boxes="count", mean="mean", median="median", shortest="min"))
            print(summary.round(2))
            print(f"port-wide mean dwell: {moves['dwell_days'].mean():.2f} days")
        """),
    ),
    Case(
        id="suspicious_values-h9-container-dwell-1900-gate-out-sound",
        family=None,
        twin="suspicious_values-h9-container-dwell-1900-gate-out",
        split="holdout9",
        setup=_GATE,
        note="The 1900-01-01 placeholder is turned into a missing gate-out, the boxes still in "
        "the yard are counted and shown, and dwell is summarised for departed boxes only.",
        code=dedent("""\
            t_in = pd.to_datetime(moves["gate_in"])
            t_out = pd.to_datetime(moves["gate_out"]).mask(lambda s: s.dt.year == 1900)
            moves["dwell_days"] = (t_out - t_in).dt.total_seconds() / 86_400
            moves["in_yard"] = t_out.isna()

            summary = (moves.groupby("terminal")
                       .agg(boxes=("container", "size"), still_in_yard=("in_yard", "sum"),
                            mean=("dwell_days", "mean"), median=("dwell_days", "median"),
                            shortest=("dwell_days", "min")))
            print(summary.round(2))
            print(f"{moves['in_yard'].sum()} boxes still in the yard (dwell not yet known); "
                  f"mean dwell of departed boxes: {moves['dwell_days'].mean():.2f} days")
        """),
    ),
]
