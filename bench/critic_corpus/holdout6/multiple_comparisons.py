"""Multiple comparisons, holdout6 idioms: a hand-written Rayleigh test in a helper function run
over 36 faults' tidal phases in a loop, each fault called 'tidally triggered' at p < 0.05, and a
statsmodels-formula logit fitted per segment of a web A/B test in a groupby loop, with every
segment whose variant coefficient has p < 0.05 reported as a winner or loser."""

from textwrap import dedent

from bench.critic_corpus import Case

_TIDES = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6401)
rows = []
for k in range(36):
    n_events = int(rng.integers(15, 90))
    if k == 7:   # one well-recorded fault really does slip near peak tidal stress
        phase = rng.vonmises(0.0, 1.0, 80) % (2 * np.pi)
    else:
        phase = rng.uniform(0, 2 * np.pi, n_events)
    rows.append(pd.DataFrame({"fault": f"F{k + 1:02d}", "tidal_phase": phase}))
quakes = pd.concat(rows, ignore_index=True)
"""

_CHECKOUT = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6402)
n = 30_000
ab = pd.DataFrame({
    "country": rng.choice(["US", "UK", "DE", "FR", "BR", "IN"], n,
                          p=[0.35, 0.15, 0.15, 0.1, 0.1, 0.15]),
    "device": rng.choice(["desktop", "mobile", "tablet"], n, p=[0.45, 0.45, 0.10]),
    "visitor": rng.choice(["new", "returning"], n, p=[0.6, 0.4]),
    "variant": rng.choice(["control", "one_page"], n),
})
base = 0.035 + 0.02 * (ab.visitor == "returning") - 0.01 * (ab.device == "mobile")
lift = np.where(ab.variant == "one_page", 1.03, 1.0)   # a small, uniform 3% lift
ab["converted"] = (rng.random(n) < base * lift).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="multcomp-rayleigh-helper-loop-faults",
        family="multiple_comparisons",
        twin="multcomp-rayleigh-helper-loop-faults-sound",
        split="holdout6",
        setup=_TIDES,
        note="36 Rayleigh tests, one per fault, each judged at p < 0.05 with no correction: "
        "about two faults are expected to look 'tidally triggered' by chance alone.",
        code=dedent("""\
            def rayleigh_p(theta):
                # Rayleigh test of uniformity for circular data (Zar's approximation)
                n = len(theta)
                r_n = np.abs(np.exp(1j * theta).sum())
                return float(np.exp(np.sqrt(1 + 4 * n + 4 * (n ** 2 - r_n ** 2)) - (1 + 2 * n)))


            results = []
            for fault, grp in quakes.groupby("fault"):
                p = rayleigh_p(grp.tidal_phase.to_numpy())
                results.append((fault, len(grp), p))
            table = pd.DataFrame(results, columns=["fault", "events", "p"]).set_index("fault")
            triggered = table[table.p < 0.05]
            print(f"{len(table)} faults tested")
            print("tidally triggered faults (p < 0.05):")
            print(triggered.round(4).to_string())
        """),
    ),
    Case(
        id="multcomp-rayleigh-helper-loop-faults-sound",
        family=None,
        twin="multcomp-rayleigh-helper-loop-faults",
        split="holdout6",
        setup=_TIDES,
        note="The same 36 Rayleigh tests, with faults called tidally triggered only where the "
        "Holm-adjusted p-value (family-wise error over all faults) is below 0.05.",
        code=dedent("""\
            from statsmodels.stats.multitest import multipletests


            def rayleigh_p(theta):
                # Rayleigh test of uniformity for circular data (Zar's approximation)
                n = len(theta)
                r_n = np.abs(np.exp(1j * theta).sum())
                return float(np.exp(np.sqrt(1 + 4 * n + 4 * (n ** 2 - r_n ** 2)) - (1 + 2 * n)))


            results = []
            for fault, grp in quakes.groupby("fault"):
                p = rayleigh_p(grp.tidal_phase.to_numpy())
                results.append((fault, len(grp), p))
            table = pd.DataFrame(results, columns=["fault", "events", "p"]).set_index("fault")
            table["p_holm"] = multipletests(table.p, method="holm")[1]
            triggered = table[table.p_holm < 0.05]
            print(f"{len(table)} faults tested")
            print("tidally triggered faults (Holm-adjusted p < 0.05):")
            print(triggered.round(4).to_string() if len(triggered) else "none")
        """),
    ),
    Case(
        id="multcomp-segment-logit-loop-checkout",
        family="multiple_comparisons",
        twin="multcomp-segment-logit-loop-checkout-sound",
        split="holdout6",
        setup=_CHECKOUT,
        note="A logit per segment (36 country x device x visitor cells), and every segment with "
        "p < 0.05 is named as a place where the one-page checkout wins or loses, uncorrected.",
        code=dedent("""\
            import statsmodels.formula.api as smf

            rows = []
            for (country, device, visitor), seg in ab.groupby(["country", "device", "visitor"]):
                fit = smf.logit("converted ~ C(variant, Treatment('control'))", data=seg).fit(
                    disp=0)
                term = fit.params.index[1]
                rows.append({"segment": f"{country}/{device}/{visitor}", "users": len(seg),
                             "odds_ratio": np.exp(fit.params[term]), "p": fit.pvalues[term]})
            seg_table = pd.DataFrame(rows).set_index("segment")
            hits = seg_table[seg_table.p < 0.05]
            print(f"{len(seg_table)} segments analysed")
            print("segments where the one-page checkout made a significant difference:")
            print(hits.round(3).to_string())
        """),
    ),
    Case(
        id="multcomp-segment-logit-loop-checkout-sound",
        family=None,
        twin="multcomp-segment-logit-loop-checkout",
        split="holdout6",
        setup=_CHECKOUT,
        note="The same 36 segment logits, but segments are only named where the "
        "Benjamini-Hochberg adjusted p-value across all 36 is below 0.05.",
        code=dedent("""\
            import statsmodels.formula.api as smf
            from statsmodels.stats.multitest import multipletests

            rows = []
            for (country, device, visitor), seg in ab.groupby(["country", "device", "visitor"]):
                fit = smf.logit("converted ~ C(variant, Treatment('control'))", data=seg).fit(
                    disp=0)
                term = fit.params.index[1]
                rows.append({"segment": f"{country}/{device}/{visitor}", "users": len(seg),
                             "odds_ratio": np.exp(fit.params[term]), "p": fit.pvalues[term]})
            seg_table = pd.DataFrame(rows).set_index("segment")
            seg_table["p_bh"] = multipletests(seg_table.p, method="fdr_bh")[1]
            hits = seg_table[seg_table.p_bh < 0.05]
            print(f"{len(seg_table)} segments analysed")
            print("segments where the one-page checkout made a significant difference "
                  "(BH-adjusted p < 0.05):")
            print(hits.round(3).to_string() if len(hits) else "none")
        """),
    ),
]
