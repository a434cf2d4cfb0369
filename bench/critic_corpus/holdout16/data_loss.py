from bench.critic_corpus import Case

_SPLIT = "holdout16"

_ACS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(1199)
state_fips = [1, 2, 4, 5, 6, 8, 9, 10, 11, 12, 13, 17, 18, 21, 26, 36, 37, 39, 42, 48, 51, 53]
counties = [f"{s:02d}{c:03d}" for s in state_fips for c in range(1, 41, 2)]
premiums = pd.DataFrame({
    "county_fips": counties,
    "benchmark_premium_40yo": np.round(rng.normal(440, 70, len(counties)), 2),
    "n_insurers": rng.integers(1, 8, len(counties)),
})
n = 5000
pick = rng.integers(0, len(counties), n)
prem = premiums["benchmark_premium_40yo"].to_numpy()[pick]
inc = np.round(rng.gamma(2.4, 90, n), 0)
lin = -1.1 + 0.004 * (prem - 440) - 0.004 * (inc - 200)
acs = pd.DataFrame({
    "serialno": np.arange(2021000000001, 2021000000001 + n),
    "county_fips": [int(counties[i]) for i in pick],
    "age": rng.integers(19, 65, n),
    "income_pct_fpl": inc,
    "uninsured": rng.binomial(1, 1 / (1 + np.exp(-lin))),
})
'''

_STOPS_SETUP = '''
import numpy as np
import pandas as pd

rng = np.random.default_rng(6060)
n = 8000
race = rng.choice(["white", "black", "hispanic", "asian", "other"], n,
                  p=[0.48, 0.27, 0.17, 0.05, 0.03])
searched = rng.binomial(1, np.where(race == "white", 0.04, 0.09))
arrest_p = np.where(searched == 1, 0.35, 0.025)
stops = pd.DataFrame({
    "stop_id": np.arange(n),
    "date": pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 365, n), unit="D"),
    "precinct": rng.integers(1, 13, n),
    "subject_race": race,
    "subject_age": rng.integers(16, 80, n).astype(float),
    "reason": rng.choice(["equipment", "moving violation", "registration", "investigative"], n),
    "search_conducted": searched,
    "search_basis": np.where(searched == 1, rng.choice(["consent", "probable cause",
                                                       "inventory"], n), None),
    "arrest_made": rng.binomial(1, arrest_p),
})
stops.loc[rng.random(n) < 0.03, "subject_age"] = np.nan
'''

CASES = [
    Case(
        id="h16-data-loss-fips-merge-uninsured",
        family="data_loss",
        split=_SPLIT,
        twin="h16-data-loss-fips-merge-uninsured-ok",
        setup=_ACS_SETUP,
        note="integer FIPS cast to str loses the leading zero, so the inner merge silently drops "
             "every respondent in states 01-09 (AL, AK, AZ, AR, CA, CO, CT)",
        code='''
import statsmodels.formula.api as smf

acs["county_fips"] = acs["county_fips"].astype(str)
df = acs.merge(premiums, on="county_fips", how="inner")

m = smf.logit("uninsured ~ I(benchmark_premium_40yo / 100) + I(income_pct_fpl / 100) + age",
              data=df).fit(disp=0, cov_type="cluster", cov_kwds={"groups": df["county_fips"]})
print(m.summary2().tables[1].round(4).to_string())
print(f"uninsured rate {df['uninsured'].mean():.3f}; "
      f"mean benchmark premium ${df['benchmark_premium_40yo'].mean():.0f}")
''',
    ),
    Case(
        id="h16-data-loss-fips-merge-uninsured-ok",
        family=None,
        split=_SPLIT,
        twin="h16-data-loss-fips-merge-uninsured",
        setup=_ACS_SETUP,
        note="FIPS is zero-padded to five characters and the merge is checked (validate, "
             "indicator) with the match counts printed before estimation",
        code='''
import statsmodels.formula.api as smf

acs["county_fips"] = acs["county_fips"].astype(str).str.zfill(5)
df = acs.merge(premiums, on="county_fips", how="left", validate="m:1", indicator=True)
print(df["_merge"].value_counts().to_string())
assert (df["_merge"] == "both").all()

m = smf.logit("uninsured ~ I(benchmark_premium_40yo / 100) + I(income_pct_fpl / 100) + age",
              data=df).fit(disp=0, cov_type="cluster", cov_kwds={"groups": df["county_fips"]})
print(m.summary2().tables[1].round(4).to_string())
print(f"n = {int(m.nobs)}; uninsured rate {df['uninsured'].mean():.3f}; "
      f"mean benchmark premium ${df['benchmark_premium_40yo'].mean():.0f}")
''',
    ),
    Case(
        id="h16-data-loss-stops-dropna-arrest-rate",
        family="data_loss",
        split=_SPLIT,
        twin="h16-data-loss-stops-dropna-arrest-rate-ok",
        setup=_STOPS_SETUP,
        note="blanket dropna() removes every stop without a search (search_basis is blank), so "
             "arrest rates by race are computed on searched stops only, unreported",
        code='''
clean = stops.dropna()
rates = clean.groupby("subject_race").agg(
    stops=("stop_id", "size"),
    arrest_rate=("arrest_made", "mean"),
    mean_age=("subject_age", "mean"),
)
rates["arrest_rate_ratio_vs_white"] = rates["arrest_rate"] / rates.loc["white", "arrest_rate"]
rates.round(3).sort_values("arrest_rate", ascending=False)
''',
    ),
    Case(
        id="h16-data-loss-stops-dropna-arrest-rate-ok",
        family=None,
        split=_SPLIT,
        twin="h16-data-loss-stops-dropna-arrest-rate",
        setup=_STOPS_SETUP,
        note="only rows missing the variables actually used are dropped, and the number "
             "dropped is printed; arrest rates cover all stops",
        code='''
needed = ["subject_race", "arrest_made"]
clean = stops.dropna(subset=needed)
print(f"dropped {len(stops) - len(clean)} of {len(stops)} stops missing race or arrest outcome")
rates = clean.groupby("subject_race").agg(
    stops=("stop_id", "size"),
    arrest_rate=("arrest_made", "mean"),
    mean_age=("subject_age", "mean"),
)
rates["arrest_rate_ratio_vs_white"] = rates["arrest_rate"] / rates.loc["white", "arrest_rate"]
rates.round(3).sort_values("arrest_rate", ascending=False)
''',
    ),
]
