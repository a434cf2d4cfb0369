from bench.critic_corpus import Case

_PRIMING_SETUP = """\
import numpy as np
import pandas as pd

# lexical decision with semantic primes; 24 participants x 120 word trials
rng = np.random.default_rng(7)
rows = []
for p in range(1, 25):
    speed = rng.normal(0, 80)
    priming = rng.normal(-10, 38)        # participants differ in how much priming helps
    for trial in range(1, 121):
        prime = "related" if rng.random() < 0.5 else "unrelated"
        rt = (560 + speed + (priming if prime == "related" else 0)
              + rng.normal(0, 90) + rng.exponential(110))
        rows.append({"participant": f"s{p:02d}", "trial": trial, "prime": prime,
                     "rt_ms": round(rt), "correct": int(rng.random() > 0.05)})
ldt = pd.DataFrame(rows)
ldt.head()
"""

_READING_SETUP = """\
import numpy as np
import pandas as pd

# cluster-randomised: 12 Y5 classes, 6 taught with reciprocal teaching
rng = np.random.default_rng(14)
rows = []
for c in range(12):
    arm = "reciprocal_teaching" if c % 2 == 0 else "business_as_usual"
    class_effect = rng.normal(0, 5.5)
    for i in range(int(rng.integers(19, 29))):
        pre = rng.normal(100, 12)
        post = (20 + 0.8 * pre + class_effect + (2.5 if arm == "reciprocal_teaching" else 0)
                + rng.normal(0, 7))
        rows.append({"pupil": f"c{c:02d}p{i:02d}", "class_id": f"5{'ABCDEFGHJKLM'[c]}",
                     "school": f"sch{c // 3 + 1}", "arm": arm,
                     "reading_pre": round(pre, 1), "reading_post": round(post, 1)})
pupils = pd.DataFrame(rows)
pupils.groupby(["arm", "class_id"]).size().unstack(0)
"""

CASES: list[Case] = [
    Case(
        id="h21-pseudoreplication-priming-trials-ttest-ind",
        family="pseudoreplication",
        setup=_PRIMING_SETUP,
        code="""\
from scipy import stats

clean = ldt[(ldt.correct == 1) & ldt.rt_ms.between(200, 2000)]
print(f"Excluded {1 - len(clean) / len(ldt):.1%} of trials (errors, RT < 200 or > 2000 ms)")

rel = clean.loc[clean.prime == "related", "rt_ms"]
unr = clean.loc[clean.prime == "unrelated", "rt_ms"]
t, p = stats.ttest_ind(rel, unr)
df = len(rel) + len(unr) - 2
d = (rel.mean() - unr.mean()) / np.sqrt((rel.var() + unr.var()) / 2)

print(f"Related: M = {rel.mean():.0f} ms, unrelated: M = {unr.mean():.0f} ms")
print(f"Priming effect = {unr.mean() - rel.mean():.1f} ms, t({df}) = {t:.2f}, "
      f"p = {p:.4f}, d = {d:.2f}")
""",
        twin="h21-pseudoreplication-priming-participant-means-paired",
        note="About 2,700 trials from 24 participants are entered into an independent-samples "
             "t-test as if independent; df and p are inflated by the repeated trials.",
        split="holdout21",
    ),
    Case(
        id="h21-pseudoreplication-priming-participant-means-paired",
        family=None,
        setup=_PRIMING_SETUP,
        code="""\
from scipy import stats

clean = ldt[(ldt.correct == 1) & ldt.rt_ms.between(200, 2000)]
print(f"Excluded {1 - len(clean) / len(ldt):.1%} of trials (errors, RT < 200 or > 2000 ms)")

# one mean per participant and prime type, then a within-subject comparison
cell = clean.groupby(["participant", "prime"])["rt_ms"].mean().unstack()
diff = cell["unrelated"] - cell["related"]
t, p = stats.ttest_rel(cell["related"], cell["unrelated"])
dz = diff.mean() / diff.std()

print(f"Related: M = {cell['related'].mean():.0f} ms, "
      f"unrelated: M = {cell['unrelated'].mean():.0f} ms")
print(f"Priming effect = {diff.mean():.1f} ms, t({len(cell) - 1}) = {t:.2f}, "
      f"p = {p:.3f}, dz = {dz:.2f}")
""",
        twin="h21-pseudoreplication-priming-trials-ttest-ind",
        note="Trials are averaged within participant and condition and compared with a paired "
             "t-test on the 24 participants, the unit of replication.",
        split="holdout21",
    ),
    Case(
        id="h21-pseudoreplication-reciprocal-teaching-ols-pupils",
        family="pseudoreplication",
        setup=_READING_SETUP,
        code="""\
import statsmodels.formula.api as smf

m = smf.ols("reading_post ~ C(arm) + reading_pre", data=pupils).fit()
term = "C(arm)[T.reciprocal_teaching]"
ci = m.conf_int().loc[term]
print(f"N = {int(m.nobs)} pupils")
print(f"Reciprocal teaching effect (adjusted for pre-test): b = {m.params[term]:.2f} "
      f"[{ci[0]:.2f}, {ci[1]:.2f}], t({int(m.df_resid)}) = {m.tvalues[term]:.2f}, "
      f"p = {m.pvalues[term]:.4f}")
m.summary2().tables[1].round(3)
""",
        twin="h21-pseudoreplication-reciprocal-teaching-mixedlm",
        note="Whole classes were randomised, but the effect is tested with pupil-level OLS "
             "ignoring class clustering; 12 classes are treated as 285 independent pupils.",
        split="holdout21",
    ),
    Case(
        id="h21-pseudoreplication-reciprocal-teaching-mixedlm",
        family=None,
        setup=_READING_SETUP,
        code="""\
import statsmodels.formula.api as smf

# classes were randomised, so class gets a random intercept
m = smf.mixedlm("reading_post ~ C(arm) + reading_pre", data=pupils,
                groups="class_id").fit(reml=True)
term = "C(arm)[T.reciprocal_teaching]"
ci = m.conf_int().loc[term]
tau2, sigma2 = m.cov_re.iloc[0, 0], m.scale
print(f"N = {int(m.nobs)} pupils in {pupils.class_id.nunique()} classes, "
      f"residual ICC = {tau2 / (tau2 + sigma2):.2f}")
print(f"Reciprocal teaching effect (adjusted for pre-test): b = {m.params[term]:.2f} "
      f"[{ci[0]:.2f}, {ci[1]:.2f}], z = {m.tvalues[term]:.2f}, p = {m.pvalues[term]:.3f}")
m.summary().tables[1]
""",
        twin="h21-pseudoreplication-reciprocal-teaching-ols-pupils",
        note="A mixed model with a random intercept for class respects the cluster-randomised "
             "design, so the treatment effect's SE reflects 12 randomised classes.",
        split="holdout21",
    ),
]
