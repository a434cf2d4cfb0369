from bench.critic_corpus import Case

_NET_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3541)
pilot = pd.DataFrame({
    "claim_ref": [f"AD{i:05d}" for i in range(31)],
    "network": ["preferred"] * 14 + ["open_market"] * 17,
    "repair_cost": np.round(np.concatenate([rng.lognormal(7.45, 1.2, 14),
                                            rng.lognormal(7.75, 1.2, 17)]), 2),
})
'''

_BRAKE_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3542)
rows = []
for vt, k, lam in [("city_car", 9, 0.6), ("family_hatch", 10, 0.9), ("suv", 8, 1.1),
                   ("van", 7, 1.6)]:
    km = rng.uniform(400, 2500, k)
    events = rng.poisson(lam * km / 100 * rng.gamma(0.4, 2.5, k))
    for i in range(k):
        rows.append({"driver_id": f"{vt[:3]}{i}", "vehicle_type": vt,
                     "km_driven": round(km[i], 1), "harsh_brakes": events[i]})
tele = pd.DataFrame(rows)
tele["hb_per_100km"] = tele.harsh_brakes / tele.km_driven * 100
'''

CASES = [
    Case(
        id="h35-param-repair-network-ttest",
        family="parametric_assumptions",
        twin="h35-param-repair-network-mwu",
        split="holdout35",
        setup=_NET_SETUP,
        code='''
from scipy import stats

g = pilot.groupby("network").repair_cost
print(g.agg(["count", "mean", "median", "std", "max"]).round(0))

pref = pilot.loc[pilot.network == "preferred", "repair_cost"]
openm = pilot.loc[pilot.network == "open_market", "repair_cost"]
t, p = stats.ttest_ind(pref, openm, equal_var=False)

diff = pref.mean() - openm.mean()
se = np.sqrt(pref.var() / len(pref) + openm.var() / len(openm))
dof = len(pref) + len(openm) - 2
lo, hi = diff + np.array([-1, 1]) * stats.t.ppf(0.975, dof) * se
print(f"saving per claim via preferred network: {-diff:,.0f} "
      f"(95% CI {-hi:,.0f} to {-lo:,.0f}), Welch t={t:.2f}, p={p:.3f}")
''',
        note="Welch t-test and t-interval on 14 vs 17 heavily right-skewed (lognormal) repair "
             "costs; with samples this small the normal-theory p-value and CI are unreliable.",
    ),
    Case(
        id="h35-param-repair-network-mwu",
        family=None,
        twin="h35-param-repair-network-ttest",
        split="holdout35",
        setup=_NET_SETUP,
        code='''
from scipy import stats

g = pilot.groupby("network").repair_cost
print(g.agg(["count", "mean", "median", "std", "max"]).round(0))

pref = pilot.loc[pilot.network == "preferred", "repair_cost"]
openm = pilot.loc[pilot.network == "open_market", "repair_cost"]
# 31 claims, costs are lognormal-ish with a long right tail: rank-based test, exact p-value
u = stats.mannwhitneyu(pref, openm, alternative="two-sided", method="exact")
print(f"median repair cost: preferred {pref.median():,.0f} vs open market "
      f"{openm.median():,.0f}")
print(f"Mann-Whitney U={u.statistic:.0f}, p={u.pvalue:.3f} (n={len(pref)} vs {len(openm)})")
''',
        note="Small, right-skewed repair costs are compared with an exact Mann-Whitney test and "
             "medians, which do not rely on normality.",
    ),
    Case(
        id="h35-param-harsh-braking-anova",
        family="parametric_assumptions",
        twin="h35-param-harsh-braking-kruskal",
        split="holdout35",
        setup=_BRAKE_SETUP,
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(tele.groupby("vehicle_type").hb_per_100km.describe()[["count", "mean", "50%", "max"]]
      .round(2))
print(f"drivers with zero harsh brakes: {(tele.harsh_brakes == 0).mean():.0%}")

fit = smf.ols("hb_per_100km ~ C(vehicle_type)", data=tele).fit()
print(sm.stats.anova_lm(fit, typ=2).round(4))
''',
        note="One-way ANOVA on 7-10 drivers per vehicle type whose harsh-braking rates are "
             "zero-inflated and right-skewed; the F-test's normality assumption clearly fails.",
    ),
    Case(
        id="h35-param-harsh-braking-kruskal",
        family=None,
        twin="h35-param-harsh-braking-anova",
        split="holdout35",
        setup=_BRAKE_SETUP,
        code='''
from scipy import stats

print(tele.groupby("vehicle_type").hb_per_100km.describe()[["count", "mean", "50%", "max"]]
      .round(2))
print(f"drivers with zero harsh brakes: {(tele.harsh_brakes == 0).mean():.0%}")

# few drivers per group and a zero-inflated, skewed rate: use the rank-based Kruskal-Wallis
groups = [g.hb_per_100km.values for _, g in tele.groupby("vehicle_type")]
h, p = stats.kruskal(*groups)
print(f"Kruskal-Wallis H={h:.2f}, df={len(groups) - 1}, p={p:.4f}")
''',
        note="Harsh-braking rates for few, zero-inflated drivers per vehicle type are compared "
             "with Kruskal-Wallis, which makes no normality assumption.",
    ),
]
