from bench.critic_corpus import Case

_EXPORT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3291)
n = 20_000
channel = rng.choice(["app", "web", "pos", "moto"], n, p=[0.35, 0.3, 0.3, 0.05])
amt = np.round(rng.lognormal(4.6, 1.2, n), 2)
p = 0.004 + 0.012 * (channel == "web") + 0.02 * (channel == "moto") + 0.03 * (amt > 1000)
is_fraud = (rng.random(n) < p).astype(int)
# settlement export from the acquirer portal: amounts come through as formatted text
amount_txt = np.array([f"{a:,.2f}" for a in amt])
raw = pd.DataFrame({
    "settle_ref": [f"S{i:010d}" for i in rng.choice(10**10, n, replace=False)],
    "channel": channel,
    "amount": amount_txt,
    "currency": "USD",
    "fraud_flag": is_fraud,
})
'''

_DIM_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3292)
n_m = 1_500
mids = np.array([f"MID{m:07d}" for m in rng.choice(9_999_999, n_m, replace=False)])
onboard_days_ago = rng.integers(1, 2_000, n_m)
risk_tier = rng.choice(["low", "medium", "high"], n_m, p=[0.6, 0.3, 0.1])
tier_rate = pd.Series(risk_tier).map({"low": 0.003, "medium": 0.007, "high": 0.015}).to_numpy()
merch_rate = tier_rate * np.where(onboard_days_ago < 90, 4.0, 1.0)   # new merchants get hit

# merchant dimension snapshot is refreshed monthly -> last ~90 days of onboarding missing
merchant_dim = pd.DataFrame({"merchant_id": mids, "risk_tier": risk_tier,
                             "onboard_days_ago": onboard_days_ago})
merchant_dim = merchant_dim[merchant_dim.onboard_days_ago >= 90].reset_index(drop=True)

n = 40_000
m_idx = rng.integers(0, n_m, n)
txn = pd.DataFrame({
    "txn_id": np.arange(n) + 900_000_000,
    "merchant_id": mids[m_idx],
    "amount_usd": np.round(rng.lognormal(3.9, 1.0, n), 2),
    "is_fraud": (rng.random(n) < merch_rate[m_idx]).astype(int),
})
'''

CASES: list[Case] = [
    Case(
        id="h32-data-loss-amount-coerce-dropna",
        family="data_loss",
        split="holdout32",
        twin="h32-data-loss-amount-coerce-dropna-sound",
        setup=_EXPORT_SETUP,
        note=("pd.to_numeric(errors='coerce') turns every amount with a thousands separator "
              "(all >$1,000 txns, the riskiest) into NaN, and dropna removes them silently"),
        code='''tx = raw.copy()
tx["amount_usd"] = pd.to_numeric(tx["amount"], errors="coerce")
tx = tx.dropna(subset=["amount_usd"])

kpis = tx.groupby("channel").agg(
    n_txn=("settle_ref", "size"),
    fraud_bps=("fraud_flag", lambda s: 1e4 * s.mean()),
    avg_ticket=("amount_usd", "mean"),
    fraud_usd=("amount_usd", lambda s: s[tx.loc[s.index, "fraud_flag"] == 1].sum()),
)
print(f"portfolio fraud rate: {1e4 * tx.fraud_flag.mean():.1f} bps, "
      f"fraud $ {kpis.fraud_usd.sum():,.0f}")
kpis.round(1)
''',
    ),
    Case(
        id="h32-data-loss-amount-coerce-dropna-sound",
        family=None,
        split="holdout32",
        twin="h32-data-loss-amount-coerce-dropna",
        setup=_EXPORT_SETUP,
        note=("thousands separators are stripped before parsing and the number of amounts that "
              "still fail to parse is counted and checked (zero) before the KPIs"),
        code='''tx = raw.copy()
tx["amount_usd"] = pd.to_numeric(tx["amount"].str.replace(",", "", regex=False),
                                 errors="coerce")
bad = tx["amount_usd"].isna()
print(f"parsed {len(tx) - bad.sum():,}/{len(tx):,} amounts; unparseable: {bad.sum()}")
assert bad.sum() == 0, tx.loc[bad, "amount"].head()

kpis = tx.groupby("channel").agg(
    n_txn=("settle_ref", "size"),
    fraud_bps=("fraud_flag", lambda s: 1e4 * s.mean()),
    avg_ticket=("amount_usd", "mean"),
    fraud_usd=("amount_usd", lambda s: s[tx.loc[s.index, "fraud_flag"] == 1].sum()),
)
print(f"portfolio fraud rate: {1e4 * tx.fraud_flag.mean():.1f} bps, "
      f"fraud $ {kpis.fraud_usd.sum():,.0f}")
kpis.round(1)
''',
    ),
    Case(
        id="h32-data-loss-merchant-dim-inner-join",
        family="data_loss",
        split="holdout32",
        twin="h32-data-loss-merchant-dim-inner-join-sound",
        setup=_DIM_SETUP,
        note=("inner join to a stale merchant dimension drops every txn of recently onboarded "
              "merchants (the riskiest) before fraud bps by tier, with no count of lost rows"),
        code='''enriched = txn.merge(merchant_dim[["merchant_id", "risk_tier"]], on="merchant_id")

by_tier = (enriched.groupby("risk_tier")
           .agg(txns=("txn_id", "count"), fraud=("is_fraud", "sum"),
                volume_usd=("amount_usd", "sum")))
by_tier["fraud_bps"] = 1e4 * by_tier["fraud"] / by_tier["txns"]
print(f"overall fraud: {1e4 * enriched.is_fraud.mean():.1f} bps")
by_tier.loc[["low", "medium", "high"]].round(1)
''',
    ),
    Case(
        id="h32-data-loss-merchant-dim-inner-join-sound",
        family=None,
        split="holdout32",
        twin="h32-data-loss-merchant-dim-inner-join",
        setup=_DIM_SETUP,
        note=("left join with an indicator: txns whose merchant is missing from the dimension "
              "are counted and kept as an 'unmapped' tier instead of being dropped"),
        code='''enriched = txn.merge(merchant_dim[["merchant_id", "risk_tier"]], on="merchant_id",
                     how="left", indicator=True, validate="many_to_one")
unmapped = enriched["_merge"] == "left_only"
print(f"{unmapped.sum():,} of {len(enriched):,} txns ({unmapped.mean():.1%}) from "
      f"{enriched.loc[unmapped, 'merchant_id'].nunique()} merchants missing from merchant_dim")
enriched["risk_tier"] = enriched["risk_tier"].fillna("unmapped")

by_tier = (enriched.groupby("risk_tier")
           .agg(txns=("txn_id", "count"), fraud=("is_fraud", "sum"),
                volume_usd=("amount_usd", "sum")))
by_tier["fraud_bps"] = 1e4 * by_tier["fraud"] / by_tier["txns"]
print(f"overall fraud: {1e4 * enriched.is_fraud.mean():.1f} bps")
by_tier.loc[["low", "medium", "high", "unmapped"]].round(1)
''',
    ),
]
