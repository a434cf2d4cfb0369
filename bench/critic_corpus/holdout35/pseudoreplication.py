from bench.critic_corpus import Case

_TRIP_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3551)
rows = []
for d in range(60):
    base = rng.gamma(2.0, 0.6)
    effect = rng.normal(0.92, 0.15)
    for phase, mult in [("before", 1.0), ("after", effect)]:
        for t in range(rng.integers(25, 55)):
            km = rng.gamma(2.0, 9.0)
            rows.append({"driver_id": f"D{d:03d}", "phase": phase, "trip_km": round(km, 1),
                         "harsh_brakes": rng.poisson(base * mult * km / 10)})
trips = pd.DataFrame(rows)
trips["hb_per_10km"] = trips.harsh_brakes / trips.trip_km * 10
'''

_BROKER_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3552)
parts = []
for b in range(40):
    m = rng.integers(80, 260)
    loyalty = int(b % 2 == 0)
    u_b = rng.normal(0, 0.5)
    tenure = rng.integers(1, 12, m)
    prem_chg = rng.normal(5, 8, m)
    eta = -1.4 - 0.1 * loyalty + u_b - 0.08 * tenure + 0.05 * prem_chg
    parts.append(pd.DataFrame({"broker_id": f"BRK{b:02d}", "loyalty_scheme": loyalty,
                               "tenure_years": tenure, "prem_change_pct": prem_chg.round(1),
                               "lapsed": rng.binomial(1, 1 / (1 + np.exp(-eta)))}))
book = pd.concat(parts, ignore_index=True)
'''

CASES = [
    Case(
        id="h35-pseudo-telematics-trips-ttest",
        family="pseudoreplication",
        twin="h35-pseudo-telematics-driver-paired",
        split="holdout35",
        setup=_TRIP_SETUP,
        code='''
from scipy import stats

before = trips.loc[trips.phase == "before", "hb_per_10km"]
after = trips.loc[trips.phase == "after", "hb_per_10km"]
res = stats.ttest_ind(before, after, equal_var=False)

print(f"trips: {len(before):,} before / {len(after):,} after feedback app")
print(f"harsh brakes per 10 km: {before.mean():.3f} -> {after.mean():.3f} "
      f"({after.mean() / before.mean() - 1:+.1%})")
print(f"t = {res.statistic:.2f}, p = {res.pvalue:.2e}")
''',
        note="Thousands of trips from the same 60 drivers, measured before and after, are "
             "treated as independent samples; the unit is the driver and the design is paired.",
    ),
    Case(
        id="h35-pseudo-telematics-driver-paired",
        family=None,
        twin="h35-pseudo-telematics-trips-ttest",
        split="holdout35",
        setup=_TRIP_SETUP,
        code='''
from scipy import stats

# one rate per driver and phase (total brakes / total km), then a paired test over drivers
drv = (trips.groupby(["driver_id", "phase"])[["harsh_brakes", "trip_km"]].sum()
            .assign(rate=lambda d: d.harsh_brakes / d.trip_km * 10)
            .rate.unstack("phase"))
ratio = np.log(drv.after / drv.before)
res = stats.ttest_rel(np.log(drv.after), np.log(drv.before))

print(f"drivers: {len(drv)} (each observed before and after the feedback app)")
print(f"median driver rate: {drv.before.median():.3f} -> {drv.after.median():.3f}")
print(f"geometric-mean change per driver: {np.exp(ratio.mean()) - 1:+.1%}")
print(f"paired t on log rates: t = {res.statistic:.2f}, p = {res.pvalue:.4f}, df = {len(drv) - 1}")
''',
        note="Trips are aggregated to one before and one after rate per driver and compared with "
             "a paired t-test on log rates, so n is the 60 drivers.",
    ),
    Case(
        id="h35-pseudo-broker-loyalty-logit",
        family="pseudoreplication",
        twin="h35-pseudo-broker-loyalty-clustered",
        split="holdout35",
        setup=_BROKER_SETUP,
        code='''
import statsmodels.formula.api as smf

print(book.groupby("loyalty_scheme").agg(brokers=("broker_id", "nunique"),
                                         policies=("lapsed", "size"),
                                         lapse_rate=("lapsed", "mean")).round(3))

lapse_fit = smf.logit("lapsed ~ loyalty_scheme + tenure_years + prem_change_pct",
                      data=book).fit(disp=0)
print(lapse_fit.summary2().tables[1].round(4))
or_ = np.exp(lapse_fit.params["loyalty_scheme"])
print(f"broker loyalty scheme: lapse odds ratio {or_:.2f}, "
      f"p = {lapse_fit.pvalues['loyalty_scheme']:.4f} (n = {int(lapse_fit.nobs):,})")
''',
        note="The loyalty scheme is assigned per broker (40 brokers) but the logit treats ~6,700 "
             "policies as independent, ignoring broker clustering, so the p-value is too small.",
    ),
    Case(
        id="h35-pseudo-broker-loyalty-clustered",
        family=None,
        twin="h35-pseudo-broker-loyalty-logit",
        split="holdout35",
        setup=_BROKER_SETUP,
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(book.groupby("loyalty_scheme").agg(brokers=("broker_id", "nunique"),
                                         policies=("lapsed", "size"),
                                         lapse_rate=("lapsed", "mean")).round(3))

# the scheme is a broker-level treatment: cluster the standard errors on broker (40 clusters)
lapse_fit = smf.glm("lapsed ~ loyalty_scheme + tenure_years + prem_change_pct", data=book,
                    family=sm.families.Binomial()).fit(
    cov_type="cluster", cov_kwds={"groups": pd.factorize(book.broker_id)[0]})
print(lapse_fit.summary2().tables[1].round(4))
or_ = np.exp(lapse_fit.params["loyalty_scheme"])
print(f"broker loyalty scheme: lapse odds ratio {or_:.2f}, "
      f"p = {lapse_fit.pvalues['loyalty_scheme']:.4f} (40 broker clusters)")
''',
        note="Broker-level treatment is analysed with broker-clustered standard errors, so "
             "inference reflects the 40 brokers rather than thousands of policies.",
    ),
]
