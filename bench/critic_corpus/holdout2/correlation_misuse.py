"""Correlation misuse, holdout2 idioms: category .cat.codes of a nominal payment method fed to
Series.corr, and pd.cut(labels=False) band codes of unequal width correlated with
linregress."""

from textwrap import dedent

from bench.critic_corpus import Case

_BASKETS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(112358)
n = 1800
lift = {"card": 6.0, "cash": -4.0, "wallet": 9.0, "voucher": -9.0, "bnpl": 14.0}
baskets = pd.DataFrame({"payment": rng.choice(list(lift), n, p=[0.4, 0.2, 0.2, 0.1, 0.1])})
baskets["basket_eur"] = (42 + baskets.payment.map(lift) + rng.normal(0, 15, n)).round(2)
"""

_CREDIT = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(271828)
n = 900
applicants = pd.DataFrame({"income_k": rng.lognormal(np.log(48), 0.6, n).round(1)})
applicants["bureau_score"] = (
    560 + 60 * np.log(applicants.income_k) + rng.normal(0, 45, n)
).clip(300, 850).round()
edges = [0, 20, 30, 45, 70, 120, np.inf]      # reporting bands of very unequal width
applicants["income_band"] = pd.cut(applicants.income_k, edges, labels=False)
"""

CASES: list[Case] = [
    Case(
        id="corr-cat-codes-payment-method",
        family="correlation_misuse",
        twin="corr-cat-codes-payment-method-sound",
        split="holdout2",
        note="payment (nominal: card/cash/wallet/voucher/bnpl) turned into alphabetical "
        ".cat.codes and Pearson-correlated with basket value.",
        code=_BASKETS + dedent("""\

            coded = baskets.assign(payment_code=baskets.payment.astype("category").cat.codes)
            r = coded.payment_code.corr(coded.basket_eur)
            print(dict(enumerate(coded.payment.astype("category").cat.categories)))
            print(f"payment method vs basket value: r = {r:+.3f}")
        """),
    ),
    Case(
        id="corr-cat-codes-payment-method-sound",
        family=None,
        twin="corr-cat-codes-payment-method",
        split="holdout2",
        note="Payment method as a factor in an OLS formula: group means, R^2 and the "
        "omnibus F-test.",
        code=_BASKETS + dedent("""\
            import statsmodels.formula.api as smf

            fit = smf.ols("basket_eur ~ C(payment)", data=baskets).fit()
            print(baskets.groupby("payment").basket_eur.agg(["count", "mean"]).round(2))
            print(f"payment method explains R^2 = {fit.rsquared:.1%} of basket value "
                  f"(F = {fit.fvalue:.1f}, p = {fit.f_pvalue:.1e})")
        """),
    ),
    Case(
        id="corr-cut-band-codes-linregress",
        family="correlation_misuse",
        twin="corr-cut-band-codes-linregress-sound",
        split="holdout2",
        note="Income bands of very unequal width (pd.cut labels=False, codes 0-5) treated as "
        "an interval variable: linregress slope and Pearson r per band step.",
        code=_CREDIT + dedent("""\

            fit = stats.linregress(applicants.income_band, applicants.bureau_score)
            print(applicants.income_band.value_counts().sort_index().to_string())
            print(f"bureau score rises {fit.slope:.1f} points per income band "
                  f"(r = {fit.rvalue:.3f}, p = {fit.pvalue:.1e})")
        """),
    ),
    Case(
        id="corr-cut-band-codes-linregress-sound",
        family=None,
        twin="corr-cut-band-codes-linregress",
        split="holdout2",
        note="Kendall tau-b between the ordinal band and the score, with the median score "
        "per band; no interval assumption.",
        code=_CREDIT + dedent("""\

            tau, p = stats.kendalltau(applicants.income_band, applicants.bureau_score)
            print(applicants.groupby("income_band").bureau_score.agg(["count", "median"])
                  .to_string())
            print(f"income band vs bureau score: Kendall tau-b = {tau:.3f}, p = {p:.1e}")
        """),
    ),
]
