from bench.critic_corpus import Case

CASES = [
    Case(
        id="h35-sound-frequency-glm-relativities",
        family=None,
        twin=None,
        split="holdout35",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(35001)
n = 12000
mp = pd.DataFrame({
    "age_band": rng.choice(["17-24", "25-34", "35-49", "50-64", "65+"], n,
                           p=[0.08, 0.2, 0.32, 0.26, 0.14]),
    "region": rng.choice(["north", "midlands", "south", "london"], n, p=[0.3, 0.25, 0.3, 0.15]),
    "ncd_years": rng.integers(0, 10, n),
    "exposure": np.round(rng.uniform(0.05, 1.0, n), 3),
})
rel_age = mp.age_band.map({"17-24": 2.3, "25-34": 1.3, "35-49": 1.0, "50-64": 0.85, "65+": 0.95})
rel_reg = mp.region.map({"north": 1.0, "midlands": 1.05, "south": 0.9, "london": 1.35})
mp["claim_count"] = rng.poisson(0.085 * mp.exposure * rel_age * rel_reg
                                * np.exp(-0.05 * mp.ncd_years))
''',
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

freq = smf.glm("claim_count ~ C(age_band, Treatment('35-49')) + C(region) + ncd_years",
               data=mp, family=sm.families.Poisson(), offset=np.log(mp.exposure)).fit()

rel = pd.DataFrame({"relativity": np.exp(freq.params),
                    "lo95": np.exp(freq.conf_int()[0]),
                    "hi95": np.exp(freq.conf_int()[1])})
print(rel.round(3).to_string())
print(f"Pearson chi2 / df = {freq.pearson_chi2 / freq.df_resid:.3f} (overdispersion check)")
print(f"policies {len(mp):,}, car-years {mp.exposure.sum():,.0f}, claims {mp.claim_count.sum()}")
''',
        note="Poisson frequency GLM with a log-exposure offset; relativities with Wald CIs and "
             "a dispersion check, no validation claim made.",
    ),
    Case(
        id="h35-sound-chain-ladder-ibnr",
        family=None,
        twin=None,
        split="holdout35",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(35002)
incr_pattern = np.diff(np.r_[0, 0.35, 0.62, 0.78, 0.88, 0.94, 0.97, 0.99, 1.0])
rows = []
for k, ay in enumerate(range(2016, 2024)):
    ult = rng.lognormal(np.log(4.0e6), 0.1) * 1.05 ** k
    for d in range(2024 - ay):
        rows.append({"acc_year": ay, "dev_year": d + 1,
                     "paid": round(ult * incr_pattern[d] * rng.lognormal(0, 0.05), 0)})
payments = pd.DataFrame(rows)
''',
        code='''
incr = payments.pivot_table(index="acc_year", columns="dev_year", values="paid", aggfunc="sum")
cum = incr.cumsum(axis=1)
print((cum / 1e3).round(0).to_string())

n = cum.shape[1]
ldf = {}
for j in range(1, n):
    both = cum[[j, j + 1]].dropna()          # accident years observed at both ages
    ldf[j] = both[j + 1].sum() / both[j].sum()  # volume-weighted development factor
ldf = pd.Series(ldf)
cdf_to_ult = ldf[::-1].cumprod()[::-1]
print("age-to-age:", ldf.round(4).to_dict())

latest_age = cum.notna().sum(axis=1)
latest = cum.apply(lambda r: r.dropna().iloc[-1], axis=1)
cdf = latest_age.map(lambda a: cdf_to_ult.get(a, 1.0))
res = pd.DataFrame({"latest_paid": latest, "age": latest_age, "cdf": cdf,
                    "ultimate": latest * cdf})
res["ibnr"] = res.ultimate - res.latest_paid
print((res.assign(latest_paid=res.latest_paid / 1e3, ultimate=res.ultimate / 1e3,
                  ibnr=res.ibnr / 1e3)).round(3).to_string())
print(f"total IBNR (GBP k, no tail factor beyond age {n}): {res.ibnr.sum() / 1e3:,.0f}")
''',
        note="Paid triangle built from incremental payments, volume-weighted chain-ladder "
             "factors and IBNR by accident year; the no-tail assumption is stated.",
    ),
    Case(
        id="h35-sound-severity-gamma-glm",
        family=None,
        twin=None,
        split="holdout35",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(35003)
n = 3000
sev = pd.DataFrame({
    "peril": rng.choice(["escape_of_water", "fire", "theft", "storm"], n,
                        p=[0.4, 0.1, 0.25, 0.25]),
    "property_type": rng.choice(["detached", "semi", "terrace", "flat"], n),
    "log_si": np.log(rng.lognormal(np.log(280), 0.4, n)),
})
mu = (2500 * sev.peril.map({"escape_of_water": 1.0, "fire": 3.5, "theft": 0.6, "storm": 0.9})
      * np.exp(0.5 * (sev.log_si - np.log(280))))
sev["claim_cost"] = np.round(rng.gamma(1.3, mu / 1.3), 2)
''',
        code='''
import statsmodels.api as sm
import statsmodels.formula.api as smf

print(sev.groupby("peril").claim_cost.agg(["count", "mean", "median"]).round(0).to_string())

gam = smf.glm("claim_cost ~ C(peril, Treatment('escape_of_water')) + C(property_type) + log_si",
              data=sev, family=sm.families.Gamma(link=sm.families.links.Log())).fit(scale="X2")
out = pd.DataFrame({"factor": np.exp(gam.params), "p": gam.pvalues}).round(4)
print(out.to_string())
print(f"Gamma shape estimate (1/dispersion): {1 / gam.scale:.2f}")
''',
        note="Gamma GLM with log link on positive claim costs, Pearson-estimated dispersion, "
             "multiplicative factors reported descriptively.",
    ),
    Case(
        id="h35-sound-one-way-age-plot",
        family=None,
        twin=None,
        split="holdout35",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(35004)
n = 15000
book = pd.DataFrame({"driver_age": rng.integers(17, 90, n),
                     "exposure": np.round(rng.uniform(0.1, 1.0, n), 3)})
u = np.where(book.driver_age < 25, 2.2, 1.0) * np.where(book.driver_age > 75, 1.4, 1.0)
book["claim_count"] = rng.poisson(0.08 * u * book.exposure)
book["incurred"] = np.where(book.claim_count > 0,
                            np.round(rng.lognormal(7.9, 1.0, n) * book.claim_count, 2), 0.0)
''',
        code='''
import matplotlib.pyplot as plt

bands = [16, 20, 25, 30, 40, 50, 60, 70, 80, 90]
book["age_band"] = pd.cut(book.driver_age, bands, right=False)
ow = book.groupby("age_band", observed=True).agg(car_years=("exposure", "sum"),
                                                 claims=("claim_count", "sum"),
                                                 incurred=("incurred", "sum"))
ow["frequency"] = ow.claims / ow.car_years
ow["burning_cost"] = ow.incurred / ow.car_years
print(ow.round(3).to_string())

fig, ax = plt.subplots(figsize=(8, 4))
ax.bar(ow.index.astype(str), ow.car_years, color="lightgrey", label="car-years")
ax.set_ylabel("car-years")
ax2 = ax.twinx()
ax2.plot(ow.index.astype(str), ow.frequency, marker="o", color="navy", label="frequency")
ax2.set_ylabel("claims per car-year")
ax.set_title("One-way: claim frequency by driver age band")
fig.tight_layout()
''',
        note="Descriptive one-way analysis: exposure-weighted frequency and burning cost by age "
             "band with an exposure bar / frequency line chart.",
    ),
    Case(
        id="h35-sound-cat-event-set-oep-aep",
        family=None,
        twin=None,
        split="holdout35",
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(35005)
n_years = 10000
n_events = rng.poisson(1.8, n_years)
elt = pd.DataFrame({"year": np.repeat(np.arange(1, n_years + 1), n_events)})
elt["event_loss"] = np.round((rng.pareto(1.6, len(elt)) + 1) * 2.0e6, 0)
''',
        code='''
annual = elt.groupby("year").event_loss.agg(["sum", "max"]).reindex(
    np.arange(1, n_years + 1), fill_value=0.0)

rps = np.array([10, 25, 50, 100, 200, 250])
ep = pd.DataFrame({"return_period": rps,
                   "OEP_m": np.quantile(annual["max"], 1 - 1 / rps) / 1e6,
                   "AEP_m": np.quantile(annual["sum"], 1 - 1 / rps) / 1e6})
print(f"simulated years: {n_years:,}; events: {len(elt):,}; "
      f"years with no event: {(annual['sum'] == 0).mean():.1%}")
print(f"average annual loss: {annual['sum'].mean() / 1e6:,.2f}m")
print(ep.round(2).to_string(index=False))
''',
        note="Empirical OEP/AEP return-period losses from a fixed simulated 10,000-year event "
             "set, with zero-event years kept in the year index.",
    ),
]
