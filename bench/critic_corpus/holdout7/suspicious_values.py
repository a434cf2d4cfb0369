"""Suspicious values, holdout7 idioms: a seed-lot germination report built by summing a count
sheet over count days, when the sheet holds running totals, so lots come out at several hundred
per cent germination and all 'pass'; and an open-cluster distance taken as the mean of 1/parallax
over members whose parallaxes are noisy and often negative, so the catalogue of distances holds
negative values and the reported mean is meaningless."""

from textwrap import dedent

from bench.critic_corpus import Case

_GERM = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7801)
lots = [f"WW-{k:03d}" for k in range(1, 25)]                  # winter wheat seed lots
viability = rng.beta(18, 2, len(lots))
count_days = [4, 6, 8]                                        # first, interim, final count
rows = []
for lot, v in zip(lots, viability):
    for tray in range(1, 5):                                  # 4 x 50 seeds per lot
        final = rng.binomial(50, v)
        share = np.sort(rng.uniform(0.5, 1.0, 2))
        for day, frac in zip(count_days, [*share, 1.0]):
            # the sheet records germinated seedlings counted so far on each count day
            rows.append((lot, tray, day, int(round(final * frac))))
sheet = pd.DataFrame(rows, columns=["lot", "tray", "day", "germinated"])
seeds_per_tray = 50
"""

_CLUSTER = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(7802)
n = 1800
true_plx = rng.normal(0.24, 0.01, n)                          # cluster at ~4.2 kpc
g_mag = rng.uniform(13, 20, n)
plx_err = 0.02 + 0.4 * 10 ** (0.4 * (g_mag - 20))             # faint stars: large errors
members = pd.DataFrame({"g_mag": g_mag.round(2),
                        "parallax_mas": true_plx + rng.normal(0, plx_err),
                        "parallax_error_mas": plx_err})
"""

CASES: list[Case] = [
    Case(
        id="suspicious-h7-germination-summed-running-counts",
        family="suspicious_values",
        twin="suspicious-h7-germination-summed-running-counts-sound",
        split="holdout7",
        setup=_GERM,
        note="The sheet holds running totals per count day; summing them over days triple counts "
        "seedlings and the report prints germination above 200% per lot as if plausible.",
        code=dedent("""\
            sown = sheet.groupby("lot")["tray"].nunique() * seeds_per_tray
            germ_pct = sheet.groupby("lot")["germinated"].sum() / sown * 100
            report = pd.DataFrame({"sown": sown, "germination_pct": germ_pct.round(1)})
            report["meets_85pct_standard"] = report.germination_pct >= 85
            print(report.head(8).to_string())
            print(f"mean germination {germ_pct.mean():.1f}%, "
                  f"{report.meets_85pct_standard.sum()} of {len(report)} lots certified")
        """),
    ),
    Case(
        id="suspicious-h7-germination-summed-running-counts-sound",
        family=None,
        twin="suspicious-h7-germination-summed-running-counts",
        split="holdout7",
        setup=_GERM,
        note="Germination is the final-count total per lot over seeds sown (running counts are "
        "not summed), so every percentage lies in 0-100 and the certification is meaningful.",
        code=dedent("""\
            sown = sheet.groupby("lot")["tray"].nunique() * seeds_per_tray
            final = sheet[sheet.day == sheet.day.max()]
            germ_pct = final.groupby("lot")["germinated"].sum() / sown * 100
            assert germ_pct.between(0, 100).all()
            report = pd.DataFrame({"sown": sown, "germination_pct": germ_pct.round(1)})
            report["meets_85pct_standard"] = report.germination_pct >= 85
            print(report.head(8).to_string())
            print(f"mean germination {germ_pct.mean():.1f}%, "
                  f"{report.meets_85pct_standard.sum()} of {len(report)} lots certified")
        """),
    ),
    Case(
        id="suspicious-h7-cluster-distance-mean-inverse-parallax",
        family="suspicious_values",
        twin="suspicious-h7-cluster-distance-mean-inverse-parallax-sound",
        split="holdout7",
        setup=_CLUSTER,
        note="1/parallax of noisy members gives negative and enormous distances; their summary "
        "(negative minimum, absurd mean) is printed and the mean reported as the cluster distance.",
        code=dedent("""\
            members["dist_pc"] = 1000.0 / members["parallax_mas"]
            print(members["dist_pc"].describe().round(0).to_string())
            print(f"cluster distance = {members.dist_pc.mean():.0f} pc "
                  f"(from {len(members)} members)")
        """),
    ),
    Case(
        id="suspicious-h7-cluster-distance-mean-inverse-parallax-sound",
        family=None,
        twin="suspicious-h7-cluster-distance-mean-inverse-parallax",
        split="holdout7",
        setup=_CLUSTER,
        note="The members' parallaxes are averaged with inverse-variance weights and only the "
        "mean parallax is inverted, giving a positive distance with a propagated error.",
        code=dedent("""\
            w = 1.0 / members["parallax_error_mas"] ** 2
            plx = np.average(members["parallax_mas"], weights=w)
            plx_se = np.sqrt(1.0 / w.sum())
            print(f"{(members.parallax_mas <= 0).sum()} members have parallax <= 0 "
                  f"(kept: averaging parallaxes, not distances)")
            print(f"mean parallax = {plx:.4f} +/- {plx_se:.4f} mas")
            print(f"cluster distance = {1000 / plx:.0f} pc "
                  f"(+/- {1000 * plx_se / plx ** 2:.0f} pc, from {len(members)} members)")
        """),
    ),
]
