"""Parametric assumptions, holdout3 idioms: Bartlett's variance test on heavy-tailed gearbox
vibration, a normal-approximation two-proportion z-test (statsmodels) on 0/14 vs 4/15 defects,
and a paired t-test on ten sheep's wildly skewed faecal egg counts from a pandas pivot."""

from textwrap import dedent

from bench.critic_corpus import Case

_GEARBOX = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(504)
suppliers = ["G1", "G2", "G3", "G4"]
# deviation of housing vibration velocity from nominal (mm/s), 25 gearboxes per supplier;
# run-in shocks give the deviations Student-t tails with 2.5 degrees of freedom
vib = pd.DataFrame(3.0 + 0.8 * rng.standard_t(2.5, size=(25, 4)), columns=suppliers)
"""

_FASTENERS = """\
import numpy as np
import pandas as pd

# incoming inspection of titanium fasteners, two qualified suppliers
inspection = pd.DataFrame({"supplier": ["Aerofix", "Boltline"],
                           "defective": [0, 4], "inspected": [14, 15]})
"""

_SHEEP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(704)
n = 10
pre = np.round(rng.lognormal(6.3, 1.3, n), -1)
post = np.round(pre * rng.uniform(0.05, 0.6, n) + rng.poisson(40, n), -1)
# faecal egg counts (eggs per gram) of 10 ewes before and 14 days after deworming
fec = pd.DataFrame({
    "ewe": np.tile([f"E{i:02d}" for i in range(n)], 2),
    "visit": np.repeat(["day0", "day14"], n),
    "epg": np.concatenate([pre, post]).astype(int),
})
"""

CASES: list[Case] = [
    Case(
        id="parametric-bartlett-heavy-tailed-vibration",
        family="parametric_assumptions",
        twin="parametric-bartlett-heavy-tailed-vibration-sound",
        split="holdout3",
        setup=_GEARBOX,
        note="Bartlett's test assumes normal data and is badly oversensitive to the t(2.5) "
        "tails of the vibration deviations: it declares unequal variances that are equal.",
        code=dedent("""\
            spread = vib.agg(["std", lambda s: s.quantile(0.75) - s.quantile(0.25)])
            spread.index = ["sd", "iqr"]
            print(spread.round(2).to_string())
            stat, p = stats.bartlett(*(vib[s] for s in suppliers))
            verdict = "differs between suppliers" if p < 0.05 else "is similar across suppliers"
            print(f"Bartlett T = {stat:.1f}, p = {p:.2g}: vibration consistency {verdict}")
        """),
    ),
    Case(
        id="parametric-bartlett-heavy-tailed-vibration-sound",
        family=None,
        twin="parametric-bartlett-heavy-tailed-vibration",
        split="holdout3",
        setup=_GEARBOX,
        note="The Fligner-Killeen test (rank-based, median-centred) compares spreads without "
        "assuming normality, appropriate for the heavy-tailed deviations.",
        code=dedent("""\
            spread = vib.agg(["std", lambda s: s.quantile(0.75) - s.quantile(0.25)])
            spread.index = ["sd", "iqr"]
            print(spread.round(2).to_string())
            print(f"excess kurtosis per supplier: {vib.kurt().round(1).to_dict()}")
            stat, p = stats.fligner(*(vib[s] for s in suppliers))
            verdict = "differs between suppliers" if p < 0.05 else "is similar across suppliers"
            print(f"Fligner-Killeen X2 = {stat:.1f}, p = {p:.2g}: vibration consistency {verdict}")
        """),
    ),
    Case(
        id="parametric-ztest-tiny-defect-counts",
        family="parametric_assumptions",
        twin="parametric-ztest-tiny-defect-counts-sound",
        split="holdout3",
        setup=_FASTENERS,
        note="Normal-approximation z-test with 0 and 4 defects in samples of 14 and 15: the "
        "expected counts are far too small, and it gives p = 0.037 where exact tests do not.",
        code=dedent("""\
            from statsmodels.stats.proportion import proportions_ztest

            rates = inspection.set_index("supplier").eval("defective / inspected")
            z, p = proportions_ztest(inspection.defective, inspection.inspected)
            print(rates.map("{:.1%}".format).to_string())
            print(f"z = {z:.2f}, p = {p:.3f} -> "
                  f"{'Boltline has a higher defect rate' if p < 0.05 else 'no clear difference'}")
        """),
    ),
    Case(
        id="parametric-ztest-tiny-defect-counts-sound",
        family=None,
        twin="parametric-ztest-tiny-defect-counts",
        split="holdout3",
        setup=_FASTENERS,
        note="Boschloo's exact unconditional test on the 2x2 table, which needs no large-sample "
        "approximation for counts of 0 and 4.",
        code=dedent("""\
            from scipy import stats

            rates = inspection.set_index("supplier").eval("defective / inspected")
            table = np.array([inspection.defective,
                              inspection.inspected - inspection.defective])
            p = stats.boschloo_exact(table, alternative="two-sided").pvalue
            print(rates.map("{:.1%}".format).to_string())
            print(f"Boschloo exact p = {p:.3f} -> "
                  f"{'Boltline has a higher defect rate' if p < 0.05 else 'no clear difference'}")
        """),
    ),
    Case(
        id="parametric-paired-t-egg-counts",
        family="parametric_assumptions",
        twin="parametric-paired-t-egg-counts-sound",
        split="holdout3",
        setup=_SHEEP,
        note="Paired t-test on 10 ewes' egg-count differences ranging from 70 to 7,340 epg: "
        "two animals dominate the variance, so a consistent drop in all ten reads as p = 0.09.",
        code=dedent("""\
            from scipy import stats

            wide = fec.pivot(index="ewe", columns="visit", values="epg")
            reduction = 1 - wide.day14.mean() / wide.day0.mean()
            t, p = stats.ttest_rel(wide.day0, wide.day14)
            print(wide.T.to_string())
            print(f"mean egg count reduction {reduction:.0%}; paired t = {t:.2f}, p = {p:.3f}")
            print("drench effective" if p < 0.05 else "no significant effect of the drench")
        """),
    ),
    Case(
        id="parametric-paired-t-egg-counts-sound",
        family=None,
        twin="parametric-paired-t-egg-counts",
        split="holdout3",
        setup=_SHEEP,
        note="Exact Wilcoxon signed-rank test on the within-ewe changes, which does not assume "
        "normal differences and suits ten heavily skewed egg counts.",
        code=dedent("""\
            from scipy import stats

            wide = fec.pivot(index="ewe", columns="visit", values="epg")
            reduction = 1 - wide.day14.mean() / wide.day0.mean()
            res = stats.wilcoxon(wide.day0, wide.day14, method="exact")
            print(wide.T.to_string())
            print(f"mean egg count reduction {reduction:.0%}; {(wide.day14 < wide.day0).sum()} of "
                  f"{len(wide)} ewes decreased; Wilcoxon W = {res.statistic:.0f}, "
                  f"p = {res.pvalue:.4f}")
            effective = res.pvalue < 0.05
            print("drench effective" if effective else "no significant effect of the drench")
        """),
    ),
]
