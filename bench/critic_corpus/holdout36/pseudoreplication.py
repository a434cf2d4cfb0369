from bench.critic_corpus import Case

_DIARY_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3651)
people = pd.DataFrame({
    "person_id": np.arange(1, 281),
    "near_station": np.r_[np.ones(130, int), np.zeros(150, int)],
})
people["person_eff"] = rng.normal(0, 7.5, len(people))
people["n_trips"] = rng.integers(3, 13, len(people))
diary = people.loc[people.index.repeat(people["n_trips"])].reset_index(drop=True)
diary["trip_no"] = diary.groupby("person_id").cumcount() + 1
diary["purpose"] = rng.choice(["work", "education", "shopping", "social", "escort"],
                              len(diary), p=[0.35, 0.1, 0.25, 0.2, 0.1])
diary["duration_min"] = np.round(
    np.clip(24 - 1.5 * diary["near_station"] + diary["person_eff"]
            + rng.gamma(2, 4, len(diary)) - 8, 2, None), 0)
diary = diary.drop(columns=["person_eff", "n_trips"])
'''

_SPEED_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(3652)
sites = [f"ATC-{k}" for k in (211, 214, 219, 226, 230, 233, 241, 245, 252, 258, 263, 270)]
site_base = rng.normal(27.5, 3.0, len(sites))      # mph
site_effect = rng.normal(-1.0, 1.4, len(sites))    # response to the 20 mph limit varies
dates = {"before": pd.date_range("2023-09-04", periods=10),
         "after": pd.date_range("2024-01-08", periods=10)}
idx = pd.MultiIndex.from_tuples(
    [(s, per, d, h) for s in sites for per in ("before", "after") for d in dates[per]
     for h in range(6, 22)],
    names=["site", "period", "date", "hour"],
)
speeds = idx.to_frame(index=False)
hrs = speeds["hour"].to_numpy()
diurnal = -3.0 * np.exp(-((hrs - 8) ** 2) / 3) - 3.5 * np.exp(-((hrs - 17) ** 2) / 4)
site_i = speeds["site"].map({s: i for i, s in enumerate(sites)}).to_numpy()
day_key = speeds["site"] + speeds["date"].astype(str)
day_shock = day_key.map(dict(zip(day_key.unique(), rng.normal(0, 1.0, day_key.nunique()))))
is_after = (speeds["period"] == "after").to_numpy()
speeds["mean_speed"] = np.round(site_base[site_i] + diurnal + day_shock.to_numpy()
                                + np.where(is_after, site_effect[site_i], 0)
                                + rng.normal(0, 1.2, len(speeds)), 1)
speeds["post"] = (speeds["period"] == "after").astype(int)
'''

CASES = [
    Case(
        id="h36-pr-diary-trips-ttest",
        family="pseudoreplication",
        twin="h36-pr-diary-trips-ttest-ok",
        setup=_DIARY_SETUP,
        code='''
from scipy import stats

near = diary.loc[diary["near_station"] == 1, "duration_min"]
far = diary.loc[diary["near_station"] == 0, "duration_min"]
t, p = stats.ttest_ind(near, far, equal_var=False)
print(f"trips: near new station n={len(near)}, elsewhere n={len(far)}")
print(f"mean trip duration {near.mean():.1f} vs {far.mean():.1f} min "
      f"(diff {near.mean() - far.mean():+.1f} min), Welch t = {t:.2f}, p = {p:.4f}")
diary.groupby(["near_station", "purpose"])["duration_min"].mean().unstack().round(1)
''',
        note="Diary trips (3-12 per respondent) are treated as independent in a t-test of a "
             "respondent-level exposure; n is inflated and the p-value too small.",
        split="holdout36",
    ),
    Case(
        id="h36-pr-diary-trips-ttest-ok",
        family=None,
        twin="h36-pr-diary-trips-ttest",
        setup=_DIARY_SETUP,
        code='''
from scipy import stats

# exposure is at respondent level, so compare respondents (mean of their diary trips)
per_person = diary.groupby(["person_id", "near_station"], as_index=False)["duration_min"].mean()
near = per_person.loc[per_person["near_station"] == 1, "duration_min"]
far = per_person.loc[per_person["near_station"] == 0, "duration_min"]
t, p = stats.ttest_ind(near, far, equal_var=False)
print(f"respondents: near new station n={len(near)}, elsewhere n={len(far)}")
print(f"mean of respondent-average trip duration {near.mean():.1f} vs {far.mean():.1f} min "
      f"(diff {near.mean() - far.mean():+.1f} min), Welch t = {t:.2f}, p = {p:.4f}")
diary.groupby(["near_station", "purpose"])["duration_min"].mean().unstack().round(1)
''',
        note="Trips are averaged within respondent and the test uses respondents as the "
             "independent units, matching the level of the exposure.",
        split="holdout36",
    ),
    Case(
        id="h36-pr-20mph-hourly-ols",
        family="pseudoreplication",
        twin="h36-pr-20mph-hourly-ols-ok",
        setup=_SPEED_SETUP,
        code='''
import statsmodels.formula.api as smf

fit = smf.ols("mean_speed ~ post + C(hour) + C(site)", data=speeds).fit()
est, (lo, hi) = fit.params["post"], fit.conf_int().loc["post"]
print(f"20 mph scheme, {speeds['site'].nunique()} sites, {int(fit.nobs)} hourly observations")
print(f"change in mean speed after the limit: {est:+.2f} mph "
      f"(95% CI {lo:+.2f} to {hi:+.2f}), p = {fit.pvalues['post']:.2e}")
''',
        note="3840 hourly speeds from 12 sites enter OLS as independent observations; day "
             "shocks and site-varying effects are ignored, so the CI is far too narrow.",
        split="holdout36",
    ),
    Case(
        id="h36-pr-20mph-hourly-ols-ok",
        family=None,
        twin="h36-pr-20mph-hourly-ols",
        setup=_SPEED_SETUP,
        code='''
from scipy import stats

# one before and one after value per site: the site is the unit of replication
site_means = speeds.pivot_table(index="site", columns="period", values="mean_speed")
change = site_means["after"] - site_means["before"]
res = stats.ttest_rel(site_means["after"], site_means["before"])
ci = res.confidence_interval(0.95)
print(f"20 mph scheme, {len(change)} sites (paired before/after site means)")
print(f"change in mean speed after the limit: {change.mean():+.2f} mph "
      f"(95% CI {ci.low:+.2f} to {ci.high:+.2f}), p = {res.pvalue:.4f}")
change.round(2).sort_values()
''',
        note="Hourly data are collapsed to one before and one after mean per site and "
             "compared with a paired t-test over the 12 sites.",
        split="holdout36",
    ),
]
