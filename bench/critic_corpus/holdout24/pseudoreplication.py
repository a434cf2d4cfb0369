from bench.critic_corpus import Case

SPLIT = "holdout24"

_NO2_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(4417)
sites = pd.DataFrame({
    "site_id": ["BR1", "BR4", "CT2", "CT6", "HX1", "KG3", "MR2", "PL5", "WS1"],
    "site_name": ["Broad St", "Bristol Rd", "Corporation St", "Colmore Row", "Hagley Rd",
                  "Kings Norton", "Moseley Rd", "Pershore Rd", "Walsall Rd"],
    "in_caz": [1, 0, 1, 1, 0, 0, 0, 1, 0],
})
site_effect = rng.normal(0, 7, len(sites))
hours = pd.date_range("2024-01-01", "2024-02-29 23:00", freq="h")
diurnal = 6 * np.sin(2 * np.pi * (hours.hour - 5) / 24)
frames = []
for (_, s), eff in zip(sites.iterrows(), site_effect):
    ar = np.zeros(len(hours))
    shocks = rng.normal(0, 6, len(hours))
    for i in range(1, len(hours)):
        ar[i] = 0.85 * ar[i - 1] + shocks[i]
    no2 = 34 + eff - 2.5 * s.in_caz + diurnal + ar
    frames.append(pd.DataFrame({"site_id": s.site_id, "timestamp": hours,
                                "no2_ugm3": np.clip(no2, 2, None).round(1)}))
readings = pd.concat(frames, ignore_index=True).merge(sites, on="site_id")
readings.loc[rng.random(len(readings)) < 0.03, "no2_ugm3"] = np.nan
"""

_KS2_SETUP = r"""
import numpy as np
import pandas as pd

rng = np.random.default_rng(3141)
n_schools = 26
schools = pd.DataFrame({
    "school_urn": rng.choice(np.arange(100000, 150000), n_schools, replace=False),
    "academy": np.repeat([1, 0], n_schools // 2),
    "school_effect": rng.normal(0, 2.6, n_schools),
    "cohort": rng.integers(38, 112, n_schools),
})
rows = []
for _, s in schools.iterrows():
    k = int(s.cohort)
    fsm = rng.binomial(1, 0.24, k)
    prior = rng.normal(0, 1, k)
    score = (103.5 + 0.7 * s.academy + s.school_effect - 2.2 * fsm + 3.1 * prior
             + rng.normal(0, 4.5, k))
    rows.append(pd.DataFrame({"school_urn": int(s.school_urn), "academy": int(s.academy),
                              "fsm": fsm, "prior_attainment_z": prior.round(2),
                              "ks2_scaled_score": np.clip(score, 80, 120).round()}))
pupils = pd.concat(rows, ignore_index=True)
pupils.insert(0, "pupil_id", np.arange(1, len(pupils) + 1))
"""

CASES: list[Case] = [
    Case(
        id="h24-pseudoreplication-no2-hourly-caz-ttest",
        family="pseudoreplication",
        setup=_NO2_SETUP,
        code=r"""
from scipy import stats

inside = readings.loc[readings.in_caz == 1, "no2_ugm3"].dropna()
outside = readings.loc[readings.in_caz == 0, "no2_ugm3"].dropna()
t, p = stats.ttest_ind(inside, outside, equal_var=False)
diff = inside.mean() - outside.mean()
print(f"NO2 inside the Clean Air Zone: {inside.mean():.1f} µg/m³ vs {outside.mean():.1f} outside")
print(f"Difference {diff:+.1f} µg/m³ (Welch t = {t:.1f}, p = {p:.1e}, "
      f"n = {len(inside) + len(outside):,} readings)")
""",
        twin="h24-pseudoreplication-no2-hourly-caz-site-means",
        note="About 12,000 autocorrelated hourly readings from only 4 vs 5 monitors are fed to "
             "a t-test as independent observations; the unit is the monitoring site.",
        split=SPLIT,
    ),
    Case(
        id="h24-pseudoreplication-no2-hourly-caz-site-means",
        family=None,
        setup=_NO2_SETUP,
        code=r"""
from scipy import stats

site_means = (readings.groupby(["site_id", "in_caz"])["no2_ugm3"].mean()
              .reset_index(level="in_caz"))
inside = site_means.loc[site_means.in_caz == 1, "no2_ugm3"]
outside = site_means.loc[site_means.in_caz == 0, "no2_ugm3"]
t, p = stats.ttest_ind(inside, outside, equal_var=False)
diff = inside.mean() - outside.mean()
print(f"NO2 inside the Clean Air Zone: {inside.mean():.1f} µg/m³ vs {outside.mean():.1f} outside")
print(f"Difference {diff:+.1f} µg/m³ (Welch t = {t:.1f}, p = {p:.2f}, "
      f"n = {len(inside)} vs {len(outside)} monitoring sites)")
""",
        twin="h24-pseudoreplication-no2-hourly-caz-ttest",
        note="Readings are averaged to one value per monitor first, so the test compares 4 "
             "zone sites with 5 outside sites.",
        split=SPLIT,
    ),
    Case(
        id="h24-pseudoreplication-ks2-academy-pupil-ols",
        family="pseudoreplication",
        setup=_KS2_SETUP,
        code=r"""
import statsmodels.formula.api as smf

m = smf.ols("ks2_scaled_score ~ academy + fsm + prior_attainment_z", data=pupils).fit()
lo, hi = m.conf_int().loc["academy"]
print(f"{len(pupils):,} pupils in {pupils.school_urn.nunique()} schools")
print(f"Academy vs council-maintained gap at KS2: {m.params['academy']:+.2f} points "
      f"(95% CI {lo:.2f} to {hi:.2f}, p = {m.pvalues['academy']:.4f}), "
      f"after allowing for FSM and prior attainment")
""",
        twin="h24-pseudoreplication-ks2-academy-pupil-ols-clustered",
        note="Academy status is a school-level trait but the OLS treats 1,975 pupils from 26 "
             "schools as independent, so the CI and p-value ignore school clustering.",
        split=SPLIT,
    ),
    Case(
        id="h24-pseudoreplication-ks2-academy-pupil-ols-clustered",
        family=None,
        setup=_KS2_SETUP,
        code=r"""
import statsmodels.formula.api as smf

m = smf.ols("ks2_scaled_score ~ academy + fsm + prior_attainment_z", data=pupils).fit(
    cov_type="cluster", cov_kwds={"groups": pupils["school_urn"]})
lo, hi = m.conf_int().loc["academy"]
print(f"{len(pupils):,} pupils in {pupils.school_urn.nunique()} schools "
      f"(standard errors clustered by school)")
print(f"Academy vs council-maintained gap at KS2: {m.params['academy']:+.2f} points "
      f"(95% CI {lo:.2f} to {hi:.2f}, p = {m.pvalues['academy']:.4f}), "
      f"after allowing for FSM and prior attainment")
""",
        twin="h24-pseudoreplication-ks2-academy-pupil-ols",
        note="Same pupil-level model with school-clustered standard errors, so the academy "
             "effect is judged against between-school variation.",
        split=SPLIT,
    ),
]
