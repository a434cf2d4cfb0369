"""Multiple comparisons, holdout11: recycling-plant purity versus the fleet, and reef-fish
abundance on bleached versus healthy transects."""

from textwrap import dedent

from bench.critic_corpus import Case

_RECYCLING = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_031)
plants = [f"MRF-{c}" for c in "ABCDEFGHJKLMNP"]
rows = []
for i, plant in enumerate(plants):
    shift = (1.6 if plant == "MRF-G" else 0.0) + rng.normal(0, 0.4)
    for _ in range(rng.integers(25, 45)):
        rows.append({"plant": plant, "purity_pct": rng.normal(91.5 - shift, 2.4)})
bales = pd.DataFrame(rows)
bales["purity_pct"] = bales["purity_pct"].clip(upper=99.5).round(2)
"""

_REEF = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(11_032)
species = ["Chaetodon lunula", "Chaetodon trifasciatus", "Pomacentrus moluccensis",
           "Dascyllus aruanus", "Scarus ghobban", "Chlorurus sordidus", "Acanthurus triostegus",
           "Zebrasoma scopas", "Thalassoma lunare", "Labroides dimidiatus", "Lutjanus kasmira",
           "Plectropomus leopardus", "Cephalopholis argus", "Siganus doliatus",
           "Amphiprion percula", "Chromis viridis", "Pseudanthias squamipinnis",
           "Ctenochaetus striatus", "Naso lituratus", "Parupeneus multifasciatus",
           "Caesio cuning", "Halichoeres hortulanus", "Apogon compressus", "Gobiodon okinawae"]
n_tr = 18
records = []
for sp in species:
    lam = rng.uniform(3, 20)
    effect = 0.45 if sp.startswith(("Chaetodon", "Gobiodon")) else 1.0
    for status, mult in [("healthy", 1.0), ("bleached", effect)]:
        for t in range(n_tr):
            records.append({"species": sp, "status": status, "transect": f"{status[0]}{t:02d}",
                            "count": rng.negative_binomial(2, 2 / (2 + lam * mult))})
fish = pd.DataFrame(records)
"""

CASES: list[Case] = [
    Case(
        id="multiple_comparisons-h11-recycling-plant-vs-fleet",
        family="multiple_comparisons",
        twin="multiple_comparisons-h11-recycling-plant-vs-fleet-holm",
        split="holdout11",
        setup=_RECYCLING,
        note="Fourteen plant-versus-rest Welch tests are each judged at 0.05 with no family-wise "
        "or FDR correction; plants are flagged as off-spec on uncorrected p-values.",
        code=dedent("""\
            from scipy import stats

            def vs_fleet(df, plant):
                mine = df.loc[df["plant"] == plant, "purity_pct"]
                rest = df.loc[df["plant"] != plant, "purity_pct"]
                t, p = stats.ttest_ind(mine, rest, equal_var=False)
                return {"plant": plant, "n": len(mine), "mean": mine.mean(),
                        "diff": mine.mean() - rest.mean(), "p": p}

            res = pd.DataFrame([vs_fleet(bales, p) for p in sorted(bales["plant"].unique())])
            res["off_spec"] = res["p"] < 0.05
            print(res.round({"mean": 2, "diff": 2, "p": 4}).to_string(index=False))
            flagged = res.loc[res["off_spec"], "plant"].tolist()
            print(f"plants with purity different from the fleet: {flagged}")
        """),
    ),
    Case(
        id="multiple_comparisons-h11-recycling-plant-vs-fleet-holm",
        family=None,
        twin="multiple_comparisons-h11-recycling-plant-vs-fleet",
        split="holdout11",
        setup=_RECYCLING,
        note="The fourteen plant-versus-rest p-values are Holm-adjusted before any plant is "
        "flagged.",
        code=dedent("""\
            from scipy import stats
            from statsmodels.stats.multitest import multipletests

            def vs_fleet(df, plant):
                mine = df.loc[df["plant"] == plant, "purity_pct"]
                rest = df.loc[df["plant"] != plant, "purity_pct"]
                t, p = stats.ttest_ind(mine, rest, equal_var=False)
                return {"plant": plant, "n": len(mine), "mean": mine.mean(),
                        "diff": mine.mean() - rest.mean(), "p": p}

            res = pd.DataFrame([vs_fleet(bales, p) for p in sorted(bales["plant"].unique())])
            res["off_spec"], res["p_holm"], _, _ = multipletests(res["p"], method="holm")
            print(res.round({"mean": 2, "diff": 2, "p": 4, "p_holm": 4}).to_string(index=False))
            flagged = res.loc[res["off_spec"], "plant"].tolist()
            print(f"plants with purity different from the fleet: {flagged}")
        """),
    ),
    Case(
        id="multiple_comparisons-h11-reef-species-mwu",
        family="multiple_comparisons",
        twin="multiple_comparisons-h11-reef-species-mwu-bh",
        split="holdout11",
        setup=_REEF,
        note="A Mann-Whitney test for each of 24 species is read at p < 0.05 with no correction, "
        "and the list of 'bleaching-sensitive' species is built from raw p-values.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu

            wide = {sp: g for sp, g in fish.groupby("species")}
            pvals = {
                sp: mannwhitneyu(g.loc[g.status == "healthy", "count"],
                                 g.loc[g.status == "bleached", "count"]).pvalue
                for sp, g in wide.items()
            }
            ratio = (fish.groupby(["species", "status"])["count"].mean()
                     .unstack().eval("bleached / healthy"))
            summary = pd.DataFrame({"abund_ratio": ratio, "p": pd.Series(pvals)})
            sensitive = summary[summary["p"] < 0.05].sort_values("p")
            print(f"{len(sensitive)} of {len(summary)} species respond to bleaching:")
            print(sensitive.round(4).to_string())
        """),
    ),
    Case(
        id="multiple_comparisons-h11-reef-species-mwu-bh",
        family=None,
        twin="multiple_comparisons-h11-reef-species-mwu",
        split="holdout11",
        setup=_REEF,
        note="The 24 per-species Mann-Whitney p-values are Benjamini-Hochberg adjusted and the "
        "species list is built from q < 0.05.",
        code=dedent("""\
            from scipy.stats import mannwhitneyu
            from statsmodels.stats.multitest import multipletests

            wide = {sp: g for sp, g in fish.groupby("species")}
            pvals = {
                sp: mannwhitneyu(g.loc[g.status == "healthy", "count"],
                                 g.loc[g.status == "bleached", "count"]).pvalue
                for sp, g in wide.items()
            }
            ratio = (fish.groupby(["species", "status"])["count"].mean()
                     .unstack().eval("bleached / healthy"))
            summary = pd.DataFrame({"abund_ratio": ratio, "p": pd.Series(pvals)})
            summary["q"] = multipletests(summary["p"], method="fdr_bh")[1]
            sensitive = summary[summary["q"] < 0.05].sort_values("q")
            print(f"{len(sensitive)} of {len(summary)} species respond to bleaching:")
            print(sensitive.round(4).to_string())
        """),
    ),
]
