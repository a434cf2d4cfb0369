from bench.critic_corpus import Case

SPLIT = "holdout24"

_CONTRACTS_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
hw = np.exp(rng.normal(np.log(160000), 0.8, 8)).round(-2)
asc = np.exp(rng.normal(np.log(45000), 0.8, 9)).round(-2)
asc[rng.integers(9)] = 5_940_000
other = np.exp(rng.normal(np.log(70000), 1.0, 14)).round(-2)
contracts = pd.DataFrame({
    "directorate": ["Highways"] * 8 + ["Adult Social Care"] * 9
    + list(rng.choice(["Children's Services", "Resources", "Place"], 14)),
    "value_gbp": np.concatenate([hw, asc, other]),
})
contracts["awarded"] = pd.Timestamp("2024-01-02") + pd.to_timedelta(
    rng.integers(0, 90, len(contracts)), unit="D")
contracts["supplier"] = rng.choice(
    ["Amey", "Kier", "Tarmac", "Sanctuary Care", "Mears", "Capita", "Serco", "Local SME"],
    len(contracts))
contracts = contracts.sample(frac=1, random_state=1).reset_index(drop=True)
contracts.insert(0, "contract_ref", [f"CR-2024-{i:04d}" for i in range(1, len(contracts) + 1)])
"""

_FOI_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(199)
trusts = ["Northgate NHS FT", "Riverside Healthcare", "St Aldhelm's NHS Trust", "Westmoor FT"]
sizes = [6, 7, 5, 6]
waits = [np.exp(rng.normal(np.log(14), 1.0, k)).round(1) for k in sizes]
foi = pd.DataFrame({
    "trust": np.repeat(trusts, sizes),
    "wait_weeks": np.concatenate(waits),
})
foi["referral_ref"] = [f"FOI-{i:03d}" for i in rng.choice(999, len(foi), replace=False)]
foi["seen_date"] = (pd.Timestamp("2024-03-01")
                    + pd.to_timedelta(rng.integers(0, 30, len(foi)), unit="D"))
"""

CASES: list[Case] = [
    Case(
        id="h24-parametric-contract-values-ttest",
        family="parametric_assumptions",
        setup=_CONTRACTS_SETUP,
        code=r"""
from scipy import stats

hw = contracts.loc[contracts.directorate == "Highways", "value_gbp"]
asc = contracts.loc[contracts.directorate == "Adult Social Care", "value_gbp"]

t, p = stats.ttest_ind(hw, asc)
print(f"Highways: {len(hw)} contracts, average £{hw.mean():,.0f}")
print(f"Adult Social Care: {len(asc)} contracts, average £{asc.mean():,.0f}")
print(f"t = {t:.2f}, p = {p:.2f}: no significant difference in what the two directorates "
      f"spend per contract")
""",
        twin="h24-parametric-contract-values-mannwhitney",
        note="Student t-test on 8 vs 9 contract values that are heavily right-skewed (one "
             "£5.9m framework in ASC); its 'no difference' verdict rests on normal means.",
        split=SPLIT,
    ),
    Case(
        id="h24-parametric-contract-values-mannwhitney",
        family=None,
        setup=_CONTRACTS_SETUP,
        code=r"""
from scipy import stats

hw = contracts.loc[contracts.directorate == "Highways", "value_gbp"]
asc = contracts.loc[contracts.directorate == "Adult Social Care", "value_gbp"]

u, p = stats.mannwhitneyu(hw, asc, alternative="two-sided", method="exact")
print(f"Highways: {len(hw)} contracts, median £{hw.median():,.0f}")
print(f"Adult Social Care: {len(asc)} contracts, median £{asc.median():,.0f} "
      f"(includes one £{asc.max():,.0f} framework)")
print(f"Mann-Whitney U = {u:.0f}, exact p = {p:.3f}: Highways contracts tend to be larger")
""",
        twin="h24-parametric-contract-values-ttest",
        note="Exact Mann-Whitney test with medians suits 8 vs 9 skewed contract values and is "
             "not driven by the single £5.9m framework.",
        split=SPLIT,
    ),
    Case(
        id="h24-parametric-foi-waits-anova",
        family="parametric_assumptions",
        setup=_FOI_SETUP,
        code=r"""
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(foi.groupby("trust")["wait_weeks"].agg(["count", "mean"]).round(1))
fit = smf.ols("wait_weeks ~ C(trust)", data=foi).fit()
aov = sm.stats.anova_lm(fit, typ=2)
F, p = aov.loc["C(trust)", ["F", "PR(>F)"]]
worst = foi.groupby("trust")["wait_weeks"].mean().idxmax()
print(f"\nWaits differ significantly between trusts (F = {F:.2f}, p = {p:.3f}); "
      f"{worst} is the outlier")
""",
        twin="h24-parametric-foi-waits-kruskal",
        note="One-way ANOVA on 5-7 FOI waiting times per trust that are strongly right-skewed "
             "with very unequal spreads; the 'significant' F rests on two long waits.",
        split=SPLIT,
    ),
    Case(
        id="h24-parametric-foi-waits-kruskal",
        family=None,
        setup=_FOI_SETUP,
        code=r"""
from scipy import stats

print(foi.groupby("trust")["wait_weeks"].agg(["count", "median"]).round(1))
groups = [g["wait_weeks"].to_numpy() for _, g in foi.groupby("trust")]
H, p = stats.kruskal(*groups)
print(f"\nKruskal-Wallis H = {H:.2f}, p = {p:.2f}: with 5-7 referrals per trust we cannot "
      f"say waits differ between trusts")
""",
        twin="h24-parametric-foi-waits-anova",
        note="A rank-based Kruskal-Wallis test with medians is used for the tiny, skewed FOI "
             "samples and the write-up states the limits of the data.",
        split=SPLIT,
    ),
]
