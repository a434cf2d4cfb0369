from bench.critic_corpus import Case

_SPLIT = "holdout16"

_MFI_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(116)
n_t, n_c = 19, 21
log_p = np.r_[rng.normal(9.1, 2.0, n_t), rng.normal(9.2, 1.2, n_c)]
profit = np.round(np.exp(log_p) - 4000, -1)
firms = pd.DataFrame({
    "enterprise_id": [f"KSM-{i:03d}" for i in range(n_t + n_c)],
    "arm": ["loan"] * n_t + ["control"] * n_c,
    "sector": rng.choice(["tailoring", "kiosk", "fish trade", "salon", "boda boda"], n_t + n_c),
    "monthly_profit_kes": profit,
})
'''

_TARIFF_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(39)
sizes = {"List 1": 8, "List 2": 7, "List 3": 9, "List 4A": 8}
shift = {"List 1": -0.45, "List 2": -0.35, "List 3": 0.05, "List 4A": 0.1}
parts = []
for lst, k in sizes.items():
    ratio = np.exp(rng.standard_t(1.5, k) * 0.25 + shift[lst])
    parts.append(pd.DataFrame({
        "hs6": rng.integers(100000, 999999, k).astype(str),
        "tariff_list": lst,
        "imports_2017_musd": np.round(rng.lognormal(3, 1.2, k), 1),
        "pct_change_imports": np.round(100 * (ratio - 1), 1),
    }))
firms_hs = pd.concat(parts, ignore_index=True)
'''

CASES = [
    Case(
        id="h16-parametric-assumptions-microloan-profits",
        family="parametric_assumptions",
        split=_SPLIT,
        twin="h16-parametric-assumptions-microloan-profits-ok",
        setup=_MFI_SETUP,
        note="Welch t-test and normal-theory CI on 19 vs 21 extremely right-skewed monthly "
             "profits; the 'significant' loan effect is driven by a few very large values",
        code='''
from scipy import stats

loan = firms.loc[firms["arm"] == "loan", "monthly_profit_kes"]
ctrl = firms.loc[firms["arm"] == "control", "monthly_profit_kes"]
print(firms.groupby("arm")["monthly_profit_kes"].describe().round(0))

t, p = stats.ttest_ind(loan, ctrl, equal_var=False)
diff = loan.mean() - ctrl.mean()
se = np.sqrt(loan.var() / len(loan) + ctrl.var() / len(ctrl))
print(f"loan effect on monthly profit: {diff:,.0f} KES "
      f"(95% CI {diff - 1.96 * se:,.0f} to {diff + 1.96 * se:,.0f}), t = {t:.2f}, p = {p:.3f}")
''',
    ),
    Case(
        id="h16-parametric-assumptions-microloan-profits-ok",
        family=None,
        split=_SPLIT,
        twin="h16-parametric-assumptions-microloan-profits",
        setup=_MFI_SETUP,
        note="with tiny, heavily skewed profit samples the arms are compared with a rank test "
             "and a Hodges-Lehmann shift, not a normal-theory t interval",
        code='''
from scipy import stats

loan = firms.loc[firms["arm"] == "loan", "monthly_profit_kes"]
ctrl = firms.loc[firms["arm"] == "control", "monthly_profit_kes"]
print(firms.groupby("arm")["monthly_profit_kes"].describe().round(0))

u, p = stats.mannwhitneyu(loan, ctrl, alternative="two-sided")
hl = np.median(np.subtract.outer(loan.to_numpy(), ctrl.to_numpy()))
print(f"Hodges-Lehmann shift in monthly profit: {hl:,.0f} KES; "
      f"Mann-Whitney U = {u:.0f}, p = {p:.3f}; medians {loan.median():,.0f} vs "
      f"{ctrl.median():,.0f}")
''',
    ),
    Case(
        id="h16-parametric-assumptions-tariff-lists-anova",
        family="parametric_assumptions",
        split=_SPLIT,
        twin="h16-parametric-assumptions-tariff-lists-anova-ok",
        setup=_TARIFF_SETUP,
        note="one-way ANOVA on 7-9 products per tariff list with extremely heavy-tailed import "
             "changes; a few huge swings swamp the F-test, which wrongly reports no difference",
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(firms_hs.groupby("tariff_list")["pct_change_imports"].agg(
    ["count", "mean", "median", "std", "min", "max"]).round(1))
ols = smf.ols("pct_change_imports ~ C(tariff_list)", data=firms_hs).fit()
aov = sm.stats.anova_lm(ols, typ=2)
print(aov.round(4))
f_stat, p = aov.loc["C(tariff_list)", ["F", "PR(>F)"]]
verdict = "differ" if p < 0.05 else "do not differ significantly"
print(f"Import responses {verdict} across tariff lists: F = {f_stat:.2f}, p = {p:.4f}")
''',
    ),
    Case(
        id="h16-parametric-assumptions-tariff-lists-anova-ok",
        family=None,
        split=_SPLIT,
        twin="h16-parametric-assumptions-tariff-lists-anova",
        setup=_TARIFF_SETUP,
        note="small heavy-tailed groups are compared with the Kruskal-Wallis rank test instead "
             "of the normal-theory ANOVA",
        code='''
from scipy import stats

print(firms_hs.groupby("tariff_list")["pct_change_imports"].agg(
    ["count", "mean", "median", "std", "min", "max"]).round(1))
samples = [g["pct_change_imports"].to_numpy() for _, g in firms_hs.groupby("tariff_list")]
h, p = stats.kruskal(*samples)
verdict = "differ" if p < 0.05 else "do not differ significantly"
print(f"Import responses {verdict} across tariff lists (Kruskal-Wallis): H = {h:.2f}, "
      f"p = {p:.4f}")
''',
    ),
]
