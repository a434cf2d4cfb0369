from bench.critic_corpus import Case

_LIMS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3315)
sites = ["RW-01 Upper weir", "RW-02 Mill bridge", "RW-03 STW outfall", "RW-04 Confluence",
         "RW-05 Intake"]
base_no3 = [2.1, 2.8, 9.5, 6.2, 5.0]
recs = []
for s, b in zip(sites, base_no3):
    for wk in range(1, 27):
        val = round(b * np.exp(rng.normal(0, 0.2)), 2)
        if rng.random() < (0.25 if "STW" in s or "Intake" in s else 0.06):
            val = -999.0          # LIMS code: sample not analysed (broken bottle, holding time)
        recs.append({"site": s, "week": wk, "NO3_N_mg_L": val,
                     "analyst": rng.choice(["JK", "MS", "TP"])})
lims = pd.DataFrame(recs)
'''

_PRECISION_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3330)
# intermediate precision of a Karl Fischer water method: 6 days x 4 replicates, same sample
days = [f"2024-03-{d:02d}" for d in (4, 6, 11, 13, 18, 20)]
kf = pd.DataFrame([
    {"day": d, "rep": r, "water_pct": round(2.450 + rng.normal(0, 0.030), 3)}
    for d in days for r in range(1, 5)
])
'''

CASES: list[Case] = [
    Case(
        id="h33-suspicious-values-river-nitrate-minus999-averaged",
        family="suspicious_values",
        setup=_LIMS_SETUP,
        code='''
summary = (lims.groupby("site")["NO3_N_mg_L"]
           .agg(n="count", mean="mean", sd="std", min="min", max="max")
           .round(2))
print("Nitrate-N, river survey Jan-Jun (mg/L)")
summary
''',
        twin="h33-suspicious-values-river-nitrate-codes-removed-sound",
        note="The LIMS placeholder -999 (not analysed) is averaged in as a concentration, "
             "giving negative site means and minima of -999 mg/L that the table reports as is.",
        split="holdout33",
    ),
    Case(
        id="h33-suspicious-values-river-nitrate-codes-removed-sound",
        family=None,
        setup=_LIMS_SETUP,
        code='''
# -999 = "not analysed" in the LIMS export -> missing, and say how many per site
clean = lims.assign(NO3_N_mg_L=lims["NO3_N_mg_L"].mask(lims["NO3_N_mg_L"] == -999))
summary = (clean.groupby("site")["NO3_N_mg_L"]
           .agg(n="count", mean="mean", sd="std", min="min", max="max")
           .round(2))
summary.insert(1, "not_analysed", clean["NO3_N_mg_L"].isna().groupby(clean["site"]).sum())
print("Nitrate-N, river survey Jan-Jun (mg/L); -999 LIMS codes excluded")
summary
''',
        twin="h33-suspicious-values-river-nitrate-minus999-averaged",
        note="The -999 not-analysed code is set to missing before summarising, and the number "
             "of missing samples per site is reported next to n.",
        split="holdout33",
    ),
    Case(
        id="h33-suspicious-values-kf-intermediate-precision-negative-variance",
        family="suspicious_values",
        setup=_PRECISION_SETUP,
        code='''
# one-way ANOVA variance components (ISO 5725-3 style)
g = kf.groupby("day")["water_pct"]
p, n = g.ngroups, int(g.size().iloc[0])
grand = kf["water_pct"].mean()
ms_between = n * ((g.mean() - grand) ** 2).sum() / (p - 1)
ms_within = ((kf["water_pct"] - g.transform("mean")) ** 2).sum() / (p * (n - 1))

s2_r = ms_within
s2_day = (ms_between - ms_within) / n
s2_IP = s2_r + s2_day
print(f"MS between = {ms_between:.3e}, MS within = {ms_within:.3e}")
print(f"s2 repeatability      = {s2_r:.3e}")
print(f"s2 between-day        = {s2_day:.3e}")
print(f"s_r  = {np.sqrt(s2_r):.4f} %  (RSD_r  = {100 * np.sqrt(s2_r) / grand:.2f} %)")
print(f"s_IP = {np.sqrt(s2_IP):.4f} %  (RSD_IP = {100 * np.sqrt(s2_IP) / grand:.2f} %)")
''',
        twin="h33-suspicious-values-kf-intermediate-precision-truncated-sound",
        note="The between-day variance component comes out negative and is added as is, so the "
             "reported intermediate precision is smaller than repeatability, which is impossible.",
        split="holdout33",
    ),
    Case(
        id="h33-suspicious-values-kf-intermediate-precision-truncated-sound",
        family=None,
        setup=_PRECISION_SETUP,
        code='''
# one-way ANOVA variance components (ISO 5725-3 style)
g = kf.groupby("day")["water_pct"]
p, n = g.ngroups, int(g.size().iloc[0])
grand = kf["water_pct"].mean()
ms_between = n * ((g.mean() - grand) ** 2).sum() / (p - 1)
ms_within = ((kf["water_pct"] - g.transform("mean")) ** 2).sum() / (p * (n - 1))

s2_r = ms_within
s2_day_raw = (ms_between - ms_within) / n
# MS_between < MS_within: no detectable day effect; a variance cannot be negative -> set to 0
s2_day = max(s2_day_raw, 0.0)
s2_IP = s2_r + s2_day
print(f"MS between = {ms_between:.3e}, MS within = {ms_within:.3e}")
print(f"s2 between-day (ANOVA estimate {s2_day_raw:.2e}) taken as {s2_day:.1e}")
print(f"s_r  = {np.sqrt(s2_r):.4f} %  (RSD_r  = {100 * np.sqrt(s2_r) / grand:.2f} %)")
print(f"s_IP = {np.sqrt(s2_IP):.4f} %  (RSD_IP = {100 * np.sqrt(s2_IP) / grand:.2f} %)")
''',
        twin="h33-suspicious-values-kf-intermediate-precision-negative-variance",
        note="The negative ANOVA estimate of the between-day variance is recognised and "
             "truncated at zero (ISO 5725 practice), so s_IP is not below s_r.",
        split="holdout33",
    ),
]
