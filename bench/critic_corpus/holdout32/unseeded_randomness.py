from bench.critic_corpus import Case

_PAYOUT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3301)
n = 30_000
payouts = pd.DataFrame({
    "payout_id": [f"PO{i:09d}" for i in range(n)],
    "amount_usd": np.round(rng.lognormal(4.3, 1.2, n), 2),
    "acct_age_days": rng.integers(0, 1_500, n),
    "new_payee": (rng.random(n) < 0.18).astype(int),
    "pw_reset_24h": (rng.random(n) < 0.03).astype(int),
    "device_change_7d": rng.poisson(0.3, n),
    "login_fail_24h": rng.poisson(0.4, n),
    "ip_risk": np.round(rng.beta(1.2, 8, n), 3),
})
logit = (-6.3 + 0.3 * np.log1p(payouts.amount_usd) - 0.002 * payouts.acct_age_days
         + 1.2 * payouts.new_payee + 1.8 * payouts.pw_reset_24h + 0.5 * payouts.device_change_7d
         + 0.3 * payouts.login_fail_24h + 3.0 * payouts.ip_risk)
payouts["is_ato"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
FEATS = ["amount_usd", "acct_age_days", "new_payee", "pw_reset_24h", "device_change_7d",
         "login_fail_24h", "ip_risk"]
'''

_PROMO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3302)
n = 25_000
signups = pd.DataFrame({
    "user_id": np.arange(n) + 4_000_000,
    "email_domain_age_d": rng.integers(0, 5_000, n),
    "devices_seen_with_promo": rng.poisson(0.4, n),
    "card_bin_reuse": rng.poisson(0.3, n),
})
abuse_p = 1 / (1 + np.exp(-(-4.0 + 0.9 * signups.devices_seen_with_promo
                               + 0.8 * signups.card_bin_reuse
                               - 0.0004 * signups.email_domain_age_d)))
signups["promo_abuse"] = (rng.random(n) < abuse_p).astype(int)   # labels after 45d review
'''

CASES: list[Case] = [
    Case(
        id="h32-unseeded-randomness-ato-downsample-rf",
        family="unseeded_randomness",
        split="holdout32",
        twin="h32-unseeded-randomness-ato-downsample-rf-sound",
        setup=_PAYOUT_SETUP,
        note=("the split, the negative downsampling and the random forest are all unseeded, so "
              "the AUC / PR-AUC quoted to 4 decimals changes on every run"),
        code='''from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, average_precision_score

CFG = {"test_size": 0.3, "neg_keep": 0.15, "n_trees": 80, "min_leaf": 5}

train_df, test_df = train_test_split(payouts, test_size=CFG["test_size"],
                                     stratify=payouts["is_ato"])
pos = train_df[train_df.is_ato == 1]
neg = train_df[train_df.is_ato == 0].sample(frac=CFG["neg_keep"])
train_ds = pd.concat([pos, neg])
print(f"train after downsampling: {len(train_ds):,} rows, ATO share {train_ds.is_ato.mean():.2%}")

rf = RandomForestClassifier(n_estimators=CFG["n_trees"], min_samples_leaf=CFG["min_leaf"],
                            n_jobs=1)
rf.fit(train_ds[FEATS], train_ds["is_ato"])
p = rf.predict_proba(test_df[FEATS])[:, 1]
print(f"payout ATO model | ROC AUC {roc_auc_score(test_df.is_ato, p):.4f} "
      f"| PR AUC {average_precision_score(test_df.is_ato, p):.4f}")
''',
    ),
    Case(
        id="h32-unseeded-randomness-ato-downsample-rf-sound",
        family=None,
        split="holdout32",
        twin="h32-unseeded-randomness-ato-downsample-rf",
        setup=_PAYOUT_SETUP,
        note=("same split, negative downsampling and random forest, each with a fixed seed from "
              "the config, so the reported AUC / PR-AUC are reproducible"),
        code='''from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score, average_precision_score

CFG = {"seed": 1337, "test_size": 0.3, "neg_keep": 0.15, "n_trees": 80, "min_leaf": 5}

train_df, test_df = train_test_split(payouts, test_size=CFG["test_size"],
                                     stratify=payouts["is_ato"], random_state=CFG["seed"])
pos = train_df[train_df.is_ato == 1]
neg = train_df[train_df.is_ato == 0].sample(frac=CFG["neg_keep"], random_state=CFG["seed"])
train_ds = pd.concat([pos, neg])
print(f"train after downsampling: {len(train_ds):,} rows, ATO share {train_ds.is_ato.mean():.2%}")

rf = RandomForestClassifier(n_estimators=CFG["n_trees"], min_samples_leaf=CFG["min_leaf"],
                            n_jobs=1, random_state=CFG["seed"])
rf.fit(train_ds[FEATS], train_ds["is_ato"])
p = rf.predict_proba(test_df[FEATS])[:, 1]
print(f"payout ATO model | ROC AUC {roc_auc_score(test_df.is_ato, p):.4f} "
      f"| PR AUC {average_precision_score(test_df.is_ato, p):.4f}")
''',
    ),
    Case(
        id="h32-unseeded-randomness-promo-rule-bootstrap",
        family="unseeded_randomness",
        split="holdout32",
        twin="h32-unseeded-randomness-promo-rule-bootstrap-sound",
        setup=_PROMO_SETUP,
        note=("bootstrap CI for the promo-abuse rule's precision is drawn with np.random.choice "
              "from the unseeded global state, so the CI bounds differ on each run"),
        code='''RULE = "devices_seen_with_promo >= 2 or card_bin_reuse >= 2"   # PROMO_DEV_BIN_2
rule_hit = signups.eval(RULE).to_numpy()
y = signups["promo_abuse"].to_numpy()
hits = y[rule_hit]
precision = hits.mean()
recall = hits.sum() / y.sum()

B = 2_000
boot = np.array([np.random.choice(hits, size=len(hits), replace=True).mean() for _ in range(B)])
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"rule PROMO_DEV_BIN_2 fires on {rule_hit.mean():.2%} of signups ({rule_hit.sum():,})")
print(f"precision {precision:.4f}  95% CI [{lo:.4f}, {hi:.4f}]  recall {recall:.3f}")
''',
    ),
    Case(
        id="h32-unseeded-randomness-promo-rule-bootstrap-sound",
        family=None,
        split="holdout32",
        twin="h32-unseeded-randomness-promo-rule-bootstrap",
        setup=_PROMO_SETUP,
        note=("same bootstrap CI for rule precision, drawn from a seeded numpy Generator so the "
              "reported bounds are reproducible"),
        code='''RULE = "devices_seen_with_promo >= 2 or card_bin_reuse >= 2"   # PROMO_DEV_BIN_2
rule_hit = signups.eval(RULE).to_numpy()
y = signups["promo_abuse"].to_numpy()
hits = y[rule_hit]
precision = hits.mean()
recall = hits.sum() / y.sum()

B = 2_000
boot_rng = np.random.default_rng(20240611)
boot = boot_rng.choice(hits, size=(B, len(hits)), replace=True).mean(axis=1)
lo, hi = np.percentile(boot, [2.5, 97.5])
print(f"rule PROMO_DEV_BIN_2 fires on {rule_hit.mean():.2%} of signups ({rule_hit.sum():,})")
print(f"precision {precision:.4f}  95% CI [{lo:.4f}, {hi:.4f}]  recall {recall:.3f}")
''',
    ),
]
