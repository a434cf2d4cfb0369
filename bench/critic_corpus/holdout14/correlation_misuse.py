from bench.critic_corpus import Case

_AUDIO_SETUP = '''
import numpy as np

rng = np.random.default_rng(6061)
freqs_hz = np.array([500, 1000, 2000, 4000, 8000])
n_ears = 64
true_hl = np.clip(rng.normal(28, 17, (n_ears, 1)) + rng.normal(0, 8, (n_ears, 5))
                  + np.array([0, 2, 6, 14, 20]), -10, 110)
manual = 5 * np.round((true_hl + rng.normal(0, 3, true_hl.shape)) / 5)       # dB HL, 5-dB steps
automated = np.round(true_hl * 1.08 + 4.5 + rng.normal(0, 4.5, true_hl.shape))  # 1-dB steps
print(f"{n_ears} ears, thresholds at {freqs_hz.tolist()} Hz; manual vs tablet audiometry")
'''

_AUDIO_FLAWED = '''
from scipy import stats

print(f"{'freq_Hz':>8} {'r':>6} {'95% CI':>14} {'p':>10}")
for k, f in enumerate(freqs_hz):
    res = stats.pearsonr(manual[:, k], automated[:, k])
    ci = res.confidence_interval()
    print(f"{f:>8} {res.statistic:6.3f} {ci.low:6.3f}-{ci.high:6.3f} {res.pvalue:10.2e}")
r_all = stats.pearsonr(manual.ravel(), automated.ravel()).statistic
print(f"pooled r = {r_all:.3f}: tablet audiometry agrees closely with manual audiometry "
      f"and can replace it for screening")
'''

_AUDIO_SOUND = '''
print(f"{'freq_Hz':>8} {'bias_dB':>8} {'LoA_low':>8} {'LoA_high':>9} {'|d|>10dB':>9}")
for k, f in enumerate(freqs_hz):
    d = automated[:, k] - manual[:, k]
    bias, sd = d.mean(), d.std(ddof=1)
    print(f"{f:>8} {bias:8.1f} {bias - 1.96 * sd:8.1f} {bias + 1.96 * sd:9.1f} "
          f"{np.mean(np.abs(d) > 10):9.1%}")
d_all = (automated - manual).ravel()
mean_pair = ((automated + manual) / 2).ravel()
slope = np.polyfit(mean_pair, d_all, 1)[0]
print(f"pooled bias {d_all.mean():.1f} dB, 95% limits of agreement "
      f"{d_all.mean() - 1.96 * d_all.std(ddof=1):.1f} to "
      f"{d_all.mean() + 1.96 * d_all.std(ddof=1):.1f} dB; "
      f"difference vs mean slope {slope:.3f} dB/dB (proportional bias)")
'''

_SURVEY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1789)
n = 1150
region = rng.integers(1, 8, n)           # 1 North East ... 7 London
tenure = rng.choice([1, 2, 3, 4], n, p=[0.35, 0.28, 0.2, 0.17])  # outright/mortg/PRS/social
work = rng.choice([1, 2, 3, 4, 5], n, p=[0.55, 0.06, 0.08, 0.24, 0.07])  # emp/unemp/stud/ret/home
age = np.clip(rng.normal(48, 17, n), 18, 90).round()
yrs_edu = np.clip(rng.normal(13, 2.8, n), 8, 22).round()
trust = (5.2 + 0.10 * (yrs_edu - 13) - 0.6 * (tenure == 4) + 0.5 * (tenure == 1)
         - 0.7 * (work == 2) + 0.35 * (region == 7) + rng.normal(0, 1.9, n))
svy = pd.DataFrame({
    "trust_index": np.clip(trust, 0, 10).round(1), "age": age, "yrs_edu": yrs_edu,
    "region": region, "tenure": tenure, "work_status": work,
})
svy.head()
'''

_SURVEY_FLAWED = '''
from scipy import stats

r = svy.corr(method="pearson")["trust_index"].drop("trust_index")
order = r.abs().sort_values(ascending=False).index
n = len(svy)
t = r * np.sqrt((n - 2) / (1 - r ** 2))
p = 2 * stats.t.sf(np.abs(t), n - 2)
summary = pd.DataFrame({"r": r, "r2_pct": 100 * r ** 2, "p": p}).loc[order]
print(f"correlates of institutional trust (N = {n})")
summary.round(4)
'''

_SURVEY_SOUND = '''
from scipy import stats
import statsmodels.formula.api as smf

n = len(svy)
rows = {}
for col in ["age", "yrs_edu"]:
    rho, p = stats.spearmanr(svy[col], svy.trust_index)
    rows[col] = {"measure": "Spearman rho", "value": rho, "p": p}
for col in ["region", "tenure", "work_status"]:
    fit = smf.ols(f"trust_index ~ C({col})", data=svy).fit()
    rows[col] = {"measure": "eta^2 (one-way)", "value": fit.rsquared, "p": fit.f_pvalue}
summary = pd.DataFrame(rows).T.astype({"value": float, "p": float}).round(4)
print(f"associations with institutional trust (N = {n}); nominal codes treated as categories")
summary
'''

CASES: list[Case] = [
    Case(
        id="h14-corr-audiometry-agreement-pearson",
        family="correlation_misuse",
        setup=_AUDIO_SETUP,
        code=_AUDIO_FLAWED,
        twin="h14-corr-audiometry-bland-altman",
        note="High Pearson r is taken as agreement between two audiometers although the tablet "
             "reads ~7 dB higher with proportional bias; correlation cannot show agreement.",
        split="holdout14",
    ),
    Case(
        id="h14-corr-audiometry-bland-altman",
        family=None,
        setup=_AUDIO_SETUP,
        code=_AUDIO_SOUND,
        twin="h14-corr-audiometry-agreement-pearson",
        note="Agreement assessed with Bland-Altman bias, limits of agreement and a check for "
             "proportional bias.",
        split="holdout14",
    ),
    Case(
        id="h14-corr-survey-trust-pearson-on-codes",
        family="correlation_misuse",
        setup=_SURVEY_SETUP,
        code=_SURVEY_FLAWED,
        twin="h14-corr-survey-trust-eta-squared",
        note="Pearson correlations of trust with nominal integer codes (region, housing tenure, "
             "work status), whose arbitrary order makes r and its p meaningless.",
        split="holdout14",
    ),
    Case(
        id="h14-corr-survey-trust-eta-squared",
        family=None,
        setup=_SURVEY_SETUP,
        code=_SURVEY_SOUND,
        twin="h14-corr-survey-trust-pearson-on-codes",
        note="Numeric covariates get Spearman rho; nominal codes are treated as categories with "
             "one-way ANOVA eta-squared.",
        split="holdout14",
    ),
]
