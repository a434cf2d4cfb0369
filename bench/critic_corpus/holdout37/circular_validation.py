from bench.critic_corpus import Case

_LAME_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3705)
herd_sizes = {"H01": 140, "H02": 95, "H03": 210, "H04": 120, "H05": 160, "H06": 110}
rows = []
for herd, n in herd_sizes.items():
    lame = rng.binomial(1, 0.24, n)
    # % change in daily steps vs the cow's own 14-day baseline, from the leg pedometer
    step_change = np.where(lame == 1, rng.normal(-14, 11, n), rng.normal(-2, 10, n))
    rows.append(pd.DataFrame({"herd": herd, "cow": [f"{herd}-{i:03d}" for i in range(n)],
                              "step_change_pct": step_change.round(1),
                              "loco_score": np.where(lame == 1, rng.choice([3, 4, 5], n,
                                                     p=[0.6, 0.3, 0.1]),
                                                     rng.choice([1, 2], n, p=[0.55, 0.45]))}))
ped = pd.concat(rows, ignore_index=True)
ped["lame"] = (ped.loco_score >= 3).astype(int)
'''

_MILK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3706)
n = 260
first = pd.DataFrame({
    "td1_kg": rng.normal(31, 6, n), "td2_kg": rng.normal(34, 6, n),
    "td3_kg": rng.normal(33, 6, n), "fat_pct": rng.normal(4.1, 0.4, n),
    "prot_pct": rng.normal(3.4, 0.25, n), "dim_td1": rng.integers(5, 35, n),
    "parity": rng.integers(1, 7, n), "bcs_calving": rng.normal(3.1, 0.35, n),
})
mgmt = pd.DataFrame(rng.normal(0, 1, (n, 40)), columns=[f"mgmt_{i:02d}" for i in range(40)])
lact = pd.concat([first, mgmt], axis=1)
lact["m305_kg"] = (1500 + 95 * lact.td1_kg + 80 * lact.td2_kg + 60 * lact.td3_kg
                   - 400 * (lact.fat_pct - 4.1) + 120 * np.minimum(lact.parity, 3)
                   + rng.normal(0, 650, n)).round()
'''

CASES = [
    Case(
        id="h37-circ-pedometer-youden-same-cows",
        family="circular_validation",
        twin="h37-circ-pedometer-calib-herds",
        setup=_LAME_SETUP,
        code='''def se_sp(df, cut):
    flagged = df.step_change_pct <= cut
    se = (flagged & (df.lame == 1)).sum() / (df.lame == 1).sum()
    sp = (~flagged & (df.lame == 0)).sum() / (df.lame == 0).sum()
    return se, sp

cuts = np.arange(-30, 5.5, 0.5)
youden = {c: sum(se_sp(ped, c)) - 1 for c in cuts}
best_cut = max(youden, key=youden.get)
se, sp = se_sp(ped, best_cut)

print(f"{len(ped)} cows in {ped.herd.nunique()} herds, {ped.lame.mean():.1%} lame (score >= 3)")
print(f"alert rule: step change <= {best_cut:.1f} % vs baseline")
print(f"pedometer lameness alert: sensitivity {se:.1%}, specificity {sp:.1%}, "
      f"Youden J = {youden[best_cut]:.3f}")
''',
        note="The alert cut-off is chosen to maximise Youden's J on all cows and the "
             "sensitivity/specificity at that cut-off are reported on the same cows (optimistic).",
        split="holdout37",
    ),
    Case(
        id="h37-circ-pedometer-calib-herds",
        family=None,
        twin="h37-circ-pedometer-youden-same-cows",
        setup=_LAME_SETUP,
        code='''def se_sp(df, cut):
    flagged = df.step_change_pct <= cut
    se = (flagged & (df.lame == 1)).sum() / (df.lame == 1).sum()
    sp = (~flagged & (df.lame == 0)).sum() / (df.lame == 0).sum()
    return se, sp

# cut-off is set on the calibration herds, accuracy is reported on herds not used to set it
calib = ped[ped.herd.isin(["H01", "H02", "H03", "H04"])]
valid = ped[ped.herd.isin(["H05", "H06"])]

cuts = np.arange(-30, 5.5, 0.5)
youden = {c: sum(se_sp(calib, c)) - 1 for c in cuts}
best_cut = max(youden, key=youden.get)
se, sp = se_sp(valid, best_cut)

print(f"calibration: {len(calib)} cows, validation: {len(valid)} cows in H05/H06")
print(f"alert rule (set on calibration herds): step change <= {best_cut:.1f} %")
print(f"validation herds: sensitivity {se:.1%}, specificity {sp:.1%}, J = {se + sp - 1:.3f}")
''',
        note="Cut-off is tuned on four calibration herds and sensitivity/specificity are "
             "reported on two separate validation herds.",
        split="holdout37",
    ),
    Case(
        id="h37-circ-m305-lasso-alpha-on-test",
        family="circular_validation",
        twin="h37-circ-m305-lassocv-train",
        setup=_MILK_SETUP,
        code='''from sklearn.linear_model import Lasso
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import train_test_split
from sklearn.metrics import r2_score, mean_absolute_error

X = lact.drop(columns="m305_kg")
y = lact["m305_kg"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=305)

results = {}
for alpha in [0.1, 1, 5, 10, 25, 50, 100, 200, 400, 800]:
    m = make_pipeline(StandardScaler(), Lasso(alpha=alpha, max_iter=20000)).fit(X_tr, y_tr)
    pred = m.predict(X_te)
    results[alpha] = (r2_score(y_te, pred), mean_absolute_error(y_te, pred))

tab = pd.DataFrame(results, index=["R2", "MAE_kg"]).T
print(tab.round(3))
best = tab["R2"].idxmax()
print(f"\\nfinal 305-d yield model: alpha = {best}, test R2 = {tab.loc[best, 'R2']:.3f}, "
      f"MAE = {tab.loc[best, 'MAE_kg']:.0f} kg")
''',
        note="The Lasso penalty is chosen by its score on the test cows and that best test R2 "
             "is then reported as the final model's performance.",
        split="holdout37",
    ),
    Case(
        id="h37-circ-m305-lassocv-train",
        family=None,
        twin="h37-circ-m305-lasso-alpha-on-test",
        setup=_MILK_SETUP,
        code='''from sklearn.linear_model import LassoCV
from sklearn.preprocessing import StandardScaler
from sklearn.pipeline import make_pipeline
from sklearn.model_selection import train_test_split, KFold
from sklearn.metrics import r2_score, mean_absolute_error

X = lact.drop(columns="m305_kg")
y = lact["m305_kg"]
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=305)

# alpha chosen by 5-fold CV inside the training cows; the test cows are scored once
alphas = [0.1, 1, 5, 10, 25, 50, 100, 200, 400, 800]
m = make_pipeline(StandardScaler(),
                  LassoCV(alphas=alphas, cv=KFold(5, shuffle=True, random_state=305),
                          max_iter=20000)).fit(X_tr, y_tr)
pred = m.predict(X_te)
print(f"alpha chosen by CV on training cows: {m[-1].alpha_}")
print(f"non-zero coefficients: {(m[-1].coef_ != 0).sum()} of {X.shape[1]}")
print(f"305-d yield model, test cows: R2 = {r2_score(y_te, pred):.3f}, "
      f"MAE = {mean_absolute_error(y_te, pred):.0f} kg")
''',
        note="The penalty is tuned by cross-validation within the training cows and the test "
             "set is evaluated once with the chosen model.",
        split="holdout37",
    ),
]
