from bench.critic_corpus import Case

_PILOT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3265)
n_m = 24
base = rng.beta(2, 250, n_m)                 # merchants differ a lot in baseline fraud
vol = rng.integers(400, 2500, n_m)
arm = ["step_up"] * 12 + ["control"] * 12    # step-up auth switched on per merchant
fraud = [(rng.random(v) < b).astype(int) for v, b in zip(vol, base)]
merchant_ids = [f"MID{m:07d}" for m in rng.choice(9_999_999, n_m, replace=False)]
pilot_txns = pd.concat([
    pd.DataFrame({"merchant_id": m, "pilot_arm": a, "fraud_confirmed": f})
    for m, a, f in zip(merchant_ids, arm, fraud)
], ignore_index=True)
pilot_txns["amount_usd"] = np.round(rng.lognormal(3.5, 0.9, len(pilot_txns)), 2)
'''

_KEYSTROKE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3268)
n_ato, n_gen = 22, 58
n_acct = n_ato + n_gen
ato = np.r_[np.ones(n_ato), np.zeros(n_gen)].astype(int)
acct_mu = rng.normal(185, 40, n_acct)        # each account holder types at their own pace
k = rng.integers(15, 70, n_acct)
acct = np.repeat(np.arange(n_acct), k)
sessions = pd.DataFrame({
    "account_id": [f"acct_{a:05d}" for a in acct],
    "ato_confirmed": ato[acct],
    "inter_key_ms": np.round(acct_mu[acct] + rng.normal(0, 35, k.sum()), 1),
})
sessions["device_os"] = rng.choice(["ios", "android", "web"], len(sessions), p=[0.4, 0.4, 0.2])
'''

CASES: list[Case] = [
    Case(
        id="h32-pseudoreplication-stepup-pilot-txn-level-chi2",
        family="pseudoreplication",
        split="holdout32",
        twin="h32-pseudoreplication-stepup-pilot-txn-level-chi2-sound",
        setup=_PILOT_SETUP,
        note=("step-up auth was assigned per merchant (12 vs 12) but the chi-square test treats "
              "~35k transactions as independent units, ignoring merchant clustering"),
        code='''from scipy.stats import chi2_contingency

ct = pd.crosstab(pilot_txns["pilot_arm"], pilot_txns["fraud_confirmed"])
chi2, p, dof, _ = chi2_contingency(ct)
bps = pilot_txns.groupby("pilot_arm")["fraud_confirmed"].mean() * 1e4
print(ct)
print(f"fraud bps  control={bps['control']:.1f}  step_up={bps['step_up']:.1f}")
print(f"chi2={chi2:.2f}, p={p:.2g}  (n={len(pilot_txns):,} txns)")
print("step-up auth cuts fraud -> roll out to all merchants" if p < 0.05 else "no effect")
''',
    ),
    Case(
        id="h32-pseudoreplication-stepup-pilot-txn-level-chi2-sound",
        family=None,
        split="holdout32",
        twin="h32-pseudoreplication-stepup-pilot-txn-level-chi2",
        setup=_PILOT_SETUP,
        note=("the merchant is the unit of assignment, so fraud rates are aggregated per merchant "
              "and the 12 vs 12 merchant rates are compared with a rank test"),
        code='''from scipy.stats import mannwhitneyu

per_merchant = (pilot_txns.groupby(["merchant_id", "pilot_arm"])["fraud_confirmed"]
                .agg(n_txn="count", n_fraud="sum").reset_index())
per_merchant["fraud_bps"] = 1e4 * per_merchant["n_fraud"] / per_merchant["n_txn"]
step = per_merchant.loc[per_merchant.pilot_arm == "step_up", "fraud_bps"]
ctl = per_merchant.loc[per_merchant.pilot_arm == "control", "fraud_bps"]
u, p = mannwhitneyu(step, ctl, alternative="two-sided")
print(per_merchant.groupby("pilot_arm")["fraud_bps"].describe().round(1))
print(f"merchant-level Mann-Whitney U={u:.0f}, p={p:.3f}  (n={len(step)} vs {len(ctl)} merchants)")
print("step-up auth cuts fraud -> roll out to all merchants" if p < 0.05 else "no effect")
''',
    ),
    Case(
        id="h32-pseudoreplication-keystroke-sessions-ols",
        family="pseudoreplication",
        split="holdout32",
        twin="h32-pseudoreplication-keystroke-sessions-ols-sound",
        setup=_KEYSTROKE_SETUP,
        note=("OLS with default standard errors on ~3.5k login sessions from 80 accounts; "
              "sessions of the same account are treated as independent, so p is far too small"),
        code='''import statsmodels.formula.api as smf

print(f"{len(sessions):,} sessions from {sessions.account_id.nunique()} accounts")
m = smf.ols("inter_key_ms ~ ato_confirmed + C(device_os)", data=sessions).fit()
print(m.summary().tables[1])
eff, p = m.params["ato_confirmed"], m.pvalues["ato_confirmed"]
print(f"ATO sessions type {eff:+.1f} ms/key slower (p={p:.1e}) -> ship as biometric feature")
''',
    ),
    Case(
        id="h32-pseudoreplication-keystroke-sessions-ols-sound",
        family=None,
        split="holdout32",
        twin="h32-pseudoreplication-keystroke-sessions-ols",
        setup=_KEYSTROKE_SETUP,
        note=("same OLS but with standard errors clustered on account_id (80 clusters), so "
              "repeated sessions of one account are not counted as independent evidence"),
        code='''import statsmodels.formula.api as smf

print(f"{len(sessions):,} sessions from {sessions.account_id.nunique()} accounts")
m = smf.ols("inter_key_ms ~ ato_confirmed + C(device_os)", data=sessions).fit(
    cov_type="cluster", cov_kwds={"groups": sessions["account_id"]},
)
print(m.summary().tables[1])
eff, p = m.params["ato_confirmed"], m.pvalues["ato_confirmed"]
print(f"ATO effect {eff:+.1f} ms/key, account-clustered p={p:.3f}")
''',
    ),
]
