from bench.critic_corpus import Case

_CMJ_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(2718)
athletes = [f"ATH{i:02d}" for i in range(1, 11)]
rows = []
for a in athletes:
    base = rng.normal(38, 3)                    # cm
    for phase, shift in (("pre", 0.0), ("post", -0.9)):
        session = rng.normal(0, 2.4)           # day-to-day readiness
        for rep in range(1, 16):
            rows.append({"athlete": a, "phase": phase, "rep": rep,
                         "jump_cm": round(base + shift + session + rng.normal(0, 1.1), 1)})
cmj = pd.DataFrame(rows)
cmj.groupby("phase").jump_cm.agg(["count", "mean", "std"]).round(2)
'''

_CMJ_FLAWED = '''
from scipy import stats

pre = cmj.loc[cmj.phase == "pre", "jump_cm"].to_numpy()
post = cmj.loc[cmj.phase == "post", "jump_cm"].to_numpy()
t, p = stats.ttest_ind(pre, post)
diff = pre.mean() - post.mean()
se = np.sqrt(pre.var(ddof=1) / len(pre) + post.var(ddof=1) / len(post))
print(f"CMJ height pre {pre.mean():.2f} cm vs post {post.mean():.2f} cm "
      f"(n = {len(pre)} + {len(post)})")
print(f"fatigue decrement {diff:.2f} cm, 95% CI {diff - 1.96 * se:.2f} to {diff + 1.96 * se:.2f}")
print(f"t({len(pre) + len(post) - 2}) = {t:.2f}, p = {p:.4f}")
'''

_CMJ_SOUND = '''
from scipy import stats

per_ath = cmj.pivot_table(index="athlete", columns="phase", values="jump_cm", aggfunc="mean")
d = per_ath["pre"] - per_ath["post"]
t, p = stats.ttest_rel(per_ath["pre"], per_ath["post"])
ci = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
print(f"CMJ height pre {per_ath['pre'].mean():.2f} cm vs post {per_ath['post'].mean():.2f} cm "
      f"(n = {len(per_ath)} athletes, 15 jumps each averaged)")
print(f"fatigue decrement {d.mean():.2f} cm, 95% CI {ci[0]:.2f} to {ci[1]:.2f}")
print(f"paired t({len(d) - 1}) = {t:.2f}, p = {p:.4f}")
'''

_IOP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(909)
n_pat = 46
arm = np.repeat(["latanoprost", "netarsudil"], n_pat // 2)
patient_effect = rng.normal(0, 2.6, n_pat)
rows = []
for i in range(n_pat):
    for eye in ("OD", "OS"):
        base = rng.normal(24.5, 2.0)
        drop = 7.0 + (0.9 if arm[i] == "netarsudil" else 0.0) + patient_effect[i]
        rows.append({"patient": f"P{i + 1:03d}", "arm": arm[i], "eye": eye,
                     "iop_base": round(base, 1),
                     "iop_12wk": round(base - drop + rng.normal(0, 0.9), 1)})
eyes = pd.DataFrame(rows)
eyes["iop_reduction"] = eyes.iop_base - eyes.iop_12wk
eyes.head(6)
'''

_IOP_FLAWED = '''
import statsmodels.formula.api as smf

fit = smf.ols("iop_reduction ~ C(arm, Treatment('latanoprost')) + iop_base", data=eyes).fit()
term = "C(arm, Treatment('latanoprost'))[T.netarsudil]"
lo, hi = fit.conf_int().loc[term]
print(f"eyes analysed: {int(fit.nobs)}")
print(f"additional IOP reduction with netarsudil: {fit.params[term]:.2f} mmHg "
      f"(95% CI {lo:.2f} to {hi:.2f}), p = {fit.pvalues[term]:.4f}")
fit.summary2().tables[1].round(4)
'''

_IOP_SOUND = '''
import statsmodels.formula.api as smf

fit = smf.mixedlm("iop_reduction ~ C(arm, Treatment('latanoprost')) + iop_base",
                  data=eyes, groups=eyes["patient"]).fit(reml=True)
term = "C(arm, Treatment('latanoprost'))[T.netarsudil]"
lo, hi = fit.conf_int().loc[term]
print(f"eyes analysed: {len(eyes)} from {eyes.patient.nunique()} patients "
      f"(random intercept per patient)")
print(f"additional IOP reduction with netarsudil: {fit.params[term]:.2f} mmHg "
      f"(95% CI {lo:.2f} to {hi:.2f}), p = {fit.pvalues[term]:.4f}")
fit.summary().tables[1]
'''

CASES: list[Case] = [
    Case(
        id="h14-pseudorep-cmj-jumps-as-independent",
        family="pseudoreplication",
        setup=_CMJ_SETUP,
        code=_CMJ_FLAWED,
        twin="h14-pseudorep-cmj-athlete-means-paired",
        note="150 jumps per phase from only 10 athletes (15 reps each, same athletes pre and "
             "post) fed to an independent-samples t-test, inflating n and ignoring clustering.",
        split="holdout14",
    ),
    Case(
        id="h14-pseudorep-cmj-athlete-means-paired",
        family=None,
        setup=_CMJ_SETUP,
        code=_CMJ_SOUND,
        twin="h14-pseudorep-cmj-jumps-as-independent",
        note="Jumps averaged within athlete and phase, then a paired t-test over the 10 "
             "athletes.",
        split="holdout14",
    ),
    Case(
        id="h14-pseudorep-iop-both-eyes-ols",
        family="pseudoreplication",
        setup=_IOP_SETUP,
        code=_IOP_FLAWED,
        twin="h14-pseudorep-iop-both-eyes-mixedlm",
        note="Treatment is randomised per patient but both eyes enter OLS as independent "
             "observations, so the between-eye correlation is ignored and the SE is too small.",
        split="holdout14",
    ),
    Case(
        id="h14-pseudorep-iop-both-eyes-mixedlm",
        family=None,
        setup=_IOP_SETUP,
        code=_IOP_SOUND,
        twin="h14-pseudorep-iop-both-eyes-ols",
        note="Linear mixed model with a random intercept per patient accounts for the two "
             "correlated eyes of each patient.",
        split="holdout14",
    ),
]
