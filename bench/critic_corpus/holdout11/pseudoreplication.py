"""Pseudoreplication, holdout11: ballet landing forces on two floors (landings within dancers)
and glacier ablation stakes (stakes within glaciers)."""

from textwrap import dedent

from bench.critic_corpus import Case

_BALLET = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_051)
rows = []
for d in range(10):
    dancer_level = rng.normal(4.2, 0.7)
    for floor, shift in [("sprung", 0.0), ("vinyl_on_concrete", 0.12)]:
        for rep in range(15):
            rows.append({"dancer": f"D{d:02d}", "floor": floor, "landing": rep + 1,
                         "peak_grf_bw": dancer_level + shift + rng.normal(0, 0.45)})
landings = pd.DataFrame(rows).round({"peak_grf_bw": 3})
"""

_GLACIERS = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_052)
rows = []
for g in range(10):
    debris = g % 2 == 1
    glacier_eff = rng.normal(0, 0.55)
    for s in range(rng.integers(8, 16)):
        elev = rng.uniform(2900, 3600)
        abl = (3.1 - 0.0025 * (elev - 3200) - 0.35 * debris + glacier_eff + rng.normal(0, 0.3))
        rows.append({"glacier": f"G{g:02d}", "debris_covered": int(debris), "stake": s,
                     "elev_m": round(elev), "ablation_m_we": round(abl, 2)})
stakes = pd.DataFrame(rows)
"""

CASES: list[Case] = [
    Case(
        id="pseudoreplication-h11-ballet-landings-ttest-ind",
        family="pseudoreplication",
        twin="pseudoreplication-h11-ballet-dancer-means-paired",
        split="holdout11",
        setup=_BALLET,
        note="150 landings per floor from the same 10 dancers are compared with an independent "
        "t-test; the landings are repeated measures within dancers and the design is paired.",
        code=dedent("""\
            from scipy import stats

            sprung = landings.loc[landings["floor"] == "sprung", "peak_grf_bw"]
            hard = landings.loc[landings["floor"] == "vinyl_on_concrete", "peak_grf_bw"]
            t, p = stats.ttest_ind(hard, sprung)
            diff = hard.mean() - sprung.mean()
            print(f"landings per floor: {len(sprung)}")
            print(f"peak GRF sprung {sprung.mean():.2f} BW vs hard {hard.mean():.2f} BW")
            print(f"difference {diff:+.3f} BW, t = {t:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h11-ballet-dancer-means-paired",
        family=None,
        twin="pseudoreplication-h11-ballet-landings-ttest-ind",
        split="holdout11",
        setup=_BALLET,
        note="Landings are averaged within dancer and floor first, and the 10 dancers' floor "
        "means are compared with a paired t-test.",
        code=dedent("""\
            from scipy import stats

            grf = landings.pivot_table(index="dancer", columns="floor", values="peak_grf_bw",
                                       aggfunc="mean")
            sprung, hard = grf["sprung"], grf["vinyl_on_concrete"]
            t, p = stats.ttest_rel(hard, sprung)
            diff = hard.mean() - sprung.mean()
            print(f"dancers: {len(sprung)}")
            print(f"peak GRF sprung {sprung.mean():.2f} BW vs hard {hard.mean():.2f} BW")
            print(f"difference {diff:+.3f} BW, t = {t:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h11-glacier-stakes-ols",
        family="pseudoreplication",
        twin="pseudoreplication-h11-glacier-stakes-mixedlm",
        split="holdout11",
        setup=_GLACIERS,
        note="Debris cover is a glacier-level treatment (5 vs 5 glaciers) but OLS treats every "
        "ablation stake as an independent replicate, understating the debris effect's SE.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            stakes["elev_km"] = (stakes["elev_m"] - 3200) / 1000
            ols = smf.ols("ablation_m_we ~ debris_covered + elev_km", data=stakes).fit()
            print(stakes.groupby("debris_covered").agg(glaciers=("glacier", "nunique"),
                                                      stakes=("stake", "size")))
            est, se = ols.params["debris_covered"], ols.bse["debris_covered"]
            print(f"debris cover effect on ablation: {est:+.2f} m w.e. (SE {se:.2f}), "
                  f"p = {ols.pvalues['debris_covered']:.4f}")
        """),
    ),
    Case(
        id="pseudoreplication-h11-glacier-stakes-mixedlm",
        family=None,
        twin="pseudoreplication-h11-glacier-stakes-ols",
        split="holdout11",
        setup=_GLACIERS,
        note="A mixed model with a random intercept per glacier keeps the stakes nested in their "
        "glacier, so the debris effect is judged against between-glacier variation.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            stakes["elev_km"] = (stakes["elev_m"] - 3200) / 1000
            mm = smf.mixedlm("ablation_m_we ~ debris_covered + elev_km", data=stakes,
                             groups=stakes["glacier"]).fit(reml=True)
            print(stakes.groupby("debris_covered").agg(glaciers=("glacier", "nunique"),
                                                      stakes=("stake", "size")))
            est, se = mm.params["debris_covered"], mm.bse["debris_covered"]
            print(f"debris cover effect on ablation: {est:+.2f} m w.e. (SE {se:.2f}), "
                  f"p = {mm.pvalues['debris_covered']:.4f}")
        """),
    ),
]
