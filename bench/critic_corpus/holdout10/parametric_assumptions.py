"""Parametric assumptions, holdout10: one-way ANOVA on heavy-tailed credit issuance volumes of
a few projects per registry (carbon markets), and a pooled t-test on zero-inflated catch per
unit effort (fisheries, statsmodels weightstats)."""

from textwrap import dedent

from bench.critic_corpus import Case

_CARBON = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_041)
registries = {"Verra": 14, "Gold Standard": 11, "ACR": 8, "CAR": 7}
rows = []
for reg, k in registries.items():
    mu = {"Verra": 10.6, "Gold Standard": 10.1, "ACR": 10.3, "CAR": 10.4}[reg]
    vol = rng.lognormal(mu, 1.7, k).round(-1)
    rows.append(pd.DataFrame({"registry": reg, "project": [f"{reg[:3].upper()}-{i:03d}"
                                                           for i in range(k)],
                              "credits_issued": vol}))
projects = pd.concat(rows, ignore_index=True)
"""

_CPUE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_042)
hauls = []
for gear, p_zero, mu in (("gillnet", 0.62, 2.4), ("trap", 0.70, 2.0)):
    n = 26
    catch = np.where(rng.random(n) < p_zero, 0.0, rng.lognormal(mu, 1.2, n))
    hauls.append(pd.DataFrame({"gear": gear, "haul": range(1, n + 1),
                               "soak_h": rng.uniform(10, 14, n).round(1),
                               "catch_kg": catch.round(2)}))
hauls = pd.concat(hauls, ignore_index=True)
hauls["cpue"] = hauls["catch_kg"] / hauls["soak_h"]
"""

CASES: list[Case] = [
    Case(
        id="parametric_assumptions-h10-carbon-anova-issuance",
        family="parametric_assumptions",
        twin="parametric_assumptions-h10-carbon-anova-issuance-sound",
        split="holdout10",
        setup=_CARBON,
        note="Per-project issuance volumes span orders of magnitude (lognormal, sigma 1.7) with "
        "7-14 projects per registry; one-way ANOVA on the raw volumes is driven by a few giants.",
        code=dedent("""\
            from scipy import stats

            summary = projects.groupby("registry")["credits_issued"].agg(
                ["count", "mean", "median", "max"])
            print(summary.round(0).to_string())

            groups = [g["credits_issued"].to_numpy() for _, g in projects.groupby("registry")]
            F, p = stats.f_oneway(*groups)
            print(f"\\none-way ANOVA across registries: F = {F:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric_assumptions-h10-carbon-anova-issuance-sound",
        family=None,
        twin="parametric_assumptions-h10-carbon-anova-issuance",
        split="holdout10",
        setup=_CARBON,
        note="Kruskal-Wallis rank test across registries; no normality assumption is needed for "
        "the heavy-tailed issuance volumes.",
        code=dedent("""\
            from scipy import stats

            summary = projects.groupby("registry")["credits_issued"].agg(
                ["count", "mean", "median", "max"])
            print(summary.round(0).to_string())

            groups = [g["credits_issued"].to_numpy() for _, g in projects.groupby("registry")]
            H, p = stats.kruskal(*groups)
            print(f"\\nKruskal-Wallis across registries: H = {H:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric_assumptions-h10-fisheries-cpue-ttest",
        family="parametric_assumptions",
        twin="parametric_assumptions-h10-fisheries-cpue-ttest-sound",
        split="holdout10",
        setup=_CPUE,
        note="CPUE is two-thirds zeros with a long lognormal tail and only 26 hauls per gear; the "
        "pooled-variance t-test and its normal-theory CI are not trustworthy here.",
        code=dedent("""\
            from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

            gill = hauls.loc[hauls["gear"] == "gillnet", "cpue"].to_numpy()
            trap = hauls.loc[hauls["gear"] == "trap", "cpue"].to_numpy()
            print(hauls.groupby("gear")["cpue"].describe().round(3).to_string())
            print(f"zero-catch hauls: {(hauls['cpue'] == 0).mean():.0%}")

            cm = CompareMeans(DescrStatsW(gill), DescrStatsW(trap))
            t, p, dof = cm.ttest_ind(usevar="pooled")
            lo, hi = cm.tconfint_diff(usevar="pooled")
            print(f"gillnet - trap CPUE: {gill.mean() - trap.mean():.3f} kg/h "
                  f"(95% CI {lo:.3f} to {hi:.3f}), t = {t:.2f}, p = {p:.3f}")
        """),
    ),
    Case(
        id="parametric_assumptions-h10-fisheries-cpue-ttest-sound",
        family=None,
        twin="parametric_assumptions-h10-fisheries-cpue-ttest",
        split="holdout10",
        setup=_CPUE,
        note="A seeded permutation test on the difference in mean CPUE makes no normality "
        "assumption about the zero-inflated catches.",
        code=dedent("""\
            from scipy import stats

            gill = hauls.loc[hauls["gear"] == "gillnet", "cpue"].to_numpy()
            trap = hauls.loc[hauls["gear"] == "trap", "cpue"].to_numpy()
            print(hauls.groupby("gear")["cpue"].describe().round(3).to_string())
            print(f"zero-catch hauls: {(hauls['cpue'] == 0).mean():.0%}")

            def mean_diff(a, b):
                return a.mean() - b.mean()

            perm = stats.permutation_test((gill, trap), mean_diff, n_resamples=9999,
                                          permutation_type="independent",
                                          random_state=np.random.default_rng(42))
            print(f"gillnet - trap CPUE: {perm.statistic:.3f} kg/h, "
                  f"permutation p = {perm.pvalue:.3f}")
        """),
    ),
]
