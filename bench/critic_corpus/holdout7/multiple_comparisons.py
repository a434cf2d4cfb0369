"""Multiple comparisons, holdout7 idioms: a vectorised scipy Mann-Whitney test over all 28
GPS/training-load columns at once (axis=0) comparing players who went on to a soft-tissue injury
with those who did not, the p < 0.05 rows of the result frame reported; and a moderator hunt in
a priming experiment, a statsmodels formula loop over four outcomes and five moderators whose
'significant' condition x moderator interactions are written up."""

from textwrap import dedent

from bench.critic_corpus import Case

_SQUAD = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7401)
n_players = 64
metrics = ["total_km", "hsr_m", "sprint_m", "accels", "decels", "peak_speed", "player_load",
           "acwr", "monotony", "strain", "rpe_load", "sleep_h", "hrv_rmssd", "cmj_cm",
           "groin_squeeze", "nordic_n", "sit_reach", "wellness", "soreness", "min_played",
           "matches", "travel_h", "age", "prev_injuries", "body_mass", "sum7_skinfold",
           "yo_yo_m", "bronco_s"]
load = pd.DataFrame(rng.normal(0, 1, (n_players, len(metrics))), columns=metrics)
injured = rng.random(n_players) < 0.3
load.loc[injured, "prev_injuries"] += 1.4     # the one real difference
"""

_PRIMING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7402)
n = 240
study = pd.DataFrame({
    "condition": np.repeat(["control", "prime"], n // 2),
    "age": rng.integers(18, 65, n),
    "female": rng.integers(0, 2, n),
    "need_cognition": rng.normal(0, 1, n).round(2),
    "bilingual": rng.integers(0, 2, n),
    "trait_anxiety": rng.normal(0, 1, n).round(2),
})
primed = (study.condition == "prime").to_numpy()
study["donation"] = rng.gamma(2.0, 2.5, n).round(2) + 0.6 * primed
study["helping_s"] = rng.normal(120, 30, n).round()
study["mood"] = rng.normal(5, 1.2, n).round(1)
study["self_esteem"] = rng.normal(30, 5, n).round()
"""

CASES: list[Case] = [
    Case(
        id="multcomp-h7-vectorised-mannwhitney-injury-load-metrics",
        family="multiple_comparisons",
        twin="multcomp-h7-vectorised-mannwhitney-injury-load-metrics-sound",
        split="holdout7",
        setup=_SQUAD,
        note="28 Mann-Whitney tests in one vectorised call and every p < 0.05 is reported as an "
        "injury risk marker, with no family-wise or FDR correction.",
        code=dedent("""\
            from scipy import stats

            res = stats.mannwhitneyu(load[injured].to_numpy(), load[~injured].to_numpy(), axis=0)
            table = pd.DataFrame({"U": res.statistic, "p": res.pvalue}, index=load.columns)
            markers = table[table.p < 0.05].sort_values("p")
            print(f"{injured.sum()} injured vs {(~injured).sum()} uninjured players")
            print(markers.round(4).to_string())
            print(f"=> {len(markers)} load/screening metrics separate the injured players")
        """),
    ),
    Case(
        id="multcomp-h7-vectorised-mannwhitney-injury-load-metrics-sound",
        family=None,
        twin="multcomp-h7-vectorised-mannwhitney-injury-load-metrics",
        split="holdout7",
        setup=_SQUAD,
        note="The same 28 tests, with Holm-adjusted p-values; only metrics that survive the "
        "adjustment are reported.",
        code=dedent("""\
            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            res = stats.mannwhitneyu(load[injured].to_numpy(), load[~injured].to_numpy(), axis=0)
            table = pd.DataFrame({"U": res.statistic, "p": res.pvalue}, index=load.columns)
            table["p_holm"] = multipletests(table.p, method="holm")[1]
            markers = table[table.p_holm < 0.05].sort_values("p")
            print(f"{injured.sum()} injured vs {(~injured).sum()} uninjured players")
            print(markers.round(4).to_string())
            print(f"=> {len(markers)} of {len(table)} metrics separate the injured players "
                  f"(Holm, family-wise alpha 0.05)")
        """),
    ),
    Case(
        id="multcomp-h7-moderator-loop-priming-interactions",
        family="multiple_comparisons",
        twin="multcomp-h7-moderator-loop-priming-interactions-sound",
        split="holdout7",
        setup=_PRIMING,
        note="Twenty condition x moderator interaction tests (4 outcomes x 5 moderators) and "
        "each p < .05 is written up as a moderation finding, uncorrected.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            outcomes = ["donation", "helping_s", "mood", "self_esteem"]
            moderators = ["age", "female", "need_cognition", "bilingual", "trait_anxiety"]
            for dv in outcomes:
                for mod in moderators:
                    fit = smf.ols(f"{dv} ~ C(condition) * {mod}", data=study).fit()
                    term = f"C(condition)[T.prime]:{mod}"
                    if fit.pvalues[term] < 0.05:
                        print(f"priming effect on {dv} is moderated by {mod}: "
                              f"b = {fit.params[term]:.3f}, p = {fit.pvalues[term]:.4f}")
        """),
    ),
    Case(
        id="multcomp-h7-moderator-loop-priming-interactions-sound",
        family=None,
        twin="multcomp-h7-moderator-loop-priming-interactions",
        split="holdout7",
        setup=_PRIMING,
        note="All twenty interaction p-values are collected and Benjamini-Hochberg adjusted "
        "before any moderation claim; the count of tests is printed.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from statsmodels.stats.multitest import multipletests

            outcomes = ["donation", "helping_s", "mood", "self_esteem"]
            moderators = ["age", "female", "need_cognition", "bilingual", "trait_anxiety"]
            rows = []
            for dv in outcomes:
                for mod in moderators:
                    fit = smf.ols(f"{dv} ~ C(condition) * {mod}", data=study).fit()
                    term = f"C(condition)[T.prime]:{mod}"
                    rows.append((dv, mod, fit.params[term], fit.pvalues[term]))
            tests = pd.DataFrame(rows, columns=["outcome", "moderator", "b", "p"])
            tests["q_bh"] = multipletests(tests.p, method="fdr_bh")[1]
            print(f"{len(tests)} exploratory interaction tests; smallest p = {tests.p.min():.4f}")
            print(tests.sort_values("p").head(3).round(4).to_string(index=False))
            print(f"moderators surviving FDR 5%: {int((tests.q_bh < 0.05).sum())}")
        """),
    ),
]
