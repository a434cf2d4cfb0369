from bench.critic_corpus import Case

_CFU_SETUP = '''
import numpy as np

rng = np.random.default_rng(1263)
# P. aeruginosa biofilm on silicone coupons, CFU per cm2 after 24 h exposure
cfu = {
    "untreated":   np.round(10 ** rng.normal(7.4, 0.25, 5), -3),
    "tobramycin":  np.round(10 ** rng.normal(6.0, 0.9, 5), -3),
    "phage_cocktail": np.round(10 ** rng.normal(5.2, 1.1, 5), -3),
}
for k, v in cfu.items():
    print(f"{k:15s}", " ".join(f"{x:.2e}" for x in v))
'''

_CFU_FLAWED = '''
from scipy import stats

ref = cfu["untreated"]
table = {}
for arm in ("tobramycin", "phage_cocktail"):
    x = cfu[arm]
    t, p = stats.ttest_ind(x, ref, equal_var=False)
    table[arm] = {"mean_CFU": x.mean(), "sd_CFU": x.std(ddof=1),
                  "reduction_pct": 100 * (1 - x.mean() / ref.mean()), "t": t, "p": p}

print(f"untreated: mean {ref.mean():.3e} CFU/cm2 (sd {ref.std(ddof=1):.2e}), n = {len(ref)}")
for arm, r in table.items():
    verdict = "significant" if r["p"] < 0.05 else "not significant"
    print(f"{arm:15s} mean {r['mean_CFU']:.3e} (sd {r['sd_CFU']:.2e})  "
          f"{r['reduction_pct']:.1f}% reduction  Welch t={r['t']:.2f}, p={r['p']:.3f} "
          f"-> {verdict}")
'''

_CFU_SOUND = '''
from scipy import stats

ref = np.log10(cfu["untreated"])
table = {}
for arm in ("tobramycin", "phage_cocktail"):
    x = np.log10(cfu[arm])
    t, p = stats.ttest_ind(x, ref, equal_var=False)
    table[arm] = {"mean_log": x.mean(), "sd_log": x.std(ddof=1),
                  "log_reduction": ref.mean() - x.mean(), "t": t, "p": p}

print(f"untreated: mean log10 CFU/cm2 {ref.mean():.2f} (sd {ref.std(ddof=1):.2f}), n = {len(ref)}")
for arm, r in table.items():
    verdict = "significant" if r["p"] < 0.05 else "not significant"
    print(f"{arm:15s} mean log10 {r['mean_log']:.2f} (sd {r['sd_log']:.2f})  "
          f"{r['log_reduction']:.2f} log reduction  Welch t={r['t']:.2f}, p={r['p']:.3f} "
          f"-> {verdict}")
'''

_INCOME_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4455)
hh = pd.DataFrame({
    "estate": np.repeat(["Northfield", "Canal Side", "Hillcrest"], [9, 8, 10]),
})
med = hh.estate.map({"Northfield": 21000, "Canal Side": 27000, "Hillcrest": 40000})
hh["income_gbp"] = (med * rng.lognormal(0, 0.45, len(hh))).round(-2)
hh.loc[hh.estate.eq("Northfield").idxmax(), "income_gbp"] = 412000.0
hh["hh_size"] = rng.integers(1, 6, len(hh))
hh.groupby("estate").income_gbp.describe().round(0)
'''

_INCOME_FLAWED = '''
from scipy import stats

groups = [g.income_gbp.to_numpy() for _, g in hh.groupby("estate", sort=False)]
F, p = stats.f_oneway(*groups)
df_b, df_w = len(groups) - 1, sum(len(g) for g in groups) - len(groups)
means = hh.groupby("estate", sort=False).income_gbp.mean().round(0)
print(means.to_string())
print(f"one-way ANOVA: F({df_b}, {df_w}) = {F:.2f}, p = {p:.3f}")
print("household income differs between estates" if p < 0.05
      else "no evidence that household income differs between estates")
'''

_INCOME_SOUND = '''
from scipy import stats

groups = [g.income_gbp.to_numpy() for _, g in hh.groupby("estate", sort=False)]
H, p = stats.kruskal(*groups)
medians = hh.groupby("estate", sort=False).income_gbp.median().round(0)
print(medians.to_string())
print(f"Kruskal-Wallis: H({len(groups) - 1}) = {H:.2f}, p = {p:.3f}, N = {len(hh)}")
print("household income differs between estates" if p < 0.05
      else "no evidence that household income differs between estates")
'''

CASES: list[Case] = [
    Case(
        id="h14-parametric-biofilm-cfu-raw-ttest",
        family="parametric_assumptions",
        setup=_CFU_SETUP,
        code=_CFU_FLAWED,
        twin="h14-parametric-biofilm-cfu-log10-ttest",
        note="Welch t-tests on raw CFU counts (log-normal, SD exceeds the mean, n = 5 per arm), "
             "so one huge coupon dominates and the 'not significant' verdict is unsupported.",
        split="holdout14",
    ),
    Case(
        id="h14-parametric-biofilm-cfu-log10-ttest",
        family=None,
        setup=_CFU_SETUP,
        code=_CFU_SOUND,
        twin="h14-parametric-biofilm-cfu-raw-ttest",
        note="Counts are analysed on the log10 scale (the standard log-reduction analysis), "
             "where they are close to normal.",
        split="holdout14",
    ),
    Case(
        id="h14-parametric-estate-income-anova",
        family="parametric_assumptions",
        setup=_INCOME_SETUP,
        code=_INCOME_FLAWED,
        twin="h14-parametric-estate-income-kruskal",
        note="One-way ANOVA on raw household income, right-skewed with a 412k outlier in groups "
             "of 8-10, so the group means and F-test are driven by one household.",
        split="holdout14",
    ),
    Case(
        id="h14-parametric-estate-income-kruskal",
        family=None,
        setup=_INCOME_SETUP,
        code=_INCOME_SOUND,
        twin="h14-parametric-estate-income-anova",
        note="Rank-based Kruskal-Wallis test with medians for skewed incomes in small groups.",
        split="holdout14",
    ),
]
