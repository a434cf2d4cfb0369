from bench.critic_corpus import Case

SPLIT = "holdout30"

_SLICE_SETUP = '''
import numpy as np

rng = np.random.default_rng(4242)
# cell-attached recordings, CA1 pyramidal cells in acute slices (n = 9 cells, one per mouse)
# spontaneous firing rate (Hz) in the 3 min before and 3 min after bath carbachol (5 uM)
cells = ["c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08", "c09"]
fr_pre = rng.lognormal(0.4, 0.5, 9).round(2)
fr_post = (fr_pre * rng.uniform(1.25, 1.7, 9)).round(2)
fr_post[6] = 41.8          # c07 switched into theta-burst firing
for c, a, b in zip(cells, fr_pre, fr_post):
    print(f"{c}: {a:5.2f} -> {b:5.2f} Hz")
'''

_SLICE_FLAWED = '''
from scipy import stats

diff = fr_post - fr_pre
t, p = stats.ttest_rel(fr_post, fr_pre)
ci = stats.t.interval(0.95, len(diff) - 1, loc=diff.mean(), scale=stats.sem(diff))
print(f"mean change {diff.mean():.2f} Hz, 95% CI [{ci[0]:.2f}, {ci[1]:.2f}]")
print(f"paired t-test: t({len(diff) - 1}) = {t:.2f}, p = {p:.3f}")
if p < 0.05:
    print("carbachol increases spontaneous firing in CA1")
else:
    print("no significant effect of carbachol on spontaneous firing (n = 9 cells)")
'''

_SLICE_SOUND = '''
from scipy import stats

diff = fr_post - fr_pre
ratio = fr_post / fr_pre
# 9 cells and one extreme responder (c07): use the exact signed-rank test, report medians
w = stats.wilcoxon(fr_post, fr_pre, method="exact")
print(f"median change {np.median(diff):.2f} Hz (IQR {np.percentile(diff, 25):.2f} to "
      f"{np.percentile(diff, 75):.2f}); {np.sum(diff > 0)}/{len(diff)} cells increased")
print(f"median fold change {np.median(ratio):.2f}x")
print(f"Wilcoxon signed-rank (exact): W = {w.statistic:.0f}, p = {w.pvalue:.4f}")
if w.pvalue < 0.05:
    print("carbachol increases spontaneous firing in CA1")
else:
    print("no significant effect of carbachol on spontaneous firing (n = 9 cells)")
'''

_SEIZ_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(12)
# intrahippocampal kainate mice, electrographic seizures counted over 72 h of video-EEG
veh = rng.negative_binomial(1.2, 1.2 / (1.2 + 9), 7)
low = rng.negative_binomial(1.2, 1.2 / (1.2 + 5), 7)
high = rng.negative_binomial(0.4, 0.4 / (0.4 + 1.5), 7)
seiz = pd.DataFrame({
    "mouse": [f"KA{i:02d}" for i in range(1, 22)],
    "dose": ["vehicle"] * 7 + ["3 mg/kg"] * 7 + ["10 mg/kg"] * 7,
    "n_seizures": np.concatenate([veh, low, high]),
})
seiz.groupby("dose", sort=False).n_seizures.agg(list)
'''

_SEIZ_FLAWED = '''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(seiz.groupby("dose", sort=False).n_seizures.agg(["mean", "std", "count"]).round(2))
fit = smf.ols("n_seizures ~ C(dose)", data=seiz).fit()
aov = sm.stats.anova_lm(fit, typ=2)
print(aov.round(3))
F, p = aov.loc["C(dose)", "F"], aov.loc["C(dose)", "PR(>F)"]
print(f"\\none-way ANOVA: F(2, {int(fit.df_resid)}) = {F:.2f}, p = {p:.3f} -> "
      f"{'dose effect' if p < 0.05 else 'no significant effect of compound on seizure burden'}")
'''

_SEIZ_SOUND = '''
from scipy import stats

print(seiz.groupby("dose", sort=False).n_seizures.agg(["median", "min", "max", "count"]))
# counts per mouse are overdispersed and zero-heavy with n = 7/group -> rank-based test
groups = [g.to_numpy() for _, g in seiz.groupby("dose", sort=False).n_seizures]
H, p = stats.kruskal(*groups)
print(f"\\nKruskal-Wallis: H(2) = {H:.2f}, p = {p:.3f} -> "
      f"{'dose effect' if p < 0.05 else 'no significant effect of compound on seizure burden'}")
'''

CASES: list[Case] = [
    Case(
        id="h30-param-carbachol-paired-ttest",
        family="parametric_assumptions",
        setup=_SLICE_SETUP,
        code=_SLICE_FLAWED,
        twin="h30-param-carbachol-paired-ttest-ok",
        note="Paired t-test and t CI on 9 cells where one cell's change is ~40 Hz against ~1 Hz "
             "for the rest; the outlier inflates the SD and the 'no effect' call rests on it.",
        split=SPLIT,
    ),
    Case(
        id="h30-param-carbachol-paired-ttest-ok",
        family=None,
        setup=_SLICE_SETUP,
        code=_SLICE_SOUND,
        twin="h30-param-carbachol-paired-ttest",
        note="Exact Wilcoxon signed-rank test with medians for 9 paired cells with an extreme "
             "responder.",
        split=SPLIT,
    ),
    Case(
        id="h30-param-seizure-count-anova",
        family="parametric_assumptions",
        setup=_SEIZ_SETUP,
        code=_SEIZ_FLAWED,
        twin="h30-param-seizure-count-anova-ok",
        note="One-way ANOVA on overdispersed, zero-heavy seizure counts with 7 mice per group; "
             "the unequal, skewed variances drive the non-significant result.",
        split=SPLIT,
    ),
    Case(
        id="h30-param-seizure-count-anova-ok",
        family=None,
        setup=_SEIZ_SETUP,
        code=_SEIZ_SOUND,
        twin="h30-param-seizure-count-anova",
        note="Kruskal-Wallis on per-mouse seizure counts, reported with medians and ranges.",
        split=SPLIT,
    ),
]
