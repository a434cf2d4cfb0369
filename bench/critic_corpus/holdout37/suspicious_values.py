from bench.critic_corpus import Case

_DOG_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3715)
size_mu = {"toy": 4.5, "small": 9.5, "medium": 19.0, "large": 32.0, "giant": 55.0}
size_p = [0.14, 0.27, 0.28, 0.24, 0.07]
n = 1400
size = rng.choice(list(size_mu), n, p=size_p)
wt = np.array([rng.normal(size_mu[s], 0.16 * size_mu[s]) for s in size]).round(1)
# practice-management export: dogs not put on the scale at that visit are stored as -1
not_weighed = rng.random(n) < np.where(np.isin(size, ["large", "giant"]), 0.16, 0.06)
wt[not_weighed] = -1
visits = pd.DataFrame({"patient": [f"D{300000 + i}" for i in range(n)],
                       "size_class": size, "weight_kg": wt,
                       "bcs_9": rng.choice(np.arange(3, 9), n, p=[.03, .12, .35, .28, .15, .07])})
'''

_MASTITIS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3716)
events, herds = [], []
for h in range(24):
    herd = f"Herd{h + 1:02d}"
    n_cows = int(rng.integers(28, 260))
    herds.append({"herd": herd, "cows_in_herd": n_cows})
    cow_rate = rng.gamma(0.8, rng.uniform(0.12, 1.25) / 0.8, n_cows)
    n_cases = rng.poisson(cow_rate)
    for c, k in enumerate(n_cases):
        for _ in range(k):
            events.append({"herd": herd, "cow": f"{herd}-{c:03d}",
                           "quarter": rng.choice(["LF", "RF", "LH", "RH"]),
                           "days_in_milk": int(rng.integers(1, 320))})
cases = pd.DataFrame(events)
herd_info = pd.DataFrame(herds)
'''

CASES = [
    Case(
        id="h37-susp-dog-weight-minus-one",
        family="suspicious_values",
        twin="h37-susp-dog-weight-nan",
        setup=_DOG_SETUP,
        code='''order = ["toy", "small", "medium", "large", "giant"]
summary = (visits.groupby("size_class")["weight_kg"]
           .agg(["count", "mean", "median", "min", "max"])
           .reindex(order).round(1))
print(summary)
print(f"\\nmean body weight, all dogs seen in 2023: {visits.weight_kg.mean():.1f} kg")
print(f"overweight (BCS >= 6/9): {(visits.bcs_9 >= 6).mean():.1%}")
''',
        note="Unweighed dogs are coded weight_kg = -1 and averaged in, so every class mean "
             "(and the minimum of -1 kg) is wrong, most for large/giant dogs.",
        split="holdout37",
    ),
    Case(
        id="h37-susp-dog-weight-nan",
        family=None,
        twin="h37-susp-dog-weight-minus-one",
        setup=_DOG_SETUP,
        code='''order = ["toy", "small", "medium", "large", "giant"]
# -1 is the PMS code for "not weighed at this visit": treat as missing and say how many
vis = visits.assign(weight_kg=visits.weight_kg.mask(visits.weight_kg < 0))
summary = (vis.groupby("size_class")["weight_kg"]
           .agg(dogs="size", weighed="count", mean="mean", median="median",
                min="min", max="max")
           .reindex(order).round(1))
print(summary)
print(f"\\nnot weighed: {vis.weight_kg.isna().sum()} of {len(vis)} dogs")
print(f"mean body weight, weighed dogs: {vis.weight_kg.mean():.1f} kg "
      "(weighing less complete in large/giant dogs, so see per-class means)")
print(f"overweight (BCS >= 6/9): {(vis.bcs_9 >= 6).mean():.1%}")
''',
        note="The -1 'not weighed' code is set to missing, the number unweighed is reported "
             "per class, and means are given per size class.",
        split="holdout37",
    ),
    Case(
        id="h37-susp-mastitis-prev-over-100",
        family="suspicious_values",
        twin="h37-susp-mastitis-risk-and-rate",
        setup=_MASTITIS_SETUP,
        code='''herd_tab = (cases.groupby("herd").size().rename("clinical_cases").reset_index()
            .merge(herd_info, on="herd", how="right").fillna({"clinical_cases": 0}))
herd_tab["mastitis_prev_pct"] = 100 * herd_tab.clinical_cases / herd_tab.cows_in_herd
herd_tab = herd_tab.sort_values("mastitis_prev_pct", ascending=False)
print(herd_tab.head(8).round(1).to_string(index=False))
print(f"\\nmedian herd prevalence of clinical mastitis: "
      f"{herd_tab.mastitis_prev_pct.median():.1f} %")
print(f"herds above 50 %: {(herd_tab.mastitis_prev_pct > 50).sum()} of {len(herd_tab)}")
''',
        note="Cases (including repeat cases per cow) divided by cows gives 'prevalence' values "
             "above 100 %, an impossible proportion that is reported as prevalence.",
        split="holdout37",
    ),
    Case(
        id="h37-susp-mastitis-risk-and-rate",
        family=None,
        twin="h37-susp-mastitis-prev-over-100",
        setup=_MASTITIS_SETUP,
        code='''# incidence risk = cows with >= 1 case / cows; cases per cow are a separate rate
herd_tab = (cases.groupby("herd")
            .agg(clinical_cases=("cow", "size"), cows_affected=("cow", "nunique"))
            .reset_index()
            .merge(herd_info, on="herd", how="right")
            .fillna({"clinical_cases": 0, "cows_affected": 0}))
herd_tab["risk_pct"] = 100 * herd_tab.cows_affected / herd_tab.cows_in_herd
herd_tab["cases_per_100_cows"] = 100 * herd_tab.clinical_cases / herd_tab.cows_in_herd
herd_tab = herd_tab.sort_values("risk_pct", ascending=False)
print(herd_tab.head(8).round(1).to_string(index=False))
print(f"\\nmedian herd incidence risk of clinical mastitis: {herd_tab.risk_pct.median():.1f} %")
print(f"median incidence: {herd_tab.cases_per_100_cows.median():.1f} cases per 100 cows "
      "(repeat cases counted)")
''',
        note="Incidence risk uses distinct affected cows (bounded by 100 %) and repeat cases "
             "are reported separately as cases per 100 cows, so no proportion exceeds 100 %.",
        split="holdout37",
    ),
]
