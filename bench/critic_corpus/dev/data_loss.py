"""Rows silently dropped (dropna, coerce + dropna, status filters, inner merges) before
summary statistics, without reporting how many were lost."""

from textwrap import dedent

from bench.critic_corpus import Case

_LABS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(909)
n = 400
labs = pd.DataFrame({
    "patient": [f"S{i:04d}" for i in range(n)],
    "arm": rng.choice(["placebo", "drug"], n),
    "alt_u_l": rng.normal(28, 8, n).round(1),
    "creatinine_mg_dl": rng.normal(0.95, 0.2, n).round(2),
    "hemoglobin_g_dl": rng.normal(13.6, 1.3, n).round(1),
})
# week-12 draws are missing for patients who dropped out (more often on the drug arm)
dropout = rng.random(n) < np.where(labs.arm == "drug", 0.35, 0.15)
labs["alt_wk12"] = (labs.alt_u_l + rng.normal(6, 6, n)).round(1).mask(dropout)
labs["hemoglobin_wk12"] = (labs.hemoglobin_g_dl + rng.normal(-0.3, 0.5, n)).round(1).mask(
    dropout | (rng.random(n) < 0.08)
)
"""

_RAW_SENSORS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
n = 1800
raw = pd.DataFrame({
    "station": rng.choice(["roof", "basement", "yard"], n),
    "pm25": rng.gamma(3, 4, n).round(1).astype(str),
})
# the yard unit's serial link is flaky; others fail occasionally
err_rate = raw.station.map({"roof": 0.05, "basement": 0.04, "yard": 0.45})
bad = rng.random(n) < err_rate
raw.loc[bad, "pm25"] = rng.choice(["ERR", "---", "NaN", "sensor timeout"], bad.sum())
"""

_RUNS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(31337)
configs = {"lr=1e-4": (0.861, 0.03), "lr=1e-3": (0.884, 0.05), "lr=1e-2": (0.873, 0.45)}
rows = []
for cfg, (acc, p_fail) in configs.items():
    for seed in range(20):
        failed = rng.random() < p_fail
        rows.append({
            "config": cfg, "seed": seed,
            "status": rng.choice(["diverged", "oom"]) if failed else "ok",
            "val_acc": np.nan if failed else rng.normal(acc, 0.01),
        })
runs = pd.DataFrame(rows)
"""

_SHOP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1701)
customers = pd.DataFrame({
    "customer_id": np.arange(1, 3001),
    "segment": rng.choice(["consumer", "small_business", "enterprise"], 3000,
                          p=[0.7, 0.22, 0.08]),
})
orders = pd.DataFrame({
    "order_id": np.arange(20000, 28000),
    # guest checkouts and customers created after the CRM export have ids > 3000
    "customer_id": rng.integers(1, 4200, 8000),
    "revenue": rng.gamma(2.0, 45.0, 8000).round(2),
})
"""

CASES: list[Case] = [
    Case(
        id="dataloss-dropna-week12-labs",
        family="data_loss",
        twin="dataloss-dropna-week12-labs-sound",
        setup=_LABS,
        note="dropna() removes ~29% of patients (dropouts, unequal by arm) before comparing "
        "arm means; the loss is never reported.",
        code=dedent("""\
            complete = labs.dropna()
            complete = complete.assign(alt_change=complete.alt_wk12 - complete.alt_u_l,
                                       hb_change=complete.hemoglobin_wk12
                                       - complete.hemoglobin_g_dl)
            complete.groupby("arm")[["alt_change", "hb_change"]].mean().round(2)
        """),
    ),
    Case(
        id="dataloss-dropna-week12-labs-sound",
        family=None,
        twin="dataloss-dropna-week12-labs",
        setup=_LABS,
        note="Same complete-case analysis, but the number and share of excluded patients per "
        "arm is printed alongside the means.",
        code=dedent("""\
            complete = labs.dropna()
            dropped = labs.groupby("arm").size() - complete.groupby("arm").size()
            print(f"complete cases: {len(complete)}/{len(labs)} "
                  f"({1 - len(complete) / len(labs):.0%} excluded)")
            print("excluded per arm:", dropped.to_dict())
            complete = complete.assign(alt_change=complete.alt_wk12 - complete.alt_u_l,
                                       hb_change=complete.hemoglobin_wk12
                                       - complete.hemoglobin_g_dl)
            complete.groupby("arm")[["alt_change", "hb_change"]].agg(["mean", "count"]).round(2)
        """),
    ),
    Case(
        id="dataloss-coerce-pm25",
        family="data_loss",
        twin="dataloss-coerce-pm25-sound",
        note="to_numeric(errors='coerce') + dropna silently discards the ~42% failed yard "
        "readings before per-station means.",
        code=_RAW_SENSORS + dedent("""\

            raw["pm25"] = pd.to_numeric(raw["pm25"], errors="coerce")
            clean = raw.dropna(subset=["pm25"])
            by_station = clean.groupby("station")["pm25"].agg(["mean", "median", "max"])
            print(by_station.round(1))
            print(f"\\nOverall mean PM2.5: {clean.pm25.mean():.1f} ug/m3")
        """),
    ),
    Case(
        id="dataloss-coerce-pm25-sound",
        family=None,
        twin="dataloss-coerce-pm25",
        note="Same coercion, with the count and share of unparseable readings reported per "
        "station.",
        code=_RAW_SENSORS + dedent("""\

            raw["pm25"] = pd.to_numeric(raw["pm25"], errors="coerce")
            invalid = raw.pm25.isna().groupby(raw.station).agg(["sum", "mean"])
            invalid.columns = ["n_invalid", "share_invalid"]
            print(invalid.round(3))
            clean = raw.dropna(subset=["pm25"])
            by_station = clean.groupby("station")["pm25"].agg(["count", "mean", "median", "max"])
            print(by_station.round(1))
            print(f"\\nOverall mean PM2.5: {clean.pm25.mean():.1f} ug/m3 "
                  f"({len(clean)} of {len(raw)} readings valid)")
        """),
    ),
    Case(
        id="dataloss-failed-runs-filtered",
        family="data_loss",
        twin="dataloss-failed-runs-filtered-sound",
        setup=_RUNS,
        note="Only status == 'ok' runs are averaged; about half the lr=1e-2 runs diverged and "
        "vanish from the comparison unreported.",
        code=dedent("""\
            ok = runs[runs.status == "ok"]
            leaderboard = ok.groupby("config")["val_acc"].agg(["mean", "std"])
            print(leaderboard.sort_values("mean", ascending=False).round(4))
            print("best config:", leaderboard["mean"].idxmax())
        """),
    ),
    Case(
        id="dataloss-failed-runs-filtered-sound",
        family=None,
        twin="dataloss-failed-runs-filtered",
        setup=_RUNS,
        note="Failed runs are counted per config next to the accuracy of the runs that "
        "finished.",
        code=dedent("""\
            ok = runs[runs.status == "ok"]
            leaderboard = ok.groupby("config")["val_acc"].agg(["mean", "std"])
            leaderboard["runs_ok"] = ok.groupby("config").size()
            leaderboard["runs_failed"] = runs.groupby("config").size() - leaderboard["runs_ok"]
            print(leaderboard.sort_values("mean", ascending=False).round(4))
            print(runs.loc[runs.status != "ok"].groupby(["config", "status"]).size())
        """),
    ),
    Case(
        id="dataloss-inner-merge-segments",
        family="data_loss",
        twin="dataloss-inner-merge-segments-sound",
        note="Inner merge with the CRM drops ~28% of orders (unknown customers) before "
        "revenue per segment; not reported.",
        code=_SHOP + dedent("""\

            enriched = orders.merge(customers, on="customer_id")
            seg = enriched.groupby("segment")["revenue"].agg(["sum", "mean"])
            seg["share_of_revenue"] = seg["sum"] / seg["sum"].sum()
            seg.round(2)
        """),
    ),
    Case(
        id="dataloss-inner-merge-segments-sound",
        family=None,
        twin="dataloss-inner-merge-segments",
        note="Left merge with indicator=True; unmatched orders are counted and kept as an "
        "'unknown' segment.",
        code=_SHOP + dedent("""\

            enriched = orders.merge(customers, on="customer_id", how="left", indicator=True)
            unmatched = (enriched["_merge"] == "left_only").sum()
            print(f"{unmatched} of {len(orders)} orders ({unmatched / len(orders):.1%}) "
                  f"have no CRM record; kept as segment 'unknown'")
            enriched["segment"] = enriched["segment"].fillna("unknown")
            seg = enriched.groupby("segment")["revenue"].agg(["count", "sum", "mean"])
            seg["share_of_revenue"] = seg["sum"] / seg["sum"].sum()
            seg.round(2)
        """),
    ),
]
