"""Multiple comparisons, holdout9 idioms: every pair of nine museum galleries compared for
visitor dwell time with itertools.combinations and Mann-Whitney tests, and a case-control screen
of 32 candidate exposures for a rare disease built from statsmodels Table2x2 odds ratios in a
loop, each list filtered at p < 0.05."""

from textwrap import dedent

from bench.critic_corpus import Case

_DWELL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9401)
galleries = ["Antiquities", "Baroque", "Ceramics", "Dutch Masters", "Impressionists",
             "Immersive Room", "Photography", "Sculpture Court", "Textiles"]
frames = []
for g in galleries:
    n = int(rng.integers(55, 80))
    median = 6.5 if g == "Immersive Room" else 4.0
    frames.append(pd.DataFrame({"gallery": g,
                                "dwell_min": rng.lognormal(np.log(median), 0.7, n).round(2)}))
dwell = pd.concat(frames, ignore_index=True)
"""

_CASE_CONTROL = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(9402)
n_cases, n_controls = 70, 280
exposures = ["well_water", "farm_childhood", "pesticide_home", "solvent_work", "welding",
             "hair_dye", "smoking_ever", "passive_smoke", "raw_milk", "game_meat",
             "pet_bird", "pet_cat", "pet_dog", "horse_contact", "mould_home", "damp_home",
             "near_highway", "near_power_line", "near_quarry", "night_shift", "painter",
             "printer", "hairdresser", "dry_cleaner", "mechanic", "nurse", "teacher",
             "statin_use", "ppi_use", "nsaid_use", "oral_contraceptive", "asthma_history"]
prev = rng.uniform(0.08, 0.45, len(exposures))
case = np.r_[np.ones(n_cases, int), np.zeros(n_controls, int)]
cc = pd.DataFrame({"case": case})
for name, p in zip(exposures, prev, strict=True):
    cc[name] = (rng.random(len(cc)) < p).astype(int)
# one genuine risk factor: solvents at work roughly triple the odds
cc.loc[cc.case.eq(1), "solvent_work"] = (rng.random(n_cases) < 0.45).astype(int)
cc.loc[cc.case.eq(0), "solvent_work"] = (rng.random(n_controls) < 0.2).astype(int)
"""

CASES: list[Case] = [
    Case(
        id="multiple_comparisons-h9-museum-gallery-pairwise-mwu",
        family="multiple_comparisons",
        twin="multiple_comparisons-h9-museum-gallery-pairwise-mwu-sound",
        split="holdout9",
        setup=_DWELL,
        note="All 36 gallery pairs are tested and every pair with raw p < 0.05 is listed as a "
        "real difference; no family-wise or FDR correction, so null pairs slip in.",
        code=dedent("""\
            from itertools import combinations

            from scipy import stats

            by_gallery = {g: d["dwell_min"].to_numpy() for g, d in dwell.groupby("gallery")}
            rows = []
            for a, b in combinations(sorted(by_gallery), 2):
                res = stats.mannwhitneyu(by_gallery[a], by_gallery[b])
                diff = np.median(by_gallery[a]) - np.median(by_gallery[b])
                rows.append((a, b, diff, res.pvalue))
            pairs = pd.DataFrame(rows, columns=["gallery_a", "gallery_b", "median_diff", "p"])

            different = pairs[pairs["p"] < 0.05].sort_values("p")
            print(f"{len(pairs)} gallery pairs compared; {len(different)} differ in dwell time:")
            print(different.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multiple_comparisons-h9-museum-gallery-pairwise-mwu-sound",
        family=None,
        twin="multiple_comparisons-h9-museum-gallery-pairwise-mwu",
        split="holdout9",
        setup=_DWELL,
        note="The 36 pairwise Mann-Whitney p-values are Holm-adjusted before any pair is "
        "declared different, controlling the family-wise error rate.",
        code=dedent("""\
            from itertools import combinations

            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            by_gallery = {g: d["dwell_min"].to_numpy() for g, d in dwell.groupby("gallery")}
            rows = []
            for a, b in combinations(sorted(by_gallery), 2):
                res = stats.mannwhitneyu(by_gallery[a], by_gallery[b])
                diff = np.median(by_gallery[a]) - np.median(by_gallery[b])
                rows.append((a, b, diff, res.pvalue))
            pairs = pd.DataFrame(rows, columns=["gallery_a", "gallery_b", "median_diff", "p"])
            pairs["p_holm"] = multipletests(pairs["p"], method="holm")[1]

            different = pairs[pairs["p_holm"] < 0.05].sort_values("p")
            print(f"{len(pairs)} gallery pairs compared; {len(different)} differ in dwell time "
                  "(Holm-adjusted):")
            print(different.round(4).to_string(index=False))
        """),
    ),
    Case(
        id="multiple_comparisons-h9-rare-disease-exposure-screen",
        family="multiple_comparisons",
        twin="multiple_comparisons-h9-rare-disease-exposure-screen-sound",
        split="holdout9",
        setup=_CASE_CONTROL,
        note="32 exposures are each tested for association with case status and every one with "
        "p < 0.05 is reported as a risk factor, without any multiplicity adjustment.",
        code=dedent("""\
            import statsmodels.api as sm

            results = []
            for col in exposures:
                tab = (pd.crosstab(cc[col], cc["case"])
                       .reindex(index=[1, 0], columns=[1, 0], fill_value=0))
                t22 = sm.stats.Table2x2(tab.to_numpy())
                lo, hi = t22.oddsratio_confint()
                results.append({"exposure": col, "OR": t22.oddsratio, "ci_low": lo,
                                "ci_high": hi, "p": t22.oddsratio_pvalue()})
            screen = pd.DataFrame(results).sort_values("p")

            flagged = screen[screen["p"] < 0.05]
            print(f"{len(cc)} participants ({cc['case'].sum()} cases), "
                  f"{len(exposures)} exposures screened")
            print("exposures associated with disease:")
            print(flagged.round(3).to_string(index=False))
        """),
    ),
    Case(
        id="multiple_comparisons-h9-rare-disease-exposure-screen-sound",
        family=None,
        twin="multiple_comparisons-h9-rare-disease-exposure-screen",
        split="holdout9",
        setup=_CASE_CONTROL,
        note="The 32 exposure p-values are converted to Benjamini-Hochberg q-values and only "
        "exposures with q < 0.05 are reported.",
        code=dedent("""\
            import statsmodels.api as sm
            from statsmodels.stats.multitest import multipletests

            results = []
            for col in exposures:
                tab = (pd.crosstab(cc[col], cc["case"])
                       .reindex(index=[1, 0], columns=[1, 0], fill_value=0))
                t22 = sm.stats.Table2x2(tab.to_numpy())
                lo, hi = t22.oddsratio_confint()
                results.append({"exposure": col, "OR": t22.oddsratio, "ci_low": lo,
                                "ci_high": hi, "p": t22.oddsratio_pvalue()})
            screen = pd.DataFrame(results).sort_values("p")
            screen["q_bh"] = multipletests(screen["p"], method="fdr_bh")[1]

            flagged = screen[screen["q_bh"] < 0.05]
            print(f"{len(cc)} participants ({cc['case'].sum()} cases), "
                  f"{len(exposures)} exposures screened")
            print("exposures associated with disease (BH q < 0.05):")
            print(flagged.round(3).to_string(index=False))
        """),
    ),
]
