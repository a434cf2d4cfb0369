from bench.critic_corpus import Case

_MILES_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3571)
n = 8000
uw = pd.DataFrame({
    "policy_id": np.arange(n),
    "cover_type": rng.choice(["comprehensive", "tpft", "tpo"], n, p=[0.7, 0.2, 0.1]),
    "annual_mileage": np.round(rng.lognormal(8.9, 0.45, n), -2),
    "exposure": np.round(rng.uniform(0.2, 1.0, n), 3),
})
not_declared = rng.random(n) < 0.07
uw.loc[not_declared, "annual_mileage"] = 99999
uw["incurred"] = np.where(rng.random(n) < 0.07 * uw.exposure,
                          np.round(rng.lognormal(7.8, 1.0, n), 2), 0.0)
'''

_REN_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3572)
n = 5000
expiring = pd.DataFrame({
    "policy_id": [f"HP{i:06d}" for i in range(n)],
    "broker": rng.choice([f"BR{b:02d}" for b in range(1, 13)], n),
})
renewed = expiring[rng.random(n) < 0.81]
ren_rows = renewed.assign(trans_type="REN", status="renewed")
# mid-term adjustments on renewed policies are written with the renewed status too
mta = renewed[rng.random(len(renewed)) < 0.27].assign(trans_type="MTA", status="renewed")
lapsed = expiring.drop(renewed.index).assign(trans_type="LAP", status="lapsed")
trans = (pd.concat([ren_rows, mta, lapsed]).sample(frac=1, random_state=1)
           .reset_index(drop=True))
trans["trans_date"] = pd.Timestamp("2024-01-01") + pd.to_timedelta(
    rng.integers(0, 365, len(trans)), unit="D")
'''

CASES = [
    Case(
        id="h35-sus-mileage-99999-averaged",
        family="suspicious_values",
        twin="h35-sus-mileage-sentinel-removed",
        split="holdout35",
        setup=_MILES_SETUP,
        code='''
by_cover = uw.groupby("cover_type").agg(policies=("policy_id", "size"),
                                        avg_mileage=("annual_mileage", "mean"),
                                        expo=("exposure", "sum"),
                                        incurred=("incurred", "sum"))
by_cover["miles_yrs_k"] = (uw.annual_mileage * uw.exposure).groupby(uw.cover_type).sum() / 1000
by_cover["loss_per_1k_miles"] = by_cover.incurred / by_cover.miles_yrs_k
print(by_cover.round(2).to_string())
print(f"book average declared mileage: {uw.annual_mileage.mean():,.0f} miles/yr")
''',
        note="The 99999 'mileage not declared' code is averaged into mean mileage and the "
             "miles denominator, inflating mileage and deflating loss per 1,000 miles.",
    ),
    Case(
        id="h35-sus-mileage-sentinel-removed",
        family=None,
        twin="h35-sus-mileage-99999-averaged",
        split="holdout35",
        setup=_MILES_SETUP,
        code='''
# 99999 is the 'not declared' code on the proposal form, not a mileage
sentinel = uw.annual_mileage == 99999
print(f"mileage not declared: {sentinel.sum()} of {len(uw)} policies "
      f"({sentinel.mean():.1%}); excluded from the mileage statistics")
decl = uw[~sentinel]

by_cover = decl.groupby("cover_type").agg(policies=("policy_id", "size"),
                                          avg_mileage=("annual_mileage", "mean"),
                                          expo=("exposure", "sum"),
                                          incurred=("incurred", "sum"))
by_cover["miles_yrs_k"] = (decl.annual_mileage * decl.exposure).groupby(
    decl.cover_type).sum() / 1000
by_cover["loss_per_1k_miles"] = by_cover.incurred / by_cover.miles_yrs_k
print(by_cover.round(2).to_string())
print(f"book average declared mileage: {decl.annual_mileage.mean():,.0f} miles/yr")
''',
        note="The 99999 not-declared code is counted, reported and excluded before mileage "
             "averages and loss per 1,000 miles are computed.",
    ),
    Case(
        id="h35-sus-broker-retention-over-100",
        family="suspicious_values",
        twin="h35-sus-broker-retention-unique-policies",
        split="holdout35",
        setup=_REN_SETUP,
        code='''
renewals = trans[trans.status == "renewed"].groupby("broker").size()
expiries = expiring.groupby("broker").size()
ret = pd.DataFrame({"expiring": expiries, "renewed": renewals})
ret["retention"] = ret.renewed / ret.expiring

print(ret.sort_values("retention", ascending=False)
         .to_string(formatters={"retention": "{:.1%}".format}))
print(f"book retention 2024: {ret.renewed.sum() / ret.expiring.sum():.1%}")
''',
        note="Renewed transactions (renewal plus MTA rows) are counted instead of renewed "
             "policies, so broker retention rates exceed 100%, an impossible value.",
    ),
    Case(
        id="h35-sus-broker-retention-unique-policies",
        family=None,
        twin="h35-sus-broker-retention-over-100",
        split="holdout35",
        setup=_REN_SETUP,
        code='''
# a renewed policy can carry several transactions (renewal + MTAs): count policies, not rows
renewals = trans[trans.status == "renewed"].groupby("broker").policy_id.nunique()
expiries = expiring.groupby("broker").size()
ret = pd.DataFrame({"expiring": expiries, "renewed": renewals})
ret["retention"] = ret.renewed / ret.expiring
assert ret.retention.between(0, 1).all()

print(ret.sort_values("retention", ascending=False)
         .to_string(formatters={"retention": "{:.1%}".format}))
print(f"book retention 2024: {ret.renewed.sum() / ret.expiring.sum():.1%}")
''',
        note="Retention counts unique renewed policies per broker over expiring policies and "
             "asserts the rates lie in [0, 1].",
    ),
]
