"""Multiple comparisons, holdout4 idioms: a row-wise apply of a Poisson tail probability that
flags 'outbreak' districts at p < 0.05 across 60 districts, and a list comprehension of
two-proportion z-tests on 48 heroes' win rates before and after a game patch."""

from textwrap import dedent

from bench.critic_corpus import Case

_SURVEILLANCE = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(2020)
n_districts = 60
districts = pd.DataFrame({
    "district": [f"D{d:02d}" for d in range(n_districts)],
    "population": rng.integers(20_000, 250_000, n_districts),
})
baseline_rate = 14 / 100_000      # weekly notifications per person, from last five years
districts["expected"] = districts.population * baseline_rate
# this week every district is at its usual rate: no outbreak anywhere
districts["cases"] = rng.poisson(districts.expected)
"""

_PATCH = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(1409)
heroes = [f"hero_{h:02d}" for h in range(48)]
picks_before = rng.integers(300, 900, len(heroes))
picks_after = rng.integers(300, 900, len(heroes))
true_wr = rng.uniform(0.46, 0.54, len(heroes))   # the patch changed no hero's strength
stats_df = pd.DataFrame({
    "hero": heroes,
    "games_before": picks_before, "wins_before": rng.binomial(picks_before, true_wr),
    "games_after": picks_after, "wins_after": rng.binomial(picks_after, true_wr),
})
"""

CASES: list[Case] = [
    Case(
        id="multcomp-poisson-outbreak-districts",
        family="multiple_comparisons",
        twin="multcomp-poisson-outbreak-districts-sound",
        split="holdout4",
        setup=_SURVEILLANCE,
        note="A Poisson exceedance test in each of 60 districts, each flagged at p < 0.05 with "
        "no correction: about three 'outbreaks' are expected by chance every week.",
        code=dedent("""\
            from scipy import stats

            districts["p_exceed"] = districts.apply(
                lambda r: stats.poisson.sf(r.cases - 1, r.expected), axis=1)
            alerts = districts.query("p_exceed < 0.05").sort_values("p_exceed")
            print(f"{len(alerts)} districts signal an outbreak this week")
            alerts[["district", "cases", "expected", "p_exceed"]].round(3)
        """),
    ),
    Case(
        id="multcomp-poisson-outbreak-districts-sound",
        family=None,
        twin="multcomp-poisson-outbreak-districts",
        split="holdout4",
        setup=_SURVEILLANCE,
        note="Same 60 exceedance tests, but alerts require a Benjamini-Hochberg adjusted "
        "p-value below 0.05 (scipy.stats.false_discovery_control).",
        code=dedent("""\
            from scipy import stats

            districts["p_exceed"] = districts.apply(
                lambda r: stats.poisson.sf(r.cases - 1, r.expected), axis=1)
            districts["q_bh"] = stats.false_discovery_control(districts.p_exceed)
            alerts = districts.query("q_bh < 0.05").sort_values("q_bh")
            print(f"{len(alerts)} of {len(districts)} districts signal an outbreak this week "
                  f"(BH-adjusted, FDR 5%); smallest q = {districts.q_bh.min():.2f}")
            alerts[["district", "cases", "expected", "q_bh"]].round(3)
        """),
    ),
    Case(
        id="multcomp-hero-winrate-patch-ztests",
        family="multiple_comparisons",
        twin="multcomp-hero-winrate-patch-ztests-sound",
        split="holdout4",
        setup=_PATCH,
        note="48 two-proportion z-tests (one per hero) and every hero with p < 0.05 is listed "
        "as 'changed by the patch', with no family-wise or FDR control.",
        code=dedent("""\
            from statsmodels.stats.proportion import proportions_ztest

            pvals = [proportions_ztest([r.wins_after, r.wins_before],
                                       [r.games_after, r.games_before])[1]
                     for r in stats_df.itertuples()]
            stats_df["delta_wr"] = (stats_df.wins_after / stats_df.games_after
                                    - stats_df.wins_before / stats_df.games_before)
            stats_df["p"] = pvals
            changed = stats_df[stats_df.p < 0.05]
            print(f"heroes whose win rate moved with the patch: {len(changed)}")
            changed[["hero", "delta_wr", "p"]].round(4)
        """),
    ),
    Case(
        id="multcomp-hero-winrate-patch-ztests-sound",
        family=None,
        twin="multcomp-hero-winrate-patch-ztests",
        split="holdout4",
        setup=_PATCH,
        note="Same 48 z-tests, judged against a Bonferroni threshold of 0.05 / 48.",
        code=dedent("""\
            from statsmodels.stats.proportion import proportions_ztest

            pvals = [proportions_ztest([r.wins_after, r.wins_before],
                                       [r.games_after, r.games_before])[1]
                     for r in stats_df.itertuples()]
            stats_df["delta_wr"] = (stats_df.wins_after / stats_df.games_after
                                    - stats_df.wins_before / stats_df.games_before)
            stats_df["p"] = pvals
            alpha = 0.05 / len(stats_df)
            changed = stats_df[stats_df.p < alpha]
            print(f"heroes whose win rate moved with the patch (Bonferroni, p < {alpha:.4f}): "
                  f"{len(changed)}; smallest p = {stats_df.p.min():.4f}")
            changed[["hero", "delta_wr", "p"]].round(4)
        """),
    ),
]
