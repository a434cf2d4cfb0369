"""Pseudoreplication, holdout2 idioms: neurons nested in mice compared with Mann-Whitney as
if every cell were an animal, and two diagnostic tests on the same patients compared with a
chi-square test of independence (instead of McNemar)."""

from textwrap import dedent

from bench.critic_corpus import Case

_PATCH = """\
import numpy as np
import pandas as pd
from scipy import stats

rng = np.random.default_rng(60007)
rows = []
for genotype in ["WT", "Shank3"]:
    for mouse in range(6):
        mouse_offset = rng.normal(0, 1.5)           # large between-animal variation
        n_cells = rng.integers(18, 35)
        for _ in range(n_cells):
            rows.append({"genotype": genotype, "mouse": f"{genotype}-{mouse}",
                         "epsc_freq_hz": float(np.exp(1.2 + 0.25 * mouse_offset
                                                      + rng.normal(0, 0.3)))})
cells = pd.DataFrame(rows)
"""

_SCREEN = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(24680)
n = 300
infected = rng.random(n) < 0.3
patients = pd.DataFrame({
    "patient": np.arange(n),
    "antigen_pos": np.where(infected, rng.random(n) < 0.80, rng.random(n) < 0.04),
})
# same swab: PCR agrees with the antigen test, and also catches many antigen-negative infections
patients["pcr_pos"] = np.where(infected, patients.antigen_pos | (rng.random(n) < 0.6),
                               patients.antigen_pos)
"""

CASES: list[Case] = [
    Case(
        id="pseudorep-neurons-as-replicates",
        family="pseudoreplication",
        twin="pseudorep-neurons-as-replicates-sound",
        split="holdout2",
        note="Mann-Whitney on ~300 recorded neurons, but genotype varies between the 12 mice "
        "and cells from one mouse share its offset.",
        code=_PATCH + dedent("""\

            wt = cells.query("genotype == 'WT'").epsc_freq_hz
            ko = cells.query("genotype == 'Shank3'").epsc_freq_hz
            u, p = stats.mannwhitneyu(ko, wt)
            print(cells.groupby("genotype").epsc_freq_hz.agg(["count", "median"]).round(2))
            print(f"Shank3 vs WT sEPSC frequency: U = {u:.0f}, p = {p:.2e} "
                  f"(n = {len(ko)} vs {len(wt)} cells)")
        """),
    ),
    Case(
        id="pseudorep-neurons-as-replicates-sound",
        family=None,
        twin="pseudorep-neurons-as-replicates",
        split="holdout2",
        note="Cells summarised to one median per mouse first; Mann-Whitney on 6 vs 6 animals.",
        code=_PATCH + dedent("""\

            per_mouse = (cells.groupby(["genotype", "mouse"], as_index=False)
                         .agg(n_cells=("epsc_freq_hz", "size"),
                              median_hz=("epsc_freq_hz", "median")))
            wt = per_mouse.query("genotype == 'WT'").median_hz
            ko = per_mouse.query("genotype == 'Shank3'").median_hz
            u, p = stats.mannwhitneyu(ko, wt)
            print(per_mouse.groupby("genotype").median_hz.agg(["count", "median"]).round(2))
            print(f"Shank3 vs WT sEPSC frequency: U = {u:.0f}, p = {p:.3f} "
                  f"(n = {len(ko)} vs {len(wt)} mice)")
        """),
    ),
    Case(
        id="pseudorep-chi2-paired-diagnostics",
        family="pseudoreplication",
        twin="pseudorep-chi2-paired-diagnostics-sound",
        split="holdout2",
        note="Antigen and PCR results of the same 300 patients stacked into a long frame and "
        "compared with chi2_contingency as if they were 600 independent swabs.",
        code=_SCREEN + dedent("""\
            from scipy.stats import chi2_contingency

            long = patients.melt(id_vars="patient", value_vars=["antigen_pos", "pcr_pos"],
                                 var_name="assay", value_name="positive")
            table = pd.crosstab(long.assay, long.positive)
            chi2, p, dof, _ = chi2_contingency(table)
            print(table)
            print(f"positivity differs between assays: chi2({dof}) = {chi2:.2f}, p = {p:.4f}")
        """),
    ),
    Case(
        id="pseudorep-chi2-paired-diagnostics-sound",
        family=None,
        twin="pseudorep-chi2-paired-diagnostics",
        split="holdout2",
        note="Paired 2x2 table (antigen x PCR per patient) tested with McNemar's exact test "
        "on the discordant pairs.",
        code=_SCREEN + dedent("""\
            from statsmodels.stats.contingency_tables import mcnemar

            table = pd.crosstab(patients.antigen_pos, patients.pcr_pos)
            res = mcnemar(table.to_numpy(), exact=True)
            print(table)
            print(f"positivity differs between assays: McNemar exact p = {res.pvalue:.4f} "
                  f"(discordant pairs: {table.iloc[0, 1]} vs {table.iloc[1, 0]})")
        """),
    ),
]
