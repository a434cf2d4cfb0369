from bench.critic_corpus import Case

_JOIN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3581)
n = 10000
pol = pd.DataFrame({
    "policy_no": [f"MTR{i:07d}" for i in range(n)],
    "product": rng.choice(["private_car", "van", "fleet"], n, p=[0.7, 0.2, 0.1]),
    "exposure": np.round(rng.uniform(0.1, 1.0, n), 3),
})
base = pol["product"].map({"private_car": 0.07, "van": 0.10, "fleet": 0.16})
k = rng.poisson(base * pol.exposure)
clm = pd.DataFrame({"policy_no": np.repeat(pol.policy_no.values, k)})
clm["claim_no"] = [f"C{i:06d}" for i in range(len(clm))]
clm["incurred"] = np.round(rng.lognormal(7.6, 1.1, len(clm)), 2)
# claims still handled on the legacy platform carry the old hyphenated policy key
prod = clm.policy_no.map(pol.set_index("policy_no")["product"])
legacy = rng.random(len(clm)) < np.where(prod == "fleet", 0.45, 0.15)
clm.loc[legacy, "policy_no"] = "MTR-" + clm.loc[legacy, "policy_no"].str[3:]
'''

_PAID_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3582)
n = 4000
pay = pd.DataFrame({
    "claim_id": np.arange(70000, 70000 + n),
    "acc_year": rng.integers(2016, 2024, n),
    "handler": rng.choice(["in_house", "tpa"], n, p=[0.75, 0.25]),
})
amt = np.where(pay.handler == "tpa", rng.lognormal(9.0, 1.0, n), rng.lognormal(7.9, 1.0, n))
# the TPA bordereau is exported with thousands separators; a few rows are blank
pay["paid_amt"] = [f"{a:,.2f}" if h == "tpa" else f"{a:.2f}" for a, h in zip(amt, pay.handler)]
pay.loc[rng.random(n) < 0.01, "paid_amt"] = "NULL"
'''

CASES = [
    Case(
        id="h35-dl-claims-inner-join-key-mismatch",
        family="data_loss",
        twin="h35-dl-claims-left-join-reconciled",
        split="holdout35",
        setup=_JOIN_SETUP,
        code='''
clm_pol = clm.merge(pol[["policy_no", "product"]], on="policy_no")

summary = clm_pol.groupby("product").agg(claims=("claim_no", "size"),
                                         incurred=("incurred", "sum"))
summary["car_years"] = pol.groupby("product").exposure.sum()
summary["frequency"] = summary.claims / summary.car_years
summary["severity"] = summary.incurred / summary.claims
summary["burning_cost"] = summary.incurred / summary.car_years
print(summary.round(3).to_string())
''',
        note="The inner join silently drops claims whose legacy hyphenated policy key does not "
             "match (mostly fleet), understating frequency and burning cost with no count shown.",
    ),
    Case(
        id="h35-dl-claims-left-join-reconciled",
        family=None,
        twin="h35-dl-claims-inner-join-key-mismatch",
        split="holdout35",
        setup=_JOIN_SETUP,
        code='''
# legacy claims use 'MTR-0001234' keys: normalise before joining, then reconcile the join
clm["policy_key"] = clm.policy_no.str.replace("-", "", regex=False)
clm_pol = clm.merge(pol[["policy_no", "product"]], left_on="policy_key",
                    right_on="policy_no", how="left", indicator=True,
                    suffixes=("_clm", ""), validate="many_to_one")
unmatched = clm_pol._merge.eq("left_only")
print(f"claims: {len(clm):,}; unmatched to a policy after key fix: {unmatched.sum()}")
assert unmatched.sum() == 0

summary = clm_pol.groupby("product").agg(claims=("claim_no", "size"),
                                         incurred=("incurred", "sum"))
summary["car_years"] = pol.groupby("product").exposure.sum()
summary["frequency"] = summary.claims / summary.car_years
summary["severity"] = summary.incurred / summary.claims
summary["burning_cost"] = summary.incurred / summary.car_years
print(summary.round(3).to_string())
''',
        note="Policy keys are normalised, the claims are left-joined with an indicator and the "
             "unmatched count is reported (and asserted zero) before frequency is computed.",
    ),
    Case(
        id="h35-dl-paid-coerce-dropna",
        family="data_loss",
        twin="h35-dl-paid-parse-separators",
        split="holdout35",
        setup=_PAID_SETUP,
        code='''
sev_by_ay = (pay
             .assign(paid=lambda d: pd.to_numeric(d.paid_amt, errors="coerce"))
             .dropna(subset=["paid"])
             .groupby("acc_year")
             .paid.agg(claims="count", avg_paid="mean", total_paid="sum")
             .round(0))
print(sev_by_ay.to_string())
print(f"average paid severity, all accident years: "
      f"{sev_by_ay.total_paid.sum() / sev_by_ay.claims.sum():,.0f}")
''',
        note="to_numeric(errors='coerce') turns every comma-formatted TPA amount into NaN and "
             "dropna removes them silently, so the larger claims vanish from average severity.",
    ),
    Case(
        id="h35-dl-paid-parse-separators",
        family=None,
        twin="h35-dl-paid-coerce-dropna",
        split="holdout35",
        setup=_PAID_SETUP,
        code='''
# strip thousands separators before parsing; report what still fails to parse
raw = pay.paid_amt.str.replace(",", "", regex=False)
pay["paid"] = pd.to_numeric(raw, errors="coerce")
bad = pay.paid.isna()
print(f"unparseable paid amounts: {bad.sum()} of {len(pay)} "
      f"({sorted(pay.loc[bad, 'paid_amt'].unique())}), by handler:")
print(pay.loc[bad].groupby("handler").size().to_string())

sev_by_ay = (pay[~bad]
             .groupby("acc_year")
             .paid.agg(claims="count", avg_paid="mean", total_paid="sum")
             .round(0))
print(sev_by_ay.to_string())
print(f"average paid severity, all accident years: "
      f"{sev_by_ay.total_paid.sum() / sev_by_ay.claims.sum():,.0f}")
''',
        note="Thousands separators are stripped before parsing and the few remaining NULL rows "
             "are counted and shown by handler before the severity table.",
    ),
]
