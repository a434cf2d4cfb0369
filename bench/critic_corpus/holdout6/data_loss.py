"""Data loss, holdout6 idioms: a `query("channel in @channels")` method chain over an order log
whose app-tracked orders spell the channels differently (snake case, stray spaces), so the ROAS
table silently loses most social revenue, and a helper that summarises pay from np.histogram
counts, which silently drops every salary outside the bin edges (executives and part-timers)."""

from textwrap import dedent

from bench.critic_corpus import Case

_ORDERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6901)
n = 6000
web_names = {"search": "Paid Search", "email": "Email", "social": "Social",
             "affiliate": "Affiliate", "display": "Display"}
app_names = {"search": "paid_search", "email": "email ", "social": "social_ads",
             "affiliate": "affiliate", "display": "display"}
app_share = {"search": 0.25, "email": 0.35, "social": 0.65, "affiliate": 0.15, "display": 0.1}
channel = rng.choice(list(web_names), n, p=[0.35, 0.2, 0.25, 0.1, 0.1])
from_app = rng.random(n) < np.array([app_share[c] for c in channel])
orders = pd.DataFrame({
    "order_id": np.arange(500_000, 500_000 + n),
    # the web tag manager and the app SDK label the same channels differently
    "channel": [app_names[c] if a else web_names[c] for c, a in zip(channel, from_app)],
    "revenue": rng.gamma(2.2, 38, n).round(2),
})
spend = pd.Series({"Paid Search": 52_000, "Email": 9_000, "Social": 41_000,
                   "Affiliate": 14_000, "Display": 21_000}, name="spend")
"""

_PAY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6902)
n = 2000
staff = pd.DataFrame({"gender": rng.choice(["F", "M"], n, p=[0.46, 0.54])})
staff["salary"] = rng.lognormal(np.log(52_000), 0.35, n)
# senior leadership (mostly men) is paid far above the main grades
lead = rng.random(n) < np.where(staff.gender == "M", 0.07, 0.02)
staff.loc[lead, "salary"] = rng.uniform(165_000, 420_000, lead.sum())
# pro-rata part-time contracts (mostly women) fall below the lowest grade
part = rng.random(n) < np.where(staff.gender == "F", 0.12, 0.02)
staff.loc[part, "salary"] = rng.uniform(9_000, 19_500, part.sum())
staff["salary"] = staff.salary.round(-2)
"""

CASES: list[Case] = [
    Case(
        id="dataloss-query-in-misspelt-channels-roas",
        family="data_loss",
        twin="dataloss-query-in-misspelt-channels-roas-sound",
        split="holdout6",
        setup=_ORDERS,
        note="query('channel in @channels') keeps only the web spellings; app orders "
        "('social_ads', 'email ', ...) drop out unreported, most of Social's, so its ROAS "
        "looks worst.",
        code=dedent("""\
            channels = ["Paid Search", "Email", "Social", "Affiliate", "Display"]
            roas = (orders.query("channel in @channels")
                          .groupby("channel")
                          .agg(orders=("order_id", "size"), revenue=("revenue", "sum"))
                          .join(spend)
                          .assign(roas=lambda d: d.revenue / d.spend)
                          .sort_values("roas", ascending=False))
            print(roas.round(2).to_string())
            print(f"lowest return: {roas.index[-1]} (ROAS {roas.roas.iloc[-1]:.2f}) "
                  "-> first candidate for budget cuts")
        """),
    ),
    Case(
        id="dataloss-query-in-misspelt-channels-roas-sound",
        family=None,
        twin="dataloss-query-in-misspelt-channels-roas",
        split="holdout6",
        setup=_ORDERS,
        note="Web and app spellings are mapped to one set of channel names, and the number of "
        "orders still unmatched (zero) is printed before the ROAS table.",
        code=dedent("""\
            aliases = {"paid_search": "Paid Search", "email": "Email", "social_ads": "Social",
                       "affiliate": "Affiliate", "display": "Display"}
            clean = orders.assign(channel=orders.channel.str.strip().replace(aliases))
            unmatched = ~clean.channel.isin(spend.index)
            print(f"orders with an unrecognised channel: {unmatched.sum()} of {len(clean)}")
            roas = (clean[~unmatched]
                    .groupby("channel")
                    .agg(orders=("order_id", "size"), revenue=("revenue", "sum"))
                    .join(spend)
                    .assign(roas=lambda d: d.revenue / d.spend)
                    .sort_values("roas", ascending=False))
            print(roas.round(2).to_string())
            print(f"lowest return: {roas.index[-1]} (ROAS {roas.roas.iloc[-1]:.2f})")
        """),
    ),
    Case(
        id="dataloss-histogram-edges-drop-pay-extremes",
        family="data_loss",
        twin="dataloss-histogram-edges-drop-pay-extremes-sound",
        split="holdout6",
        setup=_PAY,
        note="np.histogram ignores values outside 20k-160k, so leaders (mostly men) and "
        "part-timers (mostly women) vanish from the pay summary and the gender gap shrinks.",
        code=dedent("""\
            edges = np.arange(20_000, 160_001, 10_000)
            mids = (edges[:-1] + edges[1:]) / 2


            def band_summary(salaries):
                counts, _ = np.histogram(salaries, bins=edges)
                return {"staff": counts.sum(),
                        "mean_pay": (counts * mids).sum() / counts.sum(),
                        "share_100k_plus": counts[edges[:-1] >= 100_000].sum() / counts.sum()}


            pay = pd.DataFrame({g: band_summary(grp.salary)
                                for g, grp in staff.groupby("gender")}).T
            print(pay.round({"mean_pay": 0, "share_100k_plus": 3}).to_string())
            gap = 1 - pay.loc["F", "mean_pay"] / pay.loc["M", "mean_pay"]
            print(f"mean gender pay gap: {gap:.1%}")
        """),
    ),
    Case(
        id="dataloss-histogram-edges-drop-pay-extremes-sound",
        family=None,
        twin="dataloss-histogram-edges-drop-pay-extremes",
        split="holdout6",
        setup=_PAY,
        note="The bands are open-ended at both ends, every employee is checked to fall in a "
        "band, and means and shares come from the raw salaries of all staff.",
        code=dedent("""\
            edges = np.r_[0, np.arange(20_000, 160_001, 10_000), np.inf]


            def band_summary(salaries):
                counts, _ = np.histogram(salaries, bins=edges)
                assert counts.sum() == len(salaries), "some salaries fall outside the bands"
                return {"staff": int(counts.sum()),
                        "mean_pay": salaries.mean(),
                        "share_100k_plus": (salaries >= 100_000).mean(),
                        "below_20k": counts[0], "above_160k": counts[-1]}


            pay = pd.DataFrame({g: band_summary(grp.salary)
                                for g, grp in staff.groupby("gender")}).T
            print(pay.round({"mean_pay": 0, "share_100k_plus": 3}).to_string())
            gap = 1 - pay.loc["F", "mean_pay"] / pay.loc["M", "mean_pay"]
            print(f"mean gender pay gap: {gap:.1%}")
        """),
    ),
]
