"""Parametric tests (t-test, ANOVA, Pearson) on clearly non-normal data or tiny samples."""

from textwrap import dedent

from bench.critic_corpus import Case

_INCOME = """\
import numpy as np
from scipy import stats

rng = np.random.default_rng(31)
urban = rng.lognormal(mean=10.6, sigma=1.2, size=45)     # household income, USD
rural = rng.lognormal(mean=10.3, sigma=1.2, size=40)
"""

_LATENCY = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(8080)
regions = {"us-east": 120, "us-west": 135, "eu-central": 150, "ap-south": 170}
logs = pd.concat([
    pd.DataFrame({"region": r, "latency_ms": rng.lognormal(np.log(med), 0.9, 60)})
    for r, med in regions.items()
], ignore_index=True)
# a few requests hit the 30 s gateway timeout
timeouts = rng.choice(len(logs), 4, replace=False)
logs.loc[timeouts, "latency_ms"] = 30000.0
"""

_GLITCH = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(123)
n = 200
readings = pd.DataFrame({
    "humidity_pct": rng.normal(45, 6, n),
    "power_draw_w": rng.normal(310, 25, n),
})
# brown-outs: both channels latch to their max value for a few samples
readings.loc[[17, 64, 65, 150], ["humidity_pct", "power_draw_w"]] = [99.9, 4095.0]
"""

_MICE = """\
import numpy as np
from scipy import stats

vehicle = np.array([412.0, 388.0, 455.0, 430.0])          # tumour volume day 21, mm^3
compound = np.array([301.0, 365.0, 280.0, 342.0])
"""

CASES: list[Case] = [
    Case(
        id="parametric-welch-lognormal-income",
        family="parametric_assumptions",
        twin="parametric-welch-lognormal-income-sound",
        note="t-test on raw lognormal incomes (sigma 1.2, ~40 per group): heavy right skew "
        "dominates the means.",
        code=_INCOME + dedent("""\

            t, p = stats.ttest_ind(urban, rural, equal_var=False)
            print(f"mean income: urban ${urban.mean():,.0f} vs rural ${rural.mean():,.0f}")
            print(f"Welch t = {t:.2f}, p = {p:.3f}")
        """),
    ),
    Case(
        id="parametric-welch-lognormal-income-sound",
        family=None,
        twin="parametric-welch-lognormal-income",
        note="Mann-Whitney U on the skewed incomes, with medians reported.",
        code=_INCOME + dedent("""\

            u, p = stats.mannwhitneyu(urban, rural, alternative="two-sided")
            print(f"median income: urban ${np.median(urban):,.0f} vs "
                  f"rural ${np.median(rural):,.0f}")
            print(f"Mann-Whitney U = {u:.0f}, p = {p:.3f}")
        """),
    ),
    Case(
        id="parametric-anova-latency-regions",
        family="parametric_assumptions",
        twin="parametric-anova-latency-regions-sound",
        note="One-way ANOVA on lognormal request latencies with 30 s timeout outliers.",
        code=_LATENCY + dedent("""\

            groups = [g["latency_ms"].to_numpy() for _, g in logs.groupby("region")]
            f, p = stats.f_oneway(*groups)
            print(logs.groupby("region")["latency_ms"].mean().round(1))
            print(f"ANOVA: F = {f:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric-anova-latency-regions-sound",
        family=None,
        twin="parametric-anova-latency-regions",
        note="Kruskal-Wallis on the skewed latencies, medians reported.",
        code=_LATENCY + dedent("""\

            groups = [g["latency_ms"].to_numpy() for _, g in logs.groupby("region")]
            h, p = stats.kruskal(*groups)
            print(logs.groupby("region")["latency_ms"].median().round(1))
            print(f"Kruskal-Wallis: H = {h:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric-pearson-brownout-outliers",
        family="parametric_assumptions",
        twin="parametric-pearson-brownout-outliers-sound",
        note="Pearson r driven entirely by four saturated outlier readings; the bulk of the "
        "data is uncorrelated.",
        code=_GLITCH + dedent("""\

            r, p = stats.pearsonr(readings.humidity_pct, readings.power_draw_w)
            print(f"humidity vs power draw: r = {r:.2f} (p = {p:.2g}, n = {len(readings)})")
        """),
    ),
    Case(
        id="parametric-pearson-brownout-outliers-sound",
        family=None,
        twin="parametric-pearson-brownout-outliers",
        note="Rank-based Spearman correlation, robust to the saturated readings.",
        code=_GLITCH + dedent("""\

            rho, p = stats.spearmanr(readings.humidity_pct, readings.power_draw_w)
            print(f"humidity vs power draw: Spearman rho = {rho:.2f} "
                  f"(p = {p:.2g}, n = {len(readings)})")
        """),
    ),
    Case(
        id="parametric-ttest-four-mice",
        family="parametric_assumptions",
        twin="parametric-ttest-four-mice-sound",
        note="Student t-test with n = 4 animals per group: normality cannot be checked.",
        code=_MICE + dedent("""\

            t, p = stats.ttest_ind(compound, vehicle)
            print(f"vehicle {vehicle.mean():.0f} vs compound {compound.mean():.0f} mm^3: "
                  f"t = {t:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="parametric-ttest-four-mice-sound",
        family=None,
        twin="parametric-ttest-four-mice",
        note="Exact permutation test (all 70 relabelings) of the mean difference, no "
        "normality assumption.",
        code=_MICE + dedent("""\

            res = stats.permutation_test(
                (compound, vehicle),
                lambda a, b: np.mean(a) - np.mean(b),
                permutation_type="independent",
                n_resamples=np.inf,
                alternative="two-sided",
            )
            print(f"vehicle {vehicle.mean():.0f} vs compound {compound.mean():.0f} mm^3: "
                  f"diff = {res.statistic:.0f}, exact permutation p = {res.pvalue:.4f}")
        """),
    ),
]
