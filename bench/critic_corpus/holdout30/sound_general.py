from bench.critic_corpus import Case

SPLIT = "holdout30"

_TUNING_SETUP = '''
import numpy as np

rng = np.random.default_rng(1907)
oris = np.arange(0, 180, 22.5)                   # 8 orientations, 15 repeats each
n_cells, n_rep = 40, 15
pref = rng.uniform(0, 180, n_cells)
kappa = rng.uniform(0.5, 3.0, n_cells)
amp = rng.gamma(2, 0.15, n_cells)
tuned = rng.random(n_cells) < 0.7
resp = np.empty((n_cells, len(oris), n_rep))     # mean dF/F during the 2 s grating
for c in range(n_cells):
    mu = 0.02 + tuned[c] * amp[c] * np.exp(kappa[c] * (np.cos(np.deg2rad(2 * (oris - pref[c])))
                                                           - 1))
    resp[c] = mu[:, None] + rng.normal(0, 0.05, (len(oris), n_rep))
print(resp.shape, "cells x orientations x repeats")
'''

_TUNING_CODE = '''
from scipy.optimize import curve_fit

def vonmises_ori(theta, base, a, pref, kappa):
    return base + a * np.exp(kappa * (np.cos(np.deg2rad(2 * (theta - pref))) - 1))

# split repeats in halves: fit on odd repeats, check goodness on even (avoids fitting noise)
fit_half, test_half = resp[:, :, 1::2].mean(2), resp[:, :, ::2].mean(2)
rows = []
for c in range(n_cells):
    y = fit_half[c]
    p0 = [y.min(), np.ptp(y), oris[np.argmax(y)], 1.0]
    try:
        popt, _ = curve_fit(vonmises_ori, oris, y, p0=p0, maxfev=5000,
                            bounds=([-1, 0, -90, 0.01], [1, 5, 270, 20]))
    except RuntimeError:
        rows.append((c, np.nan, np.nan, np.nan))
        continue
    pred = vonmises_ori(oris, *popt)
    yt = test_half[c]
    r2_held = 1 - np.sum((yt - pred) ** 2) / np.sum((yt - yt.mean()) ** 2)
    rp, rn = vonmises_ori(popt[2], *popt), vonmises_ori(popt[2] + 90, *popt)
    osi = (rp - rn) / (rp + rn) if rp + rn > 0 else np.nan
    rows.append((c, popt[2] % 180, osi, r2_held))

fits = np.array(rows)
ok = fits[:, 3] > 0.5
print(f"fits attempted: {n_cells}, failed: {np.isnan(fits[:, 3]).sum()}, "
      f"held-out R^2 > 0.5: {ok.sum()}")
print(f"median OSI of well-fit cells: {np.nanmedian(fits[ok, 2]):.2f} "
      f"(IQR {np.nanpercentile(fits[ok, 2], 25):.2f}-{np.nanpercentile(fits[ok, 2], 75):.2f})")
counts, edges = np.histogram(fits[ok, 1], bins=np.arange(0, 181, 45))
print("preferred orientation (deg) bins:",
      {int(e): int(k) for e, k in zip(edges[:-1], counts)})
'''

_OPTO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2468)
# VGAT-ChR2 mice, S1 inhibition on a random 25% of trials, within-mouse design
rows = []
for m in range(9):
    mouse = f"VC{m + 1:02d}"
    mu = rng.normal(5.85, 0.12)
    slope = rng.normal(0.08, 0.03)                     # mouse-specific laser effect (log RT)
    n = int(rng.integers(250, 400))
    laser = (rng.random(n) < 0.25).astype(int)
    log_rt = mu + slope * laser + rng.normal(0, 0.22, n)
    rows.append(pd.DataFrame({"mouse": mouse, "laser": laser, "rt_ms": np.exp(log_rt)}))
beh = pd.concat(rows, ignore_index=True)
beh["log_rt"] = np.log(beh.rt_ms)
beh.groupby(["mouse", "laser"]).rt_ms.median().unstack().round(0)
'''

_OPTO_CODE = '''
import statsmodels.formula.api as smf

# laser varies within mouse: random intercept and random laser slope per mouse
mm = smf.mixedlm("log_rt ~ laser", beh, groups=beh["mouse"], re_formula="~laser")
fit = mm.fit(reml=True, method="lbfgs")
b, se = fit.fe_params["laser"], fit.bse_fe["laser"]
lo, hi = b - 1.96 * se, b + 1.96 * se
print(f"{beh.mouse.nunique()} mice, {len(beh)} trials ({beh.laser.mean():.0%} laser)")
print(f"laser effect on log RT: {b:.3f} (SE {se:.3f}), p = {fit.pvalues['laser']:.2g}")
print(f"-> RT x{np.exp(b):.3f} with S1 inhibition, 95% CI x{np.exp(lo):.3f} to x{np.exp(hi):.3f}")
print(f"between-mouse SD of the laser effect: {np.sqrt(fit.cov_re.loc['laser', 'laser']):.3f}")
'''

_DPRIME_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(31337)
# auditory go/no-go, d' per mouse on training day 1 and day 7
mice = [f"AG{i:02d}" for i in range(1, 13)]
d1 = rng.normal(0.7, 0.35, 12)
d7 = d1 + rng.normal(0.9, 0.4, 12)
dprime = pd.DataFrame({"mouse": mice, "day1": d1.round(2), "day7": d7.round(2)})
dprime
'''

_DPRIME_CODE = '''
from scipy import stats

diff = dprime["day7"] - dprime["day1"]
print(f"n = {len(diff)} mice; day7 - day1 d': mean {diff.mean():.2f}, SD {diff.std():.2f}")
print(f"Shapiro-Wilk on the paired differences: p = {stats.shapiro(diff).pvalue:.2f}")
t = stats.ttest_rel(dprime["day7"], dprime["day1"])
ci = t.confidence_interval(0.95)
print(f"paired t-test: t({t.df}) = {t.statistic:.2f}, p = {t.pvalue:.2g}, "
      f"95% CI of the improvement [{ci.low:.2f}, {ci.high:.2f}]")
print(f"{(diff > 0).sum()}/{len(diff)} mice improved; dz = {diff.mean() / diff.std():.2f}")
'''

_GKF_SETUP = '''
import numpy as np

rng = np.random.default_rng(5150)
# natural-scene category (2 classes) from IT multi-unit activity, 3 recording sessions
n_sessions, per_sess, n_sites = 3, 140, 32
X_list, y_list, g_list = [], [], []
axis = rng.normal(0, 1, n_sites)
for s in range(n_sessions):
    y = rng.integers(0, 2, per_sess)
    sess_offset = rng.normal(0, 0.8, n_sites)          # electrode impedance drift per session
    X = sess_offset + 0.35 * np.outer(y - 0.5, axis) + rng.normal(0, 1, (per_sess, n_sites))
    X_list.append(X)
    y_list.append(y)
    g_list.append(np.full(per_sess, s))
X, y, sess = np.vstack(X_list), np.concatenate(y_list), np.concatenate(g_list)
print(X.shape, "trials x sites;", np.bincount(sess))
'''

_GKF_CODE = '''
from sklearn.linear_model import RidgeClassifier
from sklearn.model_selection import LeaveOneGroupOut, permutation_test_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

clf = make_pipeline(StandardScaler(), RidgeClassifier(alpha=10.0))
logo = LeaveOneGroupOut()                       # train on 2 sessions, test on the held-out one
score, perm_scores, p = permutation_test_score(
    clf, X, y, groups=sess, cv=logo, n_permutations=99, random_state=7, n_jobs=1,
)
print(f"leave-one-session-out accuracy: {score:.3f}")
print(f"permutation null: {perm_scores.mean():.3f} +/- {perm_scores.std():.3f}, p = {p:.3f}")
'''

_PSY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(8642)
# one rat, auditory frequency discrimination, 8 stimulus levels, 5 sessions pooled
octaves = np.linspace(-1, 1, 8)                       # octaves from the category boundary
n_tr = rng.integers(70, 110, 8)
p_true = 0.04 + 0.92 / (1 + np.exp(-(octaves - 0.08) / 0.22))
n_right = rng.binomial(n_tr, p_true)
psy = pd.DataFrame({"octaves": octaves.round(3), "n_trials": n_tr, "n_right": n_right})
psy["p_right"] = (psy.n_right / psy.n_trials).round(3)
psy
'''

_PSY_CODE = '''
import statsmodels.api as sm

# binomial GLM (logit link) on counts: successes and failures per stimulus level
endog = np.column_stack([psy.n_right, psy.n_trials - psy.n_right])
exog = sm.add_constant(psy[["octaves"]])
glm = sm.GLM(endog, exog, family=sm.families.Binomial()).fit()
b0, b1 = glm.params["const"], glm.params["octaves"]
pse = -b0 / b1
# delta-method SE for the point of subjective equality
V = glm.cov_params().to_numpy()
grad = np.array([-1 / b1, b0 / b1 ** 2])
se_pse = np.sqrt(grad @ V @ grad)
print(f"slope = {b1:.2f} per octave (SE {glm.bse['octaves']:.2f})")
print(f"PSE = {pse:+.3f} octaves, 95% CI [{pse - 1.96 * se_pse:+.3f}, {pse + 1.96 * se_pse:+.3f}]")
print(f"deviance {glm.deviance:.1f} on {int(glm.df_resid)} df (Pearson chi2 "
      f"{glm.pearson_chi2:.1f})")
'''

CASES: list[Case] = [
    Case(
        id="h30-sound-vonmises-orientation-tuning",
        family=None,
        setup=_TUNING_SETUP,
        code=_TUNING_CODE,
        note="Von Mises tuning fits on half the repeats, goodness checked on the other half; "
             "failed fits and the cell count kept are reported.",
        split=SPLIT,
    ),
    Case(
        id="h30-sound-opto-rt-random-slopes",
        family=None,
        setup=_OPTO_SETUP,
        code=_OPTO_CODE,
        note="Within-mouse laser effect on log RT from a mixed model with random intercepts "
             "and slopes per mouse.",
        split=SPLIT,
    ),
    Case(
        id="h30-sound-dprime-paired-learning",
        family=None,
        setup=_DPRIME_SETUP,
        code=_DPRIME_CODE,
        note="Paired t-test of per-mouse d' day 7 vs day 1 with roughly normal differences, "
             "CI and effect size.",
        split=SPLIT,
    ),
    Case(
        id="h30-sound-it-leave-session-out-decoder",
        family=None,
        setup=_GKF_SETUP,
        code=_GKF_CODE,
        note="Decoder in a scaling pipeline, leave-one-session-out CV and a seeded label "
             "permutation test.",
        split=SPLIT,
    ),
    Case(
        id="h30-sound-psychometric-binomial-glm",
        family=None,
        setup=_PSY_SETUP,
        code=_PSY_CODE,
        note="Binomial GLM on per-level counts for one rat, PSE with a delta-method CI and a "
             "deviance check.",
        split=SPLIT,
    ),
]
