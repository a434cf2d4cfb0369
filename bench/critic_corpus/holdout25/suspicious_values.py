from bench.critic_corpus import Case

SPLIT = "holdout25"

_CSAT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(246)
n = 1800
csat = pd.DataFrame({
    "ticket_id": np.arange(700000, 700000 + n),
    "region": rng.choice(["North", "South", "East", "West", "Central"], n),
    "agent_team": rng.choice(["inhouse", "bpo"], n, p=[0.6, 0.4]),
    "csat_1_5": rng.choice([1, 2, 3, 4, 5], n, p=[0.07, 0.08, 0.15, 0.35, 0.35]),
})
# survey tool writes 99 when the customer closes the survey without answering
no_answer = rng.random(n) < np.where(csat.region.isin(["South", "Central"]), 0.05, 0.16)
csat.loc[no_answer, "csat_1_5"] = 99
'''

_PROP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3030)
n = 5000
shoppers = pd.DataFrame({
    "shopper_id": np.arange(n),
    "sessions_30d": rng.poisson(5, n),
    "cart_adds_30d": rng.poisson(1.5, n),
    "days_since_visit": rng.integers(0, 90, n),
    "is_member": rng.integers(0, 2, n),
})
lin = (-3.2 + 0.18 * shoppers.sessions_30d + 0.9 * shoppers.cart_adds_30d
       - 0.02 * shoppers.days_since_visit + 0.6 * shoppers.is_member)
shoppers["bought_after_promo"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
'''

CASES = [
    Case(
        id="h25-susp-csat-99-placeholder-mean",
        family="suspicious_values",
        setup=_CSAT_SETUP,
        code='''
board = (csat.groupby("region")
         .agg(tickets=("ticket_id", "size"), avg_csat=("csat_1_5", "mean"),
              top2box=("csat_1_5", lambda s: (s >= 4).mean()))
         .sort_values("avg_csat", ascending=False))
print(board.round(2).to_string())
print(f"\\ncompany CSAT : {csat.csat_1_5.mean():.2f}")
print(f"best region  : {board.index[0]}  (avg {board.avg_csat.iloc[0]:.2f})")
print(f"worst region : {board.index[-1]} (avg {board.avg_csat.iloc[-1]:.2f})"
      " -> schedule coaching for this team")
''',
        twin="h25-susp-csat-99-placeholder-mean-ok",
        note="CSAT on a 1-5 scale averages to 10-18 because the 99 'no answer' code is averaged "
             "in (and counted as top-2-box); the region ranking just tracks non-response",
        split=SPLIT,
    ),
    Case(
        id="h25-susp-csat-99-placeholder-mean-ok",
        family=None,
        setup=_CSAT_SETUP,
        code='''
resp = csat.assign(csat_1_5=csat.csat_1_5.where(csat.csat_1_5.between(1, 5)))  # 99 = no answer
board = (resp.groupby("region")
         .agg(tickets=("ticket_id", "size"), answered=("csat_1_5", "count"),
              avg_csat=("csat_1_5", "mean"),
              top2box=("csat_1_5", lambda s: (s.dropna() >= 4).mean()))
         .sort_values("avg_csat", ascending=False))
board["response_rate"] = board.answered / board.tickets
print(board.round(2).to_string())
print(f"\\nno-answer codes excluded : {resp.csat_1_5.isna().sum()} of {len(resp)} tickets")
print(f"company CSAT (answered)  : {resp.csat_1_5.mean():.2f}")
print(f"best region  : {board.index[0]}  (avg {board.avg_csat.iloc[0]:.2f})")
print(f"worst region : {board.index[-1]} (avg {board.avg_csat.iloc[-1]:.2f})")
''',
        twin="h25-susp-csat-99-placeholder-mean",
        note="the 99 no-answer code is set to missing, the count excluded and the response rate "
             "are reported, and CSAT is averaged over real 1-5 answers",
        split=SPLIT,
    ),
    Case(
        id="h25-susp-lpm-propensity-out-of-range",
        family="suspicious_values",
        setup=_PROP_SETUP,
        code='''
import statsmodels.formula.api as smf

lpm = smf.ols("bought_after_promo ~ sessions_30d + cart_adds_30d + days_since_visit"
              " + is_member", data=shoppers).fit()
shoppers["p_buy"] = lpm.predict(shoppers)

print("propensity score distribution:")
print(shoppers.p_buy.describe().round(3).to_string())
target = shoppers.nlargest(1000, "p_buy")
print(f"\\ntop-1000 avg P(buy)       : {target.p_buy.mean():.1%}")
print(f"expected promo buyers     : {target.p_buy.sum():.0f}")
print(f"expected cost per buyer   : EUR {1000 * 4.0 / target.p_buy.sum():.2f} (EUR 4 voucher)")
''',
        twin="h25-susp-lpm-propensity-out-of-range-ok",
        note="linear-probability 'propensities' go below 0 and above 1 (see describe min/max) "
             "and are summed as expected buyers without anyone noticing",
        split=SPLIT,
    ),
    Case(
        id="h25-susp-lpm-propensity-out-of-range-ok",
        family=None,
        setup=_PROP_SETUP,
        code='''
import statsmodels.formula.api as smf

logit = smf.logit("bought_after_promo ~ sessions_30d + cart_adds_30d + days_since_visit"
                  " + is_member", data=shoppers).fit(disp=0)
shoppers["p_buy"] = logit.predict(shoppers)

print("propensity score distribution:")
print(shoppers.p_buy.describe().round(3).to_string())
target = shoppers.nlargest(1000, "p_buy")
print(f"\\ntop-1000 avg P(buy)       : {target.p_buy.mean():.1%}")
print(f"expected promo buyers     : {target.p_buy.sum():.0f}")
print(f"expected cost per buyer   : EUR {1000 * 4.0 / target.p_buy.sum():.2f} (EUR 4 voucher)")
''',
        twin="h25-susp-lpm-propensity-out-of-range",
        note="propensities come from a logistic model, so every score is a valid probability",
        split=SPLIT,
    ),
]
