from bench.critic_corpus import Case

_DRIVERS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3271)
n = 15_000
mcc_pool = np.array([4121, 4511, 4814, 5311, 5411, 5541, 5732, 5812, 5999, 7011, 7372, 7995])
mcc_risk = dict(zip(mcc_pool, [0.6, 0.9, 1.4, 0.5, 0.3, 0.4, 1.1, 0.3, 0.9, 0.7, 1.5, 1.6]))
# ISO 8583 POS entry mode (field 22): 01 manual, 05 chip, 07 contactless, 81 ecom, 90 swipe
pem_pool = np.array([1, 5, 7, 81, 90])
pem_risk = dict(zip(pem_pool, [1.6, 0.2, 0.3, 1.0, 1.3]))

feat = pd.DataFrame({
    "mcc": rng.choice(mcc_pool, n),
    "pos_entry_mode": rng.choice(pem_pool, n, p=[0.02, 0.38, 0.25, 0.3, 0.05]),
    "amount_usd": np.round(rng.lognormal(3.8, 1.0, n), 2),
    "card_age_days": np.round(rng.gamma(2.0, 220, n)),
    "txn_count_24h": rng.poisson(2.5, n),
})
risk = (feat["mcc"].map(mcc_risk) + feat["pos_entry_mode"].map(pem_risk)
        + 0.25 * np.log1p(feat["amount_usd"]) + 0.15 * feat["txn_count_24h"]
        - 0.001 * feat["card_age_days"])
feat["is_fraud"] = (rng.random(n) < 1 / (1 + np.exp(-(risk - 6.2)))).astype(int)
'''

_PARITY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3272)
n_cards = 3_000
batch = np.round(rng.lognormal(5.2, 1.1, n_cards), 2)           # nightly Spark job
# streaming job (Flink) rebuilt from the same events; window is anchored on local time and
# includes the triggering txn, so it runs high
stream = np.round(batch * rng.normal(1.09, 0.03, n_cards) + rng.exponential(4, n_cards), 2)
parity = pd.DataFrame({
    "card_id": [f"C{c:09d}" for c in rng.choice(10**9, n_cards, replace=False)],
    "amt_sum_24h_batch": batch,
    "amt_sum_24h_stream": stream,
})
'''

CASES: list[Case] = [
    Case(
        id="h32-correlation-misuse-fraud-drivers-corr-codes",
        family="correlation_misuse",
        split="holdout32",
        twin="h32-correlation-misuse-fraud-drivers-corr-codes-sound",
        setup=_DRIVERS_SETUP,
        note=("Pearson correlation of is_fraud with mcc and pos_entry_mode, which are nominal "
              "codes; their numeric order is meaningless, so the 'drivers' ranking is not valid"),
        code='''drivers = (feat.corr(numeric_only=True)["is_fraud"].drop("is_fraud")
           .sort_values(key=abs, ascending=False).to_frame("pearson_r"))
drivers["direction"] = np.where(drivers["pearson_r"] > 0, "higher -> more fraud",
                                "higher -> less fraud")
print("top fraud drivers (corr with label):")
drivers.round(4)
''',
    ),
    Case(
        id="h32-correlation-misuse-fraud-drivers-corr-codes-sound",
        family=None,
        split="holdout32",
        twin="h32-correlation-misuse-fraud-drivers-corr-codes",
        setup=_DRIVERS_SETUP,
        note=("categorical codes (mcc, pos_entry_mode) are measured with Cramer's V from a "
              "crosstab; only the truly numeric features use point-biserial correlation"),
        code='''from scipy.stats import chi2_contingency, pointbiserialr

CAT_COLS = ["mcc", "pos_entry_mode"]        # codes, not quantities
NUM_COLS = ["amount_usd", "card_age_days", "txn_count_24h"]


def cramers_v(x, y):
    ct = pd.crosstab(x, y)
    chi2 = chi2_contingency(ct, correction=False)[0]
    return np.sqrt(chi2 / (ct.to_numpy().sum() * (min(ct.shape) - 1)))


rows = [{"feature": c, "measure": "cramers_v", "assoc": cramers_v(feat[c], feat["is_fraud"])}
        for c in CAT_COLS]
rows += [{"feature": c, "measure": "point_biserial_r",
          "assoc": pointbiserialr(feat["is_fraud"], feat[c])[0]} for c in NUM_COLS]
drivers = pd.DataFrame(rows).set_index("feature")
print("association with is_fraud (Cramer's V for codes, r for numeric):")
drivers.round(4)
''',
    ),
    Case(
        id="h32-correlation-misuse-feature-parity-pearson",
        family="correlation_misuse",
        split="holdout32",
        twin="h32-correlation-misuse-feature-parity-pearson-sound",
        setup=_PARITY_SETUP,
        note=("batch vs streaming feature parity is signed off on Pearson r; a high r does not "
              "show agreement and hides the ~9% upward bias of the streaming values"),
        code='''from scipy.stats import pearsonr

r, p = pearsonr(parity["amt_sum_24h_batch"], parity["amt_sum_24h_stream"])
print(f"amt_sum_24h: batch vs stream Pearson r = {r:.4f} (n={len(parity)}, p={p:.1e})")
PARITY_MIN_R = 0.98
status = "PASS" if r >= PARITY_MIN_R else "FAIL"
print(f"feature parity check: {status} -> streaming feature can replace batch in scoring")
''',
    ),
    Case(
        id="h32-correlation-misuse-feature-parity-pearson-sound",
        family=None,
        split="holdout32",
        twin="h32-correlation-misuse-feature-parity-pearson",
        setup=_PARITY_SETUP,
        note=("parity is judged on agreement: mean relative difference, limits of agreement and "
              "share of cards within a 1% tolerance, which exposes the streaming bias"),
        code='''b = parity["amt_sum_24h_batch"]
s = parity["amt_sum_24h_stream"]
rel = (s - b) / b
bias, sd = rel.mean(), rel.std(ddof=1)
within_tol = (rel.abs() <= 0.01).mean()

print(f"amt_sum_24h stream vs batch, n={len(parity)} cards")
print(f"mean relative diff {bias:+.2%}, 95% limits of agreement "
      f"[{bias - 1.96 * sd:+.2%}, {bias + 1.96 * sd:+.2%}]")
print(f"cards within 1% tolerance: {within_tol:.1%}")
status = "PASS" if within_tol >= 0.99 else "FAIL"
print(f"feature parity check: {status}")
''',
    ),
]
