"""Multiple comparisons, holdout3 idioms: all 190 pairwise Spearman tests between wearable
metrics built with itertools.combinations and filtered with DataFrame.query, daily peeking at a
running proportions z-test that stops at the first p < 0.05, and the 29 depot dummies of one
statsmodels formula fit read off one by one."""

from textwrap import dedent

from bench.critic_corpus import Case

_WEARABLES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6063)
n = 120
metrics = ["resting_hr", "hrv_ms", "steps", "active_min", "sleep_h", "deep_sleep_pct",
           "rem_pct", "spo2", "skin_temp", "resp_rate", "stress_idx", "floors", "vo2max",
           "standing_h", "calories", "sedentary_h", "awakenings", "bedtime_var", "body_batt",
           "hydration"]
wear = pd.DataFrame(rng.normal(0, 1, (n, len(metrics))), columns=metrics)
# two genuine links; every other pair is independent
wear["hrv_ms"] = -0.6 * wear.resting_hr + 0.8 * wear.hrv_ms
wear["active_min"] = 0.7 * wear.steps + 0.7 * wear.active_min
"""

_SHOP_AB = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(113)
days, per_day = 28, 350
events = pd.DataFrame({
    "day": np.repeat(np.arange(1, days + 1), 2 * per_day),
    "variant": np.tile(np.repeat(["control", "new_shop"], per_day), days),
})
# in-game shop redesign: same purchase probability in both arms
events["purchased"] = (rng.random(len(events)) < 0.062).astype(int)
"""

_DEPOTS = """\
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(3141)
depots = [f"D{d:02d}" for d in range(30)]
n = 3000
drops = pd.DataFrame({
    "depot": rng.choice(depots, n),
    "distance_km": rng.gamma(4, 6, n).round(1),
    "parcels": rng.integers(1, 25, n),
})
# lateness depends on distance and load only; depots do not differ
drops["late_min"] = (2 + 0.25 * drops.distance_km + 0.4 * drops.parcels
                     + rng.normal(0, 9, n)).round(1)
fit = smf.ols("late_min ~ C(depot) + distance_km + parcels", data=drops).fit()
"""

CASES: list[Case] = [
    Case(
        id="multcomp-pairwise-spearman-wearables",
        family="multiple_comparisons",
        twin="multcomp-pairwise-spearman-wearables-sound",
        split="holdout3",
        setup=_WEARABLES,
        note="190 pairwise Spearman tests between 20 wearable metrics; every pair with "
        "p < 0.05 is reported as a relationship, with no multiplicity correction.",
        code=dedent("""\
            from itertools import combinations

            from scipy import stats

            rows = []
            for a, b in combinations(wear.columns, 2):
                rho, p = stats.spearmanr(wear[a], wear[b])
                rows.append({"pair": f"{a} ~ {b}", "rho": rho, "p": p})
            pairs = pd.DataFrame(rows)
            related = pairs.query("p < 0.05").sort_values("p")
            print(f"{len(related)} of {len(pairs)} metric pairs are significantly related:")
            print(related.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-pairwise-spearman-wearables-sound",
        family=None,
        twin="multcomp-pairwise-spearman-wearables",
        split="holdout3",
        setup=_WEARABLES,
        note="Same 190 Spearman tests, but pairs are reported at a Benjamini-Yekutieli FDR of "
        "5% (valid under the dependence between overlapping pairs).",
        code=dedent("""\
            from itertools import combinations

            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            rows = []
            for a, b in combinations(wear.columns, 2):
                rho, p = stats.spearmanr(wear[a], wear[b])
                rows.append({"pair": f"{a} ~ {b}", "rho": rho, "p": p})
            pairs = pd.DataFrame(rows)
            pairs["q_by"] = multipletests(pairs.p, alpha=0.05, method="fdr_by")[1]
            related = pairs.query("q_by < 0.05").sort_values("p")
            print(f"{len(related)} of {len(pairs)} metric pairs related at FDR 5% (BY):")
            print(related.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multcomp-daily-peeking-shop-ab",
        family="multiple_comparisons",
        twin="multcomp-daily-peeking-shop-ab-sound",
        split="holdout3",
        setup=_SHOP_AB,
        note="The cumulative z-test is re-run every day and the test stops at the first "
        "p < 0.05: 28 uncorrected looks, so 'significant' on day 5 is a false alarm.",
        code=dedent("""\
            from statsmodels.stats.proportion import proportions_ztest

            for day in range(1, days + 1):
                seen = (events[events.day <= day]
                        .groupby("variant").purchased.agg(["sum", "count"]))
                z, p = proportions_ztest(seen["sum"], seen["count"])
                rate = seen["sum"] / seen["count"]
                if p < 0.05:
                    print(f"day {day}: new_shop {rate['new_shop']:.2%} vs control "
                          f"{rate['control']:.2%}, p = {p:.4f} -> significant, rolling out")
                    break
            else:
                print(f"no significant difference after {days} days (p = {p:.3f})")
        """),
    ),
    Case(
        id="multcomp-daily-peeking-shop-ab-sound",
        family=None,
        twin="multcomp-daily-peeking-shop-ab",
        split="holdout3",
        setup=_SHOP_AB,
        note="Same daily monitoring, but each of the 28 planned looks is tested at a "
        "Bonferroni-split alpha of 0.05/28, which bounds the overall false-alarm rate at 5%.",
        code=dedent("""\
            from statsmodels.stats.proportion import proportions_ztest

            alpha_per_look = 0.05 / days   # Bonferroni over the 28 planned daily looks
            for day in range(1, days + 1):
                seen = (events[events.day <= day]
                        .groupby("variant").purchased.agg(["sum", "count"]))
                z, p = proportions_ztest(seen["sum"], seen["count"])
                rate = seen["sum"] / seen["count"]
                if p < alpha_per_look:
                    print(f"day {day}: new_shop {rate['new_shop']:.2%} vs control "
                          f"{rate['control']:.2%}, p = {p:.4f} < {alpha_per_look:.4f} -> stop")
                    break
            else:
                print(f"no difference at the corrected level after {days} days: new_shop "
                      f"{rate['new_shop']:.2%} vs control {rate['control']:.2%} (p = {p:.3f})")
        """),
    ),
    Case(
        id="multcomp-depot-dummies-ols",
        family="multiple_comparisons",
        twin="multcomp-depot-dummies-ols-sound",
        split="holdout3",
        setup=_DEPOTS,
        note="Each of 29 depot coefficients of one OLS fit is judged at p < 0.05 on its own and "
        "the 'significant' depots are named, with no correction.",
        code=dedent("""\
            depot_terms = fit.pvalues.filter(like="C(depot)")
            flagged = (pd.DataFrame({"extra_min": fit.params[depot_terms.index],
                                     "p": depot_terms})
                       .query("p < 0.05")
                       .rename(index=lambda t: t.split("T.")[1].rstrip("]")))
            print(f"depots that differ from {sorted(drops.depot.unique())[0]} "
                  f"after adjusting for distance and load:")
            flagged.round(4)
        """),
    ),
    Case(
        id="multcomp-depot-dummies-ols-sound",
        family=None,
        twin="multcomp-depot-dummies-ols",
        split="holdout3",
        setup=_DEPOTS,
        note="The 29 depot contrasts are judged on Holm-adjusted p-values, alongside the joint "
        "F-test that all depot effects are zero.",
        code=dedent("""\
            from statsmodels.stats.multitest import multipletests

            depot_terms = fit.pvalues.filter(like="C(depot)")
            joint = fit.f_test(", ".join(f"{t} = 0" for t in depot_terms.index))
            print(f"joint test of all {len(depot_terms)} depot effects: "
                  f"F = {float(joint.fvalue):.2f}, p = {float(joint.pvalue):.3f}")
            table = pd.DataFrame({"extra_min": fit.params[depot_terms.index], "p": depot_terms,
                                  "p_holm": multipletests(depot_terms, method="holm")[1]})
            flagged = (table.query("p_holm < 0.05")
                       .rename(index=lambda t: t.split("T.")[1].rstrip("]")))
            print(f"depots that differ from {sorted(drops.depot.unique())[0]} "
                  f"(Holm-adjusted): {len(flagged)}")
            flagged.round(4)
        """),
    ),
]
