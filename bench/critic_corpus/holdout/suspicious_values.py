"""Suspicious values, held-out idioms: a 'probability' above 1 from counting orders instead of
buyers, and a hand-rolled correlation above 1 from mixing ddof conventions."""

from textwrap import dedent

from bench.critic_corpus import Case

_SHOP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2020)
n = 6000
visitors = pd.DataFrame({
    "visitor_id": np.arange(n),
    "channel": rng.choice(["email", "paid_search", "social", "affiliate"], n,
                          p=[0.2, 0.4, 0.25, 0.15]),
})
order_rate = visitors.channel.map({"email": 1.4, "paid_search": 0.35, "social": 0.12,
                                   "affiliate": 0.6})
n_orders = rng.poisson(order_rate)
orders = visitors.loc[visitors.index.repeat(n_orders)].reset_index(drop=True)
orders["order_id"] = [f"O{i:06d}" for i in range(len(orders))]
"""

_PROBES = """\
import numpy as np

rng = np.random.default_rng(64)
n = 12
bath_temp = rng.normal(37.0, 2.5, n)                 # water bath set points, deg C
probe_a = bath_temp + rng.normal(0, 0.25, n)
probe_b = bath_temp + rng.normal(0, 0.25, n)
"""

CASES: list[Case] = [
    Case(
        id="suspicious-conversion-probability-over-one",
        family="suspicious_values",
        twin="suspicious-conversion-probability-over-one-sound",
        split="holdout",
        note="Orders divided by unique visitors and labelled P(purchase | channel): the email "
        "channel prints a 'probability' of about 1.4.",
        code=_SHOP + dedent("""\

            p_purchase = (orders.groupby("channel")["order_id"].count()
                          / visitors.groupby("channel")["visitor_id"].nunique())
            print("P(purchase | channel)")
            print(p_purchase.sort_values(ascending=False).round(3).to_string())
        """),
    ),
    Case(
        id="suspicious-conversion-probability-over-one-sound",
        family=None,
        twin="suspicious-conversion-probability-over-one",
        split="holdout",
        note="Buyers (unique visitors with an order) over visitors for the probability; "
        "orders per visitor reported separately as a rate.",
        code=_SHOP + dedent("""\

            n_visitors = visitors.groupby("channel")["visitor_id"].nunique()
            summary = pd.DataFrame({
                "p_purchase": orders.groupby("channel")["visitor_id"].nunique() / n_visitors,
                "orders_per_visitor": orders.groupby("channel")["order_id"].count() / n_visitors,
            })
            summary.sort_values("p_purchase", ascending=False).round(3)
        """),
    ),
    Case(
        id="suspicious-correlation-over-one",
        family="suspicious_values",
        twin="suspicious-correlation-over-one-sound",
        split="holdout",
        setup=_PROBES,
        note="Sample covariance (ddof=1) divided by population SDs (np.std, ddof=0) prints "
        "a correlation of about 1.08.",
        code=dedent("""\
            cov_ab = np.cov(probe_a, probe_b)[0, 1]
            r = cov_ab / (np.std(probe_a) * np.std(probe_b))
            bias = np.mean(probe_a - probe_b)
            print(f"probe agreement: r = {r:.3f}, mean bias = {bias:+.2f} deg C over {n} points")
        """),
    ),
    Case(
        id="suspicious-correlation-over-one-sound",
        family=None,
        twin="suspicious-correlation-over-one",
        setup=_PROBES,
        split="holdout",
        note="Consistent ddof (np.corrcoef): r just below 1, which is expected for two "
        "probes in the same bath.",
        code=dedent("""\
            r = np.corrcoef(probe_a, probe_b)[0, 1]
            bias = np.mean(probe_a - probe_b)
            print(f"probe agreement: r = {r:.3f}, mean bias = {bias:+.2f} deg C over {n} points")
        """),
    ),
]
