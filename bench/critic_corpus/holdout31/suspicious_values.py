from bench.critic_corpus import Case

_GP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(314)
n = 2600
regions = ["North", "Midlands", "London", "South East", "South West"]
hsat = pd.DataFrame({
    "serial": np.arange(70001, 70001 + n),
    "region": rng.choice(regions, n, p=[0.22, 0.22, 0.18, 0.22, 0.16]),
    "wt": rng.lognormal(0, 0.4, n).round(4),
})
# Q12 "How satisfied are you with your GP practice?" 1 = very dissatisfied ... 5 = very
# satisfied; 8 = don't know / not used, 9 = refused (SPSS export, missing codes not applied)
dk_rate = hsat["region"].map({"North": 0.05, "Midlands": 0.07, "London": 0.16,
                              "South East": 0.06, "South West": 0.05}).to_numpy()
sat = rng.choice([1, 2, 3, 4, 5], n, p=[0.10, 0.15, 0.20, 0.35, 0.20])
u = rng.random(n)
hsat["q12_gp_sat"] = np.where(u < dk_rate, 8, np.where(u < dk_rate + 0.02, 9, sat))
'''

_RR_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(4242)
regions = ["North East", "North West", "Yorks & Humber", "East Mids", "West Mids",
           "East of England", "London", "South East", "South West"]
# sample vendor file: fresh address-based sample issued and eligibility per region
issued = pd.DataFrame({"region": regions,
                       "fresh_issued": [690, 810, 840, 450, 540, 590, 320, 570, 400]})
issued["fresh_ineligible"] = (issued["fresh_issued"] * rng.uniform(0.06, 0.12, 9)).round()
issued["fresh_eligible"] = issued["fresh_issued"] - issued["fresh_ineligible"]
# some regions were topped up with recontacts from last year's panel
panel_issued = dict(zip(regions, [0, 120, 0, 300, 80, 0, 390, 60, 420]))

rows = []
for r, elig in zip(issued["region"], issued["fresh_eligible"]):
    rows += [(r, "fresh")] * rng.binomial(int(elig), 0.34)
    rows += [(r, "panel_recontact")] * rng.binomial(panel_issued[r], 0.72)
completes = pd.DataFrame(rows, columns=["region", "sample_source"])
completes["interview_mins"] = rng.gamma(6, 3.5, len(completes)).round(1)
'''

CASES: list[Case] = [
    Case(
        id="h31-suspicious-values-dk-codes-in-likert-mean",
        family="suspicious_values",
        setup=_GP_SETUP,
        code='''def wmean(d):
    return np.average(d["q12_gp_sat"], weights=d["wt"])

def wtop2(d):
    return np.average(d["q12_gp_sat"] >= 4, weights=d["wt"])

g = hsat.groupby("region")[["q12_gp_sat", "wt"]]
summary = pd.DataFrame({"n": hsat.groupby("region").size(),
                        "mean_sat": g.apply(wmean), "pct_satisfied": 100 * g.apply(wtop2)})
print("Q12 satisfaction with GP practice (1-5), weighted")
print(f"national mean: {np.average(hsat['q12_gp_sat'], weights=hsat['wt']):.2f}")
summary.round(2).sort_values("mean_sat", ascending=False)
''',
        twin="h31-suspicious-values-dk-codes-in-likert-mean-ok",
        note="Codes 8 (don't know) and 9 (refused) are averaged into a 1-5 satisfaction scale and "
             "counted as 'satisfied', inflating London most (16% DK).",
        split="holdout31",
    ),
    Case(
        id="h31-suspicious-values-dk-codes-in-likert-mean-ok",
        family=None,
        setup=_GP_SETUP,
        code='''# 8 = don't know / not used, 9 = refused: missing on the 1-5 scale, shown separately
valid = hsat[hsat["q12_gp_sat"].between(1, 5)]

def wmean(d):
    return np.average(d["q12_gp_sat"], weights=d["wt"])

def wtop2(d):
    return np.average(d["q12_gp_sat"] >= 4, weights=d["wt"])

g = valid.groupby("region")[["q12_gp_sat", "wt"]]
summary = pd.DataFrame({"n_valid": valid.groupby("region").size(),
                        "mean_sat": g.apply(wmean), "pct_satisfied": 100 * g.apply(wtop2)})
summary["pct_dk_ref"] = 100 * hsat.assign(dk=hsat["q12_gp_sat"] >= 8).groupby("region")[
    ["dk", "wt"]].apply(lambda d: np.average(d["dk"], weights=d["wt"]))
print("Q12 satisfaction with GP practice (1-5), weighted, excluding DK/refused")
print(f"national mean: {np.average(valid['q12_gp_sat'], weights=valid['wt']):.2f} "
      f"(n valid = {len(valid)} of {len(hsat)})")
summary.round(2).sort_values("mean_sat", ascending=False)
''',
        twin="h31-suspicious-values-dk-codes-in-likert-mean",
        note="DK/refused codes are excluded from the scale mean and their weighted share is "
             "reported per region alongside the valid base.",
        split="holdout31",
    ),
    Case(
        id="h31-suspicious-values-response-rate-over-100",
        family="suspicious_values",
        setup=_RR_SETUP,
        code='''rr = issued.set_index("region")[["fresh_issued", "fresh_eligible"]].copy()
rr["completes"] = completes.groupby("region").size()
rr["resp_rate"] = rr["completes"] / rr["fresh_eligible"]
rr = rr.sort_values("resp_rate", ascending=False)

print(f"Overall response rate: {rr['completes'].sum() / rr['fresh_eligible'].sum():.1%}")
print(f"Best fieldwork region: {rr.index[0]} ({rr['resp_rate'].iloc[0]:.1%})")
print(f"Weakest: {rr.index[-1]} ({rr['resp_rate'].iloc[-1]:.1%})")
rr.round(3)
''',
        twin="h31-suspicious-values-response-rate-over-100-ok",
        note="Completes from panel recontacts are divided by fresh-sample eligibles only, giving "
             "response rates above 100% that are reported as the best regions.",
        split="holdout31",
    ),
    Case(
        id="h31-suspicious-values-response-rate-over-100-ok",
        family=None,
        setup=_RR_SETUP,
        code='''rr = issued.set_index("region")[["fresh_issued", "fresh_eligible"]].copy()
fresh = completes[completes["sample_source"] == "fresh"]
rr["completes"] = fresh.groupby("region").size()  # same sample source as the denominator
rr["resp_rate"] = rr["completes"] / rr["fresh_eligible"]
assert rr["resp_rate"].between(0, 1).all()
rr = rr.sort_values("resp_rate", ascending=False)

recon = completes[completes["sample_source"] == "panel_recontact"].groupby("region").size()
recon_issued = pd.Series(panel_issued)
recon_issued = recon_issued[recon_issued > 0]
recon_rate = recon.reindex(recon_issued.index, fill_value=0).sum() / recon_issued.sum()

print(f"Fresh-sample response rate: {rr['completes'].sum() / rr['fresh_eligible'].sum():.1%}")
print(f"Panel recontact rate (separate denominator): {recon_rate:.1%}")
print(f"Best fieldwork region: {rr.index[0]} ({rr['resp_rate'].iloc[0]:.1%})")
print(f"Weakest: {rr.index[-1]} ({rr['resp_rate'].iloc[-1]:.1%})")
rr.round(3)
''',
        twin="h31-suspicious-values-response-rate-over-100",
        note="Response rates use completes and eligibles from the same (fresh) sample; panel "
             "recontacts get their own rate.",
        split="holdout31",
    ),
]
