"""Data loss, holdout11: an inner join of hearing-aid fittings to follow-up surveys, and
lighthouse visibility logs coerced to numbers."""

from textwrap import dedent

from bench.critic_corpus import Case

_HEARING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_081)
n = 800
fittings = pd.DataFrame({
    "client_id": np.arange(5000, 5000 + n),
    "tier": rng.choice(["basic", "standard", "premium"], n, p=[.4, .4, .2]),
    "hl_db": rng.normal(48, 11, n).round(),
    "age": rng.integers(55, 92, n),
})
benefit = (8 + fittings["tier"].map({"basic": 0, "standard": 4, "premium": 7})
           + rng.normal(0, 9, n))
p_reply = 1 / (1 + np.exp(-(-0.2 + 0.09 * benefit - 0.01 * (fittings["age"] - 70))))
replied = rng.random(n) < p_reply
followup = pd.DataFrame({"client_id": fittings.loc[replied, "client_id"],
                         "aphab_gain": benefit[replied].round(1),
                         "hours_per_day": rng.normal(9, 3, replied.sum()).clip(0, 16).round(1)})
"""

_LIGHTHOUSE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_082)
stations = {"Skerry Point": 0.25, "Black Head": 0.1, "Gull Rock": 0.18, "North Ness": 0.05}
rows = []
for st, fog_rate in stations.items():
    for day in pd.date_range("2023-01-01", periods=240, freq="D"):
        if rng.random() < fog_rate:
            vis = rng.choice(["FOG", "fog", "<0.5", "nil"])
        elif rng.random() < 0.02:
            vis = ""
        else:
            vis = f"{rng.gamma(4, 3.2):.1f}"
        rows.append({"station": st, "date": day, "visibility_nm": vis})
logs = pd.DataFrame(rows)
"""

CASES: list[Case] = [
    Case(
        id="data_loss-h11-hearing-inner-merge",
        family="data_loss",
        twin="data_loss-h11-hearing-left-merge-reported",
        split="holdout11",
        setup=_HEARING,
        note="The inner merge silently drops every fitting without a returned survey (about a "
        "third, and more among low-benefit clients) before benefit by tier is summarised.",
        code=dedent("""\
            outcomes = fittings.merge(followup, on="client_id")
            by_tier = (outcomes.groupby("tier")
                       .agg(mean_gain=("aphab_gain", "mean"), sd=("aphab_gain", "std"),
                            use_h=("hours_per_day", "mean"))
                       .reindex(["basic", "standard", "premium"]))
            print(by_tier.round(2))
            print(f"overall APHAB benefit: {outcomes['aphab_gain'].mean():.2f} points")
        """),
    ),
    Case(
        id="data_loss-h11-hearing-left-merge-reported",
        family=None,
        twin="data_loss-h11-hearing-inner-merge",
        split="holdout11",
        setup=_HEARING,
        note="A left merge keeps every fitting; the table reports fittings, surveys returned and "
        "response rate per tier next to the mean benefit among responders.",
        code=dedent("""\
            outcomes = fittings.merge(followup, on="client_id", how="left")
            by_tier = (outcomes.groupby("tier")
                       .agg(fitted=("client_id", "size"), replied=("aphab_gain", "count"),
                            mean_gain=("aphab_gain", "mean"), sd=("aphab_gain", "std"),
                            use_h=("hours_per_day", "mean"))
                       .reindex(["basic", "standard", "premium"]))
            by_tier["response_rate"] = by_tier["replied"] / by_tier["fitted"]
            print(by_tier.round(2))
            n_resp = outcomes["aphab_gain"].notna().sum()
            print(f"overall APHAB benefit among {n_resp} of {len(outcomes)} responders: "
                  f"{outcomes['aphab_gain'].mean():.2f} points")
        """),
    ),
    Case(
        id="data_loss-h11-lighthouse-coerce-visibility",
        family="data_loss",
        twin="data_loss-h11-lighthouse-coerce-counted",
        split="holdout11",
        setup=_LIGHTHOUSE,
        note="to_numeric(errors='coerce') turns every fog/nil entry into NaN and the means skip "
        "them without saying so, so the foggiest stations look clearest; nothing reports the loss.",
        code=dedent("""\
            logs["vis"] = pd.to_numeric(logs["visibility_nm"], errors="coerce")
            monthly = (logs.set_index("date").groupby("station")["vis"]
                       .resample("MS").mean().unstack(0))
            print(monthly.round(1).head(4))
            station_mean = logs.groupby("station")["vis"].mean().sort_values()
            print("mean visibility (nm):")
            print(station_mean.round(2).to_string())
        """),
    ),
    Case(
        id="data_loss-h11-lighthouse-coerce-counted",
        family=None,
        twin="data_loss-h11-lighthouse-coerce-visibility",
        split="holdout11",
        setup=_LIGHTHOUSE,
        note="Non-numeric visibility entries are coerced but counted per station and shown beside "
        "the means, so the reader sees how many fog/nil days the averages exclude.",
        code=dedent("""\
            logs["vis"] = pd.to_numeric(logs["visibility_nm"], errors="coerce")
            monthly = (logs.set_index("date").groupby("station")["vis"]
                       .resample("MS").mean().unstack(0))
            print(monthly.round(1).head(4))
            station = logs.groupby("station").agg(
                days=("vis", "size"), numeric=("vis", "count"), mean_nm=("vis", "mean"))
            station["non_numeric"] = station["days"] - station["numeric"]
            print("mean visibility (nm) over numeric readings; non-numeric entries excluded:")
            print(station.sort_values("mean_nm").round(2).to_string())
        """),
    ),
]
