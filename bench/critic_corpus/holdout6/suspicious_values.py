"""Suspicious values, holdout6 idioms: survey weights scaled to the national sample size but
divided by each region's head count in a groupby.apply, which prints a regional smoking
prevalence above 100%, and a numpy trapezoid AUC per subject on a lab export in accession order
(diluted peak samples re-assayed and appended last), which prints negative drug exposures."""

from textwrap import dedent

from bench.critic_corpus import Case

_SURVEY = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6801)
design = pd.DataFrame({
    "region": ["Capital", "North", "South", "East", "West", "Islands"],
    "pop_m": [4.0, 1.2, 1.5, 0.8, 1.0, 0.2],
    "n": [300, 600, 600, 500, 500, 300],          # small regions were oversampled
    "smoking": [0.27, 0.22, 0.19, 0.24, 0.17, 0.31],
})
parts = []
for r in design.itertuples():
    parts.append(pd.DataFrame({
        "region": r.region,
        # design weight x age/sex post-stratification adjustment
        "weight": r.pop_m / r.n * rng.lognormal(0, 0.25, r.n),
        "smoker": (rng.random(r.n) < r.smoking).astype(int),
    }))
resp = pd.concat(parts, ignore_index=True)
resp["weight"] *= len(resp) / resp.weight.sum()   # scaled so the weights sum to n
"""

_PK = """\
import numpy as np
import pandas as pd

rng = np.random.default_rng(6804)
times = np.array([0, 0.5, 1, 2, 4, 6, 8, 12, 24])
rows = []
for subj in range(1, 25):
    dose = [50, 100, 200][(subj - 1) // 8]
    ka, ke = rng.lognormal(np.log(1.4), 0.2), rng.lognormal(np.log(0.16), 0.2)
    v = rng.lognormal(np.log(40), 0.15)
    conc = dose * ka / (v * (ka - ke)) * (np.exp(-ke * times) - np.exp(-ka * times))
    conc = conc * rng.lognormal(0, 0.08, len(times))
    # peak samples above the assay's upper limit (3 mg/L) were diluted and re-run, so they
    # come last in the accession-ordered export
    order = np.r_[np.flatnonzero(conc <= 3), np.flatnonzero(conc > 3)]
    rows.append(pd.DataFrame({"subject": f"S{subj:02d}", "dose_mg": dose,
                              "time_h": times[order], "conc_mg_l": conc[order].round(3)}))
pk = pd.concat(rows, ignore_index=True)
"""

CASES: list[Case] = [
    Case(
        id="suspicious-weighted-prevalence-over-100-regions",
        family="suspicious_values",
        twin="suspicious-weighted-prevalence-over-100-regions-sound",
        split="holdout6",
        setup=_SURVEY,
        note="sum(weight * smoker) / regional n uses weights scaled to the national n: the "
        "under-sampled Capital prints a smoking prevalence over 100% and small regions far "
        "too low.",
        code=dedent("""\
            prevalence = (resp.groupby("region")
                              .apply(lambda g: (g.weight * g.smoker).sum() / len(g))
                              .mul(100).round(1)
                              .rename("weighted_smoking_pct"))
            print(prevalence.sort_values(ascending=False).to_string())
            national = (resp.weight * resp.smoker).sum() / len(resp) * 100
            print(f"national weighted smoking prevalence: {national:.1f}%")
        """),
    ),
    Case(
        id="suspicious-weighted-prevalence-over-100-regions-sound",
        family=None,
        twin="suspicious-weighted-prevalence-over-100-regions",
        split="holdout6",
        setup=_SURVEY,
        note="Each region's weighted prevalence divides by that region's sum of weights "
        "(np.average), so every estimate is a proportion between 0 and 100%.",
        code=dedent("""\
            prevalence = (resp.groupby("region")
                              .apply(lambda g: np.average(g.smoker, weights=g.weight))
                              .mul(100).round(1)
                              .rename("weighted_smoking_pct"))
            print(prevalence.sort_values(ascending=False).to_string())
            national = np.average(resp.smoker, weights=resp.weight) * 100
            print(f"national weighted smoking prevalence: {national:.1f}%")
        """),
    ),
    Case(
        id="suspicious-negative-auc-unsorted-trapezoid-pk",
        family="suspicious_values",
        twin="suspicious-negative-auc-unsorted-trapezoid-pk-sound",
        split="holdout6",
        setup=_PK,
        note="np.trapezoid over samples in accession order integrates backwards in time for the "
        "re-assayed peaks: negative AUCs, and a bogus 'less than dose-proportional' exposure.",
        code=dedent("""\
            auc = (pk.groupby(["subject", "dose_mg"])
                     .apply(lambda g: np.trapezoid(g.conc_mg_l, g.time_h))
                     .rename("auc_0_24")
                     .reset_index())
            by_dose = auc.groupby("dose_mg").auc_0_24.agg(["count", "mean", "min", "max"])
            by_dose["auc_per_mg"] = by_dose["mean"] / by_dose.index
            print(by_dose.round(2).to_string())
            print("AUC(0-24) in mg*h/L; exposure per mg falls with dose -> saturable absorption")
        """),
    ),
    Case(
        id="suspicious-negative-auc-unsorted-trapezoid-pk-sound",
        family=None,
        twin="suspicious-negative-auc-unsorted-trapezoid-pk",
        split="holdout6",
        setup=_PK,
        note="Samples are sorted by subject and time before the trapezoid rule, so every "
        "AUC is positive and exposure turns out dose-proportional.",
        code=dedent("""\
            auc = (pk.sort_values(["subject", "time_h"])
                     .groupby(["subject", "dose_mg"])
                     .apply(lambda g: np.trapezoid(g.conc_mg_l, g.time_h))
                     .rename("auc_0_24")
                     .reset_index())
            by_dose = auc.groupby("dose_mg").auc_0_24.agg(["count", "mean", "min", "max"])
            by_dose["auc_per_mg"] = by_dose["mean"] / by_dose.index
            print(by_dose.round(2).to_string())
            print("AUC(0-24) in mg*h/L; exposure per mg is flat across doses "
                  "-> dose-proportional")
        """),
    ),
]
