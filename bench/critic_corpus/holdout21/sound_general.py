from bench.critic_corpus import Case

CASES: list[Case] = [
    Case(
        id="h21-sound-stroop-mixedlm-log-rt",
        family=None,
        setup="""\
import numpy as np
import pandas as pd

# colour-word Stroop, 30 participants x 96 trials
rng = np.random.default_rng(3003)
rows = []
for p in range(1, 31):
    base = rng.normal(np.log(640), 0.15)
    interference = rng.normal(0.09, 0.04)
    for trial in range(1, 97):
        congruency = ["congruent", "incongruent", "neutral"][trial % 3]
        shift = {"congruent": -0.02, "incongruent": interference, "neutral": 0.0}[congruency]
        rt = np.exp(base + shift + rng.normal(0, 0.22))
        rows.append({"participant": f"p{p:02d}", "trial": trial, "congruency": congruency,
                     "rt_ms": round(rt), "correct": int(rng.random() > 0.04)})
stroop = pd.DataFrame(rows)
stroop.head()
""",
        code="""\
import statsmodels.formula.api as smf

ok = (stroop.correct == 1) & stroop.rt_ms.between(200, 2500)
print(f"Trials kept: {ok.sum()} of {len(stroop)} ({(~ok).sum()} errors or RT outliers removed)")
d = stroop[ok].assign(log_rt=lambda x: np.log(x.rt_ms))
d["incongruent"] = (d.congruency == "incongruent").astype(int)
d["congruent"] = (d.congruency == "congruent").astype(int)

# by-participant random intercepts and random Stroop slopes; neutral is the reference
m = smf.mixedlm("log_rt ~ incongruent + congruent", data=d, groups="participant",
                re_formula="~incongruent").fit(reml=True)
b, (lo, hi) = m.params["incongruent"], m.conf_int().loc["incongruent"]
print(f"Interference (incongruent vs neutral): b = {b:.3f} log units "
      f"= {100 * (np.exp(b) - 1):.1f}% slower [{100 * (np.exp(lo) - 1):.1f}, "
      f"{100 * (np.exp(hi) - 1):.1f}], z = {m.tvalues['incongruent']:.2f}, "
      f"p = {m.pvalues['incongruent']:.2g}; {d.participant.nunique()} participants")
m.fe_params.round(4)
""",
        note="Trial-level log RTs analysed with a mixed model with by-participant random "
             "intercepts and slopes; exclusions are counted and reported.",
        split="holdout21",
    ),
    Case(
        id="h21-sound-item-analysis-kr20-discrimination",
        family=None,
        setup="""\
import numpy as np
import pandas as pd

# Y7 science baseline test: 20 multiple-choice items scored 0/1
rng = np.random.default_rng(2020)
n, k = 310, 20
theta = rng.normal(0, 1, n)
b = np.linspace(-2, 1.6, k)
a = rng.uniform(0.7, 1.8, k)
a[13] = 0.1                              # item 14 turned out to be ambiguous
p = 1 / (1 + np.exp(-a * (theta[:, None] - b)))
responses = pd.DataFrame((rng.random((n, k)) < p).astype(int),
                         columns=[f"Q{j + 1}" for j in range(k)])
responses.head()
""",
        code="""\
X = responses.to_numpy()
n, k = X.shape
total = X.sum(axis=1)

rows = []
for j, item in enumerate(responses.columns):
    rest = total - X[:, j]                         # corrected item-total
    rows.append({"item": item, "difficulty_p": X[:, j].mean(),
                 "r_it_corrected": np.corrcoef(X[:, j], rest)[0, 1]})
items = pd.DataFrame(rows).set_index("item")

p = X.mean(axis=0)
kr20 = k / (k - 1) * (1 - (p * (1 - p)).sum() / total.var(ddof=1))
print(f"N = {n} pupils, k = {k} items, KR-20 = {kr20:.2f}")
print("Items with corrected discrimination < .20:",
      list(items.index[items.r_it_corrected < .20]))
items.round(2).T
""",
        note="Classical item analysis: difficulty, corrected item-rest correlations and KR-20 "
             "computed correctly on complete 0/1 data.",
        split="holdout21",
    ),
    Case(
        id="h21-sound-teacher-survey-chi-square-cramers-v",
        family=None,
        setup="""\
import numpy as np
import pandas as pd

# one responding teacher per school; "How often do you use exit tickets?"
rng = np.random.default_rng(1212)
phase = rng.choice(["primary", "secondary"], p=[0.58, 0.42], size=236)
probs = {"primary": [0.45, 0.35, 0.20], "secondary": [0.25, 0.35, 0.40]}
use = [rng.choice(["weekly+", "sometimes", "rarely"], p=probs[ph]) for ph in phase]
survey = pd.DataFrame({"school_urn": rng.choice(np.arange(100000, 150000), 236,
                                                replace=False),
                       "phase": phase, "exit_tickets": use})
survey.head()
""",
        code="""\
from scipy import stats

tab = pd.crosstab(survey["phase"], survey["exit_tickets"])[["weekly+", "sometimes", "rarely"]]
chi2, p, dof, expected = stats.chi2_contingency(tab)
n = tab.to_numpy().sum()
v = np.sqrt(chi2 / (n * (min(tab.shape) - 1)))

print(f"Smallest expected count = {expected.min():.1f}")
print(f"chi2({dof}, N = {n}) = {chi2:.2f}, p = {p:.3g}, Cramer's V = {v:.2f}")
(pd.crosstab(survey["phase"], survey["exit_tickets"], normalize="index")
 [["weekly+", "sometimes", "rarely"]] * 100).round(1)
""",
        note="Chi-square test of independence on one teacher per school (independent units), "
             "expected counts checked, Cramer's V and row percentages reported.",
        split="holdout21",
    ),
    Case(
        id="h21-sound-counselling-group-wilcoxon-paired",
        family=None,
        setup="""\
import numpy as np
import pandas as pd

# small-group CBT for exam anxiety: Test Anxiety Inventory (20-80) before and after
rng = np.random.default_rng(1414)
pre = np.round(rng.normal(58, 8, 14))
post = np.round(pre - rng.gamma(2.0, 2.5, 14) + rng.normal(0, 3, 14))
tai = pd.DataFrame({"pupil": [f"G{i:02d}" for i in range(1, 15)],
                    "tai_pre": pre, "tai_post": post})
tai
""",
        code="""\
from scipy import stats

diff = tai["tai_post"] - tai["tai_pre"]
res = stats.wilcoxon(tai["tai_post"], tai["tai_pre"])

# matched-pairs rank-biserial correlation
nz = diff[diff != 0]
ranks = stats.rankdata(nz.abs())
r_rb = (ranks[nz > 0].sum() - ranks[nz < 0].sum()) / ranks.sum()

print(f"n = {len(tai)} pupils; Mdn pre = {tai.tai_pre.median():.1f}, "
      f"Mdn post = {tai.tai_post.median():.1f}, Mdn change = {diff.median():.1f}")
print(f"Wilcoxon signed-rank: W = {res.statistic:.1f}, p = {res.pvalue:.3f}, "
      f"rank-biserial r = {r_rb:.2f}")
diff.describe().round(2)
""",
        note="Small paired pre/post sample analysed with a Wilcoxon signed-rank test, medians "
             "and a matched-pairs rank-biserial effect size.",
        split="holdout21",
    ),
    Case(
        id="h21-sound-vocab-ancova-retrieval-practice",
        family=None,
        setup="""\
import numpy as np
import pandas as pd

# lab study: adults individually randomised to retrieval practice or restudy of
# 40 Swahili-English word pairs; pre-test = known pairs, post-test after 48 h
rng = np.random.default_rng(4848)
n = 96
condition = rng.permutation(np.repeat(["restudy", "retrieval"], n // 2))
pre = rng.binomial(40, 0.08, n)
post = np.clip(np.round(8 + 0.9 * pre + 4.5 * (condition == "retrieval")
                        + rng.normal(0, 5, n)), 0, 40)
vocab = pd.DataFrame({"participant": [f"V{i:03d}" for i in range(n)],
                      "condition": condition, "pre": pre, "post": post})
vocab.groupby("condition")[["pre", "post"]].mean().round(2)
""",
        code="""\
import statsmodels.api as sm
import statsmodels.formula.api as smf

# homogeneity of regression slopes first
inter = smf.ols("post ~ C(condition) * pre", data=vocab).fit()
p_int = inter.pvalues["C(condition)[T.retrieval]:pre"]
print(f"Condition x pre-test interaction: p = {p_int:.3f}")

ancova = smf.ols("post ~ C(condition) + pre", data=vocab).fit()
aov = sm.stats.anova_lm(ancova, typ=2)
ss_eff, ss_err = aov.loc["C(condition)", "sum_sq"], aov.loc["Residual", "sum_sq"]
partial_eta2 = ss_eff / (ss_eff + ss_err)
b = ancova.params["C(condition)[T.retrieval]"]
lo, hi = ancova.conf_int().loc["C(condition)[T.retrieval]"]

print(f"F(1, {ancova.df_resid:.0f}) = {aov.loc['C(condition)', 'F']:.2f}, "
      f"p = {aov.loc['C(condition)', 'PR(>F)']:.3g}, partial eta^2 = {partial_eta2:.2f}")
print(f"Adjusted advantage for retrieval practice: {b:.2f} words [{lo:.2f}, {hi:.2f}]")
aov.round(3)
""",
        note="ANCOVA on an individually randomised lab experiment with the pre-test as "
             "covariate, slopes checked, partial eta squared and an adjusted CI reported.",
        split="holdout21",
    ),
]
