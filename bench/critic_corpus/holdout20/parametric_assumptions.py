from bench.critic_corpus import Case

_SETUP_SEV = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(1312)
amounts = np.concatenate([rng.lognormal(7.2, 1.0, 13), rng.lognormal(8.3, 1.0, 11)])
claims = pd.DataFrame({
    "claim_ref": [f"MC{k:06d}" for k in rng.choice(999999, 24, replace=False)],
    "repair_network": ["preferred"] * 13 + ["open_market"] * 11,
    "incurred_gbp": np.round(amounts, 2),
})
claims.loc[3, "incurred_gbp"] = 48750.00
'''

_FLAW_SEV = '''
from scipy import stats

pref = claims.loc[claims["repair_network"] == "preferred", "incurred_gbp"]
open_mkt = claims.loc[claims["repair_network"] == "open_market", "incurred_gbp"]
t, p = stats.ttest_ind(pref, open_mkt)
print(f"mean severity preferred £{pref.mean():,.0f} (n={len(pref)}) vs "
      f"open market £{open_mkt.mean():,.0f} (n={len(open_mkt)})")
print(f"t = {t:.2f}, p = {p:.3f} -> "
      f"{'network effect on severity' if p < 0.05 else 'no severity difference'}")
'''

_SOUND_SEV = '''
from scipy import stats

pref = claims.loc[claims["repair_network"] == "preferred", "incurred_gbp"]
open_mkt = claims.loc[claims["repair_network"] == "open_market", "incurred_gbp"]
u, p = stats.mannwhitneyu(pref, open_mkt, alternative="two-sided")
print(f"median severity preferred £{pref.median():,.0f} (n={len(pref)}) vs "
      f"open market £{open_mkt.median():,.0f} (n={len(open_mkt)})")
print(f"skew {stats.skew(claims['incurred_gbp']):.1f}; Mann-Whitney U = {u:.0f}, p = {p:.3f} -> "
      f"{'network effect on severity' if p < 0.05 else 'no evidence of a severity difference'}")
'''

_SETUP_CLV = '''
import numpy as np
import pandas as pd
rng = np.random.default_rng(4455)
offers = np.repeat(["cashback", "bonus_apr", "control"], 9)
buys = rng.binomial(1, 0.35, offers.size)
clv = np.where(buys == 1, rng.lognormal(4.5, 1.3, offers.size), 0.0)
clv[np.flatnonzero(offers == "cashback")[2]] = 4200.0
pilot = pd.DataFrame({"customer_id": rng.choice(90000, offers.size, replace=False),
                      "offer": offers, "clv_12m_gbp": np.round(clv, 2)})
'''

_FLAW_CLV = '''
import statsmodels.formula.api as smf
from statsmodels.stats.anova import anova_lm

fit = smf.ols("clv_12m_gbp ~ C(offer)", data=pilot).fit()
aov = anova_lm(fit, typ=2)
print(pilot.groupby("offer")["clv_12m_gbp"].agg(["size", "mean"]).round(1))
print(aov.round(4))
print("offer drives 12m CLV" if aov.loc["C(offer)", "PR(>F)"] < 0.05
      else "no CLV difference between offers")
'''

_SOUND_CLV = '''
from scipy import stats

groups = {k: g["clv_12m_gbp"].to_numpy() for k, g in pilot.groupby("offer")}
h, p = stats.kruskal(*groups.values())
print(pilot.groupby("offer")["clv_12m_gbp"]
      .agg(["size", "median", "mean", lambda s: (s > 0).mean()]).round(2))
print(f"Kruskal-Wallis H = {h:.2f}, p = {p:.3f} (9 customers per arm, zero-inflated CLV)")
print("offer drives 12m CLV" if p < 0.05 else "no evidence of a CLV difference between offers")
'''

CASES: list[Case] = [
    Case(id="h20-parametric-severity-ttest-tiny-lognormal", family="parametric_assumptions",
         code=_FLAW_SEV, setup=_SETUP_SEV, twin="h20-parametric-severity-mannwhitney",
         note="Student t-test on 13 vs 11 heavily skewed claim amounts with a £48k outlier; "
              "normality fails and the conclusion rests on it",
         split="holdout20"),
    Case(id="h20-parametric-severity-mannwhitney", family=None, code=_SOUND_SEV,
         setup=_SETUP_SEV, twin="h20-parametric-severity-ttest-tiny-lognormal",
         note="rank-based Mann-Whitney test and medians for tiny skewed severity samples",
         split="holdout20"),
    Case(id="h20-parametric-clv-anova-zero-inflated", family="parametric_assumptions",
         code=_FLAW_CLV, setup=_SETUP_CLV, twin="h20-parametric-clv-kruskal",
         note="one-way ANOVA on 9 customers per arm of zero-inflated, lognormal CLV with a "
              "£4,200 whale; normal-errors F test is not valid",
         split="holdout20"),
    Case(id="h20-parametric-clv-kruskal", family=None, code=_SOUND_CLV,
         setup=_SETUP_CLV, twin="h20-parametric-clv-anova-zero-inflated",
         note="Kruskal-Wallis on the tiny zero-inflated CLV pilot, with medians and purchase "
              "shares shown",
         split="holdout20"),
]
