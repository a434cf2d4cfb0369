from bench.critic_corpus import Case

_ASSAY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3318)
rows = []
for lot, true_assay in [("L2305-A", 99.6), ("L2311-C", 99.2)]:
    for prep in range(1, 7):
        prep_assay = true_assay + rng.normal(0, 0.55)   # weighing / dilution error
        for inj in range(1, 4):
            rows.append({"lot": lot, "prep": f"{lot}/P{prep}", "inj": inj,
                         "assay_pct_LC": round(prep_assay + rng.normal(0, 0.12), 2)})
hplc = pd.DataFrame(rows)
print(hplc.shape)
hplc.head(6)
'''

_HV_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3312)
recs = []
for route, hv0 in [("Q+T 560C", 352), ("Q+T 580C", 344)]:
    for s in range(1, 6):
        spec_hv = hv0 + rng.normal(0, 9)        # specimen-to-specimen (bar position, decarb)
        for k in range(1, 13):
            recs.append({"route": route, "specimen": f"{route[-4:-1]}-{s}", "indent": k,
                         "HV10": round(spec_hv + rng.normal(0, 4), 1)})
hv = pd.DataFrame(recs)
hv.groupby(["route", "specimen"])["HV10"].mean().round(1)
'''

CASES: list[Case] = [
    Case(
        id="h33-pseudoreplication-hplc-assay-injections-as-n",
        family="pseudoreplication",
        setup=_ASSAY_SETUP,
        code='''
from scipy.stats import ttest_ind

a = hplc.loc[hplc.lot == "L2305-A", "assay_pct_LC"]
c = hplc.loc[hplc.lot == "L2311-C", "assay_pct_LC"]
t, p = ttest_ind(a, c)
print(f"L2305-A: {a.mean():.2f} % LC (RSD {100 * a.std() / a.mean():.2f} %, n = {len(a)})")
print(f"L2311-C: {c.mean():.2f} % LC (RSD {100 * c.std() / c.mean():.2f} %, n = {len(c)})")
print(f"t = {t:.2f}, p = {p:.4f}  -> lots differ in assay" if p < 0.05 else
      f"t = {t:.2f}, p = {p:.4f}  -> no lot difference")
''',
        twin="h33-pseudoreplication-hplc-assay-prep-means-sound",
        note="Treats 18 injections per lot as independent, but injections are 3 repeats of each "
             "of 6 preparations; prep-to-prep error dominates, so n is inflated 3x.",
        split="holdout33",
    ),
    Case(
        id="h33-pseudoreplication-hplc-assay-prep-means-sound",
        family=None,
        setup=_ASSAY_SETUP,
        code='''
from scipy.stats import ttest_ind

# the independent unit is the sample preparation; average its 3 injections first
prep_means = hplc.groupby(["lot", "prep"], as_index=False)["assay_pct_LC"].mean()
a = prep_means.loc[prep_means.lot == "L2305-A", "assay_pct_LC"]
c = prep_means.loc[prep_means.lot == "L2311-C", "assay_pct_LC"]
t, p = ttest_ind(a, c)
print(f"L2305-A: {a.mean():.2f} % LC (RSD {100 * a.std() / a.mean():.2f} %, n = {len(a)} preps)")
print(f"L2311-C: {c.mean():.2f} % LC (RSD {100 * c.std() / c.mean():.2f} %, n = {len(c)} preps)")
print(f"t = {t:.2f}, p = {p:.4f}  -> lots differ in assay" if p < 0.05 else
      f"t = {t:.2f}, p = {p:.4f}  -> no lot difference")
''',
        twin="h33-pseudoreplication-hplc-assay-injections-as-n",
        note="Injections are averaged within each preparation and the lots compared on 6 "
             "independent preparations each.",
        split="holdout33",
    ),
    Case(
        id="h33-pseudoreplication-vickers-indents-ols",
        family="pseudoreplication",
        setup=_HV_SETUP,
        code='''
import statsmodels.formula.api as smf

fit = smf.ols("HV10 ~ C(route)", data=hv).fit()
print(fit.summary().tables[1])
eff = fit.params.iloc[1]
lo, hi = fit.conf_int().iloc[1]
print(f"\\ntempering at 580 C vs 560 C: {eff:+.1f} HV10 (95% CI {lo:.1f} to {hi:.1f}), "
      f"p = {fit.pvalues.iloc[1]:.2g}, n = {int(fit.nobs)} indents")
''',
        twin="h33-pseudoreplication-vickers-specimen-means-sound",
        note="OLS on all 120 Vickers indents treats 12 indents per specimen as independent; "
             "only 5 specimens per route, so the CI and p-value are far too narrow.",
        split="holdout33",
    ),
    Case(
        id="h33-pseudoreplication-vickers-specimen-means-sound",
        family=None,
        setup=_HV_SETUP,
        code='''
import statsmodels.formula.api as smf

# 12 indents per specimen are not independent -> one value per specimen
spec = hv.groupby(["route", "specimen"], as_index=False)["HV10"].mean()
fit = smf.ols("HV10 ~ C(route)", data=spec).fit()
print(fit.summary().tables[1])
eff = fit.params.iloc[1]
lo, hi = fit.conf_int().iloc[1]
print(f"\\ntempering at 580 C vs 560 C: {eff:+.1f} HV10 (95% CI {lo:.1f} to {hi:.1f}), "
      f"p = {fit.pvalues.iloc[1]:.2g}, n = {int(fit.nobs)} specimens")
''',
        twin="h33-pseudoreplication-vickers-indents-ols",
        note="Indents are averaged per specimen and the routes compared on 5 specimens each, the "
             "true experimental unit.",
        split="holdout33",
    ),
]
