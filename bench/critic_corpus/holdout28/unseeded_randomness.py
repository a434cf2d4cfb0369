from bench.critic_corpus import Case

SPLIT = "holdout28"

_TOU_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1629)
n_arm = 80
# share of daily consumption in the 16:00-19:00 peak, pre-trial vs trial months
pre = rng.beta(14, 50, 2 * n_arm)
shift = np.r_[rng.normal(-0.006, 0.02, n_arm), rng.normal(0.0, 0.02, n_arm)]
tou = pd.DataFrame({"hh_id": [f"T{i:04d}" for i in range(2 * n_arm)],
                    "arm": ["tou_tariff"] * n_arm + ["flat"] * n_arm,
                    "peak_share_pre": pre.round(4),
                    "peak_share_trial": (pre + shift).round(4)})
tou["delta"] = tou["peak_share_trial"] - tou["peak_share_pre"]
tou.groupby("arm")["delta"].describe().round(4)
'''

_TOU_FLAWED = '''
d_tou = tou.loc[tou.arm == "tou_tariff", "delta"].to_numpy()
d_flat = tou.loc[tou.arm == "flat", "delta"].to_numpy()
obs = d_tou.mean() - d_flat.mean()

pooled = np.concatenate([d_tou, d_flat])
n_perm = 2000
null = np.empty(n_perm)
for i in range(n_perm):
    perm = np.random.permutation(pooled)
    null[i] = perm[:len(d_tou)].mean() - perm[len(d_tou):].mean()
p_perm = (np.sum(null <= obs) + 1) / (n_perm + 1)

print(f"change in peak share, ToU minus flat: {100 * obs:+.2f} pp")
print(f"one-sided permutation p = {p_perm:.4f} "
      f"-> {'significant' if p_perm < 0.05 else 'not significant'} at 5%")
'''

_TOU_SOUND = '''
d_tou = tou.loc[tou.arm == "tou_tariff", "delta"].to_numpy()
d_flat = tou.loc[tou.arm == "flat", "delta"].to_numpy()
obs = d_tou.mean() - d_flat.mean()

pooled = np.concatenate([d_tou, d_flat])
perm_rng = np.random.default_rng(20240611)
n_perm = 20000
null = np.empty(n_perm)
for i in range(n_perm):
    perm = perm_rng.permutation(pooled)
    null[i] = perm[:len(d_tou)].mean() - perm[len(d_tou):].mean()
p_perm = (np.sum(null <= obs) + 1) / (n_perm + 1)
mc_se = np.sqrt(p_perm * (1 - p_perm) / n_perm)

print(f"change in peak share, ToU minus flat: {100 * obs:+.2f} pp")
print(f"one-sided permutation p = {p_perm:.4f} (Monte Carlo SE {mc_se:.4f}, seeded) "
      f"-> {'significant' if p_perm < 0.05 else 'not significant'} at 5%")
'''

_EV_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3232)
n = 2400
ev = pd.DataFrame({
    "site": rng.choice(["depot_a", "depot_b", "retail_park", "workplace"], n),
    "plug_in_hour": rng.choice(np.arange(24), n, p=np.r_[np.full(6, 0.01), np.full(4, 0.06),
                                                           np.full(6, 0.05), np.full(4, 0.07),
                                                           np.full(4, 0.03)]),
    "connected_h": rng.gamma(2.2, 2.0, n).round(2),
    "charger_kw": rng.choice([7.4, 11.0, 22.0, 50.0], n, p=[0.45, 0.25, 0.2, 0.1]),
    "soc_start_pct": rng.uniform(5, 80, n).round(),
    "weekday": rng.integers(0, 7, n),
})
need = (95 - ev["soc_start_pct"]) / 100 * rng.choice([40, 60, 77, 100], n)
ev["kwh_delivered"] = np.minimum(need, ev["charger_kw"] * ev["connected_h"] * 0.9).round(2)
ev = pd.get_dummies(ev, columns=["site"], dtype=int)
ev.head()
'''

_EV_FLAWED = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

X = ev.drop(columns="kwh_delivered")
y = ev["kwh_delivered"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2)

rf = RandomForestRegressor(n_estimators=60, min_samples_leaf=3)
rf.fit(X_tr, y_tr)
mae = mean_absolute_error(y_te, rf.predict(X_te))
print(f"session energy model: MAE {mae:.3f} kWh on {len(y_te)} held-out sessions "
      f"({mae / y_te.mean():.1%} of mean session)")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).head(4).round(3)
'''

_EV_SOUND = '''
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

SEED = 11
X = ev.drop(columns="kwh_delivered")
y = ev["kwh_delivered"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=SEED)

rf = RandomForestRegressor(n_estimators=60, min_samples_leaf=3, random_state=SEED)
rf.fit(X_tr, y_tr)
mae = mean_absolute_error(y_te, rf.predict(X_te))
print(f"session energy model: MAE {mae:.3f} kWh on {len(y_te)} held-out sessions "
      f"({mae / y_te.mean():.1%} of mean session)")
pd.Series(rf.feature_importances_, index=X.columns).sort_values(ascending=False).head(4).round(3)
'''

CASES: list[Case] = [
    Case(
        id="h28-unseeded-tou-permutation-pvalue",
        family="unseeded_randomness",
        setup=_TOU_SETUP,
        code=_TOU_FLAWED,
        twin="h28-unseeded-tou-permutation-pvalue-sound",
        note="permutation p-value near 0.05 comes from np.random.permutation with no seed, so "
             "the reported p (and the significance call) changes on every run",
        split=SPLIT,
    ),
    Case(
        id="h28-unseeded-tou-permutation-pvalue-sound",
        family=None,
        setup=_TOU_SETUP,
        code=_TOU_SOUND,
        twin="h28-unseeded-tou-permutation-pvalue",
        note="same permutation test with a seeded Generator, more permutations and a Monte "
             "Carlo standard error",
        split=SPLIT,
    ),
    Case(
        id="h28-unseeded-ev-session-rf-split",
        family="unseeded_randomness",
        setup=_EV_SETUP,
        code=_EV_FLAWED,
        twin="h28-unseeded-ev-session-rf-split-sound",
        note="train_test_split and the random forest both run without random_state, so the "
             "reported MAE and importances are not reproducible",
        split=SPLIT,
    ),
    Case(
        id="h28-unseeded-ev-session-rf-split-sound",
        family=None,
        setup=_EV_SETUP,
        code=_EV_SOUND,
        twin="h28-unseeded-ev-session-rf-split",
        note="same EV session model with a fixed seed for the split and the forest",
        split=SPLIT,
    ),
]
