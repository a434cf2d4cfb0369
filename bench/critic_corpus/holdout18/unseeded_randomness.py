from bench.critic_corpus import Case

_CHECKOUT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5522)
n = 5200
exp_users = pd.DataFrame({
    "user_id": rng.choice(np.arange(10**6, 2 * 10**6), n, replace=False),
    "arm": rng.choice(["control", "one_page_checkout"], n),
    "platform": rng.choice(["web", "app"], n, p=[0.6, 0.4]),
})
p = np.where(exp_users["arm"] == "one_page_checkout", 0.112, 0.101)
exp_users["purchased"] = (rng.random(n) < p).astype(int)
exp_users["revenue_usd"] = np.where(exp_users["purchased"] == 1,
                                    np.round(rng.lognormal(3.6, 0.6, n), 2), 0.0)
'''

_LOYALTY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6006)
n = 1100
members = pd.DataFrame({
    "member_id": np.arange(n) + 70000,
    "tenure_months": rng.integers(1, 60, n),
    "points_balance": np.round(rng.lognormal(6, 1.1, n)),
    "redemptions_90d": rng.poisson(1.1, n),
    "visits_90d": rng.poisson(6, n),
    "avg_basket_usd": np.round(rng.gamma(5, 8, n), 2),
    "app_user": rng.integers(0, 2, n),
    "tier": rng.choice([1, 2, 3, 4], n, p=[0.5, 0.3, 0.15, 0.05]),
})
lin = (0.6 - 0.25 * members["visits_90d"] - 0.4 * members["redemptions_90d"]
       - 0.01 * members["tenure_months"] + 0.2 * (members["app_user"] == 0))
members["lapsed_next_q"] = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(int)
feature_cols = ["tenure_months", "points_balance", "redemptions_90d", "visits_90d",
                "avg_basket_usd", "app_user", "tier"]
'''

CASES: list[Case] = [
    Case(
        id="h18-unseeded_randomness-checkout-bootstrap-uplift",
        family="unseeded_randomness",
        setup=_CHECKOUT_SETUP,
        code='''ctrl = exp_users.loc[exp_users["arm"] == "control", "purchased"].to_numpy()
treat = exp_users.loc[exp_users["arm"] == "one_page_checkout", "purchased"].to_numpy()
observed = treat.mean() / ctrl.mean() - 1

boot = []
for _ in range(1000):
    c = np.random.choice(ctrl, size=len(ctrl), replace=True)
    t = np.random.choice(treat, size=len(treat), replace=True)
    boot.append(t.mean() / c.mean() - 1)
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"conversion: control {ctrl.mean():.2%} | one-page checkout {treat.mean():.2%}")
print(f"relative uplift {observed:+.1%}  (95% bootstrap CI {lo:+.1%} to {hi:+.1%})")
print(f"P(uplift <= 0) ~ {np.mean(np.array(boot) <= 0):.3f}")
''',
        twin="h18-unseeded_randomness-checkout-bootstrap-uplift-ok",
        note="The bootstrap draws from numpy's unseeded global generator, so the reported CI "
             "bounds and P(uplift<=0) change every time the cell is re-run.",
        split="holdout18",
    ),
    Case(
        id="h18-unseeded_randomness-checkout-bootstrap-uplift-ok",
        family=None,
        setup=_CHECKOUT_SETUP,
        code='''ctrl = exp_users.loc[exp_users["arm"] == "control", "purchased"].to_numpy()
treat = exp_users.loc[exp_users["arm"] == "one_page_checkout", "purchased"].to_numpy()
observed = treat.mean() / ctrl.mean() - 1

boot_rng = np.random.default_rng(20240917)
boot = []
for _ in range(1000):
    c = boot_rng.choice(ctrl, size=len(ctrl), replace=True)
    t = boot_rng.choice(treat, size=len(treat), replace=True)
    boot.append(t.mean() / c.mean() - 1)
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"conversion: control {ctrl.mean():.2%} | one-page checkout {treat.mean():.2%}")
print(f"relative uplift {observed:+.1%}  (95% bootstrap CI {lo:+.1%} to {hi:+.1%})")
print(f"P(uplift <= 0) ~ {np.mean(np.array(boot) <= 0):.3f}")
''',
        twin="h18-unseeded_randomness-checkout-bootstrap-uplift",
        note="Same percentile bootstrap, drawn from a seeded Generator so the reported interval "
             "is reproducible.",
        split="holdout18",
    ),
    Case(
        id="h18-unseeded_randomness-loyalty-lapse-forest",
        family="unseeded_randomness",
        setup=_LOYALTY_SETUP,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

X_tr, X_te, y_tr, y_te = train_test_split(members[feature_cols], members["lapsed_next_q"],
                                          test_size=0.25, stratify=members["lapsed_next_q"])
forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5)
forest.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, forest.predict_proba(X_te)[:, 1])

imp = pd.Series(forest.feature_importances_, index=feature_cols).sort_values(ascending=False)
print(f"lapse model: holdout AUC {auc:.3f} on {len(y_te)} members "
      f"(lapse rate {y_te.mean():.1%})")
print((imp * 100).round(1).astype(str).add("%").to_string())
''',
        twin="h18-unseeded_randomness-loyalty-lapse-forest-ok",
        note="Neither the train/test split nor the random forest has a random_state, so the "
             "reported AUC and importances differ on every run.",
        split="holdout18",
    ),
    Case(
        id="h18-unseeded_randomness-loyalty-lapse-forest-ok",
        family=None,
        setup=_LOYALTY_SETUP,
        code='''from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

X_tr, X_te, y_tr, y_te = train_test_split(members[feature_cols], members["lapsed_next_q"],
                                          test_size=0.25, stratify=members["lapsed_next_q"],
                                          random_state=17)
forest = RandomForestClassifier(n_estimators=150, min_samples_leaf=5, random_state=17)
forest.fit(X_tr, y_tr)
auc = roc_auc_score(y_te, forest.predict_proba(X_te)[:, 1])

imp = pd.Series(forest.feature_importances_, index=feature_cols).sort_values(ascending=False)
print(f"lapse model: holdout AUC {auc:.3f} on {len(y_te)} members "
      f"(lapse rate {y_te.mean():.1%})")
print((imp * 100).round(1).astype(str).add("%").to_string())
''',
        twin="h18-unseeded_randomness-loyalty-lapse-forest",
        note="The split and the forest are both seeded, so the reported AUC and importances are "
             "reproducible.",
        split="holdout18",
    ),
]
