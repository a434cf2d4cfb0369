from bench.critic_corpus import Case

_PRO_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(SEED)
n = 184
trial = pd.DataFrame({
    "participant": [f"CR{rng.integers(100, 999)}-{i:03d}" for i in range(n)],
    "arm": rng.permutation(np.repeat(["usual_care", "app"], n // 2)),
    "age": rng.normal(63, 10, n).round(),
    "site": rng.choice(["North", "Central", "South"], n),
})
domains = ["physical_function", "anxiety", "depression", "fatigue", "sleep_disturbance",
           "social_roles", "pain_interference", "cognitive_function", "kccq_summary",
           "eq5d_vas", "self_efficacy", "medication_adherence"]
person = rng.normal(0, 4, n)
for d in domains:
    bl = 50 + person + rng.normal(0, 8, n)
    effect = 2.0 if d == "physical_function" else 0.0
    trial[f"{d}_bl"] = bl.round(1)
    trial[f"{d}_w12"] = (0.6 * bl + 20 + effect * (trial.arm == "app")
                         + rng.normal(0, 6.5, n)).round(1)
'''

_CLABSI_SETUP = '''
import numpy as np
import pandas as pd

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 30)

rng = np.random.default_rng(SEED)
wards = ["ICU-A", "ICU-B", "CCU", "NICU", "PICU", "Burns", "HDU", "Haem-Onc 1",
         "Haem-Onc 2", "BMT", "Renal", "Hepatology", "Gen Surg 1", "Gen Surg 2",
         "Vascular", "Cardiothoracic", "Neurosurgery", "Gen Med 1", "Gen Med 2",
         "Gen Med 3", "Respiratory", "Gastro", "Step-down", "Transplant"]
line_days = rng.gamma(4, 650, len(wards)).round()
clabsi = pd.DataFrame({
    "ward": wards,
    "central_line_days": line_days.astype(int),
    "clabsi_events": rng.poisson(1.3 / 1000 * line_days * rng.gamma(30, 1 / 30, len(wards))),
})
'''

_PRO_SEED = "404"
_CLABSI_SEED = "2024"

CASES: list[Case] = [
    Case(
        id="h23-mc-pro-domains-ancova",
        family="multiple_comparisons",
        split="holdout23",
        twin="h23-mc-pro-domains-ancova-ok",
        setup=_PRO_SETUP.replace("SEED", _PRO_SEED),
        note="Twelve patient-reported secondary outcomes each tested by ANCOVA at 0.05 and the "
             "'significant' domains reported as benefits, with no multiplicity adjustment.",
        code='''
import statsmodels.formula.api as smf

rows = []
for d in domains:
    fit = smf.ols(f"{d}_w12 ~ C(arm, Treatment('usual_care')) + {d}_bl", data=trial).fit()
    term = "C(arm, Treatment('usual_care'))[T.app]"
    lo, hi = fit.conf_int().loc[term]
    rows.append({"outcome": d, "adj. diff (app - usual)": round(fit.params[term], 2),
                 "95% CI": f"{lo:.2f} to {hi:.2f}", "p": fit.pvalues[term]})

res = pd.DataFrame(rows).set_index("outcome")
res["sig"] = np.where(res.p < 0.05, "*", "")
print("Secondary PRO outcomes at 12 weeks, ANCOVA adjusted for baseline")
print("App improved:", ", ".join(res.index[res.p < 0.05]))
res.assign(p=res.p.round(3))
''',
    ),
    Case(
        id="h23-mc-pro-domains-ancova-ok",
        family=None,
        split="holdout23",
        twin="h23-mc-pro-domains-ancova",
        setup=_PRO_SETUP.replace("SEED", _PRO_SEED),
        note="Same twelve ANCOVAs, but p-values are Holm-adjusted across the family of secondary "
             "outcomes and conclusions rest on the adjusted values.",
        code='''
import statsmodels.formula.api as smf
from statsmodels.stats.multitest import multipletests

rows = []
for d in domains:
    fit = smf.ols(f"{d}_w12 ~ C(arm, Treatment('usual_care')) + {d}_bl", data=trial).fit()
    term = "C(arm, Treatment('usual_care'))[T.app]"
    lo, hi = fit.conf_int().loc[term]
    rows.append({"outcome": d, "adj. diff (app - usual)": round(fit.params[term], 2),
                 "95% CI": f"{lo:.2f} to {hi:.2f}", "p": fit.pvalues[term]})

res = pd.DataFrame(rows).set_index("outcome")
res["p_holm"] = multipletests(res.p, method="holm")[1]
res["sig"] = np.where(res.p_holm < 0.05, "*", "")
print("Secondary PRO outcomes at 12 weeks, ANCOVA adjusted for baseline")
print("Holm-adjusted across", len(domains), "outcomes; improved:",
      ", ".join(res.index[res.p_holm < 0.05]) or "none")
res.assign(p=res.p.round(3), p_holm=res.p_holm.round(3))
''',
    ),
    Case(
        id="h23-mc-clabsi-ward-outliers",
        family="multiple_comparisons",
        split="holdout23",
        twin="h23-mc-clabsi-ward-outliers-ok",
        setup=_CLABSI_SETUP.replace("SEED", _CLABSI_SEED),
        note="Each of 24 wards' CLABSI rate is tested against the rest of the hospital and any "
             "p < 0.05 is flagged as an outlier ward, with no correction for 24 tests.",
        code='''
from scipy.stats import binomtest

tot_ev, tot_days = clabsi.clabsi_events.sum(), clabsi.central_line_days.sum()


def compare_to_rest(row):
    """Exact conditional test of ward rate vs rest-of-hospital rate (Poisson counts)."""
    k, d = row.clabsi_events, row.central_line_days
    k_rest, d_rest = tot_ev - k, tot_days - d
    share = d / (d + d_rest)
    return pd.Series({
        "rate_per_1000": 1000 * k / d,
        "rest_rate": 1000 * k_rest / d_rest,
        "p": binomtest(int(k), int(k + k_rest), share).pvalue,
    })


surv = clabsi.join(clabsi.apply(compare_to_rest, axis=1))
surv["flag"] = np.where((surv.p < 0.05) & (surv.rate_per_1000 > surv.rest_rate),
                        "HIGH", np.where(surv.p < 0.05, "low", ""))
print(f"Hospital CLABSI rate FY2023: {1000 * tot_ev / tot_days:.2f} per 1000 line-days")
print("Wards flagged for IPC review:", ", ".join(surv.ward[surv.flag == "HIGH"]) or "none")
surv.sort_values("p").round(3).head(8)
''',
    ),
    Case(
        id="h23-mc-clabsi-ward-outliers-ok",
        family=None,
        split="holdout23",
        twin="h23-mc-clabsi-ward-outliers",
        setup=_CLABSI_SETUP.replace("SEED", _CLABSI_SEED),
        note="Same ward-vs-rest exact tests, with Benjamini-Hochberg FDR control across the 24 "
             "wards before any ward is flagged.",
        code='''
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests

tot_ev, tot_days = clabsi.clabsi_events.sum(), clabsi.central_line_days.sum()


def compare_to_rest(row):
    """Exact conditional test of ward rate vs rest-of-hospital rate (Poisson counts)."""
    k, d = row.clabsi_events, row.central_line_days
    k_rest, d_rest = tot_ev - k, tot_days - d
    share = d / (d + d_rest)
    return pd.Series({
        "rate_per_1000": 1000 * k / d,
        "rest_rate": 1000 * k_rest / d_rest,
        "p": binomtest(int(k), int(k + k_rest), share).pvalue,
    })


surv = clabsi.join(clabsi.apply(compare_to_rest, axis=1))
surv["q_bh"] = multipletests(surv.p, method="fdr_bh")[1]
surv["flag"] = np.where((surv.q_bh < 0.05) & (surv.rate_per_1000 > surv.rest_rate),
                        "HIGH", np.where(surv.q_bh < 0.05, "low", ""))
print(f"Hospital CLABSI rate FY2023: {1000 * tot_ev / tot_days:.2f} per 1000 line-days")
print(f"Wards flagged for IPC review (BH q < 0.05 across {len(surv)} wards):",
      ", ".join(surv.ward[surv.flag == "HIGH"]) or "none")
surv.sort_values("p").round(3).head(8)
''',
    ),
]
