"""Parametric assumptions, holdout6 idioms: a chi-square test of a crosstab of B2B demo
requests by ad creative whose expected counts are mostly below 1 (one creative was only shown
to four accounts), and linregress across ten injection wells whose volumes span two orders of
magnitude, where one well's swarm carries the whole 'dose-response'."""

from textwrap import dedent

from bench.critic_corpus import Case

_CAMPAIGN = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6557)
creatives = ["case_study", "roi_calc", "webinar", "founder_video", "checklist", "g2_badge",
             "free_audit"]
sizes = np.r_[rng.integers(35, 60, 6), 4]   # free_audit went live in the last week
campaign = pd.DataFrame({"creative": np.repeat(creatives, sizes)})
campaign["demo_request"] = (rng.random(len(campaign)) < 0.04).astype(int)
campaign["account_id"] = np.arange(10_001, 10_001 + len(campaign))
"""

_WELLS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6511)
wells = pd.DataFrame({
    "well": [f"SWD-{i}" for i in range(1, 11)],
    "injected_m3": rng.lognormal(11.8, 1.1, 10).round(-2),   # wastewater volume, 2019-2023
    "quakes_m2": rng.poisson(5, 10),                         # M >= 2 events within 5 km
})
# the biggest well sits next to a critically stressed fault and had one swarm
wells.loc[wells.injected_m3.idxmax(), "quakes_m2"] += 38
"""

CASES: list[Case] = [
    Case(
        id="parametric-chi2-sparse-creatives-demo-requests",
        family="parametric_assumptions",
        twin="parametric-chi2-sparse-creatives-demo-requests-sound",
        split="holdout6",
        setup=_CAMPAIGN,
        note="Pearson's chi-square on a 7x2 table whose demo-request column has expected counts "
        "of 0.2-2: the asymptotic p = 0.013 is far too small (the exact test gives about 0.14).",
        code=dedent("""\
            from scipy.stats import chi2_contingency

            table = pd.crosstab(campaign.creative, campaign.demo_request)
            res = chi2_contingency(table)
            rates = (table[1] / table.sum(axis=1)).sort_values(ascending=False)
            print(table.assign(rate=rates.round(3)).to_string())
            print(f"chi-square = {res.statistic:.2f}, dof = {res.dof}, p = {res.pvalue:.4f}")
            print(f"creative matters; best performer: {rates.index[0]} ({rates.iloc[0]:.0%})")
        """),
    ),
    Case(
        id="parametric-chi2-sparse-creatives-demo-requests-sound",
        family=None,
        twin="parametric-chi2-sparse-creatives-demo-requests",
        split="holdout6",
        setup=_CAMPAIGN,
        note="The expected counts are checked and, being mostly below 1, the Fisher-Freeman-"
        "Halton exact test (seeded Monte Carlo p-value) is used instead of the chi-square.",
        code=dedent("""\
            from scipy.stats import MonteCarloMethod, chi2_contingency, fisher_exact

            table = pd.crosstab(campaign.creative, campaign.demo_request)
            expected = chi2_contingency(table).expected_freq
            rates = (table[1] / table.sum(axis=1)).sort_values(ascending=False)
            print(table.assign(rate=rates.round(3)).to_string())
            print(f"smallest expected count: {expected.min():.2f} "
                  f"({(expected < 5).mean():.0%} of cells below 5), so an exact test is used")
            exact = fisher_exact(table.to_numpy(),
                                 method=MonteCarloMethod(n_resamples=9999,
                                                         rng=np.random.default_rng(65)))
            print(f"Fisher-Freeman-Halton test, p = {exact.pvalue:.3f}")
        """),
    ),
    Case(
        id="parametric-linregress-leverage-injection-wells",
        family="parametric_assumptions",
        twin="parametric-linregress-leverage-injection-wells-sound",
        split="holdout6",
        setup=_WELLS,
        note="Ten wells, volumes lognormal over two orders of magnitude and one 44-event swarm: "
        "linregress's normal-theory p = 1e-5 rests on that single point (ranks show no trend).",
        code=dedent("""\
            from scipy.stats import linregress

            fit = linregress(wells.injected_m3 / 1e5, wells.quakes_m2)
            print(wells.sort_values("injected_m3").to_string(index=False))
            print(f"r = {fit.rvalue:.2f}, p = {fit.pvalue:.2g}")
            print(f"each extra 100,000 m3 injected adds {fit.slope:.1f} M2+ earthquakes "
                  f"(95% CI +/- {1.96 * fit.stderr:.1f})")
        """),
    ),
    Case(
        id="parametric-linregress-leverage-injection-wells-sound",
        family=None,
        twin="parametric-linregress-leverage-injection-wells",
        split="holdout6",
        setup=_WELLS,
        note="Spearman's rank correlation, which needs no normality and is not driven by one "
        "extreme well, is used for ten wells with heavily skewed volumes and counts.",
        code=dedent("""\
            from scipy.stats import spearmanr

            rho = spearmanr(wells.injected_m3, wells.quakes_m2)
            print(wells.sort_values("injected_m3").to_string(index=False))
            print(f"Spearman rho = {rho.statistic:.2f}, p = {rho.pvalue:.2f} (n = {len(wells)})")
            print("no monotone volume-seismicity relation across the ten wells; the largest "
                  "well's swarm is one event sequence, to be examined on its own")
        """),
    ),
]
