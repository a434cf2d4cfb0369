from bench.critic_corpus import Case

CASES = [
    Case(
        id="h36-sg-atc-hourly-profile",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3601)
ts = pd.date_range("2024-04-01", periods=56 * 24, freq="h")
hod, wkend = ts.hour.values, ts.dayofweek.values >= 5
am = np.exp(-((hod - 8) ** 2) / 3.5)
pm = np.exp(-((hod - 17) ** 2) / 5)
base = 0.12 + 0.45 * ((hod >= 6) & (hod <= 21))
nb = np.where(wkend, 380 * (base + 0.4 * np.exp(-((hod - 13) ** 2) / 10)),
              380 * (base + 1.5 * am + 0.6 * pm))
sb = np.where(wkend, 370 * (base + 0.4 * np.exp(-((hod - 14) ** 2) / 10)),
              370 * (base + 0.6 * am + 1.4 * pm))
atc = pd.DataFrame({"ts": ts, "nb": rng.poisson(nb), "sb": rng.poisson(sb)})
''',
        code='''
import matplotlib.pyplot as plt

atc["hour"] = atc["ts"].dt.hour
atc["day_type"] = np.where(atc["ts"].dt.dayofweek >= 5, "weekend", "weekday")
atc["total"] = atc["nb"] + atc["sb"]
print(f"{atc['ts'].dt.date.nunique()} complete days, "
      f"missing hours: {atc[['nb', 'sb']].isna().any(axis=1).sum()}")

profile = atc.groupby(["day_type", "hour"])[["nb", "sb", "total"]].mean()
daily = atc.groupby(atc["ts"].dt.date)["total"].sum()
wkday = profile.loc["weekday"]
pk = wkday["total"].idxmax()
k_factor = wkday["total"].max() / wkday["total"].sum()
d_split = wkday.loc[pk, ["nb", "sb"]].max() / wkday.loc[pk, "total"]

fig, ax = plt.subplots(figsize=(8, 3.5))
for dt, g in profile.groupby(level="day_type"):
    ax.plot(g.index.get_level_values("hour"), g["total"], marker="o", ms=3, label=dt)
ax.set(xlabel="hour of day", ylabel="mean veh/h (both directions)",
       title="ATC 4417, Apr-May 2024")
ax.legend()
print(f"ADT {daily.mean():.0f} veh/day; weekday peak hour {pk}:00, "
      f"K = {k_factor:.3f}, D = {d_split:.2f}")
''',
        note="Complete 8-week count (checked for gaps) summarised into weekday/weekend hourly "
             "profiles, peak-hour K and directional D factors, and a plot.",
        split="holdout36",
    ),
    Case(
        id="h36-sg-od-matrix-districts",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3602)
districts = ["CBD", "Inner N", "Inner S", "East", "West", "North", "South", "Airport"]
pop = np.array([0.5, 1.2, 1.1, 1.4, 1.3, 1.6, 1.5, 0.1])
jobs = np.array([4.0, 1.0, 0.9, 0.8, 0.9, 0.6, 0.7, 0.6])
xy = np.array([[0, 0], [0, 3], [0, -3], [6, 0], [-6, 0], [0, 9], [0, -9], [10, -8]])
dist = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1)) + 1.5
p = np.outer(pop, jobs) * np.exp(-0.18 * dist)
p /= p.sum()
n = 5200
cells = rng.choice(p.size, n, p=p.ravel())
trips = pd.DataFrame({
    "o_district": np.array(districts)[cells // 8],
    "d_district": np.array(districts)[cells % 8],
    "hh_weight": np.round(rng.uniform(60, 240, n), 1),
})
''',
        code='''
order = ["CBD", "Inner N", "Inner S", "East", "West", "North", "South", "Airport"]
od = pd.crosstab(trips["o_district"], trips["d_district"], values=trips["hh_weight"],
                 aggfunc="sum", margins=True, margins_name="Total").fillna(0)
od = od.reindex(index=order + ["Total"], columns=order + ["Total"])
print(f"{len(trips)} weighted survey trips -> {od.loc['Total', 'Total']:,.0f} expanded trips")

core = od.loc[order, order]
intrazonal = np.trace(core.to_numpy()) / core.to_numpy().sum()
print(f"intra-district share: {intrazonal:.1%}")
top = core.stack().sort_values(ascending=False).head(6)
print("largest O-D flows (expanded trips):")
print(top.round(-2).to_string())
(core.div(core.sum(axis=1), axis=0) * 100).round(1)
''',
        note="Weighted O-D matrix by district with margins, intrazonal share, top flows and "
             "row percentages; a plain descriptive summary.",
        split="holdout36",
    ),
    Case(
        id="h36-sg-logit-value-of-time",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3603)
n = 1800
df = pd.DataFrame({
    "car_time": np.round(rng.uniform(10, 60, n)),
    "pt_time": np.round(rng.uniform(15, 80, n)),
    "car_cost": np.round(rng.uniform(2, 18, n), 2),
    "pt_cost": np.round(rng.choice([2.5, 3.0, 3.5, 5.0], n), 2),
    "income_k": np.round(rng.lognormal(np.log(60), 0.5, n)),
})
df["d_time"] = df["car_time"] - df["pt_time"]
df["d_cost"] = df["car_cost"] - df["pt_cost"]
v = 0.6 - 0.055 * df["d_time"] - 0.25 * df["d_cost"] + 0.004 * (df["income_k"] - 60)
df["chose_car"] = rng.binomial(1, 1 / (1 + np.exp(-v)))
''',
        code='''
import statsmodels.formula.api as smf

# one stated-preference choice per respondent: binary logit on time and cost differences
logit = smf.logit("chose_car ~ d_time + d_cost + income_k", data=df).fit(disp=0)
print(logit.summary2().tables[1].round(4))

b_t, b_c = logit.params["d_time"], logit.params["d_cost"]
vot = 60 * b_t / b_c                                    # $ per hour
V = logit.cov_params().loc[["d_time", "d_cost"], ["d_time", "d_cost"]].to_numpy()
grad = 60 * np.array([1 / b_c, -b_t / b_c ** 2])        # delta method
se = np.sqrt(grad @ V @ grad)
print(f"value of travel time savings: ${vot:.2f}/h (95% CI ${vot - 1.96 * se:.2f} "
      f"to ${vot + 1.96 * se:.2f}), n = {int(logit.nobs)}")
''',
        note="Binary logit on one choice per respondent; value of time is the ratio of "
             "coefficients with a delta-method CI.",
        split="holdout36",
    ),
    Case(
        id="h36-sg-crash-rate-negbin",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3604)
classes = {"motorway": (0.05, 60), "A-road": (0.14, 110), "B-road": (0.22, 90),
           "minor urban": (0.35, 160)}
rows = []
for rc, (rate, n_links) in classes.items():
    mvkm = rng.lognormal(np.log(25 if rc == "motorway" else 6), 0.8, n_links)
    mu = rate * mvkm * rng.gamma(2.0, 0.5, n_links)          # overdispersion across links
    rows.append(pd.DataFrame({"road_class": rc, "mvkm": mvkm.round(2),
                              "urban": rng.binomial(1, 0.2 if rc == "motorway" else 0.6,
                                                    n_links),
                              "injury_crashes_5yr": rng.poisson(mu * 5)}))
links = pd.concat(rows, ignore_index=True)
links["mvkm_5yr"] = links["mvkm"] * 5
''',
        code='''
import statsmodels.formula.api as smf

raw = links.groupby("road_class").agg(links=("mvkm", "size"),
                                      crashes=("injury_crashes_5yr", "sum"),
                                      mvkm=("mvkm_5yr", "sum"))
raw["per_100m_vkm"] = (100 * raw["crashes"] / raw["mvkm"]).round(1)
print(raw)

# counts are overdispersed across links, so a negative binomial with exposure (vehicle-km)
nb = smf.negativebinomial("injury_crashes_5yr ~ C(road_class, Treatment('motorway')) + urban",
                          data=links, exposure=links["mvkm_5yr"]).fit(disp=0, maxiter=200)
irr = pd.DataFrame({"IRR": np.exp(nb.params), "lo": np.exp(nb.conf_int()[0]),
                    "hi": np.exp(nb.conf_int()[1]), "p": nb.pvalues}).drop("alpha")
print(f"dispersion alpha = {nb.params['alpha']:.2f}")
irr.round(3)
''',
        note="Crash counts per link modelled with negative binomial regression with vehicle-km "
             "exposure, rate ratios with CIs; raw rates shown alongside.",
        split="holdout36",
    ),
    Case(
        id="h36-sg-bikeshare-weather-hac",
        family=None,
        twin=None,
        setup='''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3605)
days = pd.date_range("2023-03-01", "2023-11-30", freq="D")
n = len(days)
temp = 14 + 9 * np.sin(2 * np.pi * (days.dayofyear.values - 105) / 365) + rng.normal(0, 3, n)
rain = np.round(rng.gamma(0.5, 6, n) * (rng.random(n) < 0.4), 1)
e = np.zeros(n)
for i in range(1, n):
    e[i] = 0.5 * e[i - 1] + rng.normal(0, 0.08)
log_trips = (8.2 + 0.035 * temp - 0.03 * rain - 0.18 * (days.dayofweek.values >= 5) + e)
daily = pd.DataFrame({"date": days, "trips": np.round(np.exp(log_trips)).astype(int),
                      "temp_c": temp.round(1), "rain_mm": rain})
''',
        code='''
import statsmodels.formula.api as smf
import matplotlib.pyplot as plt

daily["weekend"] = (daily["date"].dt.dayofweek >= 5).astype(int)
daily["log_trips"] = np.log(daily["trips"])
print(daily[["trips", "temp_c", "rain_mm"]].describe().round(1))

# daily series: residuals are autocorrelated, so use HAC (Newey-West) standard errors
fit = smf.ols("log_trips ~ temp_c + rain_mm + weekend", data=daily).fit(
    cov_type="HAC", cov_kwds={"maxlags": 7})
eff = pd.DataFrame({"pct_change": 100 * (np.exp(fit.params) - 1),
                    "lo": 100 * (np.exp(fit.conf_int()[0]) - 1),
                    "hi": 100 * (np.exp(fit.conf_int()[1]) - 1)}).drop("Intercept")
print(eff.round(1))

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.scatter(daily["temp_c"], daily["trips"], s=8, c=daily["rain_mm"] > 1, cmap="coolwarm")
ax.set(xlabel="daily mean temperature (C)", ylabel="bike-share trips",
       title="Daily trips vs temperature (red: rain > 1 mm)")
print(f"n = {int(fit.nobs)} days, R2 = {fit.rsquared:.2f}")
''',
        note="Log-linear regression of daily bike-share trips on weather with Newey-West "
             "errors for the autocorrelated daily series; effects as % changes with CIs.",
        split="holdout36",
    ),
]
