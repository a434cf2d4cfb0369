"""Data loss, holdout2 idioms: drop_duplicates on the wrong key (customer instead of order)
before revenue totals, and dates coerced to NaT that resample() then silently drops."""

from textwrap import dedent

from bench.critic_corpus import Case

_ORDERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(777)
n = 4000
orders = pd.DataFrame({
    "order_id": [f"SO-{i:05d}" for i in range(n)],
    "customer_id": rng.integers(0, 1500, n),
    "tier": rng.choice(["bronze", "silver", "gold"], n, p=[0.6, 0.3, 0.1]),
    "net_eur": rng.gamma(2.5, 30, n).round(2),
})
# the warehouse export double-loads ~5% of orders
orders = pd.concat([orders, orders.sample(frac=0.05, random_state=3)], ignore_index=True)
"""

_INVOICES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1618)
n = 3000
issued = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366, n), unit="D")
from_eu_branch = rng.random(n) < 0.35          # the EU ERP writes dates as dd/mm/YYYY
invoices = pd.DataFrame({
    "issued": np.where(from_eu_branch, issued.strftime("%d/%m/%Y"), issued.strftime("%Y-%m-%d")),
    "amount_eur": np.where(from_eu_branch, rng.gamma(3, 900, n), rng.gamma(3, 400, n)).round(2),
})
"""

CASES: list[Case] = [
    Case(
        id="dataloss-dedupe-on-customer-key",
        family="data_loss",
        twin="dataloss-dedupe-on-customer-key-sound",
        split="holdout2",
        note="drop_duplicates(subset='customer_id') meant to remove double-loaded orders "
        "keeps one order per customer, silently discarding ~60% of real orders.",
        code=_ORDERS + dedent("""\

            revenue = (orders
                       .drop_duplicates(subset="customer_id")
                       .groupby("tier")
                       .agg(orders=("order_id", "count"), revenue_eur=("net_eur", "sum")))
            revenue["share"] = revenue.revenue_eur / revenue.revenue_eur.sum()
            print(revenue.round(2))
            print(f"total net revenue: EUR {revenue.revenue_eur.sum():,.0f}")
        """),
    ),
    Case(
        id="dataloss-dedupe-on-customer-key-sound",
        family=None,
        twin="dataloss-dedupe-on-customer-key",
        split="holdout2",
        note="Duplicates removed on order_id (the true key) and the number of removed rows "
        "printed before the totals.",
        code=_ORDERS + dedent("""\

            deduped = orders.drop_duplicates(subset="order_id")
            print(f"removed {len(orders) - len(deduped)} double-loaded rows of {len(orders)}")
            revenue = (deduped
                       .groupby("tier")
                       .agg(orders=("order_id", "count"), revenue_eur=("net_eur", "sum")))
            revenue["share"] = revenue.revenue_eur / revenue.revenue_eur.sum()
            print(revenue.round(2))
            print(f"total net revenue: EUR {revenue.revenue_eur.sum():,.0f}")
        """),
    ),
    Case(
        id="dataloss-nat-dates-resample",
        family="data_loss",
        twin="dataloss-nat-dates-resample-sound",
        split="holdout2",
        note="to_datetime(format='%Y-%m-%d', errors='coerce') turns the EU branch's dd/mm "
        "dates into NaT; resample('MS') then silently drops those invoices.",
        code=_INVOICES + dedent("""\

            monthly = (invoices
                       .assign(issued=pd.to_datetime(invoices.issued, format="%Y-%m-%d",
                                                     errors="coerce"))
                       .set_index("issued")
                       .resample("MS")["amount_eur"].sum())
            print((monthly / 1e3).round(1).to_string())
            print(f"invoiced in 2024: EUR {monthly.sum():,.0f}")
        """),
    ),
    Case(
        id="dataloss-nat-dates-resample-sound",
        family=None,
        twin="dataloss-nat-dates-resample",
        split="holdout2",
        note="Both date formats parsed explicitly; the count of still-unparsed dates (zero) "
        "is checked and printed before resampling.",
        code=_INVOICES + dedent("""\

            iso = pd.to_datetime(invoices.issued, format="%Y-%m-%d", errors="coerce")
            eu = pd.to_datetime(invoices.issued, format="%d/%m/%Y", errors="coerce")
            parsed = invoices.assign(issued=iso.fillna(eu))
            n_bad = parsed.issued.isna().sum()
            print(f"{(iso.isna() & eu.notna()).sum()} dd/mm/YYYY dates converted; "
                  f"{n_bad} unparseable of {len(invoices)}")
            monthly = parsed.set_index("issued").resample("MS")["amount_eur"].sum()
            print((monthly / 1e3).round(1).to_string())
            print(f"invoiced in 2024: EUR {monthly.sum():,.0f}")
        """),
    ),
]
