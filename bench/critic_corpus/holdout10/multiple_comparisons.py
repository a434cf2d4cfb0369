"""Multiple comparisons, holdout10: Welch t-tests over two dozen polysomnography metrics for
shift vs day workers (sleep research, results DataFrame), and per-country chi-square tests of an
onboarding A/B in a mobile game (dict comprehension over groupby)."""

from textwrap import dedent

from bench.critic_corpus import Case

_SLEEP = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_031)
metrics = ["tst_min", "sol_min", "waso_min", "sleep_eff", "n1_pct", "n2_pct", "n3_pct",
           "rem_pct", "rem_latency", "ahi", "odi", "min_spo2", "arousal_idx", "plm_idx",
           "hr_mean", "hr_var", "spindle_density", "so_density", "delta_power", "sigma_power",
           "psqi", "ess", "kss_evening", "pvt_lapses"]
n_shift, n_day = 34, 38
shift = pd.DataFrame(rng.normal(size=(n_shift, len(metrics))), columns=metrics)
day = pd.DataFrame(rng.normal(size=(n_day, len(metrics))), columns=metrics)
shift["tst_min"] -= 0.6
shift["psqi"] += 0.5
loc_scale = {"tst_min": (390, 45), "sol_min": (18, 6), "waso_min": (45, 15),
             "sleep_eff": (86, 5), "n1_pct": (8, 3), "n2_pct": (50, 6), "n3_pct": (18, 5),
             "rem_pct": (22, 4), "rem_latency": (95, 25), "ahi": (6, 2), "odi": (5, 1.8),
             "min_spo2": (89, 2.5), "arousal_idx": (14, 4), "plm_idx": (7, 2.5),
             "hr_mean": (60, 6), "hr_var": (45, 12), "spindle_density": (5, 1),
             "so_density": (10, 2), "delta_power": (120, 25), "sigma_power": (18, 4),
             "psqi": (6, 2.5), "ess": (8, 3), "kss_evening": (5, 1.2), "pvt_lapses": (4, 1.5)}
for col, (loc, sd) in loc_scale.items():
    shift[col] = loc + sd * shift[col]
    day[col] = loc + sd * day[col]
psg = pd.concat([shift.assign(schedule="shift"), day.assign(schedule="day")],
                ignore_index=True)
"""

_ONBOARD = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(10_032)
countries = ["US", "BR", "DE", "FR", "GB", "IN", "ID", "JP", "KR", "MX", "PH", "PL", "RU",
             "TR", "VN", "TH", "ES", "IT"]
rows = []
for c in countries:
    base = rng.uniform(0.04, 0.11)
    for arm in ("control", "new_tutorial"):
        n = int(rng.integers(2500, 7000))
        p = base * (1.07 if arm == "new_tutorial" else 1.0)
        rows.append(pd.DataFrame({"country": c, "arm": arm,
                                  "paid_d7": rng.random(n) < p}))
installs = pd.concat(rows, ignore_index=True)
"""

CASES: list[Case] = [
    Case(
        id="multiple_comparisons-h10-sleep-psg-metric-sweep",
        family="multiple_comparisons",
        twin="multiple_comparisons-h10-sleep-psg-metric-sweep-sound",
        split="holdout10",
        setup=_SLEEP,
        note="24 sleep metrics are each Welch-tested and every p < 0.05 is reported as a "
        "shift-work difference with no family-wise or FDR correction.",
        code=dedent("""\
            from scipy import stats

            rows = []
            for m in metrics:
                a = psg.loc[psg["schedule"] == "shift", m]
                b = psg.loc[psg["schedule"] == "day", m]
                t, p = stats.ttest_ind(a, b, equal_var=False)
                rows.append({"metric": m, "shift_mean": a.mean(), "day_mean": b.mean(),
                             "t": t, "p": p})
            res = pd.DataFrame(rows).sort_values("p")
            hits = res[res["p"] < 0.05]
            print(f"{len(hits)} of {len(res)} sleep measures differ between shift and day "
                  "workers (p < 0.05):")
            hits.round(3)
        """),
    ),
    Case(
        id="multiple_comparisons-h10-sleep-psg-metric-sweep-sound",
        family=None,
        twin="multiple_comparisons-h10-sleep-psg-metric-sweep",
        split="holdout10",
        setup=_SLEEP,
        note="Same 24 Welch tests, but p-values are Holm-adjusted across the family of metrics "
        "before any is called a difference.",
        code=dedent("""\
            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            rows = []
            for m in metrics:
                a = psg.loc[psg["schedule"] == "shift", m]
                b = psg.loc[psg["schedule"] == "day", m]
                t, p = stats.ttest_ind(a, b, equal_var=False)
                rows.append({"metric": m, "shift_mean": a.mean(), "day_mean": b.mean(),
                             "t": t, "p": p})
            res = pd.DataFrame(rows).sort_values("p")
            res["p_holm"] = multipletests(res["p"], method="holm")[1]
            hits = res[res["p_holm"] < 0.05]
            print(f"{len(hits)} of {len(res)} sleep measures differ between shift and day "
                  "workers (Holm-adjusted p < 0.05):")
            hits.round(3)
        """),
    ),
    Case(
        id="multiple_comparisons-h10-game-onboarding-by-country",
        family="multiple_comparisons",
        twin="multiple_comparisons-h10-game-onboarding-by-country-sound",
        split="holdout10",
        setup=_ONBOARD,
        note="A chi-square test per country (18 tests) and every country with p < 0.05 is "
        "declared a market where the new tutorial lifts payer conversion; no correction.",
        code=dedent("""\
            from scipy.stats import chi2_contingency

            def lift_test(g):
                tab = pd.crosstab(g["arm"], g["paid_d7"])
                chi2, p, _, _ = chi2_contingency(tab)
                rate = g.groupby("arm")["paid_d7"].mean()
                return pd.Series({"ctrl": rate["control"], "new": rate["new_tutorial"],
                                  "lift": rate["new_tutorial"] / rate["control"] - 1, "p": p})

            by_country = {c: lift_test(g) for c, g in installs.groupby("country")}
            summary = pd.DataFrame(by_country).T.sort_values("p")
            winners = summary.index[summary["p"] < 0.05].tolist()
            print("roll out new tutorial in:", winners or "none")
            summary.round(4)
        """),
    ),
    Case(
        id="multiple_comparisons-h10-game-onboarding-by-country-sound",
        family=None,
        twin="multiple_comparisons-h10-game-onboarding-by-country",
        split="holdout10",
        setup=_ONBOARD,
        note="Per-country chi-square p-values are Benjamini-Hochberg adjusted over the 18 "
        "countries before markets are selected.",
        code=dedent("""\
            from scipy.stats import chi2_contingency
            from statsmodels.stats.multitest import multipletests

            def lift_test(g):
                tab = pd.crosstab(g["arm"], g["paid_d7"])
                chi2, p, _, _ = chi2_contingency(tab)
                rate = g.groupby("arm")["paid_d7"].mean()
                return pd.Series({"ctrl": rate["control"], "new": rate["new_tutorial"],
                                  "lift": rate["new_tutorial"] / rate["control"] - 1, "p": p})

            by_country = {c: lift_test(g) for c, g in installs.groupby("country")}
            summary = pd.DataFrame(by_country).T.sort_values("p")
            summary["q_bh"] = multipletests(summary["p"], method="fdr_bh")[1]
            winners = summary.index[summary["q_bh"] < 0.05].tolist()
            print("roll out new tutorial in:", winners or "none")
            summary.round(4)
        """),
    ),
]
