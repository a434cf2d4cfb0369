from bench.critic_corpus import Case

_OPIOID_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)
rng = np.random.default_rng(SEED)
n_block, n_none = 11, 13
pain = pd.DataFrame({
    "mrn": [f"{rng.integers(1000000, 9999999)}" for _ in range(n_block + n_none)],
    "group": ["ESP block"] * n_block + ["no block"] * n_none,
    "age": rng.normal(58, 11, n_block + n_none).round(),
    # oral morphine milligram equivalents, first 48 h after laparotomy (from eMAR)
    "mme_48h": np.r_[rng.lognormal(np.log(45), 0.55, n_block),
                     rng.lognormal(np.log(85), 0.55, n_none)].round(1),
})
# two block patients with failed catheters needed PCA escalation
pain.loc[[2, 7], "mme_48h"] = [612.0, 388.5]
'''

_RAT_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(SEED)
n = 150
pcr_pos = rng.binomial(1, 0.14, n)
ct = np.where(pcr_pos == 1, rng.normal(22, 4, n).round(1), np.nan)
p_detect = np.where(pcr_pos == 1, 1 / (1 + np.exp(0.55 * (ct - 30))), 0.012)
rat = pd.DataFrame({
    "swab_id": [f"RAT{22000 + i}" for i in range(n)],
    "collected": pd.Timestamp("2023-01-09") + pd.to_timedelta(rng.integers(0, 60, n), "D"),
    "days_since_onset": rng.integers(0, 8, n),
    "pcr_result": np.where(pcr_pos == 1, "DETECTED", "NOT DETECTED"),
    "pcr_ct": ct,
    "antigen_result": np.where(rng.random(n) < p_detect, "positive", "negative"),
})
'''

_OPIOID_SEED = "77"
_RAT_SEED = "20"

CASES: list[Case] = [
    Case(
        id="h23-param-opioid-mme-ttest",
        family="parametric_assumptions",
        split="holdout23",
        twin="h23-param-opioid-mme-ttest-ok",
        setup=_OPIOID_SETUP.replace("SEED", _OPIOID_SEED),
        note="Student t-test and mean (SD) on 11 vs 13 heavily right-skewed opioid doses with two "
             "extreme outliers; 'no difference' conclusion rests on the t-test.",
        code='''
from scipy import stats


def mean_sd(x):
    return f"{x.mean():.1f} ({x.std():.1f})"


block = pain.loc[pain.group == "ESP block", "mme_48h"]
none = pain.loc[pain.group == "no block", "mme_48h"]
t, p = stats.ttest_ind(block, none)
summary = pain.groupby("group")["mme_48h"].agg(n="size", mean_sd=mean_sd)
print(summary)
print(f"\\nDifference in mean MME {block.mean() - none.mean():.1f} mg, t = {t:.2f}, p = {p:.3f}")
print("ESP block did not significantly reduce 48-h opioid consumption.")
''',
    ),
    Case(
        id="h23-param-opioid-mme-ttest-ok",
        family=None,
        split="holdout23",
        twin="h23-param-opioid-mme-ttest",
        setup=_OPIOID_SETUP.replace("SEED", _OPIOID_SEED),
        note="Skewed small-sample opioid doses summarised as median (IQR) and compared with an "
             "exact Mann-Whitney U test.",
        code='''
from scipy import stats


def median_iqr(x):
    q1, q2, q3 = x.quantile([0.25, 0.5, 0.75])
    return f"{q2:.1f} ({q1:.1f}-{q3:.1f})"


block = pain.loc[pain.group == "ESP block", "mme_48h"]
none = pain.loc[pain.group == "no block", "mme_48h"]
u = stats.mannwhitneyu(block, none, alternative="two-sided", method="exact")
summary = pain.groupby("group")["mme_48h"].agg(n="size", median_iqr=median_iqr)
print(summary)
print(f"\\nMann-Whitney U = {u.statistic:.0f}, exact p = {u.pvalue:.3f}")
print(f"Median MME {block.median():.1f} mg with block vs {none.median():.1f} mg without.")
''',
    ),
    Case(
        id="h23-param-antigen-wald-ci",
        family="parametric_assumptions",
        split="holdout23",
        twin="h23-param-antigen-wald-ci-ok",
        setup=_RAT_SETUP.replace("SEED", _RAT_SEED),
        note="Wald (normal-approximation) CIs for sensitivity near 100% with ~20 PCR positives; "
             "the upper limit is clipped and the 'meets the 80% target' claim relies on it.",
        code='''
from scipy.stats import norm

tab = pd.crosstab(rat.antigen_result, rat.pcr_result)
tp, fn = tab.loc["positive", "DETECTED"], tab.loc["negative", "DETECTED"]
tn, fp = tab.loc["negative", "NOT DETECTED"], tab.loc["positive", "NOT DETECTED"]
z = norm.ppf(0.975)


def wald(k, n):
    p = k / n
    half = z * np.sqrt(p * (1 - p) / n)
    return p, max(p - half, 0), min(p + half, 1)


out = {}
for name, k, m in [("sensitivity", tp, tp + fn), ("specificity", tn, tn + fp)]:
    p, lo, hi = wald(k, m)
    out[name] = f"{k}/{m} = {p:.1%} (95% CI {lo:.1%}-{hi:.1%})"
print(tab, end="\\n\\n")
for k, v in out.items():
    print(f"{k:12s} {v}")
lower = wald(tp, tp + fn)[1]
print(f"Lower bound of sensitivity {lower:.1%} exceeds the 80% WHO target: {lower > 0.80}")
''',
    ),
    Case(
        id="h23-param-antigen-wald-ci-ok",
        family=None,
        split="holdout23",
        twin="h23-param-antigen-wald-ci",
        setup=_RAT_SETUP.replace("SEED", _RAT_SEED),
        note="Same 2x2 table with exact Clopper-Pearson intervals, appropriate for a proportion "
             "near 1 with few positives.",
        code='''
from statsmodels.stats.proportion import proportion_confint

tab = pd.crosstab(rat.antigen_result, rat.pcr_result)
tp, fn = tab.loc["positive", "DETECTED"], tab.loc["negative", "DETECTED"]
tn, fp = tab.loc["negative", "NOT DETECTED"], tab.loc["positive", "NOT DETECTED"]


def exact(k, n):
    lo, hi = proportion_confint(k, n, alpha=0.05, method="beta")
    return k / n, lo, hi


out = {}
for name, k, m in [("sensitivity", tp, tp + fn), ("specificity", tn, tn + fp)]:
    p, lo, hi = exact(k, m)
    out[name] = f"{k}/{m} = {p:.1%} (95% CI {lo:.1%}-{hi:.1%})"
print(tab, end="\\n\\n")
for k, v in out.items():
    print(f"{k:12s} {v}")
lower = exact(tp, tp + fn)[1]
print(f"Lower bound of sensitivity {lower:.1%} exceeds the 80% WHO target: {lower > 0.80}")
''',
    ),
]
