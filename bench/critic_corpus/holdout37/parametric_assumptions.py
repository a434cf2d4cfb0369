from bench.critic_corpus import Case

_FEC_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3709)
# McMaster counts (1 egg = 50 epg), day 14 after drenching, Texel-cross lambs
def mcmaster(mean_epg, k, n):
    eggs = rng.negative_binomial(k, k / (k + mean_epg / 50), n)
    return eggs * 50

fec = pd.DataFrame({
    "lamb": [f"L{i:03d}" for i in range(30)],
    "drench": ["ivermectin"] * 15 + ["moxidectin"] * 15,
    "epg_d14": np.concatenate([mcmaster(420, 0.35, 15), mcmaster(90, 0.2, 15)]),
})
'''

_SERO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3710)
districts = {"Alto": (22, 0.05), "Bajo": (38, 0.02), "Cerro": (18, 0.11), "Delta": (45, 0.04),
             "Este": (26, 0.0), "Llano": (31, 0.08), "Monte": (20, 0.03)}
# one randomly selected flock per row; flock positive = at least one RBT/CFT reactor
flocks = pd.concat([
    pd.DataFrame({"district": d, "flock_id": [f"{d[:2].upper()}{i:03d}" for i in range(n)],
                  "brucella_pos": rng.binomial(1, p, n)})
    for d, (n, p) in districts.items()
], ignore_index=True)
'''

CASES = [
    Case(
        id="h37-param-fec-ttest-mean-ci",
        family="parametric_assumptions",
        twin="h37-param-fec-mannwhitney",
        setup=_FEC_SETUP,
        code='''from scipy import stats

summ = fec.groupby("drench")["epg_d14"].agg(["count", "mean", "std"])
summ["ci_low"] = summ["mean"] - 1.96 * summ["std"] / np.sqrt(summ["count"])
summ["ci_high"] = summ["mean"] + 1.96 * summ["std"] / np.sqrt(summ["count"])
print(summ.round(1))

iver = fec.loc[fec.drench == "ivermectin", "epg_d14"]
moxi = fec.loc[fec.drench == "moxidectin", "epg_d14"]
t, p = stats.ttest_ind(iver, moxi)
print(f"\\nivermectin vs moxidectin, day-14 FEC: t = {t:.2f}, P = {p:.3f}")
''',
        note="Faecal egg counts of 15 lambs per group are zero-inflated and highly overdispersed "
             "(negative binomial), yet compared with a t-test and mean +/- 1.96 SE intervals.",
        split="holdout37",
    ),
    Case(
        id="h37-param-fec-mannwhitney",
        family=None,
        twin="h37-param-fec-ttest-mean-ci",
        setup=_FEC_SETUP,
        code='''from scipy import stats

# egg counts are aggregated (many zeros, a few very high lambs): rank test and medians
summ = fec.groupby("drench")["epg_d14"].agg(
    n="count", median="median",
    q1=lambda s: s.quantile(0.25), q3=lambda s: s.quantile(0.75),
    zero_pct=lambda s: 100 * (s == 0).mean(), max="max")
print(summ.round(1))

iver = fec.loc[fec.drench == "ivermectin", "epg_d14"]
moxi = fec.loc[fec.drench == "moxidectin", "epg_d14"]
u, p = stats.mannwhitneyu(iver, moxi, alternative="two-sided")
print(f"\\nivermectin vs moxidectin, day-14 FEC: Mann-Whitney U = {u:.0f}, P = {p:.3f}")
''',
        note="Overdispersed, zero-heavy egg counts are summarised by medians/IQR and compared "
             "with a Mann-Whitney test, which does not assume normality.",
        split="holdout37",
    ),
    Case(
        id="h37-param-brucella-wald-ci",
        family="parametric_assumptions",
        twin="h37-param-brucella-wilson-ci",
        setup=_SERO_SETUP,
        code='''prev = (flocks.groupby("district")["brucella_pos"]
        .agg(flocks_tested="size", positive="sum")
        .assign(prev=lambda d: d.positive / d.flocks_tested))
se = np.sqrt(prev.prev * (1 - prev.prev) / prev.flocks_tested)
prev["lo95"] = prev.prev - 1.96 * se
prev["hi95"] = prev.prev + 1.96 * se

out = prev.copy()
out[["prev", "lo95", "hi95"]] = (out[["prev", "lo95", "hi95"]] * 100).round(1)
print("Flock-level Brucella melitensis seroprevalence (%), by district")
print(out.sort_values("prev", ascending=False).to_string())
''',
        note="Wald (normal-approximation) intervals for proportions with 0-4 positives out of "
             "18-45 flocks: bounds fall below 0 and collapse to zero width at 0 positives.",
        split="holdout37",
    ),
    Case(
        id="h37-param-brucella-wilson-ci",
        family=None,
        twin="h37-param-brucella-wald-ci",
        setup=_SERO_SETUP,
        code='''from statsmodels.stats.proportion import proportion_confint

prev = (flocks.groupby("district")["brucella_pos"]
        .agg(flocks_tested="size", positive="sum")
        .assign(prev=lambda d: d.positive / d.flocks_tested))
# few positives per district: Wilson score interval instead of the normal approximation
prev["lo95"], prev["hi95"] = proportion_confint(prev.positive, prev.flocks_tested,
                                                alpha=0.05, method="wilson")

out = prev.copy()
out[["prev", "lo95", "hi95"]] = (out[["prev", "lo95", "hi95"]] * 100).round(1)
print("Flock-level Brucella melitensis seroprevalence (%), by district")
print(out.sort_values("prev", ascending=False).to_string())
''',
        note="Wilson score intervals stay inside [0, 1] and keep their coverage for small "
             "counts, including districts with no positive flocks.",
        split="holdout37",
    ),
]
