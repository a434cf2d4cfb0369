from bench.critic_corpus import Case

_SEGMENT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3281)
n = 8_000
segment = rng.choice(["prime", "near_prime", "thin_file", "student"], n,
                     p=[0.45, 0.3, 0.15, 0.1])
score_mu = pd.Series(segment).map({"prime": 740, "near_prime": 650, "thin_file": 620,
                                    "student": 640}).to_numpy()
bureau_score = np.clip(np.round(rng.normal(score_mu, 45)), 300, 850)
days_since_cb = np.round(rng.exponential(420, n))
chargebacks_12m = rng.poisson(0.15, n)
# bureau returns -999 for no-hit; warehouse stores 9999 when no prior chargeback on file
no_hit = rng.random(n) < np.where(segment == "thin_file", 0.55,
                                  np.where(segment == "student", 0.35, 0.02))
bureau_score[no_hit] = -999
days_since_cb[chargebacks_12m == 0] = 9999
apps = pd.DataFrame({
    "applicant_id": np.arange(10_000_000, 10_000_000 + n), "segment": segment,
    "bureau_score": bureau_score, "days_since_last_cb": days_since_cb,
    "chargebacks_12m": chargebacks_12m,
    "approved_limit_usd": np.round(rng.gamma(3, 900, n), -1),
})
'''

_CALIB_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3282)
n = 10_000
raw_score = np.round(rng.beta(1.3, 6, n) * 1000)          # vendor score, 0..1000
true_p = 1 / (1 + np.exp(-(-6.0 + 0.011 * raw_score)))
scored = pd.DataFrame({
    "txn_id": [f"T{i:08d}" for i in range(n)],
    "vendor_score": raw_score,
    "amount_usd": np.round(rng.lognormal(4.2, 1.1, n), 2),
    "is_fraud": (rng.random(n) < true_p).astype(int),
})
scored["split"] = np.where(np.arange(n) < 6_000, "calib", "backtest")
'''

CASES: list[Case] = [
    Case(
        id="h32-suspicious-values-bureau-sentinels-averaged",
        family="suspicious_values",
        split="holdout32",
        twin="h32-suspicious-values-bureau-sentinels-averaged-sound",
        setup=_SEGMENT_SETUP,
        note=("-999 no-hit bureau scores and 9999 'no chargeback' placeholders are averaged into "
              "the segment summary, giving impossible mean scores below 300"),
        code='''seg_summary = (
    apps.groupby("segment")
        .agg(n_apps=("applicant_id", "size"),
             avg_score=("bureau_score", "mean"),
             avg_days_cb=("days_since_last_cb", "mean"),
             cb_rate_12m=("chargebacks_12m", "mean"))
        .sort_values("avg_score", ascending=False)
)
print("onboarding risk by segment (Q3 applications)")
seg_summary.round(2)
''',
    ),
    Case(
        id="h32-suspicious-values-bureau-sentinels-averaged-sound",
        family=None,
        split="holdout32",
        twin="h32-suspicious-values-bureau-sentinels-averaged",
        setup=_SEGMENT_SETUP,
        note=("the -999 no-hit and 9999 no-prior-chargeback sentinels are turned into missing "
              "values, counted per segment and excluded from the averages"),
        code='''SENTINELS = {"bureau_score": -999, "days_since_last_cb": 9999}
clean = apps.copy()
for col, code in SENTINELS.items():
    clean[col] = clean[col].mask(clean[col] == code)

seg_summary = (
    clean.groupby("segment")
         .agg(n_apps=("applicant_id", "size"),
              no_hit=("bureau_score", lambda s: s.isna().sum()),
              avg_score=("bureau_score", "mean"),
              n_prior_cb=("days_since_last_cb", "count"),
              avg_days_cb=("days_since_last_cb", "mean"),
              cb_rate_12m=("chargebacks_12m", "mean"))
         .sort_values("avg_score", ascending=False)
)
print("onboarding risk by segment (Q3 applications; scores/recency among valid values only)")
seg_summary.round(2)
''',
    ),
    Case(
        id="h32-suspicious-values-linear-calibration-probs",
        family="suspicious_values",
        split="holdout32",
        twin="h32-suspicious-values-linear-calibration-probs-sound",
        setup=_CALIB_SETUP,
        note=("a linear regression maps the vendor score to 'fraud probability'; the printed "
              "probabilities go below 0 and above 1 and are used as-is for expected loss"),
        code='''from sklearn.linear_model import LinearRegression

cal = scored[scored.split == "calib"]
bt = scored[scored.split == "backtest"].copy()

calibrator = LinearRegression().fit(cal[["vendor_score"]], cal["is_fraud"])
bt["p_fraud"] = calibrator.predict(bt[["vendor_score"]])
bt["exp_loss_usd"] = bt["p_fraud"] * bt["amount_usd"]

print(bt["p_fraud"].describe().round(4))
print(f"expected fraud loss on backtest: ${bt['exp_loss_usd'].sum():,.0f} "
      f"vs realised ${bt.loc[bt.is_fraud == 1, 'amount_usd'].sum():,.0f}")
''',
    ),
    Case(
        id="h32-suspicious-values-linear-calibration-probs-sound",
        family=None,
        split="holdout32",
        twin="h32-suspicious-values-linear-calibration-probs",
        setup=_CALIB_SETUP,
        note=("Platt scaling (logistic regression on the vendor score) fitted on the calibration "
              "slice gives probabilities bounded in [0, 1] for the expected-loss backtest"),
        code='''from sklearn.linear_model import LogisticRegression

cal = scored[scored.split == "calib"]
bt = scored[scored.split == "backtest"].copy()

calibrator = LogisticRegression(C=1e6, max_iter=1000).fit(cal[["vendor_score"]], cal["is_fraud"])
bt["p_fraud"] = calibrator.predict_proba(bt[["vendor_score"]])[:, 1]
bt["exp_loss_usd"] = bt["p_fraud"] * bt["amount_usd"]

print(bt["p_fraud"].describe().round(4))
print(f"expected fraud loss on backtest: ${bt['exp_loss_usd'].sum():,.0f} "
      f"vs realised ${bt.loc[bt.is_fraud == 1, 'amount_usd'].sum():,.0f}")
''',
    ),
]
