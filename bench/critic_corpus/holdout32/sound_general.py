from bench.critic_corpus import Case

_OOT_SETUP = '''
import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

threadpool_limits(1)  # shared 2-core notebook box
rng = np.random.default_rng(3311)
n = 24_000
ts = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366 * 24 * 60, n), unit="m")
txns = pd.DataFrame({
    "txn_ts": ts,
    "entry_mode": rng.choice(["chip", "contactless", "ecom", "swipe"], n,
                             p=[0.35, 0.3, 0.3, 0.05]),
    "issuer_region": rng.choice(["NA", "EU", "LATAM", "APAC"], n, p=[0.5, 0.25, 0.15, 0.1]),
    "amount_usd": np.round(rng.lognormal(3.8, 1.0, n), 2),
    "card_txn_24h": rng.poisson(2.0, n),
    "card_age_days": np.round(rng.gamma(2.0, 220, n)),
}).sort_values("txn_ts").reset_index(drop=True)
drift = (txns.txn_ts.dt.month - 6) * 0.04
logit = (-5.0 + 1.0 * (txns.entry_mode == "ecom") + 0.7 * (txns.entry_mode == "swipe")
         + 0.5 * (txns.issuer_region == "LATAM") + 0.25 * np.log1p(txns.amount_usd)
         + 0.2 * txns.card_txn_24h - 0.001 * txns.card_age_days + drift)
txns["is_fraud"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
# chargebacks still arriving: label only trustworthy once 90 days have passed
txns["label_mature"] = txns.txn_ts <= pd.Timestamp("2024-12-31") - pd.Timedelta(days=90)
'''

_CHANNEL_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3312)
n = 60_000
chan = rng.choice(["ios_app", "android_app", "web_desktop", "web_mobile", "pos", "moto"], n,
                  p=[0.22, 0.2, 0.18, 0.15, 0.22, 0.03])
rate = pd.Series(chan).map({"ios_app": 0.003, "android_app": 0.005, "web_desktop": 0.009,
                            "web_mobile": 0.011, "pos": 0.0015, "moto": 0.02}).to_numpy()
auths = pd.DataFrame({
    "auth_id": np.arange(n) + 120_000_000,
    "channel": chan,
    "amount_usd": np.round(rng.lognormal(3.7, 1.0, n), 2),
    "cb_fraud": (rng.random(n) < rate).astype(int),
})
'''

_LAG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3313)
n_cb = 4_000
txn_date = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 330, n_cb), unit="D")
lag = np.round(rng.lognormal(3.3, 0.6, n_cb)).astype(int) + 2       # days txn -> chargeback
cb_date = txn_date + pd.to_timedelta(lag, unit="D")
extract_date = pd.Timestamp("2024-12-15")
chargebacks = pd.DataFrame({
    "cb_id": [f"CB{i:07d}" for i in range(n_cb)],
    "txn_date": txn_date, "cb_date": cb_date,
    "reason_code": rng.choice(["10.4", "10.5", "13.1", "13.3", "12.6"], n_cb,
                              p=[0.55, 0.05, 0.2, 0.12, 0.08]),
})
chargebacks = chargebacks[chargebacks.cb_date <= extract_date].reset_index(drop=True)
'''

_ALERT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3314)
days = pd.date_range("2024-10-01", periods=28, freq="D")
per_day = rng.integers(2_500, 4_000, len(days))
scored = pd.DataFrame({
    "day": np.repeat(days, per_day),
    "txn_id": np.arange(per_day.sum()) + 77_000_000,
})
scored["is_fraud"] = (rng.random(len(scored)) < 0.006).astype(int)
signal = rng.normal(0, 1, len(scored)) + 2.2 * scored["is_fraud"]
scored["model_score"] = np.round(1 / (1 + np.exp(-(signal - 3.5))), 5)
'''

_VELO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3315)
n_cards = 1_500
k = rng.integers(3, 40, n_cards)
card = np.repeat([f"card_{c:06d}" for c in range(n_cards)], k)
start = pd.Timestamp("2024-11-01")
offsets_min = np.concatenate([np.sort(rng.integers(0, 30 * 24 * 60, m)) for m in k])
auth_log = pd.DataFrame({
    "card_id": card,
    "auth_ts": start + pd.to_timedelta(offsets_min, unit="m"),
    "amount_usd": np.round(rng.lognormal(3.6, 1.0, len(card)), 2),
})
gap = auth_log.groupby("card_id")["auth_ts"].diff().dt.total_seconds().fillna(1e6)
p = 0.004 + 0.05 * (gap < 600)
auth_log["is_fraud"] = (rng.random(len(auth_log)) < p).astype(int)
'''

CASES: list[Case] = [
    Case(
        id="h32-sound-oot-validation-label-maturity",
        family=None,
        split="holdout32",
        setup=_OOT_SETUP,
        note=("out-of-time validation: train Jan-Jun, one-month gap, test Aug-Sep, only on "
              "txns whose 90-day chargeback window has closed; preprocessing inside a Pipeline"),
        code='''from sklearn.compose import ColumnTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler, FunctionTransformer
from sklearn.pipeline import Pipeline
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, average_precision_score

WINDOWS = {
    "train": ("2024-01-01", "2024-06-30"),
    "test": ("2024-08-01", "2024-09-30"),   # July skipped as a gap
}
NUM = ["amount_usd", "card_txn_24h", "card_age_days"]
CAT = ["entry_mode", "issuer_region"]


def window(df, start, end):
    m = (df.txn_ts >= start) & (df.txn_ts < pd.Timestamp(end) + pd.Timedelta(days=1))
    return df[m & df.label_mature]


tr = window(txns, *WINDOWS["train"])
te = window(txns, *WINDOWS["test"])

pre = ColumnTransformer([
    ("num", Pipeline([("log", FunctionTransformer(np.log1p)), ("sc", StandardScaler())]), NUM),
    ("cat", OneHotEncoder(handle_unknown="ignore"), CAT),
])
clf = Pipeline([("pre", pre), ("lr", LogisticRegression(max_iter=2000))])
clf.fit(tr[NUM + CAT], tr["is_fraud"])
p_te = clf.predict_proba(te[NUM + CAT])[:, 1]

print(f"train {len(tr):,} txns ({tr.is_fraud.mean():.2%} fraud) | "
      f"test {len(te):,} txns ({te.is_fraud.mean():.2%} fraud)")
print(f"OOT ROC AUC {roc_auc_score(te.is_fraud, p_te):.3f} | "
      f"PR AUC {average_precision_score(te.is_fraud, p_te):.3f}")
''',
    ),
    Case(
        id="h32-sound-channel-fraud-rate-wilson",
        family=None,
        split="holdout32",
        setup=_CHANNEL_SETUP,
        note=("fraud rate per channel with counts and Wilson 95% intervals; purely descriptive, "
              "no tests or rankings claimed beyond the intervals"),
        code='''from statsmodels.stats.proportion import proportion_confint

tbl = auths.groupby("channel").agg(auths=("auth_id", "size"), fraud=("cb_fraud", "sum"))
lo, hi = proportion_confint(tbl["fraud"], tbl["auths"], alpha=0.05, method="wilson")
tbl["fraud_bps"] = 1e4 * tbl["fraud"] / tbl["auths"]
tbl["ci_lo_bps"], tbl["ci_hi_bps"] = 1e4 * lo, 1e4 * hi
tbl.sort_values("fraud_bps", ascending=False).round(1)
''',
    ),
    Case(
        id="h32-sound-chargeback-lag-mature-cohort",
        family=None,
        split="holdout32",
        setup=_LAG_SETUP,
        note=("chargeback lag distribution computed only on a txn cohort old enough that all its "
              "chargebacks are observed, avoiding right-censoring of recent months"),
        code='''chargebacks["lag_days"] = (chargebacks.cb_date - chargebacks.txn_date).dt.days
EXTRACT = pd.Timestamp("2024-12-15")
MAX_OBS = 180
cohort = chargebacks[chargebacks.txn_date <= EXTRACT - pd.Timedelta(days=MAX_OBS)]
print(f"{len(cohort):,} chargebacks from txns dated <= "
      f"{(EXTRACT - pd.Timedelta(days=MAX_OBS)).date()} (full {MAX_OBS}d window observed)")

q = cohort["lag_days"].quantile([0.5, 0.75, 0.9, 0.95, 0.99]).rename("lag_days")
print(q.to_string())
matured = pd.Series({f"<= {d}d": (cohort.lag_days <= d).mean() for d in (30, 45, 60, 90, 120)},
                    name="share_of_chargebacks_arrived")
matured.round(3)
''',
    ),
    Case(
        id="h32-sound-alert-budget-precision-at-k",
        family=None,
        split="holdout32",
        setup=_ALERT_SETUP,
        note=("daily top-k alert budget evaluated on a scored backtest month: precision@k and "
              "share of fraud captured per budget, with a fixed model (no tuning on these data)"),
        code='''def budget_metrics(df, k):
    top = (df.sort_values(["day", "model_score"], ascending=[True, False])
             .groupby("day").head(k))
    return {"alerts_per_day": k, "precision": top.is_fraud.mean(),
            "fraud_captured": top.is_fraud.sum() / df.is_fraud.sum(),
            "daily_reviews": len(top) / df.day.nunique()}


print(f"{len(scored):,} scored txns over {scored.day.nunique()} days, "
      f"{scored.is_fraud.sum()} confirmed fraud")
pd.DataFrame([budget_metrics(scored, k) for k in (10, 25, 50, 100, 200)]).round(3)
''',
    ),
    Case(
        id="h32-sound-card-velocity-buckets",
        family=None,
        split="holdout32",
        setup=_VELO_SETUP,
        note=("per-card rolling 1h count of prior authorisations, then fraud rate by velocity "
              "bucket with counts; descriptive feature check, every row kept"),
        code='''auth_log = auth_log.sort_values(["card_id", "auth_ts"]).reset_index(drop=True)
velo = (auth_log.set_index("auth_ts").groupby("card_id")["amount_usd"]
        .rolling("1h").count().reset_index(drop=True))
auth_log["n_auth_1h"] = velo.to_numpy() - 1   # exclude the current auth
assert auth_log["n_auth_1h"].min() >= 0

bucket = pd.cut(auth_log["n_auth_1h"], [-1, 0, 1, np.inf], labels=["0", "1", "2+"])
out = auth_log.groupby(bucket, observed=False).agg(auths=("is_fraud", "size"),
                                                    fraud=("is_fraud", "sum"))
out["fraud_rate"] = out["fraud"] / out["auths"]
print(f"{len(auth_log):,} auths on {auth_log.card_id.nunique():,} cards; "
      f"bucketed {out.auths.sum():,}")
out.round(4)
''',
    ),
]
