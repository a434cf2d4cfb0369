from bench.critic_corpus import Case

_OUTBREAK_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(5521)
n = 212
ids = [f"WX-{k:04d}" for k in range(1, n + 1)]
exposure = rng.choice(["chicken_wrap", "egg_salad", "both", "neither"], n,
                      p=[0.32, 0.22, 0.14, 0.32])
ill_p = {"chicken_wrap": 0.62, "egg_salad": 0.18, "both": 0.66, "neither": 0.10}
ill = rng.binomial(1, [ill_p[e] for e in exposure])
questionnaire = pd.DataFrame({"case_id": ids, "exposure": exposure, "ill": ill,
                              "age": rng.integers(4, 80, n), "site": rng.choice(["A", "B"], n)})
sampled = questionnaire.sample(frac=0.7, random_state=3)
lab_ids = [cid if rng.random() > 0.35 else cid.replace("WX-", "WX").lower()
           for cid in sampled.case_id]
lab = pd.DataFrame({
    "case_id": lab_ids,
    "salmonella_pcr": np.where(sampled.ill.to_numpy() == 1,
                               rng.binomial(1, 0.8, len(sampled)),
                               rng.binomial(1, 0.05, len(sampled))),
    "ct_value": rng.normal(27, 4, len(sampled)).round(1),
})
print(len(questionnaire), "questionnaires;", len(lab), "stool results")
'''

_OUTBREAK_FLAWED = '''
linked = questionnaire.merge(lab, on="case_id")
linked["confirmed"] = (linked.ill == 1) & (linked.salmonella_pcr == 1)
tab = linked.groupby("exposure").agg(n=("case_id", "size"), ill=("ill", "sum"),
                                     confirmed=("confirmed", "sum"))
tab["attack_rate"] = (tab.ill / tab.n).round(3)
tab["pct_confirmed_of_ill"] = (100 * tab.confirmed / tab.ill).round(1)
ref = tab.loc["neither", "attack_rate"]
tab["risk_ratio_vs_neither"] = (tab.attack_rate / ref).round(2)
tab
'''

_OUTBREAK_SOUND = '''
def norm_id(s):
    s = s.upper().replace(" ", "")
    return s if s.startswith("WX-") else "WX-" + s[2:]

lab = lab.assign(case_id=lab.case_id.map(norm_id))
linked = questionnaire.merge(lab, on="case_id", how="left", indicator=True,
                             validate="one_to_one")
print("questionnaires:", len(questionnaire), "| with a stool result:",
      int((linked._merge == "both").sum()), "| lab rows unmatched:",
      int((~lab.case_id.isin(questionnaire.case_id)).sum()))
linked["confirmed"] = (linked.ill == 1) & (linked.salmonella_pcr == 1)
tab = linked.groupby("exposure").agg(n=("case_id", "size"), ill=("ill", "sum"),
                                     tested=("salmonella_pcr", "count"),
                                     confirmed=("confirmed", "sum"))
tab["attack_rate"] = (tab.ill / tab.n).round(3)
ref = tab.loc["neither", "attack_rate"]
tab["risk_ratio_vs_neither"] = (tab.attack_rate / ref).round(2)
tab
'''

_ACTI_SETUP = '''
import numpy as np

rng = np.random.default_rng(818)
records = []
for i in range(140):
    arm = "CBT-I" if i % 2 == 0 else "sleep_hygiene"
    site = "Leeds" if rng.random() < (0.5 if arm == "CBT-I" else 0.15) else "York"
    device = "Motionwatch8" if site == "Leeds" else str(rng.choice(["GT9X", "GT3X"]))
    se = np.clip(rng.normal(83 if arm == "CBT-I" else 80, 6) - 6 * (site == "Leeds"), 55, 99)
    tst = np.clip(rng.normal(402 if arm == "CBT-I" else 388, 45), 200, 560)
    if device == "Motionwatch8":
        se_txt, tst_txt = f"{se:.1f}%", f"{int(tst // 60)}h{int(tst % 60):02d}"
    else:
        se_txt, tst_txt = f"{se:.1f}", f"{tst:.0f}"
    if rng.random() < 0.05:
        se_txt = "NA"
    records.append({"pid": f"INS{i:03d}", "arm": arm, "site": site, "device": device,
                    "sleep_eff": se_txt, "tst_min": tst_txt})
print(len(records), "actigraphy summaries; first rows:")
for r in records[:4]:
    print(r)
'''

_ACTI_FLAWED = '''
from scipy import stats

vals = {"CBT-I": {"se": [], "tst": []}, "sleep_hygiene": {"se": [], "tst": []}}
for rec in records:
    try:
        se = float(rec["sleep_eff"])
        tst = float(rec["tst_min"])
    except ValueError:
        continue
    vals[rec["arm"]]["se"].append(se)
    vals[rec["arm"]]["tst"].append(tst)

for arm, v in vals.items():
    print(f"{arm:14s} SE {np.mean(v['se']):.1f}% (sd {np.std(v['se'], ddof=1):.1f})   "
          f"TST {np.mean(v['tst']):.0f} min (sd {np.std(v['tst'], ddof=1):.0f})")
t, p = stats.ttest_ind(vals["CBT-I"]["se"], vals["sleep_hygiene"]["se"], equal_var=False)
print(f"sleep efficiency, CBT-I vs hygiene: Welch t = {t:.2f}, p = {p:.4f}")
'''

_ACTI_SOUND = '''
from scipy import stats

def parse_se(txt):
    txt = txt.strip().rstrip("%")
    return np.nan if txt.upper() == "NA" else float(txt)

def parse_tst(txt):
    if "h" in txt:
        h, m = txt.split("h")
        return 60 * int(h) + int(m)
    return float(txt)

vals = {"CBT-I": {"se": [], "tst": []}, "sleep_hygiene": {"se": [], "tst": []}}
missing = {"CBT-I": 0, "sleep_hygiene": 0}
for rec in records:
    se, tst = parse_se(rec["sleep_eff"]), parse_tst(rec["tst_min"])
    if np.isnan(se):
        missing[rec["arm"]] += 1
    else:
        vals[rec["arm"]]["se"].append(se)
    vals[rec["arm"]]["tst"].append(tst)

for arm, v in vals.items():
    print(f"{arm:14s} n_SE={len(v['se'])} (missing {missing[arm]})  "
          f"SE {np.mean(v['se']):.1f}% (sd {np.std(v['se'], ddof=1):.1f})   "
          f"TST {np.mean(v['tst']):.0f} min (sd {np.std(v['tst'], ddof=1):.0f}, n={len(v['tst'])})")
t, p = stats.ttest_ind(vals["CBT-I"]["se"], vals["sleep_hygiene"]["se"], equal_var=False)
print(f"sleep efficiency, CBT-I vs hygiene: Welch t = {t:.2f}, p = {p:.4f}")
'''

CASES: list[Case] = [
    Case(
        id="h14-dataloss-outbreak-inner-merge-ids",
        family="data_loss",
        setup=_OUTBREAK_SETUP,
        code=_OUTBREAK_FLAWED,
        twin="h14-dataloss-outbreak-left-merge-reported",
        note="Default inner merge drops every questionnaire without a stool sample and every "
             "lab row in the other id format, so attack rates use a silent, selected subset.",
        split="holdout14",
    ),
    Case(
        id="h14-dataloss-outbreak-left-merge-reported",
        family=None,
        setup=_OUTBREAK_SETUP,
        code=_OUTBREAK_SOUND,
        twin="h14-dataloss-outbreak-inner-merge-ids",
        note="Ids are normalised, all questionnaires kept with a validated left merge, and "
             "linkage counts are reported; attack rates use the full cohort.",
        split="holdout14",
    ),
    Case(
        id="h14-dataloss-actigraphy-parse-skip",
        family="data_loss",
        setup=_ACTI_SETUP,
        code=_ACTI_FLAWED,
        twin="h14-dataloss-actigraphy-parse-all-formats",
        note="try/except/continue silently skips every Motionwatch record ('87.2%', '6h42') and "
             "the NA rows, so a whole device's participants vanish from the arm means.",
        split="holdout14",
    ),
    Case(
        id="h14-dataloss-actigraphy-parse-all-formats",
        family=None,
        setup=_ACTI_SETUP,
        code=_ACTI_SOUND,
        twin="h14-dataloss-actigraphy-parse-skip",
        note="Both device formats are parsed; only genuine NA values are excluded and the "
             "counts per arm are printed.",
        split="holdout14",
    ),
]
